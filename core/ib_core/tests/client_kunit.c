// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_client": the client registry (core/ib_core/client.c).
 *
 * Three recording clients (A, B, C) log every add(), remove() and
 * rename() call; the tests check the log against the rules of the
 * registry: every client meets every device once, in client registration
 * order, and leaves in the reverse order.
 */

#include <kunit/test.h>
#include <kunit/rdma_fake_hca.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>

#include "../core_priv.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

enum rec_kind { REC_ADD, REC_ADD_FAILED, REC_REMOVE, REC_RENAME };

struct rec {
	enum rec_kind		kind;
	int			client;
	struct ib_device	*dev;
	void			*data;
};

#define NUM_CLIENTS	3
#define MAX_RECS	64

static struct {
	spinlock_t	lock;	/* the records */
	unsigned int	n;
	struct rec	r[MAX_RECS];
	int		add_err[NUM_CLIENTS];
	/* what add() stores as client data, one per client */
	int		cookie[NUM_CLIENTS];
} rlog;

static struct ib_client rec_clients[NUM_CLIENTS];

static void rec(enum rec_kind kind, int client, struct ib_device *dev,
		void *data)
{
	unsigned long flags;

	spin_lock_irqsave(&rlog.lock, flags);
	if (rlog.n < MAX_RECS)
		rlog.r[rlog.n] = (struct rec){ kind, client, dev, data };
	rlog.n++;
	spin_unlock_irqrestore(&rlog.lock, flags);
}

static int rec_add(int client, struct ib_device *dev)
{
	int err = READ_ONCE(rlog.add_err[client]);

	if (err) {
		rec(REC_ADD_FAILED, client, dev, NULL);
		return err;
	}
	ib_set_client_data(dev, &rec_clients[client], &rlog.cookie[client]);
	rec(REC_ADD, client, dev, NULL);
	return 0;
}

/* ib_client callbacks do not say which client they belong to. */
static int rec_add_0(struct ib_device *dev)
{
	return rec_add(0, dev);
}

static void rec_remove_0(struct ib_device *dev, void *data)
{
	rec(REC_REMOVE, 0, dev, data);
}

static void rec_rename_0(struct ib_device *dev, void *data)
{
	rec(REC_RENAME, 0, dev, data);
}

static int rec_add_1(struct ib_device *dev)
{
	return rec_add(1, dev);
}

static void rec_remove_1(struct ib_device *dev, void *data)
{
	rec(REC_REMOVE, 1, dev, data);
}

static void rec_rename_1(struct ib_device *dev, void *data)
{
	rec(REC_RENAME, 1, dev, data);
}

static int rec_add_2(struct ib_device *dev)
{
	return rec_add(2, dev);
}

static void rec_remove_2(struct ib_device *dev, void *data)
{
	rec(REC_REMOVE, 2, dev, data);
}

static void rec_rename_2(struct ib_device *dev, void *data)
{
	rec(REC_RENAME, 2, dev, data);
}

static struct ib_client rec_clients[NUM_CLIENTS] = {
	{
		.name = "kunit_client_a",
		.add = rec_add_0,
		.remove = rec_remove_0,
		.rename = rec_rename_0,
	}, {
		.name = "kunit_client_b",
		.add = rec_add_1,
		.remove = rec_remove_1,
		.rename = rec_rename_1,
	}, {
		.name = "kunit_client_c",
		.add = rec_add_2,
		.remove = rec_remove_2,
		.rename = rec_rename_2,
	},
};

enum { A, B, C };

/* Position of the first record matching, or -1. */
static int rec_find(enum rec_kind kind, int client, struct ib_device *dev)
{
	unsigned int i;
	int pos = -1;

	spin_lock_irq(&rlog.lock);
	for (i = 0; i < min_t(unsigned int, rlog.n, MAX_RECS); i++) {
		if (rlog.r[i].kind == kind && rlog.r[i].client == client &&
		    rlog.r[i].dev == dev) {
			pos = i;
			break;
		}
	}
	spin_unlock_irq(&rlog.lock);
	return pos;
}

