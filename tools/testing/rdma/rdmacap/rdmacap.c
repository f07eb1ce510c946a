// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdmacap: a packet capture of one interface for the test guests, which
 * have no tcpdump.  It writes a classic pcap stream (LINKTYPE_ETHERNET,
 * microsecond time stamps) that the host decodes with tshark
 * (guest/capture.sh, capture.py).
 *
 *   rdmacap -i IFACE -w FILE [-c FRAMES] [-b BYTES] [-q PER_OPCODE] [-r]
 *           [-s STOPFILE]
 *
 *   -i IFACE      the interface: every frame it sends and receives
 *                 (AF_PACKET, ETH_P_ALL), whole (no snap length)
 *   -w FILE       where the pcap stream goes ("-": standard output); a
 *                 terminal is set raw first (no newline translation)
 *   -c FRAMES     stop after writing FRAMES frames (default 2000)
 *   -b BYTES      stop before the stream would pass BYTES (default 4 MiB)
 *   -r            only RoCE frames: RoCE v2 (UDP to port 4791 over IPv4 or
 *                 IPv6) and RoCE v1 (Ethertype 0x8915), VLAN-tagged too
 *   -q N          at most N frames of each (source MAC, BTH opcode): a
 *                 long transfer leaves a sample of each kind of packet
 *                 in the capture, not a byte cap's worth of its first
 *                 kind (frames that are not RoCE, and MADs, whose BTH
 *                 goes to QP 1, are not counted: all are kept)
 *   -s STOPFILE   stop once STOPFILE exists (looked at every 100 ms)
 *
 * SIGINT and SIGTERM stop it too.  The pcap header is written once the
 * socket is bound: a file of 24 bytes or more says the capture is on.
 * At the end one line goes to standard error:
 *
 *   rdmacap: IFACE: seen S, written W (B bytes), quota Q, dropped D
 *
 * (S frames read, W written, Q left out by -q, D dropped by the kernel
 * because the socket's buffer was full).  Exit status 0, 1 when the
 * kernel dropped frames, 2 on a usage or socket error.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define ROCE_V2_PORT	4791
#define ETH_P_ROCE_V1	0x8915
#define MAX_FRAME	65536
#define MAX_SENDERS	8
#define RCVBUF		(8 << 20)

static int bad_args(void)
{
	fputs("usage: rdmacap -i IFACE -w FILE [-c FRAMES] [-b BYTES] [-q PER_OPCODE]\n"
	      "               [-r] [-s STOPFILE]\n", stderr);
	return 2;
}

static long number(const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min || v > max)
		return -1;
	return v;
}

/*
 * roce_opcode - the BTH opcode of a RoCE frame, -1 for another frame;
 * *qpn is the BTH's destination QP.
 */
static int roce_opcode(const uint8_t *f, size_t len, uint32_t *qpn)
{
	size_t off = 12;
	uint16_t type;

	if (len < off + 2)
		return -1;
	type = f[off] << 8 | f[off + 1];
	off += 2;
	while ((type == ETH_P_8021Q || type == ETH_P_8021AD) && len >= off + 4) {
		type = f[off + 2] << 8 | f[off + 3];
		off += 4;
	}
	if (type == ETH_P_ROCE_V1) {
		/* GRH, then the BTH */
		off += 40;
	} else if (type == ETH_P_IP) {
		size_t ihl;

		if (len < off + 20 || f[off + 9] != IPPROTO_UDP)
			return -1;
		ihl = (f[off] & 0xf) * 4;
		/* a fragment other than the first has no UDP header */
		if ((f[off + 6] & 0x1f) || f[off + 7])
			return -1;
		off += ihl;
		if (len < off + 8 || (f[off + 2] << 8 | f[off + 3]) != ROCE_V2_PORT)
			return -1;
		off += 8;
	} else if (type == ETH_P_IPV6) {
		if (len < off + 40 || f[off + 6] != IPPROTO_UDP)
			return -1;
		off += 40;
		if (len < off + 8 || (f[off + 2] << 8 | f[off + 3]) != ROCE_V2_PORT)
			return -1;
		off += 8;
	} else {
		return -1;
	}
	if (len < off + 12)
		return -1;
	*qpn = f[off + 5] << 16 | f[off + 6] << 8 | f[off + 7];
	return f[off];
}

struct sender {
	uint8_t mac[ETH_ALEN];
	unsigned int count[256];
};

/* quota_ok - one more frame of @op from @mac is within the quota */
static int quota_ok(struct sender *s, int *n, const uint8_t *mac, int op,
		    unsigned int quota)
{
	int i;

	for (i = 0; i < *n; i++)
		if (!memcmp(s[i].mac, mac, ETH_ALEN))
			break;
	if (i == *n) {
		if (*n == MAX_SENDERS)
			return 0;
		memset(&s[i], 0, sizeof(s[i]));
		memcpy(s[i].mac, mac, ETH_ALEN);
		(*n)++;
	}
	if (s[i].count[op] >= quota)
		return 0;
	s[i].count[op]++;
	return 1;
}

