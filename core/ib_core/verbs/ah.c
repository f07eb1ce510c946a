// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Address handles and address vectors (struct rdma_ah_attr).
 *
 * An address vector with a GRH refers to a source GID entry of the GID
 * cache.  An attribute that holds grh.sgid_attr owns one reference on
 * it; the copy, replace and move helpers keep that count exact, and
 * rdma_destroy_ah_attr() drops it.  An AH and a QP path hold references
 * of their own for as long as they use the entry.
 */

#include <linux/export.h>
#include <linux/if_ether.h>
#include <net/ipv6.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#include "verbs_priv.h"

/**
 * rdma_destroy_ah_attr - drop the GID reference of an address vector
 * @ah_attr: the attribute; may hold no reference
 *
 * Context: Any context; does not sleep. Dropping the last reference on the GID
 * entry takes the GID table's rwlock for write.
 */
void rdma_destroy_ah_attr(struct rdma_ah_attr *ah_attr)
{
	if (ah_attr->grh.sgid_attr) {
		rdma_put_gid_attr(ah_attr->grh.sgid_attr);
		ah_attr->grh.sgid_attr = NULL;
	}
}
EXPORT_SYMBOL(rdma_destroy_ah_attr);

/**
 * rdma_move_grh_sgid_attr - fill the GRH and hand over a GID reference
 * @attr: the attribute, holding no reference
 * @dgid: destination GID
 * @flow_label: flow label
 * @hop_limit: hop limit
 * @traffic_class: traffic class
 * @sgid_attr: referenced source GID entry; the reference moves to @attr
 *
 * Context: Any context; takes no lock and does not sleep.
 */
void rdma_move_grh_sgid_attr(struct rdma_ah_attr *attr, union ib_gid *dgid,
			     u32 flow_label, u8 hop_limit, u8 traffic_class,
			     const struct ib_gid_attr *sgid_attr)
{
	rdma_ah_set_grh(attr, dgid, flow_label, sgid_attr->index, hop_limit,
			traffic_class);
	attr->grh.sgid_attr = sgid_attr;
}
EXPORT_SYMBOL(rdma_move_grh_sgid_attr);

/**
 * rdma_copy_ah_attr - copy an address vector
 * @dest: destination, holding no reference
 * @src: source
 *
 * @dest gets a reference of its own on the GID entry.
 *
 * Context: Any context; takes no lock and does not sleep.
 */
void rdma_copy_ah_attr(struct rdma_ah_attr *dest,
		       const struct rdma_ah_attr *src)
{
	*dest = *src;
	if (dest->grh.sgid_attr)
		rdma_hold_gid_attr(dest->grh.sgid_attr);
}
EXPORT_SYMBOL(rdma_copy_ah_attr);

/**
 * rdma_replace_ah_attr - overwrite an address vector with a copy
 * @old: destination; its reference is dropped
 * @new: source
 *
 * Context: Any context; does not sleep. As rdma_destroy_ah_attr() for the
 * reference of @old.
 */
void rdma_replace_ah_attr(struct rdma_ah_attr *old,
			  const struct rdma_ah_attr *new)
{
	rdma_destroy_ah_attr(old);
	rdma_copy_ah_attr(old, new);
}
EXPORT_SYMBOL(rdma_replace_ah_attr);

/**
 * rdma_move_ah_attr - move an address vector
 * @dest: destination; its reference is dropped
 * @src: source; its reference moves to @dest and it is left without one
 *
 * Context: Any context; does not sleep. As rdma_destroy_ah_attr() for the
 * reference of @dest.
 */
void rdma_move_ah_attr(struct rdma_ah_attr *dest, struct rdma_ah_attr *src)
{
	rdma_destroy_ah_attr(dest);
	*dest = *src;
	src->grh.sgid_attr = NULL;
}
EXPORT_SYMBOL(rdma_move_ah_attr);

