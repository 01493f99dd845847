"""The real-browser harness: `dusk serve` as a process of its own, and a phone's screen for each person.

The browser is the system's Chromium (Debian's `chromium`), driven by its own `chromium-driver`
through Selenium: the browser builds that other drivers download cannot be fetched everywhere, and
the two Debian packages always match. Each person at the table gets a browser of their own (a
profile of their own, so the seat's cookie of one is never another's), 390 px wide as a phone.

`browser_or_skip()` says what is missing: without a Chromium the browser tests skip and say how to
get one, unless DUSK_REQUIRE_BROWSER=1 (CI sets it), which turns the skip into a failure.
"""

from __future__ import annotations

import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DUSK = str(Path(sys.executable).parent / "dusk")
WIDTH, HEIGHT = 390, 844          # a phone's screen in CSS pixels
# Where the screenshots go (gitignored): the test run's artefacts, kept after it for a person to look at.
ARTIFACTS = Path(os.environ.get("DUSK_ARTIFACTS", ROOT / "tests" / "artifacts"))
HOW_TO_GET_ONE = "apt-get install chromium chromium-driver"
LINK = re.compile(r"https?://\S+")
# The bound on every wait for a screen (a page loaded, a roll shown): a broken page never shows what
# is waited for, and fails there; a working one shows it in well under a second on an idle machine
# (the longest of a run's ~170 waits was 2.1 s, the median 0.2 s, on 2 cores at a load average of
# 12), so 5 s leaves a busy machine room and a broken page fails soon. DUSK_BROWSER_BOUND sets another.
BOUND = float(os.environ.get("DUSK_BROWSER_BOUND", "5"))
# The bound on `dusk serve` starting (a Python process importing dusk and loading a ruleset: seconds
# on a busy machine, not a page's update).
START = max(BOUND, 60.0)


def chromium_paths() -> tuple[str | None, str | None]:
    """The system's Chromium and its driver, or None for each one missing."""
    browser = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                    if shutil.which(n)), None)
    driver = shutil.which("chromedriver") or next(
        (p for p in ("/usr/lib/chromium/chromedriver", "/usr/bin/chromedriver") if os.path.exists(p)), None)
    return browser, driver


def missing() -> str | None:
    """What the browser tests lack, in words, or None when they can run."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (make .venv/.installed-test)"
    browser, driver = chromium_paths()
    if browser is None or driver is None:
        lacking = " and ".join(w for w, p in (("chromium", browser), ("chromium-driver", driver)) if p is None)
        return f"no system {lacking}: {HOW_TO_GET_ONE} (as root) to run the browser tests"
    return None


def browser_or_skip() -> None:
    """Skip the test when the browser is missing, saying how to get one; fail instead under
    DUSK_REQUIRE_BROWSER=1 (CI), so that a CI without a browser cannot pass by skipping."""
    lack = missing()
    if lack is None:
        return
    if os.environ.get("DUSK_REQUIRE_BROWSER") == "1":
        pytest.fail(f"DUSK_REQUIRE_BROWSER=1 and {lack}", pytrace=False)
    pytest.skip(lack)


# ---- the server


@dataclass
class Server:
    """`dusk serve ...` running; `gm` and `join` are the two links it printed."""

    process: subprocess.Popen
    gm: str
    join: str
    printed: list = field(default_factory=list)

    @property
    def base(self) -> str:
        return re.match(r"https?://[^/]+", self.gm).group(0)

    def stop(self) -> str:
        """Ctrl-C, as a person stops it; the whole output. Killed if it does not stop."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=15)
        return "".join(self.printed)


def serve(*args: str, env: dict | None = None, data_dir: Path | None = None) -> Server:
    """Start `dusk serve ARGS --port 0` and read its two links (the GM's is the first printed)."""
    environment = dict(os.environ, PYTHONUNBUFFERED="1", NO_COLOR="1", **(env or {}))
    if data_dir is not None:
        environment["DUSK_DATA_DIR"] = str(data_dir)
    process = subprocess.Popen([DUSK, "serve", *args, "--port", "0"], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True, env=environment)
    lines: queue.Queue = queue.Queue()
    printed: list = []

    def read() -> None:
        for line in process.stdout:
            printed.append(line)
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    links: list[str] = []
    deadline = time.monotonic() + START
    while len(links) < 2:
        try:
            line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
        except queue.Empty:
            line = None
        if line is None:
            process.kill()
            raise AssertionError("dusk serve printed no two links:\n" + "".join(printed))
        links += LINK.findall(line)
    server = Server(process, links[0], links[1], printed)
    wait_until(lambda: _answers(server.base), what=f"dusk serve answering at {server.base}", bound=START)
    return server


