/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdmavt: the verbs transport library shared by software RDMA drivers.
 *
 * rdmavt implements the verbs objects (PD, CQ, QP, SRQ, MR, AH) and the
 * work request engine of a device: posting, SGE walking with key and
 * access checks, the operations of RC, UC and UD QPs, completions,
 * errors and flushing.  Requests go either in memory to QPs of this host
 * (the loop driver) or, through the driver's xmit_wqe hook and the
 * responder helpers of rdmavt_qp.h, over a wire driver's transport.
 *
 * A driver allocates a device with rvt_alloc_device(), describes its
 * ports and limits in rvt_dev_info, supplies the hooks of struct
 * rvt_driver_provided (at least how to reach the device behind a
 * destination LID) and registers it with rvt_register_device().
 *
 * Every device of rdmavt uses virtual DMA: addresses in SGEs and MR page
 * lists are kernel virtual addresses.
 */
#ifndef RDMA_VT_H
#define RDMA_VT_H

#include <linux/kref.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/rbtree.h>
#include <linux/rculist.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdmavt_mr.h>

struct ib_class_port_info;
struct ib_pma_portcounters;
struct ib_pma_portcounters_ext;
struct rvt_ah;
struct rvt_cq;
struct rvt_dev_info;
struct rvt_mmap_entry;
struct rvt_qp;
struct rvt_rq;
struct rvt_rwqe;
struct rvt_srq;
struct rvt_swqe;

/* P_Key entries of a port whose driver gives rdmavt no table of its own */
#define RVT_MAX_PKEYS		32
/* GUIDInfo entries of a port: the port GUID (read-only) and aliases */
#define RVT_GUIDS_PER_PORT	8
/* entries of each VLArbitration table (low and high priority) */
#define RVT_VLARB_ENTRIES	32

/**
 * enum rvt_pma_counter - the traffic counters of a port
 * @RVT_PMA_XMIT_DATA: 4-byte words sent (PortXmitData)
 * @RVT_PMA_RCV_DATA: 4-byte words received (PortRcvData)
 * @RVT_PMA_XMIT_PKTS: packets sent (PortXmitPkts)
 * @RVT_PMA_RCV_PKTS: packets received (PortRcvPkts)
 * @RVT_PMA_UNICAST_XMIT: unicast packets sent
 * @RVT_PMA_UNICAST_RCV: unicast packets received
 * @RVT_PMA_MCAST_XMIT: multicast packets sent
 * @RVT_PMA_MCAST_RCV: multicast packets received
 * @RVT_PMA_NCOUNTERS: their number
 */
enum rvt_pma_counter {
	RVT_PMA_XMIT_DATA,
	RVT_PMA_RCV_DATA,
	RVT_PMA_XMIT_PKTS,
	RVT_PMA_RCV_PKTS,
	RVT_PMA_UNICAST_XMIT,
	RVT_PMA_UNICAST_RCV,
	RVT_PMA_MCAST_XMIT,
	RVT_PMA_MCAST_RCV,
	RVT_PMA_NCOUNTERS
};

/**
 * struct rvt_pma_counters - one CPU's share of a port's traffic counters
 * @c: by enum rvt_pma_counter, counted since the port was registered
 */
struct rvt_pma_counters {
	u64	c[RVT_PMA_NCOUNTERS];
};

/**
 * enum rvt_hw_counter - the hardware counters of rdmavt's drivers
 *	(RDMA statistics, sysfs hw_counters/), upstream rxe's set and names
 * @RVT_CNT_SENT_PKTS: packets sent (sent_pkts), ACKs and retries included
 * @RVT_CNT_RCVD_PKTS: packets received (rcvd_pkts)
 * @RVT_CNT_DUP_REQ: duplicate requests the responder saw
 *	(duplicate_request; wire drivers with sequence numbers)
 * @RVT_CNT_OUT_OF_SEQ_REQ: requests out of sequence at the responder
 *	(out_of_seq_request; wire drivers)
 * @RVT_CNT_RCV_RNR: RNR NAKs the requester received (rcvd_rnr_err)
 * @RVT_CNT_SND_RNR: RNR NAKs the responder sent (send_rnr_err)
 * @RVT_CNT_RCV_SEQ_ERR: sequence error NAKs received (rcvd_seq_err; wire
 *	drivers)
 * @RVT_CNT_ACK_DEFERRED: ACKs whose handling was deferred (ack_deferred;
 *	wire drivers)
 * @RVT_CNT_RETRY_EXCEEDED: requests failed after their last retry
 *	(retry_exceeded_err)
 * @RVT_CNT_RNR_RETRY_EXCEEDED: requests failed after their last RNR
 *	retry (retry_rnr_exceeded_err)
 * @RVT_CNT_COMP_RETRY: retries after a lost answer (completer_retry_err)
 * @RVT_CNT_SEND_ERR: packets the transport failed to send (send_err)
 * @RVT_CNT_LINK_DOWNED: times the port's link went down (link_downed)
 * @RVT_CNT_RDMA_SEND: SENDs completed successfully (rdma_sends)
 * @RVT_CNT_RDMA_RECV: receives completed successfully (rdma_recvs)
 * @RVT_NUM_HW_COUNTERS: their number
 */
