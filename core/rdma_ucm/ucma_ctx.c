// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_ucm's contexts: the rdma_cm ids a file holds for user space, their
 * numbers, the events rdma_cm delivers for them (queued on the file until
 * GET_EVENT takes them), and their destruction: DESTROY_ID, the file's
 * close, a device's removal, the destruction of a listener whose
 * requests were never read.  Also MIGRATE_ID, which moves a context and
 * its events to another file.  ucma_priv.h states the lifetime rules.
 */
#include <linux/file.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <rdma/ib_marshall.h>

#include "ucma_priv.h"

DEFINE_XARRAY_ALLOC(ucma_ctx_table);
DEFINE_XARRAY_ALLOC(ucma_mc_table);

atomic_t ucma_ctx_alive = ATOMIC_INIT(0);
atomic_t ucma_mc_alive = ATOMIC_INIT(0);

/*
 * The context numbered @id if it is @file's.  Caller holds the table's
 * lock.  -ENOENT: no such number (or one not public: being made or
 * destroyed); -EINVAL: another file's, as upstream.
 */
static struct ucma_context *ucma_ctx_find(struct ucma_file *file, u32 id)
{
	struct ucma_context *ctx = xa_load(&ucma_ctx_table, id);

	if (!ctx)
		return ERR_PTR(-ENOENT);
	if (ctx->file != file)
		return ERR_PTR(-EINVAL);
	return ctx;
}

/**
 * ucma_ctx_get - a reference on one of a file's contexts
 * @file: the file the command came on
 * @id: the number user space gave
 *
 * Context: any; takes the table's lock.
 * Return: the context, to be put with ucma_ctx_put(); ERR_PTR(-ENOENT)
 * for no such number, -EINVAL for another file's, -ENXIO for one whose
 * rdma_cm id went with its device.
 */
struct ucma_context *ucma_ctx_get(struct ucma_file *file, u32 id)
{
	struct ucma_context *ctx;

	xa_lock(&ucma_ctx_table);
	ctx = ucma_ctx_find(file, id);
	if (!IS_ERR(ctx) && !refcount_inc_not_zero(&ctx->ref))
		ctx = ERR_PTR(-ENXIO);
	xa_unlock(&ucma_ctx_table);
	return ctx;
}

/**
 * ucma_ctx_get_dev - ucma_ctx_get() of a context bound to a device
 * @file: the file
 * @id: the number
 *
 * Context: any.
 * Return: as ucma_ctx_get(), and ERR_PTR(-EINVAL) when the rdma_cm id
 * has no device yet.
 */
struct ucma_context *ucma_ctx_get_dev(struct ucma_file *file, u32 id)
{
	struct ucma_context *ctx = ucma_ctx_get(file, id);

	if (IS_ERR(ctx))
		return ctx;
	if (!READ_ONCE(ctx->cm_id->device)) {
		ucma_ctx_put(ctx);
		return ERR_PTR(-EINVAL);
	}
	return ctx;
}

/**
 * ucma_ctx_put - drop a reference of ucma_ctx_get()
 * @ctx: the context
 *
 * Context: any.
 */
void ucma_ctx_put(struct ucma_context *ctx)
{
	if (refcount_dec_and_test(&ctx->ref))
		complete(&ctx->comp);
}

/*
 * Drop the reference the live rdma_cm id stands for, wait until no
 * command holds one, and destroy the id: no event comes for the context
 * after this.  The context itself stays.
 */
static void ucma_ctx_close_id(struct ucma_context *ctx)
{
	ucma_ctx_put(ctx);
	wait_for_completion(&ctx->comp);
	rdma_destroy_id(ctx->cm_id);
	/* nothing may read it without a reference, and none can be had */
	ctx->cm_id = NULL;
}

static void ucma_ctx_close_work(struct work_struct *work)
{
	ucma_ctx_close_id(container_of(work, struct ucma_context, close_work));
}

