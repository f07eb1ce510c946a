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
#include <linux/fs.h>
#include <linux/net.h>
#include <linux/netlink.h>
#include <linux/socket.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <rdma/rdma_netlink.h>

#define KT_RXBUF_LEN	16384
#define KT_REQ_LEN		512

/* A request being built. */
struct kt_req {
	u8 buf[KT_REQ_LEN];
	struct nlmsghdr *nlh;
};

/* A NETLINK_RDMA socket, its receive buffer and the last ack's text. */
struct kt_nlc {
	struct kunit *test;
	struct socket *sock;
	u8 *rx;
	u8 *reply;
	u32 seq;
	char extack[128];
	/* requests are sent with these credentials when set */
	const struct cred *cred;
};

static inline void kt_put_sock_file(void *data)
{
	fput(data);
}

static inline struct kt_nlc *kt_nlc_open(struct kunit *test)
{
	struct kt_nlc *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct file *file;
	int one = 1;

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->rx = kunit_kzalloc(test, KT_RXBUF_LEN, GFP_KERNEL);
	c->reply = kunit_kzalloc(test, KT_RXBUF_LEN, GFP_KERNEL);
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
			kunit_add_action_or_reset(test, kt_put_sock_file, file));
	KUNIT_ASSERT_EQ(test, 0,
			c->sock->ops->setsockopt(c->sock, SOL_NETLINK,
						 NETLINK_EXT_ACK,
						 KERNEL_SOCKPTR(&one),
						 sizeof(one)));
	return c;
}

static inline void kt_req_init(struct kt_req *r, u32 cmd, u16 flags)
{
	memset(r->buf, 0, sizeof(r->buf));
	r->nlh = (struct nlmsghdr *)r->buf;
	r->nlh->nlmsg_len = NLMSG_HDRLEN;
	r->nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd);
	r->nlh->nlmsg_flags = NLM_F_REQUEST | flags;
}

/* Append an attribute of any length, even a wrong one. */
static inline void kt_req_put(struct kt_req *r, u16 type, const void *data, u16 len)
{
	struct nlattr *nla = (struct nlattr *)(r->buf + r->nlh->nlmsg_len);

	if (WARN_ON(r->nlh->nlmsg_len + nla_total_size(len) > KT_REQ_LEN))
		return;
	nla->nla_type = type;
	nla->nla_len = nla_attr_size(len);
	memcpy(nla_data(nla), data, len);
	r->nlh->nlmsg_len += nla_total_size(len);
}

static inline void kt_req_u32(struct kt_req *r, u16 type, u32 v)
{
	kt_req_put(r, type, &v, sizeof(v));
}

static inline void kt_req_u8(struct kt_req *r, u16 type, u8 v)
{
	kt_req_put(r, type, &v, sizeof(v));
}

static inline void kt_req_str(struct kt_req *r, u16 type, const char *s)
{
	kt_req_put(r, type, s, strlen(s) + 1);
}

static inline void kt_nlc_send(struct kt_nlc *c, struct kt_req *r)
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
static inline int kt_nlc_recv(struct kt_nlc *c, int len)
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
static inline int kt_nlc_error(struct kt_nlc *c, struct nlmsghdr *nlh)
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
static inline int kt_nlc_do(struct kt_nlc *c, struct kt_req *r, struct nlmsghdr **reply)
{
	struct kunit *test = c->test;
	struct nlmsghdr *nlh = (struct nlmsghdr *)c->rx;
	int len;

	r->nlh->nlmsg_flags |= NLM_F_ACK;
	kt_nlc_send(c, r);
	if (reply)
		*reply = NULL;
	len = kt_nlc_recv(c, KT_RXBUF_LEN);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_EXPECT_EQ(test, nlh->nlmsg_seq, c->seq);
	if (nlh->nlmsg_type == NLMSG_ERROR)
		return kt_nlc_error(c, nlh);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	memcpy(c->reply, c->rx, len);
	*reply = (struct nlmsghdr *)c->reply;
	KUNIT_ASSERT_GT(test, kt_nlc_recv(c, KT_RXBUF_LEN), 0);
	KUNIT_ASSERT_EQ(test, nlh->nlmsg_type, NLMSG_ERROR);
	return kt_nlc_error(c, nlh);
}

/*
 * Send @r from a socket opened without CAP_NET_ADMIN (netlink_capable()
 * judges the opener's credentials); the error of its ack, 1 when a reply
 * came instead.  A refusal for lack of the capability must say so.
 */
