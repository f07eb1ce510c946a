// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_ucm": rdma_ucm (core/rdma_ucm) through its real
 * interface, /dev/infiniband/rdma_cm opened with filp_open() and written
 * from "user space" (kunit_vm_mmap()), as librdmacm writes it.
 *
 * Covered: nldev's GET_CHARDEV "rdma_cm" against the misc device and
 * sysfs; the header's rules; CREATE_ID and DESTROY_ID with their answers
 * (-ENOSPC, -EFAULT leaving no context behind) and ids of another file;
 * then, over the iWARP flavour of rdma_fake_hca (the test plays the wire
 * through the fake's iw_cm ids, as the rdma_cma_conn suite does): a
 * listener's requests queued as CONNECT_REQUEST with their private data
 * and new ids, the backlog (a request past it refused, room again once
 * one is read), a listener destroyed with requests not read (their new
 * ids go, the requests are rejected), ACCEPT with the uid the events
 * carry from then on, ESTABLISHED and DISCONNECTED, the device removed
 * under ids (DEVICE_REMOVAL, -ENXIO, DESTROY_ID still answering), and a
 * file closed with everything open.
 *
 * The network: net device "fkhca%d" of the fake, up, 192.0.2.1/24; the
 * fake RNIC "kuucm%d" has it as its port 1.  Ports 49300 and up.
 */
#include <kunit/test.h>
#include <kunit/rdma_fake_hca.h>
#include <kunit/rdma_nldev.h>
#include <kunit/rdma_rtnl.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/in.h>
#include <linux/inet.h>
#include <linux/kdev_t.h>
#include <linux/mman.h>
#include <linux/rtnetlink.h>
#include <rdma/iw_cm.h>
#include <uapi/rdma/rdma_user_cm.h>

#include "../ucma_priv.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define BASE_PORT	49300
#define QPN		0x31
#define WAIT_MS		5000
/* offsets in the case's user page: request, response */
#define REQ_OFF		0
#define RESP_OFF	2048

static const u8 mac_a[ETH_ALEN] = { 0x02, 0xad, 0xd1, 0x00, 0x0c, 0x0a };

/* ------------------------------------------------------------------
 * A file, and commands written to it from the case's user page
 */

struct uf {
	struct kunit	*test;
	struct file	*f;
	unsigned long	ubuf;	/* one page of user memory */
	u8		*kbuf;	/* a command being put together */
};

/* the release runs now: a kthread's last fput() is deferred to a work */
static void uf_close(void *f)
{
	fput(f);
	flush_delayed_fput();
}

static struct uf *uf_open(struct kunit *test)
{
	struct uf *u = kunit_kzalloc(test, sizeof(*u), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, u);
	u->test = test;
	u->kbuf = kunit_kzalloc(test, 512, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, u->kbuf);
	u->ubuf = kunit_vm_mmap(test, NULL, 0, PAGE_SIZE,
				PROT_READ | PROT_WRITE,
				MAP_ANONYMOUS | MAP_PRIVATE, 0);
	KUNIT_ASSERT_NE(test, u->ubuf, 0UL);
	u->f = filp_open("/dev/infiniband/rdma_cm", O_RDWR | O_NONBLOCK, 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(u->f), "open: %d",
			       PTR_ERR_OR_ZERO(u->f));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, uf_close, u->f),
			0);
	return u;
}

/* Close @u's file now (its action). */
static void uf_release(struct uf *u)
{
	kunit_release_action(u->test, uf_close, u->f);
	u->f = NULL;
}

static ssize_t uf_write(struct uf *u, size_t len)
{
	loff_t pos = 0;

	return u->f->f_op->write(u->f, (const char __user *)u->ubuf, len,
				 &pos);
}

/*
 * Command @op with @len bytes of @req (header's "in" = @len), "out" =
 * @out; the response address in the request (its first u64 when
 * @resp_at is 0, else at that offset; -1: none) points at RESP_OFF.
 */
static ssize_t uf_cmd(struct uf *u, u32 op, void *req, u16 len, u16 out,
		      int resp_at)
{
	struct rdma_ucm_cmd_hdr hdr = { .cmd = op, .in = len, .out = out };
	u64 resp = u->ubuf + RESP_OFF;
	u8 *buf = u->kbuf;

	KUNIT_ASSERT_LE(u->test, sizeof(hdr) + len, 512);
	memcpy(buf, &hdr, sizeof(hdr));
	memcpy(buf + sizeof(hdr), req, len);
	if (resp_at >= 0)
		memcpy(buf + sizeof(hdr) + resp_at, &resp, sizeof(resp));
	KUNIT_ASSERT_EQ(u->test, copy_to_user((void __user *)u->ubuf, buf,
					      sizeof(hdr) + len), 0);
	return uf_write(u, sizeof(hdr) + len);
}

