/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the one-file test tools (tools/testing/rdma/<tool>/<tool>.c,
 * built by static-tool.mk) share: KTAP case lines and a sysfs read.
 * A tool includes it as "../tool_ktap.h" and prints "1..N" itself.
 */
#ifndef RDMA_TOOL_KTAP_H
#define RDMA_TOOL_KTAP_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* cases run and cases failed so far */
static int case_num, failed;

/* One case: "ok N NAME", or a diagnostic (@fmt) and "not ok N NAME". */
static inline void result(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	case_num++;
	if (!ok) {
		failed++;
		printf("# %s: ", name);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
	}
	printf("%sok %d %s\n", ok ? "" : "not ", case_num, name);
	fflush(stdout);
}

/* errno check: @rc must be -1 with errno @want */
static inline void expect_err(const char *name, long rc, int want)
{
	int err = errno;

	result(rc == -1 && err == want, name, "got %ld (%s), want %s", rc,
	       rc == -1 ? strerror(err) : "success", strerror(want));
}

/* The first line of the file at @path, without its newline; 0 or -1. */
static inline int read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (!fgets(buf, len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

#endif /* RDMA_TOOL_KTAP_H */
