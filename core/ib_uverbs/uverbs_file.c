// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * An open /dev/infiniband/uverbsN: open, release, and write(), which
 * carries the legacy and extended commands (struct ib_uverbs_cmd_hdr,
 * IB_USER_VERBS_CMD_FLAG_EXTENDED with struct ib_uverbs_ex_cmd_hdr).
 * The headers are checked here and split into the core's and the
 * driver's buffers; a command outside the table (uverbs_cmd_device.c)
 * is refused with -EOPNOTSUPP, as upstream refuses one, and a file
 * whose device went away answers -EIO.
 */
#include <kunit/visibility.h>
#include <linux/fs.h>
#include <linux/nsproxy.h>
#include <linux/slab.h>
#include <rdma/ib.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <uapi/rdma/ib_user_verbs.h>

#include "uverbs_priv.h"

static void uverbs_file_free(struct kref *ref)
{
	struct ib_uverbs_file *file = container_of(ref, struct ib_uverbs_file,
						   ref);

	put_device(&file->device->dev);
	/* every mapping holds the file: all are closed by now */
	WARN_ON(!list_empty(&file->umaps));
	if (file->disassociate_page)
		__free_page(file->disassociate_page);
	mutex_destroy(&file->umap_lock);
	WARN_ON(!xa_empty(&file->objects));
	xa_destroy(&file->objects);
	mutex_destroy(&file->ucontext_lock);
	kfree(file);
}

/**
 * uverbs_file_put - drop a reference on an open file's state
 * @file: the file
 *
 * Context: process context; the last put drops the file's reference on
 * its uverbsN.
 */
void uverbs_file_put(struct ib_uverbs_file *file)
{
	kref_put(&file->ref, uverbs_file_free);
}

/**
 * uverbs_disassociate_file - the device of an open file is going away
 * @file: the file, off the device's list, held by the caller
 *
 * The file's mappings of device memory are zapped, it loses its context
 * (its event file gets IB_EVENT_DEVICE_FATAL) and stays open; every command fails with -EIO
 * from now on.
 *
 * Context: process context, the device's unregistration, after the
 * file operations in flight have finished.
 */
void uverbs_disassociate_file(struct ib_uverbs_file *file)
{
	/* the device's memory first: the entries' last references go */
	uverbs_umap_zap(file, true);
	uverbs_destroy_ucontext(file, true);
}

/**
 * uverbs_file_ib_dev - the device of a file's command
 * @file: the file
 *
 * Context: a file operation holding the device's SRCU read side.
 * Return: the device, or NULL once it is being unregistered.
 */
struct ib_device *uverbs_file_ib_dev(struct ib_uverbs_file *file)
{
	struct uverbs_device *udev = file->device;

	return srcu_dereference(udev->ib_dev, &udev->disassociate_srcu);
}

/**
 * uverbs_request - read a command's core request
 * @attrs: the command
 * @req: where to
 * @len: the size of the request structure this kernel knows
 *
 * A shorter request (an older user space) is zero-filled; a longer one
 * must have only zeroes past what this kernel knows.
 *
 * Context: process context, the command's task.
 * Return: 0, -EFAULT, or -EOPNOTSUPP for non-zero bytes past @len.
 */
int uverbs_request(struct uverbs_attr_bundle *attrs, void *req, size_t len)
{
	size_t in = attrs->ucore.inlen;

	if (copy_from_user(req, attrs->ucore.inbuf, min(in, len)))
		return -EFAULT;
	if (in < len)
		memset(req + in, 0, len - in);
	else if (in > len &&
		 !ib_is_buffer_cleared(attrs->ucore.inbuf + len, in - len))
		return -EOPNOTSUPP;
	return 0;
}

/**
 * uverbs_response - write a command's core response
 * @attrs: the command
 * @resp: the response
 * @len: its size in this kernel
 *
 * As much as the user's buffer takes is written, and what the buffer
 * has past it is zeroed.
 *
 * Context: process context, the command's task.
 * Return: 0 or -EFAULT.
 */
int uverbs_response(struct uverbs_attr_bundle *attrs, const void *resp,
		    size_t len)
{
	size_t out = attrs->ucore.outlen;

	if (copy_to_user(attrs->ucore.outbuf, resp, min(out, len)))
		return -EFAULT;
	if (out > len && clear_user(attrs->ucore.outbuf + len, out - len))
		return -EFAULT;
	return 0;
}

/**
 * uverbs_ctx_request - the start of a command on the file's context
 * @attrs: the command
 * @cmd: where its request goes
 * @len: the request's size
 *
 * Context: process context, a command of the file.
 * Return: the context's device, or an ERR_PTR() of uverbs_get_ucontext()
 * or uverbs_request().
 */
