// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_counters": ib_core's hardware counters and per-QP
 * counters (core/ib_core/counters.c, sysfs hw_counters/, nldev's STAT_*
 * commands in core/ib_core/netlink/nldev_stat.c).
 *
 * The values come from a fake HCA with counters (desc.hw_stats: two of
 * them always on, one optional and off at first) whose values the case
 * sets, so every number shown can be checked exactly.  Per-QP counters
 * need QPs: they are bound on the suite's loop device (made once by the
 * suite's init), whose rdmavt counters rvt_counters checks for what the
 * engine counts.  Each case that uses the loop device leaves no counter
 * behind (its QPs go when it ends, which frees their counters), which
 * the next one checks.
 */

#include <kunit/test.h>
#include <kunit/rdma_counters.h>
#include <kunit/rdma_fake_hca.h>
#include <kunit/rdma_verbs.h>
#include <linux/fs.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_counter.h>
#include <rdma/restrack.h>

static struct kt_vt cnt_vt;

static void cnt_suite_exit(struct kunit_suite *suite)
{
	kt_suite_vt_free(&cnt_vt);
}

static int cnt_suite_init(struct kunit_suite *suite)
{
	int ret = kt_suite_vt_new(&cnt_vt, "kucnt%d");

	if (ret)
		cnt_suite_exit(suite);
	return ret;
}

/* The suite's loop device, with no counter and its port in mode none. */
static struct kt_vt *cnt_bed(struct kunit *test, struct kt_nlc *c)
{
	KUNIT_ASSERT_NOT_NULL(test, cnt_vt.dev);
	KUNIT_ASSERT_EQ(test, rdma_restrack_count(cnt_vt.dev,
						  RDMA_RESTRACK_COUNTER, false),
			0);
	KUNIT_ASSERT_EQ(test, kt_cnt_mode(c, cnt_vt.dev, 1, NULL),
			(u32)RDMA_COUNTER_MODE_NONE);
	return &cnt_vt;
}

/* A registered fake with counters and two IB ports. */
static struct fake_hca *cnt_fake(struct kunit *test, bool hw_stats)
{
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 2);
	struct fake_hca *hca;

	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = "kucntf%d";
	desc->hw_stats = hw_stats;
	hca = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hca);
	return hca;
}

static struct kt_req *cnt_req(struct kunit *test)
{
	struct kt_req *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	return r;
}

/* ------------------------------------------------------------------
 * The set of values
 */

static const struct rdma_stat_desc cnt_descs[] = {
	{ .name = "a" }, { .name = "b" },
	{ .name = "c", .flags = IB_STAT_FLAG_OPTIONAL },
};

static void counters_stats_struct(struct kunit *test)
{
	struct rdma_hw_stats *st;
	int i;

	st = rdma_alloc_hw_stats_struct(cnt_descs, ARRAY_SIZE(cnt_descs), 25);
	KUNIT_ASSERT_NOT_NULL(test, st);
	KUNIT_EXPECT_EQ(test, st->num_counters, 3);
	KUNIT_EXPECT_PTR_EQ(test, st->descs, &cnt_descs[0]);
	KUNIT_EXPECT_EQ(test, st->lifespan, msecs_to_jiffies(25));
	KUNIT_EXPECT_EQ(test, st->timestamp, 0UL);
	for (i = 0; i < st->num_counters; i++) {
		KUNIT_EXPECT_EQ(test, st->value[i], 0ULL);
		KUNIT_EXPECT_FALSE(test, test_bit(i, st->is_disabled));
	}
	/* every value can be written: the array is as long as it says */
	st->value[2] = ~0ULL;
	mutex_lock(&st->lock);
	mutex_unlock(&st->lock);
	rdma_free_hw_stats_struct(st);
	rdma_free_hw_stats_struct(NULL);
	KUNIT_EXPECT_NULL(test, rdma_alloc_hw_stats_struct(cnt_descs, 0, 10));
}

/* ------------------------------------------------------------------
 * sysfs hw_counters/
 */

