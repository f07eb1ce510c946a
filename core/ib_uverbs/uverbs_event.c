// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Event files: a context's asynchronous event file (the async_fd of
 * GET_CONTEXT) and completion channels (CREATE_COMP_CHANNEL).
 *
 * read() gives one event per call: a struct ib_uverbs_async_event_desc
 * (element: a port number, or the user handle of a CQ, QP, SRQ or WQ)
 * or a struct ib_uverbs_comp_event_desc (the CQ's user handle); it
 * blocks unless O_NONBLOCK; poll() and SIGIO (fasync) say when one is
 * there.  An event of an object is also on the object's list: reading
 * it counts it in the object (the counts DESTROY_CQ, DESTROY_QP, ...
 * answer, which libibverbs waits for), destroying the object takes its
 * unread events away.
 *
 * The async file gets the device's port events while the context lives;
 * when the device goes away it gets IB_EVENT_DEVICE_FATAL and, once that
 * is read, read() answers -EIO.  A completion channel is closed when its
 * context goes: read() answers -EIO once it is empty.
 */
#include <linux/anon_inodes.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>

#include "uverbs_priv.h"

/* An event waiting to be read. */
struct uverbs_event {
	struct list_head	list;
	struct list_head	obj_list;
	u32			*counter;
	union {
		struct ib_uverbs_async_event_desc	async;
		struct ib_uverbs_comp_event_desc	comp;
	} desc;
};

static void uverbs_event_file_free(struct kref *ref)
{
	struct uverbs_event_file *ef = container_of(ref,
						    struct uverbs_event_file,
						    ref);
	struct uverbs_event *ev, *tmp;

	list_for_each_entry_safe(ev, tmp, &ef->events, list)
		kfree(ev);
	uverbs_file_put(ef->ufile);
	kfree(ef);
}

/**
 * uverbs_event_file_put - drop a reference on an event file's state
 * @ef: the state
 *
 * Context: any context but hard interrupts (the last put of a
 * completion channel drops its uverbs file).
 */
void uverbs_event_file_put(struct uverbs_event_file *ef)
{
	if (ef)
		kref_put(&ef->ref, uverbs_event_file_free);
}

/* Queue @ev unless the file takes no more; false when it was not. */
static bool uverbs_event_add(struct uverbs_event_file *ef,
			     struct uverbs_event *ev,
			     struct list_head *obj_list, u32 *counter)
{
	unsigned long flags;

	spin_lock_irqsave(&ef->lock, flags);
	if (ef->closed || ef->dead) {
		spin_unlock_irqrestore(&ef->lock, flags);
		kfree(ev);
		return false;
	}
	list_add_tail(&ev->list, &ef->events);
	if (obj_list) {
		list_add_tail(&ev->obj_list, obj_list);
		ev->counter = counter;
	}
	if (!ef->comp && ev->desc.async.event_type == IB_EVENT_DEVICE_FATAL)
		ef->dead = true;
	spin_unlock_irqrestore(&ef->lock, flags);
	wake_up_interruptible(&ef->wait);
	kill_fasync(&ef->fasync, SIGIO, POLL_IN);
	return true;
}

/**
 * uverbs_async_queue - queue an event for an async file's reader
 * @ef: the async event file
 * @element: the port number, or the user handle of the object
 * @type: the event (enum ib_event_type)
 * @uevent: the object the event is of, or NULL for a port or device
 *	event
 *
 * Nothing is queued once the file is closed or has been told the device
 * is gone.
 *
 * Context: any context; takes the file's spinlock, allocates atomically
 * (an event that finds no memory is dropped).
 */
void uverbs_async_queue(struct uverbs_event_file *ef, u64 element, u32 type,
			struct ib_uevent_object *uevent)
{
	struct uverbs_event *ev;

	/* a context made by the ioctl has none until ASYNC_EVENT_ALLOC */
	if (!ef)
		return;
	ev = kzalloc(sizeof(*ev), GFP_ATOMIC);
	if (!ev)
		return;
	ev->desc.async.element = element;
	ev->desc.async.event_type = type;
	if (uevent)
		uverbs_event_add(ef, ev, &uevent->event_list,
				 &uevent->events_reported);
	else
		uverbs_event_add(ef, ev, NULL, NULL);
}

/**
 * uverbs_comp_handler - a CQ's completion handler for user space
 * @cq: the CQ
 * @cq_context: its completion channel (struct uverbs_event_file), or
 *	NULL when it has none
 *
 * Context: any context the driver calls it in; allocates atomically.
 */
void uverbs_comp_handler(struct ib_cq *cq, void *cq_context)
{
	struct uverbs_event_file *ef = cq_context;
	struct ib_ucq_object *ucq = cq->uobject;
	struct uverbs_event *ev;

	if (!ef || !ucq)
		return;
	ev = kzalloc(sizeof(*ev), GFP_ATOMIC);
	if (!ev)
		return;
	ev->desc.comp.cq_handle = ucq->uevent.uobject.user_handle;
	uverbs_event_add(ef, ev, &ucq->comp_list, &ucq->comp_events_reported);
}

/**
 * uverbs_events_purge - take an object's unread events away
 * @ef: the file they are queued on (NULL: none)
 * @obj_list: the object's list of them
 *
 * Context: process context, destroying the object once its verbs object
 * is gone (no handler queues for it any more).
 */
void uverbs_events_purge(struct uverbs_event_file *ef,
			 struct list_head *obj_list)
{
	struct uverbs_event *ev, *tmp;

	if (!ef)
		return;
	spin_lock_irq(&ef->lock);
	list_for_each_entry_safe(ev, tmp, obj_list, obj_list) {
		list_del(&ev->list);
		list_del(&ev->obj_list);
		kfree(ev);
	}
	spin_unlock_irq(&ef->lock);
}

/**
 * uverbs_event_file_close - no more events: the context is gone
 * @ef: a completion channel
 *
 * What was queued can still be read; then read() answers -EIO.
 *
 * Context: any context but hard interrupts.
 */
void uverbs_event_file_close(struct uverbs_event_file *ef)
{
	spin_lock_irq(&ef->lock);
	ef->closed = true;
	spin_unlock_irq(&ef->lock);
	wake_up_interruptible(&ef->wait);
	kill_fasync(&ef->fasync, SIGIO, POLL_IN);
}

static void uverbs_async_handler(struct ib_event_handler *handler,
				 struct ib_event *event)
{
	struct uverbs_event_file *ef = container_of(handler,
						    struct uverbs_event_file,
						    handler);

	/* the device's events: each names a port */
	uverbs_async_queue(ef, event->element.port_num, event->event, NULL);
}

/**
 * uverbs_async_start - deliver the device's port events to the file
 * @ef: the async event file
 * @ib_dev: the device
 *
 * Context: process context; sleeps (ib_register_event_handler()).
 */
void uverbs_async_start(struct uverbs_event_file *ef, struct ib_device *ib_dev)
{
	INIT_IB_EVENT_HANDLER(&ef->handler, ib_dev, uverbs_async_handler);
	ib_register_event_handler(&ef->handler);
	ef->registered = true;
}

/**
 * uverbs_async_stop - no more port events for the file
 * @ef: the async event file
 *
 * Context: process context; waits for a delivery in progress.
 */
void uverbs_async_stop(struct uverbs_event_file *ef)
{
	if (!ef || !ef->registered)
		return;
	ib_unregister_event_handler(&ef->handler);
	ef->registered = false;
}

/* Nothing to read: -EIO for a file that will get nothing more. */
static bool uverbs_event_file_done(struct uverbs_event_file *ef)
{
	return READ_ONCE(ef->dead) || (ef->comp && READ_ONCE(ef->closed));
}

static ssize_t uverbs_event_read(struct file *filp, char __user *buf,
				 size_t count, loff_t *pos)
{
	struct uverbs_event_file *ef = filp->private_data;
	size_t size = ef->comp ? sizeof(struct ib_uverbs_comp_event_desc) :
				 sizeof(struct ib_uverbs_async_event_desc);
	struct uverbs_event *ev;
	ssize_t ret = size;

	if (count < size)
		return -EINVAL;
	spin_lock_irq(&ef->lock);
	while (list_empty(&ef->events)) {
		spin_unlock_irq(&ef->lock);
		if (uverbs_event_file_done(ef))
			return -EIO;
		if (filp->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(ef->wait,
					     !list_empty(&ef->events) ||
					     uverbs_event_file_done(ef)))
			return -ERESTARTSYS;
		spin_lock_irq(&ef->lock);
	}
	ev = list_first_entry(&ef->events, struct uverbs_event, list);
	list_del(&ev->list);
	if (ev->counter) {
		++*ev->counter;
		list_del(&ev->obj_list);
	}
	spin_unlock_irq(&ef->lock);
	/* an event the reader's buffer cannot take is lost, as upstream's */
	if (copy_to_user(buf, &ev->desc, size))
		ret = -EFAULT;
	kfree(ev);
	return ret;
}

static __poll_t uverbs_event_poll(struct file *filp, poll_table *wait)
{
	struct uverbs_event_file *ef = filp->private_data;
	__poll_t mask = 0;

	poll_wait(filp, &ef->wait, wait);
	spin_lock_irq(&ef->lock);
	if (!list_empty(&ef->events))
		mask = EPOLLIN | EPOLLRDNORM;
	else if (uverbs_event_file_done(ef))
		mask = EPOLLERR;
	spin_unlock_irq(&ef->lock);
	return mask;
}

static int uverbs_event_fasync(int fd, struct file *filp, int on)
{
	struct uverbs_event_file *ef = filp->private_data;

	return fasync_helper(fd, filp, on, &ef->fasync);
}

static int uverbs_event_release(struct inode *inode, struct file *filp)
{
	struct uverbs_event_file *ef = filp->private_data;
	struct uverbs_event *ev, *tmp;

	spin_lock_irq(&ef->lock);
	ef->closed = true;
	/* unread events are gone: their objects no longer list them */
	list_for_each_entry_safe(ev, tmp, &ef->events, list) {
		list_del(&ev->list);
		if (ev->counter)
			list_del(&ev->obj_list);
		kfree(ev);
	}
	spin_unlock_irq(&ef->lock);
	if (ef->comp)
		uverbs_comp_channel_unlink(ef);
	uverbs_event_file_put(ef);
	return 0;
}

static const struct file_operations uverbs_event_fops = {
	.owner = THIS_MODULE,
	.read = uverbs_event_read,
	.poll = uverbs_event_poll,
	.fasync = uverbs_event_fasync,
	.release = uverbs_event_release,
};

/**
 * uverbs_event_file_create - a new event file
 * @filp: where the struct file goes; the caller installs it in an fd or
 *	puts it
 * @ufile: the uverbs file it belongs to (a reference is taken)
 * @comp: a completion channel, else an async file
 *
 * Context: process context; sleeps.
 * Return: the state, with a reference for the caller and one for the
 * file, or an ERR_PTR() (-ENOMEM, an error of anon_inode_getfile()).
 */
struct uverbs_event_file *uverbs_event_file_create(struct file **filp,
						   struct ib_uverbs_file *ufile,
						   bool comp)
{
	struct uverbs_event_file *ef;
	struct file *f;

	ef = kzalloc(sizeof(*ef), GFP_KERNEL);
	if (!ef)
		return ERR_PTR(-ENOMEM);
	kref_init(&ef->ref);
	spin_lock_init(&ef->lock);
	INIT_LIST_HEAD(&ef->events);
	INIT_LIST_HEAD(&ef->list);
	init_waitqueue_head(&ef->wait);
	ef->comp = comp;
	f = anon_inode_getfile("[infinibandevent]", &uverbs_event_fops, ef,
			       O_RDONLY);
	if (IS_ERR(f)) {
		kfree(ef);
		return ERR_CAST(f);
	}
	kref_get(&ufile->ref);
	ef->ufile = ufile;
	kref_get(&ef->ref);	/* the file's */
	*filp = f;
	return ef;
}

/*
 * The event file of @ufile behind @fd, of the kind @comp says, still
 * open: referenced, or ERR_PTR(-EINVAL).
 */
static struct uverbs_event_file *
uverbs_event_file_get(struct ib_uverbs_file *ufile, int fd, bool comp)
{
	struct uverbs_event_file *ef = ERR_PTR(-EINVAL);
	struct fd f = fdget(fd);

	if (!fd_file(f))
		return ef;
	if (fd_file(f)->f_op == &uverbs_event_fops) {
		struct uverbs_event_file *c = fd_file(f)->private_data;

		spin_lock_irq(&c->lock);
		if (c->comp == comp && c->ufile == ufile && !c->closed) {
			kref_get(&c->ref);
			ef = c;
		}
		spin_unlock_irq(&c->lock);
	}
	fdput(f);
	return ef;
}

/**
 * uverbs_comp_channel_get - the completion channel behind an fd
 * @attrs: the command
 * @fd: what user space named
 *
 * Context: process context, a command of the file.
 * Return: the channel, referenced; ERR_PTR(-EINVAL) when @fd is not an
 * open completion channel of the command's file.
 */
struct uverbs_event_file *uverbs_comp_channel_get(struct uverbs_attr_bundle *attrs,
						  int fd)
{
	return uverbs_event_file_get(attrs->ufile, fd, true);
}

/**
 * uverbs_create_comp_channel - CREATE_COMP_CHANNEL: a completion channel
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: 0; -EINVAL without a context, -EMFILE, -ENOMEM, -EFAULT.
 */
int uverbs_create_comp_channel(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_create_comp_channel_resp resp = {};
	struct ib_uverbs_file *file = attrs->ufile;
	struct ib_uverbs_create_comp_channel cmd;
	struct uverbs_event_file *ef;
	struct ib_device *dev;
	struct file *filp;
	int fd, ret;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0)
		return fd;
	ef = uverbs_event_file_create(&filp, file, true);
	if (IS_ERR(ef)) {
		put_unused_fd(fd);
		return PTR_ERR(ef);
	}
	resp.fd = fd;
	ret = uverbs_response(attrs, &resp, sizeof(resp));
	if (ret) {
		put_unused_fd(fd);
		fput(filp);
		uverbs_event_file_put(ef);
		return ret;
	}
	spin_lock(&file->uobjects_lock);
	list_add_tail(&ef->list, &file->comp_channels);
	spin_unlock(&file->uobjects_lock);
	fd_install(fd, filp);
	uverbs_event_file_put(ef);
	return 0;
}

