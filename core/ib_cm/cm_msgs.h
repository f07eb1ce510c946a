/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The CM messages as they travel (IBTA vol. 1 section 12.6): a MAD of
 * class 0x07, version 2, method Send, whose 232 data bytes hold the
 * message.  A field is named by its byte in the data, its first bit in
 * that byte counted from the most significant one (as the tables of the
 * specification count), and its width; cm_get()/cm_set() read and write
 * fields of up to 32 bits, the 64-bit fields (GUIDs, service IDs), GIDs
 * and private data are byte aligned and reached through pointers.
 */
#ifndef IB_CM_MSGS_H
#define IB_CM_MSGS_H

#include <linux/bits.h>
#include <linux/unaligned.h>
#include <rdma/ib_cm.h>
#include <rdma/ib_mad.h>

#define IB_CM_CLASS_VERSION	2

/* A CM message: the MAD header and the message's data */
struct cm_msg {
	struct ib_mad_hdr	hdr;
	u8			data[IB_MGMT_MAD_DATA];
};

/* One field of a message: byte, first bit (0 = MSB) and width in bits */
struct cm_field {
	u8	byte;
	u8	bit;
	u8	width;
};

#define CM_FIELD(b, o, w) ((struct cm_field){ .byte = (b), .bit = (o), \
					      .width = (w) })

/* The bytes that hold @f, big-endian, in the low bits of the result */
static inline u64 cm_field_window(const struct cm_msg *m, struct cm_field f,
				  unsigned int *nbytes)
{
	unsigned int n = DIV_ROUND_UP(f.bit + f.width, 8), i;
	u64 v = 0;

	for (i = 0; i < n; i++)
		v = v << 8 | m->data[f.byte + i];
	*nbytes = n;
	return v;
}

static inline u32 cm_get(const struct cm_msg *m, struct cm_field f)
{
	unsigned int n;
	u64 v = cm_field_window(m, f, &n);

	return (v >> (n * 8 - f.bit - f.width)) & GENMASK_ULL(f.width - 1, 0);
}

static inline void cm_set(struct cm_msg *m, struct cm_field f, u32 val)
{
	unsigned int n, i, shift;
	u64 v = cm_field_window(m, f, &n), mask;

	shift = n * 8 - f.bit - f.width;
	mask = GENMASK_ULL(f.width - 1, 0) << shift;
	v = (v & ~mask) | (((u64)val << shift) & mask);
	for (i = n; i-- > 0; v >>= 8)
		m->data[f.byte + i] = v & 0xff;
}

static inline __be64 cm_get64(const struct cm_msg *m, unsigned int byte)
{
	return cpu_to_be64(get_unaligned_be64(&m->data[byte]));
}

static inline void cm_set64(struct cm_msg *m, unsigned int byte, __be64 v)
{
	put_unaligned_be64(be64_to_cpu(v), &m->data[byte]);
}

static inline void *cm_ptr(struct cm_msg *m, unsigned int byte)
{
	return &m->data[byte];
}

/* Both IDs come first in every message but the SIDR ones */
#define CMF_LOCAL_COMM_ID		CM_FIELD(0, 0, 32)
#define CMF_REMOTE_COMM_ID		CM_FIELD(4, 0, 32)

