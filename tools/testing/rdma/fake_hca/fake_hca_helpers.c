// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_fake_hca: helpers for KUnit tests.  Devices, descriptions and net
 * devices that go when the test ends, a recording event handler, and
 * checks of references and sysfs.
 */

#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/fs.h>
#include <linux/namei.h>
#include <linux/sched.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <rdma/ib_verbs.h>

#include "fake_hca_priv.h"

KUNIT_DEFINE_ACTION_WRAPPER(fake_hca_destroy_action, fake_hca_destroy,
			    struct fake_hca *);

static struct fake_hca *fake_hca_kunit_adopt(struct kunit *test,
					     struct fake_hca *hca)
{
	int ret;

	if (IS_ERR(hca))
		return hca;
	ret = kunit_add_action_or_reset(test, fake_hca_destroy_action, hca);
	if (ret)
		return ERR_PTR(ret);
	return hca;
}

/**
 * fake_hca_kunit_create - fake_hca_create() for a KUnit test
 * @test: the test
 * @desc: what the device looks like
 *
 * The device is destroyed (unregistered first if needed) when the test
 * ends, also after a failed assertion.  To destroy it earlier, call
 * fake_hca_kunit_destroy(); when the test makes the core free it
 * (dealloc_driver), call fake_hca_kunit_forget() first.
 *
 * Context: Process context, the test's thread; sleeps as fake_hca_create()
 * does (and allocates the KUnit action with GFP_KERNEL).
 *
 * Return: the device or an ERR_PTR().
 */
struct fake_hca *fake_hca_kunit_create(struct kunit *test,
				       const struct fake_hca_desc *desc)
{
	return fake_hca_kunit_adopt(test, fake_hca_create(desc));
}
EXPORT_SYMBOL_GPL(fake_hca_kunit_create);

/**
 * fake_hca_kunit_create_registered - fake_hca_create_registered() for a
 * KUnit test
 * @test: the test
 * @desc: what the device looks like
 *
 * Context: Process context, the test's thread; sleeps as
 * fake_hca_create_registered() does.
 *
 * Return: the registered device or an ERR_PTR().
 */
struct fake_hca *fake_hca_kunit_create_registered(struct kunit *test,
						  const struct fake_hca_desc *desc)
{
	return fake_hca_kunit_adopt(test, fake_hca_create_registered(desc));
}
EXPORT_SYMBOL_GPL(fake_hca_kunit_create_registered);

/**
 * fake_hca_kunit_destroy - destroy a device of fake_hca_kunit_create() now
 * @test: the test
 * @hca: the device
 *
 * Context: Process context, the test's thread; sleeps as fake_hca_destroy()
 * does.
 */
void fake_hca_kunit_destroy(struct kunit *test, struct fake_hca *hca)
{
	kunit_release_action(test, fake_hca_destroy_action, hca);
}
EXPORT_SYMBOL_GPL(fake_hca_kunit_destroy);

/**
 * fake_hca_kunit_add_action - kunit_add_action_or_reset() that fails the
 * test when the action cannot be added
 * @test: the test
 * @action: called with @ctx when the test ends (at once if adding failed)
 * @ctx: its argument
 *
 * Context: Process context, the test's thread; sleeps (GFP_KERNEL). A
 * failure aborts the test (KUNIT_ASSERT), so only from the test's thread.
 */
void fake_hca_kunit_add_action(struct kunit *test, void (*action)(void *),
			       void *ctx)
{
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, action, ctx), 0);
}
EXPORT_SYMBOL_GPL(fake_hca_kunit_add_action);

/**
 * fake_hca_kunit_forget - stop destroying a device when the test ends
 * @test: the test
 * @hca: the device
 *
 * For a device the core frees by itself (dealloc_driver) because the test
 * unregisters it through the core, e.g. with ib_unregister_driver().
 *
 * Context: Process context, the test's thread; takes the test's resource
 * lock (a spinlock), does not sleep.
 */
void fake_hca_kunit_forget(struct kunit *test, struct fake_hca *hca)
{
	kunit_remove_action(test, fake_hca_destroy_action, hca);
}
EXPORT_SYMBOL_GPL(fake_hca_kunit_forget);

