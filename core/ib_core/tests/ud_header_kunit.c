// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_ud_header": ib_pack()/ib_unpack() (core/ib_core/packer.c)
 * and the UD header API (core/ib_core/ud_header.c) against byte vectors written
 * out by hand from the IBTA vol. 1 layouts (LRH 7.7, GRH 8.3, BTH 9.2, DETH
 * 9.3.3), IEEE 802.3/802.1Q, RFC 791 and RFC 768.  No vector comes from
 * the code under test; each one says, field by field, what it encodes.
 */

#include <kunit/test.h>
#include <linux/in.h>
#include <linux/string.h>
#include <net/checksum.h>
#include <rdma/ib_pack.h>

/* Bytes the tests fill their buffers with before packing. */
#define FILL	0x3c

/* ----- ib_pack() / ib_unpack() on a descriptor of our own ----- */

struct pk_sample {
	u8	ver;
	__be16	tag;
	__be64	big;
	u8	flag;
	u8	three;
	__be32	qpn;
	__be64	guid;
	u8	gid[16];
	__be16	small16;
	u8	blob[10];
	u8	tail8;
	__be32	cross20;
	u32	untouched;	/* no field names it */
};

#define PK(member, word, bit, bits) {					\
	.struct_offset_bytes = offsetof(struct pk_sample, member),	\
	.struct_size_bytes = sizeof_field(struct pk_sample, member),	\
	.offset_words = (word), .offset_bits = (bit), .size_bits = (bits), \
	.field_name = #member }
#define PK_RSVD(word, bit, bits) {					\
	RESERVED, .offset_words = (word), .offset_bits = (bit),	\
	.size_bits = (bits) }

static const struct ib_field pk_fields[] = {
	PK(ver,		0,  0,   4),
	PK(tag,		0,  4,  12),
	PK_RSVD(0, 16, 8),
	PK(big,		0, 24,  40),	/* crosses into word 1 */
	PK(flag,	2,  0,   1),
	PK(three,	2,  1,   3),
	PK(qpn,		2,  4,  24),	/* word 2 bits 28..31: no field */
	PK(guid,	3,  0,  64),	/* odd word: bytes 12..19 */
	PK(gid,		5,  0, 128),
	PK(small16,	9,  0,  16),
	PK(blob,	9, 16,  80),	/* byte string from mid-word */
	PK(tail8,	12, 0,   8),
	PK_RSVD(12, 8, 12),
	PK(cross20,	12, 20, 20),	/* 20 bits across words 12 and 13 */
	PK_RSVD(14, 0, 96),	/* reserved byte string */
};

#define PK_BYTES	68

static const struct pk_sample pk_values = {
	.ver = 0x6,
	.tag = cpu_to_be16(0xabc),
	.big = cpu_to_be64(0x123456789aULL),
	.flag = 1,
	.three = 0x5,
	.qpn = cpu_to_be32(0xfedcba),
	.guid = cpu_to_be64(0x0011223344556677ULL),
	.gid = { 0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7,
		 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff },
	.small16 = cpu_to_be16(0xbeef),
	.blob = { 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9 },
	.tail8 = 0x5a,
	.cross20 = cpu_to_be32(0xc0ffe),
};

