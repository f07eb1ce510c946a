// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_siw_mpa_rx": collecting an MPA request or reply from
 * a byte stream (hw/sw/siw/siw_mpa_rx.c): frames arriving a byte at a
 * time and split at every point, bad headers refused before their
 * private data, bytes behind a reply left for the FPDU receiver, bytes
 * behind a request refused.  Frames are written out by hand from the
 * RFC 5044/6581 layouts.
 */

#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/string.h>

/*
 * siw's protocol layer is pure functions over buffers: this suite builds
 * its own copy of it, so siw exports none of it.
 */
#include "../siw_mpa.c"
#include "../siw_mpa_rx.c"

#define KEY_REQ \
	[0] = 0x4d, 0x50, 0x41, 0x20, 0x49, 0x44, 0x20, 0x52, \
	0x65, 0x71, 0x20, 0x46, 0x72, 0x61, 0x6d, 0x65
#define KEY_REP \
	[0] = 0x4d, 0x50, 0x41, 0x20, 0x49, 0x44, 0x20, 0x52, \
	0x65, 0x70, 0x20, 0x46, 0x72, 0x61, 0x6d, 0x65

/* revision 2 request: C, S; IRD 5 with P2P, ORD 3 with WRITE; "pdata" */
static const u8 req_v2[] = {
	KEY_REQ,
	0x50, 0x02, 0x00, 0x09,
	0x80, 0x05, 0x80, 0x03,
	0x70, 0x64, 0x61, 0x74, 0x61,
};

static void expect_req_v2(struct kunit *test, const struct siw_mpa_frame *f)
{
	KUNIT_EXPECT_FALSE(test, f->reply);
	KUNIT_EXPECT_EQ(test, f->revision, 2);
	KUNIT_EXPECT_TRUE(test, f->enhanced);
	KUNIT_EXPECT_EQ(test, f->bits, 0x5002);
	KUNIT_EXPECT_EQ(test, f->ird, 5);
	KUNIT_EXPECT_EQ(test, f->ord, 3);
	KUNIT_EXPECT_EQ(test, f->ird_flags, SIW_MPA_V2_PEER_TO_PEER);
	KUNIT_EXPECT_EQ(test, f->ord_flags, SIW_MPA_V2_WRITE_RTR);
	KUNIT_EXPECT_EQ(test, f->pdata_len, 5);
	KUNIT_EXPECT_MEMEQ(test, f->pdata, "pdata", 5);
}

