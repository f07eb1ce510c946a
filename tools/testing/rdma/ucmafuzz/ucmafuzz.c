// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ucmafuzz: random and malformed commands on /dev/infiniband/rdma_cm,
 * from processes killed at random points.
 *
 *   ucmafuzz A NS B CALLS SEED [UID]
 *
 * Workers (forked one after another) open two files, one here and one in
 * network namespace NS (/run/netns/NS), and issue write() commands:
 * well-formed ones whose ids and groups come from what earlier commands
 * answered (live, destroyed or never given), now and then from the other
 * file; addresses A (an address of this namespace on an RDMA port), B
 * (one of NS with a route to A), wildcards, multicast groups and random
 * ones, at times of another family or size; connections to the
 * listeners of the worker's own and of earlier workers (ports 18800 to
 * 18815), accepted, rejected or left alone; MIGRATE_ID between its two
 * files (the second one of this namespace too as a user, who may not
 * enter NS) and from files that are not rdma_cm's; options and QP states at
 * random; events read (at times with a response too small or at a bad
 * address) and left unread; raw headers, random command numbers and
 * sizes, random bytes; files closed with everything open.  The parent
 * kills two workers in three with SIGKILL after 0 to 50 ms.  With UID,
 * the workers run as that user.  Stops after CALLS commands in all.
 *
 * Prints KTAP: the files open, every call made, no worker died of
 * anything but the kill; and workers, kills, calls and calls that
 * succeeded.  What the kernel makes of it (no splat, no leak) is the test
 * bed's to check.  The commands depend only on the seed, not on the
 * kernel's answers beyond the numbers they give.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
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
#define POOL		16
#define BASE_PORT	18800
#define NPORTS		16

struct shared {
	long calls;
	long ok;
};

static struct shared *sh;
static uint64_t rng;
static struct sockaddr_in addr_a, addr_b;
static const char *ns_b;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint32_t below(uint32_t n)
{
	return n ? rnd() % n : 0;
}

/* numbers answered: ids and groups, per file */
static uint32_t ids[2][POOL], mcs[2][POOL];
static int nids[2], nmcs[2];
static int fds[2];
static uint8_t *junk;	/* a page of user memory, a page that is not */

static void remember(uint32_t *pool, int *n, uint32_t v)
{
	if (*n < POOL)
		pool[(*n)++] = v;
	else
		pool[below(POOL)] = v;
}

/* an id: usually one of file @f's, sometimes the other's, or anything */
static uint32_t pick(uint32_t pool[2][POOL], int n[2], int f)
{
	int which = below(8) ? f : !f;

	if (!n[which] || !below(10))
		return below(3) ? below(64) : (uint32_t)rnd();
	return pool[which][below(n[which])];
}

static uint32_t id_of(int f)
{
	return pick(ids, nids, f);
}

/* a value that is often small, sometimes extreme */
static uint32_t val(void)
{
	switch (below(6)) {
	case 0:
		return 0;
	case 1:
		return (uint32_t)rnd();
	case 2:
		return 0xffffffff - below(4);
	default:
		return below(64);
	}
}

static void fill(void *p, size_t len)
{
	uint8_t *b = p;

	while (len--)
		*b++ = rnd();
}

/* a response address: usually good, at times NULL, junk or unmapped */
static uint64_t resp_addr(void *good)
{
	switch (below(16)) {
	case 0:
		return 0;
	case 1:
		return (uintptr_t)junk + 4096;	/* not mapped */
	case 2:
		return rnd();
	default:
		return (uintptr_t)good;
	}
}

/*
 * One command: the header, @len bytes of @req; now and then "in" or
 * "out" at random, or fewer bytes written.
 */
static long cmd(int fd, uint32_t op, const void *req, size_t len,
		uint16_t out)
{
	struct {
		struct rdma_ucm_cmd_hdr hdr;
		uint8_t req[512];
	} c;
	size_t n = sizeof(c.hdr) + len;
	long ret;

	memset(&c, 0, sizeof(c));
	memcpy(c.req, req, len);
	c.hdr.cmd = op;
	c.hdr.in = len;
	c.hdr.out = out;
	switch (below(24)) {
	case 0:
		c.hdr.in = below(600);
		break;
	case 1:
		c.hdr.out = below(600);
		break;
	case 2:
		n = below(n + 1);
		break;
	}
	ret = write(fd, &c, n);
	__atomic_fetch_add(&sh->calls, 1, __ATOMIC_RELAXED);
	if (ret >= 0)
		__atomic_fetch_add(&sh->ok, 1, __ATOMIC_RELAXED);
	return ret;
}

