// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw: MPA request/reply frames and their negotiation (RFC 5044
 * section 7.1, RFC 6581), following upstream siw's choices so that the
 * two talk to each other:
 *
 *  - Revision: the initiator asks for its mpa_version (2 by default,
 *    with enhanced setup data); the responder answers in the request's
 *    revision.  Revision 0 or above 2 is refused.  An enhanced request
 *    must be answered by an enhanced reply.
 *  - Markers are never offered and a peer asking for them is refused.
 *  - CRC is used when either side asks for it (RFC 5044); mpa_crc_strict
 *    without mpa_crc_required refuses a peer that asks for it.
 *  - IRD/ORD: the responder proposes the initiator's ORD as its IRD and
 *    the initiator's IRD as its ORD (capped by the device); the ORD a
 *    consumer accepts with is lowered to that, its IRD raised to it.
 *    The initiator refuses only a responder ORD above its device's IRD
 *    limit ("relaxed" negotiation, as upstream).
 *  - RTR: with peer_to_peer the initiator offers WRITE and READ; the
 *    responder picks WRITE if offered, else READ, else WRITE; a SEND RTR
 *    is never chosen.
 *
 * All functions are pure: they only read and write the memory given.
 */

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include "siw_mpa.h"

static const char *const siw_mpa_reason_names[SIW_MPA_NR_REASONS] = {
	[SIW_MPA_OK] = "ok",
	[SIW_MPA_ERR_SHORT] = "frame shorter than the MPA header",
	[SIW_MPA_ERR_KEY] = "bad MPA key",
	[SIW_MPA_ERR_REVISION] = "unsupported MPA revision",
	[SIW_MPA_ERR_PD_TOO_LONG] = "private data length above 512",
	[SIW_MPA_ERR_PD_TRUNCATED] = "private data shorter than announced",
	[SIW_MPA_ERR_REJECT_IN_REQ] = "reject flag in a request",
	[SIW_MPA_ERR_V2_SHORT] = "enhanced setup without IRD/ORD data",
	[SIW_MPA_ERR_MARKERS] = "peer asks for MPA markers",
	[SIW_MPA_ERR_CRC] = "CRC setting refused by local policy",
	[SIW_MPA_ERR_REJECTED] = "peer rejected the connection",
	[SIW_MPA_ERR_DOWNGRADE] = "enhanced request answered without",
	[SIW_MPA_ERR_UPGRADE] = "reply revision above the request's",
	[SIW_MPA_ERR_IRD] = "insufficient IRD",
	[SIW_MPA_ERR_RTR] = "no matching RTR message",
	[SIW_MPA_ERR_TRAILING] = "data behind the MPA request",
	[SIW_MPA_ERR_PARAM] = "local parameter out of range",
	[SIW_MPA_ERR_NOSPACE] = "buffer too small",
};

/**
 * siw_mpa_reason_name() - text for a refusal reason
 * @why: the reason
 *
 * Context: Any context.
 * Return: a constant string, "?" for an unknown value.
 */
const char *siw_mpa_reason_name(enum siw_mpa_reason why)
{
	if (why >= SIW_MPA_NR_REASONS || !siw_mpa_reason_names[why])
		return "?";
	return siw_mpa_reason_names[why];
}

static int siw_mpa_refuse(enum siw_mpa_reason *why, enum siw_mpa_reason r,
			  int err)
{
	if (why)
		*why = r;
	return err;
}

/**
 * siw_mpa_parse() - parse and check one received request or reply
 * @buf: the received bytes, starting at the key
 * @len: how many there are (at least the whole frame)
 * @want_reply: a reply is expected; else a request
 * @frame: filled on success; its @pdata points into @buf
 * @why: set to the reason (SIW_MPA_OK on success); may be NULL
 *
 * Checks what every frame must satisfy: the key, revision 1 or 2, a
 * PD_Length up to 512 that @len covers, no R flag in a request, and the
 * IRD/ORD setup data an enhanced frame announces.  Policy (markers, CRC,
 * IRD/ORD, RTR) is left to siw_mpa_check_req() and siw_mpa_check_reply().
 * The S flag counts only in revision 2 (a revision 1 peer's reserved bit).
 *
 * Context: Any context.
 * Return: the length of the frame (header and private data; bytes of
 * @buf behind it are not looked at), or -EBADMSG, -EPROTO (see
 * enum siw_mpa_reason).
 */
