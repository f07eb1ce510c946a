// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The traffic counters of a port, which the PMA (mad_pma.c) reports.
 *
 * The in-memory delivery moves whole messages, but the counters say what
 * an InfiniBand link would have carried: a message of len bytes goes as
 * max(1, ceil(len / path MTU)) packets (a datagram as one), and each
 * packet counts its bytes from the LRH to the ICRC, as IBTA 16.1.3.5
 * defines PortXmitData (the start delimiter and the VCRC are not
 * counted), divided by 4:
 *
 *   every packet   LRH 8, GRH 40 when the path has one, BTH 12, ICRC 4
 *   UD             + DETH 8
 *   SEND           + ImmDt 4 or IETH 4 on the last packet
 *   RDMA WRITE     + RETH 16 on the first, ImmDt 4 on the last
 *   RDMA READ      request: + RETH 16, no payload; response: the data,
 *                  + AETH 4 on the first and on the last packet
 *   atomics        request: + AtomicETH 28; response: + AETH 4 +
 *                  AtomicAckETH 8
 *   RC ACK/NAK     + AETH 4, one per RC message (no coalescing), also
 *                  for an RNR NAK
 *
 * and the payload padded to 4 bytes.  Each try of an RC request that
 * waits for an RNR or retry timer counts again, as it would go again on
 * a wire.  Traffic between a port and itself never reaches a link and is
 * not counted; a multicast datagram counts once at its sender and once
 * at each other port with a member of the group.  Wire drivers
 * (xmit_wqe) count nothing here.
 *
 * Counting: per CPU, this_cpu_add() in the engine, no lock.  Reading
 * sums the CPUs.  A Set that clears counters records the current sums
 * as their zero (pma_zero, under the port's mgmt_lock); the values are
 * the sums less the zeros.
 */

#include <linux/percpu.h>
#include <kunit/visibility.h>
#include <rdma/rdma_vt.h>

#include "vt.h"
#include "engine.h"
#include "mad.h"

#define RVT_LRH		8
#define RVT_GRH		40
#define RVT_BTH		12
#define RVT_DETH	8
#define RVT_RETH	16
#define RVT_AETH	4
#define RVT_ATOMIC_ETH	28
#define RVT_ATOMIC_ACK	8
#define RVT_IMM		4
#define RVT_ICRC	4

/*
 * @len payload bytes in packets of at most @pmtu bytes, each with @hdr
 * bytes of headers, plus @extra bytes of headers in some of them.
 */
static void rvt_wire_msg(struct rvt_wire *w, u32 len, u32 pmtu, u32 hdr,
			 u32 extra)
{
	w->pkts = len ? DIV_ROUND_UP(len, pmtu) : 1;
	w->words = (w->pkts * hdr + extra + ALIGN(len, 4)) / 4;
}

/* The address vector of @qp's packets: the AH's, or the QP's path. */
static const struct rdma_ah_attr *rvt_wire_av(struct rvt_qp *qp,
					      struct rvt_swqe *wqe)
{
	if (rvt_datagram(qp))
		return &container_of(wqe->ud_wr.ah, struct rvt_ah, ibah)->attr;
	return &qp->remote_ah_attr;
}

/* The headers every packet of @qp carries: LRH, GRH if any, BTH, ICRC. */
static u32 rvt_wire_hdr(const struct rdma_ah_attr *av)
{
	u32 hdr = RVT_LRH + RVT_BTH + RVT_ICRC;

	if (rdma_ah_get_ah_flags(av) & IB_AH_GRH)
		hdr += RVT_GRH;
	return hdr;
}

/*
 * rvt_wire_of - what request @wqe of @qp puts on the link (@req) and, for
 * RC, what its responder answers when it succeeds (@resp: an ACK, the
 * READ data or the atomic's result).
 */
void rvt_wire_of(struct rvt_qp *qp, struct rvt_swqe *wqe,
		 struct rvt_wire *req, struct rvt_wire *resp)
{
	u32 hdr = rvt_wire_hdr(rvt_wire_av(qp, wqe));
	u32 len = wqe->length, pmtu, imm = 0;
	enum ib_wr_opcode op = wqe->wr.opcode;
	int mtu = ib_mtu_enum_to_int(qp->path_mtu);

	pmtu = mtu > 0 ? mtu : 4096;
	if (op == IB_WR_SEND_WITH_IMM || op == IB_WR_RDMA_WRITE_WITH_IMM ||
	    op == IB_WR_SEND_WITH_INV)
		imm = RVT_IMM;
	/* the answer of a request that succeeded, unless set below */
	rvt_wire_msg(resp, 0, pmtu, hdr, RVT_AETH);

	if (rvt_datagram(qp)) {
		/* one packet, however long */
		rvt_wire_msg(req, len, max(len, 1U), hdr, RVT_DETH + imm);
		return;
	}
	switch (op) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		rvt_wire_msg(req, len, pmtu, hdr, RVT_RETH + imm);
		break;
	case IB_WR_RDMA_READ:
		rvt_wire_msg(req, 0, pmtu, hdr, RVT_RETH);
		rvt_wire_msg(resp, len, pmtu, hdr, 0);
		resp->words += (resp->pkts > 1 ? 2 : 1) * RVT_AETH / 4;
		break;
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		rvt_wire_msg(req, 0, pmtu, hdr, RVT_ATOMIC_ETH);
		rvt_wire_msg(resp, 0, pmtu, hdr, RVT_AETH + RVT_ATOMIC_ACK);
		break;
	default:
		rvt_wire_msg(req, len, pmtu, hdr, imm);
		break;
	}
}

