#!/usr/bin/env python3
"""png_shrink.py IN.png OUT.png [FACTOR]: a frame the examples wrote (uncompressed) made small
enough to keep in the repository: each FACTOR x FACTOR block of pixels averaged (default 2, which
also smooths the impostors' edges), written as 8-bit RGB compressed at zlib's best level. The
standard library alone; check_png.py decodes."""
import os
import struct
import sys
import zlib

sys.dont_write_bytecode = True   # no __pycache__ in tools/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_png import pixels  # noqa: E402


def write_png(path, width, height, rows):
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    raw = b"".join(b"\x00" + bytes(line) for line in rows)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    k = int(sys.argv[3]) if len(sys.argv) == 4 else 2
    width, height, channels, rows = pixels(sys.argv[1])
    w, h = width // k, height // k
    out = []
    for y in range(h):
        line = bytearray(3 * w)
        for x in range(w):
            for c in range(3):
                s = sum(rows[y * k + j][channels * (x * k + i) + c] for j in range(k) for i in range(k))
                line[3 * x + c] = (s + k * k // 2) // (k * k)
        out.append(line)
    write_png(sys.argv[2], w, h, out)


main()
