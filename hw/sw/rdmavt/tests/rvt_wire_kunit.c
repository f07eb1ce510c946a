// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_rvt_wire": the boundary rdmavt offers a wire driver
 * (<rdma/rdmavt_qp.h>), driven directly on the QPs of loop devices:
 *
 *  - untagged placement: rvt_recv_begin(), rvt_recv_place() at message
 *    offsets in MULPDU-sized pieces, in and out of order, and
 *    rvt_recv_complete() with immediate data or invalidation, from a
 *    QP's receive queue and from an SRQ;
 *  - refusals: pieces beyond the receive WQE, placement with no WQE
 *    taken, bad rkeys, ranges past an MR and QPs that do not grant the
 *    access, each with its exact status and nothing written;
 *  - tagged placement (rvt_write_place()) and READ responses
 *    (rvt_read_fetch()) through an rkey;
 *  - the transmit hook: with xmit_wqe set the engine hands requests to
 *    the driver instead of delivering them in memory, completions come
 *    in order through rvt_send_complete(), -EBUSY holds the queue until
 *    rvt_kick_sq();
 *  - the hold: requests handed over stay the driver's, in place, until
 *    it gives them back.  In the error state the engine flushes only
 *    what it did not hand over, after the driver's own completions and
 *    flushes; RESET and destroy call xmit_stop with the references
 *    still held, then drop them, with no completion and no wait for
 *    the driver.
 *
 * Payloads are random and checked byte for byte.
 */

#include <kunit/test.h>
#include <kunit/rdma_loop.h>
#include <linux/delay.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_vt.h>

/* an iWARP MULPDU on a 1500 byte MTU */
#define MULPDU		1448
#define LEN1		3000
#define LEN2		2500
#define MSG		5000
#define WAIT_MS		5000

static struct rvt_qp *rvt(struct ib_qp *qp)
{
	return container_of(qp, struct rvt_qp, ibqp);
}

static struct ib_qp *new_qp(struct kunit *test, struct kt_vt *vt,
			    struct ib_pd *pd, struct ib_cq *cq,
			    struct ib_srq *srq, void *ctx)
{
	struct ib_qp_init_attr attr = {
		.qp_context = ctx,
		.send_cq = cq,
		.recv_cq = cq,
		.srq = srq,
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = {
			.max_send_wr = 8,
			.max_recv_wr = srq ? 0 : 8,
			.max_send_sge = 1,
			.max_recv_sge = srq ? 0 : 2,
		},
	};
	struct ib_qp *qp = ib_create_qp(pd, &attr);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_destroy_qp, qp),
			0);
	return qp;
}

/* @qp towards @peer, with @access granted to the peer, up to @stop. */
static void connect(struct kunit *test, struct ib_qp *qp, struct ib_qp *peer,
		    int access, enum ib_qp_state stop)
{
	struct rdma_loop_conn conn = {
		.dqpn = peer->qp_num,
		.dlid = rdma_loop_port_lid(qp->device),
		.access = access,
		.rnr_retry = 7,
	};

	KUNIT_ASSERT_EQ(test, rdma_loop_connect_qp(qp, &conn, stop), 0);
}

static u8 *new_buf(struct kunit *test, size_t len)
{
	u8 *buf = kunit_kzalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	return buf;
}

static u8 *random_buf(struct kunit *test, size_t len)
{
	u8 *buf = new_buf(test, len);

	get_random_bytes(buf, len);
	return buf;
}

/* The next completion of @cq within @ms, or false. */
static bool poll_wc(struct ib_cq *cq, struct ib_wc *wc, unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);

	do {
		if (ib_poll_cq(cq, 1, wc) == 1)
			return true;
		usleep_range(200, 500);
	} while (time_before(jiffies, end));
	return false;
}

static int post_recv(struct ib_qp *qp, struct ib_srq *srq, u64 id,
		     struct ib_sge *sge, int n)
{
	struct ib_recv_wr wr = { .wr_id = id, .sg_list = sge, .num_sge = n };

	return srq ? ib_post_srq_recv(srq, &wr, NULL) :
		     ib_post_recv(qp, &wr, NULL);
}

/* The wire helpers run under the responder's r_lock, as a driver's do. */
static int begin(struct rvt_qp *r)
{
	int ret;

	spin_lock_bh(&r->r_lock);
	ret = rvt_recv_begin(r, false);
	spin_unlock_bh(&r->r_lock);
	return ret;
}

