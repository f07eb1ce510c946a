// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw's connection manager: connection endpoints, their sockets and the
 * iw_cm ops of a siw device.
 *
 *   siw_cm.c         endpoints, sockets, MPA frame reading, QP binding,
 *                    the QP lookup ops, the module's CM workqueue
 *   siw_cm_listen.c  listeners: a TCP listening socket per iw_cm listen
 *   siw_cm_accept.c  passive side: MPA request, iw_accept, iw_reject
 *   siw_cm_connect.c active side: iw_connect, MPA request and reply
 *   siw_cm_close.c   the end of an established connection, QP hooks
 *
 * All socket work runs in siw_cm_wq (process context).  The only socket
 * callback of the CM is a listener's sk_data_ready, which queues the
 * listener's accept work; MPA setup then reads and writes with blocking
 * calls bounded by SIW_MPA_TIMEOUT (the sockets' send and receive
 * timeouts), and whoever must stop a setup shuts its socket down, which
 * wakes the blocked call.  Once MPA is over the socket belongs to the
 * QP (siw_qp_stream_start()) until siw_qp_stream_stop().
 *
 * Lock order (outermost first):
 *   passive endpoint's mutex -> its listener's mutex
 *   -> siw_device.cep_lock, siw_device.conns' lock, sk_callback_lock
 * Under an endpoint's mutex the CM calls iw_cm's event_handler, add_ref
 * and rem_ref (which take only iw_cm's innermost spinlock), the data
 * path's siw_qp_stream_start()/siw_qp_stream_stop(), and ib_modify_qp()
 * to RTS (whose rdmavt hook, siw_cm_qp_modified(), only queues work).
 * The data path calls siw_cm_stream_lost() from any context holding
 * whatever it holds: it only queues work.
 *
 * Lifetime of an endpoint (siw_cep.ref):
 *  - a listener: one reference from siw_create_listen() to
 *    siw_destroy_listen() (or the device's end);
 *  - a passive endpoint: one reference while it reads the request; it
 *    becomes the reference of the CONNECT_REQUEST's provider_data,
 *    dropped by iw_reject, a failed iw_accept, or the device's end; a
 *    successful iw_accept hands it to the connection;
 *  - an active endpoint: one reference from siw_connect() on, the
 *    connection's;
 *  - the connection's reference is dropped when it closes
 *    (siw_cm_close()), after CLOSE was reported and the iw_cm id, the QP
 *    and the socket were let go;
 *  - a passive endpoint holds a reference on its listener until its
 *    request is reported; queued close or timeout work holds one.
 * Every endpoint sits on its device's list until freed, and holds a
 * reference on the device's memory (get_device()) until then.  The
 * device's end (siw_cm_dev_stop()) closes them all and waits for their
 * work, after which none holds a socket, an iw_cm id or a QP, and none
 * is referenced by siw itself any more.  One that something else still
 * holds keeps the device's memory until it is let go: nothing of the
 * CM is freed under an endpoint, and the end waits for nobody.
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <net/sock.h>
#include <net/tcp.h>
#include <kunit/visibility.h>

#include "siw_cm.h"
#include "siw_stream.h"

/* Runs every endpoint's socket work; unbound: the work blocks on sockets */
struct workqueue_struct *siw_cm_wq;

/*
 * Upstream siw's MPA choices (Documentation/hw/siw.rst).  The module
 * parameters mpa_version, mpa_crc_required, mpa_crc_strict and
 * peer_to_peer (siw_main.c, read-only) set the first four fields at load
 * time; nothing changes them afterwards but a KUnit suite, between its
 * connections.  @gso follows the writable gso_seg_limit: read once per
 * frame built or checked, it may change between connections.
 */
struct siw_mpa_policy siw_mpa_policy = {
	.version = MPA_REVISION_2,
	.crc_required = false,
	.crc_strict = false,
	.peer_to_peer = false,
	.rtr_offer = SIW_RTR_WRITE | SIW_RTR_READ,
	.max_ird = SIW_MAX_IRD_QP,
	.max_ord = SIW_MAX_ORD_QP,
};
EXPORT_SYMBOL_IF_KUNIT(siw_mpa_policy);

/**
 * siw_cep_alloc - a new endpoint of a device, in state IDLE
 * @sdev: the device; the endpoint holds its memory until freed
 *
 * Context: process context; takes siw_device.cep_lock.
 * Return: the endpoint with one reference, or NULL.
 */
struct siw_cep *siw_cep_alloc(struct siw_device *sdev)
{
	struct siw_cep *cep = kzalloc(sizeof(*cep), GFP_KERNEL);

	if (!cep)
		return NULL;
	get_device(&sdev->rdi.ibdev.dev);
	kref_init(&cep->ref);
	cep->sdev = sdev;
	mutex_init(&cep->mutex);
	cep->state = SIW_CEP_IDLE;
	INIT_LIST_HEAD(&cep->children);
	INIT_LIST_HEAD(&cep->child_entry);
	INIT_WORK(&cep->close_work, siw_cm_close_work);
	INIT_WORK(&cep->ready_work, siw_cm_ready_work);
	INIT_DELAYED_WORK(&cep->timeout, siw_cm_request_timeout);
	spin_lock_bh(&sdev->cep_lock);
	list_add_tail(&cep->dev_entry, &sdev->ceps);
	spin_unlock_bh(&sdev->cep_lock);
	return cep;
}

/**
 * siw_cep_get - take a reference on an endpoint
 * @cep: the endpoint, referenced by the caller
 *
 * Context: any.
 */
void siw_cep_get(struct siw_cep *cep)
{
	kref_get(&cep->ref);
}

static void siw_cep_release(struct kref *ref)
{
	struct siw_cep *cep = container_of(ref, struct siw_cep, ref);
	struct siw_device *sdev = cep->sdev;

	WARN_ON_ONCE(cep->sock || cep->cm_id || cep->qp);
	kfree(cep->rx);
	kfree(cep->tx);
	spin_lock_bh(&sdev->cep_lock);
	list_del(&cep->dev_entry);
	spin_unlock_bh(&sdev->cep_lock);
	kfree_rcu(cep, rcu);
	/* last: the device's memory may go now, once it is gone too */
	put_device(&sdev->rdi.ibdev.dev);
}

/**
 * siw_cep_put - drop a reference on an endpoint
 * @cep: the endpoint
 *
 * Context: any context but hard interrupts; the last put takes
 * siw_device.cep_lock, and frees the device's memory when the device
 * has ended and this was its last endpoint.
 */
void siw_cep_put(struct siw_cep *cep)
{
	kref_put(&cep->ref, siw_cep_release);
}

/**
 * siw_cm_report - report an event on the endpoint's iw_cm id
 * @cep: the endpoint, mutex held, with an id
 * @type: the event
 * @status: its status
 * @pdata: the peer's private data, or NULL
 * @pd_len: its length (what does not fit an event is cut)
 *
 * The addresses are the socket's, the IRD/ORD the negotiated ones.
 *
 * Context: process context, under @cep's mutex.
 */
void siw_cm_report(struct siw_cep *cep, enum iw_cm_event_type type,
		   int status, const void *pdata, u16 pd_len)
{
	struct iw_cm_event ev = {
		.event = type,
		.status = status,
		.private_data = (void *)pdata,
		.private_data_len = min_t(u16, pd_len, U8_MAX),
		.ird = min_t(u16, cep->mpa.ird, U8_MAX),
		.ord = min_t(u16, cep->mpa.ord, U8_MAX),
	};
	int ret;

	lockdep_assert_held(&cep->mutex);
	if (!cep->cm_id)
		return;
	if (!pdata)
		ev.private_data_len = 0;
	if (cep->sock) {
		kernel_getsockname(cep->sock,
				   (struct sockaddr *)&ev.local_addr);
		kernel_getpeername(cep->sock,
				   (struct sockaddr *)&ev.remote_addr);
	}
	ret = cep->cm_id->event_handler(cep->cm_id, &ev);
	if (ret)
		ibdev_dbg(&cep->sdev->rdi.ibdev,
			  "cm: event %d (status %d) not queued: %d\n", type,
			  status, ret);
}

/**
 * siw_cm_drop_id - let go of the endpoint's iw_cm id
 * @cep: the endpoint, mutex held
 *
 * Context: process context, under @cep's mutex.
 */
void siw_cm_drop_id(struct siw_cep *cep)
{
	struct iw_cm_id *cm_id = cep->cm_id;

	lockdep_assert_held(&cep->mutex);
	if (!cm_id)
		return;
	cep->cm_id = NULL;
	if (cm_id->provider_data == cep)
		cm_id->provider_data = NULL;
	cm_id->rem_ref(cm_id);
}

/**
 * siw_cm_release_sock - close the endpoint's socket (the CM's)
 * @cep: the endpoint, mutex held
 *
 * Context: process context, under @cep's mutex; may sleep.
 */
void siw_cm_release_sock(struct siw_cep *cep)
{
	struct socket *sock = cep->sock;

	lockdep_assert_held(&cep->mutex);
	if (!sock)
		return;
	cep->sock = NULL;
	kernel_sock_shutdown(sock, SHUT_RDWR);
	sock_release(sock);
}

/**
 * siw_cm_socket - a TCP socket in the namespace of the device's netdev
 * @sdev: the device
 * @family: AF_INET or AF_INET6
 *
 * The socket may reuse a local port in TIME_WAIT, sends without Nagle
 * (upstream siw_tcp_nagle=false) and blocks for at most SIW_MPA_TIMEOUT
 * in each send or receive.
 *
 * Context: process context, may sleep.
 * Return: the socket, or ERR_PTR(-EAFNOSUPPORT, -ENODEV, -ENOMEM ...).
 */
struct socket *siw_cm_socket(struct siw_device *sdev, int family)
{
	struct net_device *ndev;
	struct socket *sock;
	int ret;

	if (family != AF_INET && family != AF_INET6)
		return ERR_PTR(-EAFNOSUPPORT);
	ndev = ib_device_get_netdev(&sdev->rdi.ibdev, SIW_PORT);
	if (!ndev)
		return ERR_PTR(-ENODEV);
	ret = sock_create_kern(dev_net(ndev), family, SOCK_STREAM,
			       IPPROTO_TCP, &sock);
	dev_put(ndev);
	if (ret)
		return ERR_PTR(ret);
	sock_set_reuseaddr(sock->sk);
	tcp_sock_set_nodelay(sock->sk);
	WRITE_ONCE(sock->sk->sk_rcvtimeo, SIW_MPA_TIMEOUT);
	WRITE_ONCE(sock->sk->sk_sndtimeo, SIW_MPA_TIMEOUT);
	return sock;
}

/* The port of an IPv4 or IPv6 address (network order). */
static __be16 siw_cm_port(const struct sockaddr_storage *addr)
{
	if (addr->ss_family == AF_INET)
		return ((const struct sockaddr_in *)addr)->sin_port;
	return ((const struct sockaddr_in6 *)addr)->sin6_port;
}

/**
 * siw_cm_bind_mapped - bind a socket to the id's address on the wire
 * @sock: the socket (siw_cm_socket())
 * @cm_id: the id; @sock takes its m_local_addr
 *
 * A port the port mapper handed out (m_local_addr's port is not
 * local_addr's) is held by iwpmd in the same namespace: a socket bound
 * to it without SO_REUSEADDR and without listening, which is how iwpmd
 * keeps the host's own users off the port.  The RNIC is the port's
 * real user, so the socket takes the port over that reservation
 * (SK_FORCE_REUSE, as TCP repair does); any other clash on the port is
 * refused as usual.  A port that is not mapped is bound as it is.
 *
 * Context: process context, may sleep.
 * Return: 0 or kernel_bind()'s error (-EADDRINUSE, -EADDRNOTAVAIL ...).
 */
int siw_cm_bind_mapped(struct socket *sock, const struct iw_cm_id *cm_id)
{
	const struct sockaddr_storage *addr = &cm_id->m_local_addr;
	int len = addr->ss_family == AF_INET ? sizeof(struct sockaddr_in) :
					       sizeof(struct sockaddr_in6);

	if (siw_cm_port(addr) != siw_cm_port(&cm_id->local_addr))
		sock->sk->sk_reuse = SK_FORCE_REUSE;
	return kernel_bind(sock, (struct sockaddr *)addr, len);
}

/**
 * siw_cm_send - send a whole MPA frame
 * @sock: the socket
 * @buf: the frame
 * @len: its length
 *
 * Context: process context, blocks for at most the send timeout.
 * Return: 0, -ETIMEDOUT, or the socket's error.
 */
int siw_cm_send(struct socket *sock, const void *buf, size_t len)
{
	struct kvec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr msg = { .msg_flags = MSG_NOSIGNAL };
	int ret;

	ret = kernel_sendmsg(sock, &msg, &iov, 1, len);
	if (ret == -EAGAIN)
		return -ETIMEDOUT;
	if (ret < 0)
		return ret;
	return ret == len ? 0 : -ECONNRESET;
}

/* Exactly @len bytes: nothing behind the MPA frame is taken. */
static int siw_cm_recv_exact(struct socket *sock, void *buf, size_t len)
{
	struct kvec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = {};
	int ret;

	ret = kernel_recvmsg(sock, &msg, &iov, 1, len, MSG_WAITALL);
	if (ret == -EAGAIN)
		return -ETIMEDOUT;
	if (ret < 0)
		return ret;
	/* a shut down or closed stream, or the timeout mid-frame */
	if (ret != len)
		return ret ? -ETIMEDOUT : -ECONNRESET;
	return 0;
}

/**
 * siw_cm_recv_mpa - read one MPA request or reply from the socket
 * @cep: the endpoint; its @rx is (re)started, its @frame filled
 * @reply: a reply is expected, else a request
 *
 * Reads the 20 bytes of the header, has them checked, then exactly the
 * private data they announce: bytes behind the frame stay in the
 * socket (the responder's first FPDUs behind a reply).  The caller
 * holds @cep->sock stable (see the lifetime rules) without the mutex.
 *
 * Context: process context, blocks for at most the receive timeout per
 * read.
 * Return: 0, -ENOMEM, -ETIMEDOUT, -ECONNRESET (the stream ended or was
 * shut down), or siw_mpa_rx_feed()'s error for a bad frame.
 */
int siw_cm_recv_mpa(struct siw_cep *cep, bool reply)
{
	const size_t hlen = sizeof(struct mpa_rr);
	u8 *buf;
	size_t want, used;
	int ret;

	if (!cep->rx) {
		cep->rx = kmalloc(sizeof(*cep->rx), GFP_KERNEL);
		if (!cep->rx)
			return -ENOMEM;
	}
	buf = kmalloc(SIW_MPA_MAX_FRAME, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	siw_mpa_rx_init(cep->rx, reply);
	want = hlen;
	for (;;) {
		ret = siw_cm_recv_exact(cep->sock, buf, want);
		if (ret)
			break;
		ret = siw_mpa_rx_feed(cep->rx, buf, want, &used, &cep->frame,
				      NULL);
		if (ret != -EAGAIN)
			break;
		/* the header is in and good: its private data follow */
		want = hlen + get_unaligned_be16(cep->rx->buf + MPA_KEY_SIZE + 2) -
		       cep->rx->have;
	}
	kfree(buf);
	return ret;
}

/**
 * siw_cm_bind_qp - bind QP @qpn of the device to a connection endpoint
 * @cep: the endpoint, mutex held
 * @qpn: the QP number the consumer gave
 *
 * Context: process context, under @cep's mutex.
 * Return: the QP, referenced in @cep->qp, or ERR_PTR(-EINVAL) when the
 * device has no such QP or it already has a connection.
 */
struct rvt_qp *siw_cm_bind_qp(struct siw_cep *cep, u32 qpn)
{
	struct siw_device *sdev = cep->sdev;
	struct rvt_qp *qp;

	lockdep_assert_held(&cep->mutex);
	if (qpn <= 1)
		return ERR_PTR(-EINVAL);
	rcu_read_lock();
	qp = rvt_lookup_qpn(&sdev->rdi, &sdev->port, qpn);
	if (qp)
		rvt_get_qp(qp);
	rcu_read_unlock();
	if (!qp)
		return ERR_PTR(-EINVAL);
	if (qp->ibqp.qp_type != IB_QPT_RC ||
	    xa_insert(&sdev->conns, qpn, cep, GFP_KERNEL)) {
		rvt_put_qp(qp);
		return ERR_PTR(-EINVAL);
	}
	cep->qp = qp;
	return qp;
}

/**
 * siw_cm_unbind_qp - undo siw_cm_bind_qp()
 * @cep: the endpoint, mutex held
 *
 * Context: process context, under @cep's mutex.
 */
void siw_cm_unbind_qp(struct siw_cep *cep)
{
	struct rvt_qp *qp = cep->qp;

	lockdep_assert_held(&cep->mutex);
	if (!qp)
		return;
	xa_cmpxchg(&cep->sdev->conns, qp->ibqp.qp_num, cep, NULL, 0);
	cep->qp = NULL;
	rvt_put_qp(qp);
}

/**
 * siw_cm_go_rts - hand the stream to the QP and move the QP to RTS
 * @cep: the endpoint, mutex held, with its QP bound and MPA negotiated
 * @initiator: the active side
 *
 * Context: process context, under @cep's mutex; may sleep.
 * Return: 0 (the socket is the QP's now, @cep->sock still names it), or
 * the data path's error (the socket stays the CM's).
 */
int siw_cm_go_rts(struct siw_cep *cep, bool initiator)
{
	struct siw_stream_params params = {
		.mpa = cep->mpa,
		.initiator = initiator,
	};
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_RTS,
		.max_rd_atomic = cep->mpa.ord,
		.max_dest_rd_atomic = cep->mpa.ird,
	};
	int ret;

	lockdep_assert_held(&cep->mutex);
	ret = siw_qp_stream_start(cep->qp, cep->sock, &params);
	if (ret)
		return ret;
	cep->state = SIW_CEP_ESTABLISHED;
	ret = ib_modify_qp(&cep->qp->ibqp, &attr, IB_QP_STATE |
			   IB_QP_MAX_QP_RD_ATOMIC | IB_QP_MAX_DEST_RD_ATOMIC);
	if (ret)
		/* the consumer moved it meanwhile: the close hook follows */
		ibdev_dbg(&cep->sdev->rdi.ibdev,
			  "cm: QP %u not moved to RTS: %d\n",
			  cep->qp->ibqp.qp_num, ret);
	/*
	 * What the peer sent while the QP was in INIT (a consumer's QP
	 * is, until here) waits in the socket: the responder of a plain
	 * setup sends as soon as it is in RTS, maybe before we are
	 */
	siw_qp_stream_receive(cep->qp);
	return 0;
}

/* ---- the QP lookup ops of iw_cm ---- */

static void siw_iw_add_ref(struct ib_qp *ibqp)
{
	rvt_get_qp(siw_rvt_qp(ibqp));
}

static void siw_iw_rem_ref(struct ib_qp *ibqp)
{
	rvt_put_qp(siw_rvt_qp(ibqp));
}

static struct ib_qp *siw_iw_get_qp(struct ib_device *ibdev, int qpn)
{
	struct siw_device *sdev = to_siw_dev(ibdev);
	struct rvt_qp *qp;

	if (qpn <= 1)
		return NULL;
	rcu_read_lock();
	qp = rvt_lookup_qpn(&sdev->rdi, &sdev->port, qpn);
	rcu_read_unlock();
	return qp ? &qp->ibqp : NULL;
}

/* The iWARP connection ops, added to the device's ops by siw_dev.c. */
const struct ib_device_ops siw_cm_ops = {
	.iw_accept = siw_accept,
	.iw_add_ref = siw_iw_add_ref,
	.iw_connect = siw_connect,
	.iw_create_listen = siw_create_listen,
	.iw_destroy_listen = siw_destroy_listen,
	.iw_get_qp = siw_iw_get_qp,
	.iw_reject = siw_reject,
	.iw_rem_ref = siw_iw_rem_ref,
};

/**
 * siw_cm_dev_init - the CM's part of a new device
 * @sdev: the device
 *
 * Context: any.
 */
void siw_cm_dev_init(struct siw_device *sdev)
{
	spin_lock_init(&sdev->cep_lock);
	INIT_LIST_HEAD(&sdev->ceps);
	xa_init(&sdev->conns);
}

/* The next endpoint of the device not yet stopped, referenced. */
static struct siw_cep *siw_cm_next_live(struct siw_device *sdev,
					struct list_head *done)
{
	struct siw_cep *cep;

	spin_lock_bh(&sdev->cep_lock);
	list_for_each_entry(cep, &sdev->ceps, dev_entry) {
		if (kref_get_unless_zero(&cep->ref)) {
			list_move_tail(&cep->dev_entry, done);
			spin_unlock_bh(&sdev->cep_lock);
			return cep;
		}
	}
	spin_unlock_bh(&sdev->cep_lock);
	return NULL;
}

/* Stop one endpoint, whatever it does. */
static void siw_cm_stop_cep(struct siw_cep *cep)
{
	bool put_answer = false;

	mutex_lock(&cep->mutex);
	switch (cep->state) {
	case SIW_CEP_LISTEN:
		mutex_unlock(&cep->mutex);
		siw_cm_listener_stop(cep);
		return;
	case SIW_CEP_MPA_REQ_WAIT:
	case SIW_CEP_CONNECTING:
		/* its work is blocked on the socket: wake it, it cleans up */
		if (cep->sock)
			kernel_sock_shutdown(cep->sock, SHUT_RDWR);
		break;
	case SIW_CEP_REQ_PENDING:
		if (cancel_delayed_work(&cep->timeout))
			siw_cep_put(cep);
		siw_cm_release_sock(cep);
		cep->state = SIW_CEP_CLOSED;
		fallthrough;
	case SIW_CEP_CLOSED:
		/* an unanswered request: its provider_data is stale now */
		put_answer = test_bit(SIW_CEP_F_REQUESTED, &cep->flags) &&
			     !test_and_set_bit(SIW_CEP_F_ANSWERED,
					       &cep->flags);
		break;
	case SIW_CEP_ESTABLISHED:
		mutex_unlock(&cep->mutex);
		siw_cm_close(cep, -ECONNRESET, false);
		return;
	case SIW_CEP_IDLE:
		break;
	}
	mutex_unlock(&cep->mutex);
	if (put_answer)
		siw_cep_put(cep);
}

/**
 * siw_cm_dev_stop - end every endpoint of a device that goes away
 * @sdev: the device, unregistered (no new iw_cm call comes)
 *
 * Listeners close, setups are cut, established connections report
 * CLOSE, requests nobody answered are dropped; then waits for the work
 * of the endpoints (a cut setup's cleanup), after which none holds a
 * socket, an id or a QP.  An endpoint still referenced then keeps the
 * device's memory until its last reference goes; nothing waits for it.
 *
 * Context: process context, may sleep; not from siw_cm_wq.
 */
void siw_cm_dev_stop(struct siw_device *sdev)
{
	struct siw_cep *cep;
	LIST_HEAD(done);
	bool left;

	while ((cep = siw_cm_next_live(sdev, &done))) {
		siw_cm_stop_cep(cep);
		siw_cep_put(cep);
	}
	spin_lock_bh(&sdev->cep_lock);
	list_splice(&done, &sdev->ceps);
	spin_unlock_bh(&sdev->cep_lock);
	flush_workqueue(siw_cm_wq);
	spin_lock_bh(&sdev->cep_lock);
	left = !list_empty(&sdev->ceps);
	spin_unlock_bh(&sdev->cep_lock);
	if (left)
		ibdev_dbg(&sdev->rdi.ibdev,
			  "cm: endpoints still referenced keep the device\n");
	xa_destroy(&sdev->conns);
}

/**
 * siw_cm_init - start the CM of the module
 *
 * Context: process context (module init).
 * Return: 0 or -ENOMEM.
 */
int siw_cm_init(void)
{
	siw_cm_wq = alloc_workqueue("siw_cm_wq", WQ_UNBOUND, 0);
	return siw_cm_wq ? 0 : -ENOMEM;
}

/**
 * siw_cm_exit - stop the CM of the module, after its last device
 *
 * Context: process context (module exit).
 */
void siw_cm_exit(void)
{
	destroy_workqueue(siw_cm_wq);
}
