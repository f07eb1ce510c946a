// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_cache": port queries and the GID/P_Key cache
 * (core/ib_core/query.c, core/ib_core/cache.c).
 *
 * The device under test has an IB port 1 and a RoCE v2 port 2:
 *
 *   port 1  GIDs   0: fe80::<node_guid + 1>  1: fe80::abcd  2-3: zero
 *           P_Keys 0: 0xffff  1: 0x0001 (limited)  2: 0x8001  3: 0x0002
 *           LID 0x10, LMC 2, SM LID 1
 *   port 2  net device with MAC 02:fa:4e:12:34:56, 16 GIDs, P_Key 0xffff
 *
 * The cache follows the hardware only when the driver says so with an
 * event, so every "refresh" test changes the fake, dispatches the event a
 * driver would, and waits until a handler has seen it: the core refreshes
 * the cache before it calls handlers.
 */

#include <kunit/test.h>
#include <kunit/rdma_fake_hca.h>
#include <linux/etherdevice.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#include "../core_priv.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define WAIT_MS		20000
#define NODE_GUID	0x0002fa4e0000c000ULL
#define IB_PORT		1
#define ETH_PORT	2
#define PFX_LINK_LOCAL	0xfe80000000000000ULL

static const u8 eth_mac[ETH_ALEN] = { 0x02, 0xfa, 0x4e, 0x12, 0x34, 0x56 };
static const u16 pkeys[] = { 0xffff, 0x0001, 0x8001, 0x0002 };

static union ib_gid make_gid(u64 prefix, u64 id)
{
	union ib_gid gid;

	gid.global.subnet_prefix = cpu_to_be64(prefix);
	gid.global.interface_id = cpu_to_be64(id);
	return gid;
}

/* The default RoCE GID of a net device: fe80:: + modified EUI-64. */
static union ib_gid mac_gid(const u8 *mac)
{
	union ib_gid gid = make_gid(PFX_LINK_LOCAL, 0);

	gid.raw[8] = mac[0] ^ 2;
	gid.raw[9] = mac[1];
	gid.raw[10] = mac[2];
	gid.raw[11] = 0xff;
	gid.raw[12] = 0xfe;
	gid.raw[13] = mac[3];
	gid.raw[14] = mac[4];
	gid.raw[15] = mac[5];
	return gid;
}

struct cache_ctx {
	struct fake_hca			*hca;
	struct ib_device		*dev;
	struct fake_hca_event_log	*log;
	union ib_gid			gids[2];
};

static struct cache_ctx *new_ctx(struct kunit *test, const char *name,
				 bool eth_netdev)
{
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 2);
	struct cache_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, desc);
	KUNIT_ASSERT_NOT_NULL(test, ctx);

	ctx->gids[0] = make_gid(PFX_LINK_LOCAL, NODE_GUID + 1);
	ctx->gids[1] = make_gid(PFX_LINK_LOCAL, 0xabcd);

	desc->name = name;
	desc->node_guid = NODE_GUID;
	desc->port[0].gid_tbl_len = 4;
	desc->port[0].gids = ctx->gids;
	desc->port[0].num_gids = 2;
	desc->port[0].pkey_tbl_len = ARRAY_SIZE(pkeys);
	desc->port[0].pkeys = pkeys;
	desc->port[0].num_pkeys = ARRAY_SIZE(pkeys);
	desc->port[0].lid = 0x10;
	desc->port[0].lmc = 2;
	desc->port[0].sm_lid = 1;
	fake_hca_desc_set_eth(desc, ETH_PORT);
	ether_addr_copy(desc->port[1].mac, eth_mac);
	desc->port[1].no_netdev = !eth_netdev;

	ctx->hca = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx->hca);
	ctx->dev = &ctx->hca->ibdev;
	ctx->log = fake_hca_kunit_event_log(test, ctx->dev);
	KUNIT_ASSERT_NOT_NULL(test, ctx->log);
	return ctx;
}

