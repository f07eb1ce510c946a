/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The IB CM's own structures, shared by the files of module ib_cm.
 *
 * Lock order (outer first):
 *
 *   cm_id_private.lock  ->  ibcm.lock  ->  cm_device.mad_agent_lock (read)
 *
 * and, inside any of them, the MAD layer's own locks (ib_post_send_mad(),
 * ib_modify_mad()) and GFP_ATOMIC allocations (rdma_create_ah() without
 * RDMA_CREATE_AH_SLEEPABLE, ib_create_send_mad()).  ibcm.device_lock is
 * taken alone.  Every one of these is taken with interrupts off:
 * ib_cm_notify() may come from a QP's event handler.  No lock is held
 * while a consumer's handler runs; a CM ID's events reach its handler one
 * at a time, in the order they happened (cm_queue_work_unlock()).
 */
#ifndef IB_CM_PRIV_H
#define IB_CM_PRIV_H

#include <linux/completion.h>
#include <linux/hashtable.h>
#include <linux/kref.h>
#include <linux/refcount.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/ib_cm.h>
#include <rdma/ib_sysfs.h>

#include "../ib_core/core_modules.h"
#include "cm_msgs.h"

/* Counters, one per message type, ordered by attribute ID (0x10..0x1A) */
enum {
	CM_REQ_COUNTER,
	CM_MRA_COUNTER,
	CM_REJ_COUNTER,
	CM_REP_COUNTER,
	CM_RTU_COUNTER,
	CM_DREQ_COUNTER,
	CM_DREP_COUNTER,
	CM_SIDR_REQ_COUNTER,
	CM_SIDR_REP_COUNTER,
	CM_LAP_COUNTER,
	CM_APR_COUNTER,
	CM_ATTR_COUNT,
	CM_ATTR_ID_OFFSET = 0x0010,
};

/* The four groups of counters (sysfs cm_tx_msgs, ... cm_rx_duplicates) */
enum {
	CM_XMIT,
	CM_XMIT_RETRIES,
	CM_RECV,
	CM_RECV_DUPLICATES,
	CM_COUNTER_GROUPS
};

struct cm_device;

/**
 * struct cm_port - a port of a device the CM serves
 * @cm_dev: its device
 * @mad_agent: the CM's agent on the port's QP1; NULL once the device
 *	goes (under @cm_dev->mad_agent_lock)
 * @port_num: the port
 * @counters: messages sent, resent, received and received twice
 */
struct cm_port {
	struct cm_device	*cm_dev;
	struct ib_mad_agent	*mad_agent;
	u32			port_num;
	atomic_long_t		counters[CM_COUNTER_GROUPS][CM_ATTR_COUNT];
};

/**
 * struct cm_device - the CM's state of an IB device (its client data)
 * @kref: held by the client and by each cm_av that names a port of it
 * @list: on ibcm.device_list (ibcm.device_lock)
 * @mad_agent_lock: guards the ports' @mad_agent against the device's
 *	removal; read side around every use of an agent
 * @ib_device: the device
 * @ack_delay: the CA's local ACK delay (attrs.local_ca_ack_delay)
 * @going_down: removal started: no new work is queued (ibcm.lock)
 * @port: the ports by number - 1, NULL where the port has no IB CM
 */
struct cm_device {
	struct kref		kref;
	struct list_head	list;
	rwlock_t		mad_agent_lock;
	struct ib_device	*ib_device;
	u8			ack_delay;
	bool			going_down;
	struct cm_port		*port[];
};

/**
 * struct cm_av - where a CM ID's messages (and its QP's packets) go
 * @port: the local port, referencing its cm_device; NULL until set
 * @ah_attr: the address (holds a GID attribute reference when it has a
 *	GRH)
 * @dlid_datapath: a DLID for the data path that differs from the CM's
 * @pkey_index: the P_Key's index on @port
 * @timeout: the local ACK timeout (4.096 us * 2^x)
 */
struct cm_av {
	struct cm_port		*port;
	struct rdma_ah_attr	ah_attr;
	u16			dlid_datapath;
	u16			pkey_index;
	u8			timeout;
};

/**
 * struct cm_work - a received message, or an event the CM makes itself
 * @work: on ibcm.wq (delayed for timewait)
 * @list: on the CM ID's @work_list while its handler is busy
 * @port: the port it arrived on
 * @mad_recv_wc: the received MAD, or NULL
 * @local_id: for an event of the CM's own, the CM ID it is for
 * @remote_id: and its peer's ID
 * @cm_event: what the handler will see
 * @path: the path records of a REQ or LAP
 */
