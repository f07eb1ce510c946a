// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite of rxe's connected transports (rxe_rc.c): an RC (or UC)
 * QP pair between the two devices of the bed (rxe_bed.h) over RoCE v2,
 * path MTU 1024, and the cable's hook deciding the fate of each RoCE
 * frame: SENDs, WRITEs and READs of one to several packets, with
 * immediate data, and atomics, every transfer complete and byte for byte
 * right (every atomic executed once) while frames are dropped, delivered
 * twice or reordered; the send window; atomics refused; an RNR NAK and
 * its retries; retries exhausted; UC.
 */
#include "rxe_bed.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define KR_BUF		SZ_16K
/* the window case's WRITE: more packets than RXE_WINDOW at 1024 bytes */
#define KR_BIG		(300 * SZ_1K)
#define KR_WR		32

/**
 * struct kr_side - one QP of the pair
 * @side: its device
 * @pd: its PD (with an rkey for all its memory)
 * @cq: its CQ, polled by the case
 * @qp: the QP
 * @buf: what it sends from and reads into
 * @rbuf: what it receives into and is written and read at
 * @atomic_mr: an MR of all memory with remote atomic access (the PD's
 *	global rkey has none)
 */
struct kr_side {
	struct ku_side	*side;
	struct ib_pd	*pd;
	struct ib_cq	*cq;
	struct ib_qp	*qp;
	u8		*buf;
	u8		*rbuf;
	struct ib_mr	*atomic_mr;
};

static void kr_free(void *p)
{
	struct kr_side *k = p;

	if (k->qp)
		ib_destroy_qp(k->qp);
	if (k->atomic_mr)
		k->pd->device->ops.dereg_mr(k->atomic_mr, NULL);
	if (k->cq)
		ib_free_cq(k->cq);
	if (k->pd)
		ib_dealloc_pd(k->pd);
	kvfree(k->buf);
	kvfree(k->rbuf);
}

static struct kr_side *kr_new(struct kunit *test, struct ku_side *s,
			      enum ib_qp_type type)
{
	struct ib_qp_init_attr init = {
		.qp_type = type,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.cap = { .max_send_wr = KR_WR, .max_recv_wr = KR_WR,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct kr_side *k = kunit_kzalloc(test, sizeof(*k), GFP_KERNEL);
	struct ib_mr *mr;

	KUNIT_ASSERT_NOT_NULL(test, k);
	k->side = s;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kr_free, k), 0);
	k->buf = kvzalloc(KR_BIG, GFP_KERNEL);
	k->rbuf = kvzalloc(KR_BIG, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, k->buf && k->rbuf);
	k->pd = ib_alloc_pd(s->ibdev, IB_PD_UNSAFE_GLOBAL_RKEY);
	KUNIT_ASSERT_FALSE(test, IS_ERR(k->pd));
	/* no verb gives a kernel user one: the driver's op, as the core's */
	mr = s->ibdev->ops.get_dma_mr(k->pd, IB_ACCESS_LOCAL_WRITE |
				      IB_ACCESS_REMOTE_ATOMIC);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	mr->device = s->ibdev;
	mr->pd = k->pd;
	mr->type = IB_MR_TYPE_DMA;
	k->atomic_mr = mr;
	k->cq = ib_alloc_cq(s->ibdev, NULL, 2 * KR_WR, 0, IB_POLL_DIRECT);
	if (IS_ERR(k->cq))
		k->cq = NULL;
	KUNIT_ASSERT_NOT_NULL(test, k->cq);
	init.send_cq = k->cq;
	init.recv_cq = k->cq;
	k->qp = ib_create_qp(k->pd, &init);
	if (IS_ERR(k->qp)) {
		KUNIT_FAIL(test, "create_qp: %ld", PTR_ERR(k->qp));
		k->qp = NULL;
		return NULL;
	}
	return k;
}

/* the QPs' local ACK timeout: 16 ms, unless a case wants another */
static u8 kr_timeout = 12;

