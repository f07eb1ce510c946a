// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_siw_mpa": siw's MPA request/reply frames and their
 * negotiation (hw/sw/siw/siw_mpa.c).
 *
 * Expected frames are written out byte by byte from the layouts of
 * RFC 5044 section 7.1 and RFC 6581 section 9 (key, M|C|R|S|Res|Rev,
 * PD_Length, A|B|IRD, C|D|ORD), never produced by the code under test.
 * Every refusal is checked for its errno and its reason.
 */

#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/string.h>

/*
 * siw's protocol layer is pure functions over buffers: this suite builds
 * its own copy of it, so siw exports none of it.
 */
#include "../siw_mpa.c"

/* "MPA ID Req Frame" and "MPA ID Rep Frame", to start a frame's bytes */
#define KEY_REQ \
	[0] = 0x4d, 0x50, 0x41, 0x20, 0x49, 0x44, 0x20, 0x52, \
	0x65, 0x71, 0x20, 0x46, 0x72, 0x61, 0x6d, 0x65
#define KEY_REP \
	[0] = 0x4d, 0x50, 0x41, 0x20, 0x49, 0x44, 0x20, 0x52, \
	0x65, 0x70, 0x20, 0x46, 0x72, 0x61, 0x6d, 0x65

/* Upstream siw's defaults: revision 2, no CRC, no P2P, 128 IRD/ORD. */
static const struct siw_mpa_policy upstream_pol = {
	.version = 2,
	.rtr_offer = SIW_RTR_WRITE | SIW_RTR_READ,
	.max_ird = 128,
	.max_ord = 128,
};

static void mpa_build_req_v2(struct kunit *test)
{
	static const u8 want[] = {
		KEY_REQ,
		0x10, 0x02, 0x00, 0x06,	/* S, rev 2; 4 + 2 bytes */
		0x00, 0x10, 0x00, 0x20,	/* IRD 16, ORD 32 */
		0x61, 0x62,
	};
	struct siw_mpa_result offer;
	u8 buf[64];

	KUNIT_ASSERT_EQ(test, siw_mpa_build_req(&upstream_pol, 16, 32, "ab", 2,
						buf, sizeof(buf), &offer),
			(int)sizeof(want));
	KUNIT_EXPECT_MEMEQ(test, buf, want, sizeof(want));
	KUNIT_EXPECT_TRUE(test, offer.enhanced);
	KUNIT_EXPECT_FALSE(test, offer.crc);
	KUNIT_EXPECT_FALSE(test, offer.p2p);
	KUNIT_EXPECT_EQ(test, offer.ird, 16);
	KUNIT_EXPECT_EQ(test, offer.ord, 32);
}

static void mpa_build_req_v2_crc_p2p(struct kunit *test)
{
	static const u8 want[] = {
		KEY_REQ,
		0x50, 0x02, 0x00, 0x04,	/* C, S, rev 2; 4 bytes */
		0x80, 0x08,		/* A (peer to peer), IRD 8 */
		0xc0, 0x01,		/* C (WRITE), D (READ), ORD 0 -> 1 */
	};
	struct siw_mpa_policy pol = upstream_pol;
	struct siw_mpa_result offer;
	u8 buf[64];

	pol.crc_required = true;
	pol.peer_to_peer = true;
	KUNIT_ASSERT_EQ(test, siw_mpa_build_req(&pol, 8, 0, NULL, 0, buf,
						sizeof(buf), &offer),
			(int)sizeof(want));
	KUNIT_EXPECT_MEMEQ(test, buf, want, sizeof(want));
	KUNIT_EXPECT_TRUE(test, offer.crc);
	KUNIT_EXPECT_TRUE(test, offer.p2p);
	KUNIT_EXPECT_EQ(test, offer.rtr, SIW_RTR_WRITE | SIW_RTR_READ);
	KUNIT_EXPECT_EQ(test, offer.ord, 1);
}

static void mpa_build_req_v1(struct kunit *test)
{
	static const u8 want[] = {
		KEY_REQ,
		0x40, 0x01, 0x00, 0x03,	/* C, rev 1; 3 bytes */
		0x78, 0x79, 0x7a,
	};
	struct siw_mpa_policy pol = upstream_pol;
	struct siw_mpa_result offer;
	u8 buf[64];

	pol.version = 1;
	pol.crc_required = true;
	pol.peer_to_peer = true;	/* no setup data in revision 1 */
	KUNIT_ASSERT_EQ(test, siw_mpa_build_req(&pol, 4, 4, "xyz", 3, buf,
						sizeof(buf), &offer),
			(int)sizeof(want));
	KUNIT_EXPECT_MEMEQ(test, buf, want, sizeof(want));
	KUNIT_EXPECT_FALSE(test, offer.enhanced);
	KUNIT_EXPECT_FALSE(test, offer.p2p);
}

