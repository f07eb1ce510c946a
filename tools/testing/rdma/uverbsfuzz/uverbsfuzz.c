// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * uverbsfuzz: random and malformed commands on /dev/infiniband/uverbsN,
 * from processes killed at random points.
 *
 *   uverbsfuzz [-g] DEV CALLS SEED [UID]
 *
 * Workers (forked one after another) open DEV's uverbsN and issue
 * write() commands: well-formed ones whose handles come from what
 * earlier commands answered (live, destroyed or never given), fields
 * and sizes at random, raw headers and bytes, mmap() of the offsets
 * drivers answer (and random ones) with garbage written into the mapped
 * rings, reads of the event files, closes; and verbs ioctls (the
 * device's driver ID learnt first): objects and methods known or not,
 * attributes of random IDs, flags, lengths and kinds (inline values,
 * buffers, handles live or stale, fds, bad pointers), headers with
 * wrong lengths or reserved bits, INVOKE_WRITE of a random command, the
 * destroys by handle.  The parent kills each
 * worker with SIGKILL after a random time, so commands and teardown race
 * the process's death.  With UID, the workers run as that user.  Stops
 * after CALLS commands in all.  With -g the device may go away meanwhile
 * ("rdma link delete" beside it): every worker takes a context, and
 * workers that find no uverbsN any more end the run early.  Prints KTAP:
 * one case per check; a worker that dies of anything but the parent's
 * SIGKILL (or exits with an error of its own setup) fails.  What the
 * kernel makes of it (no splat, no leak) is the test bed's to check.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sys/ioctl.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#include "../tool_ktap.h"

#define SYS_VERBS	"/sys/class/infiniband_verbs"
#define POOL		16

/* what the workers share with the parent (atomic counters) */
struct shared {
	long calls;
	long ok;
};

static struct shared *sh;
static uint64_t rng;

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

/* a worker's handles by kind, live or not */
enum kind { K_PD, K_MR, K_CQ, K_QP, K_SRQ, K_AH, K_NKINDS };

static uint32_t handles[K_NKINDS][POOL];
static int nhandles[K_NKINDS];
static uint32_t qpns[POOL];	/* QP numbers answered */
static uint32_t lkeys[POOL];	/* MR keys answered */
static int fds[POOL], nfds;
static uint8_t *mem;		/* memory to register, 16 pages */

static void remember(enum kind k, uint32_t h)
{
	if (nhandles[k] < POOL)
		handles[k][nhandles[k]++] = h;
	else
		handles[k][below(POOL)] = h;
}

/* a handle of kind @k: usually one given, sometimes anything */
static uint32_t handle(enum kind k)
{
	if (!nhandles[k] || !below(8))
		return below(4) ? below(64) : (uint32_t)rnd();
	return handles[k][below(nhandles[k])];
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

/*
 * A legacy command: @req of @len bytes (its first 8 the response
 * address when @resp), the header's words at random now and then.
 */
static long cmd(int fd, uint32_t command, void *req, size_t len, void *resp,
		size_t resp_len)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		uint8_t req[2048];
	} c;
	size_t n;

	if (len > sizeof(c.req))
		len = sizeof(c.req);
	n = len;
	c.hdr.command = command;
	c.hdr.in_words = (sizeof(c.hdr) + len) / 4;
	c.hdr.out_words = resp_len / 4;
	memcpy(c.req, req, len);
	if (resp && len >= 8) {
		uint64_t r = (uintptr_t)resp;

		/* a bad response address now and then */
		if (!below(32))
			r = below(2) ? 0 : 0x1000;
		memcpy(c.req, &r, sizeof(r));
	}
	if (!below(40)) {
		/* a length that does not match the header */
		n = below(len + 16);
	}
	__atomic_fetch_add(&sh->calls, 1, __ATOMIC_RELAXED);
	if (write(fd, &c, sizeof(c.hdr) + n) >= 0) {
		__atomic_fetch_add(&sh->ok, 1, __ATOMIC_RELAXED);
		return 0;
	}
	return -1;
}

static void fill(void *p, size_t len)
{
	uint8_t *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		b[i] = rnd();
}