/* @k to RTS towards @peer; retries and timers as the case wants. */
static void kr_connect(struct kunit *test, struct kr_side *k,
		       struct kr_side *peer, u8 retry, u8 rnr_retry)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IB_ACCESS_REMOTE_WRITE |
				   IB_ACCESS_REMOTE_READ |
				   IB_ACCESS_REMOTE_ATOMIC,
	};
	union ib_gid dgid;
	int index = ku_gid_index(k->side, 4, IB_GID_TYPE_ROCE_UDP_ENCAP);
	bool rc = k->qp->qp_type == IB_QPT_RC;

	KUNIT_ASSERT_GE(test, index, 0);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(k->qp, &attr, IB_QP_STATE |
					   IB_QP_PKEY_INDEX | IB_QP_PORT |
					   IB_QP_ACCESS_FLAGS), 0);
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTR;
	attr.path_mtu = IB_MTU_1024;
	attr.dest_qp_num = peer->qp->qp_num;
	/* the PSNs wrap within the first messages */
	attr.rq_psn = 0xfffff0;
	attr.max_dest_rd_atomic = rc ? 4 : 0;
	attr.min_rnr_timer = 1;		/* 0.01 ms */
	ku_gid(peer->side, 4, &dgid);
	attr.ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
	rdma_ah_set_port_num(&attr.ah_attr, 1);
	rdma_ah_set_grh(&attr.ah_attr, &dgid, 0, index, 64, 0);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(k->qp, &attr, IB_QP_STATE |
					   IB_QP_AV | IB_QP_PATH_MTU |
					   IB_QP_DEST_QPN | IB_QP_RQ_PSN |
					   (rc ? IB_QP_MAX_DEST_RD_ATOMIC |
					    IB_QP_MIN_RNR_TIMER : 0)), 0);
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTS;
	attr.sq_psn = 0xfffff0;
	attr.timeout = kr_timeout;
	attr.retry_cnt = retry;
	attr.rnr_retry = rnr_retry;
	attr.max_rd_atomic = rc ? 4 : 0;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(k->qp, &attr, IB_QP_STATE |
					   IB_QP_SQ_PSN |
					   (rc ? IB_QP_TIMEOUT |
					    IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
					    IB_QP_MAX_QP_RD_ATOMIC : 0)), 0);
}

/* A connected pair, a on device 0, b on device 1. */
static void kr_pair(struct kunit *test, enum ib_qp_type type, u8 retry,
		    u8 rnr_retry, struct kr_side **a, struct kr_side **b)
{
	ku_bed(test);
	*a = kr_new(test, &ku_side[0], type);
	*b = kr_new(test, &ku_side[1], type);
	KUNIT_ASSERT_TRUE(test, *a && *b);
	kr_connect(test, *a, *b, retry, rnr_retry);
	kr_connect(test, *b, *a, retry, rnr_retry);
}

static int kr_post_recv(struct kr_side *k, u64 id, u32 off, u32 len)
{
	struct ib_sge sge = {
		.addr = (uintptr_t)k->rbuf + off,
		.length = len,
		.lkey = k->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = 1 };

	return ib_post_recv(k->qp, &wr, NULL);
}

static int kr_post(struct kr_side *k, struct kr_side *peer, u64 id,
		   enum ib_wr_opcode op, u32 off, u32 roff, u32 len)
{
	struct ib_sge sge = {
		.addr = (uintptr_t)k->buf + off,
		.length = len,
		.lkey = k->pd->local_dma_lkey,
	};
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_id = id,
			.sg_list = &sge,
			.num_sge = len ? 1 : 0,
			.opcode = op,
			.ex.imm_data = cpu_to_be32(0x1000 + id),
		},
		.remote_addr = (uintptr_t)peer->rbuf + roff,
		.rkey = peer->pd->unsafe_global_rkey,
	};

	return ib_post_send(k->qp, &wr.wr, NULL);
}

