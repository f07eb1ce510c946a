// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_loop_link": link type "loop" of hw/loop through the
 * nldev NEWLINK and DELLINK commands, sent on a real NETLINK_RDMA socket
 * as "rdma link add NAME type loop netdev lo" and "rdma link delete NAME"
 * send them, and deletion of a device whose QPs have work posted: a test
 * client owns the QPs and must see its remove() run, with QPs of another
 * loop device still sending to the dying one.
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/file.h>
#include <linux/net.h>
#include <linux/netdevice.h>
#include <linux/netlink.h>
#include <linux/socket.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_loop.h>
#include <rdma/rdma_netlink.h>

#define RXBUF_LEN	4096
#define REQ_LEN		256
#define BUSY_SENDS	24
#define BUSY_RECVS	8

/* A NETLINK_RDMA socket and the extack text of the last error. */
struct nlc {
	struct kunit	*test;
	struct socket	*sock;
	u8		rx[RXBUF_LEN];
	u8		req[REQ_LEN];
	u32		seq;
	char		extack[128];
};

static void put_sock_file(void *data)
{
	fput(data);
}

static struct nlc *nlc_open(struct kunit *test)
{
	struct nlc *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct file *file;
	int one = 1;

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->test = test;
	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_NETLINK,
					       SOCK_RAW, NETLINK_RDMA,
					       &c->sock), 0);
	/* a file, so that netlink_capable() sees our credentials */
	file = sock_alloc_file(c->sock, 0, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(file));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, put_sock_file,
							file), 0);
	KUNIT_ASSERT_EQ(test, c->sock->ops->setsockopt(c->sock, SOL_NETLINK,
						       NETLINK_EXT_ACK,
						       KERNEL_SOCKPTR(&one),
						       sizeof(one)), 0);
	return c;
}

static struct nlmsghdr *nlc_init(struct nlc *c, u32 cmd)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)c->req;

	memset(c->req, 0, sizeof(c->req));
	nlh->nlmsg_len = NLMSG_HDRLEN;
	nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd);
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	return nlh;
}

static void nlc_put(struct nlc *c, u16 type, const void *data, u16 len)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)c->req;
	struct nlattr *nla = (struct nlattr *)(c->req + nlh->nlmsg_len);

	KUNIT_ASSERT_LE(c->test, nlh->nlmsg_len + nla_total_size(len),
			REQ_LEN);
	nla->nla_type = type;
	nla->nla_len = nla_attr_size(len);
	memcpy(nla_data(nla), data, len);
	nlh->nlmsg_len += nla_total_size(len);
}

static void nlc_str(struct nlc *c, u16 type, const char *s)
{
	nlc_put(c, type, s, strlen(s) + 1);
}

/* Send the request and return the error of its ack. */
static int nlc_do(struct nlc *c)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)c->req;
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct kvec iov = { .iov_base = c->req, .iov_len = nlh->nlmsg_len };
	struct msghdr msg = {
		.msg_name = &kernel,
		.msg_namelen = sizeof(kernel),
	};
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = {};
	struct nlmsgerr *err;
	size_t hdr;
	int len;

	nlh->nlmsg_seq = ++c->seq;
	KUNIT_ASSERT_EQ(c->test, kernel_sendmsg(c->sock, &msg, &iov, 1,
						iov.iov_len),
			(int)iov.iov_len);
	iov.iov_base = c->rx;
	iov.iov_len = RXBUF_LEN;
	memset(&msg, 0, sizeof(msg));
	len = kernel_recvmsg(c->sock, &msg, &iov, 1, RXBUF_LEN, MSG_DONTWAIT);
	KUNIT_ASSERT_GT(c->test, len, 0);
	nlh = (struct nlmsghdr *)c->rx;
	KUNIT_ASSERT_EQ(c->test, nlh->nlmsg_type, NLMSG_ERROR);
	KUNIT_EXPECT_EQ(c->test, nlh->nlmsg_seq, c->seq);

	err = nlmsg_data(nlh);
	hdr = sizeof(*err);
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

