#!/usr/bin/env python3
"""Makes the repository's own sample images (no outside artwork, so no licence questions).

- pipelines/samples/photo.jpg: a 3000x2002 photo-like landscape (sky, sun, hills, texture), via cjpeg.
- pipelines/samples/page-N.png: viewport captures (390x844) of a long scrolling page with a sticky
  header and tab bar, overlapping, as a phone would take them; the page is 390x2954 in all.

Deterministic: the same files every run. Needs python3, and cjpeg (libjpeg-turbo-progs) for the photo.
"""
import math, os, random, struct, subprocess, sys, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "pipelines", "samples")


def png(path, width, height, rows):
    raw = b"".join(b"\x00" + bytes(r) for r in rows)
    def chunk(kind, data):
        c = struct.pack(">I", len(data)) + kind + data
        return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    data += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(data)


def photo(path, width=3000, height=2002):
    rnd = random.Random(7)
    noise = [rnd.randint(-6, 6) for _ in range(4096)]
    ridge = [(rnd.uniform(0.002, 0.006), rnd.uniform(0, 6.28), rnd.uniform(30, 90)) for _ in range(3)]
    header = b"P6\n%d %d\n255\n" % (width, height)
    buf = bytearray(width * height * 3)
    sun_x, sun_y, sun_r = width * 0.72, height * 0.28, height * 0.09
    for y in range(height):
        t = y / height
        sky = (int(70 + 120 * t), int(130 + 90 * t), int(220 - 30 * t))
        hills = [height * (0.55 + 0.1 * k) + sum(a * math.sin(f * (k + 1) * 0 + 0) for f, _, a in ridge) for k in range(3)]
        row = memoryview(buf)[y * width * 3:(y + 1) * width * 3]
        for x in range(width):
            n = noise[(x * 31 + y * 17) & 4095]
            r, g, b = sky
            dx, dy = x - sun_x, y - sun_y
            d2 = dx * dx + dy * dy
            if d2 < sun_r * sun_r:
                r, g, b = 255, 236, 160
            elif d2 < (sun_r * 1.6) ** 2:
                k = 1 - (math.sqrt(d2) - sun_r) / (sun_r * 0.6)
                r, g, b = int(r + (255 - r) * k * 0.6), int(g + (236 - g) * k * 0.6), int(b + (160 - b) * k * 0.3)
            for level, (f, p, a) in enumerate(ridge):
                top = height * (0.55 + 0.12 * level) + a * math.sin(f * x + p) + 0.5 * a * math.sin(3.1 * f * x + p * 2)
                if y > top:
                    shade = 1 - 0.25 * level
                    r, g, b = int((40 + 30 * level) * shade), int((110 - 10 * level) * shade + (y - top) * 0.05), int((50 + 10 * level) * shade)
            i = x * 3
            row[i] = max(0, min(255, r + n))
            row[i + 1] = max(0, min(255, g + n))
            row[i + 2] = max(0, min(255, b + n))
    ppm = path + ".ppm"
    with open(ppm, "wb") as f:
        f.write(header + bytes(buf))
    subprocess.run(["cjpeg", "-quality", "90", "-outfile", path, ppm], check=True)
    os.remove(ppm)


def page(width=390, height=2954, header=64, footer=56):
    """The whole scrolling page: header bar, content blocks of 'text' lines and pictures, tab bar."""
    rnd = random.Random(11)
    rows = []
    content = []
    y = 0
    while y < height:
        kind = rnd.random()
        if kind < 0.7:
            # A paragraph: lines of word-like dark blocks on white.
            for _ in range(rnd.randint(3, 7)):
                words, x, line = [], 16, [255] * (width * 3)
                while x < width - 40:
                    w = rnd.randint(12, 60)
                    shade = rnd.randint(20, 70)
                    for xx in range(x, min(x + w, width - 16)):
                        line[xx * 3:xx * 3 + 3] = [shade, shade, shade + 10]
                    x += w + rnd.randint(5, 9)
                for yy in range(22):
                    content.append(line if 5 <= yy <= 15 else [255] * (width * 3))
            content.extend([[255] * (width * 3)] * 14)
        else:
            # A picture: a gradient panel.
            h = rnd.randint(120, 220)
            c1 = [rnd.randint(40, 220) for _ in range(3)]
            c2 = [rnd.randint(40, 220) for _ in range(3)]
            for yy in range(h):
                line = [255] * (width * 3)
                for xx in range(16, width - 16):
                    t = (xx + yy) / (width + h)
                    line[xx * 3:xx * 3 + 3] = [int(c1[k] + (c2[k] - c1[k]) * t) for k in range(3)]
                content.append(line)
            content.extend([[255] * (width * 3)] * 14)
        y = len(content)
    return content[:height]


def captures(viewport=844, header=64, footer=56, offsets=(0, 620, 1240, 1860, 2110), out=None, zoom=1, prefix="page"):
    """Viewport captures of the page; `zoom` repeats pixels (3 gives phone-sized 1170x2532 captures)."""
    width = 390
    body = page(width, height=max(offsets) + viewport)
    bar = [[30, 60, 140] * width for _ in range(header)]
    for r in bar[20:44]:
        for xx in range(20, 160):
            r[xx * 3:xx * 3 + 3] = [240, 240, 250]
    tab = [[245, 245, 248] * width for _ in range(footer)]
    for r in tab[:1]:
        r[:] = [200, 200, 205] * width
    for r in tab[16:40]:
        for k in range(4):
            x0 = 40 + k * 90
            for xx in range(x0, x0 + 24):
                r[xx * 3:xx * 3 + 3] = [30, 60, 140]
    scroll = viewport - header - footer
    for n, top in enumerate(offsets):
        rows = bar + body[top:top + scroll] + tab
        if zoom > 1:
            rows = [bytes(b for px in zip(*[iter(r)] * 3) for b in px * zoom) for r in rows for _ in range(zoom)]
        png(os.path.join(out or OUT, "%s-%d.png" % (prefix, n)), width * zoom, viewport * zoom, rows)


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    what = sys.argv[1:2] or ["photo", "captures"]
    if "photo" in what:
        photo(os.path.join(OUT, "photo.jpg"))
    if "captures" in what:
        captures()
    if "bench-captures" in what:
        # Phone captures (1170x2532) of a long page, for `make bench`: eight, or the count given after
        # the folder.
        at = sys.argv.index("bench-captures")
        folder = sys.argv[at + 1]
        count = int(sys.argv[at + 2]) if len(sys.argv) > at + 2 else 8
        os.makedirs(folder, exist_ok=True)
        captures(offsets=tuple(i * 500 for i in range(count)), out=folder, zoom=3, prefix="capture")
