// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * RoCE GIDs that follow the IP stack.
 *
 * The GID table of a RoCE port is managed by the core (cache.c).  Besides
 * the default link-local GIDs made from a MAC address, it holds one GID
 * per IP address (IPv4 as ::ffff:a.b.c.d, IPv6 as it is) and per GID type
 * the port speaks (RoCE v1, RoCE v2), for every address of:
 *
 *  - the port's net device;
 *  - a VLAN device over it;
 *  - an upper device of it (a bonding master, a VLAN over the bond), as
 *    long as the port's net device is not an inactive slave of the bond.
 *
 * Each GID names the net device that owns the address, so its VLAN and
 * namespace are known (rdma_read_gid_l2_fields()).  The default GIDs are
 * those of the port's net device, or of the bonding master above it once
 * it is enslaved.
 *
 * Three notifiers follow the net devices (register, up, unregister, MAC
 * change, upper device link and unlink, bond failover) and their IPv4 and
 * IPv6 addresses.  They run with RTNL held (or, for IPv6 addresses, in
 * atomic context), so they only record what happened and queue it on one
 * ordered workqueue, roce_gid_wq; the work items change the GID tables.
 * Moving a net device to another namespace is an unregistration followed
 * by a registration, so its GIDs go and its default GIDs come back;
 * moving the RDMA device changes nothing here.
 *
 * A device is scanned when it is registered (rdma_roce_rescan_device()
 * from ib_cache_setup_one(): every net device of every namespace) and
 * when a port's net device changes (rdma_roce_rescan_port()).  The scan
 * is a work item on roce_gid_wq too, and the caller waits for it.  Being
 * ordered behind and ahead of the event work is what makes it right
 * without RTNL: an address, device or link that changes while the scan
 * reads it queues its own work item behind the scan, which puts the
 * table in order again.  So the scan never takes RTNL, and a device may
 * be registered (or a port's net device changed) by a caller holding it.
 */

#include <linux/inetdevice.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/addrconf.h>
#include <net/bonding.h>
#include <net/net_namespace.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#include "core_priv.h"

/*
 * Every work item that changes GID tables because of the IP stack runs
 * here, one at a time, in the order the events came.
 */
static struct workqueue_struct *roce_gid_wq;

/**
 * struct roce_gid_dev - a device whose RoCE ports follow the IP stack
 * @list: in roce_devs
 * @device: the device, between ib_cache_setup_one() and
 *	ib_cache_cleanup_one()
 */
struct roce_gid_dev {
	struct list_head	list;
	struct ib_device	*device;
};

/*
 * roce_devs_lock protects roce_devs and keeps each device on it alive (its
 * GID tables set up) while held: ib_cache_cleanup_one() takes it to remove
 * a device before the tables are emptied.  Only the work items of
 * roce_gid_wq take it, never under RTNL and never while a GID table lock
 * is held.  Lock order: roce_devs_lock, then a GID table's lock (and the
 * driver's add_gid/del_gid under it), then the table's rwlock.
 */
static DEFINE_MUTEX(roce_devs_lock);
static LIST_HEAD(roce_devs);

/*
 * Which ports an event concerns: @rdma_ndev is the port's net device
 * (NULL: none, never chosen), @filter_ndev the net device of the event.
 */
typedef bool (*roce_port_filter)(struct net_device *rdma_ndev,
				 struct net_device *filter_ndev);
/* What to do on a chosen port with the event's net device @ndev. */
typedef void (*roce_port_action)(struct ib_device *device, u32 port,
				 struct net_device *rdma_ndev,
				 struct net_device *ndev);

/**
 * roce_gid_type_mask_support - the GID types of a port
 * @ib_dev: the device
 * @port: the port
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: a mask of BIT(enum ib_gid_type): IB_GID_TYPE_ROCE and
 * IB_GID_TYPE_ROCE_UDP_ENCAP as the RoCE port speaks v1 and v2;
 * BIT(IB_GID_TYPE_IB) for a port that is not RoCE.
 */
unsigned long roce_gid_type_mask_support(struct ib_device *ib_dev, u32 port)
{
	unsigned long mask = 0;

	if (!rdma_protocol_roce(ib_dev, port))
		return BIT(IB_GID_TYPE_IB);
	if (rdma_protocol_roce_eth_encap(ib_dev, port))
		mask |= BIT(IB_GID_TYPE_ROCE);
	if (rdma_protocol_roce_udp_encap(ib_dev, port))
		mask |= BIT(IB_GID_TYPE_ROCE_UDP_ENCAP);
	return mask;
}
EXPORT_SYMBOL(roce_gid_type_mask_support);

/* ------------------------------------------------------------------
 * Which net devices a port takes GIDs from
 */

enum bond_role {
	BOND_ROLE_ACTIVE	= BIT(0),	/* the bond's active slave */
	BOND_ROLE_INACTIVE	= BIT(1),	/* another slave */
	BOND_ROLE_NONE		= BIT(2),	/* no bond, or none active */
};

/* What @dev is to @upper, when @upper is a bonding master.  Under RCU. */
static enum bond_role bond_role_rcu(struct net_device *dev,
				    struct net_device *upper)
{
	struct net_device *active;

	if (!upper || !netif_is_bond_master(upper))
		return BOND_ROLE_NONE;
	active = bond_option_active_slave_get_rcu(netdev_priv(upper));
	if (!active)
		return BOND_ROLE_NONE;
	return active == dev ? BOND_ROLE_ACTIVE : BOND_ROLE_INACTIVE;
}

/*
 * Are the addresses of @ndev the port's?  Yes for the port's net device
 * and VLANs over it, and for devices stacked above it unless the port's
 * device is an inactive slave of the bond they sit on.
 */
static bool port_takes_addrs_of(struct net_device *rdma_ndev,
				struct net_device *ndev)
{
	struct net_device *real;
	bool res;

	if (!rdma_ndev)
		return false;

	rcu_read_lock();
	real = rdma_vlan_dev_real_dev(ndev) ?: ndev;
	res = real == rdma_ndev ||
	      (rdma_is_upper_dev_rcu(rdma_ndev, ndev) &&
	       (bond_role_rcu(rdma_ndev, real) &
		(BOND_ROLE_ACTIVE | BOND_ROLE_NONE)));
	rcu_read_unlock();
	return res;
}

/*
 * Are the default GIDs of @ndev the port's?  Those of the port's own net
 * device unless it is enslaved; then those of the bonding master above.
 */
static bool port_takes_default_of(struct net_device *rdma_ndev,
				  struct net_device *ndev)
{
	bool res;

	if (!rdma_ndev)
		return false;

	rcu_read_lock();
	res = (ndev == rdma_ndev && !netif_is_bond_slave(rdma_ndev)) ||
	      (netif_is_bond_master(ndev) &&
	       rdma_is_upper_dev_rcu(rdma_ndev, ndev));
	rcu_read_unlock();
	return res;
}

/* Is @ndev a bonding master above the port's net device? */
static bool port_under_bond(struct net_device *rdma_ndev,
			    struct net_device *ndev)
{
	bool res;

	if (!rdma_ndev)
		return false;

	rcu_read_lock();
	res = netif_is_bond_master(ndev) &&
	      rdma_is_upper_dev_rcu(rdma_ndev, ndev);
	rcu_read_unlock();
	return res;
}

/* Is @ndev the port's net device or above it? */
static bool port_is_or_under(struct net_device *rdma_ndev,
			     struct net_device *ndev)
{
	bool res;

	if (!rdma_ndev)
		return false;
	if (rdma_ndev == ndev)
		return true;

	rcu_read_lock();
	res = rdma_is_upper_dev_rcu(rdma_ndev, ndev);
	rcu_read_unlock();
	return res;
}

/* Every RoCE port with a net device. */
static bool port_any(struct net_device *rdma_ndev, struct net_device *ndev)
{
	return true;
}

/* ------------------------------------------------------------------
 * Changing a port's GIDs
 */

/* Add or delete @gid of @ndev, once for every GID type of the port. */
static void port_update_gid(struct ib_device *device, u32 port,
			    union ib_gid *gid, struct net_device *ndev,
			    bool add)
{
	unsigned long types = roce_gid_type_mask_support(device, port);
	struct ib_gid_attr attr = {};
	unsigned int type;

	RCU_INIT_POINTER(attr.ndev, ndev);
	for_each_set_bit(type, &types, IB_GID_TYPE_SIZE) {
		attr.gid_type = type;
		if (add)
			ib_cache_gid_add(device, port, gid, &attr);
		else
			ib_cache_gid_del(device, port, gid, &attr);
	}
}

/* An address of a net device, copied out of RCU or the inet6_dev lock. */
struct roce_ip {
	struct list_head	list;
	union ib_gid		gid;
};

static void ip_list_add(struct list_head *ips, const struct in6_addr *addr)
{
	struct roce_ip *ip = kmalloc(sizeof(*ip), GFP_ATOMIC);

	/* Without memory the address is left out, as upstream does. */
	if (!ip)
		return;
	memcpy(ip->gid.raw, addr, sizeof(ip->gid.raw));
	list_add_tail(&ip->list, ips);
}

/* The IPv4 and IPv6 addresses of @ndev, as GIDs. */
static void ndev_collect_ips(struct net_device *ndev, struct list_head *ips)
{
	const struct in_ifaddr *ifa;
	struct in_device *in_dev;
	struct in6_addr mapped;

	rcu_read_lock();
	in_dev = __in_dev_get_rcu(ndev);
	if (in_dev) {
		in_dev_for_each_ifa_rcu(ifa, in_dev) {
			ipv6_addr_set_v4mapped(ifa->ifa_address, &mapped);
			ip_list_add(ips, &mapped);
		}
	}
	rcu_read_unlock();

#if IS_ENABLED(CONFIG_IPV6)
	{
		struct inet6_ifaddr *ifp;
		struct inet6_dev *in6_dev = in6_dev_get(ndev);

		if (!in6_dev)
			return;
		read_lock_bh(&in6_dev->lock);
		list_for_each_entry(ifp, &in6_dev->addr_list, if_list)
			ip_list_add(ips, &ifp->addr);
		read_unlock_bh(&in6_dev->lock);
		in6_dev_put(in6_dev);
	}
#endif
}

/* Add a GID for every address of @ndev. */
static void port_add_ips(struct ib_device *device, u32 port,
			 struct net_device *rdma_ndev, struct net_device *ndev)
{
	struct roce_ip *ip, *tmp;
	LIST_HEAD(ips);

	/* Its GIDs go with the UNREGISTER work queued behind us. */
	if (ndev->reg_state >= NETREG_UNREGISTERING)
		return;

	ndev_collect_ips(ndev, &ips);
	list_for_each_entry_safe(ip, tmp, &ips, list) {
		port_update_gid(device, port, &ip->gid, ndev, true);
		list_del(&ip->list);
		kfree(ip);
	}
}

/* Delete every GID of @ndev, default GIDs included. */
static void port_del_ips(struct ib_device *device, u32 port,
			 struct net_device *rdma_ndev, struct net_device *ndev)
{
	ib_cache_gid_del_all_netdev_gids(device, port, ndev);
}

static void port_add_default(struct ib_device *device, u32 port,
			     struct net_device *rdma_ndev,
			     struct net_device *ndev)
{
	if (ndev->reg_state >= NETREG_UNREGISTERING)
		return;
	ib_cache_gid_set_default_gid(device, port, ndev,
				     roce_gid_type_mask_support(device, port),
				     IB_CACHE_GID_DEFAULT_MODE_SET);
}

static void port_del_default(struct ib_device *device, u32 port,
			     struct net_device *rdma_ndev,
			     struct net_device *ndev)
{
	ib_cache_gid_set_default_gid(device, port, ndev,
				     roce_gid_type_mask_support(device, port),
				     IB_CACHE_GID_DEFAULT_MODE_DELETE);
}

/* A net device above another, held. */
struct roce_upper {
	struct list_head	list;
	struct net_device	*ndev;
	netdevice_tracker	tracker;
};

static int collect_upper(struct net_device *upper,
			 struct netdev_nested_priv *priv)
{
	struct roce_upper *u = kmalloc(sizeof(*u), GFP_ATOMIC);

	if (!u)
		return 0;
	netdev_hold(upper, &u->tracker, GFP_ATOMIC);
	u->ndev = upper;
	list_add_tail(&u->list, (struct list_head *)priv->data);
	return 0;
}

/* @action for @ndev and then for every device stacked above it. */
static void port_for_ndev_and_uppers(struct ib_device *device, u32 port,
				     struct net_device *rdma_ndev,
				     struct net_device *ndev,
				     roce_port_action action)
{
	struct roce_upper *u, *tmp;
	LIST_HEAD(uppers);
	struct netdev_nested_priv priv = { .data = &uppers };

	rcu_read_lock();
	netdev_walk_all_upper_dev_rcu(ndev, collect_upper, &priv);
	rcu_read_unlock();

	action(device, port, rdma_ndev, ndev);
	list_for_each_entry_safe(u, tmp, &uppers, list) {
		action(device, port, rdma_ndev, u->ndev);
		list_del(&u->list);
		netdev_put(u->ndev, &u->tracker);
		kfree(u);
	}
}

static void port_add_upper_ips(struct ib_device *device, u32 port,
			       struct net_device *rdma_ndev,
			       struct net_device *ndev)
{
	port_for_ndev_and_uppers(device, port, rdma_ndev, ndev, port_add_ips);
}

static void port_del_upper_ips(struct ib_device *device, u32 port,
			       struct net_device *rdma_ndev,
			       struct net_device *ndev)
{
	port_for_ndev_and_uppers(device, port, rdma_ndev, ndev, port_del_ips);
}

/*
 * @action on every RoCE port of @device that @filter chooses for
 * @filter_ndev.  Runs on roce_gid_wq.
 */
static void device_apply(struct ib_device *device, roce_port_filter filter,
			 struct net_device *filter_ndev,
			 roce_port_action action, struct net_device *ndev)
{
	u32 port;

	rdma_for_each_port(device, port) {
		struct net_device *rdma_ndev;

		if (!rdma_protocol_roce(device, port))
			continue;
		rdma_ndev = ib_device_get_netdev(device, port);
		if (filter(rdma_ndev, filter_ndev))
			action(device, port, rdma_ndev, ndev);
		dev_put(rdma_ndev);
	}
}

/* The same on every device that follows the IP stack. */
static void all_devices_apply(roce_port_filter filter,
			      struct net_device *filter_ndev,
			      roce_port_action action, struct net_device *ndev)
{
	struct roce_gid_dev *rdev;

	mutex_lock(&roce_devs_lock);
	list_for_each_entry(rdev, &roce_devs, list)
		device_apply(rdev->device, filter, filter_ndev, action, ndev);
	mutex_unlock(&roce_devs_lock);
}

/* ------------------------------------------------------------------
 * Net device events
 */

/**
 * struct roce_ndev_step - one step of a net device event's work
 * @filter: which ports
 * @filter_ndev: the net device @filter looks at (held)
 * @action: what to do on them
 * @ndev: the net device @action works on (held)
 * @filter_tracker: the reference on @filter_ndev
 * @tracker: the reference on @ndev
 */
struct roce_ndev_step {
	roce_port_filter	filter;
	struct net_device	*filter_ndev;
	roce_port_action	action;
	struct net_device	*ndev;
	netdevice_tracker	filter_tracker;
	netdevice_tracker	tracker;
};

#define ROCE_NDEV_STEPS	3

/**
 * struct roce_ndev_work - what a net device event changes, in order
 * @work: on roce_gid_wq
 * @nsteps: steps used
 * @steps: the steps
 */
struct roce_ndev_work {
	struct work_struct	work;
	unsigned int		nsteps;
	struct roce_ndev_step	steps[ROCE_NDEV_STEPS];
};

static void roce_ndev_work_fn(struct work_struct *_work)
{
	struct roce_ndev_work *work =
		container_of(_work, struct roce_ndev_work, work);
	unsigned int i;

	for (i = 0; i < work->nsteps; i++) {
		struct roce_ndev_step *s = &work->steps[i];

		all_devices_apply(s->filter, s->filter_ndev, s->action,
				  s->ndev);
		netdev_put(s->filter_ndev, &s->filter_tracker);
		netdev_put(s->ndev, &s->tracker);
	}
	kfree(work);
}

static void step_add(struct roce_ndev_work *work, roce_port_filter filter,
		     struct net_device *filter_ndev, roce_port_action action,
		     struct net_device *ndev)
{
	struct roce_ndev_step *s = &work->steps[work->nsteps++];

	s->filter = filter;
	s->action = action;
	s->filter_ndev = filter_ndev;
	s->ndev = ndev;
	netdev_hold(filter_ndev, &s->filter_tracker, GFP_KERNEL);
	netdev_hold(ndev, &s->tracker, GFP_KERNEL);
}

/*
 * Fill @work for @event on @ndev; false when the event changes no GID.
 * The steps and their order are upstream's.
 */
static bool ndev_event_steps(struct roce_ndev_work *work, unsigned long event,
			     struct net_device *ndev, void *ptr)
{
	struct netdev_notifier_changeupper_info *info;

	switch (event) {
	case NETDEV_REGISTER:
	case NETDEV_UP:
		step_add(work, port_takes_default_of, ndev, port_add_default,
			 ndev);
		step_add(work, port_takes_addrs_of, ndev, port_add_ips, ndev);
		return true;

	case NETDEV_UNREGISTER:
		/* also the UNREGISTER of a move to another namespace */
		if (ndev->reg_state >= NETREG_UNREGISTERED)
			return false;
		step_add(work, port_any, ndev, port_del_ips, ndev);
		return true;

	case NETDEV_CHANGEADDR:
		/* the default GIDs are made from the MAC address */
		step_add(work, port_takes_addrs_of, ndev, port_del_ips, ndev);
		if (ndev->reg_state == NETREG_REGISTERED) {
			step_add(work, port_takes_default_of, ndev,
				 port_add_default, ndev);
			step_add(work, port_takes_addrs_of, ndev, port_add_ips,
				 ndev);
		}
		return true;

	case NETDEV_CHANGEUPPER:
		info = container_of(ptr, struct netdev_notifier_changeupper_info,
				    info);
		if (info->linking) {
			/*
			 * Enslaved: the slave's default GIDs make room for the
			 * master's, and the master's addresses (and those of
			 * devices above it) become the port's.  A VLAN linked
			 * over the port's device gets its addresses here too.
			 */
			step_add(work, port_under_bond, info->upper_dev,
				 port_del_default, ndev);
			step_add(work, port_under_bond, info->upper_dev,
				 port_add_default, info->upper_dev);
			step_add(work, port_takes_addrs_of, info->upper_dev,
				 port_add_upper_ips, info->upper_dev);
		} else {
			/* The upper's GIDs leave the ports below @ndev. */
			step_add(work, port_is_or_under, ndev,
				 port_del_upper_ips, info->upper_dev);
			step_add(work, port_takes_addrs_of, ndev, port_add_ips,
				 ndev);
		}
		return true;

	case NETDEV_BONDING_FAILOVER:
		/* @ndev is the bond: its GIDs move to the new active slave */
		step_add(work, port_is_or_under, ndev, port_del_upper_ips,
			 ndev);
		step_add(work, port_under_bond, ndev, port_add_default, ndev);
		step_add(work, port_takes_addrs_of, ndev, port_add_upper_ips,
			 ndev);
		return true;

	default:
		return false;
	}
}

static int roce_netdevice_event(struct notifier_block *nb,
				unsigned long event, void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct roce_ndev_work *work;

	if (ndev->type != ARPHRD_ETHER)
		return NOTIFY_DONE;

	switch (event) {
	case NETDEV_REGISTER:
	case NETDEV_UP:
	case NETDEV_UNREGISTER:
	case NETDEV_CHANGEADDR:
	case NETDEV_CHANGEUPPER:
	case NETDEV_BONDING_FAILOVER:
		break;
	default:
		return NOTIFY_DONE;
	}

	/* Under RTNL, in process context. */
	work = kzalloc(sizeof(*work), GFP_KERNEL);
	if (!work)
		return NOTIFY_DONE;
	if (!ndev_event_steps(work, event, ndev, ptr)) {
		kfree(work);
		return NOTIFY_DONE;
	}
	INIT_WORK(&work->work, roce_ndev_work_fn);
	queue_work(roce_gid_wq, &work->work);
	return NOTIFY_DONE;
}

/* ------------------------------------------------------------------
 * Address events
 */

/**
 * struct roce_addr_work - an address that came or went
 * @work: on roce_gid_wq
 * @gid: the address as a GID
 * @ndev: the net device that has (or had) it, held
 * @tracker: the reference on @ndev
 * @add: it came
 */
struct roce_addr_work {
	struct work_struct	work;
	union ib_gid		gid;
	struct net_device	*ndev;
	netdevice_tracker	tracker;
	bool			add;
};

static void roce_addr_work_fn(struct work_struct *_work)
{
	struct roce_addr_work *work =
		container_of(_work, struct roce_addr_work, work);
	struct roce_gid_dev *rdev;
	u32 port;

	mutex_lock(&roce_devs_lock);
	list_for_each_entry(rdev, &roce_devs, list) {
		struct ib_device *device = rdev->device;

		rdma_for_each_port(device, port) {
			struct net_device *rdma_ndev;

			if (!rdma_protocol_roce(device, port))
				continue;
			rdma_ndev = ib_device_get_netdev(device, port);
			if (port_takes_addrs_of(rdma_ndev, work->ndev))
				port_update_gid(device, port, &work->gid,
						work->ndev, work->add);
			dev_put(rdma_ndev);
		}
	}
	mutex_unlock(&roce_devs_lock);

	netdev_put(work->ndev, &work->tracker);
	kfree(work);
}

/* May run in atomic context (IPv6 addresses). */
static int roce_addr_event(unsigned long event, const struct in6_addr *addr,
			   struct net_device *ndev)
{
	struct roce_addr_work *work;

	if (ndev->type != ARPHRD_ETHER)
		return NOTIFY_DONE;
	if (event != NETDEV_UP && event != NETDEV_DOWN)
		return NOTIFY_DONE;

	work = kmalloc(sizeof(*work), GFP_ATOMIC);
	if (!work)
		return NOTIFY_DONE;
	INIT_WORK(&work->work, roce_addr_work_fn);
	memcpy(work->gid.raw, addr, sizeof(work->gid.raw));
	work->add = event == NETDEV_UP;
	work->ndev = ndev;
	netdev_hold(ndev, &work->tracker, GFP_ATOMIC);
	queue_work(roce_gid_wq, &work->work);
	return NOTIFY_DONE;
}

static int roce_inetaddr_event(struct notifier_block *nb, unsigned long event,
			       void *ptr)
{
	struct in_ifaddr *ifa = ptr;
	struct in6_addr mapped;

	ipv6_addr_set_v4mapped(ifa->ifa_address, &mapped);
	return roce_addr_event(event, &mapped, ifa->ifa_dev->dev);
}

static int roce_inet6addr_event(struct notifier_block *nb,
				unsigned long event, void *ptr)
{
	struct inet6_ifaddr *ifa6 = ptr;

	return roce_addr_event(event, &ifa6->addr, ifa6->idev->dev);
}

static struct notifier_block roce_netdevice_nb = {
	.notifier_call = roce_netdevice_event,
};

static struct notifier_block roce_inetaddr_nb = {
	.notifier_call = roce_inetaddr_event,
};

static struct notifier_block roce_inet6addr_nb = {
	.notifier_call = roce_inet6addr_event,
};

/* ------------------------------------------------------------------
 * Scans
 */

/* A net device a scan found for a port, held. */
struct roce_scan_ndev {
	struct list_head	list;
	struct net_device	*ndev;
	netdevice_tracker	tracker;
	bool			defaults;
	bool			addrs;
};

/* Every net device of every namespace whose GIDs are the port's. */
static void scan_collect(struct net_device *rdma_ndev, struct list_head *found)
{
	struct net_device *ndev;
	struct net *net;

	rcu_read_lock();
	for_each_net_rcu(net) {
		for_each_netdev_rcu(net, ndev) {
			struct roce_scan_ndev *s;
			bool defaults, addrs;

			defaults = port_takes_default_of(rdma_ndev, ndev);
			addrs = port_takes_addrs_of(rdma_ndev, ndev);
			if (!defaults && !addrs)
				continue;
			s = kmalloc(sizeof(*s), GFP_ATOMIC);
			if (!s)
				continue;
			s->ndev = ndev;
			s->defaults = defaults;
			s->addrs = addrs;
			netdev_hold(ndev, &s->tracker, GFP_ATOMIC);
			list_add_tail(&s->list, found);
		}
	}
	rcu_read_unlock();
}

static void scan_port(struct ib_device *device, u32 port)
{
	struct roce_scan_ndev *s, *tmp;
	struct net_device *rdma_ndev;
	LIST_HEAD(found);

	if (!rdma_protocol_roce(device, port))
		return;
	rdma_ndev = ib_device_get_netdev(device, port);
	if (!rdma_ndev)
		return;

	scan_collect(rdma_ndev, &found);
	list_for_each_entry_safe(s, tmp, &found, list) {
		if (s->defaults)
			port_add_default(device, port, rdma_ndev, s->ndev);
		if (s->addrs)
			port_add_ips(device, port, rdma_ndev, s->ndev);
		list_del(&s->list);
		netdev_put(s->ndev, &s->tracker);
		kfree(s);
	}
	dev_put(rdma_ndev);
}

/**
 * struct roce_scan_work - a scan, on the caller's stack
 * @work: on roce_gid_wq
 * @device: the device
 * @port: the port, or 0 for all of them
 */
struct roce_scan_work {
	struct work_struct	work;
	struct ib_device	*device;
	u32			port;
};

static void roce_scan_work_fn(struct work_struct *_work)
{
	struct roce_scan_work *work =
		container_of(_work, struct roce_scan_work, work);
	u32 port;

	if (work->port) {
		scan_port(work->device, work->port);
		return;
	}
	rdma_for_each_port(work->device, port)
		scan_port(work->device, port);
}

/* Scan in order with the events, and wait for it. */
static void roce_scan(struct ib_device *device, u32 port)
{
	struct roce_scan_work work = { .device = device, .port = port };

	INIT_WORK_ONSTACK(&work.work, roce_scan_work_fn);
	queue_work(roce_gid_wq, &work.work);
	flush_work(&work.work);
	destroy_work_on_stack(&work.work);
}

/**
 * rdma_roce_rescan_device - add the GIDs of every net device to a device
 * @ib_dev: the device
 *
 * Every net device of every network namespace is looked at: the default
 * GIDs and the address GIDs of those that belong to one of the device's
 * RoCE ports (its net device, VLANs over it, an active bond above it) are
 * added where missing.  Nothing is deleted.  The core does this when it
 * registers a device; a driver calls it when its ports' net devices
 * changed in a way no net device event tells.
 *
 * Context: Process context; sleeps until the scan, queued behind the GID
 * work already pending, is done. Takes no lock of its own; the scan takes
 * the ports' GID table locks and calls the driver's add_gid. May be called
 * with RTNL held, not from a GID work item.
 */
void rdma_roce_rescan_device(struct ib_device *ib_dev)
{
	u32 port;

	/* an InfiniBand or iWARP device does not wait on the queue */
	rdma_for_each_port(ib_dev, port) {
		if (rdma_protocol_roce(ib_dev, port)) {
			roce_scan(ib_dev, 0);
			return;
		}
	}
}
EXPORT_SYMBOL(rdma_roce_rescan_device);

/**
 * rdma_roce_rescan_port - add the GIDs of every net device to one port
 * @ib_dev: the device
 * @port: the port; nothing happens unless it is a RoCE port with a net
 *	device
 *
 * As rdma_roce_rescan_device(), for one port.
 *
 * Context: Process context; sleeps as rdma_roce_rescan_device(). May be
 * called with RTNL held, not from a GID work item.
 */
void rdma_roce_rescan_port(struct ib_device *ib_dev, u32 port)
{
	if (!rdma_is_port_valid(ib_dev, port) ||
	    !rdma_protocol_roce(ib_dev, port))
		return;
	roce_scan(ib_dev, port);
}
EXPORT_SYMBOL(rdma_roce_rescan_port);

/**
 * roce_del_all_netdev_gids - delete every GID of a net device from a port
 * @ib_dev: the device
 * @port: a RoCE port
 * @ndev: the net device
 *
 * Default GIDs of @ndev go too.  For drivers whose port loses a net
 * device in a way no net device event tells.
 *
 * Context: Process context; sleeps. Takes the port's GID table lock and
 * calls the driver's del_gid under it.
 */
void roce_del_all_netdev_gids(struct ib_device *ib_dev, u32 port,
			      struct net_device *ndev)
{
	ib_cache_gid_del_all_netdev_gids(ib_dev, port, ndev);
}
EXPORT_SYMBOL(roce_del_all_netdev_gids);

/* ------------------------------------------------------------------
 * Devices and the module
 */

/**
 * roce_gid_mgmt_add_device - let a device's RoCE ports follow the IP stack
 * @device: a device whose GID tables were just set up
 *
 * Events from now on reach its ports; the caller scans it afterwards.
 * Devices without RoCE ports are not recorded.
 *
 * Return: 0 or -ENOMEM.
 */
int roce_gid_mgmt_add_device(struct ib_device *device)
{
	struct roce_gid_dev *rdev;
	bool roce = false;
	u32 port;

	rdma_for_each_port(device, port)
		roce |= rdma_protocol_roce(device, port);
	if (!roce)
		return 0;

	rdev = kzalloc(sizeof(*rdev), GFP_KERNEL);
	if (!rdev)
		return -ENOMEM;
	rdev->device = device;
	mutex_lock(&roce_devs_lock);
	list_add_tail(&rdev->list, &roce_devs);
	mutex_unlock(&roce_devs_lock);
	return 0;
}

/**
 * roce_gid_mgmt_del_device - stop following the IP stack for a device
 * @device: the device, before its GID tables are emptied
 *
 * When this returns, no work item touches the device any more.  Nothing
 * happens for a device that was never added.
 */
void roce_gid_mgmt_del_device(struct ib_device *device)
{
	struct roce_gid_dev *rdev, *found = NULL;

	mutex_lock(&roce_devs_lock);
	list_for_each_entry(rdev, &roce_devs, list) {
		if (rdev->device == device) {
			list_del(&rdev->list);
			found = rdev;
			break;
		}
	}
	mutex_unlock(&roce_devs_lock);
	kfree(found);
}

/**
 * roce_gid_mgmt_flush - wait for the GID work queued so far
 *
 * For the suites: after an address, VLAN or link change, the GID tables
 * show it once this returns.
 *
 * Context: Process context; sleeps. Not from a GID work item.
 */
void roce_gid_mgmt_flush(void)
{
	flush_workqueue(roce_gid_wq);
}
EXPORT_SYMBOL_IF_KUNIT(roce_gid_mgmt_flush);

int roce_gid_mgmt_init(void)
{
	int ret;

	roce_gid_wq = alloc_ordered_workqueue("roce_gid", 0);
	if (!roce_gid_wq)
		return -ENOMEM;

	/* Address notifiers first: the netdevice notifier replays devices. */
	ret = register_inetaddr_notifier(&roce_inetaddr_nb);
	if (ret)
		goto err_wq;
	if (IS_ENABLED(CONFIG_IPV6)) {
		ret = register_inet6addr_notifier(&roce_inet6addr_nb);
		if (ret)
			goto err_inet;
	}
	ret = register_netdevice_notifier(&roce_netdevice_nb);
	if (ret)
		goto err_inet6;
	return 0;

err_inet6:
	if (IS_ENABLED(CONFIG_IPV6))
		unregister_inet6addr_notifier(&roce_inet6addr_nb);
err_inet:
	unregister_inetaddr_notifier(&roce_inetaddr_nb);
err_wq:
	destroy_workqueue(roce_gid_wq);
	return ret;
}

void roce_gid_mgmt_cleanup(void)
{
	unregister_netdevice_notifier(&roce_netdevice_nb);
	if (IS_ENABLED(CONFIG_IPV6))
		unregister_inet6addr_notifier(&roce_inet6addr_nb);
	unregister_inetaddr_notifier(&roce_inetaddr_nb);
	/* runs what is queued: the references it holds are dropped */
	destroy_workqueue(roce_gid_wq);
	WARN_ON(!list_empty(&roce_devs));
}