/**
 * ucma_ctx_alloc - a new context of @file, its number reserved
 * @file: the file
 *
 * The number looks up as nothing until ucma_ctx_publish().
 *
 * Context: process context; may sleep.
 * Return: the context, or NULL without memory or numbers.
 */
struct ucma_context *ucma_ctx_alloc(struct ucma_file *file)
{
	struct ucma_context *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);

	if (!ctx)
		return NULL;
	INIT_WORK(&ctx->close_work, ucma_ctx_close_work);
	init_completion(&ctx->comp);
	INIT_LIST_HEAD(&ctx->mc_list);
	/* list_del() works on a context never published */
	INIT_LIST_HEAD(&ctx->list);
	mutex_init(&ctx->mutex);
	ctx->file = file;
	if (xa_alloc(&ucma_ctx_table, &ctx->id, NULL, xa_limit_32b,
		     GFP_KERNEL)) {
		kfree(ctx);
		return NULL;
	}
	atomic_inc(&ucma_ctx_alive);
	return ctx;
}

/**
 * ucma_ctx_set_cm_id - give a context its rdma_cm id
 * @ctx: a context of ucma_ctx_alloc()
 * @cm_id: the id, whose context is @ctx from now on
 *
 * Context: any.
 */
void ucma_ctx_set_cm_id(struct ucma_context *ctx, struct rdma_cm_id *cm_id)
{
	refcount_set(&ctx->ref, 1);
	ctx->cm_id = cm_id;
}

/**
 * ucma_ctx_publish - make a context findable by its number
 * @ctx: the context, with its rdma_cm id
 *
 * Context: the caller holds the file's mut.
 */
void ucma_ctx_publish(struct ucma_context *ctx)
{
	lockdep_assert_held(&ctx->file->mut);
	list_add_tail(&ctx->list, &ctx->file->ctx_list);
	xa_store(&ucma_ctx_table, ctx->id, ctx, GFP_KERNEL);
}

/* ------------------------------------------------------------------
 * Events
 */

static void ucma_copy_conn_event(struct rdma_ucm_conn_param *dst,
				 const struct rdma_conn_param *src)
{
	if (src->private_data_len && src->private_data)
		memcpy(dst->private_data, src->private_data,
		       src->private_data_len);
	dst->private_data_len = src->private_data_len;
	dst->responder_resources = src->responder_resources;
	dst->initiator_depth = src->initiator_depth;
	dst->flow_control = src->flow_control;
	dst->retry_count = src->retry_count;
	dst->rnr_retry_count = src->rnr_retry_count;
	dst->srq = src->srq;
	dst->qp_num = src->qp_num;
}

static void ucma_copy_ud_event(struct ib_device *device,
			       struct rdma_ucm_ud_param *dst,
			       struct rdma_ud_param *src)
{
	if (src->private_data_len && src->private_data)
		memcpy(dst->private_data, src->private_data,
		       src->private_data_len);
	dst->private_data_len = src->private_data_len;
	ib_copy_ah_attr_to_user(device, &dst->ah_attr, &src->ah_attr);
	dst->qp_num = src->qp_num;
	dst->qkey = src->qkey;
}

/*
 * What user space will read of @event of @cm_id, for @ctx (a request's:
 * the listener's context; the caller sets the new id's number).  A
 * multicast event carries its group (the context rdma_cm hands back in
 * ud.private_data) and the group's number and value.
 */
static struct ucma_event *ucma_event_make(struct ucma_context *ctx,
					  struct rdma_cm_id *cm_id,
					  struct rdma_cm_event *event)
{
	struct ucma_event *uevent = kzalloc(sizeof(*uevent), GFP_KERNEL);