struct cm_work {
	struct delayed_work	work;
	struct list_head	list;
	struct cm_port		*port;
	struct ib_mad_recv_wc	*mad_recv_wc;
	__be32			local_id;
	__be32			remote_id;
	struct ib_cm_event	cm_event;
	struct sa_path_rec	path[];
};

/**
 * struct cm_timewait_info - a connection's identity for the duplicate
 * and stale checks, and its timewait
 * @work: queued when the connection enters timewait (first member:
 *	the work handler frees the whole structure)
 * @list: on ibcm.timewait_list while in timewait (ibcm.lock)
 * @remote_qp_node: in ibcm.remote_qpn_table when @inserted_remote_qp
 * @remote_id_node: in ibcm.remote_id_table when @inserted_remote_id
 * @remote_ca_guid: the peer's CA GUID
 * @remote_qpn: the peer's QP
 * @inserted_remote_qp: see @remote_qp_node (ibcm.lock)
 * @inserted_remote_id: see @remote_id_node (ibcm.lock)
 */
struct cm_timewait_info {
	struct cm_work		work;
	struct list_head	list;
	struct hlist_node	remote_qp_node;
	struct hlist_node	remote_id_node;
	__be64			remote_ca_guid;
	__be32			remote_qpn;
	bool			inserted_remote_qp;
	bool			inserted_remote_id;
};

/**
 * struct cm_id_private - a CM ID
 * @id: what the consumer sees
 * @service_node: in ibcm.listen_table while listening (ibcm.lock)
 * @sidr_id_node: in ibcm.remote_sidr_table while a SIDR REQ is answered
 *	(ibcm.lock); unhashed otherwise
 * @sidr_slid: the LID a SIDR REQ came from
 * @lock: the fields below and @id's state
 * @comp: completed when @refcount drops to zero
 * @refcount: the consumer's, plus one per queued work, sent message and
 *	lookup in progress
 * @listen_sharecount: users of a listener (ib_cm_insert_listen());
 *	ibcm.lock
 * @rcu: frees the ID after lookups under RCU are over
 * @msg: the message in flight that awaits an answer (REQ, REP, DREQ,
 *	SIDR REQ), or NULL
 * @timewait_info: the connection's identity, NULL outside a connection
 * @av: the primary path
 * @alt_av: the alternate path
 * @private_data: what a duplicate's answer resends (MRA, RTU, DREP)
 * @tid: the transaction ID of the exchange
 * @local_qpn: the local QP
 * @remote_qpn: the peer's QP
 * @qp_type: the QP type
 * @sq_psn: the send queue's starting PSN
 * @rq_psn: the receive queue's starting PSN
 * @timeout_ms: how long a message waits for its answer
 * @path_mtu: the path MTU
 * @pkey: the P_Key
 * @private_data_len: length of @private_data
 * @max_cm_retries: how often a message is resent without answer
 * @responder_resources: RDMA reads/atomics the local QP accepts
 * @initiator_depth: RDMA reads/atomics the local QP issues
 * @retry_count: transport retries
 * @rnr_retry_count: RNR retries
 * @service_timeout: the MRA's service timeout
 * @target_ack_delay: the peer's ACK delay (from its REP)
 * @work_list: events waiting for the handler
 * @work_count: events beyond the one being handled; -1 when idle
 * @ece: the ECE options of the connection
 */
struct cm_id_private {
	struct ib_cm_id		id;

	struct hlist_node	service_node;
	struct hlist_node	sidr_id_node;
	u32			sidr_slid;
	spinlock_t		lock;	/* see @lock above */
	struct completion	comp;
	refcount_t		refcount;
	int			listen_sharecount;
	struct rcu_head		rcu;

	struct ib_mad_send_buf	*msg;
	struct cm_timewait_info	*timewait_info;
	struct cm_av		av;
	struct cm_av		alt_av;

	void			*private_data;
	__be64			tid;
	__be32			local_qpn;
	__be32			remote_qpn;
	enum ib_qp_type		qp_type;
	__be32			sq_psn;
	__be32			rq_psn;
	int			timeout_ms;
	enum ib_mtu		path_mtu;
	__be16			pkey;
	u8			private_data_len;
	u8			max_cm_retries;
	u8			responder_resources;
	u8			initiator_depth;
	u8			retry_count;
	u8			rnr_retry_count;
	u8			service_timeout;
	u8			target_ack_delay;

