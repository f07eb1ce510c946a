/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * siw: the per-QP state of the data path (qp->priv) shared by the stream
 * binding (siw_qp.c), the transmitter (siw_qp_tx.c) and the receiver
 * (siw_qp_rx.c).  The lock order and contexts are in siw_qp.c.
 */
#ifndef SIW_QP_H
#define SIW_QP_H

#include <linux/bvec.h>
#include <linux/net.h>
#include <linux/workqueue.h>
#include <net/sock.h>
#include <rdma/rdma_vt.h>

#include "siw_fpdu.h"
#include "siw_stream.h"

/* what became of a request siw holds (struct siw_wire.state) */
enum siw_wqe_state {
	SIW_WQE_QUEUED,		/* taken by xmit_wqe, not on the wire yet */
	SIW_WQE_SENT,		/* READ request sent, response pending */
	SIW_WQE_ACKWAIT,	/* its payload went to TCP by page: done
				 * when TCP's peer acknowledged @end_seq
				 */
	SIW_WQE_DONE,		/* finished: given back with @status, in order */
};

/**
 * struct siw_wire - siw's wire state of one request of rdmavt's ring
 * @state: enum siw_wqe_state
 * @status: the completion status once SIW_WQE_DONE
 * @end_seq: SIW_WQE_ACKWAIT: TCP's sequence number after the request's
 *	last byte
 *
 * The request itself (opcode, keys, SGEs, the MR references) stays
 * rdmavt's struct rvt_swqe, read in place while siw holds it: this
 * array, indexed like rdmavt's send ring (rvt_swqe_index()), holds only
 * what the wire adds.  A separate array rather than a private area in
 * every ring slot keeps rvt_swqe the same for every driver and the
 * state of a QP's requests in a few cache lines.
 */
struct siw_wire {
	u8	state;
	u8	status;
	u32	end_seq;
};

/**
 * struct siw_irqe - an inbound READ request waiting for its response
 * @src_stag: the STag of our memory to read
 * @src_to: its tagged offset
 * @len: bytes to read
 * @sink_stag: the requester's STag (echoed in the response)
 * @sink_to: its tagged offset
 * @msn: its DDP MSN (a TERMINATE about it carries it)
 */
struct siw_irqe {
	u32	src_stag;
	u64	src_to;
	u32	len;
	u32	sink_stag;
	u64	sink_to;
	u32	msn;
};

/* an ORQ entry that is no request of rdmavt's ring: the RTR's READ */
#define SIW_ORQ_RTR		U32_MAX

/* the message the transmitter is cutting into FPDUs */
enum siw_tx_job {
	SIW_TX_NONE,
	SIW_TX_SQE,		/* a request of the send queue */
	SIW_TX_RRESP,		/* a READ response, from the IRQ's head */
	SIW_TX_TERM,		/* a TERMINATE */
	SIW_TX_RTR,		/* the RTR message ending a peer-to-peer setup */
};

/* where the receiver is in the current FPDU */
enum siw_rx_phase {
	SIW_RX_HDR,		/* header bytes */
	SIW_RX_PAYLOAD,		/* payload bytes */
	SIW_RX_TRAILER,		/* pad and CRC field */
};

/* bits of struct siw_qp_stream.flags */
enum {
	SIW_ST_BOUND,		/* a socket is bound */
	SIW_ST_LOST,		/* siw_cm_stream_lost() was called */
};

/* bytes of an FPDU the transmitter builds at most (16 bit MPA length) */
#define SIW_TX_BUF		SZ_64K
/* bytes the receiver copies out of an skb at once */
#define SIW_RX_CHUNK		PAGE_SIZE
/*
 * pieces of an FPDU sent from the request's pages: header, trailer and
 * the payload cut at page and SGE boundaries (an FPDU that needs more is
 * built in tx_buf)
 */
#define SIW_TX_BVECS		40
/* requests of at least this many bytes go to TCP by page (siw_tx_zcopy) */
#define SIW_ZCOPY_MIN		PAGE_SIZE

