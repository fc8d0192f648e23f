/* examples/nbody/window.c: amp-nbody's live view in SDL2 (window.h). */
#include "window.h"

#include <SDL.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SIZE = 640, SCALE = 2 };       /* window pixels; pixels per font dot */
static const double VIEW_WIDTH = 8.0; /* world units across the window, as --frames pictures */

struct nbody_window {
  SDL_Window *window;
  SDL_Renderer *renderer;
  const char *screenshot;
  int drawn; /* bodies inside the view in the last frame */
  int paused;
};

/* A 3 x 5 font for what the corner says: digits, '.', '+', '-', '/', 'e', and a few letters. Each
 * glyph is 5 rows of 3 bits, top row first. */
static const char *const GLYPH_CHARS = "0123456789.+-/eEstepinrcoa :";
static const unsigned char GLYPHS[][5] = {
    {7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7}, {5, 5, 7, 1, 1},
    {7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 1, 1, 1}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7},
    {0, 0, 0, 0, 2}, {0, 2, 7, 2, 0}, {0, 0, 7, 0, 0}, {1, 1, 2, 4, 4}, {7, 4, 7, 4, 7},
    {7, 4, 7, 4, 7}, {7, 4, 7, 1, 7}, {2, 7, 2, 2, 3}, {7, 4, 7, 4, 7}, {7, 5, 7, 4, 4},
    {2, 0, 2, 2, 2}, {0, 6, 5, 5, 5}, {0, 6, 4, 4, 4}, {0, 7, 4, 4, 7}, {0, 7, 5, 5, 7},
    {0, 7, 5, 7, 5}, {0, 0, 0, 0, 0}, {0, 2, 0, 2, 0}};

static void draw_text(SDL_Renderer *r, int x, int y, const char *text) {
  for (; *text; text++, x += 4 * SCALE) {
    const char *at = strchr(GLYPH_CHARS, *text);
    if (!at)
      continue;
    const unsigned char *g = GLYPHS[at - GLYPH_CHARS];
    for (int row = 0; row < 5; row++)
      for (int col = 0; col < 3; col++)
        if (g[row] & (4 >> col)) {
          SDL_Rect dot = {x + col * SCALE, y + row * SCALE, SCALE, SCALE};
          SDL_RenderFillRect(r, &dot);
        }
  }
}

nbody_window *nbody_window_open(int bodies, const char *screenshot) {
  if (SDL_Init(SDL_INIT_VIDEO) != 0) {
    fprintf(stderr, "nbody: --window: no display (%s)\n", SDL_GetError());
    return NULL;
  }
  nbody_window *w = calloc(1, sizeof *w);
  if (w)
    w->window = SDL_CreateWindow("amp-nbody", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED,
                                 SIZE, SIZE, 0);
  if (w && w->window)
    w->renderer = SDL_CreateRenderer(w->window, -1, SDL_RENDERER_SOFTWARE);
  if (!w || !w->window || !w->renderer) {
    fprintf(stderr, "nbody: --window: cannot open a window for %d bodies (%s)\n", bodies,
            SDL_GetError());
    nbody_window_close(w);
    return NULL;
  }
  w->screenshot = screenshot;
  return w;
}

static int handle_keys(nbody_window *w) {
  SDL_Event e;
  while (w->paused ? SDL_WaitEvent(&e) : SDL_PollEvent(&e)) {
    if (e.type == SDL_QUIT)
      return 0;
    if (e.type == SDL_KEYDOWN) {
      SDL_Keycode k = e.key.keysym.sym;
      if (k == SDLK_q || k == SDLK_ESCAPE)
        return 0;
      if (k == SDLK_SPACE || k == SDLK_p)
        w->paused = !w->paused;
    }
  }
  return 1;
}

int nbody_window_frame(nbody_window *w, const void *first, size_t stride, int n, double steps_per_s,
                       double interactions_per_s) {
  SDL_Renderer *r = w->renderer;
  SDL_SetRenderDrawColor(r, 0, 0, 0, 255);
  SDL_RenderClear(r);
  SDL_SetRenderDrawColor(r, 255, 230, 160, 255);
  w->drawn = 0;
  const double scale = SIZE / VIEW_WIDTH;
  for (int i = 0; i < n; i++) {
    const float *xy = (const float *)((const char *)first + (size_t)i * stride);
    int px = (int)(SIZE / 2 + xy[0] * scale), py = (int)(SIZE / 2 - xy[1] * scale);
    if (px >= 0 && px < SIZE && py >= 0 && py < SIZE) {
      SDL_RenderDrawPoint(r, px, py);
      w->drawn++;
    }
  }
  char line[96];
  snprintf(line, sizeof line, "%.1f steps/s  %.3e interactions/s", steps_per_s, interactions_per_s);
  SDL_SetRenderDrawColor(r, 120, 220, 255, 255);
  draw_text(r, 8, 8, line);
  SDL_SetWindowTitle(w->window, line);
  SDL_RenderPresent(r);
  return handle_keys(w);
}

/* The renderer's pixels as an RGB PNG, with the drawn count in a text chunk. */
static int save_png(nbody_window *w) {
  volatile int ok = 0; /* volatile: set after the setjmp */
  unsigned char *pixels = malloc((size_t)SIZE * SIZE * 3);
  FILE *volatile f = NULL;
  png_structp png = NULL;
  png_infop info = NULL;
  if (!pixels ||
      SDL_RenderReadPixels(w->renderer, NULL, SDL_PIXELFORMAT_RGB24, pixels, SIZE * 3) != 0)
    goto done;
  f = fopen(w->screenshot, "wb");
  png = f ? png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL) : NULL;
  info = png ? png_create_info_struct(png) : NULL;
  if (!info || setjmp(png_jmpbuf(png)))
    goto done;
  png_init_io(png, f);
  png_set_IHDR(png, info, SIZE, SIZE, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  char drawn[32];
  snprintf(drawn, sizeof drawn, "%d", w->drawn);
  png_text text = {.compression = PNG_TEXT_COMPRESSION_NONE, .key = "ampcl-drawn", .text = drawn};
  png_set_text(png, info, &text, 1);
  png_write_info(png, info);
  for (int y = 0; y < SIZE; y++)
    png_write_row(png, pixels + (size_t)y * SIZE * 3);
  png_write_end(png, NULL);
  ok = 1;
done:
  if (png)
    png_destroy_write_struct(&png, info ? &info : NULL);
  if (f && fclose(f) != 0)
    ok = 0;
  free(pixels);
  if (!ok)
    fprintf(stderr, "nbody: cannot save the screenshot %s\n", w->screenshot);
  else
    printf("       window: screenshot %s, %d bodies drawn\n", w->screenshot, w->drawn);
  return ok;
}

int nbody_window_close(nbody_window *w) {
  int ok = 1;
  if (w && w->renderer && w->screenshot)
    ok = save_png(w);
  if (w && w->renderer)
    SDL_DestroyRenderer(w->renderer);
  if (w && w->window)
    SDL_DestroyWindow(w->window);
  free(w);
  SDL_Quit();
  return ok;
}
