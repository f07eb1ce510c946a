// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdmavt completion queues: a ring of work completions per CQ.
 *
 * rvt_cq_enter() adds a completion and, when the CQ is armed for it,
 * calls the CQ's completion handler with bottom halves disabled, so a
 * softirq poller scheduled by the handler runs as soon as they are
 * enabled again.  Handlers are called outside the ring lock.
 */

#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <rdma/rdma_vt.h>

#include "vt.h"

int rvt_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct uverbs_attr_bundle *attrs)
{
	struct rvt_dev_info *rdi = ib_to_rvt(ibcq->device);
	struct rvt_cq *cq = container_of(ibcq, struct rvt_cq, ibcq);

	if (attr->flags)
		return -EOPNOTSUPP;
	if (attr->cqe < 1 || attr->cqe > rdi->dparms.props.max_cqe)
		return -EINVAL;
	if (attr->comp_vector >= rdi->ibdev.num_comp_vectors)
		return -EINVAL;

	cq->size = attr->cqe + 1;
	cq->queue = kvcalloc(cq->size, sizeof(*cq->queue), GFP_KERNEL);
	if (!cq->queue)
		return -ENOMEM;

	spin_lock(&rdi->n_lock);
	if (rdi->n_cqs >= rdi->dparms.props.max_cq) {
		spin_unlock(&rdi->n_lock);
		kvfree(cq->queue);
		return -ENOMEM;
	}
	rdi->n_cqs++;
	spin_unlock(&rdi->n_lock);

	spin_lock_init(&cq->lock);
	cq->rdi = rdi;
	ibcq->cqe = attr->cqe;
	return 0;
}

int rvt_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct rvt_cq *cq = container_of(ibcq, struct rvt_cq, ibcq);

	spin_lock(&cq->rdi->n_lock);
	cq->rdi->n_cqs--;
	spin_unlock(&cq->rdi->n_lock);
	kvfree(cq->queue);
	return 0;
}

int rvt_modify_cq(struct ib_cq *ibcq, u16 cq_count, u16 cq_period)
{
	/* completions are delivered at once: moderation has nothing to do */
	return 0;
}

int rvt_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata)
{
	struct rvt_cq *cq = container_of(ibcq, struct rvt_cq, ibcq);
	struct ib_wc *queue, *old;
	unsigned long flags;
	u32 n, i;
	int ret = 0;

	if (udata)
		return -EOPNOTSUPP;
	if (cqe < 1 || cqe > cq->rdi->dparms.props.max_cqe)
		return -EINVAL;
	queue = kvcalloc(cqe + 1, sizeof(*queue), GFP_KERNEL);
	if (!queue)
		return -ENOMEM;

	/* the completions not polled yet move over, oldest first */
	spin_lock_irqsave(&cq->lock, flags);
	n = (cq->head + cq->size - cq->tail) % cq->size;
	if (n > cqe) {
		ret = -EINVAL;
		goto unlock;
	}
	for (i = 0; i < n; i++) {
		queue[i] = cq->queue[cq->tail];
		cq->tail = cq->tail + 1 == cq->size ? 0 : cq->tail + 1;
	}
	old = cq->queue;
	cq->queue = queue;
	cq->size = cqe + 1;
	cq->tail = 0;
	cq->head = n;
	ibcq->cqe = cqe;
	queue = old;
unlock:
	spin_unlock_irqrestore(&cq->lock, flags);
	kvfree(queue);
	return ret;
}

/**
 * rvt_cq_enter - add a completion to a CQ
 * @cq: the CQ
 * @entry: the completion
 * @solicited: the request asked for a solicited event
 *
 * On overflow the completion is lost and the CQ's event handler gets
 * IB_EVENT_CQ_ERR.
 *
 * Context: Process or softirq context, with interrupts enabled (not from a
 * hard interrupt nor under an IRQ-disabling lock): takes the CQ's lock
 * (IRQ safe) and calls the CQ's event or completion handler without it,
 * the completion handler with bottom halves disabled, whose
 * local_bh_enable() needs interrupts on. May be called under a QP's
 * r_lock (BH).
 *
 * Return: true when the completion was added.
 */
bool rvt_cq_enter(struct rvt_cq *cq, struct ib_wc *entry, bool solicited)
{
	bool notify = false;
	unsigned long flags;
	u32 next;

	/*
	 * IRQ safe: completions come from the poster's context (whatever
	 * it is), the engine's work item and a wire driver's softirq.
	 */
	spin_lock_irqsave(&cq->lock, flags);
	/* one slot stays empty, so head == tail means empty, not full */
	next = cq->head + 1 == cq->size ? 0 : cq->head + 1;
	if (next == cq->tail) {
		spin_unlock_irqrestore(&cq->lock, flags);
		if (cq->ibcq.event_handler) {
			struct ib_event ev = {
				.device = cq->ibcq.device,
				.element.cq = &cq->ibcq,
				.event = IB_EVENT_CQ_ERR,
			};

			cq->ibcq.event_handler(&ev, cq->ibcq.cq_context);
		}
		return false;
	}
	cq->queue[cq->head] = *entry;
	cq->head = next;
	/* an arming is good for one event: the consumer arms again */
	if (cq->notify == IB_CQ_NEXT_COMP ||
	    (cq->notify == IB_CQ_SOLICITED &&
	     (solicited || entry->status != IB_WC_SUCCESS))) {
		cq->notify = 0;
		notify = true;
	}
	spin_unlock_irqrestore(&cq->lock, flags);

	/*
	 * Outside the ring lock: the handler may poll this CQ.  Bottom
	 * halves off: a handler that schedules irq_poll (IB_POLL_SOFTIRQ)
	 * gets it run when they come back on, on this CPU, not later.
	 */
	if (notify && cq->ibcq.comp_handler) {
		local_bh_disable();
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
		local_bh_enable();
	}
	return true;
}
EXPORT_SYMBOL(rvt_cq_enter);

int rvt_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *entry)
{
	struct rvt_cq *cq = container_of(ibcq, struct rvt_cq, ibcq);
	unsigned long flags;
	int n;

	/* a batch per lock section: ib_process_cq polls 16 at a time */
	spin_lock_irqsave(&cq->lock, flags);
	for (n = 0; n < num_entries && cq->tail != cq->head; n++) {
		entry[n] = cq->queue[cq->tail];
		cq->tail = cq->tail + 1 == cq->size ? 0 : cq->tail + 1;
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

int rvt_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct rvt_cq *cq = container_of(ibcq, struct rvt_cq, ibcq);
	unsigned long lflags;
	int ret = 0;

	spin_lock_irqsave(&cq->lock, lflags);
	/* an armed "next completion" also covers solicited ones */
	if (cq->notify != IB_CQ_NEXT_COMP)
		cq->notify = flags & IB_CQ_SOLICITED_MASK;
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) && cq->head != cq->tail)
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, lflags);
	return ret;
}
