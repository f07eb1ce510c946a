// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw: collecting an MPA request or reply from a byte stream.
 *
 * TCP hands the frame over in pieces of any size.  struct siw_mpa_rx
 * keeps what came so far; siw_mpa_rx_feed() takes the next piece, refuses
 * a bad header as soon as its 20 bytes are in (before waiting for private
 * data that may never come) and reports the frame once its private data
 * are complete.  It never takes bytes behind the frame: behind a reply
 * they are the responder's first FPDUs, behind a request they break the
 * rule that the initiator waits for the reply, and are refused.
 */

#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include "siw_mpa.h"

/**
 * siw_mpa_rx_init() - start collecting a frame
 * @rx: the collector
 * @want_reply: a reply is expected (initiator), else a request
 *
 * Context: Any context.
 */
void siw_mpa_rx_init(struct siw_mpa_rx *rx, bool want_reply)
{
	rx->have = 0;
	rx->want_reply = want_reply;
}

/**
 * siw_mpa_rx_feed() - take the next bytes of the stream
 * @rx: the collector
 * @data: bytes received
 * @len: how many
 * @used: set to how many of @data were taken
 * @frame: filled when the frame is complete; points into @rx
 * @why: set to the reason of a refusal (SIW_MPA_OK otherwise); may be
 *	NULL
 *
 * Context: Any context; the caller serialises calls on one @rx.
 * Return: 0 when the frame is complete, -EAGAIN when more bytes are
 * needed (all of @data was taken), or the error of siw_mpa_parse() for
 * a bad frame, -EPROTO with SIW_MPA_ERR_TRAILING for bytes behind a
 * request.  After an error @rx must not be fed again.
 */
int siw_mpa_rx_feed(struct siw_mpa_rx *rx, const void *data, size_t len,
		    size_t *used, struct siw_mpa_frame *frame,
		    enum siw_mpa_reason *why)
{
	const size_t hlen = sizeof(struct mpa_rr);
	size_t want, take;
	int rv;

	*used = 0;
	if (why)
		*why = SIW_MPA_OK;
	if (rx->have < hlen) {
		take = min(len, hlen - rx->have);
		memcpy(rx->buf + rx->have, data, take);
		rx->have += take;
		*used = take;
		if (rx->have < hlen)
			return -EAGAIN;
		/* Check the header now: a bad one needs no private data. */
		rv = siw_mpa_parse(rx->buf, hlen, rx->want_reply, frame, why);
		if (rv < 0 && rv != -EBADMSG)
			return rv;
		/* only the private data are missing */
		if (why)
			*why = SIW_MPA_OK;
	}
	want = hlen + get_unaligned_be16(rx->buf + MPA_KEY_SIZE + 2);
	take = min(len - *used, want - rx->have);
	memcpy(rx->buf + rx->have, (const u8 *)data + *used, take);
	rx->have += take;
	*used += take;
	if (rx->have < want)
		return -EAGAIN;

	rv = siw_mpa_parse(rx->buf, rx->have, rx->want_reply, frame, why);
	if (rv < 0)
		return rv;
	if (!rx->want_reply && *used < len) {
		if (why)
			*why = SIW_MPA_ERR_TRAILING;
		return -EPROTO;
	}
	return 0;
}
