// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Port-mapper client state: requests waiting for iwpmd, the table of
 * local/mapped address pairs, the table of remote peers' real addresses,
 * the per-client registration state, and the helpers that build and
 * parse port-mapper messages.
 */
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>

#include "iwpm_util.h"

#define IWPM_MSG_SIZE		512
#define IWPM_MAPINFO_HASH_BITS	9
#define IWPM_REMINFO_HASH_BITS	6

/*
 * Pending requests, indexed by their sequence number.  The xarray's own
 * lock serialises insertion, lookup (with the reference taken under it)
 * and removal; the table holds one reference on each entry.
 */
static DEFINE_XARRAY(iwpm_requests);

/*
 * iwpm_map_lock protects iwpm_map_table and iwpm_map_count; it is never
 * held while sleeping or calling out.  iwpm_rem_lock does the same for
 * iwpm_rem_table and iwpm_rem_count.  Neither nests in the other.
 */
static DEFINE_SPINLOCK(iwpm_map_lock);
static DEFINE_HASHTABLE(iwpm_map_table, IWPM_MAPINFO_HASH_BITS);
static unsigned int iwpm_map_count;

static DEFINE_SPINLOCK(iwpm_rem_lock);
static DEFINE_HASHTABLE(iwpm_rem_table, IWPM_REMINFO_HASH_BITS);
static unsigned int iwpm_rem_count;

static struct iwpm_admin_data iwpm_admin;

/* ------------------------------------------------------------------
 * Addresses
 */

/**
 * iwpm_sockaddr_valid - whether an address is IPv4 or IPv6
 * @sockaddr: the address
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: true for AF_INET and AF_INET6, false for anything else.
 */
bool iwpm_sockaddr_valid(const struct sockaddr_storage *sockaddr)
{
	return sockaddr->ss_family == AF_INET ||
	       sockaddr->ss_family == AF_INET6;
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_sockaddr_valid);

/**
 * iwpm_compare_sockaddr - compare two IP/TCP addresses
 * @a_sockaddr: first address
 * @b_sockaddr: second address
 *
 * Only the family, the IP address and the port count (not the IPv6 flow
 * label or scope).
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: 0 when both hold the same address and port, 1 otherwise (also
 * when the family is neither IPv4 nor IPv6).
 */
int iwpm_compare_sockaddr(struct sockaddr_storage *a_sockaddr,
			  struct sockaddr_storage *b_sockaddr)
{
	const struct sockaddr_in6 *a6, *b6;
	const struct sockaddr_in *a4, *b4;

	if (a_sockaddr->ss_family != b_sockaddr->ss_family)
		return 1;

	switch (a_sockaddr->ss_family) {
	case AF_INET:
		a4 = (const struct sockaddr_in *)a_sockaddr;
		b4 = (const struct sockaddr_in *)b_sockaddr;
		return !(a4->sin_addr.s_addr == b4->sin_addr.s_addr &&
			 a4->sin_port == b4->sin_port);
	case AF_INET6:
		a6 = (const struct sockaddr_in6 *)a_sockaddr;
		b6 = (const struct sockaddr_in6 *)b_sockaddr;
		return !(ipv6_addr_equal(&a6->sin6_addr, &b6->sin6_addr) &&
			 a6->sin6_port == b6->sin6_port);
	default:
		return 1;
	}
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_compare_sockaddr);

/* Hash of the address and port; 0 for a family we do not handle. */
static u32 iwpm_sockaddr_hash(const struct sockaddr_storage *sockaddr)
{
	const struct sockaddr_in6 *sin6;
	const struct sockaddr_in *sin;

	switch (sockaddr->ss_family) {
	case AF_INET:
		sin = (const struct sockaddr_in *)sockaddr;
		return jhash_2words((__force u32)sin->sin_addr.s_addr,
				    (__force u32)sin->sin_port, AF_INET);
	case AF_INET6:
		sin6 = (const struct sockaddr_in6 *)sockaddr;
		return jhash_2words(jhash(&sin6->sin6_addr,
					  sizeof(sin6->sin6_addr), 0),
				    (__force u32)sin6->sin6_port, AF_INET6);
	default:
		return 0;
	}
}

/**
 * iwpm_print_sockaddr - log an address at debug level
 * @sockaddr: the address
 * @msg: text in front of it
 */
void iwpm_print_sockaddr(struct sockaddr_storage *sockaddr, char *msg)
{
	if (iwpm_sockaddr_valid(sockaddr))
		pr_debug("%s %pISpc\n", msg, sockaddr);
	else
		pr_debug("%s (family %u)\n", msg, sockaddr->ss_family);
}

/* ------------------------------------------------------------------
 * Client state
 */

/**
 * iwpm_valid_client - whether a netlink client may use the port mapper
 * @nl_client: netlink client index
 *
 * A client becomes valid with iwpm_init() and stops being valid with
 * iwpm_exit().
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: 1 when valid, 0 otherwise (also for an index out of range).
 */
int iwpm_valid_client(u8 nl_client)
{
	if (nl_client >= RDMA_NL_NUM_CLIENTS)
		return 0;
	return READ_ONCE(iwpm_admin.valid_list[nl_client]);
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_valid_client);