static enum ib_wc_status place(struct rvt_qp *r, u32 off, const u8 *data,
			       u32 len)
{
	enum ib_wc_status s;

	spin_lock_bh(&r->r_lock);
	s = rvt_recv_place(r, off, data + off, len);
	spin_unlock_bh(&r->r_lock);
	return s;
}

static enum ib_wc_status complete_recv(struct rvt_qp *r, struct ib_wc *wc)
{
	enum ib_wc_status s;

	spin_lock_bh(&r->r_lock);
	s = rvt_recv_complete(r, wc, false);
	spin_unlock_bh(&r->r_lock);
	return s;
}

static unsigned int dma_refs(struct ib_pd *pd)
{
	return refcount_read(&container_of(pd->__internal_mr, struct rvt_mr,
					   ibmr)->mr.refcount);
}

/*
 * A message of MSG bytes placed in MULPDU pieces into a receive WQE of
 * two SGEs (LEN1 + LEN2 bytes, not adjacent): the third piece first, a
 * piece twice, then the rest in order.  The completion carries the
 * transport's byte count, immediate data and source QP, rdmavt's wr_id;
 * the MR references go when it completes.
 */
static void rvt_wire_recv_pieces(struct kunit *test)
{
	struct kt_vt *vt = kt_new_vt_named(test, "kurwire%d");
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_qp *qp = new_qp(test, vt, vt->pd, cq, NULL, NULL);
	struct rvt_qp *r = rvt(qp);
	u8 *b1 = new_buf(test, LEN1), *b2 = new_buf(test, LEN2 + 64);
	u8 *msg = random_buf(test, MSG);
	struct ib_sge sge[2];
	struct ib_wc wc = {
		.opcode = IB_WC_RECV,
		.byte_len = MSG,
		.wc_flags = IB_WC_WITH_IMM,
		.ex.imm_data = cpu_to_be32(0xfeed),
		.src_qp = 77,
	};
	u32 off;

	/* b2 + 64: never right behind b1, so two SGEs stay two */
	sge[0] = kt_sge_of(vt->pd, b1, LEN1);
	sge[1] = kt_sge_of(vt->pd, b2 + 64, LEN2);
	connect(test, qp, qp, 0, IB_QPS_RTR);
	KUNIT_ASSERT_EQ(test, post_recv(qp, NULL, 41, sge, 2), 0);

	KUNIT_ASSERT_EQ(test, begin(r), 1);
	KUNIT_EXPECT_EQ(test, r->r_len, LEN1 + LEN2);
	KUNIT_EXPECT_EQ(test, dma_refs(vt->pd), 3);
	KUNIT_EXPECT_EQ(test, place(r, 2 * MULPDU, msg, MULPDU), IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, place(r, 0, msg, MULPDU), IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, place(r, 0, msg, MULPDU), IB_WC_SUCCESS);
	for (off = MULPDU; off < MSG; off += MULPDU) {
		if (off == 2 * MULPDU)
			continue;
		KUNIT_EXPECT_EQ(test, place(r, off, msg,
					    min_t(u32, MULPDU, MSG - off)),
				IB_WC_SUCCESS);
	}
	KUNIT_EXPECT_EQ(test, complete_recv(r, &wc), IB_WC_SUCCESS);

	memset(&wc, 0, sizeof(wc));
	KUNIT_ASSERT_TRUE(test, poll_wc(cq, &wc, WAIT_MS));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 41);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, wc.byte_len, MSG);
	KUNIT_EXPECT_TRUE(test, wc.wc_flags & IB_WC_WITH_IMM);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(wc.ex.imm_data), 0xfeed);
	KUNIT_EXPECT_EQ(test, wc.src_qp, 77);
	KUNIT_EXPECT_PTR_EQ(test, wc.qp, qp);
	KUNIT_EXPECT_EQ(test, memcmp(b1, msg, LEN1), 0);
	KUNIT_EXPECT_EQ(test, memcmp(b2 + 64, msg + LEN1, MSG - LEN1), 0);
	/* the bytes past the message stay untouched */
	KUNIT_EXPECT_NULL(test, memchr_inv(b2 + 64 + MSG - LEN1, 0,
					   LEN1 + LEN2 - MSG));
	KUNIT_EXPECT_EQ(test, dma_refs(vt->pd), 1);
	KUNIT_EXPECT_FALSE(test, test_bit(RVT_R_WRID_VALID, &r->r_aflags));
}

