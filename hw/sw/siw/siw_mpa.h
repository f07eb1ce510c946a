/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * siw: MPA connection setup (RFC 5044 section 7, RFC 6581) as pure
 * functions over buffers: build a request, reply or reject, parse a
 * received frame, decide CRC, IRD/ORD and the RTR message the way
 * upstream siw does.  No sockets, no locks, no allocation: the
 * connection manager owns the buffers and the state.
 */
#ifndef SIW_MPA_H
#define SIW_MPA_H

#include <linux/types.h>

#include "siw_wire.h"

/* Largest frame we ever receive: header and RFC-sized private data */
#define SIW_MPA_MAX_FRAME	(sizeof(struct mpa_rr) + SIW_MPA_RFC_MAX_PRIVDATA)
/* Largest frame we ever send (upstream's receive limit) */
#define SIW_MPA_MAX_TX_FRAME	(sizeof(struct mpa_rr) + MPA_MAX_PRIVDATA)

/*
 * Why a frame or a negotiation was refused.  The errno each function
 * returns with it is given in brackets.
 */
enum siw_mpa_reason {
	SIW_MPA_OK = 0,
	SIW_MPA_ERR_SHORT,		/* less than a header (-EBADMSG) */
	SIW_MPA_ERR_KEY,		/* not the key expected (-EPROTO) */
	SIW_MPA_ERR_REVISION,		/* revision not 1 or 2 (-EPROTO) */
	SIW_MPA_ERR_PD_TOO_LONG,	/* PD_Length above 512 (-EPROTO) */
	SIW_MPA_ERR_PD_TRUNCATED,	/* PD_Length above bytes there (-EBADMSG) */
	SIW_MPA_ERR_REJECT_IN_REQ,	/* R flag in a request (-EPROTO) */
	SIW_MPA_ERR_V2_SHORT,		/* S without setup data (-EPROTO) */
	SIW_MPA_ERR_MARKERS,		/* peer wants markers (-EOPNOTSUPP) */
	SIW_MPA_ERR_CRC,		/* CRC against local policy (-EOPNOTSUPP) */
	SIW_MPA_ERR_REJECTED,		/* reply has R set (-ECONNRESET) */
	SIW_MPA_ERR_DOWNGRADE,		/* enhanced request, plain reply (-EPROTO) */
	SIW_MPA_ERR_UPGRADE,		/* reply revision above request (-EPROTO) */
	SIW_MPA_ERR_IRD,		/* responder ORD above our IRD (-ENOMEM) */
	SIW_MPA_ERR_RTR,		/* no RTR message both support (-EPROTO) */
	SIW_MPA_ERR_TRAILING,		/* data behind a request (-EPROTO) */
	SIW_MPA_ERR_PARAM,		/* local parameters out of range (-EINVAL) */
	SIW_MPA_ERR_NOSPACE,		/* output buffer too small (-ENOSPC) */
	SIW_MPA_NR_REASONS
};

/**
 * struct siw_mpa_policy - the local side's MPA settings
 * @version: revision to request as initiator (mpa_version): 1 or 2
 * @crc_required: ask for CRC and refuse a peer that does not use it
 *	(mpa_crc_required)
 * @crc_strict: with @crc_required unset, refuse a peer that asks for
 *	CRC (mpa_crc_strict)
 * @peer_to_peer: as initiator, ask for an RTR message (peer_to_peer)
 * @rtr_offer: SIW_RTR_WRITE and/or SIW_RTR_READ offered with
 *	@peer_to_peer (upstream offers both)
 * @gso: say (SIW_MPA_FLAG_GSO_EXP) that we take FPDUs over one MSS, and
 *	send such FPDUs to a peer that says so (upstream's try_gso;
 *	gso_seg_limit other than 1)
 * @max_ird: device limit of inbound READs per QP
 * @max_ord: device limit of outbound READs per QP
 */
struct siw_mpa_policy {
	u8	version;
	bool	crc_required;
	bool	crc_strict;
	bool	peer_to_peer;
	bool	gso;
	u8	rtr_offer;
	u16	max_ird;
	u16	max_ord;
};

