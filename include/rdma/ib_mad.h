/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Management datagrams (MADs, IBTA vol. 1 chapter 13): the wire layout
 * of the common MAD headers and the kernel API of the MAD layer, through
 * which the SA client, the IB CM and user_mad send and receive MADs on
 * QP0/QP1.  Names, layouts and values are those of Linux 6.12.
 *
 * Every structure here that is on the wire is big-endian where typed
 * __be*, and sized exactly as the IBTA lays it out.
 */
#ifndef IB_MAD_H
#define IB_MAD_H

#include <linux/bitops.h>
#include <linux/list.h>
#include <linux/types.h>
#include <rdma/ib_verbs.h>
#include <uapi/rdma/ib_user_mad.h>

/* MAD base versions (the first byte of every MAD) */
#define IB_MGMT_BASE_VERSION			1
#define OPA_MGMT_BASE_VERSION			0x80

#define OPA_SM_CLASS_VERSION			0x80

/* Management classes (mgmt_class) */
#define IB_MGMT_CLASS_SUBN_LID_ROUTED		0x01
#define IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE	0x81
#define IB_MGMT_CLASS_SUBN_ADM			0x03
#define IB_MGMT_CLASS_PERF_MGMT			0x04
#define IB_MGMT_CLASS_BM			0x05
#define IB_MGMT_CLASS_DEVICE_MGMT		0x06
#define IB_MGMT_CLASS_CM			0x07
#define IB_MGMT_CLASS_SNMP			0x08
#define IB_MGMT_CLASS_DEVICE_ADM		0x10
#define IB_MGMT_CLASS_BOOT_MGMT			0x11
#define IB_MGMT_CLASS_BIS			0x12
#define IB_MGMT_CLASS_CONG_MGMT			0x21
#define IB_MGMT_CLASS_VENDOR_RANGE2_START	0x30
#define IB_MGMT_CLASS_VENDOR_RANGE2_END		0x4F

#define IB_OPENIB_OUI				0x001405

/* Methods; a response sets IB_MGMT_METHOD_RESP on the request's method */
#define IB_MGMT_METHOD_GET			0x01
#define IB_MGMT_METHOD_SET			0x02
#define IB_MGMT_METHOD_GET_RESP			0x81
#define IB_MGMT_METHOD_SEND			0x03
#define IB_MGMT_METHOD_TRAP			0x05
#define IB_MGMT_METHOD_REPORT			0x06
#define IB_MGMT_METHOD_REPORT_RESP		0x86
#define IB_MGMT_METHOD_TRAP_REPRESS		0x07

#define IB_MGMT_METHOD_RESP			0x80
#define IB_BM_ATTR_MOD_RESP			cpu_to_be32(1)

#define IB_MGMT_MAX_METHODS			128

/* The status field (host order; the wire field is __be16) */
#define IB_MGMT_MAD_STATUS_SUCCESS			0x0000
#define IB_MGMT_MAD_STATUS_BUSY				0x0001
#define IB_MGMT_MAD_STATUS_REDIRECT_REQD		0x0002
#define IB_MGMT_MAD_STATUS_BAD_VERSION			0x0004
#define IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD		0x0008
#define IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB	0x000c
#define IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE		0x001c

/* RMPP (reliable multi-packet transaction protocol, IBTA 13.6) */
#define IB_MGMT_RMPP_VERSION			1

#define IB_MGMT_RMPP_TYPE_DATA			1
#define IB_MGMT_RMPP_TYPE_ACK			2
#define IB_MGMT_RMPP_TYPE_STOP			3
#define IB_MGMT_RMPP_TYPE_ABORT			4

#define IB_MGMT_RMPP_FLAG_ACTIVE		BIT(0)
#define IB_MGMT_RMPP_FLAG_FIRST			BIT(1)
#define IB_MGMT_RMPP_FLAG_LAST			BIT(2)

#define IB_MGMT_RMPP_NO_RESPTIME		0x1F

#define IB_MGMT_RMPP_STATUS_SUCCESS		0
#define IB_MGMT_RMPP_STATUS_RESX		1
#define IB_MGMT_RMPP_STATUS_ABORT_MIN		118
#define IB_MGMT_RMPP_STATUS_T2L			118
#define IB_MGMT_RMPP_STATUS_BAD_LEN		119
#define IB_MGMT_RMPP_STATUS_BAD_SEG		120
#define IB_MGMT_RMPP_STATUS_BADT		121
#define IB_MGMT_RMPP_STATUS_W2S			122
#define IB_MGMT_RMPP_STATUS_S2B			123
#define IB_MGMT_RMPP_STATUS_BAD_STATUS		124
#define IB_MGMT_RMPP_STATUS_UNV			125
#define IB_MGMT_RMPP_STATUS_TMR			126
#define IB_MGMT_RMPP_STATUS_UNSPEC		127
#define IB_MGMT_RMPP_STATUS_ABORT_MAX		127

