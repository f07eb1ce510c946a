// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Multicast groups of an IPoIB interface, joined through the SA.  The
 * broadcast group comes first: its record gives the link's Q_Key and
 * MTU, which every other group must share (RFC 4391 section 4), and its
 * join turns the carrier on.  Then the groups of the net device's
 * multicast list (full members, the QP attached), and groups the
 * interface only sends to (send-only members, not attached), made when
 * a packet for them comes.
 *
 * Everything but the transmit path runs in the interface's mcast_work
 * under ctl_mutex; the SA's callbacks only note the answer and queue the
 * work (they cannot take ctl_mutex: ipoib_mcast_stop() waits for them
 * holding it).  Entries leave the list only in the work or in
 * ipoib_mcast_stop(), so the work may use one after dropping priv->lock.
 */

#include <linux/etherdevice.h>

#include "ipoib.h"

#define IPOIB_MCAST_BACKOFF_MAX	16	/* seconds */

static struct ipoib_mcast *ipoib_mcast_alloc(struct ipoib_priv *priv,
					     const union ib_gid *mgid,
					     bool sendonly, gfp_t gfp)
{
	struct ipoib_mcast *mcast = kzalloc(sizeof(*mcast), gfp);

	if (!mcast)
		return NULL;
	mcast->mgid = *mgid;
	mcast->priv = priv;
	mcast->backoff = 1;
	mcast->retry_at = jiffies;
	skb_queue_head_init(&mcast->queue);
	if (sendonly)
		set_bit(IPOIB_MC_SENDONLY, &mcast->flags);
	return mcast;
}

/* caller holds priv->lock */
static struct ipoib_mcast *ipoib_mcast_find(struct ipoib_priv *priv,
					    const union ib_gid *mgid)
{
	struct ipoib_mcast *mcast;

	list_for_each_entry(mcast, &priv->mcast_list, list)
		if (!memcmp(mcast->mgid.raw, mgid->raw, sizeof(mgid->raw)) &&
		    !test_bit(IPOIB_MC_STALE, &mcast->flags))
			return mcast;
	return NULL;
}

static void ipoib_mcast_kick(struct ipoib_priv *priv, unsigned long delay)
{
	mod_delayed_work(priv->wq, &priv->mcast_work, delay);
}

/* The SA answered a join (process context, no lock of ours held). */
static int ipoib_mcast_join_done(int status, struct ib_sa_multicast *mc)
{
	struct ipoib_mcast *mcast = mc->context;
	struct ipoib_priv *priv = mcast->priv;
	unsigned long flags;

	/* a port event lost the membership: the interface's flush rejoins */
	if (status == -ENETRESET)
		return 0;
	spin_lock_irqsave(&priv->lock, flags);
	mcast->status = status;
	if (!status)
		mcast->rec = mc->rec;
	set_bit(IPOIB_MC_DONE, &mcast->flags);
	spin_unlock_irqrestore(&priv->lock, flags);
	ipoib_mcast_kick(priv, 0);
	return 0;
}

static void ipoib_mcast_join(struct ipoib_priv *priv,
			     struct ipoib_mcast *mcast)
{
	struct ib_sa_mcmember_rec rec = {
		.mgid = mcast->mgid,
		.port_gid = priv->local_gid,
		.pkey = cpu_to_be16(priv->pkey),
		.join_state = 1,
	};
	ib_sa_comp_mask mask = IB_SA_MCMEMBER_REC_MGID |
			       IB_SA_MCMEMBER_REC_PORT_GID |
			       IB_SA_MCMEMBER_REC_PKEY |
			       IB_SA_MCMEMBER_REC_JOIN_STATE;
	struct ib_sa_multicast *mc;
	unsigned long flags;

