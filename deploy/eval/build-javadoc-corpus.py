#!/usr/bin/env python3
"""Builds a crawl-like corpus of real API documentation pages from javadoc jars on Maven Central:
several releases of the same libraries, so that most pages have template near-copies (the same
class page one release later, sibling pages of one generator). It is the second kind of real
crawl neardup is measured on, beside the Debian manuals (build-debian-corpus.sh): pages of one
site whose near-copies crowd around any threshold.

Usage: build-javadoc-corpus.py [--out FILE] [--cache DIR] [--seed N] [--start-time ISO]
                               [--interval SECONDS] [--artifacts "G:A:V G:A:V ..."]

  --out FILE          the corpus (default target/eval-corpus/javadoc.jsonl)
  --cache DIR         where the downloaded jars are kept and reused (default
                      target/eval-corpus/javadoc-jars)
  --seed N            seed of the crawl-order shuffle within each release (default 20261128); the
                      same seed and artifacts give a byte-identical corpus
  --start-time ISO    fetchedAt of the first page (default 2026-10-01T10:00:00Z)
  --interval SECONDS  fetchedAt step between consecutive pages (default 2)
  --artifacts LIST    replace the default releases (group:artifact:version, space-separated)

Each .html page of each javadoc jar becomes one JSON object per line: id
"group:artifact:version/path", url "https://javadoc.io/static/group/artifact/version/path" (where
javadoc.io serves the same jar), content the page as UTF-8, contentType text/html, fetchedAt. The
releases are crawled one after the other in the order given (an older release is fetched
earlier), the pages of one release in a shuffled order. Python 3 standard library only; it
downloads from https://repo1.maven.org/maven2 (about 30 MB with the default releases).
"""

import argparse
import datetime
import json
import os
import random
import sys
import urllib.request
import zipfile

DEFAULT_ARTIFACTS = [
    # two releases of a large API: most class pages change a little between them
    "com.google.guava:guava:32.1.3-jre",
    "com.google.guava:guava:33.0.0-jre",
    # four releases of a small one: many pages are unchanged or nearly so
    "org.apache.commons:commons-lang3:3.11",
    "org.apache.commons:commons-lang3:3.12.0",
    "org.apache.commons:commons-lang3:3.13.0",
    "org.apache.commons:commons-lang3:3.14.0",
    # three releases of another generator version's pages
    "commons-io:commons-io:2.11.0",
    "commons-io:commons-io:2.13.0",
    "commons-io:commons-io:2.15.1",
    # two releases of a third library
    "com.fasterxml.jackson.core:jackson-databind:2.15.0",
    "com.fasterxml.jackson.core:jackson-databind:2.16.0",
]

REPOSITORY = "https://repo1.maven.org/maven2"


def jar(cache, coordinate):
    group, artifact, version = coordinate.split(":")
    name = f"{artifact}-{version}-javadoc.jar"
    path = os.path.join(cache, name)
    if not os.path.exists(path):
        url = f"{REPOSITORY}/{group.replace('.', '/')}/{artifact}/{version}/{name}"
        print(f"build-javadoc-corpus: downloading {url}", file=sys.stderr)
        with urllib.request.urlopen(url, timeout=120) as r, open(path + ".part", "wb") as f:
            f.write(r.read())
        os.replace(path + ".part", path)
    return path


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default="target/eval-corpus/javadoc.jsonl")
    p.add_argument("--cache", default="target/eval-corpus/javadoc-jars")
    p.add_argument("--seed", type=int, default=20261128)
    p.add_argument("--start-time", default="2026-10-01T10:00:00Z")
    p.add_argument("--interval", type=int, default=2)
    p.add_argument("--artifacts", default=" ".join(DEFAULT_ARTIFACTS))
    a = p.parse_args()
    os.makedirs(a.cache, exist_ok=True)
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    time = datetime.datetime.fromisoformat(a.start_time.replace("Z", "+00:00"))
    rng = random.Random(a.seed)
    pages = 0
    with open(a.out, "w", encoding="utf-8") as out:
        for coordinate in a.artifacts.split():
            group, artifact, version = coordinate.split(":")
            with zipfile.ZipFile(jar(a.cache, coordinate)) as z:
                names = sorted(n for n in z.namelist() if n.endswith(".html"))
                rng.shuffle(names)
                for name in names:
                    content = z.read(name).decode("utf-8", errors="replace")
                    doc = {
                        "id": f"{coordinate}/{name}",
                        "url": f"https://javadoc.io/static/{group}/{artifact}/{version}/{name}",
                        "content": content,
                        "contentType": "text/html",
                        "fetchedAt": time.strftime("%Y-%m-%dT%H:%M:%SZ"),
                    }
                    out.write(json.dumps(doc, ensure_ascii=False) + "\n")
                    time += datetime.timedelta(seconds=a.interval)
                    pages += 1
            print(f"build-javadoc-corpus: {coordinate}: {len(names)} pages", file=sys.stderr)
    print(f"build-javadoc-corpus: {pages} pages in {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