static void mpa_build_req_limits(struct kunit *test)
{
	struct siw_mpa_policy pol = upstream_pol;
	struct siw_mpa_result offer;
	u8 pd[MPA_MAX_PRIVDATA + 1] = {};
	u8 *buf = kunit_kzalloc(test, 600, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	/* revision 2: 4 bytes of setup data count against the 256 */
	KUNIT_EXPECT_EQ(test, siw_mpa_build_req(&pol, 1, 1, pd, 252, buf, 600,
						&offer), 20 + 256);
	KUNIT_EXPECT_EQ(test, buf[18], 0x01);
	KUNIT_EXPECT_EQ(test, buf[19], 0x00);
	KUNIT_EXPECT_EQ(test, siw_mpa_build_req(&pol, 1, 1, pd, 253, buf, 600,
						&offer), -EINVAL);
	KUNIT_EXPECT_EQ(test, siw_mpa_build_req(&pol, 1, 1, pd, 0, buf, 23,
						&offer), -ENOSPC);
	KUNIT_EXPECT_EQ(test, siw_mpa_build_req(&pol, 129, 1, NULL, 0, buf,
						600, &offer), -EINVAL);
	KUNIT_EXPECT_EQ(test, siw_mpa_build_req(&pol, 1, 129, NULL, 0, buf,
						600, &offer), -EINVAL);
	pol.version = 1;
	KUNIT_EXPECT_EQ(test, siw_mpa_build_req(&pol, 1, 1, pd, 256, buf, 600,
						&offer), 20 + 256);
	KUNIT_EXPECT_EQ(test, siw_mpa_build_req(&pol, 1, 1, pd, 257, buf, 600,
						&offer), -EINVAL);
	pol.version = 0;
	KUNIT_EXPECT_EQ(test, siw_mpa_build_req(&pol, 1, 1, NULL, 0, buf, 600,
						&offer), -EINVAL);
	/* above 2 is taken as 2, as upstream does */
	pol.version = 3;
	KUNIT_EXPECT_EQ(test, siw_mpa_build_req(&pol, 1, 1, NULL, 0, buf, 600,
						&offer), 24);
	KUNIT_EXPECT_EQ(test, buf[16], 0x10);
	KUNIT_EXPECT_EQ(test, buf[17], 0x02);
}

static void mpa_parse_req_v2(struct kunit *test)
{
	static const u8 req[] = {
		KEY_REQ,
		0x50, 0x02, 0x00, 0x07,
		0x80, 0x05, 0xc0, 0x03,
		0x01, 0x02, 0x03,
	};
	struct siw_mpa_frame f;
	enum siw_mpa_reason why = SIW_MPA_NR_REASONS;

	KUNIT_ASSERT_EQ(test, siw_mpa_parse(req, sizeof(req), false, &f, &why),
			(int)sizeof(req));
	KUNIT_EXPECT_EQ(test, why, SIW_MPA_OK);
	KUNIT_EXPECT_FALSE(test, f.reply);
	KUNIT_EXPECT_EQ(test, f.revision, 2);
	KUNIT_EXPECT_EQ(test, f.bits, 0x5002);
	KUNIT_EXPECT_EQ(test, f.pd_len, 7);
	KUNIT_EXPECT_TRUE(test, f.enhanced);
	KUNIT_EXPECT_EQ(test, f.ird, 5);
	KUNIT_EXPECT_EQ(test, f.ord, 3);
	KUNIT_EXPECT_EQ(test, f.ird_flags, SIW_MPA_V2_PEER_TO_PEER);
	KUNIT_EXPECT_EQ(test, f.ord_flags,
			SIW_MPA_V2_WRITE_RTR | SIW_MPA_V2_READ_RTR);
	KUNIT_EXPECT_PTR_EQ(test, f.pdata, &req[24]);
	KUNIT_EXPECT_EQ(test, f.pdata_len, 3);
}

/* S in revision 1 is a reserved bit: the four bytes stay private data */
static void mpa_parse_req_v1(struct kunit *test)
{
	static const u8 req[] = {
		KEY_REQ,
		0x10, 0x01, 0x00, 0x04,
		0x80, 0x05, 0xc0, 0x03,
	};
	struct siw_mpa_frame f;

	KUNIT_ASSERT_EQ(test, siw_mpa_parse(req, sizeof(req), false, &f, NULL),
			(int)sizeof(req));
	KUNIT_EXPECT_EQ(test, f.revision, 1);
	KUNIT_EXPECT_FALSE(test, f.enhanced);
	KUNIT_EXPECT_PTR_EQ(test, f.pdata, &req[20]);
	KUNIT_EXPECT_EQ(test, f.pdata_len, 4);
}

/* A v1 request with @pd_len bytes of private data 0, 1, 2, ... */
static u8 *req_with_pd(struct kunit *test, u16 pd_len)
{
	static const u8 hdr[] = { KEY_REQ, 0x00, 0x01 };
	u8 *buf = kunit_kzalloc(test, 20 + pd_len, GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memcpy(buf, hdr, sizeof(hdr));
	buf[18] = pd_len >> 8;
	buf[19] = pd_len & 0xff;
	for (i = 0; i < pd_len; i++)
		buf[20 + i] = i;
	return buf;
}

static void mpa_parse_pd_lengths(struct kunit *test)
{
	static const u16 ok[] = { 0, 1, 256, 512 };
	enum siw_mpa_reason why;
	struct siw_mpa_frame f;
	unsigned int i;
	u8 *buf;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		buf = req_with_pd(test, ok[i]);
		KUNIT_EXPECT_EQ(test, siw_mpa_parse(buf, 20 + ok[i], false, &f,
						    &why), 20 + ok[i]);
		KUNIT_EXPECT_EQ(test, why, SIW_MPA_OK);
		KUNIT_EXPECT_EQ(test, f.pdata_len, ok[i]);
		if (ok[i])
			KUNIT_EXPECT_EQ(test, f.pdata[ok[i] - 1],
					(u8)(ok[i] - 1));
	}
	buf = req_with_pd(test, 513);
	KUNIT_EXPECT_EQ(test, siw_mpa_parse(buf, 20 + 513, false, &f, &why),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, why, SIW_MPA_ERR_PD_TOO_LONG);
}

struct bad_frame {
	const char *name;
	u8 bytes[28];
	unsigned int len;
	bool reply;
	int err;
	enum siw_mpa_reason why;
};

static const struct bad_frame bad_frames[] = {
	{ "short", { KEY_REQ, 0x10, 0x02, 0x00 }, 19, false,
	  -EBADMSG, SIW_MPA_ERR_SHORT },
	{ "reply key in a request", { KEY_REP, 0x00, 0x01, 0x00, 0x00 }, 20,
	  false, -EPROTO, SIW_MPA_ERR_KEY },
	{ "request key in a reply", { KEY_REQ, 0x00, 0x01, 0x00, 0x00 }, 20,
	  true, -EPROTO, SIW_MPA_ERR_KEY },
	{ "last key byte", { 0x4d, 0x50, 0x41, 0x20, 0x49, 0x44, 0x20, 0x52,
			     0x65, 0x71, 0x20, 0x46, 0x72, 0x61, 0x6d, 0x66,
			     0x00, 0x01, 0x00, 0x00 }, 20, false,
	  -EPROTO, SIW_MPA_ERR_KEY },
	{ "revision 0", { KEY_REQ, 0x00, 0x00, 0x00, 0x00 }, 20, false,
	  -EPROTO, SIW_MPA_ERR_REVISION },
	{ "revision 3", { KEY_REQ, 0x10, 0x03, 0x00, 0x04 }, 24, false,
	  -EPROTO, SIW_MPA_ERR_REVISION },
	{ "revision 255 reply", { KEY_REP, 0x00, 0xff, 0x00, 0x00 }, 20, true,
	  -EPROTO, SIW_MPA_ERR_REVISION },
	{ "PD_Length 513", { KEY_REQ, 0x00, 0x01, 0x02, 0x01 }, 20, false,
	  -EPROTO, SIW_MPA_ERR_PD_TOO_LONG },
	{ "PD_Length 65535", { KEY_REP, 0x00, 0x01, 0xff, 0xff }, 20, true,
	  -EPROTO, SIW_MPA_ERR_PD_TOO_LONG },
	{ "private data cut", { KEY_REQ, 0x00, 0x01, 0x00, 0x04, 1, 2, 3 }, 23,
	  false, -EBADMSG, SIW_MPA_ERR_PD_TRUNCATED },
	{ "setup data cut", { KEY_REQ, 0x10, 0x02, 0x00, 0x08, 0, 1, 0, 1 },
	  24, false, -EBADMSG, SIW_MPA_ERR_PD_TRUNCATED },
	{ "reject in a request", { KEY_REQ, 0x20, 0x01, 0x00, 0x00 }, 20,
	  false, -EPROTO, SIW_MPA_ERR_REJECT_IN_REQ },
	{ "S without setup data", { KEY_REQ, 0x10, 0x02, 0x00, 0x00 }, 20,
	  false, -EPROTO, SIW_MPA_ERR_V2_SHORT },
	{ "S with 2 bytes", { KEY_REP, 0x10, 0x02, 0x00, 0x02, 0, 1 }, 22,
	  true, -EPROTO, SIW_MPA_ERR_V2_SHORT },
};

static void mpa_parse_malformed(struct kunit *test)
{
	enum siw_mpa_reason why;
	struct siw_mpa_frame f;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad_frames); i++) {
		const struct bad_frame *b = &bad_frames[i];

		why = SIW_MPA_OK;
		KUNIT_EXPECT_EQ_MSG(test, siw_mpa_parse(b->bytes, b->len,
							b->reply, &f, &why),
				    b->err, "%s", b->name);
		KUNIT_EXPECT_EQ_MSG(test, why, b->why, "%s: %s", b->name,
				    siw_mpa_reason_name(why));
	}
}

