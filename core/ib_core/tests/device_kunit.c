// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_device": allocation, registration, names, lookups and
 * unregistration of RDMA devices (core/ib_core/device.c), against fake devices
 * of rdma_fake_hca.
 */

#include <kunit/test.h>
#include <kunit/rdma_fake_hca.h>
#include <linux/completion.h>
#include <linux/netdevice.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>

#include "../core_priv.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* A one-port IB device named @name, created but not registered. */
static struct fake_hca *new_hca(struct kunit *test, const char *name)
{
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 1);
	struct fake_hca *hca;

	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = name;
	desc->port[0].gid_tbl_len = 2;
	desc->port[0].pkey_tbl_len = 2;
	hca = fake_hca_kunit_create(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hca);
	return hca;
}

static struct fake_hca *new_registered(struct kunit *test, const char *name)
{
	struct fake_hca *hca = new_hca(test, name);

	KUNIT_ASSERT_EQ(test, fake_hca_register(hca), 0);
	return hca;
}

/* Is a device of this name findable?  Drops the reference at once. */
static bool name_registered(const char *name)
{
	struct ib_device *dev = ib_device_get_by_name(name, RDMA_DRIVER_UNKNOWN);

	if (!dev)
		return false;
	ib_device_put(dev);
	return true;
}

static void expect_gone(struct kunit *test, const char *name)
{
	KUNIT_EXPECT_FALSE_MSG(test, name_registered(name),
			       "%s still found by name", name);
	KUNIT_EXPECT_FALSE_MSG(test, fake_hca_sysfs_present(name),
			       "%s still in sysfs", name);
}

/* ------------------------------------------------------------------ */

struct kunit_test_dev {
	struct ib_device ibdev;
	u64 driver_private;
};

static void rdma_device_alloc_dealloc(struct kunit *test)
{
	struct kunit_test_dev *tdev;
	struct ib_device *dev;

	tdev = ib_alloc_device(kunit_test_dev, ibdev);
	KUNIT_ASSERT_NOT_NULL(test, tdev);
	dev = &tdev->ibdev;

	/* Zeroed, initialised, unregistered. */
	KUNIT_EXPECT_EQ(test, tdev->driver_private, 0);
	KUNIT_EXPECT_EQ(test, refcount_read(&dev->refcount), 0);
	KUNIT_EXPECT_TRUE(test, list_empty(&dev->event_handler_list));
	KUNIT_EXPECT_TRUE(test, xa_empty(&dev->client_data));
	KUNIT_EXPECT_PTR_EQ(test, rdma_device_to_ibdev(&dev->dev), dev);
	KUNIT_EXPECT_FALSE(test, fake_hca_try_get_put(dev));
	KUNIT_EXPECT_FALSE(test, ib_device_registered(dev));

	ib_dealloc_device(dev);
}

static void rdma_device_register_fixed_name(struct kunit *test)
{
	struct fake_hca *hca = new_hca(test, "kudev_fixed");
	struct ib_device *found;

	KUNIT_EXPECT_FALSE(test, name_registered("kudev_fixed"));
	KUNIT_ASSERT_EQ(test, fake_hca_register(hca), 0);

	KUNIT_EXPECT_STREQ(test, hca->ibdev.name, "kudev_fixed");
	KUNIT_EXPECT_STREQ(test, dev_name(&hca->ibdev.dev), "kudev_fixed");
	KUNIT_EXPECT_TRUE(test, ib_device_registered(&hca->ibdev));
	KUNIT_EXPECT_TRUE(test, hca->ibdev.kverbs_provider);
	KUNIT_EXPECT_TRUE(test, fake_hca_sysfs_present("kudev_fixed"));

	found = ib_device_get_by_name("kudev_fixed", RDMA_DRIVER_UNKNOWN);
	KUNIT_EXPECT_PTR_EQ(test, found, &hca->ibdev);
	if (found)
		ib_device_put(found);

	fake_hca_unregister(hca);
	KUNIT_EXPECT_FALSE(test, ib_device_registered(&hca->ibdev));
	expect_gone(test, "kudev_fixed");
}