static unsigned int rec_count(enum rec_kind kind, int client,
			      struct ib_device *dev)
{
	unsigned int i, n = 0;

	spin_lock_irq(&rlog.lock);
	for (i = 0; i < min_t(unsigned int, rlog.n, MAX_RECS); i++)
		if (rlog.r[i].kind == kind && rlog.r[i].client == client &&
		    rlog.r[i].dev == dev)
			n++;
	spin_unlock_irq(&rlog.lock);
	return n;
}

static unsigned int rec_total(void)
{
	unsigned int n;

	spin_lock_irq(&rlog.lock);
	n = rlog.n;
	spin_unlock_irq(&rlog.lock);
	return n;
}

KUNIT_DEFINE_ACTION_WRAPPER(unregister_client_action, ib_unregister_client,
			    struct ib_client *);

static void client_register(struct kunit *test, int idx)
{
	int ret;

	KUNIT_ASSERT_EQ(test, ib_register_client(&rec_clients[idx]), 0);
	ret = kunit_add_action_or_reset(test, unregister_client_action,
					&rec_clients[idx]);
	KUNIT_ASSERT_EQ(test, ret, 0);
}

static void client_unregister(struct kunit *test, int idx)
{
	kunit_release_action(test, unregister_client_action, &rec_clients[idx]);
}

static struct fake_hca *new_dev(struct kunit *test, const char *name,
				bool kverbs, bool reg)
{
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 1);
	struct fake_hca *hca;

	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = name;
	desc->no_kverbs = !kverbs;
	desc->port[0].gid_tbl_len = 2;
	desc->port[0].pkey_tbl_len = 1;
	if (reg)
		hca = fake_hca_kunit_create_registered(test, desc);
	else
		hca = fake_hca_kunit_create(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hca);
	return hca;
}

static int rdma_client_test_init(struct kunit *test)
{
	int i;

	spin_lock_init(&rlog.lock);
	rlog.n = 0;
	for (i = 0; i < NUM_CLIENTS; i++) {
		rlog.add_err[i] = 0;
		rec_clients[i].no_kverbs_req = 0;
	}
	return 0;
}

/* ------------------------------------------------------------------ */

static void rdma_client_registered_before_devices(struct kunit *test)
{
	struct fake_hca *d0, *d1;

	client_register(test, A);
	KUNIT_EXPECT_EQ(test, rec_total(), 0);

	d0 = new_dev(test, "kucl_b0", true, true);
	d1 = new_dev(test, "kucl_b1", true, true);
	KUNIT_EXPECT_EQ(test, rec_count(REC_ADD, A, &d0->ibdev), 1);
	KUNIT_EXPECT_EQ(test, rec_count(REC_ADD, A, &d1->ibdev), 1);
	KUNIT_EXPECT_EQ(test, rec_total(), 2);
	/* Attached from add() on: the data is there when registration ends. */
	KUNIT_EXPECT_PTR_EQ(test, ib_get_client_data(&d0->ibdev, &rec_clients[A]),
			    (void *)&rlog.cookie[A]);
}

static void rdma_client_registered_after_devices(struct kunit *test)
{
	struct fake_hca *d0, *d1, *unreg;

	d0 = new_dev(test, "kucl_a0", true, true);
	d1 = new_dev(test, "kucl_a1", true, true);
	unreg = new_dev(test, "kucl_a2", true, false);

	client_register(test, A);
	KUNIT_EXPECT_EQ(test, rec_count(REC_ADD, A, &d0->ibdev), 1);
	KUNIT_EXPECT_EQ(test, rec_count(REC_ADD, A, &d1->ibdev), 1);
	/* Not for a device that is only allocated. */
	KUNIT_EXPECT_EQ(test, rec_count(REC_ADD, A, &unreg->ibdev), 0);
	KUNIT_EXPECT_EQ(test, rec_total(), 2);
}

