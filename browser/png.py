"""A PNG reader in plain Python, enough for Chromium's screenshots: 8-bit grey, RGB or RGBA,
not interlaced, every filter. Nothing from PyPI: the standard library's zlib inflates, and the
filters the screenshots use (`optimizeForSpeed` asks Chromium for Up only) are undone a row at
a time on Python's big integers, so that a board's screenshot reads in milliseconds; the others
(Sub, Average, Paeth) byte by byte, slowly but exactly."""

import functools
import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 6: 4}  # colour type: grey, RGB, RGBA


class PNGError(Exception):
    pass


class Image:
    """Pixels as rows of bytes, `channels` bytes a pixel."""

    def __init__(self, width, height, channels, rows):
        self.width = width
        self.height = height
        self.channels = channels
        self.rows = rows

    def grey(self, x, y):
        """The pixel's luminance, 0–255 (Rec. 709 weights, as CSS's grayscale() uses)."""
        row, at = self.rows[y], x * self.channels
        if self.channels == 1:
            return row[at]
        return 0.2126 * row[at] + 0.7152 * row[at + 1] + 0.0722 * row[at + 2]

    def grey_rows(self):
        """Every pixel's luminance, rows of 0–255: a grey row's one channel as it is (the fast
        way: a page in grayscale), any other row weighted pixel by pixel."""
        if self.channels == 1:
            return self.rows
        planes = []
        for row in self.rows:
            red, green, blue = row[0::self.channels], row[1::self.channels], row[2::self.channels]
            if red == green == blue:
                planes.append(green)
            else:
                planes.append(bytes(round(0.2126 * r + 0.7152 * g + 0.0722 * b) for r, g, b in zip(red, green, blue)))
        return planes

    def is_grey(self, x, y, tolerance=2):
        """Whether the pixel has no colour: its channels agree."""
        if self.channels == 1:
            return True
        row, at = self.rows[y], x * self.channels
        return max(row[at:at + 3]) - min(row[at:at + 3]) <= tolerance


def read(data):
    """The image a PNG file's bytes hold."""
    if not data.startswith(SIGNATURE):
        raise PNGError("not a PNG file")
    at, header, compressed = len(SIGNATURE), None, []
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            compressed.append(body)
        elif kind == b"IEND":
            break
        at += 12 + length
    if header is None:
        raise PNGError("no IHDR chunk")
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in CHANNELS or interlace != 0:
        raise PNGError(f"unsupported PNG: depth {depth}, colour type {colour}, interlace {interlace}")
    channels = CHANNELS[colour]
    raw = zlib.decompress(b"".join(compressed))
    stride = width * channels
    if len(raw) != height * (stride + 1):
        raise PNGError(f"{len(raw)} bytes of pixels for {width}×{height}×{channels}")
    rows, previous = [], bytes(stride)
    for y in range(height):
        start = y * (stride + 1)
        row = unfilter(raw[start], raw[start + 1:start + 1 + stride], previous, channels)
        rows.append(row)
        previous = row
    return Image(width, height, channels, rows)


def unfilter(kind, row, previous, step):
    if kind == 0:
        return bytes(row)
    if kind == 2:
        return add_bytes(row, previous)
    out = bytearray(row)
    for i in range(len(out)):
        left = out[i - step] if i >= step else 0
        up = previous[i]
        if kind == 1:
            out[i] = (out[i] + left) & 255
        elif kind == 3:
            out[i] = (out[i] + ((left + up) >> 1)) & 255
        elif kind == 4:
            corner = previous[i - step] if i >= step else 0
            out[i] = (out[i] + paeth(left, up, corner)) & 255
        else:
            raise PNGError(f"unknown filter {kind}")
    return bytes(out)


def paeth(left, up, corner):
    estimate = left + up - corner
    to_left, to_up, to_corner = abs(estimate - left), abs(estimate - up), abs(estimate - corner)
    if to_left <= to_up and to_left <= to_corner:
        return left
    return up if to_up <= to_corner else corner


def add_bytes(a, b):
    """Byte by byte sums modulo 256 of two equally long byte strings, on whole big integers: the
    low seven bits of each byte add without carrying into the next, the top bit is their
    exclusive or."""
    n = len(a)
    low, high = masks(n)
    x, y = int.from_bytes(a, "big"), int.from_bytes(b, "big")
    return (((x & low) + (y & low)) ^ ((x ^ y) & high)).to_bytes(n, "big")


@functools.lru_cache(maxsize=8)
def masks(n):
    return int.from_bytes(b"\x7f" * n, "big"), int.from_bytes(b"\x80" * n, "big")
