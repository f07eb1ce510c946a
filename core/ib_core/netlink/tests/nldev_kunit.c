// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_nldev": the RDMA_NL_NLDEV client
 * (core/ib_core/netlink/nldev.c, core/ib_core/netlink/link.c).
 *
 * Every case talks to ib_core through a real NETLINK_RDMA socket in the
 * initial namespace, as the rdma tool does, and checks the answers
 * against what the fake HCA driver was told to declare.
 */

#include <kunit/test.h>
#include <kunit/rdma_fake_hca.h>
#include <kunit/rdma_nldev.h>
#include <linux/file.h>
#include <linux/net.h>
#include <linux/netdevice.h>
#include <linux/netlink.h>
#include <linux/socket.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <rdma/rdma_netlink.h>

#include "../../core_priv.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* Requests and parsed attributes live on the heap: they are big. */
static struct kt_req *req_alloc(struct kunit *test)
{
	struct kt_req *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	return r;
}

/* The attributes of one nldev message. */
static void parse_reply(struct kunit *test, struct nlmsghdr *nlh,
			struct nlattr **tb)
{
	KUNIT_ASSERT_EQ(test, 0,
			nlmsg_parse_deprecated(nlh, 0, tb,
					       RDMA_NLDEV_ATTR_MAX - 1, NULL,
					       NULL));
}

/* A registered fake: port 1 InfiniBand, port 2 RoCE on its own netdev. */
static struct fake_hca *make_hca(struct kunit *test, const char *name)
{
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 2);
	struct fake_hca *hca;

	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = name;
	desc->node_guid = 0x0002fa4e12345600ULL;
	desc->sys_image_guid = 0x0002fa4e1234ff00ULL;
	desc->fw_ver = "7.8.9";
	desc->port[0].lid = 0x42;
	desc->port[0].sm_lid = 0x7;
	desc->port[0].lmc = 2;
	desc->port[0].port_cap_flags = FAKE_HCA_PORT_SM_DISABLED |
				       FAKE_HCA_PORT_CM_SUP;
	fake_hca_desc_set_eth(desc, 2);
	desc->port[1].netdev_name = "kunldev%d";
	desc->dealloc_driver = true;
	hca = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(hca));
	return hca;
}

static void rdma_nldev_get_doit(struct kunit *test)
{
	struct fake_hca *hca = make_hca(test, "kunl_get");
	struct nlattr **tb = kt_tb_alloc(test);
	struct kt_nlc *c = kt_nlc_open(test);
	struct nlmsghdr *reply;
	struct kt_req *r = req_alloc(test);

	kt_req_init(r, RDMA_NLDEV_CMD_GET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	KUNIT_ASSERT_EQ(test, kt_nlc_do(c, r, &reply), 0);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	KUNIT_EXPECT_EQ(test, reply->nlmsg_type,
			RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET));
	KUNIT_EXPECT_FALSE(test, reply->nlmsg_flags & NLM_F_MULTI);
	parse_reply(test, reply, tb);

	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_DEV_INDEX]),
			hca->ibdev.index);
	KUNIT_EXPECT_STREQ(test, kt_attr_str(test, tb[RDMA_NLDEV_ATTR_DEV_NAME]),
			   "kunl_get");
	/* On GET, the port attribute is the port count. */
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_PORT_INDEX]),
			2U);
	KUNIT_EXPECT_EQ(test, kt_attr_u64(test, tb[RDMA_NLDEV_ATTR_CAP_FLAGS]),
			hca->ibdev.attrs.device_cap_flags);
	KUNIT_EXPECT_STREQ(test,
			   kt_attr_str(test, tb[RDMA_NLDEV_ATTR_FW_VERSION]),
			   "7.8.9");
	KUNIT_EXPECT_EQ(test, kt_attr_u64(test, tb[RDMA_NLDEV_ATTR_NODE_GUID]),
			0x0002fa4e12345600ULL);
	KUNIT_EXPECT_EQ(test,
			kt_attr_u64(test, tb[RDMA_NLDEV_ATTR_SYS_IMAGE_GUID]),
			0x0002fa4e1234ff00ULL);
	KUNIT_EXPECT_EQ(test,
			kt_attr_u8(test, tb[RDMA_NLDEV_ATTR_DEV_NODE_TYPE]),
			RDMA_NODE_IB_CA);
	KUNIT_EXPECT_EQ(test, kt_attr_u8(test, tb[RDMA_NLDEV_ATTR_DEV_DIM]), 0);
	KUNIT_EXPECT_EQ(test,
			kt_attr_u8(test, tb[RDMA_NLDEV_ATTR_NAME_ASSIGN_TYPE]),
			RDMA_NAME_ASSIGN_TYPE_UNKNOWN);
	/* The first port is InfiniBand. */
	KUNIT_EXPECT_STREQ(test,
			   kt_attr_str(test, tb[RDMA_NLDEV_ATTR_DEV_PROTOCOL]),
			   "ib");
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_DEV_TYPE]);
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_PARENT_NAME]);
	KUNIT_EXPECT_EQ(test, kt_nlc_recv(c, KT_RXBUF_LEN), 0);
}