/**
 * fake_hca_netdev_new - a dummy-like net device, for a suite's shared bed
 * @mac: its MAC address, or NULL for a random one
 *
 * The net device of fake_hca_kunit_netdev(), owned by the caller (a
 * suite_init(), say), who frees it with fake_hca_netdev_free() after every
 * device bound to it went.
 *
 * Context: Process context; sleeps (register_netdev() takes the RTNL lock;
 * GFP_KERNEL).
 *
 * Return: the registered net device or an ERR_PTR().
 */
struct net_device *fake_hca_netdev_new(const u8 *mac)
{
	struct fake_hca_port_desc pd = {};

	if (mac)
		ether_addr_copy(pd.mac, mac);
	pd.netdev_name = "fkhcat%d";
	return fake_hca_netdev_create(&pd);
}
EXPORT_SYMBOL_GPL(fake_hca_netdev_new);

/**
 * fake_hca_netdev_free - unregister and free a fake_hca_netdev_new() device
 * @ndev: the net device, or NULL (nothing to do)
 *
 * Context: Process context, not under the RTNL lock; sleeps.
 */
void fake_hca_netdev_free(struct net_device *ndev)
{
	if (ndev)
		fake_hca_netdev_destroy(ndev);
}
EXPORT_SYMBOL_GPL(fake_hca_netdev_free);

KUNIT_DEFINE_ACTION_WRAPPER(fake_hca_netdev_destroy_action,
			    fake_hca_netdev_destroy, struct net_device *);

/**
 * fake_hca_kunit_netdev - a dummy-like net device for a test
 * @test: the test; the net device is unregistered and freed when it ends
 * @mac: its MAC address, or NULL for a random one
 *
 * Create it before any device it is bound to, so that it goes after
 * them: a net device is only freed when nobody holds it.
 *
 * Context: Process context, the test's thread; sleeps (register_netdev()
 * takes the RTNL lock; GFP_KERNEL).
 *
 * Return: the registered net device or an ERR_PTR().
 */
struct net_device *fake_hca_kunit_netdev(struct kunit *test, const u8 *mac)
{
	struct fake_hca_port_desc pd = {};
	struct net_device *dev;
	int ret;

	if (mac)
		ether_addr_copy(pd.mac, mac);
	pd.netdev_name = "fkhcat%d";
	dev = fake_hca_netdev_create(&pd);
	if (IS_ERR(dev))
		return dev;
	ret = kunit_add_action_or_reset(test, fake_hca_netdev_destroy_action,
					dev);
	if (ret)
		return ERR_PTR(ret);
	return dev;
}
EXPORT_SYMBOL_GPL(fake_hca_kunit_netdev);

/**
 * fake_hca_kunit_desc - a default description in test-managed memory
 * @test: the test
 * @num_ports: number of (IB) ports
 *
 * Context: Process context; sleeps (GFP_KERNEL).
 *
 * Return: the description (freed when the test ends) or NULL.
 */
struct fake_hca_desc *fake_hca_kunit_desc(struct kunit *test, u32 num_ports)
{
	struct fake_hca_desc *desc;

	desc = kunit_kmalloc(test, sizeof(*desc), GFP_KERNEL);
	if (desc)
		fake_hca_desc_init(desc, num_ports);
	return desc;
}
EXPORT_SYMBOL_GPL(fake_hca_kunit_desc);

/**
 * fake_hca_try_get_put - can a reference be taken on a device now?
 * @ibdev: the device
 *
 * Context: Any context; takes no lock. Dropping the last reference
 * completes the device's unregistration wait, which is atomic-safe.
 *
 * Return: what ib_device_try_get() returned; the reference, if any, is
 * dropped again.
 */
bool fake_hca_try_get_put(struct ib_device *ibdev)
{
	if (!ib_device_try_get(ibdev))
		return false;
	ib_device_put(ibdev);
	return true;
}
EXPORT_SYMBOL_GPL(fake_hca_try_get_put);

/**
 * fake_hca_sysfs_present - whether a device directory exists in sysfs
 * @name: device name
 *
 * Context: Process context; sleeps (GFP_KERNEL, path lookup).
 *
 * Return: true when /sys/class/infiniband/@name resolves.
 */
bool fake_hca_sysfs_present(const char *name)
{
	struct path path;
	char *p;
	int ret;

	p = kasprintf(GFP_KERNEL, "/sys/class/infiniband/%s", name);
	if (!p)
		return false;
	ret = kern_path(p, LOOKUP_FOLLOW, &path);
	kfree(p);
	if (ret)
		return false;
	path_put(&path);
	return true;
}
EXPORT_SYMBOL_GPL(fake_hca_sysfs_present);

