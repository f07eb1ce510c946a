// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_cma_conn": rdma_cm's connections over iWARP, on the
 * iWARP flavour of rdma_fake_hca
 * (tools/testing/rdma/fake_hca/fake_hca_iwarp.c).  The test owns the rdma_cm
 * ids (its handler records every event) and plays the peer and the wire through
 * the fake: it injects the driver's events on the iw_cm ids under the rdma_cm
 * ids (fake_hca_iw_event()), and reads what reached the driver (connect,
 * accept, reject, listen).
 *
 * Covered: each event in each connection state and the rdma_cm event and
 * state it gives; events arriving where they must be ignored; handlers
 * returning non-zero; rdma_destroy_id() racing each event, while it is
 * delivered (the handler blocks on a completion) and while it is queued;
 * a listener's device removed with requests pending; device removal with
 * ids in every connection state; allocation failures (failslab) on the
 * connect, accept and request paths; connect/disconnect loops with ids
 * destroyed at random points.
 *
 * The network of every case (init_net, built with rtnetlink): net device
 * "fkhcat%d" with MAC mac_a, up, 192.0.2.1/24, permanent neighbour
 * 192.0.2.2 -> peer_mac; the fake RNIC "kucmc%d" has it as its port 1.
 */

#include <kunit/test.h>
#include <kunit/rdma_fake_hca.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/inet.h>
#include <linux/kthread.h>
#include <linux/net.h>
#include <linux/netlink.h>
#include <linux/prandom.h>
#include <linux/rtnetlink.h>
#include <linux/wait.h>
#include <net/neighbour.h>
#include <net/netlink.h>
#include <rdma/iw_cm.h>
#include <rdma/rdma_cm.h>
#include <rdma/restrack.h>

#include "../cma_priv.h"
#include "../../iw_cm/iwcm.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define RT_BUF_LEN	256
#define RX_BUF_LEN	4096
#define EV_MAX		16
#define PD_MAX		32
#define KIDS_MAX	8
#define WAIT_JIFFIES	(5 * HZ)
/* how long a check waits for an event that must not come */
#define NEVER_JIFFIES	(HZ / 2)
#define BASE_PORT	49100
#define QPN_A		0x21	/* active side's QPs: QPN_A .. QPN_A + 3 */
#define QPN_P		0x25	/* passive side's: QPN_P .. QPN_P + 3 */
#define NR_EVENTS	(RDMA_CM_EVENT_TIMEWAIT_EXIT + 1)

static const u8 mac_a[ETH_ALEN] = { 0x02, 0xad, 0xd1, 0x00, 0x01, 0x0a };
static const u8 mac_new[ETH_ALEN] = { 0x02, 0xad, 0xd1, 0x00, 0x01, 0x0c };
static const u8 peer_mac[ETH_ALEN] = { 0x02, 0x5e, 0xe1, 0x00, 0x01, 0x02 };

/* ------------------------------------------------------------------
 * rtnetlink, just enough for an address and a neighbour
 */

static void rt_put_file(void *file)
{
	fput(file);
}

static void rt_send(struct kunit *test, struct socket *sock, u8 *buf,
		    u8 *rx, const char *what)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct kvec iov = { .iov_base = buf, .iov_len = nlh->nlmsg_len };
	struct msghdr msg = { .msg_name = &kernel,
			      .msg_namelen = sizeof(kernel) };
	struct nlmsghdr *ack = (struct nlmsghdr *)rx;
	int ret;

	nlh->nlmsg_seq = 1;
	ret = kernel_sendmsg(sock, &msg, &iov, 1, iov.iov_len);
	KUNIT_ASSERT_EQ(test, ret, (int)iov.iov_len);
	memset(&msg, 0, sizeof(msg));
	iov.iov_base = rx;
	iov.iov_len = RX_BUF_LEN;
	ret = kernel_recvmsg(sock, &msg, &iov, 1, RX_BUF_LEN, MSG_DONTWAIT);
	KUNIT_ASSERT_GE(test, ret, (int)NLMSG_LENGTH(sizeof(struct nlmsgerr)));
	KUNIT_ASSERT_EQ(test, ack->nlmsg_type, NLMSG_ERROR);
	KUNIT_ASSERT_EQ_MSG(test, ((struct nlmsgerr *)NLMSG_DATA(ack))->error,
			    0, "%s", what);
}

static void rt_attr(u8 *buf, u16 type, const void *data, u16 len)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct nlattr *nla = (struct nlattr *)(buf + nlh->nlmsg_len);

	nla->nla_type = type;
	nla->nla_len = nla_attr_size(len);
	memcpy(nla_data(nla), data, len);
	nlh->nlmsg_len += nla_total_size(len);
}

static void rt_start(u8 *buf, u16 type, u16 flags, const void *hdr,
		     u32 hdr_len)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;

	memset(buf, 0, RT_BUF_LEN);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_len = NLMSG_ALIGN(NLMSG_LENGTH(hdr_len));
	memcpy(NLMSG_DATA(nlh), hdr, hdr_len);
}

/* 192.0.2.1/24 on @ndev, 192.0.2.2 a permanent neighbour with peer_mac. */
static void rt_setup(struct kunit *test, struct net_device *ndev)
{
	struct ifaddrmsg ifa = { .ifa_family = AF_INET, .ifa_prefixlen = 24,
				 .ifa_index = ndev->ifindex };
	struct ndmsg nd = { .ndm_family = AF_INET, .ndm_state = NUD_PERMANENT,
			    .ndm_ifindex = ndev->ifindex };
	__be32 local = in_aton("192.0.2.1"), peer = in_aton("192.0.2.2");
	struct socket *sock;
	struct file *file;
	u8 *buf, *rx;

	buf = kunit_kzalloc(test, RT_BUF_LEN, GFP_KERNEL);
	rx = kunit_kzalloc(test, RX_BUF_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, rx);
	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_NETLINK, SOCK_RAW,
					       NETLINK_ROUTE, &sock), 0);
	file = sock_alloc_file(sock, 0, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(file));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, rt_put_file,
							file), 0);

	rt_start(buf, RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL, &ifa,
		 sizeof(ifa));
	rt_attr(buf, IFA_LOCAL, &local, sizeof(local));
	rt_attr(buf, IFA_ADDRESS, &local, sizeof(local));
	rt_send(test, sock, buf, rx, "address");
	rt_start(buf, RTM_NEWNEIGH, NLM_F_CREATE | NLM_F_REPLACE, &nd,
		 sizeof(nd));
	rt_attr(buf, NDA_DST, &peer, sizeof(peer));
	rt_attr(buf, NDA_LLADDR, peer_mac, ETH_ALEN);
	rt_send(test, sock, buf, rx, "neighbour");
}

/* ------------------------------------------------------------------
 * The fixture: the net device and the fake RNIC on it
 */

struct fx {
	struct kunit		*test;
	struct net_device	*ndev;
	struct fake_hca		*hca;
	struct ib_device	*dev;
	u16			port;		/* next listening port */
	int			iw_alive;	/* iw_cm ids before the case */
};

static int cma_conn_init(struct kunit *test)
{
	struct fake_hca_desc *desc;
	struct fx *fx;
	u32 i;
	int ret;

	fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fx);
	fx->test = test;
	fx->port = BASE_PORT;
	fx->iw_alive = iwcm_test.ids_alive();
	fx->ndev = fake_hca_kunit_netdev(test, mac_a);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fx->ndev);
	rtnl_lock();
	ret = dev_change_flags(fx->ndev,
			       (fx->ndev->flags | IFF_UP) & ~IFF_NOARP, NULL);
	rtnl_unlock();
	KUNIT_ASSERT_EQ(test, ret, 0);
	rt_setup(test, fx->ndev);

	desc = fake_hca_kunit_desc(test, 1);
	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = "kucmc%d";
	fake_hca_desc_set_iwarp(desc);
	desc->port[0].netdev = fx->ndev;
	fx->hca = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fx->hca);
	fx->dev = &fx->hca->ibdev;
	for (i = 0; i < 4; i++) {
		KUNIT_ASSERT_NOT_NULL(test, fake_hca_iw_add_qp(fx->hca,
							       QPN_A + i));
		KUNIT_ASSERT_NOT_NULL(test, fake_hca_iw_add_qp(fx->hca,
							       QPN_P + i));
	}
	test->priv = fx;
	return 0;
}

static void cma_conn_exit(struct kunit *test)
{
#ifdef CONFIG_FAULT_INJECTION
	current->fail_nth = 0;
#endif
}

static int qp_refs(struct fx *fx, u32 qpn)
{
	int refs = -100;

	fake_hca_iw_qp_info(fx->hca, qpn, &refs, NULL);
	return refs;
}

static enum ib_qp_state qp_state(struct fx *fx, u32 qpn)
{
	return fake_hca_iw_qp_info(fx->hca, qpn, NULL, NULL);
}

static int cm_ids(struct fx *fx)
{
	return rdma_restrack_count(fx->dev, RDMA_RESTRACK_CM_ID, false);
}

static int iw_ids(struct fx *fx)
{
	return iwcm_test.ids_alive() - fx->iw_alive;
}

/* Every iw_cm event injected so far went through rdma_cm's handler. */
static void settle(void)
{
	iwcm_test.flush_events();
}

static struct sockaddr *ip4(struct sockaddr_storage *ss, const char *ip,
			    u16 port)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = in_aton(ip);
	sin->sin_port = htons(port);
	return (struct sockaddr *)ss;
}

static enum rdma_cm_state st(struct rdma_cm_id *id)
{
	return READ_ONCE(to_id_priv(id)->state);
}

/* ------------------------------------------------------------------
 * One rdma_cm id and what its handler saw (the id's context)
 */

struct ev_rec {
	enum rdma_cm_event_type	type;
	int			status;
	u8			pdata_len;
	u8			pdata[PD_MAX];
	u8			initiator_depth;
	u8			responder_resources;
	bool			rej_data;	/* consumer reject data found */
	u8			rej_len;
};

enum { REQ_KEEP, REQ_ACCEPT, REQ_REJECT };

struct conn {
	struct kunit		*test;
	struct fx		*fx;
	struct rdma_cm_id	*id;
	struct iw_cm_id		*iw;	/* the transport's id, once known */
	spinlock_t		lock;	/* ev, n */
	wait_queue_head_t	wq;
	struct ev_rec		ev[EV_MAX];
	unsigned int		n;
	/* what the handler returns, per event */
	int			ret[NR_EVENTS];
	/* the handler blocks on this event until @release */
	int			block_on;
	struct completion	entered;
	struct completion	release;
	/* a work destroys the id on this event */
	int			destroy_on;
	struct work_struct	destroy_work;
	struct completion	gone;
	bool			destroyed;
	bool			late_event;
	/* a request's new id: what its CONNECT_REQUEST handler does */
	int			on_request;
	u32			qpn;
	int			answer;		/* rdma_accept/_reject result */
	unsigned int		fail_left;	/* fail_nth found on arrival */
	/* a listener: the conns its requests' new ids take, in order */
	struct conn		*kids[KIDS_MAX];
	unsigned int		nkids;
	unsigned int		kids_used;
	bool			out_of_kids;
	bool			listener;
	u16			port;		/* a listener's */
	unsigned int		arm_nth;	/* failslab, see handler */
	bool			dying;		/* no more calls on it */
};

static void conn_destroy_work(struct work_struct *work)
{
	struct conn *c = container_of(work, struct conn, destroy_work);

	rdma_destroy_id(c->id);
	WRITE_ONCE(c->destroyed, true);
	complete_all(&c->gone);
	wake_up_all(&c->wq);
}

static void record(struct conn *c, struct rdma_cm_id *id,
		   struct rdma_cm_event *ev)
{
	struct ev_rec *r;
	const void *rej;
	u8 rej_len = 0;

