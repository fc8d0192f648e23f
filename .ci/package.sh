#!/usr/bin/env bash
# The Debian packages, built and used as a user would, without touching the system: builds ampcl
# as Debian wants it (shared library, prefix /usr, no tests), makes ampcl_*.deb and ampcl-dev_*.deb
# with CPack (cmake/packaging.cmake), unpacks both into a scratch root (dpkg -x: no root, no
# dpkg database), runs the packaged amp-info from there, and builds the out-of-tree consumer
# (tests/package/consumer) against that root twice, with find_package(ampcl) and with pkg-config
# and the packaged scripts (embedding, its typed launcher, the kernel check where clang is),
# running each. Needs cmake, dpkg-dev (dpkg-shlibdeps), pkg-config and a C compiler; .ci/deps.sh
# installs them. The .deb files stay in build-pkg/packages/.
#   bash .ci/package.sh [build dir, default build-pkg]
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build-pkg}
jobs=$(nproc)
export POCL_CACHE_DIR="$PWD/$B/pocl-cache"

echo "== configure and build for packaging ($B)"
# AMP_BENCH_OPENMP=OFF: those columns are built -march=native, which a package must not be.
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON -DCMAKE_INSTALL_PREFIX=/usr \
  -DAMP_BUILD_TESTS=OFF -DAMP_BUILD_LAB=OFF -DAMP_BENCH_OPENMP=OFF >/dev/null
cmake --build "$B" -j"$jobs" >/dev/null

echo "== cpack -G DEB"
rm -rf "$B/packages"
(cd "$B" && cpack -G DEB >/dev/null)
shopt -s nullglob
debs=("$B"/packages/*.deb)
if [ ${#debs[@]} -ne 2 ]; then
  echo "package.sh: expected two packages in $B/packages, found ${#debs[@]}" >&2
  exit 1
fi
for d in "${debs[@]}"; do
  echo "-- $(basename "$d"): $(dpkg-deb -f "$d" Package) $(dpkg-deb -f "$d" Version)"
  dpkg-deb -f "$d" Depends Recommends | sed 's/^/   /'
done

root=$(mktemp -d "${TMPDIR:-/tmp}/ampcl-debroot.XXXXXX")
trap 'rm -rf "$root"' EXIT
echo "== unpack into $root (dpkg -x)"
for d in "${debs[@]}"; do
  dpkg -x "$d" "$root"
done
libdir=$(dirname "$(find "$root/usr/lib" -name 'libampcl.so.*' -print -quit)")
pcdir="$libdir/pkgconfig"
for f in "$root/usr/bin/amp-info" "$libdir/libampcl.so" "$root/usr/include/ampcl.h" \
  "$pcdir/ampcl.pc" "$libdir/cmake/ampcl/ampclConfig.cmake" "$libdir/cmake/ampcl/ampclEmbed.cmake" \
  "$libdir/cmake/ampcl/ampclLaunchers.cmake" "$root/usr/include/ampcl/kernels/ampcl_prelude.h"; do
  [ -e "$f" ] || { echo "package.sh: $f is not in the packages" >&2; exit 1; }
done
# Which package holds what: the runtime no headers, the -dev package no programs.
if dpkg-deb -c "$B"/packages/ampcl-dev_*.deb | grep -q '/usr/bin/'; then
  echo "package.sh: ampcl-dev holds programs" >&2; exit 1
fi
if dpkg-deb -c "$B"/packages/ampcl_*.deb | grep -qE '\.h$|\.pc$|libampcl\.so$'; then
  echo "package.sh: the runtime package holds development files" >&2; exit 1
fi
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

echo "== the packaged amp-info"
"$root/usr/bin/amp-info" | head -n 5

echo "== the consumer with find_package(ampcl) (CMAKE_PREFIX_PATH=$root/usr)"
cmake -S tests/package/consumer -B "$root/consumer-cmake" -DCMAKE_PREFIX_PATH="$root/usr" >/dev/null
cmake --build "$root/consumer-cmake" >/dev/null
"$root/consumer-cmake/consumer"

echo "== the consumer with pkg-config (PKG_CONFIG_PATH=$pcdir)"
export PKG_CONFIG_PATH="$pcdir"
script=$(pkg-config --variable=embed_script ampcl)
mkdir -p "$root/consumer-pc"
cmake -DIN=tests/package/consumer/square.cl -DOUT="$root/consumer-pc/square_cl.h" \
  -DNAME=square_cl -P "$script"
cmake -DIN=tests/package/consumer/square.cl -DOUT="$root/consumer-pc/square_launch.h" \
  -P "$(pkg-config --variable=launchers_script ampcl)"
if command -v clang >/dev/null; then
  cmake -DAMPCL_CHECK=tests/package/consumer/square.cl -DCOMPILER=clang \
    -DPRELUDE="$(pkg-config --variable=prelude_dir ampcl)" -P "$script"
fi
# shellcheck disable=SC2046 # pkg-config's flags are meant to split
cc tests/package/consumer/main.c -I"$root/consumer-pc" $(pkg-config --cflags --libs ampcl) \
  -o "$root/consumer-pc/consumer"
"$root/consumer-pc/consumer"
echo "== packages ok: ${debs[*]}"
