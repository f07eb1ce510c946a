// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw: the end of a connection.  It comes from the QP (the consumer
 * moves it to SQD: graceful; to ERROR or destroys it: abrupt), from the
 * data path (siw_cm_stream_lost(): the peer closed or reset, a
 * TERMINATE, a socket error) or from the device's end.  The CM takes
 * the stream back from the QP, flushes the QP (ERROR), reports
 * DISCONNECT then CLOSE on the id, closes the socket and lets go of
 * the id, the QP and the connection's reference.  A connection still
 * in setup is cut instead: its work reports the failed CONNECT_REPLY.
 */
#include "siw_cm.h"
#include "siw_stream.h"

/**
 * siw_cm_close - end a connection now
 * @cep: the endpoint, referenced by the caller
 * @err: 0 for a local graceful close, else why (negative errno), for
 *	the log only: CLOSE always reports status 0, as upstream siw's does
 *	(rdma_cm passes it on as the status of DISCONNECTED)
 * @graceful: the QP sends what is queued before the stream stops
 *
 * Context: process context, may sleep; takes @cep's mutex.
 */
void siw_cm_close(struct siw_cep *cep, int err, bool graceful)
{
	struct socket *sock;

	mutex_lock(&cep->mutex);
	switch (cep->state) {
	case SIW_CEP_CONNECTING:
		/* the connect work wakes up, fails and cleans up */
		cep->state = SIW_CEP_CLOSED;
		kernel_sock_shutdown(cep->sock, SHUT_RDWR);
		fallthrough;
	default:
		mutex_unlock(&cep->mutex);
		return;
	case SIW_CEP_ESTABLISHED:
		break;
	}
	cep->state = SIW_CEP_CLOSED;
	sock = siw_qp_stream_stop(cep->qp, graceful);
	WARN_ON_ONCE(sock && sock != cep->sock);
	rvt_error_qp(cep->qp, IB_WC_WR_FLUSH_ERR);
	siw_cm_unbind_qp(cep);
	/* not established yet (no RTR came): CLOSE alone, as iw_cm takes it */
	if (test_and_clear_bit(SIW_CEP_F_RTR_WAIT, &cep->flags))
		set_bit(SIW_CEP_F_DISCONNECTED, &cep->flags);
	if (!test_and_set_bit(SIW_CEP_F_DISCONNECTED, &cep->flags))
		siw_cm_report(cep, IW_CM_EVENT_DISCONNECT, 0, NULL, 0);
	if (err)
		ibdev_dbg(&cep->sdev->rdi.ibdev, "cm: connection closed: %d\n",
			  err);
	siw_cm_report(cep, IW_CM_EVENT_CLOSE, 0, NULL, 0);
	siw_cm_release_sock(cep);
	siw_cm_drop_id(cep);
	mutex_unlock(&cep->mutex);
	/* the connection's reference */
	siw_cep_put(cep);
}

/**
 * siw_cm_close_work - run a queued siw_cm_close()
 * @work: siw_cep.close_work; holds a reference on the endpoint
 *
 * Context: siw_cm_wq.
 */
void siw_cm_close_work(struct work_struct *work)
{
	struct siw_cep *cep = container_of(work, struct siw_cep, close_work);

	siw_cm_close(cep, READ_ONCE(cep->close_err),
		     READ_ONCE(cep->close_graceful));
	siw_cep_put(cep);
}

/* The endpoint bound to @qp, referenced, or NULL; any context. */
static struct siw_cep *siw_cm_qp_cep(struct rvt_qp *qp)
{
	struct siw_device *sdev = to_siw_dev(qp->ibqp.device);
	struct siw_cep *cep;

	rcu_read_lock();
	cep = xa_load(&sdev->conns, qp->ibqp.qp_num);
	if (cep && !kref_get_unless_zero(&cep->ref))
		cep = NULL;
	rcu_read_unlock();
	return cep;
}

