// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_fake_hca: the iWARP flavour (fake_hca_desc.iwarp).  The device is
 * an RNIC whose ports are iWARP ports, with the iw_* driver operations
 * the iWARP connection manager calls.  There is no wire: the fake
 * records each call (what arrived: the id, the wire addresses, private
 * data, ord/ird, QP number, backlog), can make the next call of an op
 * fail, and holds the id references a real driver would (add_ref on a
 * successful listen, connect or accept; rem_ref on destroy_listen, or
 * when the test says the connection is gone).  Its QPs are bare
 * struct ib_qp the test adds by number: get_qp finds them, add_ref and
 * rem_ref count on them, modify_qp records the state asked for.  The
 * test plays the wire by calling the id's event_handler
 * (fake_hca_iw_event()).
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <rdma/iw_cm.h>

#include "fake_hca_priv.h"

#define FAKE_HCA_IW_MAX_IDS	64

struct fake_hca_iw_qp {
	struct ib_qp		ibqp;
	bool			used;
	int			refs;
	unsigned int		moves;
	enum ib_qp_state	state;
};

/* The iWARP state of a fake device; under fake_hca.lock. */
struct fake_hca_iw {
	struct fake_hca_iw_qp	qps[FAKE_HCA_IW_MAX_QPS];
	unsigned int		calls[FAKE_HCA_IW_OP_COUNT];
	int			fail[FAKE_HCA_IW_OP_COUNT];
	struct fake_hca_iw_call	last[FAKE_HCA_IW_OP_COUNT];
	/* ids the fake holds a reference on, one entry per reference */
	struct iw_cm_id		*held[FAKE_HCA_IW_MAX_IDS];
	unsigned int		nr_held;
	unsigned int		held_max;
};

static struct fake_hca_iw *fake_iw(struct fake_hca *hca)
{
	return hca->iw;
}

/* Count a call and record it; returns the error to fail it with. */
static int fake_hca_iw_enter(struct fake_hca *hca, enum fake_hca_iw_op op,
			     struct iw_cm_id *cm_id,
			     const struct iw_cm_conn_param *param,
			     const void *pdata, u16 pdata_len, int backlog)
{
	struct fake_hca_iw *iw = fake_iw(hca);
	struct fake_hca_iw_call *c = &iw->last[op];
	unsigned long flags;
	int err;

	spin_lock_irqsave(&hca->lock, flags);
	iw->calls[op]++;
	err = iw->fail[op];
	iw->fail[op] = 0;
	memset(c, 0, sizeof(*c));
	c->cm_id = cm_id;
	c->backlog = backlog;
	c->err = err;
	if (cm_id) {
		c->local = cm_id->m_local_addr;
		c->remote = cm_id->m_remote_addr;
		c->provider_data = cm_id->provider_data;
	}
	if (param) {
		c->qpn = param->qpn;
		c->ord = param->ord;
		c->ird = param->ird;
		pdata = param->private_data;
		pdata_len = param->private_data_len;
	}
	c->pdata_len = min_t(u16, pdata_len, FAKE_HCA_IW_PDATA_MAX);
	if (pdata && c->pdata_len)
		memcpy(c->pdata, pdata, c->pdata_len);
	spin_unlock_irqrestore(&hca->lock, flags);
	return err;
}

/* Take a reference on @cm_id as a driver keeping it. */
static void fake_hca_iw_hold(struct fake_hca *hca, struct iw_cm_id *cm_id)
{
	struct fake_hca_iw *iw = fake_iw(hca);
	unsigned long flags;
	bool ok;

	spin_lock_irqsave(&hca->lock, flags);
	ok = iw->nr_held < FAKE_HCA_IW_MAX_IDS;
	if (ok) {
		iw->held[iw->nr_held++] = cm_id;
		iw->held_max = max(iw->held_max, iw->nr_held);
	}
	spin_unlock_irqrestore(&hca->lock, flags);
	if (!WARN_ON(!ok))
		cm_id->add_ref(cm_id);
}

/**
 * fake_hca_iw_put_id - the fake drops a reference it holds on an id
 * @hca: the device
 * @cm_id: the id
 *
 * As a driver does once it reports nothing more on a connection.
 *
 * Context: Any context; takes the device's spinlock (IRQ-safe) and calls
 * the id's rem_ref after dropping it (iw_cm's frees the id on the last
 * reference without sleeping).
 *
 * Return: true when the fake held one.
 */
