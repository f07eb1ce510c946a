/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdma_cm inside: the private side of an rdma_cm_id, the per-device
 * state, and the calls between the cma_*.c files.  ib_core's restrack.c
 * and nldev_res.c read struct rdma_id_private too (to name the device of
 * a CM ID entry and to dump it), as upstream.
 *
 * Lock order of the module (also at the top of cma_main.c):
 *
 *	rdma_id_private.handler_mutex		(one id's events)
 *	  -> cma_lock				(global: devices, lists, ports)
 *	    -> rdma_id_private.lock		(state, spinlock)
 *	rdma_id_private.handler_mutex -> rdma_id_private.qp_mutex
 *
 * A listener's handler_mutex may be held while a new connection id's is
 * taken (mutex_lock_nested, the new id is not yet visible to anyone).
 * cma_lock is never held while a handler_mutex is taken.
 *
 * Lifetime rules (what keeps an id's memory, and who may still call its
 * owner; the KUnit suites rdma_cma_conn and rdma_cma_ib test them over
 * iWARP and InfiniBand):
 *
 *  - rdma_id_private.refcount: the creator's reference, plus one per
 *    queued cma_work (cma_queue_event(); the destroyer cancels those not
 *    started, it may run from cma_wq itself), one taken by a device's
 *    removal while it tells the id, and on a wildcard listener one per
 *    per-device listener (until that one is freed).  Walkers of a device's id_list take
 *    theirs with refcount_inc_not_zero() under cma_lock: a listed id
 *    may already be waiting in its destroyer.  The destroyer drops the
 *    creator's reference and waits for @comp before freeing.
 *  - What calls back without a reference is cancelled synchronously
 *    before that wait: address resolution (rdma_addr_cancel(), unless
 *    the destroy runs inside its callback: @addr_pending) and the
 *    transport id (iw_destroy_cm_id() and ib_destroy_cm_id() return once
 *    no handler call runs or will run; events queued in iw_cm and the
 *    IB CM are dropped).  An IB route query holds a reference until its
 *    callback ran (the destroyer cancels it); an IB multicast join is
 *    waited for by ib_sa_free_multicast() (cma_leave_all_mc()).
 *  - A request on a shared IB CM listener finds its rdma_cm listener
 *    under cma_lock and holds a reference on it while it makes the new
 *    id (cma_ib.c).
 *  - rdma_id_private.handler_mutex: every event is delivered under it,
 *    and only in a state that takes it; RDMA_CM_DESTROYING is set under
 *    it, so once a destroyer held it no handler runs for the id again.
 *    A transport event racing the destroy finds DESTROYING and is
 *    dropped; a cma_work finds it and only drops its reference.
 *  - A handler returning non-zero hands its id to rdma_cm, which destroys
 *    it after the handler returned (cma_destroy_id_handler_unlock()); the
 *    transport id is then the transport's to destroy (cm_id.iw cleared
 *    first).  The owner must not also call rdma_destroy_id() on it.
 *  - A request on a listener: the listener's handler_mutex is held from
 *    the state check until the new id's CONNECT_REQUEST handler
 *    returned, so the listener's destroyer waits for that delivery; the
 *    new id is the owner's from then on and outlives the listener.  On a
 *    wildcard listener the request reaches a per-device listener: such a
 *    delivery may still run while the wildcard's rdma_destroy_id() runs
 *    (in cma_cancel_listens(), or waiting for the per-device listeners
 *    a device's removal destroys), never after it returned.
 *  - rdma_id_private.state RDMA_CM_DEVICE_REMOVAL: set by the device's
 *    removal, under handler_mutex, before the DEVICE_REMOVAL event.  From
 *    then on the transport's events are ignored (cma_iw_handler() and
 *    cma_ib_handler() take only RDMA_CM_CONNECT, TIMEWAIT_EXIT only
 *    RDMA_CM_DISCONNECT, a listener only RDMA_CM_LISTEN) and queued
 *    cma_work is dropped; the removal waits (cma_device.comp) until the
 *    owner destroyed the id.  Per-device listeners are destroyed by the
 *    removal itself, or by their parent's destroyer: whoever unlinks one
 *    from the parent's listen_list under cma_lock (@detached).  Each
 *    holds a reference on its parent until it is freed, so a parent
 *    whose destroyer no longer finds a child (the removal has it) is not
 *    freed under the child's requests (cma_iw.c reads the parent's
 *    handler and context).
 *  - cma_device.refcount: the client's (add to remove) and one per
 *    attached id, dropped by cma_release_dev() after the id's transport
 *    is gone; no id attaches once @removing is set (cma_lock).
 *  - id.route.addr.dev_addr.sgid_attr: on a RoCE port, the GID entry of
 *    the id's source address (of the port's default_roce_mode type, on
 *    the net device the address is on), referenced from the attach
 *    (bind, address resolution, a request's new id) until
 *    cma_release_dev(), which drops it before the device reference; the
 *    REQ, SIDR REQ and the multicast address vectors take it from there.
 *    Never changed while attached.
 */
#ifndef RDMA_CMA_PRIV_H
#define RDMA_CMA_PRIV_H

#include <kunit/visibility.h>
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <rdma/ib.h>
#include <rdma/ib_cm.h>
#include <rdma/rdma_cm.h>
#include <rdma/restrack.h>

#include "../ib_core/core_modules.h"

/*
 * States of an id, in upstream's order (the state number is what
 * "rdma res show cm_id" prints through RDMA_NLDEV_ATTR_RES_STATE).
 */
enum rdma_cm_state {
	RDMA_CM_IDLE,
	RDMA_CM_ADDR_QUERY,
	RDMA_CM_ADDR_RESOLVED,
	RDMA_CM_ROUTE_QUERY,
	RDMA_CM_ROUTE_RESOLVED,
	RDMA_CM_CONNECT,
	RDMA_CM_DISCONNECT,
	RDMA_CM_ADDR_BOUND,
	RDMA_CM_LISTEN,
	RDMA_CM_DEVICE_REMOVAL,
	RDMA_CM_DESTROYING
};

/**
 * struct cma_device - rdma_cm's view of one RDMA device
 * @list: on cma_dev_list (cma_lock)
 * @device: the device
 * @refcount: the client (add to remove) and every id attached to it
 * @comp: completed when @refcount drops to zero; remove waits for it
 * @id_list: ids attached to the device (cma_lock)
 * @default_gid_type: per port (index port - start port), RoCE GID type
 *	new ids use; set through configfs (cma_lock)
 * @default_roce_tos: per port, ToS of ids that set none (cma_lock)
 * @removing: the device is going away: no id attaches any more (cma_lock)
 */
struct cma_device {
	struct list_head	list;
	struct ib_device	*device;
	refcount_t		refcount;
	struct completion	comp;
	struct list_head	id_list;
	enum ib_gid_type	*default_gid_type;
	u8			*default_roce_tos;
	bool			removing;
};

/**
 * struct rdma_bind_list - the ids sharing one port of a port space
 * @ps: the port space
 * @owners: the ids (rdma_id_private.node), under cma_lock
 * @port: the port, host order
 */
struct rdma_bind_list {
	enum rdma_ucm_port_space ps;
	struct hlist_head	owners;
	unsigned short		port;
};

/**
 * struct rdma_id_private - an rdma_cm_id and all rdma_cm keeps about it
 * @id: the public part
 * @bind_list: the port the id holds, or NULL (cma_lock)
 * @node: on @bind_list->owners (cma_lock)
 * @device_item: on cma_device.id_list, or on listen_any_list for a
 *	wildcard listener without a device (cma_lock)
 * @listen_item: a per-device listener: on its parent's @listen_list
 *	(cma_lock)
 * @listen_list: a wildcard listener: its per-device listeners (cma_lock)
 * @cma_dev: device the id is attached to, or NULL; set once under
 *	cma_lock, cleared only by the destroyer
 * @parent: a per-device listener (@internal_id): the wildcard listener
 *	it serves, referenced until this id is freed
 * @state: see enum rdma_cm_state; written under @lock, read with
 *	READ_ONCE() where a stale value is harmless
 * @lock: protects @state
 * @qp_mutex: serialises rdma_create_qp()/rdma_destroy_qp() with the QP
 *	state changes rdma_cm makes on the owner's behalf
 * @comp: completed when @refcount drops to zero
 * @refcount: the creator's reference plus one per pending asynchronous
 *	operation (queued work, device removal in progress); the destroyer
 *	drops the creator's and waits for @comp, so nothing queued can
 *	outlive the id.  An id stays on its device's list while its
 *	destroyer waits: walkers of that list take references with
 *	refcount_inc_not_zero() only
 * @handler_mutex: held while the owner's handler runs and while an API
 *	call changes what a handler may see; no event is delivered after
 *	the state became RDMA_CM_DESTROYING (set under this mutex)
 * @backlog: listen backlog
 * @timeout_ms: route resolution timeout
 * @tp: the transport of the id's port (cma_no_cm_transport while the id
 *	has no device); set with @cma_dev
 * @cm_id: the transport's connection id: @cm_id.iw on iWARP, @cm_id.ib
 *	(an IB CM ID: a connection, a SIDR exchange or a shared listener)
 *	on InfiniBand and RoCE; NULL before the transport made one
 *	(cma_has_cm_id())
 * @query: the SA path query of a ROUTE_QUERY on IB, for its cancel
 * @query_id: its id
 * @seq_num: initial PSN
 * @qkey: Q_Key of a UD id
 * @qp_num: number of the QP of the connection
 * @options: CMA_OPTION_* set explicitly
 * @srq: the QP uses an SRQ
 * @tos: IP type of service
 * @tos_set: @tos set by rdma_set_service_type()
 * @timeout_set: @timeout set by rdma_set_ack_timeout()
 * @min_rnr_timer_set: @min_rnr_timer set by rdma_set_min_rnr_timer()
 * @addr_pending: rdma_resolve_ip() may still call back: set before it
 *	starts, cleared by its callback (under @handler_mutex); the
 *	destroyer cancels the resolution only then, so a destroy from
 *	inside the callback never waits for the callback's own work
 * @work_list: the id's events queued on cma_wq and not started yet
 *	(struct cma_work, under @lock): the destroyer cancels them instead
 *	of waiting for them, since it may itself run from cma_wq, which
 *	runs one work at a time
 * @reuseaddr: the port may be shared (rdma_set_reuseaddr())
 * @afonly: an IPv6 wildcard takes IPv6 only
 * @internal_id: a per-device listener made by a wildcard listen
 * @detached: a per-device listener taken off its parent's @listen_list by
 *	whoever destroys it: the parent's destroyer or the device's removal
 *	(cma_lock)
 * @timeout: ack timeout for the QP
 * @min_rnr_timer: RNR NAK timer for the QP
 * @gid_type: RoCE GID type of the id's source GID (the bound GID
 *	entry's; the port's default_roce_mode when it has none)
 * @res: restrack entry (rdma res show cm_id)
 * @ece: ECE options of the connection
 * @mc_list: multicast groups joined (under @lock)
 */
struct rdma_id_private {
	struct rdma_cm_id	id;

	struct rdma_bind_list	*bind_list;
	struct hlist_node	node;
	struct list_head	device_item;
	struct list_head	listen_item;
	struct list_head	listen_list;
	struct cma_device	*cma_dev;
	struct rdma_id_private	*parent;

	enum rdma_cm_state	state;
	spinlock_t		lock;		/* @state, @work_list */
	struct mutex		qp_mutex;	/* id.qp and its options */

	struct completion	comp;
	refcount_t		refcount;
	struct mutex		handler_mutex;	/* the owner's handler */

	int			backlog;
	int			timeout_ms;
	const struct cma_transport *tp;
	union {
		struct iw_cm_id	*iw;
		struct ib_cm_id	*ib;
	} cm_id;
	struct ib_sa_query	*query;
	int			query_id;

	u32			seq_num;
	u32			qkey;
	u32			qp_num;
	u32			options;
	u8			srq;
	u8			tos;
	u8			tos_set:1;
	u8			timeout_set:1;
	u8			min_rnr_timer_set:1;
	u8			reuseaddr;
	u8			afonly;
	bool			addr_pending;
	u8			internal_id;
	u8			detached;
	u8			timeout;
	u8			min_rnr_timer;
	enum ib_gid_type	gid_type;

	struct list_head	work_list;

	struct rdma_restrack_entry res;
	struct rdma_ucm_ece	ece;
	struct list_head	mc_list;
};

/* Whether the transport made its connection id yet (either member). */
static inline bool cma_has_cm_id(const struct rdma_id_private *id_priv)
{
	return id_priv->cm_id.iw || id_priv->cm_id.ib;
}

/**
 * struct cma_multicast - a group an id joined (rdma_join_multicast())
 * @list: on the id's mc_list (id's lock)
 * @id_priv: the id
 * @sa_mc: the SA membership (InfiniBand)
 * @work: RoCE: delivers the join's event from cma_wq
 * @event: RoCE: that event (its AH attributes hold the source GID entry
 *	until delivered or cancelled)
 * @mgid: RoCE: the group's MGID
 * @ip_joined: RoCE: the IP group joined on the net device (@ifindex)
 * @ifindex: RoCE: the net device of the IP join
 * @context: the owner's, handed back in the events
 * @addr: the group's address as the owner gave it
 * @join_state: BIT() of the JoinState asked for
 */
struct cma_multicast {
	struct list_head	list;
	struct rdma_id_private	*id_priv;
	struct ib_sa_multicast	*sa_mc;
	struct work_struct	work;
	struct rdma_cm_event	event;
	union ib_gid		mgid;
	bool			ip_joined;
	int			ifindex;
	void			*context;
	struct sockaddr_storage	addr;
	u8			join_state;
};

/* Bits of rdma_id_private.options */
enum {
	CMA_OPTION_AFONLY,
};

#define CMA_IBOE_PACKET_LIFETIME	16
#define CMA_PREFERRED_ROCE_GID_TYPE	IB_GID_TYPE_ROCE_UDP_ENCAP

extern struct mutex cma_lock;
extern struct list_head cma_dev_list;
extern struct workqueue_struct *cma_wq;
extern struct ib_client cma_client;

static inline struct rdma_id_private *to_id_priv(struct rdma_cm_id *id)
{
	return container_of(id, struct rdma_id_private, id);
}

static inline struct sockaddr *cma_src_addr(struct rdma_id_private *id_priv)
{
	return (struct sockaddr *)&id_priv->id.route.addr.src_addr;
}

static inline struct sockaddr *cma_dst_addr(struct rdma_id_private *id_priv)
{
	return (struct sockaddr *)&id_priv->id.route.addr.dst_addr;
}

static inline struct net *cma_net(struct rdma_id_private *id_priv)
{
	return id_priv->id.route.addr.dev_addr.net;
}

/* cma_main.c: ids, states, events */
bool cma_comp_exch(struct rdma_id_private *id_priv, enum rdma_cm_state comp,
		   enum rdma_cm_state exch);
enum rdma_cm_state cma_exch(struct rdma_id_private *id_priv,
			    enum rdma_cm_state exch);
void cma_id_get(struct rdma_id_private *id_priv);
void cma_id_put(struct rdma_id_private *id_priv);
struct rdma_id_private *cma_create_id(struct net *net,
				      rdma_cm_event_handler handler,
				      void *context,
				      enum rdma_ucm_port_space ps,
				      enum ib_qp_type qp_type,
				      const char *caller, bool user);
int cma_deliver_event(struct rdma_id_private *id_priv,
		      struct rdma_cm_event *event);
void cma_destroy_id_handler_unlock(struct rdma_id_private *id_priv);
int cma_queue_event(struct rdma_id_private *id_priv,
		    enum rdma_cm_state old, enum rdma_cm_state new,
		    const struct rdma_cm_event *event);
struct cma_work;
struct cma_work *cma_work_alloc(struct rdma_id_private *id_priv);
void cma_work_free(struct cma_work *work);
void cma_work_queue(struct cma_work *work, enum rdma_cm_state old,
		    enum rdma_cm_state new, const struct rdma_cm_event *event);
void cma_attach_to_dev(struct rdma_id_private *id_priv,
		       struct cma_device *cma_dev, u32 port);
int cma_attach_checked(struct rdma_id_private *id_priv,
		       struct cma_device *cma_dev, u32 port,
		       const struct ib_gid_attr *sgid_attr);
void cma_bind_sgid_attr(struct rdma_id_private *id_priv,
			const struct ib_gid_attr *sgid_attr);
void cma_dev_get(struct cma_device *cma_dev);
void cma_dev_put(struct cma_device *cma_dev);
int cma_net_init(void);
void cma_net_exit(void);

/* cma_ps.c: port spaces */
bool cma_zero_addr(const struct sockaddr *addr);
bool cma_any_addr(const struct sockaddr *addr);
bool cma_loopback_addr(const struct sockaddr *addr);
__be16 cma_port(const struct sockaddr *addr);
int cma_addr_cmp(const struct sockaddr *a, const struct sockaddr *b);
int cma_get_port(struct rdma_id_private *id_priv);
void cma_release_port(struct rdma_id_private *id_priv);
int cma_check_listen_port(struct rdma_id_private *id_priv);
int cma_bind_any(struct rdma_id_private *id_priv, sa_family_t af);
struct rdma_bind_list *cma_ps_find(struct net *net,
				   enum rdma_ucm_port_space ps,
				   unsigned short port);
void cma_translate_ib(const struct sockaddr_ib *sib,
		      struct rdma_dev_addr *dev_addr);

static inline sa_family_t cma_family(struct rdma_id_private *id_priv)
{
	return id_priv->id.route.addr.src_addr.ss_family;
}

/* cma_resolve.c: devices from addresses, routes */
int cma_find_src_dev(struct rdma_id_private *id_priv,
		     struct cma_device **cma_dev, u32 *port,
		     const struct ib_gid_attr **sgid_attr);
int cma_acquire_dev_by_src_ip(struct rdma_id_private *id_priv);
enum ib_gid_type cma_default_gid_type(struct cma_device *cma_dev, u32 port);
u8 cma_default_roce_tos(struct cma_device *cma_dev, u32 port);
int cma_roce_resolve_route(struct rdma_id_private *id_priv);
enum ib_mtu cma_roce_mtu(int mtu);
u8 cma_roce_tos_to_sl(struct net_device *ndev, u8 tos);
int cma_resolve_ib_dev(struct rdma_id_private *id_priv);

/* cma_dev.c: devices and listeners (the ports' defaults: configfs, suites) */
struct cma_device *cma_find_device(struct ib_device *device);
int cma_listen_on_all(struct rdma_id_private *id_priv);
int cma_listen_on_bound_dev(struct rdma_id_private *id_priv);
void cma_cancel_listens(struct rdma_id_private *id_priv);
int cma_netdev_notifier_register(void);
void cma_netdev_notifier_unregister(void);

/* cma_conn.c */
int cma_modify_qp_rtr(struct rdma_id_private *id_priv,
		      struct rdma_conn_param *conn_param);
int cma_modify_qp_rts(struct rdma_id_private *id_priv,
		      struct rdma_conn_param *conn_param);
void cma_modify_qp_err(struct rdma_id_private *id_priv);
void cma_leave_all_mc(struct rdma_id_private *id_priv);

/**
 * struct cma_transport - a connection manager as rdma_cm uses it
 * @name: for messages ("iw_cm", "ib_cm", "none")
 * @listen: start listening on the id's device (backlog: id_priv->backlog)
 * @connect: send a connection request (rdma_connect_locked())
 * @accept: answer a request with the connection (rdma_accept())
 * @reject: refuse a request (rdma_reject())
 * @disconnect: tear a connection down (rdma_disconnect())
 * @init_qp_attr: the QP attributes for a state (rdma_init_qp_attr())
 * @notify: pass on a QP's asynchronous event (rdma_notify())
 * @destroy: destroy the transport's id: on return it calls back no more
 * @resolve_route: find the route of an ADDR_RESOLVED id; the outcome
 *	comes as an event (rdma_resolve_route())
 * @join_multicast: join the group of @mc (rdma_join_multicast()); the
 *	outcome comes as an event
 * @leave_multicast: leave it (rdma_leave_multicast(), the id's
 *	destruction); no event of @mc runs after it returned
 * @reject_msg: the text of a REJECTED event's status (rdma_reject_msg())
 * @consumer_reject: whether a REJECTED status is the peer owner's own
 *
 * Picked when an id attaches to a device port (cma_attach_to_dev(), from
 * cma_transport_of()); an id without a device has cma_no_cm_transport.
 * Every branch on the transport of an id's connection goes through here:
 * cma_iw.c holds iWARP's (iw_cm), cma_ib.c InfiniBand's and RoCE's (the
 * IB CM and the SA), and a port with neither gets cma_no_cm_transport.
 */
struct cma_transport {
	const char *name;
	int (*listen)(struct rdma_id_private *id_priv);
	int (*connect)(struct rdma_id_private *id_priv,
		       struct rdma_conn_param *conn_param);
	int (*accept)(struct rdma_id_private *id_priv,
		      struct rdma_conn_param *conn_param);
	int (*reject)(struct rdma_id_private *id_priv, const void *private_data,
		      u8 private_data_len, u8 reason);
	int (*disconnect)(struct rdma_id_private *id_priv);
	int (*init_qp_attr)(struct rdma_id_private *id_priv,
			    struct ib_qp_attr *qp_attr, int *qp_attr_mask);
	int (*notify)(struct rdma_id_private *id_priv,
		      enum ib_event_type event);
	void (*destroy)(struct rdma_id_private *id_priv);
	int (*resolve_route)(struct rdma_id_private *id_priv,
			     unsigned long timeout_ms);
	int (*join_multicast)(struct rdma_id_private *id_priv,
			      struct cma_multicast *mc);
	void (*leave_multicast)(struct rdma_id_private *id_priv,
				struct cma_multicast *mc);
	const char *(*reject_msg)(int reason);
	bool (*consumer_reject)(int reason);
};

/* cma_ib.c: InfiniBand and RoCE (the IB CM, the SA) */
extern const struct cma_transport cma_ib_transport;
extern struct ib_sa_client cma_sa_client;
/* cma_iw.c: iWARP (iw_cm) */
extern const struct cma_transport cma_iw_transport;
/* cma_conn.c: a port without a connection manager */
extern const struct cma_transport cma_no_cm_transport;
const struct cma_transport *cma_transport_of(struct ib_device *device,
					     u32 port);

/* cma_configfs.c */
#if IS_ENABLED(CONFIG_CONFIGFS_FS)
int cma_configfs_init(void);
void cma_configfs_exit(void);
#else
static inline int cma_configfs_init(void)
{
	return 0;
}

static inline void cma_configfs_exit(void)
{
}
#endif
struct cma_device *cma_get_device_by_name(const char *name);
int cma_set_default_gid_type(struct cma_device *cma_dev, u32 port,
			     enum ib_gid_type gid_type);
int cma_set_default_roce_tos(struct cma_device *cma_dev, u32 port, u8 tos);

#endif /* RDMA_CMA_PRIV_H */
