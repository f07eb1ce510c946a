// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_cm over InfiniBand and RoCE (struct cma_transport cma_ib_transport):
 * connections and SIDR through the IB CM (ib_cm), routes and multicast
 * through the SA client (core/ib_core/sa/).
 *
 * The wire, as upstream's rdma_cm speaks it (librdmacm and every kernel
 * ULP on the other side expect exactly this):
 *  - A listener on an IP port space listens on the service ID
 *    rdma_get_service_id() gives (IBTA Annex A11: port space << 16 |
 *    port); an AF_IB listener on its own sib_sid.  Listeners of one
 *    service ID on one device share one IB CM ID (ib_cm_insert_listen());
 *    a request finds its rdma_cm listener through the port spaces of the
 *    namespace of the IPoIB net device the request was sent to.
 *  - The private data of a REQ or SIDR REQ of an IP id starts with a
 *    struct cma_hdr (version 0, IP version, the requester's port and
 *    both IP addresses); the owner's data follows it.  AF_IB ids send
 *    the owner's data only.
 *  - REP and RTU, DREQ and DREP, REJ (consumer reason 28) carry the
 *    owner's data as they are; an MRA asks for more time on a REQ or
 *    REP only when the peer resends it (IB_CM_MRA_FLAG_DELAY).
 *
 * Events of the IB CM arrive on its work queue (process context), one at
 * a time per IB CM ID; each is turned into the rdma_cm event under the
 * id's handler_mutex, in the states upstream takes it.  A handler that
 * returns non-zero hands the id to rdma_cm (destroyed after the return)
 * and the IB CM ID to the IB CM (it destroys it on our non-zero return).
 *
 * Lifetimes: an id's IB CM ID is destroyed by the id's destroyer
 * (ib_destroy_cm_id() returns when no handler runs for it any more).  A
 * request on a shared listener finds its rdma_cm listener under cma_lock
 * and holds a reference on it while it makes the new id; the SA route
 * query holds one until its callback ran; a multicast join is freed by
 * ib_sa_free_multicast(), which waits for its callback.
 */

#include <linux/if_arp.h>
#include <linux/igmp.h>
#include <linux/inetdevice.h>
#include <linux/overflow.h>
#include <net/if_inet6.h>
#include <net/ip.h>
#include <net/ip6_route.h>
#include <net/ip_fib.h>
#include <net/ipv6.h>
#include <rdma/ib_cache.h>
#include <rdma/rdma_cm_ib.h>

#include "cma_priv.h"
#include "cma_trace.h"

/* How long the peer's CM may take to answer: 4.096 us * 2^20, ~4 s */
#define CMA_CM_RESPONSE_TIMEOUT	20
/* REQ and SIDR REQ resends without an answer */
#define CMA_MAX_CM_RETRIES	15
/* An MRA for a resent REQ or REP: 4.096 us * 2^24, ~67 s more */
#define CMA_CM_MRA_SETTING	(IB_CM_MRA_FLAG_DELAY | 24)
#define CMA_VERSION		0x00

/* The SA client of rdma_cm's route queries and multicast joins. */
struct ib_sa_client cma_sa_client;

/* An IPv4 address sits in the last word, as in an IPv4-mapped IPv6 one. */
union cma_ip_addr {
	struct in6_addr ip6;
	struct {
		__be32 pad[3];
		__be32 addr;
	} ip4;
};

/*
 * The header rdma_cm puts before the owner's data in a REQ or SIDR REQ
 * of an IP id (wire format, upstream's): @ip_version holds the version
 * in its high nibble; @port is the requester's; @src_addr the
 * requester's address, @dst_addr the listener's.
 */
struct cma_hdr {
	u8			cma_version;
	u8			ip_version;
	__be16			port;
	union cma_ip_addr	src_addr;
	union cma_ip_addr	dst_addr;
};

static_assert(sizeof(struct cma_hdr) == 36);

/**
 * struct cma_req_info - what a REQ or SIDR REQ tells about its target
 * @listen_addr: the listener's IP address and port (from the header)
 * @src_addr: the requester's
 * @device: the device it came in on
 * @local_gid: the GID it was sent to (REQ only: @has_gid)
 * @service_id: the service ID asked for
 * @port: the port it came in on
 * @has_gid: @local_gid is known
 * @pkey: its P_Key
 */
struct cma_req_info {
	struct sockaddr_storage	listen_addr;
	struct sockaddr_storage	src_addr;
	struct ib_device	*device;
	union ib_gid		local_gid;
	__be64			service_id;
	u32			port;
	bool			has_gid;
	u16			pkey;
};

/* The owner's data starts after the header (IP ids) or at once (AF_IB). */
static u8 cma_ib_hdr_len(struct rdma_id_private *id_priv)
{
	return cma_family(id_priv) == AF_IB ? 0 : sizeof(struct cma_hdr);
}

static bool cma_ib_roce(struct rdma_id_private *id_priv)
{
	struct rdma_cm_id *id = &id_priv->id;

	return rdma_protocol_roce(id->device,
				  id->port_num ?: rdma_start_port(id->device));
}

/* ------------------------------------------------------------------
 * Q_Keys of UD ids
 */

/*
 * The Q_Key an id's port space implies: RDMA_UDP_QKEY for UDP and IB,
 * the IPoIB broadcast group's for IPoIB (which the port must have
 * joined, as upstream).
 */
static int cma_ib_default_qkey(struct rdma_id_private *id_priv)
{
	struct rdma_dev_addr *dev_addr = &id_priv->id.route.addr.dev_addr;
	struct ib_sa_mcmember_rec rec;
	union ib_gid mgid;
	int ret;

	switch (id_priv->id.ps) {
	case RDMA_PS_UDP:
	case RDMA_PS_IB:
		id_priv->qkey = RDMA_UDP_QKEY;
		return 0;
	case RDMA_PS_IPOIB:
		ib_addr_get_mgid(dev_addr, &mgid);
		ret = ib_sa_get_mcmember_rec(id_priv->id.device,
					     id_priv->id.port_num, &mgid, &rec);
		if (!ret)
			id_priv->qkey = be32_to_cpu(rec.qkey);
		return ret;
	default:
		return 0;
	}
}

/* A Q_Key the peer or the SA gave: the id takes it unless it has another. */
static int cma_ib_set_qkey(struct rdma_id_private *id_priv, u32 qkey)
{
	if (!qkey || (id_priv->qkey && id_priv->qkey != qkey))
		return -EINVAL;
	id_priv->qkey = qkey;
	return 0;
}

/* ------------------------------------------------------------------
 * Addresses of a request
 */

static void cma_ib_format_hdr(struct cma_hdr *hdr,
			      struct rdma_id_private *id_priv)
{
	const struct sockaddr_in *src4, *dst4;
	const struct sockaddr_in6 *src6, *dst6;

	hdr->cma_version = CMA_VERSION;
	switch (cma_family(id_priv)) {
	case AF_INET:
		src4 = (const struct sockaddr_in *)cma_src_addr(id_priv);
		dst4 = (const struct sockaddr_in *)cma_dst_addr(id_priv);
		hdr->ip_version = 4 << 4;
		hdr->src_addr.ip4.addr = src4->sin_addr.s_addr;
		hdr->dst_addr.ip4.addr = dst4->sin_addr.s_addr;
		hdr->port = src4->sin_port;
		break;
	case AF_INET6:
		src6 = (const struct sockaddr_in6 *)cma_src_addr(id_priv);
		dst6 = (const struct sockaddr_in6 *)cma_dst_addr(id_priv);
		hdr->ip_version = 6 << 4;
		hdr->src_addr.ip6 = src6->sin6_addr;
		hdr->dst_addr.ip6 = dst6->sin6_addr;
		hdr->port = src6->sin6_port;
		break;
	}
}

/*
 * The listener's (@local) and the requester's (@remote) IP addresses of
 * a request with a cma_hdr; the listener's port is the service ID's.
 * -EINVAL for another header version, -EAFNOSUPPORT for another IP
 * version (an AF_IB request has no header).
 */
static int cma_ib_addrs_of_hdr(const struct cma_hdr *hdr, __be64 service_id,
			       struct sockaddr *local, struct sockaddr *remote)
{
	__be16 port = htons((u16)be64_to_cpu(service_id));
	struct sockaddr_in6 *l6 = (struct sockaddr_in6 *)local;
	struct sockaddr_in6 *r6 = (struct sockaddr_in6 *)remote;
	struct sockaddr_in *l4 = (struct sockaddr_in *)local;
	struct sockaddr_in *r4 = (struct sockaddr_in *)remote;

	if (hdr->cma_version != CMA_VERSION)
		return -EINVAL;
	switch (hdr->ip_version >> 4) {
	case 4:
		memset(l4, 0, sizeof(*l4));
		l4->sin_family = AF_INET;
		l4->sin_addr.s_addr = hdr->dst_addr.ip4.addr;
		l4->sin_port = port;
		memset(r4, 0, sizeof(*r4));
		r4->sin_family = AF_INET;
		r4->sin_addr.s_addr = hdr->src_addr.ip4.addr;
		r4->sin_port = hdr->port;
		return 0;
	case 6:
		memset(l6, 0, sizeof(*l6));
		l6->sin6_family = AF_INET6;
		l6->sin6_addr = hdr->dst_addr.ip6;
		l6->sin6_port = port;
		memset(r6, 0, sizeof(*r6));
		r6->sin6_family = AF_INET6;
		r6->sin6_addr = hdr->src_addr.ip6;
		r6->sin6_port = hdr->port;
		return 0;
	default:
		return -EAFNOSUPPORT;
	}
}

/*
 * The AF_IB addresses of a new id of @listen_id: from the REQ's primary
 * path, or (SIDR, @path NULL) the listener's own for the local side.
 */
