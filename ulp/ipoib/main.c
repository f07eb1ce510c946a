// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ib_ipoib: IP over InfiniBand, datagram mode (RFC 4391, 4392) and
 * connected mode (RFC 4755, cm.c).
 *
 * An ib_client makes a net device "ibN" for each InfiniBand port; P_Key
 * child interfaces ("ib0.8001") come from "ip link add ... type ipoib"
 * or the parent's sysfs file create_child.  The net device's private
 * area is a struct rdma_netdev, sized and set up by the port's driver
 * when it offers one (rdma_alloc_netdev()), else by us with our own
 * send and multicast ops; the interface's own state hangs off its
 * clnt_priv.
 *
 * Packets: hard_header puts the encapsulation header and, in front of
 * it, a pseudo-header with the destination's hardware address; the
 * transmit routine takes the pseudo-header off and sends the datagram
 * through the address handle of the destination's path (from the SA)
 * or multicast group (joined through the SA).  Packets for a path or
 * group not resolved yet wait on it, pseudo-header on, and go through
 * dev_queue_xmit() again once it is.
 */

#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/inetdevice.h>
#include <linux/module.h>
#include <net/addrconf.h>
#include <net/rtnetlink.h>

#include "ipoib.h"

MODULE_DESCRIPTION("IP over InfiniBand (datagram and connected mode)");
MODULE_LICENSE("Dual BSD/GPL");

struct ib_sa_client ipoib_sa_client;

/* children lists, walked by the port event handler (atomic safe) */
static DEFINE_SPINLOCK(ipoib_children_lock);

static struct ib_client ipoib_client;

static const struct net_device_ops ipoib_netdev_ops;

bool ipoib_is_ipoib(const struct net_device *dev)
{
	return dev->netdev_ops == &ipoib_netdev_ops;
}

/* ---- paths ---------------------------------------------------------- */

static void ipoib_path_done(int status, struct sa_path_rec *resp,
			    unsigned int num_prs, void *context)
{
	struct ipoib_path *path = context;
	struct ipoib_priv *priv = container_of(path->table, struct ipoib_priv,
					       paths);
	struct ipoib_ah *iah = NULL;
	struct sk_buff_head q;
	struct sk_buff *skb;
	unsigned long flags;

	if (!status && resp && num_prs) {
		struct rdma_ah_attr av;
		struct ib_ah *ah;

		status = ib_init_ah_attr_from_path(priv->ca, priv->port, resp,
						   &av, NULL);
		if (!status) {
			ah = rdma_create_ah(priv->pd, &av,
					    RDMA_CREATE_AH_SLEEPABLE);
			rdma_destroy_ah_attr(&av);
			if (IS_ERR(ah)) {
				status = PTR_ERR(ah);
			} else {
				iah = ipoib_ah_wrap(ah, GFP_KERNEL);
				if (!iah) {
					rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
					status = -ENOMEM;
				}
			}
		}
	} else if (!status) {
		status = -ENOENT;
	}

	__skb_queue_head_init(&q);
	spin_lock_irqsave(&priv->lock, flags);
	path->query = NULL;
	skb_queue_splice_init(&path->queue, &q);
	if (iah) {
		path->rec = *resp;
		path->ah = iah;
		path->failed = false;
	} else {
		path->failed = true;
	}
	spin_unlock_irqrestore(&priv->lock, flags);

	if (status)
		netdev_dbg(priv->dev, "no path to %pI6: %d\n", path->dgid.raw,
			   status);
	while ((skb = __skb_dequeue(&q))) {
		if (iah) {
			dev_queue_xmit(skb);
		} else {
			priv->dev->stats.tx_dropped++;
			dev_kfree_skb_any(skb);
		}
	}
	/* the path (and the interface) may go once this is done */
	complete(&path->done);
}

/* Start the path queries packets asked for (process context). */
void ipoib_path_work(struct work_struct *work)
{
	struct ipoib_priv *priv = container_of(work, struct ipoib_priv,
					       path_work);
	struct ib_sa_query *query;
	struct ipoib_path *path;
	struct rb_node *n;
	unsigned long flags;
	int id;

	mutex_lock(&priv->ctl_mutex);
	while (test_bit(IPOIB_IB_UP, &priv->flags)) {
		struct sa_path_rec rec = {};

		spin_lock_irqsave(&priv->lock, flags);
		path = NULL;
		for (n = rb_first(&priv->paths.root); n; n = rb_next(n)) {
			struct ipoib_path *p = rb_entry(n, struct ipoib_path,
							node);

			if (p->pending && !p->query) {
				path = p;
				break;
			}
		}
		if (path) {
			path->pending = false;
			/* a marker until the SA client gives the query */
			path->query = ERR_PTR(-EINPROGRESS);
			reinit_completion(&path->done);
		}
		spin_unlock_irqrestore(&priv->lock, flags);
		if (!path)
			break;

		rec.rec_type = SA_PATH_REC_TYPE_IB;
		rec.dgid = path->dgid;
		rec.sgid = priv->local_gid;
		rec.pkey = cpu_to_be16(priv->pkey);
		rec.numb_path = 1;
		rec.reversible = 1;
		id = ib_sa_path_rec_get(&ipoib_sa_client, priv->ca, priv->port,
					&rec, IB_SA_PATH_REC_DGID |
					IB_SA_PATH_REC_SGID |
					IB_SA_PATH_REC_NUMB_PATH |
					IB_SA_PATH_REC_TRAFFIC_CLASS |
					IB_SA_PATH_REC_PKEY, 1000, GFP_KERNEL,
					ipoib_path_done, path, &query);
		if (id < 0) {
			ipoib_path_done(id, NULL, 0, path);
			continue;
		}
		/* unless the answer came already */
		spin_lock_irqsave(&priv->lock, flags);
		if (path->query == ERR_PTR(-EINPROGRESS)) {
			path->query = query;
			path->query_id = id;
		}
		spin_unlock_irqrestore(&priv->lock, flags);
	}
	mutex_unlock(&priv->ctl_mutex);
}