struct ib_device *uverbs_ctx_request(struct uverbs_attr_bundle *attrs,
				     void *cmd, size_t len)
{
	struct ib_ucontext *uctx = uverbs_get_ucontext(attrs);
	int ret;

	if (IS_ERR(uctx))
		return ERR_CAST(uctx);
	ret = uverbs_request(attrs, cmd, len);
	return ret ? ERR_PTR(ret) : uctx->device;
}

/**
 * uverbs_ctx_request_head - the fixed start of a command whose request
 *	goes on (work requests and SGEs)
 * @attrs: the command
 * @cmd: where the fixed part goes
 * @len: its size (no more than the command's req_size)
 *
 * Context: process context, a command of the file.
 * Return: the context's device, or an ERR_PTR(): -EINVAL without a
 * context, -EFAULT.
 */
struct ib_device *uverbs_ctx_request_head(struct uverbs_attr_bundle *attrs,
					  void *cmd, size_t len)
{
	struct ib_ucontext *uctx = uverbs_get_ucontext(attrs);

	if (IS_ERR(uctx))
		return ERR_CAST(uctx);
	if (attrs->ucore.inlen < len)
		return ERR_PTR(-EINVAL);
	if (copy_from_user(cmd, attrs->ucore.inbuf, len))
		return ERR_PTR(-EFAULT);
	return uctx->device;
}

/**
 * uverbs_response_length - what an extended response's response_length says
 * @attrs: the command
 * @len: the response's size in this kernel
 *
 * Context: any.
 * Return: the bytes of the response user space gets.
 */
u32 uverbs_response_length(const struct uverbs_attr_bundle *attrs, size_t len)
{
	return min_t(size_t, attrs->ucore.outlen, len);
}

/**
 * uverbs_destroy_cmd - a destroying command
 * @attrs: the command
 * @cmd: where its request goes
 * @len: the request's size
 * @type: the type of object it destroys
 * @handle: the handle in @cmd, read once the request is
 * @counts: for a command with a response: fills @resp from the
 *	destroyed object (its events read, counted once none can come), or
 *	NULL
 * @resp: the response, @resp_len bytes
 * @resp_len: its size, 0 without one
 *
 * Context: process context, a command of the file.
 * Return: 0; -EINVAL for a handle of no object of @type; -EBUSY while
 * another command or object uses it; -EFAULT; or the type's error.
 */
int uverbs_destroy_cmd(struct uverbs_attr_bundle *attrs, void *cmd,
		       size_t len, const struct uverbs_api_object *type,
		       const u32 *handle,
		       void (*counts)(struct ib_uobject *uobj, void *resp),
		       void *resp, size_t resp_len)
{
	struct ib_uobject *uobj;
	struct ib_device *dev;
	int ret;

	dev = uverbs_ctx_request(attrs, cmd, len);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	uobj = uverbs_obj_get(attrs, type, *handle, UVERBS_LOOKUP_DESTROY);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	/* the hold keeps the object's memory for the counts */
	ret = uverbs_uobj_destroy(attrs, uobj);
	if (!ret && counts) {
		counts(uobj, resp);
		ret = uverbs_response(attrs, resp, resp_len);
	}
	uverbs_obj_put(uobj, UVERBS_LOOKUP_DESTROY);
	return ret;
}

static int uverbs_open(struct inode *inode, struct file *filp)
{
	struct uverbs_device *udev = container_of(inode->i_cdev,
						  struct uverbs_device, cdev);
	struct ib_uverbs_file *file;
	struct ib_device *ib_dev;
	int idx, ret = 0;

	idx = srcu_read_lock(&udev->disassociate_srcu);
	ib_dev = srcu_dereference(udev->ib_dev, &udev->disassociate_srcu);
	if (!ib_dev) {
		ret = -ENXIO;
		goto out;
	}
	/* in exclusive mode, only from the device's own namespace */
	if (!rdma_dev_access_netns(ib_dev, current->nsproxy->net_ns)) {
		ret = -EPERM;
		goto out;
	}
	file = kzalloc(sizeof(*file), GFP_KERNEL);
	if (!file) {
		ret = -ENOMEM;
		goto out;
	}
	kref_init(&file->ref);
	mutex_init(&file->ucontext_lock);
	mutex_init(&file->umap_lock);
	INIT_LIST_HEAD(&file->umaps);
	xa_init_flags(&file->objects, XA_FLAGS_ALLOC);
	spin_lock_init(&file->uobjects_lock);
	INIT_LIST_HEAD(&file->uobjects);
	INIT_LIST_HEAD(&file->comp_channels);
	get_device(&udev->dev);
	file->device = udev;

	/*
	 * Unregistration clears ib_dev and then waits for this read side
	 * before it walks the list: the file is on it in time.
	 */
	mutex_lock(&udev->files_lock);
	list_add_tail(&file->list, &udev->files);
	mutex_unlock(&udev->files_lock);

	filp->private_data = file;
	ret = nonseekable_open(inode, filp);
out:
	srcu_read_unlock(&udev->disassociate_srcu, idx);
	return ret;
}

