// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The MAD layer's client: on every port with InfiniBand management (IB
 * ports, and RoCE ports for QP1), a CQ, a PD, QP0 (IB only) and QP1,
 * brought to RTS with their receive queues full, and the port's two
 * responder agents.  A responder sends what the device's process_mad
 * answers and the "unsupported" answer to Gets and Sets nobody takes,
 * back to where the request came from.
 */

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>
#include <rdma/ib_verbs.h>

#include "../core_priv.h"
#include "mad_priv.h"

int ib_mad_sendq_size = 128;
module_param_named(send_queue_size, ib_mad_sendq_size, int, 0444);
MODULE_PARM_DESC(send_queue_size, "Size of send queue in number of work requests");
int ib_mad_recvq_size = 512;
module_param_named(recv_queue_size, ib_mad_recvq_size, int, 0444);
MODULE_PARM_DESC(recv_queue_size, "Size of receive queue in number of work requests");

/* The client's data of a device: its ports' state, by port number. */
struct ib_mad_device {
	u32				nports;
	struct ib_mad_port_private	*port[];
};

static int ib_mad_add_device(struct ib_device *device);
static void ib_mad_remove_device(struct ib_device *device, void *data);

static struct ib_client mad_client = {
	.name = "mad",
	.add = ib_mad_add_device,
	.remove = ib_mad_remove_device,
};

/**
 * ib_mad_get_port - the MAD layer's state of a port
 * @device: the device
 * @port_num: the port
 *
 * Context: Any context; valid while the device's MAD client is attached
 * (from a client's add() to its remove(), for clients registered after
 * ib_core's).
 * Return: the port's state, or NULL when it has no MAD layer.
 */
struct ib_mad_port_private *ib_mad_get_port(struct ib_device *device,
					    u32 port_num)
{
	struct ib_mad_device *md = ib_get_client_data(device, &mad_client);

	if (!md || port_num < rdma_start_port(device) ||
	    port_num > rdma_end_port(device))
		return NULL;
	return READ_ONCE(md->port[port_num - rdma_start_port(device)]);
}

static void mad_responder_send_handler(struct ib_mad_agent *agent,
				       struct ib_mad_send_wc *wc)
{
	rdma_destroy_ah(wc->send_buf->context[0], RDMA_DESTROY_AH_SLEEPABLE);
	ib_free_send_mad(wc->send_buf);
}

/**
 * ib_mad_send_response - send an answer back to a MAD's sender
 * @port_priv: the port the MAD arrived on
 * @qp_info: the QP it arrived on
 * @wc: its work completion
 * @grh: its GRH (used when @wc has IB_WC_GRH)
 * @mad: the answer
 * @mad_size: bytes of @mad
 * @port_num: the port to answer from
 *
 * Context: Process context; may sleep.
 * Return: 0, or the error that kept it from being sent (logged).
 */
int ib_mad_send_response(struct ib_mad_port_private *port_priv,
			 struct ib_mad_qp_info *qp_info,
			 const struct ib_wc *wc, const struct ib_grh *grh,
			 const void *mad, size_t mad_size, u32 port_num)
{
	struct ib_mad_agent *agent =
		port_priv->responder[qp_info == &port_priv->qp_info[0] ? 0 : 1];
	struct ib_mad_send_buf *sb;
	struct ib_ah *ah;
	int ret;

	if (!agent)
		return -ENODEV;
	ah = ib_create_ah_from_wc(agent->qp->pd, wc, grh, port_num);
	if (IS_ERR(ah)) {
		ret = PTR_ERR(ah);
		goto err;
	}
	sb = ib_create_send_mad(agent, wc->src_qp, wc->pkey_index, 0,
				IB_MGMT_MAD_HDR, mad_size - IB_MGMT_MAD_HDR,
				GFP_KERNEL, IB_MGMT_BASE_VERSION);
	if (IS_ERR(sb)) {
		ret = PTR_ERR(sb);
		goto err_ah;
	}
	memcpy(sb->mad, mad, mad_size);
	sb->ah = ah;
	sb->context[0] = ah;
	ret = ib_post_send_mad(sb, NULL);
	if (ret)
		goto err_sb;
	return 0;

err_sb:
	ib_free_send_mad(sb);
err_ah:
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
err:
	ibdev_dbg(port_priv->device,
		  "MAD: port %u: could not send a response: %d\n",
		  port_priv->port_num, ret);
	return ret;
}

