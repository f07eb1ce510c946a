/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Table-driven packing of InfiniBand wire headers (core/ib_core/packer.c) and
 * the UD datagram header built from them (core/ib_core/ud_header.c): LRH, GRH,
 * BTH,
 * DETH for InfiniBand, Ethernet, VLAN, IPv4/IPv6 and UDP for RoCE.
 *
 * Wire byte order is big-endian; the multi-byte members of the
 * ib_unpacked_* structures hold their values in network order as well.
 */
#ifndef IB_PACK_H
#define IB_PACK_H

#include <rdma/ib_verbs.h>
#include <uapi/linux/if_ether.h>

/* Sizes on the wire, in bytes. */
enum {
	IB_LRH_BYTES		= 8,
	IB_ETH_BYTES		= 14,
	IB_VLAN_BYTES		= 4,
	IB_GRH_BYTES		= 40,
	IB_IP4_BYTES		= 20,
	IB_UDP_BYTES		= 8,
	IB_BTH_BYTES		= 12,
	IB_DETH_BYTES		= 8,
	IB_EXT_ATOMICETH_BYTES	= 28,
	IB_EXT_XRC_BYTES	= 4,
	IB_ICRC_BYTES		= 4
};

/**
 * struct ib_field - where one member of a structure lives on the wire
 * @struct_offset_bytes: offset of the member in the structure
 * @struct_size_bytes: size of the member (1, 2, 4 or 8 for bit fields);
 *	0 for a reserved field, written as zeroes and never read back
 * @offset_words: 32-bit word of the wire header the field starts in
 * @offset_bits: first bit in that word, 0 being the most significant
 * @size_bits: width on the wire; above 64 the field is a byte string
 *	copied as is
 * @field_name: a name for the diagnostics
 */
struct ib_field {
	size_t struct_offset_bytes;
	size_t struct_size_bytes;
	int    offset_words;
	int    offset_bits;
	int    size_bits;
	char  *field_name;
};

/* Initialiser of an ib_field with no structure member behind it. */
#define RESERVED \
	.field_name = "reserved"

/*
 * BTH opcodes: the top three bits name the transport, the low five the
 * operation; IB_OPCODE_<transport>_<operation> is the sum of the two.
 */
enum {
	/* transports */
	IB_OPCODE_RC				= 0x00,
	IB_OPCODE_UC				= 0x20,
	IB_OPCODE_RD				= 0x40,
	IB_OPCODE_UD				= 0x60,
	IB_OPCODE_CNP				= 0x80,	/* congestion notification */
	IB_OPCODE_MSP				= 0xe0,	/* vendor specific */

	/* operations */
	IB_OPCODE_SEND_FIRST			= 0x00,
	IB_OPCODE_SEND_MIDDLE			= 0x01,
	IB_OPCODE_SEND_LAST			= 0x02,
	IB_OPCODE_SEND_LAST_WITH_IMMEDIATE	= 0x03,
	IB_OPCODE_SEND_ONLY			= 0x04,
	IB_OPCODE_SEND_ONLY_WITH_IMMEDIATE	= 0x05,
	IB_OPCODE_RDMA_WRITE_FIRST		= 0x06,
	IB_OPCODE_RDMA_WRITE_MIDDLE		= 0x07,
	IB_OPCODE_RDMA_WRITE_LAST		= 0x08,
	IB_OPCODE_RDMA_WRITE_LAST_WITH_IMMEDIATE = 0x09,
	IB_OPCODE_RDMA_WRITE_ONLY		= 0x0a,
	IB_OPCODE_RDMA_WRITE_ONLY_WITH_IMMEDIATE = 0x0b,
	IB_OPCODE_RDMA_READ_REQUEST		= 0x0c,
	IB_OPCODE_RDMA_READ_RESPONSE_FIRST	= 0x0d,
	IB_OPCODE_RDMA_READ_RESPONSE_MIDDLE	= 0x0e,
	IB_OPCODE_RDMA_READ_RESPONSE_LAST	= 0x0f,
	IB_OPCODE_RDMA_READ_RESPONSE_ONLY	= 0x10,
	IB_OPCODE_ACKNOWLEDGE			= 0x11,
	IB_OPCODE_ATOMIC_ACKNOWLEDGE		= 0x12,
	IB_OPCODE_COMPARE_SWAP			= 0x13,
	IB_OPCODE_FETCH_ADD			= 0x14,
	/* 0x15: reserved */
	IB_OPCODE_SEND_LAST_WITH_INVALIDATE	= 0x16,
	IB_OPCODE_SEND_ONLY_WITH_INVALIDATE	= 0x17,
	IB_OPCODE_FLUSH				= 0x1C,
	IB_OPCODE_ATOMIC_WRITE			= 0x1D,

