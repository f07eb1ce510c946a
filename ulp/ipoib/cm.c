// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * IPoIB connected mode (RFC 4755): IP packets of up to 64 KiB on
 * reliable connections (RC QPs) that the IB CM sets up between two
 * interfaces, beside the datagram QP, which still carries multicast,
 * ARP and neighbour discovery, and the packets for peers that do not
 * take connections.
 *
 * Every interface of a port with the IB CM says so with IPOIB_HW_FLAG_RC
 * in the first byte of its hardware address, and listens, whatever its
 * mode, on service ID IPOIB_CM_SERVICE_ID | its UD QPN while its IB side
 * is up.  An interface in mode "connected" sends the IPv4 and IPv6
 * packets for a peer whose address has the flag on a connection of its
 * own to that peer (the active side); the peer accepts it with a QP that
 * receives from the interface's shared receive queue when the device has
 * SRQs, else from a ring of its own (the passive side).  REQ and REP
 * carry struct ipoib_cm_data: the sender's UD QPN and the largest
 * message it receives.  A packet larger than what the peer takes, or
 * larger than the broadcast group's MTU for a peer without connections,
 * is dropped and answered with ICMP "fragmentation needed" (IPv6:
 * "packet too big") and the route's PMTU lowered.
 *
 * A connection lives until either side takes it down (the CM's DREQ), a
 * send fails, the interface leaves connected mode (its active
 * connections) or goes down (all of them), or, on the passive side, it
 * stays unused for IPOIB_CM_RX_TIMEOUT: its peer may have gone without
 * a word.  The next packet for the peer sets a new one up.
 *
 * Contexts: the transmit routine finds or makes an active connection
 * under priv->lock (atomic); setting it up (QP, CM ID, REQ) and taking
 * connections down are works on the interface's CM workqueue, which
 * never takes ctl_mutex or rtnl, so that ipoib_cm_stop() may wait for
 * it under ctl_mutex.  The CM's handlers run in its workqueue: they only
 * move QPs through their states, answer, and hand connections to the
 * works.  A connection is freed only after its CM ID is destroyed (no
 * handler runs any more), no transmit routine still uses it (the xmit
 * lock taken once) and its QP is drained (no completion refers to it).
 */

#include <linux/etherdevice.h>
#include <linux/icmpv6.h>
#include <linux/jhash.h>
#include <net/dst.h>
#include <net/icmp.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <rdma/ib_cm.h>
#include <kunit/visibility.h>

#include "ipoib.h"

static bool cm_srq = true;
module_param(cm_srq, bool, 0644);
MODULE_PARM_DESC(cm_srq,
		 "Connected mode's passive connections receive on a shared receive queue where the device has one, else each on a ring of its own (read when an interface is made)");

static int ipoib_cm_rx_handler(struct ib_cm_id *id,
			       const struct ib_cm_event *event);
static int ipoib_cm_tx_handler(struct ib_cm_id *id,
			       const struct ib_cm_event *event);
static void ipoib_cm_rx_done(struct ib_cq *cq, struct ib_wc *wc);

/* ---- helpers (unit-tested) ------------------------------------------ */

/**
 * ipoib_cm_service_id - the service ID an interface listens on
 * @qpn: the interface's UD QP number
 *
 * Context: Any context.
 * Return: IPOIB_CM_SERVICE_ID with the QPN's 24 bits, big endian.
 */
__be64 ipoib_cm_service_id(u32 qpn)
{
	return cpu_to_be64(IPOIB_CM_SERVICE_ID | (qpn & IPOIB_QPN_MASK));
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_cm_service_id);

/**
 * ipoib_cm_data_pack - the private data of a REQ or REP
 * @data: to fill
 * @qpn: the sender's UD QPN
 * @mtu: the largest message the sender receives, IPoIB header included
 *
 * Context: Any context.
 */
void ipoib_cm_data_pack(struct ipoib_cm_data *data, u32 qpn, u32 mtu)
{
	data->qpn = cpu_to_be32(qpn & IPOIB_QPN_MASK);
	data->mtu = cpu_to_be32(mtu);
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_cm_data_pack);

/**
 * ipoib_cm_data_mtu - what a peer's private data says it receives
 * @pdata: the private data of its REQ or REP
 * @len: its length
 * @mtu: the largest message, IPoIB header included
 *
 * Context: Any context.
 * Return: 0, or -EINVAL when the data is too short or the message could
 * not even hold the IPoIB header.
 */
int ipoib_cm_data_mtu(const void *pdata, u8 len, u32 *mtu)
{
	const struct ipoib_cm_data *data = pdata;

	if (!pdata || len < sizeof(*data))
		return -EINVAL;
	*mtu = be32_to_cpu(data->mtu);
	return *mtu > IPOIB_ENCAP_LEN ? 0 : -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_cm_data_mtu);

/**
 * ipoib_cm_mtu_of - the connected-mode MTU of receive buffers
 * @nsge: scatter/gather elements of a buffer, a page each
 * @page_size: the page size
 *
 * The buffer holds the IPoIB header and the packet, which stays 16-byte
 * aligned after the header; never above IPOIB_CM_MTU.
 *
 * Context: Any context.
 * Return: the MTU.
 */
unsigned int ipoib_cm_mtu_of(unsigned int nsge, unsigned int page_size)
{
	return min_t(unsigned int, IPOIB_CM_MTU, nsge * page_size - 16);
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_cm_mtu_of);

/**
 * ipoib_cm_peer_capable - does a peer take connections?
 * @ha: its hardware address
 *
 * Context: Any context.
 * Return: true for a unicast address with IPOIB_HW_FLAG_RC.
 */
bool ipoib_cm_peer_capable(const u8 *ha)
{
	return (ha[0] & IPOIB_HW_FLAG_RC) && !ipoib_hwaddr_is_mcast(ha);
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_cm_peer_capable);

/**
 * ipoib_cm_rx_pages - pages a received message hands to its skb
 * @len: the message's length
 *
 * Context: Any context.
 * Return: 0 when the message is copied (up to IPOIB_CM_COPYBREAK bytes),
 * else the pages it fills.
 */
unsigned int ipoib_cm_rx_pages(unsigned int len)
{
	return len <= IPOIB_CM_COPYBREAK ? 0 : DIV_ROUND_UP(len, PAGE_SIZE);
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_cm_rx_pages);

/**
 * ipoib_cm_rx_skb - the skb of a message received into pages
 * @dev: the interface (may be NULL)
 * @pages: the buffer's pages, the message from the start of the first
 * @len: the message's length, IPoIB header included (at least that)
 *
 * A short message is copied into the skb and leaves the pages alone.  A
 * longer one has its first IPOIB_CM_HEAD_COPY bytes copied, so that the
 * headers are in the skb's linear part, and the rest in the pages
 * themselves, which the skb takes: their entries in @pages become NULL
 * (ipoib_cm_rx_pages() of them).  The skb has room in front for the
 * pseudo-header; its data starts at the IPoIB header.
 *
 * Context: Any context (GFP_ATOMIC).
 * Return: the skb, or NULL without memory (@pages untouched).
 */
struct sk_buff *ipoib_cm_rx_skb(struct net_device *dev, struct page **pages,
				unsigned int len)
{
	unsigned int n = ipoib_cm_rx_pages(len), head, off, i;
	struct sk_buff *skb;

	head = n ? IPOIB_CM_HEAD_COPY : len;
	skb = __netdev_alloc_skb(dev, IPOIB_PSEUDO_LEN + head, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, IPOIB_PSEUDO_LEN);
	skb_put_data(skb, page_address(pages[0]), head);
	off = head;
	for (i = 0; i < n; i++) {
		unsigned int size = min_t(unsigned int, len - i * PAGE_SIZE,
					  PAGE_SIZE) - off;

		skb_add_rx_frag(skb, i, pages[i], off, size, PAGE_SIZE);
		pages[i] = NULL;
		off = 0;
	}
	return skb;
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_cm_rx_skb);

/**
 * ipoib_cm_rx_collect_stale - the passive connections unused too long
 * @live: the live connections
 * @stale: where those unused since @timeout before @now go
 * @now: jiffies
 * @timeout: jiffies without a receive
 *
 * Context: Any context; the caller holds the lists' lock.
 * Return: how many went to @stale.
 */
unsigned int ipoib_cm_rx_collect_stale(struct list_head *live,
				       struct list_head *stale,
				       unsigned long now,
				       unsigned long timeout)
{
	struct ipoib_cm_rx *conn, *tmp;
	unsigned int n = 0;

	list_for_each_entry_safe(conn, tmp, live, list) {
		if (!time_after(now, READ_ONCE(conn->last_rx) + timeout))
			continue;
		conn->dead = true;
		list_move_tail(&conn->list, stale);
		n++;
	}
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_cm_rx_collect_stale);

/* ---- receive buffers ------------------------------------------------ */

/* fill the pages of @buf that are missing: 0 or -ENOMEM */
static int ipoib_cm_buf_fill(struct ipoib_priv *priv,
			     struct ipoib_cm_rx_buf *buf, gfp_t gfp)
{
	unsigned int i;

	for (i = 0; i < priv->cm.nsge; i++) {
		struct page *page;
		u64 dma;

		if (buf->pages[i])
			continue;
		page = alloc_page(gfp);
		if (!page)
			return -ENOMEM;
		dma = ib_dma_map_page(priv->ca, page, 0, PAGE_SIZE,
				      DMA_FROM_DEVICE);
		if (ib_dma_mapping_error(priv->ca, dma)) {
			__free_page(page);
			return -ENOMEM;
		}
		buf->pages[i] = page;
		buf->dma[i] = dma;
	}
	return 0;
}

/* unmap and free the first @n pages of @buf that it has */
static void ipoib_cm_pages_put(struct ipoib_priv *priv,
			       struct ipoib_cm_rx_buf *buf, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!buf->pages[i])
			continue;
		ib_dma_unmap_page(priv->ca, buf->dma[i], PAGE_SIZE,
				  DMA_FROM_DEVICE);
		__free_page(buf->pages[i]);
		buf->pages[i] = NULL;
	}
}

