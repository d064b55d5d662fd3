"""Each check, run on pages made to break it, reports the breakage: none of them can pass by accident."""

import json

import pytest

from sitekit import links, nu, search, structured
from sitekit.browser import WCAG_TAGS
from sitekit.site import BuiltSite, Page

BROKEN = """<!DOCTYPE html>
<html>
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Broken on purpose</title>
    <link rel="stylesheet" href="/canary/missing.css">
  </head>
  <body>
    <p><a href="../nowhere/">a missing page</a>, <a href="#no-such-id">a missing fragment</a>,
       <a href="../fine/#absent">a fragment missing on another page</a>, <a href="../fine/#present">fine</a></p>
    <img src="nope.png">
    <img src="http://unreachable.invalid/outside.png" alt="from elsewhere">
    <p style="color: #bbb; background: #fff">Too faint to read.</p>
    <p style="white-space: nowrap">{long}</p>
    <span><div>a block inside a phrase</div></span>
  </body>
</html>
""".replace("{long}", "W" * 120)

FINE = """<!DOCTYPE html>
<html lang="en">
  <head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Fine</title></head>
  <body><main><h1 id="present">Fine</h1></main></body>
</html>
"""

KOREAN = """<!DOCTYPE html>
<html lang="en">
  <head><meta charset="utf-8"><title>Korean under lang=en</title></head>
  <body><main><p>{text}</p></main></body>
</html>
""".replace(
    "{text}",
    "선윤재는 감정을 잘 느끼지 못한다. 머릿속의 편도체, 아몬드처럼 생긴 그 작은 기관이 남들보다 작게 태어났기 때문이다. "
    "엄마는 그런 아들에게 표정과 감정을 암기 과목처럼 가르친다. 상대가 웃으면 따라 웃고, 누가 화를 내면 일단 미안하다고 "
    "말하라고. 엄마와 할머니, 그리고 작은 헌책방. 윤재의 세계는 그렇게 조심스럽게 유지되다가, 열여섯 번째 생일에 벌어진 "
    "일로 한순간에 무너진다. 설정이 좋다. 감정을 느끼지 못하는 화자의 일인칭이라니, 소설가에게는 근사한 제약이다. " * 4,
)

DARK_ONLY = """<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Faint in the dark</title>
    <style>@media (prefers-color-scheme: dark) { body { background: #222; color: #333; } }</style>
  </head>
  <body><main><h1>Readable in light, faint in dark</h1></main></body>
</html>
"""

SEARCH = """<!DOCTYPE html>
<html lang="en">
  <head><meta charset="utf-8"><title>Search</title></head>
  <body>
    <input type="search" id="q" aria-label="Search">
    <ul id="results"></ul>
    <script>
      const items = [{ title: "기생충", url: "../parasite/", text: "계단" }, { title: "Stoner", url: "../stoner/", text: "a farm" }];
      const jamo = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ";
      const initials = (s) => Array.from(s).map((c) => {
        const k = c.charCodeAt(0) - 0xac00;
        return k >= 0 && k < 11172 ? jamo[Math.floor(k / 588)] : c;
      }).join("");
      const field = document.getElementById("q"), results = document.getElementById("results");
      field.addEventListener("input", () => {
        const query = field.value.toLowerCase();
        results.replaceChildren();
        if (!query) return;
        for (const item of items) {
          if ((item.title + " " + item.text).toLowerCase().includes(query) || initials(item.title).includes(query)) {
            const entry = document.createElement("li");
            entry.innerHTML = `<a href="${item.url}">${item.title}</a>`;
            results.append(entry);
          }
        }
      });
    </script>
  </body>
</html>
"""


@pytest.fixture(scope="module")
def canary(server) -> BuiltSite:
    output = server.root / "canary"
    pages = []
    for path, text in [("broken/", BROKEN), ("fine/", FINE), ("korean/", KOREAN), ("dark/", DARK_ONLY),
                       ("search/", SEARCH)]:
        file = output / path / "index.html"
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(text, encoding="utf-8")
        pages.append(Page(f"{server.origin}/canary/{path}", file))
    return BuiltSite("canary", output, output, f"{server.origin}/canary/", "", pages)


def test_the_link_check_finds_missing_pages_files_and_fragments(canary):
    result = links.check_site(canary)
    found = "\n".join(result.problems)
    for expected in ["/canary/nowhere/ answers HTTP 404", "missing.css answers HTTP 404", "nope.png answers HTTP 404",
                     'no element with id="no-such-id"', 'no element with id="absent"']:
        assert expected in found, f"the link check missed {expected!r}; it found:\n{found}"
    assert len(result.problems) == 5, found
    assert "http://unreachable.invalid/outside.png" in result.external


