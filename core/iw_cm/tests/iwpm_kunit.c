// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_iwpm": the iWARP port-mapper client of iw_cm
 * (core/iw_cm/iwpm_util.c, core/iw_cm/iwpm_msg.c).
 *
 * A kernel NETLINK_RDMA socket plays iwpmd: requests the client sends
 * are read from it and checked attribute by attribute, and answers are
 * handed to the client's handlers the way the netlink core does (a
 * netlink_callback whose skb carries the sender's port id).  Closing the
 * socket is iwpmd dying.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/inet.h>
#include <linux/kthread.h>
#include <linux/net.h>
#include <linux/socket.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "../iwpm_util.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define CLIENT		RDMA_NL_IWCM
#define RECV_MS		5000

/* ------------------------------------------------------------------
 * Fixture: saved global state, the fake port mapper
 */

struct iwpm_fixture {
	int saved_pid;
	u16 saved_version;
	u32 saved_reg;
	unsigned int saved_timeout;
	struct socket *pm_sock;
	u32 pm_portid;
};

static int iwpm_test_init(struct kunit *test)
{
	struct iwpm_fixture *fx;

	fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fx);
	fx->saved_pid = iwpm_get_user_pid();
	fx->saved_version = iwpm_ulib_version;
	fx->saved_reg = iwpm_get_registration(CLIENT);
	fx->saved_timeout = iwpm_timeout_ms;
	test->priv = fx;
	/* Every test starts with no port mapper and no pending request. */
	KUNIT_ASSERT_EQ(test, iwpm_pending_nlmsg_requests(), 0U);
	iwpm_set_user_pid(IWPM_PID_UNDEFINED);
	return 0;
}

static void iwpm_test_exit(struct kunit *test)
{
	struct iwpm_fixture *fx = test->priv;

	if (fx->pm_sock)
		sock_release(fx->pm_sock);
	iwpm_flush_client(CLIENT);
	iwpm_set_user_pid(fx->saved_pid);
	iwpm_ulib_version = fx->saved_version;
	iwpm_set_registration(CLIENT, fx->saved_reg);
	iwpm_timeout_ms = fx->saved_timeout;
}

/* Open the fake port mapper's socket, in the port-mapper group. */
static void pm_open(struct kunit *test)
{
	struct iwpm_fixture *fx = test->priv;
	struct sockaddr_nl addr = {
		.nl_family = AF_NETLINK,
		.nl_groups = 1U << (RDMA_NL_GROUP_IWPM - 1),
	};
	int ret;

	ret = sock_create_kern(&init_net, AF_NETLINK, SOCK_RAW, NETLINK_RDMA,
			       &fx->pm_sock);
	KUNIT_ASSERT_EQ(test, ret, 0);
	ret = kernel_bind(fx->pm_sock, (struct sockaddr *)&addr,
			  sizeof(addr));
	KUNIT_ASSERT_EQ(test, ret, 0);
	ret = kernel_getsockname(fx->pm_sock, (struct sockaddr *)&addr);
	KUNIT_ASSERT_GE(test, ret, 0);
	KUNIT_ASSERT_NE(test, addr.nl_pid, 0U);
	fx->pm_portid = addr.nl_pid;
}

/* The fake port mapper registered, client registered, ABI @version. */
static void pm_register(struct kunit *test, u16 version)
{
	struct iwpm_fixture *fx = test->priv;

	pm_open(test);
	iwpm_set_user_pid(fx->pm_portid);
	iwpm_ulib_version = version;
	iwpm_set_registration(CLIENT, IWPM_REG_VALID);
}

/* Close the fake port mapper's socket: iwpmd died. */
static void pm_close(struct kunit *test)
{
	struct iwpm_fixture *fx = test->priv;

	sock_release(fx->pm_sock);
	fx->pm_sock = NULL;
}

/* Read one datagram (waiting up to @ms); returns its length or -errno. */
static int pm_recv(struct kunit *test, void *buf, size_t size, int ms)
{
	struct iwpm_fixture *fx = test->priv;
	struct msghdr msg = {};
	struct kvec vec;
	int ret;

	do {
		vec.iov_base = buf;
		vec.iov_len = size;
		ret = kernel_recvmsg(fx->pm_sock, &msg, &vec, 1, size,
				     MSG_DONTWAIT);
		if (ret != -EAGAIN)
			return ret;
		usleep_range(5000, 6000);
		ms -= 5;
	} while (ms > 0);
	return -ETIMEDOUT;
}

