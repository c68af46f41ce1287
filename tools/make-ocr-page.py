#!/usr/bin/env python3
"""Draws a phone page with known text and its scrolled captures, for the text layer's measures.

A page as a phone shows it (1170 px wide, three device pixels a point): Latin paragraphs at three
sizes (36, 48 and 72 px: 12, 16 and 24 points), a Japanese paragraph, UI rows (buttons with labels,
a divider) and photos between them (smooth noise, no text). The text is real English words from a
fixed vocabulary in a fixed pseudo-random order, so every run draws the same page.

    make-ocr-page.py FOLDER [HEIGHT]

writes FOLDER/page.png (the whole page, HEIGHT rows, default 4200), FOLDER/capture-0.png …
(1170x2532 windows of it, each scrolled at most 1200 rows below the last, the last at the bottom)
and FOLDER/truth.json: the page's size and every word drawn, with its text, its kind (body: the
Latin paragraphs; ui: button labels; japanese: the Japanese paragraph, one entry a character) and
its ink box [x0, y0, x1, y1] in page pixels (measured on the drawn word, not from font metrics).
Needs Pillow and numpy, DejaVu Sans (fonts-dejavu-core) and IPAGothic (fonts-ipafont-gothic).
"""
import json, os, random, sys

import numpy as np
from PIL import Image, ImageDraw, ImageFont

WIDTH = 1170
VIEWPORT = 2532
SCROLL = 1200
MARGIN = 60
LATIN = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
JAPANESE = "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf"
WORDS = """the of and to in is that for it as was with be by on not he this are or his from at which
but have an they you were her she there been one all we their has would when if more will other
into some could them its then two may first any like new these time people only made after also
did many before must through years where much your way well down should because each just those
how too little state good very make world still own see men work long get here between both life
being under never day same another know while last might great old year off come since against go
came right used take three states himself few house use during without again place around however
home small found thought went say part once general high upon school every does got united left
number course war until always away something fact though water less public put think almost hand
enough far took head yet government system better set told nothing night end why called didn find
look asked later knew point next program city business give group toward young days let room
president side social given present several order national possible rather second face per among
form important often things looked early white case john become large big need four within felt
along children saw best church ever least power development light thing seemed family interest want
members others mind country area done turned although open god service problem certain kind different
thus began door help means sense whole matter perhaps itself york times law human line above name
example action company hands local show whether five history gave today either act feet across taken
past quite anything seen having death experience body word half really week field car words already
information tell together college shall money period held keep sure probably free seems real behind
cannot miss political air question office making brought whose special major heard problems ago
became federal moment study available known result street economic boy reason change south board
individual job society areas west close turn love community true court force full""".split()
JAPANESE_TEXT = ("東京の朝は早い。駅の改札を抜けると、人々は足早に会社へ向かう。"
                 "小さな喫茶店では店主がコーヒーを淹れ、新聞を読む客が静かに座っている。"
                 "午後になると公園に子供たちが集まり、夕方には商店街に明かりがともる。")


def ink_box(draw_word, font, text, x, y):
    """The ink box of `text` drawn at (x, y): measured on its own image, in page pixels."""
    left, top, right, bottom = font.getbbox(text)
    scratch = Image.new("L", (right - min(left, 0) + 8, bottom - min(top, 0) + 8), 0)
    ImageDraw.Draw(scratch).text((4 - min(left, 0), 4 - min(top, 0)), text, font=font, fill=255)
    ink = np.asarray(scratch) > 96
    rows, cols = np.nonzero(ink.any(axis=1))[0], np.nonzero(ink.any(axis=0))[0]
    if len(rows) == 0:
        return None
    ox, oy = x - (4 - min(left, 0)), y - (4 - min(top, 0))
    return [int(ox + cols[0]), int(oy + rows[0]), int(ox + cols[-1] + 1), int(oy + rows[-1] + 1)]