/* The management QPs and their well-known Q_Key and P_Keys */
#define IB_QP0			0
#define IB_QP1			cpu_to_be32(1)
#define IB_QP1_QKEY		0x80010000
#define IB_QP_SET_QKEY		0x80000000

#define IB_DEFAULT_PKEY_PARTIAL	0x7FFF
#define IB_DEFAULT_PKEY_FULL	0xFFFF

/* Notice (trap) generic types, IBTA 13.4.8.2 */
#define IB_NOTICE_TYPE_FATAL	0x80
#define IB_NOTICE_TYPE_URGENT	0x81
#define IB_NOTICE_TYPE_SECURITY	0x82
#define IB_NOTICE_TYPE_SM	0x83
#define IB_NOTICE_TYPE_INFO	0x84

/* Notice producer types */
#define IB_NOTICE_PROD_CA		cpu_to_be16(1)
#define IB_NOTICE_PROD_SWITCH		cpu_to_be16(2)
#define IB_NOTICE_PROD_ROUTER		cpu_to_be16(3)
#define IB_NOTICE_PROD_CLASS_MGR	cpu_to_be16(4)

/* Header and payload sizes, in bytes, of the MAD formats below */
enum {
	IB_MGMT_MAD_HDR = 24,
	IB_MGMT_MAD_DATA = 232,
	IB_MGMT_RMPP_HDR = 36,
	IB_MGMT_RMPP_DATA = 220,
	IB_MGMT_VENDOR_HDR = 40,
	IB_MGMT_VENDOR_DATA = 216,
	IB_MGMT_SA_HDR = 56,
	IB_MGMT_SA_DATA = 200,
	IB_MGMT_DEVICE_HDR = 64,
	IB_MGMT_DEVICE_DATA = 192,
	IB_MGMT_MAD_SIZE = IB_MGMT_MAD_HDR + IB_MGMT_MAD_DATA,
	OPA_MGMT_MAD_DATA = 2024,
	OPA_MGMT_RMPP_DATA = 2012,
	OPA_MGMT_MAD_SIZE = IB_MGMT_MAD_HDR + OPA_MGMT_MAD_DATA,
};

/* The common MAD header, first in every MAD */
struct ib_mad_hdr {
	u8	base_version;
	u8	mgmt_class;
	u8	class_version;
	u8	method;
	__be16	status;
	__be16	class_specific;
	__be64	tid;
	__be16	attr_id;
	__be16	resv;
	__be32	attr_mod;
};

/* The RMPP header, after the common header in classes that use RMPP */
struct ib_rmpp_hdr {
	u8	rmpp_version;
	u8	rmpp_type;
	u8	rmpp_rtime_flags;	/* resp. time << 3 | IB_MGMT_RMPP_FLAG_* */
	u8	rmpp_status;
	__be32	seg_num;
	__be32	paylen_newwin;
};

/*
 * Component mask of an SA query: bit n set means component n of the
 * attribute is valid.  Kept in wire order, hence its own bitwise type.
 */
typedef u64 __bitwise ib_sa_comp_mask;

#define IB_SA_COMP_MASK(n) ((__force ib_sa_comp_mask)cpu_to_be64(1ull << (n)))

/*
 * The SA header.  comp_mask sits at a 4-byte offset within the MAD, so
 * the structure is packed: its natural 8-byte alignment would move it.
 */
struct ib_sa_hdr {
	__be64			sm_key;
	__be16			attr_offset;
	__be16			reserved;
	ib_sa_comp_mask		comp_mask;
} __packed;

struct ib_mad {
	struct ib_mad_hdr	mad_hdr;
	u8			data[IB_MGMT_MAD_DATA];
};

struct opa_mad {
	struct ib_mad_hdr	mad_hdr;
	u8			data[OPA_MGMT_MAD_DATA];
};

struct ib_rmpp_mad {
	struct ib_mad_hdr	mad_hdr;
	struct ib_rmpp_hdr	rmpp_hdr;
	u8			data[IB_MGMT_RMPP_DATA];
};

