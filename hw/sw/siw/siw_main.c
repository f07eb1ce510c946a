// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Module siw: soft-iWARP devices on net devices.
 *
 * "rdma link add NAME type siw netdev DEV" makes a device whose one port
 * sits on DEV; "rdma link delete NAME", DEV going away, or unloading the
 * module removes it.  A net device carries at most one siw device.
 *
 * Lock order of the module (outermost first): the RTNL lock (netdev
 * notifier, ib_device_set_netdev()), then ib_core's device locks.  The
 * device code holds no lock of its own across calls into ib_core or
 * rdmavt; the connection manager's order is in siw_cm.c.
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <rdma/rdma_netlink.h>

#include "siw.h"
#include "siw_qp.h"
#include "siw_cm.h"

bool siw_port_map;
module_param_named(port_map, siw_port_map, bool, 0644);
MODULE_PARM_DESC(port_map,
		 "devices made from now on take their TCP ports from the iWARP port mapper (iwpmd) (default: no, as upstream siw)");

/*
 * SEND and WRITE payload of SIW_ZCOPY_MIN bytes and more goes to TCP by
 * page (MSG_SPLICE_PAGES); such a request completes when TCP's peer
 * acknowledged its last byte, so TCP never retransmits a buffer the
 * consumer got back (Documentation/hw/siw.rst).  Off: TCP copies every
 * payload when it is handed over, and the request completes then.
 */
bool siw_zcopy_tx = true;
module_param_named(zcopy_tx, siw_zcopy_tx, bool, 0644);
MODULE_PARM_DESC(zcopy_tx,
		 "SEND/WRITE payload of a page or more goes to TCP by page, completing when TCP's peer acknowledged it (default: yes)");

/*
 * Upstream siw keeps its gso_seg_limit at 1 (try_gso, a constant, off).
 * Other than 1, connections set up from now on offer GSO in their MPA
 * frames (siw_mpa_policy.gso) and, where the peer offers it too, cut
 * messages into FPDUs of that many TCP segments (read when a message
 * starts).
 */
unsigned int siw_gso_seg_limit = 1;

static int siw_param_set_gso(const char *val, const struct kernel_param *kp)
{
	unsigned int v;
	int ret;

	ret = kstrtouint(val, 0, &v);
	if (ret)
		return ret;
	WRITE_ONCE(siw_gso_seg_limit, v);
	WRITE_ONCE(siw_mpa_policy.gso, v != 1);
	return 0;
}

static const struct kernel_param_ops siw_gso_ops = {
	.set = siw_param_set_gso,
	.get = param_get_uint,
};

module_param_cb(gso_seg_limit, &siw_gso_ops, &siw_gso_seg_limit, 0644);
MODULE_PARM_DESC(gso_seg_limit,
		 "TCP segments one FPDU may span where the peer agrees (MPA's GSO bit): 1 one segment, 0 as many as TCP sends at once, N at most N (default: 1, as upstream siw)");

/*
 * MPA choices upstream siw has as constants, here read-only parameters
 * with upstream's names and defaults; they fill siw_mpa_policy.
 */
static int siw_param_set_mpa_version(const char *val,
				     const struct kernel_param *kp)
{
	u8 v;
	int ret;

	ret = kstrtou8(val, 0, &v);
	if (ret)
		return ret;
	/* revision 0 has no request to send; above 2 is 2, as upstream */
	if (!v)
		return -EINVAL;
	*(u8 *)kp->arg = min_t(u8, v, MPA_REVISION_2);
	return 0;
}

static const struct kernel_param_ops siw_mpa_version_ops = {
	.set = siw_param_set_mpa_version,
	.get = param_get_byte,
};

module_param_cb(mpa_version, &siw_mpa_version_ops, &siw_mpa_policy.version,
		0444);
MODULE_PARM_DESC(mpa_version,
		 "MPA revision the initiator asks for: 1, or 2 with enhanced connection setup (default: 2)");
