/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The RDMA kernel API: devices, ports, GIDs, events, clients and verbs.
 *
 * Source-compatible with Linux 6.12 for what kernel ULPs and HCA drivers
 * use.  Objects the core allocates on behalf of drivers (PD, CQ, QP, ...)
 * embed the ib_* structure as their first member; the driver declares the
 * containing size with INIT_RDMA_OBJ_SIZE() in its ib_device_ops.
 */
#ifndef IB_VERBS_H
#define IB_VERBS_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/device.h>
#include <linux/dim.h>
#include <linux/dma-mapping.h>
#include <linux/ethtool.h>
#include <linux/if_link.h>
#include <linux/irq_poll.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/refcount.h>
#include <linux/rwsem.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <uapi/linux/if_ether.h>
#include <uapi/rdma/ib_user_verbs.h>
#include <uapi/rdma/ib_user_ioctl_verbs.h>
#include <uapi/rdma/rdma_netlink.h>

#define IB_FW_VERSION_NAME_MAX	ETHTOOL_FWVERS_LEN
#define IB_DEVICE_NODE_DESC_MAX	64

struct ib_ah;
struct ib_counters;
struct ib_counters_read_attr;
struct ib_cq;
struct ib_cq_init_attr;
struct ib_dm;
struct ib_dm_alloc_attr;
struct ib_dm_mr_attr;
struct ib_flow;
struct ib_flow_action;
struct ib_flow_attr;
struct ib_grh;
struct ib_mad;
struct ib_mr;
struct ib_mr_status;
struct ib_mw;
struct ib_pd;
struct ib_port;
struct ib_qp;
struct ib_qp_attr;
struct ib_qp_init_attr;
struct ib_recv_wr;
struct ib_rwq_ind_table;
struct ib_rwq_ind_table_init_attr;
struct ib_send_wr;
struct ib_sge;
struct ib_srq;
struct ib_srq_attr;
struct ib_srq_init_attr;
struct ib_ucontext;
struct ib_udata;
struct ib_wc;
struct ib_wq;
struct ib_wq_attr;
struct ib_wq_init_attr;
struct ib_xrcd;
struct ifla_vf_guid;
struct ifla_vf_info;
struct ifla_vf_stats;
struct iw_cm_conn_param;
struct iw_cm_id;
struct rdma_ah_attr;
struct rdma_ah_init_attr;
struct rdma_cm_id;
struct rdma_counter;
struct rdma_hw_stats;
struct rdma_link_ops;
struct rdma_netdev_alloc_params;
struct rdma_restrack_root;
struct rdma_user_mmap_entry;
struct scatterlist;
struct sk_buff;
struct uapi_definition;
struct uverbs_attr_bundle;
struct vm_area_struct;
struct hw_stats_device_data;
struct ib_pkey_cache;
struct ib_gid_table;

extern struct workqueue_struct *ib_wq;
extern struct workqueue_struct *ib_comp_wq;
extern struct workqueue_struct *ib_comp_unbound_wq;

/* ---------------------------------------------------------------------
 * GIDs
 */

union ib_gid {
	u8	raw[16];
	struct {
		__be64	subnet_prefix;
		__be64	interface_id;
	} global;
};

extern union ib_gid zgid;

enum ib_gid_type {
	IB_GID_TYPE_IB = IB_UVERBS_GID_TYPE_IB,
	IB_GID_TYPE_ROCE = IB_UVERBS_GID_TYPE_ROCE_V1,
	IB_GID_TYPE_ROCE_UDP_ENCAP = IB_UVERBS_GID_TYPE_ROCE_V2,
	IB_GID_TYPE_SIZE
};

#define ROCE_V2_UDP_DPORT	4791

/**
 * struct ib_gid_attr - one entry of a port's GID table
 * @ndev: the net device the GID belongs to (RoCE), read under RCU
 * @device: the RDMA device
 * @gid: the GID itself
 * @gid_type: IB, RoCE v1 or RoCE v2
 * @index: index in the port's GID table
 * @port_num: port number
 *
 * Entries handed out by the cache are reference counted: every pointer
 * obtained from rdma_get_gid_attr() and friends must be released with
 * rdma_put_gid_attr().
 */
struct ib_gid_attr {
	struct net_device __rcu	*ndev;
	struct ib_device	*device;
	union ib_gid		gid;
	enum ib_gid_type	gid_type;
	u16			index;
	u32			port_num;
};

/* ---------------------------------------------------------------------
 * Node, transport and link layer
 */

enum rdma_transport_type {
	RDMA_TRANSPORT_IB,
	RDMA_TRANSPORT_IWARP,
	RDMA_TRANSPORT_USNIC,
	RDMA_TRANSPORT_USNIC_UDP,
	RDMA_TRANSPORT_UNSPECIFIED,
};

enum rdma_protocol_type {
	RDMA_PROTOCOL_IB,
	RDMA_PROTOCOL_IBOE,
	RDMA_PROTOCOL_IWARP,
	RDMA_PROTOCOL_USNIC_UDP
};

enum rdma_transport_type rdma_node_get_transport(unsigned int node_type);

enum rdma_network_type {
	RDMA_NETWORK_IB,
	RDMA_NETWORK_ROCE_V1,
	RDMA_NETWORK_IPV4,
	RDMA_NETWORK_IPV6
};

enum rdma_link_layer {
	IB_LINK_LAYER_UNSPECIFIED,
	IB_LINK_LAYER_INFINIBAND,
	IB_LINK_LAYER_ETHERNET,
};

/* ---------------------------------------------------------------------
 * Device capabilities and attributes
 */

enum ib_device_cap_flags {
	IB_DEVICE_RESIZE_MAX_WR = IB_UVERBS_DEVICE_RESIZE_MAX_WR,
	IB_DEVICE_BAD_PKEY_CNTR = IB_UVERBS_DEVICE_BAD_PKEY_CNTR,
	IB_DEVICE_BAD_QKEY_CNTR = IB_UVERBS_DEVICE_BAD_QKEY_CNTR,
	IB_DEVICE_RAW_MULTI = IB_UVERBS_DEVICE_RAW_MULTI,
	IB_DEVICE_AUTO_PATH_MIG = IB_UVERBS_DEVICE_AUTO_PATH_MIG,
	IB_DEVICE_CHANGE_PHY_PORT = IB_UVERBS_DEVICE_CHANGE_PHY_PORT,
	IB_DEVICE_UD_AV_PORT_ENFORCE = IB_UVERBS_DEVICE_UD_AV_PORT_ENFORCE,
	IB_DEVICE_CURR_QP_STATE_MOD = IB_UVERBS_DEVICE_CURR_QP_STATE_MOD,
	IB_DEVICE_SHUTDOWN_PORT = IB_UVERBS_DEVICE_SHUTDOWN_PORT,
	IB_DEVICE_PORT_ACTIVE_EVENT = IB_UVERBS_DEVICE_PORT_ACTIVE_EVENT,
	IB_DEVICE_SYS_IMAGE_GUID = IB_UVERBS_DEVICE_SYS_IMAGE_GUID,
	IB_DEVICE_RC_RNR_NAK_GEN = IB_UVERBS_DEVICE_RC_RNR_NAK_GEN,
	IB_DEVICE_SRQ_RESIZE = IB_UVERBS_DEVICE_SRQ_RESIZE,
	IB_DEVICE_N_NOTIFY_CQ = IB_UVERBS_DEVICE_N_NOTIFY_CQ,
	IB_DEVICE_MEM_WINDOW = IB_UVERBS_DEVICE_MEM_WINDOW,
	IB_DEVICE_UD_IP_CSUM = IB_UVERBS_DEVICE_UD_IP_CSUM,
	IB_DEVICE_XRC = IB_UVERBS_DEVICE_XRC,
	IB_DEVICE_MEM_MGT_EXTENSIONS = IB_UVERBS_DEVICE_MEM_MGT_EXTENSIONS,
	IB_DEVICE_MEM_WINDOW_TYPE_2A = IB_UVERBS_DEVICE_MEM_WINDOW_TYPE_2A,
	IB_DEVICE_MEM_WINDOW_TYPE_2B = IB_UVERBS_DEVICE_MEM_WINDOW_TYPE_2B,
	IB_DEVICE_RC_IP_CSUM = IB_UVERBS_DEVICE_RC_IP_CSUM,
	IB_DEVICE_RAW_IP_CSUM = IB_UVERBS_DEVICE_RAW_IP_CSUM,
	IB_DEVICE_MANAGED_FLOW_STEERING =
		IB_UVERBS_DEVICE_MANAGED_FLOW_STEERING,
	IB_DEVICE_RAW_SCATTER_FCS = IB_UVERBS_DEVICE_RAW_SCATTER_FCS,
	IB_DEVICE_PCI_WRITE_END_PADDING =
		IB_UVERBS_DEVICE_PCI_WRITE_END_PADDING,
	IB_DEVICE_FLUSH_GLOBAL = IB_UVERBS_DEVICE_FLUSH_GLOBAL,
	IB_DEVICE_FLUSH_PERSISTENT = IB_UVERBS_DEVICE_FLUSH_PERSISTENT,
	IB_DEVICE_ATOMIC_WRITE = IB_UVERBS_DEVICE_ATOMIC_WRITE,
};

