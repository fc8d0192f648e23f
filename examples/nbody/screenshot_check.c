/* nbody_screenshot_check FILE.png N: checks amp-nbody --window's screenshot: a readable PNG, not
 * blank (lit pixels besides the black background), and its "ampcl-drawn" text chunk says N bodies
 * were drawn. Exit 0 when all hold, 1 with the reason otherwise. */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: nbody_screenshot_check FILE.png BODIES\n");
    return 2;
  }
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, argv[1])) {
    fprintf(stderr, "%s: not a readable PNG (%s)\n", argv[1], image.message);
    return 1;
  }
  image.format = PNG_FORMAT_RGB;
  unsigned char *px = malloc(PNG_IMAGE_SIZE(image));
  if (!px || !png_image_finish_read(&image, NULL, px, 0, NULL)) {
    fprintf(stderr, "%s: cannot read the pixels\n", argv[1]);
    free(px);
    return 1;
  }
  long lit = 0;
  for (size_t i = 0; i < (size_t)image.width * image.height; i++)
    lit += px[3 * i] || px[3 * i + 1] || px[3 * i + 2];
  free(px);

  /* the text chunk, read with the classic interface */
  FILE *f = fopen(argv[1], "rb");
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  long drawn = -1;
  if (f && info && !setjmp(png_jmpbuf(png))) {
    png_init_io(png, f);
    png_read_info(png, info);
    png_textp text;
    int n = 0;
    png_get_text(png, info, &text, &n);
    for (int i = 0; i < n; i++)
      if (!strcmp(text[i].key, "ampcl-drawn"))
        drawn = strtol(text[i].text, NULL, 10);
  }
  if (png)
    png_destroy_read_struct(&png, info ? &info : NULL, NULL);
  if (f)
    fclose(f);
  long want = strtol(argv[2], NULL, 10);
  printf("%s: %ux%u, %ld lit pixels, %ld bodies drawn (want %ld)\n", argv[1], image.width,
         image.height, lit, drawn, want);
  if (lit == 0) {
    fprintf(stderr, "%s: the picture is blank\n", argv[1]);
    return 1;
  }
  if (drawn != want) {
    fprintf(stderr, "%s: %ld bodies drawn, not %ld\n", argv[1], drawn, want);
    return 1;
  }
  return 0;
}
