"""The pieces `make test-web` drives: `sumi serve` on loopback and headless Chromium through Selenium."""
import base64
import os
import re
import select
import signal
import subprocess
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


class Server:
    """`sumi serve --listen 127.0.0.1:0`, its address read from its standard error."""

    def __init__(self, sumi, folder, *extra):
        self.log = open(os.path.join(folder, "serve-%d.log" % time.monotonic_ns()), "w+b")
        env = dict(os.environ, TMPDIR=folder)
        self.process = subprocess.Popen([sumi, "serve", "--listen", "127.0.0.1:0", "--workers", "2", *extra],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        self.url = None
        deadline = time.monotonic() + 30
        seen = b""
        while time.monotonic() < deadline and self.url is None:
            ready, _, _ = select.select([self.process.stderr], [], [], 0.5)
            if ready:
                chunk = os.read(self.process.stderr.fileno(), 4096)
                if not chunk:
                    break
                seen += chunk
                self.log.write(chunk)
                match = re.search(rb"listening on (http://[0-9.:]+)", seen)
                if match:
                    self.url = match.group(1).decode() + "/"
        if self.url is None:
            self.stop()
            raise RuntimeError("sumi serve did not start: %s" % seen.decode(errors="replace"))

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


class Browser:
    """Headless Chromium at a given viewport, device pixel ratio 1."""

    def __init__(self, folder):
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         "--hide-scrollbars", "--window-size=1400,1000", "--lang=en-GB",
                         "--user-data-dir=" + os.path.join(folder, "chromium-profile")]:
            options.add_argument(argument)
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.driver.set_script_timeout(120)

    def viewport(self, width, height, ratio=1):
        """The layout viewport exactly `width`×`height` CSS pixels at device pixel ratio `ratio`."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": width, "height": height, "deviceScaleFactor": ratio, "mobile": False})
        size = self.driver.execute_script("return [window.innerWidth, window.innerHeight, window.devicePixelRatio]")
        assert size == [width, height, ratio], "viewport %r, wanted %dx%d at %g" % (size, width, height, ratio)

    def open(self, url):
        self.driver.get(url)
        self.wait(lambda d: d.execute_script("return document.readyState") == "complete")

    def element(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def wait(self, condition, seconds=60, message=""):
        return WebDriverWait(self.driver, seconds, poll_frequency=0.1).until(condition, message)

    def rect(self, selector):
        """An element's box in CSS pixels (fractions kept)."""
        return self.driver.execute_script(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
            "return {left: r.left, top: r.top, width: r.width, height: r.height};", selector)

    def fetch(self, url):
        """The bytes behind `url` as the page sees it (a blob: URL too)."""
        encoded = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch(arguments[0]).then(r => r.blob()).then(b => { const f = new FileReader();"
            " f.onload = () => done(f.result.split(',')[1] || ''); f.readAsDataURL(b); })"
            ".catch(e => done('ERROR ' + e));", url)
        assert not encoded.startswith("ERROR"), encoded
        return base64.b64decode(encoded)

    def set_value(self, selector, value):
        """Sets a control's value as a user would (colour inputs have no keyboard text entry)."""
        self.driver.execute_script(
            "const e = document.querySelector(arguments[0]); e.value = arguments[1];"
            "e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true}));",
            selector, value)

    def console_errors(self, expected=("status of 400", "status of 401", "status of 415")):
        """The page's console errors since the last call (script errors, refused loads), without
        the refusals the test provokes on purpose (400, 401, 415)."""
        return [entry["message"] for entry in self.driver.get_log("browser")
                if entry["level"] == "SEVERE" and not any(e in entry["message"] for e in expected)]

    def screenshot(self, path):
        self.driver.save_screenshot(path)

    def quit(self):
        self.driver.quit()
