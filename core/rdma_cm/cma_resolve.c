// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_cm address and route resolution: which RDMA device and port an IP
 * address belongs to, rdma_resolve_addr() on top of rdma_resolve_ip(),
 * and rdma_resolve_route() (computed locally on RoCE and iWARP; an SA
 * query on InfiniBand, in cma_ib.c), AF_IB destinations.
 */

#include <linux/if_arp.h>
#include <linux/if_vlan.h>
#include <linux/inetdevice.h>
#include <linux/slab.h>
#include <net/addrconf.h>
#include <net/route.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_pack.h>
#include <rdma/rdma_cm_ib.h>

#include "cma_priv.h"

/**
 * cma_default_gid_type - a port's default_roce_mode
 * @cma_dev: the device
 * @port: a valid port of it
 *
 * Context: any; the caller holds cma_lock or accepts a value that a
 * configfs write may change right after.
 * Return: the GID type new ids of the port bind.
 */
enum ib_gid_type cma_default_gid_type(struct cma_device *cma_dev, u32 port)
{
	return cma_dev->default_gid_type[port - rdma_start_port(cma_dev->device)];
}
EXPORT_SYMBOL_IF_KUNIT(cma_default_gid_type);

/**
 * cma_default_roce_tos - a port's default_roce_tos
 * @cma_dev: the device
 * @port: a valid port of it
 *
 * Context: as cma_default_gid_type().
 * Return: the ToS of ids of the port that set none.
 */
u8 cma_default_roce_tos(struct cma_device *cma_dev, u32 port)
{
	return cma_dev->default_roce_tos[port - rdma_start_port(cma_dev->device)];
}
EXPORT_SYMBOL_IF_KUNIT(cma_default_roce_tos);

/*
 * Whether @port of @cma_dev owns the source address that
 * rdma_translate_ip()/rdma_resolve_ip() left in @dev_addr: on a RoCE port
 * its GID entry (referenced) of the port's default_roce_mode type on the
 * net device the address is on, on others NULL; ERR_PTR(-ENODEV) when
 * the port does not own it.
 */
static const struct ib_gid_attr *
cma_port_src_attr(struct cma_device *cma_dev, u32 port,
		  struct rdma_id_private *id_priv)
{
	struct rdma_dev_addr *dev_addr = &id_priv->id.route.addr.dev_addr;
	const struct ib_gid_attr *notfound = ERR_PTR(-ENODEV);
	struct ib_device *device = cma_dev->device;
	const struct ib_gid_attr *attr;
	struct net_device *ndev;
	union ib_gid gid;
	bool found;

	if (rdma_protocol_iwarp(device, port)) {
		/* An iWARP port is its net device. */
		ndev = ib_device_get_netdev(device, port);
		if (!ndev)
			return notfound;
		found = ndev->ifindex == dev_addr->bound_dev_if &&
			net_eq(dev_net(ndev), dev_addr->net);
		dev_put(ndev);
		return found ? NULL : notfound;
	}
	if (rdma_protocol_roce(device, port)) {
		if (dev_addr->dev_type == ARPHRD_INFINIBAND)
			return notfound;
		ndev = dev_get_by_index(dev_addr->net, dev_addr->bound_dev_if);
		if (!ndev)
			return notfound;
		rdma_ip2gid(cma_src_addr(id_priv), &gid);
		attr = rdma_find_gid_by_port(device, &gid,
					     cma_default_gid_type(cma_dev, port),
					     port, ndev);
		dev_put(ndev);
		return IS_ERR(attr) ? notfound : attr;
	}
	if (dev_addr->dev_type != ARPHRD_INFINIBAND ||
	    !rdma_protocol_ib(device, port))
		return notfound;
	/* IPoIB (and AF_IB): the port GID after the hardware address's QPN */
	rdma_addr_get_sgid(dev_addr, &gid);
	attr = rdma_find_gid_by_port(device, &gid, IB_GID_TYPE_IB, port, NULL);
	if (IS_ERR(attr))
		return notfound;
	rdma_put_gid_attr(attr);
	return NULL;
}

