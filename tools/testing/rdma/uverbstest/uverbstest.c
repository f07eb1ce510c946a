// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * uverbstest: ib_uverbs's write() commands, its verbs ioctl and its
 * context's event file, from user space, as libibverbs uses them.
 *
 *   uverbstest DEV NETDEV DEV_DEL DEV_IB [DEV_RXE [DEV_SIW]]
 *
 * DEV is an RDMA device on the net device NETDEV (its port follows
 * NETDEV: set down and up here); DEV_DEL is deleted ("rdma link delete")
 * while a context of it is open; DEV_IB, an InfiniBand device of
 * rdmavt's ABI (a loop device), carries data through the commands: MRs,
 * CQs with a completion channel, RC QPs connected to each other, work
 * requests posted and completions polled through write(); on a context
 * the ioctl made, CQs, QPs and SRQs created by the ioctl (QP_CREATE and
 * SRQ_CREATE as libibverbs sends them, and malformed).  DEV_RXE, an
 * rxe device, carries data through rxe's user ABI as librxe drives it:
 * its completion, send, receive and shared receive queues mapped here,
 * entries written and read here, the doorbell, and entries and indices
 * no sane librxe writes.  DEV_SIW, a siw device, has its queues mapped
 * as libsiw maps them: receive entries and send entries flushed through
 * them, the completion queue armed through its control word, and siw's
 * answers and refusals (its MR key byte, no resizing).  Prints KTAP;
 * exits 0 when every case passed.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sys/ioctl.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_ioctl_cmds.h>
#include <rdma/rdma_user_rxe.h>
#include <rdma/siw-abi.h>

#include "../tool_ktap.h"

#define SYS_VERBS	"/sys/class/infiniband_verbs"
#define SYS_IB		"/sys/class/infiniband"
#define NCASES		(90 + NCASES_IOCTL)
/* the verbs ioctl's */
#define NCASES_IOCTL	77
/* the cases of DEV_RXE */
#define NCASES_RXE	27
/* the cases of DEV_SIW */
#define NCASES_SIW	14

/* enum ib_event_type values the event file carries */
#define EV_PORT_ACTIVE	9
#define EV_PORT_ERR	10
#define EV_DEVICE_FATAL	8
#define EV_CQ_ERR	0

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
	uint8_t req[1024];
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

/* A command without a response address: @req goes as it is. */
static long legacy_in(int fd, uint32_t command, const void *req,
		      size_t req_len)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		uint8_t req[1024];
	} c;

	memset(&c, 0, sizeof(c));
	c.hdr.command = command;
	c.hdr.in_words = (sizeof(c.hdr) + req_len) / 4;
	memcpy(c.req, req, req_len);
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

	/* the rdma tool filters QPs by link, the others by device */
	snprintf(cmd, sizeof(cmd), "rdma resource show %s %s %s", kind,
		 strcmp(kind, "qp") ? "dev" : "link", dev);
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
	expect_err("a command nobody serves (OPEN_XRCD): EOPNOTSUPP",
		   legacy(fd, IB_USER_VERBS_CMD_OPEN_XRCD, &q, sizeof(q), &qr,
			  sizeof(qr)), EOPNOTSUPP);
	expect_err("bits outside the command number: EINVAL",
		   legacy(fd, 0x10000 | IB_USER_VERBS_CMD_QUERY_DEVICE, &q,
			  sizeof(q), &qr, sizeof(qr)), EINVAL);
	ex.hdr.command = IB_USER_VERBS_CMD_FLAG_EXTENDED |
			 IB_USER_VERBS_EX_CMD_CREATE_WQ;
	expect_err("extended CREATE_WQ (no driver here has WQs): EOPNOTSUPP",
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

/* The verbs constants of the kernel's API that the user ABI carries. */
#define QPT_RC		2
#define QPS_INIT	1
#define QPS_RTR		2
#define QPS_RTS		3
#define QP_STATE	0x1
#define QP_ACCESS	0x8
#define QP_PKEY		0x10
#define QP_PORT		0x20
#define QP_AV		0x80
#define QP_MTU		0x100
#define QP_TIMEOUT	0x200
#define QP_RETRY	0x400
#define QP_RNR_RETRY	0x800
#define QP_RQ_PSN	0x1000
#define QP_RD_ATOMIC	0x2000
#define QP_MIN_RNR	0x8000
#define QP_SQ_PSN	0x10000
#define QP_DEST_RD_ATOMIC 0x20000
#define QP_DEST_QPN	0x100000
#define MTU_1024	3
#define SEND_SIGNALED	0x2
#define WC_RECV		128
#define WC_REM_ACCESS_ERR 10
#define ACC_ALL		(IB_UVERBS_ACCESS_LOCAL_WRITE | \
			 IB_UVERBS_ACCESS_REMOTE_WRITE | \
			 IB_UVERBS_ACCESS_REMOTE_READ)

/* One RC QP with its CQ on DEV_IB, and the buffer it sends from. */
struct dp_side {
	uint32_t cq, qp, qpn, mr, lkey, rkey;
	uint8_t *buf;
};

static long reg_mr(int fd, uint32_t pd, void *addr, uint64_t len,
		   uint64_t iova, uint32_t access,
		   struct ib_uverbs_reg_mr_resp *r)
{
	struct ib_uverbs_reg_mr m = {
		.start = (uintptr_t)addr, .length = len, .hca_va = iova,
		.pd_handle = pd, .access_flags = access,
	};

	return legacy(fd, IB_USER_VERBS_CMD_REG_MR, &m, sizeof(m), r,
		      sizeof(*r));
}

static long create_cq(int fd, uint64_t user_handle, int channel,
		      uint32_t vector, uint32_t *handle)
{
	struct ib_uverbs_create_cq c = {
		.user_handle = user_handle, .cqe = 16,
		.comp_vector = vector, .comp_channel = channel,
	};
	struct ib_uverbs_create_cq_resp r = {};
	long ret;

	ret = legacy(fd, IB_USER_VERBS_CMD_CREATE_CQ, &c, sizeof(c), &r,
		     sizeof(r));
	*handle = r.cq_handle;
	return ret;
}

static long create_qp(int fd, uint32_t pd, uint32_t cq, uint8_t type,
		      struct ib_uverbs_create_qp_resp *r)
{
	struct ib_uverbs_create_qp c = {
		.user_handle = 0x5150, .pd_handle = pd, .send_cq_handle = cq,
		.recv_cq_handle = cq, .max_send_wr = 8, .max_recv_wr = 8,
		.max_send_sge = 2, .max_recv_sge = 2, .qp_type = type,
	};

	return legacy(fd, IB_USER_VERBS_CMD_CREATE_QP, &c, sizeof(c), r,
		      sizeof(*r));
}

/* Move @qp through INIT, RTR and RTS towards QP @dqpn at LID @dlid. */
static int connect_qp(int fd, uint32_t qp, uint32_t dqpn, uint16_t dlid)
{
	struct ib_uverbs_modify_qp m = {
		.qp_handle = qp, .qp_state = QPS_INIT, .port_num = 1,
		.qp_access_flags = ACC_ALL,
		.attr_mask = QP_STATE | QP_PKEY | QP_PORT | QP_ACCESS,
	};

	if (legacy_in(fd, IB_USER_VERBS_CMD_MODIFY_QP, &m, sizeof(m)) < 0)
		return -1;
	memset(&m, 0, sizeof(m));
	m.qp_handle = qp;
	m.qp_state = QPS_RTR;
	m.path_mtu = MTU_1024;
	m.dest_qp_num = dqpn;
	m.rq_psn = 7;
	m.max_dest_rd_atomic = 1;
	m.min_rnr_timer = 1;
	m.dest.dlid = dlid;
	m.dest.port_num = 1;
	m.attr_mask = QP_STATE | QP_AV | QP_MTU | QP_DEST_QPN | QP_RQ_PSN |
		      QP_DEST_RD_ATOMIC | QP_MIN_RNR;
	if (legacy_in(fd, IB_USER_VERBS_CMD_MODIFY_QP, &m, sizeof(m)) < 0)
		return -1;
	memset(&m, 0, sizeof(m));
	m.qp_handle = qp;
	m.qp_state = QPS_RTS;
	m.sq_psn = 7;
	m.timeout = 14;
	m.retry_cnt = 7;
	m.rnr_retry = 7;
	m.max_rd_atomic = 1;
	m.attr_mask = QP_STATE | QP_SQ_PSN | QP_TIMEOUT | QP_RETRY |
		      QP_RNR_RETRY | QP_RD_ATOMIC;
	return legacy_in(fd, IB_USER_VERBS_CMD_MODIFY_QP, &m, sizeof(m)) < 0 ?
	       -1 : 0;
}

/*
 * A POST_SEND of one request of @wqe_size bytes (the ABI's struct, cut
 * or zero-padded) and @sge_count SGEs (@sge, then zeroes), written
 * exactly.
 */
static long post_send(int fd, uint32_t qp, uint32_t opcode, uint64_t wr_id,
		      const struct ib_uverbs_sge *sge, uint64_t raddr,
		      uint32_t rkey, uint32_t sge_count, uint32_t wqe_size)
{
	struct ib_uverbs_post_send p = {
		.qp_handle = qp, .wr_count = 1, .sge_count = sge_count,
		.wqe_size = wqe_size,
	};
	struct ib_uverbs_send_wr w = {
		.wr_id = wr_id, .num_sge = 1, .opcode = opcode,
		.send_flags = SEND_SIGNALED,
		.wr.rdma = { .remote_addr = raddr, .rkey = rkey },
	};
	struct ib_uverbs_post_send_resp r = {};
	uint8_t c[512] = {};
	size_t n = sizeof(p);

	if (wqe_size > 256 || sge_count > 8)
		return -1;
	memcpy(c, &p, sizeof(p));
	memcpy(c + n, &w, wqe_size < sizeof(w) ? wqe_size : sizeof(w));
	n += wqe_size;
	if (sge_count)
		memcpy(c + n, sge, sizeof(*sge));
	n += sge_count * sizeof(*sge);
	return legacy(fd, IB_USER_VERBS_CMD_POST_SEND, c, n, &r, sizeof(r));
}

static long post_recv(int fd, uint32_t qp, uint64_t wr_id,
		      const struct ib_uverbs_sge *sge)
{
	struct {
		struct ib_uverbs_post_recv p;
		struct ib_uverbs_recv_wr w;
		struct ib_uverbs_sge s;
	} c = {};
	struct ib_uverbs_post_recv_resp r = {};

	c.p.qp_handle = qp;
	c.p.wr_count = 1;
	c.p.sge_count = 1;
	c.p.wqe_size = sizeof(c.w);
	c.w.wr_id = wr_id;
	c.w.num_sge = 1;
	c.s = *sge;
	return legacy(fd, IB_USER_VERBS_CMD_POST_RECV, &c, sizeof(c), &r,
		      sizeof(r));
}

/* POLL_CQ until a completion comes, 10 s at most; 0 or -1. */
static int poll_one(int fd, uint32_t cq, struct ib_uverbs_wc *wc)
{
	struct {
		struct ib_uverbs_poll_cq_resp r;
		struct ib_uverbs_wc wc;
	} out;
	struct ib_uverbs_poll_cq p = { .cq_handle = cq, .ne = 1 };
	int i;

	for (i = 0; i < 1000; i++) {
		memset(&out, 0, sizeof(out));
		if (legacy(fd, IB_USER_VERBS_CMD_POLL_CQ, &p, sizeof(p), &out,
			   sizeof(out)) < 0)
			return -1;
		if (out.r.count == 1) {
			*wc = out.wc;
			return 0;
		}
		usleep(10000);
	}
	return -1;
}

static long destroy_cq(int fd, uint32_t cq,
		       struct ib_uverbs_destroy_cq_resp *r)
{
	struct ib_uverbs_destroy_cq d = { .cq_handle = cq };

	return legacy(fd, IB_USER_VERBS_CMD_DESTROY_CQ, &d, sizeof(d), r,
		      sizeof(*r));
}

/* Read one completion event from @channel within 10 s; 0 or -1. */
static int comp_event(int channel, uint64_t *cq_handle)
{
	struct ib_uverbs_comp_event_desc ev;
	struct pollfd p = { .fd = channel, .events = POLLIN };

	if (poll(&p, 1, 10000) != 1 || !(p.revents & POLLIN))
		return -1;
	if (read(channel, &ev, sizeof(ev)) != sizeof(ev))
		return -1;
	*cq_handle = ev.cq_handle;
	return 0;
}

/*
 * Data through the commands on DEV_IB: two RC QPs on one port connected
 * to each other, SEND, RDMA WRITE and READ between registered buffers.
 */
