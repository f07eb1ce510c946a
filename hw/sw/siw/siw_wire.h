/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * siw: what iWARP puts on the wire.
 *
 * MPA (RFC 5044) connection setup frames with the enhanced setup data of
 * RFC 6581, MPA framing of FPDUs, the DDP (RFC 5041) and RDMAP (RFC 5040)
 * headers and the TERMINATE message.  Layouts and values are those of the
 * protocol (and of upstream siw, with which we talk): every multi-byte
 * field is big endian, except the MPA CRC (see struct mpa_trailer).
 *
 * Bit fields live in host-order masks for FIELD_GET()/FIELD_PREP(),
 * applied to the be16/be32 word after conversion: never compiler bit
 * fields.  The accessors below do the conversion.
 */
#ifndef SIW_WIRE_H
#define SIW_WIRE_H

#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/types.h>
#include <asm/byteorder.h>

/* ---------------------------------------------------------------------
 * MPA request and reply frames (RFC 5044 section 7.1, RFC 6581)
 *
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------------------------------------------------------+
 * |  Key: "MPA ID Req Frame" or "MPA ID Rep Frame" (16 bytes)     |
 * +-+-+-+-+-------+---------------+-------------------------------+
 * |M|C|R|S| Res   |     Rev       |          PD_Length            |
 * +-+-+-+-+-------+---------------+-------------------------------+
 * |A|B|          IRD              |C|D|          ORD              |
 * +-+-+---------------------------+-+-+---------------------------+
 *   (the last word only with S set, revision 2: the first four bytes
 *    of the private data, counted in PD_Length)
 */

#define MPA_KEY_REQ		"MPA ID Req Frame"
#define MPA_KEY_REP		"MPA ID Rep Frame"
#define MPA_KEY_SIZE		16
#define MPA_REVISION_1		1
#define MPA_REVISION_2		2

/*
 * Private data limits.  RFC 5044 allows 512 bytes; upstream siw never
 * sends, and refuses to receive, more than RDMA_MAX_PRIVATE_DATA of
 * <uapi/rdma/rdma_user_cm.h> (256), the enhanced setup data included.
 * We send no more than upstream takes and accept what the RFC allows.
 */
#define MPA_MAX_PRIVDATA	256
#define SIW_MPA_RFC_MAX_PRIVDATA 512

/* mpa_rr_params.bits, host order */
#define SIW_MPA_FLAG_MARKERS	0x8000	/* M: receiver wants markers */
#define SIW_MPA_FLAG_CRC	0x4000	/* C: CRC32c on FPDUs */
#define SIW_MPA_FLAG_REJECT	0x2000	/* R: reply refuses the connection */
#define SIW_MPA_FLAG_ENHANCED	0x1000	/* S: RFC 6581 setup data follow */
/*
 * Upstream siw's own use of the first reserved bit: "I take FPDUs larger
 * than one MSS (GSO)".  Upstream sets it only with its try_gso (a
 * constant, off), and its responder echoes the request's; we set it when
 * gso_seg_limit is not 1, and send such FPDUs only to a peer that set it.
 */
#define SIW_MPA_FLAG_GSO_EXP	0x0800
#define SIW_MPA_RESERVED	0x0700
#define SIW_MPA_REVISION	0x00ff

/* mpa_v2_data.ird, host order */
#define SIW_MPA_V2_PEER_TO_PEER	0x8000	/* A: peer-to-peer, RTR follows */
#define SIW_MPA_V2_SEND_RTR	0x4000	/* B: zero-length SEND as RTR */
/* mpa_v2_data.ord, host order */
#define SIW_MPA_V2_WRITE_RTR	0x8000	/* C: zero-length RDMA WRITE as RTR */
#define SIW_MPA_V2_READ_RTR	0x4000	/* D: zero-length RDMA READ as RTR */
/* both words */
#define SIW_MPA_V2_IRD_ORD	0x3fff
#define MPA_IRD_ORD_MASK	SIW_MPA_V2_IRD_ORD

/* RTR messages of RFC 6581 (offered as a mask, negotiated as one) */
#define SIW_RTR_SEND		BIT(0)	/* zero-length SEND: never used */
#define SIW_RTR_WRITE		BIT(1)	/* zero-length RDMA WRITE */
#define SIW_RTR_READ		BIT(2)	/* zero-length RDMA READ */

struct mpa_rr_params {
	__be16	bits;
	__be16	pd_len;
};

struct mpa_rr {
	u8			key[MPA_KEY_SIZE];
	struct mpa_rr_params	params;
};