/**
 * cma_find_src_dev - the device and port owning an id's source address
 * @id_priv: the id; its dev_addr was filled by address translation
 * @cma_dev: where the device goes, referenced (cma_dev_put() it)
 * @port: where the port goes
 * @sgid_attr: where the GID entry of the address goes on a RoCE port,
 *	referenced (give it to cma_attach_checked() or put it), else NULL
 *
 * Return: 0; -EINVAL for an RDMA_PS_IPOIB id whose address is not on
 * IPoIB (as upstream); -ENODEV when no RDMA device of the namespace owns
 * it.
 */
int cma_find_src_dev(struct rdma_id_private *id_priv,
		     struct cma_device **cma_dev, u32 *port,
		     const struct ib_gid_attr **sgid_attr)
{
	const struct ib_gid_attr *attr;
	struct cma_device *cur;
	u32 p;

	*sgid_attr = NULL;
	if (id_priv->id.ps == RDMA_PS_IPOIB &&
	    id_priv->id.route.addr.dev_addr.dev_type != ARPHRD_INFINIBAND)
		return -EINVAL;

	mutex_lock(&cma_lock);
	list_for_each_entry(cur, &cma_dev_list, list) {
		if (cur->removing ||
		    !rdma_dev_access_netns(cur->device, cma_net(id_priv)))
			continue;
		rdma_for_each_port(cur->device, p) {
			attr = cma_port_src_attr(cur, p, id_priv);
			if (!IS_ERR(attr)) {
				cma_dev_get(cur);
				*cma_dev = cur;
				*port = p;
				*sgid_attr = attr;
				mutex_unlock(&cma_lock);
				return 0;
			}
		}
	}
	mutex_unlock(&cma_lock);
	return -ENODEV;
}

/* Find the source's device (and GID entry) and attach the id to it. */
int cma_acquire_dev_by_src_ip(struct rdma_id_private *id_priv)
{
	const struct ib_gid_attr *sgid_attr;
	struct cma_device *cma_dev;
	u32 port;
	int ret;

	ret = cma_find_src_dev(id_priv, &cma_dev, &port, &sgid_attr);
	if (ret)
		return ret;
	ret = cma_attach_checked(id_priv, cma_dev, port, sgid_attr);
	cma_dev_put(cma_dev);
	return ret;
}

/* Called by rdma_resolve_ip() from its work, or never after cancel. */
static void cma_addr_handler(int status, struct sockaddr *src_addr,
			     struct rdma_dev_addr *dev_addr, void *context)
{
	struct rdma_id_private *id_priv = context;
	struct sockaddr_storage old_src;
	struct rdma_cm_event event = {};
	__be16 port;

	mutex_lock(&id_priv->handler_mutex);
	/* we are the callback: a destroy from here must not cancel us */
	WRITE_ONCE(id_priv->addr_pending, false);
	if (!cma_comp_exch(id_priv, RDMA_CM_ADDR_QUERY,
			   RDMA_CM_ADDR_RESOLVED))
		goto out;

	/* the route's source, kept only if the resolution succeeds */
	memcpy(&old_src, cma_src_addr(id_priv), sizeof(old_src));
	if (!status) {
		port = cma_port(cma_src_addr(id_priv));
		memcpy(cma_src_addr(id_priv), src_addr,
		       rdma_addr_size(src_addr));
		if (src_addr->sa_family == AF_INET)
			((struct sockaddr_in *)cma_src_addr(id_priv))->sin_port = port;
		else
			((struct sockaddr_in6 *)cma_src_addr(id_priv))->sin6_port = port;
		if (!id_priv->cma_dev)
			status = cma_acquire_dev_by_src_ip(id_priv);
	}
	if (status) {
		if (!cma_comp_exch(id_priv, RDMA_CM_ADDR_RESOLVED,
				   RDMA_CM_ADDR_BOUND))
			goto out;
		/*
		 * Bound again as before: a wildcard id must not stay tied
		 * to the interface this attempt went out of.
		 */
		memcpy(cma_src_addr(id_priv), &old_src, sizeof(old_src));
		if (!id_priv->cma_dev &&
		    cma_any_addr((struct sockaddr *)&old_src))
			dev_addr->bound_dev_if = 0;
		event.event = RDMA_CM_EVENT_ADDR_ERROR;
		event.status = status;
	} else {
		event.event = RDMA_CM_EVENT_ADDR_RESOLVED;
	}