/**
 * ipoib_paths_flush - forget every path
 * @priv: the interface, IB side going down; ctl_mutex held
 *
 * Queries in flight are cancelled and waited for.
 */
void ipoib_paths_flush(struct ipoib_priv *priv)
{
	struct ipoib_path *path;
	unsigned long flags;
	struct rb_node *n;

	lockdep_assert_held(&priv->ctl_mutex);
	spin_lock_irqsave(&priv->lock, flags);
	for (n = rb_first(&priv->paths.root); n; n = rb_next(n)) {
		path = rb_entry(n, struct ipoib_path, node);
		path->pending = false;
		if (!IS_ERR_OR_NULL(path->query))
			ib_sa_cancel_query(path->query_id, path->query);
	}
	spin_unlock_irqrestore(&priv->lock, flags);

	for (;;) {
		spin_lock_irqsave(&priv->lock, flags);
		path = ipoib_path_first(&priv->paths);
		spin_unlock_irqrestore(&priv->lock, flags);
		if (!path)
			break;
		wait_for_completion(&path->done);
		spin_lock_irqsave(&priv->lock, flags);
		ipoib_path_del(&priv->paths, path);
		spin_unlock_irqrestore(&priv->lock, flags);
	}
}

/*
 * A unicast packet goes on a connection in connected mode when its
 * destination takes connections (cm.c), as a datagram otherwise; either
 * once the path to the destination is known.
 */
static void ipoib_unicast_send(struct ipoib_priv *priv, const u8 *ha,
			       struct sk_buff *skb)
{
	const union ib_gid *dgid = ipoib_hwaddr_gid(ha);
	struct ipoib_cm_tx *tx = NULL;
	struct ipoib_ah *ah = NULL;
	struct ipoib_path *path;
	unsigned long flags;
	bool kick = false;
	int ret;

	spin_lock_irqsave(&priv->lock, flags);
	if (!test_bit(IPOIB_IB_UP, &priv->flags))
		goto drop;
	path = ipoib_path_find(&priv->paths, dgid);
	if (!path) {
		path = ipoib_path_add(&priv->paths, dgid, GFP_ATOMIC);
		if (!path)
			goto drop;
	}
	if (path->ah && ipoib_cm_wanted(priv, ha, skb)) {
		ret = ipoib_cm_route(priv, path, ha, skb, &tx);
		if (ret < 0)
			goto drop;
	} else if (path->ah) {
		ah = ipoib_ah_get(path->ah);
	} else {
		if (!ipoib_path_enqueue(path, skb))
			goto drop;
		if (!path->query) {
			path->pending = true;
			kick = true;
		}
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	if (kick)
		queue_work(priv->wq, &priv->path_work);
	if (ah) {
		skb_pull(skb, IPOIB_PSEUDO_LEN);
		ipoib_send_ah(priv, skb, ah, ipoib_hwaddr_qpn(ha));
		ipoib_ah_put(ah);
	} else if (tx) {
		/* the connection stays while the transmit routine runs */
		skb_pull(skb, IPOIB_PSEUDO_LEN);
		ipoib_cm_send(priv, tx, skb);
	}
	return;

drop:
	spin_unlock_irqrestore(&priv->lock, flags);
	priv->dev->stats.tx_dropped++;
	dev_kfree_skb_any(skb);
}

/* ---- net device ----------------------------------------------------- */

static netdev_tx_t ipoib_start_xmit(struct sk_buff *skb,
				    struct net_device *dev)
{
	struct ipoib_priv *priv = ipoib_priv(dev);
	u8 ha[INFINIBAND_ALEN];

