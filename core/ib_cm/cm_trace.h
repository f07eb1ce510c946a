/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Tracepoints of the IB connection manager (system ib_cm): each state
 * change of a CM ID, each CM message sent or received, each event given
 * to a consumer's handler and each send that ended in error.  Follow a
 * connection with
 *   trace-cmd record -e ib_cm ...; trace-cmd report
 * A CM ID is named by its local and remote communication IDs (as on the
 * wire); a message by its attribute (REQ, REP, ...).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ib_cm

#if !defined(_TRACE_IB_CM_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_IB_CM_H

#include <linux/tracepoint.h>
#include <linux/unaligned.h>
#include <rdma/ib_cm.h>

#define ibcm_show_state(s)						\
	__print_symbolic(s,						\
		{ IB_CM_IDLE, "IDLE" }, { IB_CM_LISTEN, "LISTEN" },	\
		{ IB_CM_REQ_SENT, "REQ_SENT" },				\
		{ IB_CM_REQ_RCVD, "REQ_RCVD" },				\
		{ IB_CM_MRA_REQ_SENT, "MRA_REQ_SENT" },			\
		{ IB_CM_MRA_REQ_RCVD, "MRA_REQ_RCVD" },			\
		{ IB_CM_REP_SENT, "REP_SENT" },				\
		{ IB_CM_REP_RCVD, "REP_RCVD" },				\
		{ IB_CM_MRA_REP_SENT, "MRA_REP_SENT" },			\
		{ IB_CM_MRA_REP_RCVD, "MRA_REP_RCVD" },			\
		{ IB_CM_ESTABLISHED, "ESTABLISHED" },			\
		{ IB_CM_DREQ_SENT, "DREQ_SENT" },			\
		{ IB_CM_DREQ_RCVD, "DREQ_RCVD" },			\
		{ IB_CM_TIMEWAIT, "TIMEWAIT" },				\
		{ IB_CM_SIDR_REQ_SENT, "SIDR_REQ_SENT" },		\
		{ IB_CM_SIDR_REQ_RCVD, "SIDR_REQ_RCVD" })

#define ibcm_show_attr(a)						\
	__print_symbolic(a,						\
		{ 0x10, "REQ" }, { 0x11, "MRA" }, { 0x12, "REJ" },	\
		{ 0x13, "REP" }, { 0x14, "RTU" }, { 0x15, "DREQ" },	\
		{ 0x16, "DREP" }, { 0x17, "SIDR_REQ" },			\
		{ 0x18, "SIDR_REP" }, { 0x19, "LAP" }, { 0x1a, "APR" })

#define ibcm_show_event(e)						\
	__print_symbolic(e,						\
		{ IB_CM_REQ_ERROR, "REQ_ERROR" },			\
		{ IB_CM_REQ_RECEIVED, "REQ_RECEIVED" },			\
		{ IB_CM_REP_ERROR, "REP_ERROR" },			\
		{ IB_CM_REP_RECEIVED, "REP_RECEIVED" },			\
		{ IB_CM_RTU_RECEIVED, "RTU_RECEIVED" },			\
		{ IB_CM_USER_ESTABLISHED, "USER_ESTABLISHED" },		\
		{ IB_CM_DREQ_ERROR, "DREQ_ERROR" },			\
		{ IB_CM_DREQ_RECEIVED, "DREQ_RECEIVED" },		\
		{ IB_CM_DREP_RECEIVED, "DREP_RECEIVED" },		\
		{ IB_CM_TIMEWAIT_EXIT, "TIMEWAIT_EXIT" },		\
		{ IB_CM_MRA_RECEIVED, "MRA_RECEIVED" },			\
		{ IB_CM_REJ_RECEIVED, "REJ_RECEIVED" },			\
		{ IB_CM_LAP_ERROR, "LAP_ERROR" },			\
		{ IB_CM_LAP_RECEIVED, "LAP_RECEIVED" },			\
		{ IB_CM_APR_RECEIVED, "APR_RECEIVED" },			\
		{ IB_CM_SIDR_REQ_ERROR, "SIDR_REQ_ERROR" },		\
		{ IB_CM_SIDR_REQ_RECEIVED, "SIDR_REQ_RECEIVED" },	\
		{ IB_CM_SIDR_REP_RECEIVED, "SIDR_REP_RECEIVED" })