/* The address vector must name a valid port and fit it. */
static int rdma_check_ah_attr(struct ib_device *device,
			      struct rdma_ah_attr *ah_attr)
{
	if (!rdma_is_port_valid(device, ah_attr->port_num))
		return -EINVAL;
	if ((ah_attr->type == RDMA_AH_ATTR_TYPE_ROCE ||
	     rdma_is_grh_required(device, ah_attr->port_num)) &&
	    !(ah_attr->ah_flags & IB_AH_GRH))
		return -EINVAL;
	if (ah_attr->grh.sgid_attr) {
		const struct ib_gid_attr *sgid_attr = ah_attr->grh.sgid_attr;

		if (sgid_attr->index != ah_attr->grh.sgid_index ||
		    sgid_attr->port_num != ah_attr->port_num ||
		    sgid_attr->device != device)
			return -EINVAL;
	}
	return 0;
}

/*
 * Callers give either a GID index or a referenced entry.  In the first
 * case look the entry up, put it in the attribute for the driver and
 * return it in *old so that rdma_unfill_sgid_attr() drops it again.
 */
int rdma_fill_sgid_attr(struct ib_device *device, struct rdma_ah_attr *ah_attr,
			const struct ib_gid_attr **old_sgid_attr)
{
	const struct ib_gid_attr *sgid_attr;
	struct ib_global_route *grh;
	int ret;

	*old_sgid_attr = ah_attr->grh.sgid_attr;

	ret = rdma_check_ah_attr(device, ah_attr);
	if (ret)
		return ret;
	if (!(ah_attr->ah_flags & IB_AH_GRH))
		return 0;

	grh = rdma_ah_retrieve_grh(ah_attr);
	if (grh->sgid_attr)
		return 0;

	sgid_attr = rdma_get_gid_attr(device, ah_attr->port_num,
				      grh->sgid_index);
	if (IS_ERR(sgid_attr))
		return PTR_ERR(sgid_attr);

	/* the caller's attribute borrows this reference until unfill */
	grh->sgid_attr = sgid_attr;
	return 0;
}

void rdma_unfill_sgid_attr(struct rdma_ah_attr *ah_attr,
			   const struct ib_gid_attr *old_sgid_attr)
{
	/* only a reference taken by rdma_fill_sgid_attr() is ours */
	if (ah_attr->grh.sgid_attr && ah_attr->grh.sgid_attr != old_sgid_attr)
		rdma_put_gid_attr(ah_attr->grh.sgid_attr);
	ah_attr->grh.sgid_attr = old_sgid_attr;
}

void rdma_update_sgid_attr(const struct ib_gid_attr **dst,
			   const struct ib_gid_attr *src)
{
	if (src)
		rdma_hold_gid_attr(src);
	if (*dst)
		rdma_put_gid_attr(*dst);
	*dst = src;
}

/* Is the interface ID of a link-local GID a modified EUI-64 (ff:fe)? */
static bool ll_gid_has_mac(const struct in6_addr *gid)
{
	return gid->s6_addr[11] == 0xff && gid->s6_addr[12] == 0xfe;
}

/**
 * ib_resolve_eth_dmac - find the destination MAC of a RoCE address vector
 * @device: the device
 * @ah_attr: a RoCE address vector with a GRH; unicast destinations need
 *	its source GID entry (grh.sgid_attr)
 *
 * - Multicast GIDs (IPv6 ff00::/8, IPv4-mapped 224.0.0.0/4) map to their
 *   Ethernet multicast MAC; the hop limit is left alone.
 * - Link-local GIDs carry the MAC in their interface ID: a RoCE v1 source
 *   always takes it from there, a RoCE v2 source when the interface ID is
 *   a modified EUI-64.  The hop limit becomes 1.
 * - Other unicast GIDs are resolved through the IP stack with
 *   rdma_addr_find_l2_eth_by_grh(): route from the source GID's net
 *   device, MAC of the neighbour, hop limit of the route.
 *
 * Context: Process context for a unicast destination that is not link-local:
 * it may sleep up to a second in rdma_addr_find_l2_eth_by_grh(). Multicast and
 * link-local destinations do not sleep. Takes no lock of its own.
 *
 * Return: 0 with roce.dmac filled (and grh.hop_limit set for unicast),
 * -EINVAL for an address vector that is not RoCE with a GRH or lacks the
 * source GID entry, or the error of rdma_addr_find_l2_eth_by_grh(), in
 * particular -ETIMEDOUT when the neighbour did not resolve within a
 * second.  May sleep for unicast destinations.
 */