static void rdma_device_register_template_lowest_free(struct kunit *test)
{
	struct fake_hca *hca[4];
	int i;

	for (i = 0; i < 3; i++)
		hca[i] = new_registered(test, "kutpl%d");
	KUNIT_EXPECT_STREQ(test, hca[0]->ibdev.name, "kutpl0");
	KUNIT_EXPECT_STREQ(test, hca[1]->ibdev.name, "kutpl1");
	KUNIT_EXPECT_STREQ(test, hca[2]->ibdev.name, "kutpl2");

	/* The gap left by kutpl1 is reused before kutpl3 is handed out. */
	fake_hca_kunit_destroy(test, hca[1]);
	expect_gone(test, "kutpl1");
	hca[1] = new_registered(test, "kutpl%d");
	KUNIT_EXPECT_STREQ(test, hca[1]->ibdev.name, "kutpl1");
	hca[3] = new_registered(test, "kutpl%d");
	KUNIT_EXPECT_STREQ(test, hca[3]->ibdev.name, "kutpl3");

	/* The index 0 too. */
	fake_hca_kunit_destroy(test, hca[0]);
	hca[0] = new_registered(test, "kutpl%d");
	KUNIT_EXPECT_STREQ(test, hca[0]->ibdev.name, "kutpl0");
}

static void rdma_device_register_template_exact_match(struct kunit *test)
{
	struct fake_hca *a, *b, *c;

	/* "kuex01" is not index 1 of "kuex%d", nor is "kuexy". */
	a = new_registered(test, "kuex01");
	b = new_registered(test, "kuexy");
	c = new_registered(test, "kuex%d");
	KUNIT_EXPECT_STREQ(test, c->ibdev.name, "kuex0");
	c = new_registered(test, "kuex%d");
	KUNIT_EXPECT_STREQ(test, c->ibdev.name, "kuex1");
	KUNIT_EXPECT_STREQ(test, a->ibdev.name, "kuex01");
	KUNIT_EXPECT_STREQ(test, b->ibdev.name, "kuexy");
}

static void rdma_device_register_template_with_suffix(struct kunit *test)
{
	struct fake_hca *a, *b;

	a = new_registered(test, "kupre%d_suf");
	b = new_registered(test, "kupre%d_suf");
	KUNIT_EXPECT_STREQ(test, a->ibdev.name, "kupre0_suf");
	KUNIT_EXPECT_STREQ(test, b->ibdev.name, "kupre1_suf");
}

static void rdma_device_register_name_clash(struct kunit *test)
{
	struct fake_hca *first = new_registered(test, "kudup");
	struct fake_hca *second = new_hca(test, "kudup");
	struct ib_device *found;

	KUNIT_EXPECT_EQ(test, fake_hca_register(second), -EEXIST);

	/* The first device is untouched. */
	KUNIT_EXPECT_TRUE(test, ib_device_registered(&first->ibdev));
	KUNIT_EXPECT_FALSE(test, ib_device_registered(&second->ibdev));
	KUNIT_EXPECT_STREQ(test, dev_name(&first->ibdev.dev), "kudup");
	found = ib_device_get_by_name("kudup", RDMA_DRIVER_UNKNOWN);
	KUNIT_EXPECT_PTR_EQ(test, found, &first->ibdev);
	if (found)
		ib_device_put(found);
	KUNIT_EXPECT_TRUE(test, fake_hca_sysfs_present("kudup"));

	/* The loser is not poisoned: it registers under another name. */
	KUNIT_EXPECT_EQ(test, fake_hca_register_as(second, "kudup2"), 0);
	KUNIT_EXPECT_TRUE(test, name_registered("kudup2"));
	KUNIT_EXPECT_TRUE(test, name_registered("kudup"));
}

#define NAME64 "0123456789012345678901234567890123456789012345678901234567890123"

static const char * const invalid_names[] = {
	"",
	"a/b",
	"/",
	NAME64,				/* IB_DEVICE_NAME_MAX characters */
	"two%d%d",
	"x%dy%d",
	"pct%s",
	"pct%u",
	"pct%",
	"%%d",
	"%x",
};

static void invalid_name_desc(const char * const *name, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%.40s\"", *name);
}

