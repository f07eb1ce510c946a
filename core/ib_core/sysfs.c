// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * sysfs of an RDMA device: /sys/class/infiniband/<dev>/
 *
 *   node_type node_guid sys_image_guid fw_ver node_desc   (ib_dev_attr_group)
 *   <the driver's ops.device_group>
 *   hw_counters/              the device's hardware counters, one file
 *                             each, and lifespan (ops.alloc_hw_device_stats)
 *   ports/<n>/
 *     state lid lid_mask_count sm_lid sm_sl cap_mask rate phys_state
 *     link_layer
 *     gids/<i>                  every GID table index
 *     pkeys/<i>                 every P_Key table index (if any)
 *     gid_attrs/ndevs/<i>       net device name of GID <i>
 *     gid_attrs/types/<i>       type of GID <i>
 *     counters/                 the PMA's PortCounters (and, where the
 *                               PMA has them, PortCountersExtended), for
 *                               devices with ops.process_mad
 *     hw_counters/              the port's hardware counters, one file each
 *                               (with what its per-QP counters counted),
 *                               and lifespan (ops.alloc_hw_port_stats)
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
#include <linux/unaligned.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_pma.h>
#include <rdma/ib_sysfs.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_counter.h>

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
 * @groups: @gids, @pkeys, the PMA's counters/ and hw_counters/ as a
 *	NULL-terminated list
 * @pma_set: which counters counters/ shows (enum pma_set)
 * @hw_stats: hw_counters/ of the port, NULL without
 */
struct ib_port {
	struct kobject			kobj;
	struct ib_device		*ibdev;
	u32				port_num;
	struct list_head		list;
	struct gid_attrs_dir		*gid_attrs;
	struct port_table		gids;
	struct port_table		pkeys;
	const struct attribute_group	*groups[5];
	u8				pma_set;
	struct hw_stats_device_data	*hw_stats;
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
 * counters/: the port's PMA, asked through the driver's process_mad
 *
 * Each file is one counter of PortCounters or PortCountersExtended
 * (IBTA vol. 1 16.1.3.5 and 16.1.4.11), read afresh from the PMA on
 * every read.  Which set a port shows depends on the PMA's
 * ClassPortInfo, as upstream decides it: with IsExtendedWidthSupported
 * the 64-bit data and packet counters (and the unicast and multicast
 * ones) replace the 32-bit ones; with only ...NoIETF the four 64-bit
 * data and packet counters do; otherwise the 32-bit ones are shown.
 */

/* The three sets of counters/ a port may show, by its PMA's ClassPortInfo. */
enum pma_set {
	PMA_SET_BASIC,		/* PortCounters only */
	PMA_SET_EXT,		/* IsExtendedWidthSupported */
	PMA_SET_NOIETF,		/* IsExtendedWidthSupportedNoIETF */
};

#define PMA_IN_ALL	(BIT(PMA_SET_BASIC) | BIT(PMA_SET_EXT) | \
			 BIT(PMA_SET_NOIETF))

/**
 * struct pma_counter - a file of counters/
 * @attr: the file
 * @attr_id: PortCounters or PortCountersExtended
 * @bit: where the counter starts in the attribute, in bits
 * @width: its width in bits (4, 8, 16, 32 or 64)
 * @sets: the sets (BIT(enum pma_set)) that show it
 */
struct pma_counter {
	struct ib_port_attribute	attr;
	__be16				attr_id;
	u16				bit;
	u8				width;
	u8				sets;
};

/* The PMA attribute's data begins 40 bytes into ib_mad.data. */
#define PMA_DATA_OFFSET	40
/* PortSelect: byte 1 of PortCounters and PortCountersExtended. */
#define PMA_PORT_SELECT	(PMA_DATA_OFFSET + 1)

/*
 * Ask the device's PMA for @attr_id of @port_num and copy @len bytes of
 * the answer's attribute data from @offset.  Return: 0, -ENOMEM, or
 * -EINVAL when the PMA gives no good answer.
 */
