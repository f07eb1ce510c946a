// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite of rxe's wire layer (rxe_hdr.h, rxe_wire.c): the header
 * layouts (IBA 1.5's FETH, FLUSH and ATOMIC WRITE included) against bytes
 * written out from the IBTA's tables, the opcode
 * table, PSN arithmetic across the 24-bit wrap, and the ICRC against
 * vectors computed apart from this code (zlib's CRC-32 over eight 0xff
 * bytes and the masked packet, as IBTA 7.8.1 and annex A17 define it).
 * Pure functions: no device, no network.
 */
#include <kunit/test.h>
#include <linux/unaligned.h>
#include <rdma/ib_mad.h>

#include "../rxe_hdr.h"
/* the wire layer is pure functions: the suite builds its own copy */
#include "../rxe_wire.c"

/* BTH: opcode, SE|pad 3, P_Key, Resv8a 0, QPN 0x123456, AckReq, PSN */
static void rxe_hdr_bth(struct kunit *test)
{
	static const u8 want[] = {
		0x04, 0xb0, 0xff, 0xff, 0x00, 0x12, 0x34, 0x56,
		0x80, 0xab, 0xcd, 0xef,
	};
	struct rxe_bth b = {
		.opcode = IB_OPCODE_RC_SEND_ONLY,
		.flags = RXE_BTH_SE | 3 << RXE_BTH_PAD_SHIFT,
		.pkey = htons(0xffff),
		.qpn = htonl(0x123456),
		.apsn = htonl(RXE_BTH_ACK_REQ | 0xabcdef),
	};

	KUNIT_EXPECT_MEMEQ(test, &b, want, sizeof(want));
}

/* RETH, AETH, AtomicETH, AtomicAckETH, IETH, ImmDt, DETH */
static void rxe_hdr_ext(struct kunit *test)
{
	static const u8 reth[] = {
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		0x11, 0x22, 0x33, 0x44, 0x00, 0x00, 0x10, 0x00,
	};
	static const u8 atm[] = {
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		0x11, 0x22, 0x33, 0x44,
		0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
		0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7,
	};
	static const u8 deth[] = {
		0x80, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	};
	static const u8 aeth[] = { 0x60, 0x00, 0x00, 0x2a };
	static const u8 ack[] = {
		0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
	};
	struct rxe_reth r = {
		.va = cpu_to_be64(0x0102030405060708ULL),
		.rkey = htonl(0x11223344), .len = htonl(4096),
	};
	struct rxe_atmeth a = {
		.va = cpu_to_be64(0x0102030405060708ULL),
		.rkey = htonl(0x11223344),
		.swap_add = cpu_to_be64(0xa0a1a2a3a4a5a6a7ULL),
		.comp = cpu_to_be64(0xc0c1c2c3c4c5c6c7ULL),
	};
	struct rxe_deth d = { .qkey = htonl(IB_QP1_QKEY), .sqp = htonl(1) };
	struct rxe_aeth e = { .smsn = htonl(0x60 << 24 | 42) };
	struct rxe_atmack k = { .orig = cpu_to_be64(0xfedcba9876543210ULL) };

	KUNIT_EXPECT_MEMEQ(test, &r, reth, sizeof(reth));
	KUNIT_EXPECT_MEMEQ(test, &a, atm, sizeof(atm));
	KUNIT_EXPECT_MEMEQ(test, &d, deth, sizeof(deth));
	KUNIT_EXPECT_MEMEQ(test, &e, aeth, sizeof(aeth));
	KUNIT_EXPECT_MEMEQ(test, &k, ack, sizeof(ack));
}

/*
 * IBA 1.5: the FETH (annex A19: reserved bits 31..6, selectivity level
 * 5..4, placement type 3..0) alone, and the headers of an RC FLUSH
 * (BTH, FETH, RETH) and an RC ATOMIC WRITE (BTH, RETH, then the 8 bytes)
 * built through the opcode table, as bytes from the tables.
 */
static void rxe_hdr_flush(struct kunit *test)
{
	static const u8 feth[] = { 0x00, 0x00, 0x00, 0x13 };
	static const u8 flush[] = {
		0x1c, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x11,
		0x80, 0x00, 0x00, 0x05,
		0x00, 0x00, 0x00, 0x01,
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		0x11, 0x22, 0x33, 0x44, 0x00, 0x00, 0x10, 0x00,
	};
	static const u8 aw[] = {
		0x1d, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x11,
		0x80, 0x00, 0x00, 0x06,
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		0x11, 0x22, 0x33, 0x44, 0x00, 0x00, 0x00, 0x08,
	};
	struct rxe_feth f = {
		.bits = htonl(IB_FLUSH_MR << RXE_FETH_SEL_SHIFT |
			      IB_FLUSH_GLOBAL | IB_FLUSH_PERSISTENT),
	};
	u8 op[2] = { IB_OPCODE_RC_FLUSH, IB_OPCODE_RC_ATOMIC_WRITE };
	u8 buf[32];
	unsigned int i;
	u32 m;

	KUNIT_EXPECT_MEMEQ(test, &f, feth, sizeof(feth));
	KUNIT_EXPECT_EQ(test, be32_to_cpu(f.bits) & RXE_FETH_PLT_MASK,
			(u32)(IB_FLUSH_GLOBAL | IB_FLUSH_PERSISTENT));
	KUNIT_EXPECT_EQ(test, (be32_to_cpu(f.bits) & RXE_FETH_SEL_MASK) >>
			RXE_FETH_SEL_SHIFT, (u32)IB_FLUSH_MR);
	KUNIT_EXPECT_EQ(test, rxe_opcode[IB_OPCODE_RC_FLUSH].len, 32);
	KUNIT_EXPECT_EQ(test, rxe_opcode[IB_OPCODE_RC_ATOMIC_WRITE].len, 28);
	for (i = 0; i < ARRAY_SIZE(op); i++) {
		struct rxe_bth *bth = (struct rxe_bth *)buf;
		struct rxe_reth *reth;

		m = rxe_opcode[op[i]].mask;
		KUNIT_EXPECT_TRUE(test, m & RXE_REQ);
		KUNIT_EXPECT_FALSE(test, m & (RXE_WRITE | RXE_ATOMIC | RXE_READ |
					      RXE_COMP));
		memset(buf, 0, sizeof(buf));
		*bth = (struct rxe_bth) {
			.opcode = op[i], .pkey = htons(0xffff),
			.qpn = htonl(0x11),
			.apsn = htonl(RXE_BTH_ACK_REQ | (5 + i)),
		};
		reth = (void *)buf + rxe_hdr_off(m, RXE_RETH);
		reth->va = cpu_to_be64(0x0102030405060708ULL);
		reth->rkey = htonl(0x11223344);
		if (!i) {
			f.bits = htonl(IB_FLUSH_RANGE << RXE_FETH_SEL_SHIFT |
				       IB_FLUSH_GLOBAL);
			memcpy(buf + rxe_hdr_off(m, RXE_FETH), &f, sizeof(f));
			reth->len = htonl(4096);
			KUNIT_EXPECT_MEMEQ(test, buf, flush, sizeof(flush));
			KUNIT_EXPECT_FALSE(test, m & RXE_PAYLOAD);
		} else {
			reth->len = htonl(8);
			KUNIT_EXPECT_MEMEQ(test, buf, aw, sizeof(aw));
			KUNIT_EXPECT_TRUE(test, m & RXE_PAYLOAD);
			KUNIT_EXPECT_FALSE(test, m & RXE_FETH);
		}
	}
}

/* The opcode table: header lengths and offsets of IBTA table 38. */
static void rxe_hdr_opcodes(struct kunit *test)
{
	static const struct { u8 op; u8 len; } t[] = {
		{ IB_OPCODE_RC_SEND_FIRST, 12 },
		{ IB_OPCODE_RC_SEND_LAST_WITH_IMMEDIATE, 16 },
		{ IB_OPCODE_RC_RDMA_WRITE_FIRST, 28 },
		{ IB_OPCODE_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, 32 },
		{ IB_OPCODE_RC_RDMA_READ_REQUEST, 28 },
		{ IB_OPCODE_RC_RDMA_READ_RESPONSE_MIDDLE, 12 },
		{ IB_OPCODE_RC_RDMA_READ_RESPONSE_ONLY, 16 },
		{ IB_OPCODE_RC_ACKNOWLEDGE, 16 },
		{ IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE, 24 },
		{ IB_OPCODE_RC_COMPARE_SWAP, 40 },
		{ IB_OPCODE_RC_SEND_ONLY_WITH_INVALIDATE, 16 },
		{ IB_OPCODE_UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, 32 },
		{ IB_OPCODE_UD_SEND_ONLY, 20 },
		{ IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE, 24 },
	};
	unsigned int i, n = 0;
	u32 m;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		KUNIT_EXPECT_EQ_MSG(test, rxe_opcode[t[i].op].len, t[i].len,
				    "opcode 0x%02x", t[i].op);
	/*
	 * the RC, UC and UD opcodes of IBTA 1.2 without the extensions, and
	 * IBA 1.5's RC FLUSH and ATOMIC WRITE
	 */
	for (i = 0; i < 256; i++)
		n += !!rxe_opcode[i].mask;
	KUNIT_EXPECT_EQ(test, n, 23U + 2U + 12U + 2U);
	/* UD: DETH at 12, ImmDt after it */
	m = rxe_opcode[IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE].mask;
	KUNIT_EXPECT_EQ(test, rxe_hdr_off(m, RXE_DETH), 12U);
	KUNIT_EXPECT_EQ(test, rxe_hdr_off(m, RXE_IMMDT), 20U);
	/* WRITE ONLY with immediate: RETH at 12, ImmDt at 28 */
	m = rxe_opcode[IB_OPCODE_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE].mask;
	KUNIT_EXPECT_EQ(test, rxe_hdr_off(m, RXE_RETH), 12U);
	KUNIT_EXPECT_EQ(test, rxe_hdr_off(m, RXE_IMMDT), 28U);
	/* atomic ACK: AETH at 12, AtomicAckETH at 16 */
	m = rxe_opcode[IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE].mask;
	KUNIT_EXPECT_EQ(test, rxe_hdr_off(m, RXE_AETH), 12U);
	KUNIT_EXPECT_EQ(test, rxe_hdr_off(m, RXE_ATMACK), 16U);
	KUNIT_EXPECT_TRUE(test, rxe_opcode[IB_OPCODE_RC_SEND_ONLY].mask &
			  RXE_COMP);
	KUNIT_EXPECT_FALSE(test,
			   rxe_opcode[IB_OPCODE_RC_RDMA_WRITE_ONLY].mask &
			   RXE_COMP);
}

/* PSNs are 24 bits: adding wraps, comparing looks half the space away */
static void rxe_hdr_psn(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, rxe_psn_add(0xffffff, 1), 0U);
	KUNIT_EXPECT_EQ(test, rxe_psn_add(0xfffffe, 5), 3U);
	KUNIT_EXPECT_LT(test, rxe_psn_cmp(0xffffff, 0), 0);
	KUNIT_EXPECT_GT(test, rxe_psn_cmp(2, 0xfffffe), 0);
	KUNIT_EXPECT_EQ(test, rxe_psn_cmp(0x123456, 0x123456), 0);
	KUNIT_EXPECT_LT(test, rxe_psn_cmp(0x7fffff, 0x800000), 0);
	KUNIT_EXPECT_GT(test, rxe_psn_cmp(0x800000, 0x000001), 0);
}