	rej = ev->event == RDMA_CM_EVENT_REJECTED ?
		rdma_consumer_reject_data(id, ev, &rej_len) : NULL;
	spin_lock(&c->lock);
	if (READ_ONCE(c->destroyed))
		c->late_event = true;
	if (c->n < EV_MAX) {
		r = &c->ev[c->n];
		r->type = ev->event;
		r->status = ev->status;
		r->initiator_depth = ev->param.conn.initiator_depth;
		r->responder_resources = ev->param.conn.responder_resources;
		r->pdata_len = min_t(u8, ev->param.conn.private_data_len,
				     PD_MAX);
		if (r->pdata_len && ev->param.conn.private_data)
			memcpy(r->pdata, ev->param.conn.private_data,
			       r->pdata_len);
		r->rej_data = rej;
		r->rej_len = rej_len;
	}
	c->n++;
	spin_unlock(&c->lock);
}

/* A request on a listener: the new id takes the listener's next kid. */
static struct conn *take_kid(struct conn *l, struct rdma_cm_id *id)
{
	struct conn *kid = NULL;

	spin_lock(&l->lock);
	if (l->kids_used < l->nkids)
		kid = l->kids[l->kids_used++];
	else
		l->out_of_kids = true;
	spin_unlock(&l->lock);
	if (kid) {
		kid->id = id;
		id->context = kid;
	}
	return kid;
}

static void answer_request(struct conn *c)
{
	struct rdma_conn_param p = {
		.qp_num = c->qpn,
		.initiator_depth = 2,
		.responder_resources = 3,
		.private_data = "accepted",
		.private_data_len = 8,
	};

	if (c->on_request == REQ_ACCEPT)
		c->answer = rdma_accept(c->id, &p);
	else if (c->on_request == REQ_REJECT)
		c->answer = rdma_reject(c->id, "refused", 7, 0);
}

static int conn_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct conn *c = id->context, *l = NULL;
	unsigned int nth = 0;
	int ret;

	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST && c->listener) {
		l = c;
#ifdef CONFIG_FAULT_INJECTION
		/* allocation failures stop at the owner's handler */
		nth = current->fail_nth;
		current->fail_nth = 0;
#endif
		c = take_kid(l, id);
		if (!c)
			return -ENOMEM;
		c->fail_left = nth;
		c->iw = rdma_iw_cm_id(id);
	}
	if ((int)ev->event == c->block_on) {
		complete(&c->entered);
		wait_for_completion(&c->release);
	}
	record(c, id, ev);
	ret = c->ret[ev->event];
	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST && !ret)
		answer_request(c);
	if (ret && ev->event == RDMA_CM_EVENT_CONNECT_REQUEST)
		c->iw = NULL;	/* iw_cm destroys it after our return */
	if (ret)
		WRITE_ONCE(c->destroyed, true);
	if ((int)ev->event == c->destroy_on)
		queue_work(system_unbound_wq, &c->destroy_work);
#ifdef CONFIG_FAULT_INJECTION
	/* the next request of this work item runs with failslab armed */
	if (l && l->arm_nth) {
		current->fail_nth = l->arm_nth;
		l->arm_nth = 0;
	}
#endif
	wake_up_all(&c->wq);
	return ret;
}

static void conn_release(void *data)
{
	struct conn *c = data;

	complete_all(&c->release);
	flush_work(&c->destroy_work);
	if (c->id && !READ_ONCE(c->destroyed)) {
		rdma_destroy_id(c->id);
		WRITE_ONCE(c->destroyed, true);
	}
	KUNIT_EXPECT_FALSE(c->test, c->late_event);
	KUNIT_EXPECT_FALSE(c->test, c->out_of_kids);
}

static struct conn *alloc_conn(struct fx *fx)
{
	struct conn *c = kunit_kzalloc(fx->test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(fx->test, c);
	c->test = fx->test;
	c->fx = fx;
	spin_lock_init(&c->lock);
	init_waitqueue_head(&c->wq);
	init_completion(&c->entered);
	init_completion(&c->release);
	init_completion(&c->gone);
	INIT_WORK(&c->destroy_work, conn_destroy_work);
	c->block_on = -1;
	c->destroy_on = -1;
	KUNIT_ASSERT_EQ(fx->test, kunit_add_action_or_reset(fx->test,
							    conn_release, c),
			0);
	return c;
}

static struct conn *new_conn(struct fx *fx)
{
	struct conn *c = alloc_conn(fx);

	c->id = rdma_create_id(&init_net, conn_handler, c, RDMA_PS_TCP,
			       IB_QPT_RC);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(fx->test, c->id);
	return c;
}

/* The conn the next request on @l gets; set it up before the request. */
static struct conn *new_kid(struct conn *l, u32 qpn, int on_request)
{
	struct conn *kid = alloc_conn(l->fx);

	KUNIT_ASSERT_LT(l->test, l->nkids, (unsigned int)KIDS_MAX);
	kid->qpn = qpn;
	kid->on_request = on_request;
	spin_lock(&l->lock);
	l->kids[l->nkids++] = kid;
	spin_unlock(&l->lock);
	return kid;
}

/* Destroy now (the test's thread), as the owner would. */
static void destroy(struct conn *c)
{
	kunit_release_action(c->test, conn_release, c);
}

static bool wait_n(struct conn *c, unsigned int n)
{
	return wait_event_timeout(c->wq, READ_ONCE(c->n) >= n, WAIT_JIFFIES);
}

/* The @nth event (1-based) is @type with @status. */
static struct ev_rec *expect_ev(struct conn *c, unsigned int nth,
				enum rdma_cm_event_type type, int status)
{
	struct kunit *test = c->test;

	KUNIT_ASSERT_TRUE_MSG(test, wait_n(c, nth), "no event %u (%s)", nth,
			      rdma_event_msg(type));
	KUNIT_EXPECT_STREQ_MSG(test, rdma_event_msg(c->ev[nth - 1].type),
			       rdma_event_msg(type), "event %u", nth);
	KUNIT_EXPECT_EQ_MSG(test, c->ev[nth - 1].status, status, "event %u",
			    nth);
	return &c->ev[nth - 1];
}

static bool completed(struct completion *done)
{
	return wait_for_completion_timeout(done, WAIT_JIFFIES);
}

/*
 * Whether a task sleeps on @m: a waiter on its list goes on only once
 * the owner unlocked it.  (The struct mutex of a kernel without
 * PREEMPT_RT, as the test kernels are.)
 */
static bool mutex_has_waiter(struct mutex *m)
{
	return !list_empty_careful(&m->wait_list);
}

/*
 * Wait, WAIT_JIFFIES at most, until another thread sleeps on @m, which a
 * blocked handler's thread holds.  From then on that thread cannot go
 * on before the handler returns: what it would complete cannot be
 * complete yet, for certain, however slowly it got there.
 */
static bool blocks_on(struct mutex *m)
{
	unsigned long end = jiffies + WAIT_JIFFIES;

	while (!mutex_has_waiter(m)) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(200, 500);
	}
	return true;
}

/* The lock every event of @id is delivered under. */
static struct mutex *handler_lock(struct rdma_cm_id *id)
{
	return &to_id_priv(id)->handler_mutex;
}

/* ------------------------------------------------------------------
 * The wire, played by the test
 */

static int inject(struct iw_cm_id *iw, enum iw_cm_event_type type,
		  int status, const char *pdata)
{
	struct iw_cm_event ev = {
		.event = type,
		.status = status,
		.private_data = (void *)pdata,
		.private_data_len = pdata ? strlen(pdata) : 0,
		.ird = 5,
		.ord = 6,
	};

	return fake_hca_iw_event(iw, &ev);
}

/* The peer 192.0.2.9:7000 asks @l for a connection. */
static int inject_request(struct conn *l, unsigned long cookie)
{
	struct iw_cm_event ev = {
		.event = IW_CM_EVENT_CONNECT_REQUEST,
		.provider_data = (void *)cookie,
		.private_data = "hello",
		.private_data_len = 5,
		.ird = 4,
		.ord = 3,
	};

	ip4(&ev.local_addr, "192.0.2.1", l->port);
	ip4(&ev.remote_addr, "192.0.2.9", 7000);
	return fake_hca_iw_event(l->iw, &ev);
}

/*
 * The driver still holds @c's transport id (a connect or accept it
 * took): the wire may still report on it, whatever became of @c.
 */
static bool on_wire(struct conn *c)
{
	return c->iw && fake_hca_iw_held(c->fx->hca, c->iw);
}

/* Whatever the fake still holds of @c's connection, it lets go. */
static void driver_done(struct fx *fx, struct conn *c)
{
	if (c->iw)
		while (fake_hca_iw_put_id(fx->hca, c->iw))
			;
}

/* ------------------------------------------------------------------
 * Ids in each state
 */

/* ROUTE_RESOLVED towards 192.0.2.2, two events seen. */
static struct conn *routed(struct fx *fx)
{
	struct conn *c = new_conn(fx);
	struct sockaddr_storage dst;

	KUNIT_ASSERT_EQ(fx->test, rdma_resolve_addr(c->id, NULL,
						    ip4(&dst, "192.0.2.2",
							BASE_PORT - 1),
						    1000), 0);
	expect_ev(c, 1, RDMA_CM_EVENT_ADDR_RESOLVED, 0);
	KUNIT_ASSERT_EQ(fx->test, rdma_resolve_route(c->id, 1000), 0);
	expect_ev(c, 2, RDMA_CM_EVENT_ROUTE_RESOLVED, 0);
	KUNIT_ASSERT_EQ(fx->test, st(c->id), RDMA_CM_ROUTE_RESOLVED);
	return c;
}

static int do_connect(struct conn *c, u32 qpn)
{
	struct rdma_conn_param p = {
		.qp_num = qpn,
		.initiator_depth = 3,
		.responder_resources = 4,
		.private_data = "connect",
		.private_data_len = 7,
	};

	return rdma_connect(c->id, &p);
}

/* Connecting: the request is with the driver (iw_cm CONN_SENT). */
static struct conn *connecting(struct fx *fx, u32 qpn)
{
	struct conn *c = routed(fx);

	KUNIT_ASSERT_EQ(fx->test, do_connect(c, qpn), 0);
	KUNIT_ASSERT_EQ(fx->test, st(c->id), RDMA_CM_CONNECT);
	c->iw = rdma_iw_cm_id(c->id);
	KUNIT_ASSERT_NOT_NULL(fx->test, c->iw);
	KUNIT_ASSERT_EQ(fx->test, iwcm_test.id_state(c->iw), IW_CM_STATE_CONN_SENT);
	return c;
}

/* Connected, active side: ESTABLISHED seen (3 events). */
static struct conn *connected(struct fx *fx, u32 qpn)
{
	struct conn *c = connecting(fx, qpn);

	KUNIT_ASSERT_EQ(fx->test, inject(c->iw, IW_CM_EVENT_CONNECT_REPLY, 0,
					 NULL), 0);
	expect_ev(c, 3, RDMA_CM_EVENT_ESTABLISHED, 0);
	return c;
}

/* Listening on 192.0.2.1 (the device); requests need kids (new_kid()). */
static struct conn *listening(struct fx *fx)
{
	struct conn *c = new_conn(fx);
	struct sockaddr_storage ss;

	c->listener = true;
	c->port = fx->port++;
	KUNIT_ASSERT_EQ(fx->test, rdma_bind_addr(c->id,
						 ip4(&ss, "192.0.2.1",
						     c->port)), 0);
	KUNIT_ASSERT_EQ(fx->test, rdma_listen(c->id, 8), 0);
	c->iw = rdma_iw_cm_id(c->id);
	KUNIT_ASSERT_NOT_NULL(fx->test, c->iw);
	KUNIT_ASSERT_EQ(fx->test, iwcm_test.id_state(c->iw), IW_CM_STATE_LISTEN);
	return c;
}

/* A request on @l; its new id, CONNECT_REQUEST seen and answered. */
static struct conn *requested(struct conn *l, u32 qpn, int on_request)
{
	struct conn *kid = new_kid(l, qpn, on_request);

	KUNIT_ASSERT_EQ(l->test, inject_request(l, 0x1000 + l->nkids), 0);
	expect_ev(kid, 1, RDMA_CM_EVENT_CONNECT_REQUEST, 0);
	KUNIT_ASSERT_NOT_NULL(l->test, kid->iw);
	if (on_request == REQ_ACCEPT)
		KUNIT_ASSERT_EQ(l->test, kid->answer, 0);
	return kid;
}

/* Connected, passive side: accepted, ESTABLISHED seen (2 events). */
static struct conn *accepted_established(struct conn *l, u32 qpn)
{
	struct conn *kid = requested(l, qpn, REQ_ACCEPT);

