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
 * file leaves the file answering -EIO until it is closed.  mmap() of a
 * fake HCA's "device memory" (rdma_user_mmap_io()): the mapping and its
 * pieces are recorded on the file, disassociation (the device removed,
 * or rdma_user_mmap_disassociate()) zaps them, a touch then reads and
 * writes one zeroed page, never the device's, and a private mapping is
 * refused.  The commands end to end are uverbstest's (scenario
 * 80-uverbs).
 */
#include <kunit/test.h>
#include <kunit/rdma_fake_hca.h>
#include <kunit/rdma_loop.h>
#include <kunit/rdma_nldev.h>
#include <linux/fdtable.h>
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/mm.h>
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

/* The mappings recorded on @f's file (rdma_umap_priv), counted. */
static size_t ku_umaps(struct file *f)
{
	struct ib_uverbs_file *file = f->private_data;
	size_t n;

	mutex_lock(&file->umap_lock);
	n = list_count_nodes(&file->umaps);
	mutex_unlock(&file->umap_lock);
	return n;
}

/* Byte @off of user address @ubuf, or -1 when it cannot be read. */
static int ku_byte(unsigned long ubuf, unsigned long off)
{
	u8 b;

	if (copy_from_user(&b, (void __user *)(ubuf + off), 1))
		return -1;
	return b;
}

/*
 * A uverbsN of a fake HCA with user_mmap, opened, with a context
 * (GET_CONTEXT through write(), its async fd closed); @ubuf gets a page
 * of anonymous user memory, which also gives the test's thread its mm.
 */
static struct file *ku_umap_file(struct kunit *test, struct fake_hca **hcap,
				 unsigned long *ubuf)
{
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 1);
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_get_context cmd;
	} gc = {};
	struct ib_uverbs_get_context_resp resp;
	struct kt_chardev cd = {};
	struct fake_hca *hca;
	char path[64];
	struct file *f;

	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = "kuuvmap%d";
	desc->user_mmap = true;
	hca = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hca);
	ku_uverbs(test, &hca->ibdev, &cd);
	*ubuf = kunit_vm_mmap(test, NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
			      MAP_ANONYMOUS | MAP_PRIVATE, 0);
	KUNIT_ASSERT_NE(test, *ubuf, 0UL);
	snprintf(path, sizeof(path), "/dev/infiniband/%s", cd.name);
	f = filp_open(path, O_RDWR, 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(f), "%s: %d", path,
			       PTR_ERR_OR_ZERO(f));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ku_fput, f), 0);
	gc.hdr.command = IB_USER_VERBS_CMD_GET_CONTEXT;
	gc.hdr.in_words = sizeof(gc) / 4;
	gc.hdr.out_words = sizeof(struct ib_uverbs_get_context_resp) / 4;
	gc.cmd.response = *ubuf + PAGE_SIZE / 2;
	ku_put(test, *ubuf, &gc, sizeof(gc));
	KUNIT_ASSERT_EQ(test, ku_write(f, *ubuf, sizeof(gc)), sizeof(gc));
	/* the async fd went into this thread's table: close it */
	KUNIT_ASSERT_EQ(test, copy_from_user(&resp,
					     u64_to_user_ptr(gc.cmd.response),
					     sizeof(resp)), 0);
	KUNIT_EXPECT_EQ(test, close_fd(resp.async_fd), 0);
	*hcap = hca;
	return f;
}

/*
 * mmap() of @f at page offset 0: its address, or an errno as
 * IS_ERR_VALUE().  Not unmapped by the test: the cleanup runs in another
 * thread, and the test's thread takes its mm, mappings and all, when it
 * ends.
 */
static unsigned long ku_map(struct file *f, unsigned long flags)
{
	return vm_mmap(f, 0, FAKE_HCA_UMAP_PAGES * PAGE_SIZE,
		       PROT_READ | PROT_WRITE, flags, 0);
}

/*
 * The device goes under a mapping of its memory, split in two pieces
 * by an munmap() of its middle page: both pieces are recorded, the
 * removal zaps them (the records leave the list, so the driver's entry
 * can go with its context), and a touch afterwards reads zeroes and
 * writes a page of the file's own that both pieces share.
 */
