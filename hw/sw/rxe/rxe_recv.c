// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The receive path, common to both RoCE versions: parse the transport
 * headers, check the ICRC and the P_Key, find the QP by the BTH's
 * destination QP number and hand the packet to its transport.  What is
 * wrong is dropped and counted (struct rxe_dev.drops, by reason).
 *
 * Softirq context (the UDP socket's encap_rcv, the packet_type's
 * handler, the loopback work of a packet to the device itself).
 */
#include <linux/unaligned.h>

#include "rxe.h"

/* The default P_Key matches any P_Key of partition 0x7fff. */
static bool rxe_pkey_ok(u16 pkey)
{
	return (pkey & 0x7fff) == 0x7fff;
}

/*
 * Parse the headers of @pkt, pulling them into the linear part (the
 * payload may stay in page fragments); false when the packet is
 * malformed or the pull fails.
 */
static bool rxe_parse(struct rxe_pkt *pkt)
{
	struct sk_buff *skb = pkt->skb;
	const struct rxe_opcode_info *info;
	u32 pad;

	if (skb->len < sizeof(struct rxe_bth) + RXE_ICRC_SIZE ||
	    !pskb_may_pull(skb, sizeof(struct rxe_bth)))
		return false;
	pkt->opcode = ((struct rxe_bth *)skb->data)->opcode;
	info = &rxe_opcode[pkt->opcode];
	if (!info->mask || !pskb_may_pull(skb, info->len))
		return false;
	/* the pulls may have moved the head */
	pkt->nhdr = skb_network_header(skb);
	pkt->bth = (struct rxe_bth *)skb->data;
	if (pkt->bth->flags & RXE_BTH_TVER_MASK)
		return false;
	pkt->mask = info->mask;
	pad = (pkt->bth->flags & RXE_BTH_PAD_MASK) >> RXE_BTH_PAD_SHIFT;
	pkt->paylen = skb->len;
	if (pkt->paylen < info->len + pad + RXE_ICRC_SIZE)
		return false;
	pkt->qpn = be32_to_cpu(pkt->bth->qpn) & RXE_BTH_QPN_MASK;
	pkt->psn = be32_to_cpu(pkt->bth->apsn) & RXE_PSN_MASK;
	pkt->payoff = info->len;
	pkt->plen = pkt->paylen - info->len - pad - RXE_ICRC_SIZE;
	return true;
}

/* Whether the ICRC @pkt carries is the one of its bytes. */
static bool rxe_icrc_ok(const struct rxe_pkt *pkt)
{
	u32 len = pkt->paylen - RXE_ICRC_SIZE;
	const void *icrc;
	u8 buf[RXE_ICRC_SIZE];

	icrc = skb_header_pointer(pkt->skb, len, sizeof(buf), &buf);
	return icrc && get_unaligned_le32(icrc) ==
		rxe_icrc_skb(pkt->nh, pkt->nhdr, pkt->skb, 0, len);
}

/**
 * rxe_pkt_payload - hand a packet's payload to a sink, piece by piece
 * @pkt: the packet, parsed
 * @sink: called for each piece in order with @arg, the piece's offset
 *	in the payload, its bytes and their count; returns IB_WC_SUCCESS
 *	to go on
 * @arg: the sink's argument
 *
 * The pieces are the linear part and the page fragments the payload lies
 * in (one piece when it is linear); no payload, no call.
 *
 * Context: softirq context; maps fragment pages for a moment.
 * Return: IB_WC_SUCCESS, or the first other status of @sink.
 */
enum ib_wc_status rxe_pkt_payload(const struct rxe_pkt *pkt,
				  enum ib_wc_status (*sink)(void *arg, u32 off,
							    const void *data,
							    u32 len),
				  void *arg)
{
	struct sk_buff *skb = pkt->skb;
	enum ib_wc_status st = IB_WC_SUCCESS;
	struct skb_seq_state seq;
	u32 from = pkt->payoff, done = 0, n;
	const u8 *data;

	if (!pkt->plen)
		return IB_WC_SUCCESS;
	if (from + pkt->plen <= skb_headlen(skb))
		return sink(arg, 0, skb->data + from, pkt->plen);
	skb_prepare_seq_read(skb, from, from + pkt->plen, &seq);
	while (done < pkt->plen) {
		n = skb_seq_read(done, &data, &seq);
		if (!n)
			break;
		n = min(n, pkt->plen - done);
		st = sink(arg, done, data, n);
		if (st != IB_WC_SUCCESS)
			break;
		done += n;
	}
	skb_abort_seq_read(&seq);
	return st;
}

/**
 * rxe_rcv - a RoCE packet for a device
 * @rxe: the device, referenced by the caller
 * @skb: the packet, skb->data at the BTH, its network header (IP and
 *	UDP, or the GRH) at skb_network_header() and linear; the rest may be
 *	in page fragments; taken
 * @nh: what the network header is
 * @icrc: the packet came over a link and its ICRC is checked; false for
 *	one from the device's own loopback queue, which has none
 *
 * Context: softirq context.
 */
void rxe_rcv(struct rxe_dev *rxe, struct sk_buff *skb, enum rxe_nh nh,
	     bool icrc)
{
	struct rxe_pkt pkt = {
		.rxe = rxe,
		.skb = skb,
		.nh = nh,
	};
	struct rvt_qp *qp;

	if (!rxe_parse(&pkt)) {
		rxe_drop(rxe, RXE_DROP_HDR);
		goto drop;
	}
	if (icrc && !rxe_icrc_ok(&pkt)) {
		rxe_drop(rxe, RXE_DROP_ICRC);
		goto drop;
	}
	if (!rxe_pkey_ok(be16_to_cpu(pkt.bth->pkey))) {
		rxe_drop(rxe, RXE_DROP_PKEY);
		goto drop;
	}
	if (pkt.qpn == IB_MULTICAST_QPN) {
		rxe_mcast_recv(&pkt);
		consume_skb(skb);
		return;
	}

	rcu_read_lock();
	qp = rvt_lookup_qpn(&rxe->rdi, &rxe->port, pkt.qpn);
	if (qp)
		rvt_get_qp(qp);
	rcu_read_unlock();
	if (!qp) {
		rvt_hw_count_port(&rxe->port, RVT_CNT_RCVD_PKTS, 1);
		rxe_drop(rxe, RXE_DROP_QP);
		goto drop;
	}
	rvt_hw_count(qp, RVT_CNT_RCVD_PKTS, 1);
	switch (qp->ibqp.qp_type) {
	case IB_QPT_UD:
	case IB_QPT_GSI:
		if ((pkt.opcode & 0xe0) == IB_OPCODE_UD)
			rxe_ud_recv(&pkt, qp);
		else
			rxe_drop(rxe, RXE_DROP_QP);
		break;
	case IB_QPT_RC:
	case IB_QPT_UC:
		if ((pkt.opcode & 0xe0) != (qp->ibqp.qp_type == IB_QPT_RC ?
					    IB_OPCODE_RC : IB_OPCODE_UC))
			rxe_drop(rxe, RXE_DROP_QP);
		else if (pkt.mask & RXE_REQ)
			rxe_rc_recv_req(&pkt, qp);
		else
			rxe_rc_recv_resp(&pkt, qp);
		break;
	default:
		rxe_drop(rxe, RXE_DROP_QP);
	}
	rvt_put_qp(qp);
	consume_skb(skb);
	return;

drop:
	kfree_skb(skb);
}
