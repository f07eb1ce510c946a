// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_siw_uring": siw's user ABI entries
 * (hw/sw/siw/siw_uring.c): a send entry libsiw wrote becomes the request
 * rdmavt runs, or one that completes in error; a completion becomes the
 * entry libsiw reads.  The layouts are upstream's siw-abi.h; the values
 * expected are what libsiw (rdma-core providers/siw) writes and reads.
 */
#include <kunit/test.h>
#include <linux/string.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_vt.h>
#include <uapi/rdma/siw-abi.h>

#include "../siw.h"
#include "../siw_qp.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static struct siw_sqe sqe_of(u8 op, u16 flags, u8 num_sge)
{
	struct siw_sqe s = {
		.id = 0xabcdef0123ULL, .opcode = op, .num_sge = num_sge,
		.flags = SIW_WQE_VALID | flags, .rkey = 0x1234, .raddr = 0x9000,
	};
	u8 i;

	for (i = 0; i < SIW_MAX_SGE; i++)
		s.sge[i] = (struct siw_sge){ .laddr = 0x1000 * (i + 1),
					     .length = 100 + i,
					     .lkey = 0x500 + i };
	return s;
}

/* Each opcode libsiw posts, and what rdmavt is given for it. */
static void siw_uring_send_opcodes(struct kunit *test)
{
	static const struct {
		u8 siw;
		enum ib_wr_opcode ib;
	} map[] = {
		{ SIW_OP_SEND, IB_WR_SEND },
		{ SIW_OP_SEND_REMOTE_INV, IB_WR_SEND_WITH_INV },
		{ SIW_OP_WRITE, IB_WR_RDMA_WRITE },
		{ SIW_OP_READ, IB_WR_RDMA_READ },
		{ SIW_OP_READ_LOCAL_INV, IB_WR_RDMA_READ_WITH_INV },
	};
	struct ib_sge sges[SIW_MAX_SGE];
	struct rvt_ring_wr rwr;
	struct siw_sqe s;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(map); i++) {
		s = sqe_of(map[i].siw, SIW_WQE_SIGNALLED, 2);
		siw_test.uring_send_wr(&s, &rwr, sges);
		KUNIT_EXPECT_EQ(test, rwr.status, IB_WC_SUCCESS);
		KUNIT_EXPECT_EQ(test, rwr.wr.opcode, map[i].ib);
		KUNIT_EXPECT_EQ(test, rwr.wr.wr_id, 0xabcdef0123ULL);
		KUNIT_EXPECT_EQ(test, rwr.wr.send_flags, IB_SEND_SIGNALED);
		KUNIT_EXPECT_EQ(test, rwr.wr.num_sge, 2);
		KUNIT_EXPECT_PTR_EQ(test, rwr.wr.sg_list, &sges[0]);
		KUNIT_EXPECT_EQ(test, sges[1].addr, 0x2000ULL);
		KUNIT_EXPECT_EQ(test, sges[1].length, 101U);
		KUNIT_EXPECT_EQ(test, sges[1].lkey, 0x501U);
	}
	s = sqe_of(SIW_OP_WRITE, 0, 1);
	siw_test.uring_send_wr(&s, &rwr, sges);
	KUNIT_EXPECT_EQ(test, rwr.rdma_wr.remote_addr, 0x9000ULL);
	KUNIT_EXPECT_EQ(test, rwr.rdma_wr.rkey, 0x1234U);
	KUNIT_EXPECT_EQ(test, rwr.wr.send_flags, 0);
	/* SEND_REMOTE_INV names the peer's STag to invalidate in rkey */
	s = sqe_of(SIW_OP_SEND_REMOTE_INV, 0, 1);
	siw_test.uring_send_wr(&s, &rwr, sges);
	KUNIT_EXPECT_EQ(test, rwr.wr.ex.invalidate_rkey, 0x1234U);
	/* READ with local invalidate: the sink's STag goes */
	s = sqe_of(SIW_OP_READ_LOCAL_INV, 0, 1);
	siw_test.uring_send_wr(&s, &rwr, sges);
	KUNIT_EXPECT_EQ(test, rwr.wr.ex.invalidate_rkey, 0x500U);
}

