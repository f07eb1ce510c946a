// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rxe on the network: the RoCE v2 UDP sockets of each network namespace,
 * the RoCE v1 Ethertype, and the way out for a packet built by the
 * transport.
 *
 * RoCE v2: one UDP tunnel socket per address family on port 4791 in
 * each namespace that has a soft-RoCE device, made with its first device
 * and closed with its last (struct rxe_ns, rxe_ns_lock).  A namespace
 * that goes away closes its sockets first; its devices, unregistered
 * with their net devices, then find none to close.
 *
 * RoCE v1: a packet_type for Ethertype 0x8915, registered while the
 * module is loaded; it hands packets to the device on the net device
 * they came in on.
 *
 * Out: rxe_tx_skb() makes a transport packet: its headers in the linear
 * part, its payload referenced in place (the registered memory's pages
 * as page fragments) when the caller allows it (a request that completes
 * only once the peer acknowledged it, and READ responses: not UD or UC,
 * whose requests complete when they went and whose buffers are the
 * consumer's again then), the net device takes fragments (NETIF_F_SG)
 * and every byte sits in a page that can be referenced (sendpage_ok():
 * not a slab page, so not kmalloc() memory of a small size), else copied
 * after the headers; the padding and the ICRC are then a fragment of
 * their own (netdev_alloc_frag()).  The skb holds page references only,
 * no MR or SGE: a request may complete and its MR be deregistered and
 * its memory freed while the packet waits in a qdisc.  rxe_xmit_skb()
 * puts the network header (GRH, or IP and UDP) in front of the transport
 * packet, the ICRC at its end (computed over the linear part and the
 * fragments) and the Ethernet header with the destination MAC the core
 * resolved into the address vector, and queues the frame on the net
 * device of the source GID.
 *
 * A packet to the device's own MAC (one QP of the device talking to
 * another, or to itself) does not go out: the IP stack would drop a
 * datagram that comes in on an Ethernet device from one of the host's
 * own addresses, and a dummy device drops everything.  It waits on the
 * device's loopback queue (struct rxe_dev.loop_q) instead, whole, ICRC
 * included, for a work item on the BH workqueue that hands it to the
 * receive path, so that the transport is never entered again from its
 * own sending code.
 */
#include <linux/etherdevice.h>
#include <linux/crc32.h>
#include <linux/highmem.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <linux/vmalloc.h>
#include <linux/unaligned.h>
#include <net/addrconf.h>
#include <net/ip.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <net/route.h>
#include <net/udp_tunnel.h>
#include <rdma/ib_cache.h>

#include "rxe.h"

/**
 * struct rxe_ns - the RoCE v2 sockets of a network namespace
 * @list: entry in rxe_ns_list
 * @net: the namespace; NULL once it went away
 * @users: devices of the namespace holding it
 * @sk4: the IPv4 socket
 * @sk6: the IPv6 socket (NULL when IPv6 is off)
 *
 * All fields under rxe_ns_lock.
 */
struct rxe_ns {
	struct list_head	list;
	struct net		*net;
	unsigned int		users;
	struct socket		*sk4;
	struct socket		*sk6;
};

/* protects rxe_ns_list and every struct rxe_ns; process context */
static DEFINE_MUTEX(rxe_ns_lock);
static LIST_HEAD(rxe_ns_list);

/* The device an skb came in on, referenced; NULL if it has none. */
static struct rxe_dev *rxe_of_netdev(struct net_device *ndev)
{
	struct ib_device *ibdev;

	if (is_vlan_dev(ndev))
		ndev = vlan_dev_real_dev(ndev);
	ibdev = ib_device_get_by_netdev(ndev, RDMA_DRIVER_RXE);
	return ibdev ? to_rxe_dev(ibdev) : NULL;
}