/* Dispatch an event and wait until handlers (so the cache) are through. */
static void dispatch_and_wait(struct kunit *test, struct cache_ctx *ctx,
			      u32 port, enum ib_event_type type)
{
	unsigned int n = fake_hca_event_count(ctx->log);

	fake_hca_dispatch_port_event(ctx->hca, port, type);
	KUNIT_ASSERT_TRUE_MSG(test, fake_hca_event_wait(ctx->log, n + 1,
							WAIT_MS),
			      "%s not delivered", ib_event_msg(type));
}

/* ------------------------------------------------------------------
 * Queries that go to the driver
 */

static void rdma_cache_query_port(struct kunit *test)
{
	struct cache_ctx *ctx = new_ctx(test, "kuc_qp", true);
	struct ib_port_attr attr;

	memset(&attr, 0xa5, sizeof(attr));
	KUNIT_ASSERT_EQ(test, ib_query_port(ctx->dev, IB_PORT, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.state, IB_PORT_ACTIVE);
	KUNIT_EXPECT_EQ(test, attr.phys_state, IB_PORT_PHYS_STATE_LINK_UP);
	KUNIT_EXPECT_EQ(test, attr.lid, 0x10);
	KUNIT_EXPECT_EQ(test, attr.lmc, 2);
	KUNIT_EXPECT_EQ(test, attr.sm_lid, 1);
	KUNIT_EXPECT_EQ(test, attr.gid_tbl_len, 4);
	KUNIT_EXPECT_EQ(test, attr.pkey_tbl_len, ARRAY_SIZE(pkeys));
	KUNIT_EXPECT_EQ(test, attr.active_width, IB_WIDTH_4X);
	KUNIT_EXPECT_EQ(test, attr.active_speed, IB_SPEED_EDR);
	/* Filled by the core from GID 0, zeroed before the driver runs. */
	KUNIT_EXPECT_EQ(test, attr.subnet_prefix, PFX_LINK_LOCAL);
	KUNIT_EXPECT_EQ(test, attr.bad_pkey_cntr, 0);
	KUNIT_EXPECT_EQ(test, attr.port_cap_flags2, 0);

	KUNIT_ASSERT_EQ(test, ib_query_port(ctx->dev, ETH_PORT, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.state, IB_PORT_ACTIVE);
	KUNIT_EXPECT_EQ(test, attr.gid_tbl_len, 16);
	KUNIT_EXPECT_EQ(test, attr.pkey_tbl_len, 1);

	KUNIT_EXPECT_EQ(test, ib_query_port(ctx->dev, 0, &attr), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_query_port(ctx->dev, 3, &attr), -EINVAL);
}

static void rdma_cache_link_layer(struct kunit *test)
{
	struct cache_ctx *ctx = new_ctx(test, "kuc_ll", true);

	KUNIT_EXPECT_EQ(test, rdma_port_get_link_layer(ctx->dev, IB_PORT),
			IB_LINK_LAYER_INFINIBAND);
	KUNIT_EXPECT_EQ(test, rdma_port_get_link_layer(ctx->dev, ETH_PORT),
			IB_LINK_LAYER_ETHERNET);
	KUNIT_EXPECT_TRUE(test, rdma_protocol_ib(ctx->dev, IB_PORT));
	KUNIT_EXPECT_TRUE(test, rdma_protocol_roce_udp_encap(ctx->dev,
							     ETH_PORT));
	KUNIT_EXPECT_TRUE(test, rdma_cap_roce_gid_table(ctx->dev, ETH_PORT));
	KUNIT_EXPECT_FALSE(test, rdma_cap_roce_gid_table(ctx->dev, IB_PORT));
}

static void rdma_cache_query_pkey(struct kunit *test)
{
	struct cache_ctx *ctx = new_ctx(test, "kuc_qk", false);
	u16 pkey;
	u16 i;

	for (i = 0; i < ARRAY_SIZE(pkeys); i++) {
		KUNIT_ASSERT_EQ(test, ib_query_pkey(ctx->dev, IB_PORT, i, &pkey),
				0);
		KUNIT_EXPECT_EQ(test, pkey, pkeys[i]);
	}
	KUNIT_EXPECT_EQ(test, ib_query_pkey(ctx->dev, IB_PORT, 4, &pkey),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_query_pkey(ctx->dev, 0, 0, &pkey), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_query_pkey(ctx->dev, 3, 0, &pkey), -EINVAL);
}

static void rdma_cache_query_gid(struct kunit *test)
{
	struct cache_ctx *ctx = new_ctx(test, "kuc_qg", false);
	union ib_gid gid;

	KUNIT_ASSERT_EQ(test, rdma_query_gid(ctx->dev, IB_PORT, 0, &gid), 0);
	KUNIT_EXPECT_MEMEQ(test, &gid, &ctx->gids[0], sizeof(gid));
	KUNIT_ASSERT_EQ(test, rdma_query_gid(ctx->dev, IB_PORT, 1, &gid), 0);
	KUNIT_EXPECT_MEMEQ(test, &gid, &ctx->gids[1], sizeof(gid));

	KUNIT_EXPECT_EQ(test, rdma_query_gid(ctx->dev, IB_PORT, 4, &gid),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(ctx->dev, IB_PORT, -1, &gid),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(ctx->dev, 0, 0, &gid), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_query_gid(ctx->dev, 3, 0, &gid), -EINVAL);
}

static void rdma_cache_find_gid(struct kunit *test)
{
	struct cache_ctx *ctx = new_ctx(test, "kuc_fg", false);
	union ib_gid unknown = make_gid(PFX_LINK_LOCAL, 0x5555);
	u32 port = 0;
	u16 index = 0;

	KUNIT_ASSERT_EQ(test, ib_find_gid(ctx->dev, &ctx->gids[1], &port,
					  &index), 0);
	KUNIT_EXPECT_EQ(test, port, IB_PORT);
	KUNIT_EXPECT_EQ(test, index, 1);
	KUNIT_ASSERT_EQ(test, ib_find_gid(ctx->dev, &ctx->gids[0], &port,
					  &index), 0);
	KUNIT_EXPECT_EQ(test, index, 0);
	KUNIT_EXPECT_EQ(test, ib_find_gid(ctx->dev, &unknown, &port, &index),
			-ENOENT);
}

/*
 * P_Key lookups match the 15-bit key and prefer a full member
 * (bit 15 set); a limited member is the fallback.
 */
struct pkey_find {
	u16	pkey;
	int	ret;
	u16	index;
};

static const struct pkey_find pkey_finds[] = {
	{ 0xffff, 0, 0 },
	{ 0x7fff, 0, 0 },
	{ 0x0001, 0, 2 },	/* full member 0x8001 wins over 0x0001 */
	{ 0x8001, 0, 2 },
	{ 0x8002, 0, 3 },	/* only the limited 0x0002 exists */
	{ 0x1234, -ENOENT, 0 },
};

static void pkey_find_desc(const struct pkey_find *f, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "0x%04x", f->pkey);
}

KUNIT_ARRAY_PARAM(pkey_find, pkey_finds, pkey_find_desc);

static void rdma_cache_find_pkey(struct kunit *test)
{
	const struct pkey_find *f = test->param_value;
	struct cache_ctx *ctx = new_ctx(test, "kuc_fk", false);
	u16 index = 0xeeee;

	/* From the driver ... */
	KUNIT_EXPECT_EQ(test, ib_find_pkey(ctx->dev, IB_PORT, f->pkey, &index),
			f->ret);
	if (!f->ret)
		KUNIT_EXPECT_EQ(test, index, f->index);

	/* ... and from the cache, the same answer. */
	index = 0xeeee;
	KUNIT_EXPECT_EQ(test, ib_find_cached_pkey(ctx->dev, IB_PORT, f->pkey,
						  &index), f->ret);
	if (!f->ret)
		KUNIT_EXPECT_EQ(test, index, f->index);
}

/* ------------------------------------------------------------------
 * The cache
 */

static void rdma_cache_cached_pkey(struct kunit *test)
{
	struct cache_ctx *ctx = new_ctx(test, "kuc_ck", false);
	u16 pkey, index;
	int i;

	for (i = 0; i < ARRAY_SIZE(pkeys); i++) {
		KUNIT_ASSERT_EQ(test, ib_get_cached_pkey(ctx->dev, IB_PORT, i,
							 &pkey), 0);
		KUNIT_EXPECT_EQ(test, pkey, pkeys[i]);
	}
	KUNIT_ASSERT_EQ(test, ib_get_cached_pkey(ctx->dev, ETH_PORT, 0, &pkey),
			0);
	KUNIT_EXPECT_EQ(test, pkey, 0xffff);

	/* Exact lookups do not mix limited and full members. */
	KUNIT_ASSERT_EQ(test, ib_find_exact_cached_pkey(ctx->dev, IB_PORT,
							0x0001, &index), 0);
	KUNIT_EXPECT_EQ(test, index, 1);
	KUNIT_EXPECT_EQ(test, ib_find_exact_cached_pkey(ctx->dev, IB_PORT,
							0x8002, &index),
			-ENOENT);

	KUNIT_EXPECT_EQ(test, ib_get_cached_pkey(ctx->dev, IB_PORT, 4, &pkey),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_get_cached_pkey(ctx->dev, IB_PORT, -1, &pkey),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_get_cached_pkey(ctx->dev, 0, 0, &pkey),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_get_cached_pkey(ctx->dev, 3, 0, &pkey),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_find_cached_pkey(ctx->dev, 3, 0xffff, &index),
			-EINVAL);
}

static void rdma_cache_cached_port_attrs(struct kunit *test)
{
	struct cache_ctx *ctx = new_ctx(test, "kuc_cpa", false);
	enum ib_port_state state;
	u8 lmc;

	KUNIT_ASSERT_EQ(test, ib_get_cached_lmc(ctx->dev, IB_PORT, &lmc), 0);
	KUNIT_EXPECT_EQ(test, lmc, 2);
	KUNIT_ASSERT_EQ(test, ib_get_cached_port_state(ctx->dev, IB_PORT,
						       &state), 0);
	KUNIT_EXPECT_EQ(test, state, IB_PORT_ACTIVE);

	KUNIT_EXPECT_EQ(test, ib_get_cached_lmc(ctx->dev, 0, &lmc), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_get_cached_lmc(ctx->dev, 3, &lmc), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_get_cached_port_state(ctx->dev, 3, &state),
			-EINVAL);
}

static void rdma_cache_get_gid_attr(struct kunit *test)
{
	struct cache_ctx *ctx = new_ctx(test, "kuc_ga", false);
	const struct ib_gid_attr *attr;

	attr = rdma_get_gid_attr(ctx->dev, IB_PORT, 1);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, attr);
	KUNIT_EXPECT_PTR_EQ(test, attr->device, ctx->dev);
	KUNIT_EXPECT_EQ(test, attr->port_num, IB_PORT);
	KUNIT_EXPECT_EQ(test, attr->index, 1);
	KUNIT_EXPECT_EQ(test, attr->gid_type, IB_GID_TYPE_IB);
	KUNIT_EXPECT_MEMEQ(test, &attr->gid, &ctx->gids[1], sizeof(attr->gid));
	rdma_put_gid_attr(attr);

	attr = rdma_find_gid_by_port(ctx->dev, &ctx->gids[1], IB_GID_TYPE_IB,
				     IB_PORT, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, attr);
	KUNIT_EXPECT_EQ(test, attr->index, 1);
	/* Extra references are balanced one by one. */
	rdma_hold_gid_attr(attr);
	rdma_put_gid_attr(attr);
	rdma_put_gid_attr(attr);

	KUNIT_EXPECT_TRUE(test, IS_ERR(rdma_get_gid_attr(ctx->dev, IB_PORT, 4)));
	KUNIT_EXPECT_TRUE(test, IS_ERR(rdma_get_gid_attr(ctx->dev, 3, 0)));
	/* A zero GID is no entry. */
	KUNIT_EXPECT_TRUE(test, IS_ERR(rdma_get_gid_attr(ctx->dev, IB_PORT, 3)));
	attr = rdma_find_gid_by_port(ctx->dev, &ctx->gids[1], IB_GID_TYPE_IB, 3,
				     NULL);
	KUNIT_EXPECT_TRUE(test, IS_ERR(attr));
}

