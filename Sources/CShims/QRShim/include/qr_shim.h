// One call over libqrencode for the Swift ShareCode module: a text in, the symbol's modules out
// as one byte each (1 dark, 0 light), row by row. Keeping libqrencode's struct and its free on
// this side means Swift sees only a buffer it owns.
#ifndef QR_SHIM_H
#define QR_SHIM_H

#include <stddef.h>

/// The widest symbol (version 40): 177 modules a side.
enum { TTG_QR_MAX_WIDTH = 177 };

/// Encodes `text` (UTF-8, NUL-terminated) as the smallest QR symbol that holds it in byte mode
/// at error correction level M, writing width × width bytes to `modules`. Returns the width, or
/// -1 with errno set: ERANGE when the text does not fit in version 40, EINVAL, ENOMEM, or
/// ENOBUFS when `capacity` is smaller than width × width.
int ttg_qr_encode(const char *text, unsigned char *modules, size_t capacity);

/// The library's version string, such as "4.1.1".
const char *ttg_qr_library_version(void);

#endif
