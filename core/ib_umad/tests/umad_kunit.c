// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_umad": the parts of ib_umad's write() that user
 * space cannot watch directly (core/ib_umad/umad_send.c): which sends count as
 * duplicates of one in flight, and the address handle built from a
 * struct ib_user_mad_hdr, read back with rdma_query_ah() on a loop
 * device; and the answers of clients "umad" and "issm" to nldev's
 * RDMA_NLDEV_CMD_GET_CHARDEV (core/ib_umad/umad_nl.c,
 * core/ib_core/netlink/nldev_chardev.c), checked against the class's sysfs.
 * The ABI end to end is scenario 70-umad.sh's (umadtest).
 */
#include <kunit/test.h>
#include <kunit/rdma_loop.h>
#include <kunit/rdma_nldev.h>
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/slab.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>

#include "../umad_priv.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define KU_CLASS	0x09
#define KU_TID		cpu_to_be64(0x0000002a00001234ULL)

/* A send as write() keeps it: the user header and the MAD header. */
static struct ib_umad_packet *ku_packet(struct kunit *test, u8 mgmt_class,
					u8 method, __be64 tid, u16 lid,
					const u8 *gid)
{
	struct ib_umad_packet *p;
	struct ib_mad_hdr *hdr;

	p = kunit_kzalloc(test, sizeof(*p) + IB_MGMT_RMPP_HDR, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	hdr = (struct ib_mad_hdr *)p->mad.data;
	hdr->base_version = IB_MGMT_BASE_VERSION;
	hdr->mgmt_class = mgmt_class;
	hdr->class_version = 1;
	hdr->method = method;
	hdr->tid = tid;
	p->mad.hdr.lid = cpu_to_be16(lid);
	if (gid) {
		p->mad.hdr.grh_present = 1;
		memcpy(p->mad.hdr.gid, gid, sizeof(p->mad.hdr.gid));
	}
	return p;
}

static struct ib_umad_file *ku_file(struct kunit *test)
{
	struct ib_umad_file *file = kunit_kzalloc(test, sizeof(*file),
						  GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, file);
	INIT_LIST_HEAD(&file->send_list);
	spin_lock_init(&file->send_lock);
	return file;
}

/* Is @p a duplicate of @sent, the file's only send in flight? */
static bool ku_dup(struct kunit *test, struct ib_umad_packet *sent,
		   struct ib_umad_packet *p)
{
	struct ib_umad_file *file = ku_file(test);
	bool dup;

	list_add_tail(&sent->list, &file->send_list);
	dup = umad_is_duplicate(file, p);
	list_del(&sent->list);
	return dup;
}

/* Two requests with one TID and class: whatever their destinations. */
static void umad_dup_requests(struct kunit *test)
{
	struct ib_umad_packet *a, *b;

	a = ku_packet(test, KU_CLASS, IB_MGMT_METHOD_GET, KU_TID, 1, NULL);
	b = ku_packet(test, KU_CLASS, IB_MGMT_METHOD_SET, KU_TID, 7, NULL);
	KUNIT_EXPECT_TRUE(test, ku_dup(test, a, b));
	KUNIT_EXPECT_FALSE(test, umad_is_duplicate(ku_file(test), b));
}

/* Another TID or another class is no duplicate. */
static void umad_dup_other_tid_or_class(struct kunit *test)
{
	struct ib_umad_packet *a, *b, *c;

	a = ku_packet(test, KU_CLASS, IB_MGMT_METHOD_GET, KU_TID, 1, NULL);
	b = ku_packet(test, KU_CLASS, IB_MGMT_METHOD_GET,
		      cpu_to_be64(0x0000002a00001235ULL), 1, NULL);
	c = ku_packet(test, KU_CLASS + 1, IB_MGMT_METHOD_GET, KU_TID, 1, NULL);
	KUNIT_EXPECT_FALSE(test, ku_dup(test, a, b));
	KUNIT_EXPECT_FALSE(test, ku_dup(test, a, c));
}

/* A request and a response never clash, in either order. */
static void umad_dup_request_vs_response(struct kunit *test)
{
	struct ib_umad_packet *req, *resp;

	req = ku_packet(test, KU_CLASS, IB_MGMT_METHOD_GET, KU_TID, 1, NULL);
	resp = ku_packet(test, KU_CLASS, IB_MGMT_METHOD_GET_RESP, KU_TID, 1,
			 NULL);
	KUNIT_EXPECT_FALSE(test, ku_dup(test, req, resp));
	KUNIT_EXPECT_FALSE(test, ku_dup(test, resp, req));
}

/* Two responses clash only towards the same LID or GID. */
static void umad_dup_responses(struct kunit *test)
{
	static const u8 gid1[16] = { 0xfe, 0x80, [15] = 1 };
	static const u8 gid2[16] = { 0xfe, 0x80, [15] = 2 };
	struct ib_umad_packet *a, *b, *c, *g1, *g1b, *g2;
	u8 m = IB_MGMT_METHOD_GET_RESP;

	a = ku_packet(test, KU_CLASS, m, KU_TID, 5, NULL);
	b = ku_packet(test, KU_CLASS, m, KU_TID, 5, NULL);
	c = ku_packet(test, KU_CLASS, m, KU_TID, 6, NULL);
	KUNIT_EXPECT_TRUE(test, ku_dup(test, a, b));
	KUNIT_EXPECT_FALSE(test, ku_dup(test, a, c));

	/* with a GRH the GID decides, the LID does not count */
	g1 = ku_packet(test, KU_CLASS, m, KU_TID, 5, gid1);
	g1b = ku_packet(test, KU_CLASS, m, KU_TID, 9, gid1);
	g2 = ku_packet(test, KU_CLASS, m, KU_TID, 5, gid2);
	KUNIT_EXPECT_TRUE(test, ku_dup(test, g1, g1b));
	KUNIT_EXPECT_FALSE(test, ku_dup(test, g1, g2));
	/* one with a GRH and one without are different destinations */
	KUNIT_EXPECT_FALSE(test, ku_dup(test, a, g1));
	KUNIT_EXPECT_FALSE(test, ku_dup(test, g1, a));
}

/* Every send in flight is looked at, not only the first. */
static void umad_dup_second_in_list(struct kunit *test)
{
	struct ib_umad_file *file = ku_file(test);
	struct ib_umad_packet *a, *b, *c;

	a = ku_packet(test, KU_CLASS, IB_MGMT_METHOD_GET,
		      cpu_to_be64(1), 1, NULL);
	b = ku_packet(test, KU_CLASS, IB_MGMT_METHOD_GET, KU_TID, 1, NULL);
	c = ku_packet(test, KU_CLASS, IB_MGMT_METHOD_GET, KU_TID, 2, NULL);
	list_add_tail(&a->list, &file->send_list);
	list_add_tail(&b->list, &file->send_list);
	KUNIT_EXPECT_TRUE(test, umad_is_duplicate(file, c));
	list_del(&b->list);
	KUNIT_EXPECT_FALSE(test, umad_is_duplicate(file, c));
	list_del(&a->list);
}

static void ku_unregister(void *agent)
{
	ib_unregister_mad_agent(agent);
}

static void ku_destroy_ah(void *ah)
{
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
}

static void ku_send_handler(struct ib_mad_agent *agent,
			    struct ib_mad_send_wc *wc)
{
}

/* An agent on QP1 of a new loop device, and a file of its port 1. */
static struct ib_mad_agent *ku_agent(struct kunit *test,
				     struct ib_umad_file **filep)
{
	struct kt_vt *vt = kt_new_vt_named(test, "kuumad%d");
	struct ib_umad_port *port;
	struct ib_mad_agent *agent;

	agent = ib_register_mad_agent(vt->dev, 1, IB_QPT_GSI, NULL, 0,
				      ku_send_handler, NULL, NULL, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, agent);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ku_unregister,
							agent), 0);
	port = kunit_kzalloc(test, sizeof(*port), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, port);
	port->port_num = 1;
	port->ib_dev = vt->dev;
	*filep = ku_file(test);
	(*filep)->port = port;
	return agent;
}

