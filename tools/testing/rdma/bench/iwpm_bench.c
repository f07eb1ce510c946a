// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_iwpm_bench: how long a port-mapper request takes through the real
 * iwpmd.  A benchmark, not a test: it reports times and never judges
 * them.  Documentation/core/iwpm.rst ("Measured") has the figures and
 * tools/testing/rdma/bench/run-iwpm-bench.sh runs it in the VM.
 *
 * It plays an iWARP connection manager (netlink client RDMA_NL_IWCM, as
 * rdma_iwpm_user does): it registers with the port mapper, then times
 * COUNT cycles of iwpm_add_mapping() (request, iwpmd's answer) and
 * iwpm_remove_mapping() (a message iwpmd does not answer) for one local
 * address, after WARMUP untimed cycles.  The kernel's own mapping table
 * is not touched.
 *
 *   echo "COUNT ADDR PORT [FLAGS [WARMUP]]" >/sys/kernel/debug/iwpm_bench/run
 *   cat /sys/kernel/debug/iwpm_bench/results
 *
 * The write returns when the run is over.  results holds one table: min,
 * median, p90, p99 and max in microseconds (nearest-rank percentiles of
 * the successful calls) and their count, for the add, the remove and the
 * whole cycle.  Without a port mapper iwpm_add_mapping() falls back to
 * the unmapped address at once, so the same run then measures that path.
 */
#include <linux/debugfs.h>
#include <linux/inet.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <rdma/iw_portmap.h>
#include <rdma/rdma_netlink.h>

#define IWPM_BENCH_MAX_COUNT	100000
#define IWPM_BENCH_MAX_WARMUP	10000
#define IWPM_BENCH_DEF_WARMUP	100
#define IWPM_BENCH_ARGS		5
#define IWPM_BENCH_RESULT_SIZE	2048
/* A run stops after this many failed adds (each may wait pm_timeout_ms). */
#define IWPM_BENCH_MAX_ERRORS	10

static char *ifname = "lo";
module_param(ifname, charp, 0444);
MODULE_PARM_DESC(ifname, "Interface name sent with the registration (lo)");

static char *ibdev = "bench0";
module_param(ibdev, charp, 0444);
MODULE_PARM_DESC(ibdev, "RDMA device name sent with the registration (bench0)");

enum iwpm_bench_row {
	IWPM_BENCH_ADD,
	IWPM_BENCH_REMOVE,
	IWPM_BENCH_CYCLE,
	IWPM_BENCH_ROWS
};

static const char *const iwpm_bench_row_name[IWPM_BENCH_ROWS] = {
	[IWPM_BENCH_ADD]	= "add_mapping",
	[IWPM_BENCH_REMOVE]	= "remove_mapping",
	[IWPM_BENCH_CYCLE]	= "add+remove",
};

/* One run: its parameters, samples in nanoseconds and outcome counters. */
struct iwpm_bench_run {
	struct iwpm_sa_data sa;
	unsigned int count;
	unsigned int warmup;
	u64 *samples[IWPM_BENCH_ROWS];
	unsigned int n[IWPM_BENCH_ROWS];
	unsigned int add_errors;
	unsigned int remove_errors;
	int last_add_error;
	int last_remove_error;
	unsigned int remapped;
	int register_ret;
	u64 register_ns;
	bool stopped;
	int pm_before;
	int pm_after;
	u64 wall_ns;
};

/* Serialises runs; protects iwpm_bench_result. */
static DEFINE_MUTEX(iwpm_bench_lock);
static char iwpm_bench_result[IWPM_BENCH_RESULT_SIZE] =
	"no run yet: write \"COUNT ADDR PORT [FLAGS [WARMUP]]\" to run\n";
static struct dentry *iwpm_bench_dir;

static int iwpm_bench_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile @pct of @n sorted samples (n > 0). */
static u64 iwpm_bench_pct(const u64 *s, unsigned int n, unsigned int pct)
{
	unsigned int rank = DIV_ROUND_UP(n * pct, 100);

	return s[rank ? rank - 1 : 0];
}

/* Append "  1234.5" (nanoseconds shown as microseconds, one decimal). */
static int iwpm_bench_us(char *buf, size_t len, u64 ns)
{
	u32 tenth;
	u64 us = div_u64_rem(div_u64(ns + 50, 100), 10, &tenth);

	return scnprintf(buf, len, " %9llu.%u", us, tenth);
}

/* Whether the port mapper gave another address or port than the local one. */
static bool iwpm_bench_remapped(const struct iwpm_sa_data *sa)
{
	const struct sockaddr_storage *a = &sa->loc_addr;
	const struct sockaddr_storage *b = &sa->mapped_loc_addr;
	const struct sockaddr_in6 *a6, *b6;
	const struct sockaddr_in *a4, *b4;

	if (a->ss_family != b->ss_family)
		return true;
	if (a->ss_family == AF_INET) {
		a4 = (const struct sockaddr_in *)a;
		b4 = (const struct sockaddr_in *)b;
		return a4->sin_addr.s_addr != b4->sin_addr.s_addr ||
		       a4->sin_port != b4->sin_port;
	}
	a6 = (const struct sockaddr_in6 *)a;
	b6 = (const struct sockaddr_in6 *)b;
	return !ipv6_addr_equal(&a6->sin6_addr, &b6->sin6_addr) ||
	       a6->sin6_port != b6->sin6_port;
}

static void iwpm_bench_report(struct iwpm_bench_run *r)
{
	char *buf = iwpm_bench_result;
	size_t len = sizeof(iwpm_bench_result), at = 0;
	int i;

	at += scnprintf(buf + at, len - at,
			"port mapper: %s at the start, %s at the end\n",
			r->pm_before ? "registered" :
			"none (unmapped-address fallback)",
			r->pm_after ? "registered" : "none");
	at += scnprintf(buf + at, len - at,
			"register: ret=%d in %llu us\n", r->register_ret,
			div_u64(r->register_ns, NSEC_PER_USEC));
	at += scnprintf(buf + at, len - at,
			"address: %pISpc flags 0x%x, %u timed cycles after %u warm-up, %llu ms in all\n",
			&r->sa.loc_addr, r->sa.flags, r->count, r->warmup,
			div_u64(r->wall_ns, NSEC_PER_MSEC));
	at += scnprintf(buf + at, len - at, "%-16s %7s %11s %11s %11s %11s %11s\n",
			"us", "count", "min", "median", "p90", "p99", "max");
	for (i = 0; i < IWPM_BENCH_ROWS; i++) {
		u64 *s = r->samples[i];
		unsigned int n = r->n[i];

		at += scnprintf(buf + at, len - at, "%-16s %7u",
				iwpm_bench_row_name[i], n);
		if (!n) {
			at += scnprintf(buf + at, len - at, "%12s\n", "-");
			continue;
		}
		sort(s, n, sizeof(*s), iwpm_bench_cmp, NULL);
		at += iwpm_bench_us(buf + at, len - at, s[0]);
		at += iwpm_bench_us(buf + at, len - at,
				    iwpm_bench_pct(s, n, 50));
		at += iwpm_bench_us(buf + at, len - at,
				    iwpm_bench_pct(s, n, 90));
		at += iwpm_bench_us(buf + at, len - at,
				    iwpm_bench_pct(s, n, 99));
		at += iwpm_bench_us(buf + at, len - at, s[n - 1]);
		at += scnprintf(buf + at, len - at, "\n");
	}
	at += scnprintf(buf + at, len - at,
			"mapped to another address: %u of %u adds; add errors: %u (last %d); remove errors: %u (last %d)\n",
			r->remapped, r->n[IWPM_BENCH_ADD], r->add_errors,
			r->last_add_error, r->remove_errors,
			r->last_remove_error);
	if (r->stopped)
		scnprintf(buf + at, len - at,
			  "run stopped early after %u failed adds\n",
			  r->add_errors);
}

/* One add + remove cycle; @timed records the samples. */
static void iwpm_bench_cycle(struct iwpm_bench_run *r, bool timed)
{
	u64 t0, t1, t2;
	int ret;

	t0 = ktime_get_ns();
	ret = iwpm_add_mapping(&r->sa, RDMA_NL_IWCM);
	t1 = ktime_get_ns();
	if (ret) {
		/* Counted also in warm-up: a run that fails there says so. */
		r->add_errors++;
		r->last_add_error = ret;
		return;
	}
	ret = iwpm_remove_mapping(&r->sa.loc_addr, RDMA_NL_IWCM);
	t2 = ktime_get_ns();
	if (ret) {
		r->remove_errors++;
		r->last_remove_error = ret;
	}
	if (!timed)
		return;
	r->samples[IWPM_BENCH_ADD][r->n[IWPM_BENCH_ADD]++] = t1 - t0;
	if (iwpm_bench_remapped(&r->sa))
		r->remapped++;
	if (ret)
		return;
	r->samples[IWPM_BENCH_REMOVE][r->n[IWPM_BENCH_REMOVE]++] = t2 - t1;
	r->samples[IWPM_BENCH_CYCLE][r->n[IWPM_BENCH_CYCLE]++] = t2 - t0;
}

static int iwpm_bench_run(struct iwpm_bench_run *r)
{
	struct iwpm_dev_data dev = {};
	unsigned int i;
	u64 start;
	int ret = -ENOMEM;

	for (i = 0; i < IWPM_BENCH_ROWS; i++) {
		r->samples[i] = kvcalloc(r->count, sizeof(u64), GFP_KERNEL);
		if (!r->samples[i])
			goto out;
	}

	strscpy(dev.dev_name, ibdev, sizeof(dev.dev_name));
	strscpy(dev.if_name, ifname, sizeof(dev.if_name));
	r->pm_before = iwpm_valid_pid();
	start = ktime_get_ns();
	/*
	 * A client stays registered until the port mapper restarts, and
	 * then iwpm_register_pid() asks again; otherwise this returns at
	 * once.
	 */
	r->register_ret = iwpm_register_pid(&dev, RDMA_NL_IWCM);
	r->register_ns = ktime_get_ns() - start;

	start = ktime_get_ns();
	for (i = 0; i < r->warmup + r->count; i++) {
		if (r->add_errors >= IWPM_BENCH_MAX_ERRORS) {
			r->stopped = true;
			break;
		}
		iwpm_bench_cycle(r, i >= r->warmup);
		cond_resched();
	}
	r->wall_ns = ktime_get_ns() - start;
	r->pm_after = iwpm_valid_pid();
	iwpm_bench_report(r);
	ret = 0;
out:
	for (i = 0; i < IWPM_BENCH_ROWS; i++)
		kvfree(r->samples[i]);
	return ret;
}

/* "COUNT ADDR PORT [FLAGS [WARMUP]]" into @r. */
static int iwpm_bench_parse(char *cmd, struct iwpm_bench_run *r)
{
	char *argv[IWPM_BENCH_ARGS], *tok;
	int argc = 0, ret;

	while ((tok = strsep(&cmd, " \t")) != NULL) {
		if (!*tok)
			continue;
		if (argc == IWPM_BENCH_ARGS)
			return -E2BIG;
		argv[argc++] = tok;
	}
	if (argc < 3)
		return -EINVAL;
	ret = kstrtouint(argv[0], 0, &r->count);
	if (ret)
		return ret;
	if (!r->count || r->count > IWPM_BENCH_MAX_COUNT)
		return -ERANGE;
	if (inet_pton_with_scope(&init_net, AF_UNSPEC, argv[1], argv[2],
				 &r->sa.loc_addr))
		return -EINVAL;
	if (argc > 3) {
		ret = kstrtou32(argv[3], 0, &r->sa.flags);
		if (ret)
			return ret;
	}
	r->warmup = IWPM_BENCH_DEF_WARMUP;
	if (argc > 4) {
		ret = kstrtouint(argv[4], 0, &r->warmup);
		if (ret)
			return ret;
		if (r->warmup > IWPM_BENCH_MAX_WARMUP)
			return -ERANGE;
	}
	return 0;
}

static ssize_t iwpm_bench_run_write(struct file *file,
				    const char __user *ubuf, size_t count,
				    loff_t *ppos)
{
	struct iwpm_bench_run *r;
	char *buf;
	int ret;

	if (!count || count > 128)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r) {
		ret = -ENOMEM;
		goto out_buf;
	}
	ret = iwpm_bench_parse(strim(buf), r);
	if (ret)
		goto out_run;
	mutex_lock(&iwpm_bench_lock);
	ret = iwpm_bench_run(r);
	mutex_unlock(&iwpm_bench_lock);
out_run:
	kfree(r);
out_buf:
	kfree(buf);
	return ret ? ret : count;
}

