// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * uverbstest: ib_uverbs's write() commands and its context's event file,
 * from user space, as libibverbs uses them.
 *
 *   uverbstest DEV NETDEV DEV_DEL
 *
 * DEV is an RDMA device on the net device NETDEV (its port follows
 * NETDEV: set down and up here); DEV_DEL is deleted ("rdma link delete")
 * while a context of it is open.  Prints KTAP; exits 0 when every case
 * passed.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rdma/ib_user_verbs.h>

#include "../tool_ktap.h"

#define SYS_VERBS	"/sys/class/infiniband_verbs"
#define SYS_IB		"/sys/class/infiniband"
#define NCASES		34

/* enum ib_event_type values the event file carries */
#define EV_PORT_ACTIVE	9
#define EV_PORT_ERR	10
#define EV_DEVICE_FATAL	8

/* /dev/infiniband/uverbsN of @dev, opened read-write, or -1. */
static int open_uverbs(const char *dev)
{
	char path[128], buf[64];
	int n;

	for (n = 0; n < 64; n++) {
		snprintf(path, sizeof(path), SYS_VERBS "/uverbs%d/ibdev", n);
		if (read_file(path, buf, sizeof(buf)) || strcmp(buf, dev))
			continue;
		snprintf(path, sizeof(path), "/dev/infiniband/uverbs%d", n);
		return open(path, O_RDWR | O_CLOEXEC);
	}
	errno = ENODEV;
	return -1;
}

/* A legacy command: header, then @req (its response field set here). */
struct cmd_buf {
	struct ib_uverbs_cmd_hdr hdr;
	uint8_t req[256];
};

/*
 * Write command @command with @req_len bytes of request (the response
 * address first) and a response buffer @resp of @resp_len bytes.
 */
static long legacy(int fd, uint32_t command, void *req, size_t req_len,
		   void *resp, size_t resp_len)
{
	struct cmd_buf c;
	uint64_t r = (uintptr_t)resp;

	memset(&c, 0, sizeof(c));
	c.hdr.command = command;
	c.hdr.in_words = (sizeof(c.hdr) + req_len) / 4;
	c.hdr.out_words = resp_len / 4;
	memcpy(c.req, req, req_len);
	if (req_len >= 8)
		memcpy(c.req, &r, sizeof(r));
	return write(fd, &c, sizeof(c.hdr) + req_len);
}

/* The u64 of sysfs @path as hex with colons (a GUID), big-endian. */
static uint64_t sysfs_guid(const char *path)
{
	unsigned int a, b, c, d;
	char buf[64];

	if (read_file(path, buf, sizeof(buf)) ||
	    sscanf(buf, "%x:%x:%x:%x", &a, &b, &c, &d) != 4)
		return 0;
	return __builtin_bswap64((uint64_t)a << 48 | (uint64_t)b << 32 |
				 (uint64_t)c << 16 | d);
}

/* The next event on @fd within @ms, its type in @type; -1 if none. */
static int next_event(int fd, int ms, uint32_t *type, uint64_t *element)
{
	struct ib_uverbs_async_event_desc ev;
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, ms) != 1 || !(p.revents & POLLIN))
		return -1;
	if (read(fd, &ev, sizeof(ev)) != sizeof(ev))
		return -1;
	*type = ev.event_type;
	*element = ev.element;
	return 0;
}

/* Wait up to 10 s for an event of @want on @fd, skipping others. */
static int wait_event_type(int fd, uint32_t want, uint64_t *element)
{
	uint32_t type;
	int i;

	for (i = 0; i < 20; i++)
		if (!next_event(fd, 500, &type, element) && type == want)
			return 0;
	return -1;
}

/*
 * Whether a line of "rdma resource show @kind dev @dev" names this
 * process (and has @also in it, when given).
 */
static int res_has_me(const char *kind, const char *dev, const char *also)
{
	char cmd[128], line[256], want[64];
	int found = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "rdma resource show %s dev %s", kind, dev);
	snprintf(want, sizeof(want), " pid %d ", (int)getpid());
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p)) {
		printf("# %s", line);
		found |= strstr(line, want) && strstr(line, "comm uverbstest") &&
			 (!also || strstr(line, also));
	}
	pclose(p);
	return found;
}

