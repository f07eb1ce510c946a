// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Attribute tables and operation descriptions of NETLINK_RDMA, written
 * from the payload types that <rdma/rdma_netlink.h> documents.  The
 * generator uses them to build attributes of the right kind (and, on
 * purpose, of the wrong one).
 */
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "nlfuzz.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const unsigned char nldev_ft[RDMA_NLDEV_ATTR_MAX] = {
	[RDMA_NLDEV_ATTR_DEV_INDEX] = FT_U32,
	[RDMA_NLDEV_ATTR_DEV_NAME] = FT_STR,
	[RDMA_NLDEV_ATTR_PORT_INDEX] = FT_U32,
	[RDMA_NLDEV_ATTR_CAP_FLAGS] = FT_U64,
	[RDMA_NLDEV_ATTR_FW_VERSION] = FT_STR,
	[RDMA_NLDEV_ATTR_NODE_GUID] = FT_U64,
	[RDMA_NLDEV_ATTR_SYS_IMAGE_GUID] = FT_U64,
	[RDMA_NLDEV_ATTR_SUBNET_PREFIX] = FT_U64,
	[RDMA_NLDEV_ATTR_LID] = FT_U32,
	[RDMA_NLDEV_ATTR_SM_LID] = FT_U32,
	[RDMA_NLDEV_ATTR_LMC] = FT_U8,
	[RDMA_NLDEV_ATTR_PORT_STATE] = FT_U8,
	[RDMA_NLDEV_ATTR_PORT_PHYS_STATE] = FT_U8,
	[RDMA_NLDEV_ATTR_DEV_NODE_TYPE] = FT_U8,
	[RDMA_NLDEV_ATTR_RES_SUMMARY] = FT_NEST,
	[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY] = FT_NEST,
	[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME] = FT_STR,
	[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR] = FT_U64,
	[RDMA_NLDEV_ATTR_RES_QP] = FT_NEST,
	[RDMA_NLDEV_ATTR_RES_QP_ENTRY] = FT_NEST,
	[RDMA_NLDEV_ATTR_RES_LQPN] = FT_U32,
	[RDMA_NLDEV_ATTR_RES_RQPN] = FT_U32,
	[RDMA_NLDEV_ATTR_RES_RQ_PSN] = FT_U32,
	[RDMA_NLDEV_ATTR_RES_SQ_PSN] = FT_U32,
	[RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE] = FT_U8,
	[RDMA_NLDEV_ATTR_RES_TYPE] = FT_U8,
	[RDMA_NLDEV_ATTR_RES_STATE] = FT_U8,
	[RDMA_NLDEV_ATTR_RES_PID] = FT_U32,
	[RDMA_NLDEV_ATTR_RES_KERN_NAME] = FT_STR,
	[RDMA_NLDEV_ATTR_RES_CM_ID] = FT_NEST,
	[RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY] = FT_NEST,
	[RDMA_NLDEV_ATTR_RES_PS] = FT_U32,
	[RDMA_NLDEV_ATTR_RES_SRC_ADDR] = FT_SOCKADDR,
	[RDMA_NLDEV_ATTR_RES_DST_ADDR] = FT_SOCKADDR,
	[RDMA_NLDEV_ATTR_RES_CQ] = FT_NEST,
	[RDMA_NLDEV_ATTR_RES_CQ_ENTRY] = FT_NEST,
	[RDMA_NLDEV_ATTR_RES_CQE] = FT_U32,
	[RDMA_NLDEV_ATTR_RES_USECNT] = FT_U64,
	[RDMA_NLDEV_ATTR_RES_POLL_CTX] = FT_U8,
	[RDMA_NLDEV_ATTR_RES_MR] = FT_NEST,
	[RDMA_NLDEV_ATTR_RES_MR_ENTRY] = FT_NEST,
	[RDMA_NLDEV_ATTR_RES_RKEY] = FT_U32,
	[RDMA_NLDEV_ATTR_RES_LKEY] = FT_U32,
	[RDMA_NLDEV_ATTR_RES_IOVA] = FT_U64,
	[RDMA_NLDEV_ATTR_RES_MRLEN] = FT_U64,
	[RDMA_NLDEV_ATTR_RES_PD] = FT_NEST,
	[RDMA_NLDEV_ATTR_RES_PD_ENTRY] = FT_NEST,
	[RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY] = FT_U32,
	[RDMA_NLDEV_ATTR_RES_UNSAFE_GLOBAL_RKEY] = FT_U32,
	[RDMA_NLDEV_ATTR_NDEV_INDEX] = FT_U32,
	[RDMA_NLDEV_ATTR_NDEV_NAME] = FT_STR,
	[RDMA_NLDEV_ATTR_DRIVER] = FT_NEST,
	[RDMA_NLDEV_ATTR_DRIVER_ENTRY] = FT_NEST,
	[RDMA_NLDEV_ATTR_DRIVER_STRING] = FT_STR,
	[RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE] = FT_U8,
	[RDMA_NLDEV_ATTR_DRIVER_S32] = FT_U32,
	[RDMA_NLDEV_ATTR_DRIVER_U32] = FT_U32,
	[RDMA_NLDEV_ATTR_DRIVER_S64] = FT_U64,
	[RDMA_NLDEV_ATTR_DRIVER_U64] = FT_U64,
	[RDMA_NLDEV_ATTR_RES_PDN] = FT_U32,
	[RDMA_NLDEV_ATTR_RES_CQN] = FT_U32,
	[RDMA_NLDEV_ATTR_RES_MRN] = FT_U32,
	[RDMA_NLDEV_ATTR_RES_CM_IDN] = FT_U32,
	[RDMA_NLDEV_ATTR_RES_CTXN] = FT_U32,
	[RDMA_NLDEV_ATTR_LINK_TYPE] = FT_STR,
	[RDMA_NLDEV_SYS_ATTR_NETNS_MODE] = FT_U8,
	[RDMA_NLDEV_ATTR_DEV_PROTOCOL] = FT_STR,
	[RDMA_NLDEV_NET_NS_FD] = FT_U32,
	[RDMA_NLDEV_ATTR_CHARDEV_TYPE] = FT_STR,
	[RDMA_NLDEV_ATTR_CHARDEV_NAME] = FT_STR,
	[RDMA_NLDEV_ATTR_CHARDEV_ABI] = FT_U64,
	[RDMA_NLDEV_ATTR_CHARDEV] = FT_U64,
	[RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID] = FT_U64,
	[RDMA_NLDEV_ATTR_STAT_MODE] = FT_U32,
	[RDMA_NLDEV_ATTR_STAT_RES] = FT_U32,
	[RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK] = FT_U32,
	[RDMA_NLDEV_ATTR_STAT_COUNTER] = FT_NEST,
	[RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY] = FT_NEST,
	[RDMA_NLDEV_ATTR_STAT_COUNTER_ID] = FT_U32,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS] = FT_NEST,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY] = FT_NEST,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME] = FT_STR,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE] = FT_U64,
	[RDMA_NLDEV_ATTR_DEV_DIM] = FT_U8,
	[RDMA_NLDEV_ATTR_RES_RAW] = FT_BIN,
	[RDMA_NLDEV_ATTR_RES_CTX] = FT_NEST,
	[RDMA_NLDEV_ATTR_RES_CTX_ENTRY] = FT_NEST,
	[RDMA_NLDEV_ATTR_RES_SRQ] = FT_NEST,
	[RDMA_NLDEV_ATTR_RES_SRQ_ENTRY] = FT_NEST,
	[RDMA_NLDEV_ATTR_RES_SRQN] = FT_U32,
	[RDMA_NLDEV_ATTR_MIN_RANGE] = FT_U32,
	[RDMA_NLDEV_ATTR_MAX_RANGE] = FT_U32,
	[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK] = FT_U8,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX] = FT_U32,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC] = FT_U8,
	[RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE] = FT_U8,
	[RDMA_NLDEV_ATTR_DRIVER_DETAILS] = FT_U8,
	[RDMA_NLDEV_ATTR_RES_SUBTYPE] = FT_STR,
	[RDMA_NLDEV_ATTR_DEV_TYPE] = FT_U8,
	[RDMA_NLDEV_ATTR_PARENT_NAME] = FT_STR,
	[RDMA_NLDEV_ATTR_NAME_ASSIGN_TYPE] = FT_U8,
	[RDMA_NLDEV_ATTR_EVENT_TYPE] = FT_U8,
	[RDMA_NLDEV_SYS_ATTR_MONITOR_MODE] = FT_U8,
};