struct mpa_v2_data {
	__be16	ird;
	__be16	ord;
};

static_assert(sizeof(struct mpa_rr) == 20);
static_assert(sizeof(struct mpa_v2_data) == 4);

static inline u8 siw_mpa_revision(const struct mpa_rr *rr)
{
	return FIELD_GET(SIW_MPA_REVISION, be16_to_cpu(rr->params.bits));
}

/* ---------------------------------------------------------------------
 * FPDU framing (RFC 5044 section 4): a 16-bit ULPDU length, the ULPDU
 * (DDP header and payload), 0..3 pad bytes up to a 4-byte boundary, a
 * CRC32c over all of that.  Without negotiated CRC the field is sent as
 * zero and not checked.  Markers are never used: siw does not offer
 * them and refuses a peer that asks for them.
 */
#define MPA_HDR_SIZE		2
#define MPA_CRC_SIZE		4

/*
 * The CRC field holds the CRC32c of RFC 3385 (as iSCSI): the bytes are
 * the little-endian encoding of the final (inverted) value.
 */
struct mpa_trailer {
	u8	pad[4];
	__le32	crc;
};

/* ---------------------------------------------------------------------
 * DDP and RDMAP control (RFC 5041 section 4, RFC 5040 section 4):
 *
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-------------------------------+-+-+-------+---+---+---+-------+
 * |      MPA ULPDU length         |T|L| Rsvd  |DV |RV |Rsv|Opcode |
 * +-------------------------------+-+-+-------+---+---+---+-------+
 * tagged:   STag (32) | Tagged Offset (64)
 * untagged: RDMAP reserved / Inv STag (32) | QN (32) | MSN (32) | MO (32)
 */
#define DDP_VERSION		1
#define RDMAP_VERSION		1

/* iwarp_ctrl.ddp_rdmap_ctrl, host order */
#define SIW_DDP_FLAG_TAGGED	0x8000
#define SIW_DDP_FLAG_LAST	0x4000
#define SIW_DDP_RESERVED	0x3c00
#define SIW_DDP_VERSION		0x0300
#define SIW_RDMAP_VERSION	0x00c0
#define SIW_RDMAP_RESERVED	0x0030
#define SIW_RDMAP_OPCODE	0x000f

enum rdma_opcode {
	RDMAP_RDMA_WRITE = 0x0,
	RDMAP_RDMA_READ_REQ = 0x1,
	RDMAP_RDMA_READ_RESP = 0x2,
	RDMAP_SEND = 0x3,
	RDMAP_SEND_INVAL = 0x4,
	RDMAP_SEND_SE = 0x5,
	RDMAP_SEND_SE_INVAL = 0x6,
	RDMAP_TERMINATE = 0x7,
	/* first value that is no opcode (upstream has no private ones) */
	RDMAP_NOT_SUPPORTED = 0x8,
};

/* DDP queue numbers of the untagged buffers RDMAP uses */
enum rdmap_untagged_qn {
	RDMAP_UNTAGGED_QN_SEND = 0,
	RDMAP_UNTAGGED_QN_RDMA_READ = 1,
	RDMAP_UNTAGGED_QN_TERMINATE = 2,
	RDMAP_UNTAGGED_QN_COUNT = 3,
};

struct iwarp_ctrl {
	__be16	mpa_len;	/* ULPDU length: all after this field, no pad */
	__be16	ddp_rdmap_ctrl;
};

struct iwarp_ctrl_untagged {
	struct iwarp_ctrl	ctrl;
	__be32			rsvd;	/* RDMAP: Invalidate STag for SEND_INV */
	__be32			ddp_qn;
	__be32			ddp_msn;
	__be32			ddp_mo;
};

struct iwarp_ctrl_tagged {
	struct iwarp_ctrl	ctrl;
	__be32			ddp_stag;
	__be64			ddp_to;
};

struct iwarp_rdma_write {
	struct iwarp_ctrl	ctrl;
	__be32			sink_stag;
	__be64			sink_to;
};

/* READ request (RFC 5040 section 4.4): untagged, QN 1, no payload */
struct iwarp_rdma_rreq {
	struct iwarp_ctrl	ctrl;
	__be32			rsvd;
	__be32			ddp_qn;
	__be32			ddp_msn;
	__be32			ddp_mo;
	__be32			sink_stag;	/* requester's buffer */
	__be64			sink_to;
	__be32			read_size;
	__be32			source_stag;	/* responder's buffer */
	__be64			source_to;
};

