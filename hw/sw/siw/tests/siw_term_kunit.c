// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_siw_term": TERMINATE messages (hw/sw/siw/siw_term.c)
 * and the RTR messages of a peer-to-peer setup (siw_fpdu_rtr()).
 *
 * Expected FPDUs are written out by hand from RFC 5040 section 4.8 and
 * RFC 5041; CRC32c values were computed outside the kernel with a
 * bitwise CRC32c checked against the RFC 3720 vectors.
 */

#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/string.h>

/*
 * siw's protocol layer is pure functions over buffers: this suite builds
 * its own copy of it, so siw exports none of it.
 */
#include "../siw_fpdu.c"
#include "../siw_term.c"

static void term_llp_no_header(struct kunit *test)
{
	static const u8 want[28] = {
		0x00, 0x16, 0x41, 0x47,	/* ULPDU 22; L, TERMINATE */
		0, 0, 0, 0, 0, 0, 0, 2,	/* QN 2 */
		0, 0, 0, 1, 0, 0, 0, 0,	/* MSN 1, MO 0 */
		0x20, 0x04, 0x00, 0x00,	/* LLP, MPA, invalid req/resp */
		0, 0, 0, 0,		/* no CRC */
	};
	u8 buf[SIW_TERM_MAX_FPDU];

	KUNIT_ASSERT_EQ(test, siw_term_build(buf, sizeof(buf),
					     TERM_ERROR_LAYER_LLP,
					     LLP_ETYPE_MPA,
					     LLP_ECODE_INVALID_REQ_RESP, NULL,
					     false), (int)sizeof(want));
	KUNIT_EXPECT_MEMEQ(test, buf, want, sizeof(want));
	KUNIT_EXPECT_EQ(test, siw_term_build(buf, 27, TERM_ERROR_LAYER_LLP,
					     LLP_ETYPE_MPA,
					     LLP_ECODE_INVALID_REQ_RESP, NULL,
					     false), -ENOSPC);
}

/* A SEND segment with 238 bytes of payload, MSN 5, MO 8 */
static const u8 bad_send[20] = {
	0x01, 0x00, 0x41, 0x43, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 8,
};

static void term_ddp_untagged(struct kunit *test)
{
	static const u8 want[48] = {
		0x00, 0x2a, 0x41, 0x47,	/* ULPDU 42 */
		0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0,
		0x12, 0x04, 0xc0, 0x00,	/* DDP, untagged, invalid MO; M, D */
		0x00, 0xee, 0x41, 0x43,	/* segment length 238 */
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 8,
		0x80, 0x9c, 0xdc, 0xca,	/* CRC32c */
	};
	union iwarp_hdr bad;
	u8 buf[SIW_TERM_MAX_FPDU];

	memcpy(&bad, bad_send, sizeof(bad_send));
	KUNIT_ASSERT_EQ(test, siw_term_build(buf, sizeof(buf),
					     TERM_ERROR_LAYER_DDP,
					     DDP_ETYPE_UNTAGGED_BUF,
					     DDP_ECODE_UT_INVALID_MO, &bad,
					     true), (int)sizeof(want));
	KUNIT_EXPECT_MEMEQ(test, buf, want, sizeof(want));
	KUNIT_EXPECT_EQ(test, siw_fpdu_check_crc(buf, sizeof(want)), 0);
}

static void term_ddp_tagged(struct kunit *test)
{
	static const u8 bad_write[16] = {
		0x00, 0x24, 0xc1, 0x40, 0x11, 0x22, 0x33, 0x44,	/* 22 bytes */
		0, 0, 0, 0, 0, 0, 0x10, 0x00,
	};
	static const u8 want[44] = {
		0x00, 0x26, 0x41, 0x47,	/* ULPDU 38 */
		0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0,
		0x11, 0x00, 0xc0, 0x00,	/* DDP, tagged, invalid STag; M, D */
		0x00, 0x16, 0xc1, 0x40, 0x11, 0x22, 0x33, 0x44,
		0, 0, 0, 0, 0, 0, 0x10, 0x00,
		0, 0, 0, 0,
	};
	union iwarp_hdr bad;
	u8 buf[SIW_TERM_MAX_FPDU];

	memcpy(&bad, bad_write, sizeof(bad_write));
	KUNIT_ASSERT_EQ(test, siw_term_build(buf, sizeof(buf),
					     TERM_ERROR_LAYER_DDP,
					     DDP_ETYPE_TAGGED_BUF,
					     DDP_ECODE_T_INVALID_STAG, &bad,
					     false), (int)sizeof(want));
	KUNIT_EXPECT_MEMEQ(test, buf, want, sizeof(want));
}