static void cma_ib_addrs_of_path(struct sockaddr_ib *local,
				 struct sockaddr_ib *remote,
				 const struct rdma_id_private *listen_id,
				 const struct sa_path_rec *path)
{
	const struct sockaddr_ib *lib =
		(const struct sockaddr_ib *)&listen_id->id.route.addr.src_addr;

	local->sib_family = AF_IB;
	if (path) {
		local->sib_pkey = path->pkey;
		local->sib_flowinfo = path->flow_label;
		memcpy(&local->sib_addr, &path->sgid, sizeof(path->sgid));
		local->sib_sid = path->service_id;
		local->sib_scope_id = 0;
	} else {
		local->sib_pkey = lib->sib_pkey;
		local->sib_flowinfo = lib->sib_flowinfo;
		local->sib_addr = lib->sib_addr;
		local->sib_sid = lib->sib_sid;
		local->sib_scope_id = lib->sib_scope_id;
	}
	local->sib_sid_mask = cpu_to_be64(~0ULL);

	remote->sib_family = AF_IB;
	if (path) {
		remote->sib_pkey = path->pkey;
		remote->sib_flowinfo = path->flow_label;
		memcpy(&remote->sib_addr, &path->dgid, sizeof(path->dgid));
	}
}

static int cma_ib_req_info(const struct ib_cm_event *ib_event,
			   struct cma_req_info *req)
{
	const struct ib_cm_req_event_param *rp = &ib_event->param.req_rcvd;
	const struct ib_cm_sidr_req_event_param *sp =
		&ib_event->param.sidr_req_rcvd;

	switch (ib_event->event) {
	case IB_CM_REQ_RECEIVED:
		req->device = rp->listen_id->device;
		req->port = rp->port;
		req->local_gid = rp->primary_path->sgid;
		req->has_gid = true;
		req->service_id = rp->primary_path->service_id;
		req->pkey = be16_to_cpu(rp->primary_path->pkey);
		if (req->pkey != rp->bth_pkey)
			pr_warn_ratelimited("rdma_cm: REQ with BTH P_Key 0x%x and path P_Key 0x%x\n",
					    rp->bth_pkey, req->pkey);
		return 0;
	case IB_CM_SIDR_REQ_RECEIVED:
		req->device = sp->listen_id->device;
		req->port = sp->port;
		req->has_gid = false;
		req->service_id = sp->service_id;
		req->pkey = sp->pkey;
		if (req->pkey != sp->bth_pkey)
			pr_warn_ratelimited("rdma_cm: SIDR REQ with BTH P_Key 0x%x and P_Key 0x%x\n",
					    sp->bth_pkey, req->pkey);
		return 0;
	default:
		return -EINVAL;
	}
}

/* Does the route from @local back to @remote leave through @ndev?  RCU. */
static bool cma_ib_route_via(struct net_device *ndev,
			     const struct sockaddr *remote,
			     const struct sockaddr *local)
{
	const struct sockaddr_in *r4 = (const struct sockaddr_in *)remote;
	const struct sockaddr_in *l4 = (const struct sockaddr_in *)local;
	const struct sockaddr_in6 *r6 = (const struct sockaddr_in6 *)remote;
	const struct sockaddr_in6 *l6 = (const struct sockaddr_in6 *)local;
	struct fib_result res;
	struct flowi4 fl4 = {};
	struct rt6_info *rt;
	bool ok;

	if (remote->sa_family != local->sa_family)
		return false;
	switch (remote->sa_family) {
	case AF_INET:
		if (ipv4_is_multicast(l4->sin_addr.s_addr) ||
		    ipv4_is_lbcast(l4->sin_addr.s_addr) ||
		    ipv4_is_lbcast(r4->sin_addr.s_addr) ||
		    ipv4_is_zeronet(l4->sin_addr.s_addr) ||
		    ipv4_is_zeronet(r4->sin_addr.s_addr) ||
		    ipv4_is_loopback(l4->sin_addr.s_addr) ||
		    ipv4_is_loopback(r4->sin_addr.s_addr))
			return false;
		fl4.flowi4_oif = ndev->ifindex;
		fl4.daddr = r4->sin_addr.s_addr;
		fl4.saddr = l4->sin_addr.s_addr;
		return !fib_lookup(dev_net(ndev), &fl4, &res, 0) &&
		       FIB_RES_DEV(res) == ndev;
	case AF_INET6:
		if (!IS_ENABLED(CONFIG_IPV6))
			return false;
		rt = rt6_lookup(dev_net(ndev), &r6->sin6_addr, &l6->sin6_addr,
				ndev->ifindex, NULL,
				ipv6_addr_type(&r6->sin6_addr) &
				IPV6_ADDR_LINKLOCAL);
		if (!rt)
			return false;
		ok = rt->rt6i_idev->dev == ndev;
		ip6_rt_put(rt);
		return ok;
	default:
		return false;
	}
}

/*
 * The net device a request was sent to: the IPoIB interface of its port,
 * P_Key and GID (the listener's address decides among several), or the
 * RoCE GID's.  ERR_PTR(-EAFNOSUPPORT) for a request without a cma_hdr
 * (AF_IB), ERR_PTR(-ENODEV) when there is none.
 */
static struct net_device *cma_ib_req_net_dev(const struct ib_cm_event *ib_event,
					     struct cma_req_info *req)
{
	struct sockaddr *listen_addr = (struct sockaddr *)&req->listen_addr;
	const struct ib_gid_attr *sgid_attr = NULL;
	struct net_device *ndev = NULL;
	int ret;

	ret = cma_ib_addrs_of_hdr(ib_event->private_data, req->service_id,
				  listen_addr,
				  (struct sockaddr *)&req->src_addr);
	if (ret)
		return ERR_PTR(ret);

	if (rdma_protocol_roce(req->device, req->port)) {
		if (ib_event->event == IB_CM_REQ_RECEIVED)
			sgid_attr = ib_event->param.req_rcvd.ppath_sgid_attr;
		else
			sgid_attr = ib_event->param.sidr_req_rcvd.sgid_attr;
		if (sgid_attr) {
			rcu_read_lock();
			ndev = rdma_read_gid_attr_ndev_rcu(sgid_attr);
			if (IS_ERR(ndev))
				ndev = NULL;
			else
				dev_hold(ndev);
			rcu_read_unlock();
		}
	} else {
		ndev = ib_get_net_dev_by_params(req->device, req->port,
						req->pkey,
						req->has_gid ? &req->local_gid :
							       NULL,
						listen_addr);
	}
	return ndev ?: ERR_PTR(-ENODEV);
}

/* May @id_priv (a listener) take a request with this header? */
static bool cma_ib_hdr_matches(struct rdma_id_private *id_priv,
			       const struct cma_hdr *hdr)
{
	struct sockaddr *addr = cma_src_addr(id_priv);
	bool any = cma_any_addr(addr);

	if (any && !id_priv->afonly)
		return true;
	switch (addr->sa_family) {
	case AF_INET:
		return (hdr->ip_version >> 4) == 4 &&
		       (any || hdr->dst_addr.ip4.addr ==
			((struct sockaddr_in *)addr)->sin_addr.s_addr);
	case AF_INET6:
		return (hdr->ip_version >> 4) == 6 &&
		       (any || !memcmp(&hdr->dst_addr.ip6,
				       &((struct sockaddr_in6 *)addr)->sin6_addr,
				       sizeof(hdr->dst_addr.ip6)));
	case AF_IB:
		return true;
	default:
		return false;
	}
}

static bool cma_ib_net_dev_matches(const struct rdma_cm_id *id,
				   const struct net_device *ndev,
				   const struct cma_req_info *req)
{
	const struct rdma_addr *addr = &id->route.addr;
	const struct sockaddr_in6 *l6 =
		(const struct sockaddr_in6 *)&req->listen_addr;

	/* no net device: an AF_IB request, for an AF_IB listener */
	if (!ndev)
		return (!id->port_num || id->port_num == req->port) &&
		       addr->src_addr.ss_family == AF_IB;
	/* any net device of the port, unless the address is IPv6 link-local */
	if (l6->sin6_family != AF_INET6 ||
	    !(ipv6_addr_type(&l6->sin6_addr) & IPV6_ADDR_LINKLOCAL))
		return true;
	/* then the namespace, and the device a bound listener names */
	return net_eq(dev_net(ndev), addr->dev_addr.net) &&
	       (!addr->dev_addr.bound_dev_if ||
		addr->dev_addr.bound_dev_if == ndev->ifindex);
}

/*
 * The listener of a request among the owners of its port: the owner if
 * it listens on the request's device, else the owner's per-device
 * listener there.  Caller holds cma_lock.
 */
static struct rdma_id_private *
cma_ib_match_listener(const struct rdma_bind_list *bind_list,
		      const struct ib_cm_id *cm_id,
		      const struct ib_cm_event *ib_event,
		      const struct cma_req_info *req,
		      const struct net_device *ndev)
{
	struct rdma_id_private *id_priv, *child;

	lockdep_assert_held(&cma_lock);
	if (!bind_list)
		return NULL;
	hlist_for_each_entry(id_priv, &bind_list->owners, node) {
		if (!cma_ib_hdr_matches(id_priv, ib_event->private_data))
			continue;
		if (id_priv->id.device == cm_id->device &&
		    cma_ib_net_dev_matches(&id_priv->id, ndev, req))
			return id_priv;
		list_for_each_entry(child, &id_priv->listen_list, listen_item)
			if (child->id.device == cm_id->device &&
			    cma_ib_net_dev_matches(&child->id, ndev, req))
				return child;
	}
	return NULL;
}

/*
 * The rdma_cm listener a request on the shared IB CM listener @cm_id is
 * for, referenced (cma_id_put() it), and in *@ndev the net device it was
 * sent to (referenced, NULL for AF_IB).
 */
