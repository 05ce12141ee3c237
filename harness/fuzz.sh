#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make fuzz: build each target, boot it once (its first CPU model) with
# only pc_fuzz -n FUZZ_CALLS -t FUZZ_SECONDS (plus the target's
# FUZZ_ARGS), one target after the other, and report as make test does.
# Usage: FUZZ_CALLS=N FUZZ_SECONDS=S fuzz.sh TARGET...
set -uo pipefail
. "$(dirname "$0")/lib.sh"

export FUZZ_CALLS=${FUZZ_CALLS:-1000000} FUZZ_SECONDS=${FUZZ_SECONDS:-4800}
logs=()
for target in "$@"; do
	bash "$TOP/harness/build-kernel.sh" "$target" || {
		echo "build of $target failed"; echo "0 passed, 1 failed"; exit 1; }
	bash "$TOP/harness/build-initramfs.sh" "$target" fuzz || {
		echo "the fuzzer for $target failed to build"
		echo "0 passed, 1 failed"; exit 1; }
	logs+=("$(bash "$TOP/harness/boot.sh" "$target" fuzz)")
done

step "results"
python3 "$TOP/harness/report.py" "${logs[@]}"
