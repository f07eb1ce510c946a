// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_verbs_bench: latency, message rate and bandwidth of the kernel
 * verbs over two devices (by default loop0 and loop1 of "modprobe
 * rdma_loop devices=2"), and the CPU each CQ polling context spends per
 * completion.  A benchmark, not a test: it reports and never judges.
 * tools/testing/rdma/bench/run-verbs-bench.sh runs it in the VM and
 * Documentation/core/verbs.rst ("Benchmark") has the figures.
 *
 *   echo "[LAT [RATE [CPU [DEPTH]]]]" >/sys/kernel/debug/verbs_bench/run
 *   cat /sys/kernel/debug/verbs_bench/results
 *
 * The write returns when the run is over.  One RC QP on each device,
 * connected to each other; the requester's buffer and the responder's
 * buffer are kmalloc'd, mapped with ib_dma_map_single() and used with
 * the PD's local_dma_lkey; RDMA WRITE and READ reach the responder's
 * buffer through its PD's unsafe global rkey.
 *
 * For SEND, RDMA WRITE and RDMA READ at 8 B, 4 KiB and 64 KiB, on
 * IB_POLL_DIRECT CQs that the benchmark thread polls without sleeping:
 *   latency   LAT operations one at a time, each timed from the post to
 *             the return of its completion's done callback (median and
 *             nearest-rank p99);
 *   rate      RATE operations with up to DEPTH outstanding, from the
 *             first post to the last completion;
 *   bandwidth the 64 KiB rate times 64 KiB.
 * Each (op, size) starts with untimed operations, and ends with a check
 * that the data arrived.
 *
 * CPU per completion: for each of the four poll contexts, CPU signaled
 * 8-byte RDMA WRITEs with DEPTH outstanding, reposted from the done
 * callback (as a ULP does).  The CPU time of the run is the growth of
 * the busy part (user, nice, system, irq, softirq, steal) of kcpustat
 * over all online CPUs, divided by the completions.  With tick-based
 * accounting kcpustat is a sample per CPU per tick, so the figure is
 * statistical: the run should last many ticks.  Everything that ran on
 * any CPU counts, including the engine's send worker, the core's
 * irq_poll or work item, and (for IB_POLL_DIRECT) the benchmark thread
 * spinning on ib_process_cq_direct().  The busy time of two idle
 * seconds measured first is the background; "net" subtracts its share of
 * each run's wall time.  In a guest, busy time also counts the time the
 * host took the vCPU away (no steal accounting under TCG).
 *
 * Defaults: LAT 200, RATE 400, CPU 1500, DEPTH 64 (at most 128).
 */
#include <linux/debugfs.h>
#include <linux/jiffies.h>
#include <linux/kernel_stat.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_loop.h>

#define VB_MAX_SIZE		SZ_64K
#define VB_MAX_DEPTH		128
#define VB_QP_WR		(2 * VB_MAX_DEPTH)
#define VB_RECVS		VB_QP_WR
#define VB_CQE			(2 * VB_QP_WR)
#define VB_MAX_ITERS		1000000
#define VB_WARMUP		20
#define VB_TIMEOUT_MS		60000
#define VB_RESULT_SIZE		4096
#define VB_ARGS			4

static char *dev0 = "loop0";
module_param(dev0, charp, 0444);
MODULE_PARM_DESC(dev0, "Requester's RDMA device (loop0)");

static char *dev1 = "loop1";
module_param(dev1, charp, 0444);
MODULE_PARM_DESC(dev1, "Responder's RDMA device (loop1)");

enum vb_op { VB_SEND, VB_WRITE, VB_READ, VB_OPS };

static const char *const vb_op_name[VB_OPS] = {
	[VB_SEND]	= "SEND",
	[VB_WRITE]	= "RDMA_WRITE",
	[VB_READ]	= "RDMA_READ",
};

static const enum ib_wr_opcode vb_opcode[VB_OPS] = {
	[VB_SEND]	= IB_WR_SEND,
	[VB_WRITE]	= IB_WR_RDMA_WRITE,
	[VB_READ]	= IB_WR_RDMA_READ,
};

static const u32 vb_sizes[] = { 8, SZ_4K, SZ_64K };

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

/* One end: a device, its PD, CQ (send and receive) and QP, one buffer. */
struct vb_side {
	struct ib_device	*dev;
	struct ib_pd		*pd;
	struct ib_cq		*cq;
	struct ib_qp		*qp;
	void			*buf;
	u64			dma;
};

