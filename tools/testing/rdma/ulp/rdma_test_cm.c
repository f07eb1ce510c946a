// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_test_cm: a kernel ULP that makes connections through rdma_cm, for
 * the integration scenarios.  It uses only the public API (rdma_cm and
 * verbs), as an out-of-tree ULP would.
 *
 * It is driven through debugfs, /sys/kernel/debug/rdma_test_cm/:
 *
 *   cmd     write one command; the write returns 0 or the command's error
 *   log     what happened, one line each, oldest first
 *   status  the objects the module holds now, "name count" per line
 *
 * Commands (IPv4 addresses; every id is made in the network namespace of
 * the process that writes the command):
 *
 *   listen ADDR PORT      a server: bind, listen, accept every request
 *   unlisten              destroy the listeners and their connections
 *   connect SRC DST PORT  a client: resolve the address and the route,
 *                         connect, check the data path (below), disconnect
 *   hold SRC DST PORT     a client that stays connected after the checks
 *   release               disconnect and free the held connections
 *   churn SRC DST PORT N  N clients, each destroyed at a stop picked at
 *                         random (below), without disconnecting first
 *   udlisten ADDR PORT    a UD server: answers each SIDR request with a
 *                         UD QP of its own, which echoes every datagram
 *   udconnect SRC DST PORT  a UD client: resolve, ask the server's QP
 *                         number and Q_Key with a SIDR request, send
 *                         datagrams and check their echoes (below)
 *   clear                 empty the log
 *
 * The data path, for each size of 1, 1000, 4096 and 65536 bytes (the
 * last ones span several FPDUs of an Ethernet MTU): a SEND of random
 * bytes into a receive the server posted, which the server sends back
 * into a receive of the client; an RDMA READ of the server's buffer,
 * whose contents the server set to a known pattern; an RDMA WRITE of
 * random bytes into it and an RDMA READ back.  Every payload is compared
 * byte for byte.  The server tells its buffer's address and rkey (its
 * PD's global rkey) in the private data of its accept.
 *
 * The stops of churn: 0 right after rdma_create_id(), 1 with the address
 * resolution in flight, 2 once ADDR_RESOLVED came, 3 with the route
 * resolution in flight, 4 once ROUTE_RESOLVED came and the QP exists,
 * 5 with the connection request in flight, 6 once ESTABLISHED came, 7
 * with the disconnect in flight.  Its clients log no events, only
 * "churn client I stop S from ADDR" (or "unbound") as each is
 * destroyed; it ends with "churn done N stops S0 S1 ... S7" (how many
 * stopped at each) or "churn error ERRNO at STEP" when a step that is
 * waited for fails.
 *
 * The UD data path: datagrams of 1, 64 and 1024 bytes (1024: the
 * smallest path MTU of RoCE on an Ethernet MTU of 1500) sent with the
 * address handle, QP number and Q_Key that the SIDR reply brought; the
 * server makes an address handle from each datagram's work completion
 * and GRH (ib_create_ah_from_wc()) and sends the payload back to the
 * sender's QP; the client compares it ("client ud send SIZE ok").  A UD
 * id has no disconnect: a UD server's QP stays until unlisten.
 *
 * A client whose route has a path record (InfiniBand) logs it after
 * "client connected": "client path sl S mtu BYTES packet_life_time P".
 *
 * Every rdma_cm event of every id is logged as "ROLE event NAME status
 * N peer ADDR" (ROLE: listener, server or client; ADDR: the id's
 * destination), the checks as "client send SIZE ok" and so on, a
 * client's outcome as "client done" or "client error ERRNO at STEP".
 * A connection (server side, or held client) that gets DISCONNECTED or
 * DEVICE_REMOVAL frees its QP, CQ, PD and buffers in the handler and
 * returns non-zero, so that rdma_cm destroys its id; a listener does the
 * same on DEVICE_REMOVAL.  The status file
 * counts what is still allocated, so a scenario can see that a device
 * removal freed everything.
 */

#include <linux/debugfs.h>
#include <linux/inet.h>
#include <linux/module.h>
#include <linux/nsproxy.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <net/net_namespace.h>
#include <rdma/ib_cm.h>
#include <rdma/rdma_cm.h>
#include <rdma/rdma_cm_ib.h>

#define TCM_MAGIC	0x74634d31	/* "tcM1" */
#define TCM_BUF		65536
#define TCM_LOG		65536
#define TCM_CQE		32
#define TCM_STEP_MS	10000
#define TCM_DISC_MS	3000
#define TCM_CMD_LEN	128

static const unsigned int tcm_sizes[] = { 1, 1000, 4096, TCM_BUF };
static const unsigned int tcm_ud_sizes[] = { 1, 64, 1024 };

/* Every UD receive starts with room for a GRH. */
#define TCM_GRH		sizeof(struct ib_grh)

/* What the server tells in its accept. */
struct tcm_rep {
	__be32	magic;
	__be32	rkey;
	__be64	addr;
};

enum tcm_role { TCM_LISTENER, TCM_SERVER, TCM_CLIENT };

static const char * const tcm_role_names[] = {
	[TCM_LISTENER] = "listener",
	[TCM_SERVER] = "server",
	[TCM_CLIENT] = "client",
};

/* The objects the module holds, for the status file. */
enum tcm_obj { TCM_IDS, TCM_LISTENERS, TCM_CONNS, TCM_PDS, TCM_CQS,
	       TCM_QPS, TCM_BUFS, TCM_NOBJ };

static const char * const tcm_obj_names[TCM_NOBJ] = {
	[TCM_IDS] = "ids",
	[TCM_LISTENERS] = "listeners",
	[TCM_CONNS] = "connections",
	[TCM_PDS] = "pds",
	[TCM_CQS] = "cqs",
	[TCM_QPS] = "qps",
	[TCM_BUFS] = "buffers",
};

static atomic_t tcm_objs[TCM_NOBJ];

/* A DMA-mapped buffer of TCM_BUF bytes. */
struct tcm_buf {
	void		*va;
	u64		dma;
};

