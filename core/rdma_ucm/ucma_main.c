// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Module rdma_ucm: the RDMA connection manager for user space
 * (librdmacm).  A misc character device, /dev/infiniband/rdma_cm (mode
 * 0666, its abi_version 4 in sysfs), whose every open file holds rdma_cm
 * ids for the process: commands come as write()s of a struct
 * rdma_ucm_cmd_hdr and the command's structure, answers go to the
 * response address the structure names, events wait on the file for
 * GET_EVENT and poll().  nldev's GET_CHARDEV answers "rdma_cm" with it
 * (client "rdma_cm"; librdmacm asks there first).
 *
 * Upstream's drivers/infiniband/core/ucma.c is the reference for the
 * user ABI and its errors; Documentation/core/rdma_ucm.rst describes the
 * interface and what differs.  One difference: every id of a file lives
 * in the network namespace of the task that opened the file, not in
 * that of the task that asks for it.
 *
 * This file: the device, the file operations, the command table and the
 * header's rules, the ib_client, the sysctl, module init and exit.
 */
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/nospec.h>
#include <linux/nsproxy.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <linux/uaccess.h>
#include <net/net_namespace.h>
#include <rdma/ib.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>

#include "ucma_priv.h"

MODULE_AUTHOR("The rdma-next authors");
MODULE_DESCRIPTION("RDMA Userspace Connection Manager Access");
MODULE_LICENSE("Dual BSD/GPL");

/* net.rdma_ucm.max_backlog: the largest backlog a listener gets */
unsigned int ucma_max_backlog = 1024;

static struct ctl_table_header *ucma_ctl_table_hdr;
static struct ctl_table ucma_ctl_table[] = {
	{
		.procname	= "max_backlog",
		.data		= &ucma_max_backlog,
		.maxlen		= sizeof(ucma_max_backlog),
		.mode		= 0644,
		.proc_handler	= proc_dointvec,
	},
};

/* The commands by number; GET_OPTION has never been served (-ENOSYS). */
static const ucma_cmd_fn ucma_cmds[] = {
	[RDMA_USER_CM_CMD_CREATE_ID]	 = ucma_cmd_create_id,
	[RDMA_USER_CM_CMD_DESTROY_ID]	 = ucma_cmd_destroy_id,
	[RDMA_USER_CM_CMD_BIND_IP]	 = ucma_cmd_bind_ip,
	[RDMA_USER_CM_CMD_RESOLVE_IP]	 = ucma_cmd_resolve_ip,
	[RDMA_USER_CM_CMD_RESOLVE_ROUTE] = ucma_cmd_resolve_route,
	[RDMA_USER_CM_CMD_QUERY_ROUTE]	 = ucma_cmd_query_route,
	[RDMA_USER_CM_CMD_CONNECT]	 = ucma_cmd_connect,
	[RDMA_USER_CM_CMD_LISTEN]	 = ucma_cmd_listen,
	[RDMA_USER_CM_CMD_ACCEPT]	 = ucma_cmd_accept,
	[RDMA_USER_CM_CMD_REJECT]	 = ucma_cmd_reject,
	[RDMA_USER_CM_CMD_DISCONNECT]	 = ucma_cmd_disconnect,
	[RDMA_USER_CM_CMD_INIT_QP_ATTR]	 = ucma_cmd_init_qp_attr,
	[RDMA_USER_CM_CMD_GET_EVENT]	 = ucma_cmd_get_event,
	[RDMA_USER_CM_CMD_GET_OPTION]	 = NULL,
	[RDMA_USER_CM_CMD_SET_OPTION]	 = ucma_cmd_set_option,
	[RDMA_USER_CM_CMD_NOTIFY]	 = ucma_cmd_notify,
	[RDMA_USER_CM_CMD_JOIN_IP_MCAST] = ucma_cmd_join_ip_mcast,
	[RDMA_USER_CM_CMD_LEAVE_MCAST]	 = ucma_cmd_leave_mcast,
	[RDMA_USER_CM_CMD_MIGRATE_ID]	 = ucma_cmd_migrate_id,
	[RDMA_USER_CM_CMD_QUERY]	 = ucma_cmd_query,
	[RDMA_USER_CM_CMD_BIND]		 = ucma_cmd_bind,
	[RDMA_USER_CM_CMD_RESOLVE_ADDR]	 = ucma_cmd_resolve_addr,
	[RDMA_USER_CM_CMD_JOIN_MCAST]	 = ucma_cmd_join_mcast,
};

/*
 * One write() is one command: the header, then at least the "in" bytes
 * it announces.  The rules, in upstream's order: shorter than a header
 * -EINVAL; an unknown command -EINVAL; "in" past the write -EINVAL; a
 * command not served -ENOSYS.  A command's own errors come from it; on
 * success the whole write counts as written.
 */
