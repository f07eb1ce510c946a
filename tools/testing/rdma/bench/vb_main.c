// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_verbs_bench: latency, message rate and bandwidth of RC SEND, RDMA
 * WRITE and RDMA READ between two kernel QPs, the CPU each CQ polling
 * context spends per completion, and kernel TCP measured the same way
 * beside them.  A benchmark, not a test: it reports and never judges,
 * except that every run checks that the data arrived.
 *
 * One source for two stacks: it uses only the public kernel RDMA API, so
 * it builds against our include/ (Kbuild) and against upstream's
 * drivers/infiniband (Kbuild.upstream), both with -DVB_RDMA_CM=1, and
 * measures our loop devices and siw, upstream's rdma_rxe (RoCE v2) and
 * siw (iWARP) and TCP with the same code.
 *
 * A run is one write; it returns when the run is over:
 *
 *   echo "COMMAND" >/sys/kernel/debug/verbs_bench/run
 *   cat /sys/kernel/debug/verbs_bench/results
 *
 * Runs are made one at a time, except that a server ("server",
 * "tcp-server") runs beside them and reports to "server_results"
 * instead, so that a server and its client may share a kernel.
 *
 * COMMAND is one of (counts in brackets are optional, in this order):
 *
 *   pair DEV0 DEV1 [LAT RATE CPU DEPTH]
 *	two QPs in this kernel, the requester on DEV0, the responder on
 *	DEV1 (DEV0 == DEV1: loopback on one device).  IB ports are joined
 *	by LID, RoCE ports by their RoCE v2 IPv4 GID, both with
 *	ib_modify_qp(); iWARP QPs only through rdma_cm (listener and
 *	connector in this module, on the IPv4 addresses of the devices'
 *	netdevs), so only in builds with VB_RDMA_CM.
 *   server DEV PORT
 *	the passive half across a wire (rdma_cm, VB_RDMA_CM builds only):
 *	listens on DEV's IPv4 address, accepts the client's connections
 *	one after another, gives each a responder QP whose receives its
 *	completion handler reposts and whose buffer's address and rkey go
 *	back in the accept's private data.  Returns when the client closed
 *	its last connection, or after VB_SERVER_TIMEOUT_S with an error.
 *   client DEV PEER_IP PORT [LAT RATE CPU DEPTH]
 *	the requester across the wire: connects from DEV's address to the
 *	server (retrying a refused or unreachable connect for
 *	VB_CONNECT_RETRY_S, so the two may start in any order) and runs
 *	the measurement.
 *   tcp-pair [LAT RATE DEPTH]
 *	kernel TCP over 127.0.0.1, the server a kernel thread.
 *   tcp-server PORT
 *   tcp-client PEER_IP PORT [LAT RATE DEPTH]
 *	kernel TCP across the wire; the server serves one client.
 *
 * Defaults: LAT 200, RATE 400, CPU 1500, DEPTH 64 (at most 128).  CPU 0
 * leaves the CPU table out: one connection in all (the tests' runs).
 *
 * Method (RDMA).  Each side has a 128 KiB kmalloc'd buffer mapped with
 * ib_dma_map_single() and used with its PD's local_dma_lkey; WRITE and
 * READ reach the responder's buffer through its PD's unsafe global rkey
 * (upstream's rxe and siw both implement get_dma_mr, which that needs).
 * The responder keeps VB_RECVS receives posted on an IB_POLL_SOFTIRQ CQ.
 * For SEND, RDMA WRITE and RDMA READ at 8 B, 4 KiB and 64 KiB, on an
 * IB_POLL_DIRECT CQ that the benchmark thread polls without sleeping:
 *   latency   LAT operations one at a time, each timed from the post to
 *             the return of its completion's done callback (median and
 *             nearest-rank p99); an RC completion means the responder
 *             acknowledged the operation;
 *   rate      RATE operations with up to DEPTH outstanding, from the
 *             first post to the last completion (iWARP SENDs: at most
 *             half the responder's receives, as iWARP has no RNR flow
 *             control to stop an overrun);
 *   bandwidth the 64 KiB rate times 64 KiB.
 * Each (op, size) starts with VB_WARMUP untimed operations (LAT when
 * fewer) and ends with a check that the data arrived, made through the
 * QP so that it works across a wire too: SEND and WRITE are read back
 * with an RDMA READ, READ reads what an RDMA WRITE put there first.
 *
 * CPU per completion: for each of the four poll contexts a new
 * connection whose requester CQ has that context, CPU signaled 8-byte
 * RDMA WRITEs with DEPTH outstanding, each reposted from the done
 * callback (as a ULP does).  The CPU time is the growth of the busy part
 * (user, nice, system, irq, softirq, steal) of kcpustat over all online
 * CPUs, divided by the completions: a statistical figure (tick-based
 * accounting) that counts everything that ran on this machine, in pair
 * mode the responder too.  The busy time of two idle seconds measured
 * first is the background; "net" subtracts its share.
 *
 * Method (TCP, vb_tcp.c): one connection with TCP_NODELAY; each message
 * (a small header and its payload) is answered by a 4-byte ack from the
 * peer once it has been read in full and checked, which is what an RC
 * completion waits for too.  Both ends busy-poll their socket
 * (MSG_DONTWAIT), as the verbs side polls its CQ.  Latency: one message at a time, from the
 * send to the ack; rate: DEPTH messages unacknowledged at most.  SEND and
 * RDMA WRITE are the same thing over TCP (one measurement, reported for
 * both); RDMA READ has no equivalent (n/a).  No CPU figures.
 *
 * Results: a table for people, and one line per figure for scripts:
 *
 *   vb-result TRANSPORT DRIVER OP SIZE METRIC VALUE
 *
 * TRANSPORT is ib, roce, iwarp or tcp; DRIVER the device's driver (loop,
 * rxe, siw; tcp for TCP); OP is SEND, RDMA_WRITE or RDMA_READ, and for
 * the CPU figures the poll context (IB_POLL_DIRECT, ...); SIZE is in
 * bytes; METRIC is one of lat_med_us, lat_p99_us, rate_kops (thousands
 * of operations a second), bw_mbs (10^6 bytes a second, 64 KiB only),
 * cpu_us_per_compl and cpu_net_us_per_compl (SIZE 8); VALUE is a
 * decimal number or n/a.  Every run but a server's ends with one line
 * "verify: ok (N checks)" or "verify: FAILED ..." (a row whose data did
 * not arrive, or a run that failed or could not be made).
 */
