// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The NETLINK_RDMA channel: one kernel socket per network namespace, a
 * callback table per client index, and the dispatch of what user space
 * sends to the right callback.  Documentation/core/netlink.rst has the
 * rules; in short:
 *
 * - A message's type is RDMA_NL_GET_TYPE(client, op).  The client must
 *   be one that has an op count below and the op must be below it.
 * - Outside the initial network namespace only nldev answers.
 * - An op whose table entry has RDMA_NL_ADMIN_PERM needs CAP_NET_ADMIN.
 * - IWCM messages always go through the dump path, so that iwpmd gets an
 *   NLMSG_DONE for each; LS messages always go to doit (their replies
 *   reuse the NLM_F_ROOT bit as an error flag and carry no NLM_F_REQUEST).
 */
#include <linux/export.h>
#include <linux/module.h>
#include <linux/rwsem.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <rdma/rdma_netlink.h>

#include "../core_priv.h"

/*
 * The registered clients.  @cbs is written under @sem held for writing
 * (unregistration) or published with a release store (registration) and
 * read under @sem held for reading, which the dispatch holds for the
 * whole time it runs a callback: rdma_nl_unregister() therefore returns
 * only once no callback of the client runs any more.
 */
static struct rdma_nl_client {
	const struct rdma_nl_cbs *cbs;
	struct rw_semaphore sem;
} rdma_nl_clients[RDMA_NL_NUM_CLIENTS];

/* How many ops each client index has; 0 for indexes without a client. */
static const unsigned int rdma_nl_num_ops[RDMA_NL_NUM_CLIENTS] = {
	[RDMA_NL_IWCM] = RDMA_NL_IWPM_NUM_OPS,
	[RDMA_NL_LS] = RDMA_NL_LS_NUM_OPS,
	[RDMA_NL_NLDEV] = RDMA_NLDEV_NUM_OPS,
};

static bool rdma_nl_valid(unsigned int index, unsigned int op)
{
	return index < RDMA_NL_NUM_CLIENTS && op < rdma_nl_num_ops[index];
}

/**
 * rdma_nl_register - start answering messages of one client index
 * @index: RDMA_NL_IWCM, RDMA_NL_LS or RDMA_NL_NLDEV
 * @cb_table: one entry per op of the client, kept until
 *	rdma_nl_unregister(); entries without callbacks are refused ops
 *
 * Registering an index twice, or one without ops, is a bug and warns.
 *
 * Context: Any context; does not sleep and takes no lock (the table is
 * published with a release store).
 */
void rdma_nl_register(unsigned int index, const struct rdma_nl_cbs cb_table[])
{
	if (WARN_ON(!rdma_nl_valid(index, 0)) ||
	    WARN_ON(READ_ONCE(rdma_nl_clients[index].cbs)))
		return;

	/* Pairs with the READ_ONCE() of rdma_nl_get_cbs(). */
	smp_store_release(&rdma_nl_clients[index].cbs, cb_table);
}
EXPORT_SYMBOL(rdma_nl_register);

/**
 * rdma_nl_unregister - stop answering messages of one client index
 * @index: the index given to rdma_nl_register()
 *
 * Waits for callbacks of the client that are running.  Dumps that are
 * still open (their reader has not read them to the end) end at their
 * next read without calling into the client again: see rdma_nl_dump().
 *
 * Context: Process context; sleeps until the client's running callbacks have
 * returned. Takes the index's semaphore for write, so it must not be called
 * from one of the client's own callbacks.
 */
void rdma_nl_unregister(unsigned int index)
{
	if (WARN_ON(index >= RDMA_NL_NUM_CLIENTS))
		return;
	down_write(&rdma_nl_clients[index].sem);
	rdma_nl_clients[index].cbs = NULL;
	up_write(&rdma_nl_clients[index].sem);
}
EXPORT_SYMBOL(rdma_nl_unregister);

/**
 * ibnl_put_msg - start a netlink message of an RDMA client
 * @skb: the buffer
 * @nlh: set to the new message's header
 * @seq: sequence number
 * @len: length of the fixed payload after the header (usually 0)
 * @client: client index, RDMA_NL_*
 * @op: the client's operation
 * @flags: NLM_F_* flags
 *
 * Context: Any context; does not sleep. The caller owns @skb.
 *
 * Return: the payload of the message, or NULL when @skb has no room.
 */
