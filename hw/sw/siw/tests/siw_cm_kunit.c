// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_siw_cm": siw's connection manager (hw/sw/siw/siw_cm*.c)
 * driven through iw_cm's API on a siw device on the loopback net device.
 * One device is both sides: it listens on 127.0.0.1 and connects to
 * itself, as upstream siw allows (the rdma_cm cases also over ::1, a
 * global IPv6 address and an IPv6 wildcard listener).  The QPs are RC QPs of the device;
 * the data path may not move bytes yet: the checks are on the events,
 * their private data and IRD/ORD, the QP states the CM sets, and that
 * everything closes (the VM run's kmemleak sees leaks).  Each id's
 * event_handler (iw_cm's way in for the driver) is wrapped to see the
 * driver's own events in their order, DISCONNECT included (iw_cm does
 * not pass that one on).
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/inet.h>
#include <linux/net.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/tcp.h>
#include <linux/if_addr.h>
#include <linux/netlink.h>
#include <linux/unaligned.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include <rdma/ib_verbs.h>
#include <rdma/iw_cm.h>
#include <rdma/rdma_cm.h>

#include "../siw.h"
#include "../siw_cm.h"
#include "../siw_qp.h"
/*
 * siw's protocol layer is pure functions over buffers: this suite builds
 * its own copy of it, so siw exports none of it.
 */
#include "../siw_fpdu.c"
#include "../siw_mpa.c"
#include "../siw_term.c"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define EV_MAX		16
#define EV_WAIT		(15 * HZ)
#define PORT_BASE	30100

/* one event as the consumer saw it */
struct ev_rec {
	struct iw_cm_id		*id;
	enum iw_cm_event_type	type;
	int			status;
	u8			pdata[256];
	int			len;
	u8			ird;
	u8			ord;
	bool			taken;
};

/* the consumer: every id of a test shares it */
struct cm_log {
	spinlock_t		lock;	/* protects ev, n */
	struct ev_rec		ev[EV_MAX];
	int			n;
	wait_queue_head_t	wq;
};

struct cma_log;

struct fx {
	struct kunit		*test;
	struct cm_log		drv;
	iw_event_handler	iwcm_handler;
	struct net_device	*lo;
	struct ib_device	*ibdev;
	struct ib_pd		*pd;
	struct ib_cq		*cq;
	struct ib_qp		*qp[2];	/* [0] active, [1] passive */
	struct iw_cm_id		*ids[8];
	int			nr_ids;
	struct cm_log		log;
	struct ib_client	client;
	bool			registered;
	bool			removed;
	struct siw_mpa_policy	saved_policy;
	struct cma_log		*cma;	/* rdma_cm ids to release */
	/* siw's iw_destroy_listen, while a case wraps it */
	int			(*destroy_listen)(struct iw_cm_id *cm_id);
	struct iw_cm_id		*racer;	/* what the wrapper connects */
	u16			race_port;
};

static void log_add(struct cm_log *log, struct iw_cm_id *id,
		    struct iw_cm_event *ev)
{
	struct ev_rec *r;
	unsigned long flags;

	spin_lock_irqsave(&log->lock, flags);
	if (log->n < EV_MAX) {
		r = &log->ev[log->n++];
		r->id = id;
		r->type = ev->event;
		r->status = ev->status;
		r->len = ev->private_data_len;
		memcpy(r->pdata, ev->private_data, ev->private_data_len);
		r->ird = ev->ird;
		r->ord = ev->ord;
	}
	spin_unlock_irqrestore(&log->lock, flags);
	wake_up_all(&log->wq);
}

static int cm_handler(struct iw_cm_id *id, struct iw_cm_event *ev)
{
	log_add(id->context, id, ev);
	return 0;
}

/* The driver's report, seen on its way into iw_cm (any context) */
static int drv_spy(struct iw_cm_id *id, struct iw_cm_event *ev)
{
	struct fx *fx = container_of(id->context, struct fx, log);

	log_add(&fx->drv, id, ev);
	return fx->iwcm_handler(id, ev);
}

static void spy_on(struct fx *fx, struct iw_cm_id *id)
{
	fx->iwcm_handler = id->event_handler;
	id->event_handler = drv_spy;
}

/* The types of the driver's events on @id, in order; how many */
static int drv_seq(struct fx *fx, struct iw_cm_id *id, int *types, int max)
{
	unsigned long flags;
	int i, n = 0;

	spin_lock_irqsave(&fx->drv.lock, flags);
	for (i = 0; i < fx->drv.n && n < max; i++)
		if (fx->drv.ev[i].id == id)
			types[n++] = fx->drv.ev[i].type;
	spin_unlock_irqrestore(&fx->drv.lock, flags);
	return n;
}

/* The driver reported exactly @first, DISCONNECT, CLOSE on @id */
static void expect_closed(struct fx *fx, struct iw_cm_id *id, int first)
{
	int t[8], n;

	n = drv_seq(fx, id, t, ARRAY_SIZE(t));
	KUNIT_ASSERT_EQ(fx->test, n, 3);
	KUNIT_EXPECT_EQ(fx->test, t[0], first);
	KUNIT_EXPECT_EQ(fx->test, t[1], IW_CM_EVENT_DISCONNECT);
	KUNIT_EXPECT_EQ(fx->test, t[2], IW_CM_EVENT_CLOSE);
}

/* The first event of @type on @id (any id for NULL) not waited for yet */
static struct ev_rec *ev_find(struct cm_log *log, struct iw_cm_id *id,
			      enum iw_cm_event_type type)
{
	struct ev_rec *found = NULL;
	unsigned long flags;
	int i;

	spin_lock_irqsave(&log->lock, flags);
	for (i = 0; i < log->n && !found; i++)
		if (log->ev[i].type == type && !log->ev[i].taken &&
		    (!id || log->ev[i].id == id))
			found = &log->ev[i];
	if (found)
		found->taken = true;
	spin_unlock_irqrestore(&log->lock, flags);
	return found;
}

static struct ev_rec *ev_wait(struct fx *fx, struct iw_cm_id *id,
			      enum iw_cm_event_type type)
{
	struct ev_rec *r = NULL;

	wait_event_timeout(fx->log.wq, (r = ev_find(&fx->log, id, type)),
			   EV_WAIT);
	return r;
}

static int ev_count(struct cm_log *log)
{
	unsigned long flags;
	int n;

	spin_lock_irqsave(&log->lock, flags);
	n = log->n;
	spin_unlock_irqrestore(&log->lock, flags);
	return n;
}

static void addr_lo(struct sockaddr_storage *ss, u16 port)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin->sin_port = htons(port);
}

static struct iw_cm_id *new_id(struct fx *fx)
{
	struct iw_cm_id *id = iw_create_cm_id(fx->ibdev, cm_handler, &fx->log);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(fx->test, id);
	spy_on(fx, id);
	fx->ids[fx->nr_ids++] = id;
	return id;
}

/* Forget @id (the test destroyed it, or iw_cm will). */
static void drop_id(struct fx *fx, struct iw_cm_id *id)
{
	int i;

	for (i = 0; i < fx->nr_ids; i++)
		if (fx->ids[i] == id)
			fx->ids[i] = NULL;
}

static struct iw_cm_id *listen_on(struct fx *fx, u16 port)
{
	struct iw_cm_id *id = new_id(fx);

	addr_lo(&id->local_addr, port);
	KUNIT_ASSERT_EQ(fx->test, iw_cm_listen(id, 4), 0);
	return id;
}

static int connect_to(struct fx *fx, struct iw_cm_id *id, u16 port,
		      const void *pd, u16 len)
{
	struct iw_cm_conn_param p = {
		.private_data = pd,
		.private_data_len = len,
		.ird = 4,
		.ord = 4,
		.qpn = fx->qp[0]->qp_num,
	};

	addr_lo(&id->local_addr, 0);
	addr_lo(&id->remote_addr, port);
	return iw_cm_connect(id, &p);
}

static enum ib_qp_state qp_state(struct ib_qp *qp)
{
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr;

	if (ib_query_qp(qp, &attr, IB_QP_STATE, &init))
		return -1;
	return attr.qp_state;
}

/* INIT, then RTR, with iw_cm's attributes (as rdma_cm does). */
static void qp_ready(struct fx *fx, struct ib_qp *qp)
{
	struct ib_qp_attr attr = {};
	int mask;

	attr.qp_state = IB_QPS_INIT;
	mask = IB_QP_STATE | IB_QP_ACCESS_FLAGS;
	attr.qp_access_flags = IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ;
	KUNIT_ASSERT_EQ(fx->test, ib_modify_qp(qp, &attr, mask), 0);
	attr.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(fx->test, ib_modify_qp(qp, &attr, mask), 0);
}

/* Everything a test made, in the order a consumer frees it. */
static void fx_release(struct fx *fx)
{
	int i;

	for (i = 0; i < fx->nr_ids; i++) {
		if (fx->ids[i])
			iw_destroy_cm_id(fx->ids[i]);
		fx->ids[i] = NULL;
	}
	for (i = 0; i < 2; i++) {
		if (fx->qp[i])
			ib_destroy_qp(fx->qp[i]);
		fx->qp[i] = NULL;
	}
	if (fx->cq)
		ib_free_cq(fx->cq);
	fx->cq = NULL;
	if (fx->pd)
		ib_dealloc_pd(fx->pd);
	fx->pd = NULL;
}

static int fx_client_add(struct ib_device *ibdev)
{
	return 0;
}

