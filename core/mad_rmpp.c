// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* TEMPORARY placeholder until RMPP lands (not to be committed). */
#include "mad_priv.h"

int ib_send_rmpp_mad(struct ib_mad_send_wr_private *mad_send_wr)
{
	return IB_RMPP_RESULT_UNHANDLED;
}

struct ib_mad_recv_wc *
ib_process_rmpp_recv_wc(struct ib_mad_agent_private *priv,
			struct ib_mad_recv_wc *mad_recv_wc)
{
	return mad_recv_wc;
}

int ib_process_rmpp_send_wc(struct ib_mad_send_wr_private *mad_send_wr,
			    struct ib_mad_send_wc *mad_send_wc)
{
	return IB_RMPP_RESULT_UNHANDLED;
}

void ib_rmpp_send_handler(struct ib_mad_send_wc *mad_send_wc)
{
}

void ib_cancel_rmpp_recvs(struct ib_mad_agent_private *priv)
{
}

int ib_retry_rmpp(struct ib_mad_send_wr_private *mad_send_wr)
{
	return IB_RMPP_RESULT_UNHANDLED;
}