static struct rdma_id_private *
cma_ib_find_listener(struct ib_cm_id *cm_id, const struct ib_cm_event *ib_event,
		     struct cma_req_info *req, struct net_device **ndev)
{
	struct rdma_id_private *listener = ERR_PTR(-EINVAL);
	struct rdma_bind_list *bind_list;
	struct net *net = &init_net;
	u64 sid;
	int ret;

	*ndev = NULL;
	ret = cma_ib_req_info(ib_event, req);
	if (ret)
		return ERR_PTR(ret);
	*ndev = cma_ib_req_net_dev(ib_event, req);
	if (IS_ERR(*ndev)) {
		ret = PTR_ERR(*ndev);
		*ndev = NULL;
		/* no IP header: AF_IB, whose ids live in init_net */
		if (ret != -EAFNOSUPPORT)
			return ERR_PTR(ret);
	}

	mutex_lock(&cma_lock);
	/*
	 * Under RCU the net device's namespace and ifindex stay what they
	 * are while it is up (a move to another namespace closes it first).
	 */
	rcu_read_lock();
	if (*ndev) {
		if (!((*ndev)->flags & IFF_UP) ||
		    !cma_ib_route_via(*ndev,
				      (struct sockaddr *)&req->src_addr,
				      (struct sockaddr *)&req->listen_addr)) {
			listener = ERR_PTR(-EHOSTUNREACH);
			goto unlock;
		}
		net = dev_net(*ndev);
	}
	sid = be64_to_cpu(req->service_id);
	bind_list = cma_ps_find(net, (sid >> 16) & 0xffff, sid & 0xffff);
	listener = cma_ib_match_listener(bind_list, cm_id, ib_event, req,
					 *ndev);
	/* a listed id may be waiting in its destroyer */
	if (!listener || !refcount_inc_not_zero(&listener->refcount))
		listener = ERR_PTR(-EINVAL);
unlock:
	rcu_read_unlock();
	mutex_unlock(&cma_lock);
	if (IS_ERR(listener)) {
		dev_put(*ndev);
		*ndev = NULL;
	}
	return listener;
}

/* ------------------------------------------------------------------
 * A new id for a request
 */

/* The addresses of a new id of @listen_id for a request. */
static int cma_ib_new_id_addrs(struct rdma_id_private *conn_id,
			       struct rdma_id_private *listen_id,
			       const struct ib_cm_event *ib_event,
			       __be64 service_id)
{
	struct sockaddr *src = cma_src_addr(conn_id);
	struct sockaddr *dst = cma_dst_addr(conn_id);

	if (cma_family(listen_id) != AF_IB)
		return cma_ib_addrs_of_hdr(ib_event->private_data, service_id,
					   src, dst);
	cma_ib_addrs_of_path((struct sockaddr_ib *)src,
			     (struct sockaddr_ib *)dst, listen_id,
			     ib_event->event == IB_CM_REQ_RECEIVED ?
			     ib_event->param.req_rcvd.primary_path : NULL);
	return 0;
}

/*
 * Fill the id a request made (@conn_id, not yet attached to a device):
 * the addresses of the request, the paths of a REQ, the link-layer side
 * from the net device the request was sent to (else from the path or the
 * local address); state CONNECT.
 */
static int cma_ib_fill_new_id(struct rdma_id_private *conn_id,
			      struct rdma_id_private *listen_id,
			      const struct ib_cm_event *ib_event,
			      struct net_device *ndev)
{
	const struct ib_cm_req_event_param *rp = &ib_event->param.req_rcvd;
	bool ud = ib_event->event == IB_CM_SIDR_REQ_RECEIVED;
	struct rdma_route *rt = &conn_id->id.route;
	struct rdma_dev_addr *dev_addr = &rt->addr.dev_addr;
	__be64 service_id;
	int ret;

	service_id = ud ? ib_event->param.sidr_req_rcvd.service_id :
			  rp->primary_path->service_id;
	ret = cma_ib_new_id_addrs(conn_id, listen_id, ib_event, service_id);
	if (ret)
		return ret;

	if (!ud) {
		rt->num_pri_alt_paths = rp->alternate_path ? 2 : 1;
		rt->path_rec = kmalloc_array(rt->num_pri_alt_paths,
					     sizeof(*rt->path_rec),
					     GFP_KERNEL);
		if (!rt->path_rec)
			return -ENOMEM;
		rt->path_rec[0] = *rp->primary_path;
		if (rp->alternate_path)
			rt->path_rec[1] = *rp->alternate_path;
	}

	if (ndev) {
		rdma_copy_src_l2_addr(dev_addr, ndev);
	} else if (!ud && !cma_ib_roce(listen_id) &&
		   cma_any_addr(cma_src_addr(conn_id))) {
		dev_addr->dev_type = ARPHRD_INFINIBAND;
		rdma_addr_set_sgid(dev_addr, &rt->path_rec[0].sgid);
		ib_addr_set_pkey(dev_addr, be16_to_cpu(rt->path_rec[0].pkey));
	} else if (!cma_any_addr(cma_src_addr(conn_id))) {
		if (cma_family(conn_id) == AF_IB)
			cma_translate_ib((struct sockaddr_ib *)cma_src_addr(conn_id),
					 dev_addr);
		else
			ret = rdma_translate_ip(cma_src_addr(conn_id),
						dev_addr);
		if (ret)
			return ret;
	}
	if (!ud)
		rdma_addr_set_dgid(dev_addr, &rt->path_rec[0].dgid);

	/* nobody sees the id yet */
	conn_id->state = RDMA_CM_CONNECT;
	return 0;
}

/*
 * The GID entry of @gid on @port of the device, as the id's addresses
 * say: on RoCE of the port's default_roce_mode type on the net device the
 * request was sent to, referenced; NULL on InfiniBand (found, nothing
 * kept); ERR_PTR(-ENODEV) when the port does not have it.
 */
static const struct ib_gid_attr *
cma_ib_gid_on_port(struct rdma_id_private *id_priv, struct cma_device *cma_dev,
		   u32 port, const union ib_gid *gid)
{
	struct rdma_dev_addr *dev_addr = &id_priv->id.route.addr.dev_addr;
	struct ib_device *device = cma_dev->device;
	enum ib_gid_type gid_type = IB_GID_TYPE_IB;
	struct net_device *ndev = NULL;
	const struct ib_gid_attr *attr;
	bool ib;

	if (!rdma_dev_access_netns(device, dev_addr->net))
		return ERR_PTR(-ENODEV);
	ib = dev_addr->dev_type == ARPHRD_INFINIBAND;
	if (ib != rdma_protocol_ib(device, port))
		return ERR_PTR(-ENODEV);
	if (dev_addr->dev_type == ARPHRD_ETHER &&
	    rdma_protocol_roce(device, port)) {
		ndev = dev_get_by_index(dev_addr->net, dev_addr->bound_dev_if);
		if (!ndev)
			return ERR_PTR(-ENODEV);
		gid_type = cma_default_gid_type(cma_dev, port);
	}
	attr = rdma_find_gid_by_port(device, gid, gid_type, port, ndev);
	if (IS_ERR(attr)) {
		dev_put(ndev);
		return ERR_PTR(-ENODEV);
	}
	if (!ndev) {
		rdma_put_gid_attr(attr);
		return NULL;
	}
	dev_put(ndev);
	return attr;
}

/*
 * Attach a request's new id to the listener's device at the port the
 * request came in on, once its local GID is that port's; on RoCE the id
 * keeps that GID's entry (the one the REQ was sent to, by the address in
 * its header and the net device of the GID it came in on).
 */
static int cma_ib_attach_req(struct rdma_id_private *conn_id,
			     struct rdma_id_private *listen_id,
			     const struct cma_req_info *req)
{
	struct rdma_dev_addr *dev_addr = &conn_id->id.route.addr.dev_addr;
	const struct ib_gid_attr *attr;
	union ib_gid gid;

	if (dev_addr->dev_type != ARPHRD_INFINIBAND &&
	    conn_id->id.ps == RDMA_PS_IPOIB)
		return -EINVAL;
	if (rdma_protocol_roce(req->device, req->port))
		rdma_ip2gid(cma_src_addr(conn_id), &gid);
	else
		rdma_addr_get_sgid(dev_addr, &gid);
	attr = cma_ib_gid_on_port(conn_id, listen_id->cma_dev, req->port, &gid);
	if (IS_ERR(attr))
		return PTR_ERR(attr);
	return cma_attach_checked(conn_id, listen_id->cma_dev, req->port, attr);
}

static bool cma_ib_qp_type_ok(const struct rdma_cm_id *id,
			      const struct ib_cm_event *ib_event)
{
	/* a listener of QP type 0 takes any, as upstream */
	if (!id->qp_type)
		return true;
	if (ib_event->event == IB_CM_REQ_RECEIVED)
		return ib_event->param.req_rcvd.qp_type == id->qp_type;
	return id->qp_type == IB_QPT_UD;
}

static void cma_ib_req_event(struct rdma_cm_event *event,
			     const struct ib_cm_event *ib_event, u8 offset)
{
	const struct ib_cm_req_event_param *rp = &ib_event->param.req_rcvd;

	event->event = RDMA_CM_EVENT_CONNECT_REQUEST;
	if (ib_event->event == IB_CM_SIDR_REQ_RECEIVED) {
		event->param.ud.private_data = ib_event->private_data + offset;
		event->param.ud.private_data_len =
			IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE - offset;
		return;
	}
	event->param.conn.private_data = ib_event->private_data + offset;
	event->param.conn.private_data_len =
		IB_CM_REQ_PRIVATE_DATA_SIZE - offset;
	event->param.conn.responder_resources = rp->responder_resources;
	event->param.conn.initiator_depth = rp->initiator_depth;
	event->param.conn.flow_control = rp->flow_control;
	event->param.conn.retry_count = rp->retry_count;
	event->param.conn.rnr_retry_count = rp->rnr_retry_count;
	event->param.conn.srq = rp->srq;
	event->param.conn.qp_num = rp->remote_qpn;
	event->ece = rp->ece;
}

