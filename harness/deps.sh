#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install what the build and the tests need, by Debian package name.
# Idempotent: packages already installed are not touched.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# The 32-bit test programs are built with Debian's cross compilers
# (gcc-multilib conflicts with every gcc-*-linux-gnu cross package).
# checkpolicy compiles the SELinux policy lsm_test loads; sparse checks
# our kernel code (harness/sparse.sh). protobuf-compiler decodes the
# pprof files report writes and chromium opens its flame graphs
# (tools/perf_counter/test_export.py).
PKGS="linux-source-6.1 gcc make flex bison bc libelf-dev libssl-dev cpio
      ccache rsync xz-utils patch perl python3 qemu-system-x86
      gcc-i686-linux-gnu libc6-dev-i386-cross
      gcc-powerpc-linux-gnu libc6-dev-powerpc-cross qemu-system-ppc
      gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross
      mandoc python3-sphinx python3-sphinx-rtd-theme checkpolicy sparse
      protobuf-compiler chromium"

missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

step "installing:$missing"
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
