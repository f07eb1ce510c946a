// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The headers of a UD datagram (struct ib_ud_header): their lengths and
 * constant fields filled in for a payload size, the whole stack packed to
 * the wire, and an InfiniBand stack (LRH, optional GRH, BTH, DETH) read
 * back.  Drivers that build their own QP0/QP1 or RoCE packets use it.
 *
 * Wire order: LRH | Ethernet | VLAN | GRH (IPv6 on RoCE) | IPv4 | UDP |
 * BTH | DETH | immediate data.
 */
#define pr_fmt(fmt) "ib_core: " fmt

#include <linux/errno.h>
#include <linux/export.h>
#include <linux/in.h>
#include <linux/math.h>
#include <linux/printk.h>
#include <linux/string.h>
#include <net/checksum.h>
#include <rdma/ib_pack.h>

/* GRH.NxtHdr of a packet whose next header is the IBA transport (BTH). */
#define UD_NXTHDR_IBA	0x1b

#define UD_FIELD(hdr, member, word, bit, bits) {				\
	.struct_offset_bytes = offsetof(struct ib_unpacked_##hdr, member),	\
	.struct_size_bytes = sizeof_field(struct ib_unpacked_##hdr, member),	\
	.offset_words = (word), .offset_bits = (bit), .size_bits = (bits),	\
	.field_name = #hdr "." #member }

#define UD_RESERVED(word, bit, bits) {						\
	RESERVED, .offset_words = (word), .offset_bits = (bit),		\
	.size_bits = (bits) }

/* IBTA vol. 1, 7.7: VL, LVer, SL, rsvd, LNH, DLID | rsvd, length, SLID */
static const struct ib_field lrh_fields[] = {
	UD_FIELD(lrh, virtual_lane,	0,  0,  4),
	UD_FIELD(lrh, link_version,	0,  4,  4),
	UD_FIELD(lrh, service_level,	0,  8,  4),
	UD_RESERVED(0, 12, 2),
	UD_FIELD(lrh, link_next_header,	0, 14,  2),
	UD_FIELD(lrh, destination_lid,	0, 16, 16),
	UD_RESERVED(1, 0, 5),
	UD_FIELD(lrh, packet_length,	1,  5, 11),
	UD_FIELD(lrh, source_lid,	1, 16, 16),
};

/* Destination MAC, source MAC, EtherType: 14 bytes */
static const struct ib_field eth_fields[] = {
	UD_FIELD(eth, dmac_h,		0,  0, 32),
	UD_FIELD(eth, dmac_l,		1,  0, 16),
	UD_FIELD(eth, smac_h,		1, 16, 16),
	UD_FIELD(eth, smac_l,		2,  0, 32),
	UD_FIELD(eth, type,		3,  0, 16),
};

/* 802.1Q: TCI, then the EtherType of what follows */
static const struct ib_field vlan_fields[] = {
	UD_FIELD(vlan, tag,		0,  0, 16),
	UD_FIELD(vlan, type,		0, 16, 16),
};

/* IBTA vol. 1, 8.3 (the IPv6 header): IPVer, TClass, FlowLabel | PayLen,
 * NxtHdr, HopLmt | SGID | DGID
 */
static const struct ib_field grh_fields[] = {
	UD_FIELD(grh, ip_version,	0,  0,   4),
	UD_FIELD(grh, traffic_class,	0,  4,   8),
	UD_FIELD(grh, flow_label,	0, 12,  20),
	UD_FIELD(grh, payload_length,	1,  0,  16),
	UD_FIELD(grh, next_header,	1, 16,   8),
	UD_FIELD(grh, hop_limit,	1, 24,   8),
	UD_FIELD(grh, source_gid,	2,  0, 128),
	UD_FIELD(grh, destination_gid,	6,  0, 128),
};

/* RFC 791 without options */
static const struct ib_field ip4_fields[] = {
	UD_FIELD(ip4, ver,		0,  0,  4),
	UD_FIELD(ip4, hdr_len,		0,  4,  4),
	UD_FIELD(ip4, tos,		0,  8,  8),
	UD_FIELD(ip4, tot_len,		0, 16, 16),
	UD_FIELD(ip4, id,		1,  0, 16),
	UD_FIELD(ip4, frag_off,		1, 16, 16),
	UD_FIELD(ip4, ttl,		2,  0,  8),
	UD_FIELD(ip4, protocol,		2,  8,  8),
	UD_FIELD(ip4, check,		2, 16, 16),
	UD_FIELD(ip4, saddr,		3,  0, 32),
	UD_FIELD(ip4, daddr,		4,  0, 32),
};

/* RFC 768 */
static const struct ib_field udp_fields[] = {
	UD_FIELD(udp, sport,		0,  0, 16),
	UD_FIELD(udp, dport,		0, 16, 16),
	UD_FIELD(udp, length,		1,  0, 16),
	UD_FIELD(udp, csum,		1, 16, 16),
};

/* IBTA vol. 1, 9.2: OpCode, SE, M, PadCnt, TVer, P_Key | rsvd, DestQP |
 * A, rsvd, PSN
 */
static const struct ib_field bth_fields[] = {
	UD_FIELD(bth, opcode,			0,  0,  8),
	UD_FIELD(bth, solicited_event,		0,  8,  1),
	UD_FIELD(bth, mig_req,			0,  9,  1),
	UD_FIELD(bth, pad_count,		0, 10,  2),
	UD_FIELD(bth, transport_header_version,	0, 12,  4),
	UD_FIELD(bth, pkey,			0, 16, 16),
	UD_RESERVED(1, 0, 8),
	UD_FIELD(bth, destination_qpn,		1,  8, 24),
	UD_FIELD(bth, ack_req,			2,  0,  1),
	UD_RESERVED(2, 1, 7),
	UD_FIELD(bth, psn,			2,  8, 24),
};

/* IBTA vol. 1, 9.3.3: Q_Key | rsvd, SrcQP */
static const struct ib_field deth_fields[] = {
	UD_FIELD(deth, qkey,		0,  0, 32),
	UD_RESERVED(1, 0, 8),
	UD_FIELD(deth, source_qpn,	1,  8, 24),
};

#define UD_ALWAYS	SIZE_MAX

/* One header of the stack, in wire order. */
static const struct ud_layer {
	const struct ib_field	*fields;
	unsigned int		nfields;
	unsigned int		bytes;
	size_t			present;	/* offset of the flag, or UD_ALWAYS */
	size_t			hdr;		/* offset of the unpacked header */
} ud_layers[] = {
#define UD_LAYER(name, flag, len) {						\
	.fields = name##_fields, .nfields = ARRAY_SIZE(name##_fields),		\
	.bytes = (len), .present = (flag),					\
	.hdr = offsetof(struct ib_ud_header, name) }
#define UD_FLAG(flag)	offsetof(struct ib_ud_header, flag)
	UD_LAYER(lrh,	UD_FLAG(lrh_present),	IB_LRH_BYTES),
	UD_LAYER(eth,	UD_FLAG(eth_present),	IB_ETH_BYTES),
	UD_LAYER(vlan,	UD_FLAG(vlan_present),	IB_VLAN_BYTES),
	UD_LAYER(grh,	UD_FLAG(grh_present),	IB_GRH_BYTES),
	UD_LAYER(ip4,	UD_FLAG(ipv4_present),	IB_IP4_BYTES),
	UD_LAYER(udp,	UD_FLAG(udp_present),	IB_UDP_BYTES),
	UD_LAYER(bth,	UD_ALWAYS,		IB_BTH_BYTES),
	UD_LAYER(deth,	UD_ALWAYS,		IB_DETH_BYTES),
#undef UD_FLAG
#undef UD_LAYER
};

