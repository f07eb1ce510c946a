// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_cm and the devices: the ib_client that follows devices coming and
 * going, listeners (on one device, or on every device of the namespace
 * through per-device listeners, including devices added later), and
 * address changes of the net devices ids are bound to.
 */

#include <linux/netdevice.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>

#include "cma_priv.h"
#include "cma_trace.h"

/* Every cma_device (cma_lock). */
LIST_HEAD(cma_dev_list);

/* Wildcard listeners not tied to a device, by device_item (cma_lock). */
static LIST_HEAD(listen_any_list);

/**
 * cma_find_device - the cma_device of an ib_device
 * @device: the device
 *
 * Context: process context; takes cma_lock.
 * Return: the cma_device, referenced (cma_dev_put() it), or NULL.
 */
struct cma_device *cma_find_device(struct ib_device *device)
{
	struct cma_device *cma_dev, *found = NULL;

	mutex_lock(&cma_lock);
	list_for_each_entry(cma_dev, &cma_dev_list, list) {
		if (cma_dev->device == device && !cma_dev->removing) {
			cma_dev_get(cma_dev);
			found = cma_dev;
			break;
		}
	}
	mutex_unlock(&cma_lock);
	return found;
}
EXPORT_SYMBOL_IF_KUNIT(cma_find_device);

static unsigned long cma_supported_gid_types(struct ib_device *device,
					     u32 port)
{
	unsigned long mask = 0;

	if (!rdma_protocol_roce(device, port))
		return BIT(IB_GID_TYPE_IB);
	if (rdma_protocol_roce_eth_encap(device, port))
		mask |= BIT(IB_GID_TYPE_ROCE);
	if (rdma_protocol_roce_udp_encap(device, port))
		mask |= BIT(IB_GID_TYPE_ROCE_UDP_ENCAP);
	return mask;
}

/**
 * cma_set_default_gid_type - the RoCE GID type new ids of a port use
 * @cma_dev: the device
 * @port: the port
 * @gid_type: the type
 *
 * Context: process context; takes cma_lock.
 * Return: 0, or -EINVAL for an invalid port or a type the port lacks.
 */
int cma_set_default_gid_type(struct cma_device *cma_dev, u32 port,
			     enum ib_gid_type gid_type)
{
	struct ib_device *device = cma_dev->device;

	if (!rdma_is_port_valid(device, port))
		return -EINVAL;
	if (gid_type == IB_GID_TYPE_IB &&
	    rdma_protocol_roce_eth_encap(device, port))
		gid_type = IB_GID_TYPE_ROCE;
	if (!(cma_supported_gid_types(device, port) & BIT(gid_type)))
		return -EINVAL;
	mutex_lock(&cma_lock);
	cma_dev->default_gid_type[port - rdma_start_port(device)] = gid_type;
	mutex_unlock(&cma_lock);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(cma_set_default_gid_type);

/**
 * cma_set_default_roce_tos - the ToS of ids of a port that set none
 * @cma_dev: the device
 * @port: the port
 * @tos: the ToS byte
 *
 * Context: process context; takes cma_lock.
 * Return: 0, or -EINVAL for an invalid port.
 */
int cma_set_default_roce_tos(struct cma_device *cma_dev, u32 port, u8 tos)
{
	struct ib_device *device = cma_dev->device;

	if (!rdma_is_port_valid(device, port))
		return -EINVAL;
	mutex_lock(&cma_lock);
	cma_dev->default_roce_tos[port - rdma_start_port(device)] = tos;
	mutex_unlock(&cma_lock);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(cma_set_default_roce_tos);

/**
 * cma_get_device_by_name - the cma_device of a device name (configfs)
 * @name: the device name
 *
 * Return: the cma_device, referenced, or NULL.
 */
struct cma_device *cma_get_device_by_name(const char *name)
{
	struct cma_device *cma_dev, *found = NULL;

	mutex_lock(&cma_lock);
	list_for_each_entry(cma_dev, &cma_dev_list, list) {
		if (!cma_dev->removing &&
		    !strcmp(dev_name(&cma_dev->device->dev), name)) {
			cma_dev_get(cma_dev);
			found = cma_dev;
			break;
		}
	}
	mutex_unlock(&cma_lock);
	return found;
}

/* ------------------------------------------------------------------
 * Listening
 */

/* Start the transport's listen on an id attached to a device. */
static int cma_transport_listen(struct rdma_id_private *id_priv)
{
	return id_priv->tp->listen(id_priv);
}

/*
 * The handler of a per-device listener.  Connection requests go to new
 * ids carrying the parent's handler (cma_iw.c, cma_ib.c); nothing else is
 * meant for the owner.
 */
static int cma_child_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	return 0;
}

/*
 * Make @parent's listener on @cma_dev.  Caller holds cma_lock.  A listener
 * whose transport failed goes to @dead for the caller to destroy after
 * dropping cma_lock, and the error fails the wildcard listen, as
 * upstream's: every device of the namespace listens (IB and RoCE through
 * the IB CM, iWARP through iw_cm), or none; a device whose first port has
 * no connection manager answers -ENOSYS.  An AF_IB listener leaves out
 * the devices without the IB CM.
 */
static int cma_listen_on_dev(struct rdma_id_private *parent,
			     struct cma_device *cma_dev,
			     struct list_head *dead)
{
	struct ib_device *device = cma_dev->device;
	struct rdma_id_private *child;
	int ret;