/*
 * One id: a listener, or a connection of either side.  @owned: someone
 * (a command, or the id's own handler) has taken it out of the lists
 * and frees it; set once, under tcm_lock.
 */
struct tcm_conn {
	enum tcm_role		role;
	struct rdma_cm_id	*id;
	struct list_head	entry;
	bool			listed;
	bool			owned;
	bool			quiet;	/* a churn client: events not logged */
	bool			ud;	/* a UD id (RDMA_PS_UDP), no RC QP */
	/* the verbs objects, for connections */
	struct ib_device	*dev;
	struct ib_pd		*pd;
	struct ib_cq		*cq;
	bool			has_qp;
	struct tcm_buf		rbuf;	/* receives */
	struct tcm_buf		mbuf;	/* server: the RDMA target */
	struct tcm_buf		ebuf;	/* server: what it sends back */
	struct tcm_buf		sbuf;	/* client: SEND and WRITE source */
	struct tcm_buf		dbuf;	/* client: READ sink */
	struct ib_cqe		send_cqe;
	struct ib_cqe		recv_cqe;
	/* client: what the steps wait for */
	wait_queue_head_t	waitq;
	bool			have_event;
	enum rdma_cm_event_type	event;
	int			status;
	bool			disconnected;
	struct tcm_rep		rep;
	struct completion	send_done;
	struct completion	recv_done;
	enum ib_wc_status	send_status;
	enum ib_wc_status	recv_status;
	u32			recv_len;
	/*
	 * UD: the address handle sends go with; a server's is made from
	 * the datagram it echoes and destroyed when the echo completed, a
	 * client's from the SIDR reply (@ah_attr, @remote_qpn, @remote_qkey)
	 */
	struct ib_ah		*ah;
	struct rdma_ah_attr	ah_attr;
	bool			have_ah_attr;
	u32			remote_qpn;
	u32			remote_qkey;
};

static DEFINE_SPINLOCK(tcm_lock);
static LIST_HEAD(tcm_listeners);	/* listeners and server connections */
static LIST_HEAD(tcm_held);		/* held client connections */
static DEFINE_MUTEX(tcm_cmd_mutex);	/* one command at a time */
static char *tcm_log;
static size_t tcm_log_len;
static struct dentry *tcm_debugfs;

static __printf(1, 2) void tcm_out(const char *fmt, ...)
{
	unsigned long flags;
	va_list args;

	spin_lock_irqsave(&tcm_lock, flags);
	va_start(args, fmt);
	if (tcm_log_len < TCM_LOG - 1)
		tcm_log_len += vscnprintf(tcm_log + tcm_log_len,
					  TCM_LOG - tcm_log_len, fmt, args);
	va_end(args);
	spin_unlock_irqrestore(&tcm_lock, flags);
}

/* ---- buffers and verbs objects ---- */

static int tcm_buf_alloc(struct tcm_conn *c, struct tcm_buf *b)
{
	b->va = kzalloc(TCM_BUF, GFP_KERNEL);
	if (!b->va)
		return -ENOMEM;
	b->dma = ib_dma_map_single(c->dev, b->va, TCM_BUF, DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(c->dev, b->dma)) {
		kfree(b->va);
		b->va = NULL;
		return -ENOMEM;
	}
	atomic_inc(&tcm_objs[TCM_BUFS]);
	return 0;
}

static void tcm_buf_free(struct tcm_conn *c, struct tcm_buf *b)
{
	if (!b->va)
		return;
	ib_dma_unmap_single(c->dev, b->dma, TCM_BUF, DMA_BIDIRECTIONAL);
	kfree(b->va);
	b->va = NULL;
	atomic_dec(&tcm_objs[TCM_BUFS]);
}

static void tcm_send_done(struct ib_cq *cq, struct ib_wc *wc);
static void tcm_recv_done(struct ib_cq *cq, struct ib_wc *wc);

