/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rxe's user ABI, binary-compatible with upstream's, so that the rxe
 * provider of libibverbs (librxe) drives our soft-RoCE devices: the
 * driver data of the CQ, QP, SRQ and AH commands, and the layout of the
 * queues mapped into the process.
 *
 * Every queue is one buffer (mmap() of uverbsN at the offset of its
 * struct mminfo): a struct rxe_queue_buf, then index_mask + 1 slots of
 * 2^log2_elem_size bytes.  The producer writes a slot, then its index
 * (release); the consumer reads the index (acquire), then the slot.
 * Indices run from 0 to index_mask and wrap.  A queue is full when the
 * slot after the producer's is the consumer's, so it holds index_mask
 * entries.  Completion queues: the kernel produces struct ib_uverbs_wc;
 * send queues: user space produces struct rxe_send_wqe; receive queues
 * and SRQs: user space produces struct rxe_recv_wqe.
 */
#ifndef RDMA_USER_RXE_H
#define RDMA_USER_RXE_H

#include <linux/types.h>
#include <linux/socket.h>
#include <linux/in.h>
#include <linux/in6.h>

/* rxe_av.network_type */
enum {
	RXE_NETWORK_TYPE_IPV4 = 1,
	RXE_NETWORK_TYPE_IPV6 = 2,
};

/* a GID as raw bytes or as subnet prefix and interface id */
union rxe_gid {
	__u8	raw[16];
	struct {
		__be64	subnet_prefix;
		__be64	interface_id;
	} global;
};

/* the GRH part of an address vector */
struct rxe_global_route {
	union rxe_gid	dgid;
	__u32		flow_label;
	__u8		sgid_index;
	__u8		hop_limit;
	__u8		traffic_class;
};

/*
 * An address vector as old kernels took it from a UD send request (when
 * CREATE_AH answered no ah_num); ours always answers one.
 */
struct rxe_av {
	__u8			port_num;
	__u8			network_type;
	__u8			dmac[6];
	struct rxe_global_route	grh;
	union {
		struct sockaddr_in	_sockaddr_in;
		struct sockaddr_in6	_sockaddr_in6;
	} sgid_addr, dgid_addr;
};

/*
 * A send work request: opcode and send_flags are libibverbs' values
 * (IB_UVERBS_WR_*, IB_SEND_*); the union by opcode (and for SENDs of a
 * UD QP: ud).
 */
struct rxe_send_wr {
	__aligned_u64		wr_id;
	__u32			reserved;
	__u32			opcode;
	__u32			send_flags;
	union {
		__be32		imm_data;
		__u32		invalidate_rkey;
	} ex;
	union {
		struct {
			__aligned_u64 remote_addr;
			__u32	length;
			__u32	rkey;
			__u8	type;
			__u8	level;
		} flush;
		struct {
			__aligned_u64 remote_addr;
			__u32	rkey;
			__u32	reserved;
		} rdma;
		struct {
			__aligned_u64 remote_addr;
			__aligned_u64 compare_add;
			__aligned_u64 swap;
			__u32	rkey;
			__u32	reserved;
		} atomic;
		struct {
			__u32	remote_qpn;
			__u32	remote_qkey;
			__u16	pkey_index;
			__u16	reserved;
			__u32	ah_num;
			__u32	pad[4];
			struct rxe_av av;
		} ud;
		struct {
			__aligned_u64	addr;
			__aligned_u64	length;
			__u32		mr_lkey;
			__u32		mw_rkey;
			__u32		rkey;
			__u32		access;
		} mw;
		/* a kernel-only member upstream; it only adds to the size */
#ifdef __KERNEL__
		struct {
			union {
				struct ib_mr *mr;
				__aligned_u64 reserved;
			};
			__u32	     key;
			__u32	     access;
		} reg;
#endif
	} wr;
};

/* an SGE: the layout of struct ibv_sge */
struct rxe_sge {
	__aligned_u64 addr;
	__u32	length;
	__u32	lkey;
};

/* where to mmap() a queue: the offset on uverbsN and the bytes */
struct mminfo {
	__aligned_u64		offset;
	__u32			size;
	__u32			pad;
};

/*
 * The data of a request: its bytes (length), its SGEs, or the data
 * itself (inline, or the 8 bytes of an ATOMIC WRITE).  resid, cur_sge
 * and sge_offset were upstream's progress through it.
 */
struct rxe_dma_info {
	__u32			length;
	__u32			resid;
	__u32			cur_sge;
	__u32			num_sge;
	__u32			sge_offset;
	__u32			reserved;
	union {
		__DECLARE_FLEX_ARRAY(__u8, inline_data);
		__DECLARE_FLEX_ARRAY(__u8, atomic_wr);
		__DECLARE_FLEX_ARRAY(struct rxe_sge, sge);
	};
};

/*
 * A send queue slot.  User space fills wr, iova, ssn and dma; the other
 * fields were upstream's requester state.
 */
struct rxe_send_wqe {
	struct rxe_send_wr	wr;
	__u32			status;
	__u32			state;
	__aligned_u64		iova;
	__u32			mask;
	__u32			first_psn;
	__u32			last_psn;
	__u32			ack_length;
	__u32			ssn;
	__u32			has_rd_atomic;
	struct rxe_dma_info	dma;
};

/* a receive queue (or SRQ) slot */
struct rxe_recv_wqe {
	__aligned_u64		wr_id;
	__u32			reserved;
	__u32			padding;
	struct rxe_dma_info	dma;
};

/* CREATE_AH's driver response: the number send requests name the AH by */
struct rxe_create_ah_resp {
	__u32 ah_num;
	__u32 reserved;
};

/* CREATE_CQ's driver response: the completion queue */
struct rxe_create_cq_resp {
	struct mminfo mi;
};

/* RESIZE_CQ's driver response: the new completion queue */
struct rxe_resize_cq_resp {
	struct mminfo mi;
};

/*
 * CREATE_QP's driver response: the receive queue (none with an SRQ) and
 * the send queue
 */
struct rxe_create_qp_resp {
	struct mminfo rq_mi;
	struct mminfo sq_mi;
};

/* CREATE_SRQ's driver response: the queue and the SRQ's number */
struct rxe_create_srq_resp {
	struct mminfo mi;
	__u32 srq_num;
	__u32 reserved;
};

/*
 * MODIFY_SRQ's driver request: where the kernel writes the struct mminfo
 * of the new queue when the SRQ is resized (IB_SRQ_MAX_WR)
 */
struct rxe_modify_srq_cmd {
	__aligned_u64 mmap_info_addr;
};

/*
 * The head of every queue.  The kernel keeps its own copy of the sizes;
 * these are for user space.  The two indices sit on cache lines of their
 * own; the data follows on the next one.
 */
struct rxe_queue_buf {
	__u32			log2_elem_size;
	__u32			index_mask;
	__u32			pad_1[30];
	__u32			producer_index;
	__u32			pad_2[31];
	__u32			consumer_index;
	__u32			pad_3[31];
	__u8			data[];
};

#endif /* RDMA_USER_RXE_H */