TRACE_EVENT(ibcm_state,
	    TP_PROTO(const struct ib_cm_id *id, int old, int new),
	    TP_ARGS(id, old, new),
	    TP_STRUCT__entry(__field(u32, local_id)
			     __field(u32, remote_id)
			     __field(int, old)
			     __field(int, new)),
	    TP_fast_assign(__entry->local_id = be32_to_cpu(id->local_id);
			   __entry->remote_id = be32_to_cpu(id->remote_id);
			   __entry->old = old;
			   __entry->new = new;),
	    TP_printk("local_id=0x%08x remote_id=0x%08x %s -> %s",
		      __entry->local_id, __entry->remote_id,
		      ibcm_show_state(__entry->old),
		      ibcm_show_state(__entry->new)));

DECLARE_EVENT_CLASS(ibcm_msg_class,
		    TP_PROTO(const struct ib_device *dev, u32 port,
			     const struct ib_mad_hdr *hdr),
		    TP_ARGS(dev, port, hdr),
		    TP_STRUCT__entry(__string(dev, dev_name(&dev->dev))
				     __field(u32, port)
				     __field(u16, attr)
				     __field(u32, id0)
				     __field(u32, id1)
				     __field(u64, tid)),
		    TP_fast_assign(const u8 *d = (const u8 *)(hdr + 1);

				   __assign_str(dev);
				   __entry->port = port;
				   __entry->attr = be16_to_cpu(hdr->attr_id);
				   __entry->id0 = get_unaligned_be32(d);
				   __entry->id1 = get_unaligned_be32(d + 4);
				   __entry->tid = be64_to_cpu(hdr->tid);),
		    TP_printk("%s:%u %s local_id=0x%08x remote_id=0x%08x tid=0x%llx",
			      __get_str(dev), __entry->port,
			      ibcm_show_attr(__entry->attr), __entry->id0,
			      __entry->id1, __entry->tid));

DEFINE_EVENT(ibcm_msg_class, ibcm_send,
	     TP_PROTO(const struct ib_device *dev, u32 port,
		      const struct ib_mad_hdr *hdr),
	     TP_ARGS(dev, port, hdr));
DEFINE_EVENT(ibcm_msg_class, ibcm_recv,
	     TP_PROTO(const struct ib_device *dev, u32 port,
		      const struct ib_mad_hdr *hdr),
	     TP_ARGS(dev, port, hdr));

TRACE_EVENT(ibcm_event,
	    TP_PROTO(const struct ib_cm_id *id, int event, int ret),
	    TP_ARGS(id, event, ret),
	    TP_STRUCT__entry(__field(u32, local_id)
			     __field(u32, remote_id)
			     __field(int, event)
			     __field(int, ret)),
	    TP_fast_assign(__entry->local_id = be32_to_cpu(id->local_id);
			   __entry->remote_id = be32_to_cpu(id->remote_id);
			   __entry->event = event;
			   __entry->ret = ret;),
	    TP_printk("local_id=0x%08x remote_id=0x%08x %s handler=%d",
		      __entry->local_id, __entry->remote_id,
		      ibcm_show_event(__entry->event), __entry->ret));

TRACE_EVENT(ibcm_send_done,
	    TP_PROTO(const struct ib_mad_hdr *hdr, int status, int retries),
	    TP_ARGS(hdr, status, retries),
	    TP_STRUCT__entry(__field(u16, attr)
			     __field(int, status)
			     __field(int, retries)),
	    TP_fast_assign(__entry->attr = be16_to_cpu(hdr->attr_id);
			   __entry->status = status;
			   __entry->retries = retries;),
	    TP_printk("%s status=%d retries=%d",
		      ibcm_show_attr(__entry->attr), __entry->status,
		      __entry->retries));

#endif /* _TRACE_IB_CM_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE cm_trace

#include <trace/define_trace.h>
