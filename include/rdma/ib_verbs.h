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
#include <linux/cgroup_rdma.h>
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
#include <linux/scatterlist.h>
#include <linux/ratelimit.h>
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
#include <rdma/rdma_counter.h>
#include <rdma/restrack.h>
#include <rdma/signature.h>

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
struct ib_ucq_object;
struct ib_uobject;
struct ib_uqp_object;
struct ib_usrq_object;
struct ib_uwq_object;
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

enum {
	/* the SA's well-known GUID: locally administered, 2 */
	IB_SA_WELL_KNOWN_GUID	= BIT_ULL(57) | 2,
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

/* Flags of struct rdma_stat_desc. */
enum ib_stat_flag {
	/* turned on and off by the user (STAT_SET, ops.modify_hw_stat) */
	IB_STAT_FLAG_OPTIONAL = 1 << 0,
};

/**
 * struct rdma_stat_desc - what one hardware counter is
 * @name: its name in sysfs hw_counters/ and in nldev (static string)
 * @flags: enum ib_stat_flag
 * @priv: the driver's, never read by the core
 */
struct rdma_stat_desc {
	const char *name;
	unsigned int flags;
	const void *priv;
};

/**
 * struct rdma_hw_stats - a set of hardware counters and their last values
 * @lock: serialises reads of the set (ops.get_hw_stats fills @value under
 *	it), changes of @lifespan and of @is_disabled
 * @timestamp: jiffies of the last complete read by the core
 * @lifespan: how long, in jiffies, the core reuses @value before it asks
 *	the driver again
 * @descs: the counters, @num_counters entries
 * @is_disabled: a bit per counter: an optional counter that is off
 * @num_counters: entries of @descs and @value
 * @value: the values the driver last wrote
 *
 * Allocated by the driver with rdma_alloc_hw_stats_struct() in its
 * alloc_hw_*_stats or counter_alloc_stats op; the core frees it.
 */
struct rdma_hw_stats {
	struct mutex	lock;	/* see above */
	unsigned long	timestamp;
	unsigned long	lifespan;
	const struct rdma_stat_desc *descs;
	unsigned long	*is_disabled;
	int		num_counters;
	u64		value[] __counted_by(num_counters);
};

/* The default @lifespan of rdma_alloc_hw_stats_struct(), in milliseconds. */
#define RDMA_HW_STATS_DEFAULT_LIFESPAN 10

struct rdma_hw_stats *
rdma_alloc_hw_stats_struct(const struct rdma_stat_desc *descs,
			   int num_counters, unsigned long lifespan);
void rdma_free_hw_stats_struct(struct rdma_hw_stats *stats);

/* Flags of ib_device_ops.process_mad: which keys the caller checked already. */
enum ib_process_mad_flags {
	IB_MAD_IGNORE_MKEY	= 1,
	IB_MAD_IGNORE_BKEY	= 2,
	IB_MAD_IGNORE_ALL	= IB_MAD_IGNORE_MKEY | IB_MAD_IGNORE_BKEY
};

/*
 * What ib_device_ops.process_mad did with a MAD: SUCCESS unless it failed,
 * REPLY when *out_mad is to be sent back, CONSUMED when nobody else (no
 * agent) is to see the MAD.
 */
enum ib_mad_result {
	IB_MAD_RESULT_FAILURE	= 0,
	IB_MAD_RESULT_SUCCESS	= 1 << 0,
	IB_MAD_RESULT_REPLY	= 1 << 1,
	IB_MAD_RESULT_CONSUMED	= 1 << 2
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
 * ib_device.cache_lock; the GID table has its own locks (core/ib_core/cache.c).
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
 * @port_counter: the port's counter mode, its per-QP counters' history and
 *	its hardware counters (core/ib_core/counters.c)
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
	struct rdma_port_counter	port_counter;
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

/**
 * struct rdma_netdev - what a ULP's net device on an RDMA port keeps first
 * in its private area (netdev_priv()), whoever created it
 * @clnt_priv: the ULP's own state (IPoIB: its per-interface private data)
 * @hca: the RDMA device of the port
 * @port_num: the port
 * @mtu: the link's IPoIB MTU, set by the ULP
 * @free_rdma_netdev: releases what the driver's initialisation set up
 *	(needed by OPA VNIC only)
 * @set_id: tell the driver the interface's id (IPoIB: the QPN's low bits)
 * @send: send @skb to the address @address, remote QP @dqpn
 * @attach_mcast: attach the interface's QP to a multicast group, setting
 *	its Q_Key to @qkey first when @set_qkey
 * @detach_mcast: detach it again
 * @tx_timeout: the net device's transmit watchdog fired
 *
 * A driver that accelerates IPoIB fills in the ops in the
 * initialize_rdma_netdev() it hands out through rdma_netdev_get_params();
 * without one the ULP provides them itself.
 */
struct rdma_netdev {
	void              *clnt_priv;
	struct ib_device  *hca;
	u32		   port_num;
	int                mtu;

	void (*free_rdma_netdev)(struct net_device *netdev);

	void (*set_id)(struct net_device *netdev, int id);
	int (*send)(struct net_device *dev, struct sk_buff *skb,
		    struct ib_ah *address, u32 dqpn);
	int (*attach_mcast)(struct net_device *dev, struct ib_device *hca,
			    union ib_gid *gid, u16 mlid,
			    int set_qkey, u32 qkey);
	int (*detach_mcast)(struct net_device *dev, struct ib_device *hca,
			    union ib_gid *gid, u16 mlid);
	void (*tx_timeout)(struct net_device *dev, unsigned int txqueue);
};

/**
 * struct rdma_netdev_alloc_params - a driver's answer to
 *	rdma_netdev_get_params()
 * @sizeof_priv: size of the net device's private area (at least
 *	sizeof(struct rdma_netdev))
 * @txqs: number of transmit queues
 * @rxqs: number of receive queues
 * @param: handed back to @initialize_rdma_netdev
 * @initialize_rdma_netdev: sets up the driver's part of a net device
 *	rdma_alloc_netdev() (or the ULP) allocated with these parameters
 */
struct rdma_netdev_alloc_params {
	size_t sizeof_priv;
	unsigned int txqs;
	unsigned int rxqs;
	void *param;

