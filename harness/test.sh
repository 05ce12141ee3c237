#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the host unit tests, then build, boot and test every target; print
# each result, the time each target took against its share of the
# budget (harness/budget.py), and one closing line "N passed, N
# failed[, N skipped]". Exit status 1 on any failure.
#
# The kernels and initramfs images are built one after the other in the
# background, at the lowest priority, while the boots of the targets
# already built run: a TCG boot leaves most of a core idle, and a build
# takes only what the boot does not. Each build's output goes to
# build/budget/build-TARGET.log, printed whole if it fails.
# Usage: test.sh TARGET...
set -uo pipefail
. "$(dirname "$0")/lib.sh"

state=$BUILD/budget
times=$state/times.txt
mkdir -p "$state"
rm -f "$state"/built-* "$state"/build-*.log "$state"/sparse-*.log
: > "$times"
start=$SECONDS

# what make test needs first (make deps, make src), timed with the rest
bash "$TOP/harness/deps.sh" || exit 1
bash "$TOP/harness/prepare-src.sh" || exit 1

# builder TARGET...: each kernel and test initramfs in turn, niced;
# built-TARGET says "ok" or "failed" when that target is done.
builder() {
	local target begin status

	for target in "$@"; do
		begin=$SECONDS
		{
			bash "$TOP/harness/build-kernel.sh" "$target" &&
			bash "$TOP/harness/build-initramfs.sh" "$target" test
		} > "$state/build-$target.log" 2>&1
		status=$?
		# sparse on our code (a result of its own, see report.py)
		[ "$status" = 0 ] &&
			bash "$TOP/harness/sparse.sh" "$target" \
				> "$state/sparse-$target.log" 2>&1
		echo "$target build $((SECONDS - begin))" >> "$times"
		if [ "$status" != 0 ]; then
			echo failed > "$state/built-$target"
			return 1
		fi
		echo ok > "$state/built-$target"
	done
}
(renice -n 19 -p "$BASHPID" >/dev/null; builder "$@") &
builder_pid=$!
trap 'kill $builder_pid 2>/dev/null' EXIT

# the host unit tests first (seconds, no kernel): their log is one more
logs=("$(bash "$TOP/harness/host-tests.sh")")
# the documentation (about a minute): one result, from its log
docs_log=$BUILD/docs/docs.log
mkdir -p "$BUILD/docs"
step "documentation (harness/docs.sh, log in ${docs_log#"$TOP"/})"
bash "$TOP/harness/docs.sh" >"$docs_log" 2>&1
tail -n 1 "$docs_log"
echo "setup $((SECONDS - start))" >> "$times"

for target in "$@"; do
	. "$TOP/configs/$target.env"
	begin=$SECONDS
	step "waiting for the $target kernel and programs (log in ${state#"$TOP"/}/build-$target.log)"
	while [ ! -s "$state/built-$target" ]; do
		if ! kill -0 "$builder_pid" 2>/dev/null && [ ! -s "$state/built-$target" ]; then
			echo "the builder ended before $target was built"
			break
		fi
		sleep 2
	done
	echo "$target wait $((SECONDS - begin))" >> "$times"
	if [ "$(cat "$state/built-$target" 2>/dev/null)" != ok ]; then
		cat "$state/build-$target.log"
		echo "build of $target or its test programs failed"
		echo "0 passed, 1 failed"
		exit 1
	fi
	grep -h '^==>.*ready' "$state/build-$target.log"
	for cpu in $QEMU_CPUS; do
		begin=$SECONDS
		logs+=("$(bash "$TOP/harness/boot.sh" "$target" test "$cpu")")
		echo "$target boot ${cpu%%|*} $((SECONDS - begin))" >> "$times"
	done
done
# the host's checks of the files the boots printed: one more log
begin=$SECONDS
step "the guests' files on the host (harness/artifacts.sh)"
logs+=("$(bash "$TOP/harness/artifacts.sh" "${logs[@]}")")
echo "artifacts $((SECONDS - begin))" >> "$times"
echo "wall $((SECONDS - start))" >> "$times"

step "results"
# the boots' results, and the man page's lint and the documentation as
# two more. The budget goes before the report's closing block (its
# failures named again, its counts and the closing line), so that a log
# cut to its last lines, as CI's is, still names what failed.
report=$state/report.txt
sparse=()
for target in "$@"; do
	# in a subshell: a target without SPARSE_DIRS must not see the last one's
	dirs=$(. "$TOP/configs/$target.env" && echo "${SPARSE_DIRS:-}")
	[ -n "$dirs" ] && sparse+=(--sparse "$state/sparse-$target.log")
done
python3 "$TOP/harness/report.py" --lint-man --docs "$docs_log" "${sparse[@]}" \
	"${logs[@]}" > "$report"
status=$?
closing=$(grep -n -m 1 -E '^(Failures:|[0-9]+ distinct cases)' "$report" |
	cut -d: -f1)
closing=${closing:-$(wc -l < "$report")}
head -n $((closing - 1)) "$report"
python3 "$TOP/harness/budget.py" "$times" "${logs[@]}"
tail -n +"$closing" "$report"
exit $status
