// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite of rxe's connected transports (rxe_rc.c): an RC (or UC)
 * QP pair between the two devices of the bed (rxe_bed.h) over RoCE v2,
 * path MTU 1024, and the cable's hook deciding the fate of each RoCE
 * frame: SENDs, WRITEs and READs of one to several packets, with
 * immediate data, and atomics, every transfer complete and byte for byte
 * right (every atomic executed once) while frames are dropped, delivered
 * twice or reordered; the send window; atomics refused; an RNR NAK and
 * its retries; retries exhausted; UC; payload sent from the registered
 * pages in place (page fragments the cable sees) or copied where it must
 * be, and pages that outlive their request and their memory's owner;
 * no more READs and atomics outstanding than max_rd_atomic, the depths
 * checked against the device's; duplicate ACKs that move nothing; an
 * implied NAK; two QPs of one device talking through its own address;
 * IBA 1.5's FLUSH and ATOMIC WRITE in the transfers (so under drops,
 * duplicates and reordering too), refused as upstream refuses them, and
 * answered again but not executed again when they come late; a REG_MR
 * taking effect before the SEND ahead of it is acknowledged; fences;
 * on-demand paging MRs over real user memory that nothing mapped yet:
 * RNR NAKs while rdmavt faults the pages in, munmap followed, faults
 * that fail.
 */
#include <kunit/rdma_umem.h>
#include <rdma/ib_umem_odp.h>

#include "rxe_bed.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define KR_BUF		SZ_16K
/* the window case's WRITE: more packets than RXE_WINDOW at 1024 bytes */
#define KR_BIG		(300 * SZ_1K)
#define KR_WR		32
/* SGEs of a send request: rdmavt's most (RVT_MAX_SGE) */
#define KR_SGE		32
/*
 * SGEs of 8 bytes across a page boundary each: twice as many page
 * fragments, more than an skb has room for besides the trailer's
 */
#define KR_MANY		(MAX_SKB_FRAGS / 2 + 1)

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
 * @flush_mr: an MR of all memory with remote write and both flush
 *	accesses (IBA 1.5)
 */
struct kr_side {
	struct ku_side	*side;
	struct ib_pd	*pd;
	struct ib_cq	*cq;
	struct ib_qp	*qp;
	u8		*buf;
	u8		*rbuf;
	struct ib_mr	*atomic_mr;
	struct ib_mr	*flush_mr;
};

static void kr_free(void *p)
{
	struct kr_side *k = p;

	if (k->qp)
		ib_destroy_qp(k->qp);
	if (k->atomic_mr)
		k->pd->device->ops.dereg_mr(k->atomic_mr, NULL);
	if (k->flush_mr)
		k->pd->device->ops.dereg_mr(k->flush_mr, NULL);
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
			 .max_send_sge = KR_SGE, .max_recv_sge = 1 },
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
	mr = s->ibdev->ops.get_dma_mr(k->pd, IB_ACCESS_LOCAL_WRITE |
				      IB_ACCESS_REMOTE_WRITE |
				      IB_ACCESS_FLUSH_GLOBAL |
				      IB_ACCESS_FLUSH_PERSISTENT);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	mr->device = s->ibdev;
	mr->pd = k->pd;
	mr->type = IB_MR_TYPE_DMA;
	k->flush_mr = mr;
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

/**
 * struct kr_opts - what a case wants of its QP pair
 * @retry: retry_cnt
 * @rnr_retry: rnr_retry
 * @timeout: the local ACK timeout, IB's exponent (12: 16 ms)
 * @rd_atomic: max_rd_atomic, the initiator depth (RC)
 * @dest_rd_atomic: max_dest_rd_atomic, the responder resources (RC)
 */
struct kr_opts {
	u8	retry;
	u8	rnr_retry;
	u8	timeout;
	u8	rd_atomic;
	u8	dest_rd_atomic;
};

static const struct kr_opts kr_default = {
	.retry = 7, .rnr_retry = 7, .timeout = 12, .rd_atomic = 4,
	.dest_rd_atomic = 4,
};

/*
 * @k to RTS towards @peer with @o; returns 0 or the first modify_qp's
 * error (the QP stays where that left it).
 */
static int kr_connect(struct kunit *test, struct kr_side *k,
		      struct kr_side *peer, const struct kr_opts *o)
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
	int ret;

	KUNIT_ASSERT_GE(test, index, 0);
	if (rc)
		attr.qp_access_flags |= IB_ACCESS_FLUSH_GLOBAL |
					IB_ACCESS_FLUSH_PERSISTENT;
	ret = ib_modify_qp(k->qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (ret)
		return ret;
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTR;
	attr.path_mtu = IB_MTU_1024;
	attr.dest_qp_num = peer->qp->qp_num;
	/* the PSNs wrap within the first messages */
	attr.rq_psn = 0xfffff0;
	attr.max_dest_rd_atomic = rc ? o->dest_rd_atomic : 0;
	attr.min_rnr_timer = 1;		/* 0.01 ms */
	ku_gid(peer->side, 4, &dgid);
	attr.ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
	rdma_ah_set_port_num(&attr.ah_attr, 1);
	rdma_ah_set_grh(&attr.ah_attr, &dgid, 0, index, 64, 0);
	ret = ib_modify_qp(k->qp, &attr, IB_QP_STATE | IB_QP_AV |
			   IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			   (rc ? IB_QP_MAX_DEST_RD_ATOMIC |
			    IB_QP_MIN_RNR_TIMER : 0));
	if (ret)
		return ret;
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTS;
	attr.sq_psn = 0xfffff0;
	attr.timeout = o->timeout;
	attr.retry_cnt = o->retry;
	attr.rnr_retry = o->rnr_retry;
	attr.max_rd_atomic = rc ? o->rd_atomic : 0;
	return ib_modify_qp(k->qp, &attr, IB_QP_STATE | IB_QP_SQ_PSN |
			    (rc ? IB_QP_TIMEOUT | IB_QP_RETRY_CNT |
			     IB_QP_RNR_RETRY | IB_QP_MAX_QP_RD_ATOMIC : 0));
}

/* A connected pair, a on device 0, b on device 1; @o NULL: kr_default. */
static void kr_pair(struct kunit *test, enum ib_qp_type type,
		    const struct kr_opts *o, struct kr_side **a,
		    struct kr_side **b)
{
	if (!o)
		o = &kr_default;
	ku_bed(test);
	*a = kr_new(test, &ku_side[0], type);
	*b = kr_new(test, &ku_side[1], type);
	KUNIT_ASSERT_TRUE(test, *a && *b);
	KUNIT_ASSERT_EQ(test, kr_connect(test, *a, *b, o), 0);
	KUNIT_ASSERT_EQ(test, kr_connect(test, *b, *a, o), 0);
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

/* A FLUSH of @k: @len bytes at @roff of @peer's rbuf under @rkey. */
static int kr_flush(struct kr_side *k, struct kr_side *peer, u64 id,
		    u32 roff, u32 len, u32 rkey, u8 type, u8 level)
{
	struct rvt_flush_wr wr = {
		.wr = { .wr_id = id, .opcode = IB_WR_FLUSH },
		.remote_addr = (uintptr_t)peer->rbuf + roff,
		.length = len,
		.rkey = rkey,
		.type = type,
		.level = level,
	};

	return ib_post_send(k->qp, &wr.wr, NULL);
}

/* An ATOMIC WRITE of @k: the 8 bytes at @off of buf to @roff of rbuf. */
static int kr_atomic_write(struct kr_side *k, struct kr_side *peer, u64 id,
			   u32 off, u32 roff, u32 rkey)
{
	struct ib_sge sge = {
		.addr = (uintptr_t)k->buf + off,
		.length = sizeof(u64),
		.lkey = k->pd->local_dma_lkey,
	};
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_id = id,
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = IB_WR_ATOMIC_WRITE,
		},
		.remote_addr = (uintptr_t)peer->rbuf + roff,
		.rkey = rkey,
	};

	return ib_post_send(k->qp, &wr.wr, NULL);
}

/*
 * The next completion of @k within ten seconds: a deadline, not a
 * measure.  A 300-packet WRITE behind a 268 ms retry once missed a 2 s
 * deadline under TCG on a loaded host; a request that is never answered
 * still completes in time (8 tries of 268 ms at the longest timeout a
 * case sets).
 */
static bool kr_poll(struct kr_side *k, struct ib_wc *wc)
{
	unsigned long end = jiffies + 10 * HZ;

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
 * IBA 1.5's operations in one batch: a WRITE and a FLUSH (global
 * visibility) of its range, an ATOMIC WRITE on a word then a FETCH_AND_ADD
 * on it (its original is the ATOMIC WRITE's value: it came first and
 * was not executed again), a second ATOMIC WRITE, and a FLUSH of the
 * whole region.  Each completes in order with its opcode.
 */
static void kr_persist(struct kunit *test, struct kr_side *a,
		       struct kr_side *b)
{
	const u32 roff = KR_BUF - 512, woff = KR_BUF - 128, off = KR_BUF - 256;
	u64 *word = (u64 *)(b->rbuf + woff), *src = (u64 *)(a->buf + off);
	u32 fkey = b->flush_mr->rkey;
	struct ib_wc wc;
	u64 val;

	kr_fill(a->buf + off + 64, 100, 5);
	src[0] = 0x1122334455667788ULL;
	src[1] = 0x0102030405060708ULL;
	src[2] = 0xeeeeeeeeeeeeeeeeULL;	/* the FETCH_AND_ADD's original */
	*word = 1;
	KUNIT_ASSERT_EQ(test, kr_post(a, b, 60, IB_WR_RDMA_WRITE, off + 64,
				      roff, 100), 0);
	KUNIT_ASSERT_EQ(test, kr_flush(a, b, 61, roff, 100, fkey,
				       IB_FLUSH_GLOBAL, IB_FLUSH_RANGE), 0);
	KUNIT_ASSERT_EQ(test, kr_atomic_write(a, b, 62, off, woff, fkey), 0);
	KUNIT_ASSERT_EQ(test, kr_atomic(a, b, 63, IB_WR_ATOMIC_FETCH_AND_ADD,
					off + 16, woff, 3, 0), 0);
	KUNIT_ASSERT_EQ(test, kr_atomic_write(a, b, 64, off + 8, woff + 8,
					      b->pd->unsafe_global_rkey), 0);
	KUNIT_ASSERT_EQ(test, kr_flush(a, b, 65, 0, 0, fkey, IB_FLUSH_GLOBAL,
				       IB_FLUSH_MR), 0);
	kr_expect(test, a, 60, IB_WC_SUCCESS, &wc);
	kr_expect(test, a, 61, IB_WC_SUCCESS, &wc);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_FLUSH);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 100U);
	kr_expect(test, a, 62, IB_WC_SUCCESS, &wc);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_ATOMIC_WRITE);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 8U);
	kr_expect(test, a, 63, IB_WC_SUCCESS, &wc);
	kr_expect(test, a, 64, IB_WC_SUCCESS, &wc);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_ATOMIC_WRITE);
	kr_expect(test, a, 65, IB_WC_SUCCESS, &wc);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_FLUSH);
	KUNIT_EXPECT_MEMEQ(test, b->rbuf + roff, a->buf + off + 64, 100);
	KUNIT_EXPECT_EQ(test, src[2], 0x1122334455667788ULL);
	val = READ_ONCE(word[0]);
	KUNIT_EXPECT_EQ(test, val, 0x112233445566778bULL);
	val = READ_ONCE(word[1]);
	KUNIT_EXPECT_EQ(test, val, 0x0102030405060708ULL);
}

/*
 * SENDs of 0 to 4 packets (one with immediate data), a WRITE of 9
 * packets, a WRITE with immediate, a READ of 9 packets back: all
 * complete in order and the bytes arrive.  RC: atomics, and IBA 1.5's
 * FLUSH and ATOMIC WRITE.
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
	kr_persist(test, a, b);
}

static void rxe_rc_transfers(struct kunit *test)
{
	struct kr_side *a, *b;

	kr_pair(test, IB_QPT_RC, NULL, &a, &b);
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

static enum ku_fate kr_pass_all(unsigned int n)
{
	return KU_PASS;
}

/*
 * A packet on the loopback queue holds its net device until it has been
 * received: with the queue's work disabled, one SEND waits there and the
 * device's count is up by one; after the work has run it is back.  The
 * route is warm (traffic went before) and the RCU callbacks of earlier
 * traffic have run, so nothing else moves the count;
 * the local ACK timeout is 4 s, so no retry adds a second packet.
 */