static struct siw_mpa_rx *new_rx(struct kunit *test, bool want_reply)
{
	struct siw_mpa_rx *rx = kunit_kzalloc(test, sizeof(*rx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, rx);
	siw_mpa_rx_init(rx, want_reply);
	return rx;
}

static void mpa_rx_byte_at_a_time(struct kunit *test)
{
	struct siw_mpa_rx *rx = new_rx(test, false);
	enum siw_mpa_reason why;
	struct siw_mpa_frame f;
	size_t i, used;

	for (i = 0; i + 1 < sizeof(req_v2); i++) {
		KUNIT_ASSERT_EQ(test, siw_mpa_rx_feed(rx, &req_v2[i], 1, &used,
						      &f, &why), -EAGAIN);
		KUNIT_EXPECT_EQ(test, used, 1);
		KUNIT_EXPECT_EQ(test, why, SIW_MPA_OK);
	}
	KUNIT_ASSERT_EQ(test, siw_mpa_rx_feed(rx, &req_v2[i], 1, &used, &f,
					      &why), 0);
	KUNIT_EXPECT_EQ(test, used, 1);
	expect_req_v2(test, &f);
}

static void mpa_rx_every_split(struct kunit *test)
{
	struct siw_mpa_frame f;
	size_t k, used;

	for (k = 0; k < sizeof(req_v2); k++) {
		struct siw_mpa_rx *rx = new_rx(test, false);

		KUNIT_ASSERT_EQ(test, siw_mpa_rx_feed(rx, req_v2, k, &used, &f,
						      NULL), -EAGAIN);
		KUNIT_EXPECT_EQ(test, used, k);
		KUNIT_ASSERT_EQ_MSG(test,
				    siw_mpa_rx_feed(rx, req_v2 + k,
						    sizeof(req_v2) - k, &used,
						    &f, NULL),
				    0, "split at %zu", k);
		KUNIT_EXPECT_EQ(test, used, sizeof(req_v2) - k);
		expect_req_v2(test, &f);
	}
}

static void mpa_rx_no_private_data(struct kunit *test)
{
	static const u8 rep[] = { KEY_REP, 0x00, 0x01, 0x00, 0x00 };
	struct siw_mpa_rx *rx = new_rx(test, true);
	struct siw_mpa_frame f;
	size_t used;

	KUNIT_ASSERT_EQ(test, siw_mpa_rx_feed(rx, rep, 19, &used, &f, NULL),
			-EAGAIN);
	KUNIT_ASSERT_EQ(test, siw_mpa_rx_feed(rx, rep + 19, 1, &used, &f,
					      NULL), 0);
	KUNIT_EXPECT_TRUE(test, f.reply);
	KUNIT_EXPECT_EQ(test, f.revision, 1);
	KUNIT_EXPECT_EQ(test, f.pdata_len, 0);
}

static void mpa_rx_max_private_data(struct kunit *test)
{
	static const u8 hdr[] = { KEY_REQ, 0x00, 0x01, 0x02, 0x00 };
	struct siw_mpa_rx *rx = new_rx(test, false);
	u8 *buf = kunit_kzalloc(test, 20 + 512, GFP_KERNEL);
	struct siw_mpa_frame f;
	size_t i, used;
	int rv = -EAGAIN;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memcpy(buf, hdr, sizeof(hdr));
	for (i = 0; i < 512; i++)
		buf[20 + i] = i * 7;
	for (i = 0; i < 20 + 512; i++) {
		KUNIT_ASSERT_EQ(test, rv, -EAGAIN);
		rv = siw_mpa_rx_feed(rx, &buf[i], 1, &used, &f, NULL);
	}
	KUNIT_ASSERT_EQ(test, rv, 0);
	KUNIT_EXPECT_EQ(test, f.pdata_len, 512);
	KUNIT_EXPECT_MEMEQ(test, f.pdata, buf + 20, 512);
}

/* A reply and the responder's first FPDU in one segment. */
static void mpa_rx_reply_then_fpdu(struct kunit *test)
{
	static const u8 seg[] = {
		KEY_REP, 0x10, 0x02, 0x00, 0x04, 0x00, 0x01, 0x00, 0x01,
		0x00, 0x12, 0x41, 0x43,		/* an FPDU starts */
	};
	struct siw_mpa_rx *rx = new_rx(test, true);
	struct siw_mpa_frame f;
	size_t used;

	KUNIT_ASSERT_EQ(test, siw_mpa_rx_feed(rx, seg, 10, &used, &f, NULL),
			-EAGAIN);
	KUNIT_ASSERT_EQ(test, siw_mpa_rx_feed(rx, seg + 10, sizeof(seg) - 10,
					      &used, &f, NULL), 0);
	KUNIT_EXPECT_EQ(test, used, 24 - 10);
	KUNIT_EXPECT_TRUE(test, f.enhanced);
	KUNIT_EXPECT_EQ(test, f.ird, 1);
}

static void mpa_rx_request_trailing(struct kunit *test)
{
	static const u8 seg[] = { KEY_REQ, 0x00, 0x01, 0x00, 0x01, 0x2a, 0x00 };
	struct siw_mpa_rx *rx = new_rx(test, false);
	enum siw_mpa_reason why;
	struct siw_mpa_frame f;
	size_t used;

	KUNIT_EXPECT_EQ(test, siw_mpa_rx_feed(rx, seg, sizeof(seg), &used, &f,
					      &why), -EPROTO);
	KUNIT_EXPECT_EQ(test, why, SIW_MPA_ERR_TRAILING);
	KUNIT_EXPECT_EQ(test, used, 21);
}

/* Bad headers are refused at their 20th byte, private data unseen. */
static void expect_refused_at_header(struct kunit *test, const u8 *hdr,
				     bool reply, int err,
				     enum siw_mpa_reason want)
{
	struct siw_mpa_rx *rx = new_rx(test, reply);
	enum siw_mpa_reason why;
	struct siw_mpa_frame f;
	size_t i, used;

