// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_verbs_bench: the verbs side.  The two ends of a connection
 * (struct vb_side), QPs joined directly with ib_modify_qp() when both
 * are in this kernel (pair mode on IB and RoCE ports), and the
 * measurement, which only sees a requester and the responder's buffer
 * address and rkey (struct vb_conn) and so runs unchanged over rdma_cm
 * connections (vb_cm.c).
 */
#include <linux/etherdevice.h>
#include <linux/jiffies.h>
#include <linux/kernel_stat.h>
#include <linux/ktime.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <rdma/ib_cache.h>

#include "vb.h"

static const char *const vb_ctx_name[] = {
	[IB_POLL_SOFTIRQ]		= "IB_POLL_SOFTIRQ",
	[IB_POLL_WORKQUEUE]		= "IB_POLL_WORKQUEUE",
	[IB_POLL_UNBOUND_WORKQUEUE]	= "IB_POLL_UNBOUND_WORKQUEUE",
	[IB_POLL_DIRECT]		= "IB_POLL_DIRECT",
};

static const enum ib_poll_context vb_ctxs[] = {
	IB_POLL_DIRECT, IB_POLL_SOFTIRQ, IB_POLL_WORKQUEUE,
	IB_POLL_UNBOUND_WORKQUEUE,
};

static const enum ib_wr_opcode vb_opcode[VB_OPS] = {
	[VB_SEND]	= IB_WR_SEND,
	[VB_WRITE]	= IB_WR_RDMA_WRITE,
	[VB_READ]	= IB_WR_RDMA_READ,
};

static void vb_error(struct vb_side *s, struct ib_wc *wc)
{
	if (atomic_inc_return(&s->errors) == 1)
		s->first_status = wc->status;
}

static void vb_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct vb_side *s = container_of(wc->wr_cqe, struct vb_side, send_cqe);
	int done;

	if (wc->status != IB_WC_SUCCESS) {
		if (!READ_ONCE(s->stopping))
			vb_error(s, wc);
	} else if (s->repost && !READ_ONCE(s->stopping) &&
		   atomic_inc_return(&s->posted) <= s->target) {
		atomic_inc(&s->outstanding);
		if (ib_post_send(s->qp, &s->repost_wr.wr, NULL)) {
			atomic_dec(&s->outstanding);
			atomic_inc(&s->errors);
		}
	}
	done = atomic_inc_return(&s->done);
	if (s->repost && (done == s->target || atomic_read(&s->errors)))
		complete(&s->all_done);
	atomic_dec(&s->outstanding);
}

static void vb_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct vb_side *s = container_of(wc->wr_cqe, struct vb_side, recv_cqe);
	struct ib_recv_wr wr = {
		.wr_cqe = &s->recv_cqe,
		.sg_list = &s->recv_sge,
		.num_sge = 1,
	};

	/* receives are flushed when the QP leaves RTS: not an error */
	if (wc->status != IB_WC_SUCCESS) {
		if (!READ_ONCE(s->stopping) && wc->status != IB_WC_WR_FLUSH_ERR)
			vb_error(s, wc);
	} else if (!READ_ONCE(s->stopping)) {
		atomic_inc(&s->outstanding);
		if (ib_post_recv(s->qp, &wr, NULL)) {
			atomic_dec(&s->outstanding);
			atomic_inc(&s->errors);
		}
	}
	atomic_dec(&s->outstanding);
}

/* Poll a direct CQ; returns the completions handled. */
static int vb_poll(struct vb_side *s)
{
	if (s->poll != IB_POLL_DIRECT)
		return 0;
	return ib_process_cq_direct(s->cq, VB_MAX_DEPTH);
}

/*
 * PD, buffer and CQ of one side; the caller holds @dev and makes the QP
 * (ib_create_qp() or rdma_create_qp()) with vb_qp_init_attr().
 */
int vb_side_init(struct vb_side *s, struct ib_device *dev,
		 enum ib_poll_context poll)
{
	int ret;

