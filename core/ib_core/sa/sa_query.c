// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The machinery every SA query goes through: the send buffer addressed
 * to the SA, the header (TID from the agent's hi_tid), the number the
 * caller gets back (an xarray), the send with its timeout split into
 * retries, the answer or the failure turned into exactly one callback,
 * and cancellation.
 *
 * A query's life: the kind (sa_path.c, sa_guidinfo.c, sa_mcmember.c,
 * sa_classport.c) allocates it around a struct ib_sa_query, calls
 * ib_sa_query_prepare(), fills the attribute and calls
 * ib_sa_query_start().  From then on the MAD layer owns it: the
 * answer comes to ib_sa_recv_handler() (callback with status 0, or
 * -EINVAL when the SA set a status), the end of the send to
 * ib_sa_send_handler() (callback with -ETIMEDOUT, -EINTR or -EIO when
 * there was no answer), which then frees it.
 */

#include <linux/random.h>
#include <linux/xarray.h>
#include "../core_priv.h"
#include "sa_priv.h"

/* The SA answers in one try out of this many (upstream's split). */
#define SA_QUERY_TRIES	10

static DEFINE_XARRAY_FLAGS(sa_queries, XA_FLAGS_ALLOC | XA_FLAGS_LOCK_IRQ);

/* The lower halves of TIDs, shared by all ports (random start). */
static DEFINE_SPINLOCK(sa_tid_lock);
static u32 sa_tid;

/* Start the TIDs of this boot at a random place. */
void ib_sa_query_seed_tid(void)
{
	get_random_bytes(&sa_tid, sizeof(sa_tid));
}

/* No query in flight (the module is going). */
bool ib_sa_queries_idle(void)
{
	return xa_empty(&sa_queries);
}

/**
 * ib_sa_query_alloc_mad - a send buffer to the SA of the query's port
 * @query: ->port and ->flags set
 * @gfp_mask: for the buffer
 *
 * Takes a reference to the port's SA address handle.
 *
 * Context: Any context @gfp_mask allows.
 * Return: 0; -EAGAIN when the port has no SA address handle now or its
 * SM LID is not a unicast LID; -ENOMEM.
 */
static int ib_sa_query_alloc_mad(struct ib_sa_query *query, gfp_t gfp_mask)
{
	struct ib_sa_port *port = query->port;
	struct rdma_ah_attr attr;
	unsigned long flags;
	int ret = -EAGAIN;

	spin_lock_irqsave(&port->ah_lock, flags);
	query->sm_ah = port->sm_ah;
	if (query->sm_ah)
		kref_get(&query->sm_ah->ref);
	spin_unlock_irqrestore(&port->ah_lock, flags);
	if (!query->sm_ah)
		return -EAGAIN;

	/* no SM yet (LID 0), or one we cannot address */
	if (rdma_query_ah(query->sm_ah->ah, &attr) ||
	    !rdma_is_valid_unicast_lid(&attr))
		goto err_put;

	query->mad_buf = ib_create_send_mad(port->agent, 1,
					    query->sm_ah->pkey_index, 0,
					    IB_MGMT_SA_HDR, IB_MGMT_SA_DATA,
					    gfp_mask,
					    query->flags & IB_SA_QUERY_OPA ?
					    OPA_MGMT_BASE_VERSION :
					    IB_MGMT_BASE_VERSION);
	if (IS_ERR(query->mad_buf)) {
		ret = -ENOMEM;
		goto err_put;
	}
	query->mad_buf->ah = query->sm_ah->ah;
	return 0;

err_put:
	ib_sa_put_sm_ah(query->sm_ah);
	query->sm_ah = NULL;
	return ret;
}

/**
 * ib_sa_query_free_mad - undo ib_sa_query_alloc_mad()
 * @query: the query
 *
 * Context: Any context.
 */
static void ib_sa_query_free_mad(struct ib_sa_query *query)
{
	ib_free_send_mad(query->mad_buf);
	ib_sa_put_sm_ah(query->sm_ah);
}

/**
 * ib_sa_query_init_mad - the headers of a query's MAD
 * @query: with its send buffer
 * @method: IB_MGMT_METHOD_GET, ...
 * @attr_id: the SA attribute (host order)
 * @comp_mask: the component mask
 *
 * The rest (RMPP header, SM_Key, data) is zero.
 *
 * Context: Any context.
 */
