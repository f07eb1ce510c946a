/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The MAD layer of ib_core: what its files share.
 *
 *   mad_port.c   the client: QP0 and QP1 of every port, their CQ and PD,
 *                and the port's responder (replies of process_mad and
 *                of nobody)
 *   mad_agent.c  agents: registration, the method table, finding the
 *                agent of a received MAD
 *   mad_send.c   send buffers, posting, send completions, waiting for
 *                responses, timeouts, retries, cancel
 *   mad_local.c  directed-route SMPs the local device answers itself
 *   mad_recv.c   receive buffers, validation, SMI, process_mad,
 *                dispatch to agents and response matching
 *   mad_rmpp.c   RMPP (segmented transfers) of kernel RMPP agents
 *   mad_rmpp_recv.c  their reassembly
 *   mad_util.c   the class helpers (ib_response_mad(), ...)
 *
 * Lock order (innermost last):
 *   ib_mad_port_private.reg_mutex     registration and unregistration
 *     ib_mad_agent_private.lock       the agent's send, wait, local and
 *                                     RMPP lists (irqsave: posting is
 *                                     allowed from any context)
 *       ib_mad_qp_info.send_lock      a QP's posted and overflow sends
 *   ib_mad_qp_info.recv_lock          a QP's posted receive buffers (by
 *                                     itself)
 * Completions run on the port's CQ (IB_POLL_UNBOUND_WORKQUEUE), timeouts
 * and local completions on the port's ordered workqueue: handlers are
 * called in process context with no lock of ours held.
 */
#ifndef RDMA_CORE_MAD_PRIV_H
#define RDMA_CORE_MAD_PRIV_H

#include <linux/completion.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>

/* Depths of a MAD QP's queues (module parameters of ib_core). */
extern int ib_mad_sendq_size;
extern int ib_mad_recvq_size;

#define IB_MAD_QP_COUNT		2	/* QP0 (SMI) and QP1 (GSI) */
#define IB_MAD_MAX_VERSION	8	/* class versions an agent may use */
#define IB_MAD_MAX_OUI		16	/* vendor OUIs registered per port */

struct ib_mad_port_private;
struct ib_mad_qp_info;

/* Vendor classes of range 2 (0x30..0x4f) carry an OUI and may use RMPP. */
static inline bool ib_mad_class_is_vendor2(u8 mgmt_class)
{
	return mgmt_class >= IB_MGMT_CLASS_VENDOR_RANGE2_START &&
	       mgmt_class <= IB_MGMT_CLASS_VENDOR_RANGE2_END;
}

/*
 * What a posted work request (send or receive) of a MAD QP starts with:
 * its completion entry and its place on the QP's list of posted ones.
 */
struct ib_mad_list_head {
	struct list_head	list;
	struct ib_cqe		cqe;
	struct ib_mad_qp_info	*qp_info;
};

/**
 * struct ib_mad_private - a receive buffer and the MAD it received
 * @mad_list: on the QP's @recv_posted while posted
 * @mapping: DMA address of @grh while posted
 * @wc: the receive's work completion
 * @recv_wc: what the agent is handed
 * @mad_size: bytes of @mad
 * @grh: the GRH slot of a UD receive
 * @mad: the MAD
 */
struct ib_mad_private {
	struct ib_mad_list_head	mad_list;
	u64			mapping;
	struct ib_wc		wc;
	struct ib_mad_recv_wc	recv_wc;
	size_t			mad_size;
	struct ib_grh		grh;
	u8			mad[] __aligned(8);
};

/**
 * struct ib_mad_qp_info - QP0 or QP1 of a port
 * @port_priv: the port
 * @qp: the QP (NULL: the port has no such QP, e.g. QP0 on RoCE)
 * @send_lock: protects @send_posted, @send_overflow and @send_count
 * @send_posted: sends on the QP, in posting order
 * @send_overflow: sends waiting for room on the QP
 * @send_count: length of @send_posted
 * @recv_lock: protects @recv_posted and @recv_count
 * @recv_posted: receive buffers on the QP
 * @recv_count: length of @recv_posted
 * @recv_chunks: the receive ring's memory, ib_mad_recvq_size buffers in
 *	chunks of IB_MAD_RECV_CHUNK (see ib_mad_open_receives()); its
 *	buffers stay the QP's and are posted again in place
 * @recv_nchunks: entries of @recv_chunks
 */
struct ib_mad_qp_info {
	struct ib_mad_port_private	*port_priv;
	struct ib_qp			*qp;
	spinlock_t			send_lock;	/* see above */
	struct list_head		send_posted;
	struct list_head		send_overflow;
	int				send_count;
	spinlock_t			recv_lock;	/* see above */
	struct list_head		recv_posted;
	int				recv_count;
	void				**recv_chunks;
	unsigned int			recv_nchunks;
};