KUNIT_ARRAY_PARAM(invalid_name, invalid_names, invalid_name_desc);

static void rdma_device_register_invalid_name(struct kunit *test)
{
	const char * const *name = test->param_value;
	struct fake_hca *hca = new_hca(test, *name);

	KUNIT_EXPECT_EQ(test, fake_hca_register(hca), -EINVAL);
	KUNIT_EXPECT_FALSE(test, ib_device_registered(&hca->ibdev));
	KUNIT_EXPECT_FALSE(test, name_registered(*name));
	/* A path with a '/' names another directory. */
	if (**name && !strchr(*name, '/'))
		KUNIT_EXPECT_FALSE(test, fake_hca_sysfs_present(*name));
	/* No driver op ran for a name that was refused. */
	KUNIT_EXPECT_EQ(test, fake_hca_op_calls(hca, FAKE_HCA_OP_ANY), 0);
}

static void rdma_device_register_longest_name(struct kunit *test)
{
	/* IB_DEVICE_NAME_MAX - 1 characters fit. */
	static const char name[] =
		"k12345678901234567890123456789012345678901234567890123456789012";
	struct fake_hca *hca;

	BUILD_BUG_ON(sizeof(name) != IB_DEVICE_NAME_MAX);
	hca = new_registered(test, name);
	KUNIT_EXPECT_STREQ(test, hca->ibdev.name, name);
	KUNIT_EXPECT_TRUE(test, name_registered(name));
}

/* ------------------------------------------------------------------
 * Rename
 */

static struct {
	unsigned int adds;
	unsigned int renames;
	struct ib_device *dev;
	void *data;
	char name_seen[IB_DEVICE_NAME_MAX];
} rename_rec;

static struct ib_client rename_client;

static int rename_client_add(struct ib_device *dev)
{
	rename_rec.adds++;
	ib_set_client_data(dev, &rename_client, &rename_rec);
	return 0;
}

static void rename_client_remove(struct ib_device *dev, void *data)
{
}

static void rename_client_rename(struct ib_device *dev, void *data)
{
	rename_rec.renames++;
	rename_rec.dev = dev;
	rename_rec.data = data;
	strscpy(rename_rec.name_seen, dev_name(&dev->dev),
		sizeof(rename_rec.name_seen));
}

static struct ib_client rename_client = {
	.name = "kunit_rename",
	.add = rename_client_add,
	.remove = rename_client_remove,
	.rename = rename_client_rename,
};

KUNIT_DEFINE_ACTION_WRAPPER(unregister_client_action, ib_unregister_client,
			    struct ib_client *);

static void rdma_device_rename(struct kunit *test)
{
	struct fake_hca *hca = new_registered(test, "kuren_a");

	memset(&rename_rec, 0, sizeof(rename_rec));
	KUNIT_ASSERT_EQ(test, ib_register_client(&rename_client), 0);
	fake_hca_kunit_add_action(test, unregister_client_action,
				  &rename_client);
	KUNIT_ASSERT_EQ(test, rename_rec.adds, 1);

	KUNIT_ASSERT_EQ(test, ib_device_rename(&hca->ibdev, "kuren_b"), 0);
	KUNIT_EXPECT_STREQ(test, hca->ibdev.name, "kuren_b");
	KUNIT_EXPECT_STREQ(test, dev_name(&hca->ibdev.dev), "kuren_b");
	KUNIT_EXPECT_FALSE(test, name_registered("kuren_a"));
	KUNIT_EXPECT_TRUE(test, name_registered("kuren_b"));
	KUNIT_EXPECT_FALSE(test, fake_hca_sysfs_present("kuren_a"));
	KUNIT_EXPECT_TRUE(test, fake_hca_sysfs_present("kuren_b"));

	/* The client heard of it, after the fact, with its data. */
	KUNIT_EXPECT_EQ(test, rename_rec.renames, 1);
	KUNIT_EXPECT_PTR_EQ(test, rename_rec.dev, &hca->ibdev);
	KUNIT_EXPECT_PTR_EQ(test, rename_rec.data, (void *)&rename_rec);
	KUNIT_EXPECT_STREQ(test, rename_rec.name_seen, "kuren_b");

	/* Renaming to the current name is a no-op. */
	KUNIT_EXPECT_EQ(test, ib_device_rename(&hca->ibdev, "kuren_b"), 0);
	KUNIT_EXPECT_STREQ(test, hca->ibdev.name, "kuren_b");

	/* A freed name can be taken again. */
	new_registered(test, "kuren_a");
}

