#!/usr/bin/env python3
"""The Splink peer of `scripts/bench-dedupe.sh`: the same saved + created NDJSON sets deduplicated by
Splink 4 (pinned in bench-dedupe.sh) on its DuckDB backend, written as clusters the bench's
evaluator reads (one JSON list of [set, index] pairs per line, clusters of two or more only).

    python3 scripts/bench_splink.py SAVED CREATED OUT [--threshold 0.9] [--u-pairs 1e6]

The model (a Fellegi-Sunter model, the way Splink's tutorials build one):
  records   DuckDB reads both files (read_json, only the fields below) into one table, dedupe_only;
            unique_id is "set[index]", the index being the line number in its file.
  features  title_norm (lower case, punctuation dropped, spaces collapsed), title_key (title_norm
            without spaces), ingredients (sorted distinct lower-cased `item`s, as 64-bit hashes),
            ing_key (the first three items), id, source_url, servings, prep_time, cook_time.
  blocking  for predictions: same title_key, or same id, or same prep_time + cook_time + ing_key
            (ing_key alone gives 0.9M candidate pairs at 100k records and grows with the square).
  compare   title_norm Jaro-Winkler (exact, >= 0.95, >= 0.88, else); ingredient-set Jaccard
            (>= 0.9, >= 0.7, >= 0.5, >= 0.3, else); exact id, source_url, servings, prep_time,
            cook_time (null levels where the field is missing).
  training  probability two random records match from a deterministic rule (same title_key and
            both times) at an assumed recall of 0.8; u by random sampling (--u-pairs pairs); m by
            expectation maximisation in two sessions, blocked on title_key and then on prep_time +
            cook_time + ing_key (each session estimates the comparisons it did not block on).
  predict   pairs at match probability >= --threshold, clustered with connected components at the
            same threshold (cluster_pairwise_predictions_at_threshold).
Phase times go to stderr.
"""
import argparse
import json
import sys
import time

import duckdb
import splink
import splink.comparison_level_library as cll
import splink.comparison_library as cl
from splink import DuckDBAPI, Linker, SettingsCreator, block_on

COLUMNS = ("{'id': 'VARCHAR', 'title': 'VARCHAR', 'ingredients': 'STRUCT(item VARCHAR)[]', "
           "'sourceURL': 'VARCHAR', 'servings': 'DOUBLE', 'prepTime': 'BIGINT', 'cookTime': 'BIGINT'}")


def load(con, saved, created):
    """Both sets into one table `recipes`, with the features the model compares and blocks on."""
    selects = []
    for role, path in (("saved", saved), ("created", created)):
        # row_number() over a plain scan numbers the lines in file order (preserve_insertion_order,
        # DuckDB's default); `--check-order` verifies it against the files.
        selects.append(f"""
            SELECT '{role}' AS src_set, row_number() OVER () - 1 AS src_index, *
            FROM read_json('{path}', format = 'newline_delimited', columns = {COLUMNS})""")
    con.execute(f"""
        CREATE TABLE recipes AS
        WITH raw AS ({" UNION ALL ".join(selects)}),
        norm AS (
            SELECT *, trim(regexp_replace(regexp_replace(lower(title), '[^a-z0-9 ]', '', 'g'), ' +', ' ', 'g'))
                   AS tn,
                   list_sort(list_distinct(list_filter(list_transform(ingredients, x -> lower(trim(x.item))),
                                                       x -> x IS NOT NULL AND x <> ''))) AS ing
            FROM raw)
        SELECT src_set || '[' || src_index || ']' AS unique_id, src_set, src_index,
               id, nullif(tn, '') AS title_norm, nullif(replace(tn, ' ', ''), '') AS title_key,
               CASE WHEN len(ing) > 0 THEN list_transform(ing, x -> hash(x)) END AS ingredients,
               CASE WHEN len(ing) > 0 THEN array_to_string(ing[1:3], '|') END AS ing_key,
               nullif(sourceURL, '') AS source_url, servings, prepTime AS prep_time, cookTime AS cook_time
        FROM norm""")