/* pk_values packed into a buffer of FILL bytes */
static const u8 pk_wire[PK_BYTES] = {
	/* ver 0110, tag 1010 1011 1100, rsvd 0x00, big[39:32] 0x12 */
	0x6a, 0xbc, 0x00, 0x12,
	/* big[31:0] */
	0x34, 0x56, 0x78, 0x9a,
	/* flag 1, three 101, qpn 0xfedcba, 4 bits of FILL (1100) */
	0xdf, 0xed, 0xcb, 0xac,
	/* guid */
	0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
	/* gid */
	0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7,
	0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff,
	/* small16, then blob */
	0xbe, 0xef, 0xa0, 0xa1,
	0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9,
	/* tail8 0x5a, rsvd 12 zero bits, cross20[19:8] 1100 0000 1111 */
	0x5a, 0x00, 0x0c, 0x0f,
	/* cross20[7:0] 0xfe, then 24 bits of FILL */
	0xfe, FILL, FILL, FILL,
	/* reserved byte string */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static void pack_exact_bytes(struct kunit *test)
{
	struct pk_sample s = pk_values;
	u8 buf[PK_BYTES + 4];

	memset(buf, FILL, sizeof(buf));
	ib_pack(pk_fields, ARRAY_SIZE(pk_fields), &s, buf);
	KUNIT_EXPECT_MEMEQ(test, buf, pk_wire, PK_BYTES);
	/* nothing written past the last field */
	KUNIT_EXPECT_EQ(test, buf[PK_BYTES], FILL);
	KUNIT_EXPECT_EQ(test, buf[PK_BYTES + 3], FILL);
	/* the structure is only read */
	KUNIT_EXPECT_MEMEQ(test, &s, &pk_values, sizeof(s));

	/* the bits outside the fields keep what was there */
	memset(buf, 0, sizeof(buf));
	ib_pack(pk_fields, ARRAY_SIZE(pk_fields), &s, buf);
	KUNIT_EXPECT_EQ(test, buf[11], 0xa0);
	KUNIT_EXPECT_EQ(test, buf[53], 0);
}

static void pack_truncates(struct kunit *test)
{
	struct pk_sample s = pk_values;
	u8 buf[PK_BYTES];

	/* bits above each field's width are dropped */
	s.ver = 0xf6;
	s.tag = cpu_to_be16(0xfabc);
	s.big = cpu_to_be64(0xffffff123456789aULL);
	s.flag = 0xff;
	s.three = 0xfd;
	s.qpn = cpu_to_be32(0xabfedcba);
	s.tail8 = 0x5a;
	s.cross20 = cpu_to_be32(0xfffc0ffe);
	memset(buf, FILL, sizeof(buf));
	ib_pack(pk_fields, ARRAY_SIZE(pk_fields), &s, buf);
	KUNIT_EXPECT_MEMEQ(test, buf, pk_wire, PK_BYTES);

	/* one field alone: only its bits change */
	memset(buf, 0xff, sizeof(buf));
	s.qpn = 0;
	ib_pack(&pk_fields[6], 1, &s, buf);
	KUNIT_EXPECT_EQ(test, buf[7], 0xff);
	KUNIT_EXPECT_EQ(test, buf[8], 0xf0);
	KUNIT_EXPECT_EQ(test, buf[9], 0x00);
	KUNIT_EXPECT_EQ(test, buf[10], 0x00);
	KUNIT_EXPECT_EQ(test, buf[11], 0x0f);
	KUNIT_EXPECT_EQ(test, buf[12], 0xff);
}

static void unpack_round_trip(struct kunit *test)
{
	u8 buf[PK_BYTES];
	struct pk_sample s;

	memcpy(buf, pk_wire, sizeof(buf));
	memset(&s, 0, sizeof(s));
	s.untouched = 0x77;
	ib_unpack(pk_fields, ARRAY_SIZE(pk_fields), buf, &s);
	KUNIT_EXPECT_EQ(test, s.ver, 0x6);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(s.tag), 0xabc);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(s.big), 0x123456789aULL);
	KUNIT_EXPECT_EQ(test, s.flag, 1);
	KUNIT_EXPECT_EQ(test, s.three, 0x5);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(s.qpn), 0xfedcba);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(s.guid), 0x0011223344556677ULL);
	KUNIT_EXPECT_MEMEQ(test, s.gid, pk_values.gid, sizeof(s.gid));
	KUNIT_EXPECT_EQ(test, be16_to_cpu(s.small16), 0xbeef);
	KUNIT_EXPECT_MEMEQ(test, s.blob, pk_values.blob, sizeof(s.blob));
	KUNIT_EXPECT_EQ(test, s.tail8, 0x5a);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(s.cross20), 0xc0ffe);
	KUNIT_EXPECT_EQ(test, s.untouched, 0x77);
	/* the buffer is only read */
	KUNIT_EXPECT_MEMEQ(test, buf, pk_wire, sizeof(buf));

	/* and packing it again gives the same bytes */
	memset(buf, FILL, sizeof(buf));
	ib_pack(pk_fields, ARRAY_SIZE(pk_fields), &s, buf);
	KUNIT_EXPECT_MEMEQ(test, buf, pk_wire, PK_BYTES);
}

/* ----- UD headers ----- */

static const u8 mac_a[ETH_ALEN] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55 };
static const u8 mac_b[ETH_ALEN] = { 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee };

/* fe80::2aa:bbff:fecc:ddee and fe80::211:22ff:fe33:4455 (from the MACs) */
static const u8 gid_link_b[16] = {
	0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0xaa, 0xbb, 0xff, 0xfe, 0xcc, 0xdd, 0xee };
static const u8 gid_link_a[16] = {
	0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55 };

static void set_macs(struct ib_ud_header *h)
{
	/* destination mac_a, source mac_b */
	memcpy(h->eth.dmac_h, mac_a, 4);
	memcpy(h->eth.dmac_l, mac_a + 4, 2);
	memcpy(h->eth.smac_h, mac_b, 2);
	memcpy(h->eth.smac_l, mac_b + 2, 4);
}

/* Packs @h into a buffer of FILL bytes; checks length, bytes, the rest. */
static void expect_packed(struct kunit *test, struct ib_ud_header *h,
			  const u8 *want, int len)
{
	u8 buf[128];

	memset(buf, FILL, sizeof(buf));
	KUNIT_ASSERT_EQ(test, ib_ud_header_pack(h, buf), len);
	KUNIT_EXPECT_MEMEQ(test, buf, want, len);
	KUNIT_EXPECT_EQ(test, buf[len], FILL);
}

