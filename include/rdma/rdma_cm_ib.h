/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdma_cm calls that only make sense on InfiniBand: a path record the
 * caller got elsewhere, and the Q_Key of rdma_cm's UDP port space.
 */
#ifndef RDMA_CM_IB_H
#define RDMA_CM_IB_H

#include <rdma/rdma_cm.h>

int rdma_set_ib_path(struct rdma_cm_id *id, struct sa_path_rec *path_rec);

/* Q_Key of every UDP-port-space QP and multicast group. */
#define RDMA_UDP_QKEY 0x01234567

#endif /* RDMA_CM_IB_H */
