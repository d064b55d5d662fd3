"""schema.org `Review` JSON-LD on a review page, checked against what the page itself shows."""

import json
import re
from dataclasses import dataclass

# What a review page shows, read from its DOM (see READ_FACTS).
READ_FACTS = """
const one = (selector) => document.querySelector(selector);
const details = {};
document.querySelectorAll(".details .detail").forEach((detail) => {
  const term = detail.querySelector("dt"), value = detail.querySelector("dd");
  if (term && value) details[term.textContent.trim()] = value.textContent.trim();
});
const rating = one(".review-meta .rating");
const date = one(".review-meta time[datetime]");
const image = one(".review-cover img");
return {
  kind: one("article.review-article.kind-movie") ? "movie" : "book",
  title: (one(".review-title") || { textContent: "" }).textContent.trim(),
  rating: rating ? rating.getAttribute("aria-label") : null,
  date: date ? date.getAttribute("datetime") : null,
  image: image ? image.src : null,
  details: details,
  author: (one('meta[name="author"]') || { content: "" }).content,
  blocks: Array.from(document.querySelectorAll('script[type="application/ld+json"]')).map((s) => s.textContent),
};
"""


@dataclass(frozen=True)
class Known:
    """What the metadata cache knows about the film or book (found through the poster's file name)."""

    tmdb_id: str | None = None
    isbn: str | None = None


def _text(value) -> str:
    """A name from a string, a {"name": ...} object or a list of either."""
    if isinstance(value, list):
        return ", ".join(_text(item) for item in value)
    if isinstance(value, dict):
        return str(value.get("name", ""))
    return str(value or "")


def _find_review(value):
    """The first object whose @type is Review, searching lists and @graph."""
    if isinstance(value, list):
        for item in value:
            found = _find_review(item)
            if found is not None:
                return found
    elif isinstance(value, dict):
        types = value.get("@type")
        if types == "Review" or (isinstance(types, list) and "Review" in types):
            return value
        if "@graph" in value:
            return _find_review(value["@graph"])
    return None


def _image_url(value) -> str:
    if isinstance(value, list):
        value = value[0] if value else ""
    if isinstance(value, dict):
        value = value.get("url", value.get("contentUrl", ""))
    return str(value or "")


def problems(facts: dict, known: Known) -> list[str]:
    """Everything wrong with the page's JSON-LD, each naming the property and what was expected."""
    found: list[str] = []
    if not facts["blocks"]:
        return ['no <script type="application/ld+json">']
    review = None
    for number, block in enumerate(facts["blocks"], start=1):
        try:
            data = json.loads(block)
        except json.JSONDecodeError as error:
            found.append(f"JSON-LD block {number} is not JSON: {error}")
            continue
        candidate = _find_review(data)
        if candidate is None or review is not None:
            continue
        review = candidate
        context = review.get("@context", data.get("@context", "") if isinstance(data, dict) else "")
        if not re.match(r"https?://schema\.org/?$", str(context)):
            found.append(f'JSON-LD block {number}: "@context" is {context!r}, not "https://schema.org"')
    if review is None:
        return found + ['no object with "@type": "Review"']

    def need(condition: bool, message: str):
        if not condition:
            found.append(message)

    item = review.get("itemReviewed")
    want = "Movie" if facts["kind"] == "movie" else "Book"
    need(isinstance(item, dict) and item.get("@type") == want, f'itemReviewed must be a {want}, is {item!r}')
    item = item if isinstance(item, dict) else {}
    need(_text(item.get("name")) != "", "itemReviewed.name is missing")
    image = _image_url(item.get("image"))
    if facts["image"]:
        need(image == facts["image"], f"itemReviewed.image is {image!r}, not the page's {want.lower()} image {facts['image']!r}")
    if want == "Movie":
        director = facts["details"].get("Director", "")
        need(_text(item.get("director")) != "", "itemReviewed.director is missing")
        if director:
            need(_text(item.get("director")) == director, f"itemReviewed.director is {_text(item.get('director'))!r}, the page says {director!r}")
        need(re.match(r"^\d{4}(-\d{2}-\d{2})?$", str(item.get("dateCreated", ""))) is not None,
             f"itemReviewed.dateCreated must be a year or a date, is {item.get('dateCreated')!r}")
        if known.tmdb_id:
            same = item.get("sameAs", "")
            same = same if isinstance(same, list) else [same]
            need(any(f"themoviedb.org/movie/{known.tmdb_id}" in str(url) for url in same),
                 f"itemReviewed.sameAs must link TMDB's page (themoviedb.org/movie/{known.tmdb_id}), is {item.get('sameAs')!r}")
    else:
        author = facts["details"].get("Author", "")
        need(_text(item.get("author")) != "", "itemReviewed.author is missing")
        if author:
            need(_text(item.get("author")) == author, f"itemReviewed.author is {_text(item.get('author'))!r}, the page says {author!r}")
        if known.isbn:
            need(str(item.get("isbn", "")) == known.isbn, f"itemReviewed.isbn is {item.get('isbn')!r}, not {known.isbn!r}")

    if facts["rating"]:
        shown = float(facts["rating"].split()[0])
        rating = review.get("reviewRating") if isinstance(review.get("reviewRating"), dict) else {}
        need(rating != {}, "reviewRating is missing, but the page shows a rating")
        if rating:
            try:
                value = float(rating.get("ratingValue"))
            except (TypeError, ValueError):
                value = None
            need(value == shown, f"reviewRating.ratingValue is {rating.get('ratingValue')!r}, the page shows {shown}")
            need(str(rating.get("bestRating")) in ("5", "5.0"), f"reviewRating.bestRating must be 5, is {rating.get('bestRating')!r}")
            need(str(rating.get("worstRating")) in ("0", "0.0"), f"reviewRating.worstRating must be 0, the scale front matter allows, is {rating.get('worstRating')!r}")
    need(_text(review.get("author")) == facts["author"],
         f"author is {_text(review.get('author'))!r}, not the site's author {facts['author']!r}")
    need(str(review.get("datePublished", "")).startswith(facts["date"] or "?"),
         f"datePublished is {review.get('datePublished')!r}, the page says {facts['date']!r}")
    body = review.get("reviewBody")
    need(isinstance(body, str) and body.strip() != "", "reviewBody is missing or empty")
    if isinstance(body, str):
        need(re.search(r"<[a-z][^>]*>", body) is None, "reviewBody holds HTML tags; it should be the review's text")
    return found