/**
 * struct siw_qp_stream - the data path of one QP (qp->priv)
 * @qp: the QP
 * @lock: protects the requests held (@wire, @c_head, @t_next, @q_tail,
 *	@compl_*),
 *	@orq, @irq, @dead, @sock, @term_*, @fail; a BH lock, nests nothing
 *	(no rdmavt call is made under it but rvt_copy_sge() of a READ
 *	response and rvt_invalidate_rkey())
 * @sock: the bound socket, or NULL
 * @params: what MPA setup decided
 * @flags: SIW_ST_* bits
 * @dead: the stream stopped: nothing more is sent or received on it;
 *	the requests held stay held until the QP's error state gives them
 *	back (or xmit_stop forgets them)
 * @saved_data_ready: the socket's callback before siw took it
 * @saved_write_space: same
 * @saved_state_change: same
 * @tx_work: the transmitter (siw_tx_wq): builds and sends FPDUs, runs
 *	the send completions in order; never runs twice at a time
 * @tx_mutex: held by a run of the transmitter, the work item's or a
 *	direct one's (siw_tx_direct()): one at a time; outermost of siw's
 *	locks (siw_qp.c)
 * @tx_direct: the task that runs the transmitter itself once the engine
 *	it runs returns (siw_tx_direct()): xmit_wqe called in that task's
 *	own context queues no work
 * @wire: the wire state of rdmavt's send ring, qp->sq_size entries
 * @c_head: the oldest request siw holds (rdmavt's sq_tail when siw
 *	holds any); indices into rdmavt's send ring
 * @t_next: the next request to transmit
 * @q_tail: after the last request xmit_wqe took (rdmavt's sq_cur)
 * @orq: indices in rdmavt's ring of the READ requests sent, oldest first
 * @orq_size: entries of @orq (the negotiated ORD)
 * @orq_head: first
 * @orq_count: in use
 * @irq: the inbound READ requests to answer, oldest first
 * @irq_size: entries (the negotiated IRD)
 * @irq_head: first
 * @irq_count: in use
 * @compl_busy: a context is giving requests back (siw_qp_complete())
 * @compl_again: more became done meanwhile: that context looks again
 * @term_pending: a TERMINATE waits to be sent
 * @term_ctrl: its term_ctrl word (host order)
 * @term_hdr: the header of the segment it is about (zero-padded where
 *	it was cut short), when @term_has_hdr
 * @term_has_hdr: @term_hdr is valid
 * @tx_hold: a peer-to-peer responder sends nothing before the
 *	initiator's first FPDU (its RTR); cleared by the receiver
 * @rtr_pending: SIW_RTR_WRITE or SIW_RTR_READ: the initiator of a
 *	peer-to-peer setup sends this RTR message before anything else
 * @fail: the error to end the stream with after what is queued, or 0
 * @fail_done: the failure was carried out
 * @terms_sent: TERMINATE messages sent (statistics, KUnit)
 * @terms_rcvd: TERMINATE messages received
 * @tx_job: the message being cut (transmitter's own, as all @tx_*)
 * @tx_idx: SIW_TX_SQE: its index in rdmavt's ring
 * @tx_irqe: SIW_TX_RRESP: the READ request it answers
 * @tx_hdr: its header
 * @tx_len: its payload bytes
 * @tx_off: payload bytes cut so far
 * @tx_base_to: tagged: the TO of its first byte
 * @tx_ss: SIW_TX_SQE: the walk over its SGEs
 * @tx_rss: SIW_TX_RRESP: the walk over the READ's source
 * @tx_rmr: the source's MR while a READ response reads it (referenced),
 *	else NULL; under @lock where others than the transmitter drop it
 * @tx_mulpdu: the MULPDU the message is cut with
 * @tx_buf: the FPDU on its way to the socket, when built whole (READ
 *	response, TERMINATE, RTR, or payload not in pages)
 * @tx_pages: the FPDU is @tx_bvec instead: @tx_hdr, the payload where
 *	the request's SGEs put it, @tx_trailer
 * @tx_splice: the payload entries of @tx_bvec go by MSG_SPLICE_PAGES
 *	(TCP references the pages instead of copying them)
 * @tx_zc: the message's payload may go by page (siw_zcopy_tx, its size,
 *	a route with scatter/gather; a READ response only without CRC)
 * @tx_zc_used: an FPDU of the message went by page: the request waits
 *	for TCP's ACK (SIW_WQE_ACKWAIT)
 * @tx_pay_lo: @tx_pages: where the payload starts in the FPDU
 * @tx_pay_hi: @tx_pages: where it ends
 * @tx_nbvec: entries of @tx_bvec
 * @tx_bvec: the pieces of the FPDU
 * @tx_trailer: pad and CRC field of the FPDU in @tx_bvec
 * @tx_fpdu: its bytes
 * @tx_sent: bytes of it the socket took
 * @tx_fin: it ends the message of @tx_fin_job
 * @tx_fin_job: the job it ended
 * @tx_fin_idx: SIW_TX_SQE: that request
 * @tx_msn: the last MSN sent per untagged queue
 * @tx_fpdus: FPDUs the socket took (statistics: "rdma res show qp -dd")
 * @tx_paged: of those, FPDUs sent from the request's pages
 * @tx_spliced: of those, FPDUs whose payload TCP took by page
 * @tx_direct_fpdus: of those, FPDUs a doorbell's own context sent
 *	(siw_tx_direct())
 * @rx_phase: the receiver's own, as all @rx_*
 * @rx_dead: the receiver discards what comes (after an error)
 * @rx_stall: a placement met a page of an on-demand paging MR being
 *	faulted in: the bytes from there on stay in the socket until
 *	siw_odp_resume() (under the socket's lock, as the receiver runs)
 * @rx_first: a whole FPDU was received on the stream
 * @rx_hdr: the header received so far
 * @rx_have: its bytes
 * @rx_info: the parsed header of the FPDU being received
 * @rx_done: payload bytes of the FPDU received
 * @rx_crc: the running CRC of the FPDU
 * @rx_trailer: the pad and CRC field received so far
 * @rx_trailer_have: their bytes
 * @rx_msn: the MSN expected next per untagged queue
 * @rx_mo: SEND: payload bytes of the current message so far
 * @rx_recv: SEND: a receive WQE was taken for the current message
 * @rx_rresp: READ response: bytes of the current one placed
 * @rx_rss: READ response: the walk over the READ's SGEs
 * @rx_buf: bounce buffer (SIW_RX_CHUNK)
 * @rx_fpdus: FPDU headers received whole (statistics, as @tx_fpdus)
 */
