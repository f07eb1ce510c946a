// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "ipoib_addr": IPoIB hardware addresses, the broadcast
 * address of a P_Key, the multicast addresses the IP stack maps onto it,
 * and the pseudo-header between hard_header and the transmit routine
 * (ulp/ipoib/addr.c).
 */

#include <kunit/test.h>
#include <linux/if_packet.h>
#include <net/addrconf.h>
#include <net/ip.h>

#include "../ipoib.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static const union ib_gid gid_a = { .raw = {
	0xfe, 0x80, 0, 0, 0, 0, 0, 0,
	0x02, 0xfa, 0x4e, 0x01, 0x00, 0x00, 0x01, 0x00 } };

/* flags, QPN (24 bits, big endian), GID: RFC 4391 9.1.1 */
static void ipoib_addr_hwaddr_layout(struct kunit *test)
{
	static const u8 want[INFINIBAND_ALEN] = {
		0x80, 0x12, 0x34, 0x56,
		0xfe, 0x80, 0, 0, 0, 0, 0, 0,
		0x02, 0xfa, 0x4e, 0x01, 0x00, 0x00, 0x01, 0x00 };
	u8 ha[INFINIBAND_ALEN];

	ipoib_make_hwaddr(ha, IPOIB_HW_FLAG_RC, 0x123456, &gid_a);
	KUNIT_EXPECT_MEMEQ(test, ha, want, sizeof(want));
	KUNIT_EXPECT_EQ(test, ipoib_hwaddr_qpn(ha), 0x123456);
	KUNIT_EXPECT_MEMEQ(test, ipoib_hwaddr_gid(ha)->raw, gid_a.raw, 16);
	KUNIT_EXPECT_FALSE(test, ipoib_hwaddr_is_mcast(ha));

	/* a QPN has 24 bits: the rest never reaches the flags byte */
	ipoib_make_hwaddr(ha, 0, 0x7abcdef, &gid_a);
	KUNIT_EXPECT_EQ(test, ha[0], 0);
	KUNIT_EXPECT_EQ(test, ipoib_hwaddr_qpn(ha), 0xabcdef);
}

static void ipoib_addr_broadcast(struct kunit *test)
{
	static const u8 want_ffff[INFINIBAND_ALEN] = {
		0x00, 0xff, 0xff, 0xff,
		0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0,
		0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff };
	u8 b[INFINIBAND_ALEN];

	ipoib_make_broadcast(b, 0xffff);
	KUNIT_EXPECT_MEMEQ(test, b, want_ffff, sizeof(want_ffff));
	KUNIT_EXPECT_TRUE(test, ipoib_hwaddr_is_mcast(b));
	KUNIT_EXPECT_EQ(test, ipoib_hwaddr_qpn(b), IPOIB_MCAST_QPN);

	/* the group's P_Key always carries the full membership bit */
	ipoib_make_broadcast(b, 0x0001);
	KUNIT_EXPECT_EQ(test, b[8], 0x80);
	KUNIT_EXPECT_EQ(test, b[9], 0x01);
	ipoib_make_broadcast(b, 0x8001);
	KUNIT_EXPECT_EQ(test, b[8], 0x80);
	KUNIT_EXPECT_EQ(test, b[9], 0x01);
	KUNIT_EXPECT_MEMEQ(test, b + 10, want_ffff + 10, 10);
	KUNIT_EXPECT_MEMEQ(test, b, want_ffff, 8);
}

/* what arp and ndisc derive from dev->broadcast is one of our groups */
static void ipoib_addr_ip_multicast(struct kunit *test)
{
	struct in6_addr all_nodes = IN6ADDR_LINKLOCAL_ALLNODES_INIT;
	u8 b[INFINIBAND_ALEN], other[INFINIBAND_ALEN];
	u8 m4[INFINIBAND_ALEN], m6[INFINIBAND_ALEN], bad[INFINIBAND_ALEN];

	ipoib_make_broadcast(b, 0x8001);
	ipoib_make_broadcast(other, 0x8002);
	ip_ib_mc_map(htonl(0xe0000001), b, m4);		/* 224.0.0.1 */
	ipv6_ib_mc_map(&all_nodes, b, m6);
	KUNIT_EXPECT_TRUE(test, ipoib_mgid_valid(m4, b));
	KUNIT_EXPECT_TRUE(test, ipoib_mgid_valid(m6, b));
	KUNIT_EXPECT_EQ(test, m4[6], 0x40);
	KUNIT_EXPECT_EQ(test, m6[6], 0x60);
	KUNIT_EXPECT_TRUE(test, ipoib_mgid_valid(b, b));

	/* another P_Key's group, a unicast QPN, a foreign signature */
	KUNIT_EXPECT_FALSE(test, ipoib_mgid_valid(m4, other));
	memcpy(bad, m4, sizeof(bad));
	bad[3] = 0x01;
	KUNIT_EXPECT_FALSE(test, ipoib_mgid_valid(bad, b));
	memcpy(bad, m4, sizeof(bad));
	bad[6] = 0x50;
	KUNIT_EXPECT_FALSE(test, ipoib_mgid_valid(bad, b));
	memcpy(bad, m4, sizeof(bad));
	bad[5] = 0x15;		/* site-local scope: not this link's */
	KUNIT_EXPECT_FALSE(test, ipoib_mgid_valid(bad, b));
}

