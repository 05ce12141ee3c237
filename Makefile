# SPDX-License-Identifier: GPL-2.0
#
# perf_counter for Linux 6.1: build, boot and test.
#
#   make run     build the x86_64 kernel, boot it in QEMU, count a workload
#   make test    build and boot every target, run KUnit and the selftests
#
# Every target installs what is missing first (make deps).

TARGETS ?= x86_64
H := harness

.PHONY: all deps src kernel test run checkpatch clean distclean

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
	@bash $(H)/run-demo.sh

# checkpatch from the base tree, on every C file and header of ours.
checkpatch: src
	@bash $(H)/checkpatch.sh

clean:
	rm -rf build/*/kernel build/*/test build/*/demo

distclean:
	rm -rf build
