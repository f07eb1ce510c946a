/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Kernel API of the iWARP connection manager (module iw_cm).
 *
 * An iWARP connection is a TCP connection that a driver turns into an RDMA
 * stream (MPA).  The driver owns the socket side; iw_cm owns the state of
 * each connection id, serialises the driver's events into the order a
 * consumer (rdma_cm) expects, moves the QP through its states and maps
 * ports through the port mapper (iwpmd) for devices that want it.
 *
 * Two callers meet in struct iw_cm_id:
 *  - the consumer sets @cm_handler and @context when it creates the id and
 *    receives struct iw_cm_event through @cm_handler, in process context,
 *    one at a time per id;
 *  - the driver (struct ib_device_ops iw_* callbacks) reports what the
 *    wire did through @event_handler, from any context, and holds the id
 *    alive with @add_ref / @rem_ref while it may still report.
 */
#ifndef _RDMA_IW_CM_H
#define _RDMA_IW_CM_H

#include <linux/in.h>
#include <linux/socket.h>
#include <rdma/ib_verbs.h>

struct iw_cm_id;

/**
 * enum iw_cm_event_type - what a driver reports about a connection
 * @IW_CM_EVENT_CONNECT_REQUEST: a peer asks to connect (listening id; the
 *	event's @provider_data names the new connection for accept/reject)
 * @IW_CM_EVENT_CONNECT_REPLY: the peer answered our connect; @status 0
 *	means accepted, -ECONNREFUSED rejected, other values failed
 * @IW_CM_EVENT_ESTABLISHED: the passive side's accept completed
 * @IW_CM_EVENT_DISCONNECT: the peer shut the stream down (graceful)
 * @IW_CM_EVENT_CLOSE: the connection is gone; the driver reports nothing
 *	more on this id after it
 */
enum iw_cm_event_type {
	IW_CM_EVENT_CONNECT_REQUEST = 1,
	IW_CM_EVENT_CONNECT_REPLY,
	IW_CM_EVENT_ESTABLISHED,
	IW_CM_EVENT_DISCONNECT,
	IW_CM_EVENT_CLOSE
};

/**
 * struct iw_cm_event - one event of a connection
 * @event: what happened
 * @status: 0, or a negative errno (-ECONNRESET, -ECONNREFUSED, -ETIMEDOUT)
 * @local_addr: our end of the TCP connection
 * @remote_addr: the peer's end
 * @private_data: MPA private data the peer sent (valid during the call)
 * @provider_data: driver's handle of a new connection (CONNECT_REQUEST)
 * @private_data_len: bytes at @private_data
 * @ord: outbound RDMA READ depth the peer can take
 * @ird: inbound RDMA READ depth the peer offers
 */
struct iw_cm_event {
	enum iw_cm_event_type event;
	int status;
	struct sockaddr_storage local_addr;
	struct sockaddr_storage remote_addr;
	void *private_data;
	void *provider_data;
	u8 private_data_len;
	u8 ord;
	u8 ird;
};

/* The consumer's callback; a non-zero return asks iw_cm to destroy the id. */
typedef int (*iw_cm_handler)(struct iw_cm_id *cm_id,
			     struct iw_cm_event *event);

/* The driver's way in: called from any context, queues the event. */
typedef int (*iw_event_handler)(struct iw_cm_id *cm_id,
				struct iw_cm_event *event);

/**
 * struct iw_cm_id - one iWARP connection or listener
 * @cm_handler: consumer's event callback
 * @context: consumer's pointer, untouched by iw_cm
 * @device: the iWARP device
 * @local_addr: local address as the consumer sees it
 * @remote_addr: remote address as the consumer sees it
 * @m_local_addr: local address on the wire (port-mapped, or @local_addr)
 * @m_remote_addr: remote address on the wire (port-mapped, or @remote_addr)
 * @provider_data: driver's per-connection pointer
 * @event_handler: set by iw_cm; the driver reports through it
 * @add_ref: set by iw_cm; the driver takes a reference on the id
 * @rem_ref: set by iw_cm; the driver drops one
 * @tos: IP type of service to use, when @tos_set
 * @tos_set: @tos was set by the consumer
 * @mapped: the port mapper mapped @local_addr
 * @afonly: a wildcard IPv6 listener takes no IPv4 connections
 */
struct iw_cm_id {
	iw_cm_handler cm_handler;
	void *context;
	struct ib_device *device;
	struct sockaddr_storage local_addr;
	struct sockaddr_storage remote_addr;
	struct sockaddr_storage m_local_addr;
	struct sockaddr_storage m_remote_addr;
	void *provider_data;
	iw_event_handler event_handler;
	void (*add_ref)(struct iw_cm_id *cm_id);
	void (*rem_ref)(struct iw_cm_id *cm_id);
	u8 tos;
	bool tos_set:1;
	bool mapped:1;
	bool afonly:1;
};

/**
 * struct iw_cm_conn_param - what a connect or accept offers
 * @private_data: MPA private data to send
 * @private_data_len: its length
 * @ord: outbound RDMA READ depth asked for
 * @ird: inbound RDMA READ depth offered
 * @qpn: the QP to bind to the connection
 */
struct iw_cm_conn_param {
	const void *private_data;
	u16 private_data_len;
	u32 ord;
	u32 ird;
	u32 qpn;
};

/**
 * enum iw_flags - ib_device.iw_driver_flags
 * @IW_F_NO_PORT_MAP: the device listens and connects on the ports the
 *	consumer asked for; mappings are still registered with iwpmd (so
 *	iWARP peers behind it stay consistent) but the mapped port equals
 *	the real one and iwpmd reserves no socket for it
 */
enum iw_flags {
	IW_F_NO_PORT_MAP = (1 << 0),
};

struct iw_cm_id *iw_create_cm_id(struct ib_device *device,
				 iw_cm_handler cm_handler, void *context);
void iw_destroy_cm_id(struct iw_cm_id *cm_id);
int iw_cm_listen(struct iw_cm_id *cm_id, int backlog);
int iw_cm_accept(struct iw_cm_id *cm_id, struct iw_cm_conn_param *iw_param);
int iw_cm_reject(struct iw_cm_id *cm_id, const void *private_data,
		 u8 private_data_len);
int iw_cm_connect(struct iw_cm_id *cm_id, struct iw_cm_conn_param *iw_param);
int iw_cm_disconnect(struct iw_cm_id *cm_id, int abrupt);
int iw_cm_init_qp_attr(struct iw_cm_id *cm_id, struct ib_qp_attr *qp_attr,
		       int *qp_attr_mask);
const char *__attribute_const__ iwcm_reject_msg(int reason);

#endif /* _RDMA_IW_CM_H */