int siw_mpa_parse(const void *buf, size_t len, bool want_reply,
		  struct siw_mpa_frame *frame, enum siw_mpa_reason *why)
{
	const struct mpa_rr *rr = buf;
	const u8 *pd = (const u8 *)buf + sizeof(*rr);
	u16 bits, pd_len;

	memset(frame, 0, sizeof(*frame));
	if (len < sizeof(*rr))
		return siw_mpa_refuse(why, SIW_MPA_ERR_SHORT, -EBADMSG);
	if (memcmp(rr->key, want_reply ? MPA_KEY_REP : MPA_KEY_REQ,
		   MPA_KEY_SIZE))
		return siw_mpa_refuse(why, SIW_MPA_ERR_KEY, -EPROTO);

	bits = get_unaligned_be16(&rr->params.bits);
	pd_len = get_unaligned_be16(&rr->params.pd_len);
	frame->reply = want_reply;
	frame->bits = bits;
	frame->revision = FIELD_GET(SIW_MPA_REVISION, bits);
	frame->pd_len = pd_len;

	if (frame->revision != MPA_REVISION_1 &&
	    frame->revision != MPA_REVISION_2)
		return siw_mpa_refuse(why, SIW_MPA_ERR_REVISION, -EPROTO);
	if (pd_len > SIW_MPA_RFC_MAX_PRIVDATA)
		return siw_mpa_refuse(why, SIW_MPA_ERR_PD_TOO_LONG, -EPROTO);
	if (len - sizeof(*rr) < pd_len)
		return siw_mpa_refuse(why, SIW_MPA_ERR_PD_TRUNCATED, -EBADMSG);
	if (!want_reply && (bits & SIW_MPA_FLAG_REJECT))
		return siw_mpa_refuse(why, SIW_MPA_ERR_REJECT_IN_REQ, -EPROTO);

	frame->pdata = pd;
	frame->pdata_len = pd_len;
	if (frame->revision == MPA_REVISION_2 &&
	    (bits & SIW_MPA_FLAG_ENHANCED)) {
		u16 ird, ord;

		if (pd_len < sizeof(struct mpa_v2_data))
			return siw_mpa_refuse(why, SIW_MPA_ERR_V2_SHORT,
					      -EPROTO);
		ird = get_unaligned_be16(pd);
		ord = get_unaligned_be16(pd + 2);
		frame->enhanced = true;
		frame->ird = ird & SIW_MPA_V2_IRD_ORD;
		frame->ord = ord & SIW_MPA_V2_IRD_ORD;
		frame->ird_flags = ird & ~SIW_MPA_V2_IRD_ORD;
		frame->ord_flags = ord & ~SIW_MPA_V2_IRD_ORD;
		frame->pdata += sizeof(struct mpa_v2_data);
		frame->pdata_len -= sizeof(struct mpa_v2_data);
	}
	siw_mpa_refuse(why, SIW_MPA_OK, 0);
	return sizeof(*rr) + pd_len;
}

/* Header, optional setup data and private data into @buf. */
static int siw_mpa_put(void *buf, size_t size, const char *key, u16 bits,
		       const struct mpa_v2_data *v2, const void *pdata,
		       u16 pd_len)
{
	struct mpa_rr *rr = buf;
	u8 *p = (u8 *)buf + sizeof(*rr);
	size_t total = sizeof(*rr) + (v2 ? sizeof(*v2) : 0) + pd_len;

	if (total - sizeof(*rr) > MPA_MAX_PRIVDATA)
		return -EINVAL;
	if (total > size)
		return -ENOSPC;
	memcpy(rr->key, key, MPA_KEY_SIZE);
	put_unaligned_be16(bits, &rr->params.bits);
	put_unaligned_be16(total - sizeof(*rr), &rr->params.pd_len);
	if (v2) {
		memcpy(p, v2, sizeof(*v2));
		p += sizeof(*v2);
	}
	if (pd_len)
		memcpy(p, pdata, pd_len);
	return total;
}

static u16 siw_rtr_ord_bits(u8 rtr)
{
	u16 v = 0;

	if (rtr & SIW_RTR_WRITE)
		v |= SIW_MPA_V2_WRITE_RTR;
	if (rtr & SIW_RTR_READ)
		v |= SIW_MPA_V2_READ_RTR;
	return v;
}