static bool ud_layer_present(const struct ud_layer *l,
			     const struct ib_ud_header *header)
{
	return l->present == UD_ALWAYS ||
	       *(const int *)((const void *)header + l->present);
}

/**
 * ib_ud_ip4_csum() - the IPv4 header checksum of a UD header
 * @header: the header, its ip4 member filled in
 *
 * The checksum of the 20-byte IPv4 header @header->ip4 describes, with
 * version 4, header length 5 and the checksum field taken as zero whatever
 * the structure holds.  ib_ud_header_init() does not compute it: the
 * caller stores the result in @header->ip4.check once the addresses, ID,
 * TTL and TOS are set.
 *
 * Context: Any context.
 * Return: the checksum, in network order.
 */
__sum16 ib_ud_ip4_csum(struct ib_ud_header *header)
{
	struct ib_unpacked_ip4 ip4 = header->ip4;
	u8 raw[IB_IP4_BYTES] __aligned(4) = {};

	ip4.ver = 4;
	ip4.hdr_len = 5;
	ip4.check = 0;
	ib_pack(ip4_fields, ARRAY_SIZE(ip4_fields), &ip4, raw);
	return ip_fast_csum(raw, 5);
}
EXPORT_SYMBOL(ib_ud_ip4_csum);

/**
 * ib_ud_header_init() - set up the headers of a UD send
 * @payload_bytes: bytes of payload after DETH (immediate data not counted)
 * @lrh_present: the packet starts with an LRH (InfiniBand)
 * @eth_present: the packet starts with an Ethernet header (RoCE)
 * @vlan_present: an 802.1Q tag follows the Ethernet header
 * @grh_present: an InfiniBand GRH is wanted; ignored when @ip_version is set
 * @ip_version: 4 or 6 for an IP header (RoCE v2, or v1's GRH when 6), or 0
 * @udp_present: a UDP header follows the IP header (RoCE v2)
 * @immediate_present: the send carries immediate data
 * @header: the structure to fill
 *
 * Clears @header, records which headers are present, and fills in what
 * follows from that and from the payload size: LRH.LNH and packet length,
 * the GRH's version, payload length and next header, the IPv4 version,
 * header and total length and protocol, the UDP length, the VLAN
 * EtherType in the Ethernet header, and the BTH opcode and pad count.
 * Addresses, LIDs, QPNs, keys, ports and the IPv4 checksum are left to the
 * caller (see ib_ud_ip4_csum()).
 *
 * Context: Any context.
 * Return: 0, or -EINVAL if @udp_present is set and @ip_version is neither
 * 4 nor 6 (@header is cleared all the same).
 */
