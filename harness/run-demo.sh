#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the x86_64 kernel and boot it with the demo as the workload.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

target=x86_64
bash "$TOP/harness/build-kernel.sh" $target
bash "$TOP/harness/build-initramfs.sh" $target demo
log=$(BOOT_TIMEOUT=300 bash "$TOP/harness/boot.sh" $target demo)
step "demo output (full console log: $log)"
sed -n '/^PC-RUN/,/^PC-EXIT/p' "$log" | grep -v '^PC-'
grep -q '^PC-DONE ok' "$log" || die "the demo did not finish cleanly: see $log"