/*
 * Refusals of untagged placement: no WQE posted (0), placement with no
 * WQE taken (IB_WC_LOC_QP_OP_ERR), a piece past the WQE's end or an
 * offset beyond it (IB_WC_LOC_LEN_ERR, nothing written); the receive
 * then completes with the driver's status.  A SEND with invalidate of a
 * key that names nothing completes with IB_WC_REM_INV_REQ_ERR and no
 * IB_WC_WITH_INVALIDATE.
 */
static void rvt_wire_recv_refused(struct kunit *test)
{
	struct kt_vt *vt = kt_new_vt_named(test, "kurwire%d");
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_qp *qp = new_qp(test, vt, vt->pd, cq, NULL, NULL);
	struct rvt_qp *r = rvt(qp);
	u8 *buf = new_buf(test, 100), *msg = random_buf(test, 200);
	struct ib_sge sge = kt_sge_of(vt->pd, buf, 100);
	struct ib_wc wc = { .opcode = IB_WC_RECV };

	connect(test, qp, qp, 0, IB_QPS_RTR);
	KUNIT_EXPECT_EQ(test, begin(r), 0);
	KUNIT_EXPECT_EQ(test, place(r, 0, msg, 10), IB_WC_LOC_QP_OP_ERR);

	KUNIT_ASSERT_EQ(test, post_recv(qp, NULL, 51, &sge, 1), 0);
	KUNIT_ASSERT_EQ(test, begin(r), 1);
	KUNIT_EXPECT_EQ(test, place(r, 90, msg, 20), IB_WC_LOC_LEN_ERR);
	KUNIT_EXPECT_EQ(test, place(r, 101, msg, 0), IB_WC_LOC_LEN_ERR);
	KUNIT_EXPECT_EQ(test, place(r, 100, msg, 0), IB_WC_SUCCESS);
	KUNIT_EXPECT_NULL(test, memchr_inv(buf, 0, 100));
	wc.status = IB_WC_LOC_LEN_ERR;
	KUNIT_EXPECT_EQ(test, complete_recv(r, &wc), IB_WC_LOC_LEN_ERR);
	KUNIT_ASSERT_TRUE(test, poll_wc(cq, &wc, WAIT_MS));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 51);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_LOC_LEN_ERR);

	KUNIT_ASSERT_EQ(test, post_recv(qp, NULL, 52, &sge, 1), 0);
	KUNIT_ASSERT_EQ(test, begin(r), 1);
	memset(&wc, 0, sizeof(wc));
	wc.opcode = IB_WC_RECV;
	wc.wc_flags = IB_WC_WITH_INVALIDATE;
	wc.ex.invalidate_rkey = vt->pd->local_dma_lkey + 0x100;
	KUNIT_EXPECT_EQ(test, complete_recv(r, &wc), IB_WC_REM_INV_REQ_ERR);
	KUNIT_ASSERT_TRUE(test, poll_wc(cq, &wc, WAIT_MS));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 52);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_REM_INV_REQ_ERR);
	KUNIT_EXPECT_FALSE(test, wc.wc_flags & IB_WC_WITH_INVALIDATE);
	KUNIT_EXPECT_EQ(test, dma_refs(vt->pd), 1);
}

/*
 * From an SRQ: WQEs are taken in order, their keys checked in the SRQ's
 * PD; a receive half placed when the QP goes to the error state
 * completes as flushed and gives its references back.
 */
static void rvt_wire_recv_srq(struct kunit *test)
{
	struct kt_vt *vt = kt_new_vt_named(test, "kurwire%d");
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_srq_init_attr sa = {
		.attr = { .max_wr = 8, .max_sge = 1 },
	};
	struct ib_srq *srq = ib_create_srq(vt->pd, &sa);
	u8 *buf = new_buf(test, 2 * MULPDU), *msg = random_buf(test, MULPDU);
	struct ib_sge sge[2];
	struct ib_wc wc = { .opcode = IB_WC_RECV, .byte_len = MULPDU };
	struct ib_qp *qp;
	struct rvt_qp *r;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, srq);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_destroy_srq, srq),
			0);
	qp = new_qp(test, vt, vt->pd, cq, srq, NULL);
	r = rvt(qp);
	connect(test, qp, qp, 0, IB_QPS_RTR);
	sge[0] = kt_sge_of(vt->pd, buf, MULPDU);
	sge[1] = kt_sge_of(vt->pd, buf + MULPDU, MULPDU);
	KUNIT_ASSERT_EQ(test, post_recv(qp, srq, 61, &sge[0], 1), 0);
	KUNIT_ASSERT_EQ(test, post_recv(qp, srq, 62, &sge[1], 1), 0);

	KUNIT_ASSERT_EQ(test, begin(r), 1);
	KUNIT_EXPECT_EQ(test, r->r_wr_id, 61);
	KUNIT_EXPECT_EQ(test, place(r, 0, msg, MULPDU), IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, complete_recv(r, &wc), IB_WC_SUCCESS);
	KUNIT_ASSERT_TRUE(test, poll_wc(cq, &wc, WAIT_MS));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 61);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, memcmp(buf, msg, MULPDU), 0);

	/* the second one half placed, then a transport error */
	KUNIT_ASSERT_EQ(test, begin(r), 1);
	KUNIT_EXPECT_EQ(test, r->r_wr_id, 62);
	KUNIT_EXPECT_EQ(test, place(r, 0, msg, 100), IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, rvt_error_qp(r, IB_WC_GENERAL_ERR), 1);
	KUNIT_ASSERT_TRUE(test, poll_wc(cq, &wc, WAIT_MS));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 62);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, dma_refs(vt->pd), 1);
}

