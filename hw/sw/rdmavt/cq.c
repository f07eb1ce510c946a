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
#include <rdma/uverbs_ioctl.h>

#include "vt.h"

/*
 * A destroyed QP's stand-in in the completions it left in a kernel
 * ring: only its number, type and device are set.  Pollers read
 * wc->qp after the poll (ib_uverbs's POLL_CQ turns it into qp_num), so
 * it is freed a grace period after its last completion is polled; the
 * poller reads it under RCU.
 */
struct rvt_gone_qp {
	struct ib_qp		ibqp;
	struct list_head	list;	/* in the CQ's gone_qps */
	struct rcu_head		rcu;
	u32			entries;	/* queued completions naming it */
};

static void rvt_free_gone_qps(struct rvt_cq *cq)
{
	struct rvt_gone_qp *g, *next;

	/* the CQ is going: nobody polls it any more */
	list_for_each_entry_safe(g, next, &cq->gone_qps, list)
		kfree(g);
}

/* Completions naming @qp in @cq's kernel ring (under its lock). */
static u32 rvt_cq_count_qp(struct rvt_cq *cq, struct ib_qp *qp,
			   struct ib_qp *replace)
{
	u32 i, n = 0;

	for (i = cq->tail; i != cq->head; i = i + 1 == cq->size ? 0 : i + 1) {
		if (cq->queue[i].qp != qp)
			continue;
		n++;
		if (replace)
			cq->queue[i].qp = replace;
	}
	return n;
}

/**
 * rvt_cq_forget_qp - a destroyed QP's completions outlive it
 * @ibcq: a CQ of the QP
 * @qp: the QP, which adds no more completions
 *
 * The completions @qp left in @ibcq's kernel ring name a stand-in with
 * its number from now on, so that polling them after the QP is freed
 * (user space's POLL_CQ) reads no freed memory.  Rings in user space
 * carry QP numbers, not pointers: nothing to do there.
 *
 * Context: process context; takes the CQ's lock.
 */
