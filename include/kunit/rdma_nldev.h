/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * KUnit helpers: a NETLINK_RDMA client for the suites of nldev
 * (core/ib_core/netlink/tests/nldev_kunit.c, nldev_res_kunit.c): a kernel
 * socket with extended acks, backed by a file so that netlink_capable() sees
 * the opener's credentials; requests built attribute by attribute (wrong
 * ones too); acks with their extack text; and checked readers of reply
 * attributes.
 */
#ifndef KUNIT_RDMA_NLDEV_H
#define KUNIT_RDMA_NLDEV_H

#include <kunit/test.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/net.h>
#include <linux/netlink.h>
#include <linux/socket.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <rdma/rdma_netlink.h>

#define RXBUF_LEN	16384
#define REQ_LEN		512

/* A request being built. */
struct req {
	u8 buf[REQ_LEN];
	struct nlmsghdr *nlh;
};

/* A NETLINK_RDMA socket, its receive buffer and the last ack's text. */
struct nlc {
	struct kunit *test;
	struct socket *sock;
	u8 *rx;
	u8 *reply;
	u32 seq;
	char extack[128];
	/* requests are sent with these credentials when set */
	const struct cred *cred;
};

static inline void put_sock_file(void *data)
{
	fput(data);
}

static inline struct nlc *nlc_open(struct kunit *test)
{
	struct nlc *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct file *file;
	int one = 1;

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->rx = kunit_kzalloc(test, RXBUF_LEN, GFP_KERNEL);
	c->reply = kunit_kzalloc(test, RXBUF_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->rx);
	KUNIT_ASSERT_NOT_NULL(test, c->reply);
	c->test = test;
	c->seq = 1000;
	KUNIT_ASSERT_EQ(test, 0, sock_create_kern(&init_net, AF_NETLINK,
						  SOCK_RAW, NETLINK_RDMA,
						  &c->sock));
	/* A file lets netlink_capable() see the opener's credentials. */
	file = sock_alloc_file(c->sock, 0, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(file));
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, put_sock_file, file));
	KUNIT_ASSERT_EQ(test, 0,
			c->sock->ops->setsockopt(c->sock, SOL_NETLINK,
						 NETLINK_EXT_ACK,
						 KERNEL_SOCKPTR(&one),
						 sizeof(one)));
	return c;
}

static inline void req_init(struct req *r, u32 cmd, u16 flags)
{
	memset(r->buf, 0, sizeof(r->buf));
	r->nlh = (struct nlmsghdr *)r->buf;
	r->nlh->nlmsg_len = NLMSG_HDRLEN;
	r->nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd);
	r->nlh->nlmsg_flags = NLM_F_REQUEST | flags;
}

/* Append an attribute of any length, even a wrong one. */
static inline void req_put(struct req *r, u16 type, const void *data, u16 len)
{
	struct nlattr *nla = (struct nlattr *)(r->buf + r->nlh->nlmsg_len);

	if (WARN_ON(r->nlh->nlmsg_len + nla_total_size(len) > REQ_LEN))
		return;
	nla->nla_type = type;
	nla->nla_len = nla_attr_size(len);
	memcpy(nla_data(nla), data, len);
	r->nlh->nlmsg_len += nla_total_size(len);
}

static inline void req_u32(struct req *r, u16 type, u32 v)
{
	req_put(r, type, &v, sizeof(v));
}

static inline void req_u8(struct req *r, u16 type, u8 v)
{
	req_put(r, type, &v, sizeof(v));
}

static inline void req_str(struct req *r, u16 type, const char *s)
{
	req_put(r, type, s, strlen(s) + 1);
}

static inline void nlc_send(struct nlc *c, struct req *r)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct kvec iov = { .iov_base = r->buf, .iov_len = r->nlh->nlmsg_len };
	struct msghdr msg = {
		.msg_name = &kernel,
		.msg_namelen = sizeof(kernel),
	};

	const struct cred *old = NULL;
	int ret;

	r->nlh->nlmsg_seq = ++c->seq;
	/*
	 * A message with an address is judged by the sender's credentials
	 * (netlink_capable() with NETLINK_SKB_DST), not the socket's.
	 */
	if (c->cred)
		old = override_creds(c->cred);
	ret = kernel_sendmsg(c->sock, &msg, &iov, 1, iov.iov_len);
	if (old)
		revert_creds(old);
	KUNIT_ASSERT_EQ(c->test, ret, (int)iov.iov_len);
}

