// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_iwcm": the iWARP connection manager (core/iw_cm/iwcm_*.c)
 * against the iWARP flavour of rdma_fake_hca.  The test is the
 * consumer (its handler records every event) and plays the wire through
 * the fake (fake_hca_iw_event()); a kernel NETLINK_RDMA socket plays
 * iwpmd for the port-mapping cases.
 */
#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <kunit/rdma_fake_hca.h>
#include <linux/delay.h>
#include <linux/inet.h>
#include <linux/kthread.h>
#include <linux/net.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <rdma/iw_cm.h>

#include "../iwcm.h"
#include "../iwpm_util.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define CLIENT		RDMA_NL_IWCM
#define MAX_RECS	64
#define MAX_IDS		32
#define QPN		0x11
#define QPN2		0x12
#define WAIT_MS		5000

struct rec {
	struct iw_cm_id		*id;
	int			event;
	int			status;
	void			*provider_data;
	struct sockaddr_storage	local;
	struct sockaddr_storage	remote;
	u8			pdata_len;
	u8			pdata[32];
	u8			ord, ird;
};

struct iwcm_fx {
	struct kunit		*test;
	struct fake_hca		*hca;
	spinlock_t		lock;	/* recs, nrecs, ids */
	wait_queue_head_t	wq;
	unsigned int		nrecs;
	struct rec		recs[MAX_RECS];
	/* handler's return per event type */
	int			ret_on[IW_CM_EVENT_CLOSE + 1];
	/* the handler waits on this for events of type block_type */
	int			block_type;
	/* ... or, for this type, once it recorded the event and took the id */
	int			block_after;
	struct completion	entered;
	struct completion	release;
	/* ids the test still owns; destroyed at the end */
	struct iw_cm_id		*ids[MAX_IDS];
	unsigned int		nids;
	int			saved_pid;
	u32			saved_reg;
	u16			saved_version;
	unsigned int		saved_timeout;
	int			alive;
	struct socket		*pm_sock;
	u32			pm_portid;
	/* the handler of a request arms fail-nth for its work's next one */
	unsigned int		arm_nth;
	/* the fake's iw_destroy_listen, while a test wraps it */
	int			(*destroy_listen)(struct iw_cm_id *cm_id);
	int			race_ret;
};

static void own(struct iwcm_fx *fx, struct iw_cm_id *id)
{
	unsigned long flags;

	spin_lock_irqsave(&fx->lock, flags);
	if (!WARN_ON(fx->nids >= MAX_IDS))
		fx->ids[fx->nids++] = id;
	spin_unlock_irqrestore(&fx->lock, flags);
}

static void disown(struct iwcm_fx *fx, struct iw_cm_id *id)
{
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&fx->lock, flags);
	for (i = 0; i < fx->nids; i++)
		if (fx->ids[i] == id)
			fx->ids[i] = fx->ids[--fx->nids];
	spin_unlock_irqrestore(&fx->lock, flags);
}

static void destroy(struct iwcm_fx *fx, struct iw_cm_id *id)
{
	disown(fx, id);
	iw_destroy_cm_id(id);
}

static int handler(struct iw_cm_id *id, struct iw_cm_event *ev)
{
	struct iwcm_fx *fx = id->context;
	unsigned long flags;
	struct rec *r;
	int ret;

	if (ev->event == fx->block_type) {
		complete(&fx->entered);
		wait_for_completion(&fx->release);
	}
	spin_lock_irqsave(&fx->lock, flags);
	ret = fx->ret_on[ev->event];
	if (fx->nrecs < MAX_RECS) {
		r = &fx->recs[fx->nrecs++];
		r->id = id;
		r->event = ev->event;
		r->status = ev->status;
		r->provider_data = ev->provider_data;
		r->local = ev->local_addr;
		r->remote = ev->remote_addr;
		r->ord = ev->ord;
		r->ird = ev->ird;
		r->pdata_len = min_t(u8, ev->private_data_len, 32);
		if (r->pdata_len)
			memcpy(r->pdata, ev->private_data, r->pdata_len);
	}
	spin_unlock_irqrestore(&fx->lock, flags);
	/* A new id of a request: the test owns it unless it refused it. */
	if (ev->event == IW_CM_EVENT_CONNECT_REQUEST && !ret)
		own(fx, id);
	wake_up_all(&fx->wq);
	if (ev->event == fx->block_after) {
		complete(&fx->entered);
		wait_for_completion(&fx->release);
	}
#ifdef CONFIG_FAULT_INJECTION
	/* last: the delivery work's next allocation is the next request's */
	if (ev->event == IW_CM_EVENT_CONNECT_REQUEST && fx->arm_nth) {
		current->fail_nth = fx->arm_nth;
		fx->arm_nth = 0;
	}
#endif
	return ret;
}

/* Wait until @n events were delivered in all; the last one. */
static struct rec *wait_recs(struct iwcm_fx *fx, unsigned int n)
{
	long left = wait_event_timeout(fx->wq, READ_ONCE(fx->nrecs) >= n,
				       msecs_to_jiffies(WAIT_MS));

	KUNIT_ASSERT_GT(fx->test, left, 0L);
	return &fx->recs[n - 1];
}

/* Wait for a completion; false after WAIT_MS. */
static bool waited(struct completion *c)
{
	return wait_for_completion_timeout(c, msecs_to_jiffies(WAIT_MS));
}

/* Every event queued so far was handled. */
static void settle(void)
{
	iwcm_test.flush_events();
}

/* An address, in memory of the running test. */
static struct sockaddr_storage *A(const char *ip, const char *port)
{
	struct kunit *test = kunit_get_current_test();
	struct sockaddr_storage *ss;

	ss = kunit_kzalloc(test, sizeof(*ss), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ss);
	KUNIT_ASSERT_EQ(test, inet_pton_with_scope(&init_net, AF_UNSPEC, ip,
						   port, ss), 0);
	return ss;
}

static bool same_addr(const struct sockaddr_storage *a,
		      const struct sockaddr_storage *b)
{
	return !iwpm_test.compare_sockaddr((struct sockaddr_storage *)a,
				      (struct sockaddr_storage *)b);
}

#define addr_eq(a, b)	same_addr(&(a), &(b))

static struct fake_hca_iw_call *new_call(struct kunit *test)
{
	struct fake_hca_iw_call *c = kunit_kzalloc(test, sizeof(*c),
						   GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	return c;
}

static struct iw_cm_id *new_id(struct iwcm_fx *fx)
{
	struct iw_cm_id *id = iw_create_cm_id(&fx->hca->ibdev, handler, fx);

	KUNIT_ASSERT_FALSE(fx->test, IS_ERR(id));
	id->local_addr = *A("192.0.2.1", "5000");
	id->remote_addr = *A("192.0.2.2", "6000");
	own(fx, id);
	return id;
}

static int inject(struct iw_cm_id *id, int type, int status)
{
	struct iw_cm_event ev = { .event = type, .status = status };

	return fake_hca_iw_event(id, &ev);
}

static int iwcm_test_init(struct kunit *test)
{
	struct fake_hca_desc *desc;
	struct iwcm_fx *fx;

	fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fx);
	fx->test = test;
	spin_lock_init(&fx->lock);
	init_waitqueue_head(&fx->wq);
	init_completion(&fx->entered);
	init_completion(&fx->release);
	fx->block_type = -1;
	fx->block_after = -1;
	fx->alive = iwcm_test.ids_alive();
	fx->saved_pid = iwpm_test.get_user_pid();
	fx->saved_reg = iwpm_test.get_registration(CLIENT);
	fx->saved_version = *iwpm_test.ulib_version;
	fx->saved_timeout = *iwpm_test.timeout_ms;
	/* No port mapper unless the test starts one. */
	iwpm_test.set_user_pid(IWPM_PID_UNAVAILABLE);

	desc = fake_hca_kunit_desc(test, 1);
	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = "kuiw%d";
	fake_hca_desc_set_iwarp(desc);
	fx->hca = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_FALSE(test, IS_ERR(fx->hca));
	KUNIT_ASSERT_NOT_NULL(test, fake_hca_iw_add_qp(fx->hca, QPN));
	KUNIT_ASSERT_NOT_NULL(test, fake_hca_iw_add_qp(fx->hca, QPN2));
	test->priv = fx;
	return 0;
}

static void iwcm_test_exit(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct iw_cm_id *id;

#ifdef CONFIG_FAULT_INJECTION
	current->fail_nth = 0;
#endif
	/* Never block in a handler past the test. */
	fx->block_type = -1;
	fx->block_after = -1;
	complete_all(&fx->release);
	for (;;) {
		spin_lock_irq(&fx->lock);
		id = fx->nids ? fx->ids[fx->nids - 1] : NULL;
		spin_unlock_irq(&fx->lock);
		if (!id)
			break;
		destroy(fx, id);
	}
	settle();
	if (fx->pm_sock)
		sock_release(fx->pm_sock);
	iwpm_test.flush_client(CLIENT);
	iwpm_test.set_user_pid(fx->saved_pid);
	iwpm_test.set_registration(CLIENT, fx->saved_reg);
	*iwpm_test.ulib_version = fx->saved_version;
	*iwpm_test.timeout_ms = fx->saved_timeout;
}

static int qp_refs(struct iwcm_fx *fx, u32 qpn)
{
	int refs = -100;

	fake_hca_iw_qp_info(fx->hca, qpn, &refs, NULL);
	return refs;
}

static enum ib_qp_state qp_state(struct iwcm_fx *fx, u32 qpn)
{
	return fake_hca_iw_qp_info(fx->hca, qpn, NULL, NULL);
}

/* ------------------------------------------------------------------
 * Putting ids into each state
 */

static struct iw_cm_id *listening(struct iwcm_fx *fx)
{
	struct iw_cm_id *id = new_id(fx);

	KUNIT_ASSERT_EQ(fx->test, iw_cm_listen(id, 8), 0);
	KUNIT_ASSERT_EQ(fx->test, iwcm_test.id_state(id), IW_CM_STATE_LISTEN);
	return id;
}

/* A request on @listener; returns the new id (CONN_RECV). */
static struct iw_cm_id *request(struct iwcm_fx *fx, struct iw_cm_id *listener,
				void *pd)
{
	struct iw_cm_event ev = {
		.event = IW_CM_EVENT_CONNECT_REQUEST,
		.provider_data = pd,
		.local_addr = *A("192.0.2.1", "5000"),
		.remote_addr = *A("192.0.2.9", "7000"),
		.private_data = "hello",
		.private_data_len = 5,
		.ord = 3,
		.ird = 4,
	};
	unsigned int n = READ_ONCE(fx->nrecs);
	struct rec *r;

	KUNIT_ASSERT_EQ(fx->test, fake_hca_iw_event(listener, &ev), 0);
	r = wait_recs(fx, n + 1);
	KUNIT_ASSERT_EQ(fx->test, r->event, IW_CM_EVENT_CONNECT_REQUEST);
	KUNIT_ASSERT_NE(fx->test, (unsigned long)r->id, (unsigned long)listener);
	KUNIT_ASSERT_EQ(fx->test, iwcm_test.id_state(r->id), IW_CM_STATE_CONN_RECV);
	return r->id;
}

static struct iw_cm_id *conn_recv(struct iwcm_fx *fx)
{
	return request(fx, listening(fx), (void *)0x1234);
}