int ib_resolve_eth_dmac(struct ib_device *device,
			struct rdma_ah_attr *ah_attr)
{
	struct ib_global_route *grh = &ah_attr->grh;
	const struct in6_addr *dgid = (const struct in6_addr *)grh->dgid.raw;
	const struct ib_gid_attr *sgid_attr = grh->sgid_attr;
	u8 *mac = ah_attr->roce.dmac;
	int hop_limit;
	int ret;

	if (ah_attr->type != RDMA_AH_ATTR_TYPE_ROCE ||
	    !(ah_attr->ah_flags & IB_AH_GRH))
		return -EINVAL;

	if (rdma_is_multicast_addr(dgid)) {
		if (ipv6_addr_v4mapped(dgid))
			ip_eth_mc_map(dgid->s6_addr32[3], mac);
		else
			rdma_get_mcast_mac(dgid, mac);
		return 0;
	}

	if (!sgid_attr)
		return -EINVAL;

	if (rdma_link_local_addr(dgid) &&
	    (sgid_attr->gid_type == IB_GID_TYPE_ROCE || ll_gid_has_mac(dgid))) {
		rdma_get_ll_mac(dgid, mac);
		grh->hop_limit = 1;
		return 0;
	}

	ret = rdma_addr_find_l2_eth_by_grh(&sgid_attr->gid, &grh->dgid, mac,
					   sgid_attr, &hop_limit);
	if (ret)
		return ret;
	grh->hop_limit = hop_limit;
	return 0;
}
EXPORT_SYMBOL(ib_resolve_eth_dmac);

static struct ib_ah *_rdma_create_ah(struct ib_pd *pd,
				     struct rdma_ah_attr *ah_attr, u32 flags,
				     struct ib_udata *udata)
{
	struct rdma_ah_init_attr init_attr = {};
	struct ib_device *device = pd->device;
	struct ib_ah *ah;
	int ret;

	might_sleep_if(flags & RDMA_CREATE_AH_SLEEPABLE);

	if (!udata && !device->ops.create_ah)
		return ERR_PTR(-EOPNOTSUPP);
	if (udata && !device->ops.create_user_ah)
		return ERR_PTR(-EOPNOTSUPP);

	ah = rdma_zalloc_drv_obj_gfp(device, ib_ah,
				     (flags & RDMA_CREATE_AH_SLEEPABLE) ?
				     GFP_KERNEL : GFP_ATOMIC);
	if (!ah)
		return ERR_PTR(-ENOMEM);

	ah->device = device;
	ah->pd = pd;
	ah->type = ah_attr->type;
	ah->sgid_attr = ah_attr->grh.sgid_attr;
	if (ah->sgid_attr)
		rdma_hold_gid_attr(ah->sgid_attr);

	init_attr.ah_attr = ah_attr;
	init_attr.flags = flags;

	if (udata)
		ret = device->ops.create_user_ah(ah, &init_attr, udata);
	else
		ret = device->ops.create_ah(ah, &init_attr, NULL);
	if (ret) {
		if (ah->sgid_attr)
			rdma_put_gid_attr(ah->sgid_attr);
		kfree(ah);
		return ERR_PTR(ret);
	}

	atomic_inc(&pd->usecnt);
	return ah;
}