static void test_headers(int fd)
{
	struct ib_uverbs_query_device q = {};
	struct ib_uverbs_query_device_resp qr;
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_ex_cmd_hdr ex;
	} ex = {};
	uint32_t w = 0;

	expect_err("a write shorter than a header: EINVAL",
		   write(fd, &w, sizeof(w)), EINVAL);
	expect_err("QUERY_DEVICE before GET_CONTEXT: EINVAL",
		   legacy(fd, IB_USER_VERBS_CMD_QUERY_DEVICE, &q, sizeof(q),
			  &qr, sizeof(qr)), EINVAL);
	expect_err("a command nobody serves (ALLOC_MW): EOPNOTSUPP",
		   legacy(fd, IB_USER_VERBS_CMD_ALLOC_MW, &q, sizeof(q), &qr,
			  sizeof(qr)), EOPNOTSUPP);
	expect_err("bits outside the command number: EINVAL",
		   legacy(fd, 0x10000 | IB_USER_VERBS_CMD_QUERY_DEVICE, &q,
			  sizeof(q), &qr, sizeof(qr)), EINVAL);
	ex.hdr.command = IB_USER_VERBS_CMD_FLAG_EXTENDED |
			 IB_USER_VERBS_EX_CMD_QUERY_DEVICE;
	expect_err("extended QUERY_DEVICE (not served): EOPNOTSUPP",
		   write(fd, &ex, sizeof(ex)), EOPNOTSUPP);
}

static void test_context(int fd, const char *dev, int *async)
{
	struct ib_uverbs_get_context_resp r = {};
	struct ib_uverbs_get_context g = {};
	uint8_t big[sizeof(r) + 16];
	long rc;

	expect_err("GET_CONTEXT with a 4-byte response: ENOSPC",
		   legacy(fd, IB_USER_VERBS_CMD_GET_CONTEXT, &g, sizeof(g), &r,
			  4), ENOSPC);
	/* room for the driver's part (siw writes 8 bytes) */
	memset(big, 0xff, sizeof(big));
	rc = legacy(fd, IB_USER_VERBS_CMD_GET_CONTEXT, &g, sizeof(g), big,
		    sizeof(big));
	memcpy(&r, big, sizeof(r));
	result(rc > 0 && fcntl(r.async_fd, F_GETFD) == FD_CLOEXEC,
	       "GET_CONTEXT: an async fd, close-on-exec", "rc %ld fd %u",
	       rc, r.async_fd);
	result(r.num_comp_vectors == 1, "GET_CONTEXT: one completion vector",
	       "%u", r.num_comp_vectors);
	*async = r.async_fd;
	result(res_has_me("ctx", dev, NULL),
	       "rdma res show ctx: the context, our pid",
	       "");
	expect_err("a second GET_CONTEXT: EINVAL",
		   legacy(fd, IB_USER_VERBS_CMD_GET_CONTEXT, &g, sizeof(g), big,
			  sizeof(big)), EINVAL);
}

