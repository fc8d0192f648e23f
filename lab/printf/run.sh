#!/bin/bash
# lab/printf/run.sh BIN: printf_probe on N = 1000 and 200000 work items, per implementation whose
# env is sourced by the caller; prints lines seen, their position against the markers and order.
for n in 1000 200000; do
  "$1" $n > out.$n.txt 2>&1
  grep '^@' out.$n.txt | tr '\n' ' '
  items=$(grep -c '^item' out.$n.txt)
  before=$(awk '/^@ENQUEUED/{exit} /^item/{c++} END{print c+0}' out.$n.txt)
  after=$(awk '/^@FINISHED/{f=1} f&&/^item/{c++} END{print c+0}' out.$n.txt)
  sorted=$(grep '^item' out.$n.txt | awk '{print $2}' | sort -n -c 2>/dev/null && echo ascending || echo unordered)
  echo "N=$n lines=$items before-enqueued=$before after-finished=$after order=$sorted"
done
