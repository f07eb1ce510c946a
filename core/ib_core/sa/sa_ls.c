// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The local service: path queries offered to user space (ibacm) over
 * NETLINK_RDMA before they go to the SA (client RDMA_NL_LS).
 *
 * When some socket is a member of RDMA_NL_GROUP_LS, ib_sa_query_send()
 * hands a path query here instead of posting its MAD: the request goes
 * to the group as an RDMA_NL_LS_OP_RESOLVE message (family header
 * struct rdma_ls_resolve_header, then an attribute per field the
 * component mask names) and the query waits on sa_ls_list with a
 * deadline.  Then one of these ends its wait:
 *
 * - an answer with the request's sequence number and at least one
 *   record usable for the request's path_use: the records go to the
 *   query's callback, as if the SA had answered;
 * - an answer that says it failed (RDMA_NL_LS_F_ERR) or does not pass
 *   the policy, or the deadline (sa_ls_work): the MAD goes to the SA
 *   after all;
 * - a valid answer without a usable record: -EIO (as upstream);
 * - ib_sa_cancel_query(): -EINTR, from sa_ls_work;
 * - the removal of the query's device: -EINTR (ib_sa_ls_flush_port()).
 *
 * Locking: sa_ls_lock (taken with interrupts off: cancel comes under the
 * query xarray's lock from any context) protects the list, the
 * deadlines, the timeout and the queries' ls_* fields.  A query taken
 * off the list by a handler is that handler's; when it falls back to
 * the SA its MAD is posted before sa_ls_lock is dropped, so a cancel
 * finds it either here or at the MAD layer.  sa_ls_mutex serialises the
 * handlers (answers, sa_ls_work) with ib_sa_ls_flush_port(), so a
 * device is flushed only once no handler still works on one of its
 * queries.
 */

#include <kunit/visibility.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <net/netlink.h>
#include <rdma/ib_user_sa.h>
#include <rdma/rdma_netlink.h>
#include "../core_priv.h"
#include "sa_priv.h"

/* The local service's time to answer, ms: as upstream's. */
#define IB_SA_LOCAL_SVC_TIMEOUT_MIN	100
#define IB_SA_LOCAL_SVC_TIMEOUT_DEFAULT	2000
#define IB_SA_LOCAL_SVC_TIMEOUT_MAX	200000

/* The fields of a path request that the service is told about. */
#define SA_LS_COMP_MASK	(IB_SA_PATH_REC_SERVICE_ID | IB_SA_PATH_REC_DGID | \
			 IB_SA_PATH_REC_SGID |				\
			 IB_SA_PATH_REC_TRAFFIC_CLASS |			\
			 IB_SA_PATH_REC_PKEY | IB_SA_PATH_REC_QOS_CLASS)

static LIST_HEAD(sa_ls_list);
static DEFINE_SPINLOCK(sa_ls_lock);
static DEFINE_MUTEX(sa_ls_mutex);
static unsigned int sa_ls_timeout = IB_SA_LOCAL_SVC_TIMEOUT_DEFAULT;
static atomic_t sa_ls_seq = ATOMIC_INIT(0);

static void sa_ls_timeout_work(struct work_struct *work);
static DECLARE_DELAYED_WORK(sa_ls_work, sa_ls_timeout_work);

/*
 * Answers and SET_TIMEOUT: the attributes after the netlink header.  A
 * path record is exactly one struct ib_path_rec_data (upstream lets a
 * shorter one through and reads past it).
 */
static const struct nla_policy sa_ls_policy[LS_NLA_TYPE_MAX] = {
	[LS_NLA_TYPE_PATH_RECORD] =
		NLA_POLICY_EXACT_LEN(sizeof(struct ib_path_rec_data)),
	[LS_NLA_TYPE_TIMEOUT]	= { .type = NLA_U32 },
	[LS_NLA_TYPE_SERVICE_ID] = { .type = NLA_U64 },
	[LS_NLA_TYPE_DGID] = NLA_POLICY_EXACT_LEN(sizeof(struct rdma_nla_ls_gid)),
	[LS_NLA_TYPE_SGID] = NLA_POLICY_EXACT_LEN(sizeof(struct rdma_nla_ls_gid)),
	[LS_NLA_TYPE_TCLASS]	= { .type = NLA_U8 },
	[LS_NLA_TYPE_PKEY]	= { .type = NLA_U16 },
	[LS_NLA_TYPE_QOS_CLASS]	= { .type = NLA_U16 },
};

