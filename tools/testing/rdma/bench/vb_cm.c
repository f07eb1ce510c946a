// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_verbs_bench: connections through rdma_cm, for iWARP (whose QPs
 * cannot be joined by hand) and across a wire.  Built with VB_RDMA_CM
 * (both Kbuild files set it).
 *
 * The server (passive side) binds to the IPv4 address of its device's
 * netdev and listens.  Each connect request carries a struct vb_cm_req;
 * the request handler makes a responder (PD, IB_POLL_SOFTIRQ CQ, QP,
 * VB_RECVS receives that its completion handler reposts) and accepts
 * with a struct vb_cm_rep: the address and rkey of its buffer.  When a
 * connection ends (DISCONNECTED or an error) a work item tears it down.
 * The server is done when the connection its client marked last is
 * gone.
 *
 * The client (active side) resolves the address and the route, makes
 * the requester's QP with rdma_create_qp() and connects, retrying a
 * refused or unreachable connect for VB_CONNECT_RETRY_S; one connection
 * for the latency and rate table and one for each poll context of the
 * CPU figures.  In pair mode both sides are in this module.
 *
 * rdma_cm picks the device by the address: the first device whose port
 * matches the netdev of the address wins.  A connection that lands on
 * another device than the one named is refused with an error line (give
 * each device a netdev and address of its own).
 */
#include <linux/delay.h>
#include <linux/inetdevice.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <rdma/ib_cm.h>
#include <rdma/rdma_cm.h>

#include "vb.h"

#define VB_CM_MAGIC		0x76624331	/* "vbC1" */
#define VB_CM_LAST		1
#define VB_CM_STEP_MS		10000

struct vb_cm_req {
	__be32	magic;
	__be32	flags;
};

struct vb_cm_rep {
	__be32	magic;
	__be32	rkey;
	__be64	addr;
};

/* The first member of every rdma_cm_id context: which one it is. */
enum vb_cm_kind { VB_CM_LISTENER, VB_CM_PASSIVE, VB_CM_ACTIVE };

/* A listening id and the connections it accepted. */
struct vb_cm_server {
	enum vb_cm_kind		kind;
	struct rdma_cm_id	*listen;
	struct workqueue_struct	*wq;
	char			dev[VB_NAME_LEN];
	u16			port;
	/* protects the fields below */
	spinlock_t		lock;
	struct list_head	conns;
	unsigned int		live;
	unsigned int		served;
	unsigned long		recv_errors;
	bool			got_last;
	wait_queue_head_t	waitq;
};

/* One accepted connection: the responder. */
struct vb_cm_passive {
	enum vb_cm_kind		kind;
	struct vb_cm_server	*srv;
	struct rdma_cm_id	*id;
	struct vb_side		side;
	struct list_head	entry;
	struct work_struct	free_work;
	bool			closing;	/* under srv->lock */
	bool			last;
	/* the last event of @id: what a server that timed out prints */
	enum rdma_cm_event_type	event;
	bool			has_event;
};

/* One connection of the client: the requester. */
struct vb_cm_active {
	enum vb_cm_kind		kind;
	struct rdma_cm_id	*id;
	struct vb_side		side;
	bool			has_qp;
	wait_queue_head_t	waitq;
	bool			have_event;
	bool			disconnected;
	enum rdma_cm_event_type	event;
	int			status;
	struct vb_cm_rep	rep;
};

/* Where a client connects from and to. */
struct vb_cm_target {
	struct sockaddr_in	src;
	struct sockaddr_in	dst;
};

static int vb_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev);

/* The IPv4 address of port 1's netdev. */
static int vb_dev_ipv4(struct ib_device *dev, __be32 *addr)
{
	struct net_device *ndev = ib_device_get_netdev(dev, 1);
	const struct in_ifaddr *ifa;
	struct in_device *in_dev;
	int ret = -EADDRNOTAVAIL;

	if (!ndev)
		return -ENODEV;
	rcu_read_lock();
	in_dev = __in_dev_get_rcu(ndev);
	ifa = in_dev ? rcu_dereference(in_dev->ifa_list) : NULL;
	if (ifa) {
		*addr = ifa->ifa_local;
		ret = 0;
	}
	rcu_read_unlock();
	dev_put(ndev);
	return ret;
}

