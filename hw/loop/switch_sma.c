// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_loop's switch: its subnet management agent.
 *
 * Answers SubnGet()/SubnSet() addressed to the switch, in place, under
 * the switch's lock: NodeDescription, NodeInfo, SwitchInfo, PortInfo of
 * port 0 and of the external ports, P_KeyTable, SLtoVLMappingTable,
 * VLArbitrationTable, LinearForwardingTable and MulticastForwardingTable
 * (the attributes opensm reads and writes for a switch).  The M_Key is
 * stored and reported, not enforced.  Layouts: IBTA vol. 1 14.2.5.
 */

#include <linux/spinlock.h>
#include <rdma/ib_mad.h>

#include "loop.h"
#include "switch.h"

#define SW_UNSUP_METHOD	cpu_to_be16(IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD)
#define SW_UNSUP_ATTR	cpu_to_be16(IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB)
#define SW_INVALID	cpu_to_be16(IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE)

/* what the switch says of itself */
#define SW_VENDOR_ID	0x02fa4e
#define SW_DEVICE_ID	0x4c53	/* "LS" */
#define SW_WIDTHS	(IB_WIDTH_1X | IB_WIDTH_4X)
#define SW_SPEEDS	0x7	/* SDR, DDR, QDR */
#define SW_SPEED_ACTIVE	0x4	/* QDR */
/* the extended speeds FDR and EDR, as the loop devices' ports have */
#define SW_SPEED_EXT		0x3
#define SW_SPEED_EXT_EDR	0x2
#define SW_SPEED_EXT_NONE	0x1e	/* LinkSpeedExtEnabled: disabled */
/* PortInfo bytes 62 and 63 (after CapabilityMask2) */
#define SW_PI_EXT_ACTIVE_SUP	62
#define SW_PI_EXT_ENABLED	63
/* PortInfo's attribute modifier: SMSupportsExtendedSpeeds */
#define SW_PI_MOD_EXT_SPEEDS	BIT(31)
#define SW_RESP_TIME	18
#define SW_VLARB_CAP	32
#define SW_CAP_MASK	(IB_PORT_SL_MAP_SUP | IB_PORT_SYS_IMAGE_GUID_SUP | \
			 IB_PORT_EXTENDED_SPEEDS_SUP)
#define SW_NODE_DESC	"rdma_loop switch"

/* SwitchInfo (IBTA 14.2.5.4) */
struct loop_sw_info {
	__be16	lin_cap;
	__be16	rand_cap;
	__be16	mcast_cap;
	__be16	lin_top;
	u8	def_port;
	u8	def_mc_pri;
	u8	def_mc_not_pri;
	u8	life_state;
	__be16	lids_per_port;
	__be16	enforce_cap;
	u8	flags;
	u8	resv;
	__be16	mcast_top;
} __packed;

static void sw_status(struct ib_smp *smp, __be16 status)
{
	smp->status |= status;
}

/* NodeInfo of the switch, seen from port @in */
static void sw_nodeinfo(struct loop_switch *sw, u32 in, struct ib_smp *smp)
{
	struct ib_node_info *ni = (struct ib_node_info *)smp->data;

	ni->base_version = IB_MGMT_BASE_VERSION;
	ni->class_version = 1;
	ni->node_type = RDMA_NODE_IB_SWITCH;
	ni->num_ports = sw->nports;
	ni->sys_guid = sw->guid;
	ni->node_guid = sw->guid;
	/* a switch's ports share port 0's GUID */
	ni->port_guid = sw->guid;
	ni->partition_cap = cpu_to_be16(LOOP_SW_PKEYS);
	ni->device_id = cpu_to_be16(SW_DEVICE_ID);
	ni->revision = cpu_to_be32(1);
	ni->local_port_num = in;
	ni->vendor_id[0] = SW_VENDOR_ID >> 16;
	ni->vendor_id[1] = (SW_VENDOR_ID >> 8) & 0xff;
	ni->vendor_id[2] = SW_VENDOR_ID & 0xff;
}

static void sw_get_switchinfo(struct loop_switch *sw, struct ib_smp *smp)
{
	struct loop_sw_info *si = (struct loop_sw_info *)smp->data;

	si->lin_cap = cpu_to_be16(LOOP_SW_LFT_CAP);
	si->rand_cap = 0;
	si->mcast_cap = cpu_to_be16(LOOP_SW_MFT_CAP);
	si->lin_top = cpu_to_be16(sw->lft_top);
	si->def_port = sw->def_port;
	si->def_mc_pri = sw->def_mc_pri;
	si->def_mc_not_pri = sw->def_mc_not_pri;
	si->life_state = sw->life_state;
	si->lids_per_port = cpu_to_be16(sw->lids_per_port);
	si->enforce_cap = cpu_to_be16(LOOP_SW_PKEYS);
	si->flags = 0;
	si->mcast_top = cpu_to_be16(sw->mft_top);
}