	int (*initialize_rdma_netdev)(struct ib_device *device, u32 port_num,
				      struct net_device *netdev, void *param);
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

/* ---------------------------------------------------------------------
 * Addressing: global routes, address vectors
 */

/* The 20 bits of a GRH's flow label */
#define IB_GRH_FLOWLABEL_MASK	(0x000FFFFF)

/**
 * struct ib_global_route - the GRH part of an address vector
 * @sgid_attr: referenced source GID entry (RoCE), or NULL
 * @dgid: destination GID
 * @flow_label: flow label (20 bits)
 * @sgid_index: source GID index in the port's table
 * @hop_limit: hop limit
 * @traffic_class: traffic class
 */
struct ib_global_route {
	const struct ib_gid_attr *sgid_attr;
	union ib_gid	dgid;
	u32		flow_label;
	u8		sgid_index;
	u8		hop_limit;
	u8		traffic_class;
};

/* The global route header as it travels (IBTA 8.3). */
struct ib_grh {
	__be32		version_tclass_flow;
	__be16		paylen;
	u8		next_hdr;
	u8		hop_limit;
	union ib_gid	sgid;
	union ib_gid	dgid;
};

/*
 * The 40 bytes in front of a UD receive: a GRH, or for RoCE v2 over IPv4
 * an IPv4 header in the last 20 bytes.
 */
union rdma_network_hdr {
	struct ib_grh ibgrh;
	struct {
		u8		reserved[20];
		struct iphdr	roce4grh;
	};
};

#define IB_QPN_MASK		0xFFFFFF

enum {
	IB_MULTICAST_QPN = 0xffffff
};

#define IB_LID_PERMISSIVE	cpu_to_be16(0xFFFF)
#define IB_MULTICAST_LID_BASE	cpu_to_be16(0xC000)

enum ib_ah_flags {
	IB_AH_GRH	= 1
};

enum ib_rate {
	IB_RATE_PORT_CURRENT = 0,
	IB_RATE_2_5_GBPS = 2,
	IB_RATE_5_GBPS   = 5,
	IB_RATE_10_GBPS  = 3,
	IB_RATE_20_GBPS  = 6,
	IB_RATE_30_GBPS  = 4,
	IB_RATE_40_GBPS  = 7,
	IB_RATE_60_GBPS  = 8,
	IB_RATE_80_GBPS  = 9,
	IB_RATE_120_GBPS = 10,
	IB_RATE_14_GBPS  = 11,
	IB_RATE_56_GBPS  = 12,
	IB_RATE_112_GBPS = 13,
	IB_RATE_168_GBPS = 14,
	IB_RATE_25_GBPS  = 15,
	IB_RATE_100_GBPS = 16,
	IB_RATE_200_GBPS = 17,
	IB_RATE_300_GBPS = 18,
	IB_RATE_28_GBPS  = 19,
	IB_RATE_50_GBPS  = 20,
	IB_RATE_400_GBPS = 21,
	IB_RATE_600_GBPS = 22,
	IB_RATE_800_GBPS = 23,
};

__attribute_const__ int ib_rate_to_mult(enum ib_rate rate);
__attribute_const__ int ib_rate_to_mbps(enum ib_rate rate);
__attribute_const__ enum ib_rate mult_to_ib_rate(int mult);

enum ib_mr_status_check {
	IB_MR_CHECK_SIG_STATUS = 1,
};

/**
 * struct ib_mr_status - result of ib_check_mr_status()
 * @fail_status: the enum ib_mr_status_check bits whose check failed
 * @sig_err: the integrity error, when IB_MR_CHECK_SIG_STATUS failed
 */
struct ib_mr_status {
	u32			fail_status;
	struct ib_sig_err	sig_err;
};

/**
 * struct rdma_ah_init_attr - what create_ah gets
 * @ah_attr: the address vector
 * @flags: enum rdma_create_ah_flags
 * @xmit_slave: LAG slave the AH transmits on, or NULL
 */
struct rdma_ah_init_attr {
	struct rdma_ah_attr	*ah_attr;
	u32			flags;
	struct net_device	*xmit_slave;
};

enum rdma_ah_attr_type {
	RDMA_AH_ATTR_TYPE_UNDEFINED,
	RDMA_AH_ATTR_TYPE_IB,
	RDMA_AH_ATTR_TYPE_ROCE,
	RDMA_AH_ATTR_TYPE_OPA,
};

struct ib_ah_attr {
	u16			dlid;
	u8			src_path_bits;
};

struct roce_ah_attr {
	u8			dmac[ETH_ALEN];
};

struct opa_ah_attr {
	u32			dlid;
	u8			src_path_bits;
	bool			make_grd;
};

/**
 * struct rdma_ah_attr - an address vector
 * @grh: global route, valid when @ah_flags has IB_AH_GRH
 * @sl: service level
 * @static_rate: enum ib_rate
 * @port_num: local port
 * @ah_flags: enum ib_ah_flags
 * @type: which member of the union is valid
 * @ib: InfiniBand fields (RDMA_AH_ATTR_TYPE_IB)
 * @roce: RoCE fields (RDMA_AH_ATTR_TYPE_ROCE)
 * @opa: OPA fields (RDMA_AH_ATTR_TYPE_OPA)
 *
 * An attribute holding @grh.sgid_attr owns a reference on it; the
 * rdma_*_ah_attr() helpers keep the count right.
 */
struct rdma_ah_attr {
	struct ib_global_route	grh;
	u8			sl;
	u8			static_rate;
	u32			port_num;
	u8			ah_flags;
	enum rdma_ah_attr_type	type;
	union {
		struct ib_ah_attr	ib;
		struct roce_ah_attr	roce;
		struct opa_ah_attr	opa;
	};
};

/* ---------------------------------------------------------------------
 * Work completions
 */

enum ib_wc_status {
	IB_WC_SUCCESS,
	IB_WC_LOC_LEN_ERR,
	IB_WC_LOC_QP_OP_ERR,
	IB_WC_LOC_EEC_OP_ERR,
	IB_WC_LOC_PROT_ERR,
	IB_WC_WR_FLUSH_ERR,
	IB_WC_MW_BIND_ERR,
	IB_WC_BAD_RESP_ERR,
	IB_WC_LOC_ACCESS_ERR,
	IB_WC_REM_INV_REQ_ERR,
	IB_WC_REM_ACCESS_ERR,
	IB_WC_REM_OP_ERR,
	IB_WC_RETRY_EXC_ERR,
	IB_WC_RNR_RETRY_EXC_ERR,
	IB_WC_LOC_RDD_VIOL_ERR,
	IB_WC_REM_INV_RD_REQ_ERR,
	IB_WC_REM_ABORT_ERR,
	IB_WC_INV_EECN_ERR,
	IB_WC_INV_EEC_STATE_ERR,
	IB_WC_FATAL_ERR,
	IB_WC_RESP_TIMEOUT_ERR,
	IB_WC_GENERAL_ERR
};

const char *__attribute_const__ ib_wc_status_msg(enum ib_wc_status status);

enum ib_wc_opcode {
	IB_WC_SEND = IB_UVERBS_WC_SEND,
	IB_WC_RDMA_WRITE = IB_UVERBS_WC_RDMA_WRITE,
	IB_WC_RDMA_READ = IB_UVERBS_WC_RDMA_READ,
	IB_WC_COMP_SWAP = IB_UVERBS_WC_COMP_SWAP,
	IB_WC_FETCH_ADD = IB_UVERBS_WC_FETCH_ADD,
	IB_WC_BIND_MW = IB_UVERBS_WC_BIND_MW,
	IB_WC_LOCAL_INV = IB_UVERBS_WC_LOCAL_INV,
	IB_WC_LSO = IB_UVERBS_WC_TSO,
	IB_WC_ATOMIC_WRITE = IB_UVERBS_WC_ATOMIC_WRITE,
	IB_WC_REG_MR,
	IB_WC_MASKED_COMP_SWAP,
	IB_WC_MASKED_FETCH_ADD,
	IB_WC_FLUSH = IB_UVERBS_WC_FLUSH,
	/* receive opcodes have this bit set: (opcode & IB_WC_RECV) */
	IB_WC_RECV			= 1 << 7,
	IB_WC_RECV_RDMA_WITH_IMM
};

enum ib_wc_flags {
	IB_WC_GRH			= 1,
	IB_WC_WITH_IMM			= (1 << 1),
	IB_WC_WITH_INVALIDATE		= (1 << 2),
	IB_WC_IP_CSUM_OK		= (1 << 3),
	IB_WC_WITH_SMAC			= (1 << 4),
	IB_WC_WITH_VLAN			= (1 << 5),
	IB_WC_WITH_NETWORK_HDR_TYPE	= (1 << 6),
};

/**
 * struct ib_cqe - completion entry of the CQ API
 * @done: called for every completion whose wr_cqe points here
 *
 * ULPs embed this in their request structure and set wr_cqe of the work
 * request to it; CQs allocated with ib_alloc_cq() call @done.
 */
struct ib_cqe {
	void (*done)(struct ib_cq *cq, struct ib_wc *wc);
};

/**
 * struct ib_wc - one work completion
 * @wr_id: the work request's wr_id (legacy users)
 * @wr_cqe: the work request's wr_cqe (CQ API users)
 * @status: how it ended
 * @opcode: what it was; valid only with @status IB_WC_SUCCESS (and for
 *	sends on error, as far as the driver knows)
 * @vendor_err: driver specific error detail
 * @byte_len: bytes received (receive completions, RDMA READ)
 * @qp: the QP the work request was posted on
 * @ex: immediate data or invalidated rkey, per @wc_flags
 * @src_qp: source QP (UD)
 * @slid: source LID
 * @wc_flags: enum ib_wc_flags
 * @pkey_index: P_Key index (GSI)
 * @sl: service level
 * @dlid_path_bits: destination LID path bits
 * @port_num: port (DR SMPs on switches)
 * @smac: source MAC (RoCE UD)
 * @vlan_id: VLAN (RoCE UD)
 * @network_hdr_type: enum rdma_network_type of the received packet
 */
struct ib_wc {
	union {
		u64		wr_id;
		struct ib_cqe	*wr_cqe;
	};
	enum ib_wc_status	status;
	enum ib_wc_opcode	opcode;
	u32			vendor_err;
	u32			byte_len;
	struct ib_qp		*qp;
	union {
		__be32		imm_data;
		u32		invalidate_rkey;
	} ex;
	u32			src_qp;
	u32			slid;
	int			wc_flags;
	u16			pkey_index;
	u8			sl;
	u8			dlid_path_bits;
	u32			port_num;
	u8			smac[ETH_ALEN];
	u16			vlan_id;
	u8			network_hdr_type;
};

/* ---------------------------------------------------------------------
 * Completion queues
 */

/**
 * struct ib_cq_init_attr - what create_cq gets
 * @cqe: minimum number of entries
 * @comp_vector: completion vector (interrupt) to signal on
 * @flags: enum ib_uverbs_ex_create_cq_flags
 */
struct ib_cq_init_attr {
	unsigned int	cqe;
	u32		comp_vector;
	u32		flags;
};

enum ib_cq_attr_mask {
	IB_CQ_MODERATE = 1 << 0,
};

typedef void (*ib_comp_handler)(struct ib_cq *cq, void *cq_context);

/**
 * struct ib_cq - a completion queue
 * @device: its device
 * @uobject: user object, NULL for kernel CQs
 * @comp_handler: completion event callback (driver calls it)
 * @event_handler: asynchronous event callback
 * @cq_context: argument of both callbacks
 * @cqe: number of entries
 * @cqe_used: entries promised to users of the CQ pool
 * @usecnt: QPs and SRQs using the CQ
 * @poll_ctx: how the CQ API polls it
 * @wc: polling array of the CQ API
 * @pool_entry: link in the device's CQ pool
 * @iop: IB_POLL_SOFTIRQ poller
 * @work: IB_POLL_WORKQUEUE and IB_POLL_UNBOUND_WORKQUEUE poller
 * @comp_wq: the workqueue @work runs on
 * @dim: adaptive moderation state, or NULL
 * @timestamp: time of the last completion event (tracing)
 * @interrupt: a completion event is being handled
 * @shared: the CQ belongs to the CQ pool
 * @comp_vector: completion vector
 * @res: resource tracking entry (core only)
 */
struct ib_cq {
	struct ib_device	*device;
	struct ib_ucq_object	*uobject;
	ib_comp_handler		comp_handler;
	void			(*event_handler)(struct ib_event *event, void *context);
	void			*cq_context;
	int			cqe;
	unsigned int		cqe_used;
	atomic_t		usecnt;
	enum ib_poll_context	poll_ctx;
	struct ib_wc		*wc;
	struct list_head	pool_entry;
	union {
		struct irq_poll		iop;
		struct work_struct	work;
	};
	struct workqueue_struct	*comp_wq;
	struct dim		*dim;
	ktime_t			timestamp;
	u8			interrupt:1;
	u8			shared:1;
	unsigned int		comp_vector;
	struct rdma_restrack_entry res;
};

/* ---------------------------------------------------------------------
 * Shared receive queues
 */

enum ib_srq_type {
	IB_SRQT_BASIC = IB_UVERBS_SRQT_BASIC,
	IB_SRQT_XRC = IB_UVERBS_SRQT_XRC,
	IB_SRQT_TM = IB_UVERBS_SRQT_TM,
};

static inline bool ib_srq_has_cq(enum ib_srq_type srq_type)
{
	return srq_type == IB_SRQT_XRC || srq_type == IB_SRQT_TM;
}

/**
 * struct ib_srq_attr - size and limit of an SRQ
 * @max_wr: receive requests it holds
 * @max_sge: scatter entries per request
 * @srq_limit: IB_EVENT_SRQ_LIMIT_REACHED fires when fewer remain (0: off)
 */
struct ib_srq_attr {
	u32	max_wr;
	u32	max_sge;
	u32	srq_limit;
};

struct ib_srq_init_attr {
	void			(*event_handler)(struct ib_event *event, void *context);
	void			*srq_context;
	struct ib_srq_attr	attr;
	enum ib_srq_type	srq_type;

	struct {
		struct ib_cq	*cq;
		union {
			struct {
				struct ib_xrcd *xrcd;
			} xrc;

			struct {
				u32	max_num_tags;
			} tag_matching;
		};
	} ext;
};

/* ---------------------------------------------------------------------
 * Queue pairs
 */

/**
 * struct ib_qp_cap - queue sizes of a QP
 * @max_send_wr: send queue depth
 * @max_recv_wr: receive queue depth
 * @max_send_sge: gather entries per send request
 * @max_recv_sge: scatter entries per receive request
 * @max_inline_data: bytes a send may carry inline
 * @max_rdma_ctxs: rdma_rw contexts in flight; the core adds the send
 *	queue entries and MRs they need
 */
struct ib_qp_cap {
	u32	max_send_wr;
	u32	max_recv_wr;
	u32	max_send_sge;
	u32	max_recv_sge;
	u32	max_inline_data;
	u32	max_rdma_ctxs;
};

enum ib_sig_type {
	IB_SIGNAL_ALL_WR,
	IB_SIGNAL_REQ_WR
};

enum ib_qp_type {
	/* SMI and GSI stay first and in this order: the MAD layer indexes */
	IB_QPT_SMI,
	IB_QPT_GSI,

	IB_QPT_RC = IB_UVERBS_QPT_RC,
	IB_QPT_UC = IB_UVERBS_QPT_UC,
	IB_QPT_UD = IB_UVERBS_QPT_UD,
	IB_QPT_RAW_IPV6,
	IB_QPT_RAW_ETHERTYPE,
	IB_QPT_RAW_PACKET = IB_UVERBS_QPT_RAW_PACKET,
	IB_QPT_XRC_INI = IB_UVERBS_QPT_XRC_INI,
	IB_QPT_XRC_TGT = IB_UVERBS_QPT_XRC_TGT,
	IB_QPT_MAX,
	IB_QPT_DRIVER = IB_UVERBS_QPT_DRIVER,
	/* driver-internal types, never seen by the core */
	IB_QPT_RESERVED1 = 0x1000,
	IB_QPT_RESERVED2,
	IB_QPT_RESERVED3,
	IB_QPT_RESERVED4,
	IB_QPT_RESERVED5,
	IB_QPT_RESERVED6,
	IB_QPT_RESERVED7,
	IB_QPT_RESERVED8,
	IB_QPT_RESERVED9,
	IB_QPT_RESERVED10,
};

enum ib_qp_create_flags {
	IB_QP_CREATE_IPOIB_UD_LSO		= 1 << 0,
	IB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK	=
		IB_UVERBS_QP_CREATE_BLOCK_MULTICAST_LOOPBACK,
	IB_QP_CREATE_CROSS_CHANNEL		= 1 << 2,
	IB_QP_CREATE_MANAGED_SEND		= 1 << 3,
	IB_QP_CREATE_MANAGED_RECV		= 1 << 4,
	IB_QP_CREATE_NETIF_QP			= 1 << 5,
	IB_QP_CREATE_INTEGRITY_EN		= 1 << 6,
	IB_QP_CREATE_NETDEV_USE			= 1 << 7,
	IB_QP_CREATE_SCATTER_FCS		=
		IB_UVERBS_QP_CREATE_SCATTER_FCS,
	IB_QP_CREATE_CVLAN_STRIPPING		=
		IB_UVERBS_QP_CREATE_CVLAN_STRIPPING,
	IB_QP_CREATE_SOURCE_QPN			= 1 << 10,
	IB_QP_CREATE_PCI_WRITE_END_PADDING	=
		IB_UVERBS_QP_CREATE_PCI_WRITE_END_PADDING,
	/* bits 26-31 belong to drivers */
	IB_QP_CREATE_RESERVED_START		= 1 << 26,
	IB_QP_CREATE_RESERVED_END		= 1 << 31,
};

/**
 * struct ib_qp_init_attr - what a QP is created with
 * @event_handler: asynchronous event callback, called in the driver's
 *	context, which may be atomic (rdmavt: softirq, or a poster's with
 *	bottom halves off); it must not sleep nor destroy the QP
 * @qp_context: its argument
 * @send_cq: CQ of the send queue
 * @recv_cq: CQ of the receive queue
 * @srq: shared receive queue, or NULL
 * @xrcd: XRC domain (XRC TGT QPs)
 * @cap: queue sizes; the driver writes back what it allocated
 * @sq_sig_type: every send completes (IB_SIGNAL_ALL_WR) or only signaled
 * @qp_type: transport service
 * @create_flags: enum ib_qp_create_flags
 * @port_num: port, for SMI/GSI QPs and rdma_rw users
 * @rwq_ind_tbl: receive work queue indirection table (RSS)
 * @source_qpn: QP number to send as (IB_QP_CREATE_SOURCE_QPN)
 */
struct ib_qp_init_attr {
	void			(*event_handler)(struct ib_event *event, void *context);
	void			*qp_context;
	struct ib_cq		*send_cq;
	struct ib_cq		*recv_cq;
	struct ib_srq		*srq;
	struct ib_xrcd		*xrcd;
	struct ib_qp_cap	cap;
	enum ib_sig_type	sq_sig_type;
	enum ib_qp_type		qp_type;
	u32			create_flags;
	u32			port_num;
	struct ib_rwq_ind_table	*rwq_ind_tbl;
	u32			source_qpn;
};

struct ib_qp_open_attr {
	void			(*event_handler)(struct ib_event *event, void *context);
	void			*qp_context;
	u32			qp_num;
	enum ib_qp_type		qp_type;
};

/* Encoded RNR NAK timer values (IBTA table 45), in milliseconds. */
enum ib_rnr_timeout {
	IB_RNR_TIMER_655_36 =  0,
	IB_RNR_TIMER_000_01 =  1,
	IB_RNR_TIMER_000_02 =  2,
	IB_RNR_TIMER_000_03 =  3,
	IB_RNR_TIMER_000_04 =  4,
	IB_RNR_TIMER_000_06 =  5,
	IB_RNR_TIMER_000_08 =  6,
	IB_RNR_TIMER_000_12 =  7,
	IB_RNR_TIMER_000_16 =  8,
	IB_RNR_TIMER_000_24 =  9,
	IB_RNR_TIMER_000_32 = 10,
	IB_RNR_TIMER_000_48 = 11,
	IB_RNR_TIMER_000_64 = 12,
	IB_RNR_TIMER_000_96 = 13,
	IB_RNR_TIMER_001_28 = 14,
	IB_RNR_TIMER_001_92 = 15,
	IB_RNR_TIMER_002_56 = 16,
	IB_RNR_TIMER_003_84 = 17,
	IB_RNR_TIMER_005_12 = 18,
	IB_RNR_TIMER_007_68 = 19,
	IB_RNR_TIMER_010_24 = 20,
	IB_RNR_TIMER_015_36 = 21,
	IB_RNR_TIMER_020_48 = 22,
	IB_RNR_TIMER_030_72 = 23,
	IB_RNR_TIMER_040_96 = 24,
	IB_RNR_TIMER_061_44 = 25,
	IB_RNR_TIMER_081_92 = 26,
	IB_RNR_TIMER_122_88 = 27,
	IB_RNR_TIMER_163_84 = 28,
	IB_RNR_TIMER_245_76 = 29,
	IB_RNR_TIMER_327_68 = 30,
	IB_RNR_TIMER_491_52 = 31
};

enum ib_qp_attr_mask {
	IB_QP_STATE			= 1,
	IB_QP_CUR_STATE			= (1 << 1),
	IB_QP_EN_SQD_ASYNC_NOTIFY	= (1 << 2),
	IB_QP_ACCESS_FLAGS		= (1 << 3),
	IB_QP_PKEY_INDEX		= (1 << 4),
	IB_QP_PORT			= (1 << 5),
	IB_QP_QKEY			= (1 << 6),
	IB_QP_AV			= (1 << 7),
	IB_QP_PATH_MTU			= (1 << 8),
	IB_QP_TIMEOUT			= (1 << 9),
	IB_QP_RETRY_CNT			= (1 << 10),
	IB_QP_RNR_RETRY			= (1 << 11),
	IB_QP_RQ_PSN			= (1 << 12),
	IB_QP_MAX_QP_RD_ATOMIC		= (1 << 13),
	IB_QP_ALT_PATH			= (1 << 14),
	IB_QP_MIN_RNR_TIMER		= (1 << 15),
	IB_QP_SQ_PSN			= (1 << 16),
	IB_QP_MAX_DEST_RD_ATOMIC	= (1 << 17),
	IB_QP_PATH_MIG_STATE		= (1 << 18),
	IB_QP_CAP			= (1 << 19),
	IB_QP_DEST_QPN			= (1 << 20),
	IB_QP_RESERVED1			= (1 << 21),
	IB_QP_RESERVED2			= (1 << 22),
	IB_QP_RESERVED3			= (1 << 23),
	IB_QP_RESERVED4			= (1 << 24),
	IB_QP_RATE_LIMIT		= (1 << 25),