/**
 * rdma_create_ah - create a kernel address handle
 * @pd: its PD
 * @ah_attr: the address vector; a GRH names its source GID by index or
 *	by a referenced entry
 * @flags: enum rdma_create_ah_flags
 *
 * A RoCE address vector must come with its destination MAC in roce.dmac,
 * as for upstream kernel callers: ib_resolve_eth_dmac() finds it, and
 * ib_create_ah_from_wc() and rdma_create_user_ah() call it themselves.
 *
 * Context: With RDMA_CREATE_AH_SLEEPABLE in @flags, process context: it may
 * sleep (GFP_KERNEL, the driver's create_ah op). Without it, any context: the
 * AH is allocated with GFP_ATOMIC and the driver's op must not sleep. Looking
 * up the source GID takes the GID table's rwlock for read.
 *
 * Return: the AH or an ERR_PTR().
 */
struct ib_ah *rdma_create_ah(struct ib_pd *pd, struct rdma_ah_attr *ah_attr,
			     u32 flags)
{
	const struct ib_gid_attr *old_sgid_attr;
	struct ib_ah *ah;
	int ret;

	ret = rdma_fill_sgid_attr(pd->device, ah_attr, &old_sgid_attr);
	if (ret)
		return ERR_PTR(ret);

	ah = _rdma_create_ah(pd, ah_attr, flags, NULL);

	rdma_unfill_sgid_attr(ah_attr, old_sgid_attr);
	return ah;
}
EXPORT_SYMBOL(rdma_create_ah);

/**
 * rdma_create_user_ah - create an address handle for user space
 * @pd: its PD
 * @ah_attr: the address vector
 * @udata: the user's data
 *
 * RoCE address vectors get their destination MAC resolved here (user
 * space does not know it).
 *
 * Context: Process context; sleeps (GFP_KERNEL, the driver's create_user_ah
 * op, and for RoCE the neighbour resolution of ib_resolve_eth_dmac()).
 *
 * Return: the AH or an ERR_PTR().
 */
struct ib_ah *rdma_create_user_ah(struct ib_pd *pd,
				  struct rdma_ah_attr *ah_attr,
				  struct ib_udata *udata)
{
	const struct ib_gid_attr *old_sgid_attr;
	struct ib_ah *ah;
	int ret;

	ret = rdma_fill_sgid_attr(pd->device, ah_attr, &old_sgid_attr);
	if (ret)
		return ERR_PTR(ret);

	if (ah_attr->type == RDMA_AH_ATTR_TYPE_ROCE) {
		ret = ib_resolve_eth_dmac(pd->device, ah_attr);
		if (ret) {
			ah = ERR_PTR(ret);
			goto out;
		}
	}

	ah = _rdma_create_ah(pd, ah_attr, RDMA_CREATE_AH_SLEEPABLE, udata);
out:
	rdma_unfill_sgid_attr(ah_attr, old_sgid_attr);
	return ah;
}
EXPORT_SYMBOL(rdma_create_user_ah);

/**
 * rdma_modify_ah - change the address vector of an AH
 * @ah: the AH
 * @ah_attr: the new address vector
 *
 * Context: Process context. Calls the driver's modify_ah op, which may sleep;
 * looking up the source GID takes the GID table's rwlock for read.
 *
 * Return: 0, -EOPNOTSUPP when the driver cannot, or another error.
 */
int rdma_modify_ah(struct ib_ah *ah, struct rdma_ah_attr *ah_attr)
{
	const struct ib_gid_attr *old_sgid_attr;
	int ret;

	ret = rdma_fill_sgid_attr(ah->device, ah_attr, &old_sgid_attr);
	if (ret)
		return ret;

	ret = ah->device->ops.modify_ah ?
		ah->device->ops.modify_ah(ah, ah_attr) : -EOPNOTSUPP;

	if (!ret)
		rdma_update_sgid_attr(&ah->sgid_attr, ah_attr->grh.sgid_attr);
	rdma_unfill_sgid_attr(ah_attr, old_sgid_attr);
	return ret;
}
EXPORT_SYMBOL(rdma_modify_ah);

/**
 * rdma_query_ah - read the address vector of an AH
 * @ah: the AH
 * @ah_attr: filled by the driver; holds no GID reference
 *
 * Context: Process context. Calls the driver's query_ah op, which may sleep;
 * the core takes no lock.
 *
 * Return: 0, or -EOPNOTSUPP when the driver cannot.
 */
