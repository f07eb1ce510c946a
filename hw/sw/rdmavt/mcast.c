// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdmavt multicast: the groups of each port and their delivery.
 *
 * Each port (struct rvt_ibport) keeps its groups in an rbtree by MGID
 * under its lock.  A group holds the UD QPs attached to it in an RCU
 * list; each attachment references its QP.  A UD datagram whose AH names
 * a multicast LID (0xC000..0xFFFE) and carries a GRH with the group's
 * MGID goes to every QP attached to that group on every device the
 * driver's fabric reaches (driver_f.next_fabric_dev), except the
 * sending QP itself; each receiver gets a copy and a completion of its
 * own.
 *
 * Lifetimes: a sender walks a group's list under rcu_read_lock() while
 * holding a reference on the group (rvt_mcast_find()).  Detach unlinks
 * the QP, waits for an RCU grace period and only then drops the QP; the
 * last detach of a group takes it out of the tree and waits for the
 * group's references to drop before freeing it.  The core counts each
 * attachment in the QP's usecnt, so an attached QP is not destroyed.
 */

#include <linux/slab.h>
#include <rdma/rdma_vt.h>

#include "vt.h"
#include "engine.h"

static bool rvt_mlid_ok(u32 lid)
{
	return lid >= be16_to_cpu(IB_MULTICAST_LID_BASE) &&
	       lid < be16_to_cpu(IB_LID_PERMISSIVE);
}

/* The group of @mgid in the tree of @ibp, or NULL; under ibp->lock. */
static struct rvt_mcast *rvt_mcast_lookup(struct rvt_ibport *ibp,
					  const union ib_gid *mgid)
{
	struct rb_node *n = ibp->mcast_tree.rb_node;

	while (n) {
		struct rvt_mcast *m = rb_entry(n, struct rvt_mcast, rb_node);
		int c = memcmp(mgid->raw, m->mcast_addr.mgid.raw,
			       sizeof(mgid->raw));

		if (!c)
			return m;
		n = c < 0 ? n->rb_left : n->rb_right;
	}
	return NULL;
}

/* Link a new group into the tree of @ibp; under ibp->lock. */
static void rvt_mcast_link(struct rvt_ibport *ibp, struct rvt_mcast *mcast)
{
	struct rb_node **n = &ibp->mcast_tree.rb_node, *parent = NULL;

	while (*n) {
		struct rvt_mcast *m = rb_entry(*n, struct rvt_mcast, rb_node);

		parent = *n;
		if (memcmp(mcast->mcast_addr.mgid.raw, m->mcast_addr.mgid.raw,
			   sizeof(m->mcast_addr.mgid.raw)) < 0)
			n = &(*n)->rb_left;
		else
			n = &(*n)->rb_right;
	}
	rb_link_node(&mcast->rb_node, parent, n);
	rb_insert_color(&mcast->rb_node, &ibp->mcast_tree);
}

/**
 * rvt_mcast_find - find a multicast group of a port and reference it
 * @ibp: the port
 * @mgid: the group's multicast GID
 * @lid: the group's multicast LID (host order)
 *
 * One MLID may serve several MGIDs, but an MGID has one MLID: a group
 * whose MGID matches but whose MLID does not is not found.
 *
 * Context: Any context; does not sleep. Called by the send engine,
 * which runs in the poster's context (softirq for a net device's
 * transmit, IPoIB's): @ibp->lock is taken with interrupts off, here and
 * in rvt_attach_mcast() and rvt_detach_mcast().
 *
 * Return: the group, referenced (drop with rvt_mcast_put()), or NULL.
 */
struct rvt_mcast *rvt_mcast_find(struct rvt_ibport *ibp, union ib_gid *mgid,
				 u16 lid)
{
	struct rvt_mcast *mcast;
	unsigned long flags;

	spin_lock_irqsave(&ibp->lock, flags);
	mcast = rvt_mcast_lookup(ibp, mgid);
	if (mcast && mcast->mcast_addr.lid == lid)
		atomic_inc(&mcast->refcount);
	else
		mcast = NULL;
	spin_unlock_irqrestore(&ibp->lock, flags);
	return mcast;
}
EXPORT_SYMBOL(rvt_mcast_find);