	lockdep_assert_held(&cma_lock);
	if (cma_dev->removing ||
	    !rdma_dev_access_netns(device, cma_net(parent)))
		return 0;
	if (cma_family(parent) == AF_IB &&
	    !rdma_cap_ib_cm(device, rdma_start_port(device)))
		return 0;

	child = cma_create_id(cma_net(parent), cma_child_handler, parent,
			      parent->id.ps, parent->id.qp_type,
			      parent->res.kern_name, false);
	if (IS_ERR(child))
		return PTR_ERR(child);
	rdma_restrack_parent_name(&child->res, &parent->res);
	child->state = RDMA_CM_LISTEN;
	memcpy(cma_src_addr(child), cma_src_addr(parent),
	       sizeof(child->id.route.addr.src_addr));
	cma_dst_addr(child)->sa_family = cma_src_addr(parent)->sa_family;
	child->internal_id = 1;
	/* held until the child is freed (cma_destroy()), as upstream */
	cma_id_get(parent);
	child->parent = parent;
	child->afonly = parent->afonly;
	child->backlog = parent->backlog;
	child->tos = parent->tos;
	child->tos_set = parent->tos_set;
	cma_attach_to_dev(child, cma_dev, rdma_start_port(device));
	list_add_tail(&child->listen_item, &parent->listen_list);