/* The device goes: release what we have on it, as rdma_cm would. */
static void fx_client_remove(struct ib_device *ibdev, void *data)
{
	struct fx *fx = data;

	if (!fx || ibdev != fx->ibdev)
		return;
	fx_release(fx);
	fx->removed = true;
}

static int siw_cm_test_init(struct kunit *test)
{
	struct ib_qp_init_attr qa = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct fx *fx;
	int i, ret;

	fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fx);
	test->priv = fx;
	fx->test = test;
	/* the MPA module parameters as loaded; a case may change them */
	fx->saved_policy = siw_mpa_policy;
	spin_lock_init(&fx->log.lock);
	init_waitqueue_head(&fx->log.wq);
	spin_lock_init(&fx->drv.lock);
	init_waitqueue_head(&fx->drv.wq);

	fx->lo = dev_get_by_name(&init_net, "lo");
	KUNIT_ASSERT_NOT_NULL(test, fx->lo);
	rtnl_lock();
	ret = (fx->lo->flags & IFF_UP) ? 0 : dev_open(fx->lo, NULL);
	rtnl_unlock();
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_EQ(test, siw_test.device_add("siw_kunit_lo", fx->lo), 0);
	fx->ibdev = ib_device_get_by_netdev(fx->lo, RDMA_DRIVER_SIW);
	KUNIT_ASSERT_NOT_NULL(test, fx->ibdev);

	fx->client.name = "siw_cm_kunit";
	fx->client.add = fx_client_add;
	fx->client.remove = fx_client_remove;
	ret = ib_register_client(&fx->client);
	if (ret) {
		ib_unregister_device_and_put(fx->ibdev);
		fx->ibdev = NULL;
	}
	KUNIT_ASSERT_EQ(test, ret, 0);
	fx->registered = true;
	ib_set_client_data(fx->ibdev, &fx->client, fx);

	/* the global rkey lets the rdma_cm case WRITE and READ plain buffers */
	fx->pd = ib_alloc_pd(fx->ibdev, IB_PD_UNSAFE_GLOBAL_RKEY);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fx->pd);
	fx->cq = ib_alloc_cq(fx->ibdev, NULL, 64, 0, IB_POLL_DIRECT);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fx->cq);
	qa.send_cq = fx->cq;
	qa.recv_cq = fx->cq;
	for (i = 0; i < 2; i++) {
		fx->qp[i] = ib_create_qp(fx->pd, &qa);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fx->qp[i]);
		qp_ready(fx, fx->qp[i]);
	}
	return 0;
}

static void cma_release(struct cma_log *log);

static void siw_cm_test_exit(struct kunit *test)
{
	struct fx *fx = test->priv;

	if (!fx)
		return;
	/* rdma_cm ids a failed case left would hold the device */
	if (fx->cma)
		cma_release(fx->cma);
	/* our client's remove releases what the test left */
	if (fx->ibdev && !fx->removed)
		ib_unregister_device_and_put(fx->ibdev);
	if (fx->registered)
		ib_unregister_client(&fx->client);
	if (fx->lo)
		dev_put(fx->lo);
	siw_mpa_policy = fx->saved_policy;
}

/* Connect, answer the request with accept; returns the passive id. */
static struct iw_cm_id *establish(struct fx *fx, struct iw_cm_id *act,
				  u16 port, const u8 *pd_req,
				  const u8 *pd_rep, u16 len)
{
	struct kunit *test = fx->test;
	struct iw_cm_conn_param p = {
		.private_data = pd_rep,
		.private_data_len = len,
		.ird = 8,
		.ord = 8,
		.qpn = fx->qp[1]->qp_num,
	};
	struct ev_rec *r;

	KUNIT_ASSERT_EQ(test, connect_to(fx, act, port, pd_req, len), 0);
	r = ev_wait(fx, NULL, IW_CM_EVENT_CONNECT_REQUEST);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->status, 0);
	KUNIT_ASSERT_EQ(test, r->len, len);
	if (len)
		KUNIT_EXPECT_MEMEQ(test, r->pdata, pd_req, len);
	/* our request's IRD/ORD, proposed back: 4/4 */
	KUNIT_EXPECT_EQ(test, r->ird, 4);
	KUNIT_EXPECT_EQ(test, r->ord, 4);
	fx->ids[fx->nr_ids++] = r->id;
	spy_on(fx, r->id);
	KUNIT_ASSERT_EQ(test, iw_cm_accept(r->id, &p), 0);
	KUNIT_ASSERT_NOT_NULL(test, ev_wait(fx, r->id,
					    IW_CM_EVENT_ESTABLISHED));
	r = ev_wait(fx, act, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_EQ(test, r->status, 0);
	KUNIT_ASSERT_EQ(test, r->len, len);
	if (len)
		KUNIT_EXPECT_MEMEQ(test, r->pdata, pd_rep, len);
	return fx->ids[fx->nr_ids - 1];
}

static const u16 pd_sizes[] = { 0, 1, 252 };

static void pd_size_desc(const u16 *v, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u bytes", *v);
}

KUNIT_ARRAY_PARAM(pd_size, pd_sizes, pd_size_desc);

/* Private data both ways, QPs in RTS, graceful close from the active side */
static void siw_cm_connect_accept(struct kunit *test)
{
	struct fx *fx = test->priv;
	u16 len = *(const u16 *)test->param_value;
	u8 *req, *rep;
	struct iw_cm_id *act, *pas;
	struct ev_rec *r;
	int i;

	req = kunit_kmalloc(test, 256, GFP_KERNEL);
	rep = kunit_kmalloc(test, 256, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, req);
	KUNIT_ASSERT_NOT_NULL(test, rep);
	for (i = 0; i < 256; i++) {
		req[i] = i ^ 0x5a;
		rep[i] = 255 - i;
	}
	listen_on(fx, PORT_BASE + len);
	act = new_id(fx);
	pas = establish(fx, act, PORT_BASE + len, req, rep, len);
	KUNIT_EXPECT_EQ(test, qp_state(fx->qp[0]), IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, qp_state(fx->qp[1]), IB_QPS_RTS);

	KUNIT_ASSERT_EQ(test, iw_cm_disconnect(act, 0), 0);
	r = ev_wait(fx, act, IW_CM_EVENT_CLOSE);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->status, 0);
	r = ev_wait(fx, pas, IW_CM_EVENT_CLOSE);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->status, 0);
	expect_closed(fx, act, IW_CM_EVENT_CONNECT_REPLY);
	expect_closed(fx, pas, IW_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, qp_state(fx->qp[0]), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, qp_state(fx->qp[1]), IB_QPS_ERR);
}

/* Private data beyond what an MPA v2 frame takes: refused at once */
static void siw_cm_pdata_too_long(struct kunit *test)
{
	struct fx *fx = test->priv;
	static const u8 pd[253];
	struct iw_cm_id *act = new_id(fx);

	KUNIT_EXPECT_EQ(test, connect_to(fx, act, PORT_BASE + 300, pd,
					 sizeof(pd)), -EINVAL);
	KUNIT_EXPECT_EQ(test, ev_count(&fx->log), 0);
	KUNIT_EXPECT_EQ(test, ev_count(&fx->drv), 0);
	/* the id and the QP are free again */
	listen_on(fx, PORT_BASE + 300);
	establish(fx, act, PORT_BASE + 300, pd, pd, 252);
}

/* An abrupt disconnect from the passive side closes both */
static void siw_cm_disconnect_passive(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct iw_cm_id *act, *pas;
	struct ev_rec *r;

	listen_on(fx, PORT_BASE + 301);
	act = new_id(fx);
	pas = establish(fx, act, PORT_BASE + 301, NULL, NULL, 0);
	KUNIT_ASSERT_EQ(test, iw_cm_disconnect(pas, 1), 0);
	r = ev_wait(fx, pas, IW_CM_EVENT_CLOSE);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->status, 0);
	r = ev_wait(fx, act, IW_CM_EVENT_CLOSE);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->status, 0);
	expect_closed(fx, act, IW_CM_EVENT_CONNECT_REPLY);
	expect_closed(fx, pas, IW_CM_EVENT_ESTABLISHED);
}

/* A reject's private data reach the initiator with -ECONNREFUSED */
static void siw_cm_reject(struct kunit *test)
{
	struct fx *fx = test->priv;
	static const u8 why[] = "not today";
	struct iw_cm_id *act;
	struct ev_rec *r;

	listen_on(fx, PORT_BASE + 302);
	act = new_id(fx);
	KUNIT_ASSERT_EQ(test, connect_to(fx, act, PORT_BASE + 302, "hi", 2),
			0);
	r = ev_wait(fx, NULL, IW_CM_EVENT_CONNECT_REQUEST);
	KUNIT_ASSERT_NOT_NULL(test, r);
	fx->ids[fx->nr_ids++] = r->id;
	KUNIT_ASSERT_EQ(test, iw_cm_reject(r->id, why, sizeof(why)), 0);
	r = ev_wait(fx, act, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->status, -ECONNREFUSED);
	KUNIT_ASSERT_EQ(test, r->len, sizeof(why));
	KUNIT_EXPECT_MEMEQ(test, r->pdata, why, sizeof(why));
	/* the id and the QP are free for another connection */
	listen_on(fx, PORT_BASE + 303);
	establish(fx, act, PORT_BASE + 303, NULL, NULL, 0);
}

/*
 * The connect request reports the initiator's offer: its IRD (6) as the
 * event's ird (rdma_cm's initiator_depth: how many READs the passive
 * side may have in flight), its ORD (2) as the event's ord.
 */
