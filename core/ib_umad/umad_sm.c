// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * issmN: whoever holds it open is the port's subnet manager.  Opening
 * sets IsSM in the port's capability mask (ib_modify_port()), closing
 * clears it.  One opener at a time: a second open waits for the first
 * to close, or fails with -EAGAIN under O_NONBLOCK.
 */
#include <linux/fs.h>
#include <linux/nsproxy.h>
#include <linux/sched/signal.h>
#include <rdma/ib_verbs.h>

#include "umad_priv.h"

static int umad_sm_open(struct inode *inode, struct file *filp)
{
	struct ib_umad_port *port =
		container_of(inode->i_cdev, struct ib_umad_port, sm_cdev);
	struct ib_port_modify props = { .set_port_cap_mask = IB_PORT_SM };
	int ret;

	if (filp->f_flags & O_NONBLOCK) {
		if (down_trylock(&port->sm_sem))
			return -EAGAIN;
	} else if (down_interruptible(&port->sm_sem)) {
		return -ERESTARTSYS;
	}

	/* the device may have gone while we waited */
	mutex_lock(&port->file_mutex);
	if (!port->ib_dev) {
		ret = -ENXIO;
		goto err_unlock;
	}
	if (!rdma_dev_access_netns(port->ib_dev, current->nsproxy->net_ns)) {
		ret = -EPERM;
		goto err_unlock;
	}
	ret = ib_modify_port(port->ib_dev, port->port_num, 0, &props);
	if (ret)
		goto err_unlock;
	mutex_unlock(&port->file_mutex);

	filp->private_data = port;
	nonseekable_open(inode, filp);
	return 0;

err_unlock:
	mutex_unlock(&port->file_mutex);
	up(&port->sm_sem);
	return ret;
}

static int umad_sm_release(struct inode *inode, struct file *filp)
{
	struct ib_umad_port *port = filp->private_data;
	struct ib_port_modify props = { .clr_port_cap_mask = IB_PORT_SM };
	int ret = 0;

	mutex_lock(&port->file_mutex);
	if (port->ib_dev)
		ret = ib_modify_port(port->ib_dev, port->port_num, 0, &props);
	mutex_unlock(&port->file_mutex);
	up(&port->sm_sem);
	return ret;
}

const struct file_operations umad_sm_fops = {
	.owner = THIS_MODULE,
	.open = umad_sm_open,
	.release = umad_sm_release,
};