/* A connected pair of QPs and the counters of its work requests. */
struct vb_pair {
	struct vb_side		s[2];	/* 0: requester, 1: responder */
	enum ib_poll_context	poll;
	struct ib_cqe		send_cqe;
	struct ib_cqe		recv_cqe;
	struct ib_sge		recv_sge;
	/* work requests posted and not completed yet, both sides */
	atomic_t		outstanding;
	/* requester completions since the pair was made */
	atomic_t		done;
	atomic_t		errors;
	int			first_status;
	/* the callback reposts while posted < target (CPU runs only) */
	struct ib_rdma_wr	repost_wr;
	atomic_t		posted;
	int			target;
	bool			repost;
	bool			stopping;
	struct completion	all_done;
};

/* One run's parameters and results. */
struct vb_run {
	unsigned int	lat;
	unsigned int	rate;
	unsigned int	cpu;
	unsigned int	depth;
	u64		bg_ppm;
	u64		*samples;
	char		*out;
	size_t		at;
	int		err;
};

/* Serialises runs; protects vb_result. */
static DEFINE_MUTEX(vb_lock);
static char vb_result[VB_RESULT_SIZE] =
	"no run yet: write \"[LAT [RATE [CPU [DEPTH]]]]\" to run\n";
static struct dentry *vb_dir;

static __printf(2, 3) void vb_out(struct vb_run *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	r->at += vscnprintf(r->out + r->at, VB_RESULT_SIZE - r->at, fmt, ap);
	va_end(ap);
}

static void vb_error(struct vb_pair *p, struct ib_wc *wc)
{
	if (atomic_inc_return(&p->errors) == 1)
		p->first_status = wc->status;
}

static void vb_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct vb_pair *p = container_of(wc->wr_cqe, struct vb_pair, send_cqe);
	int done;

	if (wc->status != IB_WC_SUCCESS) {
		vb_error(p, wc);
	} else if (p->repost && !READ_ONCE(p->stopping) &&
		   atomic_inc_return(&p->posted) <= p->target) {
		atomic_inc(&p->outstanding);
		if (ib_post_send(p->s[0].qp, &p->repost_wr.wr, NULL)) {
			atomic_dec(&p->outstanding);
			atomic_inc(&p->errors);
		}
	}
	done = atomic_inc_return(&p->done);
	if (p->repost && (done == p->target || atomic_read(&p->errors)))
		complete(&p->all_done);
	atomic_dec(&p->outstanding);
}

static void vb_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct vb_pair *p = container_of(wc->wr_cqe, struct vb_pair, recv_cqe);
	struct ib_recv_wr wr = {
		.wr_cqe = &p->recv_cqe,
		.sg_list = &p->recv_sge,
		.num_sge = 1,
	};

	if (wc->status != IB_WC_SUCCESS) {
		vb_error(p, wc);
	} else if (!READ_ONCE(p->stopping)) {
		atomic_inc(&p->outstanding);
		if (ib_post_recv(p->s[1].qp, &wr, NULL)) {
			atomic_dec(&p->outstanding);
			atomic_inc(&p->errors);
		}
	}
	atomic_dec(&p->outstanding);
}

/* Poll both CQs of a direct pair; returns the completions handled. */
static int vb_poll(struct vb_pair *p)
{
	if (p->poll != IB_POLL_DIRECT)
		return 0;
	return ib_process_cq_direct(p->s[0].cq, VB_MAX_DEPTH) +
	       ib_process_cq_direct(p->s[1].cq, VB_MAX_DEPTH);
}

static int vb_modify(struct ib_qp *qp, u32 dqpn, u32 dlid)
{
	struct rdma_loop_conn conn = {
		.dqpn = dqpn,
		.dlid = dlid,
		.access = IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ,
		.rd_atomic = 16,
		.rnr_retry = 7,
	};

	return rdma_loop_connect_qp(qp, &conn, IB_QPS_RTS);
}

static u32 vb_lid(struct ib_device *dev)
{
	return rdma_loop_port_lid(dev);
}

/*
 * Move both QPs to the error state and wait until every posted work
 * request has come back (flushed), so that no callback runs or posts
 * any more.
 */
