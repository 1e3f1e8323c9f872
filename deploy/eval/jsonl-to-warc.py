#!/usr/bin/env python3
# Writes the documents of a JSON Lines crawl as a WARC file (one gzip member per record), as a
# crawler would: a request and a response per page, the HTTP bodies in turn plain, chunked and
# gzip-encoded. The same pages as WARC and as JSON Lines, to check that neardup reads both alike.
#
# Usage: jsonl-to-warc.py INPUT.jsonl OUTPUT.warc.gz [SAME.jsonl]
# Each document's URL is its id when that is a URL, else https://docs.example/ID; a WARC document's
# id is its URL (the target URI), so SAME.jsonl, if given, gets the same pages as JSON Lines with
# those URLs as ids: the two files hold the same documents.
import gzip, io, json, sys, uuid
src, dst = sys.argv[1], sys.argv[2]
out = open(dst, 'wb')
same = open(sys.argv[3], 'w', encoding='utf-8') if len(sys.argv) > 3 else None
def rec(typ, url, date, block, ctype):
    h = (f"WARC/1.1\r\nWARC-Type: {typ}\r\nWARC-Record-ID: <urn:uuid:{uuid.uuid4()}>\r\n"
         f"WARC-Date: {date}\r\nWARC-Target-URI: {url}\r\nContent-Type: {ctype}\r\n"
         f"Content-Length: {len(block)}\r\n\r\n")
    out.write(gzip.compress(h.encode() + block + b"\r\n\r\n", compresslevel=6))
def chunked(b, size=8192):
    o = io.BytesIO()
    for i in range(0, len(b), size):
        c = b[i:i+size]; o.write(b"%x\r\n" % len(c)); o.write(c); o.write(b"\r\n")
    o.write(b"0\r\n\r\n"); return o.getvalue()
n = 0
skipped = 0
for line in open(src, encoding='utf-8', errors='replace'):
    try:
        d = json.loads(line)
        ok = (isinstance(d, dict) and isinstance(d.get('id'), str)
              and isinstance(d.get('content'), str) and isinstance(d.get('fetchedAt'), str))
    except ValueError:
        ok = False
    if not ok:  # not a dated document: nothing a crawler would have written
        skipped += 1
        continue
    url = d['id'] if '://' in d['id'] else 'https://docs.example/' + d['id']
    date = d['fetchedAt']
    if same:
        same.write(json.dumps({"id": url, "url": url, "content": d['content'],
                               "contentType": d.get('contentType'), "fetchedAt": date},
                              ensure_ascii=False) + "\n")
    body = d['content'].encode('utf-8')
    ct = (d.get('contentType') or 'text/html') + '; charset=utf-8'
    rec('request', url, date, b"GET / HTTP/1.1\r\nHost: docs.example\r\n\r\n", 'application/http; msgtype=request')
    k = n % 3
    if k == 0:
        http = b"HTTP/1.1 200 OK\r\nContent-Type: " + ct.encode() + b"\r\nContent-Length: %d\r\n\r\n" % len(body) + body
    elif k == 1:
        http = b"HTTP/1.1 200 OK\r\nContent-Type: " + ct.encode() + b"\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked(body)
    else:
        z = gzip.compress(body)
        http = b"HTTP/1.1 200 OK\r\nContent-Type: " + ct.encode() + b"\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n" % len(z) + z
    rec('response', url, date, http, 'application/http; msgtype=response')
    n += 1
out.close()
if same:
    same.close()
print(f"jsonl-to-warc: {n} pages, {skipped} lines that are no dated documents left out",
      file=sys.stderr)