static void free_page_action(void *p)
{
	free_page((unsigned long)p);
}

/*
 * Tagged placement and READ responses through a fast registration MR
 * of one page: inside the range they copy; a range past the MR's end, a
 * key of no MR, and an access the QP does not grant are refused with
 * IB_WC_REM_ACCESS_ERR and copy nothing.  The MR's references go back.
 */
static void rvt_wire_tagged(struct kunit *test)
{
	struct kt_vt *vt = kt_new_vt_named(test, "kurwire%d");
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_qp *qp = new_qp(test, vt, vt->pd, cq, NULL, NULL);
	struct ib_qp *ro = new_qp(test, vt, vt->pd, cq, NULL, NULL);
	u8 *msg = random_buf(test, 512), *out = new_buf(test, 512);
	u8 *page = (void *)get_zeroed_page(GFP_KERNEL);
	struct rvt_mregion *rmr;
	struct scatterlist sg;
	struct ib_mr *mr;
	u64 iova;
	u32 key;

	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, free_page_action,
							page), 0);
	sg_init_one(&sg, page, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(vt->dev, &sg, 1, DMA_BIDIRECTIONAL),
			1);
	mr = ib_alloc_mr(vt->pd, IB_MR_TYPE_MEM_REG, 1);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_dereg_mr, mr), 0);
	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(mr, &sg, 1, NULL, PAGE_SIZE), 1);
	key = mr->rkey;
	KUNIT_ASSERT_EQ(test, rvt_fast_reg_mr(rvt(qp), mr, key,
					      IB_ACCESS_LOCAL_WRITE |
					      IB_ACCESS_REMOTE_WRITE |
					      IB_ACCESS_REMOTE_READ), 0);
	rmr = &container_of(mr, struct rvt_mr, ibmr)->mr;
	iova = mr->iova;
	connect(test, qp, qp, IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ,
		IB_QPS_RTR);
	connect(test, ro, ro, IB_ACCESS_REMOTE_READ, IB_QPS_RTR);

	KUNIT_EXPECT_EQ(test, rvt_write_place(rvt(qp), key, iova + 100, msg,
					      300), IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, memcmp(page + 100, msg, 300), 0);
	KUNIT_EXPECT_EQ(test, rvt_read_fetch(rvt(qp), key, iova + 100, out,
					     300), IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, memcmp(out, msg, 300), 0);

	memset(out, 0, 512);
	KUNIT_EXPECT_EQ(test, rvt_write_place(rvt(qp), key,
					      iova + PAGE_SIZE - 10, msg, 20),
			IB_WC_REM_ACCESS_ERR);
	KUNIT_EXPECT_NULL(test, memchr_inv(page + PAGE_SIZE - 10, 0, 10));
	KUNIT_EXPECT_EQ(test, rvt_read_fetch(rvt(qp), key,
					     iova + PAGE_SIZE - 10, out, 20),
			IB_WC_REM_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, rvt_write_place(rvt(qp), key + 0x100, iova, msg,
					      8), IB_WC_REM_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, rvt_read_fetch(rvt(qp), 0, iova, out, 8),
			IB_WC_REM_ACCESS_ERR);
	/* the QP that grants READ only */
	KUNIT_EXPECT_EQ(test, rvt_write_place(rvt(ro), key, iova, msg, 8),
			IB_WC_REM_ACCESS_ERR);
	KUNIT_EXPECT_NULL(test, memchr_inv(page, 0, 100));
	KUNIT_EXPECT_EQ(test, rvt_read_fetch(rvt(ro), key, iova + 100, out, 8),
			IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, memcmp(out, msg, 8), 0);
	KUNIT_EXPECT_NULL(test, memchr_inv(out + 8, 0, 512 - 8));
	KUNIT_EXPECT_EQ(test, refcount_read(&rmr->refcount), 1);
}

