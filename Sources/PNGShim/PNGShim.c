#include "PNGShim.h"
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

typedef struct { char *buffer; size_t size; } ErrorSink;

static void on_error(png_structp png, png_const_charp message) {
    ErrorSink *sink = png_get_error_ptr(png);
    if (sink && sink->buffer && sink->size) snprintf(sink->buffer, sink->size, "%s", message);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

int fs_png_write(int fd, const uint8_t *rgba, uint32_t width, uint32_t height,
                 const char *const *keys, const char *const *values, int textCount,
                 int compression, char *error, size_t errorSize) {
    ErrorSink sink = { error, errorSize };
    int own = dup(fd);
    FILE *file = own >= 0 ? fdopen(own, "wb") : NULL;
    if (!file) { snprintf(error, errorSize, "cannot write: %s", strerror(errno)); if (own >= 0) close(own); return 1; }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    png_textp volatile texts = NULL; // volatile: set after setjmp, freed after a longjmp
    if (!png || !info) {
        snprintf(error, errorSize, "libpng could not start");
        png_destroy_write_struct(&png, &info);
        fclose(file);
        return 1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(texts);
        fclose(file);
        return 1;
    }
    png_init_io(png, file);
    png_set_compression_level(png, compression);
    // Previews are flat colours and smooth edges: the Sub filter alone compresses them well and fast.
    png_set_filter(png, 0, PNG_FILTER_SUB);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (textCount > 0) {
        texts = calloc((size_t)textCount, sizeof(png_text));
        if (!texts) { snprintf(error, errorSize, "out of memory"); png_longjmp(png, 1); }
        for (int i = 0; i < textCount; i++) {
            texts[i].compression = PNG_TEXT_COMPRESSION_NONE;
            texts[i].key = (png_charp)keys[i];
            texts[i].text = (png_charp)values[i];
        }
        png_set_text(png, info, texts, textCount);
    }
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++) png_write_row(png, rgba + (size_t)y * width * 4);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(texts);
    if (fclose(file) != 0) { snprintf(error, errorSize, "cannot finish writing: %s", strerror(errno)); return 1; }
    return 0;
}

int fs_png_read(const char *path, uint8_t **pixels, uint32_t *width, uint32_t *height,
                char *error, size_t errorSize) {
    ErrorSink sink = { error, errorSize };
    *pixels = NULL;
    FILE *file = fopen(path, "rb");
    if (!file) { snprintf(error, errorSize, "cannot open: %s", strerror(errno)); return 1; }
    unsigned char signature[8];
    if (fread(signature, 1, 8, file) != 8 || png_sig_cmp(signature, 0, 8) != 0) {
        snprintf(error, errorSize, "not a PNG file");
        fclose(file);
        return 1;
    }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &sink, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    uint8_t *volatile out = NULL;
    png_bytep *volatile rows = NULL;
    if (!png || !info) {
        snprintf(error, errorSize, "libpng could not start");
        png_destroy_read_struct(&png, &info, NULL);
        fclose(file);
        return 1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(out);
        free(rows);
        fclose(file);
        return 1;
    }
    png_init_io(png, file);
    png_set_sig_bytes(png, 8);
    png_read_info(png, info);
    // Normalise every colour type and depth to 8-bit RGBA.
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    uint32_t w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    if (w == 0 || h == 0 || w > 32768 || h > 32768) { snprintf(error, errorSize, "unsupported image size %ux%u", w, h); png_longjmp(png, 1); }
    out = malloc((size_t)w * h * 4);
    if (!out) { snprintf(error, errorSize, "out of memory"); png_longjmp(png, 1); }
    rows = malloc(sizeof(png_bytep) * h);
    if (!rows) { snprintf(error, errorSize, "out of memory"); png_longjmp(png, 1); }
    for (uint32_t y = 0; y < h; y++) rows[y] = out + (size_t)y * w * 4;
    png_read_image(png, rows);
    free(rows);
    rows = NULL;
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    fclose(file);
    *pixels = out;
    *width = w;
    *height = h;
    return 0;
}

void fs_png_free(uint8_t *pixels) { free(pixels); }
