#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build a target's kernel (TARGET, x86_64 unless set) and boot it with
# one program as the workload: MODE=demo (make run), MODE=bench (make
# bench: TARGET's -bench and -nopc flavours) or MODE=prog (make run
# PROG=FILE: the user's program, C source or a static binary, run with
# the arguments PROG_ARGS; its output and exit status are printed, and
# a status other than 0 fails). Usage: run-guest.sh MODE
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mode=$1
base=${TARGET:-x86_64}
target=$base
[ "$mode" = bench ] && target=$base-bench
[ -f "$TOP/configs/$target.env" ] ||
	die "TARGET=$base: no configs/$target.env (make run takes $(cd "$TOP/configs" && ls *.env | grep -v -e - -e common | sed 's/\.env$//' | tr '\n' ' ')and make bench x86_64 or ppc64le)"
if [ "$mode" = prog ]; then
	[ -n "${PROG:-}" ] || die "run-guest.sh prog needs PROG=FILE"
	# absolute, as the initramfs is built from another directory
	abs=$(realpath -e "$PROG" 2>/dev/null) || die "PROG=$PROG: no such file"
	export PROG=$abs PROG_ARGS=${PROG_ARGS:-}
fi
bash "$TOP/harness/build-kernel.sh" $target
bash "$TOP/harness/build-initramfs.sh" $target "$mode"
# The bench's clock runs on the guest's instructions: on a busy host
# its boot takes longer than its guest time.
timeout=900
[ "$mode" = bench ] && timeout=2400
start=$(date +%s)
log=$(BOOT_TIMEOUT=$timeout bash "$TOP/harness/boot.sh" $target "$mode")
step "$mode output (full console log: $log)"
# (the flame graph's SVG is written to a file, not shown)
tr -d '\r' < "$log" | sed -n '/^PC-RUN/,/^PC-EXIT/p' |
	sed '/^PC-RUN .*--format svg/,/^PC-EXIT/d' | grep -v '^PC-'
if [ "$mode" = demo ]; then
	svg=$BUILD/$target/demo/flamegraph.svg
	tr -d '\r' < "$log" |
		sed -n '/^PC-RUN .*--format svg/,/^PC-EXIT/p' |
		grep -v '^PC-' > "$svg"
	python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' \
		"$svg" 2>/dev/null ||
		die "the demo's flame graph is not a whole SVG: see $svg and $log"
	step "the demo's flame graph: $svg"
fi
if [ "$mode" = prog ]; then
	# (the serial console ends its lines with CR LF)
	status=$(tr -d '\r' < "$log" | sed -n 's/^PC-EXIT [^ ]* //p')
	name=$(basename "$PROG" .c)
	[ -n "$status" ] || die "$name did not run to its end: see $log"
	step "$name exited with status $status"
	[ "$status" = 0 ] || exit 1
fi
grep -q '^PC-DONE ok' "$log" || die "the $mode did not finish cleanly: see $log"
if [ "$mode" = bench ]; then
	# pc-bench's PC-BENCH lines, with what they were measured on, and
	# the scale curves drawn from them (make bench-plot publishes both)
	. "$TOP/configs/$target.env"
	out=$BUILD/$target/bench
	{
		echo "# pc-bench results (make bench)"
		echo "# date: $(date -u '+%Y-%m-%d %H:%M UTC')"
		echo "# host-cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) CPUs"
		echo "# qemu: $($QEMU --version | head -n 1)"
		echo "# clock: $BENCH_CLOCK"
		echo "# qemu-args:" $QEMU_ARGS
		echo "# boot: $(($(date +%s) - start)) s on the host's clock"
		echo "# tree: $(git -C "$TOP" describe --always --dirty 2>/dev/null || echo unknown)"
		tr -d '\r' < "$log" | grep '^PC-BENCH '
	} > "$out/results.txt"
	grep -q '^PC-BENCH end ' "$out/results.txt" ||
		die "pc-bench printed no end line: see $log"
	python3 "$TOP/bench/plot.py" "$out/results.txt" "$out/scale.svg"
	# (d) once more on the same kernel built without perf_counter
	nopc=$base-nopc
	start=$(date +%s)
	bash "$TOP/harness/build-kernel.sh" $nopc
	BENCH_ARGS=--keys-only bash "$TOP/harness/build-initramfs.sh" $nopc bench
	log=$(BOOT_TIMEOUT=$timeout bash "$TOP/harness/boot.sh" $nopc bench)
	echo "# nopc-boot: $(($(date +%s) - start)) s on the host's clock, build included" \
		>> "$out/results.txt"
	tr -d '\r' < "$log" | sed -n 's/^PC-BENCH units keys-off-/PC-BENCH units nopc-keys-off-/p' \
		>> "$out/results.txt"
	if ! grep -q '^PC-DONE ok' "$log" ||
	   ! grep -q '^PC-BENCH units nopc-keys-off-' "$out/results.txt"; then
		die "(d) on $nopc, the kernel without perf_counter, gave no figures: see $log (the rest is in $out/results.txt)"
	fi
	step "(d), no counter open: the round trip in null calls, and in ns"
	awk '$1 == "PC-BENCH" && $2 == "units" {
		k = $3; sub(/^nopc-/, "", k)
		if ($3 ~ /^nopc-/) { nc[k] = $5; nn[k] = $10 }
		else if ($3 ~ /^keys-off-/) { wc[k] = $5; wn[k] = $10 }
	}
	END {
		for (k in wc) if ((k in nc) && nn[k] > 0)
			printf "  %-22s perf_counter built in, keys off: %6.2f (%6.0f ns); not built: %6.2f (%6.0f ns); ratio of ns %.4f\n",
			       k, wc[k], wn[k], nc[k], nn[k], wn[k] / nn[k]
	}' "$out/results.txt"
	step "results: $out/results.txt, plot: $out/scale.svg (make bench-plot copies them into bench/)"
fi