bool fake_hca_iw_put_id(struct fake_hca *hca, struct iw_cm_id *cm_id)
{
	struct fake_hca_iw *iw = fake_iw(hca);
	unsigned long flags;
	bool found = false;
	unsigned int i;

	spin_lock_irqsave(&hca->lock, flags);
	for (i = 0; i < iw->nr_held; i++) {
		if (iw->held[i] == cm_id) {
			iw->held[i] = iw->held[--iw->nr_held];
			found = true;
			break;
		}
	}
	spin_unlock_irqrestore(&hca->lock, flags);
	if (found)
		cm_id->rem_ref(cm_id);
	return found;
}
EXPORT_SYMBOL_GPL(fake_hca_iw_put_id);

/**
 * fake_hca_iw_held - references the fake holds on an id
 * @hca: the device
 * @cm_id: the id, or NULL for all ids
 *
 * Context: Any context; takes the device's spinlock (IRQ-safe).
 *
 * Return: the count.
 */
unsigned int fake_hca_iw_held(struct fake_hca *hca, struct iw_cm_id *cm_id)
{
	struct fake_hca_iw *iw = fake_iw(hca);
	unsigned int i, n = 0;
	unsigned long flags;

	spin_lock_irqsave(&hca->lock, flags);
	for (i = 0; i < iw->nr_held; i++)
		if (!cm_id || iw->held[i] == cm_id)
			n++;
	spin_unlock_irqrestore(&hca->lock, flags);
	return n;
}
EXPORT_SYMBOL_GPL(fake_hca_iw_held);

static struct fake_hca_iw_qp *fake_hca_iw_find_qp(struct fake_hca_iw *iw,
						  u32 qpn)
{
	unsigned int i;

	for (i = 0; i < FAKE_HCA_IW_MAX_QPS; i++)
		if (iw->qps[i].used && iw->qps[i].ibqp.qp_num == qpn)
			return &iw->qps[i];
	return NULL;
}

static struct fake_hca_iw_qp *to_fake_iw_qp(struct ib_qp *qp)
{
	return container_of(qp, struct fake_hca_iw_qp, ibqp);
}

static struct ib_qp *fake_hca_iw_get_qp(struct ib_device *ibdev, int qpn)
{
	struct fake_hca *hca = to_fake_hca(ibdev);
	struct fake_hca_iw_qp *qp;
	unsigned long flags;

	if (fake_hca_iw_enter(hca, FAKE_HCA_IW_GET_QP, NULL, NULL, NULL, 0, 0))
		return NULL;
	spin_lock_irqsave(&hca->lock, flags);
	qp = fake_hca_iw_find_qp(fake_iw(hca), qpn);
	fake_iw(hca)->last[FAKE_HCA_IW_GET_QP].qpn = qpn;
	spin_unlock_irqrestore(&hca->lock, flags);
	return qp ? &qp->ibqp : NULL;
}

static void fake_hca_iw_qp_add_ref(struct ib_qp *ibqp)
{
	struct fake_hca *hca = to_fake_hca(ibqp->device);
	unsigned long flags;

	spin_lock_irqsave(&hca->lock, flags);
	to_fake_iw_qp(ibqp)->refs++;
	spin_unlock_irqrestore(&hca->lock, flags);
}

static void fake_hca_iw_qp_rem_ref(struct ib_qp *ibqp)
{
	struct fake_hca *hca = to_fake_hca(ibqp->device);
	unsigned long flags;

	spin_lock_irqsave(&hca->lock, flags);
	WARN_ON(--to_fake_iw_qp(ibqp)->refs < 0);
	spin_unlock_irqrestore(&hca->lock, flags);
}

static int fake_hca_iw_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
				 int attr_mask, struct ib_udata *udata)
{
	struct fake_hca *hca = to_fake_hca(ibqp->device);
	struct fake_hca_iw_qp *qp = to_fake_iw_qp(ibqp);
	unsigned long flags;

	spin_lock_irqsave(&hca->lock, flags);
	if (attr_mask & IB_QP_STATE) {
		qp->state = attr->qp_state;
		qp->moves++;
	}
	spin_unlock_irqrestore(&hca->lock, flags);
	return 0;
}

static int fake_hca_iw_connect(struct iw_cm_id *cm_id,
			       struct iw_cm_conn_param *param)
{
	struct fake_hca *hca = to_fake_hca(cm_id->device);
	int ret;

	ret = fake_hca_iw_enter(hca, FAKE_HCA_IW_CONNECT, cm_id, param,
				NULL, 0, 0);
	if (!ret)
		fake_hca_iw_hold(hca, cm_id);
	return ret;
}

static int fake_hca_iw_accept(struct iw_cm_id *cm_id,
			      struct iw_cm_conn_param *param)
{
	struct fake_hca *hca = to_fake_hca(cm_id->device);
	int ret;