/* Capabilities that only kernel users can see. */
enum ib_kernel_cap_flags {
	IBK_LOCAL_DMA_LKEY = 1 << 0,
	IBK_INTEGRITY_HANDOVER = 1 << 1,
	IBK_ON_DEMAND_PAGING = 1 << 2,
	IBK_SG_GAPS_REG = 1 << 3,
	IBK_ALLOW_USER_UNREG = 1 << 4,
	IBK_BLOCK_MULTICAST_LOOPBACK = 1 << 5,
	IBK_UD_TSO = 1 << 6,
	IBK_VIRTUAL_FUNCTION = 1 << 7,
	IBK_RDMA_NETDEV_OPA = 1 << 8,
};

enum ib_atomic_cap {
	IB_ATOMIC_NONE,
	IB_ATOMIC_HCA,
	IB_ATOMIC_GLOB
};

enum ib_odp_general_cap_bits {
	IB_ODP_SUPPORT = 1 << 0,
	IB_ODP_SUPPORT_IMPLICIT = 1 << 1,
};

enum ib_odp_transport_cap_bits {
	IB_ODP_SUPPORT_SEND = 1 << 0,
	IB_ODP_SUPPORT_RECV = 1 << 1,
	IB_ODP_SUPPORT_WRITE = 1 << 2,
	IB_ODP_SUPPORT_READ = 1 << 3,
	IB_ODP_SUPPORT_ATOMIC = 1 << 4,
	IB_ODP_SUPPORT_SRQ_RECV = 1 << 5,
};

struct ib_odp_caps {
	u64 general_caps;
	struct {
		u32 rc_odp_caps;
		u32 uc_odp_caps;
		u32 ud_odp_caps;
		u32 xrc_odp_caps;
	} per_transport_caps;
};

struct ib_rss_caps {
	u32 supported_qpts;
	u32 max_rwq_indirection_tables;
	u32 max_rwq_indirection_table_size;
};

enum ib_tm_cap_flags {
	IB_TM_CAP_RNDV_RC = 1 << 0,
};

struct ib_tm_caps {
	u32 max_rndv_hdr_size;
	u32 max_num_tags;
	u32 flags;
	u32 max_ops;
	u32 max_sge;
};

struct ib_cq_caps {
	u16 max_cq_moderation_count;
	u16 max_cq_moderation_period;
};

/**
 * struct ib_device_attr - what a device can do, filled by query_device
 *
 * The core caches this in ib_device.attrs when the device registers.
 */
struct ib_device_attr {
	u64			fw_ver;
	__be64			sys_image_guid;
	u64			max_mr_size;
	u64			page_size_cap;
	u32			vendor_id;
	u32			vendor_part_id;
	u32			hw_ver;
	int			max_qp;
	int			max_qp_wr;
	u64			device_cap_flags;
	u64			kernel_cap_flags;
	int			max_send_sge;
	int			max_recv_sge;
	int			max_sge_rd;
	int			max_cq;
	int			max_cqe;
	int			max_mr;
	int			max_pd;
	int			max_qp_rd_atom;
	int			max_ee_rd_atom;
	int			max_res_rd_atom;
	int			max_qp_init_rd_atom;
	int			max_ee_init_rd_atom;
	enum ib_atomic_cap	atomic_cap;
	enum ib_atomic_cap	masked_atomic_cap;
	int			max_ee;
	int			max_rdd;
	int			max_mw;
	int			max_raw_ipv6_qp;
	int			max_raw_ethy_qp;
	int			max_mcast_grp;
	int			max_mcast_qp_attach;
	int			max_total_mcast_qp_attach;
	int			max_ah;
	int			max_srq;
	int			max_srq_wr;
	int			max_srq_sge;
	unsigned int		max_fast_reg_page_list_len;
	unsigned int		max_pi_fast_reg_page_list_len;
	u16			max_pkeys;
	u8			local_ca_ack_delay;
	int			sig_prot_cap;
	int			sig_guard_cap;
	struct ib_odp_caps	odp_caps;
	u64			timestamp_mask;
	u64			hca_core_clock;	/* kHz */
	struct ib_rss_caps	rss_caps;
	u32			max_wq_type_rq;
	u32			raw_packet_caps;
	struct ib_tm_caps	tm_caps;
	struct ib_cq_caps	cq_caps;
	u64			max_dm_size;
	u32			max_sgl_rd;
};

enum ib_device_modify_flags {
	IB_DEVICE_MODIFY_SYS_IMAGE_GUID = 1 << 0,
	IB_DEVICE_MODIFY_NODE_DESC = 1 << 1
};

struct ib_device_modify {
	u64	sys_image_guid;
	char	node_desc[IB_DEVICE_NODE_DESC_MAX];
};

/* ---------------------------------------------------------------------
 * Ports
 */

enum ib_mtu {
	IB_MTU_256 = 1,
	IB_MTU_512 = 2,
	IB_MTU_1024 = 3,
	IB_MTU_2048 = 4,
	IB_MTU_4096 = 5
};

enum opa_mtu {
	OPA_MTU_8192 = 6,
	OPA_MTU_10240 = 7
};

static inline int ib_mtu_enum_to_int(enum ib_mtu mtu)
{
	if (mtu < IB_MTU_256 || mtu > IB_MTU_4096)
		return -1;
	return 128 << mtu;
}

static inline enum ib_mtu ib_mtu_int_to_enum(int mtu)
{
	if (mtu >= 4096)
		return IB_MTU_4096;
	if (mtu >= 2048)
		return IB_MTU_2048;
	if (mtu >= 1024)
		return IB_MTU_1024;
	if (mtu >= 512)
		return IB_MTU_512;
	return IB_MTU_256;
}

static inline int opa_mtu_enum_to_int(enum opa_mtu mtu)
{
	switch (mtu) {
	case OPA_MTU_8192:
		return 8192;
	case OPA_MTU_10240:
		return 10240;
	default:
		return ib_mtu_enum_to_int((enum ib_mtu)mtu);
	}
}

