// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw: the QP's data path on its TCP stream.  This file binds a stream
 * to a QP (siw_qp_stream_start/stop, the socket callbacks), holds the
 * QP's private state (rdmavt's qp_priv_alloc/free), takes the requests
 * the engine hands over (xmit_wqe) and ends a failed stream.  The
 * transmitter is siw_qp_tx.c, the receiver siw_qp_rx.c.
 *
 * Contexts:
 *
 *   xmit_wqe          the engine (poster's context or rdi->wq), BH off,
 *                     no rdmavt lock: marks the request held (it stays
 *                     in rdmavt's ring, read in place), queues tx_work
 *                     unless a user QP's doorbell runs it (tx_direct)
 *   tx_work,          process context (siw_tx_wq, or a user QP's
 *   siw_tx_direct     doorbell: the POST_SEND system call, rdmavt's
 *                     ring_work), one run at a time: cuts FPDUs (from the
 *                     request's pages, or built in tx_buf) and hands them
 *                     to the socket without blocking (MSG_DONTWAIT;
 *                     sk_write_space requeues), answers READ requests,
 *                     sends TERMINATE, and gives requests back
 *                     (rvt_send_complete) in order
 *   xmit_flush        the engine, in the error state: queues tx_work,
 *                     which gives back what siw holds
 *   xmit_stop         process context (RESET, destroy): forgets the
 *                     requests held; tx_work does nothing in RESET
 *   sk_data_ready     softirq, or process context from release_sock():
 *                     tcp_read_sock() with the receiver's actor, under
 *                     sk_callback_lock (read); places through rdmavt
 *   sk_state_change,
 *   sk_write_space    softirq or process context: requeue tx_work,
 *                     report a lost stream to the CM
 *   start/stop, the
 *   modify_qp hook    process context, may sleep
 *
 * Lock order, outermost first:
 *
 *   st->tx_mutex (a run of the transmitter)
 *   > sk->sk_callback_lock (rwlock; rx reads, start/stop write with BH off)
 *     > qp->r_lock, the CQ's lock (rdmavt's, through the rvt_recv_*
 *       calls of the receiver)
 *     > st->lock (BH; the requests held, ORQ, IRQ, failure state)
 *
 * Under st->lock only the receiver's READ response placement
 * (rvt_copy_sge() into the READ's SGEs) and rvt_invalidate_rkey() reach
 * rdmavt.  rvt_send_complete() runs holding no lock of siw's but the
 * receiver's sk_callback_lock (read), from one context at a time
 * (st->compl_busy): tx_work, or the receiver when a READ's response
 * makes it done; completions are in order and never race.
 * rvt_error_qp() runs from tx_work (and the CM's close).
 *
 * Which requests siw holds: those rdmavt handed to xmit_wqe (its sq_tail
 * up to sq_cur), @c_head up to @q_tail here.  siw reads them in place
 * and takes no MR reference of its own: rdmavt's stay until siw gives a
 * request back with rvt_send_complete() (siw_qp_complete(): in order,
 * when done; in the QP's error state, told by xmit_flush, all of them,
 * unfinished ones flushed), or until xmit_stop, after which siw touches
 * none of them (the receiver checks orq_count under st->lock before it
 * places into a READ's SGEs).
 */

#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/tcp.h>
#include <net/netlink.h>
#include <net/tcp.h>
#include <rdma/restrack.h>

#include "siw.h"
#include "siw_qp.h"

#define CREATE_TRACE_POINTS
#include "siw_trace.h"

/* ------------------------------------------------------------------
 * Private state
 */

/**
 * siw_qp_priv_alloc - rdmavt's qp_priv_alloc hook: the data path state
 * @rdi: the device
 * @qp: the new QP (its rings are set)
 *
 * Context: process context, may sleep.
 * Return: the state, or ERR_PTR(-ENOMEM).
 */
void *siw_qp_priv_alloc(struct rvt_dev_info *rdi, struct rvt_qp *qp)
{
	struct siw_qp_stream *st;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return ERR_PTR(-ENOMEM);
	st->qp = qp;
	spin_lock_init(&st->lock);
	INIT_WORK(&st->tx_work, siw_tx_work);
	mutex_init(&st->tx_mutex);
	st->wire = kvcalloc(qp->sq_size, sizeof(*st->wire), GFP_KERNEL);
	if (!st->wire)
		goto err_st;
	atomic_set(&st->terms_sent, 0);
	atomic_set(&st->terms_rcvd, 0);
	return st;

err_st:
	kfree(st);
	return ERR_PTR(-ENOMEM);
}

/*
 * Wait until no run of the transmitter that began before is left: the
 * work item's, and a direct one's (siw_tx_direct()).  A later run finds
 * what its caller set (RESET, a dead stream) and does nothing of harm.
 */
static void siw_tx_sync(struct siw_qp_stream *st)
{
	cancel_work_sync(&st->tx_work);
	mutex_lock(&st->tx_mutex);
	mutex_unlock(&st->tx_mutex);
}

/**
 * siw_qp_priv_free - rdmavt's qp_priv_free hook
 * @rdi: the device
 * @qp: the QP being destroyed
 *
 * A stream still bound (the CM did not stop it) is stopped and its
 * socket released here: nobody else can reach it any more.
 *
 * Context: process context, may sleep.
 */
void siw_qp_priv_free(struct rvt_dev_info *rdi, struct rvt_qp *qp)
{
	struct siw_qp_stream *st = qp->priv;
	struct socket *sock;

	if (!st)
		return;
	sock = siw_qp_stream_stop(qp, false);
	if (sock) {
		ibdev_warn(&rdi->ibdev, "QP %u destroyed with its stream\n",
			   qp->ibqp.qp_num);
		sock_release(sock);
	}
	siw_tx_sync(st);
	mutex_destroy(&st->tx_mutex);
	kvfree(st->wire);
	kfree(st);
}

/**
 * siw_qp_modify - rdmavt's modify_qp hook
 * @qp: the QP
 * @attr: the attributes given
 * @attr_mask: which
 * @udata: user data (unused)
 *
 * A QP that went to ERROR has its transmitter give back the requests
 * it holds (rdmavt's flush waits for them).
 *
 * Context: process context.
 */
void siw_qp_modify(struct rvt_qp *qp, struct ib_qp_attr *attr, int attr_mask,
		   struct ib_udata *udata)
{
	struct siw_qp_stream *st = qp->priv;

	if (st && READ_ONCE(qp->state) == IB_QPS_ERR)
		queue_work(siw_tx_wq, &st->tx_work);
}

/**
 * siw_xmit_wqe - rdmavt's xmit_wqe hook: take a request for the wire
 * @qp: the QP
 * @wqe: the request, its SGEs checked and referenced
 *
 * The request stays where it is, in rdmavt's send ring: siw holds it
 * until it gives it back (rdma_vt.h) and reads it there.  Only its wire
 * state is set here.
 *
 * Context: BH off, no rdmavt lock held; does not sleep.  Takes st->lock.
 * Return: 0, or -EBUSY while no stream is bound (stream start kicks the
 * send queue).
 */
int siw_xmit_wqe(struct rvt_qp *qp, struct rvt_swqe *wqe)
{
	struct siw_qp_stream *st = qp->priv;
	u32 idx = rvt_swqe_index(qp, wqe);

	spin_lock_bh(&st->lock);
	if (!st->sock || st->dead) {
		spin_unlock_bh(&st->lock);
		return -EBUSY;
	}
	/* holding nothing, siw starts where the engine is */
	if (st->c_head == st->q_tail) {
		st->c_head = idx;
		st->t_next = idx;
		st->q_tail = idx;
	} else if (WARN_ON_ONCE(idx != st->q_tail)) {
		spin_unlock_bh(&st->lock);
		return -EBUSY;
	}
	st->wire[idx].state = SIW_WQE_QUEUED;
	st->wire[idx].status = IB_WC_SUCCESS;
	st->q_tail = siw_wqe_next(st, idx);
	trace_siw_xmit_take(qp, idx, wqe);
	spin_unlock_bh(&st->lock);
	/* a doorbell's own engine: siw_tx_direct() transmits next */
	if (READ_ONCE(st->tx_direct) != current || !in_task())
		queue_work(siw_tx_wq, &st->tx_work);
	return 0;
}

/**
 * siw_xmit_flush - rdmavt's xmit_flush hook: the QP is in the error state
 * @qp: the QP, holding requests
 *
 * The transmitter gives back what siw holds (siw_tx_work()).
 *
 * Context: any but hard interrupts, maybe under the poster's locks; does
 * not sleep.
 */
void siw_xmit_flush(struct rvt_qp *qp)
{
	struct siw_qp_stream *st = qp->priv;

	if (st)
		queue_work(siw_tx_wq, &st->tx_work);
}

/**
 * siw_xmit_stop - rdmavt's xmit_stop hook: let go of the requests held
 * @qp: the QP, in RESET (modify_qp to RESET, or destroy)
 *
 * rdmavt drops the requests' references and forgets them when this
 * returns: the receiver places no READ response into them any more, the
 * transmitter (which does nothing in RESET) has stopped, and siw holds
 * nothing.  An FPDU half sent from a request's pages is dropped: the
 * stream of a QP in RESET carries nothing more.
 *
 * Context: process context, may sleep; takes st->lock.
 */
void siw_xmit_stop(struct rvt_qp *qp)
{
	struct siw_qp_stream *st = qp->priv;

	if (!st)
		return;
	spin_lock_bh(&st->lock);
	/* the receiver checks this under st->lock before placing */
	st->orq_count = 0;
	spin_unlock_bh(&st->lock);
	/* a run that started before RESET ends; later ones do nothing */
	siw_tx_sync(st);
	siw_tx_forget(st);
}

/**
 * siw_odp_resume - rdmavt's odp_resume hook: a page of an on-demand
 *	paging MR the data path missed was faulted in (or failed to be)
 * @qp: the QP
 *
 * The transmitter builds the FPDU it could not again; the receiver takes
 * the bytes it left in the socket (st->rx_stall) and places them again.
 *
 * Context: process context (rdmavt's send work), may sleep; takes
 * st->lock, the socket lock and sk_callback_lock.
 */
void siw_odp_resume(struct rvt_qp *qp)
{
	struct siw_qp_stream *st = qp->priv;
	struct sock *sk = NULL;

	if (!st)
		return;
	spin_lock_bh(&st->lock);
	if (st->sock && !st->dead) {
		sk = st->sock->sk;
		sock_hold(sk);
	}
	spin_unlock_bh(&st->lock);
	queue_work(siw_tx_wq, &st->tx_work);
	if (!sk)
		return;
	lock_sock(sk);
	read_lock_bh(&sk->sk_callback_lock);
	/* the stream may have stopped meanwhile: then it is not ours */
	if (sk->sk_user_data == st && st->rx_stall) {
		st->rx_stall = false;
		siw_rx_read(st, sk);
	}
	read_unlock_bh(&sk->sk_callback_lock);
	release_sock(sk);
	sock_put(sk);
}

/* ------------------------------------------------------------------
 * Failure
 */

/**
 * siw_qp_fail - end the QP's stream after an error
 * @st: the data path
 * @err: what the CM is told: -EPROTO (TERMINATE sent or received),
 *	-ECONNRESET, -EIO
 * @send_term: send a TERMINATE with @term_ctrl first
 * @term_ctrl: its control word (siw_term_ctrl())
 * @bad: the header of the segment the TERMINATE is about, as received
 *	(or rebuilt), or NULL; siw_term_build() takes what it carries
 * @bad_len: bytes at @bad (the rest of a header is taken as zero)
 *
 * The transmitter does the rest in process context: it sends the
 * TERMINATE, runs the completions due, moves the QP to the error state
 * and tells the CM.  The first failure wins.
 *
 * Context: any but hard interrupts; takes st->lock.
 */
void siw_qp_fail(struct siw_qp_stream *st, int err, bool send_term,
		 u32 term_ctrl, const void *bad, u32 bad_len)
{
	spin_lock_bh(&st->lock);
	if (!st->fail) {
		st->fail = err;
		if (send_term) {
			st->term_pending = true;
			st->term_ctrl = term_ctrl;
			st->term_has_hdr = !!bad;
			memset(&st->term_hdr, 0, sizeof(st->term_hdr));
			if (bad)
				memcpy(&st->term_hdr, bad,
				       min_t(u32, bad_len,
					     sizeof(st->term_hdr)));
		}
	}
	spin_unlock_bh(&st->lock);
	queue_work(siw_tx_wq, &st->tx_work);
}

/* ------------------------------------------------------------------
 * Socket callbacks
 */

static void siw_sk_data_ready(struct sock *sk)
{
	struct siw_qp_stream *st;

	read_lock(&sk->sk_callback_lock);
	st = sk->sk_user_data;
	if (st)
		siw_rx_read(st, sk);
	read_unlock(&sk->sk_callback_lock);
}

static void siw_sk_write_space(struct sock *sk)
{
	struct siw_qp_stream *st;

	read_lock(&sk->sk_callback_lock);
	st = sk->sk_user_data;
	if (st && sk_stream_is_writeable(sk)) {
		clear_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
		queue_work(siw_tx_wq, &st->tx_work);
	}
	read_unlock(&sk->sk_callback_lock);
}

/*
 * Tell the CM, once, that the peer closed or reset the stream; under
 * sk_callback_lock (read).
 */
static void siw_sk_check_lost(struct siw_qp_stream *st, struct sock *sk)
{
	if (READ_ONCE(sk->sk_state) != TCP_ESTABLISHED &&
	    !test_and_set_bit(SIW_ST_LOST, &st->flags))
		siw_cm_stream_lost(st->qp, -ECONNRESET);
}

static void siw_sk_state_change(struct sock *sk)
{
	struct siw_qp_stream *st;

	read_lock(&sk->sk_callback_lock);
	st = sk->sk_user_data;
	if (st)
		siw_sk_check_lost(st, sk);
	read_unlock(&sk->sk_callback_lock);
	if (st)
		queue_work(siw_tx_wq, &st->tx_work);
}

/* ------------------------------------------------------------------
 * The contract with the CM (siw_stream.h)
 */

/* The sizes of the ORQ and IRQ MPA setup gave: one entry at least. */
static int siw_qp_alloc_queues(struct siw_qp_stream *st,
			       const struct siw_stream_params *params)
{
	st->orq_size = max_t(u32, params->mpa.ord, 1);
	st->irq_size = max_t(u32, params->mpa.ird, 1);
	st->orq = kcalloc(st->orq_size, sizeof(*st->orq), GFP_KERNEL);
	st->irq = kcalloc(st->irq_size, sizeof(*st->irq), GFP_KERNEL);
	st->tx_buf = kvmalloc(SIW_TX_BUF, GFP_KERNEL);
	st->rx_buf = kmalloc(SIW_RX_CHUNK, GFP_KERNEL);
	if (!st->orq || !st->irq || !st->tx_buf || !st->rx_buf)
		return -ENOMEM;
	return 0;
}

static void siw_qp_free_queues(struct siw_qp_stream *st)
{
	kfree(st->orq);
	kfree(st->irq);
	kvfree(st->tx_buf);
	kfree(st->rx_buf);
	st->orq = NULL;
	st->irq = NULL;
	st->tx_buf = NULL;
	st->rx_buf = NULL;
}

/* A fresh transmit and receive state for a new stream. */
static void siw_qp_reset_stream(struct siw_qp_stream *st)
{
	int i;

	/* requests held from a stream before stay held (siw_tx_release()) */
	st->orq_head = 0;
	st->orq_count = 0;
	st->irq_head = 0;
	st->irq_count = 0;
	st->term_pending = false;
	st->term_has_hdr = false;
	st->tx_hold = false;
	st->rtr_pending = 0;
	st->fail = 0;
	st->dead = false;
	st->tx_job = SIW_TX_NONE;
	st->tx_fpdu = 0;
	st->tx_sent = 0;
	st->tx_fin = false;
	st->tx_pages = false;
	for (i = 0; i < RDMAP_UNTAGGED_QN_COUNT; i++) {
		/* the first message of each queue has MSN 1 */
		st->tx_msn[i] = 0;
		st->rx_msn[i] = 1;
	}
	siw_rx_reset(st);
	st->flags = 0;
}

/* Receive what the socket holds, check for a close; process context. */
static void siw_qp_rx_drain(struct siw_qp_stream *st, struct sock *sk)
{
	lock_sock(sk);
	read_lock_bh(&sk->sk_callback_lock);
	siw_rx_read(st, sk);
	siw_sk_check_lost(st, sk);
	read_unlock_bh(&sk->sk_callback_lock);
	release_sock(sk);
}

/**
 * siw_qp_stream_start - bind an established MPA stream to a QP
 * @qp: an RC QP of a siw device
 * @sock: the connected TCP socket, MPA setup done
 * @params: what MPA setup decided
 *
 * See siw_stream.h.  Bytes already in the socket are received before
 * the call returns; a stream the peer closed or reset already is
 * reported lost to the CM then.
 *
 * Context: process context, may sleep; takes sk_callback_lock and the
 * socket lock.
 * Return: 0; -EBUSY when a stream is bound already, -EINVAL for a QP of
 * another device or type, -ENOMEM.
 */
int siw_qp_stream_start(struct rvt_qp *qp, struct socket *sock,
			const struct siw_stream_params *params)
{
	struct siw_qp_stream *st = qp->priv;
	struct sock *sk = sock->sk;
	int ret;

	if (!st || qp->ibqp.qp_type != IB_QPT_RC ||
	    qp->rdi->driver_f.xmit_wqe != siw_xmit_wqe)
		return -EINVAL;
	if (st->sock)
		return -EBUSY;
	/* a stream stopped before left nothing running */
	siw_tx_sync(st);
	siw_tx_release(st);
	siw_qp_free_queues(st);
	ret = siw_qp_alloc_queues(st, params);
	if (ret)
		goto err_free;
	siw_qp_reset_stream(st);
	st->params = *params;
	/*
	 * A peer-to-peer responder waits for the initiator's first FPDU,
	 * its RTR, which comes unasked.  Any other responder sends at once,
	 * as upstream's siw: RFC 5044 7.1.2 would have it wait too, but
	 * nothing then comes unless the initiator's consumer sends first,
	 * and a consumer whose passive side sends first (librdmacm's
	 * ucmatose) would wait forever.
	 */
	st->tx_hold = !params->initiator && params->mpa.p2p;
	if (params->initiator && params->mpa.p2p)
		st->rtr_pending = params->mpa.rtr;
	tcp_sock_set_nodelay(sk);

	write_lock_bh(&sk->sk_callback_lock);
	st->saved_data_ready = sk->sk_data_ready;
	st->saved_write_space = sk->sk_write_space;
	st->saved_state_change = sk->sk_state_change;
	sk->sk_data_ready = siw_sk_data_ready;
	sk->sk_write_space = siw_sk_write_space;
	sk->sk_state_change = siw_sk_state_change;
	sk->sk_user_data = st;
	spin_lock_bh(&st->lock);
	st->sock = sock;
	spin_unlock_bh(&st->lock);
	set_bit(SIW_ST_BOUND, &st->flags);
	write_unlock_bh(&sk->sk_callback_lock);

	/*
	 * What came behind the MPA frames before the callbacks were ours,
	 * and a close that came then: the peer's FIN or reset may be in
	 * already (a peer that works and closes while the CM still sets
	 * up), and its state change will not come again.
	 */
	siw_qp_rx_drain(st, sk);

	rvt_kick_sq(qp);
	/* a peer-to-peer initiator's RTR goes first */
	if (st->rtr_pending)
		queue_work(siw_tx_wq, &st->tx_work);
	return 0;

err_free:
	siw_qp_free_queues(st);
	return ret;
}

/* A request sent by page still waits for TCP's ACK (st->lock held). */
static bool siw_qp_ackwait(struct siw_qp_stream *st)
{
	u32 i;

	for (i = st->c_head; i != st->t_next; i = siw_wqe_next(st, i))
		if (st->wire[i].state == SIW_WQE_ACKWAIT)
			return true;
	return false;
}

/*
 * With @graceful, wait (a while) until the transmitter sent what it had
 * taken, READ responses included, and TCP's peer acknowledged what went
 * by page.
 */
static void siw_qp_stream_drain(struct siw_qp_stream *st)
{
	unsigned long end = jiffies + 2 * HZ;
	bool idle;

	do {
		flush_work(&st->tx_work);
		spin_lock_bh(&st->lock);
		idle = st->dead || (st->t_next == st->q_tail &&
				    !st->irq_count && st->tx_job == SIW_TX_NONE &&
				    st->tx_sent == st->tx_fpdu &&
				    !siw_qp_ackwait(st));
		spin_unlock_bh(&st->lock);
		if (idle)
			return;
		usleep_range(5000, 10000);
	} while (time_before(jiffies, end));
}

/**
 * siw_qp_stream_receive - receive what waits in the socket of a QP
 * @qp: an RC QP of a siw device, its stream bound by the caller (the CM,
 *	which also keeps it bound during the call)
 *
 * See siw_stream.h: what came while the QP was in INIT is taken now.
 *
 * Context: process context, may sleep; takes the socket lock and
 * sk_callback_lock.
 */
void siw_qp_stream_receive(struct rvt_qp *qp)
{
	struct siw_qp_stream *st = qp->priv;
	struct socket *sock;

	if (!st || qp->rdi->driver_f.xmit_wqe != siw_xmit_wqe)
		return;
	spin_lock_bh(&st->lock);
	sock = st->sock;
	spin_unlock_bh(&st->lock);
	if (sock)
		siw_qp_rx_drain(st, sock->sk);
}

/**
 * siw_qp_stream_stop - detach the stream from a QP
 * @qp: the QP
 * @graceful: let the transmitter send what it took first (at most two
 *	seconds), else stop at once
 *
 * See siw_stream.h.  The requests the data path holds and did not
 * complete stay held (untouched): siw gives them back, flushed, when the
 * QP goes to the error state, or forgets them in xmit_stop.
 *
 * Context: process context, may sleep; takes sk_callback_lock.
 * Return: the socket, or NULL if none was bound.
 */
struct socket *siw_qp_stream_stop(struct rvt_qp *qp, bool graceful)
{
	struct siw_qp_stream *st = qp->priv;
	struct socket *sock;
	struct sock *sk;

	if (!st || !st->sock)
		return NULL;
	if (graceful)
		siw_qp_stream_drain(st);
	sock = st->sock;
	sk = sock->sk;
	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_user_data = NULL;
	sk->sk_data_ready = st->saved_data_ready;
	sk->sk_write_space = st->saved_write_space;
	sk->sk_state_change = st->saved_state_change;
	spin_lock_bh(&st->lock);
	st->dead = true;
	spin_unlock_bh(&st->lock);
	clear_bit(SIW_ST_BOUND, &st->flags);
	write_unlock_bh(&sk->sk_callback_lock);

	/* no receive runs now; the transmitter sees @dead and stops */
	siw_tx_sync(st);
	spin_lock_bh(&st->lock);
	st->sock = NULL;
	spin_unlock_bh(&st->lock);
	siw_tx_release(st);
	siw_rx_reset(st);
	siw_qp_free_queues(st);
	/* in the error state, what siw holds goes back now */
	queue_work(siw_tx_wq, &st->tx_work);
	return sock;
}

/**
 * siw_qp_mulpdu - the MULPDU the QP's stream cuts messages with now
 * @qp: the QP, a stream bound
 *
 * Context: any.
 * Return: the MULPDU (DDP header and payload bytes of an FPDU at most),
 * or 0 without a stream.
 */
u32 siw_qp_mulpdu(struct rvt_qp *qp)
{
	struct siw_qp_stream *st = qp->priv;
	struct socket *sock = st ? READ_ONCE(st->sock) : NULL;
	struct tcp_sock *tp;
	u32 seglen;

	if (!sock)
		return 0;
	tp = tcp_sk(sock->sk);
	seglen = siw_fpdu_seglen(READ_ONCE(tp->mss_cache),
				 READ_ONCE(tp->gso_segs),
				 st->params.mpa.gso ?
				 READ_ONCE(siw_gso_seg_limit) : 1);
	return siw_fpdu_mulpdu(min_t(u32, seglen, SIW_TX_BUF));
}

/**
 * siw_fill_res_qp_entry - siw's attributes of a QP in restrack replies
 * @msg: the reply being filled
 * @ibqp: the QP (a restrack reference held by the caller)
 *
 * "rdma res show qp -dd" prints them: the MPA choices of the stream
 * (once one is bound), the MULPDU its last message was cut with, the
 * FPDUs sent (those from the request's pages, those TCP took by page)
 * and received.  Read without the stream's lock: figures
 * of a running QP, each consistent on its own.
 *
 * Context: process context (netlink); takes no lock.
 * Return: 0, or -EMSGSIZE when @msg is full.
 */
int siw_fill_res_qp_entry(struct sk_buff *msg, struct ib_qp *ibqp)
{
	struct siw_qp_stream *st = ibqp_to_rvtqp(ibqp)->priv;
	const struct siw_mpa_result *mpa;
	struct nlattr *nest;

	if (!st)
		return 0;
	mpa = &st->params.mpa;
	nest = nla_nest_start_noflag(msg, RDMA_NLDEV_ATTR_DRIVER);
	if (!nest)
		return -EMSGSIZE;
	if (rdma_nl_put_driver_u32(msg, "mpa_rev", READ_ONCE(mpa->revision)) ||
	    rdma_nl_put_driver_u32(msg, "mpa_crc", READ_ONCE(mpa->crc)) ||
	    rdma_nl_put_driver_u32(msg, "mulpdu", READ_ONCE(st->tx_mulpdu)) ||
	    rdma_nl_put_driver_u64(msg, "tx_fpdus", READ_ONCE(st->tx_fpdus)) ||
	    rdma_nl_put_driver_u64(msg, "tx_paged", READ_ONCE(st->tx_paged)) ||
	    rdma_nl_put_driver_u64(msg, "tx_spliced",
				   READ_ONCE(st->tx_spliced)) ||
	    rdma_nl_put_driver_u64(msg, "tx_direct",
				   READ_ONCE(st->tx_direct_fpdus)) ||
	    rdma_nl_put_driver_u64(msg, "rx_fpdus", READ_ONCE(st->rx_fpdus)) ||
	    /* READs: the negotiated depths and what is in flight now */
	    rdma_nl_put_driver_u32(msg, "ord", READ_ONCE(st->orq_size)) ||
	    rdma_nl_put_driver_u32(msg, "ird", READ_ONCE(st->irq_size)) ||
	    rdma_nl_put_driver_u32(msg, "orq_used", READ_ONCE(st->orq_count)) ||
	    rdma_nl_put_driver_u32(msg, "irq_used", READ_ONCE(st->irq_count)))
		goto cancel;
	nla_nest_end(msg, nest);
	return 0;
cancel:
	nla_nest_cancel(msg, nest);
	return -EMSGSIZE;
}

/**
 * siw_qp_terms - TERMINATE messages of a QP's streams
 * @qp: the QP
 * @sent: those sent, else those received
 *
 * Context: any.
 * Return: their number since the QP was made.
 */
u32 siw_qp_terms(struct rvt_qp *qp, bool sent)
{
	struct siw_qp_stream *st = qp->priv;

	return atomic_read(sent ? &st->terms_sent : &st->terms_rcvd);
}