/* PD, CQ, QP and buffers of a connection on @id's device. */
static int tcm_conn_setup(struct tcm_conn *c)
{
	struct ib_qp_init_attr attr = {
		.cap = {
			.max_send_wr = 8,
			.max_recv_wr = 4,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.qp_type = c->ud ? IB_QPT_UD : IB_QPT_RC,
	};
	int ret;

	c->dev = c->id->device;
	c->send_cqe.done = tcm_send_done;
	c->recv_cqe.done = tcm_recv_done;
	c->pd = ib_alloc_pd(c->dev, IB_PD_UNSAFE_GLOBAL_RKEY);
	if (IS_ERR(c->pd)) {
		ret = PTR_ERR(c->pd);
		c->pd = NULL;
		return ret;
	}
	atomic_inc(&tcm_objs[TCM_PDS]);
	c->cq = ib_alloc_cq(c->dev, c, TCM_CQE, 0, IB_POLL_WORKQUEUE);
	if (IS_ERR(c->cq)) {
		ret = PTR_ERR(c->cq);
		c->cq = NULL;
		return ret;
	}
	atomic_inc(&tcm_objs[TCM_CQS]);
	attr.send_cq = c->cq;
	attr.recv_cq = c->cq;
	ret = rdma_create_qp(c->id, c->pd, &attr);
	if (ret)
		return ret;
	c->has_qp = true;
	atomic_inc(&tcm_objs[TCM_QPS]);
	ret = tcm_buf_alloc(c, &c->rbuf);
	if (ret)
		return ret;
	if (c->ud)
		return tcm_buf_alloc(c, c->role == TCM_SERVER ? &c->ebuf :
							       &c->sbuf);
	if (c->role == TCM_SERVER)
		return tcm_buf_alloc(c, &c->mbuf) ?: tcm_buf_alloc(c, &c->ebuf);
	return tcm_buf_alloc(c, &c->sbuf) ?: tcm_buf_alloc(c, &c->dbuf);
}

/* Undo tcm_conn_setup(), as far as it went. */
static void tcm_conn_teardown(struct tcm_conn *c)
{
	if (c->has_qp) {
		rdma_destroy_qp(c->id);
		c->has_qp = false;
		atomic_dec(&tcm_objs[TCM_QPS]);
	}
	if (c->cq) {
		ib_free_cq(c->cq);
		c->cq = NULL;
		atomic_dec(&tcm_objs[TCM_CQS]);
	}
	if (c->ah) {
		rdma_destroy_ah(c->ah, RDMA_DESTROY_AH_SLEEPABLE);
		c->ah = NULL;
	}
	if (c->have_ah_attr) {
		rdma_destroy_ah_attr(&c->ah_attr);
		c->have_ah_attr = false;
	}
	tcm_buf_free(c, &c->rbuf);
	tcm_buf_free(c, &c->mbuf);
	tcm_buf_free(c, &c->ebuf);
	tcm_buf_free(c, &c->sbuf);
	tcm_buf_free(c, &c->dbuf);
	if (c->pd) {
		ib_dealloc_pd(c->pd);
		c->pd = NULL;
		atomic_dec(&tcm_objs[TCM_PDS]);
	}
}

static struct tcm_conn *tcm_conn_alloc(enum tcm_role role)
{
	struct tcm_conn *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (!c)
		return NULL;
	c->role = role;
	INIT_LIST_HEAD(&c->entry);
	init_waitqueue_head(&c->waitq);
	init_completion(&c->send_done);
	init_completion(&c->recv_done);
	atomic_inc(&tcm_objs[role == TCM_LISTENER ? TCM_LISTENERS :
						     TCM_CONNS]);
	return c;
}

static void tcm_conn_free(struct tcm_conn *c)
{
	atomic_dec(&tcm_objs[c->role == TCM_LISTENER ? TCM_LISTENERS :
							TCM_CONNS]);
	kfree(c);
}

static void tcm_id_destroy(struct tcm_conn *c)
{
	rdma_destroy_id(c->id);
	c->id = NULL;
	atomic_dec(&tcm_objs[TCM_IDS]);
}

/* Take @c out of its list; false if someone else owns it already. */
static bool tcm_claim(struct tcm_conn *c)
{
	unsigned long flags;
	bool mine = false;

	spin_lock_irqsave(&tcm_lock, flags);
	if (!c->owned) {
		c->owned = true;
		mine = true;
		if (c->listed)
			list_del_init(&c->entry);
		c->listed = false;
	}
	spin_unlock_irqrestore(&tcm_lock, flags);
	return mine;
}

static void tcm_list_add(struct tcm_conn *c, struct list_head *list)
{
	spin_lock_irq(&tcm_lock);
	list_add_tail(&c->entry, list);
	c->listed = true;
	spin_unlock_irq(&tcm_lock);
}

/* ---- work requests ---- */

static int tcm_post_recv(struct tcm_conn *c)
{
	struct ib_sge sge = {
		.addr = c->rbuf.dma,
		.length = TCM_BUF,
		.lkey = c->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = {
		.wr_cqe = &c->recv_cqe,
		.sg_list = &sge,
		.num_sge = 1,
	};

	return ib_post_recv(c->id->qp, &wr, NULL);
}

static int tcm_post_send(struct tcm_conn *c, enum ib_wr_opcode op,
			 struct tcm_buf *b, u32 len, u64 raddr, u32 rkey)
{
	struct ib_sge sge = {
		.addr = b->dma,
		.length = len,
		.lkey = c->pd->local_dma_lkey,
	};
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_cqe = &c->send_cqe,
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = op,
			.send_flags = IB_SEND_SIGNALED,
		},
		.remote_addr = raddr,
		.rkey = rkey,
	};

	return ib_post_send(c->id->qp, &wr.wr, NULL);
}

/* A datagram of @len bytes from @b to the peer @c->ah reaches. */
static int tcm_post_ud(struct tcm_conn *c, struct tcm_buf *b, u32 len)
{
	struct ib_sge sge = {
		.addr = b->dma,
		.length = len,
		.lkey = c->pd->local_dma_lkey,
	};
	struct ib_ud_wr wr = {
		.wr = {
			.wr_cqe = &c->send_cqe,
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = IB_WR_SEND,
			.send_flags = IB_SEND_SIGNALED,
		},
		.ah = c->ah,
		.remote_qpn = c->remote_qpn,
		.remote_qkey = c->remote_qkey,
	};

	return ib_post_send(c->id->qp, &wr.wr, NULL);
}

static void tcm_wc_error(struct tcm_conn *c, const char *what,
			 struct ib_wc *wc)
{
	if (wc->status != IB_WC_WR_FLUSH_ERR)
		tcm_out("%s %s error %s\n", tcm_role_names[c->role], what,
			ib_wc_status_msg(wc->status));
}

static void tcm_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct tcm_conn *c = cq->cq_context;

	if (c->role == TCM_SERVER) {
		if (wc->status != IB_WC_SUCCESS)
			tcm_wc_error(c, "echo", wc);
		/* the echo's address handle; the CQ runs in a work item */
		if (c->ah) {
			rdma_destroy_ah(c->ah, RDMA_DESTROY_AH_SLEEPABLE);
			c->ah = NULL;
		}
		return;
	}
	c->send_status = wc->status;
	complete(&c->send_done);
}

/*
 * A UD server's datagram: back to its sender, through an address handle
 * made from the work completion and the GRH in front of the payload.
 * The CQ is polled in a work item, so the handle may be made sleeping
 * (RoCE resolves the sender's MAC through the neighbour table).
 */