	IB_QP_ATTR_STANDARD_BITS = GENMASK(20, 0),
};

enum ib_qp_state {
	IB_QPS_RESET,
	IB_QPS_INIT,
	IB_QPS_RTR,
	IB_QPS_RTS,
	IB_QPS_SQD,
	IB_QPS_SQE,
	IB_QPS_ERR
};

enum ib_mig_state {
	IB_MIG_MIGRATED,
	IB_MIG_REARM,
	IB_MIG_ARMED
};

enum ib_mw_type {
	IB_MW_TYPE_1 = 1,
	IB_MW_TYPE_2 = 2
};

/**
 * struct ib_qp_attr - QP attributes for modify and query
 *
 * Which members ib_modify_qp() reads is given by its enum ib_qp_attr_mask
 * argument; ib_query_qp() fills at least those asked for.
 */
struct ib_qp_attr {
	enum ib_qp_state	qp_state;
	enum ib_qp_state	cur_qp_state;
	enum ib_mtu		path_mtu;
	enum ib_mig_state	path_mig_state;
	u32			qkey;
	u32			rq_psn;
	u32			sq_psn;
	u32			dest_qp_num;
	int			qp_access_flags;
	struct ib_qp_cap	cap;
	struct rdma_ah_attr	ah_attr;
	struct rdma_ah_attr	alt_ah_attr;
	u16			pkey_index;
	u16			alt_pkey_index;
	u8			en_sqd_async_notify;
	u8			sq_draining;
	u8			max_rd_atomic;
	u8			max_dest_rd_atomic;
	u8			min_rnr_timer;
	u32			port_num;
	u8			timeout;
	u8			retry_cnt;
	u8			rnr_retry;
	u32			alt_port_num;
	u8			alt_timeout;
	u32			rate_limit;
	struct net_device	*xmit_slave;
};

/* ---------------------------------------------------------------------
 * Work requests
 */

enum ib_wr_opcode {
	/* shared with user space */
	IB_WR_RDMA_WRITE = IB_UVERBS_WR_RDMA_WRITE,
	IB_WR_RDMA_WRITE_WITH_IMM = IB_UVERBS_WR_RDMA_WRITE_WITH_IMM,
	IB_WR_SEND = IB_UVERBS_WR_SEND,
	IB_WR_SEND_WITH_IMM = IB_UVERBS_WR_SEND_WITH_IMM,
	IB_WR_RDMA_READ = IB_UVERBS_WR_RDMA_READ,
	IB_WR_ATOMIC_CMP_AND_SWP = IB_UVERBS_WR_ATOMIC_CMP_AND_SWP,
	IB_WR_ATOMIC_FETCH_AND_ADD = IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD,
	IB_WR_BIND_MW = IB_UVERBS_WR_BIND_MW,
	IB_WR_LSO = IB_UVERBS_WR_TSO,
	IB_WR_SEND_WITH_INV = IB_UVERBS_WR_SEND_WITH_INV,
	IB_WR_RDMA_READ_WITH_INV = IB_UVERBS_WR_RDMA_READ_WITH_INV,
	IB_WR_LOCAL_INV = IB_UVERBS_WR_LOCAL_INV,
	IB_WR_MASKED_ATOMIC_CMP_AND_SWP =
		IB_UVERBS_WR_MASKED_ATOMIC_CMP_AND_SWP,
	IB_WR_MASKED_ATOMIC_FETCH_AND_ADD =
		IB_UVERBS_WR_MASKED_ATOMIC_FETCH_AND_ADD,
	IB_WR_FLUSH = IB_UVERBS_WR_FLUSH,
	IB_WR_ATOMIC_WRITE = IB_UVERBS_WR_ATOMIC_WRITE,

	/* kernel only */
	IB_WR_REG_MR = 0x20,
	IB_WR_REG_MR_INTEGRITY,

	/* driver-internal opcodes, never used by the core */
	IB_WR_RESERVED1 = 0xf0,
	IB_WR_RESERVED2,
	IB_WR_RESERVED3,
	IB_WR_RESERVED4,
	IB_WR_RESERVED5,
	IB_WR_RESERVED6,
	IB_WR_RESERVED7,
	IB_WR_RESERVED8,
	IB_WR_RESERVED9,
	IB_WR_RESERVED10,
};

enum ib_send_flags {
	IB_SEND_FENCE		= 1,
	IB_SEND_SIGNALED	= (1 << 1),
	IB_SEND_SOLICITED	= (1 << 2),
	IB_SEND_INLINE		= (1 << 3),
	IB_SEND_IP_CSUM		= (1 << 4),

	/* bits 26-31 belong to drivers */
	IB_SEND_RESERVED_START	= (1 << 26),
	IB_SEND_RESERVED_END	= (1 << 31),
};

/**
 * struct ib_sge - one gather or scatter element
 * @addr: DMA address (a kernel virtual address on virtual DMA devices)
 * @length: bytes
 * @lkey: local key of the MR covering it
 */
struct ib_sge {
	u64	addr;
	u32	length;
	u32	lkey;
};

/**
 * struct ib_send_wr - a send queue work request
 * @next: next request of the chain, or NULL
 * @wr_id: cookie returned in the completion (legacy)
 * @wr_cqe: completion entry (CQ API)
 * @sg_list: gather list
 * @num_sge: entries in @sg_list
 * @opcode: the operation; most need the containing ib_*_wr
 * @send_flags: enum ib_send_flags
 * @ex: immediate data or rkey to invalidate, per @opcode
 */
struct ib_send_wr {
	struct ib_send_wr	*next;
	union {
		u64		wr_id;
		struct ib_cqe	*wr_cqe;
	};
	struct ib_sge		*sg_list;
	int			num_sge;
	enum ib_wr_opcode	opcode;
	int			send_flags;
	union {
		__be32		imm_data;
		u32		invalidate_rkey;
	} ex;
};

/* RDMA WRITE and READ */
struct ib_rdma_wr {
	struct ib_send_wr	wr;
	u64			remote_addr;
	u32			rkey;
};

static inline const struct ib_rdma_wr *rdma_wr(const struct ib_send_wr *wr)
{
	return container_of(wr, struct ib_rdma_wr, wr);
}

/* Compare-and-swap and fetch-and-add, plain and masked */
struct ib_atomic_wr {
	struct ib_send_wr	wr;
	u64			remote_addr;
	u64			compare_add;
	u64			swap;
	u64			compare_add_mask;
	u64			swap_mask;
	u32			rkey;
};

static inline const struct ib_atomic_wr *atomic_wr(const struct ib_send_wr *wr)
{
	return container_of(wr, struct ib_atomic_wr, wr);
}

/* Sends on UD (and GSI/SMI) QPs */
struct ib_ud_wr {
	struct ib_send_wr	wr;
	struct ib_ah		*ah;
	void			*header;
	int			hlen;
	int			mss;
	u32			remote_qpn;
	u32			remote_qkey;
	u16			pkey_index;
	u32			port_num;
};

static inline const struct ib_ud_wr *ud_wr(const struct ib_send_wr *wr)
{
	return container_of(wr, struct ib_ud_wr, wr);
}

/* Fast registration of an MR mapped with ib_map_mr_sg() */
struct ib_reg_wr {
	struct ib_send_wr	wr;
	struct ib_mr		*mr;
	u32			key;
	int			access;
};

static inline const struct ib_reg_wr *reg_wr(const struct ib_send_wr *wr)
{
	return container_of(wr, struct ib_reg_wr, wr);
}

/**
 * struct ib_recv_wr - a receive queue work request
 * @next: next request of the chain, or NULL
 * @wr_id: cookie returned in the completion (legacy)
 * @wr_cqe: completion entry (CQ API)
 * @sg_list: scatter list
 * @num_sge: entries in @sg_list
 */
struct ib_recv_wr {
	struct ib_recv_wr	*next;
	union {
		u64		wr_id;
		struct ib_cqe	*wr_cqe;
	};
	struct ib_sge		*sg_list;
	int			num_sge;
};

enum ib_access_flags {
	IB_ACCESS_LOCAL_WRITE = IB_UVERBS_ACCESS_LOCAL_WRITE,
	IB_ACCESS_REMOTE_WRITE = IB_UVERBS_ACCESS_REMOTE_WRITE,
	IB_ACCESS_REMOTE_READ = IB_UVERBS_ACCESS_REMOTE_READ,
	IB_ACCESS_REMOTE_ATOMIC = IB_UVERBS_ACCESS_REMOTE_ATOMIC,
	IB_ACCESS_MW_BIND = IB_UVERBS_ACCESS_MW_BIND,
	IB_ZERO_BASED = IB_UVERBS_ACCESS_ZERO_BASED,
	IB_ACCESS_ON_DEMAND = IB_UVERBS_ACCESS_ON_DEMAND,
	IB_ACCESS_HUGETLB = IB_UVERBS_ACCESS_HUGETLB,
	IB_ACCESS_RELAXED_ORDERING = IB_UVERBS_ACCESS_RELAXED_ORDERING,
	IB_ACCESS_FLUSH_GLOBAL = IB_UVERBS_ACCESS_FLUSH_GLOBAL,
	IB_ACCESS_FLUSH_PERSISTENT = IB_UVERBS_ACCESS_FLUSH_PERSISTENT,

