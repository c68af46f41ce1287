#!/usr/bin/env python3
"""Draws a photo-rich scrolling page and its phone captures, for the full-page benchmark.

A news/shop-like page as a phone shows it (1170 px wide, three device pixels a point): a sticky
header and tab bar, paragraphs of antialiased text (many grey levels, some coloured links), UI rows
(buttons, dividers), and photo blocks over about a fifth of the height — some full width, some two
side by side in a shop grid with their captions below, some beside a column of text. Everything is
drawn here from a fixed seed (no downloaded artwork): the same files on every run.

    make-photo-page.py FOLDER [COUNT] [--camera-photos] [--layout blocks|bands] [--seed N]

`--seed` draws another page of the same kind (default 2026, the benchmark's page). The `blocks`
layout (the default) is the page above. The `bands` layout is photo-rich the other way:
photos one after another at random heights (120 to 900 rows; most full width, some inset by the
margin) with narrow bands of text between them (one to three lines, or a button row), so that a
photo's top and bottom edges fall at any row; about four fifths of the page is photo.

writes FOLDER/capture-0.png … (COUNT captures of 1170x2532, default 50, each 1172 rows of scroll
below the last, so 50 make a page of 1170x59960; photos are stored as a site serves them, JPEG at
quality 80, and drawn decoded; with --camera-photos as drawn, fine grain on every pixel) and FOLDER/page.json: the page's size, the header
and footer heights, the scroll step, the rows drawn as text (page coordinates, [top, bottom)), each
line of text's box and the photo rectangles ([x, y, width, height]); a checker compares the PDF's
strips and tiles against these.
Needs numpy and libjpeg-turbo's cjpeg and djpeg.
"""
import json, os, struct, subprocess, sys, zlib

import numpy as np

WIDTH = 1170
VIEWPORT = 2532
HEADER = 192
FOOTER = 168
SCROLL = 1172
CONTENT = VIEWPORT - HEADER - FOOTER  # 2172 rows of page between the bars
MARGIN = 48
SEED = 2026
SERVED = True  # photos as a site serves them (JPEG); --camera-photos keeps the grain as drawn


def png(path, pixels):
    """Writes an RGB uint8 array as a PNG (filter 'up' rows, zlib level 6)."""
    height, width, _ = pixels.shape
    rows = pixels.reshape(height, width * 3)
    up = np.empty_like(rows)
    up[0] = rows[0]
    up[1:] = rows[1:] - rows[:-1]  # uint8 wraps, as PNG's Up filter does
    raw = np.concatenate([np.full((height, 1), 2, np.uint8), up], axis=1).tobytes()

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 6)))
        f.write(chunk(b"IEND", b""))


class Glyphs:
    """A made-up alphabet: strokes drawn at 6x and box-filtered, so edges take many grey levels."""

    def __init__(self, rng, height=42, count=72):
        self.height = height
        self.shapes = [self._glyph(rng, height) for _ in range(count)]

    @staticmethod
    def _glyph(rng, height):
        s = 6
        width = int(rng.integers(16, 30))
        h, w = height * s, width * s
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ink = np.zeros((h, w), bool)
        top, base = 0.28 * h, 0.78 * h
        if rng.random() < 0.3:
            top = 0.12 * h  # an ascender
        thickness = 2.1 * s
        for _ in range(int(rng.integers(2, 4))):
            x0, x1 = rng.uniform(0.15, 0.85, 2) * w
            y0, y1 = rng.uniform(top, base, 2)
            dx, dy = x1 - x0, y1 - y0
            length2 = dx * dx + dy * dy + 1e-6
            t = np.clip(((xx - x0) * dx + (yy - y0) * dy) / length2, 0, 1)
            d2 = (xx - x0 - t * dx) ** 2 + (yy - y0 - t * dy) ** 2
            ink |= d2 < thickness * thickness
        if rng.random() < 0.4:  # a bowl
            cx, cy, r = 0.5 * w, 0.6 * h, 0.3 * w
            d = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2)
            ink |= np.abs(d - r) < thickness
        return ink.reshape(height, s, width, s).mean(axis=(1, 3)).astype(np.float32)

    def line(self, rng, width):
        """Coverage of one line of words, `width` pixels wide at most: (coverage, used width)."""
        cover = np.zeros((self.height, width), np.float32)
        x = 0
        while True:
            word = [self.shapes[int(i)] for i in rng.integers(0, len(self.shapes), int(rng.integers(2, 9)))]
            span = sum(g.shape[1] for g in word)
            if x + span > width:
                break
            for g in word:
                cover[:, x:x + g.shape[1]] = np.maximum(cover[:, x:x + g.shape[1]], g)
                x += g.shape[1]
            x += 14
        return cover, x