static void siw_uring_send_flags(struct kunit *test)
{
	struct ib_sge sges[SIW_MAX_SGE];
	struct rvt_ring_wr rwr;
	struct siw_sqe s;

	s = sqe_of(SIW_OP_SEND, SIW_WQE_SIGNALLED | SIW_WQE_SOLICITED |
		   SIW_WQE_READ_FENCE, 1);
	siw_test.uring_send_wr(&s, &rwr, sges);
	KUNIT_EXPECT_EQ(test, rwr.wr.send_flags,
			IB_SEND_SIGNALED | IB_SEND_SOLICITED | IB_SEND_FENCE);
	/* no SGE at all: a zero-length SEND */
	s = sqe_of(SIW_OP_SEND, 0, 0);
	siw_test.uring_send_wr(&s, &rwr, sges);
	KUNIT_EXPECT_EQ(test, rwr.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, rwr.wr.num_sge, 0);
}

/* Inline data: the bytes after the first SGE, its length in it. */
static void siw_uring_send_inline(struct kunit *test)
{
	struct ib_sge sges[SIW_MAX_SGE];
	struct rvt_ring_wr rwr;
	struct siw_sqe s;

	s = sqe_of(SIW_OP_SEND, SIW_WQE_INLINE, 3);
	s.sge[0].length = SIW_MAX_INLINE;
	memset(&s.sge[1], 0x77, SIW_MAX_INLINE);
	siw_test.uring_send_wr(&s, &rwr, sges);
	KUNIT_EXPECT_EQ(test, rwr.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, rwr.wr.send_flags, IB_SEND_INLINE);
	KUNIT_EXPECT_EQ(test, rwr.wr.num_sge, 1);
	KUNIT_EXPECT_EQ(test, sges[0].addr, (u64)(uintptr_t)&s.sge[1]);
	KUNIT_EXPECT_EQ(test, sges[0].length, (u32)SIW_MAX_INLINE);
	/* a byte more than an entry holds */
	s.sge[0].length = SIW_MAX_INLINE + 1;
	siw_test.uring_send_wr(&s, &rwr, sges);
	KUNIT_EXPECT_EQ(test, rwr.status, IB_WC_LOC_LEN_ERR);
	/* a READ carries no data: its SGEs stand */
	s = sqe_of(SIW_OP_READ, SIW_WQE_INLINE, 1);
	siw_test.uring_send_wr(&s, &rwr, sges);
	KUNIT_EXPECT_EQ(test, rwr.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, rwr.wr.send_flags, 0);
	KUNIT_EXPECT_EQ(test, sges[0].lkey, 0x500U);
}

/* What no sane libsiw writes completes in error without running. */
static void siw_uring_send_malformed(struct kunit *test)
{
	static const u8 refused[] = {
		SIW_OP_SEND_WITH_IMM, SIW_OP_FETCH_AND_ADD,
		SIW_OP_COMP_AND_SWAP, SIW_OP_RECEIVE, SIW_OP_READ_RESPONSE,
		SIW_OP_INVAL_STAG, SIW_OP_REG_MR, SIW_NUM_OPCODES, 0xff,
	};
	struct ib_sge sges[SIW_MAX_SGE];
	struct rvt_ring_wr rwr;
	struct siw_sqe s;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(refused); i++) {
		s = sqe_of(refused[i], SIW_WQE_SIGNALLED, 1);
		siw_test.uring_send_wr(&s, &rwr, sges);
		KUNIT_EXPECT_EQ_MSG(test, rwr.status, IB_WC_LOC_QP_OP_ERR,
				    "opcode %u", refused[i]);
		KUNIT_EXPECT_EQ(test, rwr.wr.wr_id, 0xabcdef0123ULL);
		KUNIT_EXPECT_EQ(test, rwr.wr.send_flags, IB_SEND_SIGNALED);
	}
	s = sqe_of(SIW_OP_SEND, 0, SIW_MAX_SGE + 1);
	siw_test.uring_send_wr(&s, &rwr, sges);
	KUNIT_EXPECT_EQ(test, rwr.status, IB_WC_LOC_QP_OP_ERR);
	s = sqe_of(SIW_OP_WRITE, 0, 0xff);
	siw_test.uring_send_wr(&s, &rwr, sges);
	KUNIT_EXPECT_EQ(test, rwr.status, IB_WC_LOC_QP_OP_ERR);
}