def jaccard_levels():
    # |a ∩ b| / |a ∪ b| >= t, the lists being distinct, as |a ∩ b| >= t (|a| + |b| - |a ∩ b|): half the
    # cost of list_distinct(list_concat(...)), and the items are 64-bit hashes, which DuckDB
    # intersects twice as fast as strings (a 1M-pair u sample spends most of its time here).
    inter = "len(list_intersect(ingredients_l, ingredients_r))"
    sql = f"{inter} >= {{t}} * (len(ingredients_l) + len(ingredients_r) - {inter})"
    return cl.CustomComparison(
        output_column_name="ingredients",
        comparison_levels=[
            cll.NullLevel("ingredients"),
            *[cll.CustomLevel(sql.format(t=t), label_for_charts=f"ingredient Jaccard >= {t}")
              for t in (0.9, 0.7, 0.5, 0.3)],
            cll.ElseLevel(),
        ],
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("saved")
    parser.add_argument("created")
    parser.add_argument("out")
    parser.add_argument("--threshold", type=float, default=0.9)
    parser.add_argument("--u-pairs", type=float, default=1e6)
    parser.add_argument("--check-order", action="store_true",
                        help="check that src_index is each record's line number (reads the files again)")
    args = parser.parse_args()
    started = time.perf_counter()
    phases = []

    def phase(name):
        nonlocal started
        now = time.perf_counter()
        phases.append(f"{name} {now - started:.2f} s")
        started = now

    con = duckdb.connect()
    load(con, args.saved, args.created)
    phase("load")
    if args.check_order:
        for role, path in (("saved", args.saved), ("created", args.created)):
            ids = [r[0] for r in con.execute(
                "SELECT id FROM recipes WHERE src_set = ? ORDER BY src_index", [role]).fetchall()]
            with open(path) as f:
                expected = [json.loads(line).get("id") for line in f]
            if ids != expected:
                sys.exit(f"bench_splink: row order of {path} is not the file's line order")

    settings = SettingsCreator(
        link_type="dedupe_only",
        unique_id_column_name="unique_id",
        blocking_rules_to_generate_predictions=[
            block_on("title_key"), block_on("id"), block_on("prep_time", "cook_time", "ing_key")],
        comparisons=[
            cl.JaroWinklerAtThresholds("title_norm", [0.95, 0.88]).configure(term_frequency_adjustments=True),
            jaccard_levels(),
            cl.ExactMatch("id"),
            cl.ExactMatch("source_url"),
            cl.ExactMatch("servings"),
            cl.ExactMatch("prep_time"),
            cl.ExactMatch("cook_time"),
        ],
        retain_intermediate_calculation_columns=False,
        retain_matching_columns=False,
    )
    linker = Linker("recipes", settings, db_api=DuckDBAPI(connection=con))
    linker.training.estimate_probability_two_random_records_match(
        [block_on("title_key", "prep_time", "cook_time")], recall=0.8)
    linker.training.estimate_u_using_random_sampling(max_pairs=args.u_pairs, seed=42)
    linker.training.estimate_parameters_using_expectation_maximisation(block_on("title_key"))
    linker.training.estimate_parameters_using_expectation_maximisation(
        block_on("prep_time", "cook_time", "ing_key"))
    phase("train")
    predictions = linker.inference.predict(threshold_match_probability=args.threshold)
    phase("predict")
    clusters = linker.clustering.cluster_pairwise_predictions_at_threshold(predictions, args.threshold)
    phase("cluster")
    rows = con.execute(f"""
        SELECT list([r.src_set, CAST(r.src_index AS VARCHAR)])
        FROM {clusters.physical_name} c JOIN recipes r USING (unique_id)
        GROUP BY c.cluster_id HAVING count(*) > 1""").fetchall()
    pairs = con.execute(f"SELECT count(*) FROM {predictions.physical_name}").fetchone()[0]
    with open(args.out, "w") as out:
        for (members,) in rows:
            out.write(json.dumps([[s, int(i)] for s, i in members]) + "\n")
    phase("write")
    print(f"splink {splink.__version__} (duckdb {duckdb.__version__}): {pairs} pairs at p >= {args.threshold}, "
          f"{len(rows)} clusters; " + ", ".join(phases), file=sys.stderr)


if __name__ == "__main__":
    main()