enum rvt_hw_counter {
	RVT_CNT_SENT_PKTS,
	RVT_CNT_RCVD_PKTS,
	RVT_CNT_DUP_REQ,
	RVT_CNT_OUT_OF_SEQ_REQ,
	RVT_CNT_RCV_RNR,
	RVT_CNT_SND_RNR,
	RVT_CNT_RCV_SEQ_ERR,
	RVT_CNT_ACK_DEFERRED,
	RVT_CNT_RETRY_EXCEEDED,
	/* the one after: sq.c adds 1 for RNR */
	RVT_CNT_RNR_RETRY_EXCEEDED = RVT_CNT_RETRY_EXCEEDED + 1,
	RVT_CNT_COMP_RETRY,
	RVT_CNT_SEND_ERR,
	RVT_CNT_LINK_DOWNED,
	RVT_CNT_RDMA_SEND,
	RVT_CNT_RDMA_RECV,
	RVT_NUM_HW_COUNTERS
};

/**
 * struct rvt_hw_counters - one CPU's share of a set of hardware counters
 * @c: by enum rvt_hw_counter
 */
struct rvt_hw_counters {
	u64	c[RVT_NUM_HW_COUNTERS];
};

/**
 * struct rvt_counter - rdmavt's side of a per-QP counter (rdma_counter)
 * @pcpu: what its QPs counted, per CPU
 *
 * Found by the rdma_counter's ID in rvt_dev_info.counters; a bound QP
 * points at it (rvt_qp.hw_cnt, RCU).
 */
struct rvt_counter {
	struct rvt_hw_counters __percpu *pcpu;
};

/**
 * struct rvt_ibport - the rdmavt state of one port
 * @lock: protects @mcast_tree and the member lists of its groups (their
 *	writers; senders walk a group's QPs under RCU); process context
 * @mcast_tree: the multicast groups of the port (struct rvt_mcast) by MGID
 * @pkey_table: the port's P_Key table: the driver's (dparms.props.max_pkeys
 *	entries) or @pkeys
 * @port_num: the IB port number (rvt_init_port())
 * @mgmt_lock: protects every field below except @pma; taken with
 *	interrupts saved (query_port may be called in atomic context), nests
 *	no other lock.  @port_state, @phys_state, @lid and @lmc are written
 *	with WRITE_ONCE() under it and read by the engine without it: a
 *	change racing a request is the request arriving before or after it
 * @managed: the port started in INIT without a LID and waits for a subnet
 *	manager; otherwise it started ACTIVE with the driver's LID
 * @port_state: logical state, enum ib_port_state (DOWN .. ACTIVE)
 * @phys_state: physical state, enum ib_port_phys_state
 * @lid: base LID (0: none assigned yet)
 * @lmc: LID mask control: the port answers @lid .. @lid + 2^@lmc - 1
 * @sm_lid: LID of the master subnet manager
 * @sm_sl: service level towards the master subnet manager
 * @port_cap_flags: PortInfo:CapabilityMask (enum ib_port_capability_mask_bits)
 * @gid_prefix: subnet prefix of the port's GIDs, network order
 * @mkey: the management key, network order
 * @mkeyprot: M_Key protection level 0..3
 * @mkey_lease_period: M_Key lease period in seconds (0: infinite)
 * @mkey_lease_timeout: jiffies at which a running lease ends (0: none
 *	running); the protection level drops to 0 when it has passed
 * @subnet_timeout: PortInfo:SubnetTimeOut
 * @init_type: PortInfo:InitType, stored
 * @init_type_reply: PortInfo:InitTypeReply (IB_PORT_INIT_TYPE of
 *	ib_modify_port())
 * @neighbor_mtu: PortInfo:NeighborMTU (enum ib_mtu), the active MTU
 * @op_vls: PortInfo:OperationalVLs
 * @vl_high_limit: PortInfo:VLHighLimit, stored
 * @link_width_enabled: PortInfo:LinkWidthEnabled
 * @link_speed_enabled: PortInfo:LinkSpeedEnabled
 * @link_speed_ext_enabled: PortInfo:LinkSpeedExtEnabled
 * @link_down_default: PortInfo:LinkDownDefaultState, stored
 * @err_thresholds: PortInfo:LocalPhyErrors (upper 4 bits) and
 *	OverrunErrors (lower 4 bits) thresholds, stored
 * @mkey_violations: M_Keys refused (saturates at 0xffff)
 * @pkey_violations: P_Keys refused (the engine checks none: stays 0)
 * @qkey_violations: datagrams dropped for their Q_Key (saturates)
 * @guids: GUIDInfo entries 1.. (entry 0 is the port GUID), network order
 * @sl_to_vl: SLtoVLMappingTable, one VL per SL, stored
 * @vl_arb: VLArbitrationTable, low (0) and high (1) priority: 2 bytes
 *	(VL, weight) per entry as on the wire, stored
 * @pkeys: the P_Key table when the driver gives none
 * @pma: the traffic counters, per CPU (the engine adds without a lock)
 * @pma_zero: the sum of @pma when each counter was last cleared
 * @hw: the hardware counters of the QPs not bound to a per-QP counter,
 *	per CPU (rvt_hw_count())
 *
 * The driver embeds one per port and hands it to rvt_init_port() before
 * rvt_register_device(), which sets the management state; it lives as
 * long as the device.
 */