#if IS_ENABLED(CONFIG_KUNIT)
/* KUnit's stand-in for the group: takes the RESOLVE requests. */
static int (*sa_ls_tap)(struct sk_buff *skb);

/**
 * ib_sa_ls_kunit_set_tap - pretend a local service listens
 * @tap: takes (and frees) every RESOLVE request instead of the group,
 *	returns 0 or the errno a failed multicast would; NULL: the real
 *	group again.  Called under a spinlock, interrupts off.
 *
 * Context: Process context.
 */
void ib_sa_ls_kunit_set_tap(int (*tap)(struct sk_buff *skb))
{
	WRITE_ONCE(sa_ls_tap, tap);
}
EXPORT_SYMBOL_IF_KUNIT(ib_sa_ls_kunit_set_tap);

/**
 * ib_sa_ls_timeout_ms - the local service's time to answer now
 *
 * Context: Any context.
 * Return: the timeout in ms.
 */
unsigned int ib_sa_ls_timeout_ms(void)
{
	return READ_ONCE(sa_ls_timeout);
}
EXPORT_SYMBOL_IF_KUNIT(ib_sa_ls_timeout_ms);

/**
 * ib_sa_ls_pending - how many queries wait for the local service
 *
 * Context: Any context; takes the list's lock.
 * Return: the number of queries on the list.
 */
