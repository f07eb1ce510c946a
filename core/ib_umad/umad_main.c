// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ib_umad's module and client: every port with IB MAD capability gets
 * umadN (and issmN when it has QP0) under /dev/infiniband, class
 * "infiniband_mad" with the attributes libibumad reads (ibdev, port and
 * the class's abi_version).  Device numbers: 231:0..63 for umad0..63,
 * 231:64..127 for issm0..63, then a dynamic region for the rest.
 *
 * Lifetime: the client holds the ib_umad_device's kref, and every
 * struct device of a port one more; a cdev keeps its device, so an open
 * file keeps the memory of its port until it is closed.
 */
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>

#include "umad_priv.h"

MODULE_DESCRIPTION("InfiniBand management datagrams for user space");
MODULE_LICENSE("Dual BSD/GPL");

static const dev_t umad_fixed_base = MKDEV(IB_UMAD_MAJOR, IB_UMAD_MINOR_BASE);
static dev_t umad_dynamic_base;	/* umad, then issm, of the dynamic region */

static DEFINE_IDA(umad_ida);

static int umad_add_one(struct ib_device *device);
static void umad_remove_one(struct ib_device *device, void *client_data);

struct ib_client umad_client = {
	.name = "umad",
	.add = umad_add_one,
	.remove = umad_remove_one,
	.get_nl_info = umad_get_nl_info,
};
MODULE_ALIAS_RDMA_CLIENT("umad");
MODULE_ALIAS_RDMA_CLIENT("issm");

static ssize_t ibdev_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct ib_umad_port *port = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%s\n", dev_name(&port->ib_dev->dev));
}
static DEVICE_ATTR_RO(ibdev);

static ssize_t port_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct ib_umad_port *port = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", port->port_num);
}
static DEVICE_ATTR_RO(port);

static struct attribute *umad_class_dev_attrs[] = {
	&dev_attr_ibdev.attr,
	&dev_attr_port.attr,
	NULL,
};
ATTRIBUTE_GROUPS(umad_class_dev);

static ssize_t abi_version_show(const struct class *class,
				const struct class_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", IB_USER_MAD_ABI_VERSION);
}
static CLASS_ATTR_RO(abi_version);

static struct attribute *umad_class_attrs[] = {
	&class_attr_abi_version.attr,
	NULL,
};
ATTRIBUTE_GROUPS(umad_class);

/* /dev/infiniband/umadN; the mode stays the default (0600) */
static char *umad_devnode(const struct device *dev, umode_t *mode)
{
	return kasprintf(GFP_KERNEL, "infiniband/%s", dev_name(dev));
}

static struct class umad_class = {
	.name = "infiniband_mad",
	.devnode = umad_devnode,
	.class_groups = umad_class_groups,
	.dev_groups = umad_class_dev_groups,
};

static void umad_device_release(struct kref *kref)
{
	kfree(container_of(kref, struct ib_umad_device, kref));
}

static void umad_port_dev_release(struct device *dev)
{
	struct ib_umad_port *port = dev_get_drvdata(dev);

	kref_put(&port->umad_dev->kref, umad_device_release);
}

static void umad_port_dev_init(struct ib_umad_port *port, struct device *dev,
			       dev_t devt, const char *prefix)
{
	device_initialize(dev);
	kref_get(&port->umad_dev->kref);
	dev->class = &umad_class;
	dev->parent = port->ib_dev->dev.parent;
	dev->devt = devt;
	dev->release = umad_port_dev_release;
	dev_set_drvdata(dev, port);
	dev_set_name(dev, "%s%d", prefix, port->dev_num);
}

static int umad_port_init(struct ib_device *device, u32 port_num,
			  struct ib_umad_device *umad_dev,
			  struct ib_umad_port *port)
{
	dev_t umad_devt, issm_devt;
	int num, ret;

	num = ida_alloc_max(&umad_ida, IB_UMAD_MAX_PORTS - 1, GFP_KERNEL);
	if (num < 0)
		return num;
	if (num < IB_UMAD_NUM_FIXED_MINOR) {
		umad_devt = umad_fixed_base + num;
		issm_devt = umad_fixed_base + IB_ISSM_MINOR_BASE + num;
	} else {
		umad_devt = umad_dynamic_base + num - IB_UMAD_NUM_FIXED_MINOR;
		issm_devt = umad_devt + IB_UMAD_NUM_DYNAMIC_MINOR;
	}

	port->dev_num = num;
	port->ib_dev = device;
	port->umad_dev = umad_dev;
	port->port_num = port_num;
	port->has_smi = rdma_cap_ib_smi(device, port_num);
	sema_init(&port->sm_sem, 1);
	mutex_init(&port->file_mutex);
	INIT_LIST_HEAD(&port->file_list);

	umad_port_dev_init(port, &port->dev, umad_devt, "umad");
	cdev_init(&port->cdev, &umad_fops);
	port->cdev.owner = THIS_MODULE;
	ret = cdev_device_add(&port->cdev, &port->dev);
	if (ret)
		goto err_umad;