/* One datagram of at most @len bytes into c->rx; 0 when none is queued. */
static inline int nlc_recv(struct nlc *c, int len)
{
	struct kvec iov = { .iov_base = c->rx, .iov_len = len };
	struct msghdr msg = {};
	int ret;

	ret = kernel_recvmsg(c->sock, &msg, &iov, 1, len, MSG_DONTWAIT);
	if (ret == -EAGAIN)
		ret = 0;
	KUNIT_ASSERT_GE(c->test, ret, 0);
	KUNIT_ASSERT_FALSE(c->test, msg.msg_flags & MSG_TRUNC);
	return ret;
}

/* The error of an NLMSG_ERROR; its extack text goes to c->extack. */
static inline int nlc_error(struct nlc *c, struct nlmsghdr *nlh)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = {};
	struct nlmsgerr *err = nlmsg_data(nlh);
	size_t hdr = sizeof(*err);

	c->extack[0] = '\0';
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED) && err->error)
		hdr += err->msg.nlmsg_len - NLMSG_HDRLEN;
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) &&
	    nlh->nlmsg_len > NLMSG_HDRLEN + hdr &&
	    !nla_parse(tb, NLMSGERR_ATTR_MAX,
		       (struct nlattr *)((u8 *)err + hdr),
		       nlh->nlmsg_len - NLMSG_HDRLEN - hdr, NULL, NULL) &&
	    tb[NLMSGERR_ATTR_MSG])
		strscpy(c->extack, nla_data(tb[NLMSGERR_ATTR_MSG]),
			sizeof(c->extack));
	return err->error;
}

/*
 * Send a request with NLM_F_ACK; the error of its ack.  A reply before
 * the ack lands in c->reply and *@reply points at it.
 */
static inline int nlc_do(struct nlc *c, struct req *r, struct nlmsghdr **reply)
{
	struct kunit *test = c->test;
	struct nlmsghdr *nlh = (struct nlmsghdr *)c->rx;
	int len;

	r->nlh->nlmsg_flags |= NLM_F_ACK;
	nlc_send(c, r);
	if (reply)
		*reply = NULL;
	len = nlc_recv(c, RXBUF_LEN);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_EXPECT_EQ(test, nlh->nlmsg_seq, c->seq);
	if (nlh->nlmsg_type == NLMSG_ERROR)
		return nlc_error(c, nlh);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	memcpy(c->reply, c->rx, len);
	*reply = (struct nlmsghdr *)c->reply;
	KUNIT_ASSERT_GT(test, nlc_recv(c, RXBUF_LEN), 0);
	KUNIT_ASSERT_EQ(test, nlh->nlmsg_type, NLMSG_ERROR);
	return nlc_error(c, nlh);
}

/* Attribute tables are too big for the stack; freed with the case. */
static inline struct nlattr **tb_alloc(struct kunit *test)
{
	struct nlattr **tb = kunit_kcalloc(test, RDMA_NLDEV_ATTR_MAX,
					   sizeof(*tb), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, tb);
	return tb;
}

static inline u64 attr_u64(struct kunit *test, struct nlattr *a)
{
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_EQ(test, nla_len(a), 8);
	return nla_get_u64(a);
}

static inline u32 attr_u32(struct kunit *test, struct nlattr *a)
{
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_EQ(test, nla_len(a), 4);
	return nla_get_u32(a);
}

static inline u8 attr_u8(struct kunit *test, struct nlattr *a)
{
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_EQ(test, nla_len(a), 1);
	return nla_get_u8(a);
}

static inline const char *attr_str(struct kunit *test, struct nlattr *a)
{
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_GT(test, nla_len(a), 0);
	KUNIT_ASSERT_EQ(test, ((char *)nla_data(a))[nla_len(a) - 1], '\0');
	return nla_data(a);
}

#endif /* KUNIT_RDMA_NLDEV_H */