static int cma_ib_handler(struct ib_cm_id *cm_id,
			  const struct ib_cm_event *ib_event);

/*
 * Deliver @event to the owner of @id_priv, whose handler_mutex is held,
 * and unlock it.  A non-zero return of the owner's handler destroys the
 * id and goes back to the IB CM, which then destroys the IB CM ID.
 */
static int cma_ib_deliver_unlock(struct rdma_id_private *id_priv,
				 struct rdma_cm_event *event)
{
	int ret = cma_deliver_event(id_priv, event);

	if (ret) {
		/* not ours to destroy any more */
		id_priv->cm_id.ib = NULL;
		cma_destroy_id_handler_unlock(id_priv);
		return ret;
	}
	mutex_unlock(&id_priv->handler_mutex);
	return 0;
}

/*
 * A REQ or SIDR REQ on a shared listener: a new id for the owner of the
 * rdma_cm listener it names, which gets CONNECT_REQUEST.  A non-zero
 * return makes the IB CM reject the request and destroy @cm_id.
 */
static int cma_ib_req_handler(struct ib_cm_id *cm_id,
			      const struct ib_cm_event *ib_event)
{
	struct rdma_id_private *listen_id, *owner, *conn_id;
	struct rdma_cm_event event = {};
	struct cma_req_info req = {};
	struct net_device *ndev;
	int ret;

	listen_id = cma_ib_find_listener(cm_id, ib_event, &req, &ndev);
	if (IS_ERR(listen_id))
		return PTR_ERR(listen_id);
	trace_cm_req_handler(listen_id, ib_event->event);
	if (!cma_ib_qp_type_ok(&listen_id->id, ib_event)) {
		ret = -EINVAL;
		goto out_put;
	}

	mutex_lock(&listen_id->handler_mutex);
	if (READ_ONCE(listen_id->state) != RDMA_CM_LISTEN) {
		ret = -ECONNABORTED;
		goto out_unlock;
	}
	/* the new id: the owner's handler and context, the listener's space */
	owner = listen_id->parent ?: listen_id;
	conn_id = cma_create_id(cma_net(listen_id), owner->id.event_handler,
				owner->id.context, listen_id->id.ps,
				ib_event->event == IB_CM_SIDR_REQ_RECEIVED ?
				IB_QPT_UD : ib_event->param.req_rcvd.qp_type,
				owner->res.kern_name, false);
	if (IS_ERR(conn_id)) {
		ret = PTR_ERR(conn_id);
		goto out_unlock;
	}
	rdma_restrack_parent_name(&conn_id->res, &owner->res);

	mutex_lock_nested(&conn_id->handler_mutex, SINGLE_DEPTH_NESTING);
	ret = cma_ib_fill_new_id(conn_id, listen_id, ib_event, ndev);
	if (!ret)
		ret = cma_ib_attach_req(conn_id, listen_id, &req);
	if (ret) {
		mutex_unlock(&listen_id->handler_mutex);
		cma_destroy_id_handler_unlock(conn_id);
		goto out_put;
	}
	conn_id->cm_id.ib = cm_id;
	cm_id->context = conn_id;
	cm_id->cm_handler = cma_ib_handler;

	cma_ib_req_event(&event, ib_event, cma_ib_hdr_len(listen_id));
	ret = cma_deliver_event(conn_id, &event);
	if (ret) {
		/* the IB CM destroys cm_id after our non-zero return */
		conn_id->cm_id.ib = NULL;
		mutex_unlock(&listen_id->handler_mutex);
		cma_destroy_id_handler_unlock(conn_id);
		goto out_put;
	}
	/* not answered yet: ask for time should the peer resend the REQ */
	if (READ_ONCE(conn_id->state) == RDMA_CM_CONNECT &&
	    conn_id->id.qp_type != IB_QPT_UD) {
		trace_cm_send_mra(conn_id);
		ib_send_cm_mra(cm_id, CMA_CM_MRA_SETTING, NULL, 0);
	}
	mutex_unlock(&conn_id->handler_mutex);

out_unlock:
	mutex_unlock(&listen_id->handler_mutex);
out_put:
	dev_put(ndev);
	cma_id_put(listen_id);
	return ret;
}

/* ------------------------------------------------------------------
 * Connections
 */

/*
 * The REP came (active side) or the owner accepts it (rdma_accept() with
 * no parameters): the QP to RTR and RTS, then the RTU.  On failure the
 * QP goes to error and the connection is rejected.
 */
static int cma_ib_rep_recv(struct rdma_id_private *id_priv)
{
	int ret;

	ret = cma_modify_qp_rtr(id_priv, NULL);
	if (ret)
		goto reject;
	ret = cma_modify_qp_rts(id_priv, NULL);
	if (ret)
		goto reject;
	trace_cm_send_rtu(id_priv);
	ret = ib_send_cm_rtu(id_priv->cm_id.ib, NULL, 0);
	if (ret)
		goto reject;
	return 0;

reject:
	pr_debug_ratelimited("rdma_cm: CONNECT_ERROR: the reply could not be taken: %d\n",
			     ret);
	cma_modify_qp_err(id_priv);
	trace_cm_send_rej(id_priv);
	ib_send_cm_rej(id_priv->cm_id.ib, IB_CM_REJ_CONSUMER_DEFINED, NULL, 0,
		       NULL, 0);
	return ret;
}

static void cma_ib_rep_event(struct rdma_cm_event *event,
			     const struct ib_cm_event *ib_event)
{
	const struct ib_cm_rep_event_param *rp = &ib_event->param.rep_rcvd;

	event->param.conn.private_data = ib_event->private_data;
	event->param.conn.private_data_len = IB_CM_REP_PRIVATE_DATA_SIZE;
	event->param.conn.responder_resources = rp->responder_resources;
	event->param.conn.initiator_depth = rp->initiator_depth;
	event->param.conn.flow_control = rp->flow_control;
	event->param.conn.rnr_retry_count = rp->rnr_retry_count;
	event->param.conn.srq = rp->srq;
	event->param.conn.qp_num = rp->remote_qpn;
	event->ece = rp->ece;
}

/*
 * The events of a connection's IB CM ID.  All but TIMEWAIT_EXIT count
 * only while the id is CONNECT; TIMEWAIT_EXIT only once it is
 * DISCONNECT (the connection's QP number may be used again).
 */
static int cma_ib_handler(struct ib_cm_id *cm_id,
			  const struct ib_cm_event *ib_event)
{
	struct rdma_id_private *id_priv = cm_id->context;
	struct rdma_cm_event event = {};
	enum rdma_cm_state state;

	mutex_lock(&id_priv->handler_mutex);
	state = READ_ONCE(id_priv->state);
	if (ib_event->event == IB_CM_TIMEWAIT_EXIT ?
	    state != RDMA_CM_DISCONNECT : state != RDMA_CM_CONNECT)
		goto out;

	switch (ib_event->event) {
	case IB_CM_REQ_ERROR:
	case IB_CM_REP_ERROR:
		event.event = RDMA_CM_EVENT_UNREACHABLE;
		event.status = -ETIMEDOUT;
		break;
	case IB_CM_REP_RECEIVED:
		if (id_priv->id.qp_type != IB_QPT_UD) {
			trace_cm_send_mra(id_priv);
			ib_send_cm_mra(cm_id, CMA_CM_MRA_SETTING, NULL, 0);
		}
		if (id_priv->id.qp) {
			event.status = cma_ib_rep_recv(id_priv);
			event.event = event.status ?
				      RDMA_CM_EVENT_CONNECT_ERROR :
				      RDMA_CM_EVENT_ESTABLISHED;
		} else {
			/* the owner moves its QP and calls rdma_accept() */
			event.event = RDMA_CM_EVENT_CONNECT_RESPONSE;
		}
		cma_ib_rep_event(&event, ib_event);
		break;
	case IB_CM_RTU_RECEIVED:
	case IB_CM_USER_ESTABLISHED:
		event.event = RDMA_CM_EVENT_ESTABLISHED;
		break;
	case IB_CM_DREQ_ERROR:
		event.status = -ETIMEDOUT;
		fallthrough;
	case IB_CM_DREQ_RECEIVED:
	case IB_CM_DREP_RECEIVED:
		if (!cma_comp_exch(id_priv, RDMA_CM_CONNECT,
				   RDMA_CM_DISCONNECT))
			goto out;
		event.event = RDMA_CM_EVENT_DISCONNECTED;
		break;
	case IB_CM_TIMEWAIT_EXIT:
		event.event = RDMA_CM_EVENT_TIMEWAIT_EXIT;
		break;
	case IB_CM_MRA_RECEIVED:
		/* the IB CM waits longer by itself */
		goto out;
	case IB_CM_REJ_RECEIVED:
		pr_debug_ratelimited("rdma_cm: REJECTED: %s\n",
				     ibcm_reject_msg(ib_event->param.rej_rcvd.reason));
		cma_modify_qp_err(id_priv);
		event.event = RDMA_CM_EVENT_REJECTED;
		event.status = ib_event->param.rej_rcvd.reason;
		event.param.conn.private_data = ib_event->private_data;
		event.param.conn.private_data_len = IB_CM_REJ_PRIVATE_DATA_SIZE;
		break;
	default:
		pr_err("rdma_cm: unexpected IB CM event %d\n", ib_event->event);
		goto out;
	}

	return cma_ib_deliver_unlock(id_priv, &event);
out:
	mutex_unlock(&id_priv->handler_mutex);
	return 0;
}