	if (cma_deliver_event(id_priv, &event)) {
		cma_destroy_id_handler_unlock(id_priv);
		return;
	}
out:
	mutex_unlock(&id_priv->handler_mutex);
}

/*
 * Destination "any" (or loopback): the connection stays on this host.
 * Use the device the id is on, else the first device of the namespace
 * with an active port (else its first port); an AF_IB id only a device
 * with the IB CM.  Caller holds cma_lock.
 */
static int cma_pick_loopback_port(struct rdma_id_private *id_priv)
{
	struct cma_device *cur, *found = NULL;
	enum ib_port_state state;
	u32 p, found_port = 0;

	lockdep_assert_held(&cma_lock);
	list_for_each_entry(cur, &cma_dev_list, list) {
		if (cur->removing ||
		    !rdma_dev_access_netns(cur->device, cma_net(id_priv)))
			continue;
		if (cma_family(id_priv) == AF_IB &&
		    !rdma_cap_ib_cm(cur->device, rdma_start_port(cur->device)))
			continue;
		if (!found) {
			found = cur;
			found_port = rdma_start_port(cur->device);
		}
		rdma_for_each_port(cur->device, p) {
			if (!ib_get_cached_port_state(cur->device, p, &state) &&
			    state == IB_PORT_ACTIVE) {
				found = cur;
				found_port = p;
				goto done;
			}
		}
	}
done:
	if (!found)
		return -ENODEV;
	cma_attach_to_dev(id_priv, found, found_port);
	return 0;
}

/* The loopback address of the id's family becomes its source, as upstream. */
static void cma_set_loopback(struct sockaddr *src)
{
	switch (src->sa_family) {
	case AF_INET:
		((struct sockaddr_in *)src)->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		break;
	case AF_INET6:
		ipv6_addr_set(&((struct sockaddr_in6 *)src)->sin6_addr,
			      0, 0, 0, htonl(1));
		break;
	case AF_IB:
		ib_addr_set(&((struct sockaddr_ib *)src)->sib_addr,
			    0, 0, 0, htonl(1));
		break;
	}
}

/*
 * An id without a device resolving "this host": the port picked, the
 * loopback address as its source; on InfiniBand (no net device of the
 * port's own) the port's GID 0 and P_Key 0 as its link-layer source.
 */
static int cma_bind_loopback(struct rdma_id_private *id_priv)
{
	struct rdma_dev_addr *dev_addr = &id_priv->id.route.addr.dev_addr;
	union ib_gid gid;
	u16 pkey;
	int ret;

	mutex_lock(&cma_lock);
	ret = cma_pick_loopback_port(id_priv);
	mutex_unlock(&cma_lock);
	if (ret)
		return ret;
	cma_set_loopback(cma_src_addr(id_priv));
	if (!rdma_protocol_ib(id_priv->id.device, id_priv->id.port_num))
		return 0;
	ret = rdma_query_gid(id_priv->id.device, id_priv->id.port_num, 0, &gid);
	if (ret)
		return ret;
	ret = ib_get_cached_pkey(id_priv->id.device, id_priv->id.port_num, 0,
				 &pkey);
	if (ret)
		return ret;
	dev_addr->dev_type = ARPHRD_INFINIBAND;
	rdma_addr_set_sgid(dev_addr, &gid);
	ib_addr_set_pkey(dev_addr, pkey);
	return 0;
}

