// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Module iw_cm: for now the iWARP port-mapper client and the netlink
 * handlers of client RDMA_NL_IWCM (the iWARP connection manager itself
 * joins this module later).
 */
#include <linux/module.h>
#include <rdma/iw_portmap.h>
#include <rdma/rdma_netlink.h>

#include "iwpm_util.h"

MODULE_AUTHOR("The rdma-next authors");
MODULE_DESCRIPTION("iWARP CM: port-mapper client");
MODULE_LICENSE("Dual BSD/GPL");

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
	iwpm_debugfs_init();
	rdma_nl_register(RDMA_NL_IWCM, iwcm_nl_cb_table);
	return 0;
}

static void __exit iw_cm_cleanup(void)
{
	rdma_nl_unregister(RDMA_NL_IWCM);
	iwpm_debugfs_exit();
	iwpm_exit(RDMA_NL_IWCM);
}

module_init(iw_cm_init);
module_exit(iw_cm_cleanup);
MODULE_ALIAS_RDMA_NETLINK(RDMA_NL_IWCM, 2);