static int cnt_sysfs(struct kunit *test, struct ib_device *dev, u32 port,
		     const char *file, char *buf, size_t len, bool write)
{
	char *path = kunit_kzalloc(test, PATH_MAX, GFP_KERNEL);
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	KUNIT_ASSERT_NOT_NULL(test, path);
	if (port)
		snprintf(path, PATH_MAX,
			 "/sys/class/infiniband/%s/ports/%u/hw_counters/%s",
			 dev_name(&dev->dev), port, file);
	else
		snprintf(path, PATH_MAX,
			 "/sys/class/infiniband/%s/hw_counters/%s",
			 dev_name(&dev->dev), file);
	f = filp_open(path, write ? O_WRONLY : O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	if (write) {
		n = kernel_write(f, buf, strlen(buf), &pos);
	} else {
		memset(buf, 0, len);
		n = kernel_read(f, buf, len - 1, &pos);
	}
	filp_close(f, NULL);
	return n < 0 ? n : 0;
}

static u64 cnt_sysfs_u64(struct kunit *test, struct ib_device *dev, u32 port,
			 const char *file)
{
	char buf[32];
	u64 v = ~0ULL;

	KUNIT_ASSERT_EQ_MSG(test, cnt_sysfs(test, dev, port, file, buf,
					    sizeof(buf), false), 0,
			    "%s of port %u", file, port);
	KUNIT_EXPECT_EQ(test, kstrtou64(strim(buf), 10, &v), 0);
	return v;
}

static void cnt_lifespan(struct kunit *test, struct ib_device *dev, u32 port,
			 const char *ms)
{
	char buf[16];

	strscpy(buf, ms, sizeof(buf));
	KUNIT_ASSERT_EQ(test, cnt_sysfs(test, dev, port, "lifespan", buf, 0,
					true), 0);
}

static u64 cnt_default_ms(void)
{
	return jiffies_to_msecs(msecs_to_jiffies(RDMA_HW_STATS_DEFAULT_LIFESPAN));
}

static void counters_sysfs(struct kunit *test)
{
	struct fake_hca *hca = cnt_fake(test, true);
	struct ib_device *dev = &hca->ibdev;
	char buf[16];

	fake_hca_set_hw_stat(hca, 0, FAKE_HCA_STAT_RX, 11);
	fake_hca_set_hw_stat(hca, 1, FAKE_HCA_STAT_RX, 101);
	fake_hca_set_hw_stat(hca, 2, FAKE_HCA_STAT_TX, 202);
	KUNIT_EXPECT_EQ(test, cnt_sysfs_u64(test, dev, 0, "fake_rx_pkts"), 11);
	KUNIT_EXPECT_EQ(test, cnt_sysfs_u64(test, dev, 0, "fake_tx_pkts"), 0);
	KUNIT_EXPECT_EQ(test, cnt_sysfs_u64(test, dev, 1, "fake_rx_pkts"), 101);
	KUNIT_EXPECT_EQ(test, cnt_sysfs_u64(test, dev, 2, "fake_tx_pkts"), 202);
	KUNIT_EXPECT_EQ(test, cnt_sysfs_u64(test, dev, 2, "fake_opt_drops"), 0);
	/* milliseconds, as many as the jiffies of the default make */
	KUNIT_EXPECT_EQ(test, cnt_sysfs_u64(test, dev, 1, "lifespan"),
			cnt_default_ms());

	/* a long lifespan: the values read stay, whatever the driver says */
	cnt_lifespan(test, dev, 1, "10000");
	KUNIT_EXPECT_EQ(test, cnt_sysfs_u64(test, dev, 1, "lifespan"), 10000);
	KUNIT_EXPECT_EQ(test, cnt_sysfs_u64(test, dev, 1, "fake_rx_pkts"), 101);
	fake_hca_set_hw_stat(hca, 1, FAKE_HCA_STAT_RX, 102);
	KUNIT_EXPECT_EQ(test, cnt_sysfs_u64(test, dev, 1, "fake_rx_pkts"), 101);
	/* none: every read asks the driver */
	cnt_lifespan(test, dev, 1, "0");
	KUNIT_EXPECT_EQ(test, cnt_sysfs_u64(test, dev, 1, "fake_rx_pkts"), 102);
	fake_hca_set_hw_stat(hca, 1, FAKE_HCA_STAT_RX, 103);
	KUNIT_EXPECT_EQ(test, cnt_sysfs_u64(test, dev, 1, "fake_rx_pkts"), 103);

	/* refused: more than 10 s, not a number; counters are read-only */
	strscpy(buf, "10001", sizeof(buf));
	KUNIT_EXPECT_EQ(test, cnt_sysfs(test, dev, 1, "lifespan", buf, 0,
					true), -EINVAL);
	strscpy(buf, "soon", sizeof(buf));
	KUNIT_EXPECT_EQ(test, cnt_sysfs(test, dev, 0, "lifespan", buf, 0,
					true), -EINVAL);
	strscpy(buf, "5", sizeof(buf));
	KUNIT_EXPECT_EQ(test, cnt_sysfs(test, dev, 1, "fake_rx_pkts", buf, 0,
					true), -EACCES);
	KUNIT_EXPECT_EQ(test, cnt_sysfs_u64(test, dev, 1, "lifespan"), 0);
	KUNIT_EXPECT_EQ(test, cnt_sysfs_u64(test, dev, 0, "lifespan"),
			cnt_default_ms());

	/* a device without counters has no such directory */
	hca = cnt_fake(test, false);
	KUNIT_EXPECT_EQ(test, cnt_sysfs(test, &hca->ibdev, 1, "lifespan", buf,
					sizeof(buf), false), -ENOENT);
	KUNIT_EXPECT_EQ(test, cnt_sysfs(test, &hca->ibdev, 0, "lifespan", buf,
					sizeof(buf), false), -ENOENT);
}

/* ------------------------------------------------------------------
 * STAT_GET of a port, optional counters
 */

/* The counters' status of @port: @dyn[i] 0 or 1 (optional), else -1. */
static void cnt_status(struct kunit *test, struct kt_nlc *c,
		       struct ib_device *dev, u32 port, int *dyn)
{
	struct nlattr **etb = kt_tb_alloc(test);
	struct nlattr **tb = kt_tb_alloc(test);
	const int max = RDMA_NLDEV_ATTR_MAX - 1;
	struct kt_req *r = cnt_req(test);
	struct nlmsghdr *reply;
	struct nlattr *entry;
	int rem, n = 0;
	u32 i;

	kt_cnt_req(r, RDMA_NLDEV_CMD_STAT_GET_STATUS, dev, port);
	KUNIT_ASSERT_EQ(test, kt_nlc_do(c, r, &reply), 0);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	KUNIT_EXPECT_EQ(test, reply->nlmsg_type,
			RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
					 RDMA_NLDEV_CMD_STAT_GET_STATUS));
	kt_cnt_parse(test, reply, tb);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_PORT_INDEX]),
			port);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS]);
	nla_for_each_nested(entry, tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS], rem) {
		const char *name;

		KUNIT_ASSERT_EQ(test, 0,
				nla_parse_nested_deprecated(etb, max, entry,
							    NULL, NULL));
		i = kt_attr_u32(test,
				etb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX]);
		KUNIT_ASSERT_LT(test, i, (u32)FAKE_HCA_NUM_STATS);
		KUNIT_EXPECT_EQ(test, i, (u32)n);
		name = kt_attr_str(test,
				   etb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME]);
		KUNIT_EXPECT_STREQ(test, name,
				   i == FAKE_HCA_STAT_RX ? "fake_rx_pkts" :
				   i == FAKE_HCA_STAT_TX ? "fake_tx_pkts" :
				   "fake_opt_drops");
		dyn[i] = etb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC] ?
			kt_attr_u8(test,
				   etb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC]) :
			-1;
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, FAKE_HCA_NUM_STATS);
}

