// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_iwpm_user: uses the port-mapper client the way an iWARP driver's
 * connection manager does (client RDMA_NL_IWCM), driven from a shell.
 *
 * Write one command to /sys/kernel/debug/iwpm_user/cmd, then read the
 * outcome from /sys/kernel/debug/iwpm_user/result:
 *
 *   register DEV IFNAME          iwpm_register_pid()
 *   add IP PORT [FLAGS]          iwpm_add_mapping() + iwpm_create_mapinfo()
 *   query IP PORT RIP RPORT [FLAGS]
 *                                iwpm_add_and_query_mapping() + mapinfo
 *   remove IP PORT               iwpm_remove_mapinfo() + iwpm_remove_mapping()
 *   remote MIP MPORT MRIP MRPORT iwpm_get_remote_info()
 *
 * result is one line of key=value pairs: "ret=0 mapped=192.0.2.1:40212
 * us=812" (IPv6 addresses in brackets).  Mappings still held at unload
 * are removed.
 */
#include <linux/debugfs.h>
#include <linux/inet.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/net_namespace.h>
#include <rdma/iw_portmap.h>
#include <rdma/rdma_netlink.h>

#define IWPM_USER_MAPPINGS	64
#define IWPM_USER_ARGS		6

struct iwpm_user_mapping {
	bool used;
	struct sockaddr_storage local;
	struct sockaddr_storage mapped;
};

/* Serialises commands; protects iwpm_user_maps and iwpm_user_result. */
static DEFINE_MUTEX(iwpm_user_lock);
static struct iwpm_user_mapping iwpm_user_maps[IWPM_USER_MAPPINGS];
static char iwpm_user_result[256];
static struct dentry *iwpm_user_dir;

static int iwpm_user_addr(const char *ip, const char *port,
			  struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	return inet_pton_with_scope(&init_net, AF_UNSPEC, ip, port, ss);
}

static struct iwpm_user_mapping *iwpm_user_find(struct sockaddr_storage *l)
{
	int i;

	for (i = 0; i < IWPM_USER_MAPPINGS; i++) {
		struct sockaddr_storage *m = &iwpm_user_maps[i].local;

		if (iwpm_user_maps[i].used && m->ss_family == l->ss_family &&
		    !memcmp(m, l, l->ss_family == AF_INET ?
			    sizeof(struct sockaddr_in) :
			    sizeof(struct sockaddr_in6)))
			return &iwpm_user_maps[i];
	}
	return NULL;
}

/* Record a mapping as iw_cm does after asking the port mapper. */
static int iwpm_user_keep(struct iwpm_sa_data *sa)
{
	struct iwpm_user_mapping *slot = iwpm_user_find(&sa->loc_addr);
	int i, ret;

	if (slot)
		return -EEXIST;
	for (i = 0; i < IWPM_USER_MAPPINGS && !slot; i++)
		if (!iwpm_user_maps[i].used)
			slot = &iwpm_user_maps[i];
	if (!slot)
		return -ENOSPC;
	ret = iwpm_create_mapinfo(&sa->loc_addr, &sa->mapped_loc_addr,
				  RDMA_NL_IWCM, sa->flags);
	if (ret)
		return ret;
	slot->used = true;
	slot->local = sa->loc_addr;
	slot->mapped = sa->mapped_loc_addr;
	return 0;
}

static void iwpm_user_drop(struct iwpm_user_mapping *m)
{
	iwpm_remove_mapinfo(&m->local, &m->mapped);
	iwpm_remove_mapping(&m->local, RDMA_NL_IWCM);
	m->used = false;
}

static int iwpm_user_flags(int argc, char **argv, int at, u32 *flags)
{
	*flags = 0;
	return argc > at ? kstrtou32(argv[at], 0, flags) : 0;
}