	if (!uevent)
		return NULL;
	uevent->ctx = ctx;
	if (event->event == RDMA_CM_EVENT_MULTICAST_JOIN ||
	    event->event == RDMA_CM_EVENT_MULTICAST_ERROR) {
		uevent->mc = (struct ucma_multicast *)
			     event->param.ud.private_data;
		uevent->resp.uid = uevent->mc->uid;
		uevent->resp.id = uevent->mc->id;
	} else {
		uevent->resp.uid = ctx->uid;
		uevent->resp.id = ctx->id;
	}
	uevent->resp.event = event->event;
	uevent->resp.status = event->status;
	/* (a group's ud.private_data is its context, of length 0) */
	if (cm_id->qp_type == IB_QPT_UD)
		ucma_copy_ud_event(cm_id->device, &uevent->resp.param.ud,
				   &event->param.ud);
	else
		ucma_copy_conn_event(&uevent->resp.param.conn,
				     &event->param.conn);
	uevent->resp.ece.vendor_id = event->ece.vendor_id;
	uevent->resp.ece.attr_mod = event->ece.attr_mod;
	return uevent;
}

/* Queue @uevent on @file and wake its readers. */
static void ucma_event_queue(struct ucma_file *file, struct ucma_event *uevent)
{
	mutex_lock(&file->mut);
	list_add_tail(&uevent->list, &file->event_list);
	mutex_unlock(&file->mut);
	wake_up_interruptible(&file->poll_wait);
}

/*
 * A request on @listen's listener: a new context for the new rdma_cm
 * id, queued with its CONNECT_REQUEST event.  The context stays hidden
 * (its number reserved, on no file's list) until GET_EVENT reports the
 * request: until then the event owns it, and nothing but the event can
 * reach it (see ucma_priv.h).  Refused (rdma_cm then destroys the new
 * id, and the transport refuses the request) when the listener's backlog
 * is used up or without memory.
 */
static int ucma_event_request(struct ucma_context *listen,
			      struct rdma_cm_id *cm_id,
			      struct rdma_cm_event *event)
{
	struct ucma_context *ctx;
	struct ucma_event *uevent;

	if (!atomic_add_unless(&listen->backlog, -1, 0))
		return -ENOMEM;
	ctx = ucma_ctx_alloc(listen->file);
	if (!ctx)
		goto err_backlog;
	ucma_ctx_set_cm_id(ctx, cm_id);
	uevent = ucma_event_make(listen, cm_id, event);
	if (!uevent)
		goto err_ctx;
	uevent->conn_req_ctx = ctx;
	uevent->resp.id = ctx->id;
	cm_id->context = ctx;
	xa_lock(&ucma_ctx_table);
	ctx->hidden = true;
	xa_unlock(&ucma_ctx_table);
	ucma_event_queue(listen->file, uevent);
	return 0;

err_ctx:
	/* the id is rdma_cm's to destroy after our non-zero return */
	ctx->cm_id = NULL;
	refcount_set(&ctx->ref, 0);
	ucma_ctx_destroy_private(ctx);
err_backlog:
	atomic_inc(&listen->backlog);
	return -ENOMEM;
}

/**
 * ucma_event_handler - the rdma_cm event handler of every id of ours
 * @cm_id: the id; its context is our context (a request's new id: the
 *	listener's)
 * @event: the event
 *
 * Queues the event on the context's file.  A request's new id becomes a
 * context; until user space accepts it its events are dropped (its uid is
 * 0), as upstream.  After DEVICE_REMOVAL the rdma_cm id is destroyed from
 * a work (the device's removal waits for it); the context stays until
 * user space destroys it.
 *
 * Context: process context, from rdma_cm, under the id's handler lock.
 * Return: 0, or non-zero for a request that is refused.
 */
int ucma_event_handler(struct rdma_cm_id *cm_id, struct rdma_cm_event *event)
{
	struct ucma_context *ctx = cm_id->context;
	struct ucma_event *uevent;

	if (event->event == RDMA_CM_EVENT_CONNECT_REQUEST)
		return ucma_event_request(ctx, cm_id, event);

	if (ctx->uid) {
		uevent = ucma_event_make(ctx, cm_id, event);
		if (uevent)
			ucma_event_queue(ctx->file, uevent);
	}

	if (event->event == RDMA_CM_EVENT_DEVICE_REMOVAL) {
		/* not if its destroyer has it already */
		xa_lock(&ucma_ctx_table);
		if (xa_load(&ucma_ctx_table, ctx->id) == ctx || ctx->hidden)
			queue_work(system_unbound_wq, &ctx->close_work);
		xa_unlock(&ucma_ctx_table);
	}
	return 0;
}

