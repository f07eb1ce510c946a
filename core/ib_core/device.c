// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The device registry: allocation, naming, registration, references and
 * unregistration of RDMA devices, and the net devices bound to ports.
 *
 * Life of a device:
 *   ib_alloc_device()      refcount 0, not in the table, not in sysfs
 *   ib_register_device()   gets an index and a name, caches, sysfs, then
 *                          DEVICE_REGISTERED is set, refcount becomes 1
 *                          and the clients are added
 *   unregistration         DEVICE_REGISTERED is cleared (try_get fails
 *                          from now on), clients are removed in reverse
 *                          order, the initial reference is dropped and we
 *                          wait for every other holder, then sysfs and the
 *                          caches go away
 *   ib_dealloc_device()    dealloc_driver runs, then the device leaves the
 *                          table (a device without dealloc_driver left it
 *                          at unregistration); the last put_device() frees
 *                          the memory
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/string.h>
#include <net/net_namespace.h>
#include <net/netlink.h>
#include <rdma/ib_verbs.h>

#include "core_priv.h"
#include "netlink/nldev_priv.h"
#include "client.h"
#include "restrack.h"
#include "verbs/verbs_priv.h"

/*
 * All devices that have an index, registered or on their way in or out.
 *
 * devices_rwsem protects the table, the DEVICE_REGISTERED mark and device
 * names.  It is taken for write to add or remove a device, to change the
 * mark and to rename; lookups take it for read (or use RCU with
 * xa_get_mark() in ib_device_try_get()).
 */
static DEFINE_XARRAY_FLAGS(devices, XA_FLAGS_ALLOC);
static DECLARE_RWSEM(devices_rwsem);

bool ib_devices_shared_netns = true;
module_param_named(netns_mode, ib_devices_shared_netns, bool, 0444);
MODULE_PARM_DESC(netns_mode,
		 "Share RDMA devices among network namespaces (default: 1)");

/**
 * rdma_dev_access_netns - may a network namespace use a device
 * @device: the device
 * @net: the namespace
 *
 * In shared mode every namespace sees every device; in exclusive mode
 * only the namespace the device belongs to.
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: true when @net may use @device.
 */
bool rdma_dev_access_netns(const struct ib_device *device,
			   const struct net *net)
{
	return ib_devices_shared_netns ||
	       net_eq(read_pnet(&device->coredev.rdma_net), net);
}
EXPORT_SYMBOL(rdma_dev_access_netns);

/**
 * ib_device_registered - whether a device is between registration and
 * the start of its unregistration
 * @device: the device
 *
 * Context: Any context; does not sleep (lookups under RCU, no lock).
 *
 * Return: true from the end of registration until unregistration starts.
 */
bool ib_device_registered(struct ib_device *device)
{
	/*
	 * A device that never got an index still has index 0, which may be
	 * another device's: check that the entry is this device.
	 */
	return xa_load(&devices, device->index) == device &&
	       xa_get_mark(&devices, device->index, DEVICE_REGISTERED);
}
EXPORT_SYMBOL_IF_KUNIT(ib_device_registered);

/* ------------------------------------------------------------------
 * Messages
 */

static void ibdev_vprintk(const char *level, const struct ib_device *ibdev,
			  struct va_format *vaf)
{
	const struct device *parent = ibdev ? ibdev->dev.parent : NULL;

	if (parent)
		dev_printk(level, parent, "%s: %pV", dev_name(&ibdev->dev),
			   vaf);
	else
		dev_printk(level, ibdev ? &ibdev->dev : NULL, "%pV", vaf);
}

/**
 * ibdev_printk - print a message about a device
 * @level: a KERN_* level
 * @ibdev: the device, or NULL
 * @format: printf() format of the message, then its arguments
 *
 * The message starts with the device's parent, the parent's driver and
 * the device's name ("<driver> <parent>: <device>: "), or for a device
 * without a parent (software devices) with "infiniband <device>: ".
 * ibdev_err(), ibdev_warn() and the other levels do the same with the
 * level of their name.
 *
 * Context: any context.
 * Return: nothing.
 */
void ibdev_printk(const char *level, const struct ib_device *ibdev,
		  const char *format, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, format);
	vaf.fmt = format;
	vaf.va = &args;
	ibdev_vprintk(level, ibdev, &vaf);
	va_end(args);
}
EXPORT_SYMBOL(ibdev_printk);

#define DEFINE_IBDEV_LEVEL(name, level)					\
void name(const struct ib_device *ibdev, const char *format, ...)	\
{									\
	struct va_format vaf;						\
	va_list args;							\
									\
	va_start(args, format);						\
	vaf.fmt = format;						\
	vaf.va = &args;							\
	ibdev_vprintk(level, ibdev, &vaf);				\
	va_end(args);							\
}									\
EXPORT_SYMBOL(name)

DEFINE_IBDEV_LEVEL(ibdev_emerg, KERN_EMERG);
DEFINE_IBDEV_LEVEL(ibdev_alert, KERN_ALERT);
DEFINE_IBDEV_LEVEL(ibdev_crit, KERN_CRIT);
DEFINE_IBDEV_LEVEL(ibdev_err, KERN_ERR);
DEFINE_IBDEV_LEVEL(ibdev_warn, KERN_WARNING);
DEFINE_IBDEV_LEVEL(ibdev_notice, KERN_NOTICE);
DEFINE_IBDEV_LEVEL(ibdev_info, KERN_INFO);

/* ------------------------------------------------------------------
 * The class
 */

static void ib_device_release(struct device *dev)
{
	struct ib_device *device = container_of(dev, struct ib_device, dev);

	ib_cache_release_one(device);
	rdma_counter_release(device);
	rdma_restrack_clean(device);
	kfree(device->port_data);
	mutex_destroy(&device->unregistration_lock);
	mutex_destroy(&device->compat_devs_mutex);
	mutex_destroy(&device->subdev_lock);
	xa_destroy(&device->client_data);
	xa_destroy(&device->compat_devs);
	kfree_rcu(device, rcu_head);
}

static int ib_device_uevent(const struct device *dev,
			    struct kobj_uevent_env *env)
{
	if (add_uevent_var(env, "NAME=%s", dev_name(dev)))
		return -ENOMEM;
	return 0;
}

static const void *net_namespace(const struct device *dev)
{
	const struct ib_core_device *coredev =
		container_of(dev, struct ib_core_device, dev);

	return read_pnet(&coredev->rdma_net);
}

const struct class ib_class = {
	.name = "infiniband",
	.dev_release = ib_device_release,
	.dev_uevent = ib_device_uevent,
	.ns_type = &net_ns_type_operations,
	.namespace = net_namespace,
};

/* ------------------------------------------------------------------
 * Allocation
 */

static void free_netdevs(struct ib_device *ib_dev);

/**
 * _ib_alloc_device - allocate a device structure
 * @size: size of the driver's structure, which starts with an ib_device
 *
 * Drivers use the ib_alloc_device() wrapper.  The device is freed with
 * ib_dealloc_device().
 *
 * Context: Process context; may sleep (GFP_KERNEL allocations). Takes no lock.
 *
 * Return: the zeroed, initialised device or NULL.
 */
struct ib_device *_ib_alloc_device(size_t size)
{
	struct ib_device *device;
	unsigned int i;

