// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The test interface of rdma_ucm: what its KUnit suites
 * (tests/ucma_kunit.c) read inside the module, as one table.  Built only
 * into a kernel with KUnit (Kbuild: rdma_ucm-$(CONFIG_KUNIT)); nothing in
 * the product calls it.  It also ties the suites' module to rdma_ucm, so
 * that loading the suite loads rdma_ucm and unloading it lets rdma_ucm go.
 */
#include <kunit/visibility.h>

#include "ucma_priv.h"

static unsigned int ucma_test_contexts(void)
{
	return atomic_read(&ucma_ctx_alive);
}

static unsigned int ucma_test_groups(void)
{
	return atomic_read(&ucma_mc_alive);
}

/* -EINVAL for a file that is not an rdma_cm file */
static int ucma_test_file_events(struct file *filp)
{
	struct ucma_file *file;
	struct list_head *pos;
	int n = 0;

	if (!ucma_is_ucma_file(filp))
		return -EINVAL;
	file = filp->private_data;
	mutex_lock(&file->mut);
	list_for_each(pos, &file->event_list)
		n++;
	mutex_unlock(&file->mut);
	return n;
}

const struct ucma_test_ops ucma_test = {
	.contexts = ucma_test_contexts,
	.groups = ucma_test_groups,
	.file_events = ucma_test_file_events,
	.max_backlog = &ucma_max_backlog,
};
EXPORT_SYMBOL_IF_KUNIT(ucma_test);
