#!/usr/bin/env bash
# Runs the Flink 2.2.1 command-line client (org.apache.flink.client.cli.CliFrontend, what a
# distribution's bin/flink runs) against the cluster started by flink-start.sh: it reads the
# cluster's DIR/conf/config.yaml (FLINK_CONF_DIR), so it talks to the REST API on the right port.
#
# Usage: flink-run.sh [--dir DIR] ACTION [OPTIONS] [ARGS...]
#
#   --dir DIR   the work directory given to flink-start.sh
#               (default ${NEARDUP_LOCAL_DIR:-/tmp/neardup-local}/flink); must come first
#
# Actions (see flink-run.sh ACTION --help):
#   run -d [-s SAVEPOINT] [-p N] JAR [JOB ARGS...]   submit (detached); -s restores a savepoint
#   list [-a]                                        running (all) jobs
#   savepoint JOB_ID [DIR]                           trigger a savepoint, job keeps running
#   stop [--savepointPath DIR] JOB_ID                stop with a savepoint (job ends FINISHED)
#   cancel JOB_ID                                    cancel without a savepoint
#
# Example:
#   flink-run.sh run -d target/neardup-job.jar --bootstrap-servers 127.0.0.1:9092 \
#       --input-topic documents --alerts-topic alerts --verdicts-topic verdicts \
#       --dead-letter-topic dead-letters --checkpoint-interval 10s
#
# Environment: JAVA_HOME, FLINK_CLI_OPTS (extra JVM flags, default -Xmx512m).
# The client's log: DIR/log/flink-client.log (warnings also on stderr).
set -euo pipefail

# shellcheck source=flink/common.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/flink/common.sh"

usage() { kafka_usage "${BASH_SOURCE[0]}"; }

dir="$(flink_default_dir)"
case "${1:-}" in
    --dir) [ $# -ge 2 ] || die "--dir needs a value"; dir="$2"; shift 2 ;;
    --dir=*) dir="${1#*=}"; shift ;;
esac
case "${1:-}" in
    "") usage >&2; exit 2 ;;
    -h|--help) usage; exit 0 ;;
esac

[ -f "$dir/conf/config.yaml" ] || die "no cluster in $dir ($dir/conf/config.yaml is missing): start one with flink-start.sh --dir $dir"
dir="$(cd -- "$dir" && pwd)"

java="$(flink_java)"
classpath="$(flink_classpath)"
export FLINK_CONF_DIR="$dir/conf"
export FLINK_PLUGINS_DIR="$dir/plugins"
mkdir -p -- "$dir/log" "$dir/plugins"

# Word splitting of FLINK_CLI_OPTS is intended.
# shellcheck disable=SC2086
exec "$java" ${FLINK_CLI_OPTS:--Xmx512m} -XX:TieredStopAtLevel=1 "${FLINK_JAVA17_OPTS[@]}" \
    "-Dlog.file=$dir/log/flink-client.log" \
    "-Dlog4j.configurationFile=file:$FLINK_LOCAL_HOME/log4j2-cli.properties" \
    -cp "$classpath" "$FLINK_MAIN_CLI" "$@"
