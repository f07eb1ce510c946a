/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * The user MAD interface, /dev/infiniband/umadN.
 *
 * An agent is registered with an ioctl (IB_USER_MAD_REGISTER_AGENT[2],
 * defined in <rdma/rdma_user_ioctl.h>, which this header pulls in).  MADs
 * are then sent with write() and received with read(), each one a
 * struct ib_user_mad: a header followed by the MAD itself.
 *
 * The structures keep one layout for 32-bit and 64-bit user space.
 */
#ifndef IB_USER_MAD_H
#define IB_USER_MAD_H

#include <linux/types.h>
#include <rdma/rdma_user_ioctl.h>

/* Bumped only on an incompatible change of this interface. */
#define IB_USER_MAD_ABI_VERSION	5

/*
 * Header fields, for both directions (ib_user_mad_hdr and its older form):
 *   id             agent the MAD belongs to
 *   status         receive: 0, or ETIMEDOUT when a request got no
 *                  answer (data[] then holds the request); ignored on send
 *   timeout_ms     send: how long to wait for a response
 *   retries        send: how many times to resend without a response
 *   length         total length, header included
 *   qpn, qkey      remote QP and its Q_Key (qkey: send only)
 *   lid, sl        remote LID and service level
 *   path_bits      local LID path bits
 *   grh_present    a GRH was received / is to be sent; then gid_index
 *                  (send only), hop_limit, traffic_class, gid and
 *                  flow_label describe it
 *   pkey_index     P_Key index; only with the new header, which a file
 *                  gets by issuing IB_USER_MAD_ENABLE_PKEY before any
 *                  other operation
 */
struct ib_user_mad_hdr_old {
	__u32	id;
	__u32	status;
	__u32	timeout_ms;
	__u32	retries;
	__u32	length;
	__be32	qpn;
	__be32	qkey;
	__be16	lid;
	__u8	sl;
	__u8	path_bits;
	__u8	grh_present;
	__u8	gid_index;
	__u8	hop_limit;
	__u8	traffic_class;
	__u8	gid[16];
	__be32	flow_label;
};

struct ib_user_mad_hdr {
	__u32	id;
	__u32	status;
	__u32	timeout_ms;
	__u32	retries;
	__u32	length;
	__be32	qpn;
	__be32	qkey;
	__be16	lid;
	__u8	sl;
	__u8	path_bits;
	__u8	grh_present;
	__u8	gid_index;
	__u8	hop_limit;
	__u8	traffic_class;
	__u8	gid[16];
	__be32	flow_label;
	__u16	pkey_index;
	__u8	reserved[6];
};

struct ib_user_mad {
	struct ib_user_mad_hdr hdr;
	__aligned_u64	data[];		/* the MAD */
};

/*
 * method_mask of the first registration request is a 128-bit bitmap of
 * unsigned longs, yet it must sit at offset 4 whatever the size of long:
 * its element type is an unsigned long aligned to 4 bytes only.  The
 * compat ioctl path converts the bitmap for 32-bit callers.
 */
typedef unsigned long __attribute__((aligned(4))) packed_ulong;
#define IB_USER_MAD_LONGS_PER_METHOD_MASK (128 / (8 * sizeof(long)))

/*
 * IB_USER_MAD_REGISTER_AGENT argument.
 *   id                  returned by the kernel; names the agent later
 *   method_mask         methods whose unsolicited MADs the agent wants
 *   qpn                 0 (SMI) or 1 (GSI)
 *   mgmt_class          class of unsolicited MADs wanted, 0 for none
 *   mgmt_class_version  version of that class
 *   oui                 IEEE OUI, for vendor classes 0x30..0x4f only
 *   rmpp_version        RMPP version in use, 0 for none
 */
struct ib_user_mad_reg_req {
	__u32	id;
	packed_ulong method_mask[IB_USER_MAD_LONGS_PER_METHOD_MASK];
	__u8	qpn;
	__u8	mgmt_class;
	__u8	mgmt_class_version;
	__u8	oui[3];
	__u8	rmpp_version;
};

/* ib_user_mad_reg_req2.flags */
enum {
	IB_USER_MAD_USER_RMPP = (1 << 0),	/* user space does RMPP itself */
};

#define IB_USER_MAD_REG_FLAGS_CAP (IB_USER_MAD_USER_RMPP)

/*
 * IB_USER_MAD_REGISTER_AGENT2 argument: the same fields as above with a
 * fixed-size method_mask, a 32-bit oui, and flags (a subset of
 * IB_USER_MAD_REG_FLAGS_CAP).  res is ignored.
 */
struct ib_user_mad_reg_req2 {
	__u32	id;
	__u32	qpn;
	__u8	mgmt_class;
	__u8	mgmt_class_version;
	__u16	res;
	__u32	flags;
	__aligned_u64 method_mask[2];
	__u32	oui;
	__u8	rmpp_version;
	__u8	reserved[3];
};

#endif /* IB_USER_MAD_H */