/* The address of the device named @name, with an error line if none. */
static int vb_name_ipv4(struct vb_run *r, const char *name, __be32 *addr)
{
	struct ib_device *dev;
	int ret;

	dev = ib_device_get_by_name(name, RDMA_DRIVER_UNKNOWN);
	if (!dev) {
		vb_out(r, "error: no RDMA device %s\n", name);
		return -ENODEV;
	}
	ret = vb_dev_ipv4(dev, addr);
	if (ret)
		vb_out(r, "error: %s: no IPv4 address on its netdev: %d\n",
		       name, ret);
	else if (!r->transport)
		vb_set_columns(r, dev);
	ib_device_put(dev);
	return ret;
}

static bool vb_cm_right_dev(struct vb_run *r, struct rdma_cm_id *id,
			    const char *want)
{
	const char *got = dev_name(&id->device->dev);

	if (!strcmp(got, want))
		return true;
	if (r)
		vb_out(r, "error: rdma_cm chose %s, not %s: %s\n", got, want,
		       "give each device a netdev and address of its own");
	else
		pr_warn("verbs_bench: a connection arrived on %s, not %s: refused\n",
			got, want);
	return false;
}

/* A side on @id's device with its QP made by rdma_cm. */
static int vb_cm_side(struct vb_side *s, struct rdma_cm_id *id,
		      enum ib_poll_context poll)
{
	struct ib_qp_init_attr attr;
	int ret;

	ret = vb_side_init(s, id->device, poll);
	if (ret)
		return ret;
	vb_qp_init_attr(s, &attr);
	ret = rdma_create_qp(id, s->pd, &attr);
	if (ret) {
		vb_side_put(s);
		return ret;
	}
	s->qp = id->qp;
	return 0;
}

static void vb_cm_side_free(struct vb_side *s, struct rdma_cm_id *id)
{
	vb_side_stop(s);
	rdma_destroy_qp(id);
	vb_side_put(s);
}

/* ---- the server ---- */

/* Tear a connection down from the server's workqueue (once). */
static void vb_cm_passive_close(struct vb_cm_passive *conn)
{
	struct vb_cm_server *srv = conn->srv;
	unsigned long flags;

	spin_lock_irqsave(&srv->lock, flags);
	if (!conn->closing) {
		conn->closing = true;
		queue_work(srv->wq, &conn->free_work);
	}
	spin_unlock_irqrestore(&srv->lock, flags);
}

static void vb_cm_passive_free(struct work_struct *work)
{
	struct vb_cm_passive *conn =
		container_of(work, struct vb_cm_passive, free_work);
	struct vb_cm_server *srv = conn->srv;

	rdma_disconnect(conn->id);
	vb_cm_side_free(&conn->side, conn->id);
	rdma_destroy_id(conn->id);
	spin_lock_irq(&srv->lock);
	list_del(&conn->entry);
	srv->live--;
	srv->served++;
	srv->recv_errors += atomic_read(&conn->side.errors);
	if (conn->last)
		srv->got_last = true;
	spin_unlock_irq(&srv->lock);
	wake_up(&srv->waitq);
	kfree(conn);
}

/* Accept with the responder buffer's address and rkey. */
static int vb_cm_accept(struct vb_cm_passive *conn, struct rdma_cm_event *ev)
{
	u8 depth = vb_rd_atomic(conn->id->device);
	struct vb_cm_rep rep = {
		.magic = cpu_to_be32(VB_CM_MAGIC),
		.rkey = cpu_to_be32(conn->side.pd->unsafe_global_rkey),
		.addr = cpu_to_be64(conn->side.dma),
	};
	struct rdma_conn_param param = {
		.private_data = &rep,
		.private_data_len = sizeof(rep),
		.responder_resources = min(depth, ev->param.conn.initiator_depth),
		.initiator_depth = min(depth, ev->param.conn.responder_resources),
		.rnr_retry_count = 7,
	};

	return rdma_accept(conn->id, &param);
}