static void kr_loop_holds_ndev(struct kunit *test, struct kr_side *a,
			       struct kr_side *b)
{
	struct rxe_dev *rxe = to_rxe_dev(a->side->ibdev);
	struct net_device *ndev = a->side->ndev;
	unsigned long end;
	struct ib_wc wc;
	int refs;

	disable_work_sync(&rxe->loop_work);
	/*
	 * References that earlier traffic leaves to RCU callbacks (a
	 * route's dst) go first: the count moves only by the packet then.
	 */
	rcu_barrier();
	refs = netdev_refcnt_read(ndev);
	KUNIT_EXPECT_EQ(test, kr_post_recv(b, 50, 0, 8), 0);
	KUNIT_EXPECT_EQ(test, kr_post(a, b, 50, IB_WR_SEND, 0, 0, 8), 0);
	end = jiffies + 10 * HZ;
	while (!skb_queue_len(&rxe->loop_q) && time_before(jiffies, end))
		usleep_range(200, 400);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&rxe->loop_q), 1U);
	KUNIT_EXPECT_EQ(test, netdev_refcnt_read(ndev), refs + 1);
	enable_work(&rxe->loop_work);
	queue_work(system_bh_wq, &rxe->loop_work);
	kr_expect(test, a, 50, IB_WC_SUCCESS, &wc);
	kr_expect(test, b, 50, IB_WC_SUCCESS, &wc);
	flush_work(&rxe->loop_work);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&rxe->loop_q), 0U);
	KUNIT_EXPECT_EQ(test, netdev_refcnt_read(ndev), refs);
}

/*
 * Two RC QPs of one device connected to each other through its own
 * address (the MAC the core resolves is the device's own): the same
 * transfers and atomics complete, and no frame goes into the cable.
 * Then a queued packet's hold on its net device.
 */
static void rxe_rc_loopback(struct kunit *test)
{
	struct kr_side *a, *b;
	struct kr_opts o = kr_default;

	o.timeout = 20;		/* 4 s */
	ku_bed(test);
	a = kr_new(test, &ku_side[0], IB_QPT_RC);
	b = kr_new(test, &ku_side[0], IB_QPT_RC);
	KUNIT_ASSERT_TRUE(test, a && b);
	KUNIT_ASSERT_EQ(test, kr_connect(test, a, b, &o), 0);
	KUNIT_ASSERT_EQ(test, kr_connect(test, b, a, &o), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kr_restore,
							NULL), 0);
	ku_fate_set(kr_pass_all);
	kr_traffic(test, a, b);
	KUNIT_EXPECT_EQ(test, atomic_read(&ku_frames), 0);
	kr_loop_holds_ndev(test, a, b);
}

/* The same transfers while the cable drops, doubles or reorders. */
static void kr_faulty(struct kunit *test, enum ku_fate (*fate)(unsigned int))
{
	struct kr_side *a, *b;

	kr_pair(test, IB_QPT_RC, NULL, &a, &b);
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
	struct kr_opts o = kr_default;

	o.timeout = 16;
	o.retry = 6;	/* counted down: 7 would not count the rounds */
	kr_pair(test, IB_QPT_RC, &o, &a, &b);
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
	if (!kr_poll(a, &wc)) {
		u32 held, unsent, una, spsn;
		int retry;

		spin_lock_bh(&priv->rc.lock);
		held = priv->rc.held;
		unsent = priv->rc.unsent;
		una = priv->rc.una;
		spsn = priv->rc.spsn;
		retry = priv->rc.retry;
		spin_unlock_bh(&priv->rc.lock);
		KUNIT_FAIL_AND_ABORT(test,
				     "no completion: held %u unsent %u una %#x spsn %#x retry %d",
				     held, unsent, una, spsn, retry);
	}
	KUNIT_EXPECT_EQ(test, wc.wr_id, 1);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
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
		kr_pair(test, IB_QPT_RC, NULL, &a, &b);
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

/*
 * A responder QP that grants no remote access: a WRITE, a READ and an
 * atomic each get an invalid-request NAK (IB_WC_REM_INV_REQ_ERR), as
 * upstream rxe's class C, not a remote access error; nothing changes in
 * the responder's memory and it goes to the error state.
 */
static void rxe_rc_qp_access_refused(struct kunit *test)
{
	static const enum ib_wr_opcode ops[] = {
		IB_WR_RDMA_WRITE, IB_WR_RDMA_READ, IB_WR_ATOMIC_FETCH_AND_ADD,
	};
	struct ib_qp_attr attr = { .qp_access_flags = 0 };
	struct ib_qp_init_attr init;
	struct kr_side *a, *b;
	struct ib_wc wc;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		kr_pair(test, IB_QPT_RC, NULL, &a, &b);
		KUNIT_ASSERT_EQ(test, ib_modify_qp(b->qp, &attr,
						   IB_QP_ACCESS_FLAGS), 0);
		memset(b->rbuf, 0, 64);
		*(u64 *)(b->rbuf + 8) = 77;
		kr_fill(a->buf, 64, 3);
		if (ops[i] == IB_WR_ATOMIC_FETCH_AND_ADD)
			KUNIT_ASSERT_EQ(test, kr_atomic(a, b, 1, ops[i], 0, 8,
							1, 0), 0);
		else
			KUNIT_ASSERT_EQ(test, kr_post(a, b, 1, ops[i], 0, 0,
						      64), 0);
		kr_expect(test, a, 1, IB_WC_REM_INV_REQ_ERR, &wc);
		KUNIT_EXPECT_EQ(test, *(u64 *)(b->rbuf + 8), 77ULL);
		KUNIT_EXPECT_NULL(test, memchr_inv(b->rbuf, 0, 8));
		KUNIT_ASSERT_EQ(test, ib_query_qp(b->qp, &attr, IB_QP_STATE,
						  &init), 0);
		KUNIT_EXPECT_EQ(test, attr.qp_state, IB_QPS_ERR);
		attr.qp_access_flags = 0;
	}
}

/*
 * The device offers IBA 1.5's operations; a FLUSH with data and an ATOMIC
 * WRITE of other than 8 bytes are refused at the post.
 */
static void kr_refused_posts(struct kunit *test, struct kr_side *a,
			     struct kr_side *b)
{
	const struct ib_send_wr *bad;
	struct ib_sge sge;
	u64 caps = a->side->ibdev->attrs.device_cap_flags;
	struct rvt_flush_wr fw = {
		.wr = { .opcode = IB_WR_FLUSH, .sg_list = &sge, .num_sge = 1 },
		.rkey = b->flush_mr->rkey,
		.type = IB_FLUSH_GLOBAL,
	};
	struct ib_rdma_wr aw = {
		.wr = { .opcode = IB_WR_ATOMIC_WRITE, .sg_list = &sge,
			.num_sge = 1 },
		.remote_addr = (uintptr_t)b->rbuf,
		.rkey = b->flush_mr->rkey,
	};

	KUNIT_EXPECT_TRUE(test, caps & IB_DEVICE_FLUSH_GLOBAL);
	KUNIT_EXPECT_TRUE(test, caps & IB_DEVICE_FLUSH_PERSISTENT);
	KUNIT_EXPECT_TRUE(test, caps & IB_DEVICE_ATOMIC_WRITE);
	sge = (struct ib_sge) {
		.addr = (uintptr_t)a->buf, .length = 4,
		.lkey = a->pd->local_dma_lkey,
	};
	KUNIT_EXPECT_EQ(test, ib_post_send(a->qp, &fw.wr, &bad), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_post_send(a->qp, &aw.wr, &bad), -EINVAL);
}

/*
 * IBA 1.5's operations refused, with upstream rxe's statuses: a FLUSH
 * through an rkey without flush access, a persistent FLUSH (no memory
 * of ours is persistent), an ATOMIC WRITE to a misaligned address, one
 * through an rkey without remote write.  Nothing is written and the
 * responder is in the error state.  Before: the device offers them, and
 * a FLUSH with data or an ATOMIC WRITE of other than 8 bytes is refused
 * at the post.
 */
static void rxe_rc_flush_refused(struct kunit *test)
{
	enum { GLOBAL, FLUSH, ATOMIC };
	static const struct {
		bool flush;
		u8 type;
		u32 roff;
		int key;
		enum ib_wc_status status;
	} t[] = {
		{ true, IB_FLUSH_GLOBAL, 8, GLOBAL, IB_WC_REM_ACCESS_ERR },
		{ true, IB_FLUSH_PERSISTENT, 8, FLUSH, IB_WC_REM_ACCESS_ERR },
		{ false, 0, 4, GLOBAL, IB_WC_REM_INV_REQ_ERR },
		{ false, 0, 8, ATOMIC, IB_WC_REM_ACCESS_ERR },
	};
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr;
	struct kr_side *a, *b;
	struct ib_wc wc;
	u32 i, key;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		kr_pair(test, IB_QPT_RC, NULL, &a, &b);
		if (!i)
			kr_refused_posts(test, a, b);
		key = t[i].key == GLOBAL ? b->pd->unsafe_global_rkey :
		      t[i].key == FLUSH ? b->flush_mr->rkey :
		      b->atomic_mr->rkey;
		*(u64 *)(b->rbuf + 8) = 77;
		*(u64 *)a->buf = 99;
		if (t[i].flush)
			KUNIT_ASSERT_EQ(test, kr_flush(a, b, 1, t[i].roff, 8,
						       key, t[i].type,
						       IB_FLUSH_RANGE), 0);
		else
			KUNIT_ASSERT_EQ(test, kr_atomic_write(a, b, 1, 0,
							      t[i].roff, key),
					0);
		kr_expect(test, a, 1, t[i].status, &wc);
		KUNIT_EXPECT_EQ(test, *(u64 *)(b->rbuf + 8), 77ULL);
		KUNIT_ASSERT_EQ(test, ib_query_qp(b->qp, &attr, IB_QP_STATE,
						  &init), 0);
		KUNIT_EXPECT_EQ_MSG(test, attr.qp_state, IB_QPS_ERR,
				    "case %u", i);
	}
}

/*
 * The cable of rxe_rc_flush_replay: it keeps a copy of side 0's first
 * ATOMIC WRITE and first FLUSH, and counts side 1's READ responses (the
 * answer to either).
 */
static struct {
	spinlock_t	lock;	/* all of it, from the senders' contexts */
	struct sk_buff	*aw;
	struct sk_buff	*flush;
	unsigned int	resps;
} kr_rp = { .lock = __SPIN_LOCK_UNLOCKED(kr_rp.lock) };

static enum ku_fate kr_rp_peek(const struct sk_buff *skb,
			       struct net_device *from)
{
	const struct rxe_bth *bth = (const void *)(skb->data + KU_HDRS);

	if (skb_headlen(skb) < KU_HDRS + sizeof(*bth) ||
	    skb->protocol != htons(ETH_P_IP))
		return KU_PASS;
	spin_lock(&kr_rp.lock);
	if (from == ku_side[1].ndev) {
		if (bth->opcode == IB_OPCODE_RC_RDMA_READ_RESPONSE_ONLY)
			kr_rp.resps++;
	} else if (bth->opcode == IB_OPCODE_RC_ATOMIC_WRITE && !kr_rp.aw) {
		kr_rp.aw = skb_copy(skb, GFP_ATOMIC);
	} else if (bth->opcode == IB_OPCODE_RC_FLUSH && !kr_rp.flush) {
		kr_rp.flush = skb_copy(skb, GFP_ATOMIC);
	}
	spin_unlock(&kr_rp.lock);
	return KU_PASS;
}

static void kr_rp_off(void *p)
{
	WRITE_ONCE(ku_peek, NULL);
	spin_lock_bh(&kr_rp.lock);
	kfree_skb(kr_rp.aw);
	kfree_skb(kr_rp.flush);
	kr_rp.aw = NULL;
	kr_rp.flush = NULL;
	kr_rp.resps = 0;
	spin_unlock_bh(&kr_rp.lock);
}