static void siw_cm_request_ird_ord(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct iw_cm_conn_param p = {
		.ird = 6,
		.ord = 2,
		.qpn = fx->qp[0]->qp_num,
	};
	struct iw_cm_id *act;
	struct ev_rec *r;

	listen_on(fx, PORT_BASE + 336);
	act = new_id(fx);
	addr_lo(&act->local_addr, 0);
	addr_lo(&act->remote_addr, PORT_BASE + 336);
	KUNIT_ASSERT_EQ(test, iw_cm_connect(act, &p), 0);
	r = ev_wait(fx, NULL, IW_CM_EVENT_CONNECT_REQUEST);
	KUNIT_ASSERT_NOT_NULL(test, r);
	fx->ids[fx->nr_ids++] = r->id;
	KUNIT_EXPECT_EQ(test, r->ird, 6);
	KUNIT_EXPECT_EQ(test, r->ord, 2);
	KUNIT_ASSERT_EQ(test, iw_cm_reject(r->id, NULL, 0), 0);
	r = ev_wait(fx, act, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->status, -ECONNREFUSED);
}

/* Nobody listens: the TCP reset refuses the connection */
static void siw_cm_no_listener(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct iw_cm_id *act = new_id(fx);
	struct ev_rec *r;

	KUNIT_ASSERT_EQ(test, connect_to(fx, act, PORT_BASE + 304, NULL, 0),
			0);
	r = ev_wait(fx, act, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->status, -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, r->len, 0);
}

/*
 * A port the port mapper handed out is held by iwpmd: a socket bound to
 * it (wildcard address, no SO_REUSEADDR) that does not listen.  siw
 * listens on it all the same when it is the id's mapped port; the same
 * port as the id's own, not mapped, is refused as taken.
 */
static void siw_cm_mapped_port(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct sockaddr_in *sin;
	struct sockaddr_storage ss = {};
	struct socket *holder;
	struct iw_cm_id *id;
	u16 port;
	int ret;

	sin = (struct sockaddr_in *)&ss;
	sin->sin_family = AF_INET;
	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_INET,
					       SOCK_STREAM, IPPROTO_TCP,
					       &holder), 0);
	ret = kernel_bind(holder, (struct sockaddr *)&ss, sizeof(*sin));
	if (!ret)
		ret = kernel_getsockname(holder, (struct sockaddr *)&ss);
	if (ret < 0) {
		sock_release(holder);
		KUNIT_FAIL(test, "holder socket: %d", ret);
		return;
	}
	port = ntohs(sin->sin_port);

	id = new_id(fx);
	addr_lo(&id->local_addr, port);
	id->m_local_addr = id->local_addr;
	KUNIT_EXPECT_EQ(test, fx->ibdev->ops.iw_create_listen(id, 4),
			-EADDRINUSE);

	addr_lo(&id->local_addr, PORT_BASE + 310);
	addr_lo(&id->m_local_addr, port);
	ret = fx->ibdev->ops.iw_create_listen(id, 4);
	KUNIT_EXPECT_EQ(test, ret, 0);
	if (!ret)
		KUNIT_EXPECT_EQ(test, fx->ibdev->ops.iw_destroy_listen(id), 0);
	sock_release(holder);
}

/* A raw TCP client of 127.0.0.1:@port */
static struct socket *raw_client(struct kunit *test, u16 port)
{
	struct sockaddr_storage ss;
	struct socket *sock;

	addr_lo(&ss, port);
	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_INET,
					       SOCK_STREAM, IPPROTO_TCP,
					       &sock), 0);
	sock->sk->sk_rcvtimeo = 5 * HZ;
	if (kernel_connect(sock, (struct sockaddr *)&ss,
			   sizeof(struct sockaddr_in), 0)) {
		sock_release(sock);
		KUNIT_FAIL(test, "raw connect failed");
		return NULL;
	}
	return sock;
}

/* What the server does to a raw client: 0 when it closed the stream */
static int raw_wait_close(struct socket *sock)
{
	struct kvec iov;
	struct msghdr msg = {};
	u8 buf[64];

	iov.iov_base = buf;
	iov.iov_len = sizeof(buf);
	return kernel_recvmsg(sock, &msg, &iov, 1, sizeof(buf), 0);
}

/* A listener gone with a connection in each stage of its setup */
static void siw_cm_listener_destroyed(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct iw_cm_id *lid, *act, *req_id;
	struct socket *raw;
	struct ev_rec *r;

	lid = listen_on(fx, PORT_BASE + 305);
	/* one reported and unanswered, one silent in its MPA request */
	act = new_id(fx);
	KUNIT_ASSERT_EQ(test, connect_to(fx, act, PORT_BASE + 305, NULL, 0),
			0);
	r = ev_wait(fx, NULL, IW_CM_EVENT_CONNECT_REQUEST);
	KUNIT_ASSERT_NOT_NULL(test, r);
	req_id = r->id;
	raw = raw_client(test, PORT_BASE + 305);
	KUNIT_ASSERT_NOT_NULL(test, raw);
	msleep(100);

	drop_id(fx, lid);
	iw_destroy_cm_id(lid);
	/* the silent one is closed at once, not after the MPA timeout */
	KUNIT_EXPECT_EQ(test, raw_wait_close(raw), 0);
	sock_release(raw);
	/* the reported one is its id's: destroying it rejects */
	iw_destroy_cm_id(req_id);
	r = ev_wait(fx, act, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->status, -ECONNREFUSED);
	/* the port is free again */
	listen_on(fx, PORT_BASE + 305);
}

/* Bytes that are no MPA request: closed; the listener goes on */
static void siw_cm_garbage(struct kunit *test)
{
	static const char junk[] = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
	struct fx *fx = test->priv;
	struct iw_cm_id *act;
	struct socket *raw;
	struct kvec iov = { .iov_base = (void *)junk,
			    .iov_len = sizeof(junk) - 1 };
	struct msghdr msg = {};
	int ret;

	listen_on(fx, PORT_BASE + 306);
	raw = raw_client(test, PORT_BASE + 306);
	KUNIT_ASSERT_NOT_NULL(test, raw);
	KUNIT_EXPECT_EQ(test, kernel_sendmsg(raw, &msg, &iov, 1,
					     iov.iov_len), iov.iov_len);
	/* a FIN, or a reset for the bytes it did not read: not a timeout */
	ret = raw_wait_close(raw);
	KUNIT_EXPECT_TRUE_MSG(test, ret == 0 || ret == -ECONNRESET,
			      "the server did not close: %d", ret);
	sock_release(raw);
	KUNIT_EXPECT_EQ(test, ev_count(&fx->log), 0);
	act = new_id(fx);
	establish(fx, act, PORT_BASE + 306, NULL, NULL, 0);
}

/*
 * The device goes with a listener, an established connection and a
 * connection still in its MPA setup.  Our client releases what it has
 * as rdma_cm would; the QP first here: destroying a QP closes its
 * connection, and CLOSE reaches both ids before the QP is gone.
 */
static void siw_cm_device_removed(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct iw_cm_id *act, *pas, *act2;
	struct socket *raw;
	struct ev_rec *r;

	listen_on(fx, PORT_BASE + 307);
	act = new_id(fx);
	pas = establish(fx, act, PORT_BASE + 307, NULL, NULL, 0);
	/* a QP carries one connection */
	act2 = new_id(fx);
	KUNIT_EXPECT_EQ(test, connect_to(fx, act2, PORT_BASE + 307, NULL, 0),
			-EINVAL);
	raw = raw_client(test, PORT_BASE + 307);
	KUNIT_ASSERT_NOT_NULL(test, raw);

	ib_destroy_qp(fx->qp[0]);
	fx->qp[0] = NULL;
	r = ev_wait(fx, act, IW_CM_EVENT_CLOSE);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->status, 0);
	r = ev_wait(fx, pas, IW_CM_EVENT_CLOSE);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->status, 0);

	/* the rest (listener, ids, QP 1, CQ, PD) goes with the device */
	ib_unregister_device_and_put(fx->ibdev);
	KUNIT_EXPECT_TRUE(test, fx->removed);
	KUNIT_EXPECT_EQ(test, raw_wait_close(raw), 0);
	sock_release(raw);
}

/* The endpoints the device has, whatever their state. */
static int ceps_of(struct fx *fx)
{
	struct siw_device *sdev = to_siw_dev(fx->ibdev);
	struct siw_cep *cep;
	int n = 0;

	spin_lock_bh(&sdev->cep_lock);
	list_for_each_entry(cep, &sdev->ceps, dev_entry)
		n++;
	spin_unlock_bh(&sdev->cep_lock);
	return n;
}

/* ceps_of(fx) once it is @want, or after EV_WAIT */
static int wait_ceps(struct fx *fx, int want)
{
	unsigned long end = jiffies + EV_WAIT;

	while (ceps_of(fx) != want && !time_after(jiffies, end))
		usleep_range(1000, 2000);
	return ceps_of(fx);
}

/* The driver's events of @type on @id so far */
static int drv_count(struct fx *fx, struct iw_cm_id *id, int type)
{
	int t[EV_MAX], i, n, found = 0;

	n = drv_seq(fx, id, t, ARRAY_SIZE(t));
	for (i = 0; i < n; i++)
		found += t[i] == type;
	return found;
}

/*
 * siw's iw_destroy_listen, wrapped: before siw stops listening (iw_cm
 * has begun the destroy and drops the listener's events), a peer
 * connects and siw reports its request on the listener.
 */
