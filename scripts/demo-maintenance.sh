#!/usr/bin/env bash
# make demo, maintenance stage: a small store and a recipe cache built from samples/ under a temp
# dir; tombstone compaction and cache pruning, each shown with a dry run first (docs/maintenance.md).
set -euo pipefail
cd "$(dirname "$0")/.."
L=${LARDER:-.build/release/larder}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
store=$out/larder.db
step() { echo; echo "-- $*"; }

carbonara=72b9d9c3-cb02-4d69-83a1-e2dc5995360d
shakshuka=7a946f1f-b410-41e1-860f-12bfbe859a49
tikka=41c790c3-1c71-4ddf-894d-27c8cd53d281

step "a store of the sample recipes, plus two fat tombstones an older app version left (recipe v3, migrated to v4 first)"
"$L" store import samples/recipes.json --store "$store"
"$L" migrate samples/store/fat-tombstones.json --to-version 4 -o "$(dirname "$store")/fat-tombstones-v4.json"
"$L" store import "$(dirname "$store")/fat-tombstones-v4.json" --store "$store"

step "on this Mac: delete two recipes, set one local-only (its cloud copy becomes a tombstone); the cloud confirms"
"$L" store delete "$carbonara" "$shakshuka" --store "$store" --now 2024-03-01T09:00:00Z
"$L" store set-local "$tikka" --store "$store" --now 2024-03-01T09:01:00Z
"$L" store pending --store "$store"
"$L" store ack --store "$store" --now 2024-03-01T09:05:00Z

step "the devices of the sync group: the iPhone synced past the deletes, the iPad has not, the old MacBook was last seen in October"
"$L" store device mac --this --name "Anna's Mac" --store "$store" --watermark 2024-03-01T09:05:00Z --now 2024-03-01T09:05:00Z
"$L" store device iphone --name "Anna's iPhone" --store "$store" --watermark 2024-03-02T10:00:00Z --now 2024-03-02T10:00:00Z
"$L" store device ipad --name "Anna's iPad" --store "$store" --watermark 2024-03-01T08:00:00Z --now 2024-03-02T18:00:00Z
"$L" store device oldmac --name "Old MacBook" --store "$store" --watermark 2023-10-01T08:00:00Z --now 2023-10-01T08:00:00Z
"$L" store stats --store "$store" --now 2024-03-03T00:00:00Z

step "tombstones compact, dry run first: nothing changes"
"$L" tombstones compact --store "$store" --now 2024-03-03T00:00:00Z --dry-run

step "tombstones compact: the old MacBook expires, the iPad still blocks the new tombstones, the fat ones are stripped"
"$L" tombstones compact --store "$store" --now 2024-03-03T00:00:00Z

step "a second run changes nothing"
"$L" tombstones compact --store "$store" --now 2024-03-03T00:00:00Z | tail -3

step "the iPad syncs; now the acknowledged tombstones go, and their cloud purges are queued"
"$L" store device ipad --store "$store" --watermark 2024-03-03T09:00:00Z --now 2024-03-03T09:00:00Z
"$L" tombstones compact --store "$store" --now 2024-03-03T10:00:00Z
"$L" store pending --store "$store"

step "the old MacBook comes back: it was expired, so it must reset"
"$L" store device oldmac --store "$store" --watermark 2023-10-01T08:00:00Z --now 2024-03-04T08:00:00Z
"$L" store stats --store "$store" --now 2024-03-04T08:00:00Z

cache=$out/recipe-cache.json
cp samples/cache/recipe-cache.json "$cache"
step "the SnapChef recipe cache (samples/cache/recipe-cache.json) at 08:20, 20 minutes after its last fetch"
"$L" cache stats --cache "$cache" --now 2024-03-01T08:20:00Z

step "cache prune to 8 entries, dry run first: the file is untouched"
sum=$(sha256sum "$cache" | cut -c1-16)
"$L" cache prune --cache "$cache" --now 2024-03-01T08:20:00Z --max-entries 8 --dry-run
[ "$(sha256sum "$cache" | cut -c1-16)" = "$sum" ] && echo "   (file unchanged: $sum)"

step "cache prune: expired entries first, then the least recently used; saved and created recipes are pinned"
"$L" cache prune --cache "$cache" --now 2024-03-01T08:20:00Z --max-entries 8
step "a second run changes nothing"
"$L" cache prune --cache "$cache" --now 2024-03-01T08:20:00Z --max-entries 8 | tail -3

step "the same cache as a table of the store, pruned under a byte cap in one transaction"
"$L" cache import samples/cache/recipe-cache.json --store "$store"
"$L" cache prune --store "$store" --now 2024-03-01T08:20:00Z --max-bytes 8k --dry-run | tail -4
"$L" cache prune --store "$store" --now 2024-03-01T08:20:00Z --max-bytes 8k | tail -4
"$L" store stats --store "$store" --now 2024-03-01T08:20:00Z | tail -2
