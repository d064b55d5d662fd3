#!/usr/bin/env bash
# Times Hugo on a site that sitegen-bench generated, for a fair comparison with sitegen:
#
#   .build/release/sitegen-bench build --reviews 10000 --write-site /tmp/site-10k
#   Benchmarks/hugo/run.sh /tmp/site-10k [WORK_DIR] [--pager all|window] [--related hugo|none] [--metrics]
#
# convert.py turns the site into a Hugo site with layouts equivalent to sitegen's default theme
# (see its docstring and the comments at the top of each layout for what differs), outside the
# timing. Then, with the same flags both times:
#
#   hugo --quiet --source HUGO_SITE --destination OUT --cleanDestinationDir
#
#   1. into an empty OUT (removed first): the counterpart of `sitegen build` into an empty folder;
#   2. again with OUT as the first build left it: the counterpart of a rebuild with nothing changed.
#      Hugo renders and writes every file again (sitegen renders everything too, but rewrites
#      only files whose bytes changed).
#
# Flags: --quiet as sitegen prints one line; --cleanDestinationDir removes files the site no
# longer has, as sitegen does (nothing to remove here, but it costs a walk of OUT). Not used:
# --gc (it only cleans Hugo's resource cache, which these layouts never fill), --minify (sitegen
# does not minify), --templateMetrics (only with --metrics, after the timed runs, since it slows
# rendering). Each run is measured by /usr/bin/time -v: wall clock, user and system time, and
# the peak resident memory ("Maximum resident set size"). Hugo 0.111 uses every core (GOMAXPROCS).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
pager=all
related=hugo
metrics=0
positional=()
while [ $# -gt 0 ]; do
    case "$1" in
        --pager) pager="$2"; shift 2 ;;
        --related) related="$2"; shift 2 ;;
        --metrics) metrics=1; shift ;;
        -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
        *) positional+=("$1"); shift ;;
    esac
done
if [ ${#positional[@]} -lt 1 ] || [ ${#positional[@]} -gt 2 ]; then
    echo "usage: $0 SITE [WORK_DIR] [--pager all|window] [--related hugo|none] [--metrics]" >&2
    exit 64
fi
site="${positional[0]}"
work="${positional[1]:-$(mktemp -d /tmp/hugo-bench.XXXXXX)}"
mkdir -p "$work"
hugo_site="$work/hugo-site"
out="$work/public"

command -v hugo >/dev/null || { echo "hugo is not installed (apt-get install hugo)" >&2; exit 1; }
echo "$(hugo version)"
python3 "$here/convert.py" "$site" "$hugo_site" --pager "$pager" --related "$related"

# Runs one timed build; prints "LABEL  wall  user+sys  peak memory".
timed_build() {
    local label="$1" log="$work/time-$2.txt"
    local start end
    start=$(date +%s.%N)
    /usr/bin/time -v -o "$log" hugo --quiet --source "$hugo_site" --destination "$out" --cleanDestinationDir
    end=$(date +%s.%N)
    awk -v label="$label" -v start="$start" -v end="$end" -F': ' '
        /User time/ { user = $2 }
        /System time/ { sys = $2 }
        /Maximum resident set size/ { rss = $2 }
        END { printf "%-30s wall %.2f s   user+sys %.2f s   peak memory %.0f MB\n", label, end - start, user + sys, rss * 1024 / 1e6 }
    ' "$log"
}

rm -rf "$out"
timed_build "full build, empty output" empty
timed_build "rebuild, output present" again

find "$out" -type f -printf '%s %P\n' | awk '
    { files++; bytes += $1; if ($1 > largest) { largest = $1; path = $2 } }
    END { printf "output: %d files, %.1f MB; largest %s (%.1f KB)\n", files, bytes / 1e6, path, largest / 1e3 }'

if [ "$metrics" = 1 ]; then
    echo "template metrics (an extra, untimed build):"
    hugo --quiet --source "$hugo_site" --destination "$work/metrics-out" --templateMetrics --templateMetricsHints | head -25
    rm -rf "$work/metrics-out"
fi
echo "work folder: $work"
