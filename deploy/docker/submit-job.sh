#!/usr/bin/env bash
# Submits neardup's job jar to a Flink session cluster with the Flink CLI, detached, and exits.
# Runs in the official flink image (service neardup-submit of docker-compose.yml), whose
# entrypoint has already written FLINK_PROPERTIES into conf/config.yaml.
#
# Usage: submit-job.sh JAR [JOB OPTIONS...]
#   JAR          the job jar, e.g. /jars/neardup-job.jar (mvn package builds target/neardup-job.jar)
#   JOB OPTIONS  the options of 'neardup run' (--bootstrap-servers kafka:9092 --input-topic ...)
#
# Environment:
#   FLINK_REST      the JobManager's REST address (default jobmanager:8081)
#   FLINK_RUN_OPTS  extra 'flink run' options, split on spaces, e.g. "-s file:///flink-data/savepoints/savepoint-0a1b2c-0123456789ab"
#                   to restore from a savepoint, or "-p 4" for another parallelism
#   NEARDUP_JOB_NAME  the job name to look for (default "neardup (Kafka)", the name JobMain gives)
#
# Idempotent: when a job of that name is already running (or restarting, or scheduled: a job that
# a JobManager recovers through high availability is scheduled first), nothing is submitted, so
# 'docker compose up' can be repeated without starting a second copy of the job.
set -euo pipefail

if [ $# -lt 1 ]; then
    echo "usage: $(basename "$0") JAR [JOB OPTIONS...]" >&2
    exit 2
fi
jar="$1"
shift
rest="${FLINK_REST:-jobmanager:8081}"
name="${NEARDUP_JOB_NAME:-neardup (Kafka)}"

if [ ! -f "$jar" ]; then
    echo "neardup-submit: $jar not found: build it first with 'mvn -q -B package -DskipTests'" \
        "(it is mounted from ./target)" >&2
    exit 1
fi

running="$(flink list -r -s -m "$rest" 2>&1)" || {
    echo "$running" >&2
    echo "neardup-submit: cannot list the jobs of the JobManager at $rest" >&2
    exit 1
}
if printf '%s\n' "$running" | grep -F -- ": $name (" >/dev/null; then
    echo "neardup-submit: a job named '$name' is already running on $rest; not submitting another:"
    printf '%s\n' "$running" | grep -F -- ": $name ("
    exit 0
fi

# FLINK_RUN_OPTS holds several options: split it on whitespace (savepoint paths have none).
read -r -a run_opts <<< "${FLINK_RUN_OPTS:-}"
set -x
exec flink run -d -m "$rest" "${run_opts[@]}" "$jar" "$@"
