#!/usr/bin/env python3
"""Writes the documents of a JSON Lines crawl as the WARC file a crawler would write, and the same
pages as JSON Lines, to check that neardup reads both alike.

Usage: jsonl-to-warc.py INPUT.jsonl OUTPUT.warc.gz [SAME.jsonl]
                        [--wet OUTPUT.warc.wet.gz WET-SAME.jsonl] [--non-pages FILE.tsv]
                        [--pages-only] [--seed N]

The WARC (WARC/1.1, one gzip member per record) is what Heritrix writes: a warcinfo record first,
then per page a request and a response record, a metadata record (outlinks) after every fourth
response. The HTTP bodies are in turn plain, chunked and gzip-encoded. A page whose text fits in
ISO-8859-1 or windows-1252 is, every second one, sent in that charset, named only in the HTTP
Content-Type (a <meta charset> or XML encoding declaration is taken out of the page, in both files).
Among the pages come captures that are not pages and that neardup must skip: images (PNG, JPEG,
GIF without a Content-Type), PDFs (one without a Content-Type), fonts, scripts (text/javascript,
the same at every URL), 404 and 500 responses
whose HTML body is a copy of an earlier page (so that, read, they would be duplicates), 301
redirects, dns: records, identical-payload revisits of earlier pages (request + revisit record,
no payload) and server-not-modified revisits. --pages-only leaves out all of these and the
metadata records (then it is the plain request + response archive).

SAME.jsonl gets the pages only, as JSON Lines: id and url the page's URL (a WARC document's id is
its WARC-Target-URI), the same text (after the meta charset is taken out), contentType and
fetchedAt. Each document's URL is its id when that is a URL, else https://docs.example/ID
(percent-encoded).

--wet writes the WET of the same crawl, as Common Crawl's: a warcinfo record, then one conversion
record per page (Content-Type text/plain, the page's text as Python's html.parser sees it, in
UTF-8, WARC-Refers-To the response), and WET-SAME.jsonl that text as JSON Lines with contentType
text/plain. --non-pages writes one line per capture that is no page: URL, kind, and the reason
neardup's run summary counts it under. The same input and seed give byte-identical files.
"""
import argparse, base64, gzip, hashlib, html.parser, io, json, random, re, struct, sys, uuid, zlib
from urllib.parse import quote
from collections import Counter
from datetime import datetime, timedelta

