// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The opcode table and the invariant CRC of the RoCE wire (rxe_hdr.h).
 * Pure functions over buffers, no state: the rdma_rxe_hdr suite builds
 * this file into itself.
 */
#include <linux/crc32.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/string.h>
#include <linux/udp.h>
#include <net/checksum.h>

#include "rxe_hdr.h"

#define RXE_OP(op, m, l) \
	[IB_OPCODE_##op] = { .mask = (m), .len = (l) }

/* header bytes of each class, the BTH included */
#define B	12
#define RQ	RXE_REQ
#define SND	(RXE_REQ | RXE_SEND | RXE_PAYLOAD)
#define WR	(RXE_REQ | RXE_WRITE | RXE_PAYLOAD)
#define RRSP	(RXE_READ | RXE_PAYLOAD)

const struct rxe_opcode_info rxe_opcode[256] = {
	/* RC */
	RXE_OP(RC_SEND_FIRST, SND | RXE_FIRST, B),
	RXE_OP(RC_SEND_MIDDLE, SND | RXE_MIDDLE, B),
	RXE_OP(RC_SEND_LAST, SND | RXE_LAST | RXE_COMP, B),
	RXE_OP(RC_SEND_LAST_WITH_IMMEDIATE,
	       SND | RXE_LAST | RXE_COMP | RXE_IMMDT, B + 4),
	RXE_OP(RC_SEND_ONLY, SND | RXE_ONLY | RXE_COMP, B),
	RXE_OP(RC_SEND_ONLY_WITH_IMMEDIATE,
	       SND | RXE_ONLY | RXE_COMP | RXE_IMMDT, B + 4),
	RXE_OP(RC_RDMA_WRITE_FIRST, WR | RXE_FIRST | RXE_RETH, B + 16),
	RXE_OP(RC_RDMA_WRITE_MIDDLE, WR | RXE_MIDDLE, B),
	RXE_OP(RC_RDMA_WRITE_LAST, WR | RXE_LAST, B),
	RXE_OP(RC_RDMA_WRITE_LAST_WITH_IMMEDIATE,
	       WR | RXE_LAST | RXE_COMP | RXE_IMMDT, B + 4),
	RXE_OP(RC_RDMA_WRITE_ONLY, WR | RXE_ONLY | RXE_RETH, B + 16),
	RXE_OP(RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE,
	       WR | RXE_ONLY | RXE_RETH | RXE_COMP | RXE_IMMDT, B + 20),
	RXE_OP(RC_RDMA_READ_REQUEST, RQ | RXE_READ | RXE_RETH, B + 16),
	RXE_OP(RC_RDMA_READ_RESPONSE_FIRST, RRSP | RXE_FIRST | RXE_AETH,
	       B + 4),
	RXE_OP(RC_RDMA_READ_RESPONSE_MIDDLE, RRSP | RXE_MIDDLE, B),
	RXE_OP(RC_RDMA_READ_RESPONSE_LAST, RRSP | RXE_LAST | RXE_AETH, B + 4),
	RXE_OP(RC_RDMA_READ_RESPONSE_ONLY, RRSP | RXE_ONLY | RXE_AETH, B + 4),
	RXE_OP(RC_ACKNOWLEDGE, RXE_ACK | RXE_AETH, B + 4),
	RXE_OP(RC_ATOMIC_ACKNOWLEDGE, RXE_ACK | RXE_AETH | RXE_ATMACK,
	       B + 12),
	RXE_OP(RC_COMPARE_SWAP, RQ | RXE_ATOMIC | RXE_ATMETH, B + 28),
	RXE_OP(RC_FETCH_ADD, RQ | RXE_ATOMIC | RXE_ATMETH, B + 28),
	RXE_OP(RC_SEND_LAST_WITH_INVALIDATE,
	       SND | RXE_LAST | RXE_COMP | RXE_IETH, B + 4),
	RXE_OP(RC_SEND_ONLY_WITH_INVALIDATE,
	       SND | RXE_ONLY | RXE_COMP | RXE_IETH, B + 4),
	/* IBA 1.5: FLUSH has no payload, ATOMIC WRITE 8 bytes */
	RXE_OP(RC_FLUSH, RQ | RXE_FLUSH | RXE_ONLY | RXE_FETH | RXE_RETH,
	       B + 4 + 16),
	RXE_OP(RC_ATOMIC_WRITE,
	       RQ | RXE_ATOMIC_WRITE | RXE_ONLY | RXE_RETH | RXE_PAYLOAD,
	       B + 16),
	/* UC */
	RXE_OP(UC_SEND_FIRST, SND | RXE_FIRST, B),
	RXE_OP(UC_SEND_MIDDLE, SND | RXE_MIDDLE, B),
	RXE_OP(UC_SEND_LAST, SND | RXE_LAST | RXE_COMP, B),
	RXE_OP(UC_SEND_LAST_WITH_IMMEDIATE,
	       SND | RXE_LAST | RXE_COMP | RXE_IMMDT, B + 4),
	RXE_OP(UC_SEND_ONLY, SND | RXE_ONLY | RXE_COMP, B),
	RXE_OP(UC_SEND_ONLY_WITH_IMMEDIATE,
	       SND | RXE_ONLY | RXE_COMP | RXE_IMMDT, B + 4),
	RXE_OP(UC_RDMA_WRITE_FIRST, WR | RXE_FIRST | RXE_RETH, B + 16),
	RXE_OP(UC_RDMA_WRITE_MIDDLE, WR | RXE_MIDDLE, B),
	RXE_OP(UC_RDMA_WRITE_LAST, WR | RXE_LAST, B),
	RXE_OP(UC_RDMA_WRITE_LAST_WITH_IMMEDIATE,
	       WR | RXE_LAST | RXE_COMP | RXE_IMMDT, B + 4),
	RXE_OP(UC_RDMA_WRITE_ONLY, WR | RXE_ONLY | RXE_RETH, B + 16),
	RXE_OP(UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE,
	       WR | RXE_ONLY | RXE_RETH | RXE_COMP | RXE_IMMDT, B + 20),
	/* UD */
	RXE_OP(UD_SEND_ONLY, SND | RXE_ONLY | RXE_COMP | RXE_DETH, B + 8),
	RXE_OP(UD_SEND_ONLY_WITH_IMMEDIATE,
	       SND | RXE_ONLY | RXE_COMP | RXE_DETH | RXE_IMMDT, B + 12),
};

#undef B
#undef RQ
#undef SND
#undef WR
#undef RRSP

/*
 * The ICRC starts as if the 8 bytes of a masked LRH (all ones) had gone
 * through the CRC from the seed ~0: crc32_le(~0, ff x 8).
 */
#define RXE_ICRC_SEED	0xdebb20e3

/**
 * rxe_icrc_hdr - the invariant CRC of a packet's headers, to go on with
 * @kind: what @nh is
 * @nh: the network header: the IPv4 or IPv6 header followed by the UDP
 *	header (RoCE v2), or the GRH (RoCE v1)
 * @bth: the BTH
 *
 * The fields that may change on the way are taken as all ones: IPv4 TOS,
 * TTL and header checksum; IPv6 traffic class, flow label and hop limit;
 * the GRH's traffic class, flow label and hop limit; the UDP checksum;
 * the BTH's Resv8a byte (with RoCE's F and B bits).  The bytes after the
 * BTH, up to the ICRC, go on through crc32_le() from the value returned,
 * wherever they are (linear or in page fragments); the ICRC is the
 * complement of the end result (rxe_icrc()).
 *
 * Context: any.
 * Return: the CRC state after the network header and the BTH.
 */
u32 rxe_icrc_hdr(enum rxe_nh kind, const void *nh, const void *bth)
{
	u8 ps[sizeof(struct ipv6hdr) + sizeof(struct udphdr) +
	      sizeof(struct rxe_bth)];
	struct udphdr *udph = NULL;
	unsigned int n;

	switch (kind) {
	case RXE_NH_IPV4: {
		struct iphdr *ip4;

		n = sizeof(*ip4) + sizeof(*udph);
		memcpy(ps, nh, n);
		ip4 = (struct iphdr *)ps;
		ip4->tos = 0xff;
		ip4->ttl = 0xff;
		ip4->check = CSUM_MANGLED_0;
		udph = (struct udphdr *)(ip4 + 1);
		break;
	}
	case RXE_NH_IPV6: {
		struct ipv6hdr *ip6;

		n = sizeof(*ip6) + sizeof(*udph);
		memcpy(ps, nh, n);
		ip6 = (struct ipv6hdr *)ps;
		ip6->priority = 0xf;
		memset(ip6->flow_lbl, 0xff, sizeof(ip6->flow_lbl));
		ip6->hop_limit = 0xff;
		udph = (struct udphdr *)(ip6 + 1);
		break;
	}
	default: {
		struct rxe_grh *grh;

		n = sizeof(*grh);
		memcpy(ps, nh, n);
		grh = (struct rxe_grh *)ps;
		grh->vtf |= htonl(0x0fffffff);
		grh->hop_limit = 0xff;
		break;
	}
	}
	if (udph)
		udph->check = CSUM_MANGLED_0;
	memcpy(ps + n, bth, sizeof(struct rxe_bth));
	/* Resv8a */
	ps[n + offsetof(struct rxe_bth, qpn)] = 0xff;
	n += sizeof(struct rxe_bth);

	return crc32_le(RXE_ICRC_SEED, ps, n);
}

/**
 * rxe_icrc - the invariant CRC of a linear packet
 * @kind: what @nh is
 * @nh: the network header (rxe_icrc_hdr())
 * @bth: the BTH, followed by the rest of the packet
 * @len: bytes from the BTH up to the ICRC, padding included
 *
 * The result is what the packet carries in its last four bytes, little
 * endian (as upstream rxe puts it).
 *
 * Context: any.
 * Return: the ICRC.
 */
u32 rxe_icrc(enum rxe_nh kind, const void *nh, const void *bth,
	     unsigned int len)
{
	u32 crc = rxe_icrc_hdr(kind, nh, bth);

	crc = crc32_le(crc, (const u8 *)bth + sizeof(struct rxe_bth),
		       len - sizeof(struct rxe_bth));
	return ~crc;
}
