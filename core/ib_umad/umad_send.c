// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * write() of umadN: one struct ib_user_mad header (the short, _old form
 * until P_Key indexes are enabled) followed by the MAD.  The header
 * names the agent, the destination (LID, SL, path bits, optional GRH,
 * remote QP, P_Key index) and the send's timeout and retries.
 *
 * RMPP classes: an agent of a kernel-RMPP registration (rmpp_version
 * set, without IB_USER_MAD_USER_RMPP) writes the whole message with its
 * RMPP header's Active flag set, and the MAD layer segments it (the
 * data length follows from the write's size).  Every other agent
 * writes single MADs, segments included, which go out as they are.
 */
#include <kunit/visibility.h>
#include <linux/nospec.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <rdma/ib_verbs.h>

#include "umad_priv.h"
#include "umad_trace.h"

/* Headers of an RMPP class MAD, as written. */
struct umad_rmpp_hdrs {
	struct ib_mad_hdr	mad_hdr;
	struct ib_rmpp_hdr	rmpp_hdr;
} __packed;

static bool umad_same_dest(const struct ib_user_mad_hdr *a,
			   const struct ib_user_mad_hdr *b)
{
	if (a->grh_present != b->grh_present)
		return false;
	if (a->grh_present)
		return !memcmp(a->gid, b->gid, sizeof(a->gid));
	return a->lid == b->lid;
}

/**
 * umad_is_duplicate - does a send clash with one of the file's in flight
 * @file: the file
 * @packet: the new send (user header and MAD header filled in)
 *
 * A send with the TID and class of one in flight is refused: two
 * requests (whatever their destination), or two responses to the same
 * destination (LID, or GID when there is a GRH).  Stricter than the
 * specification needs, as upstream.
 *
 * Context: Any context; the caller holds @file->send_lock.
 * Return: true when @packet duplicates a send on @file->send_list.
 */