/**
 * struct siw_mpa_frame - a parsed request or reply
 * @reply: the key is MPA_KEY_REP
 * @revision: Rev field
 * @bits: the flag and revision word in host order (SIW_MPA_FLAG_*)
 * @pd_len: PD_Length as received (setup data included)
 * @enhanced: revision 2 with S set: @ird, @ord, @ird_flags and
 *	@ord_flags are valid and @pdata starts behind the setup data
 * @ird: IRD of the setup data
 * @ord: ORD of the setup data
 * @ird_flags: SIW_MPA_V2_PEER_TO_PEER, SIW_MPA_V2_SEND_RTR
 * @ord_flags: SIW_MPA_V2_WRITE_RTR, SIW_MPA_V2_READ_RTR
 * @pdata: the consumer's private data, inside the parsed buffer
 * @pdata_len: its length
 */
struct siw_mpa_frame {
	bool		reply;
	u8		revision;
	u16		bits;
	u16		pd_len;
	bool		enhanced;
	u16		ird;
	u16		ord;
	u16		ird_flags;
	u16		ord_flags;
	const u8	*pdata;
	u16		pdata_len;
};

/**
 * struct siw_mpa_result - what a connection uses (or offered)
 * @revision: revision of the exchange
 * @enhanced: RFC 6581 setup data were exchanged
 * @crc: FPDUs carry a CRC32c, in both directions
 * @p2p: peer-to-peer: an RTR message ends the setup
 * @rtr: SIW_RTR_* the initiator sends (a mask in an initiator's offer)
 * @ird: local inbound READ queue depth
 * @ord: local outbound READ queue depth
 * @gso: we may send FPDUs over one MSS (both ends have the GSO bit;
 *	in an offer: we asked for it)
 */
struct siw_mpa_result {
	u8	revision;
	bool	enhanced;
	bool	crc;
	bool	p2p;
	bool	gso;
	u8	rtr;
	u16	ird;
	u16	ord;
};

/**
 * struct siw_mpa_rx - a request or reply arriving in pieces
 * @have: bytes of the frame in @buf
 * @want_reply: a reply is expected (else a request)
 * @buf: the frame so far
 */
struct siw_mpa_rx {
	u16	have;
	bool	want_reply;
	u8	buf[SIW_MPA_MAX_FRAME];
};

const char *siw_mpa_reason_name(enum siw_mpa_reason why);

int siw_mpa_parse(const void *buf, size_t len, bool want_reply,
		  struct siw_mpa_frame *frame, enum siw_mpa_reason *why);

int siw_mpa_build_req(const struct siw_mpa_policy *pol, u16 ird, u16 ord,
		      const void *pdata, u16 pd_len, void *buf, size_t size,
		      struct siw_mpa_result *offer);
int siw_mpa_check_reply(const struct siw_mpa_policy *pol,
			const struct siw_mpa_result *offer,
			const struct siw_mpa_frame *rep,
			struct siw_mpa_result *res, enum siw_mpa_reason *why);

int siw_mpa_check_req(const struct siw_mpa_policy *pol,
		      const struct siw_mpa_frame *req,
		      struct siw_mpa_result *res, enum siw_mpa_reason *why);
int siw_mpa_build_rep(const struct siw_mpa_policy *pol,
		      struct siw_mpa_result *res, u16 ird, u16 ord,
		      const void *pdata, u16 pd_len, void *buf, size_t size);
int siw_mpa_build_reject(const struct siw_mpa_policy *pol,
			 const struct siw_mpa_frame *req,
			 const struct siw_mpa_result *res,
			 const void *pdata, u16 pd_len, void *buf,
			 size_t size);

void siw_mpa_rx_init(struct siw_mpa_rx *rx, bool want_reply);
int siw_mpa_rx_feed(struct siw_mpa_rx *rx, const void *data, size_t len,
		    size_t *used, struct siw_mpa_frame *frame,
		    enum siw_mpa_reason *why);

#endif /* SIW_MPA_H */
