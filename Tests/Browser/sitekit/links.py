"""Every internal address a built site references answers 200 from the local server, and every
fragment names an id on its target page."""

import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from urllib.parse import unquote, urljoin, urlsplit, urlunsplit

from .html import parse
from .site import BuiltSite, fetch

_ATOM = "{http://www.w3.org/2005/Atom}"
_SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
_NOT_ADDRESSES = ("mailto:", "tel:", "javascript:", "data:")


@dataclass
class LinkReport:
    """What the check found: problems (each names the page, the element and why), external addresses
    (not fetched), and how many internal references were followed."""

    problems: list[str] = field(default_factory=list)
    external: set[str] = field(default_factory=set)
    checked: int = 0


class _Targets:
    """Each target fetched once: its status, where it redirects, and its ids when it is HTML."""

    def __init__(self):
        self._cache: dict[str, tuple[int, str, set[str] | None]] = {}

    def get(self, url: str) -> tuple[int, str, set[str] | None]:
        if url not in self._cache:
            status, headers, body = fetch(url)
            ids = None
            if status == 200 and headers.get("content-type", "").startswith("text/html"):
                ids = parse(body.decode("utf-8", errors="replace")).ids
            self._cache[url] = (status, headers.get("location", ""), ids)
        return self._cache[url]


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _check(source: str, where: str, base: str, value: str, origin: str, targets: _Targets, report: LinkReport):
    value = value.strip()
    if value.lower().startswith(_NOT_ADDRESSES):
        return
    if value == "":
        report.problems.append(f"{source}: {where}: an empty address")
        return
    absolute = urljoin(base, value)
    parts = urlsplit(absolute)
    if parts.scheme not in ("http", "https"):
        return
    if _origin(absolute) != origin:
        report.external.add(absolute)
        return
    report.checked += 1
    target = urlunsplit((parts.scheme, parts.netloc, parts.path, parts.query, ""))
    status, location, ids = targets.get(target)
    if status != 200:
        moved = f" (redirects to {location})" if location else ""
        report.problems.append(f"{source}: {where}: {target} answers HTTP {status}{moved}")
    elif parts.fragment:
        fragment = unquote(parts.fragment)
        if ids is None:
            report.problems.append(f"{source}: {where}: #{fragment} points into {target}, which is not an HTML page")
        elif fragment not in ids:
            report.problems.append(f"{source}: {where}: {target} has no element with id=\"{fragment}\"")


def check_site(site: BuiltSite) -> LinkReport:
    """Follows every address in every page, the sitemap and the feed (and the HTML inside the feed)."""
    report = LinkReport()
    targets = _Targets()
    origin = _origin(site.base_url)
    for page in site.pages:
        document = parse(page.file.read_text(encoding="utf-8"))
        for reference in document.references:
            _check(page.url, reference.describe(), page.url, reference.value, origin, targets, report)

    sitemap = site.output / "sitemap.xml"
    if sitemap.is_file():
        for loc in ElementTree.parse(sitemap).getroot().iter(f"{_SITEMAP}loc"):
            _check(site.url("sitemap.xml"), f"<loc>{loc.text}</loc>", site.base_url, loc.text or "", origin, targets, report)
    feed = site.output / "feed.xml"
    if feed.is_file():
        source = site.url("feed.xml")
        for element in ElementTree.parse(feed).getroot().iter():
            if element.tag == f"{_ATOM}link":
                href = element.get("href", "")
                _check(source, f'<link href="{href}">', site.base_url, href, origin, targets, report)
            elif element.tag == f"{_ATOM}content" and element.get("type") == "html":
                for reference in parse(element.text or "").references:
                    where = f"entry content: {reference.describe()}"
                    _check(source, where, site.base_url, reference.value, origin, targets, report)
    return report


def unlisted_pages(site: BuiltSite) -> list[str]:
    """Pages the sitemap does not list (the 404 page aside)."""
    sitemap = site.output / "sitemap.xml"
    if not sitemap.is_file():
        return ["there is no sitemap.xml"]
    listed = {loc.text for loc in ElementTree.parse(sitemap).getroot().iter(f"{_SITEMAP}loc")}
    return [page.url for page in site.pages if page.url not in listed and not page.url.endswith("404.html")]
