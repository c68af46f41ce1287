"""Which corpus files are compared: every file whose extension names a format `sumi formats` reads,
and every file whose content Sumi recognises as one (by the magic bytes Sumi's decode checks), so
a JPEG named .mpo or a PNG inside a .cur-named file is compared too."""

import json
import os
import subprocess

# Extensions of each format name `sumi formats` may list; a format not here is matched by its name.
EXTENSIONS = {
    "jpeg": {"jpg", "jpeg", "jpe", "jfif"},
    "png": {"png"},
    "gif": {"gif"},
    "bmp": {"bmp", "dib"},
    "tiff": {"tif", "tiff"},
    "webp": {"webp"},
    "heif": {"heic", "heif", "hif"},
    "avif": {"avif", "avifs"},
    "ico": {"ico", "cur"},
    "tga": {"tga", "icb", "vda", "vst"},
    "qoi": {"qoi"},
    "jp2": {"jp2", "j2k", "j2c", "jpc", "jpf", "jpx"},
    "xpm": {"xpm"},
    "jxl": {"jxl"},
}

HEIF_BRANDS = {"heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1"}


def readable_formats(sumi):
    """The format names `sumi formats --json` lists as readable."""
    result = subprocess.run([sumi, "formats", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, timeout=60)
    if result.returncode != 0:
        raise SystemExit(f"conformance: {sumi} formats --json failed: {result.stderr.strip()}")
    return {row["format"] for row in json.loads(result.stdout) if row.get("read")}


def sniff(path):
    """The format of a file's content as Sumi's decode recognises it, or None."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(256)
    except OSError:
        return None
    if head.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head.startswith((b"GIF87a", b"GIF89a")):
        return "gif"
    if head.startswith(b"BM") and os.path.getsize(path) >= 26:
        return "bmp"
    if head.startswith((b"II*\x00", b"MM\x00*")):
        return "tiff"
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        return "webp"
    if head.startswith(b"qoif"):
        return "qoi"
    if head.startswith((b"\x00\x00\x00\x0cjP  \r\n\x87\n", b"\xff\x4f\xff\x51")):
        return "jp2"
    return iso_media(head)


def iso_media(head):
    """HEIF or AVIF from an ISO media `ftyp` box (major brand, else compatible brands)."""
    if len(head) < 16 or head[4:8] != b"ftyp":
        return None
    size = min(len(head), max(16, int.from_bytes(head[0:4], "big")))
    major = head[8:12].decode("latin-1")
    if major in ("avif", "avis"):
        return "avif"
    if major in ("mif1", "msf1"):
        compatible = [head[at:at + 4].decode("latin-1") for at in range(16, size - 3, 4)]
        if "avif" in compatible and not any(brand.startswith("he") for brand in compatible):
            return "avif"
    return "heif" if major in HEIF_BRANDS else None


def select(corpus, formats):
    """[(path relative to the corpus, format)] of the files to compare, sorted by path. The format
    is the content's when Sumi recognises it, else the one the extension names."""
    by_extension = {}
    for name in formats:
        for extension in EXTENSIONS.get(name, {name}):
            by_extension[extension] = name
    chosen = []
    for folder, _, files in os.walk(corpus):
        for name in files:
            path = os.path.join(folder, name)
            content = sniff(path)
            extension = os.path.splitext(name)[1].lstrip(".").lower()
            if content in formats:
                chosen.append((os.path.relpath(path, corpus), content))
            elif extension in by_extension:
                chosen.append((os.path.relpath(path, corpus), by_extension[extension]))
    return sorted(chosen)
