// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_netlink": the NETLINK_RDMA channel
 * (core/ib_core/netlink/netlink.c).
 *
 * Each case opens a real NETLINK_RDMA socket in the initial namespace,
 * puts a callback table of its own in place of a client's (restored at
 * exit), sends datagrams and reads what comes back, so the whole path
 * from the socket to the callbacks and the acks is exercised.
 */

#include <kunit/test.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/net.h>
#include <linux/netlink.h>
#include <linux/socket.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <rdma/rdma_netlink.h>

#include "../../core_priv.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define RXBUF_LEN	16384

/* What the callbacks of a case saw. */
struct nl_record {
	atomic_t doit_calls;
	atomic_t dump_calls;
	u16 last_type;
	u16 last_flags;
	int doit_ret;
	unsigned int dump_entries;	/* messages a dump produces in all */
};

/* One record at a time: the callbacks have no context of their own. */
static struct nl_record *cur;

static int rec_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		    struct netlink_ext_ack *extack)
{
	atomic_inc(&cur->doit_calls);
	cur->last_type = nlh->nlmsg_type;
	cur->last_flags = nlh->nlmsg_flags;
	if (cur->doit_ret)
		NL_SET_ERR_MSG(extack, "kunit: doit refused");
	return cur->doit_ret;
}

/* One NLMSG per entry, cb->args[0] entries done so far. */
static int rec_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned int i = cb->args[0];
	struct nlmsghdr *nlh;
	u32 v;

	atomic_inc(&cur->dump_calls);
	for (; i < cur->dump_entries; i++) {
		if (!ibnl_put_msg(skb, &nlh, cb->nlh->nlmsg_seq, 0,
				  RDMA_NL_GET_CLIENT(cb->nlh->nlmsg_type),
				  RDMA_NL_GET_OP(cb->nlh->nlmsg_type),
				  NLM_F_MULTI))
			break;
		v = i;
		if (ibnl_put_attr(skb, nlh, sizeof(v), &v, 1))
			break;
		/* A little weight so that many entries take several reads. */
		if (!nla_reserve(skb, 2, 200)) {
			nlmsg_cancel(skb, nlh);
			break;
		}
		nlmsg_end(skb, nlh);
	}
	cb->args[0] = i;
	return skb->len;
}

static const struct rdma_nl_cbs test_cbs[RDMA_NLDEV_NUM_OPS] = {
	[0] = { .doit = rec_doit, .dump = rec_dump },
	[1] = { .doit = rec_doit, .flags = RDMA_NL_ADMIN_PERM },
	[2] = { .dump = rec_dump },
	/* [3]: no callbacks */
};

struct nl_ctx {
	struct kunit *test;
	unsigned int index;
	const struct rdma_nl_cbs *saved;
	struct nl_record rec;
	void *rx;
};

static void restore_client(void *data)
{
	struct nl_ctx *ctx = data;

	rdma_nl_kunit_swap(ctx->index, ctx->saved);
	cur = NULL;
}

/* Install test_cbs as client @index for the rest of the case. */
static struct nl_ctx *take_client(struct kunit *test, unsigned int index)
{
	struct nl_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->rx = kunit_kzalloc(test, RXBUF_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx->rx);
	ctx->test = test;
	ctx->index = index;
	cur = &ctx->rec;
	ctx->saved = rdma_nl_kunit_swap(index, test_cbs);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, restore_client, ctx));
	return ctx;
}

static void put_sock_file(void *data)
{
	fput(data);
}

/*
 * A NETLINK_RDMA socket backed by a file: netlink_capable() looks at the
 * opener's credentials through it, and at the sender's.
 */
static struct socket *open_sock(struct kunit *test)
{
	struct socket *sock;
	struct file *file;
	int ret;