def main():
    folder = sys.argv[1]
    height = int(sys.argv[2]) if len(sys.argv) > 2 else 4200
    os.makedirs(folder, exist_ok=True)
    rng = random.Random(2026)
    np_rng = np.random.default_rng(2026)
    page = Image.new("RGB", (WIDTH, height), (255, 255, 255))
    draw = ImageDraw.Draw(page)
    truth = []
    y = 40

    def paragraph(size, lines, colour=(28, 28, 34)):
        nonlocal y
        font = ImageFont.truetype(LATIN, size)
        space = font.getlength(" ")
        for _ in range(lines):
            x = MARGIN
            line_height = int(size * 1.45)
            if y + line_height > height - 40:
                return
            while True:
                word = rng.choice(WORDS)
                if rng.random() < 0.12:
                    word = word.capitalize()
                w = font.getlength(word)
                if x + w > WIDTH - MARGIN:
                    break
                draw.text((x, y), word, font=font, fill=colour)
                box = ink_box(draw, font, word, x, y)
                if box:
                    truth.append({"text": word, "kind": "body", "size": size, "box": box})
                x += w + space
            y += line_height
        y += size

    def japanese():
        nonlocal y
        size = 48
        font = ImageFont.truetype(JAPANESE, size)
        x = MARGIN
        for ch in JAPANESE_TEXT:
            w = font.getlength(ch)
            if x + w > WIDTH - MARGIN:
                x = MARGIN
                y += int(size * 1.5)
            if y + size * 1.5 > height - 40:
                return
            draw.text((x, y), ch, font=font, fill=(28, 28, 34))
            box = ink_box(draw, font, ch, x, y)
            if box and ch not in "、。":
                truth.append({"text": ch, "kind": "japanese", "size": size, "box": box})
            x += w
        y += int(size * 2.5)

    def ui_row():
        nonlocal y
        font = ImageFont.truetype(LATIN, 42)
        labels = rng.sample(["Settings", "Cancel", "Continue", "Sign in", "Share", "Download", "Library", "Profile"], 3)
        x = MARGIN
        for label in labels:
            w = int(font.getlength(label)) + 64
            draw.rounded_rectangle([x, y, x + w, y + 110], radius=28, fill=(232, 236, 244))
            tx, ty = x + 32, y + 28
            draw.text((tx, ty), label, font=font, fill=(20, 90, 200))
            for part, offset in zip(label.split(), [0, font.getlength(label.split()[0] + " ")]):
                box = ink_box(draw, font, part, tx + offset, ty)
                if box:
                    truth.append({"text": part, "kind": "ui", "size": 42, "box": box})
            x += w + 36
        y += 150
        draw.line([MARGIN, y, WIDTH - MARGIN, y], fill=(210, 210, 216), width=3)
        y += 40

    def photo(rows):
        nonlocal y
        rows = min(rows, height - 40 - y)
        if rows <= 0:
            return
        coarse = np_rng.random((rows // 40 + 2, WIDTH // 40 + 2, 3))
        smooth = np.asarray(Image.fromarray((coarse * 255).astype(np.uint8)).resize((WIDTH - 2 * MARGIN, rows), Image.BICUBIC))
        grain = np_rng.normal(0, 6, smooth.shape)
        page.paste(Image.fromarray(np.clip(smooth + grain, 0, 255).astype(np.uint8)), (MARGIN, y))
        y += rows + 50

    paragraph(48, 6)
    ui_row()
    photo(420)
    paragraph(36, 9)
    japanese()
    paragraph(72, 4)
    photo(360)
    ui_row()
    paragraph(48, 8)
    photo(300)
    while y < height - 200:
        paragraph(36, 6)
    page.save(os.path.join(folder, "page.png"))
    tops = list(range(0, height - VIEWPORT, SCROLL)) + [height - VIEWPORT]
    for i, top in enumerate(tops):
        page.crop((0, top, WIDTH, top + VIEWPORT)).save(os.path.join(folder, f"capture-{i}.png"))
    with open(os.path.join(folder, "truth.json"), "w") as f:
        json.dump({"width": WIDTH, "height": height, "captures": tops, "words": truth}, f)


if __name__ == "__main__":
    main()
