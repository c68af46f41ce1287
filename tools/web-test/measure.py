"""What `make test-web` measures with outside tools: the caption's box in a result (Pillow), a photo
as a viewer shows it (Pillow's EXIF transpose, heif-convert for HEIC), a PDF's open action (qpdf)."""
import json
import os
import subprocess

from PIL import Image, ImageChops, ImageOps


def upright(path, folder):
    """The photo as a viewer shows it, RGB: EXIF orientation applied (Pillow), HEIC decoded by heif-convert."""
    if path.lower().endswith((".heic", ".heif")):
        png = os.path.join(folder, os.path.basename(path) + ".reference.png")
        subprocess.run(["heif-convert", path, png], check=True, stdout=subprocess.DEVNULL)
        path = png
    with Image.open(path) as image:
        return ImageOps.exif_transpose(image).convert("RGB")


def caption_box(result_bytes, reference, folder, threshold=80):
    """The box (left, top, width, height) of the pixels of the result that differ from the
    reference by more than `threshold` in some channel (JPEG noise stays well below it)."""
    path = os.path.join(folder, "result-%d.img" % len(os.listdir(folder)))
    with open(path, "wb") as f:
        f.write(result_bytes)
    with Image.open(path) as result:
        result = result.convert("RGB")
        assert result.size == reference.size, "result %r, photo %r" % (result.size, reference.size)
        diff = ImageChops.difference(result, reference).split()
        strongest = ImageChops.lighter(ImageChops.lighter(diff[0], diff[1]), diff[2])
        mask = strongest.point(lambda v: 255 if v > threshold else 0)
        box = mask.getbbox()
        assert box, "no caption found in the result"
        return box[0], box[1], box[2] - box[0], box[3] - box[1]


def open_action(pdf_path):
    """The PDF's /OpenAction: (page object number, the /FitR numbers) by qpdf --json."""
    text = subprocess.run(["qpdf", "--json", pdf_path], check=True, capture_output=True, text=True).stdout
    document = json.loads(text)
    objects = document["qpdf"][1]
    trailer = objects.get("trailer", {})
    trailer = trailer.get("value", trailer)
    root = objects[_key(trailer["/Root"])]
    root = root.get("value", root)
    action = root["/OpenAction"]
    if isinstance(action, str):
        action = objects[_key(action)]
        action = action.get("value", action)
    assert action[1] == "/FitR", "open action %r" % (action,)
    return action[0], [float(v) for v in action[2:6]]


def _key(reference):
    """`"5 0 R"` as qpdf's JSON (version 2) names the object: `"obj:5 0 R"`."""
    return reference if reference.startswith("obj:") else "obj:" + reference


def media_box(pdf_path):
    """The first page's MediaBox [x0, y0, x1, y1] in points, by pdfinfo -box (a page padded to its
    strip grid has its lower edge below y = 0, its content where it was)."""
    text = subprocess.run(["pdfinfo", "-box", pdf_path], check=True, capture_output=True, text=True).stdout
    for line in text.splitlines():
        if line.startswith("MediaBox:"):
            return [float(v) for v in line.split()[1:5]]
    raise AssertionError("pdfinfo shows no MediaBox")
