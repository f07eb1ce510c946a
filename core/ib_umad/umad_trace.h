/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Trace events of ib_umad (system ib_umad, upstream's event names): what
 * user space writes (ib_umad_write, once the MAD is posted) and reads
 * (ib_umad_read_recv for a received MAD, ib_umad_read_send for a send
 * that came back unanswered), with the ib_user_mad header and the MAD
 * header:
 *
 *	trace-cmd record -e ib_umad ...
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ib_umad

#if !defined(_TRACE_IB_UMAD_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_IB_UMAD_H

#include <linux/tracepoint.h>
#include "umad_priv.h"

DECLARE_EVENT_CLASS(ib_umad_template,
		    TP_PROTO(const struct ib_umad_file *file,
			     const struct ib_user_mad_hdr *umad,
			     const struct ib_mad_hdr *mad),
		    TP_ARGS(file, umad, mad),
		    TP_STRUCT__entry(__string(dev, dev_name(&file->port->ib_dev->dev))
				     __field(u32, port)
				     __field(u32, id)
				     __field(u32, status)
				     __field(u32, timeout_ms)
				     __field(u32, retries)
				     __field(u32, length)
				     __field(u32, qpn)
				     __field(u32, qkey)
				     __field(u16, lid)
				     __field(u8, sl)
				     __field(u8, path_bits)
				     __field(u8, grh_present)
				     __field(u16, pkey_index)
				     __field(u8, mgmt_class)
				     __field(u8, class_version)
				     __field(u8, method)
				     __field(u16, mad_status)
				     __field(u16, attr_id)
				     __field(u32, attr_mod)
				     __field(u64, tid)),
		    TP_fast_assign(__assign_str(dev);
				   __entry->port = file->port->port_num;
				   __entry->id = umad->id;
				   __entry->status = umad->status;
				   __entry->timeout_ms = umad->timeout_ms;
				   __entry->retries = umad->retries;
				   __entry->length = umad->length;
				   __entry->qpn = be32_to_cpu(umad->qpn);
				   __entry->qkey = be32_to_cpu(umad->qkey);
				   __entry->lid = be16_to_cpu(umad->lid);
				   __entry->sl = umad->sl;
				   __entry->path_bits = umad->path_bits;
				   __entry->grh_present = umad->grh_present;
				   /* an old header has none: 0 */
				   __entry->pkey_index = file->use_pkey_index ?
							 umad->pkey_index : 0;
				   __entry->mgmt_class = mad->mgmt_class;
				   __entry->class_version = mad->class_version;
				   __entry->method = mad->method;
				   __entry->mad_status = be16_to_cpu(mad->status);
				   __entry->attr_id = be16_to_cpu(mad->attr_id);
				   __entry->attr_mod = be32_to_cpu(mad->attr_mod);
				   __entry->tid = be64_to_cpu(mad->tid);),
		    TP_printk("%s port %u agent %u status %u timeout %u ms retries %u length %u QP 0x%x qkey 0x%x LID 0x%x sl %u path_bits %u grh %u pkey_index %u | class 0x%02x version %u method 0x%02x status 0x%04x attr 0x%04x mod 0x%08x tid 0x%016llx",
			      __get_str(dev), __entry->port, __entry->id,
			      __entry->status, __entry->timeout_ms,
			      __entry->retries, __entry->length, __entry->qpn,
			      __entry->qkey, __entry->lid, __entry->sl,
			      __entry->path_bits, __entry->grh_present,
			      __entry->pkey_index, __entry->mgmt_class,
			      __entry->class_version, __entry->method,
			      __entry->mad_status, __entry->attr_id,
			      __entry->attr_mod, __entry->tid));

#define DEFINE_UMAD_EVENT(name)						\
	DEFINE_EVENT(ib_umad_template, name,				\
		     TP_PROTO(const struct ib_umad_file *file,		\
			      const struct ib_user_mad_hdr *umad,	\
			      const struct ib_mad_hdr *mad),		\
		     TP_ARGS(file, umad, mad))

DEFINE_UMAD_EVENT(ib_umad_write);
DEFINE_UMAD_EVENT(ib_umad_read_recv);
DEFINE_UMAD_EVENT(ib_umad_read_send);

#endif /* _TRACE_IB_UMAD_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE umad_trace

#include <trace/define_trace.h>
