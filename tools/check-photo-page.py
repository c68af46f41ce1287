#!/usr/bin/env python3
"""Checks a full-page PDF of the photo-rich page (tools/make-photo-page.py) with outside readers.

    check-photo-page.py PAGE.pdf FOLDER [--readers pdftoppm,mutool,gs] [--json]

FOLDER holds the captures and page.json the generator wrote. The page the captures show is rebuilt
from them (the first capture's header, the scrolled content, the last capture's footer); each reader
renders the PDF at one pixel per image pixel (72 dpi times the image pixels per point), and the render is compared with it:

- every row the generator drew as text must be identical (lossless), counted per reader (poppler
  smooths images even at one pixel per pixel, so its count is informative: compare it with its
  render of a one-image lossless PDF of the same page, or use mupdf, which draws pixels exactly);
- every photo rectangle's PSNR (RGB, dB) — lossless strips give infinity;
- `qpdf --check` must be clean.

Prints one line per reader (or JSON with --json) and exits 1 when a text row differs, a photo is
below 40 dB, or qpdf complains. Needs numpy, qpdf, poppler-utils, mupdf-tools, ghostscript.
"""
import argparse, json, math, os, subprocess, sys, tempfile

import numpy as np


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    fields, at = [], 0
    while len(fields) < 4:
        while data[at:at + 1].isspace():
            at += 1
        if data[at:at + 1] == b"#":
            at = data.index(b"\n", at)
            continue
        end = at
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[at:end])
        at = end
    if fields[0] != b"P6" or fields[3] != b"255":
        raise SystemExit("%s: expected an 8-bit P6 PPM" % path)
    width, height = int(fields[1]), int(fields[2])
    return np.frombuffer(data, np.uint8, width * height * 3, at + 1).reshape(height, width, 3)


def read_png(path):
    """Decodes a PNG with ImageMagick (as PPM), so no Python imaging package is needed."""
    return read_ppm_bytes(subprocess.run(["/usr/bin/convert", path, "-depth", "8", "ppm:-"],
                                         check=True, capture_output=True).stdout)


def read_ppm_bytes(data):
    with tempfile.NamedTemporaryFile(suffix=".ppm") as f:
        f.write(data)
        f.flush()
        return read_ppm(f.name).copy()


def reference(folder, truth):
    """The page the captures show, rebuilt from them as the generator laid them out."""
    header, footer, scroll = truth["header"], truth["footer"], truth["scroll"]
    width, height = truth["page"]
    count = truth["captures"]
    content = truth["viewport"][1] - header - footer
    page = np.empty((height, width, 3), np.uint8)
    for n in range(count):
        capture = read_png(os.path.join(folder, "capture-%d.png" % n))
        if n == 0:
            page[:header] = capture[:header]
        page[header + n * scroll:header + n * scroll + content] = capture[header:header + content]
        if n == count - 1:
            page[height - footer:] = capture[header + content:]
    return page


def page_width_points(pdf):
    """The page's width in points as pdfinfo gives it (without /UserUnit: a tall page is written in
    larger units, since a PDF page side may not exceed 14,400 units)."""
    info = subprocess.run(["pdfinfo", pdf], check=True, capture_output=True, text=True).stdout
    for line in info.splitlines():
        if line.startswith("Page size:"):
            return float(line.split()[2])
    raise SystemExit("%s: pdfinfo gives no page size" % pdf)


def rendered(reader, pdf, work, width):
    """Renders at one pixel per image pixel. Readers differ on /UserUnit (mupdf honours it, poppler
    does not), so the resolution is found by a first render at a resolution that assumes the unit is
    ignored, and a second one when the width says otherwise."""
    dpi = 72 * width / page_width_points(pdf)
    image = render(reader, pdf, work, "%g" % dpi)
    if image.shape[1] != width:
        dpi *= width / image.shape[1]
        image = render(reader, pdf, work, "%g" % dpi)
    return image


def render(reader, pdf, work, dpi):
    out = os.path.join(work, reader + ".ppm")
    if reader == "pdftoppm":
        subprocess.run(["pdftoppm", "-r", dpi, "-singlefile", pdf, out[:-4]], check=True)
    elif reader == "mutool":
        subprocess.run(["mutool", "draw", "-q", "-r", dpi, "-c", "rgb", "-o", out, pdf, "1"], check=True)
    elif reader == "gs":
        subprocess.run(["gs", "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=ppmraw", "-r" + dpi,
                        "-dInterpolateControl=0", "-o", out, pdf], check=True)
    else:
        raise SystemExit("unknown reader %s" % reader)
    return read_ppm(out)


def psnr(a, b):
    mse = float(np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2))
    return math.inf if mse == 0 else 10 * math.log10(255 * 255 / mse)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pdf")
    parser.add_argument("folder")
    parser.add_argument("--readers", default="pdftoppm,mutool,gs")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with open(os.path.join(args.folder, "page.json")) as f:
        truth = json.load(f)
    qpdf = subprocess.run(["qpdf", "--check", args.pdf], capture_output=True, text=True)
    expected = reference(args.folder, truth)
    results, failed = {"qpdf": qpdf.returncode == 0}, qpdf.returncode != 0
    with tempfile.TemporaryDirectory() as work:
        for reader in args.readers.split(","):
            image = rendered(reader, args.pdf, work, truth["page"][0])
            if image.shape != expected.shape:
                results[reader] = {"error": "rendered %s, expected %s" % (image.shape, expected.shape)}
                failed = True
                continue
            differing = sum(1 for top, bottom in truth["text_rows"]
                            if not np.array_equal(image[top:bottom], expected[top:bottom]))
            photos = [psnr(image[y:y + h, x:x + w], expected[y:y + h, x:x + w]) for x, y, w, h in truth["photos"]]
            results[reader] = {"text_rows": len(truth["text_rows"]), "text_rows_differing": differing,
                               "photo_psnr_min": min(photos) if photos else None,
                               "page_psnr": psnr(image, expected)}
            failed |= differing > 0 or (photos and min(photos) < 40)
            del image
    if args.json:
        print(json.dumps(results, default=lambda v: None))
    else:
        print("qpdf --check: %s" % ("clean" if results["qpdf"] else "FAILED\n" + qpdf.stdout + qpdf.stderr))
        for reader in args.readers.split(","):
            r = results[reader]
            if "error" in r:
                print("%-9s %s" % (reader, r["error"]))
            else:
                print("%-9s text lines differing %d/%d, photo PSNR min %.1f dB, page PSNR %.1f dB"
                      % (reader, r["text_rows_differing"], r["text_rows"], r["photo_psnr_min"] or math.inf, r["page_psnr"]))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