/**
 * uverbs_comp_channel_unlink - a completion channel's fd is closed
 * @ef: the channel
 *
 * Context: process context.
 */
void uverbs_comp_channel_unlink(struct uverbs_event_file *ef)
{
	struct ib_uverbs_file *file = ef->ufile;

	spin_lock(&file->uobjects_lock);
	list_del_init(&ef->list);
	spin_unlock(&file->uobjects_lock);
}

/**
 * uverbs_comp_channels_close - close a file's completion channels
 * @file: the file whose context goes
 *
 * Readers wake up: what was queued is read, then read() answers -EIO.
 *
 * Context: process context.
 */
void uverbs_comp_channels_close(struct ib_uverbs_file *file)
{
	struct uverbs_event_file *ef;

	spin_lock(&file->uobjects_lock);
	list_for_each_entry(ef, &file->comp_channels, list)
		uverbs_event_file_close(ef);
	spin_unlock(&file->uobjects_lock);
}

/*
 * The event files as objects of the ioctl (UVERBS_OBJECT_COMP_CHANNEL,
 * UVERBS_OBJECT_ASYNC_EVENT): a class of their own, for they live by
 * their struct file and their references (struct uverbs_event_file),
 * not on the file's object list.  A lookup (an FD attribute, READ)
 * gives a struct ib_uobject for the length of the method, ->object the
 * event file, referenced; a creation (ASYNC_EVENT_ALLOC) makes the file,
 * and its commit installs the fd and hands the event file over, the
 * uobject gone.
 */