static struct rvt_mcast_qp *rvt_mcast_member(struct rvt_mcast *mcast,
					     struct rvt_qp *qp)
{
	struct rvt_mcast_qp *mqp;

	list_for_each_entry(mqp, &mcast->qp_list, list)
		if (mqp->qp == qp)
			return mqp;
	return NULL;
}

/* The port whose groups the QP joins; the special QPs (0, 1) join none. */
static struct rvt_ibport *rvt_mcast_port(struct rvt_qp *qp)
{
	if (qp->ibqp.qp_num <= 1)
		return NULL;
	return qp->rdi->ports[qp->port_num - 1];
}

/* A group not linked anywhere yet, for rvt_attach_mcast(). */
static struct rvt_mcast *rvt_mcast_alloc(union ib_gid *gid, u16 lid)
{
	struct rvt_mcast *mcast = kzalloc(sizeof(*mcast), GFP_KERNEL);

	if (!mcast)
		return NULL;
	mcast->mcast_addr.mgid = *gid;
	mcast->mcast_addr.lid = lid;
	INIT_LIST_HEAD(&mcast->qp_list);
	init_waitqueue_head(&mcast->wait);
	return mcast;
}

/*
 * May @qp join the existing group @mcast (NULL: a new one) under @lid?
 * Under the port's lock.  Returns 1 to join, 0 when it is a member
 * already (one more attach counted), or a negative error: -EINVAL for
 * an MGID used with another MLID, -ENOMEM for a full group.
 */
static int rvt_mcast_join_ok(struct rvt_qp *qp, struct rvt_mcast *mcast,
			     u16 lid)
{
	struct rvt_mcast_qp *old;

	if (!mcast)
		return 1;
	if (mcast->mcast_addr.lid != lid)
		return -EINVAL;
	old = rvt_mcast_member(mcast, qp);
	if (old) {
		old->count++;
		return 0;
	}
	if (mcast->n_attached >= qp->rdi->dparms.props.max_mcast_qp_attach)
		return -ENOMEM;
	return 1;
}

/*
 * The devices' multicast counters (n_mcast_*): taken only under a
 * port's lock, interrupts off (not rdi->n_lock, which process context
 * takes with interrupts on: under a lock the send path takes, that
 * would be an interrupt-unsafe lock inside an interrupt-safe one).
 */
static DEFINE_SPINLOCK(rvt_mcast_n_lock);

/*
 * Count one attachment (and, with @new_group, one group) against the
 * device's limits: 0, or -ENOMEM past one.
 */
static int rvt_mcast_count(struct rvt_dev_info *rdi, bool new_group)
{
	struct ib_device_attr *props = &rdi->dparms.props;
	int ret = 0;

	spin_lock(&rvt_mcast_n_lock);
	if (rdi->n_mcast_qp_attached >= props->max_total_mcast_qp_attach ||
	    (new_group && rdi->n_mcast_grps_allocated >= props->max_mcast_grp)) {
		ret = -ENOMEM;
	} else {
		rdi->n_mcast_qp_attached++;
		if (new_group)
			rdi->n_mcast_grps_allocated++;
	}
	spin_unlock(&rvt_mcast_n_lock);
	return ret;
}

/**
 * rvt_attach_mcast - ops.attach_mcast of rdmavt devices
 * @ibqp: a UD QP past RESET
 * @gid: the group's multicast GID
 * @lid: the group's multicast LID
 *
 * Attaching a QP that is already attached succeeds and takes one more
 * rvt_detach_mcast() to undo.  Limits: dparms.props.max_mcast_grp groups
 * per device, max_mcast_qp_attach QPs per group and
 * max_total_mcast_qp_attach attachments per device.  Exported for
 * drivers whose own attach_mcast op (rxe: the net device's multicast
 * filter) wraps this one.
 *
 * Context: Process context; allocates with GFP_KERNEL, takes the port's
 * lock.
 *
 * Return: 0; -EINVAL for a special QP, a QP in RESET or an MGID already
 * used with another MLID; -ENOMEM past a limit or out of memory.
 */