ap = argparse.ArgumentParser(description=__doc__,
                             formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument('input')
ap.add_argument('output')
ap.add_argument('same', nargs='?')
ap.add_argument('--wet', nargs=2, metavar=('OUTPUT_WET', 'WET_SAME'))
ap.add_argument('--non-pages', metavar='FILE')
ap.add_argument('--pages-only', action='store_true')
ap.add_argument('--seed', type=int, default=20261127)
args = ap.parse_args()
rnd = random.Random(args.seed)
HOST = 'docs.example'
PROFILE = 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest'
NOT_MODIFIED = 'http://netpreserve.org/warc/1.1/revisit/server-not-modified'


def new_id():
    return f"<urn:uuid:{uuid.UUID(int=rnd.getrandbits(128), version=4)}>"


def sha1(b):
    return 'sha1:' + base64.b32encode(hashlib.sha1(b).digest()).decode()


class Warc:
    """One WARC file, one gzip member per record, with counts per record kind."""

    def __init__(self, path):
        self.out = open(path, 'wb')
        self.kinds = Counter()

    def record(self, kind, typ, block, ctype, url=None, date=None, **fields):
        rid = new_id()
        h = f"WARC/1.1\r\nWARC-Type: {typ}\r\nWARC-Record-ID: {rid}\r\nWARC-Date: {date}\r\n"
        if url:
            h += f"WARC-Target-URI: {url}\r\n"
        for k, v in fields.items():
            h += f"{k.replace('_', '-')}: {v}\r\n"
        h += (f"WARC-Block-Digest: {sha1(block)}\r\nContent-Type: {ctype}\r\n"
              f"Content-Length: {len(block)}\r\n\r\n")
        self.out.write(gzip.compress(h.encode() + block + b"\r\n\r\n", compresslevel=6, mtime=0))
        self.kinds[kind] += 1
        return rid

    def close(self):
        self.out.close()


def chunked(b, size=8192):
    o = io.BytesIO()
    for i in range(0, len(b), size):
        c = b[i:i + size]
        o.write(b"%x\r\n" % len(c) + c + b"\r\n")
    o.write(b"0\r\n\r\n")
    return o.getvalue()


def http_response(status, headers, body, coding='plain'):
    """The HTTP message as on the wire, and the payload digest (after chunking, before gzip)."""
    heads = [f"Date: {http_date}", "Server: Apache/2.4.62 (Debian)"] + headers
    if coding == 'gzip':
        body = gzip.compress(body, mtime=0)
        heads.append("Content-Encoding: gzip")
    if coding == 'chunked':
        heads.append("Transfer-Encoding: chunked")
        wire = chunked(body)
    else:
        heads.append(f"Content-Length: {len(body)}")
        wire = body
    msg = f"HTTP/1.1 {status}\r\n" + "".join(h + "\r\n" for h in heads) + "\r\n"
    return msg.encode('latin-1') + wire, sha1(body)


def request(url, date):
    path = url.split(HOST, 1)[1] if HOST in url else '/'
    block = (f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nUser-Agent: Mozilla/5.0 (compatible; "
             f"heritrix/3.4.0 +https://docs.example/crawler)\r\nAccept: text/html,*/*\r\n\r\n")
    warc.record('request', 'request', block.encode('latin-1'), 'application/http; msgtype=request',
                url, date)


def capture(kind, url, date, status, headers, body, coding='plain', **fields):
    """A request and a response record; returns the response's record id and payload digest."""
    request(url, date)
    http, digest = http_response(status, headers, body, coding)
    rid = warc.record(kind, 'response', http, 'application/http; msgtype=response', url, date,
                      WARC_IP_Address='192.0.2.10', WARC_Payload_Digest=digest, **fields)
    return rid, digest


# Small real files of the kinds a crawl holds besides pages.
def png(w=16, h=16):
    rows = (b'\0' + bytes(v for x in range(w) for v in (x * 16, y * 16, 128)) for y in range(h))
    raw = b''.join(rows)
    chunk = lambda t, d: struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))
            + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))


def jpeg():
    """A baseline 8x8 grey JPEG: one block, DC difference 0 and end of block, one-code tables."""
    seg = lambda m, d: b'\xff' + bytes([m]) + struct.pack('>H', len(d) + 2) + d
    return (b'\xff\xd8' + seg(0xe0, b'JFIF\0\x01\x01\0\0\x01\0\x01\0\0')
            + seg(0xdb, b'\0' + b'\x01' * 64)
            + seg(0xc0, b'\x08\0\x08\0\x08\x01\x01\x11\0')
            + seg(0xc4, b'\x00' + b'\x01' + b'\0' * 15 + b'\x00')  # DC: one 1-bit code, size 0
            + seg(0xc4, b'\x10' + b'\x01' + b'\0' * 15 + b'\x00')  # AC: one 1-bit code, EOB
            + seg(0xda, b'\x01\x01\x00\x00\x3f\x00') + b'\x3f' + b'\xff\xd9')


GIF = base64.b64decode('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7')
PDF = (b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n"
       b"2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n"
       b"3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
       b"/Resources << /Font << /F1 5 0 R >> >> >> endobj\n"
       b"4 0 obj << /Length 68 >> stream\nBT /F1 18 Tf 72 720 Td (Debian documentation, "
       b"printable version) Tj ET\nendstream endobj\n"
       b"5 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj\n"
       b"trailer << /Root 1 0 R /Size 6 >>\n%%EOF\n")
TTF = struct.pack('>IHHHH', 0x00010000, 1, 16, 0, 0) + b'head' + struct.pack('>III', 0, 28, 54) \
    + bytes(rnd.getrandbits(8) for _ in range(54))
