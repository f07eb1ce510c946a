// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ucmatest: rdma_ucm's user ABI by raw write()s on /dev/infiniband/rdma_cm,
 * the way librdmacm uses it and the ways a broken or hostile process
 * might.
 *
 *   ucmatest A NS B          the checks (KTAP)
 *   ucmatest hold A READY    the device-removal half (KTAP): see hold()
 *
 * A is an IPv4 address of the initial network namespace on a RoCE or
 * InfiniBand port (rxe0's net device, or IPoIB); NS names a network
 * namespace (/run/netns/NS) holding B, an address of another RDMA port
 * with a route to A.  A file opened in NS plays the clients, one opened
 * here the servers.  The connections made carry no data and have no QPs:
 * the CM exchanges alone (REQ, REP, RTU, REJ, DREQ), with the QP
 * numbers the tool makes up.
 *
 * Checked: the header's rules (short writes, unknown commands, "in" past
 * the write, GET_OPTION's -ENOSYS, unreadable buffers), each command's
 * refusals (sizes, families, reserved fields, port spaces, join flags,
 * reject reasons, QP states, options, ids of nobody and of another file,
 * ids without a device) and its answers (-ENOSPC for a response too
 * small, -EFAULT for a response address that is not writable), the
 * events (blocking, non-blocking, poll(), a signal, an answer that could
 * not be written stays queued), DESTROY_ID and LEAVE_MCAST answering the
 * events read and dropping those not read, a listener's backlog and its
 * requests destroyed with it, connect, accept, reject (with private
 * data) and disconnect, INIT_QP_ATTR, MIGRATE_ID between two files with
 * the events pending, the namespace of the file's opener, and processes
 * that exit or are killed with ids in every state (their ids all gone
 * from "rdma resource show cm_id").  Exits 0 when every case passed.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include <rdma/rdma_user_cm.h>

#include "../tool_ktap.h"

#define CM_DEV		"/dev/infiniband/rdma_cm"
#define NCASES		105
#define NCASES_HOLD	6

/* what the kernel's enums say (include/rdma/ib_verbs.h, ib_cm.h) */
enum {
	QPS_INIT		= 1,
	QPS_RTR			= 2,
	QPS_ERR			= 6,
	QP_STATE		= 0x1,
	QP_ACCESS_FLAGS		= 0x8,
	QP_PKEY_INDEX		= 0x10,
	QP_PORT			= 0x20,
	QP_QKEY			= 0x40,
	QP_AV			= 0x80,
	QP_DEST_QPN		= 0x100000,
	REJ_CONSUMER_DEFINED	= 28,
	UDP_QKEY		= 0x01234567,
	AF_IB_			= 27,
};

/* enum rdma_cm_event_type */
enum {
	EV_ADDR_RESOLVED, EV_ADDR_ERROR, EV_ROUTE_RESOLVED, EV_ROUTE_ERROR,
	EV_CONNECT_REQUEST, EV_CONNECT_RESPONSE, EV_CONNECT_ERROR,
	EV_UNREACHABLE, EV_REJECTED, EV_ESTABLISHED, EV_DISCONNECTED,
	EV_DEVICE_REMOVAL, EV_MULTICAST_JOIN, EV_MULTICAST_ERROR,
	EV_ADDR_CHANGE, EV_TIMEWAIT_EXIT,
};

static const char *ev_name(unsigned int ev)
{
	static const char * const names[] = {
		"ADDR_RESOLVED", "ADDR_ERROR", "ROUTE_RESOLVED",
		"ROUTE_ERROR", "CONNECT_REQUEST", "CONNECT_RESPONSE",
		"CONNECT_ERROR", "UNREACHABLE", "REJECTED", "ESTABLISHED",
		"DISCONNECTED", "DEVICE_REMOVAL", "MULTICAST_JOIN",
		"MULTICAST_ERROR", "ADDR_CHANGE", "TIMEWAIT_EXIT",
	};

	return ev < 16 ? names[ev] : "?";
}

static struct sockaddr_in addr_a, addr_b;
static const char *ns_b;
/* the tool's own namespace, to come back to */
static int ns_home = -1;
/* the next port to use: each case its own */
static uint16_t next_port = 18400;

/* ------------------------------------------------------------------
 * Files and raw commands
 */

static int cm_open(void)
{
	return open(CM_DEV, O_RDWR | O_CLOEXEC);
}

/* Enter namespace @ns (a name under /run/netns) or, NULL, come home. */
static int enter_ns(const char *ns)
{
	char path[128];
	int fd, ret;

	if (!ns)
		return setns(ns_home, CLONE_NEWNET);
	snprintf(path, sizeof(path), "/run/netns/%s", ns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ret = setns(fd, CLONE_NEWNET);
	close(fd);
	return ret;
}

/* A file opened while this task is in namespace @ns. */
static int cm_open_in(const char *ns)
{
	int fd;

	if (enter_ns(ns))
		return -1;
	fd = cm_open();
	if (enter_ns(NULL)) {
		perror("setns home");
		exit(2);
	}
	return fd;
}

/* One write: the header, then @in bytes of @req (which may say more). */
static long cm_write(int fd, uint32_t op, const void *req, uint16_t in,
		     uint16_t out)
{
	struct {
		struct rdma_ucm_cmd_hdr hdr;
		uint8_t req[1024];
	} c;

	memset(&c, 0, sizeof(c));
	c.hdr.cmd = op;
	c.hdr.in = in;
	c.hdr.out = out;
	memcpy(c.req, req, in);
	return write(fd, &c, sizeof(c.hdr) + in);
}

/* The same with the whole request and its natural answer size. */
#define CMD(fd, op, req, out) cm_write(fd, op, req, sizeof(*(req)), out)

/* A new id of port space @ps with @uid: its number, or -errno. */
static int create_id(int fd, uint16_t ps, uint64_t uid)
{
	struct rdma_ucm_create_id_resp resp = { .id = 0xdead };
	struct rdma_ucm_create_id c = {
		.uid = uid, .response = (uintptr_t)&resp, .ps = ps,
		.qp_type = 2, /* IB_QPT_RC, for RDMA_PS_IB */
	};

	if (CMD(fd, RDMA_USER_CM_CMD_CREATE_ID, &c, sizeof(resp)) < 0)
		return -errno;
	return resp.id;
}

/* Destroy: the events read, or -errno. */
static int destroy_id(int fd, uint32_t id)
{
	struct rdma_ucm_destroy_id_resp resp = { .events_reported = 9999 };
	struct rdma_ucm_destroy_id c = { .response = (uintptr_t)&resp,
					 .id = id };

	if (CMD(fd, RDMA_USER_CM_CMD_DESTROY_ID, &c, sizeof(resp)) < 0)
		return -errno;
	return resp.events_reported;
}

static struct sockaddr_in sin_port(const struct sockaddr_in *a, uint16_t port)
{
	struct sockaddr_in s = *a;

	s.sin_port = htons(port);
	return s;
}

static int bind_addr(int fd, uint32_t id, const struct sockaddr_in *sin)
{
	struct rdma_ucm_bind c = { .id = id, .addr_size = sizeof(*sin) };

	memcpy(&c.addr, sin, sizeof(*sin));
	return CMD(fd, RDMA_USER_CM_CMD_BIND, &c, 0) < 0 ? -errno : 0;
}

static int resolve_addr(int fd, uint32_t id, const struct sockaddr_in *src,
			const struct sockaddr_in *dst)
{
	struct rdma_ucm_resolve_addr c = { .id = id, .timeout_ms = 4000,
					   .dst_size = sizeof(*dst) };

	if (src) {
		c.src_size = sizeof(*src);
		memcpy(&c.src_addr, src, sizeof(*src));
	}
	memcpy(&c.dst_addr, dst, sizeof(*dst));
	return CMD(fd, RDMA_USER_CM_CMD_RESOLVE_ADDR, &c, 0) < 0 ? -errno : 0;
}

static int resolve_route(int fd, uint32_t id)
{
	struct rdma_ucm_resolve_route c = { .id = id, .timeout_ms = 4000 };

	return CMD(fd, RDMA_USER_CM_CMD_RESOLVE_ROUTE, &c, 0) < 0 ? -errno : 0;
}

static int listen_id(int fd, uint32_t id, uint32_t backlog)
{
	struct rdma_ucm_listen c = { .id = id, .backlog = backlog };

	return CMD(fd, RDMA_USER_CM_CMD_LISTEN, &c, 0) < 0 ? -errno : 0;
}

static void conn_param(struct rdma_ucm_conn_param *p, uint32_t qpn,
		       const char *pdata)
{
	memset(p, 0, sizeof(*p));
	p->qp_num = qpn;
	p->responder_resources = 1;
	p->initiator_depth = 1;
	p->retry_count = 7;
	p->rnr_retry_count = 7;
	p->valid = 1;
	if (pdata) {
		p->private_data_len = strlen(pdata);
		memcpy(p->private_data, pdata, p->private_data_len);
	}
}

static int connect_id(int fd, uint32_t id, uint32_t qpn, const char *pdata)
{
	struct rdma_ucm_connect c = { .id = id };

	conn_param(&c.conn_param, qpn, pdata);
	return CMD(fd, RDMA_USER_CM_CMD_CONNECT, &c, 0) < 0 ? -errno : 0;
}

/* @qpn 0: the active side's ACCEPT after CONNECT_RESPONSE (no params) */
static int accept_id(int fd, uint32_t id, uint64_t uid, uint32_t qpn,
		     const char *pdata)
{
	struct rdma_ucm_accept c = { .id = id, .uid = uid };

	if (qpn)
		conn_param(&c.conn_param, qpn, pdata);
	return CMD(fd, RDMA_USER_CM_CMD_ACCEPT, &c, 0) < 0 ? -errno : 0;
}

static int reject_id(int fd, uint32_t id, const char *pdata, uint8_t reason)
{
	struct rdma_ucm_reject c = { .id = id, .reason = reason };

	if (pdata) {
		c.private_data_len = strlen(pdata);
		memcpy(c.private_data, pdata, c.private_data_len);
	}
	return CMD(fd, RDMA_USER_CM_CMD_REJECT, &c, 0) < 0 ? -errno : 0;
}

static int disconnect_id(int fd, uint32_t id)
{
	struct rdma_ucm_disconnect c = { .id = id };

	return CMD(fd, RDMA_USER_CM_CMD_DISCONNECT, &c, 0) < 0 ? -errno : 0;
}

static int query_addr(int fd, uint32_t id, struct rdma_ucm_query_addr_resp *r)
{
	struct rdma_ucm_query c = { .response = (uintptr_t)r, .id = id,
				    .option = RDMA_USER_CM_QUERY_ADDR };

	memset(r, 0, sizeof(*r));
	return CMD(fd, RDMA_USER_CM_CMD_QUERY, &c, sizeof(*r)) < 0 ? -errno : 0;
}

static int init_qp_attr(int fd, uint32_t id, uint32_t state,
			struct ib_uverbs_qp_attr *r)
{
	struct rdma_ucm_init_qp_attr c = { .response = (uintptr_t)r,
					   .id = id, .qp_state = state };

	memset(r, 0, sizeof(*r));
	return CMD(fd, RDMA_USER_CM_CMD_INIT_QP_ATTR, &c, sizeof(*r)) < 0 ?
		-errno : 0;
}

static int set_option(int fd, uint32_t id, uint32_t level, uint32_t name,
		      const void *val, uint32_t len)
{
	struct rdma_ucm_set_option c = { .optval = (uintptr_t)val, .id = id,
					 .level = level, .optname = name,
					 .optlen = len };

	return CMD(fd, RDMA_USER_CM_CMD_SET_OPTION, &c, 0) < 0 ? -errno : 0;
}

/* A group's number, or -errno. */
static int join(int fd, uint32_t id, uint64_t uid, const struct sockaddr_in *g,
		uint16_t flags)
{
	struct rdma_ucm_create_id_resp resp = {};
	struct rdma_ucm_join_mcast c = { .response = (uintptr_t)&resp,
					 .uid = uid, .id = id,
					 .addr_size = sizeof(*g),
					 .join_flags = flags };

	memcpy(&c.addr, g, sizeof(*g));
	if (CMD(fd, RDMA_USER_CM_CMD_JOIN_MCAST, &c, sizeof(resp)) < 0)
		return -errno;
	return resp.id;
}

static int leave(int fd, uint32_t mc)
{
	struct rdma_ucm_destroy_id_resp resp = { .events_reported = 9999 };
	struct rdma_ucm_destroy_id c = { .response = (uintptr_t)&resp,
					 .id = mc };

	if (CMD(fd, RDMA_USER_CM_CMD_LEAVE_MCAST, &c, sizeof(resp)) < 0)
		return -errno;
	return resp.events_reported;
}

static int migrate(int fd, uint32_t id, int from_fd)
{
	struct rdma_ucm_migrate_resp resp = { .events_reported = 9999 };
	struct rdma_ucm_migrate_id c = { .response = (uintptr_t)&resp,
					 .id = id, .fd = from_fd };

	if (CMD(fd, RDMA_USER_CM_CMD_MIGRATE_ID, &c, sizeof(resp)) < 0)
		return -errno;
	return resp.events_reported;
}

/* GET_EVENT now (the file may be non-blocking): 0 or -errno. */
static int get_event(int fd, struct rdma_ucm_event_resp *ev)
{
	struct rdma_ucm_get_event c = { .response = (uintptr_t)ev };

	memset(ev, 0, sizeof(*ev));
	return CMD(fd, RDMA_USER_CM_CMD_GET_EVENT, &c, sizeof(*ev)) < 0 ?
		-errno : 0;
}

/* An event within @ms (poll(), then GET_EVENT): 0, or -ETIME. */
static int wait_ev(int fd, struct rdma_ucm_event_resp *ev, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, ms) != 1)
		return -ETIME;
	return get_event(fd, ev);
}

