// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_loop's switch: cables and forwarding.
 *
 * Each loop device's port 1 is cabled to the first free external port
 * of the switch when the device is created and uncabled when it goes.
 * Management packets reach the switch through the devices' route_mad
 * hook: a directed-route SMP walks its path by IBTA 14.2.2's switch
 * rules (ib_core's smi_* helpers) and is answered by the switch's SMA
 * (switch_sma.c) or forwarded to the QP0 of the device on the port its
 * path names; LID-routed SMPs and performance management GMPs to the
 * switch's own LID are answered by its SMA and PMA (switch_pma.c).  Unicast by LID goes through the
 * LinearForwardingTable once a subnet manager wrote it; before that the
 * fabric delivers to whichever device has the LID, as without a switch.
 */

#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <rdma/ib_mad.h>

#include "loop.h"
#include "switch.h"

/* Port @p's link: up while a cable is in (INIT), down otherwise. */
static void loop_sw_link(struct loop_switch *sw, u32 p, bool up)
{
	struct loop_sw_port *sp = &sw->ports[p];
	u8 old = sp->port_state;

	sp->port_state = up ? IB_PORT_INIT : IB_PORT_DOWN;
	sp->phys_state = up ? IB_PORT_PHYS_STATE_LINK_UP :
			      IB_PORT_PHYS_STATE_POLLING;
	/* Down to Init and back are what PortStateChange reports */
	if (old != sp->port_state)
		sw->life_state |= LOOP_SW_PSC;
}

/*
 * Everything a subnet manager may set, as at power-on: empty forwarding
 * tables not in use, port 0 without a LID, each external port INIT
 * while cabled and DOWN otherwise.  The cables stay.  Under the lock,
 * or before the switch is in use.
 */
static void loop_sw_defaults(struct loop_switch *sw)
{
	u8 *lft = sw->lft;
	unsigned int i;

	WRITE_ONCE(sw->lft_on, false);
	memset(lft, LOOP_SW_NO_PORT, LOOP_SW_LFT_CAP);
	memset(sw->mft, 0, sizeof(sw->mft));
	/* LifeTimeValue 18, as opensm sets it */
	sw->life_state = 18 << LOOP_SW_LIFE_SHIFT;
	sw->lft_top = 0;
	sw->mft_top = 0;
	sw->lids_per_port = 0;
	sw->def_port = 0;
	sw->def_mc_pri = LOOP_SW_NO_PORT;
	sw->def_mc_not_pri = LOOP_SW_NO_PORT;
	WRITE_ONCE(sw->lid, 0);
	WRITE_ONCE(sw->lmc, 0);
	sw->sm_lid = 0;
	sw->sm_sl = 0;
	sw->subnet_timeout = 0;
	sw->mkey = 0;
	sw->mkeyprot = 0;
	sw->mkey_lease = 0;
	sw->gid_prefix = cpu_to_be64(0xfe80000000000000ULL);
	memset(sw->sl_to_vl, 0, sizeof(sw->sl_to_vl));
	memset(sw->vl_arb, 0, sizeof(sw->vl_arb));
	for (i = 0; i <= sw->nports; i++) {
		struct loop_sw_port *sp = &sw->ports[i];
		bool up = !i || rcu_access_pointer(sp->peer);

		WRITE_ONCE(sp->port_state, up ? IB_PORT_INIT : IB_PORT_DOWN);
		sp->phys_state = up ? IB_PORT_PHYS_STATE_LINK_UP :
				      IB_PORT_PHYS_STATE_POLLING;
		/* LinkDownDefaultState: Polling */
		sp->link_down_default = 2;
		sp->neighbor_mtu = IB_MTU_4096;
		sp->op_vls = 1;
		sp->vl_high_limit = 0;
		sp->width_enabled = IB_WIDTH_1X | IB_WIDTH_4X;
		sp->speed_enabled = 0x7;
		/* FDR and EDR, as a loop device's port */
		sp->speed_ext_enabled = 0x3;
		sp->hoq_life = 0;
		sp->enforce = 0;
		memset(sp->pkeys, 0, sizeof(sp->pkeys));
		sp->pkeys[0] = 0xffff;
	}
}

/**
 * loop_switch_create - make the fabric's switch
 * @nports: its external ports, 1..LOOP_SW_MAX_PORTS
 *
 * Every external port starts DOWN (no cable); port 0 is in INIT without
 * a LID, the LinearForwardingTable empty and not in use.
 *
 * Context: Process context; sleeps (allocations).
 * Return: the switch, or NULL without memory.
 */
struct loop_switch *loop_switch_create(unsigned int nports)
{
	struct loop_switch *sw;

	sw = kzalloc(sizeof(*sw), GFP_KERNEL);
	if (!sw)
		return NULL;
	sw->lft = kvmalloc(LOOP_SW_LFT_CAP, GFP_KERNEL);
	if (!sw->lft) {
		kfree(sw);
		return NULL;
	}
	spin_lock_init(&sw->lock);
	sw->nports = nports;
	sw->guid = cpu_to_be64(0x02fa4e0200000001ULL);
	loop_sw_defaults(sw);
	return sw;
}

/**
 * loop_switch_reset - forget everything a subnet manager set
 * @sw: the switch
 *
 * The switch is as at module load (see loop_sw_defaults()), its cables
 * left in.
 *
 * Context: Process context, under loop_mutex; takes the switch's lock.
 */
void loop_switch_reset(struct loop_switch *sw)
{
	unsigned long flags;

	spin_lock_irqsave(&sw->lock, flags);
	loop_sw_defaults(sw);
	spin_unlock_irqrestore(&sw->lock, flags);
}

/**
 * loop_switch_destroy - free the switch
 * @sw: the switch, with no cable in (every loop device gone)
 *
 * Context: Process context.
 */
void loop_switch_destroy(struct loop_switch *sw)
{
	if (!sw)
		return;
	kvfree(sw->lft);
	kfree(sw);
}

/**
 * loop_switch_cable - cable a new loop device to the first free port
 * @sw: the switch
 * @ldev: the device, not registered yet
 *
 * A device finding no free port stays uncabled (ldev->sw_port 0): it
 * reaches nobody once the LinearForwardingTable is in use, and no
 * directed route leads to it.
 *
 * Context: Process context, under loop_mutex; takes the switch's lock.
 */
void loop_switch_cable(struct loop_switch *sw, struct loop_dev *ldev)
{
	unsigned long flags;
	u32 p;

	for (p = 1; p <= sw->nports; p++)
		if (!rcu_access_pointer(sw->ports[p].peer))
			break;
	if (p > sw->nports)
		return;
	ldev->sw_port = p;
	spin_lock_irqsave(&sw->lock, flags);
	/* a new cable: its device has counted nothing yet */
	memset(sw->ports[p].pma_zero, 0, sizeof(sw->ports[p].pma_zero));
	rcu_assign_pointer(sw->ports[p].peer, ldev);
	loop_sw_link(sw, p, true);
	spin_unlock_irqrestore(&sw->lock, flags);
}

/**
 * loop_switch_uncable - pull a leaving device's cable
 * @sw: the switch
 * @ldev: the device
 *
 * Its switch port goes DOWN (PortStateChange set).  The caller waits for
 * an RCU grace period before the device is freed.
 *
 * Context: Process context, under loop_mutex; takes the switch's lock.
 */
void loop_switch_uncable(struct loop_switch *sw, struct loop_dev *ldev)
{
	unsigned long flags;
	u32 p = ldev->sw_port;

	if (!p)
		return;
	spin_lock_irqsave(&sw->lock, flags);
	RCU_INIT_POINTER(sw->ports[p].peer, NULL);
	loop_sw_link(sw, p, false);
	spin_unlock_irqrestore(&sw->lock, flags);
	ldev->sw_port = 0;
}

/* The device on external port @p, or NULL (RCU read side). */
static struct loop_dev *loop_sw_peer(struct loop_switch *sw, u32 p)
{
	if (!p || p > sw->nports)
		return NULL;
	return rcu_dereference(sw->ports[p].peer);
}

/*
 * Hand @mad out of external port @p to QP @qpn (0: SMPs, which pass once
 * the link is up; 1: GMPs, which need the port ACTIVE) of the device
 * there, as sent from the switch's QP @qpn.
 */
static bool loop_sw_emit(struct loop_switch *sw, u32 p, void *mad, u32 slid,
			 u32 qpn)
{
	struct loop_dev *peer = loop_sw_peer(sw, p);
	u8 state;

	if (!peer)
		return false;
	state = READ_ONCE(sw->ports[p].port_state);
	if (state == IB_PORT_DOWN || (qpn && state != IB_PORT_ACTIVE))
		return false;
	return rvt_deliver_mad(&peer->rdi, 1, qpn, mad, sizeof(struct ib_mad),
			       slid, qpn);
}

/* Does @dlid name the switch itself (port 0's LID and its LMC range)? */
static bool loop_sw_is_me(struct loop_switch *sw, u32 dlid)
{
	u16 lid = READ_ONCE(sw->lid);

	return lid && dlid >= lid && dlid < lid + (1U << READ_ONCE(sw->lmc));
}

/* A directed-route SMP that came in on @in (IBTA 14.2.2, switch rules). */
static void loop_sw_dr(struct loop_switch *sw, u32 in, struct ib_smp *smp)
{
	int out;

	if (smi_handle_dr_smp_recv(smp, true, in, sw->nports) ==
	    IB_SMI_DISCARD)
		return;
	switch (smi_check_forward_dr_smp(smp)) {
	case IB_SMI_FORWARD:
		out = smi_get_fwd_port(smp);
		if (out <= 0 ||
		    smi_handle_dr_smp_send(smp, true, out) == IB_SMI_DISCARD)
			return;
		loop_sw_emit(sw, out, smp, be16_to_cpu(IB_LID_PERMISSIVE), 0);
		return;
	case IB_SMI_SEND:
		if (smi_handle_dr_smp_send(smp, true, in) == IB_SMI_DISCARD)
			return;
		break;
	case IB_SMI_LOCAL:
		break;
	}
	/*
	 * For the switch itself: an outbound SMP past the end of its
	 * directed part whose DrDLID is permissive.  (A LID-routed part
	 * after the directed one is not emulated.)
	 */
	if (ib_get_smp_direction(smp) || smp->hop_ptr != smp->hop_cnt + 1 ||
	    smp->dr_dlid != IB_LID_PERMISSIVE)
		return;
	if (!loop_switch_sma(sw, in, smp))
		return;
	/* turned round: back the way it came */
	if (smi_handle_dr_smp_send(smp, true, in) == IB_SMI_DISCARD)
		return;
	loop_sw_emit(sw, in, smp, be16_to_cpu(IB_LID_PERMISSIVE), 0);
}

/**
 * loop_switch_route_mad - a QP0 or QP1 packet from a loop device reaches
 *	the switch
 * @sw: the switch
 * @from: the sending device
 * @qpn: the sending QP: 0 (an SMP) or 1 (a GMP)
 * @dlid: the packet's destination LID
 * @mad: a copy of the MAD (changed on its way)
 *
 * Directed-route SMPs are taken whatever becomes of them.  A LID-routed
 * packet to the switch's own LID is taken too: an SMP is answered by the
 * switch's SMA, a performance management GMP (on an ACTIVE port) by its
 * PMA, each back to the sender's QP; any other is lost there, as at a
 * switch without that agent.  A packet to another LID is left to the
 * LID routing.
 *
 * Context: The engine: bottom halves off, rcu_read_lock() held; takes
 * the switch's lock (in the SMA and the PMA).
 * Return: true when the switch took the packet.
 */
bool loop_switch_route_mad(struct loop_switch *sw, struct loop_dev *from,
			   u32 qpn, u32 dlid, void *mad)
{
	struct ib_mad_hdr *hdr = mad;
	u32 in = from->sw_port;
	u16 lid;

	if (!qpn && hdr->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE &&
	    dlid == be16_to_cpu(IB_LID_PERMISSIVE)) {
		if (in && READ_ONCE(sw->ports[in].port_state) != IB_PORT_DOWN)
			loop_sw_dr(sw, in, mad);
		return true;
	}
	if (!in || !loop_sw_is_me(sw, dlid))
		return false;
	lid = READ_ONCE(sw->lid);
	if (!qpn) {
		if (hdr->mgmt_class == IB_MGMT_CLASS_SUBN_LID_ROUTED &&
		    loop_switch_sma(sw, in, mad))
			loop_sw_emit(sw, in, mad, lid, 0);
	} else if (hdr->mgmt_class == IB_MGMT_CLASS_PERF_MGMT &&
		   READ_ONCE(sw->ports[in].port_state) == IB_PORT_ACTIVE &&
		   loop_switch_pma(sw, mad)) {
		loop_sw_emit(sw, in, mad, lid, 1);
	}
	return true;
}

/**
 * loop_switch_route_lid - the device a unicast packet reaches by LID
 * @sw: the switch
 * @from: the sending device
 * @dlid: the destination LID
 * @handled: set to false when the switch does not route yet (no SM wrote
 *	its LinearForwardingTable): the caller delivers by LID directly
 *
 * The LinearForwardingTable entry of @dlid names the output port; no
 * entry, port 0, a port not ACTIVE, a sender without a cable or a device
 * there that does not have @dlid lose the packet.
 *
 * Context: The engine, rcu_read_lock() held; takes no lock.
 * Return: the device, or NULL.
 */
struct rvt_dev_info *loop_switch_route_lid(struct loop_switch *sw,
					   struct loop_dev *from, u32 dlid,
					   bool *handled)
{
	struct loop_dev *peer;
	u8 out;

	*handled = READ_ONCE(sw->lft_on);
	if (!*handled)
		return NULL;
	if (!from->sw_port || dlid >= LOOP_SW_LFT_CAP)
		return NULL;
	out = READ_ONCE(sw->lft[dlid]);
	if (out == LOOP_SW_NO_PORT || out > sw->nports ||
	    READ_ONCE(sw->ports[out].port_state) != IB_PORT_ACTIVE)
		return NULL;
	peer = loop_sw_peer(sw, out);
	if (!peer || !rvt_port_by_lid(&peer->rdi, dlid))
		return NULL;
	return &peer->rdi;
}
