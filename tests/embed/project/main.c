/* Calls the typed launcher of the project's kernel (LAUNCHERS: the header ampcl_embed_cl wrote
 * for the .cl file): as written, and with -DWRONG_COUNT (an argument missing) or -DWRONG_KIND (a
 * view where the float goes), which must not compile. Compiled only: the object library links
 * nothing. */
#include LAUNCHERS

amp_status use(amp_kernel *k, amp_array_view *x, amp_array_view *y);

amp_status use(amp_kernel *k, amp_array_view *x, amp_array_view *y) {
#if defined(WRONG_COUNT)
  return saxpy_launch(NULL, amp_extent1(8), k, 2.0f, x); /* line 11: y is missing */
#elif defined(WRONG_KIND)
  return saxpy_launch(NULL, amp_extent1(8), k, x, x, y); /* line 13: x for the float a */
#else
  return saxpy_launch(NULL, amp_extent1(8), k, 2.0f, x, y);
#endif
}