static void parse_ok(struct kunit *test, const u8 *buf, size_t len,
		     bool reply, struct siw_mpa_frame *f)
{
	KUNIT_ASSERT_EQ(test, siw_mpa_parse(buf, len, reply, f, NULL),
			(int)len);
}

static void mpa_check_req_markers_crc(struct kunit *test)
{
	static const u8 markers[] = { KEY_REQ, 0x80, 0x01, 0x00, 0x00 };
	static const u8 crc[] = { KEY_REQ, 0x40, 0x01, 0x00, 0x00 };
	static const u8 plain[] = { KEY_REQ, 0x00, 0x01, 0x00, 0x00 };
	struct siw_mpa_policy pol = upstream_pol;
	struct siw_mpa_result res;
	enum siw_mpa_reason why;
	struct siw_mpa_frame f;

	parse_ok(test, markers, sizeof(markers), false, &f);
	KUNIT_EXPECT_EQ(test, siw_mpa_check_req(&pol, &f, &res, &why),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, why, SIW_MPA_ERR_MARKERS);

	/* CRC is used when either side asks */
	parse_ok(test, crc, sizeof(crc), false, &f);
	KUNIT_EXPECT_EQ(test, siw_mpa_check_req(&pol, &f, &res, &why), 0);
	KUNIT_EXPECT_TRUE(test, res.crc);
	parse_ok(test, plain, sizeof(plain), false, &f);
	KUNIT_EXPECT_EQ(test, siw_mpa_check_req(&pol, &f, &res, &why), 0);
	KUNIT_EXPECT_FALSE(test, res.crc);
	pol.crc_required = true;
	KUNIT_EXPECT_EQ(test, siw_mpa_check_req(&pol, &f, &res, &why), 0);
	KUNIT_EXPECT_TRUE(test, res.crc);
	/* strict and required: CRC on, whatever the peer says */
	pol.crc_strict = true;
	KUNIT_EXPECT_EQ(test, siw_mpa_check_req(&pol, &f, &res, &why), 0);
	KUNIT_EXPECT_TRUE(test, res.crc);
	/* strict without required: CRC off enforced */
	pol.crc_required = false;
	KUNIT_EXPECT_EQ(test, siw_mpa_check_req(&pol, &f, &res, &why), 0);
	KUNIT_EXPECT_FALSE(test, res.crc);
	parse_ok(test, crc, sizeof(crc), false, &f);
	KUNIT_EXPECT_EQ(test, siw_mpa_check_req(&pol, &f, &res, &why),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, why, SIW_MPA_ERR_CRC);
}