/*
 * RoCE v2 over IPv4, UD SEND ONLY with immediate, "hello" and 3 bytes
 * of pad; the ICRC (little endian, as upstream puts it) from zlib.
 */
static const u8 rxe_pkt4[] = {
	0x45, 0x00, 0x00, 0x40, 0x12, 0x34, 0x40, 0x00, 0x40, 0x11, 0x00,
	0x00, 0x0a, 0x01, 0x00, 0x01, 0x0a, 0x01, 0x00, 0x02, 0xc1, 0x23,
	0x12, 0xb7, 0x00, 0x2c, 0x00, 0x00, 0x65, 0xb0, 0xff, 0xff, 0x00,
	0x00, 0x00, 0x11, 0x00, 0x12, 0x34, 0x56, 0x11, 0x11, 0x11, 0x11,
	0x00, 0x00, 0x00, 0x02, 0xde, 0xad, 0xbe, 0xef, 0x68, 0x65, 0x6c,
	0x6c, 0x6f, 0x00, 0x00, 0x00,
};

static const u8 rxe_icrc4[] = { 0xac, 0x2f, 0x59, 0xee };

/* RoCE v2 over IPv6, UD SEND ONLY to QP1, "abcd" */
static const u8 rxe_pkt6[] = {
	0x61, 0x23, 0x45, 0x67, 0x00, 0x24, 0x11, 0x40, 0xfe, 0x80, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x01, 0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0xc0, 0x01, 0x12, 0xb7,
	0x00, 0x24, 0x00, 0x00, 0x64, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00,
	0x01, 0x00, 0x00, 0x00, 0x07, 0x80, 0x01, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x01, 0x61, 0x62, 0x63, 0x64,
};