/**
 * ucma_cmd_get_event - RDMA_USER_CM_CMD_GET_EVENT: the oldest event
 * @file: the file
 * @inbuf: struct rdma_ucm_get_event
 * @in_len: its length from the header
 * @out_len: room at its response address
 *
 * Waits for an event unless the file is non-blocking.  The event stays
 * queued when it cannot be written.  An old 32-bit librdmacm's response
 * lacks the last 12 bytes: taken, as upstream.
 *
 * Context: process context; sleeps; takes the file's mut.
 * Return: 0; -ENOSPC for too small a response; -EFAULT; -EAGAIN
 * (non-blocking, nothing queued); -ERESTARTSYS on a signal.
 */
ssize_t ucma_cmd_get_event(struct ucma_file *file, const char __user *inbuf,
			   int in_len, int out_len)
{
	struct rdma_ucm_get_event cmd;
	struct ucma_event *uevent;

	if (out_len < sizeof(uevent->resp) - sizeof(uevent->resp.reserved) -
		      sizeof(uevent->resp.ece))
		return -ENOSPC;
	if (copy_from_user(&cmd, inbuf, sizeof(cmd)))
		return -EFAULT;

	mutex_lock(&file->mut);
	while (list_empty(&file->event_list)) {
		mutex_unlock(&file->mut);
		if (file->filp->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(file->poll_wait,
					     !list_empty(&file->event_list)))
			return -ERESTARTSYS;
		mutex_lock(&file->mut);
	}
	uevent = list_first_entry(&file->event_list, struct ucma_event, list);
	if (copy_to_user(u64_to_user_ptr(cmd.response), &uevent->resp,
			 min_t(size_t, out_len, sizeof(uevent->resp)))) {
		mutex_unlock(&file->mut);
		return -EFAULT;
	}
	list_del(&uevent->list);
	uevent->ctx->events_reported++;
	if (uevent->mc)
		uevent->mc->events_reported++;
	if (uevent->conn_req_ctx) {
		struct ucma_context *conn = uevent->conn_req_ctx;

		/*
		 * Reported: the request's context is user space's now.  Not
		 * hidden and public at once, for DEVICE_REMOVAL's handler.
		 */
		list_add_tail(&conn->list, &file->ctx_list);
		xa_lock(&ucma_ctx_table);
		conn->hidden = false;
		__xa_store(&ucma_ctx_table, conn->id, conn, GFP_KERNEL);
		xa_unlock(&ucma_ctx_table);
		/* the request left the queue: the listener may take another */
		atomic_inc(&uevent->ctx->backlog);
	}
	mutex_unlock(&file->mut);
	kfree(uevent);
	return 0;
}

/* ------------------------------------------------------------------
 * Destruction
 */

/*
 * Take the events of @ctx off its file (its rdma_cm id calls back no
 * more) and the context off the file's list.  A listener's request that
 * was never read takes its hidden context along, destroyed here.
 * Return: the events of @ctx read.
 */
static int ucma_ctx_drop_events(struct ucma_context *ctx)
{
	struct ucma_event *uevent, *tmp;
	LIST_HEAD(orphans);
	int reported;

	mutex_lock(&ctx->file->mut);
	list_for_each_entry_safe(uevent, tmp, &ctx->file->event_list, list) {
		if (uevent->ctx != ctx)
			continue;
		if (uevent->conn_req_ctx) {
			list_move_tail(&uevent->list, &orphans);
			continue;
		}
		list_del(&uevent->list);
		kfree(uevent);
	}
	list_del(&ctx->list);
	reported = ctx->events_reported;
	mutex_unlock(&ctx->file->mut);

	/* outside the file's mut: their destruction takes it */
	list_for_each_entry_safe(uevent, tmp, &orphans, list) {
		ucma_ctx_destroy_private(uevent->conn_req_ctx);
		kfree(uevent);
	}
	return reported;
}