/* The response written at RESP_OFF */
static void uf_resp(struct uf *u, void *out, size_t len)
{
	KUNIT_ASSERT_EQ(u->test,
			copy_from_user(out,
				       (void __user *)(u->ubuf + RESP_OFF),
				       len), 0);
}

static int uf_create(struct uf *u, u16 ps, u64 uid)
{
	struct rdma_ucm_create_id c = { .uid = uid, .ps = ps };
	struct rdma_ucm_create_id_resp r;
	ssize_t ret;

	ret = uf_cmd(u, RDMA_USER_CM_CMD_CREATE_ID, &c, sizeof(c),
		     sizeof(r), offsetof(typeof(c), response));
	if (ret < 0)
		return ret;
	uf_resp(u, &r, sizeof(r));
	return r.id;
}

/* the events read, or an error */
static int uf_destroy(struct uf *u, u32 id)
{
	struct rdma_ucm_destroy_id c = { .id = id };
	struct rdma_ucm_destroy_id_resp r;
	ssize_t ret;

	ret = uf_cmd(u, RDMA_USER_CM_CMD_DESTROY_ID, &c, sizeof(c),
		     sizeof(r), 0);
	if (ret < 0)
		return ret;
	uf_resp(u, &r, sizeof(r));
	return r.events_reported;
}

static int uf_bind(struct uf *u, u32 id, const char *ip, u16 port)
{
	struct rdma_ucm_bind c = { .id = id,
				   .addr_size = sizeof(struct sockaddr_in) };
	struct sockaddr_in *sin = (struct sockaddr_in *)&c.addr;

	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = in_aton(ip);
	sin->sin_port = htons(port);
	return uf_cmd(u, RDMA_USER_CM_CMD_BIND, &c, sizeof(c), 0, -1) < 0 ?
	       -EIO : 0;
}

static ssize_t uf_listen(struct uf *u, u32 id, u32 backlog)
{
	struct rdma_ucm_listen c = { .id = id, .backlog = backlog };

	return uf_cmd(u, RDMA_USER_CM_CMD_LISTEN, &c, sizeof(c), 0, -1);
}

/* GET_EVENT within WAIT_MS (the file is non-blocking): 0 or an error */
static int uf_event(struct uf *u, struct rdma_ucm_event_resp *ev)
{
	struct rdma_ucm_get_event c = {};
	unsigned long end = jiffies + msecs_to_jiffies(WAIT_MS);
	ssize_t ret;

	for (;;) {
		ret = uf_cmd(u, RDMA_USER_CM_CMD_GET_EVENT, &c, sizeof(c),
			     sizeof(*ev), 0);
		if (ret != -EAGAIN || time_after(jiffies, end))
			break;
		usleep_range(5000, 10000);
	}
	if (ret < 0)
		return ret;
	uf_resp(u, ev, sizeof(*ev));
	return 0;
}

/* ------------------------------------------------------------------
 * Without a device
 */

/* GET_CHARDEV "rdma_cm", the misc device, its sysfs, the sysctl. */
static void ucma_chardev(struct kunit *test)
{
	struct kt_nlc *c = kt_nlc_open(test);
	struct kt_chardev cd = {};
	char buf[32], want[32];
	dev_t devt;

	KUNIT_ASSERT_EQ(test, kt_chardev(c, KT_NO_DEV, 0, "rdma_cm", &cd), 0);
	KUNIT_EXPECT_STREQ(test, cd.name, "rdma_cm");
	KUNIT_EXPECT_EQ(test, cd.abi, (u64)RDMA_USER_CM_ABI_VERSION);
	devt = huge_decode_dev(cd.devt);
	kt_sysfs_read(test, "/sys/class/misc/rdma_cm/dev", buf, sizeof(buf));
	snprintf(want, sizeof(want), "%u:%u", MAJOR(devt), MINOR(devt));
	KUNIT_EXPECT_STREQ(test, buf, want);
	kt_sysfs_read(test, "/sys/class/misc/rdma_cm/abi_version", buf,
		      sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "4");
	kt_sysfs_read(test, "/proc/sys/net/rdma_ucm/max_backlog", buf,
		      sizeof(buf));
	snprintf(want, sizeof(want), "%u", *ucma_test.max_backlog);
	KUNIT_EXPECT_STREQ(test, buf, want);
}