static void fake_hca_event_log_handler(struct ib_event_handler *handler,
				       struct ib_event *event)
{
	struct fake_hca_event_log *log =
		container_of(handler, struct fake_hca_event_log, handler);
	unsigned long flags;

	spin_lock_irqsave(&log->lock, flags);
	if (log->count < FAKE_HCA_EVENT_LOG_LEN)
		log->events[log->count] = *event;
	log->count++;
	spin_unlock_irqrestore(&log->lock, flags);
	wake_up_all(&log->wq);
}

KUNIT_DEFINE_ACTION_WRAPPER(fake_hca_unregister_handler_action,
			    ib_unregister_event_handler,
			    struct ib_event_handler *);

/**
 * fake_hca_kunit_event_log - register a recording event handler
 * @test: the test; the handler is unregistered when it ends
 * @ibdev: the device
 *
 * Context: Process context, the test's thread; sleeps (GFP_KERNEL; takes
 * the device's event_handler_rwsem for writing).
 *
 * Return: the log, or NULL when memory ran out.
 */
struct fake_hca_event_log *fake_hca_kunit_event_log(struct kunit *test,
						    struct ib_device *ibdev)
{
	struct fake_hca_event_log *log;

	log = kunit_kzalloc(test, sizeof(*log), GFP_KERNEL);
	if (!log)
		return NULL;
	spin_lock_init(&log->lock);
	init_waitqueue_head(&log->wq);
	INIT_IB_EVENT_HANDLER(&log->handler, ibdev, fake_hca_event_log_handler);
	ib_register_event_handler(&log->handler);
	if (kunit_add_action_or_reset(test, fake_hca_unregister_handler_action,
				      &log->handler))
		return NULL;
	return log;
}
EXPORT_SYMBOL_GPL(fake_hca_kunit_event_log);

/**
 * fake_hca_kunit_event_log_release - unregister a log's handler now
 * @test: the test
 * @log: from fake_hca_kunit_event_log()
 *
 * The log stays readable until the test ends.
 *
 * Context: Process context, the test's thread; sleeps (takes the device's
 * event_handler_rwsem for writing).
 */
void fake_hca_kunit_event_log_release(struct kunit *test,
				      struct fake_hca_event_log *log)
{
	kunit_release_action(test, fake_hca_unregister_handler_action,
			     &log->handler);
}
EXPORT_SYMBOL_GPL(fake_hca_kunit_event_log_release);

/**
 * fake_hca_event_count - events a log received so far
 * @log: the log
 *
 * Context: Any context; takes the log's spinlock (IRQ-safe).
 *
 * Return: the number of events received, also those beyond the
 * FAKE_HCA_EVENT_LOG_LEN the log keeps.
 */
unsigned int fake_hca_event_count(struct fake_hca_event_log *log)
{
	unsigned long flags;
	unsigned int n;

	spin_lock_irqsave(&log->lock, flags);
	n = log->count;
	spin_unlock_irqrestore(&log->lock, flags);
	return n;
}
EXPORT_SYMBOL_GPL(fake_hca_event_count);

/**
 * fake_hca_event_wait - wait until a log holds some number of events
 * @log: the log
 * @count: number of events to wait for (in total, not more)
 * @timeout_ms: give up after this long
 *
 * Context: Process context; sleeps up to @timeout_ms. Not from an event
 * handler: the events are delivered on the workqueue that runs them.
 *
 * Return: true when @count events arrived in time.
 */
bool fake_hca_event_wait(struct fake_hca_event_log *log, unsigned int count,
			 unsigned int timeout_ms)
{
	return wait_event_timeout(log->wq, fake_hca_event_count(log) >= count,
				  msecs_to_jiffies(timeout_ms)) > 0 ||
	       fake_hca_event_count(log) >= count;
}
EXPORT_SYMBOL_GPL(fake_hca_event_wait);

#define FAKE_HCA_FAILSLAB_DIR	"/sys/kernel/debug/failslab/"

/* ------------------------------------------------------------------
 * failslab through debugfs
 *
 * The knobs are debugfs files of simple attributes: they have no
 * read_iter/write_iter, so kernel_read() and kernel_write() refuse them,
 * and their read/write want user memory, which a KUnit thread has none
 * of.  debugfs documents that such a file's inode i_private points to
 * the variable behind it: resolve the file and use the variable.
 */

