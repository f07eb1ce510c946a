// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_rvt_odp": on-demand paging MRs of rdmavt
 * (hw/sw/rdmavt/odp.c) on a loop device, whose engine delivers in
 * memory: a request that meets a page not mapped is faulted in by the
 * QP's send work and runs again; an invalidation of the process's page
 * tables unmaps the pages the MR had.
 *
 * The memory is real user memory: kunit_vm_mmap() gives the case's
 * kthread an mm, and the MRs are registered through the device's
 * reg_user_mr as ib_uverbs would (the process's memory is the
 * kthread's).  The case writes and reads that memory with
 * copy_to_user() and copy_from_user(), as the process would.
 */

#include <kunit/test.h>
#include <kunit/rdma_loop.h>
#include <kunit/rdma_umem.h>
#include <linux/delay.h>
#include <linux/mman.h>
#include <linux/mm.h>
#include <linux/uaccess.h>
#include <rdma/ib_umem_odp.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_vt.h>

#define WAIT_MS		10000
#define REMOTE_ACC	(IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ | \
			 IB_ACCESS_REMOTE_ATOMIC)

/*
 * A case's device and a connected pair of RC QPs a -> b; the send
 * completions go to @scq, the receive completions to @rcq.
 */
struct odp_bed {
	struct kt_vt	*vt;
	struct ib_cq	*scq;
	struct ib_cq	*rcq;
	struct ib_qp	*a;
	struct ib_qp	*b;
};

static struct ib_qp *odp_qp(struct kunit *test, struct odp_bed *t)
{
	struct ib_qp_init_attr attr = {
		.send_cq = t->scq,
		.recv_cq = t->rcq,
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = {
			.max_send_wr = 16,
			.max_recv_wr = 16,
			.max_send_sge = 2,
			.max_recv_sge = 2,
		},
	};

	return kt_new_test_qp(test, t->vt, &attr);
}

static void odp_connect(struct kunit *test, struct ib_qp *qp,
			struct ib_qp *peer)
{
	struct rdma_loop_conn conn = {
		.dqpn = peer->qp_num,
		.dlid = rdma_loop_port_lid(qp->device),
		.access = REMOTE_ACC,
		.rd_atomic = 4,
		.rnr_retry = 7,
	};

	KUNIT_ASSERT_EQ(test, rdma_loop_connect_qp(qp, &conn, IB_QPS_RTS), 0);
}

static struct odp_bed *odp_bed(struct kunit *test)
{
	struct odp_bed *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->vt = kt_new_vt_named(test, "kuodp%d");
	t->scq = kt_new_direct_cq(test, t->vt);
	t->rcq = kt_new_direct_cq(test, t->vt);
	t->a = odp_qp(test, t);
	t->b = odp_qp(test, t);
	odp_connect(test, t->a, t->b);
	odp_connect(test, t->b, t->a);
	return t;
}

/* An MR over user memory as ib_uverbs registers it (no driver udata). */
static struct ib_mr *odp_reg(struct kunit *test, struct odp_bed *t,
			     unsigned long addr, size_t len, int access)
{
	return kt_user_mr(test, t->vt->pd, addr, len,
			  access | IB_ACCESS_ON_DEMAND);
}

static struct ib_umem_odp *odp_of(struct ib_mr *mr)
{
	return container_of(mr, struct rvt_mr, ibmr)->mr.odp;
}

/* Is the page of @uva mapped for the device in @mr? */
static bool odp_mapped(struct ib_mr *mr, unsigned long uva)
{
	struct rvt_mregion *r = &container_of(mr, struct rvt_mr, ibmr)->mr;
	struct ib_umem_odp *odp = r->odp;

	if (odp->is_implicit_odp) {
		odp = xa_load(&r->odp_children, uva >> RVT_ODP_CHILD_SHIFT);
		if (!odp)
			return false;
	}

	return READ_ONCE(odp->dma_list[(uva - ib_umem_start(odp)) >>
				       odp->page_shift]) != 0;
}

static void put_user_bytes(struct kunit *test, unsigned long uva,
			   const void *p, size_t len)
{
	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)uva, p, len), 0);
}

static void get_user_bytes(struct kunit *test, unsigned long uva, void *p,
			   size_t len)
{
	KUNIT_ASSERT_EQ(test, copy_from_user(p, (void __user *)uva, len), 0);
}