/* An atomic of @k at @roff of @peer's rbuf, the original to @off of buf. */
static int kr_atomic(struct kr_side *k, struct kr_side *peer, u64 id,
		     enum ib_wr_opcode op, u32 off, u32 roff, u64 compare_add,
		     u64 swap)
{
	struct ib_sge sge = {
		.addr = (uintptr_t)k->buf + off,
		.length = sizeof(u64),
		.lkey = k->pd->local_dma_lkey,
	};
	struct ib_atomic_wr wr = {
		.wr = {
			.wr_id = id,
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = op,
		},
		.remote_addr = (uintptr_t)peer->rbuf + roff,
		.rkey = peer->atomic_mr->rkey,
		.compare_add = compare_add,
		.swap = swap,
	};

	return ib_post_send(k->qp, &wr.wr, NULL);
}

/* The next completion of @k within two seconds. */
static bool kr_poll(struct kr_side *k, struct ib_wc *wc)
{
	unsigned long end = jiffies + 2 * HZ;

	do {
		if (ib_poll_cq(k->cq, 1, wc) == 1)
			return true;
		usleep_range(200, 400);
	} while (time_before(jiffies, end));
	return false;
}

static void kr_fill(u8 *p, u32 len, u8 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		p[i] = seed + i * 13 + (i >> 8);
}

/* Expect the next completion of @k: @id with @status. */
static void kr_expect(struct kunit *test, struct kr_side *k, u64 id,
		      enum ib_wc_status status, struct ib_wc *wc)
{
	KUNIT_ASSERT_TRUE_MSG(test, kr_poll(k, wc), "no completion of %llu",
			      id);
	KUNIT_EXPECT_EQ(test, wc->wr_id, id);
	KUNIT_EXPECT_EQ_MSG(test, wc->status, status, "wr_id %llu",
			    wc->wr_id);
}

/*
 * Atomics on a counter at the end of b's buffer: three FETCH_AND_ADDs
 * and two CMP_AND_SWPs, one matching and one not, in one batch.  Each
 * executes once (a duplicate is answered from the replay cache): the
 * originals and the counter's end value say so.
 */
static void kr_atomics(struct kunit *test, struct kr_side *a,
		       struct kr_side *b)
{
	const u32 roff = KR_BUF - 8, off = KR_BUF - 64;
	u64 *ctr = (u64 *)(b->rbuf + roff), *orig = (u64 *)(a->buf + off), val;
	struct ib_wc wc;
	u32 i;

	*ctr = 1000;
	memset(orig, 0xee, 5 * sizeof(u64));
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_EQ(test, kr_atomic(a, b, 50 + i,
						IB_WR_ATOMIC_FETCH_AND_ADD,
						off + 8 * i, roff, 7, 0), 0);
	/* 1021 is there: swapped; then 1021 is not: not swapped */
	KUNIT_ASSERT_EQ(test, kr_atomic(a, b, 53, IB_WR_ATOMIC_CMP_AND_SWP,
					off + 24, roff, 1021, 5000), 0);
	KUNIT_ASSERT_EQ(test, kr_atomic(a, b, 54, IB_WR_ATOMIC_CMP_AND_SWP,
					off + 32, roff, 1021, 6000), 0);
	for (i = 0; i < 5; i++) {
		kr_expect(test, a, 50 + i, IB_WC_SUCCESS, &wc);
		KUNIT_EXPECT_EQ(test, wc.opcode, i < 3 ? IB_WC_FETCH_ADD :
				IB_WC_COMP_SWAP);
	}
	KUNIT_EXPECT_EQ(test, orig[0], 1000ULL);
	KUNIT_EXPECT_EQ(test, orig[1], 1007ULL);
	KUNIT_EXPECT_EQ(test, orig[2], 1014ULL);
	KUNIT_EXPECT_EQ(test, orig[3], 1021ULL);
	KUNIT_EXPECT_EQ(test, orig[4], 5000ULL);
	val = READ_ONCE(*ctr);
	KUNIT_EXPECT_EQ(test, val, 5000ULL);
}

/*
 * SENDs of 0 to 4 packets (one with immediate data), a WRITE of 9
 * packets, a WRITE with immediate, a READ of 9 packets back: all
 * complete in order and the bytes arrive.
 */
