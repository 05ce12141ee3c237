#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build our documentation with the kernel's own "make htmldocs" and fail
# on any warning that names one of our files.
#
# SPHINXDIRS in 6.1 builds each directory given as a book of its own
# (any directory under Documentation/ works, not only the top-level
# ones listed by "make help"), so the books holding our files are built
# alone: perf_counter, userspace-api and admin-guide, the last two with
# the parts that hold nothing of ours left out (exclude_patterns), which
# keeps the build near a minute. Cross-book references then cannot
# resolve inside the build: automarkup leaves a Documentation/ path as
# text, and get_abi.pl's :doc: links from the ABI file are reported as
# unknown documents. Both are checked here instead: every Documentation/
# path our documents name must exist in the tree.
#
# Then scripts/kernel-doc -none on every C source and header of ours.
#
# Output: build/docs/ (HTML in build/docs/Documentation/output/, the
# whole Sphinx log in build/docs/sphinx.log). Prints the warnings that
# name our files and ends with "PC-DOCS ok" or "PC-DOCS fail: ...".
# Exit status 1 on any failure. Needs "make src" first.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

out=$BUILD/docs
log=$out/sphinx.log
mkdir -p "$out"
start=$(date +%s)
fail=0

say() { printf 'docs: %s\n' "$*"; }
bad() { say "$*"; fail=$((fail + 1)); }

[ -f "$SRC/Makefile" ] || { bad "$SRC missing: run 'make src'"; }
command -v sphinx-build >/dev/null ||
	bad "sphinx-build missing: run 'make deps' (python3-sphinx)"
if [ "$fail" -ne 0 ]; then
	echo "PC-DOCS fail: cannot build"
	exit 1
fi

# Our files, as paths relative to the kernel tree, for matching the
# warnings Sphinx and kernel-doc print (they print absolute paths).
ours='Documentation/perf_counter/|Documentation/userspace-api/perf_counter\.rst|Documentation/admin-guide/perf/perf_counter-[a-z0-9]*\.rst|Documentation/ABI/testing/sysfs-module-perf_counter|kernel/perf_counter/|arch/[a-z0-9]*/perf_counter/|include/linux/perf_counter|include/uapi/linux/perf_counter|samples/perf_counter/'

# What of each book to leave out: everything of admin-guide but its
# index, the ABI pages our file appears in, the boot parameters and
# perf/; userspace-api's media book (two thirds of its build time).
exclude_admin=output
for d in "$SRC"/Documentation/admin-guide/*/; do
	d=$(basename "$d")
	[ "$d" = perf ] || exclude_admin="$exclude_admin,$d"
done
for f in "$SRC"/Documentation/admin-guide/*.rst; do
	f=$(basename "$f" .rst)
	case $f in
	index | abi | abi-testing | kernel-parameters) ;;
	*) exclude_admin="$exclude_admin,$f" ;;
	esac
done

: > "$log"
for book in perf_counter userspace-api admin-guide; do
	case $book in
	userspace-api) ex=output,media ;;
	admin-guide) ex=$exclude_admin ;;
	*) ex=output ;;
	esac
	step "htmldocs: $book"
	# One book at a time: SPHINXOPTS differs between them. Not under
	# our make's flags: its command-line variables (TARGETS=... of a
	# narrowed make test) would reach the kernel's make as targets.
	if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -C "$SRC" O="$out" SPHINXDIRS="$book" \
		SPHINXOPTS="-D exclude_patterns=$ex" htmldocs >>"$log" 2>&1; then
		bad "make htmldocs SPHINXDIRS=$book failed (see $log)"
	fi
done

# Sphinx's complaints about our files. A link from the ABI file to a
# document of another book is unknown to a one-book build: it is kept
# out here if the document exists (checked below with the rest).
warnings=$(grep -E '(WARNING|ERROR|SEVERE|CRITICAL):' "$log" |
	grep -E "$ours" |
	while IFS= read -r line; do
		doc=$(printf '%s\n' "$line" |
			sed -n "s,.*sysfs-module-perf_counter:[0-9]*: WARNING: unknown document: '/\\(.*\\)',\\1,p")
		if [ -n "$doc" ] && [ -f "$SRC/Documentation/$doc.rst" ]; then
			continue
		fi
		printf '%s\n' "${line//$SRC\//}"
	done)
if [ -n "$warnings" ]; then
	printf '%s\n' "$warnings"
	bad "$(printf '%s\n' "$warnings" | wc -l) Sphinx warnings name our files"
fi

# Every Documentation/ path our documents name must exist, but those
# in literal text (``...``), which name other trees' files.
docs=$(cd "$TOP" && find Documentation -type f | sort)
for f in $docs; do
	for ref in $(sed 's/``[^`]*``//g' "$TOP/$f" |
			grep -oE 'Documentation/[A-Za-z0-9_./-]*[A-Za-z0-9_-]' |
			sort -u); do
		[ -e "$SRC/$ref" ] || bad "$f names $ref, which does not exist"
	done
done

# kernel-doc on every C source and header of ours.
srcs=$(cd "$SRC" && find kernel/perf_counter arch/*/perf_counter \
	include/linux/perf_counter.h include/linux/perf_counter_hw.h \
	include/uapi/linux/perf_counter.h -name '*.[ch]' | sort)
for f in $srcs; do
	msgs=$(cd "$SRC" && scripts/kernel-doc -none "$f" 2>&1)
	if [ -n "$msgs" ]; then
		printf '%s\n' "$msgs"
		bad "scripts/kernel-doc -none $f is not clean"
	fi
done

say "$(($(date +%s) - start)) s; HTML in $out/Documentation/output/"
if [ "$fail" -ne 0 ]; then
	echo "PC-DOCS fail: $fail problems"
	exit 1
fi
echo "PC-DOCS ok"