/* an address to register: ours (often), a bad one, or a kernel one */
static uint64_t addr(void)
{
	switch (below(8)) {
	case 0:
		return 0;
	case 1:
		return 0xffff888000000000ull;
	case 2:
		return rnd();
	default:
		return (uintptr_t)mem + below(16 * 4096);
	}
}

/* map what an offset names, scribble on it, maybe keep it */
static void try_mmap(int fd, uint64_t offset, size_t len)
{
	void *p;

	if (!len || len > (1 << 22))
		len = 4096 * (1 + below(4));
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset);
	__atomic_fetch_add(&sh->calls, 1, __ATOMIC_RELAXED);
	if (p == MAP_FAILED)
		return;
	__atomic_fetch_add(&sh->ok, 1, __ATOMIC_RELAXED);
	fill(p, len < 4096 ? len : 64 + below(256));
	if (below(2))
		munmap(p, len);
}

static void op_pd(int fd)
{
	struct ib_uverbs_alloc_pd_resp r = {};
	struct ib_uverbs_alloc_pd a = {};
	struct ib_uverbs_dealloc_pd d = { .pd_handle = handle(K_PD) };

	if (below(3)) {
		if (!cmd(fd, IB_USER_VERBS_CMD_ALLOC_PD, &a, sizeof(a), &r,
			 sizeof(r)))
			remember(K_PD, r.pd_handle);
	} else {
		cmd(fd, IB_USER_VERBS_CMD_DEALLOC_PD, &d, sizeof(d), NULL, 0);
	}
}

static void op_mr(int fd)
{
	struct ib_uverbs_reg_mr m = {
		.start = addr(), .length = below(4) ? below(8 * 4096) : rnd(),
		.pd_handle = handle(K_PD), .access_flags = below(16),
	};
	struct ib_uverbs_reg_mr_resp r = {};
	struct ib_uverbs_rereg_mr rr = {
		.mr_handle = handle(K_MR), .flags = below(16),
		.start = addr(), .length = below(4096 * 4),
		.pd_handle = handle(K_PD), .access_flags = below(16),
	};
	struct ib_uverbs_rereg_mr_resp rrr;
	struct ib_uverbs_dereg_mr d = { .mr_handle = handle(K_MR) };

	m.hca_va = below(2) ? m.start : rnd();
	rr.hca_va = rr.start;
	switch (below(4)) {
	case 0:
	case 1:
		if (!cmd(fd, IB_USER_VERBS_CMD_REG_MR, &m, sizeof(m), &r,
			 sizeof(r))) {
			remember(K_MR, r.mr_handle);
			lkeys[below(POOL)] = r.lkey;
		}
		break;
	case 2:
		cmd(fd, IB_USER_VERBS_CMD_REREG_MR, &rr, sizeof(rr), &rrr,
		    sizeof(rrr));
		break;
	default:
		cmd(fd, IB_USER_VERBS_CMD_DEREG_MR, &d, sizeof(d), NULL, 0);
	}
}