	/* the others share the broadcast group's parameters (RFC 4391) */
	if (mcast != priv->broadcast) {
		struct ib_sa_mcmember_rec *b = &priv->broadcast->rec;

		mask |= IB_SA_MCMEMBER_REC_QKEY |
			IB_SA_MCMEMBER_REC_MTU_SELECTOR |
			IB_SA_MCMEMBER_REC_MTU |
			IB_SA_MCMEMBER_REC_TRAFFIC_CLASS |
			IB_SA_MCMEMBER_REC_RATE_SELECTOR |
			IB_SA_MCMEMBER_REC_RATE |
			IB_SA_MCMEMBER_REC_SL |
			IB_SA_MCMEMBER_REC_FLOW_LABEL |
			IB_SA_MCMEMBER_REC_HOP_LIMIT;
		rec.qkey = b->qkey;
		rec.mtu_selector = IB_SA_EQ;
		rec.mtu = b->mtu;
		rec.traffic_class = b->traffic_class;
		rec.rate_selector = IB_SA_EQ;
		rec.rate = b->rate;
		rec.sl = b->sl;
		rec.flow_label = b->flow_label;
		rec.hop_limit = b->hop_limit;
		if (test_bit(IPOIB_MC_SENDONLY, &mcast->flags))
			rec.join_state = IPOIB_SENDONLY_JOIN;
	}

	set_bit(IPOIB_MC_BUSY, &mcast->flags);
	mc = ib_sa_join_multicast(&ipoib_sa_client, priv->ca, priv->port,
				  &rec, mask, GFP_KERNEL,
				  ipoib_mcast_join_done, mcast);
	spin_lock_irqsave(&priv->lock, flags);
	if (IS_ERR(mc)) {
		netdev_dbg(priv->dev, "join of %pI6 not sent: %ld\n",
			   mcast->mgid.raw, PTR_ERR(mc));
		clear_bit(IPOIB_MC_BUSY, &mcast->flags);
		mcast->retry_at = jiffies + mcast->backoff * HZ;
		mcast->backoff = min(mcast->backoff * 2,
				     IPOIB_MCAST_BACKOFF_MAX);
	} else {
		mcast->mc = mc;
	}
	spin_unlock_irqrestore(&priv->lock, flags);
}

static struct ipoib_ah *ipoib_mcast_make_ah(struct ipoib_priv *priv,
					    struct ipoib_mcast *mcast)
{
	struct rdma_ah_attr av = {};
	struct ipoib_ah *iah;
	struct ib_ah *ah;

	av.type = rdma_ah_find_type(priv->ca, priv->port);
	rdma_ah_set_dlid(&av, be16_to_cpu(mcast->rec.mlid));
	rdma_ah_set_port_num(&av, priv->port);
	rdma_ah_set_sl(&av, mcast->rec.sl);
	rdma_ah_set_static_rate(&av, mcast->rec.rate);
	rdma_ah_set_grh(&av, &mcast->mgid,
			be32_to_cpu(mcast->rec.flow_label), 0,
			mcast->rec.hop_limit, mcast->rec.traffic_class);
	ah = rdma_create_ah(priv->pd, &av, RDMA_CREATE_AH_SLEEPABLE);
	if (IS_ERR(ah))
		return ERR_CAST(ah);
	iah = ipoib_ah_wrap(ah, GFP_KERNEL);
	if (!iah) {
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
		return ERR_PTR(-ENOMEM);
	}
	return iah;
}

static void ipoib_mcast_failed(struct ipoib_priv *priv,
			       struct ipoib_mcast *mcast, int status)
{
	struct ib_sa_multicast *mc;
	struct sk_buff_head drop;
	unsigned long flags;

	__skb_queue_head_init(&drop);
	netdev_dbg(priv->dev, "join of %pI6 failed: %d\n", mcast->mgid.raw,
		   status);
	spin_lock_irqsave(&priv->lock, flags);
	mc = mcast->mc;
	mcast->mc = NULL;
	clear_bit(IPOIB_MC_BUSY, &mcast->flags);
	mcast->retry_at = jiffies + mcast->backoff * HZ;
	mcast->backoff = min(mcast->backoff * 2, IPOIB_MCAST_BACKOFF_MAX);
	/* a send-only group is asked for again by the next packet */
	if (test_bit(IPOIB_MC_SENDONLY, &mcast->flags)) {
		skb_queue_splice_init(&mcast->queue, &drop);
		set_bit(IPOIB_MC_STALE, &mcast->flags);
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	if (mc)
		ib_sa_free_multicast(mc);
	priv->dev->stats.tx_dropped += skb_queue_len(&drop);
	__skb_queue_purge(&drop);
}

/* The SA accepted a join: attach, make the address handle, send. */
static void ipoib_mcast_joined(struct ipoib_priv *priv,
			       struct ipoib_mcast *mcast)
{
	struct rdma_netdev *rn = netdev_priv(priv->dev);
	bool bcast = mcast == priv->broadcast;
	struct sk_buff_head send;
	struct ipoib_ah *iah;
	struct sk_buff *skb;
	unsigned long flags;
	int ret;

