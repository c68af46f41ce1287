#!/usr/bin/python3
"""`make test-web`: Sumi's caption editor and page builder (web/, served by `sumi serve` at `/`) in
headless Chromium, driven by Selenium, at 1280x900 and 390x844, device pixel ratio 1 (and one
caption pass at 390x844 and ratio 2, where the caption is drawn for the screen's pixels).

Caption view: upload a photo, type a caption (Latin and Japanese), drag the caption by a known
offset and nudge it with the arrow keys, render, download; the caption is found in the
full-resolution result by its difference from the photo (Pillow) and its box must sit where the
preview showed it, with its size, within one preview pixel times the preview's scale. Also a portrait
photo stored with EXIF orientation 6, a HEIC, a keyboard-only pass, the token asked for once, and a
check that every control has a label; the default caption's look (white, soft shadow), a long
caption wrapped at the photo's width and at the Width control's. Page view: the sample captures given out of order, the PDF
opening on the chosen capture (its /OpenAction /FitR by qpdf, against what pdf-page reports and the
captures' known places); an empty view with no broken image, a missed scroll step named by file and
counted from 1, the previous page taken away, and the gaps box that joins them. Touch and pen are not driven (Selenium drives a mouse and keys).

Writes only into a fresh temporary folder (removed unless --keep); --screenshots DIR also saves the
page's pictures there (`make docs-screenshots`: docs/images).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import harness  # noqa: E402
import measure  # noqa: E402

ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SAMPLES = os.path.join(ROOT, "pipelines", "samples")
FILL = "#ff00ff"  # a box fill no sample photo holds, so the caption's box is its difference
CONTROLS = "input, select, textarea, button, a[href], [tabindex]"
failures = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message, flush=True)
    if not condition:
        failures.append(message)


def make_photos(folder):
    """photo.jpg (the sample), portrait.jpg (the same pixels stored with EXIF orientation 6, shown
    2002x3000) and photo.heic (made by heif-enc from a 1500-pixel copy)."""
    photo = os.path.join(folder, "photo.jpg")
    shutil.copy(os.path.join(SAMPLES, "photo.jpg"), photo)
    portrait = os.path.join(folder, "portrait.jpg")
    shutil.copy(photo, portrait)
    subprocess.run(["exiftool", "-q", "-overwrite_original", "-n", "-Orientation=6", portrait], check=True)
    small = os.path.join(folder, "small.png")
    subprocess.run(["convert", photo, "-resize", "1500x", small], check=True)
    heic = os.path.join(folder, "photo.heic")
    subprocess.run(["heif-enc", "-q", "90", small, "-o", heic], check=True, stdout=subprocess.DEVNULL)
    return photo, portrait, heic


def wait_label(browser, text):
    browser.wait(lambda d: d.execute_script(
        "const c = document.getElementById('caption');"
        "return c.dataset.text === arguments[0] && !c.classList.contains('stale') && !c.hidden && c.complete", text),
        message="the caption drawn for %r" % text)


def upload(browser, path):
    browser.element("#photo").send_keys(path)
    name = os.path.basename(path)
    browser.wait(lambda d: d.execute_script("return document.getElementById('preview').dataset.photo === arguments[0]", name),
                 seconds=120, message="the preview of " + name)


def measure_result(browser, folder, photo, label):
    """Checks the rendered result's caption box against where the preview showed it."""
    link = browser.element("#download")
    href = link.get_attribute("href")
    check(bool(href) and href.startswith("blob:"), "%s: #download has the result's href" % label)
    preview, shown = browser.rect("#preview"), browser.rect("#caption")
    reference = measure.upright(photo, folder)
    scale = reference.size[0] / preview["width"]
    box = measure.caption_box(browser.fetch(href), reference, folder)
    expected = ((shown["left"] - preview["left"]) * scale, (shown["top"] - preview["top"]) * scale,
                shown["width"] * scale, shown["height"] * scale)
    names = ("left", "top", "width", "height")
    worst = max(abs(a - b) for a, b in zip(box, expected))
    check(worst <= scale, "%s: caption box %s in the %dx%d result, preview showed %s (scale %.3f, off by %.2f px, limit %.2f)"
          % (label, box, reference.size[0], reference.size[1], tuple(round(v, 1) for v in expected), scale, worst, scale))
    return dict(zip(names, box))


