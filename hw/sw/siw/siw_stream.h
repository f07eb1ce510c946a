/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * siw: the contract between the connection manager (siw_cm*.c: sockets,
 * MPA setup, the iw_cm_verbs ops) and the QP's data path (siw_qp*.c,
 * siw_tx*.c, siw_rx*.c: FPDUs on an established stream).
 *
 * The CM owns the TCP socket until MPA setup is over; then it hands the
 * socket to a QP with siw_qp_stream_start() and the data path owns its
 * callbacks and its traffic until siw_qp_stream_stop().  Either side may
 * end the stream: the CM because the consumer disconnects or the QP goes
 * to ERROR/SQD, the data path because the socket failed or a TERMINATE
 * came; the data path tells the CM through siw_cm_stream_lost().
 */
#ifndef SIW_STREAM_H
#define SIW_STREAM_H

#include <linux/net.h>
#include <rdma/rdma_vt.h>

#include "siw_mpa.h"

/**
 * struct siw_stream_params - what MPA setup decided for a connection
 * @mpa: the negotiated result (CRC, IRD/ORD, revision, RTR)
 * @initiator: this side sent the MPA request
 */
struct siw_stream_params {
	struct siw_mpa_result	mpa;
	bool			initiator;
};

/* ---- the data path, called by the CM ---- */

/*
 * siw_qp_stream_start - bind an established MPA stream to a QP
 *
 * Takes over @sock (its sk callbacks, its send side); from now on the QP
 * transmits its send queue as FPDUs and places what arrives.  Bytes that
 * arrived behind the MPA frames before the call are still in the socket
 * (the CM reads the MPA frames exactly); a FIN or reset that came before
 * the call is reported as one that comes later (siw_cm_stream_lost()).
 * Process context, may sleep.
 * Returns 0 or a negative errno (the socket then stays the CM's).
 */
int siw_qp_stream_start(struct rvt_qp *qp, struct socket *sock,
			const struct siw_stream_params *params);

/*
 * siw_qp_stream_stop - detach the stream from a QP
 *
 * Restores the socket's callbacks, waits until no transmit or receive of
 * the QP runs, and returns the socket to the caller (the CM closes it).
 * @graceful: send what is queued first (disconnect), else stop at once.
 * Process context, may sleep.  Returns the socket, or NULL if none was
 * bound.
 */
struct socket *siw_qp_stream_stop(struct rvt_qp *qp, bool graceful);

/*
 * siw_qp_stream_receive - receive what waits in the socket of @qp
 *
 * The receiver leaves the bytes in the socket while the QP is in INIT
 * (a consumer's QP until the CM moves it to RTS: rdmavt takes no
 * receive WQE then), and no callback comes for them again: the CM
 * calls this once the QP is in RTS.  A no-op without a stream.
 * Process context, may sleep; takes the socket lock.
 */
void siw_qp_stream_receive(struct rvt_qp *qp);

/* ---- the CM, called by the data path ---- */

/*
 * siw_cm_stream_lost - the stream of @qp failed or the peer ended it
 *
 * @err: -ECONNRESET (peer closed or reset), -EPROTO (TERMINATE received
 * or sent), -EIO (socket error).  Any context but hard interrupts; the
 * CM defers the work (iw_cm events, closing the socket) to process
 * context.  Called at most once per stream.
 */
void siw_cm_stream_lost(struct rvt_qp *qp, int err);

/*
 * siw_cm_stream_ready - the first FPDU came on the stream of @qp, the
 * responder of a peer-to-peer setup: the initiator's RTR message
 *
 * The CM reports ESTABLISHED then.  Any context but hard interrupts;
 * the CM defers the work.  Called at most once per stream.
 */
void siw_cm_stream_ready(struct rvt_qp *qp);

#endif /* SIW_STREAM_H */