static void tcm_ud_echo(struct tcm_conn *c, struct ib_wc *wc)
{
	u32 len = wc->byte_len - TCM_GRH;
	int ret;

	if (wc->byte_len < TCM_GRH) {
		tcm_out("server error ud datagram of %u bytes\n", wc->byte_len);
		return;
	}
	ib_dma_sync_single_for_cpu(c->dev, c->rbuf.dma, wc->byte_len,
				   DMA_BIDIRECTIONAL);
	memcpy(c->ebuf.va, c->rbuf.va + TCM_GRH, len);
	ib_dma_sync_single_for_device(c->dev, c->ebuf.dma, len,
				      DMA_BIDIRECTIONAL);
	c->ah = ib_create_ah_from_wc(c->pd, wc, c->rbuf.va, c->id->port_num);
	if (IS_ERR(c->ah)) {
		ret = PTR_ERR(c->ah);
		c->ah = NULL;
		tcm_out("server error %d at ud address handle\n", ret);
		return;
	}
	c->remote_qpn = wc->src_qp;
	c->remote_qkey = RDMA_UDP_QKEY;
	ret = tcm_post_recv(c) ?: tcm_post_ud(c, &c->ebuf, len);
	if (ret)
		tcm_out("server error %d cannot echo %u bytes\n", ret, len);
}

static void tcm_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct tcm_conn *c = cq->cq_context;

	if (c->role == TCM_SERVER) {
		if (wc->status != IB_WC_SUCCESS) {
			tcm_wc_error(c, "recv", wc);
			return;
		}
		if (c->ud) {
			tcm_ud_echo(c, wc);
			return;
		}
		/*
		 * Send the payload back from a copy, with the receive posted
		 * again first: the client sends its next one only after the
		 * echo arrived, and iWARP has no receiver-not-ready retry.
		 */
		ib_dma_sync_single_for_cpu(c->dev, c->rbuf.dma, wc->byte_len,
					   DMA_BIDIRECTIONAL);
		memcpy(c->ebuf.va, c->rbuf.va, wc->byte_len);
		ib_dma_sync_single_for_device(c->dev, c->ebuf.dma,
					      wc->byte_len, DMA_BIDIRECTIONAL);
		if (tcm_post_recv(c) ||
		    tcm_post_send(c, IB_WR_SEND, &c->ebuf, wc->byte_len, 0, 0))
			tcm_out("server error cannot echo %u bytes\n",
				wc->byte_len);
		return;
	}
	c->recv_status = wc->status;
	c->recv_len = wc->byte_len;
	complete(&c->recv_done);
}

/* The server's buffer starts with this; the client's first READ checks it. */
static u8 tcm_pattern(unsigned int i)
{
	return (u8)(i * 7 + 3);
}

/* ---- events ---- */

static void tcm_log_event(struct tcm_conn *c, struct rdma_cm_event *ev)
{
	if (c->quiet)
		return;
	tcm_out("%s event %s status %d peer %pISpc\n",
		tcm_role_names[c->role], rdma_event_msg(ev->event),
		ev->status, &c->id->route.addr.dst_addr);
}

/*
 * A connection or listener that ends: free what it has in the handler
 * and let rdma_cm destroy the id (non-zero return).  0 when a command
 * owns it and frees it itself.
 */
static int tcm_gone_in_handler(struct tcm_conn *c)
{
	if (!tcm_claim(c))
		return 0;
	tcm_conn_teardown(c);
	atomic_dec(&tcm_objs[TCM_IDS]);
	tcm_out("%s freed by its handler\n", tcm_role_names[c->role]);
	tcm_conn_free(c);
	return 1;
}

/* CONNECT_REQUEST: @id is the new connection's. */
static int tcm_request(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	bool ud = id->qp_type == IB_QPT_UD;
	const __be32 *magic = ud ? ev->param.ud.private_data :
				   ev->param.conn.private_data;
	u8 magic_len = ud ? ev->param.ud.private_data_len :
			    ev->param.conn.private_data_len;
	struct rdma_conn_param param = {
		.private_data_len = sizeof(struct tcm_rep),
		.responder_resources = min_t(u8, 4,
					     ev->param.conn.initiator_depth),
		.initiator_depth = min_t(u8, 4,
					 ev->param.conn.responder_resources),
	};
	struct tcm_rep rep;
	struct tcm_conn *c;
	unsigned int i;
	int ret = -EPROTO;

	atomic_inc(&tcm_objs[TCM_IDS]);
	if (!magic || magic_len < sizeof(*magic) ||
	    *magic != cpu_to_be32(TCM_MAGIC))
		goto err_reject;
	ret = -ENOMEM;
	c = tcm_conn_alloc(TCM_SERVER);
	if (!c)
		goto err_reject;
	c->id = id;
	c->ud = ud;
	ret = tcm_conn_setup(c);
	if (ret)
		goto err_conn;
	for (i = 0; !ud && i < TCM_BUF; i++)
		((u8 *)c->mbuf.va)[i] = tcm_pattern(i);
	ret = tcm_post_recv(c);
	if (ret)
		goto err_conn;
	rep.magic = cpu_to_be32(TCM_MAGIC);
	rep.rkey = cpu_to_be32(c->pd->unsafe_global_rkey);
	rep.addr = cpu_to_be64(ud ? 0 : c->mbuf.dma);
	param.private_data = &rep;
	id->context = c;
	tcm_list_add(c, &tcm_listeners);
	ret = rdma_accept(id, &param);
	if (ret) {
		/* rdma_accept() rejected by itself */
		tcm_out("server error %d at accept\n", ret);
		return tcm_gone_in_handler(c);
	}
	tcm_out("server accepted %s%pISpc from %pISpc on %s\n",
		ud ? "ud " : "", &id->route.addr.src_addr,
		&id->route.addr.dst_addr, dev_name(&id->device->dev));
	return 0;

err_conn:
	tcm_conn_teardown(c);
	tcm_conn_free(c);
err_reject:
	tcm_out("server error %d at request\n", ret);
	rdma_reject(id, NULL, 0, IB_CM_REJ_CONSUMER_DEFINED);
	atomic_dec(&tcm_objs[TCM_IDS]);
	return 1;
}

