// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite of siw's QP data path: a siw device on the loopback net
 * device, two RC QPs joined by a pair of kernel TCP sockets on 127.0.0.1
 * (no CM: the test binds the streams itself, as the CM will), and real
 * traffic: SENDs, WRITEs and READs of sizes around the MULPDU, with and
 * without CRC, and the errors that end a stream with a TERMINATE; the
 * same between on-demand paging MRs over real user memory that nothing
 * mapped yet (the transmitter and the receiver wait for rdmavt's
 * faults).
 */

#include <kunit/test.h>
#include <kunit/rdma_umem.h>
#include <linux/delay.h>
#include <linux/in.h>
#include <linux/inet.h>
#include <linux/netdevice.h>
#include <linux/net.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/unaligned.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_vt.h>

#include "../siw.h"
#include "../siw_qp.h"
/*
 * siw's protocol layer is pure functions over buffers: this suite builds
 * its own copy of it, so siw exports none of it.
 */
#include "../siw_fpdu.c"
#include "../siw_term.c"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define BUF_LEN		(SZ_64K + SZ_4K)
#define QP_WR		64
#define RD_DEPTH	16

static struct ib_device *siwk_dev;

struct siwk_side {
	struct ib_cq	*scq;
	struct ib_cq	*rcq;
	struct ib_qp	*qp;
	struct socket	*sock;
	u8		*buf;
	u8		*buf2;
};

struct siwk {
	struct ib_pd		*pd;
	struct ib_srq		*srq;
	struct siwk_side	a;
	struct siwk_side	b;
};

static struct rvt_qp *rqp(struct ib_qp *qp)
{
	return container_of(qp, struct rvt_qp, ibqp);
}

static void siwk_side_free(struct siwk_side *s)
{
	struct socket *sock;

	if (s->qp) {
		sock = siw_test.qp_stream_stop(rqp(s->qp), false);
		if (sock && sock != s->sock)
			sock_release(sock);
		ib_destroy_qp(s->qp);
	}
	if (s->sock)
		sock_release(s->sock);
	if (s->scq)
		ib_destroy_cq(s->scq);
	if (s->rcq)
		ib_destroy_cq(s->rcq);
	kvfree(s->buf);
	kvfree(s->buf2);
}

static void siwk_free(void *p)
{
	struct siwk *k = p;

	siwk_side_free(&k->a);
	siwk_side_free(&k->b);
	if (k->srq)
		ib_destroy_srq(k->srq);
	if (k->pd)
		ib_dealloc_pd(k->pd);
	kfree(k);
}

/* A connected pair of TCP sockets on 127.0.0.1. */
static int siwk_sockets(struct socket **a, struct socket **b)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct socket *l;
	int ret;

	ret = sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_TCP,
			       &l);
	if (ret)
		return ret;
	ret = kernel_bind(l, (struct sockaddr *)&sin, sizeof(sin));
	if (ret)
		goto out;
	ret = kernel_listen(l, 1);
	if (ret)
		goto out;
	ret = kernel_getsockname(l, (struct sockaddr *)&sin);
	if (ret < 0)
		goto out;
	ret = sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_TCP,
			       a);
	if (ret)
		goto out;
	ret = kernel_connect(*a, (struct sockaddr *)&sin, sizeof(sin), 0);
	if (ret)
		goto out;
	ret = kernel_accept(l, b, 0);
out:
	sock_release(l);
	return ret;
}

static struct ib_cq *siwk_cq(struct kunit *test)
{
	struct ib_cq_init_attr attr = { .cqe = 4 * QP_WR };
	struct ib_cq *cq = ib_create_cq(siwk_dev, NULL, NULL, NULL, &attr);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	return cq;
}

static void siwk_side_init(struct kunit *test, struct siwk *k,
			   struct siwk_side *s, bool srq)
{
	struct ib_qp_init_attr init = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.cap = {
			.max_send_wr = QP_WR,
			.max_recv_wr = QP_WR,
			.max_send_sge = SIW_MAX_SGE,
			.max_recv_sge = SIW_MAX_SGE,
		},
	};

	s->scq = siwk_cq(test);
	s->rcq = siwk_cq(test);
	init.send_cq = s->scq;
	init.recv_cq = s->rcq;
	if (srq)
		init.srq = k->srq;
	s->qp = ib_create_qp(k->pd, &init);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s->qp);
	s->buf = kvzalloc(BUF_LEN, GFP_KERNEL);
	s->buf2 = kvzalloc(BUF_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s->buf);
	KUNIT_ASSERT_NOT_NULL(test, s->buf2);
}

static void siwk_to_init(struct kunit *test, struct ib_qp *qp)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.port_num = SIW_PORT,
		.qp_access_flags = IB_ACCESS_LOCAL_WRITE |
				   IB_ACCESS_REMOTE_WRITE |
				   IB_ACCESS_REMOTE_READ,
	};

	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_PORT |
					   IB_QP_PKEY_INDEX |
					   IB_QP_ACCESS_FLAGS), 0);
}

/* From INIT on */
static void siwk_init_to_rts(struct kunit *test, struct ib_qp *qp)
{
	struct ib_qp_attr attr = {};

	attr.qp_state = IB_QPS_RTR;
	attr.max_dest_rd_atomic = RD_DEPTH;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE |
					   IB_QP_MAX_DEST_RD_ATOMIC), 0);
	attr.qp_state = IB_QPS_RTS;
	attr.max_rd_atomic = RD_DEPTH;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE |
					   IB_QP_MAX_QP_RD_ATOMIC), 0);
}

static void siwk_to_rts(struct kunit *test, struct ib_qp *qp)
{
	siwk_to_init(test, qp);
	siwk_init_to_rts(test, qp);
}

/* Two RC QPs on a TCP connection, in RTS; @srq: B receives from an SRQ. */
static struct siwk *siwk_pair(struct kunit *test, bool crc, bool srq)
{
	struct siw_stream_params p = {
		.mpa = {
			.revision = 2,
			.enhanced = true,
			.crc = crc,
			.ird = RD_DEPTH,
			.ord = RD_DEPTH,
		},
	};
	struct ib_srq_init_attr sattr = {
		.attr = { .max_wr = QP_WR, .max_sge = SIW_MAX_SGE },
	};
	struct siwk *k = kzalloc(sizeof(*k), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, k);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, siwk_free, k),
			0);
	k->pd = ib_alloc_pd(siwk_dev, IB_PD_UNSAFE_GLOBAL_RKEY);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, k->pd);
	if (srq) {
		k->srq = ib_create_srq(k->pd, &sattr);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, k->srq);
	}
	siwk_side_init(test, k, &k->a, false);
	siwk_side_init(test, k, &k->b, srq);
	KUNIT_ASSERT_EQ(test, siwk_sockets(&k->a.sock, &k->b.sock), 0);
	p.initiator = true;
	KUNIT_ASSERT_EQ(test, siw_test.qp_stream_start(rqp(k->a.qp), k->a.sock, &p),
			0);
	p.initiator = false;
	KUNIT_ASSERT_EQ(test, siw_test.qp_stream_start(rqp(k->b.qp), k->b.sock, &p),
			0);
	/* one stream per QP */
	KUNIT_EXPECT_EQ(test, siw_test.qp_stream_start(rqp(k->a.qp), k->a.sock, &p),
			-EBUSY);
	siwk_to_rts(test, k->a.qp);
	siwk_to_rts(test, k->b.qp);
	return k;
}

/* The next completion of @cq (waits up to 5 s); false when none came. */
static bool siwk_poll(struct ib_cq *cq, struct ib_wc *wc)
{
	int i;

	for (i = 0; i < 5000; i++) {
		if (ib_poll_cq(cq, 1, wc) == 1)
			return true;
		usleep_range(500, 1000);
	}
	return false;
}

/* No completion comes to @cq for a while. */
static bool siwk_quiet(struct ib_cq *cq)
{
	struct ib_wc wc;

	msleep(50);
	return ib_poll_cq(cq, 1, &wc) == 0;
}

static bool siwk_wait_state(struct ib_qp *qp, enum ib_qp_state state)
{
	int i;

	for (i = 0; i < 5000; i++) {
		if (READ_ONCE(rqp(qp)->state) == state)
			return true;
		usleep_range(500, 1000);
	}
	return false;
}

static struct ib_sge siwk_sge(struct siwk *k, void *buf, u32 len)
{
	return (struct ib_sge) {
		.addr = (uintptr_t)buf,
		.length = len,
		.lkey = k->pd->local_dma_lkey,
	};
}

static int siwk_post_recv(struct ib_qp *qp, struct ib_srq *srq, u64 id,
			  struct ib_sge *sge, int n)
{
	const struct ib_recv_wr *bad;
	struct ib_recv_wr wr = {
		.wr_id = id,
		.sg_list = sge,
		.num_sge = n,
	};

	return srq ? ib_post_srq_recv(srq, &wr, &bad) :
		ib_post_recv(qp, &wr, &bad);
}

static int siwk_post_send(struct ib_qp *qp, u64 id, struct ib_sge *sge,
			  int n)
{
	const struct ib_send_wr *bad;
	struct ib_send_wr wr = {
		.wr_id = id,
		.opcode = IB_WR_SEND,
		.sg_list = sge,
		.num_sge = n,
		.send_flags = IB_SEND_SIGNALED,
	};

	return ib_post_send(qp, &wr, &bad);
}

static int siwk_post_rdma(struct ib_qp *qp, enum ib_wr_opcode op, u64 id,
			  struct ib_sge *sge, u32 rkey, void *remote)
{
	const struct ib_send_wr *bad;
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_id = id,
			.opcode = op,
			.sg_list = sge,
			.num_sge = 1,
			.send_flags = IB_SEND_SIGNALED,
		},
		.remote_addr = (uintptr_t)remote,
		.rkey = rkey,
	};

	return ib_post_send(qp, &wr.wr, &bad);
}

