// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The IB side of an IPoIB interface: its UD QP with a receive ring and a
 * send ring, completions through the CQ API in softirq, and bringing
 * the QP up (RESET to RTS with the P_Key's index and the broadcast
 * group's Q_Key) and down (drained, back to RESET), connected mode's
 * listener and connections with it (cm.c).  The CQs are shared with
 * connected mode's QPs.
 */

#include <linux/etherdevice.h>

#include "ipoib.h"

/* the address handle of a send, from the transmit path to ipoib_send() */
struct ipoib_skb_cb {
	struct ipoib_ah *ah;
};

static struct ipoib_skb_cb *ipoib_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct ipoib_skb_cb) > sizeof(skb->cb));
	return (struct ipoib_skb_cb *)skb->cb;
}

static unsigned int ipoib_rx_buf_size(struct ipoib_priv *priv)
{
	return IPOIB_UD_BUF_SIZE(priv->max_ib_mtu);
}

/* a fresh buffer for @rx (not posted) */
static int ipoib_rx_alloc(struct ipoib_priv *priv, struct ipoib_rx_buf *rx,
			  gfp_t gfp)
{
	unsigned int size = ipoib_rx_buf_size(priv);
	struct sk_buff *skb;
	u64 mapping;

	/* room in front for the pseudo-header the receive path adds */
	skb = __netdev_alloc_skb(priv->dev, IPOIB_PSEUDO_LEN + size, gfp);
	if (!skb)
		return -ENOMEM;
	skb_reserve(skb, IPOIB_PSEUDO_LEN);
	mapping = ib_dma_map_single(priv->ca, skb->data, size,
				    DMA_FROM_DEVICE);
	if (ib_dma_mapping_error(priv->ca, mapping)) {
		dev_kfree_skb_any(skb);
		return -EIO;
	}
	rx->skb = skb;
	rx->mapping = mapping;
	return 0;
}

static void ipoib_rx_free(struct ipoib_priv *priv, struct ipoib_rx_buf *rx)
{
	if (!rx->skb)
		return;
	ib_dma_unmap_single(priv->ca, rx->mapping, ipoib_rx_buf_size(priv),
			    DMA_FROM_DEVICE);
	dev_kfree_skb_any(rx->skb);
	rx->skb = NULL;
}

static void ipoib_rx_done(struct ib_cq *cq, struct ib_wc *wc);

/* post @rx's buffer; on failure it is freed */
static void ipoib_rx_post(struct ipoib_priv *priv, struct ipoib_rx_buf *rx)
{
	struct ib_sge sge = {
		.addr = rx->mapping,
		.length = ipoib_rx_buf_size(priv),
		.lkey = priv->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = {
		.wr_cqe = &rx->cqe,
		.sg_list = &sge,
		.num_sge = 1,
	};

	if (!test_bit(IPOIB_IB_UP, &priv->flags)) {
		ipoib_rx_free(priv, rx);
		return;
	}
	rx->cqe.done = ipoib_rx_done;
	atomic_inc(&priv->rx_outstanding);
	if (ib_post_recv(priv->qp, &wr, NULL)) {
		netdev_warn(priv->dev, "cannot post a receive buffer\n");
		ipoib_rx_free(priv, rx);
		if (atomic_dec_and_test(&priv->rx_outstanding))
			wake_up(&priv->flushed);
	}
}

static void ipoib_rx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ipoib_priv *priv = cq->cq_context;
	struct ipoib_rx_buf *rx = container_of(wc->wr_cqe, struct ipoib_rx_buf,
					       cqe);
	struct net_device *dev = priv->dev;
	struct sk_buff *skb = rx->skb;
	u64 mapping = rx->mapping;
	int pkt_type;

	if (atomic_dec_and_test(&priv->rx_outstanding))
		wake_up(&priv->flushed);

	if (wc->status != IB_WC_SUCCESS) {
		if (wc->status != IB_WC_WR_FLUSH_ERR)
			dev->stats.rx_errors++;
		ipoib_rx_free(priv, rx);
		if (wc->status != IB_WC_WR_FLUSH_ERR &&
		    !ipoib_rx_alloc(priv, rx, GFP_ATOMIC))
			ipoib_rx_post(priv, rx);
		return;
	}

	/* our own multicast, looped back by the fabric */
	if (wc->slid == priv->local_lid && wc->src_qp == priv->qp->qp_num)
		goto repost;
	if (wc->byte_len < IB_GRH_BYTES + IPOIB_ENCAP_LEN) {
		dev->stats.rx_length_errors++;
		goto repost;
	}
	if (ipoib_rx_alloc(priv, rx, GFP_ATOMIC)) {
		rx->skb = skb;
		rx->mapping = mapping;
		dev->stats.rx_dropped++;
		goto repost;
	}
	ib_dma_unmap_single(priv->ca, mapping, ipoib_rx_buf_size(priv),
			    DMA_FROM_DEVICE);

	skb_put(skb, wc->byte_len);
	pkt_type = ipoib_rx_pkt_type(skb->data, wc->wc_flags & IB_WC_GRH,
				     dev->broadcast);
	skb_pull(skb, IB_GRH_BYTES);
	skb->protocol = ((struct ipoib_header *)skb->data)->proto;
	/* the link header as a packet socket sees it: an empty pseudo-header */
	memset(skb_push(skb, IPOIB_PSEUDO_LEN), 0, IPOIB_PSEUDO_LEN);
	skb_reset_mac_header(skb);
	skb_pull(skb, IPOIB_HARD_LEN);
	skb->pkt_type = pkt_type;
	skb->dev = dev;
	dev->stats.rx_packets++;
	dev->stats.rx_bytes += skb->len;
	if (pkt_type == PACKET_MULTICAST)
		dev->stats.multicast++;
	netif_receive_skb(skb);
repost:
	ipoib_rx_post(priv, rx);
}

