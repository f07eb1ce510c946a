/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * NETLINK_RDMA protocol: the message types, attribute numbers and small
 * fixed structures exchanged between the RDMA core and user space.
 *
 * Three families of users share the NETLINK_RDMA socket:
 *   - the iWARP port mapper daemon (iwpmd), client RDMA_NL_IWCM;
 *   - the local SA/address resolution service (ibacm), client RDMA_NL_LS;
 *   - the device/resource/statistics interface driven by the "rdma" tool
 *     of iproute2, client RDMA_NL_NLDEV.
 *
 * Every number below is wire ABI.  Enumerations are positional: a member
 * may only ever be appended before the trailing *_MAX / *_NUM_* marker.
 */
#ifndef _UAPI_RDMA_NETLINK_H
#define _UAPI_RDMA_NETLINK_H

#include <linux/types.h>

/* ------------------------------------------------------------------------
 * Message type encoding
 *
 * nlmsg_type carries the client index in bits 10..15 and the client's
 * operation code in bits 0..9.
 * ------------------------------------------------------------------------
 */

/* Client indexes (values 0 and 1 were used by retired clients). */
enum {
	RDMA_NL_IWCM = 2,	/* iWARP port mapper */
	RDMA_NL_RSVD,		/* reserved, never assigned */
	RDMA_NL_LS,		/* local services (ibacm) */
	RDMA_NL_NLDEV,		/* device, resource and counter interface */
	RDMA_NL_NUM_CLIENTS
};

/* Multicast groups a listener can join. */
enum {
	RDMA_NL_GROUP_IWPM = 2,
	RDMA_NL_GROUP_LS,
	RDMA_NL_GROUP_NOTIFY,
	RDMA_NL_NUM_GROUPS
};

#define RDMA_NL_GET_CLIENT(type) (((type) & (((1 << 6) - 1) << 10)) >> 10)
#define RDMA_NL_GET_OP(type) ((type) & ((1 << 10) - 1))
#define RDMA_NL_GET_TYPE(client, op) (((client) << 10) + (op))

/* ------------------------------------------------------------------------
 * iWARP port mapper (client RDMA_NL_IWCM)
 * ------------------------------------------------------------------------
 */

/* Oldest and newest port mapper ABI revisions the kernel speaks. */
#define IWPM_UABI_VERSION_MIN	3
#define IWPM_UABI_VERSION	4

/* Bits of the IWPM_NLA_*_FLAGS attributes. */
enum {
	/* leave the port of this request as it is, do not map it */
	IWPM_FLAGS_NO_PORT_MAP = (1 << 0),
};

/* Port mapper operations (the low bits of nlmsg_type). */
enum {
	RDMA_NL_IWPM_REG_PID = 0,
	RDMA_NL_IWPM_ADD_MAPPING,
	RDMA_NL_IWPM_QUERY_MAPPING,
	RDMA_NL_IWPM_REMOVE_MAPPING,
	RDMA_NL_IWPM_REMOTE_INFO,
	RDMA_NL_IWPM_HANDLE_ERR,
	RDMA_NL_IWPM_MAPINFO,
	RDMA_NL_IWPM_MAPINFO_NUM,
	RDMA_NL_IWPM_HELLO,
	RDMA_NL_IWPM_NUM_OPS
};

/* REG_PID, kernel -> daemon */
enum {
	IWPM_NLA_REG_PID_UNSPEC = 0,
	IWPM_NLA_REG_PID_SEQ,
	IWPM_NLA_REG_IF_NAME,
	IWPM_NLA_REG_IBDEV_NAME,
	IWPM_NLA_REG_ULIB_NAME,
	IWPM_NLA_REG_PID_MAX
};

/* REG_PID, daemon -> kernel */
enum {
	IWPM_NLA_RREG_PID_UNSPEC = 0,
	IWPM_NLA_RREG_PID_SEQ,
	IWPM_NLA_RREG_IBDEV_NAME,
	IWPM_NLA_RREG_ULIB_NAME,
	IWPM_NLA_RREG_ULIB_VER,
	IWPM_NLA_RREG_PID_ERR,
	IWPM_NLA_RREG_PID_MAX
};

/* ADD_MAPPING / REMOVE_MAPPING, kernel -> daemon */
enum {
	IWPM_NLA_MANAGE_MAPPING_UNSPEC = 0,
	IWPM_NLA_MANAGE_MAPPING_SEQ,
	IWPM_NLA_MANAGE_ADDR,
	IWPM_NLA_MANAGE_FLAGS,
	IWPM_NLA_MANAGE_MAPPING_MAX
};