void rvt_cq_forget_qp(struct ib_cq *ibcq, struct ib_qp *qp)
{
	struct rvt_cq *cq = container_of(ibcq, struct rvt_cq, ibcq);
	struct rvt_gone_qp *g;
	unsigned long flags;
	u32 n;

	if (!cq->queue)
		return;
	spin_lock_irqsave(&cq->lock, flags);
	n = rvt_cq_count_qp(cq, qp, NULL);
	spin_unlock_irqrestore(&cq->lock, flags);
	if (!n)
		return;

	g = kzalloc(sizeof(*g), GFP_KERNEL | __GFP_NOFAIL);
	g->ibqp.device = qp->device;
	g->ibqp.qp_num = qp->qp_num;
	g->ibqp.qp_type = qp->qp_type;
	spin_lock_irqsave(&cq->lock, flags);
	/* some may have been polled meanwhile */
	g->entries = rvt_cq_count_qp(cq, qp, &g->ibqp);
	if (g->entries) {
		list_add(&g->list, &cq->gone_qps);
		g = NULL;
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	kfree(g);
}

/* A completion naming a stand-in was polled (under the CQ's lock). */
static void rvt_gone_qp_polled(struct rvt_cq *cq, struct ib_qp *qp)
{
	struct rvt_gone_qp *g;

	list_for_each_entry(g, &cq->gone_qps, list) {
		if (&g->ibqp != qp)
			continue;
		if (!--g->entries) {
			list_del(&g->list);
			kfree_rcu(g, rcu);
		}
		return;
	}
}

static void rvt_free_cq_ring(struct rvt_cq *cq)
{
	rvt_free_gone_qps(cq);
	if (cq->drv_ring)
		cq->rdi->driver_f.destroy_user_cq(cq);
	else if (cq->uq)
		rvt_mmap_remove(cq->mmap);
	else
		kvfree(cq->queue);
}

/*
 * The entry user space polls next.  It writes it: one past the ring
 * (a broken ring) counts as everything polled.
 */
static u32 rvt_cq_tail(struct rvt_cq *cq)
{
	u32 tail;

	if (!cq->uq)
		return cq->tail;
	/* the entries before it are free once it is read */
	tail = smp_load_acquire(&cq->uq->tail.val);
	return tail < cq->size ? tail : cq->head;
}

/**
 * rvt_uverbs_wc - a completion as user space reads it
 * @u: where it goes (a user CQ's ring)
 * @wc: the completion
 *
 * For rdmavt's rings and a driver's (driver_f.user_cq_push): both
 * ABIs put struct ib_uverbs_wc in their rings.
 *
 * Context: any.
 */
void rvt_uverbs_wc(struct ib_uverbs_wc *u, const struct ib_wc *wc)
{
	*u = (struct ib_uverbs_wc) {
		.wr_id = wc->wr_id,
		.status = wc->status,
		.opcode = wc->opcode,
		.vendor_err = wc->vendor_err,
		.byte_len = wc->byte_len,
		.ex.imm_data = wc->ex.imm_data,
		.qp_num = wc->qp->qp_num,
		.src_qp = wc->src_qp,
		.wc_flags = wc->wc_flags,
		.pkey_index = wc->pkey_index,
		.slid = ib_lid_cpu16(wc->slid),
		.sl = wc->sl,
		.dlid_path_bits = wc->dlid_path_bits,
		.port_num = wc->port_num,
	};
}
EXPORT_SYMBOL(rvt_uverbs_wc);

/*
 * A user CQ gets its ring in user space when the driver data has room
 * for the offset user space maps it at (rdmavt's ABI, ipathverbs); with
 * none (the ipath ABI 1) completions stay in the kernel and user space
 * polls with POLL_CQ.  A driver with a user ABI of its own makes its
 * ring (create_user_cq), or takes no user CQ.
 */
static int rvt_create_user_cq(struct rvt_cq *cq, struct ib_udata *udata)
{
	struct rvt_dev_info *rdi = cq->rdi;
	u64 offset;
	void *ring;
	int ret;

	if (rdi->dparms.driver_user_abi) {
		if (!rdi->driver_f.create_user_cq)
			return -EOPNOTSUPP;
		ret = rdi->driver_f.create_user_cq(cq, udata);
		/* a driver that made none has nothing to take completions */
		if (!ret && WARN_ON_ONCE(!cq->drv_ring))
			ret = -EINVAL;
		return ret;
	}
	if (udata->outlen < sizeof(offset))
		return 0;
	ring = rvt_mmap_alloc(udata, struct_size(cq->uq, uqueue, cq->size),
			      &cq->mmap, &offset);
	if (IS_ERR(ring))
		return PTR_ERR(ring);
	ret = ib_copy_to_udata(udata, &offset, sizeof(offset));
	if (ret) {
		rvt_mmap_remove(cq->mmap);
		return ret;
	}
	cq->uq = ring;
	return 0;
}

int rvt_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct uverbs_attr_bundle *attrs)
{
	struct rvt_dev_info *rdi = ib_to_rvt(ibcq->device);
	struct rvt_cq *cq = container_of(ibcq, struct rvt_cq, ibcq);
	int ret;

	if (attr->flags)
		return -EOPNOTSUPP;
	if (attr->cqe < 1 || attr->cqe > rdi->dparms.props.max_cqe)
		return -EINVAL;
	if (attr->comp_vector >= rdi->ibdev.num_comp_vectors)
		return -EINVAL;

	cq->rdi = rdi;
	cq->size = attr->cqe + 1;
	/* a driver's ring may hold more */
	ibcq->cqe = attr->cqe;
	spin_lock_init(&cq->lock);
	INIT_LIST_HEAD(&cq->gone_qps);
	if (attrs) {
		ret = rvt_create_user_cq(cq, &attrs->driver_udata);
		if (ret)
			return ret;
	}
	if (!cq->uq && !cq->drv_ring) {
		cq->queue = kvcalloc(cq->size, sizeof(*cq->queue), GFP_KERNEL);
		if (!cq->queue)
			return -ENOMEM;
	}

	spin_lock(&rdi->n_lock);
	if (rdi->n_cqs >= rdi->dparms.props.max_cq) {
		spin_unlock(&rdi->n_lock);
		rvt_free_cq_ring(cq);
		return -ENOMEM;
	}
	rdi->n_cqs++;
	spin_unlock(&rdi->n_lock);
	return 0;
}

int rvt_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct rvt_cq *cq = container_of(ibcq, struct rvt_cq, ibcq);

	spin_lock(&cq->rdi->n_lock);
	cq->rdi->n_cqs--;
	spin_unlock(&cq->rdi->n_lock);
	rvt_free_cq_ring(cq);
	return 0;
}

int rvt_modify_cq(struct ib_cq *ibcq, u16 cq_count, u16 cq_period)
{
	/* completions are delivered at once: moderation has nothing to do */
	return 0;
}

/*
 * A user CQ's new ring: the completions user space has not polled move
 * over, and user space maps the new ring at the offset answered.
 */
