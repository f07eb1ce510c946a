// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umadtest: ib_umad's user ABI on loop devices, as libibumad uses it.
 *
 *   umadtest DEV_A DEV_B DEV_DEL
 *
 * DEV_A and DEV_B are loop devices that exchange MADs on QP1; DEV_DEL is
 * deleted ("rdma link delete") while files of it are open.  Prints KTAP;
 * exits 0 when every case passed.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rdma/ib_user_mad.h>
#include <rdma/rdma_user_ioctl.h>

#include "../tool_ktap.h"

#define SYS_MAD		"/sys/class/infiniband_mad"
#define SYS_IB		"/sys/class/infiniband"
#define NCASES		47

#define MAD_SIZE	256
#define HDR		((int)sizeof(struct ib_user_mad_hdr))
#define HDR_OLD		((int)sizeof(struct ib_user_mad_hdr_old))
#define VENDOR_CLASS	0x09	/* vendor class of range 1: no RMPP */
#define VENDOR2_CLASS	0x30	/* range 2: RMPP, with an OUI */
#define TEST_OUI	0x001405
#define GET		0x01
#define GET_RESP	0x81
#define IS_SM		0x2	/* CapabilityMask.IsSM */

/* an address no process maps, hidden from the compiler's checks */
static void *bad_addr(void)
{
	return (void *)(uintptr_t)strtoul("8", NULL, 0);
}

static long read_num(const char *fmt, const char *dev)
{
	char path[256], buf[64];

	snprintf(path, sizeof(path), fmt, dev);
	if (read_file(path, buf, sizeof(buf)))
		return -1;
	return strtol(buf, NULL, 0);
}

/* N of the umadN of @dev port 1, from sysfs as libibumad finds it */
static int umad_num(const char *dev)
{
	char path[256], buf[64];
	int n;

	for (n = 0; n < 256; n++) {
		snprintf(path, sizeof(path), SYS_MAD "/umad%d/ibdev", n);
		if (read_file(path, buf, sizeof(buf)) || strcmp(buf, dev))
			continue;
		snprintf(path, sizeof(path), SYS_MAD "/umad%d/port", n);
		if (!read_file(path, buf, sizeof(buf)) && !strcmp(buf, "1"))
			return n;
	}
	return -1;
}

static int open_umad(int n, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), "/dev/infiniband/umad%d", n);
	return open(path, O_RDWR | flags);
}

static int open_issm(int n, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), "/dev/infiniband/issm%d", n);
	return open(path, O_RDWR | flags);
}

static int reg2(int fd, __u8 mgmt_class, __u32 oui, __u8 rmpp,
		__u32 flags, int method, struct ib_user_mad_reg_req2 *out)
{
	struct ib_user_mad_reg_req2 req = {
		.qpn = 1, .mgmt_class = mgmt_class, .mgmt_class_version = 1,
		.flags = flags, .oui = oui, .rmpp_version = rmpp,
	};

	if (method >= 0)
		req.method_mask[method / 64] |= 1ULL << (method % 64);
	if (ioctl(fd, IB_USER_MAD_REGISTER_AGENT2, &req))
		return -1;
	if (out)
		*out = req;
	return req.id;
}

struct umad_buf {
	struct ib_user_mad_hdr hdr;
	__u8 mad[MAD_SIZE];
};

static void make_mad(struct umad_buf *m, int agent, uint16_t lid,
		     __u8 mgmt_class, __u8 method, __u32 tid_lo,
		     __u32 timeout_ms, __u32 retries)
{
	__u32 tid_be = htonl(tid_lo);

	memset(m, 0, sizeof(*m));
	m->hdr.id = agent;
	m->hdr.timeout_ms = timeout_ms;
	m->hdr.retries = retries;
	m->hdr.qpn = htonl(1);
	m->hdr.qkey = htonl(0x80010000);
	m->hdr.lid = htons(lid);
	m->mad[0] = 1;		/* base version */
	m->mad[1] = mgmt_class;
	m->mad[2] = 1;		/* class version */
	m->mad[3] = method;
	memcpy(&m->mad[12], &tid_be, 4);	/* TID low half */
	m->mad[16] = 0x12;	/* attribute ID 0x1234 */
	m->mad[17] = 0x34;
	for (int i = 40; i < MAD_SIZE; i++)
		m->mad[i] = (__u8)i;
}

static __u64 mad_tid(const __u8 *mad)
{
	__u32 hi, lo;

	memcpy(&hi, mad + 8, 4);
	memcpy(&lo, mad + 12, 4);
	return (__u64)ntohl(hi) << 32 | ntohl(lo);
}

