/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Internals of the iWARP port-mapper client of iw_cm: pending requests,
 * the mapping and remote-info tables, client state, message helpers.
 * iwpm_util.c keeps the state, iwpm_msg.c talks to the port mapper.
 */
#ifndef _IWPM_UTIL_H
#define _IWPM_UTIL_H

#include <linux/completion.h>
#include <linux/kref.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <linux/netlink.h>
#include <linux/skbuff.h>
#include <net/netlink.h>
#include <kunit/visibility.h>
#include <rdma/iw_portmap.h>
#include <rdma/rdma_netlink.h>

/* Port mapper pid values that name no process. */
#define IWPM_PID_UNDEFINED	-1	/* none known yet, or it went away */
#define IWPM_PID_UNAVAILABLE	-2	/* nobody listened to REG_PID */

/* Registration state of a client (bits, see iwpm_check_registration()). */
#define IWPM_REG_UNDEF		0x01
#define IWPM_REG_VALID		0x02
#define IWPM_REG_INCOMPL	0x04

/* Default wait for a port mapper answer; module parameter pm_timeout_ms. */
#define IWPM_NL_TIMEOUT_MS	10000
/* At most this many datagrams of mapping records on a MAPINFO replay. */
#define IWPM_MAPINFO_SKB_COUNT	20
/* At most this many remote-info records wait for their connection. */
#define IWPM_REMINFO_MAX	1024

/**
 * struct iwpm_nlmsg_request - a request waiting for the port mapper
 * @nlmsg_seq: sequence number of the request; the answer echoes it
 * @req_buffer: the caller's iwpm_dev_data or iwpm_sa_data, written by the
 *	answer; only the one who takes the request out of the table
 *	(iwpm_claim_nlmsg_request()) may touch it, and only until it
 *	completes @done
 * @nl_client: netlink client that sent the request
 * @op: RDMA_NL_IWPM_* operation of the request; an answer of another
 *	operation does not complete it
 * @request_done: set once an answer (or an abort) filled in @err_code
 * @err_code: 0, an IWPM_*_ERR code of the port mapper or a negative errno
 * @done: completed once, by whoever claimed the request
 * @kref: one reference for the table of pending requests, one for the
 *	waiter, one for each iwpm_find_nlmsg_request() caller
 */
struct iwpm_nlmsg_request {
	u32			nlmsg_seq;
	void			*req_buffer;
	u8			nl_client;
	u8			op;
	u8			request_done;
	int			err_code;
	struct completion	done;
	struct kref		kref;
};

/**
 * struct iwpm_mapping_info - a local address and the address it maps to
 * @hlist_node: entry in the mapping table, hashed by @local_sockaddr
 * @local_sockaddr: local IP address and TCP port
 * @mapped_sockaddr: the address the port mapper gave for it
 * @nl_client: client that created the mapping
 * @map_flags: IWPM_FLAGS_* of the mapping
 */
struct iwpm_mapping_info {
	struct hlist_node	hlist_node;
	struct sockaddr_storage	local_sockaddr;
	struct sockaddr_storage	mapped_sockaddr;
	u8			nl_client;
	u32			map_flags;
};

/**
 * struct iwpm_remote_info - real address of a connecting peer
 * @hlist_node: entry in the remote-info table, hashed by both mapped
 *	addresses
 * @remote_sockaddr: the peer's real address
 * @mapped_loc_sockaddr: our mapped (listening) address it connected to
 * @mapped_rem_sockaddr: the peer's mapped address, as the CM sees it
 * @nl_client: client the record is for
 */
struct iwpm_remote_info {
	struct hlist_node	hlist_node;
	struct sockaddr_storage	remote_sockaddr;
	struct sockaddr_storage	mapped_loc_sockaddr;
	struct sockaddr_storage	mapped_rem_sockaddr;
	u8			nl_client;
};

/**
 * struct iwpm_admin_data - state shared by every client
 * @nlmsg_seq: last sequence number handed out
 * @reg_list: IWPM_REG_* state of each client; read and written with
 *	READ_ONCE()/WRITE_ONCE(), each value stands alone
 * @valid_list: whether each client called iwpm_init()
 */
struct iwpm_admin_data {
	atomic_t	nlmsg_seq;
	u32		reg_list[RDMA_NL_NUM_CLIENTS];
	u8		valid_list[RDMA_NL_NUM_CLIENTS];
};

/* iwpm_util.c: requests */
struct iwpm_nlmsg_request *iwpm_get_nlmsg_request(__u32 nlmsg_seq,
						  u8 nl_client, gfp_t gfp);