static void rdma_client_remove_on_device_unregister(struct kunit *test)
{
	struct fake_hca *d0, *d1;

	client_register(test, A);
	d0 = new_dev(test, "kucl_r0", true, true);
	d1 = new_dev(test, "kucl_r1", true, true);

	fake_hca_unregister(d0);
	KUNIT_EXPECT_EQ(test, rec_count(REC_REMOVE, A, &d0->ibdev), 1);
	KUNIT_EXPECT_EQ(test, rec_count(REC_REMOVE, A, &d1->ibdev), 0);
	KUNIT_EXPECT_NULL(test, ib_get_client_data(&d0->ibdev, &rec_clients[A]));

	/* The client leaving later does not remove it a second time. */
	client_unregister(test, A);
	KUNIT_EXPECT_EQ(test, rec_count(REC_REMOVE, A, &d0->ibdev), 1);
	KUNIT_EXPECT_EQ(test, rec_count(REC_REMOVE, A, &d1->ibdev), 1);
}

static void rdma_client_remove_on_client_unregister(struct kunit *test)
{
	struct fake_hca *d0, *d1;

	d0 = new_dev(test, "kucl_u0", true, true);
	d1 = new_dev(test, "kucl_u1", true, true);
	client_register(test, A);

	client_unregister(test, A);
	KUNIT_EXPECT_EQ(test, rec_count(REC_REMOVE, A, &d0->ibdev), 1);
	KUNIT_EXPECT_EQ(test, rec_count(REC_REMOVE, A, &d1->ibdev), 1);
	KUNIT_EXPECT_NULL(test, ib_get_client_data(&d0->ibdev, &rec_clients[A]));

	/* The devices going later do not call the gone client. */
	fake_hca_unregister(d0);
	fake_hca_unregister(d1);
	KUNIT_EXPECT_EQ(test, rec_total(), 4);
}

static void rdma_client_order_new_device(struct kunit *test)
{
	struct ib_device *dev;
	struct fake_hca *hca;

	client_register(test, A);
	client_register(test, B);
	hca = new_dev(test, "kucl_o", true, true);
	dev = &hca->ibdev;

	/* add() in registration order ... */
	KUNIT_ASSERT_GE(test, rec_find(REC_ADD, A, dev), 0);
	KUNIT_EXPECT_LT(test, rec_find(REC_ADD, A, dev),
			rec_find(REC_ADD, B, dev));

	/* ... remove() in the reverse order. */
	fake_hca_unregister(hca);
	KUNIT_ASSERT_GE(test, rec_find(REC_REMOVE, B, dev), 0);
	KUNIT_EXPECT_LT(test, rec_find(REC_REMOVE, B, dev),
			rec_find(REC_REMOVE, A, dev));
	KUNIT_EXPECT_EQ(test, rec_total(), 4);
}

static void rdma_client_order_existing_device(struct kunit *test)
{
	struct fake_hca *hca = new_dev(test, "kucl_oe", true, true);
	struct ib_device *dev = &hca->ibdev;

	client_register(test, B);
	client_register(test, A);
	client_register(test, C);
	KUNIT_EXPECT_EQ(test, rec_total(), 3);

	/* Newest client first: C, A, B. */
	fake_hca_unregister(hca);
	KUNIT_ASSERT_GE(test, rec_find(REC_REMOVE, C, dev), 0);
	KUNIT_EXPECT_LT(test, rec_find(REC_REMOVE, C, dev),
			rec_find(REC_REMOVE, A, dev));
	KUNIT_EXPECT_LT(test, rec_find(REC_REMOVE, A, dev),
			rec_find(REC_REMOVE, B, dev));
	KUNIT_EXPECT_EQ(test, rec_total(), 6);
}