/* STAT_SET of the optional counters to turn on: @idx, @n of them. */
static int cnt_set_optional(struct kunit *test, struct kt_nlc *c,
			    struct ib_device *dev, u32 port, u16 type,
			    const u32 *idx, int n)
{
	struct kt_req *r = cnt_req(test);
	struct nlmsghdr *reply;
	u8 nest[64] = {};
	struct nlattr *a;
	int i, len = 0;

	for (i = 0; i < n; i++) {
		a = (struct nlattr *)(nest + len);
		a->nla_type = type;
		a->nla_len = nla_attr_size(sizeof(u32));
		memcpy(nla_data(a), &idx[i], sizeof(u32));
		len += nla_total_size(sizeof(u32));
	}
	kt_cnt_req(r, RDMA_NLDEV_CMD_STAT_SET, dev, port);
	kt_req_put(r, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS | NLA_F_NESTED, nest,
		   len);
	return kt_nlc_do(c, r, &reply);
}

static void counters_port_optional(struct kunit *test)
{
	struct fake_hca *hca = cnt_fake(test, true);
	struct ib_device *dev = &hca->ibdev;
	struct kt_nlc *c = kt_nlc_open(test);
	struct nlattr **tb = kt_tb_alloc(test);
	struct kt_req *r = cnt_req(test);
	static const u32 opt = FAKE_HCA_STAT_OPT, rx = FAKE_HCA_STAT_RX,
			  none = FAKE_HCA_NUM_STATS + 4;
	struct nlmsghdr *reply;
	int dyn[FAKE_HCA_NUM_STATS];
	u64 v;

	fake_hca_set_hw_stat(hca, 2, FAKE_HCA_STAT_RX, 7);
	fake_hca_set_hw_stat(hca, 2, FAKE_HCA_STAT_TX, 8);
	fake_hca_set_hw_stat(hca, 2, FAKE_HCA_STAT_OPT, 9);
	KUNIT_EXPECT_EQ(test, kt_cnt_port(c, dev, 2, "fake_rx_pkts"), 7);
	KUNIT_EXPECT_EQ(test, kt_cnt_port(c, dev, 2, "fake_tx_pkts"), 8);
	KUNIT_EXPECT_EQ(test, kt_cnt_port(c, dev, 1, "fake_tx_pkts"), 0);

	/* the optional counter is off: listed in the status, not shown */
	cnt_status(test, c, dev, 2, dyn);
	KUNIT_EXPECT_EQ(test, dyn[FAKE_HCA_STAT_RX], -1);
	KUNIT_EXPECT_EQ(test, dyn[FAKE_HCA_STAT_TX], -1);
	KUNIT_EXPECT_EQ(test, dyn[FAKE_HCA_STAT_OPT], 0);
	kt_cnt_req(r, RDMA_NLDEV_CMD_STAT_GET, dev, 2);
	KUNIT_ASSERT_EQ(test, kt_nlc_do(c, r, &reply), 0);
	kt_cnt_parse(test, reply, tb);
	KUNIT_EXPECT_FALSE(test, kt_cnt_find(test,
					     tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS],
					     "fake_opt_drops", &v));

	/* on: through the driver, shown, and its status says so */
	KUNIT_ASSERT_EQ(test, cnt_set_optional(test, c, dev, 2,
					       RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX,
					       &opt, 1), 0);
	KUNIT_EXPECT_TRUE(test, fake_hca_hw_stat_on(hca, 2));
	KUNIT_EXPECT_FALSE(test, fake_hca_hw_stat_on(hca, 1));
	KUNIT_EXPECT_EQ(test, kt_cnt_port(c, dev, 2, "fake_opt_drops"), 9);
	cnt_status(test, c, dev, 2, dyn);
	KUNIT_EXPECT_EQ(test, dyn[FAKE_HCA_STAT_OPT], 1);
	cnt_status(test, c, dev, 1, dyn);
	KUNIT_EXPECT_EQ(test, dyn[FAKE_HCA_STAT_OPT], 0);

	/* refused: not optional, no such counter, not a counter index */
	KUNIT_EXPECT_EQ(test, cnt_set_optional(test, c, dev, 2,
					       RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX,
					       &rx, 1), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack,
			   "Not an optional counter of the port");
	KUNIT_EXPECT_EQ(test, cnt_set_optional(test, c, dev, 2,
					       RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX,
					       &none, 1), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack,
			   "Not an optional counter of the port");
	KUNIT_EXPECT_EQ(test, cnt_set_optional(test, c, dev, 2,
					       RDMA_NLDEV_ATTR_DEV_INDEX,
					       &opt, 1), -EINVAL);
	KUNIT_EXPECT_GT(test, strlen(c->extack), 0);
	/* a refusal changed nothing */
	KUNIT_EXPECT_TRUE(test, fake_hca_hw_stat_on(hca, 2));

	/* an empty list turns every optional counter off */
	KUNIT_ASSERT_EQ(test, cnt_set_optional(test, c, dev, 2,
					       RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX,
					       NULL, 0), 0);
	KUNIT_EXPECT_FALSE(test, fake_hca_hw_stat_on(hca, 2));
	cnt_status(test, c, dev, 2, dyn);
	KUNIT_EXPECT_EQ(test, dyn[FAKE_HCA_STAT_OPT], 0);

	/* a device without counters */
	hca = cnt_fake(test, false);
	kt_cnt_req(r, RDMA_NLDEV_CMD_STAT_GET, &hca->ibdev, 1);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "The port has no hardware counters");
	kt_cnt_req(r, RDMA_NLDEV_CMD_STAT_GET_STATUS, &hca->ibdev, 1);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "The port has no hardware counters");
	KUNIT_EXPECT_EQ(test, cnt_set_optional(test, c, &hca->ibdev, 1,
					       RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX,
					       &opt, 1), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "The port has no hardware counters");
}

