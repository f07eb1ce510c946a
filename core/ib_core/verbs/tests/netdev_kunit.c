// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_netdev": rdma_alloc_netdev() and rdma_init_netdev()
 * (core/ib_core/verbs/rdma_netdev.c) against a driver op of the suite's own.  Neither
 * function needs a registered device, only its ops, so the device here
 * is a bare struct ib_device.
 */

#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <rdma/ib_verbs.h>

/* what the suite's driver op hands out and what its hooks saw */
struct netdev_drv {
	int get_ret;		/* rdma_netdev_get_params()'s answer */
	size_t sizeof_priv;
	bool no_init;		/* leave initialize_rdma_netdev out */
	int init_ret;
	unsigned int get_calls;
	u32 port_seen;
	enum rdma_netdev_t type_seen;
	struct net_device *init_netdev;
	void *init_param;
	unsigned int setup_calls;
};

static struct netdev_drv drv;

static int drv_init(struct ib_device *device, u32 port_num,
		    struct net_device *netdev, void *param)
{
	drv.init_netdev = netdev;
	drv.init_param = param;
	return drv.init_ret;
}

static int drv_get_params(struct ib_device *device, u32 port_num,
			  enum rdma_netdev_t type,
			  struct rdma_netdev_alloc_params *params)
{
	drv.get_calls++;
	drv.port_seen = port_num;
	drv.type_seen = type;
	if (drv.get_ret)
		return drv.get_ret;
	params->sizeof_priv = drv.sizeof_priv;
	params->txqs = 2;
	params->rxqs = 3;
	params->param = &drv;
	params->initialize_rdma_netdev = drv.no_init ? NULL : drv_init;
	return 0;
}

static void drv_setup(struct net_device *dev)
{
	drv.setup_calls++;
	ether_setup(dev);
}

static struct ib_device *new_ibdev(struct kunit *test, bool with_op)
{
	struct ib_device *ibdev = kunit_kzalloc(test, sizeof(*ibdev),
						GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ibdev);
	if (with_op)
		ibdev->ops.rdma_netdev_get_params = drv_get_params;
	memset(&drv, 0, sizeof(drv));
	drv.sizeof_priv = sizeof(struct rdma_netdev) + 64;
	return ibdev;
}

/* a driver without the op has no net device for anyone */
static void rdma_netdev_no_op(struct kunit *test)
{
	struct ib_device *ibdev = new_ibdev(test, false);
	struct net_device *dev;

	dev = rdma_alloc_netdev(ibdev, 1, RDMA_NETDEV_IPOIB, "ib%d",
				NET_NAME_UNKNOWN, drv_setup);
	KUNIT_EXPECT_EQ(test, PTR_ERR(dev), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, rdma_init_netdev(ibdev, 1, RDMA_NETDEV_IPOIB,
					       "ib%d", NET_NAME_UNKNOWN,
					       drv_setup, NULL), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, drv.setup_calls, 0);
}

/* the driver's refusal (a type it does not do) is the caller's answer */
static void rdma_netdev_driver_refuses(struct kunit *test)
{
	struct ib_device *ibdev = new_ibdev(test, true);
	struct net_device *dev;

	drv.get_ret = -EOPNOTSUPP;
	dev = rdma_alloc_netdev(ibdev, 2, RDMA_NETDEV_OPA_VNIC, "v%d",
				NET_NAME_UNKNOWN, drv_setup);
	KUNIT_EXPECT_EQ(test, PTR_ERR(dev), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, drv.get_calls, 1);
	KUNIT_EXPECT_EQ(test, drv.port_seen, 2);
	KUNIT_EXPECT_EQ(test, drv.type_seen, RDMA_NETDEV_OPA_VNIC);
	KUNIT_EXPECT_EQ(test, drv.setup_calls, 0);
	KUNIT_EXPECT_EQ(test, rdma_init_netdev(ibdev, 2, RDMA_NETDEV_OPA_VNIC,
					       "v%d", NET_NAME_UNKNOWN,
					       drv_setup, NULL), -EOPNOTSUPP);
	KUNIT_EXPECT_NULL(test, drv.init_netdev);
}

/* the net device has the private size and queues the driver asked for */
static void rdma_netdev_alloc_and_init(struct kunit *test)
{
	struct ib_device *ibdev = new_ibdev(test, true);
	struct net_device *dev;

	dev = rdma_alloc_netdev(ibdev, 1, RDMA_NETDEV_IPOIB, "kunitib%d",
				NET_NAME_UNKNOWN, drv_setup);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(dev));
	KUNIT_EXPECT_EQ(test, drv.setup_calls, 1);
	KUNIT_EXPECT_EQ(test, dev->num_tx_queues, 2);
	KUNIT_EXPECT_EQ(test, dev->num_rx_queues, 3);
	KUNIT_EXPECT_STREQ(test, dev->name, "kunitib%d");
	KUNIT_EXPECT_EQ(test, drv.type_seen, RDMA_NETDEV_IPOIB);

	drv.init_ret = -EIO;
	KUNIT_EXPECT_EQ(test, rdma_init_netdev(ibdev, 1, RDMA_NETDEV_IPOIB,
					       "kunitib%d", NET_NAME_UNKNOWN,
					       drv_setup, dev), -EIO);
	KUNIT_EXPECT_PTR_EQ(test, drv.init_netdev, dev);
	KUNIT_EXPECT_PTR_EQ(test, drv.init_param, (void *)&drv);
	drv.init_ret = 0;
	KUNIT_EXPECT_EQ(test, rdma_init_netdev(ibdev, 1, RDMA_NETDEV_IPOIB,
					       "kunitib%d", NET_NAME_UNKNOWN,
					       drv_setup, dev), 0);
	free_netdev(dev);
}

/*
 * A driver that leaves no room for struct rdma_netdev, or no
 * initialisation hook, gets -EINVAL rather than a net device its users
 * would write past.
 */
static void rdma_netdev_bad_params(struct kunit *test)
{
	struct ib_device *ibdev = new_ibdev(test, true);

	drv.sizeof_priv = sizeof(struct rdma_netdev) - 1;
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_alloc_netdev(ibdev, 1,
							RDMA_NETDEV_IPOIB,
							"ib%d",
							NET_NAME_UNKNOWN,
							drv_setup)), -EINVAL);
	drv.sizeof_priv = sizeof(struct rdma_netdev);
	drv.no_init = true;
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_alloc_netdev(ibdev, 1,
							RDMA_NETDEV_IPOIB,
							"ib%d",
							NET_NAME_UNKNOWN,
							drv_setup)), -EINVAL);
	KUNIT_EXPECT_EQ(test, drv.setup_calls, 0);
}

static struct kunit_case rdma_netdev_cases[] = {
	KUNIT_CASE(rdma_netdev_no_op),
	KUNIT_CASE(rdma_netdev_driver_refuses),
	KUNIT_CASE(rdma_netdev_alloc_and_init),
	KUNIT_CASE(rdma_netdev_bad_params),
	{}
};

static struct kunit_suite rdma_netdev_suite = {
	.name = "rdma_netdev",
	.test_cases = rdma_netdev_cases,
};

kunit_test_suite(rdma_netdev_suite);

MODULE_DESCRIPTION("KUnit tests of rdma_alloc_netdev() and rdma_init_netdev()");
MODULE_LICENSE("Dual BSD/GPL");
