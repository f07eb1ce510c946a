// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * An open /dev/infiniband/uverbsN: open, release, and write(), which
 * carries the legacy and extended commands (struct ib_uverbs_cmd_hdr,
 * IB_USER_VERBS_CMD_FLAG_EXTENDED with struct ib_uverbs_ex_cmd_hdr).
 * The headers are checked here; a command the file's device does not
 * know is refused with -EOPNOTSUPP, as upstream refuses one outside its
 * table, and a file whose device went away answers -EIO.
 */
#include <kunit/visibility.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <rdma/ib.h>
#include <rdma/ib_verbs.h>
#include <uapi/rdma/ib_user_verbs.h>

#include "uverbs_priv.h"

static void uverbs_file_free(struct kref *ref)
{
	struct ib_uverbs_file *file = container_of(ref, struct ib_uverbs_file,
						   ref);

	put_device(&file->device->dev);
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
 * The file stays open; every command fails with -EIO from now on.
 *
 * Context: process context, the device's unregistration.
 */
void uverbs_disassociate_file(struct ib_uverbs_file *file)
{
	mutex_lock(&file->ucontext_lock);
	file->disassociated = true;
	mutex_unlock(&file->ucontext_lock);
}

static int uverbs_open(struct inode *inode, struct file *filp)
{
	struct uverbs_device *udev = container_of(inode->i_cdev,
						  struct uverbs_device, cdev);
	struct ib_uverbs_file *file;
	int idx, ret = 0;

	idx = srcu_read_lock(&udev->disassociate_srcu);
	if (!srcu_dereference(udev->ib_dev, &udev->disassociate_srcu)) {
		ret = -ENXIO;
		goto out;
	}
	file = kzalloc(sizeof(*file), GFP_KERNEL);
	if (!file) {
		ret = -ENOMEM;
		goto out;
	}
	kref_init(&file->ref);
	mutex_init(&file->ucontext_lock);
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

static ssize_t uverbs_write(struct file *filp, const char __user *buf,
			    size_t count, loff_t *pos)
{
	struct ib_uverbs_file *file = filp->private_data;
	struct uverbs_device *udev = file->device;
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
	if (hdr.command & ~(IB_USER_VERBS_CMD_FLAG_EXTENDED |
			    IB_USER_VERBS_CMD_COMMAND_MASK))
		return -EINVAL;
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

	idx = srcu_read_lock(&udev->disassociate_srcu);
	if (!srcu_dereference(udev->ib_dev, &udev->disassociate_srcu) ||
	    READ_ONCE(file->disassociated))
		ret = -EIO;
	else
		ret = -EOPNOTSUPP;	/* no command is served yet */
	srcu_read_unlock(&udev->disassociate_srcu, idx);
	return ret;
}

const struct file_operations uverbs_fops = {
	.owner = THIS_MODULE,
	.open = uverbs_open,
	.release = uverbs_release,
	.write = uverbs_write,
};
