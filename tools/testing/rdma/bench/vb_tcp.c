// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_verbs_bench: kernel TCP measured like the verbs, as a column
 * beside them.
 *
 * One connection with TCP_NODELAY on both ends.  The client sends
 * messages, each a struct vb_tcp_hdr and its payload (every byte the
 * header's pattern); the server reads each message in full, checks the
 * payload and answers with a 4-byte ack (0: the data was right).  Both
 * ends busy-poll their socket for what they wait for, as the verbs poll
 * their CQ (a sleeping reader would add a wake-up per message).  The
 * ack stands for the RC ACK that an RDMA completion waits for, so a
 * message counts as done when its ack is back:
 *   latency   LAT messages one at a time, from the send to the ack;
 *   rate      RATE messages with up to DEPTH not acknowledged yet;
 *   bandwidth the 64 KiB rate times 64 KiB.
 * A header with @end set ends the connection.  "tcp-pair" runs the
 * server in a kernel thread on 127.0.0.1, "tcp-server" in the writer of
 * the run file, for one client.
 */
#include <linux/delay.h>
#include <linux/in.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/net.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/tcp.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "vb.h"

/* a silent peer fails a receive after this long */
#define VB_TCP_RCV_TIMEOUT_S	60

struct vb_tcp_hdr {
	__be32	len;
	u8	pat;
	u8	end;
	__be16	pad;
};

/* The server's side of one connection. */
struct vb_tcp_server {
	struct socket		*lsock;
	struct socket		*sock;
	void			*buf;
	unsigned long		msgs;
	unsigned long		bad;
	int			err;
	struct completion	done;	/* pair mode: the thread ended */
};

/* How long a blocking accept waits. */
static void vb_tcp_timeout(struct socket *sock, long secs)
{
	WRITE_ONCE(sock->sk->sk_rcvtimeo, secs * HZ);
}

static int vb_tcp_send(struct socket *sock, struct kvec *iov, size_t n,
		       size_t len)
{
	struct msghdr msg = { .msg_flags = MSG_NOSIGNAL };
	int ret;

	ret = kernel_sendmsg(sock, &msg, iov, n, len);
	if (ret < 0)
		return ret;
	return ret == len ? 0 : -EIO;
}

/*
 * All of @len bytes, or an error (-ECONNRESET when the peer closed,
 * -ETIMEDOUT when it was silent for VB_TCP_RCV_TIMEOUT_S).  Polls the
 * socket (MSG_DONTWAIT) without sleeping.
 */
static int vb_tcp_recv(struct socket *sock, void *buf, size_t len)
{
	unsigned long end = jiffies + VB_TCP_RCV_TIMEOUT_S * HZ;
	struct msghdr msg = {};
	struct kvec iov;
	int ret;

	while (len) {
		iov.iov_base = buf;
		iov.iov_len = len;
		ret = kernel_recvmsg(sock, &msg, &iov, 1, len, MSG_DONTWAIT);
		if (ret == -EAGAIN) {
			if (time_after(jiffies, end))
				return -ETIMEDOUT;
			cond_resched();
			continue;
		}
		if (ret < 0)
			return ret;
		if (!ret)
			return -ECONNRESET;
		buf += ret;
		len -= ret;
	}
	return 0;
}

/* Answer every message with its ack until the client's end header. */
static int vb_tcp_serve(struct vb_tcp_server *srv)
{
	struct vb_tcp_hdr h;
	struct kvec iov;
	__be32 ack;
	u32 len;
	int ret;

	for (;;) {
		ret = vb_tcp_recv(srv->sock, &h, sizeof(h));
		if (ret)
			return ret;
		if (h.end)
			return 0;
		len = be32_to_cpu(h.len);
		if (len > VB_MAX_SIZE)
			return -EPROTO;
		ret = vb_tcp_recv(srv->sock, srv->buf, len);
		if (ret)
			return ret;
		srv->msgs++;
		ack = cpu_to_be32(0);
		if (memchr_inv(srv->buf, h.pat, len)) {
			srv->bad++;
			ack = cpu_to_be32(1);
		}
		iov.iov_base = &ack;
		iov.iov_len = sizeof(ack);
		ret = vb_tcp_send(srv->sock, &iov, 1, sizeof(ack));
		if (ret)
			return ret;
	}
}

/* A kernel TCP socket and the IPv4 address @addr:@port in @sin. */
static int vb_tcp_socket(struct socket **sock, struct sockaddr_in *sin,
			 __be32 addr, u16 port)
{
	*sin = (struct sockaddr_in){
		.sin_family = AF_INET,
		.sin_addr.s_addr = addr,
		.sin_port = htons(port),
	};
	return sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_TCP,
				sock);
}

/* A TCP socket bound to @addr:@port (0: any port), listening. */
static int vb_tcp_listen(struct socket **lsock, __be32 addr, u16 port)
{
	struct sockaddr_in sin;
	int ret;

	ret = vb_tcp_socket(lsock, &sin, addr, port);
	if (ret)
		return ret;
	sock_set_reuseaddr((*lsock)->sk);
	ret = kernel_bind(*lsock, (struct sockaddr *)&sin, sizeof(sin));
	if (!ret)
		ret = kernel_listen(*lsock, 1);
	if (ret) {
		sock_release(*lsock);
		*lsock = NULL;
	}
	return ret;
}