/* ------------------------------------------------------------------
 * Per-QP counters on the loop device
 */

/* A kernel RC QP of the bed moved to INIT on port 1. */
static struct ib_qp *cnt_qp(struct kunit *test, struct kt_vt *vt)
{
	struct ib_cq *cq = kt_new_cq(test, vt, IB_POLL_DIRECT);
	struct ib_qp *qp = kt_new_qp(test, vt, IB_QPT_RC, cq, cq);

	KUNIT_ASSERT_EQ(test, kt_to_state(qp, 0, 0, 0, IB_QPS_INIT), 0);
	return qp;
}

static void counters_manual(struct kunit *test)
{
	struct kt_nlc *c = kt_nlc_open(test);
	struct kt_vt *vt = cnt_bed(test, c);
	struct ib_device *dev = vt->dev;
	struct ib_qp *a = cnt_qp(test, vt), *b = cnt_qp(test, vt);
	u32 cnt = 0, cnt2 = 0, mask;
	u64 v;

	/* a new counter for A; the port is in manual mode while it exists */
	KUNIT_ASSERT_EQ(test, kt_cnt_bind(c, dev, 1, a->qp_num, 0, &cnt), 0);
	KUNIT_EXPECT_NE(test, cnt, 0U);
	KUNIT_EXPECT_PTR_EQ(test, a->counter->device, dev);
	KUNIT_EXPECT_EQ(test, a->counter->id, cnt);
	KUNIT_EXPECT_EQ(test, kt_cnt_mode(c, dev, 1, NULL),
			(u32)RDMA_COUNTER_MODE_MANUAL);
	KUNIT_EXPECT_EQ(test, kt_cnt_counter(c, dev, 1, cnt, "sent_pkts", &v),
			0);
	KUNIT_EXPECT_EQ(test, v, 0ULL);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(dev, RDMA_RESTRACK_COUNTER,
						  false), 1);
	/* B joins it; A cannot be bound twice */
	KUNIT_ASSERT_EQ(test, kt_cnt_bind(c, dev, 1, b->qp_num, cnt, &cnt2), 0);
	KUNIT_EXPECT_EQ(test, cnt2, cnt);
	KUNIT_EXPECT_PTR_EQ(test, b->counter, a->counter);
	KUNIT_EXPECT_EQ(test, kt_cnt_bind(c, dev, 1, a->qp_num, 0, NULL),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack,
			   "The QP is bound already or is on another port");
	KUNIT_EXPECT_EQ(test, kt_cnt_bind(c, dev, 1, a->qp_num, cnt, NULL),
			-EINVAL);
	/* auto mode needs a port without counters */
	{
		struct kt_req *r = cnt_req(test);

		kt_cnt_req(r, RDMA_NLDEV_CMD_STAT_SET, dev, 1);
		kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
		kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_MODE,
			   RDMA_COUNTER_MODE_AUTO);
		kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK,
			   RDMA_COUNTER_MASK_QP_TYPE);
		KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EBUSY);
		KUNIT_EXPECT_STREQ(test, c->extack,
				   "Auto mode cannot change while QPs are bound to counters");
		KUNIT_EXPECT_EQ(test, kt_cnt_mode(c, dev, 1, &mask),
				(u32)RDMA_COUNTER_MODE_MANUAL);
	}

	/* unbinding: only from the counter it is bound to */
	KUNIT_EXPECT_EQ(test, kt_cnt_unbind(c, dev, 1, a->qp_num, cnt + 1),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack,
			   "The QP is not bound to this counter of the port in manual mode");
	KUNIT_ASSERT_EQ(test, kt_cnt_unbind(c, dev, 1, a->qp_num, cnt), 0);
	KUNIT_EXPECT_NULL(test, a->counter);
	KUNIT_EXPECT_EQ(test, kt_cnt_counter(c, dev, 1, cnt, "sent_pkts", &v),
			0);
	/* the last QP takes the counter with it: mode none again */
	KUNIT_ASSERT_EQ(test, kt_cnt_unbind(c, dev, 1, b->qp_num, cnt), 0);
	KUNIT_EXPECT_NULL(test, b->counter);
	KUNIT_EXPECT_EQ(test, kt_cnt_counter(c, dev, 1, cnt, "sent_pkts", &v),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, kt_cnt_mode(c, dev, 1, NULL),
			(u32)RDMA_COUNTER_MODE_NONE);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(dev, RDMA_RESTRACK_COUNTER,
						  false), 0);

	/* a QP destroyed while bound frees its counter */
	KUNIT_ASSERT_EQ(test, kt_cnt_bind(c, dev, 1, a->qp_num, 0, &cnt), 0);
	kunit_release_action(test, kt_destroy_qp, a);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(dev, RDMA_RESTRACK_COUNTER,
						  false), 0);
	KUNIT_EXPECT_EQ(test, kt_cnt_mode(c, dev, 1, NULL),
			(u32)RDMA_COUNTER_MODE_NONE);
}

