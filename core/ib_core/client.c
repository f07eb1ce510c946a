// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The client registry: kernel users of RDMA devices (ULPs and the core's
 * own services) and the data each keeps per device.
 *
 * A client is attached to a device when both are registered, whichever
 * came first: add() is called once per device, remove() once when either
 * goes away.  Clients are added to a device in the order they registered
 * and removed in the reverse order, so a client may rely on every client
 * registered before it (the MAD layer before the CM, say).
 *
 * nldev's GET_CHARDEV asks a client by name which character device it
 * offers (ib_get_client_nl_info(), loading the client's module when
 * needed).
 */
#include <linux/kmod.h>
#include <linux/module.h>
#include <linux/rwsem.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include "core_priv.h"
#include "client.h"

/* Marks of the client table and of a device's client_data. */
#define CLIENT_REGISTERED	XA_MARK_1
#define CLIENT_DATA_REGISTERED	XA_MARK_1

/*
 * clients_rwsem protects the client table, its CLIENT_REGISTERED marks
 * and highest_client_id.  It nests inside the device table's lock.
 * Client ids only grow while clients are registered, so iterating the
 * table in index order is iterating in registration order.
 */
static DEFINE_XARRAY_FLAGS(clients, XA_FLAGS_ALLOC);
static DECLARE_RWSEM(clients_rwsem);
static u32 highest_client_id;

static void ib_client_put(struct ib_client *client)
{
	if (refcount_dec_and_test(&client->uses))
		complete(&client->uses_zero);
}

/*
 * Attach @client to @device unless it already is.  An add() that fails
 * leaves the client detached from that device for good, as upstream: the
 * error is not passed on.  Returns an error only when memory runs out.
 */
static int add_client_context(struct ib_device *device,
			      struct ib_client *client)
{
	int ret = 0;

	if (!device->kverbs_provider && !client->no_kverbs_req)
		return 0;

	down_write(&device->client_data_rwsem);
	/* Keeps both from finishing their unregistration under us. */
	if (!refcount_inc_not_zero(&client->uses))
		goto out_unlock;
	refcount_inc(&device->refcount);

	/* Someone else attached it first. */
	if (xa_get_mark(&device->client_data, client->client_id,
			CLIENT_DATA_REGISTERED))
		goto out;

	ret = xa_err(xa_store(&device->client_data, client->client_id, NULL,
			      GFP_KERNEL));
	if (ret)
		goto out;
	downgrade_write(&device->client_data_rwsem);

	if (client->add) {
		int err = client->add(device);

		if (err) {
			if (err != -EOPNOTSUPP)
				dev_dbg(&device->dev,
					"client %s did not attach: %d\n",
					client->name, err);
			xa_erase(&device->client_data, client->client_id);
			up_read(&device->client_data_rwsem);
			ib_device_put(device);
			ib_client_put(client);
			return 0;
		}
	}

	/* From here on remove() will be called. */
	xa_set_mark(&device->client_data, client->client_id,
		    CLIENT_DATA_REGISTERED);
	up_read(&device->client_data_rwsem);
	return 0;

out:
	ib_device_put(device);
	ib_client_put(client);
out_unlock:
	up_write(&device->client_data_rwsem);
	return ret;
}

static void remove_client_context(struct ib_device *device,
				  unsigned int client_id)
{
	struct ib_client *client;
	void *client_data;

	down_write(&device->client_data_rwsem);
	if (!xa_get_mark(&device->client_data, client_id,
			 CLIENT_DATA_REGISTERED)) {
		up_write(&device->client_data_rwsem);
		return;
	}
	client_data = xa_load(&device->client_data, client_id);
	xa_clear_mark(&device->client_data, client_id, CLIENT_DATA_REGISTERED);
	client = xa_load(&clients, client_id);
	up_write(&device->client_data_rwsem);

	/*
	 * No lock is held across remove(): it may sleep for as long as it
	 * needs to drain its users.  The references taken in
	 * add_client_context() keep both alive meanwhile.
	 */
	if (client->remove)
		client->remove(device, client_data);

	xa_erase(&device->client_data, client_id);
	ib_device_put(device);
	ib_client_put(client);
}

int ib_clients_add_device(struct ib_device *device)
{
	struct ib_client *client;
	unsigned long index;
	int ret = 0;

	down_read(&clients_rwsem);
	xa_for_each_marked(&clients, index, client, CLIENT_REGISTERED) {
		ret = add_client_context(device, client);
		if (ret)
			break;
	}
	up_read(&clients_rwsem);
	return ret;
}

void ib_clients_remove_device(struct ib_device *device)
{
	u32 cid;

	down_read(&clients_rwsem);
	cid = highest_client_id;
	up_read(&clients_rwsem);

	while (cid) {
		cid--;
		remove_client_context(device, cid);
	}
}

