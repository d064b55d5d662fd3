"""A small site whose every text field holds very long unbroken words, to find horizontal overflow."""

from pathlib import Path

ENGLISH = "Pneumonoultramicroscopicsilicovolcanoconiosis" + "Supercalifragilisticexpialidocious"
GERMAN = "Donaudampfschifffahrtselektrizitätenhauptbetriebswerkbauunterbeamtengesellschaft"
GERMAN_2 = "Rindfleischetikettierungsüberwachungsaufgabenübertragungsgesetzesentwurfsbegründung"
KOREAN = "대한민국영화평론가협회비상대책위원회위원장직무대행인터뷰기록보관소특별전시회"
KOREAN_2 = "국립중앙도서관디지털자료실장기대출연체자특별관리위원회회의록"
CODE = "a_very_long_identifier_without_any_place_to_break_it_in_inline_code_spans"
LINK = "https://example.org/" + "very-long-path-segment-" * 4 + "end"

_SITE = """\
title: {title}
base_url: https://example.org/long/
language: {language}
author: {author}
description: {description}
page_size: 2
"""

# (section, file, front matter lines, body language)
_REVIEWS = [
    ("movies", "english.md", ["title: The {english} Affair", "rating: 3.5", "year: 1999",
                              "director: {english}", "original_title: {english}"], "en"),
    ("movies", "german.md", ["title: {german}", "rating: 4", "year: 2004",
                             "director: {german_2}", "original_title: {german}"], "en"),
    ("movies", "korean.md", ["title: {korean}", "rating: 5", "year: 2019", "language: ko",
                             "director: {korean_2}", "original_title: {korean}"], "ko"),
    ("books", "english.md", ["title: {english}", "rating: 2.5", "year: 1965",
                             "author: {english}", "publisher: {german_2}"], "en"),
    ("books", "german.md", ["title: Über die {german_2}", "rating: 0.5", "year: 1980",
                            "author: {german}", "publisher: {german}"], "en"),
    ("books", "korean.md", ["title: {korean_2}", "year: 2021", "language: ko",
                            "author: {korean}", "publisher: {korean_2}"], "ko"),
]

_BODY = {
    "en": """\
A paragraph with {english} and {german} in it, and {german_2} too, with nothing in between.

> {german}{german_2}

- {english}
- `{code}`

A bare link: <{link}>, and [a link whose text is {german}]({link}).
""",
    "ko": """\
{korean}{korean_2} 그리고 {korean}.

> {korean_2}{korean}

- {korean}
- `{code}`

링크: <{link}>
""",
}


def _fill(text: str) -> str:
    return text.format(
        english=ENGLISH, german=GERMAN, german_2=GERMAN_2, korean=KOREAN, korean_2=KOREAN_2, code=CODE, link=LINK
    )


def write_site(folder: Path, language: str) -> Path:
    """Writes the site into `folder` (site.yml, content/) with the theme's words in `language`."""
    folder.mkdir(parents=True, exist_ok=True)
    title = f"{GERMAN} Reviews" if language == "en" else f"{KOREAN} 리뷰"
    (folder / "site.yml").write_text(
        _SITE.format(title=title, language=language, author=GERMAN_2, description=_fill("{english} {korean}")),
        encoding="utf-8",
    )
    for day, (section, name, fields, body_language) in enumerate(_REVIEWS, start=1):
        tags = ["{english}", "{german}", "{korean}", "{korean_2}", "{german_2}"][day % 3 :]
        lines = [_fill(line) for line in fields] + [
            f"date: 2025-0{day}-1{day}",
            "tags: [" + ", ".join(_fill(tag) for tag in tags) + "]",
            "summary: " + _fill("{german_2}{english} {korean}"),
        ]
        path = folder / "content" / section / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("---\n" + "\n".join(lines) + "\n---\n" + _fill(_BODY[body_language]), encoding="utf-8")
    (folder / "content" / "about.md").write_text(
        "---\ntitle: " + _fill("{german}") + "\nsummary: " + _fill("{korean}") + "\n---\n" + _fill(_BODY["en"]),
        encoding="utf-8",
    )
    return folder
