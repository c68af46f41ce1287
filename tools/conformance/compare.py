"""Pixel comparison of two 8-bit RGBA images, and a one-line guess at the cause of a difference.

A fully transparent pixel has no colour: where both sides have alpha 0, the colour channels are
not compared (Sumi stores premultiplied alpha, so its transparent pixels are always (0,0,0,0)).
Every other channel value is compared exactly."""

from PIL import Image, ImageChops

MATCH, NEAR, DIFFERS = "match", "near", "differs"


def cleared(image):
    """`image` with the colour of fully transparent pixels set to 0."""
    mask = image.getchannel("A").point(lambda alpha: 255 if alpha else 0)
    return Image.composite(image, Image.new("RGBA", image.size, (0, 0, 0, 0)), mask)


def difference(sumi, reference):
    """(max, mean) of the absolute channel differences; None when the sizes differ."""
    if sumi.size != reference.size:
        return None
    delta = ImageChops.difference(cleared(sumi), cleared(reference))
    largest = max(high for _, high in delta.getextrema())
    histogram = delta.histogram()  # 256 bins per channel, four channels
    total = sum((index % 256) * count for index, count in enumerate(histogram))
    samples = sumi.size[0] * sumi.size[1] * 4
    return largest, (total / samples if samples else 0.0)


def classify(largest, mean, container):
    """match, near (max <= 2 and mean <= 0.5; JPEG: max <= 4) or differs."""
    if largest == 0:
        return MATCH
    if largest <= (4 if container == "jpeg" else 2) and mean <= 0.5:
        return NEAR
    return DIFFERS


TRANSPOSES = {
    "mirrored": Image.Transpose.FLIP_LEFT_RIGHT, "turned 180": Image.Transpose.ROTATE_180,
    "flipped": Image.Transpose.FLIP_TOP_BOTTOM, "transposed": Image.Transpose.TRANSPOSE,
    "turned 90": Image.Transpose.ROTATE_90, "turned 270": Image.Transpose.ROTATE_270,
    "transversed": Image.Transpose.TRANSVERSE,
}


def guess(sumi, reference):
    """(cause, one line) for a difference; the cause is checked, not only guessed, so the expected
    list can name it (`differs:premultiplied` covers only that kind of difference):
    rounding (every channel within 2), premultiplied (equal once both sides are premultiplied),
    orientation (equal to a turn or mirror of the reference), size, alpha, black or values."""
    found = difference(sumi, reference)
    if found is not None and found[0] <= 2:
        return "rounding", f"every channel within {found[0]}, but mean {found[1]:.2f}: deep samples rounded differently"
    if found is not None and within(ImageChops.difference(sumi.convert("RGBa"), reference.convert("RGBa")), 1):
        return "premultiplied", "premultiplied storage: translucent pixels' colours rounded (equal once premultiplied)"
    for name, transpose in TRANSPOSES.items():
        turned = reference.transpose(transpose)
        if turned.size == sumi.size:
            moved = difference(sumi, turned)
            if moved and moved[0] <= 4:
                return "orientation", f"orientation not applied (Sumi's image is the reference {name})"
    if found is None:
        return "size", f"size {sumi.size[0]}x{sumi.size[1]}, reference {reference.size[0]}x{reference.size[1]}"
    alpha, wanted = sumi.getchannel("A").getextrema(), reference.getchannel("A").getextrema()
    if alpha != wanted:
        return "alpha", f"alpha from {alpha[0]} to {alpha[1]}, reference from {wanted[0]} to {wanted[1]}"
    if within(sumi.convert("RGB"), 0):
        return "black", "Sumi's image is all black"
    highs = [high for _, high in ImageChops.difference(cleared(sumi), cleared(reference)).getextrema()]
    return "values", f"pixel values differ (largest per channel: R {highs[0]}, G {highs[1]}, B {highs[2]}, A {highs[3]})"


def within(image, limit):
    """Whether every channel of `image` is at most `limit`."""
    return all(high <= limit for _, high in image.getextrema())