	if (skb->len < IPOIB_HARD_LEN ||
	    !pskb_may_pull(skb, IPOIB_HARD_LEN)) {
		dev->stats.tx_dropped++;
		dev_kfree_skb_any(skb);
		return NETDEV_TX_OK;
	}
	memcpy(ha, skb->data, INFINIBAND_ALEN);
	if (ipoib_hwaddr_is_mcast(ha))
		ipoib_mcast_send(priv, ha, skb);
	else
		ipoib_unicast_send(priv, ha, skb);
	return NETDEV_TX_OK;
}

static int ipoib_hard_header(struct sk_buff *skb, struct net_device *dev,
			     unsigned short type, const void *daddr,
			     const void *saddr, unsigned int len)
{
	return ipoib_push_headers(skb, type, daddr);
}

static const struct header_ops ipoib_header_ops = {
	.create = ipoib_hard_header,
};

static void ipoib_flush_work(struct work_struct *work)
{
	struct ipoib_priv *priv = container_of(work, struct ipoib_priv,
					       flush_work);

	mutex_lock(&priv->ctl_mutex);
	if (test_bit(IPOIB_ADMIN_UP, &priv->flags)) {
		ipoib_ib_down(priv);
		if (ipoib_ib_up(priv))
			netdev_warn(priv->dev, "cannot restart after a port event\n");
	}
	mutex_unlock(&priv->ctl_mutex);
}

/*
 * Apply the broadcast group's MTU.  dev_set_mtu() needs rtnl, which the
 * interface's own work may not take (ndo_stop waits for that work
 * holding rtnl): this runs on the system workqueue and tries again
 * while rtnl is busy.
 */
static void ipoib_mtu_work(struct work_struct *work)
{
	struct ipoib_priv *priv = container_of(to_delayed_work(work),
					       struct ipoib_priv, mtu_work);
	struct net_device *dev = priv->dev;
	unsigned int mtu;

	if (!rtnl_trylock()) {
		queue_delayed_work(system_wq, &priv->mtu_work, HZ / 50);
		return;
	}
	/* connected mode keeps its own (mode set under rtnl) */
	mtu = min(priv->mcast_mtu, priv->admin_mtu);
	if (dev->reg_state == NETREG_REGISTERED && dev->mtu != mtu &&
	    !ipoib_mode_connected(priv) && dev_set_mtu(dev, mtu))
		netdev_warn(dev, "cannot set the MTU to %u\n", mtu);
	rtnl_unlock();
}

static int ipoib_ndo_init(struct net_device *dev)
{
	struct ipoib_priv *priv = ipoib_priv(dev);
	int ret;

	priv->wq = alloc_ordered_workqueue("ipoib_%s", WQ_MEM_RECLAIM,
					   dev->name);
	if (!priv->wq)
		return -ENOMEM;
	ret = ipoib_transport_init(priv);
	if (ret) {
		destroy_workqueue(priv->wq);
		priv->wq = NULL;
		return ret;
	}
	if (priv->parent) {
		spin_lock_irq(&ipoib_children_lock);
		list_add_tail(&priv->child_node, &priv->parent->children);
		spin_unlock_irq(&ipoib_children_lock);
	}
	return 0;
}

static void ipoib_ndo_uninit(struct net_device *dev)
{
	struct ipoib_priv *priv = ipoib_priv(dev);

	if (priv->parent) {
		spin_lock_irq(&ipoib_children_lock);
		list_del_init(&priv->child_node);
		spin_unlock_irq(&ipoib_children_lock);
	}
	cancel_delayed_work(&priv->mtu_work);
	/* none of these takes rtnl */
	cancel_work_sync(&priv->flush_work);
	cancel_delayed_work_sync(&priv->mcast_work);
	cancel_work_sync(&priv->path_work);
	destroy_workqueue(priv->wq);
	priv->wq = NULL;
	ipoib_transport_cleanup(priv);
}

static void ipoib_children_set_up(struct ipoib_priv *priv, bool up)
{
	struct ipoib_priv *cpriv;

	ASSERT_RTNL();
	/* the list changes only under rtnl, which we hold */
	list_for_each_entry(cpriv, &priv->children, child_node) {
		unsigned int flags = cpriv->dev->flags;

		if (!!(flags & IFF_UP) == up)
			continue;
		dev_change_flags(cpriv->dev, up ? flags | IFF_UP :
				 flags & ~IFF_UP, NULL);
	}
}

static int ipoib_open(struct net_device *dev)
{
	struct ipoib_priv *priv = ipoib_priv(dev);
	int ret;

	netif_carrier_off(dev);
	set_bit(IPOIB_ADMIN_UP, &priv->flags);
	mutex_lock(&priv->ctl_mutex);
	ret = ipoib_ib_up(priv);
	mutex_unlock(&priv->ctl_mutex);
	if (ret) {
		clear_bit(IPOIB_ADMIN_UP, &priv->flags);
		return ret;
	}
	netif_start_queue(dev);
	if (!priv->parent)
		ipoib_children_set_up(priv, true);
	return 0;
}

static int ipoib_stop(struct net_device *dev)
{
	struct ipoib_priv *priv = ipoib_priv(dev);

	if (!priv->parent)
		ipoib_children_set_up(priv, false);
	netif_stop_queue(dev);
	clear_bit(IPOIB_ADMIN_UP, &priv->flags);
	mutex_lock(&priv->ctl_mutex);
	ipoib_ib_down(priv);
	mutex_unlock(&priv->ctl_mutex);
	/* what a port event queued finds the interface down */
	flush_workqueue(priv->wq);
	return 0;
}

static void ipoib_set_rx_mode(struct net_device *dev)
{
	struct ipoib_priv *priv = ipoib_priv(dev);

	set_bit(IPOIB_RX_MODE, &priv->flags);
	if (test_bit(IPOIB_IB_UP, &priv->flags))
		mod_delayed_work(priv->wq, &priv->mcast_work, 0);
}

/*
 * In connected mode up to what the connections' receive buffers take
 * (multicast and peers without connections get ICMP beyond the
 * broadcast group's MTU); in datagram mode never above the broadcast
 * group's MTU, which the MTU follows up to the one asked for.
 */
static int ipoib_change_mtu(struct net_device *dev, int new_mtu)
{
	struct ipoib_priv *priv = ipoib_priv(dev);

	if (ipoib_mode_connected(priv)) {
		if (new_mtu > priv->cm.max_mtu)
			return -EINVAL;
		if (new_mtu > priv->mcast_mtu)
			netdev_dbg(dev, "multicast above %u bytes is dropped\n",
				   priv->mcast_mtu);
		WRITE_ONCE(dev->mtu, new_mtu);
		return 0;
	}
	if (new_mtu > IPOIB_UD_MTU(priv->max_ib_mtu))
		return -EINVAL;
	priv->admin_mtu = new_mtu;
	WRITE_ONCE(dev->mtu, min(priv->mcast_mtu, priv->admin_mtu));
	return 0;
}

static void ipoib_tx_timeout(struct net_device *dev, unsigned int txqueue)
{
	struct ipoib_priv *priv = ipoib_priv(dev);

	netdev_warn(dev, "transmit timeout: %u sends in flight\n",
		    ipoib_tx_inflight(priv));
}

static int ipoib_get_iflink(const struct net_device *dev)
{
	struct ipoib_priv *priv = ipoib_priv(dev);

	return priv->parent ? priv->parent->dev->ifindex : dev->ifindex;
}

static const struct net_device_ops ipoib_netdev_ops = {
	.ndo_init		= ipoib_ndo_init,
	.ndo_uninit		= ipoib_ndo_uninit,
	.ndo_open		= ipoib_open,
	.ndo_stop		= ipoib_stop,
	.ndo_start_xmit		= ipoib_start_xmit,
	.ndo_set_rx_mode	= ipoib_set_rx_mode,
	.ndo_change_mtu		= ipoib_change_mtu,
	.ndo_tx_timeout		= ipoib_tx_timeout,
	.ndo_get_iflink		= ipoib_get_iflink,
};

/**
 * ipoib_setup - the net device's link type (alloc_netdev() and rtnl)
 * @dev: a net device whose private area is a struct rdma_netdev
 */
void ipoib_setup(struct net_device *dev)
{
	dev->netdev_ops = &ipoib_netdev_ops;
	dev->header_ops = &ipoib_header_ops;
	dev->ethtool_ops = &ipoib_ethtool_ops;
	dev->type = ARPHRD_INFINIBAND;
	dev->addr_len = INFINIBAND_ALEN;
	dev->hard_header_len = IPOIB_HARD_LEN;
	dev->flags = IFF_BROADCAST | IFF_MULTICAST;
	dev->tx_queue_len = IPOIB_TX_RING * 2;
	dev->watchdog_timeo = 5 * HZ;
	dev->min_mtu = 68;
	dev->mtu = IPOIB_UD_MTU(2048);
	dev->max_mtu = IPOIB_UD_MTU(4096);
	dev->priv_flags &= ~IFF_TX_SKB_SHARING;
	netif_keep_dst(dev);
}

static void ipoib_priv_destructor(struct net_device *dev)
{
	struct rdma_netdev *rn = netdev_priv(dev);
	struct ipoib_priv *priv = rn->clnt_priv;

	if (!priv)
		return;
	cancel_delayed_work_sync(&priv->mtu_work);
	if (rn->free_rdma_netdev)
		rn->free_rdma_netdev(dev);
	rn->clnt_priv = NULL;
	kfree(priv);
}

/**
 * ipoib_intf_init - the interface's state for a net device
 * @ca: the RDMA device
 * @port: its port
 * @dev: the net device (ipoib_setup() done, not registered)
 * @parent: the port's interface for a child, else NULL
 * @pkey: the interface's P_Key
 *
 * From here on the net device's destructor frees the state.
 *
 * Return: 0 or an errno.
 */
int ipoib_intf_init(struct ib_device *ca, u32 port, struct net_device *dev,
		    struct ipoib_priv *parent, u16 pkey)
{
	struct rdma_netdev *rn = netdev_priv(dev);
	struct ib_port_attr pattr;
	struct ipoib_priv *priv;
	int ret;

