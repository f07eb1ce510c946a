// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lsresponder: a stand-in for ibacm's netlink side, for the test VM.
 *
 * It joins RDMA_NL_GROUP_LS on a NETLINK_RDMA socket, reads the kernel's
 * RDMA_NL_LS_OP_RESOLVE requests and answers each the way MODE says, as
 * ibacm does (rdma-core's ibacm/src/acm.c): the answer carries the
 * request's type and sequence number, no NLM_F_REQUEST, and one
 * LS_NLA_TYPE_PATH_RECORD attribute (struct ib_path_rec_data) or the
 * RDMA_NL_LS_F_ERR flag; it goes to the kernel (port id 0).
 *
 *   lsresponder [--set-timeout MS] [--count N] MODE
 *
 * MODE:
 *   answer     a path record with values opensm would not give: SL 7,
 *              packet lifetime 17, MTU 1024 (3), rate 10 Gb/s (3), the
 *              DLID 0x7777 and SLID 0x7778, the request's GIDs and P_Key
 *   fabric     a record that works on the loop fabric: the LIDs the SM
 *              gave the two ports (from sysfs: the requesting port's,
 *              and that of the port whose GID 0 is the DGID), SL 0,
 *              and MTU 1024 and packet lifetime 17 as in "answer"
 *              (opensm gives neither), so a connection made over it
 *              shows where its path came from
 *   error      RDMA_NL_LS_F_ERR
 *   late       the record of "answer", but only once SIGUSR1 came (the
 *              caller sends it when the query has ended), with NLM_F_ACK;
 *              then it prints the kernel's ack:
 *              "late answer seq S errno E msg TEXT" (TEXT: the extack
 *              message, "-" for none; the kernel says "No path query
 *              waits for this sequence number" when it dropped the answer)
 *   malformed  a record of 40 bytes instead of 72
 *   wrongseq   the record of "answer" with another sequence number
 *   silent     nothing
 *
 * --set-timeout MS first sends RDMA_NL_LS_OP_SET_TIMEOUT with MS, asks
 * for an ack and prints "set-timeout MS errno E" (E 0: accepted).
 * --count N exits after N requests (default: runs until killed).
 *
 * Per request it prints one line, flushed at once:
 *   "request seq S dev NAME port P path_use U dgid GID mode MODE"
 */

#include <arpa/inet.h>
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <linux/netlink.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <rdma/ib_user_sa.h>
#include <rdma/rdma_netlink.h>

#define BUF_SIZE	8192

enum mode { M_ANSWER, M_FABRIC, M_ERROR, M_LATE, M_MALFORMED, M_WRONGSEQ, M_SILENT };

static const char * const mode_names[] = {
	[M_ANSWER] = "answer", [M_FABRIC] = "fabric", [M_ERROR] = "error", [M_LATE] = "late",
	[M_MALFORMED] = "malformed", [M_WRONGSEQ] = "wrongseq",
	[M_SILENT] = "silent",
};

/* What a request told us. */
struct request {
	uint32_t	seq;
	uint16_t	type;
	char		dev[LS_DEVICE_NAME_MAX + 1];
	unsigned int	port;
	unsigned int	path_use;
	uint8_t		dgid[16];
	uint8_t		sgid[16];
	uint16_t	pkey;		/* host order */
};

/* An answer: header, then at most one attribute with a record. */
struct answer {
	struct nlmsghdr		nlh;
	struct nlattr		attr;
	struct ib_path_rec_data	rec;
};

static void print_usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [--set-timeout MS] [--count N] answer|fabric|error|late|malformed|wrongseq|silent\n",
		prog);
	exit(2);
}

/* Bits @bits at bit @bit (from the top) of 32-bit word @word, set. */
static void put_bits(uint32_t *rec, int word, int bit, int bits, uint32_t v)
{
	uint32_t w = be32toh(rec[word]);
	uint32_t mask = (bits == 32 ? 0xffffffffu : ((1u << bits) - 1)) <<
			(32 - bit - bits);

	w = (w & ~mask) | ((v << (32 - bit - bits)) & mask);
	rec[word] = htobe32(w);
}

#define IB_SYSFS	"/sys/class/infiniband"