	ret = sock_create_kern(&init_net, AF_NETLINK, SOCK_RAW, NETLINK_RDMA,
			       &sock);
	KUNIT_ASSERT_EQ(test, ret, 0);
	file = sock_alloc_file(sock, 0, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(file));
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, put_sock_file, file));
	return sock;
}

static void send_raw(struct kunit *test, struct socket *sock, const void *buf,
		     size_t len)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct kvec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr msg = {
		.msg_name = &kernel,
		.msg_namelen = sizeof(kernel),
	};

	KUNIT_ASSERT_EQ(test, kernel_sendmsg(sock, &msg, &iov, 1, len),
			(int)len);
}

/* Put a request header (and no payload) at @buf; returns its length. */
static size_t put_req(void *buf, unsigned int index, unsigned int op,
		      u16 flags, u32 seq)
{
	struct nlmsghdr *nlh = buf;

	memset(nlh, 0, NLMSG_HDRLEN);
	nlh->nlmsg_len = NLMSG_HDRLEN;
	nlh->nlmsg_type = RDMA_NL_GET_TYPE(index, op);
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = seq;
	return NLMSG_HDRLEN;
}

static void send_req(struct kunit *test, struct socket *sock,
		     unsigned int index, unsigned int op, u16 flags, u32 seq)
{
	u8 buf[NLMSG_HDRLEN];

	send_raw(test, sock, buf, put_req(buf, index, op, flags, seq));
}

/* One datagram, or 0 when none is queued. */
static int recv_one(struct kunit *test, struct socket *sock, void *buf)
{
	struct kvec iov = { .iov_base = buf, .iov_len = RXBUF_LEN };
	struct msghdr msg = {};
	int ret;

	ret = kernel_recvmsg(sock, &msg, &iov, 1, RXBUF_LEN, MSG_DONTWAIT);
	if (ret == -EAGAIN)
		return 0;
	KUNIT_ASSERT_GT(test, ret, 0);
	return ret;
}

/* The error of the one NLMSG_ERROR queued for @seq; fails if none. */
static int recv_ack(struct kunit *test, struct socket *sock, void *buf,
		    u32 seq)
{
	struct nlmsghdr *nlh = buf;
	struct nlmsgerr *err;
	int len = recv_one(test, sock, buf);

	KUNIT_ASSERT_GE(test, len, (int)nlmsg_total_size(sizeof(*err)));
	KUNIT_ASSERT_EQ(test, nlh->nlmsg_type, NLMSG_ERROR);
	KUNIT_EXPECT_EQ(test, nlh->nlmsg_seq, seq);
	err = nlmsg_data(nlh);
	return err->error;
}

static void rdma_netlink_doit_acked(struct kunit *test)
{
	struct nl_ctx *ctx = take_client(test, RDMA_NL_NLDEV);
	struct socket *sock = open_sock(test);

	send_req(test, sock, RDMA_NL_NLDEV, 0, NLM_F_REQUEST | NLM_F_ACK, 7);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->rec.doit_calls), 1);
	KUNIT_EXPECT_EQ(test, ctx->rec.last_type,
			RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, 0));
	KUNIT_EXPECT_EQ(test, recv_ack(test, sock, ctx->rx, 7), 0);
	KUNIT_EXPECT_EQ(test, recv_one(test, sock, ctx->rx), 0);

	/* Without NLM_F_ACK a successful doit gets no answer. */
	send_req(test, sock, RDMA_NL_NLDEV, 0, NLM_F_REQUEST, 8);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->rec.doit_calls), 2);
	KUNIT_EXPECT_EQ(test, recv_one(test, sock, ctx->rx), 0);
}

