// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Module iw_cm: the iWARP connection manager and its port-mapper client.
 *
 *   iwcm_id.c     ids: create, destroy, references, event items
 *   iwcm_event.c  the driver's events: queued per id, delivered in order
 *   iwcm_conn.c   listen, connect, accept, reject, disconnect
 *   iwcm_qp.c     the QP of a connection; iw_cm_init_qp_attr()
 *   iwcm_map.c    port mapping through the port-mapper client
 *   iwpm_*.c      the port-mapper client (Documentation/core/iwpm.rst)
 *
 * Lock order (outermost first):
 *   the consumer's own locks -> iwpm requests (sleeping waits, no lock
 *   held) -> iwcm_id_private.lock -> the driver's iw_add_ref
 * iw_cm holds no lock while it calls the driver's iw_connect, iw_accept,
 * iw_reject, iw_create_listen, iw_destroy_listen, iw_get_qp or
 * iw_rem_ref, nor while it calls the consumer's handler, nor while it
 * waits for the port mapper.
 *
 * Lifetime (iwcm_id_private.refcount):
 *  - the consumer's reference lives from iw_create_cm_id() to
 *    iw_destroy_cm_id(), or until its handler returns non-zero;
 *  - the driver takes one with add_ref for as long as it may still call
 *    event_handler, and gives it back with rem_ref (from any context);
 *  - the delivery work holds one while it is queued or running.
 * iw_destroy_cm_id() stops event delivery (later events are dropped),
 * waits for a running handler of the id and for a listen, connect,
 * accept or reject call inside the driver, tears the connection down
 * and drops the consumer's reference; the memory goes with the last
 * reference, possibly the driver's rem_ref much later.  Once it
 * returns, the consumer's handler is never called for the id again.
 *
 * Device removal: iw_cm takes no reference on the device and is no
 * ib_client, as upstream: its consumer (rdma_cm) destroys its ids when
 * its own client is removed, before the driver goes away.
 */
#include <linux/module.h>
#include <linux/sysctl.h>
#include <net/net_namespace.h>
#include <rdma/iw_portmap.h>
#include <rdma/rdma_netlink.h>

#include "iwcm.h"
#include "iwpm_util.h"

#define CREATE_TRACE_POINTS
#include "iwcm_trace.h"

MODULE_AUTHOR("The rdma-next authors");
MODULE_DESCRIPTION("iWARP connection manager and port-mapper client");
MODULE_LICENSE("Dual BSD/GPL");

/* Delivers every id's events; each id's in order (one work per id). */
struct workqueue_struct *iwcm_wq;
EXPORT_SYMBOL_IF_KUNIT(iwcm_wq);

/* Backlog of a listen that asks for 0; sysctl net.iw_cm.default_backlog. */
unsigned int iwcm_default_backlog = 256;
EXPORT_SYMBOL_IF_KUNIT(iwcm_default_backlog);

static unsigned int iwcm_backlog_min = 1;
static unsigned int iwcm_backlog_max = 65536;

static struct ctl_table iwcm_ctl_table[] = {
	{
		.procname	= "default_backlog",
		.data		= &iwcm_default_backlog,
		.maxlen		= sizeof(iwcm_default_backlog),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= &iwcm_backlog_min,
		.extra2		= &iwcm_backlog_max,
	},
};

static struct ctl_table_header *iwcm_ctl_hdr;

/**
 * iwcm_reject_msg - text for the status of a failed iWARP connection
 * @reason: the negative errno of a CONNECT_REPLY or CLOSE event
 *
 * Context: any.
 * Return: a constant string; "unrecognized reason" for values iWARP
 * does not use.
 */
const char *__attribute_const__ iwcm_reject_msg(int reason)
{
	switch (reason) {
	case -ECONNRESET:
		return "reset by remote host";
	case -ECONNREFUSED:
		return "refused by remote application";
	case -ETIMEDOUT:
		return "setup timeout";
	default:
		return "unrecognized reason";
	}
}
EXPORT_SYMBOL(iwcm_reject_msg);

/**
 * iwcm_state_name - name of an id state, for logs
 * @state: the state
 *
 * Return: upstream's name without the prefix, or "?".
 */
