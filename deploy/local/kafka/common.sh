# shellcheck shell=bash
# Shared by deploy/local/kafka-*.sh; sourced, not run. Bash only.
#
# Sets KAFKA_LOCAL_HOME (the deploy/local/kafka directory) and provides:
#   kafka_default_dir             the work directory when --dir is not given
#   kafka_abs_dir DIR             DIR made absolute (created if missing)
#   kafka_classpath               prints the broker/tools classpath, resolving it with Maven into
#                                 $NEARDUP_LOCAL_DIR/kafka-classpath.txt first if that is missing,
#                                 older than the pom, or names a jar that no longer exists. One
#                                 cache for all work directories: the jars do not depend on them.
#   kafka_pid_alive PIDFILE       true if PIDFILE names a live kafka.Kafka process (prints the pid)
#   kafka_usage SCRIPT            prints the comment block at the top of SCRIPT (its help)
#   die MESSAGE...                prints "PROG: MESSAGE" to stderr and exits 1

KAFKA_LOCAL_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
KAFKA_LOCAL_POM="$KAFKA_LOCAL_HOME/pom.xml"

die() {
    echo "$(basename "$0"): $*" >&2
    exit 1
}

kafka_usage() {
    awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$1"
}

kafka_default_dir() {
    echo "${NEARDUP_LOCAL_DIR:-/tmp/neardup-local}/kafka"
}

kafka_abs_dir() {
    mkdir -p -- "$1" || die "cannot create directory $1"
    (cd -- "$1" && pwd)
}

# True when every entry of the colon-separated classpath in file $1 exists.
_kafka_classpath_complete() {
    local entry content
    local -a entries
    content="$(cat -- "$1")" || return 1
    # (a here-string, because Maven writes the file without a final newline and read would fail)
    IFS=: read -r -a entries <<<"$content"
    [ "${#entries[@]}" -gt 0 ] || return 1
    for entry in "${entries[@]}"; do
        [ -e "$entry" ] || return 1
    done
}

# Prints the classpath of a pom (resolved with Maven once, then cached in
# ${NEARDUP_LOCAL_DIR:-/tmp/neardup-local}/NAME-classpath.txt; resolved again when the pom is
# newer or a jar has gone). Arguments: NAME (kafka, flink), display name, pom, download size.
local_classpath() {
    local name="$1" display="$2" pom="$3" size="$4" cachedir cpfile tmp mvnlog
    cachedir="${NEARDUP_LOCAL_DIR:-/tmp/neardup-local}"
    cpfile="$cachedir/$name-classpath.txt"
    if [ ! -s "$cpfile" ] || [ "$pom" -nt "$cpfile" ] || ! _kafka_classpath_complete "$cpfile"; then
        command -v mvn >/dev/null 2>&1 || die "mvn (Maven 3.8+) is needed to resolve the $display jars"
        mkdir -p -- "$cachedir" || die "cannot create $cachedir"
        tmp="$cpfile.tmp.$$"
        mvnlog="$cpfile.mvn.log"
        echo "$(basename "$0"): resolving the $display classpath with Maven (first run downloads $size)..." >&2
        # Maven's own stdout goes to a log: even with -q -B it prints stray ANSI resets.
        if ! mvn -q -B -f "$pom" dependency:build-classpath -Dmdep.outputFile="$tmp" >"$mvnlog" 2>&1; then
            rm -f -- "$tmp"
            tail -n 30 -- "$mvnlog" >&2
            die "mvn dependency:build-classpath failed (full output: $mvnlog)"
        fi
        [ -s "$tmp" ] || die "mvn wrote no classpath to $tmp (see $mvnlog)"
        mv -f -- "$tmp" "$cpfile"
    fi
    cat -- "$cpfile"
}

kafka_classpath() {
    local_classpath kafka Kafka "$KAFKA_LOCAL_POM" "~45 MB"
}

kafka_pid_alive() {
    local pidfile="$1" pid
    [ -f "$pidfile" ] || return 1
    pid="$(tr -dc '0-9' <"$pidfile")"
    [ -n "$pid" ] || return 1
    kill -0 "$pid" 2>/dev/null || return 1
    # Guard against a recycled pid: the process must be our broker. (A variable, not a pipe into
    # grep -q, which may exit before tr has written everything: SIGPIPE under pipefail.)
    local cmdline
    if [ -r "/proc/$pid/cmdline" ]; then
        cmdline="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" || return 1
        [[ "$cmdline " == *" kafka.Kafka "* ]] || return 1
    fi
    echo "$pid"
}
