// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw: TEMPORARY stand-in for the data path's side of siw_stream.h,
 * until siw_qp*.c lands: it keeps the socket a QP was given, moves no
 * bytes, and tells the CM when the peer closes or resets the stream
 * (sk_state_change), so that the CM can be tested alone.  Delete this
 * file when the data path provides siw_qp_stream_start()/_stop().
 */
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <net/sock.h>
#include <net/tcp_states.h>

#include "siw_stream.h"

/**
 * struct siw_stub_stream - a socket bound to a QP
 * @entry: in siw_stub_streams, under siw_stub_lock
 * @qp: the QP
 * @sock: its socket
 * @saved_state_change: the socket's callback before ours
 * @lost: siw_cm_stream_lost() was called (bit 0)
 */
struct siw_stub_stream {
	struct list_head	entry;
	struct rvt_qp		*qp;
	struct socket		*sock;
	void			(*saved_state_change)(struct sock *sk);
	unsigned long		lost;
};

/* protects siw_stub_streams */
static DEFINE_MUTEX(siw_stub_lock);
static LIST_HEAD(siw_stub_streams);

static void siw_stub_check(struct siw_stub_stream *s, struct sock *sk)
{
	int state = READ_ONCE(sk->sk_state);

	if ((state == TCP_CLOSE_WAIT || state == TCP_CLOSE) &&
	    !test_and_set_bit(0, &s->lost))
		siw_cm_stream_lost(s->qp, -ECONNRESET);
}

static void siw_stub_state_change(struct sock *sk)
{
	void (*orig)(struct sock *sk) = NULL;
	struct siw_stub_stream *s;

	read_lock_bh(&sk->sk_callback_lock);
	s = sk->sk_user_data;
	if (s) {
		orig = s->saved_state_change;
		siw_stub_check(s, sk);
	}
	read_unlock_bh(&sk->sk_callback_lock);
	if (orig)
		orig(sk);
}

int siw_qp_stream_start(struct rvt_qp *qp, struct socket *sock,
			const struct siw_stream_params *params)
{
	struct siw_stub_stream *s = kzalloc(sizeof(*s), GFP_KERNEL);
	struct sock *sk = sock->sk;

	if (!s)
		return -ENOMEM;
	s->qp = qp;
	s->sock = sock;
	mutex_lock(&siw_stub_lock);
	list_add(&s->entry, &siw_stub_streams);
	mutex_unlock(&siw_stub_lock);
	write_lock_bh(&sk->sk_callback_lock);
	s->saved_state_change = sk->sk_state_change;
	sk->sk_user_data = s;
	sk->sk_state_change = siw_stub_state_change;
	write_unlock_bh(&sk->sk_callback_lock);
	/* the peer may have gone before we looked */
	read_lock_bh(&sk->sk_callback_lock);
	siw_stub_check(s, sk);
	read_unlock_bh(&sk->sk_callback_lock);
	return 0;
}

struct socket *siw_qp_stream_stop(struct rvt_qp *qp, bool graceful)
{
	struct siw_stub_stream *s, *found = NULL;
	struct socket *sock;
	struct sock *sk;

	mutex_lock(&siw_stub_lock);
	list_for_each_entry(s, &siw_stub_streams, entry) {
		if (s->qp == qp) {
			found = s;
			list_del(&s->entry);
			break;
		}
	}
	mutex_unlock(&siw_stub_lock);
	if (!found)
		return NULL;
	sock = found->sock;
	sk = sock->sk;
	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_user_data = NULL;
	sk->sk_state_change = found->saved_state_change;
	write_unlock_bh(&sk->sk_callback_lock);
	kfree(found);
	return sock;
}
