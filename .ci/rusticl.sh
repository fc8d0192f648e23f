#!/usr/bin/env bash
# Sets up Mesa's rusticl on llvmpipe (a CPU rasterizer's compute path) as a third OpenCL
# implementation to test on, without changing the system: Debian's mesa-opencl-icd and the
# packages it needs that are not installed are fetched with `apt-get download` and unpacked with
# `dpkg -x` into a project-local folder (default .rusticl/, git-ignored), with an ICD folder that
# names its driver. Nothing is installed; the library does not depend on it.
#
#   bash .ci/rusticl.sh              # download (once) and unpack
#   . .rusticl/env.sh                # this shell then sees rusticl's llvmpipe device only
#
# rusticl opens libclc's SPIR-V at /usr/lib/clc/spirv64-mesa3d-.spv, a path compiled into it
# (Mesa 22.3's src/compiler/clc/nir_load_libclc.c: open() of DYNAMIC_LIBCLC_PATH, no environment
# variable). Rather than install libclc-15 into /usr/lib/clc, env.sh preloads a small shim
# (.ci/rusticl_libclc.c, built here) that turns an open() under /usr/lib/clc/ into one under the
# unpacked copy. The versions are pinned: a new driver is a change to review.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=${AMP_RUSTICL_DIR:-$PWD/.rusticl}
mesa=22.3.6-1+deb12u2
# What mesa-opencl-icd needs beyond Debian 12's base, with the versions its Depends accept; each
# is fetched only when it is not installed (ldd below checks that nothing else is missing).
pinned=("mesa-opencl-icd=$mesa" "libclc-15=1:15.0.6-4" "libllvmspirvlib15=15.0.0-2"
  "libclang-cpp15=1:15.0.6-4+b1" "libllvm15=1:15.0.6-4+b1" "libdrm-amdgpu1=2.4.114-1+b1"
  "libdrm-nouveau2=2.4.114-1+b1" "libdrm-radeon1=2.4.114-1+b1" "libdrm2=2.4.114-1+b1"
  "libsensors5=1:3.6.0-7.1" "libelf1=0.188-2.1")
stamp="# mesa-opencl-icd $mesa, $(cat .ci/rusticl.sh .ci/rusticl_libclc.c | sha1sum | cut -c1-12)"

if [ -f "$dest/env.sh" ] && grep -qxF "$stamp" "$dest/env.sh"; then
  echo "rusticl: Mesa's rusticl $mesa is ready in $dest"
  exit 0
fi
command -v apt-get > /dev/null && command -v dpkg > /dev/null || {
  echo "rusticl: needs apt-get and dpkg (Debian 12) to fetch mesa-opencl-icd" >&2
  exit 1
}

rm -rf "$dest"
mkdir -p "$dest/debs" "$dest/root" "$dest/vendors"
want=()
for p in "${pinned[@]}"; do
  name=${p%%=*}
  if [ "$name" = mesa-opencl-icd ] || [ "$name" = libclc-15 ] ||
    ! dpkg-query -W -f='${Status}' "$name" 2> /dev/null | grep -q "install ok installed"; then
    want+=("$p")
  fi
done
echo "rusticl: downloading ${want[*]}"
# apt-get download writes into the current folder; it runs as the calling user (as root it warns
# that the download is unsandboxed, which is harmless here).
if ! (cd "$dest/debs" && apt-get download -q "${want[@]}" 2> "$dest/apt.log"); then
  cat "$dest/apt.log" >&2
  echo "rusticl: apt-get download failed. If a pinned version is gone from the mirror (a Debian" >&2
  echo "point release replaces it), 'apt-cache policy mesa-opencl-icd' shows the current one:" >&2
  echo "update the pins in .ci/rusticl.sh; if the package lists are stale, run apt-get update." >&2
  exit 1
fi
for deb in "$dest"/debs/*.deb; do dpkg -x "$deb" "$dest/root"; done
rm -rf "$dest/debs"
# Only rusticl, its libraries and libclc's SPIR-V are used: clover (libMesaOpenCL), the GPU
# pipe drivers, libclc's bitcode for GPU targets and the packages' documentation are left out.
rm -rf "$dest/root/etc" "$dest/root/usr/share" "$dest/root/usr/lib/x86_64-linux-gnu/gallium-pipe"
rm -f "$dest"/root/usr/lib/x86_64-linux-gnu/libMesaOpenCL.so*
find "$dest/root/usr/lib/clc" -mindepth 1 ! -name 'spirv*-mesa3d-.spv' -delete

lib="$dest/root/usr/lib/x86_64-linux-gnu"
driver="$lib/libRusticlOpenCL.so.1"
test -e "$driver" && test -f "$dest/root/usr/lib/clc/spirv64-mesa3d-.spv" || {
  echo "rusticl: libRusticlOpenCL.so.1 or libclc's spirv64-mesa3d-.spv is not in the packages" >&2
  exit 1
}
missing=$(LD_LIBRARY_PATH="$lib" ldd "$driver" | grep "not found" || true)
[ -z "$missing" ] || {
  echo "rusticl: libRusticlOpenCL.so.1 needs libraries that are neither installed nor fetched:" >&2
  echo "$missing" >&2
  exit 1
}
${CC:-cc} -shared -fPIC -O2 -Wall -Wextra -Werror -o "$dest/libclc-path.so" .ci/rusticl_libclc.c -ldl
echo "$driver" > "$dest/vendors/rusticl.icd"

cat > "$dest/env.sh" << EOF
$stamp
# Source this file to make the OpenCL loader see Mesa's rusticl alone, on llvmpipe.
export OCL_ICD_VENDORS="$dest/vendors"
export RUSTICL_ENABLE=llvmpipe
# The libraries fetched because they are not installed (libLLVMSPIRVLib.so.15 on Debian 12).
export LD_LIBRARY_PATH="$lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
# libclc where rusticl looks for it, /usr/lib/clc/, is read from the unpacked copy instead.
export AMP_RUSTICL_CLC_DIR="$dest/root/usr/lib/clc"
export LD_PRELOAD="$dest/libclc-path.so\${LD_PRELOAD:+:\$LD_PRELOAD}"
# Mesa's compiled-kernel cache in the folder too, not in ~/.cache/mesa_shader_cache.
export MESA_SHADER_CACHE_DIR="$dest/cache"
EOF
echo "rusticl: Mesa's rusticl $mesa unpacked into $dest ($(du -sh "$dest/root" | cut -f1))"
