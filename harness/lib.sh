# SPDX-License-Identifier: GPL-2.0
# Shared settings for the build and test harness. Sourced, not run.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
SRC=$BUILD/src/linux
TARBALL=${TARBALL:-/usr/src/linux-source-6.1.tar.xz}
JOBS=${JOBS:-$(nproc)}

export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/perf_counter-ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
# Paths under the build tree hash as relative: clones share the cache.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$BUILD}
# Reproducible version strings keep ccache hits across builds.
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2009'
export KBUILD_BUILD_USER=perf_counter
export KBUILD_BUILD_HOST=build

step() { printf '\n==> [%s] %s\n' "$(date +%H:%M:%S)" "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Our tree as laid over the kernel source: the top-level directories
# that hold our files, the directories that are wholly ours (mirrored,
# so a file removed here is removed there too) and our files in the
# base tree's own directories.
OVERLAY_DIRS="include kernel arch tools samples Documentation"
OWN_DIRS="kernel/perf_counter arch/x86/perf_counter arch/powerpc/perf_counter
	tools/perf_counter samples/perf_counter
	tools/testing/selftests/perf_counter Documentation/perf_counter"
OWN_FILES="include/linux/perf_counter.h include/linux/perf_counter_hw.h
	include/linux/perf_counter_chain.h
	include/uapi/linux/perf_counter.h include/trace/perf_counter.h
	Documentation/userspace-api/perf_counter.rst
	Documentation/admin-guide/perf/perf_counter-x86.rst
	Documentation/admin-guide/perf/perf_counter-powerpc.rst
	Documentation/ABI/testing/sysfs-module-perf_counter"
