#!/usr/bin/env python3
"""Checks a full-page PDF of the photo-rich page (tools/make-photo-page.py) with outside readers.

    check-photo-page.py PAGE.pdf FOLDER [--readers pdftoppm,mutool,gs] [--json]

FOLDER holds the captures and page.json the generator wrote. The page the captures show is rebuilt
from them (the first capture's header, the scrolled content, the last capture's footer); each reader
renders the PDF at one pixel per image pixel (72 dpi times the image pixels per point), and the render is compared with it:

- every line of text the generator drew (its box: page.json's text_boxes; without them, its rows
  outside the photo rectangles beside it) must be identical (lossless), counted per reader (poppler
  smooths images even at one pixel per pixel: its render is compared with its own render of a PDF
  of one lossless image of the same pixels; mupdf and ghostscript draw pixels exactly),
  and no text box may lie where the PDF shows a JPEG image (a strip, or the JPEG columns of a strip
  cut in two: there the JPEG image is drawn full width below a lossless one whose stencil /Mask
  leaves those columns to it);
- every photo rectangle's PSNR (RGB, dB) — lossless strips give infinity;
- `qpdf --check` must be clean;
- the size split: bytes, images (strips and tiles) and area (in rows of the page's width) of each
  kind of image (palette, flate, jpeg), and how much of that area the generator drew as text boxes
  or photos.

With --seams DPIS (e.g. 72,150,300) the strip boundaries are checked too (and the edges of JPEG
columns, where the windows cross them): a window around each boundary between two strips (a copy of the page with a smaller MediaBox, added to the PDF as an
incremental update, so the same strip images are drawn) is rendered by every reader at each
resolution, beside a PDF of one lossless image of the same pixels (mupdf's exact render of the page
at one pixel per image pixel) at the same place, drawn the 0.02 rows short at each end that
pdf-page draws its strips; the largest difference per reader and resolution is reported and must
be at most 1 level. Windows begin and end on the page's strip grid (rows a whole number of device
pixels at 72, 150 and 300 dpi with and without /UserUnit, which poppler ignores: 12 rows times the
unit at one pixel a point), as strips do, so a reader's grid fitting treats them like the page.
Windows crossing images narrower than the page (tiles side by side, as pdf-page wrote them
before it drew both images of a strip cut in two full width) are reported on a line of their own (a
reader resamples each image by itself: mupdf's and poppler's rounding across a tile may differ from
one image of the page). Device rows (and columns) whose centre lies exactly on a boundary between two image rows (columns)
(every 25th at 150 and 300 dpi for readers that honour /UserUnit) may show either, both correct:
they are left out of the check and their largest difference is reported on a line of its own.

Prints one line per reader (or JSON with --json) and exits 1 when a text row differs, a photo is
below 40 dB, a seam differs by more than 1 level, or qpdf complains. Needs numpy, qpdf,
poppler-utils, mupdf-tools, ghostscript.
"""
import argparse, glob, json, math, os, re, subprocess, sys, tempfile, zlib
from fractions import Fraction

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