/* The header's rules, each refusal before any command runs. */
static void ucma_header(struct kunit *test)
{
	struct uf *u = uf_open(test);
	struct rdma_ucm_create_id c = { .ps = RDMA_PS_TCP };
	unsigned int before = ucma_test.contexts();
	ssize_t ret;

	KUNIT_EXPECT_EQ(test, uf_write(u, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, uf_cmd(u, 23, &c, sizeof(c), 4, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, uf_cmd(u, U32_MAX, &c, sizeof(c), 4, 8),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, uf_cmd(u, RDMA_USER_CM_CMD_GET_OPTION, &c,
				     sizeof(c), 4, 8), -ENOSYS);
	/* a command taken: the whole write counts */
	ret = uf_cmd(u, RDMA_USER_CM_CMD_CREATE_ID, &c, sizeof(c), 4, 8);
	KUNIT_EXPECT_EQ(test, ret, (ssize_t)(8 + sizeof(c)));
	/* "in" says 8 more bytes than written */
	{
		struct rdma_ucm_cmd_hdr hdr = {
			.cmd = RDMA_USER_CM_CMD_CREATE_ID,
			.in = sizeof(c) + 8, .out = 4,
		};

		KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)u->ubuf,
						   &hdr, sizeof(hdr)), 0);
		KUNIT_EXPECT_EQ(test, uf_write(u, sizeof(hdr) + sizeof(c)),
				-EINVAL);
	}
	/* the one created above is the file's; its close takes it */
	KUNIT_EXPECT_EQ(test, ucma_test.contexts(), before + 1);
	uf_release(u);
	KUNIT_EXPECT_EQ(test, ucma_test.contexts(), before);
}

/* CREATE_ID and DESTROY_ID, their answers and refusals. */
static void ucma_create_destroy(struct kunit *test)
{
	struct uf *u = uf_open(test), *other = uf_open(test);
	struct rdma_ucm_create_id c = { .uid = 7, .ps = RDMA_PS_TCP };
	struct rdma_ucm_destroy_id d = {};
	unsigned int before = ucma_test.contexts();
	int id, id2;

	KUNIT_EXPECT_EQ(test, uf_cmd(u, RDMA_USER_CM_CMD_CREATE_ID, &c,
				     sizeof(c), 2, 8), -ENOSPC);
	c.ps = 0x1234;
	KUNIT_EXPECT_EQ(test, uf_cmd(u, RDMA_USER_CM_CMD_CREATE_ID, &c,
				     sizeof(c), 4, 8), -EINVAL);
	/* an answer that cannot be written leaves nothing behind */
	c.ps = RDMA_PS_UDP;
	c.response = 16;
	KUNIT_EXPECT_EQ(test, uf_cmd(u, RDMA_USER_CM_CMD_CREATE_ID, &c,
				     sizeof(c), 4, -1), -EFAULT);
	KUNIT_EXPECT_EQ(test, ucma_test.contexts(), before);

	id = uf_create(u, RDMA_PS_TCP, 1);
	id2 = uf_create(u, RDMA_PS_IB, 2);
	KUNIT_ASSERT_GE(test, id, 0);
	KUNIT_ASSERT_GE(test, id2, 0);
	KUNIT_EXPECT_NE(test, id, id2);
	KUNIT_EXPECT_EQ(test, ucma_test.contexts(), before + 2);

	KUNIT_EXPECT_EQ(test, uf_destroy(other, id), -EINVAL);
	KUNIT_EXPECT_EQ(test, uf_destroy(u, U32_MAX - 1), -ENOENT);
	d.id = id;
	KUNIT_EXPECT_EQ(test, uf_cmd(u, RDMA_USER_CM_CMD_DESTROY_ID, &d,
				     sizeof(d), 3, 0), -ENOSPC);
	KUNIT_EXPECT_EQ(test, uf_destroy(u, id), 0);
	KUNIT_EXPECT_EQ(test, uf_destroy(u, id), -ENOENT);
	/* an answer that cannot be written: destroyed all the same */
	d.id = id2;
	d.response = 24;
	KUNIT_EXPECT_EQ(test, uf_cmd(u, RDMA_USER_CM_CMD_DESTROY_ID, &d,
				     sizeof(d), 4, -1), -EFAULT);
	KUNIT_EXPECT_EQ(test, ucma_test.contexts(), before);
}