static void op_cq(int fd)
{
	struct ib_uverbs_create_cq c = {
		.user_handle = rnd(), .cqe = below(4) ? 1 + below(64) : val(),
		.comp_vector = below(8) ? 0 : val(),
		.comp_channel = nfds && below(2) ? fds[below(nfds)] :
			(below(4) ? -1 : (int32_t)val()),
	};
	struct {
		struct ib_uverbs_create_cq_resp r;
		uint64_t offset;
	} r = {};
	struct ib_uverbs_create_comp_channel cc;
	struct ib_uverbs_create_comp_channel_resp ccr;
	struct ib_uverbs_resize_cq rs = { .cq_handle = handle(K_CQ),
					  .cqe = val() };
	struct {
		struct ib_uverbs_resize_cq_resp r;
		uint64_t offset;
	} rsr = {};
	struct ib_uverbs_destroy_cq d = { .cq_handle = handle(K_CQ) };
	struct ib_uverbs_destroy_cq_resp dr;
	struct ib_uverbs_req_notify_cq n = { .cq_handle = handle(K_CQ),
					     .solicited_only = below(2) };
	struct {
		struct ib_uverbs_poll_cq_resp r;
		struct ib_uverbs_wc wc[8];
	} pr;
	struct ib_uverbs_poll_cq p = { .cq_handle = handle(K_CQ),
				       .ne = below(4) ? below(8) : val() };

	switch (below(7)) {
	case 0:
		if (!cmd(fd, IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL, &cc,
			 sizeof(cc), &ccr, sizeof(ccr)) && nfds < POOL) {
			/* a read must never block the worker */
			fcntl(ccr.fd, F_SETFL, O_NONBLOCK);
			fds[nfds++] = ccr.fd;
		}
		break;
	case 1:
	case 2:
		/* with or without room for the ring's offset */
		if (!cmd(fd, IB_USER_VERBS_CMD_CREATE_CQ, &c, sizeof(c), &r,
			 below(2) ? sizeof(r) : sizeof(r.r))) {
			remember(K_CQ, r.r.cq_handle);
			if (r.offset && below(2))
				try_mmap(fd, r.offset, 8 + 48 * (r.r.cqe + 1));
		}
		break;
	case 3:
		if (!cmd(fd, IB_USER_VERBS_CMD_RESIZE_CQ, &rs, sizeof(rs), &rsr,
			 sizeof(rsr)) && rsr.offset)
			try_mmap(fd, rsr.offset, 8 + 48 * (rsr.r.cqe + 1));
		break;
	case 4:
		cmd(fd, IB_USER_VERBS_CMD_DESTROY_CQ, &d, sizeof(d), &dr,
		    sizeof(dr));
		break;
	case 5:
		cmd(fd, IB_USER_VERBS_CMD_REQ_NOTIFY_CQ, &n, sizeof(n), NULL,
		    0);
		break;
	default:
		cmd(fd, IB_USER_VERBS_CMD_POLL_CQ, &p, sizeof(p), &pr,
		    8 + 48 * below(9));
	}
}

static void op_qp(int fd, uint16_t lid)
{
	static const uint8_t types[] = { 2, 3, 4, 8, 9, 0x77 };
	struct ib_uverbs_create_qp c = {
		.user_handle = rnd(), .pd_handle = handle(K_PD),
		.send_cq_handle = handle(K_CQ), .recv_cq_handle = handle(K_CQ),
		.srq_handle = handle(K_SRQ), .max_send_wr = below(32),
		.max_recv_wr = below(32), .max_send_sge = below(4),
		.max_recv_sge = below(4),
		.max_inline_data = below(4) ? below(64) : val(),
		.sq_sig_all = below(2), .qp_type = types[below(6)],
		.is_srq = !below(4),
	};
	struct {
		struct ib_uverbs_create_qp_resp r;
		uint64_t offset;
	} r = {};
	struct ib_uverbs_modify_qp m;
	struct ib_uverbs_query_qp q = { .qp_handle = handle(K_QP),
					.attr_mask = val() };
	struct ib_uverbs_query_qp_resp qr;
	struct ib_uverbs_destroy_qp d = { .qp_handle = handle(K_QP) };
	struct ib_uverbs_destroy_qp_resp dr;
	struct ib_uverbs_attach_mcast a = { .qp_handle = handle(K_QP),
					    .mlid = 0xc000 + below(4) };

	switch (below(6)) {
	case 0:
	case 1:
		if (!cmd(fd, IB_USER_VERBS_CMD_CREATE_QP, &c, sizeof(c), &r,
			 below(2) ? sizeof(r) : sizeof(r.r))) {
			remember(K_QP, r.r.qp_handle);
			qpns[below(POOL)] = r.r.qpn;
			if (r.offset && below(2))
				try_mmap(fd, r.offset, 0);
		}
		break;
	case 2:
	case 3:
		fill(&m, sizeof(m));
		m.qp_handle = handle(K_QP);
		m.qp_state = below(8);
		m.attr_mask = below(2) ? rnd() & 0x1fffff : below(1 << 21);
		m.port_num = below(3);
		m.dest.port_num = below(3);
		m.dest.dlid = below(2) ? lid : m.dest.dlid;
		m.dest.is_global = below(4) == 0;
		m.path_mtu = below(7);
		m.dest_qp_num = below(32);
		cmd(fd, IB_USER_VERBS_CMD_MODIFY_QP, &m, sizeof(m), NULL, 0);
		break;
	case 4:
		cmd(fd, IB_USER_VERBS_CMD_QUERY_QP, &q, sizeof(q), &qr,
		    sizeof(qr));
		break;
	default:
		fill(a.gid, sizeof(a.gid));
		a.gid[0] = 0xff;
		if (below(3))
			cmd(fd, below(2) ? IB_USER_VERBS_CMD_ATTACH_MCAST :
					   IB_USER_VERBS_CMD_DETACH_MCAST,
			    &a, sizeof(a), NULL, 0);
		else
			cmd(fd, IB_USER_VERBS_CMD_DESTROY_QP, &d, sizeof(d),
			    &dr, sizeof(dr));
	}
}

