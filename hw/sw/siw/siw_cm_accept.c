// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw: the passive side of a connection.  A connection a listener
 * accepted reads the peer's MPA request; a good one is reported to the
 * listener's id as CONNECT_REQUEST, with the endpoint as provider_data.
 * The consumer answers with iw_accept (MPA reply, the stream to the QP,
 * ESTABLISHED) or iw_reject (MPA reject, close).  A request refused by
 * our MPA policy is answered with a reject at once; a frame that is no
 * MPA request closes the connection.  A request nobody answers within
 * SIW_MPA_TIMEOUT loses its socket (a later accept fails).
 */
#include <linux/slab.h>

#include "siw_cm.h"
#include "siw_stream.h"

/* Leave the listener's list of connections in setup; under our mutex. */
static void siw_cm_leave_listener(struct siw_cep *cep)
{
	struct siw_cep *l = cep->listener;

	if (!l)
		return;
	/* the same lock class as ours: the order is passive, listener */
	mutex_lock_nested(&l->mutex, SINGLE_DEPTH_NESTING);
	list_del_init(&cep->child_entry);
	l->nr_children--;
	mutex_unlock(&l->mutex);
	cep->listener = NULL;
	siw_cep_put(l);
}

/* Refuse a request our policy does not take: MPA reject, no data. */
static void siw_cm_policy_reject(struct siw_cep *cep)
{
	u8 buf[sizeof(struct mpa_rr) + sizeof(struct mpa_v2_data)];
	int len;

	len = siw_mpa_build_reject(&siw_mpa_policy, &cep->frame, NULL, NULL,
				   0, buf, sizeof(buf));
	if (len > 0)
		siw_cm_send(cep->sock, buf, len);
}

/**
 * siw_cm_request_timeout - a reported request was not answered in time
 * @work: siw_cep.timeout; holds a reference on the endpoint
 *
 * Context: siw_cm_wq.
 */
void siw_cm_request_timeout(struct work_struct *work)
{
	struct siw_cep *cep = container_of(to_delayed_work(work),
					   struct siw_cep, timeout);

	mutex_lock(&cep->mutex);
	if (cep->state == SIW_CEP_REQ_PENDING) {
		ibdev_dbg(&cep->sdev->rdi.ibdev,
			  "cm: connection request not answered in time\n");
		siw_cm_release_sock(cep);
		cep->state = SIW_CEP_CLOSED;
	}
	mutex_unlock(&cep->mutex);
	siw_cep_put(cep);
}

/*
 * Report the request to the listener's id; under our mutex.  Return 0
 * when reported (the endpoint's reference is the provider_data's now).
 */
static int siw_cm_report_request(struct siw_cep *cep)
{
	struct siw_cep *l = cep->listener;
	int ret = -ECONNABORTED;

	/* the same lock class as ours: the order is passive, listener */
	mutex_lock_nested(&l->mutex, SINGLE_DEPTH_NESTING);
	if (l->state == SIW_CEP_LISTEN && l->cm_id) {
		/*
		 * The request's IRD and ORD as the initiator offered them
		 * (within our limits), as hardware RNICs report them:
		 * rdma_cm hands the IRD to the consumer as the deepest
		 * initiator_depth its accept may ask for, the ORD as the
		 * responder_resources it must give.  Without MPA v2 there
		 * is no offer: our limits, as upstream's siw reports.
		 */
		u16 ird = cep->mpa.enhanced ? cep->mpa.ord :
			siw_mpa_policy.max_ord;
		u16 ord = cep->mpa.enhanced ? cep->mpa.ird :
			siw_mpa_policy.max_ird;
		struct iw_cm_event ev = {
			.event = IW_CM_EVENT_CONNECT_REQUEST,
			.provider_data = cep,
			.private_data = (void *)cep->frame.pdata,
			.private_data_len = min_t(u16, cep->frame.pdata_len,
						  U8_MAX),
			.ird = min_t(u16, ird, U8_MAX),
			.ord = min_t(u16, ord, U8_MAX),
		};

		if (!ev.private_data_len)
			ev.private_data = NULL;
		kernel_getsockname(cep->sock,
				   (struct sockaddr *)&ev.local_addr);
		kernel_getpeername(cep->sock,
				   (struct sockaddr *)&ev.remote_addr);
		cep->state = SIW_CEP_REQ_PENDING;
		set_bit(SIW_CEP_F_REQUESTED, &cep->flags);
		ret = l->cm_id->event_handler(l->cm_id, &ev);
		if (ret) {
			clear_bit(SIW_CEP_F_REQUESTED, &cep->flags);
			cep->state = SIW_CEP_MPA_REQ_WAIT;
		}
	}
	list_del_init(&cep->child_entry);
	l->nr_children--;
	mutex_unlock(&l->mutex);
	cep->listener = NULL;
	siw_cep_put(l);
	return ret;
}

