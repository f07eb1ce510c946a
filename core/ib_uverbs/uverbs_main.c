// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ib_uverbs's module and client: every RDMA device whose driver can make
 * user contexts (alloc_ucontext) gets /dev/infiniband/uverbsN, class
 * "infiniband_verbs", with the attributes libibverbs reads (ibdev,
 * abi_version, and the class's abi_version), and answers nldev's
 * GET_CHARDEV for "uverbs" with the driver id providers bind by.  umem
 * (umem.c) is part of the module, as upstream's.
 *
 * Lifetime: the client's struct uverbs_device lives as long as its
 * struct device; each open file holds a reference.  Unregistration
 * takes the character device away, clears ib_dev, waits for the file
 * operations in flight (SRCU) and disassociates every open file: they
 * stay open, every command fails with -EIO, and close still works.
 */
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>
#include <uapi/rdma/ib_user_verbs.h>

#include "uverbs_priv.h"

MODULE_DESCRIPTION("RDMA verbs for user space");
MODULE_LICENSE("Dual BSD/GPL");

static const dev_t uverbs_fixed_base = MKDEV(UVERBS_MAJOR, UVERBS_BASE_MINOR);
static dev_t uverbs_dynamic_base;

static DEFINE_IDA(uverbs_ida);

static int uverbs_add_one(struct ib_device *device);
static void uverbs_remove_one(struct ib_device *device, void *client_data);
static int uverbs_get_nl_info(struct ib_device *ibdev, void *client_data,
			      struct ib_client_nl_info *res);

static struct ib_client uverbs_client = {
	.name = "uverbs",
	.no_kverbs_req = true,
	.add = uverbs_add_one,
	.remove = uverbs_remove_one,
	.get_nl_info = uverbs_get_nl_info,
};
MODULE_ALIAS_RDMA_CLIENT("uverbs");

/*
 * Show one attribute of the RDMA device behind @dev: -ENODEV once it is
 * gone.
 */
static ssize_t uverbs_attr_show(struct device *dev, char *buf,
				ssize_t (*show)(struct ib_device *ib_dev,
						char *buf))
{
	struct uverbs_device *udev = container_of(dev, struct uverbs_device,
						  dev);
	struct ib_device *ib_dev;
	ssize_t ret = -ENODEV;
	int idx;

	idx = srcu_read_lock(&udev->disassociate_srcu);
	ib_dev = srcu_dereference(udev->ib_dev, &udev->disassociate_srcu);
	if (ib_dev)
		ret = show(ib_dev, buf);
	srcu_read_unlock(&udev->disassociate_srcu, idx);
	return ret;
}

static ssize_t uverbs_ibdev(struct ib_device *ib_dev, char *buf)
{
	return sysfs_emit(buf, "%s\n", dev_name(&ib_dev->dev));
}

static ssize_t ibdev_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return uverbs_attr_show(dev, buf, uverbs_ibdev);
}
static DEVICE_ATTR_RO(ibdev);

static ssize_t uverbs_abi(struct ib_device *ib_dev, char *buf)
{
	return sysfs_emit(buf, "%u\n", ib_dev->ops.uverbs_abi_ver);
}

static ssize_t abi_version_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return uverbs_attr_show(dev, buf, uverbs_abi);
}
static DEVICE_ATTR_RO(abi_version);

static struct attribute *uverbs_dev_attrs[] = {
	&dev_attr_ibdev.attr,
	&dev_attr_abi_version.attr,
	NULL,
};
ATTRIBUTE_GROUPS(uverbs_dev);

static ssize_t class_abi_version_show(const struct class *class,
				      const struct class_attribute *attr,
				      char *buf)
{
	return sysfs_emit(buf, "%d\n", IB_USER_VERBS_ABI_VERSION);
}

static struct class_attribute class_attr_abi_version =
	__ATTR(abi_version, 0444, class_abi_version_show, NULL);

static struct attribute *uverbs_class_attrs[] = {
	&class_attr_abi_version.attr,
	NULL,
};
ATTRIBUTE_GROUPS(uverbs_class);

/* /dev/infiniband/uverbsN, read and write for everyone, as upstream's */
static char *uverbs_devnode(const struct device *dev, umode_t *mode)
{
	if (mode)
		*mode = 0666;
	return kasprintf(GFP_KERNEL, "infiniband/%s", dev_name(dev));
}

static struct class uverbs_class = {
	.name = "infiniband_verbs",
	.devnode = uverbs_devnode,
	.class_groups = uverbs_class_groups,
	.dev_groups = uverbs_dev_groups,
};

static void uverbs_dev_release(struct device *dev)
{
	struct uverbs_device *udev = container_of(dev, struct uverbs_device,
						  dev);

	uverbs_destroy_api(udev->uapi);
	cleanup_srcu_struct(&udev->disassociate_srcu);
	mutex_destroy(&udev->files_lock);
	kfree(udev);
}