static void rdma_netlink_doit_error_with_extack(struct kunit *test)
{
	struct nl_ctx *ctx = take_client(test, RDMA_NL_NLDEV);
	struct socket *sock = open_sock(test);
	struct nlmsghdr *nlh = ctx->rx;
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	struct nlmsgerr *err;
	int len, one = 1;

	/* Ask for extended acks so the message comes back. */
	KUNIT_ASSERT_EQ(test, 0,
			sock->ops->setsockopt(sock, SOL_NETLINK, NETLINK_EXT_ACK,
					      KERNEL_SOCKPTR(&one),
					      sizeof(one)));
	ctx->rec.doit_ret = -E2BIG;
	send_req(test, sock, RDMA_NL_NLDEV, 0, NLM_F_REQUEST, 9);
	len = recv_one(test, sock, ctx->rx);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_ASSERT_EQ(test, nlh->nlmsg_type, NLMSG_ERROR);
	err = nlmsg_data(nlh);
	KUNIT_EXPECT_EQ(test, err->error, -E2BIG);
	KUNIT_ASSERT_TRUE(test, nlh->nlmsg_flags & NLM_F_ACK_TLVS);
	KUNIT_ASSERT_EQ(test, 0,
			nla_parse(tb, NLMSGERR_ATTR_MAX,
				  (struct nlattr *)((u8 *)err + sizeof(*err)),
				  nlh->nlmsg_len - NLMSG_HDRLEN - sizeof(*err),
				  NULL, NULL));
	KUNIT_ASSERT_NOT_NULL(test, tb[NLMSGERR_ATTR_MSG]);
	KUNIT_EXPECT_STREQ(test, (char *)nla_data(tb[NLMSGERR_ATTR_MSG]),
			   "kunit: doit refused");
}

static void rdma_netlink_bad_index_and_op(struct kunit *test)
{
	struct nl_ctx *ctx = take_client(test, RDMA_NL_NLDEV);
	struct socket *sock = open_sock(test);

	/* Op past the client's range. */
	send_req(test, sock, RDMA_NL_NLDEV, RDMA_NLDEV_NUM_OPS, NLM_F_REQUEST,
		 1);
	KUNIT_EXPECT_EQ(test, recv_ack(test, sock, ctx->rx, 1), -EINVAL);
	/*
	 * Index without a client, and past the last index.  (Index 0 with
	 * op 0 would be a control message, which is not dispatched at all.)
	 */
	send_req(test, sock, 0, NLMSG_MIN_TYPE, NLM_F_REQUEST, 2);
	KUNIT_EXPECT_EQ(test, recv_ack(test, sock, ctx->rx, 2), -EINVAL);
	send_req(test, sock, RDMA_NL_RSVD, 0, NLM_F_REQUEST, 3);
	KUNIT_EXPECT_EQ(test, recv_ack(test, sock, ctx->rx, 3), -EINVAL);
	send_req(test, sock, 63, 0, NLM_F_REQUEST, 4);
	KUNIT_EXPECT_EQ(test, recv_ack(test, sock, ctx->rx, 4), -EINVAL);
	/* An op whose table entry has no callback. */
	send_req(test, sock, RDMA_NL_NLDEV, 3, NLM_F_REQUEST, 5);
	KUNIT_EXPECT_EQ(test, recv_ack(test, sock, ctx->rx, 5), -EINVAL);
	/* A doit request for a dump-only op. */
	send_req(test, sock, RDMA_NL_NLDEV, 2, NLM_F_REQUEST, 6);
	KUNIT_EXPECT_EQ(test, recv_ack(test, sock, ctx->rx, 6), -EINVAL);

	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->rec.doit_calls), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->rec.dump_calls), 0);
}

static void rdma_netlink_no_request_flag(struct kunit *test)
{
	struct nl_ctx *ctx = take_client(test, RDMA_NL_NLDEV);
	struct socket *sock = open_sock(test);

	/* Not a request: only acked when asked, never handled. */
	send_req(test, sock, RDMA_NL_NLDEV, 0, NLM_F_ACK, 11);
	KUNIT_EXPECT_EQ(test, recv_ack(test, sock, ctx->rx, 11), 0);
	send_req(test, sock, RDMA_NL_NLDEV, 0, 0, 12);
	KUNIT_EXPECT_EQ(test, recv_one(test, sock, ctx->rx), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->rec.doit_calls), 0);
}

