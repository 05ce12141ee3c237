#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sparse (make C=2) on our kernel code, in a target's configuration, once
# its kernel is built: the directories its SPARSE_DIRS names
# (configs/TARGET.env; the core on x86_64-debug, each architecture's
# drivers on a target that builds them). Prints every warning on our
# files and ends with "PC-SPARSE TARGET ok" or "PC-SPARSE TARGET fail: N
# warnings" (harness/report.py makes it one result). Exit status 1 on a
# warning.
# Usage: sparse.sh TARGET
set -uo pipefail
. "$(dirname "$0")/lib.sh"

target=$1
. "$TOP/configs/$target.env"
out=$BUILD/$target/kernel
log=$BUILD/budget/sparse-$target.full.log

if [ -z "${SPARSE_DIRS:-}" ]; then
	echo "PC-SPARSE $target ok (nothing to check)"
	exit 0
fi
read -r -a dirs <<< "$SPARSE_DIRS"
# C=2: every file of the directories, built or not; the objects are up
# to date, so only sparse runs.
make -s -C "$SRC" O="$out" ARCH="$KARCH" \
	CROSS_COMPILE="${CROSS_COMPILE:-}" \
	CC="ccache ${CROSS_COMPILE:-}gcc" HOSTCC="ccache gcc" \
	C=2 CHECK=sparse "${dirs[@]/%//}" > "$log" 2>&1
status=$?
# our directories, and our headers wherever they are included
ours=$(grep -E "^$SRC/($(echo "${dirs[@]}" | tr ' ' '|')|include/(uapi/)?linux/perf_counter[a-z_]*\.h)[/:].*: (warning|error):" "$log")
if [ "$status" != 0 ]; then
	tail -n 20 "$log"
	echo "PC-SPARSE $target fail: make C=2 exit status $status"
	exit 1
fi
if [ -n "$ours" ]; then
	echo "${ours//$SRC\//}"
	echo "PC-SPARSE $target fail: $(echo "$ours" | wc -l) warnings"
	exit 1
fi
echo "PC-SPARSE $target ok (${dirs[*]})"
