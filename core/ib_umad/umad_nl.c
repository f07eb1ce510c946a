// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ib_umad's answers to nldev's GET_CHARDEV: client "umad" names a port's
 * umadN, client "issm" its issmN.  Both need a port; the ABI version is
 * IB_USER_MAD_ABI_VERSION.
 *
 * "issm" keeps no data of its own: it reads umad's.  That is safe
 * because it is attached after umad and detached before it: it
 * registers after umad_client, so it has the higher client id and
 * ib_core removes it from a device first, and it unregisters first.
 * While ib_core holds the device's client data for the question, issm
 * is attached, so umad's remove() has not started and the ports live.
 */
#include <rdma/ib_verbs.h>

#include "umad_priv.h"

/*
 * The port of a question: -EINVAL for no port or one the device lacks,
 * -EOPNOTSUPP for one without umadN (no MAD support).
 */
static struct ib_umad_port *umad_nl_port(struct ib_device *device,
					 struct ib_umad_device *umad_dev,
					 u32 port_num)
{
	if (!umad_dev)
		return ERR_PTR(-EOPNOTSUPP);
	if (!rdma_is_port_valid(device, port_num))
		return ERR_PTR(-EINVAL);
	if (!rdma_cap_ib_mad(device, port_num))
		return ERR_PTR(-EOPNOTSUPP);
	return &umad_dev->ports[port_num - rdma_start_port(device)];
}

int umad_get_nl_info(struct ib_device *ibdev, void *client_data,
		     struct ib_client_nl_info *res)
{
	struct ib_umad_port *port = umad_nl_port(ibdev, client_data,
						 res->port);

	if (IS_ERR(port))
		return PTR_ERR(port);
	res->abi = IB_USER_MAD_ABI_VERSION;
	res->cdev = &port->dev;
	return 0;
}

static int issm_get_nl_info(struct ib_device *ibdev, void *client_data,
			    struct ib_client_nl_info *res)
{
	struct ib_umad_port *port;

	port = umad_nl_port(ibdev, ib_get_client_data(ibdev, &umad_client),
			    res->port);
	if (IS_ERR(port))
		return PTR_ERR(port);
	/* A port without QP0 has no issmN. */
	if (!port->has_smi)
		return -EOPNOTSUPP;
	res->abi = IB_USER_MAD_ABI_VERSION;
	res->cdev = &port->sm_dev;
	return 0;
}

struct ib_client umad_issm_client = {
	.name = "issm",
	.get_nl_info = issm_get_nl_info,
};