static int rvt_resize_user_cq(struct rvt_cq *cq, int cqe,
			      struct ib_udata *udata)
{
	struct rvt_mmap_entry *entry, *old_entry;
	struct rvt_cq_wc *uq, *old;
	unsigned long flags;
	u32 n, i, tail;
	u64 offset;
	int ret;

	if (!udata || udata->outlen < sizeof(offset))
		return -EINVAL;
	uq = rvt_mmap_alloc(udata, struct_size(uq, uqueue, cqe + 1), &entry,
			    &offset);
	if (IS_ERR(uq))
		return PTR_ERR(uq);
	ret = ib_copy_to_udata(udata, &offset, sizeof(offset));
	if (ret)
		goto err;

	spin_lock_irqsave(&cq->lock, flags);
	tail = rvt_cq_tail(cq);
	n = (cq->head + cq->size - tail) % cq->size;
	if (n > cqe) {
		spin_unlock_irqrestore(&cq->lock, flags);
		ret = -EINVAL;
		goto err;
	}
	for (i = 0; i < n; i++) {
		uq->uqueue[i] = cq->uq->uqueue[tail];
		tail = tail + 1 == cq->size ? 0 : tail + 1;
	}
	old = cq->uq;
	old_entry = cq->mmap;
	cq->uq = uq;
	cq->mmap = entry;
	cq->size = cqe + 1;
	cq->head = n;
	cq->ibcq.cqe = cqe;
	/* the entries moved over are whole before the head says so */
	smp_store_release(&uq->head.val, n);
	spin_unlock_irqrestore(&cq->lock, flags);
	rvt_mmap_remove(old_entry);
	return 0;

err:
	rvt_mmap_remove(entry);
	return ret;
}

int rvt_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata)
{
	struct rvt_cq *cq = container_of(ibcq, struct rvt_cq, ibcq);
	struct ib_wc *queue, *old;
	unsigned long flags;
	u32 n, i;
	int ret = 0;

	if (cqe < 1 || cqe > cq->rdi->dparms.props.max_cqe)
		return -EINVAL;
	if (cq->drv_ring)
		return cq->rdi->driver_f.resize_user_cq ?
		       cq->rdi->driver_f.resize_user_cq(cq, cqe, udata) :
		       -EOPNOTSUPP;
	if (cq->uq)
		return rvt_resize_user_cq(cq, cqe, udata);
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
	bool notify = false, full;
	unsigned long flags;
	u32 next = 0;

	/*
	 * IRQ safe: completions come from the poster's context (whatever
	 * it is), the engine's work item and a wire driver's softirq.
	 */
	spin_lock_irqsave(&cq->lock, flags);
	if (cq->drv_ring) {
		full = !cq->rdi->driver_f.user_cq_push(cq, entry);
	} else {
		/* one slot stays empty: head == tail is empty, not full */
		next = cq->head + 1 == cq->size ? 0 : cq->head + 1;
		full = next == rvt_cq_tail(cq);
	}
	if (full) {
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
	/* a driver's ring: its hook wrote and published the entry */
	if (cq->uq) {
		rvt_uverbs_wc(&cq->uq->uqueue[cq->head], entry);
		/* the entry is whole before user space sees the head move */
		smp_store_release(&cq->uq->head.val, next);
		cq->head = next;
	} else if (!cq->drv_ring) {
		cq->queue[cq->head] = *entry;
		cq->head = next;
	}
	/* an arming is good for one event: the consumer arms again */
	if (cq->notify == IB_CQ_NEXT_COMP ||
	    (cq->notify == IB_CQ_SOLICITED &&
	     (solicited || entry->status != IB_WC_SUCCESS))) {
		cq->notify = 0;
		notify = true;
	}
	/* an arming user space wrote into its ring (driver_user_abi) */
	if (cq->drv_ring && cq->rdi->driver_f.user_cq_notify &&
	    cq->rdi->driver_f.user_cq_notify(cq, solicited))
		notify = true;
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

	/* user space polls a ring it maps itself */
	if (cq->uq || cq->drv_ring)
		return -EINVAL;
	/* a batch per lock section: ib_process_cq polls 16 at a time */
	spin_lock_irqsave(&cq->lock, flags);
	for (n = 0; n < num_entries && cq->tail != cq->head; n++) {
		entry[n] = cq->queue[cq->tail];
		cq->tail = cq->tail + 1 == cq->size ? 0 : cq->tail + 1;
		if (unlikely(!list_empty(&cq->gone_qps)))
			rvt_gone_qp_polled(cq, entry[n].qp);
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
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) &&
	    (cq->drv_ring ? !cq->rdi->driver_f.user_cq_empty(cq) :
	     cq->head != rvt_cq_tail(cq)))
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, lflags);
	return ret;
}