/* ADD_MAPPING, daemon -> kernel */
enum {
	IWPM_NLA_RMANAGE_MAPPING_UNSPEC = 0,
	IWPM_NLA_RMANAGE_MAPPING_SEQ,
	IWPM_NLA_RMANAGE_ADDR,
	IWPM_NLA_RMANAGE_MAPPED_LOC_ADDR,
	/* older spelling, still used by rdma-core */
	IWPM_NLA_MANAGE_MAPPED_LOC_ADDR = IWPM_NLA_RMANAGE_MAPPED_LOC_ADDR,
	IWPM_NLA_RMANAGE_MAPPING_ERR,
	IWPM_NLA_RMANAGE_MAPPING_MAX
};

/* Attribute counts of the MAPINFO send and REMOVE_MAPPING messages. */
#define IWPM_NLA_MAPINFO_SEND_MAX   3
#define IWPM_NLA_REMOVE_MAPPING_MAX 3

/* QUERY_MAPPING, kernel -> daemon */
enum {
	IWPM_NLA_QUERY_MAPPING_UNSPEC = 0,
	IWPM_NLA_QUERY_MAPPING_SEQ,
	IWPM_NLA_QUERY_LOCAL_ADDR,
	IWPM_NLA_QUERY_REMOTE_ADDR,
	IWPM_NLA_QUERY_FLAGS,
	IWPM_NLA_QUERY_MAPPING_MAX,
};

/* QUERY_MAPPING and REMOTE_INFO, daemon -> kernel */
enum {
	IWPM_NLA_RQUERY_MAPPING_UNSPEC = 0,
	IWPM_NLA_RQUERY_MAPPING_SEQ,
	IWPM_NLA_RQUERY_LOCAL_ADDR,
	IWPM_NLA_RQUERY_REMOTE_ADDR,
	IWPM_NLA_RQUERY_MAPPED_LOC_ADDR,
	IWPM_NLA_RQUERY_MAPPED_REM_ADDR,
	IWPM_NLA_RQUERY_MAPPING_ERR,
	IWPM_NLA_RQUERY_MAPPING_MAX
};

/* MAPINFO request, daemon -> kernel */
enum {
	IWPM_NLA_MAPINFO_REQ_UNSPEC = 0,
	IWPM_NLA_MAPINFO_ULIB_NAME,
	IWPM_NLA_MAPINFO_ULIB_VER,
	IWPM_NLA_MAPINFO_REQ_MAX
};

/* MAPINFO, one mapping, kernel -> daemon */
enum {
	IWPM_NLA_MAPINFO_UNSPEC = 0,
	IWPM_NLA_MAPINFO_LOCAL_ADDR,
	IWPM_NLA_MAPINFO_MAPPED_ADDR,
	IWPM_NLA_MAPINFO_FLAGS,
	IWPM_NLA_MAPINFO_MAX
};

/* MAPINFO_NUM, both directions */
enum {
	IWPM_NLA_MAPINFO_NUM_UNSPEC = 0,
	IWPM_NLA_MAPINFO_SEQ,
	IWPM_NLA_MAPINFO_SEND_NUM,
	IWPM_NLA_MAPINFO_ACK_NUM,
	IWPM_NLA_MAPINFO_NUM_MAX
};

/* HANDLE_ERR, daemon -> kernel */
enum {
	IWPM_NLA_ERR_UNSPEC = 0,
	IWPM_NLA_ERR_SEQ,
	IWPM_NLA_ERR_CODE,
	IWPM_NLA_ERR_MAX
};

/* HELLO, daemon -> kernel */
enum {
	IWPM_NLA_HELLO_UNSPEC = 0,
	IWPM_NLA_HELLO_ABI_VERSION,
	IWPM_NLA_HELLO_MAX
};

/* ------------------------------------------------------------------------
 * Node types, as reported in RDMA_NLDEV_ATTR_DEV_NODE_TYPE.  The IB
 * values are those of the NodeType field of the IBTA NodeInfo attribute.
 * ------------------------------------------------------------------------
 */