static void tcm_client_event(struct tcm_conn *c, struct rdma_cm_event *ev)
{
	const void *pd = c->ud ? ev->param.ud.private_data :
				 ev->param.conn.private_data;
	u8 pd_len = c->ud ? ev->param.ud.private_data_len :
			    ev->param.conn.private_data_len;

	if (ev->event == RDMA_CM_EVENT_ESTABLISHED && pd &&
	    pd_len >= sizeof(c->rep))
		memcpy(&c->rep, pd, sizeof(c->rep));
	/* the SIDR reply: the server's QP, Q_Key and address vector */
	if (ev->event == RDMA_CM_EVENT_ESTABLISHED && c->ud &&
	    !c->have_ah_attr) {
		rdma_copy_ah_attr(&c->ah_attr, &ev->param.ud.ah_attr);
		c->have_ah_attr = true;
		c->remote_qpn = ev->param.ud.qp_num;
		c->remote_qkey = ev->param.ud.qkey;
	}
	if (ev->event == RDMA_CM_EVENT_DISCONNECTED ||
	    ev->event == RDMA_CM_EVENT_DEVICE_REMOVAL)
		WRITE_ONCE(c->disconnected, true);
	c->event = ev->event;
	c->status = ev->status;
	/* pairs with the acquire in tcm_wait(): event and status first */
	smp_store_release(&c->have_event, true);
	wake_up(&c->waitq);
}

static int tcm_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct tcm_conn *c = id->context;

	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST) {
		tcm_out("listener event %s status %d\n",
			rdma_event_msg(ev->event), ev->status);
		return tcm_request(id, ev);
	}
	tcm_log_event(c, ev);
	switch (c->role) {
	case TCM_LISTENER:
		if (ev->event == RDMA_CM_EVENT_DEVICE_REMOVAL)
			return tcm_gone_in_handler(c);
		return 0;
	case TCM_SERVER:
		/* a churn client may go before or after its RTU */
		if (ev->event == RDMA_CM_EVENT_DISCONNECTED ||
		    ev->event == RDMA_CM_EVENT_DEVICE_REMOVAL ||
		    ev->event == RDMA_CM_EVENT_CONNECT_ERROR ||
		    ev->event == RDMA_CM_EVENT_REJECTED ||
		    ev->event == RDMA_CM_EVENT_UNREACHABLE)
			return tcm_gone_in_handler(c);
		return 0;
	default:
		tcm_client_event(c, ev);
		/* a held connection is the handler's to free */
		if (READ_ONCE(c->listed) &&
		    (ev->event == RDMA_CM_EVENT_DISCONNECTED ||
		     ev->event == RDMA_CM_EVENT_DEVICE_REMOVAL))
			return tcm_gone_in_handler(c);
		return 0;
	}
}

/* ---- commands ---- */

static struct net *tcm_net(void)
{
	return current->nsproxy->net_ns;
}

static int tcm_parse_addr(const char *s, u16 port, struct sockaddr_in *sin)
{
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
	if (!in4_pton(s, -1, (u8 *)&sin->sin_addr.s_addr, -1, NULL))
		return -EINVAL;
	return 0;
}

static int tcm_listen(const char *addr, u16 port, bool ud)
{
	struct sockaddr_in sin;
	struct tcm_conn *c;
	int ret;

	ret = tcm_parse_addr(addr, port, &sin);
	if (ret)
		return ret;
	c = tcm_conn_alloc(TCM_LISTENER);
	if (!c)
		return -ENOMEM;
	c->ud = ud;
	c->id = rdma_create_id(tcm_net(), tcm_handler, c,
			       ud ? RDMA_PS_UDP : RDMA_PS_TCP,
			       ud ? IB_QPT_UD : IB_QPT_RC);
	if (IS_ERR(c->id)) {
		ret = PTR_ERR(c->id);
		goto err_free;
	}
	atomic_inc(&tcm_objs[TCM_IDS]);
	ret = rdma_bind_addr(c->id, (struct sockaddr *)&sin);
	if (ret)
		goto err_id;
	ret = rdma_listen(c->id, 8);
	if (ret)
		goto err_id;
	tcm_list_add(c, &tcm_listeners);
	tcm_out("listener%s on %pISpc dev %s\n", ud ? " ud" : "",
		&c->id->route.addr.src_addr,
		c->id->device ? dev_name(&c->id->device->dev) : "(any)");
	return 0;

err_id:
	tcm_id_destroy(c);
err_free:
	tcm_conn_free(c);
	tcm_out("listener error %d on %pISpc\n", ret, &sin);
	return ret;
}

/* Free a connection a command owns; disconnect it first. */
static void tcm_conn_close(struct tcm_conn *c)
{
	/* a client waits for its DISCONNECTED, if one is to come (UD: none) */
	if (c->role != TCM_LISTENER && !c->ud && !rdma_disconnect(c->id) &&
	    c->role == TCM_CLIENT)
		wait_event_timeout(c->waitq, READ_ONCE(c->disconnected),
				   msecs_to_jiffies(TCM_DISC_MS));
	tcm_conn_teardown(c);
	tcm_id_destroy(c);
	tcm_conn_free(c);
}

/* Close everything on @list that no handler has taken. */
static void tcm_close_all(struct list_head *list, bool listeners_first)
{
	struct tcm_conn *c;

	for (;;) {
		spin_lock_irq(&tcm_lock);
		c = NULL;
		if (!list_empty(list)) {
			c = list_first_entry(list, struct tcm_conn, entry);
			if (listeners_first) {
				struct tcm_conn *l;

				list_for_each_entry(l, list, entry) {
					if (l->role == TCM_LISTENER) {
						c = l;
						break;
					}
				}
			}
			c->owned = true;
			c->listed = false;
			list_del_init(&c->entry);
		}
		spin_unlock_irq(&tcm_lock);
		if (!c)
			return;
		tcm_conn_close(c);
	}
}

