// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw: building and checking FPDUs (RFC 5044 section 4 framing of
 * RFC 5041 DDP segments carrying RFC 5040 RDMAP messages).
 *
 * Sizes follow upstream siw: an FPDU fills at most the TCP segment size
 * rounded down to 8 bytes, so every segment but a message's last needs no
 * pad; the MULPDU is that less the MPA length field and the CRC.
 * Markers are never inserted.  The CRC is the iSCSI CRC32c of the kernel
 * library (crc32c(), LIBCRC32C), over length field, headers, payload
 * and pad.
 *
 * All functions are pure: they only read and write the memory given.
 */

#include <linux/crc32c.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include "siw_fpdu.h"

static const u8 siw_hdr_lens[RDMAP_NOT_SUPPORTED] = {
	[RDMAP_RDMA_WRITE] = sizeof(struct iwarp_rdma_write),
	[RDMAP_RDMA_READ_REQ] = sizeof(struct iwarp_rdma_rreq),
	[RDMAP_RDMA_READ_RESP] = sizeof(struct iwarp_rdma_rresp),
	[RDMAP_SEND] = sizeof(struct iwarp_send),
	[RDMAP_SEND_INVAL] = sizeof(struct iwarp_send_inv),
	[RDMAP_SEND_SE] = sizeof(struct iwarp_send),
	[RDMAP_SEND_SE_INVAL] = sizeof(struct iwarp_send_inv),
	[RDMAP_TERMINATE] = sizeof(struct iwarp_terminate),
};

/**
 * siw_fpdu_hdr_len() - header length of an opcode's FPDUs
 * @opcode: RDMAP opcode
 *
 * Context: Any context.
 * Return: bytes from the MPA length field to the payload, 0 for a value
 * that is no opcode.
 */
unsigned int siw_fpdu_hdr_len(u8 opcode)
{
	return opcode < RDMAP_NOT_SUPPORTED ? siw_hdr_lens[opcode] : 0;
}

/**
 * siw_opcode_tagged() - does an opcode travel in tagged DDP segments
 * @opcode: RDMAP opcode
 *
 * Context: Any context.
 * Return: true for RDMA WRITE and READ response.
 */
bool siw_opcode_tagged(u8 opcode)
{
	return opcode == RDMAP_RDMA_WRITE || opcode == RDMAP_RDMA_READ_RESP;
}

/**
 * siw_opcode_qn() - the untagged DDP queue an opcode uses
 * @opcode: RDMAP opcode
 *
 * Context: Any context.
 * Return: RDMAP_UNTAGGED_QN_*, or -EINVAL for a tagged opcode or a
 * value that is no opcode.
 */
int siw_opcode_qn(u8 opcode)
{
	switch (opcode) {
	case RDMAP_SEND:
	case RDMAP_SEND_INVAL:
	case RDMAP_SEND_SE:
	case RDMAP_SEND_SE_INVAL:
		return RDMAP_UNTAGGED_QN_SEND;
	case RDMAP_RDMA_READ_REQ:
		return RDMAP_UNTAGGED_QN_RDMA_READ;
	case RDMAP_TERMINATE:
		return RDMAP_UNTAGGED_QN_TERMINATE;
	default:
		return -EINVAL;
	}
}

/**
 * siw_fpdu_mulpdu() - largest ULPDU for a TCP segment size
 * @seglen: bytes TCP sends at once: the MSS, or MSS times the GSO
 *	segments where the peer allows
 *
 * Context: Any context.
 * Return: the MULPDU (DDP header and payload), 0 when @seglen leaves no
 * room.
 */
u32 siw_fpdu_mulpdu(u32 seglen)
{
	seglen &= ~7U;
	if (seglen <= MPA_HDR_SIZE + MPA_CRC_SIZE)
		return 0;
	return seglen - MPA_HDR_SIZE - MPA_CRC_SIZE;
}