struct rvt_ibport {
	spinlock_t	lock;	/* see above */
	struct rb_root	mcast_tree;
	u16		*pkey_table;
	u32		port_num;

	spinlock_t	mgmt_lock;	/* see above */
	bool		managed;
	u8		port_state;
	u8		phys_state;
	u16		lid;
	u8		lmc;
	u32		sm_lid;
	u8		sm_sl;
	u32		port_cap_flags;
	__be64		gid_prefix;
	__be64		mkey;
	u8		mkeyprot;
	u16		mkey_lease_period;
	unsigned long	mkey_lease_timeout;
	u8		subnet_timeout;
	u8		init_type;
	u8		init_type_reply;
	u8		neighbor_mtu;
	u8		op_vls;
	u8		vl_high_limit;
	u8		link_width_enabled;
	u8		link_speed_enabled;
	u8		link_speed_ext_enabled;
	u8		link_down_default;
	u8		err_thresholds;
	u16		mkey_violations;
	u16		pkey_violations;
	u16		qkey_violations;
	__be64		guids[RVT_GUIDS_PER_PORT - 1];
	u8		sl_to_vl[16];
	u8		vl_arb[2][RVT_VLARB_ENTRIES * 2];
	u16		pkeys[RVT_MAX_PKEYS];

	struct rvt_pma_counters __percpu *pma;
	struct rvt_pma_counters	pma_zero;
	struct rvt_hw_counters __percpu *hw;
};

/**
 * struct rvt_mcast_qp - a QP attached to a multicast group
 * @list: entry in the group's @qp_list (RCU)
 * @qp: the QP, referenced while attached
 * @count: attaches of @qp to the group not detached yet (attaching twice
 *	succeeds; each attach takes one detach)
 */
struct rvt_mcast_qp {
	struct list_head	list;
	struct rvt_qp		*qp;
	u32			count;
};

/**
 * struct rvt_mcast_addr - the address of a multicast group
 * @mgid: multicast GID
 * @lid: multicast LID (host order)
 */
struct rvt_mcast_addr {
	union ib_gid	mgid;
	u16		lid;
};

/**
 * struct rvt_mcast - a multicast group of a port
 * @rb_node: entry in the port's mcast_tree, under its lock
 * @mcast_addr: the group's MGID and MLID; one MGID has one MLID
 * @qp_list: attached QPs (struct rvt_mcast_qp), RCU list
 * @wait: the last detach waits here for @refcount to drop to zero
 * @refcount: attached QPs plus the references of rvt_mcast_find()
 * @n_attached: entries of @qp_list, under the port's lock
 */
struct rvt_mcast {
	struct rb_node		rb_node;
	struct rvt_mcast_addr	mcast_addr;
	struct list_head	qp_list;
	wait_queue_head_t	wait;
	atomic_t		refcount;
	int			n_attached;
};

/**
 * struct rvt_driver_params - limits and port layout of a device
 * @props: device attributes returned by query_device (the driver fills
 *	what it wants; rdmavt fills zero limits with its defaults)
 * @nports: number of ports
 * @node: NUMA node
 * @lid: LID of each port of an unmanaged device (index 0 is port 1),
 *	its LID from registration on, until a subnet manager assigns
 *	another; it must be unique among the devices the driver connects
 * @gid_prefix: initial subnet prefix of the port GIDs (a subnet manager
 *	may set another through PortInfo)
 * @qp_types: the QP types the driver carries, BIT(IB_QPT_*); 0 for all
 *	of rdmavt's (create_qp refuses others with -EOPNOTSUPP)
 * @roce: the ports are RoCE ports of a wire driver (soft-RoCE): address
 *	vectors are of type RDMA_AH_ATTR_TYPE_ROCE, carry a GRH and no
 *	LID, and rdmavt installs no management agent (process_mad,
 *	modify_port) and needs no find_dev_by_lid
 * @managed: the ports wait for a subnet manager: they start in INIT
 *	(physical state LinkUp) with LID 0 and SM LID 0, and only
 *	SubnSet(PortInfo) gives them a LID and moves them to ARMED and
 *	ACTIVE.  Otherwise (unmanaged) they start as if a subnet manager had
 *	run already: ACTIVE, LID @lid[i], SM LID @lid[0]
 * @driver_user_abi: the driver has a user ABI of its own (siw, rxe):
 *	rdmavt's rings (uapi/rdma/rvt-abi.h) are not offered, and user CQs,
 *	QPs and SRQs are the driver's to make
 * @wire_odp: a wire driver whose data path answers RVT_WC_PAGE_MISS (its
 *	transmit reads pages of on-demand paging MRs between rvt_sge_map()
 *	and rvt_sge_unmap() and reports a miss with rvt_odp_miss_fault()):
 *	the device offers on-demand paging MRs for the transports and
 *	operations in @props.odp_caps, which the driver fills.  A device
 *	without xmit_wqe offers them for everything rdmavt's in-memory
 *	delivery carries.
 */