	s->dev = dev;
	s->poll = poll;
	s->send_cqe.done = vb_send_done;
	s->recv_cqe.done = vb_recv_done;
	atomic_set(&s->outstanding, 0);
	atomic_set(&s->done, 0);
	atomic_set(&s->errors, 0);
	atomic_set(&s->posted, 0);
	init_completion(&s->all_done);
	s->pd = ib_alloc_pd(dev, IB_PD_UNSAFE_GLOBAL_RKEY);
	if (IS_ERR(s->pd))
		return PTR_ERR(s->pd);
	ret = -ENOMEM;
	s->buf = kzalloc(VB_BUF_SIZE, GFP_KERNEL);
	if (!s->buf)
		goto err_pd;
	s->dma = ib_dma_map_single(dev, s->buf, VB_BUF_SIZE, DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(dev, s->dma))
		goto err_buf;
	s->cq = ib_alloc_cq(dev, NULL, VB_CQE, 0, poll);
	if (IS_ERR(s->cq)) {
		ret = PTR_ERR(s->cq);
		goto err_unmap;
	}
	return 0;

err_unmap:
	ib_dma_unmap_single(dev, s->dma, VB_BUF_SIZE, DMA_BIDIRECTIONAL);
err_buf:
	kfree(s->buf);
err_pd:
	ib_dealloc_pd(s->pd);
	return ret;
}

void vb_qp_init_attr(struct vb_side *s, struct ib_qp_init_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->qp_type = IB_QPT_RC;
	attr->sq_sig_type = IB_SIGNAL_REQ_WR;
	attr->cap.max_send_wr = VB_QP_WR;
	attr->cap.max_recv_wr = VB_QP_WR;
	attr->cap.max_send_sge = 1;
	attr->cap.max_recv_sge = 1;
	attr->port_num = 1;
	attr->send_cq = s->cq;
	attr->recv_cq = s->cq;
}

/* Undo vb_side_init(); the QP must be gone. */
void vb_side_put(struct vb_side *s)
{
	ib_free_cq(s->cq);
	ib_dma_unmap_single(s->dev, s->dma, VB_BUF_SIZE, DMA_BIDIRECTIONAL);
	kfree(s->buf);
	ib_dealloc_pd(s->pd);
}

/* VB_RECVS receives into the buffer, each reposted when it completes. */
int vb_side_post_recvs(struct vb_side *s)
{
	struct ib_recv_wr wr = {
		.wr_cqe = &s->recv_cqe,
		.sg_list = &s->recv_sge,
		.num_sge = 1,
	};
	int i, ret;

	s->recv_sge.addr = s->dma;
	s->recv_sge.length = VB_MAX_SIZE;
	s->recv_sge.lkey = s->pd->local_dma_lkey;
	for (i = 0; i < VB_RECVS; i++) {
		atomic_inc(&s->outstanding);
		ret = ib_post_recv(s->qp, &wr, NULL);
		if (ret) {
			atomic_dec(&s->outstanding);
			return ret;
		}
	}
	return 0;
}

/*
 * Move the QP to the error state and wait until every posted work
 * request has come back (flushed), so that no callback runs or posts
 * any more.
 */
void vb_side_stop(struct vb_side *s)
{
	struct ib_qp_attr a = { .qp_state = IB_QPS_ERR };
	unsigned long end = jiffies + msecs_to_jiffies(10000);

	WRITE_ONCE(s->stopping, true);
	ib_modify_qp(s->qp, &a, IB_QP_STATE);
	while (atomic_read(&s->outstanding) > 0) {
		if (time_after(jiffies, end)) {
			pr_warn("verbs_bench: %d work requests did not flush\n",
				atomic_read(&s->outstanding));
			break;
		}
		if (!vb_poll(s))
			schedule_timeout_uninterruptible(1);
	}
}

/* Depth of RDMA READs in flight both ways. */
u8 vb_rd_atomic(struct ib_device *dev)
{
	return min3(VB_RD_ATOMIC, dev->attrs.max_qp_rd_atom,
		    dev->attrs.max_qp_init_rd_atom);
}