	if (WARN_ON(size < sizeof(struct ib_device)))
		return NULL;

	device = kzalloc(size, GFP_KERNEL);
	if (!device)
		return NULL;

	if (rdma_restrack_init(device)) {
		kfree(device);
		return NULL;
	}

	device->coredev.dev.class = &ib_class;
	device->groups[0] = &ib_dev_attr_group;
	device->coredev.dev.groups = device->groups;
	device_initialize(&device->dev);
	device->coredev.owner = device;
	INIT_LIST_HEAD(&device->coredev.port_list);
	write_pnet(&device->coredev.rdma_net, &init_net);

	INIT_LIST_HEAD(&device->event_handler_list);
	init_rwsem(&device->event_handler_rwsem);
	mutex_init(&device->unregistration_lock);
	xa_init_flags(&device->client_data, XA_FLAGS_ALLOC);
	init_rwsem(&device->client_data_rwsem);
	xa_init_flags(&device->compat_devs, XA_FLAGS_ALLOC);
	mutex_init(&device->compat_devs_mutex);
	init_completion(&device->unreg_completion);
	INIT_WORK(&device->unregistration_work, ib_unregister_work);
	spin_lock_init(&device->cq_pools_lock);
	for (i = 0; i < ARRAY_SIZE(device->cq_pools); i++)
		INIT_LIST_HEAD(&device->cq_pools[i]);
	rwlock_init(&device->cache_lock);
	spin_lock_init(&device->qp_open_list_lock);
	mutex_init(&device->subdev_lock);
	INIT_LIST_HEAD(&device->subdev_list_head);
	INIT_LIST_HEAD(&device->subdev_list);
	device->uverbs_cmd_mask = 0;
	return device;
}
EXPORT_SYMBOL(_ib_alloc_device);

static void release_index(struct ib_device *device);

/**
 * ib_dealloc_device - free a device structure
 * @device: a device from ib_alloc_device() that is not registered
 *
 * Drivers that set ops.dealloc_driver must not call this after a
 * successful registration: the core frees such devices itself when they
 * are unregistered.  The driver's dealloc_driver op runs first; only once
 * it has returned does the device leave the index, so that
 * ib_unregister_driver() still finds it, and waits for it, while driver
 * code runs for it.
 *
 * Context: process context; may sleep.  Called under the device's
 * unregistration lock when the core frees a registered device.
 * Return: nothing; @device must not be used afterwards.
 */
void ib_dealloc_device(struct ib_device *device)
{
	if (device->ops.dealloc_driver)
		device->ops.dealloc_driver(device);

	/* The last driver op has returned: module unload may go on. */
	release_index(device);

	/* Bindings made before a registration that failed or never came. */
	free_netdevs(device);

	/* A registered device must go through unregistration first. */
	WARN_ON(refcount_read(&device->refcount));
	WARN_ON(!xa_empty(&device->client_data));
	WARN_ON(!list_empty(&device->event_handler_list));

	put_device(&device->dev);
}
EXPORT_SYMBOL(ib_dealloc_device);

/*
 * Copy every op the table sets and the device does not have yet, so a
 * driver can assemble its ops from several tables.
 */
#define SET_DEVICE_OP(ptr, name)					\
	do {								\
		if (ops->name && !(ptr)->name)				\
			(ptr)->name = ops->name;			\
	} while (0)

#define SET_OBJ_SIZE(ptr, name) SET_DEVICE_OP(ptr, size_##name)

/**
 * ib_set_device_ops - merge a driver's ops into a device
 * @dev: the device
 * @ops: the ops; members already set on @dev are left alone
 *
 * Context: Any context; takes no lock and does not sleep. Called before
 * ib_register_device(), while nobody else looks at the ops.
 */