static void vb_quiesce(struct vb_pair *p)
{
	struct ib_qp_attr a = { .qp_state = IB_QPS_ERR };
	unsigned long end = jiffies + msecs_to_jiffies(10000);
	int i;

	WRITE_ONCE(p->stopping, true);
	for (i = 0; i < 2; i++)
		ib_modify_qp(p->s[i].qp, &a, IB_QP_STATE);
	while (atomic_read(&p->outstanding) > 0) {
		if (time_after(jiffies, end)) {
			pr_warn("verbs_bench: %d work requests did not flush\n",
				atomic_read(&p->outstanding));
			break;
		}
		if (!vb_poll(p))
			schedule_timeout_uninterruptible(1);
	}
}

/* Undo vb_side_init() of a side it completed. */
static void vb_side_free(struct vb_side *s)
{
	ib_destroy_qp(s->qp);
	ib_free_cq(s->cq);
	ib_dma_unmap_single(s->dev, s->dma, VB_MAX_SIZE, DMA_BIDIRECTIONAL);
	kfree(s->buf);
	ib_dealloc_pd(s->pd);
	ib_device_put(s->dev);
}

static int vb_side_init(struct vb_side *s, const char *name,
			enum ib_poll_context poll)
{
	struct ib_qp_init_attr attr = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = {
			.max_send_wr = VB_QP_WR,
			.max_recv_wr = VB_QP_WR,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.port_num = 1,
	};
	int ret;

	s->dev = ib_device_get_by_name(name, RDMA_DRIVER_UNKNOWN);
	if (!s->dev) {
		pr_err("verbs_bench: no RDMA device %s\n", name);
		return -ENODEV;
	}
	s->pd = ib_alloc_pd(s->dev, IB_PD_UNSAFE_GLOBAL_RKEY);
	if (IS_ERR(s->pd)) {
		ret = PTR_ERR(s->pd);
		goto err_put;
	}
	s->buf = kzalloc(VB_MAX_SIZE, GFP_KERNEL);
	if (!s->buf) {
		ret = -ENOMEM;
		goto err_pd;
	}
	s->dma = ib_dma_map_single(s->dev, s->buf, VB_MAX_SIZE,
				   DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(s->dev, s->dma)) {
		ret = -ENOMEM;
		goto err_buf;
	}
	s->cq = ib_alloc_cq(s->dev, NULL, VB_CQE, 0, poll);
	if (IS_ERR(s->cq)) {
		ret = PTR_ERR(s->cq);
		goto err_unmap;
	}
	attr.send_cq = s->cq;
	attr.recv_cq = s->cq;
	s->qp = ib_create_qp(s->pd, &attr);
	if (IS_ERR(s->qp)) {
		ret = PTR_ERR(s->qp);
		goto err_cq;
	}
	return 0;

err_cq:
	ib_free_cq(s->cq);
err_unmap:
	ib_dma_unmap_single(s->dev, s->dma, VB_MAX_SIZE, DMA_BIDIRECTIONAL);
err_buf:
	kfree(s->buf);
err_pd:
	ib_dealloc_pd(s->pd);
err_put:
	ib_device_put(s->dev);
	return ret;
}

static void vb_pair_free(struct vb_pair *p)
{
	vb_quiesce(p);
	vb_side_free(&p->s[1]);
	vb_side_free(&p->s[0]);
	kfree(p);
}

/*
 * Two devices, a connected RC QP on each, and VB_RECVS receives posted
 * on the responder (each reposted by its done callback).
 */
static struct vb_pair *vb_pair_alloc(enum ib_poll_context poll, int *err)
{
	struct vb_pair *p = kzalloc(sizeof(*p), GFP_KERNEL);
	struct ib_recv_wr wr = {};
	int i, ret;

	if (!p) {
		*err = -ENOMEM;
		return NULL;
	}
	p->poll = poll;
	p->send_cqe.done = vb_send_done;
	p->recv_cqe.done = vb_recv_done;
	atomic_set(&p->outstanding, 0);
	atomic_set(&p->done, 0);
	atomic_set(&p->errors, 0);
	atomic_set(&p->posted, 0);
	init_completion(&p->all_done);
	ret = vb_side_init(&p->s[0], dev0, poll);
	if (ret)
		goto err_free;
	ret = vb_side_init(&p->s[1], dev1, poll);
	if (ret)
		goto err_side0;
	for (i = 0; i < 2; i++) {
		ret = vb_modify(p->s[i].qp, p->s[!i].qp->qp_num,
				vb_lid(p->s[!i].dev));
		if (ret)
			goto err_pair;
	}
	p->recv_sge.addr = p->s[1].dma;
	p->recv_sge.length = VB_MAX_SIZE;
	p->recv_sge.lkey = p->s[1].pd->local_dma_lkey;
	wr.wr_cqe = &p->recv_cqe;
	wr.sg_list = &p->recv_sge;
	wr.num_sge = 1;
	for (i = 0; i < VB_RECVS; i++) {
		atomic_inc(&p->outstanding);
		ret = ib_post_recv(p->s[1].qp, &wr, NULL);
		if (ret) {
			atomic_dec(&p->outstanding);
			goto err_pair;
		}
	}
	return p;

err_pair:
	/* flushes what was posted, then frees both sides */
	vb_pair_free(p);
	*err = ret;
	return NULL;
err_side0:
	vb_side_free(&p->s[0]);
err_free:
	kfree(p);
	*err = ret;
	return NULL;
}