static void rdma_client_data(struct kunit *test)
{
	struct fake_hca *d0, *d1;
	int pos_a, pos_b;
	int other;

	client_register(test, A);
	client_register(test, B);
	d0 = new_dev(test, "kucl_d0", true, true);
	d1 = new_dev(test, "kucl_d1", true, true);

	KUNIT_EXPECT_PTR_EQ(test, ib_get_client_data(&d0->ibdev, &rec_clients[A]),
			    (void *)&rlog.cookie[A]);
	KUNIT_EXPECT_PTR_EQ(test, ib_get_client_data(&d0->ibdev, &rec_clients[B]),
			    (void *)&rlog.cookie[B]);

	/* Changing it for one device leaves the other alone ... */
	ib_set_client_data(&d1->ibdev, &rec_clients[A], &other);
	KUNIT_EXPECT_PTR_EQ(test, ib_get_client_data(&d1->ibdev, &rec_clients[A]),
			    (void *)&other);
	KUNIT_EXPECT_PTR_EQ(test, ib_get_client_data(&d0->ibdev, &rec_clients[A]),
			    (void *)&rlog.cookie[A]);

	/* ... and remove() gets the latest value. */
	fake_hca_unregister(d1);
	pos_a = rec_find(REC_REMOVE, A, &d1->ibdev);
	pos_b = rec_find(REC_REMOVE, B, &d1->ibdev);
	KUNIT_ASSERT_GE(test, pos_a, 0);
	KUNIT_ASSERT_GE(test, pos_b, 0);
	KUNIT_EXPECT_PTR_EQ(test, rlog.r[pos_a].data, (void *)&other);
	KUNIT_EXPECT_PTR_EQ(test, rlog.r[pos_b].data, (void *)&rlog.cookie[B]);
}

static const int add_errors[] = { -ENOMEM, -EOPNOTSUPP, -ENODEV };

static void add_error_desc(const int *err, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "add() returns %d", *err);
}

KUNIT_ARRAY_PARAM(add_error, add_errors, add_error_desc);

static void rdma_client_failing_add(struct kunit *test)
{
	const int *err = test->param_value;
	struct fake_hca *early, *late;

	early = new_dev(test, "kucl_f0", true, true);
	rlog.add_err[B] = *err;
	client_register(test, A);
	client_register(test, B);
	client_register(test, C);
	late = new_dev(test, "kucl_f1", true, true);

	/* B was asked and refused, for both ways of meeting a device. */
	KUNIT_EXPECT_EQ(test, rec_count(REC_ADD_FAILED, B, &early->ibdev), 1);
	KUNIT_EXPECT_EQ(test, rec_count(REC_ADD_FAILED, B, &late->ibdev), 1);
	KUNIT_EXPECT_NULL(test, ib_get_client_data(&early->ibdev,
						   &rec_clients[B]));
	KUNIT_EXPECT_NULL(test, ib_get_client_data(&late->ibdev,
						   &rec_clients[B]));
	/* The others are not disturbed by it. */
	KUNIT_EXPECT_EQ(test, rec_count(REC_ADD, C, &early->ibdev), 1);
	KUNIT_EXPECT_EQ(test, rec_count(REC_ADD, C, &late->ibdev), 1);

	/* A client that never attached is never removed or renamed. */
	KUNIT_EXPECT_EQ(test, ib_device_rename(&late->ibdev, "kucl_f2"), 0);
	KUNIT_EXPECT_EQ(test, rec_count(REC_RENAME, B, &late->ibdev), 0);
	KUNIT_EXPECT_EQ(test, rec_count(REC_RENAME, A, &late->ibdev), 1);
	fake_hca_unregister(late);
	client_unregister(test, B);
	KUNIT_EXPECT_EQ(test, rec_count(REC_REMOVE, B, &late->ibdev), 0);
	KUNIT_EXPECT_EQ(test, rec_count(REC_REMOVE, B, &early->ibdev), 0);
	KUNIT_EXPECT_EQ(test, rec_count(REC_REMOVE, A, &late->ibdev), 1);
	KUNIT_EXPECT_EQ(test, rec_count(REC_REMOVE, C, &late->ibdev), 1);
}