/* rvt_wire_ack - one ACK or NAK packet on @qp's path */
void rvt_wire_ack(struct rvt_qp *qp, struct rvt_wire *ack)
{
	rvt_wire_msg(ack, 0, 1, rvt_wire_hdr(&qp->remote_ah_attr), RVT_AETH);
}

/* rvt_count_xmit - port @ibp sent @w; any context, no lock */
void rvt_count_xmit(struct rvt_ibport *ibp, const struct rvt_wire *w,
		    bool mcast)
{
	struct rvt_pma_counters __percpu *pma = ibp->pma;

	this_cpu_add(pma->c[RVT_PMA_XMIT_DATA], w->words);
	this_cpu_add(pma->c[RVT_PMA_XMIT_PKTS], w->pkts);
	if (mcast)
		this_cpu_add(pma->c[RVT_PMA_MCAST_XMIT], w->pkts);
	else
		this_cpu_add(pma->c[RVT_PMA_UNICAST_XMIT], w->pkts);
}

/* rvt_count_rcv - port @ibp received @w; any context, no lock */
void rvt_count_rcv(struct rvt_ibport *ibp, const struct rvt_wire *w,
		   bool mcast)
{
	struct rvt_pma_counters __percpu *pma = ibp->pma;

	this_cpu_add(pma->c[RVT_PMA_RCV_DATA], w->words);
	this_cpu_add(pma->c[RVT_PMA_RCV_PKTS], w->pkts);
	if (mcast)
		this_cpu_add(pma->c[RVT_PMA_MCAST_RCV], w->pkts);
	else
		this_cpu_add(pma->c[RVT_PMA_UNICAST_RCV], w->pkts);
}

/* The sums over the CPUs, since registration. */
static void rvt_pma_sum(struct rvt_ibport *ibp, u64 *sum)
{
	int cpu, i;

	memset(sum, 0, RVT_PMA_NCOUNTERS * sizeof(*sum));
	for_each_possible_cpu(cpu) {
		struct rvt_pma_counters *p = per_cpu_ptr(ibp->pma, cpu);

		for (i = 0; i < RVT_PMA_NCOUNTERS; i++)
			sum[i] += READ_ONCE(p->c[i]);
	}
}

/**
 * rvt_port_traffic - all a port's traffic counters have counted
 * @rdi: the device
 * @port: its port (1..nports)
 * @val: RVT_PMA_NCOUNTERS entries, by enum rvt_pma_counter: set to the
 *	counts since the device was registered, whatever the port's PMA
 *	cleared since (a switch at the other end of the cable shows the
 *	same traffic, the other way round, from zeros of its own)
 *
 * Context: Any context; takes no lock (the counters are per CPU).
 */
void rvt_port_traffic(struct rvt_dev_info *rdi, u32 port, u64 *val)
{
	struct rvt_ibport *ibp = NULL;

	if (port && port <= rdi->dparms.nports && rdi->ports)
		ibp = rdi->ports[port - 1];
	/* no counters before the registration made them */
	if (!ibp || !READ_ONCE(ibp->pma)) {
		memset(val, 0, RVT_PMA_NCOUNTERS * sizeof(*val));
		return;
	}
	rvt_pma_sum(ibp, val);
}
EXPORT_SYMBOL(rvt_port_traffic);

/*
 * rvt_pma_read - the counters of @ibp since each was last cleared, into
 * @val (RVT_PMA_NCOUNTERS entries).  Takes the port's mgmt_lock.
 */
void rvt_pma_read(struct rvt_ibport *ibp, u64 *val)
{
	unsigned long flags;
	int i;

	rvt_pma_sum(ibp, val);
	spin_lock_irqsave(&ibp->mgmt_lock, flags);
	for (i = 0; i < RVT_PMA_NCOUNTERS; i++)
		val[i] -= ibp->pma_zero.c[i];
	spin_unlock_irqrestore(&ibp->mgmt_lock, flags);
}

/*
 * rvt_pma_clear - set the counters BIT(enum rvt_pma_counter) in @which
 * of @ibp to zero.  Takes the port's mgmt_lock.
 */
void rvt_pma_clear(struct rvt_ibport *ibp, unsigned long which)
{
	u64 sum[RVT_PMA_NCOUNTERS];
	unsigned long flags;
	int i;

	rvt_pma_sum(ibp, sum);
	spin_lock_irqsave(&ibp->mgmt_lock, flags);
	for_each_set_bit(i, &which, RVT_PMA_NCOUNTERS)
		ibp->pma_zero.c[i] = sum[i];
	spin_unlock_irqrestore(&ibp->mgmt_lock, flags);
}

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * rvt_pma_preload - make a counter of a port read a given value
 * @ibp: the port
 * @which: the counter
 * @value: what it reads from now on, before further traffic
 *
 * For the KUnit suites: counters near their limits without sending
 * billions of packets.  Moves the counter's zero, the traffic the
 * engine counts is untouched.
 *
 * Context: Any context; takes the port's mgmt_lock.
 */
void rvt_pma_preload(struct rvt_ibport *ibp, enum rvt_pma_counter which,
		     u64 value)
{
	u64 sum[RVT_PMA_NCOUNTERS];
	unsigned long flags;

	rvt_pma_sum(ibp, sum);
	spin_lock_irqsave(&ibp->mgmt_lock, flags);
	ibp->pma_zero.c[which] = sum[which] - value;
	spin_unlock_irqrestore(&ibp->mgmt_lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(rvt_pma_preload);
#endif
