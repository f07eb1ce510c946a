/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * siw: the connection manager's endpoint (struct siw_cep) and what the
 * siw_cm*.c files share.  siw_cm.c states the lock order and the
 * lifetime rules.
 */
#ifndef SIW_CM_H
#define SIW_CM_H

#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/net.h>
#include <linux/workqueue.h>
#include <rdma/iw_cm.h>
#include <rdma/rdmavt_qp.h>

#include "siw.h"
#include "siw_mpa.h"

/* How long a peer may take with its MPA request or reply (upstream's) */
#define SIW_MPA_TIMEOUT		(10 * HZ)

/**
 * enum siw_cep_state - where an endpoint is
 * @SIW_CEP_IDLE: just made
 * @SIW_CEP_LISTEN: a listener: its socket accepts connections
 * @SIW_CEP_MPA_REQ_WAIT: passive: reading the peer's MPA request
 * @SIW_CEP_REQ_PENDING: passive: CONNECT_REQUEST reported, waiting for
 *	iw_accept or iw_reject
 * @SIW_CEP_CONNECTING: active: TCP connect, MPA request, reply
 * @SIW_CEP_ESTABLISHED: the stream belongs to the QP
 * @SIW_CEP_CLOSED: over; the socket is gone or going
 */
enum siw_cep_state {
	SIW_CEP_IDLE,
	SIW_CEP_LISTEN,
	SIW_CEP_MPA_REQ_WAIT,
	SIW_CEP_REQ_PENDING,
	SIW_CEP_CONNECTING,
	SIW_CEP_ESTABLISHED,
	SIW_CEP_CLOSED,
};

/* siw_cep.flags */
enum {
	/* CONNECT_REQUEST was reported: its provider_data holds a reference */
	SIW_CEP_F_REQUESTED,
	/* the reference of a CONNECT_REQUEST's provider_data was dropped */
	SIW_CEP_F_ANSWERED,
	/* DISCONNECT was reported */
	SIW_CEP_F_DISCONNECTED,
	/* a peer-to-peer responder waits for the RTR to report ESTABLISHED */
	SIW_CEP_F_RTR_WAIT,
};

/**
 * struct siw_cep - one connection endpoint: a listener or a connection
 * @ref: see the lifetime rules in siw_cm.c; the last put unlinks the
 *	endpoint from @sdev and frees it after an RCU grace period
 * @rcu: for that free (siw_cm_stream_lost() looks endpoints up under RCU)
 * @sdev: the device
 * @dev_entry: in siw_device.ceps, under siw_device.cep_lock
 * @mutex: serialises the CM's work on the endpoint: protects @state,
 *	@sock (the CM's use of it), @cm_id, @qp, @mpa, @rx, @close_err
 * @state: enum siw_cep_state
 * @flags: SIW_CEP_F_* (atomic bit operations)
 * @sock: the TCP socket; the QP's while ESTABLISHED
 * @cm_id: the iw_cm id reported to; one add_ref reference while set
 * @qp: the bound QP; one rvt_get_qp() reference while set
 * @listener: a passive endpoint's listener, referenced, until its
 *	request is reported or it fails
 * @child_entry: in @listener's @children, under the listener's @mutex
 * @children: a listener's endpoints still reading their MPA request
 * @nr_children: how many
 * @backlog: a listener's limit of @nr_children
 * @saved_data_ready: a listener socket's sk_data_ready before ours
 * @work: a listener accepts; a passive endpoint reads its request; an
 *	active one connects
 * @timeout: a reported request not answered in time is dropped
 * @ready_work: reports ESTABLISHED once the RTR of a peer-to-peer
 *	setup came (siw_cm_stream_ready()); holds a reference while queued
 * @close_work: ends an established connection (siw_cm_stream_lost(),
 *	siw_cm_qp_disconnect()); holds a reference while queued
 * @close_err: why: 0 for a local graceful close, else a negative errno
 * @close_graceful: the local consumer asked for a graceful close
 * @rx: the MPA frame being read; allocated during setup
 * @frame: the parsed request (points into @rx) or reply
 * @mpa: the negotiation: offer, then result
 * @tx: the MPA request an active endpoint sends
 * @tx_len: its length
 */
