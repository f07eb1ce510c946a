// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * sysfs of an RDMA device: /sys/class/infiniband/<dev>/
 *
 *   node_type node_guid sys_image_guid fw_ver node_desc   (ib_dev_attr_group)
 *   <the driver's ops.device_group>
 *   ports/<n>/
 *     state lid lid_mask_count sm_lid sm_sl cap_mask rate phys_state
 *     link_layer
 *     gids/<i>                  every GID table index
 *     pkeys/<i>                 every P_Key table index (if any)
 *     gid_attrs/ndevs/<i>       net device name of GID <i>
 *     gid_attrs/types/<i>       type of GID <i>
 *     <the driver's ops.port_groups>
 *
 * Lifetime: the files of a port call into the core and the driver with
 * the port's ib_device.  They are removed (kobject_del(), which waits
 * for readers still inside a show or store) before device_del() and
 * before the cache is cleaned up, and the ib_device itself outlives
 * unregistration, so a port needs no reference of its own.  The port's
 * memory is freed by its kobject release, whenever the last kobject
 * reference goes.
 */
#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_sysfs.h>
#include <rdma/ib_verbs.h>

#include "core_priv.h"

/* A numbered file of a table directory: gids/3, pkeys/0, ... */
struct port_table_attr {
	struct ib_port_attribute	attr;
	u32				index;
	char				name[12];
};

/* A directory of numbered files, one per table index. */
struct port_table {
	struct attribute_group		group;
	struct port_table_attr		*files;
};

/* ports/<n>/gid_attrs/ */
struct gid_attrs_dir {
	struct kobject			kobj;
	struct ib_port			*port;
	struct port_table		ndevs;
	struct port_table		types;
	const struct attribute_group	*groups[3];
};

/**
 * struct ib_port - the sysfs directory ports/<n>/ of a device
 * @kobj: the directory
 * @ibdev: the device
 * @port_num: the port
 * @list: entry in ib_core_device.port_list
 * @gid_attrs: the gid_attrs/ subdirectory
 * @gids: the gids/ table
 * @pkeys: the pkeys/ table
 * @groups: @gids and @pkeys as a NULL-terminated list
 */
struct ib_port {
	struct kobject			kobj;
	struct ib_device		*ibdev;
	u32				port_num;
	struct list_head		list;
	struct gid_attrs_dir		*gid_attrs;
	struct port_table		gids;
	struct port_table		pkeys;
	const struct attribute_group	*groups[3];
};

static struct ib_port_attribute *to_port_attr(struct attribute *attr)
{
	return container_of(attr, struct ib_port_attribute, attr);
}

static struct ib_port *to_port(struct kobject *kobj)
{
	return container_of(kobj, struct ib_port, kobj);
}

static ssize_t port_attr_show(struct kobject *kobj, struct attribute *attr,
			      char *buf)
{
	struct ib_port_attribute *pattr = to_port_attr(attr);
	struct ib_port *port = to_port(kobj);

	if (!pattr->show)
		return -EIO;
	return pattr->show(port->ibdev, port->port_num, pattr, buf);
}

static ssize_t port_attr_store(struct kobject *kobj, struct attribute *attr,
			       const char *buf, size_t count)
{
	struct ib_port_attribute *pattr = to_port_attr(attr);
	struct ib_port *port = to_port(kobj);

	if (!pattr->store)
		return -EIO;
	return pattr->store(port->ibdev, port->port_num, pattr, buf, count);
}

static const struct sysfs_ops port_sysfs_ops = {
	.show	= port_attr_show,
	.store	= port_attr_store,
};

static ssize_t gid_attrs_show(struct kobject *kobj, struct attribute *attr,
			      char *buf)
{
	struct ib_port_attribute *pattr = to_port_attr(attr);
	struct ib_port *port =
		container_of(kobj, struct gid_attrs_dir, kobj)->port;

	if (!pattr->show)
		return -EIO;
	return pattr->show(port->ibdev, port->port_num, pattr, buf);
}