	for (i = 0; i < 19; i++)
		KUNIT_ASSERT_EQ(test, siw_mpa_rx_feed(rx, &hdr[i], 1, &used,
						      &f, &why), -EAGAIN);
	KUNIT_EXPECT_EQ(test, siw_mpa_rx_feed(rx, &hdr[19], 1, &used, &f,
					      &why), err);
	KUNIT_EXPECT_EQ_MSG(test, why, want, "%s", siw_mpa_reason_name(why));
}

static void mpa_rx_bad_headers(struct kunit *test)
{
	static const u8 too_long[] = { KEY_REQ, 0x00, 0x01, 0x02, 0x01 };
	static const u8 bad_key[] = { KEY_REP, 0x00, 0x01, 0x00, 0x10 };
	static const u8 bad_rev[] = { KEY_REP, 0x00, 0x07, 0x00, 0x10 };
	static const u8 reject[] = { KEY_REQ, 0x20, 0x01, 0x00, 0x00 };

	expect_refused_at_header(test, too_long, false, -EPROTO,
				 SIW_MPA_ERR_PD_TOO_LONG);
	expect_refused_at_header(test, bad_key, false, -EPROTO,
				 SIW_MPA_ERR_KEY);
	expect_refused_at_header(test, bad_rev, true, -EPROTO,
				 SIW_MPA_ERR_REVISION);
	expect_refused_at_header(test, reject, false, -EPROTO,
				 SIW_MPA_ERR_REJECT_IN_REQ);
}

/* S announced with 2 bytes of private data: refused once they are in. */
static void mpa_rx_setup_data_short(struct kunit *test)
{
	static const u8 rep[] = { KEY_REP, 0x10, 0x02, 0x00, 0x02, 0x00, 0x01 };
	struct siw_mpa_rx *rx = new_rx(test, true);
	enum siw_mpa_reason why;
	struct siw_mpa_frame f;
	size_t used;

	KUNIT_EXPECT_EQ(test, siw_mpa_rx_feed(rx, rep, 21, &used, &f, &why),
			-EAGAIN);
	KUNIT_EXPECT_EQ(test, siw_mpa_rx_feed(rx, rep + 21, 1, &used, &f,
					      &why), -EPROTO);
	KUNIT_EXPECT_EQ(test, why, SIW_MPA_ERR_V2_SHORT);
}

static struct kunit_case siw_mpa_rx_cases[] = {
	KUNIT_CASE(mpa_rx_byte_at_a_time),
	KUNIT_CASE(mpa_rx_every_split),
	KUNIT_CASE(mpa_rx_no_private_data),
	KUNIT_CASE(mpa_rx_max_private_data),
	KUNIT_CASE(mpa_rx_reply_then_fpdu),
	KUNIT_CASE(mpa_rx_request_trailing),
	KUNIT_CASE(mpa_rx_bad_headers),
	KUNIT_CASE(mpa_rx_setup_data_short),
	{}
};

static struct kunit_suite siw_mpa_rx_suite = {
	.name = "rdma_siw_mpa_rx",
	.test_cases = siw_mpa_rx_cases,
};

kunit_test_suite(siw_mpa_rx_suite);

MODULE_DESCRIPTION("KUnit tests of siw's MPA frame receiver");
MODULE_LICENSE("Dual BSD/GPL");