struct rvt_driver_params {
	struct ib_device_attr	props;
	u32			nports;
	int			node;
	u32			lid[4];
	u64			gid_prefix;
	u32			qp_types;
	bool			roce;
	bool			managed;
	bool			driver_user_abi;
	bool			wire_odp;
};

/**
 * struct rvt_driver_provided - hooks of the driver
 * @find_dev_by_lid: the device owning a destination LID, or NULL when
 *	unreachable (rvt_port_by_lid() tells whether a device's ports
 *	answer it, by their current LIDs and LMCs); called by the engine
 *	under rcu_read_lock(), the device must stay registered while any
 *	QP may send to it
 * @check_ah: optional; further checks of an address vector after
 *	rvt_check_ah()'s own, returning 0 or a negative error
 * @next_fabric_dev: optional; walks the devices (@rdi included) whose
 *	ports a multicast datagram sent from @port of @rdi reaches: returns
 *	the first with @prev NULL, then the one after @prev, NULL at the
 *	end.  Called under rcu_read_lock(); the devices returned must stay
 *	valid until the RCU read side ends.  Without it multicast reaches
 *	the groups of @rdi only.
 * @dealloc: optional; when set, the device uses ib_core's dealloc_driver
 *	flow: whoever unregisters it (rvt_unregister_device(), "rdma link
 *	delete", ib_unregister_device_and_put()) also frees it, and this
 *	hook runs once just before rdmavt's own teardown, after every
 *	client left the device.  It also runs when rvt_dealloc_device()
 *	frees a device whose rvt_register_device() was called and failed.
 *	The driver must make the device unreachable by find_dev_by_lid()
 *	and wait out the readers (synchronize_rcu()) here.  rdmavt code
 *	still runs for the device after the hook returns: a driver whose
 *	module exit waits for devices being deleted meanwhile must not
 *	take the hook's return for the end.  The unregistration is over,
 *	rdmavt's teardown included, when ib_unregister_device() called on
 *	the device (which then only waits for its unregistration lock)
 *	returns.
 * @xmit_wqe: optional; a wire driver's transmit.  The engine calls it for
 *	each request of the QP's send queue, in order, instead of
 *	delivering the request in memory (REG_MR and LOCAL_INV excepted:
 *	the engine executes them, after the requests before them
 *	completed; a REG_MR at once with @xmit_local).  The request's
 *	local SGEs are checked and referenced (@wqe->sg_list,
 *	@wqe->wr.num_sge entries).  From this call on the
 *	request is the driver's, in place in the send ring (between
 *	qp->sq_tail and qp->sq_cur): it reads the request, its SGEs and
 *	the memory they name there, from any context, without copying
 *	the request or referencing its regions again, until it gives the
 *	request back.  It gives it back in one of two ways only:
 *	rvt_send_complete(), in order, with the request's status (in the
 *	error state, IB_WC_WR_FLUSH_ERR for what it did not finish), or
 *	by stopping in @xmit_stop.  Return 0 when the driver took it, or
 *	-EBUSY when it cannot now: the request stays first in line and
 *	the engine stops until the driver calls rvt_kick_sq().  Called in
 *	the poster's context or the QP's work item, with bottom halves
 *	off, holding no rdmavt lock: it must not sleep (hand the socket
 *	work to a thread of the driver's).  In the error state the
 *	engine flushes only what it did not hand over: it waits until
 *	the driver gave back every request it holds (@xmit_flush tells
 *	it), then flushes the rest, so completions stay in order.
 *	Without the hook, requests are delivered in memory to the QPs
 *	find_dev_by_lid() reaches.
 * @xmit_local: with @xmit_wqe; the driver takes REG_MR too: while
 *	requests the driver holds are in flight, the engine executes a
 *	REG_MR at once (wqe->executed, its result in wqe->status) and
 *	hands it to @xmit_wqe, and the driver completes it in order like
 *	the others (rvt_send_complete() with wqe->status once those before
 *	it completed), so that a registration does not wait for the
 *	acknowledgments of the requests before it.  One posted with
 *	IB_SEND_FENCE still waits for them, and so does every LOCAL_INV
 *	(they may still use the MR), as without @xmit_local.
 * @xmit_flush: required with @xmit_wqe; the engine found the QP in the
 *	error state (whoever put it there: the consumer's modify_qp, the
 *	driver's or rdmavt's rvt_error_qp()) while the driver holds
 *	requests: the driver gives them all back, in order, with
 *	rvt_send_complete() (those its peer finished with their status,
 *	the others IB_WC_WR_FLUSH_ERR), now or soon from a context of its
 *	own.  Called again each time the engine runs in the error state
 *	while the driver holds requests.  Called from the engine like
 *	@xmit_wqe (the poster's context or the work item, maybe under the
 *	poster's spin locks), holding no rdmavt lock: it must not sleep and
 *	should only schedule the driver's work.
 * @xmit_stop: required with @xmit_wqe; called by the engine when the QP
 *	goes to RESET (modify_qp) or is destroyed, after the engine
 *	stopped and before it drops the MR references of every request
 *	posted, those the driver holds included, and forgets them.  When
 *	it returns the driver touches none of the requests it held again
 *	(its transmit thread and receive path included) and completes
 *	none of them: they end without a completion, as RESET wants.
 *	The QP's state is RESET during the call.  Process context, may
 *	sleep; holds no rdmavt lock.
 * @odp_resume: optional, with dparms.wire_odp; called by the QP's send
 *	work after it faulted in what rvt_odp_miss_fault() asked for
 *	(whether or not the fault succeeded), so that a data path that
 *	stopped at the miss goes on (and meets the page, or the failure).
 *	Not called once @xmit_stop started.  Process context, may sleep;
 *	holds no rdmavt lock.
 * @qp_priv_alloc: optional; the driver's private state of a new QP
 *	(qp->priv), made after rdmavt set the QP's fields and rings, before
 *	the QP is visible.  Returns it or an ERR_PTR().  Process context.
 * @qp_priv_free: optional; frees what @qp_priv_alloc made, when the QP
 *	is destroyed (after its send engine stopped for good) or its
 *	creation fails after @qp_priv_alloc.  Process context, may sleep.
 * @modify_qp: optional; told of a successful modify_qp after rdmavt
 *	applied it (@attr, @attr_mask as the consumer gave them; the state
 *	in qp->state), holding no rdmavt lock.  Process context, may sleep.
 *	An iWARP driver ends the QP's connection here when the QP leaves
 *	RTS for SQD or ERROR.
 * @route_mad: optional; the driver's own routing of management packets
 *	(QP0 and QP1), for a fabric with a switch of the driver's (its SMA
 *	and PMA).  The engine offers it every QP0 and QP1 datagram that
 *	leaves port @port of @rdi for another port (the permissive DLID
 *	0xFFFF of a directed-route SMP included): @qpn is the sending QP (0
 *	or 1), @slid the sender's LID as the packet carries it, @dlid the
 *	destination LID, @mad a copy of the @len bytes sent, which the
 *	driver may change (a switch moves the hop pointer).  Return true
 *	when the driver took the packet (it delivers it with
 *	rvt_deliver_mad(), answers it or drops it), false to have the engine
 *	deliver it by LID through @find_dev_by_lid as any datagram.  Called
 *	from the engine with bottom halves off, holding no rdmavt lock,
 *	inside rcu_read_lock(); must not sleep.
 * @quiesce_qp: optional; called by rvt_destroy_qp() once the QP cannot
 *	be looked up any more and before it waits for the QP's references
 *	to go: the driver drops the references it and its connection
 *	manager hold (iw_cm's included).  Process context, may sleep.
 *
 * A driver with a user ABI of its own (dparms.driver_user_abi) supplies
 * the rings user space maps with the hooks below; rdmavt keeps the
 * engine (completions, posting, receive WQEs taken for the responder,
 * flushes, SRQ limits) and calls them where its own rings would be.
 * What user space writes into a ring is never trusted: the driver
 * bounds every index it reads and copies an entry out of user space's
 * reach before anything of it is used.  Without @create_user_cq,
 * @create_user_qp or @create_user_srq those user objects are refused
 * with -EOPNOTSUPP (siw).
 *
 * @create_user_cq: the ring of a new user CQ of ibcq.cqe entries at
 *	least: the driver makes it (rvt_mmap_alloc()), may raise
 *	cq->ibcq.cqe to what the ring holds, sets cq->drv_ring and answers
 *	the command's driver data.  Returns 0 or a negative error.  Process
 *	context, may sleep.
 * @resize_user_cq: optional, with @create_user_cq (without it a user
 *	CQ is not resized: -EOPNOTSUPP); a new ring of @cqe entries at
 *	least (already checked against the device's max_cqe): the driver
 *	answers the driver data, then under cq->lock (IRQ safe) moves the
 *	completions not polled (-EINVAL when they do not fit) and sets
 *	cq->drv_ring and cq->ibcq.cqe, and removes the old ring.  Process
 *	context, may sleep.
 * @destroy_user_cq: with @create_user_cq; the CQ goes: the driver
 *	removes its ring (rvt_mmap_remove()).  Process context.
 * @user_cq_push: with @create_user_cq; write @wc at the ring's producer
 *	index and publish it.  Returns false when the ring is full (the
 *	completion is lost, rdmavt raises IB_EVENT_CQ_ERR).  Called under
 *	cq->lock (IRQ safe), in any context the engine completes from:
 *	must not sleep.
 * @user_cq_empty: with @create_user_cq; has user space polled every
 *	completion of the ring (IB_CQ_REPORT_MISSED_EVENTS)?  Under
 *	cq->lock, must not sleep.
 * @user_cq_notify: optional, with @create_user_cq; for a driver whose
 *	user space arms its CQs by writing into the mapped ring rather
 *	than with REQ_NOTIFY_CQ (siw): was the CQ armed for the completion
 *	just pushed (@solicited: its request asked for a solicited event)?
 *	The driver disarms it when it answers true, and rdmavt calls the
 *	completion handler, as for an arming of its own.  Under cq->lock,
 *	must not sleep.
 * @create_user_qp: the rings of a new user QP, after rdmavt checked
 *	@init's capabilities and before it sizes its own send ring: the
 *	driver makes its send ring and, without an SRQ, its receive ring,
 *	may raise @init->cap (max_send_wr, max_send_sge, max_inline_data
 *	up to RVT_MAX_INLINE, max_recv_wr) to what they hold, sets
 *	qp->drv_sq and qp->rq.drv_ring, and answers the driver data.
 *	rdmavt's send ring then holds a window of it: max_send_wr
 *	requests up to RVT_DRV_SQ_WINDOW.  Returns 0 or a negative
 *	error.  Process context, may sleep.
 * @destroy_user_qp: with @create_user_qp; the QP goes (or its creation
 *	failed after @create_user_qp): the driver removes its rings.
 *	Process context.
 * @user_sq_doorbell: with @create_user_qp; user space rang the doorbell
 *	(POST_SEND with no request) of a QP that may send: the driver
 *	takes the requests it has not taken yet from its send ring, copied
 *	out of user space's reach, and hands each to rvt_post_ring_wr(),
 *	in order, until the ring has no more or the call answers -ENOMEM
 *	(rdmavt's window is full: rdmavt rings the doorbell again from a
 *	work item once a request retires).  It must not free a ring slot
 *	(advance its consumer index) for them: @user_sq_retired does.
 *	rdmavt runs the engine after it.  Returns 0 or the error the
 *	POST_SEND answers.  Process context (the poster's or rdmavt's
 *	work item), holding no rdmavt lock; may sleep.
 * @user_sq_retired: with @create_user_qp; the oldest request of the
 *	QP's send queue retired (completed or flushed; requests retire in
 *	the order they were posted): the driver frees its ring slot.
 *	Returns true when its ring holds requests that no doorbell will
 *	announce (a provider that rings only when the QP looks idle):
 *	rdmavt then rings the doorbell itself from a work item, as when
 *	its window was full.
 *	Requests a RESET forgot do not retire: the driver's
 *	@modify_qp frees their slots (the count still in rdmavt's ring
 *	is qp->sq_head - qp->sq_tail modulo qp->sq_size, read under
 *	qp->s_lock).  Called under qp->s_lock (IRQ safe), in any context:
 *	must not sleep.
 * @user_rq_take: with @create_user_qp or @create_user_srq; take the
 *	oldest request of a user receive ring (rq->drv_ring, a QP's or an
 *	SRQ's) into @wqe: its wr_id, its SGEs and their count (at most
 *	rq->max_sge: @wqe has room for no more), copied out of user
 *	space's reach before rdmavt checks their keys, and free its slot.
 *	Returns false when the ring holds none.  Called under rq->lock (IRQ
 *	safe), in any context: must not sleep.
 * @user_rq_count: with @user_rq_take; the requests a user receive ring
 *	holds (the SRQ limit).  Under rq->lock, must not sleep.
 * @create_user_srq: the ring of a new user SRQ of @attr->max_wr
 *	requests of @attr->max_sge SGEs (checked against the device): the
 *	driver makes it, may raise @attr->max_wr to what it holds, sets
 *	srq->rq.drv_ring and answers the driver data.  Process context,
 *	may sleep.
 * @resize_user_srq: optional, with @create_user_srq (without it a user
 *	SRQ's max_wr is not changed: -EOPNOTSUPP); a new ring of @max_wr
 *	requests at least (checked): the driver makes it and tells user
 *	space where (the command's driver data), then under srq->rq.lock
 *	(IRQ safe) moves the requests not taken (-EINVAL when they do not
 *	fit), sets srq->rq.drv_ring and srq->rq.size, and removes the old
 *	ring.  Process context, may sleep.
 * @destroy_user_srq: with @create_user_srq; the SRQ goes (or its
 *	creation failed after @create_user_srq): the driver removes its
 *	ring.  Process context.
 * @create_user_mr: optional; answers the driver data of a new user MR
 *	(REG_MR), and may set the key byte (the low 8 bits) of its keys,
 *	mr->mr.lkey, mr->ibmr.lkey and mr->ibmr.rkey alike, before the
 *	keys are published.  Returns 0 or a negative error (the MR then
 *	goes).  Process context, may sleep.
 * @create_user_ah: optional; answers the driver data of a new user AH.
 *	On a device with driver_user_abi every user AH has a number
 *	(ah->num, from 1) by which the driver's send requests name it
 *	(struct rvt_ring_wr).  Process context; returns 0 or a negative
 *	error.
 */