/* Read one request of type @op and parse it with @policy. */
static struct nlmsghdr *pm_recv_request(struct kunit *test, u8 op,
					struct nlattr **tb, int maxtype,
					const struct nla_policy *policy)
{
	struct nlmsghdr *nlh;
	void *buf;
	int len;

	buf = kunit_kzalloc(test, 4096, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	len = pm_recv(test, buf, 4096, RECV_MS);
	KUNIT_ASSERT_GT(test, len, 0);
	nlh = buf;
	KUNIT_ASSERT_TRUE(test, nlmsg_ok(nlh, len));
	KUNIT_EXPECT_EQ(test, nlh->nlmsg_type, RDMA_NL_GET_TYPE(CLIENT, op));
	KUNIT_EXPECT_TRUE(test, nlh->nlmsg_flags & NLM_F_REQUEST);
	KUNIT_ASSERT_EQ(test, nlmsg_parse(nlh, 0, tb, maxtype, policy, NULL),
			0);
	return nlh;
}

/* ------------------------------------------------------------------
 * Building answers and feeding them to the handlers
 */

typedef int (*iwpm_cb_fn)(struct sk_buff *skb, struct netlink_callback *cb);

static struct sk_buff *msg_new(struct kunit *test, u8 op, u32 seq,
			       struct nlmsghdr **nlh)
{
	struct sk_buff *skb = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	*nlh = nlmsg_put(skb, 0, seq, RDMA_NL_GET_TYPE(CLIENT, op), 0,
			 NLM_F_REQUEST);
	KUNIT_ASSERT_NOT_NULL(test, *nlh);
	return skb;
}

static void put_addr(struct kunit *test, struct sk_buff *skb, int type,
		     const struct sockaddr_storage *addr)
{
	KUNIT_ASSERT_EQ(test, nla_put(skb, type, sizeof(*addr), addr), 0);
}

/* Run handler @fn on @skb as sent by @portid; frees @skb. */
static int feed(struct kunit *test, iwpm_cb_fn fn, struct sk_buff *skb,
		u32 portid, const char **why)
{
	struct netlink_ext_ack extack = {};
	struct netlink_callback cb = {};
	struct sk_buff *out;
	int ret;

	out = alloc_skb(NLMSG_GOODSIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, out);
	NETLINK_CB(skb).portid = portid;
	cb.skb = skb;
	cb.nlh = nlmsg_hdr(skb);
	cb.extack = &extack;
	ret = fn(out, &cb);
	if (why)
		*why = extack._msg;
	kfree_skb(out);
	kfree_skb(skb);
	return ret;
}

static struct sockaddr_storage *addr_of(struct kunit *test, const char *ip,
					const char *port)
{
	struct sockaddr_storage *ss = kunit_kzalloc(test, sizeof(*ss),
						    GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ss);
	KUNIT_ASSERT_EQ(test, inet_pton_with_scope(&init_net, AF_UNSPEC, ip,
						   port, ss), 0);
	return ss;
}

static bool addr_eq(struct sockaddr_storage *a, struct sockaddr_storage *b)
{
	return !iwpm_compare_sockaddr(a, b);
}

/* An all-zero address: family AF_UNSPEC. */
static struct sockaddr_storage *no_addr(struct kunit *test)
{
	struct sockaddr_storage *ss = kunit_kzalloc(test, sizeof(*ss),
						    GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ss);
	return ss;
}

/* An ADD_MAPPING answer. */
static struct sk_buff *add_answer(struct kunit *test, u32 seq,
				  const struct sockaddr_storage *local,
				  const struct sockaddr_storage *mapped,
				  u16 err)
{
	struct nlmsghdr *nlh;
	struct sk_buff *skb = msg_new(test, RDMA_NL_IWPM_ADD_MAPPING, 7, &nlh);

	KUNIT_ASSERT_EQ(test, nla_put_u32(skb, IWPM_NLA_RMANAGE_MAPPING_SEQ,
					  seq), 0);
	put_addr(test, skb, IWPM_NLA_RMANAGE_ADDR, local);
	put_addr(test, skb, IWPM_NLA_RMANAGE_MAPPED_LOC_ADDR, mapped);
	KUNIT_ASSERT_EQ(test, nla_put_u16(skb, IWPM_NLA_RMANAGE_MAPPING_ERR,
					  err), 0);
	nlmsg_end(skb, nlh);
	return skb;
}

/* Attribute numbers some tests below spell as literals. */
static_assert(IWPM_NLA_RMANAGE_MAPPING_SEQ == 1 &&
	      IWPM_NLA_RMANAGE_MAPPING_ERR == 4 &&
	      IWPM_NLA_RQUERY_MAPPING_SEQ == 1 &&
	      IWPM_NLA_RQUERY_MAPPING_ERR == 6);

/* A pending ADD_MAPPING request for @pm, as iwpm_add_mapping() makes. */
static struct iwpm_nlmsg_request *pending(struct kunit *test, u8 op,
					  void *buf)
{
	struct iwpm_nlmsg_request *req;

	req = iwpm_get_nlmsg_request(iwpm_get_nlmsg_seq(), CLIENT,
				     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, req);
	req->op = op;
	req->req_buffer = buf;
	return req;
}

/* ------------------------------------------------------------------
 * Address helpers
 */

static void iwpm_sockaddr_compare(struct kunit *test)
{
	struct sockaddr_storage *a = addr_of(test, "192.0.2.1", "7174");
	struct sockaddr_storage *b = addr_of(test, "192.0.2.1", "7174");
	struct sockaddr_storage *c = addr_of(test, "192.0.2.1", "7175");
	struct sockaddr_storage *d = addr_of(test, "2001:db8::1", "7174");
	struct sockaddr_storage *e = addr_of(test, "2001:db8::1", "7174");
	struct sockaddr_storage *f = addr_of(test, "2001:db8::2", "7174");
	struct sockaddr_storage *bad = no_addr(test);

	KUNIT_EXPECT_TRUE(test, addr_eq(a, b));
	KUNIT_EXPECT_EQ(test, iwpm_compare_sockaddr(a, c), 1);
	KUNIT_EXPECT_EQ(test, iwpm_compare_sockaddr(a, d), 1);
	KUNIT_EXPECT_TRUE(test, addr_eq(d, e));
	KUNIT_EXPECT_EQ(test, iwpm_compare_sockaddr(d, f), 1);
	/* Unknown families never compare equal, not even to themselves. */
	KUNIT_EXPECT_EQ(test, iwpm_compare_sockaddr(bad, bad), 1);
	KUNIT_EXPECT_TRUE(test, iwpm_sockaddr_valid(a));
	KUNIT_EXPECT_TRUE(test, iwpm_sockaddr_valid(d));
	KUNIT_EXPECT_FALSE(test, iwpm_sockaddr_valid(bad));
}

/* ------------------------------------------------------------------
 * Requests on the wire
 */

static const struct nla_policy reg_policy[IWPM_NLA_REG_PID_MAX] = {
	[IWPM_NLA_REG_PID_SEQ]		= { .type = NLA_U32 },
	[IWPM_NLA_REG_IF_NAME]		= NLA_POLICY_EXACT_LEN(IWPM_IFNAME_SIZE),
	[IWPM_NLA_REG_IBDEV_NAME]	= NLA_POLICY_EXACT_LEN(IWPM_DEVNAME_SIZE),
	[IWPM_NLA_REG_ULIB_NAME]	= NLA_POLICY_EXACT_LEN(IWPM_ULIBNAME_SIZE),
};

static const struct nla_policy manage_policy[IWPM_NLA_MANAGE_MAPPING_MAX] = {
	[IWPM_NLA_MANAGE_MAPPING_SEQ]	= { .type = NLA_U32 },
	[IWPM_NLA_MANAGE_ADDR]		=
		NLA_POLICY_EXACT_LEN(sizeof(struct sockaddr_storage)),
	[IWPM_NLA_MANAGE_FLAGS]		= { .type = NLA_U32 },
};

static const struct nla_policy query_policy[IWPM_NLA_QUERY_MAPPING_MAX] = {
	[IWPM_NLA_QUERY_MAPPING_SEQ]	= { .type = NLA_U32 },
	[IWPM_NLA_QUERY_LOCAL_ADDR]	=
		NLA_POLICY_EXACT_LEN(sizeof(struct sockaddr_storage)),
	[IWPM_NLA_QUERY_REMOTE_ADDR]	=
		NLA_POLICY_EXACT_LEN(sizeof(struct sockaddr_storage)),
	[IWPM_NLA_QUERY_FLAGS]		= { .type = NLA_U32 },
};

struct call_ctx {
	struct kunit *test;
	u8 op;
	struct iwpm_dev_data dev;
	struct iwpm_sa_data sa;
	int ret;
	struct completion done;
};

static int call_thread(void *data)
{
	struct call_ctx *c = data;

	switch (c->op) {
	case RDMA_NL_IWPM_REG_PID:
		c->ret = iwpm_register_pid(&c->dev, CLIENT);
		break;
	case RDMA_NL_IWPM_ADD_MAPPING:
		c->ret = iwpm_add_mapping(&c->sa, CLIENT);
		break;
	case RDMA_NL_IWPM_QUERY_MAPPING:
		c->ret = iwpm_add_and_query_mapping(&c->sa, CLIENT);
		break;
	}
	complete(&c->done);
	return 0;
}

static struct call_ctx *call_start(struct kunit *test, u8 op)
{
	struct call_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->test = test;
	c->op = op;
	c->ret = -EINPROGRESS;
	init_completion(&c->done);
	return c;
}

static void call_run(struct kunit *test, struct call_ctx *c)
{
	struct task_struct *t = kthread_run(call_thread, c, "iwpm_kunit");

	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
}

static int call_wait(struct kunit *test, struct call_ctx *c)
{
	unsigned long left;

	left = wait_for_completion_timeout(&c->done, msecs_to_jiffies(20000));
	KUNIT_ASSERT_NE(test, left, 0UL);
	return c->ret;
}

/* REG_PID goes to the group; the answer names the port mapper. */
static void iwpm_register_pid_roundtrip(struct kunit *test)
{
	struct iwpm_fixture *fx = test->priv;
	struct nlattr *tb[IWPM_NLA_REG_PID_MAX];
	struct call_ctx *c = call_start(test, RDMA_NL_IWPM_REG_PID);
	struct nlmsghdr *req, *nlh;
	struct sk_buff *skb;

	pm_open(test);
	iwpm_set_registration(CLIENT, IWPM_REG_INCOMPL);
	strscpy(c->dev.dev_name, "siwk0", sizeof(c->dev.dev_name));
	strscpy(c->dev.if_name, "dummyk", sizeof(c->dev.if_name));
	call_run(test, c);

	req = pm_recv_request(test, RDMA_NL_IWPM_REG_PID, tb,
			      IWPM_NLA_REG_PID_MAX - 1, reg_policy);
	KUNIT_ASSERT_NOT_NULL(test, tb[IWPM_NLA_REG_PID_SEQ]);
	KUNIT_ASSERT_NOT_NULL(test, tb[IWPM_NLA_REG_IF_NAME]);
	KUNIT_ASSERT_NOT_NULL(test, tb[IWPM_NLA_REG_IBDEV_NAME]);
	KUNIT_ASSERT_NOT_NULL(test, tb[IWPM_NLA_REG_ULIB_NAME]);
	KUNIT_EXPECT_STREQ(test, (char *)nla_data(tb[IWPM_NLA_REG_IF_NAME]),
			   "dummyk");
	KUNIT_EXPECT_STREQ(test,
			   (char *)nla_data(tb[IWPM_NLA_REG_IBDEV_NAME]),
			   "siwk0");
	KUNIT_EXPECT_STREQ(test, (char *)nla_data(tb[IWPM_NLA_REG_ULIB_NAME]),
			   "iWarpPortMapperUser");

	skb = msg_new(test, RDMA_NL_IWPM_REG_PID, 3, &nlh);
	KUNIT_ASSERT_EQ(test, nla_put_u32(skb, IWPM_NLA_RREG_PID_SEQ,
					  req->nlmsg_seq), 0);
	KUNIT_ASSERT_EQ(test, nla_put_string(skb, IWPM_NLA_RREG_IBDEV_NAME,
					     "siwk0"), 0);
	KUNIT_ASSERT_EQ(test, nla_put_string(skb, IWPM_NLA_RREG_ULIB_NAME,
					     "iWarpPortMapperUser"), 0);
	KUNIT_ASSERT_EQ(test, nla_put_u16(skb, IWPM_NLA_RREG_ULIB_VER, 4), 0);
	KUNIT_ASSERT_EQ(test, nla_put_u16(skb, IWPM_NLA_RREG_PID_ERR, 0), 0);
	nlmsg_end(skb, nlh);
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_register_pid_cb, skb,
				   fx->pm_portid, NULL), 0);

	KUNIT_EXPECT_EQ(test, call_wait(test, c), 0);
	KUNIT_EXPECT_EQ(test, iwpm_get_user_pid(), (int)fx->pm_portid);
	KUNIT_EXPECT_EQ(test, iwpm_ulib_version, 4);
	KUNIT_EXPECT_TRUE(test, iwpm_check_registration(CLIENT,
							IWPM_REG_VALID));
	/* Registered: the next call sends nothing. */
	KUNIT_EXPECT_EQ(test, iwpm_register_pid(&c->dev, CLIENT), 0);
	KUNIT_EXPECT_EQ(test, pm_recv(test, req, 64, 50), -ETIMEDOUT);
}