/* A: InfiniBand, LRH + BTH + DETH, 13 bytes of payload */
static const u8 ud_ib_local[] = {
	/* LRH: VL 3, LVer 0 | SL 5, rsvd, LNH 2 (IBA local) | DLID 0x1234 */
	0x30, 0x52, 0x12, 0x34,
	/* rsvd, PktLen (8 + 12 + 8 + 13 + 4 ICRC + 3) / 4 = 12 | SLID 0x42 */
	0x00, 0x0c, 0x00, 0x42,
	/* BTH: opcode 0x64 UD SEND Only | SE 1, M 0, Pad 3, TVer 0 (1011 0000)
	 * | P_Key 0xffff
	 */
	0x64, 0xb0, 0xff, 0xff,
	/* rsvd | DestQP 1 */
	0x00, 0x00, 0x00, 0x01,
	/* A 1, rsvd | PSN 0x000abc */
	0x80, 0x00, 0x0a, 0xbc,
	/* DETH: Q_Key 0x80010000 | rsvd, SrcQP 1 */
	0x80, 0x01, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x01,
};

static void ud_pack_ib_local(struct kunit *test)
{
	struct ib_ud_header h;

	KUNIT_ASSERT_EQ(test, ib_ud_header_init(13, 1, 0, 0, 0, 0, 0, 0, &h), 0);
	KUNIT_EXPECT_EQ(test, h.lrh_present, 1);
	KUNIT_EXPECT_EQ(test, h.eth_present, 0);
	KUNIT_EXPECT_EQ(test, h.vlan_present, 0);
	KUNIT_EXPECT_EQ(test, h.grh_present, 0);
	KUNIT_EXPECT_EQ(test, h.ipv4_present, 0);
	KUNIT_EXPECT_EQ(test, h.udp_present, 0);
	KUNIT_EXPECT_EQ(test, h.immediate_present, 0);
	KUNIT_EXPECT_EQ(test, h.lrh.link_next_header, IB_LNH_IBA_LOCAL);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.lrh.packet_length), 12);
	KUNIT_EXPECT_EQ(test, h.bth.opcode, IB_OPCODE_UD_SEND_ONLY);
	KUNIT_EXPECT_EQ(test, h.bth.pad_count, 3);

	h.lrh.virtual_lane = 3;
	h.lrh.service_level = 5;
	h.lrh.destination_lid = cpu_to_be16(0x1234);
	h.lrh.source_lid = cpu_to_be16(0x42);
	h.bth.solicited_event = 1;
	h.bth.pkey = cpu_to_be16(0xffff);
	h.bth.destination_qpn = cpu_to_be32(1);
	h.bth.ack_req = 1;
	h.bth.psn = cpu_to_be32(0xabc);
	h.deth.qkey = cpu_to_be32(0x80010000);
	h.deth.source_qpn = cpu_to_be32(1);
	expect_packed(test, &h, ud_ib_local, sizeof(ud_ib_local));
}

/* B: InfiniBand, LRH + GRH + BTH + DETH + immediate, 256 bytes of payload */
static const u8 ud_ib_global[] = {
	/* LRH: VL 0, LVer 0 | SL 0, LNH 3 (IBA global) | DLID 0xc001 */
	0x00, 0x03, 0xc0, 0x01,
	/* PktLen (8 + 40 + 12 + 8 + 256 + 4 + 3) / 4 = 82 | SLID 7 */
	0x00, 0x52, 0x00, 0x07,
	/* GRH: IPVer 6 | TClass 0x12 | FlowLabel 0x34567 */
	0x61, 0x23, 0x45, 0x67,
	/* PayLen (12 + 8 + 256 + 4 + 3) & ~3 = 280 | NxtHdr 0x1b | HopLmt 64 */
	0x01, 0x18, 0x1b, 0x40,
	/* SGID fe80::2:c903:1:2345 */
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x02, 0xc9, 0x03, 0x00, 0x01, 0x23, 0x45,
	/* DGID ff12:401b:ffff::1 */
	0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	/* BTH: opcode 0x65 UD SEND Only with immediate | SE 0, M 0, Pad 0,
	 * TVer 0 | P_Key 0x8001
	 */
	0x65, 0x00, 0x80, 0x01,
	/* rsvd | DestQP 0xffffff */
	0x00, 0xff, 0xff, 0xff,
	/* A 0 | PSN 0x123456 */
	0x00, 0x12, 0x34, 0x56,
	/* DETH: Q_Key 0x11223344 | rsvd, SrcQP 0xabc */
	0x11, 0x22, 0x33, 0x44,
	0x00, 0x00, 0x0a, 0xbc,
	/* ImmDt */
	0xde, 0xad, 0xbe, 0xef,
};

static const u8 gid_ib_src[16] = {
	0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x00, 0x02, 0xc9, 0x03, 0x00, 0x01, 0x23, 0x45 };
static const u8 gid_ib_mcast[16] = {
	0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01 };

