// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Link types: software drivers (soft-RoCE, soft-iWARP, the fake HCA)
 * register a type name and a newlink() callback; "rdma link add NAME
 * type TYPE netdev DEV" (RDMA_NLDEV_CMD_NEWLINK) lands in that callback.
 * A type nobody registered is looked for once among the modules, under
 * the alias "rdma-link-TYPE" (MODULE_ALIAS_RDMA_LINK).
 */
#include <linux/export.h>
#include <linux/kmod.h>
#include <linux/list.h>
#include <linux/rwsem.h>
#include <linux/string.h>
#include <net/netlink.h>
#include <rdma/rdma_netlink.h>

#include "../core_priv.h"

/*
 * The registered link types.  link_ops_rwsem protects the list; it is
 * held for reading across a newlink() call, so rdma_link_unregister()
 * returns only once no newlink() of the type runs any more.
 */
static LIST_HEAD(link_ops);
static DECLARE_RWSEM(link_ops_rwsem);

/* Called with link_ops_rwsem held. */
static const struct rdma_link_ops *link_ops_find(const char *type)
{
	const struct rdma_link_ops *ops;

	list_for_each_entry(ops, &link_ops, list)
		if (!strcmp(ops->type, type))
			return ops;
	return NULL;
}

/**
 * rdma_link_register - offer a link type to "rdma link add"
 * @ops: the type; ib_core keeps it on its list until rdma_link_unregister()
 *
 * Registering a type name twice is a bug: it warns and the second
 * registration is ignored.
 *
 * Context: Process context; may sleep. Takes link_ops_rwsem for write.
 */
void rdma_link_register(struct rdma_link_ops *ops)
{
	down_write(&link_ops_rwsem);
	if (!WARN_ON_ONCE(link_ops_find(ops->type)))
		list_add(&ops->list, &link_ops);
	up_write(&link_ops_rwsem);
}
EXPORT_SYMBOL(rdma_link_register);

/**
 * rdma_link_unregister - withdraw a link type
 * @ops: the type given to rdma_link_register()
 *
 * Waits for newlink() calls of any type that are running.  Devices the
 * type created stay; the driver removes them itself.
 *
 * Context: Process context; sleeps while a newlink() is running. Takes
 * link_ops_rwsem for write.
 */
void rdma_link_unregister(struct rdma_link_ops *ops)
{
	down_write(&link_ops_rwsem);
	list_del(&ops->list);
	up_write(&link_ops_rwsem);
}
EXPORT_SYMBOL(rdma_link_unregister);

int rdma_link_newlink(const char *type, const char *ibdev_name,
		      struct net_device *ndev, struct netlink_ext_ack *extack)
{
	const struct rdma_link_ops *ops;
	int ret;

	down_read(&link_ops_rwsem);
	ops = link_ops_find(type);
	if (!ops && IS_ENABLED(CONFIG_MODULES)) {
		/* The module registers the type from its init. */
		up_read(&link_ops_rwsem);
		request_module("rdma-link-%s", type);
		down_read(&link_ops_rwsem);
		ops = link_ops_find(type);
	}
	if (!ops) {
		NL_SET_ERR_MSG(extack, "Unknown link type");
		ret = -EINVAL;
		goto out;
	}
	ret = ops->newlink(ibdev_name, ndev);
	if (ret == -EEXIST)
		NL_SET_ERR_MSG(extack,
			       "Device exists already (name taken or net device in use)");
	else if (ret)
		NL_SET_ERR_MSG(extack, "The link type refused to create the device");
out:
	up_read(&link_ops_rwsem);
	return ret;
}
