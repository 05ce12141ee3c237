# SPDX-License-Identifier: GPL-2.0
#
# perf_counter for Linux 6.1: build, boot and test.
#
#   make run     build the x86_64 kernel, boot it in QEMU, count a workload
#   make test    build and boot every target, run KUnit and the selftests
#   make bench   perf_counter against perf_events in one x86_64 boot
#
# Every target installs what is missing first (make deps).

TARGETS ?= x86_64 i386 ppc32
H := harness

.PHONY: all deps src kernel test run bench checkpatch clean distclean

all: kernel

deps:
	@bash $(H)/deps.sh

src: deps
	@bash $(H)/prepare-src.sh

kernel: src
	@for t in $(TARGETS); do bash $(H)/build-kernel.sh $$t || exit 1; done

test: src
	@bash $(H)/test.sh $(TARGETS)

run: src
	@bash $(H)/run-guest.sh demo

bench: src
	@bash $(H)/run-guest.sh bench

# checkpatch from the base tree, on every C file and header of ours.
checkpatch: src
	@bash $(H)/checkpatch.sh

clean:
	rm -rf build/*/kernel build/*/test build/*/demo build/*/bench

distclean:
	rm -rf build