/* The columns of this run's vb-result lines, from the device. */
void vb_set_columns(struct vb_run *r, struct ib_device *dev)
{
	const char *name = dev_name(&dev->dev);
	size_t n = strlen(name);

	if (rdma_protocol_roce(dev, 1))
		r->transport = "roce";
	else if (rdma_protocol_iwarp(dev, 1))
		r->transport = "iwarp";
	else
		r->transport = "ib";
	/* the driver: the device's name less its trailing digits */
	switch (dev->ops.driver_id) {
	case RDMA_DRIVER_RXE:
		strscpy(r->driver, "rxe", sizeof(r->driver));
		return;
	case RDMA_DRIVER_SIW:
		strscpy(r->driver, "siw", sizeof(r->driver));
		return;
	default:
		break;
	}
	while (n > 1 && isdigit(name[n - 1]))
		n--;
	strscpy(r->driver, name, min(n + 1, sizeof(r->driver)));
}

/* ---- measurement ---- */

/* One work request of @op from the requester's buffer at @off. */
static void vb_wr_init(struct vb_conn *c, struct ib_rdma_wr *wr,
		       struct ib_sge *sge, enum vb_op op, u32 size, u32 off)
{
	struct vb_side *s = c->req;

	sge->addr = s->dma + off;
	sge->length = size;
	sge->lkey = s->pd->local_dma_lkey;
	memset(wr, 0, sizeof(*wr));
	wr->wr.wr_cqe = &s->send_cqe;
	wr->wr.sg_list = sge;
	wr->wr.num_sge = 1;
	wr->wr.opcode = vb_opcode[op];
	wr->wr.send_flags = IB_SEND_SIGNALED;
	wr->remote_addr = c->raddr;
	wr->rkey = c->rkey;
}

static int vb_post(struct vb_side *s, struct ib_rdma_wr *wr)
{
	int ret;

	atomic_inc(&s->outstanding);
	ret = ib_post_send(s->qp, &wr->wr, NULL);
	if (ret)
		atomic_dec(&s->outstanding);
	return ret;
}

/* Poll (direct CQs) until @n completions since @base. */
static int vb_wait_done(struct vb_side *s, int base, int n, u64 deadline)
{
	while (atomic_read(&s->done) - base < n) {
		if (atomic_read(&s->errors))
			return -EIO;
		if (!vb_poll(s)) {
			if (ktime_get_ns() > deadline)
				return -ETIMEDOUT;
			cond_resched();
		}
	}
	return atomic_read(&s->errors) ? -EIO : 0;
}

/*
 * @n operations keeping up to @depth outstanding; returns the ns from
 * the first post to the last completion, or a negative error.
 */
static s64 vb_burst(struct vb_side *s, struct ib_rdma_wr *wr, int n,
		    int depth)
{
	u64 start = ktime_get_ns(), deadline;
	int base = atomic_read(&s->done), posted = 0, ret;

	deadline = start + (u64)VB_TIMEOUT_MS * NSEC_PER_MSEC;
	while (atomic_read(&s->done) - base < n) {
		while (posted < n &&
		       posted - (atomic_read(&s->done) - base) < depth) {
			ret = vb_post(s, wr);
			if (ret)
				return ret;
			posted++;
		}
		if (atomic_read(&s->errors))
			return -EIO;
		if (!vb_poll(s)) {
			if (ktime_get_ns() > deadline)
				return -ETIMEDOUT;
			cond_resched();
		}
	}
	if (atomic_read(&s->errors))
		return -EIO;
	return ktime_get_ns() - start;
}

/* One untimed operation, waited for. */
static int vb_one(struct vb_conn *c, enum vb_op op, u32 size, u32 off)
{
	struct ib_rdma_wr wr;
	struct ib_sge sge;
	s64 ns;

	vb_wr_init(c, &wr, &sge, op, size, off);
	ns = vb_burst(c->req, &wr, 1, 1);
	return ns < 0 ? ns : 0;
}

/*
 * Before a row: the source of @op holds @pat and its destination not.
 * For READ the responder's buffer gets @pat through an RDMA WRITE.
 */
