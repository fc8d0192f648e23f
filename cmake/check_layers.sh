#!/usr/bin/env bash
# Checks runtime/'s layering from the library's object files: which file calls (or reads) a symbol
# that which other file defines. A file may use its own layer and those below it:
#
#   core  <-  data  <-  exec  <-  blas, algorithms   (blas and algorithms do not use each other)
#
# and no two files may use each other through any chain (a circle). The generated file of
# embedded kernels counts as part of exec.
#   check_layers.sh OBJDIR    (OBJDIR: <build>/CMakeFiles/ampcl.dir)
set -euo pipefail
objdir=${1:?usage: check_layers.sh OBJDIR}
mapfile -t objs < <(find "$objdir" -name '*.o' | sort)
[ ${#objs[@]} -gt 0 ] || { echo "check_layers: no object files under $objdir" >&2; exit 1; }
defs=$(mktemp) uses=$(mktemp) edges=$(mktemp)
trap 'rm -f "$defs" "$uses" "$edges"' EXIT
for o in "${objs[@]}"; do
  f=${o#"$objdir"/}
  f=${f%.o}
  f=${f#runtime/}
  case $f in ampcl_embedded_kernels.c) f=exec/ampcl_embedded_kernels.c ;; esac
  nm -g --defined-only "$o" | awk -v f="$f" 'NF == 3 { print $3, f }' >>"$defs"
  nm -g --undefined-only "$o" | awk -v f="$f" '{ print $NF, f }' >>"$uses"
done
# symbol used -> file defining it
awk 'NR == FNR { def[$1] = $2; next } ($1 in def) && def[$1] != $2 { print $2, def[$1], $1 }' \
  "$defs" "$uses" | sort -u >"$edges"
status=0
rank() { case $1 in core/*) echo 0 ;; data/*) echo 1 ;; exec/*) echo 2 ;; blas/* | algorithms/*) echo 3 ;; *) echo 9 ;; esac; }
while read -r from to sym; do
  rf=$(rank "$from") rt=$(rank "$to")
  if [ "$rt" -gt "$rf" ] || { [ "$rt" -eq "$rf" ] && [ "${from%%/*}" != "${to%%/*}" ]; } || [ "$rf" -eq 9 ]; then
    echo "layer violation: $from uses $sym from $to"
    status=1
  fi
done <"$edges"
if ! awk '{ print $1, $2 }' "$edges" | sort -u | tsort >/dev/null 2>"$edges.tsort"; then
  echo "a circle between files:"
  cat "$edges.tsort"
  status=1
fi
rm -f "$edges.tsort"
n=$(awk '{ print $1, $2 }' "$edges" | sort -u | wc -l)
[ $status -eq 0 ] && echo "check_layers: ${#objs[@]} files, $n file-to-file uses, layers kept, no circle"
exit $status
