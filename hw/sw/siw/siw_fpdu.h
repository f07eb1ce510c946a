/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * siw: FPDUs (MPA-framed DDP segments) without sockets: header lengths
 * per opcode, the MULPDU of a TCP segment size, cutting a message into
 * segments, the CRC32c trailer, and the checks of a received header.
 */
#ifndef SIW_FPDU_H
#define SIW_FPDU_H

#include <linux/types.h>
#include <linux/uio.h>

#include "siw_wire.h"

/**
 * struct siw_fpdu_seg - one segment of a message, as siw_fpdu_next_seg()
 *	cut it
 * @offset: where its payload starts in the message (MO, or TO - base)
 * @len: payload bytes
 * @pad: zero bytes between payload and CRC (0..3)
 * @last: the DDP L flag: the message's last segment
 * @hdr_len: header bytes, from the MPA length field to the payload
 * @fpdu_len: all bytes on the wire: header, payload, pad, CRC
 */
struct siw_fpdu_seg {
	u32	offset;
	u32	len;
	u8	pad;
	bool	last;
	u16	hdr_len;
	u32	fpdu_len;
};

/**
 * struct siw_fpdu_info - a received FPDU header, as siw_fpdu_parse_hdr()
 *	read it
 * @opcode: RDMAP opcode
 * @tagged: DDP T flag
 * @last: DDP L flag
 * @hdr_len: header bytes, from the MPA length field to the payload
 * @mpa_len: the MPA ULPDU length field
 * @payload: DDP payload bytes
 * @pad: pad bytes before the CRC
 * @fpdu_len: all bytes of the FPDU on the wire
 * @qn: untagged: DDP queue number
 * @msn: untagged: DDP message sequence number
 * @mo: untagged: DDP message offset
 * @stag: tagged: STag
 * @to: tagged: tagged offset
 * @term_layer: on error, the TERMINATE's layer (enum term_elayer)
 * @term_etype: on error, its error type
 * @term_ecode: on error, its error code
 */
struct siw_fpdu_info {
	u8	opcode;
	bool	tagged;
	bool	last;
	u16	hdr_len;
	u16	mpa_len;
	u32	payload;
	u8	pad;
	u32	fpdu_len;
	u32	qn;
	u32	msn;
	u32	mo;
	u32	stag;
	u64	to;
	u8	term_layer;
	u8	term_etype;
	u8	term_ecode;
};

unsigned int siw_fpdu_hdr_len(u8 opcode);
bool siw_opcode_tagged(u8 opcode);
int siw_opcode_qn(u8 opcode);
u32 siw_fpdu_mulpdu(u32 seglen);
u32 siw_fpdu_seglen(u32 mss, u32 gso_segs, u32 limit);

int siw_fpdu_init_hdr(union iwarp_hdr *hdr, u8 opcode);
int siw_fpdu_next_seg(union iwarp_hdr *hdr, u64 base_to, u32 msg_len,
		      u32 offset, u32 mulpdu, struct siw_fpdu_seg *seg);

u32 siw_fpdu_crc_update(u32 crc, const void *p, size_t len);
__le32 siw_fpdu_crc_final(u32 crc);
__le32 siw_fpdu_crc(const void *hdr, unsigned int hdr_len,
		    const struct kvec *frag, unsigned int nfrags,
		    unsigned int pad);
int siw_fpdu_check_crc(const void *fpdu, size_t len);

int siw_fpdu_parse_hdr(const void *buf, size_t len,
		       struct siw_fpdu_info *info);
int siw_fpdu_check_untagged(struct siw_fpdu_info *info, u32 msn, u32 mo);
int siw_fpdu_rtr(union iwarp_hdr *hdr, u8 rtr, u32 read_msn);

/* CRC32c before any byte */
#define SIW_FPDU_CRC_SEED	(~0U)

#endif /* SIW_FPDU_H */