static void test_queries(int fd, const char *dev)
{
	struct ib_uverbs_query_device q = {};
	struct ib_uverbs_query_port p = {};
	struct ib_uverbs_query_port_resp pr;
	uint8_t buf[sizeof(struct ib_uverbs_query_device_resp) + 8];
	struct ib_uverbs_query_device_resp qr;
	uint8_t req[sizeof(q) + 8] = {};
	char path[128], state[32];
	unsigned int i, zero = 1;
	long rc;

	memset(buf, 0xff, sizeof(buf));
	rc = legacy(fd, IB_USER_VERBS_CMD_QUERY_DEVICE, &q, sizeof(q), buf,
		    sizeof(buf));
	memcpy(&qr, buf, sizeof(qr));
	snprintf(path, sizeof(path), SYS_IB "/%s/node_guid", dev);
	result(rc > 0 && qr.node_guid == sysfs_guid(path) &&
	       qr.phys_port_cnt == 1 && qr.max_qp > 0,
	       "QUERY_DEVICE: sysfs's node GUID, one port, QPs",
	       "rc %ld guid %llx ports %u max_qp %u", rc,
	       (unsigned long long)qr.node_guid, qr.phys_port_cnt, qr.max_qp);
	for (i = sizeof(qr); i < sizeof(buf); i++)
		zero &= buf[i] == 0;
	result(zero, "QUERY_DEVICE zeroes the response buffer's rest", "");
	/* a longer request: zeroes past the known part are fine */
	rc = legacy(fd, IB_USER_VERBS_CMD_QUERY_DEVICE, req, sizeof(req), &qr,
		    sizeof(qr));
	result(rc > 0, "QUERY_DEVICE with zeroes past its request", "%ld", rc);
	req[sizeof(q) + 3] = 1;
	expect_err("QUERY_DEVICE with unknown bytes set: EOPNOTSUPP",
		   legacy(fd, IB_USER_VERBS_CMD_QUERY_DEVICE, req, sizeof(req),
			  &qr, sizeof(qr)), EOPNOTSUPP);

	p.port_num = 1;
	rc = legacy(fd, IB_USER_VERBS_CMD_QUERY_PORT, &p, sizeof(p), &pr,
		    sizeof(pr));
	snprintf(path, sizeof(path), SYS_IB "/%s/ports/1/state", dev);
	result(rc > 0 && !read_file(path, state, sizeof(state)) &&
	       (unsigned int)atoi(state) == pr.state && pr.link_layer == 2 &&
	       pr.gid_tbl_len > 0,
	       "QUERY_PORT 1: sysfs's state, Ethernet, a GID table",
	       "rc %ld state %u (sysfs '%s') link layer %u gids %u", rc,
	       pr.state, state, pr.link_layer, pr.gid_tbl_len);
	p.port_num = 2;
	expect_err("QUERY_PORT 2: EINVAL",
		   legacy(fd, IB_USER_VERBS_CMD_QUERY_PORT, &p, sizeof(p), &pr,
			  sizeof(pr)), EINVAL);
	p.port_num = 0;
	expect_err("QUERY_PORT 0: EINVAL",
		   legacy(fd, IB_USER_VERBS_CMD_QUERY_PORT, &p, sizeof(p), &pr,
			  sizeof(pr)), EINVAL);
}

static void test_events(int async, const char *netdev)
{
	struct ib_uverbs_async_event_desc ev;
	char cmd[128];
	uint64_t element = 0;
	int fl = fcntl(async, F_GETFL);

	fcntl(async, F_SETFL, fl | O_NONBLOCK);
	expect_err("the event file, empty and non-blocking: EAGAIN",
		   read(async, &ev, sizeof(ev)), EAGAIN);
	expect_err("a read shorter than an event: EINVAL",
		   read(async, &ev, 4), EINVAL);
	fcntl(async, F_SETFL, fl);

	snprintf(cmd, sizeof(cmd), "ip link set %s down", netdev);
	result(!system(cmd) && !wait_event_type(async, EV_PORT_ERR, &element) &&
	       element == 1, "NETDEV down: PORT_ERR of port 1 on the event file",
	       "element %llu", (unsigned long long)element);
	snprintf(cmd, sizeof(cmd), "ip link set %s up", netdev);
	result(!system(cmd) &&
	       !wait_event_type(async, EV_PORT_ACTIVE, &element) &&
	       element == 1, "NETDEV up: PORT_ACTIVE of port 1",
	       "element %llu", (unsigned long long)element);
}

/* ALLOC_PD on @fd: the handle, or -1. */
static long alloc_pd(int fd)
{
	struct ib_uverbs_alloc_pd_resp r = {};
	struct ib_uverbs_alloc_pd a = {};

	if (legacy(fd, IB_USER_VERBS_CMD_ALLOC_PD, &a, sizeof(a), &r,
		   sizeof(r)) < 0)
		return -1;
	return r.pd_handle;
}

static long dealloc_pd(int fd, uint32_t handle)
{
	struct ib_uverbs_dealloc_pd d = { .pd_handle = handle };

	return legacy(fd, IB_USER_VERBS_CMD_DEALLOC_PD, &d, sizeof(d), NULL,
		      0);
}

