#!/usr/bin/env python3
"""Draws how `pdf-page` with `compression: auto` stored a page: the page, downscaled, cut into
columns, each with a coloured margin on its left giving every strip's kind, and a frame of its kind's
colour around every image that shows fewer columns than the page (the JPEG columns of a photo
beside text).

    draw-decided-page.py REPORT.json PAGE.pdf OUT.png [--scale 8] [--columns 8] [--rows TOP:BOTTOM]

REPORT.json is what `sumi run --json` printed for the run that wrote PAGE.pdf (the `pdf-page`
stage's `details`: every page's strips with `top`, `rows`, `left`, `columns`, `kind`, `content`,
`bytes`). The page is rendered by mupdf (`mutool draw`) at 1/SCALE pixel per image pixel. Margin
colours: JPEG strips (photo) orange, palette strips blue, Flate strips that hold only text and UI
green, Flate strips mixing text and photo rows purple, unmodified JPEG sources red; a strip cut in
two (JPEG columns below a lossless image masked out there, whose entry has a `hole`) shows both
colours side by side in the margin; a legend with the bytes each kind takes
is drawn below. Needs numpy, mupdf-tools, ImageMagick.
"""
import argparse, json, os, struct, subprocess, sys, tempfile, zlib

import numpy as np

COLOURS = {"jpeg": (232, 120, 20), "palette": (40, 110, 220), "flate": (40, 160, 70),
           "flate-mixed": (150, 60, 180), "source-jpeg": (210, 30, 40)}
LABELS = {"jpeg": "JPEG (photo)", "palette": "palette (text, UI)", "flate": "Flate (text, UI)",
          "flate-mixed": "Flate (text and photo rows)", "source-jpeg": "source JPEG"}
MARGIN = 14


def strips_of(report):
    for stage in report.get("stages", []):
        details = stage.get("details")
        if stage.get("stage") == "pdf-page" and details:
            return details["pages"][0]
    raise SystemExit("the report has no pdf-page details (run sumi with --json)")


def kind(strip):
    if strip["kind"] == "flate" and strip["content"] != "plain":
        return "flate-mixed"
    return strip["kind"]


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    parts = data.split(maxsplit=4)
    width, height = int(parts[1]), int(parts[2])
    return np.frombuffer(parts[4], np.uint8, width * height * 3).reshape(height, width, 3)


def write_png(path, pixels):
    height, width, _ = pixels.shape
    raw = np.concatenate([np.zeros((height, 1), np.uint8), pixels.reshape(height, width * 3)], axis=1).tobytes()

    def chunk(tag, body):
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("report")
    parser.add_argument("pdf")
    parser.add_argument("out")
    parser.add_argument("--scale", type=int, default=8, help="image pixels per drawn pixel")
    parser.add_argument("--columns", type=int, default=8)
    parser.add_argument("--rows", default="", help="TOP:BOTTOM, the page rows to draw (default all)")
    args = parser.parse_args()
    with open(args.report) as f:
        text_report = f.read().strip().splitlines()[-1]
    page = strips_of(json.loads(text_report))
    width, height = int(page["width"]), int(page["height"])
    with tempfile.TemporaryDirectory() as work:
        # pdf-page's tall pages use /UserUnit, which mupdf honours: 72 dpi is one pixel per image pixel
        # when the page's scale is 1; the render is resized to the page's width/scale whatever it is.
        out = os.path.join(work, "page.ppm")
        subprocess.run(["mutool", "draw", "-q", "-w", str(width // args.scale), "-c", "rgb", "-o", out, args.pdf, "1"], check=True)
        image = read_ppm(out).copy()
    s = image.shape[0] / height
    top, bottom = 0, height
    if args.rows:
        top, bottom = (int(v) for v in args.rows.split(":"))
    image = image[int(top * s):int(bottom * s)]
    column_height = -(-image.shape[0] // args.columns)
    cw = image.shape[1] + MARGIN + 10
    legend = 30 + 22 * len(LABELS)
    canvas = np.full((column_height + legend, cw * args.columns, 3), 255, np.uint8)
    margin = np.full((image.shape[0], MARGIN, 3), 255, np.uint8)
    totals = {}
    rows = {}
    for strip in page["strips"]:
        rows.setdefault(strip["top"], []).append(strip)
    for strip_top, tiles in rows.items():
        a, b = int((strip_top - top) * s), int((strip_top + tiles[0]["rows"] - top) * s)
        a, b = max(0, a), min(image.shape[0], max(b, a + 1))
        for n, strip in enumerate(sorted(tiles, key=lambda t: t.get("left", 0))):
            k = kind(strip)
            totals[k] = totals.get(k, 0) + strip["bytes"]
            if a >= b:
                continue
            # The margin: the strip's kind, or the kinds of its two images side by side.
            m0, m1 = n * MARGIN // len(tiles), (n + 1) * MARGIN // len(tiles)
            margin[a:b, m0:m1] = COLOURS[k]
            columns = strip.get("columns", width)
            if columns < width:
                # A frame around the JPEG columns, on the page.
                x0 = int(strip.get("left", 0) * s)
                x1 = min(image.shape[1], max(x0 + 2, int((strip.get("left", 0) + columns) * s)))
                image[a:b, x0:x0 + 1] = image[a:b, x1 - 1:x1] = COLOURS[k]
                image[a, x0:x1] = image[b - 1, x0:x1] = COLOURS[k]
        if a < b:
            margin[a, :] = (255, 255, 255)  # a hairline between strips
    for c in range(args.columns):
        part = slice(c * column_height, min(image.shape[0], (c + 1) * column_height))
        rows = part.stop - part.start
        if rows <= 0:
            break
        x = c * cw
        canvas[:rows, x:x + MARGIN] = margin[part]
        canvas[:rows, x + MARGIN + 2:x + MARGIN + 2 + image.shape[1]] = image[part]
    y = column_height + 14
    total = sum(totals.values())
    annotations = []
    for k, label in LABELS.items():
        if k not in totals:
            continue
        canvas[y:y + 14, 10:30] = COLOURS[k]
        annotations += ["-annotate", "+40+%d" % (y + 12),
                        "%s: %.1f MB (%d%% of the image bytes)" % (label, totals[k] / 1e6, round(100 * totals[k] / max(1, total)))]
        y += 22
    write_png(args.out, canvas[:y + 8])
    # The legend's words, by ImageMagick (any sans-serif font fontconfig finds).
    subprocess.run(["/usr/bin/convert", args.out, "-font", "DejaVu-Sans", "-pointsize", "14", "-fill", "black"]
                   + annotations + [args.out], check=True)


if __name__ == "__main__":
    main()