static struct iw_cm_id *accepting(struct iwcm_fx *fx)
{
	struct iw_cm_conn_param p = { .qpn = QPN, .ord = 1, .ird = 2 };
	struct iw_cm_id *id = conn_recv(fx);

	KUNIT_ASSERT_EQ(fx->test, iw_cm_accept(id, &p), 0);
	return id;
}

static struct iw_cm_id *conn_sent(struct iwcm_fx *fx)
{
	struct iw_cm_conn_param p = { .qpn = QPN, .ord = 1, .ird = 2 };
	struct iw_cm_id *id = new_id(fx);

	KUNIT_ASSERT_EQ(fx->test, iw_cm_connect(id, &p), 0);
	KUNIT_ASSERT_EQ(fx->test, iwcm_test.id_state(id), IW_CM_STATE_CONN_SENT);
	return id;
}

static struct iw_cm_id *established(struct iwcm_fx *fx)
{
	struct iw_cm_id *id = conn_sent(fx);
	unsigned int n = READ_ONCE(fx->nrecs);

	KUNIT_ASSERT_EQ(fx->test, inject(id, IW_CM_EVENT_CONNECT_REPLY, 0), 0);
	wait_recs(fx, n + 1);
	KUNIT_ASSERT_EQ(fx->test, iwcm_test.id_state(id), IW_CM_STATE_ESTABLISHED);
	return id;
}

static struct iw_cm_id *closing(struct iwcm_fx *fx)
{
	struct iw_cm_id *id = established(fx);

	KUNIT_ASSERT_EQ(fx->test, inject(id, IW_CM_EVENT_DISCONNECT, 0), 0);
	settle();
	KUNIT_ASSERT_EQ(fx->test, iwcm_test.id_state(id), IW_CM_STATE_CLOSING);
	return id;
}

enum {
	S_IDLE, S_LISTEN, S_RECV, S_ACCEPTING, S_SENT, S_EST, S_CLOSING,
	S_COUNT
};

static const char * const s_names[] = {
	"IDLE", "LISTEN", "CONN_RECV", "CONN_RECV(accepted)", "CONN_SENT",
	"ESTABLISHED", "CLOSING",
};

static struct iw_cm_id *in_state(struct iwcm_fx *fx, int s)
{
	switch (s) {
	case S_IDLE:
		return new_id(fx);
	case S_LISTEN:
		return listening(fx);
	case S_RECV:
		return conn_recv(fx);
	case S_ACCEPTING:
		return accepting(fx);
	case S_SENT:
		return conn_sent(fx);
	case S_EST:
		return established(fx);
	default:
		return closing(fx);
	}
}

/* Tear everything down between rounds of a table test. */
static void reset(struct iwcm_fx *fx)
{
	struct iw_cm_id *id;

	for (;;) {
		spin_lock_irq(&fx->lock);
		id = fx->nids ? fx->ids[fx->nids - 1] : NULL;
		spin_unlock_irq(&fx->lock);
		if (!id)
			break;
		destroy(fx, id);
		while (fake_hca_iw_put_id(fx->hca, id))
			;
	}
	settle();
	fx->nrecs = 0;
	KUNIT_ASSERT_EQ(fx->test, iwcm_test.ids_alive(), fx->alive);
	KUNIT_ASSERT_EQ(fx->test, qp_refs(fx, QPN), 0);
}

/* ------------------------------------------------------------------
 * Ids
 */

static void iwcm_create_destroy(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct fake_hca_desc *desc;
	struct fake_hca *ib;
	struct iw_cm_id *id;

	id = new_id(fx);
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(id), IW_CM_STATE_IDLE);
	KUNIT_EXPECT_PTR_EQ(test, id->device, &fx->hca->ibdev);
	KUNIT_EXPECT_PTR_EQ(test, id->context, (void *)fx);
	KUNIT_EXPECT_NOT_NULL(test, id->event_handler);
	KUNIT_EXPECT_EQ(test, iwcm_test.id_refcount(id), 1U);
	KUNIT_EXPECT_EQ(test, iwcm_test.ids_alive(), fx->alive + 1);
	destroy(fx, id);
	KUNIT_EXPECT_EQ(test, iwcm_test.ids_alive(), fx->alive);

	/* A device without the iw ops (an IB fake) has no iWARP CM. */
	desc = fake_hca_kunit_desc(test, 1);
	KUNIT_ASSERT_NOT_NULL(test, desc);
	ib = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ib));
	KUNIT_EXPECT_EQ(test, PTR_ERR(iw_create_cm_id(&ib->ibdev, handler, fx)),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, iwcm_test.ids_alive(), fx->alive);
}

static void iwcm_reject_msg_text(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, iwcm_reject_msg(-ECONNRESET),
			   "reset by remote host");
	KUNIT_EXPECT_STREQ(test, iwcm_reject_msg(-ECONNREFUSED),
			   "refused by remote application");
	KUNIT_EXPECT_STREQ(test, iwcm_reject_msg(-ETIMEDOUT), "setup timeout");
	KUNIT_EXPECT_STREQ(test, iwcm_reject_msg(0), "unrecognized reason");
	KUNIT_EXPECT_STREQ(test, iwcm_reject_msg(ECONNRESET),
			   "unrecognized reason");
	KUNIT_EXPECT_STREQ(test, iwcm_reject_msg(-EIO), "unrecognized reason");
}

/* ------------------------------------------------------------------
 * Calls in each state
 */

static void iwcm_calls_refused_per_state(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct iw_cm_conn_param p = { .qpn = QPN2 };
	int s;

	for (s = 0; s < S_COUNT; s++) {
		struct iw_cm_id *id = in_state(fx, s);
		int before = iwcm_test.id_state(id);

		kunit_info(test, "state %s\n", s_names[s]);
		if (s != S_IDLE) {
			KUNIT_EXPECT_EQ(test, iw_cm_listen(id, 4), -EINVAL);
			KUNIT_EXPECT_EQ(test, iw_cm_connect(id, &p), -EINVAL);
		}
		if (s != S_RECV) {
			KUNIT_EXPECT_EQ(test, iw_cm_accept(id, &p), -EINVAL);
			KUNIT_EXPECT_EQ(test, iw_cm_reject(id, NULL, 0), -EINVAL);
		}
		if (s == S_LISTEN)
			KUNIT_EXPECT_EQ(test, iw_cm_disconnect(id, 0), -EINVAL);
		if (s == S_IDLE || s == S_RECV || s == S_CLOSING)
			KUNIT_EXPECT_EQ(test, iw_cm_disconnect(id, 0), 0);
		KUNIT_EXPECT_EQ(test, (int)iwcm_test.id_state(id), before);
		/* Nothing of the refused calls reached the driver's QP. */
		KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN2), 0);
		reset(fx);
	}
	/* NULL parameters */
	{
		struct iw_cm_id *id = new_id(fx);

		KUNIT_EXPECT_EQ(test, iw_cm_connect(id, NULL), -EINVAL);
		KUNIT_EXPECT_EQ(test, iwcm_test.id_state(id), IW_CM_STATE_IDLE);
	}
}

/* ------------------------------------------------------------------
 * Each event in each state
 */

#define R_REFUSED	-1	/* no delivery, counted as refused */
#define R_NOTHING	0	/* no delivery, not refused */

struct ev_case {
	int state;
	int event;
	int status;
	int delivered;		/* event type the consumer gets, or R_* */
	int dstatus;		/* its status */
	int after;		/* enum iw_cm_state */
};

#define EV_REQ		IW_CM_EVENT_CONNECT_REQUEST
#define EV_REP		IW_CM_EVENT_CONNECT_REPLY
#define EV_EST		IW_CM_EVENT_ESTABLISHED
#define EV_DISC		IW_CM_EVENT_DISCONNECT
#define EV_CLOSE	IW_CM_EVENT_CLOSE
#define ST_IDLE		IW_CM_STATE_IDLE
#define ST_LISTEN	IW_CM_STATE_LISTEN
#define ST_RECV		IW_CM_STATE_CONN_RECV
#define ST_SENT		IW_CM_STATE_CONN_SENT
#define ST_EST		IW_CM_STATE_ESTABLISHED
#define ST_CLOSING	IW_CM_STATE_CLOSING

static const struct ev_case ev_cases[] = {
	{ S_IDLE, EV_REQ, 0, R_REFUSED, 0, ST_IDLE },
	{ S_IDLE, EV_REP, 0, R_REFUSED, 0, ST_IDLE },
	{ S_IDLE, EV_EST, 0, R_REFUSED, 0, ST_IDLE },
	{ S_IDLE, EV_DISC, 0, R_REFUSED, 0, ST_IDLE },
	{ S_IDLE, EV_CLOSE, 0, R_REFUSED, 0, ST_IDLE },
	{ S_LISTEN, EV_REQ, 0, EV_REQ, 0, ST_LISTEN },
	{ S_LISTEN, EV_REP, 0, R_REFUSED, 0, ST_LISTEN },
	{ S_LISTEN, EV_EST, 0, R_REFUSED, 0, ST_LISTEN },
	{ S_LISTEN, EV_DISC, 0, R_REFUSED, 0, ST_LISTEN },
	{ S_LISTEN, EV_CLOSE, 0, R_REFUSED, 0, ST_LISTEN },
	{ S_RECV, EV_REQ, 0, R_REFUSED, 0, ST_RECV },
	{ S_RECV, EV_REP, 0, R_REFUSED, 0, ST_RECV },
	{ S_RECV, EV_EST, 0, R_REFUSED, 0, ST_RECV },
	{ S_RECV, EV_DISC, 0, R_REFUSED, 0, ST_RECV },
	{ S_RECV, EV_CLOSE, 0, R_REFUSED, 0, ST_RECV },
	{ S_ACCEPTING, EV_REP, 0, R_REFUSED, 0, ST_RECV },
	{ S_ACCEPTING, EV_EST, 0, EV_EST, 0, ST_EST },
	{ S_ACCEPTING, EV_DISC, 0, R_REFUSED, 0, ST_RECV },
	{ S_ACCEPTING, EV_CLOSE, -ECONNRESET, EV_CLOSE, -ECONNRESET, ST_IDLE },
	{ S_SENT, EV_REQ, 0, R_REFUSED, 0, ST_SENT },
	{ S_SENT, EV_REP, 0, EV_REP, 0, ST_EST },
	{ S_SENT, EV_REP, -ECONNREFUSED, EV_REP, -ECONNREFUSED, ST_IDLE },
	{ S_SENT, EV_EST, 0, R_REFUSED, 0, ST_SENT },
	{ S_SENT, EV_DISC, 0, R_REFUSED, 0, ST_SENT },
	{ S_SENT, EV_CLOSE, 0, EV_REP, -ECONNRESET, ST_IDLE },
	{ S_EST, EV_REQ, 0, R_REFUSED, 0, ST_EST },
	{ S_EST, EV_REP, 0, R_REFUSED, 0, ST_EST },
	{ S_EST, EV_EST, 0, R_REFUSED, 0, ST_EST },
	{ S_EST, EV_DISC, 0, R_NOTHING, 0, ST_CLOSING },
	{ S_EST, EV_CLOSE, 0, EV_CLOSE, 0, ST_IDLE },
	{ S_CLOSING, EV_REP, 0, R_REFUSED, 0, ST_CLOSING },
	{ S_CLOSING, EV_EST, 0, R_REFUSED, 0, ST_CLOSING },
	{ S_CLOSING, EV_DISC, 0, R_NOTHING, 0, ST_CLOSING },
	{ S_CLOSING, EV_CLOSE, 0, EV_CLOSE, 0, ST_IDLE },
};

