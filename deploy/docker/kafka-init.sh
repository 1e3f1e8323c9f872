#!/usr/bin/env bash
# Creates neardup's Kafka topics on the docker-compose broker, if they do not exist yet, and
# describes them. Runs in the apache/kafka image (service kafka-init of docker-compose.yml), where
# the Kafka tools live in /opt/kafka/bin.
#
# Same topics, partitions and configs as deploy/local/kafka-topics.sh (DeploymentFilesTest
# compares the two); the reasons are in deploy/local/README.md, "The topics":
#
#   topic         partitions  retention  cleanup.policy  max.message.bytes
#   documents     6           7 days     delete          32 MiB
#   alerts        6           30 days    delete          (broker default, 32 MiB here)
#   verdicts      6           30 days    compact,delete  (broker default, 32 MiB here)
#   dead-letters  1           30 days    delete          32 MiB
#
# Environment (docker-compose.yml sets all of them): BOOTSTRAP_SERVERS, DOCUMENTS_TOPIC,
# ALERTS_TOPIC, VERDICTS_TOPIC, DEAD_LETTERS_TOPIC, PARTITIONS, DEAD_LETTER_PARTITIONS,
# REPLICATION_FACTOR. Idempotent (--if-not-exists): an existing topic is never changed.
set -euo pipefail

bootstrap="${BOOTSTRAP_SERVERS:-kafka:9092}"
documents="${DOCUMENTS_TOPIC:-documents}"
alerts="${ALERTS_TOPIC:-alerts}"
verdicts="${VERDICTS_TOPIC:-verdicts}"
dead_letters="${DEAD_LETTERS_TOPIC:-dead-letters}"
partitions="${PARTITIONS:-6}"
dl_partitions="${DEAD_LETTER_PARTITIONS:-1}"
replication="${REPLICATION_FACTOR:-1}"
topics_tool="${KAFKA_HOME:-/opt/kafka}/bin/kafka-topics.sh"

day_ms=86400000
mib32=33554432

run() { "$topics_tool" --bootstrap-server "$bootstrap" "$@"; }

# create NAME PARTITIONS CONFIG...
create() {
    local name="$1" parts="$2" kv
    shift 2
    local -a config_args=()
    for kv in "$@"; do config_args+=(--config "$kv"); done
    echo "kafka-init: creating $name if missing (partitions $parts, replication factor $replication, $*)"
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

for topic in "$documents" "$alerts" "$verdicts" "$dead_letters"; do
    run --describe --topic "$topic"
done
echo "kafka-init: topics ready on $bootstrap"
