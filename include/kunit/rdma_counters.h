/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * KUnit helpers of the counter suites (core/ib_core/tests/counters_kunit.c,
 * hw/sw/rdmavt/tests/rvt_counters_kunit.c): "rdma statistic" through a
 * NETLINK_RDMA socket of <kunit/rdma_nldev.h>.  A port's counters
 * (STAT_GET), a per-QP counter's (STAT_GET of a counter ID), a manual
 * bind (STAT_SET) and unbind (STAT_DEL), and reading one value by name
 * out of a reply.
 */
#ifndef KUNIT_RDMA_COUNTERS_H
#define KUNIT_RDMA_COUNTERS_H

#include <kunit/test.h>
#include <kunit/rdma_nldev.h>
#include <rdma/ib_verbs.h>

/* Parse a reply into @tb (cleared first), without a policy. */
static inline void kt_cnt_parse(struct kunit *test, struct nlmsghdr *nlh,
				struct nlattr **tb)
{
	memset(tb, 0, RDMA_NLDEV_ATTR_MAX * sizeof(*tb));
	KUNIT_ASSERT_EQ(test, 0,
			nla_parse_deprecated(tb, RDMA_NLDEV_ATTR_MAX - 1,
					     nlmsg_attrdata(nlh, 0),
					     nlmsg_attrlen(nlh, 0), NULL,
					     NULL));
}

/*
 * The value of counter @name in a STAT_HWCOUNTERS nest; false when the
 * nest has no such counter.
 */
static inline bool kt_cnt_find(struct kunit *test, struct nlattr *table,
			       const char *name, u64 *val)
{
	const int max = RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE;
	const int n = RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME;
	struct nlattr *etb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE + 1];
	struct nlattr *entry;
	int rem;

	KUNIT_ASSERT_NOT_NULL(test, table);
	nla_for_each_nested(entry, table, rem) {
		KUNIT_ASSERT_EQ(test, nla_type(entry),
				RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
		KUNIT_ASSERT_EQ(test, 0,
				nla_parse_nested_deprecated(etb, max, entry,
							    NULL, NULL));
		if (strcmp(kt_attr_str(test, etb[n]), name))
			continue;
		*val = kt_attr_u64(test, etb[max]);
		return true;
	}
	return false;
}

/* A STAT_* request for @dev and @port. */
static inline void kt_cnt_req(struct kt_req *r, u32 cmd, struct ib_device *dev,
			      u32 port)
{
	kt_req_init(r, cmd, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, dev->index);
	kt_req_u32(r, RDMA_NLDEV_ATTR_PORT_INDEX, port);
}

/* Counter @name of port @port of @dev, as "rdma statistic show" reads it. */
static inline u64 kt_cnt_port(struct kt_nlc *c, struct ib_device *dev,
			      u32 port, const char *name)
{
	struct kunit *test = c->test;
	struct nlattr **tb = kt_tb_alloc(test);
	struct kt_req *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct nlmsghdr *reply;
	u64 val = 0;

	KUNIT_ASSERT_NOT_NULL(test, r);
	kt_cnt_req(r, RDMA_NLDEV_CMD_STAT_GET, dev, port);
	KUNIT_ASSERT_EQ_MSG(test, kt_nlc_do(c, r, &reply), 0, "%s",
			    c->extack);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	kt_cnt_parse(test, reply, tb);
	KUNIT_ASSERT_TRUE_MSG(test,
			      kt_cnt_find(test,
					  tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS],
					  name, &val),
			      "no %s", name);
	return val;
}

/*
 * Counter @name of per-QP counter @cntn of @dev; -ENOENT (and *@val
 * untouched) when the counter does not exist.
 */
static inline int kt_cnt_counter(struct kt_nlc *c, struct ib_device *dev,
				 u32 port, u32 cntn, const char *name, u64 *val)
{
	struct kunit *test = c->test;
	struct nlattr **tb = kt_tb_alloc(test);
	struct kt_req *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct nlmsghdr *reply;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, r);
	kt_cnt_req(r, RDMA_NLDEV_CMD_STAT_GET, dev, port);
	kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
	kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, cntn);
	ret = kt_nlc_do(c, r, &reply);
	if (ret)
		return ret;
	KUNIT_ASSERT_NOT_NULL(test, reply);
	kt_cnt_parse(test, reply, tb);
	KUNIT_EXPECT_EQ(test,
			kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_STAT_COUNTER_ID]),
			cntn);
	KUNIT_ASSERT_TRUE_MSG(test,
			      kt_cnt_find(test,
					  tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS],
					  name, val),
			      "no %s", name);
	return 0;
}

/*
 * "rdma statistic qp bind": QP @qpn to counter @cntn, or to a new one
 * when @cntn is 0; the new counter's ID in *@out.  The ack's error.
 */
static inline int kt_cnt_bind(struct kt_nlc *c, struct ib_device *dev,
			      u32 port, u32 qpn, u32 cntn, u32 *out)
{
	struct kunit *test = c->test;
	struct nlattr **tb = kt_tb_alloc(test);
	struct kt_req *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct nlmsghdr *reply;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, r);
	kt_cnt_req(r, RDMA_NLDEV_CMD_STAT_SET, dev, port);
	kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
	kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_MANUAL);
	kt_req_u32(r, RDMA_NLDEV_ATTR_RES_LQPN, qpn);
	if (cntn)
		kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, cntn);
	ret = kt_nlc_do(c, r, &reply);
	if (ret)
		return ret;
	KUNIT_ASSERT_NOT_NULL(test, reply);
	kt_cnt_parse(test, reply, tb);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_RES_LQPN]),
			qpn);
	if (out)
		*out = kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_STAT_COUNTER_ID]);
	return 0;
}

/* "rdma statistic qp unbind": the ack's error. */
static inline int kt_cnt_unbind(struct kt_nlc *c, struct ib_device *dev,
				u32 port, u32 qpn, u32 cntn)
{
	struct kt_req *r = kunit_kzalloc(c->test, sizeof(*r), GFP_KERNEL);
	struct nlmsghdr *reply;

	KUNIT_ASSERT_NOT_NULL(c->test, r);
	kt_cnt_req(r, RDMA_NLDEV_CMD_STAT_DEL, dev, port);
	kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
	kt_req_u32(r, RDMA_NLDEV_ATTR_RES_LQPN, qpn);
	kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, cntn);
	return kt_nlc_do(c, r, &reply);
}

/* The counter mode of a port (STAT_GET of QP statistics). */
static inline u32 kt_cnt_mode(struct kt_nlc *c, struct ib_device *dev,
			      u32 port, u32 *mask)
{
	struct kunit *test = c->test;
	struct nlattr **tb = kt_tb_alloc(test);
	struct kt_req *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct nlmsghdr *reply;

	KUNIT_ASSERT_NOT_NULL(test, r);
	kt_cnt_req(r, RDMA_NLDEV_CMD_STAT_GET, dev, port);
	kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
	kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_AUTO);
	KUNIT_ASSERT_EQ(test, kt_nlc_do(c, r, &reply), 0);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	kt_cnt_parse(test, reply, tb);
	if (mask)
		*mask = tb[RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK] ?
			kt_attr_u32(test,
				    tb[RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK]) : 0;
	return kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_STAT_MODE]);
}

#endif /* KUNIT_RDMA_COUNTERS_H */
