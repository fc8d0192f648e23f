#!/bin/sh
# bench/plot.sh DIR: makes the PNGs of an `amp-bench --plots DIR` run again, from the .dat data and
# .gp scripts amp-bench wrote there. Use it where amp-bench ran without gnuplot (a GPU box):
# copy DIR here and run   bench/plot.sh DIR
set -eu
if [ $# -ne 1 ] || [ ! -d "$1" ]; then
  echo "usage: $0 DIR   (a directory written by amp-bench --plots DIR)" >&2
  exit 2
fi
if ! command -v gnuplot >/dev/null 2>&1; then
  echo "$0: gnuplot not found (Debian: apt-get install gnuplot-nox)" >&2
  exit 1
fi
cd "$1"
found=0
for gp in *.gp; do
  [ -e "$gp" ] || continue
  echo "gnuplot $1/$gp"
  gnuplot "$gp"
  found=1
done
if [ "$found" = 0 ]; then
  echo "$0: no .gp scripts in $1" >&2
  exit 1
fi
ls -1 ./*.png