static bool vb_cm_req_ok(struct rdma_cm_event *ev)
{
	const struct vb_cm_req *req = ev->param.conn.private_data;

	return req && ev->param.conn.private_data_len >= sizeof(*req) &&
	       req->magic == cpu_to_be32(VB_CM_MAGIC);
}

/*
 * CONNECT_REQUEST on the listener: @id is the new connection's.  No
 * event of @id can come before this returns; non-zero makes rdma_cm
 * destroy @id.
 */
static int vb_cm_request(struct vb_cm_server *srv, struct rdma_cm_id *id,
			 struct rdma_cm_event *ev)
{
	const struct vb_cm_req *req = ev->param.conn.private_data;
	struct vb_cm_passive *conn;
	int ret = -ENOMEM;

	if (!vb_cm_req_ok(ev) || !vb_cm_right_dev(NULL, id, srv->dev))
		goto err_reject;
	conn = kzalloc(sizeof(*conn), GFP_KERNEL);
	if (!conn)
		goto err_reject;
	conn->kind = VB_CM_PASSIVE;
	conn->srv = srv;
	conn->id = id;
	conn->last = be32_to_cpu(req->flags) & VB_CM_LAST;
	INIT_WORK(&conn->free_work, vb_cm_passive_free);
	ret = vb_cm_side(&conn->side, id, IB_POLL_SOFTIRQ);
	if (ret)
		goto err_free;
	ret = vb_side_post_recvs(&conn->side);
	if (ret)
		goto err_side;
	id->context = conn;
	/* rdma_accept() rejects by itself when it fails */
	ret = vb_cm_accept(conn, ev);
	if (ret)
		goto err_side;
	spin_lock_irq(&srv->lock);
	list_add_tail(&conn->entry, &srv->conns);
	srv->live++;
	spin_unlock_irq(&srv->lock);
	return 0;

err_side:
	vb_cm_side_free(&conn->side, id);
err_free:
	kfree(conn);
	pr_warn("verbs_bench: cannot accept a connection: %d\n", ret);
	return 1;
err_reject:
	rdma_reject(id, NULL, 0, IB_CM_REJ_CONSUMER_DEFINED);
	return 1;
}

static void vb_cm_passive_event(struct vb_cm_passive *conn,
				struct rdma_cm_event *ev)
{
	WRITE_ONCE(conn->event, ev->event);
	WRITE_ONCE(conn->has_event, true);
	switch (ev->event) {
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		vb_cm_passive_close(conn);
		break;
	default:
		break;
	}
}

static int vb_cm_server_start(struct vb_run *r, struct vb_cm_server *srv,
			      __be32 addr, u16 port)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = addr,
		.sin_port = htons(port),
	};
	int ret;

	srv->kind = VB_CM_LISTENER;
	spin_lock_init(&srv->lock);
	INIT_LIST_HEAD(&srv->conns);
	init_waitqueue_head(&srv->waitq);
	srv->wq = alloc_ordered_workqueue("vb_cm_server", 0);
	if (!srv->wq)
		return -ENOMEM;
	srv->listen = rdma_create_id(&init_net, vb_cm_handler, srv,
				     RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(srv->listen)) {
		ret = PTR_ERR(srv->listen);
		goto err_wq;
	}
	ret = rdma_bind_addr(srv->listen, (struct sockaddr *)&sin);
	if (ret)
		goto err_id;
	ret = -EINVAL;
	if (!srv->listen->device ||
	    !vb_cm_right_dev(r, srv->listen, srv->dev))
		goto err_id;
	ret = rdma_listen(srv->listen, 4);
	if (ret)
		goto err_id;
	sin = *(struct sockaddr_in *)&srv->listen->route.addr.src_addr;
	srv->port = ntohs(sin.sin_port);
	return 0;

err_id:
	rdma_destroy_id(srv->listen);
err_wq:
	destroy_workqueue(srv->wq);
	vb_out(r, "error: cannot listen on %pI4:%u: %d\n", &addr, port, ret);
	return ret;
}

