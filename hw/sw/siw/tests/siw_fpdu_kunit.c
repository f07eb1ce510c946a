// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_siw_fpdu": siw's FPDU layer (hw/sw/siw/siw_fpdu.c)
 * and the wire layouts of hw/sw/siw/siw_wire.h.
 *
 * Headers are compared with bytes written out by hand from RFC 5040,
 * 5041 and 5044.  CRC32c values are the test vectors of RFC 3720
 * appendix B.4, and for whole FPDUs values computed outside the kernel
 * with a bitwise CRC32c (polynomial 0x82f63b78) checked against those
 * vectors.
 */

#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/stddef.h>
#include <linux/string.h>

/*
 * siw's protocol layer is pure functions over buffers: this suite builds
 * its own copy of it, so siw exports none of it.
 */
#include "../siw_fpdu.c"

/* ---- wire layout ---------------------------------------------------- */

static void fpdu_wire_offsets(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, offsetof(struct mpa_rr, params.bits), 16);
	KUNIT_EXPECT_EQ(test, offsetof(struct mpa_rr, params.pd_len), 18);
	KUNIT_EXPECT_EQ(test, offsetof(struct iwarp_ctrl_tagged, ddp_to), 8);
	KUNIT_EXPECT_EQ(test, offsetof(struct iwarp_ctrl_untagged, ddp_qn), 8);
	KUNIT_EXPECT_EQ(test, offsetof(struct iwarp_ctrl_untagged, ddp_msn),
			12);
	KUNIT_EXPECT_EQ(test, offsetof(struct iwarp_ctrl_untagged, ddp_mo),
			16);
	KUNIT_EXPECT_EQ(test, offsetof(struct iwarp_rdma_rreq, sink_stag), 20);
	KUNIT_EXPECT_EQ(test, offsetof(struct iwarp_rdma_rreq, sink_to), 24);
	KUNIT_EXPECT_EQ(test, offsetof(struct iwarp_rdma_rreq, read_size), 32);
	KUNIT_EXPECT_EQ(test, offsetof(struct iwarp_rdma_rreq, source_stag),
			36);
	KUNIT_EXPECT_EQ(test, offsetof(struct iwarp_rdma_rreq, source_to), 40);
	KUNIT_EXPECT_EQ(test, offsetof(struct iwarp_terminate, term_ctrl), 20);
	KUNIT_EXPECT_EQ(test, offsetof(struct mpa_trailer, crc), 4);
}

static void fpdu_opcode_tables(struct kunit *test)
{
	static const u8 lens[] = { 16, 48, 16, 20, 20, 20, 20, 24 };
	static const int qns[] = { -EINVAL, 1, -EINVAL, 0, 0, 0, 0, 2 };
	u8 op;

	for (op = 0; op < ARRAY_SIZE(lens); op++) {
		KUNIT_EXPECT_EQ(test, siw_fpdu_hdr_len(op), lens[op]);
		KUNIT_EXPECT_EQ(test, siw_opcode_qn(op), qns[op]);
		KUNIT_EXPECT_EQ(test, siw_opcode_tagged(op),
				op == RDMAP_RDMA_WRITE ||
				op == RDMAP_RDMA_READ_RESP);
	}
	for (op = 8; op < 16; op++) {
		KUNIT_EXPECT_EQ(test, siw_fpdu_hdr_len(op), 0);
		KUNIT_EXPECT_EQ(test, siw_opcode_qn(op), -EINVAL);
	}
}

