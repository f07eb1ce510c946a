// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The InfiniBand connection manager (IBTA vol. 1 chapter 12), module
 * ib_cm: its client of the IB devices, its MAD agent on each port's QP1
 * (class 0x07, version 2, method Send), the dispatch of what arrives to
 * the state machine (cm_req.c, cm_conn.c, cm_sidr.c) on the CM's
 * workqueue, and the reject reasons' names.  CM IDs and their lifetime
 * are in cm_id.c, sending in cm_mad.c, the QP attributes in cm_qp_attr.c
 * and the counters in sysfs in cm_sysfs.c.
 *
 * The lock order of the module is stated once, in cm_priv.h.
 */

#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <rdma/ib_cm.h>

#include <kunit/visibility.h>

#include "cm_priv.h"

#define CREATE_TRACE_POINTS
#include "cm_trace.h"

MODULE_AUTHOR("The rdma-next authors");
MODULE_DESCRIPTION("InfiniBand connection manager");
MODULE_LICENSE("Dual BSD/GPL");

struct cm_globals ibcm;

static int cm_add_one(struct ib_device *device);
static void cm_remove_one(struct ib_device *device, void *client_data);

struct ib_client cm_client = {
	.name	= "cm",
	.add	= cm_add_one,
	.remove	= cm_remove_one,
};

static const char * const cm_rej_reasons[] = {
	[IB_CM_REJ_NO_QP]			= "no QP",
	[IB_CM_REJ_NO_EEC]			= "no EEC",
	[IB_CM_REJ_NO_RESOURCES]		= "no resources",
	[IB_CM_REJ_TIMEOUT]			= "timeout",
	[IB_CM_REJ_UNSUPPORTED]			= "unsupported",
	[IB_CM_REJ_INVALID_COMM_ID]		= "invalid comm ID",
	[IB_CM_REJ_INVALID_COMM_INSTANCE]	= "invalid comm instance",
	[IB_CM_REJ_INVALID_SERVICE_ID]		= "invalid service ID",
	[IB_CM_REJ_INVALID_TRANSPORT_TYPE]	= "invalid transport type",
	[IB_CM_REJ_STALE_CONN]			= "stale conn",
	[IB_CM_REJ_RDC_NOT_EXIST]		= "RDC not exist",
	[IB_CM_REJ_INVALID_GID]			= "invalid GID",
	[IB_CM_REJ_INVALID_LID]			= "invalid LID",
	[IB_CM_REJ_INVALID_SL]			= "invalid SL",
	[IB_CM_REJ_INVALID_TRAFFIC_CLASS]	= "invalid traffic class",
	[IB_CM_REJ_INVALID_HOP_LIMIT]		= "invalid hop limit",
	[IB_CM_REJ_INVALID_PACKET_RATE]		= "invalid packet rate",
	[IB_CM_REJ_INVALID_ALT_GID]		= "invalid alt GID",
	[IB_CM_REJ_INVALID_ALT_LID]		= "invalid alt LID",
	[IB_CM_REJ_INVALID_ALT_SL]		= "invalid alt SL",
	[IB_CM_REJ_INVALID_ALT_TRAFFIC_CLASS]	= "invalid alt traffic class",
	[IB_CM_REJ_INVALID_ALT_HOP_LIMIT]	= "invalid alt hop limit",
	[IB_CM_REJ_INVALID_ALT_PACKET_RATE]	= "invalid alt packet rate",
	[IB_CM_REJ_PORT_CM_REDIRECT]		= "port CM redirect",
	[IB_CM_REJ_PORT_REDIRECT]		= "port redirect",
	[IB_CM_REJ_INVALID_MTU]			= "invalid MTU",
	[IB_CM_REJ_INSUFFICIENT_RESP_RESOURCES]	= "insufficient resp resources",
	[IB_CM_REJ_CONSUMER_DEFINED]		= "consumer defined",
	[IB_CM_REJ_INVALID_RNR_RETRY]		= "invalid RNR retry",
	[IB_CM_REJ_DUPLICATE_LOCAL_COMM_ID]	= "duplicate local comm ID",
	[IB_CM_REJ_INVALID_CLASS_VERSION]	= "invalid class version",
	[IB_CM_REJ_INVALID_FLOW_LABEL]		= "invalid flow label",
	[IB_CM_REJ_INVALID_ALT_FLOW_LABEL]	= "invalid alt flow label",
	[IB_CM_REJ_VENDOR_OPTION_NOT_SUPPORTED]	= "vendor option is not supported",
};

