// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umadN: open, release, read and poll, and the MAD layer's handlers that
 * feed read().  read() returns, in arrival order, received MADs (status
 * 0, the sender's address in the header) and sends that timed out
 * waiting for their response (status ETIMEDOUT, the MAD header as
 * written, the TID with the agent's hi_tid).
 */
#include <linux/nsproxy.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <rdma/ib_verbs.h>

#include "umad_priv.h"
#include "umad_trace.h"

/*
 * Put @packet on the read queue of the file of @agent, under the id the
 * agent has there.  Returns false when the agent is not (any more) the
 * file's, or the queue is full for a received MAD: the caller frees it.
 */
static bool umad_queue_packet(struct ib_umad_file *file,
			      struct ib_mad_agent *agent,
			      struct ib_umad_packet *packet, bool recv)
{
	bool queued = false;
	unsigned int id;

	mutex_lock(&file->mutex);
	if (recv && atomic_read(&file->recv_list_size) > IB_UMAD_MAX_RECV_QUEUE)
		goto out;
	for (id = 0; id < IB_UMAD_MAX_AGENTS; id++) {
		if (umad_agent(file, id) != agent)
			continue;
		packet->mad.hdr.id = id;
		list_add_tail(&packet->list, &file->recv_list);
		atomic_inc(&file->recv_list_size);
		wake_up_interruptible(&file->recv_wait);
		queued = true;
		break;
	}
out:
	mutex_unlock(&file->mutex);
	return queued;
}

/* Take a send off the file's list of sends in flight. */
void umad_dequeue_send(struct ib_umad_file *file, struct ib_umad_packet *packet)
{
	spin_lock_irq(&file->send_lock);
	list_del(&packet->list);
	spin_unlock_irq(&file->send_lock);
}

/* The MAD layer is done with a send of ours (process context). */
void umad_send_handler(struct ib_mad_agent *agent,
		       struct ib_mad_send_wc *send_wc)
{
	struct ib_umad_file *file = agent->context;
	struct ib_umad_packet *packet = send_wc->send_buf->context[0];

	umad_dequeue_send(file, packet);
	rdma_destroy_ah(packet->msg->ah, RDMA_DESTROY_AH_SLEEPABLE);
	ib_free_send_mad(packet->msg);
	packet->msg = NULL;

	/* only a send whose response never came goes back to the user */
	if (send_wc->status == IB_WC_RESP_TIMEOUT_ERR) {
		packet->length = IB_MGMT_MAD_HDR;
		packet->mad.hdr.status = ETIMEDOUT;
		if (umad_queue_packet(file, agent, packet, false))
			return;
	}
	kfree(packet);
}

/* The sender's global route, from the GRH of a receive. */
static int umad_recv_grh(struct ib_mad_agent *agent,
			 struct ib_mad_recv_wc *mad_recv_wc,
			 struct ib_user_mad_hdr *hdr)
{
	const struct ib_global_route *grh;
	struct rdma_ah_attr ah_attr;
	int ret;

	ret = ib_init_ah_attr_from_wc(agent->device, agent->port_num,
				      mad_recv_wc->wc, mad_recv_wc->recv_buf.grh,
				      &ah_attr);
	if (ret)
		return ret;
	grh = rdma_ah_read_grh(&ah_attr);
	hdr->gid_index = grh->sgid_index;
	hdr->hop_limit = grh->hop_limit;
	hdr->traffic_class = grh->traffic_class;
	memcpy(hdr->gid, grh->dgid.raw, sizeof(hdr->gid));
	hdr->flow_label = cpu_to_be32(grh->flow_label);
	rdma_destroy_ah_attr(&ah_attr);
	return 0;
}

/* A MAD for one of our agents: queue it for read() (process context). */
void umad_recv_handler(struct ib_mad_agent *agent,
		       struct ib_mad_send_buf *send_buf,
		       struct ib_mad_recv_wc *mad_recv_wc)
{
	struct ib_umad_file *file = agent->context;
	const struct ib_wc *wc = mad_recv_wc->wc;
	struct ib_umad_packet *packet;

	if (wc->status != IB_WC_SUCCESS)
		goto err_free_mad;
	packet = kzalloc(sizeof(*packet), GFP_KERNEL);
	if (!packet)
		goto err_free_mad;

	packet->recv_wc = mad_recv_wc;
	packet->length = mad_recv_wc->mad_len;
	packet->mad.hdr.length = umad_hdr_size(file) + mad_recv_wc->mad_len;
	packet->mad.hdr.qpn = cpu_to_be32(wc->src_qp);
	/* OPA LIDs are 32 bits; their upper half has no place here */
	packet->mad.hdr.lid = cpu_to_be16(wc->slid & 0xffff);
	packet->mad.hdr.sl = wc->sl;
	packet->mad.hdr.path_bits = wc->dlid_path_bits;
	packet->mad.hdr.pkey_index = wc->pkey_index;
	packet->mad.hdr.grh_present = !!(wc->wc_flags & IB_WC_GRH);
	if (packet->mad.hdr.grh_present &&
	    umad_recv_grh(agent, mad_recv_wc, &packet->mad.hdr))
		goto err_free_packet;

	if (!umad_queue_packet(file, agent, packet, true))
		goto err_free_packet;
	return;

err_free_packet:
	kfree(packet);
err_free_mad:
	ib_free_recv_mad(mad_recv_wc);
}

/*
 * Copy a received MAD to user space: header, then the data of every
 * segment (an RMPP transfer reassembled by the MAD layer comes as a
 * list of segments; the first is copied whole, the others without
 * their headers).  The buffer must hold the header and at least the
 * first segment (-EINVAL); a buffer that holds that but not the whole
 * transfer gets the header (its length says how much is needed) and the
 * first segment, and -ENOSPC.
 */
static ssize_t umad_copy_recv(struct ib_umad_file *file, char __user *buf,
			      struct ib_umad_packet *packet, size_t count)
{
	struct ib_mad_recv_buf *seg = &packet->recv_wc->recv_buf;
	size_t seg_size = packet->recv_wc->mad_seg_size;
	size_t hdr_len = umad_hdr_size(file);
	size_t first = min_t(size_t, packet->length, seg_size);
	size_t left, offset, chunk;

	if (count < hdr_len + first)
		return -EINVAL;
	if (copy_to_user(buf, &packet->mad, hdr_len))
		return -EFAULT;
	buf += hdr_len;
	if (copy_to_user(buf, seg->mad, first))
		return -EFAULT;
	buf += first;
	if (first == packet->length)
		return hdr_len + packet->length;

	if (count < hdr_len + packet->length)
		return -ENOSPC;
	offset = ib_get_mad_data_offset(seg->mad->mad_hdr.mgmt_class);
	for (left = packet->length - first; left; left -= chunk) {
		seg = list_next_entry(seg, list);
		chunk = min(left, seg_size - offset);
		if (copy_to_user(buf, (u8 *)seg->mad + offset, chunk))
			return -EFAULT;
		buf += chunk;
	}
	return hdr_len + packet->length;
}

/* Copy a returned send (header and its MAD header) to user space. */
static ssize_t umad_copy_send(struct ib_umad_file *file, char __user *buf,
			      struct ib_umad_packet *packet, size_t count)
{
	size_t hdr_len = umad_hdr_size(file);

	if (count < hdr_len + packet->length)
		return -EINVAL;
	if (copy_to_user(buf, &packet->mad, hdr_len) ||
	    copy_to_user(buf + hdr_len, packet->mad.data, packet->length))
		return -EFAULT;
	return hdr_len + packet->length;
}

static bool umad_readable(struct ib_umad_file *file)
{
	return !list_empty(&file->recv_list) || READ_ONCE(file->agents_dead);
}

static ssize_t umad_read(struct file *filp, char __user *buf, size_t count,
			 loff_t *pos)
{
	struct ib_umad_file *file = filp->private_data;
	struct ib_umad_packet *packet;
	ssize_t ret;

	if (count < umad_hdr_size(file))
		return -EINVAL;

	mutex_lock(&file->mutex);
	while (!file->agents_dead && list_empty(&file->recv_list)) {
		mutex_unlock(&file->mutex);
		if (filp->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(file->recv_wait,
					     umad_readable(file)))
			return -ERESTARTSYS;
		mutex_lock(&file->mutex);
	}
	if (file->agents_dead) {
		mutex_unlock(&file->mutex);
		return -EIO;
	}
	packet = list_first_entry(&file->recv_list, struct ib_umad_packet,
				  list);
	list_del(&packet->list);
	atomic_dec(&file->recv_list_size);
	mutex_unlock(&file->mutex);

	if (packet->recv_wc) {
		trace_ib_umad_read_recv(file, &packet->mad.hdr,
					&packet->recv_wc->recv_buf.mad->mad_hdr);
		ret = umad_copy_recv(file, buf, packet, count);
	} else {
		trace_ib_umad_read_send(file, &packet->mad.hdr,
					(const struct ib_mad_hdr *)packet->mad.data);
		ret = umad_copy_send(file, buf, packet, count);
	}

	if (ret < 0) {
		/* it stays first in line for a bigger buffer */
		mutex_lock(&file->mutex);
		list_add(&packet->list, &file->recv_list);
		atomic_inc(&file->recv_list_size);
		mutex_unlock(&file->mutex);
		return ret;
	}
	if (packet->recv_wc)
		ib_free_recv_mad(packet->recv_wc);
	kfree(packet);
	return ret;
}

static __poll_t umad_poll(struct file *filp, struct poll_table_struct *wait)
{
	struct ib_umad_file *file = filp->private_data;
	__poll_t mask = EPOLLOUT | EPOLLWRNORM;	/* a send can always be tried */

	poll_wait(filp, &file->recv_wait, wait);
	mutex_lock(&file->mutex);
	if (!list_empty(&file->recv_list))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (file->agents_dead)
		mask = EPOLLERR;
	mutex_unlock(&file->mutex);
	return mask;
}

static int umad_open(struct inode *inode, struct file *filp)
{
	struct ib_umad_port *port =
		container_of(inode->i_cdev, struct ib_umad_port, cdev);
	struct ib_umad_file *file;
	int ret = 0;

	mutex_lock(&port->file_mutex);
	if (!port->ib_dev) {
		ret = -ENXIO;
		goto out;
	}
	if (!rdma_dev_access_netns(port->ib_dev, current->nsproxy->net_ns)) {
		ret = -EPERM;
		goto out;
	}
	file = kzalloc(sizeof(*file), GFP_KERNEL);
	if (!file) {
		ret = -ENOMEM;
		goto out;
	}
	mutex_init(&file->mutex);
	spin_lock_init(&file->send_lock);
	INIT_LIST_HEAD(&file->recv_list);
	INIT_LIST_HEAD(&file->send_list);
	init_waitqueue_head(&file->recv_wait);
	file->port = port;
	filp->private_data = file;
	list_add_tail(&file->port_list, &port->file_list);
	stream_open(inode, filp);
out:
	mutex_unlock(&port->file_mutex);
	return ret;
}

static int umad_release(struct inode *inode, struct file *filp)
{
	struct ib_umad_file *file = filp->private_data;
	struct ib_umad_port *port = file->port;
	struct ib_umad_packet *packet, *tmp;
	bool was_dead;
	int id;

	mutex_lock(&port->file_mutex);
	mutex_lock(&file->mutex);
	/* from here the handlers find no agent of ours and drop packets */
	was_dead = file->agents_dead;
	file->agents_dead = true;
	list_for_each_entry_safe(packet, tmp, &file->recv_list, list) {
		if (packet->recv_wc)
			ib_free_recv_mad(packet->recv_wc);
		kfree(packet);
	}
	list_del(&file->port_list);
	mutex_unlock(&file->mutex);

	/* a removed device's agents were unregistered by umad_port_kill() */
	if (!was_dead)
		for (id = 0; id < IB_UMAD_MAX_AGENTS; id++)
			if (file->agent[id])
				ib_unregister_mad_agent(file->agent[id]);
	mutex_unlock(&port->file_mutex);

	mutex_destroy(&file->mutex);
	kfree(file);
	return 0;
}

const struct file_operations umad_fops = {
	.owner = THIS_MODULE,
	.read = umad_read,
	.write = umad_write,
	.poll = umad_poll,
	.unlocked_ioctl = umad_ioctl,
#ifdef CONFIG_COMPAT
	.compat_ioctl = umad_compat_ioctl,
#endif
	.open = umad_open,
	.release = umad_release,
};