struct rvt_driver_provided {
	struct rvt_dev_info *(*find_dev_by_lid)(struct rvt_dev_info *rdi,
						u32 port, u32 dlid);
	int (*check_ah)(struct ib_device *ibdev, struct rdma_ah_attr *ah_attr);
	struct rvt_dev_info *(*next_fabric_dev)(struct rvt_dev_info *rdi,
						u32 port,
						struct rvt_dev_info *prev);
	void (*dealloc)(struct rvt_dev_info *rdi);
	int (*xmit_wqe)(struct rvt_qp *qp, struct rvt_swqe *wqe);
	bool xmit_local;
	void (*xmit_flush)(struct rvt_qp *qp);
	void (*xmit_stop)(struct rvt_qp *qp);
	void (*odp_resume)(struct rvt_qp *qp);
	void *(*qp_priv_alloc)(struct rvt_dev_info *rdi, struct rvt_qp *qp);
	void (*qp_priv_free)(struct rvt_dev_info *rdi, struct rvt_qp *qp);
	void (*modify_qp)(struct rvt_qp *qp, struct ib_qp_attr *attr,
			  int attr_mask, struct ib_udata *udata);
	void (*quiesce_qp)(struct rvt_qp *qp);
	bool (*route_mad)(struct rvt_dev_info *rdi, u32 port, u32 qpn,
			  u32 slid, u32 dlid, void *mad, u32 len);

