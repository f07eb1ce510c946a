// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Finding the responder of a request delivered in memory: the device
 * behind the destination LID (the driver's find_dev_by_lid()), the QP
 * behind the destination QP number, whether that QP takes the request
 * now (state, type, connection, Q_Key), and the fan-out of a multicast
 * datagram to the members of its group.  Ports carry data in ACTIVE
 * only (QP0's packets whenever the link is up), and the packets a
 * request and its answer would put on the links are counted here, at
 * both ends, for the PMA (counters.c).
 *
 * A driver whose fabric has a switch of its own routes QP0's and QP1's
 * packets itself (driver_f.route_mad: directed-route SMPs have no LID to
 * be found by, and the switch's own agents answer at its LID) and hands
 * what arrives at a port to rvt_deliver_mad().
 *
 * Context: the engine (sq.c), bottom halves off; RCU read side inside.
 */

#include <rdma/ib_mad.h>
#include <rdma/rdma_vt.h>

#include "vt.h"
#include "engine.h"

/*
 * May port @port of @rdi carry @qp's packets?  Data needs an ACTIVE
 * port; subnet management packets (QP0) pass in any state the link is
 * up in (INIT and ARMED too).
 */
static bool rvt_port_passes(struct rvt_dev_info *rdi, u32 port, bool smi)
{
	if (smi)
		return READ_ONCE(rdi->ports[port - 1]->phys_state) ==
		       IB_PORT_PHYS_STATE_LINK_UP;
	return rvt_port_active(rdi, port);
}

/*
 * The responder QP of @wqe, referenced, or NULL when nobody answers at
 * the destination (an RC requester then retries after its timeout).  The
 * request's packets @wire count as sent at the requester's port and as
 * received at the destination port, unless both are the same port.
 */
struct rvt_qp *rvt_find_dest(struct rvt_qp *qp, struct rvt_swqe *wqe,
			     const struct rvt_wire *wire)
{
	struct rvt_dev_info *rdi = qp->rdi, *dest;
	bool smi = qp->ibqp.qp_type == IB_QPT_SMI;
	struct rvt_qp *dqp = NULL;
	u32 dlid, dqpn, port;

	if (rvt_datagram(qp)) {
		struct rvt_ah *ah = container_of(wqe->ud_wr.ah, struct rvt_ah,
						 ibah);

		dlid = rdma_ah_get_dlid(&ah->attr);
		dqpn = wqe->ud_wr.remote_qpn;
	} else {
		dlid = rdma_ah_get_dlid(&qp->remote_ah_attr);
		dqpn = qp->remote_qpn;
	}

	/* a port that may not send loses the request */
	if (!rvt_port_passes(rdi, qp->port_num, smi))
		return NULL;

	/*
	 * The driver unlinks a device and waits for RCU readers before it
	 * frees it, and destroy waits for them before it lets go of a QP:
	 * both stay valid until the QP is referenced.
	 */
	rcu_read_lock();
	if (!dlid || rvt_port_by_lid(rdi, dlid) == qp->port_num) {
		/* to itself: the packets never reach the link */
		dest = rdi;
		port = qp->port_num;
	} else {
		rvt_count_xmit(rdi->ports[qp->port_num - 1], wire, false);
		dest = rdi->driver_f.find_dev_by_lid(rdi, qp->port_num, dlid);
		port = dest ? rvt_port_by_lid(dest, dlid) : 0;
		if (port && rvt_port_passes(dest, port, dqpn == 0))
			rvt_count_rcv(dest->ports[port - 1], wire, false);
		else
			port = 0;
	}
	if (port)
		dqp = rvt_lookup_qpn(dest, dest->ports[port - 1], dqpn);
	if (dqp)
		rvt_get_qp(dqp);
	rcu_read_unlock();
	return dqp;
}

/*
 * Count what the RC responder of @d answered: @resp when the request
 * succeeded, one ACK-sized NAK otherwise (RNR or error).  Unreliable
 * responders answer nothing; a QP's traffic with its own port is not
 * counted.
 */
void rvt_count_answer(struct rvt_delivery *d, const struct rvt_wire *resp)
{
	struct rvt_qp *qp = d->qp, *dqp = d->dqp;
	struct rvt_wire nak;

	if (qp->ibqp.qp_type != IB_QPT_RC)
		return;
	if (d->rnr || d->dqp_err || d->status != IB_WC_SUCCESS) {
		rvt_wire_ack(qp, &nak);
		resp = &nak;
	}
	/* the QPs' hardware counters count it even on the same port */
	rvt_hw_count(dqp, RVT_CNT_SENT_PKTS, resp->pkts);
	rvt_hw_count(qp, RVT_CNT_RCVD_PKTS, resp->pkts);
	if (dqp->rdi == qp->rdi && dqp->port_num == qp->port_num)
		return;
	rvt_count_xmit(dqp->rdi->ports[dqp->port_num - 1], resp, false);
	rvt_count_rcv(qp->rdi->ports[qp->port_num - 1], resp, false);
}

/*
 * May the responder QP take a request of @qp now?  Read without the
 * responder's locks: a state change racing with this is the same as the
 * request arriving a moment earlier or later.
 */
bool rvt_responder_ok(struct rvt_qp *qp, struct rvt_qp *dqp)
{
	enum ib_qp_state s = READ_ONCE(dqp->state);

	if (s != IB_QPS_RTR && s != IB_QPS_RTS && s != IB_QPS_SQD)
		return false;
	/* UD and GSI talk to each other (MADs are UD datagrams) */
	if (dqp->ibqp.qp_type != qp->ibqp.qp_type &&
	    !(qp->ibqp.qp_type == IB_QPT_UD &&
	      dqp->ibqp.qp_type == IB_QPT_GSI) &&
	    !(qp->ibqp.qp_type == IB_QPT_GSI &&
	      dqp->ibqp.qp_type == IB_QPT_UD))
		return false;
	/* a connected responder answers its own peer only */
	if (!rvt_datagram(qp))
		return dqp->remote_qpn == qp->ibqp.qp_num;
	return true;
}

/*
 * The Q_Key check of a datagram: a Q_Key with the high bit set means
 * "use the sending QP's own" (IBTA 10.2.5).  A mismatch drops the
 * datagram silently; the sender never learns of it, the receiving port
 * counts it.
 */
bool rvt_qkey_ok(struct rvt_qp *qp, struct rvt_qp *dqp, struct rvt_swqe *wqe)
{
	u32 qkey = wqe->ud_wr.remote_qkey;

	if (qkey & 0x80000000)
		qkey = qp->qkey;
	if (qkey == dqp->qkey)
		return true;
	/* counted in the port's PortInfo:Q_KeyViolations */
	rvt_port_qkey_violation(dqp->rdi->ports[dqp->port_num - 1]);
	return false;
}

/* One member of the group gets the datagram (atomic context). */
static void rvt_mcast_recv(struct rvt_qp *dqp, void *arg)
{
	struct rvt_delivery *d = arg;

	if (!rvt_responder_ok(d->qp, dqp) || !rvt_qkey_ok(d->qp, dqp, d->wqe))
		return;
	/* each member reads the data from the start */
	rvt_restart_sge(&d->qp->s_sge, d->wqe, 0);
	/* a member without a receive WQE drops it, as UD does */
	d->dqp = dqp;
	rvt_deliver_recv(d);
	d->dqp = NULL;
	/* a member that missed a page drops it; the engine faults it in */
	d->fault = false;
}

/*
 * Hand a datagram to the members of its multicast group.  Returns false
 * when its address is not a multicast one (deliver it as unicast).  The
 * sender never hears how the members fared.
 */
bool rvt_route_mcast(struct rvt_qp *qp, struct rvt_swqe *wqe,
		     const struct rvt_wire *wire)
{
	struct rvt_ah *ah = container_of(wqe->ud_wr.ah, struct rvt_ah, ibah);
	struct rvt_delivery d = { .qp = qp, .wqe = wqe };

	return rvt_mcast_deliver(qp, &ah->attr, wire, rvt_mcast_recv, &d);
}

/*
 * Offer a QP0 or QP1 datagram to the driver's own routing
 * (driver_f.route_mad), before any delivery by LID.  Returns true when
 * the driver took it (the sender's completion is then a success whatever
 * became of it, as for any datagram), false when the engine routes it as
 * usual.
 */
bool rvt_route_mad(struct rvt_qp *qp, struct rvt_swqe *wqe,
		   const struct rvt_wire *wire)
{
	struct rvt_ah *ah = container_of(wqe->ud_wr.ah, struct rvt_ah, ibah);
	struct rvt_dev_info *rdi = qp->rdi;
	u32 dlid = rdma_ah_get_dlid(&ah->attr);
	u32 port = qp->port_num;
	bool smi = qp->ibqp.qp_type == IB_QPT_SMI;
	u8 mad[IB_MGMT_MAD_SIZE];
	bool taken;

	if (!rdi->driver_f.route_mad || wqe->length > sizeof(mad))
		return false;
	/* for the port itself: never on a link, the engine delivers it */
	if (dlid != be16_to_cpu(IB_LID_PERMISSIVE) &&
	    (!dlid || rvt_port_by_lid(rdi, dlid) == port))
		return false;
	/* a port whose link is down (QP1: not ACTIVE) loses it */
	if (!rvt_port_passes(rdi, port, smi))
		return smi;

	/* a page of on-demand paging memory missing: the engine faults */
	if (!rvt_copy_from_sge(&qp->s_sge, mad, wqe->length)) {
		rvt_restart_sge(&qp->s_sge, wqe, 0);
		return false;
	}
	rcu_read_lock();
	taken = rdi->driver_f.route_mad(rdi, port, smi ? 0 : 1,
					rvt_port_slid(rdi, port,
						      rdma_ah_get_path_bits(&ah->attr)),
					dlid, mad, wqe->length);
	rcu_read_unlock();
	if (taken)
		rvt_count_xmit(rdi->ports[port - 1], wire, false);
	else
		rvt_restart_sge(&qp->s_sge, wqe, 0);
	return taken;
}

/**
 * rvt_deliver_mad - hand a MAD that crossed the driver's fabric to a QP
 * @rdi: the destination device
 * @port: its port the MAD arrives on
 * @dqpn: the destination QP: 0 (SMPs) or 1 (GMPs)
 * @mad: the MAD, in kernel memory
 * @len: its length (256 for an InfiniBand MAD)
 * @slid: the source LID the packet carries (0xFFFF for the directed part
 *	of an SMP's route)
 * @src_qp: the QP number it comes from
 *
 * What a switch of the driver's fabric forwards or answers arrives here
 * as a datagram received on @port: it takes the next receive WQE of the
 * port's QP @dqpn, lands after the 40 bytes a UD receive reserves for a
 * GRH (none is written) and completes with @slid and @src_qp.  QP0's
 * packets need the port's link up, QP1's an ACTIVE port; a port that
 * may not take it, a QP not ready to receive or without a receive WQE
 * drops the MAD silently.  The packet counts as received at @port.
 *
 * Context: Any context but hard interrupts, bottom halves off, inside
 * rcu_read_lock() (@rdi must stay valid, as find_dev_by_lid()'s
 * devices); takes the QP's r_lock and its CQ's lock, may call the CQ's
 * completion handler.
 *
 * Return: true when a receive completed with the MAD, false when it was
 * dropped.
 */
bool rvt_deliver_mad(struct rvt_dev_info *rdi, u32 port, u32 dqpn,
		     const void *mad, u32 len, u32 slid, u32 src_qp)
{
	struct rvt_wire wire = { .pkts = 1 };
	struct ib_wc wc = {};
	struct rvt_qp *qp;
	bool done = false;

	if (!port || port > rdi->dparms.nports || dqpn > 1 ||
	    !rvt_port_passes(rdi, port, dqpn == 0))
		return false;
	/* LRH, BTH, DETH, the MAD, ICRC */
	wire.words = (8 + 12 + 8 + len + 4) / 4;
	rvt_count_rcv(rdi->ports[port - 1], &wire, false);
	rvt_hw_count_port(rdi->ports[port - 1], RVT_CNT_RCVD_PKTS, 1);
	qp = rvt_lookup_qpn(rdi, rdi->ports[port - 1], dqpn);
	if (!qp)
		return false;
	rvt_get_qp(qp);
	if (READ_ONCE(qp->state) != IB_QPS_RTR &&
	    READ_ONCE(qp->state) != IB_QPS_RTS)
		goto out;

	spin_lock_bh(&qp->r_lock);
	/* a WQE whose keys fail completes in error; the MAD is lost */
	if (rvt_recv_begin(qp, false) > 0) {
		wc.opcode = IB_WC_RECV;
		wc.byte_len = len + RVT_GRH_BYTES;
		wc.src_qp = src_qp;
		wc.slid = slid;
		wc.status = rvt_recv_place(qp, RVT_GRH_BYTES, mad, len);
		done = rvt_recv_complete(qp, &wc, false) == IB_WC_SUCCESS;
	}
	spin_unlock_bh(&qp->r_lock);
out:
	rvt_put_qp(qp);
	return done;
}
EXPORT_SYMBOL(rvt_deliver_mad);