SCRIPT = b''.join(b"function highlight%d(node, text) {\n  var span = document.createElement("
                  b"'span');\n  span.className = 'highlighted';\n  span.appendChild(document."
                  b"createTextNode(text));\n  return node.parentNode.insertBefore(span, node."
                  b"nextSibling);\n}\n" % i for i in range(40))
MOVED = (b"<!DOCTYPE HTML PUBLIC \"-//IETF//DTD HTML 2.0//EN\">\n<html><head>\n<title>301 Moved "
         b"Permanently</title>\n</head><body>\n<h1>Moved Permanently</h1>\n<p>The document has "
         b"moved <a href=\"%s\">here</a>.</p>\n<hr>\n<address>Apache/2.4.62 (Debian) Server at "
         b"docs.example Port 443</address>\n</body></html>\n")

META_CHARSET = re.compile(r'<meta\s[^>]*?charset\s*=[^>]*>\s*'
                          r'|^\s*<\?xml\s[^>]*?encoding[^>]*\?>\s*', re.I)
HREF = re.compile(r'href="([^"#]+)"')


class Text(html.parser.HTMLParser):
    """The text of a page, a line per block, as a WET holds it."""
    SKIP = {'script', 'style', 'noscript', 'template'}
    BLOCK = {'p', 'div', 'br', 'li', 'tr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'title',
             'dt', 'dd', 'table', 'section', 'blockquote', 'ul', 'ol', 'hr', 'td', 'th'}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        self.skip += tag in self.SKIP
        if tag in self.BLOCK:
            self.parts.append('\n')

    def handle_endtag(self, tag):
        self.skip -= tag in self.SKIP and self.skip > 0
        if tag in self.BLOCK:
            self.parts.append('\n')

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)

    def text(self):
        lines = (' '.join(l.split()) for l in ''.join(self.parts).split('\n'))
        return '\n'.join(l for l in lines if l)


def page_text(content):
    p = Text()
    p.feed(content)
    p.close()
    return p.text()


def single_byte(content):
    """The single-byte charset the page fits in: ISO-8859-1, else windows-1252, else None."""
    if content.isascii():
        return None
    if not re.search('[\x80-\x9f]', content):
        try:
            content.encode('latin-1')
            return 'ISO-8859-1'
        except UnicodeEncodeError:
            pass
    try:
        content.encode('cp1252')
        return 'windows-1252'
    except UnicodeEncodeError:
        return None


def ts(dt):
    return dt.strftime('%Y-%m-%dT%H:%M:%SZ')


warc = Warc(args.output)
same = open(args.same, 'w', encoding='utf-8') if args.same else None
wet = Warc(args.wet[0]) if args.wet else None
wet_same = open(args.wet[1], 'w', encoding='utf-8') if args.wet else None
non_pages = open(args.non_pages, 'w', encoding='utf-8') if args.non_pages else None
info = (f"software: jsonl-to-warc.py (neardup deploy/eval)\r\nformat: WARC File Format 1.1\r\n"
        f"conformsTo: http://iipc.github.io/warc-specifications/specifications/warc-format/"
        f"warc-1.1/\r\nisPartOf: debian-docs\r\ndescription: {args.input} as a crawl\r\n"
        f"robots: ignore\r\n").encode()
http_date = 'Sat, 21 Nov 2026 10:00:00 GMT'
started = False
pages = charsets = skipped = 0
per_charset = Counter()
recent = []  # (url, date, record id, digest, body bytes) of the last pages, for copies and revisits


def no_page(kind, reason, url, date, status, headers, body, coding='plain', **fields):
    capture(kind, url, date, status, headers, body, coding, **fields)
    if non_pages:
        non_pages.write(f"{url}\t{kind}\t{reason}\n")