def _answers(base: str) -> bool:
    import urllib.error
    import urllib.request

    try:
        urllib.request.urlopen(base + "/api/state", timeout=2)
    except urllib.error.HTTPError:
        return True           # 401 without a token: it is up
    except OSError:
        return False
    return True


def wait_until(test, what: str, bound: float = BOUND):
    """Poll `test` until it gives something true; fail naming `what` after `bound` seconds."""
    deadline = time.monotonic() + bound
    last = None
    while True:
        try:
            value = test()
        except Exception as err:  # noqa: BLE001 - a page between two states: look again
            value, last = None, err
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {bound:g} s for {what}" + (f" (last: {last!r})" if last else ""))
        time.sleep(0.05)


# ---- a screen


class Screen:
    """One person's phone: a headless Chromium of its own, 390 px wide."""

    def __init__(self, name: str, profile: Path):
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service

        os.environ.setdefault("SE_OFFLINE", "true")      # Selenium never fetches a driver: the system's is given
        os.environ.setdefault("SE_AVOID_STATS", "true")
        browser, driver = chromium_paths()
        options = Options()
        options.binary_location = browser
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--no-first-run", "--disable-extensions", "--hide-scrollbars", "--lang=en-US",
                    f"--window-size={WIDTH},{HEIGHT}", f"--user-data-dir={profile}"):
            options.add_argument(arg)
        self.name = name
        self.driver = webdriver.Chrome(options=options, service=Service(executable_path=driver))
        # A phone's viewport, whatever the smallest window the platform allows.
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": True})
        self.driver.set_script_timeout(BOUND)

    def open(self, url: str) -> None:
        self.driver.get(url)

    def close(self) -> None:
        try:
            self.driver.quit()
        except Exception:  # noqa: BLE001 - a browser already gone
            pass

    # finding things
    def find(self, css: str):
        from selenium.webdriver.common.by import By

        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def one(self, css: str, bound: float = BOUND):
        """The first element matching `css` that is shown, waited for."""
        return wait_until(lambda: next((e for e in self.find(css) if e.is_displayed()), None),
                          f"{css} on {self.name}'s screen", bound)

    def text(self, css: str = "body") -> str:
        return " ".join(e.text for e in self.find(css))

    def wait_text(self, css: str, wanted: str, bound: float = BOUND) -> str:
        """Wait until an element matching `css` shows `wanted`; the text of that element."""
        def found():
            return next((e.text for e in self.find(css) if wanted in e.text), None)
        return wait_until(found, f"{wanted!r} in {css} on {self.name}'s screen", bound)

    def click(self, css: str, bound: float = BOUND) -> None:
        """Click the first shown element matching `css`, waited for (again, when the page rebuilt it
        between finding and clicking)."""
        def clicked():
            element = next((e for e in self.find(css) if e.is_displayed() and e.is_enabled()), None)
            if element is None:
                return False
            # In the middle of the screen, clear of the header that stays on top as the page scrolls.
            self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
            element.click()
            return True
        wait_until(clicked, f"{css} to click on {self.name}'s screen", bound)

    def choose(self, css: str, value: str) -> None:
        """Choose the option of value `value` in a select."""
        from selenium.webdriver.support.select import Select

        Select(self.one(css)).select_by_value(value)

    def fill(self, css: str, value: str) -> None:
        box = self.one(css)
        box.clear()
        box.send_keys(value)

    def log_texts(self) -> list[str]:
        return [e.text for e in self.find("#log .entry")]

    def screenshot(self, path: Path, whole: bool = True) -> Path:
        """The screen from the top, as a PNG: the whole page (`whole`), or what a phone shows at once."""
        path.parent.mkdir(parents=True, exist_ok=True)
        self.driver.execute_script("window.scrollTo(0, 0)")
        if not whole:
            path.write_bytes(self.driver.get_screenshot_as_png())
            return path
        # The whole page at the phone's width: its height as the content is tall (bounded).
        height = self.driver.execute_script("return Math.min(4000, document.documentElement.scrollHeight)")
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": WIDTH, "height": max(HEIGHT, int(height)), "deviceScaleFactor": 1,
                                     "mobile": True})
        try:
            path.write_bytes(self.driver.get_screenshot_as_png())
        finally:
            self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                        {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": True})
        return path


def spread(path: Path) -> tuple[tuple[int, int], float, int]:
    """A screenshot's size, the standard deviation of its grey levels, and how many grey levels it
    uses: a blank (or one-colour) screen has a spread of 0 and one level."""
    from PIL import Image, ImageStat

    with Image.open(path) as image:
        grey = image.convert("L")
        return image.size, ImageStat.Stat(grey).stddev[0], len([c for c in grey.histogram() if c])
