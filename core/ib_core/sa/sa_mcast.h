/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Multicast joins of the SA client: what sa_mcast.c (the groups and
 * their members) and sa_mcast_port.c (ports, events, device removal)
 * share.  Not API: ULPs use ib_sa_join_multicast() and friends.
 */
#ifndef SA_MCAST_H
#define SA_MCAST_H

#include <linux/completion.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <rdma/ib_sa.h>

/* How long a join or a leave waits for the SA (in ten tries). */
#define SA_MCAST_TIMEOUT_MS	3000
/* Further tries of a Delete the SA did not answer or refused. */
#define SA_MCAST_LEAVE_RETRIES	3
/* A group's pkey_index before the SA first answered its join. */
#define SA_MCAST_NO_PKEY_INDEX	0xffff

/**
 * struct sa_mcast_port - the multicast groups of one port
 * @ref: one for the SA port while the device is there, one per group
 * @lock: protects @groups and @closing (taken with interrupts off)
 * @groups: the port's groups (struct sa_mcast_group)
 * @device: the device; not touched once @closing is set
 * @port_num: the port
 * @closing: the device is going: no new join, nothing more to the SA
 *
 * Allocated apart from the SA client's port: groups that ULPs still
 * hold once the device is gone keep it.
 */
struct sa_mcast_port {
	struct kref		ref;
	spinlock_t		lock;	/* @groups, @closing */
	struct list_head	groups;
	struct ib_device	*device;
	u32			port_num;
	bool			closing;
};

/* Port events a group has to act on, the stronger one last. */
enum sa_mcast_event {
	SA_MCAST_EV_NONE,
	SA_MCAST_EV_PKEY,	/* our P_Key may have gone */
	SA_MCAST_EV_RESET,	/* the SA may have forgotten us */
};

/**
 * struct sa_mcast_group - one MGID joined on one port
 * @rec: the SA's record; @rec.join_state the states the port holds
 * @node: in the port's @groups
 * @port: the port (a reference)
 * @lock: protects the fields below @work (interrupts off)
 * @work: the group's state machine (on sa_mcast_wq)
 * @pending: members waiting to join, in order
 * @active: members joined
 * @members: per join state bit, the active members that have it
 * @ref: one per member, one while @busy
 * @busy: @work is queued or running, or a query is out
 * @event: the strongest port event not handled yet
 * @joining: the member whose Set is out (NULL: none, or it left)
 * @method: what is out: IB_MGMT_METHOD_SET, IB_SA_METHOD_DELETE or 0
 * @answered: the SA query ended: @status and @answer are its result
 * @status: the query's status
 * @answer: the SA's record (when @status is 0)
 * @pkey_index: the index of @rec.pkey at the first join
 * @leave_state: the states of the Delete out
 * @leave_retries: further tries of that Delete
 */
struct sa_mcast_group {
	struct ib_sa_mcmember_rec rec;
	struct list_head	node;
	struct sa_mcast_port	*port;
	spinlock_t		lock;	/* the state below */
	struct work_struct	work;
	struct list_head	pending;
	struct list_head	active;
	int			members[NUM_JOIN_MEMBERSHIP_TYPES];
	refcount_t		ref;
	bool			busy;
	enum sa_mcast_event	event;
	struct sa_mcast_member	*joining;
	u8			method;
	bool			answered;
	int			status;
	struct ib_sa_mcmember_rec answer;
	u16			pkey_index;
	u8			leave_state;
	int			leave_retries;
};

enum sa_mcast_member_state {
	SA_MCAST_JOINING,	/* on the group's @pending, or failed */
	SA_MCAST_MEMBER,	/* on @active, counted in @members */
	SA_MCAST_LOST,		/* told -ENETRESET, off every list */
};

/**
 * struct sa_mcast_member - what ib_sa_join_multicast() hands out
 * @multicast: the caller's view
 * @client: the caller's SA client (a reference)
 * @group: the group (a reference)
 * @list: on the group's @pending or @active, under its lock
 * @state: SA_MCAST_*, under the group's lock
 * @ref: one for the caller, one per callback running
 * @done: completed when @ref drops to zero
 */
struct sa_mcast_member {
	struct ib_sa_multicast	multicast;
	struct ib_sa_client	*client;
	struct sa_mcast_group	*group;
	struct list_head	list;
	enum sa_mcast_member_state state;
	refcount_t		ref;
	struct completion	done;
};

extern struct workqueue_struct *sa_mcast_wq;
extern struct ib_sa_client sa_mcast_client;

/* sa_mcast.c */
void sa_mcast_work(struct work_struct *work);
void sa_mcast_group_put(struct sa_mcast_group *group);
void sa_mcast_group_kick(struct sa_mcast_group *group);

/* sa_mcast_port.c */
void sa_mcast_port_put(struct sa_mcast_port *mport);
struct sa_mcast_group *sa_mcast_group_get(struct sa_mcast_port *mport,
					  const union ib_gid *mgid,
					  gfp_t gfp_mask);

#endif /* SA_MCAST_H */