/* Forget the groups of @ctx, whose rdma_cm id left them all. */
static void ucma_ctx_drop_groups(struct ucma_context *ctx)
{
	struct ucma_multicast *mc, *tmp;

	xa_lock(&ucma_mc_table);
	list_for_each_entry_safe(mc, tmp, &ctx->mc_list, list) {
		list_del(&mc->list);
		__xa_erase(&ucma_mc_table, mc->id);
		kfree(mc);
		atomic_dec(&ucma_mc_alive);
	}
	xa_unlock(&ucma_mc_table);
}

/**
 * ucma_ctx_destroy_private - destroy a context nobody else can reach
 * @ctx: the context; its number is reserved, not public (never published,
 *	or swapped for a reserved entry by the caller)
 *
 * Destroys the rdma_cm id (once the commands holding references are
 * done; after a device's removal it went already), drops the context's
 * events and groups, frees its number and the context.
 *
 * Context: process context; sleeps.
 * Return: the context's events user space read.
 */
int ucma_ctx_destroy_private(struct ucma_context *ctx)
{
	int reported;

	/*
	 * A close work queued by DEVICE_REMOVAL either ran (the id is gone,
	 * @ref 0) or never will; without it @ref is still the live id's.
	 * @ref is 0 without an id too (a request's context that failed).
	 */
	cancel_work_sync(&ctx->close_work);
	if (refcount_read(&ctx->ref))
		ucma_ctx_close_id(ctx);

	reported = ucma_ctx_drop_events(ctx);
	ucma_ctx_drop_groups(ctx);

	WARN_ON(xa_cmpxchg(&ucma_ctx_table, ctx->id, XA_ZERO_ENTRY, NULL,
			   GFP_KERNEL) != NULL);
	mutex_destroy(&ctx->mutex);
	kfree(ctx);
	atomic_dec(&ucma_ctx_alive);
	return reported;
}

/**
 * ucma_mc_drop_events - take a group's events off its file
 * @mc: the group, left already (rdma_leave_multicast())
 *
 * Context: process context; takes the id's handler lock and the file's
 * mut (no event of the group is being queued meanwhile).
 */
void ucma_mc_drop_events(struct ucma_multicast *mc)
{
	struct ucma_context *ctx = mc->ctx;
	struct ucma_event *uevent, *tmp;

	rdma_lock_handler(ctx->cm_id);
	mutex_lock(&ctx->file->mut);
	list_for_each_entry_safe(uevent, tmp, &ctx->file->event_list, list) {
		if (uevent->mc != mc)
			continue;
		list_del(&uevent->list);
		kfree(uevent);
	}
	mutex_unlock(&ctx->file->mut);
	rdma_unlock_handler(ctx->cm_id);
}

/**
 * ucma_file_release_all - destroy every context of a file being closed
 * @file: the file; no command runs on it any more
 *
 * A listener's handler may still add a request's context meanwhile;
 * that one comes after its listener on the list and goes too.
 *
 * Context: process context; sleeps.
 */
void ucma_file_release_all(struct ucma_file *file)
{
	struct ucma_context *ctx;

	for (;;) {
		mutex_lock(&file->mut);
		ctx = list_first_entry_or_null(&file->ctx_list,
					       struct ucma_context, list);
		mutex_unlock(&file->mut);
		if (!ctx)
			return;
		/* nobody else may own one of a closing file's contexts */
		WARN_ON(xa_cmpxchg(&ucma_ctx_table, ctx->id, ctx,
				   XA_ZERO_ENTRY, GFP_KERNEL) != ctx);
		ucma_ctx_destroy_private(ctx);
	}
}

/* ------------------------------------------------------------------
 * Commands on contexts as wholes
 */