/* an address: A, B, wildcard, a group, loopback, IPv6, AF_IB, junk */
static void addr(struct sockaddr_storage *ss, uint16_t *size)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	*size = sizeof(*sin);
	switch (below(10)) {
	case 0:
	case 1:
	case 2:
		*sin = addr_a;
		break;
	case 3:
		*sin = addr_b;
		break;
	case 4:
		sin->sin_family = AF_INET;
		break;
	case 5:
		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = htonl(0xef580000 | below(4));
		break;
	case 6:
		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		break;
	case 7:
		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr.s6_addr[15] = below(2);
		*size = sizeof(*sin6);
		break;
	case 8:
		ss->ss_family = 27;	/* AF_IB */
		fill((uint8_t *)ss + 2, 46);
		*size = 48;
		break;
	default:
		fill(ss, sizeof(*ss));
		*size = below(3) ? sizeof(*sin) : below(130);
		return;
	}
	if (ss->ss_family == AF_INET)
		sin->sin_port = htons(BASE_PORT + below(NPORTS));
	if (!below(10))
		*size = below(130);
}

static void op_create(int f)
{
	static const uint16_t spaces[] = { RDMA_PS_TCP, RDMA_PS_UDP,
					   RDMA_PS_IPOIB, RDMA_PS_IB };
	struct rdma_ucm_create_id_resp r = { .id = 0xffffffff };
	struct rdma_ucm_create_id c = { .uid = rnd() | 1 };

	c.ps = below(8) ? spaces[below(4)] : val();
	c.qp_type = below(4) ? 2 : val();
	c.response = resp_addr(&r);
	if (cmd(fds[f], RDMA_USER_CM_CMD_CREATE_ID, &c, sizeof(c),
		sizeof(r)) > 0 && r.id != 0xffffffff)
		remember(ids[f], &nids[f], r.id);
}

static void op_destroy(int f)
{
	struct rdma_ucm_destroy_id_resp r;
	struct rdma_ucm_destroy_id c = { .id = id_of(f) };

	c.response = resp_addr(&r);
	cmd(fds[f], below(4) ? RDMA_USER_CM_CMD_DESTROY_ID :
		    RDMA_USER_CM_CMD_LEAVE_MCAST, &c, sizeof(c), sizeof(r));
}

static void op_bind(int f)
{
	struct rdma_ucm_bind c = { .id = id_of(f) };
	struct rdma_ucm_bind_ip ci = { .id = c.id };
	struct sockaddr_storage ss;

	addr(&ss, &c.addr_size);
	if (below(3)) {
		memcpy(&c.addr, &ss, sizeof(ss));
		if (!below(16))
			c.reserved = val();
		cmd(fds[f], RDMA_USER_CM_CMD_BIND, &c, sizeof(c), 0);
	} else {
		memcpy(&ci.addr, &ss, sizeof(ci.addr));
		cmd(fds[f], RDMA_USER_CM_CMD_BIND_IP, &ci, sizeof(ci), 0);
	}
}

static void op_resolve(int f)
{
	struct rdma_ucm_resolve_addr c = { .id = id_of(f) };
	struct rdma_ucm_resolve_ip ci = { .id = c.id };
	struct rdma_ucm_resolve_route rr = { .id = c.id };
	struct sockaddr_storage ss;

	c.timeout_ms = below(4) ? 2000 : val();
	ci.timeout_ms = c.timeout_ms;
	rr.timeout_ms = c.timeout_ms;
	switch (below(4)) {
	case 0:
		cmd(fds[f], RDMA_USER_CM_CMD_RESOLVE_ROUTE, &rr, sizeof(rr), 0);
		return;
	case 1:
		addr(&ss, &c.dst_size);
		memcpy(&ci.dst_addr, &ss, sizeof(ci.dst_addr));
		cmd(fds[f], RDMA_USER_CM_CMD_RESOLVE_IP, &ci, sizeof(ci), 0);
		return;
	}
	addr(&ss, &c.dst_size);
	memcpy(&c.dst_addr, &ss, sizeof(ss));
	/* the client file's own address, or none */
	if (below(2)) {
		memcpy(&c.src_addr, f ? &addr_b : &addr_a, sizeof(addr_a));
		c.src_size = sizeof(addr_a);
	}
	cmd(fds[f], RDMA_USER_CM_CMD_RESOLVE_ADDR, &c, sizeof(c), 0);
}

