#!/usr/bin/env bash
# Times Hugo on a site that sitegen-bench generated, for a fair comparison with sitegen:
#
#   .build/release/sitegen-bench build --reviews 10000 --write-site /tmp/site-10k
#   Benchmarks/hugo/run.sh /tmp/site-10k [WORK_DIR] [--pager all|window] [--related hugo|none] [--metrics]
#                          [--timeout SECONDS]
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
#
# Hugo 0.111.3 can hang for good (on 2026-12-03 every 10,000-review build did while its layout
# sorted titles with `.ByTitle`: goroutines stuck on the lock of its title collator; the layout
# now uses `sort`). As a guard, a run that takes longer than --timeout SECONDS (default 300) is
# stopped, reported and run again, up to three times; the figures printed are those of the run
# that finished.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
pager=all
related=hugo
metrics=0
timeout_seconds=300
positional=()
while [ $# -gt 0 ]; do
    case "$1" in
        --pager) pager="$2"; shift 2 ;;
        --related) related="$2"; shift 2 ;;
        --metrics) metrics=1; shift ;;
        --timeout) timeout_seconds="$2"; shift 2 ;;
        -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
        *) positional+=("$1"); shift ;;
    esac
done
if [ ${#positional[@]} -lt 1 ] || [ ${#positional[@]} -gt 2 ]; then
    echo "usage: $0 SITE [WORK_DIR] [--pager all|window] [--related hugo|none] [--metrics] [--timeout SECONDS]" >&2
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
# A run that hangs past --timeout is stopped and run again (with an empty OUT again when the
# run is the one into an empty folder).
timed_build() {
    local label="$1" log="$work/time-$2.txt"
    local start end attempt status
    for attempt in 1 2 3; do
        [ "$2" = empty ] && rm -rf "$out"
        start=$(date +%s.%N)
        status=0
        timeout --kill-after=10 "$timeout_seconds" \
            /usr/bin/time -v -o "$log" hugo --quiet --source "$hugo_site" --destination "$out" --cleanDestinationDir \
            || status=$?
        end=$(date +%s.%N)
        [ "$status" = 0 ] && break
        if [ "$status" != 124 ] && [ "$status" != 137 ]; then
            echo "$label: hugo failed (exit status $status)" >&2
            exit 1
        fi
        echo "$label: hugo still running after $timeout_seconds s (attempt $attempt), stopped" >&2
    done
    if [ "$status" != 0 ]; then
        echo "$label: hugo hung three times; no figure" >&2
        exit 1
    fi
    awk -v label="$label" -v start="$start" -v end="$end" -F': ' '
        /User time/ { user = $2 }
        /System time/ { sys = $2 }
        /Maximum resident set size/ { rss = $2 }
        END { printf "%-30s wall %.2f s   user+sys %.2f s   peak memory %.0f MB\n", label, end - start, user + sys, rss * 1024 / 1e6 }
    ' "$log"
}

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