static void ipoib_tx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ipoib_priv *priv = cq->cq_context;
	struct ipoib_tx_buf *tx = container_of(wc->wr_cqe, struct ipoib_tx_buf,
					       cqe);
	struct net_device *dev = priv->dev;
	struct sk_buff *skb = tx->skb;

	ib_dma_unmap_single(priv->ca, tx->mapping, skb->len, DMA_TO_DEVICE);
	ipoib_ah_put(tx->ah);
	tx->ah = NULL;
	tx->skb = NULL;

	spin_lock_bh(&priv->tx_lock);
	ipoib_tx_count(dev, wc, skb);
	priv->tx_tail++;
	ipoib_tx_wake(priv);
	spin_unlock_bh(&priv->tx_lock);
	dev_consume_skb_any(skb);
}

/**
 * ipoib_tx_wake - a send completed
 * @priv: the interface; tx_lock held
 *
 * The queue goes again once half the sends in flight completed; the
 * last one wakes who waits for the QPs to be idle.
 */
void ipoib_tx_wake(struct ipoib_priv *priv)
{
	unsigned int inflight = ipoib_tx_inflight(priv);

	lockdep_assert_held(&priv->tx_lock);
	if (netif_queue_stopped(priv->dev) && inflight <= IPOIB_TX_RING / 2 &&
	    test_bit(IPOIB_IB_UP, &priv->flags))
		netif_wake_queue(priv->dev);
	if (!inflight)
		wake_up(&priv->flushed);
}

/**
 * ipoib_send - the default rdma_netdev send: post a datagram
 * @dev: the interface
 * @skb: the packet, data at the encapsulation header; consumed
 * @ah: the destination's address handle
 * @dqpn: the destination QP
 *
 * The address handle's reference for the send comes from the skb's
 * control block (ipoib_send_ah()).
 *
 * Return: 0 if posted, else an errno (@skb freed and counted).
 */
int ipoib_send(struct net_device *dev, struct sk_buff *skb,
	       struct ib_ah *ah, u32 dqpn)
{
	struct ipoib_priv *priv = ipoib_priv(dev);
	struct ipoib_ah *iah = ipoib_cb(skb)->ah;
	struct ipoib_tx_buf *tx;
	struct ib_sge sge;
	struct ib_ud_wr wr = {};
	u64 mapping;
	int ret;

	if (skb_linearize(skb)) {
		ret = -ENOMEM;
		goto drop;
	}
	mapping = ib_dma_map_single(priv->ca, skb->data, skb->len,
				    DMA_TO_DEVICE);
	if (ib_dma_mapping_error(priv->ca, mapping)) {
		ret = -EIO;
		goto drop;
	}