static bool sw_set_switchinfo(struct loop_switch *sw, struct ib_smp *smp)
{
	struct loop_sw_info *si = (struct loop_sw_info *)smp->data;
	u16 top = be16_to_cpu(si->lin_top);
	u16 mtop = be16_to_cpu(si->mcast_top);

	if (top >= LOOP_SW_LFT_CAP ||
	    (mtop && (mtop < 0xc000 || mtop >= 0xc000 + LOOP_SW_MFT_CAP)))
		return false;
	sw->lft_top = top;
	sw->mft_top = mtop;
	sw->def_port = si->def_port;
	sw->def_mc_pri = si->def_mc_pri;
	sw->def_mc_not_pri = si->def_mc_not_pri;
	sw->lids_per_port = be16_to_cpu(si->lids_per_port);
	/* LifeTimeValue is written; PortStateChange is cleared by a 1 */
	sw->life_state = (si->life_state & ~(LOOP_SW_PSC | 0x3)) |
			 (sw->life_state & (LOOP_SW_PSC | 0x3));
	if (si->life_state & LOOP_SW_PSC)
		sw->life_state &= ~LOOP_SW_PSC;
	return true;
}

/*
 * LinkSpeedExtActive of a port: EDR or FDR, the fastest enabled, while
 * the link is up (a loop device's port is EDR: both ends of the cable
 * then agree), 0 with the extended speeds disabled.
 */
static u8 sw_speed_ext_active(struct loop_sw_port *sp, bool up)
{
	u8 s = sp->speed_ext_enabled;

	if (!up || s == SW_SPEED_EXT_NONE)
		return 0;
	s &= SW_SPEED_EXT;
	return s & SW_SPEED_EXT_EDR ?: s;
}

/* PortInfo of port @p of the switch, received on port @in */
static void sw_get_portinfo(struct loop_switch *sw, u32 in, u32 p,
			    struct ib_smp *smp)
{
	struct ib_port_info *pi = (struct ib_port_info *)smp->data;
	struct loop_sw_port *sp = &sw->ports[p];
	bool up = sp->phys_state == IB_PORT_PHYS_STATE_LINK_UP;

	if (!p) {
		/* the management port carries the switch's addressing */
		pi->mkey = sw->mkey;
		pi->gid_prefix = sw->gid_prefix;
		pi->lid = cpu_to_be16(sw->lid);
		pi->sm_lid = cpu_to_be16(sw->sm_lid);
		pi->cap_mask = cpu_to_be32(SW_CAP_MASK);
		pi->mkey_lease_period = cpu_to_be16(sw->mkey_lease);
		pi->mkeyprot_resv_lmc = sw->mkeyprot << 6 | sw->lmc;
		pi->neighbormtu_mastersmsl = sw->sm_sl;
		pi->clientrereg_resv_subnetto = sw->subnet_timeout;
		pi->guid_cap = 1;
	}
	pi->local_port_num = in;
	pi->link_width_enabled = sp->width_enabled;
	pi->link_width_supported = SW_WIDTHS;
	pi->link_width_active = up ? IB_WIDTH_4X : 0;
	pi->linkspeed_portstate = SW_SPEEDS << 4 | sp->port_state;
	pi->portphysstate_linkdown = sp->phys_state << 4 |
				     sp->link_down_default;
	pi->linkspeedactive_enabled = (up ? SW_SPEED_ACTIVE << 4 : 0) |
				      sp->speed_enabled;
	pi->neighbormtu_mastersmsl |= sp->neighbor_mtu << 4;
	/* VLCap: VL0 only */
	pi->vlcap_inittype = 1 << 4;
	pi->vl_high_limit = sp->vl_high_limit;
	pi->vl_arb_high_cap = SW_VLARB_CAP;
	pi->vl_arb_low_cap = SW_VLARB_CAP;
	pi->inittypereply_mtucap = IB_MTU_4096;
	pi->vlstallcnt_hoqlife = sp->hoq_life;
	pi->operationalvl_pei_peo_fpi_fpo = sp->op_vls << 4 | sp->enforce;
	pi->resv_resptimevalue = SW_RESP_TIME;
	smp->data[SW_PI_EXT_ACTIVE_SUP] = sw_speed_ext_active(sp, up) << 4 |
					  SW_SPEED_EXT;
	smp->data[SW_PI_EXT_ENABLED] = sp->speed_ext_enabled;
}

