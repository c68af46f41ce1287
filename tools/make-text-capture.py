#!/usr/bin/env python3
"""Draws an app-like phone capture of antialiased text, for PNG size tests and `make bench`.

A settings-like screen 1170x2532 (three device pixels a point): a light header bar with a title
and a button, paragraphs in seven text colours (greys, blue, green, red), four sizes and some bold,
drawn by pango-view with greyscale antialiasing (so well over 256 colours), and a tab bar.
Deterministic: the same words and styles on every run (the pixels follow the installed fonts).

    make-text-capture.py OUT.png

Needs pango-view (pango1.0-tools) and ImageMagick's convert.
"""
import os, subprocess, sys, tempfile

WIDTH, HEIGHT, HEADER, FOOTER = 1170, 2532, 192, 168
COLOURS = ["#1c1c1e", "#3a3a3c", "#636366", "#8e8e93", "#0a84ff", "#30d158", "#ff453a"]
WORDS = ("settings notifications account privacy display battery storage network wallpaper sounds "
         "messages photos camera calendar reminders weather").split()


def markup():
    paragraphs = []
    for p in range(12):
        text = " ".join(WORDS[(p * 7 + i * 3) % len(WORDS)] for i in range(18 + p % 5 * 4))
        size = [34, 40, 44, 52][p % 4] * 1024
        bold = ' weight="bold"' if p % 3 == 0 else ""
        paragraphs.append(f'<span foreground="{COLOURS[p % len(COLOURS)]}" size="{size}"{bold}>{text}</span>')
    return "\n\n".join(paragraphs)


def main(out):
    with tempfile.TemporaryDirectory() as folder:
        source, body = os.path.join(folder, "text.markup"), os.path.join(folder, "body.png")
        with open(source, "w") as f:
            f.write(markup())
        subprocess.run(["pango-view", "--no-display", "--markup", "--dpi=72", "--font=sans-serif 40px",
                        f"--width={WIDTH - 80}", "--margin=40", "--background=white", "-q", "-o", body, source],
                       check=True)
        content = HEIGHT - HEADER - FOOTER
        subprocess.run(["convert", body, "-background", "white", "-extent", f"{WIDTH}x{content}", "+repage",
                        "(", "-size", f"{WIDTH}x{HEADER}", "xc:#f2f2f7", "-fill", "#0a84ff",
                        "-draw", "roundrectangle 40,110 300,170 20,20", ")", "+swap", "-append",
                        "(", "-size", f"{WIDTH}x{FOOTER}", "xc:#f9f9f9", "-fill", "#8e8e93",
                        "-draw", "circle 150,60 150,90 circle 450,60 450,90 circle 750,60 750,90 circle 1020,60 1020,90",
                        ")", "-append", "+repage", "-depth", "8", "-type", "TrueColor", f"PNG24:{out}"], check=True)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