/* "rdma link add NAME type TYPE netdev NDEV" */
static int newlink(struct nlc *c, const char *name, const char *type,
		   const char *ndev)
{
	nlc_init(c, RDMA_NLDEV_CMD_NEWLINK);
	nlc_str(c, RDMA_NLDEV_ATTR_DEV_NAME, name);
	nlc_str(c, RDMA_NLDEV_ATTR_LINK_TYPE, type);
	nlc_str(c, RDMA_NLDEV_ATTR_NDEV_NAME, ndev);
	return nlc_do(c);
}

/* "rdma link delete NAME", by the device's index as the tool sends it */
static int dellink(struct nlc *c, u32 index)
{
	nlc_init(c, RDMA_NLDEV_CMD_DELLINK);
	nlc_put(c, RDMA_NLDEV_ATTR_DEV_INDEX, &index, sizeof(index));
	return nlc_do(c);
}

static bool registered(const char *name)
{
	struct ib_device *dev = ib_device_get_by_name(name,
						      RDMA_DRIVER_UNKNOWN);

	if (!dev)
		return false;
	ib_device_put(dev);
	return true;
}

/* The index of a registered device, or U32_MAX. */
static u32 index_of(const char *name)
{
	struct ib_device *dev = ib_device_get_by_name(name,
						      RDMA_DRIVER_UNKNOWN);
	u32 index;

	if (!dev)
		return U32_MAX;
	index = dev->index;
	ib_device_put(dev);
	return index;
}

/* Deletes what a failed case left behind (nothing when it passed). */
static void dellink_leftover(void *name)
{
	struct ib_device *dev = ib_device_get_by_name(name,
						      RDMA_DRIVER_UNKNOWN);

	if (dev)
		ib_unregister_device_and_put(dev);
}

static void loop_link_add_delete(struct kunit *test)
{
	struct nlc *c = nlc_open(test);
	struct net_device *ndev;
	struct ib_port_attr pa;
	struct ib_device *dev;
	u32 index;

	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, dellink_leftover,
							"kull0"), 0);
	KUNIT_ASSERT_EQ(test, newlink(c, "kull0", "loop", "lo"), 0);
	dev = ib_device_get_by_name("kull0", RDMA_DRIVER_UNKNOWN);
	KUNIT_ASSERT_NOT_NULL(test, dev);
	index = dev->index;
	KUNIT_EXPECT_TRUE(test, dev->attrs.kernel_cap_flags &
			  IBK_ALLOW_USER_UNREG);
	KUNIT_EXPECT_EQ(test, ib_query_port(dev, 1, &pa), 0);
	KUNIT_EXPECT_EQ(test, pa.state, IB_PORT_ACTIVE);
	KUNIT_EXPECT_NE(test, pa.lid, 0);
	/* the net device is not bound */
	ndev = ib_device_get_netdev(dev, 1);
	KUNIT_EXPECT_NULL(test, ndev);
	if (ndev)
		dev_put(ndev);
	ib_device_put(dev);

	/* the name is taken; bad type and net device are refused */
	KUNIT_EXPECT_EQ(test, newlink(c, "kull0", "loop", "lo"), -EEXIST);
	KUNIT_EXPECT_GT(test, strlen(c->extack), 0);
	KUNIT_EXPECT_EQ(test, newlink(c, "kull1", "loop", "kull_nodev"),
			-ENODEV);
	KUNIT_EXPECT_STREQ(test, c->extack, "No such net device");
	KUNIT_EXPECT_EQ(test, newlink(c, "kull1", "kull_notype", "lo"),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "Unknown link type");
	KUNIT_EXPECT_FALSE(test, registered("kull1"));

	KUNIT_EXPECT_EQ(test, dellink(c, index), 0);
	KUNIT_EXPECT_FALSE(test, registered("kull0"));
	KUNIT_EXPECT_NE(test, dellink(c, index), 0);
	KUNIT_EXPECT_GT(test, strlen(c->extack), 0);

	/* the name and the LID are free again */
	KUNIT_EXPECT_EQ(test, newlink(c, "kull0", "loop", "lo"), 0);
	KUNIT_EXPECT_EQ(test, dellink(c, index_of("kull0")), 0);
}

/* A device made for tests cannot be deleted from user space. */
static void loop_link_test_device_stays(struct kunit *test)
{
	struct ib_device *dev = rdma_loop_add_device("kull_t%d");
	struct nlc *c = nlc_open(test);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	KUNIT_EXPECT_EQ(test, dellink(c, dev->index), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack,
			   "This device cannot be deleted from user space");
	rdma_loop_remove_device(dev);
}