/**
 * siw_mpa_build_req() - the initiator's MPA request
 * @pol: local settings
 * @ird: the consumer's IRD
 * @ord: the consumer's ORD (raised to 1 for a peer-to-peer setup, which
 *	may need a READ as RTR)
 * @pdata: the consumer's private data
 * @pd_len: its length: at most MPA_MAX_PRIVDATA, less the 4 bytes of
 *	setup data in revision 2
 * @buf: where the frame goes
 * @size: room at @buf
 * @offer: what was offered, for siw_mpa_check_reply(); @rtr a mask
 *
 * A revision above 2 in @pol is taken as 2, as upstream does.  Markers
 * are never set, CRC only with @pol->crc_required, upstream's GSO bit
 * only with @pol->gso.
 *
 * Context: Any context.
 * Return: the frame length, -EINVAL for an out-of-range parameter
 * (revision 0, IRD or ORD above the device limit, private data too
 * long), -ENOSPC if @size is too small.
 */
int siw_mpa_build_req(const struct siw_mpa_policy *pol, u16 ird, u16 ord,
		      const void *pdata, u16 pd_len, void *buf, size_t size,
		      struct siw_mpa_result *offer)
{
	struct mpa_v2_data v2;
	u8 rev = min_t(u8, pol->version, MPA_REVISION_2);
	u16 bits;

	if (!rev || ird > pol->max_ird || ord > pol->max_ord)
		return -EINVAL;
	if (pol->peer_to_peer && !ord)
		ord = 1;

	memset(offer, 0, sizeof(*offer));
	offer->revision = rev;
	offer->crc = pol->crc_required;
	offer->gso = READ_ONCE(pol->gso);
	offer->ird = ird;
	offer->ord = ord;

	bits = FIELD_PREP(SIW_MPA_REVISION, rev);
	if (pol->crc_required)
		bits |= SIW_MPA_FLAG_CRC;
	if (offer->gso)
		bits |= SIW_MPA_FLAG_GSO_EXP;
	if (rev == MPA_REVISION_1)
		return siw_mpa_put(buf, size, MPA_KEY_REQ, bits, NULL, pdata,
				   pd_len);

	bits |= SIW_MPA_FLAG_ENHANCED;
	offer->enhanced = true;
	v2.ird = cpu_to_be16(ird & SIW_MPA_V2_IRD_ORD);
	v2.ord = cpu_to_be16(ord & SIW_MPA_V2_IRD_ORD);
	if (pol->peer_to_peer) {
		offer->p2p = true;
		offer->rtr = pol->rtr_offer & (SIW_RTR_WRITE | SIW_RTR_READ);
		v2.ird |= cpu_to_be16(SIW_MPA_V2_PEER_TO_PEER);
		v2.ord |= cpu_to_be16(siw_rtr_ord_bits(offer->rtr));
	}
	return siw_mpa_put(buf, size, MPA_KEY_REQ, bits, &v2, pdata, pd_len);
}

/* Markers and CRC of a peer's frame against @pol (both directions). */
static int siw_mpa_check_flags(const struct siw_mpa_policy *pol, u16 bits,
			       enum siw_mpa_reason *why)
{
	if (bits & SIW_MPA_FLAG_MARKERS)
		return siw_mpa_refuse(why, SIW_MPA_ERR_MARKERS, -EOPNOTSUPP);
	if ((bits & SIW_MPA_FLAG_CRC) && pol->crc_strict && !pol->crc_required)
		return siw_mpa_refuse(why, SIW_MPA_ERR_CRC, -EOPNOTSUPP);
	return 0;
}

/**
 * siw_mpa_check_reply() - the initiator's verdict on a parsed reply
 * @pol: local settings
 * @offer: what siw_mpa_build_req() sent
 * @rep: the reply, from siw_mpa_parse()
 * @res: the connection's settings, filled on success
 * @why: set to the reason (SIW_MPA_OK on success); may be NULL
 *
 * On SIW_MPA_ERR_IRD and SIW_MPA_ERR_RTR the initiator sends a
 * TERMINATE (LLP, LLP_ECODE_INSUFFICIENT_IRD or LLP_ECODE_NO_MATCHING_RTR).
 *
 * Context: Any context.
 * Return: 0, or -ECONNRESET (rejected), -EOPNOTSUPP (markers, CRC),
 * -EPROTO (revision, RTR), -ENOMEM (IRD).
 */
int siw_mpa_check_reply(const struct siw_mpa_policy *pol,
			const struct siw_mpa_result *offer,
			const struct siw_mpa_frame *rep,
			struct siw_mpa_result *res, enum siw_mpa_reason *why)
{
	bool crc = rep->bits & SIW_MPA_FLAG_CRC;
	int rv;