/* LID, SL and path bits of the header make the address, on our port. */
static void umad_ah_from_lid(struct kunit *test)
{
	struct ib_user_mad_hdr hdr = {
		.lid = cpu_to_be16(0x0017),
		.sl = 5,
		.path_bits = 3,
		.qpn = cpu_to_be32(1),
	};
	struct rdma_ah_attr attr = {};
	struct ib_umad_file *file;
	struct ib_mad_agent *agent = ku_agent(test, &file);
	struct ib_ah *ah;

	ah = umad_create_ah(file, agent, &hdr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ku_destroy_ah,
							ah), 0);
	KUNIT_ASSERT_EQ(test, rdma_query_ah(ah, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.type, RDMA_AH_ATTR_TYPE_IB);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&attr), 0x0017);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&attr), 5);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_path_bits(&attr), 3);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_port_num(&attr), 1);
	KUNIT_EXPECT_FALSE(test, rdma_ah_get_ah_flags(&attr) & IB_AH_GRH);
}

/* With grh_present the global route comes from the header too. */
static void umad_ah_with_grh(struct kunit *test)
{
	struct ib_user_mad_hdr hdr = {
		.lid = cpu_to_be16(0x0021),
		.grh_present = 1,
		.gid_index = 0,
		.hop_limit = 64,
		.traffic_class = 0x12,
		.flow_label = cpu_to_be32(0x5678),
		.gid = { 0xfe, 0x80, [8] = 2, [15] = 0x99 },
	};
	const struct ib_global_route *grh;
	struct rdma_ah_attr attr = {};
	struct ib_umad_file *file;
	struct ib_mad_agent *agent = ku_agent(test, &file);
	struct ib_ah *ah;

	ah = umad_create_ah(file, agent, &hdr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ku_destroy_ah,
							ah), 0);
	KUNIT_ASSERT_EQ(test, rdma_query_ah(ah, &attr), 0);
	KUNIT_ASSERT_TRUE(test, rdma_ah_get_ah_flags(&attr) & IB_AH_GRH);
	grh = rdma_ah_read_grh(&attr);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&attr), 0x0021);
	KUNIT_EXPECT_EQ(test, grh->hop_limit, 64);
	KUNIT_EXPECT_EQ(test, grh->traffic_class, 0x12);
	KUNIT_EXPECT_EQ(test, grh->flow_label, 0x5678);
	KUNIT_EXPECT_EQ(test, grh->sgid_index, 0);
	KUNIT_EXPECT_MEMEQ(test, grh->dgid.raw, hdr.gid, sizeof(hdr.gid));
}