static void test_pd(int fd, const char *dev)
{
	long a, b;

	a = alloc_pd(fd);
	b = alloc_pd(fd);
	result(a >= 0 && b >= 0 && a != b, "ALLOC_PD twice: two handles",
	       "%ld %ld", a, b);
	result(res_has_me("pd", dev, " ctxn "),
	       "rdma res show pd: ours, with its context",
	       "");
	result(dealloc_pd(fd, a) > 0, "DEALLOC_PD of the first", "%s",
	       strerror(errno));
	expect_err("DEALLOC_PD of it again: EINVAL", dealloc_pd(fd, a),
		   EINVAL);
	expect_err("DEALLOC_PD of a handle never given: EINVAL",
		   dealloc_pd(fd, 100000), EINVAL);
	/* the second stays: the file's close takes it */
}

/* A task with other credentials may not act on the file. */
static void test_foreign_writer(int fd)
{
	struct ib_uverbs_query_device q = {};
	struct ib_uverbs_query_device_resp qr;
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		if (setuid(65534))
			_exit(2);
		_exit(legacy(fd, IB_USER_VERBS_CMD_QUERY_DEVICE, &q, sizeof(q),
			     &qr, sizeof(qr)) == -1 && errno == EACCES ? 0 : 1);
	}
	result(pid > 0 && waitpid(pid, &status, 0) == pid &&
	       WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "a write after setuid (other credentials): EACCES", "status %d",
	       status);
}

static void test_delete(const char *dev)
{
	struct ib_uverbs_get_context_resp r = {};
	struct ib_uverbs_get_context g = {};
	struct ib_uverbs_query_device q = {};
	struct ib_uverbs_query_device_resp qr;
	struct ib_uverbs_async_event_desc ev;
	uint8_t big[sizeof(r) + 16];
	uint64_t element = 1;
	char cmd[128];
	int fd, async = -1;

	fd = open_uverbs(dev);
	if (fd >= 0 && legacy(fd, IB_USER_VERBS_CMD_GET_CONTEXT, &g, sizeof(g),
			      big, sizeof(big)) > 0) {
		memcpy(&r, big, sizeof(r));
		async = r.async_fd;
	}
	result(async >= 0 && alloc_pd(fd) >= 0, "a context and a PD on DEV_DEL",
	       "fd %d", fd);
	snprintf(cmd, sizeof(cmd), "rdma link delete %s", dev);
	result(!system(cmd), "rdma link delete DEV_DEL with the context open",
	       "");
	result(!wait_event_type(async, EV_DEVICE_FATAL, &element) &&
	       element == 0, "its event file: DEVICE_FATAL", "element %llu",
	       (unsigned long long)element);
	expect_err("then the event file's read: EIO",
		   read(async, &ev, sizeof(ev)), EIO);
	expect_err("a command on the file: EIO",
		   legacy(fd, IB_USER_VERBS_CMD_QUERY_DEVICE, &q, sizeof(q),
			  &qr, sizeof(qr)), EIO);
	result(!close(async) && !close(fd), "both files close", "%s",
	       strerror(errno));
}

int main(int argc, char **argv)
{
	int fd, async = -1;

	if (argc != 4) {
		fprintf(stderr, "usage: %s DEV NETDEV DEV_DEL\n", argv[0]);
		return 2;
	}
	printf("KTAP version 1\n1..%d\n", NCASES);
	fd = open_uverbs(argv[1]);
	result(fd >= 0, "open DEV's uverbsN", "%s", strerror(errno));
	if (fd < 0)
		return 1;
	test_headers(fd);
	test_context(fd, argv[1], &async);
	test_queries(fd, argv[1]);
	test_events(async, argv[2]);
	test_pd(fd, argv[1]);
	test_foreign_writer(fd);
	close(async);
	close(fd);
	test_delete(argv[3]);
	if (case_num != NCASES)
		printf("# ran %d cases, planned %d\n", case_num, NCASES);
	return failed || case_num != NCASES;
}