static void ud_pack_ib_global(struct kunit *test)
{
	struct ib_ud_header h;

	KUNIT_ASSERT_EQ(test, ib_ud_header_init(256, 1, 0, 0, 1, 0, 0, 1, &h), 0);
	KUNIT_EXPECT_EQ(test, h.grh_present, 1);
	KUNIT_EXPECT_EQ(test, h.immediate_present, 1);
	KUNIT_EXPECT_EQ(test, h.lrh.link_next_header, IB_LNH_IBA_GLOBAL);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.lrh.packet_length), 82);
	KUNIT_EXPECT_EQ(test, h.grh.ip_version, 6);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.grh.payload_length), 280);
	KUNIT_EXPECT_EQ(test, h.grh.next_header, 0x1b);
	KUNIT_EXPECT_EQ(test, h.bth.opcode,
			IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE);
	KUNIT_EXPECT_EQ(test, h.bth.pad_count, 0);

	h.lrh.destination_lid = cpu_to_be16(0xc001);
	h.lrh.source_lid = cpu_to_be16(7);
	h.grh.traffic_class = 0x12;
	h.grh.flow_label = cpu_to_be32(0x34567);
	h.grh.hop_limit = 64;
	memcpy(h.grh.source_gid.raw, gid_ib_src, 16);
	memcpy(h.grh.destination_gid.raw, gid_ib_mcast, 16);
	h.bth.pkey = cpu_to_be16(0x8001);
	h.bth.destination_qpn = cpu_to_be32(0xffffff);
	h.bth.psn = cpu_to_be32(0x123456);
	h.deth.qkey = cpu_to_be32(0x11223344);
	h.deth.source_qpn = cpu_to_be32(0xabc);
	h.immediate_data = cpu_to_be32(0xdeadbeef);
	expect_packed(test, &h, ud_ib_global, sizeof(ud_ib_global));
}

/* C: RoCE v1, Ethernet + GRH + BTH + DETH, 64 bytes of payload */
static const u8 ud_roce_v1[] = {
	/* Ethernet: destination mac_a, source mac_b, EtherType 0x8915 */
	0x00, 0x11, 0x22, 0x33, 0x44, 0x55,
	0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee,
	0x89, 0x15,
	/* GRH: IPVer 6 | TClass 0 | FlowLabel 0 */
	0x60, 0x00, 0x00, 0x00,
	/* PayLen (12 + 8 + 64 + 4 + 3) & ~3 = 88 | NxtHdr 0x1b | HopLmt 1 */
	0x00, 0x58, 0x1b, 0x01,
	/* SGID gid_link_b */
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x02, 0xaa, 0xbb, 0xff, 0xfe, 0xcc, 0xdd, 0xee,
	/* DGID gid_link_a */
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55,
	/* BTH: opcode 0x64 | SE 0, M 0, Pad 0, TVer 0 | P_Key 0xffff */
	0x64, 0x00, 0xff, 0xff,
	/* rsvd | DestQP 1 */
	0x00, 0x00, 0x00, 0x01,
	/* A 0 | PSN 0 */
	0x00, 0x00, 0x00, 0x00,
	/* DETH: Q_Key 0x80010000 | SrcQP 1 */
	0x80, 0x01, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x01,
};

static void ud_pack_roce_v1(struct kunit *test)
{
	struct ib_ud_header h;

	KUNIT_ASSERT_EQ(test, ib_ud_header_init(64, 0, 1, 0, 1, 0, 0, 0, &h), 0);
	KUNIT_EXPECT_EQ(test, h.lrh_present, 0);
	KUNIT_EXPECT_EQ(test, h.eth_present, 1);
	KUNIT_EXPECT_EQ(test, h.grh_present, 1);
	KUNIT_EXPECT_EQ(test, h.ipv4_present, 0);
	KUNIT_EXPECT_EQ(test, h.udp_present, 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.grh.payload_length), 88);
	KUNIT_EXPECT_EQ(test, h.grh.next_header, 0x1b);
	/* no LRH: its fields stay clear */
	KUNIT_EXPECT_EQ(test, h.lrh.link_next_header, 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.lrh.packet_length), 0);

	set_macs(&h);
	h.eth.type = cpu_to_be16(ETH_P_IBOE);
	h.grh.hop_limit = 1;
	memcpy(h.grh.source_gid.raw, gid_link_b, 16);
	memcpy(h.grh.destination_gid.raw, gid_link_a, 16);
	h.bth.pkey = cpu_to_be16(0xffff);
	h.bth.destination_qpn = cpu_to_be32(1);
	h.deth.qkey = cpu_to_be32(0x80010000);
	h.deth.source_qpn = cpu_to_be32(1);
	expect_packed(test, &h, ud_roce_v1, sizeof(ud_roce_v1));
}

/* D: RoCE v1 tagged, Ethernet + VLAN + GRH + BTH + DETH + immediate,
 * 1 byte of payload
 */
