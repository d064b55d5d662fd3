"""Checks for features: structured data on review pages (run only once a review page has JSON-LD, and
saying so when none has) and the search page (mandatory: the site has one).
"""

import json
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from sitekit import search, structured
from sitekit.content import distinctive_word, reviews
from sitekit.site import fetch


def _known(site, image_url: str | None) -> structured.Known:
    """What the metadata cache says about the work whose poster or cover the page shows."""
    if not image_url:
        return structured.Known()
    key = unquote(Path(urlsplit(image_url).path).name).rsplit("-", 1)[0]
    for kind in ("movies", "books"):
        file = site.source / "metadata" / kind / f"{key}.json"
        if file.is_file():
            data = json.loads(file.read_text(encoding="utf-8"))
            tmdb = str(data.get("id") or "") if data.get("source") == "tmdb" else ""
            return structured.Known(tmdb_id=tmdb or None, isbn=data.get("isbn") or None)
    return structured.Known()


def test_review_pages_carry_schema_org_review_json_ld(browser, example_site, report):
    pages = [example_site.page(source.path) for source in reviews(example_site.source)]
    facts = {}
    for page in pages:
        problems = browser.open(page.url, 1440)
        assert not problems, "\n".join(problems)
        facts[page.url] = browser.driver.execute_script(structured.READ_FACTS)
    if not any(page_facts["blocks"] for page_facts in facts.values()):
        report.add("features not built yet (their checks were skipped)", "JSON-LD on review pages")
        pytest.skip("no review page has JSON-LD yet: the structured-data check runs once the feature is built")
    problems = []
    for page in pages:
        page_facts = facts[page.url]
        for problem in structured.problems(page_facts, _known(example_site, page_facts["image"])):
            problems.append(f"{page.url}: JSON-LD: {problem}")
    assert not problems, f"{len(problems)} problems in the review pages' JSON-LD:\n" + "\n".join(problems)


def test_search_finds_a_title_hangul_initials_and_a_word_of_the_text(browser, example_site, report):
    page = example_site.url("search/")
    status, _, _ = fetch(page)
    assert status == 200, f"{page} answers HTTP {status}: the site has a search page"

    sources = reviews(example_site.source)
    by_path = {source.path: example_site.url(source.path) for source in sources}
    word, owner = distinctive_word(sources)
    other = next(path for path in by_path if path != owner.path and path != "books/stoner/")
    cases = [
        ("Stoner", by_path["books/stoner/"], by_path["movies/parasite/"]),
        ("ㄱㅅㅊ", by_path["movies/parasite/"], by_path["books/stoner/"]),
        (word, by_path[owner.path], by_path[other]),
        # A title as it is written, a word of one digit included.
        ("Dekalog 2", by_path["movies/dekalog-2/"], by_path["movies/dekalog-10/"]),
    ]
    problems = [problem for query, hit, miss in cases if (problem := search.finds(browser, page, query, hit, miss))]
    report.add("search queries tried", *(f"{query!r} -> {hit}" for query, hit, _ in cases))
    assert not problems, "the search page does not find what it should:\n" + "\n".join(problems)


def test_search_says_a_query_that_finds_nothing_as_it_was_typed(browser, example_site, report):
    # "$&" and "$'" are patterns to JavaScript's String.replace when the replacement is a string.
    page = example_site.url("search/")
    query = "zzq$'yy $& $$"
    said = search.status_for(browser, page, query)
    report.add("search status for a query with $ patterns", f"{query!r} -> {said!r}")
    assert f"\u201c{query}\u201d" in said, f"the search page garbles {query!r} in its status line: {said!r}"