static void op_conn(int f)
{
	struct rdma_ucm_connect c = { .id = id_of(f) };
	struct rdma_ucm_accept a = { .id = c.id, .uid = rnd() };
	struct rdma_ucm_reject rj = { .id = c.id };
	struct rdma_ucm_listen l = { .id = c.id };
	struct rdma_ucm_disconnect d = { .id = c.id };
	struct rdma_ucm_notify n = { .id = c.id, .event = val() };
	struct rdma_ucm_conn_param *p = below(2) ? &c.conn_param :
					&a.conn_param;

	p->qp_num = val();
	p->valid = below(8) != 0;
	p->private_data_len = below(3) ? below(64) : val();
	fill(p->private_data, p->private_data_len);
	p->responder_resources = below(8);
	p->initiator_depth = below(8);
	p->retry_count = below(8);
	p->rnr_retry_count = below(8);
	p->srq = below(2);
	switch (below(7)) {
	case 0:
		l.backlog = val();
		cmd(fds[f], RDMA_USER_CM_CMD_LISTEN, &l, sizeof(l), 0);
		break;
	case 1:
		cmd(fds[f], RDMA_USER_CM_CMD_CONNECT, &c,
		    below(4) ? sizeof(c) : below(sizeof(c)), 0);
		break;
	case 2:
		cmd(fds[f], RDMA_USER_CM_CMD_ACCEPT, &a,
		    below(4) ? sizeof(a) : below(sizeof(a)), 0);
		break;
	case 3:
		rj.reason = below(3) ? 0 : val();
		rj.private_data_len = below(64);
		cmd(fds[f], RDMA_USER_CM_CMD_REJECT, &rj, sizeof(rj), 0);
		break;
	case 4:
		cmd(fds[f], RDMA_USER_CM_CMD_DISCONNECT, &d, sizeof(d), 0);
		break;
	case 5:
		cmd(fds[f], RDMA_USER_CM_CMD_NOTIFY, &n, sizeof(n), 0);
		break;
	default:
		/* a client towards a listener port: create, resolve, route */
		op_resolve(f);
	}
}

static void op_query(int f)
{
	uint8_t out[1024];
	struct rdma_ucm_query q = { .id = id_of(f), .option = below(5) };
	struct rdma_ucm_init_qp_attr ia = { .id = q.id,
					    .qp_state = below(9) };

	q.response = resp_addr(out);
	ia.response = resp_addr(out);
	switch (below(3)) {
	case 0:
		cmd(fds[f], RDMA_USER_CM_CMD_QUERY_ROUTE, &q, sizeof(q),
		    below(300));
		break;
	case 1:
		cmd(fds[f], RDMA_USER_CM_CMD_QUERY, &q, sizeof(q),
		    below(4) ? 600 : below(1024));
		break;
	default:
		cmd(fds[f], RDMA_USER_CM_CMD_INIT_QP_ATTR, &ia, sizeof(ia),
		    below(4) ? 144 : below(300));
	}
}

static void op_option(int f)
{
	static const uint32_t lens[] = { 1, 4, 64, 128 };
	uint8_t val8[512];
	struct rdma_ucm_set_option c = { .id = id_of(f) };

	fill(val8, sizeof(val8));
	c.level = below(6) ? below(2) : val();
	c.optname = below(6) ? below(4) : val();
	c.optlen = below(4) ? lens[below(4)] : val();
	if (c.optlen > sizeof(val8) && below(4))
		c.optlen = sizeof(val8);
	c.optval = below(8) ? (uintptr_t)val8 : resp_addr(val8);
	cmd(fds[f], RDMA_USER_CM_CMD_SET_OPTION, &c, sizeof(c), 0);
}

