// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_rxe_uring": the entries of rxe's user ABI as the
 * kernel reads and writes them (rxe_uring.c, through rxe_test), on
 * queues of the suite's own in kernel memory laid out as librxe maps
 * them (struct rxe_queue_buf, then the slots).  What user space writes
 * is untrusted: send entries with every opcode libibverbs has (the
 * kernel's request, its fields and SGEs), and malformed ones (opcodes
 * user space may not post or that do not exist, more SGEs than the QP
 * has, more inline bytes than it takes) that must become requests
 * completing in error, never a read past the entry; receive entries
 * whose SGE count is past the queue's, and producer and consumer
 * indices past the queue, which are masked to it.
 */
#include <kunit/test.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "../rxe.h"
#include "../rxe_test.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define KU_MAX_SGE	4
#define KU_ROOM		(KU_MAX_SGE * sizeof(struct rxe_sge))

/* A queue of @slots slots of @elem bytes (powers of two), zeroed. */
static struct rxe_uring *ku_ring(struct kunit *test, u32 slots, u32 elem)
{
	struct rxe_uring *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->buf = kunit_kzalloc(test, sizeof(*r->buf) + slots * elem,
			       GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r->buf);
	r->mask = slots - 1;
	r->shift = ilog2(elem);
	r->buf->index_mask = r->mask;
	r->buf->log2_elem_size = r->shift;
	return r;
}

static void *ku_slot(struct rxe_uring *r, u32 i)
{
	return r->buf->data + ((size_t)(i & r->mask) << r->shift);
}

/* A send entry with room for KU_MAX_SGE SGEs (or as many inline bytes). */
static struct rxe_send_wqe *ku_send_wqe(struct kunit *test)
{
	struct rxe_send_wqe *w;

