/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdmavt's user ABI, binary-compatible with upstream's: the rings a
 * user CQ, QP or SRQ of an rdmavt device maps (mmap() of uverbsN at the
 * offset the create command answers in its driver data), as the
 * providers of rdmavt devices (ipathverbs) read and write them.
 *
 * A CQ's ring has ibcq.cqe + 1 entries: the kernel fills at head, user
 * space polls at tail.  A receive queue's ring has max_recv_wr + 1
 * entries of struct rvt_rwqe with max_recv_sge SGEs each: user space
 * posts at head, the kernel takes at tail.  Each side writes its index
 * after the entries it covers (release) and reads the other's before
 * them (acquire).
 */
#ifndef RVT_ABI_USER_H
#define RVT_ABI_USER_H

#include <linux/types.h>
#include <rdma/ib_user_verbs.h>

#ifndef RDMA_ATOMIC_UAPI
#define RDMA_ATOMIC_UAPI(_type, _name) struct { _type val; } _name
#endif

/* an SGE of a receive work request: the layout of struct ib_sge */
struct rvt_wqe_sge {
	__aligned_u64 addr;
	__u32 length;
	__u32 lkey;
};

/* a CQ's ring */
struct rvt_cq_wc {
	RDMA_ATOMIC_UAPI(__u32, head);
	RDMA_ATOMIC_UAPI(__u32, tail);
	struct ib_uverbs_wc uqueue[];
};

/* a receive work request in a ring */
struct rvt_rwqe {
	__u64 wr_id;
	__u8 num_sge;
	__u8 padding[7];
	struct rvt_wqe_sge sg_list[];
};

/*
 * A receive queue's ring.  Its entries are as long as the queue's SGE
 * count makes them: the kernel addresses them by that stride, as bytes
 * (an array of a structure that ends in a flexible array is no C array
 * it could index).
 */
struct rvt_rwq {
	RDMA_ATOMIC_UAPI(__u32, head);
	RDMA_ATOMIC_UAPI(__u32, tail);
#ifdef __KERNEL__
	__u8 wq[] __attribute__((aligned(8)));
#else
	struct rvt_rwqe wq[];
#endif
};

#endif /* RVT_ABI_USER_H */