/* A RoCE v2 packet: skb->data at the UDP header.  Softirq context. */
static int rxe_udp_encap_recv(struct sock *sk, struct sk_buff *skb)
{
	struct rxe_dev *rxe = rxe_of_netdev(skb->dev);

	if (!rxe)
		goto drop;
	if (skb->len < sizeof(struct udphdr) ||
	    (skb->protocol == htons(ETH_P_IP) ?
	     ip_hdr(skb)->ihl != 5 :
	     ipv6_hdr(skb)->nexthdr != IPPROTO_UDP)) {
		rxe_drop(rxe, RXE_DROP_HDR);
		ib_device_put(&rxe->rdi.ibdev);
		goto drop;
	}
	__skb_pull(skb, sizeof(struct udphdr));
	rxe_rcv(rxe, skb, skb->protocol == htons(ETH_P_IP) ? RXE_NH_IPV4 :
		RXE_NH_IPV6, true);
	ib_device_put(&rxe->rdi.ibdev);
	return 0;
drop:
	kfree_skb(skb);
	return 0;
}

/* A RoCE v1 packet: skb->data at the GRH.  Softirq context. */
static int rxe_v1_recv(struct sk_buff *skb, struct net_device *ndev,
		       struct packet_type *pt, struct net_device *orig)
{
	struct rxe_dev *rxe;
	struct rxe_grh *grh;
	u32 len;

	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb)
		return NET_RX_DROP;
	rxe = rxe_of_netdev(ndev);
	if (!rxe)
		goto drop;
	if (!pskb_may_pull(skb, sizeof(*grh)))
		goto bad;
	grh = (struct rxe_grh *)skb->data;
	len = be16_to_cpu(grh->paylen);
	if ((be32_to_cpu(grh->vtf) >> 28) != 6 ||
	    grh->next_hdr != RXE_GRH_NEXT_HDR ||
	    len > skb->len - sizeof(*grh))
		goto bad;
	skb_reset_network_header(skb);
	__skb_pull(skb, sizeof(*grh));
	/* Ethernet pads short frames */
	if (pskb_trim(skb, len))
		goto bad;
	rxe_rcv(rxe, skb, RXE_NH_GRH, true);
	ib_device_put(&rxe->rdi.ibdev);
	return NET_RX_SUCCESS;

bad:
	rxe_drop(rxe, RXE_DROP_HDR);
	ib_device_put(&rxe->rdi.ibdev);
drop:
	kfree_skb(skb);
	return NET_RX_DROP;
}

static struct packet_type rxe_v1_packet_type __read_mostly = {
	.type = cpu_to_be16(ETH_P_IBOE),
	.func = rxe_v1_recv,
};

static struct socket *rxe_udp_socket(struct net *net, bool ipv6)
{
	struct udp_tunnel_sock_cfg tnl = {
		.encap_type = 1,
		.encap_rcv = rxe_udp_encap_recv,
	};
	struct udp_port_cfg cfg = {
		.family = ipv6 ? AF_INET6 : AF_INET,
		.ipv6_v6only = ipv6,
		.local_udp_port = htons(RXE_ROCE_V2_PORT),
	};
	struct socket *sock;
	int ret;

	ret = udp_sock_create(net, &cfg, &sock);
	if (ret)
		return ERR_PTR(ret);
	setup_udp_tunnel_sock(net, sock, &tnl);
	return sock;
}

static void rxe_ns_close(struct rxe_ns *ns)
{
	if (ns->sk4)
		udp_tunnel_sock_release(ns->sk4);
	if (ns->sk6)
		udp_tunnel_sock_release(ns->sk6);
	ns->sk4 = NULL;
	ns->sk6 = NULL;
}

/**
 * rxe_ns_get - hold the RoCE v2 sockets of a device's namespace
 * @rxe: the device; its net device's namespace counts
 *
 * Makes the namespace's sockets with its first device.
 *
 * Context: process context; takes rxe_ns_lock, may sleep.
 * Return: 0, -ENOMEM, or the error of making a socket (-EADDRINUSE:
 * something else has UDP port 4791 in the namespace).
 */