enum {
	RDMA_NODE_IB_CA = 1,
	RDMA_NODE_IB_SWITCH,
	RDMA_NODE_IB_ROUTER,
	RDMA_NODE_RNIC,
	RDMA_NODE_USNIC,
	RDMA_NODE_USNIC_UDP,
	RDMA_NODE_UNSPECIFIED,
};

/* ------------------------------------------------------------------------
 * Local services (client RDMA_NL_LS)
 *
 * A request is an nlmsghdr, one of the family headers below, then
 * LS_NLA_TYPE_* attributes.
 * ------------------------------------------------------------------------
 */
enum {
	RDMA_NL_LS_OP_RESOLVE = 0,	/* kernel asks for path records */
	RDMA_NL_LS_OP_SET_TIMEOUT,	/* service sets the kernel's timeout */
	RDMA_NL_LS_OP_IP_RESOLVE,	/* kernel asks for the GID of an IP */
	RDMA_NL_LS_NUM_OPS
};

/* nlmsg_flags bit set by the service on a failed reply */
#define RDMA_NL_LS_F_ERR	0x0100

/* What the requested path records will be used for (path_use). */
enum {
	LS_RESOLVE_PATH_USE_ALL = 0,		/* connected CM: 6 records */
	LS_RESOLVE_PATH_USE_UNIDIRECTIONAL,	/* UD: 1 record */
	LS_RESOLVE_PATH_USE_GMP,		/* GMP: >= 1 reversible */
	LS_RESOLVE_PATH_USE_MAX
};

#define LS_DEVICE_NAME_MAX 64

/* Family header of RDMA_NL_LS_OP_RESOLVE */
struct rdma_ls_resolve_header {
	__u8 device_name[LS_DEVICE_NAME_MAX];
	__u8 port_num;
	__u8 path_use;
};

/* Family header of RDMA_NL_LS_OP_IP_RESOLVE */
struct rdma_ls_ip_resolve_header {
	__u32 ifindex;
};

/*
 * Attribute type bits.  RDMA_NLA_TYPE_MASK needs NLA_F_NESTED and
 * NLA_F_NET_BYTEORDER, i.e. <linux/netlink.h>, at the point of use.
 */
#define RDMA_NLA_F_MANDATORY	(1 << 13)
#define RDMA_NLA_TYPE_MASK	(~(NLA_F_NESTED | NLA_F_NET_BYTEORDER | \
				  RDMA_NLA_F_MANDATORY))

/*
 * Local service attributes and their payload:
 *   PATH_RECORD  struct ib_path_rec_data (<rdma/ib_user_sa.h>)
 *   TIMEOUT      __u32, host order
 *   SERVICE_ID   __u64, host order
 *   DGID, SGID   struct rdma_nla_ls_gid, network order
 *   TCLASS       __u8
 *   PKEY         __u16, host order
 *   QOS_CLASS    __u16, host order
 *   IPV4         __u32, network order
 *   IPV6         16 bytes, network order
 */
enum {
	LS_NLA_TYPE_UNSPEC = 0,
	LS_NLA_TYPE_PATH_RECORD,
	LS_NLA_TYPE_TIMEOUT,
	LS_NLA_TYPE_SERVICE_ID,
	LS_NLA_TYPE_DGID,
	LS_NLA_TYPE_SGID,
	LS_NLA_TYPE_TCLASS,
	LS_NLA_TYPE_PKEY,
	LS_NLA_TYPE_QOS_CLASS,
	LS_NLA_TYPE_IPV4,
	LS_NLA_TYPE_IPV6,
	LS_NLA_TYPE_MAX
};

struct rdma_nla_ls_gid {
	__u8		gid[16];
};

/* ------------------------------------------------------------------------
 * Device interface (client RDMA_NL_NLDEV)
 * ------------------------------------------------------------------------
 */

/* Commands; "dump" marks the ones that also accept NLM_F_DUMP. */
enum rdma_nldev_command {
	RDMA_NLDEV_CMD_UNSPEC,
	RDMA_NLDEV_CMD_GET,		/* dump */
	RDMA_NLDEV_CMD_SET,
	RDMA_NLDEV_CMD_NEWLINK,
	RDMA_NLDEV_CMD_DELLINK,
	RDMA_NLDEV_CMD_PORT_GET,	/* dump */
	RDMA_NLDEV_CMD_SYS_GET,
	RDMA_NLDEV_CMD_SYS_SET,