static const struct file_operations iwpm_bench_run_fops = {
	.owner = THIS_MODULE,
	.write = iwpm_bench_run_write,
	.llseek = noop_llseek,
};

static ssize_t iwpm_bench_results_read(struct file *file, char __user *ubuf,
				       size_t count, loff_t *ppos)
{
	char *copy;
	ssize_t ret;

	copy = kmalloc(sizeof(iwpm_bench_result), GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	mutex_lock(&iwpm_bench_lock);
	memcpy(copy, iwpm_bench_result, sizeof(iwpm_bench_result));
	mutex_unlock(&iwpm_bench_lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, copy,
				      strnlen(copy, sizeof(iwpm_bench_result)));
	kfree(copy);
	return ret;
}

static const struct file_operations iwpm_bench_results_fops = {
	.owner = THIS_MODULE,
	.read = iwpm_bench_results_read,
	.llseek = default_llseek,
};

static int __init iwpm_bench_init(void)
{
	iwpm_bench_dir = debugfs_create_dir("iwpm_bench", NULL);
	debugfs_create_file("run", 0200, iwpm_bench_dir, NULL,
			    &iwpm_bench_run_fops);
	debugfs_create_file("results", 0400, iwpm_bench_dir, NULL,
			    &iwpm_bench_results_fops);
	return 0;
}

static void __exit iwpm_bench_exit(void)
{
	debugfs_remove_recursive(iwpm_bench_dir);
}

module_init(iwpm_bench_init);
module_exit(iwpm_bench_exit);
MODULE_DESCRIPTION("Round-trip benchmark of the iWARP port-mapper client");
MODULE_LICENSE("Dual BSD/GPL");
