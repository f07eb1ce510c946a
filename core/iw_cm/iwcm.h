/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Internals of the iWARP connection manager (module iw_cm): the private
 * part of an iw_cm_id, its states and flags, the event items, and what
 * the iwcm_*.c files call in each other.  iwcm_main.c states the lock
 * order and the lifetime rules.
 */
#ifndef _IWCM_H
#define _IWCM_H

#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <kunit/visibility.h>
#include <rdma/iw_cm.h>

/**
 * enum iw_cm_state - where an id is (upstream's names and order)
 * @IW_CM_STATE_IDLE: created, or a connection ended or failed
 * @IW_CM_STATE_LISTEN: listening; CONNECT_REQUEST events arrive
 * @IW_CM_STATE_CONN_RECV: a new id for an incoming request, until the
 *	consumer accepts (and ESTABLISHED arrives) or rejects
 * @IW_CM_STATE_CONN_SENT: connect issued, CONNECT_REPLY awaited
 * @IW_CM_STATE_ESTABLISHED: connected
 * @IW_CM_STATE_CLOSING: a disconnect started, from either side
 * @IW_CM_STATE_DESTROYING: being destroyed; events are dropped
 */
enum iw_cm_state {
	IW_CM_STATE_IDLE,
	IW_CM_STATE_LISTEN,
	IW_CM_STATE_CONN_RECV,
	IW_CM_STATE_CONN_SENT,
	IW_CM_STATE_ESTABLISHED,
	IW_CM_STATE_CLOSING,
	IW_CM_STATE_DESTROYING
};

/* iwcm_id_private.flags (atomic bit operations) */
enum {
	/* Destroy started: events are dropped, the consumer hears nothing. */
	IWCM_F_DROP_EVENTS,
	/*
	 * A connect or accept is under way: set from the call until the
	 * CONNECT_REPLY / ESTABLISHED event is processed (or the call
	 * failed).  iw_cm_disconnect() waits for it to clear.
	 */
	IWCM_F_CONNECT_WAIT,
	/*
	 * A listen, connect, accept or reject call is inside the driver.
	 * Destroy waits for it to clear before it tears the id down.
	 */
	IWCM_F_DOWNCALL,
	/* The consumer's reference was given back (destroy ran once). */
	IWCM_F_DESTROYED,
	/*
	 * The teardown is over: the driver was told (a listener's
	 * iw_destroy_listen returned) and reports nothing more.  Until
	 * then a CONNECT_REQUEST still goes in, to be rejected; after, it
	 * is the driver's mistake and is dropped like any other event.
	 */
	IWCM_F_TORN_DOWN,
};

/*
 * Longest private data an event carries: iw_cm_event.private_data_len
 * is a u8.
 */
#define IWCM_EVENT_PDATA_MAX	255

/* Event items kept ready for an active id, for a passive one. */
#define IWCM_ACTIVE_WORKS	4
#define IWCM_PASSIVE_WORKS	3

/**
 * struct iwcm_work - one event waiting for delivery
 * @list: in iwcm_id_private.events, or in its free list
 * @event: the event; its @private_data points at @pdata
 * @overflow: allocated when the free list was empty; freed after use
 * @pdata: copy of the driver's private data
 */
struct iwcm_work {
	struct list_head	list;
	struct iw_cm_event	event;
	bool			overflow;
	u8			pdata[IWCM_EVENT_PDATA_MAX];
};

/**
 * struct iwcm_id_private - iw_cm's part of an id
 * @id: what the consumer and the driver see
 * @lock: protects @state, @qp, @events, @free_works, @nr_free,
 *	@delivering, @close_busy; taken with irqsave (the driver reports
 *	events from any context).  Innermost: nothing is called under it
 *	but the driver's iw_add_ref (which must not sleep).
 * @state: enum iw_cm_state; changed only through iwcm_set_state()
 * @flags: IWCM_F_* bits
 * @qp: the QP bound by connect or accept; one iw_add_ref() reference,
 *	dropped by whoever sets it to NULL
 * @refcount: one for the consumer (until destroy), one for each
 *	reference the driver took with add_ref, one while @work is queued
 *	or running.  The last put frees the id.
 * @wait: woken when IWCM_F_CONNECT_WAIT or IWCM_F_DOWNCALL clears
 * @work: delivers @events one at a time, in order
 * @events: queued events, oldest first
 * @free_works: event items kept ready (see iwcm_works_fill())
 * @nr_free: entries in @free_works
 * @delivering: @work is queued or running and will look at @events again
 * @close_work: the item reserved for the CLOSE event, so that no memory
 *	shortage can lose it
 * @close_busy: @close_work is in use
 * @deliverer: the task running the consumer's handler for this id, to
 *	catch a destroy from inside the handler
 * @refused: events refused for arriving in a state that takes none such
 * @reject_id: a listener's bare id, kept from its listen on, through
 *	which a request is rejected when no id can be made for it (no
 *	memory): the driver still gets an answer and lets go of the
 *	connection.  Used by the listener's delivery work only.
 */