	/* command number 8 has never been assigned */
	RDMA_NLDEV_CMD_RES_GET = 9,	/* dump */
	RDMA_NLDEV_CMD_RES_QP_GET,	/* dump */
	RDMA_NLDEV_CMD_RES_CM_ID_GET,	/* dump */
	RDMA_NLDEV_CMD_RES_CQ_GET,	/* dump */
	RDMA_NLDEV_CMD_RES_MR_GET,	/* dump */
	RDMA_NLDEV_CMD_RES_PD_GET,	/* dump */
	RDMA_NLDEV_CMD_GET_CHARDEV,
	RDMA_NLDEV_CMD_STAT_SET,
	RDMA_NLDEV_CMD_STAT_GET,	/* dump */
	RDMA_NLDEV_CMD_STAT_DEL,
	RDMA_NLDEV_CMD_RES_QP_GET_RAW,
	RDMA_NLDEV_CMD_RES_CQ_GET_RAW,
	RDMA_NLDEV_CMD_RES_MR_GET_RAW,
	RDMA_NLDEV_CMD_RES_CTX_GET,	/* dump */
	RDMA_NLDEV_CMD_RES_SRQ_GET,	/* dump */
	RDMA_NLDEV_CMD_STAT_GET_STATUS,
	RDMA_NLDEV_CMD_RES_SRQ_GET_RAW,
	RDMA_NLDEV_CMD_NEWDEV,
	RDMA_NLDEV_CMD_DELDEV,
	RDMA_NLDEV_CMD_MONITOR,

	RDMA_NLDEV_NUM_OPS
};

/* How a tool should print a driver attribute (RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE). */
enum rdma_nldev_print_type {
	RDMA_NLDEV_PRINT_TYPE_UNSPEC,
	RDMA_NLDEV_PRINT_TYPE_HEX,
};

/*
 * Attributes of the RDMA_NL_NLDEV client.  The list is strictly
 * positional: new attributes go right before RDMA_NLDEV_ATTR_MAX and
 * nothing is ever removed or reordered.  The trailing comment gives the
 * payload type.
 */
enum rdma_nldev_attr {
	RDMA_NLDEV_ATTR_UNSPEC,
	/* 64-bit alignment padding shares the unused number 0 */
	RDMA_NLDEV_ATTR_PAD = RDMA_NLDEV_ATTR_UNSPEC,

	/* device identity; ports are numbered from 1 as in sysfs */
	RDMA_NLDEV_ATTR_DEV_INDEX,		/* u32 */
	RDMA_NLDEV_ATTR_DEV_NAME,		/* string */
	RDMA_NLDEV_ATTR_PORT_INDEX,		/* u32; port count on CMD_GET */

	/* device and port properties */
	RDMA_NLDEV_ATTR_CAP_FLAGS,		/* u64; ports: CapMask | CapMask2 << 32 */
	RDMA_NLDEV_ATTR_FW_VERSION,		/* string */
	RDMA_NLDEV_ATTR_NODE_GUID,		/* u64, host order */
	RDMA_NLDEV_ATTR_SYS_IMAGE_GUID,		/* u64, host order */
	RDMA_NLDEV_ATTR_SUBNET_PREFIX,		/* u64, host order */
	RDMA_NLDEV_ATTR_LID,			/* u32 (wider than IB for OPA) */
	RDMA_NLDEV_ATTR_SM_LID,			/* u32 */
	RDMA_NLDEV_ATTR_LMC,			/* u8 */
	RDMA_NLDEV_ATTR_PORT_STATE,		/* u8 */
	RDMA_NLDEV_ATTR_PORT_PHYS_STATE,	/* u8 */
	RDMA_NLDEV_ATTR_DEV_NODE_TYPE,		/* u8, RDMA_NODE_* */

	/* resource tracking: per-type object counts */
	RDMA_NLDEV_ATTR_RES_SUMMARY,		/* nested */
	RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY,	/* nested */
	RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME,	/* string */
	RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR,	/* u64 */