static void rdma_nldev_get_bad_requests(struct kunit *test)
{
	struct fake_hca *hca = make_hca(test, "kunl_bad");
	struct kt_nlc *c = kt_nlc_open(test);
	struct kt_req *r = req_alloc(test);

	/* No device index at all. */
	kt_req_init(r, RDMA_NLDEV_CMD_GET, 0);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "Device index is missing");

	/* An index nobody has. */
	kt_req_init(r, RDMA_NLDEV_CMD_GET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index + 100000);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "No such device");

	/* A device that is gone. */
	kt_req_init(r, RDMA_NLDEV_CMD_GET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	fake_hca_kunit_destroy(test, hca);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "No such device");
}

static void rdma_nldev_policy(struct kunit *test)
{
	struct fake_hca *hca = make_hca(test, "kunl_pol");
	struct kt_nlc *c = kt_nlc_open(test);
	char name[IB_DEVICE_NAME_MAX + 8];
	u16 idx16 = hca->ibdev.index;
	u64 idx64 = hca->ibdev.index;
	struct kt_req *r = req_alloc(test);

	/* A u32 attribute given as two or eight bytes. */
	kt_req_init(r, RDMA_NLDEV_CMD_GET, 0);
	kt_req_put(r, RDMA_NLDEV_ATTR_DEV_INDEX, &idx16, sizeof(idx16));
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_GT(test, strlen(c->extack), 0);
	kt_req_init(r, RDMA_NLDEV_CMD_GET, 0);
	kt_req_put(r, RDMA_NLDEV_ATTR_DEV_INDEX, &idx64, sizeof(idx64));
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_GT(test, strlen(c->extack), 0);

	/* A string without its NUL. */
	kt_req_init(r, RDMA_NLDEV_CMD_SET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	kt_req_put(r, RDMA_NLDEV_ATTR_DEV_NAME, "kunl_x", 6);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_GT(test, strlen(c->extack), 0);

	/* A name longer than a device name can be. */
	memset(name, 'n', sizeof(name) - 1);
	name[IB_DEVICE_NAME_MAX] = '\0';
	kt_req_init(r, RDMA_NLDEV_CMD_SET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	kt_req_str(r, RDMA_NLDEV_ATTR_DEV_NAME, name);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_GT(test, strlen(c->extack), 0);

	/* An attribute past the last one, and one nldev has no type for. */
	kt_req_init(r, RDMA_NLDEV_CMD_GET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	kt_req_u32(r, RDMA_NLDEV_ATTR_MAX + 3, 1);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_GT(test, strlen(c->extack), 0);
	kt_req_init(r, RDMA_NLDEV_CMD_GET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	kt_req_str(r, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME, "qp");
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_GT(test, strlen(c->extack), 0);

	/* Nothing of this changed the device. */
	KUNIT_EXPECT_STREQ(test, dev_name(&hca->ibdev.dev), "kunl_pol");
}

static void rdma_nldev_port_get(struct kunit *test)
{
	struct fake_hca *hca = make_hca(test, "kunl_port");
	struct net_device *ndev = fake_hca_netdev(hca, 2);
	struct nlattr **tb = kt_tb_alloc(test);
	struct kt_nlc *c = kt_nlc_open(test);
	struct nlmsghdr *reply, *nlh;
	unsigned int ports = 0;
	bool done = false;
	struct kt_req *r = req_alloc(test);
	int len;

	KUNIT_ASSERT_NOT_NULL(test, ndev);

	/* Port 1: InfiniBand. */
	kt_req_init(r, RDMA_NLDEV_CMD_PORT_GET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	kt_req_u32(r, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	KUNIT_ASSERT_EQ(test, kt_nlc_do(c, r, &reply), 0);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	/* Linux answers with the GET command, and so do we. */
	KUNIT_EXPECT_EQ(test, reply->nlmsg_type,
			RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET));
	parse_reply(test, reply, tb);
	KUNIT_EXPECT_STREQ(test, kt_attr_str(test, tb[RDMA_NLDEV_ATTR_DEV_NAME]),
			   "kunl_port");
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_PORT_INDEX]),
			1U);
	KUNIT_EXPECT_EQ(test, kt_attr_u64(test, tb[RDMA_NLDEV_ATTR_CAP_FLAGS]),
			(u64)(FAKE_HCA_PORT_SM_DISABLED | FAKE_HCA_PORT_CM_SUP));
	KUNIT_EXPECT_EQ(test,
			kt_attr_u64(test, tb[RDMA_NLDEV_ATTR_SUBNET_PREFIX]),
			0xfe80000000000000ULL);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_LID]), 0x42U);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_SM_LID]), 7U);
	KUNIT_EXPECT_EQ(test, kt_attr_u8(test, tb[RDMA_NLDEV_ATTR_LMC]), 2);
	KUNIT_EXPECT_EQ(test, kt_attr_u8(test, tb[RDMA_NLDEV_ATTR_PORT_STATE]),
			IB_PORT_ACTIVE);
	KUNIT_EXPECT_EQ(test,
			kt_attr_u8(test, tb[RDMA_NLDEV_ATTR_PORT_PHYS_STATE]),
			IB_PORT_PHYS_STATE_LINK_UP);
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_NDEV_INDEX]);

	/* Port 2: RoCE, no IB attributes, but its net device. */
	kt_req_init(r, RDMA_NLDEV_CMD_PORT_GET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	kt_req_u32(r, RDMA_NLDEV_ATTR_PORT_INDEX, 2);
	KUNIT_ASSERT_EQ(test, kt_nlc_do(c, r, &reply), 0);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	parse_reply(test, reply, tb);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_PORT_INDEX]),
			2U);
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_LID]);
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_CAP_FLAGS]);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_NDEV_INDEX]),
			(u32)ndev->ifindex);
	KUNIT_EXPECT_STREQ(test, kt_attr_str(test, tb[RDMA_NLDEV_ATTR_NDEV_NAME]),
			   ndev->name);

	/* Ports 0 and 3 do not exist; a port index is needed. */
	kt_req_init(r, RDMA_NLDEV_CMD_PORT_GET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	kt_req_u32(r, RDMA_NLDEV_ATTR_PORT_INDEX, 0);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "No such port");
	kt_req_init(r, RDMA_NLDEV_CMD_PORT_GET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	kt_req_u32(r, RDMA_NLDEV_ATTR_PORT_INDEX, 3);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "No such port");
	kt_req_init(r, RDMA_NLDEV_CMD_PORT_GET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "Port index is missing");

	/* The dump lists both ports, with the PORT_GET command. */
	kt_req_init(r, RDMA_NLDEV_CMD_PORT_GET, NLM_F_DUMP);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	kt_nlc_send(c, r);
	while (!done) {
		len = kt_nlc_recv(c, KT_RXBUF_LEN);
		KUNIT_ASSERT_GT(test, len, 0);
		nlmsg_for_each_msg(nlh, (struct nlmsghdr *)c->rx, len, len) {
			if (nlh->nlmsg_type == NLMSG_DONE) {
				done = true;
				break;
			}
			KUNIT_ASSERT_EQ(test, nlh->nlmsg_type,
					RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
							 RDMA_NLDEV_CMD_PORT_GET));
			KUNIT_EXPECT_TRUE(test, nlh->nlmsg_flags & NLM_F_MULTI);
			parse_reply(test, nlh, tb);
			ports++;
			KUNIT_EXPECT_EQ(test,
					kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_PORT_INDEX]),
					ports);
		}
	}
	KUNIT_EXPECT_EQ(test, ports, 2U);
	KUNIT_EXPECT_EQ(test, kt_nlc_recv(c, KT_RXBUF_LEN), 0);
}

