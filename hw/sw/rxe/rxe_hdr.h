/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The RoCE wire: the InfiniBand transport headers (IBTA vol. 1, 9.2 and
 * 9.3) as packed structs whose layouts are checked at build time, the
 * opcode table (which headers each opcode carries), PSN arithmetic and
 * the invariant CRC.  Pure functions over buffers (rxe_wire.c): the
 * rdma_rxe_hdr suite builds them into itself.
 *
 * All multi-byte fields are big endian on the wire, as the structs say.
 */
#ifndef RXE_HDR_H
#define RXE_HDR_H

#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <linux/types.h>
#include <rdma/ib_pack.h>

/**
 * struct rxe_bth - Base Transport Header, 12 bytes
 * @opcode: transport (3 bits) and operation (5 bits)
 * @flags: SE (bit 7), MigReq (bit 6), PadCnt (bits 5..4), TVer (3..0)
 * @pkey: partition key
 * @qpn: Resv8a (bits 31..24, the F and B bits of RoCE) and the
 *	destination QP (23..0)
 * @apsn: AckReq (bit 31), Resv7, and the PSN (23..0)
 */
struct rxe_bth {
	u8	opcode;
	u8	flags;
	__be16	pkey;
	__be32	qpn;
	__be32	apsn;
} __packed;

#define RXE_BTH_SE		0x80
#define RXE_BTH_MIG		0x40
#define RXE_BTH_PAD_SHIFT	4
#define RXE_BTH_PAD_MASK	0x30
#define RXE_BTH_TVER_MASK	0x0f
#define RXE_BTH_QPN_MASK	0x00ffffff
#define RXE_BTH_ACK_REQ		0x80000000
#define RXE_PSN_MASK		0x00ffffff
/* no PSN (PSNs have 24 bits) */
#define RXE_PSN_NONE		U32_MAX

/**
 * struct rxe_reth - RDMA Extended Transport Header, 16 bytes
 * @va: virtual address
 * @rkey: remote key
 * @len: DMA length
 */
struct rxe_reth {
	__be64	va;
	__be32	rkey;
	__be32	len;
} __packed;

/**
 * struct rxe_aeth - ACK Extended Transport Header, 4 bytes
 * @smsn: syndrome (bits 31..24) and MSN (23..0)
 */
struct rxe_aeth {
	__be32	smsn;
} __packed;

/**
 * struct rxe_atmeth - Atomic Extended Transport Header, 28 bytes
 * @va: virtual address
 * @rkey: remote key
 * @swap_add: swap (compare and swap) or add (fetch and add) data
 * @comp: compare data
 */
struct rxe_atmeth {
	__be64	va;
	__be32	rkey;
	__be64	swap_add;
	__be64	comp;
} __packed;

/**
 * struct rxe_atmack - Atomic Acknowledge Extended Transport Header
 * @orig: the original remote data
 */
struct rxe_atmack {
	__be64	orig;
} __packed;

/**
 * struct rxe_ieth - Invalidate Extended Transport Header
 * @rkey: the key to invalidate
 */
struct rxe_ieth {
	__be32	rkey;
} __packed;

/**
 * struct rxe_immdt - Immediate Data Extended Transport Header
 * @imm: the immediate data
 */
struct rxe_immdt {
	__be32	imm;
} __packed;

/**
 * struct rxe_feth - FLUSH Extended Transport Header (IBA 1.5, annex
 *	A19), 4 bytes
 * @bits: reserved (bits 31..6), the selectivity level (5..4: 0 the
 *	RETH's range, 1 the whole memory region) and the placement type
 *	(3..0: bit 0 global visibility, bit 1 persistence)
 */
struct rxe_feth {
	__be32	bits;
} __packed;

#define RXE_FETH_PLT_MASK	0x0000000f
#define RXE_FETH_SEL_MASK	0x00000030
#define RXE_FETH_SEL_SHIFT	4

/**
 * struct rxe_deth - Datagram Extended Transport Header, 8 bytes
 * @qkey: queue key
 * @sqp: Resv8 (bits 31..24) and the source QP (23..0)
 */
struct rxe_deth {
	__be32	qkey;
	__be32	sqp;
} __packed;

/**
 * struct rxe_grh - Global Route Header, 40 bytes (RoCE v1, and the
 *	receive buffer's first 40 bytes of a UD QP)
 * @vtf: IPVer (bits 31..28), TClass (27..20), FlowLabel (19..0)
 * @paylen: bytes after the GRH, ICRC included
 * @next_hdr: 0x1B: a BTH follows
 * @hop_limit: hop limit
 * @sgid: source GID
 * @dgid: destination GID
 */
struct rxe_grh {
	__be32	vtf;
	__be16	paylen;
	u8	next_hdr;
	u8	hop_limit;
	u8	sgid[16];
	u8	dgid[16];
} __packed;

