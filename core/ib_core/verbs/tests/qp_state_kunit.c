// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_qp_state": ib_modify_qp_is_ok()
 * (core/ib_core/verbs/qp_state.c) against the QP state machine of IBTA vol. 1,
 * 10.3.1 and the Modify QP attribute tables of 11.2.5.2 (table 94), restated
 * here on their own rather than derived from the code under test.
 *
 * Every case runs once per QP type.  For each of the 49 (from, to) pairs
 * it checks that the transition is accepted exactly when it exists, that
 * the required attributes are required one by one, that each optional
 * attribute is accepted alone and all of them together, and that every
 * other attribute bit is refused.
 */

#include <kunit/test.h>
#include <rdma/ib_verbs.h>

#define NSTATES		(IB_QPS_ERR + 1)

/* The arrows of the state diagram, whatever the QP type. */
static const bool arrow[NSTATES][NSTATES] = {
	[IB_QPS_RESET] = { [IB_QPS_RESET] = 1, [IB_QPS_INIT] = 1 },
	[IB_QPS_INIT] = { [IB_QPS_RESET] = 1, [IB_QPS_INIT] = 1,
			  [IB_QPS_RTR] = 1, [IB_QPS_ERR] = 1 },
	[IB_QPS_RTR] = { [IB_QPS_RESET] = 1, [IB_QPS_RTS] = 1,
			 [IB_QPS_ERR] = 1 },
	[IB_QPS_RTS] = { [IB_QPS_RESET] = 1, [IB_QPS_RTS] = 1,
			 [IB_QPS_SQD] = 1, [IB_QPS_ERR] = 1 },
	[IB_QPS_SQD] = { [IB_QPS_RESET] = 1, [IB_QPS_RTS] = 1,
			 [IB_QPS_SQD] = 1, [IB_QPS_ERR] = 1 },
	[IB_QPS_SQE] = { [IB_QPS_RESET] = 1, [IB_QPS_RTS] = 1,
			 [IB_QPS_ERR] = 1 },
	[IB_QPS_ERR] = { [IB_QPS_RESET] = 1, [IB_QPS_ERR] = 1 },
};

/* One transition's attributes for one QP type. */
struct attr_row {
	enum ib_qp_state	from, to;
	u32			req, opt;
};

struct qpt_rules {
	enum ib_qp_type		type;
	const char		*name;
	const struct attr_row	*rows;
	unsigned int		nrows;
};

#define ROWS(a) .rows = a, .nrows = ARRAY_SIZE(a)

static const struct attr_row rc_rows[] = {
	{ IB_QPS_RESET, IB_QPS_INIT,
	  IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_ACCESS_FLAGS, 0 },
	{ IB_QPS_INIT, IB_QPS_INIT,
	  0, IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_ACCESS_FLAGS },
	{ IB_QPS_INIT, IB_QPS_RTR,
	  IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN |
	  IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER,
	  IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX },
	{ IB_QPS_RTR, IB_QPS_RTS,
	  IB_QP_TIMEOUT | IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | IB_QP_SQ_PSN |
	  IB_QP_MAX_QP_RD_ATOMIC,
	  IB_QP_CUR_STATE | IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS |
	  IB_QP_MIN_RNR_TIMER | IB_QP_PATH_MIG_STATE },
	{ IB_QPS_RTS, IB_QPS_RTS,
	  0, IB_QP_CUR_STATE | IB_QP_ACCESS_FLAGS | IB_QP_ALT_PATH |
	  IB_QP_PATH_MIG_STATE | IB_QP_MIN_RNR_TIMER },
	{ IB_QPS_RTS, IB_QPS_SQD, 0, IB_QP_EN_SQD_ASYNC_NOTIFY },
	{ IB_QPS_SQD, IB_QPS_RTS,
	  0, IB_QP_CUR_STATE | IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS |
	  IB_QP_MIN_RNR_TIMER | IB_QP_PATH_MIG_STATE },
	{ IB_QPS_SQD, IB_QPS_SQD,
	  0, IB_QP_PORT | IB_QP_AV | IB_QP_TIMEOUT | IB_QP_RETRY_CNT |
	  IB_QP_RNR_RETRY | IB_QP_MAX_QP_RD_ATOMIC |
	  IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS |
	  IB_QP_PKEY_INDEX | IB_QP_MIN_RNR_TIMER | IB_QP_PATH_MIG_STATE },
};

