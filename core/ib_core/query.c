// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Device and port queries that go to the driver, and the few constants
 * and strings that go with them.
 */
#include <linux/errno.h>
#include <linux/inetdevice.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#include "core_priv.h"

/*
 * PortInfo:CapabilityMask.IsCommunicationManagementSupported, the bit
 * IB_PORT_CM_SUP of ib_mad.h.
 */
#define PORT_CAP_CM_SUP		BIT(16)

/* The zero GID, for comparisons. */
union ib_gid zgid;
EXPORT_SYMBOL(zgid);

static const char *const ib_event_names[] = {
	[IB_EVENT_CQ_ERR]		= "CQ error",
	[IB_EVENT_QP_FATAL]		= "QP fatal error",
	[IB_EVENT_QP_REQ_ERR]		= "QP request error",
	[IB_EVENT_QP_ACCESS_ERR]	= "QP access error",
	[IB_EVENT_COMM_EST]		= "communication established",
	[IB_EVENT_SQ_DRAINED]		= "send queue drained",
	[IB_EVENT_PATH_MIG]		= "path migration successful",
	[IB_EVENT_PATH_MIG_ERR]		= "path migration error",
	[IB_EVENT_DEVICE_FATAL]		= "device fatal error",
	[IB_EVENT_PORT_ACTIVE]		= "port active",
	[IB_EVENT_PORT_ERR]		= "port error",
	[IB_EVENT_LID_CHANGE]		= "LID change",
	[IB_EVENT_PKEY_CHANGE]		= "P_key change",
	[IB_EVENT_SM_CHANGE]		= "SM change",
	[IB_EVENT_SRQ_ERR]		= "SRQ error",
	[IB_EVENT_SRQ_LIMIT_REACHED]	= "SRQ limit reached",
	[IB_EVENT_QP_LAST_WQE_REACHED]	= "last WQE reached",
	[IB_EVENT_CLIENT_REREGISTER]	= "client reregister",
	[IB_EVENT_GID_CHANGE]		= "GID changed",
};

/**
 * ib_event_msg - a readable name of an asynchronous event type
 * @event: the event type
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: a constant string; "unrecognized event" for an unknown type.
 */
const char *__attribute_const__ ib_event_msg(enum ib_event_type event)
{
	size_t i = event;

	if (i < ARRAY_SIZE(ib_event_names) && ib_event_names[i])
		return ib_event_names[i];
	return "unrecognized event";
}
EXPORT_SYMBOL(ib_event_msg);

/**
 * rdma_node_get_transport - the transport of a node type
 * @node_type: an RDMA_NODE_* value
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: RDMA_TRANSPORT_IWARP for an RNIC, the usNIC transports for the
 * usNIC nodes, RDMA_TRANSPORT_UNSPECIFIED for an unspecified node, and
 * RDMA_TRANSPORT_IB for everything else.
 */
enum rdma_transport_type rdma_node_get_transport(unsigned int node_type)
{
	switch (node_type) {
	case RDMA_NODE_RNIC:
		return RDMA_TRANSPORT_IWARP;
	case RDMA_NODE_USNIC:
		return RDMA_TRANSPORT_USNIC;
	case RDMA_NODE_USNIC_UDP:
		return RDMA_TRANSPORT_USNIC_UDP;
	case RDMA_NODE_UNSPECIFIED:
		return RDMA_TRANSPORT_UNSPECIFIED;
	default:
		return RDMA_TRANSPORT_IB;
	}
}
EXPORT_SYMBOL(rdma_node_get_transport);

/**
 * rdma_port_get_link_layer - the link layer of a port
 * @device: the device
 * @port_num: the port
 *
 * The driver's get_link_layer decides when it has one; otherwise an IB
 * transport node is InfiniBand and anything else Ethernet.
 *
 * Context: Any context when the driver has no get_link_layer op; otherwise as
 * that op (the in-tree drivers' do not sleep). Takes no lock.
 *
 * Return: an enum rdma_link_layer value.
 */
enum rdma_link_layer rdma_port_get_link_layer(struct ib_device *device,
					      u32 port_num)
{
	if (device->ops.get_link_layer)
		return device->ops.get_link_layer(device, port_num);

	if (rdma_node_get_transport(device->node_type) == RDMA_TRANSPORT_IB)
		return IB_LINK_LAYER_INFINIBAND;
	return IB_LINK_LAYER_ETHERNET;
}
EXPORT_SYMBOL(rdma_port_get_link_layer);

/*
 * An iWARP port is as up as its net device: down without carrier, active
 * once the device has an IPv4 address, initialising in between.
 */
static int iwarp_port_state(struct ib_device *device, u32 port_num,
			    struct ib_port_attr *port_attr)
{
	struct net_device *netdev;
	struct in_device *in_dev;

