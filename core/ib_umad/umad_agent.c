// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The ioctls of umadN: registering agents (the original request and
 * REGISTER_AGENT2 with flags and a 24-bit OUI), unregistering them, and
 * switching the file to headers with a P_Key index.  An agent's id is
 * its slot in the file (0..IB_UMAD_MAX_AGENTS - 1), written back into
 * the request's id field.
 */
#include <linux/bitmap.h>
#include <linux/compat.h>
#include <linux/nospec.h>
#include <linux/uaccess.h>
#include <rdma/ib_user_mad.h>
#include <rdma/rdma_user_ioctl.h>

#include "umad_priv.h"

/* What both registration ioctls hand to the MAD layer. */
struct umad_reg {
	u32 qpn;
	u32 flags;
	u8 rmpp_version;
	bool has_class;
	struct ib_mad_reg_req req;
};

/* A free agent slot of @file, or -ENOMEM; under file->mutex. */
static int umad_free_slot(struct ib_umad_file *file)
{
	int id;

	for (id = 0; id < IB_UMAD_MAX_AGENTS; id++)
		if (!umad_agent(file, id))
			return id;
	dev_notice(&file->port->dev, "all %d agents of the file are in use\n",
		   IB_UMAD_MAX_AGENTS);
	return -ENOMEM;
}

/*
 * Register the agent @reg describes and tell user space its id at
 * @id_ptr.  @pkey: a REGISTER_AGENT2 registration, which switches a new
 * file to headers with a P_Key index.  Called with the port's
 * file_mutex and the file's mutex held; the caller unregisters a
 * returned agent when this fails after registering it.
 */
static int umad_register(struct ib_umad_file *file, struct umad_reg *reg,
			 u32 __user *id_ptr, bool pkey,
			 struct ib_mad_agent **out)
{
	struct ib_mad_agent *agent;
	int id;

	id = umad_free_slot(file);
	if (id < 0)
		return id;

	agent = ib_register_mad_agent(file->port->ib_dev, file->port->port_num,
				      reg->qpn ? IB_QPT_GSI : IB_QPT_SMI,
				      reg->has_class ? &reg->req : NULL,
				      reg->rmpp_version, umad_send_handler,
				      umad_recv_handler, file, reg->flags);
	if (IS_ERR(agent))
		return PTR_ERR(agent);
	*out = agent;

	if (put_user((u32)id, id_ptr))
		return -EFAULT;

	if (!file->already_used) {
		file->already_used = true;
		if (pkey)
			file->use_pkey_index = true;
		else if (!file->use_pkey_index)
			dev_warn(&file->port->dev,
				 "%s uses headers without P_Key index (IB_USER_MAD_ENABLE_PKEY not called)\n",
				 current->comm);
	}
	file->agent[id] = agent;
	*out = NULL;
	return 0;
}

/* Lock, check the device, register, unlock; undo on failure. */
static int umad_register_locked(struct ib_umad_file *file,
				struct umad_reg *reg, u32 __user *id_ptr,
				bool pkey)
{
	struct ib_umad_port *port = file->port;
	struct ib_mad_agent *agent = NULL;
	int ret;

	mutex_lock(&port->file_mutex);
	mutex_lock(&file->mutex);
	if (!port->ib_dev)
		ret = -EPIPE;
	else
		ret = umad_register(file, reg, id_ptr, pkey, &agent);
	mutex_unlock(&file->mutex);
	if (agent)
		ib_unregister_mad_agent(agent);
	mutex_unlock(&port->file_mutex);
	return ret;
}

static int umad_reg_agent(struct ib_umad_file *file, void __user *arg,
			  bool compat)
{
	struct ib_user_mad_reg_req ureq;
	struct umad_reg reg = {};

	/* checked again under the lock; first, as upstream answers */
	if (!READ_ONCE(file->port->ib_dev))
		return -EPIPE;
	if (copy_from_user(&ureq, arg, sizeof(ureq)))
		return -EFAULT;
	if (ureq.qpn > 1)
		return -EINVAL;

	reg.qpn = ureq.qpn;
	reg.rmpp_version = ureq.rmpp_version;
	reg.has_class = ureq.mgmt_class != 0;
	if (reg.has_class) {
		reg.req.mgmt_class = ureq.mgmt_class;
		reg.req.mgmt_class_version = ureq.mgmt_class_version;
		memcpy(reg.req.oui, ureq.oui, sizeof(reg.req.oui));
		/*
		 * 128 bits either way; a 32-bit process wrote them as four
		 * u32 words, lowest first.
		 */
		if (compat)
			bitmap_from_arr32(reg.req.method_mask,
					  (const u32 *)ureq.method_mask,
					  IB_MGMT_MAX_METHODS);
		else
			memcpy(reg.req.method_mask, ureq.method_mask,
			       sizeof(reg.req.method_mask));
	}
	return umad_register_locked(file, &reg,
				    arg + offsetof(struct ib_user_mad_reg_req,
						   id), false);
}