/*
 * An ATOMIC WRITE and a FLUSH come again, late: after a FETCH_AND_ADD
 * changed the word.  The responder answers each again from its replay
 * cache (two more READ responses, which the requester, holding nothing,
 * ignores) and executes neither: the word keeps the add, and both QPs
 * stay in RTS with nothing more completed.
 */
static void rxe_rc_flush_replay(struct kunit *test)
{
	const u32 woff = 64;
	struct kr_opts o = kr_default;
	struct sk_buff *aw, *flush;
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr;
	struct kr_side *a, *b;
	unsigned long end;
	struct ib_wc wc;
	u64 *word, val;

	/* 4 s: no retry adds a frame the count does not expect */
	o.timeout = 20;
	kr_pair(test, IB_QPT_RC, &o, &a, &b);
	word = (u64 *)(b->rbuf + woff);
	*word = 0;
	*(u64 *)a->buf = 500;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kr_rp_off,
							NULL), 0);
	WRITE_ONCE(ku_peek, kr_rp_peek);
	KUNIT_ASSERT_EQ(test, kr_atomic_write(a, b, 1, 0, woff,
					      b->flush_mr->rkey), 0);
	KUNIT_ASSERT_EQ(test, kr_flush(a, b, 2, woff, 8, b->flush_mr->rkey,
				       IB_FLUSH_GLOBAL, IB_FLUSH_RANGE), 0);
	KUNIT_ASSERT_EQ(test, kr_atomic(a, b, 3, IB_WR_ATOMIC_FETCH_AND_ADD,
					8, woff, 1, 0), 0);
	kr_expect(test, a, 1, IB_WC_SUCCESS, &wc);
	kr_expect(test, a, 2, IB_WC_SUCCESS, &wc);
	kr_expect(test, a, 3, IB_WC_SUCCESS, &wc);
	KUNIT_EXPECT_EQ(test, *(u64 *)(a->buf + 8), 500ULL);
	val = READ_ONCE(*word);
	KUNIT_EXPECT_EQ(test, val, 501ULL);

	spin_lock_bh(&kr_rp.lock);
	aw = kr_rp.aw;
	flush = kr_rp.flush;
	kr_rp.aw = NULL;
	kr_rp.flush = NULL;
	spin_unlock_bh(&kr_rp.lock);
	KUNIT_ASSERT_TRUE_MSG(test, aw && flush, "not seen: %s %s",
			      aw ? "" : "ATOMIC WRITE", flush ? "" : "FLUSH");
	KUNIT_EXPECT_EQ(test, READ_ONCE(kr_rp.resps), 2U);
	local_bh_disable();
	ku_deliver(aw, ku_side[1].ndev);
	ku_deliver(flush, ku_side[1].ndev);
	local_bh_enable();
	end = jiffies + 10 * HZ;
	while (READ_ONCE(kr_rp.resps) < 4 && time_before(jiffies, end))
		usleep_range(200, 400);
	KUNIT_EXPECT_EQ(test, READ_ONCE(kr_rp.resps), 4U);
	val = READ_ONCE(*word);
	KUNIT_EXPECT_EQ(test, val, 501ULL);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(a->cq, 1, &wc), 0);
	KUNIT_ASSERT_EQ(test, ib_query_qp(b->qp, &attr, IB_QP_STATE, &init),
			0);
	KUNIT_EXPECT_EQ(test, attr.qp_state, IB_QPS_RTS);
	KUNIT_ASSERT_EQ(test, ib_query_qp(a->qp, &attr, IB_QP_STATE, &init),
			0);
	KUNIT_EXPECT_EQ(test, attr.qp_state, IB_QPS_RTS);
}

/*
 * The cable of rxe_rc_reg_mr_ahead and rxe_rc_fence: side 1's frames of
 * one opcode (ACKs, READ responses) kept back, the first one copied
 */
static struct {
	spinlock_t	lock;	/* all of it */
	bool		keep;
	u8		opcode;
	struct sk_buff	*ack;
	unsigned int	kept;
} kr_ahead = { .lock = __SPIN_LOCK_UNLOCKED(kr_ahead.lock) };

static enum ku_fate kr_ahead_peek(const struct sk_buff *skb,
				  struct net_device *from)
{
	const struct rxe_bth *bth = (const void *)(skb->data + KU_HDRS);
	enum ku_fate f = KU_PASS;

	if (from != ku_side[1].ndev || skb_headlen(skb) < KU_HDRS + sizeof(*bth) ||
	    skb->protocol != htons(ETH_P_IP) ||
	    bth->opcode != READ_ONCE(kr_ahead.opcode))
		return KU_PASS;
	spin_lock(&kr_ahead.lock);
	if (kr_ahead.keep) {
		if (!kr_ahead.ack)
			kr_ahead.ack = skb_copy(skb, GFP_ATOMIC);
		kr_ahead.kept++;
		f = KU_DROP;
	}
	spin_unlock(&kr_ahead.lock);
	return f;
}

static void kr_ahead_off(void *p)
{
	WRITE_ONCE(ku_peek, NULL);
	spin_lock_bh(&kr_ahead.lock);
	kfree_skb(kr_ahead.ack);
	kr_ahead.ack = NULL;
	kr_ahead.keep = false;
	kr_ahead.kept = 0;
	spin_unlock_bh(&kr_ahead.lock);
}

/* Keep side 1's frames of @opcode back from now on. */
static void kr_ahead_keep(u8 opcode)
{
	spin_lock_bh(&kr_ahead.lock);
	kr_ahead.opcode = opcode;
	kr_ahead.keep = true;
	kr_ahead.kept = 0;
	spin_unlock_bh(&kr_ahead.lock);
}

/* Wait until a frame was kept back. */
static void kr_ahead_wait(struct kunit *test)
{
	unsigned long end = jiffies + 10 * HZ;

	while (!READ_ONCE(kr_ahead.kept) && time_before(jiffies, end))
		usleep_range(200, 400);
	KUNIT_ASSERT_GT(test, READ_ONCE(kr_ahead.kept), 0U);
}

/* Stop keeping frames back and deliver the first one kept to side 0. */
static void kr_ahead_release(struct kunit *test)
{
	struct sk_buff *ack;

	spin_lock_bh(&kr_ahead.lock);
	kr_ahead.keep = false;
	ack = kr_ahead.ack;
	kr_ahead.ack = NULL;
	spin_unlock_bh(&kr_ahead.lock);
	KUNIT_ASSERT_NOT_NULL(test, ack);
	local_bh_disable();
	ku_deliver(ack, ku_side[0].ndev);
	local_bh_enable();
}

static void kr_dereg(void *mr)
{
	ib_dereg_mr(mr);
}

static void kr_put_page(void *page)
{
	__free_page((struct page *)page);
}

/*
 * A REG_MR behind a SEND whose ACK has not come (the cable keeps side
 * 1's ACKs back) takes effect at once, as upstream rxe's does, instead
 * of waiting for the SEND to be acknowledged (rdmavt's xmit_local):
 * b's RDMA WRITE into the new registration succeeds meanwhile.  The
 * completions stay in order: nothing completes at a until the ACK
 * comes, then the SEND and the REG_MR.  A LOCAL_INV waits for the SEND
 * before it, as upstream's does: b's WRITE still lands.
 */
static void rxe_rc_reg_mr_ahead(struct kunit *test)
{
	struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	struct kr_opts o = kr_default;
	struct ib_reg_wr reg = {};
	struct scatterlist sg;
	struct kr_side *a, *b;
	struct ib_mr *mr;
	struct ib_sge sge;
	struct ib_rdma_wr wr = {};
	struct ib_send_wr inv = {};
	struct ib_wc wc;

	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kr_put_page,
							page), 0);
	/* 4 s: the SEND is not sent again while its ACK is kept */
	o.timeout = 20;
	kr_pair(test, IB_QPT_RC, &o, &a, &b);
	mr = ib_alloc_mr(a->pd, IB_MR_TYPE_MEM_REG, 1);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kr_dereg, mr),
			0);
	sg_init_one(&sg, page_address(page), PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(a->pd->device, &sg, 1,
					    DMA_FROM_DEVICE), 1);
	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(mr, &sg, 1, NULL, PAGE_SIZE), 1);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kr_ahead_off,
							NULL), 0);
	kr_ahead_keep(IB_OPCODE_RC_ACKNOWLEDGE);
	WRITE_ONCE(ku_peek, kr_ahead_peek);

	KUNIT_ASSERT_EQ(test, kr_post_recv(b, 10, 0, 64), 0);
	KUNIT_ASSERT_EQ(test, kr_post(a, b, 1, IB_WR_SEND, 0, 0, 64), 0);
	reg.wr.opcode = IB_WR_REG_MR;
	reg.wr.wr_id = 2;
	reg.wr.send_flags = IB_SEND_SIGNALED;
	reg.mr = mr;
	reg.key = mr->rkey;
	reg.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE;
	KUNIT_ASSERT_EQ(test, ib_post_send(a->qp, &reg.wr, NULL), 0);
	kr_expect(test, b, 10, IB_WC_SUCCESS, &wc);
	kr_ahead_wait(test);

	/* b writes into the registration the SEND's ACK did not release */
	kr_fill(b->buf, 256, 7);
	sge = (struct ib_sge) { .addr = (uintptr_t)b->buf, .length = 256,
				.lkey = b->pd->local_dma_lkey };
	wr.wr.wr_id = 20;
	wr.wr.opcode = IB_WR_RDMA_WRITE;
	wr.wr.sg_list = &sge;
	wr.wr.num_sge = 1;
	wr.remote_addr = mr->iova + 100;
	wr.rkey = mr->rkey;
	KUNIT_ASSERT_EQ(test, ib_post_send(b->qp, &wr.wr, NULL), 0);
	kr_expect(test, b, 20, IB_WC_SUCCESS, &wc);
	KUNIT_EXPECT_EQ(test, memcmp(page_address(page) + 100, b->buf, 256),
			0);
	/* nothing of a's completes before its SEND is acknowledged */
	KUNIT_EXPECT_EQ(test, ib_poll_cq(a->cq, 1, &wc), 0);

	kr_ahead_release(test);
	kr_expect(test, a, 1, IB_WC_SUCCESS, &wc);
	kr_expect(test, a, 2, IB_WC_SUCCESS, &wc);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_REG_MR);

	/* a LOCAL_INV waits for the SEND: b's WRITE still lands */
	kr_ahead_keep(IB_OPCODE_RC_ACKNOWLEDGE);
	KUNIT_ASSERT_EQ(test, kr_post_recv(b, 11, 0, 64), 0);
	KUNIT_ASSERT_EQ(test, kr_post(a, b, 4, IB_WR_SEND, 0, 0, 64), 0);
	inv.opcode = IB_WR_LOCAL_INV;
	inv.wr_id = 5;
	inv.send_flags = IB_SEND_SIGNALED;
	inv.ex.invalidate_rkey = mr->rkey;
	KUNIT_ASSERT_EQ(test, ib_post_send(a->qp, &inv, NULL), 0);
	kr_expect(test, b, 11, IB_WC_SUCCESS, &wc);
	kr_ahead_wait(test);
	wr.wr.wr_id = 21;
	KUNIT_ASSERT_EQ(test, ib_post_send(b->qp, &wr.wr, NULL), 0);
	kr_expect(test, b, 21, IB_WC_SUCCESS, &wc);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(a->cq, 1, &wc), 0);
	kr_ahead_release(test);
	kr_expect(test, a, 4, IB_WC_SUCCESS, &wc);
	kr_expect(test, a, 5, IB_WC_SUCCESS, &wc);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_LOCAL_INV);
	/* and now the registration is gone */
	wr.wr.wr_id = 22;
	KUNIT_ASSERT_EQ(test, ib_post_send(b->qp, &wr.wr, NULL), 0);
	kr_expect(test, b, 22, IB_WC_REM_ACCESS_ERR, &wc);
}

/*
 * IBA 10.8.3.3: a request posted with IB_SEND_FENCE goes only once the
 * READs before it completed (the cable keeps the READ's response back
 * meanwhile).  A fenced WRITE with immediate from the buffer the READ
 * fills carries what the READ brought, not what was there before; an
 * unfenced SEND behind the READ goes at once.
 */
