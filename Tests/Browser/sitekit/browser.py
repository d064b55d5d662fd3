"""Headless Chromium through Selenium: a width and a colour scheme, axe-core, overflow, screenshots."""

import base64
import os
from pathlib import Path

from .tools import Tools

# Selenium must never look for or download a driver: the paths are given.
os.environ.setdefault("SE_OFFLINE", "true")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]

# Chromium may talk to nothing but 127.0.0.1: other host names do not resolve, and every other
# address goes to a proxy that is not there (loopback is never proxied).
_ISOLATION = [
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    "--proxy-server=http://127.0.0.1:9",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-domain-reliability",
    "--disable-sync",
    "--no-pings",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-default-apps",
]

_WAIT_FOR_PAGE = """
const done = arguments[arguments.length - 1];
const everyImage = arguments[0];
if (everyImage) Array.from(document.images).forEach((image) => { image.loading = "eager"; });
const images = Array.from(document.images).filter((image) => everyImage || image.loading !== "lazy");
Promise.all(images.map((image) => image.complete ? null :
    new Promise((resolve) => { image.addEventListener("load", resolve); image.addEventListener("error", resolve); })))
  .then(() => document.fonts.ready)
  .then(() => done(true));
"""

_RUN_AXE = """
const done = arguments[arguments.length - 1];
axe.run(document, { runOnly: { type: "tag", values: arguments[0] }, resultTypes: ["violations"] })
  .then((results) => done({
    version: axe.version,
    violations: results.violations.map((rule) => ({
      id: rule.id, impact: rule.impact, help: rule.help,
      nodes: rule.nodes.map((node) => ({
        target: node.target.join(" "), html: node.html,
        summary: node.failureSummary || "" })) })),
    incomplete: results.incomplete.map((rule) => ({ id: rule.id,
      nodes: rule.nodes.map((node) => node.target.join(" ") + ": " +
        ((node.any[0] || node.all[0] || node.none[0] || { message: "" }).message)) })) }))
  .catch((error) => done({ error: String(error) }));
"""

# Why the document is wider than the viewport: the innermost elements and the text that reach past its
# right edge, leaving out what sits inside a box that clips or scrolls (that does not widen the page).
_OVERFLOW = """
const root = document.scrollingElement;
const width = root.clientWidth;
const result = { scrollWidth: root.scrollWidth, clientWidth: width, culprits: [] };
if (root.scrollWidth <= width) return result;
const clipped = (element) => {
  for (let parent = element.parentElement; parent && parent !== document.body && parent !== document.documentElement;
       parent = parent.parentElement) {
    if (getComputedStyle(parent).overflowX !== "visible") return true;
  }
  return false;
};
const name = (element) => {
  const parts = [];
  for (let node = element; node && node !== document.body && parts.length < 4; node = node.parentElement) {
    let part = node.localName;
    if (node.id) part += "#" + node.id;
    else if (node.classList.length) part += "." + Array.from(node.classList).join(".");
    parts.unshift(part);
  }
  return parts.join(" > ");
};
const right = (rect) => rect.right + window.scrollX;
const wide = [];
for (const element of document.body.querySelectorAll("*")) {
  const rect = element.getBoundingClientRect();
  if (rect.width > 0 && right(rect) > width + 0.5 && !clipped(element)) wide.push(element);
}
for (const element of wide) {
  if (!wide.some((other) => other !== element && element.contains(other))) {
    result.culprits.push({ element: name(element), right: Math.round(right(element.getBoundingClientRect())),
                           text: (element.textContent || "").trim().slice(0, 60) });
  }
}
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
const range = document.createRange();
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  if (!node.textContent.trim() || clipped(node.parentElement)) continue;
  range.selectNodeContents(node);
  const edge = Math.max(0, ...Array.from(range.getClientRects()).map(right));
  if (edge > width + 0.5 && !wide.includes(node.parentElement)) {
    result.culprits.push({ element: name(node.parentElement) + " (text)", right: Math.round(edge),
                           text: node.textContent.trim().slice(0, 60) });
  }
}
result.culprits = result.culprits.slice(0, 16);
return result;
"""