static void fpdu_init_hdr(struct kunit *test)
{
	static const u8 send_inv[20] = {
		0x00, 0x12, 0x41, 0x44,	/* ULPDU 18; L, DV 1, RV 1, op 4 */
		0, 0, 0, 0, 0, 0, 0, 0,	/* Inv STag, QN 0 */
		0, 0, 0, 0, 0, 0, 0, 0,
	};
	static const u8 rreq[20] = {
		0x00, 0x2e, 0x41, 0x41,	/* ULPDU 46; L, op 1 */
		0, 0, 0, 0, 0, 0, 0, 1,	/* QN 1 */
		0, 0, 0, 0, 0, 0, 0, 0,
	};
	static const u8 term[20] = {
		0x00, 0x16, 0x41, 0x47,	/* ULPDU 22; L, op 7 */
		0, 0, 0, 0, 0, 0, 0, 2,	/* QN 2 */
		0, 0, 0, 0, 0, 0, 0, 0,
	};
	static const u8 rresp[4] = { 0x00, 0x0e, 0xc1, 0x42 };	/* T, L */
	union iwarp_hdr h;

	KUNIT_ASSERT_EQ(test, siw_fpdu_init_hdr(&h, RDMAP_SEND_INVAL), 0);
	KUNIT_EXPECT_MEMEQ(test, &h, send_inv, sizeof(send_inv));
	KUNIT_ASSERT_EQ(test, siw_fpdu_init_hdr(&h, RDMAP_RDMA_READ_REQ), 0);
	KUNIT_EXPECT_MEMEQ(test, &h, rreq, sizeof(rreq));
	KUNIT_ASSERT_EQ(test, siw_fpdu_init_hdr(&h, RDMAP_TERMINATE), 0);
	KUNIT_EXPECT_MEMEQ(test, &h, term, sizeof(term));
	KUNIT_ASSERT_EQ(test, siw_fpdu_init_hdr(&h, RDMAP_RDMA_READ_RESP), 0);
	KUNIT_EXPECT_MEMEQ(test, &h, rresp, sizeof(rresp));
	KUNIT_EXPECT_EQ(test, siw_fpdu_init_hdr(&h, 8), -EINVAL);
}

static void fpdu_terminate_word(struct kunit *test)
{
	/* DDP layer, untagged buffer, invalid MO; M and D */
	static const u8 want[4] = { 0x12, 0x04, 0xc0, 0x00 };
	/* LLP layer, type 6, code 0xff; R */
	static const u8 llp[4] = { 0x26, 0xff, 0x20, 0x00 };
	struct iwarp_terminate t = {};

	t.term_ctrl = siw_term_word(TERM_ERROR_LAYER_DDP,
				    DDP_ETYPE_UNTAGGED_BUF,
				    DDP_ECODE_UT_INVALID_MO,
				    SIW_TERM_FLAG_M | SIW_TERM_FLAG_D |
				    SIW_TERM_RESERVED);
	KUNIT_EXPECT_MEMEQ(test, &t.term_ctrl, want, sizeof(want));

	memcpy(&t.term_ctrl, llp, sizeof(llp));
	KUNIT_EXPECT_EQ(test, siw_term_layer(&t), TERM_ERROR_LAYER_LLP);
	KUNIT_EXPECT_EQ(test, siw_term_etype(&t), 6);
	KUNIT_EXPECT_EQ(test, siw_term_ecode(&t), 0xff);
	KUNIT_EXPECT_EQ(test, siw_term_bits(&t) & SIW_TERM_FLAG_R,
			SIW_TERM_FLAG_R);
}

/* ---- MULPDU and segmentation ---------------------------------------- */

static void fpdu_mulpdu(struct kunit *test)
{
	/* (seglen rounded down to 8) - 2 - 4 */
	KUNIT_EXPECT_EQ(test, siw_fpdu_mulpdu(1460), 1450);
	KUNIT_EXPECT_EQ(test, siw_fpdu_mulpdu(1448), 1442);
	KUNIT_EXPECT_EQ(test, siw_fpdu_mulpdu(1455), 1442);
	KUNIT_EXPECT_EQ(test, siw_fpdu_mulpdu(65483), 65474);
	KUNIT_EXPECT_EQ(test, siw_fpdu_mulpdu(8), 2);
	KUNIT_EXPECT_EQ(test, siw_fpdu_mulpdu(7), 0);
	KUNIT_EXPECT_EQ(test, siw_fpdu_mulpdu(0), 0);
}

