/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdmavt queue pairs, receive queues and the engine's helpers for
 * drivers: receive WQEs, RNR and retry timers, AETH credits and the
 * loopback of connected QPs.
 */
#ifndef RDMAVT_QP_H
#define RDMAVT_QP_H

#include <linux/hrtimer.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_vt.h>
#include <rdma/rvt-abi.h>

struct rvt_mmap_entry;

/* ------------------------------------------------------------------
 * The AETH (IBTA 9.7.5.1.5): syndrome in bits 31..24, MSN in 23..0.  In
 * an ACK the syndrome's low five bits are the credit code; in an RNR NAK
 * they are the RNR timer code.
 */
#define IB_AETH_CREDIT_SHIFT	24
#define IB_AETH_CREDIT_MASK	0x1F
#define IB_AETH_CREDIT_INVAL	0x1F
#define IB_AETH_NAK_SHIFT	29
#define IB_MSN_MASK		0xFFFFFF
/* syndromes, bits 31..24 of the AETH */
#define IB_RNR_NAK		0x20
#define IB_NAK_PSN_ERROR	0x60
#define IB_NAK_INVALID_REQUEST	0x61
#define IB_NAK_REMOTE_ACCESS_ERROR 0x62
#define IB_NAK_REMOTE_OPERATIONAL_ERROR 0x63

/* ------------------------------------------------------------------
 * Flags
 */

/* s_flags, under s_lock */
#define RVT_S_BUSY		0x0002	/* the send engine runs */
#define RVT_S_TIMER		0x0004	/* the retry timer is running */
#define RVT_S_WAIT_PENDING	0x0008	/* a request that completes locally
					 * waits for those in flight on a
					 * wire before it
					 */
#define RVT_S_RING_FULL		0x0010	/* a driver's user send ring has
					 * requests rdmavt's ring had no
					 * room for (@ring_work takes them)
					 */
#define RVT_S_WAIT_FAULT	0x0040	/* the send work faults in @s_miss
					 * before the engine goes on
					 */
#define RVT_S_WAIT_RNR		0x0080	/* the RNR timer is running */
#define RVT_S_WAIT_SSN_CREDIT	0x0100	/* waits for an end-to-end credit */
#define RVT_S_UNLIMITED_CREDIT	0x10000	/* the responder gives no credits */

/* r_aflags, bit numbers */
#define RVT_R_WRID_VALID	0	/* r_wr_id names a receive WQE taken */

/* r_flags: IB_EVENT_COMM_EST was raised since the QP left RESET */
#define RVT_R_COMM_EST		0x10

/*
 * What a QP state allows: ib_rvt_state_ops[state] (an enum ib_qp_state)
 * is a mask of these.  POST: the verbs take new work requests; PROCESS:
 * the engine runs them (NEXT_SEND: starts new send requests, not only
 * those under way); FLUSH: they complete as flushed.
 */
#define RVT_POST_SEND_OK		0x01
#define RVT_POST_RECV_OK		0x02
#define RVT_PROCESS_RECV_OK		0x04
#define RVT_PROCESS_SEND_OK		0x08
#define RVT_PROCESS_NEXT_SEND_OK	0x10
#define RVT_FLUSH_SEND			0x20
#define RVT_FLUSH_RECV			0x40
#define RVT_PROCESS_OR_FLUSH_SEND \
	(RVT_PROCESS_SEND_OK | RVT_FLUSH_SEND)

extern const int ib_rvt_state_ops[];

/* ------------------------------------------------------------------
 * Work queue entries
 */

/*
 * A receive work request as queued is a struct rvt_rwqe of the user ABI
 * (<rdma/rvt-abi.h>): kernel rings and the rings user space maps have
 * one layout.  Its SGEs are kept as posted; keys are checked when one is
 * taken.
 */

