"""No page is wider than a 320 px phone: every page of the long-word sites and of the example site.

A page fails when document.scrollingElement.scrollWidth > clientWidth. The message groups what
reaches past the right edge (the innermost elements, and text) by element, with the pages it is on.
"""

from collections import defaultdict
from urllib.parse import unquote

import pytest

WIDTH = 320


def _overflow(browser, site) -> str:
    """Nothing when every page fits; otherwise a description of which pages do not, and why."""
    problems: list[str] = []
    wide_pages: dict[str, int] = {}
    culprits: dict[tuple[str, str], dict[str, int]] = defaultdict(dict)
    for page in site.pages:
        name = unquote(page.url[len(site.base_url) - 1 :])
        problems += browser.open(page.url, WIDTH)
        result = browser.overflow()
        if result["clientWidth"] != WIDTH:
            problems.append(f"{name}: laid out {result['clientWidth']} px wide, not {WIDTH}")
        elif result["scrollWidth"] > result["clientWidth"]:
            wide_pages[name] = result["scrollWidth"]
            for culprit in result["culprits"]:
                culprits[(culprit["element"], culprit["text"])][name] = culprit["right"]
    if wide_pages:
        widest = max(wide_pages, key=wide_pages.get)
        problems.append(
            f"{len(wide_pages)} of {len(site.pages)} pages are wider than {WIDTH} px "
            f"(document.scrollingElement.scrollWidth > clientWidth; the widest, {widest}, is {wide_pages[widest]} px). "
            "What reaches past the right edge:"
        )
        for (element, text), pages in sorted(culprits.items(), key=lambda item: -len(item[1])):
            problems.append(
                f"    {element} {text!r}, up to {max(pages.values())} px, on {len(pages)} pages: {', '.join(pages)}"
            )
    return "\n".join(problems)


@pytest.mark.parametrize("language", ["en", "ko"])
def test_long_words_never_widen_the_page(language, browser, long_word_sites):
    site = next(site for site in long_word_sites if site.base_url.endswith(f"/long-{language}/"))
    problems = _overflow(browser, site)
    assert not problems, f"{site.name} at {WIDTH} px:\n{problems}"


def test_example_site_fits_a_320px_phone(browser, example_site):
    problems = _overflow(browser, example_site)
    assert not problems, f"{example_site.name} at {WIDTH} px:\n{problems}"