static int destroy_listen_racing(struct iw_cm_id *cm_id)
{
	struct fx *fx = container_of(cm_id->context, struct fx, log);

	if (!connect_to(fx, fx->racer, fx->race_port, NULL, 0))
		wait_event_timeout(fx->drv.wq,
				   drv_count(fx, cm_id,
					     IW_CM_EVENT_CONNECT_REQUEST),
				   EV_WAIT);
	return fx->destroy_listen(cm_id);
}

/*
 * A request siw reports while its listener is being destroyed (issue
 * 25, defect 4): iw_cm rejects it, so the peer hears a refusal at once
 * and siw lets go of the endpoint; before, the request stayed with siw
 * (the endpoint and its reference) until the device went, and the peer
 * waited for the MPA timeout.
 */
static void siw_cm_request_during_listener_destroy(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct iw_cm_id *lid;
	struct ev_rec *r;

	fx->race_port = PORT_BASE + 341;
	lid = listen_on(fx, fx->race_port);
	fx->racer = new_id(fx);
	fx->destroy_listen = fx->ibdev->ops.iw_destroy_listen;
	fx->ibdev->ops.iw_destroy_listen = destroy_listen_racing;
	drop_id(fx, lid);
	iw_destroy_cm_id(lid);
	fx->ibdev->ops.iw_destroy_listen = fx->destroy_listen;
	KUNIT_ASSERT_EQ(test, drv_count(fx, lid, IW_CM_EVENT_CONNECT_REQUEST),
			1);
	/* nobody heard of it but the peer: refused by an MPA reject */
	KUNIT_EXPECT_NULL(test, ev_find(&fx->log, NULL,
					IW_CM_EVENT_CONNECT_REQUEST));
	r = ev_wait(fx, fx->racer, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->status, -ECONNREFUSED);
	/* and every endpoint is gone: the listener, both of the connection */
	KUNIT_EXPECT_EQ_MSG(test, wait_ceps(fx, 0), 0,
			    "the refused request's endpoint stays");
}

/*
 * An endpoint still referenced when its device goes (issue 25, defect
 * 6): here the test's own reference on the listener's endpoint, standing
 * for any late holder.  The device's end closes the endpoint and does
 * not wait for the reference; the device's memory stays until the
 * endpoint lets go.  The endpoint's release, after the device was
 * unregistered and every RCU callback ran, must find nothing freed
 * (KASAN sees it otherwise).
 */
static void siw_cm_device_end_endpoint_held(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct iw_cm_id *lid = listen_on(fx, PORT_BASE + 340);
	struct siw_cep *cep = lid->provider_data;

	KUNIT_ASSERT_NOT_NULL(test, cep);
	siw_test.cep_get(cep);
	ib_unregister_device_and_put(fx->ibdev);
	KUNIT_EXPECT_TRUE(test, fx->removed);
	/* closed: it holds no socket, no id, no QP of the device any more */
	KUNIT_EXPECT_EQ(test, cep->state, SIW_CEP_CLOSED);
	KUNIT_EXPECT_NULL(test, cep->sock);
	KUNIT_EXPECT_NULL(test, cep->cm_id);
	KUNIT_EXPECT_NULL(test, cep->qp);
	/* what the device's end freed (kfree_rcu() included) is gone now */
	rcu_barrier();
	kvfree_rcu_barrier();
	siw_test.cep_put(cep);
}

/* ---- the MPA module parameters, against a peer the test plays ---- */

static void raw_release(void *sock)
{
	sock_release(sock);
}

/* A TCP listener on 127.0.0.1:@port, released with the test. */
static struct socket *raw_listen(struct kunit *test, u16 port)
{
	struct sockaddr_storage ss;
	struct socket *sock;

	addr_lo(&ss, port);
	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_INET,
					       SOCK_STREAM, IPPROTO_TCP,
					       &sock), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, raw_release,
							sock), 0);
	sock_set_reuseaddr(sock->sk);
	KUNIT_ASSERT_EQ(test, kernel_bind(sock, (struct sockaddr *)&ss,
					  sizeof(struct sockaddr_in)), 0);
	KUNIT_ASSERT_EQ(test, kernel_listen(sock, 2), 0);
	return sock;
}

/* The connection siw made to @l, released with the test. */
static struct socket *raw_accept(struct kunit *test, struct socket *l)
{
	struct socket *sock;

	l->sk->sk_rcvtimeo = 5 * HZ;
	KUNIT_ASSERT_EQ(test, kernel_accept(l, &sock, 0), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, raw_release,
							sock), 0);
	sock->sk->sk_rcvtimeo = 5 * HZ;
	return sock;
}

static void raw_send_bytes(struct kunit *test, struct socket *sock,
			   const void *buf, int len)
{
	struct kvec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr msg = { .msg_flags = MSG_NOSIGNAL };

	KUNIT_ASSERT_EQ(test, kernel_sendmsg(sock, &msg, &iov, 1, len), len);
}

static int raw_recv_bytes(struct socket *sock, void *buf, int len)
{
	struct kvec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = {};
	int ret;

	ret = kernel_recvmsg(sock, &msg, &iov, 1, len, MSG_WAITALL);
	return ret == len ? 0 : (ret < 0 ? ret : -ENODATA);
}

/* A buffer for one MPA frame, freed with the test. */
static u8 *frame_buf(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, SIW_MPA_MAX_FRAME, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	return buf;
}

/* One MPA frame from siw into @buf (SIW_MPA_MAX_FRAME), parsed. */
static void raw_read_frame(struct kunit *test, struct socket *sock, u8 *buf,
			   bool reply, struct siw_mpa_frame *f)
{
	u16 pd_len;

	KUNIT_ASSERT_EQ(test, raw_recv_bytes(sock, buf, sizeof(struct mpa_rr)),
			0);
	pd_len = get_unaligned_be16(buf + MPA_KEY_SIZE + 2);
	KUNIT_ASSERT_LE(test, pd_len, SIW_MPA_RFC_MAX_PRIVDATA);
	if (pd_len)
		KUNIT_ASSERT_EQ(test, raw_recv_bytes(sock, buf +
						     sizeof(struct mpa_rr),
						     pd_len), 0);
	KUNIT_ASSERT_EQ(test, siw_mpa_parse(buf, sizeof(struct mpa_rr) + pd_len,
					    reply, f, NULL),
			(int)(sizeof(struct mpa_rr) + pd_len));
}

/* The defaults, as the module parameters leave them. */
static struct siw_mpa_policy raw_policy(void)
{
	return (struct siw_mpa_policy) {
		.version = MPA_REVISION_2,
		.rtr_offer = SIW_RTR_WRITE | SIW_RTR_READ,
		.max_ird = SIW_MAX_IRD_QP,
		.max_ord = SIW_MAX_ORD_QP,
	};
}

/*
 * siw connects to a listener of the test, which reads the request into
 * @f (buffer @buf) and returns its end of the connection.
 */
static struct socket *raw_take_request(struct fx *fx, struct iw_cm_id *act,
				       u16 port, u8 *buf,
				       struct siw_mpa_frame *f)
{
	struct kunit *test = fx->test;
	struct socket *l = raw_listen(test, port);
	struct socket *sock;

	KUNIT_ASSERT_EQ(test, connect_to(fx, act, port, "req", 3), 0);
	sock = raw_accept(test, l);
	raw_read_frame(test, sock, buf, false, f);
	return sock;
}

/* Answer request @f on @sock as @pol says, CRC forced to @crc. */
static void raw_reply(struct kunit *test, struct socket *sock,
		      const struct siw_mpa_policy *pol,
		      const struct siw_mpa_frame *f, bool crc)
{
	struct siw_mpa_result res;
	u8 *rep = frame_buf(test);
	int len;

	KUNIT_ASSERT_EQ(test, siw_mpa_check_req(pol, f, &res, NULL), 0);
	res.crc = crc;
	len = siw_mpa_build_rep(pol, &res, 4, 4, "rep", 3, rep,
				SIW_MPA_MAX_TX_FRAME);
	KUNIT_ASSERT_GT(test, len, 0);
	raw_send_bytes(test, sock, rep, len);
}

static const u8 mpa_versions[] = { 1, 2 };

static void mpa_version_desc(const u8 *v, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "mpa_version=%u", *v);
}

KUNIT_ARRAY_PARAM(mpa_version, mpa_versions, mpa_version_desc);

/*
 * mpa_version: the initiator asks for revision 1 (no setup data) or 2
 * (IRD/ORD setup data), and connects with a reply in that revision.
 */
static void siw_cm_mpa_version(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct siw_mpa_policy pol = raw_policy();
	u8 v = *(const u8 *)test->param_value;
	struct iw_cm_id *act = new_id(fx);
	u8 *buf = frame_buf(test);
	struct siw_mpa_frame f;
	struct socket *sock;
	struct ev_rec *r;

	siw_mpa_policy.version = v;
	sock = raw_take_request(fx, act, PORT_BASE + 310 + v, buf, &f);
	KUNIT_EXPECT_EQ(test, f.revision, v);
	KUNIT_EXPECT_EQ(test, f.enhanced, v == 2);
	KUNIT_EXPECT_FALSE(test, f.bits & (SIW_MPA_FLAG_CRC |
					   SIW_MPA_FLAG_MARKERS));
	KUNIT_ASSERT_EQ(test, f.pdata_len, 3);
	KUNIT_EXPECT_MEMEQ(test, f.pdata, "req", 3);
	if (v == 2) {
		KUNIT_EXPECT_EQ(test, f.ird, 4);
		KUNIT_EXPECT_EQ(test, f.ord, 4);
		KUNIT_EXPECT_EQ(test, f.ird_flags, 0);
		KUNIT_EXPECT_EQ(test, f.ord_flags, 0);
	}
	raw_reply(test, sock, &pol, &f, false);
	r = ev_wait(fx, act, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->status, 0);
	KUNIT_ASSERT_EQ(test, r->len, 3);
	KUNIT_EXPECT_MEMEQ(test, r->pdata, "rep", 3);
	KUNIT_EXPECT_EQ(test, qp_state(fx->qp[0]), IB_QPS_RTS);
}