/**
 * struct rvt_rq - a receive queue: a ring of struct rvt_rwqe
 * @lock: protects the ring (head, tail, entries; IRQ safe); a
 *	driver's ring (@drv_ring) too: its take and count hooks run under
 *	it, an SRQ's resize takes it
 * @wqes: @size entries of @stride bytes
 * @wq: a user QP's or SRQ's ring, mapped by user space, or NULL: its
 *	entries are @wqes; user space posts and writes its head, the
 *	kernel takes from @tail and publishes it there
 * @mmap: @wq's mmap entry
 * @drv_ring: a user QP's or SRQ's ring in its driver's format
 *	(driver_user_abi), or NULL: the driver's hooks take its entries
 *	(driver_f.user_rq_take, into @scratch) and count them, under @lock;
 *	@wqes, @wq, @head and @tail are unused
 * @rdi: the device, for @drv_ring's hooks
 * @scratch: a user ring's entry as taken, copied out of user space's
 *	reach before the keys are checked (@stride bytes)
 * @size: entries (one more than the WQEs it holds)
 * @stride: bytes per entry
 * @max_sge: SGEs per entry
 * @head: next entry to post (a kernel ring's)
 * @tail: next entry to take
 */
struct rvt_rq {
	spinlock_t		lock;	/* see above */
	void			*wqes;
	struct rvt_rwq		*wq;
	struct rvt_mmap_entry	*mmap;
	void			*drv_ring;
	struct rvt_dev_info	*rdi;
	struct rvt_rwqe		*scratch;
	u32			size;
	u32			stride;
	u32			max_sge;
	u32			head;
	u32			tail;
};

/**
 * struct rvt_srq - a shared receive queue
 * @ibsrq: the core's part
 * @rq: its receive queue
 * @limit: SRQ limit armed (0: none), under rq.lock
 */
struct rvt_srq {
	struct ib_srq	ibsrq;
	struct rvt_rq	rq;
	u32		limit;
};

/**
 * struct rvt_flush_wr - an RDMA FLUSH request (IB_WR_FLUSH, IBA 1.5
 *	annex A19) as a kernel user posts it to an rdmavt device that has
 *	IB_DEVICE_FLUSH_GLOBAL or IB_DEVICE_FLUSH_PERSISTENT
 * @wr: the request; no SGEs (num_sge 0)
 * @remote_addr: the first byte of the range
 * @length: the range's bytes (level IB_FLUSH_RANGE)
 * @rkey: the remote key of the range or region
 * @type: the placement type: IB_FLUSH_GLOBAL, IB_FLUSH_PERSISTENT or both
 * @level: the selectivity level: IB_FLUSH_RANGE or IB_FLUSH_MR (the whole
 *	region of @rkey)
 *
 * The kernel verbs have no request type of their own for a FLUSH (upstream
 * rxe takes its fields from user space only); this one carries the fields
 * of upstream rxe's user ABI.  An ATOMIC WRITE (IB_WR_ATOMIC_WRITE) is a
 * struct ib_rdma_wr whose SGEs (or inline data) hold exactly the 8 bytes
 * to write.
 */
struct rvt_flush_wr {
	struct ib_send_wr	wr;
	u64			remote_addr;
	u32			length;
	u32			rkey;
	u8			type;
	u8			level;
};

/**
 * struct rvt_bind_wr - IB_WR_BIND_MW: bind a memory window (rdmavt's;
 *	the kernel's verbs have no such request)
 * @wr: the request's common part, opcode IB_WR_BIND_MW
 * @addr: the window's first address, an address of the MR (with
 *	IB_ZERO_BASED, remote accesses name the offset from it)
 * @length: its bytes; 0 unbinds a type 1 window
 * @mw_rkey: the window's current rkey
 * @rkey: its new rkey: only the key byte (low 8 bits) is taken
 * @mr_lkey: the MR it is bound to (with IB_ACCESS_MW_BIND)
 * @access: the remote access it grants (IB_ACCESS_REMOTE_*,
 *	IB_ZERO_BASED)
 */
struct rvt_bind_wr {
	struct ib_send_wr	wr;
	u64			addr;
	u64			length;
	u32			mw_rkey;
	u32			rkey;
	u32			mr_lkey;
	int			access;
};

static inline const struct rvt_bind_wr *
rvt_bind_wr(const struct ib_send_wr *wr)
{
	return container_of(wr, struct rvt_bind_wr, wr);
}

static inline const struct rvt_flush_wr *
rvt_flush_wr(const struct ib_send_wr *wr)
{
	return container_of(wr, struct rvt_flush_wr, wr);
}