void ib_set_device_ops(struct ib_device *dev, const struct ib_device_ops *ops)
{
	struct ib_device_ops *dev_ops = &dev->ops;

	if (ops->driver_id != RDMA_DRIVER_UNKNOWN) {
		WARN_ON(dev_ops->driver_id != RDMA_DRIVER_UNKNOWN &&
			dev_ops->driver_id != ops->driver_id);
		dev_ops->driver_id = ops->driver_id;
	}
	if (ops->owner) {
		WARN_ON(dev_ops->owner && dev_ops->owner != ops->owner);
		dev_ops->owner = ops->owner;
	}
	if (ops->uverbs_abi_ver)
		dev_ops->uverbs_abi_ver = ops->uverbs_abi_ver;
	dev_ops->uverbs_no_driver_id_binding |=
		ops->uverbs_no_driver_id_binding;

	SET_DEVICE_OP(dev_ops, add_gid);
	SET_DEVICE_OP(dev_ops, add_sub_dev);
	SET_DEVICE_OP(dev_ops, advise_mr);
	SET_DEVICE_OP(dev_ops, alloc_dm);
	SET_DEVICE_OP(dev_ops, alloc_hw_device_stats);
	SET_DEVICE_OP(dev_ops, alloc_hw_port_stats);
	SET_DEVICE_OP(dev_ops, alloc_mr);
	SET_DEVICE_OP(dev_ops, alloc_mr_integrity);
	SET_DEVICE_OP(dev_ops, alloc_mw);
	SET_DEVICE_OP(dev_ops, alloc_pd);
	SET_DEVICE_OP(dev_ops, alloc_rdma_netdev);
	SET_DEVICE_OP(dev_ops, alloc_ucontext);
	SET_DEVICE_OP(dev_ops, alloc_xrcd);
	SET_DEVICE_OP(dev_ops, attach_mcast);
	SET_DEVICE_OP(dev_ops, check_mr_status);
	SET_DEVICE_OP(dev_ops, counter_alloc_stats);
	SET_DEVICE_OP(dev_ops, counter_bind_qp);
	SET_DEVICE_OP(dev_ops, counter_dealloc);
	SET_DEVICE_OP(dev_ops, counter_unbind_qp);
	SET_DEVICE_OP(dev_ops, counter_update_stats);
	SET_DEVICE_OP(dev_ops, create_ah);
	SET_DEVICE_OP(dev_ops, create_counters);
	SET_DEVICE_OP(dev_ops, create_cq);
	SET_DEVICE_OP(dev_ops, create_flow);
	SET_DEVICE_OP(dev_ops, create_qp);
	SET_DEVICE_OP(dev_ops, create_rwq_ind_table);
	SET_DEVICE_OP(dev_ops, create_srq);
	SET_DEVICE_OP(dev_ops, create_user_ah);
	SET_DEVICE_OP(dev_ops, create_wq);
	SET_DEVICE_OP(dev_ops, dealloc_dm);
	SET_DEVICE_OP(dev_ops, dealloc_driver);
	SET_DEVICE_OP(dev_ops, dealloc_mw);
	SET_DEVICE_OP(dev_ops, dealloc_pd);
	SET_DEVICE_OP(dev_ops, dealloc_ucontext);
	SET_DEVICE_OP(dev_ops, dealloc_xrcd);
	SET_DEVICE_OP(dev_ops, del_gid);
	SET_DEVICE_OP(dev_ops, del_sub_dev);
	SET_DEVICE_OP(dev_ops, dereg_mr);
	SET_DEVICE_OP(dev_ops, destroy_ah);
	SET_DEVICE_OP(dev_ops, destroy_counters);
	SET_DEVICE_OP(dev_ops, destroy_cq);
	SET_DEVICE_OP(dev_ops, destroy_flow);
	SET_DEVICE_OP(dev_ops, destroy_flow_action);
	SET_DEVICE_OP(dev_ops, destroy_qp);
	SET_DEVICE_OP(dev_ops, destroy_rwq_ind_table);
	SET_DEVICE_OP(dev_ops, destroy_srq);
	SET_DEVICE_OP(dev_ops, destroy_wq);
	SET_DEVICE_OP(dev_ops, device_group);
	SET_DEVICE_OP(dev_ops, detach_mcast);
	SET_DEVICE_OP(dev_ops, disassociate_ucontext);
	SET_DEVICE_OP(dev_ops, drain_rq);
	SET_DEVICE_OP(dev_ops, drain_sq);
	SET_DEVICE_OP(dev_ops, enable_driver);
	SET_DEVICE_OP(dev_ops, fill_res_cm_id_entry);
	SET_DEVICE_OP(dev_ops, fill_res_cq_entry);
	SET_DEVICE_OP(dev_ops, fill_res_cq_entry_raw);
	SET_DEVICE_OP(dev_ops, fill_res_mr_entry);
	SET_DEVICE_OP(dev_ops, fill_res_mr_entry_raw);
	SET_DEVICE_OP(dev_ops, fill_res_qp_entry);
	SET_DEVICE_OP(dev_ops, fill_res_qp_entry_raw);
	SET_DEVICE_OP(dev_ops, fill_res_srq_entry);
	SET_DEVICE_OP(dev_ops, fill_res_srq_entry_raw);
	SET_DEVICE_OP(dev_ops, fill_stat_mr_entry);
	SET_DEVICE_OP(dev_ops, get_dev_fw_str);
	SET_DEVICE_OP(dev_ops, get_dma_mr);
	SET_DEVICE_OP(dev_ops, get_hw_stats);
	SET_DEVICE_OP(dev_ops, get_link_layer);
	SET_DEVICE_OP(dev_ops, get_netdev);
	SET_DEVICE_OP(dev_ops, get_numa_node);
	SET_DEVICE_OP(dev_ops, get_port_immutable);
	SET_DEVICE_OP(dev_ops, get_vector_affinity);
	SET_DEVICE_OP(dev_ops, get_vf_config);
	SET_DEVICE_OP(dev_ops, get_vf_guid);
	SET_DEVICE_OP(dev_ops, get_vf_stats);
	SET_DEVICE_OP(dev_ops, iw_accept);
	SET_DEVICE_OP(dev_ops, iw_add_ref);
	SET_DEVICE_OP(dev_ops, iw_connect);
	SET_DEVICE_OP(dev_ops, iw_create_listen);
	SET_DEVICE_OP(dev_ops, iw_destroy_listen);
	SET_DEVICE_OP(dev_ops, iw_get_qp);
	SET_DEVICE_OP(dev_ops, iw_reject);
	SET_DEVICE_OP(dev_ops, iw_rem_ref);
	SET_DEVICE_OP(dev_ops, map_mr_sg);
	SET_DEVICE_OP(dev_ops, map_mr_sg_pi);
	SET_DEVICE_OP(dev_ops, mmap);
	SET_DEVICE_OP(dev_ops, mmap_free);
	SET_DEVICE_OP(dev_ops, modify_ah);
	SET_DEVICE_OP(dev_ops, modify_cq);
	SET_DEVICE_OP(dev_ops, modify_device);
	SET_DEVICE_OP(dev_ops, modify_hw_stat);
	SET_DEVICE_OP(dev_ops, modify_port);
	SET_DEVICE_OP(dev_ops, modify_qp);
	SET_DEVICE_OP(dev_ops, modify_srq);
	SET_DEVICE_OP(dev_ops, modify_wq);
	SET_DEVICE_OP(dev_ops, peek_cq);
	SET_DEVICE_OP(dev_ops, poll_cq);
	SET_DEVICE_OP(dev_ops, port_groups);
	SET_DEVICE_OP(dev_ops, post_destroy_cq);
	SET_DEVICE_OP(dev_ops, post_recv);
	SET_DEVICE_OP(dev_ops, post_send);
	SET_DEVICE_OP(dev_ops, post_srq_recv);
	SET_DEVICE_OP(dev_ops, pre_destroy_cq);
	SET_DEVICE_OP(dev_ops, process_mad);
	SET_DEVICE_OP(dev_ops, query_ah);
	SET_DEVICE_OP(dev_ops, query_device);
	SET_DEVICE_OP(dev_ops, query_gid);
	SET_DEVICE_OP(dev_ops, query_pkey);
	SET_DEVICE_OP(dev_ops, query_port);
	SET_DEVICE_OP(dev_ops, query_qp);
	SET_DEVICE_OP(dev_ops, query_srq);
	SET_DEVICE_OP(dev_ops, query_ucontext);
	SET_DEVICE_OP(dev_ops, rdma_netdev_get_params);
	SET_DEVICE_OP(dev_ops, read_counters);
	SET_DEVICE_OP(dev_ops, reg_dm_mr);
	SET_DEVICE_OP(dev_ops, reg_user_mr);
	SET_DEVICE_OP(dev_ops, reg_user_mr_dmabuf);
	SET_DEVICE_OP(dev_ops, req_notify_cq);
	SET_DEVICE_OP(dev_ops, rereg_user_mr);
	SET_DEVICE_OP(dev_ops, resize_cq);
	SET_DEVICE_OP(dev_ops, set_vf_guid);
	SET_DEVICE_OP(dev_ops, set_vf_link_state);

	SET_OBJ_SIZE(dev_ops, ib_ah);
	SET_OBJ_SIZE(dev_ops, ib_counters);
	SET_OBJ_SIZE(dev_ops, ib_cq);
	SET_OBJ_SIZE(dev_ops, ib_mw);
	SET_OBJ_SIZE(dev_ops, ib_pd);
	SET_OBJ_SIZE(dev_ops, ib_qp);
	SET_OBJ_SIZE(dev_ops, ib_rwq_ind_table);
	SET_OBJ_SIZE(dev_ops, ib_srq);
	SET_OBJ_SIZE(dev_ops, ib_ucontext);
	SET_OBJ_SIZE(dev_ops, ib_xrcd);
}
EXPORT_SYMBOL(ib_set_device_ops);

/* ------------------------------------------------------------------
 * Names
 */

/**
 * ib_device_name_check - validate a device name or name template
 * @name: the name
 * @allow_template: accept one "%d" that picks the lowest free index
 *
 * A name is non-empty, shorter than IB_DEVICE_NAME_MAX, is not "." or
 * "..", and has no '/', ':' or white space (it becomes a sysfs directory
 * and a netlink string).  A template may hold one "%d" and no other '%'.
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: 0 or -EINVAL.
 */
