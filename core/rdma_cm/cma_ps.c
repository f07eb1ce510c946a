// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_cm port spaces: each network namespace has one table of ports per
 * port space (TCP, UDP, IPoIB, IB), an xarray from port to the
 * rdma_bind_list of the ids sharing it.  All of it is under cma_lock.
 * Ids hold a reference on their namespace, so a namespace's tables are
 * empty by the time it goes away.
 */

#include <linux/if_arp.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <rdma/ib_cache.h>

#include "cma_priv.h"

/**
 * struct cma_pernet - the port tables of one namespace (cma_lock)
 * @tcp_ps: RDMA_PS_TCP
 * @udp_ps: RDMA_PS_UDP
 * @ipoib_ps: RDMA_PS_IPOIB
 * @ib_ps: RDMA_PS_IB
 */
struct cma_pernet {
	struct xarray tcp_ps;
	struct xarray udp_ps;
	struct xarray ipoib_ps;
	struct xarray ib_ps;
};

static unsigned int cma_pernet_id;

static struct xarray *cma_ps_table(struct net *net,
				   enum rdma_ucm_port_space ps)
{
	struct cma_pernet *pernet = net_generic(net, cma_pernet_id);

	switch (ps) {
	case RDMA_PS_TCP:
		return &pernet->tcp_ps;
	case RDMA_PS_UDP:
		return &pernet->udp_ps;
	case RDMA_PS_IPOIB:
		return &pernet->ipoib_ps;
	case RDMA_PS_IB:
		return &pernet->ib_ps;
	default:
		return NULL;
	}
}

static __net_init int cma_pernet_init(struct net *net)
{
	struct cma_pernet *pernet = net_generic(net, cma_pernet_id);

	xa_init(&pernet->tcp_ps);
	xa_init(&pernet->udp_ps);
	xa_init(&pernet->ipoib_ps);
	xa_init(&pernet->ib_ps);
	return 0;
}

static __net_exit void cma_pernet_exit(struct net *net)
{
	struct cma_pernet *pernet = net_generic(net, cma_pernet_id);

	/* Every id holds its namespace: nothing can be bound any more. */
	WARN_ON(!xa_empty(&pernet->tcp_ps));
	WARN_ON(!xa_empty(&pernet->udp_ps));
	WARN_ON(!xa_empty(&pernet->ipoib_ps));
	WARN_ON(!xa_empty(&pernet->ib_ps));
}

static struct pernet_operations cma_pernet_operations = {
	.init = cma_pernet_init,
	.exit = cma_pernet_exit,
	.id = &cma_pernet_id,
	.size = sizeof(struct cma_pernet),
};

int cma_net_init(void)
{
	return register_pernet_subsys(&cma_pernet_operations);
}

void cma_net_exit(void)
{
	unregister_pernet_subsys(&cma_pernet_operations);
}

/* ------------------------------------------------------------------
 * Addresses
 */

/* The wildcard of the family: 0.0.0.0, ::, or the all-zero GID. */
bool cma_zero_addr(const struct sockaddr *addr)
{
	switch (addr->sa_family) {
	case AF_INET:
		return ipv4_is_zeronet(((struct sockaddr_in *)addr)->sin_addr.s_addr);
	case AF_INET6:
		return ipv6_addr_any(&((struct sockaddr_in6 *)addr)->sin6_addr);
	case AF_IB:
		return ib_addr_any(&((struct sockaddr_ib *)addr)->sib_addr);
	default:
		return false;
	}
}

bool cma_loopback_addr(const struct sockaddr *addr)
{
	switch (addr->sa_family) {
	case AF_INET:
		return ipv4_is_loopback(((struct sockaddr_in *)addr)->sin_addr.s_addr);
	case AF_INET6:
		return ipv6_addr_loopback(&((struct sockaddr_in6 *)addr)->sin6_addr);
	case AF_IB:
		return ib_addr_loopback(&((struct sockaddr_ib *)addr)->sib_addr);
	default:
		return false;
	}
}

/* No particular address: the wildcard, or loopback (this host), as upstream. */
bool cma_any_addr(const struct sockaddr *addr)
{
	return cma_zero_addr(addr) || cma_loopback_addr(addr);
}