static void iwcm_events_per_state(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ev_cases); i++) {
		const struct ev_case *c = &ev_cases[i];
		struct iw_cm_id *id = in_state(fx, c->state);
		unsigned int refused = iwcm_test.id_refused(id);
		unsigned int rejects = fake_hca_iw_calls(fx->hca,
							 FAKE_HCA_IW_REJECT);
		unsigned int n = fx->nrecs;
		struct iw_cm_event ev = {
			.event = c->event,
			.status = c->status,
			.provider_data = (void *)0x99,
		};

		kunit_info(test, "%s: event %d status %d\n", s_names[c->state],
			   c->event, c->status);
		KUNIT_EXPECT_EQ(test, fake_hca_iw_event(id, &ev), 0);
		settle();
		if (c->delivered > 0) {
			struct rec *r = wait_recs(fx, n + 1);

			KUNIT_EXPECT_EQ(test, r->event, c->delivered);
			KUNIT_EXPECT_EQ(test, r->status, c->dstatus);
			if (c->event != IW_CM_EVENT_CONNECT_REQUEST)
				KUNIT_EXPECT_PTR_EQ(test, r->id, id);
		} else {
			KUNIT_EXPECT_EQ(test, fx->nrecs, n);
		}
		KUNIT_EXPECT_EQ(test, iwcm_test.id_refused(id),
				refused + (c->delivered == R_REFUSED));
		KUNIT_EXPECT_EQ(test, (int)iwcm_test.id_state(id), c->after);
		/* A request nobody listens for is rejected at the driver. */
		if (c->event == IW_CM_EVENT_CONNECT_REQUEST &&
		    c->delivered == R_REFUSED)
			KUNIT_EXPECT_EQ(test, rejects + 1,
					fake_hca_iw_calls(fx->hca,
							  FAKE_HCA_IW_REJECT));
		/* The connection ended: the QP reference went with it. */
		if (c->after == IW_CM_STATE_IDLE && c->state != S_IDLE &&
		    c->state != S_RECV)
			KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN), 0);
		reset(fx);
	}
}

/* Events the driver may not send at all: refused when queued. */
static void iwcm_events_invalid(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct iw_cm_id *id = listening(fx);
	struct iw_cm_event ev = {};

	ev.event = 0;
	KUNIT_EXPECT_EQ(test, fake_hca_iw_event(id, &ev), -EINVAL);
	ev.event = IW_CM_EVENT_CLOSE + 1;
	KUNIT_EXPECT_EQ(test, fake_hca_iw_event(id, &ev), -EINVAL);
	ev.event = IW_CM_EVENT_CONNECT_REQUEST;
	ev.status = -EIO;
	KUNIT_EXPECT_EQ(test, fake_hca_iw_event(id, &ev), -EINVAL);
	ev.status = 0;
	ev.private_data_len = 4;
	KUNIT_EXPECT_EQ(test, fake_hca_iw_event(id, &ev), -EINVAL);
	settle();
	KUNIT_EXPECT_EQ(test, fx->nrecs, 0U);
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(id), IW_CM_STATE_LISTEN);
}

/*
 * @n connection requests on listener @id, provider_data 1..@n: the first
 * is held in the handler (block_type CONNECT_REQUEST), the rest queue.
 */
static void queue_requests(struct iwcm_fx *fx, struct iw_cm_id *id,
			   unsigned long n)
{
	struct kunit *test = fx->test;
	unsigned long i;

	for (i = 0; i < n; i++) {
		struct iw_cm_event ev = {
			.event = IW_CM_EVENT_CONNECT_REQUEST,
			.provider_data = (void *)(i + 1),
		};

		KUNIT_ASSERT_EQ(test, fake_hca_iw_event(id, &ev), 0);
		if (!i)
			KUNIT_ASSERT_TRUE(test, waited(&fx->entered));
	}
}

/* Requests come out in the order they went in, one at a time. */
static void iwcm_events_in_order(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct iw_cm_id *id = listening(fx);
	unsigned long i;

	fx->ret_on[IW_CM_EVENT_CONNECT_REQUEST] = 1;	/* refuse them all */
	fx->block_type = IW_CM_EVENT_CONNECT_REQUEST;
	queue_requests(fx, id, 8);
	KUNIT_EXPECT_EQ(test, fx->nrecs, 0U);
	complete_all(&fx->release);
	wait_recs(fx, 8);
	settle();
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_PTR_EQ(test, fx->recs[i].provider_data,
				    (void *)(i + 1));
	/* Each refused request was rejected and its id destroyed. */
	KUNIT_EXPECT_EQ(test, fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT), 8U);
	KUNIT_EXPECT_EQ(test, iwcm_test.ids_alive(), fx->alive + 1);
}

/* Private data and the addresses of a request reach the consumer. */
static void iwcm_request_contents(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct iw_cm_id *l = listening(fx);
	struct iw_cm_id *c = request(fx, l, (void *)0x77);
	struct rec *r = &fx->recs[0];

	KUNIT_EXPECT_EQ(test, r->pdata_len, 5);
	KUNIT_EXPECT_MEMEQ(test, r->pdata, "hello", 5);
	KUNIT_EXPECT_EQ(test, r->ord, 3);
	KUNIT_EXPECT_EQ(test, r->ird, 4);
	KUNIT_EXPECT_PTR_EQ(test, c->provider_data, (void *)0x77);
	KUNIT_EXPECT_PTR_EQ(test, c->context, (void *)fx);
	KUNIT_EXPECT_TRUE(test, addr_eq(c->remote_addr, *A("192.0.2.9", "7000")));
	KUNIT_EXPECT_TRUE(test, addr_eq(c->local_addr, l->local_addr));
	KUNIT_EXPECT_TRUE(test, addr_eq(c->m_remote_addr, *A("192.0.2.9", "7000")));
	KUNIT_EXPECT_FALSE(test, c->mapped);
}

/* The driver's buffer may change once the event is queued. */
static void iwcm_reply_private_data_copied(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct iw_cm_id *id;
	char buf[8] = "accept!";
	struct iw_cm_event ev = {
		.event = IW_CM_EVENT_CONNECT_REPLY,
		.private_data = buf,
		.private_data_len = 7,
		.local_addr = *A("192.0.2.1", "41000"),
		.remote_addr = *A("192.0.2.2", "42000"),
	};
	struct rec *r;

	id = conn_sent(fx);
	fx->block_type = IW_CM_EVENT_CONNECT_REPLY;
	KUNIT_ASSERT_EQ(test, fake_hca_iw_event(id, &ev), 0);
	memset(buf, 'x', sizeof(buf));
	complete_all(&fx->release);
	r = wait_recs(fx, 1);
	KUNIT_EXPECT_EQ(test, r->pdata_len, 7);
	KUNIT_EXPECT_MEMEQ(test, r->pdata, "accept!", 7);
	/* The consumer sees its addresses; the id keeps the wire's. */
	KUNIT_EXPECT_TRUE(test, addr_eq(r->local, id->local_addr));
	KUNIT_EXPECT_TRUE(test, addr_eq(r->remote, id->remote_addr));
	KUNIT_EXPECT_TRUE(test, addr_eq(id->m_local_addr, *A("192.0.2.1", "41000")));
	KUNIT_EXPECT_TRUE(test, addr_eq(id->m_remote_addr, *A("192.0.2.2", "42000")));
}

/* ------------------------------------------------------------------
 * Connect, accept, reject, listen, disconnect
 */

static void iwcm_connect_params(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct iw_cm_conn_param p = {
		.private_data = "pd-connect",
		.private_data_len = 10,
		.ord = 7, .ird = 9, .qpn = QPN,
	};
	struct fake_hca_iw_call *call = new_call(test);
	struct iw_cm_id *id = new_id(fx);

	KUNIT_ASSERT_EQ(test, iw_cm_connect(id, &p), 0);
	KUNIT_ASSERT_TRUE(test, fake_hca_iw_last(fx->hca, FAKE_HCA_IW_CONNECT,
						 call));
	KUNIT_EXPECT_PTR_EQ(test, call->cm_id, id);
	KUNIT_EXPECT_EQ(test, call->pdata_len, 10);
	KUNIT_EXPECT_MEMEQ(test, call->pdata, "pd-connect", 10);
	KUNIT_EXPECT_EQ(test, call->ord, 7U);
	KUNIT_EXPECT_EQ(test, call->ird, 9U);
	KUNIT_EXPECT_EQ(test, call->qpn, (u32)QPN);
	/* No port mapper: the wire addresses are the id's. */
	KUNIT_EXPECT_TRUE(test, addr_eq(call->local, id->local_addr));
	KUNIT_EXPECT_TRUE(test, addr_eq(call->remote, id->remote_addr));
	KUNIT_EXPECT_FALSE(test, id->mapped);
	KUNIT_ASSERT_TRUE(test, fake_hca_iw_last(fx->hca, FAKE_HCA_IW_GET_QP,
						 call));
	KUNIT_EXPECT_EQ(test, call->qpn, (u32)QPN);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN), 1);
	KUNIT_EXPECT_EQ(test, fake_hca_iw_held(fx->hca, id), 1U);
}

static void iwcm_connect_failures(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct iw_cm_conn_param p = { .qpn = QPN };
	struct iw_cm_conn_param bad = { .qpn = 0x99 };
	struct iw_cm_id *id = new_id(fx);

	/* No such QP. */
	KUNIT_EXPECT_EQ(test, iw_cm_connect(id, &bad), -EINVAL);
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(id), IW_CM_STATE_IDLE);
	/* The driver fails: IDLE again, QP released, nothing held. */
	fake_hca_iw_fail(fx->hca, FAKE_HCA_IW_CONNECT, -ENETUNREACH);
	KUNIT_EXPECT_EQ(test, iw_cm_connect(id, &p), -ENETUNREACH);
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(id), IW_CM_STATE_IDLE);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN), 0);
	KUNIT_EXPECT_EQ(test, fake_hca_iw_held(fx->hca, id), 0U);
	/* ... and the id can try again. */
	KUNIT_EXPECT_EQ(test, iw_cm_connect(id, &p), 0);
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(id), IW_CM_STATE_CONN_SENT);
	/* A rejected connect frees the QP; the handler hears the status. */
	KUNIT_EXPECT_EQ(test, inject(id, IW_CM_EVENT_CONNECT_REPLY,
				     -ECONNREFUSED), 0);
	KUNIT_EXPECT_EQ(test, wait_recs(fx, 1)->status, -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN), 0);
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(id), IW_CM_STATE_IDLE);
}