static void counters_auto_mode(struct kunit *test)
{
	struct kt_nlc *c = kt_nlc_open(test);
	struct kt_vt *vt = cnt_bed(test, c);
	struct ib_device *dev = vt->dev;
	struct kt_req *r = cnt_req(test);
	struct nlmsghdr *reply;
	struct ib_qp *qp;
	u32 mask = 0;

	kt_cnt_req(r, RDMA_NLDEV_CMD_STAT_SET, dev, 1);
	kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
	kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_AUTO);
	kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK,
		   RDMA_COUNTER_MASK_QP_TYPE | RDMA_COUNTER_MASK_PID);
	KUNIT_ASSERT_EQ(test, kt_nlc_do(c, r, &reply), 0);
	/* the reply names the device and the port */
	KUNIT_ASSERT_NOT_NULL(test, reply);
	KUNIT_EXPECT_EQ(test, reply->nlmsg_type,
			RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
					 RDMA_NLDEV_CMD_STAT_SET));
	KUNIT_EXPECT_EQ(test, kt_cnt_mode(c, dev, 1, &mask),
			(u32)RDMA_COUNTER_MODE_AUTO);
	KUNIT_EXPECT_EQ(test, mask,
			(u32)(RDMA_COUNTER_MASK_QP_TYPE | RDMA_COUNTER_MASK_PID));

	/* kernel QPs are never bound automatically (upstream's rule) */
	qp = cnt_qp(test, vt);
	KUNIT_EXPECT_NULL(test, qp->counter);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(dev, RDMA_RESTRACK_COUNTER,
						  false), 0);
	/* and not by hand while the port binds automatically */
	KUNIT_EXPECT_EQ(test, kt_cnt_bind(c, dev, 1, qp->qp_num, 0, NULL),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack,
			   "The port binds QPs automatically: turn auto mode off first");

	/* unknown criteria are refused and change nothing */
	kt_cnt_req(r, RDMA_NLDEV_CMD_STAT_SET, dev, 1);
	kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
	kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_AUTO);
	kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, 0x80);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "Unknown auto mode criteria");
	KUNIT_EXPECT_EQ(test, kt_cnt_mode(c, dev, 1, &mask),
			(u32)RDMA_COUNTER_MODE_AUTO);

	/* off: mask 0 ("auto off") */
	kt_cnt_req(r, RDMA_NLDEV_CMD_STAT_SET, dev, 1);
	kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
	kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_AUTO);
	KUNIT_ASSERT_EQ(test, kt_nlc_do(c, r, &reply), 0);
	KUNIT_EXPECT_EQ(test, kt_cnt_mode(c, dev, 1, NULL),
			(u32)RDMA_COUNTER_MODE_NONE);
}

