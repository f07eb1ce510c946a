// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * IPoIB hardware addresses (RFC 4391 section 9.1.1): 20 bytes, a byte
 * of flags, the 24-bit QPN, the port's 16-byte GID.  A multicast
 * address has QPN 0xFFFFFF and a multicast GID; the broadcast GID is
 * FF1S:401B:PPPP::FFFF:FFFF (S the scope, PPPP the P_Key with the full
 * membership bit).  And the headers around a packet: the 4-byte
 * encapsulation header on the wire, and in front of it, between
 * hard_header and the transmit routine, a pseudo-header with the
 * destination's hardware address.
 */

#include <linux/if_packet.h>
#include <kunit/visibility.h>

#include "ipoib.h"

/* link-local scope (2), the IPv4 signature 401B */
static const u8 ipoib_bcast_template[INFINIBAND_ALEN] = {
	0x00, 0xff, 0xff, 0xff,
	0xff, 0x12, 0x40, 0x1b, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
};

/**
 * ipoib_make_hwaddr - an interface's hardware address
 * @ha: INFINIBAND_ALEN bytes
 * @flags: the flags byte (IPOIB_HW_FLAG_RC when connected mode is offered)
 * @qpn: the interface's UD QP number (its low 24 bits)
 * @gid: the port's GID
 *
 * Context: Any context.
 */
void ipoib_make_hwaddr(u8 *ha, u8 flags, u32 qpn, const union ib_gid *gid)
{
	ha[0] = flags;
	ha[1] = (qpn >> 16) & 0xff;
	ha[2] = (qpn >> 8) & 0xff;
	ha[3] = qpn & 0xff;
	memcpy(ha + 4, gid->raw, sizeof(gid->raw));
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_make_hwaddr);

/**
 * ipoib_hwaddr_qpn - the QP number of a hardware address
 * @ha: the address
 *
 * Context: Any context.
 * Return: the 24-bit QPN (IPOIB_MCAST_QPN for a multicast address).
 */
u32 ipoib_hwaddr_qpn(const u8 *ha)
{
	return (ha[1] << 16) | (ha[2] << 8) | ha[3];
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_hwaddr_qpn);

/**
 * ipoib_hwaddr_gid - the GID of a hardware address
 * @ha: the address
 *
 * Context: Any context.
 * Return: a pointer into @ha.
 */
const union ib_gid *ipoib_hwaddr_gid(const u8 *ha)
{
	return (const union ib_gid *)(ha + 4);
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_hwaddr_gid);

/**
 * ipoib_hwaddr_is_mcast - is a hardware address a multicast one?
 * @ha: the address
 *
 * A multicast GID starts with 0xFF (IBA 4.1.1).
 *
 * Context: Any context.
 * Return: true for a multicast address.
 */
bool ipoib_hwaddr_is_mcast(const u8 *ha)
{
	return ha[4] == 0xff;
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_hwaddr_is_mcast);

/**
 * ipoib_make_broadcast - the broadcast address of a P_Key
 * @bcast: INFINIBAND_ALEN bytes
 * @pkey: the interface's P_Key; the address always carries the full
 *	membership bit
 *
 * Context: Any context.
 */
void ipoib_make_broadcast(u8 *bcast, u16 pkey)
{
	pkey |= IPOIB_PKEY_FULL;
	memcpy(bcast, ipoib_bcast_template, INFINIBAND_ALEN);
	bcast[8] = pkey >> 8;
	bcast[9] = pkey & 0xff;
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_make_broadcast);

/**
 * ipoib_mgid_valid - is @ha an IPoIB multicast address of this link?
 * @ha: a hardware address from the net device's multicast list
 * @bcast: the interface's broadcast address
 *
 * The multicast QPN, the same flags, scope and P_Key as the broadcast
 * group, and the IPv4 (401B) or IPv6 (601B) signature.
 *
 * Context: Any context.
 * Return: true if it is.
 */
bool ipoib_mgid_valid(const u8 *ha, const u8 *bcast)
{
	if (ipoib_hwaddr_qpn(ha) != IPOIB_MCAST_QPN || ha[4] != 0xff ||
	    ha[5] != bcast[5])
		return false;
	if ((ha[6] != 0x40 && ha[6] != 0x60) || ha[7] != 0x1b)
		return false;
	return ha[8] == bcast[8] && ha[9] == bcast[9];
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_mgid_valid);

/**
 * ipoib_push_headers - the encapsulation header and the pseudo-header
 * @skb: the packet, data at the network header
 * @type: its ethertype (host order)
 * @daddr: the destination's hardware address, or NULL
 *
 * Context: Any context.
 * Return: IPOIB_HARD_LEN, or -IPOIB_HARD_LEN when there is no
 * destination (the header is then incomplete, as header_ops->create
 * reports it).
 */
int ipoib_push_headers(struct sk_buff *skb, u16 type, const u8 *daddr)
{
	struct ipoib_pseudo_header *phdr;
	struct ipoib_header *hdr;

	hdr = skb_push(skb, sizeof(*hdr));
	hdr->proto = htons(type);
	hdr->reserved = 0;
	phdr = skb_push(skb, sizeof(*phdr));
	if (!daddr) {
		memset(phdr, 0, sizeof(*phdr));
		return -IPOIB_HARD_LEN;
	}
	memcpy(phdr->hwaddr, daddr, INFINIBAND_ALEN);
	return IPOIB_HARD_LEN;
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_push_headers);

/**
 * ipoib_pull_pseudo - take the pseudo-header off a packet to send
 * @skb: the packet from the stack, data at the pseudo-header
 * @daddr: INFINIBAND_ALEN bytes for the destination
 *
 * Context: Any context.
 * Return: 0 with the data at the encapsulation header, or -EINVAL for a
 * packet too short to hold both headers (left untouched).
 */
int ipoib_pull_pseudo(struct sk_buff *skb, u8 *daddr)
{
	if (skb->len < IPOIB_HARD_LEN || skb_headlen(skb) < IPOIB_HARD_LEN)
		return -EINVAL;
	memcpy(daddr, skb->data, INFINIBAND_ALEN);
	skb_pull(skb, IPOIB_PSEUDO_LEN);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_pull_pseudo);

/**
 * ipoib_rx_pkt_type - how a received datagram was addressed
 * @grh: the 40 bytes in front of the payload
 * @has_grh: the completion says they hold a GRH
 * @bcast: the interface's broadcast address
 *
 * Context: Any context.
 * Return: PACKET_BROADCAST for the broadcast group, PACKET_MULTICAST for
 * another group, PACKET_HOST for a unicast datagram.
 */
int ipoib_rx_pkt_type(const u8 *grh, bool has_grh, const u8 *bcast)
{
	const u8 *dgid = grh + IPOIB_GRH_DGID_OFF;

	if (!has_grh || dgid[0] != 0xff)
		return PACKET_HOST;
	if (!memcmp(dgid, bcast + 4, sizeof(union ib_gid)))
		return PACKET_BROADCAST;
	return PACKET_MULTICAST;
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_rx_pkt_type);