	/* reliable connected */
	IB_OPCODE_RC_SEND_FIRST = IB_OPCODE_RC + IB_OPCODE_SEND_FIRST,
	IB_OPCODE_RC_SEND_MIDDLE = IB_OPCODE_RC + IB_OPCODE_SEND_MIDDLE,
	IB_OPCODE_RC_SEND_LAST = IB_OPCODE_RC + IB_OPCODE_SEND_LAST,
	IB_OPCODE_RC_SEND_LAST_WITH_IMMEDIATE =
		IB_OPCODE_RC + IB_OPCODE_SEND_LAST_WITH_IMMEDIATE,
	IB_OPCODE_RC_SEND_ONLY = IB_OPCODE_RC + IB_OPCODE_SEND_ONLY,
	IB_OPCODE_RC_SEND_ONLY_WITH_IMMEDIATE =
		IB_OPCODE_RC + IB_OPCODE_SEND_ONLY_WITH_IMMEDIATE,
	IB_OPCODE_RC_RDMA_WRITE_FIRST =
		IB_OPCODE_RC + IB_OPCODE_RDMA_WRITE_FIRST,
	IB_OPCODE_RC_RDMA_WRITE_MIDDLE =
		IB_OPCODE_RC + IB_OPCODE_RDMA_WRITE_MIDDLE,
	IB_OPCODE_RC_RDMA_WRITE_LAST = IB_OPCODE_RC + IB_OPCODE_RDMA_WRITE_LAST,
	IB_OPCODE_RC_RDMA_WRITE_LAST_WITH_IMMEDIATE =
		IB_OPCODE_RC + IB_OPCODE_RDMA_WRITE_LAST_WITH_IMMEDIATE,
	IB_OPCODE_RC_RDMA_WRITE_ONLY = IB_OPCODE_RC + IB_OPCODE_RDMA_WRITE_ONLY,
	IB_OPCODE_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE =
		IB_OPCODE_RC + IB_OPCODE_RDMA_WRITE_ONLY_WITH_IMMEDIATE,
	IB_OPCODE_RC_RDMA_READ_REQUEST =
		IB_OPCODE_RC + IB_OPCODE_RDMA_READ_REQUEST,
	IB_OPCODE_RC_RDMA_READ_RESPONSE_FIRST =
		IB_OPCODE_RC + IB_OPCODE_RDMA_READ_RESPONSE_FIRST,
	IB_OPCODE_RC_RDMA_READ_RESPONSE_MIDDLE =
		IB_OPCODE_RC + IB_OPCODE_RDMA_READ_RESPONSE_MIDDLE,
	IB_OPCODE_RC_RDMA_READ_RESPONSE_LAST =
		IB_OPCODE_RC + IB_OPCODE_RDMA_READ_RESPONSE_LAST,
	IB_OPCODE_RC_RDMA_READ_RESPONSE_ONLY =
		IB_OPCODE_RC + IB_OPCODE_RDMA_READ_RESPONSE_ONLY,
	IB_OPCODE_RC_ACKNOWLEDGE = IB_OPCODE_RC + IB_OPCODE_ACKNOWLEDGE,
	IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE =
		IB_OPCODE_RC + IB_OPCODE_ATOMIC_ACKNOWLEDGE,
	IB_OPCODE_RC_COMPARE_SWAP = IB_OPCODE_RC + IB_OPCODE_COMPARE_SWAP,
	IB_OPCODE_RC_FETCH_ADD = IB_OPCODE_RC + IB_OPCODE_FETCH_ADD,
	IB_OPCODE_RC_SEND_LAST_WITH_INVALIDATE =
		IB_OPCODE_RC + IB_OPCODE_SEND_LAST_WITH_INVALIDATE,
	IB_OPCODE_RC_SEND_ONLY_WITH_INVALIDATE =
		IB_OPCODE_RC + IB_OPCODE_SEND_ONLY_WITH_INVALIDATE,
	IB_OPCODE_RC_FLUSH = IB_OPCODE_RC + IB_OPCODE_FLUSH,
	IB_OPCODE_RC_ATOMIC_WRITE = IB_OPCODE_RC + IB_OPCODE_ATOMIC_WRITE,