static int ipoib_cm_buf_post(struct ipoib_priv *priv,
			     struct ipoib_cm_rx_buf *buf)
{
	struct ib_sge sge[IPOIB_CM_RX_SG];
	struct ib_recv_wr wr = {
		.wr_cqe = &buf->cqe,
		.sg_list = sge,
		.num_sge = priv->cm.nsge,
	};
	unsigned int i;

	for (i = 0; i < priv->cm.nsge; i++) {
		sge[i].addr = buf->dma[i];
		sge[i].length = PAGE_SIZE;
		sge[i].lkey = priv->pd->local_dma_lkey;
	}
	buf->cqe.done = ipoib_cm_rx_done;
	if (buf->conn)
		return ib_post_recv(buf->conn->qp, &wr, NULL);
	return ib_post_srq_recv(priv->cm.srq, &wr, NULL);
}

/* post @buf again unless its connection is going */
static void ipoib_cm_buf_repost(struct ipoib_priv *priv,
				struct ipoib_cm_rx_buf *buf)
{
	struct ipoib_cm_rx *conn = buf->conn;
	unsigned long flags;
	int ret;

	if (!conn) {
		ret = ipoib_cm_buf_post(priv, buf);
	} else {
		/* the reaper drains the QP after setting dead under the lock */
		spin_lock_irqsave(&priv->lock, flags);
		ret = conn->dead ? 0 : ipoib_cm_buf_post(priv, buf);
		spin_unlock_irqrestore(&priv->lock, flags);
	}
	if (ret)
		netdev_dbg(priv->dev, "connected mode: no receive posted: %d\n",
			   ret);
}