const struct attr_table nldev_attrs = {
	.name = "nldev", .ft = nldev_ft, .n = ARRAY_SIZE(nldev_ft),
};

/* Local services: the attributes a service (ibacm) sends the kernel. */
static const unsigned char ls_ft[LS_NLA_TYPE_MAX] = {
	[LS_NLA_TYPE_PATH_RECORD] = FT_PATHREC,
	[LS_NLA_TYPE_TIMEOUT] = FT_U32,
	[LS_NLA_TYPE_SERVICE_ID] = FT_U64,
	[LS_NLA_TYPE_DGID] = FT_GID,
	[LS_NLA_TYPE_SGID] = FT_GID,
	[LS_NLA_TYPE_TCLASS] = FT_U8,
	[LS_NLA_TYPE_PKEY] = FT_U16,
	[LS_NLA_TYPE_QOS_CLASS] = FT_U16,
	[LS_NLA_TYPE_IPV4] = FT_U32,
	[LS_NLA_TYPE_IPV6] = FT_GID,
};

static const struct attr_table ls_attrs = {
	.name = "ls", .ft = ls_ft, .n = ARRAY_SIZE(ls_ft),
};

/* Port mapper: one table per message the daemon sends the kernel. */
static const unsigned char iwpm_rreg_ft[IWPM_NLA_RREG_PID_MAX] = {
	[IWPM_NLA_RREG_PID_SEQ] = FT_U32,
	[IWPM_NLA_RREG_IBDEV_NAME] = FT_STR,
	[IWPM_NLA_RREG_ULIB_NAME] = FT_STR,
	[IWPM_NLA_RREG_ULIB_VER] = FT_U16,
	[IWPM_NLA_RREG_PID_ERR] = FT_U16,
};