static void op_join(int f)
{
	struct rdma_ucm_create_id_resp r = { .id = 0xffffffff };
	struct rdma_ucm_join_mcast c = { .id = id_of(f), .uid = rnd() };
	struct rdma_ucm_join_ip_mcast ci = { .id = c.id, .uid = c.uid };
	struct sockaddr_storage ss;
	long ret;

	addr(&ss, &c.addr_size);
	if (below(3)) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&ss;

		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = htonl(0xef580000 | below(4));
		c.addr_size = sizeof(*sin);
	}
	c.join_flags = below(6) ? below(2) : val();
	c.response = resp_addr(&r);
	ci.response = c.response;
	memcpy(&c.addr, &ss, sizeof(ss));
	memcpy(&ci.addr, &ss, sizeof(ci.addr));
	if (below(4))
		ret = cmd(fds[f], RDMA_USER_CM_CMD_JOIN_MCAST, &c, sizeof(c),
			  sizeof(r));
	else
		ret = cmd(fds[f], RDMA_USER_CM_CMD_JOIN_IP_MCAST, &ci,
			  sizeof(ci), sizeof(r));
	if (ret > 0 && r.id != 0xffffffff)
		remember(mcs[f], &nmcs[f], r.id);
	if (below(2)) {
		struct rdma_ucm_destroy_id_resp lr;
		struct rdma_ucm_destroy_id l = {
			.id = pick(mcs, nmcs, f),
			.response = resp_addr(&lr),
		};

		cmd(fds[f], RDMA_USER_CM_CMD_LEAVE_MCAST, &l, sizeof(l),
		    sizeof(lr));
	}
}

/* events: read (the accept of a request now and then), or left */
static void op_events(int f)
{
	struct rdma_ucm_event_resp ev;
	struct rdma_ucm_get_event c = { .response = resp_addr(&ev) };
	struct pollfd p = { .fd = fds[f], .events = POLLIN };
	int n = below(4);

	while (n-- && poll(&p, 1, below(3) ? 0 : 5) == 1) {
		memset(&ev, 0, sizeof(ev));
		if (cmd(fds[f], RDMA_USER_CM_CMD_GET_EVENT, &c, sizeof(c),
			below(8) ? sizeof(ev) : below(400)) <= 0)
			continue;
		if (ev.event == 4 /* CONNECT_REQUEST */) {
			remember(ids[f], &nids[f], ev.id);
			if (below(2)) {
				struct rdma_ucm_accept a = {
					.id = ev.id, .uid = rnd() | 1,
				};

				a.conn_param.valid = 1;
				a.conn_param.qp_num = val();
				cmd(fds[f], RDMA_USER_CM_CMD_ACCEPT, &a,
				    sizeof(a), 0);
			}
		}
	}
}

static void op_migrate(int f)
{
	struct rdma_ucm_migrate_resp r;
	struct rdma_ucm_migrate_id c = { .id = id_of(!f) };
	int from = fds[!f];

	c.response = resp_addr(&r);
	switch (below(8)) {
	case 0:
		from = -1;
		break;
	case 1:
		from = 0;	/* stdin */
		break;
	case 2:
		from = fds[f];	/* to itself */
		c.id = id_of(f);
		break;
	}
	c.fd = from;
	if (cmd(fds[f], RDMA_USER_CM_CMD_MIGRATE_ID, &c, sizeof(c),
		sizeof(r)) > 0)
		remember(ids[f], &nids[f], c.id);
}

static void op_raw(int f)
{
	uint8_t buf[600];
	struct rdma_ucm_cmd_hdr *h = (struct rdma_ucm_cmd_hdr *)buf;
	size_t n = below(sizeof(buf));

	fill(buf, sizeof(buf));
	if (below(2))
		h->cmd = below(26);
	if (below(2))
		h->in = n > sizeof(*h) ? n - sizeof(*h) : 0;
	if (!below(4)) {
		/* from the page that is not mapped, or across its start */
		write(fds[f], junk + 4096 - below(16), n);
	} else {
		write(fds[f], buf, n);
	}
	__atomic_fetch_add(&sh->calls, 1, __ATOMIC_RELAXED);
}

/*
 * Open the two files: this namespace's and NS's, or with @uid (a user
 * may not enter NS) both of this namespace, after dropping to @uid: a
 * file takes commands only from the credentials it was opened with.
 */
static int open_files(int uid)
{
	char path[128];
	int home, ns;

	if (uid >= 0) {
		if (setgid(uid) || setuid(uid))
			return -1;
		fds[0] = open(CM_DEV, O_RDWR | O_CLOEXEC | O_NONBLOCK);
		fds[1] = open(CM_DEV, O_RDWR | O_CLOEXEC | O_NONBLOCK);
		return fds[0] < 0 || fds[1] < 0 ? -1 : 0;
	}
	fds[0] = open(CM_DEV, O_RDWR | O_CLOEXEC);
	home = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "/run/netns/%s", ns_b);
	ns = open(path, O_RDONLY | O_CLOEXEC);
	if (fds[0] < 0 || home < 0 || ns < 0 || setns(ns, CLONE_NEWNET))
		return -1;
	fds[1] = open(CM_DEV, O_RDWR | O_CLOEXEC);
	if (setns(home, CLONE_NEWNET) || fds[1] < 0)
		return -1;
	close(home);
	close(ns);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	fcntl(fds[1], F_SETFL, O_NONBLOCK);
	return 0;
}

