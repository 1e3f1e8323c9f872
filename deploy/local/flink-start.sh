#!/usr/bin/env bash
# Starts a local Apache Flink 2.2.1 standalone session cluster on loopback: one JobManager
# (StandaloneSessionClusterEntrypoint, with the REST API and web UI) and one TaskManager
# (TaskManagerRunner), as background processes, from Maven Central jars (no Flink tarball, no
# Docker). Or, with --taskmanager-only, one more TaskManager for a running cluster (to replace a
# TaskManager that died, or to add slots); with --jobmanager-only, a new JobManager for the cluster
# (to replace a JobManager that died: with --zookeeper high availability it recovers the jobs).
#
# Usage: flink-start.sh [--dir DIR] [--rest-port PORT] [--rpc-port PORT] [--slots N]
#                       [--zookeeper HOST:PORT[,HOST:PORT...]] [--timeout SECONDS]
#                       [--conf KEY=VALUE]...
#        flink-start.sh --taskmanager-only [--dir DIR] [--slots N] [--timeout SECONDS]
#        flink-start.sh --jobmanager-only [--dir DIR] [--timeout SECONDS]
#
#   --dir DIR            work directory: conf/config.yaml, log/, checkpoints/, savepoints/, tmp/,
#                        jars/, *.pid (default ${NEARDUP_LOCAL_DIR:-/tmp/neardup-local}/flink;
#                        the resolved classpath is cached in ${NEARDUP_LOCAL_DIR:-/tmp/neardup-local})
#   --rest-port PORT     REST API and web UI on http://127.0.0.1:PORT (default 8081)
#   --rpc-port PORT      the JobManager's RPC port, where TaskManagers register (default 6123)
#   --slots N            task slots of the TaskManager (default 2)
#   --zookeeper QUORUM   JobManager high availability with ZooKeeper (a running ZooKeeper
#                        ensemble, e.g. 127.0.0.1:2181): leader election and job recovery through
#                        ZooKeeper, recovery metadata in DIR/ha, cluster id /BASENAME-OF-DIR, a 10 s
#                        ZooKeeper session (README: "High availability")
#   --timeout SECONDS    how long to wait for the TaskManager's slots to be registered, or for a
#                        JobManager to lead with the running TaskManagers registered (default 90)
#   --conf KEY=VALUE     a Flink option for config.yaml, replacing the generated value (repeatable),
#                        e.g. --conf taskmanager.memory.process.size=2g
#   --taskmanager-only   start one more TaskManager with the config.yaml of the cluster in DIR
#   --jobmanager-only    start a JobManager with the config.yaml of the cluster in DIR, when none
#                        runs from DIR (the last one died or was stopped); it returns once the new
#                        JobManager leads and the running TaskManagers are registered with it
#
# Environment: JAVA_HOME, FLINK_JVM_OPTS (extra JVM flags for the JobManager and TaskManagers).
#
# Progress goes to stderr; on success the only line on stdout is the REST URL
# (http://127.0.0.1:PORT), so `FLINK_REST=$(flink-start.sh)` works. It exits non-zero (after
# printing the end of the logs, and stopping what it started) if a process dies or the slots are
# not registered in time. Stop with flink-stop.sh.
set -euo pipefail

# shellcheck source=flink/common.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/flink/common.sh"

usage() { kafka_usage "${BASH_SOURCE[0]}"; }

dir="$(flink_default_dir)"
rest_port=8081
rpc_port=6123
slots=""
timeout=90
mode=cluster # cluster (JobManager and TaskManager), taskmanager or jobmanager (--*-only)
zookeeper=""
cluster_options=()
confs=()
while [ $# -gt 0 ]; do
    opt="$1"
    case "$opt" in
        -h|--help) usage; exit 0 ;;
        --taskmanager-only|--jobmanager-only)
            [ "$mode" = cluster ] || die "--taskmanager-only and --jobmanager-only exclude each other"
            mode="${opt#--}"; mode="${mode%-only}"; shift; continue ;;
        --*=*) val="${opt#*=}"; opt="${opt%%=*}"; shift ;;
        --*) [ $# -ge 2 ] || die "$opt needs a value"; val="$2"; shift 2 ;;
        *) usage >&2; die "unknown argument: $opt" ;;
    esac
    case "$opt" in
        --dir) dir="$val" ;;
        --rest-port) rest_port="$val"; cluster_options+=("$opt") ;;
        --rpc-port) rpc_port="$val"; cluster_options+=("$opt") ;;
        --slots) slots="$val" ;;
        --zookeeper) zookeeper="$val"; cluster_options+=("$opt") ;;
        --timeout) timeout="$val" ;;
        --conf) confs+=("$val"); cluster_options+=("$opt") ;;
        *) usage >&2; die "unknown option: $opt" ;;
    esac