int ib_ud_header_init(int payload_bytes, int lrh_present, int eth_present,
		      int vlan_present, int grh_present, int ip_version,
		      int udp_present, int immediate_present,
		      struct ib_ud_header *header)
{
	/* BTH to ICRC: in every length below */
	int transport = IB_BTH_BYTES + IB_DETH_BYTES + payload_bytes +
			IB_ICRC_BYTES;
	int udp_bytes = udp_present ? IB_UDP_BYTES : 0;
	bool ib_grh = grh_present && !ip_version;

	memset(header, 0, sizeof(*header));
	if (udp_present && ip_version != 4 && ip_version != 6)
		return -EINVAL;

	if (lrh_present) {
		int lrh_to_icrc = IB_LRH_BYTES + transport +
				  (ib_grh ? IB_GRH_BYTES : 0);

		header->lrh.link_next_header =
			ib_grh ? IB_LNH_IBA_GLOBAL : IB_LNH_IBA_LOCAL;
		/* in 4-byte words */
		header->lrh.packet_length =
			cpu_to_be16(DIV_ROUND_UP(lrh_to_icrc, 4));
	}

	if (vlan_present)
		header->eth.type = cpu_to_be16(ETH_P_8021Q);

	if (ib_grh || ip_version == 6) {
		header->grh.ip_version = 6;
		header->grh.payload_length =
			cpu_to_be16(ALIGN(udp_bytes + transport, 4));
		header->grh.next_header =
			udp_present ? IPPROTO_UDP : UD_NXTHDR_IBA;
	}

	if (ip_version == 4) {
		header->ip4.ver = 4;
		header->ip4.hdr_len = 5;
		header->ip4.tot_len =
			cpu_to_be16(IB_IP4_BYTES + udp_bytes + transport);
		header->ip4.protocol = IPPROTO_UDP;
	}

	if (udp_present)
		header->udp.length = cpu_to_be16(IB_UDP_BYTES + transport);

	header->bth.opcode = immediate_present ?
		IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE : IB_OPCODE_UD_SEND_ONLY;
	/* pad the payload to a multiple of 4 */
	header->bth.pad_count = -payload_bytes & 3;

	header->lrh_present = lrh_present;
	header->eth_present = eth_present;
	header->vlan_present = vlan_present;
	header->grh_present = ib_grh || ip_version == 6;
	header->ipv4_present = ip_version == 4;
	header->udp_present = udp_present;
	header->immediate_present = immediate_present;
	return 0;
}
EXPORT_SYMBOL(ib_ud_header_init);

