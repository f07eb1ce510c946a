/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdma_rw internals that the KUnit suite reaches.
 */
#ifndef RDMA_RW_PRIV_H
#define RDMA_RW_PRIV_H

#include <linux/types.h>

#if IS_ENABLED(CONFIG_KUNIT)
/* the force_mr module parameter of ib_core */
extern bool rdma_rw_force_mr;
#endif

#endif /* RDMA_RW_PRIV_H */
