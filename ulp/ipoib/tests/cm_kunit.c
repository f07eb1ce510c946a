// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "ipoib_cm": what connected mode puts on the wire (the
 * service ID of an interface, the private data of REQ and REP), the MTU
 * its receive buffers give, which peers take connections, how a message
 * received into pages becomes an skb, and which passive connections are
 * stale (ulp/ipoib/cm.c).
 */

#include <kunit/test.h>
#include <linux/skbuff.h>
#include <rdma/ib_cm.h>

#include "../ipoib.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static const union ib_gid gid_a = { .raw = {
	0xfe, 0x80, 0, 0, 0, 0, 0, 0,
	0x02, 0xfa, 0x4e, 0x01, 0x00, 0x00, 0x01, 0x00 } };

/* RFC 4755 3.1: 0x1000000000000000 | the UD QPN, on the wire big endian */
static void ipoib_cm_service_ids(struct kunit *test)
{
	static const u8 want[8] = { 0x10, 0, 0, 0, 0, 0x12, 0x34, 0x56 };
	__be64 sid = ipoib_cm_service_id(0x123456);

	KUNIT_EXPECT_MEMEQ(test, &sid, want, sizeof(want));
	/* only the QPN's 24 bits */
	KUNIT_EXPECT_EQ(test, be64_to_cpu(ipoib_cm_service_id(0x7abcdef)),
			0x1000000000abcdefULL);
	/* not in rdma_cm's range (0x0000000001PPPPPP) */
	KUNIT_EXPECT_NE(test, be64_to_cpu(ipoib_cm_service_id(1)) >> 24,
			be64_to_cpu(IB_CMA_SERVICE_ID) >> 24);
}

/* the sender's UD QPN, then its MTU, each 32 bits big endian */
static void ipoib_cm_private_data(struct kunit *test)
{
	static const u8 want[8] = { 0, 0xab, 0xcd, 0xef, 0, 0, 0xff, 0xf4 };
	u8 pdata[IB_CM_REP_PRIVATE_DATA_SIZE] = {};
	struct ipoib_cm_data data;
	u32 mtu = 0;

	BUILD_BUG_ON(sizeof(data) != 8);
	ipoib_cm_data_pack(&data, 0xabcdef, IPOIB_CM_BUF_SIZE);
	KUNIT_EXPECT_MEMEQ(test, &data, want, sizeof(want));

	/* a REP's private data: ours first, zeros after */
	memcpy(pdata, &data, sizeof(data));
	KUNIT_EXPECT_EQ(test, ipoib_cm_data_mtu(pdata, sizeof(pdata), &mtu), 0);
	KUNIT_EXPECT_EQ(test, mtu, IPOIB_CM_BUF_SIZE);

	/* a peer whose messages cannot hold the IPoIB header */
	ipoib_cm_data_pack(&data, 1, IPOIB_ENCAP_LEN);
	KUNIT_EXPECT_EQ(test, ipoib_cm_data_mtu(&data, sizeof(data), &mtu),
			-EINVAL);
	ipoib_cm_data_pack(&data, 1, 0);
	KUNIT_EXPECT_EQ(test, ipoib_cm_data_mtu(&data, sizeof(data), &mtu),
			-EINVAL);
	ipoib_cm_data_pack(&data, 1, IPOIB_ENCAP_LEN + 1);
	KUNIT_EXPECT_EQ(test, ipoib_cm_data_mtu(&data, sizeof(data), &mtu), 0);
	KUNIT_EXPECT_EQ(test, mtu, IPOIB_ENCAP_LEN + 1);
	/* too short, or none */
	KUNIT_EXPECT_EQ(test, ipoib_cm_data_mtu(&data, 7, &mtu), -EINVAL);
	KUNIT_EXPECT_EQ(test, ipoib_cm_data_mtu(NULL, 8, &mtu), -EINVAL);
}