/* The owner's data behind the header, in a buffer of its own (or NULL). */
static int cma_ib_private_data(struct rdma_id_private *id_priv,
			       const struct rdma_conn_param *conn_param,
			       void **buf, u8 *len)
{
	u8 offset = cma_ib_hdr_len(id_priv);
	u8 *data;

	*buf = NULL;
	if (check_add_overflow(offset, conn_param->private_data_len, len))
		return -EINVAL;
	if (!*len)
		return 0;
	data = kzalloc(*len, GFP_KERNEL);
	if (!data)
		return -ENOMEM;
	if (conn_param->private_data && conn_param->private_data_len)
		memcpy(data + offset, conn_param->private_data,
		       conn_param->private_data_len);
	if (offset)
		cma_ib_format_hdr((struct cma_hdr *)data, id_priv);
	*buf = data;
	return 0;
}

/* The active side of a connection: a REQ along the route's path. */
static int cma_ib_send_req(struct rdma_id_private *id_priv,
			   struct rdma_conn_param *conn_param)
{
	struct rdma_route *route = &id_priv->id.route;
	struct ib_cm_req_param req = {};
	struct ib_cm_id *cm_id;
	void *data;
	int ret;

	ret = cma_ib_private_data(id_priv, conn_param, &data,
				  &req.private_data_len);
	if (ret)
		return ret;
	cm_id = ib_create_cm_id(id_priv->id.device, cma_ib_handler, id_priv);
	if (IS_ERR(cm_id)) {
		ret = PTR_ERR(cm_id);
		goto out;
	}
	id_priv->cm_id.ib = cm_id;

	req.private_data = data;
	req.primary_path = &route->path_rec[0];
	req.primary_path_inbound = route->path_rec_inbound;
	req.primary_path_outbound = route->path_rec_outbound;
	if (route->num_pri_alt_paths == 2)
		req.alternate_path = &route->path_rec[1];
	req.ppath_sgid_attr = route->addr.dev_addr.sgid_attr;
	req.service_id = rdma_get_service_id(&id_priv->id,
					     cma_dst_addr(id_priv));
	req.qp_num = id_priv->qp_num;
	req.qp_type = id_priv->id.qp_type;
	req.starting_psn = id_priv->seq_num;
	req.responder_resources = conn_param->responder_resources;
	req.initiator_depth = conn_param->initiator_depth;
	req.flow_control = conn_param->flow_control;
	req.retry_count = min_t(u8, 7, conn_param->retry_count);
	req.rnr_retry_count = min_t(u8, 7, conn_param->rnr_retry_count);
	req.remote_cm_response_timeout = CMA_CM_RESPONSE_TIMEOUT;
	req.local_cm_response_timeout = CMA_CM_RESPONSE_TIMEOUT;
	req.max_cm_retries = CMA_MAX_CM_RETRIES;
	req.srq = id_priv->srq ? 1 : 0;
	req.ece = id_priv->ece;

	trace_cm_send_req(id_priv);
	ret = ib_send_cm_req(cm_id, &req);
	if (ret) {
		ib_destroy_cm_id(cm_id);
		id_priv->cm_id.ib = NULL;
	}
out:
	kfree(data);
	return ret;
}

/* A UD id's answer: ESTABLISHED with the peer's QP and Q_Key, or not. */
static int cma_ib_sidr_rep_handler(struct ib_cm_id *cm_id,
				   const struct ib_cm_event *ib_event)
{
	const struct ib_cm_sidr_rep_event_param *rep =
		&ib_event->param.sidr_rep_rcvd;
	struct rdma_id_private *id_priv = cm_id->context;
	struct rdma_cm_event event = {};
	int ret;

	mutex_lock(&id_priv->handler_mutex);
	if (READ_ONCE(id_priv->state) != RDMA_CM_CONNECT)
		goto out;

	switch (ib_event->event) {
	case IB_CM_SIDR_REQ_ERROR:
		event.event = RDMA_CM_EVENT_UNREACHABLE;
		event.status = -ETIMEDOUT;
		break;
	case IB_CM_SIDR_REP_RECEIVED:
		event.param.ud.private_data = ib_event->private_data;
		event.param.ud.private_data_len =
			IB_CM_SIDR_REP_PRIVATE_DATA_SIZE;
		if (rep->status != IB_SIDR_SUCCESS) {
			event.event = RDMA_CM_EVENT_UNREACHABLE;
			event.status = rep->status;
			break;
		}
		ret = cma_ib_set_qkey(id_priv, rep->qkey);
		if (ret) {
			event.event = RDMA_CM_EVENT_ADDR_ERROR;
			event.status = ret;
			break;
		}
		ib_init_ah_attr_from_path(id_priv->id.device,
					  id_priv->id.port_num,
					  id_priv->id.route.path_rec,
					  &event.param.ud.ah_attr,
					  rep->sgid_attr);
		event.param.ud.qp_num = rep->qpn;
		event.param.ud.qkey = rep->qkey;
		event.event = RDMA_CM_EVENT_ESTABLISHED;
		break;
	default:
		pr_err("rdma_cm: unexpected IB CM event %d\n", ib_event->event);
		goto out;
	}

	ret = cma_ib_deliver_unlock(id_priv, &event);
	rdma_destroy_ah_attr(&event.param.ud.ah_attr);
	return ret;
out:
	mutex_unlock(&id_priv->handler_mutex);
	return 0;
}

/* The active side of a UD id: a SIDR REQ for the peer's QP and Q_Key. */
static int cma_ib_send_sidr_req(struct rdma_id_private *id_priv,
				struct rdma_conn_param *conn_param)
{
	struct ib_cm_sidr_req_param req = {};
	struct ib_cm_id *cm_id;
	void *data;
	int ret;

	ret = cma_ib_private_data(id_priv, conn_param, &data,
				  &req.private_data_len);
	if (ret)
		return ret;
	cm_id = ib_create_cm_id(id_priv->id.device, cma_ib_sidr_rep_handler,
				id_priv);
	if (IS_ERR(cm_id)) {
		ret = PTR_ERR(cm_id);
		goto out;
	}
	id_priv->cm_id.ib = cm_id;

	req.private_data = data;
	req.path = id_priv->id.route.path_rec;
	req.sgid_attr = id_priv->id.route.addr.dev_addr.sgid_attr;
	req.service_id = rdma_get_service_id(&id_priv->id,
					     cma_dst_addr(id_priv));
	req.timeout_ms = 1 << (CMA_CM_RESPONSE_TIMEOUT - 8);
	req.max_cm_retries = CMA_MAX_CM_RETRIES;

	trace_cm_send_sidr_req(id_priv);
	ret = ib_send_cm_sidr_req(cm_id, &req);
	if (ret) {
		ib_destroy_cm_id(cm_id);
		id_priv->cm_id.ib = NULL;
	}
out:
	kfree(data);
	return ret;
}

static int cma_ib_connect(struct rdma_id_private *id_priv,
			  struct rdma_conn_param *conn_param)
{
	if (id_priv->id.qp_type == IB_QPT_UD)
		return cma_ib_send_sidr_req(id_priv, conn_param);
	return cma_ib_send_req(id_priv, conn_param);
}

static int cma_ib_send_rep(struct rdma_id_private *id_priv,
			   struct rdma_conn_param *conn_param)
{
	struct ib_cm_rep_param rep = {};
	int ret;

	ret = cma_modify_qp_rtr(id_priv, conn_param);
	if (ret)
		return ret;
	ret = cma_modify_qp_rts(id_priv, conn_param);
	if (ret)
		return ret;

	rep.qp_num = id_priv->qp_num;
	rep.starting_psn = id_priv->seq_num;
	rep.private_data = conn_param->private_data;
	rep.private_data_len = conn_param->private_data_len;
	rep.responder_resources = conn_param->responder_resources;
	rep.initiator_depth = conn_param->initiator_depth;
	rep.failover_accepted = 0;
	rep.flow_control = conn_param->flow_control;
	rep.rnr_retry_count = min_t(u8, 7, conn_param->rnr_retry_count);
	rep.srq = id_priv->srq ? 1 : 0;
	rep.ece = id_priv->ece;

	trace_cm_send_rep(id_priv);
	return ib_send_cm_rep(id_priv->cm_id.ib, &rep);
}

/*
 * The answer to a SIDR REQ: success with the id's QP and Q_Key (the one
 * the owner gave, else its port space's), or a refusal.
 */
static int cma_ib_send_sidr_rep(struct rdma_id_private *id_priv,
				enum ib_cm_sidr_status status, u32 qkey,
				const void *private_data, u8 private_data_len)
{
	struct ib_cm_sidr_rep_param rep = {};
	int ret;

	rep.status = status;
	if (status == IB_SIDR_SUCCESS) {
		ret = qkey ? cma_ib_set_qkey(id_priv, qkey) :
			     cma_ib_default_qkey(id_priv);
		if (ret)
			return ret;
		rep.qp_num = id_priv->qp_num;
		rep.qkey = id_priv->qkey;
		rep.ece = id_priv->ece;
	}
	rep.private_data = private_data;
	rep.private_data_len = private_data_len;

	trace_cm_send_sidr_rep(id_priv);
	return ib_send_cm_sidr_rep(id_priv->cm_id.ib, &rep);
}

/*
 * rdma_accept(): a REP (the passive side), the RTU (the active side of
 * an owner that moves its QP itself: no parameters) or a SIDR REP.
 */
static int cma_ib_accept(struct rdma_id_private *id_priv,
			 struct rdma_conn_param *conn_param)
{
	if (id_priv->id.qp_type == IB_QPT_UD)
		return cma_ib_send_sidr_rep(id_priv, IB_SIDR_SUCCESS,
					    conn_param ? conn_param->qkey : 0,
					    conn_param ?
					    conn_param->private_data : NULL,
					    conn_param ?
					    conn_param->private_data_len : 0);
	if (!conn_param)
		return cma_ib_rep_recv(id_priv);
	return cma_ib_send_rep(id_priv, conn_param);
}