static void rdma_device_rename_to_existing(struct kunit *test)
{
	struct fake_hca *a = new_registered(test, "kurex_a");
	struct fake_hca *b = new_registered(test, "kurex_b");

	KUNIT_EXPECT_EQ(test, ib_device_rename(&a->ibdev, "kurex_b"), -EEXIST);
	KUNIT_EXPECT_STREQ(test, a->ibdev.name, "kurex_a");
	KUNIT_EXPECT_STREQ(test, dev_name(&a->ibdev.dev), "kurex_a");
	KUNIT_EXPECT_STREQ(test, b->ibdev.name, "kurex_b");
	KUNIT_EXPECT_TRUE(test, name_registered("kurex_a"));
	KUNIT_EXPECT_TRUE(test, fake_hca_sysfs_present("kurex_a"));
}

static void rdma_device_rename_invalid(struct kunit *test)
{
	static const char * const bad[] = {
		"", "a/b", NAME64, "kuri%d", "pct%s",
	};
	struct fake_hca *hca = new_registered(test, "kurinv");
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_EQ_MSG(test, ib_device_rename(&hca->ibdev, bad[i]),
				    -EINVAL, "name \"%s\"", bad[i]);
		KUNIT_EXPECT_STREQ(test, hca->ibdev.name, "kurinv");
	}
	KUNIT_EXPECT_TRUE(test, name_registered("kurinv"));
}

/* ------------------------------------------------------------------
 * Lookups
 */

static void rdma_device_get_by_name_driver_id(struct kunit *test)
{
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 1);
	struct fake_hca *hca;
	struct ib_device *dev;

	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = "kudrv";
	desc->driver_id = FAKE_HCA_TEST_DRIVER_ID(1);
	hca = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hca);

	dev = ib_device_get_by_name("kudrv", RDMA_DRIVER_UNKNOWN);
	KUNIT_EXPECT_PTR_EQ(test, dev, &hca->ibdev);
	if (dev)
		ib_device_put(dev);
	dev = ib_device_get_by_name("kudrv", FAKE_HCA_TEST_DRIVER_ID(1));
	KUNIT_EXPECT_PTR_EQ(test, dev, &hca->ibdev);
	if (dev)
		ib_device_put(dev);
	dev = ib_device_get_by_name("kudrv", FAKE_HCA_TEST_DRIVER_ID(2));
	KUNIT_EXPECT_NULL(test, dev);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_name("kudrv_none",
						      RDMA_DRIVER_UNKNOWN));
}

static void rdma_device_get_by_index(struct kunit *test)
{
	struct fake_hca *a = new_registered(test, "kuidx_a");
	struct fake_hca *b = new_registered(test, "kuidx_b");
	struct ib_device *dev;
	u32 index_a = a->ibdev.index;

	KUNIT_EXPECT_NE(test, a->ibdev.index, b->ibdev.index);
	dev = ib_device_get_by_index(&init_net, a->ibdev.index);
	KUNIT_EXPECT_PTR_EQ(test, dev, &a->ibdev);
	if (dev)
		ib_device_put(dev);
	dev = ib_device_get_by_index(&init_net, b->ibdev.index);
	KUNIT_EXPECT_PTR_EQ(test, dev, &b->ibdev);
	if (dev)
		ib_device_put(dev);

	fake_hca_kunit_destroy(test, a);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_index(&init_net, index_a));
}

