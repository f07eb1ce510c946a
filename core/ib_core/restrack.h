/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Resource tracking inside ib_core: the per-device tables and how the
 * verbs enter and remove their objects.
 */
#ifndef RDMA_CORE_RESTRACK_H
#define RDMA_CORE_RESTRACK_H

#include <linux/xarray.h>
#include <rdma/restrack.h>
#include "core_modules.h"

/**
 * struct rdma_restrack_root - one table of a device
 * @xa: the tracked objects by ID; its lock protects @next_id too
 * @next_id: where the cyclic ID allocation goes on
 */
struct rdma_restrack_root {
	struct xarray	xa;
	u32		next_id;
};

int rdma_restrack_init(struct ib_device *dev);
void rdma_restrack_clean(struct ib_device *dev);

void rdma_restrack_begin_del(struct rdma_restrack_entry *res);
void rdma_restrack_abort_del(struct rdma_restrack_entry *res);

struct rdma_restrack_entry *
rdma_restrack_get_next(struct ib_device *dev, enum rdma_restrack_type type,
		       unsigned long *id, bool show_details);

#endif /* RDMA_CORE_RESTRACK_H */