	KUNIT_ASSERT_EQ(l->test, inject(kid->iw, IW_CM_EVENT_ESTABLISHED, 0,
					NULL), 0);
	expect_ev(kid, 2, RDMA_CM_EVENT_ESTABLISHED, 0);
	return kid;
}

/* ------------------------------------------------------------------
 * Events on the active side
 */

struct reply_case {
	const char			*name;
	int				status;
	const char			*pdata;
	enum rdma_cm_event_type		want;
	bool				consumer_data;
};

static const struct reply_case reply_cases[] = {
	{ "accepted", 0, "welcome", RDMA_CM_EVENT_ESTABLISHED, false },
	{ "refused by the peer's owner", -ECONNREFUSED, "go away",
	  RDMA_CM_EVENT_REJECTED, true },
	{ "reset by the peer", -ECONNRESET, NULL, RDMA_CM_EVENT_REJECTED,
	  false },
	{ "timed out", -ETIMEDOUT, NULL, RDMA_CM_EVENT_UNREACHABLE, false },
	{ "other error", -EHOSTUNREACH, NULL, RDMA_CM_EVENT_CONNECT_ERROR,
	  false },
};

/*
 * Connect: what reaches the driver, then each CONNECT_REPLY status and
 * the event it gives; the id stays CONNECT (the owner destroys it after
 * a failure); a failed connect leaves the QP to nobody.
 */
static void rdma_cma_conn_connect_replies(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct fake_hca_iw_call *call;
	unsigned int i;

	call = kunit_kzalloc(test, sizeof(*call), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, call);
	for (i = 0; i < ARRAY_SIZE(reply_cases); i++) {
		const struct reply_case *rc = &reply_cases[i];
		struct conn *c = connecting(fx, QPN_A);
		struct sockaddr_in *sin;
		struct ev_rec *r;

		kunit_info(test, "reply: %s\n", rc->name);
		KUNIT_ASSERT_TRUE(test, fake_hca_iw_last(fx->hca,
							 FAKE_HCA_IW_CONNECT,
							 call));
		KUNIT_EXPECT_PTR_EQ(test, call->cm_id, c->iw);
		KUNIT_EXPECT_EQ(test, call->qpn, QPN_A);
		KUNIT_EXPECT_EQ(test, call->ord, 3);
		KUNIT_EXPECT_EQ(test, call->ird, 4);
		KUNIT_EXPECT_EQ(test, call->pdata_len, 7);
		KUNIT_EXPECT_MEMEQ(test, call->pdata, "connect", 7);
		sin = (struct sockaddr_in *)&call->remote;
		KUNIT_EXPECT_EQ(test, ntohl(sin->sin_addr.s_addr),
				ntohl(in_aton("192.0.2.2")));
		sin = (struct sockaddr_in *)&call->local;
		KUNIT_EXPECT_EQ(test, ntohl(sin->sin_addr.s_addr),
				ntohl(in_aton("192.0.2.1")));
		KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_A), 1);

		KUNIT_ASSERT_EQ(test, inject(c->iw, IW_CM_EVENT_CONNECT_REPLY,
					     rc->status, rc->pdata), 0);
		r = expect_ev(c, 3, rc->want, rc->status);
		KUNIT_EXPECT_EQ(test, st(c->id), RDMA_CM_CONNECT);
		KUNIT_EXPECT_EQ(test, r->rej_data, rc->consumer_data);
		if (rc->consumer_data) {
			KUNIT_EXPECT_EQ(test, r->rej_len, strlen(rc->pdata));
			KUNIT_EXPECT_MEMEQ(test, r->pdata, rc->pdata,
					   strlen(rc->pdata));
		}
		if (rc->pdata)
			KUNIT_EXPECT_EQ(test, r->pdata_len, strlen(rc->pdata));
		if (!rc->status) {
			KUNIT_EXPECT_EQ(test, r->initiator_depth, 5);
			KUNIT_EXPECT_EQ(test, r->responder_resources, 6);
			KUNIT_EXPECT_EQ(test, iwcm_test.id_state(c->iw),
					IW_CM_STATE_ESTABLISHED);
			KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_A), 1);
		} else {
			KUNIT_EXPECT_EQ(test, iwcm_test.id_state(c->iw),
					IW_CM_STATE_IDLE);
			KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_A), 0);
			/* a second reply finds nothing to answer */
			KUNIT_EXPECT_EQ(test,
					inject(c->iw, IW_CM_EVENT_CONNECT_REPLY,
					       0, NULL), 0);
			settle();
			KUNIT_EXPECT_EQ(test, c->n, 3U);
		}
		destroy(c);
		KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_A), 0);
		KUNIT_EXPECT_EQ(test, cm_ids(fx), 0);
	}
}

/*
 * Established, then the peer closes (DISCONNECT is iw_cm's, CLOSE gives
 * DISCONNECTED); or our side disconnects (graceful: the QP to SQD), then
 * CLOSE.  A CLOSE before any reply is a refused connect: REJECTED.
 */
static void rdma_cma_conn_disconnects(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct conn *c;

	c = connected(fx, QPN_A);
	KUNIT_EXPECT_EQ(test, inject(c->iw, IW_CM_EVENT_DISCONNECT, 0, NULL),
			0);
	settle();
	KUNIT_EXPECT_EQ(test, c->n, 3U);
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(c->iw), IW_CM_STATE_CLOSING);
	KUNIT_EXPECT_EQ(test, inject(c->iw, IW_CM_EVENT_CLOSE, 0, NULL), 0);
	expect_ev(c, 4, RDMA_CM_EVENT_DISCONNECTED, 0);
	KUNIT_EXPECT_EQ(test, st(c->id), RDMA_CM_CONNECT);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_A), 0);
	/* a second CLOSE: nothing more */
	KUNIT_EXPECT_EQ(test, inject(c->iw, IW_CM_EVENT_CLOSE, 0, NULL), 0);
	settle();
	KUNIT_EXPECT_EQ(test, c->n, 4U);
	destroy(c);

	c = connected(fx, QPN_A);
	KUNIT_EXPECT_EQ(test, rdma_disconnect(c->id), 0);
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(c->iw), IW_CM_STATE_CLOSING);
	KUNIT_EXPECT_EQ(test, qp_state(fx, QPN_A), IB_QPS_SQD);
	KUNIT_EXPECT_EQ(test, inject(c->iw, IW_CM_EVENT_CLOSE, 0, NULL), 0);
	expect_ev(c, 4, RDMA_CM_EVENT_DISCONNECTED, 0);
	destroy(c);

	c = connecting(fx, QPN_A);
	KUNIT_EXPECT_EQ(test, inject(c->iw, IW_CM_EVENT_CLOSE, 0, NULL), 0);
	expect_ev(c, 3, RDMA_CM_EVENT_REJECTED, -ECONNRESET);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_A), 0);
	destroy(c);

	/* destroying an established id cuts the connection (QP to ERR) */
	c = connected(fx, QPN_A);
	destroy(c);
	KUNIT_EXPECT_EQ(test, qp_state(fx, QPN_A), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_A), 0);
	KUNIT_EXPECT_EQ(test, cm_ids(fx), 0);
}

/*
 * The driver refuses the connect: the error comes back, the id is in
 * ROUTE_RESOLVED again without a transport id and may connect again.
 */
static void rdma_cma_conn_connect_refused(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct conn *c = routed(fx);
	struct rdma_cm_id *id = c->id;

	fake_hca_iw_fail(fx->hca, FAKE_HCA_IW_CONNECT, -EHOSTDOWN);
	KUNIT_EXPECT_EQ(test, do_connect(c, QPN_A), -EHOSTDOWN);
	KUNIT_EXPECT_EQ(test, st(id), RDMA_CM_ROUTE_RESOLVED);
	KUNIT_EXPECT_NULL(test, rdma_iw_cm_id(id));
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_A), 0);
	KUNIT_EXPECT_EQ(test, iw_ids(fx), 0);
	/* no QP of that number: iw_cm refuses */
	KUNIT_EXPECT_EQ(test, do_connect(c, 0x77), -EINVAL);
	KUNIT_EXPECT_EQ(test, st(id), RDMA_CM_ROUTE_RESOLVED);
	KUNIT_EXPECT_EQ(test, do_connect(c, QPN_A), 0);
	/* connecting twice, accepting a connect: wrong state */
	KUNIT_EXPECT_EQ(test, do_connect(c, QPN_A), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_reject(id, NULL, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, c->n, 2U);
}

/*
 * rdma_set_ack_timeout() and rdma_set_min_rnr_timer() on an iWARP
 * connection: taken (RC), and kept out of every attribute set
 * rdma_init_qp_attr() gives, since iw_cm's masks hold neither
 * IB_QP_TIMEOUT nor IB_QP_MIN_RNR_TIMER (the driver runs the stream).
 * Where they do apply, the IB CM's RTR/RTS, is a gap until the IB CM
 * lands (rdma_cma_bind's qp_options case).
 */
static void rdma_cma_conn_qp_options_iwarp_unused(struct kunit *test)
{
	static const enum ib_qp_state states[] = {
		IB_QPS_INIT, IB_QPS_RTR, IB_QPS_RTS,
	};
	struct fx *fx = test->priv;
	struct conn *c = connected(fx, QPN_A);
	unsigned int i;

	KUNIT_ASSERT_EQ(test, rdma_set_ack_timeout(c->id, 14), 0);
	KUNIT_ASSERT_EQ(test, rdma_set_min_rnr_timer(c->id, 12), 0);
	for (i = 0; i < ARRAY_SIZE(states); i++) {
		struct ib_qp_attr attr = {
			.qp_state = states[i],
			.timeout = 0x55,
			.min_rnr_timer = 0x66,
		};
		int mask = 0;

		KUNIT_ASSERT_EQ(test, rdma_init_qp_attr(c->id, &attr, &mask),
				0);
		KUNIT_EXPECT_EQ_MSG(test, mask & (IB_QP_TIMEOUT |
						  IB_QP_MIN_RNR_TIMER), 0,
				    "state %d", states[i]);
		KUNIT_EXPECT_EQ_MSG(test, attr.timeout, 0x55, "state %d",
				    states[i]);
		KUNIT_EXPECT_EQ_MSG(test, attr.min_rnr_timer, 0x66,
				    "state %d", states[i]);
		KUNIT_EXPECT_TRUE(test, mask & IB_QP_PORT);
		KUNIT_EXPECT_EQ(test, attr.port_num, 1);
	}
}

static int ud_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	return 0;
}

static void ud_destroy(void *id)
{
	rdma_destroy_id(id);
}

/* iWARP has no multicast: -ENOSYS, as upstream, and nothing joined. */
static void rdma_cma_conn_multicast_iwarp(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct sockaddr_storage ss;
	struct rdma_cm_id *ud;

	ud = rdma_create_id(&init_net, ud_handler, NULL, RDMA_PS_UDP,
			    IB_QPT_UD);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ud);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ud_destroy, ud),
			0);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(ud, ip4(&ss, "192.0.2.1",
						     fx->port++)), 0);
	KUNIT_ASSERT_PTR_EQ(test, ud->device, fx->dev);
	KUNIT_EXPECT_EQ(test, rdma_join_multicast(ud, ip4(&ss, "239.1.1.1", 0),
						  BIT(FULLMEMBER_JOIN), NULL),
			-ENOSYS);
	KUNIT_EXPECT_TRUE(test, list_empty(&to_id_priv(ud)->mc_list));
}

/* ------------------------------------------------------------------
 * Events on the passive side
 */

/*
 * A request on a listener: a new id with the listener's handler, the
 * peer's private data, ird/ord and addresses; accepted from the handler
 * (what reaches the driver), then ESTABLISHED and CLOSE.
 */