void iwpm_free_nlmsg_request(struct kref *kref);
struct iwpm_nlmsg_request *iwpm_find_nlmsg_request(__u32 echo_seq);
int iwpm_wait_complete_req(struct iwpm_nlmsg_request *nlmsg_request);
int iwpm_get_nlmsg_seq(void);
bool iwpm_claim_nlmsg_request(struct iwpm_nlmsg_request *nlmsg_request);
void iwpm_complete_nlmsg_request(struct iwpm_nlmsg_request *nlmsg_request,
				 int err_code);
void iwpm_cancel_nlmsg_request(struct iwpm_nlmsg_request *nlmsg_request);
unsigned int iwpm_abort_nlmsg_requests(int err_code);
unsigned int iwpm_pending_nlmsg_requests(void);

/* iwpm_util.c: client state */
int iwpm_valid_client(u8 nl_client);
void iwpm_set_valid(u8 nl_client, int valid);
u32 iwpm_check_registration(u8 nl_client, u32 reg);
void iwpm_set_registration(u8 nl_client, u32 reg);
u32 iwpm_get_registration(u8 nl_client);

/* iwpm_util.c: tables */
void iwpm_add_remote_info(struct iwpm_remote_info *reminfo);
int iwpm_insert_remote_info(struct iwpm_remote_info *reminfo);
int iwpm_get_mapped_addr(struct sockaddr_storage *local_addr,
			 struct sockaddr_storage *mapped_addr, u8 nl_client);
int iwpm_mapinfo_available(void);
unsigned int iwpm_mapinfo_count(void);
unsigned int iwpm_reminfo_count(void);
void iwpm_flush_client(u8 nl_client);

/* iwpm_util.c: messages */
int iwpm_send_mapinfo(u8 nl_client, int iwpm_pid);
int iwpm_compare_sockaddr(struct sockaddr_storage *a_sockaddr,
			  struct sockaddr_storage *b_sockaddr);
bool iwpm_sockaddr_valid(const struct sockaddr_storage *sockaddr);
struct sk_buff *iwpm_create_nlmsg(u32 nl_op, struct nlmsghdr **nlh,
				  int nl_client);
int iwpm_parse_nlmsg(struct netlink_callback *cb, int policy_max,
		     const struct nla_policy *nlmsg_policy,
		     struct nlattr *nltb[], const char *msg_type);
void iwpm_print_sockaddr(struct sockaddr_storage *sockaddr, char *msg);
int iwpm_send_hello(u8 nl_client, int iwpm_pid, u16 abi_version);

/**
 * iwpm_validate_nlmsg_attr - check that every attribute is present
 * @nltb: parsed attributes, indexed by type
 * @nla_count: number of entries of @nltb (attribute types 1..count-1)
 *
 * Return: 0 when attributes 1 to @nla_count - 1 are all there, -EINVAL
 * when one is missing.
 */
static inline int iwpm_validate_nlmsg_attr(struct nlattr *nltb[],
					   int nla_count)
{
	int i;

	for (i = 1; i < nla_count; i++)
		if (!nltb[i])
			return -EINVAL;
	return 0;
}

/* iwpm_msg.c: the port mapper as the client sees it */
extern u16 iwpm_ulib_version;
extern unsigned int iwpm_timeout_ms;
int iwpm_get_user_pid(void);
u16 iwpm_negotiate_version(u16 peer_version);
int iwpm_notifier_register(void);
void iwpm_notifier_unregister(void);

/**
 * struct iwpm_stats - counters of the exchange with the port mapper
 * @mapinfo_sent: mapping records sent on the last MAPINFO replay
 * @mapinfo_acked: records the port mapper acknowledged for it
 * @replies_ignored: messages dropped for coming from someone other than
 *	the registered port mapper
 * @requests_timed_out: requests that got no answer in time
 * @requests_aborted: requests failed because the port mapper went away
 * @timed_out_removed: REMOVE_MAPPING messages sent for mapping requests
 *	that timed out (the port mapper may have made the mapping)
 */
struct iwpm_stats {
	atomic_t	mapinfo_sent;
	atomic_t	mapinfo_acked;
	atomic_t	replies_ignored;
	atomic_t	requests_timed_out;
	atomic_t	requests_aborted;
	atomic_t	timed_out_removed;
};

extern struct iwpm_stats iwpm_stats;

#if IS_ENABLED(CONFIG_KUNIT)
void iwpm_set_user_pid(int pid);
#endif

/* iwpm_debugfs.c */
void iwpm_debugfs_init(void);
void iwpm_debugfs_exit(void);

#endif /* _IWPM_UTIL_H */