static int mad_create_qp(struct ib_mad_port_private *pp, int n)
{
	struct ib_qp_init_attr init = {
		.send_cq = pp->cq,
		.recv_cq = pp->cq,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.cap = {
			.max_send_wr = ib_mad_sendq_size,
			.max_recv_wr = ib_mad_recvq_size,
			.max_send_sge = 2,
			.max_recv_sge = 1,
		},
		.qp_type = n ? IB_QPT_GSI : IB_QPT_SMI,
		.port_num = pp->port_num,
		.qp_context = &pp->qp_info[n],
	};
	struct ib_qp *qp;

	qp = ib_create_qp(pp->pd, &init);
	if (IS_ERR(qp))
		return PTR_ERR(qp);
	pp->qp_info[n].qp = qp;
	return 0;
}

/* INIT (P_Key 0, QP1's well-known Q_Key), RTR, RTS. */
static int mad_start_qp(struct ib_mad_port_private *pp, int n)
{
	struct ib_qp *qp = pp->qp_info[n].qp;
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.pkey_index = 0,
		.qkey = n ? IB_QP1_QKEY : 0,
	};
	int ret;

	ret = ib_modify_qp(qp, &attr,
			   IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_QKEY);
	if (ret)
		return ret;
	attr.qp_state = IB_QPS_RTR;
	ret = ib_modify_qp(qp, &attr, IB_QP_STATE);
	if (ret)
		return ret;
	attr.qp_state = IB_QPS_RTS;
	attr.sq_psn = 0;
	return ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_SQ_PSN);
}

static void mad_init_qp_info(struct ib_mad_port_private *pp, int n)
{
	struct ib_mad_qp_info *qi = &pp->qp_info[n];

	qi->port_priv = pp;
	spin_lock_init(&qi->send_lock);
	INIT_LIST_HEAD(&qi->send_posted);
	INIT_LIST_HEAD(&qi->send_overflow);
	spin_lock_init(&qi->recv_lock);
	INIT_LIST_HEAD(&qi->recv_posted);
}

/*
 * Stop the port's QPs: nothing is posted any more, every posted work
 * request comes back flushed, and no completion handler runs once this
 * returns.
 */
static void mad_port_quiesce(struct ib_mad_port_private *pp)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	int n;

	WRITE_ONCE(pp->closing, true);
	/* a post that saw the port open is on its QP after this */
	for (n = 0; n < IB_MAD_QP_COUNT; n++) {
		if (!pp->qp_info[n].qp)
			continue;
		spin_lock_irq(&pp->qp_info[n].recv_lock);
		spin_unlock_irq(&pp->qp_info[n].recv_lock);
	}

	for (n = 0; n < IB_MAD_QP_COUNT; n++)
		if (pp->qp_info[n].qp)
			ib_modify_qp(pp->qp_info[n].qp, &attr, IB_QP_STATE);
	wait_var_event(&pp->outstanding, !atomic_read(&pp->outstanding));
}

static void mad_port_free(struct ib_mad_port_private *pp)
{
	int n;

	for (n = 0; n < IB_MAD_QP_COUNT; n++) {
		if (!pp->qp_info[n].qp)
			continue;
		ib_mad_flush_send_queue(&pp->qp_info[n]);
		ib_destroy_qp(pp->qp_info[n].qp);
		ib_mad_cleanup_receives(&pp->qp_info[n]);
	}
	if (pp->wq)
		destroy_workqueue(pp->wq);
	if (pp->cq)
		ib_free_cq(pp->cq);
	if (pp->pd)
		ib_dealloc_pd(pp->pd);
	xa_destroy(&pp->methods);
	kfree(pp);
}

/* Set up the MAD layer of one port; published in @md when done. */
static int mad_port_open(struct ib_device *device, u32 port_num,
			 struct ib_mad_port_private **out)
{
	bool smi = rdma_cap_ib_smi(device, port_num);
	struct ib_mad_port_private *pp;
	int n, ret, cq_size;

	pp = kzalloc(sizeof(*pp), GFP_KERNEL);
	if (!pp)
		return -ENOMEM;
	pp->device = device;
	pp->port_num = port_num;
	mutex_init(&pp->reg_mutex);
	xa_init(&pp->methods);
	for (n = 0; n < IB_MAD_QP_COUNT; n++)
		mad_init_qp_info(pp, n);