	/*
	 * Sends come only from the transmit routine, one at a time (the
	 * queue's lock); tx_lock orders the ring's head against the
	 * completions, and is not held across the post (the driver takes
	 * locks of its own that bottom halves do not).
	 */
	spin_lock_bh(&priv->tx_lock);
	if (!test_bit(IPOIB_IB_UP, &priv->flags) ||
	    ipoib_tx_inflight(priv) >= IPOIB_TX_RING) {
		spin_unlock_bh(&priv->tx_lock);
		ib_dma_unmap_single(priv->ca, mapping, skb->len,
				    DMA_TO_DEVICE);
		ret = -ENOBUFS;
		goto drop;
	}
	tx = &priv->tx_ring[priv->tx_head & (IPOIB_TX_RING - 1)];
	tx->skb = skb;
	tx->mapping = mapping;
	tx->ah = ipoib_ah_get(iah);
	tx->cqe.done = ipoib_tx_done;
	priv->tx_head++;
	if (ipoib_tx_inflight(priv) >= IPOIB_TX_RING)
		netif_stop_queue(dev);
	spin_unlock_bh(&priv->tx_lock);

	sge.addr = mapping;
	sge.length = skb->len;
	sge.lkey = priv->pd->local_dma_lkey;
	wr.wr.wr_cqe = &tx->cqe;
	wr.wr.opcode = IB_WR_SEND;
	wr.wr.send_flags = IB_SEND_SIGNALED;
	wr.wr.sg_list = &sge;
	wr.wr.num_sge = 1;
	wr.ah = ah;
	wr.remote_qpn = dqpn;
	wr.remote_qkey = priv->qkey;

	ret = ib_post_send(priv->qp, &wr.wr, NULL);
	if (ret) {
		/* nobody took a slot since: give this one back */
		spin_lock_bh(&priv->tx_lock);
		priv->tx_head--;
		tx->skb = NULL;
		tx->ah = NULL;
		if (netif_queue_stopped(dev))
			netif_wake_queue(dev);
		spin_unlock_bh(&priv->tx_lock);
		ipoib_ah_put(iah);
		ib_dma_unmap_single(priv->ca, mapping, skb->len,
				    DMA_TO_DEVICE);
		goto drop;
	}
	netif_trans_update(dev);
	return 0;

drop:
	dev->stats.tx_dropped++;
	dev_kfree_skb_any(skb);
	return ret;
}

/**
 * ipoib_send_ah - send through the interface's rdma_netdev
 * @priv: the interface
 * @skb: the packet, data at the encapsulation header; consumed
 * @ah: the destination's address handle (the send takes a reference)
 * @dqpn: the destination QP
 *
 * A packet larger than the broadcast group's MTU (in connected mode,
 * for a peer without connections or a group) goes back to its sender
 * as ICMP.
 *
 * Return: 0 or an errno (@skb dropped).
 */
int ipoib_send_ah(struct ipoib_priv *priv, struct sk_buff *skb,
		  struct ipoib_ah *ah, u32 dqpn)
{
	struct rdma_netdev *rn = netdev_priv(priv->dev);

	if (skb->len > priv->mcast_mtu + IPOIB_ENCAP_LEN) {
		ipoib_too_long(priv, skb, priv->mcast_mtu);
		return -EMSGSIZE;
	}

	ipoib_cb(skb)->ah = ah;
	return rn->send(priv->dev, skb, ah->ah, dqpn);
}

int ipoib_set_qkey(struct ipoib_priv *priv, u32 qkey)
{
	struct ib_qp_attr attr = { .qkey = qkey };

	priv->qkey = qkey;
	return ib_modify_qp(priv->qp, &attr, IB_QP_QKEY);
}

/* the default rdma_netdev multicast ops: the interface's own QP */
int ipoib_mcast_attach(struct net_device *dev, struct ib_device *hca,
		       union ib_gid *gid, u16 mlid, int set_qkey, u32 qkey)
{
	struct ipoib_priv *priv = ipoib_priv(dev);
	int ret;

	if (set_qkey) {
		ret = ipoib_set_qkey(priv, qkey);
		if (ret)
			return ret;
	}
	return ib_attach_mcast(priv->qp, gid, mlid);
}

int ipoib_mcast_detach(struct net_device *dev, struct ib_device *hca,
		       union ib_gid *gid, u16 mlid)
{
	return ib_detach_mcast(ipoib_priv(dev)->qp, gid, mlid);
}

/**
 * ipoib_transport_init - PD, CQs, QP and rings of an interface
 * @priv: the interface (ndo_init)
 *
 * The QP stays in RESET until ipoib_ib_up(); its number is in the
 * hardware address from now on.
 *
 * Return: 0 or an errno (nothing left allocated).
 */
