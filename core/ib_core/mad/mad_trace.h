/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Trace events of the MAD layer (system ib_mad, the event names upstream
 * uses), so that management traffic can be followed with trace-cmd:
 *
 *	trace-cmd record -e ib_mad ...
 *
 * A send is traced when it is handed to the QP (ib_mad_ib_send_mad),
 * sent again after a timeout (ib_mad_send_done_resend), refused by the
 * QP (ib_mad_error_handler, with the errno) and completed by the QP
 * (ib_mad_send_done_handler, with the completion status); a receive when
 * the QP completes it (ib_mad_recv_done_handler) and when an agent is
 * handed it (ib_mad_recv_done_agent); a send's end when its agent is
 * told (ib_mad_send_done_agent); agents when they come and go;
 * directed-route SMPs as they arrive and as the local device answers
 * them.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ib_mad

#if !defined(_TRACE_IB_MAD_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_IB_MAD_H

#include <linux/tracepoint.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>
#include "mad_priv.h"

#ifndef MAD_WR_HDR
/* the MAD header of a send */
#define MAD_WR_HDR(wr) ((const struct ib_mad_hdr *)(wr)->send_buf.mad)
#endif

/* A send; @result: the completion status or errno, 0 when none yet. */
DECLARE_EVENT_CLASS(ib_mad_send_template,
		    TP_PROTO(const struct ib_mad_send_wr_private *wr,
			     int result),
		    TP_ARGS(wr, result),
		    TP_STRUCT__entry(__string(dev, dev_name(&wr->mad_agent_priv->agent.device->dev))
				     __field(u32, port)
				     __field(u32, qp_num)
				     __field(u32, hi_tid)
				     __field(u32, remote_qpn)
				     __field(u16, pkey_index)
				     __field(int, timeout_ms)
				     __field(int, retries)
				     __field(int, max_retries)
				     __field(int, result)
				     __field(u8, mgmt_class)
				     __field(u8, class_version)
				     __field(u8, method)
				     __field(u16, status)
				     __field(u16, attr_id)
				     __field(u32, attr_mod)
				     __field(u64, tid)),
		    TP_fast_assign(__assign_str(dev);
				   __entry->port = wr->mad_agent_priv->agent.port_num;
				   __entry->qp_num = wr->mad_agent_priv->agent.qp->qp_num;
				   __entry->hi_tid = wr->mad_agent_priv->agent.hi_tid;
				   __entry->remote_qpn = wr->send_wr.remote_qpn;
				   __entry->pkey_index = wr->send_wr.pkey_index;
				   __entry->timeout_ms = wr->send_buf.timeout_ms;
				   __entry->retries = wr->send_buf.retries;
				   __entry->max_retries = wr->max_retries;
				   __entry->result = result;
				   __entry->mgmt_class = MAD_WR_HDR(wr)->mgmt_class;
				   __entry->class_version = MAD_WR_HDR(wr)->class_version;
				   __entry->method = MAD_WR_HDR(wr)->method;
				   __entry->status = be16_to_cpu(MAD_WR_HDR(wr)->status);
				   __entry->attr_id = be16_to_cpu(MAD_WR_HDR(wr)->attr_id);
				   __entry->attr_mod = be32_to_cpu(MAD_WR_HDR(wr)->attr_mod);
				   __entry->tid = be64_to_cpu(MAD_WR_HDR(wr)->tid);),
		    TP_printk("%s port %u QP%u agent %u to QP 0x%x pkey_index %u timeout %d ms retries %d/%d result %d class 0x%02x version %u method 0x%02x status 0x%04x attr 0x%04x mod 0x%08x tid 0x%016llx",
			      __get_str(dev), __entry->port, __entry->qp_num,
			      __entry->hi_tid, __entry->remote_qpn,
			      __entry->pkey_index, __entry->timeout_ms,
			      __entry->retries, __entry->max_retries,
			      __entry->result, __entry->mgmt_class,
			      __entry->class_version, __entry->method,
			      __entry->status, __entry->attr_id,
			      __entry->attr_mod, __entry->tid));

#define DEFINE_MAD_SEND_EVENT(name)					\
	DEFINE_EVENT(ib_mad_send_template, name,			\
		     TP_PROTO(const struct ib_mad_send_wr_private *wr,	\
			      int result),				\
		     TP_ARGS(wr, result))

DEFINE_MAD_SEND_EVENT(ib_mad_ib_send_mad);
DEFINE_MAD_SEND_EVENT(ib_mad_send_done_resend);
DEFINE_MAD_SEND_EVENT(ib_mad_error_handler);
DEFINE_MAD_SEND_EVENT(ib_mad_send_done_handler);

