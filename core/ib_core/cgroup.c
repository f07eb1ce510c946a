// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The rdma cgroup controller's hold on devices (CONFIG_CGROUP_RDMA).
 *
 * A registered device is known to the controller by its name, so that
 * "rdma.max" can limit a cgroup's HCA handles (user contexts) and HCA
 * objects (ib_uverbs' handles) on it; ib_uverbs charges and uncharges
 * them.  The controller keeps a pointer to ib_device.name, so a rename
 * shows in rdma.current and rdma.max at once.  The device leaves the
 * controller after its clients were removed, when ib_uverbs has
 * destroyed every object it charged: the controller drops its pools of
 * the device without looking at what they still count.
 */
#include <linux/cgroup_rdma.h>
#include <linux/export.h>
#include <rdma/ib_verbs.h>

#include "core_priv.h"

/**
 * ib_device_register_rdmacg - make a device known to the rdma cgroup
 *	controller
 * @device: the device, named
 *
 * Context: process context, ib_register_device().
 */
void ib_device_register_rdmacg(struct ib_device *device)
{
	device->cg_device.name = device->name;
	rdmacg_register_device(&device->cg_device);
}

/**
 * ib_device_unregister_rdmacg - the controller forgets a device
 * @device: the device, its clients removed
 *
 * Context: process context, the device's unregistration.
 */
void ib_device_unregister_rdmacg(struct ib_device *device)
{
	rdmacg_unregister_device(&device->cg_device);
}

/**
 * ib_rdmacg_try_charge - charge one resource to the caller's rdma cgroup
 * @cg_obj: what remembers the cgroup charged
 * @device: the device the resource is on
 * @resource_index: RDMACG_RESOURCE_HCA_HANDLE or RDMACG_RESOURCE_HCA_OBJECT
 *
 * The current task's cgroup and each of its ancestors must have room
 * under their "rdma.max" for @device.
 *
 * Context: process context; may sleep (the controller's mutex).
 * Return: 0; -EAGAIN when a limit is reached, -ENOMEM, -EINVAL for a bad
 * @resource_index (the controller's answers).
 */
int ib_rdmacg_try_charge(struct ib_rdmacg_object *cg_obj,
			 struct ib_device *device,
			 enum rdmacg_resource_type resource_index)
{
	return rdmacg_try_charge(&cg_obj->cg, &device->cg_device,
				 resource_index);
}
EXPORT_SYMBOL(ib_rdmacg_try_charge);

/**
 * ib_rdmacg_uncharge - give back a resource ib_rdmacg_try_charge() charged
 * @cg_obj: what the charge remembered
 * @device: the device it was charged on
 * @resource_index: the resource charged
 *
 * Context: process context; may sleep (the controller's mutex).
 */
void ib_rdmacg_uncharge(struct ib_rdmacg_object *cg_obj,
			struct ib_device *device,
			enum rdmacg_resource_type resource_index)
{
	rdmacg_uncharge(cg_obj->cg, &device->cg_device, resource_index);
}
EXPORT_SYMBOL(ib_rdmacg_uncharge);
