// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The QP state machine of the InfiniBand specification (IBTA vol. 1,
 * chapter 10.3 and 11.2.5): which transitions exist and, per QP type,
 * which attributes a Modify QP must carry and which it may carry.
 * Drivers call ib_modify_qp_is_ok() before they apply a modify.
 */

#include <rdma/ib_verbs.h>

/*
 * Attribute sets that repeat through the table.  The connected types
 * (RC, UC, XRC) name their path, the datagram types (UD, SMI, GSI) their
 * Q_Key.
 */
#define PORT_PKEY	(IB_QP_PKEY_INDEX | IB_QP_PORT)
#define CONN_INIT	(PORT_PKEY | IB_QP_ACCESS_FLAGS)
#define DGRAM_KEYS	(IB_QP_PKEY_INDEX | IB_QP_QKEY)
#define RTR_PATH	(IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN | \
			 IB_QP_RQ_PSN)
#define RTR_RESPONDER	(IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER)
#define RTS_REQUESTER	(IB_QP_TIMEOUT | IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | \
			 IB_QP_SQ_PSN | IB_QP_MAX_QP_RD_ATOMIC)
#define CONN_RTS_OPT	(IB_QP_CUR_STATE | IB_QP_ALT_PATH | \
			 IB_QP_ACCESS_FLAGS | IB_QP_PATH_MIG_STATE)
#define DGRAM_RTS_OPT	(IB_QP_CUR_STATE | IB_QP_QKEY)
/* optional attributes per QP type of every move into RTS */
#define TO_RTS_OPT							\
	[IB_QPT_RC] = CONN_RTS_OPT | IB_QP_MIN_RNR_TIMER,		\
	[IB_QPT_XRC_TGT] = CONN_RTS_OPT | IB_QP_MIN_RNR_TIMER,		\
	[IB_QPT_UC] = CONN_RTS_OPT,					\
	[IB_QPT_XRC_INI] = CONN_RTS_OPT,				\
	[IB_QPT_UD] = DGRAM_RTS_OPT,					\
	[IB_QPT_SMI] = DGRAM_RTS_OPT,					\
	[IB_QPT_GSI] = DGRAM_RTS_OPT

/**
 * struct qp_transition - one arrow of the state diagram
 * @valid: the transition exists
 * @req: attributes a modify must carry, per QP type
 * @opt: attributes it may carry besides @req and IB_QP_STATE, per QP type
 *
 * A QP type with neither required nor optional attributes may still make
 * a valid transition carrying IB_QP_STATE alone.
 */
struct qp_transition {
	bool		valid;
	u32		req[IB_QPT_MAX];
	u32		opt[IB_QPT_MAX];
};

/* To RESET and to ERR: allowed from every state, with no attribute. */
#define TO_ANY		{ .valid = true }