/* The LID in sysfs file @path ("0x1"), or 0. */
static uint16_t read_lid(const char *path)
{
	unsigned int lid = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	if (fscanf(f, "%x", &lid) != 1)
		lid = 0;
	fclose(f);
	return (uint16_t)lid;
}

/* The LID of the port of this host whose GID 0 is @gid, or 0. */
static uint16_t lid_of_gid(const uint8_t *gid)
{
	char path[512], text[64], want[64];
	struct dirent *d;
	uint16_t lid = 0;
	unsigned int port;
	DIR *dir;
	FILE *f;
	int i, n = 0;

	for (i = 0; i < 16; i += 2)
		n += snprintf(want + n, sizeof(want) - n, "%s%02x%02x",
			      i ? ":" : "", gid[i], gid[i + 1]);
	dir = opendir(IB_SYSFS);
	if (!dir)
		return 0;
	while (!lid && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		for (port = 1; port <= 2 && !lid; port++) {
			snprintf(path, sizeof(path), IB_SYSFS "/%s/ports/%u/gids/0",
				 d->d_name, port);
			f = fopen(path, "r");
			if (!f)
				continue;
			if (fscanf(f, "%63s", text) == 1 && !strcmp(text, want)) {
				snprintf(path, sizeof(path),
					 IB_SYSFS "/%s/ports/%u/lid",
					 d->d_name, port);
				lid = read_lid(path);
			}
			fclose(f);
		}
	}
	closedir(dir);
	return lid;
}

/* The PathRecord (IBTA 15.2.5.16 layout) of @mode for @req. */
static void make_record(const struct request *req, enum mode mode,
			uint32_t *rec)
{
	uint16_t dlid = 0x7777, slid = 0x7778;
	char path[512];

	if (mode == M_FABRIC) {
		snprintf(path, sizeof(path), IB_SYSFS "/%s/ports/%u/lid",
			 req->dev, req->port);
		slid = read_lid(path);
		dlid = lid_of_gid(req->dgid);
	}
	memset(rec, 0, 64);
	memcpy(&rec[2], req->dgid, 16);
	memcpy(&rec[6], req->sgid, 16);
	put_bits(rec, 10, 0, 16, dlid);		/* DLID */
	put_bits(rec, 10, 16, 16, slid);	/* SLID */
	put_bits(rec, 11, 24, 8, 0);		/* HopLimit */
	put_bits(rec, 12, 8, 1,
		 req->path_use != LS_RESOLVE_PATH_USE_UNIDIRECTIONAL);
	put_bits(rec, 12, 9, 7, 1);		/* NumbPath */
	put_bits(rec, 12, 16, 16, req->pkey);
	put_bits(rec, 13, 12, 4, mode == M_FABRIC ? 0 : 7);	/* SL */
	put_bits(rec, 13, 16, 2, 2);		/* MTUSelector: exactly */
	put_bits(rec, 13, 18, 6, 3);		/* MTU 1024 */
	put_bits(rec, 13, 24, 2, 2);
	put_bits(rec, 13, 26, 6, 3);		/* Rate 10 Gb/s */
	put_bits(rec, 14, 0, 2, 2);
	put_bits(rec, 14, 2, 6, 17);		/* PacketLifeTime */
}

static int parse_request(const struct nlmsghdr *nlh, struct request *req)
{
	const struct rdma_ls_resolve_header *hdr = NLMSG_DATA(nlh);
	int hlen = NLMSG_ALIGN(sizeof(*hdr));
	int rem = (int)nlh->nlmsg_len - NLMSG_HDRLEN - hlen;
	const struct nlattr *a;

	if (RDMA_NL_GET_CLIENT(nlh->nlmsg_type) != RDMA_NL_LS ||
	    RDMA_NL_GET_OP(nlh->nlmsg_type) != RDMA_NL_LS_OP_RESOLVE ||
	    rem < 0)
		return -1;
	memset(req, 0, sizeof(*req));
	req->seq = nlh->nlmsg_seq;
	req->type = nlh->nlmsg_type;
	memcpy(req->dev, hdr->device_name, LS_DEVICE_NAME_MAX);
	req->port = hdr->port_num;
	req->path_use = hdr->path_use;
	req->pkey = 0xffff;

	a = (const void *)((const char *)hdr + hlen);
	while (rem >= (int)sizeof(*a) && a->nla_len >= sizeof(*a) &&
	       a->nla_len <= rem) {
		const void *d = (const char *)a + NLA_HDRLEN;
		int len = a->nla_len - NLA_HDRLEN;

		switch (a->nla_type & RDMA_NLA_TYPE_MASK) {
		case LS_NLA_TYPE_DGID:
			if (len == 16)
				memcpy(req->dgid, d, 16);
			break;
		case LS_NLA_TYPE_SGID:
			if (len == 16)
				memcpy(req->sgid, d, 16);
			break;
		case LS_NLA_TYPE_PKEY:
			if (len == 2)
				memcpy(&req->pkey, d, 2);
			break;
		}
		rem -= NLA_ALIGN(a->nla_len);
		a = (const void *)((const char *)a + NLA_ALIGN(a->nla_len));
	}
	return 0;
}