static int pma_get(struct ib_device *ibdev, u32 port_num, __be16 attr_id,
		   unsigned int offset, void *data, size_t len)
{
	struct ib_mad *in, *out;
	size_t out_size = sizeof(*out);
	u16 out_pkey_index = 0;
	int ret = -EINVAL;

	in = kzalloc(sizeof(*in), GFP_KERNEL);
	out = kzalloc(sizeof(*out), GFP_KERNEL);
	if (!in || !out) {
		ret = -ENOMEM;
		goto out;
	}
	in->mad_hdr.base_version = IB_MGMT_BASE_VERSION;
	in->mad_hdr.mgmt_class = IB_MGMT_CLASS_PERF_MGMT;
	in->mad_hdr.class_version = 1;
	in->mad_hdr.method = IB_MGMT_METHOD_GET;
	in->mad_hdr.attr_id = attr_id;
	if (attr_id != IB_PMA_CLASS_PORT_INFO)
		in->data[PMA_PORT_SELECT] = port_num;

	if ((ibdev->ops.process_mad(ibdev, IB_MAD_IGNORE_MKEY, port_num, NULL,
				    NULL, in, out, &out_size,
				    &out_pkey_index) &
	     (IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY)) ==
	    (IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY) &&
	    !out->mad_hdr.status && offset + len <= sizeof(out->data)) {
		memcpy(data, out->data + offset, len);
		ret = 0;
	}
out:
	kfree(in);
	kfree(out);
	return ret;
}

static ssize_t pma_counter_show(struct ib_device *ibdev, u32 port_num,
				struct ib_port_attribute *attr, char *buf)
{
	const struct pma_counter *c = container_of(attr, struct pma_counter,
						   attr);
	unsigned int first = PMA_DATA_OFFSET + c->bit / 8;
	u8 data[8];
	int ret;

	ret = pma_get(ibdev, port_num, c->attr_id, first, data,
		      DIV_ROUND_UP(c->width, 8));
	if (ret)
		return ret;

	switch (c->width) {
	case 4:	/* a nibble: the high one at an even bit offset of 8 */
		return sysfs_emit(buf, "%u\n",
				  (data[0] >> (4 - c->bit % 8)) & 0xf);
	case 8:
		return sysfs_emit(buf, "%u\n", data[0]);
	case 16:
		return sysfs_emit(buf, "%u\n", get_unaligned_be16(data));
	case 32:
		return sysfs_emit(buf, "%u\n", get_unaligned_be32(data));
	default:
		return sysfs_emit(buf, "%llu\n", get_unaligned_be64(data));
	}
}

#define PMA_COUNTER(_var, _name, _attr_id, _bit, _width, _sets)	\
	static struct pma_counter _var = {				\
		.attr = __ATTR(_name, 0444, pma_counter_show, NULL),	\
		.attr_id = _attr_id,					\
		.bit = _bit,						\
		.width = _width,					\
		.sets = _sets,						\
	}
/* A counter of PortCounters, and one of PortCountersExtended. */
#define PC(_name, _bit, _width, _sets)					\
	PMA_COUNTER(pc_##_name, _name, IB_PMA_PORT_COUNTERS, _bit,	\
		    _width, _sets)
#define PCX(_name, _bit, _sets)						\
	PMA_COUNTER(pcx_##_name, _name, IB_PMA_PORT_COUNTERS_EXT, _bit,	\
		    64, _sets)

#define PMA_IN_EXT	(BIT(PMA_SET_EXT) | BIT(PMA_SET_NOIETF))