/* The port; of an AF_IB address, the low 16 bits of its masked service ID. */
__be16 cma_port(const struct sockaddr *addr)
{
	const struct sockaddr_ib *sib;

	switch (addr->sa_family) {
	case AF_INET:
		return ((struct sockaddr_in *)addr)->sin_port;
	case AF_INET6:
		return ((struct sockaddr_in6 *)addr)->sin6_port;
	case AF_IB:
		sib = (const struct sockaddr_ib *)addr;
		return htons((u16)(be64_to_cpu(sib->sib_sid) &
				   be64_to_cpu(sib->sib_sid_mask)));
	default:
		return 0;
	}
}

/*
 * Set the port; an AF_IB address keeps the masked bits of its service
 * ID above the port and is then significant in full.
 */
static void cma_set_port(struct sockaddr *addr, u16 port)
{
	struct sockaddr_ib *sib;
	u64 sid, mask;

	switch (addr->sa_family) {
	case AF_INET:
		((struct sockaddr_in *)addr)->sin_port = htons(port);
		break;
	case AF_INET6:
		((struct sockaddr_in6 *)addr)->sin6_port = htons(port);
		break;
	case AF_IB:
		sib = (struct sockaddr_ib *)addr;
		sid = be64_to_cpu(sib->sib_sid);
		mask = be64_to_cpu(sib->sib_sid_mask);
		sib->sib_sid = cpu_to_be64((sid & mask) | port);
		sib->sib_sid_mask = cpu_to_be64(~0ULL);
		break;
	}
}

/*
 * 0 when @a and @b are the same address (ports not compared; IPv6
 * link-local addresses also need the same scope).
 */
int cma_addr_cmp(const struct sockaddr *a, const struct sockaddr *b)
{
	const struct sockaddr_in6 *a6 = (const struct sockaddr_in6 *)a;
	const struct sockaddr_in6 *b6 = (const struct sockaddr_in6 *)b;

	if (a->sa_family != b->sa_family)
		return -1;
	switch (a->sa_family) {
	case AF_INET:
		return ((struct sockaddr_in *)a)->sin_addr.s_addr !=
		       ((struct sockaddr_in *)b)->sin_addr.s_addr;
	case AF_INET6:
		if (ipv6_addr_cmp(&a6->sin6_addr, &b6->sin6_addr))
			return 1;
		if (ipv6_addr_type(&b6->sin6_addr) & IPV6_ADDR_LINKLOCAL)
			return a6->sin6_scope_id != b6->sin6_scope_id;
		return 0;
	default:
		return ib_addr_cmp(&((struct sockaddr_ib *)a)->sib_addr,
				   &((struct sockaddr_ib *)b)->sib_addr);
	}
}

/**
 * cma_translate_ib - the link-layer side of an AF_IB address
 * @sib: the address
 * @dev_addr: filled as IPoIB would: type ARPHRD_INFINIBAND, the GID as
 *	source GID, the P_Key
 */
void cma_translate_ib(const struct sockaddr_ib *sib,
		      struct rdma_dev_addr *dev_addr)
{
	dev_addr->dev_type = ARPHRD_INFINIBAND;
	rdma_addr_set_sgid(dev_addr, (const union ib_gid *)&sib->sib_addr);
	ib_addr_set_pkey(dev_addr, ntohs(sib->sib_pkey));
}

/* ------------------------------------------------------------------
 * Binding
 */

static void cma_bind_port(struct rdma_bind_list *bind_list,
			  struct rdma_id_private *id_priv)
{
	lockdep_assert_held(&cma_lock);
	cma_set_port(cma_src_addr(id_priv), bind_list->port);
	id_priv->bind_list = bind_list;
	hlist_add_head(&id_priv->node, &bind_list->owners);
}

static int cma_alloc_port(struct xarray *xa, enum rdma_ucm_port_space ps,
			  struct rdma_id_private *id_priv, unsigned short port)
{
	struct rdma_bind_list *bind_list;
	int ret;

	bind_list = kzalloc(sizeof(*bind_list), GFP_KERNEL);
	if (!bind_list)
		return -ENOMEM;
	bind_list->ps = ps;
	bind_list->port = port;
	ret = xa_insert(xa, port, bind_list, GFP_KERNEL);
	if (ret) {
		kfree(bind_list);
		return ret == -EBUSY ? -EADDRINUSE : ret;
	}
	cma_bind_port(bind_list, id_priv);
	return 0;
}

