/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Tracepoints of the rdmavt send engine (system rdmavt) at its hand-offs
 * with a wire driver: a request handed to xmit_wqe (or refused with
 * -EBUSY), a REG_MR executed ahead of its completion, a request
 * retired (completed by the driver, executed or flushed by the
 * engine), the engine waiting in the error state for the
 * driver to give its requests back, the driver's xmit_stop, and a
 * fault of on-demand paging memory a request missed.  Follow
 * one QP with
 *   trace-cmd record -e rdmavt -e siw ...; trace-cmd report
 * A request is named by its device, QP number and slot in the send ring.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rdmavt

#if !defined(_TRACE_RDMAVT_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_RDMAVT_H

#include <linux/tracepoint.h>
#include <rdma/rdma_vt.h>

DECLARE_EVENT_CLASS(rvt_wqe_class,
		    TP_PROTO(struct rvt_qp *qp, struct rvt_swqe *wqe, int ret),
		    TP_ARGS(qp, wqe, ret),
		    TP_STRUCT__entry(__string(dev, dev_name(&qp->rdi->ibdev.dev))
				     __field(u32, qpn)
				     __field(u32, idx)
				     __field(u64, wr_id)
				     __field(u32, opcode)
				     __field(u32, length)
				     __field(int, ret)),
		    TP_fast_assign(__assign_str(dev);
				   __entry->qpn = qp->ibqp.qp_num;
				   __entry->idx = rvt_swqe_index(qp, wqe);
				   __entry->wr_id = wqe->wr.wr_id;
				   __entry->opcode = wqe->wr.opcode;
				   __entry->length = wqe->length;
				   __entry->ret = ret;),
		    TP_printk("%s qp %u slot %u wr_id 0x%llx opcode %u len %u ret %d",
			      __get_str(dev), __entry->qpn, __entry->idx, __entry->wr_id,
			      __entry->opcode, __entry->length, __entry->ret)
);

/* a request goes to the driver's xmit_wqe (ret 0), or comes back busy */
DEFINE_EVENT(rvt_wqe_class, rvt_xmit_wqe,
	     TP_PROTO(struct rvt_qp *qp, struct rvt_swqe *wqe, int ret),
	     TP_ARGS(qp, wqe, ret)
);
DEFINE_EVENT(rvt_wqe_class, rvt_xmit_busy,
	     TP_PROTO(struct rvt_qp *qp, struct rvt_swqe *wqe, int ret),
	     TP_ARGS(qp, wqe, ret)
);
/*
 * a REG_MR executed ahead of the requests in flight before it
 * (driver_f.xmit_local); ret is its status, its completion comes later
 */
DEFINE_EVENT(rvt_wqe_class, rvt_local_ahead,
	     TP_PROTO(struct rvt_qp *qp, struct rvt_swqe *wqe, int ret),
	     TP_ARGS(qp, wqe, ret)
);

DECLARE_EVENT_CLASS(rvt_retire_class,
		    TP_PROTO(struct rvt_qp *qp, struct rvt_swqe *wqe,
			     enum ib_wc_status status, bool signaled),
		    TP_ARGS(qp, wqe, status, signaled),
		    TP_STRUCT__entry(__string(dev, dev_name(&qp->rdi->ibdev.dev))
				     __field(u32, qpn)
				     __field(u32, idx)
				     __field(u64, wr_id)
				     __field(u32, status)
				     __field(bool, signaled)),
		    TP_fast_assign(__assign_str(dev);
				   __entry->qpn = qp->ibqp.qp_num;
				   __entry->idx = rvt_swqe_index(qp, wqe);
				   __entry->wr_id = wqe->wr.wr_id;
				   __entry->status = status;
				   __entry->signaled = signaled;),
		    TP_printk("%s qp %u slot %u wr_id 0x%llx status %s%s",
			      __get_str(dev), __entry->qpn, __entry->idx, __entry->wr_id,
			      ib_wc_status_msg(__entry->status),
			      __entry->signaled ? "" : " (no CQE)")
);