/* Accept one client on srv->lsock and serve it. */
static int vb_tcp_accept_serve(struct vb_tcp_server *srv)
{
	int ret;

	ret = kernel_accept(srv->lsock, &srv->sock, 0);
	if (ret)
		return ret;
	tcp_sock_set_nodelay(srv->sock->sk);
	ret = vb_tcp_serve(srv);
	sock_release(srv->sock);
	srv->sock = NULL;
	return ret;
}

static int vb_tcp_server_thread(void *arg)
{
	struct vb_tcp_server *srv = arg;

	srv->err = vb_tcp_accept_serve(srv);
	kthread_complete_and_exit(&srv->done, 0);
}

/* ---- the client ---- */

struct vb_tcp_client {
	struct socket	*sock;
	void		*buf;
	unsigned long	bad;	/* acks that said the data was wrong */
};

static int vb_tcp_connect(struct vb_tcp_client *c, __be32 addr, u16 port)
{
	struct sockaddr_in sin;
	int ret;

	ret = vb_tcp_socket(&c->sock, &sin, addr, port);
	if (ret)
		return ret;
	ret = kernel_connect(c->sock, (struct sockaddr *)&sin, sizeof(sin), 0);
	if (ret) {
		sock_release(c->sock);
		c->sock = NULL;
		return ret;
	}
	tcp_sock_set_nodelay(c->sock->sk);
	return 0;
}

/* Connect, retrying while the server is not there yet. */
static int vb_tcp_connect_retry(struct vb_tcp_client *c, __be32 addr,
				u16 port)
{
	unsigned long end = jiffies + VB_CONNECT_RETRY_S * HZ;
	int ret;

	for (;;) {
		ret = vb_tcp_connect(c, addr, port);
		if (ret != -ECONNREFUSED && ret != -ETIMEDOUT &&
		    ret != -EHOSTUNREACH && ret != -ENETUNREACH)
			return ret;
		if (time_after(jiffies, end))
			return ret;
		msleep(500);
	}
}

static int vb_tcp_msg(struct vb_tcp_client *c, u32 size, u8 pat)
{
	struct vb_tcp_hdr h = { .len = cpu_to_be32(size), .pat = pat };
	struct kvec iov[2] = {
		{ .iov_base = &h, .iov_len = sizeof(h) },
		{ .iov_base = c->buf, .iov_len = size },
	};

	return vb_tcp_send(c->sock, iov, 2, sizeof(h) + size);
}

static int vb_tcp_ack(struct vb_tcp_client *c)
{
	__be32 ack;
	int ret;

	ret = vb_tcp_recv(c->sock, &ack, sizeof(ack));
	if (!ret && ack)
		c->bad++;
	return ret;
}

/* @n messages with up to @depth unacknowledged; ns or an error. */
static s64 vb_tcp_burst(struct vb_tcp_client *c, u32 size, u8 pat,
			unsigned int n, unsigned int depth)
{
	u64 start = ktime_get_ns();
	unsigned int sent = 0, acked = 0;
	int ret;

	while (acked < n) {
		while (sent < n && sent - acked < depth) {
			ret = vb_tcp_msg(c, size, pat);
			if (ret)
				return ret;
			sent++;
		}
		ret = vb_tcp_ack(c);
		if (ret)
			return ret;
		acked++;
	}
	return ktime_get_ns() - start;
}

static int vb_tcp_latency(struct vb_run *r, struct vb_tcp_client *c,
			  u32 size, u8 pat)
{
	unsigned int i;
	u64 t0;
	int ret;

	for (i = 0; i < r->lat; i++) {
		t0 = ktime_get_ns();
		ret = vb_tcp_msg(c, size, pat);
		if (!ret)
			ret = vb_tcp_ack(c);
		if (ret)
			return ret;
		r->samples[i] = ktime_get_ns() - t0;
	}
	sort(r->samples, r->lat, sizeof(u64), vb_cmp_u64, NULL);
	return 0;
}

/* One message size: latency, rate, bandwidth; the acks check the data. */
static int vb_tcp_row(struct vb_run *r, struct vb_tcp_client *c, u32 size,
		      u8 pat)
{
	unsigned long bad = c->bad;
	s64 ns;
	int ret;

	memset(c->buf, pat, size);
	ns = vb_tcp_burst(c, size, pat,
			  min_t(unsigned int, VB_WARMUP, r->lat), 1);
	if (ns < 0)
		return ns;
	ret = vb_tcp_latency(r, c, size, pat);
	if (ret)
		return ret;
	ns = vb_tcp_burst(c, size, pat, r->rate, r->depth);
	if (ns < 0)
		return ns;
	vb_check_done(r, "SEND", size, c->bad == bad);
	vb_row_table(r, "SEND/WRITE", size, ns, c->bad != bad);
	/* one measurement stands for both */
	vb_row_results(r, vb_op_name[VB_SEND], size, ns);
	vb_row_results(r, vb_op_name[VB_WRITE], size, ns);
	return 0;
}