static struct sk_buff *payload_skb(struct kunit *test, unsigned int len)
{
	struct sk_buff *skb = alloc_skb(64 + len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, 64);
	memset(skb_put(skb, len), 0xab, len);
	return skb;
}

static void ipoib_addr_pseudo_header(struct kunit *test)
{
	struct sk_buff *skb = payload_skb(test, 28);
	u8 ha[INFINIBAND_ALEN], got[INFINIBAND_ALEN];
	const struct ipoib_header *hdr;

	ipoib_make_hwaddr(ha, 0, 0x000048, &gid_a);
	KUNIT_EXPECT_EQ(test, ipoib_push_headers(skb, ETH_P_ARP, ha),
			IPOIB_HARD_LEN);
	KUNIT_EXPECT_EQ(test, skb->len, 28 + IPOIB_HARD_LEN);
	KUNIT_EXPECT_MEMEQ(test, skb->data, ha, INFINIBAND_ALEN);

	KUNIT_EXPECT_EQ(test, ipoib_pull_pseudo(skb, got), 0);
	KUNIT_EXPECT_MEMEQ(test, got, ha, INFINIBAND_ALEN);
	KUNIT_EXPECT_EQ(test, skb->len, 28 + IPOIB_ENCAP_LEN);
	hdr = (const struct ipoib_header *)skb->data;
	KUNIT_EXPECT_EQ(test, ntohs(hdr->proto), ETH_P_ARP);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(hdr->reserved), 0);
	KUNIT_EXPECT_EQ(test, skb->data[IPOIB_ENCAP_LEN], 0xab);
	kfree_skb(skb);

	/* no destination: an incomplete header, zeroes where it would be */
	skb = payload_skb(test, 8);
	KUNIT_EXPECT_EQ(test, ipoib_push_headers(skb, ETH_P_IP, NULL),
			-IPOIB_HARD_LEN);
	KUNIT_EXPECT_EQ(test, skb->data[0], 0);
	KUNIT_EXPECT_EQ(test, skb->data[19], 0);
	kfree_skb(skb);

	/* too short to hold both headers: refused, left as it was */
	skb = payload_skb(test, IPOIB_HARD_LEN - 1);
	KUNIT_EXPECT_EQ(test, ipoib_pull_pseudo(skb, got), -EINVAL);
	KUNIT_EXPECT_EQ(test, skb->len, IPOIB_HARD_LEN - 1);
	kfree_skb(skb);
}

static void ipoib_addr_rx_pkt_type(struct kunit *test)
{
	u8 grh[IB_GRH_BYTES] = {}, b[INFINIBAND_ALEN], m4[INFINIBAND_ALEN];
	u8 *dgid = grh + IPOIB_GRH_DGID_OFF;

	ipoib_make_broadcast(b, 0xffff);
	memcpy(dgid, b + 4, 16);
	KUNIT_EXPECT_EQ(test, ipoib_rx_pkt_type(grh, true, b),
			PACKET_BROADCAST);
	ip_ib_mc_map(htonl(0xe0000001), b, m4);
	memcpy(dgid, m4 + 4, 16);
	KUNIT_EXPECT_EQ(test, ipoib_rx_pkt_type(grh, true, b),
			PACKET_MULTICAST);
	/* the broadcast group of another P_Key is just a group */
	ipoib_make_broadcast(m4, 0x8001);
	memcpy(dgid, m4 + 4, 16);
	KUNIT_EXPECT_EQ(test, ipoib_rx_pkt_type(grh, true, b),
			PACKET_MULTICAST);
	memcpy(dgid, gid_a.raw, 16);
	KUNIT_EXPECT_EQ(test, ipoib_rx_pkt_type(grh, true, b), PACKET_HOST);
	/* without a GRH the 40 bytes are garbage: unicast */
	memcpy(dgid, b + 4, 16);
	KUNIT_EXPECT_EQ(test, ipoib_rx_pkt_type(grh, false, b), PACKET_HOST);
}

static struct kunit_case ipoib_addr_cases[] = {
	KUNIT_CASE(ipoib_addr_hwaddr_layout),
	KUNIT_CASE(ipoib_addr_broadcast),
	KUNIT_CASE(ipoib_addr_ip_multicast),
	KUNIT_CASE(ipoib_addr_pseudo_header),
	KUNIT_CASE(ipoib_addr_rx_pkt_type),
	{}
};

static struct kunit_suite ipoib_addr_suite = {
	.name = "ipoib_addr",
	.test_cases = ipoib_addr_cases,
};

kunit_test_suite(ipoib_addr_suite);

MODULE_DESCRIPTION("KUnit tests of IPoIB hardware addresses and headers");
MODULE_LICENSE("Dual BSD/GPL");