	ret = ib_query_port(ca, port, &pattr);
	if (ret)
		return ret;
	priv = kzalloc(sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return -ENOMEM;

	ret = rdma_init_netdev(ca, port, RDMA_NETDEV_IPOIB, dev->name,
			       NET_NAME_UNKNOWN, ipoib_setup, dev);
	if (ret == -EOPNOTSUPP) {
		/* no driver acceleration: our own QP does it all */
		rn->send = ipoib_send;
		rn->attach_mcast = ipoib_mcast_attach;
		rn->detach_mcast = ipoib_mcast_detach;
	} else if (ret) {
		kfree(priv);
		return ret;
	}
	rn->clnt_priv = priv;
	rn->hca = ca;
	rn->port_num = port;

	priv->dev = dev;
	priv->ca = ca;
	priv->port = port;
	priv->pkey = pkey;
	priv->parent = parent;
	INIT_LIST_HEAD(&priv->children);
	INIT_LIST_HEAD(&priv->child_node);
	INIT_LIST_HEAD(&priv->mcast_list);
	mutex_init(&priv->ctl_mutex);
	spin_lock_init(&priv->lock);
	spin_lock_init(&priv->tx_lock);
	INIT_WORK(&priv->flush_work, ipoib_flush_work);
	INIT_DELAYED_WORK(&priv->mcast_work, ipoib_mcast_work);
	INIT_WORK(&priv->path_work, ipoib_path_work);
	INIT_DELAYED_WORK(&priv->mtu_work, ipoib_mtu_work);
	init_waitqueue_head(&priv->flushed);
	ipoib_path_table_init(&priv->paths);
	if (parent && test_bit(IPOIB_UMCAST, &parent->flags))
		set_bit(IPOIB_UMCAST, &priv->flags);

	priv->max_ib_mtu = ib_mtu_enum_to_int(pattr.max_mtu);
	priv->mcast_mtu = IPOIB_UD_MTU(priv->max_ib_mtu);
	priv->admin_mtu = priv->mcast_mtu;
	rn->mtu = priv->mcast_mtu;
	/* each mode's limit is ipoib_change_mtu()'s */
	dev->max_mtu = IPOIB_CM_MTU;
	dev->mtu = priv->mcast_mtu;
	ipoib_make_broadcast(dev->broadcast, pkey);
	dev->dev_port = port - 1;
	dev->dev_id = port - 1;
	SET_NETDEV_DEV(dev, ca->dev.parent);
	dev->sysfs_groups[0] = parent ? ipoib_child_groups[0] :
					ipoib_parent_groups[0];
	dev->priv_destructor = ipoib_priv_destructor;
	dev->needs_free_netdev = true;
	return 0;
}

static struct net_device *ipoib_alloc_netdev(struct ib_device *ca, u32 port,
					     const char *name)
{
	struct net_device *dev;

	dev = rdma_alloc_netdev(ca, port, RDMA_NETDEV_IPOIB, name,
				NET_NAME_UNKNOWN, ipoib_setup);
	if (!IS_ERR(dev) || PTR_ERR(dev) != -EOPNOTSUPP)
		return dev;
	dev = alloc_netdev(sizeof(struct rdma_netdev), name, NET_NAME_UNKNOWN,
			   ipoib_setup);
	return dev ?: ERR_PTR(-ENOMEM);
}

/* ---- children ------------------------------------------------------- */

/**
 * ipoib_child_add - register a P_Key child interface
 * @ppriv: the parent
 * @dev: the child's net device (ipoib_setup() done, name set)
 * @pkey: its P_Key
 * @legacy: made through sysfs create_child (delete_child removes it)
 * @extack: for the reason of a refusal
 *
 * Context: rtnl held.
 * Return: 0, -EINVAL (a child of a child, P_Key 0 or 0x8000),
 * -ENOTUNIQ (a child of that P_Key and kind exists), or the error of
 * the registration.
 */
int ipoib_child_add(struct ipoib_priv *ppriv, struct net_device *dev,
		    u16 pkey, bool legacy, struct netlink_ext_ack *extack)
{
	struct ipoib_priv *cpriv;
	int ret;

	ASSERT_RTNL();
	if (ppriv->parent) {
		NL_SET_ERR_MSG(extack, "a child interface cannot have children");
		return -EINVAL;
	}
	if (!(pkey & 0x7fff)) {
		NL_SET_ERR_MSG(extack, "invalid P_Key");
		return -EINVAL;
	}
	if (legacy && pkey == ppriv->pkey) {
		NL_SET_ERR_MSG(extack, "the parent has this P_Key");
		return -ENOTUNIQ;
	}
	list_for_each_entry(cpriv, &ppriv->children, child_node) {
		if (cpriv->pkey == pkey && cpriv->legacy_child == legacy) {
			NL_SET_ERR_MSG(extack,
				       "a child with this P_Key exists");
			return -ENOTUNIQ;
		}
	}
	ret = ipoib_intf_init(ppriv->ca, ppriv->port, dev, ppriv, pkey);
	if (ret)
		return ret;
	ipoib_priv(dev)->legacy_child = legacy;
	dev->rtnl_link_ops = &ipoib_link_ops;
	ret = register_netdevice(dev);
	/* a failure before ndo_init leaves the state to us */
	if (ret)
		ipoib_priv_destructor(dev);
	return ret;
}

/**
 * ipoib_mode_connected - is an interface in connected mode?
 * @priv: the interface
 *
 * Return: true in mode "connected".
 */
bool ipoib_mode_connected(const struct ipoib_priv *priv)
{
	return test_bit(IPOIB_ADMIN_CM, &priv->flags);
}

/**
 * ipoib_set_mode - the "mode" of an interface
 * @dev: the interface
 * @mode: "datagram" or "connected", a newline allowed
 * @extack: for the reason of a refusal, or NULL
 *
 * Connected mode takes the MTU to what the connections carry; datagram
 * mode takes it back to the broadcast group's at most, and the active
 * connections down.
 *
 * Context: rtnl held.
 * Return: 0; -EINVAL for connected mode on an interface without it
 * (its port has no IB CM) or for another mode.
 */
int ipoib_set_mode(struct net_device *dev, const char *mode,
		   struct netlink_ext_ack *extack)
{
	struct ipoib_priv *priv = ipoib_priv(dev);
	int ret;

