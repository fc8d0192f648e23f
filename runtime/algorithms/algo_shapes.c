/* runtime/algorithms/algo_shapes.c: the table of the algorithms' launch shapes, per kernel path
 * and device class (algo_shapes.h says what each field means). Why each shape won is measured in
 * lab/NOTEBOOK.md; docs/ALGORITHMS.md ("Tile shapes") has the fallbacks.
 *
 * GPU rows: tiles of 256 threads for most paths, 4 elements a thread for the grid-stride kernels
 * (reduce, histogram) and the multi-pass sort; the single-pass scan 128 threads x 32 elements;
 * the onesweep sort's warp pass 20 keys a thread (16 with values) and its portable pass 16 (12),
 * the fastest of 13 shapes on an H200 and of 8, 12 and 16 on an H100; copy_if's warp path
 * 128 x 24 and unique's 256 x 24, the portable path 256 x 16 (lab/NOTEBOOK.md, 2026-11-27). CPU
 * rows: the CPU kernels (a few threads per core, each a long contiguous run: at least 16384
 * elements), and the GPU kernels that run on CPU devices by default, in the GPU's shapes. */
#include "algorithms/algo_shapes.h"

#include "core/accelerator_impl.h"

#define GPU_AND_CPU(...)                                                                           \
  {                                                                                                \
    [AMP__ALGO_GPU] = {__VA_ARGS__}, [AMP__ALGO_CPU] = { __VA_ARGS__ }                             \
  }

/* {tile, least, per, most, across, per_cu}. Only what the host passes to the kernels (build
 * options, launch shapes) is here: the three-pass scan's 16 elements and the multi-pass sort's 4
 * keys a thread, and the tile_static stencil's 32 threads across, are the kernels' own (scan.cl,
 * sort.cl, stencil.cl). */
const amp__algo_shape amp__algo_shapes[AMP__SHAPE_NPATHS][AMP__ALGO_NCLASSES] = {
    [AMP__SHAPE_REDUCE] = {[AMP__ALGO_GPU] = {256, 32, 4, 4096, 0, 0}},
    [AMP__SHAPE_REDUCE_CPU] = {[AMP__ALGO_CPU] = {1, 1, 16384, 4096, 0, 4}},
    [AMP__SHAPE_SCAN_ONE] = {[AMP__ALGO_GPU] = {128, 32, 32, 0, 0, 0}},
    [AMP__SHAPE_SCAN_THREE] = {[AMP__ALGO_GPU] = {256, 32, 0, 0, 0, 0}},
    [AMP__SHAPE_SCAN_CPU] = {[AMP__ALGO_CPU] = {1, 1, 16384, 4096, 0, 4}},
    [AMP__SHAPE_HISTOGRAM] = GPU_AND_CPU(256, 32, 4, 4096, 0, 0),
    [AMP__SHAPE_TRANSPOSE] = {[AMP__ALGO_GPU] = {256, 8, 0, 0, 32, 0}},
    [AMP__SHAPE_SORT] = GPU_AND_CPU(256, 32, 0, 0, 0, 0),
    [AMP__SHAPE_ONESWEEP_KEYS] = {[AMP__ALGO_GPU] = {256, 32, 16, 0, 0, 0}},
    [AMP__SHAPE_ONESWEEP_PAIRS] = {[AMP__ALGO_GPU] = {256, 32, 12, 0, 0, 0}},
    [AMP__SHAPE_ONESWEEP_WARP_KEYS] = {[AMP__ALGO_GPU] = {256, 256, 20, 0, 0, 0}},
    [AMP__SHAPE_ONESWEEP_WARP_PAIRS] = {[AMP__ALGO_GPU] = {256, 256, 16, 0, 0, 0}},
    [AMP__SHAPE_COMPACT] = GPU_AND_CPU(256, 32, 16, 0, 0, 0),
    [AMP__SHAPE_COMPACT_WARP_IF] = {[AMP__ALGO_GPU] = {128, 32, 24, 0, 0, 0}},
    [AMP__SHAPE_COMPACT_WARP_UNIQUE] = {[AMP__ALGO_GPU] = {256, 32, 24, 0, 0, 0}},
    [AMP__SHAPE_STENCIL_TILES] = GPU_AND_CPU(256, 32, 8, 0, 0, 0),
    [AMP__SHAPE_STENCIL_COLUMNS] = GPU_AND_CPU(64, 32, 32, 0, 64, 0),
    [AMP__SHAPE_FIXED] = {[AMP__ALGO_GPU] = {256, 1, 0, 0, 0, 0}},
    [AMP__SHAPE_FIXED_CPU] = {[AMP__ALGO_CPU] = {16, 1, 0, 0, 0, 4}},
};

amp__algo_class amp__algo_class_of(const amp_accelerator_view *view) {
  return view->acc->props.is_emulated ? AMP__ALGO_CPU : AMP__ALGO_GPU;
}

const amp__algo_shape *amp__algo_shape_of(const amp_accelerator_view *view, amp__algo_path path) {
  const amp__algo_shape *row = amp__algo_shapes[path];
  amp__algo_class c = amp__algo_class_of(view);
  if (row[c].tile == 0) /* the GPU's, or the CPU's for a CPU kernel asked about elsewhere */
    c = row[AMP__ALGO_GPU].tile ? AMP__ALGO_GPU : AMP__ALGO_CPU;
  return &row[c];
}
