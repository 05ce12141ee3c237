#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot a target's kernel with its MODE initramfs under QEMU (TCG), with a
# timeout, keeping the console log. Usage: boot.sh TARGET MODE [CPU]
# CPU is a QEMU -cpu model, optionally followed by "|" and kernel
# arguments for that model's boot (as in the targets' QEMU_CPUS).
# Prints the log's path. QEMU's status is not trusted: report.py reads
# the markers /init prints. MODE=test on the target's first model boots
# the whole suite (initramfs.cpio); on every later model, the model
# boot (initramfs-model.cpio, with only MODEL_KUNIT_SUITES run: see
# configs/common.env). Other modes boot RUN_CPU, else the first model.
# The timeout: BOOT_TIMEOUT from the caller, else the target's (configs/TARGET.env, 900 s if it names none), for
# MODE=fuzz plus FUZZ_SECONDS and half as much again.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

target=$1 mode=$2
caller_timeout=${BOOT_TIMEOUT:-}
BOOT_TIMEOUT=
. "$TOP/configs/$target.env"
# shellcheck disable=SC2086
first=$(printf '%s\n' $QEMU_CPUS | head -n 1)
entry=${3:-}
if [ -z "$entry" ]; then
	entry=$first
	if [ "$mode" != test ] && [ -n "${RUN_CPU:-}" ]; then
		# shellcheck disable=SC2086
		entry=$(printf '%s\n' $QEMU_CPUS | grep -m 1 -e "^$RUN_CPU\$" -e "^$RUN_CPU|") ||
			die "$target: RUN_CPU $RUN_CPU is not in QEMU_CPUS"
	fi
fi
cpu=${entry%%|*}
cpu_args=
[ "$entry" = "$cpu" ] || cpu_args=${entry#*|}
timeout=${BOOT_TIMEOUT:-900}
# A fuzz run lasts as long as it is asked to, and overruns: its calls
# are slow under the sanitizers and injected failures.
if [ "$mode" = fuzz ]; then
	timeout=$((timeout + ${FUZZ_SECONDS:-4800} * 3 / 2))
fi
if [ -n "$caller_timeout" ]; then
	timeout=$caller_timeout
fi

out=$BUILD/$target/$mode
log=$out/console-$cpu.log
initrd=$out/initramfs.cpio
if [ "$mode" = test ] && [ "$entry" != "$first" ]; then
	initrd=$out/initramfs-model.cpio
	# one suite name or glob, or none at all
	read -r -a suites <<< "${MODEL_KUNIT_SUITES:-}"
	[ "${#suites[@]}" -le 1 ] ||
		die "$target: MODEL_KUNIT_SUITES must be one glob"
	cpu_args="$cpu_args ${MODEL_KERNEL_ARGS:-} kunit.filter_glob=${suites[0]:-no_suite_on_a_model_boot}"
fi
step "booting $target ($cpu) for $mode, timeout ${timeout}s" >&2
# shellcheck disable=SC2086
machine=
if declare -F qemu_cpu_args >/dev/null; then
	machine=$(qemu_cpu_args "$cpu") ||
		die "$target: qemu_cpu_args failed for $cpu"
fi
# Warnings and errors on the console (loglevel 5; 4 is errors only):
# a WARN, a lockdep or sanitizer report, the stacks of a stall or a hang
# reach the log as they happen, even if the boot never gets to dump the
# kernel log or the ring buffer has overflowed since.
timeout --foreground -k 10 "$timeout" $QEMU $QEMU_ARGS $machine -cpu "$cpu" \
	-nographic -monitor none -serial stdio \
	-kernel "$BUILD/$target/kernel/$KIMAGE" \
	-initrd "$initrd" \
	-append "console=$CONSOLE loglevel=5 panic=-1 $KERNEL_ARGS $cpu_args" \
	< /dev/null > "$log" 2>&1
status=$?
echo "PC-QEMU-STATUS $status" >> "$log"
echo "$log"