/* May port @p go from its state to @state (0: no change)? */
static bool sw_state_ok(struct loop_sw_port *sp, u32 p, u8 state)
{
	bool cabled = p == 0 || rcu_access_pointer(sp->peer);

	switch (state) {
	case IB_PORT_NOP:
	case IB_PORT_DOWN:
		return true;
	case IB_PORT_ARMED:
		return cabled && (sp->port_state == IB_PORT_INIT ||
				  sp->port_state == IB_PORT_ARMED);
	case IB_PORT_ACTIVE:
		return cabled && (sp->port_state == IB_PORT_ARMED ||
				  sp->port_state == IB_PORT_ACTIVE);
	default:
		return false;
	}
}

static bool sw_set_portinfo(struct loop_switch *sw, u32 p, struct ib_smp *smp)
{
	struct ib_port_info *pi = (struct ib_port_info *)smp->data;
	struct loop_sw_port *sp = &sw->ports[p];
	u8 state = pi->linkspeed_portstate & 0xf;
	u8 phys = pi->portphysstate_linkdown >> 4;
	u8 mtu = pi->neighbormtu_mastersmsl >> 4;
	u8 vls = pi->operationalvl_pei_peo_fpi_fpo >> 4;
	u16 lid = be16_to_cpu(pi->lid);
	bool cabled = p == 0 || rcu_access_pointer(sp->peer);
	u8 old = sp->port_state;
	u8 lsee;

	/* checked whole first: a refused Set changes nothing */
	if (!sw_state_ok(sp, p, state) ||
	    phys > IB_PORT_PHYS_STATE_DISABLED ||
	    (phys && state >= IB_PORT_ARMED) ||
	    (mtu && (mtu < IB_MTU_256 || mtu > IB_MTU_4096)) || vls > 1 ||
	    (p == 0 && (lid >= 0xc000 ||
			be16_to_cpu(pi->sm_lid) >= 0xc000)))
		return false;

	if (p == 0) {
		sw->mkey = pi->mkey;
		sw->gid_prefix = pi->gid_prefix;
		WRITE_ONCE(sw->lid, lid);
		WRITE_ONCE(sw->lmc, pi->mkeyprot_resv_lmc & 0x7);
		sw->sm_lid = be16_to_cpu(pi->sm_lid);
		sw->sm_sl = pi->neighbormtu_mastersmsl & 0xf;
		sw->mkeyprot = pi->mkeyprot_resv_lmc >> 6;
		sw->mkey_lease = be16_to_cpu(pi->mkey_lease_period);
		sw->subnet_timeout = pi->clientrereg_resv_subnetto & 0x1f;
	}
	if (pi->link_width_enabled)
		sp->width_enabled = pi->link_width_enabled == 0xff ?
				    SW_WIDTHS :
				    pi->link_width_enabled & SW_WIDTHS;
	if (pi->linkspeedactive_enabled & 0xf)
		sp->speed_enabled = (pi->linkspeedactive_enabled & 0xf) ==
				    0xf ? SW_SPEEDS :
				    pi->linkspeedactive_enabled & SW_SPEEDS;
	/* LinkSpeedExtEnabled: 0 keeps, 0x1f means all, 0x1e none */
	lsee = smp->data[SW_PI_EXT_ENABLED] & 0x1f;
	if (lsee == 0x1f)
		sp->speed_ext_enabled = SW_SPEED_EXT;
	else if (lsee == SW_SPEED_EXT_NONE)
		sp->speed_ext_enabled = lsee;
	else if (lsee & SW_SPEED_EXT)
		sp->speed_ext_enabled = lsee & SW_SPEED_EXT;
	if (pi->portphysstate_linkdown & 0xf)
		sp->link_down_default = pi->portphysstate_linkdown & 0xf;
	if (mtu)
		sp->neighbor_mtu = mtu;
	if (vls)
		sp->op_vls = vls;
	sp->vl_high_limit = pi->vl_high_limit;
	sp->hoq_life = pi->vlstallcnt_hoqlife;
	sp->enforce = pi->operationalvl_pei_peo_fpi_fpo & 0xf;

	if (state == IB_PORT_ARMED || state == IB_PORT_ACTIVE) {
		WRITE_ONCE(sp->port_state, state);
	} else if (p && phys == IB_PORT_PHYS_STATE_DISABLED) {
		WRITE_ONCE(sp->port_state, IB_PORT_DOWN);
		sp->phys_state = IB_PORT_PHYS_STATE_DISABLED;
	} else if (p && (state == IB_PORT_DOWN ||
			 (phys == IB_PORT_PHYS_STATE_POLLING &&
			  sp->phys_state == IB_PORT_PHYS_STATE_DISABLED))) {
		/* the link retrains at once: INIT again while cabled */
		WRITE_ONCE(sp->port_state, cabled ? IB_PORT_INIT :
						    IB_PORT_DOWN);
		sp->phys_state = cabled ? IB_PORT_PHYS_STATE_LINK_UP :
					  IB_PORT_PHYS_STATE_POLLING;
	}
	if (p && old != sp->port_state &&
	    (old == IB_PORT_DOWN || sp->port_state <= IB_PORT_INIT))
		sw->life_state |= LOOP_SW_PSC;
	return true;
}

