/* runtime/algorithms/algo_shapes.c: the table of the algorithms' launch shapes, per kernel path
 * and device class, from its rows in algo_shapes.def (algo_shapes.h says what each field means).
 * Why each shape won is measured in lab/NOTEBOOK.md; docs/ALGORITHMS.md ("Tile shapes") has the
 * fallbacks. */
#include "algorithms/algo_shapes.h"

#include "core/accelerator_impl.h"

const amp__algo_shape amp__algo_shapes[AMP__SHAPE_NPATHS][AMP__ALGO_NCLASSES] = {
#define AMP__ALGO_SHAPE(path, class, ...) [AMP__SHAPE_##path][AMP__ALGO_##class] = {__VA_ARGS__},
#include "algorithms/algo_shapes.def"
#undef AMP__ALGO_SHAPE
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