static ssize_t ucma_write(struct file *filp, const char __user *buf,
			  size_t len, loff_t *pos)
{
	struct ucma_file *file = filp->private_data;
	struct rdma_ucm_cmd_hdr hdr;
	ucma_cmd_fn fn;
	ssize_t ret;

	if (!ib_safe_file_access(filp)) {
		pr_err_once("%s: process %d (%s) changed security contexts after opening file descriptor, this is not allowed.\n",
			    __func__, task_tgid_vnr(current), current->comm);
		return -EACCES;
	}
	if (len < sizeof(hdr))
		return -EINVAL;
	if (copy_from_user(&hdr, buf, sizeof(hdr)))
		return -EFAULT;
	if (hdr.cmd >= ARRAY_SIZE(ucma_cmds))
		return -EINVAL;
	hdr.cmd = array_index_nospec(hdr.cmd, ARRAY_SIZE(ucma_cmds));
	if (hdr.in + sizeof(hdr) > len)
		return -EINVAL;
	fn = ucma_cmds[hdr.cmd];
	if (!fn)
		return -ENOSYS;

	ret = fn(file, buf + sizeof(hdr), hdr.in, hdr.out);
	return ret ? ret : len;
}

static __poll_t ucma_poll(struct file *filp, struct poll_table_struct *wait)
{
	struct ucma_file *file = filp->private_data;

	poll_wait(filp, &file->poll_wait, wait);
	return list_empty_careful(&file->event_list) ? 0 :
	       EPOLLIN | EPOLLRDNORM;
}

static int ucma_open(struct inode *inode, struct file *filp)
{
	struct ucma_file *file = kzalloc(sizeof(*file), GFP_KERNEL);

	if (!file)
		return -ENOMEM;
	mutex_init(&file->mut);
	INIT_LIST_HEAD(&file->ctx_list);
	INIT_LIST_HEAD(&file->event_list);
	init_waitqueue_head(&file->poll_wait);
	file->filp = filp;
	/* every id of the file lives where its opener did */
	file->net = get_net(current->nsproxy->net_ns);
	filp->private_data = file;
	return stream_open(inode, filp);
}

/* The last reference went: no command runs, every id goes. */
static int ucma_close(struct inode *inode, struct file *filp)
{
	struct ucma_file *file = filp->private_data;

	ucma_file_release_all(file);
	put_net(file->net);
	mutex_destroy(&file->mut);
	kfree(file);
	return 0;
}

static const struct file_operations ucma_fops = {
	.owner	 = THIS_MODULE,
	.open	 = ucma_open,
	.release = ucma_close,
	.write	 = ucma_write,
	.poll	 = ucma_poll,
};

/**
 * ucma_is_ucma_file - whether a file is an open rdma_cm file
 * @filp: any file
 *
 * Context: any.
 * Return: true for a file of /dev/infiniband/rdma_cm.
 */
bool ucma_is_ucma_file(struct file *filp)
{
	return filp->f_op == &ucma_fops;
}

static struct miscdevice ucma_misc = {
	.minor		= MISC_DYNAMIC_MINOR,
	.name		= "rdma_cm",
	.nodename	= "infiniband/rdma_cm",
	.mode		= 0666,
	.fops		= &ucma_fops,
};

/* nldev's GET_CHARDEV "rdma_cm" (no device): the misc device. */
static int ucma_get_global_nl_info(struct ib_client_nl_info *res)
{
	res->abi = RDMA_USER_CM_ABI_VERSION;
	res->cdev = ucma_misc.this_device;
	return 0;
}

static struct ib_client ucma_client = {
	.name = "rdma_cm",
	.get_global_nl_info = ucma_get_global_nl_info,
};
MODULE_ALIAS_RDMA_CLIENT("rdma_cm");

static ssize_t abi_version_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", RDMA_USER_CM_ABI_VERSION);
}
static DEVICE_ATTR_RO(abi_version);

static int __init ucma_init(void)
{
	int ret;

	ret = misc_register(&ucma_misc);
	if (ret)
		return ret;
	ret = device_create_file(ucma_misc.this_device, &dev_attr_abi_version);
	if (ret)
		goto err_misc;
	ucma_ctl_table_hdr = register_net_sysctl(&init_net, "net/rdma_ucm",
						 ucma_ctl_table);
	if (!ucma_ctl_table_hdr) {
		ret = -ENOMEM;
		goto err_attr;
	}
	ret = ib_register_client(&ucma_client);
	if (ret)
		goto err_sysctl;
	return 0;

err_sysctl:
	unregister_net_sysctl_table(ucma_ctl_table_hdr);
err_attr:
	device_remove_file(ucma_misc.this_device, &dev_attr_abi_version);
err_misc:
	misc_deregister(&ucma_misc);
	return ret;
}

/* No file is open: each held a reference on the module. */
static void __exit ucma_cleanup(void)
{
	ib_unregister_client(&ucma_client);
	unregister_net_sysctl_table(ucma_ctl_table_hdr);
	device_remove_file(ucma_misc.this_device, &dev_attr_abi_version);
	misc_deregister(&ucma_misc);
	WARN_ON(!xa_empty(&ucma_ctx_table));
	WARN_ON(!xa_empty(&ucma_mc_table));
}

module_init(ucma_init);
module_exit(ucma_cleanup);