static int vb_prepare(struct vb_conn *c, enum vb_op op, u32 size, u8 pat)
{
	void *buf = c->req->buf;
	int ret;

	memset(buf, pat, size);
	if (op != VB_READ)
		return 0;
	ret = vb_one(c, VB_WRITE, size, 0);
	memset(buf, 0, size);
	return ret;
}

static bool vb_all(const u8 *p, u32 size, u8 pat)
{
	return !memchr_inv(p, pat, size);
}

/*
 * After a row: did the data arrive?  SEND and WRITE put it in the
 * responder's buffer, which an RDMA READ brings back into the check
 * area; READ put it in the requester's buffer.
 */
static int vb_verify(struct vb_run *r, struct vb_conn *c, enum vb_op op,
		     u32 size, u8 pat)
{
	u8 *buf = c->req->buf;
	int ret;

	if (op == VB_READ) {
		vb_check_done(r, vb_op_name[op], size, vb_all(buf, size, pat));
		return 0;
	}
	memset(buf + VB_CHECK_OFF, 0, size);
	ret = vb_one(c, VB_READ, size, VB_CHECK_OFF);
	if (ret)
		return ret;
	vb_check_done(r, vb_op_name[op], size,
		      vb_all(buf + VB_CHECK_OFF, size, pat));
	return 0;
}

/* LAT operations one at a time, timed into r->samples, sorted. */
static int vb_latency(struct vb_run *r, struct vb_side *s,
		      struct ib_rdma_wr *wr)
{
	u64 t0, deadline;
	unsigned int i;
	int base, ret;

	deadline = ktime_get_ns() + (u64)VB_TIMEOUT_MS * NSEC_PER_MSEC;
	for (i = 0; i < r->lat; i++) {
		base = atomic_read(&s->done);
		t0 = ktime_get_ns();
		ret = vb_post(s, wr);
		if (ret)
			return ret;
		ret = vb_wait_done(s, base, 1, deadline);
		if (ret)
			return ret;
		r->samples[i] = ktime_get_ns() - t0;
	}
	sort(r->samples, r->lat, sizeof(u64), vb_cmp_u64, NULL);
	return 0;
}

/*
 * The SENDs of one rate burst.  iWARP has no RNR flow control: a SEND
 * completes at the requester once TCP took it, not once the responder
 * placed it, so a burst longer than the responder's posted receives can
 * overrun them, and the responder then terminates the connection ("no
 * buffer for this MSN").  On iWARP a SEND burst stops at half the
 * receives the responder keeps posted (it reposts each one as it
 * completes, so half leaves room for the reposts still on their way).
 */
static unsigned int vb_rate_ops(struct vb_run *r, struct vb_conn *c,
				enum vb_op op)
{
	if (op == VB_SEND && rdma_protocol_iwarp(c->req->dev, 1))
		return min_t(unsigned int, r->rate, VB_RECVS / 2);
	return r->rate;
}

/* Latency, rate and (64 KiB) bandwidth of one (op, size), then check. */
static int vb_row(struct vb_run *r, struct vb_conn *c, enum vb_op op,
		  u32 size, u8 pat)
{
	unsigned int bad = r->bad, rate = r->rate;
	struct ib_rdma_wr wr;
	struct ib_sge sge;
	s64 ns;
	int ret;

	ret = vb_prepare(c, op, size, pat);
	if (ret)
		return ret;
	vb_wr_init(c, &wr, &sge, op, size, 0);
	ns = vb_burst(c->req, &wr, min_t(unsigned int, VB_WARMUP, r->lat),
		      1);
	if (ns < 0)
		return ns;
	ret = vb_latency(r, c->req, &wr);
	if (ret)
		return ret;
	/* the table and the results compute the rate from r->rate */
	r->rate = vb_rate_ops(r, c, op);
	ns = vb_burst(c->req, &wr, r->rate, r->depth);
	if (ns < 0) {
		ret = ns;
		goto out;
	}
	ret = vb_verify(r, c, op, size, pat);
	if (ret)
		goto out;
	vb_row_table(r, vb_op_name[op], size, ns, r->bad != bad);
	vb_row_results(r, vb_op_name[op], size, ns);
out:
	r->rate = rate;
	return ret;
}

