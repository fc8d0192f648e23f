#!/usr/bin/env bash
# Installs what ampcl needs from Debian's packages, if anything is missing. Runs apt-get as root
# (through sudo when not root). Safe to run again: it installs nothing when all is there.
set -euo pipefail
pkgs=(build-essential cmake pkg-config
      ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd clinfo
      libclblast-dev libopenblas-dev libpng-dev gnuplot-nox clang-format git
      libopenmpi-dev openmpi-bin libsdl2-dev xvfb xauth oclgrind python3 python3-pip clang libclang-rt-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: everything is installed"
  exit 0
fi
echo "deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