static int cma_ib_reject(struct rdma_id_private *id_priv,
			 const void *private_data, u8 private_data_len,
			 u8 reason)
{
	if (id_priv->id.qp_type == IB_QPT_UD)
		return cma_ib_send_sidr_rep(id_priv, IB_SIDR_REJECT, 0,
					    private_data, private_data_len);
	return ib_send_cm_rej(id_priv->cm_id.ib, reason, NULL, 0,
			      private_data, private_data_len);
}

/*
 * The QP goes to the error state first, then the DREQ, or the DREP when
 * the peer's DREQ came first.  DISCONNECTED follows from the IB CM's
 * event (DREP, DREQ, or the DREQ's timeout).
 */
static int cma_ib_disconnect(struct rdma_id_private *id_priv)
{
	cma_modify_qp_err(id_priv);
	if (ib_send_cm_dreq(id_priv->cm_id.ib, NULL, 0)) {
		if (!ib_send_cm_drep(id_priv->cm_id.ib, NULL, 0))
			trace_cm_sent_drep(id_priv);
	} else {
		trace_cm_sent_dreq(id_priv);
	}
	return 0;
}

/* IB_EVENT_COMM_EST on the QP before the RTU: the IB CM establishes. */
static int cma_ib_notify(struct rdma_id_private *id_priv,
			 enum ib_event_type event)
{
	if (id_priv->id.device->node_type != RDMA_NODE_IB_CA)
		return 0;
	return ib_cm_notify(id_priv->cm_id.ib, event);
}

/* ------------------------------------------------------------------
 * Routes
 */

/* What the SA path query hands its callback. */
struct cma_ib_route_query {
	struct rdma_id_private	*id_priv;
	struct cma_work		*work;
};

static int cma_ib_set_half_path(struct sa_path_rec **slot,
				const struct sa_path_rec *rec)
{
	if (!*slot) {
		*slot = kzalloc(sizeof(**slot), GFP_KERNEL);
		if (!*slot)
			return -ENOMEM;
	}
	**slot = *rec;
	return 0;
}

/*
 * The SA's (or the local service's) answer, in process context: the
 * paths go to the route, the event to cma_wq.  The query's reference on
 * the id is dropped last.
 */
static void cma_ib_route_done(int status, struct sa_path_rec *recs,
			      unsigned int num_recs, void *context)
{
	struct cma_ib_route_query *q = context;
	struct rdma_id_private *id_priv = q->id_priv;
	struct rdma_route *route = &id_priv->id.route;
	struct rdma_cm_event event = {};
	unsigned int i;

	for (i = 0; !status && i < num_recs; i++) {
		if (!recs[i].flags || (recs[i].flags & IB_PATH_GMP))
			*route->path_rec = recs[i];
		else if (recs[i].flags & IB_PATH_INBOUND)
			status = cma_ib_set_half_path(&route->path_rec_inbound,
						      &recs[i]);
		else if (recs[i].flags & IB_PATH_OUTBOUND)
			status = cma_ib_set_half_path(&route->path_rec_outbound,
						      &recs[i]);
		else
			status = -EINVAL;
	}

	if (status) {
		pr_debug_ratelimited("rdma_cm: ROUTE_ERROR: path query failed: %d\n",
				     status);
		event.event = RDMA_CM_EVENT_ROUTE_ERROR;
		event.status = status;
		cma_work_queue(q->work, RDMA_CM_ROUTE_QUERY,
			       RDMA_CM_ADDR_RESOLVED, &event);
	} else {
		route->num_pri_alt_paths = 1;
		event.event = RDMA_CM_EVENT_ROUTE_RESOLVED;
		cma_work_queue(q->work, RDMA_CM_ROUTE_QUERY,
			       RDMA_CM_ROUTE_RESOLVED, &event);
	}
	kfree(q);
	WRITE_ONCE(id_priv->query, NULL);
	cma_id_put(id_priv);
}

/*
 * A PathRecord query: the id's GIDs and P_Key, the service ID of its
 * destination, one reversible path; the QoS class of an IPv4 id's ToS or
 * the traffic class of an IPv6 or AF_IB id's flow information.
 */
static int cma_ib_query_route(struct rdma_id_private *id_priv,
			      unsigned long timeout_ms)
{
	struct rdma_dev_addr *dev_addr = &id_priv->id.route.addr.dev_addr;
	struct rdma_route *route = &id_priv->id.route;
	struct cma_ib_route_query *q;
	struct sa_path_rec rec = {};
	ib_sa_comp_mask mask;
	__be32 flowinfo;
	int ret;

	q = kzalloc(sizeof(*q), GFP_KERNEL);
	if (!q)
		return -ENOMEM;
	q->id_priv = id_priv;
	q->work = cma_work_alloc(id_priv);
	if (!q->work) {
		ret = -ENOMEM;
		goto err_free;
	}
	if (!route->path_rec) {
		route->path_rec = kzalloc(sizeof(*route->path_rec), GFP_KERNEL);
		if (!route->path_rec) {
			ret = -ENOMEM;
			goto err_work;
		}
	}

	rec.rec_type = SA_PATH_REC_TYPE_IB;
	rdma_addr_get_sgid(dev_addr, &rec.sgid);
	rdma_addr_get_dgid(dev_addr, &rec.dgid);
	rec.pkey = cpu_to_be16(ib_addr_get_pkey(dev_addr));
	rec.numb_path = 1;
	rec.reversible = 1;
	rec.service_id = rdma_get_service_id(&id_priv->id,
					     cma_dst_addr(id_priv));
	mask = IB_SA_PATH_REC_DGID | IB_SA_PATH_REC_SGID |
	       IB_SA_PATH_REC_PKEY | IB_SA_PATH_REC_NUMB_PATH |
	       IB_SA_PATH_REC_REVERSIBLE | IB_SA_PATH_REC_SERVICE_ID;
	switch (cma_family(id_priv)) {
	case AF_INET:
		rec.qos_class = cpu_to_be16((u16)id_priv->tos);
		mask |= IB_SA_PATH_REC_QOS_CLASS;
		break;
	case AF_INET6:
	case AF_IB:
		flowinfo = cma_family(id_priv) == AF_INET6 ?
			((struct sockaddr_in6 *)cma_src_addr(id_priv))->sin6_flowinfo :
			((struct sockaddr_ib *)cma_src_addr(id_priv))->sib_flowinfo;
		rec.traffic_class = (u8)(be32_to_cpu(flowinfo) >> 20);
		mask |= IB_SA_PATH_REC_TRAFFIC_CLASS;
		break;
	}

	/* the callback may run before this returns: it has its reference */
	cma_id_get(id_priv);
	ret = ib_sa_path_rec_get(&cma_sa_client, id_priv->id.device,
				 id_priv->id.port_num, &rec, mask, timeout_ms,
				 GFP_KERNEL, cma_ib_route_done, q,
				 &id_priv->query);
	if (ret < 0) {
		id_priv->query = NULL;
		cma_id_put(id_priv);
		goto err_work;
	}
	id_priv->query_id = ret;
	return 0;

err_work:
	cma_work_free(q->work);
err_free:
	kfree(q);
	return ret;
}

/* RoCE: computed from the resolved address; IB: a PathRecord query. */
static int cma_ib_resolve_route(struct rdma_id_private *id_priv,
				unsigned long timeout_ms)
{
	struct rdma_cm_id *id = &id_priv->id;

	if (rdma_cap_ib_sa(id->device, id->port_num))
		return cma_ib_query_route(id_priv, timeout_ms);
	if (rdma_protocol_roce(id->device, id->port_num))
		return cma_roce_resolve_route(id_priv);
	return -ENOSYS;
}

/* ------------------------------------------------------------------
 * Multicast
 */

/*
 * The MGID of a group address, as upstream maps it: the wildcard gives
 * MGID 0 (the SA names the group), an IPv6 address that is an
 * SA-assigned MGID (ff1x:a01b::/32) and an AF_IB address are the MGID,
 * other IP addresses map as IPoIB maps them (RFC 4391) in the P_Key of
 * the id, with rdma_cm's signature in the UDP port space.
 */
static void cma_ib_set_mgid(struct rdma_id_private *id_priv,
			    const struct sockaddr *addr, union ib_gid *mgid)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)addr;
	const struct sockaddr_in *sin = (const struct sockaddr_in *)addr;
	struct rdma_dev_addr *dev_addr = &id_priv->id.route.addr.dev_addr;
	unsigned char mc_map[MAX_ADDR_LEN];

	if (cma_any_addr(addr)) {
		memset(mgid, 0, sizeof(*mgid));
		return;
	}
	if (addr->sa_family == AF_INET6 &&
	    (be32_to_cpu(sin6->sin6_addr.s6_addr32[0]) & 0xfff0ffff) ==
	    0xff10a01b) {
		memcpy(mgid, &sin6->sin6_addr, sizeof(*mgid));
		return;
	}
	if (addr->sa_family == AF_IB) {
		memcpy(mgid, &((const struct sockaddr_ib *)addr)->sib_addr,
		       sizeof(*mgid));
		return;
	}
	if (addr->sa_family == AF_INET6)
		ipv6_ib_mc_map(&sin6->sin6_addr, dev_addr->broadcast, mc_map);
	else
		ip_ib_mc_map(sin->sin_addr.s_addr, dev_addr->broadcast, mc_map);
	if (id_priv->id.ps == RDMA_PS_UDP)
		mc_map[7] = 0x01;
	memcpy(mgid, mc_map + 4, sizeof(*mgid));
}