static u64 vb_busy_ns(void)
{
	u64 sum = 0;
	int cpu;

	for_each_online_cpu(cpu) {
		u64 *c = kcpustat_cpu(cpu).cpustat;

		sum += c[CPUTIME_USER] + c[CPUTIME_NICE] + c[CPUTIME_SYSTEM] +
		       c[CPUTIME_IRQ] + c[CPUTIME_SOFTIRQ] + c[CPUTIME_STEAL];
	}
	return sum;
}

/* Post the first DEPTH writes of a CPU run and wait for the last. */
static int vb_cpu_burst(struct vb_run *r, struct vb_side *s)
{
	u64 deadline = ktime_get_ns() + (u64)VB_TIMEOUT_MS * NSEC_PER_MSEC;
	unsigned int i;
	int ret;

	for (i = 0; i < min(r->depth, r->cpu); i++) {
		atomic_inc(&s->posted);
		ret = vb_post(s, &s->repost_wr);
		if (ret)
			return ret;
	}
	if (s->poll == IB_POLL_DIRECT)
		return vb_wait_done(s, 0, r->cpu, deadline);
	if (!wait_for_completion_timeout(&s->all_done,
					 msecs_to_jiffies(VB_TIMEOUT_MS)))
		return -ETIMEDOUT;
	return atomic_read(&s->errors) ? -EIO : 0;
}

static void vb_cpu_out(struct vb_run *r, enum ib_poll_context poll,
		       u64 wall, u64 busy)
{
	u64 bg = div_u64(wall * r->bg_ppm, 1000000);
	u64 net = busy > bg ? busy - bg : 0;

	vb_out(r, "%-26s %6u %8llu %8llu %5llu.%02llu %9llu %9llu %7llu\n",
	       vb_ctx_name[poll], r->cpu, div_u64(wall, NSEC_PER_MSEC),
	       div_u64(busy, NSEC_PER_MSEC), div64_u64(busy, wall ?: 1),
	       div64_u64(busy * 100, wall ?: 1) % 100,
	       div_u64(busy, r->cpu), div_u64(net, r->cpu),
	       div64_u64((u64)r->cpu * NSEC_PER_SEC, wall ?: 1));
	vb_result_us(r, vb_ctx_name[poll], 8, "cpu_us_per_compl",
		     div_u64(busy, r->cpu));
	vb_result_us(r, vb_ctx_name[poll], 8, "cpu_net_us_per_compl",
		     div_u64(net, r->cpu));
}

/* CPU per completion on a connection whose requester CQ has @poll. */
static int vb_cpu_row(struct vb_run *r, const struct vb_transport *t,
		      enum ib_poll_context poll, bool last)
{
	struct vb_conn c = {};
	u64 t0, busy0, wall, busy;
	struct vb_side *s;
	int ret;

	ret = t->connect(t, r, poll, &c, last);
	if (ret) {
		vb_out(r, "%-26s connection failed: %d\n", vb_ctx_name[poll],
		       ret);
		return ret;
	}
	s = c.req;
	vb_wr_init(&c, &s->repost_wr, &s->repost_sge, VB_WRITE, 8, 0);
	s->target = r->cpu;
	s->repost = true;
	t0 = ktime_get_ns();
	busy0 = vb_busy_ns();
	ret = vb_cpu_burst(r, s);
	busy = vb_busy_ns() - busy0;
	wall = ktime_get_ns() - t0;
	if (ret)
		vb_out(r, "%-26s failed: %d (first status %d)\n",
		       vb_ctx_name[poll], ret, s->first_status);
	else
		vb_cpu_out(r, poll, wall, busy);
	t->disconnect(t, r, &c);
	return ret;
}