/* Queue the close of @qp's connection; any context. */
static void siw_cm_queue_close(struct rvt_qp *qp, int err, bool graceful)
{
	struct siw_cep *cep = siw_cm_qp_cep(qp);

	if (!cep)
		return;
	WRITE_ONCE(cep->close_err, err);
	WRITE_ONCE(cep->close_graceful, graceful);
	/* queued already: that one closes */
	if (!queue_work(siw_cm_wq, &cep->close_work))
		siw_cep_put(cep);
}

/**
 * siw_cm_stream_lost - the stream of @qp failed or the peer ended it
 * @qp: the QP
 * @err: -ECONNRESET, -EPROTO or -EIO (see siw_stream.h)
 *
 * Context: any context but hard interrupts; queues the close.
 */
void siw_cm_stream_lost(struct rvt_qp *qp, int err)
{
	siw_cm_queue_close(qp, err ?: -ECONNRESET, false);
}

/**
 * siw_cm_ready_work - report ESTABLISHED of a peer-to-peer responder
 * @work: siw_cep.ready_work; holds a reference on the endpoint
 *
 * Context: siw_cm_wq.
 */
void siw_cm_ready_work(struct work_struct *work)
{
	struct siw_cep *cep = container_of(work, struct siw_cep, ready_work);

	mutex_lock(&cep->mutex);
	if (cep->state == SIW_CEP_ESTABLISHED &&
	    test_and_clear_bit(SIW_CEP_F_RTR_WAIT, &cep->flags))
		siw_cm_report(cep, IW_CM_EVENT_ESTABLISHED, 0, NULL, 0);
	mutex_unlock(&cep->mutex);
	siw_cep_put(cep);
}

/**
 * siw_cm_stream_ready - the RTR of a peer-to-peer setup came on @qp
 * @qp: the QP, its stream the responder's
 *
 * Context: any context but hard interrupts; queues the report.
 */
void siw_cm_stream_ready(struct rvt_qp *qp)
{
	struct siw_cep *cep = siw_cm_qp_cep(qp);

	if (cep && !queue_work(siw_cm_wq, &cep->ready_work))
		siw_cep_put(cep);
}

/**
 * siw_cm_qp_disconnect - the consumer ends @qp's connection
 * @qp: the QP
 * @abrupt: reset (QP to ERROR, destroyed) rather than a graceful close
 *	(QP to SQD)
 *
 * Context: any context but hard interrupts; queues the close.
 */
void siw_cm_qp_disconnect(struct rvt_qp *qp, bool abrupt)
{
	siw_cm_queue_close(qp, abrupt ? -ECONNRESET : 0, !abrupt);
}

/**
 * siw_cm_qp_modified - rdmavt's modify_qp hook of a siw device
 * @qp: the QP, in its new state
 * @attr: the attributes given
 * @attr_mask: which of them
 * @udata: user data, or NULL
 *
 * SQD ends the QP's connection gracefully, ERROR and RESET abruptly.
 *
 * Context: the modify's process context; queues work only.
 */
void siw_cm_qp_modified(struct rvt_qp *qp, struct ib_qp_attr *attr,
			int attr_mask, struct ib_udata *udata)
{
	if (!(attr_mask & IB_QP_STATE))
		return;
	switch (attr->qp_state) {
	case IB_QPS_SQD:
		siw_cm_qp_disconnect(qp, false);
		break;
	case IB_QPS_ERR:
	case IB_QPS_RESET:
		siw_cm_qp_disconnect(qp, true);
		break;
	default:
		break;
	}
}

/**
 * siw_cm_qp_quiesce - rdmavt's quiesce_qp hook: @qp is being destroyed
 * @qp: the QP, no longer found by number
 *
 * Ends its connection now, so that the references the connection and
 * iw_cm hold on @qp go (iw_cm's once it has processed CLOSE).
 *
 * Context: process context, may sleep.
 */
void siw_cm_qp_quiesce(struct rvt_qp *qp)
{
	struct siw_cep *cep = siw_cm_qp_cep(qp);

	if (!cep)
		return;
	siw_cm_close(cep, -ECONNRESET, false);
	siw_cep_put(cep);
}