def caption_flow(browser, url, folder, photo, text, drag, label):
    """Mouse and keys: upload, type, drag by `drag`, nudge 3 right and 2 down, render, measure."""
    browser.open(url)
    upload(browser, photo)
    browser.element("#fill").click()
    browser.set_value("#background", FILL)
    browser.set_value("#shadow", "")  # the box alone differs from the photo: its edges are what is measured
    area = browser.element("#text")
    area.clear()
    area.send_keys(text)
    wait_label(browser, text)
    browser.wait(lambda d: d.execute_script("return document.getElementById('caption').dataset.background === arguments[0]", FILL),
                 message="the caption drawn with its box filled")
    # The caption is Sumi's drawing for the screen's pixels: its PNG is the device pixel ratio
    # times its box (within the pixel the PNG rounds up).
    ratio, natural = browser.driver.execute_script(
        "const c = document.getElementById('caption'); return [window.devicePixelRatio, [c.naturalWidth, c.naturalHeight]]")
    box = browser.rect("#caption")
    check(all(abs(n - ratio * b) < 1 for n, b in zip(natural, (box["width"], box["height"]))),
          "%s: the caption's drawing is %dx%d pixels for a %.2fx%.2f box at device pixel ratio %g"
          % (label, natural[0], natural[1], box["width"], box["height"], ratio))
    before = browser.rect("#caption")
    ActionChains(browser.driver).drag_and_drop_by_offset(browser.element("#caption"), *drag).perform()
    after = browser.rect("#caption")
    moved = (after["left"] - before["left"], after["top"] - before["top"])
    check(abs(moved[0] - drag[0]) < 0.01 and abs(moved[1] - drag[1]) < 0.01, "%s: dragged by %s, moved by %s" % (label, drag, moved))
    caption = browser.element("#caption")
    check(browser.driver.switch_to.active_element == caption, "%s: the dragged caption has the focus" % label)
    for key in [Keys.ARROW_RIGHT] * 3 + [Keys.ARROW_DOWN] * 2:
        caption.send_keys(key)
    nudged = browser.rect("#caption")
    check(abs(nudged["left"] - after["left"] - 3) < 0.01 and abs(nudged["top"] - after["top"] - 2) < 0.01,
          "%s: arrow keys moved the caption 3 right and 2 down" % label)
    browser.element("#render").click()
    browser.wait(lambda d: d.find_element("id", "download").get_attribute("href"), seconds=180, message="the rendered result")
    box = measure_result(browser, folder, photo, label)
    browser.screenshot(os.path.join(folder, "%s.png" % label.replace(" ", "-")))
    return box


def error_flow(browser, folder, label):
    """A file no decoder reads and a value the service refuses: each message beside its control."""
    garbage = os.path.join(folder, "notes.jpg")
    with open(garbage, "w") as f:
        f.write("not a photo\n" * 100)
    browser.element("#photo").send_keys(garbage)
    browser.wait(lambda d: d.find_element("id", "photo-error").text, message="the error beside #photo")
    check("not a supported image" in browser.element("#photo-error").text,
          "%s: a file that is no image is explained beside #photo: %r" % (label, browser.element("#photo-error").text))
    browser.set_value("#size", "0")
    browser.wait(lambda d: d.find_element("id", "size-error").text, message="the error beside #size")
    message = browser.element("#size-error").text
    elsewhere = browser.element("#text-error").text or browser.element("#render-error").text
    check(message and not elsewhere, "%s: the refused size is explained beside #size (%r), nowhere else" % (label, message))
    browser.set_value("#size", "17")
    browser.wait(lambda d: not d.find_element("id", "size-error").text, message="the error cleared")