/**
 * ib_ud_header_pack() - write a UD header to the wire
 * @header: the headers, as ib_ud_header_init() and the caller left them
 * @buf: where to write; room for every present header is needed (at most
 *	LRH or Ethernet + VLAN, GRH or IPv4, UDP, BTH, DETH and immediate data)
 *
 * Writes the present headers one after the other in wire order, then BTH
 * and DETH, then the immediate data if present.  Every bit of what is
 * written comes from @header: reserved fields are zeroes.
 *
 * Context: Any context.
 * Return: the number of bytes written.
 */
int ib_ud_header_pack(struct ib_ud_header *header, void *buf)
{
	const struct ud_layer *l;
	int len = 0;

	for (l = ud_layers; l < ud_layers + ARRAY_SIZE(ud_layers); l++) {
		if (!ud_layer_present(l, header))
			continue;
		ib_pack(l->fields, l->nfields, (void *)header + l->hdr,
			buf + len);
		len += l->bytes;
	}

	if (header->immediate_present) {
		memcpy(buf + len, &header->immediate_data,
		       sizeof(header->immediate_data));
		len += sizeof(header->immediate_data);
	}
	return len;
}
EXPORT_SYMBOL(ib_ud_header_pack);

/**
 * ib_ud_header_unpack() - read an InfiniBand UD header from the wire
 * @buf: the packet, starting with its LRH
 * @header: where to store the headers
 *
 * Reads LRH, the GRH when LRH.LNH says there is one, BTH, DETH and the
 * immediate data when the opcode carries some, and sets
 * @header->grh_present and @header->immediate_present accordingly.  The
 * other presence flags and the RoCE headers are not touched.  Reading
 * stops at the first header found invalid; what was read so far stays in
 * @header.
 *
 * Context: Any context.
 * Return: 0, or -EINVAL if LRH.LVer is not 0, LRH.LNH is neither
 * IBA local nor IBA global, GRH.IPVer is not 6, GRH.NxtHdr is not 0x1B,
 * the BTH opcode is not a UD SEND Only (with or without immediate), or
 * BTH.TVer is not 0.
 */
int ib_ud_header_unpack(void *buf, struct ib_ud_header *header)
{
	ib_unpack(lrh_fields, ARRAY_SIZE(lrh_fields), buf, &header->lrh);
	buf += IB_LRH_BYTES;
	if (header->lrh.link_version) {
		pr_warn_ratelimited("UD header: LRH link version %u\n",
				    header->lrh.link_version);
		return -EINVAL;
	}

	if (header->lrh.link_next_header == IB_LNH_IBA_LOCAL) {
		header->grh_present = 0;
	} else if (header->lrh.link_next_header == IB_LNH_IBA_GLOBAL) {
		header->grh_present = 1;
		ib_unpack(grh_fields, ARRAY_SIZE(grh_fields), buf, &header->grh);
		buf += IB_GRH_BYTES;
		if (header->grh.ip_version != 6) {
			pr_warn_ratelimited("UD header: GRH IP version %u\n",
					    header->grh.ip_version);
			return -EINVAL;
		}
		if (header->grh.next_header != UD_NXTHDR_IBA) {
			pr_warn_ratelimited("UD header: GRH next header 0x%02x\n",
					    header->grh.next_header);
			return -EINVAL;
		}
	} else {
		pr_warn_ratelimited("UD header: LRH next header %u\n",
				    header->lrh.link_next_header);
		return -EINVAL;
	}

	ib_unpack(bth_fields, ARRAY_SIZE(bth_fields), buf, &header->bth);
	buf += IB_BTH_BYTES;
	if (header->bth.opcode == IB_OPCODE_UD_SEND_ONLY) {
		header->immediate_present = 0;
	} else if (header->bth.opcode == IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE) {
		header->immediate_present = 1;
	} else {
		pr_warn_ratelimited("UD header: BTH opcode 0x%02x\n",
				    header->bth.opcode);
		return -EINVAL;
	}
	if (header->bth.transport_header_version) {
		pr_warn_ratelimited("UD header: BTH transport version %u\n",
				    header->bth.transport_header_version);
		return -EINVAL;
	}

	ib_unpack(deth_fields, ARRAY_SIZE(deth_fields), buf, &header->deth);
	buf += IB_DETH_BYTES;
	if (header->immediate_present)
		memcpy(&header->immediate_data, buf,
		       sizeof(header->immediate_data));
	return 0;
}
EXPORT_SYMBOL(ib_ud_header_unpack);