struct siw_qp_stream {
	struct rvt_qp			*qp;

	spinlock_t			lock;	/* see above */
	struct socket			*sock;
	struct siw_stream_params	params;
	unsigned long			flags;
	bool				dead;
	void				(*saved_data_ready)(struct sock *sk);
	void				(*saved_write_space)(struct sock *sk);
	void				(*saved_state_change)(struct sock *sk);
	struct work_struct		tx_work;
	struct mutex			tx_mutex;	/* see above */
	struct task_struct		*tx_direct;

	struct siw_wire			*wire;
	u32				c_head;
	u32				t_next;
	u32				q_tail;
	u32				*orq;
	u32				orq_size;
	u32				orq_head;
	u32				orq_count;
	struct siw_irqe			*irq;
	u32				irq_size;
	u32				irq_head;
	u32				irq_count;
	bool				compl_busy;
	bool				compl_again;
	bool				term_pending;
	u32				term_ctrl;
	union iwarp_hdr			term_hdr;
	bool				term_has_hdr;
	bool				tx_hold;
	u8				rtr_pending;
	int				fail;
	bool				fail_done;
	atomic_t			terms_sent;
	atomic_t			terms_rcvd;

	enum siw_tx_job			tx_job;
	u32				tx_idx;
	struct siw_irqe			tx_irqe;
	union iwarp_hdr			tx_hdr;
	u32				tx_len;
	u32				tx_off;
	u64				tx_base_to;
	struct rvt_sge_state		tx_ss;
	struct rvt_sge_state		tx_rss;
	struct rvt_mregion		*tx_rmr;
	u32				tx_mulpdu;
	u8				*tx_buf;
	bool				tx_pages;
	bool				tx_splice;
	bool				tx_zc;
	bool				tx_zc_used;
	u32				tx_pay_lo;
	u32				tx_pay_hi;
	u32				tx_nbvec;
	struct bio_vec			tx_bvec[SIW_TX_BVECS];
	u8				tx_trailer[MPA_CRC_SIZE + 4];
	u32				tx_fpdu;
	u32				tx_sent;
	bool				tx_fin;
	enum siw_tx_job			tx_fin_job;
	u32				tx_fin_idx;
	u32				tx_msn[RDMAP_UNTAGGED_QN_COUNT];
	u64				tx_fpdus;
	u64				tx_paged;
	u64				tx_spliced;
	u64				tx_direct_fpdus;

	enum siw_rx_phase		rx_phase;
	bool				rx_dead;
	bool				rx_stall;
	bool				rx_first;
	u8				rx_hdr[sizeof(union iwarp_hdr)];
	u32				rx_have;
	struct siw_fpdu_info		rx_info;
	u32				rx_done;
	u32				rx_crc;
	u8				rx_trailer[MPA_CRC_SIZE + 4];
	u32				rx_trailer_have;
	u32				rx_msn[RDMAP_UNTAGGED_QN_COUNT];
	u32				rx_mo;
	bool				rx_recv;
	u32				rx_rresp;
	struct rvt_sge_state		rx_rss;
	u8				*rx_buf;
	u64				rx_fpdus;
};

/* The request in slot @i of rdmavt's ring (siw holds it). */
static inline struct rvt_swqe *siw_wqe_at(struct siw_qp_stream *st, u32 i)
{
	return rvt_get_swqe_ptr(st->qp, i);
}

static inline u32 siw_wqe_next(struct siw_qp_stream *st, u32 i)
{
	return rvt_sq_next_index(st->qp, i);
}

/* A request's opcode on the wire: a READ with invalidate is a READ. */
static inline enum ib_wr_opcode siw_wqe_opcode(const struct rvt_swqe *wqe)
{
	return wqe->wr.opcode == IB_WR_RDMA_READ_WITH_INV ? IB_WR_RDMA_READ :
	       wqe->wr.opcode;
}