	ASSERT_RTNL();
	if (sysfs_streq(mode, "connected")) {
		if (!(dev->dev_addr[0] & IPOIB_HW_FLAG_RC)) {
			NL_SET_ERR_MSG(extack,
				       "the port offers no IPoIB connected mode");
			return -EINVAL;
		}
		if (test_and_set_bit(IPOIB_ADMIN_CM, &priv->flags))
			return 0;
		netdev_info(dev, "connected mode: multicast above %u bytes is dropped\n",
			    priv->mcast_mtu);
		ret = dev_set_mtu(dev, priv->cm.max_mtu);
		if (ret)
			netdev_warn(dev, "cannot set the MTU to %u: %d\n",
				    priv->cm.max_mtu, ret);
		return 0;
	}
	if (sysfs_streq(mode, "datagram")) {
		if (!test_and_clear_bit(IPOIB_ADMIN_CM, &priv->flags))
			return 0;
		ret = dev_set_mtu(dev, min(priv->mcast_mtu, dev->mtu));
		if (ret)
			netdev_warn(dev, "cannot set the MTU to %u: %d\n",
				    priv->mcast_mtu, ret);
		ipoib_cm_flush_tx(priv);
		return 0;
	}
	NL_SET_ERR_MSG(extack, "IPoIB mode is datagram or connected");
	return -EINVAL;
}

void ipoib_set_umcast(struct ipoib_priv *priv, bool on)
{
	if (on)
		set_bit(IPOIB_UMCAST, &priv->flags);
	else
		clear_bit(IPOIB_UMCAST, &priv->flags);
}

/* ---- sysfs ---------------------------------------------------------- */

static ssize_t mode_show(struct device *d, struct device_attribute *attr,
			 char *buf)
{
	struct ipoib_priv *priv = ipoib_priv(to_net_dev(d));

	return sysfs_emit(buf, "%s\n", ipoib_mode_connected(priv) ?
			  "connected" : "datagram");
}

static ssize_t mode_store(struct device *d, struct device_attribute *attr,
			  const char *buf, size_t count)
{
	struct net_device *dev = to_net_dev(d);
	int ret;

	if (!rtnl_trylock())
		return restart_syscall();
	if (dev->reg_state != NETREG_REGISTERED)
		ret = -EPERM;
	else
		ret = ipoib_set_mode(dev, buf, NULL);
	rtnl_unlock();
	return ret ?: count;
}
static DEVICE_ATTR_RW(mode);

static ssize_t pkey_show(struct device *d, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "0x%04x\n", ipoib_priv(to_net_dev(d))->pkey);
}
static DEVICE_ATTR_RO(pkey);

static ssize_t umcast_show(struct device *d, struct device_attribute *attr,
			   char *buf)
{
	struct ipoib_priv *priv = ipoib_priv(to_net_dev(d));

	return sysfs_emit(buf, "%d\n", test_bit(IPOIB_UMCAST, &priv->flags));
}

static ssize_t umcast_store(struct device *d, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	unsigned long val;
	int ret = kstrtoul(buf, 0, &val);

	if (ret)
		return ret;
	ipoib_set_umcast(ipoib_priv(to_net_dev(d)), val);
	return count;
}
static DEVICE_ATTR_RW(umcast);

static ssize_t create_child_store(struct device *d,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	struct net_device *pdev = to_net_dev(d);
	char name[IFNAMSIZ];
	struct net_device *dev;
	int pkey, ret;

	if (kstrtoint(buf, 0, &pkey) || pkey <= 0 || pkey > 0xffff ||
	    pkey == IPOIB_PKEY_FULL)
		return -EINVAL;
	if (!capable(CAP_NET_ADMIN))
		return -EPERM;
	if (!rtnl_trylock())
		return restart_syscall();
	if (pdev->reg_state != NETREG_REGISTERED) {
		ret = -EPERM;
		goto out;
	}
	snprintf(name, sizeof(name), "%.10s.%04x", pdev->name, pkey);
	dev = ipoib_alloc_netdev(ipoib_priv(pdev)->ca,
				 ipoib_priv(pdev)->port, name);
	if (IS_ERR(dev)) {
		ret = PTR_ERR(dev);
		goto out;
	}
	/* in the parent's namespace, as rtnl makes its children */
	dev_net_set(dev, dev_net(pdev));
	ret = ipoib_child_add(ipoib_priv(pdev), dev, pkey, true, NULL);
	if (ret && dev->reg_state == NETREG_UNINITIALIZED)
		free_netdev(dev);
out:
	rtnl_unlock();
	return ret ?: count;
}
static DEVICE_ATTR_WO(create_child);

static ssize_t delete_child_store(struct device *d,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	struct ipoib_priv *ppriv = ipoib_priv(to_net_dev(d));
	struct ipoib_priv *cpriv;
	int pkey, ret = -ENODEV;

	if (kstrtoint(buf, 0, &pkey) || pkey < 0 || pkey > 0xffff)
		return -EINVAL;
	if (!capable(CAP_NET_ADMIN))
		return -EPERM;
	if (!rtnl_trylock())
		return restart_syscall();
	list_for_each_entry(cpriv, &ppriv->children, child_node) {
		if (cpriv->pkey == pkey && cpriv->legacy_child) {
			unregister_netdevice(cpriv->dev);
			ret = 0;
			break;
		}
	}
	rtnl_unlock();
	return ret ?: count;
}
static DEVICE_ATTR_WO(delete_child);

static ssize_t parent_show(struct device *d, struct device_attribute *attr,
			   char *buf)
{
	struct ipoib_priv *priv = ipoib_priv(to_net_dev(d));

	return sysfs_emit(buf, "%s\n", priv->parent->dev->name);
}
static DEVICE_ATTR_RO(parent);

static struct attribute *ipoib_parent_attrs[] = {
	&dev_attr_mode.attr,
	&dev_attr_pkey.attr,
	&dev_attr_umcast.attr,
	&dev_attr_create_child.attr,
	&dev_attr_delete_child.attr,
	NULL,
};

static const struct attribute_group ipoib_parent_group = {
	.attrs = ipoib_parent_attrs,
};

const struct attribute_group *ipoib_parent_groups[] = {
	&ipoib_parent_group, NULL,
};

static struct attribute *ipoib_child_attrs[] = {
	&dev_attr_mode.attr,
	&dev_attr_pkey.attr,
	&dev_attr_umcast.attr,
	&dev_attr_parent.attr,
	NULL,
};

static const struct attribute_group ipoib_child_group = {
	.attrs = ipoib_child_attrs,
};

const struct attribute_group *ipoib_child_groups[] = {
	&ipoib_child_group, NULL,
};

/* ---- IB devices ----------------------------------------------------- */

/* the interfaces of one RDMA device (client data) */
struct ipoib_dev_list {
	struct list_head	list;
};

struct ipoib_port_intf {
	struct list_head	node;
	struct ipoib_priv	*priv;
};

static void ipoib_queue_flush(struct ipoib_priv *priv)
{
	struct ipoib_priv *cpriv;
	unsigned long flags;

	queue_work(priv->wq, &priv->flush_work);
	spin_lock_irqsave(&ipoib_children_lock, flags);
	list_for_each_entry(cpriv, &priv->children, child_node)
		queue_work(cpriv->wq, &cpriv->flush_work);
	spin_unlock_irqrestore(&ipoib_children_lock, flags);
}

static void ipoib_event(struct ib_event_handler *handler,
			struct ib_event *event)
{
	struct ipoib_priv *priv = container_of(handler, struct ipoib_priv,
					       event_handler);