static const struct sysfs_ops gid_attrs_sysfs_ops = {
	.show	= gid_attrs_show,
};

/**
 * ib_port_sysfs_get_ibdev_kobj - the device and port of a port directory
 * @kobj: the kobject of a ports/<n>/ directory
 * @port_num: filled with the port number
 *
 * For drivers whose port attributes need the kobject.
 *
 * Context: Any context; takes no lock and does not sleep. The caller keeps
 * @kobj alive (it is called from the directory's own show/store).
 *
 * Return: the device.
 */
struct ib_device *ib_port_sysfs_get_ibdev_kobj(struct kobject *kobj,
					       u32 *port_num)
{
	struct ib_port *port = to_port(kobj);

	*port_num = port->port_num;
	return port->ibdev;
}
EXPORT_SYMBOL(ib_port_sysfs_get_ibdev_kobj);

/* ------------------------------------------------------------------
 * Port attributes
 */

static ssize_t state_show(struct ib_device *ibdev, u32 port_num,
			  struct ib_port_attribute *unused, char *buf)
{
	static const char *const names[] = {
		[IB_PORT_NOP]		= "NOP",
		[IB_PORT_DOWN]		= "DOWN",
		[IB_PORT_INIT]		= "INIT",
		[IB_PORT_ARMED]		= "ARMED",
		[IB_PORT_ACTIVE]	= "ACTIVE",
		[IB_PORT_ACTIVE_DEFER]	= "ACTIVE_DEFER",
	};
	struct ib_port_attr attr;
	int ret;

	ret = ib_query_port(ibdev, port_num, &attr);
	if (ret)
		return ret;

	return sysfs_emit(buf, "%d: %s\n", attr.state,
			  (unsigned int)attr.state < ARRAY_SIZE(names) ?
			  names[attr.state] : "UNKNOWN");
}
static IB_PORT_ATTR_RO(state);

/*
 * A file showing one field of ib_query_port() with a format: the
 * function <name>_show() and the attribute ib_port_attr_<name>.
 */
#define PORT_QUERY_ATTR(_name, _fmt, _field)				\
static ssize_t _name##_show(struct ib_device *ibdev, u32 port_num,	\
			    struct ib_port_attribute *unused, char *buf) \
{									\
	struct ib_port_attr attr;					\
	int ret;							\
									\
	ret = ib_query_port(ibdev, port_num, &attr);			\
	if (ret)							\
		return ret;						\
	return sysfs_emit(buf, _fmt, attr._field);			\
}									\
static IB_PORT_ATTR_RO(_name)

PORT_QUERY_ATTR(lid, "0x%x\n", lid);
PORT_QUERY_ATTR(lid_mask_count, "%u\n", lmc);
PORT_QUERY_ATTR(sm_lid, "0x%x\n", sm_lid);
PORT_QUERY_ATTR(sm_sl, "%u\n", sm_sl);
PORT_QUERY_ATTR(cap_mask, "0x%08x\n", port_cap_flags);

static ssize_t rate_show(struct ib_device *ibdev, u32 port_num,
			 struct ib_port_attribute *unused, char *buf)
{
	struct ib_port_attr attr;
	const char *speed;
	int width, rate;	/* rate of one lane in 100 Mb/s */
	int ret;

	ret = ib_query_port(ibdev, port_num, &attr);
	if (ret)
		return ret;

	switch (attr.active_speed) {
	case IB_SPEED_DDR:
		speed = " DDR";
		rate = 50;
		break;
	case IB_SPEED_QDR:
		speed = " QDR";
		rate = 100;
		break;
	case IB_SPEED_FDR10:
		speed = " FDR10";
		rate = 100;
		break;
	case IB_SPEED_FDR:
		speed = " FDR";
		rate = 140;
		break;
	case IB_SPEED_EDR:
		speed = " EDR";
		rate = 250;
		break;
	case IB_SPEED_HDR:
		speed = " HDR";
		rate = 500;
		break;
	case IB_SPEED_NDR:
		speed = " NDR";
		rate = 1000;
		break;
	case IB_SPEED_XDR:
		speed = " XDR";
		rate = 2000;
		break;
	default:
		/* SDR, and what a driver reports that is not a speed. */
		speed = " SDR";
		rate = 25;
		break;
	}

