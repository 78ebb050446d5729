#!/usr/bin/env python3
"""Bench data for scripts/bench-maintenance.sh (written into bench-data/, never committed).

  gen-maintenance-data.py store STORE N    adds N tombstones and 10 devices to an existing Larder store
  gen-maintenance-data.py cache FILE N     writes a SnapChef-style recipe cache of N entries

Tombstones: deleted one second apart from 2024-01-01; every 10th still carries its recipe (fat),
every 20th is not acknowledged by the cloud, every 50th has a pending change. Devices: this one,
eight live ones whose watermarks cover 60% to 100% of the tombstones, and one unseen for 200 days
(it expires). Run the compaction with --now 2024-01-14T00:00:00Z.

Cache: entries fetched over the two hours before 2024-03-01T10:00:00Z (so three quarters are past
the 30m TTL at that time), read at random times since; 1.5% pinned (saved or created)."""
import json, random, sqlite3, sys
from datetime import datetime, timezone, timedelta

BASE = datetime(2024, 1, 1, tzinfo=timezone.utc)
def iso(dt): return dt.strftime("%Y-%m-%dT%H:%M:%SZ")
def ms(dt): return int(dt.timestamp() * 1000)

def recipe(rid, n, rng, flags=False):
    r = {"id": rid, "title": f"Recipe {n}",
         "ingredients": [{"quantity": float(rng.randint(1, 500)), "unit": "g", "item": "flour", "original": "flour"},
                         {"quantity": 2.0, "item": "eggs", "original": "2 eggs"}],
         "instructions": [{"text": "Mix and bake.", "timerSeconds": 1200}],
         "createdAt": "2024-01-01T00:00:00Z", "updatedAt": "2024-01-01T00:00:00Z", "servings": 4,
         "dietaryNotes": [], "tags": ["bench"], "isPublic": True}
    if flags:
        r["isSaved"] = n % 2 == 0
        r["isCreated"] = n % 2 == 1
    return r

def store(path, n):
    rng = random.Random(1)
    db = sqlite3.connect(path)
    db.execute("PRAGMA synchronous = OFF")
    def rows():
        for i in range(n):
            rid = f"t{i:07d}"
            when = iso(BASE + timedelta(seconds=i))
            if i % 10 == 0:
                body = recipe(rid, i, rng)
                body.update({"isDeleted": True, "deletedAt": when})
            else:
                body = {"id": rid, "recordName": f"recipe-{rid}", "isDeleted": True, "deletedAt": when, "updatedAt": when}
            acked = i % 20 != 0
            yield ("recipe", rid, 3, json.dumps(body, separators=(",", ":")), f"recipe-{rid}", 1, 1, when, None, when,
                   f"tag{i}" if acked else None, ms(BASE + timedelta(seconds=i + 5)) if acked else None)
    db.executemany("INSERT INTO records (type, id, version, body, recordName, isCloudEnabled, isDeleted, deletedAt, changeTag, updatedAt,"
                   " cloudAckTag, cloudAckAt) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", rows())
    db.executemany("INSERT INTO pending_changes (type, id, record_name, kind, payload, base_tag, created_at) VALUES (?,?,?,?,?,?,?)",
                   (("recipe", f"t{i:07d}", f"recipe-t{i:07d}", "tombstone", "{}", None, ms(BASE)) for i in range(0, n, 50)))
    now = BASE + timedelta(days=13)
    devices = [("self", "This Mac", ms(now), ms(now), 1)]
    for k in range(8):
        devices.append((f"device-{k}", f"Device {k}", ms(BASE + timedelta(seconds=int(n * (0.6 + 0.05 * k)))), ms(now - timedelta(hours=k + 1)), 0))
    devices.append(("lost-ipad", "Lost iPad", ms(BASE - timedelta(days=200)), ms(BASE - timedelta(days=200)), 0))
    db.executemany("INSERT OR REPLACE INTO devices (id, name, watermark, last_seen, is_self) VALUES (?,?,?,?,?)", devices)
    db.commit()

def cache(path, n):
    rng = random.Random(2)
    now = datetime(2024, 3, 1, 10, 0, tzinfo=timezone.utc)
    pinned = [f"c{i:07d}" for i in range(0, n, 200)]
    with open(path, "w") as f:
        f.write('{"cache": "bench", "fetchedAt": "%s", "ttlSeconds": 1800, "stats": {"hits": %d, "misses": %d},\n'
                % (iso(now - timedelta(minutes=10)), n * 3, n // 10))
        f.write(' "pinned": {"saved": %s, "created": []},\n "records": [\n' % json.dumps(pinned))
        for i in range(n):
            fetched = now - timedelta(seconds=rng.randint(0, 7200))
            entry = {"id": f"c{i:07d}", "fetchedAt": iso(fetched),
                     "lastAccess": iso(fetched + timedelta(seconds=rng.randint(0, max(1, int((now - fetched).total_seconds()))))),
                     "hits": rng.randint(0, 20), "recipe": recipe(f"c{i:07d}", i, rng, flags=(i % 100 == 7))}
            f.write("  " + json.dumps(entry, separators=(",", ":")) + (",\n" if i < n - 1 else "\n"))
        f.write(" ]}\n")

if __name__ == "__main__":
    kind, path, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    {"store": store, "cache": cache}[kind](path, count)
