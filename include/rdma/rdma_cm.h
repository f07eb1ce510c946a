/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The RDMA connection manager (module rdma_cm, core/rdma_cm/cma_*.c): kernel
 * API.
 *
 * An rdma_cm_id is the RDMA counterpart of a socket.  It is bound to an
 * IP address and port in a port space, resolves a destination address to
 * a local RDMA device and port, a route to a path, and then connects,
 * listens or joins multicast groups.  Every asynchronous outcome reaches
 * the owner as a struct rdma_cm_event through its event handler, one at
 * a time per id.  The same calls work over InfiniBand, RoCE and iWARP.
 *
 * Documentation/rdma_cm.rst describes the states, the lifetime rules and
 * what each call needs.
 */
#ifndef RDMA_CM_H
#define RDMA_CM_H

#include <linux/socket.h>
#include <linux/in6.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_sa.h>
#include <uapi/rdma/rdma_user_cm.h>

/* What an rdma_cm_event reports (struct rdma_cm_event.event). */
enum rdma_cm_event_type {
	RDMA_CM_EVENT_ADDR_RESOLVED,
	RDMA_CM_EVENT_ADDR_ERROR,
	RDMA_CM_EVENT_ROUTE_RESOLVED,
	RDMA_CM_EVENT_ROUTE_ERROR,
	RDMA_CM_EVENT_CONNECT_REQUEST,
	RDMA_CM_EVENT_CONNECT_RESPONSE,
	RDMA_CM_EVENT_CONNECT_ERROR,
	RDMA_CM_EVENT_UNREACHABLE,
	RDMA_CM_EVENT_REJECTED,
	RDMA_CM_EVENT_ESTABLISHED,
	RDMA_CM_EVENT_DISCONNECTED,
	RDMA_CM_EVENT_DEVICE_REMOVAL,
	RDMA_CM_EVENT_MULTICAST_JOIN,
	RDMA_CM_EVENT_MULTICAST_ERROR,
	RDMA_CM_EVENT_ADDR_CHANGE,
	RDMA_CM_EVENT_TIMEWAIT_EXIT
};

const char *__attribute_const__ rdma_event_msg(enum rdma_cm_event_type event);

/*
 * IB service IDs of IP-based connections (IBTA Annex A11): the port space
 * in bits 16..31, the port in bits 0..15.
 */
#define RDMA_IB_IP_PS_MASK   0xFFFFFFFFFFFF0000ULL
#define RDMA_IB_IP_PS_TCP    0x0000000001060000ULL
#define RDMA_IB_IP_PS_UDP    0x0000000001110000ULL
#define RDMA_IB_IP_PS_IB     0x00000000013F0000ULL

/**
 * struct rdma_addr - the addresses of an id
 * @src_addr: local IP address and port
 * @dst_addr: remote IP address and port
 * @dev_addr: link-layer side, filled by address resolution
 */
struct rdma_addr {
	struct sockaddr_storage src_addr;
	struct sockaddr_storage dst_addr;
	struct rdma_dev_addr dev_addr;
};

/**
 * struct rdma_route - how an id reaches its peer
 * @addr: the addresses
 * @path_rec: primary (and, after it, alternate) path; NULL on iWARP
 * @path_rec_inbound: optional inbound path of the primary path
 * @path_rec_outbound: optional outbound path of the primary path
 * @num_pri_alt_paths: 0 no path, 1 primary only, 2 primary and alternate
 */
struct rdma_route {
	struct rdma_addr addr;
	struct sa_path_rec *path_rec;
	struct sa_path_rec *path_rec_inbound;
	struct sa_path_rec *path_rec_outbound;
	int num_pri_alt_paths;
};

/**
 * struct rdma_conn_param - parameters of a connection request or reply
 * @private_data: data for the peer, or NULL
 * @private_data_len: its length
 * @responder_resources: RDMA reads/atomics the peer may have in flight to us
 * @initiator_depth: RDMA reads/atomics we may have in flight
 * @flow_control: end-to-end flow control (IB)
 * @retry_count: transport retries; ignored when accepting
 * @rnr_retry_count: RNR NAK retries
 * @srq: the QP uses an SRQ (only without a QP on the id)
 * @qp_num: QP number (only without a QP on the id)
 * @qkey: Q_Key of a UD id
 */
struct rdma_conn_param {
	const void *private_data;
	u8 private_data_len;
	u8 responder_resources;
	u8 initiator_depth;
	u8 flow_control;
	u8 retry_count;
	u8 rnr_retry_count;
	u8 srq;
	u32 qp_num;
	u32 qkey;
};

/**
 * struct rdma_ud_param - what a UD or multicast event brings
 * @private_data: data from the peer
 * @private_data_len: its length
 * @ah_attr: address vector to reach the peer or group
 * @qp_num: remote QP number
 * @qkey: Q_Key to send with
 */
struct rdma_ud_param {
	const void *private_data;
	u8 private_data_len;
	struct rdma_ah_attr ah_attr;
	u32 qp_num;
	u32 qkey;
};

/**
 * struct rdma_cm_event - one event for the owner of an id
 * @event: what happened
 * @status: 0, or a negative errno (errors), or a transport reason
 *	(RDMA_CM_EVENT_REJECTED: see rdma_reject_msg())
 * @param: connection or UD parameters, by @event
 * @ece: ECE options of the peer
 */
