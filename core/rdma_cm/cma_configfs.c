// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * /sys/kernel/config/rdma_cm: per-port defaults of rdma_cm.
 *
 *	mkdir /sys/kernel/config/rdma_cm/<device>
 *	/sys/kernel/config/rdma_cm/<device>/ports/<n>/default_roce_mode
 *	/sys/kernel/config/rdma_cm/<device>/ports/<n>/default_roce_tos
 *
 * The directory only names the device: every access looks the device up
 * again, so a device that went away (or never existed) gives -ENODEV and
 * the directory may outlive it; a port the device of that name no longer
 * has (it came back with fewer) gives -EINVAL.
 */

#include <linux/configfs.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>

#include "cma_priv.h"

/**
 * struct cma_port_group - ports/<n>
 * @port: the port number
 * @dev_group: its device's group
 * @group: the configfs group
 */
struct cma_port_group {
	u32			port;
	struct cma_dev_group	*dev_group;
	struct config_group	group;
};

/**
 * struct cma_dev_group - <device>
 * @name: the device name
 * @device_group: the configfs group <device>
 * @ports_group: <device>/ports
 * @ports: one per port
 * @nports: number of @ports
 */
struct cma_dev_group {
	char			name[IB_DEVICE_NAME_MAX];
	struct config_group	device_group;
	struct config_group	ports_group;
	struct cma_port_group	*ports;
	u32			nports;
};

static struct cma_port_group *to_port_group(struct config_item *item)
{
	return container_of(to_config_group(item), struct cma_port_group,
			    group);
}

/*
 * The device and port of an attribute, referenced; -ENODEV if the device
 * is gone, -EINVAL if the port is: the directory was made for a device of
 * that name which may have been replaced by one with fewer ports since.
 */
static int cma_port_get(struct config_item *item, struct cma_device **cma_dev,
			u32 *port)
{
	struct cma_port_group *pg = to_port_group(item);

	*cma_dev = cma_get_device_by_name(pg->dev_group->name);
	if (!*cma_dev)
		return -ENODEV;
	if (!rdma_is_port_valid((*cma_dev)->device, pg->port)) {
		cma_dev_put(*cma_dev);
		return -EINVAL;
	}
	*port = pg->port;
	return 0;
}

static ssize_t default_roce_mode_show(struct config_item *item, char *buf)
{
	struct cma_device *cma_dev;
	enum ib_gid_type type;
	u32 port;
	int ret;

	ret = cma_port_get(item, &cma_dev, &port);
	if (ret)
		return ret;
	mutex_lock(&cma_lock);
	type = cma_default_gid_type(cma_dev, port);
	mutex_unlock(&cma_lock);
	cma_dev_put(cma_dev);
	return sysfs_emit(buf, "%s\n", ib_cache_gid_type_str(type));
}

static ssize_t default_roce_mode_store(struct config_item *item,
				       const char *buf, size_t count)
{
	struct cma_device *cma_dev;
	u32 port;
	int ret, type;

	type = ib_cache_gid_parse_type_str(buf);
	if (type < 0)
		return -EINVAL;
	ret = cma_port_get(item, &cma_dev, &port);
	if (ret)
		return ret;
	ret = cma_set_default_gid_type(cma_dev, port, type);
	cma_dev_put(cma_dev);
	return ret ? ret : count;
}

static ssize_t default_roce_tos_show(struct config_item *item, char *buf)
{
	struct cma_device *cma_dev;
	u32 port;
	u8 tos;
	int ret;

	ret = cma_port_get(item, &cma_dev, &port);
	if (ret)
		return ret;
	mutex_lock(&cma_lock);
	tos = cma_default_roce_tos(cma_dev, port);
	mutex_unlock(&cma_lock);
	cma_dev_put(cma_dev);
	return sysfs_emit(buf, "%u\n", tos);
}

static ssize_t default_roce_tos_store(struct config_item *item,
				      const char *buf, size_t count)
{
	struct cma_device *cma_dev;
	u32 port;
	u8 tos;
	int ret;

	ret = kstrtou8(buf, 0, &tos);
	if (ret)
		return ret;
	ret = cma_port_get(item, &cma_dev, &port);
	if (ret)
		return ret;
	ret = cma_set_default_roce_tos(cma_dev, port, tos);
	cma_dev_put(cma_dev);
	return ret ? ret : count;
}

