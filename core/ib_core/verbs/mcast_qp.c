// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Attaching UD QPs to multicast groups: ib_attach_mcast() and
 * ib_detach_mcast().  The core checks the address and the QP type, the
 * driver keeps the groups; every successful attach counts in the QP's
 * usecnt, so a QP still attached cannot be destroyed (-EBUSY).
 */

#include <rdma/ib_verbs.h>

/* A multicast GID: ff00::/8, or an IPv4 multicast address mapped to v6. */
static bool mcast_gid_ok(const union ib_gid *gid)
{
	static const u8 v4_mapped[12] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
	};

	if (gid->raw[0] == 0xff)
		return true;
	return !memcmp(gid->raw, v4_mapped, sizeof(v4_mapped)) &&
	       (gid->raw[12] & 0xf0) == 0xe0;
}

/*
 * A multicast LID (0xC000..0xFFFE) is needed on InfiniBand ports only;
 * RoCE ignores the LID.  A QP past RESET is bound to its port; before
 * that any Ethernet port on the device makes any LID acceptable.
 */
static bool mcast_lid_ok(struct ib_qp *qp, u16 lid)
{
	struct ib_qp_init_attr init_attr = {};
	struct ib_qp_attr attr = {};
	bool ib_only = true;
	u32 port;

	if (!ib_query_qp(qp, &attr, IB_QP_STATE | IB_QP_PORT, &init_attr) &&
	    attr.qp_state >= IB_QPS_INIT) {
		ib_only = rdma_port_get_link_layer(qp->device, attr.port_num) ==
			  IB_LINK_LAYER_INFINIBAND;
	} else {
		rdma_for_each_port(qp->device, port)
			if (rdma_port_get_link_layer(qp->device, port) !=
			    IB_LINK_LAYER_INFINIBAND)
				ib_only = false;
	}
	if (!ib_only)
		return true;
	return lid >= be16_to_cpu(IB_MULTICAST_LID_BASE) &&
	       lid != be16_to_cpu(IB_LID_PERMISSIVE);
}

static int mcast_check(struct ib_qp *qp, union ib_gid *gid, u16 lid)
{
	if (!mcast_gid_ok(gid) || qp->qp_type != IB_QPT_UD ||
	    !mcast_lid_ok(qp, lid))
		return -EINVAL;
	return 0;
}

/**
 * ib_attach_mcast - attach a UD QP to a multicast group
 * @qp: the QP, of type IB_QPT_UD
 * @gid: the multicast GID of the group
 * @lid: the multicast LID of the group (host order; ignored on RoCE)
 *
 * The QP then receives the datagrams sent to the group.  Each successful
 * attach holds the QP (its usecnt) until the matching ib_detach_mcast().
 *
 * Context: Process context. Calls the driver's attach_mcast op, which may
 * sleep; the core takes no lock.
 *
 * Return: 0, -EOPNOTSUPP when the device has no multicast, -EINVAL for
 * a QP that is not UD, a GID that is not multicast or a LID outside the
 * multicast range, or the driver's error.
 */
int ib_attach_mcast(struct ib_qp *qp, union ib_gid *gid, u16 lid)
{
	int ret;

	if (!qp->device->ops.attach_mcast)
		return -EOPNOTSUPP;
	ret = mcast_check(qp, gid, lid);
	if (ret)
		return ret;
	ret = qp->device->ops.attach_mcast(qp, gid, lid);
	if (!ret)
		atomic_inc(&qp->usecnt);
	return ret;
}
EXPORT_SYMBOL(ib_attach_mcast);

/**
 * ib_detach_mcast - detach a UD QP from a multicast group
 * @qp: the QP
 * @gid: the multicast GID the QP was attached with
 * @lid: the multicast LID it was attached with
 *
 * Context: Process context. Calls the driver's detach_mcast op, which may
 * sleep; the core takes no lock.
 *
 * Return: 0, -EOPNOTSUPP when the device has no multicast, -EINVAL for
 * bad arguments (as ib_attach_mcast()) or the driver's error (rdmavt:
 * -EINVAL when the QP is not attached to the group).
 */
int ib_detach_mcast(struct ib_qp *qp, union ib_gid *gid, u16 lid)
{
	int ret;

	if (!qp->device->ops.detach_mcast)
		return -EOPNOTSUPP;
	ret = mcast_check(qp, gid, lid);
	if (ret)
		return ret;
	ret = qp->device->ops.detach_mcast(qp, gid, lid);
	if (!ret)
		atomic_dec(&qp->usecnt);
	return ret;
}
EXPORT_SYMBOL(ib_detach_mcast);
