#!/usr/bin/env python3
"""`make bench`'s summary: one table of the goals issue 17 names, from the rows the bench scripts
recorded (bench-data/rows.ndjson, written by bench_record in scripts/bench-lib.sh), printed and
written as JSON (bench-data/bench-<UTC time>.json and bench-data/bench-latest.json) so runs can be
compared. A row whose measurements are missing (a peer not installed, a script skipped) says so.

    python3 scripts/bench_summary.py [ROWS] [OUT_DIR]
"""
import datetime
import json
import os
import subprocess
import sys


def load(path):
    rows = []
    if os.path.exists(path):
        with open(path) as f:
            rows = [json.loads(line) for line in f if line.strip()]
    return rows


def find(rows, section_prefix, label_prefix):
    """The last row whose section and label start with the given prefixes."""
    found = None
    for row in rows:
        if row["section"].startswith(section_prefix) and row["label"].startswith(label_prefix):
            found = row
    return found


def exact(rows, section, label):
    """The last row with exactly this section and label."""
    found = None
    for row in rows:
        if row["section"] == section and row["label"] == label:
            found = row
    return found


def speed_row(rows, work, section, larder, peer, goal, keep=False):
    """Larder's rate over a peer's (per CPU second) against a goal ratio."""
    ours, theirs = find(rows, section, larder), find(rows, section, peer)
    row = {"work": work, "goal": f"{'keep ' if keep else ''}>= {goal}x {peer}", "target": goal}
    if not ours or not theirs:
        row.update(larder="-", peer="-", ratio=None, met=None, note="not measured (peer missing or script skipped)")
        return row
    ratio = ours["rate"] / max(theirs["rate"], 1)
    row.update(
        larder=f"{ours['cpu']:.2f} cpu-s, {ours['rss_mb']:.0f} MB",
        peer=f"{theirs['label']}: {theirs['cpu']:.2f} cpu-s, {theirs['rss_mb']:.0f} MB",
        ratio=round(ratio, 2), met=ratio >= goal)
    return row


def upload_row(rows):
    ours = find(rows, "upload", "upload (migrate")
    floor = find(rows, "upload", "sqlite3 json_each")
    row = {"work": "upload into serve --data, end to end",
           "goal": ">= 33% of the json_each floor; client CPU <= half the server's", "target": 0.33}
    if not ours or not floor:
        row.update(larder="-", peer="-", ratio=None, met=None, note="not measured")
        return row
    share = floor["wall"] / max(ours["wall"], 1e-3)
    client_half = ours["cpu"] <= ours.get("server_cpu", 0) / 2
    row.update(
        larder=f"{ours['wall']:.2f} s ({ours['records'] / max(ours['wall'], 1e-3):,.0f} rec/s); "
        f"client {ours['cpu']:.2f} cpu-s, server {ours.get('server_cpu', 0):.2f} cpu-s",
        peer=f"sqlite3 json_each: {floor['wall']:.2f} s",
        ratio=round(share, 3), met=share >= 0.33 and client_half)
    return row


def dedupe_row(rows):
    ours = None
    for row in rows:
        if row["section"] == "dedupe" and (ours is None or row["records"] >= ours["records"]):
            ours = row
    row = {"work": "dedupe, 10% duplicates", "goal": "1M: <= 15 s wall, <= 250 MB peak", "target": None}
    peer = splink_at_largest(rows)
    row["peer"] = f"{peer['label']}: {peer['wall']:.1f} s wall, {peer['cpu']:.1f} cpu-s, {peer['rss_mb']:.0f} MB" \
        if peer else "(Splink not run)"
    if not ours:
        row.update(larder="-", ratio=None, met=None, note="not measured")
        return row
    row.update(larder=f"{int(ours['records']):,}: {ours['wall']:.1f} s wall, {ours['cpu']:.1f} cpu-s, "
               f"{ours['rss_mb']:.0f} MB", ratio=None,
               met=ours["records"] >= 1_000_000 and ours["wall"] <= 15 and ours["rss_mb"] <= 250)
    return row


def splink_at_largest(rows):
    """The Splink row of the largest size it ran on (bench-dedupe.sh caps its sizes)."""
    found = None
    for row in rows:
        if row["section"] == "dedupe splink" and (found is None or row["records"] >= found["records"]):
            found = row
    return found


def quality(rows, label):
    row = exact(rows, "dedupe quality", label)
    return (row["precision"], row["recall"]) if row else None