static void vb_wr_init(struct vb_pair *p, struct ib_rdma_wr *wr,
		       struct ib_sge *sge, enum vb_op op, u32 size)
{
	sge->addr = p->s[0].dma;
	sge->length = size;
	sge->lkey = p->s[0].pd->local_dma_lkey;
	memset(wr, 0, sizeof(*wr));
	wr->wr.wr_cqe = &p->send_cqe;
	wr->wr.sg_list = sge;
	wr->wr.num_sge = 1;
	wr->wr.opcode = vb_opcode[op];
	wr->wr.send_flags = IB_SEND_SIGNALED;
	wr->remote_addr = p->s[1].dma;
	wr->rkey = p->s[1].pd->unsafe_global_rkey;
}

static int vb_post(struct vb_pair *p, struct ib_rdma_wr *wr)
{
	int ret;

	atomic_inc(&p->outstanding);
	ret = ib_post_send(p->s[0].qp, &wr->wr, NULL);
	if (ret)
		atomic_dec(&p->outstanding);
	return ret;
}

/* Poll (direct pairs) until @n requester completions since @base. */
static int vb_wait_done(struct vb_pair *p, int base, int n, u64 deadline)
{
	while (atomic_read(&p->done) - base < n) {
		if (atomic_read(&p->errors))
			return -EIO;
		if (!vb_poll(p)) {
			if (ktime_get_ns() > deadline)
				return -ETIMEDOUT;
			cond_resched();
		}
	}
	return atomic_read(&p->errors) ? -EIO : 0;
}

/*
 * @n operations keeping up to @depth outstanding; returns the ns from
 * the first post to the last completion, or a negative error.
 */
static s64 vb_burst(struct vb_pair *p, struct ib_rdma_wr *wr, int n,
		    int depth)
{
	u64 start = ktime_get_ns(), deadline;
	int base = atomic_read(&p->done), posted = 0, ret;

	deadline = start + (u64)VB_TIMEOUT_MS * NSEC_PER_MSEC;
	while (atomic_read(&p->done) - base < n) {
		while (posted < n &&
		       posted - (atomic_read(&p->done) - base) < depth) {
			ret = vb_post(p, wr);
			if (ret)
				return ret;
			posted++;
		}
		if (atomic_read(&p->errors))
			return -EIO;
		if (!vb_poll(p)) {
			if (ktime_get_ns() > deadline)
				return -ETIMEDOUT;
			cond_resched();
		}
	}
	if (atomic_read(&p->errors))
		return -EIO;
	return ktime_get_ns() - start;
}

static int vb_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 vb_pct(const u64 *s, unsigned int n, unsigned int pct)
{
	unsigned int rank = DIV_ROUND_UP(n * pct, 100);

	return s[rank ? rank - 1 : 0];
}

/* " 1234.5": ns as us with one decimal. */
static void vb_out_us(struct vb_run *r, u64 ns)
{
	u32 tenth;
	u64 us = div_u64_rem(div_u64(ns + 50, 100), 10, &tenth);

	vb_out(r, " %9llu.%u", us, tenth);
}

/* Fill the source of @op with @pat and clear its destination. */
static void vb_fill(struct vb_pair *p, enum vb_op op, u8 pat)
{
	void *src = op == VB_READ ? p->s[1].buf : p->s[0].buf;
	void *dst = op == VB_READ ? p->s[0].buf : p->s[1].buf;

	memset(src, pat, VB_MAX_SIZE);
	memset(dst, 0, VB_MAX_SIZE);
}

static bool vb_check(struct vb_pair *p, u32 size)
{
	return !memcmp(p->s[0].buf, p->s[1].buf, size);
}

