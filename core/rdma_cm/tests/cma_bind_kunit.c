// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_cma_bind": rdma_cm's port spaces and rdma_bind_addr()
 * (core/rdma_cm/cma_ps.c).  Wildcard binds need no RDMA device, so these cases
 * run on whatever the test VM has.  Ports 47000-47100 are used; the
 * ephemeral range of the VM (32768-60999 by default) is read, not assumed.
 */

#include <kunit/test.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/nsproxy.h>
#include <net/ip.h>
#include <rdma/rdma_cm.h>

#include "../cma_priv.h"

#define BASE_PORT	47000

static int no_events(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	return 0;
}

static void destroy_action(void *id)
{
	rdma_destroy_id(id);
}

static struct rdma_cm_id *new_id(struct kunit *test,
				 enum rdma_ucm_port_space ps)
{
	struct rdma_cm_id *id;

	id = rdma_create_id(&init_net, no_events, NULL, ps, IB_QPT_RC);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, id);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, destroy_action,
							id), 0);
	return id;
}

static void done_with(struct kunit *test, struct rdma_cm_id *id)
{
	kunit_release_action(test, destroy_action, id);
}

static struct sockaddr *any4(struct sockaddr_storage *ss, u16 port)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
	return (struct sockaddr *)ss;
}

static struct sockaddr *any6(struct sockaddr_storage *ss, u16 port)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	sin6->sin6_family = AF_INET6;
	sin6->sin6_port = htons(port);
	return (struct sockaddr *)ss;
}

static u16 bound_port(struct rdma_cm_id *id)
{
	struct sockaddr *sa = (struct sockaddr *)&id->route.addr.src_addr;

	if (sa->sa_family == AF_INET)
		return ntohs(((struct sockaddr_in *)sa)->sin_port);
	return ntohs(((struct sockaddr_in6 *)sa)->sin6_port);
}

/* Two ids on one wildcard port: the second is refused, exactly so. */
static void rdma_cma_bind_conflict(struct kunit *test)
{
	struct rdma_cm_id *a = new_id(test, RDMA_PS_TCP);
	struct rdma_cm_id *b = new_id(test, RDMA_PS_TCP);
	struct sockaddr_storage ss;

	KUNIT_ASSERT_EQ(test, rdma_bind_addr(a, any4(&ss, BASE_PORT)), 0);
	KUNIT_EXPECT_EQ(test, bound_port(a), BASE_PORT);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(b, any4(&ss, BASE_PORT)),
			-EADDRNOTAVAIL);
	/* the refused id is idle again and may bind elsewhere */
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(b, any4(&ss, BASE_PORT + 1)), 0);
	/* a bound id cannot bind again */
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(a, any4(&ss, BASE_PORT + 2)),
			-EINVAL);

	/* the port is free again once its owner is gone */
	done_with(test, a);
	a = new_id(test, RDMA_PS_TCP);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(a, any4(&ss, BASE_PORT)), 0);
}

/* Ports of different port spaces are independent. */
static void rdma_cma_bind_port_spaces(struct kunit *test)
{
	static const enum rdma_ucm_port_space spaces[] = {
		RDMA_PS_TCP, RDMA_PS_UDP, RDMA_PS_IPOIB, RDMA_PS_IB,
	};
	struct sockaddr_storage ss;
	int i;

	for (i = 0; i < ARRAY_SIZE(spaces); i++) {
		struct rdma_cm_id *id = new_id(test, spaces[i]);

		KUNIT_EXPECT_EQ_MSG(test,
				    rdma_bind_addr(id, any4(&ss, BASE_PORT + 3)),
				    0, "port space %#x", spaces[i]);
	}
	KUNIT_EXPECT_EQ(test,
			rdma_bind_addr(new_id(test, RDMA_PS_UDP),
				       any4(&ss, BASE_PORT + 3)),
			-EADDRNOTAVAIL);
}