static const struct attr_row uc_rows[] = {
	{ IB_QPS_RESET, IB_QPS_INIT,
	  IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_ACCESS_FLAGS, 0 },
	{ IB_QPS_INIT, IB_QPS_INIT,
	  0, IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_ACCESS_FLAGS },
	{ IB_QPS_INIT, IB_QPS_RTR,
	  IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN,
	  IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX },
	{ IB_QPS_RTR, IB_QPS_RTS, IB_QP_SQ_PSN,
	  IB_QP_CUR_STATE | IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS |
	  IB_QP_PATH_MIG_STATE },
	{ IB_QPS_RTS, IB_QPS_RTS,
	  0, IB_QP_CUR_STATE | IB_QP_ACCESS_FLAGS | IB_QP_ALT_PATH |
	  IB_QP_PATH_MIG_STATE },
	{ IB_QPS_RTS, IB_QPS_SQD, 0, IB_QP_EN_SQD_ASYNC_NOTIFY },
	{ IB_QPS_SQD, IB_QPS_RTS,
	  0, IB_QP_CUR_STATE | IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS |
	  IB_QP_PATH_MIG_STATE },
	{ IB_QPS_SQD, IB_QPS_SQD,
	  0, IB_QP_AV | IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS |
	  IB_QP_PKEY_INDEX | IB_QP_PATH_MIG_STATE },
	{ IB_QPS_SQE, IB_QPS_RTS, 0, IB_QP_CUR_STATE | IB_QP_ACCESS_FLAGS },
};

static const struct attr_row ud_rows[] = {
	{ IB_QPS_RESET, IB_QPS_INIT,
	  IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_QKEY, 0 },
	{ IB_QPS_INIT, IB_QPS_INIT,
	  0, IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_QKEY },
	{ IB_QPS_INIT, IB_QPS_RTR, 0, IB_QP_PKEY_INDEX | IB_QP_QKEY },
	{ IB_QPS_RTR, IB_QPS_RTS, IB_QP_SQ_PSN,
	  IB_QP_CUR_STATE | IB_QP_QKEY },
	{ IB_QPS_RTS, IB_QPS_RTS, 0, IB_QP_CUR_STATE | IB_QP_QKEY },
	{ IB_QPS_RTS, IB_QPS_SQD, 0, IB_QP_EN_SQD_ASYNC_NOTIFY },
	{ IB_QPS_SQD, IB_QPS_RTS, 0, IB_QP_CUR_STATE | IB_QP_QKEY },
	{ IB_QPS_SQD, IB_QPS_SQD, 0, IB_QP_PKEY_INDEX | IB_QP_QKEY },
	{ IB_QPS_SQE, IB_QPS_RTS, 0, IB_QP_CUR_STATE | IB_QP_QKEY },
};

/* SMI and GSI: like UD, but the port is fixed at creation */
static const struct attr_row mad_rows[] = {
	{ IB_QPS_RESET, IB_QPS_INIT, IB_QP_PKEY_INDEX | IB_QP_QKEY, 0 },
	{ IB_QPS_INIT, IB_QPS_INIT, 0, IB_QP_PKEY_INDEX | IB_QP_QKEY },
	{ IB_QPS_INIT, IB_QPS_RTR, 0, IB_QP_PKEY_INDEX | IB_QP_QKEY },
	{ IB_QPS_RTR, IB_QPS_RTS, IB_QP_SQ_PSN,
	  IB_QP_CUR_STATE | IB_QP_QKEY },
	{ IB_QPS_RTS, IB_QPS_RTS, 0, IB_QP_CUR_STATE | IB_QP_QKEY },
	{ IB_QPS_RTS, IB_QPS_SQD, 0, IB_QP_EN_SQD_ASYNC_NOTIFY },
	{ IB_QPS_SQD, IB_QPS_RTS, 0, IB_QP_CUR_STATE | IB_QP_QKEY },
	{ IB_QPS_SQD, IB_QPS_SQD, 0, IB_QP_PKEY_INDEX | IB_QP_QKEY },
	{ IB_QPS_SQE, IB_QPS_RTS, 0, IB_QP_CUR_STATE | IB_QP_QKEY },
};