static void test_datapath(const char *dev)
{
	struct ib_uverbs_get_context g = {};
	struct ib_uverbs_get_context_resp gr = {};
	struct ib_uverbs_create_comp_channel cc = {};
	struct ib_uverbs_create_comp_channel_resp ccr = {};
	struct ib_uverbs_create_qp_resp qr = {};
	struct ib_uverbs_destroy_cq_resp dr = {};
	struct ib_uverbs_reg_mr_resp mr = {};
	struct dp_side a = {}, b = {};
	struct ib_uverbs_wc wc = {};
	struct ib_uverbs_sge sge;
	uint8_t big[sizeof(gr) + 64];
	uint64_t cq_handle = 0;
	uint32_t cq_bad, pd;
	char path[128], buf[32];
	uint16_t lid;
	int fd, ok, i;
	long pdh;

	snprintf(path, sizeof(path), SYS_IB "/%s/ports/1/lid", dev);
	lid = read_file(path, buf, sizeof(buf)) ? 0 : strtoul(buf, NULL, 16);
	fd = open_uverbs(dev);
	ok = fd >= 0 && legacy(fd, IB_USER_VERBS_CMD_GET_CONTEXT, &g,
			       sizeof(g), big, sizeof(big)) > 0;
	memcpy(&gr, big, sizeof(gr));
	pdh = ok ? alloc_pd(fd) : -1;
	result(ok && pdh >= 0 && lid, "DEV_IB: a context, a PD, the port's LID",
	       "fd %d lid %u", fd, lid);
	pd = pdh;

	a.buf = aligned_alloc(4096, 8192);
	b.buf = aligned_alloc(4096, 8192);
	memset(a.buf, 0xa5, 8192);
	memset(b.buf, 0, 8192);

	/* memory regions */
	expect_err("REG_MR: start and iova at different page offsets: EINVAL",
		   reg_mr(fd, pd, a.buf + 8, 64, 0x10000, ACC_ALL, &mr),
		   EINVAL);
	expect_err("REG_MR: remote write without local write: EINVAL",
		   reg_mr(fd, pd, a.buf, 64, (uintptr_t)a.buf,
			  IB_UVERBS_ACCESS_REMOTE_WRITE, &mr), EINVAL);
	expect_err("REG_MR: a PD handle of none: EINVAL",
		   reg_mr(fd, 9999, a.buf, 64, (uintptr_t)a.buf, ACC_ALL, &mr),
		   EINVAL);
	expect_err("REG_MR: memory not mapped: EFAULT",
		   reg_mr(fd, pd, (void *)4096, 4096, 4096, ACC_ALL, &mr),
		   EFAULT);
	ok = reg_mr(fd, pd, a.buf, 8192, (uintptr_t)a.buf, ACC_ALL, &mr) > 0;
	a.mr = mr.mr_handle;
	a.lkey = mr.lkey;
	a.rkey = mr.rkey;
	/* B's at another iova than its address: keys name the iova */
	ok = ok && reg_mr(fd, pd, b.buf, 8192, 0x7000000, ACC_ALL, &mr) > 0;
	b.mr = mr.mr_handle;
	b.lkey = mr.lkey;
	b.rkey = mr.rkey;
	result(ok && a.lkey && b.lkey && a.lkey != b.lkey,
	       "REG_MR of two buffers: keys", "%s", strerror(errno));
	result(res_has_me("mr", dev, NULL), "rdma res show mr: ours", "");

	/* completion channel and CQs */
	ok = legacy(fd, IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL, &cc,
		    sizeof(cc), &ccr, sizeof(ccr)) > 0;
	result(ok && fcntl(ccr.fd, F_GETFD) == FD_CLOEXEC,
	       "CREATE_COMP_CHANNEL: an fd, close-on-exec", "%s",
	       strerror(errno));
	expect_err("CREATE_CQ with a channel that is no channel: EINVAL",
		   create_cq(fd, 1, fd, 0, &cq_bad), EINVAL);
	expect_err("CREATE_CQ on a completion vector the device lacks: EINVAL",
		   create_cq(fd, 1, -1, gr.num_comp_vectors, &cq_bad), EINVAL);
	ok = create_cq(fd, 0xaaaa, ccr.fd, 0, &a.cq) > 0 &&
	     create_cq(fd, 0xbbbb, -1, 0, &b.cq) > 0;
	result(ok && a.cq != b.cq, "CREATE_CQ twice, one on the channel",
	       "%s", strerror(errno));
	result(res_has_me("cq", dev, " ctxn "),
	       "rdma res show cq: ours, with its context", "");

	/* queue pairs */
	expect_err("CREATE_QP of an unknown type: EINVAL",
		   create_qp(fd, pd, a.cq, 0x77, &qr), EINVAL);
	expect_err("CREATE_QP with a CQ handle of none: EINVAL",
		   create_qp(fd, pd, 4242, QPT_RC, &qr), EINVAL);
	ok = create_qp(fd, pd, a.cq, QPT_RC, &qr) > 0;
	a.qp = qr.qp_handle;
	a.qpn = qr.qpn;
	ok = ok && create_qp(fd, pd, b.cq, QPT_RC, &qr) > 0;
	b.qp = qr.qp_handle;
	b.qpn = qr.qpn;
	result(ok && a.qpn != b.qpn && qr.max_send_wr >= 8,
	       "CREATE_QP: two RC QPs", "%s", strerror(errno));
	result(res_has_me("qp", dev, NULL), "rdma res show qp: ours", "");
	result(!connect_qp(fd, a.qp, b.qpn, lid) &&
	       !connect_qp(fd, b.qp, a.qpn, lid),
	       "MODIFY_QP: INIT, RTR, RTS towards each other", "%s",
	       strerror(errno));
	{
		struct ib_uverbs_query_qp q = {
			.qp_handle = a.qp, .attr_mask = QP_STATE | QP_DEST_QPN,
		};
		struct ib_uverbs_query_qp_resp r = {};

		ok = legacy(fd, IB_USER_VERBS_CMD_QUERY_QP, &q, sizeof(q), &r,
			    sizeof(r)) > 0;
		result(ok && r.qp_state == QPS_RTS && r.dest_qp_num == b.qpn &&
		       r.dest.dlid == lid && r.max_send_wr >= 8,
		       "QUERY_QP: RTS, the peer's QPN and LID", "state %u",
		       r.qp_state);
	}

	/* SEND: A's buffer into B's */
	sge = (struct ib_uverbs_sge){ .addr = 0x7000000, .length = 4096,
				      .lkey = b.lkey };
	result(post_recv(fd, b.qp, 21, &sge) > 0, "POST_RECV on B", "%s",
	       strerror(errno));
	sge = (struct ib_uverbs_sge){ .addr = (uintptr_t)a.buf, .length = 3000,
				      .lkey = a.lkey };
	{
		struct ib_uverbs_req_notify_cq n = { .cq_handle = a.cq };

		result(legacy_in(fd, IB_USER_VERBS_CMD_REQ_NOTIFY_CQ, &n,
				 sizeof(n)) > 0, "REQ_NOTIFY_CQ on A's CQ",
		       "%s", strerror(errno));
	}
	result(post_send(fd, a.qp, IB_UVERBS_WR_SEND, 11, &sge, 0, 0, 1,
			 sizeof(struct ib_uverbs_send_wr)) > 0,
	       "POST_SEND of a SEND on A", "%s", strerror(errno));
	ok = !poll_one(fd, a.cq, &wc);
	result(ok && wc.wr_id == 11 && wc.status == 0 &&
	       wc.opcode == IB_UVERBS_WC_SEND && wc.qp_num == a.qpn,
	       "POLL_CQ: A's SEND completed", "wr_id %llu status %u opcode %u",
	       (unsigned long long)wc.wr_id, wc.status, wc.opcode);
	ok = !poll_one(fd, b.cq, &wc);
	for (i = 0; i < 3000 && b.buf[i] == 0xa5; i++)
		;
	result(ok && wc.wr_id == 21 && wc.opcode == WC_RECV &&
	       wc.byte_len == 3000 && wc.src_qp == a.qpn && i == 3000 &&
	       !b.buf[3000], "B's receive: 3000 bytes, A's data",
	       "wr_id %llu byte_len %u, %d bytes equal",
	       (unsigned long long)wc.wr_id, wc.byte_len, i);
	result(!comp_event(ccr.fd, &cq_handle) && cq_handle == 0xaaaa,
	       "the channel's event names A's CQ by its user handle",
	       "handle %#llx", (unsigned long long)cq_handle);

	/* RDMA WRITE into B at its iova, then READ it back into A */
	memset(a.buf, 0x3c, 512);
	sge = (struct ib_uverbs_sge){ .addr = (uintptr_t)a.buf, .length = 512,
				      .lkey = a.lkey };
	ok = post_send(fd, a.qp, IB_UVERBS_WR_RDMA_WRITE, 12, &sge,
		       0x7000000 + 4096, b.rkey, 1,
		       sizeof(struct ib_uverbs_send_wr)) > 0 &&
	     !poll_one(fd, a.cq, &wc) && !wc.status;
	result(ok && b.buf[4096] == 0x3c && b.buf[4096 + 511] == 0x3c &&
	       !b.buf[4096 + 512], "RDMA WRITE at B's iova", "status %u",
	       wc.status);
	sge = (struct ib_uverbs_sge){ .addr = (uintptr_t)a.buf + 4096,
				      .length = 512, .lkey = a.lkey };
	ok = post_send(fd, a.qp, IB_UVERBS_WR_RDMA_READ, 13, &sge,
		       0x7000000 + 4096, b.rkey, 1,
		       sizeof(struct ib_uverbs_send_wr)) > 0 &&
	     !poll_one(fd, a.cq, &wc) && !wc.status &&
	     wc.opcode == IB_UVERBS_WC_RDMA_READ;
	result(ok && a.buf[4096] == 0x3c && a.buf[4096 + 511] == 0x3c,
	       "RDMA READ back into A", "status %u opcode %u", wc.status,
	       wc.opcode);
	ok = post_send(fd, a.qp, IB_UVERBS_WR_RDMA_WRITE, 14, &sge,
		       0x7000000 + 8000, b.rkey, 1,
		       sizeof(struct ib_uverbs_send_wr)) > 0 &&
	     !poll_one(fd, a.cq, &wc);
	result(ok && wc.wr_id == 14 && wc.status == WC_REM_ACCESS_ERR,
	       "RDMA WRITE past B's MR: remote access error", "status %u",
	       wc.status);

	/* malformed work requests */
	expect_err("POST_SEND with an SGE more than sge_count: EINVAL",
		   post_send(fd, b.qp, IB_UVERBS_WR_SEND, 1, &sge, 0, 0, 0,
			     sizeof(struct ib_uverbs_send_wr)), EINVAL);
	{
		struct {
			struct ib_uverbs_post_send p;
			uint64_t junk;
		} c = { .p = { .qp_handle = b.qp, .wr_count = 2,
			       .wqe_size = sizeof(struct ib_uverbs_send_wr) } };
		struct ib_uverbs_post_send_resp r;

		expect_err("POST_SEND with requests past what it wrote: ENOSPC",
			   legacy(fd, IB_USER_VERBS_CMD_POST_SEND, &c,
				  sizeof(c), &r, sizeof(r)), ENOSPC);
		c.p.wr_count = 0;
		c.junk = 1;
		expect_err("POST_SEND with bytes past its arrays: EOPNOTSUPP",
			   legacy(fd, IB_USER_VERBS_CMD_POST_SEND, &c,
				  sizeof(c), &r, sizeof(r)), EOPNOTSUPP);
	}
	expect_err("POST_SEND with a WQE smaller than the ABI's: EINVAL",
		   post_send(fd, b.qp, IB_UVERBS_WR_SEND, 1, &sge, 0, 0, 1,
			     8), EINVAL);
	expect_err("POST_SEND of an opcode RC cannot post: EINVAL",
		   post_send(fd, b.qp, IB_UVERBS_WR_BIND_MW, 1, &sge, 0, 0, 1,
			     sizeof(struct ib_uverbs_send_wr)), EINVAL);

	/* refusals while in use, then teardown */
	expect_err("DESTROY_CQ of A's CQ while its QP lives: EBUSY",
		   destroy_cq(fd, a.cq, &dr), EBUSY);
	expect_err("DEALLOC_PD while MRs and QPs are in it: EBUSY",
		   dealloc_pd(fd, pd), EBUSY);
	{
		struct ib_uverbs_destroy_qp d = { .qp_handle = a.qp };
		struct ib_uverbs_destroy_qp_resp r = { .events_reported = 9 };
		struct ib_uverbs_dereg_mr m = { .mr_handle = a.mr };

		ok = legacy(fd, IB_USER_VERBS_CMD_DESTROY_QP, &d, sizeof(d),
			    &r, sizeof(r)) > 0 && r.events_reported == 0;
		ok = ok && legacy_in(fd, IB_USER_VERBS_CMD_DEREG_MR, &m,
				     sizeof(m)) > 0;
		result(ok, "DESTROY_QP (no async event read), DEREG_MR",
		       "%s", strerror(errno));
	}
	ok = destroy_cq(fd, a.cq, &dr) > 0;
	result(ok && dr.comp_events_reported == 1 &&
	       dr.async_events_reported == 0,
	       "DESTROY_CQ: one completion event read", "comp %u async %u",
	       dr.comp_events_reported, dr.async_events_reported);
	/* B's QP, CQ, MR and the PD go with the file */
	result(!close(ccr.fd) && !close(fd), "the channel and the file close",
	       "%s", strerror(errno));
	free(a.buf);
	free(b.buf);
}

/* rdmavt's ring ABI (uapi/rdma/rvt-abi.h) */
#define CQ_RING(n)	(8 + sizeof(struct ib_uverbs_wc) * (n))
#define RQ_RING(n, sge)	(8 + (16 + 16 * (sge)) * (n))

/* CREATE_CQ with room for rdmavt's ring offset in the driver response */
static long create_ring_cq(int fd, uint32_t cqe, uint32_t *handle,
			   uint64_t *offset)
{
	struct ib_uverbs_create_cq c = { .cqe = cqe, .comp_channel = -1 };
	struct {
		struct ib_uverbs_create_cq_resp r;
		uint64_t offset;
	} r = {};
	long ret;

	ret = legacy(fd, IB_USER_VERBS_CMD_CREATE_CQ, &c, sizeof(c), &r,
		     sizeof(r));
	*handle = r.r.cq_handle;
	*offset = r.offset;
	return ret;
}

/* An RC QP on @cq whose receive ring (2 SGEs, 8 WQEs) maps at *@offset */
static long create_ring_qp(int fd, uint32_t pd, uint32_t cq,
			   struct ib_uverbs_create_qp_resp *resp,
			   uint64_t *offset)
{
	struct ib_uverbs_create_qp c = {
		.pd_handle = pd, .send_cq_handle = cq, .recv_cq_handle = cq,
		.max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 2,
		.max_recv_sge = 2, .qp_type = QPT_RC,
	};
	struct {
		struct ib_uverbs_create_qp_resp r;
		uint64_t offset;
	} r = {};
	long ret;

	ret = legacy(fd, IB_USER_VERBS_CMD_CREATE_QP, &c, sizeof(c), &r,
		     sizeof(r));
	*resp = r.r;
	*offset = r.offset;
	return ret;
}

/* Wait up to 10 s for a mapped CQ ring's head to reach @n. */
static int ring_head_reaches(uint32_t *head, uint32_t n)
{
	int i;

	for (i = 0; i < 1000; i++) {
		if (__atomic_load_n(head, __ATOMIC_ACQUIRE) == n)
			return 1;
		usleep(10000);
	}
	return 0;
}

/*
 * rdmavt's rings mapped into this process: a CQ's and a receive
 * queue's, completions and receives through them, a resized CQ's ring
 * taking the completions not polled, an SRQ's ring resized, and indexes
 * past the ring written by user space.
 */
static void test_rings(const char *dev)
{
	struct ib_uverbs_get_context g = {};
	struct ib_uverbs_get_context_resp gr[2] = {};
	struct ib_uverbs_create_qp_resp qa, qb;
	struct ib_uverbs_reg_mr_resp mr = {};
	struct ib_uverbs_wc *w;
	uint32_t cq, cqa, pd, *ring, *ring2, *rq, i;
	uint64_t off, off2, rqoff, dummy;
	struct ib_uverbs_sge sge;
	uint8_t *buf, *ent;
	char path[128], lidbuf[32];
	uint16_t lid;
	int fd, ok;
	long pdh;

	snprintf(path, sizeof(path), SYS_IB "/%s/ports/1/lid", dev);
	lid = read_file(path, lidbuf, sizeof(lidbuf)) ? 0 :
	      strtoul(lidbuf, NULL, 16);
	fd = open_uverbs(dev);
	ok = fd >= 0 && legacy(fd, IB_USER_VERBS_CMD_GET_CONTEXT, &g,
			       sizeof(g), gr, sizeof(gr)) > 0;
	pdh = ok ? alloc_pd(fd) : -1;
	pd = pdh;
	buf = aligned_alloc(4096, 16384);
	memset(buf, 0x5a, 8192);
	memset(buf + 8192, 0, 8192);
	ok = ok && pdh >= 0 &&
	     reg_mr(fd, pd, buf, 16384, (uintptr_t)buf, ACC_ALL, &mr) > 0;
	result(ok && lid, "rings: a context, a PD and an MR on DEV_IB", "%s",
	       strerror(errno));

	/* an offset of 0 is a valid answer: the context's first entry */
	off = ~0ull;
	ok = create_ring_cq(fd, 4, &cq, &off) > 0 && off != ~0ull;
	result(ok, "CREATE_CQ with room for rdmavt's offset: a ring to map",
	       "%s", strerror(errno));
	expect_err("mmap of the ring at another length: EINVAL",
		   (long)mmap(NULL, CQ_RING(5) + 4096, PROT_READ | PROT_WRITE,
			      MAP_SHARED, fd, off), EINVAL);
	expect_err("mmap of the ring not shared: EINVAL",
		   (long)mmap(NULL, CQ_RING(5), PROT_READ | PROT_WRITE,
			      MAP_PRIVATE, fd, off), EINVAL);
	ring = mmap(NULL, CQ_RING(5), PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    off);
	result(ring != MAP_FAILED && !ring[0] && !ring[1],
	       "mmap of the CQ's ring: empty", "%s", strerror(errno));
	if (ring == MAP_FAILED)
		return;

	/* A (no rings) sends to B, whose receive ring is mapped */
	ok = create_cq(fd, 1, -1, 0, &cqa) > 0 &&
	     create_qp(fd, pd, cqa, QPT_RC, &qa) > 0 &&
	     create_ring_qp(fd, pd, cq, &qb, &rqoff) > 0 && rqoff != off;
	rq = ok ? mmap(NULL, RQ_RING(qb.max_recv_wr + 1, qb.max_recv_sge),
		       PROT_READ | PROT_WRITE, MAP_SHARED, fd, rqoff) :
		  MAP_FAILED;
	result(rq != MAP_FAILED && qb.max_recv_sge == 2,
	       "CREATE_QP with room for the offset: its receive ring maps",
	       "%s", strerror(errno));
	if (rq == MAP_FAILED)
		return;
	result(!connect_qp(fd, qa.qp_handle, qb.qpn, lid) &&
	       !connect_qp(fd, qb.qp_handle, qa.qpn, lid),
	       "rings: two RC QPs connected", "%s", strerror(errno));

	/* a receive posted into B's ring by this process */
	ent = (uint8_t *)&rq[2];
	memset(ent, 0, 48);
	*(uint64_t *)ent = 31;
	ent[8] = 1;
	sge = (struct ib_uverbs_sge){ .addr = (uintptr_t)buf + 8192,
				      .length = 4096, .lkey = mr.lkey };
	memcpy(ent + 16, &sge, sizeof(sge));
	__atomic_store_n(&rq[0], 1, __ATOMIC_RELEASE);
	sge = (struct ib_uverbs_sge){ .addr = (uintptr_t)buf, .length = 3000,
				      .lkey = mr.lkey };
	ok = post_send(fd, qa.qp_handle, IB_UVERBS_WR_SEND, 11, &sge, 0, 0, 1,
		       sizeof(struct ib_uverbs_send_wr)) > 0;
	result(ok && ring_head_reaches(&ring[0], 1),
	       "B's receive completes into the CQ's ring",
	       "head %u", ring[0]);
	w = (struct ib_uverbs_wc *)&ring[2];
	for (i = 0; i < 3000 && buf[8192 + i] == 0x5a; i++)
		;
	result(w->wr_id == 31 && w->opcode == WC_RECV && w->byte_len == 3000 &&
	       w->qp_num == qb.qpn && i == 3000 &&
	       __atomic_load_n(&rq[1], __ATOMIC_ACQUIRE) == 1,
	       "the ring's entry: B's receive, A's data; the RQ's tail moved",
	       "wr_id %llu opcode %u len %u, %u bytes equal",
	       (unsigned long long)w->wr_id, w->opcode, w->byte_len, i);
	{
		struct {
			struct ib_uverbs_poll_cq_resp r;
			struct ib_uverbs_wc wc;
		} out;
		struct ib_uverbs_poll_cq p = { .cq_handle = cq, .ne = 1 };

		expect_err("POLL_CQ of a CQ whose ring user space polls: EINVAL",
			   legacy(fd, IB_USER_VERBS_CMD_POLL_CQ, &p, sizeof(p),
				  &out, sizeof(out)), EINVAL);
	}

	/* the CQ grows: the completion not polled moves to the new ring */
	{
		struct ib_uverbs_resize_cq r = { .cq_handle = cq, .cqe = 8 };
		struct {
			struct ib_uverbs_resize_cq_resp r;
			uint64_t offset;
		} rr = {};

		ok = legacy(fd, IB_USER_VERBS_CMD_RESIZE_CQ, &r, sizeof(r), &rr,
			    sizeof(rr)) > 0;
		off2 = rr.offset;
		result(ok && rr.r.cqe == 8 && off2 && off2 != off,
		       "RESIZE_CQ: a new ring at a new offset", "%s",
		       strerror(errno));
	}
	ring2 = mmap(NULL, CQ_RING(9), PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		     off2);
	result(ring2 != MAP_FAILED && ring2[0] == 1 && ring2[1] == 0 &&
	       !memcmp(&ring2[2], w, sizeof(*w)),
	       "the new ring holds the completion not polled", "%s",
	       strerror(errno));
	if (ring2 == MAP_FAILED)
		return;

	/*
	 * Indexes past the ring: a CQ tail reads as everything polled, an
	 * RQ head as nothing posted (POST_RECV posts after the tail).
	 */
	__atomic_store_n(&ring2[1], 0xfffffff0, __ATOMIC_RELEASE);
	__atomic_store_n(&rq[0], 0xffffffff, __ATOMIC_RELEASE);
	{
		struct {
			struct ib_uverbs_post_recv p;
			struct ib_uverbs_recv_wr w;
			struct ib_uverbs_sge s;
		} c = { .p = { .qp_handle = qb.qp_handle, .wr_count = 1,
			       .sge_count = 1,
			       .wqe_size = sizeof(struct ib_uverbs_recv_wr) },
			.w = { .wr_id = 32, .num_sge = 1 },
			.s = { .addr = (uintptr_t)buf + 12288, .length = 4096,
			       .lkey = mr.lkey } };
		struct ib_uverbs_post_recv_resp r;

		ok = legacy(fd, IB_USER_VERBS_CMD_POST_RECV, &c, sizeof(c), &r,
			    sizeof(r)) > 0 &&
		     __atomic_load_n(&rq[0], __ATOMIC_ACQUIRE) == 2;
		result(ok, "an RQ head past the ring: POST_RECV posts after the tail",
		       "head %u", rq[0]);
	}
	ok = post_send(fd, qa.qp_handle, IB_UVERBS_WR_SEND, 12, &sge, 0, 0, 1,
		       sizeof(struct ib_uverbs_send_wr)) > 0 &&
	     ring_head_reaches(&ring2[0], 2);
	w = (struct ib_uverbs_wc *)&ring2[2];
	result(ok && w[1].wr_id == 32 && w[1].byte_len == 3000 &&
	       buf[12288] == 0x5a,
	       "a CQ tail past the ring: the next completion still comes",
	       "head %u wr_id %llu", ring2[0],
	       (unsigned long long)w[1].wr_id);

	/* an SRQ's ring, resized: the new offset goes where it was asked */
	{
		struct ib_uverbs_create_srq c = { .pd_handle = pd, .max_wr = 4,
						  .max_sge = 1 };
		struct {
			struct ib_uverbs_create_srq_resp r;
			uint64_t offset;
		} r = {};
		struct {
			struct ib_uverbs_modify_srq m;
			uint64_t offset_addr;
		} m = { .m = { .attr_mask = 1, .max_wr = 8 } };
		uint32_t *srq = MAP_FAILED;

		ok = legacy(fd, IB_USER_VERBS_CMD_CREATE_SRQ, &c, sizeof(c), &r,
			    sizeof(r)) > 0;
		if (ok)
			srq = mmap(NULL, RQ_RING(5, 1), PROT_READ | PROT_WRITE,
				   MAP_SHARED, fd, r.offset);
		result(srq != MAP_FAILED, "CREATE_SRQ: its ring maps", "%s",
		       strerror(errno));
		dummy = ~0ull;
		m.m.srq_handle = r.r.srq_handle;
		m.offset_addr = (uintptr_t)&dummy;
		ok = legacy_in(fd, IB_USER_VERBS_CMD_MODIFY_SRQ, &m,
			       sizeof(m)) > 0 && dummy != ~0ull &&
		     dummy != r.offset;
		srq = ok ? mmap(NULL, RQ_RING(9, 1), PROT_READ | PROT_WRITE,
				MAP_SHARED, fd, dummy) : MAP_FAILED;
		result(srq != MAP_FAILED,
		       "MODIFY_SRQ resizes: the new ring's offset where asked, it maps",
		       "offset %#llx: %s", (unsigned long long)dummy,
		       strerror(errno));
	}
	/* the mappings outlive the close; the objects go with it */
	result(!close(gr[0].async_fd) && !close(fd),
	       "rings: the files close with the rings mapped", "%s",
	       strerror(errno));
	free(buf);
}

