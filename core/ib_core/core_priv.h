/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Interfaces between the files of ib_core.  Nothing here is exported to
 * other modules except through EXPORT_SYMBOL_IF_KUNIT for the suites.
 */
#ifndef RDMA_CORE_PRIV_H
#define RDMA_CORE_PRIV_H

#include <linux/list.h>
#include <linux/rwsem.h>
#include <linux/xarray.h>
#include <kunit/visibility.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_cache.h>
#include <rdma/rdma_netlink.h>
#include "core_modules.h"

/* ------------------------------------------------------------------
 * device.c: the device and client registries
 */

/* The class all RDMA devices belong to ("infiniband"). */
extern const struct class ib_class;

/*
 * The shared (true) or exclusive (false) network namespace mode; module
 * parameter netns_mode of ib_core.
 */
extern bool ib_devices_shared_netns;

/*
 * Marks of the core's device table.  DEVICE_REGISTERED is set from the
 * moment clients may see the device until unregistration starts; from
 * then on ib_device_try_get() fails.
 */
#define DEVICE_REGISTERED	XA_MARK_1

bool ib_device_registered(struct ib_device *device);

/* Runs ib_unregister_device_queued() work. */
extern struct workqueue_struct *ib_unreg_wq;

typedef int (*nldev_callback)(struct ib_device *device, struct sk_buff *skb,
			      struct netlink_callback *cb, unsigned int idx);
int ib_enum_all_devs(nldev_callback nldev_cb, struct sk_buff *skb,
		     struct netlink_callback *cb);

/* Validate a device name or name template; 0 or -EINVAL. */
int ib_device_name_check(const char *name, bool allow_template);

/* Allocate ib_device.port_data (idempotent). */
int ib_device_alloc_port_data(struct ib_device *device);

/* Unregister unless done already; may free a dealloc_driver device. */
void __ib_unregister_device(struct ib_device *ib_dev);

#ifdef CONFIG_CGROUP_RDMA
void ib_device_register_rdmacg(struct ib_device *device);
void ib_device_unregister_rdmacg(struct ib_device *device);
#else
static inline void ib_device_register_rdmacg(struct ib_device *device)
{
}

static inline void ib_device_unregister_rdmacg(struct ib_device *device)
{
}
#endif
void ib_unregister_work(struct work_struct *work);

/*
 * Call @fn for every registered device with the device table locked for
 * read; stops at the first non-zero return and returns it.
 */
typedef int (*ib_device_walk_fn)(struct ib_device *device, void *data);
int ib_devices_walk_registered(ib_device_walk_fn fn, void *data);

/*
 * Call @fn for every device a reference can be taken on, holding that
 * reference and no lock; for callbacks that may sleep for long.
 */
typedef void (*ib_device_visit_fn)(struct ib_device *device, void *data);
void ib_devices_visit_held(ib_device_visit_fn fn, void *data);

/*
 * Network namespace of a device (exclusive mode only): move it to the
 * namespace of @ns_fd (drops the caller's registration reference in
 * every case), and move every device of a dying namespace back to
 * init_net.
 */
int ib_device_set_netns_put(struct sk_buff *skb, struct ib_device *dev,
			    u32 ns_fd);
void rdma_dev_net_release_devices(struct net *net);

/* Adaptive CQ moderation of a device: 0 or 1, else -EINVAL. */
int ib_device_set_dim(struct ib_device *ibdev, u8 use_dim);

/* ------------------------------------------------------------------
 * client.c: what a client tells nldev about its character device
 */

int ib_get_client_nl_info(struct ib_device *ibdev, const char *client_name,
			  struct ib_client_nl_info *res);

/* ------------------------------------------------------------------
 * event.c: asynchronous events
 */

/* Ordered workqueue that delivers events to handlers. */
extern struct workqueue_struct *ib_event_wq;

/* Wait until every event queued for @device so far has been delivered. */
void ib_event_flush(struct ib_device *device);

/* ------------------------------------------------------------------
 * cache.c: GID and P_Key cache
 */

/*
 * Build the cache of every port (called by ib_register_device before
 * the device is visible) and tear it down again.  setup may fail with
 * -ENOMEM or the driver's error; cleanup undoes a successful setup and
 * may be called while references to GID entries are still held (they
 * stay valid until put).  release frees what is left at
 * ib_dealloc_device time.
 */
int ib_cache_setup_one(struct ib_device *device);
void ib_cache_cleanup_one(struct ib_device *device);
void ib_cache_release_one(struct ib_device *device);

/*
 * Called from the event worker for every event before handlers see it.
 * Refreshes the cache for PORT_ACTIVE, PORT_ERR, LID_CHANGE,
 * PKEY_CHANGE, CLIENT_REREGISTER and GID_CHANGE.  Returns false when the
 * event must not be delivered to handlers (the refresh failed).
 */
bool ib_cache_event(const struct ib_event *event);

/*
 * A port's net device changed (ib_device_set_netdev on a registered
 * device): refresh the default RoCE GIDs of the port.
 */
void ib_cache_netdev_changed(struct ib_device *device, u32 port);

/* Core-managed GID tables (RoCE): add or delete one GID. */
int ib_cache_gid_add(struct ib_device *ib_dev, u32 port, union ib_gid *gid,
		     struct ib_gid_attr *attr);
