#!/usr/bin/env bash
# ctest docs.snippets: checks every code block of README.md and docs/*.md.
#   ```c       compiled as its own C11 translation unit with <ampcl.h>, <stdio.h>, <stdlib.h> and
#              <string.h> included first; a block that defines main() is linked and run (exit 0;
#              77 where the program says its device lacks what it needs, e.g. images: reported)
#   ```opencl  built with ampcl (amp_program_create_from_file) on the default accelerator
#   ```cpp ```sh ```cmake ```text   not compiled
# Any other opening fence, a bare ``` included, is an error. Every error names the Markdown file
# and line: each extracted file starts with a #line directive pointing back into the document.
# A block right after a line `<!-- from PATH -->` (PATH relative to the repository) is a part of
# that file instead: it must appear in PATH verbatim, and it is compiled and run as part of PATH
# (docs/TUTORIAL.md shows examples/tutorial/ this way; ctest builds and runs those programs).
#   snippets.sh ROOT OUT CLCHECK CC [CFLAGS...] -- [LIBS...]
set -u
root=$1 out=$2 clcheck=$3 cc=$4
shift 4
cflags=() libs=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do cflags+=("$1"); shift; done
[ $# -gt 0 ] && shift
libs=("$@")
rm -rf "$out" && mkdir -p "$out"
cd "$root" || exit 1
docs=(README.md docs/*.md)

# Split every document into $out/<id>.{c,cl}, and list the fences that break the convention.
awk -v out="$out" -v root="$root" '
  FNR == 1 { if (inb) printf "%s: a code block is never closed\n", prev > (out "/bad-fences"); inb = 0; prev = FILENAME }
  !inb && /^<!-- from [^ ]+ -->$/ { from = $3; next }
  !inb && /^[ ]*```/ {
    tag = $0; sub(/^[ ]*```/, "", tag); gsub(/[ ]+$/, "", tag)
    if (tag !~ /^(c|opencl|cpp|sh|cmake|text)$/)
      printf "%s:%d: code block tagged \"%s\"; use c, opencl, cpp, sh, cmake or text\n", FILENAME, FNR, tag > (out "/bad-fences")
    inb = 1; id = FILENAME "_" FNR; gsub(/[^A-Za-z0-9]/, "_", id)
    file = ""
    if (from != "") {
      file = out "/" id ".part"
      printf "" > file
      print FILENAME ":" FNR " " from " " file > (out "/parts")
      from = ""
      next
    }
    if (tag == "c") {
      file = out "/" id ".c"
      printf "#include <ampcl.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n" > file
    } else if (tag == "opencl") file = out "/" id ".cl"
    if (file != "") {
      printf "#line %d \"%s/%s\"\n", FNR + 1, root, FILENAME > file
      print FILENAME ":" FNR " " file > (out "/blocks")
    }
    next
  }
  inb && /^[ ]*```[ ]*$/ { inb = 0; if (file != "") close(file); next }
  inb && file != "" { print > file }
  !inb && NF > 0 { from = "" }
  END { if (inb) printf "%s: a code block is never closed\n", prev > (out "/bad-fences") }
' "${docs[@]}"

failed=0
n_parts=0
while read -r where path part; do
  n_parts=$((n_parts + 1))
  if [ ! -f "$path" ]; then
    echo "$where: the block says it is from $path, which does not exist" >&2
    failed=1
  elif [[ "$(cat "$path")" != *"$(cat "$part")"* ]]; then
    echo "$where: the block is not a verbatim part of $path (copy it again from the file)" >&2
    diff <(cat "$part") "$path" | head -20 >&2
    failed=1
  fi
done < <(cat "$out/parts" 2>/dev/null)
if [ -s "$out/bad-fences" ]; then
  cat "$out/bad-fences" >&2
  failed=1
fi
n_c=0 n_run=0 n_skip=0 cl=()
while read -r where file; do
  case $file in
  *.cl) cl+=("$file") ;;
  *.c)
    n_c=$((n_c + 1))
    if grep -Eq '^int main ?\(' "$file"; then
      n_run=$((n_run + 1))
      if ! "$cc" -std=c11 "${cflags[@]}" "$file" -o "${file%.c}" "${libs[@]}"; then
        echo "$where: the \`\`\`c block does not build (errors above)" >&2
        failed=1
      else
        (cd "$out" && "${file%.c}" >"${file%.c}.out" 2>&1)
        rc=$?
        if [ $rc -eq 77 ]; then
          n_skip=$((n_skip + 1))
          cat "${file%.c}.out"
          echo "$where: the \`\`\`c program cannot run on this device (exit 77, its output above)"
        elif [ $rc -ne 0 ]; then
          cat "${file%.c}.out" >&2
          echo "$where: the \`\`\`c program exits non-zero (its output above)" >&2
          failed=1
        fi
      fi
    elif ! "$cc" -std=c11 "${cflags[@]}" -fsyntax-only "$file"; then
      echo "$where: the \`\`\`c block does not compile (errors above)" >&2
      failed=1
    fi
    ;;
  esac
done < <(cat "$out/blocks" 2>/dev/null)
if [ ${#cl[@]} -gt 0 ] && ! "$clcheck" "${cl[@]}"; then
  echo "docs.snippets: an \`\`\`opencl block does not build (the build log above names its file and line)" >&2
  failed=1
fi
echo "docs.snippets: ${#docs[@]} documents, $n_c C blocks compiled ($n_run run, $n_skip of them unable to on this device), ${#cl[@]} OpenCL blocks built, $n_parts blocks found verbatim in their files"
[ $failed -eq 0 ] || { echo "docs.snippets: FAILED" >&2; exit 1; }
