#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the x86_64 kernel and boot it with one program as the workload:
# MODE=demo (make run) or MODE=bench (make bench). Usage: run-guest.sh MODE
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mode=$1
target=x86_64
[ "$mode" = bench ] && target=x86_64-bench
bash "$TOP/harness/build-kernel.sh" $target
bash "$TOP/harness/build-initramfs.sh" $target "$mode"
log=$(BOOT_TIMEOUT=900 bash "$TOP/harness/boot.sh" $target "$mode")
step "$mode output (full console log: $log)"
sed -n '/^PC-RUN/,/^PC-EXIT/p' "$log" | grep -v '^PC-'
grep -q '^PC-DONE ok' "$log" || die "the $mode did not finish cleanly: see $log"
