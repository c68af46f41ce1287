/* libpng error and warning callbacks shared by the PNG decoder and encoder (private to the shim). */
#ifndef SUMI_PNG_ERRORS_H
#define SUMI_PNG_ERRORS_H

#include <png.h>

/* Keeps libpng's first message in the 256-byte buffer given as libpng's error pointer, and jumps. */
void sumi_png_on_error(png_structp png, png_const_charp text);
/* Warnings are ignored. */
void sumi_png_on_warning(png_structp png, png_const_charp text);

#endif