/* The P_Key table block of @smp: port in bits 16..31, block 0 only */
static __be16 sw_pkeys(struct loop_switch *sw, struct ib_smp *smp, bool set)
{
	u32 mod = be32_to_cpu(smp->attr_mod);
	u32 p = mod >> 16;
	__be16 *d = (__be16 *)smp->data;
	int i;

	if (p > sw->nports || (mod & 0xffff))
		return SW_INVALID;
	for (i = 0; i < LOOP_SW_PKEYS; i++) {
		if (set)
			sw->ports[p].pkeys[i] = be16_to_cpu(d[i]);
		d[i] = cpu_to_be16(sw->ports[p].pkeys[i]);
	}
	return 0;
}

/* SLtoVL: input port in bits 8..15, output port in bits 0..7 */
static __be16 sw_sl_to_vl(struct loop_switch *sw, struct ib_smp *smp,
			  bool set)
{
	u32 mod = be32_to_cpu(smp->attr_mod) & 0xffff;

	if ((mod >> 8) > sw->nports || (mod & 0xff) > sw->nports)
		return SW_INVALID;
	if (set)
		memcpy(sw->sl_to_vl, smp->data, sizeof(sw->sl_to_vl));
	memset(smp->data, 0, sizeof(smp->data));
	memcpy(smp->data, sw->sl_to_vl, sizeof(sw->sl_to_vl));
	return 0;
}

/* VLArbitration: block 1 (low 0..31) or 3 (high 0..31), port bits 0..15 */
static __be16 sw_vl_arb(struct loop_switch *sw, struct ib_smp *smp, bool set)
{
	u32 mod = be32_to_cpu(smp->attr_mod);
	u32 block = mod >> 16;
	int t;

	if ((mod & 0xffff) > sw->nports || (block != 1 && block != 3))
		return SW_INVALID;
	t = block == 3;
	if (set)
		memcpy(sw->vl_arb[t], smp->data, sizeof(sw->vl_arb[t]));
	memcpy(smp->data, sw->vl_arb[t], sizeof(sw->vl_arb[t]));
	return 0;
}

/* LinearForwardingTable: 64 LIDs per block, block in the modifier */
static __be16 sw_lft(struct loop_switch *sw, struct ib_smp *smp, bool set)
{
	u32 block = be32_to_cpu(smp->attr_mod);
	u8 *e;

	if (block >= LOOP_SW_LFT_CAP / LOOP_SW_LFT_BLOCK)
		return SW_INVALID;
	e = sw->lft + block * LOOP_SW_LFT_BLOCK;
	if (set) {
		memcpy(e, smp->data, LOOP_SW_LFT_BLOCK);
		WRITE_ONCE(sw->lft_on, true);
	}
	memcpy(smp->data, e, LOOP_SW_LFT_BLOCK);
	return 0;
}

/* MulticastForwardingTable: position in bits 28..31, block in 0..8 */
static __be16 sw_mft(struct loop_switch *sw, struct ib_smp *smp, bool set)
{
	u32 mod = be32_to_cpu(smp->attr_mod);
	u32 pos = mod >> 28, block = mod & 0x1ff;
	__be16 *d = (__be16 *)smp->data;
	u16 *e;
	int i;

	if (pos >= LOOP_SW_MFT_POSITIONS || pos > sw->nports / 16 ||
	    block >= LOOP_SW_MFT_CAP / LOOP_SW_MFT_BLOCK)
		return SW_INVALID;
	e = sw->mft[pos] + block * LOOP_SW_MFT_BLOCK;
	for (i = 0; i < LOOP_SW_MFT_BLOCK; i++) {
		if (set)
			e[i] = be16_to_cpu(d[i]);
		d[i] = cpu_to_be16(e[i]);
	}
	return 0;
}