int rxe_ns_get(struct rxe_dev *rxe)
{
	struct net *net = dev_net(rxe->ndev);
	struct rxe_ns *ns;
	int ret = 0;

	mutex_lock(&rxe_ns_lock);
	list_for_each_entry(ns, &rxe_ns_list, list)
		if (ns->net == net)
			goto found;
	ns = kzalloc(sizeof(*ns), GFP_KERNEL);
	if (!ns) {
		ret = -ENOMEM;
		goto out;
	}
	ns->net = net;
	ns->sk4 = rxe_udp_socket(net, false);
	if (IS_ERR(ns->sk4)) {
		ret = PTR_ERR(ns->sk4);
		ns->sk4 = NULL;
		goto err;
	}
	if (IS_ENABLED(CONFIG_IPV6)) {
		ns->sk6 = rxe_udp_socket(net, true);
		/* a namespace without IPv6 has RoCE v2 over IPv4 only */
		if (IS_ERR(ns->sk6)) {
			ret = PTR_ERR(ns->sk6);
			ns->sk6 = NULL;
			if (ret != -EAFNOSUPPORT)
				goto err;
			ret = 0;
		}
	}
	list_add(&ns->list, &rxe_ns_list);
found:
	ns->users++;
	rxe->ns = ns;
	goto out;
err:
	rxe_ns_close(ns);
	kfree(ns);
out:
	mutex_unlock(&rxe_ns_lock);
	return ret;
}

/**
 * rxe_ns_put - let go of what rxe_ns_get() held
 * @rxe: the device (holding nothing is allowed)
 *
 * Context: process context; takes rxe_ns_lock, may sleep (closing the
 * sockets with the namespace's last device).
 */
void rxe_ns_put(struct rxe_dev *rxe)
{
	struct rxe_ns *ns = rxe->ns;

	if (!ns)
		return;
	rxe->ns = NULL;
	mutex_lock(&rxe_ns_lock);
	if (!--ns->users) {
		rxe_ns_close(ns);
		list_del(&ns->list);
		kfree(ns);
	}
	mutex_unlock(&rxe_ns_lock);
}

/* A namespace goes: its sockets go with it, its devices hold the rest. */
static void __net_exit rxe_net_ns_exit(struct net *net)
{
	struct rxe_ns *ns;

	mutex_lock(&rxe_ns_lock);
	list_for_each_entry(ns, &rxe_ns_list, list) {
		if (ns->net != net)
			continue;
		rxe_ns_close(ns);
		ns->net = NULL;
		break;
	}
	mutex_unlock(&rxe_ns_lock);
}

static struct pernet_operations rxe_net_ops = {
	.exit = rxe_net_ns_exit,
};

/* The IPv4 and UDP headers in front of skb->data. */
static int rxe_push_ip4(struct sk_buff *skb, struct net_device *ndev,
			const struct ib_gid_attr *attr,
			const struct rdma_ah_attr *av, u16 sport)
{
	const struct ib_global_route *grh = rdma_ah_read_grh(av);
	struct flowi4 fl = {};
	struct udphdr *udph;
	struct iphdr *iph;
	struct rtable *rt;

	fl.flowi4_oif = ndev->ifindex;
	fl.saddr = *(__be32 *)&attr->gid.raw[12];
	fl.daddr = *(__be32 *)&grh->dgid.raw[12];
	fl.flowi4_proto = IPPROTO_UDP;
	rt = ip_route_output_key(dev_net(ndev), &fl);
	if (IS_ERR(rt))
		return -EHOSTUNREACH;
	ip_rt_put(rt);

	udph = skb_push(skb, sizeof(*udph));
	udph->source = htons(sport);
	udph->dest = htons(RXE_ROCE_V2_PORT);
	udph->len = htons(skb->len);
	udph->check = 0;
	iph = skb_push(skb, sizeof(*iph));
	skb_reset_network_header(skb);
	iph->version = 4;
	iph->ihl = sizeof(*iph) >> 2;
	iph->tos = grh->traffic_class;
	iph->tot_len = htons(skb->len);
	iph->frag_off = htons(IP_DF);
	iph->ttl = grh->hop_limit;
	iph->protocol = IPPROTO_UDP;
	iph->saddr = fl.saddr;
	iph->daddr = fl.daddr;
	__ip_select_ident(dev_net(ndev), iph, 1);
	ip_send_check(iph);
	skb->protocol = htons(ETH_P_IP);
	return 0;
}

