/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What ib_uverbs hands a command and a driver: the bundle of a command's
 * buffers and context.  The ioctl path's attributes come with it later
 * (Documentation/core/uverbs.rst).
 */
#ifndef RDMA_UVERBS_IOCTL_H
#define RDMA_UVERBS_IOCTL_H

#include <linux/bitops.h>
#include <rdma/ib_verbs.h>

/* attribute keys of a method: 6 bits */
#define UVERBS_API_ATTR_KEY_BITS	6
#define UVERBS_API_ATTR_BKEY_LEN	BIT(UVERBS_API_ATTR_KEY_BITS)

/**
 * struct uverbs_attr_bundle - a user command on its way through ib_uverbs
 * @driver_udata: the driver's part of the request and of the response
 * @ucore: the core's part of the request and of the response (write()
 *	commands)
 * @ufile: the open uverbsN the command came through
 * @context: the file's context, once the command has one
 * @uobject: the object the command creates, if any
 * @attr_present: which attributes the ioctl carried
 * @hdr: the members above as one struct uverbs_attr_bundle_hdr
 *
 * Drivers get @driver_udata (rdma_udata_to_drv_context() finds the
 * bundle from it) or the bundle itself.
 */
struct uverbs_attr_bundle {
	/* struct_group_tagged() by hand: the members, and as one struct */
	union {
		struct {
			struct ib_udata driver_udata;
			struct ib_udata ucore;
			struct ib_uverbs_file *ufile;
			struct ib_ucontext *context;
			struct ib_uobject *uobject;
			DECLARE_BITMAP(attr_present, UVERBS_API_ATTR_BKEY_LEN);
		};
		struct uverbs_attr_bundle_hdr {
			struct ib_udata driver_udata;
			struct ib_udata ucore;
			struct ib_uverbs_file *ufile;
			struct ib_ucontext *context;
			struct ib_uobject *uobject;
			DECLARE_BITMAP(attr_present, UVERBS_API_ATTR_BKEY_LEN);
		} hdr;
	};
};

/**
 * ib_uverbs_get_ucontext - the context a command runs on
 * @attrs: the command
 *
 * Context: process context, within the command.
 * Return: the context, or an ERR_PTR() (-EIO when the device went away,
 * -EINVAL when there is none).
 */
static inline struct ib_ucontext *
ib_uverbs_get_ucontext(const struct uverbs_attr_bundle *attrs)
{
	return ib_uverbs_get_ucontext_file(attrs->ufile);
}

#endif /* RDMA_UVERBS_IOCTL_H */