static int uverbs_add_one(struct ib_device *device)
{
	struct uverbs_device *udev;
	dev_t devt;
	int ret;

	if (!device->ops.alloc_ucontext)
		return -EOPNOTSUPP;

	udev = kzalloc(sizeof(*udev), GFP_KERNEL);
	if (!udev)
		return -ENOMEM;
	ret = init_srcu_struct(&udev->disassociate_srcu);
	if (ret) {
		kfree(udev);
		return ret;
	}
	mutex_init(&udev->files_lock);
	INIT_LIST_HEAD(&udev->files);
	RCU_INIT_POINTER(udev->ib_dev, device);
	udev->uapi = uverbs_alloc_api(device);
	if (IS_ERR(udev->uapi)) {
		ret = PTR_ERR(udev->uapi);
		cleanup_srcu_struct(&udev->disassociate_srcu);
		kfree(udev);
		return ret;
	}
	udev->num_comp_vectors = device->num_comp_vectors;

	device_initialize(&udev->dev);
	udev->dev.class = &uverbs_class;
	udev->dev.parent = device->dev.parent;
	udev->dev.release = uverbs_dev_release;

	ret = ida_alloc_max(&uverbs_ida, UVERBS_MAX_DEVICES - 1, GFP_KERNEL);
	if (ret < 0)
		goto err_put;
	udev->devnum = ret;
	if (udev->devnum < UVERBS_NUM_FIXED_MINOR)
		devt = uverbs_fixed_base + udev->devnum;
	else
		devt = uverbs_dynamic_base + udev->devnum -
		       UVERBS_NUM_FIXED_MINOR;
	udev->dev.devt = devt;
	ret = dev_set_name(&udev->dev, "uverbs%d", udev->devnum);
	if (ret)
		goto err_ida;

	cdev_init(&udev->cdev, &uverbs_fops);
	udev->cdev.owner = THIS_MODULE;
	ret = cdev_device_add(&udev->cdev, &udev->dev);
	if (ret)
		goto err_ida;
	ib_set_client_data(device, &uverbs_client, udev);
	return 0;

err_ida:
	ida_free(&uverbs_ida, udev->devnum);
err_put:
	put_device(&udev->dev);
	return ret;
}

static void uverbs_remove_one(struct ib_device *device, void *client_data)
{
	struct uverbs_device *udev = client_data;
	struct ib_uverbs_file *file;

	/* no new open; the files already open stay */
	cdev_device_del(&udev->cdev, &udev->dev);
	ida_free(&uverbs_ida, udev->devnum);

	mutex_lock(&udev->files_lock);
	rcu_assign_pointer(udev->ib_dev, NULL);
	mutex_unlock(&udev->files_lock);
	/* every file operation still using the device is done */
	synchronize_srcu(&udev->disassociate_srcu);

	/*
	 * The files lose what they made on the device.  A file that closes
	 * meanwhile takes itself off the list, under files_lock; one taken
	 * here is held across its disassociation.
	 */
	mutex_lock(&udev->files_lock);
	while ((file = list_first_entry_or_null(&udev->files,
						struct ib_uverbs_file,
						list))) {
		list_del_init(&file->list);
		kref_get(&file->ref);
		mutex_unlock(&udev->files_lock);
		uverbs_disassociate_file(file);
		uverbs_file_put(file);
		mutex_lock(&udev->files_lock);
	}
	mutex_unlock(&udev->files_lock);
	put_device(&udev->dev);
}

/**
 * uverbs_get_device - the uverbsN of a device
 * @device: a registered device
 *
 * Context: any; the caller keeps @device registered.
 * Return: its uverbsN, or NULL when it has none (no alloc_ucontext).
 */
struct uverbs_device *uverbs_get_device(struct ib_device *device)
{
	return ib_get_client_data(device, &uverbs_client);
}

static int uverbs_get_nl_info(struct ib_device *ibdev, void *client_data,
			      struct ib_client_nl_info *res)
{
	struct uverbs_device *udev = client_data;
	int ret;

	if (!udev)
		return -EOPNOTSUPP;
	/* uverbsN is the device's, not a port's */
	if (res->port != U32_MAX)
		return -EINVAL;
	res->abi = ibdev->ops.uverbs_abi_ver;
	res->cdev = &udev->dev;
	/* libibverbs binds a provider by the driver id */
	if (!ibdev->ops.uverbs_no_driver_id_binding) {
		ret = nla_put_u32(res->nl_msg, RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID,
				  ibdev->ops.driver_id);
		if (ret)
			return ret;
	}
	return 0;
}

static int __init uverbs_init(void)
{
	int ret;

	ret = register_chrdev_region(uverbs_fixed_base, UVERBS_NUM_FIXED_MINOR,
				     uverbs_class.name);
	if (ret) {
		pr_err("ib_uverbs: cannot get device numbers %d:%d..%d\n",
		       UVERBS_MAJOR, UVERBS_BASE_MINOR,
		       UVERBS_BASE_MINOR + UVERBS_NUM_FIXED_MINOR - 1);
		return ret;
	}
	ret = alloc_chrdev_region(&uverbs_dynamic_base, 0,
				  UVERBS_NUM_DYNAMIC_MINOR, uverbs_class.name);
	if (ret) {
		pr_err("ib_uverbs: cannot get dynamic device numbers\n");
		goto err_fixed;
	}
	ret = class_register(&uverbs_class);
	if (ret) {
		pr_err("ib_uverbs: cannot register class %s\n",
		       uverbs_class.name);
		goto err_dynamic;
	}
	ret = ib_register_client(&uverbs_client);
	if (ret)
		goto err_class;
	return 0;

err_class:
	class_unregister(&uverbs_class);
err_dynamic:
	unregister_chrdev_region(uverbs_dynamic_base,
				 UVERBS_NUM_DYNAMIC_MINOR);
err_fixed:
	unregister_chrdev_region(uverbs_fixed_base, UVERBS_NUM_FIXED_MINOR);
	return ret;
}

static void __exit uverbs_exit(void)
{
	ib_unregister_client(&uverbs_client);
	class_unregister(&uverbs_class);
	unregister_chrdev_region(uverbs_dynamic_base,
				 UVERBS_NUM_DYNAMIC_MINOR);
	unregister_chrdev_region(uverbs_fixed_base, UVERBS_NUM_FIXED_MINOR);
	ida_destroy(&uverbs_ida);
}

module_init(uverbs_init);
module_exit(uverbs_exit);
