// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_test_ulp: a kernel ULP that keeps RDMA devices busy, for tests.
 *
 * It is an ib_client.  On every device it is given (module parameter
 * "devices", a comma-separated list of names; empty means all) it sets up
 * one PD, a send CQ and a receive CQ (both polled by us), an SRQ, a fast
 * registration MR, two RC QPs connected to each other and two UD QPs on
 * the SRQ, and runs rounds of traffic from a work item until the device
 * goes away or the module is unloaded:
 *
 *   RC SEND, RDMA WRITE into the MR, RDMA READ back from it, a UD SEND
 *   received through the SRQ, and every 64 rounds an invalidation and a
 *   new fast registration of the MR under the next key.
 *
 * Every payload is random and checked byte for byte.  The counters are in
 * debugfs, /sys/kernel/debug/rdma_test_ulp/<device>/stats (the directory
 * keeps the name the device had when the ULP attached).  After the first
 * failure a device stops its traffic and shows "state broken".
 */

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/seq_file.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#define TULP_QKEY	0x11eaf00d
#define TULP_WAIT_MS	2000
#define TULP_SEND_LEN	512
#define TULP_RDMA_LEN	3000
#define TULP_UD_LEN	256
#define TULP_GRH	40
#define TULP_MR_PAGES	2
#define TULP_REREG	64

static char *devices = "";
module_param(devices, charp, 0444);
MODULE_PARM_DESC(devices,
		 "comma-separated names of the devices to use (default: all)");

static struct dentry *tulp_debugfs;

/* One awaited completion. */
struct tulp_wait {
	struct ib_cqe	cqe;
	struct ib_wc	wc;
	bool		done;
};

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

/**
 * struct tulp_dev - the ULP's objects on one device
 * @dev: the device
 * @pd: protection domain of everything below
 * @scq: send CQ of all QPs (IB_POLL_DIRECT, polled by @work only)
 * @rcq: receive CQ of all QPs (IB_POLL_DIRECT, polled by @work only)
 * @srq: receive queue of the UD QPs
 * @rc: two RC QPs connected to each other
 * @ud: two UD QPs
 * @ah: address handle of the device's own port
 * @mr: fast registration MR over @mr_buf, registered by @rc[1]
 * @mr_buf: the MR's pages (target of WRITE and source of READ)
 * @mr_sg: scatterlist of @mr_buf
 * @buf: one page of send data and one of receive space
 * @buf_dma: DMA address of @buf
 * @lid: LID of port 1
 * @work: runs the rounds; it alone touches the QPs after setup
 * @stopping: set by remove before it cancels @work
 * @broken: a round failed; no more rounds
 * @swait: completion awaited on @scq
 * @rwait: completion awaited on @rcq
 * @stats: counters, written by @work, read by debugfs
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
	u8			*buf;
	u64			buf_dma;
	u32			lid;
	struct delayed_work	work;
	bool			stopping;
	bool			broken;
	struct tulp_wait	swait;
	struct tulp_wait	rwait;
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
	t->broken = true;
	dev_warn(&t->dev->dev, "rdma_test_ulp: %s failed\n", what);
}

static void tulp_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct tulp_wait *w = container_of(wc->wr_cqe, struct tulp_wait, cqe);

	w->wc = *wc;
	w->done = true;
}

static struct ib_cqe *tulp_arm(struct tulp_wait *w)
{
	memset(w, 0, sizeof(*w));
	w->cqe.done = tulp_done;
	return &w->cqe;
}

/* Poll @cq until @w completed with @opcode; false on timeout or error. */
static bool tulp_wait(struct tulp_dev *t, struct ib_cq *cq,
		      struct tulp_wait *w, enum ib_wc_opcode opcode)
{
	unsigned long end = jiffies + msecs_to_jiffies(TULP_WAIT_MS);

