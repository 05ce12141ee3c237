#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the host unit tests, then build, boot and test every target; print
# each result and one closing line "N passed, N failed[, N skipped]".
# Exit status 1 on any failure.
# Usage: test.sh TARGET...
set -uo pipefail
. "$(dirname "$0")/lib.sh"

# the host unit tests first (seconds, no kernel): their log is one more
logs=("$(bash "$TOP/harness/host-tests.sh")")
# the documentation (about a minute): one result, from its log
docs_log=$BUILD/docs/docs.log
mkdir -p "$BUILD/docs"
step "documentation (harness/docs.sh, log in ${docs_log#"$TOP"/})"
bash "$TOP/harness/docs.sh" >"$docs_log" 2>&1
tail -n 1 "$docs_log"
for target in "$@"; do
	. "$TOP/configs/$target.env"
	bash "$TOP/harness/build-kernel.sh" "$target" || {
		echo "build of $target failed"; echo "0 passed, 1 failed"; exit 1; }
	bash "$TOP/harness/build-initramfs.sh" "$target" test || {
		echo "test programs for $target failed to build"
		echo "0 passed, 1 failed"; exit 1; }
	for cpu in $QEMU_CPUS; do
		logs+=("$(bash "$TOP/harness/boot.sh" "$target" test "$cpu")")
	done
done

step "results"
# the boots' results, and the man page's lint and the documentation as
# two more
python3 "$TOP/harness/report.py" --lint-man --docs "$docs_log" "${logs[@]}"