void *ibnl_put_msg(struct sk_buff *skb, struct nlmsghdr **nlh, int seq,
		   int len, int client, int op, int flags)
{
	*nlh = nlmsg_put(skb, 0, seq, RDMA_NL_GET_TYPE(client, op), len, flags);
	return *nlh ? nlmsg_data(*nlh) : NULL;
}
EXPORT_SYMBOL(ibnl_put_msg);

/**
 * ibnl_put_attr - add an attribute to a message started by ibnl_put_msg()
 * @skb: the buffer
 * @nlh: the message
 * @len: length of @data
 * @data: the attribute's value
 * @type: the attribute's type
 *
 * On failure the whole message is taken off @skb again.
 *
 * Context: Any context; does not sleep. The caller owns @skb.
 *
 * Return: 0 or -EMSGSIZE.
 */
int ibnl_put_attr(struct sk_buff *skb, struct nlmsghdr *nlh,
		  int len, void *data, int type)
{
	if (!nla_put(skb, type, len, data))
		return 0;
	nlmsg_cancel(skb, nlh);
	return -EMSGSIZE;
}
EXPORT_SYMBOL(ibnl_put_attr);

static struct sock *rdma_nl_sock(struct net *net)
{
	return rdma_net_to_dev_net(net)->nl_sock;
}

/**
 * rdma_nl_unicast - send a message to one socket without blocking
 * @net: the namespace whose NETLINK_RDMA socket sends
 * @skb: the message; always consumed
 * @pid: the port id of the receiving socket
 *
 * Context: Process or softirq context.  Never waits for room at the
 * receiver (MSG_DONTWAIT), but from process context it may sleep:
 * netlink_trim() may reallocate @skb with gfp_any(), which is GFP_KERNEL
 * outside softirq.  Takes the receiving socket's queue lock.
 *
 * Return: 0, or a negative errno (-EAGAIN when the receiver is full,
 * -ECONNREFUSED when nobody has @pid).
 */
int rdma_nl_unicast(struct net *net, struct sk_buff *skb, u32 pid)
{
	int ret = netlink_unicast(rdma_nl_sock(net), skb, pid, MSG_DONTWAIT);

	return ret < 0 ? ret : 0;
}
EXPORT_SYMBOL(rdma_nl_unicast);

/**
 * rdma_nl_unicast_wait - send a message to one socket, waiting for room
 * @net: the namespace whose NETLINK_RDMA socket sends
 * @skb: the message; always consumed
 * @pid: the port id of the receiving socket
 *
 * Sleeps while the receiver's queue is full, at most the kernel socket's
 * send timeout (10 seconds).  Must be called where sleeping is allowed.
 *
 * Context: Process context; may sleep up to the socket's send timeout.
 *
 * Return: 0 or a negative errno.
 */
int rdma_nl_unicast_wait(struct net *net, struct sk_buff *skb, __u32 pid)
{
	int ret = netlink_unicast(rdma_nl_sock(net), skb, pid, 0);

	return ret < 0 ? ret : 0;
}
EXPORT_SYMBOL(rdma_nl_unicast_wait);

/**
 * rdma_nl_multicast - send a message to every member of a group
 * @net: the namespace whose NETLINK_RDMA socket sends
 * @skb: the message; always consumed
 * @group: RDMA_NL_GROUP_*
 * @flags: allocation flags for the copies
 *
 * Context: Any context if @flags do not allow sleeping (GFP_ATOMIC); process
 * context with GFP_KERNEL, when it may sleep.
 *
 * Return: 0, -ESRCH when the group has no member, or another errno.
 */
int rdma_nl_multicast(struct net *net, struct sk_buff *skb,
		      unsigned int group, gfp_t flags)
{
	return nlmsg_multicast(rdma_nl_sock(net), skb, 0, group, flags);
}
EXPORT_SYMBOL(rdma_nl_multicast);

/**
 * rdma_nl_chk_listeners - whether a group of the initial namespace has
 * members
 * @group: RDMA_NL_GROUP_*
 *
 * Context: Any context; does not sleep (reads the group's listener bitmap
 * under RCU).
 *
 * Return: true when at least one socket of the initial namespace is a member
 * of @group, else false.
 */
