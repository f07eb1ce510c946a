/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Verbs structures as user space sees them (ib_uverbs): address vectors,
 * QP attributes and path records converted to and from the user ABI's
 * structures, for rdma_ucm and the drivers' user commands.
 */
#ifndef IB_USER_MARSHALL_H
#define IB_USER_MARSHALL_H

#include <rdma/ib_sa.h>
#include <rdma/ib_verbs.h>
#include <uapi/rdma/ib_user_sa.h>
#include <uapi/rdma/ib_user_verbs.h>

void ib_copy_qp_attr_to_user(struct ib_device *device,
			     struct ib_uverbs_qp_attr *dst,
			     struct ib_qp_attr *src);
void ib_copy_ah_attr_to_user(struct ib_device *device,
			     struct ib_uverbs_ah_attr *dst,
			     struct rdma_ah_attr *ah_attr);
void ib_copy_path_rec_to_user(struct ib_user_path_rec *dst,
			      struct sa_path_rec *src);
void ib_copy_path_rec_from_user(struct sa_path_rec *dst,
				struct ib_user_path_rec *src);

#endif /* IB_USER_MARSHALL_H */