/* A REG_PID answer for another device does not register. */
static void iwpm_register_pid_wrong_device(struct kunit *test)
{
	struct iwpm_fixture *fx = test->priv;
	struct iwpm_dev_data dev = { .dev_name = "siwk1" };
	struct iwpm_nlmsg_request *req = pending(test, RDMA_NL_IWPM_REG_PID,
						 &dev);
	struct nlmsghdr *nlh;
	struct sk_buff *skb;

	pm_open(test);
	iwpm_set_registration(CLIENT, IWPM_REG_INCOMPL);
	skb = msg_new(test, RDMA_NL_IWPM_REG_PID, 3, &nlh);
	KUNIT_ASSERT_EQ(test, nla_put_u32(skb, IWPM_NLA_RREG_PID_SEQ,
					  req->nlmsg_seq), 0);
	KUNIT_ASSERT_EQ(test, nla_put_string(skb, IWPM_NLA_RREG_IBDEV_NAME,
					     "other0"), 0);
	KUNIT_ASSERT_EQ(test, nla_put_string(skb, IWPM_NLA_RREG_ULIB_NAME,
					     "iWarpPortMapperUser"), 0);
	KUNIT_ASSERT_EQ(test, nla_put_u16(skb, IWPM_NLA_RREG_ULIB_VER, 4), 0);
	KUNIT_ASSERT_EQ(test, nla_put_u16(skb, IWPM_NLA_RREG_PID_ERR, 0), 0);
	nlmsg_end(skb, nlh);
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_register_pid_cb, skb,
				   fx->pm_portid, NULL), 0);
	KUNIT_EXPECT_EQ(test, iwpm_wait_complete_req(req),
			IWPM_USER_LIB_INFO_ERR);
	KUNIT_EXPECT_EQ(test, iwpm_get_user_pid(), IWPM_PID_UNDEFINED);
	KUNIT_EXPECT_FALSE(test, iwpm_check_registration(CLIENT,
							 IWPM_REG_VALID));
}

/* Without a listener REG_PID fails at once and later calls do nothing. */
static void iwpm_register_pid_nobody_listens(struct kunit *test)
{
	struct iwpm_dev_data dev = { .dev_name = "siwk0", .if_name = "lo" };

	iwpm_set_registration(CLIENT, IWPM_REG_INCOMPL);
	KUNIT_EXPECT_EQ(test, iwpm_register_pid(&dev, CLIENT), -ESRCH);
	KUNIT_EXPECT_EQ(test, iwpm_get_user_pid(), IWPM_PID_UNAVAILABLE);
	KUNIT_EXPECT_EQ(test, iwpm_register_pid(&dev, CLIENT), 0);
	KUNIT_EXPECT_FALSE(test, iwpm_valid_pid());
	KUNIT_EXPECT_EQ(test, iwpm_pending_nlmsg_requests(), 0U);
}

/* ADD_MAPPING (IPv4, IPv6) carries the flags from ABI 4 on, not in ABI 3. */
static void iwpm_add_mapping_roundtrip(struct kunit *test)
{
	struct iwpm_fixture *fx = test->priv;
	static const u16 versions[] = { 4, 3, 4, 3 };
	static const char * const ips[] = { "192.0.2.1", "192.0.2.1",
					    "2001:db8::1", "2001:db8::1" };
	struct sockaddr_storage *mapped;
	struct nlattr *tb[IWPM_NLA_MANAGE_MAPPING_MAX];
	struct nlmsghdr *req;
	unsigned int i;

	pm_register(test, 4);
	for (i = 0; i < ARRAY_SIZE(versions); i++) {
		struct call_ctx *c = call_start(test,
						RDMA_NL_IWPM_ADD_MAPPING);

		iwpm_ulib_version = versions[i];
		c->sa.loc_addr = *addr_of(test, ips[i], "7174");
		mapped = addr_of(test, ips[i], "40001");
		call_run(test, c);

		req = pm_recv_request(test, RDMA_NL_IWPM_ADD_MAPPING, tb,
				      IWPM_NLA_MANAGE_MAPPING_MAX - 1,
				      manage_policy);
		KUNIT_ASSERT_NOT_NULL(test, tb[IWPM_NLA_MANAGE_MAPPING_SEQ]);
		KUNIT_ASSERT_NOT_NULL(test, tb[IWPM_NLA_MANAGE_ADDR]);
		KUNIT_EXPECT_TRUE(test, addr_eq(nla_data(tb[IWPM_NLA_MANAGE_ADDR]),
						&c->sa.loc_addr));
		if (versions[i] > 3) {
			KUNIT_ASSERT_NOT_NULL(test, tb[IWPM_NLA_MANAGE_FLAGS]);
			KUNIT_EXPECT_EQ(test,
					nla_get_u32(tb[IWPM_NLA_MANAGE_FLAGS]),
					0U);
		} else {
			KUNIT_EXPECT_NULL(test, tb[IWPM_NLA_MANAGE_FLAGS]);
		}

		KUNIT_EXPECT_EQ(test,
				feed(test, iwpm_add_mapping_cb,
				     add_answer(test, req->nlmsg_seq,
						&c->sa.loc_addr, mapped, 0),
				     fx->pm_portid, NULL), 0);
		KUNIT_EXPECT_EQ(test, call_wait(test, c), 0);
		KUNIT_EXPECT_TRUE(test, addr_eq(&c->sa.mapped_loc_addr, mapped));
	}

	/* Flags need ABI 4: refused before anything is sent. */
	{
		struct iwpm_sa_data sa = {
			.loc_addr = *addr_of(test, "192.0.2.1", "7174"),
			.flags = IWPM_FLAGS_NO_PORT_MAP,
		};

		iwpm_ulib_version = 3;
		KUNIT_EXPECT_EQ(test, iwpm_add_mapping(&sa, CLIENT), -EINVAL);
		KUNIT_EXPECT_TRUE(test, addr_eq(&sa.mapped_loc_addr, &sa.loc_addr));
	}
}

/* QUERY_MAPPING with both addresses; a reject leaves them unmapped. */
static void iwpm_query_roundtrip(struct kunit *test)
{
	struct iwpm_fixture *fx = test->priv;
	static const u16 errs[] = { 0, IWPM_REMOTE_QUERY_REJECT };
	struct nlattr *tb[IWPM_NLA_QUERY_MAPPING_MAX];
	struct sockaddr_storage *mloc, *mrem;
	unsigned int i;

	pm_register(test, 4);
	mloc = addr_of(test, "2001:db8::1", "41000");
	mrem = addr_of(test, "2001:db8::2", "42000");
	for (i = 0; i < ARRAY_SIZE(errs); i++) {
		struct call_ctx *c = call_start(test,
						RDMA_NL_IWPM_QUERY_MAPPING);
		struct nlmsghdr *req, *nlh;
		struct sk_buff *skb;

		c->sa.loc_addr = *addr_of(test, "2001:db8::1", "5000");
		c->sa.rem_addr = *addr_of(test, "2001:db8::2", "7174");
		c->sa.flags = IWPM_FLAGS_NO_PORT_MAP;
		call_run(test, c);
		req = pm_recv_request(test, RDMA_NL_IWPM_QUERY_MAPPING, tb,
				      IWPM_NLA_QUERY_MAPPING_MAX - 1,
				      query_policy);
		KUNIT_ASSERT_NOT_NULL(test, tb[IWPM_NLA_QUERY_LOCAL_ADDR]);
		KUNIT_ASSERT_NOT_NULL(test, tb[IWPM_NLA_QUERY_REMOTE_ADDR]);
		KUNIT_ASSERT_NOT_NULL(test, tb[IWPM_NLA_QUERY_FLAGS]);
		KUNIT_ASSERT_NOT_NULL(test, tb[IWPM_NLA_QUERY_MAPPING_SEQ]);
		KUNIT_EXPECT_TRUE(test,
				  addr_eq(nla_data(tb[IWPM_NLA_QUERY_LOCAL_ADDR]),
					  &c->sa.loc_addr));
		KUNIT_EXPECT_TRUE(test,
				  addr_eq(nla_data(tb[IWPM_NLA_QUERY_REMOTE_ADDR]),
					  &c->sa.rem_addr));
		KUNIT_EXPECT_EQ(test, nla_get_u32(tb[IWPM_NLA_QUERY_FLAGS]),
				(u32)IWPM_FLAGS_NO_PORT_MAP);

		skb = msg_new(test, RDMA_NL_IWPM_QUERY_MAPPING, 9, &nlh);
		KUNIT_ASSERT_EQ(test,
				nla_put_u32(skb, IWPM_NLA_RQUERY_MAPPING_SEQ,
					    req->nlmsg_seq), 0);
		put_addr(test, skb, IWPM_NLA_RQUERY_LOCAL_ADDR,
			 &c->sa.loc_addr);
		put_addr(test, skb, IWPM_NLA_RQUERY_REMOTE_ADDR,
			 &c->sa.rem_addr);
		put_addr(test, skb, IWPM_NLA_RQUERY_MAPPED_LOC_ADDR, mloc);
		put_addr(test, skb, IWPM_NLA_RQUERY_MAPPED_REM_ADDR, mrem);
		KUNIT_ASSERT_EQ(test,
				nla_put_u16(skb, IWPM_NLA_RQUERY_MAPPING_ERR,
					    errs[i]), 0);
		nlmsg_end(skb, nlh);
		KUNIT_EXPECT_EQ(test, feed(test, iwpm_add_and_query_mapping_cb,
					   skb, fx->pm_portid, NULL), 0);
		KUNIT_EXPECT_EQ(test, call_wait(test, c), (int)errs[i]);
		if (!errs[i]) {
			KUNIT_EXPECT_TRUE(test, addr_eq(&c->sa.mapped_loc_addr, mloc));
			KUNIT_EXPECT_TRUE(test, addr_eq(&c->sa.mapped_rem_addr, mrem));
		} else {
			KUNIT_EXPECT_TRUE(test, addr_eq(&c->sa.mapped_loc_addr, &c->sa.loc_addr));
			KUNIT_EXPECT_TRUE(test, addr_eq(&c->sa.mapped_rem_addr, &c->sa.rem_addr));
		}
	}
}