/* ------------------------------------------------------------------
 * rxe's user ABI on DEV_RXE: the queues librxe maps, written and read
 * here as librxe does, and as a broken or hostile process might.
 */

#define QPT_UD		4
#define QPS_RESET	0
#define QPS_ERR		6
#define QP_QKEY		0x40
#define WC_LOC_LEN_ERR	1
#define WC_LOC_QP_OP_ERR 2
#define WC_FLUSH_ERR	5
#define WC_MW_BIND_ERR	6
#define WC_BIND_MW	5
#define SEND_INLINE	0x8
#define RXE_QKEY	0x11110000

/* A queue mapped into this process, as librxe maps it. */
struct rxe_map {
	struct rxe_queue_buf *q;
	size_t size;
};

static int rxe_map(int fd, const struct mminfo *mi, struct rxe_map *m)
{
	void *p = mmap(NULL, mi->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       mi->offset);

	if (!mi->size || p == MAP_FAILED)
		return -1;
	m->q = p;
	m->size = mi->size;
	return 0;
}

static void rxe_unmap(struct rxe_map *m)
{
	if (m->q)
		munmap(m->q, m->size);
	m->q = NULL;
}

static void *rxe_slot(struct rxe_map *m, uint32_t i)
{
	return m->q->data + ((size_t)(i & m->q->index_mask) <<
			     m->q->log2_elem_size);
}

/* The entry at the producer index, zeroed (the caller fills it in). */
static void *rxe_producer_slot(struct rxe_map *m)
{
	void *e = rxe_slot(m, m->q->producer_index);

	memset(e, 0, (size_t)1 << m->q->log2_elem_size);
	return e;
}

/* Publish the entry at the producer index (@extra: bits past the mask). */
static void rxe_produce(struct rxe_map *m, uint32_t extra)
{
	uint32_t p = (m->q->producer_index + 1) & m->q->index_mask;

	__atomic_store_n(&m->q->producer_index, p | extra, __ATOMIC_RELEASE);
}

/* The next completion of a CQ's queue within 10 s; 0 or -1. */
static int rxe_poll(struct rxe_map *cq, struct ib_uverbs_wc *wc)
{
	uint32_t c;
	int i;

	for (i = 0; i < 1000; i++) {
		c = cq->q->consumer_index;
		if (__atomic_load_n(&cq->q->producer_index, __ATOMIC_ACQUIRE) !=
		    c) {
			memcpy(wc, rxe_slot(cq, c), sizeof(*wc));
			__atomic_store_n(&cq->q->consumer_index,
					 (c + 1) & cq->q->index_mask,
					 __ATOMIC_RELEASE);
			return 0;
		}
		usleep(10000);
	}
	return -1;
}

/*
 * @n completions of a CQ's queue into @wc; 0 or -1.  A SEND to a QP of
 * the same CQ completes in either order with its receive.
 */
static int rxe_poll_n(struct rxe_map *cq, struct ib_uverbs_wc *wc, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (rxe_poll(cq, &wc[i]))
			return -1;
	return 0;
}

/* The completion of @wr_id among @n, or NULL. */
static struct ib_uverbs_wc *rxe_wc_of(struct ib_uverbs_wc *wc, int n,
				      uint64_t wr_id)
{
	int i;

	for (i = 0; i < n; i++)
		if (wc[i].wr_id == wr_id)
			return &wc[i];
	return NULL;
}

/* The doorbell: POST_SEND with no request, as librxe rings it. */
static long rxe_doorbell(int fd, uint32_t qp)
{
	struct ib_uverbs_post_send p = {
		.qp_handle = qp, .wqe_size = sizeof(struct ib_uverbs_send_wr),
	};
	struct ib_uverbs_post_send_resp r = {};

	return legacy(fd, IB_USER_VERBS_CMD_POST_SEND, &p, sizeof(p), &r,
		      sizeof(r));
}

/* A send entry of one SGE (or none) at the producer index. */
static struct rxe_send_wqe *rxe_send_entry(struct rxe_map *sq, uint32_t op,
					   uint64_t wr_id, uint32_t flags,
					   const struct rxe_sge *sge)
{
	struct rxe_send_wqe *w = rxe_producer_slot(sq);

	w->wr.wr_id = wr_id;
	w->wr.opcode = op;
	w->wr.send_flags = flags;
	if (sge) {
		w->dma.num_sge = 1;
		w->dma.length = sge->length;
		w->dma.sge[0] = *sge;
	}
	return w;
}

/* A receive entry of one SGE at the producer index, published. */
static void rxe_recv_entry(struct rxe_map *rq, uint64_t wr_id,
			   const struct rxe_sge *sge, uint32_t num_sge,
			   uint32_t extra)
{
	struct rxe_recv_wqe *w = rxe_producer_slot(rq);

	w->wr_id = wr_id;
	w->dma.num_sge = num_sge;
	w->dma.length = sge->length;
	w->dma.sge[0] = *sge;
	rxe_produce(rq, extra);
}

/* The index and bytes of DEV's first RoCE v2 GID of an IPv4 address. */
static int rxe_gid(const char *dev, uint8_t *gid)
{
	char path[128], buf[64];
	unsigned int w[8];
	int i, j;

	for (i = 0; i < 16; i++) {
		snprintf(path, sizeof(path),
			 SYS_IB "/%s/ports/1/gid_attrs/types/%d", dev, i);
		if (read_file(path, buf, sizeof(buf)) || strcmp(buf, "RoCE v2"))
			continue;
		snprintf(path, sizeof(path), SYS_IB "/%s/ports/1/gids/%d",
			 dev, i);
		if (read_file(path, buf, sizeof(buf)) ||
		    strncmp(buf, "0000:0000:0000:0000:0000:ffff:", 30) ||
		    sscanf(buf, "%x:%x:%x:%x:%x:%x:%x:%x", &w[0], &w[1], &w[2],
			   &w[3], &w[4], &w[5], &w[6], &w[7]) != 8)
			continue;
		for (j = 0; j < 8; j++) {
			gid[2 * j] = w[j] >> 8;
			gid[2 * j + 1] = w[j];
		}
		return i;
	}
	return -1;
}

/* The queue pair of the rxe cases and what it maps. */
struct rxe_side {
	int fd;
	uint32_t pd, cq, qp, qpn, lkey, rkey, ah;
	struct rxe_map cqm, sqm, rqm;
	uint8_t *buf;
	uint8_t gid[16];
	int gidx;
};

static long rxe_create_cq(struct rxe_side *s, uint32_t cqe,
			  struct ib_uverbs_create_cq_resp *r,
			  struct rxe_create_cq_resp *d, size_t resp_len)
{
	struct ib_uverbs_create_cq c = { .user_handle = 7, .cqe = cqe,
					 .comp_channel = -1 };
	struct {
		struct ib_uverbs_create_cq_resp r;
		struct rxe_create_cq_resp d;
	} out = {};
	long ret;

	ret = legacy(s->fd, IB_USER_VERBS_CMD_CREATE_CQ, &c, sizeof(c), &out,
		     resp_len);
	*r = out.r;
	*d = out.d;
	return ret;
}

static long rxe_create_qp(struct rxe_side *s, uint8_t type,
			  struct ib_uverbs_create_qp_resp *r,
			  struct rxe_create_qp_resp *d)
{
	struct ib_uverbs_create_qp c = {
		.user_handle = 0x5151, .pd_handle = s->pd,
		.send_cq_handle = s->cq, .recv_cq_handle = s->cq,
		.max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 2,
		.max_recv_sge = 2, .qp_type = type,
	};
	struct {
		struct ib_uverbs_create_qp_resp r;
		struct rxe_create_qp_resp d;
	} out = {};
	long ret;

	ret = legacy(s->fd, IB_USER_VERBS_CMD_CREATE_QP, &c, sizeof(c), &out,
		     sizeof(out));
	*r = out.r;
	*d = out.d;
	return ret;
}

static long rxe_modify(struct rxe_side *s, struct ib_uverbs_modify_qp *m)
{
	m->qp_handle = s->qp;
	return legacy_in(s->fd, IB_USER_VERBS_CMD_MODIFY_QP, m, sizeof(*m));
}

/* RC: RESET (when asked), INIT, RTR, RTS towards itself over RoCE v2. */
static int rxe_connect_self(struct rxe_side *s, int reset)
{
	struct ib_uverbs_modify_qp m = { .qp_state = QPS_RESET,
					 .attr_mask = QP_STATE };

	if (reset && rxe_modify(s, &m) < 0)
		return -1;
	m = (struct ib_uverbs_modify_qp){
		.qp_state = QPS_INIT, .port_num = 1, .qp_access_flags = ACC_ALL,
		.attr_mask = QP_STATE | QP_PKEY | QP_PORT | QP_ACCESS,
	};
	if (rxe_modify(s, &m) < 0)
		return -1;
	m = (struct ib_uverbs_modify_qp){
		.qp_state = QPS_RTR, .path_mtu = MTU_1024,
		.dest_qp_num = s->qpn, .rq_psn = 9, .max_dest_rd_atomic = 1,
		.min_rnr_timer = 1,
		.attr_mask = QP_STATE | QP_AV | QP_MTU | QP_DEST_QPN |
			     QP_RQ_PSN | QP_DEST_RD_ATOMIC | QP_MIN_RNR,
	};
	memcpy(m.dest.dgid, s->gid, 16);
	m.dest.sgid_index = s->gidx;
	m.dest.hop_limit = 64;
	m.dest.is_global = 1;
	m.dest.port_num = 1;
	if (rxe_modify(s, &m) < 0)
		return -1;
	m = (struct ib_uverbs_modify_qp){
		.qp_state = QPS_RTS, .sq_psn = 9, .timeout = 14, .retry_cnt = 7,
		.rnr_retry = 7, .max_rd_atomic = 1,
		.attr_mask = QP_STATE | QP_SQ_PSN | QP_TIMEOUT | QP_RETRY |
			     QP_RNR_RETRY | QP_RD_ATOMIC,
	};
	return rxe_modify(s, &m) < 0 ? -1 : 0;
}

static uint32_t rxe_qp_state(struct rxe_side *s)
{
	struct ib_uverbs_query_qp q = { .qp_handle = s->qp,
					.attr_mask = QP_STATE };
	struct ib_uverbs_query_qp_resp r = {};

	if (legacy(s->fd, IB_USER_VERBS_CMD_QUERY_QP, &q, sizeof(q), &r,
		   sizeof(r)) < 0)
		return 0xff;
	return r.qp_state;
}

/*
 * A SEND of @len bytes from the start of the buffer into its second
 * half, through the queues; 0 when both completions came, in order,
 * successful, and the bytes arrived.
 */
static int rxe_send_self(struct rxe_side *s, uint32_t len, uint64_t id)
{
	struct rxe_sge rs = { .addr = (uintptr_t)s->buf + 4096,
			      .length = 4096, .lkey = s->lkey };
	struct rxe_sge ss = { .addr = (uintptr_t)s->buf, .length = len,
			      .lkey = s->lkey };
	struct ib_uverbs_wc wc[2], *sw, *rw;

	memset(s->buf, (int)id, len);
	memset(s->buf + 4096, 0, 4096);
	rxe_recv_entry(&s->rqm, id + 1, &rs, 1, 0);
	rxe_send_entry(&s->sqm, IB_UVERBS_WR_SEND, id, SEND_SIGNALED, &ss);
	rxe_produce(&s->sqm, 0);
	if (rxe_doorbell(s->fd, s->qp) < 0 || rxe_poll_n(&s->cqm, wc, 2))
		return -1;
	sw = rxe_wc_of(wc, 2, id);
	rw = rxe_wc_of(wc, 2, id + 1);
	return sw && !sw->status && sw->opcode == IB_UVERBS_WC_SEND && rw &&
	       !rw->status && rw->opcode == WC_RECV && rw->byte_len == len &&
	       rw->qp_num == s->qpn && !memcmp(s->buf, s->buf + 4096, len) ?
	       0 : -1;
}

/*
 * One malformed send entry (@w filled in by the caller at the producer
 * index) and a good SEND behind it: the bad one completes with @status,
 * the QP goes to the error state, the SEND and a receive posted before
 * are flushed; then RESET and a new connection make the QP work again.
 */
static int rxe_bad_entry(struct rxe_side *s, uint32_t status)
{
	struct rxe_sge rs = { .addr = (uintptr_t)s->buf + 4096,
			      .length = 4096, .lkey = s->lkey };
	struct rxe_sge ss = { .addr = (uintptr_t)s->buf, .length = 8,
			      .lkey = s->lkey };
	struct ib_uverbs_wc wc[3], *bad, *snd, *rcv;
	int ok;

	rxe_recv_entry(&s->rqm, 71, &rs, 1, 0);
	rxe_produce(&s->sqm, 0);
	rxe_send_entry(&s->sqm, IB_UVERBS_WR_SEND, 72, SEND_SIGNALED, &ss);
	rxe_produce(&s->sqm, 0);
	if (rxe_doorbell(s->fd, s->qp) < 0 || rxe_poll_n(&s->cqm, wc, 3))
		return -1;
	/* the receive is flushed when the QP fails, before or after */
	bad = rxe_wc_of(wc, 3, 70);
	snd = rxe_wc_of(wc, 3, 72);
	rcv = rxe_wc_of(wc, 3, 71);
	ok = rxe_qp_state(s) == QPS_ERR && bad && bad->status == status &&
	     snd && snd->status == WC_FLUSH_ERR && rcv &&
	     rcv->status == WC_FLUSH_ERR;
	/* every slot free again, and the QP back to work after RESET */
	ok = ok && s->sqm.q->consumer_index ==
		   (s->sqm.q->producer_index & s->sqm.q->index_mask);
	return ok && !rxe_connect_self(s, 1) && !rxe_send_self(s, 64, 80) ?
	       0 : -1;
}

