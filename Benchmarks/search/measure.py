#!/usr/bin/env python3
"""Measures a built site's search index: its size in all (raw and gzip -6), each kind of file,
and what each of a set of queries downloads, choosing files the way search.js does (the manifest,
the key files that may hold the query's words, the display records of the first 16 results).

    Benchmarks/search/measure.py PUBLIC_DIR [QUERY...]

Without queries it picks them from the index: a title, a director, a rare and a common word of
the text, one letter, a Korean word, Korean initials, two words.
"""

import gzip
import json
import statistics
import sys
import unicodedata
from pathlib import Path

FOLDED = {"ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "đ": "d", "ł": "l", "ı": "i", "þ": "th", "ð": "d", "ħ": "h"}
MAX_FILES = {"names": 6, "text": 3}


def keys(text: str) -> list[str]:
    folded = "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.category(c).startswith("M"))
    words, word = [], ""
    for c in folded:
        if unicodedata.category(c)[0] in "LN":
            word += FOLDED.get(c, c)
        elif word:
            words.append(word)
            word = ""
    if word:
        words.append(word)
    return [w[:24] for w in words]


def utf16(s: str) -> bytes:
    return s.encode("utf-16-be")


def files_for(chunks: list, prefix: str, limit: int):
    found = []
    for i, (start, number) in enumerate(chunks):
        following = chunks[i + 1][0] if i + 1 < len(chunks) else None
        if following is not None and utf16(following) <= utf16(prefix):
            continue
        if utf16(start) > utf16(prefix) and not start.startswith(prefix):
            break
        if number not in found:
            found.append(number)
        if len(found) > limit:
            return None
    return found


def is_initial(c: str) -> bool:
    return "\u1100" <= c <= "\u1112"


def ranks(postings: str, total: int) -> list[int]:
    if postings.startswith("*"):
        import base64

        data = base64.b64decode(postings[1:])
        return [r for r in range(total) if data[r >> 3] & (0x80 >> (r & 7))]
    out, rank = [], 0
    for delta in postings.split(","):
        rank += int(delta, 36)
        out.append(rank)
    return out


def query_cost(search: Path, manifest: dict, query: str) -> tuple[int, int, int, list[str]]:
    """Bytes (raw, gzip) a query downloads, its number of results, and the files."""
    fetched = {"index.json"}
    results = None
    for key in keys(query):
        initials = len(key) > 1 and all(is_initial(c) for c in key)
        prefix = key[0] if initials else key
        hits = set()
        for name in ("names", "text"):
            if name == "text" and initials:
                continue
            numbers = files_for(manifest[name], prefix, MAX_FILES[name])
            if numbers is None:
                continue
            for number in numbers:
                file = f"{name}-{number}.txt"
                fetched.add(file)
                for line in (search / file).read_text(encoding="utf-8").splitlines():
                    candidate, postings = line.split("\t", 1)
                    if initials:
                        starts = [c for c in candidate if is_initial(c)]
                        ok = name == "names" and "".join(starts).startswith(key) and is_initial(candidate[0])
                    else:
                        ok = candidate.startswith(key)
                    if ok:
                        hits.update(ranks(postings, manifest["reviews"]))
        results = hits if results is None else results & hits
    shown = sorted(results or [])[:16]
    for rank in shown:
        fetched.add(f"docs-{rank // manifest['docsPerFile']}.json")
    raw = sum((search / f).stat().st_size for f in fetched)
    packed = sum(len(gzip.compress((search / f).read_bytes(), 6)) for f in fetched)
    return raw, packed, len(results or []), sorted(fetched)


def describe(name: str, files: list[Path]) -> str:
    sizes = [f.stat().st_size for f in files]
    packed = [len(gzip.compress(f.read_bytes(), 6)) for f in files]
    return (f"{name}: {len(files)} files, {sum(sizes) / 1024:.0f} KB ({sum(packed) / 1024:.0f} KB gzip); "
            f"each median {statistics.median(sizes) / 1024:.1f} KB, largest {max(sizes) / 1024:.1f} KB "
            f"({max(packed) / 1024:.1f} KB gzip)")


def main() -> None:
    public = Path(sys.argv[1])
    search = public / "search"
    manifest = json.loads((search / "index.json").read_text(encoding="utf-8"))
    print(f"reviews: {manifest['reviews']}")
    print(describe("manifest", [search / "index.json"]))
    for kind in ("names", "text", "docs"):
        print(describe(kind, sorted(search.glob(f"{kind}-*"))))
    everything = sorted(search.glob("*.*"))
    print(describe("whole index", [f for f in everything if f.name != "index.html"]))
    queries = sys.argv[2:]
    if not queries:
        docs = json.loads((search / "docs-3.json").read_text(encoding="utf-8"))
        english = next(d for d in docs if d[2] == "en")
        korean = next(d for d in docs if d[2] == "ko")
        text = (search / "text-5.txt").read_text(encoding="utf-8").splitlines()
        counted = sorted((len(ranks(line.split("\t")[1], manifest["reviews"])), line.split("\t")[0]) for line in text)
        rare = next(key for count, key in counted if count == 2 and key.isascii())
        common = next(key for count, key in reversed(counted) if key.isascii())
        korean_word = korean[1].split()[0]
        initials = "".join(chr(0x3131 + [0, 1, 3, 6, 7, 8, 16, 17, 18, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29][(ord(c) - 0xAC00) // 588])
                           for c in korean_word if "가" <= c <= "힣")
        queries = [english[1], english[4].split()[0], rare, common, "s", korean_word, initials, f"{english[1].split()[0]} {common}"]
    for query in queries:
        raw, packed, count, fetched = query_cost(search, manifest, query)
        print(f"query {query!r}: {count} results; downloads {raw / 1024:.1f} KB ({packed / 1024:.1f} KB gzip) in {len(fetched)} files")


if __name__ == "__main__":
    main()
