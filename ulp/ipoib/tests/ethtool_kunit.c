// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "ipoib_ethtool": what ethtool shows of an IPoIB interface
 * (ulp/ipoib/ethtool.c): the driver information, the link from the
 * carrier, and the speed of the port while the carrier is on.  The
 * interface is a net device of the suite's own whose IPoIB state names
 * port 1 of a loop device; the speed is checked against the port's rate
 * as ib_core shows it in sysfs ("100 Gb/sec (4X EDR)"), which ib_core
 * computes on its own.
 */

#include <kunit/test.h>
#include <linux/ethtool.h>
#include <linux/fs.h>
#include <linux/netdevice.h>
#include <rdma/rdma_loop.h>

#include "../ipoib.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

struct ethtool_bed {
	struct ib_device	*ca;
	struct net_device	*dev;
	struct ipoib_priv	*priv;
};

static void bed_free(void *p)
{
	struct ethtool_bed *b = p;

	if (b->dev)
		free_netdev(b->dev);
	if (b->ca)
		rdma_loop_remove_device(b->ca);
}

static struct ethtool_bed *bed_new(struct kunit *test)
{
	struct ethtool_bed *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	struct rdma_netdev *rn;

	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, bed_free, b), 0);
	b->ca = rdma_loop_add_device("kuipe%d");
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(b->ca));
	b->dev = alloc_netdev(sizeof(*rn), "kuipe%d", NET_NAME_UNKNOWN,
			      ether_setup);
	KUNIT_ASSERT_NOT_NULL(test, b->dev);
	b->priv = kunit_kzalloc(test, sizeof(*b->priv), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b->priv);
	b->priv->dev = b->dev;
	b->priv->ca = b->ca;
	b->priv->port = 1;
	rn = netdev_priv(b->dev);
	rn->clnt_priv = b->priv;
	b->dev->ethtool_ops = &ipoib_ethtool_ops;
	/* not registered: the carrier is only a state bit */
	netif_carrier_off(b->dev);
	return b;
}

/* Port 1's "rate" in sysfs, in Mb/s: "100 Gb/sec (4X EDR)" is 100000. */
static int sysfs_rate_mbps(struct kunit *test, struct ib_device *ca)
{
	char *path = kunit_kzalloc(test, PATH_MAX, GFP_KERNEL);
	char buf[64] = {};
	unsigned int gb, tenths = 0;
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	KUNIT_ASSERT_NOT_NULL(test, path);
	snprintf(path, PATH_MAX, "/sys/class/infiniband/%s/ports/1/rate",
		 dev_name(&ca->dev));
	f = filp_open(path, O_RDONLY, 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(f), "%s: %ld", path, PTR_ERR(f));
	n = kernel_read(f, buf, sizeof(buf) - 1, &pos);
	filp_close(f, NULL);
	KUNIT_ASSERT_GT(test, n, 0);
	kunit_info(test, "%s: %s", path, strim(buf));
	/* "2.5 Gb/sec (1X SDR)" has a fraction */
	if (sscanf(buf, "%u.%u Gb/sec", &gb, &tenths) < 1)
		KUNIT_FAIL(test, "rate \"%s\" not understood", buf);
	return gb * 1000 + tenths * 100;
}

/* ethtool -i: the driver, the RDMA device's firmware version and name */
static void ipoib_ethtool_drvinfo(struct kunit *test)
{
	struct ethtool_bed *b = bed_new(test);
	struct ethtool_drvinfo info = {};
	char fw[IB_FW_VERSION_NAME_MAX] = {};

	KUNIT_ASSERT_NOT_NULL(test, b->dev->ethtool_ops->get_drvinfo);
	b->dev->ethtool_ops->get_drvinfo(b->dev, &info);
	KUNIT_EXPECT_STREQ(test, info.driver, "ib_ipoib");
	KUNIT_EXPECT_STREQ(test, info.bus_info, dev_name(&b->ca->dev));
	ib_get_device_fw_str(b->ca, fw);
	KUNIT_EXPECT_STREQ(test, info.fw_version, fw);
}

/*
 * ethtool IFACE: no speed while the carrier is off; the port's rate
 * (lanes times lane rate) while it is on; the link follows the carrier.
 */
static void ipoib_ethtool_link(struct kunit *test)
{
	struct ethtool_bed *b = bed_new(test);
	const struct ethtool_ops *ops = b->dev->ethtool_ops;
	struct ethtool_link_ksettings ks;
	int rate = sysfs_rate_mbps(test, b->ca);

	KUNIT_ASSERT_NOT_NULL(test, ops->get_link_ksettings);
	KUNIT_ASSERT_NOT_NULL(test, ops->get_link);
	KUNIT_EXPECT_GT(test, rate, 0);

	memset(&ks, 0x5a, sizeof(ks));
	KUNIT_ASSERT_EQ(test, ops->get_link_ksettings(b->dev, &ks), 0);
	KUNIT_EXPECT_EQ(test, ks.base.speed, (u32)SPEED_UNKNOWN);
	KUNIT_EXPECT_EQ(test, ks.base.duplex, DUPLEX_FULL);
	KUNIT_EXPECT_EQ(test, ks.base.port, PORT_OTHER);
	KUNIT_EXPECT_EQ(test, ks.base.autoneg, AUTONEG_ENABLE);
	KUNIT_EXPECT_TRUE(test, bitmap_empty(ks.link_modes.supported,
					     __ETHTOOL_LINK_MODE_MASK_NBITS));
	KUNIT_EXPECT_TRUE(test, bitmap_empty(ks.link_modes.advertising,
					     __ETHTOOL_LINK_MODE_MASK_NBITS));
	KUNIT_EXPECT_EQ(test, ops->get_link(b->dev), 0U);

	netif_carrier_on(b->dev);
	memset(&ks, 0, sizeof(ks));
	KUNIT_ASSERT_EQ(test, ops->get_link_ksettings(b->dev, &ks), 0);
	KUNIT_EXPECT_EQ(test, ks.base.speed, (u32)rate);
	KUNIT_EXPECT_EQ(test, ks.base.duplex, DUPLEX_FULL);
	KUNIT_EXPECT_EQ(test, ops->get_link(b->dev), 1U);

	netif_carrier_off(b->dev);
	KUNIT_ASSERT_EQ(test, ops->get_link_ksettings(b->dev, &ks), 0);
	KUNIT_EXPECT_EQ(test, ks.base.speed, (u32)SPEED_UNKNOWN);
	KUNIT_EXPECT_EQ(test, ops->get_link(b->dev), 0U);
}

static struct kunit_case ipoib_ethtool_cases[] = {
	KUNIT_CASE(ipoib_ethtool_drvinfo),
	KUNIT_CASE(ipoib_ethtool_link),
	{}
};

static struct kunit_suite ipoib_ethtool_suite = {
	.name = "ipoib_ethtool",
	.test_cases = ipoib_ethtool_cases,
};

kunit_test_suite(ipoib_ethtool_suite);

MODULE_DESCRIPTION("KUnit tests of what ethtool shows of an IPoIB interface");
MODULE_LICENSE("Dual BSD/GPL");