static void iwcm_accept_params(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct iw_cm_conn_param p = {
		.private_data = "welcome", .private_data_len = 7,
		.ord = 5, .ird = 6, .qpn = QPN2,
	};
	struct iw_cm_conn_param bad = { .qpn = 0x99 };
	struct fake_hca_iw_call *call = new_call(test);
	struct iw_cm_id *id = conn_recv(fx);

	KUNIT_EXPECT_EQ(test, iw_cm_accept(id, &bad), -EINVAL);
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(id), IW_CM_STATE_CONN_RECV);
	KUNIT_ASSERT_EQ(test, iw_cm_accept(id, &p), 0);
	KUNIT_ASSERT_TRUE(test, fake_hca_iw_last(fx->hca, FAKE_HCA_IW_ACCEPT,
						 call));
	KUNIT_EXPECT_PTR_EQ(test, call->cm_id, id);
	KUNIT_EXPECT_PTR_EQ(test, call->provider_data, (void *)0x1234);
	KUNIT_EXPECT_EQ(test, call->pdata_len, 7);
	KUNIT_EXPECT_MEMEQ(test, call->pdata, "welcome", 7);
	KUNIT_EXPECT_EQ(test, call->ord, 5U);
	KUNIT_EXPECT_EQ(test, call->ird, 6U);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN2), 1);
	/* Accepted: neither a second accept nor a reject. */
	KUNIT_EXPECT_EQ(test, iw_cm_accept(id, &p), -EINVAL);
	KUNIT_EXPECT_EQ(test, iw_cm_reject(id, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN2), 1);
	KUNIT_EXPECT_EQ(test, inject(id, IW_CM_EVENT_ESTABLISHED, 0), 0);
	KUNIT_EXPECT_EQ(test, wait_recs(fx, 2)->event, IW_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(id), IW_CM_STATE_ESTABLISHED);

	/* A driver failure: IDLE, QP released. */
	id = request(fx, listening(fx), NULL);
	fake_hca_iw_fail(fx->hca, FAKE_HCA_IW_ACCEPT, -ECONNRESET);
	KUNIT_EXPECT_EQ(test, iw_cm_accept(id, &p), -ECONNRESET);
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(id), IW_CM_STATE_IDLE);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN2), 1);
	KUNIT_EXPECT_EQ(test, iw_cm_accept(NULL ? id : id, NULL), -EINVAL);
}

static void iwcm_reject_private_data(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct fake_hca_iw_call *call = new_call(test);
	struct iw_cm_id *id = conn_recv(fx);

	KUNIT_EXPECT_EQ(test, iw_cm_reject(id, NULL, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(id), IW_CM_STATE_CONN_RECV);
	KUNIT_EXPECT_EQ(test, iw_cm_reject(id, "no thanks", 9), 0);
	KUNIT_ASSERT_TRUE(test, fake_hca_iw_last(fx->hca, FAKE_HCA_IW_REJECT,
						 call));
	KUNIT_EXPECT_PTR_EQ(test, call->cm_id, id);
	KUNIT_EXPECT_EQ(test, call->pdata_len, 9);
	KUNIT_EXPECT_MEMEQ(test, call->pdata, "no thanks", 9);
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(id), IW_CM_STATE_IDLE);
	KUNIT_EXPECT_EQ(test, iw_cm_reject(id, NULL, 0), -EINVAL);
	/* No event follows a reject. */
	settle();
	KUNIT_EXPECT_EQ(test, fx->nrecs, 1U);
	/* The driver's failure is returned; the id is IDLE anyway. */
	id = request(fx, listening(fx), NULL);
	fake_hca_iw_fail(fx->hca, FAKE_HCA_IW_REJECT, -EIO);
	KUNIT_EXPECT_EQ(test, iw_cm_reject(id, NULL, 0), -EIO);
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(id), IW_CM_STATE_IDLE);
}

static void iwcm_listen_backlog(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct fake_hca_iw_call *call = new_call(test);
	struct iw_cm_id *id = new_id(fx);

	KUNIT_ASSERT_EQ(test, iw_cm_listen(id, 0), 0);
	KUNIT_ASSERT_TRUE(test, fake_hca_iw_last(fx->hca,
						 FAKE_HCA_IW_CREATE_LISTEN,
						 call));
	KUNIT_EXPECT_EQ(test, call->backlog, (int)iwcm_test.default_backlog());
	KUNIT_EXPECT_TRUE(test, addr_eq(call->local, id->local_addr));
	KUNIT_EXPECT_EQ(test, fake_hca_iw_held(fx->hca, id), 1U);
	KUNIT_EXPECT_EQ(test, iw_cm_listen(id, 4), -EINVAL);
	destroy(fx, id);
	KUNIT_EXPECT_EQ(test, fake_hca_iw_calls(fx->hca,
						FAKE_HCA_IW_DESTROY_LISTEN), 1U);
	KUNIT_EXPECT_EQ(test, iwcm_test.ids_alive(), fx->alive);

	id = new_id(fx);
	fake_hca_iw_fail(fx->hca, FAKE_HCA_IW_CREATE_LISTEN, -EADDRINUSE);
	KUNIT_EXPECT_EQ(test, iw_cm_listen(id, 5), -EADDRINUSE);
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(id), IW_CM_STATE_IDLE);
	KUNIT_EXPECT_EQ(test, fake_hca_iw_held(fx->hca, id), 0U);
	KUNIT_EXPECT_EQ(test, iw_cm_listen(id, 5), 0);
	fake_hca_iw_last(fx->hca, FAKE_HCA_IW_CREATE_LISTEN, call);
	KUNIT_EXPECT_EQ(test, call->backlog, 5);
}

static void iwcm_disconnect_graceful_abrupt(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	unsigned int moves;
	struct iw_cm_id *id;

	id = established(fx);
	KUNIT_EXPECT_EQ(test, iw_cm_disconnect(id, 0), 0);
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(id), IW_CM_STATE_CLOSING);
	KUNIT_EXPECT_EQ(test, qp_state(fx, QPN), IB_QPS_SQD);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN), 1);
	/* Again, or after the peer's DISCONNECT: nothing more happens. */
	fake_hca_iw_qp_info(fx->hca, QPN, NULL, &moves);
	KUNIT_EXPECT_EQ(test, iw_cm_disconnect(id, 1), 0);
	KUNIT_EXPECT_EQ(test, inject(id, IW_CM_EVENT_DISCONNECT, 0), 0);
	settle();
	KUNIT_EXPECT_EQ(test, fake_hca_iw_qp_info(fx->hca, QPN, NULL, &moves),
			IB_QPS_SQD);
	KUNIT_EXPECT_EQ(test, moves, 1U);
	KUNIT_EXPECT_EQ(test, inject(id, IW_CM_EVENT_CLOSE, 0), 0);
	KUNIT_EXPECT_EQ(test, wait_recs(fx, 2)->event, IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN), 0);
	KUNIT_EXPECT_EQ(test, iw_cm_disconnect(id, 0), 0);
	reset(fx);

	id = established(fx);
	KUNIT_EXPECT_EQ(test, iw_cm_disconnect(id, 1), 0);
	KUNIT_EXPECT_EQ(test, qp_state(fx, QPN), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(id), IW_CM_STATE_CLOSING);
}

/*
 * Wait, WAIT_MS at most, until a task sleeps on @wq.  A task on the wait
 * queue of an id goes on only when it is woken with its condition met.
 */
static bool sleeper_on(wait_queue_head_t *wq)
{
	unsigned long end = jiffies + msecs_to_jiffies(WAIT_MS);

	while (!wq_has_sleeper(wq)) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(200, 500);
	}
	return true;
}

/* disconnect waits for a connect to be answered. */
static int disconnect_thread(void *data)
{
	struct iw_cm_id *id = data;
	struct iwcm_fx *fx = id->context;

	fx->ret_on[0] = iw_cm_disconnect(id, 1);
	complete(&fx->entered);
	return 0;
}

static void iwcm_disconnect_waits_for_reply(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct iw_cm_id *id = conn_sent(fx);
	struct task_struct *t;

	fx->ret_on[0] = 12345;
	t = kthread_run(disconnect_thread, id, "iwcm_kunit");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	/* it sleeps on the id's wait queue until the reply */
	KUNIT_ASSERT_TRUE_MSG(test, sleeper_on(&to_iwcm(id)->wait),
			      "the disconnect does not wait for the reply");
	KUNIT_EXPECT_FALSE(test, completion_done(&fx->entered));
	KUNIT_EXPECT_EQ(test, inject(id, IW_CM_EVENT_CONNECT_REPLY, 0), 0);
	KUNIT_ASSERT_TRUE(test, waited(&fx->entered));
	KUNIT_EXPECT_EQ(test, fx->ret_on[0], 0);
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(id), IW_CM_STATE_CLOSING);
	KUNIT_EXPECT_EQ(test, qp_state(fx, QPN), IB_QPS_ERR);
}

static void iwcm_init_qp_attr_states(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	int s;

	for (s = 0; s < S_COUNT; s++) {
		struct iw_cm_id *id = in_state(fx, s);
		bool ok = s != S_LISTEN && s != S_CLOSING;
		struct ib_qp_attr attr = {};
		int mask = -1;

		kunit_info(test, "state %s\n", s_names[s]);
		attr.qp_state = IB_QPS_INIT;
		KUNIT_EXPECT_EQ(test, iw_cm_init_qp_attr(id, &attr, &mask),
				ok ? 0 : -EINVAL);
		if (ok) {
			KUNIT_EXPECT_EQ(test, mask,
					IB_QP_STATE | IB_QP_ACCESS_FLAGS);
			KUNIT_EXPECT_EQ(test, attr.qp_access_flags,
					IB_ACCESS_REMOTE_WRITE |
					IB_ACCESS_REMOTE_READ);
		}
		attr.qp_state = IB_QPS_RTR;
		mask = -1;
		KUNIT_EXPECT_EQ(test, iw_cm_init_qp_attr(id, &attr, &mask),
				ok ? 0 : -EINVAL);
		if (ok)
			KUNIT_EXPECT_EQ(test, mask,
					IB_QP_STATE | IB_QP_ACCESS_FLAGS);
		attr.qp_state = IB_QPS_RTS;
		mask = -1;
		KUNIT_EXPECT_EQ(test, iw_cm_init_qp_attr(id, &attr, &mask),
				ok ? 0 : -EINVAL);
		if (ok)
			KUNIT_EXPECT_EQ(test, mask, 0);
		attr.qp_state = IB_QPS_SQD;
		KUNIT_EXPECT_EQ(test, iw_cm_init_qp_attr(id, &attr, &mask),
				-EINVAL);
		reset(fx);
	}
}

/* ------------------------------------------------------------------
 * Destroy, handler verdicts, driver references
 */

static void iwcm_destroy_each_state(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	int s;

	for (s = 0; s < S_COUNT; s++) {
		struct iw_cm_id *id = in_state(fx, s);
		unsigned int rejects = fake_hca_iw_calls(fx->hca,
							 FAKE_HCA_IW_REJECT);
		unsigned int unlistens = fake_hca_iw_calls(fx->hca,
						FAKE_HCA_IW_DESTROY_LISTEN);
		bool has_qp = s == S_ACCEPTING || s == S_SENT || s == S_EST ||
			      s == S_CLOSING;
		enum ib_qp_state qps = qp_state(fx, QPN);
		unsigned int n = fx->nrecs;

		kunit_info(test, "state %s\n", s_names[s]);
		destroy(fx, id);
		KUNIT_EXPECT_EQ(test, fake_hca_iw_calls(fx->hca,
							FAKE_HCA_IW_REJECT),
				rejects + (s == S_RECV));
		KUNIT_EXPECT_EQ(test, unlistens + (s == S_LISTEN),
				fake_hca_iw_calls(fx->hca,
						  FAKE_HCA_IW_DESTROY_LISTEN));
		/* A connection is cut (CLOSING: already on its way out). */
		if (has_qp && s != S_CLOSING)
			KUNIT_EXPECT_EQ(test, qp_state(fx, QPN), IB_QPS_ERR);
		else
			KUNIT_EXPECT_EQ(test, qp_state(fx, QPN), qps);
		KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN), 0);
		/* The driver still reports: dropped, the memory stays. */
		if (fake_hca_iw_held(fx->hca, id)) {
			KUNIT_EXPECT_EQ(test, inject(id, IW_CM_EVENT_CLOSE, 0), 0);
			settle();
			KUNIT_EXPECT_EQ(test, fx->nrecs, n);
			KUNIT_EXPECT_GT(test, iwcm_test.ids_alive(),
					fx->alive);
			while (fake_hca_iw_put_id(fx->hca, id))
				;
		}
		reset(fx);
	}
}