/* reuseaddr: shared while nobody listens; a listener shares with nobody. */
static void rdma_cma_bind_reuseaddr(struct kunit *test)
{
	struct rdma_cm_id *a = new_id(test, RDMA_PS_TCP);
	struct rdma_cm_id *b = new_id(test, RDMA_PS_TCP);
	struct rdma_cm_id *c = new_id(test, RDMA_PS_TCP);
	struct sockaddr_storage ss;

	KUNIT_ASSERT_EQ(test, rdma_set_reuseaddr(a, 1), 0);
	KUNIT_ASSERT_EQ(test, rdma_set_reuseaddr(b, 1), 0);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(a, any4(&ss, BASE_PORT + 4)), 0);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(b, any4(&ss, BASE_PORT + 4)), 0);
	/* c did not ask for reuse */
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(c, any4(&ss, BASE_PORT + 4)),
			-EADDRNOTAVAIL);

	/* a cannot listen while b shares the port ... */
	KUNIT_EXPECT_EQ(test, rdma_listen(a, 1), -EADDRNOTAVAIL);
	/* ... and may once b is gone; then it shares no more */
	done_with(test, b);
	KUNIT_ASSERT_EQ(test, rdma_listen(a, 1), 0);
	KUNIT_EXPECT_EQ(test, rdma_set_reuseaddr(a, 1), -EINVAL);
	b = new_id(test, RDMA_PS_TCP);
	KUNIT_ASSERT_EQ(test, rdma_set_reuseaddr(b, 1), 0);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(b, any4(&ss, BASE_PORT + 4)),
			-EADDRNOTAVAIL);

	/* clearing reuse is only for idle ids */
	KUNIT_EXPECT_EQ(test, rdma_set_reuseaddr(c, 0), 0);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(c, any4(&ss, BASE_PORT + 5)), 0);
	KUNIT_EXPECT_EQ(test, rdma_set_reuseaddr(c, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_set_reuseaddr(c, 1), 0);
}

/* afonly: an IPv6 wildcard clashes with IPv4 only when it takes IPv4. */
static void rdma_cma_bind_afonly(struct kunit *test)
{
	struct rdma_cm_id *v6only = new_id(test, RDMA_PS_TCP);
	struct rdma_cm_id *v4 = new_id(test, RDMA_PS_TCP);
	struct rdma_cm_id *v6both = new_id(test, RDMA_PS_TCP);
	struct rdma_cm_id *v4b = new_id(test, RDMA_PS_TCP);
	struct sockaddr_storage ss;

	KUNIT_ASSERT_EQ(test, rdma_set_afonly(v6only, 1), 0);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(v6only, any6(&ss, BASE_PORT + 6)),
			0);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(v4, any4(&ss, BASE_PORT + 6)), 0);

	KUNIT_ASSERT_EQ(test, rdma_set_afonly(v6both, 0), 0);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(v6both, any6(&ss, BASE_PORT + 7)),
			0);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(v4b, any4(&ss, BASE_PORT + 7)),
			-EADDRNOTAVAIL);

	/* afonly may change while bound, not later */
	KUNIT_EXPECT_EQ(test, rdma_set_afonly(v6both, 1), 0);
	KUNIT_ASSERT_EQ(test, rdma_listen(v6both, 1), 0);
	KUNIT_EXPECT_EQ(test, rdma_set_afonly(v6both, 0), -EINVAL);
}

/* Port 0: a free port of the namespace's ephemeral range, each time. */
static void rdma_cma_bind_ephemeral(struct kunit *test)
{
	struct sockaddr_storage ss;
	u16 ports[8];
	int low, high, i, j;

	inet_get_local_port_range(&init_net, &low, &high);
	for (i = 0; i < ARRAY_SIZE(ports); i++) {
		struct rdma_cm_id *id = new_id(test, RDMA_PS_TCP);

		KUNIT_ASSERT_EQ(test, rdma_bind_addr(id, i & 1 ?
						     any6(&ss, 0) :
						     any4(&ss, 0)), 0);
		ports[i] = bound_port(id);
		KUNIT_EXPECT_GE(test, ports[i], low);
		KUNIT_EXPECT_LE(test, ports[i], high);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_NE(test, ports[i], ports[j]);
	}
}

/* rdma_listen() on an idle id binds it to 0.0.0.0 and a free port. */
static void rdma_cma_bind_listen_unbound(struct kunit *test)
{
	struct rdma_cm_id *id = new_id(test, RDMA_PS_TCP);
	struct sockaddr_in *sin = (struct sockaddr_in *)&id->route.addr.src_addr;
	struct sockaddr_storage ss;

	KUNIT_ASSERT_EQ(test, rdma_listen(id, 4), 0);
	KUNIT_EXPECT_EQ(test, sin->sin_family, AF_INET);
	KUNIT_EXPECT_EQ(test, ntohl(sin->sin_addr.s_addr), INADDR_ANY);
	KUNIT_EXPECT_NE(test, bound_port(id), 0);
	KUNIT_EXPECT_EQ(test, rdma_listen(id, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(id, any4(&ss, BASE_PORT + 8)),
			-EINVAL);
}

/* Refusals with their exact errors. */
static void rdma_cma_bind_refusals(struct kunit *test)
{
	struct rdma_cm_id *id = new_id(test, RDMA_PS_TCP);
	struct sockaddr_in6 ll = {
		.sin6_family = AF_INET6,
		.sin6_addr = { .s6_addr = { 0xfe, 0x80, [15] = 1 } },
	};
	struct sockaddr_in far = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(0xcb007105),	/* 203.0.113.5 */
	};
	struct sockaddr un = { .sa_family = AF_UNIX };

	KUNIT_EXPECT_EQ(test, rdma_bind_addr(id, &un), -EAFNOSUPPORT);
	/* link-local without an interface */
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(id, (struct sockaddr *)&ll),
			-EINVAL);
	/* not an address of this host */
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(id, (struct sockaddr *)&far),
			-EADDRNOTAVAIL);
	/* each refusal left the id idle */
	KUNIT_EXPECT_EQ(test, rdma_set_reuseaddr(id, 0), 0);

	KUNIT_EXPECT_TRUE(test, IS_ERR(rdma_create_id(&init_net, no_events,
						      NULL, 0x4242,
						      IB_QPT_RC)));
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_create_id(&init_net, no_events,
						     NULL, 0x4242,
						     IB_QPT_RC)), -EINVAL);
}