	w = kunit_kzalloc(test, sizeof(*w) + KU_ROOM, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	w->wr.wr_id = 0x1122334455667788ULL;
	return w;
}

static void ku_convert(struct rxe_send_wqe *w, struct rvt_ring_wr *rwr,
		       struct ib_sge *sges)
{
	rxe_test.uring_send_wr(w, KU_MAX_SGE, KU_ROOM, rwr, sges);
}

/*
 * Every opcode librxe posts becomes the kernel's request with its
 * fields; the SGEs are copied (user addresses and lkeys as they are);
 * a datagram's address and AH number come along; a LOCAL_INV carries
 * its key only.
 */
static void rxe_uring_send_opcodes(struct kunit *test)
{
	static const struct {
		u32 uop;
		enum ib_wr_opcode op;
	} map[] = {
		{ IB_UVERBS_WR_SEND, IB_WR_SEND },
		{ IB_UVERBS_WR_SEND_WITH_IMM, IB_WR_SEND_WITH_IMM },
		{ IB_UVERBS_WR_SEND_WITH_INV, IB_WR_SEND_WITH_INV },
		{ IB_UVERBS_WR_RDMA_WRITE, IB_WR_RDMA_WRITE },
		{ IB_UVERBS_WR_RDMA_WRITE_WITH_IMM, IB_WR_RDMA_WRITE_WITH_IMM },
		{ IB_UVERBS_WR_RDMA_READ, IB_WR_RDMA_READ },
		{ IB_UVERBS_WR_ATOMIC_CMP_AND_SWP, IB_WR_ATOMIC_CMP_AND_SWP },
		{ IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD,
		  IB_WR_ATOMIC_FETCH_AND_ADD },
	};
	struct rxe_send_wqe *w = ku_send_wqe(test);
	struct ib_sge sges[KU_MAX_SGE];
	struct rvt_ring_wr rwr;
	u32 i, j;

	for (i = 0; i < ARRAY_SIZE(map); i++) {
		memset(&w->wr.wr, 0, sizeof(w->wr.wr));
		w->wr.opcode = map[i].uop;
		w->wr.send_flags = IB_SEND_SIGNALED | IB_SEND_SOLICITED;
		w->wr.ex.imm_data = cpu_to_be32(0xabcd0000 + i);
		w->dma.num_sge = KU_MAX_SGE;
		for (j = 0; j < KU_MAX_SGE; j++)
			w->dma.sge[j] = (struct rxe_sge) {
				.addr = 0x10000 * (j + 1),
				.length = 8,
				.lkey = 0x100 + j,
			};
		if (map[i].op == IB_WR_ATOMIC_CMP_AND_SWP ||
		    map[i].op == IB_WR_ATOMIC_FETCH_AND_ADD) {
			w->wr.wr.atomic.remote_addr = 0x7000;
			w->wr.wr.atomic.compare_add = 5;
			w->wr.wr.atomic.swap = 6;
			w->wr.wr.atomic.rkey = 0x77;
		} else if (map[i].op == IB_WR_SEND ||
			   map[i].op == IB_WR_SEND_WITH_IMM) {
			w->wr.wr.ud.remote_qpn = 0x1000042;	/* 25 bits */
			w->wr.wr.ud.remote_qkey = 0x11110000;
			w->wr.wr.ud.ah_num = 9;
		} else if (map[i].op != IB_WR_SEND_WITH_INV) {
			w->wr.wr.rdma.remote_addr = 0x8000;
			w->wr.wr.rdma.rkey = 0x88;
		}
		ku_convert(w, &rwr, sges);
		KUNIT_EXPECT_EQ_MSG(test, rwr.status, IB_WC_SUCCESS, "op %u", i);
		KUNIT_EXPECT_EQ_MSG(test, rwr.wr.opcode, map[i].op, "op %u", i);
		KUNIT_EXPECT_EQ(test, rwr.wr.wr_id, w->wr.wr_id);
		KUNIT_EXPECT_EQ(test, rwr.wr.send_flags,
				(unsigned int)(IB_SEND_SIGNALED |
					       IB_SEND_SOLICITED));
		KUNIT_EXPECT_EQ(test, rwr.wr.num_sge, KU_MAX_SGE);
		KUNIT_EXPECT_PTR_EQ(test, rwr.wr.sg_list, &sges[0]);
		for (j = 0; j < KU_MAX_SGE; j++) {
			KUNIT_EXPECT_EQ(test, sges[j].addr, 0x10000ULL * (j + 1));
			KUNIT_EXPECT_EQ(test, sges[j].length, 8);
			KUNIT_EXPECT_EQ(test, sges[j].lkey, 0x100 + j);
		}
		switch (map[i].op) {
		case IB_WR_SEND:
		case IB_WR_SEND_WITH_IMM:
			KUNIT_EXPECT_EQ(test, rwr.ud_wr.remote_qpn, 0x42);
			KUNIT_EXPECT_EQ(test, rwr.ud_wr.remote_qkey,
					0x11110000);
			KUNIT_EXPECT_EQ(test, rwr.ah_num, 9);
			KUNIT_EXPECT_PTR_EQ(test, rwr.ud_wr.ah, NULL);
			if (map[i].op == IB_WR_SEND_WITH_IMM)
				KUNIT_EXPECT_EQ(test,
						(__force u32)rwr.wr.ex.imm_data,
						(__force u32)w->wr.ex.imm_data);
			break;
		case IB_WR_ATOMIC_CMP_AND_SWP:
		case IB_WR_ATOMIC_FETCH_AND_ADD:
			KUNIT_EXPECT_EQ(test, rwr.atomic_wr.remote_addr, 0x7000);
			KUNIT_EXPECT_EQ(test, rwr.atomic_wr.compare_add, 5);
			KUNIT_EXPECT_EQ(test, rwr.atomic_wr.swap, 6);
			KUNIT_EXPECT_EQ(test, rwr.atomic_wr.rkey, 0x77);
			break;
		case IB_WR_SEND_WITH_INV:
			KUNIT_EXPECT_EQ(test, rwr.wr.ex.invalidate_rkey,
					w->wr.ex.invalidate_rkey);
			break;
		default:
			KUNIT_EXPECT_EQ(test, rwr.rdma_wr.remote_addr, 0x8000);
			KUNIT_EXPECT_EQ(test, rwr.rdma_wr.rkey, 0x88);
			if (map[i].op == IB_WR_RDMA_WRITE_WITH_IMM)
				KUNIT_EXPECT_EQ(test,
						(__force u32)rwr.wr.ex.imm_data,
						(__force u32)w->wr.ex.imm_data);
			break;
		}
	}

	/* LOCAL_INV (a type 2 window's key): the key, no SGE, no inline */
	memset(&w->wr.wr, 0, sizeof(w->wr.wr));
	w->wr.opcode = IB_UVERBS_WR_LOCAL_INV;
	w->wr.send_flags = IB_SEND_SIGNALED | IB_SEND_INLINE;
	w->wr.ex.invalidate_rkey = 0x1234;
	w->dma.num_sge = 1;
	ku_convert(w, &rwr, sges);
	KUNIT_EXPECT_EQ(test, rwr.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, rwr.wr.opcode, IB_WR_LOCAL_INV);
	KUNIT_EXPECT_EQ(test, rwr.wr.ex.invalidate_rkey, 0x1234);
	KUNIT_EXPECT_EQ(test, rwr.wr.send_flags,
			(unsigned int)IB_SEND_SIGNALED);
	KUNIT_EXPECT_EQ(test, rwr.wr.num_sge, 0);
}

/*
 * Inline data of a SEND or WRITE stays in the (copied) entry: one SGE
 * names it, no key; an ATOMIC WRITE's 8 bytes likewise; a FLUSH carries
 * none; IB_SEND_INLINE means nothing to a READ.
 */
static void rxe_uring_send_inline(struct kunit *test)
{
	struct rxe_send_wqe *w = ku_send_wqe(test);
	struct ib_sge sges[KU_MAX_SGE];
	struct rvt_ring_wr rwr;

	w->wr.opcode = IB_UVERBS_WR_RDMA_WRITE;
	w->wr.send_flags = IB_SEND_INLINE;
	w->dma.length = KU_ROOM;
	w->dma.num_sge = 3;
	ku_convert(w, &rwr, sges);
	KUNIT_EXPECT_EQ(test, rwr.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, rwr.wr.send_flags, (unsigned int)IB_SEND_INLINE);
	KUNIT_EXPECT_EQ(test, rwr.wr.num_sge, 1);
	KUNIT_EXPECT_EQ(test, sges[0].addr, (u64)(uintptr_t)w->dma.inline_data);
	KUNIT_EXPECT_EQ(test, sges[0].length, KU_ROOM);
	KUNIT_EXPECT_EQ(test, sges[0].lkey, 0);

	w->dma.length = 0;
	ku_convert(w, &rwr, sges);
	KUNIT_EXPECT_EQ(test, rwr.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, rwr.wr.num_sge, 0);

	w->wr.opcode = IB_UVERBS_WR_ATOMIC_WRITE;
	w->wr.send_flags = IB_SEND_SIGNALED;
	w->wr.wr.rdma.remote_addr = 0x9008;
	w->wr.wr.rdma.rkey = 0x99;
	ku_convert(w, &rwr, sges);
	KUNIT_EXPECT_EQ(test, rwr.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, rwr.wr.opcode, IB_WR_ATOMIC_WRITE);
	KUNIT_EXPECT_EQ(test, rwr.wr.send_flags,
			(unsigned int)(IB_SEND_SIGNALED | IB_SEND_INLINE));
	KUNIT_EXPECT_EQ(test, rwr.wr.num_sge, 1);
	KUNIT_EXPECT_EQ(test, sges[0].addr, (u64)(uintptr_t)w->dma.atomic_wr);
	KUNIT_EXPECT_EQ(test, sges[0].length, 8);
	KUNIT_EXPECT_EQ(test, rwr.rdma_wr.remote_addr, 0x9008);
	KUNIT_EXPECT_EQ(test, rwr.rdma_wr.rkey, 0x99);

	w->wr.opcode = IB_UVERBS_WR_FLUSH;
	w->wr.send_flags = IB_SEND_INLINE | IB_SEND_FENCE;
	w->wr.wr.flush.remote_addr = 0xa000;
	w->wr.wr.flush.length = 4096;
	w->wr.wr.flush.rkey = 0xaa;
	w->wr.wr.flush.type = IB_FLUSH_PERSISTENT;
	w->wr.wr.flush.level = IB_FLUSH_MR;
	ku_convert(w, &rwr, sges);
	KUNIT_EXPECT_EQ(test, rwr.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, rwr.wr.opcode, IB_WR_FLUSH);
	KUNIT_EXPECT_EQ(test, rwr.wr.num_sge, 0);
	KUNIT_EXPECT_EQ(test, rwr.wr.send_flags, (unsigned int)IB_SEND_FENCE);
	KUNIT_EXPECT_EQ(test, rwr.flush_wr.remote_addr, 0xa000);
	KUNIT_EXPECT_EQ(test, rwr.flush_wr.length, 4096);
	KUNIT_EXPECT_EQ(test, rwr.flush_wr.rkey, 0xaa);
	KUNIT_EXPECT_EQ(test, rwr.flush_wr.type, IB_FLUSH_PERSISTENT);
	KUNIT_EXPECT_EQ(test, rwr.flush_wr.level, IB_FLUSH_MR);

	w->wr.opcode = IB_UVERBS_WR_RDMA_READ;
	w->wr.send_flags = IB_SEND_INLINE;
	w->dma.num_sge = 1;
	w->dma.length = 10 * KU_ROOM;
	ku_convert(w, &rwr, sges);
	KUNIT_EXPECT_EQ(test, rwr.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, rwr.wr.send_flags, 0);
	KUNIT_EXPECT_EQ(test, rwr.wr.num_sge, 1);
}

/*
 * Malformed entries become requests that complete in error, with their
 * ID, and name no SGE: opcodes user space may not post here (TSO, READ
 * with invalidate, masked atomics) or that do not
 * exist, more SGEs than the QP has, more inline bytes than it takes.
 * Flags outside libibverbs' FENCE, SIGNALED, SOLICITED and INLINE are
 * dropped.
 */
static void rxe_uring_send_malformed(struct kunit *test)
{
	static const u32 bad_ops[] = {
		IB_UVERBS_WR_TSO, IB_UVERBS_WR_RDMA_READ_WITH_INV,
		IB_UVERBS_WR_MASKED_ATOMIC_CMP_AND_SWP, 16, 0x20, 0xff,
		0x80000000, U32_MAX,
	};
	struct rxe_send_wqe *w = ku_send_wqe(test);
	struct ib_sge sges[KU_MAX_SGE];
	struct rvt_ring_wr rwr;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(bad_ops); i++) {
		w->wr.opcode = bad_ops[i];
		w->wr.send_flags = IB_SEND_SIGNALED | IB_SEND_INLINE;
		w->dma.num_sge = 1;
		w->dma.length = 8;
		memset(&rwr, 0x5a, sizeof(rwr));
		ku_convert(w, &rwr, sges);
		KUNIT_EXPECT_EQ_MSG(test, rwr.status, IB_WC_LOC_QP_OP_ERR,
				    "opcode %#x", bad_ops[i]);
		KUNIT_EXPECT_EQ(test, rwr.wr.wr_id, w->wr.wr_id);
		KUNIT_EXPECT_EQ(test, rwr.wr.num_sge, 0);
		KUNIT_EXPECT_PTR_EQ(test, rwr.wr.sg_list, NULL);
		KUNIT_EXPECT_EQ(test, rwr.wr.send_flags,
				(unsigned int)IB_SEND_SIGNALED);
	}