int rvt_attach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	struct rvt_qp *qp = container_of(ibqp, struct rvt_qp, ibqp);
	struct rvt_mcast *mcast, *fresh;
	struct rvt_mcast_qp *mqp;
	struct rvt_ibport *ibp;
	unsigned long flags;
	int ret;

	ibp = rvt_mcast_port(qp);
	if (!ibp || READ_ONCE(qp->state) == IB_QPS_RESET)
		return -EINVAL;
	/* allocated up front: the port's lock is a spin lock */
	fresh = rvt_mcast_alloc(gid, lid);
	mqp = kzalloc(sizeof(*mqp), GFP_KERNEL);
	if (!fresh || !mqp) {
		ret = -ENOMEM;
		goto out;
	}
	mqp->qp = qp;
	mqp->count = 1;

	spin_lock_irqsave(&ibp->lock, flags);
	mcast = rvt_mcast_lookup(ibp, gid);
	ret = rvt_mcast_join_ok(qp, mcast, lid);
	if (ret <= 0)
		goto out_unlock;
	ret = rvt_mcast_count(qp->rdi, !mcast);
	if (ret)
		goto out_unlock;
	if (!mcast) {
		mcast = fresh;
		fresh = NULL;
		rvt_mcast_link(ibp, mcast);
	}
	refcount_inc(&qp->refcount);
	atomic_inc(&mcast->refcount);
	mcast->n_attached++;
	list_add_tail_rcu(&mqp->list, &mcast->qp_list);
	mqp = NULL;

out_unlock:
	spin_unlock_irqrestore(&ibp->lock, flags);
out:
	kfree(mqp);
	kfree(fresh);
	return ret;
}
EXPORT_SYMBOL(rvt_attach_mcast);

/**
 * rvt_detach_mcast - ops.detach_mcast of rdmavt devices
 * @ibqp: the QP
 * @gid: the group's multicast GID
 * @lid: the group's multicast LID
 *
 * Undoes one rvt_attach_mcast(), in any QP state: unlike upstream, a QP
 * moved back to RESET while attached can still leave (and so be
 * destroyed).  When the QP leaves the group, returns
 * after no sender can deliver to it through the group any more.  The
 * last QP leaving frees the group once its references are dropped.
 * Exported as rvt_attach_mcast() is.
 *
 * Context: Process context; sleeps (an RCU grace period, the group's
 * references).
 *
 * Return: 0, or -EINVAL when the QP is special, or the group does not
 * exist or the QP is not attached to it.
 */
int rvt_detach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	struct rvt_qp *qp = container_of(ibqp, struct rvt_qp, ibqp);
	struct rvt_dev_info *rdi = qp->rdi;
	struct rvt_mcast_qp *mqp = NULL;
	struct rvt_mcast *mcast;
	struct rvt_ibport *ibp;
	unsigned long flags;
	bool last = false;

	ibp = rvt_mcast_port(qp);
	if (!ibp)
		return -EINVAL;

	spin_lock_irqsave(&ibp->lock, flags);
	mcast = rvt_mcast_lookup(ibp, gid);
	if (mcast && mcast->mcast_addr.lid == lid)
		mqp = rvt_mcast_member(mcast, qp);
	if (!mqp) {
		spin_unlock_irqrestore(&ibp->lock, flags);
		return -EINVAL;
	}
	if (--mqp->count) {
		spin_unlock_irqrestore(&ibp->lock, flags);
		return 0;
	}
	list_del_rcu(&mqp->list);
	if (!--mcast->n_attached) {
		rb_erase(&mcast->rb_node, &ibp->mcast_tree);
		last = true;
	}
	spin_lock(&rvt_mcast_n_lock);
	rdi->n_mcast_qp_attached--;
	if (last)
		rdi->n_mcast_grps_allocated--;
	spin_unlock(&rvt_mcast_n_lock);
	spin_unlock_irqrestore(&ibp->lock, flags);

	/* senders walking the list may still see the entry until now */
	synchronize_rcu();
	rvt_put_qp(qp);
	kfree(mqp);
	rvt_mcast_put(mcast);
	if (last) {
		wait_event(mcast->wait, !atomic_read(&mcast->refcount));
		kfree(mcast);
	}
	return 0;
}
EXPORT_SYMBOL(rvt_detach_mcast);

