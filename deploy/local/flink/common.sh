# shellcheck shell=bash source-path=SCRIPTDIR
# shellcheck disable=SC2034 # the FLINK_* variables are used by the scripts that source this
# Shared by deploy/local/flink-*.sh; sourced, not run. Bash only.
#
# Reuses die, kafka_usage (help from a script's top comment) and kafka_abs_dir from
# ../kafka/common.sh. Sets FLINK_LOCAL_HOME (the deploy/local/flink directory) and provides:
#   flink_default_dir             the work directory when --dir is not given
#   flink_classpath               prints the cluster's classpath (Flink 2.2.1 from Maven Central),
#                                 resolving it with Maven into
#                                 $NEARDUP_LOCAL_DIR/flink-classpath.txt first if that is missing,
#                                 older than flink/pom.xml, or names a jar that no longer exists
#   flink_java                    prints the java command (JAVA_HOME, else java on PATH)
#   FLINK_JAVA17_OPTS             (array) the --add-exports/--add-opens list Flink needs on Java 17+
#                                 (env.java.opts.all of a Flink distribution's config.yaml)
#   flink_pid_alive PIDFILE CLASS true if PIDFILE names a live java process running CLASS (prints
#                                 the pid)
#   flink_http_get URL            prints the body of a GET (curl, else bash's /dev/tcp); fails on
#                                 no answer or an HTTP status >= 400
#   flink_running PID             true while PID is a live process (not a zombie)

# shellcheck source=../kafka/common.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")/../kafka" && pwd)/common.sh"

FLINK_LOCAL_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
FLINK_LOCAL_POM="$FLINK_LOCAL_HOME/pom.xml"

FLINK_MAIN_JM=org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint
FLINK_MAIN_TM=org.apache.flink.runtime.taskexecutor.TaskManagerRunner
FLINK_MAIN_CLI=org.apache.flink.client.cli.CliFrontend
FLINK_MAIN_UTILS=org.apache.flink.runtime.util.bash.BashJavaUtils

# Flink 2.2's env.java.opts.all (flink-dist/src/main/resources/config.yaml): Flink's RPC, Kryo and
# the code generator reflect into these JDK packages; only the bin/*.sh scripts of a distribution
# read env.java.opts.all, so the JVM command lines here carry them themselves.
FLINK_JAVA17_OPTS=(
    --add-exports=java.base/sun.net.util=ALL-UNNAMED
    --add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED
    --add-exports=jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED
    --add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED
    --add-exports=jdk.compiler/com.sun.tools.javac.parser=ALL-UNNAMED
    --add-exports=jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED
    --add-exports=jdk.compiler/com.sun.tools.javac.util=ALL-UNNAMED
    --add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED
    --add-opens=java.base/java.lang=ALL-UNNAMED
    --add-opens=java.base/java.net=ALL-UNNAMED
    --add-opens=java.base/java.io=ALL-UNNAMED
    --add-opens=java.base/java.nio=ALL-UNNAMED
    --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
    --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
    --add-opens=java.base/java.text=ALL-UNNAMED
    --add-opens=java.base/java.time=ALL-UNNAMED
    --add-opens=java.base/java.util=ALL-UNNAMED
    --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
    --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED
    --add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED
)

flink_default_dir() {
    echo "${NEARDUP_LOCAL_DIR:-/tmp/neardup-local}/flink"
}

flink_java() {
    local java="java"
    [ -n "${JAVA_HOME:-}" ] && java="$JAVA_HOME/bin/java"
    command -v "$java" >/dev/null 2>&1 || die "java not found (Flink 2.2 needs Java 17+ here); set JAVA_HOME"
    echo "$java"
}

flink_classpath() {
    local_classpath flink Flink "$FLINK_LOCAL_POM" "~125 MB"
}

flink_pid_alive() {
    local pidfile="$1" class="$2" pid
    [ -f "$pidfile" ] || return 1
    pid="$(tr -dc '0-9' <"$pidfile")"
    [ -n "$pid" ] || return 1
    flink_running "$pid" || return 1
    # Guard against a recycled pid: the process must be ours. (Read into a variable, not piped
    # to grep -q, which may exit before tr has written everything: SIGPIPE under pipefail.)
    local cmdline
    if [ -r "/proc/$pid/cmdline" ]; then
        cmdline="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" || return 1
        [[ " $cmdline " == *" $class "* ]] || return 1
    fi
    echo "$pid"
}

flink_http_get() {
    local url="$1" hostport path host port response status
    if command -v curl >/dev/null 2>&1; then
        curl -fsS --max-time 5 "$url"
        return
    fi
    hostport="${url#http://}"
    path="/${hostport#*/}"
    hostport="${hostport%%/*}"
    host="${hostport%:*}"
    port="${hostport##*:}"
    response="$(
        exec 3<>"/dev/tcp/$host/$port" || exit 1
        printf 'GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n' "$path" "$hostport" >&3
        timeout 5 cat <&3
    )" || return 1
    status="${response%%$'\n'*}" # the status line, without a pipe into head (SIGPIPE)
    status="${status%$'\r'}"
    status="${status#* }"
    status="${status%% *}"
    [[ "$status" =~ ^[0-9]+$ ]] && [ "$status" -lt 400 ] || return 1
    printf '%s' "${response#*$'\r\n\r\n'}"
}

flink_running() {
    kill -0 "$1" 2>/dev/null || return 1
    # A killed process nobody has reaped yet is gone too.
    [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" != Z ]
}
