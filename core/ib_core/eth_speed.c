// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The InfiniBand speed and width that describe an Ethernet port: RoCE and
 * iWARP devices report their net device's link speed in the IB terms of
 * struct ib_port_attr (active_speed, active_width), which sysfs and
 * "rdma link show" turn back into a rate.
 */
#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <rdma/ib_verbs.h>

/*
 * Without a lane count the link is described by its total rate: the first
 * row whose @max_mbps covers it gives a width and lane speed whose product
 * is at least the rate (so a 40G link reads as 4X FDR10, not 1X).
 */
static const struct {
	u32 max_mbps;
	u8 width;
	u16 speed;
} eth_rate_rows[] = {
	{ SPEED_1000,	IB_WIDTH_1X, IB_SPEED_SDR },
	{ SPEED_10000,	IB_WIDTH_1X, IB_SPEED_FDR10 },
	{ SPEED_20000,	IB_WIDTH_4X, IB_SPEED_DDR },
	{ SPEED_25000,	IB_WIDTH_1X, IB_SPEED_EDR },
	{ SPEED_40000,	IB_WIDTH_4X, IB_SPEED_FDR10 },
	{ SPEED_50000,	IB_WIDTH_2X, IB_SPEED_EDR },
	{ SPEED_100000,	IB_WIDTH_4X, IB_SPEED_EDR },
	{ SPEED_200000,	IB_WIDTH_4X, IB_SPEED_HDR },
};

/* With a lane count, the per-lane rate picks the IB speed. */
static const struct {
	u32 lane_mbps;
	u16 speed;
} eth_lane_rows[] = {
	{ SPEED_2500,	IB_SPEED_SDR },
	{ SPEED_5000,	IB_SPEED_DDR },
	{ SPEED_10000,	IB_SPEED_FDR10 },
	{ SPEED_14000,	IB_SPEED_FDR },
	{ SPEED_25000,	IB_SPEED_EDR },
	{ SPEED_50000,	IB_SPEED_HDR },
	{ SPEED_100000,	IB_SPEED_NDR },
};

static u8 eth_lanes_to_width(u32 lanes)
{
	switch (lanes) {
	case 2:
		return IB_WIDTH_2X;
	case 4:
		return IB_WIDTH_4X;
	case 8:
		return IB_WIDTH_8X;
	case 12:
		return IB_WIDTH_12X;
	default:
		return IB_WIDTH_1X;
	}
}

static void eth_to_ib_rate(u32 mbps, u32 lanes, u16 *speed, u8 *width)
{
	unsigned int i;

	if (lanes) {
		*width = eth_lanes_to_width(lanes);
		*speed = IB_SPEED_SDR;
		for (i = 0; i < ARRAY_SIZE(eth_lane_rows); i++)
			if (eth_lane_rows[i].lane_mbps == mbps / lanes)
				*speed = eth_lane_rows[i].speed;
		return;
	}
	/* faster than every row: the fastest IB rate we name */
	*width = IB_WIDTH_4X;
	*speed = IB_SPEED_NDR;
	for (i = 0; i < ARRAY_SIZE(eth_rate_rows); i++) {
		if (mbps <= eth_rate_rows[i].max_mbps) {
			*width = eth_rate_rows[i].width;
			*speed = eth_rate_rows[i].speed;
			return;
		}
	}
}

/**
 * ib_get_eth_speed - the IB speed and width of an Ethernet port
 * @dev: the device
 * @port_num: a port whose link layer is Ethernet, with a net device bound
 * @speed: set to an IB_SPEED_* value
 * @width: set to an IB_WIDTH_* value
 *
 * Asks the port's net device for its link settings (ethtool).  A net
 * device that cannot tell its speed (dummy, lo: no ethtool link settings)
 * is taken for 1 Gb/s, as upstream does, so such ports report 1X SDR.
 *
 * Context: process context; sleeps (takes the RTNL lock).
 * Return: 0, -EINVAL if the port's link layer is not Ethernet, -ENODEV if
 * no net device is bound to it or it is being unregistered.
 */
int ib_get_eth_speed(struct ib_device *dev, u32 port_num, u16 *speed,
		     u8 *width)
{
	struct ethtool_link_ksettings ks = {};
	struct net_device *ndev;
	u32 mbps = SPEED_1000;
	int ret;

	if (rdma_port_get_link_layer(dev, port_num) != IB_LINK_LAYER_ETHERNET)
		return -EINVAL;
	ndev = ib_device_get_netdev(dev, port_num);
	if (!ndev)
		return -ENODEV;

	rtnl_lock();
	if (READ_ONCE(ndev->reg_state) != NETREG_REGISTERED) {
		ret = -ENODEV;
		goto out;
	}
	ret = __ethtool_get_link_ksettings(ndev, &ks);
	if (ret)
		netdev_warn_once(ndev, "link speed unknown (%d), taking %u Mb/s\n",
				 ret, mbps);
	else if (ks.base.speed != (u32)SPEED_UNKNOWN)
		mbps = ks.base.speed;
	ret = 0;
out:
	rtnl_unlock();
	dev_put(ndev);
	if (!ret)
		eth_to_ib_rate(mbps, ks.lanes, speed, width);
	return ret;
}
EXPORT_SYMBOL(ib_get_eth_speed);