	netdev = ib_device_get_netdev(device, port_num);
	if (!netdev)
		return -ENODEV;

	port_attr->max_mtu = IB_MTU_4096;
	port_attr->active_mtu = ib_mtu_int_to_enum(READ_ONCE(netdev->mtu));

	if (!netif_carrier_ok(netdev)) {
		port_attr->state = IB_PORT_DOWN;
		port_attr->phys_state = IB_PORT_PHYS_STATE_DISABLED;
	} else {
		rcu_read_lock();
		in_dev = __in_dev_get_rcu(netdev);
		if (in_dev && rcu_access_pointer(in_dev->ifa_list)) {
			port_attr->state = IB_PORT_ACTIVE;
			port_attr->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
		} else {
			port_attr->state = IB_PORT_INIT;
			port_attr->phys_state =
				IB_PORT_PHYS_STATE_PORT_CONFIGURATION_TRAINING;
		}
		rcu_read_unlock();
	}

	dev_put(netdev);
	return 0;
}

/**
 * ib_query_port - the attributes of a port
 * @device: the device
 * @port_num: the port
 * @port_attr: zeroed, then filled in
 *
 * On an iWARP port the state, physical state and MTUs come from the
 * port's net device before the driver adds the rest.  On an InfiniBand
 * port whose driver reports no subnet prefix, the cached one is used.
 * May sleep.
 *
 * Context: Process context; may sleep (the driver's query_port op). On an
 * iWARP port it takes a reference on the net device and reads its addresses
 * under RCU; on an IB port it may take the device's cache_lock for read.
 *
 * Return: 0, -EINVAL for a bad port, -ENODEV for an iWARP port without a
 * net device, or the driver's error.
 */
int ib_query_port(struct ib_device *device, u32 port_num,
		  struct ib_port_attr *port_attr)
{
	int ret;

	if (!rdma_is_port_valid(device, port_num))
		return -EINVAL;

	memset(port_attr, 0, sizeof(*port_attr));

	if (rdma_protocol_iwarp(device, port_num)) {
		ret = iwarp_port_state(device, port_num, port_attr);
		if (ret)
			return ret;
		return device->ops.query_port(device, port_num, port_attr);
	}

	ret = device->ops.query_port(device, port_num, port_attr);
	if (ret || port_attr->subnet_prefix)
		return ret;

	if (rdma_port_get_link_layer(device, port_num) ==
	    IB_LINK_LAYER_INFINIBAND)
		ib_get_cached_subnet_prefix(device, port_num,
					    &port_attr->subnet_prefix);
	return 0;
}
EXPORT_SYMBOL(ib_query_port);

/**
 * ib_query_pkey - read a P_Key from the device
 * @device: the device
 * @port_num: the port
 * @index: the index in the port's P_Key table
 * @pkey: filled with the P_Key
 *
 * Context: Process context. Calls the driver's query_pkey op, which may sleep;
 * the core takes no lock.
 *
 * Return: 0, -EINVAL for a bad port, -EOPNOTSUPP when the driver has no
 * P_Keys, or the driver's error.
 */
int ib_query_pkey(struct ib_device *device, u32 port_num, u16 index,
		  u16 *pkey)
{
	if (!rdma_is_port_valid(device, port_num))
		return -EINVAL;
	if (!device->ops.query_pkey)
		return -EOPNOTSUPP;

	return device->ops.query_pkey(device, port_num, index, pkey);
}
EXPORT_SYMBOL(ib_query_pkey);

/**
 * ib_modify_device - change device attributes
 * @device: the device
 * @device_modify_mask: IB_DEVICE_MODIFY_* bits: what to change
 * @device_modify: the new values
 *
 * Context: Process context. Calls the driver's modify_device op, which may
 * sleep; the core takes no lock.
 *
 * Return: 0, -EOPNOTSUPP when the driver cannot, or the driver's error.
 */
int ib_modify_device(struct ib_device *device, int device_modify_mask,
		     struct ib_device_modify *device_modify)
{
	if (!device->ops.modify_device)
		return -EOPNOTSUPP;

	return device->ops.modify_device(device, device_modify_mask,
					 device_modify);
}
EXPORT_SYMBOL(ib_modify_device);

/**
 * ib_modify_port - change port attributes
 * @device: the device
 * @port_num: the port
 * @port_modify_mask: IB_PORT_* modify flags: what to change
 * @port_modify: the new values and capability bits to set and clear
 *
 * A RoCE port whose driver has no modify_port accepts a request as long
 * as the bits it sets, or the bits it clears, are at most the CM
 * capability: the core's own connection manager does exactly that.
 *
 * Context: Process context. Calls the driver's modify_port op, which may
 * sleep; the core takes no lock.
 *
 * Return: 0, -EINVAL for a bad port, -EOPNOTSUPP when the driver cannot,
 * or the driver's error.
 */