static inline enum opa_mtu opa_mtu_int_to_enum(int mtu)
{
	if (mtu >= 10240)
		return OPA_MTU_10240;
	if (mtu >= 8192)
		return OPA_MTU_8192;
	return (enum opa_mtu)ib_mtu_int_to_enum(mtu);
}

enum ib_port_state {
	IB_PORT_NOP = 0,
	IB_PORT_DOWN = 1,
	IB_PORT_INIT = 2,
	IB_PORT_ARMED = 3,
	IB_PORT_ACTIVE = 4,
	IB_PORT_ACTIVE_DEFER = 5
};

enum ib_port_phys_state {
	IB_PORT_PHYS_STATE_SLEEP = 1,
	IB_PORT_PHYS_STATE_POLLING = 2,
	IB_PORT_PHYS_STATE_DISABLED = 3,
	IB_PORT_PHYS_STATE_PORT_CONFIGURATION_TRAINING = 4,
	IB_PORT_PHYS_STATE_LINK_UP = 5,
	IB_PORT_PHYS_STATE_LINK_ERROR_RECOVERY = 6,
	IB_PORT_PHYS_STATE_PHY_TEST = 7,
};

enum ib_port_width {
	IB_WIDTH_1X = 1,
	IB_WIDTH_2X = 16,
	IB_WIDTH_4X = 2,
	IB_WIDTH_8X = 4,
	IB_WIDTH_12X = 8
};

static inline int ib_width_enum_to_int(enum ib_port_width width)
{
	switch (width) {
	case IB_WIDTH_1X:
		return 1;
	case IB_WIDTH_2X:
		return 2;
	case IB_WIDTH_4X:
		return 4;
	case IB_WIDTH_8X:
		return 8;
	case IB_WIDTH_12X:
		return 12;
	default:
		return -1;
	}
}

enum ib_port_speed {
	IB_SPEED_SDR = 1,
	IB_SPEED_DDR = 2,
	IB_SPEED_QDR = 4,
	IB_SPEED_FDR10 = 8,
	IB_SPEED_FDR = 16,
	IB_SPEED_EDR = 32,
	IB_SPEED_HDR = 64,
	IB_SPEED_NDR = 128,
	IB_SPEED_XDR = 256,
};

/**
 * struct ib_port_attr - the state of one port, filled by query_port
 */
struct ib_port_attr {
	u64			subnet_prefix;
	enum ib_port_state	state;
	enum ib_mtu		max_mtu;
	enum ib_mtu		active_mtu;
	u32			phys_mtu;
	int			gid_tbl_len;
	unsigned int		ip_gids:1;
	u32			port_cap_flags;	/* PortInfo:CapabilityMask */
	u32			max_msg_sz;
	u32			bad_pkey_cntr;
	u32			qkey_viol_cntr;
	u16			pkey_tbl_len;
	u32			sm_lid;
	u32			lid;
	u8			lmc;
	u8			max_vl_num;
	u8			sm_sl;
	u8			subnet_timeout;
	u8			init_type_reply;
	u8			active_width;
	u16			active_speed;
	u8			phys_state;
	u16			port_cap_flags2;
};

enum ib_port_modify_flags {
	IB_PORT_SHUTDOWN = 1,
	IB_PORT_INIT_TYPE = (1 << 2),
	IB_PORT_RESET_QKEY_CNTR = (1 << 3),
	IB_PORT_OPA_MASK_CHG = (1 << 4)
};

struct ib_port_modify {
	u32	set_port_cap_mask;
	u32	clr_port_cap_mask;
	u8	init_type;
};

/*
 * Core capability bits of a port, set by the driver in
 * ib_port_immutable.core_cap_flags.  The RDMA_CORE_PORT_* sets below are
 * what each kind of port usually has.
 */
#define RDMA_CORE_CAP_IB_MAD		0x00000001
#define RDMA_CORE_CAP_IB_SMI		0x00000002
#define RDMA_CORE_CAP_IB_CM		0x00000004
#define RDMA_CORE_CAP_IW_CM		0x00000008
#define RDMA_CORE_CAP_IB_SA		0x00000010
#define RDMA_CORE_CAP_OPA_MAD		0x00000020

#define RDMA_CORE_CAP_AF_IB		0x00001000
#define RDMA_CORE_CAP_ETH_AH		0x00002000
#define RDMA_CORE_CAP_OPA_AH		0x00004000
#define RDMA_CORE_CAP_IB_GRH_REQUIRED	0x00008000

#define RDMA_CORE_CAP_PROT_IB		0x00100000
#define RDMA_CORE_CAP_PROT_ROCE		0x00200000
#define RDMA_CORE_CAP_PROT_IWARP	0x00400000
#define RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP 0x00800000
#define RDMA_CORE_CAP_PROT_RAW_PACKET	0x01000000
#define RDMA_CORE_CAP_PROT_USNIC	0x02000000

#define RDMA_CORE_PORT_IB_GRH_REQUIRED	(RDMA_CORE_CAP_IB_GRH_REQUIRED | \
					 RDMA_CORE_CAP_PROT_ROCE | \
					 RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP)

#define RDMA_CORE_PORT_IBA_IB		(RDMA_CORE_CAP_PROT_IB | \
					 RDMA_CORE_CAP_IB_MAD | \
					 RDMA_CORE_CAP_IB_SMI | \
					 RDMA_CORE_CAP_IB_CM | \
					 RDMA_CORE_CAP_IB_SA | \
					 RDMA_CORE_CAP_AF_IB)
#define RDMA_CORE_PORT_IBA_ROCE		(RDMA_CORE_CAP_PROT_ROCE | \
					 RDMA_CORE_CAP_IB_MAD | \
					 RDMA_CORE_CAP_IB_CM | \
					 RDMA_CORE_CAP_AF_IB | \
					 RDMA_CORE_CAP_ETH_AH)
#define RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP \
					(RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP | \
					 RDMA_CORE_CAP_IB_MAD | \
					 RDMA_CORE_CAP_IB_CM | \
					 RDMA_CORE_CAP_AF_IB | \
					 RDMA_CORE_CAP_ETH_AH)
#define RDMA_CORE_PORT_IWARP		(RDMA_CORE_CAP_PROT_IWARP | \
					 RDMA_CORE_CAP_IW_CM)
#define RDMA_CORE_PORT_INTEL_OPA	(RDMA_CORE_PORT_IBA_IB | \
					 RDMA_CORE_CAP_OPA_MAD)
#define RDMA_CORE_PORT_RAW_PACKET	(RDMA_CORE_CAP_PROT_RAW_PACKET)
#define RDMA_CORE_PORT_USNIC		(RDMA_CORE_CAP_PROT_USNIC)

/**
 * struct ib_port_immutable - port properties fixed for the device's life
 * @pkey_tbl_len: P_Key table size
 * @gid_tbl_len: GID table size
 * @core_cap_flags: RDMA_CORE_CAP_* bits
 * @max_mad_size: largest MAD the port handles
 */
struct ib_port_immutable {
	int	pkey_tbl_len;
	int	gid_tbl_len;
	u32	core_cap_flags;
	u32	max_mad_size;
};

/**
 * struct ib_port_cache - the core's copy of a port's tables
 * @subnet_prefix: cached subnet prefix
 * @pkey: P_Key table, replaced as a whole on refresh
 * @gid: GID table
 * @lmc: cached LMC
 * @port_state: cached port state
 *
 * @pkey, @lmc, @port_state and @subnet_prefix are read and replaced under
 * ib_device.cache_lock; the GID table has its own locks (core/cache.c).
 */
struct ib_port_cache {
	u64			subnet_prefix;
	struct ib_pkey_cache	*pkey;
	struct ib_gid_table	*gid;
	u8			lmc;
	enum ib_port_state	port_state;
};

