// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The SA client's frame: the ib_client "sa" that gives every port with
 * an SA (rdma_cap_ib_sa()) a GSI agent and the SA's address handle,
 * rebuilt from PortInfo (SM LID and SL, the default P_Key) whenever an
 * event says they may have changed; the registration of SA clients; and
 * the module hooks.
 */

#include <kunit/visibility.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>
#include <rdma/opa_addr.h>
#include "../core_priv.h"
#include "sa_priv.h"

static int sa_add_one(struct ib_device *device);
static void sa_remove_one(struct ib_device *device, void *client_data);

static struct ib_client sa_ib_client = {
	.name	= "sa",
	.add	= sa_add_one,
	.remove	= sa_remove_one,
};

/**
 * ib_sa_register_client - get an SA client ready for queries
 * @client: the caller's, embedded in its module
 *
 * Context: Any context.
 */
void ib_sa_register_client(struct ib_sa_client *client)
{
	atomic_set(&client->users, 1);
	init_completion(&client->comp);
}
EXPORT_SYMBOL(ib_sa_register_client);

/**
 * ib_sa_unregister_client - drop an SA client
 * @client: registered with ib_sa_register_client()
 *
 * Waits until every query of @client has ended: once it returns, no
 * callback of the client runs or will run.  The caller cancels what it
 * does not want to wait for first.
 *
 * Context: Process context; sleeps.  Not from a query's callback.
 */
void ib_sa_unregister_client(struct ib_sa_client *client)
{
	ib_sa_client_put(client);
	wait_for_completion(&client->comp);
}
EXPORT_SYMBOL(ib_sa_unregister_client);

static void sa_free_sm_ah(struct kref *kref)
{
	struct ib_sa_sm_ah *sm_ah = container_of(kref, struct ib_sa_sm_ah,
						 ref);

	rdma_destroy_ah(sm_ah->ah, 0);
	kfree(sm_ah);
}

/* Drop a reference to an SA address handle. */
void ib_sa_put_sm_ah(struct ib_sa_sm_ah *sm_ah)
{
	kref_put(&sm_ah->ref, sa_free_sm_ah);
}

/*
 * The SA client's port @port_num of @device, or NULL when the client
 * has no data for the device or the port has no SA.
 */
struct ib_sa_port *ib_sa_find_port(struct ib_device *device, u32 port_num)
{
	struct ib_sa_device *sa_dev = ib_get_client_data(device, &sa_ib_client);
	struct ib_sa_port *port;

	if (!sa_dev || port_num < sa_dev->start_port ||
	    port_num > sa_dev->end_port)
		return NULL;
	port = &sa_dev->port[port_num - sa_dev->start_port];
	return port->agent ? port : NULL;
}

/*
 * The LID bits a path's SLID may carry as path bits on @port_num: 2^LMC
 * - 1, as the SA address handle recorded it; all 7 when unknown.
 */
u8 ib_sa_src_path_mask(struct ib_device *device, u32 port_num)
{
	struct ib_sa_port *port = ib_sa_find_port(device, port_num);
	unsigned long flags;
	u8 mask = 0x7f;

	if (!port)
		return mask;
	spin_lock_irqsave(&port->ah_lock, flags);
	if (port->sm_ah)
		mask = port->sm_ah->src_path_mask;
	spin_unlock_irqrestore(&port->ah_lock, flags);
	return mask;
}

/* The attributes of the SA address handle @port is to get now. */
static void sa_sm_ah_attr_of_port(struct ib_sa_port *port,
				  struct ib_port_attr *pa,
				  struct rdma_ah_attr *attr)
{
	struct ib_device *dev = port->agent->device;
	u32 pn = port->port_num;
	bool grh_required = rdma_is_grh_required(dev, pn);

	memset(attr, 0, sizeof(*attr));
	attr->type = rdma_ah_find_type(dev, pn);
	rdma_ah_set_dlid(attr, pa->sm_lid);
	rdma_ah_set_sl(attr, pa->sm_sl);
	rdma_ah_set_port_num(attr, pn);

	/* OPA's SM LID 0xffff is a real LID, not the permissive one */
	if (attr->type == RDMA_AH_ATTR_TYPE_OPA &&
	    (grh_required || pa->sm_lid == be16_to_cpu(IB_LID_PERMISSIVE)))
		rdma_ah_set_make_grd(attr, true);

	if (attr->type == RDMA_AH_ATTR_TYPE_IB && grh_required) {
		rdma_ah_set_ah_flags(attr, IB_AH_GRH);
		rdma_ah_set_subnet_prefix(attr,
					  cpu_to_be64(pa->subnet_prefix));
		rdma_ah_set_interface_id(attr,
					 cpu_to_be64(IB_SA_WELL_KNOWN_GUID));
	}
}