static void rxe_rc_fence(struct kunit *test)
{
	struct kr_opts o = kr_default;
	struct kr_side *a, *b;
	struct ib_sge sge;
	struct ib_rdma_wr wr = {};
	struct ib_wc wc;
	u8 brought[64];

	/* 4 s: the READ is not sent again while its response is kept */
	o.timeout = 20;
	kr_pair(test, IB_QPT_RC, &o, &a, &b);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kr_ahead_off,
							NULL), 0);
	kr_fill(b->rbuf, 64, 3);		/* what the READ brings */
	kr_fill(brought, 64, 3);
	kr_fill(a->buf + 64, 64, 200);		/* what it overwrites */
	kr_ahead_keep(IB_OPCODE_RC_RDMA_READ_RESPONSE_ONLY);
	WRITE_ONCE(ku_peek, kr_ahead_peek);
	KUNIT_ASSERT_EQ(test, kr_post_recv(b, 10, 8192, 64), 0);
	KUNIT_ASSERT_EQ(test, kr_post_recv(b, 11, 8192, 64), 0);
	KUNIT_ASSERT_EQ(test, kr_post(a, b, 1, IB_WR_RDMA_READ, 64, 0, 64), 0);
	/* not fenced: it goes while the READ's response is kept */
	KUNIT_ASSERT_EQ(test, kr_post(a, b, 2, IB_WR_SEND, 0, 0, 16), 0);
	kr_expect(test, b, 10, IB_WC_SUCCESS, &wc);
	sge = (struct ib_sge) { .addr = (uintptr_t)a->buf + 64, .length = 64,
				.lkey = a->pd->local_dma_lkey };
	wr.wr.wr_id = 3;
	wr.wr.opcode = IB_WR_RDMA_WRITE_WITH_IMM;
	wr.wr.send_flags = IB_SEND_FENCE;
	wr.wr.sg_list = &sge;
	wr.wr.num_sge = 1;
	wr.remote_addr = (uintptr_t)b->rbuf + 4096;
	wr.rkey = b->pd->unsafe_global_rkey;
	KUNIT_ASSERT_EQ(test, ib_post_send(a->qp, &wr.wr, NULL), 0);
	kr_ahead_wait(test);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(b->cq, 1, &wc), 0);
	kr_ahead_release(test);
	kr_expect(test, a, 1, IB_WC_SUCCESS, &wc);
	kr_expect(test, a, 2, IB_WC_SUCCESS, &wc);
	kr_expect(test, a, 3, IB_WC_SUCCESS, &wc);
	kr_expect(test, b, 11, IB_WC_SUCCESS, &wc);
	KUNIT_EXPECT_EQ(test, memcmp(b->rbuf + 4096, brought, 64), 0);
}

static void rxe_rc_rnr(struct kunit *test)
{
	struct kr_side *a, *b;
	struct ib_wc wc;

	kr_pair(test, IB_QPT_RC, NULL, &a, &b);
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

/* RNR NAKs side 1 (the responder) put on the cable */
static atomic_t kr_rnr_naks = ATOMIC_INIT(0);

static enum ku_fate kr_rnr_peek(const struct sk_buff *skb,
				struct net_device *from)
{
	const struct rxe_bth *bth = (const void *)(skb->data + KU_HDRS);
	const u8 *aeth = (const u8 *)(bth + 1);

	if (from == ku_side[1].ndev && skb->protocol == htons(ETH_P_IP) &&
	    skb_headlen(skb) >= KU_HDRS + sizeof(*bth) + 4 &&
	    bth->opcode == IB_OPCODE_RC_ACKNOWLEDGE && (*aeth & 0x60) == 0x20)
		atomic_inc(&kr_rnr_naks);
	return KU_PASS;
}

static void kr_peek_off(void *p)
{
	WRITE_ONCE(ku_peek, NULL);
}

/* Wait up to ten seconds for the cable to have seen @n RNR NAKs. */
static bool kr_rnr_naks_reach(int n)
{
	unsigned long end = jiffies + 10 * HZ;

	while (atomic_read(&kr_rnr_naks) < n && time_before(jiffies, end))
		usleep_range(1000, 2000);
	return atomic_read(&kr_rnr_naks) >= n;
}

/*
 * Two SENDs and no receive, rnr_retry 1, the responder's RNR time 655
 * ms: the first SEND meets one RNR NAK, the second (sent right behind)
 * a sequence NAK, which must not cut the RNR wait short (sent again at
 * once, the first would meet a second RNR NAK and fail).  A receive
 * posted then takes the first; the second meets its own RNR NAK once
 * the first is acknowledged, with its own retry (the acknowledgment
 * restored the count, as upstream's completer does).  A second receive
 * takes it.  Two RNR NAKs in all.
 */
static void rxe_rc_rnr_two(struct kunit *test)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_RTS,
				   .min_rnr_timer = 0 };
	struct kr_opts o = kr_default;
	struct kr_side *a, *b;
	struct ib_wc wc;

	o.rnr_retry = 1;
	kr_pair(test, IB_QPT_RC, &o, &a, &b);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(b->qp, &attr, IB_QP_STATE |
					   IB_QP_MIN_RNR_TIMER), 0);
	atomic_set(&kr_rnr_naks, 0);
	WRITE_ONCE(ku_peek, kr_rnr_peek);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kr_peek_off,
							NULL), 0);
	kr_fill(a->buf, 128, 4);
	KUNIT_ASSERT_EQ(test, kr_post(a, b, 1, IB_WR_SEND, 0, 0, 64), 0);
	KUNIT_ASSERT_EQ(test, kr_post(a, b, 2, IB_WR_SEND, 64, 0, 64), 0);
	KUNIT_ASSERT_TRUE_MSG(test, kr_rnr_naks_reach(1), "no RNR NAK");
	KUNIT_ASSERT_EQ(test, kr_post_recv(b, 3, 0, 64), 0);
	KUNIT_ASSERT_TRUE_MSG(test, kr_rnr_naks_reach(2),
			      "no RNR NAK for the second SEND");
	KUNIT_ASSERT_EQ(test, kr_post_recv(b, 4, 64, 64), 0);
	kr_expect(test, a, 1, IB_WC_SUCCESS, &wc);
	kr_expect(test, a, 2, IB_WC_SUCCESS, &wc);
	kr_expect(test, b, 3, IB_WC_SUCCESS, &wc);
	kr_expect(test, b, 4, IB_WC_SUCCESS, &wc);
	KUNIT_EXPECT_MEMEQ(test, b->rbuf, a->buf, 128);
	KUNIT_EXPECT_EQ(test, atomic_read(&kr_rnr_naks), 2);
}

/*
 * An RC pair with @o whose cable drops everything (until the case sets
 * the fate again), and a WRITE of 100 bytes, wr_id 1, on its way.
 */
static void kr_write_lost(struct kunit *test, const struct kr_opts *o,
			  struct kr_side **a, struct kr_side **b)
{
	kr_pair(test, IB_QPT_RC, o, a, b);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kr_restore,
							NULL), 0);
	kr_fill((*a)->buf, 100, 5);
	ku_fate_set(kr_drop_all);
	KUNIT_ASSERT_EQ(test, kr_post(*a, *b, 1, IB_WR_RDMA_WRITE, 0, 0, 100),
			0);
}

/* Nothing arrives: the request fails after its retries, the rest flush. */
static void rxe_rc_retry_exceeded(struct kunit *test)
{
	struct kr_opts o = kr_default;
	struct kr_side *a, *b;
	struct ib_wc wc;

	o.retry = 2;
	kr_write_lost(test, &o, &a, &b);
	KUNIT_ASSERT_EQ(test, kr_post(a, b, 2, IB_WR_RDMA_WRITE, 0, 0, 100),
			0);
	kr_expect(test, a, 1, IB_WC_RETRY_EXC_ERR, &wc);
	kr_expect(test, a, 2, IB_WC_WR_FLUSH_ERR, &wc);
}

/*
 * retry_cnt 7 retries for ever, as upstream rxe's does (perftest sets
 * it): a WRITE whose tries are all lost is still held after more than
 * seven retry timeouts, not failed; once the cable carries again it
 * completes, and the data is there.
 */
static void rxe_rc_retry_forever(struct kunit *test)
{
	unsigned long end = jiffies + 10 * HZ;
	struct kr_opts o = kr_default;
	struct kr_side *a, *b;
	struct ib_wc wc;

	o.retry = 7;
	o.timeout = 10;		/* 4 ms */
	kr_write_lost(test, &o, &a, &b);
	/* the first try and ten retries, all dropped */
	while (atomic_read(&ku_frames) < 11 && time_before(jiffies, end))
		usleep_range(1000, 2000);
	KUNIT_ASSERT_GE_MSG(test, atomic_read(&ku_frames), 11,
			    "the retries stopped");
	KUNIT_EXPECT_EQ(test, ib_poll_cq(a->cq, 1, &wc), 0);
	ku_fate_set(NULL);
	kr_expect(test, a, 1, IB_WC_SUCCESS, &wc);
	KUNIT_EXPECT_MEMEQ(test, b->rbuf, a->buf, 100);
}

/*
 * ACK timeouts in a row: each waits twice the one before, up to four
 * times the QP's timeout (IBA's range of a transport timer), and an
 * acknowledgment brings it back to the QP's own.  Read under the
 * requester's lock, with the frame count that the sends under it keep:
 * after the first try and N retries the backoff is min(N, 2) and the
 * timer runs for at most T << min(N, 2) from now (a delay of this
 * thread can only shorten what is left, or make it negative).
 */
static void rxe_rc_retry_backoff(struct kunit *test)
{
	unsigned long end = jiffies + 10 * HZ, t;
	struct kr_opts o = kr_default;
	struct rxe_qp_priv *priv;
	long left;
	int frames, want, seen = 1;
	struct kr_side *a, *b;
	struct ib_wc wc;
	u8 backoff;

	o.retry = 7;
	o.timeout = 14;		/* 67 ms */
	kr_write_lost(test, &o, &a, &b);
	priv = ibqp_to_rvtqp(a->qp)->priv;
	t = ibqp_to_rvtqp(a->qp)->timeout_jiffies;
	/* the first try and four retries, each looked at once */
	while (seen < 5 && time_before(jiffies, end)) {
		spin_lock_bh(&priv->rc.lock);
		frames = atomic_read(&ku_frames);
		backoff = priv->rc.backoff;
		left = (long)(priv->rc.timer.expires - jiffies);
		spin_unlock_bh(&priv->rc.lock);
		if (frames == seen) {
			usleep_range(1000, 2000);
			continue;
		}
		seen = frames;
		want = min(frames - 1, 2);
		KUNIT_EXPECT_EQ_MSG(test, backoff, want, "after %d frames",
				    frames);
		KUNIT_EXPECT_LE_MSG(test, left, (long)(t << want),
				    "after %d frames", frames);
	}
	KUNIT_ASSERT_GE_MSG(test, seen, 5, "the retries stopped");
	ku_fate_set(NULL);
	kr_expect(test, a, 1, IB_WC_SUCCESS, &wc);
	KUNIT_EXPECT_MEMEQ(test, b->rbuf, a->buf, 100);
	spin_lock_bh(&priv->rc.lock);
	backoff = priv->rc.backoff;
	spin_unlock_bh(&priv->rc.lock);
	KUNIT_EXPECT_EQ(test, backoff, 0);
}

/*
 * An ACK timeout of 0 waits for ever (IBA 9.7.6.1.3): a WRITE whose
 * only try is lost is not sent again and does not fail; moved to the
 * error state, the QP flushes it.
 */
static void rxe_rc_no_timeout(struct kunit *test)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	struct kr_opts o = kr_default;
	struct kr_side *a, *b;
	struct ib_wc wc;

	o.timeout = 0;
	kr_pair(test, IB_QPT_RC, &o, &a, &b);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kr_restore,
							NULL), 0);
	ku_fate_set(kr_drop_all);
	KUNIT_ASSERT_EQ(test, kr_post(a, b, 1, IB_WR_RDMA_WRITE, 0, 0, 100),
			0);
	/* a retry timer of its shortest (1 jiffy) would have run often */
	msleep(100);
	KUNIT_EXPECT_EQ(test, atomic_read(&ku_frames), 1);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(a->cq, 1, &wc), 0);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(a->qp, &attr, IB_QP_STATE), 0);
	kr_expect(test, a, 1, IB_WC_WR_FLUSH_ERR, &wc);
}