	if (event->element.port_num != priv->port)
		return;
	switch (event->event) {
	case IB_EVENT_PORT_ERR:
	case IB_EVENT_PORT_ACTIVE:
	case IB_EVENT_LID_CHANGE:
	case IB_EVENT_PKEY_CHANGE:
	case IB_EVENT_SM_CHANGE:
	case IB_EVENT_CLIENT_REREGISTER:
	case IB_EVENT_GID_CHANGE:
		ipoib_queue_flush(priv);
		break;
	default:
		break;
	}
}

static struct ipoib_priv *ipoib_add_port(struct ib_device *ca, u32 port)
{
	struct net_device *dev;
	struct ipoib_priv *priv;
	u16 pkey;
	int ret;

	if (ib_query_pkey(ca, port, 0, &pkey))
		pkey = 0xffff;
	dev = ipoib_alloc_netdev(ca, port, "ib%d");
	if (IS_ERR(dev))
		return ERR_CAST(dev);
	ret = ipoib_intf_init(ca, port, dev, NULL, pkey | IPOIB_PKEY_FULL);
	if (ret) {
		free_netdev(dev);
		return ERR_PTR(ret);
	}
	priv = ipoib_priv(dev);
	dev->rtnl_link_ops = &ipoib_link_ops;
	ret = register_netdev(dev);
	if (ret) {
		ipoib_priv_destructor(dev);
		free_netdev(dev);
		return ERR_PTR(ret);
	}
	INIT_IB_EVENT_HANDLER(&priv->event_handler, ca, ipoib_event);
	ib_register_event_handler(&priv->event_handler);
	return priv;
}

static int ipoib_add_one(struct ib_device *ca)
{
	struct ipoib_dev_list *list;
	struct ipoib_port_intf *pi;
	struct ipoib_priv *priv;
	u32 port;

	list = kzalloc(sizeof(*list), GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	INIT_LIST_HEAD(&list->list);
	rdma_for_each_port(ca, port) {
		if (!rdma_protocol_ib(ca, port))
			continue;
		pi = kzalloc(sizeof(*pi), GFP_KERNEL);
		if (!pi)
			continue;
		priv = ipoib_add_port(ca, port);
		if (IS_ERR(priv)) {
			dev_warn(&ca->dev, "ipoib: no interface for port %u: %ld\n",
				 port, PTR_ERR(priv));
			kfree(pi);
			continue;
		}
		pi->priv = priv;
		list_add_tail(&pi->node, &list->list);
	}
	if (list_empty(&list->list)) {
		kfree(list);
		return -EOPNOTSUPP;
	}
	ib_set_client_data(ca, &ipoib_client, list);
	return 0;
}

static void ipoib_remove_one(struct ib_device *ca, void *client_data)
{
	struct ipoib_dev_list *list = client_data;
	struct ipoib_port_intf *pi, *tmp;
	struct ipoib_priv *cpriv;
	LIST_HEAD(head);

	list_for_each_entry(pi, &list->list, node)
		ib_unregister_event_handler(&pi->priv->event_handler);
	rtnl_lock();
	list_for_each_entry(pi, &list->list, node) {
		list_for_each_entry(cpriv, &pi->priv->children, child_node)
			unregister_netdevice_queue(cpriv->dev, &head);
		unregister_netdevice_queue(pi->priv->dev, &head);
	}
	unregister_netdevice_many(&head);
	rtnl_unlock();
	list_for_each_entry_safe(pi, tmp, &list->list, node)
		kfree(pi);
	kfree(list);
}

/* ---- rdma_cm's requests ------------------------------------------- */

/* Whether @dev holds the IP address @addr; under RCU. */
static bool ipoib_dev_has_addr(struct net_device *dev,
			       const struct sockaddr *addr)
{
	const struct sockaddr_in *sin = (const struct sockaddr_in *)addr;
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)addr;
	struct in_device *in_dev;
	bool found = false;

	switch (addr->sa_family) {
	case AF_INET:
		in_dev = __in_dev_get_rcu(dev);
		if (in_dev) {
			const struct in_ifaddr *ifa;

			in_dev_for_each_ifa_rcu(ifa, in_dev)
				if (ifa->ifa_local == sin->sin_addr.s_addr)
					found = true;
		}
		return found;
#if IS_ENABLED(CONFIG_IPV6)
	case AF_INET6:
		return ipv6_chk_addr(dev_net(dev), &sin6->sin6_addr, dev, 1);
#endif
	default:
		return false;
	}
}

static int ipoib_upper_has_addr(struct net_device *dev,
				struct netdev_nested_priv *np)
{
	return ipoib_dev_has_addr(dev, np->data);
}

/* @dev or a device stacked on it (a bond, a VLAN) has @addr; under RCU. */
static bool ipoib_match_addr(struct net_device *dev,
			     const struct sockaddr *addr)
{
	struct netdev_nested_priv np = { .data = (void *)addr };

	return ipoib_dev_has_addr(dev, addr) ||
	       netdev_walk_all_upper_dev_rcu(dev, ipoib_upper_has_addr, &np);
}

/*
 * Whether @priv is the interface of a request for @pkey to @gid (NULL:
 * any of the port's) and, with @addr, of that IP address.
 */
static bool ipoib_intf_matches(struct ipoib_priv *priv, u16 pkey,
			       const union ib_gid *gid,
			       const struct sockaddr *addr)
{
	if ((priv->pkey & 0x7fff) != (pkey & 0x7fff))
		return false;
	if (gid && memcmp(gid, &priv->local_gid, sizeof(*gid)))
		return false;
	return !addr || ipoib_match_addr(priv->dev, addr);
}

/*
 * The interfaces of @port that match, the first of them referenced in
 * *@found; returns how many matched.
 */
static int ipoib_count_matches(struct ipoib_dev_list *list, u32 port,
			       u16 pkey, const union ib_gid *gid,
			       const struct sockaddr *addr,
			       struct net_device **found)
{
	struct ipoib_port_intf *pi;
	struct ipoib_priv *cpriv;
	unsigned long flags;
	int n = 0;

