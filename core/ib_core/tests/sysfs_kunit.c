// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_sysfs": the port counters ib_core shows from a
 * device's PMA (core/ib_core/sysfs.c, ports/<n>/counters/).  Two loop
 * devices, whose rdmavt PMA has extended counters, exchange RC SENDs;
 * then every file of counters/ must read what the PMA itself answers
 * through process_mad at that moment (the devices are idle), the data
 * and packet counters must have counted the traffic, and the set must be
 * the extended one.
 */

#include <kunit/test.h>
#include <kunit/rdma_verbs.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_pma.h>

#define MSGS		5
#define MSG_LEN		300

/* Read /sys/class/infiniband/<dev>/ports/1/counters/<name> as a number. */
static int read_counter(struct kunit *test, struct ib_device *dev,
			const char *name, u64 *val)
{
	char *path = kunit_kzalloc(test, PATH_MAX, GFP_KERNEL);
	char buf[32] = {};
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	KUNIT_ASSERT_NOT_NULL(test, path);
	snprintf(path, PATH_MAX,
		 "/sys/class/infiniband/%s/ports/1/counters/%s",
		 dev_name(&dev->dev), name);
	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_read(f, buf, sizeof(buf) - 1, &pos);
	filp_close(f, NULL);
	if (n < 0)
		return n;
	return kstrtou64(strim(buf), 10, val);
}

/* One PMA attribute of port 1 of @dev, through process_mad. */
static void pma_get(struct kunit *test, struct ib_device *dev, __be16 attr,
		    struct ib_pma_mad *out)
{
	struct ib_pma_mad *in = kunit_kzalloc(test, sizeof(*in), GFP_KERNEL);
	size_t out_size = sizeof(*out);
	u16 pkey_index = 0;

	KUNIT_ASSERT_NOT_NULL(test, in);
	in->mad_hdr.base_version = IB_MGMT_BASE_VERSION;
	in->mad_hdr.mgmt_class = IB_MGMT_CLASS_PERF_MGMT;
	in->mad_hdr.class_version = 1;
	in->mad_hdr.method = IB_MGMT_METHOD_GET;
	in->mad_hdr.attr_id = attr;
	in->data[1] = 1;	/* PortSelect */
	KUNIT_ASSERT_EQ(test,
			dev->ops.process_mad(dev, IB_MAD_IGNORE_MKEY, 1, NULL,
					     NULL, (struct ib_mad *)in,
					     (struct ib_mad *)out, &out_size,
					     &pkey_index),
			IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY);
	KUNIT_ASSERT_EQ(test, be16_to_cpu(out->mad_hdr.status), 0);
}

/* @name of @dev reads @want. */
static void expect_counter(struct kunit *test, struct ib_device *dev,
			   const char *name, u64 want)
{
	u64 val = ~0ULL;

	KUNIT_ASSERT_EQ_MSG(test, read_counter(test, dev, name, &val), 0,
			    "%s", name);
	KUNIT_EXPECT_EQ_MSG(test, val, want, "%s of %s", name,
			    dev_name(&dev->dev));
}