/* REMOVE_MAPPING: one message, no answer awaited. */
static void iwpm_remove_mapping_message(struct kunit *test)
{
	struct sockaddr_storage *local = addr_of(test, "192.0.2.7", "9000");
	struct nlattr *tb[IWPM_NLA_MANAGE_MAPPING_MAX];
	struct nlmsghdr *req;

	pm_register(test, 4);
	KUNIT_EXPECT_EQ(test, iwpm_remove_mapping(local, CLIENT), 0);
	req = pm_recv_request(test, RDMA_NL_IWPM_REMOVE_MAPPING, tb,
			      IWPM_NLA_MANAGE_MAPPING_MAX - 1, manage_policy);
	KUNIT_ASSERT_NOT_NULL(test, tb[IWPM_NLA_MANAGE_ADDR]);
	KUNIT_ASSERT_NOT_NULL(test, tb[IWPM_NLA_MANAGE_MAPPING_SEQ]);
	KUNIT_EXPECT_NULL(test, tb[IWPM_NLA_MANAGE_FLAGS]);
	KUNIT_EXPECT_TRUE(test, addr_eq(nla_data(tb[IWPM_NLA_MANAGE_ADDR]), local));
	KUNIT_EXPECT_EQ(test, iwpm_pending_nlmsg_requests(), 0U);
}

/* ------------------------------------------------------------------
 * Bad answers
 */

/* Each malformed ADD_MAPPING answer is refused; the request stays. */
static void iwpm_add_answer_malformed(struct kunit *test)
{
	struct iwpm_fixture *fx = test->priv;
	struct iwpm_sa_data sa = {
		.loc_addr = *addr_of(test, "192.0.2.1", "7174"),
	};
	struct sockaddr_storage *mapped = addr_of(test, "192.0.2.1", "40002");
	struct iwpm_nlmsg_request *req;
	struct nlmsghdr *nlh;
	struct sk_buff *skb;
	const char *why;
	int i;

	pm_register(test, 4);
	req = pending(test, RDMA_NL_IWPM_ADD_MAPPING, &sa);

	/* Sequence number as u16 instead of u32. */
	skb = msg_new(test, RDMA_NL_IWPM_ADD_MAPPING, 7, &nlh);
	KUNIT_ASSERT_EQ(test, nla_put_u16(skb, IWPM_NLA_RMANAGE_MAPPING_SEQ,
					  req->nlmsg_seq), 0);
	put_addr(test, skb, IWPM_NLA_RMANAGE_ADDR, &sa.loc_addr);
	put_addr(test, skb, IWPM_NLA_RMANAGE_MAPPED_LOC_ADDR, mapped);
	KUNIT_ASSERT_EQ(test, nla_put_u16(skb, IWPM_NLA_RMANAGE_MAPPING_ERR,
					  0), 0);
	nlmsg_end(skb, nlh);
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_add_mapping_cb, skb,
				   fx->pm_portid, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, why);

	/* Address attribute shorter than a sockaddr_storage. */
	skb = msg_new(test, RDMA_NL_IWPM_ADD_MAPPING, 7, &nlh);
	KUNIT_ASSERT_EQ(test, nla_put_u32(skb, IWPM_NLA_RMANAGE_MAPPING_SEQ,
					  req->nlmsg_seq), 0);
	KUNIT_ASSERT_EQ(test, nla_put(skb, IWPM_NLA_RMANAGE_ADDR,
				      sizeof(struct sockaddr_in),
				      &sa.loc_addr), 0);
	put_addr(test, skb, IWPM_NLA_RMANAGE_MAPPED_LOC_ADDR, mapped);
	KUNIT_ASSERT_EQ(test, nla_put_u16(skb, IWPM_NLA_RMANAGE_MAPPING_ERR,
					  0), 0);
	nlmsg_end(skb, nlh);
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_add_mapping_cb, skb,
				   fx->pm_portid, NULL), -ERANGE);

	/* Each of the four attributes missing in turn. */
	for (i = IWPM_NLA_RMANAGE_MAPPING_SEQ;
	     i < IWPM_NLA_RMANAGE_MAPPING_MAX; i++) {
		skb = msg_new(test, RDMA_NL_IWPM_ADD_MAPPING, 7, &nlh);
		if (i != IWPM_NLA_RMANAGE_MAPPING_SEQ)
			KUNIT_ASSERT_EQ(test, nla_put_u32(skb, 1, req->nlmsg_seq),
					0);
		if (i != IWPM_NLA_RMANAGE_ADDR)
			put_addr(test, skb, IWPM_NLA_RMANAGE_ADDR,
				 &sa.loc_addr);
		if (i != IWPM_NLA_RMANAGE_MAPPED_LOC_ADDR)
			put_addr(test, skb, IWPM_NLA_RMANAGE_MAPPED_LOC_ADDR,
				 mapped);
		if (i != IWPM_NLA_RMANAGE_MAPPING_ERR)
			KUNIT_ASSERT_EQ(test, nla_put_u16(skb, 4, 0), 0);
		nlmsg_end(skb, nlh);
		KUNIT_EXPECT_EQ_MSG(test, feed(test, iwpm_add_mapping_cb, skb,
					       fx->pm_portid, &why),
				    -EINVAL, "attribute %d missing", i);
		KUNIT_EXPECT_NOT_NULL(test, why);
	}

	/* Truncated: the last attribute cut in the middle. */
	skb = add_answer(test, req->nlmsg_seq, &sa.loc_addr, mapped, 0);
	nlh = nlmsg_hdr(skb);
	nlh->nlmsg_len -= 6;
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_add_mapping_cb, skb,
				   fx->pm_portid, NULL), -EINVAL);

	/* Unknown attribute type after the valid ones. */
	skb = msg_new(test, RDMA_NL_IWPM_ADD_MAPPING, 7, &nlh);
	KUNIT_ASSERT_EQ(test, nla_put_u32(skb, IWPM_NLA_RMANAGE_MAPPING_SEQ,
					  req->nlmsg_seq), 0);
	put_addr(test, skb, IWPM_NLA_RMANAGE_ADDR, &sa.loc_addr);
	put_addr(test, skb, IWPM_NLA_RMANAGE_MAPPED_LOC_ADDR, mapped);
	KUNIT_ASSERT_EQ(test, nla_put_u16(skb, IWPM_NLA_RMANAGE_MAPPING_ERR,
					  0), 0);
	KUNIT_ASSERT_EQ(test, nla_put_u32(skb, IWPM_NLA_RMANAGE_MAPPING_MAX,
					  1), 0);
	nlmsg_end(skb, nlh);
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_add_mapping_cb, skb,
				   fx->pm_portid, NULL), -EINVAL);

	/* Sequence numbers never issued, or of no pending request. */
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_add_mapping_cb,
				   add_answer(test, 0, &sa.loc_addr, mapped,
					      0),
				   fx->pm_portid, NULL), -ENOENT);
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_add_mapping_cb,
				   add_answer(test, U32_MAX, &sa.loc_addr,
					      mapped, 0),
				   fx->pm_portid, NULL), -ENOENT);
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_add_mapping_cb,
				   add_answer(test, req->nlmsg_seq + 1,
					      &sa.loc_addr, mapped, 0),
				   fx->pm_portid, NULL), -ENOENT);

	/* None of that touched the request. */
	KUNIT_EXPECT_EQ(test, iwpm_pending_nlmsg_requests(), 1U);
	KUNIT_EXPECT_FALSE(test, req->request_done);

	/* The good answer still completes it. */
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_add_mapping_cb,
				   add_answer(test, req->nlmsg_seq,
					      &sa.loc_addr, mapped, 0),
				   fx->pm_portid, NULL), 0);
	KUNIT_EXPECT_EQ(test, iwpm_wait_complete_req(req), 0);
	KUNIT_EXPECT_TRUE(test, addr_eq(&sa.mapped_loc_addr, mapped));
}

/* Answers that parse but do not fit the request complete it with an error. */
static void iwpm_add_answer_mismatch(struct kunit *test)
{
	struct iwpm_fixture *fx = test->priv;
	struct iwpm_sa_data sa = {
		.loc_addr = *addr_of(test, "192.0.2.1", "7174"),
	};
	struct sockaddr_storage *other = addr_of(test, "192.0.2.9", "7174");
	struct sockaddr_storage *v6 = addr_of(test, "2001:db8::1", "40000");
	struct iwpm_nlmsg_request *req;

	pm_register(test, 4);

	req = pending(test, RDMA_NL_IWPM_ADD_MAPPING, &sa);
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_add_mapping_cb,
				   add_answer(test, req->nlmsg_seq, other,
					      other, 0),
				   fx->pm_portid, NULL), 0);
	KUNIT_EXPECT_EQ(test, iwpm_wait_complete_req(req),
			IWPM_USER_LIB_INFO_ERR);

	req = pending(test, RDMA_NL_IWPM_ADD_MAPPING, &sa);
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_add_mapping_cb,
				   add_answer(test, req->nlmsg_seq,
					      &sa.loc_addr, v6, 0),
				   fx->pm_portid, NULL), 0);
	KUNIT_EXPECT_EQ(test, iwpm_wait_complete_req(req),
			IWPM_USER_LIB_INFO_ERR);

	req = pending(test, RDMA_NL_IWPM_ADD_MAPPING, &sa);
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_add_mapping_cb,
				   add_answer(test, req->nlmsg_seq,
					      &sa.loc_addr, &sa.loc_addr,
					      IWPM_CREATE_MAPPING_ERR),
				   fx->pm_portid, NULL), 0);
	KUNIT_EXPECT_EQ(test, iwpm_wait_complete_req(req),
			IWPM_CREATE_MAPPING_ERR);

	/* An ADD_MAPPING answer cannot complete a REG_PID request. */
	req = pending(test, RDMA_NL_IWPM_REG_PID, &sa);
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_add_mapping_cb,
				   add_answer(test, req->nlmsg_seq,
					      &sa.loc_addr, &sa.loc_addr, 0),
				   fx->pm_portid, NULL), -ENOENT);
	iwpm_cancel_nlmsg_request(req);
	KUNIT_EXPECT_EQ(test, iwpm_pending_nlmsg_requests(), 0U);
}