TRACE_EVENT(ib_mad_recv_done_handler,
	    TP_PROTO(const struct ib_mad_qp_info *qp_info,
		     const struct ib_wc *wc, const struct ib_mad_hdr *hdr),
	    TP_ARGS(qp_info, wc, hdr),
	    TP_STRUCT__entry(__string(dev, dev_name(&qp_info->port_priv->device->dev))
			     __field(u32, port)
			     __field(u32, qp_num)
			     __field(u32, slid)
			     __field(u32, src_qp)
			     __field(u8, sl)
			     __field(u16, pkey_index)
			     __field(u32, byte_len)
			     __field(u8, mgmt_class)
			     __field(u8, class_version)
			     __field(u8, method)
			     __field(u16, status)
			     __field(u16, attr_id)
			     __field(u32, attr_mod)
			     __field(u64, tid)),
	    TP_fast_assign(__assign_str(dev);
			   __entry->port = qp_info->port_priv->port_num;
			   __entry->qp_num = qp_info->qp->qp_num;
			   __entry->slid = wc->slid;
			   __entry->src_qp = wc->src_qp;
			   __entry->sl = wc->sl;
			   __entry->pkey_index = wc->pkey_index;
			   __entry->byte_len = wc->byte_len;
			   __entry->mgmt_class = hdr->mgmt_class;
			   __entry->class_version = hdr->class_version;
			   __entry->method = hdr->method;
			   __entry->status = be16_to_cpu(hdr->status);
			   __entry->attr_id = be16_to_cpu(hdr->attr_id);
			   __entry->attr_mod = be32_to_cpu(hdr->attr_mod);
			   __entry->tid = be64_to_cpu(hdr->tid);),
	    TP_printk("%s port %u QP%u from LID 0x%x QP 0x%x sl %u pkey_index %u len %u class 0x%02x version %u method 0x%02x status 0x%04x attr 0x%04x mod 0x%08x tid 0x%016llx",
		      __get_str(dev), __entry->port, __entry->qp_num,
		      __entry->slid, __entry->src_qp, __entry->sl,
		      __entry->pkey_index, __entry->byte_len,
		      __entry->mgmt_class, __entry->class_version,
		      __entry->method, __entry->status, __entry->attr_id,
		      __entry->attr_mod, __entry->tid));

DECLARE_EVENT_CLASS(ib_mad_agent_template,
		    TP_PROTO(const struct ib_mad_agent_private *priv),
		    TP_ARGS(priv),
		    TP_STRUCT__entry(__string(dev, dev_name(&priv->agent.device->dev))
				     __field(u32, port)
				     __field(u32, qp_num)
				     __field(u32, hi_tid)
				     __field(u8, mgmt_class)
				     __field(u8, mgmt_class_version)
				     __field(u8, rmpp_version)
				     __field(u32, flags)),
		    TP_fast_assign(__assign_str(dev);
				   __entry->port = priv->agent.port_num;
				   __entry->qp_num = priv->agent.qp->qp_num;
				   __entry->hi_tid = priv->agent.hi_tid;
				   __entry->mgmt_class = priv->reg_req ?
							priv->reg_req->mgmt_class : 0;
				   __entry->mgmt_class_version = priv->reg_req ?
						priv->reg_req->mgmt_class_version : 0;
				   __entry->rmpp_version = priv->agent.rmpp_version;
				   __entry->flags = priv->agent.flags;),
		    TP_printk("%s port %u QP%u agent %u class 0x%02x version %u rmpp %u flags 0x%x",
			      __get_str(dev), __entry->port, __entry->qp_num,
			      __entry->hi_tid, __entry->mgmt_class,
			      __entry->mgmt_class_version,
			      __entry->rmpp_version, __entry->flags));

#define DEFINE_MAD_AGENT_EVENT(name)					\
	DEFINE_EVENT(ib_mad_agent_template, name,			\
		     TP_PROTO(const struct ib_mad_agent_private *priv),	\
		     TP_ARGS(priv))

DEFINE_MAD_AGENT_EVENT(ib_mad_create_agent);
DEFINE_MAD_AGENT_EVENT(ib_mad_unregister_agent);
DEFINE_MAD_AGENT_EVENT(ib_mad_recv_done_agent);
DEFINE_MAD_AGENT_EVENT(ib_mad_send_done_agent);

DECLARE_EVENT_CLASS(ib_mad_smi_template,
		    TP_PROTO(const struct ib_device *device, u32 port,
			     const struct ib_smp *smp),
		    TP_ARGS(device, port, smp),
		    TP_STRUCT__entry(__string(dev, dev_name(&device->dev))
				     __field(u32, port)
				     __field(u8, method)
				     __field(u16, status)
				     __field(u16, attr_id)
				     __field(u8, hop_ptr)
				     __field(u8, hop_cnt)
				     __field(u16, dr_slid)
				     __field(u16, dr_dlid)
				     __field(u64, tid)),
		    TP_fast_assign(__assign_str(dev);
				   __entry->port = port;
				   __entry->method = smp->method;
				   __entry->status = be16_to_cpu(smp->status);
				   __entry->attr_id = be16_to_cpu(smp->attr_id);
				   __entry->hop_ptr = smp->hop_ptr;
				   __entry->hop_cnt = smp->hop_cnt;
				   __entry->dr_slid = be16_to_cpu(smp->dr_slid);
				   __entry->dr_dlid = be16_to_cpu(smp->dr_dlid);
				   __entry->tid = be64_to_cpu(smp->tid);),
		    TP_printk("%s port %u method 0x%02x status 0x%04x attr 0x%04x hop %u/%u dr_slid 0x%x dr_dlid 0x%x tid 0x%016llx",
			      __get_str(dev), __entry->port, __entry->method,
			      __entry->status, __entry->attr_id,
			      __entry->hop_ptr, __entry->hop_cnt,
			      __entry->dr_slid, __entry->dr_dlid,
			      __entry->tid));

#define DEFINE_MAD_SMI_EVENT(name)					\
	DEFINE_EVENT(ib_mad_smi_template, name,				\
		     TP_PROTO(const struct ib_device *device, u32 port,	\
			      const struct ib_smp *smp),		\
		     TP_ARGS(device, port, smp))

DEFINE_MAD_SMI_EVENT(ib_mad_handle_ib_smi);
DEFINE_MAD_SMI_EVENT(ib_mad_handle_out_ib_smi);

#endif /* _TRACE_IB_MAD_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE mad_trace

#include <trace/define_trace.h>
