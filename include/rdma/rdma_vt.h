/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdmavt: the verbs transport library shared by software RDMA drivers.
 *
 * rdmavt implements the verbs objects (PD, CQ, QP, SRQ, MR, AH) and the
 * work request engine of a device: posting, SGE walking with key and
 * access checks, the operations of RC, UC and UD QPs, completions,
 * errors and flushing.  A driver allocates a device with
 * rvt_alloc_device(), describes its ports and limits in rvt_dev_info,
 * supplies the hooks of struct rvt_driver_provided (at least how to reach
 * the device behind a destination LID) and registers it with
 * rvt_register_device().
 *
 * Every device of rdmavt uses virtual DMA: addresses in SGEs and MR page
 * lists are kernel virtual addresses.
 */
#ifndef RDMA_VT_H
#define RDMA_VT_H

#include <linux/kref.h>
#include <linux/rbtree.h>
#include <linux/rculist.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

struct rvt_dev_info;
struct rvt_qp;

/**
 * struct rvt_ibport - the rdmavt state of one port
 * @lock: protects @mcast_tree and the member lists of its groups (their
 *	writers; senders walk a group's QPs under RCU); process context
 * @mcast_tree: the multicast groups of the port (struct rvt_mcast) by MGID
 * @pkey_table: the port's P_Key table (the driver's; index 0 is used), or
 *	NULL for the default P_Key only
 *
 * The driver embeds one per port and hands it to rvt_init_port() before
 * rvt_register_device(); it lives as long as the device.
 */
struct rvt_ibport {
	spinlock_t	lock;	/* see above */
	struct rb_root	mcast_tree;
	u16		*pkey_table;
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
 * @lid: LID of each port (index 0 is port 1); a port's LID must be
 *	unique among the devices the driver connects
 * @gid_prefix: subnet prefix of the port GIDs
 */
struct rvt_driver_params {
	struct ib_device_attr	props;
	u32			nports;
	int			node;
	u32			lid[4];
	u64			gid_prefix;
};

/**
 * struct rvt_driver_provided - hooks of the driver
 * @find_dev_by_lid: the device owning a destination LID, or NULL when
 *	unreachable; called in process context, the device must stay
 *	registered while any QP may send to it
 * @port_state: state of a port (IB_PORT_ACTIVE when NULL)
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
 *	and wait out the readers (synchronize_rcu()) here.
 */
struct rvt_driver_provided {
	struct rvt_dev_info *(*find_dev_by_lid)(struct rvt_dev_info *rdi,
						u32 port, u32 dlid);
	enum ib_port_state (*port_state)(struct rvt_dev_info *rdi, u32 port);
	int (*check_ah)(struct ib_device *ibdev, struct rdma_ah_attr *ah_attr);
	struct rvt_dev_info *(*next_fabric_dev)(struct rvt_dev_info *rdi,
						u32 port,
						struct rvt_dev_info *prev);
	void (*dealloc)(struct rvt_dev_info *rdi);
};

/**
 * struct rvt_dev_info - an rdmavt device
 * @ibdev: the RDMA device, first
 * @dparms: limits and ports
 * @driver_f: the driver's hooks
 * @qp_table: QPs by number; its lock also serialises number allocation
 * @next_qpn: where QP number allocation goes on (numbers 2..2^24-1)
 * @gsi_qp: the GSI QP of each port, or NULL
 * @key_table: MRs by key index (key >> 8)
 * @next_key: where key index allocation goes on
 * @n_pds: PDs allocated, under @n_lock
 * @n_cqs: CQs allocated, under @n_lock
 * @n_qps: QPs allocated, under @n_lock
 * @n_srqs: SRQs allocated, under @n_lock
 * @n_ahs: AHs allocated (atomic: AHs may come and go in atomic context)
 * @n_lock: protects the counters above
 * @wq: workqueue running the QPs' send engines and CQ notifications
 * @ports: the driver's port structures (rvt_init_port()), dparms.nports
 *	entries allocated by rvt_alloc_device()
 * @n_mcast_grps_allocated: multicast groups of all ports, under @n_lock
 * @n_mcast_qp_attached: QP attachments of all groups, under @n_lock
 */
struct rvt_dev_info {
	struct ib_device		ibdev;
	struct rvt_driver_params	dparms;
	struct rvt_driver_provided	driver_f;

	struct xarray			qp_table;
	u32				next_qpn;
	struct rvt_qp			*gsi_qp[4];

	struct xarray			key_table;
	u32				next_key;

	spinlock_t			n_lock;	/* the n_* counters */
	u32				n_pds;
	u32				n_cqs;
	u32				n_qps;
	u32				n_srqs;
	atomic_t			n_ahs;

	struct workqueue_struct		*wq;