/* A GID index the port does not have is refused, not a splat. */
static void umad_ah_bad_gid_index(struct kunit *test)
{
	struct ib_user_mad_hdr hdr = {
		.lid = cpu_to_be16(1),
		.grh_present = 1,
		.gid_index = 200,
		.hop_limit = 1,
	};
	struct ib_umad_file *file;
	struct ib_mad_agent *agent = ku_agent(test, &file);
	struct ib_ah *ah;

	ah = umad_create_ah(file, agent, &hdr);
	KUNIT_EXPECT_TRUE(test, IS_ERR(ah));
	if (!IS_ERR(ah))
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	else
		KUNIT_EXPECT_EQ(test, PTR_ERR(ah), -EINVAL);
}

/* ------------------------------------------------------------------
 * RDMA_NLDEV_CMD_GET_CHARDEV
 */

/* /sys/class/infiniband_mad/@name/@attr without its newline, in @buf. */
static void ku_class_attr(struct kunit *test, const char *name,
			  const char *attr, char *buf, size_t len)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/class/infiniband_mad/%s/%s", name,
		 attr);
	kt_sysfs_read(test, path, buf, len);
}

/*
 * The reply names a device of class infiniband_mad that belongs to
 * port @port of @dev, with the device number sysfs shows.
 */
static void ku_check_class(struct kunit *test, const struct kt_chardev *cd,
			   struct ib_device *dev, u32 port)
{
	dev_t devt = huge_decode_dev(cd->devt);
	char buf[64], want[32];