static void rdma_device_get_by_netdev(struct kunit *test)
{
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 2);
	struct fake_hca *hca, *other;
	struct net_device *ndev, *ndev_other, *got;
	struct ib_device *dev;

	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = "kundev";
	fake_hca_desc_set_eth(desc, 2);
	hca = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hca);
	desc->name = "kundev_o";
	other = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, other);

	ndev = fake_hca_netdev(hca, 2);
	ndev_other = fake_hca_netdev(other, 2);
	KUNIT_ASSERT_NOT_NULL(test, ndev);
	KUNIT_ASSERT_NOT_NULL(test, ndev_other);

	dev = ib_device_get_by_netdev(ndev, RDMA_DRIVER_UNKNOWN);
	KUNIT_EXPECT_PTR_EQ(test, dev, &hca->ibdev);
	if (dev)
		ib_device_put(dev);
	dev = ib_device_get_by_netdev(ndev_other, FAKE_HCA_DRIVER_ID);
	KUNIT_EXPECT_PTR_EQ(test, dev, &other->ibdev);
	if (dev)
		ib_device_put(dev);
	dev = ib_device_get_by_netdev(ndev, FAKE_HCA_TEST_DRIVER_ID(3));
	KUNIT_EXPECT_NULL(test, dev);

	/* ib_device_get_netdev() gives the binding back, with a reference. */
	got = ib_device_get_netdev(&hca->ibdev, 2);
	KUNIT_EXPECT_PTR_EQ(test, got, ndev);
	dev_put(got);
	/* An IB port has no net device. */
	got = ib_device_get_netdev(&hca->ibdev, 1);
	KUNIT_EXPECT_NULL(test, got);
	dev_put(got);

	/* Unregistered devices are not found. */
	fake_hca_unregister(hca);
	KUNIT_EXPECT_NULL(test, ib_device_get_by_netdev(ndev,
							RDMA_DRIVER_UNKNOWN));
}

/* ------------------------------------------------------------------
 * Unregistration
 */

/* A device the core frees by itself, registered under @name. */
static struct fake_hca *new_self_freeing(struct kunit *test, const char *name,
					 enum rdma_driver_id driver_id)
{
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 1);
	struct fake_hca *hca;

	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = name;
	desc->driver_id = driver_id;
	desc->dealloc_driver = true;
	hca = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hca);
	return hca;
}

static void rdma_device_unregister_driver(struct kunit *test)
{
	enum rdma_driver_id id = FAKE_HCA_TEST_DRIVER_ID(10);
	struct fake_hca *hca[3];
	char names[3][16];
	int i;

	for (i = 0; i < 3; i++) {
		hca[i] = new_self_freeing(test, "kuud%d", id);
		strscpy(names[i], hca[i]->ibdev.name, sizeof(names[i]));
	}
	/* Of another driver: must survive. */
	new_self_freeing(test, "kuud_other", FAKE_HCA_TEST_DRIVER_ID(11));

	/* The core frees them: the test must not. */
	for (i = 0; i < 3; i++)
		fake_hca_kunit_forget(test, hca[i]);
	ib_unregister_driver(id);

	for (i = 0; i < 3; i++)
		expect_gone(test, names[i]);
	KUNIT_EXPECT_TRUE(test, name_registered("kuud_other"));

	/* Nothing of that driver is left to unregister: a no-op. */
	ib_unregister_driver(id);
	KUNIT_EXPECT_TRUE(test, name_registered("kuud_other"));
}

static void rdma_device_unregister_queued(struct kunit *test)
{
	enum rdma_driver_id id = FAKE_HCA_TEST_DRIVER_ID(12);
	struct fake_hca *hca = new_self_freeing(test, "kuuq", id);
	struct ib_device *dev = &hca->ibdev;

	/*
	 * Holding a reference: a synchronous unregistration would wait for
	 * it forever, a queued one returns at once.
	 */
	KUNIT_ASSERT_TRUE(test, ib_device_try_get(dev));
	fake_hca_kunit_forget(test, hca);
	ib_unregister_device_queued(dev);
	ib_device_put(dev);

	/* ib_unregister_driver() waits for queued unregistrations. */
	ib_unregister_driver(id);
	expect_gone(test, "kuuq");
}

static void rdma_device_unregister_and_put(struct kunit *test)
{
	struct ib_device *dev;

	new_self_freeing(test, "kuuap", FAKE_HCA_TEST_DRIVER_ID(13));

	dev = ib_device_get_by_name("kuuap", RDMA_DRIVER_UNKNOWN);
	KUNIT_ASSERT_NOT_NULL(test, dev);
	fake_hca_kunit_forget(test, to_fake_hca(dev));
	ib_unregister_device_and_put(dev);
	expect_gone(test, "kuuap");
}