static void test_rxe(const char *dev)
{
	struct ib_uverbs_get_context g = {};
	struct ib_uverbs_get_context_resp gr[2] = {};
	struct ib_uverbs_create_cq_resp cr;
	struct rxe_create_cq_resp cd;
	struct ib_uverbs_create_qp_resp qr;
	struct rxe_create_qp_resp qd;
	struct ib_uverbs_reg_mr_resp mr = {};
	struct rxe_side s = {};
	struct rxe_send_wqe *w;
	struct ib_uverbs_wc wc, wcs[2], *pw;
	struct rxe_sge sge;
	long pdh;
	int ok, i;

	s.gidx = rxe_gid(dev, s.gid);
	s.fd = open_uverbs(dev);
	ok = s.fd >= 0 && legacy(s.fd, IB_USER_VERBS_CMD_GET_CONTEXT, &g,
				 sizeof(g), gr, sizeof(gr)) > 0;
	pdh = ok ? alloc_pd(s.fd) : -1;
	s.pd = pdh;
	s.buf = aligned_alloc(4096, 8192);
	ok = ok && pdh >= 0 && s.gidx >= 0 && s.buf &&
	     reg_mr(s.fd, s.pd, s.buf, 8192, (uintptr_t)s.buf, ACC_ALL,
		    &mr) > 0;
	s.lkey = mr.lkey;
	s.rkey = mr.rkey;
	result(ok, "DEV_RXE: a context, a PD, an MR, a RoCE v2 GID",
	       "gid index %d: %s", s.gidx, strerror(errno));

	/* completion queue */
	expect_err("rxe CREATE_CQ without room for rxe's answer: EINVAL",
		   rxe_create_cq(&s, 16, &cr, &cd, sizeof(cr)), EINVAL);
	ok = rxe_create_cq(&s, 16, &cr, &cd, sizeof(cr) + sizeof(cd)) > 0 &&
	     !rxe_map(s.fd, &cd.mi, &s.cqm);
	s.cq = cr.cq_handle;
	result(ok && cr.cqe == 31 && s.cqm.q->index_mask == 31 &&
	       (1u << s.cqm.q->log2_elem_size) >= sizeof(wc) &&
	       cd.mi.size >= sizeof(*s.cqm.q) + 32 * sizeof(wc),
	       "rxe CREATE_CQ of 16: 31 entries, its queue mapped",
	       "cqe %u mask %u size %u", cr.cqe,
	       ok ? s.cqm.q->index_mask : 0, cd.mi.size);

	/* queue pair: RC towards itself */
	ok = rxe_create_qp(&s, QPT_RC, &qr, &qd) > 0 &&
	     !rxe_map(s.fd, &qd.sq_mi, &s.sqm) &&
	     !rxe_map(s.fd, &qd.rq_mi, &s.rqm);
	s.qp = qr.qp_handle;
	s.qpn = qr.qpn;
	result(ok && qr.max_send_wr == 15 && qr.max_recv_wr == 15 &&
	       qr.max_send_sge == 2 && qr.max_inline_data == 32 &&
	       s.sqm.q->index_mask == 15 && s.rqm.q->index_mask == 15 &&
	       (1u << s.sqm.q->log2_elem_size) >=
	       sizeof(struct rxe_send_wqe) + 32,
	       "rxe CREATE_QP: send and receive queues of 15 mapped",
	       "wr %u/%u sge %u inline %u", qr.max_send_wr, qr.max_recv_wr,
	       qr.max_send_sge, qr.max_inline_data);
	result(!rxe_connect_self(&s, 0), "MODIFY_QP: RTS towards itself",
	       "%s", strerror(errno));

	/* data through the queues */
	result(!rxe_send_self(&s, 3000, 10),
	       "a SEND by the doorbell: both completions in the CQ's queue",
	       "");
	result(s.sqm.q->consumer_index == 1 && s.rqm.q->consumer_index == 1,
	       "its send and receive slots freed (consumer indices 1)",
	       "sq %u rq %u", s.sqm.q->consumer_index,
	       s.rqm.q->consumer_index);
	memset(s.buf + 6000, 0, 64);
	w = rxe_send_entry(&s.sqm, IB_UVERBS_WR_RDMA_WRITE, 20,
			   SEND_SIGNALED | SEND_INLINE, NULL);
	w->wr.wr.rdma.remote_addr = (uintptr_t)s.buf + 6000;
	w->wr.wr.rdma.rkey = s.rkey;
	w->dma.length = 30;
	memset(w->dma.inline_data, 0x6b, 30);
	rxe_produce(&s.sqm, 0);
	ok = rxe_doorbell(s.fd, s.qp) > 0 && !rxe_poll(&s.cqm, &wc) &&
	     wc.wr_id == 20 && !wc.status;
	/* the entry was copied: changing it afterwards changes nothing */
	memset(w->dma.inline_data, 0, 30);
	for (i = 0; i < 30 && s.buf[6000 + i] == 0x6b; i++)
		;
	result(ok && i == 30 && !s.buf[6030],
	       "an inline RDMA WRITE: the bytes of the entry", "%d bytes",
	       i);

	/* untrusted entries and indices */
	sge = (struct rxe_sge){ .addr = (uintptr_t)s.buf + 4096,
				.length = 4096, .lkey = s.lkey };
	rxe_recv_entry(&s.rqm, 31, &sge, 1000, 0);
	sge = (struct rxe_sge){ .addr = (uintptr_t)s.buf, .length = 500,
				.lkey = s.lkey };
	rxe_send_entry(&s.sqm, IB_UVERBS_WR_SEND, 30, SEND_SIGNALED, &sge);
	rxe_produce(&s.sqm, 0);
	ok = rxe_doorbell(s.fd, s.qp) > 0 && !rxe_poll_n(&s.cqm, wcs, 2) &&
	     (pw = rxe_wc_of(wcs, 2, 30)) && !pw->status &&
	     (pw = rxe_wc_of(wcs, 2, 31));
	result(ok && !pw->status && pw->byte_len == 500,
	       "a receive entry claiming 1000 SGEs takes its queue's 2",
	       "status %u", ok ? pw->status : 0xff);
	rxe_recv_entry(&s.rqm, 41, &sge, 1, 0xfff00000);
	rxe_send_entry(&s.sqm, IB_UVERBS_WR_SEND, 40, SEND_SIGNALED, &sge);
	rxe_produce(&s.sqm, 0xfff00000);
	ok = rxe_doorbell(s.fd, s.qp) > 0 && !rxe_poll_n(&s.cqm, wcs, 2) &&
	     (pw = rxe_wc_of(wcs, 2, 40)) && !pw->status &&
	     (pw = rxe_wc_of(wcs, 2, 41)) && !pw->status;
	result(ok && s.sqm.q->consumer_index ==
	       (s.sqm.q->producer_index & 15),
	       "producer indices past the queues count modulo their size",
	       "sq %u/%#x", s.sqm.q->consumer_index,
	       s.sqm.q->producer_index);
	s.sqm.q->producer_index &= 15;
	s.rqm.q->producer_index &= 15;

	/* rxe has memory windows: this entry names none */
	rxe_send_entry(&s.sqm, IB_UVERBS_WR_BIND_MW, 70, SEND_SIGNALED, NULL);
	result(!rxe_bad_entry(&s, WC_MW_BIND_ERR),
	       "an entry of BIND_MW naming no window: MW_BIND_ERR, the QP in error, then RESET",
	       "");
	w = rxe_send_entry(&s.sqm, 0x12345, 70, 0, NULL);
	result(!rxe_bad_entry(&s, WC_LOC_QP_OP_ERR),
	       "an entry of an opcode that does not exist: LOC_QP_OP_ERR", "");
	w = rxe_send_entry(&s.sqm, IB_UVERBS_WR_SEND, 70, 0, &sge);
	w->dma.num_sge = 100000;
	result(!rxe_bad_entry(&s, WC_LOC_QP_OP_ERR),
	       "an entry of 100000 SGEs: LOC_QP_OP_ERR", "");
	w = rxe_send_entry(&s.sqm, IB_UVERBS_WR_SEND, 70, SEND_INLINE, NULL);
	w->dma.length = 1 << 20;
	result(!rxe_bad_entry(&s, WC_LOC_LEN_ERR),
	       "an entry of 1 MiB inline: LOC_LEN_ERR", "");

	/* a CQ resized with two completions not polled */
	{
		struct ib_uverbs_resize_cq c = { .cq_handle = s.cq,
						 .cqe = 100 };
		struct {
			struct ib_uverbs_resize_cq_resp r;
			struct rxe_resize_cq_resp d;
		} out = {};
		struct rxe_map old = s.cqm;

		ok = !rxe_send_self(&s, 16, 90);
		/* put the two completions back: not polled */
		s.cqm.q->consumer_index = (s.cqm.q->consumer_index - 2) & 31;
		ok = ok && legacy(s.fd, IB_USER_VERBS_CMD_RESIZE_CQ, &c,
				  sizeof(c), &out, sizeof(out)) > 0;
		ok = ok && !rxe_map(s.fd, &out.d.mi, &s.cqm);
		rxe_unmap(&old);
		ok = ok && out.r.cqe == 127 && s.cqm.q->index_mask == 127 &&
		     s.cqm.q->producer_index == 2 &&
		     !rxe_poll_n(&s.cqm, wcs, 2) && rxe_wc_of(wcs, 2, 90) &&
		     rxe_wc_of(wcs, 2, 91);
		result(ok && !rxe_send_self(&s, 16, 92),
		       "RESIZE_CQ to 127: the two not polled move over",
		       "cqe %u", out.r.cqe);
	}

	/* UD: an AH by number */
	{
		struct ib_uverbs_create_ah c = { .user_handle = 3,
						 .pd_handle = s.pd };
		struct {
			struct ib_uverbs_create_ah_resp r;
			struct rxe_create_ah_resp d;
		} out = {};
		struct ib_uverbs_modify_qp m = {
			.qp_state = QPS_INIT, .port_num = 1, .qkey = RXE_QKEY,
			.attr_mask = QP_STATE | QP_PKEY | QP_PORT | QP_QKEY,
		};
		struct rxe_side u = s;

		memcpy(c.attr.grh.dgid, s.gid, 16);
		c.attr.grh.sgid_index = s.gidx;
		c.attr.grh.hop_limit = 64;
		c.attr.is_global = 1;
		c.attr.port_num = 1;
		ok = legacy(s.fd, IB_USER_VERBS_CMD_CREATE_AH, &c, sizeof(c),
			    &out, sizeof(out)) > 0 && out.d.ah_num;
		ok = ok && rxe_create_qp(&u, QPT_UD, &qr, &qd) > 0 &&
		     !rxe_map(s.fd, &qd.sq_mi, &u.sqm) &&
		     !rxe_map(s.fd, &qd.rq_mi, &u.rqm);
		u.qp = qr.qp_handle;
		u.qpn = qr.qpn;
		ok = ok && rxe_modify(&u, &m) > 0;
		m = (struct ib_uverbs_modify_qp){ .qp_state = QPS_RTR,
						  .attr_mask = QP_STATE };
		ok = ok && rxe_modify(&u, &m) > 0;
		m = (struct ib_uverbs_modify_qp){
			.qp_state = QPS_RTS, .sq_psn = 1,
			.attr_mask = QP_STATE | QP_SQ_PSN,
		};
		ok = ok && rxe_modify(&u, &m) > 0;
		sge = (struct rxe_sge){ .addr = (uintptr_t)s.buf + 4096,
					.length = 4096, .lkey = s.lkey };
		rxe_recv_entry(&u.rqm, 51, &sge, 1, 0);
		sge = (struct rxe_sge){ .addr = (uintptr_t)s.buf,
					.length = 200, .lkey = s.lkey };
		w = rxe_send_entry(&u.sqm, IB_UVERBS_WR_SEND, 50,
				   SEND_SIGNALED, &sge);
		w->wr.wr.ud.remote_qpn = u.qpn;
		w->wr.wr.ud.remote_qkey = RXE_QKEY;
		w->wr.wr.ud.ah_num = out.d.ah_num;
		rxe_produce(&u.sqm, 0);
		ok = ok && rxe_doorbell(s.fd, u.qp) > 0 &&
		     !rxe_poll_n(&s.cqm, wcs, 2) &&
		     (pw = rxe_wc_of(wcs, 2, 50)) && !pw->status &&
		     (pw = rxe_wc_of(wcs, 2, 51)) && !pw->status &&
		     pw->byte_len == 240 && pw->src_qp == u.qpn;
		result(ok, "CREATE_AH answers a number; a UD SEND naming it arrives",
		       "ah_num %u", out.d.ah_num);
		w = rxe_send_entry(&u.sqm, IB_UVERBS_WR_SEND, 60,
				   SEND_SIGNALED, &sge);
		w->wr.wr.ud.ah_num = out.d.ah_num + 1000;
		rxe_produce(&u.sqm, 0);
		ok = rxe_doorbell(s.fd, u.qp) > 0 && !rxe_poll(&s.cqm, &wc);
		result(ok && wc.wr_id == 60 && wc.status == WC_LOC_QP_OP_ERR &&
		       rxe_qp_state(&u) == QPS_ERR,
		       "a UD entry naming no AH of the PD: LOC_QP_OP_ERR",
		       "status %u", wc.status);
		rxe_unmap(&u.sqm);
		rxe_unmap(&u.rqm);
	}

	/*
	 * Memory windows: a type 2 window of an MR with MW_BIND, bound by
	 * a BIND_MW entry, an RDMA WRITE through it, one past its end.
	 */
	{
		struct ib_uverbs_alloc_mw am = { .pd_handle = s.pd,
						 .mw_type = 3 };
		struct ib_uverbs_alloc_mw_resp amr = {};
		struct ib_uverbs_reg_mr_resp mr2 = {};
		struct ib_uverbs_dealloc_mw dm = {};
		struct ib_uverbs_dealloc_pd dp = { .pd_handle = s.pd };
		struct ib_uverbs_dereg_mr dr = {};
		uint8_t *win = s.buf + 4096;
		uint32_t rkey;

		expect_err("ALLOC_MW of type 3: EINVAL",
			   legacy(s.fd, IB_USER_VERBS_CMD_ALLOC_MW, &am,
				  sizeof(am), &amr, sizeof(amr)), EINVAL);
		am.mw_type = 2;
		ok = reg_mr(s.fd, s.pd, s.buf, 8192, (uintptr_t)s.buf,
			    ACC_ALL | IB_UVERBS_ACCESS_MW_BIND, &mr2) > 0 &&
		     legacy(s.fd, IB_USER_VERBS_CMD_ALLOC_MW, &am, sizeof(am),
			    &amr, sizeof(amr)) > 0;
		result(ok && amr.rkey >> 8,
		       "ALLOC_MW of type 2 on rxe: a handle and an rkey",
		       "%s", strerror(errno));
		/* a PD with nothing but a window in it stays */
		{
			struct ib_uverbs_alloc_mw am2 = { .mw_type = 1 };
			struct ib_uverbs_alloc_mw_resp amr2 = {};
			long pd2 = alloc_pd(s.fd);
			int held;

			am2.pd_handle = pd2;
			dp.pd_handle = pd2;
			dm.mw_handle = ~0U;
			held = pd2 >= 0 &&
			       legacy(s.fd, IB_USER_VERBS_CMD_ALLOC_MW, &am2,
				      sizeof(am2), &amr2, sizeof(amr2)) > 0 &&
			       legacy_in(s.fd, IB_USER_VERBS_CMD_DEALLOC_PD,
					 &dp, sizeof(dp)) < 0 && errno == EBUSY;
			dm.mw_handle = amr2.mw_handle;
			result(held &&
			       legacy_in(s.fd, IB_USER_VERBS_CMD_DEALLOC_MW,
					 &dm, sizeof(dm)) > 0 &&
			       legacy_in(s.fd, IB_USER_VERBS_CMD_DEALLOC_PD,
					 &dp, sizeof(dp)) > 0,
			       "a PD holding a type 1 window: DEALLOC_PD EBUSY until DEALLOC_MW",
			       "%s", strerror(errno));
		}

		rkey = (amr.rkey & ~0xffU) | ((amr.rkey + 1) & 0xff);
		ok = ok && !rxe_connect_self(&s, 1);
		w = rxe_send_entry(&s.sqm, IB_UVERBS_WR_BIND_MW, 90,
				   SEND_SIGNALED, NULL);
		w->wr.wr.mw.addr = (uintptr_t)win;
		w->wr.wr.mw.length = 1024;
		w->wr.wr.mw.mr_lkey = mr2.lkey;
		w->wr.wr.mw.mw_rkey = amr.rkey;
		w->wr.wr.mw.rkey = rkey;
		w->wr.wr.mw.access = IB_UVERBS_ACCESS_REMOTE_WRITE;
		rxe_produce(&s.sqm, 0);
		ok = ok && rxe_doorbell(s.fd, s.qp) > 0 &&
		     !rxe_poll(&s.cqm, &wc);
		result(ok && wc.wr_id == 90 && !wc.status &&
		       wc.opcode == WC_BIND_MW,
		       "a BIND_MW entry binds it (a new key byte)",
		       "wr_id %llu status %u opcode %u",
		       (unsigned long long)wc.wr_id, wc.status, wc.opcode);

		memset(s.buf, 0x6a, 64);
		memset(win, 0, 1024);
		sge = (struct rxe_sge){ .addr = (uintptr_t)s.buf, .length = 64,
					.lkey = s.lkey };
		w = rxe_send_entry(&s.sqm, IB_UVERBS_WR_RDMA_WRITE, 91,
				   SEND_SIGNALED, &sge);
		w->wr.wr.rdma.remote_addr = (uintptr_t)win + 128;
		w->wr.wr.rdma.rkey = rkey;
		rxe_produce(&s.sqm, 0);
		ok = rxe_doorbell(s.fd, s.qp) > 0 && !rxe_poll(&s.cqm, &wc);
		result(ok && wc.wr_id == 91 && !wc.status &&
		       !memcmp(win + 128, s.buf, 64) && !win[127] && !win[192],
		       "an RDMA WRITE through the window lands where it says",
		       "status %u", wc.status);
		w = rxe_send_entry(&s.sqm, IB_UVERBS_WR_RDMA_WRITE, 92,
				   SEND_SIGNALED, &sge);
		w->wr.wr.rdma.remote_addr = (uintptr_t)win + 1000;
		w->wr.wr.rdma.rkey = rkey;
		rxe_produce(&s.sqm, 0);
		ok = rxe_doorbell(s.fd, s.qp) > 0 && !rxe_poll(&s.cqm, &wc);
		result(ok && wc.wr_id == 92 && wc.status == WC_REM_ACCESS_ERR &&
		       !win[1023],
		       "an RDMA WRITE past the window's end: REM_ACCESS_ERR",
		       "status %u", wc.status);

		dm.mw_handle = amr.mw_handle;
		dr.mr_handle = mr2.mr_handle;
		ok = legacy_in(s.fd, IB_USER_VERBS_CMD_DEALLOC_MW, &dm,
			       sizeof(dm)) > 0 &&
		     legacy_in(s.fd, IB_USER_VERBS_CMD_DEREG_MR, &dr,
			       sizeof(dr)) > 0 &&
		     legacy_in(s.fd, IB_USER_VERBS_CMD_DEALLOC_MW, &dm,
			       sizeof(dm)) < 0 && errno == EINVAL;
		result(ok, "DEALLOC_MW lets its MR go; a second one: EINVAL",
		       "%s", strerror(errno));
	}

	/* SRQ: created, an entry posted, resized under it */
	{
		struct ib_uverbs_create_srq c = { .user_handle = 4,
						  .pd_handle = s.pd,
						  .max_wr = 8, .max_sge = 1 };
		struct {
			struct ib_uverbs_create_srq_resp r;
			struct rxe_create_srq_resp d;
		} out = {};
		struct {
			struct ib_uverbs_modify_srq m;
			struct rxe_modify_srq_cmd d;
		} mc = {};
		struct mminfo mi = {};
		struct rxe_map srq = {};
		struct rxe_recv_wqe *e;

		ok = legacy(s.fd, IB_USER_VERBS_CMD_CREATE_SRQ, &c, sizeof(c),
			    &out, sizeof(out)) > 0 &&
		     !rxe_map(s.fd, &out.d.mi, &srq);
		result(ok && out.r.max_wr == 15 && srq.q->index_mask == 15 &&
		       out.d.srq_num >= 0x20001,
		       "rxe CREATE_SRQ: 15 entries mapped, an SRQ number",
		       "max_wr %u srq_num %#x", out.r.max_wr, out.d.srq_num);
		sge = (struct rxe_sge){ .addr = 0x1234, .length = 8,
					.lkey = s.lkey };
		if (ok)
			rxe_recv_entry(&srq, 61, &sge, 1, 0);
		mc.m.srq_handle = out.r.srq_handle;
		mc.m.attr_mask = 1;	/* IB_SRQ_MAX_WR */
		mc.m.max_wr = 40;
		mc.d.mmap_info_addr = (uintptr_t)&mi;
		ok = ok && legacy_in(s.fd, IB_USER_VERBS_CMD_MODIFY_SRQ, &mc,
				     sizeof(mc)) > 0;
		rxe_unmap(&srq);
		ok = ok && !rxe_map(s.fd, &mi, &srq);
		e = ok ? rxe_slot(&srq, 0) : NULL;
		result(ok && srq.q->index_mask == 63 &&
		       srq.q->producer_index == 1 && !srq.q->consumer_index &&
		       e->wr_id == 61 && e->dma.sge[0].addr == 0x1234,
		       "MODIFY_SRQ to 40: a queue of 63, the entry moved over",
		       "mask %u", ok ? srq.q->index_mask : 0);
		rxe_unmap(&srq);
	}

	rxe_unmap(&s.cqm);
	rxe_unmap(&s.sqm);
	rxe_unmap(&s.rqm);
	result(!close(s.fd), "DEV_RXE: the file closes, taking it all", "%s",
	       strerror(errno));
	free(s.buf);
}

