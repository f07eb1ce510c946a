// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_loop: loopback RDMA devices on rdmavt.
 *
 * "modprobe rdma_loop devices=N" creates N devices loop0..loopN-1, each
 * with one InfiniBand port whose LID is unique on the host; the devices
 * form one fabric in memory, so a QP reaches the QPs of its own device
 * and of the other loop devices.  Tests create and remove devices of
 * their own with rdma_loop_add_device() and rdma_loop_remove_device().
 */

#include <linux/idr.h>
#include <linux/module.h>
#include <linux/rculist.h>

#include "loop.h"

static unsigned int devices;
module_param(devices, uint, 0444);
MODULE_PARM_DESC(devices, "number of loop devices to create at load time");

/* the loop devices; writers hold loop_mutex, the engine reads under RCU */
static LIST_HEAD(loop_list);
static DEFINE_MUTEX(loop_mutex);
static DEFINE_IDA(loop_lids);

static struct rvt_dev_info *loop_find_dev_by_lid(struct rvt_dev_info *rdi,
						 u32 port, u32 dlid)
{
	struct loop_dev *ldev;

	list_for_each_entry_rcu(ldev, &loop_list, list)
		if (ldev->lid == dlid)
			return &ldev->rdi;
	return NULL;
}

/**
 * rdma_loop_add_device - create and register a loop device
 * @name: device name or name template ("loop%d")
 *
 * Return: the device or an ERR_PTR().
 */
struct loop_dev *rdma_loop_add_device(const char *name)
{
	struct rvt_dev_info *rdi;
	struct loop_dev *ldev;
	int lid, ret;

	lid = ida_alloc_range(&loop_lids, 1, 0xbfff, GFP_KERNEL);
	if (lid < 0)
		return ERR_PTR(lid);

	rdi = rvt_alloc_device(sizeof(*ldev), 1);
	if (!rdi) {
		ret = -ENOMEM;
		goto err_lid;
	}
	ldev = container_of(rdi, struct loop_dev, rdi);
	ldev->lid = lid;
	INIT_LIST_HEAD(&ldev->list);

	strscpy(rdi->ibdev.name, name, sizeof(rdi->ibdev.name));
	rdi->ibdev.ops.owner = THIS_MODULE;
	rdi->ibdev.ops.driver_id = RDMA_DRIVER_UNKNOWN;
	rdi->ibdev.node_guid = cpu_to_be64(0x02fa4e0100000000ULL |
					   ((u64)lid << 8));
	strscpy(rdi->ibdev.node_desc, "rdma_loop", sizeof(rdi->ibdev.node_desc));
	rdi->dparms.lid[0] = lid;
	rdi->dparms.gid_prefix = 0xfe80000000000000ULL;
	rdi->driver_f.find_dev_by_lid = loop_find_dev_by_lid;

	ret = rvt_register_device(rdi);
	if (ret)
		goto err_free;

	mutex_lock(&loop_mutex);
	list_add_tail_rcu(&ldev->list, &loop_list);
	mutex_unlock(&loop_mutex);
	return ldev;

err_free:
	rvt_dealloc_device(rdi);
err_lid:
	ida_free(&loop_lids, lid);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL(rdma_loop_add_device);

/**
 * rdma_loop_remove_device - unregister and free a loop device
 * @ldev: the device
 *
 * Its clients release their objects during the unregistration.
 */
void rdma_loop_remove_device(struct loop_dev *ldev)
{
	u32 lid = ldev->lid;

	mutex_lock(&loop_mutex);
	list_del_rcu(&ldev->list);
	mutex_unlock(&loop_mutex);
	/* senders that found the device have referenced their QP by now */
	synchronize_rcu();

	rvt_unregister_device(&ldev->rdi);
	rvt_dealloc_device(&ldev->rdi);
	ida_free(&loop_lids, lid);
}
EXPORT_SYMBOL(rdma_loop_remove_device);

static int __init loop_init(void)
{
	struct loop_dev *ldev;
	unsigned int i;

	for (i = 0; i < devices; i++) {
		ldev = rdma_loop_add_device("loop%d");
		if (IS_ERR(ldev)) {
			pr_err("rdma_loop: device %u: %ld\n", i, PTR_ERR(ldev));
			break;
		}
	}
	return 0;
}

static void __exit loop_exit(void)
{
	struct loop_dev *ldev, *n;

	/* devices made by tests are gone; these are the parameter's */
	list_for_each_entry_safe(ldev, n, &loop_list, list)
		rdma_loop_remove_device(ldev);
	ida_destroy(&loop_lids);
}

module_init(loop_init);
module_exit(loop_exit);

MODULE_DESCRIPTION("Loopback RDMA devices on rdmavt");
MODULE_LICENSE("Dual BSD/GPL");