static int ucma_qp_type_of(const struct rdma_ucm_create_id *cmd,
			   enum ib_qp_type *qp_type)
{
	switch (cmd->ps) {
	case RDMA_PS_TCP:
		*qp_type = IB_QPT_RC;
		return 0;
	case RDMA_PS_UDP:
	case RDMA_PS_IPOIB:
		*qp_type = IB_QPT_UD;
		return 0;
	case RDMA_PS_IB:
		/* user space's choice, unchecked, as upstream */
		*qp_type = cmd->qp_type;
		return 0;
	default:
		return -EINVAL;
	}
}

/**
 * ucma_cmd_create_id - RDMA_USER_CM_CMD_CREATE_ID: a new id
 * @file: the file
 * @inbuf: struct rdma_ucm_create_id
 * @in_len: its length from the header
 * @out_len: room for struct rdma_ucm_create_id_resp
 *
 * The id lives in the namespace the file was opened in.
 *
 * Context: process context; sleeps.
 * Return: 0; -ENOSPC; -EFAULT; -EINVAL for an unknown port space;
 * -ENOMEM.
 */
ssize_t ucma_cmd_create_id(struct ucma_file *file, const char __user *inbuf,
			   int in_len, int out_len)
{
	struct rdma_ucm_create_id_resp resp = {};
	struct rdma_ucm_create_id cmd;
	struct ucma_context *ctx;
	struct rdma_cm_id *cm_id;
	enum ib_qp_type qp_type;
	int ret;

	if (out_len < sizeof(resp))
		return -ENOSPC;
	if (copy_from_user(&cmd, inbuf, sizeof(cmd)))
		return -EFAULT;
	ret = ucma_qp_type_of(&cmd, &qp_type);
	if (ret)
		return ret;

	ctx = ucma_ctx_alloc(file);
	if (!ctx)
		return -ENOMEM;
	ctx->uid = cmd.uid;
	cm_id = rdma_create_user_id_net(file->net, ucma_event_handler, ctx,
					cmd.ps, qp_type);
	if (IS_ERR(cm_id)) {
		ret = PTR_ERR(cm_id);
		goto err;
	}
	ucma_ctx_set_cm_id(ctx, cm_id);

	resp.id = ctx->id;
	if (copy_to_user(u64_to_user_ptr(cmd.response), &resp,
			 sizeof(resp))) {
		ret = -EFAULT;
		goto err;
	}
	mutex_lock(&file->mut);
	ucma_ctx_publish(ctx);
	mutex_unlock(&file->mut);
	return 0;

err:
	ucma_ctx_destroy_private(ctx);
	return ret;
}

/**
 * ucma_cmd_destroy_id - RDMA_USER_CM_CMD_DESTROY_ID
 * @file: the file
 * @inbuf: struct rdma_ucm_destroy_id
 * @in_len: its length from the header
 * @out_len: room for struct rdma_ucm_destroy_id_resp
 *
 * Answers how many of the id's events user space read, so that it can
 * wait until it acknowledged them all.  Events not read are dropped
 * (a listener's requests with their new ids).
 *
 * Context: process context; sleeps.
 * Return: 0; -ENOSPC; -EFAULT (the id is destroyed all the same when
 * only the answer could not be written); -ENOENT, -EINVAL as
 * ucma_ctx_get().
 */
ssize_t ucma_cmd_destroy_id(struct ucma_file *file, const char __user *inbuf,
			    int in_len, int out_len)
{
	struct rdma_ucm_destroy_id_resp resp = {};
	struct rdma_ucm_destroy_id cmd;
	struct ucma_context *ctx;

	if (out_len < sizeof(resp))
		return -ENOSPC;
	if (copy_from_user(&cmd, inbuf, sizeof(cmd)))
		return -EFAULT;

	xa_lock(&ucma_ctx_table);
	ctx = ucma_ctx_find(file, cmd.id);
	/* whoever swaps it out owns its destruction */
	if (!IS_ERR(ctx) &&
	    __xa_cmpxchg(&ucma_ctx_table, ctx->id, ctx, XA_ZERO_ENTRY,
			 GFP_KERNEL) != ctx)
		ctx = ERR_PTR(-ENOENT);
	xa_unlock(&ucma_ctx_table);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);

	resp.events_reported = ucma_ctx_destroy_private(ctx);
	if (copy_to_user(u64_to_user_ptr(cmd.response), &resp, sizeof(resp)))
		return -EFAULT;
	return 0;
}

