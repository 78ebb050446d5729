#!/usr/bin/python3
"""Times the dashboard's pages over a store of N records (default 1,000,000) in one zone.

A page whose filter or sort needs an index not built yet answers at once with a notice and
reloads itself (each second) until the index is ready; the script follows those reloads and
prints the first answer's time, the time until the records came and the slowest reload.

Starts `larder serve --data DIR` once to create the store and the schema (one records/modify),
stops it, inserts N `Batch` rows straight into the emulator's SQLite (the same column shapes the
store writes, copied from that first record), restarts the server and fetches each page kind,
printing its time. Nothing is committed: the store lives in a temporary folder that is removed.

Usage: scripts/dashboard-bench.py [--larder .build/release/larder] [--records 1000000]
"""
import argparse
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request
import base64

CONTAINER = "iCloud.com.example.larder"
API = "be" * 32
WEB = "bench+alice/token="
OWNER = "_a11ce"


def serve(larder, work):
    config = os.path.join(work, "config.json")
    with open(config, "w") as file:
        json.dump({"containers": [CONTAINER], "apiTokens": [API], "adminToken": "ad" * 32,
                   "users": [{"userRecordName": OWNER, "webAuthToken": WEB, "firstName": "Alice"}]}, file)
    process = subprocess.Popen([larder, "serve", "--port", "0", "--data", os.path.join(work, "data"),
                                "--config", config], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return process, process.stdout.readline().strip()


def stop(process):
    process.send_signal(signal.SIGINT)
    process.wait(timeout=60)


def seed(base):
    query = urllib.parse.urlencode({"ckAPIToken": API, "ckWebAuthToken": WEB})
    body = {"operations": [{"operationType": "forceReplace", "record": {
        "recordName": "seed", "recordType": "Batch",
        "fields": {"title": {"value": "seed"}, "rank": {"value": -1}}}}]}
    request = urllib.request.Request(
        "%s/database/1/%s/development/private/records/modify?%s" % (base, CONTAINER, query),
        data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST")
    urllib.request.urlopen(request).read()


def bulk_insert(path, count):
    """N rows like the seed record, in one transaction, with a recursive CTE (seconds, not minutes)."""
    db = sqlite3.connect(path)
    seed_row = db.execute("SELECT zoneId, changeSeq, createdAt, createdBy, createdDevice FROM record "
                          "WHERE name = 'seed'").fetchone()
    zone, sequence, stamp, user, device = seed_row
    started = time.time()
    db.execute("BEGIN")
    db.execute("""
        WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? - 1)
        INSERT INTO record (zoneId, name, type, changeTag, changeSeq, isDeleted, fields, createdAt, createdBy,
                            createdDevice, modifiedAt, modifiedBy, modifiedDevice)
        SELECT ?, printf('batch-%07d', i), 'Batch', printf('t%d', i), ? + 1 + i, 0,
               json_object('title', json_object('value', printf('Batch item %07d', i), 'type', 'STRING'),
                           'rank', json_object('value', i, 'type', 'INT64')),
               ? + i, ?, ?, ? + i, ?, ? FROM n""",
               (count, zone, sequence, stamp, user, device, stamp, user, device))
    db.execute("UPDATE zone SET changeSeq = ? WHERE id = ?", (sequence + count, zone))
    db.execute("UPDATE counter SET value = value + ? WHERE name = 'databaseSeq'", (count,))
    db.commit()
    db.execute("ANALYZE")
    db.close()
    return zone, time.time() - started


def timed(base, path):
    started = time.time()
    with urllib.request.urlopen(base + path, timeout=600) as answer:
        body = answer.read().decode()
    return time.time() - started, body


def next_link(body):
    marker = body.find('" id="next-page"')
    start = body.rfind('href="', 0, marker) + len('href="')
    return body[start:marker].replace("&amp;", "&")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--larder", default=".build/release/larder")
    parser.add_argument("--records", type=int, default=1_000_000)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="dashboard-bench-")
    try:
        process, base = serve(args.larder, work)
        seed(base)
        stop(process)
        zone, seconds = bulk_insert(os.path.join(work, "data", "emulator.sqlite"), args.records)
        print("inserted %d records in %.1f s" % (args.records, seconds))
        process, base = serve(args.larder, work)
        ui = "/_emulator/ui"
        z = "zone=%d" % zone
        pages = [
            ("zones", ui + "/"),
            ("records, all types, first page", ui + "/zone?" + z),
            ("records, all types, after batch-0999000", ui + "/zone?" + z + "&after=batch-0999000"),
            ("records of type Batch, first page", ui + "/zone?" + z + "&type=Batch"),
            ("filter rank >= 999950 (first time: builds the field index)",
             ui + "/zone?" + z + "&type=Batch&field=rank&cmp=GREATER_THAN_OR_EQUALS&value=999950"),
            ("filter rank >= 500000 (index exists)",
             ui + "/zone?" + z + "&type=Batch&field=rank&cmp=GREATER_THAN_OR_EQUALS&value=500000"),
            ("sort by rank descending", ui + "/zone?" + z + "&type=Batch&sort=rank&desc=1"),
            ("filter title BEGINS_WITH 'Batch item 09999' (first time: index)",
             ui + "/zone?" + z + "&type=Batch&field=title&cmp=BEGINS_WITH&value=Batch+item+09999"),
            ("filter title BEGINS_WITH 'Batch item 05555' (index exists)",
             ui + "/zone?" + z + "&type=Batch&field=title&cmp=BEGINS_WITH&value=Batch+item+05555"),
            ("sort by title (index exists)", ui + "/zone?" + z + "&type=Batch&sort=title"),
            ("sort by ___modTime descending, 200 per page (first time: index)",
             ui + "/zone?" + z + "&type=Batch&sort=___modTime&desc=1&size=200"),
            ("sort by ___modTime descending, 200 per page (index exists)",
             ui + "/zone?" + z + "&type=Batch&sort=___modTime&desc=1&size=200&value=again"),
            ("record page", ui + "/record?" + z + "&name=batch-0500000"),
            ("change feed, newest", ui + "/changes?" + z),
            ("change feed, before change 500000", ui + "/changes?" + z + "&before=500000"),
        ]
        results = []
        for name, path in pages:
            seconds, body = timed(base, path)
            results.append((name, seconds))
            if 'id="indexing"' not in body:
                print("%-62s %7.3f s" % (name, seconds), flush=True)
                continue
            # The page said its index is being built and reloads itself: follow it as a browser
            # would, timing each reload, until the records come.
            started, reloads, slowest = time.time() - seconds, 0, seconds
            while 'id="indexing"' in body:
                time.sleep(1)
                reload_seconds, body = timed(base, path)
                reloads, slowest = reloads + 1, max(slowest, reload_seconds)
            print("%-62s %7.3f s (index notice; records after %.1f s, %d reloads, slowest %.3f s)"
                  % (name, seconds, time.time() - started, reloads, slowest), flush=True)
        # The deepest typed page: the next-page marker with its offset moved to the end.
        _, body = timed(base, ui + "/zone?" + z + "&type=Batch")
        link = next_link(body)
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)
        marker = base64.b64decode(query["marker"][0]).decode().split(":")
        deep = base64.b64encode(("q1:%d:%s" % (args.records - 30, marker[2])).encode()).decode()
        seconds, body = timed(base, ui + "/zone?" + z + "&type=Batch&marker=" + urllib.parse.quote(deep, safe=""))
        print("%-62s %7.3f s" % ("records of type Batch, last page (OFFSET %d)" % (args.records - 30), seconds))
        results.append(("last page", seconds))
        stop(process)
        print("load average: %s" % open("/proc/loadavg").read().strip())
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