/* UC: the same SENDs and WRITEs, no acknowledgment. */
static void rxe_rc_uc(struct kunit *test)
{
	struct kr_side *a, *b;

	kr_pair(test, IB_QPT_UC, NULL, &a, &b);
	kr_traffic(test, a, b);
}

/* ------------------------------------------------------------------
 * Payload in place
 */

/*
 * What the cable saw of the frames each side sent (kr_peek()): frames
 * with page fragments, linear ones, fragments outside the side's buffer,
 * fragments that are not where a payload's or a trailer's would be.
 */
static struct {
	spinlock_t	lock;	/* the counts, from the senders' contexts */
	const u8	*buf[2];
	u32		len[2];
	unsigned int	frag_frames[2];
	unsigned int	linear[2];
	unsigned int	foreign[2];
	unsigned int	bad_trailer[2];
} kr_seen = { .lock = __SPIN_LOCK_UNLOCKED(kr_seen.lock) };

static struct page *kr_page(const void *va)
{
	return is_vmalloc_addr(va) ? vmalloc_to_page(va) : virt_to_page(va);
}

/* Is @page one of the pages of the @len bytes at @buf? */
static bool kr_page_of(struct page *page, const u8 *buf, u32 len)
{
	u32 off;

	for (off = 0; off < len; off += PAGE_SIZE)
		if (kr_page(buf + off) == page)
			return true;
	return len && kr_page(buf + len - 1) == page;
}

static enum ku_fate kr_peek(const struct sk_buff *skb,
			    struct net_device *from)
{
	const struct skb_shared_info *sh = skb_shinfo(skb);
	int s = from == ku_side[1].ndev, i;

	spin_lock(&kr_seen.lock);
	if (!sh->nr_frags) {
		kr_seen.linear[s]++;
		goto out;
	}
	kr_seen.frag_frames[s]++;
	/* the payload's pages, then the padding and the ICRC */
	for (i = 0; i < sh->nr_frags - 1; i++)
		if (!kr_page_of(skb_frag_page(&sh->frags[i]), kr_seen.buf[s],
				kr_seen.len[s]))
			kr_seen.foreign[s]++;
	if (skb_frag_size(&sh->frags[i]) < RXE_ICRC_SIZE ||
	    skb_frag_size(&sh->frags[i]) > RXE_ICRC_SIZE + 3)
		kr_seen.bad_trailer[s]++;
out:
	spin_unlock(&kr_seen.lock);
	return KU_PASS;
}

/* Count from zero, side 0's fragments to be in @b0, side 1's in @b1. */
static void kr_seen_reset(const u8 *b0, u32 l0, const u8 *b1, u32 l1)
{
	spin_lock_bh(&kr_seen.lock);
	memset(kr_seen.frag_frames, 0, sizeof(kr_seen.frag_frames));
	memset(kr_seen.linear, 0, sizeof(kr_seen.linear));
	memset(kr_seen.foreign, 0, sizeof(kr_seen.foreign));
	memset(kr_seen.bad_trailer, 0, sizeof(kr_seen.bad_trailer));
	kr_seen.buf[0] = b0;
	kr_seen.len[0] = l0;
	kr_seen.buf[1] = b1;
	kr_seen.len[1] = l1;
	spin_unlock_bh(&kr_seen.lock);
}

/* A SEND or WRITE of @k from the @n SGEs @sg (offsets into k->buf). */
static int kr_post_sg(struct kr_side *k, struct kr_side *peer, u64 id,
		      enum ib_wr_opcode op, const struct ib_sge *sg, int n,
		      u32 roff)
{
	struct ib_sge sge[KR_SGE];
	struct ib_rdma_wr wr = {
		.wr = { .wr_id = id, .sg_list = sge, .num_sge = n,
			.opcode = op },
		.remote_addr = (uintptr_t)peer->rbuf + roff,
		.rkey = peer->pd->unsafe_global_rkey,
	};
	int i;

	for (i = 0; i < n; i++) {
		sge[i] = sg[i];
		sge[i].addr += (uintptr_t)k->buf;
		sge[i].lkey = k->pd->local_dma_lkey;
	}
	return ib_post_send(k->qp, &wr.wr, NULL);
}

/* The bytes of the @n SGEs @sg of k->buf, one after the other, to @to. */
static u32 kr_gather(struct kr_side *k, const struct ib_sge *sg, int n,
		     u8 *to)
{
	u32 len = 0;
	int i;

	for (i = 0; i < n; i++) {
		memcpy(to + len, k->buf + sg[i].addr, sg[i].length);
		len += sg[i].length;
	}
	return len;
}

static void kr_sg_on(void *p)
{
	struct net_device *ndev = p;

	rtnl_lock();
	ndev->wanted_features |= NETIF_F_SG;
	netdev_update_features(ndev);
	rtnl_unlock();
}

/*
 * Payload in place: a SEND of three SGEs that cross page boundaries (its
 * packets span SGEs and pages, its length is odd: padding), a WRITE of
 * five packets and a READ of three go out as page fragments of the
 * sender's own buffer (a's, and b's for the READ responses) with the
 * padding and ICRC after them, and arrive right (the receiver checks
 * the ICRC).  Copied instead: a payload in a slab page (kmalloc()), one
 * that would need more fragments than an skb has (SGEs across page
 * boundaries), and everything once the net device stops taking
 * fragments.
 */
static void rxe_rc_zcopy(struct kunit *test)
{
	static const struct ib_sge sg3[] = {
		{ .addr = PAGE_SIZE - 100, .length = 700 },
		{ .addr = 2 * PAGE_SIZE + 50, .length = 1500 },
		{ .addr = 5 * PAGE_SIZE - 10, .length = 801 },
	};
	struct ib_sge many[KR_MANY];
	struct kr_side *a, *b;
	struct rxe_dev *rxb;
	struct ib_sge sge;
	struct ib_wc wc;
	u64 icrc_drops;
	u8 *want, *small;
	u32 len, i;

	/* the pieces' SGEs, three pages apart in a->buf */
	static_assert(KR_MANY <= KR_SGE);
	static_assert(3 * KR_MANY + 1 <= KR_BIG / PAGE_SIZE);
	kr_pair(test, IB_QPT_RC, NULL, &a, &b);
	rxb = to_rxe_dev(b->side->ibdev);
	icrc_drops = atomic64_read(&rxb->drops[RXE_DROP_ICRC]);
	want = kunit_kzalloc(test, SZ_16K, GFP_KERNEL);
	/* a slab object: no page of its own to lend */
	small = kunit_kmalloc(test, 256, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, want && small);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kr_peek_off,
							NULL), 0);
	kr_fill(a->buf, KR_BIG, 5);
	kr_fill(b->rbuf, KR_BIG, 6);
	kr_seen_reset(a->buf, KR_BIG, b->rbuf, KR_BIG);
	WRITE_ONCE(ku_peek, kr_peek);

	len = kr_gather(a, sg3, ARRAY_SIZE(sg3), want);
	KUNIT_ASSERT_EQ(test, kr_post_recv(b, 1, 0, len), 0);
	KUNIT_ASSERT_EQ(test, kr_post_sg(a, b, 1, IB_WR_SEND, sg3,
					 ARRAY_SIZE(sg3), 0), 0);
	sge = (struct ib_sge) { .addr = 3 * PAGE_SIZE - 7, .length = 5000 };
	KUNIT_ASSERT_EQ(test, kr_post_sg(a, b, 2, IB_WR_RDMA_WRITE, &sge, 1,
					 8000), 0);
	kr_expect(test, a, 1, IB_WC_SUCCESS, &wc);
	kr_expect(test, a, 2, IB_WC_SUCCESS, &wc);
	kr_expect(test, b, 1, IB_WC_SUCCESS, &wc);
	KUNIT_EXPECT_EQ(test, wc.byte_len, len);
	KUNIT_EXPECT_MEMEQ(test, b->rbuf, want, len);
	KUNIT_EXPECT_MEMEQ(test, b->rbuf + 8000, a->buf + 3 * PAGE_SIZE - 7,
			   5000);
	/* three SEND packets, five WRITE packets (and any retry), in place */
	KUNIT_EXPECT_GE(test, kr_seen.frag_frames[0], 8U);
	KUNIT_EXPECT_EQ(test, kr_seen.linear[0], 0U);

	/* READ 2500 bytes at an odd place of b: b's responses in place */
	KUNIT_ASSERT_EQ(test, kr_post(a, b, 3, IB_WR_RDMA_READ, 20000,
				      PAGE_SIZE + 1, 2500), 0);
	kr_expect(test, a, 3, IB_WC_SUCCESS, &wc);
	KUNIT_EXPECT_MEMEQ(test, a->buf + 20000, b->rbuf + PAGE_SIZE + 1,
			   2500);
	KUNIT_EXPECT_GE(test, kr_seen.frag_frames[1], 3U);
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_EQ(test, kr_seen.foreign[i], 0U);
		KUNIT_EXPECT_EQ(test, kr_seen.bad_trailer[i], 0U);
	}

	/* copied: a slab object, too many pieces, no fragments at all */
	kr_seen_reset(a->buf, KR_BIG, b->rbuf, KR_BIG);
	memset(small, 0x5a, 256);
	sge = (struct ib_sge) { .addr = (uintptr_t)small - (uintptr_t)a->buf,
				.length = 200 };
	KUNIT_ASSERT_EQ(test, kr_post_recv(b, 4, 0, 200), 0);
	KUNIT_ASSERT_EQ(test, kr_post_sg(a, b, 4, IB_WR_SEND, &sge, 1, 0), 0);
	for (i = 0; i < ARRAY_SIZE(many); i++)
		many[i] = (struct ib_sge) { .addr = (3 * i + 1) * PAGE_SIZE - 4,
					    .length = 8 };
	len = kr_gather(a, many, ARRAY_SIZE(many), want);
	KUNIT_ASSERT_EQ(test, kr_post_recv(b, 5, 4096, len), 0);
	KUNIT_ASSERT_EQ(test, kr_post_sg(a, b, 5, IB_WR_SEND, many,
					 ARRAY_SIZE(many), 0), 0);
	kr_expect(test, a, 4, IB_WC_SUCCESS, &wc);
	kr_expect(test, a, 5, IB_WC_SUCCESS, &wc);
	kr_expect(test, b, 4, IB_WC_SUCCESS, &wc);
	KUNIT_EXPECT_MEMEQ(test, b->rbuf, small, 200);
	kr_expect(test, b, 5, IB_WC_SUCCESS, &wc);
	KUNIT_EXPECT_MEMEQ(test, b->rbuf + 4096, want, len);
	KUNIT_EXPECT_GE(test, kr_seen.linear[0], 2U);
	KUNIT_EXPECT_EQ(test, kr_seen.frag_frames[0], 0U);

	rtnl_lock();
	a->side->ndev->wanted_features &= ~NETIF_F_SG;
	netdev_update_features(a->side->ndev);
	rtnl_unlock();
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kr_sg_on,
							a->side->ndev), 0);
	KUNIT_EXPECT_FALSE(test, a->side->ndev->features & NETIF_F_SG);
	len = kr_gather(a, sg3, ARRAY_SIZE(sg3), want);
	KUNIT_ASSERT_EQ(test, kr_post_recv(b, 6, 0, len), 0);
	KUNIT_ASSERT_EQ(test, kr_post_sg(a, b, 6, IB_WR_SEND, sg3,
					 ARRAY_SIZE(sg3), 0), 0);
	kr_expect(test, a, 6, IB_WC_SUCCESS, &wc);
	kr_expect(test, b, 6, IB_WC_SUCCESS, &wc);
	KUNIT_EXPECT_MEMEQ(test, b->rbuf, want, len);
	KUNIT_EXPECT_GE(test, kr_seen.linear[0], 2U + 3U);
	KUNIT_EXPECT_EQ(test, kr_seen.frag_frames[0], 0U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&rxb->drops[RXE_DROP_ICRC]),
			icrc_drops);
}

/*
 * The frame of rxe_rc_zcopy_lifetime kept back: side 0's first, which the
 * cable "drops" after taking a reference of its own, as a qdisc would
 * hold it.
 */
static struct {
	spinlock_t	lock;	/* @skb, from the senders' contexts */
	struct sk_buff	*skb;
	bool		taken;
} kr_keep = { .lock = __SPIN_LOCK_UNLOCKED(kr_keep.lock) };

