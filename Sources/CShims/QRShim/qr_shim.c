#include "qr_shim.h"

#include <errno.h>
#include <qrencode.h>

int ttg_qr_encode(const char *text, unsigned char *modules, size_t capacity) {
    // Byte mode (QR_MODE_8) keeps the text as it is: the address's letters are not folded to
    // upper case as alphanumeric mode would need.
    QRcode *code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M);
    if (!code) return -1;
    int width = code->width;
    size_t count = (size_t)width * (size_t)width;
    if (count > capacity) {
        QRcode_free(code);
        errno = ENOBUFS;
        return -1;
    }
    // Bit 0 of each byte is the module's colour; the other bits say what the module is part of.
    for (size_t index = 0; index < count; index++) modules[index] = code->data[index] & 1;
    QRcode_free(code);
    return width;
}

const char *ttg_qr_library_version(void) { return QRcode_APIVersionString(); }
