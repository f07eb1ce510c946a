// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Hardware counters and per-QP counters.
 *
 * A driver describes its counters with struct rdma_stat_desc tables and
 * hands the core sets of values (struct rdma_hw_stats) from its ops:
 * alloc_hw_device_stats (sysfs hw_counters/ of the device),
 * alloc_hw_port_stats (ports/<n>/hw_counters/ and nldev STAT_GET of a
 * port), counter_alloc_stats (one per-QP counter).  get_hw_stats and
 * counter_update_stats fill the values in.
 *
 * Per-QP counters (struct rdma_counter) belong to a port and exist while
 * QPs are bound to them: each bound QP holds a reference, the last unbind
 * frees the counter.  A port is in one of three modes:
 *
 *   NONE    no counter exists
 *   AUTO    a user QP that moves to INIT on the port is bound to the
 *           counter whose QPs share its criteria (QP type, owner's PID),
 *           a new one if none does; kernel QPs are left alone
 *   MANUAL  counters made by "rdma statistic qp bind"; the port is back
 *           to NONE when the last of them goes
 *
 * AUTO can be set only while the port has no counter.  What a freed
 * counter counted is added to the port's history (port_counter.hstats),
 * so the port's values never go back: a port's value shown is the
 * driver's port value plus the history plus every live counter.
 *
 * Locking: rdma_port_counter.lock (mode, number of counters, the
 * history's values) and rdma_counter.lock (the driver's ops of one
 * counter) are never held together; both may be taken under the lock of
 * a port's rdma_hw_stats (reading a port's values adds the counters'), so
 * neither is held when a set's lock is taken, and a driver's
 * counter_update_stats must not take its set's lock.  The restrack
 * table's xa_lock only inside lookups.  A QP is bound and
 * unbound with a reference on its restrack entry (netlink) or by its
 * owner (modify, destroy); destroy hides the QP from lookups first.
 */
#include <linux/bitmap.h>
#include <linux/capability.h>
#include <linux/export.h>
#include <linux/jiffies.h>
#include <linux/netlink.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_counter.h>

#include "core_priv.h"
#include "restrack.h"

#define COUNTER_AUTO_MASKS (RDMA_COUNTER_MASK_QP_TYPE | RDMA_COUNTER_MASK_PID)

/**
 * rdma_alloc_hw_stats_struct - allocate a set of hardware counter values
 * @descs: the counters, @num_counters entries, which must outlive the set
 * @num_counters: how many
 * @lifespan: how long the core reuses values read from the driver, in
 *	milliseconds (RDMA_HW_STATS_DEFAULT_LIFESPAN as a rule)
 *
 * Every counter starts at 0 and enabled; a driver whose optional
 * counters start disabled sets their bits in @is_disabled.
 *
 * Context: Process context; sleeps (GFP_KERNEL).
 *
 * Return: the set, to be freed with rdma_free_hw_stats_struct() (the
 * core frees the sets the driver's ops return), or NULL without memory
 * or counters.
 */
struct rdma_hw_stats *
rdma_alloc_hw_stats_struct(const struct rdma_stat_desc *descs,
			   int num_counters, unsigned long lifespan)
{
	struct rdma_hw_stats *stats;

	if (num_counters <= 0)
		return NULL;
	stats = kzalloc(struct_size(stats, value, num_counters), GFP_KERNEL);
	if (!stats)
		return NULL;
	stats->is_disabled = bitmap_zalloc(num_counters, GFP_KERNEL);
	if (!stats->is_disabled) {
		kfree(stats);
		return NULL;
	}
	stats->num_counters = num_counters;
	stats->descs = descs;
	stats->lifespan = msecs_to_jiffies(lifespan);
	mutex_init(&stats->lock);
	return stats;
}
EXPORT_SYMBOL(rdma_alloc_hw_stats_struct);

/**
 * rdma_free_hw_stats_struct - free a set of hardware counter values
 * @stats: what rdma_alloc_hw_stats_struct() returned, or NULL
 *
 * Context: Any context where kfree() may be called; nobody may use the
 * set any more.
 *
 * Return: nothing.
 */
void rdma_free_hw_stats_struct(struct rdma_hw_stats *stats)
{
	if (!stats)
		return;
	mutex_destroy(&stats->lock);
	bitmap_free(stats->is_disabled);
	kfree(stats);
}
EXPORT_SYMBOL(rdma_free_hw_stats_struct);

static struct rdma_port_counter *port_counter_of(struct ib_device *dev,
						 u32 port)
{
	return &dev->port_data[port].port_counter;
}

/* Set the mode of a port; under its lock. */
static int port_set_mode(struct rdma_port_counter *pc,
			 enum rdma_nl_counter_mode mode,
			 enum rdma_nl_counter_mask mask)
{
	if (mode == RDMA_COUNTER_MODE_AUTO) {
		if (mask & ~COUNTER_AUTO_MASKS)
			return -EINVAL;
		if (pc->num_counters)
			return -EBUSY;
	}
	pc->mode.mode = mode;
	pc->mode.mask = mask;
	return 0;
}

/**
 * rdma_counter_set_auto_mode - turn automatic binding of a port on or off
 * @dev: the device
 * @port: a valid port
 * @mask: the criteria (enum rdma_nl_counter_mask), 0 for off
 * @extack: where a refusal is explained
 *
 * Turning it off leaves the counters that exist; the port is in manual
 * mode while any does.
 *
 * Context: Process context; takes the port's counter lock.
 *
 * Return: 0 (also when nothing changed), -EOPNOTSUPP without port
 * counters, -EINVAL for unknown criteria, -EBUSY while counters exist.
 */
int rdma_counter_set_auto_mode(struct ib_device *dev, u32 port,
			       enum rdma_nl_counter_mask mask,
			       struct netlink_ext_ack *extack)
{
	struct rdma_port_counter *pc = port_counter_of(dev, port);
	enum rdma_nl_counter_mode mode;
	int ret = 0;

	if (!pc->hstats) {
		NL_SET_ERR_MSG(extack, "The port has no hardware counters");
		return -EOPNOTSUPP;
	}
	mutex_lock(&pc->lock);
	if (mask)
		mode = RDMA_COUNTER_MODE_AUTO;
	else if (pc->num_counters)
		mode = RDMA_COUNTER_MODE_MANUAL;
	else
		mode = RDMA_COUNTER_MODE_NONE;
	if (pc->mode.mode != mode || pc->mode.mask != mask)
		ret = port_set_mode(pc, mode, mask);
	mutex_unlock(&pc->lock);

	if (ret == -EBUSY)
		NL_SET_ERR_MSG(extack,
			       "Auto mode cannot change while QPs are bound to counters");
	else if (ret)
		NL_SET_ERR_MSG(extack, "Unknown auto mode criteria");
	return ret;
}

/* The driver binds @qp to @counter; -EINVAL if @qp has a counter. */
static int counter_bind(struct rdma_counter *counter, struct ib_qp *qp)
{
	int ret;

	if (qp->counter)
		return -EINVAL;
	if (!qp->device->ops.counter_bind_qp)
		return -EOPNOTSUPP;
	mutex_lock(&counter->lock);
	ret = qp->device->ops.counter_bind_qp(counter, qp);
	mutex_unlock(&counter->lock);
	return ret;
}

/* The port loses a counter; back to NONE after the last manual one. */
static void port_put_counter(struct rdma_port_counter *pc)
{
	mutex_lock(&pc->lock);
	pc->num_counters--;
	if (!pc->num_counters && pc->mode.mode == RDMA_COUNTER_MODE_MANUAL)
		port_set_mode(pc, RDMA_COUNTER_MODE_NONE, 0);
	mutex_unlock(&pc->lock);
}

/*
 * A new counter of @mode on @port with @qp bound to it, or an errno.
 * Its first reference is @qp's.
 */
static struct rdma_counter *counter_new(struct ib_device *dev, u32 port,
					struct ib_qp *qp,
					enum rdma_nl_counter_mode mode)
{
	struct rdma_port_counter *pc = port_counter_of(dev, port);
	struct rdma_counter *counter;
	int ret;

	if (!dev->ops.counter_dealloc || !dev->ops.counter_alloc_stats)
		return ERR_PTR(-EOPNOTSUPP);

	counter = kzalloc(sizeof(*counter), GFP_KERNEL);
	if (!counter)
		return ERR_PTR(-ENOMEM);
	counter->device = dev;
	counter->port = port;
	kref_init(&counter->kref);
	mutex_init(&counter->lock);
	rdma_restrack_new(&counter->res, RDMA_RESTRACK_COUNTER);
	counter->stats = dev->ops.counter_alloc_stats(counter);
	if (!counter->stats) {
		ret = -ENOMEM;
		goto err_free;
	}

	mutex_lock(&pc->lock);
	if (mode == RDMA_COUNTER_MODE_MANUAL) {
		ret = port_set_mode(pc, RDMA_COUNTER_MODE_MANUAL, 0);
	} else if (pc->mode.mode == RDMA_COUNTER_MODE_AUTO) {
		counter->mode.mask = pc->mode.mask;
		if (pc->mode.mask & RDMA_COUNTER_MASK_QP_TYPE)
			counter->mode.param.qp_type = qp->qp_type;
		ret = 0;
	} else {
		/* auto mode went off since the caller looked */
		ret = -EINVAL;
	}
	if (!ret)
		pc->num_counters++;
	mutex_unlock(&pc->lock);
	if (ret)
		goto err_stats;
	counter->mode.mode = mode;

	ret = counter_bind(counter, qp);
	if (ret)
		goto err_port;
	/* the counter's owner is its first QP's */
	rdma_restrack_parent_name(&counter->res, &qp->res);
	rdma_restrack_add(&counter->res);
	return counter;

err_port:
	port_put_counter(pc);
err_stats:
	rdma_free_hw_stats_struct(counter->stats);
err_free:
	rdma_restrack_del(&counter->res);
	mutex_destroy(&counter->lock);
	kfree(counter);
	return ERR_PTR(ret);
}

/* Add what @counter counted to its port's history. */
static void counter_to_history(struct rdma_counter *counter)
{
	struct rdma_port_counter *pc =
		port_counter_of(counter->device, counter->port);
	struct rdma_hw_stats *h = pc->hstats;
	int i, n;

	if (!h)
		return;
	rdma_counter_query_stats(counter);
	n = min(h->num_counters, counter->stats->num_counters);
	mutex_lock(&pc->lock);
	for (i = 0; i < n; i++)
		h->value[i] += counter->stats->value[i];
	mutex_unlock(&pc->lock);
}

/* The last reference of a counter went: free it. */
static void counter_release(struct kref *kref)
{
	struct rdma_counter *counter =
		container_of(kref, struct rdma_counter, kref);
	struct ib_device *dev = counter->device;

	counter_to_history(counter);
	rdma_restrack_del(&counter->res);
	dev->ops.counter_dealloc(counter);
	port_put_counter(port_counter_of(dev, counter->port));
	rdma_free_hw_stats_struct(counter->stats);
	mutex_destroy(&counter->lock);
	kfree(counter);
}

static void counter_put(struct rdma_counter *counter)
{
	kref_put(&counter->kref, counter_release);
}

/* Does @qp share the criteria @mask of @counter's QPs? */
static bool auto_match(struct ib_qp *qp, struct rdma_counter *counter,
		       enum rdma_nl_counter_mask mask)
{
	if (mask & RDMA_COUNTER_MASK_QP_TYPE &&
	    counter->mode.param.qp_type != qp->qp_type)
		return false;
	if (mask & RDMA_COUNTER_MASK_PID &&
	    task_pid_nr(counter->res.task) != task_pid_nr(qp->res.task))
		return false;
	return true;
}

/* The automatic counter of @port @qp belongs to, referenced, or NULL. */
static struct rdma_counter *auto_find(struct ib_qp *qp, u32 port)
{
	struct rdma_port_counter *pc = port_counter_of(qp->device, port);
	struct rdma_restrack_root *rt = &qp->device->res[RDMA_RESTRACK_COUNTER];
	struct rdma_restrack_entry *res;
	struct rdma_counter *found = NULL;
	unsigned long id;

	xa_lock(&rt->xa);
	xa_for_each(&rt->xa, id, res) {
		struct rdma_counter *c =
			container_of(res, struct rdma_counter, res);

		if (c->port != port || c->mode.mode != RDMA_COUNTER_MODE_AUTO ||
		    !auto_match(qp, c, pc->mode.mask))
			continue;
		if (kref_get_unless_zero(&c->kref)) {
			found = c;
			break;
		}
	}
	xa_unlock(&rt->xa);
	return found;
}

/**
 * rdma_counter_bind_qp_auto - bind a QP by the automatic mode of a port
 * @qp: a QP moving to INIT
 * @port: its port
 *
 * Nothing happens unless @port is in automatic mode and @qp a tracked
 * user QP.
 *
 * Context: Process context; sleeps.
 *
 * Return: 0 or a negative errno (the QP stays unbound).
 */
int rdma_counter_bind_qp_auto(struct ib_qp *qp, u32 port)
{
	struct ib_device *dev = qp->device;
	struct rdma_counter *counter;
	int ret;

	if (!rdma_restrack_is_tracked(&qp->res) || rdma_is_kernel_res(&qp->res))
		return 0;
	if (!rdma_is_port_valid(dev, port))
		return -EINVAL;
	if (READ_ONCE(port_counter_of(dev, port)->mode.mode) !=
	    RDMA_COUNTER_MODE_AUTO)
		return 0;

	counter = auto_find(qp, port);
	if (!counter) {
		counter = counter_new(dev, port, qp, RDMA_COUNTER_MODE_AUTO);
		return PTR_ERR_OR_ZERO(counter);
	}
	ret = counter_bind(counter, qp);
	if (ret)
		counter_put(counter);
	return ret;
}

/**
 * rdma_counter_unbind_qp - unbind a QP from its counter
 * @qp: the QP
 * @force: drop the QP's reference even if the driver failed (destroy)
 *
 * Context: Process context; sleeps (the last QP frees the counter).
 *
 * Return: 0, -EINVAL without a counter, or the driver's error.
 */
int rdma_counter_unbind_qp(struct ib_qp *qp, bool force)
{
	struct rdma_counter *counter = qp->counter;
	int ret;

	if (!counter)
		return -EINVAL;
	if (!qp->device->ops.counter_unbind_qp)
		return -EOPNOTSUPP;
	mutex_lock(&counter->lock);
	ret = qp->device->ops.counter_unbind_qp(qp);
	mutex_unlock(&counter->lock);
	if (ret && !force)
		return ret;
	counter_put(counter);
	return 0;
}

/**
 * rdma_counter_query_stats - have the driver update a counter's values
 * @counter: the counter
 *
 * Context: Process context; takes the counter's lock.
 *
 * Return: 0, -EINVAL when the driver cannot, or its error.
 */
int rdma_counter_query_stats(struct rdma_counter *counter)
{
	struct ib_device *dev = counter->device;
	int ret;

	if (!dev->ops.counter_update_stats)
		return -EINVAL;
	mutex_lock(&counter->lock);
	ret = dev->ops.counter_update_stats(counter);
	mutex_unlock(&counter->lock);
	return ret;
}

/* What the live counters of @port counted of counter @index. */
static u64 live_counters_sum(struct ib_device *dev, u32 port, u32 index)
{
	struct rdma_restrack_entry *res;
	unsigned long id = 0;
	u64 sum = 0;

	while ((res = rdma_restrack_get_next(dev, RDMA_RESTRACK_COUNTER, &id,
					     true))) {
		struct rdma_counter *c =
			container_of(res, struct rdma_counter, res);

		if (c->port == port && index < c->stats->num_counters &&
		    !rdma_counter_query_stats(c))
			sum += c->stats->value[index];
		rdma_restrack_put(res);
		id++;
	}
	return sum;
}

/**
 * rdma_counter_get_hwstat_value - what per-QP counters of a port counted
 * @dev: the device
 * @port: a valid port
 * @index: the counter, by its index in the port's descriptors
 *
 * The live counters of @port plus those freed before.  The value of a
 * port's counter is the driver's value plus this.
 *
 * Context: Process context; takes the counters' locks.
 *
 * Return: the sum, 0 without port counters.
 */
u64 rdma_counter_get_hwstat_value(struct ib_device *dev, u32 port, u32 index)
{
	struct rdma_port_counter *pc = port_counter_of(dev, port);
	struct rdma_hw_stats *h = pc->hstats;
	u64 v;

	if (!h || index >= h->num_counters)
		return 0;
	mutex_lock(&pc->lock);
	v = h->value[index];
	mutex_unlock(&pc->lock);
	return v + live_counters_sum(dev, port, index);
}

/* QP @qpn of @dev, referenced (rdma_restrack_put()), or NULL. */
static struct ib_qp *counter_get_qp(struct ib_device *dev, u32 qpn)
{
	struct rdma_restrack_entry *res;
	struct ib_qp *qp;

	res = rdma_restrack_get_byid(dev, RDMA_RESTRACK_QP, qpn);
	if (IS_ERR(res))
		return NULL;
	qp = container_of(res, struct ib_qp, res);
	if (qp->qp_type == IB_QPT_RAW_PACKET && !capable(CAP_NET_RAW)) {
		rdma_restrack_put(res);
		return NULL;
	}
	return qp;
}

/* Counter @id of @dev, with a reference of its own (counter_put()). */
static struct rdma_counter *counter_get_by_id(struct ib_device *dev, u32 id)
{
	struct rdma_restrack_entry *res;
	struct rdma_counter *counter;

	res = rdma_restrack_get_byid(dev, RDMA_RESTRACK_COUNTER, id);
	if (IS_ERR(res))
		return NULL;
	counter = container_of(res, struct rdma_counter, res);
	if (!kref_get_unless_zero(&counter->kref))
		counter = NULL;
	rdma_restrack_put(res);
	return counter;
}

/* Is @qp free to be bound on @port (its port, or none yet)? */
static bool qp_on_port(struct ib_qp *qp, u32 port)
{
	return !rdma_is_port_valid(qp->device, qp->port) || qp->port == port;
}

/**
 * rdma_counter_bind_qpn - bind a QP to an existing counter (manual mode)
 * @dev: the device
 * @port: a valid port
 * @qp_num: the QP
 * @counter_id: the counter
 *
 * Context: Process context; sleeps.
 *
 * Return: 0; -EINVAL in automatic mode, for a counter of another port or
 * owner kind (kernel, user) than the QP, or a QP that has a counter;
 * -ENOENT for an unknown QP or counter.
 */
int rdma_counter_bind_qpn(struct ib_device *dev, u32 port,
			  u32 qp_num, u32 counter_id)
{
	struct rdma_counter *counter;
	struct ib_qp *qp;
	int ret;

	if (READ_ONCE(port_counter_of(dev, port)->mode.mode) ==
	    RDMA_COUNTER_MODE_AUTO)
		return -EINVAL;
	qp = counter_get_qp(dev, qp_num);
	if (!qp)
		return -ENOENT;
	counter = counter_get_by_id(dev, counter_id);
	if (!counter) {
		ret = -ENOENT;
		goto out_qp;
	}
	if (rdma_is_kernel_res(&counter->res) != rdma_is_kernel_res(&qp->res) ||
	    counter->port != port || !qp_on_port(qp, port) ||
	    counter->mode.mode != RDMA_COUNTER_MODE_MANUAL) {
		ret = -EINVAL;
		goto out_counter;
	}
	ret = counter_bind(counter, qp);
	/* on success the reference is the QP's */
	if (!ret)
		goto out_qp;
out_counter:
	counter_put(counter);
out_qp:
	rdma_restrack_put(&qp->res);
	return ret;
}

/**
 * rdma_counter_bind_qpn_alloc - bind a QP to a new counter (manual mode)
 * @dev: the device
 * @port: a valid port
 * @qp_num: the QP
 * @counter_id: set to the new counter's number
 *
 * Context: Process context; sleeps.
 *
 * Return: 0; -EOPNOTSUPP without port counters; -EINVAL in automatic
 * mode, for a QP of another port or one that has a counter; -ENOENT for
 * an unknown QP; -ENOMEM.
 */
int rdma_counter_bind_qpn_alloc(struct ib_device *dev, u32 port,
				u32 qp_num, u32 *counter_id)
{
	struct rdma_port_counter *pc;
	struct rdma_counter *counter;
	struct ib_qp *qp;
	int ret = 0;

	if (!rdma_is_port_valid(dev, port))
		return -EINVAL;
	pc = port_counter_of(dev, port);
	if (!pc->hstats)
		return -EOPNOTSUPP;
	if (READ_ONCE(pc->mode.mode) == RDMA_COUNTER_MODE_AUTO)
		return -EINVAL;
	qp = counter_get_qp(dev, qp_num);
	if (!qp)
		return -ENOENT;
	if (!qp_on_port(qp, port) || qp->counter) {
		ret = -EINVAL;
		goto out;
	}
	counter = counter_new(dev, port, qp, RDMA_COUNTER_MODE_MANUAL);
	if (IS_ERR(counter)) {
		ret = PTR_ERR(counter);
		goto out;
	}
	if (counter_id)
		*counter_id = counter->id;
out:
	rdma_restrack_put(&qp->res);
	return ret;
}

/**
 * rdma_counter_unbind_qpn - unbind a QP from its manual counter
 * @dev: the device
 * @port: a valid port
 * @qp_num: the QP
 * @counter_id: the counter it must be bound to
 *
 * Context: Process context; sleeps (the last QP frees the counter).
 *
 * Return: 0; -EINVAL for a QP of another port, not bound to
 * @counter_id, or a port not in manual mode; -ENOENT for an unknown QP.
 */
int rdma_counter_unbind_qpn(struct ib_device *dev, u32 port,
			    u32 qp_num, u32 counter_id)
{
	struct ib_qp *qp;
	int ret;

	if (!rdma_is_port_valid(dev, port))
		return -EINVAL;
	qp = counter_get_qp(dev, qp_num);
	if (!qp)
		return -ENOENT;
	if (!qp_on_port(qp, port) || !qp->counter ||
	    qp->counter->id != counter_id ||
	    READ_ONCE(port_counter_of(dev, port)->mode.mode) !=
	    RDMA_COUNTER_MODE_MANUAL)
		ret = -EINVAL;
	else
		ret = rdma_counter_unbind_qp(qp, false);
	rdma_restrack_put(&qp->res);
	return ret;
}

/**
 * rdma_counter_get_mode - the counter mode of a port
 * @dev: the device
 * @port: a valid port
 * @mode: set to the mode
 * @mask: set to the automatic criteria
 *
 * Context: Process context; takes the port's counter lock.
 *
 * Return: 0.
 */
int rdma_counter_get_mode(struct ib_device *dev, u32 port,
			  enum rdma_nl_counter_mode *mode,
			  enum rdma_nl_counter_mask *mask)
{
	struct rdma_port_counter *pc = port_counter_of(dev, port);

	mutex_lock(&pc->lock);
	*mode = pc->mode.mode;
	*mask = pc->mode.mask;
	mutex_unlock(&pc->lock);
	return 0;
}

/**
 * rdma_counter_modify - turn an optional counter of a port on or off
 * @dev: the device
 * @port: a valid port
 * @index: the counter, by its index in the port's descriptors
 * @enable: on or off
 *
 * Context: Process context; takes the port stats' lock.
 *
 * Return: 0 (also when it already was so), -EOPNOTSUPP when the driver
 * cannot, -EINVAL for a counter that does not exist or is not optional,
 * or the driver's error.
 */
int rdma_counter_modify(struct ib_device *dev, u32 port,
			unsigned int index, bool enable)
{
	struct rdma_hw_stats *stats;
	int ret = 0;

	if (!dev->ops.modify_hw_stat)
		return -EOPNOTSUPP;
	stats = ib_get_hw_stats_port(dev, port);
	if (!stats || index >= stats->num_counters ||
	    !(stats->descs[index].flags & IB_STAT_FLAG_OPTIONAL))
		return -EINVAL;

	mutex_lock(&stats->lock);
	if (enable == !test_bit(index, stats->is_disabled))
		goto out;
	ret = dev->ops.modify_hw_stat(dev, port, index, enable);
	if (ret)
		goto out;
	if (enable)
		clear_bit(index, stats->is_disabled);
	else
		set_bit(index, stats->is_disabled);
out:
	mutex_unlock(&stats->lock);
	return ret;
}

/**
 * rdma_counter_init - set up the counters of a device being registered
 * @dev: the device, its port data allocated (with the ports' counter
 *	locks initialised)
 *
 * A port whose driver has port counters gets its history set (zeros);
 * without memory the port simply has no per-QP counters.
 *
 * Context: Process context; sleeps.
 */
void rdma_counter_init(struct ib_device *dev)
{
	u32 port;

	if (!dev->port_data || !dev->ops.alloc_hw_port_stats)
		return;
	rdma_for_each_port(dev, port) {
		struct rdma_port_counter *pc = port_counter_of(dev, port);

		pc->mode.mode = RDMA_COUNTER_MODE_NONE;
		pc->hstats = dev->ops.alloc_hw_port_stats(dev, port);
		if (!pc->hstats)
			ibdev_warn(dev,
				   "port %u: no memory for the history of its per-QP counters\n",
				   port);
	}
}

/**
 * rdma_counter_release - free what rdma_counter_init() set up
 * @dev: the device being freed, with no counter left
 *
 * Context: Process context.
 */
void rdma_counter_release(struct ib_device *dev)
{
	u32 port;

	if (!dev->port_data)
		return;
	rdma_for_each_port(dev, port) {
		struct rdma_port_counter *pc = port_counter_of(dev, port);

		WARN_ON(pc->num_counters);
		rdma_free_hw_stats_struct(pc->hstats);
		pc->hstats = NULL;
		mutex_destroy(&pc->lock);
	}
}