/**
 * ibcm_reject_msg - the name of a REJ's reason
 * @reason: an enum ib_cm_rej_reason value (as a REJ event carries it)
 *
 * Context: Any context.
 *
 * Return: a constant string naming @reason, or "unrecognized reason".
 */
const char *__attribute_const__ ibcm_reject_msg(int reason)
{
	if (reason >= 0 && reason < ARRAY_SIZE(cm_rej_reasons) &&
	    cm_rej_reasons[reason])
		return cm_rej_reasons[reason];
	return "unrecognized reason";
}
EXPORT_SYMBOL(ibcm_reject_msg);

/* The work of a received message or of a timewait exit */
void cm_work_handler(struct work_struct *_work)
{
	struct cm_work *work = container_of(_work, struct cm_work, work.work);
	int ret;

	switch (work->cm_event.event) {
	case IB_CM_REQ_RECEIVED:
		ret = cm_req_handler(work);
		break;
	case IB_CM_MRA_RECEIVED:
		ret = cm_mra_handler(work);
		break;
	case IB_CM_REJ_RECEIVED:
		ret = cm_rej_handler(work);
		break;
	case IB_CM_REP_RECEIVED:
		ret = cm_rep_handler(work);
		break;
	case IB_CM_RTU_RECEIVED:
		ret = cm_rtu_handler(work);
		break;
	case IB_CM_USER_ESTABLISHED:
		ret = cm_establish_handler(work);
		break;
	case IB_CM_DREQ_RECEIVED:
		ret = cm_dreq_handler(work);
		break;
	case IB_CM_DREP_RECEIVED:
		ret = cm_drep_handler(work);
		break;
	case IB_CM_SIDR_REQ_RECEIVED:
		ret = cm_sidr_req_handler(work);
		break;
	case IB_CM_SIDR_REP_RECEIVED:
		ret = cm_sidr_rep_handler(work);
		break;
	case IB_CM_LAP_RECEIVED:
		ret = cm_lap_handler(work);
		break;
	case IB_CM_APR_RECEIVED:
		ret = cm_apr_handler(work);
		break;
	case IB_CM_TIMEWAIT_EXIT:
		ret = cm_timewait_handler(work);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	if (ret)
		cm_free_work(work);
}

/* The event a received message becomes, and how many paths it carries */
static int cm_recv_event(const struct cm_msg *msg,
			 enum ib_cm_event_type *event)
{
	switch (msg->hdr.attr_id) {
	case CM_REQ_ATTR_ID:
		*event = IB_CM_REQ_RECEIVED;
		return 1 + cm_req_has_alt_path(msg);
	case CM_MRA_ATTR_ID:
		*event = IB_CM_MRA_RECEIVED;
		return 0;
	case CM_REJ_ATTR_ID:
		*event = IB_CM_REJ_RECEIVED;
		return 0;
	case CM_REP_ATTR_ID:
		*event = IB_CM_REP_RECEIVED;
		return 0;
	case CM_RTU_ATTR_ID:
		*event = IB_CM_RTU_RECEIVED;
		return 0;
	case CM_DREQ_ATTR_ID:
		*event = IB_CM_DREQ_RECEIVED;
		return 0;
	case CM_DREP_ATTR_ID:
		*event = IB_CM_DREP_RECEIVED;
		return 0;
	case CM_SIDR_REQ_ATTR_ID:
		*event = IB_CM_SIDR_REQ_RECEIVED;
		return 0;
	case CM_SIDR_REP_ATTR_ID:
		*event = IB_CM_SIDR_REP_RECEIVED;
		return 0;
	case CM_LAP_ATTR_ID:
		*event = IB_CM_LAP_RECEIVED;
		return 1;
	case CM_APR_ATTR_ID:
		*event = IB_CM_APR_RECEIVED;
		return 0;
	default:
		return -EINVAL;
	}
}

/*
 * A CM MAD arrived on a port's QP1 (the MAD layer's receive handler,
 * process context): count it and queue its work, unless the device is
 * going away.
 */
static void cm_recv_handler(struct ib_mad_agent *agent,
			    struct ib_mad_send_buf *send_buf,
			    struct ib_mad_recv_wc *rwc)
{
	struct cm_msg *msg = (struct cm_msg *)rwc->recv_buf.mad;
	struct cm_port *port = agent->context;
	enum ib_cm_event_type event;
	atomic_long_t *counter;
	struct cm_work *work;
	bool queued = false;
	int paths;

	paths = cm_recv_event(msg, &event);
	if (paths < 0) {
		ib_free_recv_mad(rwc);
		return;
	}
	trace_ibcm_recv(agent->device, port->port_num, &msg->hdr);
	counter = &port->counters[CM_RECV]
			[be16_to_cpu(msg->hdr.attr_id) - CM_ATTR_ID_OFFSET];

	work = kmalloc(struct_size(work, path, paths), GFP_KERNEL);
	if (!work) {
		atomic_long_inc(counter);
		ib_free_recv_mad(rwc);
		return;
	}
	INIT_DELAYED_WORK(&work->work, cm_work_handler);
	work->cm_event.event = event;
	work->mad_recv_wc = rwc;
	work->port = port;

	spin_lock_irq(&ibcm.lock);
	if (!port->cm_dev->going_down) {
		queue_delayed_work(ibcm.wq, &work->work, 0);
		queued = true;
	}
	spin_unlock_irq(&ibcm.lock);
	/*
	 * Counted once queued: whoever sees the count and then flushes the
	 * workqueue (ib_cm_flush_work()) knows the message was handled.
	 */
	atomic_long_inc(counter);
	if (!queued) {
		kfree(work);
		ib_free_recv_mad(rwc);
	}
}

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * ib_cm_flush_work - wait until the messages received so far are handled
 *
 * A test hook: every CM message counted in cm_rx_msgs before the call
 * has been through the state machine (and its events through their
 * handlers) when it returns.  Timewaits still running are not waited
 * for.
 *
 * Context: Process context; sleeps.  Not from a CM handler.
 * Return: nothing.
 */
void ib_cm_flush_work(void)
{
	flush_workqueue(ibcm.wq);
}
EXPORT_SYMBOL_IF_KUNIT(ib_cm_flush_work);
#endif

static void cm_dev_release(struct kref *kref)
{
	struct cm_device *cm_dev = container_of(kref, struct cm_device, kref);
	u32 i;

	rdma_for_each_port(cm_dev->ib_device, i)
		kfree(cm_dev->port[i - 1]);
	kfree(cm_dev);
}

/* Drop a reference to @cm_dev (the client's, or a cm_av's) */
void cm_device_put(struct cm_device *cm_dev)
{
	kref_put(&cm_dev->kref, cm_dev_release);
}

/* Undo cm_add_one()'s work on the ports before @last (and @last's agent) */
static void cm_unwind_ports(struct cm_device *cm_dev, u32 last)
{
	struct ib_port_modify clear = { .clr_port_cap_mask = IB_PORT_CM_SUP };
	struct ib_device *device = cm_dev->ib_device;
	struct cm_port *port;
	u32 i;

	rdma_for_each_port(device, i) {
		if (i > last)
			break;
		port = cm_dev->port[i - 1];
		if (!port || !port->mad_agent)
			continue;
		ib_modify_port(device, i, 0, &clear);
		ib_unregister_mad_agent(port->mad_agent);
		port->mad_agent = NULL;
		ib_port_unregister_client_groups(device, i, cm_counter_groups);
	}
}

/*
 * A new device: an agent on QP1 of each port that has an IB CM, the
 * counters in sysfs and the port's CM capability bit (IsCMSupported).
 */
static int cm_add_one(struct ib_device *device)
{
	struct ib_mad_reg_req reg = {
		.mgmt_class = IB_MGMT_CLASS_CM,
		.mgmt_class_version = IB_CM_CLASS_VERSION,
	};
	struct ib_port_modify set = { .set_port_cap_mask = IB_PORT_CM_SUP };
	struct cm_device *cm_dev;
	struct cm_port *port;
	int ret, count = 0;
	u32 i;

	cm_dev = kzalloc(struct_size(cm_dev, port, device->phys_port_cnt),
			 GFP_KERNEL);
	if (!cm_dev)
		return -ENOMEM;
	kref_init(&cm_dev->kref);
	rwlock_init(&cm_dev->mad_agent_lock);
	cm_dev->ib_device = device;
	cm_dev->ack_delay = device->attrs.local_ca_ack_delay;
	set_bit(IB_MGMT_METHOD_SEND, reg.method_mask);
	ib_set_client_data(device, &cm_client, cm_dev);

	rdma_for_each_port(device, i) {
		if (!rdma_cap_ib_cm(device, i))
			continue;
		port = kzalloc(sizeof(*port), GFP_KERNEL);
		ret = -ENOMEM;
		if (!port)
			goto unwind;
		cm_dev->port[i - 1] = port;
		port->cm_dev = cm_dev;
		port->port_num = i;

		ret = ib_port_register_client_groups(device, i,
						     cm_counter_groups);
		if (ret)
			goto unwind;
		port->mad_agent = ib_register_mad_agent(device, i, IB_QPT_GSI,
							&reg, 0,
							cm_send_handler,
							cm_recv_handler, port,
							0);
		if (IS_ERR(port->mad_agent)) {
			ret = PTR_ERR(port->mad_agent);
			port->mad_agent = NULL;
			ib_port_unregister_client_groups(device, i,
							 cm_counter_groups);
			goto unwind;
		}
		ret = ib_modify_port(device, i, 0, &set);
		if (ret) {
			i++;
			goto unwind;
		}
		count++;
	}
	if (!count) {
		ret = -EOPNOTSUPP;
		goto put;
	}

	write_lock_irq(&ibcm.device_lock);
	list_add_tail(&cm_dev->list, &ibcm.device_list);
	write_unlock_irq(&ibcm.device_lock);
	return 0;

unwind:
	cm_unwind_ports(cm_dev, i - 1);
put:
	cm_device_put(cm_dev);
	return ret;
}

/*
 * A device goes: no new work is queued for it, what is queued runs out,
 * then its agents go (a CM ID that still names one of its ports can no
 * longer send).  CM IDs of the device are their consumers' to destroy.
 */
static void cm_remove_one(struct ib_device *device, void *client_data)
{
	struct cm_device *cm_dev = client_data;
	struct ib_port_modify clear = { .clr_port_cap_mask = IB_PORT_CM_SUP };
	struct ib_mad_agent *agent;
	struct cm_port *port;
	u32 i;

	write_lock_irq(&ibcm.device_lock);
	list_del(&cm_dev->list);
	write_unlock_irq(&ibcm.device_lock);

	spin_lock_irq(&ibcm.lock);
	cm_dev->going_down = true;
	spin_unlock_irq(&ibcm.lock);

	rdma_for_each_port(device, i) {
		port = cm_dev->port[i - 1];
		if (!port)
			continue;
		ib_modify_port(device, i, 0, &clear);
		/* nothing new is queued: what runs now finishes here */
		flush_workqueue(ibcm.wq);
		write_lock_irq(&cm_dev->mad_agent_lock);
		agent = port->mad_agent;
		port->mad_agent = NULL;
		write_unlock_irq(&cm_dev->mad_agent_lock);
		ib_unregister_mad_agent(agent);
		ib_port_unregister_client_groups(device, i, cm_counter_groups);
	}
	cm_device_put(cm_dev);
}

static int __init ib_cm_init(void)
{
	int ret;

	spin_lock_init(&ibcm.lock);
	rwlock_init(&ibcm.device_lock);
	INIT_LIST_HEAD(&ibcm.device_list);
	hash_init(ibcm.listen_table);
	hash_init(ibcm.remote_id_table);
	hash_init(ibcm.remote_qpn_table);
	hash_init(ibcm.remote_sidr_table);
	ibcm.listen_service_id = be64_to_cpu(IB_CM_ASSIGN_SERVICE_ID);
	xa_init_flags(&ibcm.local_id_table, XA_FLAGS_ALLOC);
	get_random_bytes(&ibcm.random_id_operand,
			 sizeof(ibcm.random_id_operand));
	INIT_LIST_HEAD(&ibcm.timewait_list);

	ibcm.wq = alloc_workqueue("ib_cm", 0, 1);
	if (!ibcm.wq)
		return -ENOMEM;
	ret = ib_register_client(&cm_client);
	if (ret) {
		destroy_workqueue(ibcm.wq);
		return ret;
	}
	return 0;
}

static void __exit ib_cm_cleanup(void)
{
	struct cm_timewait_info *tw, *tmp;

	/* timewaits not over yet end now, unseen */
	spin_lock_irq(&ibcm.lock);
	list_for_each_entry(tw, &ibcm.timewait_list, list)
		cancel_delayed_work(&tw->work.work);
	spin_unlock_irq(&ibcm.lock);

	ib_unregister_client(&cm_client);
	destroy_workqueue(ibcm.wq);

	list_for_each_entry_safe(tw, tmp, &ibcm.timewait_list, list) {
		list_del(&tw->list);
		kfree(tw);
	}
	WARN_ON(!xa_empty(&ibcm.local_id_table));
}

module_init(ib_cm_init);
module_exit(ib_cm_cleanup);