struct rvt_mcast_walk {
	struct rvt_qp		*sqp;
	union ib_gid		*mgid;
	u16			lid;
	const struct rvt_wire	*wire;
	void			(*deliver)(struct rvt_qp *dqp, void *arg);
	void			*arg;
};

/*
 * Deliver to the members of the group on every ACTIVE port of @dest;
 * under RCU.  Each port with the group counts the datagram once, the
 * sender's own port excepted (that copy never crosses the link).
 */
static void rvt_mcast_dev(struct rvt_dev_info *dest, void *arg)
{
	struct rvt_mcast_walk *w = arg;
	struct rvt_mcast_qp *mqp;
	struct rvt_mcast *mcast;
	u32 i;

	for (i = 0; i < dest->dparms.nports; i++) {
		if (!rvt_port_active(dest, i + 1))
			continue;
		mcast = rvt_mcast_find(dest->ports[i], w->mgid, w->lid);
		if (!mcast)
			continue;
		if (w->wire && (dest != w->sqp->rdi ||
				i + 1 != w->sqp->port_num)) {
			rvt_count_rcv(dest->ports[i], w->wire, true);
			rvt_hw_count_port(dest->ports[i], RVT_CNT_RCVD_PKTS,
					  w->wire->pkts);
		}
		list_for_each_entry_rcu(mqp, &mcast->qp_list, list)
			if (mqp->qp != w->sqp)
				w->deliver(mqp->qp, w->arg);
		rvt_mcast_put(mcast);
	}
}

/**
 * rvt_mcast_deliver - deliver a datagram to a multicast group
 * @qp: the sending UD QP
 * @attr: the address vector of the datagram
 * @wire: its packets, counted at the sender and at the receiving ports
 *	(NULL: not counted)
 * @deliver: called for each receiving QP, in atomic context
 * @arg: argument of @deliver
 *
 * A sender's port that is not ACTIVE sends nothing; receiving ports
 * that are not ACTIVE are skipped.
 *
 * Return: false when @attr does not name a multicast LID (a unicast
 * datagram: nothing done); true when it does, whether or not a QP got
 * it (a multicast datagram without a GRH reaches nobody).
 */
bool rvt_mcast_deliver(struct rvt_qp *qp, const struct rdma_ah_attr *attr,
		       const struct rvt_wire *wire,
		       void (*deliver)(struct rvt_qp *dqp, void *arg),
		       void *arg)
{
	struct rvt_dev_info *rdi = qp->rdi;
	struct rvt_mcast_walk w = {
		.sqp = qp,
		.lid = rdma_ah_get_dlid(attr),
		.wire = wire,
		.deliver = deliver,
		.arg = arg,
	};

	if (!rvt_mlid_ok(rdma_ah_get_dlid(attr)))
		return false;
	if (!rvt_port_active(rdi, qp->port_num))
		return true;
	if (wire)
		rvt_count_xmit(rdi->ports[qp->port_num - 1], wire, true);
	if (!(rdma_ah_get_ah_flags(attr) & IB_AH_GRH))
		return true;
	w.mgid = (union ib_gid *)&rdma_ah_read_grh(attr)->dgid;

	rcu_read_lock();
	if (!rdi->driver_f.next_fabric_dev) {
		rvt_mcast_dev(rdi, &w);
	} else {
		struct rvt_dev_info *dest = NULL;

		while ((dest = rdi->driver_f.next_fabric_dev(rdi, qp->port_num,
							     dest)))
			rvt_mcast_dev(dest, &w);
	}
	rcu_read_unlock();
	return true;
}
