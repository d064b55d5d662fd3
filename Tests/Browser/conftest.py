"""Fixtures for the browser checks: the tools, one local server, the built sites, one Chromium.

Every site is built by the sitegen release binary into a temporary folder and served by Python's
http.server on 127.0.0.1 under a sub-path (the example site under its configured `/reviews/`), so
links that forget the site's base path fail. Chromium is kept from reaching any other address.
"""

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import yaml

from sitekit import longwords
from sitekit.site import BuiltSite, StaticServer, build_site
from sitekit.tools import INSTALL_COMMAND, REPO, Tools, axe_version, find_tools

SCREENSHOTS = REPO / ".build" / "browser-screenshots"
REPORT = REPO / ".build" / "browser-report.txt"


class Report:
    """Notes for the end of the run (what was found that does not fail a check, what was skipped)."""

    def __init__(self):
        self.sections: dict[str, list[str]] = {}

    def add(self, section: str, *lines: str) -> None:
        self.sections.setdefault(section, []).extend(lines)

    def set(self, section: str, *lines: str) -> None:
        self.sections[section] = list(lines)

    def text(self) -> str:
        parts = []
        timing = "time per check"
        order = [title for title in self.sections if title != timing] + [timing] * (timing in self.sections)
        for title in order:
            lines = self.sections[title]
            parts.append(f"== {title}")
            parts.extend(lines or ["(none)"])
            parts.append("")
        return "\n".join(parts)


_report = Report()


@pytest.fixture(scope="session")
def report() -> Report:
    return _report


def pytest_terminal_summary(terminalreporter):
    if not _report.sections:
        return
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(_report.text(), encoding="utf-8")
    terminalreporter.section("browser checks: notes")
    terminalreporter.write_line(_report.text())
    terminalreporter.write_line(f"(also written to {REPORT.relative_to(REPO)})")


@pytest.fixture(scope="session")
def tools(report: Report) -> Tools:
    found, missing = find_tools()
    if found is None:
        message = "missing: " + "; ".join(missing) + f". Install them with: {INSTALL_COMMAND}"
        if os.environ.get("SITEGEN_BROWSER_CHECKS") == "required":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    chromium = subprocess.run([str(found.chromium), "--version"], capture_output=True, text=True).stdout.strip()
    vnu = subprocess.run(
        [str(found.java), "-jar", str(found.vnu_jar), "--version"], capture_output=True, text=True
    ).stdout.strip()
    report.add(
        "tools",
        f"sitegen: {found.sitegen}",
        f"browser: {chromium}",
        f"Nu HTML checker: {vnu} ({found.vnu_jar})",
        f"axe-core: {axe_version(found.axe_js)} ({found.axe_js})",
    )
    return found


@pytest.fixture(scope="session")
def server(tmp_path_factory) -> StaticServer:
    root = tmp_path_factory.mktemp("served")
    server = StaticServer(root)
    yield server
    server.close()


@pytest.fixture(scope="session")
def example_site(tools: Tools, server: StaticServer) -> BuiltSite:
    """The repository's example site, under the path of its `base_url` (`/reviews/`)."""
    config = yaml.safe_load((REPO / "site.yml").read_text(encoding="utf-8"))
    sub_path = config["base_url"].split("://", 1)[1].split("/", 1)[1].strip("/") or "site"
    return build_site(tools.sitegen, REPO, server, sub_path, "example site")


@pytest.fixture(scope="session")
def long_word_sites(tools: Tools, server: StaticServer, tmp_path_factory) -> list[BuiltSite]:
    """Two small sites (theme words in English, then Korean) full of very long unbroken words."""
    sites = []
    for language in ("en", "ko"):
        source = longwords.write_site(tmp_path_factory.mktemp(f"long-{language}"), language)
        sites.append(build_site(tools.sitegen, source, server, f"long-{language}", f"long-word site ({language})"))
    return sites


@pytest.fixture(scope="session")
def browser(tools: Tools):
    from sitekit.browser import Browser

    browser = Browser(tools)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """`.build/browser-screenshots/`, emptied at the start of a run."""
    shutil.rmtree(SCREENSHOTS, ignore_errors=True)
    SCREENSHOTS.mkdir(parents=True)
    return SCREENSHOTS


@pytest.fixture(autouse=True)
def _timed(request, report: Report):
    start = time.monotonic()
    yield
    report.add("time per check", f"{request.node.nodeid}: {time.monotonic() - start:.1f} s")