static int cma_resolve_loopback(struct rdma_id_private *id_priv)
{
	struct rdma_dev_addr *dev_addr = &id_priv->id.route.addr.dev_addr;
	struct rdma_cm_event event = { .event = RDMA_CM_EVENT_ADDR_RESOLVED };
	struct net_device *ndev;
	union ib_gid gid;
	int ret;

	if (!id_priv->cma_dev) {
		ret = cma_bind_loopback(id_priv);
		if (ret)
			return ret;
	}
	if (rdma_protocol_ib(id_priv->id.device, id_priv->id.port_num)) {
		/* the destination is the source: its GID */
		rdma_addr_get_sgid(dev_addr, &gid);
		rdma_addr_set_dgid(dev_addr, &gid);
	} else {
		ndev = ib_device_get_netdev(id_priv->id.device,
					    id_priv->id.port_num);
		if (ndev) {
			rdma_copy_src_l2_addr(dev_addr, ndev);
			dev_put(ndev);
		}
		memcpy(dev_addr->dst_dev_addr, dev_addr->src_dev_addr,
		       MAX_ADDR_LEN);
	}
	return cma_queue_event(id_priv, RDMA_CM_ADDR_QUERY,
			       RDMA_CM_ADDR_RESOLVED, &event);
}

/**
 * cma_resolve_ib_dev - the local port that reaches an AF_IB destination
 * @id_priv: an id without a device; its destination is AF_IB
 *
 * The port whose GID is the destination's (the same host), else the
 * first active port on the destination's subnet, among the ports with
 * AF_IB and the destination's P_Key, as upstream.  The id is attached
 * to it and takes that GID as its source address.
 *
 * Return: 0, or -ENODEV when no port fits.
 */
int cma_resolve_ib_dev(struct rdma_id_private *id_priv)
{
	struct sockaddr_ib *dst = (struct sockaddr_ib *)cma_dst_addr(id_priv);
	const union ib_gid *dgid = (const union ib_gid *)&dst->sib_addr;
	struct cma_device *cur, *found = NULL;
	u32 p, found_port = 0;
	enum ib_port_state state;
	struct sockaddr_ib *src;
	union ib_gid gid, sgid;
	u16 index;
	int i;

	mutex_lock(&cma_lock);
	list_for_each_entry(cur, &cma_dev_list, list) {
		if (cur->removing ||
		    !rdma_dev_access_netns(cur->device, cma_net(id_priv)))
			continue;
		rdma_for_each_port(cur->device, p) {
			if (!rdma_cap_af_ib(cur->device, p) ||
			    ib_find_cached_pkey(cur->device, p,
						ntohs(dst->sib_pkey), &index) ||
			    ib_get_cached_port_state(cur->device, p, &state))
				continue;
			for (i = 0; i < cur->device->port_data[p].immutable.gid_tbl_len; i++) {
				if (rdma_query_gid(cur->device, p, i, &gid))
					continue;
				if (!memcmp(&gid, dgid, sizeof(gid)) ||
				    (gid.global.subnet_prefix ==
				     dgid->global.subnet_prefix &&
				     state == IB_PORT_ACTIVE)) {
					found = cur;
					found_port = p;
					sgid = gid;
					goto done;
				}
			}
		}
	}
done:
	if (found)
		cma_attach_to_dev(id_priv, found, found_port);
	mutex_unlock(&cma_lock);
	if (!found)
		return -ENODEV;

	src = (struct sockaddr_ib *)cma_src_addr(id_priv);
	memcpy(&src->sib_addr, &sgid, sizeof(sgid));
	cma_translate_ib(src, &id_priv->id.route.addr.dev_addr);
	return 0;
}

/* An AF_IB destination: the GID is the address, nothing to ask. */
static int cma_resolve_ib_addr(struct rdma_id_private *id_priv)
{
	struct rdma_cm_event event = { .event = RDMA_CM_EVENT_ADDR_RESOLVED };
	struct sockaddr_ib *dst = (struct sockaddr_ib *)cma_dst_addr(id_priv);
	int ret;

	if (!id_priv->cma_dev) {
		ret = cma_resolve_ib_dev(id_priv);
		if (ret)
			return ret;
	}
	rdma_addr_set_dgid(&id_priv->id.route.addr.dev_addr,
			   (union ib_gid *)&dst->sib_addr);
	return cma_queue_event(id_priv, RDMA_CM_ADDR_QUERY,
			       RDMA_CM_ADDR_RESOLVED, &event);
}

