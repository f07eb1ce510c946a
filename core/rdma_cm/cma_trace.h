/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Trace events of rdma_cm (system rdma_cma, the names upstream uses), so
 * a connection can be followed with trace-cmd:
 *
 *	trace-cmd record -e rdma_cma ...
 *
 * Every event of an id carries its restrack number (cm.id, what
 * "rdma res show cm_id" calls cm-idn) and its addresses.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rdma_cma

#if !defined(_TRACE_RDMA_CMA_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_RDMA_CMA_H

#include <linux/tracepoint.h>
#include <trace/misc/rdma.h>	/* rdma_show_cm_event() */
#include "cma_priv.h"

/* The addresses of an id as the events record them (IPv4 fits in it). */
#define CMA_TRACE_ADDR_LEN	sizeof(struct sockaddr_in6)

/*
 * enum rdma_cm_state by name, for cm_state_change; TRACE_DEFINE_ENUM
 * tells the values to user-space decoders (trace-cmd, perf).
 */
TRACE_DEFINE_ENUM(RDMA_CM_IDLE);
TRACE_DEFINE_ENUM(RDMA_CM_ADDR_QUERY);
TRACE_DEFINE_ENUM(RDMA_CM_ADDR_RESOLVED);
TRACE_DEFINE_ENUM(RDMA_CM_ROUTE_QUERY);
TRACE_DEFINE_ENUM(RDMA_CM_ROUTE_RESOLVED);
TRACE_DEFINE_ENUM(RDMA_CM_CONNECT);
TRACE_DEFINE_ENUM(RDMA_CM_DISCONNECT);
TRACE_DEFINE_ENUM(RDMA_CM_ADDR_BOUND);
TRACE_DEFINE_ENUM(RDMA_CM_LISTEN);
TRACE_DEFINE_ENUM(RDMA_CM_DEVICE_REMOVAL);
TRACE_DEFINE_ENUM(RDMA_CM_DESTROYING);

#define cma_show_state(s)						\
	__print_symbolic(s,						\
		{ RDMA_CM_IDLE, "IDLE" },				\
		{ RDMA_CM_ADDR_QUERY, "ADDR_QUERY" },			\
		{ RDMA_CM_ADDR_RESOLVED, "ADDR_RESOLVED" },		\
		{ RDMA_CM_ROUTE_QUERY, "ROUTE_QUERY" },			\
		{ RDMA_CM_ROUTE_RESOLVED, "ROUTE_RESOLVED" },		\
		{ RDMA_CM_CONNECT, "CONNECT" },				\
		{ RDMA_CM_DISCONNECT, "DISCONNECT" },			\
		{ RDMA_CM_ADDR_BOUND, "ADDR_BOUND" },			\
		{ RDMA_CM_LISTEN, "LISTEN" },				\
		{ RDMA_CM_DEVICE_REMOVAL, "DEVICE_REMOVAL" },		\
		{ RDMA_CM_DESTROYING, "DESTROYING" })

DECLARE_EVENT_CLASS(cma_id_class,
		    TP_PROTO(const struct rdma_id_private *id_priv),
		    TP_ARGS(id_priv),
		    TP_STRUCT__entry(__field(u32, cm_id)
				     __field(u32, tos)
				     __array(unsigned char, srcaddr,
					     CMA_TRACE_ADDR_LEN)
				     __array(unsigned char, dstaddr,
					     CMA_TRACE_ADDR_LEN)),
		    TP_fast_assign(__entry->cm_id = id_priv->res.id;
				   __entry->tos = id_priv->tos;
				   memcpy(__entry->srcaddr,
					  &id_priv->id.route.addr.src_addr,
					  CMA_TRACE_ADDR_LEN);
				   memcpy(__entry->dstaddr,
					  &id_priv->id.route.addr.dst_addr,
					  CMA_TRACE_ADDR_LEN);),
		    TP_printk("cm.id=%u src=%pISpc dst=%pISpc tos=%u",
			      __entry->cm_id, __entry->srcaddr,
			      __entry->dstaddr, __entry->tos));

#define DEFINE_CMA_ID_EVENT(name)					\
	DEFINE_EVENT(cma_id_class, cm_##name,				\
		     TP_PROTO(const struct rdma_id_private *id_priv),	\
		     TP_ARGS(id_priv))

DEFINE_CMA_ID_EVENT(send_rtu);
DEFINE_CMA_ID_EVENT(send_rej);
DEFINE_CMA_ID_EVENT(send_mra);
DEFINE_CMA_ID_EVENT(send_sidr_req);
DEFINE_CMA_ID_EVENT(send_sidr_rep);
DEFINE_CMA_ID_EVENT(disconnect);
DEFINE_CMA_ID_EVENT(sent_drep);
DEFINE_CMA_ID_EVENT(sent_dreq);
DEFINE_CMA_ID_EVENT(id_destroy);