void ib_clients_rename(struct ib_device *device)
{
	struct ib_client *client;
	unsigned long index;

	down_read(&clients_rwsem);
	xa_for_each_marked(&clients, index, client, CLIENT_REGISTERED) {
		if (!client->rename)
			continue;
		down_read(&device->client_data_rwsem);
		if (xa_get_mark(&device->client_data, client->client_id,
				CLIENT_DATA_REGISTERED))
			client->rename(device,
				       xa_load(&device->client_data,
					       client->client_id));
		up_read(&device->client_data_rwsem);
	}
	up_read(&clients_rwsem);
}

static int assign_client_id(struct ib_client *client)
{
	int ret;

	lockdep_assert_held(&clients_rwsem);
	client->client_id = highest_client_id;
	ret = xa_insert(&clients, client->client_id, client, GFP_KERNEL);
	if (ret)
		return ret;
	highest_client_id++;
	xa_set_mark(&clients, client->client_id, CLIENT_REGISTERED);
	return 0;
}

static void remove_client_id(struct ib_client *client)
{
	down_write(&clients_rwsem);
	xa_erase(&clients, client->client_id);
	/* Shrink so ids stay in registration order without holes at the top. */
	while (highest_client_id && !xa_load(&clients, highest_client_id - 1))
		highest_client_id--;
	up_write(&clients_rwsem);
}

static int add_client_to_device(struct ib_device *device, void *data)
{
	return add_client_context(device, data);
}

/**
 * ib_register_client - register a client of RDMA devices
 * @client: the client
 *
 * add() is called for every device already registered before this
 * returns, and for every device registered later.
 *
 * Context: Process context; sleeps. Takes clients_rwsem for write, then
 * devices_rwsem for read while it walks the registered devices; add() runs
 * under devices_rwsem and the device's client_data_rwsem, both held for read.
 *
 * Return: 0, or -ENOMEM (the client is then not registered).
 */
int ib_register_client(struct ib_client *client)
{
	int ret;

	refcount_set(&client->uses, 1);
	init_completion(&client->uses_zero);

	down_write(&clients_rwsem);
	ret = assign_client_id(client);
	up_write(&clients_rwsem);
	if (ret)
		return ret;

	ret = ib_devices_walk_registered(add_client_to_device, client);
	if (ret) {
		ib_unregister_client(client);
		return ret;
	}
	return 0;
}
EXPORT_SYMBOL(ib_register_client);

static void remove_client_from_device(struct ib_device *device, void *data)
{
	struct ib_client *client = data;

	remove_client_context(device, client->client_id);
}

/**
 * ib_unregister_client - unregister a client
 * @client: the client
 *
 * remove() is called for every device the client is attached to; when
 * this returns no callback of the client runs any more.
 *
 * Context: Process context; sleeps until every remove() of the client has
 * returned, including those run by devices unregistering at the same time.
 * Takes clients_rwsem for write and each device's client_data_rwsem for write;
 * remove() runs with no lock held. Must not be called from the client's own
 * callbacks.
 */
void ib_unregister_client(struct ib_client *client)
{
	down_write(&clients_rwsem);
	ib_client_put(client);
	xa_clear_mark(&clients, client->client_id, CLIENT_REGISTERED);
	up_write(&clients_rwsem);

	/* No lock may be held while remove() runs. */
	ib_devices_visit_held(remove_client_from_device, client);

	/*
	 * A device unregistering concurrently removes the client itself;
	 * wait for those too.
	 */
	wait_for_completion(&client->uses_zero);
	remove_client_id(client);
}
EXPORT_SYMBOL(ib_unregister_client);

/**
 * ib_set_client_data - set a client's data for a device
 * @device: the device
 * @client: the client, attached to @device
 * @data: the data
 *
 * Only valid from the client's add() until its remove() returns.
 *
 * Context: Any context the client's callbacks run in; does not sleep (the slot
 * was reserved when the client was attached, so nothing is allocated).
 */
void ib_set_client_data(struct ib_device *device, struct ib_client *client,
			void *data)
{
	void *rc;

	if (WARN_ON(IS_ERR(data)))
		data = NULL;

	/* The slot was reserved in add_client_context(): no allocation. */
	rc = xa_store(&device->client_data, client->client_id, data,
		      GFP_KERNEL);
	WARN_ON(xa_is_err(rc));
}
EXPORT_SYMBOL(ib_set_client_data);

/*
 * Ask @client about @device; -ENOENT when it is not attached to it.
 *
 * The device's client_data_rwsem is held across the callback:
 * remove_client_context() clears CLIENT_DATA_REGISTERED under that lock
 * held for write before remove() may free anything, so while the mark is
 * seen set the client data, and the struct device the client returns,
 * live long enough for get_device().
 */
static int client_dev_nl_info(struct ib_device *device,
			      struct ib_client *client,
			      struct ib_client_nl_info *res)
{
	int ret;

	down_read(&device->client_data_rwsem);
	if (!xa_get_mark(&device->client_data, client->client_id,
			 CLIENT_DATA_REGISTERED)) {
		ret = -ENOENT;
		goto out;
	}
	if (!client->get_nl_info) {
		ret = -EOPNOTSUPP;
		goto out;
	}
	ret = client->get_nl_info(device,
				  xa_load(&device->client_data,
					  client->client_id), res);
	/* -ENOENT means "load the module": a client may not say it. */
	if (WARN_ON(ret == -ENOENT))
		ret = -EINVAL;
	if (!ret && res->cdev)
		get_device(res->cdev);
out:
	up_read(&device->client_data_rwsem);
	return ret;
}