static void rdma_netlink_ls_reply_reaches_doit(struct kunit *test)
{
	struct nl_ctx *ctx = take_client(test, RDMA_NL_LS);
	struct socket *sock = open_sock(test);

	/*
	 * LS replies carry no NLM_F_REQUEST and may have NLM_F_ROOT set as
	 * their error flag: still a doit, never a dump.
	 */
	send_req(test, sock, RDMA_NL_LS, 0, RDMA_NL_LS_F_ERR, 21);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->rec.doit_calls), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->rec.dump_calls), 0);
	KUNIT_EXPECT_EQ(test, ctx->rec.last_flags, RDMA_NL_LS_F_ERR);
	KUNIT_EXPECT_EQ(test, recv_one(test, sock, ctx->rx), 0);
}

/* Read a dump to its end; returns the number of entries, counts reads. */
static unsigned int read_dump(struct kunit *test, struct socket *sock,
			      void *buf, unsigned int *reads)
{
	unsigned int entries = 0;
	bool done = false;

	*reads = 0;
	while (!done) {
		int len = recv_one(test, sock, buf);
		struct nlmsghdr *nlh;

		KUNIT_ASSERT_GT(test, len, 0);
		(*reads)++;
		nlmsg_for_each_msg(nlh, (struct nlmsghdr *)buf, len, len) {
			if (nlh->nlmsg_type == NLMSG_DONE) {
				done = true;
				break;
			}
			KUNIT_ASSERT_NE(test, nlh->nlmsg_type, NLMSG_ERROR);
			KUNIT_EXPECT_TRUE(test, nlh->nlmsg_flags & NLM_F_MULTI);
			entries++;
		}
		KUNIT_ASSERT_LT(test, *reads, 1000U);
	}
	return entries;
}

static void rdma_netlink_dump_many_reads(struct kunit *test)
{
	struct nl_ctx *ctx = take_client(test, RDMA_NL_NLDEV);
	struct socket *sock = open_sock(test);
	unsigned int reads;

	ctx->rec.dump_entries = 300;
	send_req(test, sock, RDMA_NL_NLDEV, 0, NLM_F_REQUEST | NLM_F_DUMP, 31);
	KUNIT_EXPECT_EQ(test, read_dump(test, sock, ctx->rx, &reads), 300U);
	KUNIT_EXPECT_GT(test, reads, 2U);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->rec.doit_calls), 0);
	KUNIT_EXPECT_EQ(test, recv_one(test, sock, ctx->rx), 0);
}

static void rdma_netlink_dump_outlives_client(struct kunit *test)
{
	struct nl_ctx *ctx = take_client(test, RDMA_NL_NLDEV);
	struct socket *sock = open_sock(test);
	unsigned int reads, calls, entries = 0;
	struct nlmsghdr *nlh;
	int len;

	ctx->rec.dump_entries = 300;
	send_req(test, sock, RDMA_NL_NLDEV, 0, NLM_F_REQUEST | NLM_F_DUMP, 32);
	len = recv_one(test, sock, ctx->rx);
	KUNIT_ASSERT_GT(test, len, 0);
	nlmsg_for_each_msg(nlh, (struct nlmsghdr *)ctx->rx, len, len)
		entries++;

	/* The client goes away while the dump is half read. */
	rdma_nl_kunit_swap(RDMA_NL_NLDEV, NULL);
	calls = atomic_read(&ctx->rec.dump_calls);
	entries += read_dump(test, sock, ctx->rx, &reads);
	KUNIT_EXPECT_LT(test, entries, 300U);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->rec.dump_calls), calls);
}