/**
 * siw_cm_passive_work - read the MPA request of an accepted connection
 * @work: siw_cep.work of a passive endpoint
 *
 * Holds the endpoint's setup reference.  The listener (or the device's
 * end) shuts the socket down to stop the read early.
 *
 * Context: siw_cm_wq.
 */
void siw_cm_passive_work(struct work_struct *work)
{
	struct siw_cep *cep = container_of(work, struct siw_cep, work);
	struct ib_device *ibdev = &cep->sdev->rdi.ibdev;
	enum siw_mpa_reason why = SIW_MPA_OK;
	int ret;

	/* the socket stays while we are on the listener's list */
	ret = siw_cm_recv_mpa(cep, false);
	mutex_lock(&cep->mutex);
	if (!ret) {
		ret = siw_mpa_check_req(&siw_mpa_policy, &cep->frame,
					&cep->mpa, &why);
		if (ret) {
			siw_cm_policy_reject(cep);
			ibdev_dbg(ibdev, "cm: MPA request refused: %s\n",
				  siw_mpa_reason_name(why));
		}
	} else {
		ibdev_dbg(ibdev, "cm: no MPA request: %d\n", ret);
	}
	if (!ret && cep->state == SIW_CEP_MPA_REQ_WAIT) {
		ret = siw_cm_report_request(cep);
		if (!ret) {
			siw_cep_get(cep);
			queue_delayed_work(siw_cm_wq, &cep->timeout,
					   SIW_MPA_TIMEOUT);
			mutex_unlock(&cep->mutex);
			return;
		}
	}
	siw_cm_leave_listener(cep);
	siw_cm_release_sock(cep);
	cep->state = SIW_CEP_CLOSED;
	mutex_unlock(&cep->mutex);
	siw_cep_put(cep);
}

/* Drop the provider_data's reference once. */
static void siw_cm_answered(struct siw_cep *cep)
{
	if (!test_and_set_bit(SIW_CEP_F_ANSWERED, &cep->flags))
		siw_cep_put(cep);
}

/**
 * siw_accept - iw_accept of a siw device
 * @cm_id: the id of a CONNECT_REQUEST; provider_data is the endpoint
 * @param: private data, IRD/ORD, the QP
 *
 * Sends the MPA reply with the negotiated IRD/ORD, hands the stream to
 * the QP, moves the QP to RTS and reports ESTABLISHED.
 *
 * Context: process context, may sleep (blocks for at most the send
 * timeout).
 * Return: 0; -EINVAL (no such QP, QP already connected, IRD/ORD above
 * the device's, private data too long); -ECONNRESET when the connection
 * is gone (peer, timeout); the socket's or the data path's error.  On
 * error the connection is closed and no event follows.
 */