/**
 * iwpm_set_valid - mark a client valid or not
 * @nl_client: netlink client index; out of range is ignored
 * @valid: 1 for valid, 0 for not
 *
 * Context: Any context; takes no lock and does not sleep.
 */
void iwpm_set_valid(u8 nl_client, int valid)
{
	if (nl_client >= RDMA_NL_NUM_CLIENTS)
		return;
	WRITE_ONCE(iwpm_admin.valid_list[nl_client], !!valid);
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_set_valid);

/**
 * iwpm_get_registration - registration state of a client
 * @nl_client: netlink client index
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: the client's IWPM_REG_* state; IWPM_REG_UNDEF for an index
 * out of range.
 */
u32 iwpm_get_registration(u8 nl_client)
{
	if (nl_client >= RDMA_NL_NUM_CLIENTS)
		return IWPM_REG_UNDEF;
	return READ_ONCE(iwpm_admin.reg_list[nl_client]);
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_get_registration);

/**
 * iwpm_set_registration - set the registration state of a client
 * @nl_client: netlink client index; out of range is ignored
 * @reg: IWPM_REG_* state
 *
 * Context: Any context; takes no lock and does not sleep.
 */
void iwpm_set_registration(u8 nl_client, u32 reg)
{
	if (nl_client >= RDMA_NL_NUM_CLIENTS)
		return;
	WRITE_ONCE(iwpm_admin.reg_list[nl_client], reg);
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_set_registration);

/**
 * iwpm_check_registration - test the registration state of a client
 * @nl_client: netlink client index
 * @reg: IWPM_REG_* bits to test
 *
 * iwpm_register_pid() makes a client IWPM_REG_VALID.
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: non-zero when the client's state is one of @reg.
 */
u32 iwpm_check_registration(u8 nl_client, u32 reg)
{
	return iwpm_get_registration(nl_client) & reg;
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_check_registration);

/**
 * iwpm_init - make a netlink client a user of the port mapper
 * @nl_client: netlink client index (RDMA_NL_IWCM)
 *
 * The first client also starts watching for the port mapper's socket
 * going away.
 *
 * Context: Process context; may sleep. Takes iwpm_notifier_mutex around the
 * netlink notifier registration. Calls for one client are not serialised with
 * each other: the caller makes them once.
 *
 * Return: 0, -EINVAL for an index out of range or a client that is
 * already valid, or the error of the notifier registration.
 */
int iwpm_init(u8 nl_client)
{
	int ret;

	if (nl_client >= RDMA_NL_NUM_CLIENTS || iwpm_valid_client(nl_client))
		return -EINVAL;
	ret = iwpm_notifier_register();
	if (ret)
		return ret;
	iwpm_set_registration(nl_client, IWPM_REG_UNDEF);
	iwpm_set_valid(nl_client, 1);
	return 0;
}
EXPORT_SYMBOL_GPL(iwpm_init);

/**
 * iwpm_exit - stop a client using the port mapper
 * @nl_client: netlink client index given to iwpm_init()
 *
 * Drops the client's mappings and remote-info records.
 *
 * Context: Process context; may sleep. Takes iwpm_map_lock and iwpm_rem_lock
 * (one after the other) to drop the records, then iwpm_notifier_mutex.
 *
 * Return: 0, or -EINVAL when the client was not valid.
 */
int iwpm_exit(u8 nl_client)
{
	if (!iwpm_valid_client(nl_client))
		return -EINVAL;
	iwpm_set_valid(nl_client, 0);
	iwpm_flush_client(nl_client);
	iwpm_set_registration(nl_client, IWPM_REG_UNDEF);
	iwpm_notifier_unregister();
	return 0;
}
EXPORT_SYMBOL_GPL(iwpm_exit);

/* ------------------------------------------------------------------
 * Requests
 */

/**
 * iwpm_get_nlmsg_seq - next sequence number for a message to the port mapper
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: the sequence number.
 */
int iwpm_get_nlmsg_seq(void)
{
	return atomic_inc_return(&iwpm_admin.nlmsg_seq);
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_get_nlmsg_seq);

/**
 * iwpm_get_nlmsg_request - create a request and make it findable
 * @nlmsg_seq: sequence number of the message that carries it
 * @nl_client: netlink client index
 * @gfp: allocation flags
 *
 * The request starts with two references: the caller's, dropped by
 * iwpm_wait_complete_req() or iwpm_cancel_nlmsg_request(), and the
 * table's, dropped by whoever takes it out of the table.
 *
 * Context: As @gfp allows (process context with GFP_KERNEL). Takes the request
 * table's xarray lock, a plain spinlock, so not from interrupt context.
 *
 * Return: the request, or NULL when out of memory or when a request with
 * this sequence number is still pending.
 */