/* What the fake wire driver of a case saw (the QP's qp_context). */
struct fake_wire {
	struct rvt_swqe	*wqe[8];
	int		calls;
	int		taken;
	bool		busy;
	int		stops;
	int		flushes;
	u32		held_at_stop;
	unsigned int	refs_at_stop;
	struct ib_pd	*pd;
};

static int fake_xmit(struct rvt_qp *qp, struct rvt_swqe *wqe)
{
	struct fake_wire *w = qp->ibqp.qp_context;

	w->calls++;
	if (w->busy)
		return -EBUSY;
	if (w->taken < ARRAY_SIZE(w->wqe))
		w->wqe[w->taken] = wqe;
	w->taken++;
	return 0;
}

/*
 * Wait until @count (a fake_wire's calls or taken) reaches @n.  A post
 * runs the engine in the poster's context only when no other context
 * runs it at that moment (the work item may, on a busy machine), so the
 * driver may see a request after the post returned.
 */
static bool wire_count_reaches(const int *count, int n)
{
	unsigned long end = jiffies + msecs_to_jiffies(WAIT_MS);

	while (READ_ONCE(*count) < n) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(200, 500);
	}
	return true;
}

static unsigned int dma_refs(struct ib_pd *pd);

/*
 * xmit_stop: what the driver holds (tail up to cur) and that its MR
 * references are still there when the driver is told to let go.
 */
static void fake_xmit_stop(struct rvt_qp *qp)
{
	struct fake_wire *w = qp->ibqp.qp_context;
	unsigned long flags;

	/* a case's peer QP has no fake_wire: it never sends */
	if (!w)
		return;
	spin_lock_irqsave(&qp->s_lock, flags);
	w->held_at_stop = (qp->sq_cur + qp->sq_size - qp->sq_tail) %
			  qp->sq_size;
	spin_unlock_irqrestore(&qp->s_lock, flags);
	if (w->pd)
		w->refs_at_stop = dma_refs(w->pd);
	w->stops++;
}

/* xmit_flush: the engine waits for the driver in the error state */
static void fake_xmit_flush(struct rvt_qp *qp)
{
	struct fake_wire *w = qp->ibqp.qp_context;

	if (w)
		WRITE_ONCE(w->flushes, w->flushes + 1);
}

static void no_xmit(void *p)
{
	((struct rvt_dev_info *)p)->driver_f.xmit_wqe = NULL;
	((struct rvt_dev_info *)p)->driver_f.xmit_stop = NULL;
	((struct rvt_dev_info *)p)->driver_f.xmit_flush = NULL;
}

/* A loop device whose requests go to fake_xmit(). */
static struct kt_vt *new_wire_vt(struct kunit *test)
{
	struct kt_vt *vt = kt_new_vt_named(test, "kurwire%d");
	struct rvt_dev_info *rdi = ib_to_rvt(vt->dev);

	rdi->driver_f.xmit_stop = fake_xmit_stop;
	rdi->driver_f.xmit_flush = fake_xmit_flush;
	rdi->driver_f.xmit_wqe = fake_xmit;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, no_xmit, rdi),
			0);
	return vt;
}

static int post_send(struct ib_qp *qp, u64 id, struct ib_sge *sge)
{
	struct ib_send_wr wr = {
		.wr_id = id,
		.sg_list = sge,
		.num_sge = 1,
		.opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED,
	};

	return ib_post_send(qp, &wr, NULL);
}

/*
 * With xmit_wqe, a SEND goes to the driver, not to the peer's receive
 * queue; its SGEs come checked.  -EBUSY keeps a request first in line
 * until rvt_kick_sq().  rvt_send_complete() completes in order: the
 * second request before the first is refused; an error status fails the
 * request and the QP.
 */