static void rdma_cache_pkey_change(struct kunit *test)
{
	struct cache_ctx *ctx = new_ctx(test, "kuc_pc", false);
	u16 pkey, index;

	KUNIT_ASSERT_EQ(test, fake_hca_set_pkey(ctx->hca, IB_PORT, 1, 0x7777),
			0);
	/* The cache is a cache: no event, no change. */
	KUNIT_ASSERT_EQ(test, ib_get_cached_pkey(ctx->dev, IB_PORT, 1, &pkey),
			0);
	KUNIT_EXPECT_EQ(test, pkey, 0x0001);

	dispatch_and_wait(test, ctx, IB_PORT, IB_EVENT_PKEY_CHANGE);
	KUNIT_ASSERT_EQ(test, ib_get_cached_pkey(ctx->dev, IB_PORT, 1, &pkey),
			0);
	KUNIT_EXPECT_EQ(test, pkey, 0x7777);
	KUNIT_ASSERT_EQ(test, ib_find_cached_pkey(ctx->dev, IB_PORT, 0x7777,
						  &index), 0);
	KUNIT_EXPECT_EQ(test, index, 1);
	KUNIT_EXPECT_EQ(test, ib_find_exact_cached_pkey(ctx->dev, IB_PORT,
							0x0001, &index),
			-ENOENT);
}

