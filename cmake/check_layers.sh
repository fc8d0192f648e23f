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
# "<object>: <type> <symbol>" for every global symbol, defined and undefined, in one nm each
name() { # object path -> the source it came from, relative to runtime/
  sed -e "s|^$objdir/||" -e 's|\.o:| |' -e 's|^runtime/||' \
      -e 's|^ampcl_embedded_kernels\.c |exec/ampcl_embedded_kernels.c |'
}
nm -A -g --defined-only "${objs[@]}" | name | awk 'NF >= 3 { print $NF, $1 }' >"$defs"
nm -A -g --undefined-only "${objs[@]}" | name | awk '{ print $NF, $1 }' >"$uses"
# symbol used -> file defining it
awk 'NR == FNR { def[$1] = $2; next } ($1 in def) && def[$1] != $2 { print $2, def[$1], $1 }' \
  "$defs" "$uses" | sort -u >"$edges"
# the layer order: a file may use its own layer and those below; blas and algorithms are peers
status=0
awk 'function rank(f) { if (f ~ /^core\//) return 0; if (f ~ /^data\//) return 1
                        if (f ~ /^exec\//) return 2; if (f ~ /^(blas|algorithms)\//) return 3
                        return 9 }
     { rf = rank($1); rt = rank($2); split($1, a, "/"); split($2, b, "/")
       if (rt > rf || (rt == rf && a[1] != b[1]) || rf == 9) {
         print "layer violation: " $1 " uses " $3 " from " $2; bad = 1 } }
     END { exit bad }' "$edges" || status=1
if ! awk '{ print $1, $2 }' "$edges" | sort -u | tsort >/dev/null 2>"$edges.tsort"; then
  echo "a circle between files:"
  cat "$edges.tsort"
  status=1
fi
rm -f "$edges.tsort"
n=$(awk '{ print $1, $2 }' "$edges" | sort -u | wc -l)
[ $status -eq 0 ] && echo "check_layers: ${#objs[@]} files, $n file-to-file uses, layers kept, no circle"
exit $status