#include <linux/debugfs.h>
#include <linux/inet.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "vb.h"

#define VB_MAX_ARGV	8
#define VB_CMD_LEN	256

const char *const vb_op_name[VB_OPS] = {
	[VB_SEND]	= "SEND",
	[VB_WRITE]	= "RDMA_WRITE",
	[VB_READ]	= "RDMA_READ",
};

const u32 vb_sizes[3] = { 8, SZ_4K, SZ_64K };

/*
 * Runs are serialised, servers apart from the others so that a server
 * and its client can run in the same kernel; vb_lock protects the two
 * reports.
 */
static DEFINE_MUTEX(vb_run_lock);
static DEFINE_MUTEX(vb_server_lock);
static DEFINE_MUTEX(vb_lock);
static char vb_report[VB_RESULT_SIZE] =
	"no run yet: write a command to run (see vb_main.c)\n";
static char vb_server_report[VB_RESULT_SIZE] = "no server run yet\n";
static struct dentry *vb_dir;

void vb_out(struct vb_run *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	r->at += vscnprintf(r->out + r->at, VB_RESULT_SIZE - r->at, fmt, ap);
	va_end(ap);
}

/* " 1234.5": ns as us with one decimal, for the table. */
void vb_out_us(struct vb_run *r, u64 ns)
{
	u32 tenth;
	u64 us = div_u64_rem(div_u64(ns + 50, 100), 10, &tenth);

	vb_out(r, " %9llu.%u", us, tenth);
}

/* One "vb-result" line; the value is formatted by the caller. */
void vb_result(struct vb_run *r, const char *op, u32 size,
	       const char *metric, const char *fmt, ...)
{
	char value[32];
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(value, sizeof(value), fmt, ap);
	va_end(ap);
	vb_out(r, "vb-result %s %s %s %u %s %s\n", r->transport, r->driver,
	       op, size, metric, value);
}