static void iwcm_handler_nonzero_destroys(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct iw_cm_id *id;
	int alive;

	/* CONNECT_REPLY: the connection is cut, the id goes. */
	id = conn_sent(fx);
	disown(fx, id);
	fx->ret_on[IW_CM_EVENT_CONNECT_REPLY] = -ENOMEM;
	alive = iwcm_test.ids_alive();
	KUNIT_EXPECT_EQ(test, inject(id, IW_CM_EVENT_CONNECT_REPLY, 0), 0);
	wait_recs(fx, 1);
	settle();
	KUNIT_EXPECT_EQ(test, qp_state(fx, QPN), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN), 0);
	/* Only the driver's reference is left. */
	KUNIT_EXPECT_EQ(test, iwcm_test.id_refcount(id), 1U);
	KUNIT_EXPECT_TRUE(test, fake_hca_iw_put_id(fx->hca, id));
	KUNIT_EXPECT_EQ(test, iwcm_test.ids_alive(), alive - 1);

	/* CLOSE */
	fx->ret_on[IW_CM_EVENT_CONNECT_REPLY] = 0;
	fx->ret_on[IW_CM_EVENT_CLOSE] = 1;
	id = established(fx);
	disown(fx, id);
	KUNIT_EXPECT_EQ(test, inject(id, IW_CM_EVENT_CLOSE, 0), 0);
	wait_recs(fx, 3);
	settle();
	KUNIT_EXPECT_TRUE(test, fake_hca_iw_put_id(fx->hca, id));
	KUNIT_EXPECT_EQ(test, iwcm_test.ids_alive(), alive - 1);

	/* CONNECT_REQUEST: the request is rejected, the new id goes. */
	id = listening(fx);
	fx->ret_on[IW_CM_EVENT_CONNECT_REQUEST] = 1;
	KUNIT_EXPECT_EQ(test, inject(id, IW_CM_EVENT_CONNECT_REQUEST, 0), 0);
	wait_recs(fx, 4);
	settle();
	KUNIT_EXPECT_EQ(test, fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT), 1U);
	KUNIT_EXPECT_EQ(test, iwcm_test.ids_alive(), alive);
}

/* destroy waits for the id's handler; nothing is delivered after it. */
static int destroy_thread(void *data)
{
	struct iw_cm_id *id = data;
	struct iwcm_fx *fx = id->context;

	destroy(fx, id);
	fx->ret_on[0] = 1;
	wake_up_all(&fx->wq);
	return 0;
}

/*
 * Wait, WAIT_MS at most, until @t sleeps in iw_destroy_cm_id() of @id
 * past its teardown (@id DESTROYING).  From there the destroy sleeps
 * only to wait for the running handler (flush_work() of the id's
 * delivery work): nothing else it does there sleeps.  A destroy that did
 * not wait would return without sleeping, and this times out.
 */
static bool destroy_sleeps(struct task_struct *t, struct iw_cm_id *id)
{
	unsigned long end = jiffies + msecs_to_jiffies(WAIT_MS);

	while (iwcm_test.id_state(id) != IW_CM_STATE_DESTROYING ||
	       !(READ_ONCE(t->__state) & TASK_UNINTERRUPTIBLE)) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(200, 500);
	}
	return true;
}

static void put_task(void *t)
{
	put_task_struct(t);
}

static void iwcm_destroy_waits_for_handler(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct iw_cm_id *id = established(fx);
	struct task_struct *t;

	fx->block_type = IW_CM_EVENT_CLOSE;
	KUNIT_ASSERT_EQ(test, inject(id, IW_CM_EVENT_CLOSE, 0), 0);
	KUNIT_ASSERT_TRUE(test, waited(&fx->entered));
	t = kthread_create(destroy_thread, id, "iwcm_kunit");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	get_task_struct(t);
	wake_up_process(t);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, put_task, t), 0);
	KUNIT_ASSERT_TRUE_MSG(test, destroy_sleeps(t, id),
			      "the destroy does not wait for the handler");
	KUNIT_EXPECT_EQ(test, fx->ret_on[0], 0);
	complete_all(&fx->release);
	wait_event_timeout(fx->wq, fx->ret_on[0] == 1,
			   msecs_to_jiffies(WAIT_MS));
	KUNIT_EXPECT_EQ(test, fx->ret_on[0], 1);
	KUNIT_EXPECT_EQ(test, fx->nrecs, 2U);
	KUNIT_EXPECT_TRUE(test, fake_hca_iw_put_id(fx->hca, id));
	KUNIT_EXPECT_EQ(test, iwcm_test.ids_alive(), fx->alive);
}

/*
 * The consumer destroys a new id from another task while the
 * CONNECT_REQUEST handler that gave it is still running (it runs on the
 * listener's work, so the destroy does not wait for it): the request is
 * rejected and the id torn down at once, but its memory stays until the
 * handler returned (a make check saw iw_cm touch the freed id there).
 */
static void iwcm_request_id_destroyed_in_handler(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct iw_cm_id *lid = listening(fx), *id;
	struct iw_cm_event ev = {
		.event = IW_CM_EVENT_CONNECT_REQUEST,
		.provider_data = (void *)0x61,
		.local_addr = *A("192.0.2.1", "5000"),
		.remote_addr = *A("192.0.2.9", "7000"),
	};
	unsigned int rejects;
	int alive;

	fx->block_after = IW_CM_EVENT_CONNECT_REQUEST;
	rejects = fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT);
	alive = iwcm_test.ids_alive();
	KUNIT_ASSERT_EQ(test, fake_hca_iw_event(lid, &ev), 0);
	KUNIT_ASSERT_TRUE(test, waited(&fx->entered));
	id = fx->recs[0].id;
	KUNIT_ASSERT_EQ(test, iwcm_test.ids_alive(), alive + 1);
	destroy(fx, id);
	KUNIT_EXPECT_EQ(test, fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT),
			rejects + 1);
	/* The handler has not returned: the id's memory is still there. */
	KUNIT_EXPECT_EQ(test, iwcm_test.ids_alive(), alive + 1);
	complete_all(&fx->release);
	settle();
	KUNIT_EXPECT_EQ(test, fx->nrecs, 1U);
	KUNIT_EXPECT_EQ(test, iwcm_test.ids_alive(), alive);
}

/*
 * Requests the driver handed over queue behind one in the handler when
 * the listener is destroyed: they are not delivered, and each still
 * gets its answer at the driver, a reject.
 */
static void iwcm_destroy_rejects_queued_requests(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct iw_cm_id *id = listening(fx);
	struct task_struct *t;
	unsigned int rejects;

	fx->ret_on[IW_CM_EVENT_CONNECT_REQUEST] = 1;	/* refuse the first */
	fx->block_type = IW_CM_EVENT_CONNECT_REQUEST;
	rejects = fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT);
	queue_requests(fx, id, 4);
	t = kthread_create(destroy_thread, id, "iwcm_kunit");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	get_task_struct(t);
	wake_up_process(t);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, put_task, t), 0);
	KUNIT_ASSERT_TRUE_MSG(test, destroy_sleeps(t, id),
			      "the destroy does not wait for the handler");
	KUNIT_EXPECT_EQ(test, fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT),
			rejects);
	complete_all(&fx->release);
	wait_event_timeout(fx->wq, fx->ret_on[0] == 1,
			   msecs_to_jiffies(WAIT_MS));
	KUNIT_ASSERT_EQ(test, fx->ret_on[0], 1);
	/* Only the first reached the consumer; all four were rejected. */
	KUNIT_EXPECT_EQ(test, fx->nrecs, 1U);
	KUNIT_EXPECT_PTR_EQ(test, fx->recs[0].provider_data, (void *)1);
	KUNIT_EXPECT_EQ(test, fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT),
			rejects + 4);
	settle();
	KUNIT_EXPECT_EQ(test, iwcm_test.ids_alive(), fx->alive);
}

/*
 * The fake's iw_destroy_listen, wrapped: the driver reports a request
 * as the listener's destroy reaches it.  iw_cm has set DROP_EVENTS
 * already; the driver still holds its reference on the listener and
 * reports under its own lock until it stopped listening (as siw does).
 */
static int destroy_listen_racing(struct iw_cm_id *cm_id)
{
	struct iwcm_fx *fx = cm_id->context;
	struct iw_cm_event ev = {
		.event = IW_CM_EVENT_CONNECT_REQUEST,
		.provider_data = (void *)0x51,
		.local_addr = cm_id->m_local_addr,
		.remote_addr = *A("192.0.2.9", "7000"),
	};

	fx->race_ret = fake_hca_iw_event(cm_id, &ev);
	return fx->destroy_listen(cm_id);
}

/*
 * A request the driver reports while the listener is being destroyed
 * (issue 25, defect 4): it never reaches the consumer, and it is
 * rejected at the driver before the destroy returns, so that the driver
 * lets go of its connection (siw: the endpoint and its reference).
 */
static void iwcm_request_during_destroy_rejected(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct fake_hca_iw_call *call = new_call(test);
	struct iw_cm_id *id = listening(fx);
	unsigned int rejects;

	rejects = fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT);
	fx->race_ret = -1;
	fx->destroy_listen = fx->hca->ibdev.ops.iw_destroy_listen;
	fx->hca->ibdev.ops.iw_destroy_listen = destroy_listen_racing;
	destroy(fx, id);
	fx->hca->ibdev.ops.iw_destroy_listen = fx->destroy_listen;
	KUNIT_EXPECT_EQ(test, fx->race_ret, 0);
	KUNIT_EXPECT_EQ(test, fx->nrecs, 0U);
	KUNIT_EXPECT_EQ_MSG(test,
			    fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT),
			    rejects + 1,
			    "the request was dropped without a reject");
	KUNIT_ASSERT_TRUE(test, fake_hca_iw_last(fx->hca, FAKE_HCA_IW_REJECT,
						 call));
	KUNIT_EXPECT_PTR_EQ(test, call->provider_data, (void *)0x51);
	settle();
	KUNIT_EXPECT_EQ(test, fx->nrecs, 0U);
	KUNIT_EXPECT_EQ(test, fake_hca_iw_held(fx->hca, NULL), 0U);
	KUNIT_EXPECT_EQ(test, iwcm_test.ids_alive(), fx->alive);
}

#ifdef CONFIG_FAILSLAB
/*
 * No id can be made for a request (issue 25, defect 4): the request is
 * rejected at the driver all the same.  The first request's handler
 * makes the next allocation of its delivery work fail: the new id of the
 * second request, queued behind it.
 */