/* FPDU length by MSS, TCP's GSO segments and the gso_seg_limit */
static void fpdu_seglen(struct kunit *test)
{
	static const struct {
		u32 mss, gso_segs, limit, seglen;
	} t[] = {
		{ 1448,  0, 1,  1448 },	/* no GSO: one MSS whatever the limit */
		{ 1448,  1, 0,  1448 },
		{ 1448, 44, 1,  1448 },	/* upstream's choice: one segment */
		{ 1448, 44, 0, 63712 },	/* as many as TCP sends at once */
		{ 1448, 44, 4,  5792 },	/* at most the limit */
		{ 1448,  3, 4,  4344 },	/* at most what TCP sends */
		{ 1448, 64, 0, 65536 },	/* never over 64 KiB (MPA's length) */
		{ 65483, 2, 0, 65536 },
		{ 65483, 1, 1, 65483 },
		{ 9000, 0xffff, 0xffffffff, 65536 },	/* no overflow */
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		KUNIT_EXPECT_EQ_MSG(test, siw_fpdu_seglen(t[i].mss,
							  t[i].gso_segs,
							  t[i].limit),
				    t[i].seglen, "case %u", i);
	/* the MULPDU of the longest: 64 KiB less the MPA header and CRC */
	KUNIT_EXPECT_EQ(test, siw_fpdu_mulpdu(siw_fpdu_seglen(1448, 64, 0)),
			65530);
}

#define MSS		1460
#define SEND_ROOM	(1450 - 18)	/* MULPDU less the SEND header */

static void send_hdr(struct kunit *test, union iwarp_hdr *h, u32 msn)
{
	KUNIT_ASSERT_EQ(test, siw_fpdu_init_hdr(h, RDMAP_SEND), 0);
	h->send.ddp_msn = cpu_to_be32(msn);
}

static void fpdu_seg_send_below_mulpdu(struct kunit *test)
{
	static const u8 want[20] = {
		0x05, 0xa9, 0x41, 0x43,	/* ULPDU 18 + 1431; L */
		0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 9, 0, 0, 0, 0,	/* MSN 9, MO 0 */
	};
	struct siw_fpdu_seg seg;
	union iwarp_hdr h;

	send_hdr(test, &h, 9);
	KUNIT_ASSERT_EQ(test, siw_fpdu_next_seg(&h, 0, SEND_ROOM - 1, 0,
						siw_fpdu_mulpdu(MSS), &seg),
			SEND_ROOM - 1);
	KUNIT_EXPECT_MEMEQ(test, &h, want, sizeof(want));
	KUNIT_EXPECT_TRUE(test, seg.last);
	KUNIT_EXPECT_EQ(test, seg.pad, 1);
	KUNIT_EXPECT_EQ(test, seg.hdr_len, 20);
	KUNIT_EXPECT_EQ(test, seg.fpdu_len, 20 + 1431 + 1 + 4);
}

static void fpdu_seg_send_at_mulpdu(struct kunit *test)
{
	static const u8 want[4] = { 0x05, 0xaa, 0x41, 0x43 };
	struct siw_fpdu_seg seg;
	union iwarp_hdr h;

	send_hdr(test, &h, 1);
	KUNIT_ASSERT_EQ(test, siw_fpdu_next_seg(&h, 0, SEND_ROOM, 0,
						siw_fpdu_mulpdu(MSS), &seg),
			SEND_ROOM);
	KUNIT_EXPECT_MEMEQ(test, &h, want, sizeof(want));
	KUNIT_EXPECT_TRUE(test, seg.last);
	KUNIT_EXPECT_EQ(test, seg.pad, 0);
	/* the FPDU fills the segment exactly */
	KUNIT_EXPECT_EQ(test, seg.fpdu_len, 1456);
}

static void fpdu_seg_send_above_mulpdu(struct kunit *test)
{
	static const u8 first[20] = {
		0x05, 0xaa, 0x01, 0x43,	/* ULPDU 1450; no L */
		0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 2, 0, 0, 0, 0,	/* MSN 2, MO 0 */
	};
	static const u8 second[20] = {
		0x00, 0x13, 0x41, 0x43,	/* ULPDU 19; L */
		0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 2, 0, 0, 0x05, 0x98,	/* MO 1432 */
	};
	struct siw_fpdu_seg seg;
	union iwarp_hdr h;
	u32 mulpdu = siw_fpdu_mulpdu(MSS);

	send_hdr(test, &h, 2);
	KUNIT_ASSERT_EQ(test, siw_fpdu_next_seg(&h, 0, SEND_ROOM + 1, 0,
						mulpdu, &seg), SEND_ROOM);
	KUNIT_EXPECT_MEMEQ(test, &h, first, sizeof(first));
	KUNIT_EXPECT_FALSE(test, seg.last);
	KUNIT_EXPECT_EQ(test, seg.pad, 0);
	KUNIT_ASSERT_EQ(test, siw_fpdu_next_seg(&h, 0, SEND_ROOM + 1,
						SEND_ROOM, mulpdu, &seg), 1);
	KUNIT_EXPECT_MEMEQ(test, &h, second, sizeof(second));
	KUNIT_EXPECT_TRUE(test, seg.last);
	KUNIT_EXPECT_EQ(test, seg.offset, SEND_ROOM);
	KUNIT_EXPECT_EQ(test, seg.pad, 3);
	KUNIT_EXPECT_EQ(test, seg.fpdu_len, 28);
}

static void fpdu_seg_zero_length(struct kunit *test)
{
	static const u8 want[20] = {
		0x00, 0x12, 0x41, 0x43,
		0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 1, 0, 0, 0, 0,
	};
	struct siw_fpdu_seg seg;
	union iwarp_hdr h;

	send_hdr(test, &h, 1);
	KUNIT_ASSERT_EQ(test, siw_fpdu_next_seg(&h, 0, 0, 0,
						siw_fpdu_mulpdu(MSS), &seg), 0);
	KUNIT_EXPECT_MEMEQ(test, &h, want, sizeof(want));
	KUNIT_EXPECT_TRUE(test, seg.last);
	KUNIT_EXPECT_EQ(test, seg.pad, 0);
	KUNIT_EXPECT_EQ(test, seg.fpdu_len, 24);
	/* a READ request is one segment without payload */
	KUNIT_ASSERT_EQ(test, siw_fpdu_init_hdr(&h, RDMAP_RDMA_READ_REQ), 0);
	KUNIT_EXPECT_EQ(test, siw_fpdu_next_seg(&h, 0, 0, 0, 46, &seg), 0);
	KUNIT_EXPECT_EQ(test, seg.fpdu_len, 52);
	KUNIT_EXPECT_EQ(test, siw_fpdu_next_seg(&h, 0, 0, 0, 45, &seg),
			-EINVAL);
}

static void fpdu_seg_tagged(struct kunit *test)
{
	static const u8 second[16] = {
		0x05, 0xaa, 0x81, 0x40,	/* ULPDU 1450; T, no L, op 0 */
		0xde, 0xad, 0xbe, 0xef,	/* STag */
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x7d, 0x24,	/* +1436 */
	};
	static const u8 third[16] = {
		0x00, 0x8e, 0xc1, 0x40,	/* ULPDU 14 + 128; T, L */
		0xde, 0xad, 0xbe, 0xef,
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x82, 0xc0,	/* +2872 */
	};
	const u64 to = 0x1122334455667788ULL;
	u32 mulpdu = siw_fpdu_mulpdu(MSS);
	struct siw_fpdu_seg seg;
	union iwarp_hdr h;

	KUNIT_ASSERT_EQ(test, siw_fpdu_init_hdr(&h, RDMAP_RDMA_WRITE), 0);
	h.rwrite.sink_stag = cpu_to_be32(0xdeadbeef);
	KUNIT_ASSERT_EQ(test, siw_fpdu_next_seg(&h, to, 3000, 0, mulpdu, &seg),
			1436);
	KUNIT_EXPECT_FALSE(test, seg.last);
	KUNIT_ASSERT_EQ(test, siw_fpdu_next_seg(&h, to, 3000, 1436, mulpdu,
						&seg), 1436);
	KUNIT_EXPECT_MEMEQ(test, &h, second, sizeof(second));
	KUNIT_ASSERT_EQ(test, siw_fpdu_next_seg(&h, to, 3000, 2872, mulpdu,
						&seg), 128);
	KUNIT_EXPECT_MEMEQ(test, &h, third, sizeof(third));
	KUNIT_EXPECT_TRUE(test, seg.last);
	KUNIT_EXPECT_EQ(test, seg.pad, 0);
}

static void fpdu_seg_refused(struct kunit *test)
{
	u32 mulpdu = siw_fpdu_mulpdu(MSS);
	struct siw_fpdu_seg seg;
	union iwarp_hdr h;

	send_hdr(test, &h, 1);
	KUNIT_EXPECT_EQ(test, siw_fpdu_next_seg(&h, 0, 100, 101, mulpdu, &seg),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, siw_fpdu_next_seg(&h, 0, 100, 100, mulpdu, &seg),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, siw_fpdu_next_seg(&h, 0, 0, 1, mulpdu, &seg),
			-ERANGE);
	/* no room for one payload byte, or not even the header */
	KUNIT_EXPECT_EQ(test, siw_fpdu_next_seg(&h, 0, 1, 0, 18, &seg),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, siw_fpdu_next_seg(&h, 0, 0, 0, 17, &seg),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, siw_fpdu_next_seg(&h, 0, 1, 0, 19, &seg), 1);

	KUNIT_ASSERT_EQ(test, siw_fpdu_init_hdr(&h, RDMAP_RDMA_READ_REQ), 0);
	KUNIT_EXPECT_EQ(test, siw_fpdu_next_seg(&h, 0, 5, 0, mulpdu, &seg),
			-EINVAL);

	/* tagged offsets that would wrap */
	KUNIT_ASSERT_EQ(test, siw_fpdu_init_hdr(&h, RDMAP_RDMA_READ_RESP), 0);
	KUNIT_EXPECT_EQ(test, siw_fpdu_next_seg(&h, ~0ULL - 0xff, 0x100, 0,
						mulpdu, &seg), 0x100);
	KUNIT_EXPECT_EQ(test, siw_fpdu_next_seg(&h, ~0ULL - 0xff, 0x101, 0,
						mulpdu, &seg), -ERANGE);

	/* no opcode */
	h.ctrl.ddp_rdmap_ctrl = siw_ctrl_word(9, false, true);
	KUNIT_EXPECT_EQ(test, siw_fpdu_next_seg(&h, 0, 0, 0, mulpdu, &seg),
			-EINVAL);
}

/* ---- CRC32c ---------------------------------------------------------- */

static void fpdu_crc_rfc3720(struct kunit *test)
{
	static const u8 want[4][4] = {
		{ 0xaa, 0x36, 0x91, 0x8a },	/* 32 bytes 0x00 */
		{ 0x43, 0xab, 0xa8, 0x62 },	/* 32 bytes 0xff */
		{ 0x4e, 0x79, 0xdd, 0x46 },	/* 0x00, 0x01, ... 0x1f */
		{ 0x5c, 0xdb, 0x3f, 0x11 },	/* 0x1f, 0x1e, ... 0x00 */
	};
	u8 data[4][36];
	struct kvec frag[2];
	__le32 crc;
	int i;

	memset(data[0], 0, 32);
	memset(data[1], 0xff, 32);
	for (i = 0; i < 32; i++) {
		data[2][i] = i;
		data[3][i] = 31 - i;
	}
	for (i = 0; i < 4; i++) {
		crc = siw_fpdu_crc(data[i], 32, NULL, 0, 0);
		KUNIT_EXPECT_MEMEQ(test, &crc, want[i], 4);
		/* the same in three pieces */
		frag[0].iov_base = data[i] + 5;
		frag[0].iov_len = 10;
		frag[1].iov_base = data[i] + 15;
		frag[1].iov_len = 17;
		crc = siw_fpdu_crc(data[i], 5, frag, 2, 0);
		KUNIT_EXPECT_MEMEQ(test, &crc, want[i], 4);
		memcpy(data[i] + 32, want[i], 4);
		KUNIT_EXPECT_EQ(test, siw_fpdu_check_crc(data[i], 36), 0);
		data[i][7] ^= 0x10;
		KUNIT_EXPECT_EQ(test, siw_fpdu_check_crc(data[i], 36),
				-EBADMSG);
	}
	KUNIT_EXPECT_EQ(test, siw_fpdu_check_crc(data[0], 34), -EINVAL);
	KUNIT_EXPECT_EQ(test, siw_fpdu_check_crc(data[0], 4), -EINVAL);
}

static void fpdu_crc_fpdus(struct kunit *test)
{
	/* zero-length SEND, MSN 1 */
	static const u8 send0[24] = {
		0x00, 0x12, 0x41, 0x43, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 1, 0, 0, 0, 0,
		0x58, 0x7b, 0xe8, 0xc4,
	};
	/* SEND "xyz", MSN 2: one pad byte */
	static const u8 send3[28] = {
		0x00, 0x15, 0x41, 0x43, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 2, 0, 0, 0, 0,
		0x78, 0x79, 0x7a, 0x00,
		0x7c, 0x2d, 0x01, 0x62,
	};
	/* WRITE "abcd" to STag 0xdeadbeef, TO 0x1122334455667788 */
	static const u8 write4[24] = {
		0x00, 0x12, 0xc1, 0x40, 0xde, 0xad, 0xbe, 0xef,
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		0x61, 0x62, 0x63, 0x64,
		0x19, 0xec, 0xf1, 0xf0,
	};
	struct siw_fpdu_seg seg;
	union iwarp_hdr h;
	struct kvec frag;
	__le32 crc;
	u32 raw;

	KUNIT_EXPECT_EQ(test, siw_fpdu_check_crc(send0, sizeof(send0)), 0);
	KUNIT_EXPECT_EQ(test, siw_fpdu_check_crc(send3, sizeof(send3)), 0);
	KUNIT_EXPECT_EQ(test, siw_fpdu_check_crc(write4, sizeof(write4)), 0);

	/* built by the segmenter, the CRC over fragments and pad */
	send_hdr(test, &h, 2);
	KUNIT_ASSERT_EQ(test, siw_fpdu_next_seg(&h, 0, 3, 0, 1450, &seg), 3);
	KUNIT_EXPECT_MEMEQ(test, &h, send3, 20);
	frag.iov_base = (void *)"xyz";
	frag.iov_len = 3;
	crc = siw_fpdu_crc(&h, seg.hdr_len, &frag, 1, seg.pad);
	KUNIT_EXPECT_MEMEQ(test, &crc, send3 + 24, 4);

	/* incremental */
	raw = siw_fpdu_crc_update(SIW_FPDU_CRC_SEED, write4, 9);
	raw = siw_fpdu_crc_update(raw, write4 + 9, 11);
	crc = siw_fpdu_crc_final(raw);
	KUNIT_EXPECT_MEMEQ(test, &crc, write4 + 20, 4);
}

/* ---- receive side ---------------------------------------------------- */

static void fpdu_parse_ok(struct kunit *test)
{
	static const u8 send[20] = {
		0x00, 0x17, 0x41, 0x43, 0, 0, 0, 0,	/* 5 bytes payload */
		0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0x01, 0x00,	/* MSN 7, MO 256 */
	};
	static const u8 write[16] = {
		0x10, 0x0e, 0x81, 0x40, 0x01, 0x02, 0x03, 0x04,	/* 4096 */
		0, 0, 0, 0, 0x10, 0, 0, 0,
	};
	static const u8 rreq[48] = {
		0x00, 0x2e, 0x41, 0x41, 0, 0, 0, 0,
		0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 0,	/* QN 1, MSN 3 */
		0xaa, 0xbb, 0xcc, 0xdd,			/* sink */
		0, 0, 0, 0, 0, 0, 0x20, 0,
		0, 0, 0x10, 0,				/* 4096 bytes */
		0x11, 0x22, 0x33, 0x44,			/* source */
		0, 0, 0, 1, 0, 0, 0, 0,
	};
	struct siw_fpdu_info info;

	KUNIT_EXPECT_EQ(test, siw_fpdu_parse_hdr(send, 3, &info), -EAGAIN);
	KUNIT_EXPECT_EQ(test, siw_fpdu_parse_hdr(send, 19, &info), -EAGAIN);
	KUNIT_ASSERT_EQ(test, siw_fpdu_parse_hdr(send, 20, &info), 20);
	KUNIT_EXPECT_EQ(test, info.opcode, RDMAP_SEND);
	KUNIT_EXPECT_TRUE(test, info.last);
	KUNIT_EXPECT_FALSE(test, info.tagged);
	KUNIT_EXPECT_EQ(test, info.payload, 5);
	KUNIT_EXPECT_EQ(test, info.pad, 3);
	KUNIT_EXPECT_EQ(test, info.fpdu_len, 32);
	KUNIT_EXPECT_EQ(test, info.qn, 0);
	KUNIT_EXPECT_EQ(test, info.msn, 7);
	KUNIT_EXPECT_EQ(test, info.mo, 256);
	KUNIT_EXPECT_EQ(test, siw_fpdu_check_untagged(&info, 7, 256), 0);

	KUNIT_ASSERT_EQ(test, siw_fpdu_parse_hdr(write, 16, &info), 16);
	KUNIT_EXPECT_TRUE(test, info.tagged);
	KUNIT_EXPECT_FALSE(test, info.last);
	KUNIT_EXPECT_EQ(test, info.stag, 0x01020304);
	KUNIT_EXPECT_EQ(test, info.to, 0x10000000ULL);
	KUNIT_EXPECT_EQ(test, info.payload, 4096);
	KUNIT_EXPECT_EQ(test, info.pad, 0);

	KUNIT_ASSERT_EQ(test, siw_fpdu_parse_hdr(rreq, 47, &info), -EAGAIN);
	KUNIT_ASSERT_EQ(test, siw_fpdu_parse_hdr(rreq, 48, &info), 48);
	KUNIT_EXPECT_EQ(test, info.opcode, RDMAP_RDMA_READ_REQ);
	KUNIT_EXPECT_EQ(test, info.qn, 1);
	KUNIT_EXPECT_EQ(test, info.payload, 0);
	KUNIT_EXPECT_EQ(test, info.fpdu_len, 52);
}

struct bad_hdr {
	const char *name;
	u8 bytes[48];
	u8 layer, etype, ecode;
};

static const struct bad_hdr bad_hdrs[] = {
	{ "DDP version 0, untagged", { 0x00, 0x12, 0x40, 0x43 },
	  TERM_ERROR_LAYER_DDP, DDP_ETYPE_UNTAGGED_BUF, DDP_ECODE_UT_VERSION },
	{ "DDP version 2, tagged", { 0x00, 0x0e, 0xc2, 0x40 },
	  TERM_ERROR_LAYER_DDP, DDP_ETYPE_TAGGED_BUF, DDP_ECODE_T_VERSION },
	{ "RDMAP version 0", { 0x00, 0x12, 0x41, 0x03 },
	  TERM_ERROR_LAYER_RDMAP, RDMAP_ETYPE_REMOTE_OPERATION,
	  RDMAP_ECODE_VERSION },
	{ "RDMAP version 2", { 0x00, 0x12, 0x41, 0x83 },
	  TERM_ERROR_LAYER_RDMAP, RDMAP_ETYPE_REMOTE_OPERATION,
	  RDMAP_ECODE_VERSION },
	{ "opcode 8", { 0x00, 0x12, 0x41, 0x48 },
	  TERM_ERROR_LAYER_RDMAP, RDMAP_ETYPE_REMOTE_OPERATION,
	  RDMAP_ECODE_OPCODE },
	{ "opcode 15", { 0x00, 0x12, 0x41, 0x4f },
	  TERM_ERROR_LAYER_RDMAP, RDMAP_ETYPE_REMOTE_OPERATION,
	  RDMAP_ECODE_OPCODE },
	{ "tagged SEND", { 0x00, 0x12, 0xc1, 0x43 },
	  TERM_ERROR_LAYER_RDMAP, RDMAP_ETYPE_REMOTE_OPERATION,
	  RDMAP_ECODE_OPCODE },
	{ "untagged WRITE", { 0x00, 0x0e, 0x41, 0x40 },
	  TERM_ERROR_LAYER_RDMAP, RDMAP_ETYPE_REMOTE_OPERATION,
	  RDMAP_ECODE_OPCODE },
	{ "ULPDU shorter than the header", { 0x00, 0x11, 0x41, 0x43 },
	  TERM_ERROR_LAYER_LLP, LLP_ETYPE_MPA, LLP_ECODE_FPDU_START },
	{ "SEND on QN 1", { 0x00, 0x12, 0x41, 0x43, 0, 0, 0, 0,
			    0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0 },
	  TERM_ERROR_LAYER_DDP, DDP_ETYPE_UNTAGGED_BUF,
	  DDP_ECODE_UT_INVALID_QN },
	{ "TERMINATE on QN 0", { 0x00, 0x16, 0x41, 0x47, 0, 0, 0, 0,
				 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0 },
	  TERM_ERROR_LAYER_DDP, DDP_ETYPE_UNTAGGED_BUF,
	  DDP_ECODE_UT_INVALID_QN },
	{ "READ request on QN 0", { 0x00, 0x2e, 0x41, 0x41 },
	  TERM_ERROR_LAYER_DDP, DDP_ETYPE_UNTAGGED_BUF,
	  DDP_ECODE_UT_INVALID_QN },
	{ "READ request with payload", { 0x00, 0x32, 0x41, 0x41, 0, 0, 0, 0,
					 0, 0, 0, 1 },
	  TERM_ERROR_LAYER_DDP, DDP_ETYPE_UNTAGGED_BUF,
	  DDP_ECODE_UT_MSG_TOOLONG },
	{ "READ request not last", { 0x00, 0x2e, 0x01, 0x41, 0, 0, 0, 0,
				     0, 0, 0, 1 },
	  TERM_ERROR_LAYER_DDP, DDP_ETYPE_UNTAGGED_BUF,
	  DDP_ECODE_UT_MSG_TOOLONG },
	{ "READ source wraps", { 0x00, 0x2e, 0x41, 0x41, 0, 0, 0, 0,
				 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0,
				 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0,
				 0, 0, 0, 2, 0, 0, 0, 1,
				 0xff, 0xff, 0xff, 0xff,
				 0xff, 0xff, 0xff, 0xff },
	  TERM_ERROR_LAYER_RDMAP, RDMAP_ETYPE_REMOTE_PROTECTION,
	  RDMAP_ECODE_TO_WRAP },
	{ "WRITE TO wraps", { 0x00, 0x12, 0xc1, 0x40, 0, 0, 0, 1,
			      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe },
	  TERM_ERROR_LAYER_DDP, DDP_ETYPE_TAGGED_BUF, DDP_ECODE_T_TO_WRAP },
	{ "SEND MO wraps", { 0x00, 0x16, 0x41, 0x43, 0, 0, 0, 0,
			     0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe },
	  TERM_ERROR_LAYER_DDP, DDP_ETYPE_UNTAGGED_BUF,
	  DDP_ECODE_UT_INVALID_MO },
};

static void fpdu_parse_refused(struct kunit *test)
{
	struct siw_fpdu_info info;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad_hdrs); i++) {
		const struct bad_hdr *b = &bad_hdrs[i];

		KUNIT_EXPECT_EQ_MSG(test, siw_fpdu_parse_hdr(b->bytes, 48,
							     &info),
				    -EPROTO, "%s", b->name);
		KUNIT_EXPECT_EQ_MSG(test, info.term_layer, b->layer, "%s",
				    b->name);
		KUNIT_EXPECT_EQ_MSG(test, info.term_etype, b->etype, "%s",
				    b->name);
		KUNIT_EXPECT_EQ_MSG(test, info.term_ecode, b->ecode, "%s",
				    b->name);
	}
}