	if (bcast) {
		unsigned int mtu = IPOIB_UD_MTU(ib_mtu_enum_to_int(mcast->rec.mtu));

		if (priv->mcast_mtu == priv->admin_mtu)
			priv->admin_mtu = mtu;
		priv->mcast_mtu = mtu;
		priv->qkey = be32_to_cpu(mcast->rec.qkey);
	}
	if (!test_bit(IPOIB_MC_SENDONLY, &mcast->flags)) {
		ret = rn->attach_mcast(priv->dev, priv->ca, &mcast->mgid,
				       be16_to_cpu(mcast->rec.mlid), bcast,
				       priv->qkey);
		if (ret) {
			netdev_warn(priv->dev, "cannot attach to %pI6: %d\n",
				    mcast->mgid.raw, ret);
			ipoib_mcast_failed(priv, mcast, ret);
			return;
		}
		set_bit(IPOIB_MC_ATTACHED, &mcast->flags);
	}
	iah = ipoib_mcast_make_ah(priv, mcast);
	if (IS_ERR(iah)) {
		netdev_warn(priv->dev, "no address handle for %pI6: %ld\n",
			    mcast->mgid.raw, PTR_ERR(iah));
		ipoib_mcast_failed(priv, mcast, PTR_ERR(iah));
		return;
	}

	__skb_queue_head_init(&send);
	spin_lock_irqsave(&priv->lock, flags);
	mcast->ah = iah;
	mcast->backoff = 1;
	clear_bit(IPOIB_MC_BUSY, &mcast->flags);
	set_bit(IPOIB_MC_JOINED, &mcast->flags);
	skb_queue_splice_init(&mcast->queue, &send);
	spin_unlock_irqrestore(&priv->lock, flags);

	if (bcast) {
		set_bit(IPOIB_BCAST_JOINED, &priv->flags);
		if (priv->dev->mtu != min(priv->mcast_mtu, priv->admin_mtu))
			mod_delayed_work(system_wq, &priv->mtu_work, 0);
		netif_carrier_on(priv->dev);
		netdev_dbg(priv->dev, "broadcast group joined, Q_Key 0x%x\n",
			   priv->qkey);
	}
	while ((skb = __skb_dequeue(&send)))
		dev_queue_xmit(skb);
}

/* Leave and free a group that is off the list. */
static void ipoib_mcast_free(struct ipoib_priv *priv,
			     struct ipoib_mcast *mcast)
{
	struct rdma_netdev *rn = netdev_priv(priv->dev);

