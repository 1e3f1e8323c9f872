#!/usr/bin/env bash
# Runs the neardup command line (target/neardup.jar) with the JVM set up for it:
#
# - a class-data-sharing archive (AppCDS, JEP 310/350): the JVM maps the classes it loaded on an
#   earlier run from the archive instead of reading, verifying and parsing them from the 165 MB jar
#   again (`run --sample`: 6.0-6.6 s -> 4.1-4.8 s wall on the 2-core build machine);
# - for a run that ends (a file, --sample, a --bounded Kafka read, evaluate, dedupe, compare, ...)
#   the "short" JVM profile: -XX:TieredStopAtLevel=1 -XX:+UseSerialGC. On a run of seconds to
#   minutes the C2 compiler costs more than it gains (on the 12,061-page Debian crawl it takes 10-12
#   s of CPU of a 23-26 s CPU run: every phase of the job brings new hot code), and G1's
#   concurrent threads compete with the job for 2 cores. The C1 code is slower at its peak (the
#   one-thread `bench` signature figure falls by 40%), so `bench`, an unbounded Kafka run (one
#   that runs for days) and a run whose --input files hold more than 384 MB (a gzipped file counts
#   three times its size, for the text in it) get the "peak" profile: the JVM's defaults. On the
#   2-core build machine C2 paid off from about 100,000 generated pages of 3 KB (run) to 150,000
#   (dedupe).
#
# Usage: neardup.sh COMMAND [OPTIONS]     (any neardup command: run, bench, evaluate, tune, ...)
#        neardup.sh --script-help          this text
#        neardup.sh --script-command COMMAND [OPTIONS]   print the java command line, run nothing
#
# The first run (or the first after the jar was rebuilt) records the classes it loads and writes
# the archive when it exits (about 70 MB, a second or two more at exit); later runs use it. A
# stale or unusable archive is never an error: the JVM then loads classes the usual way (and a JDK
# without its base archive, lib/server/classes.jsa, simply runs without one).
#
# Environment:
#   NEARDUP_JAR   the jar (default: target/neardup.jar of this checkout)
#   NEARDUP_CDS   the archive (default: the jar's path with .jsa instead of .jar)
#   JAVA_HOME     the JDK (17+) to use; default: java on PATH
#   NEARDUP_JVM_PROFILE  short | peak | none: the JVM flags above (default: chosen by command;
#                 none: neither profile nor archive, the plain `java -jar`)
#   JAVA_OPTS     extra JVM flags, e.g. -Xmx2g (after the profile's, so they win)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
jar="${NEARDUP_JAR:-$here/../../target/neardup.jar}"
archive="${NEARDUP_CDS:-${jar%.jar}.jsa}"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"

if [ "${1:-}" = "--script-help" ]; then
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
    exit 0
fi
dry_run=false
if [ "${1:-}" = "--script-command" ]; then
    dry_run=true
    shift
fi

# Input larger than this gets the peak profile (bytes; gzip counted three times).
large_input=$((384 * 1024 * 1024))

# The bytes of the --input/-i files of a command line: files, directories (the files under them)
# and quoted globs; a .gz file counts three times its size. Standard input and what does not exist
# count 0. Apparent sizes (GNU du), else the blocks used.
input_bytes() {
    local total=0 taking=false arg path bytes gz
    shopt -s nullglob
    shopt -s globstar 2>/dev/null || true # bash 4+: ** spans directories
    for arg in "$@"; do
        case "$arg" in
            --input=*) taking=false; arg="${arg#--input=}" ;;
            --input | -i) taking=true; continue ;;
            -*) taking=false; continue ;;
            *) $taking || continue ;;
        esac
        while IFS= read -r path; do
            bytes=$(size_of "$path")
            gz=$(find "$path" -type f -name '*.gz' -exec du --apparent-size -cb {} + 2>/dev/null \
                | tail -n 1 | cut -f 1)
            total=$((total + bytes + 2 * ${gz:-0}))
        done < <(compgen -G "$arg" || true)
    done
    echo "$total"
}

size_of() { # bytes of a file or a directory tree
    local bytes
    bytes=$(du --apparent-size -sb "$1" 2>/dev/null | cut -f 1)
    [ -n "$bytes" ] || bytes=$(($(du -sk "$1" 2>/dev/null | cut -f 1) * 1024))
    echo "${bytes:-0}"
}

# The JVM profile: "peak" for bench, for a Kafka run without --bounded and for large input, else
# "short".
profile="${NEARDUP_JVM_PROFILE:-}"
if [ -z "$profile" ]; then
    profile=short
    kafka=false
    bounded=false
    for arg in "$@"; do
        case "$arg" in
            --bootstrap-servers | --bootstrap-servers=*) kafka=true ;;
            --bounded) bounded=true ;;
        esac
    done
    if [ "${1:-}" = bench ] || { $kafka && ! $bounded; } \
        || [ "$(input_bytes "$@")" -gt "$large_input" ]; then
        profile=peak
    fi
fi
case "$profile" in
    short) flags=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC) ;;
    peak | none) flags=() ;;
    *)
        echo "neardup.sh: NEARDUP_JVM_PROFILE=$profile: expected short, peak or none" >&2
        exit 2
        ;;
esac
# shellcheck disable=SC2206  # JAVA_OPTS holds several flags
flags+=(${JAVA_OPTS:-})

launch() {
    if $dry_run; then
        echo "$@"
        exit 0
    fi
    exec "$@"
}
if [ ! -f "$jar" ]; then
    echo "neardup.sh: $jar not found: build it with 'mvn -q -B package -DskipTests'," \
        "or point NEARDUP_JAR at it" >&2
    exit 2
fi

if [ "$profile" = none ]; then
    launch "$java" "${flags[@]}" -jar "$jar" "$@"
fi
if [ -f "$archive" ] && [ "$archive" -nt "$jar" ]; then
    launch "$java" -XX:SharedArchiveFile="$archive" -Xshare:auto "${flags[@]}" -jar "$jar" "$@"
fi
$dry_run || rm -f "$archive"
if ! "$java" -Xshare:on -version >/dev/null 2>&1; then
    # This JDK has no base CDS archive to build on (lib/server/classes.jsa): run without one.
    launch "$java" "${flags[@]}" -jar "$jar" "$@"
fi
launch "$java" -XX:ArchiveClassesAtExit="$archive" "${flags[@]}" -jar "$jar" "$@"