/* Every file of counters/ of @dev against its PMA's own answer. */
static void expect_pma(struct kunit *test, struct ib_device *dev)
{
	struct ib_pma_mad *out = kunit_kzalloc(test, sizeof(*out), GFP_KERNEL);
	struct ib_pma_portcounters pc;
	struct ib_pma_portcounters_ext x;
	u64 val;

	KUNIT_ASSERT_NOT_NULL(test, out);
	pma_get(test, dev, IB_PMA_PORT_COUNTERS, out);
	memcpy(&pc, out->data, sizeof(pc));
	pma_get(test, dev, IB_PMA_PORT_COUNTERS_EXT, out);
	memcpy(&x, out->data, sizeof(x));

	expect_counter(test, dev, "symbol_error",
		       be16_to_cpu(pc.symbol_error_counter));
	expect_counter(test, dev, "link_error_recovery",
		       pc.link_error_recovery_counter);
	expect_counter(test, dev, "link_downed", pc.link_downed_counter);
	expect_counter(test, dev, "port_rcv_errors",
		       be16_to_cpu(pc.port_rcv_errors));
	expect_counter(test, dev, "port_rcv_remote_physical_errors",
		       be16_to_cpu(pc.port_rcv_remphys_errors));
	expect_counter(test, dev, "port_rcv_switch_relay_errors",
		       be16_to_cpu(pc.port_rcv_switch_relay_errors));
	expect_counter(test, dev, "port_xmit_discards",
		       be16_to_cpu(pc.port_xmit_discards));
	expect_counter(test, dev, "port_xmit_constraint_errors",
		       pc.port_xmit_constraint_errors);
	expect_counter(test, dev, "port_rcv_constraint_errors",
		       pc.port_rcv_constraint_errors);
	expect_counter(test, dev, "local_link_integrity_errors",
		       pc.link_overrun_errors >> 4);
	expect_counter(test, dev, "excessive_buffer_overrun_errors",
		       pc.link_overrun_errors & 0xf);
	expect_counter(test, dev, "VL15_dropped",
		       be16_to_cpu(pc.vl15_dropped));
	expect_counter(test, dev, "port_xmit_wait",
		       be32_to_cpu(pc.port_xmit_wait));
	expect_counter(test, dev, "port_xmit_data",
		       be64_to_cpu(x.port_xmit_data));
	expect_counter(test, dev, "port_rcv_data",
		       be64_to_cpu(x.port_rcv_data));
	expect_counter(test, dev, "port_xmit_packets",
		       be64_to_cpu(x.port_xmit_packets));
	expect_counter(test, dev, "port_rcv_packets",
		       be64_to_cpu(x.port_rcv_packets));
	expect_counter(test, dev, "unicast_xmit_packets",
		       be64_to_cpu(x.port_unicast_xmit_packets));
	expect_counter(test, dev, "unicast_rcv_packets",
		       be64_to_cpu(x.port_unicast_rcv_packets));
	expect_counter(test, dev, "multicast_xmit_packets",
		       be64_to_cpu(x.port_multicast_xmit_packets));
	expect_counter(test, dev, "multicast_rcv_packets",
		       be64_to_cpu(x.port_multicast_rcv_packets));
	/* the extended set: no 32-bit duplicate of the data counters */
	KUNIT_EXPECT_EQ(test, read_counter(test, dev, "no_such_counter", &val),
			-ENOENT);
}

/*
 * MSGS SENDs from A to B over RC: both ports' counters/ read what their
 * PMAs say, and those have counted the SENDs and their ACKs.
 */
static void rdma_sysfs_pma_counters(struct kunit *test)
{
	struct kt_vt *a = kt_new_vt_named(test, "kusfa%d");
	struct kt_vt *b = kt_new_vt_named(test, "kusfb%d");
	struct ib_cq *ca = kt_new_cq(test, a, IB_POLL_DIRECT);
	struct ib_cq *cb = kt_new_cq(test, b, IB_POLL_DIRECT);
	struct ib_qp *qa = kt_new_qp(test, a, IB_QPT_RC, ca, ca);
	struct ib_qp *qb = kt_new_qp(test, b, IB_QPT_RC, cb, cb);
	struct kt_tcqe *s = kt_new_tcqes(test, MSGS), *r = kt_new_tcqes(test, MSGS);
	u8 *sbuf, *rbuf;
	u64 xp, rp, xw;
	int i;

	KUNIT_ASSERT_EQ(test, kt_to_rts(qa, qb->qp_num, kt_port_lid(b->dev), 0), 0);
	KUNIT_ASSERT_EQ(test, kt_to_rts(qb, qa->qp_num, kt_port_lid(a->dev), 0), 0);
	kt_new_bufs(test, MSGS * MSG_LEN, &sbuf, &rbuf);
	kt_post_recvs(test, qb, r, rbuf, MSG_LEN, MSGS);
	kt_send_n(test, qa, ca, s, sbuf, MSG_LEN, MSGS);
	for (i = 0; i < MSGS; i++)
		KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(cb, &r[i]));

	expect_pma(test, a->dev);
	expect_pma(test, b->dev);

	KUNIT_ASSERT_EQ(test, read_counter(test, a->dev, "port_xmit_packets",
					   &xp), 0);
	KUNIT_ASSERT_EQ(test, read_counter(test, b->dev, "port_rcv_packets",
					   &rp), 0);
	KUNIT_ASSERT_EQ(test, read_counter(test, a->dev, "port_xmit_data",
					   &xw), 0);
	KUNIT_EXPECT_GE(test, xp, MSGS);
	KUNIT_EXPECT_GE(test, rp, MSGS);
	/* 4-byte words: at least the payloads */
	KUNIT_EXPECT_GE(test, xw, (u64)MSGS * MSG_LEN / 4);
}

static struct kunit_case rdma_sysfs_cases[] = {
	KUNIT_CASE(rdma_sysfs_pma_counters),
	{}
};

static struct kunit_suite rdma_sysfs_suite = {
	.name = "rdma_sysfs",
	.test_cases = rdma_sysfs_cases,
};

kunit_test_suite(rdma_sysfs_suite);

MODULE_DESCRIPTION("KUnit suite rdma_sysfs: a port's PMA counters in sysfs");
MODULE_LICENSE("Dual BSD/GPL");