static int iwpm_user_run(int argc, char **argv)
{
	char *res = iwpm_user_result;
	const size_t len = sizeof(iwpm_user_result);
	struct iwpm_dev_data dev = {};
	struct iwpm_user_mapping *m;
	struct sockaddr_storage a, b;
	struct iwpm_sa_data *sa;
	ktime_t start;
	int ret;

	if (!strcmp(argv[0], "register") && argc == 3) {
		strscpy(dev.dev_name, argv[1], sizeof(dev.dev_name));
		strscpy(dev.if_name, argv[2], sizeof(dev.if_name));
		start = ktime_get();
		ret = iwpm_register_pid(&dev, RDMA_NL_IWCM);
		snprintf(res, len, "ret=%d port_mapper=%d us=%lld\n", ret,
			 iwpm_valid_pid(),
			 ktime_us_delta(ktime_get(), start));
		return 0;
	}
	if (!strcmp(argv[0], "remove") && argc == 3) {
		if (iwpm_user_addr(argv[1], argv[2], &a))
			return -EINVAL;
		m = iwpm_user_find(&a);
		if (!m) {
			snprintf(res, len, "ret=%d\n", -ENOENT);
			return 0;
		}
		iwpm_user_drop(m);
		snprintf(res, len, "ret=0\n");
		return 0;
	}
	if (!strcmp(argv[0], "remote") && argc == 5) {
		if (iwpm_user_addr(argv[1], argv[2], &a) ||
		    iwpm_user_addr(argv[3], argv[4], &b))
			return -EINVAL;
		ret = iwpm_get_remote_info(&a, &b, &b, RDMA_NL_IWCM);
		if (ret)
			snprintf(res, len, "ret=%d\n", ret);
		else
			snprintf(res, len, "ret=0 remote=%pISpc\n", &b);
		return 0;
	}

	sa = kzalloc(sizeof(*sa), GFP_KERNEL);
	if (!sa)
		return -ENOMEM;
	ret = -EINVAL;
	if (!strcmp(argv[0], "add") && (argc == 3 || argc == 4)) {
		if (iwpm_user_addr(argv[1], argv[2], &sa->loc_addr) ||
		    iwpm_user_flags(argc, argv, 3, &sa->flags))
			goto out;
		start = ktime_get();
		ret = iwpm_add_mapping(sa, RDMA_NL_IWCM);
		snprintf(res, len, "ret=%d mapped=%pISpc us=%lld keep=%d\n",
			 ret, &sa->mapped_loc_addr,
			 ktime_us_delta(ktime_get(), start),
			 iwpm_user_keep(sa));
		ret = 0;
	} else if (!strcmp(argv[0], "query") && (argc == 5 || argc == 6)) {
		if (iwpm_user_addr(argv[1], argv[2], &sa->loc_addr) ||
		    iwpm_user_addr(argv[3], argv[4], &sa->rem_addr) ||
		    iwpm_user_flags(argc, argv, 5, &sa->flags))
			goto out;
		start = ktime_get();
		ret = iwpm_add_and_query_mapping(sa, RDMA_NL_IWCM);
		snprintf(res, len,
			 "ret=%d mapped=%pISpc mapped_rem=%pISpc us=%lld keep=%d\n",
			 ret, &sa->mapped_loc_addr, &sa->mapped_rem_addr,
			 ktime_us_delta(ktime_get(), start),
			 iwpm_user_keep(sa));
		ret = 0;
	}
out:
	kfree(sa);
	return ret;
}

static ssize_t iwpm_user_cmd_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	char *argv[IWPM_USER_ARGS];
	char *buf, *p, *tok;
	int argc = 0, ret;

	if (count == 0 || count > 256)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	p = strim(buf);
	while ((tok = strsep(&p, " \t")) != NULL) {
		if (!*tok)
			continue;
		if (argc == IWPM_USER_ARGS) {
			ret = -E2BIG;
			goto out;
		}
		argv[argc++] = tok;
	}
	ret = -EINVAL;
	if (!argc)
		goto out;
	mutex_lock(&iwpm_user_lock);
	ret = iwpm_user_run(argc, argv);
	mutex_unlock(&iwpm_user_lock);
out:
	kfree(buf);
	return ret ? ret : count;
}

static const struct file_operations iwpm_user_cmd_fops = {
	.owner = THIS_MODULE,
	.write = iwpm_user_cmd_write,
	.llseek = noop_llseek,
};

static ssize_t iwpm_user_result_read(struct file *file, char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	char copy[sizeof(iwpm_user_result)];

	mutex_lock(&iwpm_user_lock);
	memcpy(copy, iwpm_user_result, sizeof(copy));
	mutex_unlock(&iwpm_user_lock);
	return simple_read_from_buffer(ubuf, count, ppos, copy,
				       strnlen(copy, sizeof(copy)));
}

static const struct file_operations iwpm_user_result_fops = {
	.owner = THIS_MODULE,
	.read = iwpm_user_result_read,
	.llseek = default_llseek,
};

static int __init iwpm_user_init(void)
{
	iwpm_user_dir = debugfs_create_dir("iwpm_user", NULL);
	debugfs_create_file("cmd", 0200, iwpm_user_dir, NULL,
			    &iwpm_user_cmd_fops);
	debugfs_create_file("result", 0400, iwpm_user_dir, NULL,
			    &iwpm_user_result_fops);
	return 0;
}

static void __exit iwpm_user_exit(void)
{
	int i;

	debugfs_remove_recursive(iwpm_user_dir);
	for (i = 0; i < IWPM_USER_MAPPINGS; i++)
		if (iwpm_user_maps[i].used)
			iwpm_user_drop(&iwpm_user_maps[i]);
}

module_init(iwpm_user_init);
module_exit(iwpm_user_exit);
MODULE_DESCRIPTION("Test user of the iWARP port-mapper client");
MODULE_LICENSE("Dual BSD/GPL");