/* The outcome of a join (or the loss of a membership) for the owner. */
static void cma_ib_mc_event(int status, struct rdma_id_private *id_priv,
			    struct ib_sa_multicast *multicast,
			    struct cma_multicast *mc,
			    struct rdma_cm_event *event)
{
	struct rdma_dev_addr *dev_addr = &id_priv->id.route.addr.dev_addr;
	struct net_device *ndev = NULL;

	event->status = status;
	event->param.ud.private_data = mc->context;
	if (status) {
		pr_debug_ratelimited("rdma_cm: MULTICAST_ERROR: %d\n", status);
		event->event = RDMA_CM_EVENT_MULTICAST_ERROR;
		return;
	}
	if (dev_addr->bound_dev_if)
		ndev = dev_get_by_index(dev_addr->net, dev_addr->bound_dev_if);
	event->event = RDMA_CM_EVENT_MULTICAST_JOIN;
	if (ib_init_ah_from_mcmember(id_priv->id.device, id_priv->id.port_num,
				     &multicast->rec, ndev, IB_GID_TYPE_IB,
				     &event->param.ud.ah_attr)) {
		event->event = RDMA_CM_EVENT_MULTICAST_ERROR;
	} else {
		event->param.ud.qp_num = 0xffffff;
		event->param.ud.qkey = id_priv->qkey;
	}
	dev_put(ndev);
}

/*
 * The SA's answer to a join, from the SA client's work.  The owner's
 * handler cannot destroy the id from here (that frees this membership,
 * which waits for this callback): its return value is ignored.  A group
 * whose Q_Key is not the id's is an error for the owner.
 */
static int cma_ib_mc_handler(int status, struct ib_sa_multicast *multicast)
{
	struct cma_multicast *mc = multicast->context;
	struct rdma_id_private *id_priv = mc->id_priv;
	struct rdma_cm_event event = {};
	enum rdma_cm_state state;

	mutex_lock(&id_priv->handler_mutex);
	state = READ_ONCE(id_priv->state);
	if (state == RDMA_CM_DEVICE_REMOVAL || state == RDMA_CM_DESTROYING)
		goto out;
	if (!status)
		status = cma_ib_set_qkey(id_priv,
					 be32_to_cpu(multicast->rec.qkey));
	cma_ib_mc_event(status, id_priv, multicast, mc, &event);
	if (cma_deliver_event(id_priv, &event))
		pr_warn_ratelimited("rdma_cm: a multicast event's handler returned non-zero: ignored\n");
	rdma_destroy_ah_attr(&event.param.ud.ah_attr);
out:
	mutex_unlock(&id_priv->handler_mutex);
	return 0;
}

/*
 * RoCE multicast: no SA, the group is made here.  The MGID is the
 * group's IP address (an IPv4 group IPv4-mapped for RoCE v2, in
 * ff0e::ffff:0:0/96 for RoCE v1), the member record is built from the
 * port and its net device, and a full member of a RoCE v2 group joins
 * the IP group on the net device (IGMP, MLD), so that the switch and
 * the NIC's filter pass the group's traffic.  The event is delivered
 * from cma_wq with the group's address vector (GRH to the MGID, the
 * source GID entry, the group's Ethernet MAC).
 */

/* The MGID of a RoCE group, upstream's mapping (see above). */
static void cma_roce_set_mgid(const struct sockaddr *addr, union ib_gid *mgid,
			      enum ib_gid_type gid_type)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)addr;
	const struct sockaddr_in *sin = (const struct sockaddr_in *)addr;

	memset(mgid, 0, sizeof(*mgid));
	if (addr->sa_family == AF_INET6) {
		memcpy(mgid, &sin6->sin6_addr, sizeof(*mgid));
		return;
	}
	if (gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP) {
		mgid->raw[0] = 0xff;
		mgid->raw[1] = 0x0e;
	}
	mgid->raw[10] = 0xff;
	mgid->raw[11] = 0xff;
	memcpy(&mgid->raw[12], &sin->sin_addr.s_addr, 4);
}

/* Is @addr an IP multicast group address? */
static bool cma_roce_mc_addr(const struct sockaddr *addr)
{
	switch (addr->sa_family) {
	case AF_INET:
		return ipv4_is_multicast(((const struct sockaddr_in *)addr)->sin_addr.s_addr);
	case AF_INET6:
		return ipv6_addr_is_multicast(&((const struct sockaddr_in6 *)addr)->sin6_addr);
	default:
		return false;
	}
}

/* Join or leave @mc's IP group on @ndev: IGMP or MLD. */
static int cma_roce_ip_mc(struct net_device *ndev, struct cma_multicast *mc,
			  bool join)
{
	const struct sockaddr *addr = (const struct sockaddr *)&mc->addr;
	const struct in6_addr *a6 =
		&((const struct sockaddr_in6 *)addr)->sin6_addr;
	__be32 a4 = ((const struct sockaddr_in *)addr)->sin_addr.s_addr;
	struct in_device *in_dev;
	int ret = 0;

	if (addr->sa_family == AF_INET6) {
		if (!IS_ENABLED(CONFIG_IPV6))
			return -EAFNOSUPPORT;
		return join ? ipv6_dev_mc_inc(ndev, a6) :
			      ipv6_dev_mc_dec(ndev, a6);
	}
	rtnl_lock();
	in_dev = __in_dev_get_rtnl(ndev);
	if (!in_dev)
		ret = -ENODEV;
	else if (join)
		ip_mc_inc_group(in_dev, a4);
	else
		ip_mc_dec_group(in_dev, a4);
	rtnl_unlock();
	return ret;
}

/*
 * The join's event, from cma_wq.  The owner's handler cannot destroy the
 * id from here (its leave waits for this work): its return is ignored.
 */
static void cma_roce_mc_work(struct work_struct *work)
{
	struct cma_multicast *mc = container_of(work, struct cma_multicast,
						work);
	struct rdma_id_private *id_priv = mc->id_priv;
	enum rdma_cm_state state;

	mutex_lock(&id_priv->handler_mutex);
	state = READ_ONCE(id_priv->state);
	if (state != RDMA_CM_DEVICE_REMOVAL && state != RDMA_CM_DESTROYING &&
	    cma_deliver_event(id_priv, &mc->event))
		pr_warn_ratelimited("rdma_cm: a multicast event's handler returned non-zero: ignored\n");
	mutex_unlock(&id_priv->handler_mutex);
	rdma_destroy_ah_attr(&mc->event.param.ud.ah_attr);
}

/*
 * The member record of a RoCE group and its event: MGID, port GID (the
 * id's source address), P_Key 0xffff, the id's Q_Key, the MTU of the net
 * device and the port, the port's current rate, the ToS of the id (or
 * the port's default_roce_tos) as traffic class and its service level,
 * hop limit 64 for RoCE v2 (routable) and 1 for v1.
 */
static int cma_roce_mc_event(struct rdma_id_private *id_priv,
			     struct cma_multicast *mc, struct net_device *ndev)
{
	struct rdma_cm_event *event = &mc->event;
	struct rdma_cm_id *id = &id_priv->id;
	struct ib_sa_mcmember_rec rec = {};
	struct ib_port_attr port_attr;
	bool tos_set;
	u8 tos;
	int ret;

	ret = ib_query_port(id->device, id->port_num, &port_attr);
	if (ret)
		return ret;
	mutex_lock(&id_priv->qp_mutex);
	tos_set = id_priv->tos_set;
	tos = id_priv->tos;
	mutex_unlock(&id_priv->qp_mutex);
	if (!tos_set) {
		mutex_lock(&cma_lock);
		tos = cma_default_roce_tos(id_priv->cma_dev, id->port_num);
		mutex_unlock(&cma_lock);
	}

	rec.mgid = mc->mgid;
	rdma_ip2gid(cma_src_addr(id_priv), &rec.port_gid);
	rec.pkey = cpu_to_be16(0xffff);
	rec.qkey = cpu_to_be32(id_priv->qkey);
	rec.mtu_selector = IB_SA_EQ;
	rec.mtu = cma_roce_mtu(READ_ONCE(ndev->mtu));
	if (port_attr.active_mtu && port_attr.active_mtu < rec.mtu)
		rec.mtu = port_attr.active_mtu;
	if (!rec.mtu)
		return -EINVAL;
	rec.rate_selector = IB_SA_EQ;
	rec.rate = IB_RATE_PORT_CURRENT;
	rec.traffic_class = tos;
	rec.sl = cma_roce_tos_to_sl(ndev, tos);
	rec.hop_limit = id_priv->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP ?
			IPV6_DEFAULT_HOPLIMIT : 1;
	rec.join_state = mc->join_state;

	memset(event, 0, sizeof(*event));
	ret = ib_init_ah_from_mcmember(id->device, id->port_num, &rec, ndev,
				       id_priv->gid_type,
				       &event->param.ud.ah_attr);
	if (ret)
		return ret;
	/* a group's MAC: no neighbour to ask, nothing that sleeps */
	ret = ib_resolve_eth_dmac(id->device, &event->param.ud.ah_attr);
	if (ret) {
		rdma_destroy_ah_attr(&event->param.ud.ah_attr);
		return ret;
	}
	event->event = RDMA_CM_EVENT_MULTICAST_JOIN;
	event->param.ud.private_data = mc->context;
	event->param.ud.qp_num = 0xffffff;
	event->param.ud.qkey = id_priv->qkey;
	return 0;
}

static int cma_roce_join_multicast(struct rdma_id_private *id_priv,
				   struct cma_multicast *mc)
{
	struct rdma_dev_addr *dev_addr = &id_priv->id.route.addr.dev_addr;
	const struct sockaddr *addr = (const struct sockaddr *)&mc->addr;
	struct net_device *ndev;
	int ret;

