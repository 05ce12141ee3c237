# SPDX-License-Identifier: GPL-2.0
#
# perf_counter for Linux 6.1: build, boot and test.
#
#   make run     build the x86_64 kernel, boot it in QEMU, count a workload
#                (TARGET=i386, ppc32 or ppc64le: that target's instead)
#   make run PROG=FILE [PROG_ARGS='ARG ...'] [PROG_FILES='FILE ...']
#                the same boot running FILE instead: C source (.c), built
#                static against the kernel's headers, or a static binary;
#                PROG_FILES, static binaries it runs, in /bin too
#   make test    build and boot every target, run KUnit and the selftests
#   make bench   perf_counter against perf_events in one x86_64 boot
#                (TARGET=ppc64le: in a ppc64le boot)
#                (BENCH_CLOCK=wall: timed on the host's clock, not in
#                guest instructions)
#   make bench-plot
#                the last make bench's results and scale plot, copied
#                into bench/ (results-latest.txt, scale.svg)
#   make fuzz    pc_fuzz for FUZZ_SECONDS (at most FUZZ_CALLS calls) on
#                the sanitizer kernel and on ppc32
#   make docs    our documentation with the kernel's make htmldocs, into
#                build/docs/ (make test runs it too)
#
# Every target installs what is missing first (make deps).

# make test's targets, in the order they build: x86_64 by its sanitizer
# kernel (x86_64-debug), which builds longest and boots longest, so its
# boots run beside the other builds; i386, whose boots are shortest,
# last, as the one boot no build runs beside. The plain x86_64 kernel
# (make run, and make bench's base) is TARGETS=x86_64.
TARGETS ?= x86_64-debug ppc64le ppc32 i386
TARGET ?= x86_64
FUZZ_TARGETS ?= x86_64-debug ppc32
FUZZ_CALLS ?= 1000000
FUZZ_SECONDS ?= 4800
H := harness

.PHONY: all deps src kernel test run bench bench-plot fuzz docs checkpatch clean \
	distclean

all: kernel

deps:
	@bash $(H)/deps.sh

src: deps
	@bash $(H)/prepare-src.sh

kernel: src
	@for t in $(TARGETS); do bash $(H)/build-kernel.sh $$t || exit 1; done

# (test.sh installs and prepares the source itself, to time it)
test:
	@bash $(H)/test.sh $(TARGETS)

run: src
	@PROG='$(PROG)' PROG_ARGS='$(PROG_ARGS)' PROG_FILES='$(PROG_FILES)' \
		TARGET='$(TARGET)' \
		bash $(H)/run-guest.sh $(if $(PROG),prog,demo)

bench: src
	@TARGET='$(TARGET)' bash $(H)/run-guest.sh bench

BENCH_OUT := build/$(TARGET)-bench/bench
bench-plot:
	@test -f $(BENCH_OUT)/results.txt || { echo "no results: make bench first"; exit 1; }
	cp $(BENCH_OUT)/results.txt bench/results-latest.txt
	python3 bench/plot.py bench/results-latest.txt bench/scale.svg

fuzz: src
	@FUZZ_CALLS=$(FUZZ_CALLS) FUZZ_SECONDS=$(FUZZ_SECONDS) \
		bash $(H)/fuzz.sh $(FUZZ_TARGETS)

docs: src
	@bash $(H)/docs.sh

# checkpatch from the base tree, on every C file and header of ours.
checkpatch: src
	@bash $(H)/checkpatch.sh

clean:
	rm -rf build/*/kernel build/*/test build/*/demo build/*/bench build/*/fuzz \
		build/*/prog \
		build/docs

distclean:
	rm -rf build
