// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Multicast joins through the SA: the members of a group on a port and
 * the group's state machine.
 *
 * Every ib_sa_join_multicast() makes a member of the port's group of
 * that MGID (a group of its own for MGID 0, which the SA names).  The
 * group's work item (on the ordered sa_mcast_wq) takes the members in
 * order: one whose join state the port holds already, and whose
 * component mask the group's record satisfies, is joined at once from
 * that record; another sends an SA Set of its record, and the group
 * waits for the answer before the next one.  When no member is left
 * for a join state the port holds, a Delete of those states leaves
 * them.  The SA's answers and port events only record what happened
 * and queue the work, so everything a group does runs in its work,
 * one step after the other, and the callbacks run from there.
 */

#include <kunit/visibility.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>
#include "sa_mcast.h"
#include "sa_priv.h"

/* How long a join or a leave waits for the SA (in ten tries). */
VISIBLE_IF_KUNIT unsigned int ib_sa_mcast_timeout_ms = SA_MCAST_TIMEOUT_MS;
EXPORT_SYMBOL_IF_KUNIT(ib_sa_mcast_timeout_ms);

/* Add @delta to the member count of every join state bit of @states. */
static void sa_mcast_count(struct sa_mcast_group *group, u8 states,
			   int delta)
{
	int i;

	for (i = 0; i < NUM_JOIN_MEMBERSHIP_TYPES; i++)
		if (states & BIT(i))
			group->members[i] += delta;
}

/* The states the port holds that no member needs any more. */
static u8 sa_mcast_unused_states(struct sa_mcast_group *group)
{
	u8 unused = 0;
	int i;

	for (i = 0; i < NUM_JOIN_MEMBERSHIP_TYPES; i++)
		if (!group->members[i])
			unused |= BIT(i);
	return unused & group->rec.join_state;
}

/* @have against what the member asked with a selector. */
static bool sa_mcast_selected(ib_sa_comp_mask mask, ib_sa_comp_mask sel_bit,
			      ib_sa_comp_mask val_bit, u8 selector, u8 have,
			      u8 want)
{
	if (!(mask & sel_bit) || !(mask & val_bit))
		return true;
	switch (selector) {
	case IB_SA_GT:
		return have > want;
	case IB_SA_LT:
		return have < want;
	case IB_SA_EQ:
		return have == want;
	default:
		return true;
	}
}

/*
 * Whether the group's record @have gives what @want asked for in the
 * fields of @mask (MGID matches already; join state apart; proxy join
 * does not count).
 */
static int sa_mcast_rec_fits(const struct ib_sa_mcmember_rec *have,
			     const struct ib_sa_mcmember_rec *want,
			     ib_sa_comp_mask mask)
{
	bool ok = true;

	if (mask & IB_SA_MCMEMBER_REC_PORT_GID)
		ok &= !memcmp(&have->port_gid, &want->port_gid,
			      sizeof(have->port_gid));
	if (mask & IB_SA_MCMEMBER_REC_QKEY)
		ok &= have->qkey == want->qkey;
	if (mask & IB_SA_MCMEMBER_REC_MLID)
		ok &= have->mlid == want->mlid;
	if (mask & IB_SA_MCMEMBER_REC_TRAFFIC_CLASS)
		ok &= have->traffic_class == want->traffic_class;
	if (mask & IB_SA_MCMEMBER_REC_PKEY)
		ok &= have->pkey == want->pkey;
	if (mask & IB_SA_MCMEMBER_REC_SL)
		ok &= have->sl == want->sl;
	if (mask & IB_SA_MCMEMBER_REC_FLOW_LABEL)
		ok &= have->flow_label == want->flow_label;
	if (mask & IB_SA_MCMEMBER_REC_HOP_LIMIT)
		ok &= have->hop_limit == want->hop_limit;
	if (mask & IB_SA_MCMEMBER_REC_SCOPE)
		ok &= have->scope == want->scope;
	ok &= sa_mcast_selected(mask, IB_SA_MCMEMBER_REC_MTU_SELECTOR,
				IB_SA_MCMEMBER_REC_MTU, want->mtu_selector,
				have->mtu, want->mtu);
	ok &= sa_mcast_selected(mask, IB_SA_MCMEMBER_REC_RATE_SELECTOR,
				IB_SA_MCMEMBER_REC_RATE, want->rate_selector,
				have->rate, want->rate);
	ok &= sa_mcast_selected(mask,
				IB_SA_MCMEMBER_REC_PACKET_LIFE_TIME_SELECTOR,
				IB_SA_MCMEMBER_REC_PACKET_LIFE_TIME,
				want->packet_life_time_selector,
				have->packet_life_time, want->packet_life_time);
	return ok ? 0 : -EINVAL;
}