/* A "vb-result" line whose value is @ns in microseconds. */
void vb_result_us(struct vb_run *r, const char *op, u32 size,
		  const char *metric, u64 ns)
{
	u32 tenth;
	u64 us = div_u64_rem(div_u64(ns + 50, 100), 10, &tenth);

	vb_result(r, op, size, metric, "%llu.%u", us, tenth);
}

/* Count one data check; the first failure is named in the verdict. */
void vb_check_done(struct vb_run *r, const char *what, u32 size, bool ok)
{
	r->checked++;
	if (ok)
		return;
	if (!r->bad++)
		snprintf(r->first_bad, sizeof(r->first_bad), "%s %u", what,
			 size);
}

/* The table row of one (op, size): latency, rate, bandwidth, data. */
void vb_row_table(struct vb_run *r, const char *name, u32 size, s64 ns,
		  bool bad)
{
	vb_out(r, "%-10s %6u", name, size);
	vb_out_us(r, vb_pct(r->samples, r->lat, 50));
	vb_out_us(r, vb_pct(r->samples, r->lat, 99));
	vb_out(r, " %10llu", div64_u64((u64)r->rate * NSEC_PER_SEC, ns ?: 1));
	/* bytes per ns times 1000: MB/s */
	if (size == VB_MAX_SIZE)
		vb_out(r, " %9llu",
		       div64_u64((u64)r->rate * size * 1000, ns ?: 1));
	else
		vb_out(r, " %9s", "-");
	vb_out(r, "  %s\n", bad ? "BAD" : "ok");
}

/* The vb-result lines of one (op, size). */
void vb_row_results(struct vb_run *r, const char *name, u32 size, s64 ns)
{
	/* hundredths of an operation a second */
	u64 rate = div64_u64((u64)r->rate * NSEC_PER_SEC * 100, ns ?: 1);

	vb_result_us(r, name, size, "lat_med_us",
		     vb_pct(r->samples, r->lat, 50));
	vb_result_us(r, name, size, "lat_p99_us",
		     vb_pct(r->samples, r->lat, 99));
	vb_result(r, name, size, "rate_kops", "%llu.%02llu",
		  div_u64(rate, 100000), div_u64(rate, 1000) % 100);
	if (size == VB_MAX_SIZE)
		vb_result(r, name, size, "bw_mbs", "%llu",
			  div64_u64((u64)r->rate * size * 1000, ns ?: 1));
}

/* The head of the latency and rate table. */
void vb_table_head(struct vb_run *r, const char *how)
{
	vb_out(r, "\n== latency (%u ops, 1 outstanding) and rate (%u ops, %u outstanding)\n",
	       r->lat, r->rate, r->depth);
	vb_out(r, "   %s; times in us, rate in ops/s, bw in MB/s\n", how);
	vb_out(r, "%-10s %6s %11s %11s %10s %9s  %s\n", "op", "bytes",
	       "lat median", "lat p99", "rate", "bw", "data");
}

int vb_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted samples. */
u64 vb_pct(const u64 *s, unsigned int n, unsigned int pct)
{
	unsigned int rank = DIV_ROUND_UP(n * pct, 100);

	return s[rank ? rank - 1 : 0];
}

/* The modes: how many names and addresses, then which counts follow. */
struct vb_cmd {
	const char	*name;
	enum vb_mode	mode;
	unsigned int	fixed;
	bool		tcp;	/* counts are LAT RATE DEPTH, no CPU */
};

static const struct vb_cmd vb_cmds[] = {
	{ "pair",	VB_PAIR,	2, false },
	{ "server",	VB_SERVER,	2, false },
	{ "client",	VB_CLIENT,	3, false },
	{ "tcp-pair",	VB_TCP_PAIR,	0, true },
	{ "tcp-server",	VB_TCP_SERVER,	1, true },
	{ "tcp-client",	VB_TCP_CLIENT,	2, true },
};

static int vb_parse_port(struct vb_run *r, const char *s)
{
	if (kstrtou16(s, 10, &r->port) || !r->port)
		return -EINVAL;
	return 0;
}

