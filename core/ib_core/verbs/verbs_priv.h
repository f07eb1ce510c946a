/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Interfaces between the verbs files of ib_core (PD, AH, QP, CQ, MR, ...).
 */
#ifndef RDMA_VERBS_PRIV_H
#define RDMA_VERBS_PRIV_H

#include <rdma/ib_verbs.h>

/* cq_pool.c: free every CQ of the pool when the device goes away. */
void ib_cq_pool_cleanup(struct ib_device *dev);

/*
 * ah.c: take a reference on the source GID entry an address vector
 * names (set it in @ah_attr when the caller gave only an index) and
 * release it again.  @old receives the entry to put after use.
 */
int rdma_fill_sgid_attr(struct ib_device *device, struct rdma_ah_attr *ah_attr,
			const struct ib_gid_attr **old_sgid_attr);
void rdma_unfill_sgid_attr(struct rdma_ah_attr *ah_attr,
			   const struct ib_gid_attr *old_sgid_attr);
/* Swap the referenced entry *@dst for @src (taking a reference). */
void rdma_update_sgid_attr(const struct ib_gid_attr **dst,
			   const struct ib_gid_attr *src);

#endif /* RDMA_VERBS_PRIV_H */