	struct list_head	work_list;
	atomic_t		work_count;

	struct rdma_ucm_ece	ece;
};

#define CM_TABLE_BITS	8

/**
 * struct cm_globals - the CM's state of the host
 * @lock: the four tables, each device's @going_down, @timewait_list and
 *	@listen_service_id
 * @device_lock: @device_list
 * @device_list: the cm_devices
 * @listen_table: listening CM IDs by device and service ID
 * @remote_id_table: connections by the peer's CA GUID and CM ID
 * @remote_qpn_table: connections by the peer's CA GUID and QP
 * @remote_sidr_table: SIDR REQs being answered, by the requester's LID
 *	and request ID
 * @listen_service_id: the next service ID IB_CM_ASSIGN_SERVICE_ID gives
 * @local_id_table: every CM ID that may receive messages, by local ID
 *	(lookups under RCU)
 * @local_id_next: where the cyclic allocation of local IDs goes on
 * @random_id_operand: XORed into local IDs so that they are not guessable
 * @timewait_list: the connections in timewait
 * @wq: received messages and timewait exits are handled here
 *
 * Hash tables rather than rhashtables: they are used under @lock with
 * interrupts off, where rhashtable's bucket locks (which turn bottom
 * halves off and on) may not be taken.
 */
struct cm_globals {
	spinlock_t		lock;	/* see @lock above */
	rwlock_t		device_lock;
	struct list_head	device_list;
	DECLARE_HASHTABLE(listen_table, CM_TABLE_BITS);
	DECLARE_HASHTABLE(remote_id_table, CM_TABLE_BITS);
	DECLARE_HASHTABLE(remote_qpn_table, CM_TABLE_BITS);
	DECLARE_HASHTABLE(remote_sidr_table, CM_TABLE_BITS);
	u64			listen_service_id;
	struct xarray		local_id_table;
	u32			local_id_next;
	__be32			random_id_operand;
	struct list_head	timewait_list;
	struct workqueue_struct	*wq;
};

extern struct cm_globals ibcm;
extern struct ib_client cm_client;

/* cm_main.c */
void cm_device_put(struct cm_device *cm_dev);
#if IS_ENABLED(CONFIG_KUNIT)
void ib_cm_flush_work(void);
#endif

/* cm_id.c */
void cm_deref_id(struct cm_id_private *priv);
struct cm_id_private *cm_alloc_id_priv(struct ib_device *device,
				       ib_cm_handler handler, void *context);
void cm_finalize_id(struct cm_id_private *priv);
struct cm_id_private *cm_acquire_id(__be32 local_id, __be32 remote_id);
void cm_set_state(struct cm_id_private *priv, enum ib_cm_state state);
void cm_destroy_id(struct ib_cm_id *cm_id, int err);
struct cm_id_private *cm_find_listen(struct ib_device *device,
				     __be64 service_id);
struct cm_timewait_info *cm_insert_remote_id(struct cm_timewait_info *tw);
struct cm_timewait_info *cm_insert_remote_qpn(struct cm_timewait_info *tw);
struct cm_id_private *cm_find_remote_id(__be64 remote_ca_guid,
					__be32 remote_id);
struct cm_id_private *cm_insert_remote_sidr(struct cm_id_private *priv);
void cm_remove_sidr(struct cm_id_private *priv);
void cm_remove_remote(struct cm_id_private *priv);
struct cm_timewait_info *cm_create_timewait_info(__be32 local_id);
void cm_enter_timewait(struct cm_id_private *priv);
void cm_reset_to_idle(struct cm_id_private *priv);
void cm_free_work(struct cm_work *work);
void cm_queue_work_unlock(struct cm_id_private *priv, struct cm_work *work)
	__releases(&priv->lock);
void cm_process_work(struct cm_id_private *priv, struct cm_work *work);
void cm_work_handler(struct work_struct *work);
int cm_timewait_handler(struct cm_work *work);
int cm_establish_handler(struct cm_work *work);

