/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdma_loop's emulated InfiniBand switch: the forwarding element of the
 * loop fabric and its subnet management agent.  It is no ib_device: it
 * exists as the state below, the cables to the loop devices' ports and
 * the routing hooks the devices give rdmavt.  See
 * Documentation/hw/loop.rst.
 */
#ifndef RDMA_LOOP_SWITCH_H
#define RDMA_LOOP_SWITCH_H

#include <linux/spinlock.h>
#include <rdma/ib_smi.h>
#include <rdma/rdma_vt.h>

struct loop_dev;
struct rvt_dev_info;

#define LOOP_SW_MAX_PORTS	16
/* unicast LIDs 0..0xBFFF, 64 per LinearForwardingTable block */
#define LOOP_SW_LFT_CAP		0xC000
#define LOOP_SW_LFT_BLOCK	64
/* multicast LIDs 0xC000..0xC0FF, 32 per block, 16 ports per position */
#define LOOP_SW_MFT_CAP		256
#define LOOP_SW_MFT_BLOCK	32
#define LOOP_SW_MFT_POSITIONS	2
#define LOOP_SW_PKEYS		32
#define LOOP_SW_NO_PORT		0xFF

/**
 * struct loop_sw_port - one port of the switch
 * @peer: the loop device cabled to an external port (RCU; NULL when no
 *	cable), written under loop_mutex and the switch's lock
 * @port_state: PortState (IB_PORT_DOWN .. IB_PORT_ACTIVE)
 * @phys_state: PortPhysicalState (IB_PORT_PHYS_STATE_*)
 * @link_down_default: LinkDownDefaultState
 * @neighbor_mtu: NeighborMTU
 * @op_vls: OperationalVLs
 * @vl_high_limit: VLHighLimit
 * @width_enabled: LinkWidthEnabled
 * @speed_enabled: LinkSpeedEnabled
 * @speed_ext_enabled: LinkSpeedExtEnabled (0x1e: no extended speed)
 * @hoq_life: VLStallCount and HOQLife byte, as the SM set it
 * @enforce: the partition enforcement and filter bits of PortInfo byte 41
 * @pkeys: the port's P_Key table
 * @pma_zero: the PMA's counters (enum rvt_pma_counter, as this port sees
 *	them) at their last clear: the counts of the device at the other
 *	end of the cable, sent and received swapped, minus these
 */
struct loop_sw_port {
	struct loop_dev __rcu	*peer;
	u8			port_state;
	u8			phys_state;
	u8			link_down_default;
	u8			neighbor_mtu;
	u8			op_vls;
	u8			vl_high_limit;
	u8			width_enabled;
	u8			speed_enabled;
	u8			speed_ext_enabled;
	u8			hoq_life;
	u8			enforce;
	u16			pkeys[LOOP_SW_PKEYS];
	u64			pma_zero[RVT_PMA_NCOUNTERS];
};

/**
 * struct loop_switch - the emulated switch
 * @lock: everything below but @ports' peers' readers (RCU) and @nports;
 *	taken with interrupts saved, nests no other lock
 * @nports: external ports (1..LOOP_SW_MAX_PORTS); port 0 is management
 * @guid: node, system image and port GUID
 * @lft_on: an SM wrote the LinearForwardingTable: unicast goes by it
 * @life_state: SwitchInfo byte 11: LifeTimeValue, PortStateChange,
 *	OptimizedSLtoVLMappingProgramming
 * @lft_top: LinearFDBTop
 * @mft_top: MulticastFDBTop
 * @def_port: DefaultPort
 * @def_mc_pri: DefaultMulticastPrimaryPort
 * @def_mc_not_pri: DefaultMulticastNotPrimaryPort
 * @lids_per_port: LIDsPerPort
 * @lid: port 0's base LID
 * @lmc: port 0's LMC
 * @sm_lid: MasterSMLID
 * @sm_sl: MasterSMSL
 * @subnet_timeout: SubnetTimeOut
 * @mkey: M_Key, stored (not enforced)
 * @mkeyprot: M_KeyProtectBits, stored
 * @mkey_lease: M_KeyLeasePeriod, stored
 * @gid_prefix: GidPrefix
 * @sl_to_vl: the SLtoVL table, one for every pair of ports
 * @vl_arb: VLArbitration blocks 1 (low) and 3 (high), one for all ports
 * @lft: the LinearForwardingTable, LOOP_SW_LFT_CAP ports (0xFF: none)
 * @mft: the MulticastForwardingTable's port masks, by position
 * @ports: port 0 and the external ports 1..@nports
 */
struct loop_switch {
	spinlock_t		lock;	/* see above */
	u8			nports;
	__be64			guid;
	bool			lft_on;
	u8			life_state;
	u16			lft_top;
	u16			mft_top;
	u8			def_port;
	u8			def_mc_pri;
	u8			def_mc_not_pri;
	u16			lids_per_port;
	u16			lid;
	u8			lmc;
	u16			sm_lid;
	u8			sm_sl;
	u8			subnet_timeout;
	__be64			mkey;
	u8			mkeyprot;
	u16			mkey_lease;
	__be64			gid_prefix;
	u8			sl_to_vl[8];
	u8			vl_arb[2][64];
	u8			*lft;
	u16			mft[LOOP_SW_MFT_POSITIONS][LOOP_SW_MFT_CAP];
	struct loop_sw_port	ports[LOOP_SW_MAX_PORTS + 1];
};

/* SwitchInfo byte 11 */
#define LOOP_SW_PSC		0x04	/* PortStateChange */
#define LOOP_SW_LIFE_SHIFT	3

/* switch.c */
struct loop_switch *loop_switch_create(unsigned int nports);
void loop_switch_destroy(struct loop_switch *sw);
void loop_switch_reset(struct loop_switch *sw);
void loop_switch_cable(struct loop_switch *sw, struct loop_dev *ldev);
void loop_switch_uncable(struct loop_switch *sw, struct loop_dev *ldev);
bool loop_switch_route_mad(struct loop_switch *sw, struct loop_dev *from,
			   u32 qpn, u32 dlid, void *mad);
struct rvt_dev_info *loop_switch_route_lid(struct loop_switch *sw,
					   struct loop_dev *from, u32 dlid,
					   bool *handled);

/* switch_sma.c: answers @smp in place; false when it is to be dropped */
bool loop_switch_sma(struct loop_switch *sw, u32 in_port, struct ib_smp *smp);

/* switch_pma.c: answers @mad in place; false when it is to be dropped */
bool loop_switch_pma(struct loop_switch *sw, struct ib_mad *mad);
void loop_switch_pma_counters(struct loop_switch *sw, u32 p, u64 *val);

#endif /* RDMA_LOOP_SWITCH_H */