/* The IPv6 and UDP headers in front of skb->data. */
static int rxe_push_ip6(struct rxe_dev *rxe, struct sk_buff *skb,
			struct net_device *ndev,
			const struct ib_gid_attr *attr,
			const struct rdma_ah_attr *av, u16 sport)
{
	const struct ib_global_route *grh = rdma_ah_read_grh(av);
	struct flowi6 fl6 = {};
	struct dst_entry *dst;
	struct ipv6hdr *ip6h;
	struct udphdr *udph;

	if (!IS_ENABLED(CONFIG_IPV6))
		return -EAFNOSUPPORT;
	fl6.flowi6_oif = ndev->ifindex;
	memcpy(&fl6.saddr, attr->gid.raw, sizeof(fl6.saddr));
	memcpy(&fl6.daddr, grh->dgid.raw, sizeof(fl6.daddr));
	fl6.flowi6_proto = IPPROTO_UDP;
	dst = ip6_route_output(dev_net(ndev), NULL, &fl6);
	if (dst->error) {
		dst_release(dst);
		return -EHOSTUNREACH;
	}
	dst_release(dst);

	udph = skb_push(skb, sizeof(*udph));
	udph->source = htons(sport);
	udph->dest = htons(RXE_ROCE_V2_PORT);
	udph->len = htons(skb->len);
	udph->check = 0;
	ip6h = skb_push(skb, sizeof(*ip6h));
	skb_reset_network_header(skb);
	ip6_flow_hdr(ip6h, grh->traffic_class, 0);
	ip6h->payload_len = htons(skb->len - sizeof(*ip6h));
	ip6h->nexthdr = IPPROTO_UDP;
	ip6h->hop_limit = grh->hop_limit;
	ip6h->saddr = fl6.saddr;
	ip6h->daddr = fl6.daddr;
	skb->protocol = htons(ETH_P_IPV6);
	return 0;
}

/* The RoCE v1 GRH in front of skb->data. */
static void rxe_push_grh(struct sk_buff *skb, const struct ib_gid_attr *attr,
			 const struct rdma_ah_attr *av)
{
	const struct ib_global_route *route = rdma_ah_read_grh(av);
	struct rxe_grh *grh;
	u32 len = skb->len;

	grh = skb_push(skb, sizeof(*grh));
	skb_reset_network_header(skb);
	grh->vtf = htonl(6U << 28 | (u32)route->traffic_class << 20 |
			 (route->flow_label & 0xfffff));
	grh->paylen = htons(len);
	grh->next_hdr = RXE_GRH_NEXT_HDR;
	grh->hop_limit = route->hop_limit;
	memcpy(grh->sgid, attr->gid.raw, sizeof(grh->sgid));
	memcpy(grh->dgid, route->dgid.raw, sizeof(grh->dgid));
	skb->protocol = htons(ETH_P_IBOE);
}

/* ------------------------------------------------------------------
 * Building a packet
 */

/* The page of kernel address @va a packet may reference, or NULL. */
static struct page *rxe_tx_page(const void *va)
{
	struct page *page;

	if (is_vmalloc_addr(va))
		page = vmalloc_to_page(va);
	else if (virt_addr_valid(va))
		page = virt_to_page(va);
	else
		return NULL;
	return page && sendpage_ok(page) ? page : NULL;
}

/*
 * The page fragments @len bytes of the walk @ss need (a piece that
 * continues the previous one in the same page shares its fragment), or
 * 0 when a byte is in a page that cannot be referenced or more than
 * @max would be needed.  @ss is a copy: the caller's walk stays.
 */