int rdma_query_ah(struct ib_ah *ah, struct rdma_ah_attr *ah_attr)
{
	ah_attr->grh.sgid_attr = NULL;

	return ah->device->ops.query_ah ?
		ah->device->ops.query_ah(ah, ah_attr) : -EOPNOTSUPP;
}
EXPORT_SYMBOL(rdma_query_ah);

/**
 * rdma_destroy_ah_user - destroy an address handle
 * @ah: the AH
 * @flags: enum rdma_destroy_ah_flags
 * @udata: user data, NULL for kernel AHs
 *
 * Context: With RDMA_DESTROY_AH_SLEEPABLE in @flags, process context: the
 * driver's destroy_ah op may sleep. Without it, any context: the driver's op
 * must not sleep. Dropping the GID reference may take the GID table's rwlock
 * for write.
 *
 * Return: 0 or the driver's error.
 */
int rdma_destroy_ah_user(struct ib_ah *ah, u32 flags, struct ib_udata *udata)
{
	const struct ib_gid_attr *sgid_attr = ah->sgid_attr;
	struct ib_pd *pd = ah->pd;
	int ret;

	might_sleep_if(flags & RDMA_DESTROY_AH_SLEEPABLE);

	ret = ah->device->ops.destroy_ah(ah, flags);
	if (ret)
		return ret;

	atomic_dec(&pd->usecnt);
	if (sgid_attr)
		rdma_put_gid_attr(sgid_attr);
	kfree(ah);
	return 0;
}
EXPORT_SYMBOL(rdma_destroy_ah_user);

/**
 * ib_get_rdma_header_version - IP version of a received network header
 * @hdr: the 40 bytes in front of a UD receive
 *
 * A RoCE v2 IPv4 header fills the last 20 bytes; the first 20 are then
 * undefined.  So a first byte that does not say IPv6 means IPv4 if the
 * header there says so; one that says IPv6 may still be garbage in front
 * of an IPv4 header, which must then have no options and a valid
 * checksum.
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: 4 for an IPv4 header, 6 for an IPv6 header (or a GRH), 0 for
 * neither.
 */
int ib_get_rdma_header_version(const union rdma_network_hdr *hdr)
{
	const struct iphdr *ip4h = &hdr->roce4grh;
	const struct ipv6hdr *ip6h = (const struct ipv6hdr *)&hdr->ibgrh;
	struct iphdr ip4h_checked;

	if (ip6h->version != 6)
		return ip4h->version == 4 ? 4 : 0;
	if (ip4h->ihl != 5)
		return 6;

	/* the header may sit in a buffer the caller cannot write */
	memcpy(&ip4h_checked, ip4h, sizeof(ip4h_checked));
	ip4h_checked.check = 0;
	ip4h_checked.check = ip_fast_csum((u8 *)&ip4h_checked, 5);
	return ip4h->check == ip4h_checked.check ? 4 : 6;
}
EXPORT_SYMBOL(ib_get_rdma_header_version);

/*
 * What kind of network header a receive without IB_WC_WITH_NETWORK_HDR_TYPE
 * has: a GRH on InfiniBand; on RoCE an IPv4 header, an IPv6 header with
 * UDP after it (RoCE v2), or a GRH (RoCE v1, whose next header is the BTH).
 */
static enum rdma_network_type net_type_of_grh(struct ib_device *device,
					      u32 port_num,
					      const struct ib_grh *grh)
{
	int version;

	if (rdma_protocol_ib(device, port_num))
		return RDMA_NETWORK_IB;
	version = ib_get_rdma_header_version((const union rdma_network_hdr *)
					     grh);
	if (version == 4)
		return RDMA_NETWORK_IPV4;
	if (grh->next_hdr == IPPROTO_UDP)
		return RDMA_NETWORK_IPV6;
	return RDMA_NETWORK_ROCE_V1;
}

