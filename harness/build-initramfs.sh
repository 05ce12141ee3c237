#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build a target's initramfs: /init plus the selftests (MODE=test: the
# whole suite in initramfs.cpio, and the model boots' programs in
# initramfs-model.cpio, see configs/common.env), the
# demo (MODE=demo), the benchmarks (MODE=bench), the fuzzer alone
# (MODE=fuzz: pc_fuzz -n FUZZ_CALLS -t FUZZ_SECONDS) or one program of
# the user's (MODE=prog: PROG, run with the arguments PROG_ARGS), static,
# against the target kernel's exported headers.
# Usage: build-initramfs.sh TARGET MODE
set -euo pipefail
. "$(dirname "$0")/lib.sh"

target=$1 mode=$2
. "$TOP/configs/$target.env"

out=$BUILD/$target/$mode
root=$out/root
rm -rf "$root"
mkdir -p "$root/bin" "$root/etc"

hdr=$BUILD/$target/headers/include
st=$SRC/tools/testing/selftests/perf_counter
cflags="-static -O2 -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare -isystem $hdr"

# The static programs are compiled through ccache (with -c: ccache
# does not cache a compile and link in one) and linked, up to $JOBS at
# once: prog_bg starts one, progs_wait waits for all and fails the build
# if any failed. A cold make test builds four targets' programs; a warm
# one finds them all in the cache.
objs=$out/obj
rm -rf "$objs"
mkdir -p "$objs"
# Compilers still running when the script ends early (a die) are
# stopped, not left writing into the next run's tree.
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
# Libraries the next prog_bg links with: the tests use threads; the
# README's example is linked exactly as the README says (prog_libs=).
prog_libs=-lpthread
# prog_cc OUT SRC FLAGS...: SRC to the static program OUT
prog_cc() {
	local o=$1 s=$2 obj

	shift 2
	obj=$objs/$(echo "${o#"$root"/}" | tr / _).o
	# shellcheck disable=SC2086
	ccache $TEST_CC "$@" -c -o "$obj" "$s" &&
		$TEST_CC "$@" -o "$o" "$obj" $prog_libs
}
# prog_bg WHAT OUT SRC FLAGS...: prog_cc in the background. A job that
# succeeds leaves ok.N; progs_wait names, by WHAT, each that did not,
# whatever ended it (a compiler's error, a signal, the shell's set -u).
prog_n=0
prog_bg() {
	local what=$1

	shift
	prog_n=$((prog_n + 1))
	echo "$what" > "$objs/what.$prog_n"
	while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do
		wait -n || true
	done
	( prog_cc "$@" && : > "$objs/ok.$prog_n" ) &
}
progs_wait() {
	local i bad=

	wait
	for ((i = 1; i <= prog_n; i++)); do
		[ -e "$objs/ok.$i" ] || bad="$bad$(cat "$objs/what.$i") "
	done
	[ -z "$bad" ] || die "${bad}does not build for $target"
}

step "building $mode programs for $target"
# shellcheck disable=SC2086
prog_bg "harness/init.c" "$root/init" "$TOP/harness/init.c" $cflags

# What the kernel checks with, for the tests that must know (KASAN's
# quarantine holds freed slab back: stress_test's growth checks skip).
config=$BUILD/$target/kernel/.config
: > "$root/etc/pc-sanitizer"
for s in KASAN DEBUG_KMEMLEAK UBSAN FAULT_INJECTION_DEBUG_FS; do
	if grep -q "^CONFIG_$s=y" "$config"; then
		echo "$s" >> "$root/etc/pc-sanitizer"
	fi
done
# Allocation failures for the fuzzer where the kernel can inject them.
fail=
if grep -q '^CONFIG_FAULT_INJECTION_DEBUG_FS=y' "$config"; then
	fail="failslab "
fi

# The user tool, /bin/perf-counter, in every guest but the fuzzer's:
# static, against the target's headers, warnings fatal.
perf_counter_tool() {
	make -s -j"$JOBS" -C "$SRC/tools/perf_counter" CC="ccache $TEST_CC" \
		HDR="$hdr" OUT="$out/perf-counter" ||
		die "perf-counter does not build for $target"
	cp "$out/perf-counter/perf-counter" "$root/bin/perf-counter"
}

