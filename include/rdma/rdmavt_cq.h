/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdmavt completion queues.
 */
#ifndef RDMAVT_CQ_H
#define RDMAVT_CQ_H

#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>
#include <rdma/rvt-abi.h>

struct rvt_dev_info;
struct rvt_mmap_entry;

/**
 * struct rvt_cq - a completion queue
 * @ibcq: the core's part
 * @lock: protects the ring and @notify (IRQ safe); a driver's ring
 *	(@drv_ring) too: its push and empty hooks run under it, its resize
 *	takes it
 * @queue: ring of @size entries (one more than ibcq.cqe), NULL for a
 *	user CQ with @uq
 * @uq: a user CQ's ring, mapped by user space (uapi/rdma/rvt-abi.h),
 *	or NULL; user space polls it and writes its tail
 * @mmap: @uq's mmap entry
 * @drv_ring: a user CQ's ring in its driver's format (driver_user_abi:
 *	driver_f.create_user_cq), or NULL; the driver's hooks write and
 *	read it under @lock
 * @head: next entry to write (published in @uq's head)
 * @tail: next entry to poll (a kernel ring's)
 * @size: entries of @queue
 * @notify: armed notification (IB_CQ_SOLICITED or IB_CQ_NEXT_COMP), 0
 * @gone_qps: stand-ins for destroyed QPs whose completions wait in
 *	@queue (rvt_cq_forget_qp()), under @lock
 * @comp_work: calls the completion handler outside the poster's context
 * @rdi: the device
 */
struct rvt_cq {
	struct ib_cq		ibcq;
	spinlock_t		lock;	/* see above */
	struct ib_wc		*queue;
	struct rvt_cq_wc	*uq;
	struct rvt_mmap_entry	*mmap;
	void			*drv_ring;
	u32			head;
	u32			tail;
	u32			size;
	u8			notify;
	struct list_head	gone_qps;
	struct work_struct	comp_work;
	struct rvt_dev_info	*rdi;
};

bool rvt_cq_enter(struct rvt_cq *cq, struct ib_wc *entry, bool solicited);
void rvt_uverbs_wc(struct ib_uverbs_wc *u, const struct ib_wc *wc);

#endif /* RDMAVT_CQ_H */