def keyboard_flow(browser, url, folder, photo, label):
    """Tab, type, arrow keys and Enter only (the file itself is given to #photo: file dialogs are
    the system's, not the page's)."""
    browser.open(url)
    upload(browser, photo)
    body = browser.element("body")
    body.click()
    driver = browser.driver

    def tab_to(element_id, limit=40):
        for _ in range(limit):
            ActionChains(driver).send_keys(Keys.TAB).perform()
            if driver.switch_to.active_element.get_attribute("id") == element_id:
                return True
        return False

    check(tab_to("text"), "%s: Tab reaches #text" % label)
    active = driver.switch_to.active_element
    active.send_keys(Keys.CONTROL, "a")
    text = "Kyoto 京都"
    active.send_keys(text)
    wait_label(browser, text)
    # The box filled (Space on the checkbox) in a colour set directly: a colour picker is the system's.
    browser.set_value("#background", FILL)
    browser.set_value("#shadow", "")
    check(tab_to("fill"), "%s: Tab reaches #fill" % label)
    ActionChains(driver).send_keys(Keys.SPACE).perform()
    check(browser.element("#fill").is_selected(), "%s: Space fills the box" % label)
    browser.wait(lambda d: d.execute_script("return document.getElementById('caption').dataset.background === arguments[0]", FILL),
                 message="the caption drawn with its box filled")
    wait_label(browser, text)
    browser.element("body").click()
    check(tab_to("caption"), "%s: Tab reaches #caption" % label)
    start = browser.rect("#caption")
    actions = ActionChains(driver)
    for key in [Keys.ARROW_LEFT] * 12 + [Keys.ARROW_UP] * 7:
        actions.send_keys(key)
    actions.key_down(Keys.SHIFT).send_keys(Keys.ARROW_DOWN).key_up(Keys.SHIFT).perform()
    end = browser.rect("#caption")
    check(abs(end["left"] - start["left"] + 12) < 0.01 and abs(end["top"] - start["top"] - 3) < 0.01,
          "%s: arrow keys moved the caption 12 left and 7 up, Shift+down 10 down" % label)
    check(tab_to("render"), "%s: Tab reaches #render" % label)
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    browser.wait(lambda d: d.find_element("id", "download").get_attribute("href"), seconds=180, message="the rendered result")
    check(driver.switch_to.active_element.get_attribute("id") == "download", "%s: the result link takes the focus" % label)
    measure_result(browser, folder, photo, label)


def labels_check(browser, label):
    """Every control shown has an accessible name (Chromium's computed label; hidden ones have none
    to compute, so each view is checked while shown), and every form control a <label>."""
    missing = []
    for element in browser.driver.find_elements("css selector", CONTROLS):
        if not element.is_displayed():
            continue
        name = element.accessible_name
        if not (name and name.strip()):
            missing.append(element.get_attribute("outerHTML")[:80])
    check(not missing, "%s: every control has a label%s" % (label, (": missing " + "; ".join(missing)) if missing else ""))
    unlabelled = browser.driver.execute_script(
        "return [...document.querySelectorAll('input, select, textarea')].filter(e => e.labels.length === 0).map(e => e.id)")
    check(not unlabelled, "%s: every form control has a <label> (%s)" % (label, unlabelled))