	*found = NULL;
	rcu_read_lock();
	spin_lock_irqsave(&ipoib_children_lock, flags);
	list_for_each_entry(pi, &list->list, node) {
		if (pi->priv->port != port)
			continue;
		if (ipoib_intf_matches(pi->priv, pkey, gid, addr) && !n++)
			*found = pi->priv->dev;
		list_for_each_entry(cpriv, &pi->priv->children, child_node)
			if (ipoib_intf_matches(cpriv, pkey, gid, addr) && !n++)
				*found = cpriv->dev;
	}
	if (*found)
		dev_hold(*found);
	spin_unlock_irqrestore(&ipoib_children_lock, flags);
	rcu_read_unlock();
	return n;
}

/*
 * ib_client.get_net_dev_by_params: the interface an rdma_cm request
 * (a REQ or SIDR REQ to @gid with @pkey) belongs to.  The P_Key and GID
 * pick it when only one interface has them; otherwise the IP address
 * the request names decides, as upstream.
 */
static struct net_device *ipoib_get_net_dev_by_params(struct ib_device *ca,
						      u32 port, u16 pkey,
						      const union ib_gid *gid,
						      const struct sockaddr *addr,
						      void *client_data)
{
	struct ipoib_dev_list *list = client_data;
	struct net_device *dev;
	int n;

	if (!list || !rdma_protocol_ib(ca, port))
		return NULL;
	n = ipoib_count_matches(list, port, pkey, gid, NULL, &dev);
	if (n <= 1)
		return dev;
	dev_put(dev);
	if (!addr)
		return NULL;
	n = ipoib_count_matches(list, port, pkey, gid, addr, &dev);
	if (n > 1)
		dev_warn_ratelimited(&ca->dev,
				     "ipoib: %d interfaces of port %u have the address of a request\n",
				     n, port);
	return dev;
}

static struct ib_client ipoib_client = {
	.name = "ipoib",
	.add = ipoib_add_one,
	.remove = ipoib_remove_one,
	.get_net_dev_by_params = ipoib_get_net_dev_by_params,
};

static int __init ipoib_init(void)
{
	int ret;

	ib_sa_register_client(&ipoib_sa_client);
	ret = rtnl_link_register(&ipoib_link_ops);
	if (ret)
		goto err_sa;
	ret = ib_register_client(&ipoib_client);
	if (ret)
		goto err_link;
	return 0;

err_link:
	rtnl_link_unregister(&ipoib_link_ops);
err_sa:
	ib_sa_unregister_client(&ipoib_sa_client);
	return ret;
}

static void __exit ipoib_exit(void)
{
	ib_unregister_client(&ipoib_client);
	rtnl_link_unregister(&ipoib_link_ops);
	ib_sa_unregister_client(&ipoib_sa_client);
}

module_init(ipoib_init);
module_exit(ipoib_exit);