/*
 * The STag and TO a READ's response names: our first SGE as posted
 * (upstream takes SGE 0 too); the STag also ends its registration for a
 * READ with invalidate.
 */
static inline u32 siw_wqe_sink_stag(const struct rvt_swqe *wqe)
{
	return wqe->length ? wqe->wr.sg_list[0].lkey : 0;
}

static inline u64 siw_wqe_sink_to(const struct rvt_swqe *wqe)
{
	return wqe->length ? wqe->wr.sg_list[0].addr : 0;
}

extern struct workqueue_struct *siw_tx_wq;

/* siw_qp.c */
void *siw_qp_priv_alloc(struct rvt_dev_info *rdi, struct rvt_qp *qp);
void siw_qp_priv_free(struct rvt_dev_info *rdi, struct rvt_qp *qp);
void siw_qp_modify(struct rvt_qp *qp, struct ib_qp_attr *attr, int attr_mask,
		   struct ib_udata *udata);
int siw_xmit_wqe(struct rvt_qp *qp, struct rvt_swqe *wqe);
void siw_xmit_flush(struct rvt_qp *qp);
void siw_xmit_stop(struct rvt_qp *qp);
void siw_odp_resume(struct rvt_qp *qp);
int siw_fill_res_qp_entry(struct sk_buff *msg, struct ib_qp *ibqp);
void siw_qp_fail(struct siw_qp_stream *st, int err, bool send_term,
		 u32 term_ctrl, const void *bad, u32 bad_len);
u32 siw_qp_mulpdu(struct rvt_qp *qp);
u32 siw_qp_terms(struct rvt_qp *qp, bool sent);

/* siw_qp_tx.c */
void siw_tx_work(struct work_struct *work);
void siw_tx_direct(struct rvt_qp *qp);
void siw_tx_release(struct siw_qp_stream *st);
void siw_tx_forget(struct siw_qp_stream *st);
void siw_qp_complete(struct siw_qp_stream *st);

/* siw_qp_rx.c */
void siw_rx_reset(struct siw_qp_stream *st);
void siw_rx_read(struct siw_qp_stream *st, struct sock *sk);

/* a TERMINATE's control word (host order) */
static inline u32 siw_term_ctrl(u8 layer, u8 etype, u8 ecode)
{
	return FIELD_PREP(SIW_TERM_LAYER, layer) |
	       FIELD_PREP(SIW_TERM_ETYPE, etype) |
	       FIELD_PREP(SIW_TERM_ECODE, ecode);
}

#if IS_ENABLED(CONFIG_KUNIT)
struct siw_cep;
struct siw_cqe;
struct siw_sqe;

/**
 * struct siw_test_ops - siw's insides, for the siw_qp, siw_cm and
 *	siw_uring suites
 * @device_add: siw_device_add()
 * @qp_stream_start: siw_qp_stream_start()
 * @qp_stream_stop: siw_qp_stream_stop()
 * @qp_stream_receive: siw_qp_stream_receive()
 * @qp_mulpdu: siw_qp_mulpdu()
 * @qp_terms: siw_qp_terms()
 * @tx_direct: siw_tx_direct(): a doorbell's own context sends
 * @cep_get: siw_cep_get(): a suite holds a connection endpoint
 * @cep_put: siw_cep_put(): and lets it go
 * @uring_send_wr: siw_uring_send_wr(): a user send entry as a request
 * @uring_cqe_fill: siw_uring_cqe_fill(): a completion as libsiw reads it
 *
 * The table is siw_test (siw_test_ops.c); built only with KUnit.
 */
struct siw_test_ops {
	int (*device_add)(const char *name, struct net_device *ndev);
	int (*qp_stream_start)(struct rvt_qp *qp, struct socket *sock,
			       const struct siw_stream_params *params);
	struct socket *(*qp_stream_stop)(struct rvt_qp *qp, bool graceful);
	void (*qp_stream_receive)(struct rvt_qp *qp);
	u32 (*qp_mulpdu)(struct rvt_qp *qp);
	u32 (*qp_terms)(struct rvt_qp *qp, bool sent);
	void (*tx_direct)(struct rvt_qp *qp);
	void (*cep_get)(struct siw_cep *cep);
	void (*cep_put)(struct siw_cep *cep);
	void (*uring_send_wr)(const struct siw_sqe *sqe,
			      struct rvt_ring_wr *rwr, struct ib_sge *sges);
	u8 (*uring_cqe_fill)(struct siw_cqe *cqe, const struct ib_wc *wc);
};

extern const struct siw_test_ops siw_test;
#endif

#endif /* SIW_QP_H */