/*
 * Whether @id_priv may join the ids already on @bind_list.  @reuseaddr is
 * the id's wish (0 when it is about to listen).  Two addresses of
 * different families never clash when both ids are af-only; a wildcard
 * clashes with everything (-EADDRNOTAVAIL), the same address with itself
 * (-EADDRINUSE), unless both ids allow reuse.
 */
static int cma_check_port(struct rdma_bind_list *bind_list,
			  struct rdma_id_private *id_priv, bool reuseaddr)
{
	struct sockaddr *addr = cma_src_addr(id_priv);
	struct rdma_id_private *cur;

	lockdep_assert_held(&cma_lock);
	hlist_for_each_entry(cur, &bind_list->owners, node) {
		struct sockaddr *cur_addr = cma_src_addr(cur);

		if (cur == id_priv)
			continue;
		if (reuseaddr && cur->reuseaddr)
			continue;
		if (id_priv->afonly && cur->afonly &&
		    addr->sa_family != cur_addr->sa_family)
			continue;
		if (cma_any_addr(addr) || cma_any_addr(cur_addr))
			return -EADDRNOTAVAIL;
		if (!cma_addr_cmp(addr, cur_addr))
			return -EADDRINUSE;
	}
	return 0;
}

/* Port 0: the first free port of the namespace's ephemeral range. */
static int cma_alloc_any_port(struct xarray *xa, enum rdma_ucm_port_space ps,
			      struct rdma_id_private *id_priv)
{
	struct net *net = cma_net(id_priv);
	unsigned int remaining, rover;
	int low, high;

	inet_get_local_port_range(net, &low, &high);
	remaining = high - low + 1;
	rover = get_random_u32_below(remaining) + low;
	for (; remaining; remaining--) {
		if (!inet_is_local_reserved_port(net, rover) &&
		    !xa_load(xa, rover))
			return cma_alloc_port(xa, ps, id_priv, rover);
		if (++rover > high)
			rover = low;
	}
	return -EADDRNOTAVAIL;
}

static int cma_use_port(struct xarray *xa, enum rdma_ucm_port_space ps,
			struct rdma_id_private *id_priv)
{
	unsigned short port = ntohs(cma_port(cma_src_addr(id_priv)));
	struct rdma_bind_list *bind_list;
	int ret;

	if (port < PROT_SOCK &&
	    !ns_capable(cma_net(id_priv)->user_ns, CAP_NET_BIND_SERVICE))
		return -EACCES;
	bind_list = xa_load(xa, port);
	if (!bind_list)
		return cma_alloc_port(xa, ps, id_priv, port);
	ret = cma_check_port(bind_list, id_priv, id_priv->reuseaddr);
	if (!ret)
		cma_bind_port(bind_list, id_priv);
	return ret;
}

/*
 * The port space of an AF_IB id: from the bits of its service ID that
 * its mask makes significant, among those its own port space may use
 * (RDMA_PS_IB may take any of the three); the service ID then carries
 * the space in full.  0 when none fits.
 */
static enum rdma_ucm_port_space cma_select_ib_ps(struct rdma_id_private *id_priv)
{
	struct sockaddr_ib *sib = (struct sockaddr_ib *)cma_src_addr(id_priv);
	enum rdma_ucm_port_space own = id_priv->id.ps;
	u64 mask = be64_to_cpu(sib->sib_sid_mask) & RDMA_IB_IP_PS_MASK;
	u64 sid = be64_to_cpu(sib->sib_sid) & mask;
	enum rdma_ucm_port_space ps;
	u64 prefix;

	if (own == RDMA_PS_IB && sid == (RDMA_IB_IP_PS_IB & mask)) {
		prefix = RDMA_IB_IP_PS_IB;
		ps = RDMA_PS_IB;
	} else if ((own == RDMA_PS_IB || own == RDMA_PS_TCP) &&
		   sid == (RDMA_IB_IP_PS_TCP & mask)) {
		prefix = RDMA_IB_IP_PS_TCP;
		ps = RDMA_PS_TCP;
	} else if ((own == RDMA_PS_IB || own == RDMA_PS_UDP) &&
		   sid == (RDMA_IB_IP_PS_UDP & mask)) {
		prefix = RDMA_IB_IP_PS_UDP;
		ps = RDMA_PS_UDP;
	} else {
		return 0;
	}
	sib->sib_sid = cpu_to_be64(prefix | ntohs(cma_port((struct sockaddr *)sib)));
	sib->sib_sid_mask = cpu_to_be64(RDMA_IB_IP_PS_MASK |
					be64_to_cpu(sib->sib_sid_mask));
	return ps;
}