/* Answers from anyone but the registered port mapper are ignored. */
static void iwpm_answer_from_impostor(struct kunit *test)
{
	struct iwpm_fixture *fx = test->priv;
	struct iwpm_sa_data sa = {
		.loc_addr = *addr_of(test, "192.0.2.1", "7174"),
	};
	struct sockaddr_storage *mapped = addr_of(test, "192.0.2.1", "40003");
	struct iwpm_nlmsg_request *req;
	int ignored = atomic_read(&iwpm_stats.replies_ignored);
	struct nlmsghdr *nlh;
	struct sk_buff *skb;
	const char *why;

	pm_register(test, 4);
	req = pending(test, RDMA_NL_IWPM_ADD_MAPPING, &sa);
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_add_mapping_cb,
				   add_answer(test, req->nlmsg_seq,
					      &sa.loc_addr, mapped, 0),
				   fx->pm_portid + 1, &why), -EPERM);
	KUNIT_EXPECT_NOT_NULL(test, why);
	/* The header's pid claiming to be the port mapper changes nothing. */
	skb = add_answer(test, req->nlmsg_seq, &sa.loc_addr, mapped, 0);
	nlmsg_hdr(skb)->nlmsg_pid = fx->pm_portid;
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_add_mapping_cb, skb, 4242,
				   NULL), -EPERM);
	KUNIT_EXPECT_EQ(test, atomic_read(&iwpm_stats.replies_ignored),
			ignored + 2);
	KUNIT_EXPECT_FALSE(test, req->request_done);

	/* Remote info from an impostor is not recorded. */
	skb = msg_new(test, RDMA_NL_IWPM_REMOTE_INFO, 5, &nlh);
	KUNIT_ASSERT_EQ(test, nla_put_u32(skb, IWPM_NLA_RQUERY_MAPPING_SEQ,
					  0), 0);
	put_addr(test, skb, IWPM_NLA_RQUERY_LOCAL_ADDR, &sa.loc_addr);
	put_addr(test, skb, IWPM_NLA_RQUERY_REMOTE_ADDR, mapped);
	put_addr(test, skb, IWPM_NLA_RQUERY_MAPPED_LOC_ADDR, &sa.loc_addr);
	put_addr(test, skb, IWPM_NLA_RQUERY_MAPPED_REM_ADDR, mapped);
	KUNIT_ASSERT_EQ(test, nla_put_u16(skb, IWPM_NLA_RQUERY_MAPPING_ERR,
					  0), 0);
	nlmsg_end(skb, nlh);
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_remote_info_cb, skb,
				   fx->pm_portid + 1, NULL), -EPERM);
	KUNIT_EXPECT_EQ(test, iwpm_reminfo_count(), 0U);

	/* With no port mapper registered, answers are not adopted either. */
	iwpm_set_user_pid(IWPM_PID_UNDEFINED);
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_add_mapping_cb,
				   add_answer(test, req->nlmsg_seq,
					      &sa.loc_addr, mapped, 0),
				   fx->pm_portid, NULL), -EPERM);
	KUNIT_EXPECT_FALSE(test, req->request_done);
	iwpm_cancel_nlmsg_request(req);
}

/* REMOTE_INFO is recorded (and the handler says so), then taken once. */
static void iwpm_remote_info(struct kunit *test)
{
	struct iwpm_fixture *fx = test->priv;
	struct sockaddr_storage *local = addr_of(test, "192.0.2.1", "7174");
	struct sockaddr_storage *remote = addr_of(test, "192.0.2.2", "5555");
	struct sockaddr_storage *mloc = addr_of(test, "192.0.2.1", "40004");
	struct sockaddr_storage *mrem = addr_of(test, "192.0.2.2", "40005");
	struct sockaddr_storage got = {};
	struct nlmsghdr *nlh;
	struct sk_buff *skb;
	int err;

	pm_register(test, 4);
	for (err = 1; err >= 0; err--) {
		skb = msg_new(test, RDMA_NL_IWPM_REMOTE_INFO, 5, &nlh);
		KUNIT_ASSERT_EQ(test, nla_put_u32(skb, 1, 0), 0);
		put_addr(test, skb, IWPM_NLA_RQUERY_LOCAL_ADDR, local);
		put_addr(test, skb, IWPM_NLA_RQUERY_REMOTE_ADDR, remote);
		put_addr(test, skb, IWPM_NLA_RQUERY_MAPPED_LOC_ADDR, mloc);
		put_addr(test, skb, IWPM_NLA_RQUERY_MAPPED_REM_ADDR, mrem);
		KUNIT_ASSERT_EQ(test, nla_put_u16(skb, 6, err), 0);
		nlmsg_end(skb, nlh);
		KUNIT_EXPECT_EQ(test, feed(test, iwpm_remote_info_cb, skb,
					   fx->pm_portid, NULL),
				err ? -EINVAL : 0);
		KUNIT_EXPECT_EQ(test, iwpm_reminfo_count(), err ? 0U : 1U);
	}
	KUNIT_EXPECT_EQ(test, iwpm_get_remote_info(mloc, mrem, &got, CLIENT),
			0);
	KUNIT_EXPECT_TRUE(test, addr_eq(&got, remote));
	KUNIT_EXPECT_EQ(test, iwpm_get_remote_info(mloc, mrem, &got, CLIENT),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, iwpm_reminfo_count(), 0U);
}

/* HANDLE_ERR fails the request it names, of whatever kind. */
static void iwpm_error_message(struct kunit *test)
{
	struct iwpm_fixture *fx = test->priv;
	struct iwpm_sa_data sa = {};
	struct iwpm_nlmsg_request *req;
	struct nlmsghdr *nlh;
	struct sk_buff *skb;

	pm_register(test, 4);
	req = pending(test, RDMA_NL_IWPM_QUERY_MAPPING, &sa);
	skb = msg_new(test, RDMA_NL_IWPM_HANDLE_ERR, 5, &nlh);
	KUNIT_ASSERT_EQ(test, nla_put_u32(skb, IWPM_NLA_ERR_SEQ,
					  req->nlmsg_seq), 0);
	KUNIT_ASSERT_EQ(test, nla_put_u16(skb, IWPM_NLA_ERR_CODE,
					  IWPM_UNKNOWN_MAPPING_ERR), 0);
	nlmsg_end(skb, nlh);
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_mapping_error_cb, skb,
				   fx->pm_portid, NULL), 0);
	KUNIT_EXPECT_EQ(test, iwpm_wait_complete_req(req),
			IWPM_UNKNOWN_MAPPING_ERR);

	/* An error about nothing pending is accepted and changes nothing. */
	skb = msg_new(test, RDMA_NL_IWPM_HANDLE_ERR, 5, &nlh);
	KUNIT_ASSERT_EQ(test, nla_put_u32(skb, IWPM_NLA_ERR_SEQ, 12345), 0);
	KUNIT_ASSERT_EQ(test, nla_put_u16(skb, IWPM_NLA_ERR_CODE, 11), 0);
	nlmsg_end(skb, nlh);
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_mapping_error_cb, skb,
				   fx->pm_portid, NULL), 0);
	KUNIT_EXPECT_EQ(test, iwpm_pending_nlmsg_requests(), 0U);
}

/* ------------------------------------------------------------------
 * Request lifetime
 */

static void iwpm_request_answer_before_wait(struct kunit *test)
{
	struct iwpm_fixture *fx = test->priv;
	struct iwpm_sa_data sa = {
		.loc_addr = *addr_of(test, "192.0.2.1", "7174"),
	};
	struct sockaddr_storage *mapped = addr_of(test, "192.0.2.1", "40006");
	struct iwpm_nlmsg_request *req;
	unsigned long start;

	pm_register(test, 4);
	req = pending(test, RDMA_NL_IWPM_ADD_MAPPING, &sa);
	KUNIT_EXPECT_EQ(test, kref_read(&req->kref), 2U);
	KUNIT_EXPECT_PTR_EQ(test, iwpm_find_nlmsg_request(req->nlmsg_seq),
			    req);
	KUNIT_EXPECT_EQ(test, kref_read(&req->kref), 3U);
	kref_put(&req->kref, iwpm_free_nlmsg_request);

	KUNIT_EXPECT_EQ(test, feed(test, iwpm_add_mapping_cb,
				   add_answer(test, req->nlmsg_seq,
					      &sa.loc_addr, mapped, 0),
				   fx->pm_portid, NULL), 0);
	/* Answered: out of the table, only the waiter's reference left. */
	KUNIT_EXPECT_NULL(test, iwpm_find_nlmsg_request(req->nlmsg_seq));
	KUNIT_EXPECT_EQ(test, kref_read(&req->kref), 1U);
	start = jiffies;
	KUNIT_EXPECT_EQ(test, iwpm_wait_complete_req(req), 0);
	KUNIT_EXPECT_LT(test, jiffies - start, msecs_to_jiffies(1000));
	KUNIT_EXPECT_TRUE(test, addr_eq(&sa.mapped_loc_addr, mapped));
}

