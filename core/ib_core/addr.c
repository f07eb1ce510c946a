// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * IP address translation for RDMA (the ib_addr part of ib_core).
 *
 * RoCE and rdma_cm address their peers by IP.  Before a packet can leave,
 * the core needs what the IP stack knows: the route to the peer (which
 * net device, which source address, how many hops) and the link-layer
 * address of the next hop from the neighbour table.
 *
 * One resolution attempt (resolve_once()) runs under RCU and never
 * sleeps:
 *   1. the namespace is the one of the source GID's net device (requests
 *	"by GID attribute") or the caller's rdma_dev_addr.net;
 *   2. the route comes from ip_route_output_key() or the IPv6 stub; a
 *	route to a local address leaves through the loopback device, and
 *	then the device owning the address stands for it;
 *   3. a request by GID attribute must leave through the GID's net
 *	device or a device stacked on it (VLAN, bond), else -EHOSTUNREACH;
 *   4. the neighbour of the route gives the destination MAC if its state
 *	is NUD_VALID; otherwise it is asked to resolve (neigh_event_send())
 *	and the attempt ends with -ENODATA.
 *
 * rdma_addr_find_l2_eth_by_grh() makes one attempt.  rdma_resolve_ip()
 * keeps a request on a list and retries it on an ordered workqueue when
 * a neighbour becomes valid (NETEVENT_NEIGH_UPDATE) and once more when
 * its time is up; the callback always runs from that workqueue.  An
 * update that comes while an attempt runs (a veth peer answers the
 * solicitation before neigh_event_send() returns) finds no request to
 * wake: a counter of updates, read before the attempt and again under
 * the list's lock after it, makes the request try again at once.
 */

#include <kunit/visibility.h>
#include <linux/etherdevice.h>
#include <linux/export.h>
#include <linux/inetdevice.h>
#include <linux/jiffies.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/addrconf.h>
#include <net/ip6_route.h>
#include <net/ipv6_stubs.h>
#include <net/neighbour.h>
#include <net/netevent.h>
#include <net/route.h>
#include <rdma/ib.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_sa.h>
#include <rdma/rdma_netlink.h>

#include "core_priv.h"

/* An IPv4 or IPv6 socket address. */
union addr_sa {
	struct sockaddr		sa;
	struct sockaddr_in	in4;
	struct sockaddr_in6	in6;
};

/**
 * rdma_addr_size - the length of a socket address of an RDMA family
 * @addr: the address
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: sizeof(struct sockaddr_in), sizeof(struct sockaddr_in6) or
 * sizeof(struct sockaddr_ib) for AF_INET, AF_INET6 and AF_IB, 0 for
 * another family.
 */
int rdma_addr_size(const struct sockaddr *addr)
{
	switch (addr->sa_family) {
	case AF_INET:
		return sizeof(struct sockaddr_in);
	case AF_INET6:
		return sizeof(struct sockaddr_in6);
	case AF_IB:
		return sizeof(struct sockaddr_ib);
	default:
		return 0;
	}
}
EXPORT_SYMBOL(rdma_addr_size);

/**
 * rdma_addr_size_in6 - rdma_addr_size() of an address in sockaddr_in6 room
 * @addr: the address, in storage of sizeof(struct sockaddr_in6)
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: the length of the address, or 0 if its family is unknown or
 * it would not fit the storage (AF_IB).
 */
int rdma_addr_size_in6(struct sockaddr_in6 *addr)
{
	int size = rdma_addr_size((struct sockaddr *)addr);

	return size <= sizeof(*addr) ? size : 0;
}
EXPORT_SYMBOL(rdma_addr_size_in6);

/**
 * rdma_addr_size_kss - rdma_addr_size() of an address in sockaddr_storage
 * @addr: the address, in storage of sizeof(struct __kernel_sockaddr_storage)
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: the length of the address, or 0 if its family is unknown or
 * it would not fit the storage.
 */
int rdma_addr_size_kss(struct __kernel_sockaddr_storage *addr)
{
	int size = rdma_addr_size((struct sockaddr *)addr);

	return size <= sizeof(*addr) ? size : 0;
}
EXPORT_SYMBOL(rdma_addr_size_kss);

/**
 * rdma_copy_src_l2_addr - take the link-layer identity of a net device
 * @dev_addr: filled: dev_type, src_dev_addr, broadcast and bound_dev_if
 * @dev: the local net device
 *
 * Context: Any context; takes no lock and does not sleep. The caller keeps
 * @dev alive (a reference or RCU).
 */