int siw_accept(struct iw_cm_id *cm_id, struct iw_cm_conn_param *param)
{
	struct siw_cep *cep = cm_id->provider_data;
	u8 *buf;
	int len, ret;
	struct rvt_qp *qp;

	if (!cep)
		return -EINVAL;
	buf = kmalloc(SIW_MPA_MAX_TX_FRAME, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	mutex_lock(&cep->mutex);
	if (cep->state != SIW_CEP_REQ_PENDING ||
	    test_bit(SIW_CEP_F_ANSWERED, &cep->flags)) {
		ret = -ECONNRESET;
		goto fail;
	}
	if (cancel_delayed_work(&cep->timeout))
		siw_cep_put(cep);
	len = siw_mpa_build_rep(&siw_mpa_policy, &cep->mpa,
				min_t(u32, param->ird, U16_MAX),
				min_t(u32, param->ord, U16_MAX),
				param->private_data, param->private_data_len,
				buf, SIW_MPA_MAX_TX_FRAME);
	if (len < 0) {
		ret = -EINVAL;
		goto fail;
	}
	qp = siw_cm_bind_qp(cep, param->qpn);
	if (IS_ERR(qp)) {
		ret = PTR_ERR(qp);
		goto fail;
	}
	ret = siw_cm_send(cep->sock, buf, len);
	if (ret)
		goto fail_qp;
	cep->cm_id = cm_id;
	cm_id->add_ref(cm_id);
	/* peer-to-peer: ESTABLISHED once the initiator's RTR came */
	if (cep->mpa.p2p)
		set_bit(SIW_CEP_F_RTR_WAIT, &cep->flags);
	ret = siw_cm_go_rts(cep, false);
	if (ret)
		goto fail_id;
	/* the provider_data's reference is the connection's now */
	set_bit(SIW_CEP_F_ANSWERED, &cep->flags);
	if (!cep->mpa.p2p)
		siw_cm_report(cep, IW_CM_EVENT_ESTABLISHED, 0, NULL, 0);
	mutex_unlock(&cep->mutex);
	kfree(buf);
	return 0;

fail_id:
	siw_cm_drop_id(cep);
fail_qp:
	siw_cm_unbind_qp(cep);
fail:
	siw_cm_release_sock(cep);
	cep->state = SIW_CEP_CLOSED;
	cm_id->provider_data = NULL;
	mutex_unlock(&cep->mutex);
	siw_cm_answered(cep);
	kfree(buf);
	return ret;
}

/**
 * siw_reject - iw_reject of a siw device
 * @cm_id: the id of a CONNECT_REQUEST; provider_data is the endpoint
 * @pdata: private data for the peer, or NULL
 * @pd_len: its length
 *
 * Sends an MPA reply with the reject flag and @pdata, then closes.
 *
 * Context: process context, may sleep.
 * Return: 0 (also when the connection was gone already), or -EINVAL
 * when the private data do not fit an MPA frame (the connection is
 * closed all the same).
 */
int siw_reject(struct iw_cm_id *cm_id, const void *pdata, u8 pd_len)
{
	struct siw_cep *cep = cm_id->provider_data;
	u8 *buf;
	int len = 0;

	if (!cep)
		return 0;
	buf = kmalloc(SIW_MPA_MAX_TX_FRAME, GFP_KERNEL);
	mutex_lock(&cep->mutex);
	if (cep->state == SIW_CEP_REQ_PENDING && buf) {
		if (cancel_delayed_work(&cep->timeout))
			siw_cep_put(cep);
		len = siw_mpa_build_reject(&siw_mpa_policy, &cep->frame,
					   &cep->mpa, pdata, pd_len, buf,
					   SIW_MPA_MAX_TX_FRAME);
		if (len > 0)
			siw_cm_send(cep->sock, buf, len);
	}
	siw_cm_release_sock(cep);
	cep->state = SIW_CEP_CLOSED;
	cm_id->provider_data = NULL;
	mutex_unlock(&cep->mutex);
	siw_cm_answered(cep);
	kfree(buf);
	return len < 0 ? -EINVAL : 0;
}