/* the driver gave a request back with rvt_send_complete() */
DEFINE_EVENT(rvt_retire_class, rvt_send_complete,
	     TP_PROTO(struct rvt_qp *qp, struct rvt_swqe *wqe,
		      enum ib_wc_status status, bool signaled),
	     TP_ARGS(qp, wqe, status, signaled)
);
/* the engine retired a request it executed or never handed over */
DEFINE_EVENT(rvt_retire_class, rvt_sq_retire,
	     TP_PROTO(struct rvt_qp *qp, struct rvt_swqe *wqe,
		      enum ib_wc_status status, bool signaled),
	     TP_ARGS(qp, wqe, status, signaled)
);

DECLARE_EVENT_CLASS(rvt_sq_class,
		    TP_PROTO(struct rvt_qp *qp, u32 sq_tail, u32 sq_cur, u32 sq_head),
		    TP_ARGS(qp, sq_tail, sq_cur, sq_head),
		    TP_STRUCT__entry(__string(dev, dev_name(&qp->rdi->ibdev.dev))
				     __field(u32, qpn)
				     __field(u32, tail)
				     __field(u32, cur)
				     __field(u32, head)),
		    TP_fast_assign(__assign_str(dev);
				   __entry->qpn = qp->ibqp.qp_num;
				   __entry->tail = sq_tail;
				   __entry->cur = sq_cur;
				   __entry->head = sq_head;),
		    TP_printk("%s qp %u tail %u cur %u head %u", __get_str(dev),
			      __entry->qpn, __entry->tail, __entry->cur, __entry->head)
);

/* error state: the flush waits for the driver's requests (tail..cur) */
DEFINE_EVENT(rvt_sq_class, rvt_flush_wait,
	     TP_PROTO(struct rvt_qp *qp, u32 sq_tail, u32 sq_cur, u32 sq_head),
	     TP_ARGS(qp, sq_tail, sq_cur, sq_head)
);
/* RESET or destroy: the driver's xmit_stop ends its hold on tail..cur */
DEFINE_EVENT(rvt_sq_class, rvt_xmit_stop,
	     TP_PROTO(struct rvt_qp *qp, u32 sq_tail, u32 sq_cur, u32 sq_head),
	     TP_ARGS(qp, sq_tail, sq_cur, sq_head)
);

/*
 * the send work faulted in the pages of an on-demand paging MR the
 * request at sq_tail missed (ret 0), or could not (a negative errno:
 * the request completes in error)
 */
TRACE_EVENT(rvt_odp_fault,
	    TP_PROTO(struct rvt_qp *qp, struct rvt_odp_miss *miss, int ret),
	    TP_ARGS(qp, miss, ret),
	    TP_STRUCT__entry(__string(dev, dev_name(&qp->rdi->ibdev.dev))
			     __field(u32, qpn)
			     __field(u32, lkey)
			     __field(u64, uva)
			     __field(u32, len)
			     __field(bool, write)
			     __field(bool, remote)
			     __field(int, ret)),
	    TP_fast_assign(__assign_str(dev);
			   __entry->qpn = qp->ibqp.qp_num;
			   __entry->lkey = miss->mr->lkey;
			   __entry->uva = miss->uva;
			   __entry->len = miss->len;
			   __entry->write = miss->write;
			   __entry->remote = miss->remote;
			   __entry->ret = ret;),
	    TP_printk("%s qp %u key 0x%x uva 0x%llx len %u %s %s ret %d",
		      __get_str(dev), __entry->qpn, __entry->lkey, __entry->uva,
		      __entry->len, __entry->write ? "write" : "read",
		      __entry->remote ? "remote" : "local", __entry->ret)
);

#endif /* _TRACE_RDMAVT_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace

#include <trace/define_trace.h>