/*
 * The initiator's CRC policy: mpa_crc_required asks for CRC and refuses
 * a reply without it; mpa_crc_strict refuses a reply that sets it.
 * Both report CONNECT_REPLY -ECONNREFUSED, as upstream's.
 */
static void siw_cm_crc_initiator(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct siw_mpa_policy pol = raw_policy();
	u8 *buf = frame_buf(test);
	struct iw_cm_id *act;
	struct siw_mpa_frame f;
	struct socket *sock;
	struct ev_rec *r;

	siw_mpa_policy.crc_required = true;
	act = new_id(fx);
	sock = raw_take_request(fx, act, PORT_BASE + 313, buf, &f);
	KUNIT_EXPECT_TRUE(test, f.bits & SIW_MPA_FLAG_CRC);
	raw_reply(test, sock, &pol, &f, false);
	r = ev_wait(fx, act, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->status, -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, raw_wait_close(sock), 0);

	siw_mpa_policy.crc_required = false;
	siw_mpa_policy.crc_strict = true;
	act = new_id(fx);
	sock = raw_take_request(fx, act, PORT_BASE + 314, buf, &f);
	KUNIT_EXPECT_FALSE(test, f.bits & SIW_MPA_FLAG_CRC);
	raw_reply(test, sock, &pol, &f, true);
	r = ev_wait(fx, act, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->status, -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, raw_wait_close(sock), 0);
}

/*
 * Corked, the bytes @sock sends next wait; the FIN of raw_fin() then
 * leaves with them in one segment, so that the peer has the FIN in its
 * socket as soon as it can read any of those bytes.
 */
static void raw_cork(struct socket *sock)
{
	tcp_sock_set_cork(sock->sk, true);
}

static void raw_fin(struct kunit *test, struct socket *sock)
{
	KUNIT_ASSERT_EQ(test, kernel_sock_shutdown(sock, SHUT_WR), 0);
}

/*
 * A raw client sends a request @pol builds to a siw listener; with
 * @fin, its FIN comes with the request.
 */
static struct socket *raw_request(struct fx *fx, u16 port,
				  const struct siw_mpa_policy *pol, bool fin)
{
	struct kunit *test = fx->test;
	u8 *req = frame_buf(test);
	struct siw_mpa_result offer;
	struct socket *sock;
	int len;

	listen_on(fx, port);
	sock = raw_client(test, port);
	KUNIT_ASSERT_NOT_NULL(test, sock);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, raw_release,
							sock), 0);
	len = siw_mpa_build_req(pol, 2, 2, "req", 3, req, SIW_MPA_MAX_TX_FRAME,
				&offer);
	KUNIT_ASSERT_GT(test, len, 0);
	if (fin)
		raw_cork(sock);
	raw_send_bytes(test, sock, req, len);
	if (fin)
		raw_fin(test, sock);
	return sock;
}

/* Accept the request the listener reported; the passive id. */
static struct iw_cm_id *accept_one(struct fx *fx)
{
	struct kunit *test = fx->test;
	struct iw_cm_conn_param p = {
		.ird = 2,
		.ord = 2,
		.qpn = fx->qp[1]->qp_num,
	};
	struct ev_rec *r;

	r = ev_wait(fx, NULL, IW_CM_EVENT_CONNECT_REQUEST);
	KUNIT_ASSERT_NOT_NULL(test, r);
	fx->ids[fx->nr_ids++] = r->id;
	spy_on(fx, r->id);
	KUNIT_ASSERT_EQ(test, iw_cm_accept(r->id, &p), 0);
	return r->id;
}

/*
 * The responder's CRC policy: under mpa_crc_strict a request with CRC
 * gets a reject (R set, C clear, the request's revision) and nobody
 * hears of it; under mpa_crc_required a request without CRC is taken
 * and the reply sets C (both sides then use CRC, RFC 5044).
 */
static void siw_cm_crc_responder(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct siw_mpa_policy pol = raw_policy();
	u8 *buf = frame_buf(test);
	struct siw_mpa_frame f;
	struct socket *sock;

	siw_mpa_policy.crc_strict = true;
	pol.crc_required = true;
	sock = raw_request(fx, PORT_BASE + 315, &pol, false);
	raw_read_frame(test, sock, buf, true, &f);
	KUNIT_EXPECT_TRUE(test, f.bits & SIW_MPA_FLAG_REJECT);
	KUNIT_EXPECT_FALSE(test, f.bits & SIW_MPA_FLAG_CRC);
	KUNIT_EXPECT_EQ(test, f.revision, 2);
	KUNIT_EXPECT_EQ(test, raw_wait_close(sock), 0);
	KUNIT_EXPECT_EQ(test, ev_count(&fx->log), 0);

	siw_mpa_policy.crc_strict = false;
	siw_mpa_policy.crc_required = true;
	pol.crc_required = false;
	sock = raw_request(fx, PORT_BASE + 316, &pol, false);
	accept_one(fx);
	raw_read_frame(test, sock, buf, true, &f);
	KUNIT_EXPECT_FALSE(test, f.bits & SIW_MPA_FLAG_REJECT);
	KUNIT_EXPECT_TRUE(test, f.bits & SIW_MPA_FLAG_CRC);
}

/*
 * Peer-to-peer, responder side: the reply asks for a WRITE RTR, and
 * ESTABLISHED is reported only once that RTR came.
 */
static void siw_cm_p2p_responder(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct siw_mpa_policy pol = raw_policy();
	u8 *buf = frame_buf(test);
	u8 rtr[sizeof(struct iwarp_rdma_write) + MPA_CRC_SIZE] = {};
	struct siw_mpa_frame f;
	struct iw_cm_id *pas;
	struct socket *sock;
	union iwarp_hdr h;

	pol.peer_to_peer = true;
	sock = raw_request(fx, PORT_BASE + 317, &pol, false);
	pas = accept_one(fx);
	raw_read_frame(test, sock, buf, true, &f);
	KUNIT_EXPECT_TRUE(test, f.ird_flags & SIW_MPA_V2_PEER_TO_PEER);
	KUNIT_EXPECT_EQ(test, f.ord_flags, SIW_MPA_V2_WRITE_RTR);
	msleep(200);
	KUNIT_EXPECT_NULL(test, ev_find(&fx->log, pas,
					IW_CM_EVENT_ESTABLISHED));
	KUNIT_ASSERT_EQ(test, siw_fpdu_rtr(&h, SIW_RTR_WRITE, 0),
			(int)sizeof(h.rwrite));
	memcpy(rtr, &h, sizeof(h.rwrite));
	raw_send_bytes(test, sock, rtr, sizeof(rtr));
	KUNIT_EXPECT_NOT_NULL(test, ev_wait(fx, pas, IW_CM_EVENT_ESTABLISHED));
	KUNIT_EXPECT_EQ(test, qp_state(fx->qp[1]), IB_QPS_RTS);
}

/*
 * Peer-to-peer, initiator side (peer_to_peer): the request sets A and
 * offers WRITE and READ; after a reply choosing WRITE the first FPDU is
 * a zero-length WRITE to STag 1.
 */
static void siw_cm_p2p_initiator(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct siw_mpa_policy pol = raw_policy();
	struct iw_cm_id *act = new_id(fx);
	u8 *buf = frame_buf(test);
	struct siw_fpdu_info fi;
	struct siw_mpa_frame f;
	struct socket *sock;
	struct ev_rec *r;

	siw_mpa_policy.peer_to_peer = true;
	sock = raw_take_request(fx, act, PORT_BASE + 318, buf, &f);
	KUNIT_EXPECT_TRUE(test, f.ird_flags & SIW_MPA_V2_PEER_TO_PEER);
	KUNIT_EXPECT_EQ(test, f.ord_flags,
			SIW_MPA_V2_WRITE_RTR | SIW_MPA_V2_READ_RTR);
	raw_reply(test, sock, &pol, &f, false);
	r = ev_wait(fx, act, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->status, 0);
	KUNIT_ASSERT_EQ(test, raw_recv_bytes(sock, buf,
					     sizeof(struct iwarp_rdma_write) +
					     MPA_CRC_SIZE), 0);
	KUNIT_ASSERT_EQ(test, siw_fpdu_parse_hdr(buf, 20, &fi),
			(int)sizeof(struct iwarp_rdma_write));
	KUNIT_EXPECT_EQ(test, fi.opcode, RDMAP_RDMA_WRITE);
	KUNIT_EXPECT_EQ(test, fi.payload, 0);
	KUNIT_EXPECT_EQ(test, fi.stag, 1);
	KUNIT_EXPECT_TRUE(test, fi.last);
}

/*
 * Peer-to-peer, initiator side: a reply choosing no RTR message we
 * offered gets a TERMINATE (LLP, "no matching RTR"), as upstream's
 * initiator sends it, and the connect fails with -EINVAL.
 */