PC(symbol_error, 32, 16, PMA_IN_ALL);
PC(link_error_recovery, 48, 8, PMA_IN_ALL);
PC(link_downed, 56, 8, PMA_IN_ALL);
PC(port_rcv_errors, 64, 16, PMA_IN_ALL);
PC(port_rcv_remote_physical_errors, 80, 16, PMA_IN_ALL);
PC(port_rcv_switch_relay_errors, 96, 16, PMA_IN_ALL);
PC(port_xmit_discards, 112, 16, PMA_IN_ALL);
PC(port_xmit_constraint_errors, 128, 8, PMA_IN_ALL);
PC(port_rcv_constraint_errors, 136, 8, PMA_IN_ALL);
PC(local_link_integrity_errors, 152, 4, PMA_IN_ALL);
PC(excessive_buffer_overrun_errors, 156, 4, PMA_IN_ALL);
PC(VL15_dropped, 176, 16, PMA_IN_ALL);
PC(port_xmit_wait, 320, 32, PMA_IN_ALL);
PC(port_xmit_data, 192, 32, BIT(PMA_SET_BASIC));
PC(port_rcv_data, 224, 32, BIT(PMA_SET_BASIC));
PC(port_xmit_packets, 256, 32, BIT(PMA_SET_BASIC));
PC(port_rcv_packets, 288, 32, BIT(PMA_SET_BASIC));
PCX(port_xmit_data, 64, PMA_IN_EXT);
PCX(port_rcv_data, 128, PMA_IN_EXT);
PCX(port_xmit_packets, 192, PMA_IN_EXT);
PCX(port_rcv_packets, 256, PMA_IN_EXT);
PCX(unicast_xmit_packets, 320, BIT(PMA_SET_EXT));
PCX(unicast_rcv_packets, 384, BIT(PMA_SET_EXT));
PCX(multicast_xmit_packets, 448, BIT(PMA_SET_EXT));
PCX(multicast_rcv_packets, 512, BIT(PMA_SET_EXT));

/* Every counter; pma_visible() leaves out those of other sets. */
static struct attribute *pma_attrs[] = {
	&pc_symbol_error.attr.attr,
	&pc_link_error_recovery.attr.attr,
	&pc_link_downed.attr.attr,
	&pc_port_rcv_errors.attr.attr,
	&pc_port_rcv_remote_physical_errors.attr.attr,
	&pc_port_rcv_switch_relay_errors.attr.attr,
	&pc_port_xmit_discards.attr.attr,
	&pc_port_xmit_constraint_errors.attr.attr,
	&pc_port_rcv_constraint_errors.attr.attr,
	&pc_local_link_integrity_errors.attr.attr,
	&pc_excessive_buffer_overrun_errors.attr.attr,
	&pc_VL15_dropped.attr.attr,
	&pc_port_xmit_wait.attr.attr,
	&pc_port_xmit_data.attr.attr,
	&pc_port_rcv_data.attr.attr,
	&pc_port_xmit_packets.attr.attr,
	&pc_port_rcv_packets.attr.attr,
	&pcx_port_xmit_data.attr.attr,
	&pcx_port_rcv_data.attr.attr,
	&pcx_port_xmit_packets.attr.attr,
	&pcx_port_rcv_packets.attr.attr,
	&pcx_unicast_xmit_packets.attr.attr,
	&pcx_unicast_rcv_packets.attr.attr,
	&pcx_multicast_xmit_packets.attr.attr,
	&pcx_multicast_rcv_packets.attr.attr,
	NULL
};

static umode_t pma_visible(struct kobject *kobj, struct attribute *attr,
			   int n)
{
	const struct pma_counter *c =
		container_of(attr, struct pma_counter, attr.attr);

	return c->sets & BIT(to_port(kobj)->pma_set) ? attr->mode : 0;
}

static const struct attribute_group pma_group = {
	.name = "counters",
	.attrs = pma_attrs,
	.is_visible = pma_visible,
};

/* Which counters a port shows, by what its PMA's ClassPortInfo says. */
static enum pma_set pma_set_of(struct ib_device *ibdev, u32 port_num)
{
	struct ib_class_port_info cpi;

	if (!pma_get(ibdev, port_num, IB_PMA_CLASS_PORT_INFO,
		     PMA_DATA_OFFSET, &cpi, sizeof(cpi))) {
		if (cpi.capability_mask & IB_PMA_CLASS_CAP_EXT_WIDTH)
			return PMA_SET_EXT;
		if (cpi.capability_mask & IB_PMA_CLASS_CAP_EXT_WIDTH_NOIETF)
			return PMA_SET_NOIETF;
	}
	return PMA_SET_BASIC;
}

/* ------------------------------------------------------------------
 * hw_counters/ of a device and of its ports
 *
 * One read-only file per counter of the driver's rdma_hw_stats and a
 * writable lifespan (milliseconds, 0 to 10000): the values read from
 * the driver are reused for that long (0: every read asks the driver).
 * A port's file adds what its per-QP counters counted
 * (rdma_counter_get_hwstat_value()).
 */