class Browser:
    """One headless Chromium, resized and re-themed per page through the DevTools protocol."""

    def __init__(self, tools: Tools):
        options = webdriver.ChromeOptions()
        options.binary_location = str(tools.chromium)
        for argument in [
            "--headless=new",
            "--no-sandbox",
            "--disable-dev-shm-usage",
            "--disable-gpu",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            "--lang=en-US",
            "--window-size=1440,900",
            *_ISOLATION,
        ]:
            options.add_argument(argument)
        self.driver = webdriver.Chrome(options=options, service=Service(str(tools.chromedriver)))
        self.driver.set_script_timeout(120)
        self.driver.set_page_load_timeout(60)
        self._axe_source = tools.axe_js.read_text(encoding="utf-8")
        self._width: int | None = None
        self._scheme: str | None = None

    def close(self) -> None:
        self.driver.quit()

    def emulate(self, width: int, scheme: str, height: int = 900) -> None:
        """A viewport `width` CSS pixels wide (a phone's, with its meta viewport, under 700) and
        `prefers-color-scheme: scheme` (light or dark)."""
        if width != self._width:
            self.driver.execute_cdp_cmd(
                "Emulation.setDeviceMetricsOverride",
                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 700},
            )
            self._width = width
        if scheme != self._scheme:
            self.driver.execute_cdp_cmd(
                "Emulation.setEmulatedMedia",
                {"features": [{"name": "prefers-color-scheme", "value": scheme}]},
            )
            self._scheme = scheme

    def open(self, url: str, width: int, scheme: str = "light", all_images: bool = False) -> list[str]:
        """Loads `url` at that width and scheme, waits for its images (all of them, lazy ones too,
        with `all_images`) and fonts, and returns the problems seen: requests to any other server."""
        self.emulate(width, scheme)
        self.driver.get(url)
        self.driver.execute_async_script(_WAIT_FOR_PAGE, all_images)
        return self.outside_requests(url)

    def outside_requests(self, url: str) -> list[str]:
        """Resources the page asked for from any server but the one that served it."""
        origin = "/".join(url.split("/", 3)[:3]) + "/"
        names = self.driver.execute_script(
            "return performance.getEntriesByType('resource').map((entry) => entry.name)"
        )
        return [
            f"{url}: requested {name}, which is not on the server of the page"
            for name in names
            if not name.startswith(origin) and not name.startswith(("data:", "blob:"))
        ]

    def axe(self, tags: list[str] = WCAG_TAGS) -> dict:
        """Runs axe-core on the open page; the violations with each element, and the rules axe
        could not decide (incomplete)."""
        if not self.driver.execute_script("return typeof window.axe === 'object'"):
            self.driver.execute_script(self._axe_source)
        result = self.driver.execute_async_script(_RUN_AXE, tags)
        if "error" in result:
            raise RuntimeError(f"axe-core failed on {self.driver.current_url}: {result['error']}")
        return result

    def overflow(self) -> dict:
        """The document's scroll width and client width, and what reaches past it when wider."""
        return self.driver.execute_script(_OVERFLOW)

    def screenshot(self, path: Path) -> None:
        """The whole page, top to bottom, at the current width, as PNG."""
        size = self.driver.execute_script(
            "return [document.documentElement.clientWidth, Math.ceil(document.documentElement.scrollHeight)]"
        )
        shot = self.driver.execute_cdp_cmd(
            "Page.captureScreenshot",
            {
                "format": "png",
                "captureBeyondViewport": True,
                "clip": {"x": 0, "y": 0, "width": size[0], "height": min(size[1], 16000), "scale": 1},
            },
        )
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(shot["data"]))


def describe_violations(page: str, width: int, scheme: str, violations: list[dict]) -> list[str]:
    """One line per element that breaks a rule: page, width, scheme, rule, element, why."""
    lines = []
    for rule in violations:
        for node in rule["nodes"]:
            html = " ".join(node["html"].split())
            if len(html) > 160:
                html = html[:157] + "..."
            summary = " ".join(node["summary"].split())
            lines.append(
                f"{page} at {width} px, {scheme}: {rule['id']} ({rule['impact']}): {rule['help']}\n"
                f"    element: {node['target']}  {html}\n"
                f"    {summary}"
            )
    return lines
