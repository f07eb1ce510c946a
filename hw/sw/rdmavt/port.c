// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdmavt ports: the management state of each port (logical and physical
 * state, LID and LMC, subnet manager, keys, tables), the verbs that
 * report and change it (query_port, query_pkey, query_gid, modify_port)
 * and the asynchronous events its changes raise.
 *
 * A port is unmanaged or managed (dparms.managed).  An unmanaged port
 * starts as if a subnet manager had already run: ACTIVE, with the LID
 * the driver chose.  A managed one starts in INIT, physical state
 * LinkUp, without a LID, and waits for SubnSet(PortInfo).  Either way a
 * subnet manager may change everything later through the SMA
 * (mad_sma.c, mad_portinfo.c), and a link that went down and comes back
 * up is in INIT, whichever kind the port started as.
 *
 * Locks: ibp->mgmt_lock (interrupts saved) guards the state; the engine
 * reads the state, LID and LMC without it (READ_ONCE).  Events are
 * dispatched after the lock is dropped.
 */

#include <linux/jiffies.h>
#include <linux/percpu.h>
#include <rdma/ib_mad.h>
#include <rdma/rdma_vt.h>

#include "vt.h"
#include "mad.h"

/*
 * The P_Key entries of the ports of @rdi (query_port's pkey_tbl_len); a
 * device without P_Keys (iWARP) still answers index 0 with the default.
 */
u16 rvt_npkeys(struct rvt_dev_info *rdi)
{
	return rdi->dparms.props.max_pkeys ?: 1;
}

/* The GUID of a port: the node GUID plus the port number. */
__be64 rvt_port_guid(struct rvt_dev_info *rdi, u32 port)
{
	return cpu_to_be64(be64_to_cpu(rdi->ibdev.node_guid) + port);
}

/* The default state of @ibp, port @port of @rdi; before registration. */
static void rvt_port_defaults(struct rvt_dev_info *rdi, struct rvt_ibport *ibp,
			      u32 port)
{
	bool managed = rdi->dparms.managed;

	ibp->managed = managed;
	ibp->port_state = managed ? IB_PORT_INIT : IB_PORT_ACTIVE;
	ibp->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	ibp->lid = managed ? 0 : rdi->dparms.lid[port - 1];
	ibp->lmc = 0;
	ibp->sm_lid = managed ? 0 : rdi->dparms.lid[0];
	ibp->sm_sl = 0;
	ibp->port_cap_flags = RVT_PORT_CAP_DEFAULT;
	ibp->gid_prefix = cpu_to_be64(rdi->dparms.gid_prefix);
	ibp->mkey = 0;
	ibp->mkeyprot = 0;
	ibp->mkey_lease_period = 0;
	ibp->mkey_lease_timeout = 0;
	ibp->subnet_timeout = managed ? 0 : RVT_SUBNET_TIMEOUT;
	ibp->neighbor_mtu = IB_MTU_4096;
	ibp->op_vls = RVT_VL_CAP;
	ibp->link_width_enabled = RVT_WIDTH_SUPPORTED;
	ibp->link_speed_enabled = RVT_SPEED_SUPPORTED;
	ibp->link_speed_ext_enabled = RVT_SPEED_EXT_SUPPORTED;
	/* LinkDownDefaultState: Polling */
	ibp->link_down_default = 2;
	if (ibp->pkey_table == ibp->pkeys) {
		memset(ibp->pkeys, 0, sizeof(ibp->pkeys));
		ibp->pkeys[0] = IB_DEFAULT_PKEY_FULL;
	}
}

/*
 * rvt_ports_init - set the management state of every port and allocate
 * their counters; called by rvt_register_device() once dparms is final.
 */
int rvt_ports_init(struct rvt_dev_info *rdi)
{
	struct rvt_ibport *ibp;
	u32 i;

	for (i = 0; i < rdi->dparms.nports; i++) {
		ibp = rdi->ports[i];
		/* rdmavt's own table has room for RVT_MAX_PKEYS */
		if (ibp->pkey_table == ibp->pkeys &&
		    rvt_npkeys(rdi) > RVT_MAX_PKEYS)
			return -EINVAL;
		rvt_port_defaults(rdi, ibp, i + 1);
		if (ibp->pma)
			continue;
		ibp->pma = alloc_percpu(struct rvt_pma_counters);
		if (!ibp->pma)
			return -ENOMEM;
	}
	return rvt_hw_counters_init(rdi);
}