static void sa_mcast_member_put(struct sa_mcast_member *member)
{
	if (refcount_dec_and_test(&member->ref))
		complete(&member->done);
}

/*
 * Call the member's callback with @status; the caller took a reference
 * to it.  A callback that returns non-zero gives the member up.
 */
static void sa_mcast_tell(struct sa_mcast_member *member, int status)
{
	int ret = member->multicast.callback(status, &member->multicast);

	sa_mcast_member_put(member);
	if (ret)
		ib_sa_free_multicast(&member->multicast);
}

/*
 * Make sure the group's work runs.  Caller holds the group's lock.
 */
void sa_mcast_group_kick(struct sa_mcast_group *group)
{
	if (group->busy)
		return;
	group->busy = true;
	refcount_inc(&group->ref);
	queue_work(sa_mcast_wq, &group->work);
}

/* Whether the device is still there (nothing goes to it otherwise). */
static bool sa_mcast_port_live(struct sa_mcast_port *mport)
{
	bool live;

	spin_lock_irq(&mport->lock);
	live = !mport->closing;
	spin_unlock_irq(&mport->lock);
	return live;
}

/* The SA's answer to a Set or a Delete: kept for the work. */
static void sa_mcast_answered(int status, struct ib_sa_mcmember_rec *rec,
			      void *context)
{
	struct sa_mcast_group *group = context;
	unsigned long flags;

	spin_lock_irqsave(&group->lock, flags);
	group->status = status;
	if (!status)
		group->answer = *rec;
	group->answered = true;
	spin_unlock_irqrestore(&group->lock, flags);
	queue_work(sa_mcast_wq, &group->work);
}

/*
 * Send the Set of @rec (of a member the caller holds).  The work runs
 * once the SA answered.  Caller set the group's @method.
 */
static int sa_mcast_send_join(struct sa_mcast_group *group,
			      struct ib_sa_mcmember_rec *rec,
			      ib_sa_comp_mask mask)
{
	struct sa_mcast_port *mport = group->port;
	struct ib_sa_query *query;
	int ret;

	/* the device stays until the removal flushed sa_mcast_wq */
	if (!sa_mcast_port_live(mport))
		return -ENODEV;
	ret = ib_sa_mcmember_rec_query(&sa_mcast_client, mport->device,
				       mport->port_num, IB_MGMT_METHOD_SET,
				       rec, mask, ib_sa_mcast_timeout_ms,
				       GFP_KERNEL, sa_mcast_answered, group,
				       &query);
	return ret < 0 ? ret : 0;
}

/* Send the Delete of the group's @leave_state. */
static int sa_mcast_send_leave(struct sa_mcast_group *group)
{
	struct sa_mcast_port *mport = group->port;
	struct ib_sa_mcmember_rec rec;
	struct ib_sa_query *query;
	int ret;

	if (!sa_mcast_port_live(mport))
		return -ENODEV;
	spin_lock_irq(&group->lock);
	rec = group->rec;
	rec.join_state = group->leave_state;
	spin_unlock_irq(&group->lock);
	ret = ib_sa_mcmember_rec_query(&sa_mcast_client, mport->device,
				       mport->port_num, IB_SA_METHOD_DELETE,
				       &rec, IB_SA_MCMEMBER_REC_MGID |
				       IB_SA_MCMEMBER_REC_PORT_GID |
				       IB_SA_MCMEMBER_REC_JOIN_STATE,
				       ib_sa_mcast_timeout_ms, GFP_KERNEL,
				       sa_mcast_answered, group, &query);
	return ret < 0 ? ret : 0;
}

/* The index of @pkey on the group's port, or SA_MCAST_NO_PKEY_INDEX. */
static u16 sa_mcast_pkey_index(struct sa_mcast_group *group, __be16 pkey)
{
	struct sa_mcast_port *mport = group->port;
	u16 index;

	if (!sa_mcast_port_live(mport) ||
	    ib_find_pkey(mport->device, mport->port_num, be16_to_cpu(pkey),
			 &index))
		return SA_MCAST_NO_PKEY_INDEX;
	return index;
}