/**
 * ib_get_gids_from_rdma_hdr - source and destination GID of a packet
 * @hdr: the 40 bytes in front of a UD receive
 * @net_type: what kind of header it is
 * @sgid: the source GID
 * @dgid: the destination GID
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: 0, or -EINVAL for an unknown @net_type.
 */
int ib_get_gids_from_rdma_hdr(const union rdma_network_hdr *hdr,
			      enum rdma_network_type net_type,
			      union ib_gid *sgid, union ib_gid *dgid)
{
	switch (net_type) {
	case RDMA_NETWORK_IPV4:
		ipv6_addr_set_v4mapped(hdr->roce4grh.saddr,
				       (struct in6_addr *)sgid);
		ipv6_addr_set_v4mapped(hdr->roce4grh.daddr,
				       (struct in6_addr *)dgid);
		return 0;
	case RDMA_NETWORK_IPV6:
	case RDMA_NETWORK_IB:
	case RDMA_NETWORK_ROCE_V1:
		*sgid = hdr->ibgrh.sgid;
		*dgid = hdr->ibgrh.dgid;
		return 0;
	default:
		return -EINVAL;
	}
}
EXPORT_SYMBOL(ib_get_gids_from_rdma_hdr);

static enum ib_gid_type gid_type_of_net(enum rdma_network_type net_type)
{
	if (net_type == RDMA_NETWORK_IPV4 || net_type == RDMA_NETWORK_IPV6)
		return IB_GID_TYPE_ROCE_UDP_ENCAP;
	if (net_type == RDMA_NETWORK_ROCE_V1)
		return IB_GID_TYPE_ROCE;
	return IB_GID_TYPE_IB;
}

/* The GID type and VLAN a received packet's local GID must have. */
struct sgid_match {
	enum ib_gid_type	gid_type;
	u16			vlan_id;
};

static bool sgid_matches(const union ib_gid *gid,
			 const struct ib_gid_attr *attr, void *context)
{
	const struct sgid_match *m = context;
	u16 vlan_id;

	if (attr->gid_type != m->gid_type)
		return false;
	/* Under the table's read lock: the entry and its ndev are stable. */
	if (rdma_read_gid_l2_fields(attr, &vlan_id, NULL))
		return false;
	return vlan_id == m->vlan_id;
}

/**
 * ib_init_ah_attr_from_wc - the address vector that answers a receive
 * @device: the device
 * @port_num: the port it arrived on
 * @wc: the receive completion
 * @grh: the received GRH (or IP header), when @wc has IB_WC_GRH
 * @ah_attr: filled; on success it holds a reference on the source GID
 *	entry when it has a GRH (release with rdma_destroy_ah_attr())
 *
 * The reply goes back to the sender: the received destination GID is
 * the local source GID of the answer.
 *
 * On RoCE the local GID is the one of the packet's type whose net device
 * is on the VLAN the packet came in on (@wc's vlan_id with
 * IB_WC_WITH_VLAN, untagged otherwise), and the destination MAC and hop
 * limit are resolved like those of any address vector
 * (ib_resolve_eth_dmac(): through the neighbour table, or from a
 * link-local GID); a source MAC in @wc is not trusted for it, as upstream.
 *
 * Context: Process context on RoCE: the MAC resolution may sleep up to a
 * second. On InfiniBand any context. Looking up the source GID takes the
 * GID table's rwlock for read.
 *
 * Return: 0 or a negative error: -EPROTOTYPE for a RoCE receive without
 * IB_WC_GRH, -EINVAL without @grh, -ENOENT when no local GID matches,
 * or the error of the MAC resolution.
 */
int ib_init_ah_attr_from_wc(struct ib_device *device, u32 port_num,
			    const struct ib_wc *wc, const struct ib_grh *grh,
			    struct rdma_ah_attr *ah_attr)
{
	const struct ib_gid_attr *sgid_attr;
	enum rdma_network_type net_type;
	union ib_gid dgid, sgid;
	u32 flow_class;
	int ret;

	memset(ah_attr, 0, sizeof(*ah_attr));
	ah_attr->type = rdma_ah_find_type(device, port_num);