/*
 * A QP through INIT, RTR and RTS towards a QP number answered before
 * (on the port's LID), well-formed but for a field now and then: posts
 * then reach the data path.
 */
static void op_connect(int fd, uint16_t lid)
{
	static const uint8_t states[] = { 1, 2, 3 };
	static const uint32_t masks[] = {
		0x1 | 0x8 | 0x10 | 0x20,
		0x1 | 0x80 | 0x100 | 0x100000 | 0x1000 | 0x20000 | 0x8000,
		0x1 | 0x10000 | 0x200 | 0x400 | 0x800 | 0x2000,
	};
	struct ib_uverbs_modify_qp m;
	uint32_t qp = handle(K_QP), i;

	for (i = 0; i < 3; i++) {
		memset(&m, 0, sizeof(m));
		m.qp_handle = qp;
		m.qp_state = states[i];
		m.attr_mask = masks[i];
		m.port_num = 1;
		m.qp_access_flags = 7;
		m.path_mtu = 1 + below(5);
		m.dest_qp_num = qpns[below(POOL)];
		m.dest.dlid = lid;
		m.dest.port_num = 1;
		m.max_dest_rd_atomic = below(4);
		m.min_rnr_timer = below(32);
		m.timeout = below(20);
		m.retry_cnt = below(8);
		m.rnr_retry = below(8);
		m.max_rd_atomic = below(4);
		m.qkey = below(8) ? 0x1234 : (uint32_t)rnd();
		if (!below(16))
			fill(&m, sizeof(m) / 2);
		if (cmd(fd, IB_USER_VERBS_CMD_MODIFY_QP, &m, sizeof(m), NULL,
			0))
			break;
	}
}

/* POST_SEND, POST_RECV or POST_SRQ_RECV with random requests */
static void op_post(int fd)
{
	uint8_t buf[1024];
	struct ib_uverbs_post_send *p = (void *)buf;
	struct ib_uverbs_post_recv_resp r;
	uint32_t wrs = below(4), sges = below(6), i, wsz;
	size_t n = sizeof(*p);

	memset(buf, 0, sizeof(buf));
	wsz = below(6) ? sizeof(struct ib_uverbs_send_wr) : below(128);
	p->qp_handle = below(4) ? handle(K_QP) : handle(K_SRQ);
	p->wr_count = below(10) ? wrs : val();
	p->sge_count = below(10) ? sges : val();
	p->wqe_size = wsz;
	for (i = 0; i < wrs && n + wsz <= 700; i++, n += wsz) {
		struct ib_uverbs_send_wr w;

		fill(&w, sizeof(w));
		w.num_sge = below(4);
		w.opcode = below(12);
		w.send_flags = below(32);
		w.wr.ud.ah = handle(K_AH);
		memcpy(buf + n, &w, wsz < sizeof(w) ? wsz : sizeof(w));
	}
	for (i = 0; i < sges && n + 16 <= sizeof(buf); i++, n += 16) {
		struct ib_uverbs_sge s = {
			.addr = addr(), .length = below(4) ? below(8192) : val(),
			.lkey = below(4) ? lkeys[below(POOL)] : val(),
		};

		memcpy(buf + n, &s, sizeof(s));
	}
	cmd(fd, below(2) ? IB_USER_VERBS_CMD_POST_SEND :
		below(2) ? IB_USER_VERBS_CMD_POST_RECV :
			   IB_USER_VERBS_CMD_POST_SRQ_RECV,
	    buf, n, &r, sizeof(r));
}