	width = ib_width_enum_to_int(attr.active_width);
	if (width < 0)
		return -EINVAL;
	rate *= width;

	return sysfs_emit(buf, "%d%s Gb/sec (%dX%s)\n", rate / 10,
			  rate % 10 ? ".5" : "", width, speed);
}
static IB_PORT_ATTR_RO(rate);

static ssize_t phys_state_show(struct ib_device *ibdev, u32 port_num,
			       struct ib_port_attribute *unused, char *buf)
{
	static const char *const names[] = {
		[0]						= "<unknown>",
		[IB_PORT_PHYS_STATE_SLEEP]			= "Sleep",
		[IB_PORT_PHYS_STATE_POLLING]			= "Polling",
		[IB_PORT_PHYS_STATE_DISABLED]			= "Disabled",
		[IB_PORT_PHYS_STATE_PORT_CONFIGURATION_TRAINING] =
			"PortConfigurationTraining",
		[IB_PORT_PHYS_STATE_LINK_UP]			= "LinkUp",
		[IB_PORT_PHYS_STATE_LINK_ERROR_RECOVERY]	= "LinkErrorRecovery",
		[IB_PORT_PHYS_STATE_PHY_TEST]			= "Phy Test",
	};
	struct ib_port_attr attr;
	int ret;

	ret = ib_query_port(ibdev, port_num, &attr);
	if (ret)
		return ret;

	return sysfs_emit(buf, "%u: %s\n", attr.phys_state,
			  attr.phys_state < ARRAY_SIZE(names) ?
			  names[attr.phys_state] : "<unknown>");
}
static IB_PORT_ATTR_RO(phys_state);

static ssize_t link_layer_show(struct ib_device *ibdev, u32 port_num,
			       struct ib_port_attribute *unused, char *buf)
{
	const char *name;

	switch (rdma_port_get_link_layer(ibdev, port_num)) {
	case IB_LINK_LAYER_INFINIBAND:
		name = "InfiniBand";
		break;
	case IB_LINK_LAYER_ETHERNET:
		name = "Ethernet";
		break;
	default:
		name = "Unknown";
		break;
	}
	return sysfs_emit(buf, "%s\n", name);
}
static IB_PORT_ATTR_RO(link_layer);

static struct attribute *port_default_attrs[] = {
	&ib_port_attr_state.attr,
	&ib_port_attr_lid.attr,
	&ib_port_attr_lid_mask_count.attr,
	&ib_port_attr_sm_lid.attr,
	&ib_port_attr_sm_sl.attr,
	&ib_port_attr_cap_mask.attr,
	&ib_port_attr_rate.attr,
	&ib_port_attr_phys_state.attr,
	&ib_port_attr_link_layer.attr,
	NULL
};
ATTRIBUTE_GROUPS(port_default);

/* ------------------------------------------------------------------
 * Table files
 */

static u32 table_index(struct ib_port_attribute *attr)
{
	return container_of(attr, struct port_table_attr, attr)->index;
}

static ssize_t gid_show(struct ib_device *ibdev, u32 port_num,
			struct ib_port_attribute *attr, char *buf)
{
	const struct ib_gid_attr *gid_attr;
	ssize_t ret;

	/*
	 * Every index of the table has a file; an empty slot reads as the
	 * zero GID, as tools walking the whole table expect.
	 */
	gid_attr = rdma_get_gid_attr(ibdev, port_num, table_index(attr));
	if (IS_ERR(gid_attr))
		return sysfs_emit(buf, "%pI6\n", zgid.raw);