static void iwpm_request_answer_after_timeout(struct kunit *test)
{
	struct iwpm_fixture *fx = test->priv;
	struct iwpm_sa_data sa = {
		.loc_addr = *addr_of(test, "192.0.2.1", "7174"),
	};
	struct sockaddr_storage *mapped = addr_of(test, "192.0.2.1", "40007");
	int timed_out = atomic_read(&iwpm_stats.requests_timed_out);
	struct iwpm_nlmsg_request *req;
	unsigned long start;
	u32 seq;

	pm_register(test, 4);
	iwpm_timeout_ms = 100;
	req = pending(test, RDMA_NL_IWPM_ADD_MAPPING, &sa);
	seq = req->nlmsg_seq;
	start = jiffies;
	KUNIT_EXPECT_EQ(test, iwpm_wait_complete_req(req), -ETIMEDOUT);
	KUNIT_EXPECT_GE(test, jiffies - start, msecs_to_jiffies(100));
	KUNIT_EXPECT_LT(test, jiffies - start, msecs_to_jiffies(5000));
	KUNIT_EXPECT_EQ(test, atomic_read(&iwpm_stats.requests_timed_out),
			timed_out + 1);
	/* The late answer finds nothing (and must not write into sa). */
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_add_mapping_cb,
				   add_answer(test, seq, &sa.loc_addr,
					      mapped, 0),
				   fx->pm_portid, NULL), -ENOENT);
	KUNIT_EXPECT_FALSE(test, addr_eq(&sa.mapped_loc_addr, mapped));
	KUNIT_EXPECT_EQ(test, iwpm_pending_nlmsg_requests(), 0U);
}

/*
 * A mapping request iwpmd leaves unanswered: iwpmd may hold the mapping
 * (it is slow, its answer got lost), so the client removes it.
 */
static void iwpm_timed_out_mapping_removed(struct kunit *test)
{
	static const u8 ops[] = { RDMA_NL_IWPM_ADD_MAPPING,
				  RDMA_NL_IWPM_QUERY_MAPPING };
	int removed = atomic_read(&iwpm_stats.timed_out_removed);
	struct nlattr *mtb[IWPM_NLA_MANAGE_MAPPING_MAX];
	struct nlattr *qtb[IWPM_NLA_QUERY_MAPPING_MAX];
	unsigned int i;

	pm_register(test, 4);
	iwpm_timeout_ms = 100;
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		struct call_ctx *c = call_start(test, ops[i]);

		c->sa.loc_addr = *addr_of(test, "192.0.2.1", "7300");
		c->sa.rem_addr = *addr_of(test, "192.0.2.2", "7301");
		call_run(test, c);
		if (ops[i] == RDMA_NL_IWPM_ADD_MAPPING)
			pm_recv_request(test, ops[i], mtb,
					IWPM_NLA_MANAGE_MAPPING_MAX - 1,
					manage_policy);
		else
			pm_recv_request(test, ops[i], qtb,
					IWPM_NLA_QUERY_MAPPING_MAX - 1,
					query_policy);
		KUNIT_EXPECT_EQ(test, call_wait(test, c), -ETIMEDOUT);
		KUNIT_EXPECT_TRUE(test, addr_eq(&c->sa.mapped_loc_addr,
						&c->sa.loc_addr));
		pm_recv_request(test, RDMA_NL_IWPM_REMOVE_MAPPING, mtb,
				IWPM_NLA_MANAGE_MAPPING_MAX - 1, manage_policy);
		KUNIT_ASSERT_NOT_NULL(test, mtb[IWPM_NLA_MANAGE_ADDR]);
		KUNIT_EXPECT_TRUE(test, addr_eq(nla_data(mtb[IWPM_NLA_MANAGE_ADDR]),
						&c->sa.loc_addr));
		KUNIT_EXPECT_EQ(test, atomic_read(&iwpm_stats.timed_out_removed),
				removed + (int)i + 1);
	}
	KUNIT_EXPECT_EQ(test, iwpm_pending_nlmsg_requests(), 0U);
}

static void iwpm_request_duplicate_answer(struct kunit *test)
{
	struct iwpm_fixture *fx = test->priv;
	struct iwpm_sa_data sa = {
		.loc_addr = *addr_of(test, "192.0.2.1", "7174"),
	};
	struct sockaddr_storage *first = addr_of(test, "192.0.2.1", "40008");
	struct sockaddr_storage *second = addr_of(test, "192.0.2.1", "40009");
	struct iwpm_nlmsg_request *req;
	u32 seq;

	pm_register(test, 4);
	req = pending(test, RDMA_NL_IWPM_ADD_MAPPING, &sa);
	seq = req->nlmsg_seq;
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_add_mapping_cb,
				   add_answer(test, seq, &sa.loc_addr, first,
					      0),
				   fx->pm_portid, NULL), 0);
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_add_mapping_cb,
				   add_answer(test, seq, &sa.loc_addr,
					      second, 0),
				   fx->pm_portid, NULL), -ENOENT);
	KUNIT_EXPECT_EQ(test, iwpm_wait_complete_req(req), 0);
	KUNIT_EXPECT_TRUE(test, addr_eq(&sa.mapped_loc_addr, first));
	/* Same after the waiter is gone. */
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_add_mapping_cb,
				   add_answer(test, seq, &sa.loc_addr,
					      second, 0),
				   fx->pm_portid, NULL), -ENOENT);
}

static void iwpm_request_same_seq(struct kunit *test)
{
	struct iwpm_nlmsg_request *a, *b;
	u32 seq = iwpm_get_nlmsg_seq();

	KUNIT_EXPECT_GT(test, (u32)iwpm_get_nlmsg_seq(), seq);
	a = iwpm_get_nlmsg_request(seq, CLIENT, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	b = iwpm_get_nlmsg_request(seq, CLIENT, GFP_KERNEL);
	KUNIT_EXPECT_NULL(test, b);
	KUNIT_EXPECT_PTR_EQ(test, iwpm_find_nlmsg_request(seq), a);
	kref_put(&a->kref, iwpm_free_nlmsg_request);
	iwpm_cancel_nlmsg_request(a);
	KUNIT_EXPECT_NULL(test, iwpm_find_nlmsg_request(seq));
}

/* No port mapper: the unmapped address, at once, without a message. */
static void iwpm_no_port_mapper_fallback(struct kunit *test)
{
	struct iwpm_sa_data sa = {
		.loc_addr = *addr_of(test, "2001:db8::5", "7000"),
		.rem_addr = *addr_of(test, "2001:db8::6", "7001"),
	};

	iwpm_set_registration(CLIENT, IWPM_REG_VALID);
	KUNIT_EXPECT_EQ(test, iwpm_add_mapping(&sa, CLIENT), 0);
	KUNIT_EXPECT_TRUE(test, addr_eq(&sa.mapped_loc_addr, &sa.loc_addr));
	KUNIT_EXPECT_EQ(test, iwpm_add_and_query_mapping(&sa, CLIENT), 0);
	KUNIT_EXPECT_TRUE(test, addr_eq(&sa.mapped_rem_addr, &sa.rem_addr));
	KUNIT_EXPECT_EQ(test, iwpm_remove_mapping(&sa.loc_addr, CLIENT), 0);
	KUNIT_EXPECT_EQ(test, iwpm_pending_nlmsg_requests(), 0U);

	/* A registered port id whose socket is gone: dropped on first use. */
	iwpm_set_user_pid(0x7ffffff0);
	KUNIT_EXPECT_EQ(test, iwpm_add_mapping(&sa, CLIENT), -ECONNREFUSED);
	KUNIT_EXPECT_TRUE(test, addr_eq(&sa.mapped_loc_addr, &sa.loc_addr));
	KUNIT_EXPECT_FALSE(test, iwpm_valid_pid());
	KUNIT_EXPECT_EQ(test, iwpm_pending_nlmsg_requests(), 0U);
}

/* iwpmd dies while a request waits: it fails at once, unmapped. */
static void iwpm_port_mapper_dies_mid_request(struct kunit *test)
{
	int aborted = atomic_read(&iwpm_stats.requests_aborted);
	struct call_ctx *c = call_start(test, RDMA_NL_IWPM_ADD_MAPPING);
	struct nlattr *tb[IWPM_NLA_MANAGE_MAPPING_MAX];
	unsigned long start;

	pm_register(test, 4);
	iwpm_timeout_ms = 60000;
	c->sa.loc_addr = *addr_of(test, "192.0.2.1", "7174");
	call_run(test, c);
	pm_recv_request(test, RDMA_NL_IWPM_ADD_MAPPING, tb,
			IWPM_NLA_MANAGE_MAPPING_MAX - 1, manage_policy);
	start = jiffies;
	pm_close(test);
	KUNIT_EXPECT_EQ(test, call_wait(test, c), -ECONNRESET);
	KUNIT_EXPECT_LT(test, jiffies - start, msecs_to_jiffies(5000));
	KUNIT_EXPECT_TRUE(test, addr_eq(&c->sa.mapped_loc_addr, &c->sa.loc_addr));
	KUNIT_EXPECT_EQ(test, iwpm_get_user_pid(), IWPM_PID_UNDEFINED);
	KUNIT_EXPECT_EQ(test, atomic_read(&iwpm_stats.requests_aborted),
			aborted + 1);
	KUNIT_EXPECT_EQ(test, iwpm_pending_nlmsg_requests(), 0U);
}

/* ------------------------------------------------------------------
 * ABI negotiation and port mapper restart
 */

static void iwpm_version_negotiation(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, iwpm_negotiate_version(0), 0);
	KUNIT_EXPECT_EQ(test, iwpm_negotiate_version(2), 0);
	KUNIT_EXPECT_EQ(test, iwpm_negotiate_version(3), 3);
	KUNIT_EXPECT_EQ(test, iwpm_negotiate_version(4), 4);
	KUNIT_EXPECT_EQ(test, iwpm_negotiate_version(5), 4);
	KUNIT_EXPECT_EQ(test, iwpm_negotiate_version(U16_MAX), 4);
}