static void rdma_netlink_iwcm_always_dumps(struct kunit *test)
{
	struct nl_ctx *ctx = take_client(test, RDMA_NL_IWCM);
	struct socket *sock = open_sock(test);
	unsigned int reads;

	/* iwpmd sends plain requests and expects an NLMSG_DONE for each. */
	send_req(test, sock, RDMA_NL_IWCM, 0, NLM_F_REQUEST, 41);
	KUNIT_EXPECT_EQ(test, read_dump(test, sock, ctx->rx, &reads), 0U);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->rec.dump_calls), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->rec.doit_calls), 0);
	KUNIT_EXPECT_EQ(test, recv_one(test, sock, ctx->rx), 0);
}

static void rdma_netlink_admin_perm(struct kunit *test)
{
	struct nl_ctx *ctx = take_client(test, RDMA_NL_NLDEV);
	const struct cred *old;
	struct socket *sock;
	struct cred *cred;
	int err;

	cred = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, cred);
	cap_lower(cred->cap_effective, CAP_NET_ADMIN);
	old = override_creds(cred);
	sock = open_sock(test);
	/* Admin op refused; the plain op of the same client works. */
	send_req(test, sock, RDMA_NL_NLDEV, 1, NLM_F_REQUEST, 51);
	send_req(test, sock, RDMA_NL_NLDEV, 0, NLM_F_REQUEST | NLM_F_ACK, 52);
	revert_creds(old);
	put_cred(cred);

	err = recv_ack(test, sock, ctx->rx, 51);
	KUNIT_EXPECT_EQ(test, err, -EPERM);
	KUNIT_EXPECT_EQ(test, recv_ack(test, sock, ctx->rx, 52), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->rec.doit_calls), 1);
	KUNIT_EXPECT_EQ(test, ctx->rec.last_type,
			RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, 0));

	/* With the capability the admin op runs. */
	sock = open_sock(test);
	send_req(test, sock, RDMA_NL_NLDEV, 1, NLM_F_REQUEST | NLM_F_ACK, 53);
	KUNIT_EXPECT_EQ(test, recv_ack(test, sock, ctx->rx, 53), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->rec.doit_calls), 2);
}

static void rdma_netlink_several_in_one_datagram(struct kunit *test)
{
	struct nl_ctx *ctx = take_client(test, RDMA_NL_NLDEV);
	struct socket *sock = open_sock(test);
	u8 buf[3 * NLMSG_HDRLEN];
	size_t len = 0;
	u32 seq;

	for (seq = 61; seq < 64; seq++)
		len += put_req(buf + len, RDMA_NL_NLDEV, 0,
			       NLM_F_REQUEST | NLM_F_ACK, seq);
	send_raw(test, sock, buf, len);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->rec.doit_calls), 3);
	for (seq = 61; seq < 64; seq++)
		KUNIT_EXPECT_EQ(test, recv_ack(test, sock, ctx->rx, seq), 0);
}

static void rdma_netlink_truncated(struct kunit *test)
{
	struct nl_ctx *ctx = take_client(test, RDMA_NL_NLDEV);
	struct socket *sock = open_sock(test);
	u8 buf[2 * NLMSG_HDRLEN];
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;

	/* Claims more than the datagram has: dropped without a reply. */
	put_req(buf, RDMA_NL_NLDEV, 0, NLM_F_REQUEST | NLM_F_ACK, 71);
	nlh->nlmsg_len = 64;
	send_raw(test, sock, buf, NLMSG_HDRLEN);
	/* Claims less than a header. */
	nlh->nlmsg_len = 8;
	send_raw(test, sock, buf, NLMSG_HDRLEN);
	/* Shorter than a header altogether. */
	send_raw(test, sock, buf, 10);
	/* A good message followed by a lying one: the first is handled. */
	put_req(buf, RDMA_NL_NLDEV, 0, NLM_F_REQUEST | NLM_F_ACK, 72);
	put_req(buf + NLMSG_HDRLEN, RDMA_NL_NLDEV, 0,
		NLM_F_REQUEST | NLM_F_ACK, 73);
	((struct nlmsghdr *)(buf + NLMSG_HDRLEN))->nlmsg_len = 200;
	send_raw(test, sock, buf, sizeof(buf));

	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->rec.doit_calls), 1);
	KUNIT_EXPECT_EQ(test, recv_ack(test, sock, ctx->rx, 72), 0);
	KUNIT_EXPECT_EQ(test, recv_one(test, sock, ctx->rx), 0);
}