static void rdma_cma_conn_request_accept(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct conn *l = listening(fx);
	struct fake_hca_iw_call *call;
	struct sockaddr_in *sin;
	struct conn *kid;
	struct ev_rec *r;

	call = kunit_kzalloc(test, sizeof(*call), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, call);
	KUNIT_ASSERT_TRUE(test, fake_hca_iw_last(fx->hca,
						 FAKE_HCA_IW_CREATE_LISTEN,
						 call));
	KUNIT_EXPECT_EQ(test, call->backlog, 8);
	KUNIT_EXPECT_EQ(test, cm_ids(fx), 1);

	kid = requested(l, QPN_P, REQ_ACCEPT);
	r = &kid->ev[0];
	KUNIT_EXPECT_EQ(test, r->pdata_len, 5);
	KUNIT_EXPECT_MEMEQ(test, r->pdata, "hello", 5);
	KUNIT_EXPECT_EQ(test, r->initiator_depth, 4);
	KUNIT_EXPECT_EQ(test, r->responder_resources, 3);
	KUNIT_EXPECT_EQ(test, l->n, 0U);
	KUNIT_EXPECT_EQ(test, st(kid->id), RDMA_CM_CONNECT);
	KUNIT_EXPECT_PTR_EQ(test, kid->id->device, fx->dev);
	sin = (struct sockaddr_in *)&kid->id->route.addr.dst_addr;
	KUNIT_EXPECT_EQ(test, ntohl(sin->sin_addr.s_addr),
			ntohl(in_aton("192.0.2.9")));
	KUNIT_EXPECT_EQ(test, ntohs(sin->sin_port), 7000);
	KUNIT_EXPECT_EQ(test, cm_ids(fx), 2);

	KUNIT_ASSERT_TRUE(test, fake_hca_iw_last(fx->hca, FAKE_HCA_IW_ACCEPT,
						 call));
	KUNIT_EXPECT_PTR_EQ(test, call->cm_id, kid->iw);
	KUNIT_EXPECT_EQ(test, call->qpn, QPN_P);
	KUNIT_EXPECT_EQ(test, call->ord, 2);
	KUNIT_EXPECT_EQ(test, call->ird, 3);
	KUNIT_EXPECT_EQ(test, call->pdata_len, 8);
	KUNIT_EXPECT_MEMEQ(test, call->pdata, "accepted", 8);
	KUNIT_EXPECT_PTR_EQ(test, call->provider_data, (void *)0x1001);

	KUNIT_EXPECT_EQ(test, inject(kid->iw, IW_CM_EVENT_ESTABLISHED, 0,
				     NULL), 0);
	r = expect_ev(kid, 2, RDMA_CM_EVENT_ESTABLISHED, 0);
	KUNIT_EXPECT_EQ(test, r->initiator_depth, 5);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_P), 1);
	KUNIT_EXPECT_EQ(test, inject(kid->iw, IW_CM_EVENT_CLOSE, 0, NULL), 0);
	expect_ev(kid, 3, RDMA_CM_EVENT_DISCONNECTED, 0);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_P), 0);
	KUNIT_EXPECT_EQ(test, l->n, 0U);

	/* the listener outlives its connection, and the other way round */
	destroy(l);
	KUNIT_EXPECT_EQ(test, cm_ids(fx), 1);
	destroy(kid);
	KUNIT_EXPECT_EQ(test, cm_ids(fx), 0);
	/* the driver's reference is the last one */
	KUNIT_EXPECT_EQ(test, iw_ids(fx), 1);
	driver_done(fx, kid);
	KUNIT_EXPECT_EQ(test, iw_ids(fx), 0);
}

/*
 * Answers other than accepting in the handler: reject with private data;
 * accept later under rdma_lock_handler(); an accept the driver refuses
 * (rejected for the owner); a CLOSE before the accept's ESTABLISHED.
 */
static void rdma_cma_conn_request_answers(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct conn *l = listening(fx);
	struct rdma_conn_param p = { .qp_num = QPN_P + 1 };
	struct fake_hca_iw_call *call;
	unsigned int rejects;
	struct conn *kid;

	call = kunit_kzalloc(test, sizeof(*call), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, call);

	kid = requested(l, QPN_P, REQ_REJECT);
	KUNIT_EXPECT_EQ(test, kid->answer, 0);
	KUNIT_ASSERT_TRUE(test, fake_hca_iw_last(fx->hca, FAKE_HCA_IW_REJECT,
						 call));
	KUNIT_EXPECT_PTR_EQ(test, call->cm_id, kid->iw);
	KUNIT_EXPECT_EQ(test, call->pdata_len, 7);
	KUNIT_EXPECT_MEMEQ(test, call->pdata, "refused", 7);
	/* rejected: an ESTABLISHED now is iw_cm's to refuse */
	KUNIT_EXPECT_EQ(test, inject(kid->iw, IW_CM_EVENT_ESTABLISHED, 0, NULL),
			0);
	settle();
	KUNIT_EXPECT_EQ(test, kid->n, 1U);
	destroy(kid);

	kid = requested(l, QPN_P, REQ_KEEP);
	KUNIT_EXPECT_EQ(test, fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_ACCEPT),
			0U);
	/* a request not answered yet is left alone by a disconnect */
	KUNIT_EXPECT_EQ(test, rdma_disconnect(kid->id), 0);
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(kid->iw), IW_CM_STATE_CONN_RECV);
	rdma_lock_handler(kid->id);
	KUNIT_EXPECT_EQ(test, rdma_accept(kid->id, &p), 0);
	rdma_unlock_handler(kid->id);
	KUNIT_EXPECT_EQ(test, fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_ACCEPT),
			1U);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_P + 1), 1);
	/* the peer gives up before ESTABLISHED: DISCONNECTED */
	KUNIT_EXPECT_EQ(test, inject(kid->iw, IW_CM_EVENT_CLOSE, 0, NULL), 0);
	expect_ev(kid, 2, RDMA_CM_EVENT_DISCONNECTED, 0);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_P + 1), 0);
	destroy(kid);

	kid = requested(l, QPN_P, REQ_KEEP);
	rejects = fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT);
	fake_hca_iw_fail(fx->hca, FAKE_HCA_IW_ACCEPT, -EIO);
	rdma_lock_handler(kid->id);
	KUNIT_EXPECT_EQ(test, rdma_accept(kid->id, &p), -EIO);
	/*
	 * A driver that fails an accept ends the connection itself (as
	 * upstream): iw_cm's id is IDLE and rdma_accept()'s reject finds
	 * nothing to refuse.
	 */
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(kid->iw), IW_CM_STATE_IDLE);
	KUNIT_EXPECT_EQ(test, fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT),
			rejects);
	/* no connection parameters: iWARP needs them */
	KUNIT_EXPECT_EQ(test, rdma_accept(kid->id, NULL), -EINVAL);
	rdma_unlock_handler(kid->id);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_P + 1), 0);
	destroy(kid);

	/* an accept naming no QP of the device: refused, and rejected */
	kid = requested(l, QPN_P, REQ_KEEP);
	rejects = fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT);
	p.qp_num = 0x77;
	rdma_lock_handler(kid->id);
	KUNIT_EXPECT_EQ(test, rdma_accept(kid->id, &p), -EINVAL);
	rdma_unlock_handler(kid->id);
	KUNIT_EXPECT_EQ(test, fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT),
			rejects + 1);
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(kid->iw), IW_CM_STATE_IDLE);
	destroy(kid);

	/* a request not answered: destroying its id rejects it */
	kid = requested(l, QPN_P, REQ_KEEP);
	rejects = fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT);
	destroy(kid);
	KUNIT_EXPECT_EQ(test, fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT),
			rejects + 1);
	KUNIT_EXPECT_EQ(test, cm_ids(fx), 1);
	KUNIT_EXPECT_EQ(test, l->n, 0U);
}

/* ------------------------------------------------------------------
 * Each transport event in each connection state
 */

enum {
	M_CONNECTING, M_ESTABLISHED, M_CLOSED, M_PENDING, M_ACCEPTED,
	M_PASSIVE_EST, M_REJECTED, M_STATES
};

static const char * const m_state_names[] = {
	"connecting", "established", "closed", "request pending",
	"request accepted", "passive established", "request rejected",
};

enum {
	E_REPLY, E_REPLY_REFUSED, E_ESTABLISHED, E_DISCONNECT, E_CLOSE,
	E_EVENTS
};

static const char * const m_event_names[] = {
	"CONNECT_REPLY 0", "CONNECT_REPLY -ECONNREFUSED", "ESTABLISHED",
	"DISCONNECT", "CLOSE",
};

#define NONE	(-1)

/* The rdma_cm event each (state, transport event) gives, or NONE. */
static const int m_want[M_STATES][E_EVENTS] = {
	[M_CONNECTING]	= { RDMA_CM_EVENT_ESTABLISHED, RDMA_CM_EVENT_REJECTED,
			    NONE, NONE, RDMA_CM_EVENT_REJECTED },
	[M_ESTABLISHED]	= { NONE, NONE, NONE, NONE,
			    RDMA_CM_EVENT_DISCONNECTED },
	[M_CLOSED]	= { NONE, NONE, NONE, NONE, NONE },
	[M_PENDING]	= { NONE, NONE, NONE, NONE, NONE },
	[M_ACCEPTED]	= { NONE, NONE, RDMA_CM_EVENT_ESTABLISHED, NONE,
			    RDMA_CM_EVENT_DISCONNECTED },
	[M_PASSIVE_EST]	= { NONE, NONE, NONE, NONE,
			    RDMA_CM_EVENT_DISCONNECTED },
	[M_REJECTED]	= { NONE, NONE, NONE, NONE, NONE },
};

static struct conn *in_m_state(struct fx *fx, struct conn *l, int m)
{
	struct conn *c;

	switch (m) {
	case M_CONNECTING:
		return connecting(fx, QPN_A);
	case M_ESTABLISHED:
		return connected(fx, QPN_A);
	case M_CLOSED:
		c = connected(fx, QPN_A);
		KUNIT_EXPECT_EQ(fx->test, inject(c->iw, IW_CM_EVENT_CLOSE, 0,
						 NULL), 0);
		expect_ev(c, 4, RDMA_CM_EVENT_DISCONNECTED, 0);
		return c;
	case M_PENDING:
		return requested(l, QPN_P, REQ_KEEP);
	case M_ACCEPTED:
		return requested(l, QPN_P, REQ_ACCEPT);
	case M_PASSIVE_EST:
		return accepted_established(l, QPN_P);
	default:
		return requested(l, QPN_P, REQ_REJECT);
	}
}

static const int m_iw_event[E_EVENTS] = {
	IW_CM_EVENT_CONNECT_REPLY, IW_CM_EVENT_CONNECT_REPLY,
	IW_CM_EVENT_ESTABLISHED, IW_CM_EVENT_DISCONNECT, IW_CM_EVENT_CLOSE,
};

/*
 * Every transport event in every state of a connection, on both sides:
 * the rdma_cm event it gives (or that it gives none), and the rdma_cm
 * state after (CONNECT: an iWARP connection's ups and downs are events,
 * the owner destroys the id when it is done).
 */
static void rdma_cma_conn_event_matrix(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct conn *l = listening(fx);
	int m, e;

	for (m = 0; m < M_STATES; m++) {
		for (e = 0; e < E_EVENTS; e++) {
			int want = m_want[m][e];
			const char *got;
			struct conn *c;
			unsigned int n;

			if (l->nkids == KIDS_MAX) {
				destroy(l);
				l = listening(fx);
			}
			c = in_m_state(fx, l, m);
			n = c->n;
			KUNIT_EXPECT_EQ(test, inject(c->iw, m_iw_event[e],
						     e == E_REPLY_REFUSED ?
						     -ECONNREFUSED : 0, NULL),
					0);
			settle();
			got = c->n > n ? rdma_event_msg(c->ev[n].type) : "none";
			KUNIT_EXPECT_STREQ_MSG(test, got, want == NONE ? "none" :
					       rdma_event_msg(want), "%s: %s",
					       m_state_names[m], m_event_names[e]);
			KUNIT_EXPECT_LE(test, c->n, n + 1);
			KUNIT_EXPECT_EQ(test, st(c->id), RDMA_CM_CONNECT);
			destroy(c);
			driver_done(fx, c);
			KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_A), 0);
			KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_P), 0);
		}
	}
	KUNIT_EXPECT_EQ(test, iw_ids(fx), 1);
}

/* ------------------------------------------------------------------
 * A device's removal from another thread
 */

struct remover {
	struct work_struct	work;
	struct fake_hca		*hca;
	struct completion	done;
};

