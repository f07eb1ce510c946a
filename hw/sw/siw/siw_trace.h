/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Tracepoints of siw's data path (system siw), at its hand-offs with the
 * rdmavt engine and the socket: a request taken from rdmavt's ring, each
 * FPDU built (from the request's pages or in tx_buf, spliced or copied)
 * and taken by the socket, a READ response started for the peer, a READ
 * of ours answered, a request given back to rdmavt.  With rdmavt's own
 * (system rdmavt) they follow a request from post to completion:
 *   trace-cmd record -e rdmavt -e siw ...; trace-cmd report
 * A request is named by its device, QP number and slot in rdmavt's ring.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM siw

#if !defined(_TRACE_SIW_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SIW_H

#include <linux/tracepoint.h>
#include <rdma/rdma_vt.h>

TRACE_EVENT(siw_xmit_take,
	    TP_PROTO(struct rvt_qp *qp, u32 idx, struct rvt_swqe *wqe),
	    TP_ARGS(qp, idx, wqe),
	    TP_STRUCT__entry(__string(dev, dev_name(&qp->rdi->ibdev.dev))
			     __field(u32, qpn)
			     __field(u32, idx)
			     __field(u32, opcode)
			     __field(u32, length)),
	    TP_fast_assign(__assign_str(dev);
			   __entry->qpn = qp->ibqp.qp_num;
			   __entry->idx = idx;
			   __entry->opcode = wqe->wr.opcode;
			   __entry->length = wqe->length;),
	    TP_printk("%s qp %u slot %u opcode %u len %u", __get_str(dev),
		      __entry->qpn, __entry->idx, __entry->opcode, __entry->length)
);

TRACE_EVENT(siw_fpdu_build,
	    TP_PROTO(struct rvt_qp *qp, int job, u32 idx, u32 len, u32 off,
		     bool pages, bool splice),
	    TP_ARGS(qp, job, idx, len, off, pages, splice),
	    TP_STRUCT__entry(__string(dev, dev_name(&qp->rdi->ibdev.dev))
			     __field(u32, qpn)
			     __field(int, job)
			     __field(u32, idx)
			     __field(u32, len)
			     __field(u32, off)
			     __field(bool, pages)
			     __field(bool, splice)),
	    TP_fast_assign(__assign_str(dev);
			   __entry->qpn = qp->ibqp.qp_num;
			   __entry->job = job;
			   __entry->idx = idx;
			   __entry->len = len;
			   __entry->off = off;
			   __entry->pages = pages;
			   __entry->splice = splice;),
	    TP_printk("%s qp %u job %d slot %u payload %u up to %u %s",
		      __get_str(dev), __entry->qpn, __entry->job, __entry->idx,
		      __entry->len, __entry->off,
		      __entry->splice ? "spliced" :
		      __entry->pages ? "from pages" : "in tx_buf")
);

TRACE_EVENT(siw_fpdu_sent,
	    TP_PROTO(struct rvt_qp *qp, u32 bytes, bool last),
	    TP_ARGS(qp, bytes, last),
	    TP_STRUCT__entry(__string(dev, dev_name(&qp->rdi->ibdev.dev))
			     __field(u32, qpn)
			     __field(u32, bytes)
			     __field(bool, last)),
	    TP_fast_assign(__assign_str(dev);
			   __entry->qpn = qp->ibqp.qp_num;
			   __entry->bytes = bytes;
			   __entry->last = last;),
	    TP_printk("%s qp %u FPDU of %u bytes taken by the socket%s",
		      __get_str(dev), __entry->qpn, __entry->bytes,
		      __entry->last ? ", last of its message" : "")
);

TRACE_EVENT(siw_rresp_start,
	    TP_PROTO(struct rvt_qp *qp, u32 msn, u32 len),
	    TP_ARGS(qp, msn, len),
	    TP_STRUCT__entry(__string(dev, dev_name(&qp->rdi->ibdev.dev))
			     __field(u32, qpn)
			     __field(u32, msn)
			     __field(u32, len)),
	    TP_fast_assign(__assign_str(dev);
			   __entry->qpn = qp->ibqp.qp_num;
			   __entry->msn = msn;
			   __entry->len = len;),
	    TP_printk("%s qp %u READ response to MSN %u, %u bytes",
		      __get_str(dev), __entry->qpn, __entry->msn, __entry->len)
);

DECLARE_EVENT_CLASS(siw_wqe_status_class,
		    TP_PROTO(struct rvt_qp *qp, u32 idx, enum ib_wc_status status),
		    TP_ARGS(qp, idx, status),
		    TP_STRUCT__entry(__string(dev, dev_name(&qp->rdi->ibdev.dev))
				     __field(u32, qpn)
				     __field(u32, idx)
				     __field(u32, status)),
		    TP_fast_assign(__assign_str(dev);
				   __entry->qpn = qp->ibqp.qp_num;
				   __entry->idx = idx;
				   __entry->status = status;),
		    TP_printk("%s qp %u slot %u status %s", __get_str(dev),
			      __entry->qpn, __entry->idx,
			      ib_wc_status_msg(__entry->status))
);

/* a READ of ours got its whole response (or a TERMINATE about it) */
DEFINE_EVENT(siw_wqe_status_class, siw_read_done,
	     TP_PROTO(struct rvt_qp *qp, u32 idx, enum ib_wc_status status),
	     TP_ARGS(qp, idx, status)
);
/* a request goes back to rdmavt (rvt_send_complete()) */
DEFINE_EVENT(siw_wqe_status_class, siw_wqe_done,
	     TP_PROTO(struct rvt_qp *qp, u32 idx, enum ib_wc_status status),
	     TP_ARGS(qp, idx, status)
);

#endif /* _TRACE_SIW_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE siw_trace

#include <trace/define_trace.h>