/* The next completion of @cq: @id's, with @status. */
static void expect_wc(struct kunit *test, struct ib_cq *cq, u64 id,
		      enum ib_wc_status status)
{
	unsigned long end = jiffies + msecs_to_jiffies(WAIT_MS);
	struct ib_wc wc;

	do {
		if (ib_poll_cq(cq, 1, &wc) == 1) {
			KUNIT_EXPECT_EQ(test, wc.wr_id, id);
			KUNIT_EXPECT_EQ_MSG(test, wc.status, status,
					    "wr_id %llu", id);
			return;
		}
		usleep_range(200, 500);
	} while (time_before(jiffies, end));
	KUNIT_FAIL(test, "no completion of wr_id %llu", id);
}

static void post_recv(struct kunit *test, struct ib_qp *qp, u64 id,
		      struct ib_mr *mr, unsigned long uva, u32 len)
{
	struct ib_sge sge = { .addr = uva, .length = len, .lkey = mr->lkey };
	struct ib_recv_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = 1 };

	KUNIT_ASSERT_EQ(test, ib_post_recv(qp, &wr, NULL), 0);
}

static void post_send(struct kunit *test, struct ib_qp *qp, u64 id,
		      struct ib_mr *mr, unsigned long uva, u32 len)
{
	struct ib_sge sge = { .addr = uva, .length = len, .lkey = mr->lkey };
	struct ib_send_wr wr = {
		.wr_id = id, .sg_list = &sge, .num_sge = 1,
		.opcode = IB_WR_SEND, .send_flags = IB_SEND_SIGNALED,
	};

	KUNIT_ASSERT_EQ(test, ib_post_send(qp, &wr, NULL), 0);
}

static void post_rdma(struct kunit *test, struct ib_qp *qp, u64 id,
		      enum ib_wr_opcode op, struct ib_mr *mr,
		      unsigned long uva, u32 len, struct ib_mr *rmr,
		      unsigned long ruva)
{
	struct ib_sge sge = { .addr = uva, .length = len, .lkey = mr->lkey };
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_id = id, .sg_list = &sge, .num_sge = 1,
			.opcode = op, .send_flags = IB_SEND_SIGNALED,
		},
		.remote_addr = ruva,
		.rkey = rmr->rkey,
	};

	KUNIT_ASSERT_EQ(test, ib_post_send(qp, &wr.wr, NULL), 0);
}

/* The loop device offers explicit ODP; an MR maps nothing at first. */
static void odp_caps_and_reg(struct kunit *test)
{
	struct odp_bed *t = odp_bed(test);
	struct ib_device_attr *a = &t->vt->dev->attrs;
	unsigned long addr = kt_user_mmap(test, 4 * PAGE_SIZE, PROT_READ | PROT_WRITE);
	struct ib_umem_odp *odp;
	struct ib_mr *mr;

	KUNIT_EXPECT_TRUE(test, a->kernel_cap_flags & IBK_ON_DEMAND_PAGING);
	KUNIT_EXPECT_EQ(test, a->odp_caps.general_caps,
			IB_ODP_SUPPORT | IB_ODP_SUPPORT_IMPLICIT);
	KUNIT_EXPECT_EQ(test, a->odp_caps.per_transport_caps.rc_odp_caps,
			IB_ODP_SUPPORT_SEND | IB_ODP_SUPPORT_RECV |
			IB_ODP_SUPPORT_WRITE | IB_ODP_SUPPORT_READ |
			IB_ODP_SUPPORT_ATOMIC | IB_ODP_SUPPORT_SRQ_RECV);

	mr = odp_reg(test, t, addr + 100, 3 * PAGE_SIZE,
		     IB_ACCESS_LOCAL_WRITE);
	odp = odp_of(mr);
	KUNIT_ASSERT_NOT_NULL(test, odp);
	KUNIT_EXPECT_EQ(test, odp->npages, 0);
	KUNIT_EXPECT_EQ(test, mr->iova, addr + 100);
	KUNIT_EXPECT_EQ(test, mr->length, 3 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ib_umem_start(odp), addr);
	KUNIT_EXPECT_EQ(test, ib_umem_end(odp), addr + 4 * PAGE_SIZE);

	/* an implicit MR is the address space at its own addresses */
	mr = t->vt->dev->ops.reg_user_mr(t->vt->pd, 0, U64_MAX, 4096,
					 IB_ACCESS_ON_DEMAND |
					 IB_ACCESS_LOCAL_WRITE, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(mr), -EINVAL);
}