int ib_device_name_check(const char *name, bool allow_template)
{
	size_t len = strnlen(name, IB_DEVICE_NAME_MAX);
	const char *pct;
	const char *c;

	if (!len || len >= IB_DEVICE_NAME_MAX)
		return -EINVAL;
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return -EINVAL;
	for (c = name; *c; c++)
		if (*c == '/' || *c == ':' || isspace(*c))
			return -EINVAL;

	pct = strchr(name, '%');
	if (!pct)
		return 0;
	if (!allow_template || pct[1] != 'd' || strchr(pct + 2, '%'))
		return -EINVAL;
	/* The index must fit: "%d" grows to at most 10 digits. */
	if (len - 2 + 10 >= IB_DEVICE_NAME_MAX)
		return -EINVAL;
	return 0;
}

/* Called with devices_rwsem held. */
static struct ib_device *__ib_device_get_by_name(const char *name)
{
	struct ib_device *device;
	unsigned long index;

	xa_for_each(&devices, index, device)
		if (!strcmp(name, dev_name(&device->dev)))
			return device;
	return NULL;
}

/*
 * Does @name come from @template with some index?  Returns the index or
 * -1.  Unlike sscanf() this insists on an exact round trip, so "mlx5_01"
 * does not count as index 1 of "mlx5_%d".
 */
static int name_template_index(const char *template, const char *name)
{
	const char *pct = strchr(template, '%');
	size_t prefix = pct - template;
	const char *suffix = pct + 2;
	size_t name_len = strlen(name);
	size_t suffix_len = strlen(suffix);
	char digits[12];
	size_t ndigits;
	unsigned int idx;

	if (name_len <= prefix + suffix_len ||
	    strncmp(name, template, prefix) ||
	    strcmp(name + name_len - suffix_len, suffix))
		return -1;

	ndigits = name_len - prefix - suffix_len;
	if (ndigits >= sizeof(digits))
		return -1;
	memcpy(digits, name + prefix, ndigits);
	digits[ndigits] = '\0';
	if ((ndigits > 1 && digits[0] == '0') || kstrtouint(digits, 10, &idx) ||
	    idx > INT_MAX)
		return -1;
	return idx;
}

/* Expand a template to the lowest free name.  devices_rwsem held. */
static int alloc_name(struct ib_device *ibdev, const char *template)
{
	struct ib_device *device;
	unsigned long index;
	struct ida inuse;
	int rc;
	int i;

	ida_init(&inuse);
	xa_for_each(&devices, index, device) {
		i = name_template_index(template, dev_name(&device->dev));
		if (i < 0)
			continue;
		rc = ida_alloc_range(&inuse, i, i, GFP_KERNEL);
		if (rc < 0 && rc != -ENOSPC)
			goto out;
	}

	rc = ida_alloc(&inuse, GFP_KERNEL);
	if (rc < 0)
		goto out;
	rc = dev_set_name(&ibdev->dev, template, rc);
out:
	ida_destroy(&inuse);
	return rc;
}

/*
 * Give the device an index in the table and a name.  The entry is
 * inserted without the DEVICE_REGISTERED mark, so nobody can find it yet.
 */
static int assign_name(struct ib_device *device, const char *name)
{
	static u32 last_id;
	bool template = strchr(name, '%');
	int ret;

	ret = ib_device_name_check(name, true);
	if (ret)
		return ret;

	down_write(&devices_rwsem);
	if (template)
		ret = alloc_name(device, name);
	else if (__ib_device_get_by_name(name))
		ret = -EEXIST;
	else
		ret = dev_set_name(&device->dev, "%s", name);
	if (ret)
		goto out;

	/* Another device may have taken a name with the same prefix. */
	if (__ib_device_get_by_name(dev_name(&device->dev))) {
		ret = -ENFILE;
		goto out;
	}
	strscpy(device->name, dev_name(&device->dev), IB_DEVICE_NAME_MAX);

	ret = xa_alloc_cyclic(&devices, &device->index, device, xa_limit_31b,
			      &last_id, GFP_KERNEL);
	if (ret > 0)
		ret = 0;
out:
	up_write(&devices_rwsem);
	return ret;
}

/*
 * Take the device out of the table.  A device that never got an index, or
 * whose index was released before and given to another device since,
 * holds an index that is not its own: leave that entry alone.
 */
static void release_index(struct ib_device *device)
{
	down_write(&devices_rwsem);
	if (xa_load(&devices, device->index) == device)
		xa_erase(&devices, device->index);
	up_write(&devices_rwsem);
}

/**
 * ib_device_rename - rename a registered device
 * @ibdev: the device
 * @name: the new name; templates are not accepted
 *
 * Clients with a rename() callback are told after the rename.
 *
 * Context: Process context; sleeps. Takes devices_rwsem for write, then,
 * downgraded to read, clients_rwsem and each client's device client_data_rwsem
 * for read around the rename() callbacks.
 *
 * Return: 0, -EINVAL for an invalid name, -EEXIST when the name is taken,
 * or the error of device_rename().
 */
int ib_device_rename(struct ib_device *ibdev, const char *name)
{
	int ret;

	ret = ib_device_name_check(name, false);
	if (ret)
		return ret;

	down_write(&devices_rwsem);
	if (!strcmp(name, dev_name(&ibdev->dev))) {
		up_write(&devices_rwsem);
		return 0;
	}
	if (__ib_device_get_by_name(name)) {
		up_write(&devices_rwsem);
		return -EEXIST;
	}
	ret = device_rename(&ibdev->dev, name);
	if (ret) {
		up_write(&devices_rwsem);
		return ret;
	}
	strscpy(ibdev->name, name, IB_DEVICE_NAME_MAX);
	downgrade_write(&devices_rwsem);
	ib_clients_rename(ibdev);
	up_read(&devices_rwsem);
	return 0;
}
EXPORT_SYMBOL(ib_device_rename);

/* ------------------------------------------------------------------
 * References
 */

/**
 * ib_device_try_get - take a registration reference on a device
 * @device: the device
 *
 * Fails once unregistration has started (or before registration has
 * finished), so a user can never delay an unregistration that is already
 * draining.  A reference taken here blocks unregistration until
 * ib_device_put().
 *
 * Context: Any context; takes no lock and does not sleep (reads the
 * registration mark of the device table without its lock).
 *
 * Return: true if the reference was taken.
 */
bool ib_device_try_get(struct ib_device *device)
{
	if (!refcount_inc_not_zero(&device->refcount))
		return false;
	if (!ib_device_registered(device)) {
		ib_device_put(device);
		return false;
	}
	return true;
}
EXPORT_SYMBOL(ib_device_try_get);

/**
 * ib_device_put - drop a reference taken with ib_device_try_get()
 * @device: the device
 *
 * Context: Any context; takes no lock and does not sleep. The last put wakes
 * the unregistration waiting for the device's users.
 */
void ib_device_put(struct ib_device *device)
{
	if (refcount_dec_and_test(&device->refcount)) {
		/* Pairs with the wait in disable_device(). */
		complete(&device->unreg_completion);
	}
}
EXPORT_SYMBOL(ib_device_put);

/**
 * ib_device_get_by_name - find a registered device by name
 * @name: the name
 * @driver_id: only devices of this driver, or RDMA_DRIVER_UNKNOWN for any
 *
 * Context: Process context; may sleep. Takes devices_rwsem for read.
 *
 * Return: the device with a reference the caller drops with
 * ib_device_put(), or NULL.
 */
struct ib_device *ib_device_get_by_name(const char *name,
					enum rdma_driver_id driver_id)
{
	struct ib_device *device;