/**
 * struct ib_port_data - per-port state the core keeps for a device
 * @ib_dev: the device
 * @immutable: what get_port_immutable reported
 * @pkey_list_lock: protects @pkey_list
 * @netdev_lock: serialises changes of @netdev
 * @pkey_list: P_Key users (security); unused until the security code
 * @cache: GID/P_Key cache
 * @netdev: the net device bound to the port (RoCE, iWARP), RCU protected
 * @netdev_tracker: reference tracker of @netdev
 * @ndev_hash_link: entry in the core's netdev to port hash
 * @sysfs: the port's sysfs directory object
 */
struct ib_port_data {
	struct ib_device		*ib_dev;
	struct ib_port_immutable	immutable;
	spinlock_t			pkey_list_lock;	/* @pkey_list */
	spinlock_t			netdev_lock;	/* @netdev writers */
	struct list_head		pkey_list;
	struct ib_port_cache		cache;
	struct net_device __rcu		*netdev;
	netdevice_tracker		netdev_tracker;
	struct hlist_node		ndev_hash_link;
	struct ib_port			*sysfs;
};

/* ---------------------------------------------------------------------
 * Asynchronous events
 */

enum ib_event_type {
	IB_EVENT_CQ_ERR,
	IB_EVENT_QP_FATAL,
	IB_EVENT_QP_REQ_ERR,
	IB_EVENT_QP_ACCESS_ERR,
	IB_EVENT_COMM_EST,
	IB_EVENT_SQ_DRAINED,
	IB_EVENT_PATH_MIG,
	IB_EVENT_PATH_MIG_ERR,
	IB_EVENT_DEVICE_FATAL,
	IB_EVENT_PORT_ACTIVE,
	IB_EVENT_PORT_ERR,
	IB_EVENT_LID_CHANGE,
	IB_EVENT_PKEY_CHANGE,
	IB_EVENT_SM_CHANGE,
	IB_EVENT_SRQ_ERR,
	IB_EVENT_SRQ_LIMIT_REACHED,
	IB_EVENT_QP_LAST_WQE_REACHED,
	IB_EVENT_CLIENT_REREGISTER,
	IB_EVENT_GID_CHANGE,
	IB_EVENT_WQ_FATAL,
};

const char *__attribute_const__ ib_event_msg(enum ib_event_type event);

struct ib_event {
	struct ib_device	*device;
	union {
		struct ib_cq	*cq;
		struct ib_qp	*qp;
		struct ib_srq	*srq;
		struct ib_wq	*wq;
		u32		port_num;
	} element;
	enum ib_event_type	event;
};

struct ib_event_handler {
	struct ib_device *device;
	void		(*handler)(struct ib_event_handler *handler,
				   struct ib_event *event);
	struct list_head list;
};

#define INIT_IB_EVENT_HANDLER(_ptr, _device, _handler)		\
	do {							\
		(_ptr)->device = _device;			\
		(_ptr)->handler = _handler;			\
		INIT_LIST_HEAD(&(_ptr)->list);			\
	} while (0)

/* ---------------------------------------------------------------------
 * Driver operations
 */

enum rdma_netdev_t {
	RDMA_NETDEV_OPA_VNIC,
	RDMA_NETDEV_IPOIB,
};

enum ib_cq_notify_flags {
	IB_CQ_SOLICITED			= 1 << 0,
	IB_CQ_NEXT_COMP			= 1 << 1,
	IB_CQ_SOLICITED_MASK		= IB_CQ_SOLICITED | IB_CQ_NEXT_COMP,
	IB_CQ_REPORT_MISSED_EVENTS	= 1 << 2,
};

enum ib_poll_context {
	IB_POLL_SOFTIRQ,	/* poll from softirq context */
	IB_POLL_WORKQUEUE,	/* poll from workqueue */
	IB_POLL_UNBOUND_WORKQUEUE, /* poll from unbound workqueue */
	IB_POLL_LAST_POOL_TYPE = IB_POLL_UNBOUND_WORKQUEUE,

	IB_POLL_DIRECT,		/* caller context, no hw completions */
};

enum ib_srq_attr_mask {
	IB_SRQ_MAX_WR	= 1 << 0,
	IB_SRQ_LIMIT	= 1 << 1,
};

enum ib_mr_type {
	IB_MR_TYPE_MEM_REG,
	IB_MR_TYPE_SG_GAPS,
	IB_MR_TYPE_DM,
	IB_MR_TYPE_USER,
	IB_MR_TYPE_DMA,
	IB_MR_TYPE_INTEGRITY,
};

/*
 * Objects the core allocates for the driver.  The driver's structure
 * embeds the ib_* one; INIT_RDMA_OBJ_SIZE() records the size of the whole
 * and checks at build time that the ib_* member comes first.
 */
#define DECLARE_RDMA_OBJ_SIZE(ib_struct) size_t size_##ib_struct

#define INIT_RDMA_OBJ_SIZE(ib_struct, drv_struct, member)		\
	.size_##ib_struct =						\
		(sizeof(struct drv_struct) +				\
		 BUILD_BUG_ON_ZERO(offsetof(struct drv_struct, member)) +	\
		 BUILD_BUG_ON_ZERO(					\
			!__same_type(((struct drv_struct *)NULL)->member,	\
				     struct ib_struct)))