static void rdma_nldev_set_rename(struct kunit *test)
{
	struct fake_hca *hca = make_hca(test, "kunl_ren");
	struct fake_hca *other = make_hca(test, "kunl_other");
	struct kt_nlc *c = kt_nlc_open(test);
	struct kt_req *r = req_alloc(test);

	kt_req_init(r, RDMA_NLDEV_CMD_SET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	kt_req_str(r, RDMA_NLDEV_ATTR_DEV_NAME, "kunl_ren2");
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), 0);
	KUNIT_EXPECT_STREQ(test, dev_name(&hca->ibdev.dev), "kunl_ren2");
	KUNIT_EXPECT_TRUE(test, fake_hca_sysfs_present("kunl_ren2"));

	/* Taken by the other device. */
	kt_req_init(r, RDMA_NLDEV_CMD_SET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	kt_req_str(r, RDMA_NLDEV_ATTR_DEV_NAME, "kunl_other");
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EEXIST);
	KUNIT_EXPECT_STREQ(test, c->extack, "Device name is taken");

	/* Names that cannot be: empty, a path, a template, a blank. */
	kt_req_init(r, RDMA_NLDEV_CMD_SET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	kt_req_str(r, RDMA_NLDEV_ATTR_DEV_NAME, "");
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "Invalid device name");
	kt_req_init(r, RDMA_NLDEV_CMD_SET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	kt_req_str(r, RDMA_NLDEV_ATTR_DEV_NAME, "a/b");
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "Invalid device name");
	kt_req_init(r, RDMA_NLDEV_CMD_SET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	kt_req_str(r, RDMA_NLDEV_ATTR_DEV_NAME, "kunl%d");
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	kt_req_init(r, RDMA_NLDEV_CMD_SET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	kt_req_str(r, RDMA_NLDEV_ATTR_DEV_NAME, "a b");
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);

	/* Nothing to set. */
	kt_req_init(r, RDMA_NLDEV_CMD_SET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "Nothing to set");

	KUNIT_EXPECT_STREQ(test, dev_name(&hca->ibdev.dev), "kunl_ren2");
	KUNIT_EXPECT_STREQ(test, dev_name(&other->ibdev.dev), "kunl_other");
}

