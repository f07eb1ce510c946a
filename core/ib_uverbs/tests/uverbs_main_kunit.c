// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_uverbs_main": ib_uverbs's devices
 * (core/ib_uverbs/uverbs_main.c) and its files' write() headers
 * (core/ib_uverbs/uverbs_file.c).  A loop device (rdmavt: alloc_ucontext,
 * user ABI 2) gets uverbsN: nldev's GET_CHARDEV "uverbs" names it with
 * the driver id, class infiniband_verbs shows it; a device without
 * alloc_ucontext gets none.  The file is opened and written from "user
 * space" (kunit_vm_mmap()): bad headers are refused, a command that
 * needs a context has none, and a device unregistered under an open
 * file leaves the file answering -EIO until it is closed.  The commands
 * end to end are uverbstest's (scenario 80-uverbs).
 */
#include <kunit/test.h>
#include <kunit/rdma_fake_hca.h>
#include <kunit/rdma_loop.h>
#include <kunit/rdma_nldev.h>
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/mman.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_vt.h>
#include <uapi/rdma/ib_user_verbs.h>

#include "../uverbs_priv.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* The uverbsN of @dev (GET_CHARDEV), checked against sysfs. */
static void ku_uverbs(struct kunit *test, struct ib_device *dev,
		      struct kt_chardev *cd)
{
	struct kt_nlc *c = kt_nlc_open(test);
	char path[96], buf[64], want[32];
	dev_t devt;
	int n;

	KUNIT_ASSERT_EQ(test, kt_chardev(c, dev->index, 0, "uverbs", cd), 0);
	KUNIT_ASSERT_EQ(test, strncmp(cd->name, "uverbs", 6), 0);
	KUNIT_ASSERT_EQ(test, kstrtoint(cd->name + 6, 10, &n), 0);
	devt = huge_decode_dev(cd->devt);
	snprintf(path, sizeof(path), "/sys/class/infiniband_verbs/%s/ibdev",
		 cd->name);
	kt_sysfs_read(test, path, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, dev_name(&dev->dev));
	snprintf(path, sizeof(path),
		 "/sys/class/infiniband_verbs/%s/abi_version", cd->name);
	kt_sysfs_read(test, path, buf, sizeof(buf));
	snprintf(want, sizeof(want), "%llu", cd->abi);
	KUNIT_EXPECT_STREQ(test, buf, want);
	snprintf(path, sizeof(path), "/sys/class/infiniband_verbs/%s/dev",
		 cd->name);
	kt_sysfs_read(test, path, buf, sizeof(buf));
	snprintf(want, sizeof(want), "%u:%u", MAJOR(devt), MINOR(devt));
	KUNIT_EXPECT_STREQ(test, buf, want);
	/* uverbs0..31 have the fixed numbers 231:192..223 */
	if (n < UVERBS_NUM_FIXED_MINOR)
		KUNIT_EXPECT_EQ(test, devt,
				MKDEV(UVERBS_MAJOR, UVERBS_BASE_MINOR + n));
}

/* A loop device's uverbsN: rdmavt's ABI, the driver id, the class. */
static void uverbs_main_chardev(struct kunit *test)
{
	struct kt_vt *a = kt_new_vt_named(test, "kuuv%d");
	struct kt_vt *b = kt_new_vt_named(test, "kuuv%d");
	struct kt_chardev ca = {}, cb = {};
	struct kt_nlc *c = kt_nlc_open(test);
	char buf[16];

	ku_uverbs(test, a->dev, &ca);
	ku_uverbs(test, b->dev, &cb);
	KUNIT_EXPECT_STRNEQ(test, ca.name, cb.name);
	KUNIT_EXPECT_NE(test, ca.devt, cb.devt);
	KUNIT_EXPECT_EQ(test, ca.abi, (u64)RVT_UVERBS_ABI_VERSION);
	KUNIT_EXPECT_EQ(test, ca.driver_id, (u32)a->dev->ops.driver_id);
	kt_sysfs_read(test, "/sys/class/infiniband_verbs/abi_version", buf,
		      sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "6");
	/* uverbsN is the device's: a port is refused */
	KUNIT_EXPECT_EQ(test, kt_chardev(c, a->dev->index, 1, "uverbs", &cb),
			-EINVAL);
}

/* A device whose driver cannot make user contexts has no uverbsN. */
static void uverbs_main_no_ucontext(struct kunit *test)
{
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 1);
	struct kt_nlc *c = kt_nlc_open(test);
	struct kt_chardev cd = {};
	struct fake_hca *hca;

	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = "kuuvfake%d";
	hca = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hca);
	KUNIT_ASSERT_NULL(test, hca->ibdev.ops.alloc_ucontext);
	KUNIT_EXPECT_EQ(test, kt_chardev(c, hca->ibdev.index, 0, "uverbs",
					 &cd), -EOPNOTSUPP);
}

/*
 * write() of @len bytes at user address @ubuf to @f, straight to the
 * file's op (vfs_write() is not exported to modules).
 */
static ssize_t ku_write(struct file *f, unsigned long ubuf, size_t len)
{
	loff_t pos = 0;

	return f->f_op->write(f, (const char __user *)ubuf, len, &pos);
}

/* Put @len bytes of @src at user address @ubuf. */
static void ku_put(struct kunit *test, unsigned long ubuf, const void *src,
		   size_t len)
{
	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)ubuf, src, len), 0);
}

static void ku_fput(void *f)
{
	fput(f);
}

/*
 * Headers refused before any command runs, then the device goes while
 * the file is open: -EIO, and the close that follows is clean.
 */