	for (;;) {
		ib_process_cq_direct(cq, -1);
		if (w->done)
			break;
		if (time_after(jiffies, end))
			return false;
		usleep_range(50, 200);
	}
	tulp_count(t, TULP_COMPLETIONS);
	return w->wc.status == IB_WC_SUCCESS && w->wc.opcode == opcode;
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

static int tulp_post_rdma(struct tulp_dev *t, enum ib_wr_opcode op,
			  u8 *local, u64 raddr, u32 len)
{
	struct ib_sge sge = tulp_sge(t, local, len);
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_cqe = tulp_arm(&t->swait),
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = op,
			.send_flags = IB_SEND_SIGNALED,
		},
		.remote_addr = raddr,
		.rkey = t->mr->rkey,
	};

	return ib_post_send(t->rc[0], &wr.wr, NULL);
}

/* Register @mr over @mr_buf from rc[1] under the next key. */
static int tulp_fast_reg(struct tulp_dev *t)
{
	struct ib_reg_wr reg = {};

	ib_update_fast_reg_key(t->mr, ib_inc_rkey(t->mr->rkey) & 0xff);
	reg.wr.opcode = IB_WR_REG_MR;
	reg.wr.wr_cqe = tulp_arm(&t->swait);
	reg.wr.send_flags = IB_SEND_SIGNALED;
	reg.mr = t->mr;
	reg.key = t->mr->rkey;
	reg.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
		     IB_ACCESS_REMOTE_READ;
	if (ib_post_send(t->rc[1], &reg.wr, NULL) ||
	    !tulp_wait(t, t->scq, &t->swait, IB_WC_REG_MR))
		return -EIO;
	tulp_count(t, TULP_FAST_REGS);
	return 0;
}

static int tulp_reregister(struct tulp_dev *t)
{
	struct ib_send_wr inv = {
		.wr_cqe = tulp_arm(&t->swait),
		.opcode = IB_WR_LOCAL_INV,
		.send_flags = IB_SEND_SIGNALED,
		.ex.invalidate_rkey = t->mr->rkey,
	};

	if (ib_post_send(t->rc[1], &inv, NULL) ||
	    !tulp_wait(t, t->scq, &t->swait, IB_WC_LOCAL_INV))
		return -EIO;
	return tulp_fast_reg(t);
}

static bool tulp_round_send(struct tulp_dev *t)
{
	struct ib_sge ssge = tulp_sge(t, TULP_SRC(t), TULP_SEND_LEN);
	struct ib_sge rsge = tulp_sge(t, TULP_DST(t), TULP_SEND_LEN);
	struct ib_recv_wr rwr = {
		.wr_cqe = tulp_arm(&t->rwait),
		.sg_list = &rsge,
		.num_sge = 1,
	};
	struct ib_send_wr swr = {
		.wr_cqe = tulp_arm(&t->swait),
		.sg_list = &ssge,
		.num_sge = 1,
		.opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED,
	};

	get_random_bytes(TULP_SRC(t), TULP_SEND_LEN);
	memset(TULP_DST(t), 0, TULP_SEND_LEN);
	if (ib_post_recv(t->rc[1], &rwr, NULL) ||
	    ib_post_send(t->rc[0], &swr, NULL) ||
	    !tulp_wait(t, t->scq, &t->swait, IB_WC_SEND) ||
	    !tulp_wait(t, t->rcq, &t->rwait, IB_WC_RECV) ||
	    t->rwait.wc.byte_len != TULP_SEND_LEN) {
		tulp_fail(t, TULP_ERRORS, "RC SEND");
		return false;
	}
	if (memcmp(TULP_SRC(t), TULP_DST(t), TULP_SEND_LEN)) {
		tulp_fail(t, TULP_MISMATCHES, "RC SEND payload");
		return false;
	}
	tulp_count(t, TULP_SENDS);
	return true;
}