struct iwarp_rdma_rresp {
	struct iwarp_ctrl	ctrl;
	__be32			sink_stag;
	__be64			sink_to;
};

struct iwarp_send {
	struct iwarp_ctrl	ctrl;
	__be32			rsvd;
	__be32			ddp_qn;
	__be32			ddp_msn;
	__be32			ddp_mo;
};

struct iwarp_send_inv {
	struct iwarp_ctrl	ctrl;
	__be32			inval_stag;
	__be32			ddp_qn;
	__be32			ddp_msn;
	__be32			ddp_mo;
};

/* ---------------------------------------------------------------------
 * TERMINATE (RFC 5040 section 4.8): untagged on QN 2, then
 *
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-------+-------+---------------+-+-+-+-------------------------+
 * | Layer | EType |  Error Code   |M|D|R|        Reserved         |
 * +-------+-------+---------------+-+-+-+-------------------------+
 *
 * and, with D set, the DDP header of the offending segment (its first
 * 16 bits the DDP segment length, M set when that length is valid),
 * with R set the whole RDMAP header.
 */
#define SIW_TERM_LAYER		0xf0000000
#define SIW_TERM_ETYPE		0x0f000000
#define SIW_TERM_ECODE		0x00ff0000
#define SIW_TERM_FLAG_M		0x00008000
#define SIW_TERM_FLAG_D		0x00004000
#define SIW_TERM_FLAG_R		0x00002000
#define SIW_TERM_RESERVED	0x00001fff

struct iwarp_terminate {
	struct iwarp_ctrl	ctrl;
	__be32			rsvd;
	__be32			ddp_qn;
	__be32			ddp_msn;
	__be32			ddp_mo;
	__be32			term_ctrl;	/* SIW_TERM_* */
};

enum term_elayer {
	TERM_ERROR_LAYER_RDMAP = 0x00,
	TERM_ERROR_LAYER_DDP = 0x01,
	TERM_ERROR_LAYER_LLP = 0x02,	/* MPA */
};

enum ddp_etype {
	DDP_ETYPE_CATASTROPHIC = 0x0,
	DDP_ETYPE_TAGGED_BUF = 0x1,
	DDP_ETYPE_UNTAGGED_BUF = 0x2,
	DDP_ETYPE_RSVD = 0x3,
};

enum ddp_ecode {
	DDP_ECODE_CATASTROPHIC = 0x00,
	/* tagged buffer */
	DDP_ECODE_T_INVALID_STAG = 0x00,
	DDP_ECODE_T_BASE_BOUNDS = 0x01,
	DDP_ECODE_T_STAG_NOT_ASSOC = 0x02,
	DDP_ECODE_T_TO_WRAP = 0x03,
	DDP_ECODE_T_VERSION = 0x04,
	/* untagged buffer */
	DDP_ECODE_UT_INVALID_QN = 0x01,
	DDP_ECODE_UT_INVALID_MSN_NOBUF = 0x02,
	DDP_ECODE_UT_INVALID_MSN_RANGE = 0x03,
	DDP_ECODE_UT_INVALID_MO = 0x04,
	DDP_ECODE_UT_MSG_TOOLONG = 0x05,
	DDP_ECODE_UT_VERSION = 0x06,
};

enum rdmap_etype {
	RDMAP_ETYPE_CATASTROPHIC = 0x0,
	RDMAP_ETYPE_REMOTE_PROTECTION = 0x1,
	RDMAP_ETYPE_REMOTE_OPERATION = 0x2,
};

enum rdmap_ecode {
	RDMAP_ECODE_INVALID_STAG = 0x00,
	RDMAP_ECODE_BASE_BOUNDS = 0x01,
	RDMAP_ECODE_ACCESS_RIGHTS = 0x02,
	RDMAP_ECODE_STAG_NOT_ASSOC = 0x03,
	RDMAP_ECODE_TO_WRAP = 0x04,
	RDMAP_ECODE_VERSION = 0x05,
	RDMAP_ECODE_OPCODE = 0x06,
	RDMAP_ECODE_CATASTROPHIC_STREAM = 0x07,
	RDMAP_ECODE_CATASTROPHIC_GLOBAL = 0x08,
	RDMAP_ECODE_CANNOT_INVALIDATE = 0x09,
	RDMAP_ECODE_UNSPECIFIED = 0xff,
};

enum llp_etype {
	LLP_ETYPE_MPA = 0x00,
};

