// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A context's asynchronous event file: the async_fd GET_CONTEXT returns.
 * read() gives one struct ib_uverbs_async_event_desc per call (element:
 * the port number for a port event), blocking unless O_NONBLOCK; poll()
 * says when one is there.  The port events of the device reach it
 * through an ib_event_handler while the context lives; when the device
 * goes away it gets IB_EVENT_DEVICE_FATAL and, once that is read,
 * read() answers -EIO.
 */
#include <linux/anon_inodes.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "uverbs_priv.h"

/* An event waiting to be read. */
struct uverbs_async_event {
	struct list_head			list;
	struct ib_uverbs_async_event_desc	desc;
};

static void uverbs_async_free(struct kref *ref)
{
	struct uverbs_async_file *af = container_of(ref,
						    struct uverbs_async_file,
						    ref);
	struct uverbs_async_event *ev, *tmp;

	list_for_each_entry_safe(ev, tmp, &af->events, list)
		kfree(ev);
	kfree(af);
}

/**
 * uverbs_async_put - drop a reference on an event file's state
 * @af: the state
 *
 * Context: any context.
 */
void uverbs_async_put(struct uverbs_async_file *af)
{
	kref_put(&af->ref, uverbs_async_free);
}

/**
 * uverbs_async_queue - queue an event for the file's reader
 * @af: the event file
 * @element: the port number, or the user handle of the object
 * @type: the event (enum ib_event_type)
 *
 * Nothing is queued once the file is closed or has been told the device
 * is gone.
 *
 * Context: any context; takes the file's spinlock, allocates atomically
 * (an event that finds no memory is dropped).
 */
void uverbs_async_queue(struct uverbs_async_file *af, u64 element, u32 type)
{
	struct uverbs_async_event *ev;
	unsigned long flags;

	ev = kzalloc(sizeof(*ev), GFP_ATOMIC);
	if (!ev)
		return;
	ev->desc.element = element;
	ev->desc.event_type = type;
	spin_lock_irqsave(&af->lock, flags);
	if (af->closed || af->dead) {
		spin_unlock_irqrestore(&af->lock, flags);
		kfree(ev);
		return;
	}
	list_add_tail(&ev->list, &af->events);
	if (type == IB_EVENT_DEVICE_FATAL)
		af->dead = true;
	spin_unlock_irqrestore(&af->lock, flags);
	wake_up_interruptible(&af->wait);
}

static void uverbs_async_handler(struct ib_event_handler *handler,
				 struct ib_event *event)
{
	struct uverbs_async_file *af = container_of(handler,
						    struct uverbs_async_file,
						    handler);

	/* the device's events: each names a port */
	uverbs_async_queue(af, event->element.port_num, event->event);
}

/**
 * uverbs_async_start - deliver the device's port events to the file
 * @af: the event file
 * @ib_dev: the device
 *
 * Context: process context; sleeps (ib_register_event_handler()).
 */
void uverbs_async_start(struct uverbs_async_file *af, struct ib_device *ib_dev)
{
	INIT_IB_EVENT_HANDLER(&af->handler, ib_dev, uverbs_async_handler);
	ib_register_event_handler(&af->handler);
	af->registered = true;
}

/**
 * uverbs_async_stop - no more port events for the file
 * @af: the event file
 *
 * Context: process context; waits for a delivery in progress.
 */
void uverbs_async_stop(struct uverbs_async_file *af)
{
	if (!af->registered)
		return;
	ib_unregister_event_handler(&af->handler);
	af->registered = false;
}

static ssize_t uverbs_async_read(struct file *filp, char __user *buf,
				 size_t count, loff_t *pos)
{
	struct uverbs_async_file *af = filp->private_data;
	struct ib_uverbs_async_event_desc desc;
	struct uverbs_async_event *ev;

	if (count < sizeof(desc))
		return -EINVAL;
	spin_lock_irq(&af->lock);
	while (list_empty(&af->events)) {
		spin_unlock_irq(&af->lock);
		if (READ_ONCE(af->dead))
			return -EIO;
		if (filp->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(af->wait,
					     !list_empty(&af->events) ||
					     READ_ONCE(af->dead)))
			return -ERESTARTSYS;
		spin_lock_irq(&af->lock);
	}
	ev = list_first_entry(&af->events, struct uverbs_async_event, list);
	list_del(&ev->list);
	spin_unlock_irq(&af->lock);
	desc = ev->desc;
	kfree(ev);
	if (copy_to_user(buf, &desc, sizeof(desc)))
		return -EFAULT;
	return sizeof(desc);
}

static __poll_t uverbs_async_poll(struct file *filp, poll_table *wait)
{
	struct uverbs_async_file *af = filp->private_data;
	__poll_t mask = 0;

	poll_wait(filp, &af->wait, wait);
	spin_lock_irq(&af->lock);
	if (!list_empty(&af->events))
		mask = EPOLLIN | EPOLLRDNORM;
	else if (af->dead)
		mask = EPOLLERR;
	spin_unlock_irq(&af->lock);
	return mask;
}

static int uverbs_async_release(struct inode *inode, struct file *filp)
{
	struct uverbs_async_file *af = filp->private_data;

	spin_lock_irq(&af->lock);
	af->closed = true;
	spin_unlock_irq(&af->lock);
	uverbs_async_put(af);
	return 0;
}

static const struct file_operations uverbs_async_fops = {
	.owner = THIS_MODULE,
	.read = uverbs_async_read,
	.poll = uverbs_async_poll,
	.release = uverbs_async_release,
};

/**
 * uverbs_async_create - a new event file
 * @filp: where the struct file goes; the caller installs it in an fd or
 *	puts it
 *
 * Context: process context; sleeps.
 * Return: the state, with a reference for the caller and one for the
 * file, or an ERR_PTR() (-ENOMEM, an error of anon_inode_getfile()).
 */
struct uverbs_async_file *uverbs_async_create(struct file **filp)
{
	struct uverbs_async_file *af;
	struct file *f;

	af = kzalloc(sizeof(*af), GFP_KERNEL);
	if (!af)
		return ERR_PTR(-ENOMEM);
	kref_init(&af->ref);
	spin_lock_init(&af->lock);
	INIT_LIST_HEAD(&af->events);
	init_waitqueue_head(&af->wait);
	f = anon_inode_getfile("[infinibandevent]", &uverbs_async_fops, af,
			       O_RDONLY);
	if (IS_ERR(f)) {
		kfree(af);
		return ERR_CAST(f);
	}
	kref_get(&af->ref);	/* the file's */
	*filp = f;
	return af;
}