	IB_ACCESS_OPTIONAL = IB_UVERBS_ACCESS_OPTIONAL_RANGE,
	IB_ACCESS_SUPPORTED =
		((IB_ACCESS_FLUSH_PERSISTENT << 1) - 1) | IB_ACCESS_OPTIONAL,
};

/* What rereg_user_mr changes */
enum ib_mr_rereg_flags {
	IB_MR_REREG_TRANS	= 1,
	IB_MR_REREG_PD		= (1 << 1),
	IB_MR_REREG_ACCESS	= (1 << 2),
	IB_MR_REREG_SUPPORTED	= ((IB_MR_REREG_ACCESS << 1) - 1)
};

/* ---------------------------------------------------------------------
 * User data and the verbs objects
 */

/**
 * struct ib_udata - user buffers of a verbs command
 * @inbuf: driver input
 * @outbuf: driver output
 * @inlen: bytes at @inbuf
 * @outlen: bytes at @outbuf
 *
 * Kernel callers pass NULL instead of a struct ib_udata.
 */
struct ib_udata {
	const void __user	*inbuf;
	void __user		*outbuf;
	size_t			inlen;
	size_t			outlen;
};

/**
 * ib_copy_from_udata - copy a driver's request from user space
 * @dest: where to
 * @udata: the command's driver data
 * @len: bytes to copy; at most udata->inlen are there
 *
 * Context: process context of the calling task (a user copy).
 * Return: 0, or -EFAULT when the user buffer cannot be read.
 */
static inline int ib_copy_from_udata(void *dest, struct ib_udata *udata,
				     size_t len)
{
	return copy_from_user(dest, udata->inbuf, len) ? -EFAULT : 0;
}

/**
 * ib_copy_to_udata - copy a driver's response to user space
 * @udata: the command's driver data
 * @src: what to copy
 * @len: bytes to copy; at most udata->outlen fit
 *
 * Context: process context of the calling task (a user copy).
 * Return: 0, or -EFAULT when the user buffer cannot be written.
 */
static inline int ib_copy_to_udata(struct ib_udata *udata, void *src,
				   size_t len)
{
	return copy_to_user(udata->outbuf, src, len) ? -EFAULT : 0;
}

/**
 * ib_is_buffer_cleared - whether user memory holds only zeroes
 * @p: the user buffer
 * @len: its bytes
 *
 * Context: process context of the calling task (a user copy); sleeps.
 * Return: true when all @len bytes could be read and are zero.
 */
static inline bool ib_is_buffer_cleared(const void __user *p, size_t len)
{
	bool ret;
	u8 *buf;

	if (len > USHRT_MAX)
		return false;
	buf = memdup_user(p, len);
	if (IS_ERR(buf))
		return false;
	ret = !memchr_inv(buf, 0, len);
	kfree(buf);
	return ret;
}

/**
 * ib_is_udata_cleared - whether a stretch of a driver's request is zero
 * @udata: the command's driver data
 * @offset: where the stretch starts
 * @len: its bytes
 *
 * Context: process context of the calling task (a user copy); sleeps.
 * Return: true when the bytes are zero (a newer user space's fields the
 * driver does not know are unset).
 */
static inline bool ib_is_udata_cleared(struct ib_udata *udata, size_t offset,
				       size_t len)
{
	return ib_is_buffer_cleared(udata->inbuf + offset, len);
}

/**
 * struct ib_rdmacg_object - what an object charged to the rdma cgroup
 *	controller remembers
 * @cg: the cgroup charged (kernels with CONFIG_CGROUP_RDMA)
 */
struct ib_rdmacg_object {
#ifdef CONFIG_CGROUP_RDMA
	struct rdma_cgroup	*cg;
#endif
};

#ifdef CONFIG_CGROUP_RDMA
int ib_rdmacg_try_charge(struct ib_rdmacg_object *cg_obj,
			 struct ib_device *device,
			 enum rdmacg_resource_type resource_index);
void ib_rdmacg_uncharge(struct ib_rdmacg_object *cg_obj,
			struct ib_device *device,
			enum rdmacg_resource_type resource_index);
#else
static inline int ib_rdmacg_try_charge(struct ib_rdmacg_object *cg_obj,
				       struct ib_device *device,
				       enum rdmacg_resource_type resource_index)
{
	return 0;
}

static inline void ib_rdmacg_uncharge(struct ib_rdmacg_object *cg_obj,
				      struct ib_device *device,
				      enum rdmacg_resource_type resource_index)
{
}
#endif

struct ib_uverbs_file;
struct uverbs_api_object;

/**
 * enum rdma_remove_reason - why a user object is destroyed
 * @RDMA_REMOVE_DESTROY: its destroy command (the driver may refuse)
 * @RDMA_REMOVE_CLOSE: its file was closed or its context destroyed
 * @RDMA_REMOVE_DRIVER_REMOVE: its device is being unregistered
 * @RDMA_REMOVE_ABORT: the command creating it failed
 * @RDMA_REMOVE_DRIVER_FAILURE: its device failed
 */
enum rdma_remove_reason {
	RDMA_REMOVE_DESTROY,
	RDMA_REMOVE_CLOSE,
	RDMA_REMOVE_DRIVER_REMOVE,
	RDMA_REMOVE_ABORT,
	RDMA_REMOVE_DRIVER_FAILURE,
};

/**
 * struct rdma_user_mmap_entry - memory a driver offers to mmap()
 * @ref: the context's table holds one, and each lookup
 * @ucontext: the context it belongs to
 * @start_pgoff: its first page offset in uverbsN
 * @npages: its length in pages
 * @driver_removed: the driver removed it: lookups fail
 *
 * Drivers embed it in their own entry; see rdma_user_mmap_entry_insert().
 */
struct rdma_user_mmap_entry {
	struct kref ref;
	struct ib_ucontext *ucontext;
	unsigned long start_pgoff;
	size_t npages;
	bool driver_removed;
};

/**
 * rdma_user_mmap_get_offset - the offset user space passes to mmap()
 * @entry: an inserted entry
 *
 * Context: any.
 * Return: the entry's offset in bytes.
 */
static inline u64
rdma_user_mmap_get_offset(const struct rdma_user_mmap_entry *entry)
{
	return (u64)entry->start_pgoff << PAGE_SHIFT;
}

int rdma_user_mmap_entry_insert(struct ib_ucontext *ucontext,
				struct rdma_user_mmap_entry *entry,
				size_t length);
int rdma_user_mmap_entry_insert_range(struct ib_ucontext *ucontext,
				      struct rdma_user_mmap_entry *entry,
				      size_t length, u32 min_pgoff,
				      u32 max_pgoff);

/**
 * rdma_user_mmap_entry_insert_exact - give an entry a given page offset
 * @ucontext: the context
 * @entry: the driver's entry
 * @length: bytes user space will map
 * @pgoff: the page offset it must start at
 *
 * Context: process context; sleeps.
 * Return: as rdma_user_mmap_entry_insert_range(); -ENOMEM when the
 * offset is taken.
 */
static inline int
rdma_user_mmap_entry_insert_exact(struct ib_ucontext *ucontext,
				  struct rdma_user_mmap_entry *entry,
				  size_t length, u32 pgoff)
{
	return rdma_user_mmap_entry_insert_range(ucontext, entry, length, pgoff,
						 pgoff);
}

struct rdma_user_mmap_entry *
rdma_user_mmap_entry_get_pgoff(struct ib_ucontext *ucontext,
			       unsigned long pgoff);
struct rdma_user_mmap_entry *
rdma_user_mmap_entry_get(struct ib_ucontext *ucontext,
			 struct vm_area_struct *vma);
void rdma_user_mmap_entry_put(struct rdma_user_mmap_entry *entry);
void rdma_user_mmap_entry_remove(struct rdma_user_mmap_entry *entry);
int rdma_user_mmap_io(struct ib_ucontext *ucontext, struct vm_area_struct *vma,
		      unsigned long pfn, unsigned long size, pgprot_t prot,
		      struct rdma_user_mmap_entry *entry);
#if IS_ENABLED(CONFIG_INFINIBAND_USER_ACCESS)
void rdma_user_mmap_disassociate(struct ib_device *device);
#else
static inline void rdma_user_mmap_disassociate(struct ib_device *device)
{
}
#endif

struct ib_ucontext *ib_uverbs_get_ucontext_file(struct ib_uverbs_file *ufile);

/**
 * struct ib_ucontext - a user process's context on a device (ib_uverbs)
 * @device: the device
 * @ufile: the open uverbsN it belongs to
 * @cg_obj: its rdma cgroup charge
 * @res: its resource tracking entry (RDMA_RESTRACK_CTX)
 * @mmap_xa: the mmap entries drivers insert (rdma_user_mmap_entry_*)
 *
 * Drivers embed it in their own context (INIT_RDMA_OBJ_SIZE); ib_uverbs
 * allocates it, and the driver's alloc_ucontext fills the rest.
 */
struct ib_ucontext {
	struct ib_device		*device;
	struct ib_uverbs_file		*ufile;
	struct ib_rdmacg_object		cg_obj;
	struct rdma_restrack_entry	res;
	struct xarray			mmap_xa;
};

/**
 * rdma_udata_to_drv_context - the driver's context of a user command
 * @udata: the command's driver data, or NULL (a kernel caller)
 * @drv_dev_struct: the driver's context type
 * @member: its struct ib_ucontext member
 *
 * ib_uverbs passes drivers the driver_udata of the command's struct
 * uverbs_attr_bundle (<rdma/uverbs_ioctl.h>), which knows the context.
 * Return: the driver's context, or NULL for a kernel caller.
 */
#define rdma_udata_to_drv_context(udata, drv_dev_struct, member)	\
	((udata) ? container_of(container_of(udata,			\
					     struct uverbs_attr_bundle,	\
					     driver_udata)->context,	\
				drv_dev_struct, member) :		\
		   (drv_dev_struct *)NULL)

/**
 * struct ib_uobject - the user side of a verbs object (ib_uverbs)
 * @user_handle: the handle user space gave when creating it
 * @ufile: the open uverbsN it belongs to
 * @context: the context it was made in
 * @object: the verbs object (struct ib_pd, ib_cq, ...)
 * @list: in the file's list of objects
 * @cg_obj: its rdma cgroup charge
 * @id: its handle in the file's table
 * @ref: references to this structure
 * @usecnt: >0 while shared (readers), -1 while held exclusively
 * @rcu: for freeing after a grace period
 * @uapi_object: its type
 */
struct ib_uobject {
	u64				user_handle;
	struct ib_uverbs_file		*ufile;
	struct ib_ucontext		*context;
	void				*object;
	struct list_head		list;
	struct ib_rdmacg_object		cg_obj;
	int				id;
	struct kref			ref;
	atomic_t			usecnt;
	struct rcu_head			rcu;
	const struct uverbs_api_object	*uapi_object;
};

/**
 * struct ib_pd - a protection domain
 * @local_dma_lkey: lkey that covers all of memory for local access
 * @flags: enum ib_pd_flags it was created with
 * @device: its device
 * @uobject: user object, NULL for kernel PDs
 * @usecnt: objects (QPs, SRQs, AHs, MRs, ...) in the PD
 * @unsafe_global_rkey: rkey of all memory (IB_PD_UNSAFE_GLOBAL_RKEY)
 * @__internal_mr: the MR behind @local_dma_lkey or the global rkey when
 *	the device has no local DMA lkey (core only)
 * @res: resource tracking entry (core only)
 */
struct ib_pd {
	u32			local_dma_lkey;
	u32			flags;
	struct ib_device	*device;
	struct ib_uobject	*uobject;
	atomic_t		usecnt;
	u32			unsafe_global_rkey;
	struct ib_mr		*__internal_mr;
	struct rdma_restrack_entry res;
};

struct ib_xrcd {
	struct ib_device	*device;
	atomic_t		usecnt;
	struct inode		*inode;
	struct rw_semaphore	tgt_qps_rwsem;	/* @tgt_qps */
	struct xarray		tgt_qps;
};

/**
 * struct ib_ah - an address handle
 * @device: its device
 * @pd: its PD
 * @uobject: user object, NULL for kernel AHs
 * @sgid_attr: source GID entry referenced by the AH, or NULL
 * @type: address type
 */
struct ib_ah {
	struct ib_device	*device;
	struct ib_pd		*pd;
	struct ib_uobject	*uobject;
	const struct ib_gid_attr *sgid_attr;
	enum rdma_ah_attr_type	type;
};

/**
 * struct ib_srq - a shared receive queue
 * @device: its device
 * @pd: its PD
 * @uobject: user object, NULL for kernel SRQs
 * @event_handler: asynchronous event callback
 * @srq_context: its argument
 * @srq_type: basic, XRC or tag matching
 * @usecnt: QPs attached
 * @ext: type specific members
 * @res: resource tracking entry (core only)
 */
struct ib_srq {
	struct ib_device	*device;
	struct ib_pd		*pd;
	struct ib_usrq_object	*uobject;
	void			(*event_handler)(struct ib_event *event, void *context);
	void			*srq_context;
	enum ib_srq_type	srq_type;
	atomic_t		usecnt;