/**
 * struct rvt_swqe - a send work request as queued
 * @wr: the request (with @rdma_wr, @atomic_wr, @flush_wr, @ud_wr or
 *	@reg_wr by opcode); wr.sg_list points at the SGEs as posted, kept
 *	in the slot.  Once the engine has checked them, wr.num_sge counts
 *	@sg_list.
 * @rdma_wr: see @wr
 * @atomic_wr: see @wr
 * @flush_wr: see @wr
 * @ud_wr: see @wr
 * @reg_wr: see @wr
 * @bind_wr: see @wr
 * @length: bytes of the request's data
 * @resolved: @sg_list holds the checked SGEs, each referencing its MR
 *	until the request completes (inline data: one SGE of no MR, set at
 *	post time)
 * @executed: a REG_MR the engine executed when it handed
 *	it to a wire driver that takes them (driver_f.xmit_local), ahead
 *	of its completion; its result is @status
 * @status: see @executed
 * @ah: the address handle of a user QP's datagram, held (struct
 *	rvt_ah.wqes) until the request completes: user space may destroy
 *	it at any time; NULL otherwise (a kernel consumer keeps its AHs)
 * @refused: a malformed request of a driver's user ring
 *	(rvt_post_ring_wr()): it does not run; it completes with @status
 *	once the requests before it completed, and the QP goes to the
 *	error state
 * @sg_list: the checked SGEs (adjacent ones merged)
 */
struct rvt_swqe {
	union {
		struct ib_send_wr	wr;
		struct ib_rdma_wr	rdma_wr;
		struct ib_atomic_wr	atomic_wr;
		struct rvt_flush_wr	flush_wr;
		struct ib_ud_wr		ud_wr;
		struct ib_reg_wr	reg_wr;
		struct rvt_bind_wr	bind_wr;
	};
	u32		length;
	bool		resolved;
	bool		executed;
	bool		refused;
	enum ib_wc_status status;
	struct rvt_ah	*ah;
	struct rvt_sge	sg_list[];
};

