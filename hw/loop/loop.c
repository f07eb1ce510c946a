// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_loop: loopback RDMA devices on rdmavt.
 *
 * "modprobe rdma_loop devices=N" creates N devices loop0..loopN-1, each
 * with one InfiniBand port whose LID is unique on the host; the devices
 * form one fabric in memory, so a QP reaches the QPs of its own device
 * and of the other loop devices.  With "managed=1" the ports start in
 * INIT without a LID and wait for a subnet manager (rdmavt's SMA).
 * Tests create and remove devices of their own with
 * rdma_loop_add_device() (or rdma_loop_add_device_flags()) and
 * rdma_loop_remove_device().
 * "rdma link add NAME type loop netdev lo" creates one more; "rdma link
 * delete NAME" (or unloading the module) removes it.
 */

#include <linux/idr.h>
#include <linux/module.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <rdma/rdma_netlink.h>

#include <kunit/visibility.h>

#include "loop.h"
#include "switch.h"

/* what an HCA says of itself: the GUIDs' OUI, "LH" */
#define LOOP_VENDOR_ID	0x02fa4e
#define LOOP_PART_ID	0x4c48

static unsigned int devices;
module_param(devices, uint, 0444);
MODULE_PARM_DESC(devices, "number of loop devices to create at load time");

static bool managed;
module_param(managed, bool, 0444);
MODULE_PARM_DESC(managed,
		 "new devices wait for a subnet manager (port in INIT, no LID) instead of starting ACTIVE with a LID of their own");

static unsigned int switch_ports = 8;
module_param(switch_ports, uint, 0444);
MODULE_PARM_DESC(switch_ports,
		 "external ports of the fabric's emulated switch (0: no switch, 1..16)");

/* the fabric's switch, or NULL (switch_ports=0); for the module's life */
static struct loop_switch *loop_sw;

/*
 * The loop devices, which are also the fabric: loop_mutex serialises
 * writers of loop_list and of each loop_dev's @linked; the engine reads
 * the list under RCU.  Devices enter before their registration and leave
 * in their dealloc hook, so module exit finds every device here.
 */
static LIST_HEAD(loop_list);
static DEFINE_MUTEX(loop_mutex);
static DEFINE_IDA(loop_lids);

/*
 * The end of a device's teardown.  Its dealloc hook runs under the
 * device's unregistration lock, and after the hook rdmavt still tears
 * down its part of the device (workqueue, tables) before ib_core lets go
 * of the lock.  So the hook cannot be the one to tell module exit that
 * the device is done: it queues the device's @reap item here instead,
 * which waits for that lock.  Module exit destroys this workqueue last,
 * and thereby waits until no code of ours or of rdmavt runs for any loop
 * device, whoever unregistered it.
 */
static struct workqueue_struct *loop_reap_wq;

static struct rvt_dev_info *loop_find_dev_by_lid(struct rvt_dev_info *rdi,
						 u32 port, u32 dlid)
{
	struct loop_dev *ldev;
	struct rvt_dev_info *dest;
	bool handled;

	/* through the switch once a subnet manager programmed it */
	if (loop_sw) {
		ldev = container_of(rdi, struct loop_dev, rdi);
		dest = loop_switch_route_lid(loop_sw, ldev, dlid, &handled);
		if (handled)
			return dest;
	}
	/* the ports' current LIDs and LMCs, whoever assigned them */
	list_for_each_entry_rcu(ldev, &loop_list, list)
		if (rvt_port_by_lid(&ldev->rdi, dlid))
			return &ldev->rdi;
	return NULL;
}

#if IS_ENABLED(CONFIG_KUNIT)
/*
 * The GMP filter of the KUnit suites (rdma_loop_set_gmp_filter()): read
 * by the engine under RCU, replaced under loop_mutex.
 */
struct loop_gmp_filter {
	rdma_loop_gmp_filter_t	fn;
	void			*ctx;
};

static struct loop_gmp_filter __rcu *loop_filter;

/*
 * What the filter decides for a GMP leaving @ldev for @dlid: a duplicate
 * is handed to the destination port here, ahead of the original that
 * the engine then delivers as usual.  Inside rcu_read_lock().
 */
static enum rdma_loop_gmp_fate loop_filter_gmp(struct loop_dev *ldev,
					       u32 port, u32 slid, u32 dlid,
					       void *mad, u32 len)
{
	struct loop_gmp_filter *f = rcu_dereference(loop_filter);
	enum rdma_loop_gmp_fate fate;
	struct rvt_dev_info *dest;
	u32 dport;

	if (!f)
		return RDMA_LOOP_GMP_PASS;
	fate = f->fn(f->ctx, &ldev->rdi.ibdev, mad);
	if (fate != RDMA_LOOP_GMP_DUPLICATE)
		return fate;
	dest = loop_find_dev_by_lid(&ldev->rdi, port, dlid);
	dport = dest ? rvt_port_by_lid(dest, dlid) : 0;
	if (dport)
		rvt_deliver_mad(dest, dport, 1, mad, len, slid, 1);
	return RDMA_LOOP_GMP_PASS;
}

/**
 * rdma_loop_set_gmp_filter - see, drop or duplicate the GMPs of the fabric
 * @fn: called for each MAD that a loop port sends on QP1 to another port
 *	(a GMP crossing the fabric), or NULL to remove the filter
 * @ctx: passed to @fn
 *
 * A test hook for the suites of the MAD users (the IB CM's lost and
 * duplicated messages): @fn sees the MAD and the sending device and
 * answers RDMA_LOOP_GMP_PASS (delivered as usual), RDMA_LOOP_GMP_DROP
 * (lost on the way; the sender's completion is a success, as for any
 * datagram) or RDMA_LOOP_GMP_DUPLICATE (the destination receives it
 * twice).  @fn runs in the sender's engine with bottom halves off and
 * inside rcu_read_lock(): it must not sleep.  One filter at a time.
 *
 * Context: Process context; takes loop_mutex and waits for an RCU grace
 * period.
 *
 * Return: 0, or -ENOMEM (the filter is then unchanged).
 */
int rdma_loop_set_gmp_filter(rdma_loop_gmp_filter_t fn, void *ctx)
{
	struct loop_gmp_filter *new = NULL, *old;

	if (fn) {
		new = kzalloc(sizeof(*new), GFP_KERNEL);
		if (!new)
			return -ENOMEM;
		new->fn = fn;
		new->ctx = ctx;
	}
	mutex_lock(&loop_mutex);
	old = rcu_replace_pointer(loop_filter, new,
				  lockdep_is_held(&loop_mutex));
	mutex_unlock(&loop_mutex);
	synchronize_rcu();
	kfree(old);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rdma_loop_set_gmp_filter);
#else
static enum rdma_loop_gmp_fate loop_filter_gmp(struct loop_dev *ldev,
					       u32 port, u32 slid, u32 dlid,
					       void *mad, u32 len)
{
	return RDMA_LOOP_GMP_PASS;
}
#endif

/* QP0's and QP1's packets leaving a port: to the switch (route_mad) */
static bool loop_route_mad(struct rvt_dev_info *rdi, u32 port, u32 qpn,
			   u32 slid, u32 dlid, void *mad, u32 len)
{
	struct loop_dev *ldev = container_of(rdi, struct loop_dev, rdi);

	if (len != sizeof(struct ib_mad))
		return false;
	if (qpn == 1 &&
	    loop_filter_gmp(ldev, port, slid, dlid, mad, len) ==
	    RDMA_LOOP_GMP_DROP)
		return true;
	return loop_switch_route_mad(loop_sw, ldev, qpn, dlid, mad);
}

/*
 * Multicast reaches every loop device: the fabric is the whole list,
 * walked under the caller's RCU read lock.  A device unlinked meanwhile
 * still leads on to the rest of the list.
 */
static struct rvt_dev_info *loop_next_fabric_dev(struct rvt_dev_info *rdi,
						 u32 port,
						 struct rvt_dev_info *prev)
{
	struct loop_dev *ldev;

	if (!prev) {
		ldev = list_first_or_null_rcu(&loop_list, struct loop_dev,
					      list);
	} else {
		ldev = container_of(prev, struct loop_dev, rdi);
		ldev = list_next_or_null_rcu(&loop_list, &ldev->list,
					     struct loop_dev, list);
	}
	return ldev ? &ldev->rdi : NULL;
}

/*
 * Runs once the unregistration that called loop_dealloc() is over:
 * ib_unregister_device() of a device already unregistered only waits for
 * the device's unregistration lock, which ib_core holds until rdmavt's
 * dealloc_driver has returned.  (A device whose registration failed holds
 * no such lock; the newlink() or module init that freed it is fenced by
 * module exit itself.)
 */
static void loop_reap(struct work_struct *work)
{
	struct loop_dev *ldev = container_of(work, struct loop_dev, reap);
	struct ib_device *ibdev = &ldev->rdi.ibdev;

	ib_unregister_device(ibdev);
	/* the reference loop_dealloc() took; may free the device */
	put_device(&ibdev->dev);
}

/*
 * The dealloc hook: ib_core calls it (through rdmavt, before rdmavt's own
 * teardown) once every client left the device, whoever unregistered it.
 * Senders find devices under RCU and reference the destination QP before
 * rcu_read_unlock(); after the grace period none can reach this device
 * any more.
 */
static void loop_dealloc(struct rvt_dev_info *rdi)
{
	struct loop_dev *ldev = container_of(rdi, struct loop_dev, rdi);

	mutex_lock(&loop_mutex);
	if (ldev->linked) {
		list_del_rcu(&ldev->list);
		ldev->linked = false;
	}
	/* the switch port goes down; the grace period below covers it */
	if (loop_sw)
		loop_switch_uncable(loop_sw, ldev);
	/*
	 * Together with leaving the list: module exit either still finds
	 * the device there or finds its reap item on loop_reap_wq.
	 */
	get_device(&rdi->ibdev.dev);
	queue_work(loop_reap_wq, &ldev->reap);
	mutex_unlock(&loop_mutex);
	synchronize_rcu();
	/* nothing finds the device by LID any more: the LID may be reused */
	ida_free(&loop_lids, ldev->lid);
}

static struct loop_dev *loop_create(const char *name, bool user_unreg,
				    bool managed_ports, bool mem_windows)
{
	struct rvt_dev_info *rdi;
	struct loop_dev *ldev;
	int lid, ret;

	lid = ida_alloc_range(&loop_lids, 1, 0xbfff, GFP_KERNEL);
	if (lid < 0)
		return ERR_PTR(lid);

	rdi = rvt_alloc_device(sizeof(*ldev), 1);
	if (!rdi) {
		ida_free(&loop_lids, lid);
		return ERR_PTR(-ENOMEM);
	}
	/* from here loop_dealloc() frees the LID */
	ldev = container_of(rdi, struct loop_dev, rdi);
	ldev->lid = lid;
	INIT_LIST_HEAD(&ldev->list);
	INIT_WORK(&ldev->reap, loop_reap);

	strscpy(rdi->ibdev.name, name, sizeof(rdi->ibdev.name));
	rdi->ibdev.ops.owner = THIS_MODULE;
	/*
	 * rdmavt's user ABI: libibverbs binds the provider of the rdmavt
	 * InfiniBand HCAs (ipathverbs, qib's) by this id
	 * (Documentation/hw/loop.rst, "User space").
	 */
	rdi->ibdev.ops.driver_id = RDMA_DRIVER_QIB;
	rdi->ibdev.node_guid = cpu_to_be64(0x02fa4e0100000000ULL |
					   ((u64)lid << 8));
	strscpy(rdi->ibdev.node_desc, "rdma_loop", sizeof(rdi->ibdev.node_desc));
	/*
	 * The OUI of the node GUID (locally administered), as the switch
	 * has: libibverbs' users take a vendor of 0 for no device
	 * (pyverbs' test_query_device)
	 */
	rdi->dparms.props.vendor_id = LOOP_VENDOR_ID;
	rdi->dparms.props.vendor_part_id = LOOP_PART_ID;
	/* the port's LID while no subnet manager assigns another */
	rdi->dparms.lid[0] = lid;
	rdi->dparms.managed = managed_ports;
	rdi->dparms.gid_prefix = 0xfe80000000000000ULL;
	if (user_unreg)
		rdi->dparms.props.kernel_cap_flags |= IBK_ALLOW_USER_UNREG;
	if (mem_windows)
		rdi->dparms.props.device_cap_flags |= IB_DEVICE_MEM_WINDOW |
						      IB_DEVICE_MEM_WINDOW_TYPE_2B;
	rdi->driver_f.find_dev_by_lid = loop_find_dev_by_lid;
	rdi->driver_f.dealloc = loop_dealloc;
	rdi->driver_f.next_fabric_dev = loop_next_fabric_dev;
	if (loop_sw)
		rdi->driver_f.route_mad = loop_route_mad;
	/* port 1; cannot fail for index 0 of a one port device */
	rvt_init_port(rdi, &ldev->port, 0, NULL);
	/* what rdmavt's engine counts, per port and per-QP counter */
	ib_set_device_ops(&rdi->ibdev, &rvt_hw_counter_ops);

	/*
	 * On the fabric before registration: clients that start traffic
	 * from their add() callback reach their own device.
	 */
	mutex_lock(&loop_mutex);
	list_add_tail_rcu(&ldev->list, &loop_list);
	ldev->linked = true;
	if (loop_sw)
		loop_switch_cable(loop_sw, ldev);
	mutex_unlock(&loop_mutex);

	ret = rvt_register_device(rdi);
	if (ret)
		goto err_free;
	return ldev;

err_free:
	/* runs loop_dealloc(): off the list, LID freed */
	rvt_dealloc_device(rdi);
	return ERR_PTR(ret);
}

/**
 * rdma_loop_add_device_flags - create and register a loop device
 * @name: device name or name template ("loop%d")
 * @flags: RDMA_LOOP_* flags; RDMA_LOOP_MANAGED makes the port wait for a
 *	subnet manager (INIT, LID 0) whatever the module parameter
 *	"managed" says; RDMA_LOOP_MEM_WINDOWS gives the device rdmavt's
 *	memory windows
 *
 * The device cannot be deleted from user space; the caller removes it
 * with rdma_loop_remove_device().
 *
 * Context: Process context; sleeps (allocations, and ib_register_device() adds
 * every client). Takes loop_mutex to put the device on the driver's list.
 *
 * Return: the registered device, ERR_PTR(-EINVAL) for unknown @flags, or
 * another ERR_PTR().
 */
struct ib_device *rdma_loop_add_device_flags(const char *name,
					     unsigned int flags)
{
	struct loop_dev *ldev;

	if (flags & ~(RDMA_LOOP_MANAGED | RDMA_LOOP_MEM_WINDOWS))
		return ERR_PTR(-EINVAL);
	ldev = loop_create(name, false,
			   managed || (flags & RDMA_LOOP_MANAGED),
			   flags & RDMA_LOOP_MEM_WINDOWS);
	return IS_ERR(ldev) ? ERR_CAST(ldev) : &ldev->rdi.ibdev;
}
EXPORT_SYMBOL(rdma_loop_add_device_flags);

/**
 * rdma_loop_add_device - create and register a loop device
 * @name: device name or name template ("loop%d")
 *
 * rdma_loop_add_device_flags() without flags: the port starts ACTIVE
 * with a LID of its own unless the module parameter "managed" is set.
 *
 * Context: Process context; sleeps (see rdma_loop_add_device_flags()).
 *
 * Return: the registered device or an ERR_PTR().
 */
struct ib_device *rdma_loop_add_device(const char *name)
{
	return rdma_loop_add_device_flags(name, 0);
}
EXPORT_SYMBOL(rdma_loop_add_device);

/**
 * rdma_loop_remove_device - unregister and free a loop device
 * @dev: a device from rdma_loop_add_device()
 *
 * Its clients release their objects during the unregistration; the
 * device is freed when this returns.
 *
 * Context: Process context; sleeps until the device's clients and users are
 * gone (ib_unregister_device()); loop_dealloc() takes loop_mutex. Not from a
 * client callback of @dev.
 */
void rdma_loop_remove_device(struct ib_device *dev)
{
	rvt_unregister_device(ib_to_rvt(dev));
}
EXPORT_SYMBOL(rdma_loop_remove_device);

/**
 * rdma_loop_switch_port - the switch port a loop device is cabled to
 * @dev: a loop device
 *
 * Context: Any context; takes no lock (the cable does not change while
 * the device is registered).
 *
 * Return: the external port of the fabric's switch that port 1 of @dev
 * is cabled to, or 0 when there is no switch or no port was free.
 */
u32 rdma_loop_switch_port(struct ib_device *dev)
{
	return container_of(ib_to_rvt(dev), struct loop_dev, rdi)->sw_port;
}
EXPORT_SYMBOL(rdma_loop_switch_port);

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * rdma_loop_switch_reset - forget what a subnet manager set in the switch
 *
 * For the KUnit suite of the switch, which programs it: the forwarding
 * tables are emptied and no longer used (unicast goes by LID directly
 * again), port 0 loses its LID, every cabled port is back in INIT and
 * PortStateChange is clear, as when the module was loaded.
 *
 * Context: Process context; takes loop_mutex and the switch's lock.
 *
 * Return: nothing; the switch is as it was at load time.
 */
void rdma_loop_switch_reset(void)
{
	if (!loop_sw)
		return;
	mutex_lock(&loop_mutex);
	loop_switch_reset(loop_sw);
	mutex_unlock(&loop_mutex);
}
EXPORT_SYMBOL_IF_KUNIT(rdma_loop_switch_reset);
#endif

/*
 * "rdma link add NAME type loop netdev X": nldev insists on an existing
 * net device, but a loop device does not use one.  Any net device is
 * accepted and ignored (conventionally "lo"); it is not bound to the
 * RDMA device, so deleting the net device does not touch it.
 */
static int loop_newlink(const char *ibdev_name, struct net_device *ndev)
{
	struct loop_dev *ldev;

	if (strchr(ibdev_name, '%'))
		return -EINVAL;
	ldev = loop_create(ibdev_name, true, managed, false);
	return PTR_ERR_OR_ZERO(ldev);
}

static struct rdma_link_ops loop_link_ops = {
	.type = "loop",
	.newlink = loop_newlink,
};

static int __init loop_init(void)
{
	struct loop_dev *ldev;
	unsigned int i;

	if (switch_ports > LOOP_SW_MAX_PORTS)
		return -EINVAL;
	loop_reap_wq = alloc_workqueue("rdma_loop_reap", 0, 0);
	if (!loop_reap_wq)
		return -ENOMEM;
	if (switch_ports) {
		loop_sw = loop_switch_create(switch_ports);
		if (!loop_sw) {
			destroy_workqueue(loop_reap_wq);
			return -ENOMEM;
		}
	}

	for (i = 0; i < devices; i++) {
		ldev = loop_create("loop%d", true, managed, false);
		if (IS_ERR(ldev)) {
			pr_err("rdma_loop: device %u: %ld\n", i, PTR_ERR(ldev));
			break;
		}
	}
	rdma_link_register(&loop_link_ops);
	return 0;
}

/*
 * Unregister every device still on the list: the parameter's, those of
 * "rdma link add" and any a test forgot.  One that "rdma link delete" is
 * unregistering meanwhile stays on the list until its dealloc hook ran,
 * and ib_unregister_device() waits for that unregistration to finish.
 */
static void loop_remove_all(void)
{
	struct loop_dev *ldev;
	struct ib_device *ibdev;
	bool stuck;

	for (;;) {
		mutex_lock(&loop_mutex);
		ldev = list_first_entry_or_null(&loop_list, struct loop_dev,
						list);
		ibdev = ldev ? &ldev->rdi.ibdev : NULL;
		/* whoever unregisters it holds the memory until we get it */
		if (ibdev)
			get_device(&ibdev->dev);
		mutex_unlock(&loop_mutex);
		if (!ibdev)
			break;
		ib_unregister_device(ibdev);
		/* loop_dealloc() has run: the device left the list */
		mutex_lock(&loop_mutex);
		stuck = ldev->linked;
		mutex_unlock(&loop_mutex);
		put_device(&ibdev->dev);
		if (WARN_ON(stuck))
			break;
	}
}

static void __exit loop_exit(void)
{
	/* no newlink() runs or can start after this */
	rdma_link_unregister(&loop_link_ops);
	loop_remove_all();
	/*
	 * Every device queued its reap item before it left the list; each
	 * item waits until its device's unregistration has returned.
	 */
	destroy_workqueue(loop_reap_wq);
	loop_switch_destroy(loop_sw);
	ida_destroy(&loop_lids);
}

module_init(loop_init);
module_exit(loop_exit);

MODULE_DESCRIPTION("Loopback RDMA devices on rdmavt");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_ALIAS_RDMA_LINK("loop");