/**
 * siw_fpdu_seglen() - bytes one FPDU may fill on a TCP stream
 * @mss: the stream's MSS now
 * @gso_segs: segments TCP hands the device at once (its gso_segs;
 *	0 or 1 without GSO)
 * @limit: segments one FPDU may span: 1 keeps each FPDU in one segment
 *	(RFC 5044's alignment, upstream siw's choice), 0 as many as
 *	@gso_segs, N at most N
 *
 * An FPDU over several segments costs the receiver its alignment (a lost
 * segment stalls the whole FPDU), and saves the sender a header, a CRC
 * and a pass through the socket per segment.  The MPA length field has
 * 16 bits: never more than 64 KiB.
 *
 * Context: Any context.
 * Return: the length to cut FPDUs for (siw_fpdu_mulpdu() takes it).
 */
u32 siw_fpdu_seglen(u32 mss, u32 gso_segs, u32 limit)
{
	u32 segs = max_t(u32, gso_segs, 1);

	if (limit)
		segs = min(segs, limit);
	return min_t(u64, (u64)mss * segs, SZ_64K);
}

/**
 * siw_fpdu_init_hdr() - a message's header with the fixed fields set
 * @hdr: filled: zeroed, then versions, opcode, T, L and, for an untagged
 *	opcode, its QN; the caller adds MSN, STag, TO, READ fields
 * @opcode: RDMAP opcode
 *
 * Context: Any context.
 * Return: 0, or -EINVAL for a value that is no opcode.
 */
int siw_fpdu_init_hdr(union iwarp_hdr *hdr, u8 opcode)
{
	bool tagged = siw_opcode_tagged(opcode);

	if (opcode >= RDMAP_NOT_SUPPORTED)
		return -EINVAL;
	memset(hdr, 0, sizeof(*hdr));
	hdr->ctrl.ddp_rdmap_ctrl = siw_ctrl_word(opcode, tagged, true);
	hdr->ctrl.mpa_len = cpu_to_be16(siw_fpdu_hdr_len(opcode) -
					MPA_HDR_SIZE);
	if (!tagged)
		hdr->c_untagged.ddp_qn = cpu_to_be32(siw_opcode_qn(opcode));
	return 0;
}

/**
 * siw_fpdu_next_seg() - cut the next segment of a message
 * @hdr: the message's header (siw_fpdu_init_hdr()); its MPA length,
 *	L flag and MO (untagged) or TO (tagged) are set for this segment
 * @base_to: tagged: the TO of the message's first byte
 * @msg_len: payload bytes of the whole message
 * @offset: payload bytes already sent in earlier segments
 * @mulpdu: from siw_fpdu_mulpdu()
 * @seg: filled with the segment's sizes
 *
 * A message without payload (zero-length SEND or WRITE, READ request)
 * is one segment with @len 0.
 *
 * Context: Any context.
 * Return: the segment's payload bytes, -EINVAL for an opcode that
 * carries no payload given some, or a @mulpdu without room for the
 * header and one payload byte; -ERANGE for an @offset at or behind the
 * message's end (a message without payload: behind 0) or a tagged
 * message whose TOs would wrap.
 */
int siw_fpdu_next_seg(union iwarp_hdr *hdr, u64 base_to, u32 msg_len,
		      u32 offset, u32 mulpdu, struct siw_fpdu_seg *seg)
{
	u8 opcode = siw_rdmap_opcode(&hdr->ctrl);
	unsigned int hlen = siw_fpdu_hdr_len(opcode);
	bool tagged = siw_opcode_tagged(opcode);
	u32 room, len;
	u16 bits;

	if (!hlen)
		return -EINVAL;
	if (msg_len && opcode == RDMAP_RDMA_READ_REQ)
		return -EINVAL;
	if (offset > msg_len || (msg_len && offset == msg_len))
		return -ERANGE;
	if (tagged && msg_len && base_to + msg_len - 1 < base_to)
		return -ERANGE;
	if (mulpdu < hlen - MPA_HDR_SIZE)
		return -EINVAL;
	room = mulpdu - (hlen - MPA_HDR_SIZE);
	if (!room && msg_len)
		return -EINVAL;

	len = min(msg_len - offset, room);
	seg->offset = offset;
	seg->len = len;
	seg->last = offset + len == msg_len;
	seg->hdr_len = hlen;
	seg->pad = -(hlen + len) & 3;
	seg->fpdu_len = hlen + len + seg->pad + MPA_CRC_SIZE;

	bits = siw_ctrl_bits(&hdr->ctrl) & ~SIW_DDP_FLAG_LAST;
	if (seg->last)
		bits |= SIW_DDP_FLAG_LAST;
	hdr->ctrl.ddp_rdmap_ctrl = cpu_to_be16(bits);
	hdr->ctrl.mpa_len = cpu_to_be16(hlen - MPA_HDR_SIZE + len);
	if (tagged)
		hdr->c_tagged.ddp_to = cpu_to_be64(base_to + offset);
	else
		hdr->c_untagged.ddp_mo = cpu_to_be32(offset);
	return len;
}