/**
 * struct rvt_qp - a queue pair
 * @ibqp: the core's part
 * @rdi: the device
 * @refcount: users (the QP table and senders delivering to it)
 * @wait: destroy waits here for @refcount to drop to zero
 * @state_lock: protects @state, @r_flags and the attributes below it
 * @state: current state
 * @qkey: Q_Key (UD)
 * @remote_qpn: peer QP (RC, UC)
 * @qp_access_flags: remote access allowed to the peer
 * @port_num: port
 * @pkey_index: P_Key index
 * @path_mtu: path MTU
 * @timeout: local ACK timeout (4.096 us << @timeout)
 * @timeout_jiffies: @timeout in jiffies
 * @s_retry_cnt: transport retries (retry_cnt)
 * @s_rnr_retry_cnt: RNR retries (rnr_retry; 7 is for ever)
 * @r_min_rnr_timer: RNR NAK timer code this QP answers with
 * @max_rd_atomic: initiator depth
 * @max_dest_rd_atomic: responder depth
 * @sq_psn: send PSN
 * @rq_psn: receive PSN
 * @remote_ah_attr: primary path
 * @sq_sig_all: every send completes
 * @r_flags: RVT_R_* flags, under @state_lock
 *
 * @s_lock: protects the send ring (@sq_head, @sq_tail), @s_flags,
 *	@s_lsn and the timers' arming, and the freeing of a driver's user
 *	send ring's slots (driver_f.user_sq_retired runs under it).  IRQ
 *	safe.
 * @sq: the send ring, @sq_size entries of @sq_stride bytes
 * @sq_size: entries of @sq
 * @max_send_wr: the send queue's depth as created: @sq_size - 1, or
 *	for a driver's user send ring (@drv_sq) that ring's, of which @sq
 *	holds a window (RVT_DRV_SQ_WINDOW requests at most)
 * @sq_stride: bytes per entry
 * @sq_head: next entry to post
 * @sq_tail: oldest entry not completed
 * @sq_cur: next entry the engine runs; the entries from @sq_tail up to
 *	it were handed to the driver's xmit_wqe and are the driver's (it
 *	reads them in place) until it gives them back with
 *	rvt_send_complete() or in xmit_stop (without xmit_wqe it equals
 *	@sq_tail)
 * @max_send_sge: SGEs per send
 * @max_inline: inline bytes per send
 * @drv_sq: a user QP's send ring in its driver's format
 *	(driver_user_abi: driver_f.create_user_qp), or NULL: the QP's
 *	requests come from it alone, through the doorbell
 *	(driver_f.user_sq_doorbell, rvt_post_ring_wr())
 * @ring_work: rings the driver's doorbell again once a request retires
 *	from a full @sq while @drv_sq has more (RVT_S_RING_FULL), or when
 *	driver_f.user_sq_retired says @drv_sq holds requests no doorbell
 *	announces
 * @s_flags: RVT_S_* flags
 * @s_lsn: limit sequence number: the last SSN the responder's credits
 *	cover
 * @s_rnr_timer: RNR NAK timer (rvt_add_rnr_timer())
 * @s_timer: retry timer (local ACK timeout)
 * @send_work: the send engine; it never runs twice at a time, so the
 *	fields below are its own
 * @s_sge: the requester's walk over the SGEs of the request it runs
 * @s_rnr_retry: RNR retries left for the request at @sq_tail
 * @s_retry: transport retries left for the request at @sq_tail
 * @s_miss: the pages of an on-demand paging MR the request at @sq_tail
 *	(or a datagram the engine dropped) did not find: with
 *	RVT_S_WAIT_FAULT the send work faults them in, then the request
 *	runs again from its start.  With a wire driver: a page its data
 *	path or the scheduler missed, set under s_lock while
 *	RVT_S_WAIT_FAULT is clear (rvt_odp_miss_fault()); after a fault
 *	that failed it stays (@s_miss.failed) for the next miss in its
 *	range
 * @s_fault_status: IB_WC_SUCCESS, or, after a fault of the request at
 *	@sq_tail failed (a page the process does not have), the status it
 *	completes with when it misses again: IB_WC_LOC_PROT_ERR for the
 *	requester's memory, IB_WC_REM_ACCESS_ERR for the responder's
 * @s_atomic_held: an atomic of the request at @sq_tail was executed but
 *	its result missed the requester's page: @s_atomic_old holds it and
 *	the replay does not execute the atomic again
 * @s_atomic_old: see @s_atomic_held
 * @sqd_notify: the move to SQD asked for IB_EVENT_SQ_DRAINED; the send
 *	engine raises it (once) when it stops for SQD
 *
 * @r_lock: protects the responder's state below: whoever delivers to
 *	the QP holds it from rvt_get_rwqe() to the receive completion.
 *	A BH lock (spin_lock_bh()); taken before a receive ring's lock.
 * @rq: the receive queue (unused with an SRQ)
 * @r_sge: the responder's walk over the receive WQE it took, from its
 *	start; its SGEs hold the MR references until the receive completes
 * @r_cur: the placement cursor in that WQE (rvt_recv_place())
 * @r_cur_off: the message offset @r_cur stands at
 * @r_sg_list: the checked SGEs of that receive WQE (RVT_MAX_RECV_SGE)
 * @r_wr_id: the ID of that receive WQE
 * @r_len: its bytes
 * @r_aflags: RVT_R_WRID_VALID
 * @r_msn: message sequence number of the responder
 * @priv: the driver's state of the QP (driver_f.qp_priv_alloc), or NULL
 * @hw_cnt: the per-QP counter the QP is bound to (RCU), NULL when it
 *	counts in its port's counters (hw_counters.c)
 */
struct rvt_qp {
	struct ib_qp		ibqp;
	struct rvt_dev_info	*rdi;
	refcount_t		refcount;
	wait_queue_head_t	wait;

	spinlock_t		state_lock;	/* see above */
	enum ib_qp_state	state;
	u32			qkey;
	u32			remote_qpn;
	int			qp_access_flags;
	u32			port_num;
	u16			pkey_index;
	enum ib_mtu		path_mtu;
	u8			timeout;
	unsigned long		timeout_jiffies;
	u8			s_retry_cnt;
	u8			s_rnr_retry_cnt;
	u8			r_min_rnr_timer;
	u8			max_rd_atomic;
	u8			max_dest_rd_atomic;
	u32			sq_psn;
	u32			rq_psn;
	struct rdma_ah_attr	remote_ah_attr;
	bool			sq_sig_all;
	u32			r_flags;

