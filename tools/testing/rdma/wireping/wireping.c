// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * wireping: round trips of bursts of UDP datagrams across the test bed's
 * wire between two guests (scenarios/wire/10-wire.sh).
 *
 *   wireping serve PORT
 *   wireping PEER PORT FRAMES[,FRAMES...] COUNT [SIZE]
 *
 * "serve" answers every burst: when the datagram that ends one comes (its
 * index is the burst's last), it sends the sender one datagram of 16
 * bytes back with the burst's number and how many of its datagrams came.
 * It runs until killed.
 *
 * The client sends bursts one after the other, each of FRAMES datagrams
 * of SIZE bytes (default 1400: one Ethernet frame each) given to the
 * kernel at once (sendmmsg), and waits for each answer (2 s at most).
 * With several FRAMES (up to 4 kinds), the kinds take turns, burst by
 * burst, COUNT bursts of each: every kind sees the same load of the
 * host.  A burst of FRAMES frames one way and one frame back: on a wire
 * that costs a fixed amount per exchange and per frame, a burst of 2
 * takes at most 3/2 as long as a burst of 1, however slow the wire is; a
 * wire that holds a burst's second frame back (QEMU's TCP socket backend:
 * until the first is acknowledged, 40 ms) does not.  It prints, for each
 * kind, one line
 *
 *   bursts COUNT frames FRAMES size SIZE answered A whole W mean_us M min_us m max_us X
 *
 * and exits 0 when every burst was answered and came whole, 1 otherwise,
 * 2 on a usage or socket error.  Times are CLOCK_MONOTONIC: on a guest
 * whose clock is jiffies each is a multiple of the tick, and only the
 * mean of many says more.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAGIC		0x77697265u	/* "wire" */
#define MAX_FRAMES	64
#define MAX_SIZE	1472		/* one 1500-byte IP packet */
#define ANSWER_MS	2000

struct hdr {
	uint32_t magic;
	uint32_t burst;
	uint32_t index;		/* answer: datagrams of the burst that came */
	uint32_t frames;
};

static int bad_args(void)
{
	fputs("usage: wireping serve PORT\n"
	      "       wireping PEER PORT FRAMES[,FRAMES...] COUNT [SIZE]\n", stderr);
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

static int64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int serve(int port)
{
	struct sockaddr_in addr = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	uint32_t burst = UINT32_MAX, got = 0;
	char buf[2048];
	int fd;

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		perror("wireping: socket");
		return 2;
	}
	for (;;) {
		struct sockaddr_in from;
		socklen_t len = sizeof(from);
		struct hdr h, a;
		ssize_t n;

		n = recvfrom(fd, buf, sizeof(buf), 0,
			     (struct sockaddr *)&from, &len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			perror("wireping: recvfrom");
			return 2;
		}
		if (n < (ssize_t)sizeof(h))
			continue;
		memcpy(&h, buf, sizeof(h));
		if (ntohl(h.magic) != MAGIC)
			continue;
		if (ntohl(h.burst) != burst) {
			burst = ntohl(h.burst);
			got = 0;
		}
		got++;
		if (ntohl(h.index) + 1 != ntohl(h.frames))
			continue;
		a = h;
		a.index = htonl(got);
		if (sendto(fd, &a, sizeof(a), 0, (struct sockaddr *)&from,
			   len) < 0)
			perror("wireping: sendto");
	}
}

#define MAX_KINDS	4

/* what came back for the bursts of one size */
struct kind {
	int frames;
	long bursts, answered, whole;
	int64_t sum, min, max;
};

