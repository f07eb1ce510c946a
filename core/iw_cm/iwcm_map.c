// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Port mapping of iw_cm ids through the port-mapper client
 * (iwpm_*.c, Documentation/core/iwpm.rst).  A listener maps its local
 * address (ADD_MAPPING); an active id maps its own and learns the
 * remote's mapped address (QUERY_MAPPING); a passive id learns the
 * peer's real address from what iwpmd sent (REMOTE_INFO).  The mapping
 * is kept (for a restarted iwpmd) and removed when the id ends.  With
 * no port mapper the ids use their own addresses.
 */
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/string.h>
#include <net/ipv6.h>
#include <rdma/iw_portmap.h>
#include <rdma/rdma_netlink.h>

#include "iwcm.h"

/**
 * iwcm_wildcard_fix - fill in the IP of a wildcard mapped address
 * @pm_addr: the address the port mapper gave
 * @cm_addr: an address with the IP to use
 * @out: where the IP goes when @pm_addr's IP is the wildcard
 */
void iwcm_wildcard_fix(const struct sockaddr_storage *pm_addr,
		       const struct sockaddr_storage *cm_addr,
		       struct sockaddr_storage *out)
{
	if (pm_addr->ss_family == AF_INET) {
		const struct sockaddr_in *pm = (const void *)pm_addr;

		if (pm->sin_addr.s_addr == htonl(INADDR_ANY))
			((struct sockaddr_in *)out)->sin_addr =
				((const struct sockaddr_in *)cm_addr)->sin_addr;
	} else if (pm_addr->ss_family == AF_INET6) {
		const struct sockaddr_in6 *pm = (const void *)pm_addr;

		if (ipv6_addr_any(&pm->sin6_addr))
			((struct sockaddr_in6 *)out)->sin6_addr =
				((const struct sockaddr_in6 *)cm_addr)->sin6_addr;
	}
}

/**
 * iwcm_map - map an id's local address (and learn the remote's)
 * @priv: the id, in a listen or connect call
 * @active: a connect (QUERY_MAPPING) rather than a listen (ADD_MAPPING)
 *
 * Sets @m_local_addr and @m_remote_addr: the mapped addresses, or the
 * id's own when there is no port mapper or it failed (the connection
 * still works between hosts without port mappers).
 *
 * Context: process context, sleeps while the port mapper answers.
 * Return: 0, -EINVAL for a device or interface name the port mapper
 * cannot take, or the error of recording the mapping.
 */
int iwcm_map(struct iwcm_id_private *priv, bool active)
{
	struct iw_cm_id *cm_id = &priv->id;
	const char *devname = dev_name(&cm_id->device->dev);
	const char *ifname = cm_id->device->iw_ifname;
	struct iwpm_dev_data reg = {};
	struct iwpm_sa_data sa = {};
	int status, ret;

	cm_id->m_local_addr = cm_id->local_addr;
	cm_id->m_remote_addr = cm_id->remote_addr;
	if (strscpy(reg.dev_name, devname, sizeof(reg.dev_name)) < 0 ||
	    strscpy(reg.if_name, ifname, sizeof(reg.if_name)) < 0)
		return -EINVAL;
	if (iwpm_register_pid(&reg, RDMA_NL_IWCM) || !iwpm_valid_pid())
		return 0;

	sa.loc_addr = cm_id->local_addr;
	sa.rem_addr = cm_id->remote_addr;
	if (cm_id->device->iw_driver_flags & IW_F_NO_PORT_MAP)
		sa.flags = IWPM_FLAGS_NO_PORT_MAP;
	if (active)
		status = iwpm_add_and_query_mapping(&sa, RDMA_NL_IWCM);
	else
		status = iwpm_add_mapping(&sa, RDMA_NL_IWCM);
	if (!status) {
		cm_id->m_local_addr = sa.mapped_loc_addr;
		if (active) {
			cm_id->m_remote_addr = sa.mapped_rem_addr;
			iwcm_wildcard_fix(&sa.mapped_rem_addr,
					  &cm_id->remote_addr,
					  &cm_id->m_remote_addr);
		}
	} else {
		ibdev_dbg(cm_id->device, "iw_cm: port mapping failed: %d\n",
			  status);
	}

	ret = iwpm_create_mapinfo(&cm_id->local_addr, &cm_id->m_local_addr,
				  RDMA_NL_IWCM, sa.flags);
	if (ret) {
		/* Nothing of ours will remove it: do it now. */
		iwpm_remove_mapping(&cm_id->local_addr, RDMA_NL_IWCM);
		return ret;
	}
	cm_id->mapped = true;
	return 0;
}

/**
 * iwcm_unmap - remove an id's mapping, if it has one
 * @priv: the id
 *
 * Context: process context (sends to the port mapper, waits for nothing).
 */
void iwcm_unmap(struct iwcm_id_private *priv)
{
	struct iw_cm_id *cm_id = &priv->id;

	if (!cm_id->mapped)
		return;
	cm_id->mapped = false;
	iwpm_remove_mapinfo(&cm_id->local_addr, &cm_id->m_local_addr);
	iwpm_remove_mapping(&cm_id->local_addr, RDMA_NL_IWCM);
}
