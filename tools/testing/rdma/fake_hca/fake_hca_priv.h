/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdma_fake_hca: what its source files share.  The suites use
 * <kunit/rdma_fake_hca.h>; nothing outside this module includes this.
 */
#ifndef RDMA_FAKE_HCA_PRIV_H
#define RDMA_FAKE_HCA_PRIV_H

#include <kunit/rdma_fake_hca.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <rdma/ib_verbs.h>

/* One port of a fake device (struct fake_hca's ports[]). */
struct fake_hca_port {
	struct fake_hca_port_desc attr;	/* current values; pointers unused */
	union ib_gid		*gids;		/* IB port: query_gid */
	u16			*pkeys;
	struct fake_hca_hw_gid	*hw_gids;	/* RoCE port: add_gid/del_gid */
	struct net_device	*netdev;
	bool			own_netdev;
};

/* fake_hca_main.c: every fake device, for module exit */
extern struct list_head fake_hca_list;
extern struct mutex fake_hca_list_lock;

/* fake_hca_faults.c: each op starts with this; 0 or the error to fail with */
int fake_hca_enter(struct fake_hca *hca, enum fake_hca_op op);

/* Port @port (from 1) of @hca, or NULL */
static inline struct fake_hca_port *fake_hca_port(struct fake_hca *hca,
						  u32 port)
{
	if (port < 1 || port > hca->desc.num_ports)
		return NULL;
	return &hca->ports[port - 1];
}

/* The device ops, one table per file; fake_hca_create() merges them. */
extern const struct ib_device_ops fake_hca_base_ops;	/* fake_hca_port.c */
extern const struct ib_device_ops fake_hca_fw_ops;	/* fake_hca_port.c */
extern const struct ib_device_ops fake_hca_dealloc_ops;	/* fake_hca_port.c */
extern const struct ib_device_ops fake_hca_table_ops;	/* fake_hca_tables.c */
extern const struct ib_device_ops fake_hca_kverbs_ops;	/* fake_hca_verbs.c */
extern const struct ib_device_ops fake_hca_iw_ops;	/* fake_hca_iwarp.c */
extern const struct ib_device_ops fake_hca_stats_ops;	/* fake_hca_stats.c */
extern const struct ib_device_ops fake_hca_user_ops;	/* fake_hca_user.c */

/* fake_hca_iwarp.c: the iWARP state of a device */
int fake_hca_iw_init(struct fake_hca *hca);
void fake_hca_iw_release(struct fake_hca *hca);

/* fake_hca_device.c: undo fake_hca_create() but for the ib_device */
void fake_hca_release(struct fake_hca *hca);

/* fake_hca_netdev.c */
struct net_device *fake_hca_netdev_create(const struct fake_hca_port_desc *pd);
void fake_hca_netdev_destroy(struct net_device *dev);

/* fake_hca_link.c: link type "fake" */
int fake_hca_link_init(void);
void fake_hca_link_exit(void);

#endif /* RDMA_FAKE_HCA_PRIV_H */