static unsigned int rxe_tx_nfrags(struct rvt_sge_state ss, u32 len,
				  unsigned int max)
{
	struct page *last = NULL;
	unsigned int n = 0, end = 0;

	while (len) {
		u32 piece = rvt_ss_piece(&ss, len), left = piece;
		const u8 *va = ss.sge.vaddr;

		/* an on-demand paging MR's pages may go: copied */
		if (!piece || (ss.sge.mr && ss.sge.mr->odp))
			return 0;
		while (left) {
			unsigned int off = offset_in_page(va);
			u32 c = min_t(u32, left, PAGE_SIZE - off);
			struct page *page = rxe_tx_page(va);

			if (!page)
				return 0;
			if (page != last || off != end) {
				if (++n > max)
					return 0;
				last = page;
			}
			end = off + c;
			va += c;
			left -= c;
		}
		rvt_update_sge(&ss, piece, false);
		len -= piece;
	}
	return n;
}

/* Attach @len bytes of the walk @ss to @skb as page fragments. */
static void rxe_tx_attach(struct sk_buff *skb, struct rvt_sge_state *ss,
			  u32 len)
{
	u32 total = len;

	while (len) {
		u32 piece = rvt_ss_piece(ss, len), left = piece;
		const u8 *va = ss->sge.vaddr;

		while (left) {
			unsigned int off = offset_in_page(va);
			u32 c = min_t(u32, left, PAGE_SIZE - off);
			struct page *page = rxe_tx_page(va);
			int i = skb_shinfo(skb)->nr_frags;

			if (i && skb_can_coalesce(skb, i, page, off)) {
				skb_frag_size_add(&skb_shinfo(skb)->frags[i - 1],
						  c);
			} else {
				get_page(page);
				skb_fill_page_desc(skb, i, page, off, c);
			}
			va += c;
			left -= c;
		}
		rvt_update_sge(ss, piece, false);
		len -= piece;
	}
	skb->len += total;
	skb->data_len += total;
	skb->truesize += total;
	/* the pages are the consumer's: they may change under the packet */
	skb_shinfo(skb)->flags |= SKBFL_SHARED_FRAG;
}

/*
 * Copy @len bytes of the walk @ss to @to.  False when a page of an
 * on-demand paging MR is not mapped: the walk stands at it.
 */
static bool rxe_tx_copy(u8 *to, struct rvt_sge_state *ss, u32 len)
{
	while (len) {
		u32 n = rvt_ss_piece(ss, len);
		void *from;

		if (!n)
			return true;
		from = rvt_sge_map(&ss->sge, false);
		if (!from)
			return false;
		memcpy(to, from, n);
		rvt_sge_unmap(&ss->sge);
		rvt_update_sge(ss, n, false);
		to += n;
		len -= n;
	}
	return true;
}

/* Room in front of a packet for any network and link header. */
static unsigned int rxe_tx_headroom(struct rxe_dev *rxe)
{
	return LL_RESERVED_SPACE(rxe->ndev) + VLAN_HLEN +
	       sizeof(struct ipv6hdr) + sizeof(struct udphdr);
}

/**
 * rxe_tx_skb - a transport packet with its payload
 * @rxe: the device
 * @hlen: header bytes, the BTH's included
 * @ss: a walk at the payload's first byte, moved past it; NULL when
 *	@plen is 0
 * @plen: payload bytes, without padding
 * @inplace: the payload's pages may be referenced: the caller does not
 *	give the memory back to its consumer before the packet is gone or
 *	no longer matters (an RC request, completed once acknowledged; a
 *	READ response)
 *
 * The headers are zeroed, in the linear part, skb->data at the BTH; the
 * payload, the padding to four bytes and the ICRC follow, the ICRC to be
 * filled by rxe_xmit_skb().  The payload's pages are referenced, not
 * copied, when @inplace and the net device takes page fragments and they fit
 * (MAX_SKB_FRAGS, one kept for the padding and the ICRC) in pages that
 * can be referenced; else it is copied (always from an on-demand paging
 * MR, whose pages an invalidation may take).  The walk's MR references
 * stay the caller's: the skb holds none.
 *
 * Context: softirq or process context, bottom halves off (GFP_ATOMIC).
 * Return: the packet; NULL when there was no memory (counted as a drop,
 * RXE_DROP_NOMEM); ERR_PTR(-EAGAIN) when a page of an on-demand paging
 * MR was not mapped (@ss stands at it: rvt_odp_miss_fault()).
 */