	ret = sysfs_emit(buf, "%pI6\n", gid_attr->gid.raw);
	rdma_put_gid_attr(gid_attr);
	return ret;
}

static ssize_t gid_ndev_show(struct ib_device *ibdev, u32 port_num,
			     struct ib_port_attribute *attr, char *buf)
{
	const struct ib_gid_attr *gid_attr;
	struct net_device *ndev;
	ssize_t ret = -EINVAL;

	gid_attr = rdma_get_gid_attr(ibdev, port_num, table_index(attr));
	if (IS_ERR(gid_attr))
		return -EINVAL;

	rcu_read_lock();
	ndev = rcu_dereference(gid_attr->ndev);
	if (ndev)
		ret = sysfs_emit(buf, "%s\n", ndev->name);
	rcu_read_unlock();

	rdma_put_gid_attr(gid_attr);
	return ret;
}

static ssize_t gid_type_show(struct ib_device *ibdev, u32 port_num,
			     struct ib_port_attribute *attr, char *buf)
{
	const struct ib_gid_attr *gid_attr;
	ssize_t ret;

	gid_attr = rdma_get_gid_attr(ibdev, port_num, table_index(attr));
	if (IS_ERR(gid_attr))
		return -EINVAL;

	ret = sysfs_emit(buf, "%s\n",
			 ib_cache_gid_type_str(gid_attr->gid_type));
	rdma_put_gid_attr(gid_attr);
	return ret;
}

static ssize_t pkey_show(struct ib_device *ibdev, u32 port_num,
			 struct ib_port_attribute *attr, char *buf)
{
	u16 pkey;
	int ret;

	ret = ib_query_pkey(ibdev, port_num, table_index(attr), &pkey);
	if (ret)
		return ret;
	return sysfs_emit(buf, "0x%04x\n", pkey);
}

static int port_table_init(struct port_table *table, const char *name,
			   u32 len,
			   ssize_t (*show)(struct ib_device *ibdev,
					   u32 port_num,
					   struct ib_port_attribute *attr,
					   char *buf))
{
	struct attribute **attrs;
	u32 i;

	table->files = kvcalloc(len, sizeof(*table->files), GFP_KERNEL);
	attrs = kvcalloc(len + 1, sizeof(*attrs), GFP_KERNEL);
	if ((len && !table->files) || !attrs) {
		kvfree(table->files);
		table->files = NULL;
		kvfree(attrs);
		return -ENOMEM;
	}

	for (i = 0; i < len; i++) {
		struct port_table_attr *file = &table->files[i];

		snprintf(file->name, sizeof(file->name), "%u", i);
		sysfs_attr_init(&file->attr.attr);
		file->attr.attr.name = file->name;
		file->attr.attr.mode = 0444;
		file->attr.show = show;
		file->index = i;
		attrs[i] = &file->attr.attr;
	}

	table->group.name = name;
	table->group.attrs = attrs;
	return 0;
}

static void port_table_free(struct port_table *table)
{
	kvfree(table->group.attrs);
	kvfree(table->files);
}

/* ------------------------------------------------------------------
 * Port directories
 */

static void gid_attrs_release(struct kobject *kobj)
{
	struct gid_attrs_dir *dir = container_of(kobj, struct gid_attrs_dir,
						 kobj);

	port_table_free(&dir->ndevs);
	port_table_free(&dir->types);
	kfree(dir);
}

static const struct kobj_type gid_attrs_ktype = {
	.release	= gid_attrs_release,
	.sysfs_ops	= &gid_attrs_sysfs_ops,
};

static void port_release(struct kobject *kobj)
{
	struct ib_port *port = to_port(kobj);

	port_table_free(&port->gids);
	port_table_free(&port->pkeys);
	kfree(port);
}