/* A successful Set: the group takes the SA's record. */
static void sa_mcast_joined(struct sa_mcast_group *group, u8 wanted)
{
	struct sa_mcast_port *mport = group->port;
	struct ib_sa_mcmember_rec answer;
	u16 index;
	u8 had;

	spin_lock_irq(&group->lock);
	answer = group->answer;
	spin_unlock_irq(&group->lock);
	index = sa_mcast_pkey_index(group, answer.pkey);

	/* the MGID (the SA's, for MGID 0) changes under both locks */
	spin_lock_irq(&mport->lock);
	spin_lock(&group->lock);
	had = group->rec.join_state;
	group->rec = answer;
	group->rec.join_state |= had | wanted;
	if (group->pkey_index == SA_MCAST_NO_PKEY_INDEX)
		group->pkey_index = index;
	spin_unlock(&group->lock);
	spin_unlock_irq(&mport->lock);
}

/*
 * Take the result of the query that was out.  Return: true when a
 * query is out again (a Delete retried): the work is done for now.
 */
static bool sa_mcast_take_answer(struct sa_mcast_group *group)
{
	struct sa_mcast_member *member;
	u8 method, wanted = 0;
	int status;

	spin_lock_irq(&group->lock);
	if (!group->answered) {
		spin_unlock_irq(&group->lock);
		return false;
	}
	group->answered = false;
	method = group->method;
	status = group->status;
	group->method = 0;

	if (method == IB_SA_METHOD_DELETE) {
		/* a Delete the SA missed is tried again, a few times */
		if (!status || group->leave_retries <= 0) {
			spin_unlock_irq(&group->lock);
			return false;
		}
		group->leave_retries--;
		group->method = IB_SA_METHOD_DELETE;
		spin_unlock_irq(&group->lock);
		if (!sa_mcast_send_leave(group))
			return true;
		spin_lock_irq(&group->lock);
		group->method = 0;
		spin_unlock_irq(&group->lock);
		return false;
	}

	/* a Set: its member is still at the head of @pending, or left */
	member = group->joining;
	group->joining = NULL;
	if (member)
		wanted = member->multicast.rec.join_state;
	if (!status) {
		spin_unlock_irq(&group->lock);
		sa_mcast_joined(group, wanted);
		return false;
	}
	if (member) {
		list_del_init(&member->list);
		refcount_inc(&member->ref);
	}
	spin_unlock_irq(&group->lock);
	if (member)
		sa_mcast_tell(member, status);
	return false;
}

/*
 * A port event: the active members are told -ENETRESET and dropped,
 * and the group holds no join state any more (the ULP joins again).  A
 * P_Key change does so only when the group's P_Key moved or went.
 */
static void sa_mcast_reset(struct sa_mcast_group *group)
{
	struct sa_mcast_member *member;
	enum sa_mcast_event event;
	u16 old_index;
	__be16 pkey;

	spin_lock_irq(&group->lock);
	event = group->event;
	group->event = SA_MCAST_EV_NONE;
	pkey = group->rec.pkey;
	old_index = group->pkey_index;
	spin_unlock_irq(&group->lock);

	if (event == SA_MCAST_EV_PKEY && old_index != SA_MCAST_NO_PKEY_INDEX &&
	    sa_mcast_pkey_index(group, pkey) == old_index)
		return;

	spin_lock_irq(&group->lock);
	/* before the callbacks: a ULP that looks sees the loss */
	group->rec.join_state = 0;
	while (!list_empty(&group->active)) {
		member = list_first_entry(&group->active,
					  struct sa_mcast_member, list);
		list_del_init(&member->list);
		sa_mcast_count(group, member->multicast.rec.join_state, -1);
		member->state = SA_MCAST_LOST;
		refcount_inc(&member->ref);
		spin_unlock_irq(&group->lock);
		sa_mcast_tell(member, -ENETRESET);
		spin_lock_irq(&group->lock);
	}
	spin_unlock_irq(&group->lock);
}

/*
 * The first pending member, whose states the port holds: joined from
 * the group's record if it fits the member's mask.  Called with the
 * group's lock held; returns with it dropped.
 */