/* Build the SA address handle of a port from its PortInfo now. */
static void sa_update_sm_ah(struct work_struct *work)
{
	struct ib_sa_port *port = container_of(work, struct ib_sa_port,
					       update_task);
	struct ib_device *dev = port->agent->device;
	struct ib_sa_sm_ah *new_ah, *old;
	struct ib_port_attr pa;
	struct rdma_ah_attr attr;

	if (ib_query_port(dev, port->port_num, &pa)) {
		dev_warn(&dev->dev, "SA: cannot query port %u\n",
			 port->port_num);
		return;
	}

	new_ah = kmalloc(sizeof(*new_ah), GFP_KERNEL);
	if (!new_ah)
		return;
	kref_init(&new_ah->ref);
	new_ah->src_path_mask = (1 << pa.lmc) - 1;
	new_ah->pkey_index = 0;
	if (ib_find_pkey(dev, port->port_num, IB_DEFAULT_PKEY_FULL,
			 &new_ah->pkey_index))
		dev_err(&dev->dev, "SA: port %u has no default P_Key\n",
			port->port_num);

	sa_sm_ah_attr_of_port(port, &pa, &attr);
	new_ah->ah = rdma_create_ah(port->agent->qp->pd, &attr,
				    RDMA_CREATE_AH_SLEEPABLE);
	if (IS_ERR(new_ah->ah)) {
		/* no SM yet (LID 0) is no news: queries get -EAGAIN */
		if (pa.sm_lid)
			dev_warn(&dev->dev,
				 "SA: no address handle for port %u\n",
				 port->port_num);
		kfree(new_ah);
		return;
	}

	spin_lock_irq(&port->ah_lock);
	old = port->sm_ah;
	port->sm_ah = new_ah;
	spin_unlock_irq(&port->ah_lock);
	if (old)
		ib_sa_put_sm_ah(old);
}

/*
 * Port events that may change the SA's address: the handle goes at
 * once (queries get -EAGAIN) and is rebuilt on ib_wq.  Those that may
 * mean another SA also have the ClassPortInfo read again.
 */
static void sa_event(struct ib_event_handler *handler, struct ib_event *event)
{
	struct ib_sa_device *sa_dev = container_of(handler, typeof(*sa_dev),
						   event_handler);
	struct ib_sa_port *port;
	struct ib_sa_sm_ah *old;
	unsigned long flags;
	u32 pn = event->element.port_num;

	switch (event->event) {
	case IB_EVENT_PORT_ERR:
	case IB_EVENT_PORT_ACTIVE:
	case IB_EVENT_LID_CHANGE:
	case IB_EVENT_PKEY_CHANGE:
	case IB_EVENT_SM_CHANGE:
	case IB_EVENT_CLIENT_REREGISTER:
		break;
	default:
		return;
	}
	if (pn < sa_dev->start_port || pn > sa_dev->end_port ||
	    !rdma_cap_ib_sa(handler->device, pn))
		return;
	port = &sa_dev->port[pn - sa_dev->start_port];

	spin_lock_irqsave(&port->ah_lock, flags);
	old = port->sm_ah;
	port->sm_ah = NULL;
	spin_unlock_irqrestore(&port->ah_lock, flags);
	if (old)
		ib_sa_put_sm_ah(old);

	if (event->event != IB_EVENT_PORT_ERR &&
	    event->event != IB_EVENT_PKEY_CHANGE)
		ib_sa_cpi_invalidate(port);
	queue_work(ib_wq, &port->update_task);
	if (port->mcast)
		ib_sa_mcast_event(port->mcast, event->event);
}

static void sa_port_init(struct ib_sa_port *port, u32 port_num)
{
	port->port_num = port_num;
	spin_lock_init(&port->ah_lock);
	spin_lock_init(&port->classport_lock);
	mutex_init(&port->cpi_mutex);
	INIT_WORK(&port->update_task, sa_update_sm_ah);
	INIT_DELAYED_WORK(&port->ib_cpi_work, ib_sa_cpi_work);
}