/**
 * siw_fpdu_crc_update() - feed bytes to a running MPA CRC
 * @crc: SIW_FPDU_CRC_SEED, or the value of an earlier update
 * @p: bytes
 * @len: how many
 *
 * Context: Any context.
 * Return: the running CRC.
 */
u32 siw_fpdu_crc_update(u32 crc, const void *p, size_t len)
{
	return crc32c(crc, p, len);
}

/**
 * siw_fpdu_crc_final() - the CRC field of a running MPA CRC
 * @crc: the value of the last siw_fpdu_crc_update()
 *
 * Context: Any context.
 * Return: the four bytes of the FPDU's CRC field.
 */
__le32 siw_fpdu_crc_final(u32 crc)
{
	return cpu_to_le32(~crc);
}

/**
 * siw_fpdu_crc() - the CRC field of an FPDU
 * @hdr: the header, from the MPA length field on
 * @hdr_len: its length
 * @frag: the payload, in pieces
 * @nfrags: how many pieces
 * @pad: pad bytes (zero) behind the payload
 *
 * Context: Any context.
 * Return: the four bytes of the CRC field.
 */
__le32 siw_fpdu_crc(const void *hdr, unsigned int hdr_len,
		    const struct kvec *frag, unsigned int nfrags,
		    unsigned int pad)
{
	static const u8 zero[4];
	u32 crc = siw_fpdu_crc_update(SIW_FPDU_CRC_SEED, hdr, hdr_len);
	unsigned int i;

	for (i = 0; i < nfrags; i++)
		crc = siw_fpdu_crc_update(crc, frag[i].iov_base,
					  frag[i].iov_len);
	crc = siw_fpdu_crc_update(crc, zero, min(pad, 3U));
	return siw_fpdu_crc_final(crc);
}

/**
 * siw_fpdu_check_crc() - check the CRC of an FPDU in one buffer
 * @fpdu: the FPDU, from the MPA length field to the CRC field
 * @len: its length (header, payload, pad and CRC)
 *
 * Context: Any context.
 * Return: 0 when the CRC field matches, -EBADMSG when not (a TERMINATE
 * LLP, LLP_ECODE_RECEIVED_CRC), -EINVAL when @len is no FPDU's length.
 */
int siw_fpdu_check_crc(const void *fpdu, size_t len)
{
	__le32 want;
	u32 crc;

	if (len < sizeof(struct iwarp_ctrl) + MPA_CRC_SIZE || len % 4)
		return -EINVAL;
	crc = siw_fpdu_crc_update(SIW_FPDU_CRC_SEED, fpdu,
				  len - MPA_CRC_SIZE);
	want = siw_fpdu_crc_final(crc);
	if (memcmp(&want, (const u8 *)fpdu + len - MPA_CRC_SIZE,
		   MPA_CRC_SIZE))
		return -EBADMSG;
	return 0;
}

static int siw_fpdu_refuse(struct siw_fpdu_info *info, u8 layer, u8 etype,
			   u8 ecode)
{
	info->term_layer = layer;
	info->term_etype = etype;
	info->term_ecode = ecode;
	return -EPROTO;
}

