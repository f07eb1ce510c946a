// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * process_mad of rdmavt's InfiniBand devices: the MAD layer hands every
 * subnet management packet and performance management MAD that reaches
 * a port (or that the host sends to it) to the device, as it does with
 * hardware; the device's agents answer them.
 *
 *   classes 0x01 and 0x81   the subnet management agent (mad_sma.c)
 *   class 0x04              the performance management agent (mad_pma.c)
 *   anything else           not ours: IB_MAD_RESULT_SUCCESS alone, the
 *                           MAD layer goes on with its own agents
 */

#include <rdma/ib_mad.h>
#include <rdma/rdma_vt.h>

#include "vt.h"
#include "mad.h"

/*
 * Turn the request in *@hdr (out_mad, a copy of the request) into its
 * response: GetResp, with the direction bit of a directed-route SMP set
 * (the MAD layer's SMI code does the rest of the route).
 */
int rvt_mad_reply(struct ib_mad_hdr *hdr)
{
	hdr->method = IB_MGMT_METHOD_GET_RESP;
	if (hdr->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		hdr->status |= IB_SMP_DIRECTION;
	return IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY;
}

/**
 * rvt_process_mad - the management agents of an rdmavt port
 * @ibdev: the device
 * @mad_flags: enum ib_process_mad_flags; IB_MAD_IGNORE_MKEY skips the
 *	M_Key check
 * @port_num: the port the MAD arrived on (or is sent to locally)
 * @in_wc: the work completion of the MAD (unused)
 * @in_grh: its GRH (unused)
 * @in_mad: the MAD
 * @out_mad: the response, when the result has IB_MAD_RESULT_REPLY
 * @out_mad_size: the size of @out_mad (an IB MAD: left as it is)
 * @out_mad_pkey_index: unused
 *
 * The device's ib_device_ops.process_mad unless the driver installs its
 * own (which may call this one for what it does not handle).  Answers
 * SubnGet/SubnSet of the attributes a channel adapter has, and Get/Set
 * of ClassPortInfo, PortCounters and PortCountersExtended; see
 * Documentation/core/verbs.rst, "Port management".
 *
 * Context: Any context; does not sleep.  Takes the port's mgmt_lock
 * (interrupts saved) and may dispatch asynchronous events.
 *
 * Return: enum ib_mad_result bits: SUCCESS alone when the MAD is not for
 * the device's agents; SUCCESS | REPLY with *@out_mad the response;
 * SUCCESS | CONSUMED when the MAD is dropped (an M_Key violation) or
 * needs no answer; FAILURE for a bad port.
 */
int rvt_process_mad(struct ib_device *ibdev, int mad_flags, u32 port_num,
		    const struct ib_wc *in_wc, const struct ib_grh *in_grh,
		    const struct ib_mad *in_mad, struct ib_mad *out_mad,
		    size_t *out_mad_size, u16 *out_mad_pkey_index)
{
	if (!rdma_is_port_valid(ibdev, port_num) || !in_mad || !out_mad)
		return IB_MAD_RESULT_FAILURE;
	if (in_mad->mad_hdr.base_version != IB_MGMT_BASE_VERSION)
		return IB_MAD_RESULT_SUCCESS;
	/*
	 * Answers and traps are for an agent (an SM, a performance
	 * manager), never for the SMA or the PMA, whatever their class
	 * version: an answer to them would answer an answer.
	 */
	if (in_mad->mad_hdr.method & IB_MGMT_METHOD_RESP ||
	    in_mad->mad_hdr.method == IB_MGMT_METHOD_TRAP)
		return IB_MAD_RESULT_SUCCESS;

	switch (in_mad->mad_hdr.mgmt_class) {
	case IB_MGMT_CLASS_SUBN_LID_ROUTED:
	case IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE:
		return rvt_sma_process(ibdev, mad_flags, port_num, in_mad,
				       out_mad);
	case IB_MGMT_CLASS_PERF_MGMT:
		return rvt_pma_process(ibdev, port_num, in_mad, out_mad);
	default:
		return IB_MAD_RESULT_SUCCESS;
	}
}
EXPORT_SYMBOL(rvt_process_mad);
