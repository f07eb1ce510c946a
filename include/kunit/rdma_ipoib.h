/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What ib_ipoib (ulp/ipoib) exports to the KUnit suites of other modules
 * (EXPORT_SYMBOL_IF_KUNIT): IPoIB's hardware address of a port, for a
 * suite that makes a neighbour entry on an IPoIB interface.  Calling it
 * also makes ib_ipoib a dependency of the suite's module, so its
 * interfaces exist for the devices the suite makes.  The header of
 * ib_ipoib's own stays private to its folder.
 */
#ifndef KUNIT_RDMA_IPOIB_H
#define KUNIT_RDMA_IPOIB_H

#include <linux/types.h>
#include <rdma/ib_verbs.h>

/* @ha: INFINIBAND_ALEN bytes: @flags and @qpn, then @gid (RFC 4391) */
void ipoib_make_hwaddr(u8 *ha, u8 flags, u32 qpn, const union ib_gid *gid);

#endif /* KUNIT_RDMA_IPOIB_H */
