/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * IP address translation for RDMA (core/ib_core/addr.c): from an IP destination
 * to the net device that reaches it and the link-layer address of the
 * next hop, as RoCE address vectors and rdma_cm need them; plus the
 * conversions between GIDs, IP addresses and MAC addresses that RoCE
 * defines.
 */
#ifndef IB_ADDR_H
#define IB_ADDR_H

#include <linux/if_arp.h>
#include <linux/if_ether.h>
#include <linux/if_vlan.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/netdevice.h>
#include <linux/socket.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>

/**
 * struct rdma_dev_addr - the link-layer side of an address resolution
 * @src_dev_addr: hardware address of the local net device
 * @dst_dev_addr: hardware address of the next hop (filled by resolution)
 * @broadcast: broadcast address of the local net device
 * @dev_type: ARPHRD_* type of the local net device
 * @bound_dev_if: ifindex of the local net device; when set before a
 *	resolution, the route must leave through it
 * @transport: RDMA transport of the device that will use the address
 * @net: network namespace to resolve in; must be set
 * @sgid_attr: source GID entry, for resolutions "by GID attribute": the
 *	namespace and device then come from its net device
 * @network: RDMA_NETWORK_IPV4 or _IPV6 when the route goes through a
 *	gateway (so only RoCE v2 can use it), RDMA_NETWORK_IB otherwise
 * @hoplimit: IPv4 TTL or IPv6 hop limit of the route
 */
struct rdma_dev_addr {
	unsigned char src_dev_addr[MAX_ADDR_LEN];
	unsigned char dst_dev_addr[MAX_ADDR_LEN];
	unsigned char broadcast[MAX_ADDR_LEN];
	unsigned short dev_type;
	int bound_dev_if;
	enum rdma_transport_type transport;
	struct net *net;
	const struct ib_gid_attr *sgid_attr;
	enum rdma_network_type network;
	int hoplimit;
};

int rdma_translate_ip(const struct sockaddr *addr,
		      struct rdma_dev_addr *dev_addr);
int rdma_resolve_ip(struct sockaddr *src_addr, const struct sockaddr *dst_addr,
		    struct rdma_dev_addr *addr, unsigned long timeout_ms,
		    void (*callback)(int status, struct sockaddr *src_addr,
				     struct rdma_dev_addr *addr, void *context),
		    bool resolve_by_gid_attr, void *context);
void rdma_addr_cancel(struct rdma_dev_addr *addr);
void rdma_copy_src_l2_addr(struct rdma_dev_addr *dev_addr,
			   const struct net_device *dev);
int rdma_addr_size(const struct sockaddr *addr);
int rdma_addr_size_in6(struct sockaddr_in6 *addr);
int rdma_addr_size_kss(struct __kernel_sockaddr_storage *addr);
int rdma_addr_find_l2_eth_by_grh(const union ib_gid *sgid,
				 const union ib_gid *dgid,
				 u8 *dmac, const struct ib_gid_attr *sgid_attr,
				 int *hoplimit);

/**
 * rdma_ip2gid - the GID of an IP address
 * @addr: an AF_INET or AF_INET6 socket address
 * @gid: set to the address; IPv4 becomes ::ffff:a.b.c.d
 *
 * Return: 0, or -EINVAL for another family.
 */
static inline int rdma_ip2gid(const struct sockaddr *addr, union ib_gid *gid)
{
	if (addr->sa_family == AF_INET) {
		const struct sockaddr_in *sin = (const struct sockaddr_in *)addr;

		ipv6_addr_set_v4mapped(sin->sin_addr.s_addr,
				       (struct in6_addr *)gid->raw);
		return 0;
	}
	if (addr->sa_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 =
			(const struct sockaddr_in6 *)addr;

		memcpy(gid->raw, &sin6->sin6_addr, sizeof(gid->raw));
		return 0;
	}
	return -EINVAL;
}