bool rdma_nl_chk_listeners(unsigned int group)
{
	return netlink_has_listeners(rdma_nl_sock(&init_net), group);
}
EXPORT_SYMBOL(rdma_nl_chk_listeners);

/*
 * Every dump runs through here rather than straight into the client: the
 * client's table is looked up again, under its semaphore, on each part of
 * the dump.  A dump whose reader is slow can outlive its client (iw_cm
 * unloaded between two reads); it then ends quietly instead of calling
 * into a module that is gone.
 */
static int rdma_nl_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned int index = RDMA_NL_GET_CLIENT(cb->nlh->nlmsg_type);
	unsigned int op = RDMA_NL_GET_OP(cb->nlh->nlmsg_type);
	struct rdma_nl_client *client = &rdma_nl_clients[index];
	const struct rdma_nl_cbs *cbs;
	int ret = 0;

	down_read(&client->sem);
	cbs = client->cbs;
	if (cbs && cbs[op].dump)
		ret = cbs[op].dump(skb, cb);
	up_read(&client->sem);
	return ret;
}

/*
 * The callback table of @index with its semaphore held for reading, or
 * NULL (semaphore released) when no client has the index.  A missing
 * client is looked for once among the modules ("rdma-netlink-subsys-N").
 */
static const struct rdma_nl_cbs *rdma_nl_get_cbs(unsigned int index)
{
	struct rdma_nl_client *client = &rdma_nl_clients[index];
	const struct rdma_nl_cbs *cbs;

	down_read(&client->sem);
	cbs = READ_ONCE(client->cbs);
	if (cbs)
		return cbs;
	up_read(&client->sem);

	request_module("rdma-netlink-subsys-%u", index);

	down_read(&client->sem);
	cbs = READ_ONCE(client->cbs);
	if (cbs)
		return cbs;
	up_read(&client->sem);
	return NULL;
}

/* Handle one request; -EINTR means a dump started and nothing is acked. */
static int rdma_nl_rcv_msg(struct sk_buff *skb, struct nlmsghdr *nlh,
			   struct netlink_ext_ack *extack)
{
	unsigned int index = RDMA_NL_GET_CLIENT(nlh->nlmsg_type);
	unsigned int op = RDMA_NL_GET_OP(nlh->nlmsg_type);
	const struct rdma_nl_cbs *cbs, *cb;
	int ret;

	if (!rdma_nl_valid(index, op)) {
		NL_SET_ERR_MSG(extack, "Unknown RDMA netlink client or operation");
		return -EINVAL;
	}
	if (!net_eq(sock_net(skb->sk), &init_net) && index != RDMA_NL_NLDEV) {
		NL_SET_ERR_MSG(extack,
			       "Only nldev answers outside the initial network namespace");
		return -EINVAL;
	}

	cbs = rdma_nl_get_cbs(index);
	if (!cbs) {
		NL_SET_ERR_MSG(extack, "No RDMA netlink client for this index");
		return -EINVAL;
	}
	cb = &cbs[op];
	if (!cb->doit && !cb->dump) {
		NL_SET_ERR_MSG(extack, "Operation not supported by this client");
		ret = -EINVAL;
		goto out;
	}
	if ((cb->flags & RDMA_NL_ADMIN_PERM) &&
	    !netlink_capable(skb, CAP_NET_ADMIN)) {
		NL_SET_ERR_MSG(extack, "Operation needs CAP_NET_ADMIN");
		ret = -EPERM;
		goto out;
	}

	/* LS replies reuse NLM_F_ROOT as their error flag: never a dump. */
	if (index == RDMA_NL_LS) {
		ret = cb->doit ? cb->doit(skb, nlh, extack) : -EINVAL;
		goto out;
	}

	if (index == RDMA_NL_IWCM || (nlh->nlmsg_flags & NLM_F_DUMP)) {
		struct netlink_dump_control c = {
			.dump = rdma_nl_dump,
			.module = THIS_MODULE,
		};

		if (!cb->dump) {
			NL_SET_ERR_MSG(extack, "Operation cannot be dumped");
			ret = -EINVAL;
			goto out;
		}
		/*
		 * The first part of the dump runs right away, in
		 * rdma_nl_dump(), which takes the semaphore itself.
		 */
		up_read(&rdma_nl_clients[index].sem);
		return netlink_dump_start(skb->sk, skb, nlh, &c);
	}