	if (!cma_roce_mc_addr(addr))
		return -EINVAL;
	if (mc->join_state != BIT(FULLMEMBER_JOIN) &&
	    mc->join_state != BIT(SENDONLY_FULLMEMBER_JOIN))
		return -EINVAL;
	if (!dev_addr->bound_dev_if)
		return -ENODEV;
	ndev = dev_get_by_index(dev_addr->net, dev_addr->bound_dev_if);
	if (!ndev)
		return -ENODEV;
	if (!id_priv->qkey)
		id_priv->qkey = RDMA_UDP_QKEY;
	cma_roce_set_mgid(addr, &mc->mgid, id_priv->gid_type);
	ret = cma_roce_mc_event(id_priv, mc, ndev);
	if (ret)
		goto out;
	if (id_priv->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP &&
	    mc->join_state == BIT(FULLMEMBER_JOIN)) {
		ret = cma_roce_ip_mc(ndev, mc, true);
		if (ret) {
			rdma_destroy_ah_attr(&mc->event.param.ud.ah_attr);
			goto out;
		}
		mc->ip_joined = true;
		mc->ifindex = ndev->ifindex;
	}
	trace_cm_roce_mc_join(id_priv, &mc->mgid, mc->ip_joined);
	INIT_WORK(&mc->work, cma_roce_mc_work);
	queue_work(cma_wq, &mc->work);
out:
	dev_put(ndev);
	return ret;
}

/*
 * Leave: the event not delivered yet is cancelled (its address vector's
 * GID reference dropped), one being delivered waited for; the IP group
 * is left on the net device it was joined on, if that is still there
 * (one that went took its groups with it).
 */
static void cma_roce_leave_multicast(struct rdma_id_private *id_priv,
				     struct cma_multicast *mc)
{
	struct net_device *ndev;

	cancel_work_sync(&mc->work);
	rdma_destroy_ah_attr(&mc->event.param.ud.ah_attr);
	if (!mc->ip_joined)
		return;
	ndev = dev_get_by_index(id_priv->id.route.addr.dev_addr.net,
				mc->ifindex);
	if (ndev) {
		cma_roce_ip_mc(ndev, mc, false);
		dev_put(ndev);
	}
	mc->ip_joined = false;
	trace_cm_roce_mc_leave(id_priv, &mc->mgid);
}

/*
 * A join through the SA: the record starts from the IPoIB broadcast
 * group of the id's P_Key (which the port must have joined, as
 * upstream), with the group's MGID, the id's Q_Key, GID and P_Key and
 * the JoinState asked for.
 */
static int cma_ib_join_multicast(struct rdma_id_private *id_priv,
				 struct cma_multicast *mc)
{
	struct rdma_dev_addr *dev_addr = &id_priv->id.route.addr.dev_addr;
	struct rdma_cm_id *id = &id_priv->id;
	struct ib_sa_mcmember_rec rec;
	ib_sa_comp_mask mask;
	int ret;

	if (rdma_protocol_roce(id->device, id->port_num))
		return cma_roce_join_multicast(id_priv, mc);
	if (!rdma_cap_ib_mcast(id->device, id->port_num))
		return -ENOSYS;

	ib_addr_get_mgid(dev_addr, &rec.mgid);
	ret = ib_sa_get_mcmember_rec(id->device, id->port_num, &rec.mgid,
				     &rec);
	if (ret)
		return ret;
	if (!id_priv->qkey) {
		ret = cma_ib_default_qkey(id_priv);
		if (ret)
			return ret;
	}
	cma_ib_set_mgid(id_priv, (struct sockaddr *)&mc->addr, &rec.mgid);
	rec.qkey = cpu_to_be32(id_priv->qkey);
	rdma_addr_get_sgid(dev_addr, &rec.port_gid);
	rec.pkey = cpu_to_be16(ib_addr_get_pkey(dev_addr));
	rec.join_state = mc->join_state;

	mask = IB_SA_MCMEMBER_REC_MGID | IB_SA_MCMEMBER_REC_PORT_GID |
	       IB_SA_MCMEMBER_REC_PKEY | IB_SA_MCMEMBER_REC_JOIN_STATE |
	       IB_SA_MCMEMBER_REC_QKEY | IB_SA_MCMEMBER_REC_SL |
	       IB_SA_MCMEMBER_REC_FLOW_LABEL |
	       IB_SA_MCMEMBER_REC_TRAFFIC_CLASS;
	if (id->ps == RDMA_PS_IPOIB)
		mask |= IB_SA_MCMEMBER_REC_RATE |
			IB_SA_MCMEMBER_REC_RATE_SELECTOR |
			IB_SA_MCMEMBER_REC_MTU_SELECTOR |
			IB_SA_MCMEMBER_REC_MTU |
			IB_SA_MCMEMBER_REC_HOP_LIMIT;

	mc->sa_mc = ib_sa_join_multicast(&cma_sa_client, id->device,
					 id->port_num, &rec, mask, GFP_KERNEL,
					 cma_ib_mc_handler, mc);
	return PTR_ERR_OR_ZERO(mc->sa_mc);
}

/* Waits for the join's callback: never with the id's handler_mutex. */
static void cma_ib_leave_multicast(struct rdma_id_private *id_priv,
				   struct cma_multicast *mc)
{
	if (rdma_protocol_roce(id_priv->id.device, id_priv->id.port_num)) {
		cma_roce_leave_multicast(id_priv, mc);
		return;
	}
	ib_sa_free_multicast(mc->sa_mc);
}

/* ------------------------------------------------------------------
 * QP attributes, teardown, reject reasons
 */

/*
 * Without a connection (or for UD): INIT with the P_Key index of the
 * id's P_Key (0xffff on RoCE) and, for UD, the port space's Q_Key.
 */
static int cma_ib_init_qp_attr_noconn(struct rdma_id_private *id_priv,
				      struct ib_qp_attr *qp_attr,
				      int *qp_attr_mask)
{
	struct rdma_dev_addr *dev_addr = &id_priv->id.route.addr.dev_addr;
	struct rdma_cm_id *id = &id_priv->id;
	u16 pkey;
	int ret;

	if (rdma_cap_eth_ah(id->device, id->port_num))
		pkey = 0xffff;
	else
		pkey = ib_addr_get_pkey(dev_addr);
	ret = ib_find_cached_pkey(id->device, id->port_num, pkey,
				  &qp_attr->pkey_index);
	if (ret)
		return ret;
	qp_attr->port_num = id->port_num;
	*qp_attr_mask = IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT;
	if (id->qp_type == IB_QPT_UD) {
		ret = cma_ib_default_qkey(id_priv);
		if (ret)
			return ret;
		qp_attr->qkey = id_priv->qkey;
		*qp_attr_mask |= IB_QP_QKEY;
	} else {
		qp_attr->qp_access_flags = 0;
		*qp_attr_mask |= IB_QP_ACCESS_FLAGS;
	}
	return 0;
}

/* With a connection: what the IB CM knows (path, peer's QP, PSNs). */
static int cma_ib_init_qp_attr(struct rdma_id_private *id_priv,
			       struct ib_qp_attr *qp_attr, int *qp_attr_mask)
{
	int ret;

	if (!id_priv->cm_id.ib || id_priv->id.qp_type == IB_QPT_UD)
		ret = cma_ib_init_qp_attr_noconn(id_priv, qp_attr,
						 qp_attr_mask);
	else
		ret = ib_cm_init_qp_attr(id_priv->cm_id.ib, qp_attr,
					 qp_attr_mask);
	/* the PSN the peer starts with is the one we sent it */
	if (qp_attr->qp_state == IB_QPS_RTR)
		qp_attr->rq_psn = id_priv->seq_num;
	return ret;
}

/*
 * The route query is cancelled (its callback still runs, with -EINTR,
 * and drops its reference), the IB CM ID destroyed: no handler of it
 * runs after this.
 */
static void cma_ib_destroy(struct rdma_id_private *id_priv)
{
	struct ib_sa_query *query = READ_ONCE(id_priv->query);

	/* a query that ended meanwhile is not the SA's any more: no-op */
	if (query)
		ib_sa_cancel_query(id_priv->query_id, query);
	if (id_priv->cm_id.ib) {
		ib_destroy_cm_id(id_priv->cm_id.ib);
		id_priv->cm_id.ib = NULL;
	}
}

static const char *cma_ib_reject_msg(int reason)
{
	return ibcm_reject_msg(reason);
}

static bool cma_ib_consumer_reject(int reason)
{
	return reason == IB_CM_REJ_CONSUMER_DEFINED;
}

static int cma_ib_listen(struct rdma_id_private *id_priv)
{
	__be64 svc_id = rdma_get_service_id(&id_priv->id,
					    cma_src_addr(id_priv));
	struct ib_cm_id *cm_id;

	cm_id = ib_cm_insert_listen(id_priv->id.device, cma_ib_req_handler,
				    svc_id);
	if (IS_ERR(cm_id))
		return PTR_ERR(cm_id);
	id_priv->cm_id.ib = cm_id;
	return 0;
}

const struct cma_transport cma_ib_transport = {
	.name		 = "ib_cm",
	.listen		 = cma_ib_listen,
	.connect	 = cma_ib_connect,
	.accept		 = cma_ib_accept,
	.reject		 = cma_ib_reject,
	.disconnect	 = cma_ib_disconnect,
	.init_qp_attr	 = cma_ib_init_qp_attr,
	.notify		 = cma_ib_notify,
	.destroy	 = cma_ib_destroy,
	.resolve_route	 = cma_ib_resolve_route,
	.join_multicast	 = cma_ib_join_multicast,
	.leave_multicast = cma_ib_leave_multicast,
	.reject_msg	 = cma_ib_reject_msg,
	.consumer_reject = cma_ib_consumer_reject,
};