static const u8 ud_roce_v1_vlan[] = {
	/* Ethernet: mac_a, mac_b, EtherType 0x8100 (set by init) */
	0x00, 0x11, 0x22, 0x33, 0x44, 0x55,
	0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee,
	0x81, 0x00,
	/* 802.1Q: PCP 3, DEI 0, VID 100 | EtherType 0x8915 */
	0x60, 0x64, 0x89, 0x15,
	/* GRH: IPVer 6 | TClass 0xb8 | FlowLabel 0xfffff */
	0x6b, 0x8f, 0xff, 0xff,
	/* PayLen (12 + 8 + 1 + 4 + 3) & ~3 = 28 | NxtHdr 0x1b | HopLmt 64 */
	0x00, 0x1c, 0x1b, 0x40,
	/* SGID gid_link_b */
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x02, 0xaa, 0xbb, 0xff, 0xfe, 0xcc, 0xdd, 0xee,
	/* DGID gid_link_a */
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55,
	/* BTH: opcode 0x65 | SE 0, M 0, Pad 3, TVer 0 (0011 0000) | P_Key */
	0x65, 0x30, 0xff, 0xff,
	/* rsvd | DestQP 1 */
	0x00, 0x00, 0x00, 0x01,
	/* A 0 | PSN 0 */
	0x00, 0x00, 0x00, 0x00,
	/* DETH: Q_Key 0x80010000 | SrcQP 1 */
	0x80, 0x01, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x01,
	/* ImmDt */
	0x01, 0x02, 0x03, 0x04,
};

static void ud_pack_roce_v1_vlan(struct kunit *test)
{
	struct ib_ud_header h;

	KUNIT_ASSERT_EQ(test, ib_ud_header_init(1, 0, 1, 1, 1, 0, 0, 1, &h), 0);
	KUNIT_EXPECT_EQ(test, h.vlan_present, 1);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.eth.type), ETH_P_8021Q);
	KUNIT_EXPECT_EQ(test, h.bth.pad_count, 3);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.grh.payload_length), 28);

	set_macs(&h);
	h.vlan.tag = cpu_to_be16((3 << 13) | 100);
	h.vlan.type = cpu_to_be16(ETH_P_IBOE);
	h.grh.traffic_class = 0xb8;
	h.grh.flow_label = cpu_to_be32(0xfffff);
	h.grh.hop_limit = 64;
	memcpy(h.grh.source_gid.raw, gid_link_b, 16);
	memcpy(h.grh.destination_gid.raw, gid_link_a, 16);
	h.bth.pkey = cpu_to_be16(0xffff);
	h.bth.destination_qpn = cpu_to_be32(1);
	h.deth.qkey = cpu_to_be32(0x80010000);
	h.deth.source_qpn = cpu_to_be32(1);
	h.immediate_data = cpu_to_be32(0x01020304);
	expect_packed(test, &h, ud_roce_v1_vlan, sizeof(ud_roce_v1_vlan));
}

/*
 * E: RoCE v2 over IPv4, Ethernet + IPv4 + UDP + BTH + DETH, 32 bytes of
 * payload.  The IPv4 checksum by hand, 16-bit words with the checksum 0:
 *   4502 + 0054 + 1c46 + 4000 + 4011 + 0000 + c0a8 + 0101 + c0a8 + 0102
 *   = 0x26500; folded 0x6500 + 0x2 = 0x6502; complement 0x9afd.
 */
#define UD_IP4_CSUM	0x9afd

static const u8 ud_roce_v2_ip4[] = {
	/* Ethernet: mac_a, mac_b, EtherType 0x0800 */
	0x00, 0x11, 0x22, 0x33, 0x44, 0x55,
	0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee,
	0x08, 0x00,
	/* IPv4: version 4, IHL 5 | TOS 0x02 |
	 * total length 20 + 8 + 12 + 8 + 32 + 4 = 84
	 */
	0x45, 0x02, 0x00, 0x54,
	/* ID 0x1c46 | DF, offset 0 */
	0x1c, 0x46, 0x40, 0x00,
	/* TTL 64 | protocol 17 (UDP) | checksum */
	0x40, 0x11, 0x9a, 0xfd,
	/* source 192.168.1.1, destination 192.168.1.2 */
	0xc0, 0xa8, 0x01, 0x01,
	0xc0, 0xa8, 0x01, 0x02,
	/* UDP: source port 0xc000 | destination 4791 |
	 * length 8 + 12 + 8 + 32 + 4 = 64 | checksum 0
	 */
	0xc0, 0x00, 0x12, 0xb7,
	0x00, 0x40, 0x00, 0x00,
	/* BTH: opcode 0x64 | 0 | P_Key 0xffff | rsvd, DestQP 0x11 |
	 * A 0, PSN 1
	 */
	0x64, 0x00, 0xff, 0xff,
	0x00, 0x00, 0x00, 0x11,
	0x00, 0x00, 0x00, 0x01,
	/* DETH: Q_Key 0x80010000 | SrcQP 1 */
	0x80, 0x01, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x01,
};