static int send_to_kernel(int fd, const void *msg, size_t len)
{
	struct sockaddr_nl dst = { .nl_family = AF_NETLINK };

	if (sendto(fd, msg, len, 0, (struct sockaddr *)&dst,
		   sizeof(dst)) != (ssize_t)len) {
		fprintf(stderr, "lsresponder: sendto: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* The extack message of the ack @nlh (NLMSG_ERROR), or NULL. */
static const char *ack_msg(const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *err = NLMSG_DATA(nlh);
	size_t off = NLMSG_ALIGN(sizeof(*err));
	const struct nlattr *a;
	int rem;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return NULL;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += NLMSG_ALIGN(err->msg.nlmsg_len - NLMSG_HDRLEN);
	rem = (int)nlh->nlmsg_len - NLMSG_HDRLEN - (int)off;
	a = (const void *)((const char *)err + off);
	while (rem >= (int)sizeof(*a) && a->nla_len >= sizeof(*a) &&
	       a->nla_len <= rem) {
		if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG)
			return (const char *)a + NLA_HDRLEN;
		rem -= NLA_ALIGN(a->nla_len);
		a = (const void *)((const char *)a + NLA_ALIGN(a->nla_len));
	}
	return NULL;
}

/*
 * The kernel's ack of the message with sequence number @seq: its errno
 * (0: accepted), the extack message in @msg ("-": none).  Other
 * messages (RESOLVE requests that come meanwhile) are skipped unanswered.
 */
static int wait_ack(int fd, uint32_t seq, char *msg, size_t msg_len)
{
	char buf[BUF_SIZE];
	struct nlmsghdr *nlh;
	ssize_t n;

	for (;;) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			if (errno == EINTR || errno == ENOBUFS)
				continue;
			return errno;
		}
		for (nlh = (void *)buf; NLMSG_OK(nlh, n);
		     nlh = NLMSG_NEXT(nlh, n)) {
			const struct nlmsgerr *err = NLMSG_DATA(nlh);
			const char *text;

			if (nlh->nlmsg_type != NLMSG_ERROR ||
			    err->msg.nlmsg_seq != seq)
				continue;
			text = ack_msg(nlh);
			snprintf(msg, msg_len, "%s", text ? text : "-");
			return -err->error;
		}
	}
}

static void respond(int fd, const struct request *req, enum mode mode)
{
	struct answer ans;
	size_t rec_len = sizeof(ans.rec);
	char msg[256];
	sigset_t usr1;
	int sig, err;

	memset(&ans, 0, sizeof(ans));
	ans.nlh.nlmsg_type = req->type;
	ans.nlh.nlmsg_seq = req->seq;
	ans.nlh.nlmsg_pid = getpid();
	ans.nlh.nlmsg_len = NLMSG_HDRLEN;

	if (mode == M_ERROR) {
		ans.nlh.nlmsg_flags = RDMA_NL_LS_F_ERR;
		send_to_kernel(fd, &ans, ans.nlh.nlmsg_len);
		return;
	}
	if (mode == M_LATE) {
		/* blocked since main(): pending if it came already */
		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		sigwait(&usr1, &sig);
		ans.nlh.nlmsg_flags = NLM_F_ACK;
	}
	if (mode == M_WRONGSEQ)
		ans.nlh.nlmsg_seq = req->seq + 100000;
	if (mode == M_MALFORMED)
		rec_len = 40;

	ans.rec.flags = req->path_use == LS_RESOLVE_PATH_USE_UNIDIRECTIONAL ?
			IB_PATH_PRIMARY | IB_PATH_OUTBOUND :
			IB_PATH_PRIMARY | IB_PATH_GMP | IB_PATH_BIDIRECTIONAL;
	make_record(req, mode, ans.rec.path_rec);
	ans.attr.nla_type = LS_NLA_TYPE_PATH_RECORD;
	ans.attr.nla_len = NLA_HDRLEN + rec_len;
	ans.nlh.nlmsg_len = NLMSG_HDRLEN + NLA_ALIGN(ans.attr.nla_len);
	if (send_to_kernel(fd, &ans, ans.nlh.nlmsg_len) || mode != M_LATE)
		return;
	err = wait_ack(fd, req->seq, msg, sizeof(msg));
	printf("late answer seq %u errno %d msg %s\n", req->seq, err, msg);
}

