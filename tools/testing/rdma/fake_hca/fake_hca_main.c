// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_fake_hca: an RDMA driver without hardware.  See
 * <kunit/rdma_fake_hca.h> for the API the KUnit suites use; the module
 * parameter "devices" registers demo devices for the integration
 * scenarios.
 *
 * The sources, by what they fake:
 *   fake_hca_main.c     module load and exit, the demo devices
 *   fake_hca_device.c   descriptions; create, register, destroy
 *   fake_hca_port.c     the device and its ports (query_device,
 *                       query_port, ...), sysfs, port state changes
 *   fake_hca_tables.c   GID and P_Key tables
 *   fake_hca_verbs.c    the kernel verbs objects (all refused)
 *   fake_hca_netdev.c   net devices of RoCE ports
 *   fake_hca_link.c     link type "fake" (rdma link add)
 *   fake_hca_faults.c   op call counters and injected faults
 *   fake_hca_helpers.c  KUnit helpers
 */

#include <linux/list.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "fake_hca_priv.h"

/* Every fake device, from fake_hca_create() to its release. */
LIST_HEAD(fake_hca_list);
/* protects fake_hca_list */
DEFINE_MUTEX(fake_hca_list_lock);

/* ------------------------------------------------------------------
 * Demo devices (module parameter "devices")
 *
 * tools/testing/rdma/scenarios/10-sysfs.sh checks every value below
 * through sysfs: change both together.  Device i (0, 1, ...) registers
 * as "fake%d" (fake0, fake1, ... on a system without other fake devices).
 *
 *   node_guid       0002:fa4e:0000:i000   sys_image_guid 0002:fa4e:0000:ffii
 *   fw_ver          1.2.<i>               node_desc "fake HCA <i>"
 *   hca_type        FAKE-HCA-DEMO
 *   port 1 (IB)     ACTIVE/LinkUp, lid 0x1<i>1, sm_lid 0x1, lmc 1, sm_sl 3,
 *                   cap_mask 0x02010c00, 4X EDR = 100 Gb/sec,
 *                   gid 0 fe80::node_guid+1, pkeys 0xffff 0x8001
 *   port 2 (RoCE)   ACTIVE/LinkUp, net device fketh<i>,
 *                   MAC 02:fa:4e:00:0<i>:02, cap_mask 0x04010000,
 *                   1X EDR = 25 Gb/sec, pkey 0 = 0xffff
 */
static unsigned int devices;
module_param(devices, uint, 0444);
MODULE_PARM_DESC(devices, "number of demo devices to register at load (default 0)");

#define FAKE_HCA_DEMO_MAX	8

static const u16 fake_hca_demo_pkeys[] = { 0xffff, 0x8001 };

static int fake_hca_demo_add(unsigned int i)
{
	char node_desc[IB_DEVICE_NODE_DESC_MAX];
	char netdev_name[IFNAMSIZ];
	struct fake_hca_port_desc *pd;
	struct fake_hca_desc *desc;
	char fw_ver[16];
	struct fake_hca *hca;
	int ret = 0;

	desc = kzalloc(sizeof(*desc), GFP_KERNEL);
	if (!desc)
		return -ENOMEM;

	fake_hca_desc_init(desc, 2);
	desc->name = "fake%d";
	desc->node_guid = 0x0002fa4e00000000ULL + ((u64)i << 12);
	desc->sys_image_guid = 0x0002fa4e0000ff00ULL + i;
	snprintf(fw_ver, sizeof(fw_ver), "1.2.%u", i);
	desc->fw_ver = fw_ver;
	snprintf(node_desc, sizeof(node_desc), "fake HCA %u", i);
	desc->node_desc = node_desc;
	desc->hca_type = "FAKE-HCA-DEMO";
	desc->driver_id = FAKE_HCA_DRIVER_ID;
	desc->dealloc_driver = true;

	pd = &desc->port[0];
	pd->lid = 0x101 + (i << 4);
	pd->sm_lid = 0x1;
	pd->lmc = 1;
	pd->sm_sl = 3;
	pd->port_cap_flags = FAKE_HCA_PORT_SM_DISABLED |
			     FAKE_HCA_PORT_SYS_IMAGE_GUID |
			     FAKE_HCA_PORT_CM_SUP | FAKE_HCA_PORT_CLIENT_REG_SUP;
	pd->pkeys = fake_hca_demo_pkeys;
	pd->num_pkeys = ARRAY_SIZE(fake_hca_demo_pkeys);

	fake_hca_desc_set_eth(desc, 2);
	pd = &desc->port[1];
	snprintf(netdev_name, sizeof(netdev_name), "fketh%u", i);
	pd->netdev_name = netdev_name;
	pd->mac[0] = 0x02;
	pd->mac[1] = 0xfa;
	pd->mac[2] = 0x4e;
	pd->mac[4] = i;
	pd->mac[5] = 0x02;

	hca = fake_hca_create_registered(desc);
	if (IS_ERR(hca))
		ret = PTR_ERR(hca);
	else
		hca->demo = true;
	kfree(desc);
	return ret;
}

static int __init fake_hca_init(void)
{
	unsigned int i;
	int ret;

	if (devices > FAKE_HCA_DEMO_MAX)
		return -EINVAL;
	ret = fake_hca_link_init();
	if (ret)
		return ret;
	for (i = 0; i < devices; i++) {
		ret = fake_hca_demo_add(i);
		if (ret) {
			pr_err("rdma_fake_hca: demo device %u: %d\n", i, ret);
			goto err_demo;
		}
	}
	return 0;

err_demo:
	ib_unregister_driver(FAKE_HCA_DRIVER_ID);
	fake_hca_link_exit();
	return ret;
}

static void __exit fake_hca_exit(void)
{
	struct fake_hca *hca;

	fake_hca_link_exit();

	/*
	 * Devices a test forgot (a bug of the test): free them, or the core
	 * would call into a module that is gone.
	 */
	for (;;) {
		mutex_lock(&fake_hca_list_lock);
		list_for_each_entry(hca, &fake_hca_list, list)
			if (!hca->demo)
				break;
		mutex_unlock(&fake_hca_list_lock);
		if (list_entry_is_head(hca, &fake_hca_list, list))
			break;
		pr_warn("rdma_fake_hca: destroying leaked device %s\n",
			dev_name(&hca->ibdev.dev));
		fake_hca_destroy(hca);
	}

	ib_unregister_driver(FAKE_HCA_DRIVER_ID);
}

module_init(fake_hca_init);
module_exit(fake_hca_exit);

MODULE_DESCRIPTION("Fake RDMA HCA for the tests of the RDMA core");
MODULE_LICENSE("Dual BSD/GPL");