static void siw_cm_p2p_no_rtr(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct siw_mpa_policy pol = raw_policy();
	struct iw_cm_id *act = new_id(fx);
	u8 *buf = frame_buf(test);
	u8 *rep = frame_buf(test);
	struct siw_mpa_result res;
	struct siw_term_info ti;
	struct siw_mpa_frame f;
	struct socket *sock;
	struct ev_rec *r;
	u16 ord;
	int len;

	siw_mpa_policy.peer_to_peer = true;
	sock = raw_take_request(fx, act, PORT_BASE + 320, buf, &f);
	KUNIT_ASSERT_EQ(test, siw_mpa_check_req(&pol, &f, &res, NULL), 0);
	len = siw_mpa_build_rep(&pol, &res, 4, 4, NULL, 0, rep,
				SIW_MPA_MAX_TX_FRAME);
	KUNIT_ASSERT_EQ(test, len, (int)(sizeof(struct mpa_rr) +
					 sizeof(struct mpa_v2_data)));
	/* the setup data's ORD word without its RTR bits */
	ord = get_unaligned_be16(rep + sizeof(struct mpa_rr) + 2);
	put_unaligned_be16(ord & SIW_MPA_V2_IRD_ORD,
			   rep + sizeof(struct mpa_rr) + 2);
	raw_send_bytes(test, sock, rep, len);
	r = ev_wait(fx, act, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_ASSERT_NOT_NULL(test, r);
	/* upstream's initiator reports -EINVAL for it */
	KUNIT_EXPECT_EQ(test, r->status, -EINVAL);
	KUNIT_ASSERT_EQ(test, raw_recv_bytes(sock, buf,
					     sizeof(struct iwarp_terminate) +
					     MPA_CRC_SIZE), 0);
	KUNIT_ASSERT_EQ(test, siw_term_parse(buf,
					     sizeof(struct iwarp_terminate),
					     &ti), 0);
	KUNIT_EXPECT_EQ(test, ti.layer, TERM_ERROR_LAYER_LLP);
	KUNIT_EXPECT_EQ(test, ti.etype, LLP_ETYPE_MPA);
	KUNIT_EXPECT_EQ(test, ti.ecode, LLP_ECODE_NO_MATCHING_RTR);
	KUNIT_EXPECT_FALSE(test, ti.flag_d);
	KUNIT_EXPECT_EQ(test, raw_wait_close(sock), 0);
}

/*
 * A reply whose ORD is above both our offered IRD and the device's
 * gets a TERMINATE (LLP, "insufficient IRD") and the connect fails
 * with -EINVAL, as upstream's initiator reports it.
 */
static void siw_cm_ird_refused(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct siw_mpa_policy pol = raw_policy();
	struct iw_cm_id *act = new_id(fx);
	u8 *buf = frame_buf(test);
	u8 *rep = frame_buf(test);
	struct siw_mpa_result res;
	struct siw_term_info ti;
	struct siw_mpa_frame f;
	struct socket *sock;
	struct ev_rec *r;
	u8 *ordp;
	int len;

	sock = raw_take_request(fx, act, PORT_BASE + 321, buf, &f);
	KUNIT_ASSERT_EQ(test, siw_mpa_check_req(&pol, &f, &res, NULL), 0);
	len = siw_mpa_build_rep(&pol, &res, 4, 4, NULL, 0, rep,
				SIW_MPA_MAX_TX_FRAME);
	KUNIT_ASSERT_EQ(test, len, (int)(sizeof(struct mpa_rr) +
					 sizeof(struct mpa_v2_data)));
	/* the responder's ORD raised above the device's IRD */
	ordp = rep + sizeof(struct mpa_rr) + 2;
	put_unaligned_be16((get_unaligned_be16(ordp) & ~SIW_MPA_V2_IRD_ORD) |
			   (SIW_MAX_IRD_QP + 1), ordp);
	raw_send_bytes(test, sock, rep, len);
	r = ev_wait(fx, act, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->status, -EINVAL);
	KUNIT_ASSERT_EQ(test, raw_recv_bytes(sock, buf,
					     sizeof(struct iwarp_terminate) +
					     MPA_CRC_SIZE), 0);
	KUNIT_ASSERT_EQ(test, siw_term_parse(buf,
					     sizeof(struct iwarp_terminate),
					     &ti), 0);
	KUNIT_EXPECT_EQ(test, ti.layer, TERM_ERROR_LAYER_LLP);
	KUNIT_EXPECT_EQ(test, ti.etype, LLP_ETYPE_MPA);
	KUNIT_EXPECT_EQ(test, ti.ecode, LLP_ECODE_INSUFFICIENT_IRD);
	KUNIT_EXPECT_EQ(test, raw_wait_close(sock), 0);
}

/* Peer-to-peer between two siw ends: RTR sent, awaited, established. */
static void siw_cm_p2p_loopback(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct iw_cm_id *act;

	siw_mpa_policy.peer_to_peer = true;
	listen_on(fx, PORT_BASE + 319);
	act = new_id(fx);
	establish(fx, act, PORT_BASE + 319, NULL, NULL, 0);
	KUNIT_EXPECT_EQ(test, qp_state(fx->qp[0]), IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, qp_state(fx->qp[1]), IB_QPS_RTS);
}

/*
 * The peer closed before its stream was the QP's: its FIN came with its
 * MPA request, before the accept.  The accept sends the reply and
 * reports ESTABLISHED, and the connection then ends as any whose peer
 * closes: DISCONNECT and CLOSE, the QP in ERROR, our FIN to the peer.
 * The same holds for a FIN that comes between the reply and the QP's
 * taking the socket (a peer that connects, works and closes while the
 * accept is still under way), which a test cannot time.
 */
static void siw_cm_peer_closed_before_accept(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct siw_mpa_policy pol = raw_policy();
	u8 *buf = frame_buf(test);
	struct siw_mpa_frame f;
	struct iw_cm_id *pas;
	struct socket *sock;

	sock = raw_request(fx, PORT_BASE + 350, &pol, true);
	pas = accept_one(fx);
	KUNIT_ASSERT_NOT_NULL(test, ev_wait(fx, pas, IW_CM_EVENT_ESTABLISHED));
	raw_read_frame(test, sock, buf, true, &f);
	KUNIT_EXPECT_FALSE(test, f.bits & SIW_MPA_FLAG_REJECT);
	KUNIT_ASSERT_NOT_NULL(test, ev_wait(fx, pas, IW_CM_EVENT_CLOSE));
	expect_closed(fx, pas, IW_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, qp_state(fx->qp[1]), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, raw_wait_close(sock), 0);
}

/*
 * The same on the active side: the peer's FIN comes with its MPA
 * reply, before our QP took the stream.  CONNECT_REPLY (status 0),
 * then DISCONNECT and CLOSE.
 */
static void siw_cm_peer_closed_with_reply(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct siw_mpa_policy pol = raw_policy();
	struct iw_cm_id *act = new_id(fx);
	u8 *buf = frame_buf(test);
	struct siw_mpa_frame f;
	struct socket *sock;
	struct ev_rec *r;

	sock = raw_take_request(fx, act, PORT_BASE + 351, buf, &f);
	raw_cork(sock);
	raw_reply(test, sock, &pol, &f, false);
	raw_fin(test, sock);
	r = ev_wait(fx, act, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->status, 0);
	KUNIT_ASSERT_NOT_NULL(test, ev_wait(fx, act, IW_CM_EVENT_CLOSE));
	expect_closed(fx, act, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, qp_state(fx->qp[0]), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, raw_wait_close(sock), 0);
}

/* ---- rdma_cm over siw: its iWARP path end to end ---- */

#define CMA_EV_MAX	16

struct cma_rec {
	struct rdma_cm_id		*id;
	enum rdma_cm_event_type		type;
	int				status;
	u8				pdata[64];
	int				len;
	bool				taken;
};

/* what rdma_cm reported; the passive side accepts in its handler */
struct cma_log {
	spinlock_t		lock;	/* protects ev, n */
	struct cma_rec		ev[CMA_EV_MAX];
	int			n;
	wait_queue_head_t	wq;
	struct fx		*fx;
	struct rdma_cm_id	*passive;
	struct rdma_cm_id	*lid, *aid;
	int			accept_ret;
};

static void cma_release_id(struct rdma_cm_id **id)
{
	if (!*id)
		return;
	if ((*id)->qp)
		rdma_destroy_qp(*id);
	rdma_destroy_id(*id);
	*id = NULL;
}

/* Destroy the ids of an rdma_cm case, connections first. */
static void cma_release(struct cma_log *log)
{
	cma_release_id(&log->aid);
	cma_release_id(&log->passive);
	cma_release_id(&log->lid);
}

static const char cma_req_pd[] = "hello siw";
static const char cma_rep_pd[] = "hello rdma_cm";

static struct ib_qp_init_attr cma_qp_attr(struct fx *fx)
{
	struct ib_qp_init_attr qa = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.send_cq = fx->cq,
		.recv_cq = fx->cq,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};

	return qa;
}