	spinlock_t		s_lock;		/* see above */
	void			*sq;
	u32			sq_size;
	u32			max_send_wr;
	u32			sq_stride;
	u32			sq_head;
	u32			sq_tail;
	u32			sq_cur;
	u32			max_send_sge;
	u32			max_inline;
	void			*drv_sq;
	struct work_struct	ring_work;
	u32			s_flags;
	u32			s_lsn;
	struct hrtimer		s_rnr_timer;
	struct timer_list	s_timer;

	struct delayed_work	send_work;
	struct rvt_sge_state	s_sge;
	int			s_rnr_retry;
	int			s_retry;
	struct rvt_odp_miss	s_miss;
	enum ib_wc_status	s_fault_status;
	bool			s_atomic_held;
	u64			s_atomic_old;
	atomic_t		sqd_notify;

	spinlock_t		r_lock;		/* see above */
	struct rvt_rq		rq;
	struct rvt_sge_state	r_sge;
	struct rvt_sge_state	r_cur;
	u32			r_cur_off;
	struct rvt_sge		*r_sg_list;
	u64			r_wr_id;
	u32			r_len;
	unsigned long		r_aflags;
	u32			r_msn;

	void			*priv;
	struct rvt_counter __rcu *hw_cnt;
};

/**
 * rvt_hw_count - add to a hardware counter of a QP
 * @qp: the QP
 * @c: the counter
 * @n: how much
 *
 * Counts in the QP's per-QP counter if it is bound to one, else in its
 * port's counters.  One per-CPU add, no lock: the engine's paths and the
 * wire drivers call it where the event happens.
 *
 * Context: Any context.
 */
static inline void rvt_hw_count(struct rvt_qp *qp, enum rvt_hw_counter c,
				u64 n)
{
	struct rvt_counter *cnt;

	rcu_read_lock();
	cnt = rcu_dereference(qp->hw_cnt);
	if (cnt)
		this_cpu_add(cnt->pcpu->c[c], n);
	else if (qp->port_num)
		rvt_hw_count_port(qp->rdi->ports[qp->port_num - 1], c, n);
	rcu_read_unlock();
}

/**
 * rvt_hw_count_send - count a SEND that completed successfully
 * @qp: the QP
 * @wqe: the request completing
 * @status: its status
 *
 * Context: Any context.
 */
static inline void rvt_hw_count_send(struct rvt_qp *qp, struct rvt_swqe *wqe,
				     enum ib_wc_status status)
{
	enum ib_wr_opcode op = wqe->wr.opcode;

	if (status == IB_WC_SUCCESS &&
	    (op == IB_WR_SEND || op == IB_WR_SEND_WITH_IMM ||
	     op == IB_WR_SEND_WITH_INV))
		rvt_hw_count(qp, RVT_CNT_RDMA_SEND, 1);
}

/* inline bytes a send request may carry at most (max_inline_data) */
#define RVT_MAX_INLINE		256

/*
 * Requests rdmavt holds at most of a driver's user send ring (its own
 * ring's window on it): the rest stay in the user ring until requests
 * retire.  More than perftest's default depth (128).
 */
#define RVT_DRV_SQ_WINDOW	256

/**
 * struct rvt_ring_wr - a send request a driver took from a user QP's
 *	send ring in its own format, for rvt_post_ring_wr()
 * @wr: the request, with @rdma_wr, @atomic_wr, @flush_wr, @ud_wr or
 *	@bind_wr by opcode and QP type as a kernel consumer posts it
 *	(rdmavt checks it as it checks those).  The SGEs (wr.sg_list, in the driver's
 *	memory until the call returns) name registered memory by user
 *	address and lkey; with IB_SEND_INLINE they point at a kernel copy
 *	of the inline data instead.  A datagram's ud_wr.ah is left NULL:
 *	@ah_num names the AH
 * @rdma_wr: see @wr
 * @atomic_wr: see @wr
 * @flush_wr: see @wr
 * @ud_wr: see @wr
 * @bind_wr: see @wr
 * @ah_num: a datagram's user AH (struct rvt_ah.num, of the QP's PD)
 * @status: IB_WC_SUCCESS; or the status of a malformed request, which
 *	completes with it without running (wr.wr_id, wr.opcode and
 *	wr.send_flags still count)
 */