# What a program needs beyond the others' flags: chain_test's call
# chains need every call kept and, on x86, frame pointers (on PowerPC
# the back chain is the ABI; see chain_test.c), and so does the flame
# graph of pc-demo that make run draws; pc-bench's sampled
# 16-deep chain needs the frame pointers only (its recursion is noipa,
# and the rest of it, its self-reads above all, must be built as users
# build).
prog_cflags() {
	case $1 in
	chain_test)
		echo -fno-inline
		;;
	esac
	case $1,$target in
	chain_test,x86*|chain_test,i386*|pc-bench,x86*|pc-bench,i386*)
		echo -fno-omit-frame-pointer
		;;
	pc-demo,x86*|pc-demo,i386*)
		echo -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer
		;;
	esac
}

# pc_fuzz, to /bin/pc_fuzz or to $1, in the background (progs_wait)
pc_fuzz() {
	[ -f "$st/pc_fuzz.c" ] || die "$st/pc_fuzz.c missing: $target's $mode run needs the fuzzer"
	# shellcheck disable=SC2086
	prog_bg pc_fuzz "${1:-$root/bin/pc_fuzz}" "$st/pc_fuzz.c" $cflags -I"$st"
}

: > "$root/etc/pc-run"
# /init's deadline for the fuzzer: its own watchdog fires 60 s past its
# time, and calls run long under the sanitizers.
fuzz_line() {
	echo "${fail}timeout=$(($1 * 5 / 4 + 300)) /bin/pc_fuzz -t $1 -n $2 ${3:-}" \
		>> "$root/etc/pc-run"
}

if [ "$mode" = fuzz ]; then
	# only the fuzzer, as long as make fuzz asks (FUZZ_ARGS: the
	# target's own, -H for CPU hotplug)
	pc_fuzz
	fuzz_line "${FUZZ_SECONDS:-4800}" "${FUZZ_CALLS:-1000000}" "${FUZZ_ARGS:-}"