static int umad_reg_agent2(struct ib_umad_file *file, void __user *arg)
{
	struct ib_user_mad_reg_req2 ureq;
	struct umad_reg reg = {};

	/* checked again under the lock; first, as upstream answers */
	if (!READ_ONCE(file->port->ib_dev))
		return -EPIPE;
	if (copy_from_user(&ureq, arg, sizeof(ureq)))
		return -EFAULT;
	if (ureq.qpn > 1)
		return -EINVAL;
	if (ureq.flags & ~IB_USER_MAD_REG_FLAGS_CAP) {
		/* tell the caller which flags exist */
		if (put_user((u32)IB_USER_MAD_REG_FLAGS_CAP,
			     (u32 __user *)(arg +
					    offsetof(struct ib_user_mad_reg_req2,
						     flags))))
			return -EFAULT;
		return -EINVAL;
	}

	reg.qpn = ureq.qpn;
	reg.flags = ureq.flags;
	reg.rmpp_version = ureq.rmpp_version;
	reg.has_class = ureq.mgmt_class != 0;
	if (reg.has_class) {
		if (ureq.oui & 0xff000000)
			return -EINVAL;
		reg.req.mgmt_class = ureq.mgmt_class;
		reg.req.mgmt_class_version = ureq.mgmt_class_version;
		reg.req.oui[0] = ureq.oui >> 16;
		reg.req.oui[1] = ureq.oui >> 8;
		reg.req.oui[2] = ureq.oui;
		bitmap_from_arr64(reg.req.method_mask, ureq.method_mask,
				  IB_MGMT_MAX_METHODS);
	}
	return umad_register_locked(file, &reg,
				    arg + offsetof(struct ib_user_mad_reg_req2,
						   id), true);
}

static int umad_unreg_agent(struct ib_umad_file *file, u32 __user *arg)
{
	struct ib_umad_port *port = file->port;
	struct ib_mad_agent *agent;
	u32 id;

	if (get_user(id, arg))
		return -EFAULT;
	if (id >= IB_UMAD_MAX_AGENTS)
		return -EINVAL;
	id = array_index_nospec(id, IB_UMAD_MAX_AGENTS);

	mutex_lock(&port->file_mutex);
	mutex_lock(&file->mutex);
	agent = umad_agent(file, id);
	if (agent)
		file->agent[id] = NULL;
	mutex_unlock(&file->mutex);
	/* the handlers find it no more; let it finish outside our mutex */
	if (agent)
		ib_unregister_mad_agent(agent);
	mutex_unlock(&port->file_mutex);
	return agent ? 0 : -EINVAL;
}

static int umad_enable_pkey(struct ib_umad_file *file)
{
	int ret = 0;

	mutex_lock(&file->mutex);
	if (file->already_used)
		ret = -EINVAL;
	else
		file->use_pkey_index = true;
	mutex_unlock(&file->mutex);
	return ret;
}

static long umad_do_ioctl(struct file *filp, unsigned int cmd,
			  void __user *arg, bool compat)
{
	struct ib_umad_file *file = filp->private_data;

	switch (cmd) {
	case IB_USER_MAD_REGISTER_AGENT:
		return umad_reg_agent(file, arg, compat);
	case IB_USER_MAD_UNREGISTER_AGENT:
		return umad_unreg_agent(file, arg);
	case IB_USER_MAD_ENABLE_PKEY:
		return umad_enable_pkey(file);
	case IB_USER_MAD_REGISTER_AGENT2:
		return umad_reg_agent2(file, arg);
	default:
		return -ENOIOCTLCMD;
	}
}

/**
 * umad_ioctl - the ioctls of umadN
 * @filp: the file
 * @cmd: IB_USER_MAD_REGISTER_AGENT(2), _UNREGISTER_AGENT or _ENABLE_PKEY
 * @arg: user pointer to the request
 *
 * Context: Process context; sleeps.  Takes the port's file_mutex, then
 * the file's mutex.
 * Return: 0, -ENOIOCTLCMD for an unknown @cmd, -EFAULT, -EINVAL (bad
 * QPN, flags, OUI or agent id; ENABLE_PKEY after a registration), -ENOMEM
 * (all agent slots used), -EPIPE (the device is gone), or the MAD
 * layer's refusal of the registration.
 */
long umad_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	return umad_do_ioctl(filp, cmd, (void __user *)arg, false);
}

#ifdef CONFIG_COMPAT
/**
 * umad_compat_ioctl - umad_ioctl() for 32-bit processes
 * @filp: the file
 * @cmd: as umad_ioctl()
 * @arg: 32-bit user pointer to the request
 *
 * REGISTER_AGENT's method mask is read as four 32-bit words.
 *
 * Context: As umad_ioctl().
 * Return: As umad_ioctl().
 */
long umad_compat_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	return umad_do_ioctl(filp, cmd, compat_ptr(arg), true);
}
#endif
