// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A file's user context: GET_CONTEXT makes it (the driver's
 * alloc_ucontext, the event file whose fd the response carries), the
 * file's close or the device's unregistration takes it away.  A file
 * has one context at most.
 */
#include <linux/file.h>
#include <linux/fs.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <uapi/rdma/ib_user_verbs.h>

#include "uverbs_priv.h"

/**
 * uverbs_get_ucontext - the context a command needs
 * @attrs: the command
 *
 * Context: process context, a command of the file (the device's SRCU
 * read side held).
 * Return: the file's context; -EIO when its device went away, -EINVAL
 * when GET_CONTEXT has not made one.
 */
struct ib_ucontext *uverbs_get_ucontext(struct uverbs_attr_bundle *attrs)
{
	struct ib_ucontext *uctx = ib_uverbs_get_ucontext_file(attrs->ufile);

	if (!IS_ERR(uctx))
		attrs->context = uctx;
	return uctx;
}

/**
 * ib_uverbs_get_ucontext_file - the context of an open uverbsN
 * @ufile: the file
 *
 * Context: process context, within an operation of the file (the
 * device's SRCU read side held): the context stays until it ends.
 * Return: the context; -EIO when the device went away, -EINVAL when
 * GET_CONTEXT has not made one.
 */
struct ib_ucontext *ib_uverbs_get_ucontext_file(struct ib_uverbs_file *ufile)
{
	struct ib_ucontext *uctx;

	if (READ_ONCE(ufile->disassociated))
		return ERR_PTR(-EIO);
	/* paired with the release in uverbs_get_context() */
	uctx = smp_load_acquire(&ufile->ucontext);
	return uctx ?: ERR_PTR(-EINVAL);
}
EXPORT_SYMBOL(ib_uverbs_get_ucontext_file);

/*
 * Make the file's context.  write()'s GET_CONTEXT (@legacy) makes its
 * async file too and answers the fd in its response; the ioctl's answers
 * its attributes, the async file coming with ASYNC_EVENT_ALLOC.
 */
static int uverbs_context_create(struct uverbs_attr_bundle *attrs,
				 bool legacy)
{
	struct ib_uverbs_file *file = attrs->ufile;
	struct ib_uverbs_get_context_resp resp = {};
	struct uverbs_event_file *af = NULL;
	struct file *filp = NULL;
	struct ib_ucontext *uctx;
	struct ib_device *ib_dev;
	int fd = -1, ret;

	ib_dev = uverbs_file_ib_dev(file);
	if (!ib_dev)
		return -EIO;

	mutex_lock(&file->ucontext_lock);
	if (file->disassociated) {
		ret = -EIO;
		goto out_unlock;
	}
	if (file->ucontext) {
		ret = -EINVAL;
		goto out_unlock;
	}
	uctx = rdma_zalloc_drv_obj(ib_dev, ib_ucontext);
	if (!uctx) {
		ret = -ENOMEM;
		goto out_unlock;
	}
	/* a context is an HCA handle of the rdma cgroup's "rdma.max" */
	ret = ib_rdmacg_try_charge(&uctx->cg_obj, ib_dev,
				   RDMACG_RESOURCE_HCA_HANDLE);
	if (ret) {
		kfree(uctx);
		goto out_unlock;
	}
	uctx->device = ib_dev;
	uctx->ufile = file;
	xa_init_flags(&uctx->mmap_xa, XA_FLAGS_ALLOC);
	/* "rdma res show ctx" names the process */
	rdma_restrack_new(&uctx->res, RDMA_RESTRACK_CTX);
	rdma_restrack_set_name(&uctx->res, NULL);
	attrs->context = uctx;

	if (legacy) {
		fd = get_unused_fd_flags(O_CLOEXEC);
		if (fd < 0) {
			ret = fd;
			goto err_free;
		}
		af = uverbs_event_file_create(&filp, file, false);
		if (IS_ERR(af)) {
			ret = PTR_ERR(af);
			goto err_fd;
		}
	}

	ret = ib_dev->ops.alloc_ucontext(uctx, &attrs->driver_udata);
	if (ret)
		goto err_async;
	if (legacy) {
		resp.async_fd = fd;
		resp.num_comp_vectors = file->device->num_comp_vectors;
		ret = uverbs_response(attrs, &resp, sizeof(resp));
	} else {
		u64 core_support = IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS;
		u32 ncv = file->device->num_comp_vectors;

		ret = uverbs_copy_to(attrs,
				     UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS,
				     &ncv, sizeof(ncv));
		if (!IS_UVERBS_COPY_ERR(ret))
			ret = uverbs_copy_to(attrs,
					     UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT,
					     &core_support,
					     sizeof(core_support));
		if (ret == -ENOENT)
			ret = 0;
	}
	if (ret)
		goto err_dealloc;

	rdma_restrack_add(&uctx->res);
	if (af)
		uverbs_async_start(af, ib_dev);
	file->async = af;
	/* commands read it without the lock: uverbs_get_ucontext() */
	smp_store_release(&file->ucontext, uctx);
	if (legacy)
		fd_install(fd, filp);
	mutex_unlock(&file->ucontext_lock);
	return 0;

err_dealloc:
	ib_dev->ops.dealloc_ucontext(uctx);
err_async:
	if (filp)
		fput(filp);
	uverbs_event_file_put(af);
err_fd:
	if (fd >= 0)
		put_unused_fd(fd);
err_free:
	rdma_restrack_del(&uctx->res);
	xa_destroy(&uctx->mmap_xa);
	ib_rdmacg_uncharge(&uctx->cg_obj, ib_dev, RDMACG_RESOURCE_HCA_HANDLE);
	kfree(uctx);
	attrs->context = NULL;
out_unlock:
	mutex_unlock(&file->ucontext_lock);
	return ret;
}

