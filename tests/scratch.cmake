# include()d by the tests' scripts (cmake -P): OUT, a new folder's path under $TMPDIR or /tmp,
# named ampcl-<SCRATCH>-<random>; the script removes it when done.
set(tmp "$ENV{TMPDIR}")
if(NOT tmp)
  set(tmp /tmp)
endif()
string(RANDOM LENGTH 10 tag)
set(OUT ${tmp}/ampcl-${SCRATCH}-${tag})