	if (mcast->mc)
		ib_sa_free_multicast(mcast->mc);
	if (test_bit(IPOIB_MC_ATTACHED, &mcast->flags))
		rn->detach_mcast(priv->dev, priv->ca, &mcast->mgid,
				 be16_to_cpu(mcast->rec.mlid));
	ipoib_ah_put(mcast->ah);
	priv->dev->stats.tx_dropped += skb_queue_len(&mcast->queue);
	__skb_queue_purge(&mcast->queue);
	kfree(mcast);
}

/*
 * Bring the groups in line with the net device's multicast list: new
 * addresses become full members (a send-only group of the same MGID is
 * left first), addresses gone are left.
 */
static void ipoib_mcast_sync(struct ipoib_priv *priv)
{
	struct net_device *dev = priv->dev;
	struct ipoib_mcast *mcast, *nmcast;
	struct netdev_hw_addr *ha;
	unsigned int n = 0, i;
	unsigned long flags;
	u8 (*addrs)[INFINIBAND_ALEN];

	netif_addr_lock_bh(dev);
	addrs = kcalloc(netdev_mc_count(dev) ?: 1, INFINIBAND_ALEN,
			GFP_ATOMIC);
	if (addrs)
		netdev_for_each_mc_addr(ha, dev)
			if (ipoib_mgid_valid(ha->addr, dev->broadcast))
				memcpy(addrs[n++], ha->addr, INFINIBAND_ALEN);
	netif_addr_unlock_bh(dev);
	if (!addrs)
		return;

	spin_lock_irqsave(&priv->lock, flags);
	list_for_each_entry(mcast, &priv->mcast_list, list)
		if (mcast != priv->broadcast &&
		    !test_bit(IPOIB_MC_SENDONLY, &mcast->flags))
			set_bit(IPOIB_MC_STALE, &mcast->flags);
	spin_unlock_irqrestore(&priv->lock, flags);

	for (i = 0; i < n; i++) {
		const union ib_gid *mgid = ipoib_hwaddr_gid(addrs[i]);
		struct ib_sa_mcmember_rec rec;
		bool found = false;

		spin_lock_irqsave(&priv->lock, flags);
		list_for_each_entry(mcast, &priv->mcast_list, list) {
			if (memcmp(mcast->mgid.raw, mgid->raw, 16))
				continue;
			if (test_bit(IPOIB_MC_SENDONLY, &mcast->flags)) {
				set_bit(IPOIB_MC_STALE, &mcast->flags);
			} else {
				clear_bit(IPOIB_MC_STALE, &mcast->flags);
				found = true;
			}
		}
		spin_unlock_irqrestore(&priv->lock, flags);
		if (found)
			continue;
		/* a group a user-space program joined itself is its own */
		if (test_bit(IPOIB_UMCAST, &priv->flags) &&
		    !ib_sa_get_mcmember_rec(priv->ca, priv->port,
					    (union ib_gid *)mgid, &rec))
			continue;
		nmcast = ipoib_mcast_alloc(priv, mgid, false, GFP_KERNEL);
		if (!nmcast)
			continue;
		spin_lock_irqsave(&priv->lock, flags);
		list_add_tail(&nmcast->list, &priv->mcast_list);
		spin_unlock_irqrestore(&priv->lock, flags);
	}
	kfree(addrs);
}

/* The next entry the work has to act on, or NULL; under priv->lock. */
static struct ipoib_mcast *ipoib_mcast_next(struct ipoib_priv *priv,
					    unsigned long *delay)
{
	bool bcast_up = test_bit(IPOIB_BCAST_JOINED, &priv->flags);
	struct ipoib_mcast *mcast;

	list_for_each_entry(mcast, &priv->mcast_list, list) {
		if (test_bit(IPOIB_MC_DONE, &mcast->flags))
			return mcast;
		/* a stale group in a join waits for the SA's answer */
		if (test_bit(IPOIB_MC_BUSY, &mcast->flags))
			continue;
		if (test_bit(IPOIB_MC_STALE, &mcast->flags))
			return mcast;
		if (test_bit(IPOIB_MC_JOINED, &mcast->flags))
			continue;
		if (mcast != priv->broadcast && !bcast_up)
			continue;
		if (time_before(jiffies, mcast->retry_at)) {
			*delay = min(*delay, mcast->retry_at - jiffies);
			continue;
		}
		return mcast;
	}
	return NULL;
}

void ipoib_mcast_work(struct work_struct *work)
{
	struct ipoib_priv *priv = container_of(to_delayed_work(work),
					       struct ipoib_priv, mcast_work);
	struct ipoib_mcast *mcast;
	unsigned long flags, delay;
	bool done, gone;

	mutex_lock(&priv->ctl_mutex);
	if (!test_bit(IPOIB_IB_UP, &priv->flags))
		goto out;
	if (test_and_clear_bit(IPOIB_RX_MODE, &priv->flags))
		ipoib_mcast_sync(priv);

	for (;;) {
		delay = MAX_JIFFY_OFFSET;
		done = false;
		gone = false;
		spin_lock_irqsave(&priv->lock, flags);
		mcast = ipoib_mcast_next(priv, &delay);
		if (mcast) {
			done = test_and_clear_bit(IPOIB_MC_DONE, &mcast->flags);
			gone = test_bit(IPOIB_MC_STALE, &mcast->flags);
			if (gone)
				list_del(&mcast->list);
		}
		spin_unlock_irqrestore(&priv->lock, flags);
		if (!mcast)
			break;

		if (gone)
			ipoib_mcast_free(priv, mcast);
		else if (done && mcast->status)
			ipoib_mcast_failed(priv, mcast, mcast->status);
		else if (done)
			ipoib_mcast_joined(priv, mcast);
		else
			ipoib_mcast_join(priv, mcast);
	}
	if (delay != MAX_JIFFY_OFFSET)
		ipoib_mcast_kick(priv, delay);
out:
	mutex_unlock(&priv->ctl_mutex);
}

/**
 * ipoib_mcast_start - join the broadcast group, then the others
 * @priv: the interface, IB side just up; ctl_mutex held
 */
void ipoib_mcast_start(struct ipoib_priv *priv)
{
	struct ipoib_mcast *bcast;
	unsigned long flags;

	bcast = ipoib_mcast_alloc(priv, ipoib_hwaddr_gid(priv->dev->broadcast),
				  false, GFP_KERNEL);
	if (!bcast)
		return;
	spin_lock_irqsave(&priv->lock, flags);
	priv->broadcast = bcast;
	list_add(&bcast->list, &priv->mcast_list);
	spin_unlock_irqrestore(&priv->lock, flags);
	set_bit(IPOIB_RX_MODE, &priv->flags);
	ipoib_mcast_kick(priv, 0);
}

/**
 * ipoib_mcast_stop - leave every group
 * @priv: the interface, IB side going down; ctl_mutex held
 *
 * Waits for the SA's callbacks in flight (ib_sa_free_multicast()).
 */
void ipoib_mcast_stop(struct ipoib_priv *priv)
{
	struct ipoib_mcast *mcast, *tmp;
	unsigned long flags;
	LIST_HEAD(gone);

	lockdep_assert_held(&priv->ctl_mutex);
	cancel_delayed_work(&priv->mcast_work);
	spin_lock_irqsave(&priv->lock, flags);
	list_splice_init(&priv->mcast_list, &gone);
	priv->broadcast = NULL;
	clear_bit(IPOIB_BCAST_JOINED, &priv->flags);
	spin_unlock_irqrestore(&priv->lock, flags);
	list_for_each_entry_safe(mcast, tmp, &gone, list) {
		list_del(&mcast->list);
		ipoib_mcast_free(priv, mcast);
	}
}

/**
 * ipoib_mcast_send - send a packet to a multicast address
 * @priv: the interface
 * @ha: the destination's hardware address
 * @skb: the packet, pseudo-header on; consumed
 *
 * A group not joined yet is joined as a send-only member; the packet
 * waits for the join (up to IPOIB_MCAST_QUEUE_MAX of them).
 *
 * Context: the transmit path (bottom halves off).
 */
void ipoib_mcast_send(struct ipoib_priv *priv, const u8 *ha,
		      struct sk_buff *skb)
{
	const union ib_gid *mgid = ipoib_hwaddr_gid(ha);
	struct ipoib_mcast *mcast;
	struct ipoib_ah *ah = NULL;
	unsigned long flags;
	bool kick = false;

	spin_lock_irqsave(&priv->lock, flags);
	if (!test_bit(IPOIB_IB_UP, &priv->flags) || !priv->broadcast)
		goto drop;
	mcast = ipoib_mcast_find(priv, mgid);
	if (!mcast) {
		mcast = ipoib_mcast_alloc(priv, mgid, true, GFP_ATOMIC);
		if (!mcast)
			goto drop;
		list_add_tail(&mcast->list, &priv->mcast_list);
		kick = true;
	}
	if (mcast->ah) {
		ah = ipoib_ah_get(mcast->ah);
	} else {
		if (skb_queue_len(&mcast->queue) >= IPOIB_MCAST_QUEUE_MAX)
			goto drop;
		__skb_queue_tail(&mcast->queue, skb);
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	if (kick)
		ipoib_mcast_kick(priv, 0);
	if (ah) {
		skb_pull(skb, IPOIB_PSEUDO_LEN);
		ipoib_send_ah(priv, skb, ah, IPOIB_MCAST_QPN);
		ipoib_ah_put(ah);
	}
	return;

drop:
	spin_unlock_irqrestore(&priv->lock, flags);
	priv->dev->stats.tx_dropped++;
	dev_kfree_skb_any(skb);
}