static void counters_refusals(struct kunit *test)
{
	struct kt_nlc *c = kt_nlc_open(test);
	struct kt_vt *vt = cnt_bed(test, c);
	struct ib_device *dev = vt->dev;
	struct kt_req *r = cnt_req(test);
	struct ib_qp *qp = cnt_qp(test, vt);
	u32 cnt;

	/* not an admin: refused before anything is looked at */
	kt_cnt_req(r, RDMA_NLDEV_CMD_STAT_SET, dev, 1);
	kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
	kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_MANUAL);
	kt_req_u32(r, RDMA_NLDEV_ATTR_RES_LQPN, qp->qp_num);
	KUNIT_EXPECT_EQ(test, kt_nlc_do_unprivileged(test, r), -EPERM);
	KUNIT_EXPECT_NULL(test, qp->counter);
	kt_cnt_req(r, RDMA_NLDEV_CMD_STAT_DEL, dev, 1);
	KUNIT_EXPECT_EQ(test, kt_nlc_do_unprivileged(test, r), -EPERM);

	/* nothing to set */
	kt_cnt_req(r, RDMA_NLDEV_CMD_STAT_SET, dev, 1);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack,
			   "Nothing to set: a statistic mode or the optional counters");
	/* counters of MRs, a mode that is not one to set, no QP */
	kt_cnt_req(r, RDMA_NLDEV_CMD_STAT_SET, dev, 1);
	kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_MR);
	kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_MANUAL);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "Counters exist for QPs only");
	kt_cnt_req(r, RDMA_NLDEV_CMD_STAT_SET, dev, 1);
	kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
	kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_NONE);
	kt_req_u32(r, RDMA_NLDEV_ATTR_RES_LQPN, qp->qp_num);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "The mode to set is auto or manual");
	kt_cnt_req(r, RDMA_NLDEV_CMD_STAT_SET, dev, 1);
	kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
	kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_MANUAL);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "The QP number is missing");
	/* a wrongly typed attribute: the policy */
	kt_cnt_req(r, RDMA_NLDEV_CMD_STAT_SET, dev, 1);
	kt_req_u8(r, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_MANUAL);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "invalid attribute length");

	/* no such QP, no such counter, no such port */
	KUNIT_EXPECT_EQ(test, kt_cnt_bind(c, dev, 1, 0xfffff0, 0, NULL),
			-ENOENT);
	KUNIT_EXPECT_STREQ(test, c->extack, "No such QP");
	KUNIT_EXPECT_EQ(test, kt_cnt_bind(c, dev, 1, qp->qp_num, 777, NULL),
			-ENOENT);
	KUNIT_EXPECT_STREQ(test, c->extack, "No such QP or counter");
	KUNIT_EXPECT_EQ(test, kt_cnt_bind(c, dev, 2, qp->qp_num, 0, NULL),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack, "No such port");
	KUNIT_EXPECT_EQ(test, kt_cnt_unbind(c, dev, 1, 0xfffff0, 1), -ENOENT);
	KUNIT_EXPECT_STREQ(test, c->extack, "No such QP");
	KUNIT_EXPECT_EQ(test, kt_cnt_unbind(c, dev, 1, qp->qp_num, 1), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack,
			   "The QP is not bound to this counter of the port in manual mode");
	kt_cnt_req(r, RDMA_NLDEV_CMD_STAT_DEL, dev, 1);
	kt_req_u32(r, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
	kt_req_u32(r, RDMA_NLDEV_ATTR_RES_LQPN, qp->qp_num);
	KUNIT_EXPECT_EQ(test, kt_nlc_do(c, r, NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, c->extack,
			   "The counter ID and the QP number are needed");

	/* none of it bound the QP; a good request still does */
	KUNIT_EXPECT_NULL(test, qp->counter);
	KUNIT_ASSERT_EQ(test, kt_cnt_bind(c, dev, 1, qp->qp_num, 0, &cnt), 0);
	KUNIT_EXPECT_EQ(test, kt_cnt_unbind(c, dev, 1, qp->qp_num, cnt), 0);
	KUNIT_EXPECT_NULL(test, qp->counter);
}

static struct kunit_case rdma_counters_cases[] = {
	KUNIT_CASE(counters_stats_struct),
	KUNIT_CASE(counters_sysfs),
	KUNIT_CASE(counters_port_optional),
	KUNIT_CASE(counters_manual),
	KUNIT_CASE(counters_auto_mode),
	KUNIT_CASE(counters_refusals),
	{}
};

static struct kunit_suite rdma_counters_suite = {
	.name = "rdma_counters",
	.suite_init = cnt_suite_init,
	.suite_exit = cnt_suite_exit,
	.test_cases = rdma_counters_cases,
};

kunit_test_suite(rdma_counters_suite);

MODULE_DESCRIPTION("KUnit suite rdma_counters: hardware and per-QP counters");
MODULE_LICENSE("Dual BSD/GPL");