struct opa_rmpp_mad {
	struct ib_mad_hdr	mad_hdr;
	struct ib_rmpp_hdr	rmpp_hdr;
	u8			data[OPA_MGMT_RMPP_DATA];
};

struct ib_sa_mad {
	struct ib_mad_hdr	mad_hdr;
	struct ib_rmpp_hdr	rmpp_hdr;
	struct ib_sa_hdr	sa_hdr;
	u8			data[IB_MGMT_SA_DATA];
} __packed;

struct ib_vendor_mad {
	struct ib_mad_hdr	mad_hdr;
	struct ib_rmpp_hdr	rmpp_hdr;
	u8			reserved;
	u8			oui[3];
	u8			data[IB_MGMT_VENDOR_DATA];
};

/* ClassPortInfo, the attribute every management class has */
#define IB_MGMT_CLASSPORTINFO_ATTR_ID	cpu_to_be16(0x0001)

#define IB_CLASS_PORT_INFO_RESP_TIME_MASK	0x1F
#define IB_CLASS_PORT_INFO_RESP_TIME_FIELD_SIZE 5

struct ib_class_port_info {
	u8			base_version;
	u8			class_version;
	__be16			capability_mask;
	/* CapabilityMask2 in the upper 27 bits, RespTimeValue in the low 5 */
	__be32			cap_mask2_resp_time;
	u8			redirect_gid[16];
	__be32			redirect_tcslfl;
	__be16			redirect_lid;
	__be16			redirect_pkey;
	__be32			redirect_qp;
	__be32			redirect_qkey;
	u8			trap_gid[16];
	__be32			trap_tcslfl;
	__be16			trap_lid;
	__be16			trap_pkey;
	__be32			trap_hlqp;
	__be32			trap_qkey;
};

/* PortInfo:CapabilityMask bits */
enum ib_port_capability_mask_bits {
	IB_PORT_SM = 1 << 1,
	IB_PORT_NOTICE_SUP = 1 << 2,
	IB_PORT_TRAP_SUP = 1 << 3,
	IB_PORT_OPT_IPD_SUP = 1 << 4,
	IB_PORT_AUTO_MIGR_SUP = 1 << 5,
	IB_PORT_SL_MAP_SUP = 1 << 6,
	IB_PORT_MKEY_NVRAM = 1 << 7,
	IB_PORT_PKEY_NVRAM = 1 << 8,
	IB_PORT_LED_INFO_SUP = 1 << 9,
	IB_PORT_SM_DISABLED = 1 << 10,
	IB_PORT_SYS_IMAGE_GUID_SUP = 1 << 11,
	IB_PORT_PKEY_SW_EXT_PORT_TRAP_SUP = 1 << 12,
	IB_PORT_EXTENDED_SPEEDS_SUP = 1 << 14,
	IB_PORT_CAP_MASK2_SUP = 1 << 15,
	IB_PORT_CM_SUP = 1 << 16,
	IB_PORT_SNMP_TUNNEL_SUP = 1 << 17,
	IB_PORT_REINIT_SUP = 1 << 18,
	IB_PORT_DEVICE_MGMT_SUP = 1 << 19,
	IB_PORT_VENDOR_CLASS_SUP = 1 << 20,
	IB_PORT_DR_NOTICE_SUP = 1 << 21,
	IB_PORT_CAP_MASK_NOTICE_SUP = 1 << 22,
	IB_PORT_BOOT_MGMT_SUP = 1 << 23,
	IB_PORT_LINK_LATENCY_SUP = 1 << 24,
	IB_PORT_CLIENT_REG_SUP = 1 << 25,
	IB_PORT_OTHER_LOCAL_CHANGES_SUP = 1 << 26,
	IB_PORT_LINK_SPEED_WIDTH_TABLE_SUP = 1 << 27,
	IB_PORT_VENDOR_SPECIFIC_MADS_TABLE_SUP = 1 << 28,
	IB_PORT_MCAST_PKEY_TRAP_SUPPRESSION_SUP = 1 << 29,
	IB_PORT_MCAST_FDB_TOP_SUP = 1 << 30,
	IB_PORT_HIERARCHY_INFO_SUP = 1ULL << 31,
};