static void sa_mcast_join_cached(struct sa_mcast_group *group,
				 struct sa_mcast_member *member)
	__releases(&group->lock)
{
	struct ib_sa_multicast *mc = &member->multicast;
	u8 state = mc->rec.join_state;
	int status;

	status = sa_mcast_rec_fits(&group->rec, &mc->rec, mc->comp_mask);
	if (!status) {
		mc->rec = group->rec;
		mc->rec.join_state = state;
		member->state = SA_MCAST_MEMBER;
		sa_mcast_count(group, state, 1);
		list_move_tail(&member->list, &group->active);
	} else {
		list_del_init(&member->list);
	}
	refcount_inc(&member->ref);
	spin_unlock_irq(&group->lock);
	sa_mcast_tell(member, status);
}

/*
 * The first pending member needs a state the port lacks: its Set goes
 * out.  Called with the group's lock held; returns with it dropped.
 * Return: true when the Set is out (the work waits for the answer).
 */
static bool sa_mcast_join_sa(struct sa_mcast_group *group,
			     struct sa_mcast_member *member)
	__releases(&group->lock)
{
	int status;

	group->joining = member;
	group->method = IB_MGMT_METHOD_SET;
	refcount_inc(&member->ref);
	spin_unlock_irq(&group->lock);

	status = sa_mcast_send_join(group, &member->multicast.rec,
				    member->multicast.comp_mask);
	if (!status) {
		sa_mcast_member_put(member);
		return true;
	}

	spin_lock_irq(&group->lock);
	group->method = 0;
	if (group->joining != member) {
		/* it left meanwhile: nobody to tell */
		spin_unlock_irq(&group->lock);
		sa_mcast_member_put(member);
		return false;
	}
	group->joining = NULL;
	list_del_init(&member->list);
	spin_unlock_irq(&group->lock);
	sa_mcast_tell(member, status);
	return false;
}

/**
 * sa_mcast_work - a group's state machine
 * @work: the group's @work
 *
 * Runs while the group is @busy: takes the SA's answer, handles port
 * events, then the pending members in order, then leaves the states
 * nobody needs; the group goes idle (and drops the reference @busy
 * held) when nothing is left to do.
 *
 * Context: Process context (sa_mcast_wq); sleeps; calls the members'
 * callbacks without a lock held.
 */
void sa_mcast_work(struct work_struct *work)
{
	struct sa_mcast_group *group = container_of(work, typeof(*group),
						    work);
	struct sa_mcast_member *member;
	u8 states;

	if (sa_mcast_take_answer(group))
		return;

	for (;;) {
		spin_lock_irq(&group->lock);
		if (group->event != SA_MCAST_EV_NONE) {
			spin_unlock_irq(&group->lock);
			sa_mcast_reset(group);
			continue;
		}

		member = list_first_entry_or_null(&group->pending,
						  struct sa_mcast_member, list);
		if (member) {
			states = member->multicast.rec.join_state;
			if ((group->rec.join_state & states) == states)
				sa_mcast_join_cached(group, member);
			else if (sa_mcast_join_sa(group, member))
				return;
			continue;
		}

		states = sa_mcast_unused_states(group);
		if (states) {
			group->rec.join_state &= ~states;
			group->leave_state = states;
			group->leave_retries = SA_MCAST_LEAVE_RETRIES;
			group->method = IB_SA_METHOD_DELETE;
			spin_unlock_irq(&group->lock);
			if (!sa_mcast_send_leave(group))
				return;
			/* no SA to tell: the states are gone anyway */
			spin_lock_irq(&group->lock);
			group->method = 0;
			spin_unlock_irq(&group->lock);
			continue;
		}

		group->busy = false;
		spin_unlock_irq(&group->lock);
		sa_mcast_group_put(group);
		return;
	}
}