struct rvt_ring_wr {
	union {
		struct ib_send_wr	wr;
		struct ib_rdma_wr	rdma_wr;
		struct ib_atomic_wr	atomic_wr;
		struct rvt_flush_wr	flush_wr;
		struct ib_ud_wr		ud_wr;
		struct rvt_bind_wr	bind_wr;
	};
	u32			ah_num;
	enum ib_wc_status	status;
};

/*
 * SGEs of a receive WQE rdmavt takes (the QP's r_sg_list): as many as a
 * receive queue or SRQ may have (the device's max_recv_sge and
 * max_srq_sge are at most RVT_MAX_SGE, vt.h)
 */
#define RVT_MAX_RECV_SGE	32

/**
 * struct rvt_qp_iter - a walk over the QPs of a device
 * @qp: the current QP, referenced until the next step
 *
 * Everything else is private to rvt_qp_iter_next().
 */
struct rvt_qp_iter {
	struct rvt_qp		*qp;
	/* private: */
	struct rvt_dev_info	*rdi;
	void			(*cb)(struct rvt_qp *qp, u64 v);
	u64			v;
	unsigned long		n;
	bool			started;
};

/* ------------------------------------------------------------------
 * API for drivers
 */

int rvt_error_qp(struct rvt_qp *qp, enum ib_wc_status err);
void rvt_comm_est(struct rvt_qp *qp);
int rvt_get_rwqe(struct rvt_qp *qp, bool wr_id_only);
void rvt_ruc_loopback(struct rvt_qp *sqp);
__be32 rvt_compute_aeth(struct rvt_qp *qp);
void rvt_get_credit(struct rvt_qp *qp, u32 aeth);
unsigned long rvt_rnr_tbl_to_usec(u32 index);
void rvt_kick_sq(struct rvt_qp *qp);
void rvt_add_rnr_timer(struct rvt_qp *qp, u32 aeth);
void rvt_add_retry_timer_ext(struct rvt_qp *qp, u8 shift);
enum hrtimer_restart rvt_rc_rnr_retry(struct hrtimer *t);
void rvt_rc_error(struct rvt_qp *qp, enum ib_wc_status err);
void rvt_stop_rc_timers(struct rvt_qp *qp);
void rvt_del_timers_sync(struct rvt_qp *qp);
struct rvt_qp_iter *rvt_qp_iter_init(struct rvt_dev_info *rdi, u64 v,
				     void (*cb)(struct rvt_qp *qp, u64 v));
int rvt_qp_iter_next(struct rvt_qp_iter *iter);
void rvt_qp_iter(struct rvt_dev_info *rdi, u64 v,
		 void (*cb)(struct rvt_qp *qp, u64 v));