int ipoib_transport_init(struct ipoib_priv *priv)
{
	struct ib_qp_init_attr attr = {
		.cap = {
			.max_send_wr = IPOIB_TX_RING,
			.max_recv_wr = IPOIB_RX_RING,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.qp_type = IB_QPT_UD,
	};
	u8 addr[INFINIBAND_ALEN];
	unsigned int rcqe;
	int ret;

	priv->rx_ring = kcalloc(IPOIB_RX_RING, sizeof(*priv->rx_ring),
				GFP_KERNEL);
	priv->tx_ring = kcalloc(IPOIB_TX_RING, sizeof(*priv->tx_ring),
				GFP_KERNEL);
	if (!priv->rx_ring || !priv->tx_ring) {
		ret = -ENOMEM;
		goto err_rings;
	}
	priv->pd = ib_alloc_pd(priv->ca, 0);
	if (IS_ERR(priv->pd)) {
		ret = PTR_ERR(priv->pd);
		goto err_rings;
	}
	ret = ipoib_cm_init(priv);
	if (ret)
		goto err_pd;
	/* room for the drains' markers (one QP drained at a time) */
	priv->send_cq = ib_alloc_cq(priv->ca, priv, IPOIB_TX_RING + 2, 0,
				    IB_POLL_SOFTIRQ);
	if (IS_ERR(priv->send_cq)) {
		ret = PTR_ERR(priv->send_cq);
		goto err_cm;
	}
	/* the passive connections receive here too */
	if (!priv->cm.capable)
		rcqe = IPOIB_RX_RING + 2;
	else if (priv->cm.srq)
		rcqe = IPOIB_RX_RING + IPOIB_CM_SRQ_RING + 2;
	else
		rcqe = IPOIB_RX_RING + IPOIB_CM_RX_RING * IPOIB_CM_MAX_NONSRQ + 2;
	priv->recv_cq = ib_alloc_cq(priv->ca, priv, rcqe, 0,
				    IB_POLL_SOFTIRQ);
	if (IS_ERR(priv->recv_cq)) {
		ret = PTR_ERR(priv->recv_cq);
		goto err_scq;
	}
	attr.send_cq = priv->send_cq;
	attr.recv_cq = priv->recv_cq;
	priv->qp = ib_create_qp(priv->pd, &attr);
	if (IS_ERR(priv->qp)) {
		ret = PTR_ERR(priv->qp);
		goto err_rcq;
	}
	ret = rdma_query_gid(priv->ca, priv->port, 0, &priv->local_gid);
	if (ret)
		goto err_qp;
	ipoib_make_hwaddr(addr, priv->cm.capable ? IPOIB_HW_FLAG_RC : 0,
			  priv->qp->qp_num, &priv->local_gid);
	dev_addr_set(priv->dev, addr);
	return 0;

err_qp:
	ib_destroy_qp(priv->qp);
err_rcq:
	ib_free_cq(priv->recv_cq);
err_scq:
	ib_free_cq(priv->send_cq);
err_cm:
	ipoib_cm_cleanup(priv);
err_pd:
	ib_dealloc_pd(priv->pd);
err_rings:
	kfree(priv->rx_ring);
	kfree(priv->tx_ring);
	priv->qp = NULL;
	return ret;
}

void ipoib_transport_cleanup(struct ipoib_priv *priv)
{
	if (!priv->qp)
		return;
	ib_destroy_qp(priv->qp);
	ipoib_cm_cleanup(priv);
	ib_free_cq(priv->recv_cq);
	ib_free_cq(priv->send_cq);
	ib_dealloc_pd(priv->pd);
	kfree(priv->rx_ring);
	kfree(priv->tx_ring);
	priv->qp = NULL;
}

static int ipoib_qp_to_rts(struct ipoib_priv *priv)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.pkey_index = priv->pkey_index,
		.port_num = priv->port,
		.qkey = priv->qkey,
	};
	int ret;

	ret = ib_modify_qp(priv->qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_QKEY);
	if (ret)
		return ret;
	attr.qp_state = IB_QPS_RTR;
	ret = ib_modify_qp(priv->qp, &attr, IB_QP_STATE);
	if (ret)
		return ret;
	attr.qp_state = IB_QPS_RTS;
	attr.sq_psn = 0;
	return ib_modify_qp(priv->qp, &attr, IB_QP_STATE | IB_QP_SQ_PSN);
}

static void ipoib_qp_reset(struct ipoib_priv *priv)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_RESET };

	if (ib_modify_qp(priv->qp, &attr, IB_QP_STATE))
		netdev_warn(priv->dev, "cannot reset the QP\n");
}