/* The latency, rate and bandwidth table on one IB_POLL_DIRECT connection. */
static int vb_rows(struct vb_run *r, const struct vb_transport *t)
{
	struct vb_conn c = {};
	unsigned int op, i;
	u8 pat = 0x11;
	int ret;

	/* without the CPU table this is the server's last connection */
	ret = t->connect(t, r, IB_POLL_DIRECT, &c, !r->cpu);
	if (ret) {
		vb_out(r, "setup failed: %d\n", ret);
		return ret;
	}
	vb_table_head(r, "IB_POLL_DIRECT, busy polling");
	for (op = 0; op < VB_OPS; op++) {
		for (i = 0; i < ARRAY_SIZE(vb_sizes); i++) {
			ret = vb_row(r, &c, op, vb_sizes[i], pat++);
			if (ret) {
				vb_out(r, "%-10s %6u failed: %d (first status %d)\n",
				       vb_op_name[op], vb_sizes[i], ret,
				       c.req->first_status);
				goto out;
			}
		}
	}
out:
	t->disconnect(t, r, &c);
	return ret;
}

/* Busy CPU time of two idle seconds, as millionths of the wall time. */
static void vb_background(struct vb_run *r)
{
	u64 busy0, t0;

	t0 = ktime_get_ns();
	busy0 = vb_busy_ns();
	schedule_timeout_uninterruptible(2 * HZ);
	busy0 = vb_busy_ns() - busy0;
	t0 = ktime_get_ns() - t0;
	r->bg_ppm = div64_u64(busy0 * 1000000, t0 ?: 1);
	vb_out(r, "\n== CPU per completion (%u signaled 8 B RDMA WRITEs, %u outstanding,\n",
	       r->cpu, r->depth);
	vb_out(r, "   each reposted by the done callback of a completion)\n");
	vb_out(r, "   background: %llu ms busy CPU in %llu ms of idle wall time\n",
	       div_u64(busy0, NSEC_PER_MSEC), div_u64(t0, NSEC_PER_MSEC));
	vb_out(r, "%-26s %6s %8s %8s %8s %9s %9s %7s\n", "poll context",
	       "compl", "wall ms", "CPU ms", "CPUs", "ns/compl", "net ns",
	       "compl/s");
}

/* A whole RDMA run over connections that @t makes. */
void vb_rdma_run(struct vb_run *r, const struct vb_transport *t)
{
	unsigned int i;
	int ret;

	vb_out(r, "%u online CPU(s), HZ=%d\n", num_online_cpus(), HZ);
	ret = vb_rows(r, t);
	if (ret) {
		r->err = ret;
		/* a server waits for the last connection: give it one */
		if (r->mode == VB_CLIENT && r->cpu)
			vb_cpu_row(r, t, IB_POLL_SOFTIRQ, true);
		return;
	}
	if (!r->cpu)
		return;
	vb_background(r);
	for (i = 0; i < ARRAY_SIZE(vb_ctxs); i++) {
		ret = vb_cpu_row(r, t, vb_ctxs[i], i == ARRAY_SIZE(vb_ctxs) - 1);
		if (ret && !r->err)
			r->err = ret;
	}
}

/* ---- pair mode: two QPs in this kernel joined with ib_modify_qp() ---- */

/* What one end tells the other to connect to it. */
struct vb_addr {
	u32		qpn;
	u32		psn;
	u32		lid;
	enum ib_mtu	mtu;
	bool		roce;
	u8		sgid_index;
	union ib_gid	gid;
	u8		mac[ETH_ALEN];
};

struct vb_pair {
	struct ib_device	*dev[2];
	struct vb_side		s[2];	/* 0: requester, 1: responder */
};

/* The RoCE v2 GID of an IPv4 address on port 1, and its netdev's MAC. */
static int vb_roce_gid(struct ib_device *dev, int tbl_len, struct vb_addr *a)
{
	const struct ib_gid_attr *attr;
	struct net_device *ndev;
	int i;

	for (i = 0; i < tbl_len; i++) {
		attr = rdma_get_gid_attr(dev, 1, i);
		if (IS_ERR(attr))
			continue;
		if (attr->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP &&
		    ipv6_addr_v4mapped((struct in6_addr *)attr->gid.raw)) {
			a->gid = attr->gid;
			a->sgid_index = i;
			rcu_read_lock();
			ndev = rdma_read_gid_attr_ndev_rcu(attr);
			if (!IS_ERR(ndev))
				ether_addr_copy(a->mac, ndev->dev_addr);
			rcu_read_unlock();
			rdma_put_gid_attr(attr);
			return IS_ERR(ndev) ? PTR_ERR(ndev) : 0;
		}
		rdma_put_gid_attr(attr);
	}
	return -EADDRNOTAVAIL;
}