	ku_class_attr(test, cd->name, "ibdev", buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, dev_name(&dev->dev));
	ku_class_attr(test, cd->name, "port", buf, sizeof(buf));
	snprintf(want, sizeof(want), "%u", port);
	KUNIT_EXPECT_STREQ(test, buf, want);
	ku_class_attr(test, cd->name, "dev", buf, sizeof(buf));
	snprintf(want, sizeof(want), "%u:%u", MAJOR(devt), MINOR(devt));
	KUNIT_EXPECT_STREQ(test, buf, want);
	KUNIT_EXPECT_EQ(test, cd->abi, 5ULL);
}

/* The number N of "<prefix>N", or -1. */
static int ku_num(const char *name, const char *prefix)
{
	size_t len = strlen(prefix);
	unsigned int n;

	if (strncmp(name, prefix, len) || kstrtouint(name + len, 10, &n))
		return -1;
	return n;
}

/* umadN of port 1 of two devices: each its own, as sysfs has them. */
static void umad_chardev_umad(struct kunit *test)
{
	struct kt_vt *a = kt_new_vt_named(test, "kuumad%d");
	struct kt_vt *b = kt_new_vt_named(test, "kuumad%d");
	struct kt_nlc *c = kt_nlc_open(test);
	struct kt_chardev ca = {}, cb = {};

	KUNIT_ASSERT_EQ(test, kt_chardev(c, a->dev->index, 1, "umad", &ca), 0);
	KUNIT_ASSERT_GE(test, ku_num(ca.name, "umad"), 0);
	ku_check_class(test, &ca, a->dev, 1);
	KUNIT_ASSERT_EQ(test, kt_chardev(c, b->dev->index, 1, "umad", &cb), 0);
	KUNIT_ASSERT_GE(test, ku_num(cb.name, "umad"), 0);
	ku_check_class(test, &cb, b->dev, 1);
	KUNIT_EXPECT_STRNEQ(test, ca.name, cb.name);
	KUNIT_EXPECT_NE(test, ca.devt, cb.devt);
	/* umad0..63 have the fixed numbers 231:0..63 */
	if (ku_num(ca.name, "umad") < IB_UMAD_NUM_FIXED_MINOR)
		KUNIT_EXPECT_EQ(test, huge_decode_dev(ca.devt),
				MKDEV(IB_UMAD_MAJOR, ku_num(ca.name, "umad")));
}

/* issmN of port 1: the N of the port's umadN, its own device number. */
static void umad_chardev_issm(struct kunit *test)
{
	struct kt_vt *vt = kt_new_vt_named(test, "kuumad%d");
	struct kt_nlc *c = kt_nlc_open(test);
	struct kt_chardev umad = {}, issm = {};
	int n;

	KUNIT_ASSERT_EQ(test, kt_chardev(c, vt->dev->index, 1, "umad", &umad),
			0);
	KUNIT_ASSERT_EQ(test, kt_chardev(c, vt->dev->index, 1, "issm", &issm),
			0);
	n = ku_num(issm.name, "issm");
	KUNIT_ASSERT_GE(test, n, 0);
	KUNIT_EXPECT_EQ(test, n, ku_num(umad.name, "umad"));
	ku_check_class(test, &issm, vt->dev, 1);
	KUNIT_EXPECT_NE(test, issm.devt, umad.devt);
	if (n < IB_UMAD_NUM_FIXED_MINOR)
		KUNIT_EXPECT_EQ(test, huge_decode_dev(issm.devt),
				MKDEV(IB_UMAD_MAJOR, IB_ISSM_MINOR_BASE + n));
}

/* Both need a port: a device alone is refused, with the reason. */
static void umad_chardev_missing_port(struct kunit *test)
{
	struct kt_vt *vt = kt_new_vt_named(test, "kuumad%d");
	struct kt_nlc *c = kt_nlc_open(test);
	struct kt_chardev cd = {};

	KUNIT_EXPECT_EQ(test, kt_chardev(c, vt->dev->index, 0, "umad", &cd),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack,
			   "This character device needs a port index");
	KUNIT_EXPECT_EQ(test, kt_chardev(c, vt->dev->index, 0, "issm", &cd),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack,
			   "This character device needs a port index");
	/* Without a device: neither offers a global character device. */
	KUNIT_EXPECT_EQ(test, kt_chardev(c, KT_NO_DEV, 0, "umad", &cd),
			-EOPNOTSUPP);
	KUNIT_EXPECT_STREQ(test, c->extack,
			   "No client provides this character device");
	KUNIT_EXPECT_EQ(test, kt_chardev(c, KT_NO_DEV, 0, "issm", &cd),
			-EOPNOTSUPP);
}

