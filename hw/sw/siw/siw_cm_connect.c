// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw: the active side of a connection.  iw_connect checks what it can
 * at once (the QP, the MPA request, the socket and its local address)
 * and leaves the rest to a work item: TCP connect to the id's mapped
 * remote address, the MPA request, the peer's reply.  The outcome is
 * one CONNECT_REPLY: status 0 with the stream handed to the QP (in
 * RTS), -ECONNREFUSED for an MPA reject (with its private data) or a
 * TCP reset on connect, -EINVAL for a reply refused for its IRD or RTR
 * choice (as upstream), -ETIMEDOUT, -ECONNRESET, or the MPA error.
 */
#include <linux/slab.h>

#include "siw_cm.h"
#include "siw_stream.h"
#include "siw_term.h"

static int siw_cm_addr_len(const struct sockaddr_storage *addr)
{
	return addr->ss_family == AF_INET ? sizeof(struct sockaddr_in) :
					    sizeof(struct sockaddr_in6);
}

/* Connect, request, reply; without the mutex (see siw_cm.c). */
static int siw_cm_connect_steps(struct siw_cep *cep, struct iw_cm_id *cm_id)
{
	int ret;

	ret = kernel_connect(cep->sock,
			     (struct sockaddr *)&cm_id->m_remote_addr,
			     siw_cm_addr_len(&cm_id->m_remote_addr), 0);
	if (ret == -EINPROGRESS || ret == -EAGAIN)
		return -ETIMEDOUT;
	if (ret)
		return ret;
	ret = siw_cm_send(cep->sock, cep->tx, cep->tx_len);
	if (ret)
		return ret;
	return siw_cm_recv_mpa(cep, true);
}

/*
 * A reply refused for its IRD or RTR choice gets a TERMINATE (LLP,
 * MPA), as upstream's initiator sends it; other refusals close only.
 */
static void siw_cm_reply_term(struct siw_cep *cep, enum siw_mpa_reason why)
{
	u8 buf[SIW_TERM_MAX_FPDU];
	u8 ecode;
	int len;

	if (why == SIW_MPA_ERR_IRD)
		ecode = LLP_ECODE_INSUFFICIENT_IRD;
	else if (why == SIW_MPA_ERR_RTR)
		ecode = LLP_ECODE_NO_MATCHING_RTR;
	else
		return;
	len = siw_term_build(buf, sizeof(buf), TERM_ERROR_LAYER_LLP,
			     LLP_ETYPE_MPA, ecode, NULL,
			     (cep->frame.bits & SIW_MPA_FLAG_CRC) ||
			     siw_mpa_policy.crc_required);
	if (len > 0)
		siw_cm_send(cep->sock, buf, len);
}

/*
 * The connect work: holds the connection's reference.  Whoever ends the
 * setup early shuts the socket down, which the blocked step returns
 * from; the socket is released here only.
 */
