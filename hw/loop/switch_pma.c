// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_loop's switch: its performance management agent (class 0x04,
 * IBTA vol. 1 16.1), answering at the switch's LID what perfquery or a
 * performance manager asks of its external ports.
 *
 *   ClassPortInfo         Get: PortCountersExtended (ExtendedWidth), no
 *                         AllPortSelect
 *   PortCounters          Get; Set clears what CounterSelect names.  The
 *                         32-bit data and packet counters stop at
 *                         0xFFFFFFFF; the error counters stay 0
 *   PortCountersExtended  Get; Set clears what CounterSelect names
 *   anything else         status 0x000c; unknown methods 0x0008
 *
 * A cable carries the same packets at both ends: what switch port P
 * received is what the device cabled to it sent, and the other way
 * round.  So the switch keeps no counters of its own: it reads those of
 * the device's port (rvt_port_traffic(), never cleared) with sent and
 * received swapped, from zeros of its own that a new cable and its own
 * clears set.  A port without a cable reads 0.  PortSelect names an
 * external port (1..N); port 0 (base port 0) has no counters here.
 */

#include <linux/rcupdate.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_pma.h>

#include "loop.h"
#include "switch.h"

#define SW_PMA_UNSUP_METHOD	\
	cpu_to_be16(IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD)
#define SW_PMA_UNSUP_ATTR	\
	cpu_to_be16(IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB)
#define SW_PMA_INVALID	cpu_to_be16(IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE)
#define SW_PMA_BAD_VERSION	cpu_to_be16(IB_MGMT_MAD_STATUS_BAD_VERSION)

/*
 * The counter of the device at the other end that counts what the
 * switch's counter @i counts: enum rvt_pma_counter pairs each sent
 * counter with its received one (XMIT_DATA/RCV_DATA, ...).
 */
static unsigned int sw_pma_mirror(unsigned int i)
{
	return i ^ 1;
}

/**
 * loop_switch_pma_counters - the PMA's counters of a switch port
 * @sw: the switch
 * @p: an external port (1..nports)
 * @val: RVT_PMA_NCOUNTERS entries, by enum rvt_pma_counter, as the
 *	switch's port counts them (sent: toward the device), since their
 *	last clear
 *
 * Context: Inside rcu_read_lock(), under the switch's lock.
 */
void loop_switch_pma_counters(struct loop_switch *sw, u32 p, u64 *val)
{
	struct loop_sw_port *sp = &sw->ports[p];
	u64 dev[RVT_PMA_NCOUNTERS];
	struct loop_dev *peer;
	unsigned int i;

	peer = rcu_dereference(sp->peer);
	if (!peer) {
		memset(val, 0, RVT_PMA_NCOUNTERS * sizeof(*val));
		return;
	}
	rvt_port_traffic(&peer->rdi, 1, dev);
	for (i = 0; i < RVT_PMA_NCOUNTERS; i++)
		val[i] = dev[sw_pma_mirror(i)] - sp->pma_zero[i];
}

/* Clear the counters BIT(enum rvt_pma_counter) in @which of port @p. */
static void sw_pma_clear(struct loop_switch *sw, u32 p, unsigned long which)
{
	u64 now[RVT_PMA_NCOUNTERS];
	unsigned int i;

	loop_switch_pma_counters(sw, p, now);
	for_each_set_bit(i, &which, RVT_PMA_NCOUNTERS)
		sw->ports[p].pma_zero[i] += now[i];
}

static __be16 sw_pma_classportinfo(struct ib_pma_mad *pmp)
{
	memset(pmp->data, 0, sizeof(pmp->data));
	if (pmp->mad_hdr.attr_mod)
		return SW_PMA_INVALID;
	/* rdmavt's, whose counters these are */
	rvt_pma_put_classportinfo((struct ib_class_port_info *)pmp->data);
	return 0;
}

/* PortSelect (byte 1 of both attributes): an external port, or 0 */
static u32 sw_pma_port(struct loop_switch *sw, struct ib_pma_mad *pmp)
{
	u8 sel = pmp->data[1];

	if (pmp->mad_hdr.attr_mod || !sel || sel > sw->nports)
		return 0;
	return sel;
}

/* PortCounters, or with @ext PortCountersExtended: Get, or Set (clear) */
static __be16 sw_pma_counters(struct loop_switch *sw, struct ib_pma_mad *pmp,
			      bool set, bool ext)
{
	struct ib_pma_portcounters_ext *pcx = (void *)pmp->data;
	struct ib_pma_portcounters *pc = (void *)pmp->data;
	u32 p = sw_pma_port(sw, pmp);
	u64 v[RVT_PMA_NCOUNTERS];
	u8 sel = pmp->data[1];

	/* the error counters are 0 and stay so */
	if (p && set)
		sw_pma_clear(sw, p, ext ? rvt_pma_selected_ext(pcx) :
					  rvt_pma_selected(pc));
	memset(pmp->data, 0, sizeof(pmp->data));
	pmp->data[1] = sel;
	if (!p)
		return SW_PMA_INVALID;
	loop_switch_pma_counters(sw, p, v);
	if (ext)
		rvt_pma_put_counters_ext(pcx, v);
	else
		rvt_pma_put_counters(pc, v);
	return 0;
}

static __be16 sw_pma_attr(struct loop_switch *sw, struct ib_pma_mad *pmp)
{
	bool set = pmp->mad_hdr.method == IB_MGMT_METHOD_SET;

	switch (pmp->mad_hdr.attr_id) {
	case IB_PMA_CLASS_PORT_INFO:
		if (set)
			break;
		return sw_pma_classportinfo(pmp);
	case IB_PMA_PORT_COUNTERS:
		return sw_pma_counters(sw, pmp, set, false);
	case IB_PMA_PORT_COUNTERS_EXT:
		return sw_pma_counters(sw, pmp, set, true);
	}
	return SW_PMA_UNSUP_ATTR;
}

/**
 * loop_switch_pma - the switch's PMA answers a GMP addressed to it
 * @sw: the switch
 * @mad: a performance management MAD; becomes the answer (GetResp and
 *	the status)
 *
 * Context: The engine, bottom halves off, inside rcu_read_lock(); takes
 * the switch's lock.
 * Return: true when @mad holds an answer to send back, false when it is
 * not a request (responses, traps) and is dropped.
 */
bool loop_switch_pma(struct loop_switch *sw, struct ib_mad *mad)
{
	struct ib_pma_mad *pmp = (struct ib_pma_mad *)mad;
	unsigned long flags;
	__be16 status;

	if (pmp->mad_hdr.method != IB_MGMT_METHOD_GET &&
	    pmp->mad_hdr.method != IB_MGMT_METHOD_SET) {
		if (pmp->mad_hdr.method & IB_MGMT_METHOD_RESP ||
		    pmp->mad_hdr.method == IB_MGMT_METHOD_TRAP ||
		    pmp->mad_hdr.method == IB_MGMT_METHOD_TRAP_REPRESS)
			return false;
		status = SW_PMA_UNSUP_METHOD;
	} else if (pmp->mad_hdr.class_version != 1) {
		status = SW_PMA_BAD_VERSION;
	} else {
		spin_lock_irqsave(&sw->lock, flags);
		status = sw_pma_attr(sw, pmp);
		spin_unlock_irqrestore(&sw->lock, flags);
	}
	pmp->mad_hdr.status |= status;
	pmp->mad_hdr.method = IB_MGMT_METHOD_GET_RESP;
	return true;
}