static void op_srq_ah(int fd)
{
	struct ib_uverbs_create_srq c = {
		.user_handle = rnd(), .pd_handle = handle(K_PD),
		.max_wr = below(4) ? 1 + below(32) : val(),
		.max_sge = below(4), .srq_limit = below(8),
	};
	struct {
		struct ib_uverbs_create_srq_resp r;
		uint64_t offset;
	} r = {};
	struct {
		struct ib_uverbs_modify_srq m;
		uint64_t offset_addr;
	} m = { .m = { .srq_handle = handle(K_SRQ), .attr_mask = below(4),
		       .max_wr = below(64), .srq_limit = below(8) },
		.offset_addr = below(2) ? (uintptr_t)&r.offset : rnd() };
	struct ib_uverbs_destroy_srq d = { .srq_handle = handle(K_SRQ) };
	struct ib_uverbs_destroy_srq_resp dr;
	struct ib_uverbs_create_ah a = {
		.user_handle = rnd(), .pd_handle = handle(K_PD),
		.attr = { .dlid = below(4), .port_num = below(3),
			  .is_global = below(2), .sl = below(16) },
	};
	struct ib_uverbs_create_ah_resp ar;
	struct ib_uverbs_destroy_ah da = { .ah_handle = handle(K_AH) };

	fill(a.attr.grh.dgid, sizeof(a.attr.grh.dgid));
	a.attr.grh.sgid_index = below(4);
	switch (below(6)) {
	case 0:
		if (!cmd(fd, IB_USER_VERBS_CMD_CREATE_SRQ, &c, sizeof(c), &r,
			 below(2) ? sizeof(r) : sizeof(r.r))) {
			remember(K_SRQ, r.r.srq_handle);
			if (r.offset)
				try_mmap(fd, r.offset, 0);
		}
		break;
	case 1:
		cmd(fd, IB_USER_VERBS_CMD_MODIFY_SRQ, &m, sizeof(m), NULL, 0);
		break;
	case 2:
		cmd(fd, IB_USER_VERBS_CMD_DESTROY_SRQ, &d, sizeof(d), &dr,
		    sizeof(dr));
		break;
	case 3:
	case 4:
		if (!cmd(fd, IB_USER_VERBS_CMD_CREATE_AH, &a, sizeof(a), &ar,
			 sizeof(ar)))
			remember(K_AH, ar.ah_handle);
		break;
	default:
		cmd(fd, IB_USER_VERBS_CMD_DESTROY_AH, &da, sizeof(da), NULL, 0);
	}
}

/* anything at all: a random command, sizes and bytes */
static void op_raw(int fd)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_ex_cmd_hdr ex;
		uint8_t body[256];
	} c;
	uint8_t out[512];
	size_t n;

	fill(&c, sizeof(c));
	c.hdr.command = below(4) ? below(64) :
		IB_USER_VERBS_CMD_FLAG_EXTENDED | below(16);
	if (below(2)) {
		/* consistent sizes, so that the command itself runs */
		n = sizeof(c.hdr) + 8 * below(33);
		c.hdr.in_words = n / 4;
		if (c.hdr.command & IB_USER_VERBS_CMD_FLAG_EXTENDED) {
			n = sizeof(c.hdr) + sizeof(c.ex) + 8 * below(28);
			c.hdr.in_words = below(4);
			c.ex.provider_in_words = (n - sizeof(c.hdr) -
						  sizeof(c.ex)) / 8 -
						 c.hdr.in_words;
			c.ex.response = (uintptr_t)out;
			c.hdr.out_words = below(32);
			c.ex.provider_out_words = below(16);
			c.ex.cmd_hdr_reserved = 0;
		} else {
			uint64_t r = (uintptr_t)out;

			memcpy(&c.ex, &r, sizeof(r));
			c.hdr.out_words = below(128);
		}
	} else {
		n = below(sizeof(c));
	}
	__atomic_fetch_add(&sh->calls, 1, __ATOMIC_RELAXED);
	if (write(fd, &c, n) >= 0)
		__atomic_fetch_add(&sh->ok, 1, __ATOMIC_RELAXED);
}

