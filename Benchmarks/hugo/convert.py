#!/usr/bin/env python3
"""Converts a sitegen site (as `sitegen-bench build --write-site` writes it) into a Hugo site
with layouts equivalent to sitegen's default theme, for Benchmarks/hugo/run.sh.

    convert.py SITE HUGO_SITE [--pager all|window] [--related hugo|none]

What it does, and what differs from sitegen (see also the comments in layouts/):
- config.toml from site.yml: same title, base URL, author, description and page size
  (`paginate`); taxonomies `tags` and `genres`; outputs trimmed to what sitegen writes
  (HTML everywhere, one RSS feed for the home page; sitegen writes Atom, Hugo RSS 2.0);
  related content by shared tags.
- Reviews are copied as they are (Hugo reads the same YAML front matter). The metadata
  cache entry each review names (metadata/movies/tmdb-N.json, metadata/books/isbn-N.json)
  is merged into its front matter, as sitegen's enrich step does: overview, genres, cast,
  runtime, pages, publisher, release date, year when absent. Hugo has no cache: the merge
  happens here, outside the timed build, while sitegen reads and decodes the JSON files
  during its build.
- Each section gets by-title, by-rating and by-year pages (content pages kept out of
  lists with `_build: list: never`), as sitegen's sorted indexes.
- The theme's stylesheet and favicon (Templates/assets/) go to static/assets/, and the
  site's static/ folder is copied; posters are not used (the generated site has none).
- --pager all (the default) lists every page number on each section page, as sitegen's
  default theme once did (quadratic in the number of pages); --pager window lists the
  current page and five on each side, closer to today's theme (first, last, previous, next
  and a window around the current page).
- --related hugo (the default) lists four related reviews with Hugo's `.Related` on the tags
  index, as a Hugo theme would; it considers every review sharing a tag, which at 10,000
  reviews and 12 tags is most of the site for each page (sitegen looks at each tag's 100
  newest reviews only). --related none leaves related reviews out: a lower bound for Hugo.
"""
import json
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def read_site_yml(path):
    """The `key: value` lines of site.yml (sitegen-bench writes no nesting)."""
    config = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            line = line.split(" #", 1)[0].rstrip()
            if ":" in line and not line.startswith((" ", "#")):
                key, value = line.split(":", 1)
                config[key.strip()] = value.strip().strip('"')
    return config


def split_front_matter(text):
    """(front matter lines, body) of a file starting with a `---` block."""
    match = re.match(r"---\n(.*?)\n---\n?(.*)", text, re.S)
    if not match:
        return [], text
    return match.group(1).split("\n"), match.group(2)


def field(lines, key):
    for line in lines:
        if line.startswith(key + ":"):
            return line.split(":", 1)[1].strip().strip('"')
    return None


def yaml(value):
    """A YAML value: JSON is valid YAML, and keeps every string quoted."""
    return json.dumps(value, ensure_ascii=False)


