/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdma_ucm inside: the files of /dev/infiniband/rdma_cm, the rdma_cm ids
 * they hold for user space (contexts), the multicast groups joined
 * through them and the events queued for them.
 *
 * Files of the module:
 *	ucma_main.c	the misc device, open/close/write/poll, the command
 *			table and its header rules, the nldev client, init
 *	ucma_ctx.c	contexts and their numbers, events (the rdma_cm
 *			handler, GET_EVENT), destruction, MIGRATE_ID
 *	ucma_cmd.c	every other command
 *	ucma_test_ops.c	what the KUnit suites read inside (KUnit only)
 *
 * Lock order:
 *
 *	ucma_context.mutex			(one command at a time on an id)
 *	  -> the rdma_cm id's handler lock	(rdma_lock_handler(); every
 *						 event is delivered under it)
 *	    -> ucma_file.mut			(the file's lists)
 *	      -> the xa_lock of ucma_ctx_table	(numbers, ucma_context.file)
 *	the xa_lock of ucma_mc_table		(groups and each mc_list),
 *						 alone or inside ucma_file.mut
 *
 * Lifetime of a context (struct ucma_context):
 *
 *  - Its number is taken from ucma_ctx_table with a reserved entry
 *    (XA_ZERO_ENTRY: looked up as nothing) and becomes the context once
 *    it is on its file's ctx_list (ucma_ctx_publish()).  Whoever swaps
 *    the context back for a reserved entry (DESTROY_ID, the file's close)
 *    owns its destruction: only one can.
 *  - The context of a request's new id stays @hidden (number reserved,
 *    on no list) until GET_EVENT reports its CONNECT_REQUEST, which then
 *    publishes it: until then the event owns it, no command reaches it,
 *    and the destruction of the listener (whose event it is) destroys
 *    it; MIGRATE_ID of the listener moves it with the event.  So an
 *    event's @conn_req_ctx always lives, and every event is on the file
 *    of the context it is for.
 *  - @ref: 1 while the rdma_cm id lives, plus one per command running on
 *    it (ucma_ctx_get()).  The rdma_cm id is destroyed once the 1 is
 *    dropped and the commands are gone (ucma_ctx_close_id()): by the
 *    destroyer, or by @close_work after RDMA_CM_EVENT_DEVICE_REMOVAL (the
 *    device waits for it), after which the context stays, answering
 *    -ENXIO, until user space destroys it.
 *  - @file changes only on MIGRATE_ID, under the id's handler lock and
 *    the table's lock: a handler, or a command holding @ref and the
 *    handler lock, reads it stable.
 *  - Events hold no reference: they are taken off the file (and freed)
 *    by the destroyer once the rdma_cm id calls back no more.
 */
#ifndef RDMA_UCMA_PRIV_H
#define RDMA_UCMA_PRIV_H

#include <linux/completion.h>
#include <linux/fs.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <net/net_namespace.h>
#include <rdma/rdma_cm.h>
#include <uapi/rdma/rdma_user_cm.h>

/**
 * struct ucma_file - one open file of /dev/infiniband/rdma_cm
 * @mut: protects @ctx_list, @event_list and the events_reported counts
 *	of the file's contexts and groups
 * @filp: the file (its O_NONBLOCK flag)
 * @net: the network namespace of the task that opened it, referenced:
 *	every id the file creates lives there
 * @ctx_list: the file's contexts (ucma_context.list)
 * @event_list: events not yet read (ucma_event.list), oldest first
 * @poll_wait: woken when an event is queued
 */
struct ucma_file {
	struct mutex		mut;	/* the lists, events_reported */
	struct file		*filp;
	struct net		*net;
	struct list_head	ctx_list;
	struct list_head	event_list;
	wait_queue_head_t	poll_wait;
};

/**
 * struct ucma_context - an rdma_cm id held by a file for user space
 * @id: its number, the id user space names (ucma_ctx_table)
 * @file: the file it belongs to (see the lifetime rules above)
 * @cm_id: the rdma_cm id; NULL once destroyed after a device removal
 * @uid: user space's value for it, echoed in its events; 0 for the new id
 *	of a request until user space accepts it (its events are dropped
 *	meanwhile, as upstream)
 * @ref: see the lifetime rules
 * @comp: completed when @ref reaches 0
 * @mutex: serialises the commands that call into rdma_cm for the id
 * @events_reported: events of the id user space has read (@file's mut)
 * @backlog: requests a listener may still queue before GET_EVENT took
 *	them (LISTEN sets it, a CONNECT_REQUEST takes one, reading it gives
 *	it back)
 * @list: on @file's ctx_list
 * @mc_list: its groups (ucma_multicast.list, ucma_mc_table's lock)
 * @close_work: destroys the rdma_cm id after DEVICE_REMOVAL
 * @hidden: a request's new context its CONNECT_REQUEST has not been
 *	reported yet (the table's lock)
 */
struct ucma_context {
	u32			id;
	struct ucma_file	*file;
	struct rdma_cm_id	*cm_id;
	u64			uid;
	refcount_t		ref;
	struct completion	comp;
	struct mutex		mutex;	/* the commands calling rdma_cm */
	int			events_reported;
	atomic_t		backlog;
	struct list_head	list;
	struct list_head	mc_list;
	struct work_struct	close_work;
	bool			hidden;
};

/**
 * struct ucma_multicast - a group joined through a context
 * @ctx: the context
 * @id: its number (ucma_mc_table), what LEAVE_MCAST names
 * @events_reported: its events user space has read (file's mut)
 * @uid: user space's value for it, echoed in its events
 * @join_state: the JoinState bit asked for
 * @list: on @ctx's mc_list
 * @addr: the group's address, as given
 */
struct ucma_multicast {
	struct ucma_context	*ctx;
	u32			id;
	int			events_reported;
	u64			uid;
	u8			join_state;
	struct list_head	list;
	struct sockaddr_storage	addr;
};

/**
 * struct ucma_event - an event waiting on a file
 * @ctx: the context it is for (a request's: the listener's)
 * @conn_req_ctx: RDMA_CM_EVENT_CONNECT_REQUEST: the request's new context,
 *	hidden, owned by this event
 * @mc: a multicast event's group, else NULL
 * @list: on the file's event_list
 * @resp: what GET_EVENT hands out
 */
struct ucma_event {
	struct ucma_context	*ctx;
	struct ucma_context	*conn_req_ctx;
	struct ucma_multicast	*mc;
	struct list_head	list;
	struct rdma_ucm_event_resp resp;
};

extern struct xarray ucma_ctx_table;
extern struct xarray ucma_mc_table;
extern unsigned int ucma_max_backlog;
/* contexts and groups allocated and not yet freed (the KUnit suites) */
extern atomic_t ucma_ctx_alive;
extern atomic_t ucma_mc_alive;

/* A command: the bytes after the header, and the header's sizes. */
typedef ssize_t (*ucma_cmd_fn)(struct ucma_file *file,
			       const char __user *inbuf, int in_len,
			       int out_len);

/* ucma_ctx.c */
struct ucma_context *ucma_ctx_get(struct ucma_file *file, u32 id);
struct ucma_context *ucma_ctx_get_dev(struct ucma_file *file, u32 id);
void ucma_ctx_put(struct ucma_context *ctx);
struct ucma_context *ucma_ctx_alloc(struct ucma_file *file);
void ucma_ctx_set_cm_id(struct ucma_context *ctx, struct rdma_cm_id *cm_id);
void ucma_ctx_publish(struct ucma_context *ctx);
int ucma_ctx_destroy_private(struct ucma_context *ctx);
int ucma_event_handler(struct rdma_cm_id *cm_id, struct rdma_cm_event *event);
void ucma_mc_drop_events(struct ucma_multicast *mc);
void ucma_file_release_all(struct ucma_file *file);

ssize_t ucma_cmd_create_id(struct ucma_file *file, const char __user *inbuf,
			   int in_len, int out_len);
ssize_t ucma_cmd_destroy_id(struct ucma_file *file, const char __user *inbuf,
			    int in_len, int out_len);
ssize_t ucma_cmd_get_event(struct ucma_file *file, const char __user *inbuf,
			   int in_len, int out_len);
ssize_t ucma_cmd_migrate_id(struct ucma_file *file, const char __user *inbuf,
			    int in_len, int out_len);

/* ucma_cmd.c */
ssize_t ucma_cmd_bind_ip(struct ucma_file *file, const char __user *inbuf,
			 int in_len, int out_len);
ssize_t ucma_cmd_bind(struct ucma_file *file, const char __user *inbuf,
		      int in_len, int out_len);
ssize_t ucma_cmd_resolve_ip(struct ucma_file *file, const char __user *inbuf,
			    int in_len, int out_len);
ssize_t ucma_cmd_resolve_addr(struct ucma_file *file,
			      const char __user *inbuf, int in_len,
			      int out_len);
ssize_t ucma_cmd_resolve_route(struct ucma_file *file,
			       const char __user *inbuf, int in_len,
			       int out_len);
ssize_t ucma_cmd_query_route(struct ucma_file *file, const char __user *inbuf,
			     int in_len, int out_len);
ssize_t ucma_cmd_query(struct ucma_file *file, const char __user *inbuf,
		       int in_len, int out_len);
ssize_t ucma_cmd_connect(struct ucma_file *file, const char __user *inbuf,
			 int in_len, int out_len);
ssize_t ucma_cmd_listen(struct ucma_file *file, const char __user *inbuf,
			int in_len, int out_len);
ssize_t ucma_cmd_accept(struct ucma_file *file, const char __user *inbuf,
			int in_len, int out_len);
ssize_t ucma_cmd_reject(struct ucma_file *file, const char __user *inbuf,
			int in_len, int out_len);
ssize_t ucma_cmd_disconnect(struct ucma_file *file, const char __user *inbuf,
			    int in_len, int out_len);
ssize_t ucma_cmd_init_qp_attr(struct ucma_file *file,
			      const char __user *inbuf, int in_len,
			      int out_len);
ssize_t ucma_cmd_set_option(struct ucma_file *file, const char __user *inbuf,
			    int in_len, int out_len);
ssize_t ucma_cmd_notify(struct ucma_file *file, const char __user *inbuf,
			int in_len, int out_len);
ssize_t ucma_cmd_join_ip_mcast(struct ucma_file *file,
			       const char __user *inbuf, int in_len,
			       int out_len);
ssize_t ucma_cmd_join_mcast(struct ucma_file *file, const char __user *inbuf,
			    int in_len, int out_len);
ssize_t ucma_cmd_leave_mcast(struct ucma_file *file, const char __user *inbuf,
			     int in_len, int out_len);

/* ucma_main.c */
bool ucma_is_ucma_file(struct file *filp);

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * struct ucma_test_ops - rdma_ucm's insides, for its KUnit suites
 * @contexts: contexts alive (numbers taken), module-wide
 * @groups: multicast groups alive, module-wide
 * @file_events: events queued on the file of an open rdma_cm file
 * @max_backlog: the net.rdma_ucm.max_backlog sysctl's value
 *
 * The table is ucma_test (ucma_test_ops.c); built only with KUnit.
 */
struct ucma_test_ops {
	unsigned int (*contexts)(void);
	unsigned int (*groups)(void);
	int (*file_events)(struct file *filp);
	unsigned int *max_backlog;
};

extern const struct ucma_test_ops ucma_test;
#endif

#endif /* RDMA_UCMA_PRIV_H */