static void term_rdmap_protection(struct kunit *test)
{
	static const u8 bad_rreq[48] = {
		0x00, 0x2e, 0x41, 0x41, 0, 0, 0, 0,
		0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0x10, 0, 0, 0, 7,		/* 16 bytes of STag 7 */
		0, 0, 0, 0, 0, 0, 0x20, 0x00,
	};
	u8 want[72] = {
		0x00, 0x46, 0x41, 0x47,	/* ULPDU 70 */
		0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0,
		0x01, 0x00, 0xe0, 0x00,	/* RDMAP, protection, STag; M, D, R */
	};
	static const u8 crc[4] = { 0x92, 0x7f, 0x67, 0x80 };
	struct siw_term_info ti;
	union iwarp_hdr bad;
	u8 buf[SIW_TERM_MAX_FPDU];

	memcpy(want + 24, bad_rreq, sizeof(bad_rreq));
	want[24] = 0;		/* segment length 0 */
	want[25] = 0;
	memcpy(&bad, bad_rreq, sizeof(bad_rreq));
	KUNIT_ASSERT_EQ(test, siw_term_build(buf, sizeof(buf),
					     TERM_ERROR_LAYER_RDMAP,
					     RDMAP_ETYPE_REMOTE_PROTECTION,
					     RDMAP_ECODE_INVALID_STAG, &bad,
					     true), 72 + 4);
	KUNIT_EXPECT_MEMEQ(test, buf, want, sizeof(want));
	KUNIT_EXPECT_MEMEQ(test, buf + 72, crc, sizeof(crc));

	KUNIT_ASSERT_EQ(test, siw_term_parse(buf, 72, &ti), 0);
	KUNIT_EXPECT_EQ(test, ti.layer, TERM_ERROR_LAYER_RDMAP);
	KUNIT_EXPECT_EQ(test, ti.etype, RDMAP_ETYPE_REMOTE_PROTECTION);
	KUNIT_EXPECT_EQ(test, ti.ecode, RDMAP_ECODE_INVALID_STAG);
	KUNIT_EXPECT_TRUE(test, ti.flag_m && ti.flag_d && ti.flag_r);
	KUNIT_EXPECT_EQ(test, ti.opcode, RDMAP_RDMA_READ_REQ);
	KUNIT_EXPECT_EQ(test, ti.ddp_len, 0);
	/* R announces a READ request that is not all there */
	KUNIT_EXPECT_EQ(test, siw_term_parse(buf, 71, &ti), -EBADMSG);
}

/* Errors whose offending header is unknown or unused carry none. */
static void term_nothing_carried(struct kunit *test)
{
	static const struct {
		u8 layer, etype, ecode;
	} none[] = {
		{ TERM_ERROR_LAYER_RDMAP, RDMAP_ETYPE_CATASTROPHIC,
		  RDMAP_ECODE_UNSPECIFIED },
		{ TERM_ERROR_LAYER_RDMAP, RDMAP_ETYPE_REMOTE_OPERATION,
		  RDMAP_ECODE_VERSION },
		{ TERM_ERROR_LAYER_RDMAP, RDMAP_ETYPE_REMOTE_OPERATION,
		  RDMAP_ECODE_OPCODE },
		{ TERM_ERROR_LAYER_DDP, DDP_ETYPE_TAGGED_BUF,
		  DDP_ECODE_T_VERSION },
		{ TERM_ERROR_LAYER_DDP, DDP_ETYPE_UNTAGGED_BUF,
		  DDP_ECODE_UT_VERSION },
		{ TERM_ERROR_LAYER_LLP, LLP_ETYPE_MPA, LLP_ECODE_RECEIVED_CRC },
	};
	struct siw_term_info ti;
	union iwarp_hdr bad;
	u8 buf[SIW_TERM_MAX_FPDU];
	unsigned int i;

	memcpy(&bad, bad_send, sizeof(bad_send));
	for (i = 0; i < ARRAY_SIZE(none); i++) {
		KUNIT_EXPECT_EQ(test, siw_term_build(buf, sizeof(buf),
						     none[i].layer,
						     none[i].etype,
						     none[i].ecode, &bad,
						     false), 28);
		KUNIT_EXPECT_EQ(test, buf[1], 0x16);
		KUNIT_EXPECT_EQ(test, buf[22] & 0xe0, 0);
		KUNIT_ASSERT_EQ(test, siw_term_parse(buf, 24, &ti), 0);
		KUNIT_EXPECT_EQ(test, ti.layer, none[i].layer);
		KUNIT_EXPECT_EQ(test, ti.etype, none[i].etype);
		KUNIT_EXPECT_EQ(test, ti.ecode, none[i].ecode);
		KUNIT_EXPECT_EQ(test, ti.opcode, RDMAP_NOT_SUPPORTED);
	}
	/* a remote operation error carries the DDP header only */
	KUNIT_EXPECT_EQ(test, siw_term_build(buf, sizeof(buf),
					     TERM_ERROR_LAYER_RDMAP,
					     RDMAP_ETYPE_REMOTE_OPERATION,
					     RDMAP_ECODE_UNSPECIFIED, &bad,
					     false), 48);
	KUNIT_EXPECT_EQ(test, buf[22], 0xc0);
}