static void iwcm_request_id_alloc_fails_rejected(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct fake_hca_iw_call *call = new_call(test);
	struct iw_cm_id *id = listening(fx);
	unsigned int rejects;

	fake_hca_kunit_failslab(test);
	rejects = fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT);
	fx->block_type = IW_CM_EVENT_CONNECT_REQUEST;
	queue_requests(fx, id, 2);
	fx->arm_nth = 1;
	complete_all(&fx->release);
	wait_recs(fx, 1);
	settle();
	KUNIT_EXPECT_EQ(test, fx->arm_nth, 0U);
	/* the first is the consumer's; the second never reached it */
	KUNIT_EXPECT_EQ(test, fx->nrecs, 1U);
	KUNIT_EXPECT_PTR_EQ(test, fx->recs[0].provider_data, (void *)1);
	KUNIT_EXPECT_EQ_MSG(test,
			    fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT),
			    rejects + 1,
			    "the request was dropped without a reject");
	KUNIT_ASSERT_TRUE(test, fake_hca_iw_last(fx->hca, FAKE_HCA_IW_REJECT,
						 call));
	KUNIT_EXPECT_PTR_EQ(test, call->provider_data, (void *)2);
	KUNIT_EXPECT_PTR_NE(test, call->cm_id, fx->recs[0].id);
	/* the listener and the first request's id */
	KUNIT_EXPECT_EQ(test, iwcm_test.ids_alive(), fx->alive + 2);
	/* the listener goes on */
	fx->block_type = -1;
	request(fx, id, (void *)3);
}
#endif

struct storm {
	struct iw_cm_id *id;
	atomic_t stop;
	atomic_t sent;
	struct completion done;
};

static int storm_thread(void *data)
{
	struct storm *st = data;
	unsigned long i = 0;

	while (!atomic_read(&st->stop)) {
		struct iw_cm_event ev = {
			.event = IW_CM_EVENT_CONNECT_REQUEST,
		};

		ev.provider_data = (void *)(++i);
		if (!fake_hca_iw_event(st->id, &ev))
			atomic_inc(&st->sent);
		if (!(i % 8))
			cond_resched();
	}
	complete(&st->done);
	return 0;
}

/* Requests keep coming while the listener is destroyed. */
static void iwcm_destroy_races_events(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct task_struct *t;
	struct storm *st;
	unsigned int n;
	int round;

	st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, st);
	fx->ret_on[IW_CM_EVENT_CONNECT_REQUEST] = 1;
	for (round = 0; round < 4; round++) {
		st->id = listening(fx);
		/* A driver reporting holds a reference, as the fake's own. */
		st->id->add_ref(st->id);
		atomic_set(&st->stop, 0);
		init_completion(&st->done);
		t = kthread_run(storm_thread, st, "iwcm_storm");
		KUNIT_ASSERT_FALSE(test, IS_ERR(t));
		usleep_range(2000 * (round + 1), 3000 * (round + 1));
		destroy(fx, st->id);
		n = READ_ONCE(fx->nrecs);
		settle();
		/* Nothing reaches the consumer after destroy returned. */
		KUNIT_EXPECT_EQ(test, READ_ONCE(fx->nrecs), n);
		atomic_set(&st->stop, 1);
		KUNIT_ASSERT_TRUE(test, waited(&st->done));
		KUNIT_EXPECT_GT(test, iwcm_test.ids_alive(), fx->alive);
		st->id->rem_ref(st->id);
		settle();
		KUNIT_EXPECT_EQ(test, READ_ONCE(fx->nrecs), n);
		KUNIT_EXPECT_EQ(test, fake_hca_iw_held(fx->hca, NULL), 0U);
		KUNIT_EXPECT_EQ(test, iwcm_test.ids_alive(), fx->alive);
		fx->nrecs = 0;
	}
}

/* A CLOSE gets through however many events wait before it. */
static void iwcm_close_never_lost(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct iw_cm_id *id = conn_sent(fx);
	int i;

	fx->block_type = IW_CM_EVENT_CONNECT_REPLY;
	KUNIT_ASSERT_EQ(test, inject(id, IW_CM_EVENT_CONNECT_REPLY, 0), 0);
	KUNIT_ASSERT_TRUE(test, waited(&fx->entered));
	/* Past the items kept ready: the rest are allocated. */
	for (i = 0; i < 3 * IWCM_ACTIVE_WORKS; i++)
		KUNIT_EXPECT_EQ(test, inject(id, IW_CM_EVENT_DISCONNECT, 0), 0);
	KUNIT_EXPECT_EQ(test, inject(id, IW_CM_EVENT_CLOSE, 0), 0);
	complete_all(&fx->release);
	KUNIT_EXPECT_EQ(test, wait_recs(fx, 2)->event, IW_CM_EVENT_CLOSE);
	settle();
	KUNIT_EXPECT_EQ(test, fx->recs[0].event, IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(id), IW_CM_STATE_IDLE);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN), 0);
}

#ifdef CONFIG_FAILSLAB
/*
 * Allocation failures (failslab, fail-nth): each allocation of a call
 * fails in turn; the call fails with -ENOMEM and leaves nothing behind.
 */
static void iwcm_alloc_failures(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct iw_cm_conn_param p = { .qpn = QPN };
	unsigned int nth, left, failed = 0;
	struct iw_cm_id *id;
	int ret, i;

	fake_hca_kunit_failslab(test);
	for (nth = 1; nth < 20; nth++) {
		current->fail_nth = nth;
		id = iw_create_cm_id(&fx->hca->ibdev, handler, fx);
		left = current->fail_nth;
		current->fail_nth = 0;
		/*
		 * Success: every allocation of the call was reached (the
		 * counter may still be used up by one that fails silently,
		 * kmemleak's own bookkeeping).
		 */
		if (!IS_ERR(id)) {
			iw_destroy_cm_id(id);
			break;
		}
		failed++;
		KUNIT_EXPECT_EQ(test, left, 0U);
		KUNIT_EXPECT_EQ(test, PTR_ERR(id), -ENOMEM);
		KUNIT_EXPECT_EQ(test, iwcm_test.ids_alive(), fx->alive);
	}
	KUNIT_EXPECT_GT(test, failed, 0U);

	/* listen and connect: IDLE again, nothing held, nothing bound. */
	for (i = 0; i < 2; i++) {
		id = new_id(fx);
		for (nth = 1; nth < 20; nth++) {
			current->fail_nth = nth;
			ret = i ? iw_cm_connect(id, &p) : iw_cm_listen(id, 4);
			left = current->fail_nth;
			current->fail_nth = 0;
			if (!ret)
				break;
			KUNIT_EXPECT_EQ(test, ret, -ENOMEM);
			KUNIT_EXPECT_EQ(test, left, 0U);
			KUNIT_EXPECT_EQ(test, iwcm_test.id_state(id), IW_CM_STATE_IDLE);
			KUNIT_EXPECT_EQ(test, fake_hca_iw_held(fx->hca, id), 0U);
			KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN), 0);
		}
		KUNIT_EXPECT_EQ(test, ret, 0);
		KUNIT_EXPECT_GT(test, nth, 1U);
	}

	/*
	 * Events past the ready items need an atomic allocation: that one
	 * may fail, a CLOSE never does.
	 */
	fx->block_type = IW_CM_EVENT_CONNECT_REPLY;
	KUNIT_ASSERT_EQ(test, inject(id, IW_CM_EVENT_CONNECT_REPLY, 0), 0);
	KUNIT_ASSERT_TRUE(test, waited(&fx->entered));
	for (i = 1; i < IWCM_ACTIVE_WORKS; i++)
		KUNIT_EXPECT_EQ(test, inject(id, IW_CM_EVENT_DISCONNECT, 0), 0);
	current->fail_nth = 1;
	ret = inject(id, IW_CM_EVENT_DISCONNECT, 0);
	current->fail_nth = 0;
	KUNIT_EXPECT_EQ(test, ret, -ENOMEM);
	current->fail_nth = 1;
	ret = inject(id, IW_CM_EVENT_CLOSE, 0);
	left = current->fail_nth;
	current->fail_nth = 0;
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, left, 1U);	/* it allocated nothing */
	complete_all(&fx->release);
	KUNIT_EXPECT_EQ(test, wait_recs(fx, 2)->event, IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN), 0);
}
#endif

/* ------------------------------------------------------------------
 * Device removal: the consumer destroys its ids from its client's
 * remove callback, as rdma_cm does.
 */

static struct iwcm_fx *unreg_fx;

static int unreg_add(struct ib_device *dev)
{
	return 0;
}

static void unreg_remove(struct ib_device *dev, void *data)
{
	struct iwcm_fx *fx = unreg_fx;
	struct iw_cm_id *id;

	if (!fx || dev != &fx->hca->ibdev)
		return;
	for (;;) {
		spin_lock_irq(&fx->lock);
		id = fx->nids ? fx->ids[fx->nids - 1] : NULL;
		spin_unlock_irq(&fx->lock);
		if (!id)
			break;
		destroy(fx, id);
	}
}

static struct ib_client unreg_client = {
	.name = "iwcm_kunit",
	.add = unreg_add,
	.remove = unreg_remove,
};

static void iwcm_device_unregister(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	int s;

	for (s = 0; s < S_COUNT; s++)
		in_state(fx, s);
	KUNIT_ASSERT_GT(test, fx->nids, (unsigned int)S_COUNT);
	unreg_fx = fx;
	KUNIT_ASSERT_EQ(test, ib_register_client(&unreg_client), 0);
	fake_hca_unregister(fx->hca);
	ib_unregister_client(&unreg_client);
	unreg_fx = NULL;
	settle();
	KUNIT_EXPECT_EQ(test, fx->nids, 0U);
	KUNIT_EXPECT_EQ(test, qp_refs(fx, QPN), 0);
	/* The three listeners (LISTEN, CONN_RECV's, the accepted one's). */
	KUNIT_EXPECT_EQ(test, fake_hca_iw_calls(fx->hca,
						FAKE_HCA_IW_DESTROY_LISTEN),
			3U);
	fake_hca_kunit_destroy(test, fx->hca);
	KUNIT_EXPECT_EQ(test, iwcm_test.ids_alive(), fx->alive);
}

/* ------------------------------------------------------------------
 * Port mapping with a fake iwpmd
 */

static void pm_start(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct sockaddr_nl a = { .nl_family = AF_NETLINK };

	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_NETLINK, SOCK_RAW,
					       NETLINK_RDMA, &fx->pm_sock), 0);
	KUNIT_ASSERT_EQ(test, kernel_bind(fx->pm_sock, (struct sockaddr *)&a,
					  sizeof(a)), 0);
	KUNIT_ASSERT_GE(test, kernel_getsockname(fx->pm_sock,
						 (struct sockaddr *)&a), 0);
	fx->pm_portid = a.nl_pid;
	iwpm_test.set_user_pid(fx->pm_portid);
	*iwpm_test.ulib_version = 4;
	iwpm_test.set_registration(CLIENT, IWPM_REG_VALID);
}