struct iwpm_nlmsg_request *iwpm_get_nlmsg_request(__u32 nlmsg_seq,
						  u8 nl_client, gfp_t gfp)
{
	struct iwpm_nlmsg_request *req;

	req = kzalloc(sizeof(*req), gfp);
	if (!req)
		return NULL;
	req->nlmsg_seq = nlmsg_seq;
	req->nl_client = nl_client;
	init_completion(&req->done);
	kref_init(&req->kref);
	kref_get(&req->kref);
	if (xa_insert(&iwpm_requests, nlmsg_seq, req, gfp)) {
		kfree(req);
		return NULL;
	}
	return req;
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_get_nlmsg_request);

/**
 * iwpm_free_nlmsg_request - release function of a request's kref
 * @kref: the request's kref
 *
 * Called when the last reference goes; the request is no longer in the
 * table by then (the table holds a reference).
 *
 * Context: Any context; does not sleep (an RCU lookup, then kfree()).
 */
void iwpm_free_nlmsg_request(struct kref *kref)
{
	struct iwpm_nlmsg_request *req =
		container_of(kref, struct iwpm_nlmsg_request, kref);

	WARN_ON_ONCE(xa_load(&iwpm_requests, req->nlmsg_seq) == req);
	if (!req->request_done)
		pr_debug("iwpm: request seq %u freed unanswered\n",
			 req->nlmsg_seq);
	kfree(req);
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_free_nlmsg_request);

/**
 * iwpm_find_nlmsg_request - look up a pending request
 * @echo_seq: sequence number the answer echoes
 *
 * Context: Process context; does not sleep. Takes the request table's xarray
 * lock, a plain spinlock, so not from interrupt context.
 *
 * Return: the request with a new reference the caller must drop with
 * kref_put(&req->kref, iwpm_free_nlmsg_request), or NULL when no request
 * with that number is pending.
 */
struct iwpm_nlmsg_request *iwpm_find_nlmsg_request(__u32 echo_seq)
{
	struct iwpm_nlmsg_request *req;

	xa_lock(&iwpm_requests);
	req = xa_load(&iwpm_requests, echo_seq);
	if (req && !kref_get_unless_zero(&req->kref))
		req = NULL;
	xa_unlock(&iwpm_requests);
	return req;
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_find_nlmsg_request);

/**
 * iwpm_claim_nlmsg_request - take a request out of the pending table
 * @nlmsg_request: the request; the caller holds a reference
 *
 * Exactly one party succeeds: an answer, an abort, or the waiter giving
 * up.  The winner owns the table's reference and, unless it is the
 * waiter, must call iwpm_complete_nlmsg_request().
 *
 * Context: Process context; does not sleep. Takes the request table's xarray
 * lock, a plain spinlock, so not from interrupt context.
 *
 * Return: true for the winner.
 */
bool iwpm_claim_nlmsg_request(struct iwpm_nlmsg_request *nlmsg_request)
{
	return xa_cmpxchg(&iwpm_requests, nlmsg_request->nlmsg_seq,
			  nlmsg_request, NULL, 0) == nlmsg_request;
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_claim_nlmsg_request);

/**
 * iwpm_complete_nlmsg_request - finish a claimed request
 * @nlmsg_request: request claimed with iwpm_claim_nlmsg_request()
 * @err_code: result for the waiter
 *
 * Wakes the waiter and drops the table's reference.
 *
 * Context: Any context; does not sleep. Takes no lock.
 */
void iwpm_complete_nlmsg_request(struct iwpm_nlmsg_request *nlmsg_request,
				 int err_code)
{
	nlmsg_request->err_code = err_code;
	nlmsg_request->request_done = 1;
	complete(&nlmsg_request->done);
	kref_put(&nlmsg_request->kref, iwpm_free_nlmsg_request);
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_complete_nlmsg_request);

/**
 * iwpm_cancel_nlmsg_request - drop a request that was never sent
 * @nlmsg_request: request from iwpm_get_nlmsg_request()
 *
 * Drops the caller's reference, and the table's if still there.
 *
 * Context: Process context; does not sleep. Takes the request table's xarray
 * lock to claim the request.
 */
void iwpm_cancel_nlmsg_request(struct iwpm_nlmsg_request *nlmsg_request)
{
	if (iwpm_claim_nlmsg_request(nlmsg_request))
		kref_put(&nlmsg_request->kref, iwpm_free_nlmsg_request);
	kref_put(&nlmsg_request->kref, iwpm_free_nlmsg_request);
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_cancel_nlmsg_request);

/**
 * iwpm_wait_complete_req - wait for the answer to a request
 * @nlmsg_request: request from iwpm_get_nlmsg_request(), already sent
 *
 * Waits at most pm_timeout_ms.  Drops the caller's reference: the
 * request must not be used afterwards.  Once this returns no answer
 * touches the request's buffer any more.
 *
 * Context: Process context; sleeps up to pm_timeout_ms (and then for an answer
 * that claimed the request meanwhile). Takes the request table's xarray lock
 * to claim a request that timed out.
 *
 * Return: 0 when the port mapper answered without error, its IWPM_*_ERR
 * code when it reported one, -ETIMEDOUT when it did not answer in time,
 * another negative errno when the request was aborted (port mapper gone).
 */
