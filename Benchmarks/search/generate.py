#!/usr/bin/env python3
"""Writes a site of N generated reviews whose words are distributed like real text, for measuring
the search index: a vocabulary of 40,000 English-like words and 8,000 Korean ones drawn by
Zipf's law (a few words in every review, most in one or two), titles of one to three words (some
accented: "Élan"), 400 directors and authors, 60 tags, a fifth of the reviews in
Korean with particles attached to their words. Deterministic for a given --seed.

    Benchmarks/search/generate.py --reviews 10000 DIR
    .build/release/sitegen build --source DIR
    Benchmarks/search/measure.py DIR/public
"""

import argparse
import bisect
import itertools
import random
from pathlib import Path

SYLLABLES = [a + b for a in "bcdfghjklmnprstvwz" for b in ["a", "e", "i", "o", "u", "ai", "ou", "ea"]]
HANGUL_PARTICLES = ["은", "는", "이", "가", "을", "를", "의", "에서", "으로", "도", ""]
ACCENTED = ["Élan", "Café", "Noël", "Déjà", "Señora", "Über", "Ångström", "Brontë", "Søren", "Zoë"]


def english_word(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.choice([1, 2, 2, 3, 3, 4]))) + rng.choice(["", "", "s", "ed", "ing", "n"])


def korean_word(rng: random.Random) -> str:
    return "".join(chr(0xAC00 + rng.randrange(11172)) for _ in range(rng.choice([1, 2, 2, 2, 3, 3, 4])))


class Zipf:
    """Draws from `words` with probability proportional to 1 / rank ** s."""

    def __init__(self, words: list[str], s: float = 1.07):
        self.words = words
        self.cumulative = list(itertools.accumulate(1 / (rank ** s) for rank in range(1, len(words) + 1)))

    def draw(self, rng: random.Random) -> str:
        return self.words[bisect.bisect(self.cumulative, rng.random() * self.cumulative[-1])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reviews", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("folder", type=Path)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    english = Zipf(list(dict.fromkeys(english_word(rng) for _ in range(46000)))[:40000])
    korean = Zipf(list(dict.fromkeys(korean_word(rng) for _ in range(9000)))[:8000])
    people = [f"{english_word(rng).capitalize()} {english_word(rng).capitalize()}" for _ in range(300)]
    people += [korean_word(rng)[:3] for _ in range(100)]
    tags = [english_word(rng) for _ in range(48)] + [korean_word(rng) for _ in range(12)]

    root = args.folder
    for section in ("movies", "books"):
        (root / "content" / section).mkdir(parents=True, exist_ok=True)
    (root / "site.yml").write_text(
        "title: Generated Reviews\nbase_url: https://example.org/reviews/\nlanguage: en\nauthor: Bench\npage_size: 20\n",
        encoding="utf-8")
    for number in range(args.reviews):
        section = "movies" if number % 2 == 0 else "books"
        is_korean = number % 5 == 0
        words = korean if is_korean else english
        title_words = [words.draw(rng) for _ in range(rng.randint(1, 3))]
        if not is_korean and rng.random() < 0.03:
            title_words.insert(0, rng.choice(ACCENTED))
        title = " ".join(word.capitalize() for word in title_words)
        sentences = []
        for _ in range(rng.randint(14, 24)):
            sentence = [words.draw(rng) for _ in range(rng.randint(8, 22))]
            if is_korean:
                sentence = [word + rng.choice(HANGUL_PARTICLES) for word in sentence]
            sentences.append(" ".join(sentence).capitalize() + ".")
        paragraphs = ["\n".join(sentences[i:i + 5]) for i in range(0, len(sentences), 5)]
        date = f"{2000 + number * 26 // args.reviews:04d}-{1 + number % 12:02d}-{1 + number % 28:02d}"
        creator = "director" if section == "movies" else "author"
        front = [
            "---",
            f"title: \"{title}\"",
            f"date: {date}",
            f"rating: {rng.randint(1, 10) / 2}",
            f"tags: [{', '.join(rng.sample(tags, 3))}]",
            f"year: {rng.randint(1930, 2025)}",
            f"{creator}: \"{rng.choice(people)}\"",
            "---",
        ]
        text = "\n".join(front) + "\n" + "\n\n".join(paragraphs) + "\n"
        (root / "content" / section / f"review-{number}.md").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