	/* SGEs: one past the QP's, and a count no queue has */
	w->wr.opcode = IB_UVERBS_WR_SEND;
	w->wr.send_flags = 0;
	for (i = 0; i < 2; i++) {
		w->dma.num_sge = i ? U32_MAX : KU_MAX_SGE + 1;
		ku_convert(w, &rwr, sges);
		KUNIT_EXPECT_EQ(test, rwr.status, IB_WC_LOC_QP_OP_ERR);
		KUNIT_EXPECT_EQ(test, rwr.wr.num_sge, 0);
	}

	/* inline: one byte more than the QP takes */
	w->wr.opcode = IB_UVERBS_WR_SEND;
	w->wr.send_flags = IB_SEND_INLINE | IB_SEND_SIGNALED;
	w->dma.length = KU_ROOM + 1;
	ku_convert(w, &rwr, sges);
	KUNIT_EXPECT_EQ(test, rwr.status, IB_WC_LOC_LEN_ERR);
	KUNIT_EXPECT_EQ(test, rwr.wr.num_sge, 0);
	KUNIT_EXPECT_EQ(test, rwr.wr.send_flags,
			(unsigned int)IB_SEND_SIGNALED);
	w->dma.length = U32_MAX;
	ku_convert(w, &rwr, sges);
	KUNIT_EXPECT_EQ(test, rwr.status, IB_WC_LOC_LEN_ERR);