static const struct kobj_type port_ktype = {
	.release	= port_release,
	.sysfs_ops	= &port_sysfs_ops,
	.default_groups	= port_default_groups,
};

/* Create ports/<n>/gid_attrs/{ndevs,types}/. */
static int gid_attrs_add(struct ib_port *port, u32 len)
{
	struct gid_attrs_dir *dir;
	int ret;

	dir = kzalloc(sizeof(*dir), GFP_KERNEL);
	if (!dir)
		return -ENOMEM;
	dir->port = port;
	/* From here on the release frees what was allocated. */
	kobject_init(&dir->kobj, &gid_attrs_ktype);

	ret = port_table_init(&dir->ndevs, "ndevs", len, gid_ndev_show);
	if (ret)
		goto err_put;
	ret = port_table_init(&dir->types, "types", len, gid_type_show);
	if (ret)
		goto err_put;
	dir->groups[0] = &dir->ndevs.group;
	dir->groups[1] = &dir->types.group;

	ret = kobject_add(&dir->kobj, &port->kobj, "gid_attrs");
	if (ret)
		goto err_put;
	ret = sysfs_create_groups(&dir->kobj, dir->groups);
	if (ret)
		goto err_del;

	port->gid_attrs = dir;
	return 0;

err_del:
	kobject_del(&dir->kobj);
err_put:
	kobject_put(&dir->kobj);
	return ret;
}

static void gid_attrs_del(struct ib_port *port)
{
	struct gid_attrs_dir *dir = port->gid_attrs;

	if (!dir)
		return;
	port->gid_attrs = NULL;
	kobject_del(&dir->kobj);
	kobject_put(&dir->kobj);
}

/* Create ports/<port_num>/ with everything in it. */
static int port_add(struct ib_core_device *coredev, u32 port_num)
{
	struct ib_device *device = coredev->owner;
	struct ib_port_attr attr;
	struct ib_port *port;
	u32 gid_len;
	int ret;

	ret = ib_query_port(device, port_num, &attr);
	if (ret)
		return ret;
	gid_len = max(attr.gid_tbl_len, 0);

	port = kzalloc(sizeof(*port), GFP_KERNEL);
	if (!port)
		return -ENOMEM;
	port->ibdev = device;
	port->port_num = port_num;
	INIT_LIST_HEAD(&port->list);
	/* From here on the release frees what was allocated. */
	kobject_init(&port->kobj, &port_ktype);

	ret = port_table_init(&port->gids, "gids", gid_len, gid_show);
	if (ret)
		goto err_put;
	port->groups[0] = &port->gids.group;
	if (attr.pkey_tbl_len) {
		ret = port_table_init(&port->pkeys, "pkeys",
				      attr.pkey_tbl_len, pkey_show);
		if (ret)
			goto err_put;
		port->groups[1] = &port->pkeys.group;
	}

	ret = kobject_add(&port->kobj, coredev->ports_kobj, "%u", port_num);
	if (ret)
		goto err_put;
	ret = sysfs_create_groups(&port->kobj, port->groups);
	if (ret)
		goto err_del;
	ret = gid_attrs_add(port, gid_len);
	if (ret)
		goto err_del;
	ret = sysfs_create_groups(&port->kobj, device->ops.port_groups);
	if (ret)
		goto err_gid_attrs;

	list_add_tail(&port->list, &coredev->port_list);
	device->port_data[port_num].sysfs = port;
	return 0;

err_gid_attrs:
	gid_attrs_del(port);
err_del:
	/* Removes the directory with every file and group in it. */
	kobject_del(&port->kobj);
err_put:
	kobject_put(&port->kobj);
	return ret;
}

static void port_del(struct ib_core_device *coredev, struct ib_port *port)
{
	struct ib_device *device = port->ibdev;

	if (device->port_data[port->port_num].sysfs == port)
		device->port_data[port->port_num].sysfs = NULL;
	list_del(&port->list);

	sysfs_remove_groups(&port->kobj, device->ops.port_groups);
	gid_attrs_del(port);
	/* Waits for readers inside show/store of every file below. */
	kobject_del(&port->kobj);
	kobject_put(&port->kobj);
}