/*
 * The server timed out: each connection still there, with the last
 * event rdma_cm gave it, tells where its end was lost (ESTABLISHED and
 * not closing: no DISCONNECTED came after the client went).
 */
static void vb_cm_server_report(struct vb_run *r, struct vb_cm_server *srv)
{
	struct vb_cm_passive *conn;

	spin_lock_irq(&srv->lock);
	vb_out(r, "server: %u connection(s) open, the client's last one %s\n",
	       srv->live, srv->got_last ? "gone" : "not gone");
	list_for_each_entry(conn, &srv->conns, entry)
		vb_out(r, "server: open: %pISpc%s, last event %s%s\n",
		       &conn->id->route.addr.dst_addr,
		       conn->last ? " (the client's last)" : "",
		       READ_ONCE(conn->has_event) ?
		       rdma_event_msg(READ_ONCE(conn->event)) : "none",
		       conn->closing ? ", closing" : "");
	spin_unlock_irq(&srv->lock);
}

/* No more connections; tear down those still there. */
static void vb_cm_server_stop(struct vb_cm_server *srv)
{
	struct vb_cm_passive *conn;

	/* waits for a request handler that still runs */
	rdma_destroy_id(srv->listen);
	spin_lock_irq(&srv->lock);
	list_for_each_entry(conn, &srv->conns, entry) {
		if (!conn->closing) {
			conn->closing = true;
			queue_work(srv->wq, &conn->free_work);
		}
	}
	spin_unlock_irq(&srv->lock);
	/* runs every teardown; none is queued any more */
	destroy_workqueue(srv->wq);
}

static bool vb_cm_server_done(struct vb_cm_server *srv)
{
	bool done;

	spin_lock_irq(&srv->lock);
	done = srv->got_last && !srv->live;
	spin_unlock_irq(&srv->lock);
	return done;
}

/* "server DEV PORT": serve until the client's last connection ended. */
int vb_cm_server_run(struct vb_run *r)
{
	struct vb_cm_server *srv;
	__be32 addr;
	long left;
	int ret;

	srv = kzalloc(sizeof(*srv), GFP_KERNEL);
	if (!srv)
		return -ENOMEM;
	strscpy(srv->dev, r->dev0, sizeof(srv->dev));
	ret = vb_name_ipv4(r, r->dev0, &addr);
	if (!ret)
		ret = vb_cm_server_start(r, srv, addr, r->port);
	if (ret)
		goto out;
	vb_out(r, "server: %s, listening on %pI4:%u\n", r->dev0, &addr,
	       srv->port);
	/* interruptible: a signal ends the wait, and no hung task report */
	left = wait_event_interruptible_timeout(srv->waitq,
						vb_cm_server_done(srv),
						VB_SERVER_TIMEOUT_S * HZ);
	if (left <= 0)
		vb_cm_server_report(r, srv);
	vb_cm_server_stop(srv);
	vb_out(r, "server: %u connection(s) served, %lu receive error(s)\n",
	       srv->served, srv->recv_errors);
	if (left <= 0) {
		ret = left ?: -ETIMEDOUT;
		vb_out(r, "error: server: no last connection from the client within %d s: %d\n",
		       VB_SERVER_TIMEOUT_S, ret);
	}
out:
	kfree(srv);
	return ret;
}

/* ---- the client ---- */

static void vb_cm_active_event(struct vb_cm_active *a,
			       struct rdma_cm_event *ev)
{
	const void *pd = ev->param.conn.private_data;

	if (ev->event == RDMA_CM_EVENT_ESTABLISHED && pd &&
	    ev->param.conn.private_data_len >= sizeof(a->rep))
		memcpy(&a->rep, pd, sizeof(a->rep));
	if (ev->event == RDMA_CM_EVENT_DISCONNECTED)
		WRITE_ONCE(a->disconnected, true);
	a->event = ev->event;
	a->status = ev->status;
	/* pairs with the acquire in vb_cm_wait(): event and status first */
	smp_store_release(&a->have_event, true);
	wake_up(&a->waitq);
}

