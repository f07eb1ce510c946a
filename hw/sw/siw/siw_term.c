// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw: TERMINATE messages.
 *
 * What a TERMINATE carries follows upstream siw, so that traces of the
 * two compare byte for byte:
 *
 *  - LLP (MPA) errors, catastrophic RDMAP errors, DDP and RDMAP version
 *    errors and unknown opcodes: no header (M, D, R clear);
 *  - other DDP errors and RDMAP remote operation errors: the DDP part of
 *    the offending segment's header (16 bytes tagged, 20 untagged), M
 *    and D set;
 *  - RDMAP remote protection errors: the whole RDMAP header (48 bytes
 *    for a READ request), M, D and R set.
 *
 * With M the carried header's first 16 bits hold the segment's payload
 * length (upstream's reading of RFC 5040's "DDP segment length").  The
 * TERMINATE itself goes on QN 2 with MSN 1 and MO 0, in one segment.
 */

#include <linux/errno.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include "siw_fpdu.h"
#include "siw_term.h"

/* How much of @bad a TERMINATE carries, and with which flags. */
static unsigned int siw_term_carry(u8 layer, u8 etype, u8 ecode,
				   const union iwarp_hdr *bad, u32 *flags)
{
	u8 op;

	*flags = 0;
	if (!bad)
		return 0;
	op = siw_rdmap_opcode(&bad->ctrl);
	if (!siw_fpdu_hdr_len(op))
		return 0;

	switch (layer) {
	case TERM_ERROR_LAYER_RDMAP:
		if (etype == RDMAP_ETYPE_CATASTROPHIC)
			return 0;
		if (etype == RDMAP_ETYPE_REMOTE_PROTECTION) {
			*flags = SIW_TERM_FLAG_M | SIW_TERM_FLAG_D |
				 SIW_TERM_FLAG_R;
			return siw_fpdu_hdr_len(op);
		}
		if (ecode == RDMAP_ECODE_VERSION || ecode == RDMAP_ECODE_OPCODE)
			return 0;
		break;
	case TERM_ERROR_LAYER_DDP:
		if ((etype == DDP_ETYPE_TAGGED_BUF &&
		     ecode == DDP_ECODE_T_VERSION) ||
		    (etype == DDP_ETYPE_UNTAGGED_BUF &&
		     ecode == DDP_ECODE_UT_VERSION))
			return 0;
		break;
	default:
		return 0;
	}
	*flags = SIW_TERM_FLAG_M | SIW_TERM_FLAG_D;
	return siw_ddp_tagged(&bad->ctrl) ? sizeof(struct iwarp_ctrl_tagged) :
					    sizeof(struct iwarp_ctrl_untagged);
}

/**
 * siw_term_build() - a TERMINATE FPDU
 * @buf: where it goes
 * @size: room at @buf (SIW_TERM_MAX_FPDU always suffices)
 * @layer: enum term_elayer
 * @etype: error type of @layer
 * @ecode: error code
 * @bad: the header of the received segment the error is about, as
 *	received, or NULL (then nothing is carried)
 * @crc: the connection uses CRC (else the CRC field is zero)
 *
 * Context: Any context.
 * Return: the FPDU's length (no pad is ever needed), -ENOSPC if @size
 * is too small.
 */
int siw_term_build(void *buf, size_t size, u8 layer, u8 etype, u8 ecode,
		   const union iwarp_hdr *bad, bool crc)
{
	struct iwarp_terminate term;
	union iwarp_hdr h;
	unsigned int carry, len;
	u32 flags;
	u8 *p = buf;

	carry = siw_term_carry(layer, etype, ecode, bad, &flags);
	len = sizeof(term) + carry + MPA_CRC_SIZE;
	if (len > size)
		return -ENOSPC;

	siw_fpdu_init_hdr(&h, RDMAP_TERMINATE);
	term = h.terminate;
	term.ctrl.mpa_len = cpu_to_be16(sizeof(term) + carry - MPA_HDR_SIZE);
	term.ddp_msn = cpu_to_be32(1);
	term.term_ctrl = siw_term_word(layer, etype, ecode, flags);
	memcpy(p, &term, sizeof(term));
	if (carry) {
		unsigned int hlen = siw_fpdu_hdr_len(siw_rdmap_opcode(&bad->ctrl));
		unsigned int ulpdu = be16_to_cpu(bad->ctrl.mpa_len) + MPA_HDR_SIZE;
		u16 seg = ulpdu > hlen ? ulpdu - hlen : 0;

		memcpy(p + sizeof(term), bad, carry);
		put_unaligned_be16(seg, p + sizeof(term));
	}
	if (crc) {
		__le32 v = siw_fpdu_crc(p, sizeof(term) + carry, NULL, 0, 0);

		memcpy(p + sizeof(term) + carry, &v, MPA_CRC_SIZE);
	} else {
		memset(p + sizeof(term) + carry, 0, MPA_CRC_SIZE);
	}
	return len;
}

/**
 * siw_term_parse() - read a received TERMINATE
 * @buf: the FPDU from its MPA length field on (siw_fpdu_parse_hdr()
 *	accepted its header)
 * @len: the ULPDU's bytes with the length field (MPA length + 2)
 * @ti: filled
 *
 * Context: Any context.
 * Return: 0, or -EBADMSG when @len is shorter than the TERMINATE header
 * or than the header its D or R flag announces.
 */
int siw_term_parse(const void *buf, size_t len, struct siw_term_info *ti)
{
	const struct iwarp_terminate *t = buf;
	const union iwarp_hdr *carried;
	u32 bits;

	memset(ti, 0, sizeof(*ti));
	ti->opcode = RDMAP_NOT_SUPPORTED;
	if (len < sizeof(*t))
		return -EBADMSG;
	bits = get_unaligned_be32(&t->term_ctrl);
	ti->layer = FIELD_GET(SIW_TERM_LAYER, bits);
	ti->etype = FIELD_GET(SIW_TERM_ETYPE, bits);
	ti->ecode = FIELD_GET(SIW_TERM_ECODE, bits);
	ti->flag_m = bits & SIW_TERM_FLAG_M;
	ti->flag_d = bits & SIW_TERM_FLAG_D;
	ti->flag_r = bits & SIW_TERM_FLAG_R;
	if (!ti->flag_d && !ti->flag_r)
		return 0;

	carried = (const void *)((const u8 *)buf + sizeof(*t));
	len -= sizeof(*t);
	if (len < sizeof(struct iwarp_ctrl_tagged))
		return -EBADMSG;
	ti->opcode = siw_rdmap_opcode(&carried->ctrl);
	if (ti->flag_m)
		ti->ddp_len = get_unaligned_be16(&carried->ctrl.mpa_len);
	if (ti->flag_r && len < siw_fpdu_hdr_len(ti->opcode))
		return -EBADMSG;
	if (!siw_ddp_tagged(&carried->ctrl) &&
	    len < sizeof(struct iwarp_ctrl_untagged))
		return -EBADMSG;
	return 0;
}
