/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Tracepoints of the iWARP connection manager (system iw_cm): every
 * state change of an id, every event the driver queues and what became
 * of it, and the consumer's calls with their addresses.  Follow one
 * connection with
 *   trace-cmd record -e iw_cm ...; trace-cmd report
 * An id is named by its address (%p, hashed) and its device.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM iw_cm

#if !defined(_TRACE_IWCM_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_IWCM_H

#include <linux/in6.h>
#include <linux/tracepoint.h>
#include <rdma/iw_cm.h>

#define iwcm_show_state(s)						\
	__print_symbolic(s,						\
		{ 0, "IDLE" }, { 1, "LISTEN" }, { 2, "CONN_RECV" },	\
		{ 3, "CONN_SENT" }, { 4, "ESTABLISHED" },		\
		{ 5, "CLOSING" }, { 6, "DESTROYING" })

#define iwcm_show_event(e)						\
	__print_symbolic(e,						\
		{ IW_CM_EVENT_CONNECT_REQUEST, "CONNECT_REQUEST" },	\
		{ IW_CM_EVENT_CONNECT_REPLY, "CONNECT_REPLY" },		\
		{ IW_CM_EVENT_ESTABLISHED, "ESTABLISHED" },		\
		{ IW_CM_EVENT_DISCONNECT, "DISCONNECT" },		\
		{ IW_CM_EVENT_CLOSE, "CLOSE" })

/* What became of an event (iwcm_event_done's @how). */
#define IWCM_EV_DELIVERED	0
#define IWCM_EV_CONSUMED	1	/* taken, nothing to tell the consumer */
#define IWCM_EV_REFUSED		2	/* not valid in the id's state */
#define IWCM_EV_DROPPED		3	/* the id is being destroyed */

#define iwcm_show_how(h)						\
	__print_symbolic(h, { 0, "delivered" }, { 1, "consumed" },	\
			 { 2, "refused" }, { 3, "dropped" })

/* Copy an IPv4/IPv6 address into a trace entry (zero otherwise). */
#define iwcm_trace_addr(dst, src)					\
	do {								\
		memset(dst, 0, sizeof(struct sockaddr_in6));		\
		if ((src)->ss_family == AF_INET)			\
			memcpy(dst, src, sizeof(struct sockaddr_in));	\
		else if ((src)->ss_family == AF_INET6)			\
			memcpy(dst, src, sizeof(struct sockaddr_in6));	\
	} while (0)

TRACE_EVENT(iwcm_state,
	    TP_PROTO(const struct iw_cm_id *id, int old, int new),
	    TP_ARGS(id, old, new),
	    TP_STRUCT__entry(__field(const void *, id)
			     __string(dev, dev_name(&id->device->dev))
			     __field(int, old)
			     __field(int, new)),
	    TP_fast_assign(__entry->id = id;
			   __assign_str(dev);
			   __entry->old = old;
			   __entry->new = new;),
	    TP_printk("id=%p dev=%s %s -> %s", __entry->id, __get_str(dev),
		      iwcm_show_state(__entry->old),
		      iwcm_show_state(__entry->new))
);

TRACE_EVENT(iwcm_event_queue,
	    TP_PROTO(const struct iw_cm_id *id, const struct iw_cm_event *ev,
		     int ret),
	    TP_ARGS(id, ev, ret),
	    TP_STRUCT__entry(__field(const void *, id)
			     __field(int, event)
			     __field(int, status)
			     __field(int, ret)
			     __field(u8, pdata_len)
			     __array(u8, laddr, sizeof(struct sockaddr_in6))
			     __array(u8, raddr, sizeof(struct sockaddr_in6))),
	    TP_fast_assign(__entry->id = id;
			   __entry->event = ev->event;
			   __entry->status = ev->status;
			   __entry->ret = ret;
			   __entry->pdata_len = ev->private_data_len;
			   iwcm_trace_addr(__entry->laddr, &ev->local_addr);
			   iwcm_trace_addr(__entry->raddr, &ev->remote_addr);),
	    TP_printk("id=%p %s status=%d pdata=%u %pISpc -> %pISpc ret=%d",
		      __entry->id, iwcm_show_event(__entry->event),
		      __entry->status, __entry->pdata_len, __entry->laddr,
		      __entry->raddr, __entry->ret)
);

TRACE_EVENT(iwcm_event_done,
	    TP_PROTO(const struct iw_cm_id *id, int event, int status,
		     int state, int how, int ret),
	    TP_ARGS(id, event, status, state, how, ret),
	    TP_STRUCT__entry(__field(const void *, id)
			     __field(int, event)
			     __field(int, status)
			     __field(int, state)
			     __field(int, how)
			     __field(int, ret)),
	    TP_fast_assign(__entry->id = id;
			   __entry->event = event;
			   __entry->status = status;
			   __entry->state = state;
			   __entry->how = how;
			   __entry->ret = ret;),
	    TP_printk("id=%p %s status=%d in %s: %s handler=%d", __entry->id,
		      iwcm_show_event(__entry->event), __entry->status,
		      iwcm_show_state(__entry->state),
		      iwcm_show_how(__entry->how), __entry->ret)
);

DECLARE_EVENT_CLASS(iwcm_call_class,
		    TP_PROTO(const struct iw_cm_id *id, int ret),
		    TP_ARGS(id, ret),
		    TP_STRUCT__entry(__field(const void *, id)
				     __field(int, ret)
				     __array(u8, laddr, sizeof(struct sockaddr_in6))
				     __array(u8, raddr, sizeof(struct sockaddr_in6))
				     __array(u8, mladdr, sizeof(struct sockaddr_in6))
				     __array(u8, mraddr, sizeof(struct sockaddr_in6))),
		    TP_fast_assign(__entry->id = id;
				   __entry->ret = ret;
				   iwcm_trace_addr(__entry->laddr, &id->local_addr);
				   iwcm_trace_addr(__entry->raddr, &id->remote_addr);
				   iwcm_trace_addr(__entry->mladdr, &id->m_local_addr);
				   iwcm_trace_addr(__entry->mraddr, &id->m_remote_addr);),
		    TP_printk("id=%p %pISpc -> %pISpc (wire %pISpc -> %pISpc) ret=%d",
			      __entry->id, __entry->laddr, __entry->raddr,
			      __entry->mladdr, __entry->mraddr, __entry->ret)
);

#define DEFINE_IWCM_CALL_EVENT(name)					\
	DEFINE_EVENT(iwcm_call_class, name,				\
		     TP_PROTO(const struct iw_cm_id *id, int ret),	\
		     TP_ARGS(id, ret))

DEFINE_IWCM_CALL_EVENT(iwcm_listen);
DEFINE_IWCM_CALL_EVENT(iwcm_connect);
DEFINE_IWCM_CALL_EVENT(iwcm_accept);
DEFINE_IWCM_CALL_EVENT(iwcm_reject);
DEFINE_IWCM_CALL_EVENT(iwcm_disconnect);
DEFINE_IWCM_CALL_EVENT(iwcm_destroy);

#endif /* _TRACE_IWCM_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE iwcm_trace

#include <trace/define_trace.h>