/* ------------------------------------------------------------------
 * Over the fake RNIC
 */

struct fx {
	struct fake_hca		*hca;
	struct net_device	*ndev;
	u16			port;
};

static int ucma_iw_init(struct kunit *test)
{
	struct fake_hca_desc *desc;
	struct kt_rtnl *rt;
	struct fx *fx;
	int ret, i;

	/* only the cases that name a device need one */
	if (!strstr(test->name, "_iw_"))
		return 0;
	fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fx);
	fx->port = BASE_PORT;
	fx->ndev = fake_hca_kunit_netdev(test, mac_a);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fx->ndev);
	rtnl_lock();
	ret = dev_change_flags(fx->ndev, fx->ndev->flags | IFF_UP, NULL);
	rtnl_unlock();
	KUNIT_ASSERT_EQ(test, ret, 0);
	rt = kt_rtnl_open(test, &init_net);
	KUNIT_ASSERT_NOT_NULL(test, rt);
	KUNIT_ASSERT_EQ(test, kt_rtnl_addr(rt, RTM_NEWADDR, fx->ndev->ifindex,
					   "192.0.2.1", 24), 0);

	desc = fake_hca_kunit_desc(test, 1);
	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = "kuucm%d";
	fake_hca_desc_set_iwarp(desc);
	desc->port[0].netdev = fx->ndev;
	fx->hca = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fx->hca);
	for (i = 0; i < 4; i++)
		KUNIT_ASSERT_NOT_NULL(test, fake_hca_iw_add_qp(fx->hca,
							       QPN + i));
	test->priv = fx;
	return 0;
}

/* A listener of @u on 192.0.2.1, uid @uid; its iw_cm id in *@iw. */
static int listener(struct kunit *test, struct uf *u, u64 uid, u32 backlog,
		    struct iw_cm_id **iw)
{
	struct fx *fx = test->priv;
	struct fake_hca_iw_call *call;
	int id = uf_create(u, RDMA_PS_TCP, uid);

	call = kunit_kzalloc(test, sizeof(*call), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, call);
	KUNIT_ASSERT_GE(test, id, 0);
	KUNIT_ASSERT_EQ(test, uf_bind(u, id, "192.0.2.1", fx->port++), 0);
	KUNIT_ASSERT_GE(test, uf_listen(u, id, backlog), 0);
	KUNIT_ASSERT_TRUE(test, fake_hca_iw_last(fx->hca,
						 FAKE_HCA_IW_CREATE_LISTEN,
						 call));
	*iw = call->cm_id;
	kunit_kfree(test, call);
	return id;
}

/* The peer 192.0.2.9 asks the listener of @iw (on the last port bound). */
static int request(struct kunit *test, struct iw_cm_id *iw, const char *pdata,
		   unsigned long n)
{
	struct fx *fx = test->priv;
	struct iw_cm_event ev = {
		.event = IW_CM_EVENT_CONNECT_REQUEST,
		.provider_data = (void *)(0x5000 + n),
		.private_data = (void *)pdata,
		.private_data_len = strlen(pdata),
		.ird = 4,
		.ord = 4,
	};
	struct sockaddr_in *l = (struct sockaddr_in *)&ev.local_addr;
	struct sockaddr_in *r = (struct sockaddr_in *)&ev.remote_addr;

	l->sin_family = AF_INET;
	l->sin_addr.s_addr = in_aton("192.0.2.1");
	l->sin_port = htons(fx->port - 1);
	r->sin_family = AF_INET;
	r->sin_addr.s_addr = in_aton("192.0.2.9");
	r->sin_port = htons(7000 + n);
	return fake_hca_iw_event(iw, &ev);
}

static int wait_events(struct uf *u, int n)
{
	unsigned long end = jiffies + msecs_to_jiffies(WAIT_MS);

	while (ucma_test.file_events(u->f) < n && time_before(jiffies, end))
		usleep_range(5000, 10000);
	return ucma_test.file_events(u->f);
}

static int wait_calls(struct fx *fx, enum fake_hca_iw_op op, unsigned int n)
{
	unsigned long end = jiffies + msecs_to_jiffies(WAIT_MS);

	while (fake_hca_iw_calls(fx->hca, op) < n &&
	       time_before(jiffies, end))
		usleep_range(5000, 10000);
	return fake_hca_iw_calls(fx->hca, op);
}