static_assert(sizeof(struct rxe_bth) == 12);
static_assert(offsetof(struct rxe_bth, pkey) == 2);
static_assert(offsetof(struct rxe_bth, qpn) == 4);
static_assert(offsetof(struct rxe_bth, apsn) == 8);
static_assert(sizeof(struct rxe_reth) == 16);
static_assert(offsetof(struct rxe_reth, rkey) == 8);
static_assert(offsetof(struct rxe_reth, len) == 12);
static_assert(sizeof(struct rxe_aeth) == 4);
static_assert(sizeof(struct rxe_atmeth) == 28);
static_assert(offsetof(struct rxe_atmeth, rkey) == 8);
static_assert(offsetof(struct rxe_atmeth, swap_add) == 12);
static_assert(offsetof(struct rxe_atmeth, comp) == 20);
static_assert(sizeof(struct rxe_atmack) == 8);
static_assert(sizeof(struct rxe_ieth) == 4);
static_assert(sizeof(struct rxe_immdt) == 4);
static_assert(sizeof(struct rxe_feth) == 4);
static_assert(sizeof(struct rxe_deth) == 8);
static_assert(sizeof(struct rxe_grh) == 40);
static_assert(offsetof(struct rxe_grh, next_hdr) == 6);
static_assert(offsetof(struct rxe_grh, sgid) == 8);
static_assert(offsetof(struct rxe_grh, dgid) == 24);

#define RXE_ICRC_SIZE		4
#define RXE_GRH_NEXT_HDR	0x1b
/* the destination UDP port of RoCE v2 */
#define RXE_ROCE_V2_PORT	4791
/* source UDP ports of RoCE v2 QPs: 0xc000 + a hash of the QP number */
#define RXE_ROCE_V2_SPORT	0xc000

/* What an opcode's packets carry (struct rxe_opcode_info.mask). */
enum rxe_hdr_mask {
	RXE_RETH	= BIT(0),
	RXE_AETH	= BIT(1),
	RXE_ATMETH	= BIT(2),
	RXE_ATMACK	= BIT(3),
	RXE_IETH	= BIT(4),
	RXE_IMMDT	= BIT(5),
	RXE_DETH	= BIT(6),
	RXE_PAYLOAD	= BIT(7),
	RXE_REQ		= BIT(8),	/* a request (else a response) */
	RXE_SEND	= BIT(9),
	RXE_WRITE	= BIT(10),
	RXE_READ	= BIT(11),	/* request or response */
	RXE_ATOMIC	= BIT(12),
	RXE_ACK		= BIT(13),
	RXE_FIRST	= BIT(14),
	RXE_MIDDLE	= BIT(15),
	RXE_LAST	= BIT(16),
	RXE_ONLY	= RXE_FIRST | RXE_LAST,
	RXE_COMP	= BIT(17),	/* completes a message at the responder */
	RXE_FETH	= BIT(18),
	RXE_FLUSH	= BIT(19),	/* RDMA FLUSH (IBA 1.5) */
	RXE_ATOMIC_WRITE = BIT(20),	/* ATOMIC WRITE (IBA 1.5) */
};

/**
 * struct rxe_opcode_info - what the packets of one opcode carry
 * @mask: enum rxe_hdr_mask bits; 0 for an opcode not in the table
 * @len: header bytes, the BTH included
 */
struct rxe_opcode_info {
	u32	mask;
	u8	len;
};

extern const struct rxe_opcode_info rxe_opcode[256];

/**
 * rxe_hdr_off - where an extension header sits in a packet
 * @mask: the opcode's mask
 * @h: the header (one bit of RXE_RETH .. RXE_DETH, or RXE_FETH)
 *
 * The IBTA order: BTH, DETH, FETH, RETH, AtomicETH, AETH, AtomicAckETH,
 * ImmDt, IETH.
 *
 * Return: its offset from the start of the BTH.
 */
static inline unsigned int rxe_hdr_off(u32 mask, u32 h)
{
	static const struct { u32 bit; u8 len; } order[] = {
		{ RXE_DETH, 8 }, { RXE_FETH, 4 }, { RXE_RETH, 16 }, { RXE_ATMETH, 28 },
		{ RXE_AETH, 4 }, { RXE_ATMACK, 8 }, { RXE_IMMDT, 4 },
		{ RXE_IETH, 4 },
	};
	unsigned int off = sizeof(struct rxe_bth), i;

	for (i = 0; i < ARRAY_SIZE(order) && order[i].bit != h; i++)
		if (mask & order[i].bit)
			off += order[i].len;
	return off;
}

/**
 * rxe_psn_add - a PSN moved on
 * @psn: the PSN
 * @n: by how many
 *
 * Return: (@psn + @n) modulo 2^24.
 */
static inline u32 rxe_psn_add(u32 psn, u32 n)
{
	return (psn + n) & RXE_PSN_MASK;
}

/**
 * rxe_psn_cmp - compare two PSNs in the 24-bit window
 * @a: one
 * @b: the other
 *
 * Return: negative, zero or positive as @a is before, at or after @b
 * (half the PSN space each way).
 */
static inline int rxe_psn_cmp(u32 a, u32 b)
{
	return (s32)((a - b) << 8);
}

/* the network header an ICRC covers (rxe_icrc()) */
enum rxe_nh {
	RXE_NH_IPV4,	/* RoCE v2: IPv4 header and UDP header */
	RXE_NH_IPV6,	/* RoCE v2: IPv6 header and UDP header */
	RXE_NH_GRH,	/* RoCE v1: the GRH */
};

u32 rxe_icrc_hdr(enum rxe_nh kind, const void *nh, const void *bth);
u32 rxe_icrc(enum rxe_nh kind, const void *nh, const void *bth,
	     unsigned int len);

#endif /* RXE_HDR_H */
