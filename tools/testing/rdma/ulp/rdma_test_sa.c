// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_test_sa: a kernel ULP that asks the SA client for path records
 * and joins multicast groups, for the integration scenarios (opensm's
 * SA, the local service through RDMA_NL_LS).  It uses only the public
 * API (<rdma/ib_sa.h>), as a ULP would.
 *
 * It is driven through debugfs, /sys/kernel/debug/rdma_test_sa/:
 *
 *   cmd     write one command; the write returns when the command is done,
 *           with 0 or the command's error
 *   log     what happened, one line each, oldest first
 *
 * Commands:
 *
 *   path DEV PORT DGID [TIMEOUT_MS]
 *           a PathRecord query through port PORT of device DEV to the GID
 *           DGID (IPv6 notation, e.g. fe80::2): SGID the port's GID 0,
 *           P_Key the one at index 0 of the port's cache (0xffff on an
 *           unpartitioned subnet), one path; component mask DGID, SGID,
 *           NUMB_PATH and PKEY, as rdma_cm's route resolution has it.
 *           TIMEOUT_MS (default 1000) is the SA query's timeout.  The write
 *           waits for the callback and logs
 *             "path status N dlid X slid Y sl S mtu M rate R pkt_life P"
 *           (LIDs in hex, the rest in decimal, enum values as on the
 *           wire), or "path status N" without a record.  A query the
 *           client refused logs "path error ERRNO" and the write fails
 *           with that errno.
 *   join DEV PORT MGID
 *           a full-member join of the multicast group MGID (IPv6
 *           notation) through port PORT of device DEV: port GID the
 *           port's GID 0, P_Key at index 0, Q_Key 0x0b1b, SL, flow label
 *           and traffic class 0 (the component mask opensm wants to
 *           create a group).  The write waits for the join's callback and
 *           logs "join status N mlid X qkey Q pkey P" (status 0) or
 *           "join status N"; a joined member is kept until "leave".  A
 *           later callback of the member (a port event: -ENETRESET) logs
 *           "mcast event status N".
 *   leave MGID
 *           free the member of MGID (the SA is told when it was the
 *           port's last member) and log "leave ok"; -ENOENT when there is
 *           none.
 *   clear   empty the log
 */

#include <linux/debugfs.h>
#include <linux/inet.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_sa.h>

#define TSA_LOG		16384
#define TSA_CMD_LEN	160
#define TSA_TIMEOUT_MS	1000

static struct ib_sa_client tsa_client;
static DEFINE_SPINLOCK(tsa_lock);	/* the log */
static DEFINE_MUTEX(tsa_cmd_mutex);	/* one command at a time */
static char *tsa_log;
static size_t tsa_log_len;
static struct dentry *tsa_debugfs;

/* A multicast member, from join to leave (on tsa_members). */
struct tsa_member {
	struct list_head	list;
	struct ib_sa_multicast	*mc;
	union ib_gid		mgid;
	struct completion	joined;	/* the first callback came */
	int			status;	/* of the first callback */
	bool			first_done;
};

static LIST_HEAD(tsa_members);	/* under tsa_cmd_mutex */

/* One query: the callback's result, for the command that waits. */
struct tsa_query {
	struct completion	done;
	int			status;
	bool			have_rec;
	struct sa_path_rec	rec;
};

static __printf(1, 2) void tsa_out(const char *fmt, ...)
{
	unsigned long flags;
	va_list args;

	spin_lock_irqsave(&tsa_lock, flags);
	va_start(args, fmt);
	if (tsa_log_len < TSA_LOG - 1)
		tsa_log_len += vscnprintf(tsa_log + tsa_log_len,
					  TSA_LOG - tsa_log_len, fmt, args);
	va_end(args);
	spin_unlock_irqrestore(&tsa_lock, flags);
}

static void tsa_path_done(int status, struct sa_path_rec *rec,
			  unsigned int num_prs, void *context)
{
	struct tsa_query *tq = context;

	tq->status = status;
	if (rec && num_prs) {
		tq->rec = *rec;
		tq->have_rec = true;
	}
	complete(&tq->done);
}

/* Ask for the path; wait for the answer; log it. */
static int tsa_path(struct ib_device *dev, u32 port, const union ib_gid *dgid,
		    unsigned long timeout_ms)
{
	struct sa_path_rec req = { .rec_type = SA_PATH_REC_TYPE_IB };
	struct ib_sa_query *query;
	struct tsa_query *tq;
	u16 pkey;
	int id, ret;

	ret = rdma_query_gid(dev, port, 0, &req.sgid);
	if (ret)
		goto out_log;
	ret = ib_get_cached_pkey(dev, port, 0, &pkey);
	if (ret)
		goto out_log;
	req.dgid = *dgid;
	req.pkey = cpu_to_be16(pkey);
	req.numb_path = 1;

	tq = kzalloc(sizeof(*tq), GFP_KERNEL);
	if (!tq) {
		ret = -ENOMEM;
		goto out_log;
	}
	init_completion(&tq->done);
	id = ib_sa_path_rec_get(&tsa_client, dev, port, &req,
				IB_SA_PATH_REC_DGID | IB_SA_PATH_REC_SGID |
				IB_SA_PATH_REC_NUMB_PATH |
				IB_SA_PATH_REC_PKEY,
				timeout_ms, GFP_KERNEL, tsa_path_done, tq,
				&query);
	if (id < 0) {
		ret = id;
		goto out_free;
	}
	if (wait_for_completion_killable(&tq->done)) {
		/* the callback still comes, soon */
		ib_sa_cancel_query(id, query);
		wait_for_completion(&tq->done);
	}

	if (tq->have_rec)
		tsa_out("path status %d dlid 0x%x slid 0x%x sl %u mtu %u rate %u pkt_life %u\n",
			tq->status, be16_to_cpu(tq->rec.ib.dlid),
			be16_to_cpu(tq->rec.ib.slid), tq->rec.sl, tq->rec.mtu,
			tq->rec.rate, tq->rec.packet_life_time);
	else
		tsa_out("path status %d\n", tq->status);
	kfree(tq);
	return 0;

out_free:
	kfree(tq);
out_log:
	tsa_out("path error %d\n", ret);
	return ret;
}

static int tsa_path_cmd(char **argv, unsigned int argc)
{
	unsigned int timeout_ms = TSA_TIMEOUT_MS;
	struct ib_device *dev;
	union ib_gid dgid;
	u32 port;
	int ret;

	if (kstrtou32(argv[2], 10, &port) ||
	    !in6_pton(argv[3], -1, dgid.raw, -1, NULL) ||
	    (argc == 5 && kstrtouint(argv[4], 10, &timeout_ms)))
		return -EINVAL;
	dev = ib_device_get_by_name(argv[1], RDMA_DRIVER_UNKNOWN);
	if (!dev)
		return -ENODEV;
	if (!rdma_is_port_valid(dev, port))
		ret = -EINVAL;
	else
		ret = tsa_path(dev, port, &dgid, timeout_ms);
	ib_device_put(dev);
	return ret;
}

/*
 * A member's callbacks: the first one ends the join command; later ones
 * (port events) are logged.  Always 0: the member is freed by "leave".
 */
static int tsa_mcast_cb(int status, struct ib_sa_multicast *mc)
{
	struct tsa_member *m = mc->context;

	if (!m->first_done) {
		m->status = status;
		if (!status)
			tsa_out("join status 0 mlid 0x%x qkey 0x%x pkey 0x%x\n",
				be16_to_cpu(mc->rec.mlid),
				be32_to_cpu(mc->rec.qkey),
				be16_to_cpu(mc->rec.pkey));
		else
			tsa_out("join status %d\n", status);
		m->first_done = true;
		complete(&m->joined);
	} else {
		tsa_out("mcast event status %d\n", status);
	}
	return 0;
}

static struct tsa_member *tsa_find_member(const union ib_gid *mgid)
{
	struct tsa_member *m;

	list_for_each_entry(m, &tsa_members, list)
		if (!memcmp(&m->mgid, mgid, sizeof(*mgid)))
			return m;
	return NULL;
}

static void tsa_free_member(struct tsa_member *m)
{
	list_del(&m->list);
	ib_sa_free_multicast(m->mc);
	kfree(m);
}

static int tsa_join(struct ib_device *dev, u32 port, const union ib_gid *mgid)
{
	struct ib_sa_mcmember_rec rec = {};
	struct tsa_member *m;
	u16 pkey;
	int ret;

	if (tsa_find_member(mgid))
		return -EEXIST;
	ret = rdma_query_gid(dev, port, 0, &rec.port_gid);
	if (ret)
		return ret;
	ret = ib_get_cached_pkey(dev, port, 0, &pkey);
	if (ret)
		return ret;
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	m->mgid = *mgid;
	init_completion(&m->joined);
	rec.mgid = *mgid;
	rec.pkey = cpu_to_be16(pkey);
	rec.qkey = cpu_to_be32(0x0b1b);
	rec.join_state = BIT(FULLMEMBER_JOIN);
	m->mc = ib_sa_join_multicast(&tsa_client, dev, port, &rec,
				     IB_SA_MCMEMBER_REC_MGID |
				     IB_SA_MCMEMBER_REC_PORT_GID |
				     IB_SA_MCMEMBER_REC_PKEY |
				     IB_SA_MCMEMBER_REC_QKEY |
				     IB_SA_MCMEMBER_REC_JOIN_STATE |
				     IB_SA_MCMEMBER_REC_SL |
				     IB_SA_MCMEMBER_REC_FLOW_LABEL |
				     IB_SA_MCMEMBER_REC_TRAFFIC_CLASS,
				     GFP_KERNEL, tsa_mcast_cb, m);
	if (IS_ERR(m->mc)) {
		ret = PTR_ERR(m->mc);
		kfree(m);
		tsa_out("join error %d\n", ret);
		return ret;
	}
	list_add_tail(&m->list, &tsa_members);
	wait_for_completion(&m->joined);
	if (m->status)
		tsa_free_member(m);
	return 0;
}

static int tsa_join_cmd(char **argv)
{
	struct ib_device *dev;
	union ib_gid mgid;
	u32 port;
	int ret;

	if (kstrtou32(argv[2], 10, &port) ||
	    !in6_pton(argv[3], -1, mgid.raw, -1, NULL))
		return -EINVAL;
	dev = ib_device_get_by_name(argv[1], RDMA_DRIVER_UNKNOWN);
	if (!dev)
		return -ENODEV;
	if (!rdma_is_port_valid(dev, port))
		ret = -EINVAL;
	else
		ret = tsa_join(dev, port, &mgid);
	ib_device_put(dev);
	return ret;
}

static int tsa_leave_cmd(char **argv)
{
	struct tsa_member *m;
	union ib_gid mgid;

	if (!in6_pton(argv[1], -1, mgid.raw, -1, NULL))
		return -EINVAL;
	m = tsa_find_member(&mgid);
	if (!m)
		return -ENOENT;
	tsa_free_member(m);
	tsa_out("leave ok\n");
	return 0;
}

static int tsa_command(char *buf)
{
	char *argv[6];
	unsigned int argc = 0;
	char *p = strim(buf), *tok;

	while ((tok = strsep(&p, " \t")) && argc < ARRAY_SIZE(argv))
		if (*tok)
			argv[argc++] = tok;
	if (tok || !argc)
		return -EINVAL;

	if (!strcmp(argv[0], "path") && (argc == 4 || argc == 5))
		return tsa_path_cmd(argv, argc);
	if (!strcmp(argv[0], "join") && argc == 4)
		return tsa_join_cmd(argv);
	if (!strcmp(argv[0], "leave") && argc == 2)
		return tsa_leave_cmd(argv);
	if (!strcmp(argv[0], "clear") && argc == 1) {
		spin_lock_irq(&tsa_lock);
		tsa_log_len = 0;
		tsa_log[0] = '\0';
		spin_unlock_irq(&tsa_lock);
		return 0;
	}
	return -EINVAL;
}

static ssize_t tsa_cmd_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char buf[TSA_CMD_LEN];
	int ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	mutex_lock(&tsa_cmd_mutex);
	ret = tsa_command(buf);
	mutex_unlock(&tsa_cmd_mutex);
	return ret ?: count;
}

