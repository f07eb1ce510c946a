/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Omni-Path addressing: 32-bit LIDs carried in a GID whose interface ID
 * holds Intel's OPA OUI, and the multicast LID range of OPA.  Names and
 * values are those of Linux 6.12.
 */
#ifndef OPA_ADDR_H
#define OPA_ADDR_H

#include <rdma/ib_verbs.h>
#include <rdma/opa_smi.h>

#define OPA_SPECIAL_OUI		(0x00066AULL)
/* An OPA GID's interface ID: the OUI in bits 63..40, the LID below */
#define OPA_MAKE_ID(x)		(cpu_to_be64(OPA_SPECIAL_OUI << 40 | (x)))
/* An OPA LID as an IB unicast LID: 0 when IB cannot express it */
#define OPA_TO_IB_UCAST_LID(x)	({					\
	u32 __opa_lid = (x);						\
									\
	__opa_lid >= be16_to_cpu(IB_MULTICAST_LID_BASE) ? 0 : __opa_lid; \
})

#define OPA_GID_INDEX		0x1
/* OPA multicast LIDs: the top OPA_MCAST_NR bits set */
#define OPA_MCAST_NR		0x4
/* Collective LIDs: the OPA_COLLECTIVE_NR bits after those */
#define OPA_COLLECTIVE_NR	0x1

/* ib_is_opa_gid - the GID carries an OPA LID */
static inline bool ib_is_opa_gid(const union ib_gid *gid)
{
	return (be64_to_cpu(gid->global.interface_id) >> 40) ==
	       OPA_SPECIAL_OUI;
}

/* opa_get_lid_from_gid - the LID in an OPA GID's low 32 bits */
static inline u32 opa_get_lid_from_gid(const union ib_gid *gid)
{
	return be64_to_cpu(gid->global.interface_id) & 0xFFFFFFFF;
}

/* opa_is_extended_lid - either LID is beyond what a 16-bit LID can say */
static inline bool opa_is_extended_lid(__be32 dlid, __be32 slid)
{
	u32 limit = be16_to_cpu(IB_MULTICAST_LID_BASE);

	return be32_to_cpu(dlid) >= limit || be32_to_cpu(slid) >= limit;
}

/* opa_get_mcast_base - first LID with the top @nr_top_bits bits set */
static inline u32 opa_get_mcast_base(u32 nr_top_bits)
{
	return be32_to_cpu(OPA_LID_PERMISSIVE) << (32 - nr_top_bits);
}

/*
 * rdma_is_valid_unicast_lid - the destination LID of an IB or OPA address
 * is a unicast LID other than 0 (other address types: always true)
 */
static inline bool rdma_is_valid_unicast_lid(struct rdma_ah_attr *attr)
{
	u32 dlid = rdma_ah_get_dlid(attr);

	if (attr->type == RDMA_AH_ATTR_TYPE_IB)
		return dlid && dlid < be16_to_cpu(IB_MULTICAST_LID_BASE);
	if (attr->type == RDMA_AH_ATTR_TYPE_OPA)
		return dlid && dlid < opa_get_mcast_base(OPA_MCAST_NR);
	return true;
}

#endif /* OPA_ADDR_H */