static int cma_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct cma_log *log = id->context;
	struct rdma_conn_param p = {
		.private_data = cma_rep_pd,
		.private_data_len = sizeof(cma_rep_pd),
		.responder_resources = 1,
		.initiator_depth = 1,
	};
	struct ib_qp_init_attr qa;
	unsigned long flags;
	struct cma_rec *r;

	spin_lock_irqsave(&log->lock, flags);
	if (log->n < CMA_EV_MAX) {
		r = &log->ev[log->n++];
		r->id = id;
		r->type = ev->event;
		r->status = ev->status;
		r->len = min_t(int, ev->param.conn.private_data_len,
			       sizeof(r->pdata));
		if (ev->param.conn.private_data)
			memcpy(r->pdata, ev->param.conn.private_data, r->len);
		else
			r->len = 0;
	}
	spin_unlock_irqrestore(&log->lock, flags);
	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST) {
		log->passive = id;
		qa = cma_qp_attr(log->fx);
		log->accept_ret = rdma_create_qp(id, log->fx->pd, &qa);
		if (!log->accept_ret)
			log->accept_ret = rdma_accept(id, &p);
	}
	wake_up_all(&log->wq);
	return 0;
}

static struct cma_rec *cma_wait(struct cma_log *log, struct rdma_cm_id *id,
				enum rdma_cm_event_type type)
{
	struct cma_rec *found = NULL;
	unsigned long flags;
	int i;

	wait_event_timeout(log->wq, ({
		spin_lock_irqsave(&log->lock, flags);
		for (i = 0; i < log->n && !found; i++)
			if (log->ev[i].type == type && !log->ev[i].taken &&
			    (!id || log->ev[i].id == id))
				found = &log->ev[i];
		if (found)
			found->taken = true;
		spin_unlock_irqrestore(&log->lock, flags);
		found; }), EV_WAIT);
	return found;
}

/* lo's MTU (64 KiB) makes this one FPDU; the QP suite covers MULPDU edges */
#define CMA_DATA_LEN	5000

/* The next completion of the shared CQ, within 2 s. */
static bool cma_poll(struct fx *fx, struct ib_wc *wc)
{
	unsigned long end = jiffies + 2 * HZ;

	do {
		if (ib_poll_cq(fx->cq, 1, wc) == 1)
			return true;
		usleep_range(100, 200);
	} while (time_before(jiffies, end));
	return false;
}

/* One signalled request of @qp over one SGE; its completion checked. */
static void cma_post_one(struct kunit *test, struct fx *fx, struct ib_qp *qp,
			 enum ib_wr_opcode op, void *buf, void *remote)
{
	struct ib_sge sge = {
		.addr = (uintptr_t)buf,
		.length = CMA_DATA_LEN,
		.lkey = fx->pd->local_dma_lkey,
	};
	struct ib_rdma_wr wr = {
		.wr = {
			.opcode = op,
			.sg_list = &sge,
			.num_sge = 1,
			.send_flags = IB_SEND_SIGNALED,
		},
		.remote_addr = (uintptr_t)remote,
		.rkey = fx->pd->unsafe_global_rkey,
	};
	struct ib_wc wc;

	KUNIT_ASSERT_EQ(test, ib_post_send(qp, &wr.wr, NULL), 0);
	if (op == IB_WR_SEND)
		return;	/* the caller takes both completions of a SEND */
	KUNIT_ASSERT_TRUE(test, cma_poll(fx, &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_PTR_EQ(test, wc.qp, qp);
}

/*
 * A SEND of @src from @from into a receive of @to over @dst: the
 * requester's completion and the receive's, in either order (siw
 * completes a SEND once TCP took it), and the bytes compared.
 */
static void cma_send(struct kunit *test, struct fx *fx, struct ib_qp *from,
		     struct ib_qp *to, u8 *src, u8 *dst)
{
	struct ib_sge sge = {
		.addr = (uintptr_t)dst,
		.length = CMA_DATA_LEN,
		.lkey = fx->pd->local_dma_lkey,
	};
	struct ib_recv_wr rwr = { .sg_list = &sge, .num_sge = 1 };
	struct ib_wc wc;
	int i;

	memset(dst, 0, CMA_DATA_LEN);
	KUNIT_ASSERT_EQ(test, ib_post_recv(to, &rwr, NULL), 0);
	cma_post_one(test, fx, from, IB_WR_SEND, src, NULL);
	for (i = 0; i < 2; i++) {
		KUNIT_ASSERT_TRUE(test, cma_poll(fx, &wc));
		KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
		if (wc.qp == from) {
			KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_SEND);
			continue;
		}
		KUNIT_EXPECT_PTR_EQ(test, wc.qp, to);
		KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RECV);
		KUNIT_EXPECT_EQ(test, wc.byte_len, CMA_DATA_LEN);
	}
	KUNIT_EXPECT_MEMEQ(test, dst, src, CMA_DATA_LEN);
}

/*
 * Payloads over an rdma_cm connection: a SEND of the passive side
 * first, before it received anything (as ucmatose's server sends: no
 * MPA rule holds a responder back outside a peer-to-peer setup), then
 * a SEND of the active side, an RDMA WRITE into the passive side's
 * buffer and an RDMA READ of it back, each compared byte for byte.
 */
static void cma_traffic(struct kunit *test, struct fx *fx, struct ib_qp *aqp,
			struct ib_qp *pqp)
{
	u8 *src = kunit_kmalloc(test, CMA_DATA_LEN, GFP_KERNEL);
	u8 *dst = kunit_kzalloc(test, CMA_DATA_LEN, GFP_KERNEL);
	u8 *back = kunit_kzalloc(test, CMA_DATA_LEN, GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, src);
	KUNIT_ASSERT_NOT_NULL(test, dst);
	KUNIT_ASSERT_NOT_NULL(test, back);
	for (i = 0; i < CMA_DATA_LEN; i++)
		src[i] = i * 5 + 1;
	cma_send(test, fx, pqp, aqp, src, dst);
	for (i = 0; i < CMA_DATA_LEN; i++)
		src[i] = i * 7 + 3;
	cma_send(test, fx, aqp, pqp, src, dst);

	/* WRITE over what the SEND left, then READ it back */
	for (i = 0; i < CMA_DATA_LEN; i++)
		src[i] = ~src[i];
	cma_post_one(test, fx, aqp, IB_WR_RDMA_WRITE, src, dst);
	cma_post_one(test, fx, aqp, IB_WR_RDMA_READ, back, dst);
	KUNIT_EXPECT_MEMEQ(test, dst, src, CMA_DATA_LEN);
	KUNIT_EXPECT_MEMEQ(test, back, src, CMA_DATA_LEN);
}

/*
 * The addresses of an rdma_cm case: the listener's (@listen, with
 * rdma_set_afonly(@afonly) for an IPv6 wildcard), the one the active
 * side resolves and connects to (@dest), on port @port of both.  With
 * @refused the connect gets no listener: REJECTED, -ECONNREFUSED.
 * With @global, @listen is first added to lo as a global IPv6 address.
 */
struct cma_case {
	const char	*name;
	const char	*listen;
	const char	*dest;
	int		afonly;
	bool		refused;
	u16		port;
	bool		global;
};

static const struct cma_case cma_cases[] = {
	{ "ipv4", "127.0.0.1", "127.0.0.1", 0, false, PORT_BASE + 308 },
	{ "ipv6", "::1", "::1", 0, false, PORT_BASE + 330 },
	{ "any6_to_ipv6", "::", "::1", 1, false, PORT_BASE + 331 },
	{ "any6_to_ipv4", "::", "127.0.0.1", 0, false, PORT_BASE + 332 },
	{ "any6_afonly_to_ipv4", "::", "127.0.0.1", 1, true,
	  PORT_BASE + 333 },
	{ "ipv6_global", "2001:db8:5::1", "2001:db8:5::1", 0, false,
	  PORT_BASE + 334, true },
};

static void cma_case_desc(const struct cma_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cma_case, cma_cases, cma_case_desc);

/* @addr and @port as a test-managed address. */
static struct sockaddr_storage *cma_addr(struct kunit *test, const char *addr,
					 u16 port)
{
	struct sockaddr_storage *ss = kunit_kzalloc(test, sizeof(*ss),
						    GFP_KERNEL);
	char pstr[8];

	KUNIT_ASSERT_NOT_NULL(test, ss);
	snprintf(pstr, sizeof(pstr), "%u", port);
	KUNIT_ASSERT_EQ(test, inet_pton_with_scope(&init_net, AF_UNSPEC, addr,
						   pstr, ss), 0);
	return ss;
}