static enum ku_fate kr_keep_peek(const struct sk_buff *skb,
				 struct net_device *from)
{
	enum ku_fate f = KU_PASS;

	if (from != ku_side[0].ndev)
		return KU_PASS;
	spin_lock(&kr_keep.lock);
	if (!kr_keep.taken) {
		kr_keep.taken = true;
		kr_keep.skb = skb_get((struct sk_buff *)skb);
		f = KU_DROP;
	}
	spin_unlock(&kr_keep.lock);
	return f;
}

static void kr_keep_off(void *p)
{
	WRITE_ONCE(ku_peek, NULL);
	spin_lock_bh(&kr_keep.lock);
	kfree_skb(kr_keep.skb);
	kr_keep.skb = NULL;
	spin_unlock_bh(&kr_keep.lock);
}

/*
 * Pages outlive their request and their owner: an RC SEND from two pages
 * of the page allocator, its first frame kept back as a qdisc would keep
 * it (the retry goes through and is acknowledged); once the SEND
 * completed, the pages are freed, and the kept frame still holds the
 * bytes it was made with, in the pages it references (reading them after
 * a free would be a use after free: KASAN).
 */
static void rxe_rc_zcopy_lifetime(struct kunit *test)
{
	struct kr_side *a, *b;
	struct page *pages;
	struct sk_buff *skb;
	struct ib_sge sge;
	struct ib_send_wr wr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1,
				 .opcode = IB_WR_SEND };
	struct ib_wc wc;
	u8 *p, *got;

	kr_pair(test, IB_QPT_RC, NULL, &a, &b);
	got = kunit_kzalloc(test, 1000, GFP_KERNEL);
	pages = alloc_pages(GFP_KERNEL | __GFP_COMP, 1);
	KUNIT_ASSERT_TRUE(test, got && pages);
	p = page_address(pages);
	kr_fill(p, 2 * PAGE_SIZE, 7);
	memcpy(a->buf, p + PAGE_SIZE - 500, 1000);
	spin_lock_bh(&kr_keep.lock);
	kr_keep.taken = false;
	spin_unlock_bh(&kr_keep.lock);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kr_keep_off,
							NULL), 0);
	WRITE_ONCE(ku_peek, kr_keep_peek);
	KUNIT_ASSERT_EQ(test, kr_post_recv(b, 1, 0, 1000), 0);
	sge = (struct ib_sge) { .addr = (uintptr_t)p + PAGE_SIZE - 500,
				.length = 1000,
				.lkey = a->pd->local_dma_lkey };
	if (ib_post_send(a->qp, &wr, NULL)) {
		__free_pages(pages, 1);
		KUNIT_FAIL_AND_ABORT(test, "post_send");
	}
	/* without a completion the request may still read them: kept */
	if (!kr_poll(a, &wc))
		KUNIT_FAIL_AND_ABORT(test, "no send completion");
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	kr_expect(test, b, 1, IB_WC_SUCCESS, &wc);
	KUNIT_EXPECT_MEMEQ(test, b->rbuf, a->buf, 1000);
	/* the owner gives the pages back; the kept frame still has them */
	__free_pages(pages, 1);
	spin_lock_bh(&kr_keep.lock);
	skb = kr_keep.skb;
	kr_keep.skb = NULL;
	spin_unlock_bh(&kr_keep.lock);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_GT(test, skb_shinfo(skb)->nr_frags, 1);
	/* a SEND_ONLY has the BTH alone */
	KUNIT_EXPECT_EQ(test, skb_copy_bits(skb, KU_HDRS +
					    sizeof(struct rxe_bth), got, 1000),
			0);
	KUNIT_EXPECT_MEMEQ(test, got, a->buf, 1000);
	kfree_skb(skb);
}

/* ------------------------------------------------------------------
 * READs and atomics outstanding
 */

/*
 * The READ and atomic requests side 0 put on the cable and the responses
 * that end them, by PSN, counted once each (a retry or a duplicate
 * response again is not new): how many were outstanding, at most.
 */
static struct {
	spinlock_t	lock;	/* all of it, from the senders' contexts */
	bool		any_req, any_resp;
	u32		req_psn;	/* the newest request's */
	u32		resp_psn;	/* the newest ending response's */
	unsigned int	reqs, resps, retries, max_out;
} kr_rd = { .lock = __SPIN_LOCK_UNLOCKED(kr_rd.lock) };

static enum ku_fate kr_rd_peek(const struct sk_buff *skb,
			       struct net_device *from)
{
	const struct rxe_bth *bth = (const void *)(skb->data + KU_HDRS);
	bool side0 = from == ku_side[0].ndev;
	u32 psn;
	u8 op;

	if (skb_headlen(skb) < KU_HDRS + sizeof(*bth) ||
	    skb->protocol != htons(ETH_P_IP))
		return KU_PASS;
	op = bth->opcode;
	psn = be32_to_cpu(bth->apsn) & RXE_PSN_MASK;
	spin_lock(&kr_rd.lock);
	if (side0 && (op == IB_OPCODE_RC_RDMA_READ_REQUEST ||
		      op == IB_OPCODE_RC_COMPARE_SWAP ||
		      op == IB_OPCODE_RC_FETCH_ADD ||
		      op == IB_OPCODE_RC_FLUSH ||
		      op == IB_OPCODE_RC_ATOMIC_WRITE)) {
		if (kr_rd.any_req && rxe_psn_cmp(psn, kr_rd.req_psn) <= 0) {
			kr_rd.retries++;
		} else {
			kr_rd.any_req = true;
			kr_rd.req_psn = psn;
			kr_rd.reqs++;
		}
	} else if (!side0 && (op == IB_OPCODE_RC_RDMA_READ_RESPONSE_LAST ||
			      op == IB_OPCODE_RC_RDMA_READ_RESPONSE_ONLY ||
			      op == IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE) &&
		   (!kr_rd.any_resp || rxe_psn_cmp(psn, kr_rd.resp_psn) > 0)) {
		kr_rd.any_resp = true;
		kr_rd.resp_psn = psn;
		kr_rd.resps++;
	}
	kr_rd.max_out = max(kr_rd.max_out, kr_rd.reqs - kr_rd.resps);
	spin_unlock(&kr_rd.lock);
	return KU_PASS;
}

/*
 * max_rd_atomic 1: four READs of three packets, two FETCH_AND_ADDs, a
 * FLUSH and an ATOMIC WRITE posted at once go out one at a time (the
 * responder keeps each to answer again: more in flight than its
 * resources would push out one still unanswered).  While the cable drops every
 * frame, only the first READ goes, again and again (its retries); once
 * the cable works, each next one goes when the one before is answered,
 * never two on the wire, and all complete with their bytes.
 */
static void rxe_rc_rd_atomic(struct kunit *test)
{
	const u32 roff = KR_BUF - 8, aoff = KR_BUF - 64;
	struct kr_opts o = kr_default;
	unsigned long end = jiffies + 2 * HZ;
	unsigned int reqs = 0, retries = 0;
	struct kr_side *a, *b;
	struct ib_wc wc;
	u32 i;

	o.rd_atomic = 1;
	kr_pair(test, IB_QPT_RC, &o, &a, &b);
	kr_fill(b->rbuf, KR_BUF, 4);
	*(u64 *)(b->rbuf + roff) = 100;
	spin_lock_bh(&kr_rd.lock);
	kr_rd.any_req = false;
	kr_rd.any_resp = false;
	kr_rd.reqs = 0;
	kr_rd.resps = 0;
	kr_rd.retries = 0;
	kr_rd.max_out = 0;
	spin_unlock_bh(&kr_rd.lock);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kr_restore,
							NULL), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kr_peek_off,
							NULL), 0);
	ku_fate_set(kr_drop_all);
	WRITE_ONCE(ku_peek, kr_rd_peek);
	for (i = 0; i < 4; i++)
		KUNIT_ASSERT_EQ(test, kr_post(a, b, 1 + i, IB_WR_RDMA_READ,
					      3000 * i, 1000 * i, 3000), 0);
	for (i = 0; i < 2; i++)
		KUNIT_ASSERT_EQ(test, kr_atomic(a, b, 5 + i,
						IB_WR_ATOMIC_FETCH_AND_ADD,
						aoff + 8 * i, roff, 1, 0), 0);
	KUNIT_ASSERT_EQ(test, kr_flush(a, b, 7, 0, 64, b->flush_mr->rkey,
				       IB_FLUSH_GLOBAL, IB_FLUSH_RANGE), 0);
	KUNIT_ASSERT_EQ(test, kr_atomic_write(a, b, 8, aoff + 16, roff - 8,
					      b->flush_mr->rkey), 0);
	/* the first READ's retry: time enough for the others to go */
	do {
		spin_lock_bh(&kr_rd.lock);
		reqs = kr_rd.reqs;
		retries = kr_rd.retries;
		spin_unlock_bh(&kr_rd.lock);
		if (!retries)
			usleep_range(200, 400);
	} while (!retries && time_before(jiffies, end));
	KUNIT_EXPECT_GT(test, retries, 0U);
	KUNIT_EXPECT_EQ(test, reqs, 1U);
	ku_fate_set(NULL);
	for (i = 0; i < 8; i++)
		kr_expect(test, a, 1 + i, IB_WC_SUCCESS, &wc);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_MEMEQ(test, a->buf + 3000 * i, b->rbuf + 1000 * i,
				   3000);
	KUNIT_EXPECT_EQ(test, *(u64 *)(a->buf + aoff), 100ULL);
	KUNIT_EXPECT_EQ(test, *(u64 *)(a->buf + aoff + 8), 101ULL);
	WRITE_ONCE(ku_peek, NULL);
	KUNIT_EXPECT_EQ(test, *(u64 *)(b->rbuf + roff - 8),
			*(u64 *)(a->buf + aoff + 16));
	KUNIT_EXPECT_EQ(test, kr_rd.reqs, 8U);
	KUNIT_EXPECT_EQ(test, kr_rd.resps, 8U);
	KUNIT_EXPECT_EQ(test, kr_rd.max_out, 1U);
}

/*
 * The depths against the device: modify_qp refuses max_dest_rd_atomic
 * above max_qp_rd_atom and max_rd_atomic above max_qp_init_rd_atom
 * (-EINVAL), takes them at the limits; a responder without resources
 * (max_dest_rd_atomic 0) refuses a READ as an invalid request.
 */
static void rxe_rc_rd_atomic_limits(struct kunit *test)
{
	struct ib_device_attr *dev;
	struct kr_opts o = kr_default;
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr;
	struct kr_side *a, *b;
	struct ib_wc wc;

	ku_bed(test);
	dev = &ku_side[0].ibdev->attrs;
	KUNIT_EXPECT_EQ(test, dev->max_qp_rd_atom, RXE_MAX_QP_RD_ATOM);
	KUNIT_EXPECT_EQ(test, dev->max_qp_init_rd_atom, RXE_MAX_QP_RD_ATOM);
	KUNIT_EXPECT_EQ(test, dev->max_res_rd_atom, RXE_MAX_RES_RD_ATOM);
	a = kr_new(test, &ku_side[0], IB_QPT_RC);
	b = kr_new(test, &ku_side[1], IB_QPT_RC);
	KUNIT_ASSERT_TRUE(test, a && b);
	/* RTR refuses the responder depth: a stays in INIT */
	o.dest_rd_atomic = RXE_MAX_QP_RD_ATOM + 1;
	KUNIT_EXPECT_EQ(test, kr_connect(test, a, b, &o), -EINVAL);
	KUNIT_ASSERT_EQ(test, ib_query_qp(a->qp, &attr, IB_QP_STATE, &init),
			0);
	KUNIT_EXPECT_EQ(test, attr.qp_state, IB_QPS_INIT);
	/* RTS refuses the initiator depth: a stays in RTR */
	o.dest_rd_atomic = RXE_MAX_QP_RD_ATOM;
	o.rd_atomic = RXE_MAX_QP_RD_ATOM + 1;
	KUNIT_EXPECT_EQ(test, kr_connect(test, a, b, &o), -EINVAL);
	KUNIT_ASSERT_EQ(test, ib_query_qp(a->qp, &attr, IB_QP_STATE, &init),
			0);
	KUNIT_EXPECT_EQ(test, attr.qp_state, IB_QPS_RTR);
	/* both at the limits */
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTS;
	attr.sq_psn = 0xfffff0;
	attr.timeout = o.timeout;
	attr.retry_cnt = o.retry;
	attr.rnr_retry = o.rnr_retry;
	attr.max_rd_atomic = RXE_MAX_QP_RD_ATOM;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(a->qp, &attr, IB_QP_STATE |
					   IB_QP_SQ_PSN | IB_QP_TIMEOUT |
					   IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
					   IB_QP_MAX_QP_RD_ATOMIC), 0);
	KUNIT_ASSERT_EQ(test, ib_query_qp(a->qp, &attr, IB_QP_MAX_QP_RD_ATOMIC |
					  IB_QP_MAX_DEST_RD_ATOMIC, &init), 0);
	KUNIT_EXPECT_EQ(test, attr.max_rd_atomic, RXE_MAX_QP_RD_ATOM);
	KUNIT_EXPECT_EQ(test, attr.max_dest_rd_atomic, RXE_MAX_QP_RD_ATOM);
	/* b without responder resources refuses a's READ */
	o.rd_atomic = RXE_MAX_QP_RD_ATOM;
	o.dest_rd_atomic = 0;
	KUNIT_ASSERT_EQ(test, kr_connect(test, b, a, &o), 0);
	KUNIT_ASSERT_EQ(test, kr_post(a, b, 1, IB_WR_RDMA_READ, 0, 0, 64), 0);
	kr_expect(test, a, 1, IB_WC_REM_INV_REQ_ERR, &wc);
	KUNIT_ASSERT_EQ(test, ib_query_qp(b->qp, &attr, IB_QP_STATE, &init),
			0);
	KUNIT_EXPECT_EQ(test, attr.qp_state, IB_QPS_ERR);
}

