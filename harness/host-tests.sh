#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the host-side unit tests (no kernel, no QEMU) and write their KTAP
# between the markers a test boot's /init prints, so report.py counts them
# as one more log: build/host/test/console-host.log. Prints the log's path.
# Usage: host-tests.sh
set -uo pipefail
. "$(dirname "$0")/lib.sh"

# The host programs, by their path in the tree; report.py's HOST_PROGRAMS
# must name the same.
HOST_PROGRAMS="tools/perf_counter/pmu-events/test_jevents.py
	tools/perf_counter/test_callchain.py
	tools/perf_counter/test_sideband.py
	tools/perf_counter/test_export.py
	tools/perf_counter/test_offcpu.py
	tools/perf_counter/test_offcpu_fuzz.py
	harness/readme-example.py
	harness/test_report.py"

out=$BUILD/host/test
log=$out/console-host.log
mkdir -p "$out"
failed=0
{
	echo "PC-BEGIN"
	for prog in $HOST_PROGRAMS; do
		echo "PC-RUN $prog"
		(cd "$TOP" && python3 "$prog" --tap 2>&1)
		status=$?
		[ "$status" = 0 ] || failed=1
		echo "PC-EXIT $prog $status"
	done
	if [ "$failed" = 0 ]; then echo "PC-DONE ok"; else echo "PC-DONE fail"; fi
} > "$log"
echo "$log"