def merged(lines, site, section):
    """The review's front matter with its cached metadata merged in (front matter wins)."""
    if section == "movies":
        key = field(lines, "tmdb") and f"metadata/movies/tmdb-{field(lines, 'tmdb')}.json"
    else:
        key = field(lines, "isbn") and f"metadata/books/isbn-{field(lines, 'isbn')}.json"
    path = key and os.path.join(site, key)
    if not path or not os.path.exists(path):
        return lines
    with open(path, encoding="utf-8") as handle:
        meta = json.load(handle)
    extra = []
    if field(lines, "year") is None and meta.get("year"):
        extra.append(f"year: {meta['year']}")
    if field(lines, "author") is None and meta.get("authors"):
        extra.append(f"author: {yaml(', '.join(meta['authors']))}")
    if field(lines, "director") is None and meta.get("directors"):
        extra.append(f"director: {yaml(', '.join(meta['directors']))}")
    for name in ["overview", "runtime", "pages", "publisher", "release_date", "original_title"]:
        if meta.get(name) is not None and field(lines, name) is None:
            extra.append(f"{name}: {yaml(meta[name])}")
    if meta.get("genres"):
        extra.append(f"genres: {yaml(meta['genres'])}")
    if meta.get("cast"):
        extra.append(f"cast: {yaml(meta['cast'])}")
    return lines + extra


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def convert(site, out, pager, related):
    config = read_site_yml(os.path.join(site, "site.yml"))
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    write(os.path.join(out, "config.toml"), f"""baseURL = {yaml(config['base_url'])}
languageCode = {yaml(config.get('language', 'en'))}
title = {yaml(config['title'])}
paginate = {int(config.get('page_size', '10'))}
rssLimit = 20
enableRobotsTXT = false
disableHugoGeneratorInject = true

[params]
  author = {yaml(config.get('author', ''))}
  description = {yaml(config.get('description', ''))}

[taxonomies]
  tag = "tags"
  genre = "genres"

[outputs]
  home = ["HTML", "RSS"]
  section = ["HTML"]
  taxonomy = ["HTML"]
  term = ["HTML"]
  page = ["HTML"]

[related]
  includeNewer = true
  threshold = 0
  toLower = false
  [[related.indices]]
    name = "tags"
    weight = 100

[markup.goldmark.renderer]
  unsafe = {'true' if config.get('raw_html') == 'true' else 'false'}
""")
    shutil.copytree(os.path.join(HERE, "layouts"), os.path.join(out, "layouts"))
    pagination = os.path.join(out, "layouts", "partials")
    os.replace(os.path.join(pagination, f"pagination-{pager}.html"), os.path.join(pagination, "pagination.html"))
    for other in ["all", "window"]:
        leftover = os.path.join(pagination, f"pagination-{other}.html")
        if os.path.exists(leftover):
            os.remove(leftover)
    if related == "none":
        single = os.path.join(out, "layouts", "_default", "single.html")
        text = open(single, encoding="utf-8").read()
        text = text.replace("{{ with first 4 (site.RegularPages.Related .) }}", "{{ with slice }}")
        write(single, text)
    static = os.path.join(out, "static")
    if os.path.isdir(os.path.join(site, "static")):
        shutil.copytree(os.path.join(site, "static"), static)
    os.makedirs(os.path.join(static, "assets"), exist_ok=True)
    for name in os.listdir(os.path.join(REPO, "Templates", "assets")):
        shutil.copy(os.path.join(REPO, "Templates", "assets", name), os.path.join(static, "assets", name))

    content = os.path.join(site, "content")
    reviews = 0
    for entry in sorted(os.listdir(content)):
        source = os.path.join(content, entry)
        if os.path.isfile(source) and entry.endswith(".md"):
            lines, body = split_front_matter(open(source, encoding="utf-8").read())
            write(os.path.join(out, "content", entry), "---\n" + "\n".join(lines + ["layout: page"]) + "\n---\n" + body)
            continue
        if not os.path.isdir(source):
            continue
        title = entry.capitalize()
        for name in sorted(os.listdir(source)):
            if not name.endswith(".md"):
                continue
            lines, body = split_front_matter(open(os.path.join(source, name), encoding="utf-8").read())
            if name == "_index.md":
                title = field(lines, "title") or title
            else:
                lines = merged(lines, site, entry)
                reviews += 1
            write(os.path.join(out, "content", entry, name), "---\n" + "\n".join(lines) + "\n---\n" + body)
        for order, label in [("title", "title"), ("rating", "rating"), ("year", "year")]:
            write(os.path.join(out, "content", entry, f"by-{order}.md"), f"""---
title: {yaml(f"{title}, by {label}")}
layout: sorted
order: {order}
_build:
  list: never
---
""")
    print(f"converted {reviews} reviews into the Hugo site {out} (pager: {pager}, related: {related})")


if __name__ == "__main__":
    arguments = sys.argv[1:]
    options = {"--pager": "all", "--related": "hugo"}
    for name in options:
        if name in arguments:
            at = arguments.index(name)
            options[name] = arguments[at + 1]
            del arguments[at:at + 2]
    if len(arguments) != 2 or options["--pager"] not in ("all", "window") or options["--related"] not in ("hugo", "none"):
        sys.exit("usage: convert.py SITE HUGO_SITE [--pager all|window] [--related hugo|none]")
    convert(arguments[0], arguments[1], options["--pager"], options["--related"])
