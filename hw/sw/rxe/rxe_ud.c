// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Datagrams: the UD and GSI (QP1) QPs.
 *
 * Send: rdmavt hands each request to rxe_xmit_wqe(), which reads it in
 * place, builds the one packet (BTH, DETH, ImmDt, the payload copied from
 * the request's registered memory: the request completes at once, and its
 * buffer must not be read afterwards) and sends it through
 * rxe_xmit_skb().
 * The request completes right there, with success when the frame went
 * to the net device and with an error status when it could not go (no
 * route, no destination MAC, no memory, too long for the path MTU): a
 * datagram's sender learns nothing more, and every request it posted
 * completes.  rxe never holds a datagram request (RC and UC requests it
 * holds are rxe_rc.c's).
 *
 * Receive: the Q_Key is checked (QP1 takes 0x80010000 only), then the
 * packet is placed through rdmavt's receive helpers into the next
 * receive WQE: the first 40 bytes get the network header as upstream rxe
 * puts it there (RoCE v2 over IPv4: 20 zero bytes and the IPv4 header;
 * over IPv6: the IPv6 header; RoCE v1: the GRH), the payload follows.
 */
#include <linux/hash.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>

#include "rxe.h"

/**
 * rxe_qp_priv_alloc - rxe's state of a new QP (driver_f.qp_priv_alloc)
 * @rdi: the device
 * @qp: the QP, its number set
 *
 * Context: process context; sleeps (GFP_KERNEL).
 * Return: the state, or ERR_PTR(-ENOMEM).
 */
void *rxe_qp_priv_alloc(struct rvt_dev_info *rdi, struct rvt_qp *qp)
{
	struct rxe_qp_priv *priv = kzalloc(sizeof(*priv), GFP_KERNEL);

	if (!priv)
		return ERR_PTR(-ENOMEM);
	/* upstream's choice, so that flows spread over ECMP paths alike */
	priv->src_port = RXE_ROCE_V2_SPORT +
			 (hash_32(qp->ibqp.qp_num, 14) & 0x3fff);
	if (rxe_rc_init(qp, priv)) {
		kfree(priv);
		return ERR_PTR(-ENOMEM);
	}
	return priv;
}

/**
 * rxe_qp_priv_free - free what rxe_qp_priv_alloc() made
 * @rdi: the device
 * @qp: the QP
 *
 * Context: process context.
 */
void rxe_qp_priv_free(struct rvt_dev_info *rdi, struct rvt_qp *qp)
{
	struct rxe_qp_priv *priv = qp->priv;

	timer_shutdown_sync(&priv->rc.timer);
	cancel_work_sync(&priv->rc.flush);
	kfree(priv->rc.reqs);
	kfree(priv->rc.atm);
	kfree(priv);
}

static enum ib_wc_status rxe_ud_send(struct rvt_qp *qp, struct rvt_swqe *wqe)
{
	struct rxe_dev *rxe = to_rxe_dev(qp->ibqp.device);
	struct rxe_qp_priv *priv = qp->priv;
	struct ib_ah *ah = wqe->ud_wr.ah;
	const struct rdma_ah_attr *av =
		&container_of(ah, struct rvt_ah, ibah)->attr;
	bool imm = wqe->wr.opcode == IB_WR_SEND_WITH_IMM;
	u8 opcode = imm ? IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE :
			  IB_OPCODE_UD_SEND_ONLY;
	const struct rxe_opcode_info *info = &rxe_opcode[opcode];
	u32 pad = -wqe->length & 3;
	u32 qkey = wqe->ud_wr.remote_qkey;
	struct rvt_sge_state ss;
	struct rxe_deth *deth;
	struct rxe_bth *bth;
	struct sk_buff *skb;
	int ret;

	if (wqe->wr.opcode != IB_WR_SEND && !imm)
		return IB_WC_LOC_QP_OP_ERR;
	/* a datagram is one packet: at most the port's MTU of payload */
	if (wqe->length > rxe_mtu(rxe))
		return IB_WC_LOC_LEN_ERR;
	if (!ah->sgid_attr)
		return IB_WC_LOC_QP_OP_ERR;

	if (wqe->length)
		rvt_restart_sge(&ss, wqe, 0);
	/* copied: the request completes now, its buffer the consumer's */
	skb = rxe_tx_skb(rxe, info->len, wqe->length ? &ss : NULL,
			 wqe->length, false);
	/* an on-demand paging page went since rdmavt checked it */
	if (IS_ERR(skb))
		return rvt_odp_miss_fault(qp, &ss.sge, false, false);
	if (!skb)
		return IB_WC_LOC_QP_OP_ERR;
	bth = (struct rxe_bth *)skb->data;
	bth->opcode = opcode;
	bth->flags = pad << RXE_BTH_PAD_SHIFT;
	if (wqe->wr.send_flags & IB_SEND_SOLICITED)
		bth->flags |= RXE_BTH_SE;
	bth->pkey = htons(0xffff);
	bth->qpn = htonl(wqe->ud_wr.remote_qpn & RXE_BTH_QPN_MASK);
	bth->apsn = htonl(priv->psn);
	priv->psn = rxe_psn_add(priv->psn, 1);
	deth = (void *)bth + rxe_hdr_off(info->mask, RXE_DETH);
	/* the high bit takes the QP's own Q_Key (IBTA 10.2.5) */
	if (qkey & 0x80000000)
		qkey = qp->qkey;
	deth->qkey = htonl(qkey);
	deth->sqp = htonl(qp->ibqp.qp_num & RXE_BTH_QPN_MASK);
	if (imm)
		((struct rxe_immdt *)((void *)bth +
		  rxe_hdr_off(info->mask, RXE_IMMDT)))->imm =
			wqe->wr.ex.imm_data;

	ret = rxe_xmit_skb(rxe, skb, ah->sgid_attr, av, priv->src_port);
	if (ret) {
		rvt_hw_count(qp, RVT_CNT_SEND_ERR, 1);
		if (ret == -EHOSTUNREACH)
			atomic64_inc(&rxe->route_err);
		return IB_WC_LOC_QP_OP_ERR;
	}
	rvt_hw_count(qp, RVT_CNT_SENT_PKTS, 1);
	return IB_WC_SUCCESS;
}

/**
 * rxe_xmit_wqe - send a request (driver_f.xmit_wqe)
 * @qp: the QP
 * @wqe: the request, in place in the send ring
 *
 * Context: the poster's context or rdmavt's work item, bottom halves off.
 * Return: 0: the request was taken (and completed); -EAGAIN: a datagram
 * met a page of an on-demand paging MR that is being faulted in (not
 * taken: rdmavt hands it over again after the fault).
 */
int rxe_xmit_wqe(struct rvt_qp *qp, struct rvt_swqe *wqe)
{
	enum ib_wc_status status = IB_WC_LOC_QP_OP_ERR;

	if (qp->ibqp.qp_type == IB_QPT_RC || qp->ibqp.qp_type == IB_QPT_UC) {
		rxe_rc_xmit(qp, wqe);
		return 0;
	}
	/* an executed REG_MR: the datagrams before it are done */
	if (wqe->executed)
		status = wqe->status;
	else if (qp->ibqp.qp_type == IB_QPT_UD ||
		 qp->ibqp.qp_type == IB_QPT_GSI)
		status = rxe_ud_send(qp, wqe);
	if (status == RVT_WC_PAGE_MISS)
		return -EAGAIN;
	rvt_send_complete(qp, wqe, status);
	return 0;
}

/**
 * rxe_xmit_flush - give back what the QP holds (driver_f.xmit_flush)
 * @qp: the QP, in the error state
 *
 * rxe completes a datagram request in rxe_xmit_wqe(): it holds none.
 * An RC QP's requests are given back by rxe_rc_flush()'s work.
 *
 * Context: as rxe_xmit_wqe().
 */
void rxe_xmit_flush(struct rvt_qp *qp)
{
	rxe_rc_flush(qp);
}

/**
 * rxe_xmit_stop - stop the QP's transmit (driver_f.xmit_stop)
 * @qp: the QP, in RESET or being destroyed
 *
 * Context: process context; waits for the QP's timer and flush work.
 */
void rxe_xmit_stop(struct rvt_qp *qp)
{
	rxe_rc_stop(qp);
}

/* rxe_pkt_payload()'s sink: the payload after the 40 bytes of header */
static enum ib_wc_status rxe_ud_sink(void *arg, u32 off, const void *data,
				     u32 len)
{
	return rvt_recv_place(arg, sizeof(struct rxe_grh) + off, data, len);
}

/**
 * rxe_ud_recv - a datagram for a UD or GSI QP
 * @pkt: the packet, parsed, its ICRC checked
 * @qp: its destination QP, referenced
 *
 * Context: softirq context; takes the QP's r_lock.
 */
void rxe_ud_recv(struct rxe_pkt *pkt, struct rvt_qp *qp)
{
	struct rxe_dev *rxe = pkt->rxe;
	struct rxe_deth *deth = (void *)pkt->bth +
				rxe_hdr_off(pkt->mask, RXE_DETH);
	u32 qkey = qp->ibqp.qp_num == 1 ? IB_QP1_QKEY : qp->qkey;
	struct sk_buff *skb = pkt->skb;
	u8 nh[sizeof(struct rxe_grh)] = {};
	struct ib_wc wc = {};
	int ret;

	if (be32_to_cpu(deth->qkey) != qkey) {
		rxe_drop(rxe, RXE_DROP_QKEY);
		return;
	}
	switch (pkt->nh) {
	case RXE_NH_IPV4:
		memcpy(nh + 20, pkt->nhdr, sizeof(struct iphdr));
		wc.network_hdr_type = RDMA_NETWORK_IPV4;
		break;
	case RXE_NH_IPV6:
		memcpy(nh, pkt->nhdr, sizeof(struct ipv6hdr));
		wc.network_hdr_type = RDMA_NETWORK_IPV6;
		break;
	default:
		memcpy(nh, pkt->nhdr, sizeof(struct rxe_grh));
		wc.network_hdr_type = RDMA_NETWORK_ROCE_V1;
		break;
	}
	wc.opcode = IB_WC_RECV;
	wc.byte_len = pkt->plen + sizeof(nh);
	wc.src_qp = be32_to_cpu(deth->sqp) & RXE_BTH_QPN_MASK;
	wc.wc_flags = IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE;
	if (pkt->mask & RXE_IMMDT) {
		wc.wc_flags |= IB_WC_WITH_IMM;
		wc.ex.imm_data = ((struct rxe_immdt *)((void *)pkt->bth +
			rxe_hdr_off(pkt->mask, RXE_IMMDT)))->imm;
	}
	if (is_vlan_dev(skb->dev)) {
		wc.wc_flags |= IB_WC_WITH_VLAN;
		wc.vlan_id = vlan_dev_vlan_id(skb->dev);
	}

	spin_lock_bh(&qp->r_lock);
	/* a datagram dropped on a missing page left its WQE taken */
	ret = test_bit(RVT_R_WRID_VALID, &qp->r_aflags) ? 1 :
	      rvt_recv_begin(qp, false);
	if (ret <= 0) {
		spin_unlock_bh(&qp->r_lock);
		if (ret < 0)
			rvt_error_qp(qp, IB_WC_LOC_PROT_ERR);
		rxe_drop(rxe, RXE_DROP_RQ);
		return;
	}
	/* the payload first: a datagram too long leaves the header out */
	wc.status = rxe_pkt_payload(pkt, rxe_ud_sink, qp);
	if (wc.status == IB_WC_SUCCESS)
		wc.status = rvt_recv_place(qp, 0, nh, sizeof(nh));
	if (wc.status == RVT_WC_PAGE_MISS) {
		/* an on-demand paging page: being faulted in for the next */
		spin_unlock_bh(&qp->r_lock);
		rxe_drop(rxe, RXE_DROP_RQ);
		return;
	}
	rvt_recv_complete(qp, &wc, pkt->bth->flags & RXE_BTH_SE);
	spin_unlock_bh(&qp->r_lock);
}