static void ports_del(struct ib_core_device *coredev)
{
	struct ib_port *port, *tmp;

	list_for_each_entry_safe_reverse(port, tmp, &coredev->port_list, list)
		port_del(coredev, port);

	kobject_put(coredev->ports_kobj);
	coredev->ports_kobj = NULL;
}

static int ports_add(struct ib_core_device *coredev)
{
	struct ib_device *device = coredev->owner;
	u32 port_num;
	int ret;

	coredev->ports_kobj = kobject_create_and_add("ports",
						     &coredev->dev.kobj);
	if (!coredev->ports_kobj)
		return -ENOMEM;

	rdma_for_each_port(device, port_num) {
		ret = port_add(coredev, port_num);
		if (ret) {
			ports_del(coredev);
			return ret;
		}
	}
	return 0;
}

/**
 * ib_port_register_client_groups - add a client's files to a port
 * @ibdev: a registered device
 * @port_num: the port
 * @groups: NULL-terminated attribute groups of struct ib_port_attribute
 *
 * Only for legacy files (ib_cm's counters); remove them with
 * ib_port_unregister_client_groups() before the client leaves the device.
 *
 * Context: Process context; sleeps (sysfs file creation takes the kernfs
 * locks). Not from a show/store of the port's files.
 *
 * Return: 0 or an error from sysfs.
 */
int ib_port_register_client_groups(struct ib_device *ibdev, u32 port_num,
				   const struct attribute_group **groups)
{
	return sysfs_create_groups(&ibdev->port_data[port_num].sysfs->kobj,
				   groups);
}
EXPORT_SYMBOL(ib_port_register_client_groups);

/**
 * ib_port_unregister_client_groups - remove a client's files from a port
 * @ibdev: the device
 * @port_num: the port
 * @groups: what ib_port_register_client_groups() added
 *
 * Context: Process context; sleeps until readers inside the files' show/store
 * have left (kernfs). Must not be called from one of those files' show/store.
 */
void ib_port_unregister_client_groups(struct ib_device *ibdev, u32 port_num,
				      const struct attribute_group **groups)
{
	sysfs_remove_groups(&ibdev->port_data[port_num].sysfs->kobj, groups);
}
EXPORT_SYMBOL(ib_port_unregister_client_groups);

/* ------------------------------------------------------------------
 * Device attributes
 */

static const char *node_type_name(u8 node_type)
{
	switch (node_type) {
	case RDMA_NODE_IB_CA:
		return "CA";
	case RDMA_NODE_IB_SWITCH:
		return "switch";
	case RDMA_NODE_IB_ROUTER:
		return "router";
	case RDMA_NODE_RNIC:
		return "RNIC";
	case RDMA_NODE_USNIC:
		return "usNIC";
	case RDMA_NODE_USNIC_UDP:
		return "usNIC UDP";
	case RDMA_NODE_UNSPECIFIED:
		return "unspecified";
	default:
		return "<unknown>";
	}
}

static ssize_t node_type_show(struct device *device,
			      struct device_attribute *attr, char *buf)
{
	struct ib_device *dev = rdma_device_to_ibdev(device);

	return sysfs_emit(buf, "%u: %s\n", dev->node_type,
			  node_type_name(dev->node_type));
}
static DEVICE_ATTR_RO(node_type);

/* A GUID as four groups of 16 bits: "0002:c903:0042:a1b0". */
static ssize_t emit_guid(char *buf, __be64 guid)
{
	u64 v = be64_to_cpu(guid);

	return sysfs_emit(buf, "%04x:%04x:%04x:%04x\n",
			  (u16)(v >> 48), (u16)(v >> 32), (u16)(v >> 16),
			  (u16)v);
}