static void rdma_device_unregister_twice(struct kunit *test)
{
	struct fake_hca *hca = new_registered(test, "kuu2");

	fake_hca_unregister(hca);
	expect_gone(test, "kuu2");
	/* Documented as a no-op. */
	fake_hca_unregister(hca);
	KUNIT_EXPECT_FALSE(test, ib_device_registered(&hca->ibdev));

	/* The name is free again. */
	new_registered(test, "kuu2");
}

/*
 * A device whose dealloc_driver blocks until the test lets it go, to
 * look at the core while a driver op still runs for a device that is
 * being freed.  Its state lives outside the device, which is freed.
 */
struct slow_dealloc {
	struct ib_device	*dev;
	struct work_struct	unreg;
	struct delayed_work	let_go;
	struct completion	entered;	/* dealloc_driver runs */
	struct completion	release;	/* let dealloc_driver return */
	struct completion	unreg_done;	/* @unreg returned */
	bool			returned;	/* dealloc_driver returned */
};

struct slow_dealloc_dev {
	struct ib_device	ibdev;
	struct slow_dealloc	*sd;
};

static void slow_dealloc_driver(struct ib_device *ibdev)
{
	struct slow_dealloc *sd =
		container_of(ibdev, struct slow_dealloc_dev, ibdev)->sd;

	complete(&sd->entered);
	/* bounded: a core that does not wait must not hang the suite */
	wait_for_completion_timeout(&sd->release, 10 * HZ);
	WRITE_ONCE(sd->returned, true);
}

static int slow_query_device(struct ib_device *ibdev,
			     struct ib_device_attr *attr,
			     struct ib_udata *udata)
{
	memset(attr, 0, sizeof(*attr));
	return 0;
}

static int slow_query_port(struct ib_device *ibdev, u32 port,
			   struct ib_port_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->state = IB_PORT_DOWN;
	return 0;
}

static int slow_get_port_immutable(struct ib_device *ibdev, u32 port,
				   struct ib_port_immutable *immutable)
{
	memset(immutable, 0, sizeof(*immutable));
	return 0;
}

static const struct ib_device_ops slow_dealloc_ops = {
	.driver_id = FAKE_HCA_TEST_DRIVER_ID(14),
	.dealloc_driver = slow_dealloc_driver,
	.get_port_immutable = slow_get_port_immutable,
	.query_device = slow_query_device,
	.query_port = slow_query_port,
};

static void slow_dealloc_unreg(struct work_struct *work)
{
	struct slow_dealloc *sd = container_of(work, struct slow_dealloc,
					       unreg);

	ib_unregister_device(sd->dev);
	complete(&sd->unreg_done);
}

static void slow_dealloc_let_go(struct work_struct *work)
{
	struct slow_dealloc *sd = container_of(to_delayed_work(work),
					       struct slow_dealloc, let_go);

	complete(&sd->release);
}