static int vb_parse_ip(struct vb_run *r, const char *s)
{
	return in4_pton(s, -1, (u8 *)&r->peer, -1, NULL) ? 0 : -EINVAL;
}

static int vb_parse_name(char *dst, const char *s)
{
	return strscpy(dst, s, VB_NAME_LEN) < 0 ? -EINVAL : 0;
}

/* The names and addresses that follow the command word. */
static int vb_parse_fixed(struct vb_run *r, char **argv)
{
	switch (r->mode) {
	case VB_PAIR:
		return vb_parse_name(r->dev0, argv[0]) ?:
		       vb_parse_name(r->dev1, argv[1]);
	case VB_SERVER:
		return vb_parse_name(r->dev0, argv[0]) ?:
		       vb_parse_port(r, argv[1]);
	case VB_CLIENT:
		return vb_parse_name(r->dev0, argv[0]) ?:
		       vb_parse_ip(r, argv[1]) ?: vb_parse_port(r, argv[2]);
	case VB_TCP_SERVER:
		return vb_parse_port(r, argv[0]);
	case VB_TCP_CLIENT:
		return vb_parse_ip(r, argv[0]) ?: vb_parse_port(r, argv[1]);
	default:
		return 0;
	}
}

/* The optional counts: LAT RATE CPU DEPTH, or LAT RATE DEPTH for TCP. */
static int vb_parse_counts(struct vb_run *r, const struct vb_cmd *cmd,
			   char **argv, int argc)
{
	unsigned int *rdma[] = { &r->lat, &r->rate, &r->cpu, &r->depth };
	unsigned int *tcp[] = { &r->lat, &r->rate, &r->depth };
	unsigned int **dst = cmd->tcp ? tcp : rdma;
	int max = cmd->tcp ? ARRAY_SIZE(tcp) : ARRAY_SIZE(rdma);
	int i;

	if (argc > max || (argc && (cmd->mode == VB_SERVER ||
				    cmd->mode == VB_TCP_SERVER)))
		return -EINVAL;
	for (i = 0; i < argc; i++)
		if (kstrtouint(argv[i], 10, dst[i]))
			return -EINVAL;
	if (!r->lat || r->lat > VB_MAX_ITERS || !r->rate ||
	    r->rate > VB_MAX_ITERS || r->cpu > VB_MAX_ITERS ||
	    !r->depth || r->depth > VB_MAX_DEPTH)
		return -EINVAL;
	return 0;
}

static int vb_parse(struct vb_run *r, char *line)
{
	const struct vb_cmd *cmd = NULL;
	char *argv[VB_MAX_ARGV], *tok;
	int argc = 0, i;

	while ((tok = strsep(&line, " \t\n"))) {
		if (!*tok)
			continue;
		if (argc == VB_MAX_ARGV)
			return -EINVAL;
		argv[argc++] = tok;
	}
	for (i = 0; argc && i < ARRAY_SIZE(vb_cmds); i++)
		if (!strcmp(argv[0], vb_cmds[i].name))
			cmd = &vb_cmds[i];
	if (!cmd || argc < 1 + cmd->fixed)
		return -EINVAL;
	r->mode = cmd->mode;
	r->lat = 200;
	r->rate = 400;
	r->cpu = 1500;
	r->depth = 64;
	return vb_parse_fixed(r, argv + 1) ?:
	       vb_parse_counts(r, cmd, argv + 1 + cmd->fixed,
			       argc - 1 - cmd->fixed);
}

#if !VB_HAVE_CM
static int vb_no_cm(struct vb_run *r)
{
	vb_out(r, "error: this needs rdma_cm, which this build lacks (built without VB_RDMA_CM)\n");
	return -EOPNOTSUPP;
}
#endif

static int vb_dispatch(struct vb_run *r)
{
	switch (r->mode) {
	case VB_PAIR:
		return vb_pair_run(r);
#if VB_HAVE_CM
	case VB_SERVER:
		return vb_cm_server_run(r);
	case VB_CLIENT:
		return vb_cm_client_run(r);
#else
	case VB_SERVER:
	case VB_CLIENT:
		return vb_no_cm(r);
#endif
	default:
		return vb_tcp_run(r);
	}
}

