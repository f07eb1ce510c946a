// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_test_ulp: a kernel ULP that keeps RDMA devices busy, for tests.
 *
 * It is an ib_client.  On every device it is given (module parameter
 * "devices", a comma-separated list of names; empty means all) add()
 * only allocates the state, makes the debugfs files and queues a work
 * item.  That item sets up one PD, a send CQ and a receive CQ (both
 * IB_POLL_SOFTIRQ), an SRQ, a fast registration MR, two RC QPs connected
 * to each other and two UD QPs on the SRQ, and posts the first fast
 * registration of the MR.  From there on completions drive the traffic:
 * each step posts its work requests, and the done callback of its last
 * completion checks the result and posts the next step.  A round is
 *
 *   RC SEND, RDMA WRITE into the MR, RDMA READ back from it, a UD SEND
 *   received through the SRQ, and every 64 rounds an invalidation and a
 *   new fast registration of the MR under the next key.
 *
 * No timer and no sleeping poll is involved.  Every payload is random and
 * checked byte for byte.  The counters are in debugfs,
 * /sys/kernel/debug/rdma_test_ulp/<device>/stats (the directory keeps the
 * name the device had when the ULP attached).  After the first failure a
 * device stops its traffic and shows "state broken".
 */

#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#define TULP_QKEY	0x11eaf00d
#define TULP_SEND_LEN	512
#define TULP_RDMA_LEN	3000
#define TULP_UD_LEN	256
#define TULP_GRH	40
#define TULP_MR_PAGES	2
#define TULP_REREG	64
#define TULP_CQE	64
/* No step completed for this long while running: "state stalled". */
#define TULP_STALL	(2 * HZ)

static char *devices = "";
module_param(devices, charp, 0444);
MODULE_PARM_DESC(devices,
		 "comma-separated names of the devices to use (default: all)");

static struct dentry *tulp_debugfs;

enum tulp_stat {
	TULP_ROUNDS,
	TULP_COMPLETIONS,
	TULP_SENDS,
	TULP_WRITES,
	TULP_READS,
	TULP_UD_SENDS,
	TULP_FAST_REGS,
	TULP_ERRORS,
	TULP_MISMATCHES,
	TULP_NSTATS
};

static const char * const tulp_stat_names[TULP_NSTATS] = {
	[TULP_ROUNDS] = "rounds",
	[TULP_COMPLETIONS] = "completions",
	[TULP_SENDS] = "sends",
	[TULP_WRITES] = "rdma_writes",
	[TULP_READS] = "rdma_reads",
	[TULP_UD_SENDS] = "ud_sends",
	[TULP_FAST_REGS] = "fast_regs",
	[TULP_ERRORS] = "errors",
	[TULP_MISMATCHES] = "mismatches",
};

/* The steps of the traffic; each waits for one or two completions. */
enum tulp_step {
	TULP_STEP_REG,		/* REG_MR of @mr from rc[1] */
	TULP_STEP_INV,		/* LOCAL_INV of @mr from rc[1], then REG */
	TULP_STEP_SEND,		/* RC SEND rc[0] -> rc[1], and its receive */
	TULP_STEP_WRITE,	/* RDMA WRITE from rc[0] into @mr */
	TULP_STEP_READ,		/* RDMA READ from @mr back to rc[0] */
	TULP_STEP_UD,		/* UD SEND ud[i] -> ud[!i], received on @srq */
};

struct tulp_step_desc {
	const char		*name;
	enum ib_wc_opcode	opcode;		/* of the send completion */
	bool			recv;		/* a receive completes too */
};

static const struct tulp_step_desc tulp_steps[] = {
	[TULP_STEP_REG] = { "fast registration", IB_WC_REG_MR, false },
	[TULP_STEP_INV] = { "local invalidation", IB_WC_LOCAL_INV, false },
	[TULP_STEP_SEND] = { "RC SEND", IB_WC_SEND, true },
	[TULP_STEP_WRITE] = { "RDMA WRITE", IB_WC_RDMA_WRITE, false },
	[TULP_STEP_READ] = { "RDMA READ", IB_WC_RDMA_READ, false },
	[TULP_STEP_UD] = { "UD SEND", IB_WC_SEND, true },
};