/*
 * Requests on a listener of backlog 2: two are queued, the third is
 * refused (iw_cm rejects it) until one is read; the listener destroyed
 * with two not read takes their new ids along and rejects them.
 */
static void ucma_iw_backlog(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct uf *u = uf_open(test);
	unsigned int before = ucma_test.contexts();
	struct rdma_ucm_event_resp *ev;
	unsigned int rejects;
	struct iw_cm_id *iw;
	int l;

	ev = kunit_kzalloc(test, sizeof(*ev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	l = listener(test, u, 0x77, 2, &iw);
	rejects = fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT);

	KUNIT_ASSERT_EQ(test, request(test, iw, "first", 1), 0);
	KUNIT_ASSERT_EQ(test, request(test, iw, "second", 2), 0);
	KUNIT_EXPECT_EQ(test, wait_events(u, 2), 2);
	KUNIT_ASSERT_EQ(test, request(test, iw, "third", 3), 0);
	KUNIT_EXPECT_EQ(test, wait_calls(fx, FAKE_HCA_IW_REJECT, rejects + 1),
			rejects + 1);
	KUNIT_EXPECT_EQ(test, ucma_test.file_events(u->f), 2);
	KUNIT_EXPECT_EQ(test, ucma_test.contexts(), before + 3);

	/* the first, read: the new id, the listener's uid, the data */
	KUNIT_ASSERT_EQ(test, uf_event(u, ev), 0);
	KUNIT_EXPECT_EQ(test, ev->event, (u32)RDMA_CM_EVENT_CONNECT_REQUEST);
	KUNIT_EXPECT_EQ(test, ev->uid, 0x77ULL);
	KUNIT_EXPECT_NE(test, ev->id, (u32)l);
	KUNIT_EXPECT_EQ(test, ev->param.conn.private_data_len, 5);
	KUNIT_EXPECT_MEMEQ(test, ev->param.conn.private_data, "first", 5);
	/* room for one more */
	KUNIT_ASSERT_EQ(test, request(test, iw, "fourth", 4), 0);
	KUNIT_EXPECT_EQ(test, wait_events(u, 2), 2);
	KUNIT_EXPECT_EQ(test, fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT),
			rejects + 1);

	/* destroyed with two not read: they go, rejected */
	KUNIT_EXPECT_EQ(test, uf_destroy(u, l), 1);
	KUNIT_EXPECT_EQ(test, ucma_test.file_events(u->f), 0);
	KUNIT_EXPECT_EQ(test, ucma_test.contexts(), before + 1);
	KUNIT_EXPECT_EQ(test, wait_calls(fx, FAKE_HCA_IW_REJECT, rejects + 3),
			rejects + 3);
	/* the one read is the file's until it closes */
	KUNIT_EXPECT_EQ(test, uf_destroy(u, ev->id), 0);
	KUNIT_EXPECT_EQ(test, ucma_test.contexts(), before);
}

static int accept_req(struct uf *u, u32 id, u64 uid, u32 qpn)
{
	struct rdma_ucm_accept c = { .uid = uid, .id = id };

	c.conn_param.qp_num = qpn;
	c.conn_param.valid = 1;
	c.conn_param.initiator_depth = 1;
	c.conn_param.responder_resources = 1;
	c.conn_param.private_data_len = 3;
	memcpy(c.conn_param.private_data, "yes", 3);
	return uf_cmd(u, RDMA_USER_CM_CMD_ACCEPT, &c, sizeof(c), 0, -1) < 0 ?
	       -EIO : 0;
}

static struct iw_cm_event iw_ev(enum iw_cm_event_type type)
{
	return (struct iw_cm_event){ .event = type };
}

/*
 * A request read and accepted: the accept reaches the driver with the QP
 * and private data; ESTABLISHED and DISCONNECTED carry the uid ACCEPT
 * gave; DESTROY_ID answers the events read.
 */