static const struct file_operations tsa_cmd_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = tsa_cmd_write,
	.llseek = noop_llseek,
};

static ssize_t tsa_log_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	size_t len;
	char *snap;
	ssize_t ret;

	snap = kmalloc(TSA_LOG, GFP_KERNEL);
	if (!snap)
		return -ENOMEM;
	spin_lock_irq(&tsa_lock);
	len = tsa_log_len;
	memcpy(snap, tsa_log, len);
	spin_unlock_irq(&tsa_lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, snap, len);
	kfree(snap);
	return ret;
}

static const struct file_operations tsa_log_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = tsa_log_read,
	.llseek = default_llseek,
};

static int __init tsa_init(void)
{
	tsa_log = kzalloc(TSA_LOG, GFP_KERNEL);
	if (!tsa_log)
		return -ENOMEM;
	ib_sa_register_client(&tsa_client);
	tsa_debugfs = debugfs_create_dir("rdma_test_sa", NULL);
	debugfs_create_file("cmd", 0200, tsa_debugfs, NULL, &tsa_cmd_fops);
	debugfs_create_file("log", 0400, tsa_debugfs, NULL, &tsa_log_fops);
	return 0;
}

static void __exit tsa_exit(void)
{
	struct tsa_member *m, *next;

	/* no command runs once the files are gone */
	debugfs_remove_recursive(tsa_debugfs);
	list_for_each_entry_safe(m, next, &tsa_members, list)
		tsa_free_member(m);
	ib_sa_unregister_client(&tsa_client);
	kfree(tsa_log);
}

module_init(tsa_init);
module_exit(tsa_exit);

MODULE_DESCRIPTION("RDMA test ULP: SA path record queries and multicast joins from debugfs");
MODULE_LICENSE("Dual BSD/GPL");
