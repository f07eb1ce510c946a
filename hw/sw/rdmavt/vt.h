/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Internal interfaces of rdmavt: the verbs ops each file implements.
 */
#ifndef RDMAVT_VT_H
#define RDMAVT_VT_H

#include <rdma/rdma_vt.h>

/* SGEs per work request that rdmavt supports (upstream rxe offers 32) */
#define RVT_MAX_SGE		32
/* a receive WQE of as many SGEs fits the responder's list */
static_assert(RVT_MAX_RECV_SGE >= RVT_MAX_SGE);
/* bytes a UD receive reserves for the GRH */
#define RVT_GRH_BYTES		40
/* GRH next header: an IBA transport header follows */
#define RVT_GRH_NEXT_HDR	0x1b

/* cq.c */
int rvt_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct uverbs_attr_bundle *attrs);
int rvt_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
int rvt_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *entry);
void rvt_cq_forget_qp(struct ib_cq *ibcq, struct ib_qp *qp);
int rvt_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);
int rvt_modify_cq(struct ib_cq *ibcq, u16 cq_count, u16 cq_period);
int rvt_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata);

/* mmap.c */
int rvt_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma);
void rvt_mmap_free(struct rdma_user_mmap_entry *rdma);

/* vt.c: the user AHs that a driver's send rings name by number */
struct rvt_ah *rvt_user_ah_get(struct rvt_qp *qp, u32 num);
void rvt_user_ah_put(struct rvt_ah *ah);

/* mr.c */
struct ib_mr *rvt_get_dma_mr(struct ib_pd *pd, int acc);
struct ib_mr *rvt_reg_user_mr(struct ib_pd *pd, u64 start, u64 length,
			      u64 virt_addr, int mr_access_flags,
			      struct ib_udata *udata);
struct ib_mr *rvt_alloc_mr(struct ib_pd *pd, enum ib_mr_type mr_type,
			   u32 max_num_sg);
int rvt_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset);
struct ib_mr *rvt_rereg_user_mr(struct ib_mr *ibmr, int flags, u64 start,
				u64 length, u64 virt_addr, int access,
				struct ib_pd *pd, struct ib_udata *udata);
int rvt_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);
struct rvt_mregion *rvt_mr_get(struct rvt_lkey_table *rkt, u32 key);

/* odp.c */
#if IS_ENABLED(CONFIG_INFINIBAND_ON_DEMAND_PAGING)
int rvt_odp_get(struct rvt_mregion *mr, u64 start, u64 length, u64 iova,
		int access);
void rvt_odp_put_children(struct rvt_mregion *mr);
u64 rvt_odp_user_addr(struct rvt_mregion *mr, u64 addr);
void rvt_odp_props(struct rvt_dev_info *rdi);
#else
static inline int rvt_odp_get(struct rvt_mregion *mr, u64 start, u64 length,
			      u64 iova, int access)
{
	return -EOPNOTSUPP;
}

static inline void rvt_odp_put_children(struct rvt_mregion *mr)
{
}

static inline u64 rvt_odp_user_addr(struct rvt_mregion *mr, u64 addr)
{
	return addr;
}

static inline void rvt_odp_props(struct rvt_dev_info *rdi)
{
}
#endif
/* indexes of the key table: keys are (index << 8) | key byte */
#define RVT_MAX_LKEY_INDEX	((1U << 24) - 1)

/* mw.c */
int rvt_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata);
int rvt_dealloc_mw(struct ib_mw *ibmw);
bool rvt_is_mw_entry(void *entry);
int rvt_bind_mw(struct rvt_qp *qp, const struct rvt_bind_wr *b);
struct rvt_mregion *rvt_mw_rkey_ok(struct rvt_qp *qp, u32 rkey, u64 *vaddr,
				   u32 len, int acc);
int rvt_invalidate_mw(struct rvt_qp *qp, u32 rkey);

/* qp.c (QP events and the error state: qp_event.c, exported) */
int rvt_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init_attr,
		  struct ib_udata *udata);
int rvt_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		  int attr_mask, struct ib_udata *udata);
int rvt_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		 int attr_mask, struct ib_qp_init_attr *init_attr);
int rvt_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);
int rvt_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr);

/* rq.c */
int rvt_rq_init(struct rvt_rq *rq, u32 max_wr, u32 max_sge);
int rvt_rq_init_user(struct rvt_rq *rq, u32 max_wr, u32 max_sge,
		     struct ib_udata *udata);
int rvt_rq_init_drv(struct rvt_dev_info *rdi, struct rvt_rq *rq, u32 max_wr,
		    u32 max_sge);
void rvt_rq_free(struct rvt_rq *rq);
u32 rvt_rq_count(struct rvt_rq *rq);
void rvt_flush_rq(struct rvt_qp *qp);
void rvt_reset_rq(struct rvt_qp *qp);
int rvt_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr);
int rvt_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init_attr,
		   struct ib_udata *udata);
int rvt_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		   enum ib_srq_attr_mask attr_mask, struct ib_udata *udata);
int rvt_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr);
int rvt_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata);
int rvt_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr);

/* rc.c */
void rvt_init_timers(struct rvt_qp *qp);
void rvt_add_retry_timer(struct rvt_qp *qp);

/* port.c (the SMA's and PMA's part: mad.h) */
int rvt_query_port(struct ib_device *ibdev, u32 port_num,
		   struct ib_port_attr *props);
int rvt_get_port_immutable(struct ib_device *ibdev, u32 port_num,
			   struct ib_port_immutable *immutable);
int rvt_query_gid(struct ib_device *ibdev, u32 port_num, int index,
		  union ib_gid *gid);
int rvt_query_pkey(struct ib_device *ibdev, u32 port_num, u16 index,
		   u16 *pkey);
int rvt_modify_port(struct ib_device *ibdev, u32 port_num,
		    int port_modify_mask, struct ib_port_modify *props);
u16 rvt_npkeys(struct rvt_dev_info *rdi);
u32 rvt_port_lid(struct rvt_dev_info *rdi, u32 port);
u32 rvt_port_slid(struct rvt_dev_info *rdi, u32 port, u8 path_bits);
void rvt_port_qkey_violation(struct rvt_ibport *ibp);

/*
 * Does port @port of @rdi carry data packets?  Only in ACTIVE: in INIT
 * and ARMED a port passes subnet management packets (QP0) only.  Read
 * without the port's lock (see struct rvt_ibport).
 */
static inline bool rvt_port_active(struct rvt_dev_info *rdi, u32 port)
{
	return READ_ONCE(rdi->ports[port - 1]->port_state) == IB_PORT_ACTIVE;
}

/* hw_counters.c: the ports' counters, with rvt_ports_init()/_release() */
int rvt_hw_counters_init(struct rvt_dev_info *rdi);
void rvt_hw_counters_release(struct rvt_dev_info *rdi);

/* mcast.c */
struct rvt_wire;
bool rvt_mcast_deliver(struct rvt_qp *qp, const struct rdma_ah_attr *attr,
		       const struct rvt_wire *wire,
		       void (*deliver)(struct rvt_qp *dqp, void *arg),
		       void *arg);

/* The local ACK timeout, 4.096 us << @timeout, in jiffies (at least 1). */
static inline unsigned long rvt_timeout_to_jiffies(u8 timeout)
{
	return usecs_to_jiffies((4096ULL << min_t(u8, timeout, 31)) / 1000) ?: 1;
}

#endif /* RDMAVT_VT_H */