static void ucma_iw_accept(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct uf *u = uf_open(test);
	struct fake_hca_iw_call *call;
	struct rdma_ucm_event_resp *ev;
	struct iw_cm_event e;
	struct iw_cm_id *iw;
	int l;
	u32 n;

	ev = kunit_kzalloc(test, sizeof(*ev), GFP_KERNEL);
	call = kunit_kzalloc(test, sizeof(*call), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_ASSERT_NOT_NULL(test, call);
	l = listener(test, u, 0x78, 0, &iw);
	KUNIT_ASSERT_EQ(test, request(test, iw, "hi", 1), 0);
	KUNIT_ASSERT_EQ(test, uf_event(u, ev), 0);
	KUNIT_ASSERT_EQ(test, ev->event, (u32)RDMA_CM_EVENT_CONNECT_REQUEST);
	n = ev->id;

	KUNIT_ASSERT_EQ(test, accept_req(u, n, 0xabc, QPN), 0);
	KUNIT_ASSERT_TRUE(test, fake_hca_iw_last(fx->hca, FAKE_HCA_IW_ACCEPT,
						 call));
	KUNIT_EXPECT_EQ(test, call->qpn, QPN);
	KUNIT_EXPECT_EQ(test, call->pdata_len, 3);
	KUNIT_EXPECT_MEMEQ(test, call->pdata, "yes", 3);
	/* accepted once: a second ACCEPT is refused */
	KUNIT_EXPECT_EQ(test, accept_req(u, n, 0xabd, QPN), -EIO);

	e = iw_ev(IW_CM_EVENT_ESTABLISHED);
	KUNIT_ASSERT_EQ(test, fake_hca_iw_event(call->cm_id, &e), 0);
	KUNIT_ASSERT_EQ(test, uf_event(u, ev), 0);
	KUNIT_EXPECT_EQ(test, ev->event, (u32)RDMA_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, ev->id, n);
	KUNIT_EXPECT_EQ(test, ev->uid, 0xabcULL);

	e = iw_ev(IW_CM_EVENT_CLOSE);
	KUNIT_ASSERT_EQ(test, fake_hca_iw_event(call->cm_id, &e), 0);
	KUNIT_ASSERT_EQ(test, uf_event(u, ev), 0);
	KUNIT_EXPECT_EQ(test, ev->event, (u32)RDMA_CM_EVENT_DISCONNECTED);
	KUNIT_EXPECT_EQ(test, ev->uid, 0xabcULL);

	/* the driver lets go of the connection, as after its close */
	while (fake_hca_iw_put_id(fx->hca, call->cm_id))
		;
	KUNIT_EXPECT_EQ(test, uf_destroy(u, n), 2);
	KUNIT_EXPECT_EQ(test, uf_destroy(u, l), 1);
}

/*
 * A listener of @u (its number in *@l) and a connection it accepted and
 * the wire established (its number returned): two events read, the
 * fake's hold on the connection let go.
 */
static noinline u32 established(struct kunit *test, struct uf *u, u64 uid,
				u32 qpn, int *l)
{
	struct fx *fx = test->priv;
	struct fake_hca_iw_call *call;
	struct rdma_ucm_event_resp *ev;
	struct iw_cm_event e;
	struct iw_cm_id *iw;
	u32 n;

	ev = kunit_kzalloc(test, sizeof(*ev), GFP_KERNEL);
	call = kunit_kzalloc(test, sizeof(*call), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_ASSERT_NOT_NULL(test, call);
	*l = listener(test, u, 0x79, 0, &iw);
	KUNIT_ASSERT_EQ(test, request(test, iw, "hi", 1), 0);
	KUNIT_ASSERT_EQ(test, uf_event(u, ev), 0);
	n = ev->id;
	KUNIT_ASSERT_EQ(test, accept_req(u, n, uid, qpn), 0);
	KUNIT_ASSERT_TRUE(test, fake_hca_iw_last(fx->hca, FAKE_HCA_IW_ACCEPT,
						 call));
	e = iw_ev(IW_CM_EVENT_ESTABLISHED);
	KUNIT_ASSERT_EQ(test, fake_hca_iw_event(call->cm_id, &e), 0);
	KUNIT_ASSERT_EQ(test, uf_event(u, ev), 0);
	KUNIT_ASSERT_EQ(test, ev->event, (u32)RDMA_CM_EVENT_ESTABLISHED);
	while (fake_hca_iw_put_id(fx->hca, call->cm_id))
		;
	return n;
}

/*
 * The device goes under a listener and a connection: DEVICE_REMOVAL for
 * both, the removal does not wait for user space; their commands answer
 * -ENXIO, DESTROY_ID the events read.
 */
static void ucma_iw_device_removal(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct uf *u = uf_open(test);
	unsigned int before = ucma_test.contexts();
	struct rdma_ucm_event_resp *ev;
	struct rdma_ucm_resolve_route rr = {};
	int l, seen = 0, i;
	u32 n;

	ev = kunit_kzalloc(test, sizeof(*ev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	n = established(test, u, 0xdef, QPN + 1, &l);

	/* returns once rdma_ucm destroyed the rdma_cm ids by itself */
	fake_hca_kunit_destroy(test, fx->hca);
	for (i = 0; i < 2; i++) {
		KUNIT_ASSERT_EQ(test, uf_event(u, ev), 0);
		KUNIT_EXPECT_EQ(test, ev->event,
				(u32)RDMA_CM_EVENT_DEVICE_REMOVAL);
		if (ev->id == l && ev->uid == 0x79)
			seen |= 1;
		if (ev->id == n && ev->uid == 0xdef)
			seen |= 2;
	}
	KUNIT_EXPECT_EQ(test, seen, 3);
	rr.id = n;
	KUNIT_EXPECT_EQ(test, uf_cmd(u, RDMA_USER_CM_CMD_RESOLVE_ROUTE, &rr,
				     sizeof(rr), 0, -1), -ENXIO);
	KUNIT_EXPECT_EQ(test, uf_listen(u, l, 1), -ENXIO);
	KUNIT_EXPECT_EQ(test, uf_destroy(u, n), 2);
	KUNIT_EXPECT_EQ(test, uf_destroy(u, l), 2);
	KUNIT_EXPECT_EQ(test, ucma_test.contexts(), before);
}

/* A file closed with a listener, requests not read and a connection. */
static void ucma_iw_close_busy(struct kunit *test)
{
	struct fx *fx = test->priv;
	struct uf *u = uf_open(test);
	unsigned int before = ucma_test.contexts();
	struct fake_hca_iw_call *call;
	struct rdma_ucm_event_resp *ev;
	struct iw_cm_id *iw;
	unsigned int rejects;

	ev = kunit_kzalloc(test, sizeof(*ev), GFP_KERNEL);
	call = kunit_kzalloc(test, sizeof(*call), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_ASSERT_NOT_NULL(test, call);
	listener(test, u, 0x7a, 0, &iw);
	KUNIT_ASSERT_EQ(test, request(test, iw, "a", 1), 0);
	KUNIT_ASSERT_EQ(test, uf_event(u, ev), 0);
	KUNIT_ASSERT_EQ(test, accept_req(u, ev->id, 0x1, QPN + 2), 0);
	KUNIT_ASSERT_TRUE(test, fake_hca_iw_last(fx->hca, FAKE_HCA_IW_ACCEPT,
						 call));
	/* the driver would hold it until the close; the fake need not */
	while (fake_hca_iw_put_id(fx->hca, call->cm_id))
		;
	KUNIT_ASSERT_EQ(test, request(test, iw, "b", 2), 0);
	KUNIT_ASSERT_EQ(test, request(test, iw, "c", 3), 0);
	KUNIT_EXPECT_EQ(test, wait_events(u, 2), 2);
	KUNIT_EXPECT_EQ(test, ucma_test.contexts(), before + 4);
	rejects = fake_hca_iw_calls(fx->hca, FAKE_HCA_IW_REJECT);

	uf_release(u);
	KUNIT_EXPECT_EQ(test, ucma_test.contexts(), before);
	KUNIT_EXPECT_EQ(test, ucma_test.groups(), 0U);
	/* the two requests not read are refused */
	KUNIT_EXPECT_EQ(test, wait_calls(fx, FAKE_HCA_IW_REJECT, rejects + 2),
			rejects + 2);
}

static struct kunit_case ucma_cases[] = {
	KUNIT_CASE(ucma_chardev),
	KUNIT_CASE(ucma_header),
	KUNIT_CASE(ucma_create_destroy),
	KUNIT_CASE(ucma_iw_backlog),
	KUNIT_CASE(ucma_iw_accept),
	KUNIT_CASE(ucma_iw_device_removal),
	KUNIT_CASE(ucma_iw_close_busy),
	{}
};

static struct kunit_suite ucma_suite = {
	.name = "rdma_ucm",
	.init = ucma_iw_init,
	.test_cases = ucma_cases,
};

kunit_test_suite(ucma_suite);

MODULE_DESCRIPTION("KUnit suite of rdma_ucm");
MODULE_LICENSE("Dual BSD/GPL");
