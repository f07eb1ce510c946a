// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw: listeners.  An iw_cm listen becomes a TCP listening socket in the
 * namespace of the device's net device, bound to the id's mapped local
 * address (a wildcard address limited to that net device, as upstream).
 * The socket's sk_data_ready queues the listener's work, which accepts
 * what is there and starts a passive endpoint for each connection
 * (siw_cm_accept.c reads its MPA request).
 */
#include <linux/netdevice.h>
#include <net/ipv6.h>
#include <net/sock.h>

#include "siw_cm.h"

static void siw_cm_listen_data_ready(struct sock *sk)
{
	struct siw_cep *cep;

	read_lock_bh(&sk->sk_callback_lock);
	cep = sk->sk_user_data;
	if (cep)
		queue_work(siw_cm_wq, &cep->work);
	read_unlock_bh(&sk->sk_callback_lock);
}

/* A new connection of listener @l; under @l's mutex. */
static void siw_cm_new_child(struct siw_cep *l, struct socket *sock)
{
	struct siw_cep *child;

	if (l->nr_children >= l->backlog) {
		ibdev_dbg(&l->sdev->rdi.ibdev,
			  "cm: backlog %d full, connection dropped\n",
			  l->backlog);
		goto drop;
	}
	/* a clone of the listener's sock: not the listener's callbacks */
	write_lock_bh(&sock->sk->sk_callback_lock);
	sock->sk->sk_user_data = NULL;
	sock->sk->sk_data_ready = l->saved_data_ready;
	write_unlock_bh(&sock->sk->sk_callback_lock);
	child = siw_cep_alloc(l->sdev);
	if (!child)
		goto drop;
	sock_set_reuseaddr(sock->sk);
	tcp_sock_set_nodelay(sock->sk);
	WRITE_ONCE(sock->sk->sk_rcvtimeo, SIW_MPA_TIMEOUT);
	WRITE_ONCE(sock->sk->sk_sndtimeo, SIW_MPA_TIMEOUT);
	child->sock = sock;
	child->state = SIW_CEP_MPA_REQ_WAIT;
	siw_cep_get(l);
	child->listener = l;
	list_add_tail(&child->child_entry, &l->children);
	l->nr_children++;
	INIT_WORK(&child->work, siw_cm_passive_work);
	queue_work(siw_cm_wq, &child->work);
	return;
drop:
	kernel_sock_shutdown(sock, SHUT_RDWR);
	sock_release(sock);
}

/* sk_data_ready of the listening socket: accept what came. */
static void siw_cm_listen_work(struct work_struct *work)
{
	struct siw_cep *l = container_of(work, struct siw_cep, work);
	struct socket *sock;

	mutex_lock(&l->mutex);
	while (l->state == SIW_CEP_LISTEN) {
		if (kernel_accept(l->sock, &sock, O_NONBLOCK))
			break;
		siw_cm_new_child(l, sock);
	}
	mutex_unlock(&l->mutex);
}

static int siw_cm_listen_bind(struct siw_cep *cep, struct iw_cm_id *cm_id)
{
	struct sockaddr_storage *addr = &cm_id->m_local_addr;
	struct sock *sk = cep->sock->sk;
	struct net_device *ndev;
	bool any;

	if (addr->ss_family == AF_INET) {
		any = ipv4_is_zeronet(((struct sockaddr_in *)addr)->sin_addr.s_addr);
	} else {
		any = ipv6_addr_any(&((struct sockaddr_in6 *)addr)->sin6_addr);
		if (cm_id->afonly) {
			int ret = ip6_sock_set_v6only(sk);

			if (ret)
				return ret;
		}
	}
	if (any) {
		/* one siw device per net device: listen on ours only */
		ndev = ib_device_get_netdev(&cep->sdev->rdi.ibdev, SIW_PORT);
		if (!ndev)
			return -ENODEV;
		sk->sk_bound_dev_if = ndev->ifindex;
		dev_put(ndev);
	}
	return siw_cm_bind_mapped(cep->sock, cm_id);
}

/**
 * siw_create_listen - iw_create_listen of a siw device
 * @cm_id: the listening id; its m_local_addr is the address to listen on
 * @backlog: connections that may wait for their MPA request and for
 *	the consumer
 *
 * Context: process context, may sleep.
 * Return: 0, -EAFNOSUPPORT, -ENODEV (no net device), -ENOMEM, or the
 * socket's error (-EADDRINUSE, -EADDRNOTAVAIL ...).
 */