/**
 * rdma_gid2ip - the IP socket address of a GID
 * @out: room for a struct sockaddr_in6; set to AF_INET for an
 *	IPv4-mapped GID, to AF_INET6 otherwise, port and scope zero
 * @gid: the GID
 *
 * Pass the whole storage cast to struct sockaddr * (a sockaddr_storage,
 * a sockaddr_in6 or a union holding one), never the address of a
 * struct sockaddr member: FORTIFY_SOURCE checks the memset() against
 * the size of the object @out points into, and a struct sockaddr is
 * smaller than a struct sockaddr_in6.
 */
static inline void rdma_gid2ip(struct sockaddr *out, const union ib_gid *gid)
{
	const struct in6_addr *a = (const struct in6_addr *)gid->raw;

	if (ipv6_addr_v4mapped(a)) {
		struct sockaddr_in *sin = (struct sockaddr_in *)out;

		memset(sin, 0, sizeof(*sin));
		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = a->s6_addr32[3];
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)out;

		memset(sin6, 0, sizeof(*sin6));
		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr = *a;
	}
}

/**
 * rdma_link_local_addr - is a GID in fe80::/64?
 * @addr: the GID as an IPv6 address
 *
 * Return: true for a link-local GID.
 */
static inline bool rdma_link_local_addr(const struct in6_addr *addr)
{
	return addr->s6_addr32[0] == htonl(0xfe800000) &&
	       addr->s6_addr32[1] == 0;
}

/**
 * rdma_get_ll_mac - the MAC address inside a link-local GID
 * @addr: a link-local GID whose interface ID is a modified EUI-64
 * @mac: ETH_ALEN bytes, set to the MAC it was made from
 */
static inline void rdma_get_ll_mac(const struct in6_addr *addr, u8 *mac)
{
	/* EUI-64 = mac[0..2] ^ U/L bit, ff:fe, mac[3..5] */
	mac[0] = addr->s6_addr[8] ^ 0x02;
	mac[1] = addr->s6_addr[9];
	mac[2] = addr->s6_addr[10];
	mac[3] = addr->s6_addr[13];
	mac[4] = addr->s6_addr[14];
	mac[5] = addr->s6_addr[15];
}

/**
 * rdma_is_multicast_addr - is a GID an IPv6 or IPv4-mapped multicast
 * address?
 * @addr: the GID as an IPv6 address
 *
 * Return: true for ff00::/8 and ::ffff:224.0.0.0/100.
 */
static inline bool rdma_is_multicast_addr(const struct in6_addr *addr)
{
	if (ipv6_addr_is_multicast(addr))
		return true;
	return ipv6_addr_v4mapped(addr) &&
	       ipv4_is_multicast(addr->s6_addr32[3]);
}

/**
 * rdma_get_mcast_mac - the Ethernet multicast MAC of an IPv6 multicast GID
 * @addr: the GID as an IPv6 address
 * @mac: ETH_ALEN bytes, set to 33:33 and the last 32 bits of @addr
 */
static inline void rdma_get_mcast_mac(const struct in6_addr *addr, u8 *mac)
{
	ipv6_eth_mc_map(addr, (char *)mac);
}

/**
 * rdma_vlan_dev_vlan_id - the VLAN ID of a net device
 * @dev: the net device
 *
 * Return: its VLAN ID if it is a VLAN device, 0xffff otherwise.
 */
static inline u16 rdma_vlan_dev_vlan_id(const struct net_device *dev)
{
	return is_vlan_dev(dev) ? vlan_dev_vlan_id(dev) : 0xffff;
}

/**
 * rdma_vlan_dev_real_dev - the device below a VLAN device
 * @dev: the net device
 *
 * Return: the real device of a VLAN device, NULL for another device.
 */
static inline struct net_device *rdma_vlan_dev_real_dev(const struct net_device *dev)
{
	return is_vlan_dev(dev) ? vlan_dev_real_dev(dev) : NULL;
}

/**
 * rdma_is_upper_dev_rcu - is a net device stacked above another?
 * @dev: the lower net device
 * @upper: the candidate upper device
 *
 * Call under rcu_read_lock().
 *
 * Return: true when @upper is above @dev, directly or not.
 */