static void kr_traffic(struct kunit *test, struct kr_side *a,
		       struct kr_side *b)
{
	static const u32 lens[] = { 0, 1, 1024, 1025, 4000 };
	struct ib_wc wc;
	u32 i, off = 0;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		KUNIT_ASSERT_EQ(test, kr_post_recv(b, 10 + i, off, lens[i]),
				0);
		off += lens[i];
	}
	KUNIT_ASSERT_EQ(test, kr_post_recv(b, 20, 0, 0), 0);
	kr_fill(a->buf, KR_BUF, 1);
	off = 0;
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		KUNIT_ASSERT_EQ(test, kr_post(a, b, 10 + i, i == 3 ?
					      IB_WR_SEND_WITH_IMM :
					      IB_WR_SEND, off, 0, lens[i]),
				0);
		off += lens[i];
	}
	/* WRITE 9000 bytes past the SENDs, then with immediate */
	KUNIT_ASSERT_EQ(test, kr_post(a, b, 30, IB_WR_RDMA_WRITE, 0, 7000,
				      9000), 0);
	KUNIT_ASSERT_EQ(test, kr_post(a, b, 31, IB_WR_RDMA_WRITE_WITH_IMM,
				      9000, 16000, 300), 0);
	for (i = 0; i < ARRAY_SIZE(lens); i++)
		kr_expect(test, a, 10 + i, IB_WC_SUCCESS, &wc);
	kr_expect(test, a, 30, IB_WC_SUCCESS, &wc);
	kr_expect(test, a, 31, IB_WC_SUCCESS, &wc);
	off = 0;
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		kr_expect(test, b, 10 + i, IB_WC_SUCCESS, &wc);
		KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RECV);
		KUNIT_EXPECT_EQ(test, wc.byte_len, lens[i]);
		KUNIT_EXPECT_EQ(test, !!(wc.wc_flags & IB_WC_WITH_IMM), i == 3);
		off += lens[i];
	}
	KUNIT_EXPECT_MEMEQ(test, b->rbuf, a->buf, off);
	kr_expect(test, b, 20, IB_WC_SUCCESS, &wc);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RECV_RDMA_WITH_IMM);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 300U);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(wc.ex.imm_data), 0x1000 + 31);
	KUNIT_EXPECT_MEMEQ(test, b->rbuf + 7000, a->buf, 9000);
	KUNIT_EXPECT_MEMEQ(test, b->rbuf + 16000, a->buf + 9000, 300);

	if (a->qp->qp_type != IB_QPT_RC)
		return;
	/* READ the written bytes back into a's buffer's second half */
	memset(a->buf + 8192, 0, 8192);
	KUNIT_ASSERT_EQ(test, kr_post(a, b, 40, IB_WR_RDMA_READ, 8192, 7000,
				      8192), 0);
	kr_expect(test, a, 40, IB_WC_SUCCESS, &wc);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RDMA_READ);
	KUNIT_EXPECT_MEMEQ(test, a->buf + 8192, a->buf, 8192);

	kr_atomics(test, a, b);
}

static void rxe_rc_transfers(struct kunit *test)
{
	struct kr_side *a, *b;

	kr_pair(test, IB_QPT_RC, 7, 7, &a, &b);
	kr_traffic(test, a, b);
}

static enum ku_fate kr_drop_some(unsigned int n)
{
	/*
	 * About one frame in five, whatever it is: data, ACK, NAK, READ
	 * response.  Not every fifth: a period lets a retry round of a
	 * multiple of five frames lose the same packet for ever (a READ's
	 * request and its nine frames did).  A golden-ratio Weyl sequence
	 * has no period and never drops two frames in a row.
	 */
	return (u32)(n * 2654435769U) < 0x33333333U ? KU_DROP : KU_PASS;
}

static enum ku_fate kr_drop_all(unsigned int n)
{
	return KU_DROP;
}

static enum ku_fate kr_dup_all(unsigned int n)
{
	return KU_DUP;
}

static enum ku_fate kr_swap_pairs(unsigned int n)
{
	return n % 2 ? KU_HOLD : KU_PASS;
}

static void kr_restore(void *p)
{
	ku_fate_set(NULL);
}

