"""Which page of a built site stands for each kind of page (home, section index, review, tag...)."""

from .html import parse
from .site import BuiltSite, Page


def page_kind(site: BuiltSite, page: Page) -> str:
    """The kind of a page, from the shape of its address (and, for a review, what and which language)."""
    relative = page.url[len(site.base_url) :]
    if relative == "":
        return "home"
    if relative == "404.html":
        return "404"
    segments = relative.strip("/").split("/")
    first = segments[0]
    is_section = any(other.url.startswith(site.url(first + "/")) and other != page for other in site.pages)
    if first == "search":
        return "search"
    if first == "stats":
        return "stats" if len(segments) == 1 else "stats of a year"
    if first in ("tags", "genres"):
        return first if len(segments) == 1 else first[:-1]
    if len(segments) == 1:
        return f"section index ({first})" if is_section else "plain page"
    if len(segments) == 3 and segments[1] == "page":
        return f"section index, later page ({first})"
    if len(segments) == 2 and segments[1].startswith("by-"):
        return f"sorted index ({first}/{segments[1]})"
    if len(segments) == 2:
        document = parse(page.file.read_text(encoding="utf-8"))
        what = "film" if "kind-movie" in document.article_classes else "book"
        language = document.article_lang or document.html_lang
        return f"review ({what}, {language})"
    return "other"


def representatives(site: BuiltSite) -> list[tuple[str, Page]]:
    """The first page (in address order) of each kind, with the kind's name."""
    chosen: dict[str, Page] = {}
    for page in site.pages:
        chosen.setdefault(page_kind(site, page), page)
    return sorted(chosen.items(), key=lambda item: item[1].url)