static void rvt_wire_xmit(struct kunit *test)
{
	struct kt_vt *vt = new_wire_vt(test);
	struct fake_wire *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_cq *rcq = kt_new_direct_cq(test, vt);
	struct ib_qp *a, *b;
	u8 *buf = random_buf(test, 64), *rbuf = new_buf(test, 64);
	struct ib_sge sge, rsge;
	struct ib_wc wc;

	KUNIT_ASSERT_NOT_NULL(test, w);
	a = new_qp(test, vt, vt->pd, cq, NULL, w);
	b = new_qp(test, vt, vt->pd, rcq, NULL, NULL);
	connect(test, a, b, 0, IB_QPS_RTS);
	connect(test, b, a, 0, IB_QPS_RTS);
	sge = kt_sge_of(vt->pd, buf, 64);
	rsge = kt_sge_of(vt->pd, rbuf, 64);
	KUNIT_ASSERT_EQ(test, post_recv(b, NULL, 70, &rsge, 1), 0);

	KUNIT_ASSERT_EQ(test, post_send(a, 71, &sge), 0);
	KUNIT_ASSERT_EQ(test, post_send(a, 72, &sge), 0);
	KUNIT_ASSERT_TRUE(test, wire_count_reaches(&w->taken, 2));
	w->busy = true;
	KUNIT_ASSERT_EQ(test, post_send(a, 73, &sge), 0);
	KUNIT_ASSERT_TRUE(test, wire_count_reaches(&w->calls, 3));
	/*
	 * A run of the engine queued by an earlier post may offer the busy
	 * request once more: let it end, then the request is still not taken.
	 */
	flush_delayed_work(&rvt(a)->send_work);
	KUNIT_EXPECT_GE(test, READ_ONCE(w->calls), 3);
	KUNIT_ASSERT_EQ(test, READ_ONCE(w->taken), 2);
	KUNIT_EXPECT_EQ(test, w->wqe[0]->wr.wr_id, 71);
	KUNIT_EXPECT_EQ(test, w->wqe[0]->wr.num_sge, 1);
	KUNIT_EXPECT_PTR_EQ(test, w->wqe[0]->sg_list[0].vaddr, (void *)buf);
	KUNIT_EXPECT_EQ(test, w->wqe[1]->wr.wr_id, 72);
	/* nothing delivered in memory, nothing completed */
	KUNIT_EXPECT_FALSE(test, poll_wc(rcq, &wc, 50));
	KUNIT_EXPECT_NULL(test, memchr_inv(rbuf, 0, 64));
	KUNIT_EXPECT_FALSE(test, poll_wc(cq, &wc, 50));

	rvt_send_complete(rvt(a), w->wqe[1], IB_WC_SUCCESS);
	KUNIT_EXPECT_FALSE(test, poll_wc(cq, &wc, 50));
	rvt_send_complete(rvt(a), w->wqe[0], IB_WC_SUCCESS);
	rvt_send_complete(rvt(a), w->wqe[1], IB_WC_SUCCESS);
	KUNIT_ASSERT_TRUE(test, poll_wc(cq, &wc, WAIT_MS));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 71);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_SEND);
	KUNIT_ASSERT_TRUE(test, poll_wc(cq, &wc, WAIT_MS));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 72);

	w->busy = false;
	rvt_kick_sq(rvt(a));
	KUNIT_ASSERT_TRUE(test, wire_count_reaches(&w->taken, 3));
	KUNIT_ASSERT_EQ(test, w->taken, 3);
	KUNIT_EXPECT_EQ(test, w->wqe[2]->wr.wr_id, 73);
	rvt_send_complete(rvt(a), w->wqe[2], IB_WC_REM_ACCESS_ERR);
	KUNIT_ASSERT_TRUE(test, poll_wc(cq, &wc, WAIT_MS));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 73);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_REM_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, READ_ONCE(rvt(a)->state), IB_QPS_ERR);
	KUNIT_EXPECT_FALSE(test, poll_wc(rcq, &wc, 50));
}

/*
 * The error state with requests in flight on the wire: the engine tells
 * the driver (xmit_flush) and waits for it to give back the two it holds
 * (nothing completes before), the driver completes the first (its peer finished it) and
 * flushes the second, then the engine flushes the LOCAL_INV it kept:
 * completions in order, each with its status, every reference back.
 * The driver's late call for a request it gave back does nothing.
 */