void rdma_copy_src_l2_addr(struct rdma_dev_addr *dev_addr,
			   const struct net_device *dev)
{
	unsigned int len = min_t(unsigned int, dev->addr_len, MAX_ADDR_LEN);

	dev_addr->dev_type = dev->type;
	memset(dev_addr->src_dev_addr, 0, sizeof(dev_addr->src_dev_addr));
	memcpy(dev_addr->src_dev_addr, dev->dev_addr, len);
	memcpy(dev_addr->broadcast, dev->broadcast, sizeof(dev_addr->broadcast));
	dev_addr->bound_dev_if = dev->ifindex;
}
EXPORT_SYMBOL(rdma_copy_src_l2_addr);

/* The device that owns a local IP address, or NULL.  Under RCU. */
static struct net_device *ndev_of_ip_rcu(struct net *net,
					 const struct sockaddr *addr)
{
	if (addr->sa_family == AF_INET) {
		const struct sockaddr_in *sin = (const struct sockaddr_in *)addr;

		return __ip_dev_find(net, sin->sin_addr.s_addr, false);
	}
#if IS_ENABLED(CONFIG_IPV6)
	if (addr->sa_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 =
			(const struct sockaddr_in6 *)addr;

		return ipv6_dev_find(net, &sin6->sin6_addr, NULL);
	}
#endif
	return NULL;
}

/**
 * rdma_translate_ip - the local net device of an address
 * @addr: a local IP address (AF_INET or AF_INET6)
 * @dev_addr: its @net names the namespace; when @bound_dev_if is set,
 *	that device is taken whatever @addr is
 *
 * Fills the link-layer fields of @dev_addr with rdma_copy_src_l2_addr().
 *
 * Context: Any context; does not sleep. Takes rcu_read_lock() only.
 *
 * Return: 0, -ENODEV when @bound_dev_if names no device, or
 * -EADDRNOTAVAIL when no device in the namespace has @addr.
 */
int rdma_translate_ip(const struct sockaddr *addr,
		      struct rdma_dev_addr *dev_addr)
{
	struct net_device *dev;
	int ret = 0;

	rcu_read_lock();
	if (dev_addr->bound_dev_if) {
		dev = dev_get_by_index_rcu(dev_addr->net,
					   dev_addr->bound_dev_if);
		if (!dev)
			ret = -ENODEV;
	} else {
		dev = ndev_of_ip_rcu(dev_addr->net, addr);
		if (!dev)
			ret = -EADDRNOTAVAIL;
	}
	if (dev)
		rdma_copy_src_l2_addr(dev_addr, dev);
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL(rdma_translate_ip);

/* Does the route go through a gateway (so only RoCE v2 can follow it)? */
static bool route_has_gateway(const struct dst_entry *dst, sa_family_t family)
{
	if (family == AF_INET)
		return dst_rtable(dst)->rt_gw_family != 0;
#if IS_ENABLED(CONFIG_IPV6)
	return dst_rt6_info(dst)->rt6i_flags & RTF_GATEWAY;
#else
	return false;
#endif
}

static struct dst_entry *route4_rcu(struct net *net, union addr_sa *src,
				    const union addr_sa *dst, int oif,
				    struct rdma_dev_addr *dev_addr)
{
	struct flowi4 fl4 = {
		.daddr = dst->in4.sin_addr.s_addr,
		.saddr = src->in4.sin_addr.s_addr,
		.flowi4_oif = oif,
	};
	struct rtable *rt;

	rt = ip_route_output_key(net, &fl4);
	if (IS_ERR(rt))
		return ERR_CAST(rt);
	src->in4.sin_addr.s_addr = fl4.saddr;
	dev_addr->hoplimit = ip4_dst_hoplimit(&rt->dst);
	return &rt->dst;
}

static struct dst_entry *route6_rcu(struct net *net, union addr_sa *src,
				    const union addr_sa *dst, int oif,
				    struct rdma_dev_addr *dev_addr)
{
#if IS_ENABLED(CONFIG_IPV6)
	struct flowi6 fl6 = {
		.daddr = dst->in6.sin6_addr,
		.saddr = src->in6.sin6_addr,
		.flowi6_oif = oif,
	};
	struct dst_entry *route;