class PagePDF:
    """The first page of a PDF as pdf-page writes it: its objects' offsets, MediaBox, UserUnit, the
    XObjects and content stream, and where each strip is drawn."""

    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = f.read()
        self.size = int(re.findall(rb"/Size (\d+)", self.data)[-1])
        self.root = int(re.findall(rb"/Root (\d+) 0 R", self.data)[-1])
        # The MediaBox's lower edge is below 0 when the last strip's image has white rows below the
        # page's own (the page's coordinates stay those of its height).
        # (The CropBox, [0 0 width height], leaves those rows out; the windows below set their own
        # MediaBox and no CropBox.)
        page = re.search(rb"<< /Type /Page /Parent \d+ 0 R /MediaBox \[0 (-?[\d.]+) ([\d.]+) ([\d.]+)\](?: /CropBox \[[\d. ]+\])?"
                         rb"(?: /UserUnit ([\d.]+))? /Resources (<< /XObject << .*? >> >>) /Contents (\d+) 0 R >>", self.data)
        if not page:
            raise SystemExit("%s: no pdf-page page object found" % path)
        self.bottom, self.width, self.height = float(page.group(1)), float(page.group(2)), float(page.group(3))
        self.unit = page.group(4).decode() if page.group(4) else None
        self.resources = page.group(5).decode()
        self.contents = int(page.group(6))
        body = re.search(rb"%d 0 obj\n<< /Length (\d+) >>\nstream\n" % self.contents, self.data)
        stream = self.data[body.end():body.end() + int(body.group(1))].decode()
        # Each strip or tile: "q w 0 0 h x y cm /ImK Do Q", in page units.
        self.placed = [(float(x), float(y), float(w), float(h), int(k)) for w, h, x, y, k in
                       re.findall(r"q ([\d.]+) 0 0 ([\d.]+) (-?[\d.]+) (-?[\d.]+) cm /Im(\d+) Do Q", stream)]
        self.strips = [(y, h) for x, y, w, h, k in self.placed]
        self.objects = {int(k): int(n) for k, n in re.findall(r"/Im(\d+) (\d+) 0 R", self.resources)}

    def pixels_per_unit(self):
        """Image pixels per page unit, from the first image drawn (its /Width over the width it is
        drawn at, which may be a little short of whole columns)."""
        x, y, w, h, k = self.placed[0]
        number = self.objects[k]
        d = re.search(rb"%d 0 obj\n<< /Type /XObject /Subtype /Image /Width (\d+)" % number, self.data)
        columns = int(d.group(1))
        return columns / w if abs(columns / w - round(columns / w)) > 0.01 else float(round(columns / w))

    def boundaries(self):
        """Strip boundaries in page units from the bottom: each strip's top edge but the first's
        (strips are drawn a little short at both ends: the edge is halfway between a strip's top
        and the bottom of the strip above)."""
        tops = sorted({round(y + h, 3) for y, h in self.strips})
        bottoms = sorted({round(y, 3) for y, h in self.strips})
        return [(t + b) / 2 for t, b in zip(tops, bottoms[1:])]

    def windows(self, path, boxes):
        """Writes this PDF with an incremental update whose pages (a new page tree: the original
        page is left out) are the page cut to each box (bottom, top in page units), drawing the
        same strips."""
        out = bytearray(self.data)
        number, offsets, kids = self.size, {}, []
        pages = number + len(boxes)
        for bottom, top in boxes:
            offsets[number] = len(out)
            unit = " /UserUnit %s" % self.unit if self.unit else ""
            out += ("%d 0 obj\n<< /Type /Page /Parent %d 0 R /MediaBox [0 %s %s %s]%s /Resources %s /Contents %d 0 R >>\nendobj\n"
                    % (number, pages, fmt(bottom), fmt(self.width), fmt(top), unit, self.resources, self.contents)).encode()
            kids.append(number)
            number += 1
        offsets[pages] = len(out)
        out += ("%d 0 obj\n<< /Type /Pages /Kids [%s] /Count %d >>\nendobj\n"
                % (pages, " ".join("%d 0 R" % k for k in kids), len(kids))).encode()
        catalog = pages + 1
        offsets[catalog] = len(out)
        out += ("%d 0 obj\n<< /Type /Catalog /Pages %d 0 R >>\nendobj\n" % (catalog, pages)).encode()
        xref = len(out)
        out += ("xref\n%d %d\n" % (self.size, catalog + 1 - self.size)).encode()
        for n in range(self.size, catalog + 1):
            out += ("%010d 00000 n \n" % offsets[n]).encode()
        previous = int(re.findall(rb"startxref\n(\d+)", self.data)[-1])
        out += ("trailer\n<< /Size %d /Root %d 0 R /Prev %d >>\nstartxref\n%d\n%%%%EOF\n"
                % (catalog + 1, catalog, previous, xref)).encode()
        with open(path, "wb") as f:
            f.write(out)