int siw_create_listen(struct iw_cm_id *cm_id, int backlog)
{
	struct siw_device *sdev = to_siw_dev(cm_id->device);
	struct siw_cep *cep;
	struct sock *sk;
	int ret;

	cep = siw_cep_alloc(sdev);
	if (!cep)
		return -ENOMEM;
	INIT_WORK(&cep->work, siw_cm_listen_work);
	mutex_lock(&cep->mutex);
	cep->sock = siw_cm_socket(sdev, cm_id->m_local_addr.ss_family);
	if (IS_ERR(cep->sock)) {
		ret = PTR_ERR(cep->sock);
		cep->sock = NULL;
		goto err;
	}
	ret = siw_cm_listen_bind(cep, cm_id);
	if (ret)
		goto err;
	ret = kernel_listen(cep->sock, backlog);
	if (ret)
		goto err;
	cep->backlog = backlog;
	cep->cm_id = cm_id;
	cm_id->add_ref(cm_id);
	cm_id->provider_data = cep;
	cep->state = SIW_CEP_LISTEN;
	sk = cep->sock->sk;
	write_lock_bh(&sk->sk_callback_lock);
	cep->saved_data_ready = sk->sk_data_ready;
	sk->sk_user_data = cep;
	sk->sk_data_ready = siw_cm_listen_data_ready;
	write_unlock_bh(&sk->sk_callback_lock);
	mutex_unlock(&cep->mutex);
	/* what arrived before the callback was set */
	queue_work(siw_cm_wq, &cep->work);
	ibdev_dbg(&sdev->rdi.ibdev, "cm: listening on %pISpc\n",
		  &cm_id->m_local_addr);
	return 0;

err:
	siw_cm_release_sock(cep);
	mutex_unlock(&cep->mutex);
	siw_cep_put(cep);
	ibdev_dbg(&sdev->rdi.ibdev, "cm: listen on %pISpc failed: %d\n",
		  &cm_id->m_local_addr, ret);
	return ret;
}

/**
 * siw_cm_listener_stop - close a listener and its connections in setup
 * @cep: the listener, referenced by the caller
 *
 * Stops accepting, wakes the passive endpoints still reading their
 * request (they close), lets go of the iw_cm id and drops the
 * listener's own reference.  Runs once; later calls do nothing.
 *
 * Context: process context, may sleep; takes the listener's mutex.
 */
void siw_cm_listener_stop(struct siw_cep *cep)
{
	struct siw_cep *child;
	struct sock *sk;

	mutex_lock(&cep->mutex);
	if (cep->state != SIW_CEP_LISTEN) {
		mutex_unlock(&cep->mutex);
		return;
	}
	cep->state = SIW_CEP_CLOSED;
	sk = cep->sock->sk;
	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_user_data = NULL;
	sk->sk_data_ready = cep->saved_data_ready;
	write_unlock_bh(&sk->sk_callback_lock);
	/* a child leaves the list under our mutex before it drops its socket */
	list_for_each_entry(child, &cep->children, child_entry)
		kernel_sock_shutdown(child->sock, SHUT_RDWR);
	siw_cm_drop_id(cep);
	mutex_unlock(&cep->mutex);
	/* the work sees CLOSED and leaves; the socket is ours again */
	cancel_work_sync(&cep->work);
	mutex_lock(&cep->mutex);
	siw_cm_release_sock(cep);
	mutex_unlock(&cep->mutex);
	siw_cep_put(cep);
}

/**
 * siw_destroy_listen - iw_destroy_listen of a siw device
 * @cm_id: the listening id
 *
 * Connections whose CONNECT_REQUEST was reported stay: they belong to
 * their own ids.  No event is reported on @cm_id after this returns.
 *
 * Context: process context, may sleep.
 * Return: 0 (also when the device's end closed the listener already).
 */
int siw_destroy_listen(struct iw_cm_id *cm_id)
{
	struct siw_device *sdev = to_siw_dev(cm_id->device);
	struct siw_cep *cep, *found = NULL;

	/* the id's provider_data may be gone with the device's end */
	spin_lock_bh(&sdev->cep_lock);
	list_for_each_entry(cep, &sdev->ceps, dev_entry) {
		if (cep == cm_id->provider_data &&
		    kref_get_unless_zero(&cep->ref)) {
			found = cep;
			break;
		}
	}
	spin_unlock_bh(&sdev->cep_lock);
	if (!found)
		return 0;
	siw_cm_listener_stop(found);
	siw_cep_put(found);
	return 0;
}