static const unsigned char iwpm_rmanage_ft[IWPM_NLA_RMANAGE_MAPPING_MAX] = {
	[IWPM_NLA_RMANAGE_MAPPING_SEQ] = FT_U32,
	[IWPM_NLA_RMANAGE_ADDR] = FT_SOCKADDR,
	[IWPM_NLA_RMANAGE_MAPPED_LOC_ADDR] = FT_SOCKADDR,
	[IWPM_NLA_RMANAGE_MAPPING_ERR] = FT_U16,
};

static const unsigned char iwpm_rquery_ft[IWPM_NLA_RQUERY_MAPPING_MAX] = {
	[IWPM_NLA_RQUERY_MAPPING_SEQ] = FT_U32,
	[IWPM_NLA_RQUERY_LOCAL_ADDR] = FT_SOCKADDR,
	[IWPM_NLA_RQUERY_REMOTE_ADDR] = FT_SOCKADDR,
	[IWPM_NLA_RQUERY_MAPPED_LOC_ADDR] = FT_SOCKADDR,
	[IWPM_NLA_RQUERY_MAPPED_REM_ADDR] = FT_SOCKADDR,
	[IWPM_NLA_RQUERY_MAPPING_ERR] = FT_U16,
};

static const unsigned char iwpm_manage_ft[IWPM_NLA_MANAGE_MAPPING_MAX] = {
	[IWPM_NLA_MANAGE_MAPPING_SEQ] = FT_U32,
	[IWPM_NLA_MANAGE_ADDR] = FT_SOCKADDR,
	[IWPM_NLA_MANAGE_FLAGS] = FT_U32,
};

static const unsigned char iwpm_err_ft[IWPM_NLA_ERR_MAX] = {
	[IWPM_NLA_ERR_SEQ] = FT_U32,
	[IWPM_NLA_ERR_CODE] = FT_U16,
};