def page_flow(browser, url, folder, sumi, label, choose=2, keyboard=False, shots=None):
    """The page view: captures out of order, the preview's marks, the PDF opening on capture `choose`."""
    order = [3, 0, 4, 1, 2]
    files = [os.path.join(SAMPLES, "page-%d.png" % n) for n in order]
    browser.open(url)
    driver = browser.driver
    if keyboard:
        tab = browser.element("#tab-caption")
        tab.send_keys(Keys.ARROW_RIGHT)
        check(driver.switch_to.active_element.get_attribute("id") == "tab-page", "%s: arrow key moves to the Page tab" % label)
    else:
        browser.element("#tab-page").click()
    if keyboard:
        ActionChains(driver).send_keys(Keys.TAB).perform()
        check(driver.switch_to.active_element.get_attribute("id") == "captures", "%s: Tab from the tab reaches #captures" % label)
    # The files go to the input directly (a file dialog is the system's, not the page's).
    browser.element("#captures").send_keys("\n".join(files))
    if keyboard:
        ActionChains(driver).send_keys(Keys.TAB).perform()
        check(driver.switch_to.active_element.get_attribute("id") == "gaps", "%s: Tab from #captures reaches #gaps" % label)
        ActionChains(driver).send_keys(Keys.TAB).perform()
        check(driver.switch_to.active_element.get_attribute("id") == "build-page", "%s: Tab from #gaps reaches #build-page" % label)
        ActionChains(driver).send_keys(Keys.ENTER).perform()
    else:
        browser.element("#build-page").click()
    browser.wait(lambda d: d.find_element("id", "page-download").get_attribute("data-viewport") == "capture:0", seconds=180,
                 message="the first PDF")
    # The marks: in page order, where the captures were taken (make-samples.py: tops 0, 620, 1240, 1860, 2110).
    tops = driver.execute_script("return [...document.querySelectorAll('#page-marks .mark')].map(m => parseFloat(m.style.top))")
    factor = driver.execute_script("return document.getElementById('page-image').naturalWidth") / 390
    expected = [t * factor for t in (0, 620, 1240, 1860, 2110)]
    check(len(tops) == 5 and all(abs(a - b) <= 1 for a, b in zip(tops, expected)),
          "%s: capture marks at %s, the captures' tops at %s" % (label, [round(t, 1) for t in tops], [round(t, 1) for t in expected]))
    radio = browser.element("#open-on-%d" % choose)
    if keyboard:
        first = browser.element("#open-on-0")
        first.send_keys(Keys.SPACE)
        for _ in range(choose):
            driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
        check(radio.is_selected(), "%s: arrow keys choose capture %d" % (label, choose))
    else:
        browser.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", radio)
        driver.find_element("css selector", "label[for=open-on-%d]" % choose).click()
    link = browser.element("#page-download")
    browser.wait(lambda d: link.get_attribute("data-viewport") == "capture:%d" % choose and link.get_attribute("href"),
                 seconds=180, message="the PDF opening on capture %d" % choose)
    if shots:
        browser.screenshot(os.path.join(shots, "web-page.png"))
    pdf = os.path.join(folder, "page-%s.pdf" % label.replace(" ", "-"))
    with open(pdf, "wb") as f:
        f.write(browser.fetch(link.get_attribute("href")))
    _, fit = measure.open_action(pdf)
    x0, y0, x1, y1 = measure.media_box(pdf)
    # What pdf-page reports for the same captures and viewport, run by the command line.
    reference = subprocess.run([sumi, "run", os.path.join(ROOT, "pipelines", "fullpage.json"), "-o", os.path.join(folder, "ref.pdf"),
                                "--set", "viewport=capture:%d" % choose, "--json", "-i", *files],
                               check=True, capture_output=True, text=True, cwd=folder).stdout
    x, y, w, h = json.loads(reference)["outputs"][0]["rectInCurrentPage"]
    check(fit == [x, y, x + w, y + h], "%s: /OpenAction /FitR %s, pdf-page reports %s" % (label, fit, [x, y, x + w, y + h]))
    top = (0, 620, 1240, 1860, 2110)[choose]
    # The captures fill [0, 2954] from the top; the page may reach below y = 0 by less than one
    # 12-row strip step of white padding.
    check((x0, x1, y1) == (0, 390, 2954) and -12 < y0 <= 0 and fit == [0, y1 - top - 844, 390, y1 - top],
          "%s: the PDF (MediaBox %s) opens on capture %d from the top (rows %d-%d)" % (label, [x0, y0, x1, y1], choose, top, top + 844))
    labels_check(browser, label)
    browser.screenshot(os.path.join(folder, "%s.png" % label.replace(" ", "-")))


def default_style_check(browser, url, label):
    """The caption a fresh page draws reads on any photo: white glyphs with a dark soft shadow, no
    red and no thin black box (its pixels read back from the drawing Sumi made)."""
    browser.open(url)
    wait_label(browser, "Hello")
    pixels = browser.driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; const c = document.getElementById('caption');"
        "const canvas = document.createElement('canvas'); canvas.width = c.naturalWidth; canvas.height = c.naturalHeight;"
        "const g = canvas.getContext('2d'); g.drawImage(c, 0, 0);"
        "const d = g.getImageData(0, 0, canvas.width, canvas.height).data; let white = 0, dark = 0, red = 0, edge = 0;"
        "for (let i = 0; i < d.length; i += 4) { const [r, gr, b, a] = [d[i], d[i + 1], d[i + 2], d[i + 3]];"
        " if (a > 200 && r > 235 && gr > 235 && b > 235) white++;"
        " if (a > 20 && a < 200 && r < 40 && gr < 40 && b < 40) dark++;"
        " if (a > 100 && r > 150 && gr < 80 && b < 80) red++; }"
        "const row = (y) => { let n = 0; for (let x = 0; x < canvas.width; x++) { if (d[(y * canvas.width + x) * 4 + 3] > 200) n++; } return n; };"
        "edge = row(0) + row(canvas.height - 1);"
        "done({white, dark, red, edge, width: canvas.width});")
    check(pixels["white"] > 30 and pixels["dark"] > 30 and pixels["red"] == 0 and pixels["edge"] == 0,
          "%s: the default caption is white text with a soft dark shadow, no red, no box edge (%s)" % (label, pixels))


