// sitegen's search: reads the index the build wrote under search/ (see SearchIndex.swift) and
// shows the reviews that match, without a server. Keys are made the same way as in the build:
// lowercase, NFKD (Hangul becomes jamo), no accents, at most 24 scalars. Each word of a query must
// match the start of some word of a review (its names or its text); initial consonants (ㄱㅅㅊ)
// match the names. Only the files a query needs are fetched, each once.
(() => {
  "use strict";
  const form = document.querySelector(".search-form");
  if (!form) return;
  const field = form.querySelector('input[name="q"]');
  const status = document.getElementById("search-status");
  const list = document.getElementById("search-results");
  const more = document.querySelector(".search-more");
  const words = form.dataset;
  const manifestURL = new URL(words.manifest, location.href);
  const MAX_LENGTH = 24;
  const PAGE = 16;
  // A query word reads at most this many key files per family; past it that family is left out.
  const MAX_FILES = { names: 6, text: 3 };
  const FOLDED = { "ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "đ": "d", "ł": "l", "ı": "i", "þ": "th", "ð": "d", "ħ": "h" };
  // A syllable's final consonant read as the next syllable's initial (깃 while typing 기생).
  const FINAL_TO_INITIAL = {
    "\u11a8": "\u1100", "\u11a9": "\u1101", "\u11aa": "\u11a8\u1109", "\u11ab": "\u1102", "\u11ac": "\u11ab\u110c",
    "\u11ad": "\u11ab\u1112", "\u11ae": "\u1103", "\u11af": "\u1105", "\u11b0": "\u11af\u1100", "\u11b1": "\u11af\u1106",
    "\u11b2": "\u11af\u1107", "\u11b3": "\u11af\u1109", "\u11b4": "\u11af\u1110", "\u11b5": "\u11af\u1111",
    "\u11b6": "\u11af\u1112", "\u11b7": "\u1106", "\u11b8": "\u1107", "\u11b9": "\u11b8\u1109", "\u11ba": "\u1109",
    "\u11bb": "\u110a", "\u11bc": "\u110b", "\u11bd": "\u110c", "\u11be": "\u110e", "\u11bf": "\u110f",
    "\u11c0": "\u1110", "\u11c1": "\u1111", "\u11c2": "\u1112",
  };
  const isInitial = (c) => c >= "\u1100" && c <= "\u1112";
  const isVowel = (c) => c >= "\u1161" && c <= "\u1175";
  const isFinal = (c) => c >= "\u11a8" && c <= "\u11c2";

  /** The keys of a query, as the build makes them (single letters kept: they are typed first). */
  function keys(text) {
    const out = [];
    // Letters outside the Basic Multilingual Plane are not indexed (so string order is the build's).
    const folded = text.replace(/[\u{10000}-\u{10FFFF}]/gu, " ").toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "");
    for (const match of folded.matchAll(/[\p{L}\p{N}ø]+/gu)) {
      const word = Array.from(match[0], (c) => FOLDED[c] || c).join("");
      out.push(Array.from(word).slice(0, MAX_LENGTH).join(""));
    }
    return out;
  }

  /** Jamo split into units: a syllable (initial, vowel, final), a lone initial, or any other letter. */
  function units(key) {
    const chars = Array.from(key);
    const out = [];
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i];
      if (isInitial(c) && isVowel(chars[i + 1] || "")) {
        let unit = c + chars[++i];
        if (isFinal(chars[i + 1] || "") && !isVowel(chars[i + 2] || "")) unit += chars[++i];
        out.push({ text: unit, initial: c, lone: false });
      } else {
        out.push({ text: c, initial: isInitial(c) ? c : null, lone: isInitial(c) });
      }
    }
    return out;
  }

  /** How one query word matches keys: prefixes, and for initial consonants (names only) a pattern. */
  function matcher(key) {
    const prefixes = [key];
    const chars = Array.from(key);
    const last = chars[chars.length - 1];
    if (FINAL_TO_INITIAL[last]) prefixes.push(chars.slice(0, -1).join("") + FINAL_TO_INITIAL[last]);
    const pattern = units(key);
    const firstLone = pattern.findIndex((unit) => unit.lone);
    const initials = firstLone >= 0 && firstLone < pattern.length - 1;
    // Every key the word can match starts with `range`.
    let range = prefixes.length > 1 ? chars.slice(0, -1).join("") : key;
    if (initials) range = pattern.slice(0, firstLone + 1).map((unit) => unit.lone ? unit.initial : unit.text).join("");
    return {
      range,
      initials,
      test(candidate, names) {
        if (prefixes.some((prefix) => candidate.startsWith(prefix))) return true;
        if (!initials || !names) return false;
        const target = units(candidate);
        if (target.length < pattern.length) return false;
        return pattern.every((unit, i) => {
          if (unit.lone) return target[i].initial === unit.initial;
          if (i === pattern.length - 1) return target[i].text.startsWith(unit.text);
          return target[i].text === unit.text;
        });
      },
    };
  }

  const cache = new Map();
  function load(url, parse) {
    if (!cache.has(url)) {
      cache.set(url, fetch(url).then((response) => {
        if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
        return response.text();
      }).then(parse).catch((error) => { cache.delete(url); throw error; }));
    }
    return cache.get(url);
  }
  const file = (name) => new URL(name, manifestURL).href;
  const manifest = () => load(manifestURL.href, JSON.parse);

  /** The files of a family (each [first key, number], in key order) that may hold keys starting
   * with `range`; null when there are more than `limit`. */
  function filesFor(chunks, range, limit) {
    const found = new Set();
    for (let i = 0; i < chunks.length; i++) {
      const start = chunks[i][0];
      const next = i + 1 < chunks.length ? chunks[i + 1][0] : null;
      if (next !== null && next <= range) continue;
      if (start > range && !start.startsWith(range)) break;
      found.add(chunks[i][1]);
      if (found.size > limit) return null;
    }
    return [...found];
  }

  /** A file of keys: key → postings, decoded when first asked. */
  function parseKeys(text) {
    const entries = [];
    for (const line of text.split("\n")) {
      const tab = line.indexOf("\t");
      if (tab > 0) entries.push([line.slice(0, tab), line.slice(tab + 1)]);
    }
    return entries;
  }

  function ranks(postings, total) {
    const out = [];
    if (postings.startsWith("*")) {
      const bytes = atob(postings.slice(1));
      for (let rank = 0; rank < total; rank++) {
        if (bytes.charCodeAt(rank >> 3) & (0x80 >> (rank & 7))) out.push(rank);
      }
    } else {
      let rank = 0;
      for (const delta of postings.split(",")) {
        rank += parseInt(delta, 36);
        out.push(rank);
      }
    }
    return out;
  }

  /** The reviews matching every word of `query`: [{rank, names}], best first; and whether text was left out. */
  async function search(query) {
    const index = await manifest();
    let results = null;
    let partial = false;
    for (const key of keys(query)) {
      const match = matcher(key);
      const hits = new Map();
      for (const name of ["names", "text"]) {
        if (name === "text" && match.initials) continue;
        const family = index[name];
        const numbers = filesFor(family, match.range, MAX_FILES[name]);
        if (numbers === null) {
          partial = true;
          continue;
        }
        const files = await Promise.all(numbers.map((n) => load(file(`${name}-${n}.txt`), parseKeys)));
        for (const entries of files) {
          for (const [candidate, postings] of entries) {
            if (!match.test(candidate, name === "names")) continue;
            for (const rank of ranks(postings, index.reviews)) {
              hits.set(rank, (hits.get(rank) || 0) + (name === "names" ? 1 : 0));
            }
          }
        }
      }
      if (results === null) {
        results = hits;
      } else {
        for (const [rank, names] of results) {
          if (hits.has(rank)) results.set(rank, names + hits.get(rank));
          else results.delete(rank);
        }
      }
    }
    const ordered = [...(results || new Map())].map(([rank, names]) => ({ rank, names }));
    ordered.sort((a, b) => b.names - a.names || a.rank - b.rank);
    return { ordered, partial };
  }

  async function record(rank, index) {
    const docs = await load(file(`docs-${Math.floor(rank / index.docsPerFile)}.json`), JSON.parse);
    return docs[rank % index.docsPerFile];
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** A result, drawn like the theme's cards. */
  function card(doc) {
    const [url, title, titleLanguage, year, creator, creatorLanguage, stars, ratingLabel, image, width, height, kind, section] = doc;
    const item = document.createElement("li");
    const article = element("article", `card kind-${kind}`);
    const heading = element("h2", "card-title");
    heading.lang = titleLanguage;
    const link = element("a", "", title);
    link.href = url;
    heading.append(link);
    const byline = element("p", "card-byline");
    if (year) byline.append(element("span", "", year));
    if (creator) {
      const name = element("span", "", creator);
      name.lang = creatorLanguage;
      byline.append(name);
    }
    const rating = element("p", "card-rating");
    if (stars) {
      const value = element("span", "rating", stars);
      value.setAttribute("role", "img");
      value.setAttribute("aria-label", ratingLabel);
      rating.append(value);
    } else {
      rating.append(element("span", "rating-none", words.notRated));
    }
    const cover = element("div", "card-cover");
    if (image) {
      const img = element("img");
      img.src = image;
      img.alt = "";
      img.width = width;
      img.height = height;
      img.loading = "lazy";
      cover.append(img);
    } else {
      const placeholder = element("div", "placeholder");
      placeholder.setAttribute("aria-hidden", "true");
      const shownTitle = element("span", "placeholder-title", title);
      shownTitle.lang = titleLanguage;
      placeholder.append(shownTitle);
      if (creator) {
        const shownCreator = element("span", "placeholder-creator", creator);
        shownCreator.lang = creatorLanguage;
        placeholder.append(shownCreator);
      }
      cover.append(placeholder);
    }
    article.append(heading, byline, element("p", "card-section", section), rating, cover);
    item.append(article);
    return item;
  }

  let generation = 0;
  let current = { ordered: [], shown: 0 };

  async function show(from) {
    const index = await manifest();
    const mine = generation;
    const slice = current.ordered.slice(from, from + PAGE);
    const docs = await Promise.all(slice.map((hit) => record(hit.rank, index)));
    if (mine !== generation) return;
    list.append(...docs.map(card));
    current.shown = from + slice.length;
    more.hidden = current.shown >= current.ordered.length;
  }

  async function run(query) {
    const mine = ++generation;
    const trimmed = query.trim();
    if (!trimmed) {
      list.replaceChildren();
      status.textContent = "";
      more.hidden = true;
      return;
    }
    try {
      const { ordered, partial } = await search(trimmed);
      if (mine !== generation) return;
      current = { ordered, shown: 0 };
      list.replaceChildren();
      const count = ordered.length.toLocaleString(document.documentElement.lang);
      // A function gives the text as it is: a string would read "$&" or "$'" in the query as patterns.
      let message = ordered.length === 0 ? words.none.replace("{q}", () => trimmed)
        : ordered.length === 1 ? words.foundOne : words.found.replace("{n}", () => count);
      if (partial) message += " " + words.short;
      status.textContent = message;
      await show(0);
    } catch (error) {
      if (mine === generation) status.textContent = String(error.message || error);
    }
  }

  let timer = 0;
  field.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const url = new URL(location.href);
      if (field.value) url.searchParams.set("q", field.value);
      else url.searchParams.delete("q");
      history.replaceState(null, "", url);
      run(field.value);
    }, 120);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    clearTimeout(timer);
    run(field.value);
  });
  let showingMore = false;
  more.addEventListener("click", async () => {
    // A second click while the next results load would add them twice.
    if (showingMore) return;
    showingMore = true;
    const mine = generation;
    const first = current.shown;
    try {
      await show(first);
    } finally {
      showingMore = false;
    }
    // The button is gone once every result shows: keyboard focus moves on to the first new
    // result, where reading goes on, instead of falling back to the top of the page (unless
    // a new search replaced the results meanwhile).
    if (mine !== generation) return;
    const link = list.children[first]?.querySelector("a[href]");
    if (link) link.focus();
  });
  const initial = new URLSearchParams(location.search).get("q");
  if (initial) {
    field.value = initial;
    run(initial);
  }
})();
