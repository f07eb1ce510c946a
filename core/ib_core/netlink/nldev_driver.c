// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Driver attributes of restrack replies.
 *
 * A driver's fill_res_*_entry() op opens an RDMA_NLDEV_ATTR_DRIVER nest
 * in the reply and puts its own name/value pairs in it with these
 * helpers; "rdma res show ... -dd" prints them.  Inside the nest an entry
 * is flat, never nested: its name (DRIVER_STRING), optionally how to
 * print it (DRIVER_PRINT_TYPE), then its value (DRIVER_STRING, _U32 or
 * _U64).  A tool starts a new entry at each name.
 *
 * No locks: the reply being filled belongs to the caller.
 */
#include <linux/export.h>
#include <net/netlink.h>
#include <rdma/rdma_netlink.h>
#include <rdma/restrack.h>

static int nldev_driver_name(struct sk_buff *msg, const char *name,
			     enum rdma_nldev_print_type print_type)
{
	if (nla_put_string(msg, RDMA_NLDEV_ATTR_DRIVER_STRING, name))
		return -EMSGSIZE;
	if (print_type == RDMA_NLDEV_PRINT_TYPE_UNSPEC)
		return 0;
	return nla_put_u8(msg, RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE,
			  print_type) ? -EMSGSIZE : 0;
}

static int nldev_driver_u32(struct sk_buff *msg, const char *name,
			    enum rdma_nldev_print_type print_type, u32 value)
{
	if (nldev_driver_name(msg, name, print_type) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_DRIVER_U32, value))
		return -EMSGSIZE;
	return 0;
}

static int nldev_driver_u64(struct sk_buff *msg, const char *name,
			    enum rdma_nldev_print_type print_type, u64 value)
{
	if (nldev_driver_name(msg, name, print_type) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_DRIVER_U64, value,
			      RDMA_NLDEV_ATTR_PAD))
		return -EMSGSIZE;
	return 0;
}

/**
 * rdma_nl_put_driver_string - add a driver attribute with a string value
 * @msg: the reply, inside the driver's RDMA_NLDEV_ATTR_DRIVER nest
 * @name: the attribute's name
 * @str: its value
 *
 * Context: Any context; takes no lock.
 * Return: 0, or -EMSGSIZE when @msg is full (the caller cancels its nest).
 */
int rdma_nl_put_driver_string(struct sk_buff *msg, const char *name,
			      const char *str)
{
	if (nldev_driver_name(msg, name, RDMA_NLDEV_PRINT_TYPE_UNSPEC) ||
	    nla_put_string(msg, RDMA_NLDEV_ATTR_DRIVER_STRING, str))
		return -EMSGSIZE;
	return 0;
}
EXPORT_SYMBOL(rdma_nl_put_driver_string);

/**
 * rdma_nl_put_driver_u32 - add a driver attribute printed in decimal
 * @msg: the reply, inside the driver's RDMA_NLDEV_ATTR_DRIVER nest
 * @name: the attribute's name
 * @value: its value
 *
 * Context: Any context; takes no lock.
 * Return: 0, or -EMSGSIZE when @msg is full.
 */
int rdma_nl_put_driver_u32(struct sk_buff *msg, const char *name, u32 value)
{
	return nldev_driver_u32(msg, name, RDMA_NLDEV_PRINT_TYPE_UNSPEC, value);
}
EXPORT_SYMBOL(rdma_nl_put_driver_u32);

/**
 * rdma_nl_put_driver_u32_hex - add a driver attribute printed in hex
 * @msg: the reply, inside the driver's RDMA_NLDEV_ATTR_DRIVER nest
 * @name: the attribute's name
 * @value: its value
 *
 * Context: Any context; takes no lock.
 * Return: 0, or -EMSGSIZE when @msg is full.
 */
int rdma_nl_put_driver_u32_hex(struct sk_buff *msg, const char *name,
			       u32 value)
{
	return nldev_driver_u32(msg, name, RDMA_NLDEV_PRINT_TYPE_HEX, value);
}
EXPORT_SYMBOL(rdma_nl_put_driver_u32_hex);

/**
 * rdma_nl_put_driver_u64 - add a 64-bit driver attribute printed in decimal
 * @msg: the reply, inside the driver's RDMA_NLDEV_ATTR_DRIVER nest
 * @name: the attribute's name
 * @value: its value
 *
 * Context: Any context; takes no lock.
 * Return: 0, or -EMSGSIZE when @msg is full.
 */
int rdma_nl_put_driver_u64(struct sk_buff *msg, const char *name, u64 value)
{
	return nldev_driver_u64(msg, name, RDMA_NLDEV_PRINT_TYPE_UNSPEC, value);
}
EXPORT_SYMBOL(rdma_nl_put_driver_u64);

/**
 * rdma_nl_put_driver_u64_hex - add a 64-bit driver attribute printed in hex
 * @msg: the reply, inside the driver's RDMA_NLDEV_ATTR_DRIVER nest
 * @name: the attribute's name
 * @value: its value
 *
 * Context: Any context; takes no lock.
 * Return: 0, or -EMSGSIZE when @msg is full.
 */
int rdma_nl_put_driver_u64_hex(struct sk_buff *msg, const char *name,
			       u64 value)
{
	return nldev_driver_u64(msg, name, RDMA_NLDEV_PRINT_TYPE_HEX, value);
}
EXPORT_SYMBOL(rdma_nl_put_driver_u64_hex);