	route = ipv6_stub->ipv6_dst_lookup_flow(net, NULL, &fl6, NULL);
	if (IS_ERR(route))
		return route;
	if (ipv6_addr_any(&src->in6.sin6_addr))
		src->in6.sin6_addr = fl6.saddr;
	/* a link-local peer is one hop away by definition */
	if (ipv6_addr_type(&fl6.daddr) & IPV6_ADDR_LINKLOCAL)
		dev_addr->hoplimit = 1;
	else
		dev_addr->hoplimit = ip6_dst_hoplimit(route);
	return route;
#else
	return ERR_PTR(-EAFNOSUPPORT);
#endif
}

/*
 * The interface a lookup must use.  A device the caller bound to always
 * wins.  IPv6 link-local and multicast destinations only mean something
 * on one link: they are looked up on @scope_if (the GID's device) or the
 * address's own scope.  Other destinations follow the routing table.
 */
static int lookup_oif(const union addr_sa *dst, int bound_if, int scope_if)
{
	if (bound_if || dst->sa.sa_family != AF_INET6)
		return bound_if;
	if (ipv6_addr_type(&dst->in6.sin6_addr) &
	    (IPV6_ADDR_LINKLOCAL | IPV6_ADDR_MULTICAST))
		return scope_if ?: dst->in6.sin6_scope_id;
	return 0;
}

/* May packets for @gid_ndev leave through @out? */
static bool egress_allowed(struct net_device *out, struct net_device *gid_ndev)
{
	return out == gid_ndev || netdev_has_upper_dev_all_rcu(gid_ndev, out);
}

/* Take the next hop's hardware address, or start resolving it. */
static int neigh_fetch_ha(const struct dst_entry *dst,
			  const union addr_sa *dst_in,
			  struct rdma_dev_addr *dev_addr)
{
	const void *daddr = dst_in->sa.sa_family == AF_INET ?
		(const void *)&dst_in->in4.sin_addr :
		(const void *)&dst_in->in6.sin6_addr;
	struct neighbour *n;
	int ret = 0;