/* Wait for the event of a step whose call returned @ret. */
static int tcm_wait(struct tcm_conn *c, int ret, enum rdma_cm_event_type want)
{
	if (ret)
		return ret;
	/* pairs with the release in tcm_client_event() */
	if (!wait_event_timeout(c->waitq, smp_load_acquire(&c->have_event),
				msecs_to_jiffies(TCM_STEP_MS)))
		return -ETIMEDOUT;
	if (c->event == want)
		return 0;
	switch (c->event) {
	case RDMA_CM_EVENT_REJECTED:
		return -ECONNREFUSED;
	case RDMA_CM_EVENT_UNREACHABLE:
		return -EHOSTUNREACH;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		return -ENODEV;
	default:
		return c->status ?: -ECONNABORTED;
	}
}

static void tcm_arm(struct tcm_conn *c)
{
	WRITE_ONCE(c->have_event, false);
}

static int tcm_wait_wc(struct completion *done, enum ib_wc_status *status)
{
	if (!wait_for_completion_timeout(done, msecs_to_jiffies(TCM_STEP_MS)))
		return -ETIMEDOUT;
	return *status == IB_WC_SUCCESS ? 0 : -EIO;
}

/* One size: SEND echoed back, READ, WRITE, READ back. */
static int tcm_data(struct tcm_conn *c, u32 len, const char **step)
{
	u64 raddr = be64_to_cpu(c->rep.addr);
	u32 rkey = be32_to_cpu(c->rep.rkey);
	u8 *d = c->dbuf.va;
	unsigned int i;
	int ret;

	*step = "send";
	get_random_bytes(c->sbuf.va, len);
	memset(c->rbuf.va, 0, len);
	reinit_completion(&c->recv_done);
	reinit_completion(&c->send_done);
	ret = tcm_post_recv(c) ?:
	      tcm_post_send(c, IB_WR_SEND, &c->sbuf, len, 0, 0) ?:
	      tcm_wait_wc(&c->send_done, &c->send_status) ?:
	      tcm_wait_wc(&c->recv_done, &c->recv_status);
	if (ret)
		return ret;
	if (c->recv_len != len || memcmp(c->rbuf.va, c->sbuf.va, len))
		return -EILSEQ;
	tcm_out("client send %u ok\n", len);

	*step = "read";
	memset(d, 0, len);
	reinit_completion(&c->send_done);
	ret = tcm_post_send(c, IB_WR_RDMA_READ, &c->dbuf, len, raddr, rkey) ?:
	      tcm_wait_wc(&c->send_done, &c->send_status);
	if (ret)
		return ret;
	for (i = 0; i < len; i++)
		if (d[i] != tcm_pattern(i))
			return -EILSEQ;
	tcm_out("client read %u ok\n", len);

	*step = "write";
	get_random_bytes(c->sbuf.va, len);
	reinit_completion(&c->send_done);
	ret = tcm_post_send(c, IB_WR_RDMA_WRITE, &c->sbuf, len, raddr, rkey) ?:
	      tcm_wait_wc(&c->send_done, &c->send_status);
	if (ret)
		return ret;
	*step = "read back";
	memset(d, 0, len);
	reinit_completion(&c->send_done);
	ret = tcm_post_send(c, IB_WR_RDMA_READ, &c->dbuf, len, raddr, rkey) ?:
	      tcm_wait_wc(&c->send_done, &c->send_status);
	if (ret)
		return ret;
	if (memcmp(d, c->sbuf.va, len))
		return -EILSEQ;
	tcm_out("client write %u ok\n", len);

	/* put the pattern back for the next size's first READ */
	for (i = 0; i < len; i++)
		d[i] = tcm_pattern(i);
	*step = "restore";
	reinit_completion(&c->send_done);
	return tcm_post_send(c, IB_WR_RDMA_WRITE, &c->dbuf, len, raddr,
			     rkey) ?:
	       tcm_wait_wc(&c->send_done, &c->send_status);
}

/* One UD size: a datagram to the server and its echo back. */
static int tcm_ud_data(struct tcm_conn *c, u32 len)
{
	int ret;

	get_random_bytes(c->sbuf.va, len);
	memset(c->rbuf.va, 0, len + TCM_GRH);
	reinit_completion(&c->recv_done);
	reinit_completion(&c->send_done);
	ret = tcm_post_recv(c) ?:
	      tcm_post_ud(c, &c->sbuf, len) ?:
	      tcm_wait_wc(&c->send_done, &c->send_status) ?:
	      tcm_wait_wc(&c->recv_done, &c->recv_status);
	if (ret)
		return ret;
	if (c->recv_len != len + TCM_GRH ||
	    memcmp(c->rbuf.va + TCM_GRH, c->sbuf.va, len))
		return -EILSEQ;
	tcm_out("client ud send %u ok\n", len);
	return 0;
}