/**
 * cma_get_port - take the port of an id's source address
 * @id_priv: the id; port 0 in its source address asks for any free port
 *
 * An AF_IB id's port space comes from its service ID (see
 * cma_select_ib_ps()); an IP id's is its own.
 *
 * Return: 0, -EADDRINUSE or -EADDRNOTAVAIL (see cma_check_port()),
 * -EACCES for a privileged port without CAP_NET_BIND_SERVICE,
 * -EPROTONOSUPPORT for an unknown port space or an AF_IB service ID
 * outside the id's, -ENOMEM.
 */
int cma_get_port(struct rdma_id_private *id_priv)
{
	enum rdma_ucm_port_space ps = id_priv->id.ps;
	struct xarray *xa;
	int ret;

	if (cma_family(id_priv) == AF_IB)
		ps = cma_select_ib_ps(id_priv);
	xa = ps ? cma_ps_table(cma_net(id_priv), ps) : NULL;
	if (!xa)
		return -EPROTONOSUPPORT;
	mutex_lock(&cma_lock);
	if (!cma_port(cma_src_addr(id_priv)))
		ret = cma_alloc_any_port(xa, ps, id_priv);
	else
		ret = cma_use_port(xa, ps, id_priv);
	mutex_unlock(&cma_lock);
	return ret;
}

/**
 * cma_ps_find - the ids bound to a port of a port space
 * @net: the namespace
 * @ps: the port space
 * @port: the port
 *
 * Caller holds cma_lock.
 *
 * Return: the bind list, or NULL when nobody holds the port.
 */
struct rdma_bind_list *cma_ps_find(struct net *net,
				   enum rdma_ucm_port_space ps,
				   unsigned short port)
{
	struct xarray *xa = cma_ps_table(net, ps);

	lockdep_assert_held(&cma_lock);
	return xa ? xa_load(xa, port) : NULL;
}

/* Give back the id's port (the last owner frees the bind list). */
void cma_release_port(struct rdma_id_private *id_priv)
{
	struct rdma_bind_list *bind_list = id_priv->bind_list;
	struct xarray *xa;

	if (!bind_list)
		return;
	xa = cma_ps_table(cma_net(id_priv), bind_list->ps);
	mutex_lock(&cma_lock);
	hlist_del(&id_priv->node);
	if (hlist_empty(&bind_list->owners)) {
		xa_erase(xa, bind_list->port);
		kfree(bind_list);
	}
	id_priv->bind_list = NULL;
	mutex_unlock(&cma_lock);
}

/**
 * cma_check_listen_port - may a reuseaddr id listen on its port?
 * @id_priv: the id, about to listen
 *
 * A listener shares its port with nobody: it succeeds only if no other
 * owner would clash without reuse, and then stops allowing reuse.
 *
 * Return: 0, -EADDRINUSE or -EADDRNOTAVAIL.
 */
int cma_check_listen_port(struct rdma_id_private *id_priv)
{
	int ret = 0;

	mutex_lock(&cma_lock);
	if (id_priv->reuseaddr && id_priv->bind_list) {
		ret = cma_check_port(id_priv->bind_list, id_priv, false);
		if (!ret)
			id_priv->reuseaddr = 0;
	}
	mutex_unlock(&cma_lock);
	return ret;
}

/* An IPv6 link-local address means nothing without its interface. */
static int cma_check_linklocal(struct rdma_dev_addr *dev_addr,
			       const struct sockaddr *addr)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)addr;

	if (addr->sa_family != AF_INET6 ||
	    !(ipv6_addr_type(&sin6->sin6_addr) & IPV6_ADDR_LINKLOCAL))
		return 0;
	if (!sin6->sin6_scope_id)
		return -EINVAL;
	dev_addr->bound_dev_if = sin6->sin6_scope_id;
	return 0;
}