/* Every size, then the end header; READ has no TCP equivalent. */
static int vb_tcp_rows(struct vb_run *r, struct vb_tcp_client *c)
{
	struct vb_tcp_hdr h = { .end = 1 };
	struct kvec iov = { .iov_base = &h, .iov_len = sizeof(h) };
	unsigned int i;
	int ret;

	vb_table_head(r, "one TCP connection, TCP_NODELAY, each message acknowledged by the peer");
	for (i = 0; i < ARRAY_SIZE(vb_sizes); i++) {
		ret = vb_tcp_row(r, c, vb_sizes[i], 0x21 + i);
		if (ret) {
			vb_out(r, "%-10s %6u failed: %d\n", "SEND/WRITE",
			       vb_sizes[i], ret);
			return ret;
		}
	}
	for (i = 0; i < ARRAY_SIZE(vb_sizes); i++) {
		vb_out(r, "%-10s %6u %11s\n", vb_op_name[VB_READ], vb_sizes[i],
		       "n/a");
		vb_result(r, vb_op_name[VB_READ], vb_sizes[i], "lat_med_us",
			  "n/a");
	}
	return vb_tcp_send(c->sock, &iov, 1, sizeof(h));
}

/* The client's whole run against @addr:@port. */
static int vb_tcp_client_run(struct vb_run *r, __be32 addr, u16 port)
{
	struct vb_tcp_client c = {};
	int ret;

	c.buf = kvzalloc(VB_MAX_SIZE, GFP_KERNEL);
	if (!c.buf)
		return -ENOMEM;
	ret = vb_tcp_connect_retry(&c, addr, port);
	if (ret) {
		vb_out(r, "error: cannot connect to %pI4:%u: %d\n", &addr, port,
		       ret);
		goto out;
	}
	ret = vb_tcp_rows(r, &c);
	sock_release(c.sock);
out:
	kvfree(c.buf);
	return ret;
}

/* "tcp-pair": the server in a thread on 127.0.0.1, the client here. */
static int vb_tcp_pair(struct vb_run *r, struct vb_tcp_server *srv)
{
	struct sockaddr_in sin;
	struct task_struct *t;
	int ret;

	ret = vb_tcp_listen(&srv->lsock, htonl(INADDR_LOOPBACK), 0);
	if (ret)
		return ret;
	ret = kernel_getsockname(srv->lsock, (struct sockaddr *)&sin);
	if (ret < 0)
		goto out;
	init_completion(&srv->done);
	t = kthread_run(vb_tcp_server_thread, srv, "vb_tcp_server");
	if (IS_ERR(t)) {
		ret = PTR_ERR(t);
		goto out;
	}
	ret = vb_tcp_client_run(r, sin.sin_addr.s_addr, ntohs(sin.sin_port));
	/* wakes the thread if it still waits in accept */
	kernel_sock_shutdown(srv->lsock, SHUT_RDWR);
	wait_for_completion(&srv->done);
	if (!ret && srv->err)
		ret = srv->err;
out:
	sock_release(srv->lsock);
	return ret;
}

/* "tcp-server PORT": one client, then return. */
static int vb_tcp_server_run(struct vb_run *r, struct vb_tcp_server *srv)
{
	int ret;

	ret = vb_tcp_listen(&srv->lsock, htonl(INADDR_ANY), r->port);
	if (ret) {
		vb_out(r, "error: cannot listen on port %u: %d\n", r->port, ret);
		return ret;
	}
	vb_tcp_timeout(srv->lsock, VB_SERVER_TIMEOUT_S);
	ret = vb_tcp_accept_serve(srv);
	sock_release(srv->lsock);
	vb_out(r, "tcp-server: port %u, %lu messages, %lu with wrong data: %d\n",
	       r->port, srv->msgs, srv->bad, ret);
	return ret;
}

int vb_tcp_run(struct vb_run *r)
{
	struct vb_tcp_server *srv;
	int ret;

	r->transport = "tcp";
	strscpy(r->driver, "tcp", sizeof(r->driver));
	srv = kzalloc(sizeof(*srv), GFP_KERNEL);
	if (!srv)
		return -ENOMEM;
	srv->buf = kvzalloc(VB_MAX_SIZE, GFP_KERNEL);
	if (!srv->buf) {
		ret = -ENOMEM;
		goto out;
	}
	switch (r->mode) {
	case VB_TCP_PAIR:
		vb_out(r, "tcp-pair: 127.0.0.1, the server a kernel thread\n");
		ret = vb_tcp_pair(r, srv);
		break;
	case VB_TCP_SERVER:
		ret = vb_tcp_server_run(r, srv);
		break;
	default:
		vb_out(r, "tcp-client: server %pI4:%u\n", &r->peer, r->port);
		ret = vb_tcp_client_run(r, r->peer, r->port);
		break;
	}
	kvfree(srv->buf);
out:
	kfree(srv);
	return ret;
}