/*
 * A SEND from an ODP MR into an ODP MR, neither mapped: the engine
 * misses, the send work faults both in, the replay delivers.
 */
static void odp_send_recv_faults_in(struct kunit *test)
{
	struct odp_bed *t = odp_bed(test);
	unsigned long src = kt_user_mmap(test, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE);
	unsigned long dst = kt_user_mmap(test, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE);
	static const char msg[] = "a message across two pages, paged in";
	struct ib_mr *smr, *dmr;
	char got[sizeof(msg)];

	put_user_bytes(test, src + PAGE_SIZE - 10, msg, sizeof(msg));
	smr = odp_reg(test, t, src, 2 * PAGE_SIZE, 0);
	dmr = odp_reg(test, t, dst, 2 * PAGE_SIZE, IB_ACCESS_LOCAL_WRITE);
	KUNIT_ASSERT_EQ(test, odp_of(smr)->npages, 0);
	KUNIT_ASSERT_EQ(test, odp_of(dmr)->npages, 0);

	post_recv(test, t->b, 2, dmr, dst + PAGE_SIZE - 20, 64);
	post_send(test, t->a, 1, smr, src + PAGE_SIZE - 10, sizeof(msg));
	expect_wc(test, t->scq, 1, IB_WC_SUCCESS);
	expect_wc(test, t->rcq, 2, IB_WC_SUCCESS);

	get_user_bytes(test, dst + PAGE_SIZE - 20, got, sizeof(got));
	KUNIT_EXPECT_MEMEQ(test, got, msg, sizeof(msg));
	/* both pages each SGE touched were faulted in, for their access */
	KUNIT_EXPECT_EQ(test, odp_of(smr)->npages, 2);
	KUNIT_EXPECT_EQ(test, odp_of(dmr)->npages, 2);
	KUNIT_EXPECT_EQ(test, odp_of(dmr)->dma_list[1] & ~ODP_DMA_ADDR_MASK,
			ODP_READ_ALLOWED_BIT | ODP_WRITE_ALLOWED_BIT);
}

/*
 * RDMA WRITE and READ between ODP MRs, and an atomic whose result page
 * is missing after the atomic executed: the replay delivers the value
 * kept, it does not add twice.
 */
static void odp_rdma_and_atomic(struct kunit *test)
{
	struct odp_bed *t = odp_bed(test);
	unsigned long loc = kt_user_mmap(test, 4 * PAGE_SIZE, PROT_READ | PROT_WRITE);
	unsigned long rem = kt_user_mmap(test, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE);
	u8 *out = kunit_kzalloc(test, 300, GFP_KERNEL);
	u8 *back = kunit_kzalloc(test, 300, GFP_KERNEL);
	struct ib_mr *lmr, *rmr;
	u64 val = 1000, old = 0;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_NOT_NULL(test, back);
	for (i = 0; i < 300; i++)
		out[i] = i * 7 + 1;
	put_user_bytes(test, loc + 50, out, 300);
	lmr = odp_reg(test, t, loc, 4 * PAGE_SIZE, IB_ACCESS_LOCAL_WRITE);
	rmr = odp_reg(test, t, rem, 2 * PAGE_SIZE,
		      IB_ACCESS_LOCAL_WRITE | REMOTE_ACC);

	post_rdma(test, t->a, 1, IB_WR_RDMA_WRITE, lmr, loc + 50,
		  300, rmr, rem + PAGE_SIZE - 100);
	expect_wc(test, t->scq, 1, IB_WC_SUCCESS);
	get_user_bytes(test, rem + PAGE_SIZE - 100, back, 300);
	KUNIT_EXPECT_MEMEQ(test, back, out, 300);

	post_rdma(test, t->a, 2, IB_WR_RDMA_READ, lmr, loc + PAGE_SIZE + 7,
		  300, rmr, rem + PAGE_SIZE - 100);
	expect_wc(test, t->scq, 2, IB_WC_SUCCESS);
	get_user_bytes(test, loc + PAGE_SIZE + 7, back, 300);
	KUNIT_EXPECT_MEMEQ(test, back, out, 300);

	/* the target's page is mapped, the result's (page 3) is not */
	put_user_bytes(test, rem + 64, &val, sizeof(val));
	KUNIT_ASSERT_TRUE(test, odp_mapped(rmr, rem + 64));
	KUNIT_ASSERT_FALSE(test, odp_mapped(lmr, loc + 3 * PAGE_SIZE));
	{
		struct ib_sge sge = {
			.addr = loc + 3 * PAGE_SIZE + 8, .length = 8,
			.lkey = lmr->lkey,
		};
		struct ib_atomic_wr wr = {
			.wr = {
				.wr_id = 3, .sg_list = &sge, .num_sge = 1,
				.opcode = IB_WR_ATOMIC_FETCH_AND_ADD,
				.send_flags = IB_SEND_SIGNALED,
			},
			.remote_addr = rem + 64,
			.compare_add = 5,
			.rkey = rmr->rkey,
		};

		KUNIT_ASSERT_EQ(test, ib_post_send(t->a, &wr.wr, NULL), 0);
	}
	expect_wc(test, t->scq, 3, IB_WC_SUCCESS);
	get_user_bytes(test, loc + 3 * PAGE_SIZE + 8, &old, sizeof(old));
	KUNIT_EXPECT_EQ(test, old, 1000);
	get_user_bytes(test, rem + 64, &val, sizeof(val));
	KUNIT_EXPECT_EQ(test, val, 1005);
}