/* Service IDs: the port space above the port (IBTA Annex A11). */
static void rdma_cma_bind_service_id(struct kunit *test)
{
	struct rdma_cm_id *tcp = new_id(test, RDMA_PS_TCP);
	struct rdma_cm_id *udp = new_id(test, RDMA_PS_UDP);
	struct sockaddr_storage ss;

	KUNIT_EXPECT_EQ(test,
			be64_to_cpu(rdma_get_service_id(tcp, any4(&ss, 0x1234))),
			RDMA_IB_IP_PS_TCP | 0x1234);
	KUNIT_EXPECT_EQ(test,
			be64_to_cpu(rdma_get_service_id(udp, any6(&ss, 0x4321))),
			RDMA_IB_IP_PS_UDP | 0x4321);
}

static struct rdma_cm_id *new_qpt_id(struct kunit *test,
				     enum rdma_ucm_port_space ps,
				     enum ib_qp_type qpt)
{
	struct rdma_cm_id *id;

	id = rdma_create_id(&init_net, no_events, NULL, ps, qpt);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, id);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, destroy_action,
							id), 0);
	return id;
}

/*
 * The QP options rdma_set_ack_timeout() and rdma_set_min_rnr_timer():
 * each is taken by the QP types it applies to (the ACK timeout by an
 * initiator: RC, XRC_INI; the RNR timer by a responder: RC, XRC_TGT),
 * refused with -EINVAL by the others, and kept in the id for
 * rdma_init_qp_attr(), which puts it in the attributes whose mask holds
 * IB_QP_TIMEOUT or IB_QP_MIN_RNR_TIMER (the iWARP case of rdma_cma_conn
 * checks that it stays out of the others).
 *
 * Gap: only the IB CM's RTR and RTS attributes hold those bits, and the
 * IB CM is not written yet; so today neither value reaches a QP.  This
 * case checks what is kept, not a QP; when the IB CM lands, its RTR/RTS
 * attributes must show these values.
 */
