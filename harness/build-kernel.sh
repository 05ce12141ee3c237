#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build one target's kernel out of tree: tinyconfig plus our fragments.
# Usage: build-kernel.sh TARGET   (fragments: configs/TARGET.config)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

target=$1
frag=$TOP/configs/$target.config
[ -f "$frag" ] || die "no config fragment for target '$target'"
. "$TOP/configs/$target.env"

out=$BUILD/$target/kernel
mkdir -p "$out"
kmake() {
	make -s -C "$SRC" O="$out" ARCH="$KARCH" \
		CROSS_COMPILE="${CROSS_COMPILE:-}" \
		CC="ccache ${CROSS_COMPILE:-}gcc" HOSTCC="ccache gcc" "$@"
}

# A flavour (say x86_64-bench) names its base target in BASE_TARGET and
# adds its own fragment last: later fragments win.
frags="$TOP/configs/common.config"
[ -n "${BASE_TARGET:-}" ] && frags="$frags $TOP/configs/$BASE_TARGET.config"
frags="$frags $frag"
want=$(cat $frags | sha1sum | cut -c1-40)
if [ "$(cat "$out/.config-stamp" 2>/dev/null)" != "$want" ] ||
   [ ! -f "$out/.config" ]; then
	step "configuring $target (tinyconfig + $(basename "$frag"))"
	kmake tinyconfig >/dev/null
	# shellcheck disable=SC2086
	KCONFIG_CONFIG=$out/.config "$SRC/scripts/kconfig/merge_config.sh" \
		-m -O "$out" "$out/.config" $frags >/dev/null
	kmake olddefconfig >/dev/null
	# Every option the fragments ask for (the last word on each) must
	# have landed.
	# shellcheck disable=SC2086
	python3 "$TOP/harness/check-config.py" "$out/.config" $frags ||
		die "configuration for $target is incomplete"
	echo "$want" > "$out/.config-stamp"
fi

step "building $target kernel ($KIMAGE, $JOBS jobs)"
kmake -j"$JOBS" "$KIMAGE_TARGET" &
build=$!
# A heartbeat every 30 s, so a cold build is not a silent one.
ticks=0
while kill -0 "$build" 2>/dev/null; do
	sleep 1
	ticks=$((ticks + 1))
	if [ $((ticks % 30)) -eq 0 ] && kill -0 "$build" 2>/dev/null; then
		printf '    ... %s: %s objects so far, %d s\n' "$target" \
			"$(find "$out" -name '*.o' | wc -l)" "$ticks"
	fi
done
wait "$build"
kmake headers_install INSTALL_HDR_PATH="$BUILD/$target/headers" >/dev/null
step "$target kernel ready: $out/$KIMAGE"