static const struct attr_row xrc_ini_rows[] = {
	{ IB_QPS_RESET, IB_QPS_INIT,
	  IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_ACCESS_FLAGS, 0 },
	{ IB_QPS_INIT, IB_QPS_INIT,
	  0, IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_ACCESS_FLAGS },
	{ IB_QPS_INIT, IB_QPS_RTR,
	  IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN,
	  IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX },
	{ IB_QPS_RTR, IB_QPS_RTS,
	  IB_QP_TIMEOUT | IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | IB_QP_SQ_PSN |
	  IB_QP_MAX_QP_RD_ATOMIC,
	  IB_QP_CUR_STATE | IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS |
	  IB_QP_PATH_MIG_STATE },
	{ IB_QPS_RTS, IB_QPS_RTS,
	  0, IB_QP_CUR_STATE | IB_QP_ACCESS_FLAGS | IB_QP_ALT_PATH |
	  IB_QP_PATH_MIG_STATE },
	{ IB_QPS_RTS, IB_QPS_SQD, 0, IB_QP_EN_SQD_ASYNC_NOTIFY },
	{ IB_QPS_SQD, IB_QPS_RTS,
	  0, IB_QP_CUR_STATE | IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS |
	  IB_QP_PATH_MIG_STATE },
	{ IB_QPS_SQD, IB_QPS_SQD,
	  0, IB_QP_PORT | IB_QP_AV | IB_QP_TIMEOUT | IB_QP_RETRY_CNT |
	  IB_QP_RNR_RETRY | IB_QP_MAX_QP_RD_ATOMIC | IB_QP_ALT_PATH |
	  IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX | IB_QP_PATH_MIG_STATE },
};

static const struct attr_row xrc_tgt_rows[] = {
	{ IB_QPS_RESET, IB_QPS_INIT,
	  IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_ACCESS_FLAGS, 0 },
	{ IB_QPS_INIT, IB_QPS_INIT,
	  0, IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_ACCESS_FLAGS },
	{ IB_QPS_INIT, IB_QPS_RTR,
	  IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN |
	  IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER,
	  IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX },
	{ IB_QPS_RTR, IB_QPS_RTS, IB_QP_TIMEOUT | IB_QP_SQ_PSN,
	  IB_QP_CUR_STATE | IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS |
	  IB_QP_MIN_RNR_TIMER | IB_QP_PATH_MIG_STATE },
	{ IB_QPS_RTS, IB_QPS_RTS,
	  0, IB_QP_CUR_STATE | IB_QP_ACCESS_FLAGS | IB_QP_ALT_PATH |
	  IB_QP_PATH_MIG_STATE | IB_QP_MIN_RNR_TIMER },
	{ IB_QPS_RTS, IB_QPS_SQD, 0, IB_QP_EN_SQD_ASYNC_NOTIFY },
	{ IB_QPS_SQD, IB_QPS_RTS,
	  0, IB_QP_CUR_STATE | IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS |
	  IB_QP_MIN_RNR_TIMER | IB_QP_PATH_MIG_STATE },
	{ IB_QPS_SQD, IB_QPS_SQD,
	  0, IB_QP_PORT | IB_QP_AV | IB_QP_TIMEOUT |
	  IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS |
	  IB_QP_PKEY_INDEX | IB_QP_MIN_RNR_TIMER | IB_QP_PATH_MIG_STATE },
};

static const struct attr_row raw_packet_rows[] = {
	{ IB_QPS_RESET, IB_QPS_INIT, IB_QP_PORT, 0 },
	{ IB_QPS_RTR, IB_QPS_RTS, 0, IB_QP_RATE_LIMIT },
	{ IB_QPS_RTS, IB_QPS_RTS, 0, IB_QP_RATE_LIMIT },
};

/* the raw IPv6 and Ethertype types have no attribute anywhere */
static const struct attr_row no_rows[] = {
	{ IB_QPS_RESET, IB_QPS_RESET, 0, 0 },
};

static const struct qpt_rules qpt_rules[] = {
	{ IB_QPT_RC, "RC", ROWS(rc_rows) },
	{ IB_QPT_UC, "UC", ROWS(uc_rows) },
	{ IB_QPT_UD, "UD", ROWS(ud_rows) },
	{ IB_QPT_SMI, "SMI", ROWS(mad_rows) },
	{ IB_QPT_GSI, "GSI", ROWS(mad_rows) },
	{ IB_QPT_XRC_INI, "XRC_INI", ROWS(xrc_ini_rows) },
	{ IB_QPT_XRC_TGT, "XRC_TGT", ROWS(xrc_tgt_rows) },
	{ IB_QPT_RAW_PACKET, "RAW_PACKET", ROWS(raw_packet_rows) },
	{ IB_QPT_RAW_IPV6, "RAW_IPV6", ROWS(no_rows) },
	{ IB_QPT_RAW_ETHERTYPE, "RAW_ETHERTYPE", ROWS(no_rows) },
};