/**
 * ib_get_net_dev_by_params - the net device a connection request is for
 * @dev: the RDMA device the request came in on
 * @port: its port
 * @pkey: the P_Key of the request
 * @gid: the local GID it was sent to, or NULL
 * @addr: the local IP address it names, or NULL
 *
 * Asks each client attached to @dev that offers get_net_dev_by_params
 * (IPoIB does), in registration order; the first answer counts.  Only
 * InfiniBand ports have such net devices: RoCE and iWARP ports answer
 * NULL.
 *
 * Context: Process context; takes the device's client_data_rwsem for
 * read (held across the clients' callbacks).
 * Return: the net device with a reference (dev_put() it), or NULL.
 */
struct net_device *ib_get_net_dev_by_params(struct ib_device *dev, u32 port,
					    u16 pkey, const union ib_gid *gid,
					    const struct sockaddr *addr)
{
	struct net_device *net_dev = NULL;
	struct ib_client *client;
	unsigned long index;
	void *client_data;

	if (!rdma_protocol_ib(dev, port))
		return NULL;

	/* as client_dev_nl_info(): the mark keeps the client data alive */
	down_read(&dev->client_data_rwsem);
	xa_for_each_marked(&dev->client_data, index, client_data,
			   CLIENT_DATA_REGISTERED) {
		client = xa_load(&clients, index);
		if (!client || !client->get_net_dev_by_params)
			continue;
		net_dev = client->get_net_dev_by_params(dev, port, pkey, gid,
							addr, client_data);
		if (net_dev)
			break;
	}
	up_read(&dev->client_data_rwsem);
	return net_dev;
}
EXPORT_SYMBOL(ib_get_net_dev_by_params);

/* The same without a device; clients_rwsem keeps @client registered. */
static int client_global_nl_info(struct ib_client *client,
				 struct ib_client_nl_info *res)
{
	int ret;

	if (!client->get_global_nl_info)
		return -EOPNOTSUPP;
	ret = client->get_global_nl_info(res);
	if (WARN_ON(ret == -ENOENT))
		ret = -EINVAL;
	if (!ret && res->cdev)
		get_device(res->cdev);
	return ret;
}

/*
 * Ask the registered client named @name (the first of that name attached
 * to @device, when there is a device).  -ENOENT: there is none.
 */
static int client_nl_info(struct ib_device *device, const char *name,
			  struct ib_client_nl_info *res)
{
	struct ib_client *client;
	unsigned long index;
	int ret = -ENOENT;

	down_read(&clients_rwsem);
	xa_for_each_marked(&clients, index, client, CLIENT_REGISTERED) {
		if (strcmp(client->name, name))
			continue;
		if (device)
			ret = client_dev_nl_info(device, client, res);
		else
			ret = client_global_nl_info(client, res);
		if (ret != -ENOENT)
			break;
	}
	up_read(&clients_rwsem);
	return ret;
}

/**
 * ib_get_client_nl_info - ask a client which character device it offers
 * @ibdev: the device asked about, or NULL for a client's global device
 * @client_name: the client's name (RDMA_NLDEV_ATTR_CHARDEV_TYPE)
 * @res: @res->nl_msg and @res->port in (port U32_MAX: none named); the
 *	client fills in @res->cdev and @res->abi
 *
 * A client that is not registered, or not attached to @ibdev, is looked
 * for once more after loading module "rdma-client-<client_name>".  On
 * success @res->cdev holds a reference the caller drops with
 * put_device(); the struct device stays valid after that client's
 * remove() (its name too), the character device may be gone by then.
 *
 * Context: Process context; sleeps (may wait for modprobe).  Takes
 * clients_rwsem for read and, with @ibdev, the device's client_data_rwsem
 * for read, both held across the client's get_nl_info() or
 * get_global_nl_info().  The caller holds no RDMA lock a module's init
 * could need (ib_register_client()).
 *
 * Return: 0; -EOPNOTSUPP when no such client is registered (or attached),
 * or it offers no character device here; else the client's error
 * (-EINVAL for a port it needs and was not given, say).
 */
int ib_get_client_nl_info(struct ib_device *ibdev, const char *client_name,
			  struct ib_client_nl_info *res)
{
	int ret;

	ret = client_nl_info(ibdev, client_name, res);
	if (ret == -ENOENT) {
		/* Its init registers the client; no-op without modules. */
		request_module("rdma-client-%s", client_name);
		ret = client_nl_info(ibdev, client_name, res);
	}
	if (ret == -ENOENT)
		return -EOPNOTSUPP;
	if (ret)
		return ret;
	/* A client that answers must name its device. */
	if (WARN_ON(!res->cdev))
		return -EINVAL;
	return 0;
}