	memset(res, 0, sizeof(*res));
	if (rep->revision > offer->revision)
		return siw_mpa_refuse(why, SIW_MPA_ERR_UPGRADE, -EPROTO);
	if (rep->bits & SIW_MPA_FLAG_REJECT)
		return siw_mpa_refuse(why, SIW_MPA_ERR_REJECTED, -ECONNRESET);
	rv = siw_mpa_check_flags(pol, rep->bits, why);
	if (rv)
		return rv;
	if (pol->crc_required && !crc)
		return siw_mpa_refuse(why, SIW_MPA_ERR_CRC, -EOPNOTSUPP);
	if (offer->enhanced && !rep->enhanced)
		return siw_mpa_refuse(why, SIW_MPA_ERR_DOWNGRADE, -EPROTO);

	res->revision = rep->revision;
	res->crc = crc;
	res->gso = offer->gso && (rep->bits & SIW_MPA_FLAG_GSO_EXP);
	res->ird = offer->ird;
	res->ord = offer->ord;
	if (!offer->enhanced)
		goto done;

	res->enhanced = true;
	if (rep->ord > offer->ird && rep->ord > pol->max_ird)
		return siw_mpa_refuse(why, SIW_MPA_ERR_IRD, -ENOMEM);
	res->ird = rep->ord;
	res->ord = rep->ird;
	if (offer->p2p && offer->rtr) {
		u8 got = 0;

		if (rep->ord_flags & SIW_MPA_V2_WRITE_RTR)
			got |= SIW_RTR_WRITE;
		if (rep->ord_flags & SIW_MPA_V2_READ_RTR)
			got |= SIW_RTR_READ;
		got &= offer->rtr;
		/* a READ as RTR needs an ORD of one */
		if (!(got & SIW_RTR_WRITE) && (!got || !res->ord))
			return siw_mpa_refuse(why, SIW_MPA_ERR_RTR, -EPROTO);
		res->p2p = true;
		res->rtr = got & SIW_RTR_WRITE ? SIW_RTR_WRITE : SIW_RTR_READ;
	}
done:
	siw_mpa_refuse(why, SIW_MPA_OK, 0);
	return 0;
}

/**
 * siw_mpa_check_req() - the responder's verdict on a parsed request
 * @pol: local settings
 * @req: the request, from siw_mpa_parse()
 * @res: filled on success with the proposal to the consumer: CRC, IRD
 *	and ORD (the initiator's ORD and IRD, capped by the device), the
 *	RTR message to ask for
 * @why: set to the reason (SIW_MPA_OK on success); may be NULL
 *
 * A refused request is answered with siw_mpa_build_reject().
 *
 * Context: Any context.
 * Return: 0, or -EOPNOTSUPP (markers, CRC).
 */
int siw_mpa_check_req(const struct siw_mpa_policy *pol,
		      const struct siw_mpa_frame *req,
		      struct siw_mpa_result *res, enum siw_mpa_reason *why)
{
	int rv;

	memset(res, 0, sizeof(*res));
	rv = siw_mpa_check_flags(pol, req->bits, why);
	if (rv)
		return rv;

	res->revision = req->revision;
	res->crc = (req->bits & SIW_MPA_FLAG_CRC) || pol->crc_required;
	res->gso = READ_ONCE(pol->gso) &&
		   (req->bits & SIW_MPA_FLAG_GSO_EXP);
	if (req->enhanced) {
		res->enhanced = true;
		res->ird = min(req->ord, pol->max_ird);
		res->ord = min(req->ird, pol->max_ord);
		if (req->ird_flags & SIW_MPA_V2_PEER_TO_PEER) {
			res->p2p = true;
			if (req->ord_flags & SIW_MPA_V2_WRITE_RTR)
				res->rtr = SIW_RTR_WRITE;
			else if (req->ord_flags & SIW_MPA_V2_READ_RTR)
				res->rtr = SIW_RTR_READ;
			else
				res->rtr = SIW_RTR_WRITE;
		}
	}
	siw_mpa_refuse(why, SIW_MPA_OK, 0);
	return 0;
}

static u16 siw_mpa_rep_bits(const struct siw_mpa_policy *pol,
			    const struct siw_mpa_result *res)
{
	u16 bits = FIELD_PREP(SIW_MPA_REVISION, res->revision);

	if (res->crc)
		bits |= SIW_MPA_FLAG_CRC;
	/* we take FPDUs over one MSS, whatever the initiator asked */
	if (READ_ONCE(pol->gso))
		bits |= SIW_MPA_FLAG_GSO_EXP;
	if (res->enhanced)
		bits |= SIW_MPA_FLAG_ENHANCED;
	return bits;
}

