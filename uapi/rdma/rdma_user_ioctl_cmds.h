/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * The framing of the verbs ioctl (RDMA_VERBS_IOCTL on /dev/infiniband/
 * uverbsN): one header naming an object and a method, followed by an
 * array of attributes, each an ID with either an inline value or a
 * pointer to user memory.  The objects, methods and attribute IDs
 * themselves are in <rdma/ib_user_ioctl_verbs.h> and the drivers'
 * headers.
 */
#ifndef RDMA_USER_IOCTL_CMDS_H
#define RDMA_USER_IOCTL_CMDS_H

#include <linux/types.h>
#include <linux/ioctl.h>

/* The ioctl type byte of every RDMA character device */
#define RDMA_IOCTL_MAGIC	0x1b
#define RDMA_VERBS_IOCTL \
	_IOWR(RDMA_IOCTL_MAGIC, 1, struct ib_uverbs_ioctl_hdr)

/* ib_uverbs_attr.flags */
enum {
	/* set by user space: the method must fail if it does not know it */
	UVERBS_ATTR_F_MANDATORY = 1U << 0,
	/*
	 * set by the kernel on an output attribute it wrote; a mandatory
	 * attribute counts as written whether or not the bit is set
	 */
	UVERBS_ATTR_F_VALID_OUTPUT = 1U << 1,
};

/*
 * One attribute.  len is the size of what data points to (pointers) or
 * the number of entries of an IDR array; data holds the value itself
 * when it fits in 8 bytes, a handle, or a file descriptor (data_s64).
 */
struct ib_uverbs_attr {
	__u16 attr_id;
	__u16 len;
	__u16 flags;
	union {
		struct {
			__u8 elem_id;	/* which member of an enum attribute */
			__u8 reserved;
		} enum_data;
		__u16 reserved;
	} attr_data;
	union {
		__aligned_u64 data;
		__s64 data_s64;
	};
};

/* The header: length is that of the whole buffer, attributes included */
struct ib_uverbs_ioctl_hdr {
	__u16 length;
	__u16 object_id;
	__u16 method_id;
	__u16 num_attrs;
	__aligned_u64 reserved1;
	__u32 driver_id;
	__u32 reserved2;
	struct ib_uverbs_attr  attrs[];
};

#endif /* RDMA_USER_IOCTL_CMDS_H */
