// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_event": asynchronous events (core/ib_core/event.c) -
 * registration of handlers, delivery to the right device's handlers in
 * order, and the event names.
 */

#include <kunit/test.h>
#include <kunit/rdma_fake_hca.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>

#include "../core_priv.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define WAIT_MS	20000

static struct fake_hca *new_registered(struct kunit *test, const char *name)
{
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 2);
	struct fake_hca *hca;

	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = name;
	hca = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hca);
	return hca;
}

static void expect_event(struct kunit *test, struct fake_hca_event_log *log,
			 unsigned int i, struct ib_device *dev,
			 enum ib_event_type type, u32 port)
{
	KUNIT_ASSERT_LT(test, i, FAKE_HCA_EVENT_LOG_LEN);
	KUNIT_EXPECT_PTR_EQ(test, log->events[i].device, dev);
	KUNIT_EXPECT_EQ(test, log->events[i].event, type);
	KUNIT_EXPECT_EQ(test, log->events[i].element.port_num, port);
}

static void rdma_event_own_device_only(struct kunit *test)
{
	struct fake_hca *a = new_registered(test, "kuev_a");
	struct fake_hca *b = new_registered(test, "kuev_b");
	struct fake_hca_event_log *log_a, *log_b;

	log_a = fake_hca_kunit_event_log(test, &a->ibdev);
	log_b = fake_hca_kunit_event_log(test, &b->ibdev);
	KUNIT_ASSERT_NOT_NULL(test, log_a);
	KUNIT_ASSERT_NOT_NULL(test, log_b);

	fake_hca_dispatch_port_event(b, 2, IB_EVENT_SM_CHANGE);
	fake_hca_dispatch_port_event(a, 1, IB_EVENT_CLIENT_REREGISTER);
	KUNIT_ASSERT_TRUE(test, fake_hca_event_wait(log_a, 1, WAIT_MS));
	KUNIT_ASSERT_TRUE(test, fake_hca_event_wait(log_b, 1, WAIT_MS));
	ib_event_flush(&a->ibdev);

	KUNIT_EXPECT_EQ(test, fake_hca_event_count(log_a), 1);
	KUNIT_EXPECT_EQ(test, fake_hca_event_count(log_b), 1);
	expect_event(test, log_a, 0, &a->ibdev, IB_EVENT_CLIENT_REREGISTER, 1);
	expect_event(test, log_b, 0, &b->ibdev, IB_EVENT_SM_CHANGE, 2);
}

/* Two handlers on one device, logging into one shared sequence. */
struct seq_handler {
	struct ib_event_handler	handler;
	int			id;
};

static struct {
	spinlock_t		lock;	/* the sequence */
	unsigned int		n;
	int			who[16];
	enum ib_event_type	what[16];
} seq;

static void seq_handler_fn(struct ib_event_handler *handler,
			   struct ib_event *event)
{
	struct seq_handler *sh = container_of(handler, struct seq_handler,
					      handler);
	unsigned long flags;

	spin_lock_irqsave(&seq.lock, flags);
	if (seq.n < ARRAY_SIZE(seq.who)) {
		seq.who[seq.n] = sh->id;
		seq.what[seq.n] = event->event;
	}
	seq.n++;
	spin_unlock_irqrestore(&seq.lock, flags);
}

KUNIT_DEFINE_ACTION_WRAPPER(unregister_handler_action,
			    ib_unregister_event_handler,
			    struct ib_event_handler *);