/* Initiator IRD 200, ORD 5, peer-to-peer with @ord_flags */
static void check_p2p_req(struct kunit *test, u8 ord_hi, u8 want_rtr)
{
	const u8 req[] = { KEY_REQ, 0x10, 0x02, 0x00, 0x04,
			   0x80, 0xc8, ord_hi, 0x05 };
	struct siw_mpa_result res;
	struct siw_mpa_frame f;

	parse_ok(test, req, sizeof(req), false, &f);
	KUNIT_ASSERT_EQ(test, siw_mpa_check_req(&upstream_pol, &f, &res, NULL),
			0);
	KUNIT_EXPECT_TRUE(test, res.enhanced);
	KUNIT_EXPECT_TRUE(test, res.p2p);
	KUNIT_EXPECT_EQ(test, res.rtr, want_rtr);
	KUNIT_EXPECT_EQ(test, res.ird, 5);	/* their ORD */
	KUNIT_EXPECT_EQ(test, res.ord, 128);	/* their IRD, capped */
}

static void mpa_check_req_rtr(struct kunit *test)
{
	check_p2p_req(test, 0xc0, SIW_RTR_WRITE);	/* WRITE and READ */
	check_p2p_req(test, 0x80, SIW_RTR_WRITE);
	check_p2p_req(test, 0x40, SIW_RTR_READ);
	check_p2p_req(test, 0x00, SIW_RTR_WRITE);	/* none: WRITE */
}

static void mpa_build_rep(struct kunit *test)
{
	static const u8 req[] = { KEY_REQ, 0x50, 0x02, 0x00, 0x04,
				  0x80, 0x08, 0xc0, 0x04 };
	static const u8 want[] = {
		KEY_REP,
		0x50, 0x02, 0x00, 0x06,	/* C, S, rev 2; 6 bytes */
		0x80, 0x04,		/* P2P, IRD 4 (raised from 2) */
		0x80, 0x08,		/* WRITE RTR, ORD 8 (lowered from 16) */
		0x4f, 0x4b,
	};
	struct siw_mpa_result res;
	struct siw_mpa_frame f;
	u8 buf[64];

	parse_ok(test, req, sizeof(req), false, &f);
	KUNIT_ASSERT_EQ(test, siw_mpa_check_req(&upstream_pol, &f, &res, NULL),
			0);
	KUNIT_EXPECT_EQ(test, siw_mpa_build_rep(&upstream_pol, &res, 2, 16,
						"OK", 2, buf, sizeof(buf)),
			(int)sizeof(want));
	KUNIT_EXPECT_MEMEQ(test, buf, want, sizeof(want));
	KUNIT_EXPECT_EQ(test, res.ird, 4);
	KUNIT_EXPECT_EQ(test, res.ord, 8);
}

