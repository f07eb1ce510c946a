// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_uverbs_marshall": the user ABI's forms of address
 * vectors, QP attributes and path records (core/ib_uverbs/
 * uverbs_marshall.c): every field where the ABI has it, LIDs in the
 * ABI's byte order, the GRH only for a global address, OPA LIDs in GIDs
 * both ways.
 */
#include <kunit/test.h>
#include <rdma/ib_marshall.h>
#include <rdma/opa_addr.h>

/* An IB path record with every field set to something of its own. */
static void km_ib_path(struct sa_path_rec *p)
{
	memset(p, 0, sizeof(*p));
	p->rec_type = SA_PATH_REC_TYPE_IB;
	p->dgid.global.subnet_prefix = cpu_to_be64(0xfe80000000000000ULL);
	p->dgid.global.interface_id = cpu_to_be64(0x0002c90300000001ULL);
	p->sgid.global.subnet_prefix = cpu_to_be64(0xfe80000000000000ULL);
	p->sgid.global.interface_id = cpu_to_be64(0x0002c90300000002ULL);
	sa_path_set_dlid(p, 0x1234);
	sa_path_set_slid(p, 0x0042);
	sa_path_set_raw_traffic(p, 1);
	p->flow_label = cpu_to_be32(0x54321);
	p->hop_limit = 7;
	p->traffic_class = 9;
	p->reversible = 1;
	p->numb_path = 3;
	p->pkey = cpu_to_be16(0x8001);
	p->sl = 5;
	p->mtu_selector = 2;
	p->mtu = IB_MTU_4096;
	p->rate_selector = 2;
	p->rate = IB_RATE_100_GBPS;
	p->packet_life_time = 18;
	p->preference = 1;
	p->packet_life_time_selector = 2;
}

/* An IB path goes to user space and back unchanged. */
static void marshall_path_ib(struct kunit *test)
{
	struct sa_path_rec p, back;
	struct ib_user_path_rec u;

	km_ib_path(&p);
	memset(&u, 0xcc, sizeof(u));
	ib_copy_path_rec_to_user(&u, &p);
	KUNIT_EXPECT_EQ(test, ntohs(u.dlid), 0x1234);
	KUNIT_EXPECT_EQ(test, ntohs(u.slid), 0x0042);
	KUNIT_EXPECT_EQ(test, u.raw_traffic, 1);
	KUNIT_EXPECT_EQ(test, ntohl(u.flow_label), 0x54321);
	KUNIT_EXPECT_EQ(test, u.hop_limit, 7);
	KUNIT_EXPECT_EQ(test, u.traffic_class, 9);
	KUNIT_EXPECT_EQ(test, u.numb_path, 3);
	KUNIT_EXPECT_EQ(test, ntohs(u.pkey), 0x8001);
	KUNIT_EXPECT_EQ(test, u.sl, 5);
	KUNIT_EXPECT_EQ(test, u.mtu, IB_MTU_4096);
	KUNIT_EXPECT_EQ(test, u.rate, IB_RATE_100_GBPS);
	KUNIT_EXPECT_EQ(test, u.packet_life_time, 18);
	KUNIT_EXPECT_EQ(test, u.packet_life_time_selector, 2);
	KUNIT_EXPECT_EQ(test, memcmp(u.dgid, p.dgid.raw, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(u.sgid, p.sgid.raw, 16), 0);

	ib_copy_path_rec_from_user(&back, &u);
	KUNIT_EXPECT_EQ(test, back.rec_type, SA_PATH_REC_TYPE_IB);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_dlid(&back)), 0x1234);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_slid(&back)), 0x0042);
	KUNIT_EXPECT_EQ(test, sa_path_get_raw_traffic(&back), 1);
	KUNIT_EXPECT_EQ(test, memcmp(back.dgid.raw, p.dgid.raw, 16), 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(back.flow_label), 0x54321);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(back.pkey), 0x8001);
	KUNIT_EXPECT_EQ(test, back.rate, p.rate);
	KUNIT_EXPECT_EQ(test, back.preference, 1);
}

/*
 * A GID with an OPA LID makes an OPA path of 32-bit LIDs; back to user
 * space it goes with the LIDs in the GIDs and none in the LID fields.
 */
static void marshall_path_opa(struct kunit *test)
{
	struct sa_path_rec p, opa;
	struct ib_user_path_rec u;

	km_ib_path(&p);
	ib_copy_path_rec_to_user(&u, &p);
	*(__be64 *)&u.sgid[8] = OPA_MAKE_ID(0x12345);
	*(__be64 *)&u.dgid[8] = OPA_MAKE_ID(0x54321);
	ib_copy_path_rec_from_user(&opa, &u);
	KUNIT_EXPECT_EQ(test, opa.rec_type, SA_PATH_REC_TYPE_OPA);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_slid(&opa)), 0x12345);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_dlid(&opa)), 0x54321);

	memset(&u, 0xcc, sizeof(u));
	ib_copy_path_rec_to_user(&u, &opa);
	KUNIT_EXPECT_EQ(test, ntohs(u.slid), 0);
	KUNIT_EXPECT_EQ(test, ntohs(u.dlid), 0);
	KUNIT_EXPECT_EQ(test, opa_get_lid_from_gid((union ib_gid *)u.sgid),
			0x12345);
	KUNIT_EXPECT_EQ(test, opa_get_lid_from_gid((union ib_gid *)u.dgid),
			0x54321);
	KUNIT_EXPECT_EQ(test, u.sl, 5);
	KUNIT_EXPECT_EQ(test, u.mtu, IB_MTU_4096);
}