/* A task with other credentials may not act on the file. */
static void test_foreign_writer(int fd)
{
	struct ib_uverbs_query_device q = {};
	struct ib_uverbs_query_device_resp qr;
	pid_t pid = fork();
	int status = 0;

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
	int fd, async = -1, chan = -1, status = 0, i;
	pid_t reader = -1;
	char cmd[128];
	uint32_t cq;

	fd = open_uverbs(dev);
	if (fd >= 0 && legacy(fd, IB_USER_VERBS_CMD_GET_CONTEXT, &g, sizeof(g),
			      big, sizeof(big)) > 0) {
		memcpy(&r, big, sizeof(r));
		async = r.async_fd;
	}
	result(async >= 0 && alloc_pd(fd) >= 0, "a context and a PD on DEV_DEL",
	       "fd %d", fd);
	/* a child blocked reading a completion channel of the context */
	{
		struct ib_uverbs_create_comp_channel cc = {};
		struct ib_uverbs_create_comp_channel_resp ccr = {};

		chan = legacy(fd, IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL, &cc,
			      sizeof(cc), &ccr, sizeof(ccr)) > 0 ? (int)ccr.fd :
								   -1;
		reader = chan >= 0 && create_cq(fd, 7, chan, 0, &cq) > 0 ?
			 fork() : -1;
		if (reader == 0) {
			struct ib_uverbs_comp_event_desc cev;

			_exit(read(chan, &cev, sizeof(cev)) == -1 &&
			      errno == EIO ? 0 : 1);
		}
	}
	result(reader > 0, "a CQ on a completion channel, a reader blocked on it",
	       "%s", strerror(errno));
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
	/* the blocked reader wakes up with EIO, within 10 s */
	for (i = 0; i < 1000 && reader > 0 &&
	     waitpid(reader, &status, WNOHANG) == 0; i++)
		usleep(10000);
	if (i == 1000)
		kill(reader, SIGKILL);
	result(reader > 0 && i < 1000 && WIFEXITED(status) &&
	       !WEXITSTATUS(status),
	       "the completion channel's blocked reader wakes up: EIO",
	       "status %#x after %d polls", status, i);
	result(!close(chan) && !close(async) && !close(fd),
	       "the files close", "%s", strerror(errno));
}

/*
 * siw's user ABI on DEV_SIW: the queues libsiw maps, written and read
 * here as libsiw does.  An iWARP QP reaches RTS only through a
 * connection (rdma_cm), so the entries here are flushed: the QP goes
 * from INIT to ERR with receive and send entries in its queues.
 */
struct siw_side {
	int fd, chan;
	uint32_t pd, cq, qp, qpn, srq;
	struct siw_cqe *cqe;
	struct siw_cq_ctrl *ctrl;
	struct siw_sqe *sq;
	struct siw_rqe *rq;
	uint32_t num_cqe, num_sqe, num_rqe;
	uint8_t *buf;
};

static void *siw_map(int fd, uint64_t key, size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, key);

	return p == MAP_FAILED ? NULL : p;
}

/* The next completion within 10 s, its slot freed as libsiw frees it. */
static int siw_poll(struct siw_side *s, uint32_t *get, struct siw_cqe *out)
{
	struct siw_cqe *c = &s->cqe[*get % s->num_cqe];
	int ms;

	for (ms = 0; ms < 10000; ms++) {
		if (__atomic_load_n(&c->flags, __ATOMIC_ACQUIRE) &
		    SIW_WQE_VALID) {
			*out = *c;
			__atomic_store_n(&c->flags, 0, __ATOMIC_RELEASE);
			(*get)++;
			return 0;
		}
		usleep(1000);
	}
	return -1;
}

static long siw_modify_state(struct siw_side *s, uint32_t state)
{
	struct ib_uverbs_modify_qp m = {
		.qp_handle = s->qp, .qp_state = state, .port_num = 1,
		.qp_access_flags = ACC_ALL, .attr_mask = QP_STATE,
	};

	if (state == QPS_INIT)
		m.attr_mask |= QP_PORT | QP_ACCESS;
	return legacy_in(s->fd, IB_USER_VERBS_CMD_MODIFY_QP, &m, sizeof(m));
}

static void test_siw(const char *dev)
{
	struct ib_uverbs_get_context g = {};
	struct {
		struct ib_uverbs_get_context_resp r;
		struct siw_uresp_alloc_ctx d;
	} gr = {};
	struct {
		struct ib_uverbs_reg_mr m;
		struct siw_ureq_reg_mr d;
	} rm = {};
	struct {
		struct ib_uverbs_reg_mr_resp r;
		struct siw_uresp_reg_mr d;
	} rmr = {};
	struct ib_uverbs_create_comp_channel cc = {};
	struct ib_uverbs_create_comp_channel_resp ccr = {};
	struct ib_uverbs_create_cq c = { .user_handle = 0x51c, .cqe = 10 };
	struct {
		struct ib_uverbs_create_cq_resp r;
		struct siw_uresp_create_cq d;
	} cr = {};
	struct ib_uverbs_resize_cq rz = { .cqe = 40 };
	struct ib_uverbs_resize_cq_resp rzr = {};
	struct ib_uverbs_create_qp q = {
		.user_handle = 0x51d, .max_send_wr = 5, .max_recv_wr = 6,
		.max_send_sge = 2, .max_recv_sge = 2, .qp_type = QPT_RC,
	};
	struct {
		struct ib_uverbs_create_qp_resp r;
		struct siw_uresp_create_qp d;
	} qr = {};
	struct ib_uverbs_create_srq sc = { .user_handle = 0x51e, .max_wr = 20,
					   .max_sge = 2 };
	struct {
		struct ib_uverbs_create_srq_resp r;
		struct siw_uresp_create_srq d;
	} sr = {};
	struct ib_uverbs_modify_srq ms = { .attr_mask = 1 /* MAX_WR */,
					   .max_wr = 64 };
	struct ib_uverbs_destroy_qp_resp dq = {};
	struct ib_uverbs_destroy_srq_resp ds = {};
	struct ib_uverbs_destroy_cq_resp dc = {};
	struct siw_side s = { .chan = -1 };
	struct siw_cqe e[4];
	struct siw_rqe *rqe;
	struct siw_sqe *sqe;
	uint64_t cq_handle = 0, element = 0;
	uint32_t get = 0, i;
	struct siw_rqe *srq_ring;
	long pdh, ret;
	int ok;

	s.fd = open_uverbs(dev);
	ok = s.fd >= 0 && legacy(s.fd, IB_USER_VERBS_CMD_GET_CONTEXT, &g,
				 sizeof(g), &gr, sizeof(gr)) > 0;
	pdh = ok ? alloc_pd(s.fd) : -1;
	s.pd = pdh;
	s.buf = aligned_alloc(4096, 8192);
	result(ok && pdh >= 0 && s.buf && gr.d.dev_id,
	       "DEV_SIW: a context (siw's device ID answered) and a PD",
	       "%s", strerror(errno));

	/* memory registration: siw's key byte */
	rm.m = (struct ib_uverbs_reg_mr){
		.start = (uintptr_t)s.buf, .length = 8192,
		.hca_va = (uintptr_t)s.buf, .pd_handle = s.pd,
		.access_flags = ACC_ALL,
	};
	expect_err("siw REG_MR without siw's request: EINVAL",
		   legacy(s.fd, IB_USER_VERBS_CMD_REG_MR, &rm.m, sizeof(rm.m),
			  &rmr, sizeof(rmr)), EINVAL);
	rm.d.stag_key = 0x5a;
	ret = legacy(s.fd, IB_USER_VERBS_CMD_REG_MR, &rm, sizeof(rm), &rmr,
		     sizeof(rmr));
	result(ret > 0 && (rmr.r.lkey & 0xff) == 0x5a &&
	       rmr.r.rkey == rmr.r.lkey && rmr.d.stag == rmr.r.lkey,
	       "siw REG_MR: the STag has the key byte asked for, answered",
	       "lkey %#x rkey %#x stag %#x: %s", rmr.r.lkey, rmr.r.rkey,
	       rmr.d.stag, strerror(errno));

	/* a completion queue on a channel */
	ok = legacy(s.fd, IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL, &cc,
		    sizeof(cc), &ccr, sizeof(ccr)) > 0;
	s.chan = ok ? (int)ccr.fd : -1;
	c.comp_channel = s.chan;
	expect_err("siw CREATE_CQ without room for siw's answer: EINVAL",
		   legacy(s.fd, IB_USER_VERBS_CMD_CREATE_CQ, &c, sizeof(c),
			  &cr, sizeof(cr.r)), EINVAL);
	ok = ok && legacy(s.fd, IB_USER_VERBS_CMD_CREATE_CQ, &c, sizeof(c),
			  &cr, sizeof(cr)) > 0;
	s.cq = cr.r.cq_handle;
	s.num_cqe = cr.d.num_cqe;
	s.cqe = ok ? siw_map(s.fd, cr.d.cq_key, s.num_cqe * sizeof(*s.cqe) +
			     sizeof(*s.ctrl)) : NULL;
	s.ctrl = s.cqe ? (struct siw_cq_ctrl *)&s.cqe[s.num_cqe] : NULL;
	result(ok && s.cqe && s.num_cqe == 16 && cr.r.cqe == 16,
	       "siw CREATE_CQ of 10: 16 entries and the control word mapped",
	       "num_cqe %u cqe %u: %s", cr.d.num_cqe, cr.r.cqe,
	       strerror(errno));
	rz.cq_handle = s.cq;
	expect_err("siw RESIZE_CQ: EOPNOTSUPP (siw does not resize)",
		   legacy(s.fd, IB_USER_VERBS_CMD_RESIZE_CQ, &rz, sizeof(rz),
			  &rzr, sizeof(rzr)), EOPNOTSUPP);

	/* a queue pair */
	q.pd_handle = s.pd;
	q.send_cq_handle = s.cq;
	q.recv_cq_handle = s.cq;
	q.max_inline_data = SIW_MAX_INLINE + 1;
	expect_err("siw CREATE_QP with more inline data than siw's: EINVAL",
		   legacy(s.fd, IB_USER_VERBS_CMD_CREATE_QP, &q, sizeof(q),
			  &qr, sizeof(qr)), EINVAL);
	q.max_inline_data = 0;
	ok = legacy(s.fd, IB_USER_VERBS_CMD_CREATE_QP, &q, sizeof(q), &qr,
		    sizeof(qr)) > 0;
	s.qp = qr.r.qp_handle;
	s.qpn = qr.r.qpn;
	s.num_sqe = qr.d.num_sqe;
	s.num_rqe = qr.d.num_rqe;
	s.sq = ok ? siw_map(s.fd, qr.d.sq_key, s.num_sqe * sizeof(*s.sq)) :
		    NULL;
	s.rq = ok ? siw_map(s.fd, qr.d.rq_key, s.num_rqe * sizeof(*s.rq)) :
		    NULL;
	result(ok && s.sq && s.rq && s.num_sqe == 8 && s.num_rqe == 8 &&
	       qr.d.qp_id == s.qpn && qr.r.max_send_wr == 8 &&
	       qr.r.max_inline_data == SIW_MAX_INLINE,
	       "siw CREATE_QP: send and receive queues of 8 mapped",
	       "sqe %u rqe %u qp_id %u qpn %u inline %u: %s", s.num_sqe,
	       s.num_rqe, qr.d.qp_id, s.qpn, qr.r.max_inline_data,
	       strerror(errno));

	/* a shared receive queue */
	sc.pd_handle = s.pd;
	ok = legacy(s.fd, IB_USER_VERBS_CMD_CREATE_SRQ, &sc, sizeof(sc), &sr,
		    sizeof(sr)) > 0;
	s.srq = sr.r.srq_handle;
	srq_ring = ok ? siw_map(s.fd, sr.d.srq_key,
				sr.d.num_rqe * sizeof(struct siw_rqe)) : NULL;
	ms.srq_handle = s.srq;
	ret = legacy_in(s.fd, IB_USER_VERBS_CMD_MODIFY_SRQ, &ms, sizeof(ms));
	result(ok && srq_ring && sr.d.num_rqe == 32 && sr.r.max_wr == 32 &&
	       ret < 0 && errno == EOPNOTSUPP,
	       "siw CREATE_SRQ of 20: 32 entries mapped; no resize (EOPNOTSUPP)",
	       "num_rqe %u max_wr %u modify %ld: %s", sr.d.num_rqe,
	       sr.r.max_wr, ret, strerror(errno));

	/* receive entries, then the QP goes from INIT to ERR: flushed */
	for (i = 0; i < 3; i++) {
		rqe = &s.rq[i];
		rqe->id = 0x100 + i;
		rqe->num_sge = 1;
		rqe->sge[0].laddr = (uintptr_t)s.buf;
		rqe->sge[0].length = 64;
		rqe->sge[0].lkey = rmr.r.lkey;
		__atomic_store_n(&rqe->flags, SIW_WQE_VALID, __ATOMIC_RELEASE);
	}
	if (s.ctrl)
		__atomic_store_n(&s.ctrl->flags, SIW_NOTIFY_SOLICITED |
				 SIW_NOTIFY_NEXT_COMPLETION, __ATOMIC_SEQ_CST);
	ok = s.cqe && s.rq && siw_modify_state(&s, QPS_INIT) >= 0 &&
	     siw_modify_state(&s, QPS_ERR) >= 0;
	for (i = 0; ok && i < 3; i++)
		ok = !siw_poll(&s, &get, &e[i]) && e[i].id == 0x100 + i &&
		     e[i].status == SIW_WC_WR_FLUSH_ERR &&
		     e[i].opcode == SIW_OP_RECEIVE && e[i].qp_id == s.qpn &&
		     !(__atomic_load_n(&s.rq[i].flags, __ATOMIC_ACQUIRE) &
		       SIW_WQE_VALID);
	result(ok, "siw: 3 receive entries flushed in order, their slots freed",
	       "%s", strerror(errno));
	ok = s.chan >= 0 && !comp_event(s.chan, &cq_handle) &&
	     cq_handle == 0x51c &&
	     __atomic_load_n(&s.ctrl->flags, __ATOMIC_ACQUIRE) ==
	     SIW_NOTIFY_NOT;
	result(ok,
	       "siw: the CQ armed through its control word signals, then is disarmed",
	       "cq handle %#llx", (unsigned long long)cq_handle);

	/* send entries in ERR and the doorbell: flushed too */
	for (i = 0; i < 2; i++) {
		sqe = &s.sq[i];
		sqe->id = 0x200 + i;
		sqe->opcode = i ? SIW_OP_WRITE : SIW_OP_SEND;
		sqe->num_sge = 1;
		sqe->sge[0].laddr = (uintptr_t)s.buf;
		sqe->sge[0].length = 16;
		sqe->sge[0].lkey = rmr.r.lkey;
		__atomic_store_n(&sqe->flags, SIW_WQE_VALID | SIW_WQE_SIGNALLED,
				 __ATOMIC_SEQ_CST);
	}
	ret = rxe_doorbell(s.fd, s.qp);
	ok = ret > 0;
	for (i = 0; ok && i < 2; i++)
		ok = !siw_poll(&s, &get, &e[i]) && e[i].id == 0x200 + i &&
		     e[i].status == SIW_WC_WR_FLUSH_ERR &&
		     e[i].opcode == (i ? SIW_OP_WRITE : SIW_OP_SEND);
	for (i = 0; ok && i < 2; i++)
		ok = !(__atomic_load_n(&s.sq[i].flags, __ATOMIC_ACQUIRE) &
		       SIW_WQE_VALID);
	result(ok, "siw: the doorbell flushes 2 send entries, their slots freed",
	       "doorbell %ld: %s", ret, strerror(errno));

	/* a completion slot user space did not free: the CQ is full there */
	s.cqe[get % s.num_cqe].flags = SIW_WQE_VALID;
	sqe = &s.sq[2];
	sqe->id = 0x300;
	sqe->opcode = SIW_OP_SEND;
	__atomic_store_n(&sqe->flags, SIW_WQE_VALID | SIW_WQE_SIGNALLED,
			 __ATOMIC_SEQ_CST);
	ret = rxe_doorbell(s.fd, s.qp);
	ok = ret > 0 && !wait_event_type(gr.r.async_fd, EV_CQ_ERR, &element) &&
	     element == 0x51c &&
	     !(__atomic_load_n(&s.sq[2].flags, __ATOMIC_ACQUIRE) &
	       SIW_WQE_VALID);
	result(ok,
	       "siw: a completion into a slot not polled is lost: CQ_ERR, the send slot freed",
	       "doorbell %ld element %#llx: %s", ret,
	       (unsigned long long)element, strerror(errno));

	ok = legacy(s.fd, IB_USER_VERBS_CMD_DESTROY_QP,
		    &(struct ib_uverbs_destroy_qp){ .qp_handle = s.qp },
		    sizeof(struct ib_uverbs_destroy_qp), &dq, sizeof(dq)) > 0 &&
	     legacy(s.fd, IB_USER_VERBS_CMD_DESTROY_SRQ,
		    &(struct ib_uverbs_destroy_srq){ .srq_handle = s.srq },
		    sizeof(struct ib_uverbs_destroy_srq), &ds, sizeof(ds)) > 0 &&
	     legacy(s.fd, IB_USER_VERBS_CMD_DESTROY_CQ,
		    &(struct ib_uverbs_destroy_cq){ .cq_handle = s.cq },
		    sizeof(struct ib_uverbs_destroy_cq), &dc, sizeof(dc)) > 0;
	result(ok && dc.comp_events_reported == 1,
	       "siw: QP, SRQ and CQ destroyed; the CQ's one event counted",
	       "events %u: %s", dc.comp_events_reported, strerror(errno));
	close(s.chan);
	close(gr.r.async_fd);
	close(s.fd);
	free(s.buf);
}