static void ud_pack_roce_v2_ip4(struct kunit *test)
{
	struct ib_ud_header h;
	__sum16 csum;

	/* a GRH asked for beside an IP version is dropped */
	KUNIT_ASSERT_EQ(test, ib_ud_header_init(32, 0, 1, 0, 1, 4, 1, 0, &h), 0);
	KUNIT_EXPECT_EQ(test, h.grh_present, 0);
	KUNIT_EXPECT_EQ(test, h.ipv4_present, 1);
	KUNIT_EXPECT_EQ(test, h.udp_present, 1);
	KUNIT_EXPECT_EQ(test, h.ip4.ver, 4);
	KUNIT_EXPECT_EQ(test, h.ip4.hdr_len, 5);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.ip4.tot_len), 84);
	KUNIT_EXPECT_EQ(test, h.ip4.protocol, IPPROTO_UDP);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.udp.length), 64);
	/* init leaves the checksum to the caller */
	KUNIT_EXPECT_EQ(test, (__force u16)h.ip4.check, 0);

	set_macs(&h);
	h.eth.type = cpu_to_be16(ETH_P_IP);
	h.ip4.tos = 0x02;
	h.ip4.id = cpu_to_be16(0x1c46);
	h.ip4.frag_off = cpu_to_be16(0x4000);	/* DF */
	h.ip4.ttl = 64;
	h.ip4.saddr = cpu_to_be32(0xc0a80101);
	h.ip4.daddr = cpu_to_be32(0xc0a80102);
	/* whatever the check field holds, it counts as 0 */
	h.ip4.check = (__force __sum16)0x1234;
	csum = ib_ud_ip4_csum(&h);
	KUNIT_EXPECT_EQ(test, (__force u16)csum,
			(__force u16)cpu_to_be16(UD_IP4_CSUM));
	h.ip4.check = csum;
	h.udp.sport = cpu_to_be16(0xc000);
	h.udp.dport = cpu_to_be16(4791);
	h.bth.pkey = cpu_to_be16(0xffff);
	h.bth.destination_qpn = cpu_to_be32(0x11);
	h.bth.psn = cpu_to_be32(1);
	h.deth.qkey = cpu_to_be32(0x80010000);
	h.deth.source_qpn = cpu_to_be32(1);
	expect_packed(test, &h, ud_roce_v2_ip4, sizeof(ud_roce_v2_ip4));
	/* the packed IPv4 header verifies: its checksum sums to 0 */
	KUNIT_EXPECT_EQ(test, (__force u16)ip_fast_csum(ud_roce_v2_ip4 + 14, 5), 0);
}

/*
 * F: RoCE v2 over IPv6, Ethernet + GRH (the IPv6 header) + UDP + BTH +
 * DETH + immediate, 1024 bytes of payload
 */
static const u8 ud_roce_v2_ip6[] = {
	/* Ethernet: mac_a, mac_b, EtherType 0x86dd */
	0x00, 0x11, 0x22, 0x33, 0x44, 0x55,
	0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee,
	0x86, 0xdd,
	/* IPv6: version 6 | traffic class 0x03 | flow label 0x12345 */
	0x60, 0x31, 0x23, 0x45,
	/* payload length (8 + 12 + 8 + 1024 + 4 + 3) & ~3 = 1056 |
	 * next header 17 (UDP) | hop limit 64
	 */
	0x04, 0x20, 0x11, 0x40,
	/* source 2001:db8::1 */
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	/* destination 2001:db8::2 */
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
	/* UDP: source port 0xd1e7 | 4791 | length 8 + 12 + 8 + 1024 + 4 =
	 * 1056 | checksum 0
	 */
	0xd1, 0xe7, 0x12, 0xb7,
	0x04, 0x20, 0x00, 0x00,
	/* BTH: opcode 0x65 | 0 | P_Key 0x7fff | rsvd, DestQP 0x123456 |
	 * A 0, PSN 0xffffff
	 */
	0x65, 0x00, 0x7f, 0xff,
	0x00, 0x12, 0x34, 0x56,
	0x00, 0xff, 0xff, 0xff,
	/* DETH: Q_Key 0x80010000 | SrcQP 1 */
	0x80, 0x01, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x01,
	/* ImmDt */
	0xca, 0xfe, 0xf0, 0x0d,
};

static const u8 ip6_a[16] = {
	0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01 };
static const u8 ip6_b[16] = {
	0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02 };

static void ud_pack_roce_v2_ip6(struct kunit *test)
{
	struct ib_ud_header h;

	KUNIT_ASSERT_EQ(test, ib_ud_header_init(1024, 0, 1, 0, 0, 6, 1, 1, &h), 0);
	/* the IPv6 header is the GRH */
	KUNIT_EXPECT_EQ(test, h.grh_present, 1);
	KUNIT_EXPECT_EQ(test, h.ipv4_present, 0);
	KUNIT_EXPECT_EQ(test, h.udp_present, 1);
	KUNIT_EXPECT_EQ(test, h.grh.ip_version, 6);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.grh.payload_length), 1056);
	KUNIT_EXPECT_EQ(test, h.grh.next_header, IPPROTO_UDP);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.udp.length), 1056);

	set_macs(&h);
	h.eth.type = cpu_to_be16(ETH_P_IPV6);
	h.grh.traffic_class = 0x03;
	h.grh.flow_label = cpu_to_be32(0x12345);
	h.grh.hop_limit = 64;
	memcpy(h.grh.source_gid.raw, ip6_a, 16);
	memcpy(h.grh.destination_gid.raw, ip6_b, 16);
	h.udp.sport = cpu_to_be16(0xd1e7);
	h.udp.dport = cpu_to_be16(4791);
	h.bth.pkey = cpu_to_be16(0x7fff);
	h.bth.destination_qpn = cpu_to_be32(0x123456);
	h.bth.psn = cpu_to_be32(0xffffff);
	h.deth.qkey = cpu_to_be32(0x80010000);
	h.deth.source_qpn = cpu_to_be32(1);
	h.immediate_data = cpu_to_be32(0xcafef00d);
	expect_packed(test, &h, ud_roce_v2_ip6, sizeof(ud_roce_v2_ip6));
}