enum llp_ecode {
	LLP_ECODE_TCP_STREAM_LOST = 0x01,
	LLP_ECODE_RECEIVED_CRC = 0x02,
	LLP_ECODE_FPDU_START = 0x03,
	LLP_ECODE_INVALID_REQ_RESP = 0x04,
	/* RFC 6581 enhanced connection setup */
	LLP_ECODE_LOCAL_CATASTROPHIC = 0x05,
	LLP_ECODE_INSUFFICIENT_IRD = 0x06,
	LLP_ECODE_NO_MATCHING_RTR = 0x07,
};

union iwarp_hdr {
	struct iwarp_ctrl		ctrl;
	struct iwarp_ctrl_untagged	c_untagged;
	struct iwarp_ctrl_tagged	c_tagged;
	struct iwarp_rdma_write		rwrite;
	struct iwarp_rdma_rreq		rreq;
	struct iwarp_rdma_rresp		rresp;
	struct iwarp_terminate		terminate;
	struct iwarp_send		send;
	struct iwarp_send_inv		send_inv;
};

static_assert(sizeof(struct iwarp_ctrl) == 4);
static_assert(sizeof(struct iwarp_ctrl_untagged) == 20);
static_assert(sizeof(struct iwarp_ctrl_tagged) == 16);
static_assert(sizeof(struct iwarp_rdma_write) == 16);
static_assert(sizeof(struct iwarp_rdma_rreq) == 48);
static_assert(sizeof(struct iwarp_rdma_rresp) == 16);
static_assert(sizeof(struct iwarp_send) == 20);
static_assert(sizeof(struct iwarp_send_inv) == 20);
static_assert(sizeof(struct iwarp_terminate) == 24);
static_assert(sizeof(struct mpa_trailer) == 8);
static_assert(sizeof(union iwarp_hdr) == 48);

static inline u16 siw_ctrl_bits(const struct iwarp_ctrl *c)
{
	return be16_to_cpu(c->ddp_rdmap_ctrl);
}

static inline u8 siw_ddp_version(const struct iwarp_ctrl *c)
{
	return FIELD_GET(SIW_DDP_VERSION, siw_ctrl_bits(c));
}

static inline u8 siw_rdmap_version(const struct iwarp_ctrl *c)
{
	return FIELD_GET(SIW_RDMAP_VERSION, siw_ctrl_bits(c));
}

static inline u8 siw_rdmap_opcode(const struct iwarp_ctrl *c)
{
	return FIELD_GET(SIW_RDMAP_OPCODE, siw_ctrl_bits(c));
}

static inline bool siw_ddp_tagged(const struct iwarp_ctrl *c)
{
	return siw_ctrl_bits(c) & SIW_DDP_FLAG_TAGGED;
}

static inline bool siw_ddp_last(const struct iwarp_ctrl *c)
{
	return siw_ctrl_bits(c) & SIW_DDP_FLAG_LAST;
}

/* The control word of a new segment: versions 1, @opcode, T per opcode. */
static inline __be16 siw_ctrl_word(u8 opcode, bool tagged, bool last)
{
	u16 v = FIELD_PREP(SIW_DDP_VERSION, DDP_VERSION) |
		FIELD_PREP(SIW_RDMAP_VERSION, RDMAP_VERSION) |
		FIELD_PREP(SIW_RDMAP_OPCODE, opcode);

	if (tagged)
		v |= SIW_DDP_FLAG_TAGGED;
	if (last)
		v |= SIW_DDP_FLAG_LAST;
	return cpu_to_be16(v);
}

static inline u32 siw_term_bits(const struct iwarp_terminate *t)
{
	return be32_to_cpu(t->term_ctrl);
}

static inline u8 siw_term_layer(const struct iwarp_terminate *t)
{
	return FIELD_GET(SIW_TERM_LAYER, siw_term_bits(t));
}

static inline u8 siw_term_etype(const struct iwarp_terminate *t)
{
	return FIELD_GET(SIW_TERM_ETYPE, siw_term_bits(t));
}

static inline u8 siw_term_ecode(const struct iwarp_terminate *t)
{
	return FIELD_GET(SIW_TERM_ECODE, siw_term_bits(t));
}

static inline __be32 siw_term_word(u8 layer, u8 etype, u8 ecode, u32 flags)
{
	return cpu_to_be32(FIELD_PREP(SIW_TERM_LAYER, layer) |
			   FIELD_PREP(SIW_TERM_ETYPE, etype) |
			   FIELD_PREP(SIW_TERM_ECODE, ecode) |
			   (flags & (SIW_TERM_FLAG_M | SIW_TERM_FLAG_D |
				     SIW_TERM_FLAG_R)));
}

#endif /* SIW_WIRE_H */