module_param_named(mpa_crc_required, siw_mpa_policy.crc_required, bool, 0444);
MODULE_PARM_DESC(mpa_crc_required,
		 "ask for MPA CRC and refuse a peer that does not use it (default: no)");
module_param_named(mpa_crc_strict, siw_mpa_policy.crc_strict, bool, 0444);
MODULE_PARM_DESC(mpa_crc_strict,
		 "without mpa_crc_required: refuse a peer that asks for MPA CRC (default: no)");
module_param_named(peer_to_peer, siw_mpa_policy.peer_to_peer, bool, 0444);
MODULE_PARM_DESC(peer_to_peer,
		 "initiate peer-to-peer setups: the initiator sends an RTR message, the responder waits for it (default: no)");

static int siw_newlink(const char *name, struct net_device *ndev)
{
	return siw_device_add(name, ndev);
}

static struct rdma_link_ops siw_link_ops = {
	.type = "siw",
	.newlink = siw_newlink,
};

/*
 * The net device under a siw device changed.  Runs under the RTNL lock:
 * nothing here may wait for a device's unregistration, which takes that
 * lock; ib_unregister_device_queued() hands it to a workqueue.
 */
static int siw_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct ib_device *ibdev;

	ibdev = ib_device_get_by_netdev(ndev, RDMA_DRIVER_SIW);
	if (!ibdev)
		return NOTIFY_DONE;
	switch (event) {
	case NETDEV_UP:
		siw_port_event(to_siw_dev(ibdev), IB_EVENT_PORT_ACTIVE);
		break;
	case NETDEV_DOWN:
		siw_port_event(to_siw_dev(ibdev), IB_EVENT_PORT_ERR);
		break;
	case NETDEV_CHANGEADDR:
		/* the GID stays the MAC of the device's birth, as upstream */
		siw_port_event(to_siw_dev(ibdev), IB_EVENT_LID_CHANGE);
		break;
	case NETDEV_UNREGISTER:
		ib_unregister_device_queued(ibdev);
		break;
	default:
		break;
	}
	ib_device_put(ibdev);
	return NOTIFY_OK;
}

static struct notifier_block siw_netdev_nb = {
	.notifier_call = siw_netdev_event,
};

/* the QPs' transmitters (siw_qp_tx.c) */
struct workqueue_struct *siw_tx_wq;

static int __init siw_init(void)
{
	int ret;

	/*
	 * High priority: a transmitter woken while the CPUs are busy (a
	 * consumer busy-polling its CQ) would often wait for the next tick.
	 */
	siw_tx_wq = alloc_workqueue("siw_tx",
				    WQ_UNBOUND | WQ_HIGHPRI | WQ_MEM_RECLAIM, 0);
	if (!siw_tx_wq)
		return -ENOMEM;
	ret = siw_cm_init();
	if (ret)
		goto err_wq;
	ret = register_netdevice_notifier(&siw_netdev_nb);
	if (ret)
		goto err_cm;
	rdma_link_register(&siw_link_ops);
	return 0;

err_cm:
	siw_cm_exit();
err_wq:
	destroy_workqueue(siw_tx_wq);
	return ret;
}

/*
 * No new device after rdma_link_unregister(); ib_unregister_driver()
 * then unregisters and frees every siw device, waiting for those whose
 * unregistration the notifier queued.
 */
static void __exit siw_exit(void)
{
	rdma_link_unregister(&siw_link_ops);
	unregister_netdevice_notifier(&siw_netdev_nb);
	ib_unregister_driver(RDMA_DRIVER_SIW);
	siw_cm_exit();
	destroy_workqueue(siw_tx_wq);
}

module_init(siw_init);
module_exit(siw_exit);

MODULE_DESCRIPTION("Soft-iWARP: iWARP over kernel TCP sockets, on rdmavt");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_ALIAS_RDMA_LINK("siw");