	down_read(&devices_rwsem);
	device = __ib_device_get_by_name(name);
	if (device && driver_id != RDMA_DRIVER_UNKNOWN &&
	    device->ops.driver_id != driver_id)
		device = NULL;
	if (device && !ib_device_try_get(device))
		device = NULL;
	up_read(&devices_rwsem);
	return device;
}
EXPORT_SYMBOL(ib_device_get_by_name);

/**
 * ib_device_get_by_index - find a registered device by its index
 * @net: the namespace asking; the device must be visible in it
 * @index: the device index (as in netlink)
 *
 * Context: Process context; may sleep. Takes devices_rwsem for read.
 *
 * Return: the device with a reference, or NULL.
 */
struct ib_device *ib_device_get_by_index(const struct net *net, u32 index)
{
	struct ib_device *device;

	down_read(&devices_rwsem);
	device = xa_load(&devices, index);
	if (device && (!rdma_dev_access_netns(device, net) ||
		       !ib_device_try_get(device)))
		device = NULL;
	up_read(&devices_rwsem);
	return device;
}
EXPORT_SYMBOL(ib_device_get_by_index);

/**
 * ib_enum_all_devs - call a function for every registered device
 * @nldev_cb: the function; a non-zero return stops the walk
 * @skb: passed to @nldev_cb
 * @cb: netlink callback; only devices visible in its socket's namespace
 *
 * Return: the first non-zero return of @nldev_cb, or 0.
 */
int ib_enum_all_devs(nldev_callback nldev_cb, struct sk_buff *skb,
		     struct netlink_callback *cb)
{
	struct ib_device *dev;
	unsigned long index;
	unsigned int idx = 0;
	int ret = 0;

	down_read(&devices_rwsem);
	xa_for_each_marked(&devices, index, dev, DEVICE_REGISTERED) {
		if (!rdma_dev_access_netns(dev, sock_net(skb->sk)))
			continue;
		ret = nldev_cb(dev, skb, cb, idx);
		if (ret)
			break;
		idx++;
	}
	up_read(&devices_rwsem);
	return ret;
}

/**
 * ib_devices_walk_registered - internal walk for clients
 * @fn: called for every registered device with devices_rwsem held for read
 * @data: passed to @fn
 *
 * Return: the first non-zero return of @fn, or 0.
 */
int ib_devices_walk_registered(ib_device_walk_fn fn, void *data)
{
	struct ib_device *dev;
	unsigned long index;
	int ret = 0;

	down_read(&devices_rwsem);
	xa_for_each_marked(&devices, index, dev, DEVICE_REGISTERED) {
		ret = fn(dev, data);
		if (ret)
			break;
	}
	up_read(&devices_rwsem);
	return ret;
}

/**
 * ib_devices_visit_held - internal walk that holds no lock in @fn
 * @fn: called for every device ib_device_try_get() succeeds on, with
 *	that reference held and no lock
 * @data: passed to @fn
 */
void ib_devices_visit_held(ib_device_visit_fn fn, void *data)
{
	struct ib_device *dev;
	unsigned long index;

	rcu_read_lock();
	xa_for_each(&devices, index, dev) {
		if (!ib_device_try_get(dev))
			continue;
		rcu_read_unlock();
		fn(dev, data);
		ib_device_put(dev);
		rcu_read_lock();
	}
	rcu_read_unlock();
}

/* ------------------------------------------------------------------
 * Ports and net devices
 */

/*
 * Net devices bound to ports, for ib_device_get_by_netdev().  Readers use
 * RCU; writers hold ndev_hash_lock.
 */
static DEFINE_SPINLOCK(ndev_hash_lock);
static DECLARE_HASHTABLE(ndev_hash, 5);

static void add_ndev_hash(struct ib_port_data *pdata)
{
	unsigned long flags;

	might_sleep();
	spin_lock_irqsave(&ndev_hash_lock, flags);
	if (hash_hashed(&pdata->ndev_hash_link)) {
		hash_del_rcu(&pdata->ndev_hash_link);
		spin_unlock_irqrestore(&ndev_hash_lock, flags);
		/* Readers may still walk the old bucket. */
		synchronize_rcu();
		spin_lock_irqsave(&ndev_hash_lock, flags);
	}
	if (pdata->netdev)
		hash_add_rcu(ndev_hash, &pdata->ndev_hash_link,
			     (uintptr_t)pdata->netdev);
	spin_unlock_irqrestore(&ndev_hash_lock, flags);
}

/**
 * ib_device_set_netdev - bind a net device to a port
 * @ib_dev: the device
 * @ndev: the net device, or NULL to unbind
 * @port: the port
 *
 * The core holds a reference on @ndev until it is unbound or the device is
 * unregistered.  Drivers with a get_netdev op manage the binding
 * themselves and cannot use this.
 *
 * Context: Process context; sleeps (synchronize_rcu() when the binding
 * changes, GFP_KERNEL allocations, the GID cache update). Takes the port's
 * netdev_lock and ndev_hash_lock (both spinlocks, interrupts saved) and, for a
 * registered device, the port GID table's mutex. May be called with RTNL held.
 *
 * Return: 0, -EINVAL for a bad port, -EOPNOTSUPP when the driver has
 * get_netdev.
 */
int ib_device_set_netdev(struct ib_device *ib_dev, struct net_device *ndev,
			 u32 port)
{
	struct ib_port_data *pdata;
	struct net_device *old_ndev;
	unsigned long flags;

	if (!rdma_is_port_valid(ib_dev, port))
		return -EINVAL;
	if (ib_dev->ops.get_netdev)
		return -EOPNOTSUPP;

	/* Before registration the port data do not exist yet: keep it. */
	if (!ib_dev->port_data) {
		int ret = ib_device_alloc_port_data(ib_dev);

		if (ret)
			return ret;
	}

	pdata = &ib_dev->port_data[port];
	spin_lock_irqsave(&pdata->netdev_lock, flags);
	old_ndev = rcu_dereference_protected(pdata->netdev,
					     lockdep_is_held(&pdata->netdev_lock));
	if (old_ndev == ndev) {
		spin_unlock_irqrestore(&pdata->netdev_lock, flags);
		return 0;
	}
	if (old_ndev)
		netdev_tracker_free(old_ndev, &pdata->netdev_tracker);
	if (ndev)
		netdev_hold(ndev, &pdata->netdev_tracker, GFP_ATOMIC);
	rcu_assign_pointer(pdata->netdev, ndev);
	spin_unlock_irqrestore(&pdata->netdev_lock, flags);

	add_ndev_hash(pdata);
	if (old_ndev)
		__dev_put(old_ndev);

	if (!ib_device_registered(ib_dev))
		return 0;
	ib_cache_netdev_changed(ib_dev, port);
	if (old_ndev)
		rdma_nl_notify_event(ib_dev, port, RDMA_NETDEV_DETACH_EVENT);
	if (ndev)
		rdma_nl_notify_event(ib_dev, port, RDMA_NETDEV_ATTACH_EVENT);
	return 0;
}
EXPORT_SYMBOL(ib_device_set_netdev);