	struct rvt_ibport		**ports;
	u32				n_mcast_grps_allocated;
	u32				n_mcast_qp_attached;
};

static inline struct rvt_dev_info *ib_to_rvt(struct ib_device *ibdev)
{
	return container_of(ibdev, struct rvt_dev_info, ibdev);
}

/* ------------------------------------------------------------------
 * Objects
 */

struct rvt_pd {
	struct ib_pd	ibpd;
};

struct rvt_ah {
	struct ib_ah		ibah;
	struct rdma_ah_attr	attr;
};

/**
 * struct rvt_cq - a completion queue
 * @ibcq: the core's part
 * @lock: protects the ring and @notify
 * @queue: ring of @size entries (one more than ibcq.cqe)
 * @head: next entry to write
 * @tail: next entry to poll
 * @size: entries of @queue
 * @notify: armed notification (IB_CQ_SOLICITED or IB_CQ_NEXT_COMP), 0
 * @comp_work: calls the completion handler outside the poster's context
 * @rdi: the device
 */
struct rvt_cq {
	struct ib_cq		ibcq;
	spinlock_t		lock;	/* see above */
	struct ib_wc		*queue;
	u32			head;
	u32			tail;
	u32			size;
	u8			notify;
	struct work_struct	comp_work;
	struct rvt_dev_info	*rdi;
};

/**
 * struct rvt_mr - a memory region
 * @ibmr: the core's part
 * @refcount: users; the key table holds one
 * @released: completed when the last user is gone
 * @key: the key of the current registration.  The core picks the key of
 *	the next one into ibmr.lkey/rkey (ib_update_fast_reg_key()) before
 *	posting its IB_WR_REG_MR, so until that executes the live key is
 *	only here; checks and invalidations go by it.
 * @access: IB access flags of the current registration
 * @dma: covers all of kernel memory (get_dma_mr)
 * @valid: a fast registration MR is registered (not invalidated)
 * @pages: page addresses of a fast registration
 * @npages: pages mapped
 * @max_pages: room in @pages
 */
struct rvt_mr {
	struct ib_mr		ibmr;
	refcount_t		refcount;
	struct completion	released;
	u32			key;
	int			access;
	bool			dma;
	bool			valid;
	u64			*pages;
	u32			npages;
	u32			max_pages;
};

/* A receive work request as queued. */
struct rvt_rwqe {
	u64		wr_id;
	u32		num_sge;
	struct ib_sge	sg_list[];
};

/* A receive queue: a ring of rvt_rwqe of @stride bytes each. */
struct rvt_rq {
	spinlock_t	lock;	/* the ring */
	void		*wqes;
	u32		size;
	u32		stride;
	u32		max_sge;
	u32		head;
	u32		tail;
};

/**
 * struct rvt_srq - a shared receive queue
 * @ibsrq: the core's part
 * @rq: its receive queue
 * @limit: SRQ limit armed (0: none)
 */
struct rvt_srq {
	struct ib_srq	ibsrq;
	struct rvt_rq	rq;
	u32		limit;
};

/* A send work request as queued: the request, its SGEs and inline data. */
struct rvt_swqe {
	union {
		struct ib_send_wr	wr;
		struct ib_rdma_wr	rdma_wr;
		struct ib_atomic_wr	atomic_wr;
		struct ib_ud_wr		ud_wr;
		struct ib_reg_wr	reg_wr;
	};
	u32		length;
	bool		is_inline;
	struct ib_sge	sg_list[];
};

/**
 * struct rvt_qp - a queue pair
 * @ibqp: the core's part
 * @rdi: the device
 * @refcount: users (the QP table and senders delivering to it)
 * @wait: destroy waits here for @refcount to drop to zero
 * @state_lock: protects @state and the attributes below it
 * @state: current state
 * @qkey: Q_Key (UD)
 * @dest_qpn: peer QP (RC, UC)
 * @qp_access_flags: remote access allowed to the peer
 * @port_num: port
 * @pkey_index: P_Key index
 * @path_mtu: path MTU
 * @timeout: local ACK timeout
 * @retry_cnt: transport retries
 * @rnr_retry: RNR retries (7: for ever)
 * @min_rnr_timer: RNR NAK timer
 * @max_rd_atomic: initiator depth
 * @max_dest_rd_atomic: responder depth
 * @sq_psn: send PSN
 * @rq_psn: receive PSN
 * @ah_attr: primary path
 * @sq_sig_all: every send completes
 * @sq: the send queue ring, protected by @sq_lock
 * @sq_lock: protects the send queue ring
 * @sq_size: entries of @sq
 * @sq_stride: bytes per entry
 * @sq_head: next entry to post
 * @sq_tail: next entry to process
 * @max_send_sge: SGEs per send
 * @max_inline: inline bytes per send
 * @rq: the receive queue (unused with an SRQ)
 * @send_work: the send engine
 * @rnr_left: RNR retries left for the request at @sq_tail
 * @sqd_notify: the move to SQD asked for IB_EVENT_SQ_DRAINED; the send
 *	engine raises it (once) when it stops for SQD
 * @r_flags: receive side flags (RVT_R_*), under @state_lock
 */
struct rvt_qp {
	struct ib_qp		ibqp;
	struct rvt_dev_info	*rdi;
	refcount_t		refcount;
	wait_queue_head_t	wait;