static void siwk_fill(u8 *buf, u32 len, u8 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		buf[i] = seed + i * 7 + (i >> 8);
}

/* The sizes around the stream's MULPDU. */
static void siwk_sizes(struct kunit *test, struct siwk *k, u32 *sizes)
{
	u32 m = siw_test.qp_mulpdu(rqp(k->a.qp));

	/* loopback's MSS leaves room for a payload of MULPDU + 1 bytes */
	KUNIT_ASSERT_GT(test, m, 1000U);
	KUNIT_ASSERT_LT(test, m + 1, (u32)BUF_LEN);
	sizes[0] = 0;
	sizes[1] = 1;
	sizes[2] = m - 1;
	sizes[3] = m;
	sizes[4] = m + 1;
	sizes[5] = SZ_64K;
}

static const bool crc_modes[] = { false, true };

static void crc_desc(const bool *crc, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "crc %s", *crc ? "on" : "off");
}

KUNIT_ARRAY_PARAM(crc, crc_modes, crc_desc);

static void siwk_send_one(struct kunit *test, struct siwk *k, u32 len,
			  u64 id)
{
	struct ib_sge ssge = siwk_sge(k, k->a.buf, len);
	struct ib_sge rsge = siwk_sge(k, k->b.buf, BUF_LEN);
	struct ib_wc wc;

	siwk_fill(k->a.buf, len, id);
	memset(k->b.buf, 0, BUF_LEN);
	KUNIT_ASSERT_EQ(test, siwk_post_recv(k->b.qp, k->srq, id, &rsge, 1), 0);
	KUNIT_ASSERT_EQ(test, siwk_post_send(k->a.qp, id, &ssge, 1), 0);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.scq, &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_SEND);
	KUNIT_EXPECT_EQ(test, wc.wr_id, id);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->b.rcq, &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, wc.wr_id, id);
	KUNIT_EXPECT_EQ(test, wc.byte_len, len);
	KUNIT_EXPECT_EQ(test, memcmp(k->a.buf, k->b.buf, len), 0);
	/* nothing was written behind the message */
	KUNIT_EXPECT_EQ(test, k->b.buf[len], 0);
}

/* SENDs of sizes around the MULPDU arrive whole, in order, with CRC. */
static void siw_qp_send_sizes(struct kunit *test)
{
	const bool *crc = test->param_value;
	struct siwk *k = siwk_pair(test, *crc, false);
	u32 sizes[6];
	int i;

	siwk_sizes(test, k, sizes);
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		siwk_send_one(test, k, sizes[i], 100 + i);
	KUNIT_EXPECT_EQ(test, READ_ONCE(rqp(k->a.qp)->state), IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, READ_ONCE(rqp(k->b.qp)->state), IB_QPS_RTS);
}

/* A SEND gathered from three SGEs lands scattered into two. */
static void siw_qp_send_multi_sge(struct kunit *test)
{
	struct siwk *k = siwk_pair(test, true, false);
	struct ib_sge ssge[3] = {
		siwk_sge(k, k->a.buf, 100),
		siwk_sge(k, k->a.buf + 1000, 5000),
		siwk_sge(k, k->a.buf2, 60000),
	};
	struct ib_sge rsge[2] = {
		siwk_sge(k, k->b.buf, 3000),
		siwk_sge(k, k->b.buf2, BUF_LEN),
	};
	u32 len = 100 + 5000 + 60000;
	u8 *want = kunit_kzalloc(test, len, GFP_KERNEL);
	struct ib_wc wc;

	KUNIT_ASSERT_NOT_NULL(test, want);
	siwk_fill(k->a.buf, BUF_LEN, 3);
	siwk_fill(k->a.buf2, BUF_LEN, 9);
	memcpy(want, k->a.buf, 100);
	memcpy(want + 100, k->a.buf + 1000, 5000);
	memcpy(want + 5100, k->a.buf2, 60000);
	KUNIT_ASSERT_EQ(test, siwk_post_recv(k->b.qp, NULL, 1, rsge, 2), 0);
	KUNIT_ASSERT_EQ(test, siwk_post_send(k->a.qp, 2, ssge, 3), 0);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.scq, &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->b.rcq, &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.byte_len, len);
	KUNIT_EXPECT_EQ(test, memcmp(k->b.buf, want, 3000), 0);
	KUNIT_EXPECT_EQ(test, memcmp(k->b.buf2, want + 3000, len - 3000), 0);
}

/* SENDs into a QP that receives from an SRQ. */
static void siw_qp_send_srq(struct kunit *test)
{
	struct siwk *k = siwk_pair(test, false, true);
	u32 sizes[6];
	int i;

	siwk_sizes(test, k, sizes);
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		siwk_send_one(test, k, sizes[i], 200 + i);
}

/* WRITE to B, READ it back: the data round-trips at every size. */
static void siw_qp_write_read(struct kunit *test)
{
	const bool *crc = test->param_value;
	struct siwk *k = siwk_pair(test, *crc, false);
	u32 rkey = k->pd->unsafe_global_rkey;
	struct ib_sge sge;
	struct ib_wc wc;
	u32 sizes[6];
	int i;

	siwk_sizes(test, k, sizes);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		u32 len = sizes[i];

		siwk_fill(k->a.buf, BUF_LEN, 40 + i);
		memset(k->b.buf, 0, BUF_LEN);
		memset(k->a.buf2, 0, BUF_LEN);
		sge = siwk_sge(k, k->a.buf, len);
		KUNIT_ASSERT_EQ(test, siwk_post_rdma(k->a.qp, IB_WR_RDMA_WRITE,
						     300 + i, &sge, rkey,
						     k->b.buf), 0);
		KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.scq, &wc));
		KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
		KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RDMA_WRITE);
		sge = siwk_sge(k, k->a.buf2, len);
		KUNIT_ASSERT_EQ(test, siwk_post_rdma(k->a.qp, IB_WR_RDMA_READ,
						     400 + i, &sge, rkey,
						     k->b.buf), 0);
		KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.scq, &wc));
		KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
		KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RDMA_READ);
		KUNIT_EXPECT_EQ(test, wc.wr_id, 400 + i);
		KUNIT_EXPECT_EQ(test, wc.byte_len, len);
		/* the READ completed after the WRITE landed: the data is B's */
		KUNIT_EXPECT_EQ(test, memcmp(k->a.buf, k->b.buf, len), 0);
		KUNIT_EXPECT_EQ(test, memcmp(k->a.buf, k->a.buf2, len), 0);
		KUNIT_EXPECT_EQ(test, k->b.buf[len], 0);
	}
	/* no receive was used */
	KUNIT_EXPECT_TRUE(test, siwk_quiet(k->b.rcq));
}

/* Both QPs end in ERROR, B sent the TERMINATE and A received it. */
static void siwk_expect_terminated(struct kunit *test, struct siwk *k)
{
	KUNIT_EXPECT_TRUE(test, siwk_wait_state(k->b.qp, IB_QPS_ERR));
	KUNIT_EXPECT_TRUE(test, siwk_wait_state(k->a.qp, IB_QPS_ERR));
	KUNIT_EXPECT_EQ(test, siw_test.qp_terms(rqp(k->b.qp), true), 1U);
	KUNIT_EXPECT_EQ(test, siw_test.qp_terms(rqp(k->a.qp), false), 1U);
	KUNIT_EXPECT_EQ(test, siw_test.qp_terms(rqp(k->a.qp), true), 0U);
}

/* A request posted to an errored QP completes flushed. */
static void siwk_expect_flush(struct kunit *test, struct siwk_side *s,
			      struct siwk *k)
{
	struct ib_sge sge = siwk_sge(k, s->buf, 16);
	struct ib_wc wc;

	KUNIT_ASSERT_EQ(test, siwk_post_send(s->qp, 77, &sge, 1), 0);
	KUNIT_ASSERT_TRUE(test, siwk_poll(s->scq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 77);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);
}

/*
 * A WRITE through a bad rkey: it completed at A once TCP took it (as in
 * upstream siw); B refuses it with a TERMINATE and both QPs fail.
 */
static void siw_qp_write_bad_rkey(struct kunit *test)
{
	struct siwk *k = siwk_pair(test, true, false);
	struct ib_sge sge = siwk_sge(k, k->a.buf, 4096);
	struct ib_wc wc;

	memset(k->b.buf, 0, BUF_LEN);
	siwk_fill(k->a.buf, 4096, 1);
	KUNIT_ASSERT_EQ(test, siwk_post_rdma(k->a.qp, IB_WR_RDMA_WRITE, 5,
					     &sge, k->pd->unsafe_global_rkey +
					     0x100, k->b.buf), 0);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.scq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 5);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	siwk_expect_terminated(test, k);
	/* nothing landed */
	KUNIT_EXPECT_EQ(test, k->b.buf[0], 0);
	KUNIT_EXPECT_EQ(test, k->b.buf[4095], 0);
	siwk_expect_flush(test, &k->a, k);
	siwk_expect_flush(test, &k->b, k);
}

/* A READ through a bad rkey fails with a remote access error. */
static void siw_qp_read_bad_rkey(struct kunit *test)
{
	struct siwk *k = siwk_pair(test, false, false);
	struct ib_sge sge = siwk_sge(k, k->a.buf, 4096);
	struct ib_wc wc;

	memset(k->a.buf, 0, BUF_LEN);
	siwk_fill(k->b.buf, 4096, 2);
	KUNIT_ASSERT_EQ(test, siwk_post_rdma(k->a.qp, IB_WR_RDMA_READ, 6,
					     &sge, k->pd->unsafe_global_rkey +
					     0x100, k->b.buf), 0);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.scq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 6);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_REM_ACCESS_ERR);
	siwk_expect_terminated(test, k);
	KUNIT_EXPECT_EQ(test, k->a.buf[0], 0);
	siwk_expect_flush(test, &k->a, k);
}