/* One Get or Set, under the switch's lock; the status to answer with. */
static __be16 sw_attr(struct loop_switch *sw, u32 in, struct ib_smp *smp,
		      bool set)
{
	u32 mod = be32_to_cpu(smp->attr_mod);

	switch (smp->attr_id) {
	case IB_SMP_ATTR_NODE_DESC:
		if (set || mod)
			return set ? SW_UNSUP_ATTR : SW_INVALID;
		memset(smp->data, 0, sizeof(smp->data));
		strscpy(smp->data, SW_NODE_DESC, sizeof(smp->data));
		return 0;
	case IB_SMP_ATTR_NODE_INFO:
		if (set || mod)
			return set ? SW_UNSUP_ATTR : SW_INVALID;
		memset(smp->data, 0, sizeof(smp->data));
		sw_nodeinfo(sw, in, smp);
		return 0;
	case IB_SMP_ATTR_SWITCH_INFO:
		if (mod || (set && !sw_set_switchinfo(sw, smp)))
			return SW_INVALID;
		memset(smp->data, 0, sizeof(smp->data));
		sw_get_switchinfo(sw, smp);
		return 0;
	case IB_SMP_ATTR_PORT_INFO:
		/* bit 31: the SM supports the extended speeds (opensm's Sets) */
		mod &= ~SW_PI_MOD_EXT_SPEEDS;
		if (mod > sw->nports)
			return SW_INVALID;
		if (set && !sw_set_portinfo(sw, mod, smp)) {
			memset(smp->data, 0, sizeof(smp->data));
			sw_get_portinfo(sw, in, mod, smp);
			return SW_INVALID;
		}
		memset(smp->data, 0, sizeof(smp->data));
		sw_get_portinfo(sw, in, mod, smp);
		return 0;
	case IB_SMP_ATTR_PKEY_TABLE:
		return sw_pkeys(sw, smp, set);
	case IB_SMP_ATTR_SL_TO_VL_TABLE:
		return sw_sl_to_vl(sw, smp, set);
	case IB_SMP_ATTR_VL_ARB_TABLE:
		return sw_vl_arb(sw, smp, set);
	case IB_SMP_ATTR_LINEAR_FORWARD_TABLE:
		return sw_lft(sw, smp, set);
	case IB_SMP_ATTR_MCAST_FORWARD_TABLE:
		return sw_mft(sw, smp, set);
	default:
		return SW_UNSUP_ATTR;
	}
}

/**
 * loop_switch_sma - the switch's SMA answers an SMP addressed to it
 * @sw: the switch
 * @in: the port the SMP came in on (NodeInfo's and PortInfo's
 *	LocalPortNum)
 * @smp: the SMP; becomes the answer (GetResp, the status, and for a
 *	directed-route SMP the direction bit)
 *
 * Context: The engine, bottom halves off; takes the switch's lock.
 * Return: true when @smp holds an answer to send back, false when it is
 * not a request (responses, traps) and is dropped.
 */
bool loop_switch_sma(struct loop_switch *sw, u32 in, struct ib_smp *smp)
{
	unsigned long flags;
	__be16 status;

	if (smp->method != IB_MGMT_METHOD_GET &&
	    smp->method != IB_MGMT_METHOD_SET) {
		if (smp->method & IB_MGMT_METHOD_RESP ||
		    smp->method == IB_MGMT_METHOD_TRAP ||
		    smp->method == IB_MGMT_METHOD_TRAP_REPRESS)
			return false;
		status = SW_UNSUP_METHOD;
	} else if (smp->class_version != 1) {
		status = cpu_to_be16(IB_MGMT_MAD_STATUS_BAD_VERSION);
	} else {
		spin_lock_irqsave(&sw->lock, flags);
		status = sw_attr(sw, in, smp,
				 smp->method == IB_MGMT_METHOD_SET);
		spin_unlock_irqrestore(&sw->lock, flags);
	}
	sw_status(smp, status);
	smp->method = IB_MGMT_METHOD_GET_RESP;
	if (smp->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		smp->status |= IB_SMP_DIRECTION;
	return true;
}