/* The same transfers while the cable drops, doubles or reorders. */
static void kr_faulty(struct kunit *test, enum ku_fate (*fate)(unsigned int))
{
	struct kr_side *a, *b;

	kr_pair(test, IB_QPT_RC, 7, 7, &a, &b);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kr_restore,
							NULL), 0);
	ku_fate_set(fate);
	kr_traffic(test, a, b);
}

static void rxe_rc_drop(struct kunit *test)
{
	kr_faulty(test, kr_drop_some);
}

static void rxe_rc_duplicate(struct kunit *test)
{
	kr_faulty(test, kr_dup_all);
}

static void rxe_rc_reorder(struct kunit *test)
{
	kr_faulty(test, kr_swap_pairs);
}

/*
 * A WRITE of 300 packets while the cable drops everything: no more than
 * RXE_WINDOW PSNs go unacknowledged, in each retry round (counted under
 * the requester's lock, which every send holds).  Then the cable works
 * again and the WRITE completes: intermediate ACKs open the window.
 */
static void rxe_rc_window(struct kunit *test)
{
	unsigned long end = jiffies + 2 * HZ;
	struct kr_side *a, *b;
	struct rxe_qp_priv *priv;
	struct rvt_qp *qp;
	bool seen = false;
	struct ib_wc wc;
	int frames = 0, rounds = 0;

	/*
	 * 268 ms: a window's 128 frames under TCG take a good part of 16
	 * ms, and retries that come faster than the responder drains the
	 * backlog bury the ACKs under duplicates.
	 */
	kr_timeout = 16;
	kr_pair(test, IB_QPT_RC, 7, 7, &a, &b);
	kr_timeout = 12;
	qp = ibqp_to_rvtqp(a->qp);
	priv = qp->priv;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kr_restore,
							NULL), 0);
	kr_fill(a->buf, KR_BIG, 3);
	ku_fate_set(kr_drop_all);
	KUNIT_ASSERT_EQ(test, kr_post(a, b, 1, IB_WR_RDMA_WRITE, 0, 0,
				      KR_BIG), 0);
	do {
		spin_lock_bh(&priv->rc.lock);
		if (priv->rc.unsent &&
		    ((priv->rc.spsn - priv->rc.una) & RXE_PSN_MASK) ==
		    RXE_WINDOW) {
			seen = true;
			frames = atomic_read(&ku_frames);
			rounds = 1 + qp->s_retry_cnt - priv->rc.retry;
		}
		spin_unlock_bh(&priv->rc.lock);
		if (!seen)
			usleep_range(200, 400);
	} while (!seen && time_before(jiffies, end));
	KUNIT_ASSERT_TRUE_MSG(test, seen, "the window never filled");
	KUNIT_EXPECT_EQ(test, frames, RXE_WINDOW * rounds);
	ku_fate_set(NULL);
	kr_expect(test, a, 1, IB_WC_SUCCESS, &wc);
	KUNIT_EXPECT_MEMEQ(test, b->rbuf, a->buf, KR_BIG);
}

/* Atomics refused: a misaligned target, an rkey without atomic access. */
static void rxe_rc_atomic_refused(struct kunit *test)
{
	static const struct {
		u32 roff;
		bool global_rkey;
		enum ib_wc_status status;
	} t[] = {
		{ 4, false, IB_WC_REM_INV_REQ_ERR },
		{ 8, true, IB_WC_REM_ACCESS_ERR },
	};
	struct ib_qp_attr attr;
	struct ib_qp_init_attr init;
	struct kr_side *a, *b;
	struct ib_atomic_wr wr;
	struct ib_sge sge;
	struct ib_wc wc;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		kr_pair(test, IB_QPT_RC, 7, 7, &a, &b);
		*(u64 *)(b->rbuf + 8) = 77;
		sge = (struct ib_sge) {
			.addr = (uintptr_t)a->buf,
			.length = sizeof(u64),
			.lkey = a->pd->local_dma_lkey,
		};
		wr = (struct ib_atomic_wr) {
			.wr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1,
				.opcode = IB_WR_ATOMIC_FETCH_AND_ADD },
			.remote_addr = (uintptr_t)b->rbuf + t[i].roff,
			.rkey = t[i].global_rkey ? b->pd->unsafe_global_rkey :
				b->atomic_mr->rkey,
			.compare_add = 1,
		};
		KUNIT_ASSERT_EQ(test, ib_post_send(a->qp, &wr.wr, NULL), 0);
		kr_expect(test, a, 1, t[i].status, &wc);
		KUNIT_EXPECT_EQ(test, *(u64 *)(b->rbuf + 8), 77ULL);
		/* the responder is in the error state */
		KUNIT_ASSERT_EQ(test, ib_query_qp(b->qp, &attr, IB_QP_STATE,
						  &init), 0);
		KUNIT_EXPECT_EQ(test, attr.qp_state, IB_QPS_ERR);
	}
}

