/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Internal interfaces of the rdmavt engine, shared by its files:
 *
 *   sq.c      the scheduler: which request runs next, in which context
 *   req.c     the requester: one request, from checks to its outcome
 *   route.c   finding the responder QP of a request on this host
 *   recv.c    the responder's receive: SEND and WRITE_WITH_IMM placement
 *   rdma.c    the responder's RDMA WRITE and READ
 *   atomic.c  the responder's atomics
 *   comp.c    send completions
 *   sge.c     the SGE walk and the key checks under all of them
 *   counters.c  the packets a request would put on a link, counted per
 *             port for the PMA
 *
 * The in-memory delivery (no xmit_wqe hook) has the requester run the
 * responder's side itself; a wire driver calls the same responder code
 * through the exported helpers of <rdma/rdmavt_qp.h>.
 */
#ifndef RDMAVT_ENGINE_H
#define RDMAVT_ENGINE_H

#include <rdma/rdma_vt.h>

/* Result of executing one request. */
enum rvt_exec {
	RVT_DONE,	/* complete with the status given */
	RVT_RNR,	/* no receive WQE at the responder: RNR NAK */
	RVT_RETRY,	/* no responder answered: send again after a timeout */
	RVT_FAULT,	/* a page of an on-demand paging MR was not mapped:
			 * fault it in (qp->s_miss), then run it again
			 */
};

/* bytes one fault brings in at most (the rest of an SGE, up to this) */
#define RVT_ODP_FAULT_MAX	SZ_1M

/*
 * One request on its way through the in-memory delivery.  The responder
 * files fill in what the responder decided; req.c turns that into the
 * requester's result (the IBTA's REM_* statuses and the NAKs of RC).
 */
struct rvt_delivery {
	struct rvt_qp		*qp;	/* the requester */
	struct rvt_qp		*dqp;	/* the responder, referenced */
	struct rvt_swqe		*wqe;	/* the request, its walk in qp->s_sge */
	enum ib_wc_status	status;	/* what the requester sees */
	bool			rnr;	/* no receive WQE: RNR NAK */
	bool			dqp_err; /* the responder QP goes to error */
	bool			acked;	/* @ack holds the responder's AETH */
	bool			fault;	/* a page was missing: nothing is
					 * completed, qp->s_miss says what
					 */
	__be32			ack;	/* AETH taken under the r_lock */
};

static inline bool rvt_datagram(struct rvt_qp *qp)
{
	return qp->ibqp.qp_type == IB_QPT_UD ||
	       qp->ibqp.qp_type == IB_QPT_GSI ||
	       qp->ibqp.qp_type == IB_QPT_SMI;
}

static inline struct rvt_cq *rvt_send_cq(struct rvt_qp *qp)
{
	return container_of(qp->ibqp.send_cq, struct rvt_cq, ibcq);
}

static inline struct rvt_cq *rvt_recv_cq(struct rvt_qp *qp)
{
	return container_of(qp->ibqp.recv_cq, struct rvt_cq, ibcq);
}

/* sq.c */
void rvt_engine_enter(void);
void rvt_engine_exit(void);

/* sge.c */
int rvt_resolve_wqe(struct rvt_qp *qp, struct rvt_swqe *wqe, int acc);
void rvt_put_swqe(struct rvt_swqe *wqe);
struct rvt_sge_state *rvt_ss_copy(struct rvt_qp *dqp,
				  struct rvt_sge_state *dst,
				  struct rvt_sge_state *src, u32 len,
				  bool release);
bool rvt_copy_from_sge(struct rvt_sge_state *ss, void *data, u32 length);
void rvt_note_miss(struct rvt_delivery *d, struct rvt_sge_state *ss,
		   bool write, bool remote);
bool rvt_ss_present(struct rvt_sge_state *ss, u32 len, bool write);

/*
 * What a request puts on an IB link (counters.c): its packets and their
 * size in 4-byte words, LRH to ICRC, as the PMA counts them.
 */
struct rvt_wire {
	u32	pkts;
	u32	words;
};

/* counters.c */
void rvt_wire_of(struct rvt_qp *qp, struct rvt_swqe *wqe,
		 struct rvt_wire *req, struct rvt_wire *resp);
void rvt_wire_ack(struct rvt_qp *qp, struct rvt_wire *ack);
void rvt_count_xmit(struct rvt_ibport *ibp, const struct rvt_wire *w,
		    bool mcast);
void rvt_count_rcv(struct rvt_ibport *ibp, const struct rvt_wire *w,
		   bool mcast);

/* route.c */
struct rvt_qp *rvt_find_dest(struct rvt_qp *qp, struct rvt_swqe *wqe,
			     const struct rvt_wire *wire);
bool rvt_responder_ok(struct rvt_qp *qp, struct rvt_qp *dqp);
bool rvt_qkey_ok(struct rvt_qp *qp, struct rvt_qp *dqp, struct rvt_swqe *wqe);
bool rvt_route_mcast(struct rvt_qp *qp, struct rvt_swqe *wqe,
		     const struct rvt_wire *wire);
void rvt_count_answer(struct rvt_delivery *d, const struct rvt_wire *resp);
bool rvt_route_mad(struct rvt_qp *qp, struct rvt_swqe *wqe,
		   const struct rvt_wire *wire);

/* recv.c, rdma.c, atomic.c: the responder of the in-memory delivery */
void rvt_deliver_recv(struct rvt_delivery *d);
void rvt_deliver_rdma(struct rvt_delivery *d);
void rvt_deliver_atomic(struct rvt_delivery *d);

/* req.c */
enum rvt_exec rvt_exec_wqe(struct rvt_qp *qp, struct rvt_swqe *wqe,
			   enum ib_wc_status *status, u32 *aeth);

/* comp.c */
bool rvt_sq_retire(struct rvt_qp *qp, struct rvt_swqe *wqe,
		   enum ib_wc_status status, bool in_flight);

/* rc.c */
void rvt_rc_ack(struct rvt_delivery *d);

#endif /* RDMAVT_ENGINE_H */