	if (rdma_protocol_roce(device, port_num)) {
		struct sgid_match match = {
			.vlan_id = wc->wc_flags & IB_WC_WITH_VLAN ?
				   wc->vlan_id : 0xffff,
		};

		if (!(wc->wc_flags & IB_WC_GRH))
			return -EPROTOTYPE;
		/* RoCE always has a network header in front of the payload */
		if (!grh)
			return -EINVAL;
		net_type = (wc->wc_flags & IB_WC_WITH_NETWORK_HDR_TYPE) ?
			wc->network_hdr_type :
			net_type_of_grh(device, port_num, grh);
		ret = ib_get_gids_from_rdma_hdr((const union rdma_network_hdr *)
						grh, net_type, &sgid, &dgid);
		if (ret)
			return ret;

		rdma_ah_set_sl(ah_attr, wc->sl);
		rdma_ah_set_port_num(ah_attr, port_num);

		match.gid_type = gid_type_of_net(net_type);
		sgid_attr = rdma_find_gid_by_filter(device, &dgid, port_num,
						    sgid_matches, &match);
		if (IS_ERR(sgid_attr))
			return PTR_ERR(sgid_attr);

		flow_class = be32_to_cpu(grh->version_tclass_flow);
		rdma_move_grh_sgid_attr(ah_attr, &sgid, flow_class & 0xFFFFF,
					0xFF, (flow_class >> 20) & 0xFF,
					sgid_attr);
		ret = ib_resolve_eth_dmac(device, ah_attr);
		if (ret)
			rdma_destroy_ah_attr(ah_attr);
		return ret;
	}

	rdma_ah_set_dlid(ah_attr, wc->slid);
	rdma_ah_set_sl(ah_attr, wc->sl);
	rdma_ah_set_path_bits(ah_attr, wc->dlid_path_bits);
	rdma_ah_set_port_num(ah_attr, port_num);

	if (wc->wc_flags & IB_WC_GRH) {
		if (!grh)
			return -EINVAL;
		sgid = grh->sgid;
		dgid = grh->dgid;
		if (dgid.raw[0] == 0xff)
			sgid_attr = rdma_get_gid_attr(device, port_num, 0);
		else
			sgid_attr = rdma_find_gid_by_port(device, &dgid,
							  IB_GID_TYPE_IB,
							  port_num, NULL);
		if (IS_ERR(sgid_attr))
			return PTR_ERR(sgid_attr);

		flow_class = be32_to_cpu(grh->version_tclass_flow);
		rdma_move_grh_sgid_attr(ah_attr, &sgid, flow_class & 0xFFFFF,
					0xFF, (flow_class >> 20) & 0xFF,
					sgid_attr);
	}
	return 0;
}
EXPORT_SYMBOL(ib_init_ah_attr_from_wc);

/**
 * ib_create_ah_from_wc - create the AH that answers a receive
 * @pd: PD of the AH
 * @wc: the receive completion
 * @grh: the received GRH, when @wc has IB_WC_GRH
 * @port_num: the port it arrived on
 *
 * Context: Process context; may sleep (ib_init_ah_attr_from_wc() and
 * rdma_create_ah() with RDMA_CREATE_AH_SLEEPABLE).
 *
 * Return: the AH or an ERR_PTR().
 */
struct ib_ah *ib_create_ah_from_wc(struct ib_pd *pd, const struct ib_wc *wc,
				   const struct ib_grh *grh, u32 port_num)
{
	struct rdma_ah_attr ah_attr;
	struct ib_ah *ah;
	int ret;

	ret = ib_init_ah_attr_from_wc(pd->device, port_num, wc, grh, &ah_attr);
	if (ret)
		return ERR_PTR(ret);

	ah = rdma_create_ah(pd, &ah_attr, RDMA_CREATE_AH_SLEEPABLE);
	rdma_destroy_ah_attr(&ah_attr);
	return ah;
}
EXPORT_SYMBOL(ib_create_ah_from_wc);
