# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Out-of-tree build of the RDMA stack.
#
#   make                 build every module against KDIR (default: the test kernel)
#   make KDIR=/path      build against any configured Linux 6.12 tree
#   make run             boot the demo VM (builds the test kernel first if needed)
#   make check           build + sparse + checkpatch + the VM test run
#   make bench-iwpm      port-mapper round-trip benchmark in the VM (not a test)
#   make bench-verbs     verbs latency/rate/bandwidth/CPU benchmark in the VM (not a test)
#   make clean
TESTBED := $(CURDIR)/tools/testing/rdma

ifeq ($(origin KDIR),undefined)
KDIR := $(shell $(TESTBED)/prepare-kernel.sh --kdir)
OWN_KERNEL := 1
endif
export KDIR

KBUILD_ARGS := -C $(KDIR) M=$(CURDIR)

.PHONY: all modules kernel check run clean sparse checkpatch vm-test bench-iwpm \
	bench-verbs

all: modules

kernel:
ifeq ($(OWN_KERNEL),1)
	@$(TESTBED)/prepare-kernel.sh >/dev/null
endif

modules: kernel
	$(MAKE) $(KBUILD_ARGS) modules

sparse: kernel
	$(TESTBED)/static-check.sh sparse

checkpatch: kernel
	$(TESTBED)/static-check.sh checkpatch

run: modules
	$(TESTBED)/vm-run.sh demo

check: kernel
	$(TESTBED)/check.sh

# Cycles to time: make bench-iwpm IWPM_BENCH_COUNT=5000
IWPM_BENCH_COUNT ?= 2000
bench-iwpm: kernel
	$(TESTBED)/bench/run-iwpm-bench.sh $(IWPM_BENCH_COUNT)

# Iterations: make bench-verbs VERBS_BENCH_ARGS="LAT RATE CPU DEPTH"
VERBS_BENCH_ARGS ?=
bench-verbs: kernel
	$(TESTBED)/bench/run-verbs-bench.sh $(VERBS_BENCH_ARGS)

clean:
	$(MAKE) $(KBUILD_ARGS) clean
	rm -rf $(CURDIR)/.testbed
