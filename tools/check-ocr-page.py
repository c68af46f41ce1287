#!/usr/bin/env python3
"""Measures a searchable PDF of the page tools/make-ocr-page.py drew against the words it drew.

    check-ocr-page.py PDF FOLDER [--kinds body,ui,japanese] [--json]

reads the PDF's words and boxes as poppler's `pdftotext -bbox` finds them (in points from the top
left, turned into page pixels by the ratio of the page's width in pixels to the PDF page's width,
so a PDF of any resolution compares) and FOLDER/truth.json, and prints for each kind of word
(body: the Latin paragraphs; ui: button labels; japanese: one entry a character) the recall — the
share of drawn words found with the same text (letters compared as drawn, punctuation around a
word ignored) at their place (the found box nearest to the drawn one among those with its text) —
and, over the words found, the share whose box overlaps the drawn ink box with an IoU of 0.6 or
more, and the lowest and median IoU. A Japanese character counts as found when a found word holds
it at that place.
"""
import json, re, subprocess, sys
from html import unescape


def pdf_words(pdf, scale):
    out = subprocess.run(["pdftotext", "-bbox", pdf, "-"], capture_output=True, text=True, check=True).stdout
    words = []
    for m in re.finditer(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>', out):
        box = [float(m.group(i)) * scale for i in range(1, 5)]
        words.append((unescape(m.group(5)), box))
    return words


def iou(a, b):
    x0, y0, x1, y1 = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    inter = max(0, x1 - x0) * max(0, y1 - y0)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0


def centre_distance(a, b):
    return abs((a[0] + a[2]) / 2 - (b[0] + b[2]) / 2) + abs((a[1] + a[3]) / 2 - (b[1] + b[3]) / 2)


def measure(pdf, truth, scale=1.0, kinds=("body", "ui", "japanese")):
    found = pdf_words(pdf, scale)
    stripped = [(re.sub(r"^\W+|\W+$", "", text), box) for text, box in found]
    result = {}
    for kind in kinds:
        drawn = [w for w in truth["words"] if w["kind"] == kind]
        if not drawn:
            continue
        used, ious = set(), []
        for w in drawn:
            best = None
            for i, (text, box) in enumerate(stripped):
                if i in used:
                    continue
                same = (w["text"] in text) if kind == "japanese" else (text == w["text"])
                if not same:
                    continue
                d = centre_distance(box, w["box"])
                if d < 3 * (w["box"][3] - w["box"][1]) and (best is None or d < best[0]):
                    best = (d, i, box)
            if best:
                if kind != "japanese":
                    used.add(best[1])
                    ious.append(iou(best[2], w["box"]))
        found_count = len(ious) if kind != "japanese" else sum(
            1 for w in drawn if any(w["text"] in t and centre_distance(b, w["box"]) < 3 * (w["box"][3] - w["box"][1]) for t, b in stripped))
        entry = {"drawn": len(drawn), "found": found_count, "recall": found_count / len(drawn)}
        if ious:
            ious.sort()
            entry.update({"iou_ok": sum(1 for v in ious if v >= 0.6) / len(ious), "iou_min": ious[0], "iou_median": ious[len(ious) // 2]})
        result[kind] = entry
    return result


def main():
    args = sys.argv[1:]
    kinds = ("body", "ui", "japanese")
    if "--kinds" in args:
        i = args.index("--kinds")
        kinds = tuple(args[i + 1].split(","))
        del args[i:i + 2]
    as_json = "--json" in args
    args = [a for a in args if a != "--json"]
    pdf, folder = args
    truth = json.load(open(f"{folder}/truth.json"))
    info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True, check=True).stdout
    width = float(re.search(r"Page size:\s+([\d.]+) x", info).group(1))
    result = measure(pdf, truth, truth["width"] / width, kinds)
    if as_json:
        print(json.dumps(result))
        return
    for kind, e in result.items():
        line = f"{kind}: recall {e['recall']:.3f} ({e['found']}/{e['drawn']})"
        if "iou_ok" in e:
            line += f", boxes IoU>=0.6 {e['iou_ok']:.3f} (min {e['iou_min']:.2f}, median {e['iou_median']:.2f})"
        print(line)


if __name__ == "__main__":
    main()