/* PortInfo:CapabilityMask2 bits */
enum ib_port_capability_mask2_bits {
	IB_PORT_SET_NODE_DESC_SUP		= 1 << 0,
	IB_PORT_EX_PORT_INFO_EX_SUP		= 1 << 1,
	IB_PORT_VIRT_SUP			= 1 << 2,
	IB_PORT_SWITCH_PORT_STATE_TABLE_SUP	= 1 << 3,
	IB_PORT_LINK_WIDTH_2X_SUP		= 1 << 4,
	IB_PORT_LINK_SPEED_HDR_SUP		= 1 << 5,
	IB_PORT_LINK_SPEED_NDR_SUP		= 1 << 10,
	IB_PORT_EXTENDED_SPEEDS2_SUP		= 1 << 11,
	IB_PORT_LINK_SPEED_XDR_SUP		= 1 << 12,
};

#define OPA_CLASS_PORT_INFO_PR_SUPPORT BIT(26)

/* OPA's ClassPortInfo: 32-bit LIDs, P_Keys moved to the end */
struct opa_class_port_info {
	u8 base_version;
	u8 class_version;
	__be16 cap_mask;
	__be32 cap_mask2_resp_time;

	u8 redirect_gid[16];
	__be32 redirect_tc_fl;
	__be32 redirect_lid;
	__be32 redirect_sl_qp;
	__be32 redirect_qkey;

	u8 trap_gid[16];
	__be32 trap_tc_fl;
	__be32 trap_lid;
	__be32 trap_hl_qp;
	__be32 trap_qkey;

	__be16 trap_pkey;
	__be16 redirect_pkey;

	u8 trap_sl_rsvd;
	u8 reserved[3];
} __packed;

/* ib_get_cpi_resp_time - RespTimeValue of a ClassPortInfo */
static inline u8 ib_get_cpi_resp_time(struct ib_class_port_info *cpi)
{
	return be32_to_cpu(cpi->cap_mask2_resp_time) &
	       IB_CLASS_PORT_INFO_RESP_TIME_MASK;
}

/* ib_set_cpi_resp_time - set RespTimeValue, keeping CapabilityMask2 */
static inline void ib_set_cpi_resp_time(struct ib_class_port_info *cpi,
					u8 rtime)
{
	u32 v = be32_to_cpu(cpi->cap_mask2_resp_time);

	v &= ~IB_CLASS_PORT_INFO_RESP_TIME_MASK;
	v |= rtime & IB_CLASS_PORT_INFO_RESP_TIME_MASK;
	cpi->cap_mask2_resp_time = cpu_to_be32(v);
}

/* ib_get_cpi_capmask2 - CapabilityMask2 of a ClassPortInfo */
static inline u32 ib_get_cpi_capmask2(struct ib_class_port_info *cpi)
{
	return be32_to_cpu(cpi->cap_mask2_resp_time) >>
	       IB_CLASS_PORT_INFO_RESP_TIME_FIELD_SIZE;
}

/* ib_set_cpi_capmask2 - set CapabilityMask2, keeping RespTimeValue */
static inline void ib_set_cpi_capmask2(struct ib_class_port_info *cpi,
				       u32 capmask2)
{
	u32 v = be32_to_cpu(cpi->cap_mask2_resp_time);

	v &= IB_CLASS_PORT_INFO_RESP_TIME_MASK;
	v |= capmask2 << IB_CLASS_PORT_INFO_RESP_TIME_FIELD_SIZE;
	cpi->cap_mask2_resp_time = cpu_to_be32(v);
}

/* opa_get_cpi_capmask2 - CapabilityMask2 of an OPA ClassPortInfo */
static inline u32 opa_get_cpi_capmask2(struct opa_class_port_info *cpi)
{
	return be32_to_cpu(cpi->cap_mask2_resp_time) >>
	       IB_CLASS_PORT_INFO_RESP_TIME_FIELD_SIZE;
}

/* The Notice attribute (traps and their details, IBTA 13.4.8.2) */
struct ib_mad_notice_attr {
	u8 generic_type;
	u8 prod_type_msb;
	__be16 prod_type_lsb;
	__be16 trap_num;
	__be16 issuer_lid;
	__be16 toggle_count;

	union {
		struct {
			u8	details[54];
		} raw_data;

		/* traps 129-131: a port's link integrity/buffer overrun */
		struct {
			__be16	reserved;
			__be16	lid;
			u8	port_num;
		} __packed ntc_129_131;

		/* trap 144: a port's capability mask changed */
		struct {
			__be16	reserved;
			__be16	lid;
			u8	reserved2;
			u8	local_changes;	/* bit 0 only */
			__be32	new_cap_mask;
			u8	reserved3;
			u8	change_flags;	/* bits 0-2 only */
		} __packed ntc_144;

