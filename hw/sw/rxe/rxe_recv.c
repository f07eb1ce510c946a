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

/* Parse the headers of @pkt; false when the packet is malformed. */
static bool rxe_parse(struct rxe_pkt *pkt)
{
	struct sk_buff *skb = pkt->skb;
	const struct rxe_opcode_info *info;
	u32 pad;

	if (skb->len < sizeof(struct rxe_bth) + RXE_ICRC_SIZE)
		return false;
	pkt->bth = (struct rxe_bth *)skb->data;
	pkt->opcode = pkt->bth->opcode;
	info = &rxe_opcode[pkt->opcode];
	if (!info->mask || (pkt->bth->flags & RXE_BTH_TVER_MASK))
		return false;
	pkt->mask = info->mask;
	pad = (pkt->bth->flags & RXE_BTH_PAD_MASK) >> RXE_BTH_PAD_SHIFT;
	pkt->paylen = skb->len;
	if (pkt->paylen < info->len + pad + RXE_ICRC_SIZE)
		return false;
	pkt->qpn = be32_to_cpu(pkt->bth->qpn) & RXE_BTH_QPN_MASK;
	pkt->psn = be32_to_cpu(pkt->bth->apsn) & RXE_PSN_MASK;
	pkt->payload = skb->data + info->len;
	pkt->plen = pkt->paylen - info->len - pad - RXE_ICRC_SIZE;
	return true;
}

/**
 * rxe_rcv - a RoCE packet for a device
 * @rxe: the device, referenced by the caller
 * @skb: the packet, linear, skb->data at the BTH, its network header
 *	(IP and UDP, or the GRH) at skb_network_header(); taken
 * @nh: what the network header is
 *
 * Context: softirq context.
 */
void rxe_rcv(struct rxe_dev *rxe, struct sk_buff *skb, enum rxe_nh nh)
{
	struct rxe_pkt pkt = {
		.rxe = rxe,
		.skb = skb,
		.nh = nh,
		.nhdr = skb_network_header(skb),
	};
	struct rvt_qp *qp;
	u32 icrc;

	if (!rxe_parse(&pkt)) {
		rxe_drop(rxe, RXE_DROP_HDR);
		goto drop;
	}
	icrc = rxe_icrc(nh, pkt.nhdr, pkt.bth, pkt.paylen - RXE_ICRC_SIZE);
	if (icrc != get_unaligned_le32(skb->data + pkt.paylen -
				       RXE_ICRC_SIZE)) {
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
