"""What the link and structured-data checks need from an HTML page, read with the standard library's parser."""

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass(frozen=True)
class Reference:
    """One address a page points at: which element and attribute, its value and the line it is on."""

    tag: str
    attribute: str
    value: str
    line: int
    rel: str = ""

    def describe(self) -> str:
        rel = f' rel="{self.rel}"' if self.rel else ""
        return f'<{self.tag}{rel} {self.attribute}="{self.value}"> (line {self.line})'


@dataclass
class Document:
    """The parts of a page the checks read."""

    ids: set[str] = field(default_factory=set)
    references: list[Reference] = field(default_factory=list)
    html_lang: str = ""
    json_ld: list[tuple[int, str]] = field(default_factory=list)
    article_classes: str = ""
    article_lang: str = ""


# Attributes that hold one address, by element.
_URL_ATTRIBUTES = {
    "a": ("href",),
    "area": ("href",),
    "link": ("href",),
    "img": ("src",),
    "source": ("src",),
    "script": ("src",),
    "iframe": ("src",),
    "video": ("src", "poster"),
    "audio": ("src",),
    "form": ("action",),
}


def srcset_urls(value: str) -> list[str]:
    """The addresses in a srcset: comma-separated candidates, each an address and a width or density."""
    urls = []
    for candidate in value.split(","):
        candidate = candidate.strip()
        if candidate:
            urls.append(candidate.split()[0])
    return urls


class _Parser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.document = Document()
        self._json_ld_line: int | None = None
        self._json_ld_text: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = {name: (value or "") for name, value in attrs}
        line = self.getpos()[0]
        document = self.document
        if "id" in attributes:
            document.ids.add(attributes["id"])
        if tag == "a" and "name" in attributes:
            document.ids.add(attributes["name"])
        if tag == "html":
            document.html_lang = attributes.get("lang", "")
        if tag == "article" and not document.article_classes:
            document.article_classes = attributes.get("class", "")
            document.article_lang = attributes.get("lang", "")
        rel = attributes.get("rel", "")
        for name in _URL_ATTRIBUTES.get(tag, ()):
            if name in attributes:
                document.references.append(Reference(tag, name, attributes[name], line, rel))
        if "srcset" in attributes and tag in ("img", "source"):
            for url in srcset_urls(attributes["srcset"]):
                document.references.append(Reference(tag, "srcset", url, line))
        if tag == "meta" and attributes.get("property", "") in ("og:url", "og:image"):
            document.references.append(Reference(tag, f'property="{attributes["property"]}" content', attributes.get("content", ""), line))
        if tag == "script" and attributes.get("type", "").lower() == "application/ld+json":
            self._json_ld_line = line
            self._json_ld_text = []

    def handle_data(self, data):
        if self._json_ld_line is not None:
            self._json_ld_text.append(data)

    def handle_endtag(self, tag):
        if tag == "script" and self._json_ld_line is not None:
            self.document.json_ld.append((self._json_ld_line, "".join(self._json_ld_text)))
            self._json_ld_line = None


def parse(text: str) -> Document:
    """Reads a page's ids, the addresses it references, its languages and its JSON-LD blocks."""
    parser = _Parser()
    parser.feed(text)
    parser.close()
    return parser.document
