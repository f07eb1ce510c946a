// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ib_core module init and exit: the core's workqueues and the class.
 */
#include <linux/module.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#include "core_priv.h"

MODULE_AUTHOR("The rdma-next authors");
MODULE_DESCRIPTION("RDMA core: devices, clients, verbs");
MODULE_LICENSE("Dual BSD/GPL");

/* General work of the core and of ULPs. */
struct workqueue_struct *ib_wq;
EXPORT_SYMBOL_GPL(ib_wq);

/* CQ polling for IB_POLL_WORKQUEUE and IB_POLL_UNBOUND_WORKQUEUE. */
struct workqueue_struct *ib_comp_wq;
struct workqueue_struct *ib_comp_unbound_wq;

/* ib_unregister_device_queued(); ib_unregister_driver() flushes it. */
struct workqueue_struct *ib_unreg_wq;

static int __init ib_core_init(void)
{
	int ret = -ENOMEM;

	ib_wq = alloc_workqueue("infiniband", 0, 0);
	if (!ib_wq)
		return -ENOMEM;

	ib_comp_wq = alloc_workqueue("ib-comp-wq",
				     WQ_HIGHPRI | WQ_MEM_RECLAIM | WQ_SYSFS, 0);
	if (!ib_comp_wq)
		goto err_wq;

	ib_comp_unbound_wq =
		alloc_workqueue("ib-comp-unb-wq",
				WQ_UNBOUND | WQ_HIGHPRI | WQ_MEM_RECLAIM |
				WQ_SYSFS, WQ_UNBOUND_MAX_ACTIVE);
	if (!ib_comp_unbound_wq)
		goto err_comp;

	ib_event_wq = alloc_ordered_workqueue("ib-event", WQ_MEM_RECLAIM);
	if (!ib_event_wq)
		goto err_comp_unbound;

	ib_unreg_wq = alloc_workqueue("ib-unreg-wq", WQ_UNBOUND, 0);
	if (!ib_unreg_wq)
		goto err_event;

	ret = rdma_addr_init();
	if (ret) {
		pr_warn("ib_core: could not set up address resolution\n");
		goto err_unreg;
	}

	ret = roce_gid_mgmt_init();
	if (ret) {
		pr_warn("ib_core: could not follow net devices for RoCE GIDs\n");
		goto err_addr;
	}

	ret = class_register(&ib_class);
	if (ret) {
		pr_warn("ib_core: could not register the device class\n");
		goto err_roce;
	}

	rdma_nl_init();
	ret = rdma_netns_init();
	if (ret) {
		pr_warn("ib_core: could not set up network namespaces\n");
		goto err_class;
	}
	nldev_init();
	ret = ib_mad_init();
	if (ret) {
		pr_warn("ib_core: could not register the MAD layer\n");
		goto err_nldev;
	}
	ret = ib_sa_init();
	if (ret)
		goto err_mad;
	return 0;

err_mad:
	ib_mad_cleanup();
err_nldev:
	nldev_exit();
	rdma_netns_exit();
	rdma_nl_exit();
err_class:
	class_unregister(&ib_class);
err_roce:
	roce_gid_mgmt_cleanup();
err_addr:
	rdma_addr_cleanup();
err_unreg:
	destroy_workqueue(ib_unreg_wq);
err_event:
	destroy_workqueue(ib_event_wq);
err_comp_unbound:
	destroy_workqueue(ib_comp_unbound_wq);
err_comp:
	destroy_workqueue(ib_comp_wq);
err_wq:
	destroy_workqueue(ib_wq);
	return ret;
}

static void __exit ib_core_exit(void)
{
	ib_sa_cleanup();
	ib_mad_cleanup();
	nldev_exit();
	rdma_netns_exit();
	rdma_nl_exit();
	class_unregister(&ib_class);
	roce_gid_mgmt_cleanup();
	rdma_addr_cleanup();
	destroy_workqueue(ib_unreg_wq);
	destroy_workqueue(ib_event_wq);
	destroy_workqueue(ib_comp_unbound_wq);
	destroy_workqueue(ib_comp_wq);
	/* Frees of devices are deferred by RCU. */
	rcu_barrier();
	destroy_workqueue(ib_wq);
}

module_init(ib_core_init);
module_exit(ib_core_exit);