static void ipoib_cm_mtus(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, IPOIB_CM_MTU, 65520);
	KUNIT_EXPECT_EQ(test, IPOIB_CM_BUF_SIZE, 65524);
	/* 16 pages of 4 KiB hold the largest; 4 pages less */
	KUNIT_EXPECT_EQ(test, ipoib_cm_mtu_of(16, SZ_4K), 65520);
	KUNIT_EXPECT_EQ(test, ipoib_cm_mtu_of(4, SZ_4K), 4 * SZ_4K - 16);
	KUNIT_EXPECT_EQ(test, ipoib_cm_mtu_of(1, SZ_4K), SZ_4K - 16);
	/* never above IPOIB_CM_MTU */
	KUNIT_EXPECT_EQ(test, ipoib_cm_mtu_of(17, SZ_4K), IPOIB_CM_MTU);
	KUNIT_EXPECT_EQ(test, ipoib_cm_mtu_of(1, SZ_64K), IPOIB_CM_MTU);
	/* the buffer of the largest has IPOIB_CM_RX_SG pages */
	KUNIT_EXPECT_EQ(test, ipoib_cm_mtu_of(IPOIB_CM_RX_SG, PAGE_SIZE),
			IPOIB_CM_MTU);
	KUNIT_EXPECT_LT(test, ipoib_cm_mtu_of(IPOIB_CM_RX_SG - 1, PAGE_SIZE),
			IPOIB_CM_MTU);
}

/* the flag in the first byte of a unicast address, and nothing else */
static void ipoib_cm_peers(struct kunit *test)
{
	u8 ha[INFINIBAND_ALEN], b[INFINIBAND_ALEN];

	ipoib_make_hwaddr(ha, IPOIB_HW_FLAG_RC, 0x48, &gid_a);
	KUNIT_EXPECT_TRUE(test, ipoib_cm_peer_capable(ha));
	ipoib_make_hwaddr(ha, 0, 0x48, &gid_a);
	KUNIT_EXPECT_FALSE(test, ipoib_cm_peer_capable(ha));
	/* the other bits of the byte are not the flag */
	ipoib_make_hwaddr(ha, 0x7f, 0x48, &gid_a);
	KUNIT_EXPECT_FALSE(test, ipoib_cm_peer_capable(ha));
	/* a group never */
	ipoib_make_broadcast(b, 0xffff);
	b[0] = IPOIB_HW_FLAG_RC;
	KUNIT_EXPECT_FALSE(test, ipoib_cm_peer_capable(b));
}

static u8 pattern(unsigned int off)
{
	return (off * 7 + off / 251) & 0xff;
}

/* a message of @len in fresh pages: the skb has it all, in order */
static void rx_skb_one(struct kunit *test, unsigned int len)
{
	struct page *pages[IPOIB_CM_RX_SG] = {};
	unsigned int n = ipoib_cm_rx_pages(len), i, j;
	struct sk_buff *skb;
	u8 *got;

	for (i = 0; i < IPOIB_CM_RX_SG; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);
		for (j = 0; j < PAGE_SIZE; j++)
			((u8 *)page_address(pages[i]))[j] =
				pattern(i * PAGE_SIZE + j);
	}
	got = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, got);

	skb = ipoib_cm_rx_skb(NULL, pages, len);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_EQ_MSG(test, skb->len, len, "len %u", len);
	KUNIT_EXPECT_GE(test, skb_headroom(skb), IPOIB_PSEUDO_LEN);
	KUNIT_EXPECT_EQ_MSG(test, skb_shinfo(skb)->nr_frags, n, "len %u", len);
	/* the headers in the linear part */
	KUNIT_EXPECT_EQ_MSG(test, skb_headlen(skb),
			    n ? IPOIB_CM_HEAD_COPY : len, "len %u", len);
	KUNIT_EXPECT_EQ(test, skb_copy_bits(skb, 0, got, len), 0);
	for (j = 0; j < len; j++)
		if (got[j] != pattern(j)) {
			KUNIT_FAIL(test, "len %u: byte %u is %#x, want %#x",
				   len, j, got[j], pattern(j));
			break;
		}
	/* the skb took the pages it holds, and only those */
	for (i = 0; i < IPOIB_CM_RX_SG; i++) {
		if (i < n)
			KUNIT_EXPECT_NULL(test, pages[i]);
		else
			KUNIT_EXPECT_NOT_NULL(test, pages[i]);
	}
	KUNIT_EXPECT_GE(test, skb->truesize, n * PAGE_SIZE);
	kfree_skb(skb);
	for (i = 0; i < IPOIB_CM_RX_SG; i++)
		if (pages[i])
			__free_page(pages[i]);
}

