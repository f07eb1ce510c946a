/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The client registry as seen from the device registry (device.c).
 */
#ifndef RDMA_CORE_CLIENT_H
#define RDMA_CORE_CLIENT_H

struct ib_device;

/*
 * Attach every registered client to a device that just became
 * registered, in client registration order.  Called with the device
 * table locked for read.  Fails only when memory runs out.
 */
int ib_clients_add_device(struct ib_device *device);

/* Detach every client from a device, newest client first. */
void ib_clients_remove_device(struct ib_device *device);

/* Tell the clients of a device that it was renamed. */
void ib_clients_rename(struct ib_device *device);

#endif /* RDMA_CORE_CLIENT_H */
