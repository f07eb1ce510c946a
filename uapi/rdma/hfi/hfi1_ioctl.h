/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * The structures of hfi1's user device ioctls (numbers in
 * <rdma/rdma_user_ioctl.h>), as the PSM library passes them.  Their
 * layout is fixed: the same for 32-bit and 64-bit user space, hence the
 * explicit padding and the aligned 64-bit fields.
 */
#ifndef _LINUX__HFI1_IOCTL_H
#define _LINUX__HFI1_IOCTL_H

#include <linux/types.h>

/* HFI1_IOCTL_ASSIGN_CTXT: which context the process wants */
struct hfi1_user_info {
	__u32 userversion;	/* HFI1_USER_SWVERSION of the caller */
	__u32 pad;
	/* processes sharing one context give the same count and ID */
	__u16 subctxt_cnt;
	__u16 subctxt_id;
	__u8 uuid[16];		/* the job's UUID */
};

/* HFI1_IOCTL_CTXT_INFO: what the process got */
struct hfi1_ctxt_info {
	__aligned_u64 runtime_flags;	/* HFI1_CAP_* in force */
	__u32 rcvegr_size;		/* bytes per eager buffer */
	__u16 num_active;		/* active units */
	__u16 unit;			/* the unit assigned */
	__u16 ctxt;			/* the context on it */
	__u16 subctxt;			/* the subcontext */
	__u16 rcvtids;			/* receive TIDs of the context */
	__u16 credits;			/* PIO credits of the context */
	__u16 numa_node;		/* the device's node */
	__u16 rec_cpu;			/* CPU to run on, 0xffff: any */
	__u16 send_ctxt;		/* the send context */
	__u16 egrtids;			/* RcvArray entries for eager receives */
	__u16 rcvhdrq_cnt;		/* RcvHdrQ entries */
	__u16 rcvhdrq_entsize;		/* bytes per RcvHdrQ entry */
	__u16 sdma_ring_size;		/* entries of the SDMA request ring */
};

/* HFI1_IOCTL_TID_UPDATE, _TID_FREE, _TID_INVAL_READ */
struct hfi1_tid_info {
	__aligned_u64 vaddr;	/* first page of the buffer */
	__aligned_u64 tidlist;	/* user pointer to the array of TIDs */
	__u32 tidcnt;		/* TIDs programmed */
	__u32 length;		/* bytes of the buffer programmed */
};

/* HFI1_IOCTL_USER_INFO: versions and the addresses to mmap() */
struct hfi1_base_info {
	__u32 hw_version;
	__u32 sw_version;
	__u16 jkey;			/* job key */
	__u16 padding1;
	__u32 bthqp;			/* the QP number marking PSM packets */
	__aligned_u64 sc_credits_addr;	/* PIO credit return */
	__aligned_u64 pio_bufbase_sop;	/* PIO buffers, start of packet */
	__aligned_u64 pio_bufbase;	/* PIO buffers */
	__aligned_u64 rcvhdr_bufbase;	/* receive header queue */
	__aligned_u64 rcvegr_bufbase;	/* eager receive buffers */
	__aligned_u64 sdma_comp_bufbase; /* SDMA completion ring */
	__aligned_u64 user_regbase;	/* user registers (init code only) */
	__aligned_u64 events_bufbase;	/* event notifications */
	__aligned_u64 status_bufbase;	/* status page */
	__aligned_u64 rcvhdrtail_base;	/* receive header tail */
	/* pages shared by the subcontexts of a shared context */
	__aligned_u64 subctxt_uregbase;
	__aligned_u64 subctxt_rcvegrbuf;
	__aligned_u64 subctxt_rcvhdrbuf;
};

#endif /* _LINUX__HFI1_IOCTL_H */
