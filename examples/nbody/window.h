/* examples/nbody/window.h: amp-nbody's live view (--window), in SDL2. Compiled only when SDL2 and
 * libpng are found at build time (EX_HAVE_WINDOW); without them amp-nbody builds as before.
 *
 * The view draws the bodies' x and y each frame, the steps and interactions per second in its
 * corner (and in its title), and reads the keyboard: space or p pauses and resumes, q or Escape
 * quits. --screenshot FILE saves the last frame as a PNG with a text chunk "ampcl-drawn" holding
 * the number of bodies drawn (inside the view), so a test can check what was drawn. */
#ifndef AMPCL_EXAMPLES_NBODY_WINDOW_H
#define AMPCL_EXAMPLES_NBODY_WINDOW_H

#include <stddef.h>

typedef struct nbody_window nbody_window;

/* Opens a window for `bodies` bodies; `screenshot` (or NULL) is where nbody_window_close saves the
 * last frame. Returns NULL, with the reason on stderr, when there is no display. */
nbody_window *nbody_window_open(int bodies, const char *screenshot);

/* Draws one frame from `n` bodies whose x and y are the first two floats of each `stride` bytes at
 * `first`, with the rates given. Handles the keyboard: while paused it waits here. Returns 1 to go
 * on, 0 when the user asked to quit. */
int nbody_window_frame(nbody_window *w, const void *first, size_t stride, int n, double steps_per_s,
                       double interactions_per_s);

/* Saves the screenshot if one was asked for (returns 0 when that fails), closes the window, frees
 * w. NULL is allowed. */
int nbody_window_close(nbody_window *w);

#endif