/* RTM_NEWADDR or RTM_DELADDR of IPv6 address @a/128 on lo. */
static int cma_lo_addr6(int type, const struct in6_addr *a)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	struct {
		struct nlmsghdr		nh;
		struct ifaddrmsg	ifa;
		char			attrs[64];
	} req = {};
	struct {
		struct nlmsghdr		nh;
		struct nlmsgerr		err;
	} ack = {};
	struct msghdr msg = { .msg_name = &nl, .msg_namelen = sizeof(nl) };
	u32 nodad = IFA_F_NODAD;
	struct socket *sock;
	struct rtattr *rta;
	struct kvec vec;
	int ret;

	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(req.ifa));
	req.nh.nlmsg_type = type;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	if (type == RTM_NEWADDR)
		req.nh.nlmsg_flags |= NLM_F_CREATE | NLM_F_EXCL;
	req.ifa.ifa_family = AF_INET6;
	req.ifa.ifa_prefixlen = 128;
	req.ifa.ifa_index = init_net.loopback_dev->ifindex;
	rta = (void *)&req + NLMSG_ALIGN(req.nh.nlmsg_len);
	rta->rta_type = IFA_LOCAL;
	rta->rta_len = RTA_LENGTH(sizeof(*a));
	memcpy(RTA_DATA(rta), a, sizeof(*a));
	req.nh.nlmsg_len = NLMSG_ALIGN(req.nh.nlmsg_len) + RTA_ALIGN(rta->rta_len);
	rta = (void *)&req + req.nh.nlmsg_len;
	rta->rta_type = IFA_FLAGS;
	rta->rta_len = RTA_LENGTH(sizeof(nodad));
	memcpy(RTA_DATA(rta), &nodad, sizeof(nodad));
	req.nh.nlmsg_len += RTA_ALIGN(rta->rta_len);

	ret = sock_create_kern(&init_net, AF_NETLINK, SOCK_RAW, NETLINK_ROUTE,
			       &sock);
	if (ret)
		return ret;
	vec.iov_base = &req;
	vec.iov_len = req.nh.nlmsg_len;
	ret = kernel_sendmsg(sock, &msg, &vec, 1, vec.iov_len);
	if (ret < 0)
		goto out;
	memset(&msg, 0, sizeof(msg));
	vec.iov_base = &ack;
	vec.iov_len = sizeof(ack);
	ret = kernel_recvmsg(sock, &msg, &vec, 1, vec.iov_len, 0);
	if (ret < (int)sizeof(ack))
		ret = ret < 0 ? ret : -EIO;
	else
		ret = ack.nh.nlmsg_type == NLMSG_ERROR ? ack.err.error : -EIO;
out:
	sock_release(sock);
	return ret;
}

static void cma_lo_addr6_del(void *a)
{
	cma_lo_addr6(RTM_DELADDR, a);
}

/* Same family, IP address and port. */
static bool cma_same_addr(const struct sockaddr_storage *a,
			  const struct sockaddr_storage *b)
{
	const struct sockaddr_in6 *a6 = (const void *)a, *b6 = (const void *)b;
	const struct sockaddr_in *a4 = (const void *)a, *b4 = (const void *)b;

	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
		return a4->sin_addr.s_addr == b4->sin_addr.s_addr &&
		       a4->sin_port == b4->sin_port;
	return a->ss_family == AF_INET6 &&
	       ipv6_addr_equal(&a6->sin6_addr, &b6->sin6_addr) &&
	       a6->sin6_port == b6->sin6_port;
}

/*
 * rdma_cm's iWARP path on siw: resolve the destination (127.0.0.1,
 * ::1) to the device on lo, connect and accept with private data both
 * ways, move checked payloads (SEND, WRITE, READ), disconnect; an
 * IPv6 wildcard listener takes IPv4 too unless it is afonly.
 */
static void siw_cm_rdma_cm(struct kunit *test)
{
	const struct cma_case *c = test->param_value;
	struct fx *fx = test->priv;
	struct rdma_conn_param p = {
		.private_data = cma_req_pd,
		.private_data_len = sizeof(cma_req_pd),
		.responder_resources = 1,
		.initiator_depth = 1,
	};
	struct sockaddr_storage *ls, *ds;
	struct rdma_cm_id *lid, *aid;
	struct ib_qp_init_attr qa;
	struct cma_log *log;
	struct cma_rec *r;

	log = kunit_kzalloc(test, sizeof(*log), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, log);
	spin_lock_init(&log->lock);
	init_waitqueue_head(&log->wq);
	log->fx = fx;
	fx->cma = log;
	ls = cma_addr(test, c->listen, c->port);
	ds = cma_addr(test, c->dest, c->port);
	if (c->global) {
		struct in6_addr *a = &((struct sockaddr_in6 *)ls)->sin6_addr;
		int ret;

		KUNIT_ASSERT_EQ(test, cma_lo_addr6(RTM_NEWADDR, a), 0);
		ret = kunit_add_action_or_reset(test, cma_lo_addr6_del, a);
		KUNIT_ASSERT_EQ(test, ret, 0);
	}

	lid = rdma_create_id(&init_net, cma_handler, log, RDMA_PS_TCP,
			     IB_QPT_RC);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, lid);
	log->lid = lid;
	if (ls->ss_family == AF_INET6)
		KUNIT_ASSERT_EQ(test, rdma_set_afonly(lid, c->afonly), 0);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(lid, (struct sockaddr *)ls), 0);
	KUNIT_ASSERT_EQ(test, rdma_listen(lid, 4), 0);

	aid = rdma_create_id(&init_net, cma_handler, log, RDMA_PS_TCP,
			     IB_QPT_RC);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, aid);
	log->aid = aid;
	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(aid, NULL,
						(struct sockaddr *)ds, 2000),
			0);
	r = cma_wait(log, aid, RDMA_CM_EVENT_ADDR_RESOLVED);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_PTR_EQ(test, aid->device, fx->ibdev);
	KUNIT_EXPECT_EQ(test, aid->route.addr.src_addr.ss_family,
			ds->ss_family);
	KUNIT_ASSERT_EQ(test, rdma_resolve_route(aid, 2000), 0);
	KUNIT_ASSERT_NOT_NULL(test, cma_wait(log, aid,
					     RDMA_CM_EVENT_ROUTE_RESOLVED));
	qa = cma_qp_attr(fx);
	KUNIT_ASSERT_EQ(test, rdma_create_qp(aid, fx->pd, &qa), 0);
	KUNIT_ASSERT_EQ(test, rdma_connect(aid, &p), 0);
	if (c->refused) {
		r = cma_wait(log, aid, RDMA_CM_EVENT_REJECTED);
		KUNIT_ASSERT_NOT_NULL(test, r);
		KUNIT_EXPECT_EQ(test, r->status, -ECONNREFUSED);
		KUNIT_EXPECT_NULL(test, log->passive);
		return;	/* the ids go in the exit */
	}

	r = cma_wait(log, NULL, RDMA_CM_EVENT_CONNECT_REQUEST);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->len, sizeof(cma_req_pd));
	KUNIT_EXPECT_MEMEQ(test, r->pdata, cma_req_pd, sizeof(cma_req_pd));
	KUNIT_EXPECT_EQ(test, log->accept_ret, 0);
	/* the passive id has the connection's addresses, IPv4 unmapped */
	KUNIT_ASSERT_NOT_NULL(test, log->passive);
	KUNIT_EXPECT_TRUE(test, cma_same_addr(&log->passive->route.addr.src_addr,
					      ds));
	KUNIT_EXPECT_TRUE(test, cma_same_addr(&log->passive->route.addr.dst_addr,
					      &aid->route.addr.src_addr));
	r = cma_wait(log, aid, RDMA_CM_EVENT_ESTABLISHED);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->len, sizeof(cma_rep_pd));
	KUNIT_EXPECT_MEMEQ(test, r->pdata, cma_rep_pd, sizeof(cma_rep_pd));
	KUNIT_ASSERT_NOT_NULL(test, cma_wait(log, log->passive,
					     RDMA_CM_EVENT_ESTABLISHED));
	KUNIT_EXPECT_EQ(test, qp_state(aid->qp), IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, qp_state(log->passive->qp), IB_QPS_RTS);
	cma_traffic(test, fx, aid->qp, log->passive->qp);

	KUNIT_EXPECT_EQ(test, rdma_disconnect(aid), 0);
	KUNIT_EXPECT_NOT_NULL(test, cma_wait(log, aid,
					     RDMA_CM_EVENT_DISCONNECTED));
	KUNIT_EXPECT_NOT_NULL(test, cma_wait(log, log->passive,
					     RDMA_CM_EVENT_DISCONNECTED));

	cma_release(log);
}

static struct kunit_case siw_cm_cases[] = {
	KUNIT_CASE_PARAM(siw_cm_connect_accept, pd_size_gen_params),
	KUNIT_CASE(siw_cm_pdata_too_long),
	KUNIT_CASE(siw_cm_disconnect_passive),
	KUNIT_CASE(siw_cm_reject),
	KUNIT_CASE(siw_cm_no_listener),
	KUNIT_CASE(siw_cm_request_ird_ord),
	KUNIT_CASE(siw_cm_mapped_port),
	KUNIT_CASE(siw_cm_listener_destroyed),
	KUNIT_CASE(siw_cm_garbage),
	KUNIT_CASE(siw_cm_device_removed),
	KUNIT_CASE(siw_cm_request_during_listener_destroy),
	KUNIT_CASE(siw_cm_device_end_endpoint_held),
	KUNIT_CASE_PARAM(siw_cm_rdma_cm, cma_case_gen_params),
	KUNIT_CASE_PARAM(siw_cm_mpa_version, mpa_version_gen_params),
	KUNIT_CASE(siw_cm_crc_initiator),
	KUNIT_CASE(siw_cm_crc_responder),
	KUNIT_CASE(siw_cm_p2p_responder),
	KUNIT_CASE(siw_cm_p2p_initiator),
	KUNIT_CASE(siw_cm_p2p_no_rtr),
	KUNIT_CASE(siw_cm_ird_refused),
	KUNIT_CASE(siw_cm_p2p_loopback),
	KUNIT_CASE(siw_cm_peer_closed_before_accept),
	KUNIT_CASE(siw_cm_peer_closed_with_reply),
	{}
};

static struct kunit_suite siw_cm_suite = {
	.name = "rdma_siw_cm",
	.init = siw_cm_test_init,
	.exit = siw_cm_test_exit,
	.test_cases = siw_cm_cases,
};

kunit_test_suite(siw_cm_suite);

MODULE_DESCRIPTION("KUnit tests of siw's connection manager");
MODULE_LICENSE("Dual BSD/GPL");