	if (!cb->doit) {
		NL_SET_ERR_MSG(extack, "Operation is only a dump");
		ret = -EINVAL;
		goto out;
	}
	ret = cb->doit(skb, nlh, extack);
out:
	up_read(&rdma_nl_clients[index].sem);
	return ret;
}

/*
 * Walk the messages of one datagram.  Unlike netlink_rcv_skb(), LS
 * messages are handled without NLM_F_REQUEST: they are user space's
 * replies to requests of the kernel.  Other messages without it, and
 * control messages, are only acked when asked to.
 */
static void rdma_nl_rcv(struct sk_buff *skb)
{
	while (skb->len >= nlmsg_total_size(0)) {
		struct netlink_ext_ack extack = {};
		struct nlmsghdr *nlh = nlmsg_hdr(skb);
		unsigned int len;
		int err = 0;

		if (nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len > skb->len)
			return;

		if (nlh->nlmsg_type >= NLMSG_MIN_TYPE &&
		    ((nlh->nlmsg_flags & NLM_F_REQUEST) ||
		     RDMA_NL_GET_CLIENT(nlh->nlmsg_type) == RDMA_NL_LS))
			err = rdma_nl_rcv_msg(skb, nlh, &extack);

		if (err != -EINTR && (err || (nlh->nlmsg_flags & NLM_F_ACK)))
			netlink_ack(skb, nlh, err, &extack);

		len = min_t(unsigned int, NLMSG_ALIGN(nlh->nlmsg_len), skb->len);
		skb_pull(skb, len);
	}
}

/**
 * rdma_nl_kunit_swap - put a callback table in place of a client's
 * @index: the client index (any below RDMA_NL_NUM_CLIENTS)
 * @cbs: the table to install, or NULL
 *
 * For the KUnit suites only: waits like rdma_nl_unregister().
 *
 * Context: Process context; sleeps until running callbacks of the index have
 * returned. Takes the index's semaphore for write.
 *
 * Return: the table that was installed before.
 */
const struct rdma_nl_cbs *rdma_nl_kunit_swap(unsigned int index,
					     const struct rdma_nl_cbs *cbs)
{
	const struct rdma_nl_cbs *old;

	down_write(&rdma_nl_clients[index].sem);
	old = rdma_nl_clients[index].cbs;
	rdma_nl_clients[index].cbs = cbs;
	up_write(&rdma_nl_clients[index].sem);
	return old;
}
EXPORT_SYMBOL_IF_KUNIT(rdma_nl_kunit_swap);

/* Set up the client table; before any namespace's socket exists. */
void rdma_nl_init(void)
{
	unsigned int i;

	for (i = 0; i < RDMA_NL_NUM_CLIENTS; i++)
		init_rwsem(&rdma_nl_clients[i].sem);
}

/* Every client must be gone when ib_core unloads. */
void rdma_nl_exit(void)
{
	unsigned int i;

	for (i = 0; i < RDMA_NL_NUM_CLIENTS; i++)
		WARN(rdma_nl_clients[i].cbs,
		     "ib_core: RDMA netlink client %u still registered\n", i);
}

/* Create the NETLINK_RDMA socket of @rnet's namespace. */
int rdma_nl_net_init(struct rdma_dev_net *rnet)
{
	struct netlink_kernel_cfg cfg = {
		.input = rdma_nl_rcv,
		/* iwpmd and monitors join groups; ibacm need not be root. */
		.flags = NL_CFG_F_NONROOT_RECV,
	};
	struct sock *sk;

	sk = netlink_kernel_create(read_pnet(&rnet->net), NETLINK_RDMA, &cfg);
	if (!sk)
		return -ENOMEM;
	/* Bounds rdma_nl_unicast_wait() on a receiver that never reads. */
	sk->sk_sndtimeo = 10 * HZ;
	rnet->nl_sock = sk;
	return 0;
}

/* Release the socket made by rdma_nl_net_init(). */
void rdma_nl_net_exit(struct rdma_dev_net *rnet)
{
	netlink_kernel_release(rnet->nl_sock);
	rnet->nl_sock = NULL;
}

MODULE_ALIAS_NET_PF_PROTO(PF_NETLINK, NETLINK_RDMA);