struct sk_buff *rxe_tx_skb(struct rxe_dev *rxe, unsigned int hlen,
			   struct rvt_sge_state *ss, u32 plen, bool inplace)
{
	unsigned int head = rxe_tx_headroom(rxe);
	u32 trail = (-plen & 3) + RXE_ICRC_SIZE;
	bool frags = false;
	struct sk_buff *skb;
	u8 *p;

	if (inplace && plen && (READ_ONCE(rxe->ndev->features) & NETIF_F_SG))
		frags = rxe_tx_nfrags(*ss, plen, MAX_SKB_FRAGS - 1) > 0;
	if (frags) {
		struct page *page;
		u8 *t;

		skb = alloc_skb(head + hlen, GFP_ATOMIC);
		if (!skb)
			goto nomem;
		t = netdev_alloc_frag(trail);
		if (!t) {
			kfree_skb(skb);
			goto nomem;
		}
		skb_reserve(skb, head);
		skb_put_zero(skb, hlen);
		rxe_tx_attach(skb, ss, plen);
		memset(t, 0, trail);
		page = virt_to_head_page(t);
		skb_add_rx_frag(skb, skb_shinfo(skb)->nr_frags, page,
				t - (u8 *)page_address(page), trail,
				SKB_DATA_ALIGN(trail));
		return skb;
	}
	skb = alloc_skb(head + hlen + plen + trail +
			rxe->ndev->needed_tailroom, GFP_ATOMIC);
	if (!skb)
		goto nomem;
	skb_reserve(skb, head);
	p = skb_put_zero(skb, hlen + plen + trail);
	if (plen && !rxe_tx_copy(p + hlen, ss, plen)) {
		kfree_skb(skb);
		return ERR_PTR(-EAGAIN);
	}
	return skb;

nomem:
	rxe_drop(rxe, RXE_DROP_NOMEM);
	return NULL;
}

/* crc32_le() of @len bytes of @skb from @off on, linear part and frags. */
static u32 rxe_crc_skb(u32 crc, const struct sk_buff *skb, unsigned int off,
		       unsigned int len)
{
	unsigned int hl = skb_headlen(skb), i;

	if (off < hl) {
		unsigned int n = min(len, hl - off);

		crc = crc32_le(crc, skb->data + off, n);
		off += n;
		len -= n;
	}
	off -= hl;
	for (i = 0; len && i < skb_shinfo(skb)->nr_frags; i++) {
		const skb_frag_t *f = &skb_shinfo(skb)->frags[i];
		u32 fl = skb_frag_size(f), p_off, p_len, copied;
		struct page *page;
		unsigned int n;

		if (off >= fl) {
			off -= fl;
			continue;
		}
		n = min(len, fl - off);
		skb_frag_foreach_page(f, skb_frag_off(f) + off, n, page,
				      p_off, p_len, copied) {
			u8 *va = kmap_local_page(page);

			crc = crc32_le(crc, va + p_off, p_len);
			kunmap_local(va);
		}
		len -= n;
		off = 0;
	}
	return crc;
}

/**
 * rxe_icrc_skb - the invariant CRC of a packet in an skb
 * @nh: what @nhdr is
 * @nhdr: the network header (rxe_icrc_hdr())
 * @skb: the packet: its linear part (the headers) and page fragments
 * @bth_off: the BTH's offset from skb->data
 * @len: bytes from the BTH up to the ICRC, padding included
 *
 * The same value as rxe_icrc() on the packet made linear.
 *
 * Context: any; maps the fragments' pages for a moment.
 * Return: the ICRC.
 */