/* --- the verbs ioctl (RDMA_VERBS_IOCTL) --- */

/* An ioctl's buffer: the header, then its attributes */
struct ioc {
	struct ib_uverbs_ioctl_hdr hdr;
	struct ib_uverbs_attr a[16];
};

/* the driver ID of the device under test, as its ioctls must name it */
static uint32_t ioc_driver_id;

static void ioc_set(struct ioc *c, int i, uint16_t id, uint64_t data,
		    uint16_t len, uint16_t flags)
{
	memset(&c->a[i], 0, sizeof(c->a[i]));
	c->a[i].attr_id = id;
	c->a[i].data = data;
	c->a[i].len = len;
	c->a[i].flags = flags;
}

/* Method @method of @obj with @n attributes: 0, or -1 and errno. */
static long ioc_run(int fd, struct ioc *c, uint16_t obj, uint16_t method,
		    int n)
{
	c->hdr.length = sizeof(c->hdr) + n * sizeof(c->a[0]);
	c->hdr.object_id = obj;
	c->hdr.method_id = method;
	c->hdr.num_attrs = n;
	c->hdr.driver_id = ioc_driver_id;
	c->hdr.reserved1 = 0;
	c->hdr.reserved2 = 0;
	return ioctl(fd, RDMA_VERBS_IOCTL, c);
}

/* A write() command through INVOKE_WRITE: @req without its header. */
static long ioc_write(int fd, uint32_t cmd, void *req, size_t req_len,
		      void *resp, size_t resp_len, void *uhw_out,
		      size_t uhw_len)
{
	struct ioc c = {};
	int n = 0;

	ioc_set(&c, n++, UVERBS_ATTR_WRITE_CMD, cmd, 8,
		UVERBS_ATTR_F_MANDATORY);
	if (req_len)
		ioc_set(&c, n++, UVERBS_ATTR_CORE_IN, (uintptr_t)req, req_len,
			0);
	if (resp_len)
		ioc_set(&c, n++, UVERBS_ATTR_CORE_OUT, (uintptr_t)resp,
			resp_len, 0);
	if (uhw_len)
		ioc_set(&c, n++, UVERBS_ATTR_UHW_OUT, (uintptr_t)uhw_out,
			uhw_len, 0);
	/* an inline request goes in the attribute itself */
	if (req_len && req_len <= 8)
		memcpy(&c.a[1].data, req, req_len);
	return ioc_run(fd, &c, UVERBS_OBJECT_DEVICE,
		       UVERBS_METHOD_INVOKE_WRITE, n);
}

/* QUERY_PORT by the ioctl into @r: 0 or -1. */
static long ioc_query_port(int fd, uint8_t port,
			   struct ib_uverbs_query_port_resp_ex *r,
			   uint16_t *flags)
{
	struct ioc c = {};
	long rc;

	ioc_set(&c, 0, UVERBS_ATTR_QUERY_PORT_PORT_NUM, port, 8, 0);
	ioc_set(&c, 1, UVERBS_ATTR_QUERY_PORT_RESP, (uintptr_t)r,
		sizeof(*r), 0);
	rc = ioc_run(fd, &c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT,
		     2);
	*flags = c.a[1].flags;
	return rc;
}

/* Destroy @handle of @obj by the ioctl (no response attribute). */
static long ioc_destroy(int fd, uint16_t obj, uint16_t method, uint16_t attr,
			uint32_t handle)
{
	struct ioc c = {};

	ioc_set(&c, 0, attr, handle, 0, 0);
	return ioc_run(fd, &c, obj, method, 1);
}

/*
 * The header, the attributes, the device's methods, on DEV's context
 * (@fd); write()'s answers and sysfs are the reference.
 */
static void test_ioctl(int fd, const char *dev)
{
	struct ib_uverbs_query_port_resp_ex pe;
	struct ib_uverbs_query_port_resp pr;
	struct ib_uverbs_query_port p = { .port_num = 1 };
	struct ib_uverbs_query_device q = {};
	struct ib_uverbs_query_device_resp qr;
	struct ib_uverbs_gid_entry gids[8], ge;
	struct ib_uverbs_alloc_pd_resp ar;
	struct ib_uverbs_alloc_pd a = {};
	uint32_t pds[2], list[4], total;
	uint64_t n64, guid;
	char path[160], buf[64], want[64];
	int i, found = 0, others = 0;
	const uint8_t *g;
	struct ioc c = {};
	uint16_t flags;
	long rc;

	/* only the device's driver ID: INVOKE_WRITE without its request */
	for (i = 0; i < 32; i++) {
		ioc_driver_id = i;
		ioc_set(&c, 0, UVERBS_ATTR_WRITE_CMD,
			IB_USER_VERBS_CMD_QUERY_DEVICE, 8, 0);
		rc = ioc_run(fd, &c, UVERBS_OBJECT_DEVICE,
			     UVERBS_METHOD_INVOKE_WRITE, 1);
		if (rc == -1 && errno == ENOSPC) {
			found++;
			ioc_driver_id = i;
		} else if (!(rc == -1 && errno == EINVAL)) {
			others++;
		}
	}
	for (i = 0; i < 32 && found == 1; i++) {
		ioc_set(&c, 0, UVERBS_ATTR_WRITE_CMD,
			IB_USER_VERBS_CMD_QUERY_DEVICE, 8, 0);
		ioc_driver_id = i;
		if (ioc_run(fd, &c, UVERBS_OBJECT_DEVICE,
			    UVERBS_METHOD_INVOKE_WRITE, 1) == -1 &&
		    errno == ENOSPC)
			break;
	}
	result(found == 1 && !others,
	       "ioctl: one driver ID answers (INVOKE_WRITE without a request: ENOSPC), the others EINVAL",
	       "%d answering, %d odd", found, others);
	expect_err("ioctl: another ioctl number: ENOTTY",
		   ioctl(fd, _IOWR(RDMA_IOCTL_MAGIC, 7, struct ib_uverbs_ioctl_hdr),
			 &c), ENOTTY);
	ioc_set(&c, 0, UVERBS_ATTR_WRITE_CMD, IB_USER_VERBS_CMD_QUERY_DEVICE,
		8, 0);
	c.hdr.length = sizeof(c.hdr);
	c.hdr.num_attrs = 1;
	expect_err("ioctl: a length that is not the attributes': EINVAL",
		   ioctl(fd, RDMA_VERBS_IOCTL, &c), EINVAL);
	ioc_run(fd, &c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE, 0);
	c.hdr.reserved1 = 1;
	expect_err("ioctl: reserved1 set: EPROTONOSUPPORT",
		   ioctl(fd, RDMA_VERBS_IOCTL, &c), EPROTONOSUPPORT);
	expect_err("ioctl: an unknown object: EPROTONOSUPPORT",
		   ioc_run(fd, &c, 200, 0, 0), EPROTONOSUPPORT);
	expect_err("ioctl: an unknown method of DEVICE: EPROTONOSUPPORT",
		   ioc_run(fd, &c, UVERBS_OBJECT_DEVICE, 99, 0),
		   EPROTONOSUPPORT);
	expect_err("ioctl: WQ_CREATE (no driver here has WQs): EPROTONOSUPPORT",
		   ioc_run(fd, &c, UVERBS_OBJECT_WQ, UVERBS_METHOD_WQ_CREATE, 0),
		   EPROTONOSUPPORT);

	/* QUERY_PORT against write()'s answer and sysfs */
	memset(&pe, 0xff, sizeof(pe));
	rc = ioc_query_port(fd, 1, &pe, &flags);
	legacy(fd, IB_USER_VERBS_CMD_QUERY_PORT, &p, sizeof(p), &pr,
	       sizeof(pr));
	snprintf(path, sizeof(path), SYS_IB "/%s/ports/1/state", dev);
	result(!rc && !memcmp(&pe.legacy_resp, &pr, sizeof(pr)) &&
	       !read_file(path, buf, sizeof(buf)) &&
	       (unsigned int)atoi(buf) == pe.legacy_resp.state &&
	       !pe.reserved[0] && (flags & UVERBS_ATTR_F_VALID_OUTPUT),
	       "ioctl QUERY_PORT 1: write()'s answer, sysfs's state, flagged written",
	       "rc %ld state %u flags %x", rc, pe.legacy_resp.state, flags);
	expect_err("ioctl QUERY_PORT 2: EINVAL",
		   ioc_query_port(fd, 2, &pe, &flags), EINVAL);
	ioc_set(&c, 0, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 1, 8, 0);
	expect_err("ioctl QUERY_PORT without its response: EINVAL",
		   ioc_run(fd, &c, UVERBS_OBJECT_DEVICE,
			   UVERBS_METHOD_QUERY_PORT, 1), EINVAL);
	ioc_set(&c, 1, UVERBS_ATTR_QUERY_PORT_RESP, (uintptr_t)&pe, 4, 0);
	expect_err("ioctl QUERY_PORT with a 4-byte response: EINVAL",
		   ioc_run(fd, &c, UVERBS_OBJECT_DEVICE,
			   UVERBS_METHOD_QUERY_PORT, 2), EINVAL);
	ioc_set(&c, 1, UVERBS_ATTR_QUERY_PORT_RESP, (uintptr_t)&pe,
		sizeof(pe), 0);
	ioc_set(&c, 2, 31, 0, 0, UVERBS_ATTR_F_MANDATORY);
	expect_err("ioctl QUERY_PORT with an unknown mandatory attribute: EPROTONOSUPPORT",
		   ioc_run(fd, &c, UVERBS_OBJECT_DEVICE,
			   UVERBS_METHOD_QUERY_PORT, 3), EPROTONOSUPPORT);
	ioc_set(&c, 2, 31, 0, 0, 0);
	result(!ioc_run(fd, &c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT,
			3), "ioctl QUERY_PORT with an unknown optional attribute: ignored",
	       "%s", strerror(errno));
	ioc_set(&c, 2, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 1, 8, 0);
	expect_err("ioctl QUERY_PORT with PORT_NUM twice: EINVAL",
		   ioc_run(fd, &c, UVERBS_OBJECT_DEVICE,
			   UVERBS_METHOD_QUERY_PORT, 3), EINVAL);
	ioc_set(&c, 1, UVERBS_ATTR_QUERY_PORT_RESP, 16, sizeof(pe), 0);
	expect_err("ioctl QUERY_PORT into unmapped memory: EFAULT",
		   ioc_run(fd, &c, UVERBS_OBJECT_DEVICE,
			   UVERBS_METHOD_QUERY_PORT, 2), EFAULT);

	/* the GID table and an entry against sysfs */
	memset(gids, 0xff, sizeof(gids));
	ioc_set(&c, 0, UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, sizeof(gids[0]),
		8, 0);
	ioc_set(&c, 1, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES,
		(uintptr_t)gids, sizeof(gids), 0);
	ioc_set(&c, 2, UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES,
		(uintptr_t)&n64, 8, 0);
	rc = ioc_run(fd, &c, UVERBS_OBJECT_DEVICE,
		     UVERBS_METHOD_QUERY_GID_TABLE, 3);
	snprintf(path, sizeof(path), SYS_IB "/%s/ports/1/gids/0", dev);
	want[0] = 0;
	read_file(path, want, sizeof(want));
	g = (const uint8_t *)gids[0].gid;
	buf[0] = 0;
	for (i = 0; i < 8; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
			 "%s%02x%02x", i ? ":" : "", g[2 * i], g[2 * i + 1]);
	result(!rc && n64 >= 1 && n64 <= 8 && !strcmp(buf, want) &&
	       gids[0].port_num == 1 && gids[0].gid_index == 0,
	       "ioctl QUERY_GID_TABLE: entries, the first sysfs's GID 0 of port 1",
	       "rc %ld n %llu '%s' vs '%s'", rc, (unsigned long long)n64, buf,
	       want);
	ioc_set(&c, 0, UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, 0, 8, 0);
	expect_err("ioctl QUERY_GID_TABLE with entries of 0 bytes: EINVAL",
		   ioc_run(fd, &c, UVERBS_OBJECT_DEVICE,
			   UVERBS_METHOD_QUERY_GID_TABLE, 3), EINVAL);
	ioc_set(&c, 0, UVERBS_ATTR_QUERY_GID_ENTRY_PORT, 1, 8, 0);
	ioc_set(&c, 1, UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, 0, 8, 0);
	ioc_set(&c, 2, UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, 0, 4, 0);
	ioc_set(&c, 3, UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, (uintptr_t)&ge,
		sizeof(ge), 0);
	rc = ioc_run(fd, &c, UVERBS_OBJECT_DEVICE,
		     UVERBS_METHOD_QUERY_GID_ENTRY, 4);
	result(!rc && !memcmp(&ge, &gids[0], sizeof(ge)),
	       "ioctl QUERY_GID_ENTRY port 1 index 0: the table's first",
	       "rc %ld %s", rc, strerror(errno));
	ioc_set(&c, 2, UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, 1, 4, 0);
	expect_err("ioctl QUERY_GID_ENTRY with an unknown flag: EINVAL",
		   ioc_run(fd, &c, UVERBS_OBJECT_DEVICE,
			   UVERBS_METHOD_QUERY_GID_ENTRY, 4), EINVAL);

	/* write() commands carried by INVOKE_WRITE */
	snprintf(path, sizeof(path), SYS_IB "/%s/node_guid", dev);
	guid = sysfs_guid(path);
	memset(&qr, 0, sizeof(qr));
	rc = ioc_write(fd, IB_USER_VERBS_CMD_QUERY_DEVICE, &q, sizeof(q), &qr,
		       sizeof(qr), NULL, 0);
	result(!rc && qr.node_guid == guid && qr.phys_port_cnt == 1,
	       "INVOKE_WRITE QUERY_DEVICE: sysfs's node GUID, one port",
	       "rc %ld %s", rc, strerror(errno));
	expect_err("INVOKE_WRITE QUERY_DEVICE with a short response: ENOSPC",
		   ioc_write(fd, IB_USER_VERBS_CMD_QUERY_DEVICE, &q, sizeof(q),
			     &qr, 8, NULL, 0), ENOSPC);
	expect_err("INVOKE_WRITE of a command nobody serves (OPEN_XRCD): EOPNOTSUPP",
		   ioc_write(fd, IB_USER_VERBS_CMD_OPEN_XRCD, &q, sizeof(q),
			     &qr, sizeof(qr), NULL, 0), EOPNOTSUPP);
	expect_err("INVOKE_WRITE with bits outside the command: EINVAL",
		   ioc_write(fd, 0x10000 | IB_USER_VERBS_CMD_QUERY_DEVICE, &q,
			     sizeof(q), &qr, sizeof(qr), NULL, 0), EINVAL);
	for (i = 0; i < 2; i++) {
		memset(&ar, 0, sizeof(ar));
		rc = ioc_write(fd, IB_USER_VERBS_CMD_ALLOC_PD, &a, sizeof(a),
			       &ar, sizeof(ar), NULL, 0);
		pds[i] = rc ? ~0U : ar.pd_handle;
	}
	result(pds[0] != ~0U && pds[1] != ~0U && pds[0] != pds[1],
	       "INVOKE_WRITE ALLOC_PD twice: two handles", "%s",
	       strerror(errno));
	memset(list, 0xff, sizeof(list));
	total = 0;
	ioc_set(&c, 0, UVERBS_ATTR_INFO_OBJECT_ID, UVERBS_OBJECT_PD, 8, 0);
	ioc_set(&c, 1, UVERBS_ATTR_INFO_TOTAL_HANDLES, (uintptr_t)&total, 4, 0);
	ioc_set(&c, 2, UVERBS_ATTR_INFO_HANDLES_LIST, (uintptr_t)list,
		sizeof(list), 0);
	rc = ioc_run(fd, &c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INFO_HANDLES,
		     3);
	result(!rc && total == 2 &&
	       ((list[0] == pds[0] && list[1] == pds[1]) ||
		(list[0] == pds[1] && list[1] == pds[0])),
	       "INFO_HANDLES of PDs: the two", "rc %ld total %u", rc, total);
	result(!ioc_destroy(fd, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY,
			    UVERBS_ATTR_DESTROY_PD_HANDLE, pds[0]),
	       "ioctl PD_DESTROY", "%s", strerror(errno));
	expect_err("ioctl PD_DESTROY again: ENOENT",
		   ioc_destroy(fd, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY,
			       UVERBS_ATTR_DESTROY_PD_HANDLE, pds[0]), ENOENT);
	expect_err("ioctl PD_DESTROY naming no attribute: EINVAL",
		   ioc_run(fd, &c, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY, 0),
		   EINVAL);
	expect_err("ioctl MR_DESTROY of a PD's handle: EINVAL",
		   ioc_destroy(fd, UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY,
			       UVERBS_ATTR_DESTROY_MR_HANDLE, pds[1]), EINVAL);
	result(dealloc_pd(fd, pds[1]) > 0,
	       "write()'s DEALLOC_PD of a PD INVOKE_WRITE made", "%s",
	       strerror(errno));
}

/*
 * A context made by the ioctl (GET_CONTEXT, ASYNC_EVENT_ALLOC) on DEV_IB,
 * objects made through INVOKE_WRITE, queried and destroyed by the ioctl.
 */
/* ADVISE_MR of @sges (@len bytes) on PD @pd: 0, or -1 and errno. */
static long ioc_advise(int fd, uint32_t pd, uint64_t advice, uint32_t flags,
		       struct ib_uverbs_sge *sges, uint16_t len)
{
	struct ioc c = {};

	ioc_set(&c, 0, UVERBS_ATTR_ADVISE_MR_PD_HANDLE, pd, 0, 0);
	ioc_set(&c, 1, UVERBS_ATTR_ADVISE_MR_ADVICE, advice, 8, 0);
	ioc_set(&c, 2, UVERBS_ATTR_ADVISE_MR_FLAGS, flags, 4, 0);
	ioc_set(&c, 3, UVERBS_ATTR_ADVISE_MR_SGE_LIST, (uintptr_t)sges, len,
		0);
	return ioc_run(fd, &c, UVERBS_OBJECT_MR, UVERBS_METHOD_ADVISE_MR, 4);
}

/*
 * An on-demand paging MR over @buf (8 KiB) of PD @pd on DEV_IB (a loop
 * device, whose rdmavt serves them) and ADVISE_MR on it.
 */