def dedupe_peer_row(rows):
    """Larder's records per CPU second over Splink's at the largest size Splink ran, and precision and
    recall on the labelled sets: Larder's must be equal or better."""
    row = {"work": "dedupe vs Splink (same size)", "goal": ">= 5x Splink, equal or better P/R on labelled sets",
           "target": 5}
    theirs = splink_at_largest(rows)
    ours = theirs and exact(rows, "dedupe", f"larder dedupe {int(theirs['records'])}")
    if not theirs or not ours:
        row.update(larder="-", peer="-", ratio=None, met=None, note="not measured (Splink not installed or skipped)")
        return row
    ratio = theirs["cpu"] / max(ours["cpu"], 1e-3)
    sets, worse = [], []
    for name in ("labelled-4000", "near-miss-1000", str(int(theirs["records"]))):
        a, b = quality(rows, f"larder dedupe {name}"), quality(rows, f"splink {name}")
        if a and b:
            sets.append(f"{name} P/R {a[0]:.4f}/{a[1]:.4f} vs {b[0]:.4f}/{b[1]:.4f}")
            if a[0] < b[0] or a[1] < b[1]:
                worse.append(name)
    row.update(
        larder=f"{int(ours['records']):,}: {ours['cpu']:.1f} cpu-s, {ours['rss_mb']:.0f} MB; " + "; ".join(sets),
        peer=f"{theirs['label']}: {theirs['cpu']:.1f} cpu-s, {theirs['rss_mb']:.0f} MB",
        ratio=round(ratio, 2), met=ratio >= 5 and bool(sets) and not worse)
    if worse:
        row["note"] = "larder's P or R below Splink's on " + ", ".join(worse)
    return row


def summary(rows):
    return [
        upload_row(rows),
        speed_row(rows, "JSON -> NDJSON", "convert JSON -> NDJSON", "larder convert", "python3 orjson", 4),
        # Issue 32: records with the version 4 members, indented, as cheap as generated ones laid out
        # the same way (4.8x jq when the issue was filed).
        speed_row(rows, "loose JSON, v4 members -> NDJSON", "convert loose JSON -> NDJSON",
                  "larder convert (loose, v4 members)", "jq -c '.[]' (loose)", 4.8),
        speed_row(rows, "XML -> JSON", "convert XML -> JSON", "larder convert", "xmltodict parse", 10),
        speed_row(rows, "JSON -> XML", "convert JSON -> XML", "larder convert", "xmltodict unparse", 10, keep=True),
        speed_row(rows, "JSON -> YAML", "convert JSON -> YAML", "larder convert", "PyYAML", 25, keep=True),
        speed_row(rows, "YAML -> JSON", "convert YAML -> JSON", "larder convert", "PyYAML", 25, keep=True),
        dedupe_row(rows),
        dedupe_peer_row(rows),
        speed_row(rows, "import own records vs convert", "import of Larder's own records", "larder import",
                  "larder convert", 0.5),
    ]


def main():
    rows_path = sys.argv[1] if len(sys.argv) > 1 else "bench-data/rows.ndjson"
    out_dir = sys.argv[2] if len(sys.argv) > 2 else "bench-data"
    table = summary(load(rows_path))
    print("\n## summary (the goals of issues 17 and 32; rates per CPU second, so load skews ratios little)")
    print(f"{'work':<38} {'ratio':>7}  {'met':<4} larder | peer | goal")
    for row in table:
        ratio = "-" if row["ratio"] is None else f"{row['ratio']}"
        met = {True: "yes", False: "NO", None: "-"}[row["met"]]
        print(f"{row['work']:<38} {ratio:>7}  {met:<4} {row['larder']} | {row.get('peer', '')} | {row['goal']}"
              + (f" ({row['note']})" if row.get("note") else ""))
    now = datetime.datetime.now(datetime.timezone.utc)
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    except OSError:
        commit = ""
    document = {"time": now.isoformat(timespec="seconds"), "commit": commit, "cores": os.cpu_count(),
                "loadAverage": list(os.getloadavg()), "summary": table, "rows": load(rows_path)}
    os.makedirs(out_dir, exist_ok=True)
    stamped = os.path.join(out_dir, f"bench-{now.strftime('%Y%m%dT%H%M%SZ')}.json")
    for path in (stamped, os.path.join(out_dir, "bench-latest.json")):
        with open(path + ".tmp", "w") as f:
            json.dump(document, f, indent=2)
        os.replace(path + ".tmp", path)
    print(f"\nwritten: {stamped} (and bench-latest.json); load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