/* REQ (12.6.5) */
#define CMF_REQ_VENDOR_ID		CM_FIELD(5, 0, 24)
#define CM_REQ_SERVICE_ID_OFF		8
#define CM_REQ_LOCAL_CA_GUID_OFF	16
#define CMF_REQ_LOCAL_Q_KEY		CM_FIELD(28, 0, 32)
#define CMF_REQ_LOCAL_QPN		CM_FIELD(32, 0, 24)
#define CMF_REQ_RESPONDER_RESOURCES	CM_FIELD(35, 0, 8)
#define CMF_REQ_LOCAL_EECN		CM_FIELD(36, 0, 24)
#define CMF_REQ_INITIATOR_DEPTH		CM_FIELD(39, 0, 8)
#define CMF_REQ_REMOTE_EECN		CM_FIELD(40, 0, 24)
#define CMF_REQ_REMOTE_CM_RESP_TIMEOUT	CM_FIELD(43, 0, 5)
#define CMF_REQ_TRANSPORT_TYPE		CM_FIELD(43, 5, 2)
#define CMF_REQ_FLOW_CONTROL		CM_FIELD(43, 7, 1)
#define CMF_REQ_STARTING_PSN		CM_FIELD(44, 0, 24)
#define CMF_REQ_LOCAL_CM_RESP_TIMEOUT	CM_FIELD(47, 0, 5)
#define CMF_REQ_RETRY_COUNT		CM_FIELD(47, 5, 3)
#define CMF_REQ_PKEY			CM_FIELD(48, 0, 16)
#define CMF_REQ_PATH_MTU		CM_FIELD(50, 0, 4)
#define CMF_REQ_RDC_EXISTS		CM_FIELD(50, 4, 1)
#define CMF_REQ_RNR_RETRY_COUNT		CM_FIELD(50, 5, 3)
#define CMF_REQ_MAX_CM_RETRIES		CM_FIELD(51, 0, 4)
#define CMF_REQ_SRQ			CM_FIELD(51, 4, 1)
#define CMF_REQ_EXT_TRANSPORT_TYPE	CM_FIELD(51, 5, 3)
/* the primary path at 52, the alternate one at 96, each 44 bytes */
#define CM_REQ_PRIMARY			52
#define CM_REQ_ALTERNATE		96
#define CMF_PATH_LOCAL_LID(p)		CM_FIELD((p), 0, 16)
#define CMF_PATH_REMOTE_LID(p)		CM_FIELD((p) + 2, 0, 16)
#define CM_PATH_LOCAL_GID_OFF(p)	((p) + 4)
#define CM_PATH_REMOTE_GID_OFF(p)	((p) + 20)
#define CMF_PATH_FLOW_LABEL(p)		CM_FIELD((p) + 36, 0, 20)
#define CMF_PATH_PACKET_RATE(p)		CM_FIELD((p) + 39, 2, 6)
#define CMF_PATH_TRAFFIC_CLASS(p)	CM_FIELD((p) + 40, 0, 8)
#define CMF_PATH_HOP_LIMIT(p)		CM_FIELD((p) + 41, 0, 8)
#define CMF_PATH_SL(p)			CM_FIELD((p) + 42, 0, 4)
#define CMF_PATH_SUBNET_LOCAL(p)	CM_FIELD((p) + 42, 4, 1)
#define CMF_PATH_LOCAL_ACK_TIMEOUT(p)	CM_FIELD((p) + 43, 0, 5)
#define CM_REQ_PRIVATE_OFF		140

/* MRA (12.6.6) */
#define CMF_MRA_MESSAGE_MRAED		CM_FIELD(8, 0, 2)
#define CMF_MRA_SERVICE_TIMEOUT		CM_FIELD(9, 0, 5)
#define CM_MRA_PRIVATE_OFF		10

/* REJ (12.6.7) */
#define CMF_REJ_MESSAGE_REJECTED	CM_FIELD(8, 0, 2)
#define CMF_REJ_INFO_LENGTH		CM_FIELD(9, 0, 7)
#define CMF_REJ_REASON			CM_FIELD(10, 0, 16)
#define CM_REJ_ARI_OFF			12
#define CM_REJ_PRIVATE_OFF		84

/* REP (12.6.8) */
#define CMF_REP_LOCAL_Q_KEY		CM_FIELD(8, 0, 32)
#define CMF_REP_LOCAL_QPN		CM_FIELD(12, 0, 24)
#define CMF_REP_VENDOR_ID_H		CM_FIELD(15, 0, 8)
#define CMF_REP_LOCAL_EECN		CM_FIELD(16, 0, 24)
#define CMF_REP_VENDOR_ID_M		CM_FIELD(19, 0, 8)
#define CMF_REP_STARTING_PSN		CM_FIELD(20, 0, 24)
#define CMF_REP_VENDOR_ID_L		CM_FIELD(23, 0, 8)
#define CMF_REP_RESPONDER_RESOURCES	CM_FIELD(24, 0, 8)
#define CMF_REP_INITIATOR_DEPTH		CM_FIELD(25, 0, 8)
#define CMF_REP_TARGET_ACK_DELAY	CM_FIELD(26, 0, 5)
#define CMF_REP_FAILOVER_ACCEPTED	CM_FIELD(26, 5, 2)
#define CMF_REP_FLOW_CONTROL		CM_FIELD(26, 7, 1)
#define CMF_REP_RNR_RETRY_COUNT		CM_FIELD(27, 0, 3)
#define CMF_REP_SRQ			CM_FIELD(27, 3, 1)
#define CM_REP_LOCAL_CA_GUID_OFF	28
#define CM_REP_PRIVATE_OFF		36

/* RTU, DREQ, DREP (12.6.9 - 12.6.11) */
#define CM_RTU_PRIVATE_OFF		8
#define CMF_DREQ_REMOTE_QPN		CM_FIELD(8, 0, 24)
#define CM_DREQ_PRIVATE_OFF		12
#define CM_DREP_PRIVATE_OFF		8

