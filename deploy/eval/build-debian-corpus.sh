#!/usr/bin/env bash
# Builds a real evaluation corpus for neardup from Debian's HTML documentation packages: the same
# manuals in several languages and versions, mirrored pages and shared generator boilerplate
# (Sphinx, DocBook, Publican, asciidoc, texinfo, Doxygen). See deploy/eval/README.md.
#
# Usage: build-debian-corpus.sh [--max-documents N] [--max-bytes SIZE] [--seed SEED]
#                               [--start-time ISO] [--interval SECONDS] [--packages "P1 P2 ..."]
#                               [--max-download-mb MB] [--no-update] [--offline] [--keep-work]
#                               [--large]
#
#   --max-documents N     write at most N documents (default 20000)
#   --max-bytes SIZE      stop before the JSON Lines file would exceed SIZE bytes; K, M, G
#                         suffixes (powers of 1024) allowed (default 1G)
#   --seed SEED           seed of the crawl-order shuffle (default 20261121); the same seed and
#                         the same packages give a byte-identical corpus
#   --start-time ISO      fetchedAt of the first document (default 2026-11-21T10:00:00Z)
#   --interval SECONDS    fetchedAt step between consecutive documents (default 2)
#   --packages "P1 P2"    replace the default package set (space-separated Debian package names)
#   --max-download-mb MB  refuse to download more than MB megabytes of .deb files (default 300)
#   --no-update           do not run 'apt-get update' first
#   --offline             use only the .deb files already in OUT_DIR/debs (no apt at all)
#   --keep-work           keep the extracted packages in OUT_DIR/work (default: delete them)
#   --large               add to the package set (default or --packages) the JDK 17 javadoc,
#                         two releases of the libstdc++ Doxygen reference (11 and 12) and the
#                         Boost 1.81 manual: about 33,800 pages, 890 MB with the default set (for
#                         throughput runs that start-up must not dominate); the --max-documents
#                         default becomes 40000 and the --max-download-mb default 600
#   -h, --help            this text
#
# Environment: OUT_DIR (default target/eval-corpus; a relative path is taken from the repository
# root). Writes OUT_DIR/debian-docs.jsonl (the corpus: one {"id","url","content","contentType",
# "fetchedAt"} object per line, in a shuffled crawl order) and OUT_DIR/packages.tsv (package,
# version, .deb size, HTML files, documents written). Downloaded .deb files are cached in
# OUT_DIR/debs and reused by later runs. Nothing is installed: packages are fetched with
# 'apt-get download' and unpacked with 'dpkg-deb -x'. Needs apt-get, dpkg-deb and python3
# (standard library only). Run as root (for 'apt-get update'), or as a user after
# 'sudo apt-get update' with --no-update.
set -euo pipefail

usage() { awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "${BASH_SOURCE[0]}"; }
die() { echo "build-debian-corpus: $*" >&2; exit 1; }
log() { echo "build-debian-corpus: $*" >&2; }

# The default set: ~85 MB of .deb files, ~12,000 HTML pages. Grouped by the kind of
# near-duplicate each brings (the README explains each choice).
DEFAULT_PACKAGES=(
    # translations of one manual, one package per language (DocBook XSL / Sphinx / DebianDoc)
    debian-reference-en debian-reference-de debian-reference-fr debian-reference-ja
    developers-reference developers-reference-de developers-reference-fr
    maint-guide maint-guide-es maint-guide-fr
    debian-faq debian-faq-de
    aptitude-doc-en aptitude-doc-fr aptitude-doc-es
    # translations inside one package (Publican): 26 and 8 languages of the same book
    debian-handbook harden-doc
    # translations + untranslated pages symlinked to English (mirrors) + 2.0/2.2/2.4 release notes
    apache2-doc
    # two versions of the same manual or API reference
    lua5.1-doc lua5.2-doc
    libcairomm-1.0-doc libcairomm-1.16-doc
    # different manuals, shared generator boilerplate (Sphinx, DocBook, asciidoc, texinfo)
    python3.11-doc python-django-doc cmake-doc debian-policy
    postgresql-doc-15 git-doc bash-doc
)

