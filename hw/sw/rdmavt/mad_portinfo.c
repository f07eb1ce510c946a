// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * PortInfo (IBTA vol. 1 14.2.5.6) of the SMA: every field a channel
 * adapter's port has, read from the port's management state, and the
 * Set that a subnet manager configures the port with.
 *
 * A Set is checked whole before anything changes; when one field is
 * invalid nothing is applied and the answer is the current PortInfo
 * with status 0x001c (invalid attribute value).  Checked:
 *
 *   LID, MasterSMLID   unicast (1..0xBFFF), LID + 2^LMC - 1 too
 *   PortState          NOP; DOWN; ARMED from INIT (or ARMED); ACTIVE
 *                      from ARMED (or ACTIVE); INIT and others refused
 *   PortPhysicalState  NOP, Sleep, Polling, Disabled, and only with
 *                      PortState NOP or DOWN
 *   LinkDownDefault    NOP, Sleep, Polling
 *   LinkWidthEnabled   NOP, 0xFF (all supported) or supported widths
 *   LinkSpeedEnabled   NOP, 0xF (all supported) or supported speeds
 *   LinkSpeedExtEnabled NOP, 0x1E (none), 0x1F (all) or supported ones
 *   NeighborMTU        256..4096
 *   OperationalVLs     NOP or 1..VLCap
 *
 * The rest is taken as it comes (M_Key, protection, lease, GID prefix,
 * SM SL, LMC, subnet timeout, VLHighLimit, InitType, thresholds); a
 * violation counter written as 0 is reset.  The link changes at once:
 * DOWN with physical state NOP or Polling takes the link down and up
 * again, so the port is in INIT when the answer is built; DOWN with
 * Sleep or Disabled keeps it down until a Set with Polling.
 *
 * Events: LID_CHANGE (LID or LMC), SM_CHANGE (SM LID or SL), GID_CHANGE
 * (GID prefix), PORT_ACTIVE and PORT_ERR (entering and leaving ACTIVE),
 * CLIENT_REREGISTER (the ClientReregister bit, echoed in the answer).
 */

#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>
#include <rdma/rdma_vt.h>

#include "vt.h"
#include "mad.h"

#define RVT_PHYS_NOP		0
#define RVT_PHYS_SLEEP		1
#define RVT_PHYS_POLLING	2
#define RVT_PHYS_DISABLED	3
#define RVT_CLIENT_REREG	0x80

static struct rvt_port_info_tail *rvt_pi_tail(struct ib_smp *smp)
{
	return (struct rvt_port_info_tail *)(smp->data + RVT_PORT_INFO_TAIL);
}

/*
 * The port a PortInfo names: attr_mod's port (bit 31, the SM's support
 * of the extended speeds, aside), 0 for the receiving one; 0 when it
 * names no port of the device or sets reserved bits.
 */
static u32 rvt_pi_port(struct ib_smp *smp, struct rvt_dev_info *rdi,
		       u32 port)
{
	u32 n = be32_to_cpu(smp->attr_mod) & ~RVT_PI_MOD_EXT_SPEEDS;

	if (n & ~RVT_PI_MOD_PORT)
		return 0;
	if (!n)
		return port;
	return n <= rdi->dparms.nports ? n : 0;
}

/*
 * Fill in the PortInfo of port @pnum into @smp, received on port @port;
 * under @ibp's mgmt_lock.  The M_Key stays hidden from a Get with
 * another key at protection level 1.
 */
