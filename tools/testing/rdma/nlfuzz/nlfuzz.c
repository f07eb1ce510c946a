// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * nlfuzz: sends malformed and random messages to NETLINK_RDMA and counts
 * what the kernel answers.  See Documentation/testing.rst, "nlfuzz".
 *
 *   nlfuzz [-c COUNT] [-s SEED] [-u UID[:GID]] [-t SECONDS] [-m EVERY]
 *          [-r FIRST-LAST] [-R CLIENT,...] [-S CLIENTS] [-v] [-n]
 *          [-P PROTOCOL]
 *
 * Exit status: 0 done, 1 a check failed (an unprivileged admin request
 * was accepted, a reply was malformed), 2 could not run (no NETLINK_RDMA,
 * bad arguments, could not drop privileges).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "nlfuzz.h"

#ifndef NETLINK_RDMA
#define NETLINK_RDMA 20
#endif

/* errno values counted one by one; larger ones share the last slot */
#define NERR 160
#define RECV_BUF (128 * 1024)
/* datagrams read per drain, so an endless dump cannot stall the run */
#define DRAIN_MAX 256

struct stats {
	unsigned long datagrams, messages, bytes, skipped;
	unsigned long by_strategy[ST_NUM];
	unsigned long send_err[NERR];
	unsigned long recv_err[NERR];
	unsigned long sockopt_err[NERR];
	unsigned long replies, truncated, malformed, ctrl;
	unsigned long ack[NLFUZZ_CLIENTS];
	unsigned long err[NLFUZZ_CLIENTS][NERR];
	unsigned long err_extack[NLFUZZ_CLIENTS][NERR];
	unsigned long done[NERR];
	unsigned long data[NLFUZZ_CLIENTS];
	unsigned long mcast[NLFUZZ_CLIENTS];
	unsigned long side_sockets;
};

struct probe {
	unsigned int client, op;
	int result;		/* -1 none, 0 accepted, > 0 errno, PROBE_ABSENT */
};

/* a probe result: the client has no callback for the operation */
#define PROBE_ABSENT 0x10000

struct ctx {
	unsigned long long seed;
	unsigned long count;
	unsigned long first, last;	/* datagrams sent: [first, last] */
	unsigned long mark_every;
	unsigned int time_limit;
	int verbose, dry_run;
	int protocol;			/* NETLINK_RDMA but for self tests */
	char rare[64];			/* -R as given */
	unsigned int sweep_clients;	/* -S, 0 when not given */
	int uid, gid;			/* -1: stay who we are */
	int kmsg;
	int sock[2];			/* [1] has extended acks */
	int listener;
	__u32 seq;
	/* the admin probe waits for the answer to this sequence number */
	__u32 probe_seq;
	int probe_result;
	struct stats st;
	__u8 rbuf[RECV_BUF];
};

static struct ctx g = {
	.count = 10000, .last = ~0UL, .mark_every = 1000,
	.uid = -1, .gid = -1, .kmsg = -1, .sock = { -1, -1 },
	.listener = -1, .protocol = NETLINK_RDMA,
};