	ret = cma_transport_listen(child);
	if (ret) {
		ibdev_warn(device, "rdma_cm: listen on device failed: %d\n",
			   ret);
		child->detached = 1;
		list_move_tail(&child->listen_item, dead);
	}
	return ret;
}

static void cma_destroy_dead(struct list_head *dead)
{
	struct rdma_id_private *child, *tmp;

	list_for_each_entry_safe(child, tmp, dead, listen_item) {
		list_del_init(&child->listen_item);
		rdma_destroy_id(&child->id);
	}
}

/**
 * cma_listen_on_all - listen on every device of the namespace
 * @id_priv: a wildcard listener without a device
 *
 * Devices added later get a listener from cma_add_one().
 *
 * Return: 0, or the first error of a device's transport (all undone).
 */
int cma_listen_on_all(struct rdma_id_private *id_priv)
{
	struct cma_device *cma_dev;
	LIST_HEAD(dead);
	int ret = 0;

	mutex_lock(&cma_lock);
	list_add_tail(&id_priv->device_item, &listen_any_list);
	list_for_each_entry(cma_dev, &cma_dev_list, list) {
		ret = cma_listen_on_dev(id_priv, cma_dev, &dead);
		if (ret)
			break;
	}
	mutex_unlock(&cma_lock);
	cma_destroy_dead(&dead);
	if (ret)
		cma_cancel_listens(id_priv);
	return ret;
}

/**
 * cma_listen_on_bound_dev - listen on the device an id is attached to
 * @id_priv: the listener
 *
 * Return: 0 or the transport's error.
 */
int cma_listen_on_bound_dev(struct rdma_id_private *id_priv)
{
	return cma_transport_listen(id_priv);
}

/**
 * cma_cancel_listens - stop a wildcard listener's per-device listeners
 * @id_priv: the listener (DESTROYING, or failing to listen)
 *
 * Sleeps; takes cma_lock, then destroys the per-device listeners it took
 * off the listener.  Those a device's removal took are destroyed by the
 * removal; each holds a reference on @id_priv until it is freed, so the
 * listener's destroyer, which waits for its references, returns only
 * after them too.
 */
void cma_cancel_listens(struct rdma_id_private *id_priv)
{
	struct rdma_id_private *child, *tmp;
	LIST_HEAD(dead);

	mutex_lock(&cma_lock);
	if (!id_priv->cma_dev)
		list_del_init(&id_priv->device_item);
	list_for_each_entry_safe(child, tmp, &id_priv->listen_list,
				 listen_item) {
		child->detached = 1;
		list_move_tail(&child->listen_item, &dead);
	}
	mutex_unlock(&cma_lock);
	cma_destroy_dead(&dead);
}

/* ------------------------------------------------------------------
 * The client
 */

/* Tell an id its device is going away; drops the caller's reference. */
static void cma_send_device_removal_put(struct rdma_id_private *id_priv)
{
	struct rdma_cm_event event = { .event = RDMA_CM_EVENT_DEVICE_REMOVAL };
	enum rdma_cm_state state;
	unsigned long flags;

	mutex_lock(&id_priv->handler_mutex);
	spin_lock_irqsave(&id_priv->lock, flags);
	state = id_priv->state;
	if (state == RDMA_CM_DESTROYING || state == RDMA_CM_DEVICE_REMOVAL) {
		spin_unlock_irqrestore(&id_priv->lock, flags);
		mutex_unlock(&id_priv->handler_mutex);
		cma_id_put(id_priv);
		return;
	}
	id_priv->state = RDMA_CM_DEVICE_REMOVAL;
	/* under the lock, as cma_comp_exch(): the trace keeps the order */
	trace_cm_state_change(id_priv, state, RDMA_CM_DEVICE_REMOVAL);
	spin_unlock_irqrestore(&id_priv->lock, flags);

	if (cma_deliver_event(id_priv, &event)) {
		cma_id_put(id_priv);
		cma_destroy_id_handler_unlock(id_priv);
		return;
	}
	mutex_unlock(&id_priv->handler_mutex);
	cma_id_put(id_priv);
}

/*
 * Every id of the device gets DEVICE_REMOVAL (per-device listeners are
 * simply destroyed), then we wait until all are destroyed: an owner must
 * destroy its id after that event (or return non-zero from it).
 */
static void cma_process_remove(struct cma_device *cma_dev)
{
	struct rdma_id_private *id_priv;

	mutex_lock(&cma_lock);
	cma_dev->removing = true;
	while (!list_empty(&cma_dev->id_list)) {
		id_priv = list_first_entry(&cma_dev->id_list,
					   struct rdma_id_private, device_item);
		list_del_init(&id_priv->device_item);
		if (id_priv->internal_id) {
			if (id_priv->detached)
				continue;	/* its parent's destroyer has it */
			id_priv->detached = 1;
			list_del_init(&id_priv->listen_item);
			mutex_unlock(&cma_lock);
			rdma_destroy_id(&id_priv->id);
			mutex_lock(&cma_lock);
			continue;
		}
		/* being destroyed: it lets go of the device by itself */
		if (!refcount_inc_not_zero(&id_priv->refcount))
			continue;
		mutex_unlock(&cma_lock);
		cma_send_device_removal_put(id_priv);
		mutex_lock(&cma_lock);
	}
	mutex_unlock(&cma_lock);

	cma_dev_put(cma_dev);
	wait_for_completion(&cma_dev->comp);
}

static int cma_add_one(struct ib_device *device)
{
	u32 nports = rdma_end_port(device) - rdma_start_port(device) + 1;
	struct rdma_id_private *listener;
	struct cma_device *cma_dev;
	bool supported = false;
	LIST_HEAD(dead);
	u32 p, i;
	int ret;

	rdma_for_each_port(device, p)
		if (cma_transport_of(device, p) != &cma_no_cm_transport)
			supported = true;
	if (!supported)
		return -EOPNOTSUPP;

	cma_dev = kzalloc(sizeof(*cma_dev), GFP_KERNEL);
	if (!cma_dev)
		return -ENOMEM;
	cma_dev->device = device;
	cma_dev->default_gid_type = kcalloc(nports,
					    sizeof(*cma_dev->default_gid_type),
					    GFP_KERNEL);
	cma_dev->default_roce_tos = kcalloc(nports,
					    sizeof(*cma_dev->default_roce_tos),
					    GFP_KERNEL);
	if (!cma_dev->default_gid_type || !cma_dev->default_roce_tos) {
		ret = -ENOMEM;
		goto err_free;
	}
	rdma_for_each_port(device, p) {
		i = p - rdma_start_port(device);
		if (rdma_protocol_roce_udp_encap(device, p))
			cma_dev->default_gid_type[i] = CMA_PREFERRED_ROCE_GID_TYPE;
		else if (rdma_protocol_roce(device, p))
			cma_dev->default_gid_type[i] = IB_GID_TYPE_ROCE;
		else
			cma_dev->default_gid_type[i] = IB_GID_TYPE_IB;
	}
	init_completion(&cma_dev->comp);
	refcount_set(&cma_dev->refcount, 1);
	INIT_LIST_HEAD(&cma_dev->id_list);
	ib_set_client_data(device, &cma_client, cma_dev);

	mutex_lock(&cma_lock);
	list_add_tail(&cma_dev->list, &cma_dev_list);
	list_for_each_entry(listener, &listen_any_list, device_item) {
		ret = cma_listen_on_dev(listener, cma_dev, &dead);
		if (ret)
			ibdev_warn(device,
				   "rdma_cm: wildcard listener not extended: %d\n",
				   ret);
	}
	mutex_unlock(&cma_lock);
	cma_destroy_dead(&dead);
	trace_cm_add_one(device);
	return 0;

err_free:
	kfree(cma_dev->default_gid_type);
	kfree(cma_dev->default_roce_tos);
	kfree(cma_dev);
	return ret;
}

static void cma_remove_one(struct ib_device *device, void *client_data)
{
	struct cma_device *cma_dev = client_data;

	trace_cm_remove_one(device);
	cma_process_remove(cma_dev);
	mutex_lock(&cma_lock);
	list_del(&cma_dev->list);
	mutex_unlock(&cma_lock);
	kfree(cma_dev->default_gid_type);
	kfree(cma_dev->default_roce_tos);
	kfree(cma_dev);
}

struct ib_client cma_client = {
	.name	= "cma",
	.add	= cma_add_one,
	.remove	= cma_remove_one,
};

/* ------------------------------------------------------------------
 * Address changes
 */

/*
 * The hardware address of @ndev changed (a MAC change, or a bonding
 * failover): every id bound to it whose recorded address differs hears
 * RDMA_CM_EVENT_ADDR_CHANGE.
 */
static void cma_netdev_changed(struct net_device *ndev)
{
	struct rdma_id_private *id_priv;
	struct rdma_cm_event event = { .event = RDMA_CM_EVENT_ADDR_CHANGE };
	struct rdma_dev_addr *dev_addr;
	struct cma_device *cma_dev;

	mutex_lock(&cma_lock);
	list_for_each_entry(cma_dev, &cma_dev_list, list) {
		list_for_each_entry(id_priv, &cma_dev->id_list, device_item) {
			dev_addr = &id_priv->id.route.addr.dev_addr;
			if (id_priv->internal_id ||
			    dev_addr->bound_dev_if != ndev->ifindex ||
			    !net_eq(dev_net(ndev), dev_addr->net) ||
			    !memcmp(dev_addr->src_dev_addr, ndev->dev_addr,
				    ndev->addr_len))
				continue;
			/* an id being destroyed is still listed: skip it */
			if (!refcount_inc_not_zero(&id_priv->refcount))
				continue;
			if (cma_queue_event(id_priv, RDMA_CM_IDLE, RDMA_CM_IDLE,
					    &event))
				ibdev_warn(cma_dev->device,
					   "rdma_cm: ADDR_CHANGE lost (no memory)\n");
			cma_id_put(id_priv);
		}
	}
	mutex_unlock(&cma_lock);
}

static int cma_netdev_callback(struct notifier_block *nb, unsigned long event,
			       void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);

	if (event == NETDEV_CHANGEADDR ||
	    (event == NETDEV_BONDING_FAILOVER && netif_is_bond_master(ndev)))
		cma_netdev_changed(ndev);
	return NOTIFY_DONE;
}

static struct notifier_block cma_nb = {
	.notifier_call = cma_netdev_callback,
};

int cma_netdev_notifier_register(void)
{
	return register_netdevice_notifier(&cma_nb);
}

void cma_netdev_notifier_unregister(void)
{
	unregister_netdevice_notifier(&cma_nb);
}