/*
 * RDMA_READ_WITH_INV (what rdma_rw posts for a READ on iWARP): the sink
 * is a fast registration MR of A, the READ completes as a READ with
 * B's data in it, and the sink's registration is over: a second READ
 * into the same key completes with a local protection error.
 */
static void siw_qp_read_with_inv(struct kunit *test)
{
	struct siwk *k = siwk_pair(test, false, false);
	struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	const struct ib_send_wr *bad;
	struct ib_reg_wr reg = {};
	struct ib_rdma_wr rd = {};
	struct scatterlist sg;
	struct ib_mr *mr;
	struct ib_wc wc;

	KUNIT_ASSERT_NOT_NULL(test, page);
	mr = ib_alloc_mr(k->pd, IB_MR_TYPE_MEM_REG, 1);
	if (IS_ERR(mr))
		__free_page(page);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	sg_init_one(&sg, page_address(page), PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(siwk_dev, &sg, 1, DMA_FROM_DEVICE),
			1);
	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(mr, &sg, 1, NULL, PAGE_SIZE), 1);
	reg.wr.opcode = IB_WR_REG_MR;
	reg.wr.wr_id = 1;
	reg.wr.send_flags = IB_SEND_SIGNALED;
	reg.mr = mr;
	reg.key = mr->lkey;
	reg.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE;
	KUNIT_ASSERT_EQ(test, ib_post_send(k->a.qp, &reg.wr, &bad), 0);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.scq, &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_REG_MR);

	siwk_fill(k->b.buf, PAGE_SIZE, 9);
	rd.wr.opcode = IB_WR_RDMA_READ_WITH_INV;
	rd.wr.wr_id = 2;
	rd.wr.send_flags = IB_SEND_SIGNALED;
	rd.wr.sg_list = &(struct ib_sge) {
		.addr = mr->iova, .length = PAGE_SIZE, .lkey = mr->lkey,
	};
	rd.wr.num_sge = 1;
	rd.wr.ex.invalidate_rkey = mr->lkey;
	rd.remote_addr = (uintptr_t)k->b.buf;
	rd.rkey = k->pd->unsafe_global_rkey;
	KUNIT_ASSERT_EQ(test, ib_post_send(k->a.qp, &rd.wr, &bad), 0);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.scq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 2);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RDMA_READ);
	KUNIT_EXPECT_EQ(test, wc.byte_len, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, memcmp(page_address(page), k->b.buf, PAGE_SIZE),
			0);

	/* the key is invalid now: the same READ again fails locally */
	rd.wr.wr_id = 3;
	KUNIT_ASSERT_EQ(test, ib_post_send(k->a.qp, &rd.wr, &bad), 0);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.scq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 3);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_LOC_PROT_ERR);

	ib_dereg_mr(mr);
	ib_dma_unmap_sg(siwk_dev, &sg, 1, DMA_FROM_DEVICE);
	__free_page(page);
}

/*
 * A SEND with no receive WQE at B: B terminates, both QPs fail, and
 * the receives A had posted complete flushed.
 */
static void siw_qp_rq_overrun(struct kunit *test)
{
	struct siwk *k = siwk_pair(test, true, false);
	struct ib_sge sge = siwk_sge(k, k->a.buf, 100);
	struct ib_sge rsge = siwk_sge(k, k->a.buf2, BUF_LEN);
	struct ib_wc wc;
	int i;

	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_EQ(test, siwk_post_recv(k->a.qp, NULL, 10 + i,
						     &rsge, 1), 0);
	KUNIT_ASSERT_EQ(test, siwk_post_send(k->a.qp, 9, &sge, 1), 0);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.scq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 9);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	siwk_expect_terminated(test, k);
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.rcq, &wc));
		KUNIT_EXPECT_EQ(test, wc.wr_id, 10 + i);
		KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);
	}
	KUNIT_EXPECT_TRUE(test, siwk_quiet(k->b.rcq));
	siwk_expect_flush(test, &k->b, k);
}

/*
 * Stopping A's stream with a READ in flight (B no longer answers) and a
 * SEND not yet taken: both complete flushed once A errors, and every MR
 * reference the data path took is back.
 */
static void siw_qp_stop_in_flight(struct kunit *test)
{
	struct siwk *k = siwk_pair(test, false, false);
	struct rvt_mregion *mr = &container_of(k->pd->__internal_mr,
					       struct rvt_mr, ibmr)->mr;
	struct ib_sge sge = siwk_sge(k, k->a.buf, 8192);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	struct socket *sock;
	struct ib_wc wc;

	/* B stops receiving: its socket stays, unread */
	sock = siw_test.qp_stream_stop(rqp(k->b.qp), false);
	KUNIT_EXPECT_PTR_EQ(test, sock, k->b.sock);
	KUNIT_EXPECT_NULL(test, siw_test.qp_stream_stop(rqp(k->b.qp), false));

	KUNIT_ASSERT_EQ(test, siwk_post_rdma(k->a.qp, IB_WR_RDMA_READ, 1,
					     &sge, k->pd->unsafe_global_rkey,
					     k->b.buf), 0);
	KUNIT_EXPECT_TRUE(test, siwk_quiet(k->a.scq));
	sock = siw_test.qp_stream_stop(rqp(k->a.qp), false);
	KUNIT_EXPECT_PTR_EQ(test, sock, k->a.sock);
	/* no stream: the engine keeps it */
	KUNIT_ASSERT_EQ(test, siwk_post_send(k->a.qp, 2, &sge, 1), 0);
	KUNIT_EXPECT_TRUE(test, siwk_quiet(k->a.scq));

	KUNIT_ASSERT_EQ(test, ib_modify_qp(k->a.qp, &attr, IB_QP_STATE), 0);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.scq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 1);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.scq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 2);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);
	/* the PD's own reference only */
	KUNIT_EXPECT_EQ(test, refcount_read(&mr->refcount), 1);
}

/* siw carries RC QPs only, as upstream; iWARP has no immediate data. */
static void siw_qp_refusals(struct kunit *test)
{
	struct siwk *k = siwk_pair(test, false, false);
	struct ib_qp_init_attr init = {
		.qp_type = IB_QPT_UD,
		.send_cq = k->a.scq,
		.recv_cq = k->a.rcq,
		.cap = { .max_send_wr = 1, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ib_sge sge = siwk_sge(k, k->a.buf, 8);
	const struct ib_send_wr *bad;
	struct ib_send_wr wr = {
		.opcode = IB_WR_SEND_WITH_IMM,
		.sg_list = &sge,
		.num_sge = 1,
	};
	struct ib_qp *qp;

	qp = ib_create_qp(k->pd, &init);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(qp), -EOPNOTSUPP);
	init.qp_type = IB_QPT_UC;
	qp = ib_create_qp(k->pd, &init);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(qp), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_post_send(k->a.qp, &wr, &bad), -EINVAL);
	wr.opcode = IB_WR_RDMA_WRITE_WITH_IMM;
	KUNIT_EXPECT_EQ(test, ib_post_send(k->a.qp, &wr, &bad), -EINVAL);
	wr.opcode = IB_WR_ATOMIC_FETCH_AND_ADD;
	KUNIT_EXPECT_EQ(test, ib_post_send(k->a.qp, &wr, &bad), -EINVAL);
	KUNIT_EXPECT_TRUE(test, siwk_quiet(k->a.scq));
}

/* ---- one siw QP against a TCP peer the test speaks the wire with ---- */

#define RAW_FPDU	256

static struct siw_mpa_result siwk_mpa(bool crc)
{
	return (struct siw_mpa_result) {
		.revision = 2,
		.enhanced = true,
		.crc = crc,
		.ird = RD_DEPTH,
		.ord = RD_DEPTH,
	};
}

/*
 * A's QP in RTS (in INIT when not @rts) on a stream whose other end is
 * k->b.sock, a plain TCP socket of the test's; @initiator: A's role in
 * the MPA exchange.
 */
static struct siwk *siwk_raw_at(struct kunit *test,
				const struct siw_mpa_result *mpa,
				bool initiator, bool rts)
{
	struct siw_stream_params p = { .mpa = *mpa, .initiator = initiator };
	struct siwk *k = kzalloc(sizeof(*k), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, k);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, siwk_free, k),
			0);
	k->pd = ib_alloc_pd(siwk_dev, IB_PD_UNSAFE_GLOBAL_RKEY);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, k->pd);
	siwk_side_init(test, k, &k->a, false);
	KUNIT_ASSERT_EQ(test, siwk_sockets(&k->a.sock, &k->b.sock), 0);
	/* raw_recv() waits 5 s at most for an FPDU that does not come */
	WRITE_ONCE(k->b.sock->sk->sk_rcvtimeo, 5 * HZ);
	if (rts)
		siwk_to_rts(test, k->a.qp);
	else
		siwk_to_init(test, k->a.qp);
	KUNIT_ASSERT_EQ(test, siw_test.qp_stream_start(rqp(k->a.qp), k->a.sock, &p),
			0);
	return k;
}

static struct siwk *siwk_raw(struct kunit *test,
			     const struct siw_mpa_result *mpa, bool initiator)
{
	return siwk_raw_at(test, mpa, initiator, true);
}

/* A buffer for one FPDU the QP sends, freed with the test. */
static u8 *raw_buf(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, RAW_FPDU, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	return buf;
}