/**
 * struct hw_stats_file - one file of hw_counters/
 * @dattr: the file of a device's directory
 * @pattr: the file of a port's directory
 * @index: the counter, or -1 for lifespan
 */
struct hw_stats_file {
	union {
		struct device_attribute		dattr;
		struct ib_port_attribute	pattr;
	};
	int				index;
};

/**
 * struct hw_stats_device_data - a hw_counters/ directory
 * @group: its attribute group, named hw_counters
 * @stats: the driver's counters, freed with the directory
 * @port: the port, 0 for the device's directory
 * @attrs: @files as a NULL-terminated list for @group
 * @files: a file per counter, then lifespan
 */
struct hw_stats_device_data {
	struct attribute_group		group;
	struct rdma_hw_stats		*stats;
	u32				port;
	struct attribute		**attrs;
	struct hw_stats_file		files[];
};

/* Ask the driver for fresh values unless those of @stats are recent. */
static int hw_stats_update(struct ib_device *dev, struct rdma_hw_stats *stats,
			   u32 port, int index)
{
	int ret;

	lockdep_assert_held(&stats->lock);
	/* a lifespan of 0 reuses nothing, not even within a jiffy */
	if (stats->timestamp && stats->lifespan &&
	    time_is_after_eq_jiffies(stats->timestamp + stats->lifespan))
		return 0;
	ret = dev->ops.get_hw_stats(dev, stats, port, index);
	if (ret < 0)
		return ret;
	/* only a read of every counter makes the set recent */
	if (ret == stats->num_counters)
		stats->timestamp = jiffies ?: 1;
	return 0;
}

static ssize_t hw_stats_show(struct ib_device *dev,
			     struct hw_stats_device_data *data, int index,
			     char *buf)
{
	struct rdma_hw_stats *stats = data->stats;
	int ret = 0;
	u64 v = 0;

	mutex_lock(&stats->lock);
	if (index < 0) {
		v = jiffies_to_msecs(stats->lifespan);
	} else {
		ret = hw_stats_update(dev, stats, data->port, index);
		v = stats->value[index];
	}
	mutex_unlock(&stats->lock);
	if (ret)
		return ret;
	if (index >= 0 && data->port)
		v += rdma_counter_get_hwstat_value(dev, data->port, index);
	return sysfs_emit(buf, "%llu\n", v);
}

static ssize_t hw_stats_store_lifespan(struct hw_stats_device_data *data,
				       const char *buf, size_t count)
{
	unsigned int msecs;
	int ret;

	ret = kstrtouint(buf, 10, &msecs);
	if (ret)
		return ret;
	if (msecs > 10000)
		return -EINVAL;
	mutex_lock(&data->stats->lock);
	data->stats->lifespan = msecs_to_jiffies(msecs);
	mutex_unlock(&data->stats->lock);
	return count;
}

static struct hw_stats_device_data *dev_hw_stats(struct device *device)
{
	return rdma_device_to_ibdev(device)->hw_stats_data;
}

static ssize_t hw_stats_dev_show(struct device *device,
				 struct device_attribute *attr, char *buf)
{
	struct hw_stats_file *f = container_of(attr, struct hw_stats_file,
					       dattr);

	return hw_stats_show(rdma_device_to_ibdev(device),
			     dev_hw_stats(device), f->index, buf);
}

static ssize_t hw_stats_dev_store(struct device *device,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	return hw_stats_store_lifespan(dev_hw_stats(device), buf, count);
}

static ssize_t hw_stats_port_show(struct ib_device *ibdev, u32 port_num,
				  struct ib_port_attribute *attr, char *buf)
{
	struct hw_stats_file *f = container_of(attr, struct hw_stats_file,
					       pattr);

	return hw_stats_show(ibdev, ibdev->port_data[port_num].sysfs->hw_stats,
			     f->index, buf);
}

static ssize_t hw_stats_port_store(struct ib_device *ibdev, u32 port_num,
				   struct ib_port_attribute *attr,
				   const char *buf, size_t count)
{
	return hw_stats_store_lifespan(ibdev->port_data[port_num].sysfs->hw_stats,
				       buf, count);
}