/**
 * ib_sa_join_multicast - join a multicast group through the SA
 * @client: the caller's SA client (held until ib_sa_free_multicast())
 * @device: the device
 * @port_num: the port to join on
 * @rec: the membership asked for: MGID (0: the SA creates a group and
 *	names it), join state (IBTA JoinState bits, see enum
 *	ib_sa_mc_join_states), and the fields @comp_mask names
 * @comp_mask: IB_SA_MCMEMBER_REC_* of the fields that count
 * @gfp_mask: for the allocations
 * @callback: called once the join ended: 0 with @multicast->rec the
 *	group's record (and the member's join state), or an errno (the
 *	SA's refusal -EINVAL, -ETIMEDOUT, -EAGAIN without an SA address
 *	handle, -ENODEV when the device goes).  Later it may be called
 *	again with -ENETRESET when a port event lost the membership; the
 *	caller then frees it and joins anew.  Returning non-zero frees
 *	the member: the caller must not touch or free it after that.
 * @context: the caller's, in @multicast->context
 *
 * Joins of the same MGID on a port share one group: the SA gets a Set
 * only for a join state the port does not hold yet; one it holds is
 * answered at once from the group's record.  The joins of a group go
 * one after the other.
 *
 * Context: Any context @gfp_mask allows; @callback runs later in process
 * context (never from this call), with no lock held; it must not call
 * ib_sa_free_multicast() on its own member (it returns non-zero).
 * Return: the membership, to give to ib_sa_free_multicast(); or
 * ERR_PTR(-EINVAL) (no @rec or @callback), ERR_PTR(-ENODEV) (no SA on
 * the port, or the device is going), ERR_PTR(-ENOMEM).
 */
struct ib_sa_multicast *ib_sa_join_multicast(struct ib_sa_client *client,
					     struct ib_device *device,
					     u32 port_num,
					     struct ib_sa_mcmember_rec *rec,
					     ib_sa_comp_mask comp_mask,
					     gfp_t gfp_mask,
					     int (*callback)(int status,
							     struct ib_sa_multicast *multicast),
					     void *context)
{
	struct ib_sa_port *port = ib_sa_find_port(device, port_num);
	struct sa_mcast_member *member;
	struct ib_sa_multicast *mc;
	struct sa_mcast_group *group;
	unsigned long flags;
	int ret;

	if (!rec || !callback)
		return ERR_PTR(-EINVAL);
	if (!port || !port->mcast)
		return ERR_PTR(-ENODEV);

	member = kzalloc(sizeof(*member), gfp_mask);
	if (!member)
		return ERR_PTR(-ENOMEM);
	member->multicast.rec = *rec;
	member->multicast.comp_mask = comp_mask;
	member->multicast.callback = callback;
	member->multicast.context = context;
	member->state = SA_MCAST_JOINING;
	INIT_LIST_HEAD(&member->list);
	refcount_set(&member->ref, 1);
	init_completion(&member->done);

	group = sa_mcast_group_get(port->mcast, &rec->mgid, gfp_mask);
	if (IS_ERR(group)) {
		ret = PTR_ERR(group);
		goto err_free;
	}
	ib_sa_client_get(client);
	member->client = client;
	member->group = group;

	/* the callback may free it as soon as the lock is dropped */
	mc = &member->multicast;
	spin_lock_irqsave(&group->lock, flags);
	list_add_tail(&member->list, &group->pending);
	sa_mcast_group_kick(group);
	spin_unlock_irqrestore(&group->lock, flags);
	return mc;

err_free:
	kfree(member);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL(ib_sa_join_multicast);

/**
 * ib_sa_free_multicast - leave a multicast group
 * @multicast: what ib_sa_join_multicast() returned
 *
 * The member goes, joined or not: a join still pending is dropped (its
 * callback will not run), a Set of it out is left to end.  Join states
 * no other member of the group needs are left with an SA Delete, later.
 * Waits for a callback of the member that is running.
 *
 * Context: Process context; sleeps.  Not from the member's own callback
 * (return non-zero there instead).
 */
void ib_sa_free_multicast(struct ib_sa_multicast *multicast)
{
	struct sa_mcast_member *member =
		container_of(multicast, struct sa_mcast_member, multicast);
	struct sa_mcast_group *group = member->group;
	bool keep;

	spin_lock_irq(&group->lock);
	if (member->state == SA_MCAST_MEMBER)
		sa_mcast_count(group, multicast->rec.join_state, -1);
	member->state = SA_MCAST_LOST;
	list_del_init(&member->list);
	if (group->joining == member)
		group->joining = NULL;
	/* an idle group keeps the member's reference for its work */
	keep = !group->busy;
	if (keep) {
		group->busy = true;
		queue_work(sa_mcast_wq, &group->work);
	}
	spin_unlock_irq(&group->lock);
	if (!keep)
		sa_mcast_group_put(group);

	sa_mcast_member_put(member);
	wait_for_completion(&member->done);
	ib_sa_client_put(member->client);
	kfree(member);
}
EXPORT_SYMBOL(ib_sa_free_multicast);