static const u8 rxe_icrc6[] = { 0x81, 0xc8, 0xb9, 0x09 };

/* RoCE v1: the GRH, then the same packet */
static const u8 rxe_pkt1[] = {
	0x61, 0x23, 0x45, 0x67, 0x00, 0x1c, 0x1b, 0x40, 0xfe, 0x80, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x01, 0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x64, 0x00, 0xff, 0xff,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x07, 0x80, 0x01, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x01, 0x61, 0x62, 0x63, 0x64,
};

static const u8 rxe_icrc1[] = { 0xa9, 0xd7, 0x02, 0x74 };

static u32 rxe_icrc_of(enum rxe_nh nh, const u8 *pkt, unsigned int len)
{
	unsigned int off = nh == RXE_NH_IPV4 ? 28 : nh == RXE_NH_IPV6 ? 48 :
			   40;

	return rxe_icrc(nh, pkt, pkt + off, len - off);
}

static void rxe_hdr_icrc_vectors(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, rxe_icrc_of(RXE_NH_IPV4, rxe_pkt4,
					  sizeof(rxe_pkt4)),
			get_unaligned_le32(rxe_icrc4));
	KUNIT_EXPECT_EQ(test, rxe_icrc_of(RXE_NH_IPV6, rxe_pkt6,
					  sizeof(rxe_pkt6)),
			get_unaligned_le32(rxe_icrc6));
	KUNIT_EXPECT_EQ(test, rxe_icrc_of(RXE_NH_GRH, rxe_pkt1,
					  sizeof(rxe_pkt1)),
			get_unaligned_le32(rxe_icrc1));
}