	n = dst_neigh_lookup(dst, daddr);
	if (!n)
		return -ENODATA;
	if (READ_ONCE(n->nud_state) & NUD_VALID) {
		memset(dev_addr->dst_dev_addr, 0,
		       sizeof(dev_addr->dst_dev_addr));
		neigh_ha_snapshot(dev_addr->dst_dev_addr, n, dst->dev);
	} else {
		/* sends a solicitation; its answer raises a netevent */
		neigh_event_send(n, NULL);
		ret = -ENODATA;
	}
	neigh_release(n);
	return ret;
}

/*
 * One resolution of @dst_in from @src_in (same family).  A zero source
 * address is replaced by the one the route chose.  With @by_gid_attr the
 * namespace and device come from @dev_addr->sgid_attr.  Without
 * @resolve_neigh only the route and the local device are looked up.
 */
static int resolve_once(union addr_sa *src_in, const union addr_sa *dst_in,
			struct rdma_dev_addr *dev_addr, bool resolve_neigh,
			bool by_gid_attr)
{
	sa_family_t family = dst_in->sa.sa_family;
	struct net_device *gid_ndev = NULL;
	struct net *net = dev_addr->net;
	int bound_if = dev_addr->bound_dev_if;
	struct net_device *out;
	int scope_if = 0;
	int oif;
	struct dst_entry *dst;
	int ret;

	if (family != AF_INET && family != AF_INET6)
		return -EAFNOSUPPORT;
	if (src_in->sa.sa_family != family)
		return -EINVAL;

	rcu_read_lock();
	if (by_gid_attr) {
		ret = -EINVAL;
		if (!dev_addr->sgid_attr)
			goto out_unlock;
		gid_ndev = rdma_read_gid_attr_ndev_rcu(dev_addr->sgid_attr);
		if (IS_ERR(gid_ndev)) {
			ret = PTR_ERR(gid_ndev);
			goto out_unlock;
		}
		/* the GID's device decides; the route is checked below */
		net = dev_net(gid_ndev);
		bound_if = 0;
		scope_if = gid_ndev->ifindex;
	}
	ret = -EINVAL;
	if (!net)
		goto out_unlock;

	oif = lookup_oif(dst_in, bound_if, scope_if);
	if (family == AF_INET)
		dst = route4_rcu(net, src_in, dst_in, oif, dev_addr);
	else
		dst = route6_rcu(net, src_in, dst_in, oif, dev_addr);
	if (IS_ERR(dst)) {
		ret = PTR_ERR(dst);
		goto out_unlock;
	}

	out = dst->dev;
	if (out->flags & IFF_LOOPBACK) {
		/* RDMA does not run on lo: the owner of the address does */
		out = ndev_of_ip_rcu(net, &dst_in->sa);
		if (!out) {
			ret = -ENODEV;
			goto out_release;
		}
	}
	if (gid_ndev && !egress_allowed(out, gid_ndev)) {
		ret = -EHOSTUNREACH;
		goto out_release;
	}

	rdma_copy_src_l2_addr(dev_addr, out);
	if (route_has_gateway(dst, family) && out->type != ARPHRD_INFINIBAND)
		dev_addr->network = family == AF_INET ? RDMA_NETWORK_IPV4 :
							RDMA_NETWORK_IPV6;
	else
		dev_addr->network = RDMA_NETWORK_IB;

	ret = 0;
	if (!resolve_neigh)
		goto out_release;
	if (dst->dev->flags & IFF_LOOPBACK)
		memcpy(dev_addr->dst_dev_addr, dev_addr->src_dev_addr,
		       sizeof(dev_addr->dst_dev_addr));
	else
		ret = neigh_fetch_ha(dst, dst_in, dev_addr);

out_release:
	dst_release(dst);
out_unlock:
	rcu_read_unlock();
	return ret;
}

/**
 * roce_resolve_route_from_path - check the route of a RoCE path
 * @rec: a RoCE path; ->roce.route_resolved is set on success
 * @attr: the source GID entry (its net device gives the namespace and
 *	the device the route must leave through)
 *
 * Only the route is looked up, not the neighbour.  A path resolved
 * already is left alone.  A route through a gateway needs a RoCE v2
 * path (routable); RoCE v1 stays on the link.
 *
 * Context: Process context; takes the RCU read lock.
 * Return: 0; -EINVAL for GIDs of different families, a missing entry or
 * device, or a routed destination on a RoCE v1 path; the route
 * lookup's errno.
 */
int roce_resolve_route_from_path(struct sa_path_rec *rec,
				 const struct ib_gid_attr *attr)
{
	struct rdma_dev_addr dev_addr = {
		.net = &init_net,
		.sgid_attr = attr,
	};
	union addr_sa src, dst;
	int ret;

	might_sleep();
	if (rec->roce.route_resolved)
		return 0;

	/* The whole union: rdma_gid2ip() may write a sockaddr_in6. */
	rdma_gid2ip((struct sockaddr *)&src, &rec->sgid);
	rdma_gid2ip((struct sockaddr *)&dst, &rec->dgid);
	if (src.sa.sa_family != dst.sa.sa_family)
		return -EINVAL;
	if (!attr || !attr->ndev)
		return -EINVAL;

	ret = resolve_once(&src, &dst, &dev_addr, false, true);
	if (ret)
		return ret;
	if ((dev_addr.network == RDMA_NETWORK_IPV4 ||
	     dev_addr.network == RDMA_NETWORK_IPV6) &&
	    rec->rec_type != SA_PATH_REC_TYPE_ROCE_V2)
		return -EINVAL;

	rec->roce.route_resolved = true;
	return 0;
}

/* rdma_addr_find_l2_eth_by_grh() waiting for its neighbour */
struct l2_waiter {
	struct completion	done;
	int			status;
};

static void l2_resolved(int status, struct sockaddr *src_addr,
			struct rdma_dev_addr *addr, void *context)
{
	struct l2_waiter *w = context;

	w->status = status;
	complete(&w->done);
}

/* Wait up to a second for the neighbour of @dst (upstream's timeout). */
static int l2_wait(union addr_sa *src, union addr_sa *dst,
		   struct rdma_dev_addr *dev_addr)
{
	struct l2_waiter w;
	int ret;

