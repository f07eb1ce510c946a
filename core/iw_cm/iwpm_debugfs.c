// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * /sys/kernel/debug/iwpm/status: what the port-mapper client knows, for
 * people and tests.  One "key: value" line each.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "iwpm_util.h"

static struct dentry *iwpm_debugfs_dir;

static int iwpm_status_show(struct seq_file *s, void *unused)
{
	seq_printf(s, "port_mapper: %d\n", iwpm_get_user_pid());
	seq_printf(s, "abi_version: %u\n", READ_ONCE(iwpm_ulib_version));
	seq_printf(s, "registration: 0x%x\n",
		   iwpm_get_registration(RDMA_NL_IWCM));
	seq_printf(s, "mappings: %u\n", iwpm_mapinfo_count());
	seq_printf(s, "remote_infos: %u\n", iwpm_reminfo_count());
	seq_printf(s, "pending_requests: %u\n", iwpm_pending_nlmsg_requests());
	seq_printf(s, "mapinfo_sent: %d\n",
		   atomic_read(&iwpm_stats.mapinfo_sent));
	seq_printf(s, "mapinfo_acked: %d\n",
		   atomic_read(&iwpm_stats.mapinfo_acked));
	seq_printf(s, "replies_ignored: %d\n",
		   atomic_read(&iwpm_stats.replies_ignored));
	seq_printf(s, "requests_timed_out: %d\n",
		   atomic_read(&iwpm_stats.requests_timed_out));
	seq_printf(s, "requests_aborted: %d\n",
		   atomic_read(&iwpm_stats.requests_aborted));
	seq_printf(s, "timed_out_removed: %d\n",
		   atomic_read(&iwpm_stats.timed_out_removed));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(iwpm_status);

/**
 * iwpm_debugfs_init - create /sys/kernel/debug/iwpm
 *
 * Failures are not fatal: debugfs is optional.
 */
void iwpm_debugfs_init(void)
{
	iwpm_debugfs_dir = debugfs_create_dir("iwpm", NULL);
	debugfs_create_file("status", 0400, iwpm_debugfs_dir, NULL,
			    &iwpm_status_fops);
}

/**
 * iwpm_debugfs_exit - remove /sys/kernel/debug/iwpm
 */
void iwpm_debugfs_exit(void)
{
	debugfs_remove_recursive(iwpm_debugfs_dir);
	iwpm_debugfs_dir = NULL;
}
