// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Multicast: UD QPs attached to groups named by a multicast GID, the net
 * device's multicast filter, and the delivery of a datagram sent to a
 * group.
 *
 * The groups are rdmavt's (hw/sw/rdmavt/mcast.c): the port's tree by
 * MGID, each group an RCU list of attached QPs that holds them.  RoCE
 * has no multicast LID, so rxe attaches every QP with LID 0 whatever
 * the caller gave, and finds a group by its MGID alone.
 *
 * The group's Ethernet address (an IPv4-mapped MGID: 01:00:5e and the
 * low 23 bits of the address; any other: 33:33 and its last four bytes)
 * goes into the net device's filter with dev_mc_add() when the group is
 * made on the device and out with dev_mc_del() when its last QP leaves:
 * one reference of the filter per group.  rxe_mcast_lock orders the
 * group's making and freeing with those calls.
 *
 * Send: nothing of rxe's own; the core resolved the group's MAC into
 * the address vector (ib_resolve_eth_dmac()), the destination address is
 * the MGID (RoCE v2: the IPv4 or IPv6 group address), the BTH's
 * destination QP IB_MULTICAST_QPN.  Receive: a packet whose destination
 * QP is IB_MULTICAST_QPN goes to every QP attached to the group of its
 * destination address on the device it came to.  Over RoCE v2 the IP
 * stack lets a multicast datagram through to rxe's UDP socket only when
 * the host joined the IP group (rdma_cm joins it: IGMP or MLD).
 */
#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/mutex.h>
#include <net/addrconf.h>
#include <net/if_inet6.h>
#include <net/ip.h>
#include <rdma/ib_addr.h>

#include "rxe.h"

/*
 * Orders the attach and detach of every device with the filter calls
 * that follow them; process context.  Neither is frequent.
 */
static DEFINE_MUTEX(rxe_mcast_lock);

/**
 * rxe_mcast_mac - the Ethernet multicast address of a group
 * @mgid: the group's multicast GID
 * @mac: where the address goes
 *
 * Context: any context.
 */
void rxe_mcast_mac(const union ib_gid *mgid, u8 *mac)
{
	const struct in6_addr *a = (const struct in6_addr *)mgid->raw;

	if (ipv6_addr_v4mapped(a))
		ip_eth_mc_map(a->s6_addr32[3], mac);
	else
		ipv6_eth_mc_map(a, mac);
}

/* Has the port a group of @mgid?  Under rxe_mcast_lock. */
static bool rxe_mcast_has(struct rxe_dev *rxe, union ib_gid *mgid)
{
	struct rvt_mcast *mcast = rvt_mcast_find(&rxe->port, mgid, 0);

	if (!mcast)
		return false;
	rvt_mcast_put(mcast);
	return true;
}

/**
 * rxe_attach_mcast - attach a UD QP to a group (ops.attach_mcast)
 * @ibqp: the QP
 * @mgid: the group's multicast GID
 * @mlid: the caller's multicast LID, not used (RoCE)
 *
 * The first QP of a group on the device adds the group's MAC to the net
 * device's multicast filter.
 *
 * Context: process context; takes rxe_mcast_lock, sleeps.
 * Return: 0, an error of rvt_attach_mcast() (-EINVAL: a QP in RESET;
 * -ENOMEM: past a limit of the device), or of dev_mc_add().
 */
int rxe_attach_mcast(struct ib_qp *ibqp, union ib_gid *mgid, u16 mlid)
{
	struct rxe_dev *rxe = to_rxe_dev(ibqp->device);
	u8 mac[ETH_ALEN];
	bool had;
	int ret;

	rxe_mcast_mac(mgid, mac);
	mutex_lock(&rxe_mcast_lock);
	had = rxe_mcast_has(rxe, mgid);
	ret = rvt_attach_mcast(ibqp, mgid, 0);
	if (!ret && !had) {
		ret = dev_mc_add(rxe->ndev, mac);
		if (ret)
			rvt_detach_mcast(ibqp, mgid, 0);
	}
	mutex_unlock(&rxe_mcast_lock);
	if (!ret)
		ibdev_dbg(&rxe->rdi.ibdev, "QP %u joins %pI6 (%pM)\n",
			  ibqp->qp_num, mgid->raw, mac);
	return ret;
}

/**
 * rxe_detach_mcast - detach a UD QP from a group (ops.detach_mcast)
 * @ibqp: the QP
 * @mgid: the group's multicast GID
 * @mlid: not used
 *
 * The last QP of a group on the device takes the group's MAC out of the
 * net device's multicast filter.  When it returns, no datagram is
 * delivered to the QP through the group any more.
 *
 * Context: process context; takes rxe_mcast_lock, sleeps.
 * Return: 0, or -EINVAL when the QP is not attached to the group.
 */
int rxe_detach_mcast(struct ib_qp *ibqp, union ib_gid *mgid, u16 mlid)
{
	struct rxe_dev *rxe = to_rxe_dev(ibqp->device);
	u8 mac[ETH_ALEN];
	int ret;

	rxe_mcast_mac(mgid, mac);
	mutex_lock(&rxe_mcast_lock);
	ret = rvt_detach_mcast(ibqp, mgid, 0);
	if (!ret && !rxe_mcast_has(rxe, mgid))
		dev_mc_del(rxe->ndev, mac);
	mutex_unlock(&rxe_mcast_lock);
	if (!ret)
		ibdev_dbg(&rxe->rdi.ibdev, "QP %u leaves %pI6\n",
			  ibqp->qp_num, mgid->raw);
	return ret;
}

/**
 * rxe_mcast_recv - a packet whose destination QP is IB_MULTICAST_QPN
 * @pkt: the packet, parsed, its ICRC and P_Key checked
 *
 * Each QP attached to the group of the packet's destination address gets
 * a copy (rxe_ud_recv(): its Q_Key, its receive WQE); a datagram that is
 * not UD or names no group of the device is dropped (RXE_DROP_QP).
 *
 * Context: softirq context.
 */
void rxe_mcast_recv(struct rxe_pkt *pkt)
{
	struct rxe_dev *rxe = pkt->rxe;
	struct rvt_mcast_qp *mqp;
	struct rvt_mcast *mcast;
	union ib_gid mgid;

	switch (pkt->nh) {
	case RXE_NH_IPV4:
		ipv6_addr_set_v4mapped(((struct iphdr *)pkt->nhdr)->daddr,
				       (struct in6_addr *)mgid.raw);
		break;
	case RXE_NH_IPV6:
		memcpy(mgid.raw, &((struct ipv6hdr *)pkt->nhdr)->daddr,
		       sizeof(mgid.raw));
		break;
	default:
		memcpy(mgid.raw, ((struct rxe_grh *)pkt->nhdr)->dgid,
		       sizeof(mgid.raw));
		break;
	}
	rvt_hw_count_port(&rxe->port, RVT_CNT_RCVD_PKTS, 1);
	if (pkt->opcode != IB_OPCODE_UD_SEND_ONLY &&
	    pkt->opcode != IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE) {
		rxe_drop(rxe, RXE_DROP_QP);
		return;
	}
	mcast = rvt_mcast_find(&rxe->port, &mgid, 0);
	if (!mcast) {
		rxe_drop(rxe, RXE_DROP_QP);
		return;
	}
	/* the attachments hold their QPs; a detach waits for RCU readers */
	rcu_read_lock();
	list_for_each_entry_rcu(mqp, &mcast->qp_list, list)
		rxe_ud_recv(pkt, mqp->qp);
	rcu_read_unlock();
	rvt_mcast_put(mcast);
}