/* Bind an idle id for a resolution towards @dst_addr. */
static int cma_bind_for_dst(struct rdma_id_private *id_priv,
			    struct sockaddr *src_addr,
			    const struct sockaddr *dst_addr)
{
	struct sockaddr_storage any = {};

	if (src_addr && src_addr->sa_family)
		return rdma_bind_addr(&id_priv->id, src_addr);
	any.ss_family = dst_addr->sa_family;
	/* an AF_IB source takes the destination's partition */
	if (dst_addr->sa_family == AF_IB)
		((struct sockaddr_ib *)&any)->sib_pkey =
			((const struct sockaddr_ib *)dst_addr)->sib_pkey;
	if (dst_addr->sa_family == AF_INET6) {
		const struct sockaddr_in6 *d6 = (const void *)dst_addr;

		/* a link-local destination is reached through its interface */
		if (ipv6_addr_type(&d6->sin6_addr) & IPV6_ADDR_LINKLOCAL)
			((struct sockaddr_in6 *)&any)->sin6_scope_id =
				d6->sin6_scope_id;
	}
	return rdma_bind_addr(&id_priv->id, (struct sockaddr *)&any);
}

/**
 * rdma_resolve_addr - find the local device and next hop for a destination
 * @id: an idle or bound id
 * @src_addr: source address for an idle id, or NULL (any); ignored when
 *	the id is bound already
 * @dst_addr: IPv4, IPv6 or AF_IB destination, of the family the id is
 *	bound in; the wildcard and loopback mean this host
 * @timeout_ms: how long the neighbour lookup may take
 *
 * Binds an idle id first (see rdma_bind_addr(); an AF_IB source takes
 * the destination's P_Key).  On InfiniBand an IP destination is reached
 * through IPoIB: the hardware addresses of the IPoIB net device and of
 * the neighbour give the source and destination GIDs and the P_Key.  An
 * AF_IB destination is its GID: the id goes to the port that has it, or
 * to an active port on its subnet with its P_Key.  The outcome comes as
 * RDMA_CM_EVENT_ADDR_RESOLVED (the id is then attached to the device of
 * the route's source address) or RDMA_CM_EVENT_ADDR_ERROR (status: a
 * negative errno; the id is bound again and may retry).
 *
 * Context: process context; sleeps.
 * Return: 0 when the resolution started; -EAFNOSUPPORT for another
 * family; -EINVAL when the id is neither idle nor bound, or the families
 * differ; -ENODEV when no port reaches an AF_IB destination (or none
 * serves this host); the errors of rdma_bind_addr() and
 * rdma_resolve_ip().
 */
int rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src_addr,
		      const struct sockaddr *dst_addr, unsigned long timeout_ms)
{
	struct rdma_id_private *id_priv = to_id_priv(id);
	int ret;

	if (dst_addr->sa_family != AF_INET && dst_addr->sa_family != AF_INET6 &&
	    dst_addr->sa_family != AF_IB)
		return -EAFNOSUPPORT;
	if (!cma_comp_exch(id_priv, RDMA_CM_ADDR_BOUND, RDMA_CM_ADDR_QUERY)) {
		ret = cma_bind_for_dst(id_priv, src_addr, dst_addr);
		if (ret)
			return ret;
		if (!cma_comp_exch(id_priv, RDMA_CM_ADDR_BOUND,
				   RDMA_CM_ADDR_QUERY))
			return -EINVAL;
	}
	if (cma_src_addr(id_priv)->sa_family != dst_addr->sa_family) {
		ret = -EINVAL;
		goto err_state;
	}
	memcpy(cma_dst_addr(id_priv), dst_addr, rdma_addr_size(dst_addr));

	if (cma_any_addr(dst_addr)) {
		ret = cma_resolve_loopback(id_priv);
	} else if (dst_addr->sa_family == AF_IB) {
		ret = cma_resolve_ib_addr(id_priv);
	} else {
		WRITE_ONCE(id_priv->addr_pending, true);
		ret = rdma_resolve_ip(cma_src_addr(id_priv), dst_addr,
				      &id->route.addr.dev_addr, timeout_ms,
				      cma_addr_handler, false, id_priv);
		if (ret)
			WRITE_ONCE(id_priv->addr_pending, false);
	}
	if (ret)
		goto err_dst;
	return 0;

err_dst:
	memset(cma_dst_addr(id_priv), 0, sizeof(id->route.addr.dst_addr));
	cma_dst_addr(id_priv)->sa_family = cma_src_addr(id_priv)->sa_family;
err_state:
	cma_comp_exch(id_priv, RDMA_CM_ADDR_QUERY, RDMA_CM_ADDR_BOUND);
	return ret;
}
EXPORT_SYMBOL(rdma_resolve_addr);