	int (*create_user_cq)(struct rvt_cq *cq, struct ib_udata *udata);
	int (*resize_user_cq)(struct rvt_cq *cq, u32 cqe,
			      struct ib_udata *udata);
	void (*destroy_user_cq)(struct rvt_cq *cq);
	bool (*user_cq_push)(struct rvt_cq *cq, const struct ib_wc *wc);
	bool (*user_cq_empty)(struct rvt_cq *cq);
	bool (*user_cq_notify)(struct rvt_cq *cq, bool solicited);
	int (*create_user_qp)(struct rvt_qp *qp, struct ib_qp_init_attr *init,
			      struct ib_udata *udata);
	void (*destroy_user_qp)(struct rvt_qp *qp);
	int (*user_sq_doorbell)(struct rvt_qp *qp);
	bool (*user_sq_retired)(struct rvt_qp *qp);
	bool (*user_rq_take)(struct rvt_rq *rq, struct rvt_rwqe *wqe);
	u32 (*user_rq_count)(struct rvt_rq *rq);
	int (*create_user_srq)(struct rvt_srq *srq, struct ib_srq_attr *attr,
			       struct ib_udata *udata);
	int (*resize_user_srq)(struct rvt_srq *srq, u32 max_wr,
			       struct ib_udata *udata);
	void (*destroy_user_srq)(struct rvt_srq *srq);
	int (*create_user_mr)(struct rvt_mr *mr, struct ib_udata *udata);
	int (*create_user_ah)(struct rvt_ah *ah, struct ib_udata *udata);
};

