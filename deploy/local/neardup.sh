#!/usr/bin/env bash
# Runs the neardup command line (target/neardup.jar) with a class-data-sharing archive (AppCDS,
# JEP 310/350): the JVM maps the classes it loaded on an earlier run from the archive instead of
# reading, verifying and parsing them from the 165 MB jar again. Measured on the 2-core build
# machine: `run --sample` 6.0-6.6 s -> 4.1-4.8 s wall; the job itself does not change.
#
# Usage: neardup.sh COMMAND [OPTIONS]     (any neardup command: run, bench, evaluate, tune, ...)
#        neardup.sh --script-help          this text
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
#   JAVA_OPTS     extra JVM flags, e.g. -Xmx2g
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
jar="${NEARDUP_JAR:-$here/../../target/neardup.jar}"
archive="${NEARDUP_CDS:-${jar%.jar}.jsa}"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"

if [ "${1:-}" = "--script-help" ]; then
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
    exit 0
fi
if [ ! -f "$jar" ]; then
    echo "neardup.sh: $jar not found: build it with 'mvn -q -B package -DskipTests'," \
        "or point NEARDUP_JAR at it" >&2
    exit 2
fi

# shellcheck disable=SC2086  # JAVA_OPTS holds several flags
if [ -f "$archive" ] && [ "$archive" -nt "$jar" ]; then
    exec "$java" -XX:SharedArchiveFile="$archive" -Xshare:auto ${JAVA_OPTS:-} -jar "$jar" "$@"
fi
rm -f "$archive"
if ! "$java" -Xshare:on -version >/dev/null 2>&1; then
    # This JDK has no base CDS archive to build on (lib/server/classes.jsa): run without one.
    exec "$java" ${JAVA_OPTS:-} -jar "$jar" "$@"
fi
exec "$java" -XX:ArchiveClassesAtExit="$archive" ${JAVA_OPTS:-} -jar "$jar" "$@"
