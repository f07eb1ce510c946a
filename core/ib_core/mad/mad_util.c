// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What the management classes look like: which MADs are responses, which
 * classes carry RMPP, where a class's data starts.
 */

#include <linux/export.h>
#include <rdma/ib_mad.h>

#include "mad_priv.h"

/**
 * ib_response_mad - is a MAD a response?
 * @hdr: the MAD's common header
 *
 * Responses are routed to the agent that sent the request (by the upper
 * half of the transaction ID) rather than by class and method: every
 * method with the response bit, TrapRepress, and BM MADs whose attribute
 * modifier says so.
 *
 * Context: Any context.
 * Return: 1 for a response, else 0.
 */
int ib_response_mad(const struct ib_mad_hdr *hdr)
{
	if (hdr->method & IB_MGMT_METHOD_RESP)
		return 1;
	if (hdr->method == IB_MGMT_METHOD_TRAP_REPRESS)
		return 1;
	return hdr->mgmt_class == IB_MGMT_CLASS_BM &&
	       (hdr->attr_mod & IB_BM_ATTR_MOD_RESP);
}
EXPORT_SYMBOL(ib_response_mad);

/**
 * ib_is_mad_class_rmpp - may a class use RMPP?
 * @mgmt_class: the management class
 *
 * Subnet administration, device management and administration, BIS and
 * the vendor classes of range 2.
 *
 * Context: Any context.
 * Return: 1 if it may, else 0.
 */
int ib_is_mad_class_rmpp(u8 mgmt_class)
{
	switch (mgmt_class) {
	case IB_MGMT_CLASS_SUBN_ADM:
	case IB_MGMT_CLASS_DEVICE_MGMT:
	case IB_MGMT_CLASS_DEVICE_ADM:
	case IB_MGMT_CLASS_BIS:
		return 1;
	default:
		return ib_mad_class_is_vendor2(mgmt_class);
	}
}
EXPORT_SYMBOL(ib_is_mad_class_rmpp);

/**
 * ib_get_mad_data_offset - where a class's data starts in its MADs
 * @mgmt_class: the management class
 *
 * Context: Any context.
 * Return: the bytes of headers before the data: the common header, and
 * the RMPP and class headers of the classes that have them.
 */
int ib_get_mad_data_offset(u8 mgmt_class)
{
	switch (mgmt_class) {
	case IB_MGMT_CLASS_SUBN_ADM:
		return IB_MGMT_SA_HDR;
	case IB_MGMT_CLASS_DEVICE_MGMT:
	case IB_MGMT_CLASS_DEVICE_ADM:
	case IB_MGMT_CLASS_BIS:
		return IB_MGMT_DEVICE_HDR;
	default:
		return ib_mad_class_is_vendor2(mgmt_class) ? IB_MGMT_VENDOR_HDR :
							  IB_MGMT_MAD_HDR;
	}
}
EXPORT_SYMBOL(ib_get_mad_data_offset);

/**
 * ib_mad_kernel_rmpp_agent - does the MAD layer run RMPP for an agent?
 * @agent: the agent
 *
 * It does for agents registered with an RMPP version, unless they asked
 * to do RMPP themselves (IB_MAD_USER_RMPP, as ib_umad's users may).
 *
 * Context: Any context.
 * Return: 1 if the MAD layer segments and reassembles for @agent.
 */
int ib_mad_kernel_rmpp_agent(const struct ib_mad_agent *agent)
{
	return agent->rmpp_version && !(agent->flags & IB_MAD_USER_RMPP);
}
EXPORT_SYMBOL(ib_mad_kernel_rmpp_agent);