static void remover_work(struct work_struct *work)
{
	struct remover *r = container_of(work, struct remover, work);

	fake_hca_unregister(r->hca);
	complete(&r->done);
}

static struct remover *start_removal(struct fx *fx)
{
	struct remover *r = kunit_kzalloc(fx->test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(fx->test, r);
	INIT_WORK(&r->work, remover_work);
	init_completion(&r->done);
	r->hca = fx->hca;
	queue_work(system_unbound_wq, &r->work);
	return r;
}

/* ------------------------------------------------------------------
 * Events that must be ignored
 */

/*
 * Once an id heard DEVICE_REMOVAL it hears nothing from the transport:
 * the device's removal waits for the owners, and meanwhile the driver
 * still reports on their connections.  A listener in DEVICE_REMOVAL
 * refuses requests.  iw_cm's own refusals (an ESTABLISHED on the active
 * side) never reach the owner either.
 */
static void rdma_cma_conn_ignored_events(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct conn *a = connected(fx, QPN_A);
	struct conn *w = connecting(fx, QPN_A + 1);
	struct conn *l = listening(fx);
	struct conn *p = accepted_established(l, QPN_P);
	unsigned int rejects, kids;
	struct remover *r;

	/* iw_cm refuses these: nothing for the owners */
	KUNIT_EXPECT_EQ(test, inject(w->iw, IW_CM_EVENT_ESTABLISHED, 0, NULL),
			0);
	KUNIT_EXPECT_EQ(test, inject(p->iw, IW_CM_EVENT_CONNECT_REPLY, 0,
				     NULL), 0);
	settle();
	KUNIT_EXPECT_EQ(test, w->n, 2U);
	KUNIT_EXPECT_EQ(test, p->n, 2U);

	r = start_removal(fx);
	expect_ev(a, 4, RDMA_CM_EVENT_DEVICE_REMOVAL, 0);
	expect_ev(w, 3, RDMA_CM_EVENT_DEVICE_REMOVAL, 0);
	expect_ev(l, 1, RDMA_CM_EVENT_DEVICE_REMOVAL, 0);
	expect_ev(p, 3, RDMA_CM_EVENT_DEVICE_REMOVAL, 0);
	KUNIT_EXPECT_EQ(test, st(a->id), RDMA_CM_DEVICE_REMOVAL);
	KUNIT_EXPECT_FALSE(test, completion_done(&r->done));

	rejects = fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT);
	kids = l->nkids;
	KUNIT_EXPECT_EQ(test, inject(a->iw, IW_CM_EVENT_CLOSE, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, inject(w->iw, IW_CM_EVENT_CONNECT_REPLY, 0,
				     "late"), 0);
	KUNIT_EXPECT_EQ(test, inject(p->iw, IW_CM_EVENT_CLOSE, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, inject_request(l, 0x2001), 0);
	settle();
	KUNIT_EXPECT_EQ(test, a->n, 4U);
	KUNIT_EXPECT_EQ(test, w->n, 3U);
	KUNIT_EXPECT_EQ(test, p->n, 3U);
	KUNIT_EXPECT_EQ(test, l->n, 1U);
	KUNIT_EXPECT_EQ(test, l->kids_used, kids);
	KUNIT_EXPECT_EQ(test, fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT),
			rejects + 1);
	KUNIT_EXPECT_EQ(test, cm_ids(fx), 4);
	/* the transport's state moved on all the same */
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(a->iw), IW_CM_STATE_IDLE);
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(w->iw), IW_CM_STATE_ESTABLISHED);

	destroy(a);
	destroy(w);
	destroy(p);
	KUNIT_EXPECT_FALSE(test, completion_done(&r->done));
	destroy(l);
	KUNIT_ASSERT_TRUE(test, completed(&r->done));
	driver_done(fx, a);
	driver_done(fx, w);
	driver_done(fx, p);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_A), 0);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_A + 1), 0);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_P), 0);
	KUNIT_EXPECT_EQ(test, iw_ids(fx), 0);
}

/* ------------------------------------------------------------------
 * Handlers returning non-zero: rdma_cm destroys the id
 */

enum ev_point {
	P_ESTABLISHED,		/* active, CONNECT_REPLY 0 */
	P_REJECTED,		/* active, CONNECT_REPLY -ECONNREFUSED */
	P_UNREACHABLE,		/* active, CONNECT_REPLY -ETIMEDOUT */
	P_DISCONNECTED,		/* active established, CLOSE */
	P_REQUEST,		/* passive, CONNECT_REQUEST on the new id */
	P_PASSIVE_EST,		/* passive accepted, ESTABLISHED */
	P_PASSIVE_CLOSE,	/* passive established, CLOSE */
	P_ADDR_CHANGE,		/* active established, the MAC changes */
	P_COUNT
};

static const char * const p_names[] = {
	"ESTABLISHED", "REJECTED", "UNREACHABLE", "DISCONNECTED",
	"CONNECT_REQUEST", "ESTABLISHED (passive)", "DISCONNECTED (passive)",
	"ADDR_CHANGE",
};

static const int p_status[] = {
	0, -ECONNREFUSED, -ETIMEDOUT, 0, 0, 0, 0, 0,
};

static const enum rdma_cm_event_type p_events[] = {
	RDMA_CM_EVENT_ESTABLISHED, RDMA_CM_EVENT_REJECTED,
	RDMA_CM_EVENT_UNREACHABLE, RDMA_CM_EVENT_DISCONNECTED,
	RDMA_CM_EVENT_CONNECT_REQUEST, RDMA_CM_EVENT_ESTABLISHED,
	RDMA_CM_EVENT_DISCONNECTED, RDMA_CM_EVENT_ADDR_CHANGE,
};

/* "ip link set A address ..." (down, new MAC, up); back with @mac. */
static int set_mac(struct fx *fx, const u8 *mac)
{
	struct sockaddr sa = { .sa_family = fx->ndev->type };
	int ret;

	memcpy(sa.sa_data, mac, ETH_ALEN);
	rtnl_lock();
	ret = dev_change_flags(fx->ndev, fx->ndev->flags & ~IFF_UP, NULL);
	if (!ret)
		ret = dev_set_mac_address(fx->ndev, &sa, NULL);
	if (!ret)
		ret = dev_change_flags(fx->ndev, fx->ndev->flags | IFF_UP,
				       NULL);
	rtnl_unlock();
	return ret;
}

/*
 * An id, set up (by @setup) so that the event of point @pt is the next
 * one; @fire makes it come.  @l is a listener for the passive points.
 */
static struct conn *before(struct fx *fx, struct conn *l, int pt)
{
	switch (pt) {
	case P_ESTABLISHED:
	case P_REJECTED:
	case P_UNREACHABLE:
		return connecting(fx, QPN_A);
	case P_DISCONNECTED:
	case P_ADDR_CHANGE:
		return connected(fx, QPN_A);
	case P_REQUEST:
		return new_kid(l, QPN_P, REQ_ACCEPT);
	case P_PASSIVE_EST:
		return requested(l, QPN_P, REQ_ACCEPT);
	default:
		return accepted_established(l, QPN_P);
	}
}

static void fire(struct fx *fx, struct conn *l, struct conn *c, int pt)
{
	struct kunit *test = fx->test;

	switch (pt) {
	case P_ESTABLISHED:
		KUNIT_EXPECT_EQ(test, inject(c->iw, IW_CM_EVENT_CONNECT_REPLY,
					     0, NULL), 0);
		break;
	case P_REJECTED:
		KUNIT_EXPECT_EQ(test, inject(c->iw, IW_CM_EVENT_CONNECT_REPLY,
					     -ECONNREFUSED, "no"), 0);
		break;
	case P_UNREACHABLE:
		KUNIT_EXPECT_EQ(test, inject(c->iw, IW_CM_EVENT_CONNECT_REPLY,
					     -ETIMEDOUT, NULL), 0);
		break;
	case P_REQUEST:
		KUNIT_EXPECT_EQ(test, inject_request(l, 0x3000), 0);
		break;
	case P_PASSIVE_EST:
		KUNIT_EXPECT_EQ(test, inject(c->iw, IW_CM_EVENT_ESTABLISHED, 0,
					     NULL), 0);
		break;
	case P_ADDR_CHANGE:
		KUNIT_EXPECT_EQ(test, set_mac(fx, mac_new), 0);
		break;
	default:
		KUNIT_EXPECT_EQ(test, inject(c->iw, IW_CM_EVENT_CLOSE, 0,
					     NULL), 0);
		break;
	}
}

/* After @pt's event: the driver says something more about the id. */
static void fire_more(struct conn *c, int pt)
{
	if (!on_wire(c))
		return;
	inject(c->iw, IW_CM_EVENT_ESTABLISHED, 0, NULL);
	inject(c->iw, IW_CM_EVENT_DISCONNECT, 0, NULL);
	inject(c->iw, IW_CM_EVENT_CLOSE, 0, NULL);
}

static void point_done(struct fx *fx, int pt)
{
	struct kunit *test = fx->test;

	if (pt == P_ADDR_CHANGE)
		KUNIT_EXPECT_EQ(test, set_mac(fx, mac_a), 0);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_A), 0);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_P), 0);
}

/* cm_ids(fx) once it is @want, or after WAIT_JIFFIES */
static int wait_cm_ids(struct fx *fx, int want)
{
	unsigned long end = jiffies + WAIT_JIFFIES;

	while (cm_ids(fx) != want && !time_after(jiffies, end))
		usleep_range(200, 500);
	return cm_ids(fx);
}

/*
 * For each event, the handler returns non-zero: the id is destroyed by
 * rdma_cm (restrack, iw_cm ids, QP references), later driver events on
 * its connection reach nobody.
 */
static void rdma_cma_conn_handler_nonzero(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct conn *l = listening(fx);
	int pt;

	for (pt = 0; pt < P_COUNT; pt++) {
		struct conn *c = before(fx, l, pt);
		unsigned int n = c->n;
		int ids = cm_ids(fx) + (pt == P_REQUEST);

		kunit_info(test, "event %s\n", p_names[pt]);
		c->ret[p_events[pt]] = 1;
		fire(fx, l, c, pt);
		expect_ev(c, n + 1, p_events[pt], p_status[pt]);
		KUNIT_ASSERT_TRUE(test, wait_event_timeout(c->wq,
							   READ_ONCE(c->destroyed),
							   WAIT_JIFFIES));
		settle();
		/* ADDR_CHANGE: destroyed in cma_wq's work after the return */
		KUNIT_EXPECT_EQ(test, wait_cm_ids(fx, ids - 1), ids - 1);
		fire_more(c, pt);
		settle();
		KUNIT_EXPECT_EQ(test, c->n, n + 1);
		driver_done(fx, c);
		point_done(fx, pt);
		KUNIT_EXPECT_EQ(test, iw_ids(fx), 1);	/* the listener's */
	}
	/* and DEVICE_REMOVAL, on the listener (it heard ADDR_CHANGE) */
	expect_ev(l, 1, RDMA_CM_EVENT_ADDR_CHANGE, 0);
	l->ret[RDMA_CM_EVENT_DEVICE_REMOVAL] = 1;
	fake_hca_unregister(fx->hca);
	expect_ev(l, 2, RDMA_CM_EVENT_DEVICE_REMOVAL, 0);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(l->destroyed));
	KUNIT_EXPECT_EQ(test, iw_ids(fx), 0);
}

/* ------------------------------------------------------------------
 * rdma_destroy_id() racing each event
 */

/* The owner destroys @c from another thread; started when this returns. */
static void destroy_async(struct conn *c)
{
	queue_work(system_unbound_wq, &c->destroy_work);
}

/*
 * While each event is being delivered (the handler waits on a
 * completion), another thread destroys the id: the destroy waits for the
 * handler, the handler's id stays valid, and nothing is delivered after
 * it returned; what the driver says later reaches nobody.
 */