/* Per-opcode checks of a complete header; the length fields are set. */
static int siw_fpdu_check_hdr(const u8 *buf, struct siw_fpdu_info *info)
{
	const union iwarp_hdr *h = (const void *)buf;
	int qn = siw_opcode_qn(info->opcode);

	if (info->tagged) {
		info->stag = get_unaligned_be32(&h->c_tagged.ddp_stag);
		info->to = get_unaligned_be64(&h->c_tagged.ddp_to);
		if (info->payload && info->to + info->payload - 1 < info->to)
			return siw_fpdu_refuse(info, TERM_ERROR_LAYER_DDP,
					       DDP_ETYPE_TAGGED_BUF,
					       DDP_ECODE_T_TO_WRAP);
		return 0;
	}
	info->qn = get_unaligned_be32(&h->c_untagged.ddp_qn);
	info->msn = get_unaligned_be32(&h->c_untagged.ddp_msn);
	info->mo = get_unaligned_be32(&h->c_untagged.ddp_mo);
	if (info->qn != qn)
		return siw_fpdu_refuse(info, TERM_ERROR_LAYER_DDP,
				       DDP_ETYPE_UNTAGGED_BUF,
				       DDP_ECODE_UT_INVALID_QN);
	if ((u64)info->mo + info->payload > U32_MAX + 1ULL)
		return siw_fpdu_refuse(info, TERM_ERROR_LAYER_DDP,
				       DDP_ETYPE_UNTAGGED_BUF,
				       DDP_ECODE_UT_INVALID_MO);
	if (info->opcode == RDMAP_RDMA_READ_REQ) {
		u64 to = get_unaligned_be64(&h->rreq.source_to);
		u32 size = get_unaligned_be32(&h->rreq.read_size);

		/* one segment without payload */
		if (info->payload || !info->last || info->mo)
			return siw_fpdu_refuse(info, TERM_ERROR_LAYER_DDP,
					       DDP_ETYPE_UNTAGGED_BUF,
					       DDP_ECODE_UT_MSG_TOOLONG);
		if (size && to + size - 1 < to)
			return siw_fpdu_refuse(info, TERM_ERROR_LAYER_RDMAP,
					       RDMAP_ETYPE_REMOTE_PROTECTION,
					       RDMAP_ECODE_TO_WRAP);
		to = get_unaligned_be64(&h->rreq.sink_to);
		if (size && to + size - 1 < to)
			return siw_fpdu_refuse(info, TERM_ERROR_LAYER_RDMAP,
					       RDMAP_ETYPE_REMOTE_PROTECTION,
					       RDMAP_ECODE_TO_WRAP);
	}
	return 0;
}

/**
 * siw_fpdu_parse_hdr() - read and check a received FPDU header
 * @buf: the bytes received, from the MPA length field on
 * @len: how many
 * @info: filled: lengths and DDP fields; on -EPROTO the TERMINATE to
 *	send
 *
 * Checks, in upstream siw's order: DDP version, RDMAP version, opcode,
 * then the T flag against the opcode, a length field covering the
 * header, the QN of an untagged opcode, offsets that would wrap, and
 * that a READ request is one segment without payload.  MSN and MO
 * against the receive state are siw_fpdu_check_untagged()'s; the CRC,
 * once the FPDU is in, siw_fpdu_check_crc()'s.
 *
 * Context: Any context.
 * Return: the header length on success; -EAGAIN when @len does not yet
 * cover the header (call again with more); -EPROTO for a header refused.
 */
int siw_fpdu_parse_hdr(const void *buf, size_t len,
		       struct siw_fpdu_info *info)
{
	const struct iwarp_ctrl *c = buf;
	u16 bits;

	memset(info, 0, sizeof(*info));
	if (len < sizeof(*c))
		return -EAGAIN;
	bits = get_unaligned_be16(&c->ddp_rdmap_ctrl);
	info->tagged = bits & SIW_DDP_FLAG_TAGGED;
	info->last = bits & SIW_DDP_FLAG_LAST;
	info->opcode = FIELD_GET(SIW_RDMAP_OPCODE, bits);
	info->mpa_len = get_unaligned_be16(&c->mpa_len);