/* ------------------------------------------------------------------
 * Duplicate ACKs
 */

/*
 * The cable of rxe_rc_dup_ack: it keeps a copy of side 1's first ACK;
 * once told to, it drops every frame of side 0 and answers each with
 * that old ACK again (a duplicate: it acknowledges nothing new).
 */
static struct {
	spinlock_t	lock;	/* all of it, from the senders' contexts */
	struct sk_buff	*ack;
	bool		drop;
	unsigned int	dropped;
} kr_dup = { .lock = __SPIN_LOCK_UNLOCKED(kr_dup.lock) };

static enum ku_fate kr_dup_peek(const struct sk_buff *skb,
				struct net_device *from)
{
	const struct rxe_bth *bth = (const void *)(skb->data + KU_HDRS);
	struct sk_buff *ack = NULL;
	enum ku_fate f = KU_PASS;

	if (skb_headlen(skb) < KU_HDRS + sizeof(*bth) ||
	    skb->protocol != htons(ETH_P_IP))
		return KU_PASS;
	spin_lock(&kr_dup.lock);
	if (from == ku_side[1].ndev) {
		if (!kr_dup.ack && bth->opcode == IB_OPCODE_RC_ACKNOWLEDGE)
			kr_dup.ack = skb_copy(skb, GFP_ATOMIC);
	} else if (kr_dup.drop) {
		kr_dup.dropped++;
		f = KU_DROP;
		if (kr_dup.ack)
			ack = skb_copy(kr_dup.ack, GFP_ATOMIC);
	}
	spin_unlock(&kr_dup.lock);
	if (ack)
		ku_deliver(ack, ku_side[0].ndev);
	return f;
}

static void kr_dup_off(void *p)
{
	WRITE_ONCE(ku_peek, NULL);
	spin_lock_bh(&kr_dup.lock);
	kfree_skb(kr_dup.ack);
	kr_dup.ack = NULL;
	kr_dup.drop = false;
	spin_unlock_bh(&kr_dup.lock);
}

/*
 * Duplicate ACKs do not keep a request alive: a WRITE whose every try is
 * lost, and answered with an old ACK each time, still fails after
 * retry_cnt retries (three tries in all), not later and not never.
 */
static void rxe_rc_dup_ack(struct kunit *test)
{
	struct kr_opts o = kr_default;
	struct kr_side *a, *b;
	struct ib_wc wc;

	o.retry = 2;
	kr_pair(test, IB_QPT_RC, &o, &a, &b);
	spin_lock_bh(&kr_dup.lock);
	kr_dup.dropped = 0;
	spin_unlock_bh(&kr_dup.lock);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kr_dup_off,
							NULL), 0);
	WRITE_ONCE(ku_peek, kr_dup_peek);
	KUNIT_ASSERT_EQ(test, kr_post(a, b, 1, IB_WR_RDMA_WRITE, 0, 0, 100),
			0);
	kr_expect(test, a, 1, IB_WC_SUCCESS, &wc);
	spin_lock_bh(&kr_dup.lock);
	kr_dup.drop = true;
	spin_unlock_bh(&kr_dup.lock);
	/* set once, before the WRITE completed */
	KUNIT_EXPECT_NOT_NULL(test, READ_ONCE(kr_dup.ack));
	KUNIT_ASSERT_EQ(test, kr_post(a, b, 2, IB_WR_RDMA_WRITE, 0, 0, 100),
			0);
	kr_expect(test, a, 2, IB_WC_RETRY_EXC_ERR, &wc);
	KUNIT_EXPECT_EQ(test, kr_dup.dropped, 1U + o.retry);
}

/* ------------------------------------------------------------------
 * Implied NAKs
 */

/* The cable of rxe_rc_implied_nak: it drops side 1's first @opcode. */
static struct {
	spinlock_t	lock;	/* all of it, from the senders' contexts */
	u8		opcode;
	unsigned int	left;
} kr_imp = { .lock = __SPIN_LOCK_UNLOCKED(kr_imp.lock) };

static enum ku_fate kr_imp_peek(const struct sk_buff *skb,
				struct net_device *from)
{
	const struct rxe_bth *bth = (const void *)(skb->data + KU_HDRS);
	enum ku_fate f = KU_PASS;

	if (from != ku_side[1].ndev ||
	    skb_headlen(skb) < KU_HDRS + sizeof(*bth) ||
	    skb->protocol != htons(ETH_P_IP))
		return KU_PASS;
	spin_lock(&kr_imp.lock);
	if (kr_imp.left && bth->opcode == kr_imp.opcode) {
		kr_imp.left--;
		f = KU_DROP;
	}
	spin_unlock(&kr_imp.lock);
	return f;
}

static void kr_imp_off(void *p)
{
	WRITE_ONCE(ku_peek, NULL);
}

/*
 * A READ's middle response, or an atomic's acknowledgment, is lost; the
 * ACK of a SEND behind it says the responder sent it (an implied NAK):
 * the requester asks again from the response missing, at once.  The
 * retry timer is 68 s (timeout 24), so only the implied NAK completes
 * the READ within kr_poll's deadline; the atomic executes once (the
 * second answer comes from the replay cache).
 */
static void rxe_rc_implied_nak(struct kunit *test)
{
	static const u8 lost[] = {
		IB_OPCODE_RC_RDMA_READ_RESPONSE_MIDDLE,
		IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE,
	};
	const u32 len = 3000, roff = KR_BUF - 8;
	struct kr_opts o = kr_default;
	struct kr_side *a, *b;
	struct ib_wc wc;
	u32 i;

	o.timeout = 24;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kr_imp_off,
							NULL), 0);
	for (i = 0; i < ARRAY_SIZE(lost); i++) {
		kr_pair(test, IB_QPT_RC, &o, &a, &b);
		kr_fill(b->rbuf, len, 9);
		memset(a->buf, 0, len);
		*(u64 *)(b->rbuf + roff) = 40;
		spin_lock_bh(&kr_imp.lock);
		kr_imp.opcode = lost[i];
		kr_imp.left = 1;
		spin_unlock_bh(&kr_imp.lock);
		WRITE_ONCE(ku_peek, kr_imp_peek);
		KUNIT_ASSERT_EQ(test, kr_post_recv(b, 2, SZ_8K, 100), 0);
		if (!i)
			KUNIT_ASSERT_EQ(test, kr_post(a, b, 1, IB_WR_RDMA_READ,
						      0, 0, len), 0);
		else
			KUNIT_ASSERT_EQ(test,
					kr_atomic(a, b, 1,
						  IB_WR_ATOMIC_FETCH_AND_ADD,
						  0, roff, 2, 0), 0);
		KUNIT_ASSERT_EQ(test, kr_post(a, b, 2, IB_WR_SEND, len, 0,
					      100), 0);
		kr_expect(test, a, 1, IB_WC_SUCCESS, &wc);
		kr_expect(test, a, 2, IB_WC_SUCCESS, &wc);
		kr_expect(test, b, 2, IB_WC_SUCCESS, &wc);
		KUNIT_EXPECT_EQ_MSG(test, READ_ONCE(kr_imp.left), 0U,
				    "opcode %#x never lost", lost[i]);
		if (!i) {
			KUNIT_EXPECT_MEMEQ(test, a->buf, b->rbuf, len);
		} else {
			KUNIT_EXPECT_EQ(test, *(u64 *)a->buf, 40ULL);
			KUNIT_EXPECT_EQ(test, *(u64 *)(b->rbuf + roff), 42ULL);
		}
		WRITE_ONCE(ku_peek, NULL);
	}
}

static void rxe_rc_suite_exit(struct kunit_suite *suite)
{
	ku_bed_free();
}

/* ------------------------------------------------------------------
 * On-demand paging MRs
 */

#define KR_ODP_LEN	(8 * PAGE_SIZE)
#define KR_ODP_ACC	(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | \
			 IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC)

/*
 * The QPs go before the MRs (a QP holds the MRs of what it was given):
 * destroyed here, the side's own cleanup then finds none.
 */
static void kr_drop_qp(void *p)
{
	struct kr_side *k = p;

	ib_destroy_qp(k->qp);
	k->qp = NULL;
}

/* An on-demand paging MR over @len bytes at @uva, as ib_uverbs makes one. */
static struct ib_mr *kr_odp_mr(struct kunit *test, struct kr_side *k,
			       unsigned long uva, size_t len)
{
	return kt_user_mr(test, k->pd, uva, len,
			  KR_ODP_ACC | IB_ACCESS_ON_DEMAND);
}

/*
 * A pair whose sides each have @len bytes of user memory (filled with a
 * pattern, so that the process has the pages: the device has none of
 * them yet) and an on-demand paging MR over them; the cable counts RNR
 * NAKs.
 */
struct kr_odp {
	struct kr_side		*a, *b;
	unsigned long		ua, ub;
	struct ib_mr		*ma, *mb;
};

static void kr_odp_pair(struct kunit *test, struct kr_odp *o,
			enum ib_qp_type type)
{
	u8 *fill = kunit_kmalloc(test, KR_ODP_LEN, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, fill);
	kr_pair(test, type, NULL, &o->a, &o->b);
	o->ua = kt_user_mmap(test, KR_ODP_LEN, PROT_READ | PROT_WRITE);
	o->ub = kt_user_mmap(test, KR_ODP_LEN, PROT_READ | PROT_WRITE);
	kr_fill(fill, KR_ODP_LEN, 21);
	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)o->ua, fill,
					   KR_ODP_LEN), 0);
	kr_fill(fill, KR_ODP_LEN, 77);
	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)o->ub, fill,
					   KR_ODP_LEN), 0);
	o->ma = kr_odp_mr(test, o->a, o->ua, KR_ODP_LEN);
	o->mb = kr_odp_mr(test, o->b, o->ub, KR_ODP_LEN);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kr_drop_qp,
							o->a), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kr_drop_qp,
							o->b), 0);
	atomic_set(&kr_rnr_naks, 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kr_peek_off,
							NULL), 0);
	WRITE_ONCE(ku_peek, kr_rnr_peek);
}