static int sa_add_one(struct ib_device *device)
{
	int s = rdma_start_port(device), e = rdma_end_port(device);
	struct ib_sa_device *sa_dev;
	struct ib_sa_port *port;
	int i, count = 0;
	int ret;

	sa_dev = kzalloc(struct_size(sa_dev, port, e - s + 1), GFP_KERNEL);
	if (!sa_dev)
		return -ENOMEM;
	sa_dev->start_port = s;
	sa_dev->end_port = e;

	for (i = 0; i <= e - s; i++) {
		port = &sa_dev->port[i];
		sa_port_init(port, s + i);
		if (!rdma_cap_ib_sa(device, s + i))
			continue;
		if (rdma_cap_ib_mcast(device, s + i)) {
			port->mcast = ib_sa_mcast_port_new(device, s + i);
			if (!port->mcast) {
				ret = -ENOMEM;
				goto err_agents;
			}
		}
		port->agent = ib_register_mad_agent(device, s + i, IB_QPT_GSI,
						    NULL, 0, ib_sa_send_handler,
						    ib_sa_recv_handler, sa_dev,
						    0);
		if (IS_ERR(port->agent)) {
			ret = PTR_ERR(port->agent);
			port->agent = NULL;
			goto err_agents;
		}
		count++;
	}
	if (!count) {
		ret = -EOPNOTSUPP;
		goto err_free;
	}

	ib_set_client_data(device, &sa_ib_client, sa_dev);

	/* events first, then the handles: no change can fall in between */
	INIT_IB_EVENT_HANDLER(&sa_dev->event_handler, device, sa_event);
	ib_register_event_handler(&sa_dev->event_handler);
	for (i = 0; i <= e - s; i++)
		if (sa_dev->port[i].agent)
			sa_update_sm_ah(&sa_dev->port[i].update_task);
	return 0;

err_agents:
	/* port i has at most its groups, the ports before it both */
	for (; i >= 0; i--) {
		port = &sa_dev->port[i];
		if (port->agent)
			ib_unregister_mad_agent(port->agent);
		if (port->mcast)
			ib_sa_mcast_port_gone(port->mcast);
	}
err_free:
	kfree(sa_dev);
	return ret;
}

static void sa_remove_one(struct ib_device *device, void *client_data)
{
	struct ib_sa_device *sa_dev = client_data;
	struct ib_sa_port *port;
	int i;

	ib_unregister_event_handler(&sa_dev->event_handler);
	for (i = 0; i <= sa_dev->end_port - sa_dev->start_port; i++) {
		port = &sa_dev->port[i];
		if (!port->agent)
			continue;
		cancel_work_sync(&port->update_task);
		ib_sa_cpi_stop(port);
		if (port->mcast)
			ib_sa_mcast_port_stop(port->mcast);
		/* those the local service has end first (-EINTR) */
		ib_sa_ls_flush_port(port);
		/* every query still out ends here, flushed (-EINTR) */
		ib_unregister_mad_agent(port->agent);
		if (port->mcast)
			ib_sa_mcast_port_gone(port->mcast);
		cancel_delayed_work_sync(&port->ib_cpi_work);
		if (port->sm_ah)
			ib_sa_put_sm_ah(port->sm_ah);
	}
	kfree(sa_dev);
}

/**
 * ib_sa_init - register the SA client with the device core
 *
 * Context: Process context (module init).
 * Return: 0 or the errno of ib_register_client().
 */
int ib_sa_init(void)
{
	int ret;

	ib_sa_query_seed_tid();
	ret = ib_sa_mcast_init();
	if (ret)
		return ret;
	ret = ib_register_client(&sa_ib_client);
	if (ret) {
		pr_err("ib_core: could not register the SA client\n");
		ib_sa_mcast_cleanup();
		return ret;
	}
	ib_sa_ls_init();
	return 0;
}

/**
 * ib_sa_cleanup - unregister the SA client
 *
 * Context: Process context (module exit).
 */
void ib_sa_cleanup(void)
{
	ib_unregister_client(&sa_ib_client);
	ib_sa_mcast_cleanup();
	ib_sa_ls_cleanup();
	WARN_ON(!ib_sa_queries_idle());
}

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * ib_sa_sm_ah_attr - what the SA address handle of a port addresses
 * @device: the device
 * @port_num: its port
 * @ah_attr: set from rdma_query_ah() of the handle
 *
 * Context: Process context.
 * Return: 0; -EAGAIN when the port has no handle now; -ENODEV when it
 * has no SA.
 */
int ib_sa_sm_ah_attr(struct ib_device *device, u32 port_num,
		     struct rdma_ah_attr *ah_attr)
{
	struct ib_sa_port *port = ib_sa_find_port(device, port_num);
	struct ib_sa_sm_ah *sm_ah;
	int ret;

	if (!port)
		return -ENODEV;
	spin_lock_irq(&port->ah_lock);
	sm_ah = port->sm_ah;
	if (sm_ah)
		kref_get(&sm_ah->ref);
	spin_unlock_irq(&port->ah_lock);
	if (!sm_ah)
		return -EAGAIN;
	ret = rdma_query_ah(sm_ah->ah, ah_attr);
	ib_sa_put_sm_ah(sm_ah);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ib_sa_sm_ah_attr);

/**
 * ib_sa_agent_hi_tid - the hi_tid of a port's SA agent
 * @device: the device
 * @port_num: its port
 *
 * Context: Any context.
 * Return: the upper 32 bits of the port's query TIDs; 0 without an SA.
 */
u32 ib_sa_agent_hi_tid(struct ib_device *device, u32 port_num)
{
	struct ib_sa_port *port = ib_sa_find_port(device, port_num);

	return port ? port->agent->hi_tid : 0;
}
EXPORT_SYMBOL_IF_KUNIT(ib_sa_agent_hi_tid);
#endif