	/* flags libibverbs does not have */
	w->wr.send_flags = 0xfffffff0 | IB_SEND_FENCE;
	w->dma.num_sge = 0;
	ku_convert(w, &rwr, sges);
	KUNIT_EXPECT_EQ(test, rwr.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, rwr.wr.send_flags, (unsigned int)IB_SEND_FENCE);
}

/*
 * A receive queue of 4 slots (3 entries): entries come out in order
 * with their SGEs, the consumer index moving; an entry claiming more
 * SGEs than the queue has gives the queue's; a producer index past the
 * queue is masked to it, never read past it.
 */
static void rxe_uring_recv_entries(struct kunit *test)
{
	u32 elem = roundup_pow_of_two(sizeof(struct rxe_recv_wqe) + KU_ROOM);
	struct rxe_uring *r = ku_ring(test, 4, elem);
	struct rvt_rwqe *wqe;
	struct rxe_recv_wqe *slot;
	u32 i, j;

	wqe = kunit_kzalloc(test, struct_size(wqe, sg_list, KU_MAX_SGE),
			    GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, wqe);
	KUNIT_EXPECT_FALSE(test, rxe_test.uring_recv_take(r, KU_MAX_SGE, wqe));

	for (i = 0; i < 3; i++) {
		slot = ku_slot(r, i);
		slot->wr_id = 100 + i;
		slot->dma.num_sge = i == 2 ? 1000 : i + 1;
		for (j = 0; j < KU_MAX_SGE; j++)
			slot->dma.sge[j] = (struct rxe_sge) {
				.addr = 0x1000 * i + j, .length = j + 1,
				.lkey = 7,
			};
	}
	r->buf->producer_index = 3;
	for (i = 0; i < 3; i++) {
		memset(wqe, 0xee, struct_size(wqe, sg_list, KU_MAX_SGE));
		KUNIT_ASSERT_TRUE(test, rxe_test.uring_recv_take(r, KU_MAX_SGE,
								 wqe));
		KUNIT_EXPECT_EQ(test, wqe->wr_id, 100 + i);
		KUNIT_EXPECT_EQ(test, wqe->num_sge, i == 2 ? KU_MAX_SGE : i + 1);
		for (j = 0; j < wqe->num_sge; j++) {
			KUNIT_EXPECT_EQ(test, wqe->sg_list[j].addr,
					0x1000ULL * i + j);
			KUNIT_EXPECT_EQ(test, wqe->sg_list[j].length, j + 1);
			KUNIT_EXPECT_EQ(test, wqe->sg_list[j].lkey, 7);
		}
		KUNIT_EXPECT_EQ(test, r->buf->consumer_index, i + 1);
	}
	KUNIT_EXPECT_FALSE(test, rxe_test.uring_recv_take(r, KU_MAX_SGE, wqe));

	/* index 0xfffffffe is slot 2 of this queue: 3 taken, 3 left to 2 */
	r->buf->producer_index = 0xfffffffe;
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_TRUE(test, rxe_test.uring_recv_take(r, KU_MAX_SGE,
								 wqe));
	KUNIT_EXPECT_FALSE(test, rxe_test.uring_recv_take(r, KU_MAX_SGE, wqe));
	KUNIT_EXPECT_EQ(test, r->index, 2);
	KUNIT_EXPECT_EQ(test, r->buf->consumer_index, 2);
}