/**
 * siw_mpa_build_rep() - the responder's reply when the consumer accepts
 * @pol: local settings
 * @res: from siw_mpa_check_req(); on success its @ird and @ord become
 *	the ones the connection uses
 * @ird: the consumer's IRD (raised to the initiator's ORD)
 * @ord: the consumer's ORD (lowered to the initiator's IRD)
 * @pdata: the consumer's private data
 * @pd_len: its length: at most MPA_MAX_PRIVDATA, less 4 when enhanced
 * @buf: where the frame goes
 * @size: room at @buf
 *
 * Context: Any context.
 * Return: the frame length, -EINVAL (IRD or ORD above the device limit,
 * private data too long), -ENOSPC.
 */
int siw_mpa_build_rep(const struct siw_mpa_policy *pol,
		      struct siw_mpa_result *res, u16 ird, u16 ord,
		      const void *pdata, u16 pd_len, void *buf, size_t size)
{
	struct mpa_v2_data v2;
	int rv;

	if (ird > pol->max_ird || ord > pol->max_ord)
		return -EINVAL;
	if (!res->enhanced) {
		rv = siw_mpa_put(buf, size, MPA_KEY_REP,
				 siw_mpa_rep_bits(pol, res), NULL, pdata,
				 pd_len);
		if (rv >= 0) {
			res->ird = ird;
			res->ord = ord;
		}
		return rv;
	}
	ord = min(ord, res->ord);
	ird = max(ird, res->ird);
	v2.ird = cpu_to_be16(ird & SIW_MPA_V2_IRD_ORD);
	v2.ord = cpu_to_be16(ord & SIW_MPA_V2_IRD_ORD);
	if (res->p2p) {
		v2.ird |= cpu_to_be16(SIW_MPA_V2_PEER_TO_PEER);
		v2.ord |= cpu_to_be16(siw_rtr_ord_bits(res->rtr));
	}
	rv = siw_mpa_put(buf, size, MPA_KEY_REP, siw_mpa_rep_bits(pol, res),
			 &v2, pdata, pd_len);
	if (rv >= 0) {
		res->ird = ird;
		res->ord = ord;
	}
	return rv;
}

/**
 * siw_mpa_build_reject() - a reply with R set
 * @pol: local settings
 * @req: the request refused
 * @res: siw_mpa_check_req()'s proposal, or NULL when the request itself
 *	was refused (the setup data then carry zero IRD and ORD)
 * @pdata: the consumer's private data (none for a protocol refusal)
 * @pd_len: its length: at most MPA_MAX_PRIVDATA, less 4 when enhanced
 * @buf: where the frame goes
 * @size: room at @buf
 *
 * The reply keeps the request's revision and CRC flag (dropped when
 * mpa_crc_strict refuses CRC), never markers, and carries setup data
 * when the request did.
 *
 * Context: Any context.
 * Return: the frame length, -EINVAL (private data too long), -ENOSPC.
 */
int siw_mpa_build_reject(const struct siw_mpa_policy *pol,
			 const struct siw_mpa_frame *req,
			 const struct siw_mpa_result *res,
			 const void *pdata, u16 pd_len, void *buf,
			 size_t size)
{
	struct mpa_v2_data v2 = {};
	u16 bits = SIW_MPA_FLAG_REJECT;
	u8 rev = req->revision;

	if (rev != MPA_REVISION_1 && rev != MPA_REVISION_2)
		rev = MPA_REVISION_2;
	bits |= FIELD_PREP(SIW_MPA_REVISION, rev);
	if ((req->bits & SIW_MPA_FLAG_CRC) &&
	    !(pol->crc_strict && !pol->crc_required))
		bits |= SIW_MPA_FLAG_CRC;
	if (!req->enhanced)
		return siw_mpa_put(buf, size, MPA_KEY_REP, bits, NULL, pdata,
				   pd_len);
	bits |= SIW_MPA_FLAG_ENHANCED;
	if (res) {
		v2.ird = cpu_to_be16(res->ird & SIW_MPA_V2_IRD_ORD);
		v2.ord = cpu_to_be16(res->ord & SIW_MPA_V2_IRD_ORD);
	}
	return siw_mpa_put(buf, size, MPA_KEY_REP, bits, &v2, pdata, pd_len);
}
