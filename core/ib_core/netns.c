// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ib_core's state per network namespace: the namespace's NETLINK_RDMA
 * socket, and an entry in rdma_nets so the core can visit every
 * namespace.
 */
#include <linux/rwsem.h>
#include <linux/xarray.h>
#include <net/net_namespace.h>

#include "core_priv.h"

unsigned int rdma_dev_net_id;

/*
 * Every live namespace's rdma_dev_net, by rdma_dev_net.id.  Entries are
 * added and removed under rdma_nets_rwsem held for writing; walkers hold
 * it for reading, which keeps each entry's namespace alive.
 */
static DEFINE_XARRAY_FLAGS(rdma_nets, XA_FLAGS_ALLOC);
static DECLARE_RWSEM(rdma_nets_rwsem);

static __net_init int rdma_dev_init_net(struct net *net)
{
	struct rdma_dev_net *rnet = rdma_net_to_dev_net(net);
	int ret;

	write_pnet(&rnet->net, net);

	ret = rdma_nl_net_init(rnet);
	if (ret)
		return ret;

	down_write(&rdma_nets_rwsem);
	ret = xa_alloc(&rdma_nets, &rnet->id, rnet, xa_limit_32b, GFP_KERNEL);
	up_write(&rdma_nets_rwsem);
	if (ret)
		goto err_nl;
	return 0;

err_nl:
	rdma_nl_net_exit(rnet);
	return ret;
}

static __net_exit void rdma_dev_exit_net(struct net *net)
{
	struct rdma_dev_net *rnet = rdma_net_to_dev_net(net);

	down_write(&rdma_nets_rwsem);
	xa_erase(&rdma_nets, rnet->id);
	up_write(&rdma_nets_rwsem);

	/* Exclusive mode: what lived here goes home to init_net. */
	rdma_dev_net_release_devices(net);
	rdma_nl_net_exit(rnet);
}

/**
 * rdma_compatdev_set - switch between shared and exclusive netns mode
 * @enable: 1 for shared, 0 for exclusive
 *
 * The mode can only change while the initial namespace is the only one
 * (upstream's rule): a device that was moved into a namespace, or a
 * namespace that sees devices it would not see in the other mode, would
 * otherwise be left in an undefined state.
 *
 * Return: 0 (also when the mode already is @enable) or -EBUSY.
 */
int rdma_compatdev_set(u8 enable)
{
	struct rdma_dev_net *rnet;
	unsigned long index;
	int ret = 0;

	down_write(&rdma_nets_rwsem);
	if (ib_devices_shared_netns == enable)
		goto out;
	xa_for_each(&rdma_nets, index, rnet) {
		if (!net_eq(read_pnet(&rnet->net), &init_net)) {
			ret = -EBUSY;
			goto out;
		}
	}
	WRITE_ONCE(ib_devices_shared_netns, !!enable);
out:
	up_write(&rdma_nets_rwsem);
	return ret;
}

static struct pernet_operations rdma_dev_net_ops = {
	.init = rdma_dev_init_net,
	.exit = rdma_dev_exit_net,
	.id = &rdma_dev_net_id,
	.size = sizeof(struct rdma_dev_net),
};

int rdma_netns_init(void)
{
	return register_pernet_device(&rdma_dev_net_ops);
}

void rdma_netns_exit(void)
{
	unregister_pernet_device(&rdma_dev_net_ops);
}