static void uverbs_main_write(struct kunit *test)
{
	struct ib_device *dev = rdma_loop_add_device("kuuvw%d");
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_ex_cmd_hdr ex;
		u64 words[2];
	} cmd = {};
	struct kt_chardev cd = {};
	unsigned long ubuf;
	char path[64];
	struct file *f;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_remove_loop,
							dev), 0);
	ku_uverbs(test, dev, &cd);
	ubuf = kunit_vm_mmap(test, NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
			     MAP_ANONYMOUS | MAP_PRIVATE, 0);
	KUNIT_ASSERT_NE(test, ubuf, 0UL);
	snprintf(path, sizeof(path), "/dev/infiniband/%s", cd.name);
	f = filp_open(path, O_RDWR, 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(f), "%s: %d", path,
			       PTR_ERR_OR_ZERO(f));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ku_fput, f), 0);

	/* shorter than a header */
	KUNIT_EXPECT_EQ(test, ku_write(f, ubuf, 4), -EINVAL);
	/* bits outside the command and the extended flag */
	cmd.hdr.command = 0x100 | IB_USER_VERBS_CMD_QUERY_DEVICE;
	cmd.hdr.in_words = 2;
	ku_put(test, ubuf, &cmd, sizeof(cmd));
	KUNIT_EXPECT_EQ(test, ku_write(f, ubuf, 8), -EINVAL);
	/* in_words says 16 bytes, 8 are written */
	cmd.hdr.command = IB_USER_VERBS_CMD_QUERY_DEVICE;
	cmd.hdr.in_words = 4;
	ku_put(test, ubuf, &cmd, sizeof(cmd));
	KUNIT_EXPECT_EQ(test, ku_write(f, ubuf, 8), -EINVAL);
	/*
	 * extended, well-formed, not served: refused before its sizes are
	 * looked at, as upstream (uverbs_main_hdr_sizes checks the rules)
	 */
	cmd.hdr.command = IB_USER_VERBS_CMD_FLAG_EXTENDED |
			  IB_USER_VERBS_EX_CMD_CREATE_WQ;
	cmd.hdr.in_words = 1;
	cmd.ex.cmd_hdr_reserved = 1;
	ku_put(test, ubuf, &cmd, sizeof(cmd));
	KUNIT_EXPECT_EQ(test, ku_write(f, ubuf, sizeof(cmd) - 8),
			-EOPNOTSUPP);

	/* a served command before GET_CONTEXT made a context */
	memset(&cmd, 0, sizeof(cmd));
	cmd.hdr.command = IB_USER_VERBS_CMD_QUERY_DEVICE;
	cmd.hdr.in_words = 4;
	cmd.hdr.out_words = sizeof(struct ib_uverbs_query_device_resp) / 4;
	/* the request's response address: the mapping's second half */
	memcpy(&cmd.ex, &(u64){ ubuf + PAGE_SIZE / 2 }, sizeof(u64));
	ku_put(test, ubuf, &cmd, sizeof(cmd));
	KUNIT_EXPECT_EQ(test, ku_write(f, ubuf, 16), -EINVAL);

	/* the device goes; the file stays open and answers -EIO */
	kunit_release_action(test, kt_remove_loop, dev);
	KUNIT_EXPECT_EQ(test, ku_write(f, ubuf, 16), -EIO);
	/* and no new open finds it */
	KUNIT_EXPECT_TRUE(test, IS_ERR(filp_open(path, O_RDWR, 0)));
}

/* The sizes a header states against the bytes written, each rule. */
static void uverbs_main_hdr_sizes(struct kunit *test)
{
	struct ib_uverbs_cmd_hdr hdr = { .in_words = 6, .out_words = 2 };
	struct ib_uverbs_ex_cmd_hdr ex = {};
	const size_t ex_base = sizeof(hdr) + sizeof(ex);

	/* legacy: in_words counts 4-byte words, the header's included */
	KUNIT_EXPECT_EQ(test, uverbs_check_hdr(&hdr, NULL, 24), 0);
	KUNIT_EXPECT_EQ(test, uverbs_check_hdr(&hdr, NULL, 20), -EINVAL);
	KUNIT_EXPECT_EQ(test, uverbs_check_hdr(&hdr, NULL, 28), -EINVAL);
	/* extended: 8-byte words after both headers, provider words too */
	hdr.in_words = 2;
	hdr.out_words = 0;
	ex.provider_in_words = 1;
	KUNIT_EXPECT_EQ(test, uverbs_check_hdr(&hdr, &ex, ex_base + 24), 0);
	KUNIT_EXPECT_EQ(test, uverbs_check_hdr(&hdr, &ex, ex_base + 16),
			-EINVAL);
	/* output without a response address */
	ex.provider_out_words = 1;
	KUNIT_EXPECT_EQ(test, uverbs_check_hdr(&hdr, &ex, ex_base + 24),
			-EINVAL);
	ex.response = 0x1000;
	KUNIT_EXPECT_EQ(test, uverbs_check_hdr(&hdr, &ex, ex_base + 24), 0);
	/* reserved bits */
	ex.cmd_hdr_reserved = 1;
	KUNIT_EXPECT_EQ(test, uverbs_check_hdr(&hdr, &ex, ex_base + 24),
			-EINVAL);
}

static struct kunit_case rdma_uverbs_main_cases[] = {
	KUNIT_CASE(uverbs_main_hdr_sizes),
	KUNIT_CASE(uverbs_main_chardev),
	KUNIT_CASE(uverbs_main_no_ucontext),
	KUNIT_CASE(uverbs_main_write),
	{}
};

static struct kunit_suite rdma_uverbs_main_suite = {
	.name = "rdma_uverbs_main",
	.test_cases = rdma_uverbs_main_cases,
};

kunit_test_suite(rdma_uverbs_main_suite);

MODULE_DESCRIPTION("KUnit tests of ib_uverbs's devices and files");
MODULE_LICENSE("Dual BSD/GPL");