static void mpa_build_rep_v1_limits(struct kunit *test)
{
	static const u8 req1[] = { KEY_REQ, 0x00, 0x01, 0x00, 0x00 };
	static const u8 req2[] = { KEY_REQ, 0x10, 0x02, 0x00, 0x04,
				   0x00, 0x01, 0x00, 0x01 };
	static const u8 want[] = { KEY_REP, 0x00, 0x01, 0x00, 0x00 };
	u8 pd[MPA_MAX_PRIVDATA] = {};
	struct siw_mpa_result res;
	struct siw_mpa_frame f;
	u8 buf[300];

	parse_ok(test, req1, sizeof(req1), false, &f);
	KUNIT_ASSERT_EQ(test, siw_mpa_check_req(&upstream_pol, &f, &res, NULL),
			0);
	KUNIT_EXPECT_EQ(test, siw_mpa_build_rep(&upstream_pol, &res, 7, 9,
						NULL, 0, buf, sizeof(buf)),
			(int)sizeof(want));
	KUNIT_EXPECT_MEMEQ(test, buf, want, sizeof(want));
	KUNIT_EXPECT_EQ(test, res.ird, 7);
	KUNIT_EXPECT_EQ(test, res.ord, 9);
	KUNIT_EXPECT_EQ(test, siw_mpa_build_rep(&upstream_pol, &res, 1, 1,
						pd, 256, buf, sizeof(buf)),
			20 + 256);
	KUNIT_EXPECT_EQ(test, siw_mpa_build_rep(&upstream_pol, &res, 129, 1,
						NULL, 0, buf, sizeof(buf)),
			-EINVAL);

	parse_ok(test, req2, sizeof(req2), false, &f);
	KUNIT_ASSERT_EQ(test, siw_mpa_check_req(&upstream_pol, &f, &res, NULL),
			0);
	KUNIT_EXPECT_EQ(test, siw_mpa_build_rep(&upstream_pol, &res, 1, 1,
						pd, 253, buf, sizeof(buf)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, siw_mpa_build_rep(&upstream_pol, &res, 1, 1,
						pd, 252, buf, sizeof(buf)),
			20 + 256);
}

static void mpa_build_reject(struct kunit *test)
{
	/* M, C, S, revision 2: IRD 2, ORD 3 */
	static const u8 req[] = { KEY_REQ, 0xd0, 0x02, 0x00, 0x04,
				  0x00, 0x02, 0x00, 0x03 };
	static const u8 want_strict[] = {
		KEY_REP,
		0x30, 0x02, 0x00, 0x04,	/* R, S, rev 2: no M, no C */
		0x00, 0x00, 0x00, 0x00,
	};
	static const u8 want[] = {
		KEY_REP,
		0x70, 0x02, 0x00, 0x05,	/* R, C, S, rev 2 */
		0x00, 0x03, 0x00, 0x02,
		0x21,
	};
	struct siw_mpa_policy pol = upstream_pol;
	struct siw_mpa_result res = {};
	struct siw_mpa_frame f;
	u8 buf[64];

	parse_ok(test, req, sizeof(req), false, &f);
	pol.crc_strict = true;
	KUNIT_EXPECT_EQ(test, siw_mpa_build_reject(&pol, &f, NULL, NULL, 0,
						   buf, sizeof(buf)),
			(int)sizeof(want_strict));
	KUNIT_EXPECT_MEMEQ(test, buf, want_strict, sizeof(want_strict));

	res.ird = 3;
	res.ord = 2;
	KUNIT_EXPECT_EQ(test, siw_mpa_build_reject(&upstream_pol, &f, &res,
						   "!", 1, buf, sizeof(buf)),
			(int)sizeof(want));
	KUNIT_EXPECT_MEMEQ(test, buf, want, sizeof(want));
}

/* What we offered in the reply cases: revision 2, IRD 16, ORD 32 */
static const struct siw_mpa_result offer_v2 = {
	.revision = 2, .enhanced = true, .ird = 16, .ord = 32,
};

static int check_reply(struct kunit *test, const struct siw_mpa_policy *pol,
		       const struct siw_mpa_result *offer, const u8 *rep,
		       size_t len, struct siw_mpa_result *res,
		       enum siw_mpa_reason *why)
{
	struct siw_mpa_frame f;

	parse_ok(test, rep, len, true, &f);
	return siw_mpa_check_reply(pol, offer, &f, res, why);
}

static void mpa_check_reply_ok(struct kunit *test)
{
	/* upstream's answer: IRD 32 (our ORD), ORD 16 (our IRD) */
	static const u8 rep[] = { KEY_REP, 0x10, 0x02, 0x00, 0x04,
				  0x00, 0x20, 0x00, 0x10 };
	static const u8 rep_crc[] = { KEY_REP, 0x50, 0x02, 0x00, 0x04,
				      0x00, 0x08, 0x00, 0x04 };
	static const u8 rep_v1[] = { KEY_REP, 0x00, 0x01, 0x00, 0x00 };
	static const struct siw_mpa_result offer_v1 = {
		.revision = 1, .ird = 3, .ord = 4,
	};
	struct siw_mpa_result res;
	enum siw_mpa_reason why;

	KUNIT_EXPECT_EQ(test, check_reply(test, &upstream_pol, &offer_v2, rep,
					  sizeof(rep), &res, &why), 0);
	KUNIT_EXPECT_EQ(test, why, SIW_MPA_OK);
	KUNIT_EXPECT_FALSE(test, res.crc);
	KUNIT_EXPECT_EQ(test, res.ird, 16);
	KUNIT_EXPECT_EQ(test, res.ord, 32);
	KUNIT_EXPECT_EQ(test, res.rtr, 0);

	/* the responder asks for CRC: used */
	KUNIT_EXPECT_EQ(test, check_reply(test, &upstream_pol, &offer_v2,
					  rep_crc, sizeof(rep_crc), &res,
					  &why), 0);
	KUNIT_EXPECT_TRUE(test, res.crc);
	KUNIT_EXPECT_EQ(test, res.ird, 4);
	KUNIT_EXPECT_EQ(test, res.ord, 8);

	KUNIT_EXPECT_EQ(test, check_reply(test, &upstream_pol, &offer_v1,
					  rep_v1, sizeof(rep_v1), &res, &why),
			0);
	KUNIT_EXPECT_FALSE(test, res.enhanced);
	KUNIT_EXPECT_EQ(test, res.ird, 3);
	KUNIT_EXPECT_EQ(test, res.ord, 4);
}

static void mpa_check_reply_refused(struct kunit *test)
{
	static const u8 rejected[] = { KEY_REP, 0x30, 0x02, 0x00, 0x06,
				       0x00, 0x00, 0x00, 0x00, 0x6e, 0x6f };
	static const u8 markers[] = { KEY_REP, 0x90, 0x02, 0x00, 0x04,
				      0x00, 0x01, 0x00, 0x01 };
	static const u8 plain[] = { KEY_REP, 0x10, 0x02, 0x00, 0x04,
				    0x00, 0x01, 0x00, 0x01 };
	static const u8 crc[] = { KEY_REP, 0x50, 0x02, 0x00, 0x04,
				  0x00, 0x01, 0x00, 0x01 };
	static const u8 v1[] = { KEY_REP, 0x00, 0x01, 0x00, 0x00 };
	static const u8 v2_no_s[] = { KEY_REP, 0x00, 0x02, 0x00, 0x00 };
	static const struct siw_mpa_result offer_v1 = { .revision = 1 };
	struct siw_mpa_policy pol = upstream_pol;
	struct siw_mpa_result res;
	enum siw_mpa_reason why;
	struct siw_mpa_frame f;

	parse_ok(test, rejected, sizeof(rejected), true, &f);
	KUNIT_EXPECT_EQ(test, siw_mpa_check_reply(&pol, &offer_v2, &f, &res,
						  &why), -ECONNRESET);
	KUNIT_EXPECT_EQ(test, why, SIW_MPA_ERR_REJECTED);
	/* the consumer still gets the rejecter's private data */
	KUNIT_EXPECT_EQ(test, f.pdata_len, 2);
	KUNIT_EXPECT_MEMEQ(test, f.pdata, "no", 2);

	KUNIT_EXPECT_EQ(test, check_reply(test, &pol, &offer_v2, markers,
					  sizeof(markers), &res, &why),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, why, SIW_MPA_ERR_MARKERS);

	pol.crc_required = true;
	KUNIT_EXPECT_EQ(test, check_reply(test, &pol, &offer_v2, plain,
					  sizeof(plain), &res, &why),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, why, SIW_MPA_ERR_CRC);
	pol.crc_required = false;
	pol.crc_strict = true;
	KUNIT_EXPECT_EQ(test, check_reply(test, &pol, &offer_v2, crc,
					  sizeof(crc), &res, &why),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, why, SIW_MPA_ERR_CRC);
	pol.crc_strict = false;

	KUNIT_EXPECT_EQ(test, check_reply(test, &pol, &offer_v2, v1,
					  sizeof(v1), &res, &why), -EPROTO);
	KUNIT_EXPECT_EQ(test, why, SIW_MPA_ERR_DOWNGRADE);
	KUNIT_EXPECT_EQ(test, check_reply(test, &pol, &offer_v2, v2_no_s,
					  sizeof(v2_no_s), &res, &why),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, why, SIW_MPA_ERR_DOWNGRADE);
	KUNIT_EXPECT_EQ(test, check_reply(test, &pol, &offer_v1, plain,
					  sizeof(plain), &res, &why),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, why, SIW_MPA_ERR_UPGRADE);
}

static void mpa_check_reply_ird(struct kunit *test)
{
	static const u8 ord200[] = { KEY_REP, 0x10, 0x02, 0x00, 0x04,
				     0x00, 0x01, 0x00, 0xc8 };
	static const u8 ord100[] = { KEY_REP, 0x10, 0x02, 0x00, 0x04,
				     0x00, 0x01, 0x00, 0x64 };
	struct siw_mpa_result res;
	enum siw_mpa_reason why;

	/* responder ORD above the device's IRD limit */
	KUNIT_EXPECT_EQ(test, check_reply(test, &upstream_pol, &offer_v2,
					  ord200, sizeof(ord200), &res, &why),
			-ENOMEM);
	KUNIT_EXPECT_EQ(test, why, SIW_MPA_ERR_IRD);
	/* above our IRD but within the limit: relaxed, IRD raised */
	KUNIT_EXPECT_EQ(test, check_reply(test, &upstream_pol, &offer_v2,
					  ord100, sizeof(ord100), &res, &why),
			0);
	KUNIT_EXPECT_EQ(test, res.ird, 100);
	KUNIT_EXPECT_EQ(test, res.ord, 1);
}

static void mpa_check_reply_rtr(struct kunit *test)
{
	static const u8 both[] = { KEY_REP, 0x10, 0x02, 0x00, 0x04,
				   0x80, 0x01, 0xc0, 0x01 };
	static const u8 read[] = { KEY_REP, 0x10, 0x02, 0x00, 0x04,
				   0x80, 0x01, 0x40, 0x01 };
	static const u8 read_ird0[] = { KEY_REP, 0x10, 0x02, 0x00, 0x04,
					0x80, 0x00, 0x40, 0x01 };
	static const u8 write[] = { KEY_REP, 0x10, 0x02, 0x00, 0x04,
				    0x80, 0x01, 0x80, 0x01 };
	static const u8 none[] = { KEY_REP, 0x10, 0x02, 0x00, 0x04,
				   0xc0, 0x01, 0x00, 0x01 };
	struct siw_mpa_result offer = offer_v2, res;
	enum siw_mpa_reason why;

	offer.p2p = true;
	offer.rtr = SIW_RTR_WRITE | SIW_RTR_READ;
	KUNIT_EXPECT_EQ(test, check_reply(test, &upstream_pol, &offer, both,
					  sizeof(both), &res, &why), 0);
	KUNIT_EXPECT_TRUE(test, res.p2p);
	KUNIT_EXPECT_EQ(test, res.rtr, SIW_RTR_WRITE);
	KUNIT_EXPECT_EQ(test, check_reply(test, &upstream_pol, &offer, read,
					  sizeof(read), &res, &why), 0);
	KUNIT_EXPECT_EQ(test, res.rtr, SIW_RTR_READ);
	/* a SEND RTR (B) is nothing siw can send */
	KUNIT_EXPECT_EQ(test, check_reply(test, &upstream_pol, &offer, none,
					  sizeof(none), &res, &why), -EPROTO);
	KUNIT_EXPECT_EQ(test, why, SIW_MPA_ERR_RTR);
	/* a READ RTR towards a responder without IRD */
	KUNIT_EXPECT_EQ(test, check_reply(test, &upstream_pol, &offer,
					  read_ird0, sizeof(read_ird0), &res,
					  &why), -EPROTO);
	KUNIT_EXPECT_EQ(test, why, SIW_MPA_ERR_RTR);
	offer.rtr = SIW_RTR_READ;
	KUNIT_EXPECT_EQ(test, check_reply(test, &upstream_pol, &offer, write,
					  sizeof(write), &res, &why), -EPROTO);
	KUNIT_EXPECT_EQ(test, why, SIW_MPA_ERR_RTR);
}

/* Our initiator against our responder: both ends agree. */
static void mpa_round_trip(struct kunit *test)
{
	struct siw_mpa_policy ini = upstream_pol, rsp = upstream_pol;
	struct siw_mpa_result offer, proposal, acc, got;
	struct siw_mpa_frame req, rep;
	u8 *rbuf = kunit_kzalloc(test, SIW_MPA_MAX_TX_FRAME, GFP_KERNEL);
	u8 *pbuf = kunit_kzalloc(test, SIW_MPA_MAX_TX_FRAME, GFP_KERNEL);
	int rlen, plen;

	KUNIT_ASSERT_NOT_NULL(test, rbuf);
	KUNIT_ASSERT_NOT_NULL(test, pbuf);
	ini.peer_to_peer = true;
	ini.rtr_offer = SIW_RTR_READ;
	rsp.crc_required = true;
	rlen = siw_mpa_build_req(&ini, 6, 3, "hello", 5, rbuf,
				 SIW_MPA_MAX_TX_FRAME, &offer);
	KUNIT_ASSERT_GT(test, rlen, 0);
	KUNIT_ASSERT_EQ(test, siw_mpa_parse(rbuf, rlen, false, &req, NULL),
			rlen);
	KUNIT_EXPECT_EQ(test, req.pdata_len, 5);
	KUNIT_EXPECT_MEMEQ(test, req.pdata, "hello", 5);
	KUNIT_ASSERT_EQ(test, siw_mpa_check_req(&rsp, &req, &proposal, NULL),
			0);
	acc = proposal;
	plen = siw_mpa_build_rep(&rsp, &acc, 1, 10, "hi", 2, pbuf,
				 SIW_MPA_MAX_TX_FRAME);
	KUNIT_ASSERT_GT(test, plen, 0);
	KUNIT_ASSERT_EQ(test, siw_mpa_parse(pbuf, plen, true, &rep, NULL),
			plen);
	KUNIT_EXPECT_MEMEQ(test, rep.pdata, "hi", 2);
	KUNIT_ASSERT_EQ(test, siw_mpa_check_reply(&ini, &offer, &rep, &got,
						  NULL), 0);
	KUNIT_EXPECT_TRUE(test, got.crc);
	KUNIT_EXPECT_TRUE(test, acc.crc);
	KUNIT_EXPECT_EQ(test, got.rtr, SIW_RTR_READ);
	KUNIT_EXPECT_EQ(test, acc.rtr, SIW_RTR_READ);
	/* each side's ORD is the other's IRD */
	KUNIT_EXPECT_EQ(test, got.ord, acc.ird);
	KUNIT_EXPECT_EQ(test, got.ird, acc.ord);
	KUNIT_EXPECT_EQ(test, acc.ird, 3);
	KUNIT_EXPECT_EQ(test, acc.ord, 6);
}

/*
 * Upstream's GSO bit (0x0800 of the flag word): sent in a request and a
 * reply only with the policy's gso; FPDUs over one MSS only where both
 * ends set it.
 */
static void mpa_gso_negotiation(struct kunit *test)
{
	static const u8 req_gso[] = {
		KEY_REQ,
		0x18, 0x02, 0x00, 0x04,	/* S, GSO, rev 2; 4 bytes */
		0x00, 0x01, 0x00, 0x01,	/* IRD 1, ORD 1 */
	};
	static const u8 rep_plain[] = {
		KEY_REP,
		0x10, 0x02, 0x00, 0x04,	/* S, rev 2 */
		0x00, 0x01, 0x00, 0x01,
	};
	static const u8 rep_gso[] = {
		KEY_REP,
		0x18, 0x02, 0x00, 0x04,	/* S, GSO, rev 2 */
		0x00, 0x01, 0x00, 0x01,
	};
	struct siw_mpa_policy on = upstream_pol;
	struct siw_mpa_result offer, res;
	struct siw_mpa_frame f;
	u8 buf[64];
	int len;

	on.gso = true;
	/* our request: the bit only with gso */
	len = siw_mpa_build_req(&on, 1, 1, NULL, 0, buf, sizeof(buf), &offer);
	KUNIT_ASSERT_EQ(test, len, (int)sizeof(req_gso));
	KUNIT_EXPECT_MEMEQ(test, buf, req_gso, sizeof(req_gso));
	KUNIT_EXPECT_TRUE(test, offer.gso);
	len = siw_mpa_build_req(&upstream_pol, 1, 1, NULL, 0, buf, sizeof(buf),
				&offer);
	KUNIT_ASSERT_GT(test, len, 17);
	KUNIT_EXPECT_EQ(test, buf[16], 0x10);
	KUNIT_EXPECT_FALSE(test, offer.gso);

	/* the initiator uses GSO only if the reply has the bit too */
	KUNIT_ASSERT_EQ(test, siw_mpa_build_req(&on, 1, 1, NULL, 0, buf,
						sizeof(buf), &offer),
			(int)sizeof(req_gso));
	parse_ok(test, rep_gso, sizeof(rep_gso), true, &f);
	KUNIT_ASSERT_EQ(test, siw_mpa_check_reply(&on, &offer, &f, &res, NULL),
			0);
	KUNIT_EXPECT_TRUE(test, res.gso);
	parse_ok(test, rep_plain, sizeof(rep_plain), true, &f);
	KUNIT_ASSERT_EQ(test, siw_mpa_check_reply(&on, &offer, &f, &res, NULL),
			0);
	KUNIT_EXPECT_FALSE(test, res.gso);
	/* a bit in the reply to a request without it changes nothing */
	KUNIT_ASSERT_GT(test, siw_mpa_build_req(&upstream_pol, 1, 1, NULL, 0,
						buf, sizeof(buf), &offer), 0);
	parse_ok(test, rep_gso, sizeof(rep_gso), true, &f);
	KUNIT_ASSERT_EQ(test, siw_mpa_check_reply(&upstream_pol, &offer, &f,
						  &res, NULL), 0);
	KUNIT_EXPECT_FALSE(test, res.gso);

	/* the responder: GSO where both set it; its reply has the bit
	 * whenever its policy has gso
	 */
	parse_ok(test, req_gso, sizeof(req_gso), false, &f);
	KUNIT_ASSERT_EQ(test, siw_mpa_check_req(&on, &f, &res, NULL), 0);
	KUNIT_EXPECT_TRUE(test, res.gso);
	KUNIT_ASSERT_EQ(test, siw_mpa_build_rep(&on, &res, 1, 1, NULL, 0, buf,
						sizeof(buf)),
			(int)sizeof(rep_gso));
	KUNIT_EXPECT_MEMEQ(test, buf, rep_gso, sizeof(rep_gso));
	KUNIT_ASSERT_EQ(test, siw_mpa_check_req(&upstream_pol, &f, &res, NULL),
			0);
	KUNIT_EXPECT_FALSE(test, res.gso);
	KUNIT_ASSERT_EQ(test, siw_mpa_build_rep(&upstream_pol, &res, 1, 1, NULL,
						0, buf, sizeof(buf)),
			(int)sizeof(rep_plain));
	KUNIT_EXPECT_MEMEQ(test, buf, rep_plain, sizeof(rep_plain));
	len = siw_mpa_build_req(&upstream_pol, 1, 1, NULL, 0, buf, sizeof(buf),
				&offer);
	parse_ok(test, buf, len, false, &f);
	KUNIT_ASSERT_EQ(test, siw_mpa_check_req(&on, &f, &res, NULL), 0);
	KUNIT_EXPECT_FALSE(test, res.gso);
	KUNIT_ASSERT_EQ(test, siw_mpa_build_rep(&on, &res, 1, 1, NULL, 0, buf,
						sizeof(buf)),
			(int)sizeof(rep_gso));
	KUNIT_EXPECT_MEMEQ(test, buf, rep_gso, sizeof(rep_gso));
}

static void mpa_reason_names(struct kunit *test)
{
	int i;

	for (i = 0; i < SIW_MPA_NR_REASONS; i++)
		KUNIT_EXPECT_STRNEQ(test, siw_mpa_reason_name(i), "?");
	KUNIT_EXPECT_STREQ(test, siw_mpa_reason_name(SIW_MPA_NR_REASONS), "?");
}

static struct kunit_case siw_mpa_cases[] = {
	KUNIT_CASE(mpa_build_req_v2),
	KUNIT_CASE(mpa_build_req_v2_crc_p2p),
	KUNIT_CASE(mpa_build_req_v1),
	KUNIT_CASE(mpa_build_req_limits),
	KUNIT_CASE(mpa_parse_req_v2),
	KUNIT_CASE(mpa_parse_req_v1),
	KUNIT_CASE(mpa_parse_pd_lengths),
	KUNIT_CASE(mpa_parse_malformed),
	KUNIT_CASE(mpa_check_req_markers_crc),
	KUNIT_CASE(mpa_check_req_rtr),
	KUNIT_CASE(mpa_build_rep),
	KUNIT_CASE(mpa_build_rep_v1_limits),
	KUNIT_CASE(mpa_build_reject),
	KUNIT_CASE(mpa_check_reply_ok),
	KUNIT_CASE(mpa_check_reply_refused),
	KUNIT_CASE(mpa_check_reply_ird),
	KUNIT_CASE(mpa_check_reply_rtr),
	KUNIT_CASE(mpa_round_trip),
	KUNIT_CASE(mpa_gso_negotiation),
	KUNIT_CASE(mpa_reason_names),
	{}
};

static struct kunit_suite siw_mpa_suite = {
	.name = "rdma_siw_mpa",
	.test_cases = siw_mpa_cases,
};

kunit_test_suite(siw_mpa_suite);

MODULE_DESCRIPTION("KUnit tests of siw's MPA connection setup frames");
MODULE_LICENSE("Dual BSD/GPL");