/* Run, then the verdict of the data checks. */
static void vb_run_all(struct vb_run *r)
{
	int ret = vb_dispatch(r);

	if (ret && !r->err)
		r->err = ret;
	if (r->mode == VB_SERVER || r->mode == VB_TCP_SERVER)
		return;
	if (r->bad)
		vb_out(r, "verify: FAILED (%u of %u checks, first %s)\n",
		       r->bad, r->checked, r->first_bad);
	else if (r->err)
		vb_out(r, "verify: FAILED (the run failed: %d, %u checks passed)\n",
		       r->err, r->checked);
	else if (!r->checked)
		vb_out(r, "verify: FAILED (nothing checked)\n");
	else
		vb_out(r, "verify: ok (%u checks)\n", r->checked);
}

/* A command that does not parse replaces the report, so none is stale. */
static void vb_bad_command(const char __user *ubuf, size_t len)
{
	char cmd[VB_CMD_LEN];

	/* the parser split the caller's copy: take the command again */
	if (copy_from_user(cmd, ubuf, len))
		len = 0;
	cmd[len] = '\0';
	mutex_lock(&vb_lock);
	snprintf(vb_report, sizeof(vb_report),
		 "error: cannot parse \"%s\" (see vb_main.c)\nverify: FAILED (bad command)\n",
		 strim(cmd));
	mutex_unlock(&vb_lock);
}

static ssize_t vb_run_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	struct vb_run *r;
	char buf[VB_CMD_LEN];
	bool server;
	ssize_t ret;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	ret = vb_parse(r, buf);
	if (ret) {
		vb_bad_command(ubuf, len);
		goto out_run;
	}
	ret = -ENOMEM;
	r->samples = kvcalloc(r->lat, sizeof(u64), GFP_KERNEL);
	r->out = kzalloc(VB_RESULT_SIZE, GFP_KERNEL);
	if (!r->samples || !r->out)
		goto out_bufs;

	server = r->mode == VB_SERVER || r->mode == VB_TCP_SERVER;
	ret = mutex_lock_interruptible(server ? &vb_server_lock : &vb_run_lock);
	if (ret)
		goto out_bufs;
	vb_run_all(r);
	mutex_lock(&vb_lock);
	memcpy(server ? vb_server_report : vb_report, r->out, VB_RESULT_SIZE);
	mutex_unlock(&vb_lock);
	mutex_unlock(server ? &vb_server_lock : &vb_run_lock);
	ret = r->err ?: len;
out_bufs:
	kvfree(r->samples);
	kfree(r->out);
out_run:
	kfree(r);
	return ret;
}

/* "results" or "server_results": the report is the file's data */
static ssize_t vb_results_read(struct file *file, char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	const char *report = file->private_data;
	ssize_t ret;

	mutex_lock(&vb_lock);
	ret = simple_read_from_buffer(ubuf, len, ppos, report,
				      strnlen(report, VB_RESULT_SIZE));
	mutex_unlock(&vb_lock);
	return ret;
}

static const struct file_operations vb_run_fops = {
	.owner	= THIS_MODULE,
	.write	= vb_run_write,
	.llseek	= noop_llseek,
};

static const struct file_operations vb_results_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= vb_results_read,
	.llseek	= default_llseek,
};

static int __init vb_init(void)
{
	vb_dir = debugfs_create_dir("verbs_bench", NULL);
	debugfs_create_file("run", 0200, vb_dir, NULL, &vb_run_fops);
	debugfs_create_file("results", 0400, vb_dir, vb_report,
			    &vb_results_fops);
	debugfs_create_file("server_results", 0400, vb_dir, vb_server_report,
			    &vb_results_fops);
	return 0;
}

static void __exit vb_exit(void)
{
	debugfs_remove_recursive(vb_dir);
}

module_init(vb_init);
module_exit(vb_exit);
MODULE_DESCRIPTION("RDMA verbs benchmark: latency, rate, bandwidth, CPU per completion; TCP beside it");
MODULE_LICENSE("Dual BSD/GPL");
