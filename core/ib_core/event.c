// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Asynchronous events: drivers report them with ib_dispatch_event() from
 * any context; the core refreshes its cache and then calls the handlers
 * registered for the device, in order, from an ordered workqueue.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#include "core_priv.h"

struct workqueue_struct *ib_event_wq;

struct ib_event_work {
	struct work_struct	work;
	struct ib_event		event;
};

/**
 * ib_register_event_handler - register a handler for a device's events
 * @event_handler: the handler, set up with INIT_IB_EVENT_HANDLER()
 *
 * The handler is called from a workqueue for every event of its device
 * dispatched after this returns, with the device's event handler lock
 * held for read: it may sleep but must not (un)register handlers.
 *
 * Context: Process context; may sleep. Takes the device's event_handler_rwsem
 * for write.
 */
void ib_register_event_handler(struct ib_event_handler *event_handler)
{
	struct ib_device *device = event_handler->device;

	down_write(&device->event_handler_rwsem);
	list_add_tail(&event_handler->list, &device->event_handler_list);
	up_write(&device->event_handler_rwsem);
}
EXPORT_SYMBOL(ib_register_event_handler);

/**
 * ib_unregister_event_handler - unregister an event handler
 * @event_handler: the handler
 *
 * When this returns, the handler is not running and will not be called.
 *
 * Context: Process context; sleeps until a delivery in progress has finished.
 * Takes the device's event_handler_rwsem for write, so it must not be called
 * from an event handler.
 */
void ib_unregister_event_handler(struct ib_event_handler *event_handler)
{
	struct ib_device *device = event_handler->device;

	down_write(&device->event_handler_rwsem);
	list_del(&event_handler->list);
	up_write(&device->event_handler_rwsem);
}
EXPORT_SYMBOL(ib_unregister_event_handler);

static void ib_deliver_event(const struct ib_event *event)
{
	struct ib_device *device = event->device;
	struct ib_event_handler *handler;

	down_read(&device->event_handler_rwsem);
	list_for_each_entry(handler, &device->event_handler_list, list)
		handler->handler(handler, (struct ib_event *)event);
	up_read(&device->event_handler_rwsem);
}

static void ib_event_work(struct work_struct *work)
{
	struct ib_event_work *ew = container_of(work, struct ib_event_work,
						work);

	if (ib_cache_event(&ew->event))
		ib_deliver_event(&ew->event);
	ib_device_put(ew->event.device);
	kfree(ew);
}

/**
 * ib_dispatch_event - report an asynchronous event
 * @event: the event; copied, so it may live on the caller's stack
 *
 * May be called from any context, including interrupts.  Events of a
 * device that is not registered (or is being unregistered) are dropped,
 * as are events when memory runs out.
 *
 * Context: Any context; does not sleep. Allocates with GFP_ATOMIC and takes a
 * device reference that the work item drops.
 */
void ib_dispatch_event(const struct ib_event *event)
{
	struct ib_event_work *ew;

	if (!ib_device_try_get(event->device))
		return;

	ew = kmalloc(sizeof(*ew), GFP_ATOMIC);
	if (!ew) {
		ib_device_put(event->device);
		return;
	}
	INIT_WORK(&ew->work, ib_event_work);
	ew->event = *event;
	queue_work(ib_event_wq, &ew->work);
}
EXPORT_SYMBOL(ib_dispatch_event);

/**
 * ib_event_flush - wait for the delivery of events dispatched so far
 * @device: the device (all devices share one queue)
 *
 * Context: Process context; sleeps until the event workqueue is idle. Not from
 * an event handler (it runs on that workqueue).
 */
void ib_event_flush(struct ib_device *device)
{
	flush_workqueue(ib_event_wq);
}
EXPORT_SYMBOL_IF_KUNIT(ib_event_flush);
