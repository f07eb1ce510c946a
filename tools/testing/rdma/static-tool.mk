# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The build of a one-file user-space test tool for the test VM
# (tools/testing/rdma/*/Makefile, which vm-run.sh builds into the
# initramfs): PROG.c of the including folder, linked statically so that
# it runs there without libraries, against the repository's own uapi
# headers (uapi/rdma).
#
# The including Makefile sets PROG and SRC (its folder), then includes
# this file; "make [O=DIR]" builds DIR/PROG (default: SRC).
REPO := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/../../..)
O ?= $(SRC)

CC ?= gcc
CFLAGS ?= -O2 -g
CFLAGS += -Wall -Wextra -Werror -Wno-unused-parameter -std=gnu11 \
	  -D_GNU_SOURCE -I$(REPO)/uapi
LDFLAGS += -static

$(O)/$(PROG): $(SRC)/$(PROG).c $(wildcard $(REPO)/uapi/rdma/*.h) \
	   $(REPO)/tools/testing/rdma/tool_ktap.h
	@mkdir -p $(O)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(SRC)/$(PROG).c

clean:
	rm -f $(O)/$(PROG)

.PHONY: clean