static void rdma_cma_bind_qp_options_kept_gap_ib_cm(struct kunit *test)
{
	struct rdma_cm_id *rc = new_id(test, RDMA_PS_TCP);
	struct rdma_cm_id *ud = new_qpt_id(test, RDMA_PS_UDP, IB_QPT_UD);
	struct rdma_cm_id *ini = new_qpt_id(test, RDMA_PS_TCP,
					    IB_QPT_XRC_INI);
	struct rdma_cm_id *tgt = new_qpt_id(test, RDMA_PS_TCP,
					    IB_QPT_XRC_TGT);
	struct rdma_id_private *p;

	/* nothing set: rdma_init_qp_attr() leaves the fields alone */
	p = to_id_priv(rc);
	KUNIT_EXPECT_FALSE(test, p->timeout_set);
	KUNIT_EXPECT_FALSE(test, p->min_rnr_timer_set);

	KUNIT_EXPECT_EQ(test, rdma_set_ack_timeout(rc, 14), 0);
	KUNIT_EXPECT_EQ(test, rdma_set_min_rnr_timer(rc, 12), 0);
	KUNIT_EXPECT_TRUE(test, p->timeout_set);
	KUNIT_EXPECT_EQ(test, p->timeout, 14);
	KUNIT_EXPECT_TRUE(test, p->min_rnr_timer_set);
	KUNIT_EXPECT_EQ(test, p->min_rnr_timer, 12);
	/* set again: the last value counts */
	KUNIT_EXPECT_EQ(test, rdma_set_ack_timeout(rc, 19), 0);
	KUNIT_EXPECT_EQ(test, rdma_set_min_rnr_timer(rc, 3), 0);
	KUNIT_EXPECT_EQ(test, p->timeout, 19);
	KUNIT_EXPECT_EQ(test, p->min_rnr_timer, 3);

	/* UD has neither: refused, nothing kept */
	p = to_id_priv(ud);
	KUNIT_EXPECT_EQ(test, rdma_set_ack_timeout(ud, 14), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_set_min_rnr_timer(ud, 12), -EINVAL);
	KUNIT_EXPECT_FALSE(test, p->timeout_set);
	KUNIT_EXPECT_FALSE(test, p->min_rnr_timer_set);

	/* an XRC initiator sends (ACK timeout), a target receives (RNR) */
	p = to_id_priv(ini);
	KUNIT_EXPECT_EQ(test, rdma_set_ack_timeout(ini, 16), 0);
	KUNIT_EXPECT_EQ(test, rdma_set_min_rnr_timer(ini, 12), -EINVAL);
	KUNIT_EXPECT_TRUE(test, p->timeout_set);
	KUNIT_EXPECT_EQ(test, p->timeout, 16);
	KUNIT_EXPECT_FALSE(test, p->min_rnr_timer_set);
	p = to_id_priv(tgt);
	KUNIT_EXPECT_EQ(test, rdma_set_ack_timeout(tgt, 16), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_set_min_rnr_timer(tgt, 7), 0);
	KUNIT_EXPECT_FALSE(test, p->timeout_set);
	KUNIT_EXPECT_TRUE(test, p->min_rnr_timer_set);
	KUNIT_EXPECT_EQ(test, p->min_rnr_timer, 7);
}

/*
 * Ids for user space in a namespace given (rdma_ucm's, the namespace of
 * the file's opener): they live there, share its port spaces with the
 * kernel's ids and are user entries in restrack; rdma_create_user_id()
 * takes the caller's namespace (the test's: the initial one).
 */
static void rdma_cma_bind_user_id_net(struct kunit *test)
{
	struct rdma_cm_id *kern = new_id(test, RDMA_PS_TCP);
	struct rdma_cm_id *user, *cur;
	struct sockaddr_storage ss;

	user = rdma_create_user_id_net(&init_net, no_events, NULL,
				       RDMA_PS_TCP, IB_QPT_RC);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, user);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, destroy_action,
							user), 0);
	cur = rdma_create_user_id(no_events, NULL, RDMA_PS_UDP, IB_QPT_UD);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cur);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, destroy_action,
							cur), 0);
	KUNIT_EXPECT_TRUE(test, net_eq(cma_net(to_id_priv(user)), &init_net));
	KUNIT_EXPECT_TRUE(test, net_eq(cma_net(to_id_priv(cur)),
				       current->nsproxy->net_ns));
	KUNIT_EXPECT_TRUE(test, to_id_priv(user)->res.user);
	KUNIT_EXPECT_FALSE(test, to_id_priv(kern)->res.user);
	KUNIT_EXPECT_EQ(test, PTR_ERR(rdma_create_user_id_net(&init_net,
							      no_events, NULL,
							      0x4242,
							      IB_QPT_RC)),
			-EINVAL);

	/* one port space with the kernel's ids of the namespace */
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(kern, any4(&ss, BASE_PORT + 20)),
			0);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(user, any4(&ss, BASE_PORT + 20)),
			-EADDRNOTAVAIL);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(user, any4(&ss, BASE_PORT + 21)),
			0);
}

static struct kunit_case rdma_cma_bind_cases[] = {
	KUNIT_CASE(rdma_cma_bind_conflict),
	KUNIT_CASE(rdma_cma_bind_port_spaces),
	KUNIT_CASE(rdma_cma_bind_reuseaddr),
	KUNIT_CASE(rdma_cma_bind_afonly),
	KUNIT_CASE(rdma_cma_bind_ephemeral),
	KUNIT_CASE(rdma_cma_bind_listen_unbound),
	KUNIT_CASE(rdma_cma_bind_refusals),
	KUNIT_CASE(rdma_cma_bind_service_id),
	KUNIT_CASE(rdma_cma_bind_qp_options_kept_gap_ib_cm),
	KUNIT_CASE(rdma_cma_bind_user_id_net),
	{}
};

static struct kunit_suite rdma_cma_bind_suite = {
	.name = "rdma_cma_bind",
	.test_cases = rdma_cma_bind_cases,
};

kunit_test_suite(rdma_cma_bind_suite);

MODULE_DESCRIPTION("KUnit tests of rdma_cm port spaces and binding");
MODULE_LICENSE("Dual BSD/GPL");
