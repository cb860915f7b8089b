#ifndef FONTSHELL_PNG_SHIM_H
#define FONTSHELL_PNG_SHIM_H
#include <stddef.h>
#include <stdint.h>

/// libpng reports errors by longjmp; these wrappers keep the setjmp on the C side so no jump
/// ever crosses a Swift frame. Each returns 0 on success, else writes a message to `error`.

/// Writes 8-bit RGBA (straight alpha) rows to the open file `fd` (not closed), with tEXt chunks
/// (keys[i] = values[i]).
int fs_png_write(int fd, const uint8_t *rgba, uint32_t width, uint32_t height,
                 const char *const *keys, const char *const *values, int textCount,
                 int compression, char *error, size_t errorSize);

/// Reads any PNG as 8-bit RGBA. On success *pixels is malloc'd (free with fs_png_free).
int fs_png_read(const char *path, uint8_t **pixels, uint32_t *width, uint32_t *height,
                char *error, size_t errorSize);

void fs_png_free(uint8_t *pixels);
#endif