/* Next message to iwpmd: its type (op) and attributes. */
static int pm_recv(struct kunit *test, void *buf, struct nlattr **tb,
		   int maxtype, int ms)
{
	struct iwcm_fx *fx = test->priv;
	struct msghdr msg = {};
	struct nlmsghdr *nlh = buf;
	struct kvec vec;
	int ret;

	do {
		vec.iov_base = buf;
		vec.iov_len = 2048;
		ret = kernel_recvmsg(fx->pm_sock, &msg, &vec, 1, 2048,
				     MSG_DONTWAIT);
		if (ret != -EAGAIN)
			break;
		usleep_range(2000, 3000);
		ms -= 2;
	} while (ms > 0);
	if (ret <= 0)
		return ret ?: -EIO;
	KUNIT_ASSERT_TRUE(test, nlmsg_ok(nlh, ret));
	KUNIT_ASSERT_EQ(test, nlmsg_parse_deprecated(nlh, 0, tb, maxtype,
						     NULL, NULL), 0);
	return RDMA_NL_GET_OP(nlh->nlmsg_type);
}

/* Hand an answer to the client's handler as iwpmd's socket. */
static int pm_answer(struct kunit *test, int (*fn)(struct sk_buff *,
						   struct netlink_callback *),
		     struct sk_buff *skb)
{
	struct iwcm_fx *fx = test->priv;
	struct netlink_ext_ack extack = {};
	struct netlink_callback cb = {};
	struct sk_buff *out = alloc_skb(NLMSG_GOODSIZE, GFP_KERNEL);
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, out);
	NETLINK_CB(skb).portid = fx->pm_portid;
	cb.skb = skb;
	cb.nlh = nlmsg_hdr(skb);
	cb.extack = &extack;
	ret = fn(out, &cb);
	kfree_skb(out);
	kfree_skb(skb);
	return ret;
}

static struct sk_buff *pm_msg(struct kunit *test, u8 op, struct nlmsghdr **nlh)
{
	struct sk_buff *skb = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	*nlh = nlmsg_put(skb, 0, 1, RDMA_NL_GET_TYPE(CLIENT, op), 0, 0);
	KUNIT_ASSERT_NOT_NULL(test, *nlh);
	return skb;
}

static void put_ss(struct kunit *test, struct sk_buff *skb, int type,
		   struct sockaddr_storage ss)
{
	KUNIT_ASSERT_EQ(test, nla_put(skb, type, sizeof(ss), &ss), 0);
}

struct call {
	struct iw_cm_id *id;
	bool connect;
	int ret;
	struct completion done;
};

static int call_thread(void *data)
{
	struct call *c = data;
	struct iw_cm_conn_param p = { .qpn = QPN };

	c->ret = c->connect ? iw_cm_connect(c->id, &p) : iw_cm_listen(c->id, 4);
	complete(&c->done);
	return 0;
}

static struct call *call_start(struct kunit *test, struct iw_cm_id *id,
			       bool connect)
{
	struct call *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct task_struct *t;

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->id = id;
	c->connect = connect;
	init_completion(&c->done);
	t = kthread_run(call_thread, c, "iwcm_call");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	return c;
}

static int call_end(struct kunit *test, struct call *c)
{
	KUNIT_ASSERT_TRUE(test, waited(&c->done));
	return c->ret;
}

/* Listen maps the address; destroy removes the mapping. */
static void iwcm_map_listen(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct sockaddr_storage mapped = *A("192.0.2.1", "40100");
	struct nlattr *tb[IWPM_NLA_MANAGE_MAPPING_MAX];
	struct fake_hca_iw_call *fcall = new_call(test);
	struct sockaddr_storage *local = A("0.0.0.0", "0");
	unsigned int maps = iwpm_test.mapinfo_count();
	struct nlmsghdr *nlh;
	struct sk_buff *skb;
	struct call *c;
	struct iw_cm_id *id;
	void *buf = kunit_kzalloc(test, 2048, GFP_KERNEL);
	u32 seq;
	int flags_on;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	pm_start(test);
	for (flags_on = 0; flags_on < 2; flags_on++) {
		fx->hca->ibdev.iw_driver_flags = flags_on ? IW_F_NO_PORT_MAP : 0;
		id = new_id(fx);
		c = call_start(test, id, false);
		KUNIT_ASSERT_EQ(test, pm_recv(test, buf, tb,
					      IWPM_NLA_MANAGE_MAPPING_MAX - 1,
					      WAIT_MS),
				RDMA_NL_IWPM_ADD_MAPPING);
		KUNIT_ASSERT_NOT_NULL(test, tb[IWPM_NLA_MANAGE_ADDR]);
		KUNIT_ASSERT_NOT_NULL(test, tb[IWPM_NLA_MANAGE_FLAGS]);
		KUNIT_EXPECT_TRUE(test, addr_eq(*(struct sockaddr_storage *)
						nla_data(tb[IWPM_NLA_MANAGE_ADDR]),
						id->local_addr));
		KUNIT_EXPECT_EQ(test, nla_get_u32(tb[IWPM_NLA_MANAGE_FLAGS]),
				flags_on ? (u32)IWPM_FLAGS_NO_PORT_MAP : 0U);
		seq = ((struct nlmsghdr *)buf)->nlmsg_seq;
		skb = pm_msg(test, RDMA_NL_IWPM_ADD_MAPPING, &nlh);
		KUNIT_ASSERT_EQ(test, nla_put_u32(skb, IWPM_NLA_RMANAGE_MAPPING_SEQ,
						  seq), 0);
		put_ss(test, skb, IWPM_NLA_RMANAGE_ADDR, id->local_addr);
		put_ss(test, skb, IWPM_NLA_RMANAGE_MAPPED_LOC_ADDR,
		       flags_on ? id->local_addr : mapped);
		KUNIT_ASSERT_EQ(test, nla_put_u16(skb, IWPM_NLA_RMANAGE_MAPPING_ERR,
						  0), 0);
		nlmsg_end(skb, nlh);
		KUNIT_EXPECT_EQ(test, pm_answer(test, iwpm_test.add_mapping_cb, skb), 0);
		KUNIT_ASSERT_EQ(test, call_end(test, c), 0);
		KUNIT_EXPECT_TRUE(test, id->mapped);
		KUNIT_EXPECT_TRUE(test, same_addr(&id->m_local_addr,
						  flags_on ? &id->local_addr :
							     &mapped));
		fake_hca_iw_last(fx->hca, FAKE_HCA_IW_CREATE_LISTEN, fcall);
		KUNIT_EXPECT_TRUE(test, addr_eq(fcall->local, id->m_local_addr));
		KUNIT_EXPECT_EQ(test, iwpm_test.mapinfo_count(), maps + 1);

		*local = id->local_addr;
		destroy(fx, id);	/* id is gone */
		KUNIT_EXPECT_EQ(test, iwpm_test.mapinfo_count(), maps);
		KUNIT_ASSERT_EQ(test, pm_recv(test, buf, tb,
					      IWPM_NLA_MANAGE_MAPPING_MAX - 1,
					      WAIT_MS),
				RDMA_NL_IWPM_REMOVE_MAPPING);
		KUNIT_ASSERT_NOT_NULL(test, tb[IWPM_NLA_MANAGE_ADDR]);
		KUNIT_EXPECT_TRUE(test, same_addr(nla_data(tb[IWPM_NLA_MANAGE_ADDR]),
						  local));
	}
}

/*
 * The addresses of a connect through the port mapper: the id's, the
 * mapped ones iwpmd answers (the remote's IP the wildcard) and the
 * mapped remote that results.
 */
struct map_case {
	const char	*name;
	const char	*local, *remote, *mloc, *mrem, *want_rem;
};

static const struct map_case map_cases[] = {
	{ "ipv4", "192.0.2.1", "192.0.2.2", "192.0.2.1", "0.0.0.0",
	  "192.0.2.2" },
	{ "ipv6", "2001:db8::1", "2001:db8::2", "2001:db8::1", "::",
	  "2001:db8::2" },
};

static void map_case_desc(const struct map_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(map_case, map_cases, map_case_desc);

/*
 * Connect maps the local address and learns the remote's, the
 * messages carrying the id's addresses, IPv4 or IPv6.
 */
static void iwcm_map_connect(struct kunit *test)
{
	const struct map_case *mc = test->param_value;
	struct iwcm_fx *fx = test->priv;
	struct sockaddr_storage mloc = *A(mc->mloc, "40200");
	struct sockaddr_storage mrem = *A(mc->mrem, "40300");
	struct nlattr *tb[IWPM_NLA_QUERY_MAPPING_MAX];
	struct fake_hca_iw_call *fcall = new_call(test);
	struct nlmsghdr *nlh;
	struct sk_buff *skb;
	struct iw_cm_id *id = new_id(fx);
	void *buf = kunit_kzalloc(test, 2048, GFP_KERNEL);
	struct call *c;

	id->local_addr = *A(mc->local, "5000");
	id->remote_addr = *A(mc->remote, "6000");
	KUNIT_ASSERT_NOT_NULL(test, buf);
	pm_start(test);
	c = call_start(test, id, true);
	KUNIT_ASSERT_EQ(test, pm_recv(test, buf, tb,
				      IWPM_NLA_QUERY_MAPPING_MAX - 1, WAIT_MS),
			RDMA_NL_IWPM_QUERY_MAPPING);
	KUNIT_ASSERT_NOT_NULL(test, tb[IWPM_NLA_QUERY_LOCAL_ADDR]);
	KUNIT_ASSERT_NOT_NULL(test, tb[IWPM_NLA_QUERY_REMOTE_ADDR]);
	KUNIT_EXPECT_TRUE(test, addr_eq(*(struct sockaddr_storage *)
					nla_data(tb[IWPM_NLA_QUERY_LOCAL_ADDR]),
					id->local_addr));
	KUNIT_EXPECT_TRUE(test, addr_eq(*(struct sockaddr_storage *)
					nla_data(tb[IWPM_NLA_QUERY_REMOTE_ADDR]),
					id->remote_addr));
	skb = pm_msg(test, RDMA_NL_IWPM_QUERY_MAPPING, &nlh);
	KUNIT_ASSERT_EQ(test, nla_put_u32(skb, IWPM_NLA_RQUERY_MAPPING_SEQ,
					  ((struct nlmsghdr *)buf)->nlmsg_seq), 0);
	put_ss(test, skb, IWPM_NLA_RQUERY_LOCAL_ADDR, id->local_addr);
	put_ss(test, skb, IWPM_NLA_RQUERY_REMOTE_ADDR, id->remote_addr);
	put_ss(test, skb, IWPM_NLA_RQUERY_MAPPED_LOC_ADDR, mloc);
	put_ss(test, skb, IWPM_NLA_RQUERY_MAPPED_REM_ADDR, mrem);
	KUNIT_ASSERT_EQ(test, nla_put_u16(skb, IWPM_NLA_RQUERY_MAPPING_ERR, 0), 0);
	nlmsg_end(skb, nlh);
	KUNIT_EXPECT_EQ(test, pm_answer(test, iwpm_test.add_and_query_mapping_cb,
					skb), 0);
	KUNIT_ASSERT_EQ(test, call_end(test, c), 0);
	KUNIT_EXPECT_TRUE(test, id->mapped);
	KUNIT_EXPECT_TRUE(test, addr_eq(id->m_local_addr, mloc));
	/* A wildcard mapped remote takes the remote's real IP. */
	KUNIT_EXPECT_TRUE(test, addr_eq(id->m_remote_addr,
					*A(mc->want_rem, "40300")));
	fake_hca_iw_last(fx->hca, FAKE_HCA_IW_CONNECT, fcall);
	KUNIT_EXPECT_TRUE(test, addr_eq(fcall->local, mloc));
	KUNIT_EXPECT_TRUE(test, addr_eq(fcall->remote, id->m_remote_addr));
}

/* No iwpmd: unmapped addresses, nothing sent, nothing waited for. */
static void iwcm_map_no_iwpmd(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct iw_cm_id *id = new_id(fx);
	unsigned long start = jiffies;

	iwpm_test.set_user_pid(IWPM_PID_UNDEFINED);
	iwpm_test.set_registration(CLIENT, IWPM_REG_UNDEF);
	/* Nobody in the port-mapper group: REG_PID fails at once. */
	KUNIT_EXPECT_EQ(test, iw_cm_listen(id, 2), 0);
	KUNIT_EXPECT_LT(test, jiffies - start, msecs_to_jiffies(2000));
	KUNIT_EXPECT_FALSE(test, id->mapped);
	KUNIT_EXPECT_TRUE(test, addr_eq(id->m_local_addr, id->local_addr));
	id = new_id(fx);
	KUNIT_EXPECT_EQ(test, iw_cm_connect(id, &(struct iw_cm_conn_param){
						.qpn = QPN }), 0);
	KUNIT_EXPECT_FALSE(test, id->mapped);
	KUNIT_EXPECT_TRUE(test, addr_eq(id->m_remote_addr, id->remote_addr));
}

/* iwpmd dies while a listen waits for it: unmapped, listening. */
static void iwcm_map_iwpmd_dies(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct nlattr *tb[IWPM_NLA_MANAGE_MAPPING_MAX];
	struct iw_cm_id *id = new_id(fx);
	void *buf = kunit_kzalloc(test, 2048, GFP_KERNEL);
	struct call *c;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	pm_start(test);
	*iwpm_test.timeout_ms = 60000;
	c = call_start(test, id, false);
	KUNIT_ASSERT_EQ(test, pm_recv(test, buf, tb,
				      IWPM_NLA_MANAGE_MAPPING_MAX - 1, WAIT_MS),
			RDMA_NL_IWPM_ADD_MAPPING);
	sock_release(fx->pm_sock);
	fx->pm_sock = NULL;
	KUNIT_EXPECT_EQ(test, call_end(test, c), 0);
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(id), IW_CM_STATE_LISTEN);
	KUNIT_EXPECT_TRUE(test, addr_eq(id->m_local_addr, id->local_addr));
	KUNIT_EXPECT_FALSE(test, iwpm_valid_pid());
}