static void fail_setup(const char *fmt, ...)
{
	va_list ap;

	fputs("nlfuzz: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static unsigned int eslot(int e)
{
	if (e < 0)
		e = -e;
	return e < NERR ? e : NERR - 1;
}

static const char *ename(unsigned int e)
{
	const char *n;

	if (e == 0)
		return "0 (success)";
	if (e == NERR - 1)
		return "(errno >= 159)";
	n = strerrorname_np(e);
	return n ? n : "?";
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void kmsg(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	if (g.kmsg < 0)
		return;
	n = snprintf(line, sizeof(line), "<5>nlfuzz: ");
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(line))
		n = sizeof(line) - 1;
	if (write(g.kmsg, line, n) < 0)
		g.kmsg = -1;
}

/* ---- replies ---------------------------------------------------------- */

/* The extended ack text of an error message, or NULL. */
static const char *extack_msg(const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = NLMSG_DATA(nlh);
	size_t off = NLMSG_HDRLEN + sizeof(*e);
	const struct nlattr *nla;
	const char *msg;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return NULL;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	off = NLMSG_ALIGN(off);
	while (off + NLA_HDRLEN <= nlh->nlmsg_len) {
		nla = (const struct nlattr *)((const __u8 *)nlh + off);
		if (nla->nla_len < NLA_HDRLEN ||
		    off + nla->nla_len > nlh->nlmsg_len)
			return NULL;
		if ((nla->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG) {
			msg = (const char *)nla + NLA_HDRLEN;
			/* the text must end inside its attribute */
			if (nla->nla_len == NLA_HDRLEN ||
			    msg[nla->nla_len - NLA_HDRLEN - 1])
				return NULL;
			return msg;
		}
		off += NLA_ALIGN(nla->nla_len);
	}
	return NULL;
}

/*
 * The kernel's dispatch answers an operation that its client does not
 * implement (the kernel only sends it, or it is not written yet) with
 * this text, before it looks at permissions.
 */
#define NO_OP_EXTACK "Operation not supported by this client"

static void note_probe(const struct nlmsghdr *nlh, __u32 seq, int result)
{
	const char *msg;

	if (!g.probe_seq || seq != g.probe_seq || g.probe_result >= 0)
		return;
	g.probe_result = result;
	if (result == EINVAL && nlh->nlmsg_type == NLMSG_ERROR) {
		msg = extack_msg(nlh);
		if (msg && !strcmp(msg, NO_OP_EXTACK))
			g.probe_result = PROBE_ABSENT;
	}
}

static void parse(const __u8 *buf, size_t n, int multicast, int truncated)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;
	const struct nlmsgerr *e;
	unsigned int client, slot;
	size_t left = n;

	for (; NLMSG_OK(nlh, left); nlh = NLMSG_NEXT(nlh, left)) {
		g.st.replies++;
		client = RDMA_NL_GET_CLIENT(nlh->nlmsg_type);
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e))) {
				g.st.malformed++;
				continue;
			}
			e = NLMSG_DATA(nlh);
			client = RDMA_NL_GET_CLIENT(e->msg.nlmsg_type);
			note_probe(nlh, e->msg.nlmsg_seq, eslot(e->error));
			if (!e->error) {
				g.st.ack[client]++;
				continue;
			}
			slot = eslot(e->error);
			g.st.err[client][slot]++;
			if (extack_msg(nlh))
				g.st.err_extack[client][slot]++;
		} else if (nlh->nlmsg_type == NLMSG_DONE) {
			int v = 0;

			if (nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(v)))
				memcpy(&v, NLMSG_DATA(nlh), sizeof(v));
			g.st.done[eslot(v)]++;
			note_probe(nlh, nlh->nlmsg_seq, eslot(v));
		} else if (nlh->nlmsg_type < NLMSG_MIN_TYPE) {
			g.st.ctrl++;
		} else if (multicast) {
			g.st.mcast[client]++;
		} else {
			g.st.data[client]++;
			note_probe(nlh, nlh->nlmsg_seq, 0);
		}
	}
	if (left && !truncated)
		g.st.malformed++;
}

/* Reads what is queued on fd without blocking, at most max datagrams. */
static void drain(int fd, unsigned int max, int multicast)
{
	struct iovec iov = { g.rbuf, sizeof(g.rbuf) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	unsigned int i;
	ssize_t n;

	for (i = 0; i < max; i++) {
		n = recvmsg(fd, &mh, MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return;
			if (errno == EINTR)
				continue;
			g.st.recv_err[eslot(errno)]++;
			/* ENOBUFS: the queue overflowed, the rest is there */
			if (errno == ENOBUFS)
				continue;
			return;
		}
		if (mh.msg_flags & MSG_TRUNC)
			g.st.truncated++;
		parse(g.rbuf, n, multicast, mh.msg_flags & MSG_TRUNC);
	}
}

/* ---- sockets ------------------------------------------------------------- */

static int nl_socket(int fatal)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, g.protocol);

	if (fd >= 0)
		return fd;
	if (!fatal) {
		g.st.sockopt_err[eslot(errno)]++;
		return -1;
	}
	if (errno == EPROTONOSUPPORT)
		fail_setup("socket(NETLINK_RDMA): %s: %s", strerror(errno),
			   "no NETLINK_RDMA here (is ib_core with its netlink core loaded?)");
	fail_setup("socket(NETLINK_RDMA): %s", strerror(errno));
	return -1;
}

static void sockopt(int fd, int level, int name, int val)
{
	if (setsockopt(fd, level, name, &val, sizeof(val)) < 0)
		g.st.sockopt_err[eslot(errno)]++;
}

static int send_to_kernel(int fd, const void *buf, size_t len)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };

	if (sendto(fd, buf, len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		g.st.send_err[eslot(errno)]++;
		return -1;
	}
	return 0;
}

