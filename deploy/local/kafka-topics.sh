#!/usr/bin/env bash
# Creates neardup's Kafka topics (if they do not exist yet) and lists them with their configs.
#
# Usage: kafka-topics.sh [--bootstrap-servers HOST:PORT] [--partitions N] [--replication-factor N]
#                        [--dead-letter-partitions N] [--documents-topic NAME] [--alerts-topic NAME]
#                        [--verdicts-topic NAME] [--dead-letters-topic NAME]
#
#   --bootstrap-servers       default: the address kafka-start.sh wrote, else 127.0.0.1:9092
#   --partitions              of documents, alerts and verdicts (default 6)
#   --dead-letter-partitions  of dead-letters (default 1)
#   --replication-factor      of every topic (default 1: one local broker)
#   --*-topic NAME            topic names (defaults: documents, alerts, verdicts, dead-letters)
#
#   topic         partitions  retention  cleanup.policy  max.message.bytes
#   documents     6           7 days     delete          32 MiB
#   alerts        6           30 days    delete          (broker default)
#   verdicts      6           30 days    compact,delete  (broker default)
#   dead-letters  1           30 days    delete          32 MiB
#
# Idempotent: existing topics are left as they are (a differing partition count or config is
# reported, not changed). See deploy/local/README.md for the reasons behind the table.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=kafka/common.sh
. "$here/kafka/common.sh"

usage() { kafka_usage "${BASH_SOURCE[0]}"; }

bootstrap=""
partitions=6
dl_partitions=1
replication=1
documents=documents
alerts=alerts
verdicts=verdicts
dead_letters=dead-letters
while [ $# -gt 0 ]; do
    opt="$1"
    case "$opt" in
        --*=*) val="${opt#*=}"; opt="${opt%%=*}"; shift ;;
        -h|--help) usage; exit 0 ;;
        --*) [ $# -ge 2 ] || die "$opt needs a value"; val="$2"; shift 2 ;;
        *) usage >&2; die "unknown argument: $opt" ;;
    esac
    case "$opt" in
        --bootstrap-servers|--bootstrap-server) bootstrap="$val" ;;
        --partitions) partitions="$val" ;;
        --dead-letter-partitions) dl_partitions="$val" ;;
        --replication-factor) replication="$val" ;;
        --documents-topic) documents="$val" ;;
        --alerts-topic) alerts="$val" ;;
        --verdicts-topic) verdicts="$val" ;;
        --dead-letters-topic) dead_letters="$val" ;;
        *) usage >&2; die "unknown option: $opt" ;;
    esac
done
for n in "$partitions" "$dl_partitions" "$replication"; do
    [[ "$n" =~ ^[1-9][0-9]*$ ]] || die "partition counts and replication factor must be positive numbers, got '$n'"
done
if [ -z "$bootstrap" ]; then
    bootstrap="$(cat -- "$(kafka_default_dir)/bootstrap.servers" 2>/dev/null || true)"
    bootstrap="${bootstrap:-127.0.0.1:9092}"
fi

day_ms=86400000
mib32=33554432

run() { "$here/kafka-run-class.sh" topics --bootstrap-server "$bootstrap" "$@"; }

# create NAME PARTITIONS CONFIG...
create() {
    local name="$1" parts="$2" kv
    shift 2
    local -a config_args=()
    for kv in "$@"; do config_args+=(--config "$kv"); done
    echo "creating $name if missing (partitions $parts, replication factor $replication, $*)" >&2
    run --create --if-not-exists --topic "$name" --partitions "$parts" \
        --replication-factor "$replication" "${config_args[@]}"
}

# The input: crawled pages, up to ~20 MB each (hence 32 MiB), kept a week for replays.
create "$documents" "$partitions" \
    "retention.ms=$((7 * day_ms))" cleanup.policy=delete "max.message.bytes=$mib32"
# One record per near-duplicate pair found.
create "$alerts" "$partitions" \
    "retention.ms=$((30 * day_ms))" cleanup.policy=delete
# Exactly one verdict per document, keyed by document id: compaction keeps the latest per key.
create "$verdicts" "$partitions" \
    "retention.ms=$((30 * day_ms))" cleanup.policy=compact,delete
# Rejected input with its payload (which can be a 20 MB document), rare: one partition, in order.
create "$dead_letters" "$dl_partitions" \
    "retention.ms=$((30 * day_ms))" cleanup.policy=delete "max.message.bytes=$mib32"

echo "---- topics on $bootstrap ----" >&2
regex_quote() { printf '%s' "${1//./\\.}"; }   # topic names may contain dots
description="$(run --describe --topic "^($(regex_quote "$documents")|$(regex_quote "$alerts")|$(regex_quote "$verdicts")|$(regex_quote "$dead_letters"))\$")"
echo "$description"

# --if-not-exists keeps an existing topic unchanged: say so when it differs from what we asked.
check() {
    local name="$1" parts="$2" actual
    actual="$(printf '%s\n' "$description" \
        | awk -v t="$name" '$1 == "Topic:" && $2 == t { for (i = 3; i <= NF; i++) if ($i == "PartitionCount:") print $(i + 1) }')"
    if [ -z "$actual" ]; then
        die "topic $name is missing after creation"
    elif [ "$actual" != "$parts" ]; then
        echo "$(basename "$0"): note: $name already existed with $actual partitions (asked for $parts); left unchanged" >&2
    fi
}
check "$documents" "$partitions"
check "$alerts" "$partitions"
check "$verdicts" "$partitions"
check "$dead_letters" "$dl_partitions"