struct uverbs_event_uobj {
	struct ib_uobject uobj;
	struct file *filp;
};

static struct uverbs_event_uobj *
uverbs_event_uobj_new(const struct uverbs_api_object *obj,
		      struct ib_uverbs_file *ufile, struct uverbs_event_file *ef)
{
	struct uverbs_event_uobj *eu = kzalloc(sizeof(*eu), GFP_KERNEL);

	if (!eu)
		return NULL;
	kref_init(&eu->uobj.ref);
	eu->uobj.ufile = ufile;
	eu->uobj.uapi_object = obj;
	eu->uobj.object = ef;
	INIT_LIST_HEAD(&eu->uobj.list);
	return eu;
}

static struct ib_uobject *
uverbs_event_alloc_begin(const struct uverbs_api_object *obj,
			 struct uverbs_attr_bundle *attrs)
{
	bool comp = obj == &uverbs_type_comp_channel;
	struct uverbs_event_file *ef;
	struct uverbs_event_uobj *eu;
	struct file *filp;
	int fd;

	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0)
		return ERR_PTR(fd);
	ef = uverbs_event_file_create(&filp, attrs->ufile, comp);
	if (IS_ERR(ef)) {
		put_unused_fd(fd);
		return ERR_CAST(ef);
	}
	eu = uverbs_event_uobj_new(obj, attrs->ufile, ef);
	if (!eu) {
		fput(filp);
		uverbs_event_file_put(ef);
		put_unused_fd(fd);
		return ERR_PTR(-ENOMEM);
	}
	eu->uobj.context = attrs->context;
	eu->uobj.id = fd;
	eu->filp = filp;
	atomic_set(&eu->uobj.usecnt, -1);
	return &eu->uobj;
}