/*
 * The largest IB MTU whose RoCE packet fits a frame of @mtu bytes: the
 * IP/GRH, UDP, BTH, the largest extended headers and the ICRC around it,
 * as upstream's iboe_get_mtu().
 */
enum ib_mtu cma_roce_mtu(int mtu)
{
	mtu -= IB_GRH_BYTES + IB_UDP_BYTES + IB_BTH_BYTES + IB_EXT_XRC_BYTES +
	       IB_EXT_ATOMICETH_BYTES + IB_ICRC_BYTES;
	if (mtu >= 4096)
		return IB_MTU_4096;
	if (mtu >= 2048)
		return IB_MTU_2048;
	if (mtu >= 1024)
		return IB_MTU_1024;
	if (mtu >= 512)
		return IB_MTU_512;
	if (mtu >= 256)
		return IB_MTU_256;
	return 0;
}

/*
 * The service level of a ToS on @ndev, as upstream's: the ToS's priority
 * (rt_tos2priority()) mapped by the VLAN's egress map, else by the net
 * device's traffic classes; 0 without either.
 */
u8 cma_roce_tos_to_sl(struct net_device *ndev, u8 tos)
{
	u32 prio = rt_tos2priority(tos);

	if (is_vlan_dev(ndev))
		return (vlan_dev_get_egress_qos_mask(ndev, prio) &
			VLAN_PRIO_MASK) >> VLAN_PRIO_SHIFT;
	if (netdev_get_num_tc(ndev))
		return netdev_get_prio_tc_map(ndev, prio);
	return 0;
}

/*
 * RoCE v2's flow label (the UDP source port's entropy): an IPv6 source's
 * own, else a hash of the two ports, as upstream.
 */
static __be32 cma_roce_flow_label(struct rdma_id_private *id_priv)
{
	struct sockaddr_in6 *src6 = (struct sockaddr_in6 *)cma_src_addr(id_priv);
	u32 fl = 0;

	if (cma_family(id_priv) == AF_INET6)
		fl = be32_to_cpu(src6->sin6_flowinfo) & IB_GRH_FLOWLABEL_MASK;
	if (!fl)
		fl = ((u32)be16_to_cpu(cma_port(cma_src_addr(id_priv))) * 31 +
		      be16_to_cpu(cma_port(cma_dst_addr(id_priv)))) &
		     IB_GRH_FLOWLABEL_MASK;
	return cpu_to_be32(fl);
}

/*
 * The Ethernet side of the route's path: the record type of the id's GID
 * type, the MAC of the next hop (rdma_resolve_ip() found it in the
 * neighbour table), and with @local the rest that needs the net device:
 * the MTU (the smaller of the net device's and the port's), the service
 * level of @tos.
 */