/* rvt_ports_release - free the counters of the ports rvt_ports_init() made */
void rvt_ports_release(struct rvt_dev_info *rdi)
{
	u32 i;

	for (i = 0; i < rdi->dparms.nports; i++) {
		if (!rdi->ports[i])
			continue;
		free_percpu(rdi->ports[i]->pma);
		rdi->ports[i]->pma = NULL;
	}
	rvt_hw_counters_release(rdi);
}

/**
 * rvt_init_port - hand rdmavt the structure of a port
 * @rdi: the device, from rvt_alloc_device()
 * @port: the port's structure, which the driver keeps as long as the
 *	device
 * @port_index: 0-based port index (IB port number - 1)
 * @pkey_table: the port's P_Key table of dparms.props.max_pkeys entries,
 *	or NULL for rdmavt's own of up to RVT_MAX_PKEYS (index 0 the
 *	default P_Key 0xffff, the rest empty)
 *
 * Every port needs this before rvt_register_device(), which sets the
 * port's management state from dparms.  Ports are never removed; they go
 * with the device.
 *
 * Context: Any context; takes no lock (before registration, the device
 * is the driver's alone).
 *
 * Return: 0, or -EINVAL for an index out of range.
 */
int rvt_init_port(struct rvt_dev_info *rdi, struct rvt_ibport *port,
		  int port_index, u16 *pkey_table)
{
	if (port_index < 0 || port_index >= rdi->dparms.nports)
		return -EINVAL;
	spin_lock_init(&port->lock);
	spin_lock_init(&port->mgmt_lock);
	port->mcast_tree = RB_ROOT;
	port->pkey_table = pkey_table ?: port->pkeys;
	port->port_num = port_index + 1;
	rdi->ports[port_index] = port;
	return 0;
}
EXPORT_SYMBOL(rvt_init_port);

/* The widest width that is both enabled and supported (4X or 1X). */
u8 rvt_active_width(struct rvt_ibport *ibp)
{
	u8 w = ibp->link_width_enabled & RVT_WIDTH_SUPPORTED;

	return w & IB_WIDTH_4X ? IB_WIDTH_4X : IB_WIDTH_1X;
}

/* PortInfo:LinkSpeedExtActive: EDR, FDR or 0 (none). */
u8 rvt_active_speed_ext(struct rvt_ibport *ibp)
{
	u8 s = ibp->link_speed_ext_enabled & RVT_SPEED_EXT_SUPPORTED;

	if (!(ibp->port_cap_flags & IB_PORT_EXTENDED_SPEEDS_SUP) ||
	    ibp->link_speed_ext_enabled == RVT_SPEED_EXT_DISABLE)
		return 0;
	if (s & RVT_SPEED_EXT_EDR)
		return RVT_SPEED_EXT_EDR;
	return s & RVT_SPEED_EXT_FDR;
}

/* PortInfo:LinkSpeedActive: the fastest of SDR, DDR, QDR enabled. */
u8 rvt_active_speed(struct rvt_ibport *ibp)
{
	u8 s = ibp->link_speed_enabled & RVT_SPEED_SUPPORTED;

	if (s & 4)
		return 4;
	return s & 2 ? 2 : 1;
}

/* The port's active speed as enum ib_port_speed. */
static u16 rvt_ib_speed(struct rvt_ibport *ibp)
{
	switch (rvt_active_speed_ext(ibp)) {
	case RVT_SPEED_EXT_EDR:
		return IB_SPEED_EDR;
	case RVT_SPEED_EXT_FDR:
		return IB_SPEED_FDR;
	}
	switch (rvt_active_speed(ibp)) {
	case 4:
		return IB_SPEED_QDR;
	case 2:
		return IB_SPEED_DDR;
	}
	return IB_SPEED_SDR;
}

/*
 * Move @ibp to logical state @state and physical state @phys, under its
 * mgmt_lock.  Returns the events it raises, BIT(IB_EVENT_*): PORT_ACTIVE
 * on reaching ACTIVE, PORT_ERR on leaving it.
 */