static int vb_addr_query(struct vb_side *s, struct vb_addr *a)
{
	struct ib_port_attr pa;
	int ret;

	ret = ib_query_port(s->dev, 1, &pa);
	if (ret)
		return ret;
	a->qpn = s->qp->qp_num;
	a->psn = get_random_u32() & 0xffffff;
	a->lid = pa.lid;
	a->mtu = pa.active_mtu;
	a->roce = rdma_protocol_roce(s->dev, 1);
	if (!a->roce)
		return 0;
	return vb_roce_gid(s->dev, pa.gid_tbl_len, a);
}

/* The address vector of @qp's RTR step: LID (IB) or GID and MAC (RoCE). */
static void vb_ah_attr(struct rdma_ah_attr *ah, const struct vb_addr *me,
		       struct vb_addr *peer)
{
	if (me->roce) {
		ah->type = RDMA_AH_ATTR_TYPE_ROCE;
		rdma_ah_set_grh(ah, &peer->gid, 0, me->sgid_index, 64, 0);
		memcpy(ah->roce.dmac, peer->mac, ETH_ALEN);
	} else {
		ah->type = RDMA_AH_ATTR_TYPE_IB;
		rdma_ah_set_dlid(ah, peer->lid);
	}
	rdma_ah_set_port_num(ah, 1);
}

/* INIT, RTR and RTS of an RC QP whose peer is @peer. */
static int vb_qp_connect(struct vb_side *s, const struct vb_addr *me,
			 struct vb_addr *peer)
{
	u8 depth = vb_rd_atomic(s->dev);
	struct ib_qp_attr a = {
		.qp_state = IB_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IB_ACCESS_LOCAL_WRITE |
				   IB_ACCESS_REMOTE_WRITE |
				   IB_ACCESS_REMOTE_READ,
	};
	int ret;

