#!/usr/bin/env python3
"""Converts the 24/32-bit ZPixmap XWD file Xvfb writes with -fbdir into a PNG, with the
standard library only (tools/xboard_games.sh's screenshots).

    tools/xwd2png.py IN.xwd OUT.png
"""
import struct
import sys
import zlib


def xwd_to_rgb(data):
    fields = struct.unpack(">25I", data[:100])
    header_size, _, fmt, depth, width, height = fields[:6]
    byte_order, bpp, bytes_per_line = fields[7], fields[11], fields[12]
    red_mask, green_mask, blue_mask = fields[14:17]
    ncolors = fields[19]
    if fmt != 2 or bpp not in (24, 32):
        sys.exit(f"unsupported XWD: format {fmt}, {bpp} bits a pixel")
    pixels = data[header_size + 12 * ncolors:]
    order = "<" if byte_order == 0 else ">"
    step = bpp // 8
    shift = lambda m: (m & -m).bit_length() - 1
    rs, gs, bs = shift(red_mask), shift(green_mask), shift(blue_mask)
    rows = []
    for y in range(height):
        line = pixels[y * bytes_per_line:(y + 1) * bytes_per_line]
        row = bytearray([0])  # PNG filter: none
        for x in range(width):
            chunk = line[x * step:(x + 1) * step] + (b"\0" if step == 3 else b"")
            (p,) = struct.unpack(order + "I", chunk)
            row += bytes(((p & red_mask) >> rs, (p & green_mask) >> gs, (p & blue_mask) >> bs))
        rows.append(bytes(row))
    return width, height, b"".join(rows)


def png(width, height, raw):
    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))
    head = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", zlib.compress(raw, 6))
            + chunk(b"IEND", b""))


if __name__ == "__main__":
    with open(sys.argv[1], "rb") as f:
        w, h, raw = xwd_to_rgb(f.read())
    with open(sys.argv[2], "wb") as f:
        f.write(png(w, h, raw))