/**
 * ipoib_ib_up - bring the IB side of an open interface up
 * @priv: the interface; ctl_mutex held
 *
 * Without the P_Key in the port's table the interface waits (carrier
 * off) for a P_Key change event.  Otherwise the QP goes to RTS, the
 * receive ring is posted and the multicast work starts with the
 * broadcast group, whose join turns the carrier on.
 *
 * Return: 0 or an errno.
 */
int ipoib_ib_up(struct ipoib_priv *priv)
{
	struct ib_port_attr pattr;
	u16 index;
	int ret, i;

	lockdep_assert_held(&priv->ctl_mutex);
	if (!test_bit(IPOIB_ADMIN_UP, &priv->flags) ||
	    test_bit(IPOIB_IB_UP, &priv->flags))
		return 0;
	if (!(priv->pkey & 0x7fff) ||
	    ib_find_pkey(priv->ca, priv->port, priv->pkey, &index)) {
		clear_bit(IPOIB_PKEY_VALID, &priv->flags);
		netif_carrier_off(priv->dev);
		netdev_dbg(priv->dev, "P_Key 0x%04x not in the port's table\n",
			   priv->pkey);
		return 0;
	}
	priv->pkey_index = index;
	set_bit(IPOIB_PKEY_VALID, &priv->flags);
	ret = ib_query_port(priv->ca, priv->port, &pattr);
	if (ret)
		return ret;
	priv->local_lid = pattr.lid;

	ret = ipoib_qp_to_rts(priv);
	if (ret) {
		netdev_warn(priv->dev, "QP to RTS failed: %d\n", ret);
		ipoib_qp_reset(priv);
		return ret;
	}
	priv->tx_head = 0;
	priv->tx_tail = 0;
	spin_lock_bh(&priv->tx_lock);
	set_bit(IPOIB_IB_UP, &priv->flags);
	spin_unlock_bh(&priv->tx_lock);
	for (i = 0; i < IPOIB_RX_RING; i++) {
		if (ipoib_rx_alloc(priv, &priv->rx_ring[i], GFP_KERNEL))
			break;
		ipoib_rx_post(priv, &priv->rx_ring[i]);
	}
	if (!atomic_read(&priv->rx_outstanding)) {
		netdev_warn(priv->dev, "no receive buffer could be posted\n");
		ipoib_ib_down(priv);
		return -ENOMEM;
	}
	ret = ipoib_cm_start(priv);
	if (ret) {
		netdev_warn(priv->dev, "cannot listen for connections: %d\n",
			    ret);
		ipoib_ib_down(priv);
		return ret;
	}
	netif_wake_queue(priv->dev);
	ipoib_mcast_start(priv);
	return 0;
}

static bool ipoib_tx_idle(struct ipoib_priv *priv)
{
	bool idle;

	spin_lock_bh(&priv->tx_lock);
	idle = !ipoib_tx_inflight(priv);
	spin_unlock_bh(&priv->tx_lock);
	return idle;
}

/**
 * ipoib_ib_down - take the IB side down
 * @priv: the interface; ctl_mutex held
 *
 * Carrier off, every connection taken down, every group left, every
 * path forgotten, the QP drained (every send and receive completed) and
 * reset.
 */
void ipoib_ib_down(struct ipoib_priv *priv)
{
	bool was_up;
	unsigned long flags;

	lockdep_assert_held(&priv->ctl_mutex);
	netif_carrier_off(priv->dev);
	/* no new path, group or send from here on */
	spin_lock_irqsave(&priv->lock, flags);
	was_up = test_and_clear_bit(IPOIB_IB_UP, &priv->flags);
	spin_unlock_irqrestore(&priv->lock, flags);
	/* a send that saw the bit set has posted once this is taken */
	netif_tx_lock_bh(priv->dev);
	netif_tx_unlock_bh(priv->dev);
	ipoib_cm_stop(priv);
	ipoib_mcast_stop(priv);
	ipoib_paths_flush(priv);
	if (!was_up)
		return;

	ib_drain_qp(priv->qp);
	if (!wait_event_timeout(priv->flushed,
				!atomic_read(&priv->rx_outstanding) &&
				ipoib_tx_idle(priv), 10 * HZ))
		netdev_warn(priv->dev, "%d receives, %u sends never completed\n",
			    atomic_read(&priv->rx_outstanding),
			    ipoib_tx_inflight(priv));
	ipoib_qp_reset(priv);
}
