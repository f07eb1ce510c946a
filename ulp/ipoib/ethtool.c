// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ethtool for IPoIB interfaces: the driver and the HCA's firmware, the
 * link state, and the port's speed as ethtool tells it (lane rate times
 * width, full duplex).
 */

#include <kunit/visibility.h>
#include <linux/ethtool.h>

#include "ipoib.h"

static void ipoib_get_drvinfo(struct net_device *dev,
			      struct ethtool_drvinfo *info)
{
	struct ipoib_priv *priv = ipoib_priv(dev);

	strscpy(info->driver, "ib_ipoib", sizeof(info->driver));
	ib_get_device_fw_str(priv->ca, info->fw_version);
	strscpy(info->bus_info, dev_name(&priv->ca->dev),
		sizeof(info->bus_info));
}

/* Mb/s of one lane (IBA 14.2.5.6, PortInfo:LinkSpeedActive) */
static int ipoib_lane_speed(u16 speed)
{
	switch (speed) {
	case IB_SPEED_SDR:
		return SPEED_2500;
	case IB_SPEED_DDR:
		return SPEED_5000;
	case IB_SPEED_QDR:
	case IB_SPEED_FDR10:
		return SPEED_10000;
	case IB_SPEED_FDR:
		return SPEED_14000;
	case IB_SPEED_EDR:
		return SPEED_25000;
	case IB_SPEED_HDR:
		return SPEED_50000;
	case IB_SPEED_NDR:
		return SPEED_100000;
	case IB_SPEED_XDR:
		return SPEED_200000;
	default:
		return SPEED_UNKNOWN;
	}
}

static int ipoib_get_link_ksettings(struct net_device *dev,
				    struct ethtool_link_ksettings *cmd)
{
	struct ipoib_priv *priv = ipoib_priv(dev);
	struct ib_port_attr attr;
	int ret, lane, width;

	ret = ib_query_port(priv->ca, priv->port, &attr);
	if (ret)
		return ret;
	ethtool_link_ksettings_zero_link_mode(cmd, supported);
	ethtool_link_ksettings_zero_link_mode(cmd, advertising);
	lane = ipoib_lane_speed(attr.active_speed);
	width = ib_width_enum_to_int(attr.active_width);
	cmd->base.speed = lane > 0 && width > 0 && netif_carrier_ok(dev) ?
			  lane * width : SPEED_UNKNOWN;
	cmd->base.duplex = DUPLEX_FULL;
	cmd->base.port = PORT_OTHER;
	cmd->base.phy_address = 0xff;
	cmd->base.autoneg = AUTONEG_ENABLE;
	return 0;
}

const struct ethtool_ops ipoib_ethtool_ops = {
	.get_drvinfo		= ipoib_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_link_ksettings	= ipoib_get_link_ksettings,
};
EXPORT_SYMBOL_IF_KUNIT(ipoib_ethtool_ops);