static inline bool rdma_is_upper_dev_rcu(struct net_device *dev,
					 struct net_device *upper)
{
	return netdev_has_upper_dev_all_rcu(dev, upper);
}

/*
 * The GIDs and P_Key of an IB address resolution.  On IPoIB the hardware
 * address (struct rdma_dev_addr's src_dev_addr, dst_dev_addr) is four
 * bytes of flags and QPN followed by the port GID, and the broadcast
 * address carries the P_Key in bytes 8 and 9 and the broadcast group's
 * MGID from byte 4 (RFC 4391); rdma_cm fills the same fields for AF_IB
 * addresses, which have no net device.  Elsewhere the GID starts at 0.
 */

/**
 * rdma_addr_gid_offset - where the GID starts in a hardware address
 * @dev_addr: the resolution
 *
 * Return: 4 for an IPoIB (ARPHRD_INFINIBAND) address, 0 otherwise.
 */
static inline int rdma_addr_gid_offset(const struct rdma_dev_addr *dev_addr)
{
	return dev_addr->dev_type == ARPHRD_INFINIBAND ? 4 : 0;
}

/**
 * ib_addr_get_pkey - the P_Key of an IB resolution
 * @dev_addr: the resolution
 *
 * Return: the P_Key in the broadcast address (host order).
 */
static inline u16 ib_addr_get_pkey(const struct rdma_dev_addr *dev_addr)
{
	return ((u16)dev_addr->broadcast[8] << 8) | dev_addr->broadcast[9];
}

/**
 * ib_addr_set_pkey - set the P_Key of an IB resolution
 * @dev_addr: the resolution
 * @pkey: the P_Key (host order)
 */
static inline void ib_addr_set_pkey(struct rdma_dev_addr *dev_addr, u16 pkey)
{
	dev_addr->broadcast[8] = pkey >> 8;
	dev_addr->broadcast[9] = pkey & 0xff;
}

/**
 * ib_addr_get_mgid - the broadcast group's MGID of an IPoIB resolution
 * @dev_addr: the resolution
 * @gid: set to the MGID
 */
static inline void ib_addr_get_mgid(const struct rdma_dev_addr *dev_addr,
				    union ib_gid *gid)
{
	memcpy(gid, dev_addr->broadcast + 4, sizeof(*gid));
}

/**
 * rdma_addr_get_sgid - the source GID of a resolution
 * @dev_addr: the resolution
 * @gid: set to the GID in the source hardware address
 */
static inline void rdma_addr_get_sgid(const struct rdma_dev_addr *dev_addr,
				      union ib_gid *gid)
{
	memcpy(gid, dev_addr->src_dev_addr + rdma_addr_gid_offset(dev_addr),
	       sizeof(*gid));
}

/**
 * rdma_addr_set_sgid - set the source GID of a resolution
 * @dev_addr: the resolution (its dev_type set first)
 * @gid: the GID
 */
static inline void rdma_addr_set_sgid(struct rdma_dev_addr *dev_addr,
				      const union ib_gid *gid)
{
	memcpy(dev_addr->src_dev_addr + rdma_addr_gid_offset(dev_addr), gid,
	       sizeof(*gid));
}

/**
 * rdma_addr_get_dgid - the destination GID of a resolution
 * @dev_addr: the resolution
 * @gid: set to the GID in the destination hardware address
 */
static inline void rdma_addr_get_dgid(const struct rdma_dev_addr *dev_addr,
				      union ib_gid *gid)
{
	memcpy(gid, dev_addr->dst_dev_addr + rdma_addr_gid_offset(dev_addr),
	       sizeof(*gid));
}

/**
 * rdma_addr_set_dgid - set the destination GID of a resolution
 * @dev_addr: the resolution (its dev_type set first)
 * @gid: the GID
 */
static inline void rdma_addr_set_dgid(struct rdma_dev_addr *dev_addr,
				      const union ib_gid *gid)
{
	memcpy(dev_addr->dst_dev_addr + rdma_addr_gid_offset(dev_addr), gid,
	       sizeof(*gid));
}

#endif /* IB_ADDR_H */