static void rvt_wire_flush(struct kunit *test)
{
	struct kt_vt *vt = new_wire_vt(test);
	struct fake_wire *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_send_wr inv = {
		.wr_id = 83,
		.opcode = IB_WR_LOCAL_INV,
		.send_flags = IB_SEND_SIGNALED,
		.ex.invalidate_rkey = vt->pd->local_dma_lkey + 0x100,
	};
	u8 *buf = random_buf(test, 64);
	struct ib_qp *a;
	struct ib_sge sge;
	struct ib_wc wc;

	KUNIT_ASSERT_NOT_NULL(test, w);
	a = new_qp(test, vt, vt->pd, cq, NULL, w);
	connect(test, a, a, 0, IB_QPS_RTS);
	sge = kt_sge_of(vt->pd, buf, 64);
	KUNIT_ASSERT_EQ(test, post_send(a, 81, &sge), 0);
	KUNIT_ASSERT_EQ(test, post_send(a, 82, &sge), 0);
	KUNIT_ASSERT_EQ(test, ib_post_send(a, &inv, NULL), 0);
	KUNIT_ASSERT_TRUE(test, wire_count_reaches(&w->taken, 2));
	KUNIT_EXPECT_EQ(test, w->taken, 2);
	/* the LOCAL_INV is not the driver's, and waits */
	KUNIT_EXPECT_EQ(test, w->calls, 2);
	KUNIT_EXPECT_FALSE(test, poll_wc(cq, &wc, 50));

	KUNIT_EXPECT_EQ(test, rvt_error_qp(rvt(a), IB_WC_GENERAL_ERR), 1);
	/* the engine tells the driver, and flushes nothing yet */
	KUNIT_EXPECT_TRUE(test, wire_count_reaches(&w->flushes, 1));
	KUNIT_EXPECT_FALSE(test, poll_wc(cq, &wc, 100));
	/* both references of the held requests are still there */
	KUNIT_EXPECT_EQ(test, dma_refs(vt->pd), 3);
	/* in order: the second cannot go back before the first */
	rvt_send_complete(rvt(a), w->wqe[1], IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_FALSE(test, poll_wc(cq, &wc, 50));

	rvt_send_complete(rvt(a), w->wqe[0], IB_WC_SUCCESS);
	KUNIT_ASSERT_TRUE(test, poll_wc(cq, &wc, WAIT_MS));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 81);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_FALSE(test, poll_wc(cq, &wc, 50));
	rvt_send_complete(rvt(a), w->wqe[1], IB_WC_WR_FLUSH_ERR);
	KUNIT_ASSERT_TRUE(test, poll_wc(cq, &wc, WAIT_MS));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 82);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);
	/* now the engine's own */
	KUNIT_ASSERT_TRUE(test, poll_wc(cq, &wc, WAIT_MS));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 83);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);

	rvt_send_complete(rvt(a), w->wqe[0], IB_WC_SUCCESS);
	KUNIT_EXPECT_FALSE(test, poll_wc(cq, &wc, 50));
	/* a post in the error state flushes at once, never to the driver */
	KUNIT_ASSERT_EQ(test, post_send(a, 84, &sge), 0);
	KUNIT_ASSERT_TRUE(test, poll_wc(cq, &wc, WAIT_MS));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 84);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, w->calls, 2);
	KUNIT_EXPECT_EQ(test, dma_refs(vt->pd), 1);
	KUNIT_EXPECT_EQ(test, w->stops, 0);
}

/*
 * RESET with requests in flight: xmit_stop runs once, while the driver
 * still holds both with their references; then the references go and
 * nothing completes (RESET has no completions).  The driver's call
 * after its stop does nothing, and the QP works again from RESET.
 */