static void uverbs_main_umap_removed(struct kunit *test)
{
	const unsigned long pg = PAGE_SIZE;
	struct fake_hca *hca;
	unsigned long ubuf, map;
	struct file *f;

	BUILD_BUG_ON(FAKE_HCA_UMAP_PAGES != 3);
	f = ku_umap_file(test, &hca, &ubuf);
	map = ku_map(f, MAP_SHARED);
	KUNIT_ASSERT_FALSE(test, IS_ERR_VALUE(map));
	KUNIT_EXPECT_EQ(test, ku_byte(map, 0), FAKE_HCA_UMAP_BYTE);
	KUNIT_EXPECT_EQ(test, ku_byte(map, 3 * pg - 1), FAKE_HCA_UMAP_BYTE);
	KUNIT_EXPECT_EQ(test, ku_umaps(f), 1);
	/* the middle page goes: two pieces, each recorded */
	KUNIT_ASSERT_EQ(test, vm_munmap(map + pg, pg), 0);
	KUNIT_EXPECT_EQ(test, ku_umaps(f), 2);
	KUNIT_EXPECT_EQ(test, ku_byte(map + 2 * pg, 0), FAKE_HCA_UMAP_BYTE);

	fake_hca_kunit_destroy(test, hca);
	KUNIT_EXPECT_EQ(test, ku_umaps(f), 0);
	KUNIT_EXPECT_EQ(test, ku_byte(map, 0), 0);
	KUNIT_EXPECT_EQ(test, ku_byte(map + 2 * pg, pg - 1), 0);
	KUNIT_EXPECT_EQ(test, put_user((u8)0x5a, (u8 __user *)map), 0);
	KUNIT_EXPECT_EQ(test, ku_byte(map, 0), 0x5a);
	/* the other piece faults in the same page */
	KUNIT_EXPECT_EQ(test, ku_byte(map + 2 * pg, 0), 0x5a);
	/* the middle stays unmapped */
	KUNIT_EXPECT_EQ(test, ku_byte(map + pg, 0), -1);
}

/*
 * rdma_user_mmap_disassociate() on a registered device: the mapping is
 * zapped (zeroes, and a write there stays out of the device's memory),
 * a new mapping gets the device's memory again; a private mapping of it
 * is refused.
 */
static void uverbs_main_umap_revoked(struct kunit *test)
{
	struct fake_hca *hca;
	unsigned long ubuf, map, again;
	struct file *f;

	f = ku_umap_file(test, &hca, &ubuf);
	KUNIT_EXPECT_EQ(test, ku_map(f, MAP_PRIVATE),
			(unsigned long)-EINVAL);
	KUNIT_EXPECT_EQ(test, ku_umaps(f), 0);
	map = ku_map(f, MAP_SHARED);
	KUNIT_ASSERT_FALSE(test, IS_ERR_VALUE(map));
	KUNIT_EXPECT_EQ(test, ku_byte(map, 0), FAKE_HCA_UMAP_BYTE);

	rdma_user_mmap_disassociate(&hca->ibdev);
	KUNIT_EXPECT_EQ(test, ku_umaps(f), 0);
	KUNIT_EXPECT_EQ(test, ku_byte(map, 0), 0);
	KUNIT_EXPECT_EQ(test, put_user((u8)0x5a, (u8 __user *)map), 0);

	again = ku_map(f, MAP_SHARED);
	KUNIT_ASSERT_FALSE(test, IS_ERR_VALUE(again));
	KUNIT_EXPECT_EQ(test, ku_umaps(f), 1);
	KUNIT_EXPECT_EQ(test, ku_byte(again, 0), FAKE_HCA_UMAP_BYTE);
	KUNIT_EXPECT_EQ(test, ku_byte(map, 0), 0x5a);
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
	KUNIT_CASE(uverbs_main_umap_removed),
	KUNIT_CASE(uverbs_main_umap_revoked),
	{}
};

static struct kunit_suite rdma_uverbs_main_suite = {
	.name = "rdma_uverbs_main",
	.test_cases = rdma_uverbs_main_cases,
};

kunit_test_suite(rdma_uverbs_main_suite);

MODULE_DESCRIPTION("KUnit tests of ib_uverbs's devices and files");
MODULE_LICENSE("Dual BSD/GPL");