/* The UD client's part after the SIDR reply: its address handle, data. */
static int tcm_ud_client(struct tcm_conn *c, const char **step)
{
	unsigned int i;
	int ret;

	*step = "ud address handle";
	if (!c->have_ah_attr)
		return -EPROTO;
	c->ah = rdma_create_ah(c->pd, &c->ah_attr, RDMA_CREATE_AH_SLEEPABLE);
	if (IS_ERR(c->ah)) {
		ret = PTR_ERR(c->ah);
		c->ah = NULL;
		return ret;
	}
	tcm_out("client ud server qpn %u qkey 0x%x\n", c->remote_qpn,
		c->remote_qkey);
	*step = "ud send";
	for (i = 0; i < ARRAY_SIZE(tcm_ud_sizes); i++) {
		ret = tcm_ud_data(c, tcm_ud_sizes[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static s64 tcm_ms(ktime_t start)
{
	return ktime_ms_delta(ktime_get(), start);
}

static int tcm_client(const char *src, const char *dst, u16 port, bool hold,
		      bool ud)
{
	__be32 magic = cpu_to_be32(TCM_MAGIC);
	struct rdma_conn_param param = {
		.private_data = &magic,
		.private_data_len = sizeof(magic),
		.responder_resources = 4,
		.initiator_depth = 4,
		.retry_count = 7,
		.rnr_retry_count = 7,
	};
	ktime_t start = ktime_get();
	struct sockaddr_in s, d;
	const char *step = "address";
	struct tcm_conn *c;
	unsigned int i;
	int ret;

	ret = tcm_parse_addr(src, 0, &s) ?: tcm_parse_addr(dst, port, &d);
	if (ret)
		return ret;
	c = tcm_conn_alloc(TCM_CLIENT);
	if (!c)
		return -ENOMEM;
	c->ud = ud;
	c->id = rdma_create_id(tcm_net(), tcm_handler, c,
			       ud ? RDMA_PS_UDP : RDMA_PS_TCP,
			       ud ? IB_QPT_UD : IB_QPT_RC);
	if (IS_ERR(c->id)) {
		ret = PTR_ERR(c->id);
		tcm_conn_free(c);
		goto out;
	}
	atomic_inc(&tcm_objs[TCM_IDS]);
	tcm_arm(c);
	ret = rdma_resolve_addr(c->id, (struct sockaddr *)&s,
				(struct sockaddr *)&d, TCM_STEP_MS / 2);
	ret = tcm_wait(c, ret, RDMA_CM_EVENT_ADDR_RESOLVED);
	if (ret)
		goto err;
	step = "route";
	tcm_arm(c);
	ret = rdma_resolve_route(c->id, TCM_STEP_MS / 2);
	ret = tcm_wait(c, ret, RDMA_CM_EVENT_ROUTE_RESOLVED);
	if (ret)
		goto err;
	step = "setup";
	ret = tcm_conn_setup(c);
	if (ret)
		goto err;
	step = "connect";
	tcm_arm(c);
	ret = rdma_connect(c->id, &param);
	ret = tcm_wait(c, ret, RDMA_CM_EVENT_ESTABLISHED);
	if (!ret && c->rep.magic != cpu_to_be32(TCM_MAGIC))
		ret = -EPROTO;
	if (ret)
		goto err;
	tcm_out("client connected %pISpc to %pISpc on %s after %lld ms\n",
		&c->id->route.addr.src_addr, &c->id->route.addr.dst_addr,
		dev_name(&c->id->device->dev), tcm_ms(start));
	if (c->id->route.path_rec)
		tcm_out("client path sl %u mtu %d packet_life_time %u\n",
			c->id->route.path_rec->sl,
			ib_mtu_enum_to_int(c->id->route.path_rec->mtu),
			c->id->route.path_rec->packet_life_time);
	if (ud) {
		ret = tcm_ud_client(c, &step);
		if (ret)
			goto err;
		c->owned = true;
		tcm_conn_close(c);
		tcm_out("client done after %lld ms\n", tcm_ms(start));
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(tcm_sizes); i++) {
		ret = tcm_data(c, tcm_sizes[i], &step);
		if (ret)
			goto err;
	}
	tcm_out("client data checked after %lld ms\n", tcm_ms(start));
	if (hold) {
		/* from here on its handler frees it on DEVICE_REMOVAL */
		tcm_list_add(c, &tcm_held);
		tcm_out("client holding\n");
		return 0;
	}
	step = "disconnect";
	tcm_arm(c);
	ret = rdma_disconnect(c->id);
	ret = tcm_wait(c, ret, RDMA_CM_EVENT_DISCONNECTED);
	if (ret)
		goto err;
	c->owned = true;
	tcm_conn_close(c);
	tcm_out("client done after %lld ms\n", tcm_ms(start));
	return 0;

err:
	c->owned = true;
	tcm_conn_close(c);
out:
	tcm_out("client error %d at %s\n", ret, step);
	return ret;
}

#define TCM_CHURN_STOPS	8

/* One churn client, destroyed at @stop; 0 or the error of a waited step. */
static int tcm_churn_one(const struct sockaddr_in *s,
			 const struct sockaddr_in *d, unsigned int stop,
			 unsigned int nr, const char **step)
{
	__be32 magic = cpu_to_be32(TCM_MAGIC);
	struct rdma_conn_param param = {
		.private_data = &magic,
		.private_data_len = sizeof(magic),
		.responder_resources = 4,
		.initiator_depth = 4,
		.retry_count = 7,
		.rnr_retry_count = 7,
	};
	struct tcm_conn *c;
	int ret;

	*step = "create";
	c = tcm_conn_alloc(TCM_CLIENT);
	if (!c)
		return -ENOMEM;
	c->quiet = true;
	c->owned = true;
	c->id = rdma_create_id(tcm_net(), tcm_handler, c, RDMA_PS_TCP,
			       IB_QPT_RC);
	if (IS_ERR(c->id)) {
		ret = PTR_ERR(c->id);
		c->id = NULL;
		tcm_conn_free(c);
		return ret;
	}
	atomic_inc(&tcm_objs[TCM_IDS]);
	ret = 0;
	if (stop == 0)
		goto out;
	*step = "address";
	tcm_arm(c);
	ret = rdma_resolve_addr(c->id, (struct sockaddr *)s,
				(struct sockaddr *)d, TCM_STEP_MS / 2);
	if (ret || stop == 1)
		goto out;
	ret = tcm_wait(c, 0, RDMA_CM_EVENT_ADDR_RESOLVED);
	if (ret || stop == 2)
		goto out;
	*step = "route";
	tcm_arm(c);
	ret = rdma_resolve_route(c->id, TCM_STEP_MS / 2);
	if (ret || stop == 3)
		goto out;
	ret = tcm_wait(c, 0, RDMA_CM_EVENT_ROUTE_RESOLVED) ?:
	      tcm_conn_setup(c);
	if (ret || stop == 4)
		goto out;
	*step = "connect";
	tcm_arm(c);
	ret = rdma_connect(c->id, &param);
	if (ret || stop == 5)
		goto out;
	ret = tcm_wait(c, 0, RDMA_CM_EVENT_ESTABLISHED);
	if (ret || stop == 6)
		goto out;
	*step = "disconnect";
	ret = rdma_disconnect(c->id);
out:
	if (c->id->route.addr.src_addr.ss_family)
		tcm_out("churn client %u stop %u from %pISpc\n", nr, stop,
			&c->id->route.addr.src_addr);
	else
		tcm_out("churn client %u stop %u unbound\n", nr, stop);
	/* QP, id, then the rest: no handler runs on @c after the id */
	if (c->has_qp) {
		rdma_destroy_qp(c->id);
		c->has_qp = false;
		atomic_dec(&tcm_objs[TCM_QPS]);
	}
	tcm_id_destroy(c);
	tcm_conn_teardown(c);
	tcm_conn_free(c);
	return ret;
}

static int tcm_churn(const char *src, const char *dst, u16 port,
		     unsigned int n)
{
	unsigned int stops[TCM_CHURN_STOPS] = {};
	struct sockaddr_in s, d;
	const char *step;
	unsigned int i, stop;
	int ret;

	ret = tcm_parse_addr(src, 0, &s) ?: tcm_parse_addr(dst, port, &d);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		stop = get_random_u32_below(TCM_CHURN_STOPS);
		ret = tcm_churn_one(&s, &d, stop, i, &step);
		if (ret) {
			tcm_out("churn error %d at %s (stop %u of client %u)\n",
				ret, step, stop, i);
			return ret;
		}
		stops[stop]++;
	}
	tcm_out("churn done %u stops %u %u %u %u %u %u %u %u\n", n,
		stops[0], stops[1], stops[2], stops[3], stops[4], stops[5],
		stops[6], stops[7]);
	return 0;
}

static int tcm_command(char *buf)
{
	char *argv[5];
	unsigned int argc = 0;
	char *p = strim(buf), *tok;
	u16 port;

	while ((tok = strsep(&p, " \t")) && argc < ARRAY_SIZE(argv))
		if (*tok)
			argv[argc++] = tok;
	if (tok || !argc)
		return -EINVAL;

	if (!strcmp(argv[0], "listen") && argc == 3)
		return kstrtou16(argv[2], 10, &port) ?:
		       tcm_listen(argv[1], port, false);
	if (!strcmp(argv[0], "udlisten") && argc == 3)
		return kstrtou16(argv[2], 10, &port) ?:
		       tcm_listen(argv[1], port, true);
	if (!strcmp(argv[0], "connect") && argc == 4)
		return kstrtou16(argv[3], 10, &port) ?:
		       tcm_client(argv[1], argv[2], port, false, false);
	if (!strcmp(argv[0], "udconnect") && argc == 4)
		return kstrtou16(argv[3], 10, &port) ?:
		       tcm_client(argv[1], argv[2], port, false, true);
	if (!strcmp(argv[0], "hold") && argc == 4)
		return kstrtou16(argv[3], 10, &port) ?:
		       tcm_client(argv[1], argv[2], port, true, false);
	if (!strcmp(argv[0], "churn") && argc == 5) {
		unsigned int n;

		return kstrtou16(argv[3], 10, &port) ?:
		       kstrtouint(argv[4], 10, &n) ?:
		       tcm_churn(argv[1], argv[2], port, n);
	}
	if (!strcmp(argv[0], "unlisten") && argc == 1) {
		tcm_close_all(&tcm_listeners, true);
		return 0;
	}
	if (!strcmp(argv[0], "release") && argc == 1) {
		tcm_close_all(&tcm_held, false);
		return 0;
	}
	if (!strcmp(argv[0], "clear") && argc == 1) {
		spin_lock_irq(&tcm_lock);
		tcm_log_len = 0;
		tcm_log[0] = '\0';
		spin_unlock_irq(&tcm_lock);
		return 0;
	}
	return -EINVAL;
}

static ssize_t tcm_cmd_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char buf[TCM_CMD_LEN];
	int ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	mutex_lock(&tcm_cmd_mutex);
	ret = tcm_command(buf);
	mutex_unlock(&tcm_cmd_mutex);
	return ret ?: count;
}

static const struct file_operations tcm_cmd_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = tcm_cmd_write,
	.llseek = noop_llseek,
};

static ssize_t tcm_log_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	size_t len;
	char *snap;
	ssize_t ret;

	snap = kmalloc(TCM_LOG, GFP_KERNEL);
	if (!snap)
		return -ENOMEM;
	spin_lock_irq(&tcm_lock);
	len = tcm_log_len;
	memcpy(snap, tcm_log, len);
	spin_unlock_irq(&tcm_lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, snap, len);
	kfree(snap);
	return ret;
}