		/* trap 145: a node's system image GUID changed */
		struct {
			__be16	reserved;
			__be16	lid;
			__be16	reserved2;
			__be64	new_sys_guid;
		} __packed ntc_145;

		/* trap 256: bad M_Key */
		struct {
			__be16	reserved;
			__be16	lid;
			__be16	dr_slid;
			u8	method;
			u8	reserved2;
			__be16	attr_id;
			__be32	attr_mod;
			__be64	mkey;
			u8	reserved3;
			u8	dr_trunc_hop;
			u8	dr_rtn_path[30];
		} __packed ntc_256;

		/* traps 257-258: bad P_Key or Q_Key */
		struct {
			__be16		reserved;
			__be16		lid1;
			__be16		lid2;
			__be32		key;
			__be32		sl_qp1;	/* SL in the top 4 bits */
			__be32		qp2;	/* top 8 bits reserved */
			union ib_gid	gid1;
			union ib_gid	gid2;
		} __packed ntc_257_258;
	} details;
};

struct ib_mad_agent;
struct ib_mad_send_wc;
struct ib_mad_recv_wc;

/**
 * struct ib_mad_send_buf - a MAD to send, from ib_create_send_mad()
 * @next: chains buffers handed to ib_post_send_mad() together
 * @mad: the MAD; for RMPP only its first segment (ib_get_rmpp_segment())
 * @mad_agent: the agent the buffer belongs to
 * @ah: address handle of the destination, set by the caller
 * @context: free for the caller
 * @hdr_len: bytes of class headers copied into every segment
 * @data_len: payload bytes, not counting any header
 * @seg_count: number of RMPP segments
 * @seg_size: payload bytes of one segment
 * @seg_rmpp_size: payload bytes of one segment plus the RMPP header
 * @timeout_ms: how long to wait for a response (0: none expected)
 * @retries: how often to resend while no response came
 */
struct ib_mad_send_buf {
	struct ib_mad_send_buf	*next;
	void			*mad;
	struct ib_mad_agent	*mad_agent;
	struct ib_ah		*ah;
	void			*context[2];
	int			hdr_len;
	int			data_len;
	int			seg_count;
	int			seg_size;
	int			seg_rmpp_size;
	int			timeout_ms;
	int			retries;
};

int ib_response_mad(const struct ib_mad_hdr *hdr);

/* The RMPP header's RespTime (upper 5 bits) and flags (lower 3 bits) */
static inline u8 ib_get_rmpp_resptime(struct ib_rmpp_hdr *rmpp_hdr)
{
	return rmpp_hdr->rmpp_rtime_flags >> 3;
}

static inline u8 ib_get_rmpp_flags(struct ib_rmpp_hdr *rmpp_hdr)
{
	return rmpp_hdr->rmpp_rtime_flags & 0x7;
}

static inline void ib_set_rmpp_resptime(struct ib_rmpp_hdr *rmpp_hdr, u8 rtime)
{
	rmpp_hdr->rmpp_rtime_flags = ib_get_rmpp_flags(rmpp_hdr) | (rtime << 3);
}

static inline void ib_set_rmpp_flags(struct ib_rmpp_hdr *rmpp_hdr, u8 flags)
{
	rmpp_hdr->rmpp_rtime_flags = (rmpp_hdr->rmpp_rtime_flags & 0xF8) |
				     (flags & 0x7);
}

/*
 * Called when a send finished (sent, timed out, cancelled or answered):
 * mad_send_wc->status says which.
 */
typedef void (*ib_mad_send_handler)(struct ib_mad_agent *mad_agent,
				    struct ib_mad_send_wc *mad_send_wc);

/*
 * Called with a received MAD; send_buf is the request it answers, or
 * NULL.  The receiver frees it with ib_free_recv_mad().
 */
typedef void (*ib_mad_recv_handler)(struct ib_mad_agent *mad_agent,
				    struct ib_mad_send_buf *send_buf,
				    struct ib_mad_recv_wc *mad_recv_wc);

/* registration_flags of ib_register_mad_agent() */
enum {
	IB_MAD_USER_RMPP = IB_USER_MAD_USER_RMPP,
};

/**
 * struct ib_mad_agent - a registered user of a port's QP0 or QP1
 * @device: the device
 * @qp: the QP it sends and receives on
 * @recv_handler: see ib_mad_recv_handler
 * @send_handler: see ib_mad_send_handler
 * @context: the caller's, from registration
 * @hi_tid: upper 32 bits of the transaction IDs this agent owns
 * @flags: registration flags (IB_MAD_USER_RMPP)
 * @security: LSM state
 * @mad_agent_sec_list: on the list of agents the LSM watches
 * @port_num: the port
 * @rmpp_version: RMPP version the MAD layer runs for it (0: none)
 * @smp_allowed: the LSM lets it send SMPs
 */