/* The highest offsets that do not wrap are taken. */
static void fpdu_parse_edge_offsets(struct kunit *test)
{
	static const u8 write[16] = {
		0x00, 0x12, 0xc1, 0x40, 0, 0, 0, 1,	/* 4 bytes */
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfc,
	};
	static const u8 send[20] = {
		0x00, 0x16, 0x41, 0x43, 0, 0, 0, 0,	/* 4 bytes */
		0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfc,
	};
	struct siw_fpdu_info info;

	KUNIT_EXPECT_EQ(test, siw_fpdu_parse_hdr(write, 16, &info), 16);
	KUNIT_EXPECT_EQ(test, siw_fpdu_parse_hdr(send, 20, &info), 20);
}

static void fpdu_check_untagged(struct kunit *test)
{
	static const u8 send[20] = {
		0x00, 0x12, 0x41, 0x43, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 8,	/* MSN 5, MO 8 */
	};
	struct siw_fpdu_info info;

	KUNIT_ASSERT_EQ(test, siw_fpdu_parse_hdr(send, 20, &info), 20);
	KUNIT_EXPECT_EQ(test, siw_fpdu_check_untagged(&info, 4, 8), -EPROTO);
	KUNIT_EXPECT_EQ(test, info.term_layer, TERM_ERROR_LAYER_DDP);
	KUNIT_EXPECT_EQ(test, info.term_etype, DDP_ETYPE_UNTAGGED_BUF);
	KUNIT_EXPECT_EQ(test, info.term_ecode, DDP_ECODE_UT_INVALID_MSN_RANGE);
	KUNIT_EXPECT_EQ(test, siw_fpdu_check_untagged(&info, 5, 0), -EPROTO);
	KUNIT_EXPECT_EQ(test, info.term_ecode, DDP_ECODE_UT_INVALID_MO);
	KUNIT_EXPECT_EQ(test, siw_fpdu_check_untagged(&info, 5, 8), 0);
}