elif [ "$mode" = test ]; then
	perf_counter_tool
	# the target's TEST_ENV (NAME=VALUE ...) in every program's
	# environment, and its TEST_TIMEOUT (seconds) for each program
	envs=${TEST_TIMEOUT:+timeout=$TEST_TIMEOUT }
	for e in ${TEST_ENV:-}; do
		envs="${envs}env=$e "
	done
	# exactly the target's TEST_PROGRAMS: one missing fails the build,
	# and so does a test source no target's list names; a model boot's
	# program is one of the whole suite's
	listed=" $(for e in "$TOP"/configs/*.env; do
		(. "$e"; echo ${TEST_PROGRAMS:-})
	done | tr '\n' ' ') "
	for src in "$st"/*_test.c "$st"/*/*_test.c; do
		[ -f "$src" ] || continue
		rel=${src#"$st"/}
		case $listed in
		*" ${rel%.c} "*) ;;
		*) die "$rel is in no target's TEST_PROGRAMS" ;;
		esac
	done
	for prog in ${TEST_PROGRAMS:?$target declares no TEST_PROGRAMS}; do
		src=$st/$prog.c
		[ -f "$src" ] || die "$target's test program $prog: no $src"
		name=$(basename "$prog")
		# shellcheck disable=SC2086,SC2046
		prog_bg "$prog" "$root/bin/$name" "$src" $cflags -I"$st" \
			$(prog_cflags "$prog")
		echo "$envs/bin/$name" >> "$root/etc/pc-run"
	done
	# chain_test's i686 twin on the x86_64 kernels, for the chains of a
	# 32-bit task on a 64-bit kernel (built as the i386 target's are)
	# shellcheck disable=SC2116,SC2086
	case " $(echo $TEST_PROGRAMS) $target " in
	*" chain_test "*x86_64*)
		# shellcheck disable=SC2086,SC2046
		TEST_CC=i686-linux-gnu-gcc prog_bg "chain_test (i686)" \
			"$root/bin/chain_test32" "$st/chain_test.c" $cflags \
			-I"$st" $(prog_cflags chain_test)
		;;
	esac
	# the model boots' programs, with MODEL_TEST_ENV after TEST_ENV
	# (a later NAME=VALUE wins)
	for e in ${MODEL_TEST_ENV:-}; do
		envs="${envs}env=$e "
	done
	: > "$out/pc-run-model"
	for prog in ${MODEL_TEST_PROGRAMS:-}; do
		case " $(echo $TEST_PROGRAMS) " in
		*" $prog "*) ;;
		*) die "$target's model program $prog is not in its TEST_PROGRAMS" ;;
		esac
		echo "$envs/bin/$(basename "$prog")" >> "$out/pc-run-model"
	done
	# The program in EXAMPLES of the man page, as the page shows it,
	# for man_example_test to run: the page promises it builds without
	# a warning.
	python3 "$TOP/harness/man-example.py" "$TOP/man2/perf_counter_open.2" \
		"$out/man_example.c" || die "no program in the man page's EXAMPLES"
	# shellcheck disable=SC2086
	prog_bg "the man page's example" "$root/bin/man_example" \
		"$out/man_example.c" $cflags -Werror
	# The README's example, for example_test to run: built as the
	# README tells a user to build it, every warning an error.
	prog_libs='' prog_bg samples/perf_counter/count_self.c \
		"$root/bin/count_self" "$SRC/samples/perf_counter/count_self.c" \
		-static -O2 -Wall -Wextra -Werror -isystem "$hdr"
	# The self-monitoring library's example, for example_test to run:
	# the sample and the library as one translation unit (prog_cc
	# compiles one source; the library asks for _GNU_SOURCE, which must
	# come before the sample's headers), every warning an error.
	printf '#define _GNU_SOURCE\n#include "%s"\n#include "%s"\n' \
		"$SRC/samples/perf_counter/overflow_signal.c" \
		"$SRC/tools/perf_counter/lib/pc_monitor.c" > "$out/overflow_signal.c"
	prog_libs='' prog_bg samples/perf_counter/overflow_signal.c \
		"$root/bin/overflow_signal" "$out/overflow_signal.c" \
		-I"$SRC/tools/perf_counter/lib" -static -O2 -Wall -Wextra \
		-Werror -isystem "$hdr"
	# make bench's program, for bench_test to run in its short mode,
	# on the targets that list that test
	for prog in $TEST_PROGRAMS; do
		[ "$prog" = bench_test ] || continue
		# shellcheck disable=SC2086,SC2046
		prog_bg bench/pc-bench.c "$root/bin/pc-bench" \
			"$TOP/bench/pc-bench.c" $cflags $(prog_cflags pc-bench)
	done
	# a bounded fuzz run last, on the targets that ask for one; on
	# the others make fuzz's program must still build (it once did
	# not, for ppc32, and only make fuzz found out)
	if [ -n "${FUZZ_TEST_SECONDS:-}" ]; then
		pc_fuzz
		fuzz_line "$FUZZ_TEST_SECONDS" "$FUZZ_TEST_CALLS" \
			"${FUZZ_TEST_ARGS:-}"
	else
		pc_fuzz "$out/pc_fuzz"
	fi
elif [ "$mode" = prog ]; then
	# make run PROG=FILE: C source (FILE.c) is built static against
	# the target's headers, anything else must be a static binary;
	# either runs as /bin/NAME beside the user tool.
	[ -n "${PROG:-}" ] || die "MODE=prog needs PROG=FILE"
	[ -f "$PROG" ] || die "PROG=$PROG: no such file"
	perf_counter_tool
	name=$(basename "$PROG" .c)
	case $PROG in
	*.c)
		$TEST_CC -static -O2 -Wall -Wextra -isystem "$hdr" \
			-o "$root/bin/$name" "$PROG" ||
			die "PROG=$PROG does not build for $target"
		;;
	*)
		readelf -h "$PROG" >/dev/null 2>&1 ||
			die "PROG=$PROG is neither C source (.c) nor an ELF binary"
		if readelf -l "$PROG" | grep -q 'program interpreter'; then
			die "PROG=$PROG is dynamically linked: the guest has no C library; link it with -static"
		fi
		cp "$PROG" "$root/bin/$name"
		;;
	esac
	# PROG_FILES: more static programs it runs, each as /bin/NAME
	for f in ${PROG_FILES:-}; do
		readelf -h "$f" >/dev/null 2>&1 ||
			die "PROG_FILES: $f is not an ELF binary"
		cp "$f" "$root/bin/$(basename "$f")"
	done
	echo "/bin/$name ${PROG_ARGS:-}" >> "$root/etc/pc-run"