def fmt(v):
    text = "%.4f" % v
    return text.rstrip("0").rstrip(".")


def one_image_pdf(path, pdf, boxes, images, inset=0):
    """A PDF whose pages are `boxes` (bottom, top in page units) of `pdf`'s page, each drawing one
    lossless RGB image (`images`, each covering its box's outer rectangle (bottom, top), drawn
    `inset` page units short at both ends)."""
    objects = []
    kids = []
    for (bottom, top), (outer_bottom, outer_top, pixels) in zip(boxes, images):
        height, width, _ = pixels.shape
        image = len(objects) + 3
        raw = zlib.compress(np.concatenate([np.zeros((height, 1), np.uint8), pixels.reshape(height, width * 3)], axis=1).tobytes(), 6)
        objects.append(b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /BitsPerComponent 8 /ColorSpace /DeviceRGB"
                       b" /Interpolate false /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors 3 /BitsPerComponent 8"
                       b" /Columns %d >> /Length %d >>\nstream\n" % (width, height, width, len(raw)) + raw + b"\nendstream")
        content = ("q %s 0 0 %s 0 %s cm /Im0 Do Q\n" % (fmt(pdf.width), fmt(outer_top - outer_bottom - 2 * inset), fmt(outer_bottom + inset))).encode()
        objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
        unit = (" /UserUnit %s" % pdf.unit) if pdf.unit else ""
        objects.append(("<< /Type /Page /Parent 2 0 R /MediaBox [0 %s %s %s]%s /Resources << /XObject << /Im0 %d 0 R >> >>"
                        " /Contents %d 0 R >>" % (fmt(bottom), fmt(pdf.width), fmt(top), unit, image, image + 1)).encode())
        kids.append(image + 2)
    head = [b"<< /Type /Catalog /Pages 2 0 R >>",
            ("<< /Type /Pages /Kids [%s] /Count %d >>" % (" ".join("%d 0 R" % k for k in kids), len(kids))).encode()]
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for n, body in enumerate(head + objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(offsets) + 1)
    for o in offsets:
        out += b"%010d 00000 n \n" % o
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(offsets) + 1, xref)
    with open(path, "wb") as f:
        f.write(out)


def render_pages(reader, pdf, work, dpi, name, first=1):
    """The pages of `pdf` from `first` (from 1) rendered by `reader` at `dpi`, in page order."""
    prefix = os.path.join(work, "%s-%s-%s" % (name, reader, dpi))
    if reader == "pdftoppm":
        subprocess.run(["pdftoppm", "-r", str(dpi), "-f", str(first), pdf, prefix], check=True)
        files = sorted(glob.glob(prefix + "-*.ppm"), key=lambda p: int(p[len(prefix) + 1:-4]))
    elif reader == "mutool":
        subprocess.run(["mutool", "draw", "-q", "-r", str(dpi), "-c", "rgb", "-o", prefix + "-%d.ppm", pdf, "%d-N" % first], check=True)
        files = sorted(glob.glob(prefix + "-*.ppm"), key=lambda p: int(p[len(prefix) + 1:-4]))
    else:
        subprocess.run(["gs", "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=ppmraw", "-r%s" % dpi, "-dFirstPage=%d" % first,
                        "-dInterpolateControl=0", "-o", prefix + "-%d.ppm", pdf], check=True)
        files = sorted(glob.glob(prefix + "-*.ppm"), key=lambda p: int(p[len(prefix) + 1:-4]))
    images = [read_ppm(f).copy() for f in files]
    for f in files:
        os.remove(f)
    return images