/*
 * An address vector: its GRH only when global; QP attributes with both
 * paths and the capabilities.  (An OPA vector needs an OPA device.)
 */
static void marshall_qp_attr(struct kunit *test)
{
	struct ib_qp_attr a = {
		.qp_state = IB_QPS_RTS, .cur_qp_state = IB_QPS_RTR,
		.path_mtu = IB_MTU_2048, .qkey = 0x11111111,
		.rq_psn = 0x222, .sq_psn = 0x333, .dest_qp_num = 0x44,
		.qp_access_flags = IB_ACCESS_REMOTE_READ,
		.cap = { .max_send_wr = 5, .max_recv_wr = 6,
			 .max_send_sge = 7, .max_recv_sge = 8,
			 .max_inline_data = 9 },
		.pkey_index = 2, .alt_pkey_index = 3, .sq_draining = 1,
		.max_rd_atomic = 4, .max_dest_rd_atomic = 5,
		.min_rnr_timer = 12, .port_num = 1, .timeout = 14,
		.retry_cnt = 7, .rnr_retry = 6, .alt_port_num = 2,
		.alt_timeout = 15,
	};
	struct ib_uverbs_qp_attr u;

	a.ah_attr.type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_dlid(&a.ah_attr, 0x77);
	rdma_ah_set_sl(&a.ah_attr, 3);
	rdma_ah_set_path_bits(&a.ah_attr, 1);
	rdma_ah_set_static_rate(&a.ah_attr, IB_RATE_25_GBPS);
	rdma_ah_set_port_num(&a.ah_attr, 1);
	a.alt_ah_attr.type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_grh(&a.alt_ah_attr, NULL, 0xabcde, 2, 64, 0x20);
	rdma_ah_set_dlid(&a.alt_ah_attr, 0x78);
	rdma_ah_set_port_num(&a.alt_ah_attr, 2);
	a.alt_ah_attr.grh.dgid.raw[15] = 0x99;

	memset(&u, 0xcc, sizeof(u));
	ib_copy_qp_attr_to_user(NULL, &u, &a);
	KUNIT_EXPECT_EQ(test, u.qp_state, IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, u.cur_qp_state, IB_QPS_RTR);
	KUNIT_EXPECT_EQ(test, u.qkey, 0x11111111);
	KUNIT_EXPECT_EQ(test, u.dest_qp_num, 0x44);
	KUNIT_EXPECT_EQ(test, u.max_inline_data, 9);
	KUNIT_EXPECT_EQ(test, u.max_recv_sge, 8);
	KUNIT_EXPECT_EQ(test, u.sq_draining, 1);
	KUNIT_EXPECT_EQ(test, u.alt_timeout, 15);
	KUNIT_EXPECT_EQ(test, u.ah_attr.dlid, 0x77);
	KUNIT_EXPECT_EQ(test, u.ah_attr.sl, 3);
	KUNIT_EXPECT_EQ(test, u.ah_attr.src_path_bits, 1);
	KUNIT_EXPECT_EQ(test, u.ah_attr.static_rate, IB_RATE_25_GBPS);
	KUNIT_EXPECT_EQ(test, u.ah_attr.is_global, 0);
	KUNIT_EXPECT_EQ(test, u.ah_attr.grh.flow_label, 0);
	KUNIT_EXPECT_EQ(test, u.alt_ah_attr.is_global, 1);
	KUNIT_EXPECT_EQ(test, u.alt_ah_attr.grh.flow_label, 0xabcde);
	KUNIT_EXPECT_EQ(test, u.alt_ah_attr.grh.sgid_index, 2);
	KUNIT_EXPECT_EQ(test, u.alt_ah_attr.grh.hop_limit, 64);
	KUNIT_EXPECT_EQ(test, u.alt_ah_attr.grh.traffic_class, 0x20);
	KUNIT_EXPECT_EQ(test, u.alt_ah_attr.grh.dgid[15], 0x99);
	KUNIT_EXPECT_EQ(test, u.alt_ah_attr.port_num, 2);
	KUNIT_EXPECT_EQ(test, u.reserved[0], 0);
	KUNIT_EXPECT_EQ(test, u.ah_attr.reserved, 0);
}

static struct kunit_case rdma_uverbs_marshall_cases[] = {
	KUNIT_CASE(marshall_path_ib),
	KUNIT_CASE(marshall_path_opa),
	KUNIT_CASE(marshall_qp_attr),
	{}
};

static struct kunit_suite rdma_uverbs_marshall_suite = {
	.name = "rdma_uverbs_marshall",
	.test_cases = rdma_uverbs_marshall_cases,
};

kunit_test_suite(rdma_uverbs_marshall_suite);

MODULE_DESCRIPTION("KUnit tests of the user ABI's verbs structures");
MODULE_LICENSE("Dual BSD/GPL");