/* cm_mad.c */
int cm_convert_to_ms(int iba_time);
u8 cm_ack_timeout(u8 ca_ack_delay, u8 packet_life_time);
void cm_set_av_port(struct cm_av *av, struct cm_port *port);
int cm_init_av_for_response(struct cm_port *port, struct ib_wc *wc,
			    struct ib_grh *grh, struct cm_av *av);
int cm_init_av_by_path(struct sa_path_rec *path,
		       const struct ib_gid_attr *sgid_attr, struct cm_av *av);
void cm_move_av_from_path(struct cm_av *dest, struct cm_av *src);
void cm_destroy_av(struct cm_av *av);
struct ib_mad_send_buf *cm_alloc_msg(struct cm_id_private *priv);
struct ib_mad_send_buf *cm_alloc_priv_msg(struct cm_id_private *priv,
					  enum ib_cm_state state);
void cm_free_msg(struct ib_mad_send_buf *msg);
void cm_free_priv_msg(struct ib_mad_send_buf *msg);
struct ib_mad_send_buf *cm_alloc_response_msg_no_ah(struct cm_port *port,
						    struct ib_mad_recv_wc *rwc);
int cm_create_response_msg_ah(struct cm_port *port,
			      struct ib_mad_recv_wc *rwc,
			      struct ib_mad_send_buf *msg);
int cm_alloc_stateless_reply(struct cm_port *port, struct ib_mad_recv_wc *rwc,
			     __be16 attr_id, struct ib_mad_send_buf **msg);
int cm_alloc_response_msg(struct cm_port *port, struct ib_mad_recv_wc *rwc,
			  struct ib_mad_send_buf **msg);
void cm_free_response_msg(struct ib_mad_send_buf *msg);
int cm_post(struct ib_mad_send_buf *msg);
void *cm_copy_private_data(const void *data, u8 len, u8 max);
void cm_set_private_data(struct cm_id_private *priv, void *data, u8 len);
__be64 cm_form_tid(struct cm_id_private *priv);
void cm_format_mad_hdr(struct ib_mad_hdr *hdr, __be16 attr_id, __be64 tid);
void cm_format_mad_ece_hdr(struct ib_mad_hdr *hdr, __be16 attr_id,
			   __be64 tid, u32 attr_mod);
u16 cm_get_bth_pkey(struct cm_work *work);
void cm_send_handler(struct ib_mad_agent *agent,
		     struct ib_mad_send_wc *send_wc);

/* cm_req.c */
int cm_req_handler(struct cm_work *work);
int cm_mra_handler(struct cm_work *work);
int cm_rej_handler(struct cm_work *work);
int cm_send_rej_locked(struct cm_id_private *priv,
		       enum ib_cm_rej_reason reason, void *ari, u8 ari_length,
		       const void *private_data, u8 private_data_len);
int cm_issue_rej(struct cm_port *port, struct ib_mad_recv_wc *rwc,
		 enum ib_cm_rej_reason reason,
		 enum cm_msg_response msg_rejected, void *ari, u8 ari_length);
void cm_format_mra(struct cm_msg *msg, struct cm_id_private *priv,
		   enum cm_msg_response msg_mraed, u8 service_timeout,
		   const void *private_data, u8 private_data_len);
void cm_format_rej(struct cm_msg *msg, struct cm_id_private *priv,
		   enum ib_cm_rej_reason reason, void *ari, u8 ari_length,
		   const void *private_data, u8 private_data_len,
		   enum ib_cm_state state);
bool cm_req_has_alt_path(const struct cm_msg *req);

/* cm_conn.c */
int cm_rep_handler(struct cm_work *work);
int cm_rtu_handler(struct cm_work *work);
int cm_dreq_handler(struct cm_work *work);
int cm_drep_handler(struct cm_work *work);
int cm_lap_handler(struct cm_work *work);
int cm_apr_handler(struct cm_work *work);
int cm_send_dreq_locked(struct cm_id_private *priv, const void *private_data,
			u8 private_data_len);
int cm_send_drep_locked(struct cm_id_private *priv, void *private_data,
			u8 private_data_len);

/* cm_sidr.c */
int cm_sidr_req_handler(struct cm_work *work);
int cm_sidr_rep_handler(struct cm_work *work);
int cm_send_sidr_rep_locked(struct cm_id_private *priv,
			    struct ib_cm_sidr_rep_param *param);

/* cm_sysfs.c */
extern const struct attribute_group *cm_counter_groups[];

#endif /* IB_CM_PRIV_H */