/* Send one FPDU of @h (siw_fpdu_init_hdr() and fields) with @len bytes. */
static void raw_send(struct kunit *test, struct socket *sock,
		     union iwarp_hdr *h, u64 base_to, const void *pl, u32 len,
		     bool crc)
{
	u8 *buf = kunit_kzalloc(test, len + RAW_FPDU, GFP_KERNEL);
	struct msghdr msg = { .msg_flags = MSG_NOSIGNAL };
	struct siw_fpdu_seg seg;
	struct kvec iov;
	__le32 c = 0;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, siw_fpdu_next_seg(h, base_to, len, 0, 60000,
						&seg), (int)len);
	memcpy(buf, h, seg.hdr_len);
	if (len)
		memcpy(buf + seg.hdr_len, pl, len);
	if (crc)
		c = siw_fpdu_crc(buf, seg.hdr_len + len + seg.pad, NULL, 0, 0);
	memcpy(buf + seg.fpdu_len - MPA_CRC_SIZE, &c, MPA_CRC_SIZE);
	iov.iov_base = buf;
	iov.iov_len = seg.fpdu_len;
	KUNIT_ASSERT_EQ(test, kernel_sendmsg(sock, &msg, &iov, 1,
					     seg.fpdu_len), (int)seg.fpdu_len);
}

static int raw_recv_exact(struct socket *sock, void *buf, size_t len,
			  int flags)
{
	struct kvec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = {};
	int ret;

	ret = kernel_recvmsg(sock, &msg, &iov, 1, len, flags | MSG_WAITALL);
	if (ret < 0)
		return ret;
	return ret == len ? 0 : -ENODATA;
}

/*
 * The next FPDU the siw QP sent, whole, into @buf (RAW_FPDU bytes):
 * its length, or -EAGAIN when none came within 5 s (siwk_raw()).
 */
static int raw_recv(struct socket *sock, u8 *buf)
{
	u32 len;
	int ret;

	ret = raw_recv_exact(sock, buf, MPA_HDR_SIZE, 0);
	if (ret)
		return ret;
	len = MPA_HDR_SIZE + get_unaligned_be16(buf);
	len += (-len & 3) + MPA_CRC_SIZE;
	if (len > RAW_FPDU)
		return -EMSGSIZE;
	ret = raw_recv_exact(sock, buf + MPA_HDR_SIZE, len - MPA_HDR_SIZE, 0);
	return ret ?: len;
}

/* Nothing comes from the siw QP for a tenth of a second. */
static bool raw_quiet(struct socket *sock)
{
	u8 b;

	msleep(100);
	return raw_recv_exact(sock, &b, 1, MSG_DONTWAIT) == -EAGAIN;
}

/* @buf holds an FPDU of @opcode with @payload bytes; its info. */
static void raw_expect(struct kunit *test, const u8 *buf, int len, u8 opcode,
		       u32 payload, struct siw_fpdu_info *fi)
{
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_ASSERT_EQ(test, siw_fpdu_parse_hdr(buf, len, fi),
			(int)siw_fpdu_hdr_len(opcode));
	KUNIT_EXPECT_EQ(test, fi->opcode, opcode);
	KUNIT_EXPECT_EQ(test, fi->payload, payload);
	KUNIT_EXPECT_TRUE(test, fi->last);
}

/*
 * A peer-to-peer responder sends nothing before the initiator's first
 * FPDU, its RTR.  A SEND posted at once waits until a zero-length WRITE
 * (to STag 1: its STag is not checked) came.
 */
static void siw_qp_responder_waits(struct kunit *test)
{
	struct siw_mpa_result mpa = siwk_mpa(false);
	struct siwk *k;
	struct ib_sge sge;
	struct siw_fpdu_info fi;
	union iwarp_hdr h;
	u8 *buf = raw_buf(test);
	struct ib_wc wc;

	mpa.p2p = true;
	mpa.rtr = SIW_RTR_WRITE;
	k = siwk_raw(test, &mpa, false);
	sge = siwk_sge(k, k->a.buf, 8);
	KUNIT_ASSERT_EQ(test, siwk_post_send(k->a.qp, 1, &sge, 1), 0);
	KUNIT_EXPECT_TRUE(test, raw_quiet(k->b.sock));
	KUNIT_EXPECT_TRUE(test, siwk_quiet(k->a.scq));

	siw_fpdu_rtr(&h, SIW_RTR_WRITE, 0);
	raw_send(test, k->b.sock, &h, 0, NULL, 0, false);
	raw_expect(test, buf, raw_recv(k->b.sock, buf), RDMAP_SEND, 8, &fi);
	KUNIT_EXPECT_EQ(test, fi.msn, 1U);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.scq, &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, READ_ONCE(rqp(k->a.qp)->state), IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, siw_test.qp_terms(rqp(k->a.qp), true), 0U);
}

/*
 * Any other responder sends at once, before it received anything, as
 * upstream's: the passive side of ucmatose sends first, and its
 * initiator sends nothing before it received all of it.
 */
static void siw_qp_responder_sends(struct kunit *test)
{
	struct siw_mpa_result mpa = siwk_mpa(false);
	struct siwk *k = siwk_raw(test, &mpa, false);
	struct ib_sge sge = siwk_sge(k, k->a.buf, 8);
	struct siw_fpdu_info fi;
	u8 *buf = raw_buf(test);
	struct ib_wc wc;

	KUNIT_ASSERT_EQ(test, siwk_post_send(k->a.qp, 1, &sge, 1), 0);
	raw_expect(test, buf, raw_recv(k->b.sock, buf), RDMAP_SEND, 8, &fi);
	KUNIT_EXPECT_EQ(test, fi.msn, 1U);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.scq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 1);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, READ_ONCE(rqp(k->a.qp)->state), IB_QPS_RTS);
}

/*
 * A consumer's QP is in INIT when the CM hands it the stream, and the
 * responder may send as soon as it is in RTS itself: a SEND that comes
 * then stays in the socket (rdmavt takes no receive WQE in INIT; it is
 * not refused for want of one) and is placed once the CM moved the QP
 * to RTS and called siw_qp_stream_receive().
 */
static void siw_qp_init_receives_later(struct kunit *test)
{
	struct siw_mpa_result mpa = siwk_mpa(false);
	struct siwk *k = siwk_raw_at(test, &mpa, true, false);
	struct ib_sge sge = siwk_sge(k, k->a.buf, 16);
	static const u8 pl[5] = "ucma";
	union iwarp_hdr h;
	struct ib_wc wc;

	KUNIT_ASSERT_EQ(test, siwk_post_recv(k->a.qp, NULL, 7, &sge, 1), 0);
	siw_fpdu_init_hdr(&h, RDMAP_SEND);
	h.send.ddp_msn = cpu_to_be32(1);
	raw_send(test, k->b.sock, &h, 0, pl, sizeof(pl), false);
	/* neither placed nor refused (no TERMINATE) while in INIT */
	KUNIT_EXPECT_TRUE(test, raw_quiet(k->b.sock));
	KUNIT_EXPECT_TRUE(test, siwk_quiet(k->a.rcq));
	KUNIT_EXPECT_EQ(test, READ_ONCE(rqp(k->a.qp)->state), IB_QPS_INIT);

	siwk_init_to_rts(test, k->a.qp);
	siw_test.qp_stream_receive(rqp(k->a.qp));
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.rcq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 7);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.byte_len, sizeof(pl));
	KUNIT_EXPECT_MEMEQ(test, k->a.buf, pl, sizeof(pl));
	KUNIT_EXPECT_EQ(test, READ_ONCE(rqp(k->a.qp)->state), IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, siw_test.qp_terms(rqp(k->a.qp), true), 0U);
}

/* An initiator sends at once: nothing holds it. */
static void siw_qp_initiator_sends(struct kunit *test)
{
	struct siw_mpa_result mpa = siwk_mpa(true);
	struct siwk *k = siwk_raw(test, &mpa, true);
	struct ib_sge sge = siwk_sge(k, k->a.buf, 8);
	struct siw_fpdu_info fi;
	u8 *buf = raw_buf(test);

	KUNIT_ASSERT_EQ(test, siwk_post_send(k->a.qp, 1, &sge, 1), 0);
	raw_expect(test, buf, raw_recv(k->b.sock, buf), RDMAP_SEND, 8, &fi);
	KUNIT_EXPECT_EQ(test, siw_fpdu_check_crc(buf, fi.fpdu_len), 0);
}

static const u8 rtr_modes[] = { SIW_RTR_WRITE, SIW_RTR_READ };

static void rtr_desc(const u8 *rtr, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s RTR",
		 *rtr == SIW_RTR_WRITE ? "WRITE" : "READ");
}

KUNIT_ARRAY_PARAM(rtr, rtr_modes, rtr_desc);

/*
 * A peer-to-peer initiator's first FPDU is its RTR, as upstream's: a
 * zero-length WRITE to STag 1, or a zero-length READ of STag 1 whose
 * (zero-length) response completes nothing.
 */