/* Ports the device does not have, and a port without its device. */
static void umad_chardev_bad_port(struct kunit *test)
{
	struct kt_vt *vt = kt_new_vt_named(test, "kuumad%d");
	struct kt_nlc *c = kt_nlc_open(test);
	u32 past = rdma_end_port(vt->dev) + 1;
	struct kt_chardev cd = {};

	KUNIT_EXPECT_EQ(test, kt_chardev(c, vt->dev->index, past, "umad",
					 &cd), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "No such port");
	KUNIT_EXPECT_EQ(test, kt_chardev(c, vt->dev->index, 0x7fffffff, "issm",
					 &cd), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "No such port");
	KUNIT_EXPECT_EQ(test, kt_chardev(c, KT_NO_DEV, 1, "umad", &cd),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "A port needs its device index");
}

/* A type no client has (even after modprobe), and no type at all. */
static void umad_chardev_unknown_type(struct kunit *test)
{
	struct kt_vt *vt = kt_new_vt_named(test, "kuumad%d");
	struct kt_nlc *c = kt_nlc_open(test);
	struct kt_chardev cd = {};

	KUNIT_EXPECT_EQ(test, kt_chardev(c, vt->dev->index, 1, "kunosuch",
					 &cd), -EOPNOTSUPP);
	KUNIT_EXPECT_STREQ(test, c->extack,
			   "No client provides this character device");
	KUNIT_EXPECT_EQ(test, kt_chardev(c, KT_NO_DEV, 0, "kunosuch", &cd),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, kt_chardev(c, vt->dev->index, 1, NULL, &cd),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack,
			   "Character device type is missing");
}

/* A device index nobody has, and one whose device was removed. */
static void umad_chardev_no_device(struct kunit *test)
{
	struct ib_device *dev = rdma_loop_add_device("kuumad%d");
	struct kt_nlc *c = kt_nlc_open(test);
	struct kt_chardev cd = {};
	u32 index;

	KUNIT_EXPECT_EQ(test, kt_chardev(c, 0x7ffffff0, 1, "umad", &cd),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "No such device");

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_remove_loop,
							dev), 0);
	index = dev->index;
	/* the reply's reference to umadN does not hold the removal up */
	KUNIT_EXPECT_EQ(test, kt_chardev(c, index, 1, "umad", &cd), 0);
	kunit_release_action(test, kt_remove_loop, dev);
	KUNIT_EXPECT_EQ(test, kt_chardev(c, index, 1, "umad", &cd), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "No such device");
}

static struct kunit_case rdma_umad_cases[] = {
	KUNIT_CASE(umad_dup_requests),
	KUNIT_CASE(umad_dup_other_tid_or_class),
	KUNIT_CASE(umad_dup_request_vs_response),
	KUNIT_CASE(umad_dup_responses),
	KUNIT_CASE(umad_dup_second_in_list),
	KUNIT_CASE(umad_ah_from_lid),
	KUNIT_CASE(umad_ah_with_grh),
	KUNIT_CASE(umad_ah_bad_gid_index),
	KUNIT_CASE(umad_chardev_umad),
	KUNIT_CASE(umad_chardev_issm),
	KUNIT_CASE(umad_chardev_missing_port),
	KUNIT_CASE(umad_chardev_bad_port),
	KUNIT_CASE(umad_chardev_unknown_type),
	KUNIT_CASE(umad_chardev_no_device),
	{}
};

static struct kunit_suite rdma_umad_suite = {
	.name = "rdma_umad",
	.test_cases = rdma_umad_cases,
};

kunit_test_suite(rdma_umad_suite);

MODULE_DESCRIPTION("KUnit tests of ib_umad's write path and GET_CHARDEV answers");
MODULE_LICENSE("Dual BSD/GPL");