static void free_netdevs(struct ib_device *ib_dev)
{
	unsigned long flags;
	u32 port;

	if (!ib_dev->port_data)
		return;

	rdma_for_each_port(ib_dev, port) {
		struct ib_port_data *pdata = &ib_dev->port_data[port];
		struct net_device *ndev;

		spin_lock_irqsave(&pdata->netdev_lock, flags);
		ndev = rcu_dereference_protected(pdata->netdev,
						 lockdep_is_held(&pdata->netdev_lock));
		if (ndev) {
			spin_lock(&ndev_hash_lock);
			hash_del_rcu(&pdata->ndev_hash_link);
			spin_unlock(&ndev_hash_lock);
			rcu_assign_pointer(pdata->netdev, NULL);
		}
		spin_unlock_irqrestore(&pdata->netdev_lock, flags);
		if (ndev) {
			/* Lookups under RCU may still be looking at it. */
			synchronize_rcu();
			netdev_put(ndev, &pdata->netdev_tracker);
		}
	}
}

/**
 * ib_device_get_netdev - the net device bound to a port
 * @ib_dev: the device
 * @port: the port
 *
 * Context: Any context if the driver has no get_netdev op (RCU only, no lock);
 * otherwise as that op. Does not sleep on its own.
 *
 * Return: the net device with a reference (drop it with dev_put()), or
 * NULL when the port has none or is not a RoCE/iWARP port.
 */
struct net_device *ib_device_get_netdev(struct ib_device *ib_dev, u32 port)
{
	struct ib_port_data *pdata;
	struct net_device *res;

	if (!rdma_is_port_valid(ib_dev, port) || !ib_dev->port_data)
		return NULL;

	if (!rdma_protocol_roce(ib_dev, port) &&
	    !rdma_protocol_iwarp(ib_dev, port))
		return NULL;

	if (ib_dev->ops.get_netdev) {
		res = ib_dev->ops.get_netdev(ib_dev, port);
	} else {
		pdata = &ib_dev->port_data[port];
		rcu_read_lock();
		res = rcu_dereference(pdata->netdev);
		dev_hold(res);
		rcu_read_unlock();
	}

	if (res && res->reg_state != NETREG_REGISTERED) {
		dev_put(res);
		return NULL;
	}
	return res;
}
EXPORT_SYMBOL(ib_device_get_netdev);

/**
 * ib_device_get_by_netdev - find the device a net device is bound to
 * @ndev: the net device
 * @driver_id: only devices of this driver, or RDMA_DRIVER_UNKNOWN for any
 *
 * Only bindings made with ib_device_set_netdev() are found.  Unlike
 * ib_device_try_get(), the device is found while its unregistration
 * removes the clients, as upstream's: a driver's receive path (rxe) must
 * go on delivering while the clients drain their connections over the
 * wire (nvme-rdma's removal waits for its last I/O to complete); only
 * once the registration reference is gone is it not found.
 *
 * Context: Any context; does not sleep. Takes rcu_read_lock() only.
 *
 * Return: the device with a reference (ib_device_put()), or NULL.
 */
struct ib_device *ib_device_get_by_netdev(struct net_device *ndev,
					  enum rdma_driver_id driver_id)
{
	struct ib_device *res = NULL;
	struct ib_port_data *cur;

	rcu_read_lock();
	hash_for_each_possible_rcu(ndev_hash, cur, ndev_hash_link,
				   (uintptr_t)ndev) {
		if (rcu_access_pointer(cur->netdev) == ndev &&
		    (driver_id == RDMA_DRIVER_UNKNOWN ||
		     cur->ib_dev->ops.driver_id == driver_id) &&
		    refcount_inc_not_zero(&cur->ib_dev->refcount)) {
			res = cur->ib_dev;
			break;
		}
	}
	rcu_read_unlock();
	return res;
}
EXPORT_SYMBOL(ib_device_get_by_netdev);

/*
 * The per-port array, indexed by port number (entry 0 unused on HCAs).
 * Allocated once; ib_device_set_netdev() may do it before registration.
 */
int ib_device_alloc_port_data(struct ib_device *device)
{
	struct ib_port_data *pdata;
	u32 port;

	if (device->port_data)
		return 0;
	if (WARN_ON(!device->phys_port_cnt && !device->is_switch))
		return -EINVAL;
	if (WARN_ON(device->phys_port_cnt == U32_MAX))
		return -EINVAL;

	pdata = kcalloc(rdma_end_port(device) + 1, sizeof(*pdata), GFP_KERNEL);
	if (!pdata)
		return -ENOMEM;
	device->port_data = pdata;

	rdma_for_each_port(device, port) {
		struct ib_port_data *p = &device->port_data[port];

		p->ib_dev = device;
		mutex_init(&p->port_counter.lock);
		spin_lock_init(&p->pkey_list_lock);
		INIT_LIST_HEAD(&p->pkey_list);
		spin_lock_init(&p->netdev_lock);
		INIT_HLIST_NODE(&p->ndev_hash_link);
	}
	return 0;
}

static int verify_immutable(const struct ib_device *dev, u32 port)
{
	const struct ib_port_immutable *im = &dev->port_data[port].immutable;

	/* A port that speaks MAD needs a MAD size. */
	if (WARN_ON(rdma_cap_ib_mad(dev, port) && !im->max_mad_size))
		return -EINVAL;
	if (WARN_ON(im->gid_tbl_len < 0 || im->pkey_tbl_len < 0))
		return -EINVAL;
	return 0;
}