/*
 * The variant fields do not change the ICRC, every other byte does:
 * each byte of each vector is changed in turn.
 */
static void rxe_hdr_icrc_mask(struct kunit *test)
{
	static const struct {
		enum rxe_nh nh;
		const u8 *pkt;
		unsigned int len;
		/* the variant bytes, as bits of a mask of the first 64 */
		u64 variant;
	} v[] = {
		/* TOS, TTL, IP checksum, UDP checksum, Resv8a */
		{ RXE_NH_IPV4, rxe_pkt4, sizeof(rxe_pkt4),
		  BIT_ULL(1) | BIT_ULL(8) | BIT_ULL(10) | BIT_ULL(11) |
		  BIT_ULL(26) | BIT_ULL(27) | BIT_ULL(32) },
		/* traffic class and flow label, hop limit, UDP checksum,
		 * Resv8a
		 */
		{ RXE_NH_IPV6, rxe_pkt6, sizeof(rxe_pkt6),
		  BIT_ULL(1) | BIT_ULL(2) | BIT_ULL(3) | BIT_ULL(7) |
		  BIT_ULL(46) | BIT_ULL(47) | BIT_ULL(52) },
		/* traffic class and flow label, hop limit, Resv8a */
		{ RXE_NH_GRH, rxe_pkt1, sizeof(rxe_pkt1),
		  BIT_ULL(1) | BIT_ULL(2) | BIT_ULL(3) | BIT_ULL(7) |
		  BIT_ULL(44) },
	};
	u8 buf[80];
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		u32 ref = rxe_icrc_of(v[i].nh, v[i].pkt, v[i].len);

		for (j = 0; j < v[i].len; j++) {
			bool variant = j < 64 && (v[i].variant & BIT_ULL(j));

			memcpy(buf, v[i].pkt, v[i].len);
			buf[j] ^= 0x01;
			/* the first byte's low nibble: IPv6's and GRH's TClass */
			if (j == 0 && v[i].nh != RXE_NH_IPV4) {
				KUNIT_EXPECT_EQ(test, rxe_icrc_of(v[i].nh, buf,
								  v[i].len),
						ref);
				buf[j] ^= 0x11;
				KUNIT_EXPECT_NE(test, rxe_icrc_of(v[i].nh, buf,
								  v[i].len),
						ref);
				continue;
			}
			if (variant)
				KUNIT_EXPECT_EQ_MSG(test,
						    rxe_icrc_of(v[i].nh, buf,
								v[i].len),
						    ref, "vector %u byte %u",
						    i, j);
			else
				KUNIT_EXPECT_NE_MSG(test,
						    rxe_icrc_of(v[i].nh, buf,
								v[i].len),
						    ref, "vector %u byte %u",
						    i, j);
		}
	}
}

static struct kunit_case rxe_hdr_cases[] = {
	KUNIT_CASE(rxe_hdr_bth),
	KUNIT_CASE(rxe_hdr_ext),
	KUNIT_CASE(rxe_hdr_flush),
	KUNIT_CASE(rxe_hdr_opcodes),
	KUNIT_CASE(rxe_hdr_psn),
	KUNIT_CASE(rxe_hdr_icrc_vectors),
	KUNIT_CASE(rxe_hdr_icrc_mask),
	{}
};

static struct kunit_suite rxe_hdr_suite = {
	.name = "rdma_rxe_hdr",
	.test_cases = rxe_hdr_cases,
};

kunit_test_suite(rxe_hdr_suite);

MODULE_DESCRIPTION("KUnit suite of rdma_rxe's wire headers and ICRC");
MODULE_LICENSE("Dual BSD/GPL");
