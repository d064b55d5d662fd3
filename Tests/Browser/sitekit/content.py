"""The example site's reviews as the checks need them: address, front matter and Markdown body."""

import re
from dataclasses import dataclass
from pathlib import Path

import yaml


@dataclass(frozen=True)
class ReviewSource:
    """One review file: where it is published (`movies/parasite/`), its front matter and body."""

    file: Path
    path: str
    front_matter: dict
    body: str


def reviews(site_folder: Path) -> list[ReviewSource]:
    """Every published (not draft) review in the site's sections, in file order."""
    found = []
    for file in sorted((site_folder / "content").glob("*/*.md")):
        if file.name == "_index.md":
            continue
        text = file.read_text(encoding="utf-8")
        _, front, body = text.split("---\n", 2)
        fields = yaml.safe_load(front) or {}
        if fields.get("draft") is True:
            continue
        slug = str(fields.get("slug", file.stem))
        found.append(ReviewSource(file, f"{file.parent.name}/{slug}/", fields, body))
    return found


def distinctive_word(sources: list[ReviewSource]) -> tuple[str, ReviewSource]:
    """A long word from one review's body that no other review file contains, nor its own front
    matter (so a search can only find it in the text): the longest, then alphabetically first."""
    texts = [source.file.read_text(encoding="utf-8").lower() for source in sources]
    candidates = []
    for index, source in enumerate(sources):
        front = str(source.front_matter).lower()
        for word in set(re.findall(r"[A-Za-z]{9,}", source.body)):
            lowered = word.lower()
            if lowered in front:
                continue
            if sum(1 for text in texts if lowered in text) == 1:
                candidates.append((-len(word), lowered, index))
    if not candidates:
        raise LookupError("no word belongs to a single review's text")
    _, word, index = min(candidates)
    return word, sources[index]