static int setup_port_data(struct ib_device *device)
{
	u32 port;
	int ret;

	ret = ib_device_alloc_port_data(device);
	if (ret)
		return ret;

	rdma_for_each_port(device, port) {
		struct ib_port_data *pdata = &device->port_data[port];

		memset(&pdata->immutable, 0, sizeof(pdata->immutable));
		ret = device->ops.get_port_immutable(device, port,
						     &pdata->immutable);
		if (ret)
			return ret;
		ret = verify_immutable(device, port);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * A device is a kernel verbs provider when it implements the verbs
 * kernel ULPs cannot live without; clients that need kernel verbs are
 * only added to such devices.
 */
static void ib_device_check_kverbs(struct ib_device *device)
{
	const struct ib_device_ops *o = &device->ops;

	device->kverbs_provider =
		o->query_device && o->query_port && o->alloc_pd &&
		o->dealloc_pd && o->create_qp && o->modify_qp &&
		o->destroy_qp && o->post_send && o->post_recv &&
		o->create_cq && o->destroy_cq && o->poll_cq &&
		o->req_notify_cq && o->get_dma_mr && o->reg_user_mr &&
		o->dereg_mr && o->get_port_immutable;
}

static int setup_device(struct ib_device *device)
{
	int ret;

	if (WARN_ON(!device->ops.query_device || !device->ops.query_port ||
		    !device->ops.get_port_immutable))
		return -EINVAL;

	ib_device_check_kverbs(device);

	ret = setup_port_data(device);
	if (ret) {
		dev_warn(&device->dev, "could not set up the ports: %d\n", ret);
		return ret;
	}

	memset(&device->attrs, 0, sizeof(device->attrs));
	ret = device->ops.query_device(device, &device->attrs, NULL);
	if (ret) {
		dev_warn(&device->dev, "query_device failed: %d\n", ret);
		return ret;
	}
	return 0;
}

/* ------------------------------------------------------------------
 * Registration and unregistration
 */

/*
 * Make the device visible: set DEVICE_REGISTERED, add the clients, then
 * let the driver finish.  On return the device holds two references: the
 * registration's own and one the caller drops.
 */
static int enable_device_and_get(struct ib_device *device)
{
	int ret = 0;

	refcount_set(&device->refcount, 2);
	down_write(&devices_rwsem);
	xa_set_mark(&devices, device->index, DEVICE_REGISTERED);
	downgrade_write(&devices_rwsem);

	ret = ib_clients_add_device(device);
	up_read(&devices_rwsem);
	if (ret)
		return ret;

	if (device->ops.enable_driver)
		ret = device->ops.enable_driver(device);
	return ret;
}

/*
 * Undo enable_device_and_get(): hide the device, remove the clients in
 * reverse order of their registration, and wait until every reference is
 * gone.
 */
static void disable_device(struct ib_device *device)
{
	WARN_ON(!refcount_read(&device->refcount));

	down_write(&devices_rwsem);
	xa_clear_mark(&devices, device->index, DEVICE_REGISTERED);
	up_write(&devices_rwsem);

	ib_clients_remove_device(device);
	/* the clients gave back their CQs: the pool can go */
	ib_cq_pool_cleanup(device);

	/* Pairs with the refcount_set() in enable_device_and_get(). */
	ib_device_put(device);
	/* Every pending event holds a reference: they are over too. */
	wait_for_completion(&device->unreg_completion);
}

/**
 * ib_register_device - register a device with the core
 * @device: the device, from ib_alloc_device(), with its ops set
 * @name: the name, or a template with one "%d" for the lowest free index
 * @dma_device: the device that does DMA, or NULL for a device without DMA
 *	(software drivers; the core then uses virtual DMA)
 *
 * On success the device is in sysfs, in netlink and known to every
 * client.  On failure the driver still owns the device and frees it with
 * ib_dealloc_device().  When ops.dealloc_driver is set, a registered device
 * is freed by the core at unregistration.
 *
 * Context: Process context; sleeps. Takes devices_rwsem (for write, then
 * downgraded to read while the clients' add() run, with clients_rwsem and the
 * device's client_data_rwsem), and calls driver ops that may sleep. The caller
 * must not hold a lock any client's add() takes.
 *
 * Return: 0, -EINVAL for a bad name or missing mandatory op, -EEXIST for a
 * name in use, or another error from the driver or an allocation.
 */
int ib_register_device(struct ib_device *device, const char *name,
		       struct device *dma_device)
{
	int ret;

	ret = assign_name(device, name);
	if (ret)
		return ret;

	/*
	 * Software devices have no DMA device: the core's virtual DMA ops
	 * work on kernel virtual addresses.
	 */
	WARN_ON(dma_device && !dma_device->dma_parms);
	device->dma_device = dma_device;

	ret = setup_device(device);
	if (ret)
		goto err_index;

	ret = ib_cache_setup_one(device);
	if (ret) {
		dev_warn(&device->dev, "could not set up the cache: %d\n", ret);
		goto err_index;
	}

	rdma_counter_init(device);
	device->groups[1] = device->ops.device_group;
	ret = ib_device_register_sysfs(device);
	if (ret) {
		dev_warn(&device->dev, "could not register in sysfs: %d\n",
			 ret);
		goto err_cache;
	}

	/* before any client: ib_uverbs charges what user space makes */
	ib_device_register_rdmacg(device);
	ret = enable_device_and_get(device);
	if (ret) {
		void (*dealloc_fn)(struct ib_device *dev);

		/*
		 * The driver frees the device on this failure, so unwinding
		 * must not do it even when dealloc_driver is set.
		 */
		dealloc_fn = device->ops.dealloc_driver;
		device->ops.dealloc_driver = NULL;
		ib_device_put(device);
		__ib_unregister_device(device);
		device->ops.dealloc_driver = dealloc_fn;
		return ret;
	}
	/* Before the put: an unregistration waits for our reference. */
	rdma_nl_notify_register(device);
	ib_device_put(device);
	return 0;

err_cache:
	ib_cache_cleanup_one(device);
err_index:
	release_index(device);
	return ret;
}
EXPORT_SYMBOL(ib_register_device);

/*
 * Unregister a device unless that already happened; serialised by the
 * device's unregistration_lock.  If the driver set dealloc_driver, the
 * device is freed here, still under the lock, and stays in the table
 * (unmarked, so no lookup hands it out) until dealloc_driver has
 * returned.  So a concurrent caller, such as ib_unregister_driver() in a
 * driver's module exit racing "rdma link delete", either finds the device
 * and waits here on its lock, or does not find it because no driver code
 * runs for it any more.  Devices without dealloc_driver leave the table
 * now; the driver frees them later.  Callers hold a get_device() across
 * the call, which keeps the lock's memory valid.
 */
void __ib_unregister_device(struct ib_device *ib_dev)
{
	mutex_lock(&ib_dev->unregistration_lock);
	if (refcount_read(&ib_dev->refcount)) {
		disable_device(ib_dev);
		/* ib_uverbs, removed, has given back all it charged */
		ib_device_unregister_rdmacg(ib_dev);
		rdma_nl_notify_event(ib_dev, 0, RDMA_UNREGISTER_EVENT);
		free_netdevs(ib_dev);
		ib_device_unregister_sysfs(ib_dev);
		ib_cache_cleanup_one(ib_dev);
		if (ib_dev->ops.dealloc_driver)
			ib_dealloc_device(ib_dev);
		else
			release_index(ib_dev);
	}
	mutex_unlock(&ib_dev->unregistration_lock);
}

/**
 * ib_unregister_device - unregister a device
 * @ib_dev: the device
 *
 * Removes every client from the device and waits until all references
 * from ib_device_try_get() are dropped.  Drivers without dealloc_driver
 * free the device afterwards with ib_dealloc_device(); with dealloc_driver
 * the device is freed before this returns.  Calling it for a device that
 * is already unregistered does nothing, except that it first waits for
 * an unregistration another task is running on the device, its
 * dealloc_driver included; the caller holds a get_device() reference
 * then, as the device may be freed on return.
 *
 * Context: process context; may sleep.
 * Return: nothing.
 */
void ib_unregister_device(struct ib_device *ib_dev)
{
	get_device(&ib_dev->dev);
	__ib_unregister_device(ib_dev);
	put_device(&ib_dev->dev);
}
EXPORT_SYMBOL(ib_unregister_device);

/**
 * ib_unregister_device_and_put - unregister a device the caller holds
 * @ib_dev: the device, with a reference from ib_device_try_get()
 *
 * For callers (netlink) that found the device by name or index: the
 * registration reference must be dropped before unregistering (which
 * waits for it), and a device reference keeps the memory until we are
 * done.  The device must use dealloc_driver.
 *
 * Context: Process context; sleeps until every user's reference is dropped and
 * every client's remove() has returned. Takes the device's
 * unregistration_lock, then devices_rwsem and client_data_rwsem as
 * ib_unregister_device().
 */
void ib_unregister_device_and_put(struct ib_device *ib_dev)
{
	WARN_ON(!ib_dev->ops.dealloc_driver);
	get_device(&ib_dev->dev);
	ib_device_put(ib_dev);
	__ib_unregister_device(ib_dev);
	put_device(&ib_dev->dev);
}
EXPORT_SYMBOL(ib_unregister_device_and_put);

/* ------------------------------------------------------------------
 * Network namespaces (exclusive mode)
 */

/*
 * Move @device from @cur_net to @net: the clients leave the device, it
 * changes namespace (in sysfs too), and the clients come back.  Nothing
 * is done, with -ENODEV, when the device is unregistered meanwhile or is
 * not in @cur_net any more.  The caller holds a get_device() reference
 * and no registration reference.
 */
static int rdma_dev_change_netns(struct ib_device *device,
				 struct net *cur_net, struct net *net)
{
	int ret, ret2;

	mutex_lock(&device->unregistration_lock);
	if (!refcount_read(&device->refcount) ||
	    !net_eq(cur_net, read_pnet(&device->coredev.rdma_net))) {
		ret = -ENODEV;
		goto out;
	}
	if (net_eq(cur_net, net)) {
		ret = 0;
		goto out;
	}

	kobject_uevent(&device->dev.kobj, KOBJ_REMOVE);
	disable_device(device);

	/* Nobody uses the device now: it may change namespace. */
	write_pnet(&device->coredev.rdma_net, net);
	/*
	 * Names are unique across the host, so the name is free in @net.
	 * Renaming to the same name moves the sysfs entries to the class
	 * directory of the new namespace.
	 */
	down_read(&devices_rwsem);
	ret = device_rename(&device->dev, dev_name(&device->dev));
	up_read(&devices_rwsem);
	if (ret) {
		dev_warn(&device->dev,
			 "could not move to the new namespace in sysfs: %d\n",
			 ret);
		write_pnet(&device->coredev.rdma_net, cur_net);
	}

	ret2 = enable_device_and_get(device);
	if (ret2)
		dev_warn(&device->dev,
			 "could not enable after a namespace change: %d\n",
			 ret2);
	kobject_uevent(&device->dev.kobj, KOBJ_ADD);
	ib_device_put(device);
	if (!ret)
		ret = ret2;
out:
	mutex_unlock(&device->unregistration_lock);
	return ret;
}

/**
 * ib_device_set_netns_put - move a device to another network namespace
 * @skb: the netlink request; its sender needs CAP_NET_ADMIN over the
 *	target namespace
 * @dev: the device, with a registration reference that is always dropped
 * @ns_fd: a file descriptor of the sender naming the target namespace
 *
 * Only in exclusive mode, and only for drivers that can disassociate
 * user contexts (every client is removed and added again).
 *
 * Return: 0, -EOPNOTSUPP in shared mode or for such a driver, -EPERM,
 * -EBADF/-EINVAL for a bad @ns_fd, -ENODEV when the device went away.
 */
int ib_device_set_netns_put(struct sk_buff *skb, struct ib_device *dev,
			    u32 ns_fd)
{
	struct net *net;
	int ret;

	net = get_net_ns_by_fd(ns_fd);
	if (IS_ERR(net)) {
		ret = PTR_ERR(net);
		goto err_put_dev;
	}
	if (!netlink_ns_capable(skb, net->user_ns, CAP_NET_ADMIN)) {
		ret = -EPERM;
		goto err_put_net;
	}
	if (!dev->ops.disassociate_ucontext || ib_devices_shared_netns) {
		ret = -EOPNOTSUPP;
		goto err_put_net;
	}

	get_device(&dev->dev);
	ib_device_put(dev);
	ret = rdma_dev_change_netns(dev, sock_net(skb->sk), net);
	put_device(&dev->dev);
	put_net(net);
	return ret;

err_put_net:
	put_net(net);
err_put_dev:
	ib_device_put(dev);
	return ret;
}

/*
 * @net is going away: every device in it goes back to the initial
 * namespace.  Devices the move fails for stay hidden until unregistered.
 */
void rdma_dev_net_release_devices(struct net *net)
{
	struct ib_device *dev;
	unsigned long index;

	down_read(&devices_rwsem);
	xa_for_each(&devices, index, dev) {
		if (!net_eq(read_pnet(&dev->coredev.rdma_net), net))
			continue;
		get_device(&dev->dev);
		/* Moving waits for users: not under the table's lock. */
		up_read(&devices_rwsem);
		rdma_dev_change_netns(dev, net, &init_net);
		put_device(&dev->dev);
		down_read(&devices_rwsem);
	}
	up_read(&devices_rwsem);
}

/**
 * ib_device_set_dim - switch adaptive interrupt moderation of new CQs
 * @ibdev: the device
 * @use_dim: 0 or 1
 *
 * Return: 0 or -EINVAL for another value.
 */
int ib_device_set_dim(struct ib_device *ibdev, u8 use_dim)
{
	if (use_dim > 1)
		return -EINVAL;
	ibdev->use_cq_dim = use_dim;
	return 0;
}

/**
 * ib_unregister_driver - unregister every device of a driver
 * @driver_id: the driver
 *
 * For a driver's module exit.  Its devices must use dealloc_driver; they
 * are all freed when this returns, including those whose unregistration
 * was queued with ib_unregister_device_queued() and those another task
 * (such as "rdma link delete") is unregistering meanwhile: such a device
 * stays in the table until its dealloc_driver has returned, and we wait
 * for its unregistration lock.  No op of the driver runs for any of its
 * devices afterwards, so the module may go.
 *
 * Context: process context; may sleep.  The caller makes sure no new
 * device of the driver is registered meanwhile.
 * Return: nothing.
 */
void ib_unregister_driver(enum rdma_driver_id driver_id)
{
	struct ib_device *ib_dev;
	unsigned long index;

	down_read(&devices_rwsem);
	xa_for_each(&devices, index, ib_dev) {
		if (ib_dev->ops.driver_id != driver_id)
			continue;

		get_device(&ib_dev->dev);
		up_read(&devices_rwsem);

		WARN_ON(!ib_dev->ops.dealloc_driver);
		__ib_unregister_device(ib_dev);

		put_device(&ib_dev->dev);
		down_read(&devices_rwsem);
	}
	up_read(&devices_rwsem);

	/* Queued unregistrations of this driver must be over too. */
	flush_workqueue(ib_unreg_wq);
}
EXPORT_SYMBOL(ib_unregister_driver);

void ib_unregister_work(struct work_struct *work)
{
	struct ib_device *ib_dev =
		container_of(work, struct ib_device, unregistration_work);

	__ib_unregister_device(ib_dev);
	put_device(&ib_dev->dev);
}

/**
 * ib_unregister_device_queued - unregister a device from a work item
 * @ib_dev: the device, which must use dealloc_driver
 *
 * For drivers that learn about a device's removal in a context that
 * cannot sleep or must not wait for users.  ib_unregister_driver() waits
 * for queued unregistrations.
 *
 * Context: Any context; does not sleep. Takes a device reference and queues
 * the unregistration on ib_unreg_wq.
 */
void ib_unregister_device_queued(struct ib_device *ib_dev)
{
	WARN_ON(!refcount_read(&ib_dev->refcount));
	WARN_ON(!ib_dev->ops.dealloc_driver);
	get_device(&ib_dev->dev);
	if (!queue_work(ib_unreg_wq, &ib_dev->unregistration_work))
		put_device(&ib_dev->dev);
}
EXPORT_SYMBOL(ib_unregister_device_queued);