/* ----- ib_ud_header_unpack() ----- */

static void ud_unpack_ib_local(struct kunit *test)
{
	u8 buf[sizeof(ud_ib_local)];
	struct ib_ud_header h;

	memcpy(buf, ud_ib_local, sizeof(buf));
	memset(&h, 0, sizeof(h));
	h.grh_present = 1;
	h.immediate_present = 1;
	h.lrh_present = 7;	/* unpack leaves it */
	KUNIT_ASSERT_EQ(test, ib_ud_header_unpack(buf, &h), 0);
	KUNIT_EXPECT_EQ(test, h.grh_present, 0);
	KUNIT_EXPECT_EQ(test, h.immediate_present, 0);
	KUNIT_EXPECT_EQ(test, h.lrh_present, 7);
	KUNIT_EXPECT_EQ(test, h.lrh.virtual_lane, 3);
	KUNIT_EXPECT_EQ(test, h.lrh.link_version, 0);
	KUNIT_EXPECT_EQ(test, h.lrh.service_level, 5);
	KUNIT_EXPECT_EQ(test, h.lrh.link_next_header, IB_LNH_IBA_LOCAL);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.lrh.destination_lid), 0x1234);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.lrh.packet_length), 12);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.lrh.source_lid), 0x42);
	KUNIT_EXPECT_EQ(test, h.bth.opcode, IB_OPCODE_UD_SEND_ONLY);
	KUNIT_EXPECT_EQ(test, h.bth.solicited_event, 1);
	KUNIT_EXPECT_EQ(test, h.bth.mig_req, 0);
	KUNIT_EXPECT_EQ(test, h.bth.pad_count, 3);
	KUNIT_EXPECT_EQ(test, h.bth.transport_header_version, 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.bth.pkey), 0xffff);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h.bth.destination_qpn), 1);
	KUNIT_EXPECT_EQ(test, h.bth.ack_req, 1);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h.bth.psn), 0xabc);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h.deth.qkey), 0x80010000);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h.deth.source_qpn), 1);
}

static void ud_unpack_ib_global(struct kunit *test)
{
	u8 buf[sizeof(ud_ib_global)];
	struct ib_ud_header h;

	memcpy(buf, ud_ib_global, sizeof(buf));
	memset(&h, 0, sizeof(h));
	KUNIT_ASSERT_EQ(test, ib_ud_header_unpack(buf, &h), 0);
	KUNIT_EXPECT_EQ(test, h.grh_present, 1);
	KUNIT_EXPECT_EQ(test, h.immediate_present, 1);
	KUNIT_EXPECT_EQ(test, h.lrh.link_next_header, IB_LNH_IBA_GLOBAL);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.lrh.destination_lid), 0xc001);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.lrh.packet_length), 82);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.lrh.source_lid), 7);
	KUNIT_EXPECT_EQ(test, h.grh.ip_version, 6);
	KUNIT_EXPECT_EQ(test, h.grh.traffic_class, 0x12);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h.grh.flow_label), 0x34567);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.grh.payload_length), 280);
	KUNIT_EXPECT_EQ(test, h.grh.next_header, 0x1b);
	KUNIT_EXPECT_EQ(test, h.grh.hop_limit, 64);
	KUNIT_EXPECT_MEMEQ(test, h.grh.source_gid.raw, gid_ib_src, 16);
	KUNIT_EXPECT_MEMEQ(test, h.grh.destination_gid.raw, gid_ib_mcast, 16);
	KUNIT_EXPECT_EQ(test, h.bth.opcode,
			IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.bth.pkey), 0x8001);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h.bth.destination_qpn), 0xffffff);
	KUNIT_EXPECT_EQ(test, h.bth.ack_req, 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h.bth.psn), 0x123456);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h.deth.qkey), 0x11223344);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h.deth.source_qpn), 0xabc);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h.immediate_data), 0xdeadbeef);
}

/* A copy of @vec with byte @at replaced by @val, unpacked. */
static int unpack_altered(const u8 *vec, size_t len, size_t at, u8 val,
			  struct ib_ud_header *h)
{
	u8 buf[128];

	memcpy(buf, vec, len);
	buf[at] = val;
	memset(h, 0, sizeof(*h));
	return ib_ud_header_unpack(buf, h);
}