/*
 * The busy client: on "kullb" and on the peer device, QPs with sends
 * posted that wait for receives (RNR retried forever), so the
 * unregistration meets work in flight.
 */
struct busy_dev {
	struct ib_pd	*pd;
	struct ib_cq	*cq;
	struct ib_qp	*qp;
	u8		*buf;
	u64		dma;
};

static struct busy_peer {
	struct busy_dev	*dev[2];	/* [0] on kullb, [1] on the peer */
	struct ib_device *ibdev[2];
	atomic_t	removed;
	char		peer_name[IB_DEVICE_NAME_MAX];
} busy;

static struct ib_client busy_client;

/* Every work request of the busy client completes here. */
static atomic_t busy_completions;

static void busy_done(struct ib_cq *cq, struct ib_wc *wc)
{
	atomic_inc(&busy_completions);
}

static struct ib_cqe busy_cqe = { .done = busy_done };

static int busy_which(struct ib_device *ibdev)
{
	if (!strcmp(ibdev->name, "kullb"))
		return 0;
	if (busy.peer_name[0] && !strcmp(ibdev->name, busy.peer_name))
		return 1;
	return -1;
}

static void busy_free(struct busy_dev *b)
{
	if (!IS_ERR_OR_NULL(b->qp))
		ib_destroy_qp(b->qp);
	if (!IS_ERR_OR_NULL(b->cq))
		ib_free_cq(b->cq);
	if (!IS_ERR_OR_NULL(b->pd))
		ib_dealloc_pd(b->pd);
	kfree(b->buf);
	kfree(b);
}

static int busy_add(struct ib_device *ibdev)
{
	struct ib_qp_init_attr attr = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.cap = {
			.max_send_wr = BUSY_SENDS,
			.max_recv_wr = BUSY_RECVS,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.port_num = 1,
	};
	int i = busy_which(ibdev);
	struct busy_dev *b;

	if (i < 0)
		return -EOPNOTSUPP;
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	b->buf = kzalloc(64, GFP_KERNEL);
	if (!b->buf)
		goto err;
	b->pd = ib_alloc_pd(ibdev, 0);
	if (IS_ERR(b->pd))
		goto err;
	b->cq = ib_alloc_cq(ibdev, NULL, 2 * BUSY_SENDS, 0, IB_POLL_DIRECT);
	if (IS_ERR(b->cq))
		goto err;
	attr.send_cq = b->cq;
	attr.recv_cq = b->cq;
	b->qp = ib_create_qp(b->pd, &attr);
	if (IS_ERR(b->qp))
		goto err;
	b->dma = ib_dma_map_single(ibdev, b->buf, 64, DMA_BIDIRECTIONAL);
	busy.dev[i] = b;
	busy.ibdev[i] = ibdev;
	ib_set_client_data(ibdev, &busy_client, b);
	return 0;

err:
	busy_free(b);
	return -ENOMEM;
}

static void busy_remove(struct ib_device *ibdev, void *data)
{
	struct busy_dev *b = data;
	int i = busy_which(ibdev);

	/* the QP goes with work posted: destroying it flushes the work */
	ib_dma_unmap_single(ibdev, b->dma, 64, DMA_BIDIRECTIONAL);
	busy_free(b);
	if (i >= 0) {
		busy.dev[i] = NULL;
		busy.ibdev[i] = NULL;
	}
	atomic_inc(&busy.removed);
}

static struct ib_client busy_client = {
	.name = "loop_link_kunit",
	.add = busy_add,
	.remove = busy_remove,
};

static u32 lid_of(struct ib_device *dev)
{
	return rdma_loop_port_lid(dev);
}

static int busy_connect(struct ib_qp *qp, u32 dqpn, u32 dlid)
{
	struct rdma_loop_conn conn = {
		.dqpn = dqpn,
		.dlid = dlid,
		.access = IB_ACCESS_REMOTE_WRITE,
		.rnr_retry = 7,	/* for ever */
		.mtu = IB_MTU_1024,
	};

	return rdma_loop_connect_qp(qp, &conn, IB_QPS_RTS);
}

