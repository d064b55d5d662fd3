"""The search page's "Show more" button, from the keyboard."""

import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from sitekit.site import build_site

_SITE = "title: Many\nbase_url: https://example.org/\nlanguage: en\n"


def _write_site(folder, count: int):
    """`count` reviews that all hold the word "lantern", so one query finds more than a page of results."""
    (folder / "content" / "movies").mkdir(parents=True)
    (folder / "site.yml").write_text(_SITE, encoding="utf-8")
    for number in range(1, count + 1):
        (folder / "content" / "movies" / f"film-{number}.md").write_text(
            f"---\ntitle: Film {number}\ndate: 2025-01-{number:02d}\n---\nA lantern in the dark.\n", encoding="utf-8"
        )
    return folder


def test_show_more_moves_focus_to_the_first_new_result(tools, server, browser, tmp_path):
    site = build_site(tools.sitegen, _write_site(tmp_path / "many", 25), server, "many", "site of 25 reviews")
    problems = browser.open(site.url("search/?q=lantern"), 1280)
    assert not problems, "\n".join(problems)
    driver = browser.driver
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not driver.execute_script(
        'return document.querySelectorAll("#search-results > li").length'
    ):
        time.sleep(0.1)
    shown = driver.execute_script('return document.querySelectorAll("#search-results > li").length')
    assert shown == 16, f"the first page of results shows 16 of 25 reviews, not {shown}"
    more = driver.find_element(By.CSS_SELECTOR, ".search-more")
    more.send_keys(Keys.ENTER)
    deadline = time.monotonic() + 5
    focused = ""
    while time.monotonic() < deadline:
        focused = driver.execute_script(
            "const active = document.activeElement;"
            'const items = Array.from(document.querySelectorAll("#search-results > li"));'
            "const at = items.findIndex((item) => item.contains(active));"
            'return `${items.length} ${at} ${active.tagName}`;'
        )
        if focused == "25 16 A":
            break
        time.sleep(0.1)
    assert focused == "25 16 A", (
        "after Show more, keyboard focus should be on the link of the 17th result (of 25); "
        f"results, index of the focused one, focused tag: {focused}"
    )