static void rdma_client_kverbs_requirement(struct kunit *test)
{
	struct fake_hca *full, *nokv;

	rec_clients[B].no_kverbs_req = 1;
	client_register(test, A);
	client_register(test, B);
	full = new_dev(test, "kucl_kv", true, true);
	nokv = new_dev(test, "kucl_nokv", false, true);

	KUNIT_EXPECT_EQ(test, rec_count(REC_ADD, A, &full->ibdev), 1);
	KUNIT_EXPECT_EQ(test, rec_count(REC_ADD, B, &full->ibdev), 1);
	/* A needs kernel verbs: never even asked about the partial device. */
	KUNIT_EXPECT_EQ(test, rec_count(REC_ADD, A, &nokv->ibdev), 0);
	KUNIT_EXPECT_EQ(test, rec_count(REC_ADD_FAILED, A, &nokv->ibdev), 0);
	KUNIT_EXPECT_EQ(test, rec_count(REC_ADD, B, &nokv->ibdev), 1);

	/* The same when the client comes after the device. */
	client_register(test, C);
	KUNIT_EXPECT_EQ(test, rec_count(REC_ADD, C, &nokv->ibdev), 0);
	KUNIT_EXPECT_EQ(test, rec_count(REC_ADD, C, &full->ibdev), 1);

	fake_hca_unregister(nokv);
	KUNIT_EXPECT_EQ(test, rec_count(REC_REMOVE, A, &nokv->ibdev), 0);
	KUNIT_EXPECT_EQ(test, rec_count(REC_REMOVE, B, &nokv->ibdev), 1);
}

static void rdma_client_reregister(struct kunit *test)
{
	struct fake_hca *hca = new_dev(test, "kucl_rr", true, true);

	client_register(test, A);
	client_unregister(test, A);
	client_register(test, A);

	KUNIT_EXPECT_EQ(test, rec_count(REC_ADD, A, &hca->ibdev), 2);
	KUNIT_EXPECT_EQ(test, rec_count(REC_REMOVE, A, &hca->ibdev), 1);
	KUNIT_EXPECT_PTR_EQ(test, ib_get_client_data(&hca->ibdev,
						     &rec_clients[A]),
			    (void *)&rlog.cookie[A]);
}

static void rdma_client_rename(struct kunit *test)
{
	struct fake_hca *hca = new_dev(test, "kucl_rn", true, true);
	int pos;

	client_register(test, A);
	KUNIT_ASSERT_EQ(test, ib_device_rename(&hca->ibdev, "kucl_rn2"), 0);
	pos = rec_find(REC_RENAME, A, &hca->ibdev);
	KUNIT_ASSERT_GE(test, pos, 0);
	KUNIT_EXPECT_PTR_EQ(test, rlog.r[pos].data, (void *)&rlog.cookie[A]);
	KUNIT_EXPECT_EQ(test, rec_total(), 2);

	/* A failed rename tells nobody. */
	new_dev(test, "kucl_rn3", true, true);
	KUNIT_EXPECT_EQ(test, ib_device_rename(&hca->ibdev, "kucl_rn3"),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, rec_count(REC_RENAME, A, &hca->ibdev), 1);
}

static struct kunit_case rdma_client_cases[] = {
	KUNIT_CASE(rdma_client_registered_before_devices),
	KUNIT_CASE(rdma_client_registered_after_devices),
	KUNIT_CASE(rdma_client_remove_on_device_unregister),
	KUNIT_CASE(rdma_client_remove_on_client_unregister),
	KUNIT_CASE(rdma_client_order_new_device),
	KUNIT_CASE(rdma_client_order_existing_device),
	KUNIT_CASE(rdma_client_data),
	KUNIT_CASE_PARAM(rdma_client_failing_add, add_error_gen_params),
	KUNIT_CASE(rdma_client_kverbs_requirement),
	KUNIT_CASE(rdma_client_reregister),
	KUNIT_CASE(rdma_client_rename),
	{}
};

static struct kunit_suite rdma_client_suite = {
	.name = "rdma_client",
	.init = rdma_client_test_init,
	.test_cases = rdma_client_cases,
};

kunit_test_suite(rdma_client_suite);

MODULE_DESCRIPTION("KUnit tests of the RDMA client registry");
MODULE_LICENSE("Dual BSD/GPL");