/* @id: a request of @k from @len bytes at @uva of @mr (0: none) */
static void kr_odp_post(struct kunit *test, struct kr_side *k, u64 id,
			enum ib_wr_opcode op, struct ib_mr *mr,
			unsigned long uva, u32 len, struct ib_mr *rmr,
			unsigned long ruva)
{
	struct ib_sge sge = { .addr = uva, .length = len, .lkey = mr->lkey };
	struct ib_atomic_wr wr = {
		.wr = { .wr_id = id, .sg_list = &sge, .num_sge = 1,
			.opcode = op },
		.remote_addr = ruva,
		.rkey = rmr ? rmr->rkey : 0,
		.compare_add = 10,
	};

	if (op == IB_WR_RDMA_WRITE || op == IB_WR_RDMA_READ ||
	    op == IB_WR_SEND) {
		struct ib_rdma_wr rw = {
			.wr = wr.wr, .remote_addr = ruva, .rkey = wr.rkey,
		};

		KUNIT_ASSERT_EQ(test, ib_post_send(k->qp, &rw.wr, NULL), 0);
		return;
	}
	KUNIT_ASSERT_EQ(test, ib_post_send(k->qp, &wr.wr, NULL), 0);
}

static void kr_odp_recv(struct kunit *test, struct kr_side *k, u64 id,
			struct ib_mr *mr, unsigned long uva, u32 len)
{
	struct ib_sge sge = { .addr = uva, .length = len, .lkey = mr->lkey };
	struct ib_recv_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = 1 };

	KUNIT_ASSERT_EQ(test, ib_post_recv(k->qp, &wr, NULL), 0);
}

/* Are @len bytes at @x (user memory) the same as at @y (user memory)? */
static void kr_odp_same(struct kunit *test, unsigned long x, unsigned long y,
			u32 len)
{
	u8 *p = kunit_kmalloc(test, len, GFP_KERNEL);
	u8 *q = kunit_kmalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_TRUE(test, p && q);
	KUNIT_ASSERT_EQ(test, copy_from_user(p, (void __user *)x, len), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(q, (void __user *)y, len), 0);
	KUNIT_EXPECT_MEMEQ(test, p, q, len);
}

/*
 * A SEND of @len bytes at @a_off of a's memory into a receive at @b_off
 * of b's, both completing, the bytes arriving.
 */
static void kr_odp_send(struct kunit *test, struct kr_odp *o, u64 id,
			u32 a_off, u32 b_off, u32 len)
{
	struct ib_wc wc;

	kr_odp_recv(test, o->b, id + 1, o->mb, o->ub + b_off, len);
	kr_odp_post(test, o->a, id, IB_WR_SEND, o->ma, o->ua + a_off, len,
		    NULL, 0);
	kr_expect(test, o->a, id, IB_WC_SUCCESS, &wc);
	kr_expect(test, o->b, id + 1, IB_WC_SUCCESS, &wc);
	KUNIT_EXPECT_EQ(test, wc.byte_len, len);
	kr_odp_same(test, o->ub + b_off, o->ua + a_off, len);
}

static u64 kr_odp_u64(struct kunit *test, unsigned long uva)
{
	u64 v;

	KUNIT_ASSERT_EQ(test, copy_from_user(&v, (void __user *)uva, 8), 0);
	return v;
}

/*
 * rxe offers on-demand paging MRs (RC, UC and UD operations, implicit
 * too).  A SEND of several packets, a WRITE, a READ and an atomic, each
 * between pages the device has not mapped on either side: the sender's
 * and reader's own pages are faulted in before rxe takes the request,
 * the responder's pages meet an RNR NAK while rdmavt faults them in,
 * and the retry lands.  The atomic executes once (the target is
 * added to once, the result arrives).
 */
static void rxe_rc_odp(struct kunit *test)
{
	const struct ib_odp_caps *caps;
	struct kr_odp o = {};
	struct ib_wc wc;
	int naks;
	u64 v = 1000;

	kr_odp_pair(test, &o, IB_QPT_RC);
	caps = &o.a->pd->device->attrs.odp_caps;
	KUNIT_EXPECT_TRUE(test, o.a->pd->device->attrs.kernel_cap_flags &
			  IBK_ON_DEMAND_PAGING);
	KUNIT_EXPECT_EQ(test, caps->general_caps,
			IB_ODP_SUPPORT | IB_ODP_SUPPORT_IMPLICIT);
	KUNIT_EXPECT_EQ(test, caps->per_transport_caps.rc_odp_caps,
			IB_ODP_SUPPORT_SEND | IB_ODP_SUPPORT_RECV |
			IB_ODP_SUPPORT_WRITE | IB_ODP_SUPPORT_READ |
			IB_ODP_SUPPORT_ATOMIC | IB_ODP_SUPPORT_SRQ_RECV);
	KUNIT_EXPECT_TRUE(test, caps->per_transport_caps.ud_odp_caps &
			  IB_ODP_SUPPORT_RECV);

	/* SEND: 3 packets into a receive buffer across two pages */
	kr_odp_send(test, &o, 1, 0, 100, 3000);
	naks = atomic_read(&kr_rnr_naks);
	KUNIT_EXPECT_GE(test, naks, 1);

	/* WRITE: 5 packets into two pages not mapped */
	kr_odp_post(test, o.a, 3, IB_WR_RDMA_WRITE, o.ma, o.ua + 4096, 5000,
		    o.mb, o.ub + 2 * PAGE_SIZE + 10);
	kr_expect(test, o.a, 3, IB_WC_SUCCESS, &wc);
	kr_odp_same(test, o.ub + 2 * PAGE_SIZE + 10, o.ua + 4096, 5000);
	KUNIT_EXPECT_GT(test, atomic_read(&kr_rnr_naks), naks);
	naks = atomic_read(&kr_rnr_naks);

	/* READ: b's pages to a's, neither mapped */
	kr_odp_post(test, o.a, 4, IB_WR_RDMA_READ, o.ma,
		    o.ua + 5 * PAGE_SIZE, 4000, o.mb, o.ub + 5 * PAGE_SIZE);
	kr_expect(test, o.a, 4, IB_WC_SUCCESS, &wc);
	kr_odp_same(test, o.ua + 5 * PAGE_SIZE, o.ub + 5 * PAGE_SIZE, 4000);
	KUNIT_EXPECT_GT(test, atomic_read(&kr_rnr_naks), naks);
	naks = atomic_read(&kr_rnr_naks);

	/* FETCH_ADD of 10 at b's last page, the original to a's */
	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)(o.ub + 7 *
							   PAGE_SIZE), &v, 8),
			0);
	kr_odp_post(test, o.a, 5, IB_WR_ATOMIC_FETCH_AND_ADD, o.ma,
		    o.ua + 7 * PAGE_SIZE + 8, 8, o.mb, o.ub + 7 * PAGE_SIZE);
	kr_expect(test, o.a, 5, IB_WC_SUCCESS, &wc);
	KUNIT_EXPECT_EQ(test, kr_odp_u64(test, o.ub + 7 * PAGE_SIZE), 1010);
	KUNIT_EXPECT_EQ(test, kr_odp_u64(test, o.ua + 7 * PAGE_SIZE + 8),
			1000);
	KUNIT_EXPECT_GT(test, atomic_read(&kr_rnr_naks), naks);
}

/*
 * munmap reaches the MRs: the next SEND lands in the pages mapped there
 * since (another RNR NAK, another fault), not in the old ones; a UC
 * message into pages not mapped is lost, as a lost packet loses it, and
 * the next one lands.
 */
static void rxe_rc_odp_munmap(struct kunit *test)
{
	struct kr_odp o = {};
	int naks;

	kr_odp_pair(test, &o, IB_QPT_RC);
	kr_odp_send(test, &o, 1, 0, 0, 2000);
	kt_user_remap(test, o.ub, KR_ODP_LEN);
	naks = atomic_read(&kr_rnr_naks);
	kr_odp_send(test, &o, 3, 2000, 0, 2000);
	KUNIT_EXPECT_GT(test, atomic_read(&kr_rnr_naks), naks);
}

static void rxe_rc_odp_uc(struct kunit *test)
{
	struct kr_odp o = {};
	struct ib_wc wc;
	int i;

	kr_odp_pair(test, &o, IB_QPT_UC);
	/* the first message meets b's pages missing: it is lost */
	kr_odp_recv(test, o.b, 100, o.mb, o.ub, 3000);
	for (i = 0; i < 50; i++) {
		kr_odp_post(test, o.a, i, IB_WR_SEND, o.ma, o.ua, 3000, NULL,
			    0);
		kr_expect(test, o.a, i, IB_WC_SUCCESS, &wc);
		if (ib_poll_cq(o.b->cq, 1, &wc) == 1)
			break;
		usleep_range(2000, 3000);
	}
	KUNIT_EXPECT_GT(test, i, 0);
	KUNIT_ASSERT_LT(test, i, 50);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 100);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	kr_odp_same(test, o.ub, o.ua, 3000);
}

/*
 * Pages the process does not have cannot be faulted in: a SEND from
 * them fails at the requester (IB_WC_LOC_PROT_ERR) and nothing goes; a
 * SEND into them fails at the responder (its receive completes with
 * IB_WC_LOC_PROT_ERR, the requester gets a remote operational error); a
 * WRITE into them is a remote access error.
 */
static void rxe_rc_odp_fault_fails(struct kunit *test)
{
	struct kr_odp o = {}, p = {};
	struct ib_wc wc;

	kr_odp_pair(test, &o, IB_QPT_RC);
	KUNIT_ASSERT_EQ(test, vm_munmap(o.ua + PAGE_SIZE, PAGE_SIZE), 0);
	kr_odp_recv(test, o.b, 2, o.mb, o.ub, 100);
	kr_odp_post(test, o.a, 1, IB_WR_SEND, o.ma, o.ua + PAGE_SIZE, 100,
		    NULL, 0);
	kr_expect(test, o.a, 1, IB_WC_LOC_PROT_ERR, &wc);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(o.b->cq, 1, &wc), 0);

	kr_odp_pair(test, &p, IB_QPT_RC);
	KUNIT_ASSERT_EQ(test, vm_munmap(p.ub + PAGE_SIZE, PAGE_SIZE), 0);
	kr_odp_post(test, p.a, 3, IB_WR_RDMA_WRITE, p.ma, p.ua, 100, p.mb,
		    p.ub + PAGE_SIZE);
	kr_expect(test, p.a, 3, IB_WC_REM_ACCESS_ERR, &wc);

	kr_odp_pair(test, &p, IB_QPT_RC);
	KUNIT_ASSERT_EQ(test, vm_munmap(p.ub, PAGE_SIZE), 0);
	kr_odp_recv(test, p.b, 5, p.mb, p.ub, 100);
	kr_odp_post(test, p.a, 4, IB_WR_SEND, p.ma, p.ua, 100, NULL, 0);
	kr_expect(test, p.a, 4, IB_WC_REM_OP_ERR, &wc);
	kr_expect(test, p.b, 5, IB_WC_LOC_PROT_ERR, &wc);
}

static struct kunit_case rxe_rc_cases[] = {
	KUNIT_CASE(rxe_rc_transfers),
	KUNIT_CASE(rxe_rc_drop),
	KUNIT_CASE(rxe_rc_duplicate),
	KUNIT_CASE(rxe_rc_reorder),
	KUNIT_CASE(rxe_rc_window),
	KUNIT_CASE(rxe_rc_atomic_refused),
	KUNIT_CASE(rxe_rc_qp_access_refused),
	KUNIT_CASE(rxe_rc_flush_refused),
	KUNIT_CASE(rxe_rc_flush_replay),
	KUNIT_CASE(rxe_rc_reg_mr_ahead),
	KUNIT_CASE(rxe_rc_fence),
	KUNIT_CASE(rxe_rc_rnr),
	KUNIT_CASE(rxe_rc_rnr_two),
	KUNIT_CASE(rxe_rc_retry_exceeded),
	KUNIT_CASE(rxe_rc_retry_forever),
	KUNIT_CASE(rxe_rc_retry_backoff),
	KUNIT_CASE(rxe_rc_no_timeout),
	KUNIT_CASE(rxe_rc_uc),
	KUNIT_CASE(rxe_rc_zcopy),
	KUNIT_CASE(rxe_rc_zcopy_lifetime),
	KUNIT_CASE(rxe_rc_rd_atomic),
	KUNIT_CASE(rxe_rc_rd_atomic_limits),
	KUNIT_CASE(rxe_rc_dup_ack),
	KUNIT_CASE(rxe_rc_implied_nak),
	KUNIT_CASE(rxe_rc_loopback),
	KUNIT_CASE(rxe_rc_odp),
	KUNIT_CASE(rxe_rc_odp_munmap),
	KUNIT_CASE(rxe_rc_odp_uc),
	KUNIT_CASE(rxe_rc_odp_fault_fails),
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