def seams(pdf_path, readers, dpis, work, pixels_per_unit, limit=40):
    """The largest difference around strip boundaries per reader and resolution, against a one-image
    lossless PDF of the same pixels. `limit` boundaries at most, spread over the page."""
    pdf = PagePDF(pdf_path)
    boundaries = pdf.boundaries()
    if len(boundaries) > limit:
        # Boundaries at a strip cut in two (two images over the same rows) first, up to half the
        # limit; the rest spread over the page.
        rows = {}
        for x, y, w, h, k in pdf.placed:
            rows.setdefault((round(y, 3), round(h, 3)), []).append(k)
        cut = [(y, h) for (y, h), ks in rows.items() if len(ks) > 1]
        near = [b for b in boundaries if any(abs(b - y) < 1 or abs(b - (y + h)) < 1 for y, h in cut)]
        near = near[:limit // 2] if len(near) <= limit // 2 else [near[int(k * len(near) / (limit // 2))] for k in range(limit // 2)]
        rest = [b for b in boundaries if b not in near]
        step = len(rest) / (limit - len(near))
        boundaries = sorted(near + [rest[int(k * step)] for k in range(limit - len(near))])
    # Windows whose edges are on the strip grid from the page's top, as the page's own edges and
    # pdf-page's strip boundaries are: at 72, 150 and 300 dpi they fall on whole device pixels with
    # and without /UserUnit, so a reader's grid fitting treats the window like the page.
    unit = float(pdf.unit or 1)
    grid = strip_grid(pixels_per_unit / unit, unit)
    height = pdf.height * pixels_per_unit
    rows = (pdf.height - pdf.bottom) * pixels_per_unit

    def box(top, bottom):
        return ((height - bottom) / pixels_per_unit, (height - top) / pixels_per_unit)

    inner, outer, tops = [], [], []
    for b in boundaries:
        r = round(height - b * pixels_per_unit)
        top, bottom = max(0, (r - 16) // grid * grid), min(rows, -(-(r + 16) // grid) * grid)
        inner.append(box(top, bottom))
        outer.append(box(max(0, top - grid), min(rows, bottom + grid)))
        tops.append(top)
    # Windows that cross a strip cut into tiles (images narrower than the page) are reported apart.
    tiled = []
    for bottom_unit, top_unit in inner:
        tiled.append(any(w < pdf.width - 1e-6 and y < top_unit and y + h > bottom_unit for x, y, w, h, k in pdf.placed))
    windows_inner, windows_outer = os.path.join(work, "inner.pdf"), os.path.join(work, "outer.pdf")
    pdf.windows(windows_inner, inner)
    pdf.windows(windows_outer, outer)
    # The pixels the strips draw: mupdf at one pixel per image pixel is exact.
    exact = render_pages("mutool", windows_outer, work, "%g" % (72 * pixels_per_unit / float(pdf.unit or 1)), "exact")
    reference = os.path.join(work, "reference.pdf")
    one_image_pdf(reference, pdf, inner, [(b, t, image) for (b, t), image in zip(outer, exact)],
                  INSET / pixels_per_unit if len(pdf.strips) > 1 else 0)
    results = {"boundaries": len(pdf.boundaries()), "checked": len(boundaries), "ties": {}, "tiled": {},
               "tiled_windows": sum(tiled)}
    for reader in readers:
        for dpi in dpis:
            got = render_pages(reader, windows_inner, work, dpi, "test")
            want = render_pages(reader, reference, work, dpi, "reference")
            # Device rows a inch: poppler ignores /UserUnit.
            per_inch = Fraction(72) * Fraction(pixels_per_unit).limit_denominator(10000) / (1 if reader == "pdftoppm" else Fraction(unit).limit_denominator(10000))
            worst = worst_tie = worst_tiled = 0
            for a, b, crosses_tiles in zip(got, want, tiled):
                if a.shape != b.shape:
                    worst = 255
                    continue
                differ = np.abs(a.astype(np.int16) - b.astype(np.int16)).max(axis=2)
                honours = reader != "pdftoppm"
                ties = tie_rows(differ.shape[0], int(dpi), per_inch) if honours else np.zeros(differ.shape[0], bool)
                # Columns alike (from the page's left edge): tiles side by side meet there too.
                tie_columns = tie_rows(differ.shape[1], int(dpi), per_inch) if honours else np.zeros(differ.shape[1], bool)
                tie = ties[:, None] | tie_columns[None, :]
                if crosses_tiles:
                    worst_tiled = max(worst_tiled, int(differ[~tie].max(initial=0)))
                else:
                    worst = max(worst, int(differ[~tie].max(initial=0)))
                worst_tie = max(worst_tie, int(differ[tie].max(initial=0)))
            results["%s@%s" % (reader, dpi)] = worst
            if any(tiled):
                results["tiled"]["%s@%s" % (reader, dpi)] = worst_tiled
            if reader != "pdftoppm" and ties_exist(int(dpi), per_inch):
                results["ties"]["%s@%s" % (reader, dpi)] = worst_tie
    return results


# Rows each strip of a page of several is drawn short at both ends (PDFDocumentWriter.inset).
INSET = 0.02


def strip_grid(scale, unit):
    """Rows between strip boundaries (PageGeometry.stripGrid): the smallest count that is a whole
    number of device pixels at 72, 150 and 300 dpi both in points and in the page's units."""
    factors = [Fraction(dpi) / (72 * Fraction(scale).limit_denominator(10000) * u)
               for dpi in (72, 150, 300) for u in (1, Fraction(unit).limit_denominator(10000))]
    for rows in range(1, 2401):
        if all((rows * f).denominator == 1 for f in factors):
            return rows
    return 12


def tie_rows(n, dpi, per_inch):
    """Device rows (from a window top on the grid) whose centre lies exactly on the boundary
    between two image rows: (i + 1/2) · per_inch / dpi is whole."""
    return np.array([((2 * i + 1) * per_inch / (2 * dpi)).denominator == 1 for i in range(n)], bool)


def ties_exist(dpi, per_inch):
    return bool(tie_rows(2 * dpi, dpi, per_inch).any())


def psnr(a, b):
    mse = float(np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2))
    return math.inf if mse == 0 else 10 * math.log10(255 * 255 / mse)


def image_kinds(data):
    """Each image XObject's kind (palette, flate, jpeg, or mask for a soft mask) and stream length,
    by object number."""
    kinds = {}
    for m in re.finditer(rb"(\d+) 0 obj\n<< /Type /XObject /Subtype /Image (.*?)>>\nstream", data, re.S):
        d = m.group(2)
        length = int(re.findall(rb"/Length (\d+)", d)[-1])
        if b"/ImageMask true" in d:
            kind = "stencil"
        elif b"/DeviceGray" in d and b"/FlateDecode" in d:
            kind = "mask"
        else:
            kind = "jpeg" if b"/DCTDecode" in d else "palette" if b"/Indexed" in d else "flate"
        kinds[int(m.group(1))] = (kind, length)
    return kinds


def painted_columns(data, number, width):
    """The columns image `number` paints: all, or with a stencil /Mask (a lossless image drawn over
    a JPEG one) those where its first row is 0."""
    at = data.find(b"\n%d 0 obj\n" % number)
    head = data[at:data.find(b"stream", at)]
    mask = re.search(rb"/Mask (\d+) 0 R", head)
    if not mask:
        return np.ones(width, bool)
    m = re.search(rb"\n%s 0 obj\n<<(.*?)>>\nstream\n" % mask.group(1), data, re.S)
    length = int(re.findall(rb"/Length (\d+)", m.group(1))[-1])
    rows = zlib.decompress(data[m.end():m.end() + length])
    row = np.frombuffer(rows[1:1 + (width + 7) // 8], np.uint8)
    return np.unpackbits(row)[:width] == 0


def size_split(path, truth):
    """Bytes, images and area (in rows of the page's width) of the page's image XObjects by kind
    (palette, flate, jpeg; soft masks apart), the area of each kind the generator drew as text boxes
    and as photo, and the text area drawn by JPEG images (which must be none), from where the
    content stream draws each image."""
    data = open(path, "rb").read()
    pdf = PagePDF(path)
    width, height = truth["page"]
    per_unit = pdf.pixels_per_unit()
    text, photo = np.zeros((height, width), bool), np.zeros((height, width), bool)
    for x, y, w, h in text_boxes(truth):
        text[y:y + h, x:x + w] = True
    for x, y, w, h in truth["photos"]:
        photo[y:y + h, x:x + w] = True
    kinds = image_kinds(data)
    split = {}
    for kind, length in kinds.values():
        if kind in ("mask", "stencil"):
            split.setdefault(kind, {"bytes": 0})["bytes"] += length
    # Which image shows each pixel: images are drawn in order, each over its rectangle but for the
    # columns its stencil masks out (there the JPEG image drawn before it shows).
    names = ["palette", "flate", "jpeg"]
    owner = np.full((height, width), -1, np.int8)
    for x, y, w, h, k in pdf.placed:
        kind, length = kinds[pdf.objects[k]]
        left, right = round(x * per_unit), min(width, round((x + w) * per_unit))
        top, bottom = max(0, round(height - (y + h) * per_unit)), min(height, round(height - y * per_unit))
        entry = split.setdefault(kind, {"bytes": 0, "strips": 0, "rows": 0, "text_rows": 0, "photo_rows": 0})
        entry["bytes"] += length
        entry["strips"] += 1
        columns = np.zeros(width, bool)
        columns[left:right] = painted_columns(data, pdf.objects[k], right - left)
        owner[top:bottom, columns] = names.index(kind)
    for i, kind in enumerate(names):
        if kind in split:
            shown = owner == i
            split[kind]["rows"] = int(shown.sum()) / width
            split[kind]["text_rows"] = int((shown & text).sum()) / width
            split[kind]["photo_rows"] = int((shown & photo).sum()) / width
    return split


def text_boxes(truth):
    """The generator's lines of text as [x, y, w, h]; for a page.json without them, each text row's
    columns left of, right of and between the photos beside it."""
    if "text_boxes" in truth:
        return truth["text_boxes"]
    boxes = []
    for top, bottom in truth["text_rows"]:
        beside = sorted((x, x + w) for x, y, w, h in truth["photos"] if y < bottom and y + h > top)
        x = 0
        for a, b in beside + [(truth["page"][0], truth["page"][0])]:
            if a > x:
                boxes.append([x, top, a - x, bottom - top])
            x = max(x, b)
    return boxes


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pdf")
    parser.add_argument("folder")
    parser.add_argument("--readers", default="pdftoppm,mutool,gs")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--seams", default="", help="resolutions (dpi) to check strip boundaries at, e.g. 72,150,300")
    parser.add_argument("--seam-limit", type=int, default=40, help="boundaries checked at most (spread over the page)")
    parser.add_argument("--seam-readers", default=None, help="readers for the seams (default: --readers)")
    parser.add_argument("--no-rows", action="store_true", help="skip the text-row and photo checks")
    args = parser.parse_args()
    with open(os.path.join(args.folder, "page.json")) as f:
        truth = json.load(f)
    qpdf = subprocess.run(["qpdf", "--check", args.pdf], capture_output=True, text=True)
    results, failed = {"qpdf": qpdf.returncode == 0}, qpdf.returncode != 0
    results["sizes"] = size_split(args.pdf, truth)
    text_in_jpeg = results["sizes"].get("jpeg", {}).get("text_rows", 0)
    failed |= text_in_jpeg > 0
    opening = re.findall(rb"/OpenAction \[\d+ 0 R /FitR ([^\]]*)\]", open(args.pdf, "rb").read())
    results["fitr"] = opening[0].decode() if opening else None
    with tempfile.TemporaryDirectory() as work:
        page = PagePDF(args.pdf)
        pixels_per_unit = page.pixels_per_unit()
        if args.seams:
            results["seams"] = seams(args.pdf, (args.seam_readers or args.readers).split(","), args.seams.split(","), work,
                                     pixels_per_unit, args.seam_limit)
            failed |= any(v > 1 for k, v in results["seams"].items() if "@" in k)
            failed |= any(v > 1 for v in results["seams"]["tiled"].values())
        expected = None if args.no_rows else reference(args.folder, truth)
        for reader in ([] if args.no_rows else args.readers.split(",")):
            image = rendered(reader, args.pdf, work, round(page.width * pixels_per_unit))
            # A page of several strips may be a few white rows taller and columns wider than the
            # image (its strips end on the grid): the image is its first rows and columns.
            image = image[:expected.shape[0], :expected.shape[1]]
            if image.shape != expected.shape:
                results[reader] = {"error": "rendered %s, expected %s" % (image.shape, expected.shape)}
                failed = True
                continue
            # poppler smooths an image's pixels even at one pixel per pixel: its render is held to
            # its own render of one lossless image of the page (the captures' pixels), the others
            # to the pixels themselves.
            want = expected
            if reader == "pdftoppm":
                one = os.path.join(work, "one-image.pdf")
                one_image_pdf(one, page, [(page.bottom, page.height)], [(0, page.height, expected)])
                want = rendered(reader, one, work, round(page.width * pixels_per_unit))[:expected.shape[0], :expected.shape[1]]
                os.remove(one)
            lines = text_boxes(truth)
            differing = sum(1 for x, y, w, h in lines
                            if not np.array_equal(image[y:y + h, x:x + w], want[y:y + h, x:x + w]))
            photos = [psnr(image[y:y + h, x:x + w], want[y:y + h, x:x + w]) for x, y, w, h in truth["photos"]]
            results[reader] = {"text_rows": len(lines), "text_rows_differing": differing,
                               "photo_psnr_min": min(photos) if photos else None,
                               "page_psnr": psnr(image, want), "against": "one image" if want is not expected else "pixels"}
            del want
            failed |= differing > 0 or (photos and min(photos) < 40)
            del image
    if args.json:
        print(json.dumps(results, default=lambda v: None))
    else:
        print("qpdf --check: %s" % ("clean" if results["qpdf"] else "FAILED\n" + qpdf.stdout + qpdf.stderr))
        print("opens on: /FitR %s" % results["fitr"])
        total = sum(v["bytes"] for v in results["sizes"].values())
        for kind, v in sorted(results["sizes"].items(), key=lambda kv: -kv[1]["bytes"]):
            if kind in ("mask", "stencil"):
                print("%-8s %10d B" % (kind, v["bytes"]))
                continue
            print("%-8s %10d B (%4.1f%%) %4d images %8.1f rows of area (text %.1f, photo %.1f), %.0f B a row"
                  % (kind, v["bytes"], 100.0 * v["bytes"] / max(1, total), v["strips"], v["rows"], v["text_rows"],
                     v["photo_rows"], v["bytes"] / max(1, v["rows"])))
        if "seams" in results:
            s = results["seams"]
            print("seams (%d of %d boundaries), largest difference from a one-image PDF: %s"
                  % (s["checked"], s["boundaries"], ", ".join("%s %d" % (k, v) for k, v in s.items() if "@" in k)))
            if s["tiled"]:
                print("  windows crossing strips cut into tiles (%d of %d; each reader resamples each image on its own):"
                      " %s" % (s["tiled_windows"], s["checked"], ", ".join("%s %d" % (k, v) for k, v in s["tiled"].items())))
            if s["ties"]:
                print("  at tie rows (a device row centred on an image-row boundary, either row right; not checked): %s"
                      % ", ".join("%s %d" % (k, v) for k, v in s["ties"].items()))
        for reader in ([] if args.no_rows else args.readers.split(",")):
            r = results[reader]
            if "error" in r:
                print("%-9s %s" % (reader, r["error"]))
            else:
                print("%-9s text lines differing %d/%d, photo PSNR min %.1f dB, page PSNR %.1f dB%s"
                      % (reader, r["text_rows_differing"], r["text_rows"], r["photo_psnr_min"] or math.inf, r["page_psnr"],
                         " (against its render of one lossless image of the page)" if r["against"] == "one image" else ""))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