static int vb_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	enum vb_cm_kind *kind = id->context;

	switch (*kind) {
	case VB_CM_LISTENER:
		if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST)
			return vb_cm_request(id->context, id, ev);
		return 0;
	case VB_CM_PASSIVE:
		vb_cm_passive_event(id->context, ev);
		return 0;
	default:
		vb_cm_active_event(id->context, ev);
		return 0;
	}
}

/*
 * Wait for the event of a step that returned @ret.  -EAGAIN: the peer
 * refused or could not be reached, worth another try.
 */
static int vb_cm_wait(struct vb_run *r, struct vb_cm_active *a, int ret,
		      enum rdma_cm_event_type want)
{
	/* iWARP connects a TCP socket: a refusal may come at once */
	if (ret)
		return ret == -ENETUNREACH || ret == -EHOSTUNREACH ||
		       ret == -ECONNREFUSED ? -EAGAIN : ret;
	/* pairs with the release in vb_cm_active_event() */
	if (!wait_event_timeout(a->waitq, smp_load_acquire(&a->have_event),
				msecs_to_jiffies(VB_CM_STEP_MS))) {
		vb_out(r, "error: rdma_cm: no %s within %d ms\n",
		       rdma_event_msg(want), VB_CM_STEP_MS);
		return -ETIMEDOUT;
	}
	if (a->event == want)
		return 0;
	switch (a->event) {
	case RDMA_CM_EVENT_REJECTED:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_ROUTE_ERROR:
		return -EAGAIN;
	default:
		vb_out(r, "error: rdma_cm: %s (status %d) while waiting for %s\n",
		       rdma_event_msg(a->event), a->status,
		       rdma_event_msg(want));
		return -ECONNABORTED;
	}
}

/* Start a step: its event is the next one that counts. */
static void vb_cm_arm(struct vb_cm_active *a)
{
	WRITE_ONCE(a->have_event, false);
}

static int vb_cm_connect_qp(struct vb_run *r, struct vb_cm_active *a,
			    bool last)
{
	u8 depth = vb_rd_atomic(a->id->device);
	struct vb_cm_req req = {
		.magic = cpu_to_be32(VB_CM_MAGIC),
		.flags = cpu_to_be32(last ? VB_CM_LAST : 0),
	};
	struct rdma_conn_param param = {
		.private_data = &req,
		.private_data_len = sizeof(req),
		.responder_resources = depth,
		.initiator_depth = depth,
		.retry_count = 7,
		.rnr_retry_count = 7,
	};

	vb_cm_arm(a);
	return vb_cm_wait(r, a, rdma_connect(a->id, &param),
			  RDMA_CM_EVENT_ESTABLISHED);
}

static void vb_cm_active_close(struct vb_cm_active *a)
{
	if (a->has_qp)
		vb_cm_side_free(&a->side, a->id);
	a->has_qp = false;
	rdma_destroy_id(a->id);
	a->id = NULL;
}

/* One attempt: address, route, QP, connect. */
static int vb_cm_try(struct vb_run *r, struct vb_cm_active *a,
		     struct vb_cm_target *tg, enum ib_poll_context poll,
		     bool last)
{
	int ret;

	a->id = rdma_create_id(&init_net, vb_cm_handler, a, RDMA_PS_TCP,
			       IB_QPT_RC);
	if (IS_ERR(a->id))
		return PTR_ERR(a->id);
	vb_cm_arm(a);
	ret = rdma_resolve_addr(a->id, (struct sockaddr *)&tg->src,
				(struct sockaddr *)&tg->dst, VB_CM_STEP_MS / 2);
	ret = vb_cm_wait(r, a, ret, RDMA_CM_EVENT_ADDR_RESOLVED);
	if (ret)
		goto err;
	ret = -EINVAL;
	if (!vb_cm_right_dev(r, a->id, r->dev0))
		goto err;
	vb_cm_arm(a);
	ret = rdma_resolve_route(a->id, VB_CM_STEP_MS / 2);
	ret = vb_cm_wait(r, a, ret, RDMA_CM_EVENT_ROUTE_RESOLVED);
	if (ret)
		goto err;
	ret = vb_cm_side(&a->side, a->id, poll);
	if (ret)
		goto err;
	a->has_qp = true;
	ret = vb_cm_connect_qp(r, a, last);
	if (!ret && a->rep.magic != cpu_to_be32(VB_CM_MAGIC))
		ret = -EPROTO;
	if (ret)
		goto err;
	return 0;

err:
	vb_cm_active_close(a);
	return ret;
}