	struct {
		struct ib_cq	*cq;
		union {
			struct {
				struct ib_xrcd	*xrcd;
				u32		srq_num;
			} xrc;
		};
	} ext;

	struct rdma_restrack_entry res;
};

enum ib_raw_packet_caps {
	IB_RAW_PACKET_CAP_CVLAN_STRIPPING =
		IB_UVERBS_RAW_PACKET_CAP_CVLAN_STRIPPING,
	IB_RAW_PACKET_CAP_SCATTER_FCS = IB_UVERBS_RAW_PACKET_CAP_SCATTER_FCS,
	IB_RAW_PACKET_CAP_IP_CSUM = IB_UVERBS_RAW_PACKET_CAP_IP_CSUM,
	IB_RAW_PACKET_CAP_DELAY_DROP = IB_UVERBS_RAW_PACKET_CAP_DELAY_DROP,
};

enum ib_wq_type {
	IB_WQT_RQ = IB_UVERBS_WQT_RQ,
};

enum ib_wq_state {
	IB_WQS_RESET,
	IB_WQS_RDY,
	IB_WQS_ERR
};

/**
 * struct ib_wq - a receive work queue (RSS)
 * @device: its device
 * @uobject: user object
 * @wq_context: argument of @event_handler
 * @event_handler: asynchronous event callback
 * @pd: its PD
 * @cq: its CQ
 * @wq_num: number
 * @state: current state
 * @wq_type: type
 * @usecnt: indirection tables using it
 */
struct ib_wq {
	struct ib_device	*device;
	struct ib_uwq_object	*uobject;
	void			*wq_context;
	void			(*event_handler)(struct ib_event *event, void *context);
	struct ib_pd		*pd;
	struct ib_cq		*cq;
	u32			wq_num;
	enum ib_wq_state	state;
	enum ib_wq_type		wq_type;
	atomic_t		usecnt;
};

enum ib_wq_flags {
	IB_WQ_FLAGS_CVLAN_STRIPPING	= IB_UVERBS_WQ_FLAGS_CVLAN_STRIPPING,
	IB_WQ_FLAGS_SCATTER_FCS		= IB_UVERBS_WQ_FLAGS_SCATTER_FCS,
	IB_WQ_FLAGS_DELAY_DROP		= IB_UVERBS_WQ_FLAGS_DELAY_DROP,
	IB_WQ_FLAGS_PCI_WRITE_END_PADDING =
		IB_UVERBS_WQ_FLAGS_PCI_WRITE_END_PADDING,
};

struct ib_wq_init_attr {
	void			*wq_context;
	enum ib_wq_type		wq_type;
	u32			max_wr;
	u32			max_sge;
	struct ib_cq		*cq;
	void			(*event_handler)(struct ib_event *event, void *context);
	u32			create_flags;	/* enum ib_wq_flags */
};

enum ib_wq_attr_mask {
	IB_WQ_STATE		= 1 << 0,
	IB_WQ_CUR_STATE		= 1 << 1,
	IB_WQ_FLAGS		= 1 << 2,
};

struct ib_wq_attr {
	enum ib_wq_state	wq_state;
	enum ib_wq_state	curr_wq_state;
	u32			flags;		/* enum ib_wq_flags */
	u32			flags_mask;	/* enum ib_wq_flags */
};

struct ib_rwq_ind_table {
	struct ib_device	*device;
	struct ib_uobject	*uobject;
	atomic_t		usecnt;
	u32			ind_tbl_num;
	u32			log_ind_tbl_size;
	struct ib_wq		**ind_tbl;
};

struct ib_rwq_ind_table_init_attr {
	u32			log_ind_tbl_size;
	struct ib_wq		**ind_tbl;
};

struct ib_qp_security;

/**
 * struct ib_qp - a queue pair
 * @device: its device
 * @pd: its PD
 * @send_cq: CQ of the send queue
 * @recv_cq: CQ of the receive queue
 * @mr_lock: protects @mrs_used, @rdma_mrs and @sig_mrs
 * @mrs_used: MRs taken from the QP's MR pools
 * @rdma_mrs: MR pool for rdma_rw
 * @sig_mrs: MR pool of integrity MRs for rdma_rw
 * @srq: SRQ, or NULL
 * @srq_completion: completed when the last WQE was reached (drain with SRQ)
 * @xrcd: XRC domain (XRC TGT QPs)
 * @xrcd_list: entry in the XRC domain's list
 * @usecnt: opens, multicast and flow attachments
 * @open_list: shared opens of the QP
 * @real_qp: the QP itself, or the QP a shared open refers to
 * @uobject: user object, NULL for kernel QPs
 * @event_handler: the event callback the core calls
 * @registered_event_handler: the creator's event callback
 * @qp_context: argument of the event callbacks
 * @av_sgid_attr: source GID entry of the primary path (referenced)
 * @alt_path_sgid_attr: source GID entry of the alternate path (referenced)
 * @qp_num: QP number
 * @max_write_sge: gather entries an RDMA WRITE may use
 * @max_read_sge: scatter entries an RDMA READ may use
 * @qp_type: transport service
 * @rwq_ind_tbl: RSS indirection table
 * @qp_sec: security state
 * @port: port the QP is bound to, 0 before
 * @integrity_en: created with IB_QP_CREATE_INTEGRITY_EN
 * @res: resource tracking entry (core only)
 * @counter: statistics counter bound to the QP
 */
struct ib_qp {
	struct ib_device	*device;
	struct ib_pd		*pd;
	struct ib_cq		*send_cq;
	struct ib_cq		*recv_cq;
	spinlock_t		mr_lock;	/* MR pool lists */
	int			mrs_used;
	struct list_head	rdma_mrs;
	struct list_head	sig_mrs;
	struct ib_srq		*srq;
	struct completion	srq_completion;
	struct ib_xrcd		*xrcd;
	struct list_head	xrcd_list;

	atomic_t		usecnt;
	struct list_head	open_list;
	struct ib_qp		*real_qp;
	struct ib_uqp_object	*uobject;
	void			(*event_handler)(struct ib_event *event, void *context);
	void			(*registered_event_handler)(struct ib_event *event,
							    void *context);
	void			*qp_context;
	const struct ib_gid_attr *av_sgid_attr;
	const struct ib_gid_attr *alt_path_sgid_attr;
	u32			qp_num;
	u32			max_write_sge;
	u32			max_read_sge;
	enum ib_qp_type		qp_type;
	struct ib_rwq_ind_table	*rwq_ind_tbl;
	struct ib_qp_security	*qp_sec;
	u32			port;

	bool			integrity_en;
	struct rdma_restrack_entry res;

	struct rdma_counter	*counter;
};

struct ib_dm {
	struct ib_device	*device;
	u32			length;
	u32			flags;
	struct ib_uobject	*uobject;
	atomic_t		usecnt;
};

/**
 * struct ib_mr - a memory region
 * @device: its device
 * @pd: its PD
 * @lkey: local key
 * @rkey: remote key
 * @iova: first address it covers (I/O virtual)
 * @length: bytes it covers
 * @page_size: page size of its mapping (fast registration)
 * @type: what kind of MR
 * @need_inval: a fast registration is in effect and must be invalidated
 *	before the MR maps something else
 * @uobject: user object (user MRs)
 * @qp_entry: entry in a QP's MR pool (fast registration MRs)
 * @dm: device memory it registers (IB_MR_TYPE_DM)
 * @sig_attrs: signature attributes (IB_MR_TYPE_INTEGRITY)
 * @res: resource tracking entry (core only)
 *
 * Drivers allocate MRs themselves and return the embedded ib_mr; the
 * core fills @device, @pd, @type and the restrack entry.
 */
struct ib_mr {
	struct ib_device	*device;
	struct ib_pd		*pd;
	u32			lkey;
	u32			rkey;
	u64			iova;
	u64			length;
	unsigned int		page_size;
	enum ib_mr_type		type;
	bool			need_inval;
	union {
		struct ib_uobject	*uobject;
		struct list_head	qp_entry;
	};