done
for p in "$rest_port" "$rpc_port"; do
    if ! [[ "$p" =~ ^[0-9]{4,5}$ ]] || [ "$p" -lt 1024 ] || [ "$p" -gt 65535 ]; then
        die "ports must be numbers from 1024 to 65535, got '$p'"
    fi
done
[ "$rest_port" != "$rpc_port" ] || die "--rest-port and --rpc-port must differ"
[ -z "$slots" ] || [[ "$slots" =~ ^[1-9][0-9]*$ ]] || die "--slots must be a positive number, got '$slots'"
[[ "$timeout" =~ ^[1-9][0-9]*$ ]] || die "--timeout must be a positive number of seconds"
for kv in ${confs[@]+"${confs[@]}"}; do
    [[ "$kv" =~ ^[A-Za-z0-9][A-Za-z0-9._-]*=.+$ ]] || die "--conf needs KEY=VALUE, got '$kv'"
done
if [ -n "$zookeeper" ] && ! [[ "$zookeeper" =~ ^[A-Za-z0-9.-]+:[0-9]{1,5}(,[A-Za-z0-9.-]+:[0-9]{1,5})*$ ]]; then
    die "--zookeeper needs HOST:PORT[,HOST:PORT...], got '$zookeeper'"
fi
if [ "$mode" != cluster ] && [ "${#cluster_options[@]}" -gt 0 ]; then
    die "${cluster_options[0]} is for a cluster start, not with --$mode-only (the $mode uses DIR/conf/config.yaml)"
fi

say() { echo "$(basename "$0"): $*" >&2; }

[ "$mode" != jobmanager ] || [ -z "$slots" ] || die "--slots is for TaskManagers, not with --jobmanager-only"
if [ "$mode" != cluster ] && [ ! -f "$dir/conf/config.yaml" ]; then
    die "no cluster in $dir ($dir/conf/config.yaml is missing): start one with $(basename "$0") --dir $dir"
