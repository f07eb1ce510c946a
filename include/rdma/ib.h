/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The AF_IB socket address: an InfiniBand GID plus P_Key and service ID,
 * as rdma_cm and librdmacm exchange it.  The layout is user ABI.
 */
#ifndef RDMA_IB_H
#define RDMA_IB_H

#include <linux/types.h>

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

#endif /* RDMA_IB_H */