static void ib_sa_query_init_mad(struct ib_sa_query *query, u8 method,
				 u16 attr_id, ib_sa_comp_mask comp_mask)
{
	struct ib_sa_mad *mad = query->mad_buf->mad;
	unsigned long flags;
	u32 lo;

	memset(mad, 0, sizeof(*mad));
	if (query->flags & IB_SA_QUERY_OPA) {
		mad->mad_hdr.base_version = OPA_MGMT_BASE_VERSION;
		mad->mad_hdr.class_version = OPA_SA_CLASS_VERSION;
	} else {
		mad->mad_hdr.base_version = IB_MGMT_BASE_VERSION;
		mad->mad_hdr.class_version = IB_SA_CLASS_VERSION;
	}
	mad->mad_hdr.mgmt_class = IB_MGMT_CLASS_SUBN_ADM;
	mad->mad_hdr.method = method;
	mad->mad_hdr.attr_id = cpu_to_be16(attr_id);
	mad->sa_hdr.comp_mask = comp_mask;

	spin_lock_irqsave(&sa_tid_lock, flags);
	lo = sa_tid++;
	spin_unlock_irqrestore(&sa_tid_lock, flags);
	mad->mad_hdr.tid = cpu_to_be64((u64)query->port->agent->hi_tid << 32 |
				       lo);
}

/**
 * ib_sa_query_send - number a query and send it
 * @query: ready (ib_sa_query_init_mad() and the attribute)
 * @timeout_ms: the caller's whole wait, split into SA_QUERY_TRIES tries
 * @gfp_mask: for the xarray
 *
 * Once it returned an id, the query belongs to the MAD layer and may
 * already have completed and been freed.
 *
 * Context: Any context @gfp_mask allows.
 * Return: the query's id (>= 0); a negative errno when it was not sent
 * (the caller still owns and frees it).
 */
static int ib_sa_query_send(struct ib_sa_query *query,
			    unsigned long timeout_ms, gfp_t gfp_mask)
{
	struct ib_mad_send_buf *buf = query->mad_buf;
	unsigned long flags;
	u32 id;
	int ret;

	xa_lock_irqsave(&sa_queries, flags);
	ret = __xa_alloc(&sa_queries, &id, query, xa_limit_32b, gfp_mask);
	xa_unlock_irqrestore(&sa_queries, flags);
	if (ret < 0)
		return ret;
	query->id = id;

	buf->timeout_ms = timeout_ms / SA_QUERY_TRIES;
	buf->retries = SA_QUERY_TRIES;
	if (!buf->timeout_ms) {
		/* less than a millisecond a try: tries of one millisecond */
		buf->timeout_ms = 1;
		buf->retries = timeout_ms;
	}
	buf->context[0] = query;
	INIT_LIST_HEAD(&query->ls_list);

	/* path queries go to the local service first, when one listens */
	if ((query->flags & IB_SA_ENABLE_LOCAL_SERVICE) &&
	    !(query->flags & IB_SA_QUERY_OPA)) {
		if (ib_sa_ls_send(query, gfp_mask))
			return id;
		query->flags &= ~IB_SA_ENABLE_LOCAL_SERVICE;
	}

	ret = ib_post_send_mad(buf, NULL);
	if (ret) {
		xa_lock_irqsave(&sa_queries, flags);
		__xa_erase(&sa_queries, id);
		xa_unlock_irqrestore(&sa_queries, flags);
		return ret;
	}
	return id;
}

/**
 * ib_sa_query_prepare - a query's send buffer, header and client reference
 * @query: ->port, ->callback, ->release and ->flags set
 * @client: the caller's SA client (a reference is taken), or NULL for
 *	the core's own queries
 * @method: IB_MGMT_METHOD_GET, ...
 * @attr_id: the SA attribute (host order)
 * @comp_mask: the component mask
 * @gfp_mask: for the buffer
 *
 * What every kind of one-record query does before it writes its
 * attribute into the MAD's data and calls ib_sa_query_start().
 *
 * Context: Any context @gfp_mask allows.
 * Return: 0; -EAGAIN when the port has no SA address handle; -ENOMEM.
 */
int ib_sa_query_prepare(struct ib_sa_query *query,
			struct ib_sa_client *client, u8 method, u16 attr_id,
			ib_sa_comp_mask comp_mask, gfp_t gfp_mask)
{
	int ret;

	ret = ib_sa_query_alloc_mad(query, gfp_mask);
	if (ret)
		return ret;
	if (client) {
		ib_sa_client_get(client);
		query->client = client;
	}
	ib_sa_query_init_mad(query, method, attr_id, comp_mask);
	return 0;
}

/**
 * ib_sa_query_start - send a prepared query, or undo the preparation
 * @query: prepared by ib_sa_query_prepare(), its attribute written
 * @timeout_ms: the caller's whole wait
 * @gfp_mask: for the xarray
 * @out: when not NULL, set to @query before the send (the callback may
 *	run before this returns) and back to NULL when it failed
 *
 * Context: Any context @gfp_mask allows.
 * Return: the query's id (>= 0), after which the query belongs to the
 * MAD layer; a negative errno when it was not sent: the buffer and the
 * client reference are released, the caller frees its structure.
 */