static void rdma_cache_gid_change(struct kunit *test)
{
	struct cache_ctx *ctx = new_ctx(test, "kuc_gc", false);
	union ib_gid new_gid = make_gid(PFX_LINK_LOCAL, 0x1234567);
	const struct ib_gid_attr *attr;
	union ib_gid gid;

	KUNIT_ASSERT_EQ(test, fake_hca_set_gid(ctx->hca, IB_PORT, 2, &new_gid),
			0);
	dispatch_and_wait(test, ctx, IB_PORT, IB_EVENT_GID_CHANGE);

	KUNIT_ASSERT_EQ(test, rdma_query_gid(ctx->dev, IB_PORT, 2, &gid), 0);
	KUNIT_EXPECT_MEMEQ(test, &gid, &new_gid, sizeof(gid));
	attr = rdma_find_gid_by_port(ctx->dev, &new_gid, IB_GID_TYPE_IB,
				     IB_PORT, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, attr);
	KUNIT_EXPECT_EQ(test, attr->index, 2);
	rdma_put_gid_attr(attr);
}

static void rdma_cache_subnet_prefix_change(struct kunit *test)
{
	struct cache_ctx *ctx = new_ctx(test, "kuc_sp", false);
	union ib_gid site = make_gid(0xfec0000000001234ULL, NODE_GUID + 1);
	struct ib_port_attr attr;

	KUNIT_ASSERT_EQ(test, fake_hca_set_gid(ctx->hca, IB_PORT, 0, &site), 0);
	dispatch_and_wait(test, ctx, IB_PORT, IB_EVENT_GID_CHANGE);
	KUNIT_ASSERT_EQ(test, ib_query_port(ctx->dev, IB_PORT, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.subnet_prefix, 0xfec0000000001234ULL);
}

static void rdma_cache_lid_and_state_change(struct kunit *test)
{
	struct cache_ctx *ctx = new_ctx(test, "kuc_lc", false);
	enum ib_port_state state;
	int ret;
	u8 lmc;

	KUNIT_ASSERT_EQ(test, fake_hca_set_lid(ctx->hca, IB_PORT, 0x40, 3), 0);
	dispatch_and_wait(test, ctx, IB_PORT, IB_EVENT_LID_CHANGE);
	KUNIT_ASSERT_EQ(test, ib_get_cached_lmc(ctx->dev, IB_PORT, &lmc), 0);
	KUNIT_EXPECT_EQ(test, lmc, 3);

	ret = fake_hca_set_port_state(ctx->hca, IB_PORT, IB_PORT_DOWN,
				      IB_PORT_PHYS_STATE_POLLING);
	KUNIT_ASSERT_EQ(test, ret, 0);
	dispatch_and_wait(test, ctx, IB_PORT, IB_EVENT_PORT_ERR);
	KUNIT_ASSERT_EQ(test, ib_get_cached_port_state(ctx->dev, IB_PORT,
						       &state), 0);
	KUNIT_EXPECT_EQ(test, state, IB_PORT_DOWN);

	ret = fake_hca_set_port_state(ctx->hca, IB_PORT, IB_PORT_ACTIVE,
				      IB_PORT_PHYS_STATE_LINK_UP);
	KUNIT_ASSERT_EQ(test, ret, 0);
	dispatch_and_wait(test, ctx, IB_PORT, IB_EVENT_PORT_ACTIVE);
	KUNIT_ASSERT_EQ(test, ib_get_cached_port_state(ctx->dev, IB_PORT,
						       &state), 0);
	KUNIT_EXPECT_EQ(test, state, IB_PORT_ACTIVE);
}

static void rdma_cache_refresh_failure(struct kunit *test)
{
	struct cache_ctx *ctx = new_ctx(test, "kuc_rf", false);
	unsigned int n;
	u16 pkey;

	KUNIT_ASSERT_EQ(test, fake_hca_set_pkey(ctx->hca, IB_PORT, 3, 0x0303),
			0);
	fake_hca_fail_nth(ctx->hca, FAKE_HCA_OP_QUERY_PKEY, 1, -EIO);

	/* The refresh fails: handlers are not told, the old table stays. */
	n = fake_hca_event_count(ctx->log);
	fake_hca_dispatch_port_event(ctx->hca, IB_PORT, IB_EVENT_PKEY_CHANGE);
	dispatch_and_wait(test, ctx, IB_PORT, IB_EVENT_SM_CHANGE);
	ib_event_flush(ctx->dev);
	KUNIT_EXPECT_EQ(test, fake_hca_faults_fired(ctx->hca), 1);
	KUNIT_EXPECT_EQ(test, fake_hca_event_count(ctx->log), n + 1);
	KUNIT_EXPECT_EQ(test, ctx->log->events[n].event, IB_EVENT_SM_CHANGE);
	KUNIT_ASSERT_EQ(test, ib_get_cached_pkey(ctx->dev, IB_PORT, 3, &pkey),
			0);
	KUNIT_EXPECT_EQ(test, pkey, 0x0002);

	/* The next event brings the cache up to date. */
	dispatch_and_wait(test, ctx, IB_PORT, IB_EVENT_PKEY_CHANGE);
	KUNIT_ASSERT_EQ(test, ib_get_cached_pkey(ctx->dev, IB_PORT, 3, &pkey),
			0);
	KUNIT_EXPECT_EQ(test, pkey, 0x0303);
}

static void rdma_cache_gid_attr_outlives_refresh(struct kunit *test)
{
	struct cache_ctx *ctx = new_ctx(test, "kuc_gr", false);
	union ib_gid new_gid = make_gid(PFX_LINK_LOCAL, 0x77);
	const struct ib_gid_attr *old, *cur;

	old = rdma_get_gid_attr(ctx->dev, IB_PORT, 1);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, old);

	KUNIT_ASSERT_EQ(test, fake_hca_set_gid(ctx->hca, IB_PORT, 1, &new_gid),
			0);
	dispatch_and_wait(test, ctx, IB_PORT, IB_EVENT_GID_CHANGE);

	/* The table moved on ... */
	cur = rdma_get_gid_attr(ctx->dev, IB_PORT, 1);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cur);
	KUNIT_EXPECT_MEMEQ(test, &cur->gid, &new_gid, sizeof(new_gid));
	rdma_put_gid_attr(cur);
	cur = rdma_find_gid_by_port(ctx->dev, &ctx->gids[1], IB_GID_TYPE_IB,
				    IB_PORT, NULL);
	KUNIT_EXPECT_TRUE(test, IS_ERR(cur));
	if (!IS_ERR(cur))
		rdma_put_gid_attr(cur);

	/* ... but what we hold is intact (KASAN watches) until we put it. */
	KUNIT_EXPECT_MEMEQ(test, &old->gid, &ctx->gids[1], sizeof(old->gid));
	KUNIT_EXPECT_EQ(test, old->index, 1);
	KUNIT_EXPECT_PTR_EQ(test, old->device, ctx->dev);
	rdma_put_gid_attr(old);
}