def wrap_flow(browser, url, folder, photo, label):
    """A long caption wraps at the photo's width by default (its box within the preview), the Width
    control sets the wrap width, and the rendered result puts the wrapped box where the preview did."""
    browser.open(url)
    upload(browser, photo)
    browser.element("#fill").click()
    browser.set_value("#background", FILL)
    browser.set_value("#shadow", "")
    text = ("A long caption about the evening light over the harbour, the boats coming in, the gulls above them"
            " and the hills beyond the town, turning blue")
    browser.set_value("#text", text)
    wait_label(browser, text)
    browser.wait(lambda d: d.execute_script("return document.getElementById('caption').dataset.wrap !== undefined"),
                 message="the caption wrapped")
    preview, shown = browser.rect("#preview"), browser.rect("#caption")
    check(shown["width"] <= preview["width"] + 0.5 and shown["height"] > 2 * 17,
          "%s: the long caption wraps within the %.0f px photo: %.1fx%.1f" % (label, preview["width"], shown["width"], shown["height"]))
    browser.element("#render").click()
    browser.wait(lambda d: d.find_element("id", "download").get_attribute("href"), seconds=180, message="the rendered result")
    measure_result(browser, folder, photo, label)
    # The Width control: the box is the wrap width plus the padding on both sides.
    browser.set_value("#width", "150")
    browser.wait(lambda d: d.execute_script("return document.getElementById('caption').dataset.wrap === '150'"),
                 message="the caption wrapped at 150")
    wait_label(browser, text)
    padding = float(browser.element("#padding").get_attribute("value"))
    width = browser.rect("#caption")["width"]
    check(abs(width - (150 + 2 * padding)) <= 1, "%s: Width 150 gives a %.1f px box (150 + 2 x %g padding)" % (label, width, padding))