/*
 * A new async file becomes the context's if it has none: it gets the
 * device's events and those of the objects made after it.
 */
static void uverbs_async_attach(struct ib_uverbs_file *file,
				struct uverbs_event_file *ef)
{
	mutex_lock(&file->ucontext_lock);
	if (file->ucontext && !file->async && !file->disassociated) {
		kref_get(&ef->ref);
		uverbs_async_start(ef, file->ucontext->device);
		file->async = ef;
	}
	mutex_unlock(&file->ucontext_lock);
}

static void uverbs_event_alloc_commit(struct ib_uobject *uobj)
{
	struct uverbs_event_uobj *eu = container_of(uobj, typeof(*eu), uobj);
	struct uverbs_event_file *ef = uobj->object;
	struct ib_uverbs_file *file = uobj->ufile;

	/* not on the object list: the file keeps it */
	spin_lock(&file->uobjects_lock);
	list_del_init(&uobj->list);
	if (ef->comp)
		list_add_tail(&ef->list, &file->comp_channels);
	spin_unlock(&file->uobjects_lock);
	if (!ef->comp)
		uverbs_async_attach(file, ef);
	fd_install(uobj->id, eu->filp);
	uverbs_event_file_put(ef);
	uverbs_uobject_put(uobj);
}

static void uverbs_event_alloc_abort(struct ib_uobject *uobj)
{
	struct uverbs_event_uobj *eu = container_of(uobj, typeof(*eu), uobj);

	fput(eu->filp);
	put_unused_fd(uobj->id);
	uverbs_event_file_put(uobj->object);
}