static const struct qp_transition
qp_transitions[IB_QPS_ERR + 1][IB_QPS_ERR + 1] = {
	[IB_QPS_RESET] = {
		[IB_QPS_RESET] = TO_ANY,
		[IB_QPS_INIT] = {
			.valid = true,
			.req = {
				[IB_QPT_RC] = CONN_INIT,
				[IB_QPT_UC] = CONN_INIT,
				[IB_QPT_XRC_INI] = CONN_INIT,
				[IB_QPT_XRC_TGT] = CONN_INIT,
				[IB_QPT_UD] = PORT_PKEY | IB_QP_QKEY,
				[IB_QPT_SMI] = DGRAM_KEYS,
				[IB_QPT_GSI] = DGRAM_KEYS,
				[IB_QPT_RAW_PACKET] = IB_QP_PORT,
			},
		},
	},
	[IB_QPS_INIT] = {
		[IB_QPS_RESET] = TO_ANY,
		[IB_QPS_ERR] = TO_ANY,
		[IB_QPS_INIT] = {
			.valid = true,
			.opt = {
				[IB_QPT_RC] = CONN_INIT,
				[IB_QPT_UC] = CONN_INIT,
				[IB_QPT_XRC_INI] = CONN_INIT,
				[IB_QPT_XRC_TGT] = CONN_INIT,
				[IB_QPT_UD] = PORT_PKEY | IB_QP_QKEY,
				[IB_QPT_SMI] = DGRAM_KEYS,
				[IB_QPT_GSI] = DGRAM_KEYS,
			},
		},
		[IB_QPS_RTR] = {
			.valid = true,
			.req = {
				[IB_QPT_RC] = RTR_PATH | RTR_RESPONDER,
				[IB_QPT_UC] = RTR_PATH,
				[IB_QPT_XRC_INI] = RTR_PATH,
				[IB_QPT_XRC_TGT] = RTR_PATH | RTR_RESPONDER,
			},
			.opt = {
				[IB_QPT_RC] = IB_QP_ALT_PATH |
					IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX,
				[IB_QPT_UC] = IB_QP_ALT_PATH |
					IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX,
				[IB_QPT_XRC_INI] = IB_QP_ALT_PATH |
					IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX,
				[IB_QPT_XRC_TGT] = IB_QP_ALT_PATH |
					IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX,
				[IB_QPT_UD] = DGRAM_KEYS,
				[IB_QPT_SMI] = DGRAM_KEYS,
				[IB_QPT_GSI] = DGRAM_KEYS,
			},
		},
	},
	[IB_QPS_RTR] = {
		[IB_QPS_RESET] = TO_ANY,
		[IB_QPS_ERR] = TO_ANY,
		[IB_QPS_RTS] = {
			.valid = true,
			.req = {
				[IB_QPT_RC] = RTS_REQUESTER,
				[IB_QPT_XRC_INI] = RTS_REQUESTER,
				[IB_QPT_XRC_TGT] = IB_QP_TIMEOUT | IB_QP_SQ_PSN,
				[IB_QPT_UC] = IB_QP_SQ_PSN,
				[IB_QPT_UD] = IB_QP_SQ_PSN,
				[IB_QPT_SMI] = IB_QP_SQ_PSN,
				[IB_QPT_GSI] = IB_QP_SQ_PSN,
			},
			.opt = {
				TO_RTS_OPT,
				[IB_QPT_RAW_PACKET] = IB_QP_RATE_LIMIT,
			},
		},
	},
	[IB_QPS_RTS] = {
		[IB_QPS_RESET] = TO_ANY,
		[IB_QPS_ERR] = TO_ANY,
		[IB_QPS_RTS] = {
			.valid = true,
			.opt = {
				TO_RTS_OPT,
				[IB_QPT_RAW_PACKET] = IB_QP_RATE_LIMIT,
			},
		},
		[IB_QPS_SQD] = {
			.valid = true,
			.opt = {
				[IB_QPT_RC] = IB_QP_EN_SQD_ASYNC_NOTIFY,
				[IB_QPT_UC] = IB_QP_EN_SQD_ASYNC_NOTIFY,
				[IB_QPT_XRC_INI] = IB_QP_EN_SQD_ASYNC_NOTIFY,
				[IB_QPT_XRC_TGT] = IB_QP_EN_SQD_ASYNC_NOTIFY,
				[IB_QPT_UD] = IB_QP_EN_SQD_ASYNC_NOTIFY,
				[IB_QPT_SMI] = IB_QP_EN_SQD_ASYNC_NOTIFY,
				[IB_QPT_GSI] = IB_QP_EN_SQD_ASYNC_NOTIFY,
			},
		},
	},
	[IB_QPS_SQD] = {
		[IB_QPS_RESET] = TO_ANY,
		[IB_QPS_ERR] = TO_ANY,
		[IB_QPS_RTS] = {
			.valid = true,
			.opt = {
				TO_RTS_OPT,
			},
		},
		/* while drained, the paths and limits may change */
		[IB_QPS_SQD] = {
			.valid = true,
			.opt = {
				[IB_QPT_RC] = IB_QP_PORT | IB_QP_AV |
					(RTS_REQUESTER & ~IB_QP_SQ_PSN) |
					IB_QP_MAX_DEST_RD_ATOMIC |
					IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS |
					IB_QP_PKEY_INDEX |
					IB_QP_MIN_RNR_TIMER |
					IB_QP_PATH_MIG_STATE,
				[IB_QPT_XRC_INI] = IB_QP_PORT | IB_QP_AV |
					(RTS_REQUESTER & ~IB_QP_SQ_PSN) |
					IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS |
					IB_QP_PKEY_INDEX |
					IB_QP_PATH_MIG_STATE,
				[IB_QPT_XRC_TGT] = IB_QP_PORT | IB_QP_AV |
					IB_QP_TIMEOUT |
					IB_QP_MAX_DEST_RD_ATOMIC |
					IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS |
					IB_QP_PKEY_INDEX |
					IB_QP_MIN_RNR_TIMER |
					IB_QP_PATH_MIG_STATE,
				[IB_QPT_UC] = IB_QP_AV | IB_QP_ALT_PATH |
					IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX |
					IB_QP_PATH_MIG_STATE,
				[IB_QPT_UD] = DGRAM_KEYS,
				[IB_QPT_SMI] = DGRAM_KEYS,
				[IB_QPT_GSI] = DGRAM_KEYS,
			},
		},
	},
	[IB_QPS_SQE] = {
		[IB_QPS_RESET] = TO_ANY,
		[IB_QPS_ERR] = TO_ANY,
		/* SQ error exists for unreliable types only */
		[IB_QPS_RTS] = {
			.valid = true,
			.opt = {
				[IB_QPT_UC] = IB_QP_CUR_STATE |
					IB_QP_ACCESS_FLAGS,
				[IB_QPT_UD] = DGRAM_RTS_OPT,
				[IB_QPT_SMI] = DGRAM_RTS_OPT,
				[IB_QPT_GSI] = DGRAM_RTS_OPT,
			},
		},
	},
	[IB_QPS_ERR] = {
		[IB_QPS_RESET] = TO_ANY,
		[IB_QPS_ERR] = TO_ANY,
	},
};