u32 rvt_port_set_state(struct rvt_ibport *ibp, u8 state, u8 phys)
{
	u8 old = ibp->port_state;

	lockdep_assert_held(&ibp->mgmt_lock);
	if (old != IB_PORT_DOWN && state == IB_PORT_DOWN)
		rvt_hw_count_port(ibp, RVT_CNT_LINK_DOWNED, 1);
	WRITE_ONCE(ibp->port_state, state);
	WRITE_ONCE(ibp->phys_state, phys);
	if (old != IB_PORT_ACTIVE && state == IB_PORT_ACTIVE)
		return BIT(IB_EVENT_PORT_ACTIVE);
	if (old == IB_PORT_ACTIVE && state != IB_PORT_ACTIVE)
		return BIT(IB_EVENT_PORT_ERR);
	return 0;
}

/*
 * Report @events (BIT(IB_EVENT_*)) of port @port, in a fixed order: the
 * addressing first, then the state, then the request to register again.
 */
void rvt_port_dispatch(struct rvt_dev_info *rdi, u32 port, u32 events)
{
	static const enum ib_event_type order[] = {
		IB_EVENT_LID_CHANGE, IB_EVENT_SM_CHANGE, IB_EVENT_GID_CHANGE,
		IB_EVENT_PKEY_CHANGE, IB_EVENT_PORT_ERR, IB_EVENT_PORT_ACTIVE,
		IB_EVENT_CLIENT_REREGISTER,
	};
	struct ib_event ev = {
		.device = &rdi->ibdev,
		.element.port_num = port,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(order); i++) {
		if (!(events & BIT(order[i])))
			continue;
		ev.event = order[i];
		ib_dispatch_event(&ev);
	}
}

/**
 * rvt_port_by_lid - the port of a device that a destination LID reaches
 * @rdi: the device
 * @dlid: the destination LID
 *
 * A port with base LID L and LMC m answers L .. L + 2^m - 1.  Multicast
 * LIDs (0xC000..0xFFFE), the permissive LID and LID 0 reach no port
 * here.  The port's LID is read without its lock: a change racing the
 * lookup is the packet arriving before or after it.
 *
 * Context: Any context; does not sleep, takes no lock (the engine's
 * delivery calls it under RCU, from the driver's find_dev_by_lid).
 *
 * Return: the IB port number, or 0 when no port of @rdi has @dlid.
 */
u32 rvt_port_by_lid(struct rvt_dev_info *rdi, u32 dlid)
{
	struct rvt_ibport *ibp;
	u32 i, lid;

	if (!dlid || dlid >= be16_to_cpu(IB_MULTICAST_LID_BASE))
		return 0;
	for (i = 0; i < rdi->dparms.nports; i++) {
		ibp = rdi->ports[i];
		lid = READ_ONCE(ibp->lid);
		if (lid && dlid >= lid && dlid - lid < BIT(READ_ONCE(ibp->lmc)))
			return i + 1;
	}
	return 0;
}
EXPORT_SYMBOL(rvt_port_by_lid);

/* The base LID of port @port (0 while it has none). */
u32 rvt_port_lid(struct rvt_dev_info *rdi, u32 port)
{
	return READ_ONCE(rvt_ibport(rdi, port)->lid);
}

/* The LID @lid + @path_bits that a packet from port @port carries. */
u32 rvt_port_slid(struct rvt_dev_info *rdi, u32 port, u8 path_bits)
{
	struct rvt_ibport *ibp = rvt_ibport(rdi, port);

	return READ_ONCE(ibp->lid) +
	       (path_bits & (BIT(READ_ONCE(ibp->lmc)) - 1));
}

/* A datagram to port @ibp was dropped for its Q_Key. */
void rvt_port_qkey_violation(struct rvt_ibport *ibp)
{
	unsigned long flags;

	spin_lock_irqsave(&ibp->mgmt_lock, flags);
	if (ibp->qkey_violations != 0xffff)
		ibp->qkey_violations++;
	spin_unlock_irqrestore(&ibp->mgmt_lock, flags);
}

int rvt_query_port(struct ib_device *ibdev, u32 port_num,
		   struct ib_port_attr *props)
{
	struct rvt_dev_info *rdi = ib_to_rvt(ibdev);
	struct rvt_ibport *ibp = rvt_ibport(rdi, port_num);
	unsigned long flags;