int ib_sa_query_start(struct ib_sa_query *query, unsigned long timeout_ms,
		      gfp_t gfp_mask, struct ib_sa_query **out)
{
	int ret;

	if (out)
		*out = query;
	ret = ib_sa_query_send(query, timeout_ms, gfp_mask);
	if (ret >= 0)
		return ret;
	if (out)
		*out = NULL;
	if (query->client)
		ib_sa_client_put(query->client);
	query->client = NULL;
	ib_sa_query_free_mad(query);
	return ret;
}

/**
 * ib_sa_cancel_query - cancel a query
 * @id: what the query call returned
 * @query: what it set in its last argument
 *
 * A query still in flight completes with -EINTR (its callback runs,
 * once, from the MAD layer's context, or from the local service's work
 * when that service had the query, maybe before this returns).
 * Nothing happens when @id is not @query's or the query ended already.
 *
 * Context: Any context; takes the query xarray's lock, the local
 * service's list lock and the agent's lock with interrupts off.
 */
void ib_sa_cancel_query(int id, struct ib_sa_query *query)
{
	unsigned long flags;

	xa_lock_irqsave(&sa_queries, flags);
	if (id < 0 || xa_load(&sa_queries, id) != query) {
		xa_unlock_irqrestore(&sa_queries, flags);
		return;
	}
	/*
	 * Still in the xarray, so not freed: the send handler erases it
	 * under this lock before it frees it.
	 */
	query->flags |= IB_SA_CANCEL;
	if (!ib_sa_ls_cancel(query))
		ib_cancel_mad(query->mad_buf);
	xa_unlock_irqrestore(&sa_queries, flags);
}
EXPORT_SYMBOL(ib_sa_cancel_query);

/* The query leaves the xarray and goes, its callback called already. */
static void sa_query_finish(struct ib_sa_query *query)
{
	unsigned long flags;

	xa_lock_irqsave(&sa_queries, flags);
	__xa_erase(&sa_queries, query->id);
	xa_unlock_irqrestore(&sa_queries, flags);

	ib_sa_query_free_mad(query);
	if (query->client)
		ib_sa_client_put(query->client);
	query->release(query);
}

/**
 * ib_sa_query_complete - end a sent query that is not at the MAD layer
 * @query: numbered by ib_sa_query_send(), its MAD not posted (or
 *	answered already, @status 0)
 * @status: 0 when the callback has run already (an answer given by
 *	the local service), else the error the callback gets with no
 *	record
 *
 * Then the query goes: out of the xarray, its MAD and references
 * released, freed.
 *
 * Context: Process context (the callback's); takes the xarray's lock.
 */
void ib_sa_query_complete(struct ib_sa_query *query, int status)
{
	if (status && query->callback)
		query->callback(query, status, NULL);
	sa_query_finish(query);
}

/*
 * The end of a query's send: the callback, unless the answer had it
 * already, then the query goes.
 */
void ib_sa_send_handler(struct ib_mad_agent *agent,
			struct ib_mad_send_wc *mad_send_wc)
{
	struct ib_sa_query *query = mad_send_wc->send_buf->context[0];

	if (query->callback) {
		switch (mad_send_wc->status) {
		case IB_WC_SUCCESS:
			break;	/* answered: the receive handler called it */
		case IB_WC_RESP_TIMEOUT_ERR:
			query->callback(query, -ETIMEDOUT, NULL);
			break;
		case IB_WC_WR_FLUSH_ERR:
			query->callback(query, -EINTR, NULL);
			break;
		default:
			query->callback(query, -EIO, NULL);
			break;
		}
	}
	sa_query_finish(query);
}

/*
 * The SA's answer to one of our queries (before its send completes).
 * A MAD status other than 0 is -EINVAL, the MAD still given along.
 */
void ib_sa_recv_handler(struct ib_mad_agent *agent,
			struct ib_mad_send_buf *send_buf,
			struct ib_mad_recv_wc *mad_recv_wc)
{
	struct ib_sa_query *query;
	struct ib_mad *mad = mad_recv_wc->recv_buf.mad;

	if (!send_buf)
		goto out;
	query = send_buf->context[0];
	if (!query->callback)
		goto out;
	if (mad_recv_wc->wc->status == IB_WC_SUCCESS)
		query->callback(query, mad->mad_hdr.status ? -EINVAL : 0,
				(struct ib_sa_mad *)mad);
	else
		query->callback(query, -EIO, NULL);
out:
	ib_free_recv_mad(mad_recv_wc);
}