static int uverbs_release(struct inode *inode, struct file *filp)
{
	struct ib_uverbs_file *file = filp->private_data;
	struct uverbs_device *udev = file->device;
	int idx;

	/*
	 * The context goes before the file leaves the device's list: an
	 * unregistration that does not find the file on it must find the
	 * context gone already, and one that does waits for ucontext_lock.
	 */
	idx = srcu_read_lock(&udev->disassociate_srcu);
	uverbs_destroy_ucontext(file, false);
	srcu_read_unlock(&udev->disassociate_srcu, idx);

	mutex_lock(&udev->files_lock);
	list_del_init(&file->list);
	mutex_unlock(&udev->files_lock);
	uverbs_file_put(file);
	return 0;
}

/**
 * uverbs_check_hdr - check a command's headers against its write()
 * @hdr: the command header
 * @ex_hdr: the extended header, NULL for a legacy command
 * @count: the bytes written
 *
 * The sizes the headers state must be the bytes written; an extended
 * command's reserved bits must be clear, and one without a response
 * address may ask for no output.
 *
 * Context: any.
 * Return: 0 or -EINVAL.
 */
VISIBLE_IF_KUNIT int uverbs_check_hdr(const struct ib_uverbs_cmd_hdr *hdr,
				      const struct ib_uverbs_ex_cmd_hdr *ex_hdr,
				      size_t count)
{
	if (ex_hdr) {
		size_t words = (size_t)hdr->in_words +
			       ex_hdr->provider_in_words;

		if (ex_hdr->cmd_hdr_reserved)
			return -EINVAL;
		if (count != sizeof(*hdr) + sizeof(*ex_hdr) + words * 8)
			return -EINVAL;
		if (!ex_hdr->response &&
		    (hdr->out_words || ex_hdr->provider_out_words))
			return -EINVAL;
		return 0;
	}
	return hdr->in_words * 4 == count ? 0 : -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_check_hdr);

/**
 * uverbs_lookup_write - the write() command a number names
 * @command: the header's command, IB_USER_VERBS_CMD_FLAG_EXTENDED too
 *
 * Context: any.
 * Return: the command, or ERR_PTR(-EINVAL) for bits outside the number
 * and the flag, ERR_PTR(-EOPNOTSUPP) for a command not served.
 */
const struct uverbs_write_cmd *uverbs_lookup_write(u32 command)
{
	u32 n = command & IB_USER_VERBS_CMD_COMMAND_MASK;
	const struct uverbs_write_cmd *cmd;

	if (command & ~(IB_USER_VERBS_CMD_FLAG_EXTENDED |
			IB_USER_VERBS_CMD_COMMAND_MASK))
		return ERR_PTR(-EINVAL);
	if (command & IB_USER_VERBS_CMD_FLAG_EXTENDED) {
		if (n >= uverbs_num_write_ex_cmds)
			return ERR_PTR(-EOPNOTSUPP);
		cmd = &uverbs_write_ex_cmds[n];
	} else {
		if (n >= uverbs_num_write_cmds)
			return ERR_PTR(-EOPNOTSUPP);
		cmd = &uverbs_write_cmds[n];
	}
	return cmd->handler ? cmd : ERR_PTR(-EOPNOTSUPP);
}

/*
 * A legacy command's buffers: the core's request from the response
 * field on, the driver's data after it; the core's response at the
 * response address, the driver's after it.
 */
static int uverbs_legacy_bufs(struct uverbs_attr_bundle *attrs,
			      const struct uverbs_write_cmd *cmd,
			      const struct ib_uverbs_cmd_hdr *hdr,
			      const char __user *buf)
{
	size_t in = hdr->in_words * 4 - sizeof(*hdr);
	size_t out = hdr->out_words * 4;
	u64 response = 0;

	if (in < cmd->req_size) {
		/*
		 * rdma-core v18 and v19 wrote DESTROY_CQ in 16 bytes, the
		 * request 8 short of its struct: older kernels took it.
		 */
		if (hdr->command != IB_USER_VERBS_CMD_DESTROY_CQ ||
		    in != cmd->req_size - 8)
			return -ENOSPC;
		in = cmd->req_size;
	}
	if (cmd->has_resp) {
		if (out < cmd->resp_size)
			return -ENOSPC;
		if (get_user(response, (const u64 __user *)buf))
			return -EFAULT;
	} else {
		out = 0;
	}
	if (cmd->has_udata) {
		attrs->driver_udata.inbuf = in > cmd->req_size ?
					    buf + cmd->req_size : NULL;
		attrs->driver_udata.inlen = in - cmd->req_size;
		attrs->driver_udata.outbuf = out > cmd->resp_size ?
			u64_to_user_ptr(response + cmd->resp_size) : NULL;
		attrs->driver_udata.outlen = out > cmd->resp_size ?
					     out - cmd->resp_size : 0;
		in = cmd->req_size;
		out = min_t(size_t, out, cmd->resp_size);
	}
	attrs->ucore.inbuf = buf;
	attrs->ucore.inlen = in;
	attrs->ucore.outbuf = out ? u64_to_user_ptr(response) : NULL;
	attrs->ucore.outlen = out;
	return 0;
}