static const struct file_operations tcm_log_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = tcm_log_read,
	.llseek = default_llseek,
};

static ssize_t tcm_status_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	char buf[256];
	size_t len = 0;
	int i;

	for (i = 0; i < TCM_NOBJ; i++)
		len += scnprintf(buf + len, sizeof(buf) - len, "%s %d\n",
				 tcm_obj_names[i], atomic_read(&tcm_objs[i]));
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations tcm_status_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = tcm_status_read,
	.llseek = default_llseek,
};

static int __init tcm_init(void)
{
	tcm_log = kzalloc(TCM_LOG, GFP_KERNEL);
	if (!tcm_log)
		return -ENOMEM;
	tcm_debugfs = debugfs_create_dir("rdma_test_cm", NULL);
	debugfs_create_file("cmd", 0200, tcm_debugfs, NULL, &tcm_cmd_fops);
	debugfs_create_file("log", 0400, tcm_debugfs, NULL, &tcm_log_fops);
	debugfs_create_file("status", 0400, tcm_debugfs, NULL,
			    &tcm_status_fops);
	return 0;
}

static void __exit tcm_exit(void)
{
	debugfs_remove_recursive(tcm_debugfs);
	tcm_close_all(&tcm_held, false);
	tcm_close_all(&tcm_listeners, true);
	kfree(tcm_log);
}

module_init(tcm_init);
module_exit(tcm_exit);

MODULE_DESCRIPTION("RDMA test ULP: rdma_cm connections checked end to end");
MODULE_LICENSE("Dual BSD/GPL");