	init_completion(&w.done);
	ret = rdma_resolve_ip(&src->sa, &dst->sa, dev_addr, 1000, l2_resolved,
			      true, &w);
	if (ret)
		return ret;
	wait_for_completion(&w.done);
	return w.status;
}

/**
 * rdma_addr_find_l2_eth_by_grh - the destination MAC of a RoCE path
 * @sgid: source GID (IPv4-mapped or IPv6)
 * @dgid: unicast destination GID of the same family
 * @dmac: ETH_ALEN bytes, set to the next hop's MAC address
 * @sgid_attr: the source GID entry; its net device gives the namespace
 *	and the device the route must leave through
 * @hoplimit: set to the route's hop limit (IPv4 TTL, IPv6 hop limit; 1
 *	for a link-local destination)
 *
 * A neighbour that is not valid yet is asked to resolve, and the call
 * waits for it up to a second (through rdma_resolve_ip()), as upstream
 * does.  A destination that is a local address resolves to the MAC of
 * the device that owns it.  May sleep.
 *
 * Context: Process context; sleeps up to a second while the neighbour resolves
 * (GFP_KERNEL allocation, wait_for_completion()). The attempts run under RCU;
 * the retry takes req_lock (spin_lock_bh).
 *
 * Return: 0; -EINVAL for a missing entry or different families;
 * -ENODEV when the entry lost its net device; -ENETUNREACH or
 * -EHOSTUNREACH when there is no route or it leaves through another
 * device; -ETIMEDOUT when the neighbour did not resolve within a second.
 */
int rdma_addr_find_l2_eth_by_grh(const union ib_gid *sgid,
				 const union ib_gid *dgid,
				 u8 *dmac, const struct ib_gid_attr *sgid_attr,
				 int *hoplimit)
{
	struct rdma_dev_addr dev_addr = {
		.net = &init_net,
		.sgid_attr = sgid_attr,
	};
	union addr_sa src, dst;
	int ret;

	if (!sgid_attr)
		return -EINVAL;
	/* The whole union: rdma_gid2ip() may write a sockaddr_in6. */
	rdma_gid2ip((struct sockaddr *)&src, sgid);
	rdma_gid2ip((struct sockaddr *)&dst, dgid);

	ret = resolve_once(&src, &dst, &dev_addr, true, true);
	if (ret == -ENODATA)
		ret = l2_wait(&src, &dst, &dev_addr);
	if (ret)
		return ret;
	memcpy(dmac, dev_addr.dst_dev_addr, ETH_ALEN);
	*hoplimit = dev_addr.hoplimit;
	return 0;
}
EXPORT_SYMBOL(rdma_addr_find_l2_eth_by_grh);

/* ------------------------------------------------------------------
 * Asynchronous requests
 */

/**
 * struct addr_req - a pending rdma_resolve_ip()
 * @list: on req_list while the request may still call back
 * @src: source address, updated by every attempt
 * @dst: destination address
 * @addr: the caller's result, also the key of rdma_addr_cancel()
 * @callback: called once, from addr_wq
 * @context: for @callback
 * @deadline: jiffies after which -ENODATA becomes -ETIMEDOUT
 * @status: result of the last attempt
 * @by_gid_attr: resolve by @addr->sgid_attr
 * @work: the next attempt or the callback
 */
struct addr_req {
	struct list_head	list;
	union addr_sa		src;
	union addr_sa		dst;
	struct rdma_dev_addr	*addr;
	void (*callback)(int status, struct sockaddr *src_addr,
			 struct rdma_dev_addr *addr, void *context);
	void			*context;
	unsigned long		deadline;
	int			status;
	bool			by_gid_attr;
	struct delayed_work	work;
};

static struct workqueue_struct *addr_wq;
/* req_list and the queueing of its works */
static DEFINE_SPINLOCK(req_lock);
static LIST_HEAD(req_list);
/* neighbour updates seen by addr_netevent(), bumped before req_lock */
static atomic_t addr_neigh_gen = ATOMIC_INIT(0);

/* Run the work of @req at @when, or now if that has passed. */
static void req_schedule(struct addr_req *req, unsigned long when)
{
	long delay = (long)(when - jiffies);

	mod_delayed_work(addr_wq, &req->work, delay > 0 ? delay : 0);
}

static void addr_req_work(struct work_struct *work)
{
	struct addr_req *req = container_of(to_delayed_work(work),
					    struct addr_req, work);

	if (req->status == -ENODATA) {
		int gen = atomic_read(&addr_neigh_gen);

		req->status = resolve_once(&req->src, &req->dst, req->addr,
					   true, req->by_gid_attr);
		if (req->status && time_after_eq(jiffies, req->deadline)) {
			req->status = -ETIMEDOUT;
		} else if (req->status == -ENODATA) {
			/*
			 * Wait for a neighbour update or the deadline; one
			 * that came during resolve_once() counts now.
			 */
			spin_lock_bh(&req_lock);
			if (!list_empty(&req->list))
				req_schedule(req, atomic_read(&addr_neigh_gen) != gen ?
					     jiffies : req->deadline);
			spin_unlock_bh(&req_lock);
			return;
		}
	}

	req->callback(req->status, &req->src.sa, req->addr, req->context);

	spin_lock_bh(&req_lock);
	/* an empty list entry means rdma_addr_cancel() owns the request */
	if (!list_empty(&req->list)) {
		/* a netevent may have queued us again meanwhile */
		cancel_delayed_work(&req->work);
		list_del_init(&req->list);
		kfree(req);
	}
	spin_unlock_bh(&req_lock);
}

/**
 * rdma_resolve_ip - resolve an IP destination asynchronously
 * @src_addr: source address, or NULL for any; if given, of the same
 *	family as @dst_addr
 * @dst_addr: destination (AF_INET or AF_INET6)
 * @addr: the result: local device fields, dst_dev_addr, hoplimit and
 *	network; @addr->net must be set (and @addr->sgid_attr for
 *	@resolve_by_gid_attr).  It must stay valid until the callback ran
 *	or rdma_addr_cancel() returned.
 * @timeout_ms: how long to wait for the neighbour
 * @callback: called once from the core's address workqueue with 0 or a
 *	negative error (-ETIMEDOUT when the neighbour did not resolve in
 *	time) and the source address the route chose
 * @resolve_by_gid_attr: take namespace and device from @addr->sgid_attr
 * @context: passed to @callback
 *
 * A first attempt is made at once.  Errors of that attempt other than an
 * unresolved neighbour are returned and @callback is not called.
 * Otherwise @callback runs later, never from this call.  May sleep.
 *
 * Context: Process context; may sleep (GFP_KERNEL allocation). The first
 * attempt runs under RCU; queueing takes req_lock with bottom halves disabled.
 * @callback later runs from the ordered ib_addr workqueue with no lock held.
 *
 * Return: 0 when @callback will be called, else a negative error.
 */
int rdma_resolve_ip(struct sockaddr *src_addr, const struct sockaddr *dst_addr,
		    struct rdma_dev_addr *addr, unsigned long timeout_ms,
		    void (*callback)(int status, struct sockaddr *src_addr,
				     struct rdma_dev_addr *addr, void *context),
		    bool resolve_by_gid_attr, void *context)
{
	struct addr_req *req;
	int ret, gen;

	if (dst_addr->sa_family != AF_INET && dst_addr->sa_family != AF_INET6)
		return -EAFNOSUPPORT;
	if (src_addr && src_addr->sa_family != dst_addr->sa_family)
		return -EINVAL;

	req = kzalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return -ENOMEM;

	memcpy(&req->dst, dst_addr, rdma_addr_size(dst_addr));
	if (src_addr)
		memcpy(&req->src, src_addr, rdma_addr_size(src_addr));
	else
		req->src.sa.sa_family = dst_addr->sa_family;
	req->addr = addr;
	req->callback = callback;
	req->context = context;
	req->by_gid_attr = resolve_by_gid_attr;
	INIT_LIST_HEAD(&req->list);
	INIT_DELAYED_WORK(&req->work, addr_req_work);

	gen = atomic_read(&addr_neigh_gen);
	req->status = resolve_once(&req->src, &req->dst, addr, true,
				   resolve_by_gid_attr);
	if (req->status == 0) {
		req->deadline = jiffies;
	} else if (req->status == -ENODATA) {
		req->deadline = jiffies + msecs_to_jiffies(timeout_ms);
	} else {
		ret = req->status;
		goto err_free;
	}

	spin_lock_bh(&req_lock);
	list_add_tail(&req->list, &req_list);
	/* a neighbour update during resolve_once() found no request */
	req_schedule(req, atomic_read(&addr_neigh_gen) != gen ?
		     jiffies : req->deadline);
	spin_unlock_bh(&req_lock);
	return 0;

err_free:
	kfree(req);
	return ret;
}
EXPORT_SYMBOL(rdma_resolve_ip);

/**
 * rdma_addr_cancel - cancel a pending rdma_resolve_ip()
 * @addr: the rdma_dev_addr the request was made with
 *
 * When this returns, the callback of the request has run or never will.
 * Nothing happens if no request for @addr is pending.  Must not be called
 * from the request's own callback.  May sleep.
 *
 * Context: Process context; sleeps while the request's work runs
 * (cancel_delayed_work_sync()). Takes req_lock with bottom halves disabled.
 * Not from the request's callback.
 */
void rdma_addr_cancel(struct rdma_dev_addr *addr)
{
	struct addr_req *req, *found = NULL;

	spin_lock_bh(&req_lock);
	list_for_each_entry(req, &req_list, list) {
		if (req->addr == addr) {
			/* off the list, the request is ours */
			list_del_init(&req->list);
			found = req;
			break;
		}
	}
	spin_unlock_bh(&req_lock);

	if (!found)
		return;
	/* no work runs after this and none will be queued */
	cancel_delayed_work_sync(&found->work);
	kfree(found);
}
EXPORT_SYMBOL(rdma_addr_cancel);

/* A neighbour became valid: every pending request tries again now. */
static int addr_netevent(struct notifier_block *nb, unsigned long event,
			 void *ptr)
{
	struct neighbour *neigh = ptr;
	struct addr_req *req;

	if (event != NETEVENT_NEIGH_UPDATE ||
	    !(READ_ONCE(neigh->nud_state) & NUD_VALID))
		return NOTIFY_DONE;

	/* for an attempt running now, whose request is not listed yet */
	atomic_inc(&addr_neigh_gen);
	spin_lock_bh(&req_lock);
	list_for_each_entry(req, &req_list, list)
		req_schedule(req, jiffies);
	spin_unlock_bh(&req_lock);
	return NOTIFY_DONE;
}

static struct notifier_block addr_netevent_nb = {
	.notifier_call = addr_netevent,
};

/* An IP_RESOLVE answer: the GID of the address asked for. */
static const struct nla_policy addr_ls_policy[LS_NLA_TYPE_MAX] = {
	[LS_NLA_TYPE_DGID] = NLA_POLICY_MIN_LEN(sizeof(struct rdma_nla_ls_gid)),
};

/**
 * ib_nl_handle_ip_res_resp - the local service's answer to an IP_RESOLVE
 * @skb: the message's buffer, from a user-space socket
 * @nlh: the answer: RDMA_NL_LS_F_ERR or an LS_NLA_TYPE_DGID
 * @extack: why it was not used
 *
 * Upstream asks ibacm for the GID behind an IP address reached through
 * an IPoIB gateway.  Ours has no IPoIB net device to resolve through, so
 * it never asks: an answer is checked (it must be an answer, its DGID
 * at least a GID long) and, finding no request of that number, dropped.
 *
 * Context: Process context (netlink input).
 * Return: 0, as upstream, also for answers not used; -EPERM for a
 * request (NLM_F_REQUEST) or a message from the kernel.
 */
int ib_nl_handle_ip_res_resp(struct sk_buff *skb, struct nlmsghdr *nlh,
			     struct netlink_ext_ack *extack)
{
	struct nlattr *tb[LS_NLA_TYPE_MAX] = {};

