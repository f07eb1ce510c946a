// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rtnl link type "ipoib": "ip link add link ib0 name ib0.8001 type ipoib
 * pkey 0x8001 [mode datagram|connected] [umcast 0|1]" makes a P_Key
 * child; "ip -d
 * link show" reports IFLA_IPOIB_PKEY, _MODE and _UMCAST of every IPoIB
 * interface; "ip link set ... type ipoib mode/umcast" changes them.
 */

#include <linux/if_arp.h>
#include <net/rtnetlink.h>

#include "ipoib.h"

static const struct nla_policy ipoib_policy[IFLA_IPOIB_MAX + 1] = {
	[IFLA_IPOIB_PKEY]	= { .type = NLA_U16 },
	[IFLA_IPOIB_MODE]	= NLA_POLICY_MAX(NLA_U16, IPOIB_MODE_CONNECTED),
	[IFLA_IPOIB_UMCAST]	= { .type = NLA_U16 },
};

static int ipoib_changelink(struct net_device *dev, struct nlattr *tb[],
			    struct nlattr *data[],
			    struct netlink_ext_ack *extack)
{
	int ret;

	if (!data)
		return 0;
	if (data[IFLA_IPOIB_MODE]) {
		u16 mode = nla_get_u16(data[IFLA_IPOIB_MODE]);

		ret = ipoib_set_mode(dev, mode == IPOIB_MODE_CONNECTED ?
				     "connected" : "datagram", extack);
		if (ret)
			return ret;
	}
	if (data[IFLA_IPOIB_UMCAST])
		ipoib_set_umcast(ipoib_priv(dev),
				 nla_get_u16(data[IFLA_IPOIB_UMCAST]));
	return 0;
}

static int ipoib_newlink(struct net *src_net, struct net_device *dev,
			 struct nlattr *tb[], struct nlattr *data[],
			 struct netlink_ext_ack *extack)
{
	struct net_device *pdev;
	struct ipoib_priv *ppriv;
	u16 pkey;
	int ret;

	if (!tb[IFLA_LINK]) {
		NL_SET_ERR_MSG(extack, "an IPoIB child needs a parent (link)");
		return -EINVAL;
	}
	pdev = __dev_get_by_index(src_net, nla_get_u32(tb[IFLA_LINK]));
	if (!pdev || !ipoib_is_ipoib(pdev)) {
		NL_SET_ERR_MSG(extack, "the link is no IPoIB interface");
		return -ENODEV;
	}
	ppriv = ipoib_priv(pdev);
	pkey = data && data[IFLA_IPOIB_PKEY] ?
	       nla_get_u16(data[IFLA_IPOIB_PKEY]) : ppriv->pkey;
	ret = ipoib_child_add(ppriv, dev, pkey, false, extack);
	if (ret)
		return ret;
	/* the mode and umcast of the registered child */
	ret = ipoib_changelink(dev, tb, data, extack);
	if (ret)
		unregister_netdevice(dev);
	return ret;
}

/* the port's own interface goes only with its port */
static void ipoib_dellink(struct net_device *dev, struct list_head *head)
{
	if (ipoib_priv(dev)->parent)
		unregister_netdevice_queue(dev, head);
}

static size_t ipoib_get_size(const struct net_device *dev)
{
	return 3 * nla_total_size(sizeof(u16));
}

static int ipoib_fill_info(struct sk_buff *skb, const struct net_device *dev)
{
	struct ipoib_priv *priv = ipoib_priv(dev);

	if (nla_put_u16(skb, IFLA_IPOIB_PKEY, priv->pkey) ||
	    nla_put_u16(skb, IFLA_IPOIB_MODE, ipoib_mode_connected(priv) ?
			IPOIB_MODE_CONNECTED : IPOIB_MODE_DATAGRAM) ||
	    nla_put_u16(skb, IFLA_IPOIB_UMCAST,
			test_bit(IPOIB_UMCAST, &priv->flags)))
		return -EMSGSIZE;
	return 0;
}

struct rtnl_link_ops ipoib_link_ops __read_mostly = {
	.kind		= "ipoib",
	.netns_refund	= true,
	.maxtype	= IFLA_IPOIB_MAX,
	.policy		= ipoib_policy,
	.priv_size	= sizeof(struct rdma_netdev),
	.setup		= ipoib_setup,
	.newlink	= ipoib_newlink,
	.dellink	= ipoib_dellink,
	.changelink	= ipoib_changelink,
	.get_size	= ipoib_get_size,
	.fill_info	= ipoib_fill_info,
};

MODULE_ALIAS_RTNL_LINK("ipoib");