static void rvt_wire_reset_in_flight(struct kunit *test)
{
	struct kt_vt *vt = new_wire_vt(test);
	struct fake_wire *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_RESET };
	u8 *buf = random_buf(test, 64);
	struct rvt_swqe *late;
	struct ib_qp *a;
	struct ib_sge sge;
	struct ib_wc wc;

	KUNIT_ASSERT_NOT_NULL(test, w);
	w->pd = vt->pd;
	a = new_qp(test, vt, vt->pd, cq, NULL, w);
	connect(test, a, a, 0, IB_QPS_RTS);
	sge = kt_sge_of(vt->pd, buf, 64);
	KUNIT_ASSERT_EQ(test, post_send(a, 91, &sge), 0);
	KUNIT_ASSERT_EQ(test, post_send(a, 92, &sge), 0);
	KUNIT_ASSERT_TRUE(test, wire_count_reaches(&w->taken, 2));
	KUNIT_EXPECT_EQ(test, dma_refs(vt->pd), 3);

	KUNIT_ASSERT_EQ(test, ib_modify_qp(a, &attr, IB_QP_STATE), 0);
	KUNIT_EXPECT_EQ(test, w->stops, 1);
	KUNIT_EXPECT_EQ(test, w->held_at_stop, 2);
	KUNIT_EXPECT_EQ(test, w->refs_at_stop, 3);
	KUNIT_EXPECT_EQ(test, dma_refs(vt->pd), 1);
	KUNIT_EXPECT_FALSE(test, poll_wc(cq, &wc, 50));
	late = w->wqe[0];
	rvt_send_complete(rvt(a), late, IB_WC_SUCCESS);
	KUNIT_EXPECT_FALSE(test, poll_wc(cq, &wc, 50));
	KUNIT_EXPECT_EQ(test, dma_refs(vt->pd), 1);

	/* back to RTS: the ring starts over, the driver gets the next one */
	w->taken = 0;
	connect(test, a, a, 0, IB_QPS_RTS);
	KUNIT_ASSERT_EQ(test, post_send(a, 93, &sge), 0);
	KUNIT_ASSERT_TRUE(test, wire_count_reaches(&w->taken, 1));
	KUNIT_EXPECT_EQ(test, w->wqe[0]->wr.wr_id, 93);
	rvt_send_complete(rvt(a), w->wqe[0], IB_WC_SUCCESS);
	KUNIT_ASSERT_TRUE(test, poll_wc(cq, &wc, WAIT_MS));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 93);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, dma_refs(vt->pd), 1);
}

/*
 * Destroy with requests in flight (one held by the driver, one it
 * refused with -EBUSY, one behind): it does not wait for the driver,
 * calls xmit_stop once with the references held, and leaves none.
 */
static void rvt_wire_destroy_in_flight(struct kunit *test)
{
	struct kt_vt *vt = new_wire_vt(test);
	struct fake_wire *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_qp_init_attr init = {
		.qp_context = w,
		.send_cq = cq,
		.recv_cq = cq,
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = {
			.max_send_wr = 8,
			.max_recv_wr = 8,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
	};
	u8 *buf = random_buf(test, 64);
	struct ib_qp *a;
	struct ib_sge sge;
	struct ib_wc wc;

	KUNIT_ASSERT_NOT_NULL(test, w);
	w->pd = vt->pd;
	a = ib_create_qp(vt->pd, &init);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	connect(test, a, a, 0, IB_QPS_RTS);
	sge = kt_sge_of(vt->pd, buf, 64);
	KUNIT_ASSERT_EQ(test, post_send(a, 95, &sge), 0);
	KUNIT_ASSERT_TRUE(test, wire_count_reaches(&w->taken, 1));
	w->busy = true;
	KUNIT_ASSERT_EQ(test, post_send(a, 96, &sge), 0);
	KUNIT_ASSERT_EQ(test, post_send(a, 97, &sge), 0);
	KUNIT_ASSERT_TRUE(test, wire_count_reaches(&w->calls, 2));
	/* 95 held, 96 checked (referenced) but refused, 97 not checked */
	KUNIT_EXPECT_EQ(test, dma_refs(vt->pd), 3);

	KUNIT_EXPECT_EQ(test, ib_destroy_qp(a), 0);
	KUNIT_EXPECT_EQ(test, w->stops, 1);
	KUNIT_EXPECT_EQ(test, w->held_at_stop, 1);
	KUNIT_EXPECT_EQ(test, w->refs_at_stop, 3);
	KUNIT_EXPECT_EQ(test, dma_refs(vt->pd), 1);
	KUNIT_EXPECT_FALSE(test, poll_wc(cq, &wc, 50));
}

static struct kunit_case rdma_rvt_wire_cases[] = {
	KUNIT_CASE(rvt_wire_recv_pieces),
	KUNIT_CASE(rvt_wire_recv_refused),
	KUNIT_CASE(rvt_wire_recv_srq),
	KUNIT_CASE(rvt_wire_tagged),
	KUNIT_CASE(rvt_wire_xmit),
	KUNIT_CASE(rvt_wire_flush),
	KUNIT_CASE(rvt_wire_reset_in_flight),
	KUNIT_CASE(rvt_wire_destroy_in_flight),
	{}
};

static struct kunit_suite rdma_rvt_wire_suite = {
	.name = "rdma_rvt_wire",
	.test_cases = rdma_rvt_wire_cases,
};

kunit_test_suite(rdma_rvt_wire_suite);

MODULE_DESCRIPTION("KUnit tests of the rdmavt wire-driver boundary");
MODULE_LICENSE("Dual BSD/GPL");