	if ((nlh->nlmsg_flags & NLM_F_REQUEST) || !NETLINK_CB(skb).sk) {
		NL_SET_ERR_MSG(extack, "IP_RESOLVE from user space is an answer, not a request");
		return -EPERM;
	}
	if (nlh->nlmsg_flags & RDMA_NL_LS_F_ERR)
		return 0;
	if (nla_parse_deprecated(tb, LS_NLA_TYPE_MAX - 1, nlmsg_data(nlh),
				 nlmsg_len(nlh), addr_ls_policy, extack))
		return 0;
	if (!tb[LS_NLA_TYPE_DGID]) {
		NL_SET_ERR_MSG(extack, "IP_RESOLVE answer without LS_NLA_TYPE_DGID");
		return 0;
	}
	NL_SET_ERR_MSG(extack, "No address resolution waits for this sequence number");
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ib_nl_handle_ip_res_resp);

int rdma_addr_init(void)
{
	int ret;

	addr_wq = alloc_ordered_workqueue("ib_addr", 0);
	if (!addr_wq)
		return -ENOMEM;
	ret = register_netevent_notifier(&addr_netevent_nb);
	if (ret)
		goto err_wq;
	return 0;

err_wq:
	destroy_workqueue(addr_wq);
	return ret;
}

void rdma_addr_cleanup(void)
{
	unregister_netevent_notifier(&addr_netevent_nb);
	destroy_workqueue(addr_wq);
	WARN_ON(!list_empty(&req_list));
}
