# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Out-of-tree build of the RDMA stack.
#
#   make                 build every module against KDIR (default: the test kernel)
#   make KDIR=/path      build against any configured Linux 6.12 tree, e.g.
#                        make KDIR=/lib/modules/$(uname -r)/build
#   make run             boot the demo VM (builds the test kernel first if needed)
#   make check           build + static checks + the VM test run, every
#                        scenario and KUnit suite in its quick form
#   make check-full      the same at full strength (RDMA_TIER=full)
#   make bench-iwpm      port-mapper round-trip benchmark in the VM (not a test)
#   make bench-verbs     verbs latency/rate/bandwidth/CPU benchmark in the VM (not a test)
#   make bench-compare   our stack beside upstream's (rxe, siw) and kernel TCP on
#                        the measurement kernel, one boot, one table (not a test)
#   make bench-compare-wire  the same across the wire between two guests
#   make bench-nvmf      NVMe over Fabrics with fio across the wire: our
#                        stack, upstream's and NVMe/TCP (BENCH_NVMF_ARGS=
#                        "ROUNDS SECONDS")
#   make durations       merge the last check run's measured durations into
#                        the tier's file (the guests' split and the budget)
#   make run-distro      the demo on Debian's own 6.12 kernel (not part of check)
#   make doc-check       the documentation check of make check alone (no kernel)
#   make clean
TESTBED := $(CURDIR)/tools/testing/rdma

# Every target that needs a kernel tree.
KERNEL_TARGETS := all modules run check check-full sparse checkpatch kerneldoc bench-iwpm bench-verbs

.PHONY: $(KERNEL_TARGETS) clean durations run-distro bench-compare bench-compare-wire bench-nvmf doc-check

ifeq ($(origin KDIR),undefined)

# No KDIR given: the debug test kernel.  Where it lives is known only once
# prepare-kernel.sh has installed Debian's source package and built it
# (the cache key holds the package's version), so it is never computed
# while make reads this file: each target runs the script, which prints
# the folder it built the kernel in, and make runs again with that KDIR.
$(KERNEL_TARGETS):
	+@kdir=$$($(TESTBED)/prepare-kernel.sh) && \
		$(MAKE) --no-print-directory KDIR="$$kdir" $@

clean:
	+@kdir=$$($(TESTBED)/prepare-kernel.sh --kdir 2>/dev/null); \
	if [ -f "$$kdir/Makefile" ]; then \
		$(MAKE) --no-print-directory KDIR="$$kdir" $@; \
	else \
		rm -rf $(CURDIR)/.testbed; \
	fi

else

export KDIR
KBUILD_ARGS := -C $(KDIR) M=$(CURDIR)

all: modules

modules:
	$(MAKE) $(KBUILD_ARGS) modules

sparse:
	$(TESTBED)/static-check.sh sparse

checkpatch:
	$(TESTBED)/static-check.sh checkpatch

kerneldoc:
	$(TESTBED)/static-check.sh kerneldoc

run: modules
	$(TESTBED)/vm-run.sh demo

check:
	RDMA_TIER=$${RDMA_TIER:-quick} $(TESTBED)/check.sh

check-full:
	RDMA_TIER=full $(TESTBED)/check.sh

# Cycles to time: make bench-iwpm IWPM_BENCH_COUNT=5000
IWPM_BENCH_COUNT ?= 2000
bench-iwpm:
	$(TESTBED)/bench/run-iwpm-bench.sh $(IWPM_BENCH_COUNT)

# Iterations: make bench-verbs VERBS_BENCH_ARGS="LAT RATE CPU DEPTH"
VERBS_BENCH_ARGS ?=
bench-verbs:
	$(TESTBED)/bench/run-verbs-bench.sh $(VERBS_BENCH_ARGS)

clean:
	$(MAKE) $(KBUILD_ARGS) clean
	rm -rf $(CURDIR)/.testbed

endif

# The measurement kernel, not KDIR: run-bench-compare.sh builds what it
# needs.  Rounds and iterations: make bench-compare BENCH_COMPARE_ARGS="ROUNDS
# [LAT RATE CPU DEPTH]"
BENCH_COMPARE_ARGS ?=
bench-compare:
	$(TESTBED)/bench/run-bench-compare.sh $(BENCH_COMPARE_ARGS)

bench-compare-wire:
	$(TESTBED)/bench/run-bench-compare.sh --wire $(BENCH_COMPARE_ARGS)

bench-nvmf:
	$(TESTBED)/bench/run-bench-compare.sh --nvmf $(BENCH_NVMF_ARGS)

# The durations of the last check run (.testbed/durations) merged into
# the file of its tier (durations for make check, durations-full for
# make check-full): the split between the guests and the budget check
# use them.
durations:
	@tier=$$(cat $(CURDIR)/.testbed/tier 2>/dev/null) || \
		{ echo "durations: no check run in .testbed" >&2; exit 1; }; \
	case "$$tier" in full) f=durations-full ;; *) f=durations ;; esac; \
	python3 $(TESTBED)/plan.py refresh $(CURDIR)/.testbed/durations $(TESTBED)/$$f

# Debian's own kernel: installs linux-image and linux-headers of 6.12,
# builds the modules against the headers and boots the demo on it.
run-distro:
	$(TESTBED)/distro-run.sh

# Documentation: docutils parses every page, testing.rst names every
# KUnit suite and scenario (step "docs" of make check).
doc-check:
	python3 $(TESTBED)/doc-check.py $(CURDIR)