/*
 * A CQ queue of 4 slots holds 3 completions, written as struct
 * ib_uverbs_wc at the producer index; the fourth is refused until user
 * space consumes; a consumer index past the queue is masked to it.
 */
static void rxe_uring_cq_entries(struct kunit *test)
{
	struct rxe_uring *r = ku_ring(test, 4, 64);
	struct ib_qp *qp = kunit_kzalloc(test, sizeof(*qp), GFP_KERNEL);
	struct ib_wc wc = {
		.status = IB_WC_SUCCESS,
		.opcode = IB_WC_RECV,
		.byte_len = 4096,
		.qp = qp,
		.src_qp = 0x44,
		.wc_flags = IB_WC_WITH_IMM,
		.ex.imm_data = cpu_to_be32(0x01020304),
	};
	struct ib_uverbs_wc *u;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, qp);
	qp->qp_num = 0x33;
	for (i = 0; i < 3; i++) {
		wc.wr_id = 500 + i;
		KUNIT_ASSERT_TRUE(test, rxe_test.uring_cq_push(r, &wc));
		KUNIT_EXPECT_EQ(test, r->buf->producer_index, i + 1);
	}
	KUNIT_EXPECT_FALSE(test, rxe_test.uring_cq_push(r, &wc));
	for (i = 0; i < 3; i++) {
		u = ku_slot(r, i);
		KUNIT_EXPECT_EQ(test, u->wr_id, 500 + i);
		KUNIT_EXPECT_EQ(test, u->opcode, IB_WC_RECV);
		KUNIT_EXPECT_EQ(test, u->byte_len, 4096);
		KUNIT_EXPECT_EQ(test, u->qp_num, 0x33);
		KUNIT_EXPECT_EQ(test, u->src_qp, 0x44);
		KUNIT_EXPECT_EQ(test, u->wc_flags, IB_WC_WITH_IMM);
		KUNIT_EXPECT_EQ(test, (__force u32)u->ex.imm_data,
				(__force u32)cpu_to_be32(0x01020304));
	}

	/* consumed two: 0xfffffffe is slot 2 */
	r->buf->consumer_index = 0xfffffffe;
	KUNIT_EXPECT_TRUE(test, rxe_test.uring_cq_push(r, &wc));
	KUNIT_EXPECT_TRUE(test, rxe_test.uring_cq_push(r, &wc));
	KUNIT_EXPECT_FALSE(test, rxe_test.uring_cq_push(r, &wc));
	KUNIT_EXPECT_EQ(test, r->buf->producer_index, 1);
}

static struct kunit_case rxe_uring_cases[] = {
	KUNIT_CASE(rxe_uring_send_opcodes),
	KUNIT_CASE(rxe_uring_send_inline),
	KUNIT_CASE(rxe_uring_send_malformed),
	KUNIT_CASE(rxe_uring_recv_entries),
	KUNIT_CASE(rxe_uring_cq_entries),
	{}
};

static struct kunit_suite rxe_uring_suite = {
	.name = "rdma_rxe_uring",
	.test_cases = rxe_uring_cases,
};

kunit_test_suite(rxe_uring_suite);

MODULE_DESCRIPTION("KUnit suite of rdma_rxe's user ABI queues");
MODULE_LICENSE("Dual BSD/GPL");
