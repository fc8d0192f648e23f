/* runtime/core/cache_dir.h: the drivers' kernel caches in a private per-user directory
 * (cache_dir.c; docs/SECURITY.md). */
#ifndef AMPCL_RUNTIME_CACHE_DIR_H
#define AMPCL_RUNTIME_CACHE_DIR_H

/* Points the kernel caches of the OpenCL drivers that keep one on disk at a directory of this
 * user's, where the user has not chosen one, or turns them off when no safe one can be had. Must
 * run once, before the first OpenCL call of the process (accelerator_list.c's enumeration does). */
void amp__cache_dir_setup(void);

/* The cache directory chosen (drivers' caches live in folders below it), or "" when none. */
const char *amp__cache_dir_base(void);

/* Why the drivers' caches were turned off (naming the directory and what is wrong with it), or ""
 * when they were not. Also printed to stderr as an ampcl warning when it happens. */
const char *amp__cache_dir_refusal(void);

/* With the caches refused: the fresh private directory (mkdtemp, removed at exit) that
 * POCL_CACHE_DIR names for POCL's compiler files, or "". */
const char *amp__cache_dir_scratch(void);

#endif /* AMPCL_RUNTIME_CACHE_DIR_H */