VISIBLE_IF_KUNIT bool umad_is_duplicate(struct ib_umad_file *file,
					const struct ib_umad_packet *packet)
{
	const struct ib_mad_hdr *hdr = (void *)packet->mad.data;
	bool resp = ib_response_mad(hdr);
	struct ib_umad_packet *sent;

	list_for_each_entry(sent, &file->send_list, list) {
		const struct ib_mad_hdr *old = (void *)sent->mad.data;

		if (old->tid != hdr->tid || old->mgmt_class != hdr->mgmt_class)
			continue;
		if (resp != !!ib_response_mad(old))
			continue;
		if (!resp || umad_same_dest(&packet->mad.hdr, &sent->mad.hdr))
			return true;
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(umad_is_duplicate);

/**
 * umad_create_ah - the address handle of a user header's destination
 * @file: the file (its port is the source port)
 * @agent: the agent that sends (its QP's PD holds the AH)
 * @hdr: the user header: LID, SL, path bits and, with grh_present, the
 *	GID index, hop limit, traffic class, GID and flow label
 *
 * Context: Process context; sleeps (rdma_create_user_ah()).
 * Return: the AH, or an ERR_PTR() of rdma_create_user_ah() (-EINVAL for
 * a GID index the port does not have, ...).
 */
VISIBLE_IF_KUNIT struct ib_ah *umad_create_ah(struct ib_umad_file *file,
					      struct ib_mad_agent *agent,
					      const struct ib_user_mad_hdr *hdr)
{
	u32 port_num = file->port->port_num;
	struct rdma_ah_attr attr = {};

	attr.type = rdma_ah_find_type(agent->device, port_num);
	rdma_ah_set_dlid(&attr, be16_to_cpu(hdr->lid));
	rdma_ah_set_sl(&attr, hdr->sl);
	rdma_ah_set_path_bits(&attr, hdr->path_bits);
	rdma_ah_set_port_num(&attr, port_num);
	if (hdr->grh_present) {
		rdma_ah_set_grh(&attr, NULL, be32_to_cpu(hdr->flow_label),
				hdr->gid_index, hdr->hop_limit,
				hdr->traffic_class);
		rdma_ah_set_dgid_raw(&attr, (void *)hdr->gid);
	}
	return rdma_create_user_ah(agent->qp->pd, &attr, NULL);
}
EXPORT_SYMBOL_IF_KUNIT(umad_create_ah);

/*
 * Fill a kernel-RMPP send from user space: the class header after the
 * RMPP header goes into the MAD, the data into the segments.
 */
static int umad_copy_rmpp(struct ib_mad_send_buf *msg, const char __user *buf)
{
	int seg, left;

	if (msg->hdr_len > IB_MGMT_RMPP_HDR &&
	    copy_from_user((u8 *)msg->mad + IB_MGMT_RMPP_HDR,
			   buf + IB_MGMT_RMPP_HDR,
			   msg->hdr_len - IB_MGMT_RMPP_HDR))
		return -EFAULT;

	buf += msg->hdr_len;
	for (seg = 1, left = msg->data_len; left > 0; seg++) {
		int len = min(left, msg->seg_size);

		if (copy_from_user(ib_get_rmpp_segment(msg, seg), buf, len))
			return -EFAULT;
		buf += len;
		left -= len;
	}
	return 0;
}

/**
 * umad_write - send one MAD written by user space
 * @filp: the umadN file
 * @buf: header and MAD
 * @count: their size
 * @pos: unused (stream)
 *
 * Context: Process context; sleeps.  Takes the file's mutex, then its
 * send_lock.
 * Return: @count, or -EINVAL (too short, bad agent id, no data length,
 * a duplicate TID, or the MAD layer's refusal), -EIO (the agent is not
 * registered or the device is gone), -EFAULT, -ENOMEM, or the error of
 * the address handle or of ib_post_send_mad().
 */
ssize_t umad_write(struct file *filp, const char __user *buf, size_t count,
		   loff_t *pos)
{
	struct ib_umad_file *file = filp->private_data;
	size_t hdr_size = umad_hdr_size(file);
	struct ib_umad_packet *packet;
	struct umad_rmpp_hdrs *hdrs;
	struct ib_mad_agent *agent;
	int hdr_len, copy_offset;
	bool rmpp_class, rmpp_active;
	struct ib_mad_hdr *mad;
	struct ib_ah *ah;
	size_t data_len;
	ssize_t ret;

	if (count < hdr_size + IB_MGMT_RMPP_HDR)
		return -EINVAL;

	/* the header and the MAD's first IB_MGMT_RMPP_HDR bytes */
	packet = kzalloc(sizeof(*packet) + IB_MGMT_RMPP_HDR, GFP_KERNEL);
	if (!packet)
		return -ENOMEM;
	if (copy_from_user(&packet->mad, buf, hdr_size)) {
		ret = -EFAULT;
		goto err_free;
	}
	if (packet->mad.hdr.id >= IB_UMAD_MAX_AGENTS) {
		ret = -EINVAL;
		goto err_free;
	}
	packet->mad.hdr.id = array_index_nospec(packet->mad.hdr.id,
						IB_UMAD_MAX_AGENTS);
	buf += hdr_size;
	if (copy_from_user(packet->mad.data, buf, IB_MGMT_RMPP_HDR)) {
		ret = -EFAULT;
		goto err_free;
	}
	hdrs = (struct umad_rmpp_hdrs *)packet->mad.data;

	mutex_lock(&file->mutex);
	agent = umad_agent(file, packet->mad.hdr.id);
	if (!agent) {
		ret = -EIO;
		goto err_unlock;
	}
	ah = umad_create_ah(file, agent, &packet->mad.hdr);
	if (IS_ERR(ah)) {
		ret = PTR_ERR(ah);
		goto err_unlock;
	}

	hdr_len = ib_get_mad_data_offset(hdrs->mad_hdr.mgmt_class);
	rmpp_class = ib_is_mad_class_rmpp(hdrs->mad_hdr.mgmt_class);
	if (rmpp_class && ib_mad_kernel_rmpp_agent(agent)) {
		copy_offset = IB_MGMT_RMPP_HDR;
		rmpp_active = ib_get_rmpp_flags(&hdrs->rmpp_hdr) &
			      IB_MGMT_RMPP_FLAG_ACTIVE;
	} else {
		copy_offset = IB_MGMT_MAD_HDR;
		rmpp_active = false;
	}
	if (check_sub_overflow(count, hdr_size + hdr_len, &data_len)) {
		ret = -EINVAL;
		goto err_ah;
	}

	packet->msg = ib_create_send_mad(agent, be32_to_cpu(packet->mad.hdr.qpn),
					 packet->mad.hdr.pkey_index, rmpp_active,
					 hdr_len, data_len, GFP_KERNEL,
					 hdrs->mad_hdr.base_version);
	if (IS_ERR(packet->msg)) {
		ret = PTR_ERR(packet->msg);
		goto err_ah;
	}
	packet->msg->ah = ah;
	packet->msg->timeout_ms = packet->mad.hdr.timeout_ms;
	packet->msg->retries = packet->mad.hdr.retries;
	packet->msg->context[0] = packet;

	/* MAD header from our copy; a kernel-RMPP header is already set */
	mad = packet->msg->mad;
	memcpy(mad, packet->mad.data, IB_MGMT_MAD_HDR);
	if (rmpp_active)
		ret = umad_copy_rmpp(packet->msg, buf);
	else if (copy_from_user((u8 *)mad + copy_offset, buf + copy_offset,
				hdr_len + data_len - copy_offset))
		ret = -EFAULT;
	else
		ret = 0;
	if (ret)
		goto err_msg;

	/* requests carry the agent's hi_tid so that responses find it */
	if (!ib_response_mad(mad)) {
		mad->tid = cpu_to_be64((u64)agent->hi_tid << 32 |
				       (be64_to_cpu(mad->tid) & 0xffffffff));
		hdrs->mad_hdr.tid = mad->tid;
	}

	spin_lock_irq(&file->send_lock);
	/* segments of a user-RMPP transfer share their TID */
	if (!ib_mad_kernel_rmpp_agent(agent) && rmpp_class &&
	    (ib_get_rmpp_flags(&hdrs->rmpp_hdr) & IB_MGMT_RMPP_FLAG_ACTIVE)) {
		list_add_tail(&packet->list, &file->send_list);
	} else if (umad_is_duplicate(file, packet)) {
		spin_unlock_irq(&file->send_lock);
		ret = -EINVAL;
		goto err_msg;
	} else {
		list_add_tail(&packet->list, &file->send_list);
	}
	spin_unlock_irq(&file->send_lock);

	ret = ib_post_send_mad(packet->msg, NULL);
	if (ret)
		goto err_dequeue;
	trace_ib_umad_write(file, &packet->mad.hdr, mad);
	mutex_unlock(&file->mutex);
	return count;

err_dequeue:
	umad_dequeue_send(file, packet);
err_msg:
	ib_free_send_mad(packet->msg);
err_ah:
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
err_unlock:
	mutex_unlock(&file->mutex);
err_free:
	kfree(packet);
	return ret;
}
