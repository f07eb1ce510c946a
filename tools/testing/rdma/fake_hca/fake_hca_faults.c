// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_fake_hca: the call counters of the driver ops and the faults a
 * test injects into them (fake_hca_fail_nth()).  Every op of the fake
 * starts in fake_hca_enter().
 */

#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "fake_hca_priv.h"

static const char * const fake_hca_op_names[FAKE_HCA_OP_COUNT + 1] = {
	[FAKE_HCA_OP_QUERY_DEVICE] = "query_device",
	[FAKE_HCA_OP_QUERY_PORT] = "query_port",
	[FAKE_HCA_OP_GET_PORT_IMMUTABLE] = "get_port_immutable",
	[FAKE_HCA_OP_QUERY_GID] = "query_gid",
	[FAKE_HCA_OP_QUERY_PKEY] = "query_pkey",
	[FAKE_HCA_OP_ADD_GID] = "add_gid",
	[FAKE_HCA_OP_DEL_GID] = "del_gid",
	[FAKE_HCA_OP_MODIFY_DEVICE] = "modify_device",
	[FAKE_HCA_OP_MODIFY_PORT] = "modify_port",
	[FAKE_HCA_OP_ENABLE_DRIVER] = "enable_driver",
	[FAKE_HCA_OP_GET_LINK_LAYER] = "get_link_layer",
	[FAKE_HCA_OP_GET_DEV_FW_STR] = "get_dev_fw_str",
	[FAKE_HCA_OP_DEALLOC_DRIVER] = "dealloc_driver",
	[FAKE_HCA_OP_GET_HW_STATS] = "get_hw_stats",
	[FAKE_HCA_OP_MODIFY_HW_STAT] = "modify_hw_stat",
	[FAKE_HCA_OP_ANY] = "any",
};

/**
 * fake_hca_op_name - name of a driver op of the fake
 * @op: the op, or FAKE_HCA_OP_ANY
 *
 * Context: Any context.
 *
 * Return: a static string, "?" for an op out of range.
 */
const char *fake_hca_op_name(enum fake_hca_op op)
{
	if (op > FAKE_HCA_OP_ANY)
		return "?";
	return fake_hca_op_names[op];
}
EXPORT_SYMBOL_GPL(fake_hca_op_name);

/*
 * Every op starts here: count the call and decide whether an injected
 * fault fires.  Returns 0 or the error to fail the op with.
 */
int fake_hca_enter(struct fake_hca *hca, enum fake_hca_op op)
{
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&hca->lock, flags);
	hca->calls[op]++;
	if (op < FAKE_HCA_NUM_FAILABLE_OPS) {
		if (hca->fail_nth[op] && !--hca->fail_nth[op])
			err = hca->fail_err[op];
		if (hca->fail_nth[FAKE_HCA_OP_ANY] &&
		    !--hca->fail_nth[FAKE_HCA_OP_ANY] && !err)
			err = hca->fail_err[FAKE_HCA_OP_ANY];
		if (err)
			hca->faults_fired++;
	}
	spin_unlock_irqrestore(&hca->lock, flags);
	return err;
}

/**
 * fake_hca_fail_nth - make a future call of an op fail
 * @hca: the device
 * @op: an op that can fail (see enum fake_hca_op), or FAKE_HCA_OP_ANY
 * @nth: 1 fails the next call, 2 the one after, ...; 0 disarms
 * @err: the (negative) error the op returns
 *
 * One fault per op (and one for FAKE_HCA_OP_ANY) can be armed at a time;
 * it fires once.
 *
 * Context: Any context; takes the device's spinlock (IRQ-safe).
 */
void fake_hca_fail_nth(struct fake_hca *hca, enum fake_hca_op op,
		       unsigned int nth, int err)
{
	unsigned long flags;

	if (WARN_ON(op != FAKE_HCA_OP_ANY && op >= FAKE_HCA_NUM_FAILABLE_OPS))
		return;
	spin_lock_irqsave(&hca->lock, flags);
	hca->fail_nth[op] = nth;
	hca->fail_err[op] = err;
	spin_unlock_irqrestore(&hca->lock, flags);
}
EXPORT_SYMBOL_GPL(fake_hca_fail_nth);

/**
 * fake_hca_clear_faults - disarm every armed fault
 * @hca: the device
 *
 * Context: Any context; takes the device's spinlock (IRQ-safe).
 */
void fake_hca_clear_faults(struct fake_hca *hca)
{
	unsigned long flags;

	spin_lock_irqsave(&hca->lock, flags);
	memset(hca->fail_nth, 0, sizeof(hca->fail_nth));
	spin_unlock_irqrestore(&hca->lock, flags);
}
EXPORT_SYMBOL_GPL(fake_hca_clear_faults);

/**
 * fake_hca_op_calls - how often an op was called
 * @hca: the device
 * @op: the op; FAKE_HCA_OP_ANY counts every op that can fail
 *
 * Calls that failed by injection count too.
 *
 * Context: Any context; takes the device's spinlock (IRQ-safe).
 *
 * Return: the number of calls since creation or the last
 * fake_hca_reset_calls(); 0 for an op out of range.
 */
unsigned int fake_hca_op_calls(struct fake_hca *hca, enum fake_hca_op op)
{
	unsigned int n = 0;
	unsigned long flags;
	int i;

	spin_lock_irqsave(&hca->lock, flags);
	if (op == FAKE_HCA_OP_ANY) {
		for (i = 0; i < FAKE_HCA_NUM_FAILABLE_OPS; i++)
			n += hca->calls[i];
	} else if (op < FAKE_HCA_OP_COUNT) {
		n = hca->calls[op];
	}
	spin_unlock_irqrestore(&hca->lock, flags);
	return n;
}
EXPORT_SYMBOL_GPL(fake_hca_op_calls);

/**
 * fake_hca_faults_fired - how many injected faults fired so far
 * @hca: the device
 *
 * Context: Any context; takes no lock (a single read).
 *
 * Return: the number of calls failed by injection since creation or the
 * last fake_hca_reset_calls().
 */
unsigned int fake_hca_faults_fired(struct fake_hca *hca)
{
	return READ_ONCE(hca->faults_fired);
}
EXPORT_SYMBOL_GPL(fake_hca_faults_fired);

/**
 * fake_hca_reset_calls - zero the call counters and the fired-fault count
 * @hca: the device
 *
 * Context: Any context; takes the device's spinlock (IRQ-safe).
 */
void fake_hca_reset_calls(struct fake_hca *hca)
{
	unsigned long flags;

	spin_lock_irqsave(&hca->lock, flags);
	memset(hca->calls, 0, sizeof(hca->calls));
	hca->faults_fired = 0;
	spin_unlock_irqrestore(&hca->lock, flags);
}
EXPORT_SYMBOL_GPL(fake_hca_reset_calls);
