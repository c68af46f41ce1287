"""The caption job in pyvips (the libvips peer of `make bench`): red text in a padded box with a
black border, composited at the centre of a photo, saved as JPEG q90. Sequential access, as
vips' own tools stream. Usage: caption_pyvips.py IN OUT TEXT PIXELS FONTFILE"""
import sys

import pyvips

source, output, text, pixels, fontfile = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
photo = pyvips.Image.new_from_file(source, access="sequential")
mask = pyvips.Image.text(text, fontfile=fontfile, font=f"IPAGothic {pixels}", dpi=72)
pad = pixels * 16 // 17
box = mask.embed(pad, pad, mask.width + 2 * pad, mask.height + 2 * pad)
# A one-pixel-per-17 black border around the box, as the caption's border: 1 at 17 px.
border = max(1, pixels // 17)
frame = pyvips.Image.black(box.width, box.height).draw_rect(255, 0, 0, box.width, box.height, fill=False)
for i in range(1, border):
    frame = frame.draw_rect(255, i, i, box.width - 2 * i, box.height - 2 * i, fill=False)
colour = (box > 0).ifthenelse([255, 0, 0], [0, 0, 0])
alpha = (box | frame)
layer = colour.bandjoin(alpha).copy(interpretation="srgb")
x = (photo.width - layer.width) // 2
y = (photo.height - layer.height) // 2
photo.composite2(layer, "over", x=x, y=y).write_to_file(output, Q=90)