CONFIGFS_ATTR(, default_roce_mode);
CONFIGFS_ATTR(, default_roce_tos);

static struct configfs_attribute *cma_port_attrs[] = {
	&attr_default_roce_mode,
	&attr_default_roce_tos,
	NULL,
};

static const struct config_item_type cma_port_type = {
	.ct_attrs	= cma_port_attrs,
	.ct_owner	= THIS_MODULE,
};

static const struct config_item_type cma_ports_type = {
	.ct_owner	= THIS_MODULE,
};

static void cma_dev_group_release(struct config_item *item)
{
	struct cma_dev_group *dg = container_of(to_config_group(item),
						struct cma_dev_group,
						device_group);

	kfree(dg->ports);
	kfree(dg);
}

static struct configfs_item_operations cma_dev_item_ops = {
	.release = cma_dev_group_release,
};

static const struct config_item_type cma_dev_type = {
	.ct_item_ops	= &cma_dev_item_ops,
	.ct_owner	= THIS_MODULE,
};

/* mkdir rdma_cm/<device>: the device must exist now. */
static struct config_group *cma_make_dev_group(struct config_group *group,
					       const char *name)
{
	struct cma_device *cma_dev;
	struct cma_dev_group *dg;
	u32 i, start;
	int ret;

	cma_dev = cma_get_device_by_name(name);
	if (!cma_dev)
		return ERR_PTR(-ENODEV);
	dg = kzalloc(sizeof(*dg), GFP_KERNEL);
	if (!dg) {
		ret = -ENOMEM;
		goto err_put;
	}
	start = rdma_start_port(cma_dev->device);
	dg->nports = rdma_end_port(cma_dev->device) - start + 1;
	dg->ports = kcalloc(dg->nports, sizeof(*dg->ports), GFP_KERNEL);
	if (!dg->ports) {
		ret = -ENOMEM;
		goto err_free;
	}
	strscpy(dg->name, name, sizeof(dg->name));

	config_group_init_type_name(&dg->device_group, name, &cma_dev_type);
	config_group_init_type_name(&dg->ports_group, "ports",
				    &cma_ports_type);
	configfs_add_default_group(&dg->ports_group, &dg->device_group);
	for (i = 0; i < dg->nports; i++) {
		char port_name[12];

		dg->ports[i].port = start + i;
		dg->ports[i].dev_group = dg;
		snprintf(port_name, sizeof(port_name), "%u", start + i);
		config_group_init_type_name(&dg->ports[i].group, port_name,
					    &cma_port_type);
		configfs_add_default_group(&dg->ports[i].group,
					   &dg->ports_group);
	}
	cma_dev_put(cma_dev);
	return &dg->device_group;

err_free:
	kfree(dg);
err_put:
	cma_dev_put(cma_dev);
	return ERR_PTR(ret);
}

static void cma_drop_dev_group(struct config_group *group,
			       struct config_item *item)
{
	struct config_group *dev_group = to_config_group(item);

	configfs_remove_default_groups(dev_group);
	config_item_put(item);
}

static struct configfs_group_operations cma_subsys_group_ops = {
	.make_group	= cma_make_dev_group,
	.drop_item	= cma_drop_dev_group,
};

static const struct config_item_type cma_subsys_type = {
	.ct_group_ops	= &cma_subsys_group_ops,
	.ct_owner	= THIS_MODULE,
};

static struct configfs_subsystem cma_subsys = {
	.su_group = {
		.cg_item = {
			.ci_namebuf	= "rdma_cm",
			.ci_type	= &cma_subsys_type,
		},
	},
};

int cma_configfs_init(void)
{
	int ret;

	config_group_init(&cma_subsys.su_group);
	mutex_init(&cma_subsys.su_mutex);
	ret = configfs_register_subsystem(&cma_subsys);
	if (ret)
		mutex_destroy(&cma_subsys.su_mutex);
	return ret;
}

void cma_configfs_exit(void)
{
	configfs_unregister_subsystem(&cma_subsys);
	mutex_destroy(&cma_subsys.su_mutex);
}