static void test_advise_mr(int fd, uint32_t pd, void *buf)
{
	struct ib_uverbs_reg_mr_resp mr = {};
	struct ib_uverbs_sge sge[2];
	long rc;

	rc = reg_mr(fd, pd, buf, 8192, (uintptr_t)buf,
		    IB_UVERBS_ACCESS_LOCAL_WRITE | IB_UVERBS_ACCESS_ON_DEMAND,
		    &mr);
	result(rc > 0 && mr.lkey, "REG_MR with ON_DEMAND on DEV_IB",
	       "rc %ld %s", rc, strerror(errno));
	sge[0] = (struct ib_uverbs_sge){ .addr = (uintptr_t)buf,
					 .length = 8192, .lkey = mr.lkey };
	sge[1] = sge[0];
	rc = ioc_advise(fd, pd, IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_WRITE,
			IB_UVERBS_ADVISE_MR_FLAG_FLUSH, sge, sizeof(sge));
	result(!rc, "ioctl ADVISE_MR PREFETCH_WRITE, FLUSH, two SGEs",
	       "rc %ld %s", rc, strerror(errno));
	rc = ioc_advise(fd, pd, IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT,
			0, sge, sizeof(sge[0]));
	result(!rc, "ioctl ADVISE_MR PREFETCH_NO_FAULT", "rc %ld %s", rc,
	       strerror(errno));
	expect_err("ioctl ADVISE_MR past the MR: EINVAL",
		   (sge[1].length = 8193,
		    ioc_advise(fd, pd, IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH, 0,
			       &sge[1], sizeof(sge[1]))), EINVAL);
	expect_err("ioctl ADVISE_MR of an lkey of no MR: ENOENT",
		   (sge[1] = sge[0], sge[1].lkey ^= 0x10000,
		    ioc_advise(fd, pd, IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH, 0,
			       &sge[1], sizeof(sge[1]))), ENOENT);
	expect_err("ioctl ADVISE_MR, an SGE list of 24 bytes: EINVAL",
		   ioc_advise(fd, pd, IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH, 0,
			      sge, 24), EINVAL);
	expect_err("ioctl ADVISE_MR with an unknown flag: EINVAL",
		   ioc_advise(fd, pd, IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH,
			      1U << 7, sge, sizeof(sge[0])), EINVAL);
	expect_err("ioctl ADVISE_MR with an unknown advice: EOPNOTSUPP",
		   ioc_advise(fd, pd, 9, 0, sge, sizeof(sge[0])), EOPNOTSUPP);
	result(!ioc_destroy(fd, UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY,
			    UVERBS_ATTR_DESTROY_MR_HANDLE, mr.mr_handle),
	       "ioctl MR_DESTROY of the ODP MR", "%s", strerror(errno));
}

/* The attribute @id among the first @n of @c (it must be there). */
static struct ib_uverbs_attr *ioc_attr(struct ioc *c, int n, uint16_t id)
{
	int i;

	for (i = 0; i < n - 1 && c->a[i].attr_id != id; i++)
		;
	return &c->a[i];
}

/* Take attribute @id out of the first @n of @c: the number left. */
static int ioc_drop(struct ioc *c, int n, uint16_t id)
{
	*ioc_attr(c, n, id) = c->a[n - 1];
	return n - 1;
}

/*
 * QP_CREATE as libibverbs sends it: a QP of @type on PD @pd with CQ @cq
 * both ways, its events to @afd, the sizes asked for and answered in
 * @cap, the QPN into @qpn, rdmavt's receive ring offset into @drv; the
 * number of attributes.  The new handle comes back in a[0].
 */
static int ioc_qp(struct ioc *c, uint32_t pd, uint32_t cq, uint64_t type,
		  int afd, struct ib_uverbs_qp_cap *cap, uint32_t *qpn,
		  uint64_t *drv)
{
	int n = 0;

	*cap = (struct ib_uverbs_qp_cap){ .max_send_wr = 8, .max_recv_wr = 8,
					  .max_send_sge = 2,
					  .max_recv_sge = 2 };
	ioc_set(c, n++, UVERBS_ATTR_CREATE_QP_HANDLE, 0, 0, 0);
	ioc_set(c, n++, UVERBS_ATTR_CREATE_QP_PD_HANDLE, pd, 0, 0);
	ioc_set(c, n++, UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE, cq, 0, 0);
	ioc_set(c, n++, UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE, cq, 0, 0);
	ioc_set(c, n++, UVERBS_ATTR_CREATE_QP_USER_HANDLE, 0x5150, 8, 0);
	ioc_set(c, n++, UVERBS_ATTR_CREATE_QP_CAP, (uintptr_t)cap,
		sizeof(*cap), 0);
	ioc_set(c, n++, UVERBS_ATTR_CREATE_QP_TYPE, type, 8, 0);
	ioc_set(c, n++, UVERBS_ATTR_CREATE_QP_EVENT_FD, afd, 0, 0);
	ioc_set(c, n++, UVERBS_ATTR_CREATE_QP_RESP_CAP, (uintptr_t)cap,
		sizeof(*cap), 0);
	ioc_set(c, n++, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM, (uintptr_t)qpn, 4,
		0);
	ioc_set(c, n++, UVERBS_ATTR_UHW_OUT, (uintptr_t)drv, sizeof(*drv), 0);
	return n;
}

/* QP_CREATE with @n attributes of @c: 0, or -1 and errno. */
static long ioc_qp_run(int fd, struct ioc *c, int n)
{
	return ioc_run(fd, c, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE, n);
}

/*
 * SRQ_CREATE as libibverbs sends it: a basic SRQ of 16 entries of 2 SGEs
 * (limit 4) on PD @pd, its events to @afd, the sizes answered in @wr and
 * @sge, rdmavt's ring offset into @drv; the number of attributes.
 */
static int ioc_srq(struct ioc *c, uint32_t pd, int afd, uint32_t *wr,
		   uint32_t *sge, uint64_t *drv)
{
	int n = 0;

	ioc_set(c, n++, UVERBS_ATTR_CREATE_SRQ_HANDLE, 0, 0, 0);
	ioc_set(c, n++, UVERBS_ATTR_CREATE_SRQ_PD_HANDLE, pd, 0, 0);
	ioc_set(c, n++, UVERBS_ATTR_CREATE_SRQ_TYPE, IB_UVERBS_SRQT_BASIC, 8,
		0);
	ioc_set(c, n++, UVERBS_ATTR_CREATE_SRQ_USER_HANDLE, 0x5352, 8, 0);
	ioc_set(c, n++, UVERBS_ATTR_CREATE_SRQ_MAX_WR, 16, 4, 0);
	ioc_set(c, n++, UVERBS_ATTR_CREATE_SRQ_MAX_SGE, 2, 4, 0);
	ioc_set(c, n++, UVERBS_ATTR_CREATE_SRQ_LIMIT, 4, 4, 0);
	ioc_set(c, n++, UVERBS_ATTR_CREATE_SRQ_EVENT_FD, afd, 0, 0);
	ioc_set(c, n++, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR, (uintptr_t)wr, 4,
		0);
	ioc_set(c, n++, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE, (uintptr_t)sge,
		4, 0);
	ioc_set(c, n++, UVERBS_ATTR_UHW_OUT, (uintptr_t)drv, sizeof(*drv), 0);
	return n;
}

/* SRQ_CREATE with @n attributes of @c: 0, or -1 and errno. */
static long ioc_srq_run(int fd, struct ioc *c, int n)
{
	return ioc_run(fd, c, UVERBS_OBJECT_SRQ, UVERBS_METHOD_SRQ_CREATE, n);
}

/* DESTROY of QP or SRQ @handle by the ioctl, its events read in @ev. */
static long ioc_destroy_counted(int fd, uint16_t obj, uint32_t handle,
				uint32_t *ev)
{
	struct ib_uverbs_destroy_qp_resp r = { .events_reported = 99 };
	struct ioc c = {};
	long rc;

	/* QP's and SRQ's attribute IDs and response are alike */
	ioc_set(&c, 0, UVERBS_ATTR_DESTROY_QP_HANDLE, handle, 0, 0);
	ioc_set(&c, 1, UVERBS_ATTR_DESTROY_QP_RESP, (uintptr_t)&r, sizeof(r),
		0);
	rc = ioc_run(fd, &c, obj, obj == UVERBS_OBJECT_QP ?
		     UVERBS_METHOD_QP_DESTROY : UVERBS_METHOD_SRQ_DESTROY, 2);
	*ev = r.events_reported;
	return rc;
}

/*
 * QP_CREATE and SRQ_CREATE of the ioctl on DEV_IB @dev, its context @fd
 * made by the ioctl (its async file @afd), with CQ @cq: libibverbs'
 * requests made, the objects then used through write() and destroyed
 * by the ioctl; malformed requests refused with upstream's errnos,
 * leaking no handle.
 */
static void test_ioctl_qp_srq(const char *dev, int fd, int afd, uint32_t cq)
{
	struct ib_uverbs_alloc_pd a = {};
	struct ib_uverbs_alloc_pd_resp ar = {};
	struct ib_uverbs_query_qp q = { .attr_mask = QP_STATE };
	struct ib_uverbs_query_qp_resp qr = {};
	struct ib_uverbs_modify_qp m = {
		.qp_state = QPS_INIT, .port_num = 1, .qp_access_flags = ACC_ALL,
		.attr_mask = QP_STATE | QP_PKEY | QP_PORT | QP_ACCESS,
	};
	struct ib_uverbs_query_srq qs = {};
	struct ib_uverbs_query_srq_resp sr = {};
	struct ib_uverbs_qp_cap cap;
	uint32_t qpn = 0, wr = 0, sge = 0, hl[4] = {}, total, ev[3];
	uint32_t qp, qp2 = 0, srq = 0, pd;
	uint64_t drv = 0;
	char also[32];
	struct ioc c = {};
	long rc;
	int n;

	rc = ioc_write(fd, IB_USER_VERBS_CMD_ALLOC_PD, &a, sizeof(a), &ar,
		       sizeof(ar), NULL, 0);
	pd = ar.pd_handle;

	/* QP_CREATE refused */
	n = ioc_drop(&c, ioc_qp(&c, pd, cq, IB_UVERBS_QPT_RC, afd, &cap, &qpn,
				&drv), UVERBS_ATTR_CREATE_QP_CAP);
	expect_err("ioctl QP_CREATE without its CAP (mandatory): EINVAL",
		   rc ? rc : ioc_qp_run(fd, &c, n), EINVAL);
	n = ioc_qp(&c, pd, cq, 1, afd, &cap, &qpn, &drv);
	expect_err("ioctl QP_CREATE of type GSI: EINVAL",
		   ioc_qp_run(fd, &c, n), EINVAL);
	n = ioc_qp(&c, pd, cq, IB_UVERBS_QPT_RC, afd, &cap, &qpn, &drv);
	ioc_attr(&c, n, UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE)->data = pd;
	expect_err("ioctl QP_CREATE with a PD's handle as its send CQ: EINVAL",
		   ioc_qp_run(fd, &c, n), EINVAL);
	ioc_attr(&c, n, UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE)->data = 4242;
	expect_err("ioctl QP_CREATE with a CQ handle of nothing: ENOENT",
		   ioc_qp_run(fd, &c, n), ENOENT);
	n = ioc_drop(&c, n, UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE);
	expect_err("ioctl QP_CREATE of an RC QP without a send CQ: ENOENT",
		   ioc_qp_run(fd, &c, n), ENOENT);
	n = ioc_qp(&c, pd, cq, IB_UVERBS_QPT_RC, afd, &cap, &qpn, &drv);
	ioc_attr(&c, n, UVERBS_ATTR_CREATE_QP_RESP_CAP)->len = 16;
	expect_err("ioctl QP_CREATE with a 16-byte RESP_CAP: EINVAL",
		   ioc_qp_run(fd, &c, n), EINVAL);
	n = ioc_qp(&c, pd, cq, IB_UVERBS_QPT_RC, afd, &cap, &qpn, &drv);
	ioc_set(&c, n++, UVERBS_ATTR_CREATE_QP_FLAGS, 1 << 2, 4, 0);
	expect_err("ioctl QP_CREATE with a flag only write() takes: EINVAL",
		   ioc_qp_run(fd, &c, n), EINVAL);
	ioc_attr(&c, n, UVERBS_ATTR_CREATE_QP_FLAGS)->data =
		IB_UVERBS_QP_CREATE_BLOCK_MULTICAST_LOOPBACK;
	expect_err("ioctl QP_CREATE of an RC QP with BLOCK_MULTICAST_LOOPBACK: EINVAL",
		   ioc_qp_run(fd, &c, n), EINVAL);
	ioc_attr(&c, n, UVERBS_ATTR_CREATE_QP_TYPE)->data = IB_UVERBS_QPT_UD;
	expect_err("ioctl QP_CREATE of a UD QP with BLOCK_MULTICAST_LOOPBACK: the driver's EOPNOTSUPP",
		   ioc_qp_run(fd, &c, n), EOPNOTSUPP);
	n = ioc_qp(&c, pd, cq, IB_UVERBS_QPT_RC, afd, &cap, &qpn, &drv);
	ioc_set(&c, n++, UVERBS_ATTR_CREATE_QP_XRCD_HANDLE, pd, 0, 0);
	expect_err("ioctl QP_CREATE naming an XRC domain (none here): EINVAL",
		   ioc_qp_run(fd, &c, n), EINVAL);
	n = ioc_qp(&c, pd, cq, IB_UVERBS_QPT_XRC_TGT, afd, &cap, &qpn, &drv);
	expect_err("ioctl QP_CREATE of an XRC target with a PD and CQs: EINVAL",
		   ioc_qp_run(fd, &c, n), EINVAL);
	n = ioc_drop(&c, n, UVERBS_ATTR_CREATE_QP_PD_HANDLE);
	n = ioc_drop(&c, n, UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE);
	n = ioc_drop(&c, n, UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE);
	expect_err("ioctl QP_CREATE of an XRC target without its domain: ENOENT",
		   ioc_qp_run(fd, &c, n), ENOENT);

	/* QP_CREATE made, then used through write() */
	n = ioc_qp(&c, pd, cq, IB_UVERBS_QPT_RC, afd, &cap, &qpn, &drv);
	ioc_set(&c, n++, UVERBS_ATTR_CREATE_QP_FLAGS,
		IB_UVERBS_QP_CREATE_SQ_SIG_ALL, 4, 0);
	rc = ioc_qp_run(fd, &c, n);
	qp = c.a[0].data;
	result(!rc && qpn && cap.max_send_wr >= 8 && cap.max_recv_wr >= 8 &&
	       (c.a[8].flags & c.a[9].flags & c.a[10].flags &
		UVERBS_ATTR_F_VALID_OUTPUT),
	       "ioctl QP_CREATE of an RC QP: a handle, its QPN and sizes, the driver's data flagged written",
	       "rc %ld qpn %u send %u recv %u %s", rc, qpn, cap.max_send_wr,
	       cap.max_recv_wr, strerror(errno));
	snprintf(also, sizeof(also), " lqpn %u ", qpn);
	result(res_has_me("qp", dev, also),
	       "rdma res show qp: the ioctl's QP, ours", "qpn %u", qpn);
	m.qp_handle = qp;
	q.qp_handle = qp;
	rc = legacy_in(fd, IB_USER_VERBS_CMD_MODIFY_QP, &m, sizeof(m));
	rc = rc < 0 ? rc : legacy(fd, IB_USER_VERBS_CMD_QUERY_QP, &q,
				  sizeof(q), &qr, sizeof(qr));
	result(rc > 0 && qr.qp_state == QPS_INIT && qr.sq_sig_all &&
	       qr.max_send_wr == cap.max_send_wr,
	       "write() MODIFY_QP to INIT and QUERY_QP of it: INIT, SQ_SIG_ALL, its sizes",
	       "rc %ld state %u sig %u", rc, qr.qp_state, qr.sq_sig_all);

	/* SRQ_CREATE refused */
	n = ioc_drop(&c, ioc_srq(&c, pd, afd, &wr, &sge, &drv),
		     UVERBS_ATTR_CREATE_SRQ_MAX_WR);
	expect_err("ioctl SRQ_CREATE without MAX_WR (mandatory): EINVAL",
		   ioc_srq_run(fd, &c, n), EINVAL);
	n = ioc_srq(&c, cq, afd, &wr, &sge, &drv);
	expect_err("ioctl SRQ_CREATE with a CQ's handle as its PD: EINVAL",
		   ioc_srq_run(fd, &c, n), EINVAL);
	n = ioc_srq(&c, pd, afd, &wr, &sge, &drv);
	ioc_attr(&c, n, UVERBS_ATTR_CREATE_SRQ_TYPE)->data = 3;
	expect_err("ioctl SRQ_CREATE of type 3: EINVAL",
		   ioc_srq_run(fd, &c, n), EINVAL);
	ioc_attr(&c, n, UVERBS_ATTR_CREATE_SRQ_TYPE)->data = IB_UVERBS_SRQT_XRC;
	ioc_set(&c, n++, UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE, cq, 0, 0);
	expect_err("ioctl SRQ_CREATE of an XRC SRQ without its domain: ENOENT",
		   ioc_srq_run(fd, &c, n), ENOENT);
	ioc_attr(&c, n, UVERBS_ATTR_CREATE_SRQ_TYPE)->data = IB_UVERBS_SRQT_TM;
	ioc_set(&c, n++, UVERBS_ATTR_CREATE_SRQ_MAX_NUM_TAGS, 8, 4, 0);
	expect_err("ioctl SRQ_CREATE of a tag matching SRQ: the driver's EOPNOTSUPP",
		   ioc_srq_run(fd, &c, n), EOPNOTSUPP);

	/* SRQ_CREATE made, a QP on it */
	n = ioc_srq(&c, pd, afd, &wr, &sge, &drv);
	rc = ioc_srq_run(fd, &c, n);
	srq = c.a[0].data;
	result(!rc && wr >= 16 && sge >= 2 &&
	       (c.a[8].flags & c.a[9].flags & c.a[10].flags &
		UVERBS_ATTR_F_VALID_OUTPUT),
	       "ioctl SRQ_CREATE: a handle, its sizes, the driver's data flagged written",
	       "rc %ld wr %u sge %u %s", rc, wr, sge, strerror(errno));
	qs.srq_handle = srq;
	rc = legacy(fd, IB_USER_VERBS_CMD_QUERY_SRQ, &qs, sizeof(qs), &sr,
		    sizeof(sr));
	result(rc > 0 && sr.max_wr >= 16 && sr.srq_limit == 4,
	       "write() QUERY_SRQ of it: its size and limit", "rc %ld wr %u",
	       rc, sr.max_wr);
	n = ioc_qp(&c, pd, cq, IB_UVERBS_QPT_XRC_INI, afd, &cap, &qpn, &drv);
	ioc_set(&c, n++, UVERBS_ATTR_CREATE_QP_SRQ_HANDLE, srq, 0, 0);
	expect_err("ioctl QP_CREATE of an XRC initiator on an SRQ: EINVAL",
		   ioc_qp_run(fd, &c, n), EINVAL);
	ioc_attr(&c, n, UVERBS_ATTR_CREATE_QP_TYPE)->data = IB_UVERBS_QPT_RC;
	rc = ioc_qp_run(fd, &c, n);
	qp2 = c.a[0].data;
	result(!rc && qp2 != qp && !cap.max_recv_wr,
	       "ioctl QP_CREATE of an RC QP on the SRQ: no receive queue of its own",
	       "rc %ld recv %u %s", rc, cap.max_recv_wr, strerror(errno));
	expect_err("ioctl SRQ_DESTROY while a QP uses it: EBUSY",
		   ioc_destroy_counted(fd, UVERBS_OBJECT_SRQ, srq, &ev[0]),
		   EBUSY);

	ioc_set(&c, 0, UVERBS_ATTR_INFO_OBJECT_ID, UVERBS_OBJECT_QP, 8, 0);
	ioc_set(&c, 1, UVERBS_ATTR_INFO_TOTAL_HANDLES, (uintptr_t)&total, 4,
		0);
	ioc_set(&c, 2, UVERBS_ATTR_INFO_HANDLES_LIST, (uintptr_t)hl,
		sizeof(hl), 0);
	total = 99;
	rc = ioc_run(fd, &c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INFO_HANDLES,
		     3);
	result(!rc && total == 2,
	       "INFO_HANDLES of QPs: the two made, no refused one leaked",
	       "rc %ld total %u", rc, total);
	rc = ioc_destroy_counted(fd, UVERBS_OBJECT_QP, qp, &ev[0]);
	rc = rc ? rc : ioc_destroy_counted(fd, UVERBS_OBJECT_QP, qp2, &ev[1]);
	rc = rc ? rc : ioc_destroy_counted(fd, UVERBS_OBJECT_SRQ, srq, &ev[2]);
	result(!rc && !ev[0] && !ev[1] && !ev[2],
	       "ioctl QP_DESTROY of both QPs, then SRQ_DESTROY: no events",
	       "rc %ld %s", rc, strerror(errno));
	result(!ioc_destroy(fd, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY,
			    UVERBS_ATTR_DESTROY_PD_HANDLE, pd),
	       "ioctl PD_DESTROY of their PD, free again", "%s",
	       strerror(errno));
}