/*
 * munmap reaches the MR (its pages are unmapped for the device); the
 * next SEND lands in the pages mapped there since, not in the old ones.
 */
static void odp_invalidation_follows_munmap(struct kunit *test)
{
	struct odp_bed *t = odp_bed(test);
	unsigned long src = kt_user_mmap(test, PAGE_SIZE, PROT_READ | PROT_WRITE);
	unsigned long dst = kt_user_mmap(test, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE);
	struct ib_mr *smr, *dmr;
	char got[16];

	put_user_bytes(test, src, "first", 6);
	put_user_bytes(test, src + 8, "second", 7);
	smr = odp_reg(test, t, src, PAGE_SIZE, 0);
	dmr = odp_reg(test, t, dst, 2 * PAGE_SIZE, IB_ACCESS_LOCAL_WRITE);

	post_recv(test, t->b, 2, dmr, dst + 100, 16);
	post_send(test, t->a, 1, smr, src, 6);
	expect_wc(test, t->scq, 1, IB_WC_SUCCESS);
	expect_wc(test, t->rcq, 2, IB_WC_SUCCESS);
	get_user_bytes(test, dst + 100, got, 6);
	KUNIT_EXPECT_STREQ(test, got, "first");
	KUNIT_ASSERT_TRUE(test, odp_mapped(dmr, dst));

	/* the process unmaps the buffer and maps fresh memory there */
	kt_user_remap(test, dst, 2 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, odp_of(dmr)->npages, 0);
	KUNIT_EXPECT_FALSE(test, odp_mapped(dmr, dst));

	post_recv(test, t->b, 4, dmr, dst + 100, 16);
	post_send(test, t->a, 3, smr, src + 8, 7);
	expect_wc(test, t->scq, 3, IB_WC_SUCCESS);
	expect_wc(test, t->rcq, 4, IB_WC_SUCCESS);
	get_user_bytes(test, dst + 100, got, 7);
	KUNIT_EXPECT_STREQ(test, got, "second");
}

/*
 * A page the process does not have cannot be faulted in: the request
 * fails as a protection error of the requester's own memory, or as a
 * remote access error of the responder's.
 */
