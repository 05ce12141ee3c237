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

# Lay our tree over it. rsync compares contents and copies only what
# changed, stamped now: an unchanged file keeps its time, so kbuild
# rebuilds nothing for it, and a changed one is newer than anything
# built before, even when it was edited while a build ran (a copy
# keeping the edit's own time could be older than the objects, and a
# Kconfig older than the configuration it should redo).
# Our own directories are mirrored (a test removed or renamed here
# cannot go on running from build/); every file of ours must be in one
# of them or named in OWN_FILES.
for d in $OVERLAY_DIRS; do
	[ -d "$TOP/$d" ] || continue
	while IFS= read -r f; do
		f=${f#"$TOP"/}
		ok=
		for o in $OWN_DIRS $OWN_FILES; do
			case $f in "$o" | "$o"/*) ok=1; break ;; esac
		done
		[ -n "$ok" ] || die "$f is not in OWN_DIRS or OWN_FILES (harness/lib.sh)"
	done < <(find "$TOP/$d" -type f)
done
for d in $OWN_DIRS; do
	mkdir -p "$SRC/$d"
	rsync -r --checksum --delete "$TOP/$d/" "$SRC/$d/"
done
for f in $OWN_FILES; do
	rsync --checksum "$TOP/$f" "$SRC/$f"
done
exit 0