static void rdma_cache_gid_attr_outlives_unregister(struct kunit *test)
{
	struct cache_ctx *ctx = new_ctx(test, "kuc_gu", false);
	const struct ib_gid_attr *attr;

	attr = rdma_get_gid_attr(ctx->dev, IB_PORT, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, attr);

	fake_hca_unregister(ctx->hca);
	KUNIT_EXPECT_MEMEQ(test, &attr->gid, &ctx->gids[0], sizeof(attr->gid));
	KUNIT_EXPECT_EQ(test, attr->port_num, IB_PORT);
	rdma_put_gid_attr(attr);
}

static void rdma_cache_roce_default_gid(struct kunit *test)
{
	struct cache_ctx *ctx = new_ctx(test, "kuc_rd", true);
	struct net_device *ndev = fake_hca_netdev(ctx->hca, ETH_PORT);
	union ib_gid expect = mac_gid(eth_mac);
	const struct ib_gid_attr *attr;
	struct fake_hca_hw_gid hw;
	struct net_device *attr_ndev;
	union ib_gid gid;
	u32 port;
	u16 index;

	KUNIT_ASSERT_NOT_NULL(test, ndev);
	KUNIT_ASSERT_MEMEQ(test, ndev->dev_addr, eth_mac, ETH_ALEN);

	attr = rdma_get_gid_attr(ctx->dev, ETH_PORT, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, attr);
	KUNIT_EXPECT_MEMEQ(test, &attr->gid, &expect, sizeof(expect));
	KUNIT_EXPECT_EQ(test, attr->gid_type, IB_GID_TYPE_ROCE_UDP_ENCAP);
	KUNIT_EXPECT_EQ(test, attr->port_num, ETH_PORT);
	rcu_read_lock();
	attr_ndev = rdma_read_gid_attr_ndev_rcu(attr);
	rcu_read_unlock();
	KUNIT_EXPECT_PTR_EQ(test, attr_ndev, ndev);
	rdma_put_gid_attr(attr);

	KUNIT_ASSERT_EQ(test, rdma_query_gid(ctx->dev, ETH_PORT, 0, &gid), 0);
	KUNIT_EXPECT_MEMEQ(test, &gid, &expect, sizeof(expect));

	attr = rdma_find_gid_by_port(ctx->dev, &expect,
				     IB_GID_TYPE_ROCE_UDP_ENCAP, ETH_PORT, ndev);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, attr);
	KUNIT_EXPECT_EQ(test, attr->index, 0);
	rdma_put_gid_attr(attr);

	/* The driver was told to program it. */
	KUNIT_ASSERT_TRUE(test, fake_hca_hw_gid(ctx->hca, ETH_PORT, 0, &hw));
	KUNIT_EXPECT_MEMEQ(test, &hw.gid, &expect, sizeof(expect));
	KUNIT_EXPECT_EQ(test, hw.gid_type, IB_GID_TYPE_ROCE_UDP_ENCAP);
	KUNIT_EXPECT_EQ(test, hw.ifindex, ndev->ifindex);

	/* IB lookups do not see RoCE GIDs. */
	KUNIT_EXPECT_EQ(test, ib_find_gid(ctx->dev, &expect, &port, &index),
			-ENOENT);
}