/* ------------------------------------------------------------------
 * The wire-driver boundary
 *
 * rdmavt owns the QP, CQ, SRQ and MR tables, the SGE walks and key
 * checks, completions and flushes; a wire driver (soft-iWARP) owns the
 * transport only: segments, their framing, the socket.  The boundary:
 *
 * Transmit.  With rvt_driver_provided.xmit_wqe set, the engine hands
 * every request but REG_MR and LOCAL_INV to the driver, in order, with
 * its local SGEs checked and referenced (wqe->sg_list, walk it with
 * rvt_restart_sge()) instead of delivering it in memory.  The request
 * stays in its slot of the send ring and is the driver's from then on:
 * the driver reads it there (rvt_get_swqe_ptr(), rvt_swqe_index() give
 * the slot and its index, for a per-slot state of the driver's) and the
 * engine neither changes nor flushes it, until the driver gives it back:
 * with rvt_send_complete() when its transport says it is done, in order
 * (in the error state: all of them, after xmit_flush), or all at once
 * when xmit_stop returns (RESET, destroy).  Without the
 * hook (the loop driver) the engine delivers in memory.
 *
 * Receive.  A segment that arrives is placed by the driver through:
 *   rvt_recv_begin(), rvt_recv_place(), rvt_recv_complete()
 *	untagged (SEND) payload into the next receive WQE of the QP or
 *	its SRQ, at the message offset, completing with the last piece
 *	(under qp->r_lock, which the driver takes around each call);
 *   rvt_write_place()
 *	a tagged (RDMA WRITE) segment through an rkey;
 *   rvt_read_fetch()
 *	the bytes of an RDMA READ response from an rkey'd region;
 *   rvt_read_source()
 *	or the checked region itself, as a walk holding its MR, for a
 *	driver that sends from the pages;
 *   rvt_atomic_execute()
 *	an atomic operation on 8 bytes of an rkey'd region;
 *   rvt_atomic_write()
 *	an ATOMIC WRITE of 8 bytes into an rkey'd region;
 *   rvt_flush_execute()
 *	an RDMA FLUSH of an rkey'd range or region.
 * Each returns the status of the check that failed, as the requester
 * would see it; nothing is placed then.
 *
 * Errors.  A transport error (connection lost, terminate received) is
 * reported with rvt_send_complete() of the failing request, if any, with
 * its status, then rvt_error_qp(): the QP goes to the error state and
 * every receive, a half placed one included, completes as flushed.  In
 * the error state (whoever caused it) the engine calls xmit_flush and
 * the driver gives back the requests it holds, in order: those its peer
 * finished with their status, the others with IB_WC_WR_FLUSH_ERR.  The
 * engine waits for that, then flushes the requests it never handed
 * over.  A driver that
 * never gives them back holds the send queue's completions, not a
 * reset or destroy: xmit_stop ends its hold there.
 */

void rvt_send_complete(struct rvt_qp *qp, struct rvt_swqe *wqe,
		       enum ib_wc_status status);
int rvt_post_ring_wr(struct rvt_qp *qp, struct rvt_ring_wr *rwr);
int rvt_recv_begin(struct rvt_qp *qp, bool wr_id_only);
enum ib_wc_status rvt_recv_place(struct rvt_qp *qp, u32 offset,
				 const void *data, u32 len);
enum ib_wc_status rvt_recv_complete(struct rvt_qp *qp, struct ib_wc *wc,
				    bool solicited);
enum ib_wc_status rvt_write_place(struct rvt_qp *qp, u32 rkey, u64 vaddr,
				  const void *data, u32 len);
enum ib_wc_status rvt_read_fetch(struct rvt_qp *qp, u32 rkey, u64 vaddr,
				 void *buf, u32 len);
enum ib_wc_status rvt_read_source(struct rvt_qp *qp, u32 rkey, u64 vaddr,
				  u32 len, struct rvt_sge_state *ss);
enum ib_wc_status rvt_atomic_execute(struct rvt_qp *qp, u32 rkey, u64 vaddr,
				     bool cmp_swap, u64 compare_add, u64 swap,
				     u64 *orig);
enum ib_wc_status rvt_atomic_write(struct rvt_qp *qp, u32 rkey, u64 vaddr,
				   const void *val);
enum ib_wc_status rvt_flush_execute(struct rvt_qp *qp, u32 rkey, u64 vaddr,
				    u32 len, u32 type, u32 level);

/*
 * What the helpers above answer, instead of a completion status, when a
 * page of an on-demand paging MR is not mapped (only on a device that
 * offers them): the access did nothing that cannot be done again, the
 * QP's send work faults the page in (rvt_odp_miss_fault()), and the
 * driver has the access tried again later: an RNR NAK for an RC
 * request, a datagram or UC packet dropped, a response dropped (the
 * requester retries).  Never a completion's status.
 */
#define RVT_WC_PAGE_MISS	((enum ib_wc_status)0x100)

enum ib_wc_status rvt_odp_miss_fault(struct rvt_qp *qp, struct rvt_sge *sge,
				     bool write, bool remote);

/*
 * Where the SMI (0) and GSI (1) QP of port @port sit in the QP table:
 * beyond the 24-bit QP numbers, so that every port has its own.
 */