/*
 * An extended command's buffers: the core's request (in_words * 8
 * bytes), then the driver's; the core's response at the response
 * address, then the driver's.
 */
static int uverbs_ex_bufs(struct uverbs_attr_bundle *attrs,
			  const struct uverbs_write_cmd *cmd,
			  const struct ib_uverbs_cmd_hdr *hdr,
			  const struct ib_uverbs_ex_cmd_hdr *ex_hdr,
			  const char __user *buf)
{
	size_t in = (size_t)hdr->in_words * 8;
	size_t out = (size_t)hdr->out_words * 8;
	u64 response = ex_hdr->response;

	if (in < cmd->req_size)
		return -ENOSPC;
	if (response && out < cmd->resp_size)
		return -ENOSPC;
	attrs->ucore.inbuf = in ? buf : NULL;
	attrs->ucore.inlen = in;
	attrs->ucore.outbuf = out ? u64_to_user_ptr(response) : NULL;
	attrs->ucore.outlen = out;
	attrs->driver_udata.inlen = (size_t)ex_hdr->provider_in_words * 8;
	attrs->driver_udata.inbuf = attrs->driver_udata.inlen ?
				    buf + in : NULL;
	attrs->driver_udata.outlen = (size_t)ex_hdr->provider_out_words * 8;
	attrs->driver_udata.outbuf = attrs->driver_udata.outlen ?
				     u64_to_user_ptr(response + out) : NULL;
	return 0;
}

static ssize_t uverbs_write(struct file *filp, const char __user *buf,
			    size_t count, loff_t *pos)
{
	struct ib_uverbs_file *file = filp->private_data;
	struct uverbs_device *udev = file->device;
	const struct uverbs_write_cmd *cmd;
	struct uverbs_attr_bundle attrs = {};
	struct ib_uverbs_ex_cmd_hdr ex_hdr;
	struct ib_uverbs_cmd_hdr hdr;
	bool extended;
	ssize_t ret;
	int idx;

	if (!ib_safe_file_access(filp)) {
		pr_err_once("ib_uverbs: process %d (%s) writes to a file opened with other credentials: refused\n",
			    task_tgid_vnr(current), current->comm);
		return -EACCES;
	}
	if (count < sizeof(hdr))
		return -EINVAL;
	if (copy_from_user(&hdr, buf, sizeof(hdr)))
		return -EFAULT;
	cmd = uverbs_lookup_write(hdr.command);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	extended = hdr.command & IB_USER_VERBS_CMD_FLAG_EXTENDED;
	if (extended) {
		if (count < sizeof(hdr) + sizeof(ex_hdr))
			return -EINVAL;
		if (copy_from_user(&ex_hdr, buf + sizeof(hdr), sizeof(ex_hdr)))
			return -EFAULT;
	}
	ret = uverbs_check_hdr(&hdr, extended ? &ex_hdr : NULL, count);
	if (ret)
		return ret;

	attrs.ufile = file;
	if (extended)
		ret = uverbs_ex_bufs(&attrs, cmd, &hdr, &ex_hdr,
				     buf + sizeof(hdr) + sizeof(ex_hdr));
	else
		ret = uverbs_legacy_bufs(&attrs, cmd, &hdr, buf + sizeof(hdr));
	if (ret)
		return ret;

	idx = srcu_read_lock(&udev->disassociate_srcu);
	if (!uverbs_file_ib_dev(file) || READ_ONCE(file->disassociated))
		ret = -EIO;
	else
		ret = cmd->handler(&attrs);
	srcu_read_unlock(&udev->disassociate_srcu, idx);
	return ret ? ret : count;
}

const struct file_operations uverbs_fops = {
	.owner = THIS_MODULE,
	.open = uverbs_open,
	.release = uverbs_release,
	.write = uverbs_write,
	.mmap = uverbs_mmap,
	.unlocked_ioctl = uverbs_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};