static void *failslab_knob(struct kunit *test, const char *name)
{
	struct path path;
	char file[64];
	void *var;
	int ret;

	snprintf(file, sizeof(file), FAKE_HCA_FAILSLAB_DIR "%s", name);
	ret = kern_path(file, LOOKUP_FOLLOW, &path);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0,
			    "%s: %d (needs CONFIG_FAILSLAB, CONFIG_FAULT_INJECTION_DEBUG_FS, debugfs mounted)",
			    file, ret);
	var = d_inode(path.dentry)->i_private;
	path_put(&path);
	KUNIT_ASSERT_NOT_NULL_MSG(test, var, "%s has no variable", file);
	return var;
}

static void failslab_restore(void *data)
{
	struct fake_hca_failslab *fs = data;

	/* times first: from then on nothing fails, whatever the rest says. */
	atomic_set(fs->times, 0);
#ifdef CONFIG_FAULT_INJECTION
	current->make_it_fail = 0;
	current->fail_nth = 0;
#endif
	WRITE_ONCE(*fs->ignore_gfp_wait, fs->old_ignore_gfp_wait);
	WRITE_ONCE(*fs->task_filter, fs->old_task_filter);
	WRITE_ONCE(*fs->verbose, fs->old_verbose);
	WRITE_ONCE(*fs->interval, fs->old_interval);
	WRITE_ONCE(*fs->probability, fs->old_probability);
	atomic_set(fs->space, fs->old_space);
	atomic_set(fs->times, fs->old_times);
}

/**
 * fake_hca_kunit_failslab - set failslab up for fail-nth in a test
 * @test: the test; the knobs are put back when it ends
 *
 * Find the failslab knobs, save them (restored when the test ends) and
 * set them for fail-nth: every allocation counts (also those that may
 * sleep), nothing fails at random, and quietly (the default verbosity
 * dumps a stack per failure, which the test bed takes for a splat).
 * The test then sets current->fail_nth around the call under test.
 *
 * Context: Process context, the test's thread; sleeps (GFP_KERNEL, path
 * lookups). Fails the test (KUNIT_ASSERT) when a knob is missing.
 *
 * Return: the knobs and their old values; the test fails (asserts) when
 * failslab's debugfs files are missing.
 */
struct fake_hca_failslab *fake_hca_kunit_failslab(struct kunit *test)
{
	struct fake_hca_failslab *fs = kunit_kzalloc(test, sizeof(*fs), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, fs);
	fs->times = failslab_knob(test, "times");
	fs->space = failslab_knob(test, "space");
	fs->probability = failslab_knob(test, "probability");
	fs->interval = failslab_knob(test, "interval");
	fs->verbose = failslab_knob(test, "verbose");
	fs->task_filter = failslab_knob(test, "task-filter");
	fs->ignore_gfp_wait = failslab_knob(test, "ignore-gfp-wait");

	fs->old_times = atomic_read(fs->times);
	fs->old_space = atomic_read(fs->space);
	fs->old_probability = READ_ONCE(*fs->probability);
	fs->old_interval = READ_ONCE(*fs->interval);
	fs->old_verbose = READ_ONCE(*fs->verbose);
	fs->old_task_filter = READ_ONCE(*fs->task_filter);
	fs->old_ignore_gfp_wait = READ_ONCE(*fs->ignore_gfp_wait);
	fake_hca_kunit_add_action(test, failslab_restore, fs);

	WRITE_ONCE(*fs->probability, 0);
	WRITE_ONCE(*fs->task_filter, true);
	WRITE_ONCE(*fs->ignore_gfp_wait, false);
	WRITE_ONCE(*fs->verbose, 0);
	return fs;
}
EXPORT_SYMBOL_GPL(fake_hca_kunit_failslab);

/**
 * fake_hca_failslab_disarm - nothing fails from here on (for suite_exit)
 *
 * Context: Process context; sleeps (path lookup).
 */
void fake_hca_failslab_disarm(void)
{
	struct path path;
	atomic_t *times;

	if (kern_path(FAKE_HCA_FAILSLAB_DIR "times", LOOKUP_FOLLOW, &path))
		return;
	times = d_inode(path.dentry)->i_private;
	if (times)
		atomic_set(times, 0);
	path_put(&path);
}
EXPORT_SYMBOL_GPL(fake_hca_failslab_disarm);