/* a pcap stream is in the writer's byte order (its magic says which) */
static void put16(uint8_t *p, uint16_t v)
{
	memcpy(p, &v, 2);
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

int main(int argc, char **argv)
{
	const char *ifname = NULL, *out = NULL, *stopfile = NULL;
	long frames = 2000, bytes = 4 << 20, quota = 0;
	unsigned long seen = 0, written = 0, quotaed = 0, total;
	struct sender senders[MAX_SENDERS];
	int nsenders = 0, roce_only = 0;
	struct tpacket_stats st = { 0 };
	struct sockaddr_ll sll = { 0 };
	sigset_t sigs;
	socklen_t stlen = sizeof(st);
	static uint8_t buf[MAX_FRAME];
	uint8_t hdr[24];
	int c, fd, sfd, ofd, rcvbuf = RCVBUF;
	FILE *o;

	while ((c = getopt(argc, argv, "i:w:c:b:q:rs:")) != -1) {
		switch (c) {
		case 'i':
			ifname = optarg;
			break;
		case 'w':
			out = optarg;
			break;
		case 'c':
			frames = number(optarg, 1, 10000000);
			if (frames < 0)
				return bad_args();
			break;
		case 'b':
			bytes = number(optarg, 4096, 1L << 30);
			if (bytes < 0)
				return bad_args();
			break;
		case 'q':
			quota = number(optarg, 1, 1000000);
			if (quota < 0)
				return bad_args();
			break;
		case 'r':
			roce_only = 1;
			break;
		case 's':
			stopfile = optarg;
			break;
		default:
			return bad_args();
		}
	}
	if (!ifname || !out || optind != argc)
		return bad_args();

	/* SIGINT and SIGTERM end the loop through a signalfd */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigprocmask(SIG_BLOCK, &sigs, NULL);
	sfd = signalfd(-1, &sigs, SFD_CLOEXEC);
	if (sfd < 0) {
		perror("rdmacap: signalfd");
		return 2;
	}

	fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	if (fd < 0) {
		perror("rdmacap: socket");
		return 2;
	}
	/* a burst of the wire must not overflow the socket while we write */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = if_nametoindex(ifname);
	if (!sll.sll_ifindex) {
		fprintf(stderr, "rdmacap: no interface %s\n", ifname);
		return 2;
	}
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		perror("rdmacap: bind");
		return 2;
	}
	/* what came before the bind (other interfaces' frames) goes */
	while (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) >= 0)
		;

	if (!strcmp(out, "-"))
		ofd = dup(STDOUT_FILENO);
	else
		ofd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY, 0644);
	if (ofd < 0) {
		fprintf(stderr, "rdmacap: %s: %s\n", out, strerror(errno));
		return 2;
	}
	if (isatty(ofd)) {
		struct termios t;

		if (tcgetattr(ofd, &t) == 0) {
			cfmakeraw(&t);
			tcsetattr(ofd, TCSANOW, &t);
		}
	}
	o = fdopen(ofd, "w");
	if (!o) {
		perror("rdmacap: fdopen");
		return 2;
	}

	/* the pcap header: version 2.4, no snap length, Ethernet */
	put32(hdr, 0xa1b2c3d4);
	put16(hdr + 4, 2);
	put16(hdr + 6, 4);
	memset(hdr + 8, 0, 8);
	put32(hdr + 16, MAX_FRAME);
	put32(hdr + 20, 1);
	if (fwrite(hdr, sizeof(hdr), 1, o) != 1 || fflush(o)) {
		perror("rdmacap: write");
		return 2;
	}
	total = sizeof(hdr);

	while (written < (unsigned long)frames) {
		struct pollfd p[2] = {
			{ .fd = fd, .events = POLLIN },
			{ .fd = sfd, .events = POLLIN },
		};
		struct timespec ts;
		uint8_t rec[16];
		uint32_t qpn = 0;
		ssize_t n;
		int op, r;

		r = poll(p, 2, 100);
		if (r < 0 && errno != EINTR) {
			perror("rdmacap: poll");
			return 2;
		}
		if (p[1].revents || (stopfile && access(stopfile, F_OK) == 0))
			break;
		if (r <= 0 || !p[0].revents)
			continue;
		n = recv(fd, buf, sizeof(buf), MSG_TRUNC | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			perror("rdmacap: recv");
			return 2;
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		seen++;
		op = roce_opcode(buf, n > MAX_FRAME ? MAX_FRAME : n, &qpn);
		if (op < 0 && roce_only)
			continue;
		if (op >= 0 && qpn != 1 && quota &&
		    !quota_ok(senders, &nsenders, buf + ETH_ALEN, op, quota)) {
			quotaed++;
			continue;
		}
		if (n > MAX_FRAME)
			n = MAX_FRAME;
		if (total + sizeof(rec) + n > (unsigned long)bytes)
			break;
		put32(rec, ts.tv_sec);
		put32(rec + 4, ts.tv_nsec / 1000);
		put32(rec + 8, n);
		put32(rec + 12, n);
		if (fwrite(rec, sizeof(rec), 1, o) != 1 ||
		    fwrite(buf, n, 1, o) != 1) {
			perror("rdmacap: write");
			return 2;
		}
		total += sizeof(rec) + n;
		written++;
	}
	if (fclose(o)) {
		perror("rdmacap: close");
		return 2;
	}
	getsockopt(fd, SOL_PACKET, PACKET_STATISTICS, &st, &stlen);
	fprintf(stderr,
		"rdmacap: %s: seen %lu, written %lu (%lu bytes), quota %lu, dropped %u\n",
		ifname, seen, written, total, quotaed, st.tp_drops);
	return st.tp_drops ? 1 : 0;
}