static void rdma_cma_conn_destroy_during_event(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct conn *l = listening(fx);
	int pt;

	for (pt = 0; pt < P_COUNT; pt++) {
		struct conn *c = before(fx, l, pt);
		unsigned int n = c->n;

		kunit_info(test, "event %s\n", p_names[pt]);
		c->block_on = p_events[pt];
		fire(fx, l, c, pt);
		KUNIT_ASSERT_TRUE(test, completed(&c->entered));
		destroy_async(c);
		/* the destroyer waits for the handler, on its lock */
		KUNIT_ASSERT_TRUE_MSG(test, blocks_on(handler_lock(c->id)),
				      "the destroy does not wait for the handler");
		KUNIT_EXPECT_FALSE(test, completion_done(&c->gone));
		KUNIT_EXPECT_EQ(test, c->n, n);
		complete_all(&c->release);
		KUNIT_ASSERT_TRUE(test, completed(&c->gone));
		KUNIT_EXPECT_EQ(test, c->n, n + 1);
		fire_more(c, pt);
		settle();
		KUNIT_EXPECT_EQ(test, c->n, n + 1);
		driver_done(fx, c);
		point_done(fx, pt);
		KUNIT_EXPECT_EQ(test, cm_ids(fx), 1);
		KUNIT_EXPECT_EQ(test, iw_ids(fx), 1);
	}
}

/*
 * DEVICE_REMOVAL being delivered to a connected id while its owner
 * destroys it from another thread: the destroy waits for the handler,
 * the removal for the destroy.
 */
static void rdma_cma_conn_destroy_during_removal(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct conn *l = listening(fx);
	struct conn *p = accepted_established(l, QPN_P);
	struct conn *c = connected(fx, QPN_A);
	struct remover *r;

	l->destroy_on = RDMA_CM_EVENT_DEVICE_REMOVAL;
	p->destroy_on = RDMA_CM_EVENT_DEVICE_REMOVAL;
	c->block_on = RDMA_CM_EVENT_DEVICE_REMOVAL;
	r = start_removal(fx);
	KUNIT_ASSERT_TRUE(test, completed(&c->entered));
	destroy_async(c);
	/*
	 * The destroyer sleeps on the handler lock the removal holds while
	 * it delivers; the removal is in the blocked handler itself.
	 */
	KUNIT_ASSERT_TRUE_MSG(test, blocks_on(handler_lock(c->id)),
			      "the destroy does not wait for the handler");
	KUNIT_EXPECT_FALSE(test, completion_done(&c->gone));
	KUNIT_EXPECT_FALSE(test, completion_done(&r->done));
	complete_all(&c->release);
	KUNIT_ASSERT_TRUE(test, completed(&c->gone));
	KUNIT_ASSERT_TRUE(test, completed(&r->done));
	expect_ev(c, 4, RDMA_CM_EVENT_DEVICE_REMOVAL, 0);
	expect_ev(p, 3, RDMA_CM_EVENT_DEVICE_REMOVAL, 0);
	expect_ev(l, 1, RDMA_CM_EVENT_DEVICE_REMOVAL, 0);
	driver_done(fx, c);
	driver_done(fx, p);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_A), 0);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_P), 0);
	KUNIT_EXPECT_EQ(test, iw_ids(fx), 0);
}

/*
 * An event queued behind one being delivered, and the id destroyed in
 * between: iw_cm holds the CLOSE behind the blocked ESTABLISHED; rdma_cm
 * holds an ADDR_CHANGE in its ordered queue behind another id's.  The
 * destroy returns only when nothing can be delivered any more; the
 * queued event comes either before the destroy began or never.
 */
static void rdma_cma_conn_destroy_queued_event(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct conn *a, *b;

	/* iw_cm's queue */
	a = connecting(fx, QPN_A);
	a->block_on = RDMA_CM_EVENT_ESTABLISHED;
	KUNIT_EXPECT_EQ(test, inject(a->iw, IW_CM_EVENT_CONNECT_REPLY, 0,
				     NULL), 0);
	KUNIT_ASSERT_TRUE(test, completed(&a->entered));
	KUNIT_EXPECT_EQ(test, inject(a->iw, IW_CM_EVENT_CLOSE, 0, NULL), 0);
	destroy_async(a);
	KUNIT_ASSERT_TRUE_MSG(test, blocks_on(handler_lock(a->id)),
			      "the destroy does not wait for the handler");
	KUNIT_EXPECT_FALSE(test, completion_done(&a->gone));
	complete_all(&a->release);
	KUNIT_ASSERT_TRUE(test, completed(&a->gone));
	settle();
	/* the destroy or the CLOSE takes the lock next: DISCONNECTED or not */
	KUNIT_EXPECT_GE(test, a->n, 3U);
	KUNIT_EXPECT_LE(test, a->n, 4U);
	if (a->n == 4)
		expect_ev(a, 4, RDMA_CM_EVENT_DISCONNECTED, 0);
	driver_done(fx, a);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_A), 0);

	/*
	 * rdma_cm's queue: b's ADDR_CHANGE waits behind a's.  b's destroy
	 * cancels it (a destroy may run from cma_wq itself, where waiting
	 * for it would never end): it returns while a's handler still holds
	 * the queue, and b hears nothing.
	 */
	a = connected(fx, QPN_A);
	b = connected(fx, QPN_A + 1);
	a->block_on = RDMA_CM_EVENT_ADDR_CHANGE;
	KUNIT_EXPECT_EQ(test, set_mac(fx, mac_new), 0);
	KUNIT_ASSERT_TRUE(test, completed(&a->entered));
	destroy_async(b);
	KUNIT_EXPECT_TRUE_MSG(test, completed(&b->gone),
			      "b's destroy waits for its queued event");
	complete_all(&a->release);
	KUNIT_ASSERT_TRUE(test, completed(&b->gone));
	expect_ev(a, 4, RDMA_CM_EVENT_ADDR_CHANGE, 0);
	KUNIT_EXPECT_EQ(test, b->n, 3U);
	KUNIT_EXPECT_EQ(test, set_mac(fx, mac_a), 0);
	driver_done(fx, b);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_A + 1), 0);
}

/*
 * The listener destroyed while a request is delivered to its new id: the
 * destroy waits for the delivery; the new id lives on (its owner's) and
 * its connection completes.
 */
static void rdma_cma_conn_destroy_listener_during_request(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct conn *l = listening(fx);
	struct conn *kid = new_kid(l, QPN_P, REQ_ACCEPT);

	kid->block_on = RDMA_CM_EVENT_CONNECT_REQUEST;
	KUNIT_ASSERT_EQ(test, inject_request(l, 0x4000), 0);
	KUNIT_ASSERT_TRUE(test, completed(&kid->entered));
	destroy_async(l);
	/* the delivery holds the listener's handler lock */
	KUNIT_ASSERT_TRUE_MSG(test, blocks_on(handler_lock(l->id)),
			      "the listener's destroy does not wait for the request");
	KUNIT_EXPECT_FALSE(test, completion_done(&l->gone));
	complete_all(&kid->release);
	KUNIT_ASSERT_TRUE(test, completed(&l->gone));
	expect_ev(kid, 1, RDMA_CM_EVENT_CONNECT_REQUEST, 0);
	KUNIT_EXPECT_EQ(test, kid->answer, 0);
	KUNIT_EXPECT_EQ(test, cm_ids(fx), 1);
	KUNIT_EXPECT_EQ(test, inject(kid->iw, IW_CM_EVENT_ESTABLISHED, 0,
				     NULL), 0);
	expect_ev(kid, 2, RDMA_CM_EVENT_ESTABLISHED, 0);
	KUNIT_EXPECT_EQ(test, l->n, 0U);
}

/*
 * The same on a wildcard listener: the request reaches its per-device
 * listener, the new id carries the wildcard's handler and context, and
 * the wildcard's rdma_destroy_id() returns only once that delivery is
 * over (it destroys the per-device listener, which waits for it).
 */
static void rdma_cma_conn_destroy_wildcard_during_request(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct conn *any = new_conn(fx), *kid;
	struct rdma_id_private *internal;
	struct sockaddr_storage ss;

	any->port = fx->port++;
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(any->id,
					     ip4(&ss, "0.0.0.0", any->port)),
			0);
	KUNIT_ASSERT_EQ(test, rdma_listen(any->id, 4), 0);
	internal = list_first_entry_or_null(&to_id_priv(any->id)->listen_list,
					    struct rdma_id_private,
					    listen_item);
	KUNIT_ASSERT_NOT_NULL(test, internal);
	any->iw = internal->cm_id.iw;
	any->listener = true;
	kid = new_kid(any, QPN_P, REQ_ACCEPT);
	kid->block_on = RDMA_CM_EVENT_CONNECT_REQUEST;
	KUNIT_ASSERT_EQ(test, inject_request(any, 0x9000), 0);
	KUNIT_ASSERT_TRUE(test, completed(&kid->entered));
	destroy_async(any);
	/*
	 * The wildcard's destroyer destroys the per-device listener, whose
	 * handler lock the delivery holds.
	 */
	KUNIT_ASSERT_TRUE_MSG(test, blocks_on(&internal->handler_mutex),
			      "the wildcard's destroy does not wait for the request");
	KUNIT_EXPECT_FALSE(test, completion_done(&any->gone));
	complete_all(&kid->release);
	KUNIT_ASSERT_TRUE(test, completed(&any->gone));
	expect_ev(kid, 1, RDMA_CM_EVENT_CONNECT_REQUEST, 0);
	KUNIT_EXPECT_EQ(test, kid->answer, 0);
	KUNIT_EXPECT_EQ(test, cm_ids(fx), 1);
	KUNIT_EXPECT_EQ(test, inject(kid->iw, IW_CM_EVENT_ESTABLISHED, 0,
				     NULL), 0);
	expect_ev(kid, 2, RDMA_CM_EVENT_ESTABLISHED, 0);
	KUNIT_EXPECT_EQ(test, any->n, 0U);
	destroy(kid);
	driver_done(fx, kid);
	KUNIT_EXPECT_EQ(test, iw_ids(fx), 0);
}

/* ------------------------------------------------------------------
 * Device removal
 */

/*
 * The device goes away while a request is delivered to its new id: the
 * removal waits for the delivery (it needs the listener's handler lock),
 * then the listener and the new id (accepted meanwhile) hear
 * DEVICE_REMOVAL, each once.
 */
static void rdma_cma_conn_removal_during_request(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct conn *l = listening(fx);
	struct conn *kid = new_kid(l, QPN_P, REQ_ACCEPT);
	struct remover *r;

	kid->block_on = RDMA_CM_EVENT_CONNECT_REQUEST;
	kid->destroy_on = RDMA_CM_EVENT_DEVICE_REMOVAL;
	l->destroy_on = RDMA_CM_EVENT_DEVICE_REMOVAL;
	KUNIT_ASSERT_EQ(test, inject_request(l, 0x8000), 0);
	KUNIT_ASSERT_TRUE(test, completed(&kid->entered));
	r = start_removal(fx);
	/* the removal tells the listener first: it needs its handler lock */
	KUNIT_ASSERT_TRUE_MSG(test, blocks_on(handler_lock(l->id)),
			      "the removal does not wait for the request");
	KUNIT_EXPECT_EQ(test, l->n, 0U);
	KUNIT_EXPECT_FALSE(test, completion_done(&r->done));
	complete_all(&kid->release);
	KUNIT_ASSERT_TRUE(test, completed(&r->done));
	expect_ev(kid, 1, RDMA_CM_EVENT_CONNECT_REQUEST, 0);
	KUNIT_EXPECT_EQ(test, kid->answer, 0);
	expect_ev(kid, 2, RDMA_CM_EVENT_DEVICE_REMOVAL, 0);
	expect_ev(l, 1, RDMA_CM_EVENT_DEVICE_REMOVAL, 0);
	KUNIT_EXPECT_EQ(test, kid->n + l->n, 3U);
	driver_done(fx, kid);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_P), 0);
	KUNIT_EXPECT_EQ(test, iw_ids(fx), 0);
}

/*
 * The wildcard listener destroyed while the device's removal destroys its
 * per-device listener (issue 25, defect 2).  The removal takes the
 * per-device listener off the wildcard's list and waits for a request
 * being delivered on it (the handler blocks); the wildcard's destroyer
 * finds the list empty.  The per-device listener holds the wildcard until
 * it is destroyed: the wildcard's rdma_destroy_id() returns only after
 * that delivery, and nothing the per-device listener does meanwhile (a
 * request reads its parent's handler and context) finds it freed.
 */