static void rdma_device_unregister_driver_waits_for_dealloc(struct kunit *test)
{
	struct slow_dealloc_dev *sdev;
	struct slow_dealloc *sd;
	bool entered, returned;

	sd = kunit_kzalloc(test, sizeof(*sd), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sd);
	init_completion(&sd->entered);
	init_completion(&sd->release);
	init_completion(&sd->unreg_done);
	INIT_WORK(&sd->unreg, slow_dealloc_unreg);
	INIT_DELAYED_WORK(&sd->let_go, slow_dealloc_let_go);

	sdev = ib_alloc_device(slow_dealloc_dev, ibdev);
	KUNIT_ASSERT_NOT_NULL(test, sdev);
	sdev->sd = sd;
	sd->dev = &sdev->ibdev;
	sdev->ibdev.phys_port_cnt = 1;
	ib_set_device_ops(&sdev->ibdev, &slow_dealloc_ops);
	if (ib_register_device(&sdev->ibdev, "kuslow", NULL)) {
		complete(&sd->release);
		ib_dealloc_device(&sdev->ibdev);
		KUNIT_FAIL(test, "registration failed");
		return;
	}

	/* One unregistration runs dealloc_driver and stays in it. */
	schedule_work(&sd->unreg);
	entered = wait_for_completion_timeout(&sd->entered, 10 * HZ);
	KUNIT_EXPECT_TRUE(test, entered);
	if (entered) {
		/* Gone from lookups and sysfs, but the name is still taken. */
		KUNIT_EXPECT_FALSE(test, name_registered("kuslow"));
		KUNIT_EXPECT_FALSE(test, fake_hca_sysfs_present("kuslow"));
		KUNIT_EXPECT_EQ(test, fake_hca_register(new_hca(test, "kuslow")),
				-EEXIST);

		/*
		 * The driver's module exit, while the op still runs: it
		 * must return only after the op did.
		 */
		schedule_delayed_work(&sd->let_go, HZ / 5);
		ib_unregister_driver(FAKE_HCA_TEST_DRIVER_ID(14));
		returned = READ_ONCE(sd->returned);
		KUNIT_EXPECT_TRUE_MSG(test, returned,
				      "ib_unregister_driver() returned while dealloc_driver ran");
	}
	complete(&sd->release);
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&sd->unreg_done,
							    20 * HZ));
	flush_work(&sd->unreg);
	flush_delayed_work(&sd->let_go);
	expect_gone(test, "kuslow");
}

/* ------------------------------------------------------------------
 * Failing registrations
 */

struct reg_fault {
	enum fake_hca_op op;
	int err;
};

/* Each op the core needs to register a device, failing its first call. */
static const struct reg_fault reg_faults[] = {
	{ FAKE_HCA_OP_GET_PORT_IMMUTABLE, -EIO },
	{ FAKE_HCA_OP_QUERY_DEVICE, -ENOMEM },
	{ FAKE_HCA_OP_QUERY_PORT, -EIO },
	{ FAKE_HCA_OP_QUERY_PKEY, -EIO },
	{ FAKE_HCA_OP_QUERY_GID, -ETIMEDOUT },
	{ FAKE_HCA_OP_ENABLE_DRIVER, -ENODEV },
};

static void reg_fault_desc(const struct reg_fault *f, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s %d", fake_hca_op_name(f->op),
		 f->err);
}

KUNIT_ARRAY_PARAM(reg_fault, reg_faults, reg_fault_desc);

static unsigned int reg_fault_adds, reg_fault_removes;

static int reg_fault_client_add(struct ib_device *dev)
{
	reg_fault_adds++;
	return 0;
}

static void reg_fault_client_remove(struct ib_device *dev, void *data)
{
	reg_fault_removes++;
}

static struct ib_client reg_fault_client = {
	.name = "kunit_reg_fault",
	.add = reg_fault_client_add,
	.remove = reg_fault_client_remove,
};

static void rdma_device_register_op_fails(struct kunit *test)
{
	const struct reg_fault *f = test->param_value;
	struct fake_hca *hca = new_hca(test, "kurf");

	reg_fault_adds = 0;
	reg_fault_removes = 0;
	KUNIT_ASSERT_EQ(test, ib_register_client(&reg_fault_client), 0);
	fake_hca_kunit_add_action(test, unregister_client_action,
				  &reg_fault_client);

	fake_hca_fail_nth(hca, f->op, 1, f->err);
	KUNIT_EXPECT_EQ(test, fake_hca_register(hca), f->err);
	KUNIT_EXPECT_EQ(test, fake_hca_faults_fired(hca), 1);

	/* Nothing left behind; clients saw nothing or a balanced pair. */
	KUNIT_EXPECT_FALSE(test, ib_device_registered(&hca->ibdev));
	expect_gone(test, "kurf");
	KUNIT_EXPECT_EQ(test, reg_fault_adds, reg_fault_removes);
	KUNIT_EXPECT_NULL(test, ib_get_client_data(&hca->ibdev,
						   &reg_fault_client));

	/* The name can be used again. */
	new_registered(test, "kurf");
	KUNIT_EXPECT_TRUE(test, name_registered("kurf"));
	KUNIT_EXPECT_EQ(test, reg_fault_adds, reg_fault_removes + 1);
}

