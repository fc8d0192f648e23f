/* runtime/algorithms/algo_shapes.h: the algorithms' launch shapes as data (algo_shapes.c): for
 * each kernel path, the tile it prefers, the smallest tile it falls back to where the device allows
 * less, and the work per thread, per device class. The algorithm files read their shapes here;
 * amp__algo_tile (algo.c) still chooses the tile a device allows, and AMP_ALGO_TILE still caps it.
 */
#ifndef AMPCL_RUNTIME_ALGO_SHAPES_H
#define AMPCL_RUNTIME_ALGO_SHAPES_H

#include "ampcl/accelerator.h"

/* A device's class, from its own answers: CPU where CL_DEVICE_TYPE has CL_DEVICE_TYPE_CPU
 * (props.is_emulated), GPU otherwise (GPUs and accelerators). */
typedef enum amp__algo_class { AMP__ALGO_GPU, AMP__ALGO_CPU, AMP__ALGO_NCLASSES } amp__algo_class;

/* The kernel paths whose shapes the table holds. */
typedef enum amp__algo_path {
  AMP__SHAPE_REDUCE,              /* reduce.cl: amp_reduce_tiles */
  AMP__SHAPE_REDUCE_CPU,          /* reduce_cpu.cl */
  AMP__SHAPE_SCAN_ONE,            /* scan.cl, the single pass */
  AMP__SHAPE_SCAN_THREE,          /* scan.cl, the three passes */
  AMP__SHAPE_SCAN_CPU,            /* scan_cpu.cl */
  AMP__SHAPE_HISTOGRAM,           /* histogram.cl */
  AMP__SHAPE_TRANSPOSE,           /* transpose.cl */
  AMP__SHAPE_SORT,                /* sort.cl, the multi-pass sort */
  AMP__SHAPE_ONESWEEP_KEYS,       /* onesweep.cl, the portable pass, keys alone */
  AMP__SHAPE_ONESWEEP_PAIRS,      /* the same with values */
  AMP__SHAPE_ONESWEEP_WARP_KEYS,  /* onesweep.cl, the warp pass, keys alone */
  AMP__SHAPE_ONESWEEP_WARP_PAIRS, /* the same with values */
  AMP__SHAPE_COMPACT,             /* compact.cl, the portable path */
  AMP__SHAPE_COMPACT_WARP_IF,     /* compact.cl, the warp path, amp_copy_if */
  AMP__SHAPE_COMPACT_WARP_UNIQUE, /* compact.cl, the warp path, amp_unique */
  AMP__SHAPE_STENCIL_TILES,       /* stencil.cl, the tile_static kernels */
  AMP__SHAPE_STENCIL_COLUMNS,     /* stencil.cl, the column kernels */
  AMP__SHAPE_FIXED,               /* fixed_order.cl, a tile per chunk */
  AMP__SHAPE_FIXED_CPU,           /* fixed_order.cl, runs of chunks per thread (CPU devices) */
  AMP__SHAPE_HISTOGRAM_WEIGHTED,  /* histogram_weighted.cl */
  AMP__SHAPE_REDUCE_BY_KEY,       /* reduce_by_key.cl, amp_rbk_values */
  AMP__SHAPE_NPATHS
} amp__algo_path;

/* One path's shape on one device class. A field a path does not use is 0. */
typedef struct amp__algo_shape {
  int tile;   /* threads per tile, preferred */
  int least;  /* the smallest tile it falls back to (transpose: the smallest block side) */
  int per;    /* elements per thread (the CPU kernels: at least this many per thread) */
  int most;   /* the most tiles of a grid-stride launch (the CPU kernels: the most threads) */
  int across; /* 2-D tiles: threads across (transpose: the block's side) */
  int per_cu; /* the CPU kernels: threads per compute unit */
} amp__algo_shape;

/* The table: a path's row for each class; a class whose row is empty (tile 0) takes the GPU's. */
extern const amp__algo_shape amp__algo_shapes[AMP__SHAPE_NPATHS][AMP__ALGO_NCLASSES];

/* The class of the view's device. */
amp__algo_class amp__algo_class_of(const amp_accelerator_view *view);

/* The shape of `path` on the view's device: its class's row, or the GPU's where that is empty. */
const amp__algo_shape *amp__algo_shape_of(const amp_accelerator_view *view, amp__algo_path path);

#endif /* AMPCL_RUNTIME_ALGO_SHAPES_H */