static void rdma_cma_conn_wildcard_destroy_during_removal(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct conn *any = new_conn(fx), *kid;
	struct rdma_id_private *internal, *parent;
	struct sockaddr_storage ss;
	struct remover *r;

	any->port = fx->port++;
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(any->id,
					     ip4(&ss, "0.0.0.0", any->port)),
			0);
	KUNIT_ASSERT_EQ(test, rdma_listen(any->id, 4), 0);
	parent = to_id_priv(any->id);
	internal = list_first_entry_or_null(&parent->listen_list,
					    struct rdma_id_private,
					    listen_item);
	KUNIT_ASSERT_NOT_NULL(test, internal);
	any->iw = internal->cm_id.iw;
	any->listener = true;
	kid = new_kid(any, QPN_P, REQ_KEEP);
	kid->block_on = RDMA_CM_EVENT_CONNECT_REQUEST;
	kid->destroy_on = RDMA_CM_EVENT_DEVICE_REMOVAL;
	KUNIT_ASSERT_EQ(test, inject_request(any, 0xa000), 0);
	KUNIT_ASSERT_TRUE(test, completed(&kid->entered));

	r = start_removal(fx);
	/*
	 * The removal destroys the per-device listener first (it was
	 * attached before the request's new id): it took it off the
	 * wildcard's list and sleeps on its handler lock, which the
	 * delivery holds.
	 */
	KUNIT_ASSERT_TRUE_MSG(test, blocks_on(&internal->handler_mutex),
			      "the removal does not destroy the per-device listener");
	KUNIT_EXPECT_TRUE(test, list_empty_careful(&parent->listen_list));
	/* the per-device listener still holds the wildcard: creator + it */
	KUNIT_EXPECT_EQ_MSG(test, refcount_read(&parent->refcount), 2,
			    "the per-device listener does not hold its wildcard listener");

	destroy_async(any);
	/*
	 * The event that must not come: the wildcard's destroy returning
	 * while a request on its per-device listener is still delivered.
	 * It would come at once; waited for NEVER_JIFFIES.
	 */
	KUNIT_EXPECT_FALSE_MSG(test,
			       wait_for_completion_timeout(&any->gone,
							   NEVER_JIFFIES),
			       "the wildcard's destroy returned during a request on its per-device listener");
	complete_all(&kid->release);
	KUNIT_ASSERT_TRUE(test, completed(&any->gone));
	KUNIT_ASSERT_TRUE(test, completed(&r->done));
	expect_ev(kid, 1, RDMA_CM_EVENT_CONNECT_REQUEST, 0);
	expect_ev(kid, 2, RDMA_CM_EVENT_DEVICE_REMOVAL, 0);
	KUNIT_EXPECT_EQ(test, any->n, 0U);
	driver_done(fx, kid);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_P), 0);
	KUNIT_EXPECT_EQ(test, iw_ids(fx), 0);
}

/*
 * A listener's device goes away with requests pending (not answered,
 * accepted, established): every id hears DEVICE_REMOVAL once, the owners
 * destroy them from a work; a request arriving meanwhile is refused; the
 * removal ends when the last id is gone.  A wildcard listener with a
 * pending request on the device hears nothing and keeps listening.
 */
static void rdma_cma_conn_listener_removal(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct conn *l = listening(fx), *any = new_conn(fx);
	struct rdma_id_private *internal;
	struct conn *kids[5];
	struct sockaddr_storage ss;
	unsigned int i, rejects;
	struct remover *r;

	kids[0] = requested(l, QPN_P, REQ_KEEP);
	kids[1] = requested(l, QPN_P, REQ_KEEP);
	kids[2] = requested(l, QPN_P + 1, REQ_ACCEPT);
	kids[3] = accepted_established(l, QPN_P + 2);

	any->port = fx->port++;
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(any->id,
					     ip4(&ss, "0.0.0.0", any->port)),
			0);
	KUNIT_ASSERT_EQ(test, rdma_listen(any->id, 4), 0);
	/*
	 * The wildcard's per-device listener is the one with an iw_cm id;
	 * its requests go to new ids with the wildcard's handler.
	 */
	KUNIT_EXPECT_NULL(test, rdma_iw_cm_id(any->id));
	internal = list_first_entry_or_null(&to_id_priv(any->id)->listen_list,
					    struct rdma_id_private,
					    listen_item);
	KUNIT_ASSERT_NOT_NULL(test, internal);
	any->iw = internal->cm_id.iw;
	any->listener = true;
	kids[4] = requested(any, QPN_P + 3, REQ_KEEP);
	KUNIT_EXPECT_EQ(test, cm_ids(fx), 7);
	KUNIT_EXPECT_EQ(test, iw_ids(fx), 7);

	for (i = 0; i < ARRAY_SIZE(kids); i++)
		kids[i]->destroy_on = RDMA_CM_EVENT_DEVICE_REMOVAL;
	l->block_on = RDMA_CM_EVENT_DEVICE_REMOVAL;
	l->destroy_on = RDMA_CM_EVENT_DEVICE_REMOVAL;
	rejects = fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT);
	r = start_removal(fx);
	/* the listener hears it first: a request now is refused */
	KUNIT_ASSERT_TRUE(test, completed(&l->entered));
	KUNIT_EXPECT_EQ(test, inject_request(l, 0x6000), 0);
	complete_all(&l->release);
	KUNIT_ASSERT_TRUE(test, completed(&r->done));
	settle();
	KUNIT_EXPECT_EQ(test, l->kids_used, 4U);
	/*
	 * The refused request and the three never answered.  The refusal
	 * is iw_cm's, in the listener's delivery work (after the listener's
	 * handler, or, once the listener is going, for the request it had
	 * queued), which the listener's destroy flushes: it is in by now.
	 */
	KUNIT_EXPECT_EQ(test, fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT),
			rejects + 4);
	KUNIT_EXPECT_EQ(test, l->n, 1U);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(l->destroyed));
	for (i = 0; i < ARRAY_SIZE(kids); i++) {
		KUNIT_EXPECT_TRUE(test, READ_ONCE(kids[i]->destroyed));
		expect_ev(kids[i], kids[i]->n, RDMA_CM_EVENT_DEVICE_REMOVAL, 0);
		driver_done(fx, kids[i]);
	}
	KUNIT_EXPECT_EQ(test, any->n, 0U);
	KUNIT_EXPECT_EQ(test, any->kids_used, 1U);
	KUNIT_EXPECT_EQ(test, rdma_listen(any->id, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_P), 0);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_P + 1), 0);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_P + 2), 0);
	KUNIT_EXPECT_EQ(test, iw_ids(fx), 0);
}

/*
 * Removal with ids in every state: idle-but-bound, address and route
 * resolved, connecting, connected, disconnected, listening, a request
 * pending, accepted, established on the passive side, and a wildcard
 * listener.  Each attached id hears DEVICE_REMOVAL exactly once (one
 * destroyed by its handler's return value, the others from a work), the
 * wildcard listener nothing.
 */
static void rdma_cma_conn_removal_every_state(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct conn *c[12], *any = new_conn(fx);
	struct sockaddr_storage ss;
	unsigned int i, n = 0, before_n[12];

	c[n] = new_conn(fx);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(c[n++]->id,
					     ip4(&ss, "192.0.2.1", 0)), 0);
	c[n] = new_conn(fx);
	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(c[n]->id, NULL,
						ip4(&ss, "192.0.2.2", 9),
						1000), 0);
	expect_ev(c[n++], 1, RDMA_CM_EVENT_ADDR_RESOLVED, 0);
	c[n++] = routed(fx);
	c[n++] = connecting(fx, QPN_A);
	c[n++] = connected(fx, QPN_A + 1);
	c[n] = connected(fx, QPN_A + 2);
	KUNIT_ASSERT_EQ(test, inject(c[n]->iw, IW_CM_EVENT_CLOSE, 0, NULL), 0);
	expect_ev(c[n++], 4, RDMA_CM_EVENT_DISCONNECTED, 0);
	c[n] = listening(fx);
	c[n + 1] = requested(c[n], QPN_P, REQ_KEEP);
	c[n + 2] = requested(c[n], QPN_P + 1, REQ_ACCEPT);
	c[n + 3] = accepted_established(c[n], QPN_P + 2);
	n += 4;
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(any->id,
					     ip4(&ss, "0.0.0.0",
						 fx->port++)), 0);
	KUNIT_ASSERT_EQ(test, rdma_listen(any->id, 4), 0);
	KUNIT_EXPECT_EQ(test, cm_ids(fx), (int)n + 1);

	for (i = 0; i < n; i++) {
		before_n[i] = c[i]->n;
		c[i]->destroy_on = RDMA_CM_EVENT_DEVICE_REMOVAL;
	}
	c[4]->destroy_on = -1;
	c[4]->ret[RDMA_CM_EVENT_DEVICE_REMOVAL] = 1;

	fake_hca_unregister(fx->hca);
	for (i = 0; i < n; i++) {
		flush_work(&c[i]->destroy_work);
		KUNIT_EXPECT_EQ_MSG(test, c[i]->n, before_n[i] + 1, "id %u", i);
		expect_ev(c[i], before_n[i] + 1, RDMA_CM_EVENT_DEVICE_REMOVAL,
			  0);
		KUNIT_EXPECT_TRUE(test, READ_ONCE(c[i]->destroyed));
		driver_done(fx, c[i]);
	}
	KUNIT_EXPECT_EQ(test, any->n, 0U);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_A + i), 0);
		KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_P + i), 0);
	}
	KUNIT_EXPECT_EQ(test, iw_ids(fx), 0);
}

/* ------------------------------------------------------------------
 * Connect/disconnect loops, ids destroyed at random points
 */

/*
 * Rounds of the loop: up to LOOP_ROUNDS, within LOOP_TIME after the first
 * in the full tier (make check-full, full=1), LOOP_TIME_QUICK in the
 * quick one; LOOP_MIN at least in both (with fewer, one of the three
 * ways to destroy could be drawn in no round: (2/3)^30 * 3 < 2e-5).
 */
static bool full;
module_param(full, bool, 0444);
MODULE_PARM_DESC(full, "run the random destroy loop for 4 s, not 1 s");
#define LOOP_ROUNDS	100
#define LOOP_MIN	30
#define LOOP_TIME	(4 * HZ)
#define LOOP_TIME_QUICK	HZ

enum {
	S_ROUTED, S_CONNECTING, S_REQUESTED, S_ACCEPTED, S_ESTABLISHED,
	S_CLOSED, S_STEPS
};

/*
 * One connection per round between an active id and the new id of a
 * request on a listener, each step as the wire would bring it; at a
 * random step (prandom, the seed is printed) one of the two is destroyed,
 * from this thread or from a work racing the next events, or its handler
 * returns non-zero for whatever comes next.  The other goes on as far as
 * the wire allows.  Each round ends with nothing left but the listener.
 * LOOP_MIN rounds at least, then until LOOP_TIME (LOOP_TIME_QUICK in the
 * quick tier) or LOOP_ROUNDS.
 */