static void open_sockets(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int i, grp;

	for (i = 0; i < 2; i++) {
		g.sock[i] = nl_socket(1);
		sockopt(g.sock[i], SOL_SOCKET, SO_RCVBUF, 1 << 20);
	}
	sockopt(g.sock[1], SOL_NETLINK, NETLINK_EXT_ACK, 1);
	sockopt(g.sock[1], SOL_NETLINK, NETLINK_GET_STRICT_CHK, 1);

	/* a listener on every group, to take in what the fuzzing causes */
	g.listener = nl_socket(1);
	sockopt(g.listener, SOL_SOCKET, SO_RCVBUF, 1 << 20);
	if (bind(g.listener, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		g.st.sockopt_err[eslot(errno)]++;
	for (grp = RDMA_NL_GROUP_IWPM; grp < RDMA_NL_NUM_GROUPS; grp++)
		sockopt(g.listener, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, grp);
}

/* A socket of its own: dump requests, at most one read, then close. */
static void close_mid_dump(const struct datagram *d)
{
	int fd = nl_socket(0);
	unsigned int i;

	if (fd < 0)
		return;
	g.st.side_sockets++;
	sockopt(fd, SOL_SOCKET, SO_RCVBUF, 0);
	send_to_kernel(fd, d->data, d->len);
	for (i = 0; i < d->reads; i++)
		drain(fd, 1, 0);
	close(fd);
}

static void multicast(const struct datagram *d)
{
	struct sockaddr_nl sa = {
		.nl_family = AF_NETLINK, .nl_groups = d->bind_groups,
	};
	int fd = nl_socket(0);
	unsigned int i;

	if (fd < 0)
		return;
	g.st.side_sockets++;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		g.st.sockopt_err[eslot(errno)]++;
	for (i = 0; i < d->njoin; i++)
		sockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, d->join[i]);
	if (d->len)
		send_to_kernel(fd, d->data, d->len);
	drain(fd, DRAIN_MAX, 1);
	for (i = 0; i < d->njoin; i += 2)
		sockopt(fd, SOL_NETLINK, NETLINK_DROP_MEMBERSHIP, d->join[i]);
	close(fd);
}

/* ---- privileges ------------------------------------------------------------ */

static int has_net_admin(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data) < 0)
		fail_setup("capget: %s", strerror(errno));
	return !!((data[0].effective | data[0].permitted) &
		  (1u << CAP_NET_ADMIN));
}

static void drop_privileges(void)
{
	if (setgroups(0, NULL) < 0)
		fail_setup("setgroups: %s", strerror(errno));
	if (setgid(g.gid) < 0)
		fail_setup("setgid(%d): %s", g.gid, strerror(errno));
	if (setuid(g.uid) < 0)
		fail_setup("setuid(%d): %s", g.uid, strerror(errno));
	if (getuid() != (uid_t)g.uid || geteuid() != (uid_t)g.uid)
		fail_setup("still uid %d after setuid(%d)", geteuid(), g.uid);
	if (has_net_admin())
		fail_setup("uid %d still has CAP_NET_ADMIN", g.uid);
}

/* ---- admin probe ---------------------------------------------------------- */

static struct probe probes[64];
static unsigned int nprobes;

/*
 * One header-only request per admin-only operation, answered before the
 * fuzzing starts.  Without CAP_NET_ADMIN none may be accepted.
 */
static void admin_probe(void)
{
	unsigned int client, op, n;
	const struct op_desc *d;
	__u8 buf[NLMSG_HDRLEN];
	struct probe *p;
	struct pollfd pfd = { .events = POLLIN };
	double t0;

	/* the socket with extended acks: they tell an absent operation */
	pfd.fd = g.sock[1];
	drain(g.sock[1], DRAIN_MAX, 0);
	for (client = 0; client < NLFUZZ_CLIENTS; client++) {
		n = client_num_ops(client);
		for (op = 0; op < n; op++) {
			d = op_lookup(client, op);
			if (!d || !d->admin || nprobes == 64)
				continue;
			p = &probes[nprobes++];
			p->client = client;
			p->op = op;
			/* a sequence range of its own: the datagrams of a
			 * seed stay the same with or without the probe
			 */
			g.probe_seq = 0x80000000u + nprobes;
			g.probe_result = -1;
			gen_header(buf, client, op, NLM_F_REQUEST | NLM_F_ACK,
				   g.probe_seq);
			if (send_to_kernel(g.sock[1], buf, sizeof(buf)) < 0) {
				p->result = -1;
				continue;
			}
			t0 = now();
			while (g.probe_result < 0 && now() - t0 < 2) {
				poll(&pfd, 1, 100);
				drain(g.sock[1], DRAIN_MAX, 0);
			}
			p->result = g.probe_result;
		}
	}
	g.probe_seq = 0;
}