	/* resource tracking: queue pairs */
	RDMA_NLDEV_ATTR_RES_QP,			/* nested */
	RDMA_NLDEV_ATTR_RES_QP_ENTRY,		/* nested */
	RDMA_NLDEV_ATTR_RES_LQPN,		/* u32, local QP number */
	RDMA_NLDEV_ATTR_RES_RQPN,		/* u32, remote QPN (RC/UC) */
	RDMA_NLDEV_ATTR_RES_RQ_PSN,		/* u32 (RC/UC) */
	RDMA_NLDEV_ATTR_RES_SQ_PSN,		/* u32 */
	RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE,	/* u8 */
	RDMA_NLDEV_ATTR_RES_TYPE,		/* u8, QP type */
	RDMA_NLDEV_ATTR_RES_STATE,		/* u8 */
	RDMA_NLDEV_ATTR_RES_PID,		/* u32, user objects only */
	RDMA_NLDEV_ATTR_RES_KERN_NAME,		/* string, kernel objects only */

	/* resource tracking: rdma_cm IDs */
	RDMA_NLDEV_ATTR_RES_CM_ID,		/* nested */
	RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY,	/* nested */
	RDMA_NLDEV_ATTR_RES_PS,			/* u32, port space */
	RDMA_NLDEV_ATTR_RES_SRC_ADDR,		/* __kernel_sockaddr_storage */
	RDMA_NLDEV_ATTR_RES_DST_ADDR,		/* __kernel_sockaddr_storage */

	/* resource tracking: completion queues */
	RDMA_NLDEV_ATTR_RES_CQ,			/* nested */
	RDMA_NLDEV_ATTR_RES_CQ_ENTRY,		/* nested */
	RDMA_NLDEV_ATTR_RES_CQE,		/* u32 */
	RDMA_NLDEV_ATTR_RES_USECNT,		/* u64 */
	RDMA_NLDEV_ATTR_RES_POLL_CTX,		/* u8 */

	/* resource tracking: memory regions */
	RDMA_NLDEV_ATTR_RES_MR,			/* nested */
	RDMA_NLDEV_ATTR_RES_MR_ENTRY,		/* nested */
	RDMA_NLDEV_ATTR_RES_RKEY,		/* u32 */
	RDMA_NLDEV_ATTR_RES_LKEY,		/* u32 */
	RDMA_NLDEV_ATTR_RES_IOVA,		/* u64 */
	RDMA_NLDEV_ATTR_RES_MRLEN,		/* u64 */

	/* resource tracking: protection domains */
	RDMA_NLDEV_ATTR_RES_PD,			/* nested */
	RDMA_NLDEV_ATTR_RES_PD_ENTRY,		/* nested */
	RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY,	/* u32 */
	RDMA_NLDEV_ATTR_RES_UNSAFE_GLOBAL_RKEY,	/* u32 */

	/* net device bound to a port (RoCE, iWARP) */
	RDMA_NLDEV_ATTR_NDEV_INDEX,		/* u32 */
	RDMA_NLDEV_ATTR_NDEV_NAME,		/* string */

	/* free-form driver attributes */
	RDMA_NLDEV_ATTR_DRIVER,			/* nested */
	RDMA_NLDEV_ATTR_DRIVER_ENTRY,		/* nested */
	RDMA_NLDEV_ATTR_DRIVER_STRING,		/* string */
	RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE,	/* u8, rdma_nldev_print_type */
	RDMA_NLDEV_ATTR_DRIVER_S32,		/* s32 */
	RDMA_NLDEV_ATTR_DRIVER_U32,		/* u32 */
	RDMA_NLDEV_ATTR_DRIVER_S64,		/* s64 */
	RDMA_NLDEV_ATTR_DRIVER_U64,		/* u64 */

	/* object numbers selecting one resource (QPs use RES_LQPN) */
	RDMA_NLDEV_ATTR_RES_PDN,		/* u32 */
	RDMA_NLDEV_ATTR_RES_CQN,		/* u32 */
	RDMA_NLDEV_ATTR_RES_MRN,		/* u32 */
	RDMA_NLDEV_ATTR_RES_CM_IDN,		/* u32 */
	RDMA_NLDEV_ATTR_RES_CTXN,		/* u32 */

	RDMA_NLDEV_ATTR_LINK_TYPE,		/* string, e.g. "rxe", "siw" */
	RDMA_NLDEV_SYS_ATTR_NETNS_MODE,		/* u8, shared/exclusive */
	RDMA_NLDEV_ATTR_DEV_PROTOCOL,		/* string: ib, iw, roce, ... */
	RDMA_NLDEV_NET_NS_FD,			/* u32, netns file descriptor */