static void term_parse_short(struct kunit *test)
{
	static const u8 term[28] = {
		0x00, 0x1a, 0x41, 0x47,
		0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0,
		0x12, 0x01, 0xc0, 0x00,	/* D set, but 4 bytes follow */
		0x00, 0x00, 0x41, 0x43,
	};
	struct siw_term_info ti;

	KUNIT_EXPECT_EQ(test, siw_term_parse(term, 23, &ti), -EBADMSG);
	KUNIT_EXPECT_EQ(test, siw_term_parse(term, 28, &ti), -EBADMSG);
	KUNIT_EXPECT_EQ(test, ti.layer, TERM_ERROR_LAYER_DDP);
	KUNIT_EXPECT_EQ(test, ti.ecode, DDP_ECODE_UT_INVALID_QN);
}

static void term_rtr(struct kunit *test)
{
	static const u8 write[16] = {
		0x00, 0x0e, 0xc1, 0x40,	/* zero-length WRITE, T, L */
		0, 0, 0, 1,		/* STag 1 */
		0, 0, 0, 0, 0, 0, 0, 0,	/* TO 0 */
	};
	static const u8 read[48] = {
		0x00, 0x2e, 0x41, 0x41, 0, 0, 0, 0,
		0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0,	/* QN 1, MSN 1 */
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* sink 0, TO 0 */
		0, 0, 0, 0, 0, 0, 0, 1,			/* size 0, src 1 */
		0, 0, 0, 0, 0, 0, 0, 0,
	};
	struct siw_fpdu_info info;
	union iwarp_hdr h;

	KUNIT_ASSERT_EQ(test, siw_fpdu_rtr(&h, SIW_RTR_WRITE, 1), 16);
	KUNIT_EXPECT_MEMEQ(test, &h, write, sizeof(write));
	KUNIT_EXPECT_EQ(test, siw_fpdu_parse_hdr(&h, 16, &info), 16);
	KUNIT_ASSERT_EQ(test, siw_fpdu_rtr(&h, SIW_RTR_READ, 1), 48);
	KUNIT_EXPECT_MEMEQ(test, &h, read, sizeof(read));
	KUNIT_EXPECT_EQ(test, siw_fpdu_parse_hdr(&h, 48, &info), 48);
	KUNIT_EXPECT_EQ(test, siw_fpdu_rtr(&h, SIW_RTR_SEND, 1), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, siw_fpdu_rtr(&h, 0, 1), -EINVAL);
}

static struct kunit_case siw_term_cases[] = {
	KUNIT_CASE(term_llp_no_header),
	KUNIT_CASE(term_ddp_untagged),
	KUNIT_CASE(term_ddp_tagged),
	KUNIT_CASE(term_rdmap_protection),
	KUNIT_CASE(term_nothing_carried),
	KUNIT_CASE(term_parse_short),
	KUNIT_CASE(term_rtr),
	{}
};

static struct kunit_suite siw_term_suite = {
	.name = "rdma_siw_term",
	.test_cases = siw_term_cases,
};

kunit_test_suite(siw_term_suite);

MODULE_DESCRIPTION("KUnit tests of siw's TERMINATE and RTR messages");
MODULE_LICENSE("Dual BSD/GPL");
