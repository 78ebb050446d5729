#ifndef LARDER_CLIBZ_SHIM_H
#define LARDER_CLIBZ_SHIM_H
#include <zlib.h>

/// deflateInit2 and inflateInit2 are macros Swift cannot call; these wrappers pass the version and size.
static inline int larder_deflateInit2(z_streamp strm, int level, int windowBits) {
    return deflateInit2_(strm, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, (int)sizeof(z_stream));
}
static inline int larder_inflateInit2(z_streamp strm, int windowBits) {
    return inflateInit2_(strm, windowBits, ZLIB_VERSION, (int)sizeof(z_stream));
}
#endif