#define rdma_zalloc_drv_obj_gfp(ib_dev, ib_type, gfp)			\
	((struct ib_type *)rdma_zalloc_obj(ib_dev,			\
		(ib_dev)->ops.size_##ib_type, gfp, false))

#define rdma_zalloc_drv_obj_numa(ib_dev, ib_type)			\
	((struct ib_type *)rdma_zalloc_obj(ib_dev,			\
		(ib_dev)->ops.size_##ib_type, GFP_KERNEL, true))

#define rdma_zalloc_drv_obj(ib_dev, ib_type)				\
	rdma_zalloc_drv_obj_gfp(ib_dev, ib_type, GFP_KERNEL)

/**
 * struct ib_device_ops - what a driver implements
 *
 * A driver fills one (or several partial) tables and hands them to
 * ib_set_device_ops(); a member already set is never overwritten, so a
 * later table only adds.  Every op is optional unless the core says
 * otherwise (query_device, query_port, get_port_immutable are mandatory
 * for registration).
 */
struct ib_device_ops {
	struct module *owner;
	enum rdma_driver_id driver_id;
	u32 uverbs_abi_ver;
	unsigned int uverbs_no_driver_id_binding:1;

	/* sysfs groups the driver adds to the device and to each port */
	const struct attribute_group *device_group;
	const struct attribute_group **port_groups;

	/* data path */
	int (*post_send)(struct ib_qp *qp, const struct ib_send_wr *send_wr,
			 const struct ib_send_wr **bad_send_wr);
	int (*post_recv)(struct ib_qp *qp, const struct ib_recv_wr *recv_wr,
			 const struct ib_recv_wr **bad_recv_wr);
	void (*drain_rq)(struct ib_qp *qp);
	void (*drain_sq)(struct ib_qp *qp);
	int (*poll_cq)(struct ib_cq *cq, int num_entries, struct ib_wc *wc);
	int (*peek_cq)(struct ib_cq *cq, int wc_cnt);
	int (*req_notify_cq)(struct ib_cq *cq, enum ib_cq_notify_flags flags);
	int (*post_srq_recv)(struct ib_srq *srq,
			     const struct ib_recv_wr *recv_wr,
			     const struct ib_recv_wr **bad_recv_wr);
	int (*process_mad)(struct ib_device *device, int process_mad_flags,
			   u32 port_num, const struct ib_wc *in_wc,
			   const struct ib_grh *in_grh,
			   const struct ib_mad *in_mad, struct ib_mad *out_mad,
			   size_t *out_mad_size, u16 *out_mad_pkey_index);

	/* device and ports */
	int (*query_device)(struct ib_device *device,
			    struct ib_device_attr *device_attr,
			    struct ib_udata *udata);
	int (*modify_device)(struct ib_device *device, int device_modify_mask,
			     struct ib_device_modify *device_modify);
	void (*get_dev_fw_str)(struct ib_device *device, char *str);
	const struct cpumask *(*get_vector_affinity)(struct ib_device *ibdev,
						     int comp_vector);
	int (*query_port)(struct ib_device *device, u32 port_num,
			  struct ib_port_attr *port_attr);
	int (*modify_port)(struct ib_device *device, u32 port_num,
			   int port_modify_mask,
			   struct ib_port_modify *port_modify);
	int (*get_port_immutable)(struct ib_device *device, u32 port_num,
				  struct ib_port_immutable *immutable);
	enum rdma_link_layer (*get_link_layer)(struct ib_device *device,
					       u32 port_num);
	struct net_device *(*get_netdev)(struct ib_device *device,
					 u32 port_num);
	struct net_device *(*alloc_rdma_netdev)(struct ib_device *device,
						u32 port_num,
						enum rdma_netdev_t type,
						const char *name,
						unsigned char name_assign_type,
						void (*setup)(struct net_device *));
	int (*rdma_netdev_get_params)(struct ib_device *device, u32 port_num,
				      enum rdma_netdev_t type,
				      struct rdma_netdev_alloc_params *params);
	int (*query_gid)(struct ib_device *device, u32 port_num, int index,
			 union ib_gid *gid);
	int (*add_gid)(const struct ib_gid_attr *attr, void **context);
	int (*del_gid)(const struct ib_gid_attr *attr, void **context);
	int (*query_pkey)(struct ib_device *device, u32 port_num, u16 index,
			  u16 *pkey);

	/* user contexts */
	int (*alloc_ucontext)(struct ib_ucontext *context,
			      struct ib_udata *udata);
	void (*dealloc_ucontext)(struct ib_ucontext *context);
	int (*mmap)(struct ib_ucontext *context, struct vm_area_struct *vma);
	void (*mmap_free)(struct rdma_user_mmap_entry *entry);
	void (*disassociate_ucontext)(struct ib_ucontext *ibcontext);

	/* verbs objects */
	int (*alloc_pd)(struct ib_pd *pd, struct ib_udata *udata);
	int (*dealloc_pd)(struct ib_pd *pd, struct ib_udata *udata);
	int (*create_ah)(struct ib_ah *ah, struct rdma_ah_init_attr *attr,
			 struct ib_udata *udata);
	int (*create_user_ah)(struct ib_ah *ah, struct rdma_ah_init_attr *attr,
			      struct ib_udata *udata);
	int (*modify_ah)(struct ib_ah *ah, struct rdma_ah_attr *ah_attr);
	int (*query_ah)(struct ib_ah *ah, struct rdma_ah_attr *ah_attr);
	int (*destroy_ah)(struct ib_ah *ah, u32 flags);
	int (*create_srq)(struct ib_srq *srq,
			  struct ib_srq_init_attr *srq_init_attr,
			  struct ib_udata *udata);
	int (*modify_srq)(struct ib_srq *srq, struct ib_srq_attr *srq_attr,
			  enum ib_srq_attr_mask srq_attr_mask,
			  struct ib_udata *udata);
	int (*query_srq)(struct ib_srq *srq, struct ib_srq_attr *srq_attr);
	int (*destroy_srq)(struct ib_srq *srq, struct ib_udata *udata);
	int (*create_qp)(struct ib_qp *qp, struct ib_qp_init_attr *qp_init_attr,
			 struct ib_udata *udata);
	int (*modify_qp)(struct ib_qp *qp, struct ib_qp_attr *qp_attr,
			 int qp_attr_mask, struct ib_udata *udata);
	int (*query_qp)(struct ib_qp *qp, struct ib_qp_attr *qp_attr,
			int qp_attr_mask, struct ib_qp_init_attr *qp_init_attr);
	int (*destroy_qp)(struct ib_qp *qp, struct ib_udata *udata);
	int (*create_cq)(struct ib_cq *cq, const struct ib_cq_init_attr *attr,
			 struct uverbs_attr_bundle *attrs);
	int (*modify_cq)(struct ib_cq *cq, u16 cq_count, u16 cq_period);
	int (*destroy_cq)(struct ib_cq *cq, struct ib_udata *udata);
	int (*resize_cq)(struct ib_cq *cq, int cqe, struct ib_udata *udata);
	int (*pre_destroy_cq)(struct ib_cq *cq);
	void (*post_destroy_cq)(struct ib_cq *cq);
	struct ib_mr *(*get_dma_mr)(struct ib_pd *pd, int mr_access_flags);
	struct ib_mr *(*reg_user_mr)(struct ib_pd *pd, u64 start, u64 length,
				     u64 virt_addr, int mr_access_flags,
				     struct ib_udata *udata);
	struct ib_mr *(*reg_user_mr_dmabuf)(struct ib_pd *pd, u64 offset,
					    u64 length, u64 virt_addr, int fd,
					    int mr_access_flags,
					    struct uverbs_attr_bundle *attrs);
	struct ib_mr *(*rereg_user_mr)(struct ib_mr *mr, int flags, u64 start,
				       u64 length, u64 virt_addr,
				       int mr_access_flags, struct ib_pd *pd,
				       struct ib_udata *udata);
	int (*dereg_mr)(struct ib_mr *mr, struct ib_udata *udata);
	struct ib_mr *(*alloc_mr)(struct ib_pd *pd, enum ib_mr_type mr_type,
				  u32 max_num_sg);
	struct ib_mr *(*alloc_mr_integrity)(struct ib_pd *pd,
					    u32 max_num_data_sg,
					    u32 max_num_meta_sg);
	int (*advise_mr)(struct ib_pd *pd,
			 enum ib_uverbs_advise_mr_advice advice, u32 flags,
			 struct ib_sge *sg_list, u32 num_sge,
			 struct uverbs_attr_bundle *attrs);
	int (*map_mr_sg)(struct ib_mr *mr, struct scatterlist *sg, int sg_nents,
			 unsigned int *sg_offset);
	int (*check_mr_status)(struct ib_mr *mr, u32 check_mask,
			       struct ib_mr_status *mr_status);
	int (*alloc_mw)(struct ib_mw *mw, struct ib_udata *udata);
	int (*dealloc_mw)(struct ib_mw *mw);
	int (*attach_mcast)(struct ib_qp *qp, union ib_gid *gid, u16 lid);
	int (*detach_mcast)(struct ib_qp *qp, union ib_gid *gid, u16 lid);
	int (*alloc_xrcd)(struct ib_xrcd *xrcd, struct ib_udata *udata);
	int (*dealloc_xrcd)(struct ib_xrcd *xrcd, struct ib_udata *udata);
	struct ib_flow *(*create_flow)(struct ib_qp *qp,
				       struct ib_flow_attr *flow_attr,
				       struct ib_udata *udata);
	int (*destroy_flow)(struct ib_flow *flow_id);
	int (*destroy_flow_action)(struct ib_flow_action *action);
	int (*set_vf_link_state)(struct ib_device *device, int vf, u32 port,
				 int state);
	int (*get_vf_config)(struct ib_device *device, int vf, u32 port,
			     struct ifla_vf_info *ivf);
	int (*get_vf_stats)(struct ib_device *device, int vf, u32 port,
			    struct ifla_vf_stats *stats);
	int (*get_vf_guid)(struct ib_device *device, int vf, u32 port,
			   struct ifla_vf_guid *node_guid,
			   struct ifla_vf_guid *port_guid);
	int (*set_vf_guid)(struct ib_device *device, int vf, u32 port, u64 guid,
			   int type);
	struct ib_wq *(*create_wq)(struct ib_pd *pd,
				   struct ib_wq_init_attr *init_attr,
				   struct ib_udata *udata);
	int (*destroy_wq)(struct ib_wq *wq, struct ib_udata *udata);
	int (*modify_wq)(struct ib_wq *wq, struct ib_wq_attr *attr,
			 u32 wq_attr_mask, struct ib_udata *udata);
	int (*create_rwq_ind_table)(struct ib_rwq_ind_table *ib_rwq_ind_table,
				    struct ib_rwq_ind_table_init_attr *init_attr,
				    struct ib_udata *udata);
	int (*destroy_rwq_ind_table)(struct ib_rwq_ind_table *wq_ind_table);
	struct ib_dm *(*alloc_dm)(struct ib_device *device,
				  struct ib_ucontext *context,
				  struct ib_dm_alloc_attr *attr,
				  struct uverbs_attr_bundle *attrs);
	int (*dealloc_dm)(struct ib_dm *dm, struct uverbs_attr_bundle *attrs);
	struct ib_mr *(*reg_dm_mr)(struct ib_pd *pd, struct ib_dm *dm,
				   struct ib_dm_mr_attr *attr,
				   struct uverbs_attr_bundle *attrs);
	int (*create_counters)(struct ib_counters *counters,
			       struct uverbs_attr_bundle *attrs);
	int (*destroy_counters)(struct ib_counters *counters);
	int (*read_counters)(struct ib_counters *counters,
			     struct ib_counters_read_attr *counters_read_attr,
			     struct uverbs_attr_bundle *attrs);
	int (*map_mr_sg_pi)(struct ib_mr *mr, struct scatterlist *data_sg,
			    int data_sg_nents, unsigned int *data_sg_offset,
			    struct scatterlist *meta_sg, int meta_sg_nents,
			    unsigned int *meta_sg_offset);

	/* statistics and resource dumps */
	struct rdma_hw_stats *(*alloc_hw_device_stats)(struct ib_device *device);
	struct rdma_hw_stats *(*alloc_hw_port_stats)(struct ib_device *device,
						     u32 port_num);
	int (*get_hw_stats)(struct ib_device *device,
			    struct rdma_hw_stats *stats, u32 port, int index);
	int (*modify_hw_stat)(struct ib_device *device, u32 port,
			      unsigned int counter_index, bool enable);
	int (*fill_res_mr_entry)(struct sk_buff *msg, struct ib_mr *ibmr);
	int (*fill_res_mr_entry_raw)(struct sk_buff *msg, struct ib_mr *ibmr);
	int (*fill_res_cq_entry)(struct sk_buff *msg, struct ib_cq *ibcq);
	int (*fill_res_cq_entry_raw)(struct sk_buff *msg, struct ib_cq *ibcq);
	int (*fill_res_qp_entry)(struct sk_buff *msg, struct ib_qp *ibqp);
	int (*fill_res_qp_entry_raw)(struct sk_buff *msg, struct ib_qp *ibqp);
	int (*fill_res_cm_id_entry)(struct sk_buff *msg, struct rdma_cm_id *id);
	int (*fill_res_srq_entry)(struct sk_buff *msg, struct ib_srq *ib_srq);
	int (*fill_res_srq_entry_raw)(struct sk_buff *msg,
				      struct ib_srq *ib_srq);

	/*
	 * Device life cycle: enable_driver runs once registration is
	 * complete; dealloc_driver, when set, makes the core free the driver's
	 * resources itself after unregistration (ib_unregister_driver and
	 * ib_unregister_device_queued need it).
	 */
	int (*enable_driver)(struct ib_device *dev);
	void (*dealloc_driver)(struct ib_device *dev);

	/* iWARP connection manager */
	void (*iw_add_ref)(struct ib_qp *qp);
	void (*iw_rem_ref)(struct ib_qp *qp);
	struct ib_qp *(*iw_get_qp)(struct ib_device *device, int qpn);
	int (*iw_connect)(struct iw_cm_id *cm_id,
			  struct iw_cm_conn_param *conn_param);
	int (*iw_accept)(struct iw_cm_id *cm_id,
			 struct iw_cm_conn_param *conn_param);
	int (*iw_reject)(struct iw_cm_id *cm_id, const void *pdata,
			 u8 pdata_len);
	int (*iw_create_listen)(struct iw_cm_id *cm_id, int backlog);
	int (*iw_destroy_listen)(struct iw_cm_id *cm_id);

	/* counters */
	int (*counter_bind_qp)(struct rdma_counter *counter, struct ib_qp *qp);
	int (*counter_unbind_qp)(struct ib_qp *qp);
	int (*counter_dealloc)(struct rdma_counter *counter);
	struct rdma_hw_stats *(*counter_alloc_stats)(struct rdma_counter *counter);
	int (*counter_update_stats)(struct rdma_counter *counter);
	int (*fill_stat_mr_entry)(struct sk_buff *msg, struct ib_mr *ibmr);
	int (*query_ucontext)(struct ib_ucontext *context,
			      struct uverbs_attr_bundle *attrs);
	int (*get_numa_node)(struct ib_device *dev);
	struct ib_device *(*add_sub_dev)(struct ib_device *parent,
					 enum rdma_nl_dev_type type,
					 const char *name);
	void (*del_sub_dev)(struct ib_device *sub_dev);

	DECLARE_RDMA_OBJ_SIZE(ib_ah);
	DECLARE_RDMA_OBJ_SIZE(ib_counters);
	DECLARE_RDMA_OBJ_SIZE(ib_cq);
	DECLARE_RDMA_OBJ_SIZE(ib_mw);
	DECLARE_RDMA_OBJ_SIZE(ib_pd);
	DECLARE_RDMA_OBJ_SIZE(ib_qp);
	DECLARE_RDMA_OBJ_SIZE(ib_rwq_ind_table);
	DECLARE_RDMA_OBJ_SIZE(ib_srq);
	DECLARE_RDMA_OBJ_SIZE(ib_ucontext);
	DECLARE_RDMA_OBJ_SIZE(ib_xrcd);
};

/* ---------------------------------------------------------------------
 * The device
 */

/**
 * struct ib_core_device - the sysfs-visible part of an ib_device
 * @dev: the class device, first so ib_device can overlay it
 * @rdma_net: network namespace the device belongs to
 * @ports_kobj: the "ports" directory
 * @port_list: the per-port sysfs objects
 * @owner: the ib_device this belongs to
 */
struct ib_core_device {
	struct device		dev;
	possible_net_t		rdma_net;
	struct kobject		*ports_kobj;
	struct list_head	port_list;
	struct ib_device	*owner;
};

/**
 * struct ib_device - an RDMA device
 *
 * Allocated by the driver with ib_alloc_device(), registered with
 * ib_register_device(), released with ib_dealloc_device().
 *
 * Locking:
 *  - @event_handler_rwsem protects @event_handler_list; handlers run with
 *    it held for read.
 *  - @client_data_rwsem protects @client_data against a client being
 *    added or removed; readers of one entry use the xarray's own RCU.
 *  - @unregistration_lock serialises the unregistration of the device.
 *  - @cache_lock protects the per-port caches in @port_data.
 *  - @refcount counts registration users: ib_device_try_get() succeeds
 *    only while it is non-zero, and unregistration drops the initial
 *    reference and waits on @unreg_completion for the rest.
 */
struct ib_device {
	struct device			*dma_device;
	struct ib_device_ops		ops;
	char				name[IB_DEVICE_NAME_MAX];
	struct rcu_head			rcu_head;

	struct list_head		event_handler_list;
	struct rw_semaphore		event_handler_rwsem;

	spinlock_t			qp_open_list_lock; /* shared QP opens */

	struct rw_semaphore		client_data_rwsem;
	struct xarray			client_data;
	struct mutex			unregistration_lock; /* see above */

	rwlock_t			cache_lock;
	struct ib_port_data		*port_data;

	int				num_comp_vectors;

	union {
		struct device		dev;
		struct ib_core_device	coredev;
	};

	/* device attribute groups: core, hw counters, driver, NULL */
	const struct attribute_group	*groups[4];
	u8				hw_stats_attr_index;

	u64				uverbs_cmd_mask;

	char				node_desc[IB_DEVICE_NODE_DESC_MAX];
	__be64				node_guid;
	u32				local_dma_lkey;
	u16				is_switch:1;
	u16				kverbs_provider:1;
	u16				use_cq_dim:1;
	u8				node_type;
	u32				phys_port_cnt;
	struct ib_device_attr		attrs;
	struct hw_stats_device_data	*hw_stats_data;

	u32				index;

	spinlock_t			cq_pools_lock;	/* @cq_pools */
	struct list_head		cq_pools[IB_POLL_LAST_POOL_TYPE + 1];

	struct rdma_restrack_root	*res;

	const struct uapi_definition	*driver_def;

	refcount_t			refcount;
	struct completion		unreg_completion;
	struct work_struct		unregistration_work;

	const struct rdma_link_ops	*link_ops;

	struct mutex			compat_devs_mutex; /* @compat_devs */
	struct xarray			compat_devs;

	char				iw_ifname[IFNAMSIZ];
	u32				iw_driver_flags;
	u32				lag_flags;

	struct mutex			subdev_lock;	/* @subdev_list_head */
	struct list_head		subdev_list_head;

	enum rdma_nl_dev_type		type;
	struct ib_device		*parent;
	struct list_head		subdev_list;

	enum rdma_nl_name_assign_type	name_assign_type;
};

static inline void *rdma_zalloc_obj(struct ib_device *dev, size_t size,
				    gfp_t gfp, bool is_numa_aware)
{
	if (is_numa_aware && dev->ops.get_numa_node)
		return kzalloc_node(size, gfp, dev->ops.get_numa_node(dev));
	return kzalloc(size, gfp);
}

struct ib_client_nl_info;

/**
 * struct ib_client - a user of RDMA devices (a ULP or a core service)
 * @name: client name, shown in netlink
 * @add: called for every registered device, whichever comes first;
 *       returning an error other than -EOPNOTSUPP is logged, and either
 *       way the client is then not attached to that device
 * @remove: called when the device or the client goes away
 * @rename: called after the device was renamed
 * @get_nl_info: netlink char-device information of the client
 * @get_global_nl_info: the same, for clients without a device
 * @get_net_dev_by_params: find the net device a request belongs to
 * @uses: internal reference held while the client is being used
 * @uses_zero: completes when @uses drops to zero
 * @client_id: index in the core's client table
 * @no_kverbs_req: the client does not need kernel verbs
 */
struct ib_client {
	const char *name;
	int (*add)(struct ib_device *ibdev);
	void (*remove)(struct ib_device *ibdev, void *client_data);
	void (*rename)(struct ib_device *dev, void *client_data);
	int (*get_nl_info)(struct ib_device *ibdev, void *client_data,
			   struct ib_client_nl_info *res);
	int (*get_global_nl_info)(struct ib_client_nl_info *res);
	struct net_device *(*get_net_dev_by_params)(struct ib_device *dev,
						    u32 port, u16 pkey,
						    const union ib_gid *gid,
						    const struct sockaddr *addr,
						    void *client_data);

	refcount_t uses;
	struct completion uses_zero;
	u32 client_id;

	u8 no_kverbs_req:1;
};

/**
 * struct ib_block_iter - iterator over DMA blocks of a scatterlist
 */
struct ib_block_iter {
	struct scatterlist	*__sg;
	dma_addr_t		__dma_addr;
	size_t			__sg_numblocks;
	unsigned int		__sg_nents;
	unsigned int		__sg_advance;
	unsigned int		__pg_bit;
};

/* ---------------------------------------------------------------------
 * Registration
 */

struct ib_device *_ib_alloc_device(size_t size);

/**
 * ib_alloc_device - allocate a driver's device structure
 * @drv_struct: the driver's structure, which embeds a struct ib_device
 * @member: the name of the ib_device member, which must come first
 */
#define ib_alloc_device(drv_struct, member)				\
	container_of(_ib_alloc_device(sizeof(struct drv_struct) +	\
				      BUILD_BUG_ON_ZERO(offsetof(	\
					struct drv_struct, member))),	\
		     struct drv_struct, member)

void ib_dealloc_device(struct ib_device *device);
void ib_get_device_fw_str(struct ib_device *device, char *str);
int ib_register_device(struct ib_device *device, const char *name,
		       struct device *dma_device);
void ib_unregister_device(struct ib_device *device);
void ib_unregister_driver(enum rdma_driver_id driver_id);
void ib_unregister_device_and_put(struct ib_device *device);
void ib_unregister_device_queued(struct ib_device *ib_dev);
int ib_device_rename(struct ib_device *ibdev, const char *name);
void ib_set_device_ops(struct ib_device *device,
		       const struct ib_device_ops *ops);

int ib_register_client(struct ib_client *client);
void ib_unregister_client(struct ib_client *client);

/**
 * ib_get_client_data - the data a client attached to a device
 * @device: the device
 * @client: the client
 *
 * Valid only between the client's add() and remove() for the device.
 */
static inline void *ib_get_client_data(struct ib_device *device,
				       struct ib_client *client)
{
	return xa_load(&device->client_data, client->client_id);
}

void ib_set_client_data(struct ib_device *device, struct ib_client *client,
			void *data);

bool ib_device_try_get(struct ib_device *device);
void ib_device_put(struct ib_device *device);
struct ib_device *ib_device_get_by_name(const char *name,
					enum rdma_driver_id driver_id);
struct ib_device *ib_device_get_by_netdev(struct net_device *ndev,
					  enum rdma_driver_id driver_id);
int ib_device_set_netdev(struct ib_device *ib_dev, struct net_device *ndev,
			 u32 port);
struct net_device *ib_device_get_netdev(struct ib_device *ib_dev,
					u32 port);
struct ib_device *ib_device_get_by_index(const struct net *net, u32 index);

void ib_register_event_handler(struct ib_event_handler *event_handler);
void ib_unregister_event_handler(struct ib_event_handler *event_handler);
void ib_dispatch_event(const struct ib_event *event);

int ib_query_port(struct ib_device *device, u32 port_num,
		  struct ib_port_attr *port_attr);
enum rdma_link_layer rdma_port_get_link_layer(struct ib_device *device,
					      u32 port_num);
int ib_query_pkey(struct ib_device *device, u32 port_num, u16 index,
		  u16 *pkey);
int ib_modify_device(struct ib_device *device, int device_modify_mask,
		     struct ib_device_modify *device_modify);
int ib_modify_port(struct ib_device *device, u32 port_num,
		   int port_modify_mask, struct ib_port_modify *port_modify);
int ib_find_gid(struct ib_device *device, union ib_gid *gid,
		u32 *port_num, u16 *index);
int ib_find_pkey(struct ib_device *device, u32 port_num, u16 pkey,
		 u16 *index);
int rdma_query_gid(struct ib_device *device, u32 port_num, int index,
		   union ib_gid *gid);
bool rdma_dev_access_netns(const struct ib_device *device,
			   const struct net *net);
int rdma_compatdev_set(u8 enable);

/**
 * rdma_device_to_ibdev - the ib_device behind a struct device
 * @device: a device of class infiniband
 */
static inline struct ib_device *rdma_device_to_ibdev(struct device *device)
{
	struct ib_core_device *coredev =
		container_of(device, struct ib_core_device, dev);

	return coredev->owner;
}

/**
 * rdma_device_to_drv_device - the driver's structure behind a device
 * @dev: a device of class infiniband
 * @drv_dev_struct: the driver's structure type
 * @ibdev_member: its ib_device member
 */
#define rdma_device_to_drv_device(dev, drv_dev_struct, ibdev_member)	\
	container_of(rdma_device_to_ibdev(dev), drv_dev_struct, ibdev_member)

/**
 * rdma_start_port - first port number of a device
 * @device: the device
 *
 * Switches have only port 0; HCAs number their ports from 1.
 */
static inline u32 rdma_start_port(const struct ib_device *device)
{
	return device->is_switch ? 0 : 1;
}

/**
 * rdma_end_port - last port number of a device
 * @device: the device
 */
static inline u32 rdma_end_port(const struct ib_device *device)
{
	return device->is_switch ? 0 : device->phys_port_cnt;
}

/**
 * rdma_for_each_port - iterate over a device's port numbers
 * @device: the device
 * @iter: a u32 (or unsigned int) loop variable
 */
#define rdma_for_each_port(device, iter)				\
	for (iter = rdma_start_port((device) +			\
				    BUILD_BUG_ON_ZERO(!__same_type(u32,	\
							   iter)));	\
	     (iter) <= rdma_end_port(device); (iter)++)

static inline int rdma_is_port_valid(const struct ib_device *device,
				     unsigned int port)
{
	return port >= rdma_start_port(device) &&
	       port <= rdma_end_port(device);
}

static inline u32 rdma_core_cap(const struct ib_device *device, u32 port_num)
{
	return device->port_data[port_num].immutable.core_cap_flags;
}

static inline bool rdma_is_grh_required(const struct ib_device *device,
					u32 port_num)
{
	return rdma_core_cap(device, port_num) &
	       RDMA_CORE_PORT_IB_GRH_REQUIRED;
}

static inline bool rdma_protocol_ib(const struct ib_device *device,
				    u32 port_num)
{
	return rdma_core_cap(device, port_num) & RDMA_CORE_CAP_PROT_IB;
}

static inline bool rdma_protocol_roce(const struct ib_device *device,
				      u32 port_num)
{
	return rdma_core_cap(device, port_num) &
	       (RDMA_CORE_CAP_PROT_ROCE | RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP);
}

static inline bool rdma_protocol_roce_udp_encap(const struct ib_device *device,
						u32 port_num)
{
	return rdma_core_cap(device, port_num) &
	       RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP;
}

static inline bool rdma_protocol_roce_eth_encap(const struct ib_device *device,
						u32 port_num)
{
	return rdma_core_cap(device, port_num) & RDMA_CORE_CAP_PROT_ROCE;
}

static inline bool rdma_protocol_iwarp(const struct ib_device *device,
				       u32 port_num)
{
	return rdma_core_cap(device, port_num) & RDMA_CORE_CAP_PROT_IWARP;
}

static inline bool rdma_ib_or_roce(const struct ib_device *device,
				   u32 port_num)
{
	return rdma_protocol_ib(device, port_num) ||
	       rdma_protocol_roce(device, port_num);
}

static inline bool rdma_protocol_raw_packet(const struct ib_device *device,
					    u32 port_num)
{
	return rdma_core_cap(device, port_num) & RDMA_CORE_CAP_PROT_RAW_PACKET;
}

static inline bool rdma_protocol_usnic(const struct ib_device *device,
				       u32 port_num)
{
	return rdma_core_cap(device, port_num) & RDMA_CORE_CAP_PROT_USNIC;
}

static inline bool rdma_cap_ib_mad(const struct ib_device *device,
				   u32 port_num)
{
	return rdma_core_cap(device, port_num) & RDMA_CORE_CAP_IB_MAD;
}

static inline bool rdma_cap_opa_mad(struct ib_device *device, u32 port_num)
{
	return rdma_core_cap(device, port_num) & RDMA_CORE_CAP_OPA_MAD;
}

static inline bool rdma_cap_ib_smi(const struct ib_device *device,
				   u32 port_num)
{
	return rdma_core_cap(device, port_num) & RDMA_CORE_CAP_IB_SMI;
}

static inline bool rdma_cap_ib_cm(const struct ib_device *device,
				  u32 port_num)
{
	return rdma_core_cap(device, port_num) & RDMA_CORE_CAP_IB_CM;
}

static inline bool rdma_cap_iw_cm(const struct ib_device *device,
				  u32 port_num)
{
	return rdma_core_cap(device, port_num) & RDMA_CORE_CAP_IW_CM;
}

static inline bool rdma_cap_ib_sa(const struct ib_device *device,
				  u32 port_num)
{
	return rdma_core_cap(device, port_num) & RDMA_CORE_CAP_IB_SA;
}

static inline bool rdma_cap_ib_mcast(const struct ib_device *device,
				     u32 port_num)
{
	return rdma_cap_ib_sa(device, port_num);
}

static inline bool rdma_cap_af_ib(const struct ib_device *device,
				  u32 port_num)
{
	return rdma_core_cap(device, port_num) & RDMA_CORE_CAP_AF_IB;
}

static inline bool rdma_cap_eth_ah(const struct ib_device *device,
				   u32 port_num)
{
	return rdma_core_cap(device, port_num) & RDMA_CORE_CAP_ETH_AH;
}

static inline bool rdma_cap_opa_ah(struct ib_device *device, u32 port_num)
{
	return (rdma_core_cap(device, port_num) & RDMA_CORE_CAP_OPA_AH) ==
	       RDMA_CORE_CAP_OPA_AH;
}

/**
 * rdma_max_mad_size - largest MAD a port handles
 * @device: the device
 * @port_num: the port
 *
 * Return: the size in bytes, 0 when the port has no MAD support.
 */
static inline size_t rdma_max_mad_size(const struct ib_device *device,
				       u32 port_num)
{
	return device->port_data[port_num].immutable.max_mad_size;
}

static inline bool rdma_cap_roce_gid_table(const struct ib_device *device,
					   u32 port_num)
{
	return rdma_protocol_roce(device, port_num) && device->ops.add_gid &&
	       device->ops.del_gid;
}

static inline bool rdma_cap_read_inv(struct ib_device *dev, u32 port_num)
{
	/* iWARP needs an MR for the READ sink; see rdma_rw. */
	return rdma_protocol_iwarp(dev, port_num);
}

static inline bool rdma_core_cap_opa_port(struct ib_device *device,
					  u32 port_num)
{
	return (rdma_core_cap(device, port_num) & RDMA_CORE_PORT_INTEL_OPA) ==
	       RDMA_CORE_PORT_INTEL_OPA;
}

static inline bool rdma_cap_opa_vnic(struct ib_device *device)
{
	return !!(device->attrs.kernel_cap_flags & IBK_RDMA_NETDEV_OPA);
}

/**
 * ib_mark_name_assigned_by_user - record that user space chose the name
 * @ibdev: the device, before ib_register_device()
 *
 * For drivers that create devices on request ("rdma link add"); nldev
 * reports it as RDMA_NLDEV_ATTR_NAME_ASSIGN_TYPE.
 */
static inline void ib_mark_name_assigned_by_user(struct ib_device *ibdev)
{
	ibdev->name_assign_type = RDMA_NAME_ASSIGN_TYPE_USER;
}

#endif /* IB_VERBS_H */
