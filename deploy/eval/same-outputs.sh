#!/usr/bin/env bash
# Runs two builds of neardup on the same inputs and says whether their outputs are the same: the
# side-by-side check that a change which should not change behaviour did not.
#
# Usage: same-outputs.sh OLD.jar NEW.jar INPUT.jsonl [INPUT.jsonl ...]
#
# For each input, each jar runs, at parallelism 2:
#   run                          alerts, verdicts, dead letters
#   run --similarity cosine      alerts, verdicts
#   run --similarity cosine --simhash-verify bits   alerts, verdicts (mode cosine-bits)
#   run --containment 0.8        alerts, verdicts
#   dedupe                       clusters, pairs
#   dedupe --similarity cosine   clusters, pairs
# The outputs are compared line for line after sorting, less the fields documented as variable
# (detectedAt everywhere; an alert's band and early flag; a verdict's candidates): alerts are
# compared as a set of pairs with their similarity, whichever way and in whatever order they were
# alerted. On a file nothing is alerted early (the watermark passes every page at the end of the
# input); on a stream, early pairs the verdict did not confirm are lines only one side has. Exit 0 when every output is
# the same, 1 otherwise (the differences are printed). Set MODES to a subset of
# "run cosine cosine-bits containment dedupe dedupe-cosine" to run fewer (cosine-bits needs two
# builds that have --simhash-verify); WORK_DIR to keep the outputs
# (default: a temporary directory, deleted at the end).
set -euo pipefail

if [ $# -lt 3 ]; then
    sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 2
fi
old=$(realpath "$1")
new=$(realpath "$2")
shift 2
modes=${MODES:-run cosine containment dedupe dedupe-cosine}
work=${WORK_DIR:-$(mktemp -d)}
[ -n "${WORK_DIR:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work"

normalize() { # FILE: sorted JSON lines without the variable fields
    python3 -c '
import json, sys
drop = {"detectedAt", "band", "candidates", "early"}
def clean(v):
    if isinstance(v, dict):
        return {k: clean(x) for k, x in v.items() if k not in drop}
    if isinstance(v, list):
        return [clean(x) for x in v]
    return v
lines = [json.dumps(clean(json.loads(l)), sort_keys=True) for l in open(sys.argv[1]) if l.strip()]
print("\n".join(sorted(lines)))
' "$1"
}

run_one() { # JAR OUT INPUT MODE
    local jar=$1 out=$2 input=$3 mode=$4
    mkdir -p "$out"
    local args=()
    case $mode in
        run) args=(run --alerts "$out/alerts.jsonl" --verdicts "$out/verdicts.jsonl"
                   --dead-letters "$out/dead-letters.jsonl") ;;
        cosine) args=(run --similarity cosine --alerts "$out/alerts.jsonl"
                      --verdicts "$out/verdicts.jsonl" --dead-letters "$out/dead-letters.jsonl") ;;
        cosine-bits) args=(run --similarity cosine --simhash-verify bits
                           --alerts "$out/alerts.jsonl" --verdicts "$out/verdicts.jsonl"
                           --dead-letters "$out/dead-letters.jsonl") ;;
        containment) args=(run --containment 0.8 --alerts "$out/alerts.jsonl"
                           --verdicts "$out/verdicts.jsonl" --dead-letters "$out/dead-letters.jsonl") ;;
        dedupe) args=(dedupe --clusters "$out/clusters.jsonl" --pairs "$out/pairs.jsonl"
                      --dead-letters "$out/dead-letters.jsonl") ;;
        dedupe-cosine) args=(dedupe --similarity cosine --clusters "$out/clusters.jsonl"
                             --pairs "$out/pairs.jsonl" --dead-letters "$out/dead-letters.jsonl") ;;
        *) echo "same-outputs: unknown mode $mode" >&2; exit 2 ;;
    esac
    local start=$SECONDS
    java -jar "$jar" "${args[@]}" --input "$input" -p 2 > "$out/stdout" 2> "$out/stderr" || {
        echo "same-outputs: $jar failed on $input ($mode); see $out/stderr" >&2
        tail -5 "$out/stderr" >&2
        return 1
    }
    echo "$((SECONDS - start))" > "$out/seconds"
}

status=0
for input in "$@"; do
    name=$(basename "$input" .jsonl)
    for mode in $modes; do
        for side in old new; do
            jar=$old
            [ $side = new ] && jar=$new
            run_one "$jar" "$work/$name/$mode/$side" "$input" "$mode"
        done
        same=yes
        for f in "$work/$name/$mode/old"/*.jsonl; do
            base=$(basename "$f")
            if ! diff <(normalize "$f") <(normalize "$work/$name/$mode/new/$base") \
                > "$work/$name/$mode/$base.diff"; then
                same=no
                status=1
                echo "DIFFERENT $name $mode $base ($(grep -c '^[<>]' "$work/$name/$mode/$base.diff") lines):"
                head -6 "$work/$name/$mode/$base.diff"
            fi
        done
        lines=$(cat "$work/$name/$mode/old"/*.jsonl | wc -l)
        printf 'same-outputs: %-14s %-14s %s (%d lines; %s s old, %s s new)\n' "$name" "$mode" \
            "$([ $same = yes ] && echo same || echo DIFFERENT)" "$lines" \
            "$(cat "$work/$name/$mode/old/seconds")" "$(cat "$work/$name/$mode/new/seconds")"
    done
done
exit $status