struct rdma_cm_event {
	enum rdma_cm_event_type	 event;
	int			 status;
	union {
		struct rdma_conn_param	conn;
		struct rdma_ud_param	ud;
	} param;
	struct rdma_ucm_ece ece;
};

struct rdma_cm_id;

/*
 * Called for every event of an id, one at a time, in process context.
 * A non-zero return asks rdma_cm to destroy the id (never call
 * rdma_destroy_id() on it from inside its own handler).  A handler of a
 * listener's CONNECT_REQUEST runs on the new id.
 */
typedef int (*rdma_cm_event_handler)(struct rdma_cm_id *id,
				     struct rdma_cm_event *event);

/**
 * struct rdma_cm_id - the public part of a connection identifier
 * @device: RDMA device once bound to one, else NULL
 * @context: the owner's pointer
 * @qp: QP made by rdma_create_qp(), or NULL
 * @event_handler: the owner's handler
 * @route: addresses and path
 * @ps: port space
 * @qp_type: IB_QPT_RC, IB_QPT_UD, ...
 * @port_num: port of @device
 * @net_work: for the owner (ULPs queue their own work here)
 */
struct rdma_cm_id {
	struct ib_device	*device;
	void			*context;
	struct ib_qp		*qp;
	rdma_cm_event_handler	 event_handler;
	struct rdma_route	 route;
	enum rdma_ucm_port_space ps;
	enum ib_qp_type		 qp_type;
	u32			 port_num;
	struct work_struct net_work;
};

struct rdma_cm_id *
__rdma_create_kernel_id(struct net *net, rdma_cm_event_handler event_handler,
			void *context, enum rdma_ucm_port_space ps,
			enum ib_qp_type qp_type, const char *caller);
struct rdma_cm_id *rdma_create_user_id(rdma_cm_event_handler event_handler,
				       void *context,
				       enum rdma_ucm_port_space ps,
				       enum ib_qp_type qp_type);
struct rdma_cm_id *rdma_create_user_id_net(struct net *net,
					   rdma_cm_event_handler event_handler,
					   void *context,
					   enum rdma_ucm_port_space ps,
					   enum ib_qp_type qp_type);

/**
 * rdma_create_id - create a kernel rdma_cm id owned by the calling module
 * @net: network namespace the id lives in
 * @event_handler: its event handler
 * @context: the owner's pointer (rdma_cm_id.context)
 * @ps: port space
 * @qp_type: QP type of the connection
 *
 * See __rdma_create_kernel_id().
 */
#define rdma_create_id(net, event_handler, context, ps, qp_type)	\
	__rdma_create_kernel_id(net, event_handler, context, ps, qp_type, \
				KBUILD_MODNAME)

void rdma_destroy_id(struct rdma_cm_id *id);
int rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr);
int rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src_addr,
		      const struct sockaddr *dst_addr,
		      unsigned long timeout_ms);
int rdma_resolve_route(struct rdma_cm_id *id, unsigned long timeout_ms);
int rdma_create_qp(struct rdma_cm_id *id, struct ib_pd *pd,
		   struct ib_qp_init_attr *qp_init_attr);
void rdma_destroy_qp(struct rdma_cm_id *id);
int rdma_init_qp_attr(struct rdma_cm_id *id, struct ib_qp_attr *qp_attr,
		      int *qp_attr_mask);
int rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *conn_param);
int rdma_connect_locked(struct rdma_cm_id *id,
			struct rdma_conn_param *conn_param);
int rdma_connect_ece(struct rdma_cm_id *id, struct rdma_conn_param *conn_param,
		     struct rdma_ucm_ece *ece);
int rdma_listen(struct rdma_cm_id *id, int backlog);
int rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *conn_param);
void rdma_lock_handler(struct rdma_cm_id *id);
void rdma_unlock_handler(struct rdma_cm_id *id);
int rdma_accept_ece(struct rdma_cm_id *id, struct rdma_conn_param *conn_param,
		    struct rdma_ucm_ece *ece);
int rdma_notify(struct rdma_cm_id *id, enum ib_event_type event);
int rdma_reject(struct rdma_cm_id *id, const void *private_data,
		u8 private_data_len, u8 reason);
int rdma_disconnect(struct rdma_cm_id *id);
int rdma_join_multicast(struct rdma_cm_id *id, struct sockaddr *addr,
			u8 join_state, void *context);
void rdma_leave_multicast(struct rdma_cm_id *id, struct sockaddr *addr);
void rdma_set_service_type(struct rdma_cm_id *id, int tos);
int rdma_set_reuseaddr(struct rdma_cm_id *id, int reuse);
int rdma_set_afonly(struct rdma_cm_id *id, int afonly);
int rdma_set_ack_timeout(struct rdma_cm_id *id, u8 timeout);
int rdma_set_min_rnr_timer(struct rdma_cm_id *id, u8 min_rnr_timer);
__be64 rdma_get_service_id(struct rdma_cm_id *id, struct sockaddr *addr);
const char *__attribute_const__ rdma_reject_msg(struct rdma_cm_id *id,
						int reason);
const void *rdma_consumer_reject_data(struct rdma_cm_id *id,
				      struct rdma_cm_event *ev, u8 *data_len);
void rdma_read_gids(struct rdma_cm_id *cm_id, union ib_gid *sgid,
		    union ib_gid *dgid);
struct iw_cm_id *rdma_iw_cm_id(struct rdma_cm_id *cm_id);
struct rdma_cm_id *rdma_res_to_id(struct rdma_restrack_entry *res);

#endif /* RDMA_CM_H */