static void siw_cm_connect_work(struct work_struct *work)
{
	struct siw_cep *cep = container_of(work, struct siw_cep, work);
	struct ib_device *ibdev = &cep->sdev->rdi.ibdev;
	enum siw_mpa_reason why = SIW_MPA_OK;
	struct siw_mpa_result offer = cep->mpa;
	const void *pdata = NULL;
	u16 pd_len = 0;
	int ret;

	ret = siw_cm_connect_steps(cep, cep->cm_id);
	mutex_lock(&cep->mutex);
	if (cep->state != SIW_CEP_CONNECTING)
		ret = -ECONNRESET;
	if (!ret) {
		ret = siw_mpa_check_reply(&siw_mpa_policy, &offer, &cep->frame,
					  &cep->mpa, &why);
		if (why == SIW_MPA_ERR_REJECTED) {
			ret = -ECONNREFUSED;
			pdata = cep->frame.pdata;
			pd_len = cep->frame.pdata_len;
		} else if (ret) {
			ibdev_dbg(ibdev, "cm: MPA reply refused: %s\n",
				  siw_mpa_reason_name(why));
			siw_cm_reply_term(cep, why);
			/* upstream's word for a CRC or marker refusal */
			if (why == SIW_MPA_ERR_CRC || why == SIW_MPA_ERR_MARKERS)
				ret = -ECONNREFUSED;
			/* and for a refused IRD or RTR choice */
			if (why == SIW_MPA_ERR_IRD || why == SIW_MPA_ERR_RTR)
				ret = -EINVAL;
		}
	}
	if (!ret) {
		ret = siw_cm_go_rts(cep, true);
		if (!ret) {
			siw_cm_report(cep, IW_CM_EVENT_CONNECT_REPLY, 0,
				      cep->frame.pdata, cep->frame.pdata_len);
			mutex_unlock(&cep->mutex);
			return;
		}
	}
	ibdev_dbg(ibdev, "cm: connect to %pISpc failed: %d\n",
		  &cep->cm_id->m_remote_addr, ret);
	siw_cm_report(cep, IW_CM_EVENT_CONNECT_REPLY, ret, pdata, pd_len);
	siw_cm_release_sock(cep);
	siw_cm_unbind_qp(cep);
	siw_cm_drop_id(cep);
	cep->state = SIW_CEP_CLOSED;
	mutex_unlock(&cep->mutex);
	siw_cep_put(cep);
}

/**
 * siw_connect - iw_connect of a siw device
 * @cm_id: the id; m_local_addr and m_remote_addr are the wire's
 * @param: private data, IRD/ORD, the QP
 *
 * Context: process context, may sleep.
 * Return: 0 when the connect is under way (CONNECT_REPLY follows);
 * -EINVAL (no such QP, QP already connected, IRD/ORD above the
 * device's, private data too long), -EAFNOSUPPORT, -ENOMEM, or the
 * socket's error binding the local address.  No event follows an
 * error.
 */
int siw_connect(struct iw_cm_id *cm_id, struct iw_cm_conn_param *param)
{
	struct siw_device *sdev = to_siw_dev(cm_id->device);
	struct sockaddr_storage local = cm_id->m_local_addr;
	struct siw_cep *cep;
	struct rvt_qp *qp;
	int ret;

	if (cm_id->m_remote_addr.ss_family != local.ss_family)
		return -EINVAL;
	cep = siw_cep_alloc(sdev);
	if (!cep)
		return -ENOMEM;
	INIT_WORK(&cep->work, siw_cm_connect_work);
	mutex_lock(&cep->mutex);
	cep->tx = kmalloc(SIW_MPA_MAX_TX_FRAME, GFP_KERNEL);
	if (!cep->tx) {
		ret = -ENOMEM;
		goto err;
	}
	ret = siw_mpa_build_req(&siw_mpa_policy,
				min_t(u32, param->ird, U16_MAX),
				min_t(u32, param->ord, U16_MAX),
				param->private_data, param->private_data_len,
				cep->tx, SIW_MPA_MAX_TX_FRAME, &cep->mpa);
	if (ret < 0) {
		ret = -EINVAL;
		goto err;
	}
	cep->tx_len = ret;
	qp = siw_cm_bind_qp(cep, param->qpn);
	if (IS_ERR(qp)) {
		ret = PTR_ERR(qp);
		goto err;
	}
	cep->sock = siw_cm_socket(sdev, local.ss_family);
	if (IS_ERR(cep->sock)) {
		ret = PTR_ERR(cep->sock);
		cep->sock = NULL;
		goto err;
	}
	ret = siw_cm_bind_mapped(cep->sock, cm_id);
	if (ret)
		goto err;
	cep->cm_id = cm_id;
	cm_id->add_ref(cm_id);
	cm_id->provider_data = cep;
	cep->state = SIW_CEP_CONNECTING;
	queue_work(siw_cm_wq, &cep->work);
	mutex_unlock(&cep->mutex);
	return 0;

err:
	siw_cm_release_sock(cep);
	siw_cm_unbind_qp(cep);
	cep->state = SIW_CEP_CLOSED;
	mutex_unlock(&cep->mutex);
	siw_cep_put(cep);
	return ret;
}