unsigned int ib_sa_ls_pending(void)
{
	struct ib_sa_query *query;
	unsigned long flags;
	unsigned int n = 0;

	spin_lock_irqsave(&sa_ls_lock, flags);
	list_for_each_entry(query, &sa_ls_list, ls_list)
		n++;
	spin_unlock_irqrestore(&sa_ls_lock, flags);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(ib_sa_ls_pending);

static bool sa_ls_tapped(void)
{
	return READ_ONCE(sa_ls_tap);
}

static int sa_ls_multicast(struct sk_buff *skb, gfp_t gfp)
{
	int (*tap)(struct sk_buff *skb) = READ_ONCE(sa_ls_tap);

	if (tap)
		return tap(skb);
	return rdma_nl_multicast(&init_net, skb, RDMA_NL_GROUP_LS, gfp);
}
#else
static bool sa_ls_tapped(void)
{
	return false;
}

static int sa_ls_multicast(struct sk_buff *skb, gfp_t gfp)
{
	return rdma_nl_multicast(&init_net, skb, RDMA_NL_GROUP_LS, gfp);
}
#endif

/* The size of the RESOLVE message's payload for @comp_mask. */
static size_t sa_ls_request_size(ib_sa_comp_mask comp_mask)
{
	size_t len = NLMSG_ALIGN(sizeof(struct rdma_ls_resolve_header));

	if (comp_mask & IB_SA_PATH_REC_SERVICE_ID)
		len += nla_total_size(sizeof(u64));
	if (comp_mask & IB_SA_PATH_REC_DGID)
		len += nla_total_size(sizeof(struct rdma_nla_ls_gid));
	if (comp_mask & IB_SA_PATH_REC_SGID)
		len += nla_total_size(sizeof(struct rdma_nla_ls_gid));
	if (comp_mask & IB_SA_PATH_REC_TRAFFIC_CLASS)
		len += nla_total_size(sizeof(u8));
	if (comp_mask & IB_SA_PATH_REC_PKEY)
		len += nla_total_size(sizeof(u16));
	if (comp_mask & IB_SA_PATH_REC_QOS_CLASS)
		len += nla_total_size(sizeof(u16));
	return len;
}

/* An attribute the service must understand (RDMA_NLA_F_MANDATORY). */
static int sa_ls_put(struct sk_buff *skb, int type, int len, const void *data)
{
	return nla_put(skb, RDMA_NLA_F_MANDATORY | type, len, data);
}

/*
 * The attributes of @rec that @comp_mask names; integers in host order,
 * GIDs as they are (network order).
 */
static int sa_ls_put_attrs(struct sk_buff *skb, const struct sa_path_rec *rec,
			   ib_sa_comp_mask comp_mask)
{
	u64 sid = be64_to_cpu(rec->service_id);
	u16 pkey = be16_to_cpu(rec->pkey);
	u16 qos = be16_to_cpu(rec->qos_class);

	if ((comp_mask & IB_SA_PATH_REC_SERVICE_ID) &&
	    sa_ls_put(skb, LS_NLA_TYPE_SERVICE_ID, sizeof(sid), &sid))
		return -EMSGSIZE;
	if ((comp_mask & IB_SA_PATH_REC_DGID) &&
	    sa_ls_put(skb, LS_NLA_TYPE_DGID, sizeof(rec->dgid), &rec->dgid))
		return -EMSGSIZE;
	if ((comp_mask & IB_SA_PATH_REC_SGID) &&
	    sa_ls_put(skb, LS_NLA_TYPE_SGID, sizeof(rec->sgid), &rec->sgid))
		return -EMSGSIZE;
	if ((comp_mask & IB_SA_PATH_REC_TRAFFIC_CLASS) &&
	    sa_ls_put(skb, LS_NLA_TYPE_TCLASS, sizeof(rec->traffic_class),
		      &rec->traffic_class))
		return -EMSGSIZE;
	if ((comp_mask & IB_SA_PATH_REC_PKEY) &&
	    sa_ls_put(skb, LS_NLA_TYPE_PKEY, sizeof(pkey), &pkey))
		return -EMSGSIZE;
	if ((comp_mask & IB_SA_PATH_REC_QOS_CLASS) &&
	    sa_ls_put(skb, LS_NLA_TYPE_QOS_CLASS, sizeof(qos), &qos))
		return -EMSGSIZE;
	return 0;
}

/* The RESOLVE request of @query, or NULL. */
static struct sk_buff *sa_ls_request(struct ib_sa_query *query,
				     const struct sa_path_rec *rec,
				     ib_sa_comp_mask comp_mask, gfp_t gfp_mask)
{
	struct rdma_ls_resolve_header *hdr;
	struct ib_device *dev = query->port->agent->device;
	struct nlmsghdr *nlh;
	struct sk_buff *skb;

	skb = nlmsg_new(sa_ls_request_size(comp_mask), gfp_mask);
	if (!skb)
		return NULL;
	if (!ibnl_put_msg(skb, &nlh, query->ls_seq, 0, RDMA_NL_LS,
			  RDMA_NL_LS_OP_RESOLVE, NLM_F_REQUEST))
		goto err_free;

	hdr = skb_put_zero(skb, NLMSG_ALIGN(sizeof(*hdr)));
	strscpy_pad(hdr->device_name, dev_name(&dev->dev),
		    sizeof(hdr->device_name));
	hdr->port_num = query->port->port_num;
	hdr->path_use = query->ls_path_use;

	if (sa_ls_put_attrs(skb, rec, comp_mask))
		goto err_free;
	nlmsg_end(skb, nlh);
	return skb;

err_free:
	nlmsg_free(skb);
	return NULL;
}

/*
 * Re-arm the work for the earliest deadline on the list (lock held); a
 * cancelled query is due now.
 */
static void sa_ls_arm(void)
{
	struct ib_sa_query *query;
	unsigned long first = 0, due;
	bool any = false;

	lockdep_assert_held(&sa_ls_lock);
	list_for_each_entry(query, &sa_ls_list, ls_list) {
		due = query->ls_cancelled ? jiffies : query->ls_deadline;
		if (!any || time_before(due, first))
			first = due;
		any = true;
	}
	if (any)
		mod_delayed_work(ib_wq, &sa_ls_work,
				 time_after(first, jiffies) ? first - jiffies : 0);
}

/**
 * ib_sa_ls_send - offer a path query to the local service
 * @query: numbered by ib_sa_query_send(), its MAD ready and the request
 *	record in ->mad_buf->context[1]
 * @gfp_mask: for the request
 *
 * Nothing is offered when no one listens on RDMA_NL_GROUP_LS, when the
 * component mask names none of the fields the service is told about,
 * or when the request cannot be built or sent.
 *
 * Context: Any context @gfp_mask allows; takes sa_ls_lock.
 * Return: true when the local service has the query (the caller returns
 * its id, the MAD not posted); false when it goes to the SA.
 */
bool ib_sa_ls_send(struct ib_sa_query *query, gfp_t gfp_mask)
{
	const struct sa_path_rec *rec = query->mad_buf->context[1];
	struct ib_sa_mad *mad = query->mad_buf->mad;
	ib_sa_comp_mask comp_mask = mad->sa_hdr.comp_mask;
	struct sk_buff *skb;
	unsigned long flags;
	gfp_t gfp;
	int ret;

	/* the request record is the caller's: not to be read later */
	query->mad_buf->context[1] = NULL;
	if (!rec || !(comp_mask & SA_LS_COMP_MASK))
		return false;
	if (!sa_ls_tapped() && !rdma_nl_chk_listeners(RDMA_NL_GROUP_LS))
		return false;

	query->ls_seq = (u32)atomic_inc_return(&sa_ls_seq);
	query->ls_cancelled = false;
	if ((comp_mask & IB_SA_PATH_REC_REVERSIBLE) && rec->reversible)
		query->ls_path_use = LS_RESOLVE_PATH_USE_ALL;
	else
		query->ls_path_use = LS_RESOLVE_PATH_USE_UNIDIRECTIONAL;

	skb = sa_ls_request(query, rec, comp_mask, gfp_mask);
	if (!skb)
		return false;

	/* under the lock: no answer can come before the query is listed */
	gfp = (gfp_mask & __GFP_HIGH) ? GFP_ATOMIC : GFP_NOWAIT;
	spin_lock_irqsave(&sa_ls_lock, flags);
	ret = sa_ls_multicast(skb, gfp);
	if (!ret) {
		query->ls_deadline = jiffies + msecs_to_jiffies(sa_ls_timeout);
		query->ls_waiting = true;
		list_add_tail(&query->ls_list, &sa_ls_list);
		if (list_is_singular(&sa_ls_list))
			sa_ls_arm();
	}
	spin_unlock_irqrestore(&sa_ls_lock, flags);
	return !ret;
}

/**
 * ib_sa_ls_cancel - cancel a query the local service has
 * @query: the query (still in the query xarray)
 *
 * The query is marked and sa_ls_work is run at once; it ends the query
 * with -EINTR.
 *
 * Context: Any context; called under the query xarray's lock, takes
 * sa_ls_lock.
 * Return: true when the local service had the query; false when it is at
 * the MAD layer (the caller cancels it there).
 */
bool ib_sa_ls_cancel(struct ib_sa_query *query)
{
	unsigned long flags;
	bool found;

	spin_lock_irqsave(&sa_ls_lock, flags);
	found = query->ls_waiting;
	if (found) {
		query->ls_cancelled = true;
		mod_delayed_work(ib_wq, &sa_ls_work, 0);
	}
	spin_unlock_irqrestore(&sa_ls_lock, flags);
	return found;
}

/*
 * @query leaves the list (lock held), onto @to if given: from now on it
 * is the caller's, and a cancel goes to the MAD layer.
 */
static void sa_ls_take(struct ib_sa_query *query, struct list_head *to)
{
	lockdep_assert_held(&sa_ls_lock);
	query->ls_waiting = false;
	if (to)
		list_move_tail(&query->ls_list, to);
	else
		list_del_init(&query->ls_list);
}

/* End the queries of @list (taken off sa_ls_list) with @status. */
static void sa_ls_complete_all(struct list_head *list, int status)
{
	struct ib_sa_query *query, *tmp;

	list_for_each_entry_safe(query, tmp, list, ls_list) {
		list_del_init(&query->ls_list);
		ib_sa_query_complete(query, status);
	}
}

/*
 * The SA after all: post @query's MAD (sa_ls_lock held, @query off the
 * list).  Return: 0, or the errno to end the query with.
 */
static int sa_ls_fall_back(struct ib_sa_query *query)
{
	lockdep_assert_held(&sa_ls_lock);
	return ib_post_send_mad(query->mad_buf, NULL) ? -EIO : 0;
}

/*
 * The deadlines: queries whose time is up go to the SA, cancelled ones
 * end with -EINTR; then the work waits for the next deadline.
 */
static void sa_ls_timeout_work(struct work_struct *work)
{
	struct ib_sa_query *query, *tmp;
	unsigned long flags;
	LIST_HEAD(cancelled);
	LIST_HEAD(failed);

	mutex_lock(&sa_ls_mutex);
	spin_lock_irqsave(&sa_ls_lock, flags);
	list_for_each_entry_safe(query, tmp, &sa_ls_list, ls_list) {
		if (query->ls_cancelled) {
			sa_ls_take(query, &cancelled);
			continue;
		}
		if (time_before(jiffies, query->ls_deadline))
			continue;
		sa_ls_take(query, NULL);
		if (sa_ls_fall_back(query))
			list_add_tail(&query->ls_list, &failed);
	}
	sa_ls_arm();
	spin_unlock_irqrestore(&sa_ls_lock, flags);

	sa_ls_complete_all(&cancelled, -EINTR);
	sa_ls_complete_all(&failed, -EIO);
	mutex_unlock(&sa_ls_mutex);
}

/**
 * ib_sa_ls_flush_port - end the queries of a port the local service has
 * @port: the port, whose device is going
 *
 * Each ends with -EINTR.  Waits for the handlers of answers and
 * deadlines that run: afterwards no query of @port is left here.
 *
 * Context: Process context; sleeps (sa_ls_mutex).
 */
void ib_sa_ls_flush_port(struct ib_sa_port *port)
{
	struct ib_sa_query *query, *tmp;
	LIST_HEAD(gone);

	mutex_lock(&sa_ls_mutex);
	spin_lock_irq(&sa_ls_lock);
	list_for_each_entry_safe(query, tmp, &sa_ls_list, ls_list)
		if (query->port == port)
			sa_ls_take(query, &gone);
	spin_unlock_irq(&sa_ls_lock);

	sa_ls_complete_all(&gone, -EINTR);
	mutex_unlock(&sa_ls_mutex);
}

/* The IB_PATH_* flags a record must have to serve @path_use. */
static u32 sa_ls_flags_needed(u8 path_use)
{
	switch (path_use) {
	case LS_RESOLVE_PATH_USE_UNIDIRECTIONAL:
		return IB_PATH_PRIMARY | IB_PATH_OUTBOUND;
	case LS_RESOLVE_PATH_USE_ALL:
		return IB_PATH_PRIMARY;
	default:
		return IB_PATH_PRIMARY | IB_PATH_GMP | IB_PATH_BIDIRECTIONAL;
	}
}

/*
 * A valid answer to @query (off the list, the caller's): its usable
 * records to the callback, or -EIO when it has none.
 */
static void sa_ls_deliver(struct ib_sa_query *query, const struct nlmsghdr *nlh)
{
	u32 need = sa_ls_flags_needed(query->ls_path_use);
	struct ib_path_rec_data *data;
	const struct nlattr *attr;
	struct sa_path_rec *recs;
	unsigned int n = 0;
	int rem;

	if (!query->ls_callback) {
		ib_sa_query_complete(query, 0);
		return;
	}
	recs = kcalloc(RDMA_PRIMARY_PATH_MAX_REC_NUM, sizeof(*recs),
		       GFP_KERNEL);
	if (!recs) {
		ib_sa_query_complete(query, -ENOMEM);
		return;
	}

	nla_for_each_attr(attr, nlmsg_data(nlh), nlmsg_len(nlh), rem) {
		if (nla_type(attr) != LS_NLA_TYPE_PATH_RECORD)
			continue;
		/* the policy checked its length */
		data = nla_data(attr);
		if ((data->flags & need) != need)
			continue;
		ib_sa_unpack_path(data->path_rec, &recs[n]);
		recs[n].rec_type = SA_PATH_REC_TYPE_IB;
		recs[n].flags = data->flags;
		sa_path_set_dmac_zero(&recs[n]);
		if (++n == RDMA_PRIMARY_PATH_MAX_REC_NUM)
			break;
	}

	if (n) {
		query->ls_callback(query, recs, n);
		ib_sa_query_complete(query, 0);
	} else {
		ib_sa_query_complete(query, -EIO);
	}
	kfree(recs);
}

/**
 * ib_nl_handle_resolve_resp - the local service's answer to a RESOLVE
 * @skb: the message's buffer, from a user-space socket
 * @nlh: the answer: nlmsg_seq of the request, RDMA_NL_LS_F_ERR or
 *	LS_NLA_TYPE_PATH_RECORD attributes
 * @extack: says why an answer was not used
 *
 * The query waiting with that sequence number takes the answer: records
 * for the callback, or (failed or malformed answer) its MAD goes to the
 * SA.  An answer nobody waits for (late, unknown, cancelled query) is
 * dropped.  The dispatch requires CAP_NET_ADMIN (RDMA_NL_ADMIN_PERM).
 *
 * Context: Process context (netlink input); sleeps (sa_ls_mutex), runs
 * the query's callback.
 * Return: 0 (as upstream, also for answers that were not used);
 * -EPERM for a request (NLM_F_REQUEST) or a message from the kernel.
 */
VISIBLE_IF_KUNIT int ib_nl_handle_resolve_resp(struct sk_buff *skb,
					       struct nlmsghdr *nlh,
					       struct netlink_ext_ack *extack)
{
	struct nlattr *tb[LS_NLA_TYPE_MAX];
	struct ib_sa_query *query = NULL, *iter;
	unsigned long flags;
	bool good;
	int ret;

	if ((nlh->nlmsg_flags & NLM_F_REQUEST) || !NETLINK_CB(skb).sk) {
		NL_SET_ERR_MSG(extack, "RESOLVE from user space is an answer, not a request");
		return -EPERM;
	}

	/* as upstream: liberal parsing, unknown attributes are skipped */
	good = !(nlh->nlmsg_flags & RDMA_NL_LS_F_ERR) &&
	       !nla_parse_deprecated(tb, LS_NLA_TYPE_MAX - 1, nlmsg_data(nlh),
				     nlmsg_len(nlh), sa_ls_policy, extack);

	mutex_lock(&sa_ls_mutex);
	spin_lock_irqsave(&sa_ls_lock, flags);
	list_for_each_entry(iter, &sa_ls_list, ls_list) {
		if (iter->ls_seq != nlh->nlmsg_seq)
			continue;
		/* a cancelled one is sa_ls_work's */
		if (!iter->ls_cancelled)
			query = iter;
		break;
	}
	if (!query) {
		spin_unlock_irqrestore(&sa_ls_lock, flags);
		NL_SET_ERR_MSG(extack, "No path query waits for this sequence number");
		goto out;
	}
	sa_ls_take(query, NULL);
	if (!good) {
		ret = sa_ls_fall_back(query);
		spin_unlock_irqrestore(&sa_ls_lock, flags);
		if (ret)
			ib_sa_query_complete(query, ret);
		goto out;
	}
	spin_unlock_irqrestore(&sa_ls_lock, flags);
	sa_ls_deliver(query, nlh);
out:
	mutex_unlock(&sa_ls_mutex);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ib_nl_handle_resolve_resp);

/**
 * ib_nl_handle_set_timeout - the local service sets its time to answer
 * @skb: the message's buffer, from a user-space socket
 * @nlh: a request (NLM_F_REQUEST) with LS_NLA_TYPE_TIMEOUT (u32, ms)
 * @extack: why it was refused
 *
 * The timeout is clamped to [100, 200000] ms.  The deadlines of the
 * queries waiting move by the difference to the old timeout (not
 * before now).  The dispatch requires CAP_NET_ADMIN.
 *
 * Context: Process context (netlink input); takes sa_ls_lock.
 * Return: 0; -EPERM for an answer (no NLM_F_REQUEST) or a message from
 * the kernel; -EINVAL without a valid LS_NLA_TYPE_TIMEOUT (upstream
 * ignores those with 0).
 */
VISIBLE_IF_KUNIT int ib_nl_handle_set_timeout(struct sk_buff *skb,
					      struct nlmsghdr *nlh,
					      struct netlink_ext_ack *extack)
{
	struct nlattr *tb[LS_NLA_TYPE_MAX];
	struct ib_sa_query *query;
	unsigned long flags;
	unsigned int timeout;
	long delta;
	int ret;

	if (!(nlh->nlmsg_flags & NLM_F_REQUEST) || !NETLINK_CB(skb).sk) {
		NL_SET_ERR_MSG(extack, "SET_TIMEOUT must be a request from user space");
		return -EPERM;
	}
	ret = nla_parse_deprecated(tb, LS_NLA_TYPE_MAX - 1, nlmsg_data(nlh),
				   nlmsg_len(nlh), sa_ls_policy, extack);
	if (ret)
		return ret;
	if (!tb[LS_NLA_TYPE_TIMEOUT]) {
		NL_SET_ERR_MSG(extack, "SET_TIMEOUT needs LS_NLA_TYPE_TIMEOUT");
		return -EINVAL;
	}

	timeout = clamp_t(u32, nla_get_u32(tb[LS_NLA_TYPE_TIMEOUT]),
			  IB_SA_LOCAL_SVC_TIMEOUT_MIN,
			  IB_SA_LOCAL_SVC_TIMEOUT_MAX);

	spin_lock_irqsave(&sa_ls_lock, flags);
	delta = (long)msecs_to_jiffies(timeout) -
		(long)msecs_to_jiffies(sa_ls_timeout);
	WRITE_ONCE(sa_ls_timeout, timeout);
	if (delta) {
		list_for_each_entry(query, &sa_ls_list, ls_list) {
			query->ls_deadline += delta;
			if (time_before(query->ls_deadline, jiffies))
				query->ls_deadline = jiffies;
		}
		sa_ls_arm();
	}
	spin_unlock_irqrestore(&sa_ls_lock, flags);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ib_nl_handle_set_timeout);

/* All three ops change kernel state: CAP_NET_ADMIN, as upstream. */
static const struct rdma_nl_cbs sa_ls_cb_table[RDMA_NL_LS_NUM_OPS] = {
	[RDMA_NL_LS_OP_RESOLVE] = {
		.doit = ib_nl_handle_resolve_resp,
		.flags = RDMA_NL_ADMIN_PERM,
	},
	[RDMA_NL_LS_OP_SET_TIMEOUT] = {
		.doit = ib_nl_handle_set_timeout,
		.flags = RDMA_NL_ADMIN_PERM,
	},
	[RDMA_NL_LS_OP_IP_RESOLVE] = {
		.doit = ib_nl_handle_ip_res_resp,
		.flags = RDMA_NL_ADMIN_PERM,
	},
};

/**
 * ib_sa_ls_init - start answering RDMA_NL_LS messages
 *
 * Context: Process context (module init).
 */
void ib_sa_ls_init(void)
{
	rdma_nl_register(RDMA_NL_LS, sa_ls_cb_table);
}

/**
 * ib_sa_ls_cleanup - stop the local service
 *
 * After every device is gone (ib_sa_ls_flush_port() emptied the list):
 * no more answers, no work left.
 *
 * Context: Process context (module exit); sleeps.
 */
void ib_sa_ls_cleanup(void)
{
	rdma_nl_unregister(RDMA_NL_LS);
	cancel_delayed_work_sync(&sa_ls_work);
	WARN_ON(!list_empty(&sa_ls_list));
}

MODULE_ALIAS_RDMA_NETLINK(RDMA_NL_LS, 4);