static struct sk_buff *hello(struct kunit *test, u16 version)
{
	struct nlmsghdr *nlh;
	struct sk_buff *skb = msg_new(test, RDMA_NL_IWPM_HELLO, 0, &nlh);

	KUNIT_ASSERT_EQ(test, nla_put_u16(skb, IWPM_NLA_HELLO_ABI_VERSION,
					  version), 0);
	nlmsg_end(skb, nlh);
	return skb;
}

static void iwpm_hello_handshake(struct kunit *test)
{
	static const struct nla_policy policy[IWPM_NLA_HELLO_MAX] = {
		[IWPM_NLA_HELLO_ABI_VERSION] = { .type = NLA_U16 },
	};
	static const u16 offered[] = { 4, 3, 7 };
	static const u16 agreed[] = { 4, 3, 4 };
	struct iwpm_fixture *fx = test->priv;
	struct nlattr *tb[IWPM_NLA_HELLO_MAX];
	unsigned int i;

	pm_open(test);
	for (i = 0; i < ARRAY_SIZE(offered); i++) {
		iwpm_set_user_pid(IWPM_PID_UNDEFINED);
		iwpm_set_registration(CLIENT, IWPM_REG_VALID);
		KUNIT_EXPECT_EQ(test, feed(test, iwpm_hello_cb,
					   hello(test, offered[i]),
					   fx->pm_portid, NULL), 0);
		KUNIT_EXPECT_EQ(test, iwpm_ulib_version, agreed[i]);
		KUNIT_EXPECT_EQ(test, iwpm_get_user_pid(), (int)fx->pm_portid);
		/* Registered clients must register with the new one. */
		KUNIT_EXPECT_EQ(test, iwpm_get_registration(CLIENT),
				(u32)IWPM_REG_INCOMPL);
		pm_recv_request(test, RDMA_NL_IWPM_HELLO, tb,
				IWPM_NLA_HELLO_MAX - 1, policy);
		KUNIT_ASSERT_NOT_NULL(test, tb[IWPM_NLA_HELLO_ABI_VERSION]);
		KUNIT_EXPECT_EQ(test,
				nla_get_u16(tb[IWPM_NLA_HELLO_ABI_VERSION]),
				agreed[i]);
	}

	/* Too old: refused, nothing changes, nothing is sent. */
	iwpm_ulib_version = 4;
	iwpm_set_user_pid(IWPM_PID_UNDEFINED);
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_hello_cb, hello(test, 2),
				   fx->pm_portid, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, iwpm_ulib_version, 4);
	KUNIT_EXPECT_EQ(test, iwpm_get_user_pid(), IWPM_PID_UNDEFINED);
	KUNIT_EXPECT_EQ(test, pm_recv(test, tb, sizeof(tb), 50), -ETIMEDOUT);
}

static struct sk_buff *mapinfo_request(struct kunit *test, const char *name,
				       u16 version)
{
	struct nlmsghdr *nlh;
	struct sk_buff *skb = msg_new(test, RDMA_NL_IWPM_MAPINFO, 1, &nlh);

	KUNIT_ASSERT_EQ(test, nla_put_string(skb, IWPM_NLA_MAPINFO_ULIB_NAME,
					     name), 0);
	KUNIT_ASSERT_EQ(test, nla_put_u16(skb, IWPM_NLA_MAPINFO_ULIB_VER,
					  version), 0);
	nlmsg_end(skb, nlh);
	return skb;
}

/* A restarted port mapper gets every mapping again, then their count. */
static void iwpm_mapinfo_replay(struct kunit *test)
{
	static const struct nla_policy rec_policy[IWPM_NLA_MAPINFO_MAX] = {
		[IWPM_NLA_MAPINFO_LOCAL_ADDR]	=
			NLA_POLICY_EXACT_LEN(sizeof(struct sockaddr_storage)),
		[IWPM_NLA_MAPINFO_MAPPED_ADDR]	=
			NLA_POLICY_EXACT_LEN(sizeof(struct sockaddr_storage)),
		[IWPM_NLA_MAPINFO_FLAGS]	= { .type = NLA_U32 },
	};
	static const struct nla_policy num_policy[IWPM_NLA_MAPINFO_NUM_MAX] = {
		[IWPM_NLA_MAPINFO_SEQ]		= { .type = NLA_U32 },
		[IWPM_NLA_MAPINFO_SEND_NUM]	= { .type = NLA_U32 },
		[IWPM_NLA_MAPINFO_ACK_NUM]	= { .type = NLA_U32 },
	};
	const unsigned int nmap = 40;	/* more than one datagram holds */
	struct iwpm_fixture *fx = test->priv;
	struct nlattr *tb[IWPM_NLA_MAPINFO_NUM_MAX];
	unsigned int i, records = 0, datagrams = 0;
	bool seen[40] = {};
	struct nlmsghdr *nlh;
	struct sk_buff *skb;
	void *buf;
	int len;

	buf = kunit_kzalloc(test, 8192, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	pm_open(test);
	for (i = 0; i < nmap; i++) {
		struct sockaddr_storage l, m;
		char port[8];

		snprintf(port, sizeof(port), "%u", 6000 + i);
		l = *addr_of(test, i % 2 ? "2001:db8::1" : "192.0.2.1", port);
		snprintf(port, sizeof(port), "%u", 46000 + i);
		m = *addr_of(test, i % 2 ? "2001:db8::1" : "192.0.2.1", port);
		KUNIT_ASSERT_EQ(test, iwpm_create_mapinfo(&l, &m, CLIENT, i),
				0);
	}

	/* Wrong library name: refused, no replay. */
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_mapping_info_cb,
				   mapinfo_request(test, "somebody", 4),
				   fx->pm_portid, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, pm_recv(test, buf, 8192, 50), -ETIMEDOUT);

	KUNIT_EXPECT_EQ(test, feed(test, iwpm_mapping_info_cb,
				   mapinfo_request(test, "iWarpPortMapperUser",
						   4),
				   fx->pm_portid, NULL), 0);
	KUNIT_EXPECT_EQ(test, iwpm_get_user_pid(), (int)fx->pm_portid);

	/* Datagrams of records, each ended by NLMSG_DONE and nothing after. */
	while (records < nmap) {
		len = pm_recv(test, buf, 8192, RECV_MS);
		KUNIT_ASSERT_GT(test, len, 0);
		KUNIT_EXPECT_LE(test, len, 4096);
		datagrams++;
		for (nlh = buf; nlmsg_ok(nlh, len); nlh = nlmsg_next(nlh, &len)) {
			struct nlattr *rtb[IWPM_NLA_MAPINFO_MAX];
			struct sockaddr_in6 *sin6;
			struct sockaddr_in *sin;
			unsigned int idx;
			u32 flags;
			u16 port;
			int ret;

			if (nlh->nlmsg_type == NLMSG_DONE) {
				nlmsg_next(nlh, &len);
				KUNIT_EXPECT_EQ(test, len, 0);
				break;
			}
			KUNIT_ASSERT_EQ(test, nlh->nlmsg_type,
					RDMA_NL_GET_TYPE(CLIENT,
							 RDMA_NL_IWPM_MAPINFO));
			KUNIT_EXPECT_TRUE(test, nlh->nlmsg_flags & NLM_F_MULTI);
			ret = nlmsg_parse(nlh, 0, rtb, IWPM_NLA_MAPINFO_MAX - 1,
					  rec_policy, NULL);
			KUNIT_ASSERT_EQ(test, ret, 0);
			KUNIT_ASSERT_NOT_NULL(test,
					      rtb[IWPM_NLA_MAPINFO_LOCAL_ADDR]);
			KUNIT_ASSERT_NOT_NULL(test,
					      rtb[IWPM_NLA_MAPINFO_MAPPED_ADDR]);
			KUNIT_ASSERT_NOT_NULL(test, rtb[IWPM_NLA_MAPINFO_FLAGS]);
			sin = nla_data(rtb[IWPM_NLA_MAPINFO_LOCAL_ADDR]);
			sin6 = nla_data(rtb[IWPM_NLA_MAPINFO_LOCAL_ADDR]);
			port = ntohs(sin->sin_family == AF_INET ?
				     sin->sin_port : sin6->sin6_port);
			idx = port - 6000;
			KUNIT_ASSERT_LT(test, idx, nmap);
			KUNIT_EXPECT_FALSE(test, seen[idx]);
			seen[idx] = true;
			flags = nla_get_u32(rtb[IWPM_NLA_MAPINFO_FLAGS]);
			KUNIT_EXPECT_EQ(test, flags, idx);
			records++;
		}
	}
	KUNIT_EXPECT_GT(test, datagrams, 1U);

	len = pm_recv(test, buf, 8192, RECV_MS);
	KUNIT_ASSERT_GT(test, len, 0);
	nlh = buf;
	KUNIT_EXPECT_EQ(test, nlh->nlmsg_type,
			RDMA_NL_GET_TYPE(CLIENT, RDMA_NL_IWPM_MAPINFO_NUM));
	KUNIT_ASSERT_EQ(test, nlmsg_parse(nlh, 0, tb,
					  IWPM_NLA_MAPINFO_NUM_MAX - 1,
					  num_policy, NULL), 0);
	KUNIT_ASSERT_NOT_NULL(test, tb[IWPM_NLA_MAPINFO_SEND_NUM]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(tb[IWPM_NLA_MAPINFO_SEND_NUM]),
			nmap);

	/* The port mapper acknowledges the count. */
	skb = msg_new(test, RDMA_NL_IWPM_MAPINFO_NUM, 2, &nlh);
	KUNIT_ASSERT_EQ(test, nla_put_u32(skb, IWPM_NLA_MAPINFO_SEQ,
					  nlmsg_hdr(skb)->nlmsg_seq), 0);
	KUNIT_ASSERT_EQ(test, nla_put_u32(skb, IWPM_NLA_MAPINFO_SEND_NUM,
					  nmap), 0);
	KUNIT_ASSERT_EQ(test, nla_put_u32(skb, IWPM_NLA_MAPINFO_ACK_NUM,
					  nmap), 0);
	nlmsg_end(skb, nlh);
	KUNIT_EXPECT_EQ(test, feed(test, iwpm_ack_mapping_info_cb, skb,
				   fx->pm_portid, NULL), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&iwpm_stats.mapinfo_sent), nmap);
	KUNIT_EXPECT_EQ(test, atomic_read(&iwpm_stats.mapinfo_acked), nmap);
}