int iwpm_wait_complete_req(struct iwpm_nlmsg_request *nlmsg_request)
{
	unsigned int ms = READ_ONCE(iwpm_timeout_ms);
	u32 seq = nlmsg_request->nlmsg_seq;
	int ret;

	if (!wait_for_completion_timeout(&nlmsg_request->done,
					 msecs_to_jiffies(ms))) {
		if (iwpm_claim_nlmsg_request(nlmsg_request)) {
			/* Nobody answered; nobody can any more. */
			kref_put(&nlmsg_request->kref,
				 iwpm_free_nlmsg_request);
			kref_put(&nlmsg_request->kref,
				 iwpm_free_nlmsg_request);
			atomic_inc(&iwpm_stats.requests_timed_out);
			pr_info("iwpm: no answer to request seq %u in %u ms\n",
				seq, ms);
			return -ETIMEDOUT;
		}
		/* An answer claimed it just now and is completing it. */
		wait_for_completion(&nlmsg_request->done);
	}
	ret = nlmsg_request->err_code;
	kref_put(&nlmsg_request->kref, iwpm_free_nlmsg_request);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_wait_complete_req);

/**
 * iwpm_abort_nlmsg_requests - fail every pending request
 * @err_code: result the waiters get (a negative errno)
 *
 * Used when the port mapper goes away.  May be called in atomic context.
 *
 * Context: Process or atomic context, not interrupts; does not sleep. Walks
 * the table under RCU and takes its xarray lock, a plain spinlock, for each
 * claim.
 *
 * Return: the number of requests aborted.
 */
unsigned int iwpm_abort_nlmsg_requests(int err_code)
{
	struct iwpm_nlmsg_request *req;
	unsigned int n = 0;
	unsigned long seq;

	xa_for_each(&iwpm_requests, seq, req) {
		/*
		 * A successful claim proves the entry was still in the
		 * table, so the table's reference keeps it alive.
		 */
		if (!iwpm_claim_nlmsg_request(req))
			continue;
		iwpm_complete_nlmsg_request(req, err_code);
		n++;
	}
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_abort_nlmsg_requests);

/**
 * iwpm_pending_nlmsg_requests - number of requests waiting for an answer
 *
 * Context: Any context; does not sleep (walks the table under RCU).
 *
 * Return: the count.
 */
unsigned int iwpm_pending_nlmsg_requests(void)
{
	struct iwpm_nlmsg_request *req;
	unsigned int n = 0;
	unsigned long seq;

	xa_for_each(&iwpm_requests, seq, req)
		n++;
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_pending_nlmsg_requests);

/* ------------------------------------------------------------------
 * Mapping table
 */

/**
 * iwpm_create_mapinfo - remember a local address and its mapped address
 * @local_sockaddr: local IP address and TCP port
 * @mapped_sockaddr: mapped address (the local one when nothing is mapped)
 * @nl_client: netlink client index
 * @map_flags: IWPM_FLAGS_* of the mapping
 *
 * The records are what the port mapper gets again after a restart.
 *
 * Context: Process context; may sleep (GFP_KERNEL allocation). Takes
 * iwpm_map_lock, a plain spinlock, so not from interrupt context.
 *
 * Return: 0, -EINVAL for an invalid client or an address that is not
 * IPv4/IPv6 or whose two families differ, -ENOMEM.
 */
int iwpm_create_mapinfo(struct sockaddr_storage *local_sockaddr,
			struct sockaddr_storage *mapped_sockaddr,
			u8 nl_client, u32 map_flags)
{
	struct iwpm_mapping_info *map_info;

	if (!iwpm_valid_client(nl_client) ||
	    !iwpm_sockaddr_valid(local_sockaddr) ||
	    local_sockaddr->ss_family != mapped_sockaddr->ss_family)
		return -EINVAL;

	map_info = kzalloc(sizeof(*map_info), GFP_KERNEL);
	if (!map_info)
		return -ENOMEM;
	map_info->local_sockaddr = *local_sockaddr;
	map_info->mapped_sockaddr = *mapped_sockaddr;
	map_info->nl_client = nl_client;
	map_info->map_flags = map_flags;

	spin_lock(&iwpm_map_lock);
	hash_add(iwpm_map_table, &map_info->hlist_node,
		 iwpm_sockaddr_hash(local_sockaddr));
	iwpm_map_count++;
	spin_unlock(&iwpm_map_lock);
	return 0;
}
EXPORT_SYMBOL_GPL(iwpm_create_mapinfo);

/**
 * iwpm_remove_mapinfo - forget a mapping
 * @local_sockaddr: local address of the mapping
 * @mapped_local_addr: its mapped address
 *
 * Removes one record holding both addresses.
 *
 * Context: Process context; does not sleep.  Takes
 * iwpm_map_lock, a plain spinlock, so not from interrupt context.
 *
 * Return: 0, or -EINVAL when there is none.
 */
int iwpm_remove_mapinfo(struct sockaddr_storage *local_sockaddr,
			struct sockaddr_storage *mapped_local_addr)
{
	struct iwpm_mapping_info *map_info, *found = NULL;