static void rdma_event_handlers_in_order(struct kunit *test)
{
	static const enum ib_event_type types[] = {
		IB_EVENT_PORT_ERR, IB_EVENT_SM_CHANGE, IB_EVENT_CLIENT_REREGISTER,
		IB_EVENT_DEVICE_FATAL,
	};
	struct fake_hca *hca = new_registered(test, "kuev_ord");
	struct fake_hca_event_log *last;
	struct seq_handler *sh;
	unsigned int i;

	spin_lock_init(&seq.lock);
	seq.n = 0;
	sh = kunit_kcalloc(test, 2, sizeof(*sh), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sh);
	for (i = 0; i < 2; i++) {
		sh[i].id = i;
		INIT_IB_EVENT_HANDLER(&sh[i].handler, &hca->ibdev,
				      seq_handler_fn);
		ib_register_event_handler(&sh[i].handler);
		fake_hca_kunit_add_action(test, unregister_handler_action,
					  &sh[i].handler);
	}
	/* Registered last, so called last: the events are all in when it is. */
	last = fake_hca_kunit_event_log(test, &hca->ibdev);
	KUNIT_ASSERT_NOT_NULL(test, last);

	for (i = 0; i < ARRAY_SIZE(types); i++)
		fake_hca_dispatch_port_event(hca, 1, types[i]);
	KUNIT_ASSERT_TRUE(test, fake_hca_event_wait(last, ARRAY_SIZE(types),
						    WAIT_MS));

	/* Every event to every handler, in dispatch then registration order. */
	KUNIT_ASSERT_EQ(test, seq.n, 2 * ARRAY_SIZE(types));
	for (i = 0; i < 2 * ARRAY_SIZE(types); i++) {
		KUNIT_EXPECT_EQ_MSG(test, seq.who[i], i % 2, "call %u", i);
		KUNIT_EXPECT_EQ_MSG(test, seq.what[i], types[i / 2], "call %u", i);
	}
	for (i = 0; i < ARRAY_SIZE(types); i++)
		expect_event(test, last, i, &hca->ibdev, types[i], 1);
}

static void rdma_event_unregistered_handler(struct kunit *test)
{
	struct fake_hca *hca = new_registered(test, "kuev_unr");
	struct fake_hca_event_log *gone, *stays;

	gone = fake_hca_kunit_event_log(test, &hca->ibdev);
	stays = fake_hca_kunit_event_log(test, &hca->ibdev);
	KUNIT_ASSERT_NOT_NULL(test, gone);
	KUNIT_ASSERT_NOT_NULL(test, stays);

	fake_hca_dispatch_port_event(hca, 1, IB_EVENT_SM_CHANGE);
	KUNIT_ASSERT_TRUE(test, fake_hca_event_wait(stays, 1, WAIT_MS));
	KUNIT_ASSERT_TRUE(test, fake_hca_event_wait(gone, 1, WAIT_MS));

	fake_hca_kunit_event_log_release(test, gone);
	fake_hca_dispatch_port_event(hca, 1, IB_EVENT_SM_CHANGE);
	KUNIT_ASSERT_TRUE(test, fake_hca_event_wait(stays, 2, WAIT_MS));
	ib_event_flush(&hca->ibdev);
	KUNIT_EXPECT_EQ(test, fake_hca_event_count(gone), 1);
	KUNIT_EXPECT_EQ(test, fake_hca_event_count(stays), 2);
}

static void rdma_event_unregistered_device(struct kunit *test)
{
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 1);
	struct fake_hca_event_log *log, *witness;
	struct fake_hca *hca, *other;

	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = "kuev_nreg";
	hca = fake_hca_kunit_create(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hca);
	other = new_registered(test, "kuev_wit");
	log = fake_hca_kunit_event_log(test, &hca->ibdev);
	witness = fake_hca_kunit_event_log(test, &other->ibdev);
	KUNIT_ASSERT_NOT_NULL(test, log);
	KUNIT_ASSERT_NOT_NULL(test, witness);

	/* Dropped: the device is not registered. */
	fake_hca_dispatch_port_event(hca, 1, IB_EVENT_PORT_ACTIVE);
	fake_hca_dispatch_port_event(other, 1, IB_EVENT_SM_CHANGE);
	KUNIT_ASSERT_TRUE(test, fake_hca_event_wait(witness, 1, WAIT_MS));
	ib_event_flush(&hca->ibdev);
	KUNIT_EXPECT_EQ(test, fake_hca_event_count(log), 0);
}

static void rdma_event_from_atomic_context(struct kunit *test)
{
	struct fake_hca *hca = new_registered(test, "kuev_irq");
	struct fake_hca_event_log *log;
	unsigned long flags;

	log = fake_hca_kunit_event_log(test, &hca->ibdev);
	KUNIT_ASSERT_NOT_NULL(test, log);

	/* Drivers report events from interrupt handlers. */
	local_irq_save(flags);
	fake_hca_dispatch_port_event(hca, 2, IB_EVENT_PORT_ERR);
	local_irq_restore(flags);

	KUNIT_ASSERT_TRUE(test, fake_hca_event_wait(log, 1, WAIT_MS));
	expect_event(test, log, 0, &hca->ibdev, IB_EVENT_PORT_ERR, 2);
}

/* Events dispatched once unregistration has begun are dropped. */
static struct {
	struct fake_hca		*hca;
	bool			dispatched;
} late;