fi
dir="$(kafka_abs_dir "$dir")"
case "$dir" in
    *[\'\"\\[:space:]]*) die "the work directory must not contain quotes, backslashes or spaces: $dir" ;;
esac
conf_dir="$dir/conf"
config="$conf_dir/config.yaml"
log_dir="$dir/log"
jm_pid_file="$dir/jobmanager.pid"
mkdir -p -- "$conf_dir" "$log_dir/rocksdb" "$dir/plugins" "$dir/tmp" "$dir/jars"

java="$(flink_java)"

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# --- config.yaml (cluster start only) ----------------------------------------------------------
if [ "$mode" = cluster ]; then
    if pid="$(flink_pid_alive "$jm_pid_file" "$FLINK_MAIN_JM")"; then
        die "a JobManager is already running from $dir (pid $pid, $(cat -- "$dir/rest.url" 2>/dev/null || echo '?')); stop it with: $(dirname "$FLINK_LOCAL_HOME")/flink-stop.sh --dir $dir"
    fi
    for f in "$dir"/taskmanager-*.pid; do
        [ -e "$f" ] || continue
        if pid="$(flink_pid_alive "$f" "$FLINK_MAIN_TM")"; then
            die "a TaskManager is already running from $dir (pid $pid); stop it with: $(dirname "$FLINK_LOCAL_HOME")/flink-stop.sh --dir $dir"
        fi
    done
    for f in "$jm_pid_file" "$dir"/taskmanager-*.pid; do
        if [ -f "$f" ]; then
            say "removing stale pid file $f (pid $(cat -- "$f") is not running)"
            rm -f -- "$f"
        fi
    done
    for p in "$rest_port" "$rpc_port"; do
        if port_in_use "$p"; then
            die "127.0.0.1:$p is already in use (another cluster?); choose another --rest-port or --rpc-port"
        fi
    done

    keys=()
    declare -A values=()
    set_conf() {
        [ -n "${values[$1]+x}" ] || keys+=("$1")
        values[$1]="$2"
    }
    # Everything on loopback: RPC, blob server, data exchange, REST.
    set_conf jobmanager.rpc.address 127.0.0.1
    set_conf jobmanager.rpc.port "$rpc_port"
    set_conf jobmanager.bind-host 127.0.0.1
    set_conf taskmanager.host 127.0.0.1
    set_conf taskmanager.bind-host 127.0.0.1
    set_conf rest.address 127.0.0.1
    set_conf rest.bind-address 127.0.0.1
    set_conf rest.port "$rest_port"
    # Memory: the smallest sizes that run neardup comfortably on a laptop (2 slots).
    set_conf jobmanager.memory.process.size 1024m
    set_conf taskmanager.memory.process.size 1728m
    set_conf taskmanager.numberOfTaskSlots "${slots:-2}"
    set_conf parallelism.default 1
    # State: RocksDB, incremental checkpoints, checkpoints and savepoints in the work directory.
    set_conf state.backend.type rocksdb
    set_conf execution.checkpointing.incremental true
    set_conf state.backend.rocksdb.use-bloom-filter true
    # 16 MB memtables, as the embedded mode: at 64 MB the memtables of containment mode's column
    # families fill the slot's write buffer budget and flush after a few writes each (README).
    set_conf state.backend.rocksdb.writebuffer.size 16mb
    # Universal compaction: band keys are random, so leveled compaction rewrites the whole next
    # level for every few memtables flushed, and stalls writes as state grows (docs/performance.md).
    set_conf state.backend.rocksdb.compaction.style UNIVERSAL
    # LZ4, not Snappy: about half the CPU in flushes and merges for 3% more state bytes
    # (docs/flink-cluster.md).
    set_conf state.backend.rocksdb.compression.per.level LZ4_COMPRESSION
    # neardup's RocksDB options, loaded from the job jar: memtable Bloom filters, more level-0
    # files before writes stall, universal merges at 8 sorted runs (docs/flink-cluster.md).
    set_conf state.backend.rocksdb.options-factory dev.neardup.pipeline.NeardupRocksDbOptions
    set_conf execution.checkpointing.dir "file://$dir/checkpoints"
    set_conf execution.checkpointing.savepoint-dir "file://$dir/savepoints"
    set_conf execution.checkpointing.externalized-checkpoint-retention RETAIN_ON_CANCELLATION
    set_conf execution.checkpointing.num-retained 2
    # Recovery: restart failed jobs (a TaskManager lost, a broker restart), but not forever.
    set_conf restart-strategy.type fixed-delay
    set_conf restart-strategy.fixed-delay.attempts 10
    set_conf restart-strategy.fixed-delay.delay "2 s"
    set_conf jobmanager.execution.failover-strategy region
    if [ -n "$zookeeper" ]; then
        # High availability: the JobManager is elected leader through ZooKeeper, which also keeps
        # pointers to the jobs and their completed checkpoints; the metadata itself (job graphs,
        # jars, checkpoint metadata) goes to the storage directory, which every JobManager of the
        # cluster must reach. A new JobManager takes over once ZooKeeper has expired the session of
        # the one that died: within the session timeout (Flink's default is 60 s).
        set_conf high-availability.type zookeeper
        set_conf high-availability.zookeeper.quorum "$zookeeper"
        set_conf high-availability.storageDir "file://$dir/ha"
        # Several clusters can share one ZooKeeper: each under its own id (the work directory's).
        set_conf high-availability.cluster-id "/$(basename "$dir")"
        set_conf high-availability.zookeeper.client.session-timeout 10000
        # With high availability the JobManager's RPC port is this option (random by default):
        # kept at --rpc-port, so a replacement JobManager listens where the last one did.
        set_conf high-availability.jobmanager.port "$rpc_port"
        # A ZooKeeper without Kerberos: no SASL attempt (and no "Authentication failed" errors).
        set_conf zookeeper.sasl.disable true
    fi
    # Short paths (RocksDB refuses instance paths that are too long) and kept uploads.
    set_conf io.tmp.dirs "$dir/tmp"
    set_conf web.upload.dir "$dir/jars"
    # RocksDB's own LOG files would otherwise land next to the Flink logs, one per state instance.
    set_conf state.backend.rocksdb.log.dir "$log_dir/rocksdb"
    set_conf env.log.dir "$log_dir"
    set_conf env.pid.dir "$dir"
    # Informational: what a Flink distribution's scripts would pass to every JVM (these scripts
    # pass FLINK_JAVA17_OPTS of flink/common.sh themselves).
    set_conf env.java.opts.all "${FLINK_JAVA17_OPTS[*]}"
    for kv in ${confs[@]+"${confs[@]}"}; do
        set_conf "${kv%%=*}" "${kv#*=}"
    done
    rest_port="${values[rest.port]}" # in case --conf set it

    yaml_value() {
        if [[ "$1" =~ ^[A-Za-z0-9/][A-Za-z0-9._/:=-]*$ ]]; then
            printf '%s' "$1"
        else
            printf "'%s'" "${1//\'/\'\'}"
        fi
    }
    {
        echo "# Generated by deploy/local/flink-start.sh; rewritten on every cluster start (edits here are"
        echo "# lost: use flink-start.sh --conf KEY=VALUE). Flink 2.x reads only config.yaml (flat keys)."
        for k in "${keys[@]}"; do
            echo "$k: $(yaml_value "${values[$k]}")"
        done
    } >"$config"
    echo "http://127.0.0.1:$rest_port" >"$dir/rest.url"
else
    rest_port="$(sed -n 's/^rest\.port: *//p' "$config" | tail -n 1)"
    if [ "$mode" = taskmanager ]; then
        if ! flink_pid_alive "$jm_pid_file" "$FLINK_MAIN_JM" >/dev/null; then
            say "warning: no JobManager is running from $dir; the TaskManager will keep trying to register"
        fi
    else
        if pid="$(flink_pid_alive "$jm_pid_file" "$FLINK_MAIN_JM")"; then
            die "a JobManager is already running from $dir (pid $pid); stop it with: $(dirname "$FLINK_LOCAL_HOME")/flink-stop.sh --dir $dir"
        fi
        if port_in_use "$rest_port"; then
            die "127.0.0.1:$rest_port (rest.port of $config) is still in use"
        fi
        if ! grep -q '^high-availability\.type: *zookeeper' "$config"; then
            say "warning: the cluster in $dir has no high availability (flink-start.sh --zookeeper): the new JobManager starts without the jobs of the last one"
        fi
    fi
fi
rest_url="http://127.0.0.1:$rest_port"

classpath="$(flink_classpath)"
export FLINK_CONF_DIR="$conf_dir"
# An empty plugins directory: no "plugins directory does not exist" warning.
export FLINK_PLUGINS_DIR="$dir/plugins"

# --- memory and resource parameters, as Flink's bin/jobmanager.sh and bin/taskmanager.sh -------
# BashJavaUtils prints two lines prefixed BASH_JAVA_UTILS_EXEC_RESULT: the JVM flags (-Xmx, -Xms,
# -XX:MaxDirectMemorySize, -XX:MaxMetaspaceSize) and the derived options (-D key=value ...). A
# TaskManager started without the latter fails with "taskmanager.cpu.cores is not set".
resource_params() { # COMMAND [-D KEY=VALUE]... -> sets jvm_params and dynamic_params
    local output results
    if ! output="$("$java" "${FLINK_JAVA17_OPTS[@]}" -Xmx128m -XX:TieredStopAtLevel=1 \
            "-Dlog.file=$log_dir/bash-java-utils.log" \
            "-Dlog4j2.configurationFile=file:$FLINK_LOCAL_HOME/log4j2-cli.properties" \
            -cp "$classpath" "$FLINK_MAIN_UTILS" "$1" --configDir "$conf_dir" "${@:2}" 2>&1)"; then
        echo "$output" | tail -n 30 >&2
        abort_start "BashJavaUtils $1 failed (is $config valid?)"
    fi
    results="$(echo "$output" | sed -n 's/^BASH_JAVA_UTILS_EXEC_RESULT://p' | tail -n 2)"
    if [ "$(echo "$results" | wc -l)" -ne 2 ]; then
        echo "$output" | tail -n 30 >&2
        abort_start "unexpected output of BashJavaUtils $1"
    fi
    # Parameter expansion, not `echo | head -n 1`: under pipefail, head closing the pipe before
    # echo's second write makes the assignment fail with SIGPIPE (exit 141), now and then.
    jvm_params="${results%%$'\n'*}"
    dynamic_params="${results#*$'\n'}"
}

common_jvm_opts=(
    "${FLINK_JAVA17_OPTS[@]}"
    "-Dlog4j.configurationFile=file:$FLINK_LOCAL_HOME/log4j2.properties"
    -Dlog4j2.shutdownHookEnabled=false
    -Djava.awt.headless=true
)

started_at="$(date +%s%N)"

show_logs() { # NAME...
    local name
    for name in "$@"; do
        echo "---- last 30 lines of $log_dir/$name.log ----" >&2
        tail -n 30 -- "$log_dir/$name.log" >&2 2>/dev/null || echo "(no $name.log)" >&2
        if [ -s "$log_dir/$name.out" ]; then
            echo "---- last 30 lines of $log_dir/$name.out ----" >&2
            tail -n 30 -- "$log_dir/$name.out" >&2
        fi
    done
}

started_pids=()
started_files=()
abort_start() { # MESSAGE: stops what this run started, removes their pid files, exits 1
    local pid
    for pid in ${started_pids[@]+"${started_pids[@]}"}; do
        kill -TERM "$pid" 2>/dev/null || true
    done
    for pid in ${started_pids[@]+"${started_pids[@]}"}; do
        for _ in $(seq 1 50); do flink_running "$pid" || break; sleep 0.2; done
        kill -KILL "$pid" 2>/dev/null || true
    done
    rm -f -- ${started_files[@]+"${started_files[@]}"}
    die "$1"
}

launch() { # NAME MAIN_CLASS PID_FILE EXTRA_ARGS...: starts a detached JVM, sets launched_pid
    local name="$1" main="$2" pid_file="$3" f
    shift 3
    for f in "$log_dir/$name.log" "$log_dir/$name.out"; do
        if [ -f "$f" ]; then mv -f -- "$f" "$f.1"; fi
    done
    # setsid: the process gets its own session, so it outlives this script and a Ctrl-C in the
    # terminal. Word splitting of jvm_params, dynamic_params and FLINK_JVM_OPTS is intended.
    # shellcheck disable=SC2086
    setsid nohup "$java" $jvm_params "${common_jvm_opts[@]}" ${FLINK_JVM_OPTS:-} \
        "-Dlog.file=$log_dir/$name.log" \
        -cp "$classpath" "$main" --configDir "$conf_dir" $dynamic_params "$@" \
        </dev/null >"$log_dir/$name.out" 2>&1 &
    launched_pid=$!
    echo "$launched_pid" >"$pid_file"
    started_pids+=("$launched_pid")
    started_files+=("$pid_file")
}

# --- start ---------------------------------------------------------------------------------------
if [ "$mode" != taskmanager ]; then
    resource_params GET_JM_RESOURCE_PARAMS
    launch jobmanager "$FLINK_MAIN_JM" "$jm_pid_file" --executionMode cluster
    jm_pid="$launched_pid"
    say "starting the JobManager (pid $jm_pid) in $dir, logs in $log_dir"
fi

if [ "$mode" != jobmanager ]; then
    tm_index=1
    while flink_pid_alive "$dir/taskmanager-$tm_index.pid" "$FLINK_MAIN_TM" >/dev/null; do
        tm_index=$((tm_index + 1))
    done
    tm_name="taskmanager-$tm_index"
    tm_pid_file="$dir/$tm_name.pid"
    rm -f -- "$tm_pid_file"
    # A fixed, readable resource id: the REST API lists TaskManagers by it, so the script can tell
    # when this one (not one that died a moment ago) has registered.
    tm_id="127.0.0.1-tm$tm_index-$(date +%s)"
    tm_dynamic=()
    [ -z "$slots" ] || [ "$mode" = cluster ] || tm_dynamic=(-D "taskmanager.numberOfTaskSlots=$slots")
    resource_params GET_TM_RESOURCE_PARAMS ${tm_dynamic[@]+"${tm_dynamic[@]}"}
    launch "$tm_name" "$FLINK_MAIN_TM" "$tm_pid_file" -D "taskmanager.resource-id=$tm_id"
    tm_pid="$launched_pid"
    say "starting TaskManager $tm_index (pid $tm_pid, id $tm_id), log $log_dir/$tm_name.log"
fi

# --- wait until the TaskManager's slots are registered with the JobManager, or (a new JobManager)
# until it leads and the running TaskManagers are registered with it ------------------------------
running_taskmanagers() { # the number of TaskManagers running from DIR
    local f n=0
    for f in "$dir"/taskmanager-*.pid; do
        [ -e "$f" ] || continue
        if flink_pid_alive "$f" "$FLINK_MAIN_TM" >/dev/null; then n=$((n + 1)); fi
    done
    echo "$n"
}
deadline=$(( $(date +%s) + timeout ))
while :; do
    if [ "$mode" != taskmanager ] && ! flink_running "$jm_pid"; then
        show_logs jobmanager
        abort_start "the JobManager exited during start-up"
    fi
    if [ "$mode" != jobmanager ]; then
        if ! flink_running "$tm_pid"; then
            show_logs "$tm_name"
            abort_start "the TaskManager exited during start-up"
        fi
        if body="$(flink_http_get "$rest_url/taskmanagers" 2>/dev/null)" \
                && [[ "$body" == *"\"id\":\"$tm_id\""* ]]; then
            break
        fi
    else
        # The REST API answers once a leader is elected (before, it answers 503); with high
        # availability that happens when ZooKeeper has expired the session of the last leader.
        if body="$(flink_http_get "$rest_url/overview" 2>/dev/null)"; then
            registered="$(echo "$body" | grep -o '"taskmanagers":[0-9]*' | cut -d: -f2 || true)"
            if [ "${registered:-0}" -ge "$(running_taskmanagers)" ]; then
                break
            fi
        fi
    fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
        if [ "$mode" != taskmanager ]; then show_logs jobmanager; fi
        if [ "$mode" != jobmanager ]; then
            show_logs "$tm_name"
            abort_start "the TaskManager did not register with $rest_url within ${timeout}s"
        fi
        abort_start "the JobManager did not lead with the $(running_taskmanagers) running TaskManager(s) registered within ${timeout}s ($rest_url/overview: ${body:-no answer})"
    fi
    sleep 0.25
done
elapsed_ms=$(( ($(date +%s%N) - started_at) / 1000000 ))
overview="$(flink_http_get "$rest_url/overview" 2>/dev/null || true)"
total="$(echo "$overview" | grep -o '"slots-total":[0-9]*' | cut -d: -f2 || true)"
tms="$(echo "$overview" | grep -o '"taskmanagers":[0-9]*' | cut -d: -f2 || true)"
case "$mode" in
    cluster) what="Flink 2.2.1 cluster" ;;
    taskmanager) what="TaskManager $tm_index" ;;
    jobmanager) what="JobManager (pid $jm_pid)" ;;
esac
say "$what up in $((elapsed_ms / 1000)).$(printf '%03d' $((elapsed_ms % 1000))) s: ${tms:-?} TaskManager(s), ${total:-?} slots; web UI and REST API at $rest_url"
echo "$rest_url"