/* Post @n sends and @r receives on @b. */
static int busy_post(struct busy_dev *b, int n, int r)
{
	struct ib_sge sge = {
		.addr = b->dma,
		.length = 64,
		.lkey = b->pd->local_dma_lkey,
	};
	struct ib_send_wr swr = {
		.wr_cqe = &busy_cqe,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IB_WR_SEND,
	};
	struct ib_recv_wr rwr = {
		.wr_cqe = &busy_cqe,
		.sg_list = &sge,
		.num_sge = 1,
	};
	int i, ret;

	for (i = 0; i < r; i++) {
		ret = ib_post_recv(b->qp, &rwr, NULL);
		if (ret)
			return ret;
	}
	for (i = 0; i < n; i++) {
		ret = ib_post_send(b->qp, &swr, NULL);
		if (ret)
			return ret;
	}
	return 0;
}

static void unregister_busy_client(void *unused)
{
	ib_unregister_client(&busy_client);
	memset(&busy, 0, sizeof(busy));
}

static void remove_loop(void *dev)
{
	rdma_loop_remove_device(dev);
}

static void loop_link_delete_busy(struct kunit *test)
{
	struct nlc *c = nlc_open(test);
	struct busy_dev *b0, *b1;
	struct ib_device *peer;
	u32 index;

	memset(&busy, 0, sizeof(busy));
	peer = rdma_loop_add_device("kull_p%d");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, peer);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, remove_loop,
							peer), 0);
	strscpy(busy.peer_name, peer->name, sizeof(busy.peer_name));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, dellink_leftover,
							"kullb"), 0);
	KUNIT_ASSERT_EQ(test, newlink(c, "kullb", "loop", "lo"), 0);
	KUNIT_ASSERT_EQ(test, ib_register_client(&busy_client), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							unregister_busy_client,
							NULL), 0);
	b0 = busy.dev[0];
	b1 = busy.dev[1];
	KUNIT_ASSERT_NOT_NULL(test, b0);
	KUNIT_ASSERT_NOT_NULL(test, b1);

	/* kullb <-> peer, each side short of receives */
	KUNIT_ASSERT_EQ(test, busy_connect(b0->qp, b1->qp->qp_num,
					   lid_of(busy.ibdev[1])), 0);
	KUNIT_ASSERT_EQ(test, busy_connect(b1->qp, b0->qp->qp_num,
					   lid_of(busy.ibdev[0])), 0);
	KUNIT_ASSERT_EQ(test, busy_post(b0, BUSY_SENDS, BUSY_RECVS), 0);
	KUNIT_ASSERT_EQ(test, busy_post(b1, BUSY_SENDS, BUSY_RECVS), 0);
	/* some sends landed, the rest wait in RNR retries */
	msleep(50);
	atomic_set(&busy_completions, 0);
	ib_process_cq_direct(b0->cq, -1);
	KUNIT_EXPECT_GT(test, atomic_read(&busy_completions), 0);
	KUNIT_EXPECT_LT(test, atomic_read(&busy_completions),
			BUSY_SENDS + BUSY_RECVS);

	index = busy.ibdev[0]->index;
	KUNIT_EXPECT_EQ(test, dellink(c, index), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&busy.removed), 1);
	KUNIT_EXPECT_NULL(test, busy.dev[0]);
	KUNIT_EXPECT_FALSE(test, registered("kullb"));

	/* the peer's QP keeps sending to a LID that is gone, harmlessly */
	KUNIT_EXPECT_EQ(test, busy_post(b1, 1, 0), 0);
	msleep(200);
	atomic_set(&busy_completions, 0);
	ib_process_cq_direct(b1->cq, -1);
	KUNIT_EXPECT_GT(test, atomic_read(&busy_completions), 0);
	KUNIT_EXPECT_TRUE(test, registered(busy.peer_name));
}

static struct kunit_case loop_link_cases[] = {
	KUNIT_CASE(loop_link_add_delete),
	KUNIT_CASE(loop_link_test_device_stays),
	KUNIT_CASE(loop_link_delete_busy),
	{}
};

static struct kunit_suite loop_link_suite = {
	.name = "rdma_loop_link",
	.test_cases = loop_link_cases,
};

kunit_test_suite(loop_link_suite);

MODULE_DESCRIPTION("KUnit tests of the rdma_loop link type");
MODULE_LICENSE("Dual BSD/GPL");
