#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install what the build and the tests need, by Debian package name.
# Idempotent: packages already installed are not touched.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

PKGS="linux-source-6.1 gcc gcc-multilib make flex bison bc libelf-dev
      libssl-dev cpio ccache rsync xz-utils patch perl python3
      qemu-system-x86"

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