static void rdma_device_kverbs_provider(struct kunit *test)
{
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 1);
	struct fake_hca *full, *partial;

	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = "kukv_full";
	full = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, full);
	desc->name = "kukv_part";
	desc->no_kverbs = true;
	partial = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, partial);

	KUNIT_EXPECT_TRUE(test, full->ibdev.kverbs_provider);
	KUNIT_EXPECT_FALSE(test, partial->ibdev.kverbs_provider);
	/* Not a kverbs provider, but registered all the same. */
	KUNIT_EXPECT_TRUE(test, name_registered("kukv_part"));
}

static void rdma_device_attrs_from_query_device(struct kunit *test)
{
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 2);
	struct fake_hca *hca;
	char fw[IB_FW_VERSION_NAME_MAX];

	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = "kuattr";
	desc->sys_image_guid = 0x1122334455667788ULL;
	desc->fw_ver = "9.8.7";
	desc->port[1].pkey_tbl_len = 16;
	hca = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hca);

	/* The core cached query_device's answer at registration. */
	KUNIT_EXPECT_EQ(test, fake_hca_op_calls(hca, FAKE_HCA_OP_QUERY_DEVICE), 1);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(hca->ibdev.attrs.sys_image_guid),
			0x1122334455667788ULL);
	KUNIT_EXPECT_EQ(test, hca->ibdev.attrs.max_pkeys, 16);
	KUNIT_EXPECT_EQ(test,
			fake_hca_op_calls(hca, FAKE_HCA_OP_GET_PORT_IMMUTABLE),
			2);
	KUNIT_EXPECT_EQ(test, hca->ibdev.port_data[2].immutable.pkey_tbl_len,
			16);
	KUNIT_EXPECT_TRUE(test, rdma_cap_ib_mad(&hca->ibdev, 1));
	KUNIT_EXPECT_EQ(test, rdma_max_mad_size(&hca->ibdev, 1),
			FAKE_HCA_MAD_SIZE);

	memset(fw, 'x', sizeof(fw));
	ib_get_device_fw_str(&hca->ibdev, fw);
	KUNIT_EXPECT_STREQ(test, fw, "9.8.7");
}

static struct kunit_case rdma_device_cases[] = {
	KUNIT_CASE(rdma_device_alloc_dealloc),
	KUNIT_CASE(rdma_device_register_fixed_name),
	KUNIT_CASE(rdma_device_register_template_lowest_free),
	KUNIT_CASE(rdma_device_register_template_exact_match),
	KUNIT_CASE(rdma_device_register_template_with_suffix),
	KUNIT_CASE(rdma_device_register_name_clash),
	KUNIT_CASE_PARAM(rdma_device_register_invalid_name,
			 invalid_name_gen_params),
	KUNIT_CASE(rdma_device_register_longest_name),
	KUNIT_CASE(rdma_device_rename),
	KUNIT_CASE(rdma_device_rename_to_existing),
	KUNIT_CASE(rdma_device_rename_invalid),
	KUNIT_CASE(rdma_device_get_by_name_driver_id),
	KUNIT_CASE(rdma_device_get_by_index),
	KUNIT_CASE(rdma_device_get_by_netdev),
	KUNIT_CASE(rdma_device_unregister_driver),
	KUNIT_CASE(rdma_device_unregister_queued),
	KUNIT_CASE(rdma_device_unregister_and_put),
	KUNIT_CASE(rdma_device_unregister_twice),
	KUNIT_CASE(rdma_device_unregister_driver_waits_for_dealloc),
	KUNIT_CASE_PARAM(rdma_device_register_op_fails, reg_fault_gen_params),
	KUNIT_CASE(rdma_device_kverbs_provider),
	KUNIT_CASE(rdma_device_attrs_from_query_device),
	{}
};

static struct kunit_suite rdma_device_suite = {
	.name = "rdma_device",
	.test_cases = rdma_device_cases,
};

kunit_test_suite(rdma_device_suite);

MODULE_DESCRIPTION("KUnit tests of RDMA device registration");
MODULE_LICENSE("Dual BSD/GPL");