static void ipoib_cm_rx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ipoib_priv *priv = cq->cq_context;
	struct ipoib_cm_rx_buf *buf = container_of(wc->wr_cqe,
						   struct ipoib_cm_rx_buf, cqe);
	struct ipoib_cm_rx *conn = wc->qp->qp_context;
	struct ipoib_cm_rx_buf fresh = {};
	struct net_device *dev = priv->dev;
	unsigned int len = wc->byte_len, n, i;
	struct sk_buff *skb;

	if (wc->status != IB_WC_SUCCESS) {
		if (wc->status == IB_WC_WR_FLUSH_ERR && buf->conn)
			return;		/* the reaper frees the ring */
		if (wc->status != IB_WC_WR_FLUSH_ERR)
			dev->stats.rx_errors++;
		goto repost;
	}
	WRITE_ONCE(conn->last_rx, jiffies);
	if (len < IPOIB_ENCAP_LEN) {
		dev->stats.rx_length_errors++;
		goto repost;
	}

	n = ipoib_cm_rx_pages(len);
	if (n > priv->cm.nsge) {
		dev->stats.rx_length_errors++;
		goto repost;
	}
	/* replacements for the pages the skb takes, first */
	for (i = n; i < priv->cm.nsge; i++)
		fresh.pages[i] = buf->pages[i];
	if (ipoib_cm_buf_fill(priv, &fresh, GFP_ATOMIC)) {
		ipoib_cm_pages_put(priv, &fresh, n);
		dev->stats.rx_dropped++;
		goto repost;
	}
	for (i = 0; i < max(n, 1U); i++)
		ib_dma_sync_single_for_cpu(priv->ca, buf->dma[i], PAGE_SIZE,
					   DMA_FROM_DEVICE);
	skb = ipoib_cm_rx_skb(dev, buf->pages, len);
	if (!skb) {
		for (i = 0; i < max(n, 1U); i++)
			ib_dma_sync_single_for_device(priv->ca, buf->dma[i],
						      PAGE_SIZE,
						      DMA_FROM_DEVICE);
		ipoib_cm_pages_put(priv, &fresh, n);
		dev->stats.rx_dropped++;
		goto repost;
	}
	if (!n)
		ib_dma_sync_single_for_device(priv->ca, buf->dma[0], PAGE_SIZE,
					      DMA_FROM_DEVICE);
	/* the skb has the first n pages: the fresh ones take their place */
	for (i = 0; i < n; i++) {
		ib_dma_unmap_page(priv->ca, buf->dma[i], PAGE_SIZE,
				  DMA_FROM_DEVICE);
		buf->pages[i] = fresh.pages[i];
		buf->dma[i] = fresh.dma[i];
	}

	skb->protocol = ((struct ipoib_header *)skb->data)->proto;
	/* the link header as for a datagram: an empty pseudo-header */
	memset(skb_push(skb, IPOIB_PSEUDO_LEN), 0, IPOIB_PSEUDO_LEN);
	skb_reset_mac_header(skb);
	skb_pull(skb, IPOIB_HARD_LEN);
	skb->pkt_type = PACKET_HOST;
	skb->dev = dev;
	dev->stats.rx_packets++;
	dev->stats.rx_bytes += skb->len;
	netif_receive_skb(skb);
repost:
	ipoib_cm_buf_repost(priv, buf);
}

/* ---- the passive side ----------------------------------------------- */

/* hand a passive connection to the reaper; priv->lock held */
static void ipoib_cm_rx_kill(struct ipoib_priv *priv,
			     struct ipoib_cm_rx *conn)
{
	lockdep_assert_held(&priv->lock);
	if (conn->dead)
		return;
	conn->dead = true;
	list_move_tail(&conn->list, &priv->cm.rx_reap);
	queue_work(priv->cm.wq, &priv->cm.rx_reap_work);
}

static void ipoib_cm_rx_ring_free(struct ipoib_priv *priv,
				  struct ipoib_cm_rx *conn)
{
	unsigned int i;

	if (!conn->ring)
		return;
	for (i = 0; i < IPOIB_CM_RX_RING; i++)
		ipoib_cm_pages_put(priv, &conn->ring[i], priv->cm.nsge);
	kvfree(conn->ring);
	conn->ring = NULL;
}

/* take a passive connection down; its CM ID is gone */
static void ipoib_cm_rx_destroy(struct ipoib_priv *priv,
				struct ipoib_cm_rx *conn, bool drain)
{
	unsigned long flags;

	if (drain)
		ib_drain_qp(conn->qp);
	ib_destroy_qp(conn->qp);
	ipoib_cm_rx_ring_free(priv, conn);
	if (!priv->cm.srq) {
		spin_lock_irqsave(&priv->lock, flags);
		priv->cm.nonsrq_conns--;
		spin_unlock_irqrestore(&priv->lock, flags);
	}
	kfree(conn);
}

static void ipoib_cm_rx_reap_work(struct work_struct *work)
{
	struct ipoib_priv *priv = container_of(work, struct ipoib_priv,
					       cm.rx_reap_work);
	struct ipoib_cm_rx *conn, *tmp;
	unsigned long flags;
	LIST_HEAD(gone);

	spin_lock_irqsave(&priv->lock, flags);
	list_splice_init(&priv->cm.rx_reap, &gone);
	spin_unlock_irqrestore(&priv->lock, flags);
	list_for_each_entry_safe(conn, tmp, &gone, list) {
		list_del(&conn->list);
		/* a DREQ for an established one; waits for its handler */
		ib_destroy_cm_id(conn->id);
		ipoib_cm_rx_destroy(priv, conn, true);
	}
}

static void ipoib_cm_stale_work(struct work_struct *work)
{
	struct ipoib_priv *priv = container_of(to_delayed_work(work),
					       struct ipoib_priv,
					       cm.stale_work);
	unsigned long flags;
	bool more;

	spin_lock_irqsave(&priv->lock, flags);
	if (ipoib_cm_rx_collect_stale(&priv->cm.rx_list, &priv->cm.rx_reap,
				      jiffies, IPOIB_CM_RX_TIMEOUT))
		queue_work(priv->cm.wq, &priv->cm.rx_reap_work);
	more = !list_empty(&priv->cm.rx_list);
	spin_unlock_irqrestore(&priv->lock, flags);
	if (more)
		queue_delayed_work(priv->cm.wq, &priv->cm.stale_work,
				   IPOIB_CM_RX_SCAN);
}

static struct ib_qp *ipoib_cm_rx_qp(struct ipoib_priv *priv,
				    struct ipoib_cm_rx *conn)
{
	struct ib_qp_init_attr attr = {
		.qp_context = conn,
		/* the drain's marker completes behind the receives */
		.send_cq = priv->recv_cq,
		.recv_cq = priv->recv_cq,
		.srq = priv->cm.srq,
		.cap = {
			.max_send_wr = 1,
			.max_send_sge = 1,
		},
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.qp_type = IB_QPT_RC,
	};

	if (!priv->cm.srq) {
		attr.cap.max_recv_wr = IPOIB_CM_RX_RING + 1;
		attr.cap.max_recv_sge = priv->cm.nsge;
	}
	return ib_create_qp(priv->pd, &attr);
}

/* INIT, RTR (expecting @psn), RTS from what the CM agreed */
static int ipoib_cm_rx_qp_up(struct ib_cm_id *id, struct ib_qp *qp, u32 psn)
{
	static const enum ib_qp_state steps[] = {
		IB_QPS_INIT, IB_QPS_RTR, IB_QPS_RTS,
	};
	struct ib_qp_attr attr;
	int mask, ret, i;

	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		attr.qp_state = steps[i];
		ret = ib_cm_init_qp_attr(id, &attr, &mask);
		if (ret)
			return ret;
		if (steps[i] == IB_QPS_RTR)
			attr.rq_psn = psn;
		ret = ib_modify_qp(qp, &attr, mask);
		if (ret)
			return ret;
	}
	return 0;
}