	/* character devices: ABI name, /dev name, ABI revision, dev_t */
	RDMA_NLDEV_ATTR_CHARDEV_TYPE,		/* string */
	RDMA_NLDEV_ATTR_CHARDEV_NAME,		/* string */
	RDMA_NLDEV_ATTR_CHARDEV_ABI,		/* u64 */
	RDMA_NLDEV_ATTR_CHARDEV,		/* u64 */
	RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID,	/* u64, enum rdma_driver_id */

	/* counters */
	RDMA_NLDEV_ATTR_STAT_MODE,		/* u32, rdma_nl_counter_mode */
	RDMA_NLDEV_ATTR_STAT_RES,		/* u32 */
	RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK,	/* u32, rdma_nl_counter_mask */
	RDMA_NLDEV_ATTR_STAT_COUNTER,		/* nested */
	RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY,	/* nested */
	RDMA_NLDEV_ATTR_STAT_COUNTER_ID,	/* u32 */
	RDMA_NLDEV_ATTR_STAT_HWCOUNTERS,	/* nested */
	RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY,	/* nested */
	RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME,	/* string */
	RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE,	/* u64 */

	RDMA_NLDEV_ATTR_DEV_DIM,		/* u8, adaptive CQ moderation */
	RDMA_NLDEV_ATTR_RES_RAW,		/* binary, driver dump */

	RDMA_NLDEV_ATTR_RES_CTX,		/* nested */
	RDMA_NLDEV_ATTR_RES_CTX_ENTRY,		/* nested */

	RDMA_NLDEV_ATTR_RES_SRQ,		/* nested */
	RDMA_NLDEV_ATTR_RES_SRQ_ENTRY,		/* nested */
	RDMA_NLDEV_ATTR_RES_SRQN,		/* u32 */

	RDMA_NLDEV_ATTR_MIN_RANGE,		/* u32 */
	RDMA_NLDEV_ATTR_MAX_RANGE,		/* u32 */

	RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK,	/* u8 */

	RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX,	/* u32 */
	RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC,	/* u8 */

	RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE,	/* u8 */

	RDMA_NLDEV_ATTR_DRIVER_DETAILS,		/* u8 */
	RDMA_NLDEV_ATTR_RES_SUBTYPE,		/* string, driver QP subtype */

	RDMA_NLDEV_ATTR_DEV_TYPE,		/* u8, rdma_nl_dev_type */
	RDMA_NLDEV_ATTR_PARENT_NAME,		/* string */
	RDMA_NLDEV_ATTR_NAME_ASSIGN_TYPE,	/* u8, rdma_nl_name_assign_type */
	RDMA_NLDEV_ATTR_EVENT_TYPE,		/* u8, rdma_nl_notify_event_type */
	RDMA_NLDEV_SYS_ATTR_MONITOR_MODE,	/* u8 */

	RDMA_NLDEV_ATTR_MAX			/* keep last */
};

/* Counter binding modes (RDMA_NLDEV_ATTR_STAT_MODE); exactly one applies. */
enum rdma_nl_counter_mode {
	RDMA_COUNTER_MODE_NONE,
	RDMA_COUNTER_MODE_AUTO,		/* QPs bound by criteria at creation */
	RDMA_COUNTER_MODE_MANUAL,	/* QPs bound explicitly by the user */
	RDMA_COUNTER_MODE_MAX,
};

/* Criteria of RDMA_COUNTER_MODE_AUTO (RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK). */
enum rdma_nl_counter_mask {
	RDMA_COUNTER_MASK_QP_TYPE = 1,
	RDMA_COUNTER_MASK_PID = 1 << 1,
};

/* RDMA_NLDEV_ATTR_DEV_TYPE */
enum rdma_nl_dev_type {
	RDMA_DEVICE_TYPE_SMI = 1,
};

/* RDMA_NLDEV_ATTR_NAME_ASSIGN_TYPE */
enum rdma_nl_name_assign_type {
	RDMA_NAME_ASSIGN_TYPE_UNKNOWN = 0,
	RDMA_NAME_ASSIGN_TYPE_USER = 1,	/* name chosen by user space */
};

/* RDMA_NLDEV_ATTR_EVENT_TYPE, sent to RDMA_NL_GROUP_NOTIFY */
enum rdma_nl_notify_event_type {
	RDMA_REGISTER_EVENT,
	RDMA_UNREGISTER_EVENT,
	RDMA_NETDEV_ATTACH_EVENT,
	RDMA_NETDEV_DETACH_EVENT,
};

#endif /* _UAPI_RDMA_NETLINK_H */
