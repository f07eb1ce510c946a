/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdmavt completion queues.
 */
#ifndef RDMAVT_CQ_H
#define RDMAVT_CQ_H

#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

struct rvt_dev_info;

/**
 * struct rvt_cq - a completion queue
 * @ibcq: the core's part
 * @lock: protects the ring and @notify
 * @queue: ring of @size entries (one more than ibcq.cqe)
 * @head: next entry to write
 * @tail: next entry to poll
 * @size: entries of @queue
 * @notify: armed notification (IB_CQ_SOLICITED or IB_CQ_NEXT_COMP), 0
 * @comp_work: calls the completion handler outside the poster's context
 * @rdi: the device
 */
struct rvt_cq {
	struct ib_cq		ibcq;
	spinlock_t		lock;	/* see above */
	struct ib_wc		*queue;
	u32			head;
	u32			tail;
	u32			size;
	u8			notify;
	struct work_struct	comp_work;
	struct rvt_dev_info	*rdi;
};

bool rvt_cq_enter(struct rvt_cq *cq, struct ib_wc *entry, bool solicited);

#endif /* RDMAVT_CQ_H */