static void ud_unpack_refusals(struct kunit *test)
{
	const size_t ln = sizeof(ud_ib_local), gl = sizeof(ud_ib_global);
	struct ib_ud_header h;

	/* LRH byte 0: VL 3, LVer 1 */
	KUNIT_EXPECT_EQ(test, unpack_altered(ud_ib_local, ln, 0, 0x31, &h),
			-EINVAL);
	/* LRH byte 1: SL 5, LNH 0 (raw), then LNH 1 (IP) */
	KUNIT_EXPECT_EQ(test, unpack_altered(ud_ib_local, ln, 1, 0x50, &h),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, unpack_altered(ud_ib_local, ln, 1, 0x51, &h),
			-EINVAL);
	/* GRH byte 0: IPVer 4, TClass 0x12 high nibble */
	KUNIT_EXPECT_EQ(test, unpack_altered(ud_ib_global, gl, 8, 0x41, &h),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, h.grh_present, 1);
	KUNIT_EXPECT_EQ(test, h.grh.ip_version, 4);
	/* GRH NxtHdr 0x11 (UDP) */
	KUNIT_EXPECT_EQ(test, unpack_altered(ud_ib_global, gl, 14, 0x11, &h),
			-EINVAL);
	/* BTH opcode: RC SEND Only, UD opcode 0x66, UD SEND First (0x60) */
	KUNIT_EXPECT_EQ(test, unpack_altered(ud_ib_local, ln, 8,
					     IB_OPCODE_RC_SEND_ONLY, &h),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, h.bth.opcode, IB_OPCODE_RC_SEND_ONLY);
	KUNIT_EXPECT_EQ(test, unpack_altered(ud_ib_local, ln, 8, 0x66, &h),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, unpack_altered(ud_ib_global, gl, 48, 0x60, &h),
			-EINVAL);
	/* BTH byte 1: SE 1, Pad 3, TVer 1 */
	KUNIT_EXPECT_EQ(test, unpack_altered(ud_ib_local, ln, 9, 0xb1, &h),
			-EINVAL);
	/* the vectors themselves, through the same path */
	KUNIT_EXPECT_EQ(test, unpack_altered(ud_ib_local, ln, 0, 0x30, &h), 0);
	KUNIT_EXPECT_EQ(test, unpack_altered(ud_ib_global, gl, 8, 0x61, &h), 0);
}

/* ----- ib_ud_header_init() refusals ----- */

static void ud_init_refusals(struct kunit *test)
{
	struct ib_ud_header h;

	/* UDP without an IP header, or over an IP version that is not 4/6 */
	memset(&h, 0xff, sizeof(h));
	KUNIT_EXPECT_EQ(test, ib_ud_header_init(64, 0, 1, 0, 1, 0, 1, 0, &h),
			-EINVAL);
	/* refused, the header is cleared all the same */
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(&h, 0, sizeof(h)), NULL);
	KUNIT_EXPECT_EQ(test, ib_ud_header_init(64, 0, 1, 0, 0, 5, 1, 0, &h),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_ud_header_init(64, 1, 0, 0, 0, 0, 1, 1, &h),
			-EINVAL);

	/* another IP version without UDP is no error: no IP header at all */
	KUNIT_EXPECT_EQ(test, ib_ud_header_init(64, 0, 1, 0, 1, 5, 0, 0, &h), 0);
	KUNIT_EXPECT_EQ(test, h.grh_present, 0);
	KUNIT_EXPECT_EQ(test, h.ipv4_present, 0);
	KUNIT_EXPECT_EQ(test, h.udp_present, 0);
	/* IPv4 without UDP: the IPv4 header alone */
	KUNIT_EXPECT_EQ(test, ib_ud_header_init(64, 0, 1, 0, 0, 4, 0, 0, &h), 0);
	KUNIT_EXPECT_EQ(test, h.ipv4_present, 1);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.ip4.tot_len), 20 + 12 + 8 + 64 + 4);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h.udp.length), 0);
}

static struct kunit_case rdma_ud_header_cases[] = {
	KUNIT_CASE(pack_exact_bytes),
	KUNIT_CASE(pack_truncates),
	KUNIT_CASE(unpack_round_trip),
	KUNIT_CASE(ud_pack_ib_local),
	KUNIT_CASE(ud_pack_ib_global),
	KUNIT_CASE(ud_pack_roce_v1),
	KUNIT_CASE(ud_pack_roce_v1_vlan),
	KUNIT_CASE(ud_pack_roce_v2_ip4),
	KUNIT_CASE(ud_pack_roce_v2_ip6),
	KUNIT_CASE(ud_unpack_ib_local),
	KUNIT_CASE(ud_unpack_ib_global),
	KUNIT_CASE(ud_unpack_refusals),
	KUNIT_CASE(ud_init_refusals),
	{}
};

static struct kunit_suite rdma_ud_header_suite = {
	.name = "rdma_ud_header",
	.test_cases = rdma_ud_header_cases,
};

kunit_test_suite(rdma_ud_header_suite);

MODULE_DESCRIPTION("KUnit tests of ib_pack() and the UD header API");
MODULE_LICENSE("Dual BSD/GPL");
