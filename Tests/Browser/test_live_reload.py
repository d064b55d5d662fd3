"""`sitegen serve`'s live reload in a real browser, on a temporary copy of the example site.

An open review page shows an edit of its Markdown without anyone reloading it; a stylesheet edit is
applied without reloading the page. The page `serve` sends (with its injected script) is valid HTML.
"""

import shutil
import time

import pytest
from selenium.common.exceptions import WebDriverException

from sitekit import nu
from sitekit.preview import PreviewServer
from sitekit.site import fetch
from sitekit.tools import REPO

SITE_PARTS = ["content", "metadata", "static", "Templates", "site.yml"]
REVIEW = "movies/withnail-and-i"


def _wait_for(browser, script: str, timeout: float = 10) -> bool:
    """Polls a JavaScript expression until it is true; whether it became true within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if browser.driver.execute_script(f"return Boolean({script})"):
                return True
        except WebDriverException:  # the page is being replaced by the reload
            pass
        time.sleep(0.05)
    return False


@pytest.fixture
def site_copy(tmp_path):
    for part in SITE_PARTS:
        source = REPO / part
        if source.is_dir():
            shutil.copytree(source, tmp_path / part)
        elif source.is_file():
            shutil.copy2(source, tmp_path / part)
    return tmp_path


def test_an_open_page_follows_edits(tools, browser, site_copy, report):
    with PreviewServer(tools.sitegen, site_copy) as preview:
        url = preview.url + REVIEW + "/"
        status, _, body = fetch(url)
        assert status == 200, f"{url} answers HTTP {status}"
        html = body.decode("utf-8")
        if "/__sitegen/events" not in html:
            report.add("features not built yet (their checks were skipped)", "live reload in sitegen serve")
            pytest.skip(f"{url} has no live-reload script (no /__sitegen/events): live reload is not built")

        served = site_copy / "served-page.html"
        served.write_text(html, encoding="utf-8")
        invalid = [m.describe(site_copy) for m in nu.check(tools.java, tools.vnu_jar, [served]) if m.kind == "error"]
        assert not invalid, f"the page sitegen serve sends ({url}) is not valid HTML:\n" + "\n".join(invalid)

        problems = browser.open(url, 1440)
        assert not problems, "\n".join(problems)
        marker = f"Live reload check {time.time_ns()}"
        markdown = site_copy / "content" / f"{REVIEW}.md"
        saved = time.monotonic()
        markdown.write_text(markdown.read_text(encoding="utf-8") + f"\n{marker}\n", encoding="utf-8")
        shown = _wait_for(browser, f"document.body.textContent.includes({marker!r})")
        assert shown, (
            f"{url}: the page did not show the edit of {markdown.name} within 10 s "
            f"(sitegen serve printed:\n{''.join(preview.output)})"
        )
        text_delay = time.monotonic() - saved

        browser.driver.execute_script("window.__notReloaded = true")
        stylesheet = site_copy / "Templates" / "assets" / "site.css"
        saved = time.monotonic()
        stylesheet.write_text(
            stylesheet.read_text(encoding="utf-8") + "\n.site-title { outline: 7px solid rgb(1, 2, 3); }\n",
            encoding="utf-8",
        )
        styled = _wait_for(browser, "getComputedStyle(document.querySelector('.site-title')).outlineWidth === '7px'")
        css_delay = time.monotonic() - saved
        assert styled, f"{url}: the page did not apply the edit of {stylesheet.name} within 10 s"
        kept = browser.driver.execute_script("return window.__notReloaded === true")
        assert kept, f"{url}: a stylesheet-only edit reloaded the whole page instead of swapping the stylesheet"
    assert preview.exit_status == 0, f"sitegen serve exited with status {preview.exit_status} after SIGTERM"
    report.add(
        "live reload (save to shown in the browser, one measurement each)",
        f"Markdown edit: {text_delay * 1000:.0f} ms; stylesheet edit: {css_delay * 1000:.0f} ms",
    )


def test_a_site_that_did_not_build_shows_its_errors_then_the_fixed_page(tools, browser, site_copy):
    markdown = site_copy / "content" / f"{REVIEW}.md"
    good = markdown.read_text(encoding="utf-8")
    lines = good.split("\n")
    line = next(i for i, text in enumerate(lines) if text.startswith("date: ")) + 1
    lines[line - 1] = "date: someday"
    markdown.write_text("\n".join(lines), encoding="utf-8")
    with PreviewServer(tools.sitegen, site_copy) as preview:
        url = preview.url + REVIEW + "/"
        status, _, body = fetch(url)
        assert status == 500, f"{url} answers HTTP {status} for a site that did not build"
        served = site_copy / "error-page.html"
        served.write_bytes(body)
        invalid = [m.describe(site_copy) for m in nu.check(tools.java, tools.vnu_jar, [served]) if m.kind == "error"]
        assert not invalid, f"the error page sitegen serve sends ({url}) is not valid HTML:\n" + "\n".join(invalid)

        browser.open(url, 1440)
        overlay = browser.driver.execute_script("return document.getElementById('sitegen-errors')?.textContent ?? ''")
        assert f"content/{REVIEW}.md:{line}:7" in overlay, f"{url}: the page does not list the error:\n{overlay}"
        markdown.write_text(good, encoding="utf-8")
        shown = _wait_for(browser, "document.querySelector('h1.review-title') && !document.getElementById('sitegen-errors')")
        assert shown, (
            f"{url}: the page did not become the review within 10 s of the fix "
            f"(sitegen serve printed:\n{''.join(preview.output)})"
        )
    assert preview.exit_status == 0, f"sitegen serve exited with status {preview.exit_status} after SIGTERM"