static void siw_qp_p2p_rtr(struct kunit *test)
{
	const u8 *rtr = test->param_value;
	struct siw_mpa_result mpa = siwk_mpa(false);
	struct siwk *k;
	struct ib_sge sge;
	struct siw_fpdu_info fi;
	union iwarp_hdr h;
	u8 *buf = raw_buf(test);
	struct ib_wc wc;

	mpa.p2p = true;
	mpa.rtr = *rtr;
	k = siwk_raw(test, &mpa, true);
	sge = siwk_sge(k, k->a.buf, 8);
	if (*rtr == SIW_RTR_WRITE) {
		raw_expect(test, buf, raw_recv(k->b.sock, buf),
			   RDMAP_RDMA_WRITE, 0, &fi);
		KUNIT_EXPECT_EQ(test, fi.stag, 1U);
		KUNIT_EXPECT_EQ(test, fi.to, 0ULL);
	} else {
		raw_expect(test, buf, raw_recv(k->b.sock, buf),
			   RDMAP_RDMA_READ_REQ, 0, &fi);
		KUNIT_EXPECT_EQ(test, fi.msn, 1U);
		memcpy(&h, buf, sizeof(h.rreq));
		KUNIT_EXPECT_EQ(test, be32_to_cpu(h.rreq.source_stag), 1U);
		KUNIT_EXPECT_EQ(test, be32_to_cpu(h.rreq.read_size), 0U);
		KUNIT_EXPECT_EQ(test, be32_to_cpu(h.rreq.sink_stag), 0U);
		siw_fpdu_init_hdr(&h, RDMAP_RDMA_READ_RESP);
		raw_send(test, k->b.sock, &h, 0, NULL, 0, false);
	}
	/* the RTR completes nothing; the stream goes on */
	KUNIT_EXPECT_TRUE(test, siwk_quiet(k->a.scq));
	KUNIT_ASSERT_EQ(test, siwk_post_send(k->a.qp, 2, &sge, 1), 0);
	raw_expect(test, buf, raw_recv(k->b.sock, buf), RDMAP_SEND, 8, &fi);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.scq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 2);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_TRUE(test, siwk_quiet(k->a.scq));
	KUNIT_EXPECT_EQ(test, READ_ONCE(rqp(k->a.qp)->state), IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, siw_test.qp_terms(rqp(k->a.qp), true), 0U);
}

/*
 * The TERMINATE siw sends for a segment it refuses: @bad (as sent,
 * @bad_len bytes) comes back behind it with its length field set to the
 * segment's payload, @flags set.
 */
static void raw_expect_term(struct kunit *test, struct siwk *k, u8 layer,
			    u8 etype, u8 ecode, u32 flags,
			    const union iwarp_hdr *bad, u32 bad_len,
			    u16 payload, bool crc)
{
	struct siw_term_info ti;
	struct siw_fpdu_info fi;
	union iwarp_hdr want;
	u8 *buf = raw_buf(test);
	int len;

	len = raw_recv(k->b.sock, buf);
	raw_expect(test, buf, len, RDMAP_TERMINATE, bad_len, &fi);
	KUNIT_EXPECT_EQ(test, fi.msn, 1U);
	KUNIT_EXPECT_EQ(test, fi.mo, 0U);
	if (crc)
		KUNIT_EXPECT_EQ(test, siw_fpdu_check_crc(buf, len), 0);
	KUNIT_ASSERT_EQ(test, siw_term_parse(buf, fi.mpa_len + MPA_HDR_SIZE,
					     &ti), 0);
	KUNIT_EXPECT_EQ(test, ti.layer, layer);
	KUNIT_EXPECT_EQ(test, ti.etype, etype);
	KUNIT_EXPECT_EQ(test, ti.ecode, ecode);
	KUNIT_EXPECT_EQ(test, ti.flag_m, !!(flags & SIW_TERM_FLAG_M));
	KUNIT_EXPECT_EQ(test, ti.flag_d, !!(flags & SIW_TERM_FLAG_D));
	KUNIT_EXPECT_EQ(test, ti.flag_r, !!(flags & SIW_TERM_FLAG_R));
	if (!bad_len)
		return;
	want = *bad;
	want.ctrl.mpa_len = cpu_to_be16(payload);
	KUNIT_EXPECT_MEMEQ(test, buf + sizeof(struct iwarp_terminate), &want,
			   bad_len);
	KUNIT_EXPECT_TRUE(test, siwk_wait_state(k->a.qp, IB_QPS_ERR));
	KUNIT_EXPECT_EQ(test, siw_test.qp_terms(rqp(k->a.qp), true), 1U);
}

/* A WRITE to a bad STag: DDP tagged "invalid STag", its DDP header. */
static void siw_qp_term_write(struct kunit *test)
{
	struct siw_mpa_result mpa = siwk_mpa(true);
	struct siwk *k = siwk_raw(test, &mpa, true);
	static const u8 pl[5] = "data";
	union iwarp_hdr h;

	siw_fpdu_init_hdr(&h, RDMAP_RDMA_WRITE);
	h.rwrite.sink_stag = cpu_to_be32(k->pd->unsafe_global_rkey + 0x100);
	raw_send(test, k->b.sock, &h, 0x1000, pl, sizeof(pl), true);
	raw_expect_term(test, k, TERM_ERROR_LAYER_DDP, DDP_ETYPE_TAGGED_BUF,
			DDP_ECODE_T_INVALID_STAG,
			SIW_TERM_FLAG_M | SIW_TERM_FLAG_D, &h,
			sizeof(struct iwarp_ctrl_tagged), sizeof(pl), true);
}

/* A SEND with no receive posted: DDP untagged "no buffer", 20 bytes. */
static void siw_qp_term_send(struct kunit *test)
{
	struct siw_mpa_result mpa = siwk_mpa(false);
	struct siwk *k = siwk_raw(test, &mpa, false);
	static const u8 pl[3] = "ab";
	union iwarp_hdr h;

	siw_fpdu_init_hdr(&h, RDMAP_SEND);
	h.send.ddp_msn = cpu_to_be32(1);
	raw_send(test, k->b.sock, &h, 0, pl, sizeof(pl), false);
	raw_expect_term(test, k, TERM_ERROR_LAYER_DDP, DDP_ETYPE_UNTAGGED_BUF,
			DDP_ECODE_UT_INVALID_MSN_NOBUF,
			SIW_TERM_FLAG_M | SIW_TERM_FLAG_D, &h,
			sizeof(struct iwarp_ctrl_untagged), sizeof(pl), false);
}

/*
 * A READ of a bad source STag: RDMAP remote protection "invalid STag"
 * found building the response; the whole READ request comes back.
 */
static void siw_qp_term_read(struct kunit *test)
{
	struct siw_mpa_result mpa = siwk_mpa(false);
	struct siwk *k = siwk_raw(test, &mpa, false);
	union iwarp_hdr h;

	siw_fpdu_init_hdr(&h, RDMAP_RDMA_READ_REQ);
	h.rreq.ddp_msn = cpu_to_be32(1);
	h.rreq.sink_stag = cpu_to_be32(0x4711);
	h.rreq.sink_to = cpu_to_be64(0x10000);
	h.rreq.read_size = cpu_to_be32(64);
	h.rreq.source_stag = cpu_to_be32(k->pd->unsafe_global_rkey + 0x100);
	h.rreq.source_to = cpu_to_be64((uintptr_t)k->a.buf);
	raw_send(test, k->b.sock, &h, 0, NULL, 0, false);
	raw_expect_term(test, k, TERM_ERROR_LAYER_RDMAP,
			RDMAP_ETYPE_REMOTE_PROTECTION,
			RDMAP_ECODE_INVALID_STAG,
			SIW_TERM_FLAG_M | SIW_TERM_FLAG_D | SIW_TERM_FLAG_R,
			&h, sizeof(struct iwarp_rdma_rreq), 0, false);
}

static const bool fence_modes[] = { false, true };

static void fence_desc(const bool *f, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s",
		 *f ? "fenced" : "not fenced");
}

KUNIT_ARRAY_PARAM(fence, fence_modes, fence_desc);

/*
 * A WRITE behind a READ: with IB_SEND_FENCE it leaves only once the
 * READ's response came (upstream's orq_fence), else at once.
 */
static void siw_qp_fence(struct kunit *test)
{
	const bool *fenced = test->param_value;
	struct siw_mpa_result mpa = siwk_mpa(false);
	struct siwk *k = siwk_raw(test, &mpa, true);
	struct ib_sge rsge = siwk_sge(k, k->a.buf2, 64);
	struct ib_sge wsge = siwk_sge(k, k->a.buf, 16);
	const struct ib_send_wr *bad;
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_id = 2,
			.opcode = IB_WR_RDMA_WRITE,
			.sg_list = &wsge,
			.num_sge = 1,
			.send_flags = IB_SEND_SIGNALED |
				      (*fenced ? IB_SEND_FENCE : 0),
		},
		.remote_addr = 0x2000,
		.rkey = 0x99,
	};
	struct siw_fpdu_info fi;
	union iwarp_hdr h, req;
	u8 *buf = raw_buf(test), data[64];
	struct ib_wc wc;

	siwk_fill(data, sizeof(data), 5);
	KUNIT_ASSERT_EQ(test, siwk_post_rdma(k->a.qp, IB_WR_RDMA_READ, 1, &rsge,
					     0x77, (void *)0x1000), 0);
	KUNIT_ASSERT_EQ(test, ib_post_send(k->a.qp, &wr.wr, &bad), 0);
	raw_expect(test, buf, raw_recv(k->b.sock, buf), RDMAP_RDMA_READ_REQ, 0,
		   &fi);
	memcpy(&req, buf, sizeof(req.rreq));
	if (*fenced) {
		KUNIT_EXPECT_TRUE(test, raw_quiet(k->b.sock));
	} else {
		raw_expect(test, buf, raw_recv(k->b.sock, buf),
			   RDMAP_RDMA_WRITE, 16, &fi);
	}
	siw_fpdu_init_hdr(&h, RDMAP_RDMA_READ_RESP);
	h.rresp.sink_stag = req.rreq.sink_stag;
	raw_send(test, k->b.sock, &h, be64_to_cpu(req.rreq.sink_to), data,
		 sizeof(data), false);
	if (*fenced)
		raw_expect(test, buf, raw_recv(k->b.sock, buf),
			   RDMAP_RDMA_WRITE, 16, &fi);
	KUNIT_EXPECT_EQ(test, fi.stag, 0x99U);
	/* in order: the READ, then the WRITE */
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.scq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 1);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.scq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 2);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_MEMEQ(test, k->a.buf2, data, sizeof(data));
}

static u64 siwk_fpdus(struct siw_qp_stream *st)
{
	return READ_ONCE(st->tx_fpdus);
}