	spinlock_t		state_lock;	/* see above */
	enum ib_qp_state	state;
	u32			qkey;
	u32			dest_qpn;
	int			qp_access_flags;
	u32			port_num;
	u16			pkey_index;
	enum ib_mtu		path_mtu;
	u8			timeout;
	u8			retry_cnt;
	u8			rnr_retry;
	u8			min_rnr_timer;
	u8			max_rd_atomic;
	u8			max_dest_rd_atomic;
	u32			sq_psn;
	u32			rq_psn;
	struct rdma_ah_attr	ah_attr;
	bool			sq_sig_all;

	spinlock_t		sq_lock;	/* the send queue ring */
	void			*sq;
	u32			sq_size;
	u32			sq_stride;
	u32			sq_head;
	u32			sq_tail;
	u32			max_send_sge;
	u32			max_inline;

	struct rvt_rq		rq;

	struct delayed_work	send_work;
	int			rnr_left;
	atomic_t		sqd_notify;
	u32			r_flags;
};

/* r_flags: IB_EVENT_COMM_EST was raised since the QP left RESET */
#define RVT_R_COMM_EST	0x10

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

struct rvt_dev_info *rvt_alloc_device(size_t size, int nports);
void rvt_dealloc_device(struct rvt_dev_info *rdi);
int rvt_register_device(struct rvt_dev_info *rdi);
void rvt_unregister_device(struct rvt_dev_info *rdi);

struct rvt_qp *rvt_lookup_qpn(struct rvt_dev_info *rdi, u32 qpn);
void rvt_put_qp(struct rvt_qp *qp);
int rvt_error_qp(struct rvt_qp *qp, enum ib_wc_status err);
int rvt_init_port(struct rvt_dev_info *rdi, struct rvt_ibport *port,
		  int port_index, u16 *pkey_table);
int rvt_check_ah(struct ib_device *ibdev, struct rdma_ah_attr *ah_attr);
void rvt_comm_est(struct rvt_qp *qp);
struct rvt_qp_iter *rvt_qp_iter_init(struct rvt_dev_info *rdi, u64 v,
				     void (*cb)(struct rvt_qp *qp, u64 v));
int rvt_qp_iter_next(struct rvt_qp_iter *iter);
void rvt_qp_iter(struct rvt_dev_info *rdi, u64 v,
		 void (*cb)(struct rvt_qp *qp, u64 v));
struct rvt_mcast *rvt_mcast_find(struct rvt_ibport *ibp, union ib_gid *mgid,
				 u16 lid);

/**
 * rvt_mcast_put - drop a reference from rvt_mcast_find()
 * @mcast: the group
 */
static inline void rvt_mcast_put(struct rvt_mcast *mcast)
{
	if (atomic_dec_and_test(&mcast->refcount))
		wake_up(&mcast->wait);
}

int rvt_fast_reg_mr(struct rvt_qp *qp, struct ib_mr *ibmr, u32 key,
		    int access);
int rvt_invalidate_rkey(struct rvt_qp *qp, u32 rkey);
bool rvt_cq_enter(struct rvt_cq *cq, struct ib_wc *entry, bool solicited);

/**
 * struct rvt_sge_state - a walk over a list of SGEs
 * @sge: the SGEs
 * @num_sge: how many
 * @cur: index of the current SGE
 * @offset: bytes of the current SGE already walked
 * @mr: the MR of the current SGE, referenced
 */
struct rvt_sge_state {
	const struct ib_sge	*sge;
	u32			num_sge;
	u32			cur;
	u32			offset;
	struct rvt_mr		*mr;
};

int rvt_lkey_ok(struct rvt_dev_info *rdi, struct ib_pd *pd,
		const struct ib_sge *sge, int access, struct rvt_mr **mrp);
int rvt_rkey_ok(struct rvt_dev_info *rdi, struct ib_pd *pd, u64 vaddr,
		u32 rkey, u32 len, int access, struct rvt_mr **mrp);
void *rvt_mr_va(struct rvt_mr *mr, u64 iova, u32 *contig);
void rvt_put_mr(struct rvt_mr *mr);

#endif /* RDMA_VT_H */