static void worker(long budget, int uid)
{
	long i;
	int f;

	junk = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (junk == MAP_FAILED)
		_exit(3);
	munmap(junk + 4096, 4096);
	if (open_files(uid))
		_exit(3);
	for (i = 0; i < budget; i++) {
		f = below(2);
		switch (below(20)) {
		case 0:
		case 1:
		case 2:
			op_create(f);
			break;
		case 3:
			op_destroy(f);
			break;
		case 4:
		case 5:
			op_bind(f);
			break;
		case 6:
		case 7:
		case 8:
			op_resolve(f);
			break;
		case 9:
		case 10:
		case 11:
			op_conn(f);
			break;
		case 12:
			op_query(f);
			break;
		case 13:
			op_option(f);
			break;
		case 14:
			op_join(f);
			break;
		case 15:
			op_migrate(f);
			break;
		case 16:
			op_raw(f);
			break;
		case 17:
			/* a file closed with all it holds, a new one */
			if (!below(8)) {
				close(fds[f]);
				nids[f] = 0;
				nmcs[f] = 0;
				fds[f] = open(CM_DEV, O_RDWR | O_CLOEXEC |
					      O_NONBLOCK);
				if (fds[f] < 0)
					_exit(4);
				break;
			}
			op_events(f);
			break;
		default:
			op_events(f);
		}
	}
	/* the rest goes with the process: the close, or the kill */
	_exit(0);
}

static int parse_ip(const char *s, struct sockaddr_in *sin)
{
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	return inet_pton(AF_INET, s, &sin->sin_addr) == 1 ? 0 : -1;
}

int main(int argc, char **argv)
{
	long total, workers = 0, killed = 0, bad = 0;
	unsigned long seed;
	int uid = -1, status, fd;

	if (argc < 6 || argc > 7 || parse_ip(argv[1], &addr_a) ||
	    parse_ip(argv[3], &addr_b)) {
		fprintf(stderr, "usage: %s A NS B CALLS SEED [UID]\n",
			argv[0]);
		return 2;
	}
	ns_b = argv[2];
	total = atol(argv[4]);
	seed = strtoul(argv[5], NULL, 0);
	if (argc == 7)
		uid = atoi(argv[6]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("KTAP version 1\n1..3\n");
	printf("# seed %lu, %ld calls, uid %d\n", seed, total, uid);
	rng = seed * 0x9e3779b97f4a7c15ull + 1;
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	fd = open(CM_DEV, O_RDWR);
	result(sh != MAP_FAILED && fd >= 0, "the rdma_cm device and shared memory",
	       "%s", strerror(errno));
	if (sh == MAP_FAILED || fd < 0)
		return 1;
	close(fd);

	while (__atomic_load_n(&sh->calls, __ATOMIC_RELAXED) < total) {
		long budget = 50 + below(1000);
		uint64_t wseed = rnd();
		pid_t pid = fork();

		if (pid < 0)
			break;
		if (!pid) {
			rng = wseed | 1;
			worker(budget, uid);
		}
		workers++;
		if (below(3)) {
			struct timespec t = { 0, (long)below(50) * 1000000 };

			nanosleep(&t, NULL);
			kill(pid, SIGKILL);
		}
		if (waitpid(pid, &status, 0) != pid)
			break;
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
			killed++;
		} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			bad++;
			printf("# worker %ld: %s %d\n", workers,
			       WIFSIGNALED(status) ? "signal" : "exit",
			       WIFSIGNALED(status) ? WTERMSIG(status) :
			       WEXITSTATUS(status));
		}
	}
	printf("# %ld workers (%ld killed), %ld calls, %ld succeeded\n",
	       workers, killed, sh->calls, sh->ok);
	result(sh->calls >= total, "every call made", "%ld of %ld", sh->calls,
	       total);
	result(!bad, "no worker died of anything but the kill", "%ld did",
	       bad);
	return failed ? 1 : 0;
}