/**
 * struct rvt_dev_info - an rdmavt device
 * @ibdev: the RDMA device, first
 * @dparms: limits and ports
 * @driver_f: the driver's hooks
 * @qp_table: QPs by number, the SMI and GSI QPs of port p at
 *	RVT_SPECIAL_QP_INDEX(p, 0 or 1); its lock also serialises number
 *	allocation.  RCU readers may look QPs up (rvt_lookup_qpn()).
 * @next_qpn: where QP number allocation goes on (numbers 2..2^24-1)
 * @lkey_table: the memory regions by key (rvt_lkey_ok())
 * @n_pds: PDs allocated, under @n_lock
 * @n_cqs: CQs allocated, under @n_lock
 * @n_qps: QPs allocated, under @n_lock
 * @n_srqs: SRQs allocated, under @n_lock
 * @n_ahs: AHs allocated (atomic: AHs may come and go in atomic context)
 * @n_mws: memory windows allocated (atomic)
 * @n_lock: protects the counters above
 * @wq: workqueue running the QPs' send engines and CQ notifications
 * @ports: the driver's port structures (rvt_init_port()), dparms.nports
 *	entries allocated by rvt_alloc_device()
 * @n_mcast_grps_allocated: multicast groups of all ports (rdmavt's
 *	multicast counter lock, mcast.c)
 * @n_mcast_qp_attached: QP attachments of all groups (the same lock)
 * @counters: the per-QP counters (struct rvt_counter) by their ID, which
 *	rdmavt allocates (hw_counters.c)
 * @ah_table: the user AHs of a device with driver_user_abi by their
 *	number (struct rvt_ah.num); its lock (IRQ safe) also covers taking
 *	an AH for a request (rvt_ah.wqes) and the check at its destruction
 */
struct rvt_dev_info {
	struct ib_device		ibdev;
	struct rvt_driver_params	dparms;
	struct rvt_driver_provided	driver_f;

	struct xarray			qp_table;
	u32				next_qpn;

	struct rvt_lkey_table		lkey_table;

	spinlock_t			n_lock;	/* the n_* counters */
	u32				n_pds;
	u32				n_cqs;
	u32				n_qps;
	u32				n_srqs;
	atomic_t			n_ahs;
	atomic_t			n_mws;

	struct workqueue_struct		*wq;

	struct rvt_ibport		**ports;
	u32				n_mcast_grps_allocated;
	u32				n_mcast_qp_attached;
	struct xarray			counters;
	struct xarray			ah_table;
};

static inline struct rvt_dev_info *ib_to_rvt(struct ib_device *ibdev)
{
	return container_of(ibdev, struct rvt_dev_info, ibdev);
}

/* ------------------------------------------------------------------
 * Objects (the CQ, QP and SRQ are in rdmavt_cq.h and rdmavt_qp.h)
 */