static void rvt_pi_fill(struct ib_smp *smp, struct rvt_ibport *ibp,
			u32 port, int mad_flags)
{
	struct ib_port_info *pi = (struct ib_port_info *)smp->data;
	struct rvt_port_info_tail *tail = rvt_pi_tail(smp);
	bool hide;

	memset(smp->data, 0, sizeof(smp->data));
	hide = smp->method == IB_MGMT_METHOD_GET && ibp->mkeyprot == 1 &&
	       !(mad_flags & IB_MAD_IGNORE_MKEY) && smp->mkey != ibp->mkey;
	if (!hide)
		pi->mkey = ibp->mkey;
	pi->gid_prefix = ibp->gid_prefix;
	pi->lid = cpu_to_be16(ibp->lid);
	pi->sm_lid = cpu_to_be16(ibp->sm_lid);
	pi->cap_mask = cpu_to_be32(ibp->port_cap_flags);
	pi->mkey_lease_period = cpu_to_be16(ibp->mkey_lease_period);
	pi->local_port_num = port;
	pi->link_width_enabled = ibp->link_width_enabled;
	pi->link_width_supported = RVT_WIDTH_SUPPORTED;
	pi->link_width_active = rvt_active_width(ibp);
	pi->linkspeed_portstate = RVT_SPEED_SUPPORTED << 4 | ibp->port_state;
	pi->portphysstate_linkdown = ibp->phys_state << 4 |
				     ibp->link_down_default;
	pi->mkeyprot_resv_lmc = ibp->mkeyprot << 6 | ibp->lmc;
	pi->linkspeedactive_enabled = rvt_active_speed(ibp) << 4 |
				      ibp->link_speed_enabled;
	pi->neighbormtu_mastersmsl = ibp->neighbor_mtu << 4 | ibp->sm_sl;
	pi->vlcap_inittype = RVT_VL_CAP << 4 | ibp->init_type;
	pi->vl_high_limit = ibp->vl_high_limit;
	pi->vl_arb_high_cap = RVT_VLARB_ENTRIES;
	pi->vl_arb_low_cap = RVT_VLARB_ENTRIES;
	pi->inittypereply_mtucap = ibp->init_type_reply << 4 | IB_MTU_4096;
	/* VLStallCount and HOQLife are a switch's */
	pi->operationalvl_pei_peo_fpi_fpo = ibp->op_vls << 4;
	pi->mkey_violations = cpu_to_be16(ibp->mkey_violations);
	pi->pkey_violations = cpu_to_be16(ibp->pkey_violations);
	pi->qkey_violations = cpu_to_be16(ibp->qkey_violations);
	pi->guid_cap = RVT_GUIDS_PER_PORT;
	pi->clientrereg_resv_subnetto = ibp->subnet_timeout;
	pi->resv_resptimevalue = RVT_RESP_TIME;
	pi->localphyerrors_overrunerrors = ibp->err_thresholds;
	if (ibp->port_cap_flags & IB_PORT_EXTENDED_SPEEDS_SUP) {
		tail->link_speed_ext_active_supported =
			rvt_active_speed_ext(ibp) << 4 |
			RVT_SPEED_EXT_SUPPORTED;
		tail->link_speed_ext_enabled = ibp->link_speed_ext_enabled;
	}
}

/* Answer @smp with the PortInfo of port @pnum; the caller set its status. */
static int rvt_pi_answer(struct ib_smp *smp, struct rvt_dev_info *rdi,
			 u32 port, u32 pnum, int mad_flags)
{
	struct rvt_ibport *ibp = rvt_ibport(rdi, pnum);
	unsigned long flags;

	spin_lock_irqsave(&ibp->mgmt_lock, flags);
	rvt_pi_fill(smp, ibp, port, mad_flags);
	spin_unlock_irqrestore(&ibp->mgmt_lock, flags);
	return rvt_mad_reply((struct ib_mad_hdr *)smp);
}

/*
 * rvt_sma_get_portinfo - SubnGet(PortInfo) received on port @port: the
 * port attr_mod names (0: @port itself).
 */
int rvt_sma_get_portinfo(struct ib_smp *smp, struct rvt_dev_info *rdi,
			 u32 port, int mad_flags)
{
	u32 pnum = rvt_pi_port(smp, rdi, port);

	if (!pnum) {
		memset(smp->data, 0, sizeof(smp->data));
		smp->status |= RVT_MAD_INVALID_FIELD;
		return rvt_mad_reply((struct ib_mad_hdr *)smp);
	}
	return rvt_pi_answer(smp, rdi, port, pnum, mad_flags);
}

/* The new values of a Set, taken apart and checked before any is used. */
struct rvt_pi_set {
	u16	lid;
	u16	sm_lid;
	u8	lmc;
	u8	sm_sl;
	u8	state;
	u8	phys;
	u8	link_down_default;
	u8	lwe;
	u8	lse;
	u8	lsee;
	u8	mtu;
	u8	vls;
};

static bool rvt_unicast_lid(u32 lid)
{
	return lid && lid < be16_to_cpu(IB_MULTICAST_LID_BASE);
}

/*
 * An enable field: 0 (no change) and @all (everything supported) are
 * good, else a non-empty subset of @supported.  The value to keep is
 * left in *@v.
 */