int ib_modify_port(struct ib_device *device, u32 port_num,
		   int port_modify_mask, struct ib_port_modify *port_modify)
{
	if (!rdma_is_port_valid(device, port_num))
		return -EINVAL;

	if (device->ops.modify_port)
		return device->ops.modify_port(device, port_num,
					       port_modify_mask, port_modify);

	if (rdma_protocol_roce(device, port_num) &&
	    (!(port_modify->set_port_cap_mask & ~PORT_CAP_CM_SUP) ||
	     !(port_modify->clr_port_cap_mask & ~PORT_CAP_CM_SUP)))
		return 0;
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL(ib_modify_port);

/**
 * ib_find_gid - find a GID on the InfiniBand ports of a device
 * @device: the device
 * @gid: the GID
 * @port_num: filled with the port it was found on
 * @index: if not NULL, filled with its index
 *
 * Only ports speaking InfiniBand are searched, in the GID cache.
 *
 * Context: Any context; does not sleep. Reads the GID cache, taking each port
 * GID table's rwlock for read with interrupts saved.
 *
 * Return: 0, or -ENOENT.
 */
int ib_find_gid(struct ib_device *device, union ib_gid *gid,
		u32 *port_num, u16 *index)
{
	union ib_gid tmp;
	u32 port;
	int i;

	rdma_for_each_port(device, port) {
		if (!rdma_protocol_ib(device, port))
			continue;

		for (i = 0; i < device->port_data[port].immutable.gid_tbl_len;
		     i++) {
			if (rdma_query_gid(device, port, i, &tmp))
				continue;
			if (memcmp(&tmp, gid, sizeof(tmp)))
				continue;
			*port_num = port;
			if (index)
				*index = i;
			return 0;
		}
	}
	return -ENOENT;
}
EXPORT_SYMBOL(ib_find_gid);

/**
 * ib_find_pkey - find a P_Key on the device, ignoring membership
 * @device: the device
 * @port_num: the port
 * @pkey: the P_Key; its membership bit (0x8000) is not compared
 * @index: filled with the index found
 *
 * Reads the device's table, not the cache.  A full-member entry is
 * preferred; otherwise the first limited-member entry is returned.  May
 * sleep.
 *
 * Context: Process context; may sleep (one driver query_pkey call per table
 * entry).
 *
 * Return: 0, -EINVAL for a bad port, -ENOENT when not found, or the
 * error of reading the table.
 */
int ib_find_pkey(struct ib_device *device, u32 port_num, u16 pkey,
		 u16 *index)
{
	int limited = -1;
	u16 entry;
	int i, ret;

	if (!rdma_is_port_valid(device, port_num))
		return -EINVAL;

	for (i = 0; i < device->port_data[port_num].immutable.pkey_tbl_len;
	     i++) {
		ret = ib_query_pkey(device, port_num, i, &entry);
		if (ret)
			return ret;
		if ((entry & 0x7fff) != (pkey & 0x7fff))
			continue;
		if (entry & 0x8000) {
			*index = i;
			return 0;
		}
		if (limited < 0)
			limited = i;
	}

	if (limited < 0)
		return -ENOENT;
	*index = limited;
	return 0;
}
EXPORT_SYMBOL(ib_find_pkey);

/**
 * ib_get_device_fw_str - the firmware version of a device, as text
 * @device: the device
 * @str: a buffer of IB_FW_VERSION_NAME_MAX bytes; the empty string when
 *	the driver does not say
 *
 * Context: Process context. Calls the driver's get_dev_fw_str op, which may
 * sleep; the core takes no lock.
 */
void ib_get_device_fw_str(struct ib_device *device, char *str)
{
	if (device->ops.get_dev_fw_str)
		device->ops.get_dev_fw_str(device, str);
	else
		str[0] = '\0';
}
EXPORT_SYMBOL(ib_get_device_fw_str);

/**
 * ib_port_immutable_read - a port's properties fixed at registration
 * @dev: the device
 * @port: the port, from rdma_start_port() to rdma_end_port()
 *
 * What the driver's get_port_immutable reported (GID and P_Key table
 * lengths, core capability flags, the MAD size): fixed for the device's
 * life, so read without a lock or a call into the driver.
 *
 * Context: any context.
 * Return: the port's immutable data; it lives as long as @dev.
 */
const struct ib_port_immutable *
ib_port_immutable_read(struct ib_device *dev, unsigned int port)
{
	WARN_ON(!rdma_is_port_valid(dev, port));
	return &dev->port_data[port].immutable;
}
EXPORT_SYMBOL(ib_port_immutable_read);