static void qpt_desc(const struct qpt_rules *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(qpt, qpt_rules, qpt_desc);

static const char * const state_names[NSTATES] = {
	"RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR"
};

/* The attributes of (from, to) for the QP type; zero when unlisted. */
static void lookup(const struct qpt_rules *r, enum ib_qp_state from,
		   enum ib_qp_state to, u32 *req, u32 *opt)
{
	unsigned int i;

	*req = 0;
	*opt = 0;
	for (i = 0; i < r->nrows; i++) {
		if (r->rows[i].from == from && r->rows[i].to == to) {
			*req = r->rows[i].req;
			*opt = r->rows[i].opt;
			return;
		}
	}
}

static bool ok(enum ib_qp_state from, enum ib_qp_state to,
	       enum ib_qp_type type, u32 mask)
{
	return ib_modify_qp_is_ok(from, to, type, (enum ib_qp_attr_mask)mask);
}

/* Every bit ib_qp_attr_mask defines, IB_QP_STATE aside. */
#define ALL_ATTR_BITS	(GENMASK(25, 1))

/* The transitions that exist are accepted, the others never. */
static void qp_state_arrows(struct kunit *test)
{
	const struct qpt_rules *r = test->param_value;
	enum ib_qp_state from, to;
	u32 req, opt;
	bool got;

	for (from = 0; from < NSTATES; from++) {
		for (to = 0; to < NSTATES; to++) {
			lookup(r, from, to, &req, &opt);
			KUNIT_EXPECT_EQ_MSG(test, ok(from, to, r->type,
						     IB_QP_STATE | req),
					    arrow[from][to],
					    "%s -> %s", state_names[from],
					    state_names[to]);
			/* no attribute at all opens a missing arrow */
			got = ok(from, to, r->type,
				 IB_QP_STATE | ALL_ATTR_BITS);
			if (!arrow[from][to])
				KUNIT_EXPECT_FALSE_MSG(test, got,
						       "%s -> %s with every attribute",
						       state_names[from],
						       state_names[to]);
		}
	}
}

/* Leaving out any one required attribute makes the modify invalid. */
static void qp_state_required(struct kunit *test)
{
	const struct qpt_rules *r = test->param_value;
	enum ib_qp_state from, to;
	u32 req, opt, bit;
	bool got;

	for (from = 0; from < NSTATES; from++) {
		for (to = 0; to < NSTATES; to++) {
			if (!arrow[from][to])
				continue;
			lookup(r, from, to, &req, &opt);
			for (bit = 1; bit; bit <<= 1) {
				if (!(req & bit))
					continue;
				got = ok(from, to, r->type,
					 IB_QP_STATE | (req & ~bit) | opt);
				KUNIT_EXPECT_FALSE_MSG(test, got,
						       "%s -> %s without 0x%x",
						       state_names[from],
						       state_names[to], bit);
			}
			/* the full set, and the full set plus the options */
			KUNIT_EXPECT_TRUE(test, ok(from, to, r->type,
						   IB_QP_STATE | req));
			got = ok(from, to, r->type, IB_QP_STATE | req | opt);
			KUNIT_EXPECT_TRUE_MSG(test, got,
					      "%s -> %s with all optional attributes",
					      state_names[from], state_names[to]);
		}
	}
}

/*
 * Each optional attribute is fine alone; every attribute that is neither
 * required nor optional is refused.
 */
static void qp_state_optional(struct kunit *test)
{
	const struct qpt_rules *r = test->param_value;
	enum ib_qp_state from, to;
	u32 req, opt, bit;
	bool got;

	for (from = 0; from < NSTATES; from++) {
		for (to = 0; to < NSTATES; to++) {
			if (!arrow[from][to])
				continue;
			lookup(r, from, to, &req, &opt);
			for (bit = IB_QP_CUR_STATE; bit <= IB_QP_RATE_LIMIT;
			     bit <<= 1) {
				if (req & bit)
					continue;
				got = ok(from, to, r->type,
					 IB_QP_STATE | req | bit);
				KUNIT_EXPECT_EQ_MSG(test, got, !!(opt & bit),
						    "%s -> %s with 0x%x",
						    state_names[from],
						    state_names[to], bit);
			}
		}
	}
}

/* A modify without IB_QP_STATE is checked as current -> current. */
static void qp_state_no_state_bit(struct kunit *test)
{
	const struct qpt_rules *r = test->param_value;
	enum ib_qp_state s;
	u32 req, opt;

	for (s = 0; s < NSTATES; s++) {
		lookup(r, s, s, &req, &opt);
		KUNIT_EXPECT_EQ_MSG(test, ok(s, s, r->type, req | opt),
				    arrow[s][s], "stay in %s", state_names[s]);
	}
}

/* IB_QP_CUR_STATE only where the table lists it, never from the rest. */
static void qp_state_cur_state(struct kunit *test)
{
	const struct qpt_rules *r = test->param_value;
	enum ib_qp_state from, to;
	u32 req, opt;
	bool got;

	for (from = 0; from < NSTATES; from++) {
		bool allowed_from = from == IB_QPS_RTR || from == IB_QPS_RTS ||
				    from == IB_QPS_SQD || from == IB_QPS_SQE;

		for (to = 0; to < NSTATES; to++) {
			lookup(r, from, to, &req, &opt);
			if (allowed_from)
				continue;
			got = ok(from, to, r->type,
				 IB_QP_STATE | IB_QP_CUR_STATE | req | opt);
			KUNIT_EXPECT_FALSE(test, got);
		}
	}
}

/* Out of range states and types, and driver reserved bits. */
static void qp_state_bad_input(struct kunit *test)
{
	const struct qpt_rules *r = test->param_value;
	u32 req, opt;

	lookup(r, IB_QPS_RESET, IB_QPS_INIT, &req, &opt);
	KUNIT_EXPECT_FALSE(test, ok(IB_QPS_ERR + 1, IB_QPS_RESET, r->type,
				    IB_QP_STATE));
	KUNIT_EXPECT_FALSE(test, ok(IB_QPS_RESET, IB_QPS_ERR + 1, r->type,
				    IB_QP_STATE));
	KUNIT_EXPECT_FALSE(test, ok((enum ib_qp_state)-1, IB_QPS_RESET,
				    r->type, IB_QP_STATE));
	KUNIT_EXPECT_FALSE(test, ok(IB_QPS_RESET, IB_QPS_INIT, IB_QPT_MAX,
				    IB_QP_STATE | req));
	KUNIT_EXPECT_FALSE(test, ok(IB_QPS_RESET, IB_QPS_INIT,
				    IB_QPT_DRIVER, IB_QP_STATE | req));
	KUNIT_EXPECT_FALSE(test, ok(IB_QPS_RESET, IB_QPS_INIT, r->type,
				    IB_QP_STATE | req | IB_QP_RESERVED1));
	KUNIT_EXPECT_FALSE(test, ok(IB_QPS_RESET, IB_QPS_INIT, r->type,
				    IB_QP_STATE | req | BIT(30)));
	KUNIT_EXPECT_TRUE(test, ok(IB_QPS_RESET, IB_QPS_INIT, r->type,
				   IB_QP_STATE | req));
}

static struct kunit_case rdma_qp_state_cases[] = {
	KUNIT_CASE_PARAM(qp_state_arrows, qpt_gen_params),
	KUNIT_CASE_PARAM(qp_state_required, qpt_gen_params),
	KUNIT_CASE_PARAM(qp_state_optional, qpt_gen_params),
	KUNIT_CASE_PARAM(qp_state_no_state_bit, qpt_gen_params),
	KUNIT_CASE_PARAM(qp_state_cur_state, qpt_gen_params),
	KUNIT_CASE_PARAM(qp_state_bad_input, qpt_gen_params),
	{}
};

static struct kunit_suite rdma_qp_state_suite = {
	.name = "rdma_qp_state",
	.test_cases = rdma_qp_state_cases,
};

kunit_test_suite(rdma_qp_state_suite);

MODULE_DESCRIPTION("KUnit tests of the RDMA QP state machine");
MODULE_LICENSE("Dual BSD/GPL");