	if (port->has_smi) {
		umad_port_dev_init(port, &port->sm_dev, issm_devt, "issm");
		cdev_init(&port->sm_cdev, &umad_sm_fops);
		port->sm_cdev.owner = THIS_MODULE;
		ret = cdev_device_add(&port->sm_cdev, &port->sm_dev);
		if (ret)
			goto err_issm;
	}
	return 0;

err_issm:
	put_device(&port->sm_dev);
	cdev_device_del(&port->cdev, &port->dev);
err_umad:
	put_device(&port->dev);
	ida_free(&umad_ida, num);
	return ret;
}

/*
 * Take a port's files away: no new open, every open file sees the
 * device gone (-EIO from read and write, -EPIPE from registration) and
 * loses its agents, and readers are woken.
 */
static void umad_port_kill(struct ib_umad_port *port)
{
	struct ib_umad_file *file;
	int id;

	if (port->has_smi)
		cdev_device_del(&port->sm_cdev, &port->sm_dev);
	cdev_device_del(&port->cdev, &port->dev);

	mutex_lock(&port->file_mutex);
	WRITE_ONCE(port->ib_dev, NULL);
	list_for_each_entry(file, &port->file_list, port_list) {
		mutex_lock(&file->mutex);
		file->agents_dead = true;
		wake_up_interruptible(&file->recv_wait);
		mutex_unlock(&file->mutex);

		/* agents_dead: nobody else looks at them any more */
		for (id = 0; id < IB_UMAD_MAX_AGENTS; id++)
			if (file->agent[id])
				ib_unregister_mad_agent(file->agent[id]);
	}
	mutex_unlock(&port->file_mutex);

	ida_free(&umad_ida, port->dev_num);
	if (port->has_smi)
		put_device(&port->sm_dev);
	put_device(&port->dev);
}

static int umad_add_one(struct ib_device *device)
{
	u32 start = rdma_start_port(device), end = rdma_end_port(device);
	struct ib_umad_device *umad_dev;
	unsigned int count = 0;
	u32 i;
	int ret;

	umad_dev = kzalloc(struct_size(umad_dev, ports, end - start + 1),
			   GFP_KERNEL);
	if (!umad_dev)
		return -ENOMEM;
	kref_init(&umad_dev->kref);

	for (i = start; i <= end; i++) {
		if (!rdma_cap_ib_mad(device, i))
			continue;
		ret = umad_port_init(device, i, umad_dev,
				     &umad_dev->ports[i - start]);
		if (ret)
			goto err_ports;
		count++;
	}
	if (!count) {
		ret = -EOPNOTSUPP;
		goto err_free;
	}

	ib_set_client_data(device, &umad_client, umad_dev);
	return 0;

err_ports:
	while (i-- > start)
		if (rdma_cap_ib_mad(device, i))
			umad_port_kill(&umad_dev->ports[i - start]);
err_free:
	kref_put(&umad_dev->kref, umad_device_release);
	return ret;
}

static void umad_remove_one(struct ib_device *device, void *client_data)
{
	struct ib_umad_device *umad_dev = client_data;
	u32 i;

	rdma_for_each_port(device, i)
		if (rdma_cap_ib_mad(device, i))
			umad_port_kill(&umad_dev->ports[i - rdma_start_port(device)]);
	kref_put(&umad_dev->kref, umad_device_release);
}

static int __init umad_init(void)
{
	int ret;

	ret = register_chrdev_region(umad_fixed_base,
				     IB_UMAD_NUM_FIXED_MINOR * 2,
				     umad_class.name);
	if (ret) {
		pr_err("ib_umad: cannot get device numbers %d:%d..%d\n",
		       IB_UMAD_MAJOR, IB_UMAD_MINOR_BASE,
		       IB_UMAD_MINOR_BASE + IB_UMAD_NUM_FIXED_MINOR * 2 - 1);
		return ret;
	}
	ret = alloc_chrdev_region(&umad_dynamic_base, 0,
				  IB_UMAD_NUM_DYNAMIC_MINOR * 2,
				  umad_class.name);
	if (ret) {
		pr_err("ib_umad: cannot get dynamic device numbers\n");
		goto err_fixed;
	}
	ret = class_register(&umad_class);
	if (ret) {
		pr_err("ib_umad: cannot register class %s\n", umad_class.name);
		goto err_dynamic;
	}
	ret = ib_register_client(&umad_client);
	if (ret)
		goto err_class;
	ret = ib_register_client(&umad_issm_client);
	if (ret)
		goto err_client;
	return 0;

err_client:
	ib_unregister_client(&umad_client);
err_class:
	class_unregister(&umad_class);
err_dynamic:
	unregister_chrdev_region(umad_dynamic_base,
				 IB_UMAD_NUM_DYNAMIC_MINOR * 2);
err_fixed:
	unregister_chrdev_region(umad_fixed_base, IB_UMAD_NUM_FIXED_MINOR * 2);
	return ret;
}

static void __exit umad_exit(void)
{
	ib_unregister_client(&umad_issm_client);
	ib_unregister_client(&umad_client);
	class_unregister(&umad_class);
	unregister_chrdev_region(umad_dynamic_base,
				 IB_UMAD_NUM_DYNAMIC_MINOR * 2);
	unregister_chrdev_region(umad_fixed_base, IB_UMAD_NUM_FIXED_MINOR * 2);
	ida_destroy(&umad_ida);
}

module_init(umad_init);
module_exit(umad_exit);