/* ---- main loop ---------------------------------------------------------- */

static void show(unsigned long idx, const struct datagram *d)
{
	size_t i, n = g.verbose > 1 ? d->len : (d->len < 48 ? d->len : 48);

	printf("#%lu %s sock%u len %zu msgs %u:", idx, strategy_names[d->st],
	       d->sock, d->len, d->nmsgs);
	for (i = 0; i < n; i++)
		printf("%s%02x", i % 4 ? "" : " ", d->data[i]);
	printf("%s\n", n < d->len ? " ..." : "");
	fflush(stdout);
}

static void do_datagram(unsigned long idx, struct datagram *d)
{
	/* a socket whose dump is left pending for the next hold datagrams */
	static unsigned int hold, held;
	int fd = g.sock[d->sock];

	g.st.datagrams++;
	g.st.messages += d->nmsgs;
	g.st.bytes += d->len;
	g.st.by_strategy[d->st]++;
	if (g.verbose)
		show(idx, d);
	if (g.dry_run)
		return;

	switch (d->st) {
	case ST_CLOSE_MID_DUMP:
		close_mid_dump(d);
		break;
	case ST_MCAST:
		multicast(d);
		break;
	case ST_DUMP_ABANDON:
		send_to_kernel(fd, d->data, d->len);
		drain(fd, d->reads, 0);
		/* leave the dump be for the next few datagrams */
		hold = 1 + (idx % 8);
		held = d->sock;
		break;
	default:
		send_to_kernel(fd, d->data, d->len);
		break;
	}
	/* only requests make the kernel write to a main socket */
	if (hold && d->st != ST_DUMP_ABANDON)
		hold--;
	if (!hold || held != d->sock)
		drain(fd, DRAIN_MAX, 0);
	if (!(idx % 16))
		drain(g.listener, DRAIN_MAX, 1);
}

static __u64 checksum(__u64 sum, const struct datagram *d)
{
	size_t i;

	for (i = 0; i < d->len; i++)
		sum = (sum ^ d->data[i]) * 0x100000001b3ULL;
	return sum ^ d->st;
}

/* ---- summary ------------------------------------------------------------- */

static void print_errs(const char *what, const unsigned long *v)
{
	unsigned int e;

	for (e = 0; e < NERR; e++)
		if (v[e])
			printf("  %-12s %-20s %10lu\n", what, ename(e), v[e]);
}

static void fold(unsigned long *to, unsigned long *from, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		to[i] += from[i];
		from[i] = 0;
	}
}