/* the driver ID the device's ioctls must name (learnt per worker) */
static uint32_t drv_id;

static void learn_driver_id(int fd)
{
	struct {
		struct ib_uverbs_ioctl_hdr hdr;
		struct ib_uverbs_attr a[1];
	} c;
	uint32_t i;

	for (i = 0; i < 32; i++) {
		memset(&c, 0, sizeof(c));
		c.hdr.length = sizeof(c);
		c.hdr.object_id = UVERBS_OBJECT_DEVICE;
		c.hdr.method_id = UVERBS_METHOD_INVOKE_WRITE;
		c.hdr.num_attrs = 1;
		c.hdr.driver_id = i;
		c.a[0].attr_id = UVERBS_ATTR_WRITE_CMD;
		c.a[0].len = 8;
		c.a[0].data = IB_USER_VERBS_CMD_QUERY_DEVICE;
		if (ioctl(fd, RDMA_VERBS_IOCTL, &c) && errno == ENOSPC) {
			drv_id = i;
			return;
		}
	}
}

static const uint16_t ioc_objs[] = {
	UVERBS_OBJECT_DEVICE, UVERBS_OBJECT_PD, UVERBS_OBJECT_COMP_CHANNEL,
	UVERBS_OBJECT_CQ, UVERBS_OBJECT_QP, UVERBS_OBJECT_SRQ,
	UVERBS_OBJECT_AH, UVERBS_OBJECT_MR, UVERBS_OBJECT_ASYNC_EVENT,
};

/* the destroy of each kind: object, method, handle attribute */
static const uint16_t ioc_destroys[K_NKINDS][3] = {
	[K_PD] = { UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY,
		   UVERBS_ATTR_DESTROY_PD_HANDLE },
	[K_MR] = { UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY,
		   UVERBS_ATTR_DESTROY_MR_HANDLE },
	[K_CQ] = { UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY,
		   UVERBS_ATTR_DESTROY_CQ_HANDLE },
	[K_QP] = { UVERBS_OBJECT_QP, UVERBS_METHOD_QP_DESTROY,
		   UVERBS_ATTR_DESTROY_QP_HANDLE },
	[K_SRQ] = { UVERBS_OBJECT_SRQ, UVERBS_METHOD_SRQ_DESTROY,
		    UVERBS_ATTR_DESTROY_SRQ_HANDLE },
	[K_AH] = { UVERBS_OBJECT_AH, UVERBS_METHOD_AH_DESTROY,
		   UVERBS_ATTR_DESTROY_AH_HANDLE },
};