struct siw_cep {
	struct kref		ref;
	struct rcu_head		rcu;
	struct siw_device	*sdev;
	struct list_head	dev_entry;
	struct mutex		mutex;	/* see @mutex above */
	enum siw_cep_state	state;
	unsigned long		flags;
	struct socket		*sock;
	struct iw_cm_id		*cm_id;
	struct rvt_qp		*qp;
	struct siw_cep		*listener;
	struct list_head	child_entry;
	struct list_head	children;
	unsigned int		nr_children;
	int			backlog;
	void			(*saved_data_ready)(struct sock *sk);
	struct work_struct	work;
	struct delayed_work	timeout;
	struct work_struct	ready_work;
	struct work_struct	close_work;
	int			close_err;
	bool			close_graceful;
	struct siw_mpa_rx	*rx;
	struct siw_mpa_frame	frame;
	struct siw_mpa_result	mpa;
	u8			*tx;
	int			tx_len;
};

static inline struct rvt_qp *siw_rvt_qp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct rvt_qp, ibqp);
}

extern struct workqueue_struct *siw_cm_wq;
extern const struct ib_device_ops siw_cm_ops;
extern struct siw_mpa_policy siw_mpa_policy;

/* siw_cm.c */
struct siw_cep *siw_cep_alloc(struct siw_device *sdev);
void siw_cep_get(struct siw_cep *cep);
void siw_cep_put(struct siw_cep *cep);
void siw_cm_report(struct siw_cep *cep, enum iw_cm_event_type type,
		   int status, const void *pdata, u16 pd_len);
void siw_cm_drop_id(struct siw_cep *cep);
void siw_cm_release_sock(struct siw_cep *cep);
struct socket *siw_cm_socket(struct siw_device *sdev, int family);
int siw_cm_bind_mapped(struct socket *sock, const struct iw_cm_id *cm_id);
int siw_cm_send(struct socket *sock, const void *buf, size_t len);
int siw_cm_recv_mpa(struct siw_cep *cep, bool reply);
struct rvt_qp *siw_cm_bind_qp(struct siw_cep *cep, u32 qpn);
int siw_cm_go_rts(struct siw_cep *cep, bool initiator);
void siw_cm_unbind_qp(struct siw_cep *cep);
int siw_cm_init(void);
void siw_cm_exit(void);
void siw_cm_dev_init(struct siw_device *sdev);
void siw_cm_dev_stop(struct siw_device *sdev);
int siw_iw_add_ref_qp(struct ib_qp *ibqp);

/* siw_cm_listen.c */
int siw_create_listen(struct iw_cm_id *cm_id, int backlog);
int siw_destroy_listen(struct iw_cm_id *cm_id);
void siw_cm_listener_stop(struct siw_cep *cep);

/* siw_cm_accept.c */
void siw_cm_passive_work(struct work_struct *work);
void siw_cm_request_timeout(struct work_struct *work);
int siw_accept(struct iw_cm_id *cm_id, struct iw_cm_conn_param *param);
int siw_reject(struct iw_cm_id *cm_id, const void *pdata, u8 pd_len);

/* siw_cm_connect.c */
int siw_connect(struct iw_cm_id *cm_id, struct iw_cm_conn_param *param);

/* siw_cm_close.c */
void siw_cm_close(struct siw_cep *cep, int err, bool graceful);
void siw_cm_close_work(struct work_struct *work);
void siw_cm_ready_work(struct work_struct *work);
void siw_cm_qp_disconnect(struct rvt_qp *qp, bool abrupt);
void siw_cm_qp_modified(struct rvt_qp *qp, struct ib_qp_attr *attr,
			int attr_mask, struct ib_udata *udata);
void siw_cm_qp_quiesce(struct rvt_qp *qp);

#endif /* SIW_CM_H */