static void odp_fault_fails(struct kunit *test)
{
	struct odp_bed *t = odp_bed(test);
	struct odp_bed *u = odp_bed(test);
	unsigned long src = kt_user_mmap(test, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE);
	unsigned long rem = kt_user_mmap(test, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE);
	struct ib_mr *smr, *dmr, *umr, *urmr;

	put_user_bytes(test, src, "data", 5);
	smr = odp_reg(test, t, src, 2 * PAGE_SIZE, 0);
	KUNIT_ASSERT_EQ(test, vm_munmap(src + PAGE_SIZE, PAGE_SIZE), 0);
	dmr = odp_reg(test, t, rem, PAGE_SIZE, IB_ACCESS_LOCAL_WRITE);
	post_recv(test, t->b, 3, dmr, rem, 8);
	post_send(test, t->a, 1, smr, src + PAGE_SIZE, 8);
	expect_wc(test, t->scq, 1, IB_WC_LOC_PROT_ERR);

	umr = odp_reg(test, u, src, PAGE_SIZE, 0);
	urmr = odp_reg(test, u, rem, 2 * PAGE_SIZE,
		       IB_ACCESS_LOCAL_WRITE | REMOTE_ACC);
	KUNIT_ASSERT_EQ(test, vm_munmap(rem, PAGE_SIZE), 0);
	post_rdma(test, u->a, 2, IB_WR_RDMA_WRITE, umr, src, 5, urmr, rem);
	expect_wc(test, u->scq, 2, IB_WC_REM_ACCESS_ERR);
	KUNIT_EXPECT_FALSE(test, odp_mapped(urmr, rem));
}

static unsigned long odp_children(struct ib_mr *mr)
{
	struct rvt_mregion *r = &container_of(mr, struct rvt_mr, ibmr)->mr;
	unsigned long idx, n = 0;
	void *child;

	xa_for_each(&r->odp_children, idx, child)
		n++;
	return n;
}

/*
 * Implicit MRs (the whole address space): a child umem per 2 MiB range
 * the requests meet, made by the faults; SEND and RDMA WRITE through
 * them, and munmap reaching a child.
 */
static void odp_implicit(struct kunit *test)
{
	struct odp_bed *t = odp_bed(test);
	unsigned long src = kt_user_mmap(test, PAGE_SIZE, PROT_READ | PROT_WRITE);
	unsigned long dst = kt_user_mmap(test, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE);
	struct ib_mr *imr;
	char got[16];

	put_user_bytes(test, src, "implicit", 9);
	put_user_bytes(test, src + 16, "written", 8);
	put_user_bytes(test, src + 32, "again", 6);
	imr = odp_reg(test, t, 0, U64_MAX,
		      IB_ACCESS_LOCAL_WRITE | REMOTE_ACC);
	KUNIT_ASSERT_TRUE(test, odp_of(imr)->is_implicit_odp);
	KUNIT_EXPECT_EQ(test, odp_children(imr), 0);

	post_recv(test, t->b, 2, imr, dst + PAGE_SIZE - 4, 16);
	post_send(test, t->a, 1, imr, src, 9);
	expect_wc(test, t->scq, 1, IB_WC_SUCCESS);
	expect_wc(test, t->rcq, 2, IB_WC_SUCCESS);
	get_user_bytes(test, dst + PAGE_SIZE - 4, got, 9);
	KUNIT_EXPECT_STREQ(test, got, "implicit");
	KUNIT_EXPECT_GE(test, odp_children(imr), 1);
	KUNIT_EXPECT_TRUE(test, odp_mapped(imr, dst + PAGE_SIZE));

	post_rdma(test, t->a, 3, IB_WR_RDMA_WRITE, imr, src + 16, 8, imr,
		  dst + 100);
	expect_wc(test, t->scq, 3, IB_WC_SUCCESS);
	get_user_bytes(test, dst + 100, got, 8);
	KUNIT_EXPECT_STREQ(test, got, "written");

	/* the child of dst's range follows munmap, the next SEND faults */
	kt_user_remap(test, dst, 2 * PAGE_SIZE);
	KUNIT_EXPECT_FALSE(test, odp_mapped(imr, dst + PAGE_SIZE));
	post_recv(test, t->b, 5, imr, dst + 8, 16);
	post_send(test, t->a, 4, imr, src + 32, 6);
	expect_wc(test, t->scq, 4, IB_WC_SUCCESS);
	expect_wc(test, t->rcq, 5, IB_WC_SUCCESS);
	get_user_bytes(test, dst + 8, got, 6);
	KUNIT_EXPECT_STREQ(test, got, "again");
}