/**
 * uverbs_get_context - GET_CONTEXT: the file's context and its event file
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: 0; -EINVAL when the file has a context already, -EIO when its
 * device went away, -EAGAIN past the rdma cgroup's limit of HCA handles,
 * -ENOMEM, -EMFILE, -EFAULT, or the driver's error.
 */
int uverbs_get_context(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_get_context cmd;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	return uverbs_context_create(attrs, true);
}

/**
 * uverbs_get_context_ioctl - the ioctl's GET_CONTEXT: the context, without
 *	an async file
 * @attrs: the method
 *
 * Context: process context, a method of the file.
 * Return: as uverbs_get_context().
 */
int uverbs_get_context_ioctl(struct uverbs_attr_bundle *attrs)
{
	return uverbs_context_create(attrs, false);
}

/**
 * uverbs_destroy_ucontext - take a file's context away
 * @file: the file
 * @device_gone: its device is being unregistered: the event file gets
 *	IB_EVENT_DEVICE_FATAL first, and the driver's
 *	disassociate_ucontext runs before dealloc_ucontext
 *
 * Context: process context; the file's close or its device's
 * unregistration.  Takes ucontext_lock.
 */
void uverbs_destroy_ucontext(struct ib_uverbs_file *file, bool device_gone)
{
	struct uverbs_event_file *af;
	struct ib_ucontext *uctx;
	struct ib_device *ib_dev;

	mutex_lock(&file->ucontext_lock);
	if (device_gone)
		file->disassociated = true;
	uctx = file->ucontext;
	af = file->async;
	if (!uctx) {
		mutex_unlock(&file->ucontext_lock);
		return;
	}
	ib_dev = uctx->device;
	if (device_gone)
		uverbs_async_queue(af, 0, IB_EVENT_DEVICE_FATAL, NULL);
	uverbs_uobj_destroy_all(file, device_gone ? RDMA_REMOVE_DRIVER_REMOVE :
						    RDMA_REMOVE_CLOSE);
	uverbs_comp_channels_close(file);
	uverbs_async_stop(af);
	if (device_gone && ib_dev->ops.disassociate_ucontext)
		ib_dev->ops.disassociate_ucontext(uctx);
	rdma_restrack_del(&uctx->res);
	ib_dev->ops.dealloc_ucontext(uctx);
	WARN_ON(!xa_empty(&uctx->mmap_xa));
	xa_destroy(&uctx->mmap_xa);
	ib_rdmacg_uncharge(&uctx->cg_obj, ib_dev, RDMACG_RESOURCE_HCA_HANDLE);
	kfree(uctx);
	file->ucontext = NULL;
	file->async = NULL;
	mutex_unlock(&file->ucontext_lock);
	uverbs_event_file_put(af);
}