static void ipoib_cm_rx_skbs(struct kunit *test)
{
	static const unsigned int lens[] = {
		IPOIB_ENCAP_LEN, 100, IPOIB_CM_COPYBREAK,
		IPOIB_CM_COPYBREAK + 1, PAGE_SIZE - 1, PAGE_SIZE,
		PAGE_SIZE + 1, 2 * PAGE_SIZE + 17, 30028 + IPOIB_ENCAP_LEN,
		IPOIB_CM_BUF_SIZE,
	};
	unsigned int i;

	KUNIT_EXPECT_EQ(test, ipoib_cm_rx_pages(IPOIB_CM_COPYBREAK), 0);
	KUNIT_EXPECT_EQ(test, ipoib_cm_rx_pages(IPOIB_CM_COPYBREAK + 1), 1);
	KUNIT_EXPECT_EQ(test, ipoib_cm_rx_pages(PAGE_SIZE + 1), 2);
	KUNIT_EXPECT_EQ(test, ipoib_cm_rx_pages(IPOIB_CM_BUF_SIZE),
			IPOIB_CM_RX_SG);
	for (i = 0; i < ARRAY_SIZE(lens); i++)
		rx_skb_one(test, lens[i]);
}

/* those without a receive for longer than the timeout, in list order */
static void ipoib_cm_stale(struct kunit *test)
{
	static const unsigned long idle[] = { 10, 1000, 0, 1001, 5000 };
	const unsigned long timeout = 1000, now = jiffies;
	struct ipoib_cm_rx *conn[ARRAY_SIZE(idle)], *c;
	LIST_HEAD(live);
	LIST_HEAD(stale);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(idle); i++) {
		conn[i] = kunit_kzalloc(test, sizeof(*conn[i]), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, conn[i]);
		conn[i]->last_rx = now - idle[i];
		list_add_tail(&conn[i]->list, &live);
	}
	KUNIT_EXPECT_EQ(test, ipoib_cm_rx_collect_stale(&live, &stale, now,
							timeout), 2);
	/* exactly the timeout is not yet stale */
	i = 0;
	list_for_each_entry(c, &stale, list) {
		KUNIT_EXPECT_PTR_EQ(test, c, i ? conn[4] : conn[3]);
		KUNIT_EXPECT_TRUE(test, c->dead);
		i++;
	}
	KUNIT_EXPECT_EQ(test, i, 2);
	i = 0;
	list_for_each_entry(c, &live, list) {
		KUNIT_EXPECT_FALSE(test, c->dead);
		i++;
	}
	KUNIT_EXPECT_EQ(test, i, 3);

	/* a receive since: not stale any more; later, all are */
	conn[1]->last_rx = now + 1;
	KUNIT_EXPECT_EQ(test, ipoib_cm_rx_collect_stale(&live, &stale, now,
							timeout), 0);
	KUNIT_EXPECT_EQ(test, ipoib_cm_rx_collect_stale(&live, &stale,
							now + 2 * timeout,
							timeout), 3);
	KUNIT_EXPECT_TRUE(test, list_empty(&live));
	/* across the jiffies wrap */
	list_del_init(&conn[0]->list);
	conn[0]->dead = false;
	conn[0]->last_rx = ULONG_MAX - 10;
	list_add(&conn[0]->list, &live);
	KUNIT_EXPECT_EQ(test, ipoib_cm_rx_collect_stale(&live, &stale, 100,
							timeout), 0);
	KUNIT_EXPECT_EQ(test, ipoib_cm_rx_collect_stale(&live, &stale, 990,
							timeout), 1);
}

static struct kunit_case ipoib_cm_cases[] = {
	KUNIT_CASE(ipoib_cm_service_ids),
	KUNIT_CASE(ipoib_cm_private_data),
	KUNIT_CASE(ipoib_cm_mtus),
	KUNIT_CASE(ipoib_cm_peers),
	KUNIT_CASE(ipoib_cm_rx_skbs),
	KUNIT_CASE(ipoib_cm_stale),
	{}
};

static struct kunit_suite ipoib_cm_suite = {
	.name = "ipoib_cm",
	.test_cases = ipoib_cm_cases,
};

kunit_test_suite(ipoib_cm_suite);

MODULE_DESCRIPTION("KUnit tests of IPoIB connected mode's helpers");
MODULE_LICENSE("Dual BSD/GPL");