/**
 * struct tulp_dev - the ULP's objects on one device
 * @dev: the device
 * @pd: protection domain of everything below
 * @scq: send CQ of all QPs
 * @rcq: receive CQ of all QPs
 * @srq: receive queue of the UD QPs
 * @rc: two RC QPs connected to each other
 * @ud: two UD QPs
 * @ah: address handle of the device's own port
 * @mr: fast registration MR over @mr_buf, registered by @rc[1]
 * @mr_buf: the MR's pages (target of WRITE and source of READ)
 * @mr_sg: scatterlist of @mr_buf
 * @mr_mapped: @mr_sg is DMA mapped
 * @buf: one page of send data and one of receive space
 * @buf_dma: DMA address of @buf
 * @lid: LID of port 1
 * @setup: creates the objects and starts the traffic, queued by add()
 * @lock: orders posting against @stopping
 * @stopping: remove() has begun; nothing is posted any more
 * @started: the first work request went out; remove() must drain
 * @broken: setup or a step failed; no more steps
 * @step: the step in flight; only the completion that ends it (or
 *	@setup, before the first) touches it and the fields below
 * @pending: completions the step in flight still waits for
 * @scqe: completion context of every send work request
 * @rcqe: completion context of every receive work request
 * @rwc: the receive completion of the step in flight
 * @round: the current round (from 0)
 * @off: offset in @mr_buf of this round's RDMA WRITE and READ
 * @last_step: jiffies when the last step ended, for "state stalled"
 * @stats: counters, read by debugfs
 * @dir: debugfs directory
 */
struct tulp_dev {
	struct ib_device	*dev;
	struct ib_pd		*pd;
	struct ib_cq		*scq;
	struct ib_cq		*rcq;
	struct ib_srq		*srq;
	struct ib_qp		*rc[2];
	struct ib_qp		*ud[2];
	struct ib_ah		*ah;
	struct ib_mr		*mr;
	void			*mr_buf;
	struct scatterlist	mr_sg[TULP_MR_PAGES];
	bool			mr_mapped;
	u8			*buf;
	u64			buf_dma;
	u32			lid;

	struct work_struct	setup;
	spinlock_t		lock;	/* @stopping, posting */
	bool			stopping;
	bool			started;
	bool			broken;

	enum tulp_step		step;
	atomic_t		pending;
	struct ib_cqe		scqe;
	struct ib_cqe		rcqe;
	struct ib_wc		rwc;
	u64			round;
	u32			off;
	unsigned long		last_step;

	atomic64_t		stats[TULP_NSTATS];
	struct dentry		*dir;
};

#define TULP_SRC(t)	((t)->buf)
#define TULP_DST(t)	((t)->buf + PAGE_SIZE)

static void tulp_count(struct tulp_dev *t, enum tulp_stat s)
{
	atomic64_inc(&t->stats[s]);
}

static void tulp_fail(struct tulp_dev *t, enum tulp_stat s, const char *what)
{
	tulp_count(t, s);
	WRITE_ONCE(t->broken, true);
	ibdev_warn(t->dev, "rdma_test_ulp: %s failed\n", what);
}

static struct ib_sge tulp_sge(struct tulp_dev *t, u8 *p, u32 len)
{
	struct ib_sge sge = {
		.addr = t->buf_dma + (p - t->buf),
		.length = len,
		.lkey = t->pd->local_dma_lkey,
	};

	return sge;
}

/* ------------------------------------------------------------------
 * Posting a step
 */

static int tulp_post_reg(struct tulp_dev *t)
{
	struct ib_reg_wr reg = {
		.wr = {
			.wr_cqe = &t->scqe,
			.opcode = IB_WR_REG_MR,
			.send_flags = IB_SEND_SIGNALED,
		},
		.mr = t->mr,
		.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
			  IB_ACCESS_REMOTE_READ,
	};

	ib_update_fast_reg_key(t->mr, ib_inc_rkey(t->mr->rkey) & 0xff);
	reg.key = t->mr->rkey;
	return ib_post_send(t->rc[1], &reg.wr, NULL);
}

static int tulp_post_inv(struct tulp_dev *t)
{
	struct ib_send_wr inv = {
		.wr_cqe = &t->scqe,
		.opcode = IB_WR_LOCAL_INV,
		.send_flags = IB_SEND_SIGNALED,
		.ex.invalidate_rkey = t->mr->rkey,
	};

	return ib_post_send(t->rc[1], &inv, NULL);
}

