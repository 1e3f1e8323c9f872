#!/usr/bin/env bash
# Runs any Kafka 4.2.0 tool class (or its short name below) with the classpath of the local
# broker, like the kafka-*.sh scripts of a Kafka tarball, which is not available here.
#
# Usage: kafka-run-class.sh CLASS|NAME [ARGS...]
#
#   topics            org.apache.kafka.tools.TopicCommand              (kafka-topics.sh)
#   console-producer  org.apache.kafka.tools.ConsoleProducer           (kafka-console-producer.sh)
#   console-consumer  org.apache.kafka.tools.consumer.ConsoleConsumer  (kafka-console-consumer.sh)
#   consumer-groups   org.apache.kafka.tools.consumer.group.ConsumerGroupCommand
#   configs           kafka.admin.ConfigCommand                        (kafka-configs.sh)
#   get-offsets       org.apache.kafka.tools.GetOffsetShell            (kafka-get-offsets.sh)
#   transactions      org.apache.kafka.tools.TransactionsCommand       (kafka-transactions.sh)
#   metadata-quorum   org.apache.kafka.tools.MetadataQuorumCommand     (kafka-metadata-quorum.sh)
#   storage           kafka.tools.StorageTool                          (kafka-storage.sh)
#
# Example: kafka-run-class.sh console-consumer --bootstrap-server 127.0.0.1:9092 --topic alerts
#
# Environment: JAVA_HOME, KAFKA_HEAP_OPTS (default -Xmx256m), KAFKA_OPTS (extra JVM flags),
# NEARDUP_LOCAL_DIR (where the classpath is cached, default /tmp/neardup-local).
# Tool logging: warnings on stderr (kafka/log4j2-tools.properties).
set -euo pipefail

# shellcheck source=kafka/common.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/kafka/common.sh"

usage() { kafka_usage "${BASH_SOURCE[0]}"; }

[ $# -ge 1 ] || { usage >&2; exit 2; }
case "$1" in
    -h|--help) usage; exit 0 ;;
    topics) class=org.apache.kafka.tools.TopicCommand ;;
    console-producer) class=org.apache.kafka.tools.ConsoleProducer ;;
    console-consumer) class=org.apache.kafka.tools.consumer.ConsoleConsumer ;;
    consumer-groups) class=org.apache.kafka.tools.consumer.group.ConsumerGroupCommand ;;
    configs) class=kafka.admin.ConfigCommand ;;
    get-offsets) class=org.apache.kafka.tools.GetOffsetShell ;;
    transactions) class=org.apache.kafka.tools.TransactionsCommand ;;
    metadata-quorum) class=org.apache.kafka.tools.MetadataQuorumCommand ;;
    storage) class=kafka.tools.StorageTool ;;
    *) class="$1" ;;
esac
shift

java="java"
[ -n "${JAVA_HOME:-}" ] && java="$JAVA_HOME/bin/java"
command -v "$java" >/dev/null 2>&1 || die "java not found (Kafka 4.2 needs Java 17+); set JAVA_HOME"

classpath="$(kafka_classpath)"

# Word splitting of the option strings is intended.
# shellcheck disable=SC2086
exec "$java" ${KAFKA_HEAP_OPTS:--Xmx256m} -XX:+UseSerialGC -XX:TieredStopAtLevel=1 ${KAFKA_OPTS:-} \
    "-Dlog4j2.configurationFile=file:$KAFKA_LOCAL_HOME/log4j2-tools.properties" \
    -cp "$classpath" "$class" "$@"