static int cma_roce_fill_l2(struct rdma_id_private *id_priv, bool local,
			    u8 tos)
{
	struct rdma_route *route = &id_priv->id.route;
	struct rdma_dev_addr *dev_addr = &route->addr.dev_addr;
	struct sa_path_rec *rec = route->path_rec;
	struct ib_port_attr port_attr;
	struct net_device *ndev;
	int ret;

	if (!dev_addr->bound_dev_if)
		return -ENODEV;
	ndev = dev_get_by_index(dev_addr->net, dev_addr->bound_dev_if);
	if (!ndev)
		return -ENODEV;
	rec->rec_type = sa_conv_gid_to_pathrec_type(id_priv->gid_type);
	rec->roce.route_resolved = true;
	sa_path_set_dmac(rec, dev_addr->dst_dev_addr);
	ret = 0;
	if (local) {
		rec->mtu = cma_roce_mtu(READ_ONCE(ndev->mtu));
		rec->sl = cma_roce_tos_to_sl(ndev, tos);
		ret = ib_query_port(id_priv->id.device, id_priv->id.port_num,
				    &port_attr);
		if (!ret && port_attr.active_mtu &&
		    port_attr.active_mtu < rec->mtu)
			rec->mtu = port_attr.active_mtu;
		if (!ret && !rec->mtu)
			ret = -EINVAL;
	}
	dev_put(ndev);
	return ret;
}

/**
 * cma_roce_resolve_route - compute a RoCE path from the resolved address
 * @id_priv: the id, in ROUTE_QUERY
 *
 * No SA on Ethernet: the path is made here.  The GIDs are the IP
 * addresses; the destination MAC is the next hop's from the neighbour
 * table, the hop limit the route's (1 for an AF_IB destination); the
 * traffic class is the id's ToS (rdma_set_service_type()) or the port's
 * default_roce_tos, its service level the priority the net device maps
 * it to; the MTU the smaller of the net device's and the port's; the
 * rate the port's current one; P_Key 0xffff; a RoCE v2 path gets a flow
 * label.  The event follows from cma_wq.
 *
 * Return: 0, -ENOMEM, -ENODEV (net device gone), -EINVAL (MTU too small),
 * the errno of the port query.
 */
int cma_roce_resolve_route(struct rdma_id_private *id_priv)
{
	struct rdma_route *route = &id_priv->id.route;
	struct rdma_cm_event event = { .event = RDMA_CM_EVENT_ROUTE_RESOLVED };
	struct sa_path_rec *rec;
	bool tos_set;
	u8 tos;
	int ret;

	rec = kzalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return -ENOMEM;
	kfree(route->path_rec);
	route->path_rec = rec;
	route->num_pri_alt_paths = 1;

	mutex_lock(&id_priv->qp_mutex);
	tos_set = id_priv->tos_set;
	tos = id_priv->tos;
	/* local ACK timeout = 2 * packet life time + ACK delay (~0) */
	if (id_priv->timeout_set && id_priv->timeout)
		rec->packet_life_time = id_priv->timeout - 1;
	else
		rec->packet_life_time = CMA_IBOE_PACKET_LIFETIME;
	mutex_unlock(&id_priv->qp_mutex);
	if (!tos_set) {
		mutex_lock(&cma_lock);
		tos = cma_default_roce_tos(id_priv->cma_dev,
					   id_priv->id.port_num);
		mutex_unlock(&cma_lock);
	}

	ret = cma_roce_fill_l2(id_priv, true, tos);
	if (ret)
		goto err_free;

	rdma_ip2gid(cma_src_addr(id_priv), &rec->sgid);
	rdma_ip2gid(cma_dst_addr(id_priv), &rec->dgid);
	if (cma_dst_addr(id_priv)->sa_family == AF_IB)
		rec->hop_limit = 1;
	else
		rec->hop_limit = route->addr.dev_addr.hoplimit;
	rec->reversible = 1;
	rec->pkey = cpu_to_be16(0xffff);
	rec->mtu_selector = IB_SA_EQ;
	rec->traffic_class = tos;
	rec->rate_selector = IB_SA_EQ;
	rec->rate = IB_RATE_PORT_CURRENT;
	rec->packet_life_time_selector = IB_SA_EQ;
	if (id_priv->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP)
		rec->flow_label = cma_roce_flow_label(id_priv);

	ret = cma_queue_event(id_priv, RDMA_CM_ROUTE_QUERY,
			      RDMA_CM_ROUTE_RESOLVED, &event);
	if (ret)
		goto err_free;
	return 0;

err_free:
	route->path_rec = NULL;
	route->num_pri_alt_paths = 0;
	kfree(rec);
	return ret;
}