static struct kunit_case siw_fpdu_cases[] = {
	KUNIT_CASE(fpdu_wire_offsets),
	KUNIT_CASE(fpdu_opcode_tables),
	KUNIT_CASE(fpdu_init_hdr),
	KUNIT_CASE(fpdu_terminate_word),
	KUNIT_CASE(fpdu_mulpdu),
	KUNIT_CASE(fpdu_seglen),
	KUNIT_CASE(fpdu_seg_send_below_mulpdu),
	KUNIT_CASE(fpdu_seg_send_at_mulpdu),
	KUNIT_CASE(fpdu_seg_send_above_mulpdu),
	KUNIT_CASE(fpdu_seg_zero_length),
	KUNIT_CASE(fpdu_seg_tagged),
	KUNIT_CASE(fpdu_seg_refused),
	KUNIT_CASE(fpdu_crc_rfc3720),
	KUNIT_CASE(fpdu_crc_fpdus),
	KUNIT_CASE(fpdu_parse_ok),
	KUNIT_CASE(fpdu_parse_refused),
	KUNIT_CASE(fpdu_parse_edge_offsets),
	KUNIT_CASE(fpdu_check_untagged),
	{}
};

static struct kunit_suite siw_fpdu_suite = {
	.name = "rdma_siw_fpdu",
	.test_cases = siw_fpdu_cases,
};

kunit_test_suite(siw_fpdu_suite);

MODULE_DESCRIPTION("KUnit tests of siw's FPDU layer and wire formats");
MODULE_LICENSE("Dual BSD/GPL");