static void siw_uring_cqe(struct kunit *test)
{
	static const struct {
		enum ib_wc_opcode ib;
		u8 siw;
	} ops[] = {
		{ IB_WC_SEND, SIW_OP_SEND }, { IB_WC_RDMA_WRITE, SIW_OP_WRITE },
		{ IB_WC_RDMA_READ, SIW_OP_READ }, { IB_WC_RECV, SIW_OP_RECEIVE },
		{ IB_WC_LOCAL_INV, SIW_OP_INVAL_STAG },
		{ IB_WC_REG_MR, SIW_OP_REG_MR },
	};
	static const struct {
		enum ib_wc_status ib;
		u16 siw;
	} sts[] = {
		{ IB_WC_SUCCESS, SIW_WC_SUCCESS },
		{ IB_WC_LOC_LEN_ERR, SIW_WC_LOC_LEN_ERR },
		{ IB_WC_LOC_PROT_ERR, SIW_WC_LOC_PROT_ERR },
		{ IB_WC_WR_FLUSH_ERR, SIW_WC_WR_FLUSH_ERR },
		{ IB_WC_REM_ACCESS_ERR, SIW_WC_REM_ACCESS_ERR },
		{ IB_WC_REM_INV_REQ_ERR, SIW_WC_REM_INV_REQ_ERR },
		{ IB_WC_RETRY_EXC_ERR, SIW_WC_GENERAL_ERR },
		{ IB_WC_REM_OP_ERR, SIW_WC_GENERAL_ERR },
	};
	struct ib_qp qp = { .qp_num = 77 };
	struct ib_wc wc = { .wr_id = 5, .byte_len = 4096, .qp = &qp };
	struct siw_cqe cqe;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		memset(&cqe, 0xee, sizeof(cqe));
		wc.opcode = ops[i].ib;
		KUNIT_EXPECT_EQ(test, siw_test.uring_cqe_fill(&cqe, &wc),
				SIW_WQE_VALID);
		KUNIT_EXPECT_EQ(test, cqe.opcode, ops[i].siw);
		KUNIT_EXPECT_EQ(test, cqe.id, 5ULL);
		KUNIT_EXPECT_EQ(test, cqe.bytes, 4096U);
		KUNIT_EXPECT_EQ(test, cqe.qp_id, 77ULL);
		KUNIT_EXPECT_EQ(test, cqe.imm_data, 0ULL);
		/* the caller publishes the flags */
		KUNIT_EXPECT_EQ(test, cqe.flags, 0xee);
	}
	wc.opcode = IB_WC_RECV;
	for (i = 0; i < ARRAY_SIZE(sts); i++) {
		wc.status = sts[i].ib;
		siw_test.uring_cqe_fill(&cqe, &wc);
		KUNIT_EXPECT_EQ(test, cqe.status, sts[i].siw);
	}
	/* a SEND with invalidate arrived: the STag it took away */
	wc.status = IB_WC_SUCCESS;
	wc.wc_flags = IB_WC_WITH_INVALIDATE;
	wc.ex.invalidate_rkey = 0x4400;
	KUNIT_EXPECT_EQ(test, siw_test.uring_cqe_fill(&cqe, &wc),
			SIW_WQE_VALID | SIW_WQE_REM_INVAL);
	KUNIT_EXPECT_EQ(test, cqe.inval_stag, 0x4400U);
}

static struct kunit_case siw_uring_cases[] = {
	KUNIT_CASE(siw_uring_send_opcodes),
	KUNIT_CASE(siw_uring_send_flags),
	KUNIT_CASE(siw_uring_send_inline),
	KUNIT_CASE(siw_uring_send_malformed),
	KUNIT_CASE(siw_uring_cqe),
	{}
};

static struct kunit_suite siw_uring_suite = {
	.name = "rdma_siw_uring",
	.test_cases = siw_uring_cases,
};

kunit_test_suite(siw_uring_suite);

MODULE_DESCRIPTION("KUnit tests of siw's user ABI entries");
MODULE_LICENSE("Dual BSD/GPL");
