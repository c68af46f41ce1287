"""The reference decoders: Pillow for every format but HEIF/AVIF, libheif's heif-convert for those.

Both give 8-bit RGBA with no colour management: embedded ICC profiles are ignored, EXIF orientation
is applied (ImageOps.exif_transpose; heif-convert applies irot/imir itself), the first frame is
taken. Samples wider than 8 bits are scaled to 8 bits by v * 255 / max, rounded (Pillow's own
I;16 -> L conversion clips instead). CIELab has no RGB without a colour conversion: it is turned
to sRGB with Pillow's littleCMS (Lab D50), the one conversion made."""

import array
import os
import subprocess
import sys
import tempfile
import warnings

from PIL import Image, ImageCms, ImageOps

# Pillow's warning threshold is half of Sumi's and Pillow's refusal threshold (2 * 89,478,485
# pixels); a warning is no refusal.
warnings.simplefilter("ignore", Image.DecompressionBombWarning)
# Pillow's warnings about damaged files (the outcome says what happened).
warnings.filterwarnings("ignore", module="PIL")

HEIF_TIMEOUT = 60


class Refused(Exception):
    """The reference decoder did not decode the file; the message says why, in one line."""


def decode(path, container):
    """(the reference RGBA image of `path`, whose content is `container`, the decoder's name).

    HEIF and AVIF go to heif-convert. When it cannot give a PNG of an AVIF file (libheif 1.15
    does not read AVIF sequences, and its libpng refuses to write some ICC profiles), Pillow's
    libavif reads it instead; a HEIF file it refuses is refused."""
    if container == "heif":
        return heif_convert(path), "heif-convert"
    if container == "avif":
        try:
            return heif_convert(path), "heif-convert"
        except Refused as refusal:
            return pillow(path), f"Pillow, as {refusal}"
    return pillow(path), "Pillow"


def pillow(path):
    """Pillow's decode of `path`. Pillow keeps state between files in one process (after some of
    its own test images, pillow.ico is refused with "cannot load this image", and decoded when
    opened first), so a refusal counts only when a fresh interpreter refuses too."""
    try:
        return pillow_here(path)
    except Refused as refusal:
        return pillow_fresh(path, refusal)


def pillow_fresh(path, refusal):
    """`path` decoded by Pillow in a new interpreter (the reference as a PNG), or `refusal`."""
    with tempfile.TemporaryDirectory(prefix="sumi-conformance-pillow-") as folder:
        output = os.path.join(folder, "reference.png")
        script = ("import sys; sys.path.insert(0, sys.argv[1]); import reference; "
                  "reference.pillow_here(sys.argv[2]).save(sys.argv[3])")
        try:
            result = subprocess.run([sys.executable, "-c", script, os.path.dirname(os.path.abspath(__file__)), path, output],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=HEIF_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise refusal from None
        if result.returncode != 0 or not os.path.exists(output):
            raise refusal from None
        with Image.open(output) as image:
            image.load()
            return image.convert("RGBA")


def pillow_here(path):
    try:
        with Image.open(path) as image:
            image.seek(0)
            image.load()
            upright = ImageOps.exif_transpose(image)
            return to_rgba(upright)
    except Refused:
        raise
    except Exception as error:  # Pillow raises many kinds on a bad file; any of them is a refusal.
        raise Refused(f"Pillow: {type(error).__name__}: {one_line(error)}") from None


def heif_convert(path):
    """The primary image as libheif's heif-convert writes it (8 or 16-bit PNG)."""
    with tempfile.TemporaryDirectory(prefix="sumi-conformance-heif-") as folder:
        output = os.path.join(folder, "reference.png")
        try:
            result = subprocess.run(["heif-convert", "--quiet", path, output], stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True, errors="replace", timeout=HEIF_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise Refused(f"heif-convert: no result after {HEIF_TIMEOUT} s") from None
        if result.returncode != 0 or not os.path.exists(output) or os.path.getsize(output) == 0:
            raise Refused(f"heif-convert: exit {result.returncode}, no PNG: {one_line(result.stdout)}")
        try:
            with Image.open(output) as image:
                image.load()
                return to_rgba(image)
        except Exception as error:  # a PNG heif-convert wrote but could not finish
            raise Refused(f"heif-convert wrote an unreadable PNG: {one_line(error)}") from None


def to_rgba(image):
    """8-bit RGBA without colour management; deeper samples are scaled and rounded."""
    mode = image.mode
    if mode.startswith("I;16") or mode == "I":
        key = image.info.get("transparency")
        grey = image.convert("I")
        image = scaled(grey, 255 / 65535).convert("RGBA")
        if isinstance(key, int):  # Pillow's convert ignores a 16-bit grey tRNS key
            image.putalpha(transparent_where(grey, key))
    elif mode == "F":
        image = scaled(image, 255.0)
    elif mode == "LAB":
        lab = ImageCms.createProfile("LAB", 5000)
        srgb = ImageCms.createProfile("sRGB")
        image = ImageCms.profileToProfile(image, lab, srgb, outputMode="RGB")
    return image.convert("RGBA")


def transparent_where(grey, key):
    """An alpha channel: 0 where the 32-bit grey image equals `key`, else 255."""
    samples = array.array("i", grey.tobytes("raw", "I"))
    return Image.frombytes("L", grey.size, bytes(0 if sample == key else 255 for sample in samples))


def scaled(image, factor):
    """Grey samples times `factor`, rounded and clipped to 0-255, as an 8-bit grey image."""
    return image.point(lambda value: value * factor + 0.5).convert("L")


def one_line(text):
    text = " ".join(str(text).split())
    return text[:200] if text else "(no message)"