u32 rxe_icrc_skb(enum rxe_nh nh, const void *nhdr, const struct sk_buff *skb,
		 unsigned int bth_off, unsigned int len)
{
	u32 crc = rxe_icrc_hdr(nh, nhdr, skb->data + bth_off);

	crc = rxe_crc_skb(crc, skb, bth_off + sizeof(struct rxe_bth),
			  len - sizeof(struct rxe_bth));
	return ~crc;
}

/* ------------------------------------------------------------------
 * Packets to the device itself
 */

/* Packets one run of the loopback work hands over before it yields. */
#define RXE_LOOP_BUDGET		64
/* Packets the loopback queue holds; more are refused, as a full qdisc. */
#define RXE_LOOP_MAX		1024

/* Which network header a looped packet has: in its control buffer. */
struct rxe_loop_cb {
	enum rxe_nh	nh;
};

static struct rxe_loop_cb *rxe_loop_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct rxe_loop_cb) > sizeof(skb->cb));
	return (struct rxe_loop_cb *)skb->cb;
}

/* The receive path for the packets on the loopback queue.  Softirq. */
static void rxe_loop_run(struct work_struct *work)
{
	struct rxe_dev *rxe = container_of(work, struct rxe_dev, loop_work);
	struct net_device *ndev;
	struct sk_buff *skb;
	int n;

	for (n = 0; n < RXE_LOOP_BUDGET; n++) {
		skb = skb_dequeue(&rxe->loop_q);
		if (!skb)
			return;
		ndev = skb->dev;
		/* the headers are linear; the payload may be in fragments */
		__skb_pull(skb, skb_transport_offset(skb));
		rxe_rcv(rxe, skb, rxe_loop_cb(skb)->nh, false);
		dev_put(ndev);
	}
	queue_work(system_bh_wq, &rxe->loop_work);
}

/**
 * rxe_loop_init - set up the device's loopback queue
 * @rxe: the device, not registered yet
 *
 * Context: any context.
 */
void rxe_loop_init(struct rxe_dev *rxe)
{
	skb_queue_head_init(&rxe->loop_q);
	INIT_WORK(&rxe->loop_work, rxe_loop_run);
}

/**
 * rxe_loop_stop - stop the loopback work and drop what is queued
 * @rxe: the device, with no QP left to send
 *
 * Context: process context; waits for a running loopback work.
 */
void rxe_loop_stop(struct rxe_dev *rxe)
{
	struct sk_buff *skb;

	disable_work_sync(&rxe->loop_work);
	while ((skb = skb_dequeue(&rxe->loop_q))) {
		dev_put(skb->dev);
		kfree_skb(skb);
	}
}

/*
 * Queue @skb, skb->data at its network header, for the device itself.
 * Takes @skb.  A queued packet holds a reference on skb->dev (the GID's
 * net device, perhaps a VLAN device the receive path looks at), dropped
 * once it has been received or purged.  Return: 0, or -ENOBUFS when the
 * queue is full.
 */
static int rxe_loop_xmit(struct rxe_dev *rxe, struct sk_buff *skb,
			 unsigned int bth_off, enum rxe_nh nh)
{
	if (skb_queue_len(&rxe->loop_q) >= RXE_LOOP_MAX) {
		kfree_skb(skb);
		return -ENOBUFS;
	}
	skb_set_transport_header(skb, bth_off);
	rxe_loop_cb(skb)->nh = nh;
	dev_hold(skb->dev);
	skb_queue_tail(&rxe->loop_q, skb);
	queue_work(system_bh_wq, &rxe->loop_work);
	return 0;
}