	struct ib_dm		*dm;
	struct ib_sig_attrs	*sig_attrs;
	struct rdma_restrack_entry res;
};

struct ib_mw {
	struct ib_device	*device;
	struct ib_pd		*pd;
	struct ib_uobject	*uobject;
	u32			rkey;
	enum ib_mw_type		type;
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

/*
 * A driver that declared no size (its objects are the core's alone) still
 * gets room for the core's part.
 */
#define rdma_drv_obj_size(ib_dev, ib_type)				\
	max_t(size_t, (ib_dev)->ops.size_##ib_type, sizeof(struct ib_type))

#define rdma_zalloc_drv_obj_gfp(ib_dev, ib_type, gfp)			\
	((struct ib_type *)rdma_zalloc_obj(ib_dev,			\
		rdma_drv_obj_size(ib_dev, ib_type), gfp, false))

#define rdma_zalloc_drv_obj_numa(ib_dev, ib_type)			\
	((struct ib_type *)rdma_zalloc_obj(ib_dev,			\
		rdma_drv_obj_size(ib_dev, ib_type), GFP_KERNEL, true))

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

#ifdef CONFIG_CGROUP_RDMA
	/* the rdma cgroup controller's view: registered while @this is */
	struct rdmacg_device		cg_device;
#endif
};

static inline void *rdma_zalloc_obj(struct ib_device *dev, size_t size,
				    gfp_t gfp, bool is_numa_aware)
{
	if (is_numa_aware && dev->ops.get_numa_node)
		return kzalloc_node(size, gfp, dev->ops.get_numa_node(dev));
	return kzalloc(size, gfp);
}

/**
 * struct ib_client_nl_info - a client's answer to RDMA_NLDEV_CMD_GET_CHARDEV
 * @nl_msg: the reply being built; a client may add attributes of its own
 * @cdev: the character device's struct device (the client sets it, the
 *	core takes a reference the caller drops with put_device())
 * @port: in: the port asked about, or U32_MAX when the request named none
 * @abi: the ABI version of the character device
 */
struct ib_client_nl_info {
	struct sk_buff *nl_msg;
	struct device *cdev;
	u32 port;
	u64 abi;
};

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
 * @__sg: the scatterlist entry holding the current block
 * @__dma_addr: a DMA address inside the current block (not aligned)
 * @__sg_numblocks: blocks left to walk
 * @__sg_nents: entries of the scatterlist
 * @__sg_advance: bytes to advance in @__sg at the next step
 * @__pg_bit: log2 of the block size (the blocks' alignment)
 *
 * Internal state: users read the current block only through
 * rdma_block_iter_dma_address().
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
const struct ib_port_immutable *
ib_port_immutable_read(struct ib_device *dev, unsigned int port);
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
 *
 * Context: Any context; does not sleep (an RCU-protected xarray load).
 *
 * Return: the data the client set with ib_set_client_data(), or NULL.
 */
static inline void *ib_get_client_data(struct ib_device *device,
				       struct ib_client *client)
{
	return xa_load(&device->client_data, client->client_id);
}

void ib_set_client_data(struct ib_device *device, struct ib_client *client,
			void *data);
struct net_device *ib_get_net_dev_by_params(struct ib_device *dev, u32 port,
					    u16 pkey, const union ib_gid *gid,
					    const struct sockaddr *addr);

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
/* RoCE GIDs from the IP stack (core/ib_core/roce_gid_mgmt.c) */
void rdma_roce_rescan_device(struct ib_device *ibdev);
void rdma_roce_rescan_port(struct ib_device *ib_dev, u32 port);
void roce_del_all_netdev_gids(struct ib_device *ib_dev, u32 port,
			      struct net_device *ndev);
struct ib_device *ib_device_get_by_index(const struct net *net, u32 index);
struct net_device *rdma_alloc_netdev(struct ib_device *device, u32 port_num,
				     enum rdma_netdev_t type, const char *name,
				     unsigned char name_assign_type,
				     void (*setup)(struct net_device *));
int rdma_init_netdev(struct ib_device *device, u32 port_num,
		     enum rdma_netdev_t type, const char *name,
		     unsigned char name_assign_type,
		     void (*setup)(struct net_device *),
		     struct net_device *netdev);
int ib_get_eth_speed(struct ib_device *dev, u32 port_num, u16 *speed,
		     u8 *width);

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

/* ---------------------------------------------------------------------
 * Messages about a device: "<parent's driver> <parent>: <device>: ..." for
 * a device with a parent, "infiniband <device>: ..." otherwise.
 */

__printf(3, 4) __cold
void ibdev_printk(const char *level, const struct ib_device *ibdev,
		  const char *format, ...);
__printf(2, 3) __cold
void ibdev_emerg(const struct ib_device *ibdev, const char *format, ...);
__printf(2, 3) __cold
void ibdev_alert(const struct ib_device *ibdev, const char *format, ...);
__printf(2, 3) __cold
void ibdev_crit(const struct ib_device *ibdev, const char *format, ...);
__printf(2, 3) __cold
void ibdev_err(const struct ib_device *ibdev, const char *format, ...);
__printf(2, 3) __cold
void ibdev_warn(const struct ib_device *ibdev, const char *format, ...);
__printf(2, 3) __cold
void ibdev_notice(const struct ib_device *ibdev, const char *format, ...);
__printf(2, 3) __cold
void ibdev_info(const struct ib_device *ibdev, const char *format, ...);

/* The same, at most DEFAULT_RATELIMIT_BURST per interval from each call site */
#define ibdev_level_ratelimited(ibdev_level, ibdev, format, ...)	\
	do {								\
		static DEFINE_RATELIMIT_STATE(_rs,			\
					      DEFAULT_RATELIMIT_INTERVAL, \
					      DEFAULT_RATELIMIT_BURST);	\
		if (__ratelimit(&_rs))					\
			ibdev_level(ibdev, format, ##__VA_ARGS__);	\
	} while (0)

#define ibdev_emerg_ratelimited(ibdev, fmt, ...) \
	ibdev_level_ratelimited(ibdev_emerg, ibdev, fmt, ##__VA_ARGS__)
#define ibdev_alert_ratelimited(ibdev, fmt, ...) \
	ibdev_level_ratelimited(ibdev_alert, ibdev, fmt, ##__VA_ARGS__)
#define ibdev_crit_ratelimited(ibdev, fmt, ...) \
	ibdev_level_ratelimited(ibdev_crit, ibdev, fmt, ##__VA_ARGS__)
#define ibdev_err_ratelimited(ibdev, fmt, ...) \
	ibdev_level_ratelimited(ibdev_err, ibdev, fmt, ##__VA_ARGS__)
#define ibdev_warn_ratelimited(ibdev, fmt, ...) \
	ibdev_level_ratelimited(ibdev_warn, ibdev, fmt, ##__VA_ARGS__)
#define ibdev_notice_ratelimited(ibdev, fmt, ...) \
	ibdev_level_ratelimited(ibdev_notice, ibdev, fmt, ##__VA_ARGS__)
#define ibdev_info_ratelimited(ibdev, fmt, ...) \
	ibdev_level_ratelimited(ibdev_info, ibdev, fmt, ##__VA_ARGS__)

/*
 * Debug messages print only where DEBUG is defined (upstream also goes
 * through dynamic debug); elsewhere the arguments are still checked.
 */
#ifdef DEBUG
#define ibdev_dbg(ibdev, format, ...)					\
	ibdev_printk(KERN_DEBUG, ibdev, format, ##__VA_ARGS__)
#else
#define ibdev_dbg(ibdev, format, ...)					\
	do {								\
		if (0)							\
			ibdev_printk(KERN_DEBUG, ibdev, format,		\
				     ##__VA_ARGS__);			\
	} while (0)
#endif

/**
 * ibdev_to_node - the NUMA node of a device, for placing its memory
 * @ibdev: the device
 *
 * Return: the node of the device's parent (the PCI function, say), or
 * NUMA_NO_NODE for a device without one (software devices).
 */
static inline int ibdev_to_node(struct ib_device *ibdev)
{
	struct device *parent = ibdev->dev.parent;

	return parent ? dev_to_node(parent) : NUMA_NO_NODE;
}

/**
 * rdma_device_to_ibdev - the ib_device behind a struct device
 * @device: a device of class infiniband
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: the ib_device that owns @device.
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
 * rdma_cap_ib_switch - is the device an InfiniBand switch?
 * @device: the device
 *
 * A switch has one management port, port 0, and forwards directed-route
 * SMPs between its external ports.
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: true for a switch.
 */
static inline bool rdma_cap_ib_switch(const struct ib_device *device)
{
	return device->is_switch;
}

/**
 * rdma_start_port - first port number of a device
 * @device: the device
 *
 * Switches have only port 0; HCAs number their ports from 1.
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: 0 for a switch, else 1.
 */
static inline u32 rdma_start_port(const struct ib_device *device)
{
	return device->is_switch ? 0 : 1;
}

/**
 * rdma_end_port - last port number of a device
 * @device: the device
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: 0 for a switch, else the number of physical ports.
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

/* ---------------------------------------------------------------------
 * Address vector accessors
 */

static inline void rdma_ah_set_dlid(struct rdma_ah_attr *attr, u32 dlid)
{
	if (attr->type == RDMA_AH_ATTR_TYPE_IB)
		attr->ib.dlid = (u16)dlid;
	else if (attr->type == RDMA_AH_ATTR_TYPE_OPA)
		attr->opa.dlid = dlid;
}

static inline u32 rdma_ah_get_dlid(const struct rdma_ah_attr *attr)
{
	if (attr->type == RDMA_AH_ATTR_TYPE_IB)
		return attr->ib.dlid;
	if (attr->type == RDMA_AH_ATTR_TYPE_OPA)
		return attr->opa.dlid;
	return 0;
}

static inline void rdma_ah_set_sl(struct rdma_ah_attr *attr, u8 sl)
{
	attr->sl = sl;
}

static inline u8 rdma_ah_get_sl(const struct rdma_ah_attr *attr)
{
	return attr->sl;
}

static inline void rdma_ah_set_path_bits(struct rdma_ah_attr *attr,
					 u8 src_path_bits)
{
	if (attr->type == RDMA_AH_ATTR_TYPE_IB)
		attr->ib.src_path_bits = src_path_bits;
	else if (attr->type == RDMA_AH_ATTR_TYPE_OPA)
		attr->opa.src_path_bits = src_path_bits;
}

static inline u8 rdma_ah_get_path_bits(const struct rdma_ah_attr *attr)
{
	if (attr->type == RDMA_AH_ATTR_TYPE_IB)
		return attr->ib.src_path_bits;
	if (attr->type == RDMA_AH_ATTR_TYPE_OPA)
		return attr->opa.src_path_bits;
	return 0;
}

static inline void rdma_ah_set_make_grd(struct rdma_ah_attr *attr,
					bool make_grd)
{
	if (attr->type == RDMA_AH_ATTR_TYPE_OPA)
		attr->opa.make_grd = make_grd;
}

static inline bool rdma_ah_get_make_grd(const struct rdma_ah_attr *attr)
{
	return attr->type == RDMA_AH_ATTR_TYPE_OPA && attr->opa.make_grd;
}

static inline void rdma_ah_set_port_num(struct rdma_ah_attr *attr, u32 port)
{
	attr->port_num = port;
}

static inline u32 rdma_ah_get_port_num(const struct rdma_ah_attr *attr)
{
	return attr->port_num;
}

static inline void rdma_ah_set_static_rate(struct rdma_ah_attr *attr,
					   u8 static_rate)
{
	attr->static_rate = static_rate;
}

static inline u8 rdma_ah_get_static_rate(const struct rdma_ah_attr *attr)
{
	return attr->static_rate;
}

static inline void rdma_ah_set_ah_flags(struct rdma_ah_attr *attr,
					enum ib_ah_flags flag)
{
	attr->ah_flags = flag;
}

static inline enum ib_ah_flags
		rdma_ah_get_ah_flags(const struct rdma_ah_attr *attr)
{
	return attr->ah_flags;
}

static inline const struct ib_global_route
		*rdma_ah_read_grh(const struct rdma_ah_attr *attr)
{
	return &attr->grh;
}

/* Writable GRH of an attribute; only for callers that set it up. */
static inline struct ib_global_route
		*rdma_ah_retrieve_grh(struct rdma_ah_attr *attr)
{
	return &attr->grh;
}

static inline void rdma_ah_set_dgid_raw(struct rdma_ah_attr *attr, void *dgid)
{
	memcpy(attr->grh.dgid.raw, dgid, sizeof(attr->grh.dgid));
}

static inline void rdma_ah_set_subnet_prefix(struct rdma_ah_attr *attr,
					     __be64 prefix)
{
	attr->grh.dgid.global.subnet_prefix = prefix;
}

static inline void rdma_ah_set_interface_id(struct rdma_ah_attr *attr,
					    __be64 if_id)
{
	attr->grh.dgid.global.interface_id = if_id;
}

/**
 * rdma_ah_set_grh - fill the global route of an address vector
 * @attr: the attribute; gets IB_AH_GRH
 * @dgid: destination GID, or NULL to leave it alone
 * @flow_label: flow label
 * @sgid_index: source GID index
 * @hop_limit: hop limit
 * @traffic_class: traffic class
 *
 * @attr->grh.sgid_attr is cleared without a put: it must hold no reference.
 */
static inline void rdma_ah_set_grh(struct rdma_ah_attr *attr,
				   union ib_gid *dgid, u32 flow_label,
				   u8 sgid_index, u8 hop_limit,
				   u8 traffic_class)
{
	struct ib_global_route *grh = &attr->grh;

	attr->ah_flags = IB_AH_GRH;
	if (dgid)
		grh->dgid = *dgid;
	grh->flow_label = flow_label;
	grh->sgid_index = sgid_index;
	grh->hop_limit = hop_limit;
	grh->traffic_class = traffic_class;
	grh->sgid_attr = NULL;
}

void rdma_destroy_ah_attr(struct rdma_ah_attr *ah_attr);
void rdma_move_grh_sgid_attr(struct rdma_ah_attr *attr, union ib_gid *dgid,
			     u32 flow_label, u8 hop_limit, u8 traffic_class,
			     const struct ib_gid_attr *sgid_attr);
void rdma_copy_ah_attr(struct rdma_ah_attr *dest,
		       const struct rdma_ah_attr *src);
void rdma_replace_ah_attr(struct rdma_ah_attr *old,
			  const struct rdma_ah_attr *new);
void rdma_move_ah_attr(struct rdma_ah_attr *dest, struct rdma_ah_attr *src);

/**
 * rdma_ah_find_type - the address type a port uses
 * @dev: the device
 * @port_num: the port
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: RDMA_AH_ATTR_TYPE_ROCE, _OPA or _IB for such a port (_IB also
 * for an SMI device), else RDMA_AH_ATTR_TYPE_UNDEFINED.
 */
static inline enum rdma_ah_attr_type rdma_ah_find_type(struct ib_device *dev,
						       u32 port_num)
{
	if (rdma_protocol_roce(dev, port_num))
		return RDMA_AH_ATTR_TYPE_ROCE;
	if (rdma_protocol_ib(dev, port_num)) {
		if (rdma_cap_opa_ah(dev, port_num))
			return RDMA_AH_ATTR_TYPE_OPA;
		return RDMA_AH_ATTR_TYPE_IB;
	}
	if (dev->type == RDMA_DEVICE_TYPE_SMI)
		return RDMA_AH_ATTR_TYPE_IB;
	return RDMA_AH_ATTR_TYPE_UNDEFINED;
}

/* A 32-bit LID as the 16 bits IB packets carry. */
static inline u16 ib_lid_cpu16(u32 lid)
{
	WARN_ON_ONCE(lid & 0xFFFF0000);
	return (u16)lid;
}

static inline __be16 ib_lid_be16(u32 lid)
{
	WARN_ON_ONCE(lid & 0xFFFF0000);
	return cpu_to_be16((u16)lid);
}

/* ---------------------------------------------------------------------
 * Protection domains
 */

enum ib_pd_flags {
	/*
	 * Give the PD an rkey that opens all of memory to remote access
	 * (pd->unsafe_global_rkey).  Every use is logged: only for fully
	 * trusted fabrics.
	 */
	IB_PD_UNSAFE_GLOBAL_RKEY	= 0x01,
};

struct ib_pd *__ib_alloc_pd(struct ib_device *device, unsigned int flags,
			    const char *caller);

/**
 * ib_alloc_pd - allocate a kernel protection domain
 * @device: the device
 * @flags: enum ib_pd_flags
 *
 * The caller's module name becomes the owner of the PD in restrack.
 */
#define ib_alloc_pd(device, flags) \
	__ib_alloc_pd((device), (flags), KBUILD_MODNAME)

int ib_dealloc_pd_user(struct ib_pd *pd, struct ib_udata *udata);

/**
 * ib_dealloc_pd - free a kernel protection domain
 * @pd: the PD, with no object left in it
 */
static inline void ib_dealloc_pd(struct ib_pd *pd)
{
	int ret = ib_dealloc_pd_user(pd, NULL);

	WARN_ONCE(ret, "a kernel PD could not be freed");
}

/* ---------------------------------------------------------------------
 * Address handles
 */

enum rdma_create_ah_flags {
	/* the caller may sleep */
	RDMA_CREATE_AH_SLEEPABLE = BIT(0),
};

enum rdma_destroy_ah_flags {
	/* the caller may sleep */
	RDMA_DESTROY_AH_SLEEPABLE = BIT(0),
};

struct ib_ah *rdma_create_ah(struct ib_pd *pd, struct rdma_ah_attr *ah_attr,
			     u32 flags);
struct ib_ah *rdma_create_user_ah(struct ib_pd *pd,
				  struct rdma_ah_attr *ah_attr,
				  struct ib_udata *udata);
int ib_get_gids_from_rdma_hdr(const union rdma_network_hdr *hdr,
			      enum rdma_network_type net_type,
			      union ib_gid *sgid, union ib_gid *dgid);
int ib_get_rdma_header_version(const union rdma_network_hdr *hdr);
int ib_init_ah_attr_from_wc(struct ib_device *device, u32 port_num,
			    const struct ib_wc *wc, const struct ib_grh *grh,
			    struct rdma_ah_attr *ah_attr);
struct ib_ah *ib_create_ah_from_wc(struct ib_pd *pd, const struct ib_wc *wc,
				   const struct ib_grh *grh, u32 port_num);
int rdma_modify_ah(struct ib_ah *ah, struct rdma_ah_attr *ah_attr);
int rdma_query_ah(struct ib_ah *ah, struct rdma_ah_attr *ah_attr);
int rdma_destroy_ah_user(struct ib_ah *ah, u32 flags, struct ib_udata *udata);

/**
 * rdma_destroy_ah - destroy a kernel address handle
 * @ah: the AH
 * @flags: enum rdma_destroy_ah_flags
 */
static inline void rdma_destroy_ah(struct ib_ah *ah, u32 flags)
{
	int ret = rdma_destroy_ah_user(ah, flags, NULL);

	WARN_ONCE(ret, "a kernel AH could not be destroyed");
}

/* ---------------------------------------------------------------------
 * Shared receive queues
 */

struct ib_srq *ib_create_srq_user(struct ib_pd *pd,
				  struct ib_srq_init_attr *srq_init_attr,
				  struct ib_usrq_object *uobject,
				  struct ib_udata *udata);

/**
 * ib_create_srq - create a kernel shared receive queue
 * @pd: its PD
 * @srq_init_attr: what to create; attr is updated with the real sizes
 *
 * Context: Process context; sleeps, as ib_create_srq_user().
 *
 * Return: the SRQ or an ERR_PTR() (-EOPNOTSUPP when the device has no SRQs).
 */
static inline struct ib_srq *
ib_create_srq(struct ib_pd *pd, struct ib_srq_init_attr *srq_init_attr)
{
	if (!pd->device->ops.create_srq)
		return ERR_PTR(-EOPNOTSUPP);
	return ib_create_srq_user(pd, srq_init_attr, NULL, NULL);
}

int ib_modify_srq(struct ib_srq *srq, struct ib_srq_attr *srq_attr,
		  enum ib_srq_attr_mask srq_attr_mask);
int ib_query_srq(struct ib_srq *srq, struct ib_srq_attr *srq_attr);
int ib_destroy_srq_user(struct ib_srq *srq, struct ib_udata *udata);

/**
 * ib_destroy_srq - destroy a kernel shared receive queue
 * @srq: the SRQ, with no QP attached
 */
static inline void ib_destroy_srq(struct ib_srq *srq)
{
	int ret = ib_destroy_srq_user(srq, NULL);

	WARN_ONCE(ret, "a kernel SRQ could not be destroyed");
}

/**
 * ib_post_srq_recv - post receive requests to an SRQ
 * @srq: the SRQ
 * @recv_wr: chain of requests
 * @bad_recv_wr: set to the first request not posted on failure; may be
 *	NULL
 *
 * Context: Any context; does not sleep. Calls the driver's post_srq_recv op,
 * which takes the driver's SRQ lock.
 *
 * Return: 0, or the driver's negative errno with *@bad_recv_wr set.
 */
static inline int ib_post_srq_recv(struct ib_srq *srq,
				   const struct ib_recv_wr *recv_wr,
				   const struct ib_recv_wr **bad_recv_wr)
{
	const struct ib_recv_wr *dummy;

	return srq->device->ops.post_srq_recv(srq, recv_wr,
					      bad_recv_wr ? : &dummy);
}

/* ---------------------------------------------------------------------
 * Queue pairs
 */

struct ib_qp *ib_create_qp_kernel(struct ib_pd *pd,
				  struct ib_qp_init_attr *qp_init_attr,
				  const char *caller);
struct ib_qp *ib_create_qp_user(struct ib_device *dev, struct ib_pd *pd,
				struct ib_qp_init_attr *attr,
				struct ib_udata *udata,
				struct ib_uqp_object *uobj, const char *caller);
void ib_qp_usecnt_inc(struct ib_qp *qp);
void ib_qp_usecnt_dec(struct ib_qp *qp);

/**
 * ib_create_qp - create a kernel queue pair
 * @pd: its PD
 * @init_attr: what to create; cap is updated with the real sizes
 *
 * Context: Process context; sleeps, as ib_create_qp_kernel().
 *
 * Return: the QP or an ERR_PTR().
 */
static inline struct ib_qp *ib_create_qp(struct ib_pd *pd,
					 struct ib_qp_init_attr *init_attr)
{
	return ib_create_qp_kernel(pd, init_attr, KBUILD_MODNAME);
}

int ib_modify_qp_with_udata(struct ib_qp *qp, struct ib_qp_attr *attr,
			    int attr_mask, struct ib_udata *udata);
int ib_modify_qp(struct ib_qp *qp, struct ib_qp_attr *qp_attr,
		 int qp_attr_mask);
int ib_query_qp(struct ib_qp *qp, struct ib_qp_attr *qp_attr,
		int qp_attr_mask, struct ib_qp_init_attr *qp_init_attr);
int ib_destroy_qp_user(struct ib_qp *qp, struct ib_udata *udata);

/**
 * ib_destroy_qp - destroy a kernel queue pair
 * @qp: the QP
 *
 * Context: Process context; sleeps, as ib_destroy_qp_user().
 *
 * Return: 0, -EBUSY while the QP is still used, or the driver's error.
 */
static inline int ib_destroy_qp(struct ib_qp *qp)
{
	return ib_destroy_qp_user(qp, NULL);
}

int ib_attach_mcast(struct ib_qp *qp, union ib_gid *gid, u16 lid);
int ib_detach_mcast(struct ib_qp *qp, union ib_gid *gid, u16 lid);

bool ib_modify_qp_is_ok(enum ib_qp_state cur_state,
			enum ib_qp_state next_state, enum ib_qp_type type,
			enum ib_qp_attr_mask mask);
int ib_resolve_eth_dmac(struct ib_device *device,
			struct rdma_ah_attr *ah_attr);

/**
 * ib_post_send - post send requests
 * @qp: the QP
 * @send_wr: chain of requests
 * @bad_send_wr: set to the first request not posted on failure; may be
 *	NULL
 *
 * Context: Any context; does not sleep. Calls the driver's post_send op, which
 * takes the driver's QP send lock.
 *
 * Return: 0, or the driver's negative errno with *@bad_send_wr set.
 */
static inline int ib_post_send(struct ib_qp *qp,
			       const struct ib_send_wr *send_wr,
			       const struct ib_send_wr **bad_send_wr)
{
	const struct ib_send_wr *dummy;

	return qp->device->ops.post_send(qp, send_wr, bad_send_wr ? : &dummy);
}

/**
 * ib_post_recv - post receive requests
 * @qp: the QP
 * @recv_wr: chain of requests
 * @bad_recv_wr: set to the first request not posted on failure; may be
 *	NULL
 *
 * Context: Any context; does not sleep. Calls the driver's post_recv op, which
 * takes the driver's QP receive lock.
 *
 * Return: 0, or the driver's negative errno with *@bad_recv_wr set.
 */
static inline int ib_post_recv(struct ib_qp *qp,
			       const struct ib_recv_wr *recv_wr,
			       const struct ib_recv_wr **bad_recv_wr)
{
	const struct ib_recv_wr *dummy;

	return qp->device->ops.post_recv(qp, recv_wr, bad_recv_wr ? : &dummy);
}

void ib_drain_rq(struct ib_qp *qp);
void ib_drain_sq(struct ib_qp *qp);
void ib_drain_qp(struct ib_qp *qp);

/* ---------------------------------------------------------------------
 * Receive work queues
 */

struct ib_wq *ib_create_wq(struct ib_pd *pd,
			   struct ib_wq_init_attr *init_attr);
int ib_destroy_wq_user(struct ib_wq *wq, struct ib_udata *udata);
int ib_modify_wq(struct ib_wq *wq, struct ib_wq_attr *attr, u32 wq_attr_mask);

/* ---------------------------------------------------------------------
 * Completion queues
 */

struct ib_cq *__ib_alloc_cq(struct ib_device *dev, void *private, int nr_cqe,
			    int comp_vector, enum ib_poll_context poll_ctx,
			    const char *caller);

/**
 * ib_alloc_cq - allocate a CQ the CQ API polls
 * @device: the device
 * @priv: cq->cq_context
 * @nr_cqe: minimum number of entries
 * @comp_vect: completion vector
 * @poll_ctx: where completions are handled
 */
#define ib_alloc_cq(device, priv, nr_cqe, comp_vect, poll_ctx)		\
	__ib_alloc_cq((device), (priv), (nr_cqe), (comp_vect), (poll_ctx), \
		      KBUILD_MODNAME)

struct ib_cq *__ib_alloc_cq_any(struct ib_device *dev, void *private,
				int nr_cqe, enum ib_poll_context poll_ctx,
				const char *caller);

/**
 * ib_alloc_cq_any - allocate a CQ on a completion vector the core picks
 * @device: the device
 * @private: cq->cq_context
 * @nr_cqe: minimum number of entries
 * @poll_ctx: where completions are handled
 */
#define ib_alloc_cq_any(device, private, nr_cqe, poll_ctx)		\
	__ib_alloc_cq_any((device), (private), (nr_cqe), (poll_ctx),	\
			  KBUILD_MODNAME)

void ib_free_cq(struct ib_cq *cq);
int ib_process_cq_direct(struct ib_cq *cq, int budget);

struct ib_cq *__ib_create_cq(struct ib_device *device,
			     ib_comp_handler comp_handler,
			     void (*event_handler)(struct ib_event *event,
						   void *context),
			     void *cq_context,
			     const struct ib_cq_init_attr *cq_attr,
			     const char *caller);

/**
 * ib_create_cq - create a CQ polled by its user (legacy interface)
 * @device: the device
 * @cmp_hndlr: completion event callback
 * @evt_hndlr: asynchronous event callback
 * @cq_ctxt: argument of both
 * @cq_attr: size and vector
 */
#define ib_create_cq(device, cmp_hndlr, evt_hndlr, cq_ctxt, cq_attr)	\
	__ib_create_cq((device), (cmp_hndlr), (evt_hndlr), (cq_ctxt),	\
		       (cq_attr), KBUILD_MODNAME)

int rdma_set_cq_moderation(struct ib_cq *cq, u16 cq_count, u16 cq_period);
int ib_resize_cq(struct ib_cq *cq, int cqe);
int ib_destroy_cq_user(struct ib_cq *cq, struct ib_udata *udata);

/**
 * ib_destroy_cq - destroy a CQ made with ib_create_cq()
 * @cq: the CQ, with no QP left on it
 */
static inline void ib_destroy_cq(struct ib_cq *cq)
{
	int ret = ib_destroy_cq_user(cq, NULL);

	WARN_ONCE(ret, "a kernel CQ could not be destroyed");
}

/**
 * ib_poll_cq - take completions from a CQ
 * @cq: the CQ
 * @num_entries: room in @wc
 * @wc: where to put them
 *
 * Return: completions taken (0..@num_entries) or a negative error.
 */
static inline int ib_poll_cq(struct ib_cq *cq, int num_entries,
			     struct ib_wc *wc)
{
	return cq->device->ops.poll_cq(cq, num_entries, wc);
}

/**
 * ib_req_notify_cq - arm a CQ for a completion event
 * @cq: the CQ
 * @flags: IB_CQ_SOLICITED or IB_CQ_NEXT_COMP, with
 *	IB_CQ_REPORT_MISSED_EVENTS to learn about completions already there
 *
 * Return: negative on error; with IB_CQ_REPORT_MISSED_EVENTS, positive
 * when completions may have arrived before arming (poll again), else 0.
 */
static inline int ib_req_notify_cq(struct ib_cq *cq,
				   enum ib_cq_notify_flags flags)
{
	return cq->device->ops.req_notify_cq(cq, flags);
}

struct ib_cq *ib_cq_pool_get(struct ib_device *dev, unsigned int nr_cqe,
			     int comp_vector_hint,
			     enum ib_poll_context poll_ctx);
void ib_cq_pool_put(struct ib_cq *cq, unsigned int nr_cqe);

/* ---------------------------------------------------------------------
 * DMA mapping.  Software devices register with no DMA device and use
 * kernel virtual addresses as DMA addresses ("virtual DMA").
 */

static inline bool ib_uses_virt_dma(struct ib_device *dev)
{
	return IS_ENABLED(CONFIG_INFINIBAND_VIRT_DMA) && !dev->dma_device;
}

static inline bool ib_dma_pci_p2p_dma_supported(struct ib_device *dev)
{
	if (ib_uses_virt_dma(dev))
		return false;
	return dma_pci_p2pdma_supported(dev->dma_device);
}

/* The kernel pointer behind a virtual DMA address. */
static inline void *ib_virt_dma_to_ptr(u64 dma_addr)
{
	return (void *)(uintptr_t)dma_addr;
}

/* The page behind a virtual DMA address. */
static inline struct page *ib_virt_dma_to_page(u64 dma_addr)
{
	return virt_to_page(ib_virt_dma_to_ptr(dma_addr));
}

static inline int ib_dma_mapping_error(struct ib_device *dev, u64 dma_addr)
{
	if (ib_uses_virt_dma(dev))
		return 0;
	return dma_mapping_error(dev->dma_device, dma_addr);
}

static inline u64 ib_dma_map_single(struct ib_device *dev, void *cpu_addr,
				    size_t size,
				    enum dma_data_direction direction)
{
	if (ib_uses_virt_dma(dev))
		return (uintptr_t)cpu_addr;
	return dma_map_single(dev->dma_device, cpu_addr, size, direction);
}

static inline void ib_dma_unmap_single(struct ib_device *dev, u64 addr,
				       size_t size,
				       enum dma_data_direction direction)
{
	if (!ib_uses_virt_dma(dev))
		dma_unmap_single(dev->dma_device, addr, size, direction);
}

static inline u64 ib_dma_map_page(struct ib_device *dev, struct page *page,
				  unsigned long offset, size_t size,
				  enum dma_data_direction direction)
{
	if (ib_uses_virt_dma(dev))
		return (uintptr_t)(page_address(page) + offset);
	return dma_map_page(dev->dma_device, page, offset, size, direction);
}

static inline void ib_dma_unmap_page(struct ib_device *dev, u64 addr,
				     size_t size,
				     enum dma_data_direction direction)
{
	if (!ib_uses_virt_dma(dev))
		dma_unmap_page(dev->dma_device, addr, size, direction);
}

int ib_dma_virt_map_sg(struct ib_device *dev, struct scatterlist *sg,
		       int nents);

static inline int ib_dma_map_sg_attrs(struct ib_device *dev,
				      struct scatterlist *sg, int nents,
				      enum dma_data_direction direction,
				      unsigned long dma_attrs)
{
	if (ib_uses_virt_dma(dev))
		return ib_dma_virt_map_sg(dev, sg, nents);
	return dma_map_sg_attrs(dev->dma_device, sg, nents, direction,
				dma_attrs);
}

static inline void ib_dma_unmap_sg_attrs(struct ib_device *dev,
					 struct scatterlist *sg, int nents,
					 enum dma_data_direction direction,
					 unsigned long dma_attrs)
{
	if (!ib_uses_virt_dma(dev))
		dma_unmap_sg_attrs(dev->dma_device, sg, nents, direction,
				   dma_attrs);
}

static inline int ib_dma_map_sgtable_attrs(struct ib_device *dev,
					   struct sg_table *sgt,
					   enum dma_data_direction direction,
					   unsigned long dma_attrs)
{
	int nents;

	if (!ib_uses_virt_dma(dev))
		return dma_map_sgtable(dev->dma_device, sgt, direction,
				       dma_attrs);
	nents = ib_dma_virt_map_sg(dev, sgt->sgl, sgt->orig_nents);
	if (!nents)
		return -EIO;
	sgt->nents = nents;
	return 0;
}

static inline void ib_dma_unmap_sgtable_attrs(struct ib_device *dev,
					      struct sg_table *sgt,
					      enum dma_data_direction direction,
					      unsigned long dma_attrs)
{
	if (!ib_uses_virt_dma(dev))
		dma_unmap_sgtable(dev->dma_device, sgt, direction, dma_attrs);
}

static inline int ib_dma_map_sg(struct ib_device *dev, struct scatterlist *sg,
				int nents, enum dma_data_direction direction)
{
	return ib_dma_map_sg_attrs(dev, sg, nents, direction, 0);
}

static inline void ib_dma_unmap_sg(struct ib_device *dev,
				   struct scatterlist *sg, int nents,
				   enum dma_data_direction direction)
{
	ib_dma_unmap_sg_attrs(dev, sg, nents, direction, 0);
}

static inline unsigned int ib_dma_max_seg_size(struct ib_device *dev)
{
	if (ib_uses_virt_dma(dev))
		return UINT_MAX;
	return dma_get_max_seg_size(dev->dma_device);
}

static inline void ib_dma_sync_single_for_cpu(struct ib_device *dev,
					      u64 addr, size_t size,
					      enum dma_data_direction dir)
{
	if (!ib_uses_virt_dma(dev))
		dma_sync_single_for_cpu(dev->dma_device, addr, size, dir);
}

static inline void ib_dma_sync_single_for_device(struct ib_device *dev,
						 u64 addr, size_t size,
						 enum dma_data_direction dir)
{
	if (!ib_uses_virt_dma(dev))
		dma_sync_single_for_device(dev->dma_device, addr, size, dir);
}

/* ---------------------------------------------------------------------
 * Memory regions
 */

struct ib_mr *ib_reg_user_mr(struct ib_pd *pd, u64 start, u64 length,
			     u64 virt_addr, int mr_access_flags);
/* Prefetch hints on ranges of on-demand-paging MRs (upstream ib_core) */
int ib_advise_mr(struct ib_pd *pd, enum ib_uverbs_advise_mr_advice advice,
		 u32 flags, struct ib_sge *sg_list, u32 num_sge);
int ib_dereg_mr_user(struct ib_mr *mr, struct ib_udata *udata);

/**
 * ib_dereg_mr - free a kernel memory region
 * @mr: the MR
 *
 * Context: Process context; sleeps, as ib_dereg_mr_user().
 *
 * Return: 0 or the driver's error.
 */
static inline int ib_dereg_mr(struct ib_mr *mr)
{
	return ib_dereg_mr_user(mr, NULL);
}

struct ib_mr *ib_alloc_mr(struct ib_pd *pd, enum ib_mr_type mr_type,
			  u32 max_num_sg);
struct ib_mr *ib_alloc_mr_integrity(struct ib_pd *pd, u32 max_num_data_sg,
				    u32 max_num_meta_sg);

/**
 * ib_update_fast_reg_key - set the low byte (the "key") of an MR's keys
 * @mr: the MR
 * @newkey: the new key byte
 *
 * Used before a fast registration so that stale remote keys stop working.
 */
static inline void ib_update_fast_reg_key(struct ib_mr *mr, u8 newkey)
{
	mr->lkey = (mr->lkey & 0xffffff00) | newkey;
	mr->rkey = (mr->rkey & 0xffffff00) | newkey;
}

/**
 * ib_inc_rkey - the next key with the same index
 * @rkey: a key
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: @rkey with its low byte incremented (wrapping) and its index
 * unchanged.
 */
static inline u32 ib_inc_rkey(u32 rkey)
{
	const u32 mask = 0x000000ff;

	return ((rkey + 1) & mask) | (rkey & ~mask);
}

/**
 * ib_check_mr_access - whether a device can register memory with these rights
 * @ib_dev: the device
 * @flags: IB_ACCESS_* flags asked for
 *
 * Remote write and remote atomic need local write too; only flags of
 * IB_ACCESS_SUPPORTED are known; on-demand paging and the FLUSH types
 * need the device's capability.
 *
 * Context: Any context; does not sleep.
 *
 * Return: 0 when @flags can be used, -EINVAL for a combination or flag
 * no device takes, -EOPNOTSUPP for one this device lacks.
 */
static inline int ib_check_mr_access(struct ib_device *ib_dev,
				     unsigned int flags)
{
	u64 caps = ib_dev->attrs.device_cap_flags;

	if ((flags & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)) &&
	    !(flags & IB_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	if (flags & ~IB_ACCESS_SUPPORTED)
		return -EINVAL;
	if ((flags & IB_ACCESS_ON_DEMAND) &&
	    !(ib_dev->attrs.kernel_cap_flags & IBK_ON_DEMAND_PAGING))
		return -EOPNOTSUPP;
	if ((flags & IB_ACCESS_FLUSH_GLOBAL) &&
	    !(caps & IB_DEVICE_FLUSH_GLOBAL))
		return -EOPNOTSUPP;
	if ((flags & IB_ACCESS_FLUSH_PERSISTENT) &&
	    !(caps & IB_DEVICE_FLUSH_PERSISTENT))
		return -EOPNOTSUPP;
	return 0;
}

/**
 * ib_access_writable - whether memory registered with @access_flags may change
 * @access_flags: IB_ACCESS_* flags of a registration
 *
 * Local and remote write, remote atomics and binding a memory window
 * (which can grant write) all need the pages pinned writable.
 *
 * Context: Any context; does not sleep.
 *
 * Return: true when the pages must be writable.
 */
static inline bool ib_access_writable(int access_flags)
{
	return access_flags & (IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
			       IB_ACCESS_REMOTE_ATOMIC | IB_ACCESS_MW_BIND);
}

int ib_map_mr_sg(struct ib_mr *mr, struct scatterlist *sg, int sg_nents,
		 unsigned int *sg_offset, unsigned int page_size);
int ib_map_mr_sg_pi(struct ib_mr *mr, struct scatterlist *data_sg,
		    int data_sg_nents, unsigned int *data_sg_offset,
		    struct scatterlist *meta_sg, int meta_sg_nents,
		    unsigned int *meta_sg_offset, unsigned int page_size);

/**
 * ib_map_mr_sg_zbva - map a scatterlist with a zero based address
 * @mr: the MR
 * @sg: the scatterlist (DMA mapped)
 * @sg_nents: its entries
 * @sg_offset: byte offset into the first entry, updated like ib_map_mr_sg
 * @page_size: page size of the mapping
 *
 * Context: As ib_map_mr_sg().
 *
 * Return: as ib_map_mr_sg().
 */
static inline int ib_map_mr_sg_zbva(struct ib_mr *mr, struct scatterlist *sg,
				    int sg_nents, unsigned int *sg_offset,
				    unsigned int page_size)
{
	int n;

	n = ib_map_mr_sg(mr, sg, sg_nents, sg_offset, page_size);
	mr->iova = 0;
	return n;
}

int ib_sg_to_pages(struct ib_mr *mr, struct scatterlist *sgl, int sg_nents,
		   unsigned int *sg_offset, int (*set_page)(struct ib_mr *, u64));
int ib_check_mr_status(struct ib_mr *mr, u32 check_mask,
		       struct ib_mr_status *mr_status);

/**
 * rdma_block_iter_dma_address - DMA address of the current block
 * @biter: the iterator
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: the DMA address of the current block, aligned to the block size.
 */
static inline dma_addr_t
rdma_block_iter_dma_address(struct ib_block_iter *biter)
{
	return biter->__dma_addr & ~(BIT_ULL(biter->__pg_bit) - 1);
}

void __rdma_block_iter_start(struct ib_block_iter *biter,
			     struct scatterlist *sglist,
			     unsigned int nents,
			     unsigned long pgsz);
bool __rdma_block_iter_next(struct ib_block_iter *biter);

/**
 * rdma_for_each_block - walk a DMA-mapped scatterlist in aligned blocks
 * @sglist: the scatterlist
 * @biter: a struct ib_block_iter, read with rdma_block_iter_dma_address()
 * @nents: DMA-mapped entries of @sglist to walk
 * @pgsz: the block size, a power of two the device supports
 *
 * Each step gives the next @pgsz-aligned block; an entry's start need not
 * be aligned (its block then begins before it).
 */
#define rdma_for_each_block(sglist, biter, nents, pgsz)		\
	for (__rdma_block_iter_start(biter, sglist, nents, pgsz);	\
	     __rdma_block_iter_next(biter);)

#endif /* IB_VERBS_H */