/* A verbs ioctl, mostly near well-formed, its attributes at random. */
static void op_ioctl(int fd, int async)
{
	struct {
		struct ib_uverbs_ioctl_hdr hdr;
		struct ib_uverbs_attr a[8];
	} c;
	uint64_t out[4][9];
	unsigned int n = below(9), i;
	enum kind k = below(K_NKINDS);

	memset(&c, 0, sizeof(c));
	fill(out, sizeof(out));
	switch (below(4)) {
	case 0:
		/* a destroy by handle, live or stale, with a response */
		c.hdr.object_id = ioc_destroys[k][0];
		c.hdr.method_id = ioc_destroys[k][1];
		c.a[0].attr_id = ioc_destroys[k][2];
		c.a[0].data = handle(k);
		c.a[1].attr_id = 1;
		c.a[1].len = 8 * below(2);
		c.a[1].data = (uintptr_t)out[0];
		n = below(3);
		break;
	case 1:
		/* a write() command carried by the ioctl */
		c.hdr.object_id = UVERBS_OBJECT_DEVICE;
		c.hdr.method_id = UVERBS_METHOD_INVOKE_WRITE;
		c.a[0].attr_id = UVERBS_ATTR_WRITE_CMD;
		c.a[0].len = 8;
		c.a[0].data = below(8) ? below(64) : rnd();
		for (i = 1; i < 5; i++) {
			c.a[i].attr_id = i < 3 ? i : UVERBS_ATTR_UHW_IN + i - 3;
			c.a[i].len = 8 * below(9);
			c.a[i].data = (uintptr_t)out[i - 1];
		}
		/* handles where they are named: the first words */
		out[0][1] = handle(k);
		out[0][2] = handle(below(K_NKINDS));
		n = 1 + below(5);
		break;
	default:
		c.hdr.object_id = below(8) ? ioc_objs[below(9)] : below(40);
		c.hdr.method_id = below(8);
		for (i = 0; i < n; i++) {
			struct ib_uverbs_attr *a = &c.a[i];

			a->attr_id = below(4) ? below(10) :
				     below(2) ? UVERBS_ATTR_UHW_IN + below(4) :
						(uint16_t)rnd();
			a->flags = below(4) ? 0 : below(4);
			switch (below(5)) {
			case 0:
				a->len = below(9);
				a->data = below(2) ? val() : rnd();
				break;
			case 1:
				a->len = 8 * below(9);
				a->data = (uintptr_t)out[below(4)];
				break;
			case 2:
				a->data = handle(below(K_NKINDS));
				break;
			case 3:
				if (nfds && below(2))
					a->data_s64 = fds[below(nfds)];
				else if (below(2))
					a->data_s64 = async;
				else
					a->data = val();
				break;
			default:
				a->len = 9 + below(64);
				a->data = addr();
			}
			if (!below(16))
				a->attr_data.reserved = rnd();
		}
	}
	c.hdr.num_attrs = n;
	c.hdr.length = sizeof(c.hdr) + n * sizeof(c.a[0]);
	if (!below(32))
		c.hdr.length = below(512);
	c.hdr.driver_id = below(32) ? drv_id : below(32);
	if (!below(32))
		c.hdr.reserved1 = rnd();
	__atomic_fetch_add(&sh->calls, 1, __ATOMIC_RELAXED);
	if (!ioctl(fd, RDMA_VERBS_IOCTL, &c))
		__atomic_fetch_add(&sh->ok, 1, __ATOMIC_RELAXED);
}

static void op_files(int fd, int async)
{
	uint8_t ev[32];

	switch (below(5)) {
	case 0:
		if (nfds) {
			int i = below(nfds);

			close(fds[i]);
			fds[i] = fds[--nfds];
		}
		break;
	case 1:
		if (nfds)
			(void)!read(fds[below(nfds)], ev, below(2) ? 8 : 4);
		break;
	case 2:
		(void)!read(async, ev, sizeof(ev));
		break;
	case 3:
		try_mmap(fd, (uint64_t)below(64) * 4096, 4096 * (1 + below(3)));
		break;
	default: {
		struct ib_uverbs_query_port q = { .port_num = below(3) };
		struct ib_uverbs_query_port_resp qr;

		cmd(fd, IB_USER_VERBS_CMD_QUERY_PORT, &q, sizeof(q), &qr,
		    sizeof(qr));
	}
	}
	__atomic_fetch_add(&sh->calls, 1, __ATOMIC_RELAXED);
}

/*
 * Workers of a run with -g always take a context: the run is there for
 * the device to go under contexts (a worker without one would leave the
 * scenario nothing to see disassociated).
 */
static int always_ctx;

