// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The performance management agent (PMA, class 0x04, IBTA vol. 1 16.1)
 * of an rdmavt port: the traffic counters of counters.c as the
 * attributes a performance manager (perfquery, opensm's PerfMgr) reads.
 *
 *   ClassPortInfo         Get: PortCountersExtended with all its
 *                         counters (ExtendedWidth), no AllPortSelect,
 *                         no PortXmitWait
 *   PortCounters          Get; Set clears what CounterSelect names.  The
 *                         32-bit data and packet counters stop at
 *                         0xFFFFFFFF; the error counters (symbol, link,
 *                         receive errors, discards, VL15 drops) and
 *                         PortXmitWait stay 0: an in-memory link has none
 *   PortCountersExtended  Get; Set clears what CounterSelect names
 *   anything else         status 0x000c; unknown methods 0x0008
 *
 * PortCounters and PortCountersExtended show the same counters:
 * clearing PortXmitData in one clears it in the other.  PortSelect names
 * a port of the device (1..nports), whichever port the MAD came in on.
 */

#include <rdma/ib_mad.h>
#include <rdma/ib_pma.h>
#include <rdma/rdma_vt.h>

#include "vt.h"
#include "mad.h"

static int rvt_pma_reply(struct ib_pma_mad *pmp)
{
	return rvt_mad_reply(&pmp->mad_hdr);
}

static int rvt_pma_invalid(struct ib_pma_mad *pmp)
{
	pmp->mad_hdr.status |= RVT_MAD_INVALID_FIELD;
	return rvt_pma_reply(pmp);
}

/**
 * rvt_pma_put_classportinfo - the PMA's ClassPortInfo
 * @cpi: filled (zeroed first): class version 1, PortCountersExtended
 *	with all its counters (ExtendedWidth), no AllPortSelect
 *
 * What rdmavt's PMA answers, and a driver's own PMA (a switch's) of the
 * same counters.
 *
 * Context: Any context.
 */
void rvt_pma_put_classportinfo(struct ib_class_port_info *cpi)
{
	memset(cpi, 0, sizeof(*cpi));
	cpi->base_version = IB_MGMT_BASE_VERSION;
	cpi->class_version = 1;
	cpi->capability_mask = IB_PMA_CLASS_CAP_EXT_WIDTH;
	ib_set_cpi_capmask2(cpi, 0);
	ib_set_cpi_resp_time(cpi, RVT_RESP_TIME);
}
EXPORT_SYMBOL(rvt_pma_put_classportinfo);

static int rvt_pma_classportinfo(struct ib_pma_mad *pmp)
{
	memset(pmp->data, 0, sizeof(pmp->data));
	if (pmp->mad_hdr.attr_mod)
		return rvt_pma_invalid(pmp);
	rvt_pma_put_classportinfo((struct ib_class_port_info *)pmp->data);
	return rvt_pma_reply(pmp);
}

/* 32 bits of a counter, stopping at the largest value (IBTA 16.1.3.5) */
static __be32 rvt_pma_sat32(u64 v)
{
	return cpu_to_be32(min_t(u64, v, U32_MAX));
}

/**
 * rvt_pma_put_counters - PortCounters' data and packet counters
 * @pc: the attribute; its four 32-bit traffic counters are written
 *	(stopping at 0xFFFFFFFF), the rest is left as it is
 * @v: RVT_PMA_NCOUNTERS values, by enum rvt_pma_counter
 *
 * Context: Any context.
 */
void rvt_pma_put_counters(struct ib_pma_portcounters *pc, const u64 *v)
{
	pc->port_xmit_data = rvt_pma_sat32(v[RVT_PMA_XMIT_DATA]);
	pc->port_rcv_data = rvt_pma_sat32(v[RVT_PMA_RCV_DATA]);
	pc->port_xmit_packets = rvt_pma_sat32(v[RVT_PMA_XMIT_PKTS]);
	pc->port_rcv_packets = rvt_pma_sat32(v[RVT_PMA_RCV_PKTS]);
}
EXPORT_SYMBOL(rvt_pma_put_counters);

/**
 * rvt_pma_put_counters_ext - PortCountersExtended's eight counters
 * @pc: the attribute; its eight 64-bit counters are written, the rest is
 *	left as it is
 * @v: RVT_PMA_NCOUNTERS values, by enum rvt_pma_counter
 *
 * Context: Any context.
 */
void rvt_pma_put_counters_ext(struct ib_pma_portcounters_ext *pc,
			      const u64 *v)
{
	pc->port_xmit_data = cpu_to_be64(v[RVT_PMA_XMIT_DATA]);
	pc->port_rcv_data = cpu_to_be64(v[RVT_PMA_RCV_DATA]);
	pc->port_xmit_packets = cpu_to_be64(v[RVT_PMA_XMIT_PKTS]);
	pc->port_rcv_packets = cpu_to_be64(v[RVT_PMA_RCV_PKTS]);
	pc->port_unicast_xmit_packets = cpu_to_be64(v[RVT_PMA_UNICAST_XMIT]);
	pc->port_unicast_rcv_packets = cpu_to_be64(v[RVT_PMA_UNICAST_RCV]);
	pc->port_multicast_xmit_packets = cpu_to_be64(v[RVT_PMA_MCAST_XMIT]);
	pc->port_multicast_rcv_packets = cpu_to_be64(v[RVT_PMA_MCAST_RCV]);
}
EXPORT_SYMBOL(rvt_pma_put_counters_ext);

/**
 * rvt_pma_selected - the counters a PortCounters Set clears
 * @pc: the Set's attribute
 *
 * Context: Any context.
 * Return: BIT(enum rvt_pma_counter) of each traffic counter its
 * CounterSelect names (the error counters have none: they are 0).
 */
unsigned long rvt_pma_selected(const struct ib_pma_portcounters *pc)
{
	unsigned long which = 0;

	if (pc->counter_select & IB_PMA_SEL_PORT_XMIT_DATA)
		which |= BIT(RVT_PMA_XMIT_DATA);
	if (pc->counter_select & IB_PMA_SEL_PORT_RCV_DATA)
		which |= BIT(RVT_PMA_RCV_DATA);
	if (pc->counter_select & IB_PMA_SEL_PORT_XMIT_PACKETS)
		which |= BIT(RVT_PMA_XMIT_PKTS);
	if (pc->counter_select & IB_PMA_SEL_PORT_RCV_PACKETS)
		which |= BIT(RVT_PMA_RCV_PKTS);
	return which;
}
EXPORT_SYMBOL(rvt_pma_selected);

/**
 * rvt_pma_selected_ext - the counters a PortCountersExtended Set clears
 * @pc: the Set's attribute
 *
 * Context: Any context.
 * Return: BIT(enum rvt_pma_counter) of each counter its CounterSelect
 * names (bits 0..7 are the counters in that enum's order).
 */
unsigned long rvt_pma_selected_ext(const struct ib_pma_portcounters_ext *pc)
{
	return be16_to_cpu(pc->counter_select) & (BIT(RVT_PMA_NCOUNTERS) - 1);
}
EXPORT_SYMBOL(rvt_pma_selected_ext);

/*
 * The port a PortCounters or PortCountersExtended names (both have
 * PortSelect at byte 1), or 0 when the MAD is not a good one.
 */
static u32 rvt_pma_port(struct ib_pma_mad *pmp, struct rvt_dev_info *rdi)
{
	u8 sel = pmp->data[1];

	if (pmp->mad_hdr.attr_mod || !sel || sel > rdi->dparms.nports)
		return 0;
	return sel;
}

static int rvt_pma_get_counters(struct ib_pma_mad *pmp,
				struct rvt_dev_info *rdi)
{
	struct ib_pma_portcounters *p = (struct ib_pma_portcounters *)pmp->data;
	u32 port = rvt_pma_port(pmp, rdi);
	u64 v[RVT_PMA_NCOUNTERS];
	u8 sel = p->port_select;

	memset(pmp->data, 0, sizeof(pmp->data));
	p->port_select = sel;
	if (!port)
		return rvt_pma_invalid(pmp);
	rvt_pma_read(rvt_ibport(rdi, port), v);
	rvt_pma_put_counters(p, v);
	return rvt_pma_reply(pmp);
}

static int rvt_pma_set_counters(struct ib_pma_mad *pmp,
				struct rvt_dev_info *rdi)
{
	struct ib_pma_portcounters *p = (struct ib_pma_portcounters *)pmp->data;
	u32 port = rvt_pma_port(pmp, rdi);

	if (!port)
		return rvt_pma_get_counters(pmp, rdi);
	/* the error counters are 0 and stay so */
	rvt_pma_clear(rvt_ibport(rdi, port), rvt_pma_selected(p));
	return rvt_pma_get_counters(pmp, rdi);
}

static int rvt_pma_get_counters_ext(struct ib_pma_mad *pmp,
				    struct rvt_dev_info *rdi)
{
	struct ib_pma_portcounters_ext *p =
		(struct ib_pma_portcounters_ext *)pmp->data;
	u32 port = rvt_pma_port(pmp, rdi);
	u64 v[RVT_PMA_NCOUNTERS];
	u8 sel = p->port_select;

	memset(pmp->data, 0, sizeof(pmp->data));
	p->port_select = sel;
	if (!port)
		return rvt_pma_invalid(pmp);
	rvt_pma_read(rvt_ibport(rdi, port), v);
	rvt_pma_put_counters_ext(p, v);
	return rvt_pma_reply(pmp);
}

static int rvt_pma_set_counters_ext(struct ib_pma_mad *pmp,
				    struct rvt_dev_info *rdi)
{
	struct ib_pma_portcounters_ext *p =
		(struct ib_pma_portcounters_ext *)pmp->data;
	u32 port = rvt_pma_port(pmp, rdi);

	if (!port)
		return rvt_pma_get_counters_ext(pmp, rdi);
	rvt_pma_clear(rvt_ibport(rdi, port), rvt_pma_selected_ext(p));
	return rvt_pma_get_counters_ext(pmp, rdi);
}

/*
 * rvt_pma_process - a performance management MAD reaching port @port.
 * Returns enum ib_mad_result bits, as rvt_process_mad().
 */
int rvt_pma_process(struct ib_device *ibdev, u32 port,
		    const struct ib_mad *in_mad, struct ib_mad *out_mad)
{
	struct ib_pma_mad *pmp = (struct ib_pma_mad *)out_mad;
	struct rvt_dev_info *rdi = ib_to_rvt(ibdev);

	*out_mad = *in_mad;
	if (pmp->mad_hdr.class_version != 1) {
		pmp->mad_hdr.status |= RVT_MAD_BAD_VERSION;
		return rvt_pma_reply(pmp);
	}

	switch (pmp->mad_hdr.method) {
	case IB_MGMT_METHOD_GET:
		switch (pmp->mad_hdr.attr_id) {
		case IB_PMA_CLASS_PORT_INFO:
			return rvt_pma_classportinfo(pmp);
		case IB_PMA_PORT_COUNTERS:
			return rvt_pma_get_counters(pmp, rdi);
		case IB_PMA_PORT_COUNTERS_EXT:
			return rvt_pma_get_counters_ext(pmp, rdi);
		}
		break;
	case IB_MGMT_METHOD_SET:
		switch (pmp->mad_hdr.attr_id) {
		case IB_PMA_PORT_COUNTERS:
			return rvt_pma_set_counters(pmp, rdi);
		case IB_PMA_PORT_COUNTERS_EXT:
			return rvt_pma_set_counters_ext(pmp, rdi);
		}
		break;
	default:
		/* answers and traps never come here (rvt_process_mad()) */
		pmp->mad_hdr.status |= RVT_MAD_UNSUP_METHOD;
		return rvt_pma_reply(pmp);
	}
	pmp->mad_hdr.status |= RVT_MAD_UNSUP_ATTR;
	return rvt_pma_reply(pmp);
}
