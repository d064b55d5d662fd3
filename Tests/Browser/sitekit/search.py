"""Typing into a search page and seeing which reviews it shows."""

import time

from selenium.common.exceptions import NoSuchElementException
from selenium.webdriver.common.by import By

from .browser import Browser

# The search field: the first of these the page has.
FIELD_SELECTORS = [
    'input[type="search"]',
    '[role="searchbox"]',
    'form[role="search"] input',
    "search input",
    'input[name="q"]',
]

_VISIBLE_LINKS = """
return Array.from(document.querySelectorAll("a[href]"))
  .filter((link) => link.getClientRects().length > 0 && getComputedStyle(link).visibility !== "hidden")
  .map((link) => link.href);
"""


def _field(browser: Browser):
    for selector in FIELD_SELECTORS:
        try:
            return browser.driver.find_element(By.CSS_SELECTOR, selector)
        except NoSuchElementException:
            continue
    return None


def _type(browser: Browser, page_url: str, query: str) -> str | None:
    """Opens the search page and types `query` into its field; returns what went wrong, or None."""
    problems = browser.open(page_url, 1440)
    if problems:
        return "; ".join(problems)
    field = _field(browser)
    if field is None:
        return f"{page_url}: no search field (looked for {', '.join(FIELD_SELECTORS)})"
    field.clear()
    field.send_keys(query)
    typed = field.get_attribute("value")
    if typed != query:
        return f"{page_url}: typed {query!r} but the field holds {typed!r}"
    return None


def finds(browser: Browser, page_url: str, query: str, expected: str, unexpected: str, timeout: float = 5) -> str | None:
    """Opens the search page, types `query`, and waits for a visible link to `expected` while no
    visible link goes to `unexpected` (a review the query does not match, so that a page listing
    everything does not pass). Returns what went wrong, or None."""
    problem = _type(browser, page_url, query)
    if problem:
        return problem
    deadline = time.monotonic() + timeout
    links: list[str] = []
    while time.monotonic() < deadline:
        links = browser.driver.execute_script(_VISIBLE_LINKS)
        if expected in links and unexpected not in links:
            return None
        time.sleep(0.1)
    if expected not in links:
        return f"{page_url}: typing {query!r} did not show a link to {expected} within {timeout:.0f} s"
    return f"{page_url}: typing {query!r} shows {expected} but also {unexpected}, which does not match"


def status_for(browser: Browser, page_url: str, query: str, timeout: float = 5) -> str:
    """Types `query` into the search page and returns what its status line says once it says
    something (its `role="status"` element), or why it could not."""
    problem = _type(browser, page_url, query)
    if problem:
        return problem
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = browser.driver.execute_script(
            'const s = document.querySelector("[role=status]"); return s ? s.textContent : "";')
        if text:
            return text
        time.sleep(0.1)
    return f"{page_url}: the status line said nothing within {timeout:.0f} s of typing {query!r}"