static void rdma_nldev_set_dim_and_netns(struct kunit *test)
{
	struct fake_hca *hca = make_hca(test, "kunl_dim");
	struct nlattr **tb = kt_tb_alloc(test);
	struct kt_nlc *c = kt_nlc_open(test);
	struct nlmsghdr *reply;
	struct kt_req *r = req_alloc(test);

	kt_req_init(r, RDMA_NLDEV_CMD_SET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	kt_req_u8(r, RDMA_NLDEV_ATTR_DEV_DIM, 1);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), 0);
	KUNIT_EXPECT_TRUE(test, hca->ibdev.use_cq_dim);

	kt_req_init(r, RDMA_NLDEV_CMD_GET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	KUNIT_ASSERT_EQ(test, kt_nlc_do(c, r, &reply), 0);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	parse_reply(test, reply, tb);
	KUNIT_EXPECT_EQ(test, kt_attr_u8(test, tb[RDMA_NLDEV_ATTR_DEV_DIM]), 1);

	kt_req_init(r, RDMA_NLDEV_CMD_SET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	kt_req_u8(r, RDMA_NLDEV_ATTR_DEV_DIM, 2);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "Adaptive moderation is 0 or 1");
	KUNIT_EXPECT_TRUE(test, hca->ibdev.use_cq_dim);

	/*
	 * A namespace file descriptor the sender does not have: refused,
	 * and the device stays where it is, usable.
	 */
	kt_req_init(r, RDMA_NLDEV_CMD_SET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	kt_req_u32(r, RDMA_NLDEV_NET_NS_FD, 1000000);
	KUNIT_EXPECT_LT(test, kt_nlc_do(c, r, NULL), 0);
	KUNIT_EXPECT_GT(test, strlen(c->extack), 0);
	KUNIT_EXPECT_TRUE(test, net_eq(read_pnet(&hca->ibdev.coredev.rdma_net),
				       &init_net));
	KUNIT_EXPECT_TRUE(test, fake_hca_try_get_put(&hca->ibdev));
}

static void rdma_nldev_permissions(struct kunit *test)
{
	struct fake_hca *hca = make_hca(test, "kunl_perm");
	struct kt_req *r = req_alloc(test);

	/* Reading needs no privilege. */
	kt_req_init(r, RDMA_NLDEV_CMD_GET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	KUNIT_EXPECT_EQ(test, kt_nlc_do_unprivileged(test, r), 1);
	kt_req_init(r, RDMA_NLDEV_CMD_PORT_GET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	kt_req_u32(r, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	KUNIT_EXPECT_EQ(test, kt_nlc_do_unprivileged(test, r), 1);
	kt_req_init(r, RDMA_NLDEV_CMD_SYS_GET, 0);
	KUNIT_EXPECT_EQ(test, kt_nlc_do_unprivileged(test, r), 1);

	/* Changing anything does. */
	kt_req_init(r, RDMA_NLDEV_CMD_SET, NLM_F_ACK);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	kt_req_str(r, RDMA_NLDEV_ATTR_DEV_NAME, "kunl_perm2");
	KUNIT_EXPECT_EQ(test, kt_nlc_do_unprivileged(test, r), -EPERM);
	kt_req_init(r, RDMA_NLDEV_CMD_SYS_SET, NLM_F_ACK);
	kt_req_u8(r, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 0);
	KUNIT_EXPECT_EQ(test, kt_nlc_do_unprivileged(test, r), -EPERM);
	kt_req_init(r, RDMA_NLDEV_CMD_NEWLINK, NLM_F_ACK);
	kt_req_str(r, RDMA_NLDEV_ATTR_DEV_NAME, "kunl_perm3");
	kt_req_str(r, RDMA_NLDEV_ATTR_LINK_TYPE, FAKE_HCA_LINK_TYPE);
	kt_req_str(r, RDMA_NLDEV_ATTR_NDEV_NAME, "lo");
	KUNIT_EXPECT_EQ(test, kt_nlc_do_unprivileged(test, r), -EPERM);
	kt_req_init(r, RDMA_NLDEV_CMD_DELLINK, NLM_F_ACK);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	KUNIT_EXPECT_EQ(test, kt_nlc_do_unprivileged(test, r), -EPERM);
	kt_req_init(r, RDMA_NLDEV_CMD_STAT_SET, NLM_F_ACK);
	KUNIT_EXPECT_EQ(test, kt_nlc_do_unprivileged(test, r), -EPERM);
	kt_req_init(r, RDMA_NLDEV_CMD_STAT_DEL, NLM_F_ACK);
	KUNIT_EXPECT_EQ(test, kt_nlc_do_unprivileged(test, r), -EPERM);
	/* Admin-only commands not written yet keep upstream's answer. */
	kt_req_init(r, RDMA_NLDEV_CMD_NEWDEV, NLM_F_ACK);
	KUNIT_EXPECT_EQ(test, kt_nlc_do_unprivileged(test, r), -EPERM);

	KUNIT_EXPECT_STREQ(test, dev_name(&hca->ibdev.dev), "kunl_perm");
	KUNIT_EXPECT_TRUE(test, fake_hca_try_get_put(&hca->ibdev));
	KUNIT_EXPECT_TRUE(test, rdma_dev_access_netns(&hca->ibdev, &init_net));
}

/* SYS_GET's three values. */
static void sys_get(struct kunit *test, struct kt_nlc *c, u8 *netns,
		    u8 *qkey, u8 *cof)
{
	struct nlattr **tb = kt_tb_alloc(test);
	struct nlmsghdr *reply;
	struct kt_req *r = req_alloc(test);

	kt_req_init(r, RDMA_NLDEV_CMD_SYS_GET, 0);
	KUNIT_ASSERT_EQ(test, kt_nlc_do(c, r, &reply), 0);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	KUNIT_EXPECT_EQ(test, reply->nlmsg_type,
			RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
					 RDMA_NLDEV_CMD_SYS_GET));
	parse_reply(test, reply, tb);
	*netns = kt_attr_u8(test, tb[RDMA_NLDEV_SYS_ATTR_NETNS_MODE]);
	*qkey = kt_attr_u8(test, tb[RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE]);
	*cof = kt_attr_u8(test, tb[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK]);
}

static void restore_sys(void *data)
{
	struct kt_nlc *c = data;
	struct kt_req *r = req_alloc(c->test);

	kt_req_init(r, RDMA_NLDEV_CMD_SYS_SET, 0);
	kt_req_u8(r, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 1);
	kt_nlc_send(c, r);
	kt_req_init(r, RDMA_NLDEV_CMD_SYS_SET, 0);
	kt_req_u8(r, RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE, 0);
	kt_nlc_send(c, r);
}

static void rdma_nldev_sys_get_set(struct kunit *test)
{
	struct fake_hca *hca = make_hca(test, "kunl_sys");
	struct kt_nlc *c = kt_nlc_open(test);
	struct nlmsghdr *reply;
	u8 netns, qkey, cof;
	struct kt_req *r = req_alloc(test);

	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, restore_sys, c));

	sys_get(test, c, &netns, &qkey, &cof);
	KUNIT_EXPECT_EQ(test, netns, 1);
	KUNIT_EXPECT_EQ(test, qkey, 0);
	KUNIT_EXPECT_EQ(test, cof, 1);

	/* Exclusive mode; the device stays visible from its namespace. */
	kt_req_init(r, RDMA_NLDEV_CMD_SYS_SET, 0);
	kt_req_u8(r, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 0);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), 0);
	sys_get(test, c, &netns, &qkey, &cof);
	KUNIT_EXPECT_EQ(test, netns, 0);
	kt_req_init(r, RDMA_NLDEV_CMD_GET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, hca->ibdev.index);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, &reply), 0);
	KUNIT_EXPECT_NOT_NULL(test, reply);

	/* Neither mode 2 nor an empty request. */
	kt_req_init(r, RDMA_NLDEV_CMD_SYS_SET, 0);
	kt_req_u8(r, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 2);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack,
			   "Netns mode is 0 (exclusive) or 1 (shared)");
	kt_req_init(r, RDMA_NLDEV_CMD_SYS_SET, 0);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "Nothing to set");

	/* Back to shared; the same mode twice is no error. */
	kt_req_init(r, RDMA_NLDEV_CMD_SYS_SET, 0);
	kt_req_u8(r, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 1);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), 0);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), 0);
	sys_get(test, c, &netns, &qkey, &cof);
	KUNIT_EXPECT_EQ(test, netns, 1);

	/* Privileged Q_Key mode. */
	kt_req_init(r, RDMA_NLDEV_CMD_SYS_SET, 0);
	kt_req_u8(r, RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE, 1);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), 0);
	sys_get(test, c, &netns, &qkey, &cof);
	KUNIT_EXPECT_EQ(test, netns, 1);
	KUNIT_EXPECT_EQ(test, qkey, 1);
	kt_req_init(r, RDMA_NLDEV_CMD_SYS_SET, 0);
	kt_req_u8(r, RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE, 5);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	kt_req_init(r, RDMA_NLDEV_CMD_SYS_SET, 0);
	kt_req_u8(r, RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE, 0);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), 0);
	sys_get(test, c, &netns, &qkey, &cof);
	KUNIT_EXPECT_EQ(test, qkey, 0);
}