/*
 * Wait for event @want of id @id on @fd (others before it are skipped
 * and printed); 0 when it came within 8 s.
 */
static int expect_ev(int fd, uint32_t id, unsigned int want,
		     struct rdma_ucm_event_resp *ev)
{
	int i;

	for (i = 0; i < 16; i++) {
		if (wait_ev(fd, ev, 8000))
			return -1;
		if (ev->id == id && ev->event == want)
			return 0;
		printf("# (event %s status %d id %u skipped)\n",
		       ev_name(ev->event), (int)ev->status, ev->id);
	}
	return -1;
}

/* poll() says POLLIN within 8 s */
static int wait_pending(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 8000) == 1 && (p.revents & POLLIN);
}

/* Whether an event is queued now */
static int pending(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

/* An id of @fd bound to A:port (RC), or -errno */
static int bound_id(int fd, uint16_t ps, uint64_t uid, uint16_t port)
{
	struct sockaddr_in s = sin_port(&addr_a, port);
	int id = create_id(fd, ps, uid), ret;

	if (id < 0)
		return id;
	ret = bind_addr(fd, id, &s);
	if (ret) {
		destroy_id(fd, id);
		return ret;
	}
	return id;
}

/*
 * A client id of @fd (opened in NS) with its route to A:@port resolved
 * (both events read): its number, or -1.
 */
static int routed_client(int fd, uint64_t uid, uint16_t port)
{
	struct sockaddr_in dst = sin_port(&addr_a, port);
	struct rdma_ucm_event_resp ev;
	int id = create_id(fd, RDMA_PS_TCP, uid);

	if (id < 0)
		return -1;
	if (resolve_addr(fd, id, &addr_b, &dst) ||
	    expect_ev(fd, id, EV_ADDR_RESOLVED, &ev) ||
	    resolve_route(fd, id) ||
	    expect_ev(fd, id, EV_ROUTE_RESOLVED, &ev)) {
		printf("# no route to A:%u\n", port);
		destroy_id(fd, id);
		return -1;
	}
	return id;
}

/* "rdma resource show cm_id" lines naming @pid */
static int cm_ids_of(pid_t pid)
{
	char line[512], want[32];
	int n = 0;
	FILE *p;

	snprintf(want, sizeof(want), " pid %d ", (int)pid);
	p = popen("rdma resource show cm_id 2>&1", "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p))
		if (strstr(line, want)) {
			printf("# left: %s", line);
			n++;
		}
	pclose(p);
	return n;
}

/* wait up to 10 s for @pid's cm_ids to be gone */
static int cm_ids_gone(pid_t pid)
{
	int i;

	for (i = 0; i < 50; i++) {
		if (!cm_ids_of(pid))
			return 1;
		usleep(200000);
	}
	return 0;
}

/* ------------------------------------------------------------------
 * The cases
 */

static void test_header(int fd)
{
	struct rdma_ucm_create_id_resp resp;
	struct rdma_ucm_create_id c = { .response = (uintptr_t)&resp,
					.ps = RDMA_PS_TCP };
	struct {
		struct rdma_ucm_cmd_hdr hdr;
		uint8_t req[64];
	} w = {};
	long page = sysconf(_SC_PAGESIZE);
	uint8_t *map;

	expect_err("a write shorter than a header: EINVAL",
		   write(fd, &w, 4), EINVAL);
	expect_err("command 23, past the last: EINVAL",
		   cm_write(fd, 23, &c, sizeof(c), sizeof(resp)), EINVAL);
	expect_err("command 0xffffffff: EINVAL",
		   cm_write(fd, 0xffffffff, &c, sizeof(c), sizeof(resp)),
		   EINVAL);
	w.hdr.cmd = RDMA_USER_CM_CMD_CREATE_ID;
	w.hdr.in = 40;
	w.hdr.out = sizeof(resp);
	memcpy(w.req, &c, sizeof(c));
	expect_err("'in' past the bytes written: EINVAL",
		   write(fd, &w, sizeof(w.hdr) + 24), EINVAL);
	expect_err("GET_OPTION, never served: ENOSYS",
		   cm_write(fd, RDMA_USER_CM_CMD_GET_OPTION, &c, sizeof(c),
			    16), ENOSYS);

	/* a page, then an unmapped one */
	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		result(0, "a buffer not mapped: EFAULT", "mmap: %s",
		       strerror(errno));
		result(0, "a request running into an unmapped page: EFAULT",
		       "mmap");
		return;
	}
	munmap(map + page, page);
	expect_err("a buffer not mapped: EFAULT",
		   write(fd, map + page, 32), EFAULT);
	/* the header at the page's end: readable, its request is not */
	memcpy(map + page - sizeof(w.hdr), &w.hdr, sizeof(w.hdr));
	((struct rdma_ucm_cmd_hdr *)(map + page - sizeof(w.hdr)))->in = 0;
	expect_err("a request running into an unmapped page: EFAULT",
		   write(fd, map + page - sizeof(w.hdr), sizeof(w.hdr)),
		   EFAULT);
	munmap(map, page);
}

static void test_create_destroy(int fd, int other)
{
	struct rdma_ucm_create_id_resp resp;
	struct rdma_ucm_create_id c = { .response = (uintptr_t)&resp,
					.ps = RDMA_PS_TCP, .uid = 1 };
	struct rdma_ucm_destroy_id d = {};
	long ret;
	int id, id2;

	ret = CMD(fd, RDMA_USER_CM_CMD_CREATE_ID, &c, sizeof(resp));
	result(ret == (long)(sizeof(struct rdma_ucm_cmd_hdr) + sizeof(c)),
	       "CREATE_ID (TCP): the whole write is taken", "got %ld (%s)",
	       ret, ret < 0 ? strerror(errno) : "");
	id = resp.id;
	c.ps = 0x9999;
	expect_err("CREATE_ID of an unknown port space: EINVAL",
		   CMD(fd, RDMA_USER_CM_CMD_CREATE_ID, &c, sizeof(resp)),
		   EINVAL);
	c.ps = RDMA_PS_UDP;
	expect_err("CREATE_ID with room for 2 bytes of answer: ENOSPC",
		   CMD(fd, RDMA_USER_CM_CMD_CREATE_ID, &c, 2), ENOSPC);
	c.response = 8;
	expect_err("CREATE_ID answering to address 8: EFAULT",
		   CMD(fd, RDMA_USER_CM_CMD_CREATE_ID, &c, sizeof(resp)),
		   EFAULT);
	c.response = (uintptr_t)&resp;
	c.ps = RDMA_PS_IB;
	c.qp_type = 4; /* IB_QPT_UD */
	id2 = CMD(fd, RDMA_USER_CM_CMD_CREATE_ID, &c, sizeof(resp)) < 0 ?
	      -errno : (int)resp.id;
	result(id2 >= 0 && id2 != id, "CREATE_ID (IB, UD): another number",
	       "got %d after %d", id2, id);
	c.ps = RDMA_PS_IPOIB;
	ret = CMD(fd, RDMA_USER_CM_CMD_CREATE_ID, &c, sizeof(resp));
	result(ret > 0 && !destroy_id(fd, resp.id),
	       "CREATE_ID (IPoIB), DESTROY_ID: none read", "%s",
	       strerror(errno));

	result(destroy_id(fd, 0x7fffffff) == -ENOENT,
	       "DESTROY_ID of a number never given: ENOENT", "");
	d.id = id;
	d.response = (uintptr_t)&resp;
	expect_err("DESTROY_ID with no room for the answer: ENOSPC",
		   CMD(fd, RDMA_USER_CM_CMD_DESTROY_ID, &d, 0), ENOSPC);
	result(destroy_id(other, id) == -EINVAL,
	       "DESTROY_ID of another file's id: EINVAL", "");
	d.response = 16;
	expect_err("DESTROY_ID answering to address 16: EFAULT",
		   CMD(fd, RDMA_USER_CM_CMD_DESTROY_ID, &d, sizeof(resp)),
		   EFAULT);
	result(destroy_id(fd, id) == -ENOENT,
	       "... and the id is gone all the same: ENOENT", "");
	result(destroy_id(fd, id2) == 0, "DESTROY_ID (IB): 0 events read",
	       "");
}

static void test_bind_query(int fd, int other)
{
	struct rdma_ucm_query_addr_resp qa;
	struct rdma_ucm_query_route_resp qr;
	struct rdma_ucm_query q = {};
	struct rdma_ucm_bind_ip bi = {};
	struct rdma_ucm_bind b = {};
	struct sockaddr_in s = sin_port(&addr_a, next_port);
	struct {
		uint32_t num_paths, reserved;
		uint8_t data[128 * 2];
	} qp;
	int id, id2, ret;

	id = create_id(fd, RDMA_PS_TCP, 2);
	bi.id = id;
	bi.addr.sin6_family = AF_UNIX;
	expect_err("BIND_IP of family AF_UNIX: EINVAL",
		   CMD(fd, RDMA_USER_CM_CMD_BIND_IP, &bi, 0), EINVAL);
	b.id = id;
	b.addr_size = 8;
	memcpy(&b.addr, &s, sizeof(s));
	expect_err("BIND with a size not the family's: EINVAL",
		   CMD(fd, RDMA_USER_CM_CMD_BIND, &b, 0), EINVAL);
	b.addr_size = sizeof(s);
	b.reserved = 1;
	expect_err("BIND with its reserved field set: EINVAL",
		   CMD(fd, RDMA_USER_CM_CMD_BIND, &b, 0), EINVAL);
	result(bind_addr(other, id, &s) == -EINVAL,
	       "BIND of another file's id: EINVAL", "");
	ret = bind_addr(fd, id, &s);
	result(!ret && !query_addr(fd, id, &qa) &&
	       qa.src_size == sizeof(s) &&
	       !memcmp(&qa.src_addr, &s, sizeof(s)) && qa.node_guid &&
	       qa.port_num == 1,
	       "BIND to A, QUERY ADDR: A, a device, port 1",
	       "bind %d src_size %u guid %llx port %u", ret, qa.src_size,
	       (unsigned long long)qa.node_guid, qa.port_num);
	id2 = create_id(fd, RDMA_PS_TCP, 3);
	ret = bind_addr(fd, id2, &s);
	result(ret == -EADDRINUSE || ret == -EADDRNOTAVAIL,
	       "a second id on A and the same port: refused", "got %d", ret);
	destroy_id(fd, id2);

	q.id = id;
	q.response = (uintptr_t)&qa;
	q.option = 77;
	expect_err("QUERY of option 77: ENOSYS",
		   CMD(fd, RDMA_USER_CM_CMD_QUERY, &q, sizeof(qa)), ENOSYS);
	q.option = RDMA_USER_CM_QUERY_ADDR;
	expect_err("QUERY ADDR with room for 16 bytes: ENOSPC",
		   CMD(fd, RDMA_USER_CM_CMD_QUERY, &q, 16), ENOSPC);
	expect_err("QUERY ADDR of another file's id: EINVAL",
		   CMD(other, RDMA_USER_CM_CMD_QUERY, &q, sizeof(qa)), EINVAL);
	q.option = RDMA_USER_CM_QUERY_PATH;
	q.response = (uintptr_t)&qp;
	expect_err("QUERY PATH with room for 4 bytes: ENOSPC",
		   CMD(fd, RDMA_USER_CM_CMD_QUERY, &q, 4), ENOSPC);
	memset(&qp, 0xff, sizeof(qp));
	ret = CMD(fd, RDMA_USER_CM_CMD_QUERY, &q, sizeof(qp));
	result(ret > 0 && qp.num_paths == 0,
	       "QUERY PATH of a bound id: no path", "num_paths %u",
	       qp.num_paths);
	q.option = RDMA_USER_CM_QUERY_GID;
	q.response = (uintptr_t)&qa;
	ret = CMD(fd, RDMA_USER_CM_CMD_QUERY, &q, sizeof(qa));
	result(ret > 0 && qa.src_size == 48 &&
	       *(uint16_t *)&qa.src_addr == AF_IB_,
	       "QUERY GID: the ends as AF_IB addresses", "src_size %u",
	       qa.src_size);
	q.response = 24;
	expect_err("QUERY GID answering to address 24: EFAULT",
		   CMD(fd, RDMA_USER_CM_CMD_QUERY, &q, sizeof(qa)), EFAULT);

	q.response = (uintptr_t)&qr;
	q.option = 0;
	expect_err("QUERY_ROUTE with room for 16 bytes: ENOSPC",
		   CMD(fd, RDMA_USER_CM_CMD_QUERY_ROUTE, &q, 16), ENOSPC);
	memset(&qr, 0xff, sizeof(qr));
	ret = CMD(fd, RDMA_USER_CM_CMD_QUERY_ROUTE, &q,
		  offsetof(struct rdma_ucm_query_route_resp, ibdev_index));
	result(ret > 0 && qr.node_guid == qa.node_guid &&
	       qr.ibdev_index == 0xffffffff &&
	       !memcmp(&qr.src_addr, &s, sizeof(s)),
	       "QUERY_ROUTE in the old size: the rest untouched", "");
	q.response = 40;
	expect_err("QUERY_ROUTE answering to address 40: EFAULT",
		   CMD(fd, RDMA_USER_CM_CMD_QUERY_ROUTE, &q, sizeof(qr)),
		   EFAULT);
	destroy_id(fd, id);
	next_port++;
}

/* The file of the opener's namespace, not the writer's. */
static void test_netns(void)
{
	struct sockaddr_in s = sin_port(&addr_a, next_port++);
	int fb = cm_open_in(ns_b), fa = cm_open(), id, ret;

	id = create_id(fb, RDMA_PS_TCP, 4);
	ret = bind_addr(fb, id, &s);
	result(ret == -EADDRNOTAVAIL,
	       "a file opened in NS: A is none of its addresses",
	       "bind got %d", ret);
	destroy_id(fb, id);
	if (enter_ns(ns_b)) {
		result(0, "a file opened here, written from NS: A is its",
		       "setns: %s", strerror(errno));
	} else {
		id = create_id(fa, RDMA_PS_TCP, 5);
		ret = bind_addr(fa, id, &s);
		enter_ns(NULL);
		result(!ret, "a file opened here, written from NS: A is its",
		       "bind got %d", ret);
		destroy_id(fa, id);
	}
	close(fa);
	close(fb);
}

static void test_refusals(int fd)
{
	struct ib_uverbs_qp_attr qa;
	struct rdma_ucm_resolve_addr ra = {};
	struct rdma_ucm_connect cn = {};
	struct rdma_ucm_accept ac = {};
	struct rdma_ucm_init_qp_attr ia = { .response = (uintptr_t)&qa };
	struct rdma_ucm_notify no = {};
	struct rdma_ucm_join_mcast jm = {};
	struct rdma_ucm_join_ip_mcast jip = {};
	struct rdma_ucm_destroy_id lv = {};
	struct sockaddr_in g = { .sin_family = AF_INET };
	uint32_t resp[2];
	uint8_t tos = 16, big[96] = {};
	int one = 1, id, ud, bid, ret;

	id = create_id(fd, RDMA_PS_TCP, 6);
	ud = create_id(fd, RDMA_PS_UDP, 7);
	bid = bound_id(fd, RDMA_PS_TCP, 8, next_port++);

	ra.id = id;
	memcpy(&ra.dst_addr, &addr_a, sizeof(addr_a));
	expect_err("RESOLVE_ADDR without a destination size: EINVAL",
		   CMD(fd, RDMA_USER_CM_CMD_RESOLVE_ADDR, &ra, 0), EINVAL);
	ra.dst_size = 28;
	expect_err("RESOLVE_ADDR with the size of an IPv6 one: EINVAL",
		   CMD(fd, RDMA_USER_CM_CMD_RESOLVE_ADDR, &ra, 0), EINVAL);
	result(resolve_route(fd, id) == -EINVAL,
	       "RESOLVE_ROUTE of an id without a device: EINVAL", "");

	cn.id = bid;
	conn_param(&cn.conn_param, 0x100, NULL);
	expect_err("CONNECT of 10 bytes: EINVAL",
		   cm_write(fd, RDMA_USER_CM_CMD_CONNECT, &cn, 10, 0), EINVAL);
	cn.conn_param.valid = 0;
	expect_err("CONNECT without valid parameters: EINVAL",
		   CMD(fd, RDMA_USER_CM_CMD_CONNECT, &cn, 0), EINVAL);
	result(connect_id(fd, id, 0x100, NULL) == -EINVAL,
	       "CONNECT of an id without a device: EINVAL", "");
	result(connect_id(fd, bid, 0x100, NULL) == -EINVAL,
	       "CONNECT of an id without a route: EINVAL", "");
	ac.id = bid;
	expect_err("ACCEPT of 12 bytes: EINVAL",
		   cm_write(fd, RDMA_USER_CM_CMD_ACCEPT, &ac, 12, 0), EINVAL);
	result(accept_id(fd, id, 9, 0x100, NULL) == -EINVAL,
	       "ACCEPT of an id without a device: EINVAL", "");
	result(accept_id(fd, bid, 9, 0x100, NULL) == -EINVAL,
	       "ACCEPT of an id with no request: EINVAL", "");
	result(reject_id(fd, bid, NULL, 5) == -EINVAL,
	       "REJECT with reason 5: EINVAL", "");
	result(reject_id(fd, bid, "x", 0) == -EINVAL,
	       "REJECT of an id with no request: EINVAL", "");
	result(disconnect_id(fd, id) == -EINVAL &&
	       disconnect_id(fd, bid) == -EINVAL,
	       "DISCONNECT without a device, without a connection: EINVAL",
	       "");
	no.id = id;
	expect_err("NOTIFY of an id without a device: EINVAL",
		   CMD(fd, RDMA_USER_CM_CMD_NOTIFY, &no, 0), EINVAL);

	ia.id = bid;
	ia.qp_state = QPS_INIT;
	expect_err("INIT_QP_ATTR with room for 16 bytes: ENOSPC",
		   CMD(fd, RDMA_USER_CM_CMD_INIT_QP_ATTR, &ia, 16), ENOSPC);
	ia.qp_state = QPS_ERR + 1;
	expect_err("INIT_QP_ATTR of QP state 7: EINVAL",
		   CMD(fd, RDMA_USER_CM_CMD_INIT_QP_ATTR, &ia, sizeof(qa)),
		   EINVAL);
	result(init_qp_attr(fd, id, QPS_INIT, &qa) == -EINVAL,
	       "INIT_QP_ATTR of an id without a device: EINVAL", "");
	ret = init_qp_attr(fd, bid, QPS_INIT, &qa);
	result(!ret && qa.qp_attr_mask == (QP_STATE | QP_ACCESS_FLAGS |
					    QP_PKEY_INDEX | QP_PORT) &&
	       qa.port_num == 1 && qa.qp_state == QPS_INIT,
	       "INIT_QP_ATTR INIT of a bound RC id: state, access, P_Key index, port",
	       "ret %d mask %#x port %u", ret, qa.qp_attr_mask, qa.port_num);
	ia.qp_state = QPS_INIT;
	ia.response = 48;
	expect_err("INIT_QP_ATTR answering to address 48: EFAULT",
		   CMD(fd, RDMA_USER_CM_CMD_INIT_QP_ATTR, &ia, sizeof(qa)),
		   EFAULT);

	result(set_option(fd, id, 7, 0, &tos, 1) == -ENOSYS &&
	       set_option(fd, id, RDMA_OPTION_ID, 99, &tos, 1) == -ENOSYS &&
	       set_option(fd, id, RDMA_OPTION_IB, 99, big, 64) == -ENOSYS,
	       "SET_OPTION of an unknown level or name: ENOSYS", "");
	result(set_option(fd, id, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, &one,
			  4) == -EINVAL &&
	       set_option(fd, id, RDMA_OPTION_ID, RDMA_OPTION_ID_REUSEADDR,
			  &tos, 1) == -EINVAL,
	       "SET_OPTION with another length than the option's: EINVAL",
	       "");
	result(!set_option(fd, id, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, &tos,
			   1) &&
	       !set_option(fd, id, RDMA_OPTION_ID, RDMA_OPTION_ID_REUSEADDR,
			   &one, 4) &&
	       !set_option(fd, id, RDMA_OPTION_ID, RDMA_OPTION_ID_AFONLY,
			   &one, 4) &&
	       !set_option(fd, id, RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT,
			   &tos, 1),
	       "SET_OPTION TOS, REUSEADDR, AFONLY, ACK_TIMEOUT", "");
	result(set_option(fd, ud, RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT,
			  &tos, 1) == -EINVAL,
	       "SET_OPTION ACK_TIMEOUT of a UD id: EINVAL", "");
	result(set_option(fd, id, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS,
			  (void *)8, 1) == -EFAULT,
	       "SET_OPTION with its value at address 8: EFAULT", "");
	result(set_option(fd, id, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, &tos,
			  0x7fffffff) == -EINVAL,
	       "SET_OPTION of 2 GiB: EINVAL", "");
	result(set_option(fd, bid, RDMA_OPTION_IB, RDMA_OPTION_IB_PATH, big,
			  10) == -EINVAL &&
	       set_option(fd, bid, RDMA_OPTION_IB, RDMA_OPTION_IB_PATH, big,
			  sizeof(big) - 32) == -EINVAL,
	       "SET_OPTION IB_PATH: a partial record, no primary one: EINVAL",
	       "");

	g.sin_addr.s_addr = htonl(0xef540909);
	jm.response = (uintptr_t)resp;
	jm.id = ud;
	jm.addr_size = 28;
	memcpy(&jm.addr, &g, sizeof(g));
	expect_err("JOIN_MCAST with the size of an IPv6 address: EINVAL",
		   CMD(fd, RDMA_USER_CM_CMD_JOIN_MCAST, &jm, 4), EINVAL);
	jm.addr_size = sizeof(g);
	jm.join_flags = RDMA_MC_JOIN_FLAG_RESERVED;
	expect_err("JOIN_MCAST with join flags 2: EINVAL",
		   CMD(fd, RDMA_USER_CM_CMD_JOIN_MCAST, &jm, 4), EINVAL);
	jm.join_flags = 0;
	expect_err("JOIN_MCAST with room for 2 bytes: ENOSPC",
		   CMD(fd, RDMA_USER_CM_CMD_JOIN_MCAST, &jm, 2), ENOSPC);
	expect_err("JOIN_MCAST on an id without a device: EINVAL",
		   CMD(fd, RDMA_USER_CM_CMD_JOIN_MCAST, &jm, 4), EINVAL);
	jip.response = (uintptr_t)resp;
	jip.id = ud;
	expect_err("JOIN_IP_MCAST of family 0: EINVAL",
		   CMD(fd, RDMA_USER_CM_CMD_JOIN_IP_MCAST, &jip, 4), EINVAL);
	result(leave(fd, 0x7ffffff0) == -ENOENT,
	       "LEAVE_MCAST of a group never joined: ENOENT", "");
	lv.id = 1;
	expect_err("LEAVE_MCAST with no room for the answer: ENOSPC",
		   CMD(fd, RDMA_USER_CM_CMD_LEAVE_MCAST, &lv, 0), ENOSPC);

	destroy_id(fd, id);
	destroy_id(fd, ud);
	destroy_id(fd, bid);
}

static int got_alarm;

static void on_alarm(int sig)
{
	got_alarm = 1;
}

/* GET_EVENT's rules, on a file of NS with a route resolved from it */
static void test_events(void)
{
	struct rdma_ucm_event_resp ev;
	struct rdma_ucm_get_event ge = { .response = (uintptr_t)&ev };
	struct sockaddr_in dst = sin_port(&addr_a, 9);
	struct sigaction sa = { .sa_handler = on_alarm };
	int fb = cm_open_in(ns_b), id, ret, fl;
	long r;

	/* nothing queued: non-blocking EAGAIN, poll() quiet */
	fl = fcntl(fb, F_GETFL);
	fcntl(fb, F_SETFL, fl | O_NONBLOCK);
	expect_err("GET_EVENT of a non-blocking file with none: EAGAIN",
		   CMD(fb, RDMA_USER_CM_CMD_GET_EVENT, &ge, sizeof(ev)),
		   EAGAIN);
	fcntl(fb, F_SETFL, fl);
	result(!pending(fb), "poll() of a file with no event: nothing", "");
	/* a blocking one ends on a signal */
	sigaction(SIGALRM, &sa, NULL);
	got_alarm = 0;
	alarm(1);
	r = CMD(fb, RDMA_USER_CM_CMD_GET_EVENT, &ge, sizeof(ev));
	result(r < 0 && errno == EINTR && got_alarm,
	       "a blocking GET_EVENT ends on a signal: EINTR", "got %ld (%s)",
	       r, r < 0 ? strerror(errno) : "");

	id = create_id(fb, RDMA_PS_TCP, 0x1234);
	ret = resolve_addr(fb, id, &addr_b, &dst);
	result(!ret && wait_pending(fb), "RESOLVE_ADDR: poll() says POLLIN",
	       "ret %d", ret);
	expect_err("GET_EVENT with room for 100 bytes: ENOSPC",
		   CMD(fb, RDMA_USER_CM_CMD_GET_EVENT, &ge, 100), ENOSPC);
	ge.response = 64;
	expect_err("GET_EVENT answering to address 64: EFAULT",
		   CMD(fb, RDMA_USER_CM_CMD_GET_EVENT, &ge, sizeof(ev)),
		   EFAULT);
	ge.response = (uintptr_t)&ev;
	memset(&ev, 0, sizeof(ev));
	/* an old 32-bit librdmacm's answer: 12 bytes shorter */
	r = CMD(fb, RDMA_USER_CM_CMD_GET_EVENT, &ge, sizeof(ev) - 12);
	result(r > 0 && ev.event == EV_ADDR_RESOLVED && ev.uid == 0x1234 &&
	       ev.id == (uint32_t)id && ev.status == 0,
	       "... the event stayed: ADDR_RESOLVED with the id's uid, in the old size",
	       "event %s uid %llx id %u", ev_name(ev.event),
	       (unsigned long long)ev.uid, ev.id);
	ret = resolve_route(fb, id);
	result(!ret && !expect_ev(fb, id, EV_ROUTE_RESOLVED, &ev),
	       "RESOLVE_ROUTE: ROUTE_RESOLVED", "ret %d", ret);
	result(destroy_id(fb, id) == 2, "DESTROY_ID: 2 events read", "");

	/* unread events go with their id */
	id = create_id(fb, RDMA_PS_TCP, 0x1235);
	resolve_addr(fb, id, &addr_b, &dst);
	ret = wait_pending(fb);
	result(ret && destroy_id(fb, id) == 0 && !pending(fb),
	       "DESTROY_ID with its event not read: 0 read, the event gone",
	       "");
	close(fb);
}

/*
 * The listener's side of a request, within @ms: the new id (a request's
 * event carries it, not the listener's number), or -1.
 */
static int take_request_in(int fd, uint32_t listener, uint64_t luid,
			   const char *pdata, uint32_t qpn, int ms)
{
	struct rdma_ucm_event_resp ev;

	if (wait_ev(fd, &ev, ms))
		return -1;
	if (ev.event != EV_CONNECT_REQUEST || ev.uid != luid ||
	    memcmp(ev.param.conn.private_data, pdata, strlen(pdata)) ||
	    ev.param.conn.qp_num != qpn) {
		printf("# request: event %s uid %llx qpn %#x pdata '%.8s'\n",
		       ev_name(ev.event), (unsigned long long)ev.uid,
		       ev.param.conn.qp_num, ev.param.conn.private_data);
		return -1;
	}
	return ev.id;
}

static int take_request(int fd, uint32_t listener, uint64_t luid,
			const char *pdata, uint32_t qpn)
{
	return take_request_in(fd, listener, luid, pdata, qpn, 8000);
}

/* Wait for any event of @fd; its type, or -1. */
static int next_type(int fd, uint32_t *id, struct rdma_ucm_event_resp *ev)
{
	if (wait_ev(fd, ev, 8000))
		return -1;
	*id = ev->id;
	return ev->event;
}

static void test_connections(int fa)
{
	uint16_t port = next_port++;
	struct rdma_ucm_event_resp ev;
	struct ib_uverbs_qp_attr qa;
	int fb = cm_open_in(ns_b), fa2 = cm_open(), dn = open("/dev/null",
							      O_RDONLY);
	int l, c1, c2, c3, c4, c5, n1, n3, n5, ret, type;
	uint32_t evid = 0;

	/* a listener of backlog 1 on A */
	l = bound_id(fa, RDMA_PS_TCP, 0x11, port);
	ret = listen_id(fa, l, 1);
	result(l >= 0 && !ret, "LISTEN on A, backlog 1", "id %d ret %d", l,
	       ret);

	/* a request, read: its new id and private data */
	c1 = routed_client(fb, 0x21, port);
	ret = connect_id(fb, c1, 0x111, "hello");
	n1 = take_request(fa, l, 0x11, "hello", 0x111);
	result(c1 >= 0 && !ret && n1 >= 0 && n1 != l,
	       "CONNECT from NS: CONNECT_REQUEST with its private data, QP number and a new id",
	       "c1 %d ret %d n1 %d", c1, ret, n1);
	result(destroy_id(fb, n1) == -EINVAL,
	       "the new id from the client's file: EINVAL", "");
	ret = reject_id(fa, n1, "nope", 0);
	type = expect_ev(fb, c1, EV_REJECTED, &ev) ? -1 : EV_REJECTED;
	result(!ret && type == EV_REJECTED &&
	       ev.status == REJ_CONSUMER_DEFINED &&
	       !memcmp(ev.param.conn.private_data, "nope", 4),
	       "REJECT with private data: the client's REJECTED, consumer defined, the data",
	       "ret %d status %d", ret, (int)ev.status);
	destroy_id(fa, n1);
	destroy_id(fb, c1);

	/*
	 * backlog: a second request while the first is not read.  rdma_ucm
	 * refuses it with -ENOMEM, on which the IB CM sends no REJ, as
	 * upstream's: the peer's REQ comes again (after about 4 s) and is
	 * taken once the backlog has room.
	 */
	c1 = routed_client(fb, 0x22, port);
	c2 = routed_client(fb, 0x23, port);
	connect_id(fb, c1, 0x112, "one");
	ret = wait_pending(fa);
	connect_id(fb, c2, 0x113, "two");
	usleep(300000);
	n1 = take_request(fa, l, 0x11, "one", 0x112);
	result(ret && n1 >= 0 && !pending(fb),
	       "a request past the backlog is not rejected: the client waits",
	       "ret %d n1 %d pending %d", ret, n1, pending(fb));
	ret = take_request_in(fa, l, 0x11, "two", 0x113, 30000);
	result(ret >= 0 && !reject_id(fa, ret, NULL, 0) &&
	       !expect_ev(fb, c2, EV_REJECTED, &ev),
	       "... its REQ again once the backlog has room: a CONNECT_REQUEST, rejected",
	       "n2 %d", ret);
	if (ret >= 0)
		destroy_id(fa, ret);

	/* accept without QPs: REP, CONNECT_RESPONSE, the client's ACCEPT */
	ret = accept_id(fa, n1, 0xabc, 0x222, "yes");
	type = expect_ev(fb, c1, EV_CONNECT_RESPONSE, &ev) ? -1 :
	       EV_CONNECT_RESPONSE;
	result(!ret && type == EV_CONNECT_RESPONSE &&
	       ev.param.conn.qp_num == 0x222 &&
	       !memcmp(ev.param.conn.private_data, "yes", 3),
	       "ACCEPT: the client's CONNECT_RESPONSE (no QP) with the QP number and data",
	       "ret %d qpn %#x", ret, ev.param.conn.qp_num);
	ret = init_qp_attr(fb, c1, QPS_RTR, &qa);
	result(!ret && (qa.qp_attr_mask & (QP_AV | QP_DEST_QPN)) ==
	       (QP_AV | QP_DEST_QPN) && qa.dest_qp_num == 0x222,
	       "INIT_QP_ATTR RTR of the client: the path and the peer's QP",
	       "ret %d mask %#x dest %#x", ret, qa.qp_attr_mask,
	       qa.dest_qp_num);
	ret = accept_id(fb, c1, 0, 0, NULL);
	result(!ret && !expect_ev(fa, n1, EV_ESTABLISHED, &ev) &&
	       ev.uid == 0xabc,
	       "the client's ACCEPT sends the RTU: ESTABLISHED with the uid ACCEPT gave",
	       "ret %d uid %llx", ret, (unsigned long long)ev.uid);

	/* MIGRATE_ID: the connection's server end to another file */
	result(migrate(fa2, n1, -1) == -ENOENT &&
	       migrate(fa2, n1, dn) == -EINVAL &&
	       migrate(fa2, 0x7fffff00, fa) == -ENOENT,
	       "MIGRATE_ID from fd -1: ENOENT; from /dev/null: EINVAL; of no id: ENOENT",
	       "");
	ret = migrate(fa2, n1, fa);
	result(ret == 1, "MIGRATE_ID: 1 event of the id read", "got %d", ret);
	result(disconnect_id(fa, n1) == -EINVAL && !disconnect_id(fa2, n1),
	       "... the old file cannot use it, the new one disconnects it",
	       "");
	result(!expect_ev(fb, c1, EV_DISCONNECTED, &ev),
	       "the client's DISCONNECTED (the DREQ)", "");
	result(!disconnect_id(fb, c1) &&
	       !expect_ev(fa2, n1, EV_DISCONNECTED, &ev),
	       "the client's DISCONNECT sends the DREP: the server's DISCONNECTED",
	       "");

	/*
	 * A listener migrated with a request not read: the request and its
	 * new id follow (3 read: the CONNECT_REQUESTs "hello", "one", "two")
	 */
	c5 = routed_client(fb, 0x25, port);
	connect_id(fb, c5, 0x115, "five");
	ret = wait_pending(fa);
	n3 = ret ? migrate(fa2, l, fa) : -1;
	n5 = n3 == 3 ? take_request(fa2, l, 0x11, "five", 0x115) : -1;
	result(n3 == 3 && !pending(fa) && n5 >= 0 &&
	       !reject_id(fa2, n5, NULL, 0) &&
	       !expect_ev(fb, c5, EV_REJECTED, &ev),
	       "MIGRATE_ID of a listener with a request not read: the request and its new id follow",
	       "reported %d, new id %d", n3, n5);
	if (n5 >= 0)
		destroy_id(fa2, n5);

	/* a listener's unread request goes with it */
	c3 = routed_client(fb, 0x24, port);
	connect_id(fb, c3, 0x114, "three");
	ret = wait_pending(fa2);
	/* 4 read: "hello", "one", "two" and "five" */
	ret = ret ? destroy_id(fa2, l) : -1;
	type = next_type(fb, &evid, &ev);
	result(ret == 4 && !pending(fa2) && evid == (uint32_t)c3 &&
	       (type == EV_REJECTED || type == EV_UNREACHABLE),
	       "DESTROY_ID of the listener with a request not read: the request goes, refused",
	       "reported %d, event %s of %u", ret, ev_name(type), evid);

	/* events pending move with their id */
	c4 = create_id(fa, RDMA_PS_TCP, 0x31);
	resolve_addr(fa, c4, NULL, &addr_b);
	ret = wait_pending(fa);
	n3 = migrate(fa2, c4, fa);
	result(ret && n3 == 0 && !pending(fa) &&
	       !expect_ev(fa2, c4, EV_ADDR_RESOLVED, &ev) && ev.uid == 0x31,
	       "MIGRATE_ID with an event pending: it moves to the new file",
	       "ret %d reported %d", ret, n3);

	destroy_id(fa2, c4);
	destroy_id(fa2, n1);
	destroy_id(fb, c1);
	destroy_id(fb, c2);
	destroy_id(fb, c3);
	destroy_id(fb, c5);
	close(dn);
	close(fa2);
	close(fb);
}

static void test_multicast(int fa, int other)
{
	struct sockaddr_in g = { .sin_family = AF_INET };
	struct rdma_ucm_event_resp ev;
	int ud, mc, ret;

	ud = bound_id(fa, RDMA_PS_UDP, 0x41, next_port++);
	ret = ud < 0 ? ud : 0;
	g.sin_addr.s_addr = htonl(0xef540909);	/* 239.84.9.9 */
	mc = ret ? -1 : join(fa, ud, 0x51, &g, RDMA_MC_JOIN_FLAG_FULLMEMBER);
	ret = mc < 0 ? -1 : expect_ev(fa, mc, EV_MULTICAST_JOIN, &ev);
	result(!ret && ev.uid == 0x51 && ev.param.ud.qkey == UDP_QKEY &&
	       ev.param.ud.qp_num == 0xffffff,
	       "JOIN_MCAST: MULTICAST_JOIN with the group's number, uid, Q_Key, QPN 0xffffff",
	       "mc %d ret %d uid %llx qkey %#x", mc, ret,
	       (unsigned long long)ev.uid, ev.param.ud.qkey);
	result(leave(other, mc) == -EINVAL,
	       "LEAVE_MCAST of another file's group: EINVAL", "");
	ret = leave(fa, mc);
	result(ret == 1, "LEAVE_MCAST: 1 event read", "got %d", ret);
	result(leave(fa, mc) == -ENOENT, "LEAVE_MCAST again: ENOENT", "");

	g.sin_addr.s_addr = htonl(0xef54090a);
	mc = join(fa, ud, 0x52, &g, RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER);
	ret = mc >= 0 ? wait_pending(fa) : 0;
	result(ret && leave(fa, mc) == 0 && !pending(fa),
	       "LEAVE_MCAST with the join not read: 0 read, the event gone",
	       "mc %d", mc);
	/* a group left to the id's destruction */
	mc = join(fa, ud, 0x53, &g, RDMA_MC_JOIN_FLAG_FULLMEMBER);
	ret = mc >= 0 ? wait_pending(fa) : 0;
	result(ret && destroy_id(fa, ud) == 1 && !pending(fa) &&
	       leave(fa, mc) == -ENOENT,
	       "DESTROY_ID with a group joined: the group and its event go",
	       "mc %d", mc);
}

/*
 * A child that leaves everything open: a listener with a request it
 * never reads, a client connecting, a group, events queued, then exits
 * (or is killed): its ids all go.
 */
static void child_mess(uint16_t port, int spin)
{
	struct sockaddr_in g = { .sin_family = AF_INET };
	int fa = cm_open(), fb = cm_open_in(ns_b), l, c, ud;

	l = bound_id(fa, RDMA_PS_TCP, 1, port);
	listen_id(fa, l, 0);
	c = routed_client(fb, 2, port);
	connect_id(fb, c, 0x300, "left");
	ud = bound_id(fa, RDMA_PS_UDP, 3, port + 1);
	g.sin_addr.s_addr = htonl(0xef54090b);
	join(fa, ud, 4, &g, RDMA_MC_JOIN_FLAG_FULLMEMBER);
	while (spin) {
		c = create_id(fb, RDMA_PS_TCP, 5);
		resolve_addr(fb, c, &addr_b, &addr_a);
	}
	_exit(0);
}

static void test_exit(void)
{
	pid_t pid;
	int st, i, ok = 1;

	pid = fork();
	if (!pid)
		child_mess(next_port, 0);
	waitpid(pid, &st, 0);
	result(WIFEXITED(st) && cm_ids_gone(pid),
	       "a process exits with ids in every state: all gone", "");
	next_port++;
	for (i = 0; i < 4; i++) {
		pid = fork();
		if (!pid)
			child_mess(next_port, 1);
		usleep(50000 + i * 150000);
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		ok &= WIFSIGNALED(st) && cm_ids_gone(pid);
		next_port++;
	}
	result(ok, "processes killed at random points: their ids all gone",
	       "");
}

/*
 * The device-removal half (scenario 84): a listener on A, an id with a
 * resolved address and a group; READY is written; then the scenario
 * deletes A's device: DEVICE_REMOVAL for each, commands answer ENXIO,
 * DESTROY_ID still works and answers the events read.
 */
static int hold(const char *ready)
{
	struct sockaddr_in g = { .sin_family = AF_INET };
	struct rdma_ucm_event_resp ev;
	int fa = cm_open(), l, ud, mc, n = 0, seen = 0, i;
	uint32_t evid = 0;
	FILE *f;

	printf("1..%d\n", NCASES_HOLD);
	l = bound_id(fa, RDMA_PS_TCP, 0x61, 18399);
	ud = bound_id(fa, RDMA_PS_UDP, 0x62, 18398);
	result(l >= 0 && ud >= 0 && !listen_id(fa, l, 0),
	       "removal: a listener on A, a UD id bound to A", "");
	g.sin_addr.s_addr = htonl(0xef54090c);
	mc = join(fa, ud, 0x63, &g, RDMA_MC_JOIN_FLAG_FULLMEMBER);
	result(mc >= 0 && !expect_ev(fa, mc, EV_MULTICAST_JOIN, &ev),
	       "removal: a group joined", "mc %d", mc);
	f = fopen(ready, "w");
	if (f)
		fclose(f);
	for (i = 0; i < 30 && seen != 3; i++) {
		int type = next_type(fa, &evid, &ev);

		if (type == EV_DEVICE_REMOVAL && evid == (uint32_t)l)
			seen |= 1;
		else if (type == EV_DEVICE_REMOVAL && evid == (uint32_t)ud)
			seen |= 2;
		else if (type >= 0)
			printf("# removal: event %s of %u\n", ev_name(type), evid);
	}
	result(seen == 3, "removal: DEVICE_REMOVAL for both ids", "seen %d",
	       seen);
	/* the rdma_cm ids go from a work: -ENXIO once they went */
	for (i = 0; i < 50 && bind_addr(fa, ud, &addr_a) != -ENXIO; i++)
		usleep(100000);
	result(i < 50 && resolve_route(fa, l) == -ENXIO,
	       "removal: commands on them: ENXIO", "");
	n = leave(fa, mc);
	result(n == -ENXIO, "removal: LEAVE_MCAST of its group: ENXIO", "got %d",
	       n);
	result(destroy_id(fa, l) == 1 && destroy_id(fa, ud) == 2,
	       "removal: DESTROY_ID answers the events read (1 and 2)", "");
	close(fa);
	return failed ? 1 : 0;
}

static int parse_ip(const char *s, struct sockaddr_in *sin)
{
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	return inet_pton(AF_INET, s, &sin->sin_addr) == 1 ? 0 : -1;
}

int main(int argc, char **argv)
{
	int fa, other;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ns_home = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (argc == 4 && !strcmp(argv[1], "hold")) {
		if (parse_ip(argv[2], &addr_a)) {
			fprintf(stderr, "bad address\n");
			return 2;
		}
		return hold(argv[3]);
	}
	if (argc != 4 || parse_ip(argv[1], &addr_a) ||
	    parse_ip(argv[3], &addr_b)) {
		fprintf(stderr, "usage: ucmatest A NS B | ucmatest hold A READY\n");
		return 2;
	}
	ns_b = argv[2];
	printf("1..%d\n", NCASES);
	fa = cm_open();
	other = cm_open();
	if (fa < 0 || other < 0) {
		printf("# %s: %s\n", CM_DEV, strerror(errno));
		return 1;
	}
	test_header(fa);
	test_create_destroy(fa, other);
	test_bind_query(fa, other);
	test_netns();
	test_refusals(fa);
	test_events();
	test_connections(fa);
	test_multicast(fa, other);
	test_exit();
	close(other);
	close(fa);
	if (case_num != NCASES)
		printf("# ran %d cases, planned %d\n", case_num, NCASES);
	if (failed || case_num != NCASES)
		return 1;
	return 0;
}