	if (FIELD_GET(SIW_DDP_VERSION, bits) != DDP_VERSION)
		return siw_fpdu_refuse(info, TERM_ERROR_LAYER_DDP,
				       info->tagged ? DDP_ETYPE_TAGGED_BUF :
						      DDP_ETYPE_UNTAGGED_BUF,
				       info->tagged ? DDP_ECODE_T_VERSION :
						      DDP_ECODE_UT_VERSION);
	if (FIELD_GET(SIW_RDMAP_VERSION, bits) != RDMAP_VERSION)
		return siw_fpdu_refuse(info, TERM_ERROR_LAYER_RDMAP,
				       RDMAP_ETYPE_REMOTE_OPERATION,
				       RDMAP_ECODE_VERSION);
	if (info->opcode >= RDMAP_NOT_SUPPORTED ||
	    info->tagged != siw_opcode_tagged(info->opcode))
		return siw_fpdu_refuse(info, TERM_ERROR_LAYER_RDMAP,
				       RDMAP_ETYPE_REMOTE_OPERATION,
				       RDMAP_ECODE_OPCODE);
	info->hdr_len = siw_fpdu_hdr_len(info->opcode);
	if (info->mpa_len + MPA_HDR_SIZE < info->hdr_len)
		return siw_fpdu_refuse(info, TERM_ERROR_LAYER_LLP,
				       LLP_ETYPE_MPA, LLP_ECODE_FPDU_START);
	info->payload = info->mpa_len + MPA_HDR_SIZE - info->hdr_len;
	info->pad = -(info->mpa_len + MPA_HDR_SIZE) & 3;
	info->fpdu_len = info->mpa_len + MPA_HDR_SIZE + info->pad +
			 MPA_CRC_SIZE;
	if (len < info->hdr_len)
		return -EAGAIN;
	return siw_fpdu_check_hdr(buf, info) ?: info->hdr_len;
}

/**
 * siw_fpdu_check_untagged() - an untagged segment against receive state
 * @info: from siw_fpdu_parse_hdr(); on -EPROTO the TERMINATE to send
 * @msn: the MSN expected on the segment's queue
 * @mo: the MO expected (payload bytes of the message received so far)
 *
 * Context: Any context.
 * Return: 0, or -EPROTO (DDP untagged, bad MSN range or MO).
 */
int siw_fpdu_check_untagged(struct siw_fpdu_info *info, u32 msn, u32 mo)
{
	if (info->msn != msn)
		return siw_fpdu_refuse(info, TERM_ERROR_LAYER_DDP,
				       DDP_ETYPE_UNTAGGED_BUF,
				       DDP_ECODE_UT_INVALID_MSN_RANGE);
	if (info->mo != mo)
		return siw_fpdu_refuse(info, TERM_ERROR_LAYER_DDP,
				       DDP_ETYPE_UNTAGGED_BUF,
				       DDP_ECODE_UT_INVALID_MO);
	return 0;
}

/**
 * siw_fpdu_rtr() - the header of the RTR message ending a peer-to-peer
 *	setup, as upstream siw sends it
 * @hdr: filled: one complete segment without payload
 * @rtr: SIW_RTR_WRITE or SIW_RTR_READ
 * @read_msn: for a READ: the MSN of the READ queue (1 on a new
 *	connection)
 *
 * A zero-length RDMA WRITE to STag 1, TO 0 (STag 0 may mean something
 * to hardware peers; a receiver does not check a zero-length WRITE's
 * STag), or a zero-length READ request from source STag 1, TO 0 into
 * sink STag 0, TO 0.  The READ takes an ORD slot: the responder answers
 * with a zero-length READ response.
 *
 * Context: Any context.
 * Return: the header length (the FPDU without its CRC), or -EOPNOTSUPP
 * for a SEND RTR (never used by siw), -EINVAL for anything else.
 */
int siw_fpdu_rtr(union iwarp_hdr *hdr, u8 rtr, u32 read_msn)
{
	switch (rtr) {
	case SIW_RTR_WRITE:
		siw_fpdu_init_hdr(hdr, RDMAP_RDMA_WRITE);
		hdr->rwrite.sink_stag = cpu_to_be32(1);
		return sizeof(hdr->rwrite);
	case SIW_RTR_READ:
		siw_fpdu_init_hdr(hdr, RDMAP_RDMA_READ_REQ);
		hdr->rreq.ddp_msn = cpu_to_be32(read_msn);
		hdr->rreq.source_stag = cpu_to_be32(1);
		return sizeof(hdr->rreq);
	case SIW_RTR_SEND:
		return -EOPNOTSUPP;
	default:
		return -EINVAL;
	}
}