static void newlink_req(struct kt_req *r, const char *name, const char *type,
			const char *ndev)
{
	kt_req_init(r, RDMA_NLDEV_CMD_NEWLINK, 0);
	if (name)
		kt_req_str(r, RDMA_NLDEV_ATTR_DEV_NAME, name);
	if (type)
		kt_req_str(r, RDMA_NLDEV_ATTR_LINK_TYPE, type);
	if (ndev)
		kt_req_str(r, RDMA_NLDEV_ATTR_NDEV_NAME, ndev);
}

static void rdma_nldev_newlink_dellink(struct kunit *test)
{
	static const u8 mac[ETH_ALEN] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
	struct net_device *ndev = fake_hca_kunit_netdev(test, mac);
	struct fake_hca *plain = make_hca(test, "kunl_plain");
	struct nlattr **tb = kt_tb_alloc(test);
	struct kt_nlc *c = kt_nlc_open(test);
	struct ib_device *ibdev;
	struct nlmsghdr *reply;
	struct kt_req *r = req_alloc(test);
	u32 index;

	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(ndev));

	newlink_req(r, "kunl_link", FAKE_HCA_LINK_TYPE, ndev->name);
	KUNIT_ASSERT_EQ(test, kt_nlc_do(c, r, NULL), 0);
	ibdev = ib_device_get_by_name("kunl_link", FAKE_HCA_LINK_DRIVER_ID);
	KUNIT_ASSERT_NOT_NULL(test, ibdev);
	index = ibdev->index;
	ib_device_put(ibdev);

	/* What the link type declares, through GET and PORT_GET. */
	kt_req_init(r, RDMA_NLDEV_CMD_GET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, index);
	KUNIT_ASSERT_EQ(test, kt_nlc_do(c, r, &reply), 0);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	parse_reply(test, reply, tb);
	KUNIT_EXPECT_STREQ(test, kt_attr_str(test, tb[RDMA_NLDEV_ATTR_DEV_NAME]),
			   "kunl_link");
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_PORT_INDEX]),
			1U);
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_FW_VERSION]);
	KUNIT_EXPECT_EQ(test, kt_attr_u64(test, tb[RDMA_NLDEV_ATTR_NODE_GUID]),
			0x001122fffe334455ULL);
	KUNIT_EXPECT_EQ(test,
			kt_attr_u8(test, tb[RDMA_NLDEV_ATTR_NAME_ASSIGN_TYPE]),
			RDMA_NAME_ASSIGN_TYPE_USER);
	KUNIT_EXPECT_STREQ(test,
			   kt_attr_str(test, tb[RDMA_NLDEV_ATTR_DEV_PROTOCOL]),
			   "roce");
	kt_req_init(r, RDMA_NLDEV_CMD_PORT_GET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, index);
	kt_req_u32(r, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	KUNIT_ASSERT_EQ(test, kt_nlc_do(c, r, &reply), 0);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	parse_reply(test, reply, tb);
	KUNIT_EXPECT_STREQ(test, kt_attr_str(test, tb[RDMA_NLDEV_ATTR_NDEV_NAME]),
			   ndev->name);

	/* A second device on the same net device, or with the same name. */
	newlink_req(r, "kunl_link2", FAKE_HCA_LINK_TYPE, ndev->name);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EEXIST);
	KUNIT_EXPECT_GT(test, strlen(c->extack), 0);
	newlink_req(r, "kunl_plain", FAKE_HCA_LINK_TYPE, "lo");
	KUNIT_EXPECT_NE(test, kt_nlc_do(c, r, NULL), 0);

	/* Unknown type, missing pieces, bad names. */
	newlink_req(r, "kunl_link3", "kunl_nosuchtype", ndev->name);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "Unknown link type");
	newlink_req(r, "kunl_link3", FAKE_HCA_LINK_TYPE, "kunl_nosuchdev");
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -ENODEV);
	KUNIT_EXPECT_STREQ(test, c->extack, "No such net device");
	newlink_req(r, "kunl_link3", NULL, ndev->name);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_GT(test, strlen(c->extack), 0);
	newlink_req(r, "kunl%d", FAKE_HCA_LINK_TYPE, ndev->name);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "Invalid device name");
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("kunl_link3",
						      RDMA_DRIVER_UNKNOWN));

	/* A device that does not allow it cannot be deleted. */
	kt_req_init(r, RDMA_NLDEV_CMD_DELLINK, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, plain->ibdev.index);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack,
			   "This device cannot be deleted from user space");
	KUNIT_EXPECT_TRUE(test, fake_hca_try_get_put(&plain->ibdev));

	/* The link device can. */
	kt_req_init(r, RDMA_NLDEV_CMD_DELLINK, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, index);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), 0);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("kunl_link",
						      RDMA_DRIVER_UNKNOWN));
	KUNIT_EXPECT_FALSE(test, fake_hca_sysfs_present("kunl_link"));
	kt_req_init(r, RDMA_NLDEV_CMD_DELLINK, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, index);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
}