def extras(n, url, date):
    """The captures that are no pages, after page n (fetched at date)."""
    at = ts(date + timedelta(seconds=1))
    base = url.rsplit('/', 1)[0] if url.startswith('https://') else f"https://{HOST}/x"
    if n % 500 == 250:
        warc.record('response (dns:)', 'response',
                    f"{ts(date)}\n{HOST}.\t3600\tIN\tA\t192.0.2.10\n".encode(), 'text/dns',
                    f"dns:{HOST}", at, WARC_IP_Address='192.0.2.53')
        if non_pages:
            non_pages.write(f"dns:{HOST}\tdns\tnot_http\n")
    if n % 25 == 12 and len(recent) > 400:  # the page captured again, the same payload
        u, d, rid, digest, _ = recent[-400]
        request(u, at)
        heads = (f"HTTP/1.1 200 OK\r\nDate: {http_date}\r\nServer: Apache/2.4.62 (Debian)\r\n"
                 f"Content-Type: text/html; charset=utf-8\r\n\r\n").encode()
        warc.record('revisit (identical payload)', 'revisit', heads,
                    'application/http; msgtype=response', u, at, WARC_Profile=PROFILE,
                    WARC_Refers_To=rid, WARC_Refers_To_Target_URI=u, WARC_Refers_To_Date=d,
                    WARC_Payload_Digest=digest, WARC_Truncated='length')
        if non_pages:
            non_pages.write(f"{u}\trevisit\tidentical_revisit\n")
    if n % 250 == 137 and len(recent) > 100:  # a conditional GET answered 304
        u, d, rid, _, _ = recent[-100]
        request(u, at)
        heads = f"HTTP/1.1 304 Not Modified\r\nDate: {http_date}\r\n\r\n".encode()
        warc.record('revisit (server not modified)', 'revisit', heads,
                    'application/http; msgtype=response', u, at, WARC_Profile=NOT_MODIFIED,
                    WARC_Refers_To=rid, WARC_Refers_To_Target_URI=u, WARC_Refers_To_Date=d)
        if non_pages:
            non_pages.write(f"{u}\trevisit 304\trevisit_not_identical\n")
    if n % 20 != 10 or len(recent) < 10:
        return
    k = (n // 20) % 12
    copy = recent[-7][4]  # the body of an earlier page: read, a 404 or 500 would be its duplicate
    stem = f"{base}/_capture{n}"
    if k == 0:
        no_page('image/png', 'not_text', stem + '.png', at, '200 OK', ["Content-Type: image/png"],
                png())
    elif k == 1:
        no_page('image/jpeg', 'not_text', stem + '.jpg', at, '200 OK', ["Content-Type: image/jpeg"],
                jpeg(), 'chunked')
    elif k == 2:
        no_page('image/gif, no Content-Type', 'not_text', stem + '.gif', at, '200 OK', [], GIF)
    elif k == 3:
        no_page('application/pdf', 'not_text', stem + '.pdf', at, '200 OK',
                ["Content-Type: application/pdf"], PDF)
    elif k == 4:
        no_page('pdf, no Content-Type', 'not_text', stem + '-print.pdf', at, '200 OK', [], PDF)
    elif k == 5:
        no_page('font/ttf', 'not_text', stem + '.ttf', at, '200 OK', ["Content-Type: font/ttf"],
                TTF, 'gzip')
    elif k == 6:
        no_page('404, copy of a page', 'http_status', stem + '.html', at, '404 Not Found',
                ["Content-Type: text/html; charset=utf-8"], copy)
    elif k == 7:
        no_page('500, copy of a page', 'http_status', stem + '.html', at,
                '500 Internal Server Error', ["Content-Type: text/html; charset=utf-8"], copy,
                'chunked')
    elif k == 8:
        target = recent[-3][0]
        no_page('301', 'http_status', stem + '/', at, '301 Moved Permanently',
                [f"Location: {target}", "Content-Type: text/html; charset=iso-8859-1"],
                MOVED % target.encode())
    elif k == 9:  # Common Crawl names the type it sniffed; the server said text/html
        no_page('image/jpeg served as text/html', 'not_text', stem + '.html', at, '200 OK',
                ["Content-Type: text/html"], jpeg(), WARC_Identified_Payload_Type='image/jpeg')
    elif k == 10:
        no_page('application/octet-stream', 'not_text', stem + '.bin', at, '200 OK',
                ["Content-Type: application/octet-stream"], png(), 'gzip')
    else:  # the same script under every manual, as Sphinx installs it
        no_page('text/javascript', 'not_text', f"{base}/_static/doctools.js", at, '200 OK',
                ["Content-Type: text/javascript; charset=utf-8"], SCRIPT, 'gzip')


for line in open(args.input, encoding='utf-8', errors='replace'):
    try:
        d = json.loads(line)
        ok = (isinstance(d, dict) and isinstance(d.get('id'), str)
              and isinstance(d.get('content'), str) and isinstance(d.get('fetchedAt'), str))
    except ValueError:
        ok = False
    if not ok:  # not a dated document: nothing a crawler would have written
        skipped += 1
        continue
    url = d['id'] if '://' in d['id'] else f"https://{HOST}/" + quote(d['id'], "/~!$&'()*+,;=:@")
    date = d['fetchedAt']
    dt = datetime.fromisoformat(date.replace('Z', '+00:00'))
    http_date = dt.strftime('%a, %d %b %Y %H:%M:%S GMT')
    if not started:
        warc.record('warcinfo', 'warcinfo', info, 'application/warc-fields', date=date,
                    WARC_Filename=args.output.rsplit('/', 1)[-1])
        if wet:
            wet.record('warcinfo', 'warcinfo', info.replace(b'1.1', b'1.0', 1)
                       + b"description: the text of the pages, as WET\r\n",
                       'application/warc-fields', date=date,
                       WARC_Filename=args.wet[0].rsplit('/', 1)[-1])
        started = True
    content = d['content']
    ctype = d.get('contentType') or 'text/html'
    charset = None if args.pages_only or pages % 2 else single_byte(content)
    if charset:  # named in the HTTP header only
        content = META_CHARSET.sub('', content)
        charset = single_byte(content)
    if charset:
        body = content.encode('cp1252' if charset == 'windows-1252' else 'latin-1')
        charsets += 1
        per_charset[charset] += 1
    else:
        body = content.encode('utf-8')
        charset = 'utf-8'
    if same:
        same.write(json.dumps({"id": url, "url": url, "content": content, "contentType": ctype,
                               "fetchedAt": date}, ensure_ascii=False) + "\n")
    coding = ('plain', 'chunked', 'gzip')[pages % 3]
    rid, digest = capture('response (page)', url, date, '200 OK',
                          [f"Content-Type: {ctype}; charset={charset}",
                           f"Last-Modified: {http_date}"], body, coding)
    if not args.pages_only and pages % 4 == 0:  # Heritrix's metadata record: how it got there
        links = ''.join(f"outlink: {l} L a/@href\r\n" for l in HREF.findall(content)[:20])
        meta = f"hopsFromSeed: L\r\nfetchTimeMs: {rnd.randint(5, 400)}\r\n{links}".encode()
        warc.record('metadata', 'metadata', meta, 'application/warc-fields', url, date,
                    WARC_Concurrent_To=rid)
    if wet:
        text = page_text(content)
        if text:
            t = text.encode('utf-8')
            wet.record('conversion', 'conversion', t, 'text/plain', url, date, WARC_Refers_To=rid)
            wet_same.write(json.dumps({"id": url, "url": url, "content": text,
                                       "contentType": "text/plain", "fetchedAt": date},
                                      ensure_ascii=False) + "\n")
    recent.append((url, date, rid, digest, body if charset == 'utf-8' else content.encode()))
    del recent[:-500]
    pages += 1
    if not args.pages_only:
        extras(pages, url, dt)

for f in (warc, same, wet, wet_same, non_pages):
    if f:
        f.close()
print(f"jsonl-to-warc: {pages} pages, {skipped} lines that are no dated documents left out;"
      f" {charsets} pages sent as "
      f"{', '.join(f'{c} {k}' for k, c in sorted(per_charset.items())) or 'a single-byte charset'}",
      file=sys.stderr)
print(f"{args.output}: {sum(warc.kinds.values())} records", file=sys.stderr)
for k, c in warc.kinds.most_common():
    print(f"  {c:7d}  {k}", file=sys.stderr)
if wet:
    print(f"{args.wet[0]}: {sum(wet.kinds.values())} records", file=sys.stderr)
    for k, c in wet.kinds.most_common():
        print(f"  {c:7d}  {k}", file=sys.stderr)