int ib_cache_gid_del(struct ib_device *ib_dev, u32 port, union ib_gid *gid,
		     struct ib_gid_attr *attr);

/*
 * Core-managed GID tables (RoCE), for roce_gid_mgmt.c: add the default
 * GIDs of @ndev (one per type in @gid_type_mask, made from its MAC
 * address, in the slots reserved for them) unless that net device has
 * them already, or delete them; delete every GID of @ndev.
 */
enum ib_cache_gid_default_mode {
	IB_CACHE_GID_DEFAULT_MODE_SET,
	IB_CACHE_GID_DEFAULT_MODE_DELETE,
};

void ib_cache_gid_set_default_gid(struct ib_device *ib_dev, u32 port,
				  struct net_device *ndev,
				  unsigned long gid_type_mask,
				  enum ib_cache_gid_default_mode mode);
int ib_cache_gid_del_all_netdev_gids(struct ib_device *ib_dev, u32 port,
				     struct net_device *ndev);

/* The cached subnet prefix of a valid port, in CPU order. */
void ib_get_cached_subnet_prefix(struct ib_device *device, u32 port_num,
				 u64 *sn_pfx);

/* ------------------------------------------------------------------
 * roce_gid_mgmt.c: RoCE GIDs that follow the IP stack
 */
int roce_gid_mgmt_init(void);
void roce_gid_mgmt_cleanup(void);

/*
 * A device whose GID tables were set up starts (0 or -ENOMEM) and, before
 * they are emptied, stops following net device and address events; the
 * ports of a device that has no RoCE port never do.
 */
int roce_gid_mgmt_add_device(struct ib_device *device);
void roce_gid_mgmt_del_device(struct ib_device *device);

/* Wait until the GID tables show every event queued so far (suites). */
void roce_gid_mgmt_flush(void);
/* The references of a GID entry (cache.c, suites) */
unsigned int ib_gid_attr_refcount(const struct ib_gid_attr *attr);

/* ------------------------------------------------------------------
 * sysfs.c: class device attributes and ports/
 */

/* The core's device attribute group (node_type, node_guid, ...). */
extern const struct attribute_group ib_dev_attr_group;

/*
 * Add the registered device to sysfs: device_add() and the ports/
 * directory.  On failure nothing is left behind.  unregister undoes it.
 */
int ib_device_register_sysfs(struct ib_device *device);
void ib_device_unregister_sysfs(struct ib_device *device);
/* The set behind ports/<n>/hw_counters/, or NULL. */
struct rdma_hw_stats *ib_get_hw_stats_port(struct ib_device *ibdev,
					   u32 port_num);

/* ------------------------------------------------------------------
 * netns.c: per network namespace state of ib_core
 */

/**
 * struct rdma_dev_net - what ib_core keeps for one network namespace
 * @nl_sock: the namespace's NETLINK_RDMA kernel socket
 * @net: the namespace
 * @id: index in rdma_nets, to walk every namespace
 */
struct rdma_dev_net {
	struct sock *nl_sock;
	possible_net_t net;
	u32 id;
};

extern unsigned int rdma_dev_net_id;

static inline struct rdma_dev_net *rdma_net_to_dev_net(struct net *net)
{
	return net_generic(net, rdma_dev_net_id);
}

/* Register and unregister ib_core's pernet operations. */
int rdma_netns_init(void);
void rdma_netns_exit(void);

/* ------------------------------------------------------------------
 * netlink.c: the NETLINK_RDMA channel
 */
void rdma_nl_init(void);
void rdma_nl_exit(void);
int rdma_nl_net_init(struct rdma_dev_net *rnet);
void rdma_nl_net_exit(struct rdma_dev_net *rnet);
const struct rdma_nl_cbs *rdma_nl_replace_client(unsigned int index,
						 const struct rdma_nl_cbs *cbs);

/* ------------------------------------------------------------------
 * nldev.c and link.c: the RDMA_NL_NLDEV client
 */
void nldev_init(void);
void nldev_exit(void);

/*
 * Create device @ibdev_name of link type @type on @ndev; the type's
 * module is loaded on demand ("rdma-link-<type>").  -EINVAL for an
 * unknown type, else the type's newlink() result; failures are
 * explained in @extack.
 */
int rdma_link_newlink(const char *type, const char *ibdev_name,
		      struct net_device *ndev, struct netlink_ext_ack *extack);

/* ------------------------------------------------------------------
 * addr.c: IP address translation (its workqueue and netevent notifier)
 */
int rdma_addr_init(void);
void rdma_addr_cleanup(void);
int ib_nl_handle_ip_res_resp(struct sk_buff *skb, struct nlmsghdr *nlh,
			     struct netlink_ext_ack *extack);

struct sa_path_rec;
int roce_resolve_route_from_path(struct sa_path_rec *rec,
				 const struct ib_gid_attr *attr);

/* ------------------------------------------------------------------
 * mad_port.c: the MAD layer's client (QP0 and QP1 of every port)
 */
int ib_mad_init(void);
void ib_mad_cleanup(void);

/* ------------------------------------------------------------------
 * sa_client.c: the SA client (path records, GUIDInfo, ClassPortInfo)
 */
int ib_sa_init(void);
void ib_sa_cleanup(void);

#endif /* RDMA_CORE_PRIV_H */