/**
 * struct ib_mad_port_private - the MAD layer's state of one port
 * @device: the device
 * @port_num: the port
 * @cq: completions of both QPs
 * @pd: their protection domain (local DMA key)
 * @wq: timeouts and local completions, ordered
 * @qp_info: QP0 and QP1
 * @reg_mutex: serialises registrations; readers of @methods use RCU
 * @methods: agent of each (class version, class, OUI slot, method) of
 *	unsolicited MADs, see ib_mad_method_key()
 * @oui: vendor OUIs with registrations, @oui_users counts them per slot
 * @oui_users: registrations that use each @oui slot
 * @responder: per QP, the agent that sends process_mad's replies and
 *	the "unsupported" answers of MADs nobody takes
 * @outstanding: work requests posted on the QPs whose completion handler
 *	has not finished; closing waits for 0 (wait_var_event())
 * @closing: the port is going away: no receive is posted any more (read
 *	under the QP's recv_lock by posters)
 */
struct ib_mad_port_private {
	struct ib_device	*device;
	u32			port_num;
	struct ib_cq		*cq;
	struct ib_pd		*pd;
	struct workqueue_struct	*wq;
	struct ib_mad_qp_info	qp_info[IB_MAD_QP_COUNT];
	struct mutex		reg_mutex;	/* see above */
	struct xarray		methods;
	u8			oui[IB_MAD_MAX_OUI][3];
	unsigned int		oui_users[IB_MAD_MAX_OUI];
	struct ib_mad_agent	*responder[IB_MAD_QP_COUNT];
	atomic_t		outstanding;
	bool			closing;
};

/**
 * struct ib_mad_agent_private - an agent and its outstanding work
 * @agent: what the user holds
 * @reg_req: the registration (NULL: sends and responses only)
 * @qp_info: the QP it uses
 * @port_priv: the port
 * @lock: protects the lists and the send states (see mad_priv.h)
 * @send_list: sends posted and not yet completed by the QP, or waiting
 *	for the RMPP window
 * @wait_list: sends completed by the QP that wait for a response, by
 *	deadline
 * @local_list: directed-route SMPs the local device answered
 * @rmpp_list: RMPP receives in progress (mad_rmpp.c)
 * @timed_work: expires @wait_list
 * @local_work: delivers @local_list
 * @refcount: users: the registration, each send buffer, each MAD being
 *	delivered; unregistration waits for @comp
 * @comp: @refcount reached zero
 * @unregistering: no more sends are accepted
 * @rcu: frees the agent after readers of the tables are gone
 */
struct ib_mad_agent_private {
	struct ib_mad_agent		agent;
	struct ib_mad_reg_req		*reg_req;
	struct ib_mad_qp_info		*qp_info;
	struct ib_mad_port_private	*port_priv;
	spinlock_t			lock;	/* see above */
	struct list_head		send_list;
	struct list_head		wait_list;
	struct list_head		local_list;
	struct list_head		rmpp_list;
	struct delayed_work		timed_work;
	struct work_struct		local_work;
	refcount_t			refcount;
	struct completion		comp;
	bool				unregistering;
	struct rcu_head			rcu;
};

/* One RMPP segment of a send (ib_get_rmpp_segment()). */
struct ib_rmpp_segment {
	struct list_head	list;
	u32			num;
	u8			data[];
};

/**
 * struct ib_mad_send_wr_private - a send buffer and its state
 * @mad_list: the work request on the QP
 * @agent_list: on the agent's @send_list or @wait_list
 * @mad_agent_priv: the agent
 * @send_buf: what the user holds
 * @header_mapping: DMA address of the headers while posted
 * @payload_mapping: DMA address of the payload while posted
 * @send_wr: the UD work request
 * @sg_list: headers and payload
 * @tid: the transaction ID (of the MAD as posted)
 * @timeout: how long one wait for the response lasts, in jiffies
 * @deadline: when the current wait ends (on @wait_list)
 * @max_retries: resends allowed
 * @retries_left: resends left
 * @pending: what the send still waits for: the QP's completion (1) and
 *	the response (1 when one is expected); done at 0
 * @status: how it ends (IB_WC_SUCCESS unless something failed)
 * @done: its response came (or RMPP ended it, ib_mark_mad_done()): it
 *	only waits for the QP and its agent's handlers, and cancelling it
 *	(ib_modify_mad(), unregistration) changes nothing any more
 * @pad: zero bytes after the payload in the last segment
 * @rmpp_list: the RMPP segments (kernel RMPP sends)
 * @last_ack: RMPP: last segment the receiver acknowledged
 * @seg_num: RMPP: the segment being sent
 * @newwin: RMPP: last segment the window allows
 * @cur_seg: RMPP: the segment @seg_num
 * @last_ack_seg: RMPP: the segment @last_ack
 */