static const unsigned char iwpm_mapinfo_ft[IWPM_NLA_MAPINFO_REQ_MAX] = {
	[IWPM_NLA_MAPINFO_ULIB_NAME] = FT_STR,
	[IWPM_NLA_MAPINFO_ULIB_VER] = FT_U16,
};

static const unsigned char iwpm_mapnum_ft[IWPM_NLA_MAPINFO_NUM_MAX] = {
	[IWPM_NLA_MAPINFO_SEQ] = FT_U32,
	[IWPM_NLA_MAPINFO_SEND_NUM] = FT_U32,
	[IWPM_NLA_MAPINFO_ACK_NUM] = FT_U32,
};

static const unsigned char iwpm_hello_ft[IWPM_NLA_HELLO_MAX] = {
	[IWPM_NLA_HELLO_ABI_VERSION] = FT_U16,
};

#define TABLE(_name, _ft) { .name = _name, .ft = _ft, .n = ARRAY_SIZE(_ft) }

static const struct attr_table iwpm_tables[] = {
	TABLE("iwpm_rreg", iwpm_rreg_ft),
	TABLE("iwpm_rmanage", iwpm_rmanage_ft),
	TABLE("iwpm_rquery", iwpm_rquery_ft),
	TABLE("iwpm_manage", iwpm_manage_ft),
	TABLE("iwpm_err", iwpm_err_ft),
	TABLE("iwpm_mapinfo", iwpm_mapinfo_ft),
	TABLE("iwpm_mapnum", iwpm_mapnum_ft),
	TABLE("iwpm_hello", iwpm_hello_ft),
};

/*
 * Port mapper operations.  Every one changes port mapper state, and the
 * design notes ask CAP_NET_ADMIN for them.
 */
static const struct op_desc iwpm_ops[RDMA_NL_IWPM_NUM_OPS] = {
	[RDMA_NL_IWPM_REG_PID] = { &iwpm_tables[0], 0, 0, 1 },
	[RDMA_NL_IWPM_ADD_MAPPING] = { &iwpm_tables[1], 0, 0, 1 },
	[RDMA_NL_IWPM_QUERY_MAPPING] = { &iwpm_tables[2], 0, 0, 1 },
	[RDMA_NL_IWPM_REMOVE_MAPPING] = { &iwpm_tables[3], 0, 0, 1 },
	[RDMA_NL_IWPM_REMOTE_INFO] = { &iwpm_tables[2], 0, 0, 1 },
	[RDMA_NL_IWPM_HANDLE_ERR] = { &iwpm_tables[4], 0, 0, 1 },
	[RDMA_NL_IWPM_MAPINFO] = { &iwpm_tables[5], 0, 0, 1 },
	[RDMA_NL_IWPM_MAPINFO_NUM] = { &iwpm_tables[6], 0, 0, 1 },
	[RDMA_NL_IWPM_HELLO] = { &iwpm_tables[7], 0, 0, 1 },
};

/* Local services: replies of the service, all admin only. */
static const struct op_desc ls_ops[RDMA_NL_LS_NUM_OPS] = {
	[RDMA_NL_LS_OP_RESOLVE] = {
		&ls_attrs, sizeof(struct rdma_ls_resolve_header), 0, 1 },
	[RDMA_NL_LS_OP_SET_TIMEOUT] = { &ls_attrs, 0, 0, 1 },
	[RDMA_NL_LS_OP_IP_RESOLVE] = {
		&ls_attrs, sizeof(struct rdma_ls_ip_resolve_header), 0, 1 },
};

#define NLDEV_GET { &nldev_attrs, 0, 1, 0 }
#define NLDEV_DO { &nldev_attrs, 0, 0, 0 }
#define NLDEV_ADMIN { &nldev_attrs, 0, 0, 1 }