static bool tulp_round_rdma(struct tulp_dev *t, u32 off)
{
	u64 raddr = t->mr->iova + off;

	get_random_bytes(TULP_SRC(t), TULP_RDMA_LEN);
	if (tulp_post_rdma(t, IB_WR_RDMA_WRITE, TULP_SRC(t), raddr,
			   TULP_RDMA_LEN) ||
	    !tulp_wait(t, t->scq, &t->swait, IB_WC_RDMA_WRITE)) {
		tulp_fail(t, TULP_ERRORS, "RDMA WRITE");
		return false;
	}
	if (memcmp(TULP_SRC(t), t->mr_buf + off, TULP_RDMA_LEN)) {
		tulp_fail(t, TULP_MISMATCHES, "RDMA WRITE payload");
		return false;
	}
	tulp_count(t, TULP_WRITES);

	memset(TULP_DST(t), 0, TULP_RDMA_LEN);
	if (tulp_post_rdma(t, IB_WR_RDMA_READ, TULP_DST(t), raddr,
			   TULP_RDMA_LEN) ||
	    !tulp_wait(t, t->scq, &t->swait, IB_WC_RDMA_READ)) {
		tulp_fail(t, TULP_ERRORS, "RDMA READ");
		return false;
	}
	if (memcmp(TULP_SRC(t), TULP_DST(t), TULP_RDMA_LEN)) {
		tulp_fail(t, TULP_MISMATCHES, "RDMA READ payload");
		return false;
	}
	tulp_count(t, TULP_READS);
	return true;
}

/* ud[i] sends to ud[!i]; the datagram lands in the SRQ's buffer. */
static bool tulp_round_ud(struct tulp_dev *t, int i)
{
	struct ib_sge ssge = tulp_sge(t, TULP_SRC(t), TULP_UD_LEN);
	struct ib_sge rsge = tulp_sge(t, TULP_DST(t), TULP_GRH + TULP_UD_LEN);
	struct ib_recv_wr rwr = {
		.wr_cqe = tulp_arm(&t->rwait),
		.sg_list = &rsge,
		.num_sge = 1,
	};
	struct ib_ud_wr wr = {
		.wr = {
			.wr_cqe = tulp_arm(&t->swait),
			.sg_list = &ssge,
			.num_sge = 1,
			.opcode = IB_WR_SEND,
			.send_flags = IB_SEND_SIGNALED,
		},
		.ah = t->ah,
		.remote_qpn = t->ud[!i]->qp_num,
		.remote_qkey = TULP_QKEY,
	};

	get_random_bytes(TULP_SRC(t), TULP_UD_LEN);
	memset(TULP_DST(t), 0, TULP_GRH + TULP_UD_LEN);
	if (ib_post_srq_recv(t->srq, &rwr, NULL) ||
	    ib_post_send(t->ud[i], &wr.wr, NULL) ||
	    !tulp_wait(t, t->scq, &t->swait, IB_WC_SEND) ||
	    !tulp_wait(t, t->rcq, &t->rwait, IB_WC_RECV) ||
	    t->rwait.wc.qp != t->ud[!i] ||
	    t->rwait.wc.src_qp != t->ud[i]->qp_num ||
	    t->rwait.wc.byte_len != TULP_GRH + TULP_UD_LEN) {
		tulp_fail(t, TULP_ERRORS, "UD SEND");
		return false;
	}
	if (memcmp(TULP_SRC(t), TULP_DST(t) + TULP_GRH, TULP_UD_LEN)) {
		tulp_fail(t, TULP_MISMATCHES, "UD SEND payload");
		return false;
	}
	tulp_count(t, TULP_UD_SENDS);
	return true;
}

static void tulp_work(struct work_struct *work)
{
	struct tulp_dev *t = container_of(to_delayed_work(work),
					  struct tulp_dev, work);
	u64 round = atomic64_read(&t->stats[TULP_ROUNDS]);

	if (!tulp_round_send(t) ||
	    !tulp_round_rdma(t, (round * 97) % (TULP_MR_PAGES * PAGE_SIZE -
					       TULP_RDMA_LEN)) ||
	    !tulp_round_ud(t, round & 1))
		return;
	if (round % TULP_REREG == TULP_REREG - 1 && tulp_reregister(t)) {
		tulp_fail(t, TULP_ERRORS, "fast registration");
		return;
	}
	tulp_count(t, TULP_ROUNDS);
	if (!READ_ONCE(t->stopping))
		queue_delayed_work(system_unbound_wq, &t->work, 1);
}