def page_errors_flow(browser, url, folder, sumi, label):
    """The page view: nothing broken on an empty view; a missed scroll step named by the files as the
    page counts them, with the previous page gone; the gaps box offered, and it joins them."""
    browser.open(url)
    browser.element("#tab-page").click()
    shown = browser.driver.execute_script(
        "const p = document.getElementById('page-preview'), i = document.getElementById('page-image');"
        "return [getComputedStyle(p).display, i.getBoundingClientRect().width, i.getBoundingClientRect().height]")
    check(shown[0] == "none" and shown[1] == 0 and shown[2] == 0,
          "%s: the empty view shows no image (page preview display %s, image %sx%s)" % (label, shown[0], shown[1], shown[2]))
    # A page first, so there is a previous one to take away.
    good = [os.path.join(SAMPLES, "page-%d.png" % n) for n in range(5)]
    browser.element("#captures").send_keys("\n".join(good))
    browser.element("#build-page").click()
    browser.wait(lambda d: d.find_element("id", "page-download").get_attribute("href"), seconds=180, message="the first page")
    # page-0 (rows 0-844) and page-3 (rows 1860-2704): a missed scroll step between them.
    apart = [os.path.join(SAMPLES, "page-0.png"), os.path.join(SAMPLES, "page-3.png")]
    chooser = browser.element("#captures")
    chooser.clear()
    chooser.send_keys("\n".join(apart))
    browser.element("#build-page").click()
    browser.wait(lambda d: d.find_element("id", "build-error").text or d.find_element("id", "captures-error").text,
                 seconds=180, message="the missed scroll step's error")
    message = browser.element("#build-error").text or browser.element("#captures-error").text
    check("upload-" not in message and "capture 2 (page-3.png)" in message and "capture 0" not in message,
          "%s: the error names the files, counted from 1: %r" % (label, message))
    check("gaps: allow" not in message and "Join captures that overlap no other" in message,
          "%s: the error points at the page's own gaps box: %r" % (label, message))
    # The refusal was the page preview's 422, and nothing else went wrong on the way.
    logged = browser.console_errors()
    check(all("run/page-preview" in m and "status of 422" in m for m in logged),
          "%s: the only console errors are the refused page preview's 422: %s" % (label, logged))
    gone = browser.driver.execute_script(
        "return [document.getElementById('page-preview').hidden, document.querySelectorAll('#page-marks .mark').length,"
        " document.getElementById('open-on').hidden, document.getElementById('page-download').getAttribute('aria-disabled')]")
    check(gone == [True, 0, True, "true"], "%s: the previous page is gone beside the error (%s)" % (label, gone))
    browser.element("#gaps").click()
    browser.element("#build-page").click()
    link = browser.element("#page-download")
    browser.wait(lambda d: link.get_attribute("data-viewport") == "capture:0" and link.get_attribute("href"), seconds=180,
                 message="the page joined with gaps allowed")
    marks = browser.driver.execute_script("return document.querySelectorAll('#page-marks .mark').length")
    check(marks == 2 and not browser.element("#build-error").text, "%s: with the box ticked the two captures make a page (%d marks)" % (label, marks))
    pdf = os.path.join(folder, "gaps-%s.pdf" % label.replace(" ", "-"))
    with open(pdf, "wb") as f:
        f.write(browser.fetch(link.get_attribute("href")))
    # The same page as the command line makes it with gaps=allow (its MediaBox by qpdf).
    reference = os.path.join(folder, "gaps-reference.pdf")
    subprocess.run([sumi, "run", os.path.join(ROOT, "pipelines", "fullpage.json"), "-o", reference, "--set", "gaps=allow",
                    "--quiet", "-i", *apart], check=True, capture_output=True, cwd=folder)
    box, expected = measure.media_box(pdf), measure.media_box(reference)
    check(box == expected and box[3] - box[1] > 844, "%s: the joined PDF page %s is the command line's %s" % (label, box, expected))


def searchable_flow(browser, url, folder, label):
    """The page builder's Searchable switch: captures of a page with known words, built with the box
    ticked, give a PDF whose text pdftotext reads (the words recognised on the server)."""
    ocr = os.path.join(folder, "ocr-page")
    if not os.path.isdir(ocr):
        subprocess.run([sys.executable, os.path.join(ROOT, "tools", "make-ocr-page.py"), ocr, "2700"], check=True)
    captures = sorted(os.path.join(ocr, n) for n in os.listdir(ocr) if n.startswith("capture-"))
    with open(os.path.join(ocr, "truth.json")) as f:
        truth = {w["text"].lower() for w in json.load(f)["words"] if w["kind"] == "body"}
    browser.open(url)
    browser.element("#tab-page").click()
    browser.element("#captures").send_keys("\n".join(captures))
    browser.element("#searchable").click()
    browser.element("#build-page").click()
    link = browser.element("#page-download")
    browser.wait(lambda d: link.get_attribute("href"), seconds=300, message="the searchable page")
    pdf = os.path.join(folder, "searchable-%s.pdf" % label.replace(" ", "-"))
    with open(pdf, "wb") as f:
        f.write(browser.fetch(link.get_attribute("href")))
    text = subprocess.run(["pdftotext", pdf, "-"], capture_output=True, text=True).stdout.lower().split()
    found = len(set(text) & truth)
    check(found >= 0.9 * len(truth), "%s: the Searchable page's text has %d of the %d body words" % (label, found, len(truth)))


def docs_flow(browser, url, folder, shots, name, size, drag):
    """The README's picture: a styled caption (emoji too, set directly: ChromeDriver types only BMP text)."""
    browser.open(url)
    upload(browser, os.path.join(folder, "photo.jpg"))
    browser.element("#fill").click()
    for selector, value in [("#size", size), ("#color", "#b3261e"), ("#corner-radius", "10"), ("#border", "0"),
                            ("#shadow", "2, 2, 4, #00000099"), ("#text", "東京タワー Tokyo Tower 🗼")]:
        browser.set_value(selector, value)
    wait_label(browser, "東京タワー Tokyo Tower 🗼")
    ActionChains(browser.driver).drag_and_drop_by_offset(browser.element("#caption"), *drag).perform()
    browser.element("#render").click()
    browser.wait(lambda d: d.find_element("id", "download").get_attribute("href"), seconds=180, message="the rendered result")
    browser.driver.execute_script("window.scrollTo(0, 0); document.activeElement.blur()")
    browser.screenshot(os.path.join(shots, name))


