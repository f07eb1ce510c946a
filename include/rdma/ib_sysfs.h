/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Attributes of the per-port sysfs directories
 * (/sys/class/infiniband/<dev>/ports/<n>/).
 *
 * A driver lists groups of struct ib_port_attribute in
 * ib_device_ops.port_groups; the core creates them in every port
 * directory and calls show/store with the device and the port number.
 */
#ifndef IB_SYSFS_H
#define IB_SYSFS_H

#include <linux/sysfs.h>

struct ib_device;

/**
 * struct ib_port_attribute - a file in a port directory
 * @attr: the sysfs attribute (name and mode)
 * @show: read the value of port @port_num into @buf (a page)
 * @store: write @count bytes of @buf to port @port_num
 */
struct ib_port_attribute {
	struct attribute attr;
	ssize_t (*show)(struct ib_device *ibdev, u32 port_num,
			struct ib_port_attribute *attr, char *buf);
	ssize_t (*store)(struct ib_device *ibdev, u32 port_num,
			 struct ib_port_attribute *attr, const char *buf,
			 size_t count);
};

/* Define ib_port_attr_<name> with <name>_show() and/or <name>_store(). */
#define IB_PORT_ATTR_RW(_name)						\
	struct ib_port_attribute ib_port_attr_##_name = __ATTR_RW(_name)

#define IB_PORT_ATTR_ADMIN_RW(_name)					\
	struct ib_port_attribute ib_port_attr_##_name =			\
		__ATTR_RW_MODE(_name, 0600)

#define IB_PORT_ATTR_RO(_name)						\
	struct ib_port_attribute ib_port_attr_##_name = __ATTR_RO(_name)

#define IB_PORT_ATTR_WO(_name)						\
	struct ib_port_attribute ib_port_attr_##_name = __ATTR_WO(_name)

struct ib_device *ib_port_sysfs_get_ibdev_kobj(struct kobject *kobj,
					       u32 *port_num);

#endif /* IB_SYSFS_H */