	memset(props, 0, sizeof(*props));
	props->max_mtu = IB_MTU_4096;
	props->gid_tbl_len = 1;
	props->pkey_tbl_len = rvt_npkeys(rdi);
	props->max_msg_sz = 0x80000000;
	props->max_vl_num = RVT_VL_CAP;

	spin_lock_irqsave(&ibp->mgmt_lock, flags);
	props->state = ibp->port_state;
	props->phys_state = ibp->phys_state;
	props->active_mtu = ibp->neighbor_mtu;
	props->port_cap_flags = ibp->port_cap_flags;
	props->bad_pkey_cntr = ibp->pkey_violations;
	props->qkey_viol_cntr = ibp->qkey_violations;
	props->lid = ibp->lid;
	props->lmc = ibp->lmc;
	props->sm_lid = ibp->sm_lid;
	props->sm_sl = ibp->sm_sl;
	props->subnet_timeout = ibp->subnet_timeout;
	props->init_type_reply = ibp->init_type_reply;
	props->active_width = rvt_active_width(ibp);
	props->active_speed = rvt_ib_speed(ibp);
	props->subnet_prefix = be64_to_cpu(ibp->gid_prefix);
	spin_unlock_irqrestore(&ibp->mgmt_lock, flags);
	return 0;
}

int rvt_get_port_immutable(struct ib_device *ibdev, u32 port_num,
			   struct ib_port_immutable *immutable)
{
	immutable->pkey_tbl_len = rvt_npkeys(ib_to_rvt(ibdev));
	immutable->gid_tbl_len = 1;
	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_IB;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

int rvt_query_gid(struct ib_device *ibdev, u32 port_num, int index,
		  union ib_gid *gid)
{
	struct rvt_dev_info *rdi = ib_to_rvt(ibdev);

	if (index)
		return -EINVAL;
	gid->global.subnet_prefix = READ_ONCE(rvt_ibport(rdi, port_num)->gid_prefix);
	gid->global.interface_id = rvt_port_guid(rdi, port_num);
	return 0;
}

int rvt_query_pkey(struct ib_device *ibdev, u32 port_num, u16 index,
		   u16 *pkey)
{
	struct rvt_dev_info *rdi = ib_to_rvt(ibdev);
	struct rvt_ibport *ibp = rvt_ibport(rdi, port_num);
	unsigned long flags;

	if (index >= rvt_npkeys(rdi))
		return -EINVAL;
	spin_lock_irqsave(&ibp->mgmt_lock, flags);
	*pkey = ibp->pkey_table[index];
	spin_unlock_irqrestore(&ibp->mgmt_lock, flags);
	return 0;
}

/*
 * ib_modify_port(): the capability bits (IsSM comes this way from
 * ib_umad), the InitTypeReply, resetting the Q_Key violation counter,
 * and shutting the port down (physical state Disabled, until a subnet
 * manager sets it to Polling again).
 */
int rvt_modify_port(struct ib_device *ibdev, u32 port_num,
		    int port_modify_mask, struct ib_port_modify *props)
{
	struct rvt_dev_info *rdi = ib_to_rvt(ibdev);
	struct rvt_ibport *ibp = rvt_ibport(rdi, port_num);
	unsigned long flags;
	u32 events = 0;

	spin_lock_irqsave(&ibp->mgmt_lock, flags);
	ibp->port_cap_flags |= props->set_port_cap_mask;
	ibp->port_cap_flags &= ~props->clr_port_cap_mask;
	if (port_modify_mask & IB_PORT_INIT_TYPE)
		ibp->init_type_reply = props->init_type & 0xf;
	if (port_modify_mask & IB_PORT_RESET_QKEY_CNTR)
		ibp->qkey_violations = 0;
	if (port_modify_mask & IB_PORT_SHUTDOWN)
		events = rvt_port_set_state(ibp, IB_PORT_DOWN,
					    IB_PORT_PHYS_STATE_DISABLED);
	spin_unlock_irqrestore(&ibp->mgmt_lock, flags);
	rvt_port_dispatch(rdi, port_num, events);
	return 0;
}