static ssize_t node_guid_show(struct device *device,
			      struct device_attribute *attr, char *buf)
{
	return emit_guid(buf, rdma_device_to_ibdev(device)->node_guid);
}
static DEVICE_ATTR_RO(node_guid);

static ssize_t sys_image_guid_show(struct device *device,
				   struct device_attribute *attr, char *buf)
{
	return emit_guid(buf,
			 rdma_device_to_ibdev(device)->attrs.sys_image_guid);
}
static DEVICE_ATTR_RO(sys_image_guid);

static ssize_t fw_ver_show(struct device *device,
			   struct device_attribute *attr, char *buf)
{
	char version[IB_FW_VERSION_NAME_MAX] = {};

	ib_get_device_fw_str(rdma_device_to_ibdev(device), version);
	return sysfs_emit(buf, "%s\n", version);
}
static DEVICE_ATTR_RO(fw_ver);

static ssize_t node_desc_show(struct device *device,
			      struct device_attribute *attr, char *buf)
{
	struct ib_device *dev = rdma_device_to_ibdev(device);

	return sysfs_emit(buf, "%.*s\n", IB_DEVICE_NODE_DESC_MAX,
			  dev->node_desc);
}

/*
 * The bytes written, up to IB_DEVICE_NODE_DESC_MAX and unterminated if
 * that long, go to the driver as they are (a trailing newline included).
 * The file is writable by root only.
 */
static ssize_t node_desc_store(struct device *device,
			       struct device_attribute *attr,
			       const char *buf, size_t count)
{
	struct ib_device *dev = rdma_device_to_ibdev(device);
	struct ib_device_modify desc = {};
	int ret;

	if (!dev->ops.modify_device)
		return -EOPNOTSUPP;

	memcpy(desc.node_desc, buf, min(count, sizeof(desc.node_desc)));
	ret = ib_modify_device(dev, IB_DEVICE_MODIFY_NODE_DESC, &desc);
	if (ret)
		return ret;
	return count;
}
static DEVICE_ATTR_RW(node_desc);

static struct attribute *ib_dev_attrs[] = {
	&dev_attr_node_type.attr,
	&dev_attr_node_guid.attr,
	&dev_attr_sys_image_guid.attr,
	&dev_attr_fw_ver.attr,
	&dev_attr_node_desc.attr,
	NULL
};

const struct attribute_group ib_dev_attr_group = {
	.attrs = ib_dev_attrs,
};

/* ------------------------------------------------------------------
 * Registration
 */

/**
 * ib_device_register_sysfs - add a device to sysfs
 * @device: a device being registered, with its cache set up
 *
 * Sets the device's attribute groups (the core's, then the driver's
 * ops.device_group), adds the class device and creates ports/.  The ADD
 * uevent is held back until ports/ is complete, so that udev sees the
 * whole directory.
 *
 * Return: 0, or an error with nothing left in sysfs.
 */
int ib_device_register_sysfs(struct ib_device *device)
{
	int ret;

	device->groups[0] = &ib_dev_attr_group;
	device->groups[1] = device->ops.device_group;
	device->dev.groups = device->groups;

	dev_set_uevent_suppress(&device->dev, true);
	ret = device_add(&device->dev);
	if (ret)
		goto out;

	ret = ports_add(&device->coredev);
	if (ret) {
		device_del(&device->dev);
		goto out;
	}

	dev_set_uevent_suppress(&device->dev, false);
	kobject_uevent(&device->dev.kobj, KOBJ_ADD);
	return 0;

out:
	dev_set_uevent_suppress(&device->dev, false);
	return ret;
}

/**
 * ib_device_unregister_sysfs - remove a device from sysfs
 * @device: a device added with ib_device_register_sysfs()
 *
 * When this returns no show or store of the device or its ports runs
 * any more.
 */
void ib_device_unregister_sysfs(struct ib_device *device)
{
	ports_del(&device->coredev);
	device_del(&device->dev);
}