static void rdma_cma_conn_random_destroy_loop(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct conn *l = listening(fx);
	unsigned int round, kills[3] = {};
	unsigned long end = jiffies + (full ? LOOP_TIME : LOOP_TIME_QUICK);
	struct rnd_state rnd;
	u64 seed = get_random_u64();

	kunit_info(test, "seed %llu\n", seed);
	prandom_seed_state(&rnd, seed);
	for (round = 0; round < LOOP_ROUNDS; round++) {
		u32 r = prandom_u32_state(&rnd);
		unsigned int step = r % S_STEPS, how = (r >> 8) % 3;
		bool kill_active = (r >> 16) & 1;
		struct conn *a, *p = NULL, *victim;
		unsigned int s;

		/* one kid of the listener per round */
		if (l->nkids == KIDS_MAX) {
			destroy(l);
			l = listening(fx);
		}
		a = routed(fx);
		for (s = 0; s < S_STEPS; s++) {
			victim = kill_active || !p ? a : p;
			if (s == step) {
				kills[how]++;
				if (how == 2) {
					/* non-zero for whatever comes next */
					memset(victim->ret, 1,
					       sizeof(victim->ret));
				} else {
					victim->dying = true;
					if (how == 0)
						destroy(victim);
					else
						destroy_async(victim);
				}
			}
			switch (s) {
			case S_ROUTED:
				if (!a->dying && do_connect(a, QPN_A) == 0)
					a->iw = rdma_iw_cm_id(a->id);
				break;
			case S_CONNECTING:
				p = new_kid(l, QPN_P, REQ_ACCEPT);
				inject_request(l, 0x5000 + round);
				settle();
				break;
			case S_REQUESTED:
				if (on_wire(a))
					inject(a->iw, IW_CM_EVENT_CONNECT_REPLY,
					       0, "ok");
				break;
			case S_ACCEPTED:
				if (on_wire(p))
					inject(p->iw, IW_CM_EVENT_ESTABLISHED,
					       0, NULL);
				break;
			case S_ESTABLISHED:
				if (on_wire(a)) {
					inject(a->iw, IW_CM_EVENT_DISCONNECT,
					       0, NULL);
					inject(a->iw, IW_CM_EVENT_CLOSE, 0,
					       NULL);
				}
				if (on_wire(p))
					inject(p->iw, IW_CM_EVENT_CLOSE, 0,
					       NULL);
				break;
			default:
				break;
			}
		}
		settle();
		/* the owners are done with what is left */
		destroy(a);
		if (p)
			destroy(p);
		driver_done(fx, a);
		if (on_wire(p))
			driver_done(fx, p);
		KUNIT_ASSERT_EQ(test, cm_ids(fx), 1);
		KUNIT_ASSERT_EQ(test, qp_refs(fx, QPN_A), 0);
		KUNIT_ASSERT_EQ(test, qp_refs(fx, QPN_P), 0);
		KUNIT_ASSERT_EQ(test, iw_ids(fx), 1);
		if (round + 1 >= LOOP_MIN && time_after(jiffies, end)) {
			round++;
			break;
		}
	}
	kunit_info(test, "%u rounds: destroyed %u in line, %u racing, %u by the handler\n",
		   round, kills[0], kills[1], kills[2]);
	KUNIT_EXPECT_GT(test, kills[0], 0U);
	KUNIT_EXPECT_GT(test, kills[1], 0U);
	KUNIT_EXPECT_GT(test, kills[2], 0U);
}

/* ------------------------------------------------------------------
 * Allocation failures (failslab, fail-nth)
 */

#ifdef CONFIG_FAILSLAB
/*
 * rdma_connect() with each of its allocations failing in turn: -ENOMEM,
 * the id back in ROUTE_RESOLVED without a transport id, nothing held;
 * the same id then connects.
 */
static void rdma_cma_conn_fault_connect(struct kunit *test)
{
	struct fx *fx = test->priv;
	unsigned int nth, left, failed = 0;
	bool passed = false;

	fake_hca_kunit_failslab(test);
	for (nth = 1; nth < 100 && !passed; nth++) {
		struct conn *c = routed(fx);
		int ret;

		current->fail_nth = nth;
		ret = do_connect(c, QPN_A);
		left = current->fail_nth;
		current->fail_nth = 0;
		if (ret) {
			failed++;
			KUNIT_EXPECT_EQ_MSG(test, ret, -ENOMEM, "allocation %u",
					    nth);
			KUNIT_EXPECT_EQ_MSG(test, left, 0U, "allocation %u",
					    nth);
			KUNIT_EXPECT_EQ(test, st(c->id), RDMA_CM_ROUTE_RESOLVED);
			KUNIT_EXPECT_NULL(test, rdma_iw_cm_id(c->id));
			KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_A), 0);
			KUNIT_EXPECT_EQ(test, iw_ids(fx), 0);
			KUNIT_EXPECT_EQ(test, fake_hca_iw_held(fx->hca, NULL),
					0U);
			KUNIT_EXPECT_EQ(test, do_connect(c, QPN_A), 0);
		} else {
			/* (a tolerated failure may have used the count up) */
			passed = left;
		}
		c->iw = rdma_iw_cm_id(c->id);
		KUNIT_EXPECT_EQ(test, inject(c->iw, IW_CM_EVENT_CONNECT_REPLY,
					     0, NULL), 0);
		expect_ev(c, 3, RDMA_CM_EVENT_ESTABLISHED, 0);
		destroy(c);
		driver_done(fx, c);
		KUNIT_EXPECT_EQ(test, cm_ids(fx), 0);
	}
	kunit_info(test, "%u allocations failed in turn\n", failed);
	KUNIT_EXPECT_TRUE(test, passed);
	KUNIT_EXPECT_GT(test, failed, 0U);
}

/*
 * rdma_accept() outside the handler with each of its allocations failing
 * in turn: -ENOMEM and the request rejected.
 */
static void rdma_cma_conn_fault_accept(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct rdma_conn_param p = { .qp_num = QPN_P };
	unsigned int nth, left, failed = 0;
	struct conn *l = listening(fx);
	bool passed = false;

	fake_hca_kunit_failslab(test);
	for (nth = 1; nth < 100 && !passed; nth++) {
		unsigned int rejects;
		struct conn *kid;
		int ret;

		if (l->nkids == KIDS_MAX) {
			destroy(l);
			l = listening(fx);
		}
		kid = requested(l, QPN_P, REQ_KEEP);
		rejects = fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT);
		rdma_lock_handler(kid->id);
		current->fail_nth = nth;
		ret = rdma_accept(kid->id, &p);
		left = current->fail_nth;
		current->fail_nth = 0;
		rdma_unlock_handler(kid->id);
		if (ret) {
			failed++;
			KUNIT_EXPECT_EQ_MSG(test, ret, -ENOMEM, "allocation %u",
					    nth);
			KUNIT_EXPECT_EQ(test, left, 0U);
			KUNIT_EXPECT_EQ(test,
					fake_hca_iw_calls(fx->hca,
							  FAKE_HCA_IW_REJECT),
					rejects + 1);
		} else {
			passed = left;
			KUNIT_EXPECT_EQ(test, inject(kid->iw,
						     IW_CM_EVENT_ESTABLISHED, 0,
						     NULL), 0);
			expect_ev(kid, 2, RDMA_CM_EVENT_ESTABLISHED, 0);
		}
		destroy(kid);
		driver_done(fx, kid);
		KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_P), 0);
		KUNIT_EXPECT_EQ(test, cm_ids(fx), 1);
		KUNIT_EXPECT_EQ(test, iw_ids(fx), 1);
	}
	/*
	 * iw_cm made what an accept needs with the request: an accept
	 * never fails for memory.
	 */
	KUNIT_EXPECT_EQ(test, failed, 0U);
	KUNIT_EXPECT_TRUE(test, passed);
}

/*
 * A request's handling (iw_cm's new id, rdma_cm's new id, attaching it)
 * with each allocation failing in turn.  That runs in iw_cm's work, not
 * in the test's thread: the handler of a first request arms the work's
 * fail-nth, and a second request, queued on the same listener meanwhile,
 * is handled by the same work right after.  A failure loses or rejects
 * the request and leaves nothing behind; the listener goes on.
 */
static void rdma_cma_conn_fault_request(struct kunit *test)
{
	struct fx *fx = test->priv;
	unsigned int nth, failed = 0, round = 0;
	struct conn *l = listening(fx);
	bool passed = false;

	fake_hca_kunit_failslab(test);
	for (nth = 1; nth < 100 && !passed; nth++) {
		struct conn *first, *second;
		unsigned int rejects;
		int ids, iws;

		if (l->nkids + 2 > KIDS_MAX) {
			destroy(l);
			l = listening(fx);
		}
		ids = cm_ids(fx);
		iws = iw_ids(fx);
		rejects = fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT);
		first = new_kid(l, QPN_P, REQ_KEEP);
		first->block_on = RDMA_CM_EVENT_CONNECT_REQUEST;
		second = new_kid(l, QPN_P + 1, REQ_ACCEPT);
		l->arm_nth = nth;
		KUNIT_ASSERT_EQ(test, inject_request(l, 0x7000 + round++), 0);
		KUNIT_ASSERT_TRUE(test, completed(&first->entered));
		KUNIT_ASSERT_EQ(test, inject_request(l, 0x7000 + round++), 0);
		complete_all(&first->release);
		settle();
		expect_ev(first, 1, RDMA_CM_EVENT_CONNECT_REQUEST, 0);
		KUNIT_EXPECT_EQ(test, l->arm_nth, 0U);

		if (READ_ONCE(second->n)) {
			/*
			 * Reached the handler: all allocations were made,
			 * unless one allowed to fail quietly used the count.
			 */
			passed = second->fail_left;
			KUNIT_EXPECT_EQ(test, second->answer, 0);
			if (passed) {
				KUNIT_EXPECT_EQ(test, cm_ids(fx), ids + 2);
				KUNIT_EXPECT_EQ(test, iw_ids(fx), iws + 2);
			}
		} else {
			failed++;
			/* the kid stays unused: take it off the listener */
			spin_lock(&l->lock);
			KUNIT_EXPECT_EQ(test, l->kids_used, l->nkids - 1);
			l->nkids = l->kids_used;
			spin_unlock(&l->lock);
			KUNIT_EXPECT_EQ(test, cm_ids(fx), ids + 1);
			KUNIT_EXPECT_EQ(test, iw_ids(fx), iws + 1);
			KUNIT_EXPECT_LE(test,
					fake_hca_iw_calls(fx->hca,
							  FAKE_HCA_IW_REJECT),
					rejects + 1);
		}
		destroy(first);
		destroy(second);
		driver_done(fx, second);
		KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN_P + 1), 0);
		KUNIT_EXPECT_EQ(test, cm_ids(fx), ids);
		KUNIT_EXPECT_EQ(test, iw_ids(fx), iws);
	}
	kunit_info(test, "%u allocations failed in turn\n", failed);
	KUNIT_EXPECT_TRUE(test, passed);
	KUNIT_EXPECT_GT(test, failed, 0U);
	/* and the listener still takes requests */
	requested(l, QPN_P, REQ_ACCEPT);
}
#endif

static struct kunit_case rdma_cma_conn_cases[] = {
	KUNIT_CASE(rdma_cma_conn_connect_replies),
	KUNIT_CASE(rdma_cma_conn_disconnects),
	KUNIT_CASE(rdma_cma_conn_connect_refused),
	KUNIT_CASE(rdma_cma_conn_qp_options_iwarp_unused),
	KUNIT_CASE(rdma_cma_conn_multicast_iwarp),
	KUNIT_CASE(rdma_cma_conn_request_accept),
	KUNIT_CASE(rdma_cma_conn_request_answers),
	KUNIT_CASE(rdma_cma_conn_event_matrix),
	KUNIT_CASE(rdma_cma_conn_ignored_events),
	KUNIT_CASE(rdma_cma_conn_handler_nonzero),
	KUNIT_CASE(rdma_cma_conn_destroy_during_event),
	KUNIT_CASE(rdma_cma_conn_destroy_during_removal),
	KUNIT_CASE(rdma_cma_conn_destroy_queued_event),
	KUNIT_CASE(rdma_cma_conn_destroy_listener_during_request),
	KUNIT_CASE(rdma_cma_conn_destroy_wildcard_during_request),
	KUNIT_CASE(rdma_cma_conn_removal_during_request),
	KUNIT_CASE(rdma_cma_conn_wildcard_destroy_during_removal),
	KUNIT_CASE(rdma_cma_conn_listener_removal),
	KUNIT_CASE(rdma_cma_conn_removal_every_state),
	KUNIT_CASE(rdma_cma_conn_random_destroy_loop),
#ifdef CONFIG_FAILSLAB
	KUNIT_CASE(rdma_cma_conn_fault_connect),
	KUNIT_CASE(rdma_cma_conn_fault_accept),
	KUNIT_CASE(rdma_cma_conn_fault_request),
#endif
	{}
};

static struct kunit_suite rdma_cma_conn_suite = {
	.name = "rdma_cma_conn",
	.init = cma_conn_init,
	.exit = cma_conn_exit,
	.test_cases = rdma_cma_conn_cases,
};

kunit_test_suite(rdma_cma_conn_suite);

MODULE_DESCRIPTION("KUnit tests of rdma_cm's connections over iWARP");
MODULE_LICENSE("Dual BSD/GPL");