	spin_lock(&iwpm_map_lock);
	hash_for_each_possible(iwpm_map_table, map_info, hlist_node,
			       iwpm_sockaddr_hash(local_sockaddr)) {
		if (!iwpm_compare_sockaddr(&map_info->local_sockaddr,
					   local_sockaddr) &&
		    !iwpm_compare_sockaddr(&map_info->mapped_sockaddr,
					   mapped_local_addr)) {
			hash_del(&map_info->hlist_node);
			iwpm_map_count--;
			found = map_info;
			break;
		}
	}
	spin_unlock(&iwpm_map_lock);
	kfree(found);
	return found ? 0 : -EINVAL;
}
EXPORT_SYMBOL_GPL(iwpm_remove_mapinfo);

/**
 * iwpm_get_mapped_addr - look up the mapped address of a local address
 * @local_addr: local address
 * @mapped_addr: where to store the mapped address
 * @nl_client: netlink client index the mapping belongs to
 *
 * Context: Process context; does not sleep. Takes iwpm_map_lock, a plain
 * spinlock, so not from interrupt context.
 *
 * Return: 0 and @mapped_addr filled in, or -ENOENT.
 */
int iwpm_get_mapped_addr(struct sockaddr_storage *local_addr,
			 struct sockaddr_storage *mapped_addr, u8 nl_client)
{
	struct iwpm_mapping_info *map_info;
	int ret = -ENOENT;