static void hw_stats_free(struct hw_stats_device_data *data)
{
	if (!data)
		return;
	rdma_free_hw_stats_struct(data->stats);
	kfree(data->attrs);
	kfree(data);
}

/*
 * The hw_counters/ directory of @stats (taken over, freed with it, also
 * on failure): of the device for @port 0, else of the port.
 */
static struct hw_stats_device_data *hw_stats_new(struct rdma_hw_stats *stats,
						 u32 port)
{
	struct hw_stats_device_data *data;
	int i, n;

	if (!stats)
		return NULL;
	n = stats->num_counters;
	data = kzalloc(struct_size(data, files, n + 1), GFP_KERNEL);
	if (!data)
		goto err;
	data->attrs = kcalloc(n + 2, sizeof(*data->attrs), GFP_KERNEL);
	if (!data->attrs)
		goto err_data;
	data->stats = stats;
	data->port = port;
	for (i = 0; i <= n; i++) {
		struct hw_stats_file *f = &data->files[i];
		struct attribute *a = port ? &f->pattr.attr : &f->dattr.attr;

		f->index = i < n ? i : -1;
		sysfs_attr_init(a);
		a->name = i < n ? stats->descs[i].name : "lifespan";
		a->mode = i < n ? 0444 : 0644;
		if (port) {
			f->pattr.show = hw_stats_port_show;
			if (i == n)
				f->pattr.store = hw_stats_port_store;
		} else {
			f->dattr.show = hw_stats_dev_show;
			if (i == n)
				f->dattr.store = hw_stats_dev_store;
		}
		data->attrs[i] = a;
	}
	data->group.name = "hw_counters";
	data->group.attrs = data->attrs;
	return data;

err_data:
	kfree(data);
err:
	rdma_free_hw_stats_struct(stats);
	return NULL;
}

/**
 * ib_get_hw_stats_port - the hardware counters of a port
 * @ibdev: a registered device
 * @port_num: a port number
 *
 * Return: the set behind ports/<n>/hw_counters/, or NULL when the port
 * has none (or @port_num is not a port).
 */
struct rdma_hw_stats *ib_get_hw_stats_port(struct ib_device *ibdev,
					   u32 port_num)
{
	struct ib_port *port;

	if (!rdma_is_port_valid(ibdev, port_num))
		return NULL;
	port = ibdev->port_data[port_num].sysfs;
	return port && port->hw_stats ? port->hw_stats->stats : NULL;
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
	hw_stats_free(port->hw_stats);
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
	if (device->ops.process_mad) {
		port->pma_set = pma_set_of(device, port_num);
		port->groups[attr.pkey_tbl_len ? 2 : 1] = &pma_group;
	}
	if (device->ops.alloc_hw_port_stats && device->ops.get_hw_stats) {
		struct rdma_hw_stats *st;

		st = device->ops.alloc_hw_port_stats(device, port_num);
		port->hw_stats = hw_stats_new(st, port_num);
		if (!port->hw_stats) {
			ret = -ENOMEM;
			goto err_put;
		}
		port->groups[1 + !!attr.pkey_tbl_len +
			     !!device->ops.process_mad] = &port->hw_stats->group;
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

	unsigned int i = 1;

	device->groups[0] = &ib_dev_attr_group;
	if (device->ops.device_group)
		device->groups[i++] = device->ops.device_group;
	if (device->ops.alloc_hw_device_stats && device->ops.get_hw_stats) {
		device->hw_stats_data =
			hw_stats_new(device->ops.alloc_hw_device_stats(device),
				     0);
		if (!device->hw_stats_data)
			return -ENOMEM;
		device->hw_stats_attr_index = i;
		device->groups[i++] = &device->hw_stats_data->group;
	}
	device->groups[i] = NULL;
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
	hw_stats_free(device->hw_stats_data);
	device->hw_stats_data = NULL;
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
	/* device_del() removed hw_counters/ and waited for its readers */
	hw_stats_free(device->hw_stats_data);
	device->hw_stats_data = NULL;
}