/**
 * ib_modify_qp_is_ok - check a Modify QP against the state machine
 * @cur_state: the QP's current state
 * @next_state: the state asked for (the current one without IB_QP_STATE)
 * @type: the QP type
 * @mask: the attributes the modify carries (enum ib_qp_attr_mask)
 *
 * IB_QP_CUR_STATE is only accepted from RTR, RTS, SQD and SQE.  Driver
 * reserved bits and IB_QP_RATE_LIMIT outside the transitions that list
 * it make the modify invalid.
 *
 * Context: Any context; a table lookup that takes no lock and does not sleep.
 *
 * Return: true when @next_state can be reached from @cur_state by a QP of
 * @type and @mask holds every required attribute and no other than the
 * optional ones.
 */
bool ib_modify_qp_is_ok(enum ib_qp_state cur_state,
			enum ib_qp_state next_state, enum ib_qp_type type,
			enum ib_qp_attr_mask mask)
{
	const struct qp_transition *t;
	u32 req, opt;

	if ((unsigned int)cur_state > IB_QPS_ERR ||
	    (unsigned int)next_state > IB_QPS_ERR ||
	    (unsigned int)type >= IB_QPT_MAX)
		return false;

	if ((mask & IB_QP_CUR_STATE) &&
	    cur_state != IB_QPS_RTR && cur_state != IB_QPS_RTS &&
	    cur_state != IB_QPS_SQD && cur_state != IB_QPS_SQE)
		return false;

	t = &qp_transitions[cur_state][next_state];
	if (!t->valid)
		return false;

	req = t->req[type];
	opt = t->opt[type];
	if ((mask & req) != req)
		return false;
	return !(mask & ~(req | opt | IB_QP_STATE));
}
EXPORT_SYMBOL(ib_modify_qp_is_ok);