static int tulp_post_send(struct tulp_dev *t)
{
	struct ib_sge ssge = tulp_sge(t, TULP_SRC(t), TULP_SEND_LEN);
	struct ib_sge rsge = tulp_sge(t, TULP_DST(t), TULP_SEND_LEN);
	struct ib_recv_wr rwr = {
		.wr_cqe = &t->rcqe,
		.sg_list = &rsge,
		.num_sge = 1,
	};
	struct ib_send_wr swr = {
		.wr_cqe = &t->scqe,
		.sg_list = &ssge,
		.num_sge = 1,
		.opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED,
	};
	int ret;

	get_random_bytes(TULP_SRC(t), TULP_SEND_LEN);
	memset(TULP_DST(t), 0, TULP_SEND_LEN);
	ret = ib_post_recv(t->rc[1], &rwr, NULL);
	if (ret)
		return ret;
	return ib_post_send(t->rc[0], &swr, NULL);
}

static int tulp_post_rdma(struct tulp_dev *t, enum ib_wr_opcode op, u8 *local)
{
	struct ib_sge sge = tulp_sge(t, local, TULP_RDMA_LEN);
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_cqe = &t->scqe,
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = op,
			.send_flags = IB_SEND_SIGNALED,
		},
		.remote_addr = t->mr->iova + t->off,
		.rkey = t->mr->rkey,
	};

	return ib_post_send(t->rc[0], &wr.wr, NULL);
}

/* ud[i] sends to ud[!i]; the datagram lands in the SRQ's buffer. */
static int tulp_post_ud(struct tulp_dev *t)
{
	int i = t->round & 1;
	struct ib_sge ssge = tulp_sge(t, TULP_SRC(t), TULP_UD_LEN);
	struct ib_sge rsge = tulp_sge(t, TULP_DST(t), TULP_GRH + TULP_UD_LEN);
	struct ib_recv_wr rwr = {
		.wr_cqe = &t->rcqe,
		.sg_list = &rsge,
		.num_sge = 1,
	};
	struct ib_ud_wr wr = {
		.wr = {
			.wr_cqe = &t->scqe,
			.sg_list = &ssge,
			.num_sge = 1,
			.opcode = IB_WR_SEND,
			.send_flags = IB_SEND_SIGNALED,
		},
		.ah = t->ah,
		.remote_qpn = t->ud[!i]->qp_num,
		.remote_qkey = TULP_QKEY,
	};
	int ret;

	get_random_bytes(TULP_SRC(t), TULP_UD_LEN);
	memset(TULP_DST(t), 0, TULP_GRH + TULP_UD_LEN);
	ret = ib_post_srq_recv(t->srq, &rwr, NULL);
	if (ret)
		return ret;
	return ib_post_send(t->ud[i], &wr.wr, NULL);
}

/*
 * Post the work requests of @step, unless remove() has begun.  Under
 * @lock, so that remove() drains only once nothing more can be posted.
 */
static void tulp_start_step(struct tulp_dev *t, enum tulp_step step)
{
	int ret;

	spin_lock_bh(&t->lock);
	if (t->stopping)
		goto out;
	t->step = step;
	/* before posting: the completions may come at once, on any CPU */
	atomic_set(&t->pending, tulp_steps[step].recv ? 2 : 1);
	WRITE_ONCE(t->started, true);

	switch (step) {
	case TULP_STEP_REG:
		ret = tulp_post_reg(t);
		break;
	case TULP_STEP_INV:
		ret = tulp_post_inv(t);
		break;
	case TULP_STEP_SEND:
		ret = tulp_post_send(t);
		break;
	case TULP_STEP_WRITE:
		get_random_bytes(TULP_SRC(t), TULP_RDMA_LEN);
		ret = tulp_post_rdma(t, IB_WR_RDMA_WRITE, TULP_SRC(t));
		break;
	case TULP_STEP_READ:
		memset(TULP_DST(t), 0, TULP_RDMA_LEN);
		ret = tulp_post_rdma(t, IB_WR_RDMA_READ, TULP_DST(t));
		break;
	case TULP_STEP_UD:
		ret = tulp_post_ud(t);
		break;
	default:
		ret = -EINVAL;
	}
	if (ret)
		tulp_fail(t, TULP_ERRORS, "posting");
out:
	spin_unlock_bh(&t->lock);
}

/* ------------------------------------------------------------------
 * Completions
 */