/* LAP and APR (12.6.12, 12.6.13): received only */
#define CMF_LAP_REMOTE_QPN		CM_FIELD(12, 0, 24)
#define CMF_LAP_REMOTE_CM_RESP_TIMEOUT	CM_FIELD(15, 0, 5)
#define CMF_LAP_ALT_LOCAL_LID		CM_FIELD(20, 0, 16)
#define CMF_LAP_ALT_REMOTE_LID		CM_FIELD(22, 0, 16)
#define CM_LAP_ALT_LOCAL_GID_OFF	24
#define CM_LAP_ALT_REMOTE_GID_OFF	40
#define CMF_LAP_ALT_FLOW_LABEL		CM_FIELD(56, 0, 20)
#define CMF_LAP_ALT_TRAFFIC_CLASS	CM_FIELD(59, 0, 8)
#define CMF_LAP_ALT_HOP_LIMIT		CM_FIELD(60, 0, 8)
#define CMF_LAP_ALT_PACKET_RATE		CM_FIELD(61, 2, 6)
#define CMF_LAP_ALT_SL			CM_FIELD(62, 0, 4)
#define CMF_LAP_ALT_SUBNET_LOCAL	CM_FIELD(62, 4, 1)
#define CMF_LAP_ALT_LOCAL_ACK_TIMEOUT	CM_FIELD(63, 0, 5)
#define CM_LAP_PRIVATE_OFF		64
#define CMF_APR_INFO_LENGTH		CM_FIELD(8, 0, 8)
#define CMF_APR_STATUS			CM_FIELD(9, 0, 8)
#define CM_APR_INFO_OFF			12
#define CM_APR_PRIVATE_OFF		84

/* SIDR REQ and SIDR REP (12.11) */
#define CMF_SIDR_REQUEST_ID		CM_FIELD(0, 0, 32)
#define CMF_SIDR_REQ_PKEY		CM_FIELD(4, 0, 16)
#define CM_SIDR_REQ_SERVICE_ID_OFF	8
#define CM_SIDR_REQ_PRIVATE_OFF		16
#define CMF_SIDR_REP_STATUS		CM_FIELD(4, 0, 8)
#define CMF_SIDR_REP_INFO_LENGTH	CM_FIELD(5, 0, 8)
#define CMF_SIDR_REP_VENDOR_ID_H	CM_FIELD(6, 0, 16)
#define CMF_SIDR_REP_QPN		CM_FIELD(8, 0, 24)
#define CMF_SIDR_REP_VENDOR_ID_L	CM_FIELD(11, 0, 8)
#define CM_SIDR_REP_SERVICE_ID_OFF	12
#define CMF_SIDR_REP_Q_KEY		CM_FIELD(20, 0, 32)
#define CM_SIDR_REP_INFO_OFF		24
#define CM_SIDR_REP_PRIVATE_OFF		96

/* The message an MRA or a REJ answers (MessageMRAed, MessageRejected) */
enum cm_msg_response {
	CM_MSG_RESPONSE_REQ	= 0,
	CM_MSG_RESPONSE_REP	= 1,
	CM_MSG_RESPONSE_OTHER	= 2,
};

/* The QP type a REQ asks for (Transport Service Type, 12.6.5) */
static inline enum ib_qp_type cm_req_qp_type(const struct cm_msg *req)
{
	switch (cm_get(req, CMF_REQ_TRANSPORT_TYPE)) {
	case 0:
		return IB_QPT_RC;
	case 1:
		return IB_QPT_UC;
	case 3:
		if (cm_get(req, CMF_REQ_EXT_TRANSPORT_TYPE) == 1)
			return IB_QPT_XRC_TGT;
		return 0;
	default:
		return 0;
	}
}

static inline void cm_req_set_qp_type(struct cm_msg *req,
				      enum ib_qp_type type)
{
	if (type == IB_QPT_UC) {
		cm_set(req, CMF_REQ_TRANSPORT_TYPE, 1);
	} else if (type == IB_QPT_XRC_INI) {
		cm_set(req, CMF_REQ_TRANSPORT_TYPE, 3);
		cm_set(req, CMF_REQ_EXT_TRANSPORT_TYPE, 1);
	} else {
		cm_set(req, CMF_REQ_TRANSPORT_TYPE, 0);
	}
}

/* The responder's QP (or, for XRC, its EE context number) in a REP */
static inline __be32 cm_rep_qpn(const struct cm_msg *rep,
				enum ib_qp_type type)
{
	return cpu_to_be32(cm_get(rep, type == IB_QPT_XRC_INI ?
				  CMF_REP_LOCAL_EECN : CMF_REP_LOCAL_QPN));
}

#endif /* IB_CM_MSGS_H */