	/* unreliable connected */
	IB_OPCODE_UC_SEND_FIRST = IB_OPCODE_UC + IB_OPCODE_SEND_FIRST,
	IB_OPCODE_UC_SEND_MIDDLE = IB_OPCODE_UC + IB_OPCODE_SEND_MIDDLE,
	IB_OPCODE_UC_SEND_LAST = IB_OPCODE_UC + IB_OPCODE_SEND_LAST,
	IB_OPCODE_UC_SEND_LAST_WITH_IMMEDIATE =
		IB_OPCODE_UC + IB_OPCODE_SEND_LAST_WITH_IMMEDIATE,
	IB_OPCODE_UC_SEND_ONLY = IB_OPCODE_UC + IB_OPCODE_SEND_ONLY,
	IB_OPCODE_UC_SEND_ONLY_WITH_IMMEDIATE =
		IB_OPCODE_UC + IB_OPCODE_SEND_ONLY_WITH_IMMEDIATE,
	IB_OPCODE_UC_RDMA_WRITE_FIRST =
		IB_OPCODE_UC + IB_OPCODE_RDMA_WRITE_FIRST,
	IB_OPCODE_UC_RDMA_WRITE_MIDDLE =
		IB_OPCODE_UC + IB_OPCODE_RDMA_WRITE_MIDDLE,
	IB_OPCODE_UC_RDMA_WRITE_LAST = IB_OPCODE_UC + IB_OPCODE_RDMA_WRITE_LAST,
	IB_OPCODE_UC_RDMA_WRITE_LAST_WITH_IMMEDIATE =
		IB_OPCODE_UC + IB_OPCODE_RDMA_WRITE_LAST_WITH_IMMEDIATE,
	IB_OPCODE_UC_RDMA_WRITE_ONLY = IB_OPCODE_UC + IB_OPCODE_RDMA_WRITE_ONLY,
	IB_OPCODE_UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE =
		IB_OPCODE_UC + IB_OPCODE_RDMA_WRITE_ONLY_WITH_IMMEDIATE,

	/* reliable datagram */
	IB_OPCODE_RD_SEND_FIRST = IB_OPCODE_RD + IB_OPCODE_SEND_FIRST,
	IB_OPCODE_RD_SEND_MIDDLE = IB_OPCODE_RD + IB_OPCODE_SEND_MIDDLE,
	IB_OPCODE_RD_SEND_LAST = IB_OPCODE_RD + IB_OPCODE_SEND_LAST,
	IB_OPCODE_RD_SEND_LAST_WITH_IMMEDIATE =
		IB_OPCODE_RD + IB_OPCODE_SEND_LAST_WITH_IMMEDIATE,
	IB_OPCODE_RD_SEND_ONLY = IB_OPCODE_RD + IB_OPCODE_SEND_ONLY,
	IB_OPCODE_RD_SEND_ONLY_WITH_IMMEDIATE =
		IB_OPCODE_RD + IB_OPCODE_SEND_ONLY_WITH_IMMEDIATE,
	IB_OPCODE_RD_RDMA_WRITE_FIRST =
		IB_OPCODE_RD + IB_OPCODE_RDMA_WRITE_FIRST,
	IB_OPCODE_RD_RDMA_WRITE_MIDDLE =
		IB_OPCODE_RD + IB_OPCODE_RDMA_WRITE_MIDDLE,
	IB_OPCODE_RD_RDMA_WRITE_LAST = IB_OPCODE_RD + IB_OPCODE_RDMA_WRITE_LAST,
	IB_OPCODE_RD_RDMA_WRITE_LAST_WITH_IMMEDIATE =
		IB_OPCODE_RD + IB_OPCODE_RDMA_WRITE_LAST_WITH_IMMEDIATE,
	IB_OPCODE_RD_RDMA_WRITE_ONLY = IB_OPCODE_RD + IB_OPCODE_RDMA_WRITE_ONLY,
	IB_OPCODE_RD_RDMA_WRITE_ONLY_WITH_IMMEDIATE =
		IB_OPCODE_RD + IB_OPCODE_RDMA_WRITE_ONLY_WITH_IMMEDIATE,
	IB_OPCODE_RD_RDMA_READ_REQUEST =
		IB_OPCODE_RD + IB_OPCODE_RDMA_READ_REQUEST,
	IB_OPCODE_RD_RDMA_READ_RESPONSE_FIRST =
		IB_OPCODE_RD + IB_OPCODE_RDMA_READ_RESPONSE_FIRST,
	IB_OPCODE_RD_RDMA_READ_RESPONSE_MIDDLE =
		IB_OPCODE_RD + IB_OPCODE_RDMA_READ_RESPONSE_MIDDLE,
	IB_OPCODE_RD_RDMA_READ_RESPONSE_LAST =
		IB_OPCODE_RD + IB_OPCODE_RDMA_READ_RESPONSE_LAST,
	IB_OPCODE_RD_RDMA_READ_RESPONSE_ONLY =
		IB_OPCODE_RD + IB_OPCODE_RDMA_READ_RESPONSE_ONLY,
	IB_OPCODE_RD_ACKNOWLEDGE = IB_OPCODE_RD + IB_OPCODE_ACKNOWLEDGE,
	IB_OPCODE_RD_ATOMIC_ACKNOWLEDGE =
		IB_OPCODE_RD + IB_OPCODE_ATOMIC_ACKNOWLEDGE,
	IB_OPCODE_RD_COMPARE_SWAP = IB_OPCODE_RD + IB_OPCODE_COMPARE_SWAP,
	IB_OPCODE_RD_FETCH_ADD = IB_OPCODE_RD + IB_OPCODE_FETCH_ADD,
	IB_OPCODE_RD_FLUSH = IB_OPCODE_RD + IB_OPCODE_FLUSH,