/* ADVISE_MR maps ahead: faulting in, or only what the process has. */
static void odp_advise_mr(struct kunit *test)
{
	struct odp_bed *t = odp_bed(test);
	unsigned long buf = kt_user_mmap(test, 4 * PAGE_SIZE, PROT_READ | PROT_WRITE);
	struct ib_pd *pd = t->vt->pd;
	struct ib_mr *mr, *ro;
	struct ib_sge sge;
	u8 one = 1;

	mr = odp_reg(test, t, buf, 4 * PAGE_SIZE, IB_ACCESS_LOCAL_WRITE);
	ro = odp_reg(test, t, buf, 4 * PAGE_SIZE, 0);

	/* pages 0 and 1 faulted in for writing */
	sge = (struct ib_sge){ .addr = buf + 10, .length = PAGE_SIZE,
			       .lkey = mr->lkey };
	KUNIT_EXPECT_EQ(test, ib_advise_mr(pd,
					   IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_WRITE,
					   IB_UVERBS_ADVISE_MR_FLAG_FLUSH, &sge, 1),
			0);
	KUNIT_EXPECT_EQ(test, odp_of(mr)->npages, 2);
	KUNIT_EXPECT_EQ(test, odp_of(mr)->dma_list[1] & ~ODP_DMA_ADDR_MASK,
			ODP_READ_ALLOWED_BIT | ODP_WRITE_ALLOWED_BIT);

	/* without faults: page 3, which the process touched, alone */
	put_user_bytes(test, buf + 3 * PAGE_SIZE, &one, 1);
	sge = (struct ib_sge){ .addr = buf + 2 * PAGE_SIZE,
			       .length = 2 * PAGE_SIZE, .lkey = mr->lkey };
	KUNIT_EXPECT_EQ(test, ib_advise_mr(pd,
					   IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT,
					   0, &sge, 1), 0);
	KUNIT_EXPECT_FALSE(test, odp_mapped(mr, buf + 2 * PAGE_SIZE));
	KUNIT_EXPECT_TRUE(test, odp_mapped(mr, buf + 3 * PAGE_SIZE));

	/* refusals: rights, range, key, advice */
	sge = (struct ib_sge){ .addr = buf, .length = 8, .lkey = ro->lkey };
	KUNIT_EXPECT_EQ(test, ib_advise_mr(pd,
					   IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_WRITE,
					   0, &sge, 1), -EPERM);
	KUNIT_EXPECT_EQ(test, ib_advise_mr(pd,
					   IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH,
					   0, &sge, 1), 0);
	KUNIT_EXPECT_TRUE(test, odp_mapped(ro, buf));
	sge = (struct ib_sge){ .addr = buf + 3 * PAGE_SIZE, .length = PAGE_SIZE + 1,
			       .lkey = mr->lkey };
	KUNIT_EXPECT_EQ(test, ib_advise_mr(pd,
					   IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH,
					   0, &sge, 1), -EINVAL);
	sge = (struct ib_sge){ .addr = buf, .length = 8,
			       .lkey = mr->lkey + 0x100000 };
	KUNIT_EXPECT_EQ(test, ib_advise_mr(pd,
					   IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH,
					   0, &sge, 1), -ENOENT);
	sge.lkey = pd->local_dma_lkey;
	KUNIT_EXPECT_EQ(test, ib_advise_mr(pd,
					   IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH,
					   0, &sge, 1), -ENOENT);
	sge.lkey = mr->lkey;
	KUNIT_EXPECT_EQ(test, ib_advise_mr(pd, 77, 0, &sge, 1), -EOPNOTSUPP);
}

static struct kunit_case rdma_rvt_odp_cases[] = {
	KUNIT_CASE(odp_caps_and_reg),
	KUNIT_CASE(odp_send_recv_faults_in),
	KUNIT_CASE(odp_rdma_and_atomic),
	KUNIT_CASE(odp_invalidation_follows_munmap),
	KUNIT_CASE(odp_fault_fails),
	KUNIT_CASE(odp_advise_mr),
	KUNIT_CASE(odp_implicit),
	{}
};

static struct kunit_suite rdma_rvt_odp_suite = {
	.name = "rdma_rvt_odp",
	.test_cases = rdma_rvt_odp_cases,
};

kunit_test_suite(rdma_rvt_odp_suite);

MODULE_DESCRIPTION("KUnit tests of rdmavt's on-demand paging MRs");
MODULE_LICENSE("Dual BSD/GPL");