static void rdma_netlink_put_msg_attr(struct kunit *test)
{
	struct sk_buff *skb = alloc_skb(128, GFP_KERNEL);
	u8 *big = kunit_kzalloc(test, 4096, GFP_KERNEL);
	struct nlmsghdr *nlh;
	u32 v = 0x1234;
	void *data;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_NOT_NULL(test, big);
	KUNIT_ASSERT_LT(test, skb_tailroom(skb), 4096);
	data = ibnl_put_msg(skb, &nlh, 5, 0, RDMA_NL_IWCM, 3, NLM_F_REQUEST);
	KUNIT_ASSERT_NOT_NULL(test, data);
	KUNIT_EXPECT_EQ(test, nlh->nlmsg_type, RDMA_NL_GET_TYPE(2, 3));
	KUNIT_EXPECT_EQ(test, nlh->nlmsg_seq, 5U);
	KUNIT_EXPECT_EQ(test, ibnl_put_attr(skb, nlh, sizeof(v), &v, 1), 0);
	nlmsg_end(skb, nlh);
	KUNIT_EXPECT_EQ(test, skb->len, NLMSG_HDRLEN + nla_total_size(4));

	/* A second message whose attribute does not fit is taken back. */
	KUNIT_ASSERT_NOT_NULL(test, ibnl_put_msg(skb, &nlh, 6, 0, RDMA_NL_IWCM,
						 3, NLM_F_REQUEST));
	KUNIT_EXPECT_EQ(test, ibnl_put_attr(skb, nlh, skb_tailroom(skb), big,
					    2), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, skb->len, NLMSG_HDRLEN + nla_total_size(4));

	/* No room for a header at all. */
	while (skb_tailroom(skb) >= NLMSG_HDRLEN)
		skb_put(skb, min_t(int, skb_tailroom(skb), 64));
	KUNIT_EXPECT_NULL(test, ibnl_put_msg(skb, &nlh, 7, 0, RDMA_NL_IWCM, 3,
					     0));
	kfree_skb(skb);
}

static struct sk_buff *one_msg(struct kunit *test, u32 seq)
{
	struct sk_buff *skb = nlmsg_new(0, GFP_KERNEL);
	struct nlmsghdr *nlh;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_NOT_NULL(test, ibnl_put_msg(skb, &nlh, seq, 0,
						 RDMA_NL_IWCM, 0, 0));
	nlmsg_end(skb, nlh);
	return skb;
}