/* The events that concern the id's QP also record its number. */
DECLARE_EVENT_CLASS(cma_qp_class,
		    TP_PROTO(const struct rdma_id_private *id_priv),
		    TP_ARGS(id_priv),
		    TP_STRUCT__entry(__field(u32, cm_id)
				     __field(u32, tos)
				     __array(unsigned char, srcaddr,
					     CMA_TRACE_ADDR_LEN)
				     __array(unsigned char, dstaddr,
					     CMA_TRACE_ADDR_LEN)
				     __field(u32, qp_num)),
		    TP_fast_assign(__entry->cm_id = id_priv->res.id;
				   __entry->tos = id_priv->tos;
				   memcpy(__entry->srcaddr,
					  &id_priv->id.route.addr.src_addr,
					  CMA_TRACE_ADDR_LEN);
				   memcpy(__entry->dstaddr,
					  &id_priv->id.route.addr.dst_addr,
					  CMA_TRACE_ADDR_LEN);
				   __entry->qp_num = id_priv->qp_num;),
		    TP_printk("cm.id=%u src=%pISpc dst=%pISpc tos=%u qp_num=%u",
			      __entry->cm_id, __entry->srcaddr,
			      __entry->dstaddr, __entry->tos,
			      __entry->qp_num));

#define DEFINE_CMA_QP_EVENT(name)					\
	DEFINE_EVENT(cma_qp_class, cm_##name,				\
		     TP_PROTO(const struct rdma_id_private *id_priv),	\
		     TP_ARGS(id_priv))

DEFINE_CMA_QP_EVENT(send_req);
DEFINE_CMA_QP_EVENT(send_rep);
DEFINE_CMA_QP_EVENT(qp_destroy);

TRACE_EVENT(cm_id_attach,
	    TP_PROTO(const struct rdma_id_private *id_priv,
		     const struct ib_device *device),
	    TP_ARGS(id_priv, device),
	    TP_STRUCT__entry(__field(u32, cm_id)
			     __array(unsigned char, srcaddr,
				     CMA_TRACE_ADDR_LEN)
			     __array(unsigned char, dstaddr,
				     CMA_TRACE_ADDR_LEN)
			     __string(devname, device->name)),
	    TP_fast_assign(__entry->cm_id = id_priv->res.id;
			   memcpy(__entry->srcaddr,
				  &id_priv->id.route.addr.src_addr,
				  CMA_TRACE_ADDR_LEN);
			   memcpy(__entry->dstaddr,
				  &id_priv->id.route.addr.dst_addr,
				  CMA_TRACE_ADDR_LEN);
			   __assign_str(devname);),
	    TP_printk("cm.id=%u src=%pISpc dst=%pISpc device=%s",
		      __entry->cm_id, __entry->srcaddr, __entry->dstaddr,
		      __get_str(devname)));

/* Every change of an id's state (not upstream's: it has no such event). */
TRACE_EVENT(cm_state_change,
	    TP_PROTO(const struct rdma_id_private *id_priv,
		     enum rdma_cm_state old, enum rdma_cm_state new),
	    TP_ARGS(id_priv, old, new),
	    TP_STRUCT__entry(__field(u32, cm_id)
			     __field(unsigned long, old)
			     __field(unsigned long, new)),
	    TP_fast_assign(__entry->cm_id = id_priv->res.id;
			   __entry->old = old;
			   __entry->new = new;),
	    TP_printk("cm.id=%u state %s -> %s", __entry->cm_id,
		      cma_show_state(__entry->old),
		      cma_show_state(__entry->new)));

TRACE_EVENT(cm_qp_create,
	    TP_PROTO(const struct rdma_id_private *id_priv, int rc),
	    TP_ARGS(id_priv, rc),
	    TP_STRUCT__entry(__field(u32, cm_id)
			     __field(u32, qp_num)
			     __field(int, rc)),
	    TP_fast_assign(__entry->cm_id = id_priv->res.id;
			   __entry->qp_num = id_priv->qp_num;
			   __entry->rc = rc;),
	    TP_printk("cm.id=%u qp_num=%u rc=%d",
		      __entry->cm_id, __entry->qp_num, __entry->rc));

TRACE_EVENT(cm_req_handler,
	    TP_PROTO(const struct rdma_id_private *listener, int event),
	    TP_ARGS(listener, event),
	    TP_STRUCT__entry(__field(u32, cm_id)
			     __field(u32, tos)
			     __array(unsigned char, srcaddr,
				     CMA_TRACE_ADDR_LEN)
			     __array(unsigned char, dstaddr,
				     CMA_TRACE_ADDR_LEN)
			     __field(unsigned long, event)),
	    TP_fast_assign(__entry->cm_id = listener->res.id;
			   __entry->tos = listener->tos;
			   memcpy(__entry->srcaddr,
				  &listener->id.route.addr.src_addr,
				  CMA_TRACE_ADDR_LEN);
			   memcpy(__entry->dstaddr,
				  &listener->id.route.addr.dst_addr,
				  CMA_TRACE_ADDR_LEN);
			   __entry->event = event;),
	    TP_printk("cm.id=%u src=%pISpc dst=%pISpc tos=%u transport event %lu",
		      __entry->cm_id, __entry->srcaddr, __entry->dstaddr,
		      __entry->tos, __entry->event));

