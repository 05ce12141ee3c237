#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unpack Debian's linux-source-6.1 once, lay our tree over it and apply
# the glue patches. The tarball keeps the files' own mtimes, so a fresh
# unpack does not make kbuild rebuild files we did not change.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -f "$TARBALL" ] || die "$TARBALL missing: run 'make deps'"

stamp=$BUILD/src/.patched
want=$( { sha1sum "$TARBALL" | cut -c1-40; cat "$TOP"/patches/*.patch; } |
	sha1sum | cut -c1-40)

if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	step "unpacking $(basename "$TARBALL")"
	rm -rf "$BUILD/src"
	mkdir -p "$BUILD/src"
	tar -xJf "$TARBALL" -C "$BUILD/src"
	mv "$BUILD"/src/linux-source-* "$SRC"
	for p in "$TOP"/patches/*.patch; do
		step "applying $(basename "$p")"
		# Debian moves the point release on: allow fuzz, never rejects.
		if ! patch -d "$SRC" -p1 --fuzz=3 --no-backup-if-mismatch \
			-r - -s < "$p"; then
			die "$(basename "$p") does not apply to this 6.1"
		fi
	done
	echo "$want" > "$stamp"
fi

# Lay our tree over it; rsync copies only what changed, keeping mtimes.
for d in $OVERLAY_DIRS; do
	[ -d "$TOP/$d" ] && rsync -rt "$TOP/$d/" "$SRC/$d/"
done
exit 0