static bool rvt_enable_ok(u8 *v, u8 cur, u8 all, u8 supported)
{
	if (!*v)
		*v = cur;
	else if (*v == all)
		*v = supported;
	else if (*v & ~supported)
		return false;
	return true;
}

/*
 * Is the PortState change to @s->state good from the port's state, and
 * are the physical state's with it?  Under the port's mgmt_lock.
 */
static bool rvt_pi_state_ok(struct rvt_ibport *ibp, struct rvt_pi_set *s)
{
	u8 cur = ibp->port_state;

	if (s->phys > RVT_PHYS_DISABLED ||
	    (s->phys && s->state != IB_PORT_NOP && s->state != IB_PORT_DOWN))
		return false;
	switch (s->state) {
	case IB_PORT_NOP:
	case IB_PORT_DOWN:
		return true;
	case IB_PORT_ARMED:
		return cur == IB_PORT_INIT || cur == IB_PORT_ARMED;
	case IB_PORT_ACTIVE:
		return cur == IB_PORT_ARMED || cur == IB_PORT_ACTIVE;
	default:
		/* INIT is reached only by the link coming up */
		return false;
	}
}

/* Take the Set apart and check it; under the port's mgmt_lock. */
static bool rvt_pi_parse(struct ib_smp *smp, struct rvt_ibport *ibp,
			 struct rvt_pi_set *s)
{
	struct ib_port_info *pi = (struct ib_port_info *)smp->data;
	struct rvt_port_info_tail *tail = rvt_pi_tail(smp);
	bool ok = true;

	s->lid = be16_to_cpu(pi->lid);
	s->sm_lid = be16_to_cpu(pi->sm_lid);
	s->lmc = pi->mkeyprot_resv_lmc & 0x7;
	s->sm_sl = pi->neighbormtu_mastersmsl & 0xf;
	s->state = pi->linkspeed_portstate & 0xf;
	s->phys = pi->portphysstate_linkdown >> 4;
	s->link_down_default = pi->portphysstate_linkdown & 0xf;
	s->lwe = pi->link_width_enabled;
	s->lse = pi->linkspeedactive_enabled & 0xf;
	s->lsee = tail->link_speed_ext_enabled & 0x1f;
	s->mtu = pi->neighbormtu_mastersmsl >> 4;
	s->vls = pi->operationalvl_pei_peo_fpi_fpo >> 4;

	ok &= rvt_unicast_lid(s->lid) &&
	      rvt_unicast_lid(s->lid + BIT(s->lmc) - 1);
	ok &= rvt_unicast_lid(s->sm_lid);
	ok &= rvt_pi_state_ok(ibp, s);
	ok &= s->link_down_default <= RVT_PHYS_POLLING;
	ok &= rvt_enable_ok(&s->lwe, ibp->link_width_enabled, 0xff,
			    RVT_WIDTH_SUPPORTED);
	ok &= rvt_enable_ok(&s->lse, ibp->link_speed_enabled, 0xf,
			    RVT_SPEED_SUPPORTED);
	if (!(ibp->port_cap_flags & IB_PORT_EXTENDED_SPEEDS_SUP))
		s->lsee = 0;
	if (s->lsee != RVT_SPEED_EXT_DISABLE)
		ok &= rvt_enable_ok(&s->lsee, ibp->link_speed_ext_enabled,
				    0x1f, RVT_SPEED_EXT_SUPPORTED);
	ok &= s->mtu >= IB_MTU_256 && s->mtu <= IB_MTU_4096;
	ok &= s->vls <= RVT_VL_CAP;
	return ok;
}

/*
 * The link of @ibp after a Set with PortState @s->state and
 * PortPhysicalState @s->phys; under its mgmt_lock.  Returns the events.
 */
static u32 rvt_pi_link(struct rvt_ibport *ibp, struct rvt_pi_set *s)
{
	if (s->phys == RVT_PHYS_SLEEP)
		return rvt_port_set_state(ibp, IB_PORT_DOWN,
					  IB_PORT_PHYS_STATE_SLEEP);
	if (s->phys == RVT_PHYS_DISABLED)
		return rvt_port_set_state(ibp, IB_PORT_DOWN,
					  IB_PORT_PHYS_STATE_DISABLED);
	/* down, or Polling: the link trains again and is up at once */
	if (s->state == IB_PORT_DOWN || s->phys == RVT_PHYS_POLLING)
		return rvt_port_set_state(ibp, IB_PORT_INIT,
					  IB_PORT_PHYS_STATE_LINK_UP);
	if (s->state == IB_PORT_ARMED || s->state == IB_PORT_ACTIVE)
		return rvt_port_set_state(ibp, s->state, ibp->phys_state);
	return 0;
}

