#!/usr/bin/env python3
"""check_png.py FILE [MIN]: decodes a PNG (8-bit RGB or RGBA, any filter, zlib) with the standard
library alone and says how many pixels differ from the corner pixel, the background. Exits 1 when
fewer than MIN (default 1000) do: the frame shows no particles. Independent of the examples' own
PNG writer, so a frame that is blank or unreadable fails."""
import struct, sys, zlib

def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if zlib.crc32(kind + body) != struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])[0]:
            raise ValueError("bad CRC in " + kind.decode())
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            channels = {2: 3, 6: 4}[colour]
            assert depth == 8
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
            p = a + b - c
            pred = [0, a, b, (a + b) // 2, a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else b if abs(p - b) <= abs(p - c) else c][f]
            line[i] = (line[i] + pred) & 255
        rows.append(line)
        prev = line
    return width, height, channels, rows

def main():
    path, minimum = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    w, h, ch, rows = pixels(path)
    background = bytes(rows[0][:3])
    differing = sum(1 for row in rows for x in range(w) if bytes(row[x * ch:x * ch + 3]) != background)
    print(f"{path}: {w}x{h}, {differing} pixels differ from the background")
    sys.exit(0 if differing >= minimum else 1)

if __name__ == "__main__":   # tools/png_shrink.py imports pixels()
    main()