/* SET_TIMEOUT with an ack; the errno the kernel answered. */
static int set_timeout(int fd, uint32_t ms)
{
	struct {
		struct nlmsghdr	nlh;
		struct nlattr	attr;
		uint32_t	ms;
	} msg = {
		.nlh = {
			.nlmsg_len = sizeof(msg),
			.nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_LS,
						       RDMA_NL_LS_OP_SET_TIMEOUT),
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK,
			.nlmsg_seq = 1,
		},
		.attr = { .nla_len = NLA_HDRLEN + 4,
			  .nla_type = LS_NLA_TYPE_TIMEOUT },
		.ms = ms,
	};
	char text[256];

	if (send_to_kernel(fd, &msg, sizeof(msg)))
		return errno;
	return wait_ack(fd, msg.nlh.nlmsg_seq, text, sizeof(text));
}

int main(int argc, char **argv)
{
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK };
	long timeout_ms = -1, count = -1, seen = 0;
	enum mode mode = M_SILENT;
	char buf[BUF_SIZE];
	unsigned int i;
	int fd, found = 0, one = 1;
	sigset_t usr1;

	for (i = 1; i < (unsigned int)argc; i++) {
		unsigned int m;

		if (!strcmp(argv[i], "--set-timeout") && i + 1 < (unsigned int)argc) {
			timeout_ms = strtol(argv[++i], NULL, 0);
			continue;
		}
		if (!strcmp(argv[i], "--count") && i + 1 < (unsigned int)argc) {
			count = strtol(argv[++i], NULL, 0);
			continue;
		}
		for (m = 0; m < sizeof(mode_names) / sizeof(*mode_names); m++)
			if (!strcmp(argv[i], mode_names[m]))
				break;
		if (m == sizeof(mode_names) / sizeof(*mode_names))
			print_usage(argv[0]);
		mode = m;
		found = 1;
	}
	if (!found)
		print_usage(argv[0]);

	/* late: SIGUSR1 waits for sigwait() from now on */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);

	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_RDMA);
	if (fd < 0) {
		perror("lsresponder: socket");
		return 1;
	}
	/* acks with the kernel's extack message */
	if (setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one))) {
		perror("lsresponder: NETLINK_EXT_ACK");
		return 1;
	}
	addr.nl_groups = 1 << (RDMA_NL_GROUP_LS - 1);
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		perror("lsresponder: bind");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (timeout_ms >= 0)
		printf("set-timeout %ld errno %d\n", timeout_ms,
		       set_timeout(fd, (uint32_t)timeout_ms));
	printf("listening mode %s\n", mode_names[mode]);

	while (count < 0 || seen < count) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nlh;

		if (n < 0) {
			if (errno == EINTR || errno == ENOBUFS)
				continue;
			perror("lsresponder: recv");
			return 1;
		}
		for (nlh = (void *)buf; NLMSG_OK(nlh, n);
		     nlh = NLMSG_NEXT(nlh, n)) {
			struct request req;
			char gid[INET6_ADDRSTRLEN];

			if (parse_request(nlh, &req))
				continue;
			inet_ntop(AF_INET6, req.dgid, gid, sizeof(gid));
			printf("request seq %u dev %s port %u path_use %u dgid %s mode %s\n",
			       req.seq, req.dev, req.port, req.path_use, gid,
			       mode_names[mode]);
			if (mode != M_SILENT)
				respond(fd, &req, mode);
			seen++;
		}
	}
	close(fd);
	return 0;
}