	pp->pd = ib_alloc_pd(device, 0);
	if (IS_ERR(pp->pd)) {
		ret = PTR_ERR(pp->pd);
		pp->pd = NULL;
		goto err;
	}
	cq_size = (ib_mad_sendq_size + ib_mad_recvq_size) * (smi ? 2 : 1);
	pp->cq = ib_alloc_cq(device, pp, cq_size, 0,
			     IB_POLL_UNBOUND_WORKQUEUE);
	if (IS_ERR(pp->cq)) {
		ret = PTR_ERR(pp->cq);
		pp->cq = NULL;
		goto err;
	}
	pp->wq = alloc_ordered_workqueue("ib_mad%u", WQ_MEM_RECLAIM,
					 port_num);
	if (!pp->wq) {
		ret = -ENOMEM;
		goto err;
	}
	for (n = smi ? 0 : 1; n < IB_MAD_QP_COUNT; n++) {
		ret = mad_create_qp(pp, n);
		if (ret)
			goto err;
		ret = mad_start_qp(pp, n);
		if (ret)
			goto err;
		ret = ib_mad_open_receives(&pp->qp_info[n]);
		if (ret)
			goto err_quiesce;
	}
	*out = pp;
	return 0;

err_quiesce:
	mad_port_quiesce(pp);
err:
	mad_port_free(pp);
	return ret;
}

static void mad_port_close(struct ib_mad_port_private *pp)
{
	int n;

	mad_port_quiesce(pp);
	for (n = 0; n < IB_MAD_QP_COUNT; n++)
		if (pp->responder[n])
			ib_unregister_mad_agent(pp->responder[n]);
	mad_port_free(pp);
}

static int mad_open_responders(struct ib_mad_port_private *pp)
{
	int n;

	for (n = 0; n < IB_MAD_QP_COUNT; n++) {
		struct ib_mad_agent *a;

		if (!pp->qp_info[n].qp)
			continue;
		a = ib_register_mad_agent(pp->device, pp->port_num,
					  n ? IB_QPT_GSI : IB_QPT_SMI, NULL, 0,
					  mad_responder_send_handler, NULL,
					  NULL, 0);
		if (IS_ERR(a))
			return PTR_ERR(a);
		pp->responder[n] = a;
	}
	return 0;
}

static int ib_mad_add_device(struct ib_device *device)
{
	struct ib_mad_port_private *pp;
	struct ib_mad_device *md;
	u32 start = rdma_start_port(device), p;
	int ret, opened = 0;

	md = kzalloc(struct_size(md, port, rdma_end_port(device) - start + 1),
		     GFP_KERNEL);
	if (!md)
		return -ENOMEM;
	md->nports = rdma_end_port(device) - start + 1;

	rdma_for_each_port(device, p) {
		if (!rdma_cap_ib_mad(device, p))
			continue;
		ret = mad_port_open(device, p, &pp);
		if (ret) {
			if (ret != -EOPNOTSUPP)
				ibdev_err(device, "MAD: port %u could not open: %d\n",
					  p, ret);
			goto err;
		}
		md->port[p - start] = pp;
		opened++;
	}
	if (!opened) {
		kfree(md);
		return -EOPNOTSUPP;
	}

	/* the responders register like any agent: publish the ports first */
	ib_set_client_data(device, &mad_client, md);
	for (p = 0; p < md->nports; p++) {
		if (!md->port[p])
			continue;
		ret = mad_open_responders(md->port[p]);
		if (ret) {
			ibdev_err(device, "MAD: port %u: no responder: %d\n",
				  p + start, ret);
			goto err;
		}
	}
	return 0;

err:
	ib_set_client_data(device, &mad_client, NULL);
	for (p = 0; p < md->nports; p++)
		if (md->port[p])
			mad_port_close(md->port[p]);
	kfree(md);
	return ret;
}

static void ib_mad_remove_device(struct ib_device *device, void *data)
{
	struct ib_mad_device *md = data;
	u32 p;

	if (!md)
		return;
	ib_set_client_data(device, &mad_client, NULL);
	for (p = 0; p < md->nports; p++)
		if (md->port[p])
			mad_port_close(md->port[p]);
	kfree(md);
}

/**
 * ib_mad_init - register the MAD layer's client
 *
 * Context: Process context (ib_core's init).
 * Return: 0 or the error of ib_register_client().
 */
int ib_mad_init(void)
{
	/* at least one, and not more than a QP allows */
	ib_mad_sendq_size = clamp(ib_mad_sendq_size, 1, 8192);
	ib_mad_recvq_size = clamp(ib_mad_recvq_size, 1, 8192);
	return ib_register_client(&mad_client);
}

/**
 * ib_mad_cleanup - unregister the MAD layer's client
 *
 * Context: Process context (ib_core's exit).
 */
void ib_mad_cleanup(void)
{
	ib_unregister_client(&mad_client);
}