/**
 * rdma_bind_addr - bind an id to a local address and port
 * @id: an idle id
 * @addr: IPv4, IPv6 or AF_IB address; the wildcard (and loopback, as
 *	upstream) binds to no device, port 0 picks a free port of the
 *	namespace's ephemeral range
 *
 * A specific IP address attaches the id to the RDMA device and port
 * whose net device owns it (on InfiniBand: the port whose GID the IPoIB
 * hardware address holds); an AF_IB address to the port with its GID.
 * An AF_IB id's port space follows from its service ID (sib_sid, the
 * bits sib_sid_mask sets; port 0 asks for any); afterwards the service
 * ID is significant in full.  See rdma_set_reuseaddr() and
 * rdma_set_afonly() for sharing a port.
 *
 * Context: process context; sleeps, takes cma_lock.
 * Return: 0; -EAFNOSUPPORT for other families; -EINVAL if the id is not
 * idle, a link-local IPv6 address has no scope, or an RDMA_PS_IPOIB id
 * names an address that is not on IPoIB; -EADDRNOTAVAIL when the address
 * is not local or no port is free; -ENODEV when no RDMA device serves
 * it; -EADDRINUSE / -EADDRNOTAVAIL on a port clash; -EACCES for a port
 * below 1024 without CAP_NET_BIND_SERVICE; -EPROTONOSUPPORT for an AF_IB
 * service ID outside the id's port space.
 */
int rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr)
{
	struct rdma_id_private *id_priv = to_id_priv(id);
	struct rdma_dev_addr *dev_addr = &id->route.addr.dev_addr;
	const struct ib_gid_attr *sgid_attr = NULL;
	struct cma_device *cma_dev = NULL;
	u32 port = 0;
	int ret;

	if (addr->sa_family != AF_INET && addr->sa_family != AF_INET6 &&
	    addr->sa_family != AF_IB)
		return -EAFNOSUPPORT;
	if (!cma_comp_exch(id_priv, RDMA_CM_IDLE, RDMA_CM_ADDR_BOUND))
		return -EINVAL;

	ret = cma_check_linklocal(dev_addr, addr);
	if (ret)
		goto err_state;
	memcpy(cma_src_addr(id_priv), addr, rdma_addr_size(addr));
	if (!cma_any_addr(addr)) {
		if (addr->sa_family == AF_IB)
			cma_translate_ib((struct sockaddr_ib *)addr, dev_addr);
		else
			ret = rdma_translate_ip(addr, dev_addr);
		if (ret)
			goto err_state;
		ret = cma_find_src_dev(id_priv, &cma_dev, &port, &sgid_attr);
		if (ret)
			goto err_state;
	}

	if (!(id_priv->options & BIT(CMA_OPTION_AFONLY))) {
		if (addr->sa_family == AF_INET)
			id_priv->afonly = 1;
#if IS_ENABLED(CONFIG_IPV6)
		else
			id_priv->afonly = READ_ONCE(cma_net(id_priv)->ipv6.sysctl.bindv6only);
#endif
	}
	cma_dst_addr(id_priv)->sa_family = addr->sa_family;

	ret = cma_get_port(id_priv);
	if (ret)
		goto err_dev;
	if (cma_dev) {
		ret = cma_attach_checked(id_priv, cma_dev, port, sgid_attr);
		sgid_attr = NULL;
		if (ret)
			goto err_port;
		cma_dev_put(cma_dev);
	}
	return 0;

err_port:
	cma_release_port(id_priv);
err_dev:
	if (sgid_attr)
		rdma_put_gid_attr(sgid_attr);
	if (cma_dev)
		cma_dev_put(cma_dev);
err_state:
	memset(&id->route.addr.src_addr, 0, sizeof(id->route.addr.src_addr));
	cma_comp_exch(id_priv, RDMA_CM_ADDR_BOUND, RDMA_CM_IDLE);
	return ret;
}
EXPORT_SYMBOL(rdma_bind_addr);

/**
 * cma_bind_any - bind an idle id to the wildcard of a family, any port
 * @id_priv: the id
 * @af: AF_INET, AF_INET6 or AF_IB
 *
 * Return: as rdma_bind_addr().
 */
int cma_bind_any(struct rdma_id_private *id_priv, sa_family_t af)
{
	struct sockaddr_storage any = {};

	any.ss_family = af;
	return rdma_bind_addr(&id_priv->id, (struct sockaddr *)&any);
}