/* The FPDUs A's stream sent reach @n within 5 s. */
static bool siwk_fpdus_reach(struct siwk_side *s, u64 n)
{
	struct siw_qp_stream *st = rqp(s->qp)->priv;
	int i;

	for (i = 0; i < 5000; i++) {
		if (siwk_fpdus(st) >= n)
			return true;
		usleep_range(500, 1000);
	}
	return false;
}

static int siwk_post(struct ib_qp *qp, enum ib_wr_opcode op, u64 id,
		     struct ib_sge *sge, int flags)
{
	const struct ib_send_wr *bad;
	struct ib_send_wr wr = {
		.wr_id = id,
		.opcode = op,
		.sg_list = sge,
		.num_sge = sge ? 1 : 0,
		.send_flags = IB_SEND_SIGNALED | flags,
	};

	return ib_post_send(qp, &wr, &bad);
}

static unsigned int siwk_dma_refs(struct siwk *k)
{
	return refcount_read(&container_of(k->pd->__internal_mr, struct rvt_mr,
					   ibmr)->mr.refcount);
}

/*
 * The PD's MR is back to @n references within 5 s: a READ's responder
 * drops its source's once the socket took its last segment, which may
 * be after the requester saw the completion.
 */
static bool siwk_dma_refs_reach(struct siwk *k, unsigned int n)
{
	int i;

	for (i = 0; i < 5000; i++) {
		if (siwk_dma_refs(k) == n)
			return true;
		usleep_range(500, 1000);
	}
	return false;
}

/*
 * A's queue with requests siw holds in rdmavt's ring: a READ sent that
 * B will never answer (B's stream is stopped), a SEND behind it that TCP
 * took (done, waiting for the READ to complete first), a fenced SEND
 * that waits for the READ; then a LOCAL_INV that rdmavt keeps behind
 * them.  Nothing completes.  Returns with the three requests' MR
 * references held.
 */
static void siwk_hold_three(struct kunit *test, struct siwk *k)
{
	struct ib_sge sge = siwk_sge(k, k->a.buf, 64);
	const struct ib_send_wr *bad;
	struct ib_send_wr inv = {
		.wr_id = 4,
		.opcode = IB_WR_LOCAL_INV,
		.send_flags = IB_SEND_SIGNALED,
		.ex.invalidate_rkey = k->pd->local_dma_lkey + 0x100,
	};
	struct socket *sock;

	sock = siw_test.qp_stream_stop(rqp(k->b.qp), false);
	KUNIT_EXPECT_PTR_EQ(test, sock, k->b.sock);
	KUNIT_ASSERT_EQ(test, siwk_post_rdma(k->a.qp, IB_WR_RDMA_READ, 1,
					     &sge, k->pd->unsafe_global_rkey,
					     k->b.buf), 0);
	KUNIT_ASSERT_EQ(test, siwk_post(k->a.qp, IB_WR_SEND, 2, &sge, 0), 0);
	KUNIT_ASSERT_EQ(test, siwk_post(k->a.qp, IB_WR_SEND, 3, &sge,
					IB_SEND_FENCE), 0);
	KUNIT_ASSERT_EQ(test, ib_post_send(k->a.qp, &inv, &bad), 0);
	/* the READ request and the first SEND are on the wire */
	KUNIT_ASSERT_TRUE(test, siwk_fpdus_reach(&k->a, 2));
	KUNIT_EXPECT_TRUE(test, siwk_quiet(k->a.scq));
	KUNIT_EXPECT_EQ(test, READ_ONCE(((struct siw_qp_stream *)
					 rqp(k->a.qp)->priv)->tx_fpdus), 2ULL);
	/* the PD's own, and one per request siw holds */
	KUNIT_EXPECT_EQ(test, siwk_dma_refs(k), 4U);
}

/*
 * ERROR with requests in flight: siw gives back the three it holds, in
 * order, the SEND that went out with success and the others flushed;
 * rdmavt flushes the LOCAL_INV only after them.  Every MR reference is
 * back, and a post afterwards flushes at once.
 */
static void siw_qp_error_in_flight(struct kunit *test)
{
	struct siwk *k = siwk_pair(test, false, false);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	static const struct {
		u64 id;
		enum ib_wc_status status;
	} want[] = {
		{ 1, IB_WC_WR_FLUSH_ERR },
		{ 2, IB_WC_SUCCESS },
		{ 3, IB_WC_WR_FLUSH_ERR },
		{ 4, IB_WC_WR_FLUSH_ERR },
	};
	struct ib_wc wc;
	int i;

	siwk_hold_three(test, k);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(k->a.qp, &attr, IB_QP_STATE), 0);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.scq, &wc));
		KUNIT_EXPECT_EQ(test, wc.wr_id, want[i].id);
		KUNIT_EXPECT_EQ(test, wc.status, want[i].status);
	}
	KUNIT_EXPECT_TRUE(test, siwk_quiet(k->a.scq));
	KUNIT_EXPECT_EQ(test, siwk_dma_refs(k), 1U);
	siwk_expect_flush(test, &k->a, k);
	KUNIT_EXPECT_EQ(test, siwk_dma_refs(k), 1U);
}

/*
 * Destroy, and RESET, with requests siw holds: neither waits for the
 * peer that never answers, nothing completes, every MR reference is
 * back.  @reset: RESET first (its stream still bound), then destroy;
 * else the stream is stopped (the requests stay held) and the QP
 * destroyed.
 */
static void siw_qp_destroy_in_flight(struct kunit *test)
{
	const bool *reset = test->param_value;
	struct siwk *k = siwk_pair(test, false, false);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_RESET };
	struct socket *sock;
	struct ib_wc wc;

	siwk_hold_three(test, k);
	if (*reset) {
		KUNIT_ASSERT_EQ(test, ib_modify_qp(k->a.qp, &attr, IB_QP_STATE),
				0);
		KUNIT_EXPECT_EQ(test, siwk_dma_refs(k), 1U);
		KUNIT_EXPECT_EQ(test, ib_poll_cq(k->a.scq, 1, &wc), 0);
	}
	sock = siw_test.qp_stream_stop(rqp(k->a.qp), false);
	KUNIT_EXPECT_PTR_EQ(test, sock, k->a.sock);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(k->a.qp), 0);
	k->a.qp = NULL;
	KUNIT_EXPECT_EQ(test, siwk_dma_refs(k), 1U);
	KUNIT_EXPECT_TRUE(test, siwk_quiet(k->a.scq));
}

static const bool reset_modes[] = { false, true };

static void reset_desc(const bool *r, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s",
		 *r ? "reset, then destroy" : "stream stopped, destroy");
}

KUNIT_ARRAY_PARAM(reset, reset_modes, reset_desc);

static u64 siwk_spliced(struct siwk_side *s)
{
	return READ_ONCE(((struct siw_qp_stream *)rqp(s->qp)->priv)->tx_spliced);
}

/*
 * Large SEND, WRITE and READ whose payload goes from the registered
 * pages (SGEs at odd offsets across page boundaries): the data arrives
 * byte for byte, with and without CRC, and TCP took the payload by page.
 */
static void siw_qp_zcopy(struct kunit *test)
{
	const bool *crc = test->param_value;
	struct siwk *k = siwk_pair(test, *crc, false);
	u32 rkey = k->pd->unsafe_global_rkey;
	struct ib_sge ssge[3] = {
		siwk_sge(k, k->a.buf + 100, 10000),
		siwk_sge(k, k->a.buf + 20000, 3),
		siwk_sge(k, k->a.buf2 + PAGE_SIZE - 1, 50000),
	};
	struct ib_sge rsge = siwk_sge(k, k->b.buf, BUF_LEN);
	u32 len = 10000 + 3 + 50000;
	u8 *want = kunit_kzalloc(test, BUF_LEN, GFP_KERNEL);
	struct ib_sge sge;
	u64 spliced;
	struct ib_wc wc;

	KUNIT_ASSERT_NOT_NULL(test, want);
	siwk_fill(k->a.buf, BUF_LEN, 11);
	siwk_fill(k->a.buf2, BUF_LEN, 13);
	memcpy(want, k->a.buf + 100, 10000);
	memcpy(want + 10000, k->a.buf + 20000, 3);
	memcpy(want + 10003, k->a.buf2 + PAGE_SIZE - 1, 50000);
	memset(k->b.buf, 0, BUF_LEN);
	spliced = siwk_spliced(&k->a);
	KUNIT_ASSERT_EQ(test, siwk_post_recv(k->b.qp, NULL, 1, &rsge, 1), 0);
	KUNIT_ASSERT_EQ(test, siwk_post_send(k->a.qp, 2, ssge, 3), 0);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.scq, &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->b.rcq, &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.byte_len, len);
	KUNIT_EXPECT_EQ(test, memcmp(k->b.buf, want, len), 0);
	KUNIT_EXPECT_EQ(test, k->b.buf[len], 0);
	KUNIT_EXPECT_GT(test, siwk_spliced(&k->a), spliced);

	/* WRITE 64K + 1 from an odd offset, READ it back into A's buf2 */
	spliced = siwk_spliced(&k->a);
	memset(k->b.buf, 0, BUF_LEN);
	memset(k->a.buf2, 0, BUF_LEN);
	sge = siwk_sge(k, k->a.buf + 7, SZ_64K + 1);
	KUNIT_ASSERT_EQ(test, siwk_post_rdma(k->a.qp, IB_WR_RDMA_WRITE, 3,
					     &sge, rkey, k->b.buf + 3), 0);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.scq, &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_GT(test, siwk_spliced(&k->a), spliced);
	sge = siwk_sge(k, k->a.buf2 + 5, SZ_64K + 1);
	KUNIT_ASSERT_EQ(test, siwk_post_rdma(k->a.qp, IB_WR_RDMA_READ, 4,
					     &sge, rkey, k->b.buf + 3), 0);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.scq, &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.byte_len, SZ_64K + 1);
	KUNIT_EXPECT_EQ(test, memcmp(k->b.buf + 3, k->a.buf + 7, SZ_64K + 1), 0);
	KUNIT_EXPECT_EQ(test, memcmp(k->a.buf2 + 5, k->a.buf + 7, SZ_64K + 1),
			0);
	KUNIT_EXPECT_EQ(test, k->b.buf[2], 0);
	KUNIT_EXPECT_EQ(test, k->b.buf[SZ_64K + 4], 0);
	KUNIT_EXPECT_EQ(test, k->a.buf2[4], 0);
	KUNIT_EXPECT_TRUE(test, siwk_dma_refs_reach(k, 1));
}