/* burst: send burst number B of FRAMES datagrams and wait for its answer */
static int burst(int fd, struct mmsghdr *msgs, char (*data)[MAX_SIZE],
		 struct kind *k, long b)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int64_t t0, t, left;
	struct hdr h;
	int i, sent = 0;

	for (i = 0; i < k->frames; i++) {
		h.magic = htonl(MAGIC);
		h.burst = htonl(b);
		h.index = htonl(i);
		h.frames = htonl(k->frames);
		memcpy(data[i], &h, sizeof(h));
	}
	k->bursts++;
	t0 = now_us();
	while (sent < k->frames) {
		int n = sendmmsg(fd, msgs + sent, k->frames - sent, 0);

		if (n < 0) {
			perror("wireping: sendmmsg");
			return -1;
		}
		sent += n;
	}
	/* the answer to this burst; a late one of an earlier is skipped */
	for (;;) {
		left = ANSWER_MS - (now_us() - t0) / 1000;
		if (left <= 0 || poll(&pfd, 1, left) <= 0)
			return 0;
		if (recv(fd, &h, sizeof(h), 0) != sizeof(h) ||
		    ntohl(h.magic) != MAGIC || ntohl(h.burst) != b)
			continue;
		t = now_us() - t0;
		k->answered++;
		if (ntohl(h.index) == (uint32_t)k->frames)
			k->whole++;
		k->sum += t;
		if (t < k->min)
			k->min = t;
		if (t > k->max)
			k->max = t;
		return 0;
	}
}

static int client(const char *peer, int port, struct kind *kinds,
		  int nkinds, long count, int size)
{
	static char data[MAX_FRAMES][MAX_SIZE];
	struct mmsghdr msgs[MAX_FRAMES];
	struct iovec iov[MAX_FRAMES];
	struct sockaddr_in addr = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
	};
	int fd, i, ok = 1;
	long b;

	if (inet_pton(AF_INET, peer, &addr.sin_addr) != 1)
		return bad_args();
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		perror("wireping: socket");
		return 2;
	}
	memset(msgs, 0, sizeof(msgs));
	for (i = 0; i < MAX_FRAMES; i++) {
		memset(data[i], 0x5a, size);
		iov[i].iov_base = data[i];
		iov[i].iov_len = size;
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	/* the kinds take turns, so that each sees the same load of the host */
	for (b = 0; b < count * nkinds; b++)
		if (burst(fd, msgs, data, &kinds[b % nkinds], b))
			return 2;
	for (i = 0; i < nkinds; i++) {
		struct kind *k = &kinds[i];

		printf("bursts %ld frames %d size %d answered %ld whole %ld ",
		       k->bursts, k->frames, size, k->answered, k->whole);
		printf("mean_us %lld min_us %lld max_us %lld\n",
		       k->answered ? (long long)(k->sum / k->answered) : -1LL,
		       k->answered ? (long long)k->min : -1LL,
		       (long long)k->max);
		if (k->answered != k->bursts || k->whole != k->bursts)
			ok = 0;
	}
	return ok ? 0 : 1;
}

/* kinds: FRAMES[,FRAMES...] into KINDS; their number, or -1 */
static int parse_kinds(char *s, struct kind *kinds)
{
	int n = 0;
	char *tok;

	for (tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
		long f = number(tok, 1, MAX_FRAMES);

		if (f < 0 || n == MAX_KINDS)
			return -1;
		memset(&kinds[n], 0, sizeof(kinds[n]));
		kinds[n].frames = f;
		kinds[n].min = INT64_MAX;
		n++;
	}
	return n ? n : -1;
}

int main(int argc, char **argv)
{
	struct kind kinds[MAX_KINDS];
	long port, count, size = 1400;
	int nkinds;

	if (argc == 3 && !strcmp(argv[1], "serve")) {
		port = number(argv[2], 1, 65535);
		return port < 0 ? bad_args() : serve(port);
	}
	if (argc != 5 && argc != 6)
		return bad_args();
	port = number(argv[2], 1, 65535);
	nkinds = parse_kinds(argv[3], kinds);
	count = number(argv[4], 1, 1000000);
	if (argc == 6)
		size = number(argv[5], sizeof(struct hdr), MAX_SIZE);
	if (port < 0 || nkinds < 0 || count < 0 || size < 0)
		return bad_args();
	return client(argv[1], port, kinds, nkinds, count, size);
}