/* The step's completions are all in: check its outcome. */
static bool tulp_check_step(struct tulp_dev *t)
{
	const struct ib_wc *rwc = &t->rwc;
	int i = t->round & 1;

	switch (t->step) {
	case TULP_STEP_REG:
		tulp_count(t, TULP_FAST_REGS);
		return true;
	case TULP_STEP_INV:
		return true;
	case TULP_STEP_SEND:
		if (rwc->byte_len != TULP_SEND_LEN) {
			tulp_fail(t, TULP_ERRORS, "RC SEND length");
			return false;
		}
		if (memcmp(TULP_SRC(t), TULP_DST(t), TULP_SEND_LEN)) {
			tulp_fail(t, TULP_MISMATCHES, "RC SEND payload");
			return false;
		}
		tulp_count(t, TULP_SENDS);
		return true;
	case TULP_STEP_WRITE:
		if (memcmp(TULP_SRC(t), t->mr_buf + t->off, TULP_RDMA_LEN)) {
			tulp_fail(t, TULP_MISMATCHES, "RDMA WRITE payload");
			return false;
		}
		tulp_count(t, TULP_WRITES);
		return true;
	case TULP_STEP_READ:
		if (memcmp(TULP_SRC(t), TULP_DST(t), TULP_RDMA_LEN)) {
			tulp_fail(t, TULP_MISMATCHES, "RDMA READ payload");
			return false;
		}
		tulp_count(t, TULP_READS);
		return true;
	case TULP_STEP_UD:
		if (rwc->qp != t->ud[!i] || rwc->src_qp != t->ud[i]->qp_num ||
		    rwc->byte_len != TULP_GRH + TULP_UD_LEN) {
			tulp_fail(t, TULP_ERRORS, "UD SEND addressing");
			return false;
		}
		if (memcmp(TULP_SRC(t), TULP_DST(t) + TULP_GRH, TULP_UD_LEN)) {
			tulp_fail(t, TULP_MISMATCHES, "UD SEND payload");
			return false;
		}
		tulp_count(t, TULP_UD_SENDS);
		return true;
	}
	return false;
}

/* A new round: where its RDMA goes, then its first step. */
static void tulp_next_round(struct tulp_dev *t)
{
	t->round = atomic64_read(&t->stats[TULP_ROUNDS]);
	t->off = (t->round * 97) % (TULP_MR_PAGES * PAGE_SIZE - TULP_RDMA_LEN);
	tulp_start_step(t, TULP_STEP_SEND);
}

/* The last completion of the step in flight came: go on. */
static void tulp_step_done(struct tulp_dev *t)
{
	WRITE_ONCE(t->last_step, jiffies);
	if (READ_ONCE(t->broken) || READ_ONCE(t->stopping) ||
	    !tulp_check_step(t))
		return;

	switch (t->step) {
	case TULP_STEP_REG:
		tulp_next_round(t);
		break;
	case TULP_STEP_INV:
		tulp_start_step(t, TULP_STEP_REG);
		break;
	case TULP_STEP_SEND:
		tulp_start_step(t, TULP_STEP_WRITE);
		break;
	case TULP_STEP_WRITE:
		tulp_start_step(t, TULP_STEP_READ);
		break;
	case TULP_STEP_READ:
		tulp_start_step(t, TULP_STEP_UD);
		break;
	case TULP_STEP_UD:
		tulp_count(t, TULP_ROUNDS);
		if (t->round % TULP_REREG == TULP_REREG - 1)
			tulp_start_step(t, TULP_STEP_INV);
		else
			tulp_next_round(t);
		break;
	}
}

/*
 * One completion of the step in flight.  The send and the receive of a
 * step complete on different CQs, maybe on two CPUs at once: the one
 * that brings @pending to zero goes on.  Completions flushed because
 * remove() drains the QPs are no failure.
 */
static void tulp_wc(struct tulp_dev *t, struct ib_wc *wc, bool recv)
{
	const struct tulp_step_desc *d = &tulp_steps[t->step];

	if (wc->status != IB_WC_SUCCESS) {
		if (!READ_ONCE(t->stopping))
			tulp_fail(t, TULP_ERRORS, d->name);
	} else {
		tulp_count(t, TULP_COMPLETIONS);
		if (recv)
			t->rwc = *wc;
		if (wc->opcode != (recv ? IB_WC_RECV : d->opcode))
			tulp_fail(t, TULP_ERRORS, d->name);
	}
	if (atomic_dec_and_test(&t->pending))
		tulp_step_done(t);
}

