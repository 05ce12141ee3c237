#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The host's checks of the files the test boots printed (tool_test's
# exports and record files, between PC-ARTIFACT markers): run
# tools/perf_counter/test_export.py --guest on the boots' logs that
# hold them and write its KTAP between the markers a test boot's /init
# prints, so report.py counts it as one more log:
# build/host/artifacts/console-artifacts.log. Prints the log's path.
# Usage: artifacts.sh LOG...
set -uo pipefail
. "$(dirname "$0")/lib.sh"

prog=tools/perf_counter/test_export.py
out=$BUILD/host/artifacts
log=$out/console-artifacts.log
mkdir -p "$out"
guests=()
for l in "$@"; do
	grep -q '^PC-ARTIFACT ' "$l" 2>/dev/null && guests+=("$l")
done
{
	echo "PC-BEGIN"
	echo "PC-RUN $prog"
	if [ ${#guests[@]} = 0 ]; then
		# no boot printed its files: that is a failure, not a skip
		echo "TAP version 13"
		echo "1..1"
		echo "# no test boot's log holds PC-ARTIFACT files"
		echo "not ok 1 guests_printed_their_files"
		status=1
	else
		(cd "$TOP" && python3 "$prog" --tap --guest "${guests[@]}" 2>&1)
		status=$?
	fi
	echo "PC-EXIT $prog $status"
	if [ "$status" = 0 ]; then echo "PC-DONE ok"; else echo "PC-DONE fail"; fi
} > "$log"
echo "$log"