def token_flow(browser, sumi, folder, photo):
    """A server with --token: the page asks for it once, then the preview and the caption work."""
    server = harness.Server(sumi, folder, "--token", "s3cret-token")
    try:
        browser.open(server.url)
        browser.wait(lambda d: d.find_element("id", "token-form").is_displayed(), message="the token form")
        labels_check(browser, "token form")
        browser.element("#token").send_keys("s3cret-token", Keys.ENTER)
        wait_label(browser, "Hello")
        upload(browser, photo)
        check(not browser.element("#token-form").is_displayed(), "token: asked once, then every request carries it")
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sumi", required=True)
    parser.add_argument("--screenshots", help="also save the README's pictures in this folder")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args()
    sumi = os.path.abspath(args.sumi)
    folder = tempfile.mkdtemp(prefix="sumi-test-web-")
    started = time.monotonic()
    browser = server = None
    console = []
    try:
        photo, portrait, heic = make_photos(folder)
        server = harness.Server(sumi, folder)
        browser = harness.Browser(folder)
        browser.viewport(1280, 900)
        caption_flow(browser, server.url, folder, photo, "Tokyo 東京タワー", (-80, 50), "desktop photo")
        labels_check(browser, "desktop")
        error_flow(browser, folder, "desktop")
        caption_flow(browser, server.url, folder, portrait, "Portrait 縦", (40, 120), "desktop orientation 6")
        keyboard_flow(browser, server.url, folder, photo, "desktop keyboard")
        page_flow(browser, server.url, folder, sumi, "desktop page", choose=2, shots=args.screenshots)
        page_flow(browser, server.url, folder, sumi, "desktop page keyboard", choose=3, keyboard=True)
        default_style_check(browser, server.url, "desktop")
        wrap_flow(browser, server.url, folder, photo, "desktop wrap")
        page_errors_flow(browser, server.url, folder, sumi, "desktop page errors")
        searchable_flow(browser, server.url, folder, "desktop searchable")
        browser.viewport(390, 844)
        caption_flow(browser, server.url, folder, photo, "Hello 日本語", (30, -25), "phone photo")
        labels_check(browser, "phone")
        caption_flow(browser, server.url, folder, heic, "HEIC 写真", (-20, 30), "phone heic")
        page_flow(browser, server.url, folder, sumi, "phone page", choose=4)
        wrap_flow(browser, server.url, folder, photo, "phone wrap")
        # A phone's own pixels: the caption drawn at device pixel ratio 2, placed the same.
        browser.viewport(390, 844, 2)
        caption_flow(browser, server.url, folder, photo, "Retina 高精細", (25, 40), "phone ratio 2")
        browser.viewport(390, 844)
        token_flow(browser, sumi, folder, photo)
        if args.screenshots:
            browser.viewport(1280, 900)
            docs_flow(browser, server.url, folder, args.screenshots, "web-caption.png", "20", (-60, -90))
            browser.viewport(390, 844)
            docs_flow(browser, server.url, folder, args.screenshots, "web-caption-phone.png", "12", (-20, -40))
    except Exception as error:  # a step that could not run is a failure with its reason
        failures.append("%s: %s" % (type(error).__name__, error))
        print("FAIL %s: %s" % (type(error).__name__, error), flush=True)
    finally:
        if browser:
            console = browser.console_errors()
            browser.quit()
        if server:
            server.stop()
    leftovers = [n for n in os.listdir(folder) if n.startswith("sumi-serve-")]
    check(not console, "the page logged no script error or unexpected refused load: %s" % console)
    check(not leftovers, "no request folder left behind (%s)" % leftovers)
    print("test-web: %d failure(s) in %.0f s; screenshots and results in %s" % (len(failures), time.monotonic() - started, folder))
    if not failures and not args.keep:
        shutil.rmtree(folder, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