static int print_summary(double secs)
{
	unsigned long total_err = 0, eperm = 0, total_ack = 0, total_data = 0;
	unsigned int c, e, i, violations = 0;
	int rc = 0;

	printf("nlfuzz: %s: seed %llu, uid %d, %lu datagrams (%lu skipped), ",
	       "summary", g.seed, (int)getuid(), g.st.datagrams,
	       g.st.skipped);
	printf("%lu messages, %lu bytes, %.1f s\n", g.st.messages, g.st.bytes,
	       secs);
	printf("  %-16s %10s\n", "strategy", "datagrams");
	for (i = 0; i < ST_NUM; i++)
		printf("  %-16s %10lu\n", strategy_names[i],
		       g.st.by_strategy[i]);

	printf("  %-8s %-7s %-20s %10s %10s\n", "client", "name", "reply",
	       "count", "extack");
	/* invalid client indexes share one row: fold them into the first */
	for (c = RDMA_NL_NUM_CLIENTS + 1; c < NLFUZZ_CLIENTS; c++) {
		fold(&g.st.ack[RDMA_NL_NUM_CLIENTS], &g.st.ack[c], 1);
		fold(g.st.err[RDMA_NL_NUM_CLIENTS], g.st.err[c], NERR);
		fold(g.st.err_extack[RDMA_NL_NUM_CLIENTS], g.st.err_extack[c],
		     NERR);
		fold(&g.st.data[RDMA_NL_NUM_CLIENTS], &g.st.data[c], 1);
		fold(&g.st.mcast[RDMA_NL_NUM_CLIENTS], &g.st.mcast[c], 1);
	}
	for (c = 0; c <= RDMA_NL_NUM_CLIENTS; c++) {
		char idx[8];

		snprintf(idx, sizeof(idx), c < RDMA_NL_NUM_CLIENTS ? "%u" :
			 "%u-63", c);
		if (g.st.ack[c])
			printf("  %-8s %-7s %-20s %10lu\n", idx, client_name(c),
			       "ack", g.st.ack[c]);
		total_ack += g.st.ack[c];
		for (e = 0; e < NERR; e++) {
			if (!g.st.err[c][e])
				continue;
			printf("  %-8s %-7s %-20s %10lu %10lu\n", idx,
			       client_name(c), ename(e), g.st.err[c][e],
			       g.st.err_extack[c][e]);
			total_err += g.st.err[c][e];
			if (e == EPERM)
				eperm += g.st.err[c][e];
		}
		if (g.st.data[c])
			printf("  %-8s %-7s %-20s %10lu\n", idx, client_name(c),
			       "data", g.st.data[c]);
		total_data += g.st.data[c];
		if (g.st.mcast[c])
			printf("  %-8s %-7s %-20s %10lu\n", idx, client_name(c),
			       "multicast", g.st.mcast[c]);
	}
	print_errs("done", g.st.done);
	print_errs("send", g.st.send_err);
	print_errs("recv", g.st.recv_err);
	print_errs("sockopt", g.st.sockopt_err);
	printf("nlfuzz: replies %lu: acks %lu, errors %lu (EPERM %lu), ",
	       g.st.replies, total_ack, total_err, eperm);
	printf("data %lu, control %lu, truncated %lu, malformed %lu; ",
	       total_data, g.st.ctrl, g.st.truncated, g.st.malformed);
	printf("side sockets %lu\n", g.st.side_sockets);

	for (i = 0; i < nprobes; i++) {
		struct probe *p = &probes[i];
		const char *res = p->result < 0 ? "no answer" :
			p->result == PROBE_ABSENT ? "absent" :
			p->result ? ename(p->result) : "accepted";

		printf("  admin-probe %-5s %-16s %s\n", client_name(p->client),
		       op_name(p->client, p->op), res);
		if (g.uid >= 0 && p->result == 0)
			violations++;
	}
	if (nprobes) {
		unsigned int pe = 0;

		for (i = 0; i < nprobes; i++)
			pe += probes[i].result == EPERM;
		printf("nlfuzz: admin probe: %u ops, %u EPERM, %u accepted without CAP_NET_ADMIN\n",
		       nprobes, pe, violations);
	}
	if (violations) {
		printf("nlfuzz: FAIL: admin-only requests accepted without CAP_NET_ADMIN\n");
		rc = 1;
	}
	if (g.st.malformed) {
		printf("nlfuzz: FAIL: %lu malformed replies\n", g.st.malformed);
		rc = 1;
	}
	return rc;
}

static void print_usage(void)
{
	fputs("usage: nlfuzz [-c COUNT] [-s SEED] [-u UID[:GID]] [-t SECONDS]\n"
	      "              [-m EVERY] [-r FIRST-LAST] [-R LIST] [-S CLIENTS]\n"
	      "              [-v] [-n] [-P PROTOCOL]\n"
	      "  -c COUNT    datagrams to send, the sweep included (10000)\n"
	      "  -s SEED     seed of the random datagrams (default: from the clock)\n"
	      "  -u UID[:GID] drop to this user before opening anything\n"
	      "  -t SECONDS  stop after this time\n"
	      "  -m EVERY    mark progress in the kernel log every EVERY datagrams\n"
	      "  -r A-B      send only datagrams A..B (all are generated)\n"
	      "  -R LIST     client indexes (comma separated) to send to rarely\n"
	      "  -S CLIENTS  sweep client indexes 0..CLIENTS-1 only (1-64, 64)\n"
	      "  -v          print every datagram sent (-vv: in full)\n"
	      "  -n          dry run: generate only, print a checksum\n"
	      "  -P PROTOCOL another netlink protocol, to test nlfuzz itself\n",
	      stderr);
	exit(2);
}

static unsigned long num(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end)
		print_usage();
	return v;
}

static void parse_rare(const char *arg)
{
	char list[64], *tok, *save;
	__u64 mask = 0;
	unsigned long c;

	if (strlen(arg) >= sizeof(list))
		print_usage();
	memcpy(list, arg, strlen(arg) + 1);
	memcpy(g.rare, arg, strlen(arg) + 1);
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		c = num(tok);
		if (c >= NLFUZZ_CLIENTS)
			print_usage();
		mask |= 1ULL << c;
	}
	gen_set_rare(mask);
}