static void rdma_cache_roce_netdev_binding(struct kunit *test)
{
	static const u8 mac[ETH_ALEN] = { 0x02, 0xfa, 0x4e, 0x00, 0xbe, 0xef };
	struct net_device *ndev = fake_hca_kunit_netdev(test, mac);
	union ib_gid expect = mac_gid(mac);
	const struct ib_gid_attr *attr;
	struct cache_ctx *ctx;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ndev);
	ctx = new_ctx(test, "kuc_rb", false);

	/* No net device, no default GID. */
	KUNIT_EXPECT_TRUE(test, IS_ERR(rdma_get_gid_attr(ctx->dev, ETH_PORT, 0)));
	KUNIT_EXPECT_EQ(test, fake_hca_hw_gid_count(ctx->hca, ETH_PORT), 0);

	KUNIT_ASSERT_EQ(test, ib_device_set_netdev(ctx->dev, ndev, ETH_PORT), 0);
	attr = rdma_get_gid_attr(ctx->dev, ETH_PORT, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, attr);
	KUNIT_EXPECT_MEMEQ(test, &attr->gid, &expect, sizeof(expect));
	rdma_put_gid_attr(attr);
	KUNIT_EXPECT_EQ(test, fake_hca_hw_gid_count(ctx->hca, ETH_PORT), 1);

	KUNIT_ASSERT_EQ(test, ib_device_set_netdev(ctx->dev, NULL, ETH_PORT), 0);
	KUNIT_EXPECT_TRUE(test, IS_ERR(rdma_get_gid_attr(ctx->dev, ETH_PORT, 0)));
	KUNIT_EXPECT_EQ(test, fake_hca_hw_gid_count(ctx->hca, ETH_PORT), 0);
	KUNIT_EXPECT_GE(test, fake_hca_op_calls(ctx->hca, FAKE_HCA_OP_DEL_GID),
			1);
}

