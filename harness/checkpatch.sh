#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the base tree's checkpatch.pl on our C sources and headers.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

cd "$TOP" || exit 1
files=$(git ls-files --cached --others --exclude-standard 'kernel/*.[ch]' 'include/*.h' 'arch/*.[ch]' \
	'tools/*.[ch]' 'samples/*.c' 'demo/*.c' 'bench/*.c' 'harness/*.c')
# shellcheck disable=SC2086
perl "$SRC/scripts/checkpatch.pl" --no-tree --terse --show-types \
	-f $files