struct iwcm_id_private {
	struct iw_cm_id		id;
	spinlock_t		lock;	/* see @lock above */
	enum iw_cm_state	state;
	unsigned long		flags;
	struct ib_qp		*qp;
	refcount_t		refcount;
	wait_queue_head_t	wait;
	struct work_struct	work;
	struct list_head	events;
	struct list_head	free_works;
	unsigned int		nr_free;
	bool			delivering;
	bool			close_busy;
	struct task_struct	*deliverer;
	atomic_t		refused;
	struct iw_cm_id		*reject_id;
	struct iwcm_work	close_work;
};

static inline struct iwcm_id_private *to_iwcm(struct iw_cm_id *cm_id)
{
	return container_of(cm_id, struct iwcm_id_private, id);
}

/* iwcm_main.c */
extern struct workqueue_struct *iwcm_wq;
extern unsigned int iwcm_default_backlog;
const char *iwcm_state_name(enum iw_cm_state state);

/* iwcm_id.c */
void iwcm_set_state(struct iwcm_id_private *priv, enum iw_cm_state state);
void iwcm_id_get(struct iwcm_id_private *priv);
void iwcm_id_put(struct iwcm_id_private *priv);
int iwcm_works_fill(struct iwcm_id_private *priv, unsigned int count);
struct iwcm_work *iwcm_work_take(struct iwcm_id_private *priv, bool close);
void iwcm_work_recycle(struct iwcm_id_private *priv, struct iwcm_work *w);
void iwcm_teardown(struct iwcm_id_private *priv);
void iwcm_end_call(struct iwcm_id_private *priv, bool connect_done);

/* iwcm_event.c */
int iwcm_event_handler(struct iw_cm_id *cm_id, struct iw_cm_event *event);
void iwcm_deliver_work(struct work_struct *work);

/* iwcm_conn.c */
void iwcm_conn_request(struct iwcm_id_private *listener,
		       struct iw_cm_event *event);

/* iwcm_qp.c */
struct ib_qp *iwcm_qp_bind(struct iwcm_id_private *priv, u32 qpn);
struct ib_qp *iwcm_qp_unbind(struct iwcm_id_private *priv);
void iwcm_qp_put(struct iwcm_id_private *priv, struct ib_qp *qp);
int iwcm_qp_move(struct ib_qp *qp, enum ib_qp_state state);

/* iwcm_map.c */
int iwcm_map(struct iwcm_id_private *priv, bool active);
void iwcm_unmap(struct iwcm_id_private *priv);
void iwcm_wildcard_fix(const struct sockaddr_storage *pm_addr,
		       const struct sockaddr_storage *cm_addr,
		       struct sockaddr_storage *out);

extern atomic_t iwcm_ids_alive;

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * struct iwcm_test_ops - iw_cm's insides, for the KUnit suites
 * @id_state: an id's enum iw_cm_state
 * @id_refused: events the id refused
 * @id_refcount: references on the id
 * @ids_alive: ids not yet freed, module-wide
 * @flush_events: wait until every queued event has been delivered
 * @default_backlog: the backlog of a listen that asks for 0
 *
 * The table is iwcm_test (iwcm_test_ops.c); built only with KUnit.
 */
struct iwcm_test_ops {
	enum iw_cm_state (*id_state)(struct iw_cm_id *cm_id);
	unsigned int (*id_refused)(struct iw_cm_id *cm_id);
	unsigned int (*id_refcount)(struct iw_cm_id *cm_id);
	int (*ids_alive)(void);
	void (*flush_events)(void);
	unsigned int (*default_backlog)(void);
};

extern const struct iwcm_test_ops iwcm_test;
#endif

#endif /* _IWCM_H */