else
	# demo: demo/pc-demo.c, bench: bench/pc-bench.c (with BENCH_ARGS)
	perf_counter_tool
	# shellcheck disable=SC2086,SC2046
	prog_bg "$mode/pc-$mode.c" "$root/bin/pc-$mode" "$TOP/$mode/pc-$mode.c" \
		$cflags $(prog_cflags "pc-$mode")
	echo "/bin/pc-$mode${BENCH_ARGS:+ $BENCH_ARGS}" >> "$root/etc/pc-run"
	if [ "$mode" = demo ]; then
		# the same workload through the user tool: its stat table,
		# then a profile of its user-mode time (a sample a ms, with
		# call chains), and that profile as a flame graph on stdout
		# (run-guest.sh writes it to build/TARGET/demo/flamegraph.svg)
		{
			echo "/bin/perf-counter stat /bin/pc-demo --workload"
			echo "/bin/perf-counter record -g -e task-clock:u -c 1000000 -o /tmp/pc-demo.data /bin/pc-demo --workload"
			echo "/bin/perf-counter report --no-children -i /tmp/pc-demo.data"
			echo "/bin/perf-counter report --format svg -i /tmp/pc-demo.data"
		} >> "$root/etc/pc-run"
	fi
fi

progs_wait

# A kernel with SELinux gets the policy lsm_test loads, made from that
# kernel's own class map, as /etc/pc-selinux.policy.
if grep -q '^CONFIG_SECURITY_SELINUX=y' "$BUILD/$target/kernel/.config"; then
	python3 "$TOP/harness/selinux-policy.py" "$SRC" > "$out/pc-selinux.conf" ||
		die "no SELinux policy for $target"
	checkpolicy -c 33 -o "$root/etc/pc-selinux.policy" \
		"$out/pc-selinux.conf" > /dev/null ||
		die "checkpolicy refused $out/pc-selinux.conf"
fi

# gen_init_cpio makes device nodes without root. make_cpio LIST RUN BIN...:
# an initramfs of /init, the run list RUN as /etc/pc-run and the
# programs BIN of $root/bin, written to LIST.cpio.
make_cpio() {
	local list=$1 run=$2 f

	shift 2
	{
		echo "dir /dev 0755 0 0"
		echo "nod /dev/console 0600 0 0 c 5 1"
		echo "nod /dev/null 0666 0 0 c 1 3"
		echo "dir /proc 0755 0 0"
		echo "dir /sys 0755 0 0"
		echo "dir /tmp 1777 0 0"
		echo "dir /bin 0755 0 0"
		echo "dir /etc 0755 0 0"
		echo "file /init $root/init 0755 0 0"
		echo "file /etc/pc-run $run 0644 0 0"
		echo "file /etc/pc-sanitizer $root/etc/pc-sanitizer 0644 0 0"
		if [ -f "$root/etc/pc-selinux.policy" ]; then
			echo "file /etc/pc-selinux.policy $root/etc/pc-selinux.policy 0644 0 0"
		fi
		for f in "$@"; do
			echo "file /bin/$(basename "$f") $f 0755 0 0"
		done
	} > "$list.list"
	"$BUILD/$target/kernel/usr/gen_init_cpio" "$list.list" > "$list.cpio"
}
make_cpio "$out/initramfs" "$root/etc/pc-run" "$root"/bin/*
rm -f "$out/initramfs-model.cpio"
if [ "$mode" = test ] && [ -n "${MODEL_TEST_PROGRAMS:-}" ]; then
	# shellcheck disable=SC2046
	make_cpio "$out/initramfs-model" "$out/pc-run-model" \
		$(for p in $MODEL_TEST_PROGRAMS; do echo "$root/bin/$(basename "$p")"; done)
fi