/* One worker: a file, a context (usually), then commands until killed. */
static void worker(const char *path, uint16_t lid, long budget, int uid)
{
	struct ib_uverbs_get_context g = {};
	struct {
		struct ib_uverbs_get_context_resp r;
		uint64_t driver[2];
	} gr = {};
	int fd, async = -1;
	long i;

	if (uid >= 0 && (setgid(uid) || setuid(uid)))
		_exit(3);
	mem = mmap(NULL, 16 * 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		_exit(3);
	fd = open(path, O_RDWR);
	if (fd < 0)
		_exit(4);	/* the device went away */
	if ((below(10) || always_ctx) &&
	    !cmd(fd, IB_USER_VERBS_CMD_GET_CONTEXT, &g, sizeof(g), &gr,
		 sizeof(gr)))
		async = gr.r.async_fd;
	fcntl(async, F_SETFL, O_NONBLOCK);
	learn_driver_id(fd);
	for (i = 0; i < budget; i++) {
		switch (below(23)) {
		case 0:
		case 1:
			op_pd(fd);
			break;
		case 2:
		case 3:
			op_mr(fd);
			break;
		case 4:
		case 5:
		case 6:
			op_cq(fd);
			break;
		case 7:
		case 8:
		case 9:
			op_qp(fd, lid);
			break;
		case 10:
		case 11:
			op_post(fd);
			break;
		case 12:
			op_connect(fd, lid);
			break;
		case 13:
		case 14:
			op_srq_ah(fd);
			break;
		case 15:
		case 16:
			op_raw(fd);
			break;
		case 20:
		case 21:
		case 22:
			op_ioctl(fd, async);
			break;
		default:
			op_files(fd, async);
		}
	}
	/* the rest goes with the process: close, or the kill */
	_exit(0);
}

/* /dev/infiniband/uverbsN of @dev; 0 or -1 */
static int uverbs_path(const char *dev, char *path, size_t len)
{
	char p[128], buf[64];
	int n;

	for (n = 0; n < 64; n++) {
		snprintf(p, sizeof(p), SYS_VERBS "/uverbs%d/ibdev", n);
		if (read_file(p, buf, sizeof(buf)) || strcmp(buf, dev))
			continue;
		snprintf(path, len, "/dev/infiniband/uverbs%d", n);
		return 0;
	}
	return -1;
}

int main(int argc, char **argv)
{
	long total, workers = 0, killed = 0, bad = 0, gone = 0;
	char path[64], p[128], buf[32];
	int uid = -1, status, may_go = 0;
	uint16_t lid = 0;
	unsigned long seed;

	if (argc > 1 && !strcmp(argv[1], "-g")) {
		may_go = 1;
		always_ctx = 1;
		argv++;
		argc--;
	}
	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: %s [-g] DEV CALLS SEED [UID]\n",
			argv[0]);
		return 2;
	}
	total = atol(argv[2]);
	seed = strtoul(argv[3], NULL, 0);
	if (argc == 5)
		uid = atoi(argv[4]);
	printf("KTAP version 1\n1..3\n");
	printf("# seed %lu, %ld calls, uid %d\n", seed, total, uid);
	rng = seed * 0x9e3779b97f4a7c15ull + 1;
	snprintf(p, sizeof(p), "/sys/class/infiniband/%s/ports/1/lid", argv[1]);
	if (!read_file(p, buf, sizeof(buf)))
		lid = strtoul(buf, NULL, 16);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	result(sh != MAP_FAILED && !uverbs_path(argv[1], path, sizeof(path)),
	       "the device's uverbsN and shared memory", "%s", argv[1]);
	if (sh == MAP_FAILED)
		return 1;

	while (__atomic_load_n(&sh->calls, __ATOMIC_RELAXED) < total) {
		long budget = 50 + below(2000);
		uint64_t wseed = rnd();
		pid_t pid = fork();

		if (pid < 0)
			break;
		if (!pid) {
			rng = wseed | 1;
			worker(path, lid, budget, uid);
		}
		workers++;
		/* a kill at a random point of its work, or none */
		if (below(3)) {
			struct timespec t = { 0, (long)below(50) * 1000000 };

			nanosleep(&t, NULL);
			kill(pid, SIGKILL);
		}
		if (waitpid(pid, &status, 0) != pid)
			break;
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
			killed++;
		} else if (may_go && WIFEXITED(status) &&
			   WEXITSTATUS(status) == 4) {
			/* no uverbsN: the device is gone, the run ends */
			gone++;
			break;
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
	if (gone)
		printf("# the device went away after %ld calls\n", sh->calls);
	result(sh->calls >= total || gone, "every call made (or the device went)",
	       "%ld of %ld", sh->calls, total);
	result(!bad, "no worker died of anything but the kill",
	       "%ld did", bad);
	return failed ? 1 : 0;
}