	ret = fake_hca_iw_enter(hca, FAKE_HCA_IW_ACCEPT, cm_id, param,
				NULL, 0, 0);
	if (!ret)
		fake_hca_iw_hold(hca, cm_id);
	return ret;
}

static int fake_hca_iw_reject(struct iw_cm_id *cm_id, const void *pdata,
			      u8 pdata_len)
{
	return fake_hca_iw_enter(to_fake_hca(cm_id->device),
				 FAKE_HCA_IW_REJECT, cm_id, NULL, pdata,
				 pdata_len, 0);
}

static int fake_hca_iw_create_listen(struct iw_cm_id *cm_id, int backlog)
{
	struct fake_hca *hca = to_fake_hca(cm_id->device);
	int ret;

	ret = fake_hca_iw_enter(hca, FAKE_HCA_IW_CREATE_LISTEN, cm_id, NULL,
				NULL, 0, backlog);
	if (!ret)
		fake_hca_iw_hold(hca, cm_id);
	return ret;
}

static int fake_hca_iw_destroy_listen(struct iw_cm_id *cm_id)
{
	struct fake_hca *hca = to_fake_hca(cm_id->device);
	int ret;

	ret = fake_hca_iw_enter(hca, FAKE_HCA_IW_DESTROY_LISTEN, cm_id, NULL,
				NULL, 0, 0);
	fake_hca_iw_put_id(hca, cm_id);
	return ret;
}

const struct ib_device_ops fake_hca_iw_ops = {
	.iw_add_ref = fake_hca_iw_qp_add_ref,
	.iw_rem_ref = fake_hca_iw_qp_rem_ref,
	.iw_get_qp = fake_hca_iw_get_qp,
	.iw_connect = fake_hca_iw_connect,
	.iw_accept = fake_hca_iw_accept,
	.iw_reject = fake_hca_iw_reject,
	.iw_create_listen = fake_hca_iw_create_listen,
	.iw_destroy_listen = fake_hca_iw_destroy_listen,
	.modify_qp = fake_hca_iw_modify_qp,
};

/**
 * fake_hca_desc_set_iwarp - make a description an iWARP RNIC
 * @desc: the description; its ports become Ethernet ports of the iWARP
 *	protocol, each with a net device the fake creates
 *
 * Context: Any context; touches only @desc.
 */
void fake_hca_desc_set_iwarp(struct fake_hca_desc *desc)
{
	u32 port;

	desc->iwarp = true;
	for (port = 1; port <= desc->num_ports; port++) {
		fake_hca_desc_set_eth(desc, port);
		desc->port[port - 1].port_cap_flags = 0;
	}
}
EXPORT_SYMBOL_GPL(fake_hca_desc_set_iwarp);

/* fake_hca_create() of an iWARP description. */
int fake_hca_iw_init(struct fake_hca *hca)
{
	struct net_device *ndev = hca->ports[0].netdev;

	hca->iw = kzalloc(sizeof(*hca->iw), GFP_KERNEL);
	if (!hca->iw)
		return -ENOMEM;
	hca->ibdev.node_type = RDMA_NODE_RNIC;
	hca->ibdev.iw_driver_flags = hca->desc.iw_driver_flags;
	if (ndev)
		strscpy(hca->ibdev.iw_ifname, ndev->name,
			sizeof(hca->ibdev.iw_ifname));
	return 0;
}

/* fake_hca_release(): drop the id references the test left behind. */
void fake_hca_iw_release(struct fake_hca *hca)
{
	struct fake_hca_iw *iw = hca->iw;

	if (!iw)
		return;
	while (iw->nr_held)
		fake_hca_iw_put_id(hca, iw->held[iw->nr_held - 1]);
	kfree(iw);
	hca->iw = NULL;
}

/**
 * fake_hca_iw_add_qp - a QP that get_qp finds by number
 * @hca: an iWARP fake device
 * @qpn: its number
 *
 * Context: Any context; takes the device's spinlock (IRQ-safe).
 *
 * Return: the QP (owned by the fake, freed with the device), or NULL
 * when the table is full or @qpn is taken.
 */
struct ib_qp *fake_hca_iw_add_qp(struct fake_hca *hca, u32 qpn)
{
	struct fake_hca_iw *iw = fake_iw(hca);
	struct fake_hca_iw_qp *qp = NULL;
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&hca->lock, flags);
	if (!fake_hca_iw_find_qp(iw, qpn)) {
		for (i = 0; i < FAKE_HCA_IW_MAX_QPS && !qp; i++)
			if (!iw->qps[i].used)
				qp = &iw->qps[i];
	}
	if (qp) {
		memset(qp, 0, sizeof(*qp));
		qp->used = true;
		qp->state = IB_QPS_RESET;
		qp->ibqp.device = &hca->ibdev;
		qp->ibqp.real_qp = &qp->ibqp;
		qp->ibqp.qp_num = qpn;
		qp->ibqp.qp_type = IB_QPT_RC;
	}
	spin_unlock_irqrestore(&hca->lock, flags);
	return qp ? &qp->ibqp : NULL;
}
EXPORT_SYMBOL_GPL(fake_hca_iw_add_qp);