/*
 * A SEND whose payload TCP took by page completes only once TCP's peer
 * acknowledged it (TCP retransmits from the consumer's pages until
 * then): while B's socket is owned (its TCP queues what comes and acks
 * nothing) A's SEND of two pages does not complete, and does once B's
 * socket is released.  A small SEND, copied by TCP, completes while B is
 * held, as upstream's do.
 */
static void siw_qp_zcopy_ack(struct kunit *test)
{
	struct siwk *k = siwk_pair(test, true, false);
	struct ib_sge big = siwk_sge(k, k->a.buf, 2 * PAGE_SIZE);
	struct ib_sge small = siwk_sge(k, k->a.buf2, 16);
	struct ib_sge rsge = siwk_sge(k, k->b.buf, BUF_LEN);
	struct ib_sge rsge2 = siwk_sge(k, k->b.buf2, BUF_LEN);
	struct sock *bsk = k->b.sock->sk;
	u8 *want = kunit_kzalloc(test, 2 * PAGE_SIZE, GFP_KERNEL);
	struct ib_wc wc;

	KUNIT_ASSERT_NOT_NULL(test, want);
	siwk_fill(k->a.buf, 2 * PAGE_SIZE, 21);
	siwk_fill(k->a.buf2, 16, 23);
	memcpy(want, k->a.buf, 2 * PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, siwk_post_recv(k->b.qp, NULL, 1, &rsge, 1), 0);
	KUNIT_ASSERT_EQ(test, siwk_post_recv(k->b.qp, NULL, 2, &rsge2, 1), 0);

	lock_sock(bsk);
	KUNIT_ASSERT_EQ(test, siwk_post_send(k->a.qp, 3, &small, 1), 0);
	KUNIT_EXPECT_TRUE(test, siwk_poll(k->a.scq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 3);
	KUNIT_ASSERT_EQ(test, siwk_post_send(k->a.qp, 4, &big, 1), 0);
	KUNIT_EXPECT_TRUE(test, siwk_fpdus_reach(&k->a, 2));
	KUNIT_EXPECT_TRUE(test, siwk_quiet(k->a.scq));
	release_sock(bsk);

	KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.scq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 4);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	/* the consumer reuses its buffer: B got what was posted */
	memset(k->a.buf, 0xee, 2 * PAGE_SIZE);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->b.rcq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 1);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->b.rcq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 2);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 2 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, memcmp(k->b.buf2, want, 2 * PAGE_SIZE), 0);
	KUNIT_EXPECT_GT(test, siwk_spliced(&k->a), 0ULL);
}

/* A SEND queued as a doorbell queues it: rdmavt's ring, no kick. */
static void siwk_ring_send(struct kunit *test, struct siwk *k, u64 id,
			   struct ib_sge *sge)
{
	struct rvt_ring_wr rwr = {
		.wr = {
			.wr_id = id,
			.opcode = IB_WR_SEND,
			.sg_list = sge,
			.num_sge = 1,
			.send_flags = IB_SEND_SIGNALED,
		},
	};

	KUNIT_ASSERT_EQ(test, rvt_post_ring_wr(rqp(k->a.qp), &rwr), 0);
}

static u64 siwk_direct(struct siw_qp_stream *st)
{
	return READ_ONCE(st->tx_direct_fpdus);
}

/*
 * A user QP's doorbell sends in its own context (siw_tx_direct(), as
 * upstream's siw sends in POST_SEND): when it returns, the SEND is on
 * the socket and complete, and no worker was asked.  While the
 * transmitter runs elsewhere (its mutex held here), the work item takes
 * the request instead, and sends it once that run ends.
 */
static void siw_qp_tx_direct(struct kunit *test)
{
	struct siwk *k = siwk_pair(test, true, false);
	struct siw_qp_stream *st = rqp(k->a.qp)->priv;
	struct ib_sge ssge = siwk_sge(k, k->a.buf, 100);
	struct ib_sge rsge = siwk_sge(k, k->b.buf, BUF_LEN);
	struct ib_wc wc;
	u64 fpdus;

	siwk_fill(k->a.buf, 100, 9);
	KUNIT_ASSERT_EQ(test, siwk_post_recv(k->b.qp, NULL, 1, &rsge, 1), 0);
	KUNIT_ASSERT_EQ(test, siwk_post_recv(k->b.qp, NULL, 2, &rsge, 1), 0);
	/* the RTR-less stream is idle: what it sent is the base */
	fpdus = siwk_fpdus(st);

	siwk_ring_send(test, k, 1, &ssge);
	siw_test.tx_direct(rqp(k->a.qp));
	KUNIT_EXPECT_EQ(test, siwk_direct(st), 1ULL);
	KUNIT_EXPECT_EQ(test, siwk_fpdus(st), fpdus + 1);
	KUNIT_EXPECT_FALSE(test, work_pending(&st->tx_work));
	/* complete already: its payload was copied into the socket */
	KUNIT_ASSERT_EQ(test, ib_poll_cq(k->a.scq, 1, &wc), 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 1);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->b.rcq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 1);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 100);
	KUNIT_EXPECT_EQ(test, memcmp(k->a.buf, k->b.buf, 100), 0);

	/* the transmitter busy elsewhere: the work item sends, after it */
	mutex_lock(&st->tx_mutex);
	siwk_ring_send(test, k, 2, &ssge);
	siw_test.tx_direct(rqp(k->a.qp));
	KUNIT_EXPECT_EQ(test, siwk_fpdus(st), fpdus + 1);
	KUNIT_EXPECT_TRUE(test, siwk_quiet(k->a.scq));
	mutex_unlock(&st->tx_mutex);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.scq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 2);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->b.rcq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 2);
	KUNIT_EXPECT_EQ(test, siwk_fpdus(st), fpdus + 2);
	KUNIT_EXPECT_EQ(test, siwk_direct(st), 1ULL);

	/* a kernel consumer's post goes to the work item, as before */
	KUNIT_ASSERT_EQ(test, siwk_post_recv(k->b.qp, NULL, 3, &rsge, 1), 0);
	KUNIT_ASSERT_EQ(test, siwk_post_send(k->a.qp, 3, &ssge, 1), 0);
	KUNIT_ASSERT_TRUE(test, siwk_poll(k->a.scq, &wc));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 3);
	KUNIT_EXPECT_EQ(test, siwk_direct(st), 1ULL);
}

static int siwk_suite_init(struct kunit_suite *suite)
{
	struct net_device *lo = dev_get_by_name(&init_net, "lo");
	int ret;

	if (!lo)
		return -ENODEV;
	ret = siw_test.device_add("siw_qpk", lo);
	if (!ret) {
		siwk_dev = ib_device_get_by_netdev(lo, RDMA_DRIVER_SIW);
		if (!siwk_dev)
			ret = -ENODEV;
	}
	dev_put(lo);
	return ret;
}

static void siwk_suite_exit(struct kunit_suite *suite)
{
	if (siwk_dev)
		ib_unregister_device_and_put(siwk_dev);
	siwk_dev = NULL;
}

/* ------------------------------------------------------------------
 * On-demand paging MRs
 */

#define ODP_LEN		(32 * PAGE_SIZE)
#define ODP_ACC		(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | \
			 IB_ACCESS_REMOTE_READ | IB_ACCESS_ON_DEMAND)

/* The QPs of @p go before the MRs registered after them. */
static void siwk_drop_qps(void *p)
{
	struct siwk *k = p;
	struct siwk_side *sides[] = { &k->a, &k->b };
	struct socket *sock;
	int i;

	for (i = 0; i < ARRAY_SIZE(sides); i++) {
		struct siwk_side *s = sides[i];

		sock = siw_test.qp_stream_stop(rqp(s->qp), false);
		if (sock && sock != s->sock)
			sock_release(sock);
		ib_destroy_qp(s->qp);
		s->qp = NULL;
	}
}

/* ODP_LEN bytes of user memory filled with a pattern from @seed */
static unsigned long siwk_user_buf(struct kunit *test, u8 seed)
{
	unsigned long uva = kt_user_mmap(test, ODP_LEN,
					 PROT_READ | PROT_WRITE);
	u8 *fill = kunit_kmalloc(test, ODP_LEN, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, fill);
	siwk_fill(fill, ODP_LEN, seed);
	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)uva, fill, ODP_LEN),
			0);
	kunit_kfree(test, fill);
	return uva;
}

/* Do @len bytes at user addresses @x and @y match? */
static void siwk_user_same(struct kunit *test, unsigned long x,
			   unsigned long y, u32 len)
{
	u8 *p = kunit_kmalloc(test, len, GFP_KERNEL);
	u8 *q = kunit_kmalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_TRUE(test, p && q);
	KUNIT_ASSERT_EQ(test, copy_from_user(p, (void __user *)x, len), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(q, (void __user *)y, len), 0);
	KUNIT_EXPECT_EQ(test, memcmp(p, q, len), 0);
	kunit_kfree(test, p);
	kunit_kfree(test, q);
}