/**
 * ucma_cmd_migrate_id - RDMA_USER_CM_CMD_MIGRATE_ID: take an id over
 * @new_file: the file the command came on, which gets the id
 * @inbuf: struct rdma_ucm_migrate_id: the id and the fd of its file
 * @in_len: its length from the header
 * @out_len: room for struct rdma_ucm_migrate_resp
 *
 * The id and its unread events move to @new_file, in their order, behind
 * that file's own; a listener's requests not read yet take their new ids
 * along (upstream leaves those with the old file).
 *
 * Context: process context; sleeps; takes the id's handler lock, then
 * each file's mut in turn.
 * Return: 0; -ENOENT for an fd that is not open; -EINVAL for one that is
 * not an rdma_cm file; the errors of ucma_ctx_get() on that file;
 * -EFAULT (the id moved all the same).
 */
ssize_t ucma_cmd_migrate_id(struct ucma_file *new_file,
			    const char __user *inbuf, int in_len, int out_len)
{
	struct rdma_ucm_migrate_resp resp = {};
	struct ucma_event *uevent, *tmp;
	struct rdma_ucm_migrate_id cmd;
	struct ucma_file *cur_file;
	struct ucma_context *ctx;
	LIST_HEAD(moving);
	bool moved;
	struct fd f;
	int ret = 0;

	if (copy_from_user(&cmd, inbuf, sizeof(cmd)))
		return -EFAULT;

	/* the fd keeps the old file open while we work on it */
	f = fdget(cmd.fd);
	if (!fd_file(f))
		return -ENOENT;
	if (!ucma_is_ucma_file(fd_file(f))) {
		ret = -EINVAL;
		goto out_fdput;
	}
	cur_file = fd_file(f)->private_data;

	ctx = ucma_ctx_get(cur_file, cmd.id);
	if (IS_ERR(ctx)) {
		ret = PTR_ERR(ctx);
		goto out_fdput;
	}

	/* no event of the id is queued while it moves */
	rdma_lock_handler(ctx->cm_id);
	xa_lock(&ucma_ctx_table);
	/* its destroyer may have taken it since ucma_ctx_get() */
	if (ucma_ctx_find(cur_file, cmd.id) != ctx) {
		xa_unlock(&ucma_ctx_table);
		ret = -ENOENT;
		goto out_unlock;
	}
	ctx->file = new_file;
	xa_unlock(&ucma_ctx_table);

	mutex_lock(&cur_file->mut);
	list_del(&ctx->list);
	list_for_each_entry_safe(uevent, tmp, &cur_file->event_list, list) {
		if (uevent->ctx != ctx)
			continue;
		list_move_tail(&uevent->list, &moving);
		/* a request's hidden context goes with its event */
		if (uevent->conn_req_ctx)
			WRITE_ONCE(uevent->conn_req_ctx->file, new_file);
	}
	resp.events_reported = ctx->events_reported;
	mutex_unlock(&cur_file->mut);

	moved = !list_empty(&moving);
	mutex_lock(&new_file->mut);
	list_add_tail(&ctx->list, &new_file->ctx_list);
	list_splice_tail(&moving, &new_file->event_list);
	mutex_unlock(&new_file->mut);
	if (moved)
		wake_up_interruptible(&new_file->poll_wait);

	if (copy_to_user(u64_to_user_ptr(cmd.response), &resp, sizeof(resp)))
		ret = -EFAULT;
out_unlock:
	rdma_unlock_handler(ctx->cm_id);
	ucma_ctx_put(ctx);
out_fdput:
	fdput(f);
	return ret;
}