static int late_add(struct ib_device *dev)
{
	return 0;
}

static void late_remove(struct ib_device *dev, void *data)
{
	if (late.hca && dev == &late.hca->ibdev) {
		fake_hca_dispatch_port_event(late.hca, 1, IB_EVENT_SM_CHANGE);
		late.dispatched = true;
	}
}

static struct ib_client late_client = {
	.name = "kunit_event_late",
	.add = late_add,
	.remove = late_remove,
};

KUNIT_DEFINE_ACTION_WRAPPER(unregister_client_action, ib_unregister_client,
			    struct ib_client *);

static void rdma_event_dropped_during_unregister(struct kunit *test)
{
	struct fake_hca *hca = new_registered(test, "kuev_late");
	struct fake_hca_event_log *log;

	log = fake_hca_kunit_event_log(test, &hca->ibdev);
	KUNIT_ASSERT_NOT_NULL(test, log);
	late.hca = hca;
	late.dispatched = false;
	KUNIT_ASSERT_EQ(test, ib_register_client(&late_client), 0);
	fake_hca_kunit_add_action(test, unregister_client_action, &late_client);

	fake_hca_unregister(hca);
	late.hca = NULL;
	KUNIT_EXPECT_TRUE(test, late.dispatched);
	ib_event_flush(&hca->ibdev);
	KUNIT_EXPECT_EQ(test, fake_hca_event_count(log), 0);
}

struct event_name {
	enum ib_event_type	type;
	const char		*name;
};

/* Upstream's strings: user-visible in logs, keep them. */
static const struct event_name event_names[] = {
	{ IB_EVENT_CQ_ERR, "CQ error" },
	{ IB_EVENT_QP_FATAL, "QP fatal error" },
	{ IB_EVENT_QP_REQ_ERR, "QP request error" },
	{ IB_EVENT_QP_ACCESS_ERR, "QP access error" },
	{ IB_EVENT_COMM_EST, "communication established" },
	{ IB_EVENT_SQ_DRAINED, "send queue drained" },
	{ IB_EVENT_PATH_MIG, "path migration successful" },
	{ IB_EVENT_PATH_MIG_ERR, "path migration error" },
	{ IB_EVENT_DEVICE_FATAL, "device fatal error" },
	{ IB_EVENT_PORT_ACTIVE, "port active" },
	{ IB_EVENT_PORT_ERR, "port error" },
	{ IB_EVENT_LID_CHANGE, "LID change" },
	{ IB_EVENT_PKEY_CHANGE, "P_key change" },
	{ IB_EVENT_SM_CHANGE, "SM change" },
	{ IB_EVENT_SRQ_ERR, "SRQ error" },
	{ IB_EVENT_SRQ_LIMIT_REACHED, "SRQ limit reached" },
	{ IB_EVENT_QP_LAST_WQE_REACHED, "last WQE reached" },
	{ IB_EVENT_CLIENT_REREGISTER, "client reregister" },
	{ IB_EVENT_GID_CHANGE, "GID changed" },
	{ IB_EVENT_WQ_FATAL, "unrecognized event" },
	{ (enum ib_event_type)-1, "unrecognized event" },
	{ (enum ib_event_type)1000, "unrecognized event" },
};

static void event_name_desc(const struct event_name *e, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%d", e->type);
}

KUNIT_ARRAY_PARAM(event_name, event_names, event_name_desc);

static void rdma_event_msg(struct kunit *test)
{
	const struct event_name *e = test->param_value;

	KUNIT_EXPECT_STREQ(test, ib_event_msg(e->type), e->name);
}

static struct kunit_case rdma_event_cases[] = {
	KUNIT_CASE(rdma_event_own_device_only),
	KUNIT_CASE(rdma_event_handlers_in_order),
	KUNIT_CASE(rdma_event_unregistered_handler),
	KUNIT_CASE(rdma_event_unregistered_device),
	KUNIT_CASE(rdma_event_from_atomic_context),
	KUNIT_CASE(rdma_event_dropped_during_unregister),
	KUNIT_CASE_PARAM(rdma_event_msg, event_name_gen_params),
	{}
};

static struct kunit_suite rdma_event_suite = {
	.name = "rdma_event",
	.test_cases = rdma_event_cases,
};

kunit_test_suite(rdma_event_suite);

MODULE_DESCRIPTION("KUnit tests of RDMA asynchronous events");
MODULE_LICENSE("Dual BSD/GPL");
