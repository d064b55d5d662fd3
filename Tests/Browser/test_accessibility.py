"""axe-core (WCAG 2.2 AA) on each kind of page of the example site, light and dark, phone and desktop,
and on every other page once.

Each page is also photographed, whole, into .build/browser-screenshots/ (named kind-width-scheme.png).
"""

import re

import pytest

from sitekit.browser import WCAG_TAGS, describe_violations
from sitekit.pagekinds import representatives

VIEWPORTS = [(390, "light"), (390, "dark"), (1440, "light"), (1440, "dark")]


def _file_name(kind: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", kind.lower()).strip("-")


# Across the four runs: each element axe could not decide on, and where (page kind, width, scheme).
_undecided: dict[str, list[str]] = {}


@pytest.mark.parametrize("width,scheme", VIEWPORTS, ids=[f"{width}px-{scheme}" for width, scheme in VIEWPORTS])
def test_no_axe_violations(width, scheme, browser, example_site, screenshots, report):
    pages = representatives(example_site)
    problems: list[str] = []
    for kind, page in pages:
        problems += browser.open(page.url, width, scheme, all_images=True)
        browser.screenshot(screenshots / f"{_file_name(kind)}-{width}-{scheme}.png")
        result = browser.axe(WCAG_TAGS)
        problems += describe_violations(f"{kind} {page.url}", width, scheme, result["violations"])
        for rule in result["incomplete"]:
            for node in rule["nodes"]:
                _undecided.setdefault(f"{rule['id']}: {node}", []).append(f"{kind} {width} {scheme}")
    report.set(
        f"axe-core {result['version']}: pages checked (at 390 and 1440 px, light and dark)",
        *(f"{kind}: {page.url}" for kind, page in pages),
    )
    report.set(
        "axe-core: elements axe could not decide on (a person should look)",
        *(f"{rule}\n    on: {', '.join(where)}" for rule, where in sorted(_undecided.items())),
    )
    assert not problems, f"{len(problems)} accessibility problems ({', '.join(WCAG_TAGS)}):\n" + "\n".join(problems)


def test_no_axe_violations_on_the_other_pages(browser, example_site):
    """Every page not checked above, once (390 px, light): content differs from page to page."""
    checked = {page.url for _, page in representatives(example_site)}
    others = [page for page in example_site.pages if page.url not in checked]
    problems: list[str] = []
    for page in others:
        problems += browser.open(page.url, 390, "light", all_images=True)
        problems += describe_violations(page.url, 390, "light", browser.axe(WCAG_TAGS)["violations"])
    assert others, "every page is a representative: nothing else to check"
    assert not problems, f"{len(problems)} accessibility problems on {len(others)} pages:\n" + "\n".join(problems)