/* nldev commands: which dump, which are admin only (fixed by upstream). */
static const struct op_desc nldev_ops[RDMA_NLDEV_NUM_OPS] = {
	[RDMA_NLDEV_CMD_GET] = NLDEV_GET,
	[RDMA_NLDEV_CMD_SET] = NLDEV_ADMIN,
	[RDMA_NLDEV_CMD_NEWLINK] = NLDEV_ADMIN,
	[RDMA_NLDEV_CMD_DELLINK] = NLDEV_ADMIN,
	[RDMA_NLDEV_CMD_PORT_GET] = NLDEV_GET,
	[RDMA_NLDEV_CMD_SYS_GET] = NLDEV_DO,
	[RDMA_NLDEV_CMD_SYS_SET] = NLDEV_ADMIN,
	[RDMA_NLDEV_CMD_RES_GET] = NLDEV_GET,
	[RDMA_NLDEV_CMD_RES_QP_GET] = NLDEV_GET,
	[RDMA_NLDEV_CMD_RES_CM_ID_GET] = NLDEV_GET,
	[RDMA_NLDEV_CMD_RES_CQ_GET] = NLDEV_GET,
	[RDMA_NLDEV_CMD_RES_MR_GET] = NLDEV_GET,
	[RDMA_NLDEV_CMD_RES_PD_GET] = NLDEV_GET,
	[RDMA_NLDEV_CMD_GET_CHARDEV] = NLDEV_DO,
	[RDMA_NLDEV_CMD_STAT_SET] = NLDEV_ADMIN,
	[RDMA_NLDEV_CMD_STAT_GET] = NLDEV_GET,
	[RDMA_NLDEV_CMD_STAT_DEL] = NLDEV_ADMIN,
	[RDMA_NLDEV_CMD_RES_QP_GET_RAW] = NLDEV_ADMIN,
	[RDMA_NLDEV_CMD_RES_CQ_GET_RAW] = NLDEV_ADMIN,
	[RDMA_NLDEV_CMD_RES_MR_GET_RAW] = NLDEV_ADMIN,
	[RDMA_NLDEV_CMD_RES_CTX_GET] = NLDEV_GET,
	[RDMA_NLDEV_CMD_RES_SRQ_GET] = NLDEV_GET,
	[RDMA_NLDEV_CMD_STAT_GET_STATUS] = NLDEV_DO,
	[RDMA_NLDEV_CMD_RES_SRQ_GET_RAW] = NLDEV_ADMIN,
	[RDMA_NLDEV_CMD_NEWDEV] = NLDEV_ADMIN,
	[RDMA_NLDEV_CMD_DELDEV] = NLDEV_ADMIN,
	[RDMA_NLDEV_CMD_MONITOR] = NLDEV_DO,
};

static const char *const nldev_op_names[RDMA_NLDEV_NUM_OPS] = {
	[RDMA_NLDEV_CMD_GET] = "GET",
	[RDMA_NLDEV_CMD_SET] = "SET",
	[RDMA_NLDEV_CMD_NEWLINK] = "NEWLINK",
	[RDMA_NLDEV_CMD_DELLINK] = "DELLINK",
	[RDMA_NLDEV_CMD_PORT_GET] = "PORT_GET",
	[RDMA_NLDEV_CMD_SYS_GET] = "SYS_GET",
	[RDMA_NLDEV_CMD_SYS_SET] = "SYS_SET",
	[RDMA_NLDEV_CMD_RES_GET] = "RES_GET",
	[RDMA_NLDEV_CMD_RES_QP_GET] = "RES_QP_GET",
	[RDMA_NLDEV_CMD_RES_CM_ID_GET] = "RES_CM_ID_GET",
	[RDMA_NLDEV_CMD_RES_CQ_GET] = "RES_CQ_GET",
	[RDMA_NLDEV_CMD_RES_MR_GET] = "RES_MR_GET",
	[RDMA_NLDEV_CMD_RES_PD_GET] = "RES_PD_GET",
	[RDMA_NLDEV_CMD_GET_CHARDEV] = "GET_CHARDEV",
	[RDMA_NLDEV_CMD_STAT_SET] = "STAT_SET",
	[RDMA_NLDEV_CMD_STAT_GET] = "STAT_GET",
	[RDMA_NLDEV_CMD_STAT_DEL] = "STAT_DEL",
	[RDMA_NLDEV_CMD_RES_QP_GET_RAW] = "RES_QP_GET_RAW",
	[RDMA_NLDEV_CMD_RES_CQ_GET_RAW] = "RES_CQ_GET_RAW",
	[RDMA_NLDEV_CMD_RES_MR_GET_RAW] = "RES_MR_GET_RAW",
	[RDMA_NLDEV_CMD_RES_CTX_GET] = "RES_CTX_GET",
	[RDMA_NLDEV_CMD_RES_SRQ_GET] = "RES_SRQ_GET",
	[RDMA_NLDEV_CMD_STAT_GET_STATUS] = "STAT_GET_STATUS",
	[RDMA_NLDEV_CMD_RES_SRQ_GET_RAW] = "RES_SRQ_GET_RAW",
	[RDMA_NLDEV_CMD_NEWDEV] = "NEWDEV",
	[RDMA_NLDEV_CMD_DELDEV] = "DELDEV",
	[RDMA_NLDEV_CMD_MONITOR] = "MONITOR",
};