static void tulp_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	tulp_wc(container_of(wc->wr_cqe, struct tulp_dev, scqe), wc, false);
}

static void tulp_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	tulp_wc(container_of(wc->wr_cqe, struct tulp_dev, rcqe), wc, true);
}

/* ------------------------------------------------------------------
 * debugfs
 */

static const char *tulp_state(struct tulp_dev *t)
{
	if (READ_ONCE(t->broken))
		return "broken";
	if (READ_ONCE(t->stopping))
		return "stopping";
	if (!READ_ONCE(t->started))
		return "starting";
	if (time_after(jiffies, READ_ONCE(t->last_step) + TULP_STALL))
		return "stalled";
	return "running";
}

static int tulp_stats_show(struct seq_file *s, void *unused)
{
	struct tulp_dev *t = s->private;
	int i;

	seq_printf(s, "state %s\n", tulp_state(t));
	for (i = 0; i < TULP_NSTATS; i++)
		seq_printf(s, "%s %lld\n", tulp_stat_names[i],
			   atomic64_read(&t->stats[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(tulp_stats);

/* ------------------------------------------------------------------
 * Setup, from the work item add() queues
 */

static struct ib_qp *tulp_create_qp(struct tulp_dev *t, enum ib_qp_type type)
{
	struct ib_qp_init_attr attr = {
		.send_cq = t->scq,
		.recv_cq = t->rcq,
		.srq = type == IB_QPT_UD ? t->srq : NULL,
		.qp_type = type,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = {
			.max_send_wr = 16,
			.max_recv_wr = type == IB_QPT_UD ? 0 : 16,
			.max_send_sge = 1,
			.max_recv_sge = type == IB_QPT_UD ? 0 : 1,
		},
		.port_num = 1,
	};

	return ib_create_qp(t->pd, &attr);
}

static int tulp_connect_rc(struct tulp_dev *t, struct ib_qp *qp, u32 dqpn)
{
	struct ib_qp_attr a = {};
	int ret;

	a.qp_state = IB_QPS_INIT;
	a.port_num = 1;
	a.qp_access_flags = IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ;
	ret = ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (ret)
		return ret;

	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTR;
	a.path_mtu = IB_MTU_4096;
	a.dest_qp_num = dqpn;
	a.max_dest_rd_atomic = 4;
	a.min_rnr_timer = 1;
	a.ah_attr.type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_dlid(&a.ah_attr, t->lid);
	rdma_ah_set_port_num(&a.ah_attr, 1);
	ret = ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
			   IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			   IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
	if (ret)
		return ret;

	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 4;
	return ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_SQ_PSN |
			    IB_QP_TIMEOUT | IB_QP_RETRY_CNT |
			    IB_QP_RNR_RETRY | IB_QP_MAX_QP_RD_ATOMIC);
}

static int tulp_start_ud(struct ib_qp *qp)
{
	struct ib_qp_attr a = {
		.qp_state = IB_QPS_INIT,
		.port_num = 1,
		.qkey = TULP_QKEY,
	};
	int ret;

	ret = ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_PORT | IB_QP_QKEY |
			   IB_QP_PKEY_INDEX);
	if (ret)
		return ret;
	a.qp_state = IB_QPS_RTR;
	ret = ib_modify_qp(qp, &a, IB_QP_STATE);
	if (ret)
		return ret;
	a.qp_state = IB_QPS_RTS;
	return ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_SQ_PSN);
}

/* The MR over @mr_buf; registered by the first step. */
static int tulp_setup_mr(struct tulp_dev *t)
{
	int i, n;

	t->mr = ib_alloc_mr(t->pd, IB_MR_TYPE_MEM_REG, TULP_MR_PAGES);
	if (IS_ERR(t->mr)) {
		n = PTR_ERR(t->mr);
		t->mr = NULL;
		return n;
	}
	sg_init_table(t->mr_sg, TULP_MR_PAGES);
	for (i = 0; i < TULP_MR_PAGES; i++)
		sg_set_buf(&t->mr_sg[i], t->mr_buf + i * PAGE_SIZE, PAGE_SIZE);
	n = ib_dma_map_sg(t->dev, t->mr_sg, TULP_MR_PAGES, DMA_BIDIRECTIONAL);
	if (n != TULP_MR_PAGES)
		return -EIO;
	t->mr_mapped = true;
	if (ib_map_mr_sg(t->mr, t->mr_sg, n, NULL, PAGE_SIZE) != n)
		return -EIO;
	return 0;
}

/*
 * Everything the traffic uses.  On failure what exists stays for
 * tulp_free_objects(); a failed pointer is left NULL.
 */
static int tulp_setup_objects(struct tulp_dev *t)
{
	struct ib_srq_init_attr sattr = {
		.attr = { .max_wr = 16, .max_sge = 1 },
		.srq_type = IB_SRQT_BASIC,
	};
	struct rdma_ah_attr ah_attr = {};
	struct ib_port_attr pa;
	int i, ret;

	t->buf = (u8 *)__get_free_pages(GFP_KERNEL | __GFP_ZERO, 1);
	t->mr_buf = (void *)__get_free_pages(GFP_KERNEL | __GFP_ZERO,
					     get_order(TULP_MR_PAGES *
						       PAGE_SIZE));
	if (!t->buf || !t->mr_buf)
		return -ENOMEM;
	ret = ib_query_port(t->dev, 1, &pa);
	if (ret)
		return ret;
	t->lid = pa.lid;

	t->pd = ib_alloc_pd(t->dev, 0);
	if (IS_ERR(t->pd))
		goto err_pd;
	t->buf_dma = ib_dma_map_single(t->dev, t->buf, 2 * PAGE_SIZE,
				       DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(t->dev, t->buf_dma)) {
		t->buf_dma = 0;
		return -ENOMEM;
	}

	t->scq = ib_alloc_cq(t->dev, t, TULP_CQE, 0, IB_POLL_SOFTIRQ);
	if (IS_ERR(t->scq))
		goto err_scq;
	t->rcq = ib_alloc_cq(t->dev, t, TULP_CQE, 0, IB_POLL_SOFTIRQ);
	if (IS_ERR(t->rcq))
		goto err_rcq;
	t->srq = ib_create_srq(t->pd, &sattr);
	if (IS_ERR(t->srq))
		goto err_srq;

	for (i = 0; i < 2; i++) {
		t->rc[i] = tulp_create_qp(t, IB_QPT_RC);
		if (IS_ERR(t->rc[i]))
			goto err_rc;
		t->ud[i] = tulp_create_qp(t, IB_QPT_UD);
		if (IS_ERR(t->ud[i]))
			goto err_ud;
	}
	for (i = 0; i < 2; i++) {
		ret = tulp_connect_rc(t, t->rc[i], t->rc[!i]->qp_num);
		if (ret)
			return ret;
		ret = tulp_start_ud(t->ud[i]);
		if (ret)
			return ret;
	}

	ah_attr.type = rdma_ah_find_type(t->dev, 1);
	rdma_ah_set_dlid(&ah_attr, t->lid);
	rdma_ah_set_port_num(&ah_attr, 1);
	t->ah = rdma_create_ah(t->pd, &ah_attr, RDMA_CREATE_AH_SLEEPABLE);
	if (IS_ERR(t->ah)) {
		ret = PTR_ERR(t->ah);
		t->ah = NULL;
		return ret;
	}
	return tulp_setup_mr(t);

err_ud:
	ret = PTR_ERR(t->ud[i]);
	t->ud[i] = NULL;
	return ret;
err_rc:
	ret = PTR_ERR(t->rc[i]);
	t->rc[i] = NULL;
	return ret;
err_srq:
	ret = PTR_ERR(t->srq);
	t->srq = NULL;
	return ret;
err_rcq:
	ret = PTR_ERR(t->rcq);
	t->rcq = NULL;
	return ret;
err_scq:
	ret = PTR_ERR(t->scq);
	t->scq = NULL;
	return ret;
err_pd:
	ret = PTR_ERR(t->pd);
	t->pd = NULL;
	return ret;
}

static void tulp_setup_work(struct work_struct *work)
{
	struct tulp_dev *t = container_of(work, struct tulp_dev, setup);
	int ret;

	ret = tulp_setup_objects(t);
	if (ret) {
		tulp_count(t, TULP_ERRORS);
		WRITE_ONCE(t->broken, true);
		ibdev_warn(t->dev, "rdma_test_ulp: setup failed: %d\n", ret);
		return;
	}
	WRITE_ONCE(t->last_step, jiffies);
	tulp_start_step(t, TULP_STEP_REG);
}

/* ------------------------------------------------------------------
 * The client
 */

/*
 * Free what exists, QPs first: after tulp_stop() no work request of
 * ours is outstanding on them, so the MR can go once they are gone.
 */
static void tulp_free_objects(struct tulp_dev *t)
{
	int i;

	if (t->ah)
		rdma_destroy_ah(t->ah, RDMA_DESTROY_AH_SLEEPABLE);
	for (i = 0; i < 2; i++) {
		if (t->ud[i])
			ib_destroy_qp(t->ud[i]);
		if (t->rc[i])
			ib_destroy_qp(t->rc[i]);
	}
	if (t->srq)
		ib_destroy_srq(t->srq);
	if (t->mr_mapped)
		ib_dma_unmap_sg(t->dev, t->mr_sg, TULP_MR_PAGES,
				DMA_BIDIRECTIONAL);
	if (t->mr)
		ib_dereg_mr(t->mr);
	if (t->rcq)
		ib_free_cq(t->rcq);
	if (t->scq)
		ib_free_cq(t->scq);
	if (t->buf_dma)
		ib_dma_unmap_single(t->dev, t->buf_dma, 2 * PAGE_SIZE,
				    DMA_BIDIRECTIONAL);
	if (t->pd)
		ib_dealloc_pd(t->pd);
	free_pages((unsigned long)t->buf, 1);
	free_pages((unsigned long)t->mr_buf, get_order(TULP_MR_PAGES *
						       PAGE_SIZE));
	kfree(t);
}

/*
 * Stop the traffic: nothing is posted once @stopping is set, the setup
 * item is over, and draining the QPs flushes what is still queued
 * (a REG_MR or LOCAL_INV included) through our done callbacks.  A
 * receive posted to the SRQ stays there until the SRQ is destroyed.
 */
static void tulp_stop(struct tulp_dev *t)
{
	int i;

	spin_lock_bh(&t->lock);
	WRITE_ONCE(t->stopping, true);
	spin_unlock_bh(&t->lock);
	cancel_work_sync(&t->setup);
	if (!t->started)
		return;
	for (i = 0; i < 2; i++) {
		ib_drain_qp(t->rc[i]);
		ib_drain_qp(t->ud[i]);
	}
}

static bool tulp_selected(const char *name)
{
	const char *p = devices;
	size_t len = strlen(name);

	if (!p || !*p)
		return true;
	while (*p) {
		size_t n = strcspn(p, ",");

		if (n == len && !strncmp(p, name, n))
			return true;
		p += n;
		if (*p)
			p++;
	}
	return false;
}

static struct ib_client tulp_client;

/*
 * Runs with the core's device and client locks held for reading: only
 * what cannot wait is done here, the rest in tulp_setup_work().
 */
static int tulp_add(struct ib_device *dev)
{
	struct tulp_dev *t;

	if (!tulp_selected(dev->name) ||
	    !rdma_protocol_ib(dev, 1))
		return -EOPNOTSUPP;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->dev = dev;
	INIT_WORK(&t->setup, tulp_setup_work);
	spin_lock_init(&t->lock);
	t->scqe.done = tulp_send_done;
	t->rcqe.done = tulp_recv_done;

	t->dir = debugfs_create_dir(dev->name, tulp_debugfs);
	debugfs_create_file("stats", 0444, t->dir, t, &tulp_stats_fops);
	ib_set_client_data(dev, &tulp_client, t);
	queue_work(system_unbound_wq, &t->setup);
	return 0;
}

/* The device or the module goes away: stop, drain, then free. */
static void tulp_remove(struct ib_device *dev, void *client_data)
{
	struct tulp_dev *t = client_data;

	tulp_stop(t);
	debugfs_remove_recursive(t->dir);
	tulp_free_objects(t);
}

static struct ib_client tulp_client = {
	.name = "rdma_test_ulp",
	.add = tulp_add,
	.remove = tulp_remove,
};

static int __init tulp_init(void)
{
	int ret;

	tulp_debugfs = debugfs_create_dir("rdma_test_ulp", NULL);
	ret = ib_register_client(&tulp_client);
	if (ret)
		debugfs_remove_recursive(tulp_debugfs);
	return ret;
}

static void __exit tulp_exit(void)
{
	ib_unregister_client(&tulp_client);
	debugfs_remove_recursive(tulp_debugfs);
}

module_init(tulp_init);
module_exit(tulp_exit);

MODULE_DESCRIPTION("RDMA test ULP: continuous traffic on every device");
MODULE_LICENSE("Dual BSD/GPL");