	spin_lock(&iwpm_map_lock);
	hash_for_each_possible(iwpm_map_table, map_info, hlist_node,
			       iwpm_sockaddr_hash(local_addr)) {
		if (map_info->nl_client == nl_client &&
		    !iwpm_compare_sockaddr(&map_info->local_sockaddr,
					   local_addr)) {
			*mapped_addr = map_info->mapped_sockaddr;
			ret = 0;
			break;
		}
	}
	spin_unlock(&iwpm_map_lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_get_mapped_addr);

/**
 * iwpm_mapinfo_available - whether any mapping is recorded
 *
 * Context: Process context; does not sleep. Takes iwpm_map_lock, a plain
 * spinlock, so not from interrupt context.
 *
 * Return: 1 when the mapping table holds a record, 0 otherwise.
 */
int iwpm_mapinfo_available(void)
{
	int ret;

	spin_lock(&iwpm_map_lock);
	ret = iwpm_map_count != 0;
	spin_unlock(&iwpm_map_lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_mapinfo_available);

/**
 * iwpm_mapinfo_count - number of recorded mappings
 *
 * Context: Process context; does not sleep. Takes iwpm_map_lock, a plain
 * spinlock, so not from interrupt context.
 *
 * Return: the count.
 */
unsigned int iwpm_mapinfo_count(void)
{
	unsigned int n;

	spin_lock(&iwpm_map_lock);
	n = iwpm_map_count;
	spin_unlock(&iwpm_map_lock);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_mapinfo_count);

/* ------------------------------------------------------------------
 * Remote-info table
 */

static u32 iwpm_reminfo_hash(const struct sockaddr_storage *mapped_loc,
			     const struct sockaddr_storage *mapped_rem)
{
	return jhash_2words(iwpm_sockaddr_hash(mapped_loc),
			    iwpm_sockaddr_hash(mapped_rem), 0);
}

/**
 * iwpm_insert_remote_info - add a remote-info record
 * @reminfo: the record; the table owns it on success
 *
 * A record for the same pair of mapped addresses is replaced.
 *
 * Context: Process context; does not sleep. Takes iwpm_rem_lock, a plain
 * spinlock, so not from interrupt context.
 *
 * Return: 0, -EINVAL for an invalid client or address family, -ENOSPC
 * when IWPM_REMINFO_MAX records are waiting already.
 */
int iwpm_insert_remote_info(struct iwpm_remote_info *reminfo)
{
	struct iwpm_remote_info *old, *stale = NULL;
	u32 hash;
	int ret = 0;

	if (!iwpm_valid_client(reminfo->nl_client) ||
	    !iwpm_sockaddr_valid(&reminfo->mapped_loc_sockaddr) ||
	    !iwpm_sockaddr_valid(&reminfo->mapped_rem_sockaddr))
		return -EINVAL;
	hash = iwpm_reminfo_hash(&reminfo->mapped_loc_sockaddr,
				 &reminfo->mapped_rem_sockaddr);

	spin_lock(&iwpm_rem_lock);
	hash_for_each_possible(iwpm_rem_table, old, hlist_node, hash) {
		if (old->nl_client == reminfo->nl_client &&
		    !iwpm_compare_sockaddr(&old->mapped_loc_sockaddr,
					   &reminfo->mapped_loc_sockaddr) &&
		    !iwpm_compare_sockaddr(&old->mapped_rem_sockaddr,
					   &reminfo->mapped_rem_sockaddr)) {
			hash_del(&old->hlist_node);
			iwpm_rem_count--;
			stale = old;
			break;
		}
	}
	if (iwpm_rem_count >= IWPM_REMINFO_MAX) {
		ret = -ENOSPC;
	} else {
		hash_add(iwpm_rem_table, &reminfo->hlist_node, hash);
		iwpm_rem_count++;
	}
	spin_unlock(&iwpm_rem_lock);
	kfree(stale);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_insert_remote_info);

/**
 * iwpm_add_remote_info - add a remote-info record, dropping it on failure
 * @reminfo: the record; always owned by the table or freed afterwards
 *
 * Context: Process context; does not sleep. Takes iwpm_rem_lock, a plain
 * spinlock, so not from interrupt context.
 */
void iwpm_add_remote_info(struct iwpm_remote_info *reminfo)
{
	int ret = iwpm_insert_remote_info(reminfo);

	if (ret) {
		pr_warn_ratelimited("iwpm: remote info dropped (%d)\n", ret);
		kfree(reminfo);
	}
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_add_remote_info);

/**
 * iwpm_get_remote_info - take the real address of a connecting peer
 * @mapped_loc_addr: our mapped address the peer connected to
 * @mapped_rem_addr: the peer's address as the connection shows it
 * @remote_addr: where to store the peer's real address
 * @nl_client: netlink client index
 *
 * The record is removed once read.
 *
 * Context: Process context; does not sleep. Takes iwpm_rem_lock, a plain
 * spinlock, so not from interrupt context.
 *
 * Return: 0 and @remote_addr filled in, or -EINVAL when no record matches.
 */
int iwpm_get_remote_info(struct sockaddr_storage *mapped_loc_addr,
			 struct sockaddr_storage *mapped_rem_addr,
			 struct sockaddr_storage *remote_addr, u8 nl_client)
{
	struct iwpm_remote_info *rem_info, *found = NULL;

	spin_lock(&iwpm_rem_lock);
	hash_for_each_possible(iwpm_rem_table, rem_info, hlist_node,
			       iwpm_reminfo_hash(mapped_loc_addr,
						 mapped_rem_addr)) {
		if (rem_info->nl_client == nl_client &&
		    !iwpm_compare_sockaddr(&rem_info->mapped_loc_sockaddr,
					   mapped_loc_addr) &&
		    !iwpm_compare_sockaddr(&rem_info->mapped_rem_sockaddr,
					   mapped_rem_addr)) {
			hash_del(&rem_info->hlist_node);
			iwpm_rem_count--;
			found = rem_info;
			break;
		}
	}
	spin_unlock(&iwpm_rem_lock);
	if (!found)
		return -EINVAL;
	*remote_addr = found->remote_sockaddr;
	iwpm_print_sockaddr(remote_addr, "iwpm: remote info:");
	kfree(found);
	return 0;
}
EXPORT_SYMBOL_GPL(iwpm_get_remote_info);

/**
 * iwpm_reminfo_count - number of remote-info records waiting
 *
 * Context: Process context; does not sleep. Takes iwpm_rem_lock, a plain
 * spinlock, so not from interrupt context.
 *
 * Return: the count.
 */
unsigned int iwpm_reminfo_count(void)
{
	unsigned int n;

	spin_lock(&iwpm_rem_lock);
	n = iwpm_rem_count;
	spin_unlock(&iwpm_rem_lock);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_reminfo_count);

/**
 * iwpm_flush_client - drop every mapping and remote-info record of a client
 * @nl_client: netlink client index
 *
 * Context: Process context; does not sleep. Takes iwpm_map_lock, then, after
 * releasing it, iwpm_rem_lock.
 */
void iwpm_flush_client(u8 nl_client)
{
	struct iwpm_mapping_info *map_info;
	struct iwpm_remote_info *rem_info;
	struct hlist_node *tmp;
	HLIST_HEAD(doomed_map);
	HLIST_HEAD(doomed_rem);
	int bkt;

	spin_lock(&iwpm_map_lock);
	hash_for_each_safe(iwpm_map_table, bkt, tmp, map_info, hlist_node) {
		if (map_info->nl_client != nl_client)
			continue;
		hash_del(&map_info->hlist_node);
		iwpm_map_count--;
		hlist_add_head(&map_info->hlist_node, &doomed_map);
	}
	spin_unlock(&iwpm_map_lock);

	spin_lock(&iwpm_rem_lock);
	hash_for_each_safe(iwpm_rem_table, bkt, tmp, rem_info, hlist_node) {
		if (rem_info->nl_client != nl_client)
			continue;
		hash_del(&rem_info->hlist_node);
		iwpm_rem_count--;
		hlist_add_head(&rem_info->hlist_node, &doomed_rem);
	}
	spin_unlock(&iwpm_rem_lock);

	hlist_for_each_entry_safe(map_info, tmp, &doomed_map, hlist_node)
		kfree(map_info);
	hlist_for_each_entry_safe(rem_info, tmp, &doomed_rem, hlist_node)
		kfree(rem_info);
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_flush_client);

/* ------------------------------------------------------------------
 * Messages
 */

/**
 * iwpm_create_nlmsg - allocate a message to the port mapper
 * @nl_op: RDMA_NL_IWPM_* operation
 * @nlh: where to store the message header
 * @nl_client: netlink client index
 *
 * The header has NLM_F_REQUEST, sequence number 0 and room for the
 * attributes of any port-mapper request.
 *
 * Context: Process context; may sleep (GFP_KERNEL allocation). Takes no lock.
 *
 * Return: the skb, or NULL when out of memory.
 */
struct sk_buff *iwpm_create_nlmsg(u32 nl_op, struct nlmsghdr **nlh,
				  int nl_client)
{
	struct sk_buff *skb;

	skb = nlmsg_new(IWPM_MSG_SIZE, GFP_KERNEL);
	if (!skb)
		return NULL;
	if (!ibnl_put_msg(skb, nlh, 0, 0, nl_client, nl_op, NLM_F_REQUEST)) {
		nlmsg_free(skb);
		return NULL;
	}
	return skb;
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_create_nlmsg);

/**
 * iwpm_parse_nlmsg - validate and parse a message from the port mapper
 * @cb: netlink callback holding the message
 * @policy_max: number of entries of @nlmsg_policy and @nltb
 * @nlmsg_policy: attribute policy
 * @nltb: where to store the attributes
 * @msg_type: name of the message, for the log
 *
 * Validation is strict (unknown attributes, wrong sizes and trailing
 * bytes are rejected) and every attribute 1..@policy_max - 1 is required.
 * The reason of a rejection goes to the extended ack.
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: 0 or a negative errno.
 */
int iwpm_parse_nlmsg(struct netlink_callback *cb, int policy_max,
		     const struct nla_policy *nlmsg_policy,
		     struct nlattr *nltb[], const char *msg_type)
{
	int ret;

	ret = nlmsg_parse(cb->nlh, 0, nltb, policy_max - 1, nlmsg_policy,
			  cb->extack);
	if (ret)
		goto err;
	ret = iwpm_validate_nlmsg_attr(nltb, policy_max);
	if (ret) {
		NL_SET_ERR_MSG(cb->extack, "iwpm: missing attribute");
		goto err;
	}
	return 0;
err:
	pr_debug("iwpm: invalid %s (%d)\n", msg_type, ret);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_parse_nlmsg);

/**
 * iwpm_send_hello - answer the port mapper's HELLO
 * @nl_client: netlink client index
 * @iwpm_pid: port id of the port mapper's socket
 * @abi_version: ABI version both sides will use
 *
 * Context: Process context; may sleep (GFP_KERNEL allocation). Sends without
 * waiting (MSG_DONTWAIT).
 *
 * Return: 0 or a negative errno.
 */
int iwpm_send_hello(u8 nl_client, int iwpm_pid, u16 abi_version)
{
	struct nlmsghdr *nlh;
	struct sk_buff *skb;
	int ret;

	skb = iwpm_create_nlmsg(RDMA_NL_IWPM_HELLO, &nlh, nl_client);
	if (!skb)
		return -ENOMEM;
	nlh->nlmsg_seq = iwpm_get_nlmsg_seq();
	ret = ibnl_put_attr(skb, nlh, sizeof(u16), &abi_version,
			    IWPM_NLA_HELLO_ABI_VERSION);
	if (ret) {
		nlmsg_free(skb);
		return ret;
	}
	nlmsg_end(skb, nlh);
	return rdma_nl_unicast(&init_net, skb, iwpm_pid);
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_send_hello);

/*
 * Size of one MAPINFO record message, and the most a datagram of them may
 * hold: iwpmd reads datagrams into a 4 KiB payload buffer.
 */
#define IWPM_MAPINFO_REC_SIZE						\
	nlmsg_total_size(2 * nla_total_size(sizeof(struct sockaddr_storage)) + \
			 nla_total_size(sizeof(u32)))
#define IWPM_MAPINFO_DGRAM_MAX	4096

/* One mapping record copied out of the table for a MAPINFO replay. */
struct iwpm_mapinfo_rec {
	struct sockaddr_storage local;
	struct sockaddr_storage mapped;
	u32 flags;
};

/* Copy the records of @nl_client; *@n is set to how many. */
static struct iwpm_mapinfo_rec *iwpm_snapshot_mapinfo(u8 nl_client,
						      unsigned int *n)
{
	struct iwpm_mapping_info *map_info;
	struct iwpm_mapinfo_rec *recs;
	unsigned int room, i = 0;
	int bkt;

	room = iwpm_mapinfo_count();
	recs = kvcalloc(max(room, 1U), sizeof(*recs), GFP_KERNEL);
	if (!recs)
		return NULL;
	spin_lock(&iwpm_map_lock);
	hash_for_each(iwpm_map_table, bkt, map_info, hlist_node) {
		if (map_info->nl_client != nl_client)
			continue;
		if (i == room)	/* added since we counted: next replay */
			break;
		recs[i].local = map_info->local_sockaddr;
		recs[i].mapped = map_info->mapped_sockaddr;
		recs[i].flags = map_info->map_flags;
		i++;
	}
	spin_unlock(&iwpm_map_lock);
	*n = i;
	return recs;
}

static int iwpm_put_mapinfo(struct sk_buff *skb, u8 nl_client, u16 version,
			    struct iwpm_mapinfo_rec *rec)
{
	struct nlmsghdr *nlh = NULL;
	int ret;

	if (!ibnl_put_msg(skb, &nlh, 0, 0, nl_client, RDMA_NL_IWPM_MAPINFO,
			  NLM_F_MULTI))
		return -EMSGSIZE;
	ret = ibnl_put_attr(skb, nlh, sizeof(rec->local), &rec->local,
			    IWPM_NLA_MAPINFO_LOCAL_ADDR);
	if (!ret)
		ret = ibnl_put_attr(skb, nlh, sizeof(rec->mapped),
				    &rec->mapped, IWPM_NLA_MAPINFO_MAPPED_ADDR);
	if (!ret && version > IWPM_UABI_VERSION_MIN)
		ret = ibnl_put_attr(skb, nlh, sizeof(u32), &rec->flags,
				    IWPM_NLA_MAPINFO_FLAGS);
	if (ret) {
		nlmsg_cancel(skb, nlh);
		return ret;
	}
	nlmsg_end(skb, nlh);
	return 0;
}

/* End a datagram of records with NLMSG_DONE (nothing may follow it). */
static int iwpm_send_mapinfo_skb(struct sk_buff *skb, int iwpm_pid)
{
	if (!nlmsg_put(skb, 0, 0, NLMSG_DONE, 0, NLM_F_MULTI)) {
		nlmsg_free(skb);
		return -EMSGSIZE;
	}
	return rdma_nl_unicast(&init_net, skb, iwpm_pid);
}

static int iwpm_send_mapinfo_num(u32 mapping_num, u8 nl_client, int iwpm_pid)
{
	struct nlmsghdr *nlh;
	struct sk_buff *skb;
	u32 zero = 0;
	int ret;

	skb = iwpm_create_nlmsg(RDMA_NL_IWPM_MAPINFO_NUM, &nlh, nl_client);
	if (!skb)
		return -ENOMEM;
	nlh->nlmsg_seq = iwpm_get_nlmsg_seq();
	ret = ibnl_put_attr(skb, nlh, sizeof(u32), &zero,
			    IWPM_NLA_MAPINFO_SEQ);
	if (!ret)
		ret = ibnl_put_attr(skb, nlh, sizeof(u32), &mapping_num,
				    IWPM_NLA_MAPINFO_SEND_NUM);
	if (ret) {
		nlmsg_free(skb);
		return ret;
	}
	nlmsg_end(skb, nlh);
	return rdma_nl_unicast(&init_net, skb, iwpm_pid);
}

/**
 * iwpm_send_mapinfo - send every mapping of a client to the port mapper
 * @nl_client: netlink client index
 * @iwpm_pid: port id of the port mapper's socket
 *
 * Used when a port mapper (re)starts: the records go out as MAPINFO
 * messages, several per datagram, each datagram ended by NLMSG_DONE,
 * then one MAPINFO_NUM with their count, which the port mapper
 * acknowledges.
 *
 * Context: Process context; may sleep (GFP_KERNEL allocations). Copies the
 * client's records under iwpm_map_lock, then sends without it and without
 * waiting (MSG_DONTWAIT).
 *
 * Return: the number of records sent, or a negative errno.
 */
int iwpm_send_mapinfo(u8 nl_client, int iwpm_pid)
{
	u16 version = READ_ONCE(iwpm_ulib_version);
	struct iwpm_mapinfo_rec *recs;
	unsigned int n, i = 0, skbs = 0;
	struct sk_buff *skb;
	int ret = 0;

	recs = iwpm_snapshot_mapinfo(nl_client, &n);
	if (!recs)
		return -ENOMEM;

	while (i < n) {
		if (++skbs > IWPM_MAPINFO_SKB_COUNT) {
			ret = -ENOBUFS;
			goto out;
		}
		skb = nlmsg_new(IWPM_MAPINFO_DGRAM_MAX, GFP_KERNEL);
		if (!skb) {
			ret = -ENOMEM;
			goto out;
		}
		/* Records while one more and the final NLMSG_DONE fit. */
		while (i < n && skb->len + IWPM_MAPINFO_REC_SIZE +
				nlmsg_total_size(0) <= IWPM_MAPINFO_DGRAM_MAX) {
			ret = iwpm_put_mapinfo(skb, nl_client, version,
					       &recs[i]);
			if (ret) {
				nlmsg_free(skb);
				goto out;
			}
			iwpm_print_sockaddr(&recs[i].local,
					    "iwpm: replay mapping of");
			i++;
		}
		ret = iwpm_send_mapinfo_skb(skb, iwpm_pid);
		if (ret)
			goto out;
	}
	atomic_set(&iwpm_stats.mapinfo_sent, n);
	atomic_set(&iwpm_stats.mapinfo_acked, 0);
	ret = iwpm_send_mapinfo_num(n, nl_client, iwpm_pid);
	if (!ret)
		ret = n;
out:
	kvfree(recs);
	if (ret < 0)
		pr_warn("iwpm: mapping replay to port mapper failed (%d)\n",
			ret);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_send_mapinfo);