/* Events by name, as rdma_show_cm_event() prints them (trace-cmd too). */
TRACE_EVENT(cm_event_handler,
	    TP_PROTO(const struct rdma_id_private *id_priv,
		     const struct rdma_cm_event *event),
	    TP_ARGS(id_priv, event),
	    TP_STRUCT__entry(__field(u32, cm_id)
			     __field(u32, tos)
			     __array(unsigned char, srcaddr,
				     CMA_TRACE_ADDR_LEN)
			     __array(unsigned char, dstaddr,
				     CMA_TRACE_ADDR_LEN)
			     __field(unsigned long, event)
			     __field(int, status)),
	    TP_fast_assign(__entry->cm_id = id_priv->res.id;
			   __entry->tos = id_priv->tos;
			   memcpy(__entry->srcaddr,
				  &id_priv->id.route.addr.src_addr,
				  CMA_TRACE_ADDR_LEN);
			   memcpy(__entry->dstaddr,
				  &id_priv->id.route.addr.dst_addr,
				  CMA_TRACE_ADDR_LEN);
			   __entry->event = event->event;
			   __entry->status = event->status;),
	    TP_printk("cm.id=%u src=%pISpc dst=%pISpc tos=%u %s (%lu/%d)",
		      __entry->cm_id, __entry->srcaddr, __entry->dstaddr,
		      __entry->tos, rdma_show_cm_event(__entry->event),
		      __entry->event, __entry->status));

TRACE_EVENT(cm_event_done,
	    TP_PROTO(const struct rdma_id_private *id_priv,
		     const struct rdma_cm_event *event, int result),
	    TP_ARGS(id_priv, event, result),
	    TP_STRUCT__entry(__field(u32, cm_id)
			     __field(u32, tos)
			     __array(unsigned char, srcaddr,
				     CMA_TRACE_ADDR_LEN)
			     __array(unsigned char, dstaddr,
				     CMA_TRACE_ADDR_LEN)
			     __field(unsigned long, event)
			     __field(int, result)),
	    TP_fast_assign(__entry->cm_id = id_priv->res.id;
			   __entry->tos = id_priv->tos;
			   memcpy(__entry->srcaddr,
				  &id_priv->id.route.addr.src_addr,
				  CMA_TRACE_ADDR_LEN);
			   memcpy(__entry->dstaddr,
				  &id_priv->id.route.addr.dst_addr,
				  CMA_TRACE_ADDR_LEN);
			   __entry->event = event->event;
			   __entry->result = result;),
	    TP_printk("cm.id=%u src=%pISpc dst=%pISpc tos=%u %s consumer returns %d",
		      __entry->cm_id, __entry->srcaddr, __entry->dstaddr,
		      __entry->tos, rdma_show_cm_event(__entry->event),
		      __entry->result));

/* A RoCE multicast group joined (IP group too: @ip_joined) and left. */
TRACE_EVENT(cm_roce_mc_join,
	    TP_PROTO(const struct rdma_id_private *id_priv,
		     const union ib_gid *mgid, bool ip_joined),
	    TP_ARGS(id_priv, mgid, ip_joined),
	    TP_STRUCT__entry(__field(u32, cm_id)
			     __array(u8, mgid, 16)
			     __field(bool, ip_joined)),
	    TP_fast_assign(__entry->cm_id = id_priv->res.id;
			   memcpy(__entry->mgid, mgid->raw, 16);
			   __entry->ip_joined = ip_joined;),
	    TP_printk("cm.id=%u mgid=%pI6 ip_joined=%d", __entry->cm_id,
		      __entry->mgid, __entry->ip_joined));

TRACE_EVENT(cm_roce_mc_leave,
	    TP_PROTO(const struct rdma_id_private *id_priv,
		     const union ib_gid *mgid),
	    TP_ARGS(id_priv, mgid),
	    TP_STRUCT__entry(__field(u32, cm_id)
			     __array(u8, mgid, 16)),
	    TP_fast_assign(__entry->cm_id = id_priv->res.id;
			   memcpy(__entry->mgid, mgid->raw, 16);),
	    TP_printk("cm.id=%u mgid=%pI6", __entry->cm_id, __entry->mgid));

DECLARE_EVENT_CLASS(cma_client_class,
		    TP_PROTO(const struct ib_device *device),
		    TP_ARGS(device),
		    TP_STRUCT__entry(__string(name, device->name)),
		    TP_fast_assign(__assign_str(name);),
		    TP_printk("device name=%s", __get_str(name)));

DEFINE_EVENT(cma_client_class, cm_add_one,
	     TP_PROTO(const struct ib_device *device), TP_ARGS(device));
DEFINE_EVENT(cma_client_class, cm_remove_one,
	     TP_PROTO(const struct ib_device *device), TP_ARGS(device));

#endif /* _TRACE_RDMA_CMA_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE cma_trace

#include <trace/define_trace.h>