static inline int kt_nlc_do_unprivileged(struct kunit *test, struct kt_req *r)
{
	const struct cred *old;
	struct cred *cred;
	struct kt_nlc *c;
	int err;

	cred = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, cred);
	cap_lower(cred->cap_effective, CAP_NET_ADMIN);
	old = override_creds(cred);
	c = kt_nlc_open(test);
	kt_nlc_send(c, r);
	revert_creds(old);
	put_cred(cred);

	KUNIT_ASSERT_GT(test, kt_nlc_recv(c, KT_RXBUF_LEN), 0);
	if (((struct nlmsghdr *)c->rx)->nlmsg_type != NLMSG_ERROR)
		return 1;	/* a reply: the request was served */
	err = kt_nlc_error(c, (struct nlmsghdr *)c->rx);
	if (err == -EPERM)
		KUNIT_EXPECT_STREQ(test, c->extack,
				   "Operation needs CAP_NET_ADMIN");
	return err;
}

/* Attribute tables are too big for the stack; freed with the case. */
static inline struct nlattr **kt_tb_alloc(struct kunit *test)
{
	struct nlattr **tb = kunit_kcalloc(test, RDMA_NLDEV_ATTR_MAX,
					   sizeof(*tb), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, tb);
	return tb;
}

static inline u64 kt_attr_u64(struct kunit *test, struct nlattr *a)
{
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_EQ(test, nla_len(a), 8);
	return nla_get_u64(a);
}

static inline u32 kt_attr_u32(struct kunit *test, struct nlattr *a)
{
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_EQ(test, nla_len(a), 4);
	return nla_get_u32(a);
}

static inline u8 kt_attr_u8(struct kunit *test, struct nlattr *a)
{
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_EQ(test, nla_len(a), 1);
	return nla_get_u8(a);
}

static inline const char *kt_attr_str(struct kunit *test, struct nlattr *a)
{
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_GT(test, nla_len(a), 0);
	KUNIT_ASSERT_EQ(test, ((char *)nla_data(a))[nla_len(a) - 1], '\0');
	return nla_data(a);
}

/* What a GET_CHARDEV reply says. */
struct kt_chardev {
	char name[RDMA_NLDEV_ATTR_CHARDEV_TYPE_SIZE];
	u64 devt;
	u64 abi;
	u32 driver_id;	/* RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID, U32_MAX if none */
};

/* no device index in the request */
#define KT_NO_DEV	U32_MAX

/*
 * GET_CHARDEV of @type (none when NULL) on device @index, port @port
 * (none when 0); the reply's attributes go to @out.  Returns the ack's
 * error, its text in @c->extack.
 */
static inline int kt_chardev(struct kt_nlc *c, u32 index, u32 port,
			     const char *type, struct kt_chardev *out)
{
	struct kunit *test = c->test;
	struct nlattr **tb = kt_tb_alloc(test);
	struct nlmsghdr *reply;
	struct kt_req *r;
	int ret;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	kt_req_init(r, RDMA_NLDEV_CMD_GET_CHARDEV, 0);
	if (index != KT_NO_DEV)
		kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, index);
	if (port)
		kt_req_u32(r, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	if (type)
		kt_req_str(r, RDMA_NLDEV_ATTR_CHARDEV_TYPE, type);
	ret = kt_nlc_do(c, r, &reply);
	if (ret) {
		KUNIT_EXPECT_NULL(test, reply);
		return ret;
	}
	KUNIT_ASSERT_NOT_NULL(test, reply);
	KUNIT_EXPECT_EQ(test, reply->nlmsg_type,
			RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
					 RDMA_NLDEV_CMD_GET_CHARDEV));
	KUNIT_ASSERT_EQ(test, nla_parse_deprecated(tb, RDMA_NLDEV_ATTR_MAX - 1,
						   nlmsg_attrdata(reply, 0),
						   nlmsg_attrlen(reply, 0),
						   NULL, NULL), 0);
	strscpy(out->name, kt_attr_str(test, tb[RDMA_NLDEV_ATTR_CHARDEV_NAME]),
		sizeof(out->name));
	out->devt = kt_attr_u64(test, tb[RDMA_NLDEV_ATTR_CHARDEV]);
	out->abi = kt_attr_u64(test, tb[RDMA_NLDEV_ATTR_CHARDEV_ABI]);
	out->driver_id = tb[RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID] ?
		kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID]) :
		U32_MAX;
	return 0;
}

/* The text of the file at @path (sysfs), without its newline, in @buf. */
static inline void kt_sysfs_read(struct kunit *test, const char *path,
				 char *buf, size_t len)
{
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	f = filp_open(path, O_RDONLY, 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(f), "%s: %d", path,
			       PTR_ERR_OR_ZERO(f));
	n = kernel_read(f, buf, len - 1, &pos);
	filp_close(f, NULL);
	KUNIT_ASSERT_GT_MSG(test, n, 0, "%s", path);
	buf[n] = '\0';
	if (buf[n - 1] == '\n')
		buf[n - 1] = '\0';
}

#endif /* KUNIT_RDMA_NLDEV_H */