/* The user ABI version of rdmavt's devices (ib_uverbs, abi_version). */
#define RVT_UVERBS_ABI_VERSION	2

/**
 * struct rvt_ucontext - a user context on an rdmavt device
 * @ibucontext: the core's part
 */
struct rvt_ucontext {
	struct ib_ucontext	ibucontext;
};

/**
 * struct rvt_pd - a protection domain
 * @ibpd: the core's part
 * @user: the PD belongs to a user context
 */
struct rvt_pd {
	struct ib_pd	ibpd;
	bool		user;
};

/**
 * struct rvt_ah - an address handle
 * @ibah: the core's part
 * @attr: the address (its GID reference is the core's, in ibah)
 * @wqes: requests of user QPs queued with it (struct rvt_swqe.ah): a
 *	user AH cannot be destroyed while there are some (-EBUSY)
 * @num: a user AH's number in rvt_dev_info.ah_table (driver_user_abi),
 *	or 0
 */
struct rvt_ah {
	struct ib_ah		ibah;
	struct rdma_ah_attr	attr;
	atomic_t		wqes;
	u32			num;
};

/* ------------------------------------------------------------------
 * API for drivers (the QP and MR parts are in rdmavt_qp.h, rdmavt_mr.h)
 */

struct rvt_dev_info *rvt_alloc_device(size_t size, int nports);
void rvt_dealloc_device(struct rvt_dev_info *rdi);
int rvt_register_device(struct rvt_dev_info *rdi);
void rvt_unregister_device(struct rvt_dev_info *rdi);
int rvt_init_port(struct rvt_dev_info *rdi, struct rvt_ibport *port,
		  int port_index, u16 *pkey_table);
int rvt_check_ah(struct ib_device *ibdev, struct rdma_ah_attr *ah_attr);
u32 rvt_port_by_lid(struct rvt_dev_info *rdi, u32 dlid);
bool rvt_deliver_mad(struct rvt_dev_info *rdi, u32 port, u32 dqpn,
		     const void *mad, u32 len, u32 slid, u32 src_qp);
void rvt_port_traffic(struct rvt_dev_info *rdi, u32 port, u64 *val);
void rvt_pma_put_classportinfo(struct ib_class_port_info *cpi);
void rvt_pma_put_counters(struct ib_pma_portcounters *pc, const u64 *v);
void rvt_pma_put_counters_ext(struct ib_pma_portcounters_ext *pc,
			      const u64 *v);
unsigned long rvt_pma_selected(const struct ib_pma_portcounters *pc);
unsigned long rvt_pma_selected_ext(const struct ib_pma_portcounters_ext *pc);
int rvt_process_mad(struct ib_device *ibdev, int mad_flags, u32 port_num,
		    const struct ib_wc *in_wc, const struct ib_grh *in_grh,
		    const struct ib_mad *in_mad, struct ib_mad *out_mad,
		    size_t *out_mad_size, u16 *out_mad_pkey_index);
struct rvt_mcast *rvt_mcast_find(struct rvt_ibport *ibp, union ib_gid *mgid,
				 u16 lid);
int rvt_attach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid);
int rvt_detach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid);
void *rvt_mmap_alloc(struct ib_udata *udata, size_t size,
		     struct rvt_mmap_entry **entry, u64 *offset);
void rvt_mmap_remove(struct rvt_mmap_entry *entry);

/* hw_counters.c: the hardware counter ops of rdmavt's drivers */
extern const struct ib_device_ops rvt_hw_counter_ops;
struct rdma_hw_stats *rvt_alloc_hw_port_stats(struct ib_device *ibdev,
					      u32 port_num);
int rvt_get_hw_stats(struct ib_device *ibdev, struct rdma_hw_stats *stats,
		     u32 port, int index);
struct rdma_hw_stats *rvt_counter_alloc_stats(struct rdma_counter *counter);
int rvt_counter_dealloc(struct rdma_counter *counter);
int rvt_counter_bind_qp(struct rdma_counter *counter, struct ib_qp *ibqp);
int rvt_counter_unbind_qp(struct ib_qp *ibqp);
int rvt_counter_update_stats(struct rdma_counter *counter);

/**
 * rvt_hw_count_port - add to a hardware counter of a port
 * @ibp: the port
 * @c: the counter
 * @n: how much
 *
 * For what belongs to no QP (a link going down, a packet no QP took).
 *
 * Context: Any context; takes no lock.
 */
static inline void rvt_hw_count_port(struct rvt_ibport *ibp,
				     enum rvt_hw_counter c, u64 n)
{
	struct rvt_hw_counters __percpu *hw = READ_ONCE(ibp->hw);

	/* none before the device is registered */
	if (hw)
		this_cpu_add(hw->c[c], n);
}

/**
 * rvt_mcast_put - drop a reference from rvt_mcast_find()
 * @mcast: the group
 */
static inline void rvt_mcast_put(struct rvt_mcast *mcast)
{
	if (atomic_dec_and_test(&mcast->refcount))
		wake_up(&mcast->wait);
}

#include <rdma/rdmavt_cq.h>
#include <rdma/rdmavt_qp.h>

#endif /* RDMA_VT_H */
