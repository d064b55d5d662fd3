"""axe-core (WCAG 2.2 AA) on each kind of page of the example site, light and dark, phone and desktop.

Each page is also photographed, whole, into .build/browser-screenshots/ (named kind-width-scheme.png).
"""

import re

import pytest

from sitekit.browser import WCAG_TAGS, describe_violations
from sitekit.pagekinds import representatives

VIEWPORTS = [(390, "light"), (390, "dark"), (1440, "light"), (1440, "dark")]


def _file_name(kind: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", kind.lower()).strip("-")


@pytest.mark.parametrize("width,scheme", VIEWPORTS, ids=[f"{width}px-{scheme}" for width, scheme in VIEWPORTS])
def test_no_axe_violations(width, scheme, browser, example_site, screenshots, report):
    pages = representatives(example_site)
    problems: list[str] = []
    undecided: dict[str, list[str]] = {}
    for kind, page in pages:
        problems += browser.open(page.url, width, scheme, all_images=True)
        browser.screenshot(screenshots / f"{_file_name(kind)}-{width}-{scheme}.png")
        result = browser.axe(WCAG_TAGS)
        problems += describe_violations(f"{kind} {page.url}", width, scheme, result["violations"])
        for rule in result["incomplete"]:
            for node in rule["nodes"]:
                undecided.setdefault(f"{rule['id']}: {node}", []).append(kind)
    report.add(
        f"axe-core {width} px {scheme}: pages checked",
        *(f"{kind}: {page.url}" for kind, page in pages),
    )
    report.add(
        f"axe-core {width} px {scheme}: rules axe could not decide (a person should look)",
        *(f"{rule}\n    on: {', '.join(where)}" for rule, where in sorted(undecided.items())),
    )
    assert not problems, f"{len(problems)} accessibility problems ({', '.join(WCAG_TAGS)}):\n" + "\n".join(problems)