static const char *const iwpm_op_names[RDMA_NL_IWPM_NUM_OPS] = {
	[RDMA_NL_IWPM_REG_PID] = "REG_PID",
	[RDMA_NL_IWPM_ADD_MAPPING] = "ADD_MAPPING",
	[RDMA_NL_IWPM_QUERY_MAPPING] = "QUERY_MAPPING",
	[RDMA_NL_IWPM_REMOVE_MAPPING] = "REMOVE_MAPPING",
	[RDMA_NL_IWPM_REMOTE_INFO] = "REMOTE_INFO",
	[RDMA_NL_IWPM_HANDLE_ERR] = "HANDLE_ERR",
	[RDMA_NL_IWPM_MAPINFO] = "MAPINFO",
	[RDMA_NL_IWPM_MAPINFO_NUM] = "MAPINFO_NUM",
	[RDMA_NL_IWPM_HELLO] = "HELLO",
};

static const char *const ls_op_names[RDMA_NL_LS_NUM_OPS] = {
	[RDMA_NL_LS_OP_RESOLVE] = "RESOLVE",
	[RDMA_NL_LS_OP_SET_TIMEOUT] = "SET_TIMEOUT",
	[RDMA_NL_LS_OP_IP_RESOLVE] = "IP_RESOLVE",
};

const char *client_name(unsigned int client)
{
	switch (client) {
	case RDMA_NL_IWCM:
		return "IWCM";
	case RDMA_NL_RSVD:
		return "RSVD";
	case RDMA_NL_LS:
		return "LS";
	case RDMA_NL_NLDEV:
		return "NLDEV";
	default:
		return client < RDMA_NL_NUM_CLIENTS ? "retired" : "invalid";
	}
}

unsigned int client_num_ops(unsigned int client)
{
	switch (client) {
	case RDMA_NL_IWCM:
		return RDMA_NL_IWPM_NUM_OPS;
	case RDMA_NL_LS:
		return RDMA_NL_LS_NUM_OPS;
	case RDMA_NL_NLDEV:
		return RDMA_NLDEV_NUM_OPS;
	default:
		return 0;
	}
}

const struct op_desc *op_lookup(unsigned int client, unsigned int op)
{
	const struct op_desc *d = NULL;

	if (op >= client_num_ops(client))
		return NULL;
	switch (client) {
	case RDMA_NL_IWCM:
		d = &iwpm_ops[op];
		break;
	case RDMA_NL_LS:
		d = &ls_ops[op];
		break;
	case RDMA_NL_NLDEV:
		d = &nldev_ops[op];
		break;
	}
	return d && d->attrs ? d : NULL;
}

const char *op_name(unsigned int client, unsigned int op)
{
	const char *n = NULL;

	if (!op_lookup(client, op))
		return "?";
	switch (client) {
	case RDMA_NL_IWCM:
		n = iwpm_op_names[op];
		break;
	case RDMA_NL_LS:
		n = ls_op_names[op];
		break;
	case RDMA_NL_NLDEV:
		n = nldev_op_names[op];
		break;
	}
	return n ? n : "?";
}