/*
 * A pair (@crc) whose QPs each have ODP_LEN bytes of user memory (filled,
 * so that the process has the pages: the device has none yet) and an
 * on-demand paging MR over them; the QPs go before the MRs.
 */
struct siwk_odp {
	struct siwk	*k;
	unsigned long	ua, ub;
	struct ib_mr	*ma, *mb;
};

static void siwk_odp_pair(struct kunit *test, struct siwk_odp *o, bool crc)
{
	o->k = siwk_pair(test, crc, false);
	o->ua = siwk_user_buf(test, 3);
	o->ub = siwk_user_buf(test, 9);
	o->ma = kt_user_mr(test, o->k->pd, o->ua, ODP_LEN, ODP_ACC);
	o->mb = kt_user_mr(test, o->k->pd, o->ub, ODP_LEN, ODP_ACC);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, siwk_drop_qps,
							o->k), 0);
}

static struct ib_sge siwk_odp_sge(struct ib_mr *mr, unsigned long uva,
				  u32 len)
{
	return (struct ib_sge) { .addr = uva, .length = len,
				 .lkey = mr->lkey };
}

static void siwk_expect(struct kunit *test, struct ib_cq *cq, u64 id,
			enum ib_wc_status status)
{
	struct ib_wc wc;

	KUNIT_ASSERT_TRUE_MSG(test, siwk_poll(cq, &wc), "no wr_id %llu", id);
	KUNIT_EXPECT_EQ(test, wc.wr_id, id);
	KUNIT_EXPECT_EQ_MSG(test, wc.status, status, "wr_id %llu", id);
}

/*
 * siw offers on-demand paging MRs for RC SEND, RECV, WRITE, READ and SRQ
 * receives.  A SEND of several FPDUs, a WRITE and a READ between pages
 * the device has not mapped on either side land byte for byte: the
 * sender's pages are faulted in before siw takes the request, the
 * receiver leaves the bytes in the socket while a page of its target is
 * faulted in, then places them.  After munmap the next SEND lands in the
 * pages mapped there since.
 */
static void siw_qp_odp(struct kunit *test)
{
	const bool *crc = test->param_value;
	const struct ib_odp_caps *caps = &siwk_dev->attrs.odp_caps;
	struct siwk_odp o;
	unsigned long ua, ub;
	struct ib_mr *ma, *mb;
	struct ib_sge sge;
	struct siwk *k;

	siwk_odp_pair(test, &o, *crc);
	k = o.k;
	ua = o.ua;
	ub = o.ub;
	ma = o.ma;
	mb = o.mb;
	KUNIT_EXPECT_TRUE(test, siwk_dev->attrs.kernel_cap_flags &
			  IBK_ON_DEMAND_PAGING);
	KUNIT_EXPECT_TRUE(test, caps->general_caps & IB_ODP_SUPPORT);
	KUNIT_EXPECT_EQ(test, caps->per_transport_caps.rc_odp_caps,
			IB_ODP_SUPPORT_SEND | IB_ODP_SUPPORT_RECV |
			IB_ODP_SUPPORT_WRITE | IB_ODP_SUPPORT_READ |
			IB_ODP_SUPPORT_SRQ_RECV);

	/* SEND: 100 KiB, FPDUs of the MULPDU each */
	sge = siwk_odp_sge(mb, ub + 100, SZ_64K + SZ_32K);
	KUNIT_ASSERT_EQ(test, siwk_post_recv(k->b.qp, NULL, 2, &sge, 1), 0);
	sge = siwk_odp_sge(ma, ua, SZ_64K + SZ_32K);
	KUNIT_ASSERT_EQ(test, siwk_post_send(k->a.qp, 1, &sge, 1), 0);
	siwk_expect(test, k->a.scq, 1, IB_WC_SUCCESS);
	siwk_expect(test, k->b.rcq, 2, IB_WC_SUCCESS);
	siwk_user_same(test, ub + 100, ua, SZ_64K + SZ_32K);

	/* WRITE into b's last pages, READ them back into a's */
	sge = siwk_odp_sge(ma, ua + 25 * PAGE_SIZE, 4 * PAGE_SIZE + 7);
	KUNIT_ASSERT_EQ(test, siwk_post_rdma(k->a.qp, IB_WR_RDMA_WRITE, 3,
					     &sge, mb->rkey,
					     (void *)(ub + 26 * PAGE_SIZE)),
			0);
	siwk_expect(test, k->a.scq, 3, IB_WC_SUCCESS);
	sge = siwk_odp_sge(ma, ua + 30 * PAGE_SIZE, 2 * PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, siwk_post_rdma(k->a.qp, IB_WR_RDMA_READ, 4,
					     &sge, mb->rkey,
					     (void *)(ub + 26 * PAGE_SIZE)),
			0);
	siwk_expect(test, k->a.scq, 4, IB_WC_SUCCESS);
	siwk_user_same(test, ub + 26 * PAGE_SIZE, ua + 25 * PAGE_SIZE,
		       4 * PAGE_SIZE + 7);
	siwk_user_same(test, ua + 30 * PAGE_SIZE, ua + 25 * PAGE_SIZE,
		       2 * PAGE_SIZE);

	/* munmap: the next SEND lands in the new pages */
	kt_user_remap(test, ub, 4 * PAGE_SIZE);
	sge = siwk_odp_sge(mb, ub + 8, 3000);
	KUNIT_ASSERT_EQ(test, siwk_post_recv(k->b.qp, NULL, 6, &sge, 1), 0);
	sge = siwk_odp_sge(ma, ua + 3 * PAGE_SIZE, 3000);
	KUNIT_ASSERT_EQ(test, siwk_post_send(k->a.qp, 5, &sge, 1), 0);
	siwk_expect(test, k->a.scq, 5, IB_WC_SUCCESS);
	siwk_expect(test, k->b.rcq, 6, IB_WC_SUCCESS);
	siwk_user_same(test, ub + 8, ua + 3 * PAGE_SIZE, 3000);
}

/*
 * Pages the process does not have: a SEND from them fails at the
 * requester (IB_WC_LOC_PROT_ERR); a WRITE into them ends the stream with
 * a TERMINATE from the responder, as a bad STag does.
 */
static void siw_qp_odp_fault_fails(struct kunit *test)
{
	struct siwk_odp o, p;
	struct ib_sge sge;

	siwk_odp_pair(test, &o, true);
	KUNIT_ASSERT_EQ(test, vm_munmap(o.ua + PAGE_SIZE, PAGE_SIZE), 0);
	sge = siwk_odp_sge(o.ma, o.ua + PAGE_SIZE, 100);
	KUNIT_ASSERT_EQ(test, siwk_post_send(o.k->a.qp, 1, &sge, 1), 0);
	siwk_expect(test, o.k->a.scq, 1, IB_WC_LOC_PROT_ERR);

	siwk_odp_pair(test, &p, true);
	KUNIT_ASSERT_EQ(test, vm_munmap(p.ub + PAGE_SIZE, PAGE_SIZE), 0);
	sge = siwk_odp_sge(p.ma, p.ua, 100);
	KUNIT_ASSERT_EQ(test, siwk_post_rdma(p.k->a.qp, IB_WR_RDMA_WRITE, 2,
					     &sge, p.mb->rkey,
					     (void *)(p.ub + PAGE_SIZE)), 0);
	siwk_expect(test, p.k->a.scq, 2, IB_WC_SUCCESS);
	siwk_expect_terminated(test, p.k);
}

static struct kunit_case siw_qp_cases[] = {
	KUNIT_CASE_PARAM(siw_qp_send_sizes, crc_gen_params),
	KUNIT_CASE(siw_qp_send_multi_sge),
	KUNIT_CASE(siw_qp_send_srq),
	KUNIT_CASE_PARAM(siw_qp_write_read, crc_gen_params),
	KUNIT_CASE(siw_qp_write_bad_rkey),
	KUNIT_CASE(siw_qp_read_bad_rkey),
	KUNIT_CASE(siw_qp_read_with_inv),
	KUNIT_CASE(siw_qp_rq_overrun),
	KUNIT_CASE(siw_qp_stop_in_flight),
	KUNIT_CASE(siw_qp_error_in_flight),
	KUNIT_CASE_PARAM(siw_qp_destroy_in_flight, reset_gen_params),
	KUNIT_CASE_PARAM(siw_qp_zcopy, crc_gen_params),
	KUNIT_CASE(siw_qp_zcopy_ack),
	KUNIT_CASE(siw_qp_tx_direct),
	KUNIT_CASE(siw_qp_refusals),
	KUNIT_CASE(siw_qp_responder_waits),
	KUNIT_CASE(siw_qp_responder_sends),
	KUNIT_CASE(siw_qp_init_receives_later),
	KUNIT_CASE(siw_qp_initiator_sends),
	KUNIT_CASE_PARAM(siw_qp_p2p_rtr, rtr_gen_params),
	KUNIT_CASE(siw_qp_term_write),
	KUNIT_CASE(siw_qp_term_send),
	KUNIT_CASE(siw_qp_term_read),
	KUNIT_CASE_PARAM(siw_qp_fence, fence_gen_params),
	KUNIT_CASE_PARAM(siw_qp_odp, crc_gen_params),
	KUNIT_CASE(siw_qp_odp_fault_fails),
	{}
};

static struct kunit_suite siw_qp_suite = {
	.name = "rdma_siw_qp",
	.suite_init = siwk_suite_init,
	.suite_exit = siwk_suite_exit,
	.test_cases = siw_qp_cases,
};

kunit_test_suite(siw_qp_suite);

MODULE_DESCRIPTION("KUnit tests of siw's QP data path on TCP loopback");
MODULE_LICENSE("Dual BSD/GPL");
