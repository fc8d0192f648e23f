#!/usr/bin/env bash
# Sets up Intel's CPU OpenCL runtime as a second OpenCL implementation to test on, without
# touching the system: the wheels Intel publishes on the Python package index are downloaded
# and unpacked into a project-local folder (default .intel-ocl/, git-ignored), with an ICD folder
# that names its driver. Nothing is installed system-wide; the library does not depend on it.
#
#   bash .ci/intel-cpu.sh            # download (once) and unpack
#   . .intel-ocl/env.sh              # this shell then sees Intel's runtime only
#   . .intel-ocl/env-both.sh         # ... or Intel's runtime beside the system's drivers (POCL)
#
# The versions are pinned: a new runtime is a change to review, not something CI picks up.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=${AMP_INTEL_OCL_DIR:-$PWD/.intel-ocl}
version=2026.2.0
wheels=("intel-opencl-rt==$version" "intel-cmplr-lib-rt==$version" "tbb==2023.2.0")

if [ -f "$dest/env.sh" ] && grep -qx "# intel-opencl-rt $version" "$dest/env.sh"; then
  echo "intel-cpu: Intel's CPU OpenCL runtime $version is ready in $dest"
  exit 0
fi

python3 -m pip --version > /dev/null 2>&1 || {
  echo "intel-cpu: needs python3 with pip (Debian: python3-pip) to fetch the wheels" >&2
  exit 1
}
rm -rf "$dest"
mkdir -p "$dest/wheels" "$dest/lib" "$dest/vendors" "$dest/vendors-both"
echo "intel-cpu: downloading ${wheels[*]}"
python3 -m pip download -q --no-deps --only-binary=:all: --platform manylinux_2_28_x86_64 \
  --python-version 3 -d "$dest/wheels" "${wheels[@]}"

# Every wheel's lib folder into one folder: libintelocl.so finds its neighbours (TBB, the
# compiler runtime) through its RUNPATH, $ORIGIN, so no LD_LIBRARY_PATH is needed. The wheel's
# own ICD loader (libOpenCL.so*) is left out: programs keep using the system's loader.
python3 - "$dest" << 'EOF'
import os, shutil, sys, zipfile, glob
dest = sys.argv[1]
for whl in glob.glob(os.path.join(dest, "wheels", "*.whl")):
    with zipfile.ZipFile(whl) as z:
        for info in z.infolist():
            parts = info.filename.split("/")
            if len(parts) < 4 or parts[1:3] != ["data", "lib"] or info.is_dir():
                continue
            name = parts[-1]
            if name.startswith("libOpenCL.so"):
                continue
            target = os.path.join(dest, "lib", name)
            with z.open(info) as src, open(target, "wb") as out:
                shutil.copyfileobj(src, out)
            os.chmod(target, 0o755 if ".so" in name else 0o644)
EOF
rm -rf "$dest/wheels"
test -f "$dest/lib/libintelocl.so" || {
  echo "intel-cpu: libintelocl.so is not in the wheels any more" >&2
  exit 1
}
echo "$dest/lib/libintelocl.so" > "$dest/vendors/intel-cpu.icd"
cp "$dest/vendors/intel-cpu.icd" "$dest/vendors-both/"
for icd in /etc/OpenCL/vendors/*.icd; do
  [ -e "$icd" ] && cp "$icd" "$dest/vendors-both/"
done

cat > "$dest/env.sh" << EOF
# intel-opencl-rt $version
# Source this file to make the OpenCL loader see Intel's CPU runtime alone.
export OCL_ICD_VENDORS="$dest/vendors"
EOF
cat > "$dest/env-both.sh" << EOF
# Source this file to make the OpenCL loader see Intel's CPU runtime beside the drivers
# installed on the system (/etc/OpenCL/vendors, e.g. POCL).
export OCL_ICD_VENDORS="$dest/vendors-both"
EOF
echo "intel-cpu: Intel's CPU OpenCL runtime $version unpacked into $dest ($(du -sh "$dest/lib" | cut -f1))"