static struct kunit_case rdma_cache_cases[] = {
	KUNIT_CASE(rdma_cache_query_port),
	KUNIT_CASE(rdma_cache_link_layer),
	KUNIT_CASE(rdma_cache_query_pkey),
	KUNIT_CASE(rdma_cache_query_gid),
	KUNIT_CASE(rdma_cache_find_gid),
	KUNIT_CASE_PARAM(rdma_cache_find_pkey, pkey_find_gen_params),
	KUNIT_CASE(rdma_cache_cached_pkey),
	KUNIT_CASE(rdma_cache_cached_port_attrs),
	KUNIT_CASE(rdma_cache_get_gid_attr),
	KUNIT_CASE(rdma_cache_pkey_change),
	KUNIT_CASE(rdma_cache_gid_change),
	KUNIT_CASE(rdma_cache_subnet_prefix_change),
	KUNIT_CASE(rdma_cache_lid_and_state_change),
	KUNIT_CASE(rdma_cache_refresh_failure),
	KUNIT_CASE(rdma_cache_gid_attr_outlives_refresh),
	KUNIT_CASE(rdma_cache_gid_attr_outlives_unregister),
	KUNIT_CASE(rdma_cache_roce_default_gid),
	KUNIT_CASE(rdma_cache_roce_netdev_binding),
	{}
};

static struct kunit_suite rdma_cache_suite = {
	.name = "rdma_cache",
	.test_cases = rdma_cache_cases,
};

kunit_test_suite(rdma_cache_suite);

MODULE_DESCRIPTION("KUnit tests of RDMA port queries and the GID/P_Key cache");
MODULE_LICENSE("Dual BSD/GPL");