const char *iwcm_state_name(enum iw_cm_state state)
{
	static const char * const names[] = {
		[IW_CM_STATE_IDLE] = "IDLE",
		[IW_CM_STATE_LISTEN] = "LISTEN",
		[IW_CM_STATE_CONN_RECV] = "CONN_RECV",
		[IW_CM_STATE_CONN_SENT] = "CONN_SENT",
		[IW_CM_STATE_ESTABLISHED] = "ESTABLISHED",
		[IW_CM_STATE_CLOSING] = "CLOSING",
		[IW_CM_STATE_DESTROYING] = "DESTROYING",
	};

	return (unsigned int)state < ARRAY_SIZE(names) ? names[state] : "?";
}

/*
 * Everything iwpmd sends.  The netlink core runs IWCM messages through
 * its dump machinery (as upstream), so iwpmd gets an NLMSG_DONE for each;
 * all of them change kernel state, so all need CAP_NET_ADMIN.
 */
static const struct rdma_nl_cbs iwcm_nl_cb_table[RDMA_NL_IWPM_NUM_OPS] = {
	[RDMA_NL_IWPM_REG_PID] = {
		.dump = iwpm_register_pid_cb,
		.flags = RDMA_NL_ADMIN_PERM,
	},
	[RDMA_NL_IWPM_ADD_MAPPING] = {
		.dump = iwpm_add_mapping_cb,
		.flags = RDMA_NL_ADMIN_PERM,
	},
	[RDMA_NL_IWPM_QUERY_MAPPING] = {
		.dump = iwpm_add_and_query_mapping_cb,
		.flags = RDMA_NL_ADMIN_PERM,
	},
	[RDMA_NL_IWPM_REMOTE_INFO] = {
		.dump = iwpm_remote_info_cb,
		.flags = RDMA_NL_ADMIN_PERM,
	},
	[RDMA_NL_IWPM_HANDLE_ERR] = {
		.dump = iwpm_mapping_error_cb,
		.flags = RDMA_NL_ADMIN_PERM,
	},
	[RDMA_NL_IWPM_MAPINFO] = {
		.dump = iwpm_mapping_info_cb,
		.flags = RDMA_NL_ADMIN_PERM,
	},
	[RDMA_NL_IWPM_MAPINFO_NUM] = {
		.dump = iwpm_ack_mapping_info_cb,
		.flags = RDMA_NL_ADMIN_PERM,
	},
	[RDMA_NL_IWPM_HELLO] = {
		.dump = iwpm_hello_cb,
		.flags = RDMA_NL_ADMIN_PERM,
	},
};

static int __init iw_cm_init(void)
{
	int ret;

	ret = iwpm_init(RDMA_NL_IWCM);
	if (ret)
		return ret;
	/*
	 * Not ordered: each id has one work item, which the workqueue never
	 * runs twice at once, so one id's events stay in order while ids
	 * are served in parallel.  WQ_MEM_RECLAIM: a CLOSE must get through
	 * under memory pressure, it may free a QP.
	 */
	iwcm_wq = alloc_workqueue("iw_cm_wq", WQ_MEM_RECLAIM, 0);
	if (!iwcm_wq) {
		ret = -ENOMEM;
		goto err_wq;
	}
	iwcm_ctl_hdr = register_net_sysctl(&init_net, "net/iw_cm",
					   iwcm_ctl_table);
	if (!iwcm_ctl_hdr) {
		ret = -ENOMEM;
		goto err_sysctl;
	}
	iwpm_debugfs_init();
	rdma_nl_register(RDMA_NL_IWCM, iwcm_nl_cb_table);
	return 0;

err_sysctl:
	destroy_workqueue(iwcm_wq);
err_wq:
	iwpm_exit(RDMA_NL_IWCM);
	return ret;
}

static void __exit iw_cm_cleanup(void)
{
	rdma_nl_unregister(RDMA_NL_IWCM);
	iwpm_debugfs_exit();
	unregister_net_sysctl_table(iwcm_ctl_hdr);
	/* Every id is gone: its consumer module holds ours until then. */
	destroy_workqueue(iwcm_wq);
	iwpm_exit(RDMA_NL_IWCM);
}

module_init(iw_cm_init);
module_exit(iw_cm_cleanup);
MODULE_ALIAS_RDMA_NETLINK(RDMA_NL_IWCM, 2);