static int vb_cm_connect(const struct vb_transport *t, struct vb_run *r,
			 enum ib_poll_context poll, struct vb_conn *c,
			 bool last)
{
	unsigned long end = jiffies + VB_CONNECT_RETRY_S * HZ;
	struct vb_cm_active *a;
	int ret;

	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a)
		return -ENOMEM;
	a->kind = VB_CM_ACTIVE;
	init_waitqueue_head(&a->waitq);
	for (;;) {
		ret = vb_cm_try(r, a, t->priv, poll, last);
		if (ret != -EAGAIN || time_after(jiffies, end))
			break;
		msleep(500);
	}
	if (ret) {
		if (ret == -EAGAIN)
			vb_out(r, "error: rdma_cm: %s (status %d) for %d s\n",
			       rdma_event_msg(a->event), a->status,
			       VB_CONNECT_RETRY_S);
		kfree(a);
		return ret;
	}
	c->req = &a->side;
	c->raddr = be64_to_cpu(a->rep.addr);
	c->rkey = be32_to_cpu(a->rep.rkey);
	c->priv = a;
	return 0;
}

static void vb_cm_disconnect(const struct vb_transport *t, struct vb_run *r,
			     struct vb_conn *c)
{
	struct vb_cm_active *a = c->priv;

	rdma_disconnect(a->id);
	wait_event_timeout(a->waitq, READ_ONCE(a->disconnected), 2 * HZ);
	vb_cm_active_close(a);
	kfree(a);
}

static int vb_cm_client(struct vb_run *r, __be32 src, __be32 dst, u16 port)
{
	struct vb_cm_target tg = {
		.src = { .sin_family = AF_INET, .sin_addr.s_addr = src },
		.dst = {
			.sin_family = AF_INET,
			.sin_addr.s_addr = dst,
			.sin_port = htons(port),
		},
	};
	struct vb_transport t = {
		.connect = vb_cm_connect,
		.disconnect = vb_cm_disconnect,
		.priv = &tg,
	};

	vb_out(r, "rdma_cm: %s (%s, driver %s) %pI4 to %pI4:%u\n", r->dev0,
	       r->transport, r->driver, &src, &dst, port);
	vb_rdma_run(r, &t);
	return r->err;
}

/* "client DEV PEER_IP PORT" */
int vb_cm_client_run(struct vb_run *r)
{
	__be32 src;
	int ret;

	ret = vb_name_ipv4(r, r->dev0, &src);
	if (ret)
		return ret;
	return vb_cm_client(r, src, r->peer, r->port);
}

/* "pair DEV0 DEV1" on iWARP: the server and the client in this module. */
int vb_cm_pair_run(struct vb_run *r)
{
	struct vb_cm_server *srv;
	__be32 src, dst;
	int ret;

	srv = kzalloc(sizeof(*srv), GFP_KERNEL);
	if (!srv)
		return -ENOMEM;
	strscpy(srv->dev, r->dev1, sizeof(srv->dev));
	ret = vb_name_ipv4(r, r->dev0, &src) ?:
	      vb_name_ipv4(r, r->dev1, &dst);
	if (!ret)
		ret = vb_cm_server_start(r, srv, dst, 0);
	if (ret)
		goto out;
	ret = vb_cm_client(r, src, dst, srv->port);
	vb_cm_server_stop(srv);
	if (srv->recv_errors)
		vb_out(r, "server: %lu receive error(s)\n", srv->recv_errors);
out:
	kfree(srv);
	return ret;
}
