// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw: TEMPORARY stand-in for the connection manager's side of
 * siw_stream.h, so that the data path links before siw_cm*.c lands.
 * The CM's own siw_cm_stream_lost() replaces this weak one; delete the
 * file then.
 */

#include "siw.h"
#include "siw_stream.h"

/**
 * siw_cm_stream_lost - TEMPORARY: the stream of @qp failed
 * @qp: the QP
 * @err: -ECONNRESET, -EPROTO or -EIO
 *
 * Only logs: without the CM nobody closes the socket or raises the
 * iw_cm events.
 *
 * Context: any but hard interrupts.
 */
void __weak siw_cm_stream_lost(struct rvt_qp *qp, int err)
{
	ibdev_dbg(qp->ibqp.device, "QP %u: stream lost (%d)\n",
		  qp->ibqp.qp_num, err);
}