/**
 * rdma_resolve_route - find the path to the resolved destination
 * @id: an id in state ADDR_RESOLVED
 * @timeout_ms: how long the SA query may take (InfiniBand); not zero
 *
 * On InfiniBand the path comes from the SA (a PathRecord query from the
 * id's source and destination GIDs, P_Key, service ID and QoS class or
 * traffic class), or from the netlink local service (ibacm) when one
 * listens, through the SA client.  RoCE and iWARP routes are known
 * locally.  The outcome always comes as an event:
 * RDMA_CM_EVENT_ROUTE_RESOLVED (the path in id->route.path_rec) or
 * RDMA_CM_EVENT_ROUTE_ERROR (status: the query's errno, -ETIMEDOUT when
 * the SA did not answer in time; the id is ADDR_RESOLVED again).
 *
 * Context: process context; sleeps.
 * Return: 0 when started; -EINVAL for a zero timeout or the wrong state;
 * -ENOMEM; the errors of the SA query's start; -ENOSYS on a port
 * without a connection manager.
 */
int rdma_resolve_route(struct rdma_cm_id *id, unsigned long timeout_ms)
{
	struct rdma_id_private *id_priv = to_id_priv(id);
	int ret;

	if (!timeout_ms)
		return -EINVAL;
	if (!cma_comp_exch(id_priv, RDMA_CM_ADDR_RESOLVED, RDMA_CM_ROUTE_QUERY))
		return -EINVAL;

	ret = id_priv->tp->resolve_route(id_priv, timeout_ms);
	if (ret)
		cma_comp_exch(id_priv, RDMA_CM_ROUTE_QUERY,
			      RDMA_CM_ADDR_RESOLVED);
	return ret;
}
EXPORT_SYMBOL(rdma_resolve_route);

/**
 * rdma_set_ib_path - give an id a path record found elsewhere
 * @id: an id in state ADDR_RESOLVED
 * @path_rec: the path (copied)
 *
 * Stands in for rdma_resolve_route(): the id moves to ROUTE_RESOLVED
 * without an event, and rdma_connect() uses @path_rec as it is (on
 * InfiniBand: its SLID, DLID, SL, MTU, P_Key, packet life time).  On
 * RoCE the Ethernet fields are filled in.
 *
 * Context: process context; sleeps.
 * Return: 0; -EINVAL in the wrong state; -ENOMEM; -ENODEV when the RoCE
 * net device is gone.
 */
int rdma_set_ib_path(struct rdma_cm_id *id, struct sa_path_rec *path_rec)
{
	struct rdma_id_private *id_priv = to_id_priv(id);
	struct sa_path_rec *rec;
	int ret;

	if (!cma_comp_exch(id_priv, RDMA_CM_ADDR_RESOLVED,
			   RDMA_CM_ROUTE_RESOLVED))
		return -EINVAL;
	rec = kmemdup(path_rec, sizeof(*path_rec), GFP_KERNEL);
	if (!rec) {
		ret = -ENOMEM;
		goto err_state;
	}
	kfree(id->route.path_rec);
	id->route.path_rec = rec;
	if (rdma_protocol_roce(id->device, id->port_num)) {
		ret = cma_roce_fill_l2(id_priv, false, 0);
		if (ret)
			goto err_free;
	}
	id->route.num_pri_alt_paths = 1;
	return 0;

err_free:
	id->route.path_rec = NULL;
	kfree(rec);
err_state:
	cma_comp_exch(id_priv, RDMA_CM_ROUTE_RESOLVED, RDMA_CM_ADDR_RESOLVED);
	return ret;
}
EXPORT_SYMBOL(rdma_set_ib_path);