struct ib_mad_send_wr_private {
	struct ib_mad_list_head		mad_list;
	struct list_head		agent_list;
	struct ib_mad_agent_private	*mad_agent_priv;
	struct ib_mad_send_buf		send_buf;
	u64				header_mapping;
	u64				payload_mapping;
	struct ib_ud_wr			send_wr;
	struct ib_sge			sg_list[2];
	__be64				tid;
	unsigned long			timeout;
	unsigned long			deadline;
	int				max_retries;
	int				retries_left;
	int				pending;
	enum ib_wc_status		status;
	bool				done;
	int				pad;

	struct list_head		rmpp_list;
	int				last_ack;
	int				seg_num;
	int				newwin;
	struct ib_rmpp_segment		*cur_seg;
	struct ib_rmpp_segment		*last_ack_seg;
};

/* mad_port.c */
struct ib_mad_port_private *ib_mad_get_port(struct ib_device *device,
					    u32 port_num);
int ib_mad_send_response(struct ib_mad_port_private *port_priv,
			 struct ib_mad_qp_info *qp_info,
			 const struct ib_wc *wc, const struct ib_grh *grh,
			 const void *mad, size_t mad_size, u32 port_num);

/* mad_agent.c */
struct ib_mad_agent_private *ib_mad_find_agent(struct ib_mad_port_private *pp,
					       const struct ib_mad_hdr *hdr);
void ib_mad_agent_put(struct ib_mad_agent_private *priv);
static inline void ib_mad_agent_get(struct ib_mad_agent_private *priv)
{
	refcount_inc(&priv->refcount);
}

static inline struct ib_mad_agent_private *
to_agent_priv(const struct ib_mad_agent *agent)
{
	return container_of(agent, struct ib_mad_agent_private, agent);
}

/* mad_send.c */
static inline struct ib_mad_send_wr_private *
to_send_wr(struct ib_mad_send_buf *send_buf)
{
	return container_of(send_buf, struct ib_mad_send_wr_private,
			    send_buf);
}

int ib_send_mad(struct ib_mad_send_wr_private *mad_send_wr);
void ib_mad_send_done(struct ib_cq *cq, struct ib_wc *wc);
void ib_mad_complete_send_wr(struct ib_mad_send_wr_private *mad_send_wr,
			     struct ib_mad_send_wc *mad_send_wc);
struct ib_mad_send_wr_private *
ib_find_send_mad(struct ib_mad_agent_private *priv,
		 const struct ib_mad_recv_wc *wc);
void ib_mark_mad_done(struct ib_mad_send_wr_private *mad_send_wr);
void ib_reset_mad_timeout(struct ib_mad_send_wr_private *mad_send_wr,
			  unsigned long timeout_ms);
void ib_mad_timeout_sends(struct work_struct *work);
void ib_mad_cancel_sends(struct ib_mad_agent_private *priv);
void ib_mad_flush_send_queue(struct ib_mad_qp_info *qp_info);

/* mad_local.c */
int ib_mad_handle_outgoing_dr_smp(struct ib_mad_agent_private *priv,
				  struct ib_mad_send_wr_private *mad_send_wr);
void ib_mad_local_completions(struct work_struct *work);
void ib_mad_cancel_local(struct ib_mad_agent_private *priv);

/* mad_recv.c */
struct ib_mad_private *ib_mad_alloc_private(size_t mad_size, gfp_t gfp);
int ib_mad_open_receives(struct ib_mad_qp_info *qp_info);
void ib_mad_cleanup_receives(struct ib_mad_qp_info *qp_info);
void ib_mad_recv_done(struct ib_cq *cq, struct ib_wc *wc);
void ib_mad_complete_recv(struct ib_mad_agent_private *priv,
			  struct ib_mad_recv_wc *mad_recv_wc);

/* mad_rmpp.c: results of ib_send_rmpp_mad() and friends */
enum {
	IB_RMPP_RESULT_PROCESSED,	/* go on as with any MAD */
	IB_RMPP_RESULT_CONSUMED,	/* RMPP took it; nothing more to do */
	IB_RMPP_RESULT_INTERNAL,	/* an RMPP packet of the layer's own */
	IB_RMPP_RESULT_UNHANDLED,	/* not RMPP: go on as with any MAD */
};

int ib_send_rmpp_mad(struct ib_mad_send_wr_private *mad_send_wr);
struct ib_mad_recv_wc *
ib_process_rmpp_recv_wc(struct ib_mad_agent_private *priv,
			struct ib_mad_recv_wc *mad_recv_wc);
int ib_process_rmpp_send_wc(struct ib_mad_send_wr_private *mad_send_wr,
			    struct ib_mad_send_wc *mad_send_wc);
void ib_rmpp_send_handler(struct ib_mad_send_wc *mad_send_wc);
void ib_cancel_rmpp_recvs(struct ib_mad_agent_private *priv);
int ib_retry_rmpp(struct ib_mad_send_wr_private *mad_send_wr);

#endif /* RDMA_CORE_MAD_PRIV_H */