static struct ib_uobject *
uverbs_event_lookup_get(const struct uverbs_api_object *obj,
			struct ib_uverbs_file *ufile, s64 id,
			enum rdma_lookup_mode mode)
{
	struct uverbs_event_file *ef;
	struct uverbs_event_uobj *eu;

	if (mode != UVERBS_LOOKUP_READ)
		return ERR_PTR(-EOPNOTSUPP);
	if (id < 0 || id > INT_MAX)
		return ERR_PTR(-EINVAL);
	ef = uverbs_event_file_get(ufile, id,
				   obj == &uverbs_type_comp_channel);
	if (IS_ERR(ef))
		return ERR_CAST(ef);
	eu = uverbs_event_uobj_new(obj, ufile, ef);
	if (!eu) {
		uverbs_event_file_put(ef);
		return ERR_PTR(-ENOMEM);
	}
	/* a lookup sets the method's context from its objects' */
	eu->uobj.context = READ_ONCE(ufile->ucontext);
	return &eu->uobj;
}

static void uverbs_event_lookup_put(struct ib_uobject *uobj,
				    enum rdma_lookup_mode mode)
{
	uverbs_event_file_put(uobj->object);
}

static int uverbs_event_destroy_hw(struct ib_uobject *uobj,
				   enum rdma_remove_reason why,
				   struct uverbs_attr_bundle *attrs)
{
	return 0;
}

static void uverbs_event_remove_handle(struct ib_uobject *uobj)
{
}

static const struct uverbs_obj_type_class uverbs_event_class = {
	.alloc_begin = uverbs_event_alloc_begin,
	.alloc_commit = uverbs_event_alloc_commit,
	.alloc_abort = uverbs_event_alloc_abort,
	.lookup_get = uverbs_event_lookup_get,
	.lookup_put = uverbs_event_lookup_put,
	.destroy_hw = uverbs_event_destroy_hw,
	.remove_handle = uverbs_event_remove_handle,
};

static const struct uverbs_obj_type uverbs_event_type = {
	.type_class = &uverbs_event_class,
	.obj_size = sizeof(struct uverbs_event_uobj),
};

const struct uverbs_api_object uverbs_type_comp_channel = {
	.type_attrs = &uverbs_event_type,
	.type_class = &uverbs_event_class,
	.id = UVERBS_OBJECT_COMP_CHANNEL,
};

const struct uverbs_api_object uverbs_type_async_event = {
	.type_attrs = &uverbs_event_type,
	.type_class = &uverbs_event_class,
	.id = UVERBS_OBJECT_ASYNC_EVENT,
};