static int tulp_stats_show(struct seq_file *s, void *unused)
{
	struct tulp_dev *t = s->private;
	int i;

	seq_printf(s, "state %s\n", READ_ONCE(t->broken) ? "broken" :
		   READ_ONCE(t->stopping) ? "stopping" : "running");
	for (i = 0; i < TULP_NSTATS; i++)
		seq_printf(s, "%s %lld\n", tulp_stat_names[i],
			   atomic64_read(&t->stats[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(tulp_stats);

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

/* The MR over @mr_buf, registered from rc[1]. */
static int tulp_setup_mr(struct tulp_dev *t)
{
	int i, n;

	t->mr = ib_alloc_mr(t->pd, IB_MR_TYPE_MEM_REG, TULP_MR_PAGES);
	if (IS_ERR(t->mr))
		return PTR_ERR(t->mr);
	sg_init_table(t->mr_sg, TULP_MR_PAGES);
	for (i = 0; i < TULP_MR_PAGES; i++)
		sg_set_buf(&t->mr_sg[i], t->mr_buf + i * PAGE_SIZE, PAGE_SIZE);
	n = ib_dma_map_sg(t->dev, t->mr_sg, TULP_MR_PAGES, DMA_BIDIRECTIONAL);
	if (n != TULP_MR_PAGES)
		goto err_mr;
	if (ib_map_mr_sg(t->mr, t->mr_sg, n, NULL, PAGE_SIZE) != n)
		goto err_unmap;
	if (tulp_fast_reg(t))
		goto err_unmap;
	return 0;

err_unmap:
	ib_dma_unmap_sg(t->dev, t->mr_sg, TULP_MR_PAGES, DMA_BIDIRECTIONAL);
err_mr:
	ib_dereg_mr(t->mr);
	t->mr = NULL;
	return -EIO;
}

static void tulp_free_mr(struct tulp_dev *t)
{
	ib_dma_unmap_sg(t->dev, t->mr_sg, TULP_MR_PAGES, DMA_BIDIRECTIONAL);
	ib_dereg_mr(t->mr);
}

/* Everything but the MR (and the debugfs files). */
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
	if (IS_ERR(t->pd)) {
		ret = PTR_ERR(t->pd);
		t->pd = NULL;
		return ret;
	}
	t->buf_dma = ib_dma_map_single(t->dev, t->buf, 2 * PAGE_SIZE,
				       DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(t->dev, t->buf_dma)) {
		t->buf_dma = 0;
		return -ENOMEM;
	}

	t->scq = ib_alloc_cq(t->dev, t, 64, 0, IB_POLL_DIRECT);
	if (IS_ERR(t->scq))
		goto err_scq;
	t->rcq = ib_alloc_cq(t->dev, t, 64, 0, IB_POLL_DIRECT);
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
	return 0;

	/* NULL the failed pointer: tulp_free_objects() frees the rest */
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
}

static struct ib_client tulp_client;

static int tulp_add(struct ib_device *dev)
{
	struct tulp_dev *t;
	int ret;

	if (!tulp_selected(dev->name) ||
	    !rdma_protocol_ib(dev, 1))
		return -EOPNOTSUPP;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->dev = dev;
	INIT_DELAYED_WORK(&t->work, tulp_work);

	ret = tulp_setup_objects(t);
	if (ret)
		goto err_objects;
	ret = tulp_setup_mr(t);
	if (ret)
		goto err_objects;

	t->dir = debugfs_create_dir(dev->name, tulp_debugfs);
	debugfs_create_file("stats", 0444, t->dir, t, &tulp_stats_fops);
	ib_set_client_data(dev, &tulp_client, t);
	queue_delayed_work(system_unbound_wq, &t->work, 0);
	return 0;

err_objects:
	tulp_free_objects(t);
	return ret;
}

/*
 * The device or the module goes away: stop the rounds, then free
 * everything.  Our CQs are polled only by the work item, so once it is
 * cancelled no completion handler of ours runs; posted receives die with
 * their QPs.
 */
static void tulp_remove(struct ib_device *dev, void *client_data)
{
	struct tulp_dev *t = client_data;

	WRITE_ONCE(t->stopping, true);
	cancel_delayed_work_sync(&t->work);
	debugfs_remove_recursive(t->dir);
	tulp_free_mr(t);
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