/* ------------------------------------------------------------------
 * Tables under concurrency
 */

#define TABLE_THREADS	4
#define TABLE_ROUNDS	300

struct table_ctx {
	unsigned int id;
	atomic_t *failures;
	struct completion done;
};

static void table_addr(struct sockaddr_storage *ss, unsigned int id,
		       unsigned int i, bool v6, u16 port_base)
{
	memset(ss, 0, sizeof(*ss));
	if (v6) {
		struct sockaddr_in6 *s = (struct sockaddr_in6 *)ss;

		s->sin6_family = AF_INET6;
		s->sin6_addr.s6_addr[0] = 0xfd;
		s->sin6_addr.s6_addr[15] = id;
		s->sin6_port = htons(port_base + i);
	} else {
		struct sockaddr_in *s = (struct sockaddr_in *)ss;

		s->sin_family = AF_INET;
		s->sin_addr.s_addr = htonl(0x0a000001 + (id << 8));
		s->sin_port = htons(port_base + i);
	}
}

static int table_thread(void *data)
{
	struct table_ctx *t = data;
	struct sockaddr_storage l, m, got;
	struct iwpm_remote_info *ri;
	unsigned int i;

	for (i = 0; i < TABLE_ROUNDS; i++) {
		bool v6 = i & 1;

		table_addr(&l, t->id, i, v6, 1000);
		table_addr(&m, t->id, i, v6, 30000);
		if (iwpm_create_mapinfo(&l, &m, CLIENT, 0))
			atomic_inc(t->failures);
		if (iwpm_get_mapped_addr(&l, &got, CLIENT) ||
		    iwpm_compare_sockaddr(&got, &m))
			atomic_inc(t->failures);

		ri = kzalloc(sizeof(*ri), GFP_KERNEL);
		if (!ri) {
			atomic_inc(t->failures);
			continue;
		}
		ri->nl_client = CLIENT;
		ri->mapped_loc_sockaddr = m;
		table_addr(&ri->mapped_rem_sockaddr, t->id, i, v6, 50000);
		table_addr(&ri->remote_sockaddr, t->id, i, v6, 20000);
		got = ri->mapped_rem_sockaddr;
		iwpm_add_remote_info(ri);
		if (iwpm_get_remote_info(&m, &got, &got, CLIENT))
			atomic_inc(t->failures);

		if (iwpm_remove_mapinfo(&l, &m))
			atomic_inc(t->failures);
		/* Gone: a second removal must fail. */
		if (!iwpm_remove_mapinfo(&l, &m))
			atomic_inc(t->failures);
		cond_resched();
	}
	complete(&t->done);
	return 0;
}

static void iwpm_tables_concurrent(struct kunit *test)
{
	struct table_ctx *t;
	atomic_t failures = ATOMIC_INIT(0);
	unsigned long left;
	unsigned int i;

	t = kunit_kcalloc(test, TABLE_THREADS, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_EQ(test, iwpm_mapinfo_count(), 0U);
	for (i = 0; i < TABLE_THREADS; i++) {
		struct task_struct *task;

		t[i].id = i + 1;
		t[i].failures = &failures;
		init_completion(&t[i].done);
		task = kthread_run(table_thread, &t[i], "iwpm_tbl%u", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	}
	for (i = 0; i < TABLE_THREADS; i++) {
		left = wait_for_completion_timeout(&t[i].done,
						   msecs_to_jiffies(60000));
		KUNIT_ASSERT_NE(test, left, 0UL);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&failures), 0);
	KUNIT_EXPECT_EQ(test, iwpm_mapinfo_count(), 0U);
	KUNIT_EXPECT_EQ(test, iwpm_reminfo_count(), 0U);
	KUNIT_EXPECT_EQ(test, iwpm_mapinfo_available(), 0);
}

/* Bad input to the table functions. */
static void iwpm_tables_reject(struct kunit *test)
{
	struct sockaddr_storage *v4 = addr_of(test, "192.0.2.1", "1");
	struct sockaddr_storage *v6 = addr_of(test, "2001:db8::1", "1");
	struct sockaddr_storage *bad = no_addr(test);
	struct iwpm_remote_info *ri;

	KUNIT_EXPECT_EQ(test, iwpm_create_mapinfo(bad, bad, CLIENT, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, iwpm_create_mapinfo(v4, v6, CLIENT, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, iwpm_create_mapinfo(v4, v4, RDMA_NL_LS, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, iwpm_create_mapinfo(v4, v4, 200, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, iwpm_remove_mapinfo(v4, v4), -EINVAL);
	KUNIT_EXPECT_EQ(test, iwpm_mapinfo_count(), 0U);

	ri = kzalloc(sizeof(*ri), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ri);
	ri->nl_client = CLIENT;
	ri->mapped_loc_sockaddr = *v4;
	KUNIT_EXPECT_EQ(test, iwpm_insert_remote_info(ri), -EINVAL);
	kfree(ri);
	KUNIT_EXPECT_EQ(test, iwpm_reminfo_count(), 0U);
	KUNIT_EXPECT_FALSE(test, iwpm_valid_client(200));
	KUNIT_EXPECT_TRUE(test, iwpm_valid_client(CLIENT));
	KUNIT_EXPECT_EQ(test, iwpm_init(CLIENT), -EINVAL);
}

static struct kunit_case iwpm_cases[] = {
	KUNIT_CASE(iwpm_sockaddr_compare),
	KUNIT_CASE(iwpm_register_pid_roundtrip),
	KUNIT_CASE(iwpm_register_pid_wrong_device),
	KUNIT_CASE(iwpm_register_pid_nobody_listens),
	KUNIT_CASE(iwpm_add_mapping_roundtrip),
	KUNIT_CASE(iwpm_query_roundtrip),
	KUNIT_CASE(iwpm_remove_mapping_message),
	KUNIT_CASE(iwpm_add_answer_malformed),
	KUNIT_CASE(iwpm_add_answer_mismatch),
	KUNIT_CASE(iwpm_answer_from_impostor),
	KUNIT_CASE(iwpm_remote_info),
	KUNIT_CASE(iwpm_error_message),
	KUNIT_CASE(iwpm_request_answer_before_wait),
	KUNIT_CASE(iwpm_request_answer_after_timeout),
	KUNIT_CASE(iwpm_timed_out_mapping_removed),
	KUNIT_CASE(iwpm_request_duplicate_answer),
	KUNIT_CASE(iwpm_request_same_seq),
	KUNIT_CASE(iwpm_no_port_mapper_fallback),
	KUNIT_CASE(iwpm_port_mapper_dies_mid_request),
	KUNIT_CASE(iwpm_version_negotiation),
	KUNIT_CASE(iwpm_hello_handshake),
	KUNIT_CASE(iwpm_mapinfo_replay),
	KUNIT_CASE(iwpm_tables_concurrent),
	KUNIT_CASE(iwpm_tables_reject),
	{}
};

static struct kunit_suite iwpm_suite = {
	.name = "rdma_iwpm",
	.init = iwpm_test_init,
	.exit = iwpm_test_exit,
	.test_cases = iwpm_cases,
};

kunit_test_suite(iwpm_suite);

MODULE_DESCRIPTION("KUnit tests of the iWARP port-mapper client");
MODULE_LICENSE("Dual BSD/GPL");
