#!/usr/bin/env python3
"""Load generator for scripts/bench-emulator.sh (the benchmark client is Python, stdlib only).

Subcommands:
  records OUT N            write N CloudKit record dicts as a JSON array (the sqlite3 peer reads it)
  modify URL CFG FILE C    POST the records in 200-record records/modify batches from C concurrent
                           clients (one keep-alive connection each); print records/s
  query URL CFG Q          run Q records/query calls; print p50 / p99 latency in ms
"""
import http.client, json, sys, threading, time, urllib.parse

CONTAINER = "iCloud.com.example.bench"


def make_records(n, offset=0):
    tags = ["breakfast", "dinner", "sweet", "savory", "quick"]
    out = []
    for i in range(offset, offset + n):
        out.append({
            "recordName": "recipe-%07d" % i,
            "recordType": "Recipe",
            "fields": {
                "title": {"value": "Recipe %d" % i, "type": "STRING"},
                "servings": {"value": i % 12 + 1, "type": "INT64"},
                "rating": {"value": (i % 50) / 10.0, "type": "DOUBLE"},
                "cookedAt": {"value": 1700000000000 + i * 1000, "type": "TIMESTAMP"},
                "tags": {"value": [tags[i % 5], tags[(i + 2) % 5]], "type": "STRING_LIST"},
                "notes": {"value": "Mix, rest and cook batch %d until golden." % (i % 97), "type": "STRING"},
            },
        })
    return out


def endpoint(url, cfg, op):
    config = json.load(open(cfg))
    token = config["apiTokens"][0]
    web = urllib.parse.quote(config["users"][0]["webAuthToken"], safe="")
    parsed = urllib.parse.urlparse(url)
    path = "/database/1/%s/development/private/%s?ckAPIToken=%s&ckWebAuthToken=%s" % (CONTAINER, op, token, web)
    return parsed.hostname, parsed.port, path


def post(conn, path, body):
    conn.request("POST", path, body=body, headers={"Content-Type": "application/json"})
    response = conn.getresponse()
    data = response.read()
    if response.status != 200:
        raise SystemExit("HTTP %d: %s" % (response.status, data[:300]))
    return data


def modify(url, cfg, file, clients):
    host, port, path = endpoint(url, cfg, "records/modify")
    records = json.load(open(file))
    batches = [json.dumps({"operations": [{"operationType": "create", "record": r} for r in records[i:i + 200]],
                           "atomic": False}).encode() for i in range(0, len(records), 200)]
    errors = []

    def worker(mine):
        conn = http.client.HTTPConnection(host, port)
        for body in mine:
            answer = json.loads(post(conn, path, body))
            bad = [r for r in answer["records"] if "serverErrorCode" in r]
            if bad:
                errors.append(bad[0])
        conn.close()

    threads = [threading.Thread(target=worker, args=(batches[k::clients],)) for k in range(clients)]
    start = time.perf_counter()
    for t in threads: t.start()
    for t in threads: t.join()
    elapsed = time.perf_counter() - start
    if errors:
        raise SystemExit("record errors, first: %s" % errors[0])
    print("%d %.3f %.0f" % (len(records), elapsed, len(records) / elapsed))


def query(url, cfg, count):
    host, port, path = endpoint(url, cfg, "records/query")
    conn = http.client.HTTPConnection(host, port)
    shapes = [
        lambda k: {"comparator": "EQUALS", "fieldName": "servings", "fieldValue": {"value": k % 12 + 1}},
        lambda k: {"comparator": "GREATER_THAN", "fieldName": "cookedAt", "fieldValue": {"value": 1700000000000 + (k * 7919 % 100000) * 1000}},
        lambda k: {"comparator": "BEGINS_WITH", "fieldName": "title", "fieldValue": {"value": "Recipe %d" % (k * 31 % 1000)}},
    ]
    latencies = []
    for k in range(count):
        body = json.dumps({"query": {"recordType": "Recipe", "filterBy": [shapes[k % 3](k)],
                                     "sortBy": [{"fieldName": "cookedAt", "ascending": False}]},
                           "resultsLimit": 50}).encode()
        start = time.perf_counter()
        post(conn, path, body)
        latencies.append((time.perf_counter() - start) * 1000)
    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]
    print("%.2f %.2f" % (p(0.50), p(0.99)))


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "records":
        n = int(sys.argv[3]); offset = int(sys.argv[4]) if len(sys.argv) > 4 else 0
        json.dump(make_records(n, offset), open(sys.argv[2], "w"))
    elif command == "modify":
        modify(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    elif command == "query":
        query(sys.argv[2], sys.argv[3], int(sys.argv[4]))
