#!/usr/bin/env bash
# Stops the Flink cluster started by flink-start.sh: SIGTERM to the TaskManagers and the
# JobManager (a clean shutdown), up to --timeout seconds (default 30), then SIGKILL; removes the
# pid files. Without high availability, jobs still running are lost with the JobManager: stop them
# with a savepoint first (see deploy/local/README.md). With it (flink-start.sh --zookeeper), the
# jobs stay in ZooKeeper and DIR/ha, and the next JobManager of the cluster resumes them from their
# last checkpoints.
#
# Usage: flink-stop.sh [--dir DIR] [--taskmanager-only] [--timeout SECONDS] [--purge]
#
#   --dir DIR            the work directory given to flink-start.sh
#                        (default ${NEARDUP_LOCAL_DIR:-/tmp/neardup-local}/flink)
#   --taskmanager-only   stop only the TaskManagers, keep the JobManager (its jobs wait for slots)
#   --purge              also delete checkpoints, savepoints, uploaded jars, logs, the generated
#                        config and the high availability metadata: DIR/ha and the cluster's
#                        entries in ZooKeeper (and DIR itself if nothing else is in it). The
#                        classpath cache is kept.
#
# Stopping a cluster that is not running is not an error (nothing to do; --purge still purges).
set -euo pipefail

# shellcheck source=flink/common.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/flink/common.sh"

usage() { kafka_usage "${BASH_SOURCE[0]}"; }

dir="$(flink_default_dir)"
timeout=30
tm_only=false
purge=false
while [ $# -gt 0 ]; do
    case "$1" in
        --dir) [ $# -ge 2 ] || die "--dir needs a value"; dir="$2"; shift 2 ;;
        --dir=*) dir="${1#*=}"; shift ;;
        --timeout) [ $# -ge 2 ] || die "--timeout needs a value"; timeout="$2"; shift 2 ;;
        --timeout=*) timeout="${1#*=}"; shift ;;
        --taskmanager-only) tm_only=true; shift ;;
        --purge) purge=true; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument: $1" ;;
    esac
done
[[ "$timeout" =~ ^[0-9]+$ ]] || die "--timeout must be a number of seconds"
[ "$tm_only" = false ] || [ "$purge" = false ] || die "--purge stops the whole cluster: not with --taskmanager-only"

say() { echo "$(basename "$0"): $*" >&2; }

[ -d "$dir" ] || { say "nothing to stop: $dir does not exist"; exit 0; }
dir="$(cd -- "$dir" && pwd)"

# pid files and the main class their process must run
files=()
classes=()
for f in "$dir"/taskmanager-*.pid; do
    [ -e "$f" ] || continue
    files+=("$f")
    classes+=("$FLINK_MAIN_TM")
done
if [ "$tm_only" = false ] && [ -e "$dir/jobmanager.pid" ]; then
    files+=("$dir/jobmanager.pid")
    classes+=("$FLINK_MAIN_JM")
fi

pids=()
names=()
for i in "${!files[@]}"; do
    f="${files[$i]}"
    name="$(basename "$f" .pid)"
    if pid="$(flink_pid_alive "$f" "${classes[$i]}")"; then
        pids+=("$pid")
        names+=("$name")
        say "stopping $name (pid $pid) with SIGTERM"
        kill -TERM "$pid" 2>/dev/null || true
    else
        say "removing stale pid file $f (pid $(cat -- "$f") is not running)"
        rm -f -- "$f"
    fi
done
if [ "${#pids[@]}" -eq 0 ]; then
    say "no $([ "$tm_only" = true ] && echo TaskManager || echo 'Flink process') running from $dir"
else
    started_at="$(date +%s%N)"
    deadline=$(( $(date +%s) + timeout ))
    for i in "${!pids[@]}"; do
        pid="${pids[$i]}"
        while flink_running "$pid" && [ "$(date +%s)" -lt "$deadline" ]; do
            sleep 0.2
        done
        if flink_running "$pid"; then
            say "${names[$i]} (pid $pid) still running after ${timeout}s; sending SIGKILL"
            kill -KILL "$pid" 2>/dev/null || true
            while flink_running "$pid"; do sleep 0.1; done
        fi
        rm -f -- "$dir/${names[$i]}.pid"
    done
    elapsed_ms=$(( ($(date +%s%N) - started_at) / 1000000 ))
    say "stopped ${names[*]} in $((elapsed_ms / 1000)).$(printf '%03d' $((elapsed_ms % 1000))) s"
fi

if [ "$purge" = true ]; then
    config="$dir/conf/config.yaml"
    if [ -f "$config" ] && grep -q '^high-availability\.type: *zookeeper *$' "$config"; then
        # ZooKeeper keeps pointers to the jobs (into DIR/ha) under ROOT/CLUSTER_ID: left there, the
        # next JobManager of this cluster id would try to recover jobs whose files are gone.
        conf_value() { # KEY_REGEX -> the last value in config.yaml, without YAML single quotes
            local v
            v="$(sed -n "s/^$1: *//p" "$config" | tail -n 1)"
            v="${v#\'}"
            printf '%s' "${v%\'}"
        }
        quorum="$(conf_value 'high-availability\.zookeeper\.quorum')"
        root="$(conf_value 'high-availability\.zookeeper\.path\.root')"
        cluster_id="$(conf_value 'high-availability\.cluster-id')"
        znode="/${root:-/flink}/${cluster_id:-/default}"
        znode="$(echo "$znode" | tr -s /)"
        znode="${znode%/}"
        say "removing $znode from ZooKeeper at $quorum"
        # ZooKeeper's CLI, as Flink shades it (flink-shaded-zookeeper-3 is on the classpath).
        if ! zk_out="$(timeout 60 "$(flink_java)" -Xmx128m -XX:TieredStopAtLevel=1 \
                -Dzookeeper.sasl.client=false "-Dlog.file=$dir/log/zookeeper-cli.log" \
                "-Dlog4j2.configurationFile=file:$FLINK_LOCAL_HOME/log4j2-cli.properties" \
                -cp "$(flink_classpath)" \
                org.apache.flink.shaded.zookeeper3.org.apache.zookeeper.ZooKeeperMain \
                -server "$quorum" deleteall "$znode" 2>&1)" \
                && [[ "$zk_out" != *"Node does not exist"* ]]; then
            say "warning: could not remove $znode from ZooKeeper at $quorum (is it running?); remove it with ZooKeeper's CLI (deleteall $znode) before a new cluster of this directory starts"
        fi
    fi
    say "purging $dir: conf, log, checkpoints, savepoints, jars, tmp, ha"
    rm -rf -- "$dir/conf" "$dir/log" "$dir/checkpoints" "$dir/savepoints" "$dir/jars" \
        "$dir/tmp" "$dir/plugins" "$dir/ha"
    rm -f -- "$dir/rest.url"
    rmdir -- "$dir" 2>/dev/null || true # when nothing else is in it
fi
