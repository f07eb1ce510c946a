/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The AF_IB socket address: an InfiniBand GID plus P_Key and service ID,
 * as rdma_cm and librdmacm exchange it.  The layout is user ABI.
 */
#ifndef RDMA_IB_H
#define RDMA_IB_H

#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/string.h>
#include <linux/types.h>
#include <asm/byteorder.h>

/**
 * struct ib_addr - a GID in the views rdma_cm needs
 * @ib_u: the 16 bytes as bytes, 16-, 32- or 64-bit big-endian words
 */
struct ib_addr {
	union {
		__u8		uib_addr8[16];
		__be16		uib_addr16[8];
		__be32		uib_addr32[4];
		__be64		uib_addr64[2];
	} ib_u;
#define sib_addr8		ib_u.uib_addr8
#define sib_addr16		ib_u.uib_addr16
#define sib_addr32		ib_u.uib_addr32
#define sib_addr64		ib_u.uib_addr64
#define sib_raw			ib_u.uib_addr8
#define sib_subnet_prefix	ib_u.uib_addr64[0]
#define sib_interface_id	ib_u.uib_addr64[1]
};

/**
 * struct sockaddr_ib - socket address of family AF_IB
 * @sib_family: AF_IB
 * @sib_pkey: partition key
 * @sib_flowinfo: flow label and traffic class
 * @sib_addr: the GID
 * @sib_sid: service ID
 * @sib_sid_mask: which bits of @sib_sid are significant
 * @sib_scope_id: scope (port) of a link-local address
 */
struct sockaddr_ib {
	unsigned short int	sib_family;
	__be16			sib_pkey;
	__be32			sib_flowinfo;
	struct ib_addr		sib_addr;
	__be64			sib_sid;
	__be64			sib_sid_mask;
	__u64			sib_scope_id;
};

/**
 * ib_addr_any - is a GID the wildcard (all zero)?
 * @a: the GID
 *
 * Return: true for ::.
 */
static inline bool ib_addr_any(const struct ib_addr *a)
{
	return !(a->sib_addr64[0] | a->sib_addr64[1]);
}

/**
 * ib_addr_loopback - is a GID the loopback address ::1?
 * @a: the GID
 *
 * Return: true for ::1.
 */
static inline bool ib_addr_loopback(const struct ib_addr *a)
{
	return !(a->sib_addr32[0] | a->sib_addr32[1] | a->sib_addr32[2] |
		 (a->sib_addr32[3] ^ htonl(1)));
}

/**
 * ib_addr_set - set a GID from four big-endian words
 * @addr: the GID
 * @w1: bytes 0..3
 * @w2: bytes 4..7
 * @w3: bytes 8..11
 * @w4: bytes 12..15
 */
static inline void ib_addr_set(struct ib_addr *addr, __be32 w1, __be32 w2,
			       __be32 w3, __be32 w4)
{
	addr->sib_addr32[0] = w1;
	addr->sib_addr32[1] = w2;
	addr->sib_addr32[2] = w3;
	addr->sib_addr32[3] = w4;
}

/**
 * ib_addr_cmp - compare two GIDs
 * @a1: one
 * @a2: the other
 *
 * Return: 0 when equal, as memcmp().
 */
static inline int ib_addr_cmp(const struct ib_addr *a1,
			      const struct ib_addr *a2)
{
	return memcmp(a1, a2, sizeof(*a1));
}

/**
 * ib_safe_file_access - whether a write() may act on a file
 * @filp: the file
 *
 * The character devices of RDMA take commands through write(); a file
 * opened by one process and handed to another with different
 * credentials (a setuid program's stdin, for one) must not act for it.
 *
 * Context: process context, in the writing task.
 * Return: true when the writer has the credentials the file was opened
 * with.
 */
static inline bool ib_safe_file_access(struct file *filp)
{
	return filp->f_cred == current_cred();
}

#endif /* RDMA_IB_H */