	/* unreliable datagram */
	IB_OPCODE_UD_SEND_ONLY = IB_OPCODE_UD + IB_OPCODE_SEND_ONLY,
	IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE =
		IB_OPCODE_UD + IB_OPCODE_SEND_ONLY_WITH_IMMEDIATE
};

/* LRH.LNH: what follows the local route header. */
enum {
	IB_LNH_RAW		= 0,
	IB_LNH_IP		= 1,
	IB_LNH_IBA_LOCAL	= 2,	/* BTH */
	IB_LNH_IBA_GLOBAL	= 3	/* GRH, then BTH */
};

/* Local route header (IBTA vol. 1, 7.7). */
struct ib_unpacked_lrh {
	u8	virtual_lane;
	u8	link_version;
	u8	service_level;
	u8	link_next_header;
	__be16	destination_lid;
	__be16	packet_length;		/* in 4-byte words, LRH to ICRC */
	__be16	source_lid;
};

/* Global route header (IBTA vol. 1, 8.3), also RoCE's IPv6 header. */
struct ib_unpacked_grh {
	u8		ip_version;
	u8		traffic_class;
	__be32		flow_label;
	__be16		payload_length;
	u8		next_header;
	u8		hop_limit;
	union ib_gid	source_gid;
	union ib_gid	destination_gid;
};

/* Base transport header (IBTA vol. 1, 9.2). */
struct ib_unpacked_bth {
	u8	opcode;
	u8	solicited_event;
	u8	mig_req;
	u8	pad_count;
	u8	transport_header_version;
	__be16	pkey;
	__be32	destination_qpn;
	u8	ack_req;
	__be32	psn;
};

/* Datagram extended transport header (IBTA vol. 1, 9.3.3). */
struct ib_unpacked_deth {
	__be32	qkey;
	__be32	source_qpn;
};

/* Ethernet header, the MACs split on the 32-bit words they straddle. */
struct ib_unpacked_eth {
	u8	dmac_h[4];
	u8	dmac_l[2];
	u8	smac_h[2];
	u8	smac_l[4];
	__be16	type;
};

/* IPv4 header without options (RoCE v2). */
struct ib_unpacked_ip4 {
	u8	ver;
	u8	hdr_len;
	u8	tos;
	__be16	tot_len;
	__be16	id;
	__be16	frag_off;
	u8	ttl;
	u8	protocol;
	__sum16	check;
	__be32	saddr;
	__be32	daddr;
};

/* UDP header (RoCE v2). */
struct ib_unpacked_udp {
	__be16	sport;
	__be16	dport;
	__be16	length;
	__be16	csum;
};

/* 802.1Q tag and the EtherType after it. */
struct ib_unpacked_vlan {
	__be16	tag;
	__be16	type;
};

/*
 * A UD datagram's headers in wire order; the *_present flags say which
 * ones ib_ud_header_pack() writes.  BTH and DETH are always there.
 */
struct ib_ud_header {
	int			lrh_present;
	struct ib_unpacked_lrh	lrh;
	int			eth_present;
	struct ib_unpacked_eth	eth;
	int			vlan_present;
	struct ib_unpacked_vlan	vlan;
	int			grh_present;
	struct ib_unpacked_grh	grh;
	int			ipv4_present;
	struct ib_unpacked_ip4	ip4;
	int			udp_present;
	struct ib_unpacked_udp	udp;
	struct ib_unpacked_bth	bth;
	struct ib_unpacked_deth	deth;
	int			immediate_present;
	__be32			immediate_data;
};

void ib_pack(const struct ib_field *desc, int desc_len, void *structure,
	     void *buf);
void ib_unpack(const struct ib_field *desc, int desc_len, void *buf,
	       void *structure);

__sum16 ib_ud_ip4_csum(struct ib_ud_header *header);

int ib_ud_header_init(int payload_bytes, int lrh_present, int eth_present,
		      int vlan_present, int grh_present, int ip_version,
		      int udp_present, int immediate_present,
		      struct ib_ud_header *header);
int ib_ud_header_pack(struct ib_ud_header *header, void *buf);
int ib_ud_header_unpack(void *buf, struct ib_ud_header *header);

#endif /* IB_PACK_H */