static int ipoib_cm_rx_ring_init(struct ipoib_priv *priv,
				 struct ipoib_cm_rx *conn)
{
	unsigned int i;
	int ret;

	conn->ring = kvcalloc(IPOIB_CM_RX_RING, sizeof(*conn->ring),
			      GFP_KERNEL);
	if (!conn->ring)
		return -ENOMEM;
	for (i = 0; i < IPOIB_CM_RX_RING; i++) {
		conn->ring[i].conn = conn;
		ret = ipoib_cm_buf_fill(priv, &conn->ring[i], GFP_KERNEL);
		if (!ret)
			ret = ipoib_cm_buf_post(priv, &conn->ring[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/* a REQ for our service: set up the passive side, answer with a REP */
static int ipoib_cm_req(struct ipoib_priv *priv, struct ib_cm_id *id,
			const struct ib_cm_event *event)
{
	const struct ib_cm_req_event_param *req = &event->param.req_rcvd;
	struct ib_cm_rep_param rep = {};
	struct ipoib_cm_data data;
	struct ipoib_cm_rx *conn;
	unsigned long flags;
	bool drain = false;
	u32 psn;
	int ret;

	conn = kzalloc(sizeof(*conn), GFP_KERNEL);
	if (!conn)
		return -ENOMEM;
	conn->priv = priv;
	conn->id = id;
	conn->last_rx = jiffies;
	INIT_LIST_HEAD(&conn->list);

	spin_lock_irqsave(&priv->lock, flags);
	if (!priv->cm.srq && priv->cm.nonsrq_conns >= IPOIB_CM_MAX_NONSRQ) {
		spin_unlock_irqrestore(&priv->lock, flags);
		netdev_dbg(priv->dev, "connected mode: no QP for another peer\n");
		ib_send_cm_rej(id, IB_CM_REJ_NO_QP, NULL, 0, NULL, 0);
		kfree(conn);
		return -ENOSPC;
	}
	if (!priv->cm.srq)
		priv->cm.nonsrq_conns++;
	spin_unlock_irqrestore(&priv->lock, flags);

	conn->qp = ipoib_cm_rx_qp(priv, conn);
	if (IS_ERR(conn->qp)) {
		ret = PTR_ERR(conn->qp);
		conn->qp = NULL;
		goto err;
	}
	psn = get_random_u32() & 0xffffff;
	ret = ipoib_cm_rx_qp_up(id, conn->qp, psn);
	if (ret)
		goto err;
	if (!priv->cm.srq) {
		drain = true;
		ret = ipoib_cm_rx_ring_init(priv, conn);
		if (ret)
			goto err;
	}
	id->context = conn;

	spin_lock_irqsave(&priv->lock, flags);
	list_add_tail(&conn->list, &priv->cm.rx_list);
	if (!delayed_work_pending(&priv->cm.stale_work))
		queue_delayed_work(priv->cm.wq, &priv->cm.stale_work,
				   IPOIB_CM_RX_SCAN);
	spin_unlock_irqrestore(&priv->lock, flags);

	ipoib_cm_data_pack(&data, priv->qp->qp_num,
			   priv->cm.max_mtu + IPOIB_ENCAP_LEN);
	rep.qp_num = conn->qp->qp_num;
	rep.starting_psn = psn;
	rep.private_data = &data;
	rep.private_data_len = sizeof(data);
	rep.rnr_retry_count = req->rnr_retry_count;
	rep.srq = !!priv->cm.srq;
	ret = ib_send_cm_rep(id, &rep);
	if (ret) {
		netdev_warn(priv->dev, "connected mode: REP not sent: %d\n",
			    ret);
		spin_lock_irqsave(&priv->lock, flags);
		ipoib_cm_rx_kill(priv, conn);
		spin_unlock_irqrestore(&priv->lock, flags);
	}
	return 0;

err:
	/* the CM rejects the REQ and destroys the CM ID */
	netdev_dbg(priv->dev, "connected mode: REQ refused: %d\n", ret);
	if (conn->qp) {
		conn->dead = true;
		ipoib_cm_rx_destroy(priv, conn, drain);
		return ret;
	}
	if (!priv->cm.srq) {
		spin_lock_irqsave(&priv->lock, flags);
		priv->cm.nonsrq_conns--;
		spin_unlock_irqrestore(&priv->lock, flags);
	}
	kfree(conn);
	return ret;
}

static int ipoib_cm_rx_handler(struct ib_cm_id *id,
			       const struct ib_cm_event *event)
{
	struct ipoib_cm_rx *conn = id->context;
	struct ipoib_priv *priv;
	unsigned long flags;
	int ret;

	switch (event->event) {
	case IB_CM_REQ_RECEIVED:
		/* a new CM ID with the listener's context */
		priv = id->context;
		spin_lock_irqsave(&priv->lock, flags);
		if (!test_bit(IPOIB_IB_UP, &priv->flags)) {
			spin_unlock_irqrestore(&priv->lock, flags);
			return -ENETDOWN;
		}
		priv->cm.req_busy++;
		spin_unlock_irqrestore(&priv->lock, flags);
		ret = ipoib_cm_req(priv, id, event);
		spin_lock_irqsave(&priv->lock, flags);
		if (!--priv->cm.req_busy)
			wake_up_var(&priv->cm.req_busy);
		spin_unlock_irqrestore(&priv->lock, flags);
		return ret;
	case IB_CM_DREQ_RECEIVED:
		ib_send_cm_drep(id, NULL, 0);
		fallthrough;
	case IB_CM_REJ_RECEIVED:
	case IB_CM_REP_ERROR:
		priv = conn->priv;
		spin_lock_irqsave(&priv->lock, flags);
		ipoib_cm_rx_kill(priv, conn);
		spin_unlock_irqrestore(&priv->lock, flags);
		return 0;
	default:
		return 0;
	}
}

/* ---- the active side ------------------------------------------------ */

static u32 ipoib_cm_tx_key(const union ib_gid *dgid, u32 dqpn)
{
	return jhash(dgid->raw, sizeof(dgid->raw), dqpn);
}

static struct ipoib_cm_tx *ipoib_cm_tx_find(struct ipoib_priv *priv,
					    const union ib_gid *dgid,
					    u32 dqpn)
{
	struct ipoib_cm_tx *tx;

	hash_for_each_possible(priv->cm.tx_hash, tx, node,
			       ipoib_cm_tx_key(dgid, dqpn))
		if (tx->dqpn == dqpn &&
		    !memcmp(tx->dgid.raw, dgid->raw, sizeof(dgid->raw)))
			return tx;
	return NULL;
}

/*
 * Out of the table, to the reaper unless the start work has it (it
 * hands it over once done); priv->lock held.  Packets the transmit
 * routine still sends on it go before the reaper destroys it.
 */
static void ipoib_cm_tx_kill(struct ipoib_priv *priv, struct ipoib_cm_tx *tx)
{
	lockdep_assert_held(&priv->lock);
	if (test_and_set_bit(IPOIB_CM_TX_DEAD, &tx->flags))
		return;
	hash_del(&tx->node);
	clear_bit(IPOIB_CM_TX_UP, &tx->flags);
	if (test_bit(IPOIB_CM_TX_STARTING, &tx->flags))
		return;
	list_move_tail(&tx->list, &priv->cm.tx_reap);
	queue_work(priv->cm.wq, &priv->cm.tx_reap_work);
}

static void ipoib_cm_tx_kill_locked(struct ipoib_cm_tx *tx)
{
	struct ipoib_priv *priv = tx->priv;
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	ipoib_cm_tx_kill(priv, tx);
	spin_unlock_irqrestore(&priv->lock, flags);
}

static void ipoib_cm_tx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ipoib_priv *priv = cq->cq_context;
	struct ipoib_tx_buf *slot = container_of(wc->wr_cqe,
						 struct ipoib_tx_buf, cqe);
	struct ipoib_cm_tx *tx = wc->qp->qp_context;
	struct net_device *dev = priv->dev;
	struct sk_buff *skb = slot->skb;

	ib_dma_unmap_single(priv->ca, slot->mapping, skb->len, DMA_TO_DEVICE);
	slot->skb = NULL;

	spin_lock_bh(&priv->tx_lock);
	ipoib_tx_count(dev, wc, skb);
	tx->tail++;
	priv->cm_inflight--;
	ipoib_tx_wake(priv);
	spin_unlock_bh(&priv->tx_lock);
	dev_consume_skb_any(skb);

	if (wc->status != IB_WC_SUCCESS && wc->status != IB_WC_WR_FLUSH_ERR) {
		netdev_dbg(dev, "connected mode: send to %pI6 failed: %d\n",
			   tx->dgid.raw, wc->status);
		ipoib_cm_tx_kill_locked(tx);
	}
}

/**
 * ipoib_cm_send - send a packet on an active connection
 * @priv: the interface
 * @tx: a connection that is up
 * @skb: the packet, data at the IPoIB header; consumed
 *
 * Context: the transmit routine (its lock held: the connection stays).
 */
void ipoib_cm_send(struct ipoib_priv *priv, struct ipoib_cm_tx *tx,
		   struct sk_buff *skb)
{
	struct net_device *dev = priv->dev;
	struct ipoib_tx_buf *slot;
	struct ib_send_wr wr = {};
	struct ib_sge sge;
	u64 mapping;

	if (skb->len > tx->mtu) {
		ipoib_too_long(priv, skb, tx->mtu - IPOIB_ENCAP_LEN);
		return;
	}
	if (skb_linearize(skb))
		goto drop;
	mapping = ib_dma_map_single(priv->ca, skb->data, skb->len,
				    DMA_TO_DEVICE);
	if (ib_dma_mapping_error(priv->ca, mapping))
		goto drop;

	spin_lock_bh(&priv->tx_lock);
	if (ipoib_tx_inflight(priv) >= IPOIB_TX_RING) {
		spin_unlock_bh(&priv->tx_lock);
		ib_dma_unmap_single(priv->ca, mapping, skb->len,
				    DMA_TO_DEVICE);
		goto drop;
	}
	slot = &tx->ring[tx->head & (IPOIB_TX_RING - 1)];
	slot->skb = skb;
	slot->mapping = mapping;
	slot->cqe.done = ipoib_cm_tx_done;
	tx->head++;
	priv->cm_inflight++;
	if (ipoib_tx_inflight(priv) >= IPOIB_TX_RING)
		netif_stop_queue(dev);
	spin_unlock_bh(&priv->tx_lock);

	sge.addr = mapping;
	sge.length = skb->len;
	sge.lkey = priv->pd->local_dma_lkey;
	wr.wr_cqe = &slot->cqe;
	wr.opcode = IB_WR_SEND;
	wr.send_flags = IB_SEND_SIGNALED;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	if (ib_post_send(tx->qp, &wr, NULL)) {
		/* the transmit routine is alone: nobody took a slot since */
		spin_lock_bh(&priv->tx_lock);
		tx->head--;
		priv->cm_inflight--;
		slot->skb = NULL;
		if (netif_queue_stopped(dev))
			netif_wake_queue(dev);
		spin_unlock_bh(&priv->tx_lock);
		ib_dma_unmap_single(priv->ca, mapping, skb->len,
				    DMA_TO_DEVICE);
		goto drop;
	}
	netif_trans_update(dev);
	return;

drop:
	dev->stats.tx_dropped++;
	dev_kfree_skb_any(skb);
}

/**
 * ipoib_cm_wanted - does a packet go on a connection?
 * @priv: the interface
 * @ha: the destination's hardware address
 * @skb: the packet
 *
 * In connected mode the IPv4 and IPv6 packets for a peer that takes
 * connections do; ARP and the rest go as datagrams.
 *
 * Context: Any context.
 * Return: true if it does.
 */
bool ipoib_cm_wanted(struct ipoib_priv *priv, const u8 *ha,
		     const struct sk_buff *skb)
{
	__be16 proto = skb->protocol;

	if (!test_bit(IPOIB_ADMIN_CM, &priv->flags) || !priv->cm.capable ||
	    !ipoib_cm_peer_capable(ha))
		return false;
	return proto == htons(ETH_P_IP) || proto == htons(ETH_P_IPV6);
}

/**
 * ipoib_cm_route - the connection for a packet
 * @priv: the interface, IB side up
 * @path: the resolved path to the destination
 * @ha: the destination's hardware address
 * @skb: the packet, pseudo-header on
 * @txp: the connection to send on
 *
 * A new connection is made (the start work sets it up) and the packet
 * waits for it, as it waits while the connection is set up.
 *
 * Context: the transmit routine, priv->lock held.
 * Return: 0 with *@txp up (the caller sends once it dropped the lock),
 * 1 when the packet waits, or -ENOMEM / -ENOBUFS (the caller drops it).
 */
int ipoib_cm_route(struct ipoib_priv *priv, struct ipoib_path *path,
		   const u8 *ha, struct sk_buff *skb, struct ipoib_cm_tx **txp)
{
	const union ib_gid *dgid = ipoib_hwaddr_gid(ha);
	u32 dqpn = ipoib_hwaddr_qpn(ha);
	struct ipoib_cm_tx *tx;

	lockdep_assert_held(&priv->lock);
	tx = ipoib_cm_tx_find(priv, dgid, dqpn);
	if (!tx) {
		tx = kzalloc(sizeof(*tx), GFP_ATOMIC);
		if (!tx)
			return -ENOMEM;
		tx->priv = priv;
		tx->dgid = *dgid;
		tx->dqpn = dqpn;
		tx->rec = path->rec;
		skb_queue_head_init(&tx->queue);
		hash_add(priv->cm.tx_hash, &tx->node,
			 ipoib_cm_tx_key(dgid, dqpn));
		list_add_tail(&tx->list, &priv->cm.tx_start);
		queue_work(priv->cm.wq, &priv->cm.start_work);
	}
	if (test_bit(IPOIB_CM_TX_UP, &tx->flags)) {
		*txp = tx;
		return 0;
	}
	if (skb_queue_len(&tx->queue) >= IPOIB_CM_QUEUE_MAX)
		return -ENOBUFS;
	__skb_queue_tail(&tx->queue, skb);
	return 1;
}

static int ipoib_cm_tx_connect(struct ipoib_priv *priv,
			       struct ipoib_cm_tx *tx)
{
	struct ib_qp_init_attr init = {
		.qp_context = tx,
		.send_cq = priv->send_cq,
		/* no receive on it: the peer only sends on its own */
		.recv_cq = priv->recv_cq,
		.cap = {
			.max_send_wr = IPOIB_TX_RING + 1,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.qp_type = IB_QPT_RC,
	};
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.pkey_index = priv->pkey_index,
		.port_num = priv->port,
		.qp_access_flags = IB_ACCESS_LOCAL_WRITE,
	};
	struct ib_cm_req_param req = {};
	struct ipoib_cm_data data;
	int ret;

	tx->ring = kcalloc(IPOIB_TX_RING, sizeof(*tx->ring), GFP_KERNEL);
	if (!tx->ring)
		return -ENOMEM;
	tx->qp = ib_create_qp(priv->pd, &init);
	if (IS_ERR(tx->qp)) {
		ret = PTR_ERR(tx->qp);
		tx->qp = NULL;
		return ret;
	}
	ret = ib_modify_qp(tx->qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (ret)
		return ret;
	tx->id = ib_create_cm_id(priv->ca, ipoib_cm_tx_handler, tx);
	if (IS_ERR(tx->id)) {
		ret = PTR_ERR(tx->id);
		tx->id = NULL;
		return ret;
	}

	ipoib_cm_data_pack(&data, priv->qp->qp_num,
			   priv->cm.max_mtu + IPOIB_ENCAP_LEN);
	req.primary_path = &tx->rec;
	req.service_id = ipoib_cm_service_id(tx->dqpn);
	req.qp_num = tx->qp->qp_num;
	req.qp_type = IB_QPT_RC;
	req.starting_psn = get_random_u32() & 0xffffff;
	req.private_data = &data;
	req.private_data_len = sizeof(data);
	req.responder_resources = 4;
	req.remote_cm_response_timeout = IPOIB_CM_RESPONSE_TIMEOUT;
	req.local_cm_response_timeout = IPOIB_CM_RESPONSE_TIMEOUT;
	req.retry_count = 0;
	req.rnr_retry_count = IPOIB_CM_RNR_RETRY;
	req.max_cm_retries = IPOIB_CM_MAX_CM_RETRIES;
	req.srq = !!priv->cm.srq;
	return ib_send_cm_req(tx->id, &req);
}

static void ipoib_cm_start_work(struct work_struct *work)
{
	struct ipoib_priv *priv = container_of(work, struct ipoib_priv,
					       cm.start_work);
	struct ipoib_cm_tx *tx;
	unsigned long flags;
	int ret;

	for (;;) {
		spin_lock_irqsave(&priv->lock, flags);
		tx = list_first_entry_or_null(&priv->cm.tx_start,
					      struct ipoib_cm_tx, list);
		if (tx) {
			list_del_init(&tx->list);
			set_bit(IPOIB_CM_TX_STARTING, &tx->flags);
		}
		spin_unlock_irqrestore(&priv->lock, flags);
		if (!tx)
			break;

		ret = ipoib_cm_tx_connect(priv, tx);
		if (ret)
			netdev_dbg(priv->dev, "connected mode: no REQ to %pI6 QPN 0x%06x: %d\n",
				   tx->dgid.raw, tx->dqpn, ret);
		spin_lock_irqsave(&priv->lock, flags);
		if (ret)
			ipoib_cm_tx_kill(priv, tx);
		clear_bit(IPOIB_CM_TX_STARTING, &tx->flags);
		if (test_bit(IPOIB_CM_TX_DEAD, &tx->flags)) {
			list_move_tail(&tx->list, &priv->cm.tx_reap);
			queue_work(priv->cm.wq, &priv->cm.tx_reap_work);
		}
		spin_unlock_irqrestore(&priv->lock, flags);
	}
}

static void ipoib_cm_tx_destroy(struct ipoib_priv *priv,
				struct ipoib_cm_tx *tx)
{
	unsigned int inflight;

	/* a DREQ for an established one; waits for its handler */
	if (tx->id)
		ib_destroy_cm_id(tx->id);
	if (tx->qp) {
		spin_lock_bh(&priv->tx_lock);
		inflight = tx->head - tx->tail;
		spin_unlock_bh(&priv->tx_lock);
		/* flushes the sends in flight, their completions done */
		if (inflight)
			ib_drain_sq(tx->qp);
		ib_destroy_qp(tx->qp);
	}
	priv->dev->stats.tx_dropped += skb_queue_len(&tx->queue);
	skb_queue_purge(&tx->queue);
	kfree(tx->ring);
	kfree(tx);
}

static void ipoib_cm_tx_reap_work(struct work_struct *work)
{
	struct ipoib_priv *priv = container_of(work, struct ipoib_priv,
					       cm.tx_reap_work);
	struct ipoib_cm_tx *tx, *tmp;
	unsigned long flags;
	LIST_HEAD(gone);

	spin_lock_irqsave(&priv->lock, flags);
	list_splice_init(&priv->cm.tx_reap, &gone);
	spin_unlock_irqrestore(&priv->lock, flags);
	if (list_empty(&gone))
		return;
	/* a transmit routine that found one of them has posted */
	netif_tx_lock_bh(priv->dev);
	netif_tx_unlock_bh(priv->dev);
	list_for_each_entry_safe(tx, tmp, &gone, list) {
		list_del(&tx->list);
		ipoib_cm_tx_destroy(priv, tx);
	}
}

/* the peer accepted: our QP to RTS, RTU, and the waiting packets out */
static int ipoib_cm_rep(struct ipoib_cm_tx *tx,
			const struct ib_cm_event *event)
{
	struct ipoib_priv *priv = tx->priv;
	struct sk_buff_head send;
	struct ib_qp_attr attr;
	struct sk_buff *skb;
	unsigned long flags;
	int mask, ret;
	u32 mtu;

	ret = ipoib_cm_data_mtu(event->private_data, IB_CM_REP_PRIVATE_DATA_SIZE,
				&mtu);
	if (ret) {
		netdev_warn(priv->dev, "connected mode: %pI6 takes no packet\n",
			    tx->dgid.raw);
		return ret;
	}
	attr.qp_state = IB_QPS_RTR;
	ret = ib_cm_init_qp_attr(tx->id, &attr, &mask);
	if (!ret)
		ret = ib_modify_qp(tx->qp, &attr, mask);
	if (ret)
		return ret;
	attr.qp_state = IB_QPS_RTS;
	ret = ib_cm_init_qp_attr(tx->id, &attr, &mask);
	if (!ret)
		ret = ib_modify_qp(tx->qp, &attr, mask);
	if (ret)
		return ret;
	ret = ib_send_cm_rtu(tx->id, NULL, 0);
	if (ret)
		return ret;

	__skb_queue_head_init(&send);
	spin_lock_irqsave(&priv->lock, flags);
	if (!test_bit(IPOIB_CM_TX_DEAD, &tx->flags)) {
		tx->mtu = mtu;
		set_bit(IPOIB_CM_TX_UP, &tx->flags);
		skb_queue_splice_init(&tx->queue, &send);
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	netdev_dbg(priv->dev, "connected mode: up to %pI6 QPN 0x%06x, MTU %u\n",
		   tx->dgid.raw, tx->dqpn, mtu - IPOIB_ENCAP_LEN);
	while ((skb = __skb_dequeue(&send)))
		dev_queue_xmit(skb);
	return 0;
}

static int ipoib_cm_tx_handler(struct ib_cm_id *id,
			       const struct ib_cm_event *event)
{
	struct ipoib_cm_tx *tx = id->context;

	switch (event->event) {
	case IB_CM_REP_RECEIVED:
		if (ipoib_cm_rep(tx, event)) {
			ib_send_cm_rej(id, IB_CM_REJ_CONSUMER_DEFINED, NULL, 0,
				       NULL, 0);
			ipoib_cm_tx_kill_locked(tx);
		}
		break;
	case IB_CM_DREQ_RECEIVED:
		ib_send_cm_drep(id, NULL, 0);
		fallthrough;
	case IB_CM_REQ_ERROR:
	case IB_CM_REJ_RECEIVED:
	case IB_CM_DREQ_ERROR:
	case IB_CM_DREP_RECEIVED:
	case IB_CM_TIMEWAIT_EXIT:
		netdev_dbg(tx->priv->dev, "connected mode: %pI6 QPN 0x%06x: CM event %d\n",
			   tx->dgid.raw, tx->dqpn, event->event);
		ipoib_cm_tx_kill_locked(tx);
		break;
	default:
		break;
	}
	/* the reaper destroys the CM ID */
	return 0;
}

/**
 * ipoib_cm_flush_tx - take every active connection down
 * @priv: the interface
 *
 * The reaper destroys them; packets for the peers make new ones.
 *
 * Context: process context.
 */
void ipoib_cm_flush_tx(struct ipoib_priv *priv)
{
	struct hlist_node *tmp;
	struct ipoib_cm_tx *tx;
	unsigned long flags;
	int bkt;

	spin_lock_irqsave(&priv->lock, flags);
	hash_for_each_safe(priv->cm.tx_hash, bkt, tmp, tx, node)
		ipoib_cm_tx_kill(priv, tx);
	spin_unlock_irqrestore(&priv->lock, flags);
}

/* ---- packets too long ----------------------------------------------- */

static void ipoib_too_long_work(struct work_struct *work)
{
	struct ipoib_priv *priv = container_of(work, struct ipoib_priv,
					       cm.too_long_work);
	struct sk_buff *skb;

	while ((skb = skb_dequeue(&priv->cm.too_long))) {
		/* the MTU travelled in the control block */
		unsigned int mtu = *(unsigned int *)skb->cb;

		if (skb->protocol == htons(ETH_P_IP)) {
			memset(IPCB(skb), 0, sizeof(*IPCB(skb)));
			icmp_send(skb, ICMP_DEST_UNREACH, ICMP_FRAG_NEEDED,
				  htonl(mtu));
		}
#if IS_ENABLED(CONFIG_IPV6)
		else if (skb->protocol == htons(ETH_P_IPV6)) {
			memset(IP6CB(skb), 0, sizeof(*IP6CB(skb)));
			icmpv6_send(skb, ICMPV6_PKT_TOOBIG, 0, mtu);
		}
#endif
		dev_kfree_skb_any(skb);
	}
}

/**
 * ipoib_too_long - drop a packet its destination cannot take
 * @priv: the interface
 * @skb: the packet, data at the IPoIB header; consumed
 * @mtu: the largest IP packet the destination takes
 *
 * The route's PMTU is lowered to @mtu and the sender told by ICMP
 * "fragmentation needed" (IPv4) or "packet too big" (IPv6), from the
 * CM workqueue.
 *
 * Context: the transmit routine.
 */
void ipoib_too_long(struct ipoib_priv *priv, struct sk_buff *skb,
		    unsigned int mtu)
{
	struct net_device *dev = priv->dev;

	dev->stats.tx_dropped++;
	dev->stats.tx_errors++;
	net_dbg_ratelimited("%s: packet of %u bytes > %u, dropped\n",
			    dev->name, skb->len - IPOIB_ENCAP_LEN, mtu);
	if (skb_queue_len(&priv->cm.too_long) >= IPOIB_CM_TOO_LONG_MAX) {
		dev_kfree_skb_any(skb);
		return;
	}
	skb_dst_update_pmtu(skb, mtu);
	skb_pull(skb, IPOIB_ENCAP_LEN);
	BUILD_BUG_ON(sizeof(mtu) > sizeof(skb->cb));
	*(unsigned int *)skb->cb = mtu;
	skb_queue_tail(&priv->cm.too_long, skb);
	queue_work(priv->cm.wq, &priv->cm.too_long_work);
}

/* ---- the interface -------------------------------------------------- */

/**
 * ipoib_cm_init - connected mode's part of an interface
 * @priv: the interface (ndo_init), its PD allocated
 *
 * Without the IB CM on the port the interface stays datagram only.
 * With an SRQ its receive buffers are posted now and stay until
 * ipoib_cm_cleanup().
 *
 * Return: 0 or an errno.
 */
int ipoib_cm_init(struct ipoib_priv *priv)
{
	struct ipoib_cm *cm = &priv->cm;
	struct ib_srq_init_attr sattr = {
		.srq_type = IB_SRQT_BASIC,
		.attr = { .max_wr = IPOIB_CM_SRQ_RING },
	};
	unsigned int i, nsge;
	int ret;

	INIT_LIST_HEAD(&cm->rx_list);
	INIT_LIST_HEAD(&cm->rx_reap);
	INIT_LIST_HEAD(&cm->tx_start);
	INIT_LIST_HEAD(&cm->tx_reap);
	hash_init(cm->tx_hash);
	INIT_WORK(&cm->start_work, ipoib_cm_start_work);
	INIT_WORK(&cm->tx_reap_work, ipoib_cm_tx_reap_work);
	INIT_WORK(&cm->rx_reap_work, ipoib_cm_rx_reap_work);
	INIT_DELAYED_WORK(&cm->stale_work, ipoib_cm_stale_work);
	INIT_WORK(&cm->too_long_work, ipoib_too_long_work);
	skb_queue_head_init(&cm->too_long);
	cm->wq = alloc_ordered_workqueue("ipoib_cm_%s", WQ_MEM_RECLAIM,
					 priv->dev->name);
	if (!cm->wq)
		return -ENOMEM;

	cm->capable = rdma_cap_ib_cm(priv->ca, priv->port);
	if (!cm->capable)
		return 0;

	nsge = min_t(unsigned int, IPOIB_CM_RX_SG,
		     priv->ca->attrs.max_srq_sge);
	sattr.attr.max_sge = nsge;
	cm->srq = nsge && READ_ONCE(cm_srq) ? ib_create_srq(priv->pd, &sattr) :
					      ERR_PTR(-EOPNOTSUPP);
	if (IS_ERR(cm->srq)) {
		if (PTR_ERR(cm->srq) != -EOPNOTSUPP)
			netdev_warn(priv->dev, "connected mode without SRQ: %ld\n",
				    PTR_ERR(cm->srq));
		cm->srq = NULL;
		nsge = min_t(unsigned int, IPOIB_CM_RX_SG,
			     priv->ca->attrs.max_recv_sge);
	}
	cm->nsge = nsge;
	cm->max_mtu = ipoib_cm_mtu_of(nsge, PAGE_SIZE);
	if (!cm->srq)
		return 0;

	cm->srq_ring = kvcalloc(IPOIB_CM_SRQ_RING, sizeof(*cm->srq_ring),
				GFP_KERNEL);
	if (!cm->srq_ring) {
		ret = -ENOMEM;
		goto err;
	}
	for (i = 0; i < IPOIB_CM_SRQ_RING; i++) {
		ret = ipoib_cm_buf_fill(priv, &cm->srq_ring[i], GFP_KERNEL);
		if (!ret)
			ret = ipoib_cm_buf_post(priv, &cm->srq_ring[i]);
		if (ret)
			goto err;
	}
	return 0;

err:
	ipoib_cm_cleanup(priv);
	return ret;
}

/**
 * ipoib_cm_cleanup - undo ipoib_cm_init()
 * @priv: the interface, IB side down (no connection left)
 */
void ipoib_cm_cleanup(struct ipoib_priv *priv)
{
	struct ipoib_cm *cm = &priv->cm;
	unsigned int i;

	if (cm->srq) {
		ib_destroy_srq(cm->srq);
		cm->srq = NULL;
	}
	if (cm->srq_ring) {
		for (i = 0; i < IPOIB_CM_SRQ_RING; i++)
			ipoib_cm_pages_put(priv, &cm->srq_ring[i], cm->nsge);
		kvfree(cm->srq_ring);
		cm->srq_ring = NULL;
	}
	if (cm->wq) {
		destroy_workqueue(cm->wq);
		cm->wq = NULL;
	}
	skb_queue_purge(&cm->too_long);
	cm->capable = false;
}

/**
 * ipoib_cm_start - listen for connections
 * @priv: the interface, its UD QP in RTS; ctl_mutex held
 *
 * Return: 0 or an errno.
 */
int ipoib_cm_start(struct ipoib_priv *priv)
{
	struct ib_cm_id *id;
	int ret;

	lockdep_assert_held(&priv->ctl_mutex);
	if (!priv->cm.capable || priv->cm.listen_id)
		return 0;
	id = ib_create_cm_id(priv->ca, ipoib_cm_rx_handler, priv);
	if (IS_ERR(id))
		return PTR_ERR(id);
	ret = ib_cm_listen(id, ipoib_cm_service_id(priv->qp->qp_num));
	if (ret) {
		ib_destroy_cm_id(id);
		return ret;
	}
	priv->cm.listen_id = id;
	return 0;
}

/**
 * ipoib_cm_stop - take every connection down
 * @priv: the interface, IPOIB_IB_UP cleared; ctl_mutex held
 *
 * Stops listening, waits for the REQs being answered, and destroys
 * every connection, waiting for each.
 */
void ipoib_cm_stop(struct ipoib_priv *priv)
{
	struct ipoib_cm_rx *conn, *tmp;
	unsigned long flags;

	lockdep_assert_held(&priv->ctl_mutex);
	if (!priv->cm.capable)
		return;
	if (priv->cm.listen_id) {
		ib_destroy_cm_id(priv->cm.listen_id);
		priv->cm.listen_id = NULL;
	}
	/* a REQ handler past its check adds its connection, then ends */
	wait_var_event(&priv->cm.req_busy, !READ_ONCE(priv->cm.req_busy));

	ipoib_cm_flush_tx(priv);
	cancel_delayed_work_sync(&priv->cm.stale_work);
	spin_lock_irqsave(&priv->lock, flags);
	list_for_each_entry_safe(conn, tmp, &priv->cm.rx_list, list)
		ipoib_cm_rx_kill(priv, conn);
	spin_unlock_irqrestore(&priv->lock, flags);
	/* the start, reap and ICMP works: none takes ctl_mutex */
	flush_workqueue(priv->cm.wq);
	skb_queue_purge(&priv->cm.too_long);
}