static void rdma_netlink_unicast_multicast(struct kunit *test)
{
	struct socket *sock = open_sock(test);
	struct sockaddr_nl addr = {};
	u8 *rx = kunit_kzalloc(test, RXBUF_LEN, GFP_KERNEL);
	int group = RDMA_NL_GROUP_NOTIFY;
	int addrlen = sizeof(addr);

	KUNIT_ASSERT_NOT_NULL(test, rx);
	/* Bind to learn our port id. */
	addr.nl_family = AF_NETLINK;
	KUNIT_ASSERT_EQ(test, 0, kernel_bind(sock, (struct sockaddr *)&addr,
					     sizeof(addr)));
	KUNIT_ASSERT_EQ(test, kernel_getsockname(sock,
						 (struct sockaddr *)&addr),
			addrlen);
	KUNIT_ASSERT_NE(test, addr.nl_pid, 0U);

	KUNIT_EXPECT_EQ(test, rdma_nl_unicast(&init_net, one_msg(test, 81),
					      addr.nl_pid), 0);
	KUNIT_EXPECT_EQ(test, rdma_nl_unicast_wait(&init_net,
						   one_msg(test, 82),
						   addr.nl_pid), 0);
	KUNIT_EXPECT_EQ(test, recv_one(test, sock, rx),
			(int)NLMSG_HDRLEN);
	KUNIT_EXPECT_EQ(test, ((struct nlmsghdr *)rx)->nlmsg_seq, 81U);
	KUNIT_EXPECT_EQ(test, recv_one(test, sock, rx),
			(int)NLMSG_HDRLEN);
	KUNIT_EXPECT_EQ(test, ((struct nlmsghdr *)rx)->nlmsg_seq, 82U);
	/* Nobody has this port id. */
	KUNIT_EXPECT_EQ(test, rdma_nl_unicast(&init_net, one_msg(test, 83),
					      0x7ffffff0), -ECONNREFUSED);

	/* A group with no member, then with us in it. */
	KUNIT_EXPECT_FALSE(test, rdma_nl_chk_listeners(group));
	KUNIT_EXPECT_EQ(test, rdma_nl_multicast(&init_net, one_msg(test, 84),
						group, GFP_KERNEL), -ESRCH);
	KUNIT_ASSERT_EQ(test, 0,
			sock->ops->setsockopt(sock, SOL_NETLINK,
					      NETLINK_ADD_MEMBERSHIP,
					      KERNEL_SOCKPTR(&group),
					      sizeof(group)));
	KUNIT_EXPECT_TRUE(test, rdma_nl_chk_listeners(group));
	KUNIT_EXPECT_EQ(test, rdma_nl_multicast(&init_net, one_msg(test, 85),
						group, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, recv_one(test, sock, rx), (int)NLMSG_HDRLEN);
	KUNIT_EXPECT_EQ(test, ((struct nlmsghdr *)rx)->nlmsg_seq, 85U);
}

static void rdma_netlink_unregistered_client(struct kunit *test)
{
	struct nl_ctx *ctx = take_client(test, RDMA_NL_NLDEV);
	struct socket *sock = open_sock(test);

	/* Once the table is gone, the index is refused. */
	rdma_nl_kunit_swap(RDMA_NL_NLDEV, NULL);
	send_req(test, sock, RDMA_NL_NLDEV, 0, NLM_F_REQUEST, 91);
	KUNIT_EXPECT_EQ(test, recv_ack(test, sock, ctx->rx, 91), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->rec.doit_calls), 0);
}

static struct kunit_case rdma_netlink_cases[] = {
	KUNIT_CASE(rdma_netlink_doit_acked),
	KUNIT_CASE(rdma_netlink_doit_error_with_extack),
	KUNIT_CASE(rdma_netlink_bad_index_and_op),
	KUNIT_CASE(rdma_netlink_no_request_flag),
	KUNIT_CASE(rdma_netlink_ls_reply_reaches_doit),
	KUNIT_CASE(rdma_netlink_dump_many_reads),
	KUNIT_CASE(rdma_netlink_dump_outlives_client),
	KUNIT_CASE(rdma_netlink_iwcm_always_dumps),
	KUNIT_CASE(rdma_netlink_admin_perm),
	KUNIT_CASE(rdma_netlink_several_in_one_datagram),
	KUNIT_CASE(rdma_netlink_truncated),
	KUNIT_CASE(rdma_netlink_put_msg_attr),
	KUNIT_CASE(rdma_netlink_unicast_multicast),
	KUNIT_CASE(rdma_netlink_unregistered_client),
	{}
};

static struct kunit_suite rdma_netlink_suite = {
	.name = "rdma_netlink",
	.test_cases = rdma_netlink_cases,
};

kunit_test_suite(rdma_netlink_suite);

MODULE_DESCRIPTION("KUnit tests of the NETLINK_RDMA channel");
MODULE_LICENSE("Dual BSD/GPL");