/* Apply the checked Set; under the port's mgmt_lock.  Returns the events. */
static u32 rvt_pi_apply(struct ib_smp *smp, struct rvt_ibport *ibp,
			struct rvt_pi_set *s)
{
	struct ib_port_info *pi = (struct ib_port_info *)smp->data;
	u32 events = 0;

	if (s->lid != ibp->lid || s->lmc != ibp->lmc)
		events |= BIT(IB_EVENT_LID_CHANGE);
	WRITE_ONCE(ibp->lid, s->lid);
	WRITE_ONCE(ibp->lmc, s->lmc);
	if (s->sm_lid != ibp->sm_lid || s->sm_sl != ibp->sm_sl)
		events |= BIT(IB_EVENT_SM_CHANGE);
	ibp->sm_lid = s->sm_lid;
	ibp->sm_sl = s->sm_sl;
	if (pi->gid_prefix != ibp->gid_prefix)
		events |= BIT(IB_EVENT_GID_CHANGE);
	WRITE_ONCE(ibp->gid_prefix, pi->gid_prefix);

	ibp->mkey = pi->mkey;
	ibp->mkeyprot = pi->mkeyprot_resv_lmc >> 6;
	ibp->mkey_lease_period = be16_to_cpu(pi->mkey_lease_period);
	ibp->subnet_timeout = pi->clientrereg_resv_subnetto & 0x1f;
	ibp->init_type = pi->vlcap_inittype & 0xf;
	ibp->vl_high_limit = pi->vl_high_limit;
	ibp->err_thresholds = pi->localphyerrors_overrunerrors;
	ibp->neighbor_mtu = s->mtu;
	if (s->vls)
		ibp->op_vls = s->vls;
	ibp->link_width_enabled = s->lwe;
	ibp->link_speed_enabled = s->lse;
	if (s->lsee)
		ibp->link_speed_ext_enabled = s->lsee;
	if (s->link_down_default)
		ibp->link_down_default = s->link_down_default;
	if (!pi->mkey_violations)
		ibp->mkey_violations = 0;
	if (!pi->pkey_violations)
		ibp->pkey_violations = 0;
	if (!pi->qkey_violations)
		ibp->qkey_violations = 0;

	events |= rvt_pi_link(ibp, s);
	if (pi->clientrereg_resv_subnetto & RVT_CLIENT_REREG)
		events |= BIT(IB_EVENT_CLIENT_REREGISTER);
	return events;
}

/*
 * rvt_sma_set_portinfo - SubnSet(PortInfo) received on port @port.  A
 * port is set through itself only: attr_mod naming another port is
 * refused (0x001c) with that port's PortInfo.
 */
int rvt_sma_set_portinfo(struct ib_smp *smp, struct rvt_dev_info *rdi,
			 u32 port, int mad_flags)
{
	u8 rereg = ((struct ib_port_info *)smp->data)->clientrereg_resv_subnetto &
		   RVT_CLIENT_REREG;
	u32 pnum = rvt_pi_port(smp, rdi, port);
	struct rvt_ibport *ibp;
	struct rvt_pi_set s;
	unsigned long flags;
	u32 events = 0;

	if (pnum != port) {
		smp->status |= RVT_MAD_INVALID_FIELD;
		return rvt_sma_get_portinfo(smp, rdi, port, mad_flags);
	}

	ibp = rvt_ibport(rdi, port);
	spin_lock_irqsave(&ibp->mgmt_lock, flags);
	if (rvt_pi_parse(smp, ibp, &s)) {
		events = rvt_pi_apply(smp, ibp, &s);
	} else {
		smp->status |= RVT_MAD_INVALID_FIELD;
		rereg = 0;
	}
	rvt_pi_fill(smp, ibp, port, mad_flags);
	spin_unlock_irqrestore(&ibp->mgmt_lock, flags);

	/* the answer to the Set that asked for it keeps the bit */
	((struct ib_port_info *)smp->data)->clientrereg_resv_subnetto |= rereg;
	rvt_port_dispatch(rdi, port, events);
	return rvt_mad_reply((struct ib_mad_hdr *)smp);
}