static void test_ioctl_objects(const char *dev)
{
	struct ib_uverbs_destroy_cq_resp dr = { 1, 1 };
	struct ib_uverbs_create_cq_resp cr = {};
	struct ib_uverbs_reg_mr_resp mr = {};
	struct ib_uverbs_alloc_pd_resp ar;
	struct ib_uverbs_alloc_pd a = {};
	struct ib_uverbs_create_cq cq = { .cqe = 8, .comp_channel = -1 };
	struct ib_uverbs_reg_mr m = {};
	uint32_t ncv = 0, lkey = 0, rkey = 0;
	uint64_t core = 0, len = 0, drv[4];
	uint32_t hl[4] = {};
	struct ioc c = {};
	void *buf = aligned_alloc(4096, 8192);
	int fd = open_uverbs(dev), afd;
	uint32_t saved = ioc_driver_id;
	long rc;

	/* DEV_IB is a loop device: rdmavt's (QIB's) driver ID */
	ioc_driver_id = RDMA_DRIVER_QIB;
	ioc_set(&c, 0, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS,
		(uintptr_t)&ncv, 4, 0);
	ioc_set(&c, 1, UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT, (uintptr_t)&core,
		8, 0);
	rc = ioc_run(fd, &c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT,
		     2);
	result(fd >= 0 && !rc && ncv == 1 &&
	       core == IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS,
	       "ioctl GET_CONTEXT on DEV_IB: one vector, optional MR access",
	       "rc %ld %s", rc, strerror(errno));
	expect_err("ioctl GET_CONTEXT again: EINVAL",
		   ioc_run(fd, &c, UVERBS_OBJECT_DEVICE,
			   UVERBS_METHOD_GET_CONTEXT, 2), EINVAL);
	ioc_set(&c, 0, UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE, 0, 0,
		UVERBS_ATTR_F_MANDATORY);
	rc = ioc_run(fd, &c, UVERBS_OBJECT_ASYNC_EVENT,
		     UVERBS_METHOD_ASYNC_EVENT_ALLOC, 1);
	afd = c.a[0].data_s64;
	result(!rc && afd > 2 && fcntl(afd, F_GETFD) == FD_CLOEXEC,
	       "ASYNC_EVENT_ALLOC: an fd, close-on-exec", "rc %ld fd %d", rc,
	       afd);

	memset(&ar, 0, sizeof(ar));
	rc = ioc_write(fd, IB_USER_VERBS_CMD_ALLOC_PD, &a, sizeof(a), &ar,
		       sizeof(ar), NULL, 0);
	m.start = (uintptr_t)buf;
	m.length = 8192;
	m.hca_va = 0x100000;
	m.pd_handle = ar.pd_handle;
	m.access_flags = IB_UVERBS_ACCESS_LOCAL_WRITE;
	rc = rc ? rc : ioc_write(fd, IB_USER_VERBS_CMD_REG_MR, &m, sizeof(m),
				 &mr, sizeof(mr), NULL, 0);
	ioc_set(&c, 0, UVERBS_ATTR_QUERY_MR_HANDLE, mr.mr_handle, 0, 0);
	ioc_set(&c, 1, UVERBS_ATTR_QUERY_MR_RESP_LKEY, (uintptr_t)&lkey, 4, 0);
	ioc_set(&c, 2, UVERBS_ATTR_QUERY_MR_RESP_RKEY, (uintptr_t)&rkey, 4, 0);
	ioc_set(&c, 3, UVERBS_ATTR_QUERY_MR_RESP_LENGTH, (uintptr_t)&len, 8, 0);
	rc = rc ? rc : ioc_run(fd, &c, UVERBS_OBJECT_MR, UVERBS_METHOD_QUERY_MR,
			       4);
	result(!rc && lkey == mr.lkey && rkey == mr.rkey && len == 8192,
	       "INVOKE_WRITE ALLOC_PD and REG_MR, ioctl QUERY_MR: its keys and length",
	       "rc %ld %s", rc, strerror(errno));
	test_advise_mr(fd, ar.pd_handle, buf);
	expect_err("ioctl PD_DESTROY of the MR's PD: EBUSY",
		   ioc_destroy(fd, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY,
			       UVERBS_ATTR_DESTROY_PD_HANDLE, ar.pd_handle),
		   EBUSY);
	result(!ioc_destroy(fd, UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY,
			    UVERBS_ATTR_DESTROY_MR_HANDLE, mr.mr_handle) &&
	       !ioc_destroy(fd, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY,
			    UVERBS_ATTR_DESTROY_PD_HANDLE, ar.pd_handle),
	       "ioctl MR_DESTROY, then PD_DESTROY", "%s", strerror(errno));

	/* rdmavt's CQ answers its ring's mmap offset in its driver part */
	rc = ioc_write(fd, IB_USER_VERBS_CMD_CREATE_CQ, &cq, sizeof(cq), &cr,
		       sizeof(cr), drv, sizeof(drv));
	ioc_set(&c, 0, UVERBS_ATTR_DESTROY_CQ_HANDLE, cr.cq_handle, 0, 0);
	ioc_set(&c, 1, UVERBS_ATTR_DESTROY_CQ_RESP, (uintptr_t)&dr, sizeof(dr),
		0);
	rc = rc ? rc : ioc_run(fd, &c, UVERBS_OBJECT_CQ,
			       UVERBS_METHOD_CQ_DESTROY, 2);
	result(!rc && !dr.comp_events_reported && !dr.async_events_reported,
	       "INVOKE_WRITE CREATE_CQ (driver data), ioctl CQ_DESTROY: no events",
	       "rc %ld %s", rc, strerror(errno));
	/* CQ_CREATE by the ioctl: the CQ and its event file named */
	ioc_set(&c, 0, UVERBS_ATTR_CREATE_CQ_HANDLE, 0, 0, 0);
	ioc_set(&c, 1, UVERBS_ATTR_CREATE_CQ_CQE, 8, 4, 0);
	ioc_set(&c, 2, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, 77, 8, 0);
	ioc_set(&c, 3, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 1, 4, 0);
	ioc_set(&c, 4, UVERBS_ATTR_CREATE_CQ_RESP_CQE, (uintptr_t)&ncv, 4, 0);
	ioc_set(&c, 5, UVERBS_ATTR_CREATE_CQ_EVENT_FD, afd, 0, 0);
	ioc_set(&c, 6, UVERBS_ATTR_UHW_OUT, (uintptr_t)drv, sizeof(drv), 0);
	expect_err("ioctl CQ_CREATE on a completion vector the device lacks: EINVAL",
		   ioc_run(fd, &c, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, 7),
		   EINVAL);
	ioc_set(&c, 3, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 0, 4, 0);
	ncv = 0;
	rc = ioc_run(fd, &c, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, 7);
	cr.cq_handle = c.a[0].data;
	result(!rc && ncv >= 8 &&
	       (c.a[6].flags & UVERBS_ATTR_F_VALID_OUTPUT),
	       "ioctl CQ_CREATE: a handle, the CQ's size, the driver's data flagged written",
	       "rc %ld cqe %u %s", rc, ncv, strerror(errno));
	ioc_set(&c, 0, UVERBS_ATTR_INFO_OBJECT_ID, UVERBS_OBJECT_CQ, 8, 0);
	ioc_set(&c, 1, UVERBS_ATTR_INFO_TOTAL_HANDLES, (uintptr_t)&ncv, 4, 0);
	ioc_set(&c, 2, UVERBS_ATTR_INFO_HANDLES_LIST, (uintptr_t)hl,
		sizeof(hl), 0);
	ncv = 99;
	rc = ioc_run(fd, &c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INFO_HANDLES,
		     3);
	result(!rc && ncv == 1 && hl[0] == cr.cq_handle,
	       "INFO_HANDLES of CQs: the one made, the failed one not leaked",
	       "rc %ld total %u", rc, ncv);
	test_ioctl_qp_srq(dev, fd, afd, cr.cq_handle);
	ioc_set(&c, 0, UVERBS_ATTR_DESTROY_CQ_HANDLE, cr.cq_handle, 0, 0);
	ioc_set(&c, 1, UVERBS_ATTR_DESTROY_CQ_RESP, (uintptr_t)&dr, sizeof(dr),
		0);
	ioc_run(fd, &c, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY, 2);
	close(afd);
	close(fd);
	free(buf);
	ioc_driver_id = saved;
}

/* --cgroup's cases */
#define NCASES_CGROUP	16

/* Write @text to the file at @path; 0 or -1 (errno set). */
static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -1;
	ret = write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : -1;
	close(fd);
	return ret;
}

/* A context on @dev's uverbsN: the fd, or -1 (errno set). */
static int open_context(const char *dev)
{
	struct ib_uverbs_get_context g = {};
	uint8_t big[256];
	int fd = open_uverbs(dev), err;

	if (fd < 0)
		return -1;
	if (legacy(fd, IB_USER_VERBS_CMD_GET_CONTEXT, &g, sizeof(g), big,
		   sizeof(big)) < 0) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

/*
 * @cgdir's rdma.current says @dev has @handles and @objects charged
 * (its line of the file, a line per registered device, into @got, or
 * "(none)" when it has none).
 */
static int cg_current(const char *cgdir, const char *dev, int handles,
		      int objects, char *got, size_t len)
{
	char path[256], want[128], line[256];
	size_t n = strlen(dev);
	FILE *f;

	snprintf(path, sizeof(path), "%s/rdma.current", cgdir);
	snprintf(want, sizeof(want), "%s hca_handle=%d hca_object=%d", dev,
		 handles, objects);
	snprintf(got, len, "(none)");
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		/* the controller ends each "name=value" with a space */
		line[strcspn(line, "\n")] = 0;
		while (*line && line[strlen(line) - 1] == ' ')
			line[strlen(line) - 1] = 0;
		if (!strncmp(line, dev, n) && line[n] == ' ') {
			n = strlen(line) < len ? strlen(line) : len - 1;
			memcpy(got, line, n);
			got[n] = 0;
			break;
		}
	}
	fclose(f);
	return !strcmp(got, want);
}

/*
 * --cgroup DEV CGDIR: the rdma cgroup controller's limits on DEV, from
 * inside CGDIR (a cgroup the caller made, with the rdma controller
 * enabled): contexts are HCA handles, verbs objects HCA objects; a
 * limit reached is EAGAIN, what is freed is given back, and DEV deleted
 * under charged objects leaves the controller with no pool of it.
 */
static int test_cgroup(const char *dev, const char *cgdir)
{
	struct ib_uverbs_create_cq cq = { .cqe = 0x7fffffff,
					  .comp_channel = -1 };
	struct ib_uverbs_create_cq_resp cr;
	char path[256], text[128], got[128];
	long pd[4], rc;
	int fd1, fd2, fd3, err;

	printf("KTAP version 1\n1..%d\n", NCASES_CGROUP);
	snprintf(path, sizeof(path), "%s/rdma.max", cgdir);
	snprintf(text, sizeof(text), "%s hca_handle=2 hca_object=3", dev);
	result(!write_file(path, text), "rdma.max: 2 handles, 3 objects on DEV",
	       "%s", strerror(errno));
	snprintf(path, sizeof(path), "%s/cgroup.procs", cgdir);
	snprintf(text, sizeof(text), "%d", getpid());
	result(!write_file(path, text), "this process joins CGDIR", "%s",
	       strerror(errno));

	fd1 = open_context(dev);
	fd2 = open_context(dev);
	result(fd1 >= 0 && fd2 >= 0, "two contexts", "%s", strerror(errno));
	expect_err("a third context: EAGAIN", fd3 = open_context(dev), EAGAIN);
	result(cg_current(cgdir, dev, 2, 0, got, sizeof(got)),
	       "rdma.current: 2 handles, no object", "%s", got);
	/* the driver refuses it after the handle was reserved and charged */
	rc = legacy(fd1, IB_USER_VERBS_CMD_CREATE_CQ, &cq, sizeof(cq), &cr,
		    sizeof(cr));
	err = errno;
	result(rc == -1 && err == EINVAL &&
	       cg_current(cgdir, dev, 2, 0, got, sizeof(got)),
	       "CREATE_CQ past max_cqe: EINVAL, its charge given back",
	       "rc %ld %s, %s", rc, strerror(err), got);

	pd[0] = alloc_pd(fd1);
	pd[1] = alloc_pd(fd1);
	pd[2] = alloc_pd(fd2);
	result(pd[0] >= 0 && pd[1] >= 0 && pd[2] >= 0, "three PDs",
	       "%ld %ld %ld %s", pd[0], pd[1], pd[2], strerror(errno));
	expect_err("a fourth PD: EAGAIN", pd[3] = alloc_pd(fd1), EAGAIN);
	result(cg_current(cgdir, dev, 2, 3, got, sizeof(got)),
	       "rdma.current: 2 handles, 3 objects", "%s", got);
	pd[3] = dealloc_pd(fd1, pd[0]) >= 0 ? alloc_pd(fd1) : -1;
	result(pd[3] >= 0, "DEALLOC_PD gives its object back: ALLOC_PD again",
	       "%s", strerror(errno));

	/* a close gives back the context and what it held */
	close(fd2);
	result(cg_current(cgdir, dev, 1, 2, got, sizeof(got)),
	       "a file closed: its context and PD uncharged", "%s", got);
	fd3 = open_context(dev);
	result(fd3 >= 0, "a context again", "%s", strerror(errno));
	result(alloc_pd(fd3) >= 0, "and a PD on it", "%s", strerror(errno));
	expect_err("one more PD: EAGAIN", alloc_pd(fd3), EAGAIN);

	/* the device goes under charged objects */
	snprintf(text, sizeof(text), "rdma link delete %s", dev);
	result(!system(text) &&
	       !cg_current(cgdir, dev, 2, 3, got, sizeof(got)) &&
	       !strcmp(got, "(none)"),
	       "DEV deleted under 2 contexts and 3 PDs: rdma.current forgets it",
	       "%s", got);
	expect_err("ALLOC_PD on a disassociated file: EIO", alloc_pd(fd1), EIO);
	close(fd1);
	close(fd3);
	return failed || case_num != NCASES_CGROUP;
}

int main(int argc, char **argv)
{
	int fd, async = -1, ncases = NCASES + (argc >= 6 ? NCASES_RXE : 0) +
				     (argc == 7 ? NCASES_SIW : 0);

	if (argc == 4 && !strcmp(argv[1], "--cgroup"))
		return test_cgroup(argv[2], argv[3]);
	if (argc < 5 || argc > 7) {
		fprintf(stderr,
			"usage: %s DEV NETDEV DEV_DEL DEV_IB [DEV_RXE [DEV_SIW]]\n"
			"       %s --cgroup DEV CGDIR\n",
			argv[0], argv[0]);
		return 2;
	}
	printf("KTAP version 1\n1..%d\n", ncases);
	fd = open_uverbs(argv[1]);
	result(fd >= 0, "open DEV's uverbsN", "%s", strerror(errno));
	if (fd < 0)
		return 1;
	test_headers(fd);
	test_context(fd, argv[1], &async);
	test_queries(fd, argv[1]);
	test_ioctl(fd, argv[1]);
	test_events(async, argv[2]);
	test_pd(fd, argv[1]);
	test_foreign_writer(fd);
	close(async);
	close(fd);
	test_delete(argv[3]);
	test_datapath(argv[4]);
	test_rings(argv[4]);
	test_ioctl_objects(argv[4]);
	if (argc >= 6)
		test_rxe(argv[5]);
	if (argc == 7)
		test_siw(argv[6]);
	if (case_num != ncases)
		printf("# ran %d cases, planned %d\n", case_num, ncases);
	return failed || case_num != ncases;
}
