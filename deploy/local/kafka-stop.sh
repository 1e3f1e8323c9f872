#!/usr/bin/env bash
# Stops the broker started by kafka-start.sh: SIGTERM (a clean shutdown), up to --timeout seconds
# (default 30), then SIGKILL; removes the pid file.
#
# Usage: kafka-stop.sh [--dir DIR] [--timeout SECONDS] [--purge]
#
#   --dir DIR    the work directory given to kafka-start.sh
#                (default ${NEARDUP_LOCAL_DIR:-/tmp/neardup-local}/kafka)
#   --purge      also delete the data (topics, offsets, cluster id), logs and generated config;
#                the next start formats a fresh broker. The classpath cache is kept.
#
# Stopping a broker that is not running is not an error (nothing to do; --purge still purges).
set -euo pipefail

# shellcheck source=kafka/common.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/kafka/common.sh"

usage() { kafka_usage "${BASH_SOURCE[0]}"; }

dir="$(kafka_default_dir)"
timeout=30
purge=false
while [ $# -gt 0 ]; do
    case "$1" in
        --dir) [ $# -ge 2 ] || die "--dir needs a value"; dir="$2"; shift 2 ;;
        --dir=*) dir="${1#*=}"; shift ;;
        --timeout) [ $# -ge 2 ] || die "--timeout needs a value"; timeout="$2"; shift 2 ;;
        --timeout=*) timeout="${1#*=}"; shift ;;
        --purge) purge=true; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument: $1" ;;
    esac
done
[[ "$timeout" =~ ^[0-9]+$ ]] || die "--timeout must be a number of seconds"

say() { echo "$(basename "$0"): $*" >&2; }

[ -d "$dir" ] || { say "nothing to stop: $dir does not exist"; exit 0; }
dir="$(cd -- "$dir" && pwd)"
pid_file="$dir/kafka.pid"

if pid="$(kafka_pid_alive "$pid_file")"; then
    say "stopping the broker (pid $pid) with SIGTERM"
    kill -TERM "$pid" 2>/dev/null || true
    waited=0
    while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt $((timeout * 5)) ]; do
        sleep 0.2
        waited=$((waited + 1))
    done
    if kill -0 "$pid" 2>/dev/null; then
        say "still running after ${timeout}s; sending SIGKILL"
        kill -KILL "$pid" 2>/dev/null || true
        while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
    else
        say "stopped after $((waited / 5)).$((waited % 5 * 2)) s"
    fi
    rm -f -- "$pid_file"
elif [ -f "$pid_file" ]; then
    say "removing stale pid file (pid $(cat -- "$pid_file") is not a running broker)"
    rm -f -- "$pid_file"
else
    say "no broker running from $dir"
fi

if [ "$purge" = true ]; then
    say "purging $dir/data, $dir/logs and the generated config"
    rm -rf -- "$dir/data" "$dir/logs"
    rm -f -- "$dir/server.properties" "$dir/bootstrap.servers"
fi
