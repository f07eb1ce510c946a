/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Directed-route SMP handling of the subnet management interface (IBTA
 * vol. 1 14.2.2): how the hop pointer and the return path of a DR SMP
 * move when a node sends, receives or forwards it, and whether it ends
 * at the local SMA/SM.  InfiniBand only; OPA's wider SMPs are not here.
 *
 * The MAD layer calls these; they are also exported (GPL) for a driver
 * that emulates a switch of its own, rdma_loop's, which includes this
 * header from the tree (upstream keeps them internal: no upstream
 * driver forwards SMPs in software).
 */
#ifndef _RDMA_CORE_SMI_H
#define _RDMA_CORE_SMI_H

#include <kunit/visibility.h>
#include <rdma/ib_smi.h>
#include <rdma/ib_verbs.h>

/* enum smi_action, enum smi_forward_action and the four steps: <rdma/ib_smi.h> */

/* smi_dr_dlid_permissive - whether the SMP's DrDLID is the permissive LID */
static inline bool smi_dr_dlid_permissive(const struct ib_smp *smp)
{
	return smp->dr_dlid == IB_LID_PERMISSIVE;
}

/* smi_dr_slid_permissive - whether the SMP's DrSLID is the permissive LID */
static inline bool smi_dr_slid_permissive(const struct ib_smp *smp)
{
	return smp->dr_slid == IB_LID_PERMISSIVE;
}

/**
 * smi_check_local_smp - does an outbound DR SMP end at this node's SMA?
 * @smp: the SMP, after smi_handle_dr_smp_send()
 * @device: the local device
 *
 * An outbound SMP (D bit clear) whose hop pointer went one past the hop
 * count has walked its whole path and is for the local SMA (C14-9 cases
 * 3 and 4).  Only a device with a process_mad operation has an SMA to
 * give it to.
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: IB_SMI_HANDLE when the SMP goes to the device's process_mad,
 * IB_SMI_DISCARD otherwise.
 */
static inline enum smi_action smi_check_local_smp(struct ib_smp *smp,
						  struct ib_device *device)
{
	if (!device->ops.process_mad || ib_get_smp_direction(smp))
		return IB_SMI_DISCARD;
	return smp->hop_ptr == smp->hop_cnt + 1 ? IB_SMI_HANDLE :
						  IB_SMI_DISCARD;
}

/**
 * smi_check_local_returning_smp - does a returning DR SMP end here?
 * @smp: the SMP, after smi_handle_dr_smp_send()
 * @device: the local device
 *
 * A returning SMP (D bit set) whose hop pointer came back to 0 has
 * reached the node that originated it, the SM's (C14-13 cases 3 and 4).
 * Only a device with a process_mad operation can take it.
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: IB_SMI_HANDLE when the SMP goes to the device's process_mad,
 * IB_SMI_DISCARD otherwise.
 */
static inline enum smi_action
smi_check_local_returning_smp(struct ib_smp *smp, struct ib_device *device)
{
	if (!device->ops.process_mad || !ib_get_smp_direction(smp))
		return IB_SMI_DISCARD;
	return smp->hop_ptr == 0 ? IB_SMI_HANDLE : IB_SMI_DISCARD;
}

#endif /* _RDMA_CORE_SMI_H */