struct ib_mad_agent {
	struct ib_device	*device;
	struct ib_qp		*qp;
	ib_mad_recv_handler	recv_handler;
	ib_mad_send_handler	send_handler;
	void			*context;
	u32			hi_tid;
	u32			flags;
	void			*security;
	struct list_head	mad_agent_sec_list;
	u8			port_num;
	u8			rmpp_version;
	bool			smp_allowed;
};

/**
 * struct ib_mad_send_wc - how a send finished
 * @send_buf: the buffer posted
 * @status: IB_WC_SUCCESS, or why it failed (IB_WC_RESP_TIMEOUT_ERR, ...)
 * @vendor_err: the device's own error code
 */
struct ib_mad_send_wc {
	struct ib_mad_send_buf	*send_buf;
	enum ib_wc_status	status;
	u32			vendor_err;
};

/**
 * struct ib_mad_recv_buf - one received segment
 * @list: on ib_mad_recv_wc.rmpp_list, in order, for RMPP
 * @grh: the GRH, when the work completion has IB_WC_GRH
 * @mad: the MAD (IB size)
 * @opa_mad: the same MAD, OPA size
 */
struct ib_mad_recv_buf {
	struct list_head	list;
	struct ib_grh		*grh;
	union {
		struct ib_mad	*mad;
		struct opa_mad	*opa_mad;
	};
};

/**
 * struct ib_mad_recv_wc - a received MAD, possibly of several segments
 * @wc: the work completion of the (last) segment
 * @recv_buf: the first segment
 * @rmpp_list: all segments of an RMPP transfer
 * @mad_len: total length of the MAD in bytes
 * @mad_seg_size: size of each segment buffer
 */
struct ib_mad_recv_wc {
	struct ib_wc		*wc;
	struct ib_mad_recv_buf	recv_buf;
	struct list_head	rmpp_list;
	int			mad_len;
	size_t			mad_seg_size;
};

/**
 * struct ib_mad_reg_req - which unsolicited MADs an agent wants
 * @mgmt_class: the class
 * @mgmt_class_version: its version
 * @oui: the vendor OUI, for vendor classes of range 2
 * @method_mask: the methods
 */
struct ib_mad_reg_req {
	u8	mgmt_class;
	u8	mgmt_class_version;
	u8	oui[3];
	DECLARE_BITMAP(method_mask, IB_MGMT_MAX_METHODS);
};

struct ib_mad_agent *ib_register_mad_agent(struct ib_device *device,
					   u32 port_num,
					   enum ib_qp_type qp_type,
					   struct ib_mad_reg_req *mad_reg_req,
					   u8 rmpp_version,
					   ib_mad_send_handler send_handler,
					   ib_mad_recv_handler recv_handler,
					   void *context,
					   u32 registration_flags);
void ib_unregister_mad_agent(struct ib_mad_agent *mad_agent);

int ib_post_send_mad(struct ib_mad_send_buf *send_buf,
		     struct ib_mad_send_buf **bad_send_buf);
void ib_free_recv_mad(struct ib_mad_recv_wc *mad_recv_wc);
int ib_modify_mad(struct ib_mad_send_buf *send_buf, u32 timeout_ms);

/* ib_cancel_mad - stop a send: it completes with IB_WC_WR_FLUSH_ERR */
static inline void ib_cancel_mad(struct ib_mad_send_buf *send_buf)
{
	ib_modify_mad(send_buf, 0);
}

struct ib_mad_send_buf *ib_create_send_mad(struct ib_mad_agent *mad_agent,
					   u32 remote_qpn, u16 pkey_index,
					   int rmpp_active,
					   int hdr_len, int data_len,
					   gfp_t gfp_mask,
					   u8 base_version);
int ib_is_mad_class_rmpp(u8 mgmt_class);
int ib_get_mad_data_offset(u8 mgmt_class);
void *ib_get_rmpp_segment(struct ib_mad_send_buf *send_buf, int seg_num);
void ib_free_send_mad(struct ib_mad_send_buf *send_buf);
int ib_mad_kernel_rmpp_agent(const struct ib_mad_agent *agent);

#endif /* IB_MAD_H */