static void parse_args(int argc, char **argv)
{
	int seeded = 0, opt;
	char *p;

	while ((opt = getopt(argc, argv, "c:s:u:t:m:r:R:S:vnP:")) != -1) {
		switch (opt) {
		case 'c':
			g.count = num(optarg);
			break;
		case 's':
			g.seed = strtoull(optarg, NULL, 0);
			seeded = 1;
			break;
		case 'u':
			p = strchr(optarg, ':');
			if (p)
				*p++ = 0;
			g.uid = num(optarg);
			g.gid = p ? (int)num(p) : g.uid;
			break;
		case 't':
			g.time_limit = num(optarg);
			break;
		case 'm':
			g.mark_every = num(optarg);
			break;
		case 'r':
			p = strchr(optarg, '-');
			if (!p)
				print_usage();
			*p++ = 0;
			g.first = num(optarg);
			g.last = num(p);
			break;
		case 'v':
			g.verbose++;
			break;
		case 'n':
			g.dry_run = 1;
			break;
		case 'P':
			g.protocol = num(optarg);
			break;
		case 'R':
			parse_rare(optarg);
			break;
		case 'S':
			g.sweep_clients = num(optarg);
			if (!g.sweep_clients ||
			    g.sweep_clients > NLFUZZ_CLIENTS)
				print_usage();
			gen_set_sweep(g.sweep_clients);
			break;
		default:
			print_usage();
		}
	}
	if (optind != argc)
		print_usage();
	if (!seeded)
		g.seed = ((unsigned long long)time(NULL) << 16) ^ getpid();
}

int main(int argc, char **argv)
{
	static struct datagram d;
	unsigned long idx, sweep;
	__u64 sum = 0xcbf29ce484222325ULL;
	struct rng r;
	double t0;
	int rc;

	parse_args(argc, argv);
	sweep = gen_sweep_len();
	setvbuf(stdout, NULL, _IOLBF, 0);
	rng_seed(&r, g.seed);
	printf("nlfuzz: seed %llu, %lu datagrams (sweep of %lu first)\n",
	       g.seed, g.count, sweep);
	printf("nlfuzz: replay: nlfuzz -s %llu -c %lu%s%s", g.seed, g.count,
	       g.rare[0] ? " -R " : "", g.rare);
	if (g.sweep_clients)
		printf(" -S %u", g.sweep_clients);
	printf("\n");

	if (!g.dry_run) {
		/* markers help find the datagram behind a kernel splat */
		if (geteuid() == 0)
			g.kmsg = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
		if (g.uid >= 0)
			drop_privileges();
		printf("nlfuzz: uid %d gid %d, CAP_NET_ADMIN %s\n",
		       (int)getuid(), (int)getgid(),
		       has_net_admin() ? "yes" : "no");
		open_sockets();
		kmsg("start seed %llu uid %d count %lu\n", g.seed,
		     (int)getuid(), g.count);
		admin_probe();
	}

	t0 = now();
	for (idx = 0; idx < g.count; idx++) {
		if (idx < sweep)
			gen_sweep(&d, idx, ++g.seq);
		else
			gen_random(&r, &d, &g.seq);
		sum = checksum(sum, &d);
		if (idx < g.first || idx > g.last) {
			g.st.skipped++;
			continue;
		}
		if (g.mark_every && !(idx % g.mark_every))
			kmsg("seed %llu uid %d datagram %lu\n", g.seed,
			     (int)getuid(), idx);
		do_datagram(idx, &d);
		if (g.time_limit && now() - t0 > g.time_limit) {
			printf("nlfuzz: time limit (%u s) reached at %lu\n",
			       g.time_limit, idx);
			break;
		}
	}
	if (g.dry_run) {
		printf("nlfuzz: dry run: %lu datagrams, %lu messages, ",
		       g.st.datagrams, g.st.messages);
		printf("%lu bytes, checksum %016llx\n", g.st.bytes,
		       (unsigned long long)sum);
		return 0;
	}
	drain(g.sock[0], DRAIN_MAX, 0);
	drain(g.sock[1], DRAIN_MAX, 0);
	drain(g.listener, DRAIN_MAX, 1);
	kmsg("end seed %llu uid %d after %lu datagrams\n", g.seed,
	     (int)getuid(), g.st.datagrams);
	rc = print_summary(now() - t0);
	close(g.sock[0]);
	close(g.sock[1]);
	close(g.listener);
	return rc;
}