/* A request iwpmd leaves unanswered: the mapping it may hold goes. */
static void iwcm_map_timeout_cleanup(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct nlattr *tb[IWPM_NLA_QUERY_MAPPING_MAX];
	int removed = atomic_read(&iwpm_test.stats->timed_out_removed);
	struct iw_cm_id *id = new_id(fx);
	void *buf = kunit_kzalloc(test, 2048, GFP_KERNEL);
	struct call *c;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	pm_start(test);
	*iwpm_test.timeout_ms = 100;
	c = call_start(test, id, true);
	KUNIT_ASSERT_EQ(test, pm_recv(test, buf, tb,
				      IWPM_NLA_QUERY_MAPPING_MAX - 1, WAIT_MS),
			RDMA_NL_IWPM_QUERY_MAPPING);
	KUNIT_EXPECT_EQ(test, call_end(test, c), 0);
	KUNIT_EXPECT_EQ(test, iwcm_test.id_state(id), IW_CM_STATE_CONN_SENT);
	KUNIT_EXPECT_TRUE(test, addr_eq(id->m_local_addr, id->local_addr));
	KUNIT_EXPECT_TRUE(test, addr_eq(id->m_remote_addr, id->remote_addr));
	/* The timed-out request's mapping is removed at once. */
	KUNIT_ASSERT_EQ(test, pm_recv(test, buf, tb,
				      IWPM_NLA_MANAGE_MAPPING_MAX - 1, WAIT_MS),
			RDMA_NL_IWPM_REMOVE_MAPPING);
	KUNIT_ASSERT_NOT_NULL(test, tb[IWPM_NLA_MANAGE_ADDR]);
	KUNIT_EXPECT_TRUE(test, addr_eq(*(struct sockaddr_storage *)
					nla_data(tb[IWPM_NLA_MANAGE_ADDR]),
					id->local_addr));
	KUNIT_EXPECT_EQ(test, atomic_read(&iwpm_test.stats->timed_out_removed),
			removed + 1);
	KUNIT_EXPECT_EQ(test, iwpm_test.pending_nlmsg_requests(), 0U);
}

/* A mapped listener learns a peer's real address from REMOTE_INFO. */
static void iwcm_map_remote_info(struct kunit *test)
{
	struct iwcm_fx *fx = test->priv;
	struct sockaddr_storage *mloc = A("0.0.0.0", "40400");
	struct sockaddr_storage *mrem = A("198.51.100.7", "40500");
	struct sockaddr_storage *real = A("198.51.100.7", "7000");
	struct nlattr *tb[IWPM_NLA_MANAGE_MAPPING_MAX];
	struct iw_cm_event ev = {
		.event = IW_CM_EVENT_CONNECT_REQUEST,
		.local_addr = *A("192.0.2.1", "40400"),
		.remote_addr = *mrem,
	};
	struct iw_cm_id *id = new_id(fx);
	void *buf = kunit_kzalloc(test, 2048, GFP_KERNEL);
	struct nlmsghdr *nlh;
	struct sk_buff *skb;
	struct call *c;
	struct rec *r;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	id->local_addr = *A("0.0.0.0", "5000");
	pm_start(test);
	c = call_start(test, id, false);
	KUNIT_ASSERT_EQ(test, pm_recv(test, buf, tb,
				      IWPM_NLA_MANAGE_MAPPING_MAX - 1, WAIT_MS),
			RDMA_NL_IWPM_ADD_MAPPING);
	skb = pm_msg(test, RDMA_NL_IWPM_ADD_MAPPING, &nlh);
	KUNIT_ASSERT_EQ(test, nla_put_u32(skb, IWPM_NLA_RMANAGE_MAPPING_SEQ,
					  ((struct nlmsghdr *)buf)->nlmsg_seq), 0);
	put_ss(test, skb, IWPM_NLA_RMANAGE_ADDR, id->local_addr);
	put_ss(test, skb, IWPM_NLA_RMANAGE_MAPPED_LOC_ADDR, *mloc);
	KUNIT_ASSERT_EQ(test, nla_put_u16(skb, IWPM_NLA_RMANAGE_MAPPING_ERR, 0), 0);
	nlmsg_end(skb, nlh);
	KUNIT_EXPECT_EQ(test, pm_answer(test, iwpm_test.add_mapping_cb, skb), 0);
	KUNIT_ASSERT_EQ(test, call_end(test, c), 0);

	/* iwpmd tells who is behind the mapped remote address. */
	skb = pm_msg(test, RDMA_NL_IWPM_REMOTE_INFO, &nlh);
	KUNIT_ASSERT_EQ(test, nla_put_u32(skb, IWPM_NLA_RQUERY_MAPPING_SEQ, 1), 0);
	put_ss(test, skb, IWPM_NLA_RQUERY_LOCAL_ADDR, id->local_addr);
	put_ss(test, skb, IWPM_NLA_RQUERY_REMOTE_ADDR, *real);
	put_ss(test, skb, IWPM_NLA_RQUERY_MAPPED_LOC_ADDR, *mloc);
	put_ss(test, skb, IWPM_NLA_RQUERY_MAPPED_REM_ADDR, *mrem);
	KUNIT_ASSERT_EQ(test, nla_put_u16(skb, IWPM_NLA_RQUERY_MAPPING_ERR, 0), 0);
	nlmsg_end(skb, nlh);
	KUNIT_EXPECT_EQ(test, pm_answer(test, iwpm_test.remote_info_cb, skb), 0);

	KUNIT_ASSERT_EQ(test, fake_hca_iw_event(id, &ev), 0);
	r = wait_recs(fx, 1);
	KUNIT_EXPECT_TRUE(test, addr_eq(r->remote, *real));
	KUNIT_EXPECT_TRUE(test, addr_eq(r->id->remote_addr, *real));
	KUNIT_EXPECT_TRUE(test, addr_eq(r->id->m_remote_addr, *mrem));
	/* The wildcard listener: the connection's own local IP. */
	KUNIT_EXPECT_TRUE(test, addr_eq(r->id->local_addr,
					*A("192.0.2.1", "5000")));
	KUNIT_EXPECT_TRUE(test, addr_eq(r->local, *A("192.0.2.1", "5000")));
	KUNIT_EXPECT_EQ(test, iwpm_test.reminfo_count(), 0U);
}

static struct kunit_case iwcm_cases[] = {
	KUNIT_CASE(iwcm_create_destroy),
	KUNIT_CASE(iwcm_reject_msg_text),
	KUNIT_CASE(iwcm_calls_refused_per_state),
	KUNIT_CASE(iwcm_events_per_state),
	KUNIT_CASE(iwcm_events_invalid),
	KUNIT_CASE(iwcm_events_in_order),
	KUNIT_CASE(iwcm_request_contents),
	KUNIT_CASE(iwcm_reply_private_data_copied),
	KUNIT_CASE(iwcm_connect_params),
	KUNIT_CASE(iwcm_connect_failures),
	KUNIT_CASE(iwcm_accept_params),
	KUNIT_CASE(iwcm_reject_private_data),
	KUNIT_CASE(iwcm_listen_backlog),
	KUNIT_CASE(iwcm_disconnect_graceful_abrupt),
	KUNIT_CASE(iwcm_disconnect_waits_for_reply),
	KUNIT_CASE(iwcm_init_qp_attr_states),
	KUNIT_CASE(iwcm_destroy_each_state),
	KUNIT_CASE(iwcm_handler_nonzero_destroys),
	KUNIT_CASE(iwcm_destroy_waits_for_handler),
	KUNIT_CASE(iwcm_destroy_rejects_queued_requests),
	KUNIT_CASE(iwcm_request_id_destroyed_in_handler),
	KUNIT_CASE(iwcm_request_during_destroy_rejected),
#ifdef CONFIG_FAILSLAB
	KUNIT_CASE(iwcm_request_id_alloc_fails_rejected),
#endif
	KUNIT_CASE(iwcm_destroy_races_events),
	KUNIT_CASE(iwcm_close_never_lost),
#ifdef CONFIG_FAILSLAB
	KUNIT_CASE(iwcm_alloc_failures),
#endif
	KUNIT_CASE(iwcm_device_unregister),
	KUNIT_CASE(iwcm_map_listen),
	KUNIT_CASE_PARAM(iwcm_map_connect, map_case_gen_params),
	KUNIT_CASE(iwcm_map_no_iwpmd),
	KUNIT_CASE(iwcm_map_iwpmd_dies),
	KUNIT_CASE(iwcm_map_timeout_cleanup),
	KUNIT_CASE(iwcm_map_remote_info),
	{}
};

static struct kunit_suite iwcm_suite = {
	.name = "rdma_iwcm",
	.init = iwcm_test_init,
	.exit = iwcm_test_exit,
	.test_cases = iwcm_cases,
};

kunit_test_suite(iwcm_suite);

MODULE_DESCRIPTION("KUnit tests of the iWARP connection manager");
MODULE_LICENSE("Dual BSD/GPL");
