#!/usr/bin/env bash
# Checks that no code in runtime/ decides a capability from a platform's, vendor's or device's
# name: capabilities come from the device's answers or a measurement (docs/IMPLEMENTATIONS.md,
# "Capabilities are measured"). A name may only pick a preference or a tuned shape; such a line,
# or the line above it, carries the comment `name picks a preference`. Fails naming each other
# line that compares one.
#   check_no_vendor_names.sh [ROOT]
set -euo pipefail
root=${1:-$(dirname "$0")/..}
pattern='(strstr|strcmp|strncmp|strcasecmp)\([^;]*(platform_name|props\.vendor|props\.name|CL_PLATFORM_NAME|CL_DEVICE_VENDOR|"NVIDIA|"Intel|"Portable Computing|"AMD|"Mesa|rusticl|pocl)'
hits=$(find "$root/runtime" -name '*.[ch]' -print0 | xargs -0 awk -v pat="$pattern" '
  FNR == 1 { prev = "" }
  $0 ~ pat && $0 !~ /name picks a preference/ && prev !~ /name picks a preference/ {
    print FILENAME ":" FNR ": " $0 }
  { prev = $0 }')
if [ -n "$hits" ]; then
  echo "check_no_vendor_names: runtime/ compares a platform, vendor or device name:" >&2
  echo "$hits" >&2
  echo "measure the capability instead (or mark a preference with 'name picks a preference')" >&2
  exit 1
fi
echo "check_no_vendor_names: no capability decided by a name in runtime/"