/* wait up to @ms for @fd to be readable; 1 if it is */
static int wait_in(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) == 1 && (p.revents & POLLIN);
}

static int port_cap_mask(const char *dev)
{
	return (int)read_num(SYS_IB "/%s/ports/1/cap_mask", dev);
}

int main(int argc, char **argv)
{
	struct ib_user_mad_reg_req old = { .qpn = 1 };
	struct ib_user_mad_reg_req2 r2;
	struct umad_buf m, in;
	const char *dev_a, *dev_b, *dev_del;
	int na, nb, nd, fa, fb, fc, fd, fs, fs2, ida, idb, i, n, cm;
	int lid_a, lid_b, ok;
	char buf[256], path[128];
	struct stat st;
	__u64 tid;
	long rc;

	if (argc != 4) {
		fprintf(stderr, "usage: %s DEV_A DEV_B DEV_DEL\n", argv[0]);
		return 2;
	}
	dev_a = argv[1];
	dev_b = argv[2];
	dev_del = argv[3];
	printf("KTAP version 1\n1..%d\n", NCASES);

	/* --- sysfs and device files */
	ok = !read_file(SYS_MAD "/abi_version", buf, sizeof(buf));
	result(ok && !strcmp(buf, "5"), "abi_version is 5", "'%s'", buf);
	na = umad_num(dev_a);
	nb = umad_num(dev_b);
	nd = umad_num(dev_del);
	result(na >= 0 && nb >= 0 && nd >= 0 && na != nb,
	       "umadN with ibdev and port for each device", "%d %d %d",
	       na, nb, nd);
	if (na < 0 || nb < 0 || nd < 0)
		goto out;
	snprintf(path, sizeof(path), "/dev/infiniband/umad%d", na);
	ok = !stat(path, &st) && S_ISCHR(st.st_mode) &&
	     major(st.st_rdev) == 231 && (int)minor(st.st_rdev) == na &&
	     (st.st_mode & 0777) == 0600;
	result(ok, "umadN is char 231:N, mode 0600", "%s", path);
	snprintf(path, sizeof(path), "/dev/infiniband/issm%d", na);
	ok = !stat(path, &st) && S_ISCHR(st.st_mode) &&
	     major(st.st_rdev) == 231 && (int)minor(st.st_rdev) == 64 + na;
	snprintf(buf, sizeof(buf), SYS_MAD "/issm%d/ibdev", na);
	ok = ok && !read_file(buf, buf, sizeof(buf)) && !strcmp(buf, dev_a);
	result(ok, "issmN is char 231:64+N with ibdev", "%s", path);

	lid_a = (int)read_num(SYS_IB "/%s/ports/1/lid", dev_a);
	lid_b = (int)read_num(SYS_IB "/%s/ports/1/lid", dev_b);
	printf("# %s: umad%d lid %d, %s: umad%d lid %d, %s: umad%d\n", dev_a,
	       na, lid_a, dev_b, nb, lid_b, dev_del, nd);

	/* --- registration */
	fa = open_umad(na, 0);
	rc = ioctl(fa, IB_USER_MAD_REGISTER_AGENT, &old);
	result(fa >= 0 && rc == 0 && old.id == 0,
	       "REGISTER_AGENT without class gives id 0", "rc %ld id %u (%s)",
	       rc, old.id, strerror(errno));
	expect_err("ENABLE_PKEY after a registration is EINVAL",
		   ioctl(fa, IB_USER_MAD_ENABLE_PKEY), EINVAL);
	/* the old header is the new one without P_Key index */
	make_mad(&m, 0, lid_b, VENDOR_CLASS, GET, 1, 0, 0);
	{
		char o[HDR_OLD + 124];

		memcpy(o, &m.hdr, HDR_OLD);
		memcpy(o + HDR_OLD, m.mad, 124);
		rc = write(fa, o, sizeof(o));
	}
	result(rc == HDR_OLD + 124, "old-header write of a short MAD",
	       "rc %ld (%s)", rc, strerror(errno));
	close(fa);

	fa = open_umad(na, 0);
	fb = open_umad(nb, 0);
	result(fa >= 0 && fb >= 0 && ioctl(fa, IB_USER_MAD_ENABLE_PKEY) == 0 &&
	       ioctl(fb, IB_USER_MAD_ENABLE_PKEY) == 0,
	       "ENABLE_PKEY on a new file", "%s", strerror(errno));
	memset(&r2, 0, sizeof(r2));
	r2.qpn = 1;
	r2.flags = 0x80;
	rc = ioctl(fa, IB_USER_MAD_REGISTER_AGENT2, &r2);
	result(rc == -1 && errno == EINVAL &&
	       r2.flags == IB_USER_MAD_REG_FLAGS_CAP,
	       "REGISTER_AGENT2 unknown flag: EINVAL, flags = supported",
	       "rc %ld errno %d flags 0x%x", rc, errno, r2.flags);
	r2.flags = 0;
	r2.qpn = 2;
	expect_err("REGISTER_AGENT2 qpn 2 is EINVAL",
		   ioctl(fa, IB_USER_MAD_REGISTER_AGENT2, &r2), EINVAL);
	expect_err("REGISTER_AGENT2 OUI above 24 bits is EINVAL",
		   reg2(fa, VENDOR2_CLASS, 0x1000000, 0, 0, GET, NULL), EINVAL);
	expect_err("REGISTER_AGENT2 vendor range 2 without OUI is EINVAL",
		   reg2(fa, VENDOR2_CLASS, 0, 0, 0, GET, NULL), EINVAL);
	expect_err("REGISTER_AGENT2 RMPP version on a non-RMPP class is EINVAL",
		   reg2(fa, VENDOR_CLASS, 0, 1, 0, GET, NULL), EINVAL);
	expect_err("REGISTER_AGENT2 user RMPP without class is EINVAL",
		   reg2(fa, 0, 0, 0, IB_USER_MAD_USER_RMPP, -1, NULL), EINVAL);
	expect_err("REGISTER_AGENT2 bad pointer is EFAULT",
		   ioctl(fa, IB_USER_MAD_REGISTER_AGENT2, bad_addr()), EFAULT);
	expect_err("REGISTER_AGENT bad pointer is EFAULT",
		   ioctl(fa, IB_USER_MAD_REGISTER_AGENT, bad_addr()), EFAULT);
	expect_err("unknown ioctl is ENOTTY", ioctl(fa, _IO(0x1b, 0x7f)),
		   ENOTTY);

	ida = reg2(fa, 0, 0, 0, 0, -1, NULL);
	idb = reg2(fb, VENDOR_CLASS, 0, 0, 0, GET, NULL);
	result(ida == 0 && idb == 0, "REGISTER_AGENT2 client and server",
	       "ids %d %d (%s)", ida, idb, strerror(errno));
	expect_err("a method another agent of the port has is EINVAL",
		   reg2(fb, VENDOR_CLASS, 0, 0, 0, GET, NULL), EINVAL);
	n = 1;
	while (reg2(fa, 0, 0, 0, 0, -1, NULL) >= 0)
		n++;
	result(n == 32 && errno == ENOMEM, "32 agents per file, then ENOMEM",
	       "%d agents, then %s", n, strerror(errno));
	i = 31;
	rc = ioctl(fa, IB_USER_MAD_UNREGISTER_AGENT, &i);
	result(rc == 0, "UNREGISTER_AGENT", "%s", strerror(errno));
	expect_err("UNREGISTER_AGENT of a free id is EINVAL",
		   ioctl(fa, IB_USER_MAD_UNREGISTER_AGENT, &i), EINVAL);
	i = 32;
	expect_err("UNREGISTER_AGENT id 32 is EINVAL",
		   ioctl(fa, IB_USER_MAD_UNREGISTER_AGENT, &i), EINVAL);

	/* --- writes the layer refuses */
	make_mad(&m, 31, lid_b, VENDOR_CLASS, GET, 2, 0, 0);
	expect_err("write to an unregistered agent id is EIO",
		   write(fa, &m, HDR + MAD_SIZE), EIO);
	m.hdr.id = 32;
	expect_err("write with agent id 32 is EINVAL",
		   write(fa, &m, HDR + MAD_SIZE), EINVAL);
	m.hdr.id = ida;
	expect_err("write shorter than header + 36 is EINVAL",
		   write(fa, &m, HDR + 35), EINVAL);
	{
		char big[HDR + MAD_SIZE + 8] = { 0 };

		memcpy(big, &m, sizeof(m));
		expect_err("write beyond the MAD is EINVAL",
			   write(fa, big, sizeof(big)), EINVAL);
	}
	expect_err("write from a bad pointer is EFAULT",
		   write(fa, bad_addr(), HDR + MAD_SIZE), EFAULT);

	/* --- request from A to B, response back */
	make_mad(&m, ida, lid_b, VENDOR_CLASS, GET, 0xabcd, 2000, 0);
	rc = write(fa, &m, HDR + MAD_SIZE);
	ok = rc == HDR + MAD_SIZE && wait_in(fb, 5000);
	n = ok ? read(fb, &in, sizeof(in)) : -1;
	tid = mad_tid(in.mad);
	ok = ok && n == HDR + MAD_SIZE && in.hdr.id == (__u32)idb &&
	     in.hdr.status == 0 && in.hdr.length == HDR + MAD_SIZE &&
	     ntohl(in.hdr.qpn) == 1 && ntohs(in.hdr.lid) == lid_a &&
	     !memcmp(in.mad + 16, m.mad + 16, MAD_SIZE - 16) &&
	     in.mad[3] == GET && (__u32)tid == 0xabcd;
	result(ok, "B reads A's request with A's address",
	       "write %ld read %d id %u status %u len %u qpn %u lid %u tid %llx",
	       rc, n, in.hdr.id, in.hdr.status, in.hdr.length,
	       ntohl(in.hdr.qpn), ntohs(in.hdr.lid), (unsigned long long)tid);
	expect_err("nothing more to read: EAGAIN (O_NONBLOCK)",
		   (fcntl(fb, F_SETFL, O_NONBLOCK), read(fb, &in, sizeof(in))),
		   EAGAIN);

	memcpy(&m, &in, sizeof(in));
	m.hdr.timeout_ms = 0;
	m.mad[3] = GET_RESP;
	m.mad[40] = 0x5a;
	rc = write(fb, &m, HDR + MAD_SIZE);
	ok = rc == HDR + MAD_SIZE && wait_in(fa, 5000);
	n = ok ? read(fa, &in, HDR + 100) : -1;
	ok = ok && n == -1 && errno == EINVAL;
	result(ok, "read into a buffer smaller than the MAD is EINVAL",
	       "write %ld read %d (%s)", rc, n, strerror(errno));
	n = read(fa, &in, HDR - 1);
	expect_err("read shorter than the header is EINVAL", n, EINVAL);
	n = read(fa, &in, sizeof(in));
	ok = n == HDR + MAD_SIZE && in.hdr.id == (__u32)ida &&
	     in.hdr.status == 0 && mad_tid(in.mad) == tid &&
	     in.mad[3] == GET_RESP && in.mad[40] == 0x5a &&
	     ntohs(in.hdr.lid) == lid_b;
	result(ok, "A reads B's response with its TID (hi_tid kept)",
	       "read %d id %u status %u tid %llx want %llx method %x",
	       n, in.hdr.id, in.hdr.status,
	       (unsigned long long)mad_tid(in.mad), (unsigned long long)tid,
	       in.mad[3]);

	/* --- a request nobody answers */
	make_mad(&m, ida, lid_b, VENDOR_CLASS, GET, 0x7777, 300, 1);
	rc = write(fa, &m, HDR + MAD_SIZE);
	expect_err("a second request with an outstanding TID is EINVAL",
		   write(fa, &m, HDR + MAD_SIZE), EINVAL);
	ok = rc == HDR + MAD_SIZE && wait_in(fa, 10000);
	n = ok ? read(fa, &in, sizeof(in)) : -1;
	ok = ok && n == HDR + 24 && in.hdr.status == ETIMEDOUT &&
	     in.hdr.id == (__u32)ida && (__u32)mad_tid(in.mad) == 0x7777 &&
	     mad_tid(in.mad) >> 32 == tid >> 32 && in.mad[3] == GET;
	result(ok, "unanswered send comes back with ETIMEDOUT",
	       "write %ld read %d status %u id %u tid %llx", rc, n,
	       in.hdr.status, in.hdr.id, (unsigned long long)mad_tid(in.mad));
	/* B got the request and its retry */
	n = 0;
	while (wait_in(fb, 500) && read(fb, &in, sizeof(in)) > 0)
		n++;
	result(n == 2, "B received the request and one retry", "%d", n);

	/* --- user RMPP: raw segments pass as written */
	fc = open_umad(na, 0);
	ioctl(fc, IB_USER_MAD_ENABLE_PKEY);
	i = reg2(fc, VENDOR2_CLASS, TEST_OUI, 1, IB_USER_MAD_USER_RMPP, -1,
		 NULL);
	n = reg2(fb, VENDOR2_CLASS, TEST_OUI, 1, IB_USER_MAD_USER_RMPP, GET,
		 NULL);
	make_mad(&m, i, lid_b, VENDOR2_CLASS, GET, 0x4242, 0, 0);
	m.mad[37] = 0x00;	/* OUI in the vendor header */
	m.mad[38] = 0x14;
	m.mad[39] = 0x05;
	m.mad[24] = 1;		/* RMPP version */
	m.mad[25] = 7;		/* no such RMPP type */
	m.mad[26] = 0xf1;	/* Active with a bad resp time */
	m.mad[27] = 0x55;	/* status */
	rc = write(fc, &m, HDR + MAD_SIZE);
	ok = i >= 0 && n >= 0 && rc == HDR + MAD_SIZE && wait_in(fb, 5000);
	rc = ok ? read(fb, &in, sizeof(in)) : -1;
	ok = ok && rc == HDR + MAD_SIZE && in.hdr.id == (__u32)n &&
	     !memcmp(in.mad + 24, m.mad + 24, MAD_SIZE - 24);
	result(ok, "user-RMPP agent: a bad RMPP header passes raw",
	       "ids %d %d read %ld", i, n, rc);
	close(fc);

	/* --- poll */
	{
		struct pollfd p = { .fd = fa, .events = POLLIN | POLLOUT };

		rc = poll(&p, 1, 0);
		result(rc == 1 && p.revents == POLLOUT,
		       "poll: writable, nothing to read", "rc %ld revents %x",
		       rc, p.revents);
	}

	/* --- issm */
	cm = port_cap_mask(dev_a);
	fs = open_issm(na, 0);
	n = port_cap_mask(dev_a);
	fs2 = open_issm(na, O_NONBLOCK);
	i = errno;
	ok = cm >= 0 && !(cm & IS_SM) && fs >= 0 && (n & IS_SM) && fs2 == -1 &&
	     i == EAGAIN;
	result(ok, "issm: IsSM set while open; a second open is EAGAIN",
	       "cap_mask 0x%x -> 0x%x, fd %d, second %d (%s)", cm, n, fs, fs2,
	       strerror(i));
	close(fs);
	n = port_cap_mask(dev_a);
	fs2 = open_issm(na, O_NONBLOCK);
	result(!(n & IS_SM) && fs2 >= 0, "issm: closing clears IsSM",
	       "cap_mask 0x%x, reopen %d", n, fs2);
	close(fs2);

	close(fa);
	close(fb);

	/* --- device removal with files open */
	fd = open_umad(nd, 0);
	fs = open_issm(nd, 0);
	ida = reg2(fd, 0, 0, 0, 0, -1, NULL);
	rc = system("rmmod ib_umad 2>/dev/null");
	result(fd >= 0 && fs >= 0 && ida >= 0 && rc != 0,
	       "ib_umad cannot be unloaded while files are open", "rc %ld",
	       rc);
	{
		pid_t pid = fork();
		int status;

		if (pid == 0) {
			/* a reader blocked when the device goes */
			ssize_t r = read(fd, &in, sizeof(in));

			_exit(r == -1 && errno == EIO ? 0 : 1);
		}
		usleep(300000);
		snprintf(buf, sizeof(buf), "rdma link delete %s", dev_del);
		rc = system(buf);
		ok = rc == 0 && waitpid(pid, &status, 0) == pid &&
		     WIFEXITED(status) && WEXITSTATUS(status) == 0;
		result(ok, "rdma link delete: a blocked read returns EIO",
		       "rc %ld", rc);
	}
	expect_err("read after removal is EIO", read(fd, &in, sizeof(in)), EIO);
	make_mad(&m, ida, 1, VENDOR_CLASS, GET, 3, 0, 0);
	expect_err("write after removal is EIO",
		   write(fd, &m, HDR + MAD_SIZE), EIO);
	expect_err("REGISTER_AGENT2 after removal is EPIPE",
		   reg2(fd, 0, 0, 0, 0, -1, NULL), EPIPE);
	{
		struct pollfd p = { .fd = fd, .events = POLLIN };

		rc = poll(&p, 1, 0);
		result(rc == 1 && p.revents == POLLERR, "poll after removal is POLLERR",
		       "rc %ld revents %x", rc, p.revents);
	}
	snprintf(path, sizeof(path), SYS_MAD "/umad%d", nd);
	result(access(path, F_OK) && close(fs) == 0 && close(fd) == 0,
	       "the device's umad is gone; its files close", "%s", path);
out:
	while (case_num < NCASES)
		result(0, "not reached", "an earlier case failed hard");
	printf("# %d of %d failed\n", failed, case_num);
	return failed ? 1 : 0;
}