/**
 * fake_hca_iw_qp_info - what happened to a QP of the fake
 * @hca: the device
 * @qpn: the QP's number
 * @refs: out: add_ref calls minus rem_ref calls
 * @moves: out: state changes asked through modify_qp (may be NULL)
 *
 * Context: Any context; takes the device's spinlock (IRQ-safe).
 *
 * Return: the last state asked, IB_QPS_RESET when none; -1 cast to the
 * enum when there is no such QP.
 */
enum ib_qp_state fake_hca_iw_qp_info(struct fake_hca *hca, u32 qpn,
				     int *refs, unsigned int *moves)
{
	struct fake_hca_iw_qp *qp;
	enum ib_qp_state state = (enum ib_qp_state)-1;
	unsigned long flags;

	spin_lock_irqsave(&hca->lock, flags);
	qp = fake_hca_iw_find_qp(fake_iw(hca), qpn);
	if (qp) {
		state = qp->state;
		if (refs)
			*refs = qp->refs;
		if (moves)
			*moves = qp->moves;
	}
	spin_unlock_irqrestore(&hca->lock, flags);
	return state;
}
EXPORT_SYMBOL_GPL(fake_hca_iw_qp_info);

/**
 * fake_hca_iw_fail - make the next call of an iw op fail
 * @hca: the device
 * @op: the op
 * @err: the error it returns (get_qp: any non-zero makes it return
 *	NULL); 0 takes a pending failure back
 *
 * Context: Any context; takes the device's spinlock (IRQ-safe).
 */
void fake_hca_iw_fail(struct fake_hca *hca, enum fake_hca_iw_op op, int err)
{
	unsigned long flags;

	spin_lock_irqsave(&hca->lock, flags);
	fake_iw(hca)->fail[op] = err;
	spin_unlock_irqrestore(&hca->lock, flags);
}
EXPORT_SYMBOL_GPL(fake_hca_iw_fail);

/**
 * fake_hca_iw_calls - how many times an iw op was called
 * @hca: the device
 * @op: the op
 *
 * Context: Any context; takes the device's spinlock (IRQ-safe).
 *
 * Return: the count, failed calls included.
 */
unsigned int fake_hca_iw_calls(struct fake_hca *hca, enum fake_hca_iw_op op)
{
	unsigned long flags;
	unsigned int n;

	spin_lock_irqsave(&hca->lock, flags);
	n = fake_iw(hca)->calls[op];
	spin_unlock_irqrestore(&hca->lock, flags);
	return n;
}
EXPORT_SYMBOL_GPL(fake_hca_iw_calls);

/**
 * fake_hca_iw_last - what the last call of an iw op got
 * @hca: the device
 * @op: the op
 * @out: the record
 *
 * Context: Any context; takes the device's spinlock (IRQ-safe).
 *
 * Return: true when the op was called at all.
 */
bool fake_hca_iw_last(struct fake_hca *hca, enum fake_hca_iw_op op,
		      struct fake_hca_iw_call *out)
{
	unsigned long flags;
	bool called;

	spin_lock_irqsave(&hca->lock, flags);
	called = fake_iw(hca)->calls[op];
	*out = fake_iw(hca)->last[op];
	spin_unlock_irqrestore(&hca->lock, flags);
	return called;
}
EXPORT_SYMBOL_GPL(fake_hca_iw_last);

/**
 * fake_hca_iw_event - report an event on an id, as the driver would
 * @cm_id: the id
 * @ev: the event; @ev->local_addr / @remote_addr unset (AF_UNSPEC) are
 *	filled with the id's wire addresses
 *
 * Context: any.
 * Return: what the id's event_handler returned.
 */
int fake_hca_iw_event(struct iw_cm_id *cm_id, struct iw_cm_event *ev)
{
	if (ev->local_addr.ss_family == AF_UNSPEC)
		ev->local_addr = cm_id->m_local_addr;
	if (ev->remote_addr.ss_family == AF_UNSPEC)
		ev->remote_addr = cm_id->m_remote_addr;
	return cm_id->event_handler(cm_id, ev);
}
EXPORT_SYMBOL_GPL(fake_hca_iw_event);