# --large adds these: javadoc (like a crawl of API docs), two neighbouring releases of one
# Doxygen reference (near-duplicate versions), and a large manual with shared boilerplate.
LARGE_EXTRA_PACKAGES=(
    openjdk-17-doc libstdc++-12-doc libstdc++-11-doc libboost1.81-doc
)

max_documents=20000
max_documents_set=0
max_download_set=0
max_bytes=1G
seed=20261121
start_time=2026-11-21T10:00:00Z
interval=2
packages=("${DEFAULT_PACKAGES[@]}")
max_download_mb=300
update=1
offline=0
keep_work=0
large=0

while [[ $# -gt 0 ]]; do
    case "$1" in
        --max-documents) [[ $# -ge 2 ]] || die "$1 needs a value"; max_documents="$2"; max_documents_set=1; shift 2 ;;
        --max-bytes) [[ $# -ge 2 ]] || die "$1 needs a value"; max_bytes="$2"; shift 2 ;;
        --seed) [[ $# -ge 2 ]] || die "$1 needs a value"; seed="$2"; shift 2 ;;
        --start-time) [[ $# -ge 2 ]] || die "$1 needs a value"; start_time="$2"; shift 2 ;;
        --interval) [[ $# -ge 2 ]] || die "$1 needs a value"; interval="$2"; shift 2 ;;
        --packages)
            [[ $# -ge 2 ]] || die "$1 needs a value"
            read -r -a packages <<<"$2"
            [[ ${#packages[@]} -gt 0 ]] || die "--packages: no package named"
            shift 2 ;;
        --max-download-mb) [[ $# -ge 2 ]] || die "$1 needs a value"; max_download_mb="$2"; max_download_set=1; shift 2 ;;
        --large) large=1; shift ;;
        --no-update) update=0; shift ;;
        --offline) offline=1; update=0; shift ;;
        --keep-work) keep_work=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument: $1" ;;
    esac
done

if [[ $large -eq 1 ]]; then
    packages+=("${LARGE_EXTRA_PACKAGES[@]}")
    [[ $max_documents_set -eq 1 ]] || max_documents=40000
    [[ $max_download_set -eq 1 ]] || max_download_mb=600
fi

[[ "$max_documents" =~ ^[0-9]+$ && "$max_documents" -gt 0 ]] \
    || die "--max-documents must be a positive integer, got '$max_documents'"
[[ "$max_download_mb" =~ ^[0-9]+$ ]] || die "--max-download-mb must be an integer, got '$max_download_mb'"
[[ "$interval" =~ ^[0-9]+$ ]] || die "--interval must be a whole number of seconds, got '$interval'"
[[ "$seed" =~ ^[0-9A-Za-z_.-]+$ ]] || die "--seed must be a word, got '$seed'"
[[ "$max_bytes" =~ ^([0-9]+)([kKmMgG]?)$ ]] || die "--max-bytes: not a size: '$max_bytes'"
case "${BASH_REMATCH[2]}" in
    [kK]) max_bytes_n=$(( BASH_REMATCH[1] * 1024 )) ;;
    [mM]) max_bytes_n=$(( BASH_REMATCH[1] * 1024 * 1024 )) ;;
    [gG]) max_bytes_n=$(( BASH_REMATCH[1] * 1024 * 1024 * 1024 )) ;;
    *) max_bytes_n=$(( BASH_REMATCH[1] )) ;;
esac
[[ "$max_bytes_n" -gt 0 ]] || die "--max-bytes must be positive"
for p in "${packages[@]}"; do
    [[ "$p" =~ ^[a-z0-9][a-z0-9+.-]+$ ]] || die "not a Debian package name: '$p'"
done

for tool in dpkg-deb python3; do
    command -v "$tool" >/dev/null || die "$tool not found (this script needs a Debian-based system)"
done
if [[ $offline -eq 0 ]]; then
    for tool in apt-get apt-cache; do
        command -v "$tool" >/dev/null || die "$tool not found (this script needs a Debian-based system)"
    done
fi

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out_dir="${OUT_DIR:-target/eval-corpus}"
[[ "$out_dir" = /* ]] || out_dir="$repo_root/$out_dir"
deb_dir="$out_dir/debs"
work_dir="$out_dir/work"
corpus="$out_dir/debian-docs.jsonl"
manifest="$out_dir/packages.tsv"
mkdir -p "$deb_dir"
started=$SECONDS

how_to_run() {
    cat >&2 <<EOF
build-debian-corpus: as a user that is not root, refresh apt's package lists first and skip the
update here (downloading and unpacking need no root):
    sudo apt-get update && $0 --no-update
or run the whole script as root:
    sudo OUT_DIR="$out_dir" $0
EOF
}

# --- 1. package lists --------------------------------------------------------------------------
if [[ $update -eq 1 ]]; then
    if [[ $(id -u) -eq 0 ]]; then
        log "apt-get update"
        apt-get update -qq >&2 || die "apt-get update failed (is Debian's archive reachable?)"
    else
        log "not root: cannot run 'apt-get update'; using apt's current package lists"
        how_to_run
    fi
fi

# --- 2. resolve versions and sizes, check the download budget ----------------------------------
declare -A deb_file=()
if [[ $offline -eq 0 ]]; then
    declare -A pkg_size=()
    # one apt-cache call for all (it takes a second or so each); missing names are just absent
    while IFS=$'\t' read -r p version arch size; do
        [[ -z "${pkg_size[$p]:-}" ]] || continue
        pkg_size[$p]="$size"
        # the name 'apt-get download' gives the file (an epoch's ':' is written '%3a')
        deb_file[$p]="${p}_${version//:/%3a}_${arch}.deb"
    done < <(apt-cache show --no-all-versions "${packages[@]}" 2>/dev/null | awk '
        /^Package:/ { p = $2 } /^Version:/ { v = $2 } /^Architecture:/ { a = $2 } /^Size:/ { s = $2 }
        /^$/ { if (p != "" && v != "" && a != "" && s != "") print p "\t" v "\t" a "\t" s; p = v = a = s = "" }
        END { if (p != "" && v != "" && a != "" && s != "") print p "\t" v "\t" a "\t" s }' || true)
    missing=()
    total_size=0
    for p in "${packages[@]}"; do
        if [[ -z "${pkg_size[$p]:-}" ]]; then
            missing+=("$p")
        else
            total_size=$(( total_size + pkg_size[$p] ))
        fi
    done
    if [[ ${#missing[@]} -gt 0 ]]; then
        log "not in apt's package lists: ${missing[*]}"
        [[ $(id -u) -eq 0 ]] || how_to_run
        die "check the names with 'apt-cache search NAME' (this Debian release may lack them)"
    fi
    log "${#packages[@]} packages, $(awk -v b="$total_size" 'BEGIN { printf "%.1f", b / 1e6 }') MB of .deb files"
    [[ $total_size -le $(( max_download_mb * 1000 * 1000 )) ]] \
        || die "the packages weigh $(( total_size / 1000000 )) MB, over --max-download-mb $max_download_mb"

    # --- 3. download what is not cached yet ----------------------------------------------------
    to_fetch=()
    for p in "${packages[@]}"; do
        [[ -s "$deb_dir/${deb_file[$p]}" ]] || to_fetch+=("$p")
    done
    if [[ ${#to_fetch[@]} -gt 0 ]]; then
        log "apt-get download ${#to_fetch[@]} package(s) into $deb_dir"
        apt_opts=(-q)
        # as root, apt drops to the _apt user, which cannot write to our directory: stay root
        [[ $(id -u) -ne 0 ]] || apt_opts+=(-o APT::Sandbox::User=root)
        if ! (cd "$deb_dir" && apt-get download "${apt_opts[@]}" "${to_fetch[@]}" >&2); then
            [[ $(id -u) -eq 0 ]] || how_to_run
            die "apt-get download failed"
        fi
    else
        log "all ${#packages[@]} .deb files already in $deb_dir"
    fi
else
    for p in "${packages[@]}"; do
        shopt -s nullglob
        found=("$deb_dir/${p}"_*.deb)
        shopt -u nullglob
        [[ ${#found[@]} -gt 0 ]] || die "--offline: no $deb_dir/${p}_*.deb"
        deb_file[$p]="$(basename "${found[-1]}")"
    done
fi
download_done=$SECONDS

# --- 4. unpack (no installation) ---------------------------------------------------------------
rm -rf "$work_dir"
mkdir -p "$work_dir"
pkg_list="$work_dir/packages.txt"
: >"$pkg_list"
for p in "${packages[@]}"; do
    deb="$deb_dir/${deb_file[$p]}"
    [[ -s "$deb" ]] || die "missing $deb after download"
    name="$(dpkg-deb -f "$deb" Package)"
    version="$(dpkg-deb -f "$deb" Version)"
    mkdir -p "$work_dir/root/$name"
    dpkg-deb -x "$deb" "$work_dir/root/$name"
    printf '%s\t%s\t%s\n' "$name" "$version" "$(stat -c %s "$deb")" >>"$pkg_list"
done
log "unpacked ${#packages[@]} packages into $work_dir/root"

# --- 5. convert to JSON Lines ------------------------------------------------------------------
python3 - "$work_dir/root" "$pkg_list" "$corpus" "$manifest" "$max_documents" "$max_bytes_n" \
    "$seed" "$start_time" "$interval" <<'PY'
import collections, datetime, gzip, json, os, random, re, sys

root, pkg_list, corpus, manifest = sys.argv[1:5]
max_documents, max_bytes = int(sys.argv[5]), int(sys.argv[6])
seed, start_time, interval = sys.argv[7], sys.argv[8], int(sys.argv[9])
MAX_FILE = 2 * 1000 * 1000
HTML = re.compile(r'\.(html?)(\.gz)?$', re.IGNORECASE)
CHARSET = re.compile(rb'<meta[^>]+charset\s*=\s*["\']?\s*([A-Za-z0-9_.:-]+)', re.IGNORECASE)

start = datetime.datetime.fromisoformat(start_time.replace('Z', '+00:00'))
if start.tzinfo is None:
    start = start.replace(tzinfo=datetime.timezone.utc)

packages = []  # (name, version, deb size)
for line in open(pkg_list, encoding='utf-8'):
    name, version, size = line.rstrip('\n').split('\t')
    packages.append((name, version, int(size)))

stats = collections.Counter()
per_pkg_files = collections.Counter()
per_pkg_docs = collections.Counter()

def resolve(pkg_root, path):
    """The regular file a path leads to inside pkg_root (absolute links are taken as installed,
    i.e. relative to pkg_root), or None when the link is dangling or leaves the package."""
    for _ in range(40):
        if not os.path.islink(path):
            break
        target = os.readlink(path)
        if target.startswith('/'):
            path = os.path.normpath(pkg_root + target)
        else:
            path = os.path.normpath(os.path.join(os.path.dirname(path), target))
    else:
        return None
    real = os.path.realpath(path)
    base = os.path.realpath(pkg_root)
    if os.path.commonpath([real, base]) != base or not os.path.isfile(real):
        return None
    return real

# Candidates, in a canonical order, then shuffled with a fixed seed: the crawl order.
candidates = []  # (id, url, path on disk, package)
for name, _, _ in packages:
    pkg_root = os.path.join(root, name)
    for dirpath, dirnames, filenames in os.walk(pkg_root):
        dirnames.sort()
        for f in sorted(filenames):
            if not HTML.search(f):
                continue
            full = os.path.join(dirpath, f)
            rel = os.path.relpath(full, pkg_root)
            per_pkg_files[name] += 1
            stats['html files found'] += 1
            if os.path.islink(full):
                stats['of them symlinks (mirrors)'] += 1
                target = resolve(pkg_root, full)
                if target is None:
                    stats['skipped: symlink dangling or outside its package'] += 1
                    continue
            else:
                target = full
            candidates.append((name + '/' + rel, 'file:///' + rel, target, name))

candidates.sort(key=lambda c: c[0])
random.Random(seed).shuffle(candidates)

def decode(raw):
    try:
        return raw.decode('utf-8').lstrip('\ufeff'), 'utf-8'
    except UnicodeDecodeError:
        pass
    # Not UTF-8: the charset the page declares (what a browser or crawler would use), else
    # ISO-8859-1, which decodes any byte sequence.
    m = CHARSET.search(raw[:4096])
    if m:
        cs = m.group(1).decode('ascii', 'replace')
        try:
            return raw.decode(cs), 'declared ' + cs.upper()
        except (LookupError, UnicodeDecodeError):
            pass
    return raw.decode('iso-8859-1'), 'ISO-8859-1'

tmp = corpus + '.tmp'
written = total_bytes = content_bytes = 0
cap_reason = None
with open(tmp, 'w', encoding='utf-8', newline='\n') as out:
    for i, (doc_id, url, path, name) in enumerate(candidates):
        if written >= max_documents:
            cap_reason = '--max-documents %d' % max_documents
            stats['not written: over the caps'] = len(candidates) - i
            break
        if os.path.getsize(path) == 0:
            stats['skipped: empty'] += 1
            continue
        with open(path, 'rb') as fh:
            raw = fh.read()
        if path.lower().endswith('.gz'):
            stats['gunzipped'] += 1
            try:
                raw = gzip.decompress(raw)
            except (OSError, EOFError):
                stats['skipped: corrupt .gz'] += 1
                continue
        if len(raw) > MAX_FILE:
            stats['skipped: over 2 MB'] += 1
            continue
        if not raw.strip():
            stats['skipped: empty'] += 1
            continue
        content, how = decode(raw)
        if how != 'utf-8':
            stats['not UTF-8, decoded as ' + how] += 1
        fetched = start + datetime.timedelta(seconds=interval * written)
        line = json.dumps({
            'id': doc_id,
            'url': url,
            'content': content,
            'contentType': 'text/html',
            'fetchedAt': fetched.strftime('%Y-%m-%dT%H:%M:%SZ'),
        }, ensure_ascii=False) + '\n'
        n = len(line.encode('utf-8'))
        if total_bytes + n > max_bytes:
            cap_reason = '--max-bytes %d' % max_bytes
            stats['not written: over the caps'] = len(candidates) - i
            break
        out.write(line)
        written += 1
        total_bytes += n
        content_bytes += len(raw)
        per_pkg_docs[name] += 1
os.replace(tmp, corpus)

with open(manifest, 'w', encoding='utf-8') as m:
    m.write('package\tversion\tdeb_bytes\thtml_files\tdocuments\n')
    for name, version, size in packages:
        m.write('%s\t%s\t%d\t%d\t%d\n' % (name, version, size, per_pkg_files[name], per_pkg_docs[name]))

e = sys.stderr
print('', file=e)
print('%-24s %-28s %9s %6s %6s' % ('package', 'version', 'deb MB', 'html', 'docs'), file=e)
for name, version, size in packages:
    print('%-24s %-28s %9.1f %6d %6d' % (name, version, size / 1e6, per_pkg_files[name],
                                          per_pkg_docs[name]), file=e)
print('', file=e)
print('packages:            %d (%.1f MB of .deb files)' % (len(packages), sum(p[2] for p in packages) / 1e6), file=e)
print('html files found:    %d' % stats['html files found'], file=e)
for k in sorted(stats):
    if k != 'html files found':
        print('  %-40s %d' % (k + ':', stats[k]), file=e)
print('documents written:   %d%s' % (written, ' (capped by %s)' % cap_reason if cap_reason else ''), file=e)
print('total bytes:         %d (%.1f MB of JSON Lines; %.1f MB of HTML)' % (total_bytes, total_bytes / 1e6, content_bytes / 1e6), file=e)
print('mean size:           %.0f bytes of HTML per document' % (content_bytes / written if written else 0), file=e)
print('crawl order:         seed %s, fetchedAt %s .. %s' % (
    seed, start.strftime('%Y-%m-%dT%H:%M:%SZ'),
    (start + datetime.timedelta(seconds=interval * max(written - 1, 0))).strftime('%Y-%m-%dT%H:%M:%SZ')), file=e)
PY

if [[ $keep_work -eq 0 ]]; then
    rm -rf "$work_dir"
fi
shown="$corpus"
[[ "$corpus" != "$repo_root/"* ]] || shown="${corpus#"$repo_root/"}"
echo "time:                $(( SECONDS - started )) s ($(( download_done - started )) s apt, $(( SECONDS - download_done )) s unpack + convert)" >&2
echo "manifest:            ${manifest#"$repo_root/"}" >&2
echo "output:              $shown" >&2
echo "$corpus"