#define DUMP_DEVICES	40

static void rdma_nldev_dump_many(struct kunit *test)
{
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 1);
	DECLARE_BITMAP(seen, DUMP_DEVICES) = {};
	struct nlattr **tb = kt_tb_alloc(test);
	unsigned int reads = 0, ours = 0, i;
	struct kt_nlc *c = kt_nlc_open(test);
	struct nlmsghdr *nlh;
	bool done = false;
	struct kt_req *r = req_alloc(test);
	char name[IB_DEVICE_NAME_MAX];

	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->dealloc_driver = true;
	for (i = 0; i < DUMP_DEVICES; i++) {
		struct fake_hca *hca;

		snprintf(name, sizeof(name), "kunl_dump%u", i);
		desc->name = name;
		desc->node_guid = 0x0002fa4e00d00000ULL + i;
		hca = fake_hca_kunit_create_registered(test, desc);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(hca));
	}

	kt_req_init(r, RDMA_NLDEV_CMD_GET, NLM_F_DUMP);
	kt_nlc_send(c, r);
	while (!done) {
		int len = kt_nlc_recv(c, KT_RXBUF_LEN);

		KUNIT_ASSERT_GT(test, len, 0);
		reads++;
		nlmsg_for_each_msg(nlh, (struct nlmsghdr *)c->rx, len, len) {
			const char *n;

			if (nlh->nlmsg_type == NLMSG_DONE) {
				done = true;
				break;
			}
			KUNIT_ASSERT_EQ(test, nlh->nlmsg_type,
					RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
							 RDMA_NLDEV_CMD_GET));
			KUNIT_EXPECT_TRUE(test, nlh->nlmsg_flags & NLM_F_MULTI);
			KUNIT_EXPECT_EQ(test, nlh->nlmsg_seq, c->seq);
			parse_reply(test, nlh, tb);
			n = kt_attr_str(test, tb[RDMA_NLDEV_ATTR_DEV_NAME]);
			if (sscanf(n, "kunl_dump%u", &i) != 1)
				continue;
			KUNIT_ASSERT_LT(test, i, DUMP_DEVICES);
			/* Each device once, with its own GUID. */
			KUNIT_EXPECT_FALSE(test, test_and_set_bit(i, seen));
			KUNIT_EXPECT_EQ(test,
					kt_attr_u64(test, tb[RDMA_NLDEV_ATTR_NODE_GUID]),
					0x0002fa4e00d00000ULL + i);
			ours++;
		}
		KUNIT_ASSERT_LT(test, reads, 100U);
	}
	KUNIT_EXPECT_EQ(test, ours, DUMP_DEVICES);
	KUNIT_EXPECT_GE(test, reads, 2U);
	KUNIT_EXPECT_EQ(test, kt_nlc_recv(c, KT_RXBUF_LEN), 0);
}

static struct kunit_case rdma_nldev_cases[] = {
	KUNIT_CASE(rdma_nldev_get_doit),
	KUNIT_CASE(rdma_nldev_get_bad_requests),
	KUNIT_CASE(rdma_nldev_policy),
	KUNIT_CASE(rdma_nldev_port_get),
	KUNIT_CASE(rdma_nldev_set_rename),
	KUNIT_CASE(rdma_nldev_set_dim_and_netns),
	KUNIT_CASE(rdma_nldev_permissions),
	KUNIT_CASE(rdma_nldev_sys_get_set),
	KUNIT_CASE(rdma_nldev_newlink_dellink),
	KUNIT_CASE_SLOW(rdma_nldev_dump_many),
	{}
};

static struct kunit_suite rdma_nldev_suite = {
	.name = "rdma_nldev",
	.test_cases = rdma_nldev_cases,
};

kunit_test_suite(rdma_nldev_suite);

MODULE_DESCRIPTION("KUnit tests of nldev, the RDMA device netlink interface");
MODULE_LICENSE("Dual BSD/GPL");