#define RVT_SPECIAL_QP_INDEX(port, qpn) \
	((1UL << 24) + 2UL * ((port) - 1) + (qpn))

/**
 * rvt_get_swqe_ptr - a slot of a QP's send ring
 * @qp: the QP
 * @n: the slot's index, below qp->sq_size
 *
 * Context: any; the caller owns the slot (a driver: a request it holds).
 * Return: the request in slot @n.
 */
static inline struct rvt_swqe *rvt_get_swqe_ptr(struct rvt_qp *qp, u32 n)
{
	return qp->sq + (size_t)n * qp->sq_stride;
}

/**
 * rvt_swqe_index - the index of a request in its QP's send ring
 * @qp: the QP
 * @wqe: a request of @qp's send ring (as xmit_wqe got it)
 *
 * Context: any.
 * Return: its slot's index, below qp->sq_size.
 */
static inline u32 rvt_swqe_index(struct rvt_qp *qp, const struct rvt_swqe *wqe)
{
	return ((const void *)wqe - qp->sq) / qp->sq_stride;
}

/**
 * rvt_sq_next_index - the slot after another in a QP's send ring
 * @qp: the QP
 * @n: a slot's index
 *
 * Context: any.
 * Return: the index of the slot after @n (the ring wraps).
 */
static inline u32 rvt_sq_next_index(struct rvt_qp *qp, u32 n)
{
	return n + 1 == qp->sq_size ? 0 : n + 1;
}

/**
 * ibqp_to_rvtqp - the rdmavt QP of a verbs QP
 * @ibqp: a QP of an rdmavt device
 *
 * Return: the rvt_qp that embeds @ibqp.
 */
static inline struct rvt_qp *ibqp_to_rvtqp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct rvt_qp, ibqp);
}

/**
 * rvt_lookup_qpn - find a QP by number
 * @rdi: the device
 * @rvp: the port, for QP numbers 0 and 1 (its SMI and GSI QP)
 * @qpn: the QP number
 *
 * Call it under rcu_read_lock(): the QP found stays valid until the RCU
 * read side ends (destroy waits for a grace period after it took the QP
 * out of the table).  Take a reference with rvt_get_qp() to keep it
 * longer.
 *
 * Return: the QP or NULL.
 */
static inline struct rvt_qp *rvt_lookup_qpn(struct rvt_dev_info *rdi,
					    struct rvt_ibport *rvp, u32 qpn)
	__must_hold(RCU)
{
	unsigned long index = qpn;

	if (qpn <= 1)
		index = RVT_SPECIAL_QP_INDEX(rvp->port_num, qpn);
	return xa_load(&rdi->qp_table, index);
}

/**
 * rvt_get_qp - take a reference on a QP
 * @qp: a QP from rvt_lookup_qpn() in the same RCU read side, or one the
 *	caller holds a reference on
 */
static inline void rvt_get_qp(struct rvt_qp *qp)
{
	refcount_inc(&qp->refcount);
}

/**
 * rvt_put_qp - drop a reference from rvt_get_qp()
 * @qp: the QP, or NULL
 */
static inline void rvt_put_qp(struct rvt_qp *qp)
{
	if (qp && refcount_dec_and_test(&qp->refcount))
		wake_up(&qp->wait);
}

/**
 * rvt_aeth_to_usec - the RNR NAK timer an AETH asks for
 * @aeth: the AETH (host order); its credit field holds the timer code
 *
 * Return: the time in microseconds (IBTA table 45).
 */
static inline unsigned long rvt_aeth_to_usec(u32 aeth)
{
	return rvt_rnr_tbl_to_usec((aeth >> IB_AETH_CREDIT_SHIFT) &
				   IB_AETH_CREDIT_MASK);
}

/**
 * rvt_cmp_msn - compare two 24-bit sequence numbers
 * @a: one
 * @b: the other
 *
 * Return: negative, zero or positive as @a is before, at or after @b,
 * modulo 2^24.
 */
static inline int rvt_cmp_msn(u32 a, u32 b)
{
	return (int)((a - b) << 8);
}

#endif /* RDMAVT_QP_H */
