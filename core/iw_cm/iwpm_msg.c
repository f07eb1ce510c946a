// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Port-mapper client: requests to iwpmd and the handlers of what iwpmd
 * sends.  Documentation/core/iwpm.rst has the message flow.
 *
 * Trust: every handler runs only for senders with CAP_NET_ADMIN (the
 * RDMA_NL_ADMIN_PERM flag of iw_cm's netlink table).  HELLO and the
 * MAPINFO request announce a (new) port mapper and make their sender the
 * registered one; answers are accepted only from the registered port
 * mapper, identified by the port id of the sending socket
 * (NETLINK_CB().portid), never by the pid the message header claims.
 */
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "iwpm_util.h"

static const char iwpm_ulib_name[IWPM_ULIBNAME_SIZE] = "iWarpPortMapperUser";

/* ABI version agreed with the port mapper; IWPM_UABI_VERSION_MIN until
 * a HELLO says more.  READ_ONCE/WRITE_ONCE.
 */
u16 iwpm_ulib_version = IWPM_UABI_VERSION_MIN;
EXPORT_SYMBOL_IF_KUNIT(iwpm_ulib_version);

/*
 * Port id of the registered port mapper's socket, or IWPM_PID_*.
 * Written with WRITE_ONCE()/cmpxchg(), read with READ_ONCE().
 */
static int iwpm_user_pid = IWPM_PID_UNDEFINED;

/* Sequence number of the last message from the port mapper; echoed in
 * the *_SEQ attribute of our requests as upstream does.
 */
static atomic_t echo_nlmsg_seq;

struct iwpm_stats iwpm_stats;
EXPORT_SYMBOL_IF_KUNIT(iwpm_stats);

/* How long a request waits for the port mapper, in milliseconds. */
unsigned int iwpm_timeout_ms = IWPM_NL_TIMEOUT_MS;
EXPORT_SYMBOL_IF_KUNIT(iwpm_timeout_ms);

static int iwpm_timeout_set(const char *val, const struct kernel_param *kp)
{
	unsigned int ms;
	int ret;

	ret = kstrtouint(val, 0, &ms);
	if (ret)
		return ret;
	if (ms < 10 || ms > 600000)
		return -ERANGE;
	WRITE_ONCE(iwpm_timeout_ms, ms);
	return 0;
}

static const struct kernel_param_ops iwpm_timeout_ops = {
	.set = iwpm_timeout_set,
	.get = param_get_uint,
};
module_param_cb(pm_timeout_ms, &iwpm_timeout_ops, &iwpm_timeout_ms, 0644);
MODULE_PARM_DESC(pm_timeout_ms,
		 "How long a request waits for the port mapper (ms, 10..600000, default 10000)");

/**
 * iwpm_valid_pid - whether a port mapper is registered
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: non-zero when the kernel knows the port mapper's socket.
 */
int iwpm_valid_pid(void)
{
	return READ_ONCE(iwpm_user_pid) > 0;
}
EXPORT_SYMBOL_GPL(iwpm_valid_pid);

/**
 * iwpm_get_user_pid - port id of the registered port mapper
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: the port id, or IWPM_PID_UNDEFINED / IWPM_PID_UNAVAILABLE.
 */
int iwpm_get_user_pid(void)
{
	return READ_ONCE(iwpm_user_pid);
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_get_user_pid);

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * iwpm_set_user_pid - make a port id the registered port mapper (tests)
 * @pid: port id or IWPM_PID_*
 *
 * Context: Any context; takes no lock and does not sleep.
 */
void iwpm_set_user_pid(int pid)
{
	WRITE_ONCE(iwpm_user_pid, pid);
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_set_user_pid);
#endif

/* Forget @pid as port mapper unless another one replaced it meanwhile. */
static bool iwpm_drop_pid(int pid, int to)
{
	return cmpxchg(&iwpm_user_pid, pid, to) == pid;
}

/**
 * iwpm_negotiate_version - ABI version to use with a port mapper
 * @peer_version: newest version the port mapper speaks
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: the lower of @peer_version and IWPM_UABI_VERSION, or 0 when
 * the port mapper is older than IWPM_UABI_VERSION_MIN.
 */
u16 iwpm_negotiate_version(u16 peer_version)
{
	if (peer_version < IWPM_UABI_VERSION_MIN)
		return 0;
	return min_t(u16, peer_version, IWPM_UABI_VERSION);
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_negotiate_version);

static u32 iwpm_sender(struct netlink_callback *cb)
{
	return NETLINK_CB(cb->skb).portid;
}

/*
 * Whether a message comes from the registered port mapper.  With @adopt,
 * a sender is also accepted when no port mapper is registered.
 */
static bool iwpm_from_port_mapper(struct netlink_callback *cb, bool adopt)
{
	int pid = iwpm_get_user_pid();
	u32 sender = iwpm_sender(cb);

	if (pid > 0 ? sender == (u32)pid : adopt && sender)
		return true;
	atomic_inc(&iwpm_stats.replies_ignored);
	NL_SET_ERR_MSG(cb->extack,
		       "iwpm: sender is not the registered port mapper");
	pr_debug("iwpm: ignored message from port id %u (port mapper %d)\n",
		 sender, pid);
	return false;
}

static u8 iwpm_cb_client(struct netlink_callback *cb)
{
	return RDMA_NL_GET_CLIENT(cb->nlh->nlmsg_type);
}

/* ------------------------------------------------------------------
 * Requests to the port mapper
 */

typedef int (*iwpm_fill_fn)(struct sk_buff *skb, struct nlmsghdr *nlh,
			    void *buf, u32 echo_seq);

/*
 * Send one request and wait for its answer.  A unicast goes to the
 * registered port mapper; a multicast to the port-mapper group.
 */
static int iwpm_send_request(u8 nl_client, u8 op, void *buf,
			     iwpm_fill_fn fill, bool multicast)
{
	struct iwpm_nlmsg_request *req;
	struct nlmsghdr *nlh;
	struct sk_buff *skb;
	int pid = 0, ret;

	if (!multicast) {
		pid = iwpm_get_user_pid();
		if (pid <= 0)
			return -ENOTCONN;
	}
	skb = iwpm_create_nlmsg(op, &nlh, nl_client);
	if (!skb)
		return -ENOMEM;
	nlh->nlmsg_seq = iwpm_get_nlmsg_seq();
	req = iwpm_get_nlmsg_request(nlh->nlmsg_seq, nl_client, GFP_KERNEL);
	if (!req) {
		ret = -ENOMEM;
		goto err_skb;
	}
	req->op = op;
	req->req_buffer = buf;
	ret = fill(skb, nlh, buf, atomic_read(&echo_nlmsg_seq));
	if (ret)
		goto err_req;
	nlmsg_end(skb, nlh);

	/* The netlink core consumes the skb, sent or not. */
	if (multicast) {
		ret = rdma_nl_multicast(&init_net, skb, RDMA_NL_GROUP_IWPM,
					GFP_KERNEL);
		/*
		 * Only -ESRCH says that nobody is in the group, so that no
		 * port mapper runs.  Any other error (-ENOBUFS: the buffer
		 * of some member was full, and any user may join the group)
		 * says nothing of the port mapper, which may well have the
		 * request: wait for its answer as for any other.  A port
		 * mapper that registered meanwhile is not forgotten.
		 */
		if (ret == -ESRCH) {
			pid = iwpm_get_user_pid();
			if (pid <= 0)
				iwpm_drop_pid(pid, IWPM_PID_UNAVAILABLE);
		} else {
			ret = 0;
		}
	} else {
		ret = rdma_nl_unicast(&init_net, skb, pid);
		if (ret == -ECONNREFUSED)	/* its socket is gone */
			iwpm_drop_pid(pid, IWPM_PID_UNDEFINED);
	}
	if (ret) {
		pr_debug("iwpm: request %u not sent (%d)\n", op, ret);
		iwpm_cancel_nlmsg_request(req);
		return ret;
	}
	return iwpm_wait_complete_req(req);

err_req:
	iwpm_cancel_nlmsg_request(req);
err_skb:
	nlmsg_free(skb);
	return ret;
}

static int iwpm_put_string(struct sk_buff *skb, struct nlmsghdr *nlh,
			   const char *str, size_t size, int type)
{
	char buf[IWPM_ULIBNAME_SIZE];

	if (size > sizeof(buf))
		return -EINVAL;
	strscpy_pad(buf, str, size);
	return ibnl_put_attr(skb, nlh, size, buf, type);
}

static int iwpm_fill_reg_pid(struct sk_buff *skb, struct nlmsghdr *nlh,
			     void *buf, u32 echo_seq)
{
	struct iwpm_dev_data *pm_msg = buf;
	int ret;

	ret = ibnl_put_attr(skb, nlh, sizeof(u32), &echo_seq,
			    IWPM_NLA_REG_PID_SEQ);
	if (!ret)
		ret = iwpm_put_string(skb, nlh, pm_msg->if_name,
				      IWPM_IFNAME_SIZE, IWPM_NLA_REG_IF_NAME);
	if (!ret)
		ret = iwpm_put_string(skb, nlh, pm_msg->dev_name,
				      IWPM_DEVNAME_SIZE,
				      IWPM_NLA_REG_IBDEV_NAME);
	if (!ret)
		ret = iwpm_put_string(skb, nlh, iwpm_ulib_name,
				      IWPM_ULIBNAME_SIZE,
				      IWPM_NLA_REG_ULIB_NAME);
	return ret;
}

/**
 * iwpm_register_pid - register a client with the port mapper
 * @pm_msg: RDMA device and interface names
 * @nl_client: netlink client index
 *
 * Multicasts REG_PID to the port-mapper group and waits for the answer,
 * which names the port mapper.  Does nothing when the client is
 * registered already or when no port mapper listened last time (until a
 * port mapper announces itself).
 *
 * Context: Process context; sleeps up to pm_timeout_ms waiting for the port
 * mapper's answer (GFP_KERNEL allocations, netlink multicast). Takes the
 * request table's xarray lock briefly.
 *
 * Return: 0 (also when there is nothing to do), an IWPM_*_ERR code of
 * the port mapper, or a negative errno (-ESRCH: nobody listens,
 * -ETIMEDOUT: no answer).
 */
int iwpm_register_pid(struct iwpm_dev_data *pm_msg, u8 nl_client)
{
	if (!iwpm_valid_client(nl_client))
		return -EINVAL;
	if (iwpm_check_registration(nl_client, IWPM_REG_VALID) ||
	    iwpm_get_user_pid() == IWPM_PID_UNAVAILABLE)
		return 0;
	return iwpm_send_request(nl_client, RDMA_NL_IWPM_REG_PID, pm_msg,
				 iwpm_fill_reg_pid, true);
}
EXPORT_SYMBOL_GPL(iwpm_register_pid);

static int iwpm_fill_add_mapping(struct sk_buff *skb, struct nlmsghdr *nlh,
				 void *buf, u32 echo_seq)
{
	struct iwpm_sa_data *pm_msg = buf;
	int ret;

	ret = ibnl_put_attr(skb, nlh, sizeof(u32), &echo_seq,
			    IWPM_NLA_MANAGE_MAPPING_SEQ);
	if (!ret)
		ret = ibnl_put_attr(skb, nlh, sizeof(pm_msg->loc_addr),
				    &pm_msg->loc_addr, IWPM_NLA_MANAGE_ADDR);
	if (!ret && READ_ONCE(iwpm_ulib_version) > IWPM_UABI_VERSION_MIN)
		ret = ibnl_put_attr(skb, nlh, sizeof(u32), &pm_msg->flags,
				    IWPM_NLA_MANAGE_FLAGS);
	return ret;
}

/*
 * Common checks of the mapping requests; 1 means "no port mapper, use
 * the unmapped address".
 */
static int iwpm_mapping_precheck(struct iwpm_sa_data *pm_msg, u8 nl_client)
{
	if (!iwpm_valid_client(nl_client) ||
	    !iwpm_sockaddr_valid(&pm_msg->loc_addr))
		return -EINVAL;
	if (!iwpm_valid_pid())
		return 1;
	if (!iwpm_check_registration(nl_client, IWPM_REG_VALID))
		return -EINVAL;
	/* Flags need ABI version 4. */
	if (pm_msg->flags &&
	    READ_ONCE(iwpm_ulib_version) == IWPM_UABI_VERSION_MIN)
		return -EINVAL;
	return 0;
}

/*
 * A mapping request got no answer in time, but the port mapper may have
 * made the mapping (it is slow, or its answer got lost): the caller
 * uses the unmapped address, so have the port mapper drop it.  It
 * handles its socket's messages in order, so the removal comes after
 * the request it may still be working on.  The late answer itself finds
 * no request and is refused (-ENOENT in its NLMSG_DONE).
 */
static void iwpm_forget_timed_out(struct sockaddr_storage *local_addr,
				  u8 nl_client)
{
	int ret = iwpm_remove_mapping(local_addr, nl_client);

	if (!ret)
		atomic_inc(&iwpm_stats.timed_out_removed);
	else
		pr_debug("iwpm: could not remove a timed-out mapping (%d)\n",
			 ret);
}

/**
 * iwpm_add_mapping - ask the port mapper for a mapped local address
 * @pm_msg: @loc_addr and @flags in, @mapped_loc_addr out
 * @nl_client: netlink client index
 *
 * @mapped_loc_addr is the port mapper's answer on success and
 * @loc_addr itself otherwise, so callers can always use it.
 *
 * Context: Process context; sleeps up to pm_timeout_ms waiting for the port
 * mapper's answer. Takes the request table's xarray lock briefly.
 *
 * Return: 0 on success and when no port mapper is registered, an
 * IWPM_*_ERR code of the port mapper, or a negative errno (-ETIMEDOUT:
 * no answer in pm_timeout_ms, -ECONNRESET: the port mapper went away).
 */
int iwpm_add_mapping(struct iwpm_sa_data *pm_msg, u8 nl_client)
{
	int ret;

	pm_msg->mapped_loc_addr = pm_msg->loc_addr;
	ret = iwpm_mapping_precheck(pm_msg, nl_client);
	if (ret)
		return ret > 0 ? 0 : ret;
	ret = iwpm_send_request(nl_client, RDMA_NL_IWPM_ADD_MAPPING, pm_msg,
				iwpm_fill_add_mapping, false);
	if (ret)
		pm_msg->mapped_loc_addr = pm_msg->loc_addr;
	if (ret == -ETIMEDOUT)
		iwpm_forget_timed_out(&pm_msg->loc_addr, nl_client);
	return ret;
}
EXPORT_SYMBOL_GPL(iwpm_add_mapping);

static int iwpm_fill_query(struct sk_buff *skb, struct nlmsghdr *nlh,
			   void *buf, u32 echo_seq)
{
	struct iwpm_sa_data *pm_msg = buf;
	int ret;

	ret = ibnl_put_attr(skb, nlh, sizeof(u32), &echo_seq,
			    IWPM_NLA_QUERY_MAPPING_SEQ);
	if (!ret)
		ret = ibnl_put_attr(skb, nlh, sizeof(pm_msg->loc_addr),
				    &pm_msg->loc_addr,
				    IWPM_NLA_QUERY_LOCAL_ADDR);
	if (!ret)
		ret = ibnl_put_attr(skb, nlh, sizeof(pm_msg->rem_addr),
				    &pm_msg->rem_addr,
				    IWPM_NLA_QUERY_REMOTE_ADDR);
	if (!ret && READ_ONCE(iwpm_ulib_version) > IWPM_UABI_VERSION_MIN)
		ret = ibnl_put_attr(skb, nlh, sizeof(u32), &pm_msg->flags,
				    IWPM_NLA_QUERY_FLAGS);
	return ret;
}

/**
 * iwpm_add_and_query_mapping - map a local address and learn the
 *	remote's mapped address (active side of a connection)
 * @pm_msg: @loc_addr, @rem_addr and @flags in, @mapped_loc_addr and
 *	@mapped_rem_addr out
 * @nl_client: netlink client index
 *
 * The port mapper asks its peer on the remote host before it answers.
 * On any failure the two mapped addresses are the unmapped ones.
 *
 * Context: Process context; sleeps up to pm_timeout_ms waiting for the port
 * mapper's answer. Takes the request table's xarray lock briefly.
 *
 * Return: as iwpm_add_mapping(); IWPM_REMOTE_QUERY_REJECT when the
 * remote port mapper refused.
 */
int iwpm_add_and_query_mapping(struct iwpm_sa_data *pm_msg, u8 nl_client)
{
	int ret;

	pm_msg->mapped_loc_addr = pm_msg->loc_addr;
	pm_msg->mapped_rem_addr = pm_msg->rem_addr;
	ret = iwpm_mapping_precheck(pm_msg, nl_client);
	if (ret)
		return ret > 0 ? 0 : ret;
	if (!iwpm_sockaddr_valid(&pm_msg->rem_addr))
		return -EINVAL;
	ret = iwpm_send_request(nl_client, RDMA_NL_IWPM_QUERY_MAPPING, pm_msg,
				iwpm_fill_query, false);
	if (ret) {
		pm_msg->mapped_loc_addr = pm_msg->loc_addr;
		pm_msg->mapped_rem_addr = pm_msg->rem_addr;
	}
	if (ret == -ETIMEDOUT)
		iwpm_forget_timed_out(&pm_msg->loc_addr, nl_client);
	return ret;
}
EXPORT_SYMBOL_GPL(iwpm_add_and_query_mapping);

/**
 * iwpm_remove_mapping - tell the port mapper a mapping is no longer used
 * @local_addr: local address of the mapping
 * @nl_client: netlink client index
 *
 * The port mapper does not answer.
 *
 * Context: Process context; may sleep (GFP_KERNEL allocation). Sends without
 * waiting (MSG_DONTWAIT) and takes no lock of its own.
 *
 * Return: 0 (also without a port mapper) or a negative errno.
 */
int iwpm_remove_mapping(struct sockaddr_storage *local_addr, u8 nl_client)
{
	u32 echo_seq = atomic_read(&echo_nlmsg_seq);
	struct nlmsghdr *nlh;
	struct sk_buff *skb;
	int pid, ret;

	if (!iwpm_valid_client(nl_client) || !iwpm_sockaddr_valid(local_addr))
		return -EINVAL;
	pid = iwpm_get_user_pid();
	if (pid <= 0)
		return 0;
	if (iwpm_check_registration(nl_client, IWPM_REG_UNDEF))
		return -EINVAL;

	skb = iwpm_create_nlmsg(RDMA_NL_IWPM_REMOVE_MAPPING, &nlh, nl_client);
	if (!skb)
		return -ENOMEM;
	nlh->nlmsg_seq = iwpm_get_nlmsg_seq();
	ret = ibnl_put_attr(skb, nlh, sizeof(u32), &echo_seq,
			    IWPM_NLA_MANAGE_MAPPING_SEQ);
	if (!ret)
		ret = ibnl_put_attr(skb, nlh, sizeof(*local_addr), local_addr,
				    IWPM_NLA_MANAGE_ADDR);
	if (ret) {
		nlmsg_free(skb);
		return ret;
	}
	nlmsg_end(skb, nlh);
	ret = rdma_nl_unicast(&init_net, skb, pid);
	if (ret == -ECONNREFUSED)
		iwpm_drop_pid(pid, IWPM_PID_UNDEFINED);
	iwpm_print_sockaddr(local_addr, "iwpm: removed mapping of");
	return ret;
}
EXPORT_SYMBOL_GPL(iwpm_remove_mapping);

/* ------------------------------------------------------------------
 * Messages from the port mapper.  They arrive through the netlink
 * core's dump machinery, so the port mapper gets an NLMSG_DONE for each,
 * carrying the handler's error (and extended ack) if any.
 */

/*
 * Find the request an answer is for and take it out of the table.  NULL
 * when there is none (never sent, answered already, timed out) or it is
 * a request of another kind or client.
 */
static struct iwpm_nlmsg_request *
iwpm_claim_answer(struct netlink_callback *cb, u32 seq, u8 op)
{
	struct iwpm_nlmsg_request *req;

	req = iwpm_find_nlmsg_request(seq);
	if (!req)
		goto none;
	if ((op && req->op != op) || req->nl_client != iwpm_cb_client(cb) ||
	    !iwpm_claim_nlmsg_request(req)) {
		kref_put(&req->kref, iwpm_free_nlmsg_request);
		goto none;
	}
	return req;
none:
	NL_SET_ERR_MSG(cb->extack, "iwpm: no pending request for this answer");
	pr_debug("iwpm: no pending request %u for answer (op %u)\n", seq, op);
	return NULL;
}

/* Finish a claimed request and drop the reference of the lookup. */
static void iwpm_answer(struct iwpm_nlmsg_request *req, int err_code)
{
	iwpm_complete_nlmsg_request(req, err_code);
	kref_put(&req->kref, iwpm_free_nlmsg_request);
}

static struct sockaddr_storage *iwpm_nla_addr(struct nlattr *nla)
{
	return nla_data(nla);
}

#define IWPM_ADDR_POLICY NLA_POLICY_EXACT_LEN(sizeof(struct sockaddr_storage))

static const struct nla_policy resp_reg_policy[IWPM_NLA_RREG_PID_MAX] = {
	[IWPM_NLA_RREG_PID_SEQ]		= { .type = NLA_U32 },
	[IWPM_NLA_RREG_IBDEV_NAME]	= { .type = NLA_NUL_STRING,
					    .len = IWPM_DEVNAME_SIZE - 1 },
	[IWPM_NLA_RREG_ULIB_NAME]	= { .type = NLA_NUL_STRING,
					    .len = IWPM_ULIBNAME_SIZE - 1 },
	[IWPM_NLA_RREG_ULIB_VER]	= { .type = NLA_U16 },
	[IWPM_NLA_RREG_PID_ERR]		= { .type = NLA_U16 },
};

/**
 * iwpm_register_pid_cb - handle the port mapper's answer to REG_PID
 * @skb: dump buffer (unused)
 * @cb: the message; its sender becomes the registered port mapper
 *
 * Context: Process context, from the NETLINK_RDMA dump path with the iw_cm
 * client's netlink semaphore held for read (and the socket's dump mutex); may
 * sleep. Takes the request table's xarray lock to claim the request it
 * answers.
 *
 * Return: 0, or a negative errno for a message that was not accepted.
 */
int iwpm_register_pid_cb(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr *nltb[IWPM_NLA_RREG_PID_MAX];
	struct iwpm_nlmsg_request *req;
	struct iwpm_dev_data *pm_msg;
	u16 version, err;
	int ret;

	if (!iwpm_from_port_mapper(cb, true))
		return -EPERM;
	ret = iwpm_parse_nlmsg(cb, IWPM_NLA_RREG_PID_MAX, resp_reg_policy,
			       nltb, "register pid answer");
	if (ret)
		return ret;
	req = iwpm_claim_answer(cb, nla_get_u32(nltb[IWPM_NLA_RREG_PID_SEQ]),
				RDMA_NL_IWPM_REG_PID);
	if (!req)
		return -ENOENT;

	pm_msg = req->req_buffer;
	version = nla_get_u16(nltb[IWPM_NLA_RREG_ULIB_VER]);
	err = nla_get_u16(nltb[IWPM_NLA_RREG_PID_ERR]);
	if (err || strcmp(pm_msg->dev_name,
			  nla_data(nltb[IWPM_NLA_RREG_IBDEV_NAME])) ||
	    strcmp(iwpm_ulib_name, nla_data(nltb[IWPM_NLA_RREG_ULIB_NAME])) ||
	    !iwpm_negotiate_version(version)) {
		pr_info("iwpm: register answer does not match (dev %s, version %u, err %u)\n",
			(char *)nla_data(nltb[IWPM_NLA_RREG_IBDEV_NAME]),
			version, err);
		iwpm_answer(req, err ?: IWPM_USER_LIB_INFO_ERR);
		return 0;
	}
	WRITE_ONCE(iwpm_user_pid, iwpm_sender(cb));
	WRITE_ONCE(iwpm_ulib_version, iwpm_negotiate_version(version));
	atomic_set(&echo_nlmsg_seq, cb->nlh->nlmsg_seq);
	iwpm_set_registration(req->nl_client, IWPM_REG_VALID);
	pr_debug("iwpm: port mapper is port id %u, ABI %u\n",
		 iwpm_sender(cb), version);
	iwpm_answer(req, 0);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_register_pid_cb);

static const struct nla_policy resp_add_policy[IWPM_NLA_RMANAGE_MAPPING_MAX] = {
	[IWPM_NLA_RMANAGE_MAPPING_SEQ]		= { .type = NLA_U32 },
	[IWPM_NLA_RMANAGE_ADDR]			= IWPM_ADDR_POLICY,
	[IWPM_NLA_RMANAGE_MAPPED_LOC_ADDR]	= IWPM_ADDR_POLICY,
	[IWPM_NLA_RMANAGE_MAPPING_ERR]		= { .type = NLA_U16 },
};

/**
 * iwpm_add_mapping_cb - handle the port mapper's answer to ADD_MAPPING
 * @skb: dump buffer (unused)
 * @cb: the message
 *
 * Context: Process context, from the NETLINK_RDMA dump path with the iw_cm
 * client's netlink semaphore held for read (and the socket's dump mutex); may
 * sleep. Takes the request table's xarray lock to claim the request it
 * answers.
 *
 * Return: 0, or a negative errno for a message that was not accepted.
 */
int iwpm_add_mapping_cb(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr *nltb[IWPM_NLA_RMANAGE_MAPPING_MAX];
	struct sockaddr_storage *local, *mapped;
	struct iwpm_nlmsg_request *req;
	struct iwpm_sa_data *pm_msg;
	u16 err;
	int ret;

	if (!iwpm_from_port_mapper(cb, false))
		return -EPERM;
	ret = iwpm_parse_nlmsg(cb, IWPM_NLA_RMANAGE_MAPPING_MAX,
			       resp_add_policy, nltb, "add mapping answer");
	if (ret)
		return ret;
	atomic_set(&echo_nlmsg_seq, cb->nlh->nlmsg_seq);
	req = iwpm_claim_answer(cb,
				nla_get_u32(nltb[IWPM_NLA_RMANAGE_MAPPING_SEQ]),
				RDMA_NL_IWPM_ADD_MAPPING);
	if (!req)
		return -ENOENT;

	pm_msg = req->req_buffer;
	local = iwpm_nla_addr(nltb[IWPM_NLA_RMANAGE_ADDR]);
	mapped = iwpm_nla_addr(nltb[IWPM_NLA_RMANAGE_MAPPED_LOC_ADDR]);
	err = nla_get_u16(nltb[IWPM_NLA_RMANAGE_MAPPING_ERR]);
	if (err) {
		iwpm_answer(req, err);
		return 0;
	}
	if (iwpm_compare_sockaddr(local, &pm_msg->loc_addr) ||
	    mapped->ss_family != local->ss_family) {
		pr_info("iwpm: add mapping answer does not match the request\n");
		iwpm_answer(req, IWPM_USER_LIB_INFO_ERR);
		return 0;
	}
	pm_msg->mapped_loc_addr = *mapped;
	iwpm_print_sockaddr(mapped, "iwpm: mapped address:");
	iwpm_answer(req, 0);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_add_mapping_cb);

static const struct nla_policy resp_query_policy[IWPM_NLA_RQUERY_MAPPING_MAX] = {
	[IWPM_NLA_RQUERY_MAPPING_SEQ]		= { .type = NLA_U32 },
	[IWPM_NLA_RQUERY_LOCAL_ADDR]		= IWPM_ADDR_POLICY,
	[IWPM_NLA_RQUERY_REMOTE_ADDR]		= IWPM_ADDR_POLICY,
	[IWPM_NLA_RQUERY_MAPPED_LOC_ADDR]	= IWPM_ADDR_POLICY,
	[IWPM_NLA_RQUERY_MAPPED_REM_ADDR]	= IWPM_ADDR_POLICY,
	[IWPM_NLA_RQUERY_MAPPING_ERR]		= { .type = NLA_U16 },
};

/* The four addresses of a query answer or a remote-info message. */
struct iwpm_query_addrs {
	struct sockaddr_storage *local, *remote, *mapped_loc, *mapped_rem;
};

static bool iwpm_get_query_addrs(struct nlattr *nltb[],
				 struct iwpm_query_addrs *a)
{
	a->local = iwpm_nla_addr(nltb[IWPM_NLA_RQUERY_LOCAL_ADDR]);
	a->remote = iwpm_nla_addr(nltb[IWPM_NLA_RQUERY_REMOTE_ADDR]);
	a->mapped_loc = iwpm_nla_addr(nltb[IWPM_NLA_RQUERY_MAPPED_LOC_ADDR]);
	a->mapped_rem = iwpm_nla_addr(nltb[IWPM_NLA_RQUERY_MAPPED_REM_ADDR]);
	return iwpm_sockaddr_valid(a->local) &&
	       iwpm_sockaddr_valid(a->remote) &&
	       a->mapped_loc->ss_family == a->local->ss_family &&
	       a->mapped_rem->ss_family == a->remote->ss_family;
}

/**
 * iwpm_add_and_query_mapping_cb - handle the port mapper's answer to
 *	QUERY_MAPPING
 * @skb: dump buffer (unused)
 * @cb: the message
 *
 * Context: Process context, from the NETLINK_RDMA dump path with the iw_cm
 * client's netlink semaphore held for read (and the socket's dump mutex); may
 * sleep. Takes the request table's xarray lock to claim the request it
 * answers.
 *
 * Return: 0, or a negative errno for a message that was not accepted.
 */
int iwpm_add_and_query_mapping_cb(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	struct nlattr *nltb[IWPM_NLA_RQUERY_MAPPING_MAX];
	struct iwpm_nlmsg_request *req;
	struct iwpm_sa_data *pm_msg;
	struct iwpm_query_addrs a;
	u16 err;
	int ret;

	if (!iwpm_from_port_mapper(cb, false))
		return -EPERM;
	ret = iwpm_parse_nlmsg(cb, IWPM_NLA_RQUERY_MAPPING_MAX,
			       resp_query_policy, nltb, "query answer");
	if (ret)
		return ret;
	atomic_set(&echo_nlmsg_seq, cb->nlh->nlmsg_seq);
	req = iwpm_claim_answer(cb,
				nla_get_u32(nltb[IWPM_NLA_RQUERY_MAPPING_SEQ]),
				RDMA_NL_IWPM_QUERY_MAPPING);
	if (!req)
		return -ENOENT;

	pm_msg = req->req_buffer;
	err = nla_get_u16(nltb[IWPM_NLA_RQUERY_MAPPING_ERR]);
	if (err) {
		pr_info("iwpm: query answered with error %u\n", err);
		iwpm_answer(req, err);
		return 0;
	}
	if (!iwpm_get_query_addrs(nltb, &a) ||
	    iwpm_compare_sockaddr(a.local, &pm_msg->loc_addr) ||
	    iwpm_compare_sockaddr(a.remote, &pm_msg->rem_addr)) {
		pr_info("iwpm: query answer does not match the request\n");
		iwpm_answer(req, IWPM_USER_LIB_INFO_ERR);
		return 0;
	}
	pm_msg->mapped_loc_addr = *a.mapped_loc;
	pm_msg->mapped_rem_addr = *a.mapped_rem;
	iwpm_answer(req, 0);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_add_and_query_mapping_cb);

/**
 * iwpm_remote_info_cb - record the real address of a connecting peer
 * @skb: dump buffer (unused)
 * @cb: the message
 *
 * The port mapper sends it on the listening side; the record waits for
 * iwpm_get_remote_info().
 *
 * Context: Process context, from the NETLINK_RDMA dump path with the iw_cm
 * client's netlink semaphore held for read (and the socket's dump mutex); may
 * sleep. Allocates with GFP_KERNEL and takes iwpm_rem_lock.
 *
 * Return: 0 when recorded, a negative errno otherwise.
 */
int iwpm_remote_info_cb(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr *nltb[IWPM_NLA_RQUERY_MAPPING_MAX];
	struct iwpm_remote_info *rem_info;
	struct iwpm_query_addrs a;
	int ret;

	if (!iwpm_from_port_mapper(cb, false))
		return -EPERM;
	ret = iwpm_parse_nlmsg(cb, IWPM_NLA_RQUERY_MAPPING_MAX,
			       resp_query_policy, nltb, "remote info");
	if (ret)
		return ret;
	atomic_set(&echo_nlmsg_seq, cb->nlh->nlmsg_seq);
	if (nla_get_u16(nltb[IWPM_NLA_RQUERY_MAPPING_ERR])) {
		NL_SET_ERR_MSG(cb->extack, "iwpm: remote info carries an error");
		return -EINVAL;
	}
	if (!iwpm_get_query_addrs(nltb, &a)) {
		NL_SET_ERR_MSG(cb->extack, "iwpm: invalid address family");
		return -EINVAL;
	}
	rem_info = kzalloc(sizeof(*rem_info), GFP_KERNEL);
	if (!rem_info)
		return -ENOMEM;
	rem_info->remote_sockaddr = *a.remote;
	rem_info->mapped_loc_sockaddr = *a.mapped_loc;
	rem_info->mapped_rem_sockaddr = *a.mapped_rem;
	rem_info->nl_client = iwpm_cb_client(cb);
	ret = iwpm_insert_remote_info(rem_info);
	if (ret) {
		kfree(rem_info);
		NL_SET_ERR_MSG(cb->extack, "iwpm: remote info not recorded");
		return ret;
	}
	iwpm_print_sockaddr(a.remote, "iwpm: remote info of");
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_remote_info_cb);

static const struct nla_policy resp_mapinfo_policy[IWPM_NLA_MAPINFO_REQ_MAX] = {
	[IWPM_NLA_MAPINFO_ULIB_NAME]	= { .type = NLA_NUL_STRING,
					    .len = IWPM_ULIBNAME_SIZE - 1 },
	[IWPM_NLA_MAPINFO_ULIB_VER]	= { .type = NLA_U16 },
};

/**
 * iwpm_mapping_info_cb - a port mapper (re)started and asks for mappings
 * @skb: dump buffer (unused)
 * @cb: the message; its sender becomes the registered port mapper
 *
 * Every mapping of the client is sent to the new port mapper, then their
 * number; clients must register again.
 *
 * Context: Process context, from the NETLINK_RDMA dump path with the iw_cm
 * client's netlink semaphore held for read (and the socket's dump mutex); may
 * sleep. Snapshots the mappings under iwpm_map_lock, then sends them
 * (GFP_KERNEL allocations).
 *
 * Return: 0, or a negative errno.
 */
int iwpm_mapping_info_cb(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr *nltb[IWPM_NLA_MAPINFO_REQ_MAX];
	u8 nl_client = iwpm_cb_client(cb);
	u16 version;
	u32 sender;
	int ret;

	ret = iwpm_parse_nlmsg(cb, IWPM_NLA_MAPINFO_REQ_MAX,
			       resp_mapinfo_policy, nltb, "mapinfo request");
	if (ret)
		return ret;
	version = nla_get_u16(nltb[IWPM_NLA_MAPINFO_ULIB_VER]);
	version = iwpm_negotiate_version(version);
	if (strcmp(iwpm_ulib_name, nla_data(nltb[IWPM_NLA_MAPINFO_ULIB_NAME])) ||
	    !version) {
		NL_SET_ERR_MSG(cb->extack,
			       "iwpm: unknown port mapper name or version");
		return -EINVAL;
	}
	sender = iwpm_sender(cb);
	if (!iwpm_valid_client(nl_client) || !sender)
		return -EINVAL;

	WRITE_ONCE(iwpm_user_pid, sender);
	WRITE_ONCE(iwpm_ulib_version, version);
	iwpm_set_registration(nl_client, IWPM_REG_INCOMPL);
	atomic_set(&echo_nlmsg_seq, cb->nlh->nlmsg_seq);
	pr_debug("iwpm: port mapper port id %u started (ABI %u)\n", sender,
		 version);
	if (!iwpm_mapinfo_available())
		return 0;
	ret = iwpm_send_mapinfo(nl_client, sender);
	return ret < 0 ? ret : 0;
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_mapping_info_cb);

static const struct nla_policy ack_mapinfo_policy[IWPM_NLA_MAPINFO_NUM_MAX] = {
	[IWPM_NLA_MAPINFO_SEQ]		= { .type = NLA_U32 },
	[IWPM_NLA_MAPINFO_SEND_NUM]	= { .type = NLA_U32 },
	[IWPM_NLA_MAPINFO_ACK_NUM]	= { .type = NLA_U32 },
};

/**
 * iwpm_ack_mapping_info_cb - the port mapper acknowledges a mapping replay
 * @skb: dump buffer (unused)
 * @cb: the message
 *
 * Context: Process context, from the NETLINK_RDMA dump path with the iw_cm
 * client's netlink semaphore held for read (and the socket's dump mutex); may
 * sleep.
 *
 * Return: 0, or a negative errno for a message that was not accepted.
 */
int iwpm_ack_mapping_info_cb(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr *nltb[IWPM_NLA_MAPINFO_NUM_MAX];
	u32 sent, acked;
	int ret;

	if (!iwpm_from_port_mapper(cb, false))
		return -EPERM;
	ret = iwpm_parse_nlmsg(cb, IWPM_NLA_MAPINFO_NUM_MAX,
			       ack_mapinfo_policy, nltb, "mapinfo ack");
	if (ret)
		return ret;
	sent = nla_get_u32(nltb[IWPM_NLA_MAPINFO_SEND_NUM]);
	acked = nla_get_u32(nltb[IWPM_NLA_MAPINFO_ACK_NUM]);
	atomic_set(&iwpm_stats.mapinfo_acked, acked);
	if (sent != acked)
		pr_info("iwpm: port mapper took %u of %u mappings\n", acked,
			sent);
	atomic_set(&echo_nlmsg_seq, cb->nlh->nlmsg_seq);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_ack_mapping_info_cb);

static const struct nla_policy map_error_policy[IWPM_NLA_ERR_MAX] = {
	[IWPM_NLA_ERR_SEQ]	= { .type = NLA_U32 },
	[IWPM_NLA_ERR_CODE]	= { .type = NLA_U16 },
};

/**
 * iwpm_mapping_error_cb - the port mapper reports an error for a request
 * @skb: dump buffer (unused)
 * @cb: the message
 *
 * The request of that sequence number, if one waits, fails with the
 * reported code.
 *
 * Context: Process context, from the NETLINK_RDMA dump path with the iw_cm
 * client's netlink semaphore held for read (and the socket's dump mutex); may
 * sleep. Takes the request table's xarray lock to claim the failed request.
 *
 * Return: 0, or a negative errno for a message that was not accepted.
 */
int iwpm_mapping_error_cb(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr *nltb[IWPM_NLA_ERR_MAX];
	struct iwpm_nlmsg_request *req;
	u16 err;
	u32 seq;
	int ret;

	if (!iwpm_from_port_mapper(cb, false))
		return -EPERM;
	ret = iwpm_parse_nlmsg(cb, IWPM_NLA_ERR_MAX, map_error_policy, nltb,
			       "error message");
	if (ret)
		return ret;
	seq = nla_get_u32(nltb[IWPM_NLA_ERR_SEQ]);
	err = nla_get_u16(nltb[IWPM_NLA_ERR_CODE]);
	pr_info("iwpm: port mapper reports error %u for request %u\n", err,
		seq);
	atomic_set(&echo_nlmsg_seq, cb->nlh->nlmsg_seq);
	req = iwpm_claim_answer(cb, seq, 0);
	if (!req)
		return 0;	/* not every error is about a request */
	iwpm_answer(req, err ?: IWPM_INVALID_NLMSG_ERR);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_mapping_error_cb);

static const struct nla_policy hello_policy[IWPM_NLA_HELLO_MAX] = {
	[IWPM_NLA_HELLO_ABI_VERSION]	= { .type = NLA_U16 },
};

/**
 * iwpm_hello_cb - a port mapper starts and offers its ABI version
 * @skb: dump buffer (unused)
 * @cb: the message; its sender becomes the registered port mapper
 *
 * Both sides use the lower of the two versions; the answer is a HELLO
 * with it.  The handler returns no error for a valid HELLO: iwpmd takes
 * any error at sequence 0 for an old kernel and falls back to version 3.
 *
 * Context: Process context, from the NETLINK_RDMA dump path with the iw_cm
 * client's netlink semaphore held for read (and the socket's dump mutex); may
 * sleep. Sends the answer with a GFP_KERNEL allocation.
 *
 * Return: 0, or a negative errno.
 */
int iwpm_hello_cb(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr *nltb[IWPM_NLA_HELLO_MAX];
	u8 nl_client = iwpm_cb_client(cb);
	u32 sender = iwpm_sender(cb);
	u16 version;
	int ret;

	ret = iwpm_parse_nlmsg(cb, IWPM_NLA_HELLO_MAX, hello_policy, nltb,
			       "hello");
	if (ret)
		return ret;
	version = nla_get_u16(nltb[IWPM_NLA_HELLO_ABI_VERSION]);
	version = iwpm_negotiate_version(version);
	if (!version) {
		NL_SET_ERR_MSG(cb->extack, "iwpm: ABI version too old");
		return -EINVAL;
	}
	if (!iwpm_valid_client(nl_client) || !sender)
		return -EINVAL;

	WRITE_ONCE(iwpm_user_pid, sender);
	WRITE_ONCE(iwpm_ulib_version, version);
	iwpm_set_registration(nl_client, IWPM_REG_INCOMPL);
	atomic_set(&echo_nlmsg_seq, cb->nlh->nlmsg_seq);
	pr_debug("iwpm: hello from port id %u, using ABI %u\n", sender,
		 version);
	return iwpm_send_hello(nl_client, sender, version);
}
EXPORT_SYMBOL_IF_KUNIT(iwpm_hello_cb);

/* ------------------------------------------------------------------
 * The port mapper's socket going away
 */

static int iwpm_netlink_event(struct notifier_block *nb, unsigned long event,
			      void *ptr)
{
	struct netlink_notify *n = ptr;
	unsigned int aborted;
	int pid;

	if (event != NETLINK_URELEASE || n->protocol != NETLINK_RDMA ||
	    !net_eq(n->net, &init_net))
		return NOTIFY_DONE;
	pid = iwpm_get_user_pid();
	if (pid <= 0 || n->portid != (u32)pid ||
	    !iwpm_drop_pid(pid, IWPM_PID_UNDEFINED))
		return NOTIFY_DONE;
	aborted = iwpm_abort_nlmsg_requests(-ECONNRESET);
	atomic_add(aborted, &iwpm_stats.requests_aborted);
	pr_info("iwpm: port mapper (port id %d) went away, %u request(s) failed\n",
		pid, aborted);
	return NOTIFY_OK;
}

static struct notifier_block iwpm_netlink_nb = {
	.notifier_call = iwpm_netlink_event,
};

/* iwpm_notifier_users counts iwpm_init() callers; under iwpm_notifier_mutex. */
static DEFINE_MUTEX(iwpm_notifier_mutex);
static unsigned int iwpm_notifier_users;

/**
 * iwpm_notifier_register - watch for the port mapper's socket closing
 *
 * Return: 0 or a negative errno.
 */
int iwpm_notifier_register(void)
{
	int ret = 0;

	mutex_lock(&iwpm_notifier_mutex);
	if (!iwpm_notifier_users)
		ret = netlink_register_notifier(&iwpm_netlink_nb);
	if (!ret)
		iwpm_notifier_users++;
	mutex_unlock(&iwpm_notifier_mutex);
	return ret;
}

/**
 * iwpm_notifier_unregister - undo iwpm_notifier_register()
 */
void iwpm_notifier_unregister(void)
{
	mutex_lock(&iwpm_notifier_mutex);
	if (!WARN_ON(!iwpm_notifier_users) && !--iwpm_notifier_users)
		netlink_unregister_notifier(&iwpm_netlink_nb);
	mutex_unlock(&iwpm_notifier_mutex);
}