def test_the_nu_checker_finds_errors_and_language_warnings(tools, canary):
    messages = nu.check(tools.java, tools.vnu_jar, [page.file for page in canary.pages])
    broken = [m for m in messages if m.file == canary.page("broken/").file and m.kind == "error"]
    assert any("alt" in m.text for m in broken), [m.describe() for m in messages]
    assert any("div" in m.text and "span" in m.text for m in broken), [m.describe() for m in messages]
    korean = [m for m in messages if m.file == canary.page("korean/").file]
    assert any(m.is_language_warning and "Korean" in m.text for m in korean), [m.describe() for m in korean]
    assert not [m for m in messages if m.file == canary.page("fine/").file and m.kind == "error"]


def test_axe_finds_violations_and_outside_requests_are_seen(browser, canary):
    outside = browser.open(canary.page("broken/").url, 1440)
    assert any("unreachable.invalid" in problem for problem in outside), outside
    rules = {rule["id"] for rule in browser.axe(WCAG_TAGS)["violations"]}
    assert {"image-alt", "color-contrast", "html-has-lang"} <= rules, rules


def test_axe_sees_the_dark_colour_scheme(browser, canary):
    contrast = {}
    for scheme in ("light", "dark"):
        browser.open(canary.page("dark/").url, 390, scheme)
        contrast[scheme] = [rule["id"] for rule in browser.axe(WCAG_TAGS)["violations"]]
    assert contrast == {"light": [], "dark": ["color-contrast"]}, contrast


def test_the_overflow_check_finds_a_wide_page(browser, canary):
    browser.open(canary.page("broken/").url, 320)
    result = browser.overflow()
    assert result["clientWidth"] == 320 and result["scrollWidth"] > 320, result
    assert any("WWWW" in culprit["text"] for culprit in result["culprits"]), result["culprits"]
    browser.open(canary.page("fine/").url, 320)
    assert browser.overflow()["scrollWidth"] == 320


def test_the_search_driver_tells_found_from_not_found(browser, canary):
    page = canary.page("search/").url
    parasite, stoner = canary.url("parasite/"), canary.url("stoner/")
    assert search.finds(browser, page, "ㄱㅅㅊ", parasite, stoner) is None
    assert search.finds(browser, page, "farm", stoner, parasite) is None
    missed = search.finds(browser, page, "ㅎㅎㅎ", parasite, stoner, timeout=1)
    assert missed is not None and "did not show a link" in missed, missed


def test_the_json_ld_check_names_each_missing_or_wrong_property():
    facts = {
        "kind": "movie", "title": "기생충", "rating": "4.5 out of 5 stars", "date": "2025-03-14",
        "image": "http://127.0.0.1:1/reviews/images/p.svg", "details": {"Director": "Bong Joon-ho"},
        "author": "Seo-yeon Hale",
    }
    good = {
        "@context": "https://schema.org", "@type": "Review",
        "itemReviewed": {"@type": "Movie", "name": "기생충", "director": {"@type": "Person", "name": "Bong Joon-ho"},
                         "dateCreated": "2019-05-30", "image": facts["image"],
                         "sameAs": "https://www.themoviedb.org/movie/496243"},
        "reviewRating": {"@type": "Rating", "ratingValue": 4.5, "bestRating": 5, "worstRating": 0},
        "author": {"@type": "Person", "name": "Seo-yeon Hale"}, "datePublished": "2025-03-14",
        "reviewBody": "The review's text.",
    }
    known = structured.Known(tmdb_id="496243")
    assert structured.problems({**facts, "blocks": [json.dumps(good)]}, known) == []

    bad = json.loads(json.dumps(good))
    bad["reviewRating"]["bestRating"] = 10
    del bad["itemReviewed"]["sameAs"]
    bad["reviewBody"] = "<p>The review's text.</p>"
    found = structured.problems({**facts, "blocks": [json.dumps(bad)]}, known)
    assert len(found) == 3 and "bestRating must be 5" in found[1], found
    assert "sameAs" in found[0] and "HTML" in found[2], found
    assert structured.problems({**facts, "blocks": ["{not json"]}, known)[0].startswith("JSON-LD block 1 is not JSON")
    assert structured.problems({**facts, "blocks": []}, known) == ['no <script type="application/ld+json">']