/* Latency, rate and (64 KiB) bandwidth of one (op, size). */
static int vb_row(struct vb_run *r, struct vb_pair *p, enum vb_op op,
		  u32 size, u8 pat)
{
	struct ib_rdma_wr wr;
	struct ib_sge sge;
	unsigned int i;
	u64 t0, deadline;
	s64 ns;
	int base, ret;

	vb_fill(p, op, pat);
	vb_wr_init(p, &wr, &sge, op, size);
	ns = vb_burst(p, &wr, VB_WARMUP, 1);
	if (ns < 0)
		return ns;

	deadline = ktime_get_ns() + (u64)VB_TIMEOUT_MS * NSEC_PER_MSEC;
	for (i = 0; i < r->lat; i++) {
		base = atomic_read(&p->done);
		t0 = ktime_get_ns();
		ret = vb_post(p, &wr);
		if (ret)
			return ret;
		ret = vb_wait_done(p, base, 1, deadline);
		if (ret)
			return ret;
		r->samples[i] = ktime_get_ns() - t0;
	}
	sort(r->samples, r->lat, sizeof(u64), vb_cmp, NULL);

	ns = vb_burst(p, &wr, r->rate, r->depth);
	if (ns < 0)
		return ns;

	vb_out(r, "%-10s %6u", vb_op_name[op], size);
	vb_out_us(r, vb_pct(r->samples, r->lat, 50));
	vb_out_us(r, vb_pct(r->samples, r->lat, 99));
	vb_out(r, " %10llu", div64_u64((u64)r->rate * NSEC_PER_SEC, ns ?: 1));
	/* bytes per ns times 1000: MB/s */
	if (size == VB_MAX_SIZE)
		vb_out(r, " %9llu",
		       div64_u64((u64)r->rate * size * 1000, ns ?: 1));
	else
		vb_out(r, " %9s", "-");
	/* SENDs land in the receive buffer, the others where they point */
	vb_out(r, "  %s\n", vb_check(p, size) ? "ok" : "BAD");
	return 0;
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

/*
 * CPU per completion on a pair of @poll CQs: all of it, and net of the
 * background (r->bg_ppm millionths of the wall time times the CPUs).
 */
static int vb_cpu_row(struct vb_run *r, enum ib_poll_context poll)
{
	u64 t0, wall, busy0, busy, net, bg, deadline;
	struct vb_pair *p;
	struct ib_sge sge;
	unsigned int i;
	int ret = 0;

	p = vb_pair_alloc(poll, &ret);
	if (!p)
		return ret;
	vb_wr_init(p, &p->repost_wr, &sge, VB_WRITE, 8);
	p->target = r->cpu;
	p->repost = true;
	deadline = ktime_get_ns() + (u64)VB_TIMEOUT_MS * NSEC_PER_MSEC;

	t0 = ktime_get_ns();
	busy0 = vb_busy_ns();
	for (i = 0; i < min(r->depth, r->cpu); i++) {
		atomic_inc(&p->posted);
		ret = vb_post(p, &p->repost_wr);
		if (ret)
			goto out;
	}
	if (poll == IB_POLL_DIRECT) {
		ret = vb_wait_done(p, 0, r->cpu, deadline);
	} else if (!wait_for_completion_timeout(&p->all_done,
					msecs_to_jiffies(VB_TIMEOUT_MS))) {
		ret = -ETIMEDOUT;
	} else if (atomic_read(&p->errors)) {
		ret = -EIO;
	}
	busy = vb_busy_ns() - busy0;
	wall = ktime_get_ns() - t0;
	if (ret)
		goto out;

	bg = div_u64(wall * r->bg_ppm, 1000000);
	net = busy > bg ? busy - bg : 0;
	vb_out(r, "%-26s %6u %8llu %8llu %5llu.%02llu %9llu %9llu %7llu\n",
	       vb_ctx_name[poll], r->cpu, div_u64(wall, NSEC_PER_MSEC),
	       div_u64(busy, NSEC_PER_MSEC),
	       div64_u64(busy, wall ?: 1),
	       div64_u64(busy * 100, wall ?: 1) % 100,
	       div_u64(busy, r->cpu), div_u64(net, r->cpu),
	       div64_u64((u64)r->cpu * NSEC_PER_SEC, wall ?: 1));
out:
	if (ret)
		vb_out(r, "%-26s failed: %d (first status %d)\n",
		       vb_ctx_name[poll], ret, p->first_status);
	vb_pair_free(p);
	return ret;
}

static void vb_run_all(struct vb_run *r)
{
	struct vb_pair *p;
	u64 busy0, t0;
	unsigned int op, i;
	u8 pat = 0x11;
	int ret = 0;

	vb_out(r, "requester %s, responder %s: one RC QP each, its own CQ for both queues\n",
	       dev0, dev1);
	vb_out(r, "%u online CPU(s), HZ=%d\n", num_online_cpus(), HZ);

	p = vb_pair_alloc(IB_POLL_DIRECT, &ret);
	if (!p) {
		vb_out(r, "setup failed: %d\n", ret);
		r->err = ret;
		return;
	}
	vb_out(r, "\n== latency (%u ops, 1 outstanding) and rate (%u ops, %u outstanding)\n",
	       r->lat, r->rate, r->depth);
	vb_out(r, "   IB_POLL_DIRECT, busy polling; times in us, rate in ops/s, bw in MB/s\n");
	vb_out(r, "%-10s %6s %11s %11s %10s %9s  %s\n", "op", "bytes",
	       "lat median", "lat p99", "rate", "bw", "data");
	for (op = 0; op < VB_OPS; op++) {
		for (i = 0; i < ARRAY_SIZE(vb_sizes); i++) {
			ret = vb_row(r, p, op, vb_sizes[i], pat++);
			if (ret) {
				vb_out(r, "%-10s %6u failed: %d (first status %d)\n",
				       vb_op_name[op], vb_sizes[i], ret,
				       p->first_status);
				r->err = ret;
				goto out_pair;
			}
		}
	}
out_pair:
	vb_pair_free(p);
	if (r->err)
		return;

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
	for (i = 0; i < ARRAY_SIZE(vb_ctxs); i++) {
		ret = vb_cpu_row(r, vb_ctxs[i]);
		if (ret && !r->err)
			r->err = ret;
	}
}

static ssize_t vb_run_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	unsigned int a[VB_ARGS] = { 200, 400, 1500, 64 };
	struct vb_run r = {};
	char buf[64];
	char *out;
	int n;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	n = sscanf(buf, "%u %u %u %u", &a[0], &a[1], &a[2], &a[3]);
	if (n <= 0 && strim(buf)[0])
		return -EINVAL;
	if (!a[0] || a[0] > VB_MAX_ITERS || !a[1] || a[1] > VB_MAX_ITERS ||
	    !a[2] || a[2] > VB_MAX_ITERS || !a[3] || a[3] > VB_MAX_DEPTH)
		return -EINVAL;
	r.lat = a[0];
	r.rate = a[1];
	r.cpu = a[2];
	r.depth = a[3];

	r.samples = kvcalloc(r.lat, sizeof(u64), GFP_KERNEL);
	out = kzalloc(VB_RESULT_SIZE, GFP_KERNEL);
	if (!r.samples || !out) {
		kvfree(r.samples);
		kfree(out);
		return -ENOMEM;
	}
	r.out = out;

	mutex_lock(&vb_lock);
	vb_run_all(&r);
	memcpy(vb_result, out, VB_RESULT_SIZE);
	mutex_unlock(&vb_lock);

	kvfree(r.samples);
	kfree(out);
	return r.err ?: len;
}

static ssize_t vb_results_read(struct file *file, char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&vb_lock);
	ret = simple_read_from_buffer(ubuf, len, ppos, vb_result,
				      strnlen(vb_result, VB_RESULT_SIZE));
	mutex_unlock(&vb_lock);
	return ret;
}

static const struct file_operations vb_run_fops = {
	.owner	= THIS_MODULE,
	.write	= vb_run_write,
	.llseek	= noop_llseek,
};

static const struct file_operations vb_results_fops = {
	.owner	= THIS_MODULE,
	.read	= vb_results_read,
	.llseek	= default_llseek,
};

static int __init vb_init(void)
{
	vb_dir = debugfs_create_dir("verbs_bench", NULL);
	debugfs_create_file("run", 0200, vb_dir, NULL, &vb_run_fops);
	debugfs_create_file("results", 0400, vb_dir, NULL, &vb_results_fops);
	return 0;
}

static void __exit vb_exit(void)
{
	debugfs_remove_recursive(vb_dir);
}

module_init(vb_init);
module_exit(vb_exit);
MODULE_DESCRIPTION("RDMA verbs benchmark: latency, rate, bandwidth, CPU per completion");
MODULE_LICENSE("Dual BSD/GPL");