/**
 * rxe_xmit_skb - send a transport packet
 * @rxe: the device
 * @skb: the packet from its BTH to its ICRC (whose four bytes are there,
 *	to be filled), made by rxe_tx_skb(): the headers linear, the
 *	payload linear or in page fragments; taken in every case
 * @sgid_attr: the source GID: its type says RoCE v1 or v2, its address
 *	IPv4 or IPv6, its net device where the packet leaves
 * @av: the address vector (GRH, destination MAC)
 * @sport: the UDP source port (RoCE v2)
 *
 * Context: softirq or process context with bottom halves off; takes no
 * lock of rxe or rdmavt.
 * Return: 0 when the frame was handed to the net device (or to the
 * loopback queue, for the device's own MAC); -EHOSTUNREACH when there is
 * no route or no destination MAC; -ENETDOWN when the GID has no net
 * device; -ENOBUFS when the loopback queue is full; another error of the
 * net device.
 */
int rxe_xmit_skb(struct rxe_dev *rxe, struct sk_buff *skb,
		 const struct ib_gid_attr *sgid_attr,
		 const struct rdma_ah_attr *av, u16 sport)
{
	u8 *bth = skb->data;
	u32 len = skb->len;
	struct net_device *ndev;
	unsigned int off;
	enum rxe_nh nh;
	__le32 icrc;
	int ret;

	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(sgid_attr);
	if (IS_ERR(ndev)) {
		ret = -ENETDOWN;
		goto err;
	}
	if (sgid_attr->gid_type == IB_GID_TYPE_ROCE) {
		rxe_push_grh(skb, sgid_attr, av);
		nh = RXE_NH_GRH;
		ret = 0;
	} else if (ipv6_addr_v4mapped((struct in6_addr *)sgid_attr->gid.raw)) {
		ret = rxe_push_ip4(skb, ndev, sgid_attr, av, sport);
		nh = RXE_NH_IPV4;
	} else {
		ret = rxe_push_ip6(rxe, skb, ndev, sgid_attr, av, sport);
		nh = RXE_NH_IPV6;
	}
	if (ret)
		goto err;
	if (is_zero_ether_addr(av->roce.dmac)) {
		ret = -EHOSTUNREACH;
		goto err;
	}
	off = bth - skb->data;
	skb->dev = ndev;
	skb->priority = rdma_ah_get_sl(av);
	/* no link on the way: no ICRC, as the IP loopback has no checksums */
	if (ether_addr_equal(av->roce.dmac, ndev->dev_addr)) {
		rcu_read_unlock();
		return rxe_loop_xmit(rxe, skb, off, nh);
	}
	/* the ICRC over the linear part and the fragments */
	icrc = cpu_to_le32(rxe_icrc_skb(nh, skb_network_header(skb), skb, off,
					len - RXE_ICRC_SIZE));
	skb_store_bits(skb, off + len - RXE_ICRC_SIZE, &icrc, sizeof(icrc));
	ret = dev_hard_header(skb, ndev, ntohs(skb->protocol), av->roce.dmac,
			      ndev->dev_addr, skb->len);
	if (ret < 0)
		goto err;
	ret = dev_queue_xmit(skb);
	rcu_read_unlock();
	return net_xmit_eval(ret) ? -ENOBUFS : 0;

err:
	rcu_read_unlock();
	kfree_skb(skb);
	return ret;
}

/**
 * rxe_net_init - the module's part of the network
 *
 * Context: process context (module init).
 * Return: 0 or an error of the namespace registration.
 */
int rxe_net_init(void)
{
	int ret = register_pernet_subsys(&rxe_net_ops);

	if (ret)
		return ret;
	dev_add_pack(&rxe_v1_packet_type);
	return 0;
}

/**
 * rxe_net_exit - undo rxe_net_init(), after the last device went
 *
 * Context: process context (module exit).
 */
void rxe_net_exit(void)
{
	dev_remove_pack(&rxe_v1_packet_type);
	unregister_pernet_subsys(&rxe_net_ops);
	WARN_ON(!list_empty(&rxe_ns_list));
}