/* A SEND before the receive is posted: RNR NAKs until it is. */
static void rxe_rc_rnr(struct kunit *test)
{
	struct kr_side *a, *b;
	struct ib_wc wc;

	kr_pair(test, IB_QPT_RC, 7, 7, &a, &b);
	kr_fill(a->buf, 64, 9);
	KUNIT_ASSERT_EQ(test, kr_post(a, b, 1, IB_WR_SEND, 0, 0, 64), 0);
	/* not completed while nothing receives */
	usleep_range(5000, 6000);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(a->cq, 1, &wc), 0);
	KUNIT_ASSERT_EQ(test, kr_post_recv(b, 2, 0, 64), 0);
	kr_expect(test, a, 1, IB_WC_SUCCESS, &wc);
	kr_expect(test, b, 2, IB_WC_SUCCESS, &wc);
	KUNIT_EXPECT_MEMEQ(test, b->rbuf, a->buf, 64);
}

/* Nothing arrives: the request fails after its retries, the rest flush. */
static void rxe_rc_retry_exceeded(struct kunit *test)
{
	struct kr_side *a, *b;
	struct ib_wc wc;

	kr_pair(test, IB_QPT_RC, 2, 7, &a, &b);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kr_restore,
							NULL), 0);
	ku_fate_set(kr_drop_all);
	KUNIT_ASSERT_EQ(test, kr_post(a, b, 1, IB_WR_RDMA_WRITE, 0, 0, 100),
			0);
	KUNIT_ASSERT_EQ(test, kr_post(a, b, 2, IB_WR_RDMA_WRITE, 0, 0, 100),
			0);
	kr_expect(test, a, 1, IB_WC_RETRY_EXC_ERR, &wc);
	kr_expect(test, a, 2, IB_WC_WR_FLUSH_ERR, &wc);
}

/* UC: the same SENDs and WRITEs, no acknowledgment. */
static void rxe_rc_uc(struct kunit *test)
{
	struct kr_side *a, *b;

	kr_pair(test, IB_QPT_UC, 0, 0, &a, &b);
	kr_traffic(test, a, b);
}

static void rxe_rc_suite_exit(struct kunit_suite *suite)
{
	ku_bed_free();
}

static struct kunit_case rxe_rc_cases[] = {
	KUNIT_CASE(rxe_rc_transfers),
	KUNIT_CASE(rxe_rc_drop),
	KUNIT_CASE(rxe_rc_duplicate),
	KUNIT_CASE(rxe_rc_reorder),
	KUNIT_CASE(rxe_rc_window),
	KUNIT_CASE(rxe_rc_atomic_refused),
	KUNIT_CASE(rxe_rc_rnr),
	KUNIT_CASE(rxe_rc_retry_exceeded),
	KUNIT_CASE(rxe_rc_uc),
	{}
};

static struct kunit_suite rxe_rc_suite = {
	.name = "rdma_rxe_rc",
	.suite_exit = rxe_rc_suite_exit,
	.test_cases = rxe_rc_cases,
};

kunit_test_suite(rxe_rc_suite);

MODULE_DESCRIPTION("KUnit suite of rdma_rxe's RC and UC transports");
MODULE_LICENSE("Dual BSD/GPL");