	ret = ib_modify_qp(s->qp, &a, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (ret)
		return ret;
	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTR;
	a.path_mtu = min(me->mtu, peer->mtu);
	a.dest_qp_num = peer->qpn;
	a.rq_psn = peer->psn;
	a.max_dest_rd_atomic = depth;
	a.min_rnr_timer = 1;
	vb_ah_attr(&a.ah_attr, me, peer);
	ret = ib_modify_qp(s->qp, &a, IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
			   IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			   IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
	if (ret)
		return ret;
	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTS;
	a.sq_psn = me->psn;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = depth;
	return ib_modify_qp(s->qp, &a, IB_QP_STATE | IB_QP_SQ_PSN |
			    IB_QP_TIMEOUT | IB_QP_RETRY_CNT |
			    IB_QP_RNR_RETRY | IB_QP_MAX_QP_RD_ATOMIC);
}

static int vb_pair_side(struct vb_side *s, struct ib_device *dev,
			enum ib_poll_context poll)
{
	struct ib_qp_init_attr attr;
	int ret;

	ret = vb_side_init(s, dev, poll);
	if (ret)
		return ret;
	vb_qp_init_attr(s, &attr);
	s->qp = ib_create_qp(s->pd, &attr);
	if (IS_ERR(s->qp)) {
		ret = PTR_ERR(s->qp);
		vb_side_put(s);
	}
	return ret;
}

static void vb_pair_side_free(struct vb_side *s)
{
	vb_side_stop(s);
	ib_destroy_qp(s->qp);
	vb_side_put(s);
}

/* Exchange the addresses of both QPs and connect them to each other. */
static int vb_pair_join(struct vb_pair *p)
{
	struct vb_addr a[2] = {};
	int i, ret;

	for (i = 0; i < 2; i++) {
		ret = vb_addr_query(&p->s[i], &a[i]);
		if (ret)
			return ret;
	}
	for (i = 0; i < 2; i++) {
		ret = vb_qp_connect(&p->s[i], &a[i], &a[!i]);
		if (ret)
			return ret;
	}
	return vb_side_post_recvs(&p->s[1]);
}

static void vb_pair_disconnect(const struct vb_transport *t,
			       struct vb_run *r, struct vb_conn *c)
{
	struct vb_pair *p = c->priv;

	vb_pair_side_free(&p->s[1]);
	vb_pair_side_free(&p->s[0]);
	kfree(p);
}

/*
 * A requester on dev0 with a @poll CQ, a responder on dev1 with an
 * IB_POLL_SOFTIRQ CQ and VB_RECVS receives posted.
 */
static int vb_pair_connect(const struct vb_transport *t, struct vb_run *r,
			   enum ib_poll_context poll, struct vb_conn *c,
			   bool last)
{
	struct ib_device **dev = t->priv;
	struct vb_pair *p;
	int ret;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	ret = vb_pair_side(&p->s[0], dev[0], poll);
	if (ret)
		goto err_free;
	ret = vb_pair_side(&p->s[1], dev[1], IB_POLL_SOFTIRQ);
	if (ret)
		goto err_side0;
	ret = vb_pair_join(p);
	if (ret)
		goto err_sides;
	c->req = &p->s[0];
	c->raddr = p->s[1].dma;
	c->rkey = p->s[1].pd->unsafe_global_rkey;
	c->priv = p;
	return 0;

err_sides:
	vb_pair_side_free(&p->s[1]);
err_side0:
	vb_pair_side_free(&p->s[0]);
err_free:
	kfree(p);
	return ret;
}

/* Both devices must use the same protocol on port 1. */
static int vb_pair_check(struct vb_run *r, struct ib_device **dev)
{
	if (rdma_protocol_iwarp(dev[0], 1) != rdma_protocol_iwarp(dev[1], 1) ||
	    rdma_protocol_roce(dev[0], 1) != rdma_protocol_roce(dev[1], 1)) {
		vb_out(r, "error: %s and %s use different protocols\n",
		       r->dev0, r->dev1);
		return -EINVAL;
	}
	if (!rdma_protocol_iwarp(dev[0], 1))
		return 0;
	if (!VB_HAVE_CM) {
		vb_out(r, "error: %s is an iWARP device: %s\n", r->dev0,
		       "its QPs connect only through rdma_cm, which this build lacks (no VB_RDMA_CM)");
		return -EOPNOTSUPP;
	}
	return 1;
}

/* "pair DEV0 DEV1": IB and RoCE here, iWARP through rdma_cm. */
int vb_pair_run(struct vb_run *r)
{
	struct ib_device *dev[2];
	struct vb_transport t = {
		.connect = vb_pair_connect,
		.disconnect = vb_pair_disconnect,
		.priv = dev,
	};
	int ret = -ENODEV;

	dev[0] = ib_device_get_by_name(r->dev0, RDMA_DRIVER_UNKNOWN);
	dev[1] = ib_device_get_by_name(r->dev1, RDMA_DRIVER_UNKNOWN);
	if (!dev[0] || !dev[1]) {
		vb_out(r, "error: no RDMA device %s\n",
		       dev[0] ? r->dev1 : r->dev0);
		goto out;
	}
	vb_set_columns(r, dev[0]);
	vb_out(r, "pair: requester %s, responder %s (%s, driver %s)\n",
	       r->dev0, r->dev1, r->transport, r->driver);
	vb_out(r, "one RC QP each, its own CQ for both queues\n");
	ret = vb_pair_check(r, dev);
	if (ret < 0)
		goto out;
#if VB_HAVE_CM
	if (ret > 0) {
		ret = vb_cm_pair_run(r);
		goto out;
	}
#endif
	vb_rdma_run(r, &t);
	ret = r->err;
out:
	if (dev[1])
		ib_device_put(dev[1]);
	if (dev[0])
		ib_device_put(dev[0]);
	return ret;
}