def paint(canvas, top, left, cover, colour):
    """Blends `colour` into `canvas` through `cover` (0…1) at (top, left)."""
    h, w = cover.shape
    region = canvas[top:top + h, left:left + w].astype(np.float32)
    a = cover[:, :, None]
    canvas[top:top + h, left:left + w] = np.rint(region * (1 - a) + np.asarray(colour, np.float32) * a).astype(np.uint8)


def photo(rng, height, width):
    """A photo-like picture: smooth light and colour fields, a horizon, soft shapes, fine grain."""
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    img = np.zeros((height, width, 3), np.float32)
    base = rng.uniform(40, 200, 3)
    for c in range(3):
        field = np.full((height, width), base[c], np.float32)
        for _ in range(4):
            fx, fy = rng.uniform(0.5, 4, 2) * 2 * np.pi
            field += rng.uniform(8, 30) * np.sin(fx * xx / width + fy * yy / height + rng.uniform(0, 6.3))
        img[:, :, c] = field
    horizon = height * rng.uniform(0.35, 0.7) + height * 0.06 * np.sin(xx[0] / width * rng.uniform(3, 9))
    below = yy > horizon[None, :]
    img[below] = img[below] * 0.55 + np.asarray(rng.uniform(20, 120, 3), np.float32) * 0.45
    for _ in range(int(rng.integers(2, 6))):  # soft round shapes (fruit, faces, lamps)
        cx, cy = rng.uniform(0, width), rng.uniform(0, height)
        r = rng.uniform(0.05, 0.25) * min(width, height)
        blob = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))[:, :, None]
        img = img * (1 - blob) + np.asarray(rng.uniform(30, 240, 3), np.float32) * blob
    # Texture (leaves, fabric, gravel): noise at a quarter of the resolution, enlarged; then sensor
    # grain per channel. This is what makes a photo cost what real ones do in Flate and JPEG.
    small = rng.normal(0, 10, ((height + 3) // 4, (width + 3) // 4, 1)).astype(np.float32)
    texture = np.repeat(np.repeat(small, 4, 0), 4, 1)[:height, :width]
    texture = (texture + np.roll(texture, 2, 0) + np.roll(texture, 2, 1) + np.roll(texture, 2, (0, 1))) / 2
    grain = rng.normal(0, 4, (height, width, 3)).astype(np.float32)
    pixels = np.clip(np.rint(img + texture + grain), 0, 255).astype(np.uint8)
    return served(pixels) if SERVED else pixels


def served(pixels, quality=80):
    """The picture as a page shows it: sites serve photos as JPEG (quality about 80, 4:2:0), so a
    capture holds the decoded JPEG, not the camera's grain (libjpeg-turbo's cjpeg and djpeg)."""
    height, width, _ = pixels.shape
    ppm = b"P6\n%d %d\n255\n" % (width, height) + pixels.tobytes()
    jpeg = subprocess.run(["cjpeg", "-quality", str(quality)], input=ppm, capture_output=True, check=True).stdout
    decoded = subprocess.run(["djpeg", "-pnm"], input=jpeg, capture_output=True, check=True).stdout
    return read_pnm(decoded).reshape(height, width, 3)


def read_pnm(data):
    """The samples of a binary PPM."""
    fields, at = [], 0
    while len(fields) < 4:
        while data[at:at + 1].isspace():
            at += 1
        end = at
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[at:end])
        at = end
    return np.frombuffer(data[at + 1:], np.uint8)


class Page:
    """The page between the bars, drawn block by block; remembers which rows hold text."""

    def __init__(self, height, rng):
        self.rng = rng
        self.canvas = np.full((height, WIDTH, 3), 255, np.uint8)
        self.text_rows = []  # [top, bottom) in content coordinates
        self.text_boxes = []  # [x, y, w, h] of each line of text, in content coordinates
        self.photos = []     # [x, y, w, h] in content coordinates
        self.glyphs = Glyphs(rng)
        self.y = 0

    def room(self, h):
        return self.y + h <= self.canvas.shape[0]

    def text_line(self, left, width, colour=(24, 24, 32), top=None):
        top = self.y if top is None else top
        cover, used = self.glyphs.line(self.rng, width)
        if self.rng.random() < 0.25 and used > 200:  # a link: a coloured run of words
            start = int(self.rng.integers(0, used // 2))
            paint(self.canvas, top, left, cover[:, :start], colour)
            paint(self.canvas, top, left + start, cover[:, start:], (20, 90, 200))
        else:
            paint(self.canvas, top, left, cover, colour)
        self.text_rows.append([top, top + cover.shape[0]])
        self.text_boxes.append([left, top, cover.shape[1], cover.shape[0]])
        return cover.shape[0]

    def paragraph(self):
        """Lines of text: body text, secondary grey text, or text on a tinted card."""
        kind = int(self.rng.integers(0, 3))
        colour = [(24, 24, 32), (104, 108, 120), (40, 44, 60)][kind]
        lines = int(self.rng.integers(3, 9))
        if kind == 2 and self.room(lines * 60 + 48):
            self.canvas[self.y:self.y + lines * 60 + 24, MARGIN // 2:WIDTH - MARGIN // 2] = (246, 247, 250)
            self.y += 12
        for _ in range(lines):
            if not self.room(60):
                break
            self.text_line(MARGIN, WIDTH - 2 * MARGIN, colour=colour)
            self.y += 60
        self.y += 36

    def ui_row(self):
        """A row of buttons and a divider: flat colours, a few antialiased labels."""
        if not self.room(150):
            return
        self.canvas[self.y + 140:self.y + 143, MARGIN:WIDTH - MARGIN] = (222, 222, 228)
        x = MARGIN
        for _ in range(3):
            w = int(self.rng.integers(220, 320))
            if x + w > WIDTH - MARGIN:
                break
            self.canvas[self.y + 20:self.y + 120, x:x + w] = (236, 240, 250)
            self.text_line(x + 24, w - 48, colour=(30, 60, 140), top=self.y + 49)
            x += w + 30
        self.y += 170

    def full_photo(self):
        h = int(self.rng.integers(560, 900))
        if not self.room(h + 40):
            return
        self.canvas[self.y:self.y + h] = photo(self.rng, h, WIDTH)
        self.photos.append([0, self.y, WIDTH, h])
        self.y += h + 40

    def shop_grid(self):
        """Two photos side by side, each with a caption line below."""
        h, w = int(self.rng.integers(420, 560)), (WIDTH - 3 * MARGIN) // 2
        if not self.room(h + 120):
            return
        for k in range(2):
            x = MARGIN + k * (w + MARGIN)
            self.canvas[self.y:self.y + h, x:x + w] = photo(self.rng, h, w)
            self.photos.append([x, self.y, w, h])
            self.text_line(x, w, top=self.y + h + 24)
        self.y += h + 120

    def photo_beside_text(self):
        """A photo on the left, a column of text lines on its right (the rows mix both)."""
        h, w = int(self.rng.integers(360, 480)), 480
        if not self.room(h + 40):
            return
        self.canvas[self.y:self.y + h, MARGIN:MARGIN + w] = photo(self.rng, h, w)
        self.photos.append([MARGIN, self.y, w, h])
        left = MARGIN + w + 36
        for k in range(h // 60):
            self.text_line(left, WIDTH - MARGIN - left, top=self.y + k * 60)
        self.y += h + 40

    def band_photo(self):
        """A photo at a random height, full width or inset by the margin."""
        h = int(self.rng.integers(120, 900))
        if not self.room(h + 8):
            return
        inset = self.rng.random() < 0.3
        x, w = (MARGIN, WIDTH - 2 * MARGIN) if inset else (0, WIDTH)
        self.canvas[self.y:self.y + h, x:x + w] = photo(self.rng, h, w)
        self.photos.append([x, self.y, w, h])
        self.y += h

    def band_text(self):
        """A narrow band between two photos: one to three lines of text, or a row of buttons; half
        of them touch the photos (a caption bar on a tinted ground, no white between), the others
        have a few rows of white above and below."""
        touching = self.rng.random() < 0.5
        top = self.y
        self.y += 0 if touching else int(self.rng.integers(6, 30))
        if self.rng.random() < 0.2:
            self.ui_row()
        else:
            for _ in range(int(self.rng.integers(1, 4))):
                if not self.room(60):
                    break
                self.text_line(MARGIN, WIDTH - 2 * MARGIN, colour=[(24, 24, 32), (104, 108, 120)][int(self.rng.integers(0, 2))])
                self.y += 60
        self.y += 0 if touching else int(self.rng.integers(0, 24))
        if touching:  # the tinted ground under the band, drawn below its text
            ground = self.canvas[top:self.y]
            white = (ground == 255).all(axis=2)
            ground[white] = (238, 236, 230)

    def draw_bands(self):
        """Photos at random heights with narrow text bands between them, until the page is full."""
        while self.room(200):
            before = self.y
            self.band_photo()
            self.band_text()
            if self.y == before:
                break

    def draw(self):
        """Blocks until the page is full; photos take about a fifth of the height."""
        blocks = [self.paragraph, self.ui_row, self.full_photo, self.shop_grid, self.photo_beside_text]
        weights = [0.72, 0.08, 0.07, 0.07, 0.06]
        while self.room(200):
            before = self.y
            blocks[int(self.rng.choice(len(blocks), p=weights))]()
            if self.y == before:
                break


def bars():
    header = np.full((HEADER, WIDTH, 3), (30, 60, 140), np.uint8)
    header[60:132, 60:480] = (240, 240, 250)
    footer = np.full((FOOTER, WIDTH, 3), (245, 245, 248), np.uint8)
    footer[:3] = (200, 200, 205)
    for k in range(4):
        x0 = 120 + k * 270
        footer[48:120, x0:x0 + 72] = (30, 60, 140)
    return header, footer


def main():
    global SERVED
    args = [a for a in sys.argv[1:] if a != "--camera-photos"]
    SERVED = "--camera-photos" not in sys.argv[1:]
    layout = "blocks"
    if "--layout" in args:
        at = args.index("--layout")
        layout = args[at + 1] if at + 1 < len(args) else ""
        del args[at:at + 2]
    seed = SEED
    if "--seed" in args:
        at = args.index("--seed")
        seed = int(args[at + 1]) if at + 1 < len(args) and args[at + 1].isdigit() else -1
        del args[at:at + 2]
    if layout not in ("blocks", "bands") or not args or seed < 0:
        raise SystemExit("usage: make-photo-page.py FOLDER [COUNT] [--camera-photos] [--layout blocks|bands] [--seed N]")
    folder = args[0]
    count = int(args[1]) if len(args) > 1 else 50
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(seed)
    content_height = (count - 1) * SCROLL + CONTENT
    page = Page(content_height, rng)
    page.draw_bands() if layout == "bands" else page.draw()
    header, footer = bars()
    for n in range(count):
        top = n * SCROLL
        png(os.path.join(folder, "capture-%d.png" % n),
            np.concatenate([header, page.canvas[top:top + CONTENT], footer]))
    photo_rows = sum(h for _, _, w, h in page.photos if w == WIDTH) + \
        sum(h for x, _, w, h in page.photos if w < WIDTH and x == MARGIN and (layout == "blocks" or w > WIDTH // 2))
    truth = {
        "page": [WIDTH, HEADER + content_height + FOOTER],
        "layout": layout, "captures": count, "viewport": [WIDTH, VIEWPORT],
        "header": HEADER, "footer": FOOTER, "scroll": SCROLL,
        "text_rows": [[HEADER + a, HEADER + b] for a, b in page.text_rows],
        "text_boxes": [[x, HEADER + y, w, h] for x, y, w, h in page.text_boxes],
        "photos": [[x, HEADER + y, w, h] for x, y, w, h in page.photos],
        "photo_fraction": round(photo_rows / content_height, 3),
    }
    with open(os.path.join(folder, "page.json"), "w") as f:
        json.dump(truth, f)


if __name__ == "__main__":
    main()
