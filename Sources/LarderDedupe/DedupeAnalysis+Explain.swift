import LarderCore

extension DedupeAnalysis {
    /// Explains why the records with id (or CloudKit record name) `id` merged or did not:
    /// the cluster, the stage and scores of each match, the survivor and each field's source,
    /// and the nearest records that stayed apart with the reason (below the threshold, a
    /// gate, no chaining, or not blocked together).
    ///
    /// Scans every record's features once to find the nearest: O(records).
    /// - Throws: ``LarderError`` `usage-error` when no record has that id or record name;
    ///   `io-error` when a scratch file cannot be read.
    public func explain(_ id: String) throws -> String {
        let nameHash = StableHasher.hash(id, seed: 0x726E)
        let matches = (0..<table.count).filter { table.id($0) == id || table.recordNameHash[$0] == nameHash }
        guard !matches.isEmpty else {
            throw LarderError(.usage, "no record has the id or record name \"\(id)\"")
        }
        var lines: [String] = []
        var explainedClusters = Set<Int>()
        for i in matches {
            let record = try value(i)
            lines.append(
                "record \(ref(i)): id \"\(table.id(i))\", \"\(record["title"]?.stringValue ?? "")\" "
                    + "(\(inputs[Int(table.input[i])].name) record \(table.inputIndex[i]))")
            if let c = cluster(of: i) {
                if explainedClusters.insert(c).inserted {
                    lines += try describeCluster(c, around: i)
                } else {
                    lines.append("  in the same cluster as above")
                }
            } else {
                lines.append("  not merged: no other record matched it")
            }
            lines += try nearestNotMerged(to: i)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func describeCluster(_ c: Int, around i: Int) throws -> [String] {
        let members = clustering.clusters[c]
        let (result, mergeMembers) = try merge(cluster: c)
        var lines: [String] = []
        let survivor = Int(members[0])
        lines.append(
            "  merged with \(members.count - 1) other record\(members.count == 2 ? "" : "s") into id "
                + "\"\(result.value["id"]?.stringValue ?? "")\"; survivor \(ref(survivor)) (\(survivorReason(members)))"
        )
        lines.append("  members:")
        for (position, m) in members.enumerated() {
            let title = mergeMembers[position].value["title"]?.stringValue ?? ""
            let updated = mergeMembers[position].value["updatedAt"]?.stringValue ?? "no updatedAt"
            lines.append("    \(ref(Int(m))) id \"\(table.id(Int(m)))\" \"\(title)\" updated \(updated)")
        }
        lines.append("  matches that built the cluster:")
        for link in clustering.links[c] {
            let score = scorer.score(Int(link.a), Int(link.b), in: table)
            lines.append("    \(ref(Int(link.a))) ~ \(ref(Int(link.b))): \(link.rule.rawValue), score \(score.text)")
        }
        let others = members.filter { Int($0) != i }
        if !others.isEmpty {
            lines.append("  how \(ref(i)) matches each other member (every pair must match: no chaining):")
            for m in others {
                if let (rule, score) = Clusterer(table: table, scorer: scorer).relation(i, Int(m)) {
                    lines.append("    \(ref(Int(m))): \(rule.rawValue), score \(score.text)")
                }
            }
        }
        lines.append("  fields:")
        for choice in result.fields {
            lines.append(
                "    \(choice.field) ← \(choice.from.isEmpty ? "none" : choice.from.joined(separator: ", ")) (\(choice.rule.rawValue))"
            )
        }
        for alternative in result.alternatives {
            lines.append(
                "  kept in the merge log: \(alternative.field) of \(alternative.from) (differs from the survivor's)")
        }
        return lines
    }

    private func survivorReason(_ members: [Int32]) -> String {
        let s = Int(members[0])
        guard members.count > 1 else { return "only member" }
        let runnerUp = Int(members[1])
        if table.isCreated(s) && !table.isCreated(runnerUp) { return "a created recipe beats a saved copy" }
        if table.updatedAt[s] != table.updatedAt[runnerUp] { return "newest updatedAt" }
        return "same set and updatedAt: smallest content key"
    }

    /// The five highest-scoring records outside `i`'s cluster, each with why it stayed apart.
    private func nearestNotMerged(to i: Int) throws -> [String] {
        let own = cluster(of: i)
        var best: [(Int, MatchScore)] = []
        for x in 0..<table.count where x != i && (own == nil || cluster(of: x) != own) {
            let score = scorer.score(i, x, in: table)
            guard score.total > 0.3 else { continue }
            best.append((x, score))
            if best.count > 64 {
                best.sort { $0.1.total != $1.1.total ? $0.1.total > $1.1.total : table.key[$0.0] < table.key[$1.0] }
                best.removeLast(best.count - 5)
            }
        }
        best.sort { $0.1.total != $1.1.total ? $0.1.total > $1.1.total : table.key[$0.0] < table.key[$1.0] }
        guard !best.isEmpty else { return ["  nearest records not merged: none scores above 0.3"] }
        var lines = ["  nearest records not merged:"]
        for (x, score) in best.prefix(5) {
            let title = (try? value(x))?["title"]?.stringValue ?? table.title(x)
            lines.append("    \(ref(x)) \"\(title)\": score \(score.text): \(apartReason(i, x, score))")
        }
        return lines
    }

    private func apartReason(_ i: Int, _ x: Int, _ score: MatchScore) -> String {
        let clusterer = Clusterer(table: table, scorer: scorer)
        guard let (rule, _) = clusterer.relation(i, x) else {
            if table.sourceURL[i] != 0 && table.sourceURL[i] == table.sourceURL[x] {
                return "same source URL, but the titles and the ingredients both disagree"
            }
            switch scorer.verdict(score) {
            case .belowThreshold: return "below the threshold \(MatchScore.format(scorer.threshold))"
            case .titleGate:
                let kind = (score.ingredients ?? 0) >= 0.8 ? ": same ingredients, different dish" : ""
                return
                    "titles too different (\(MatchScore.format(score.title)) < \(MatchScore.format(scorer.titleGate)))\(kind)"
            case .ingredientGate:
                let kind = score.title >= 0.9 ? ": same title, different dish" : ""
                return
                    "ingredients too different (\(MatchScore.format(score.ingredients ?? 0)) < \(MatchScore.format(scorer.ingredientGate)))\(kind)"
            case .noIngredients: return "a record without ingredients only matches by id, URL or fingerprint"
            case .passes: return "passes"
            }
        }
        if rule == .fuzzy && !blocker.areCandidates(i, x, in: table) {
            return "would match (fuzzy), but blocking never paired them (no shared title or ingredient band)"
        }
        // It matches on its own: some member of one cluster does not match some member of the other.
        let mine = cluster(of: i).map { clustering.clusters[$0] } ?? [Int32(i)]
        let theirs = cluster(of: x).map { clustering.clusters[$0] } ?? [Int32(x)]
        for a in mine {
            for b in theirs where clusterer.relation(Int(a), Int(b)) == nil {
                let s = scorer.score(Int(a), Int(b), in: table)
                return
                    "matches on its own (\(rule.rawValue)), but kept apart without chaining: \(ref(Int(a))) and \(ref(Int(b))) do not match (score \(MatchScore.format(s.total)))"
            }
        }
        return "matches on its own (\(rule.rawValue)), but a stronger match claimed one of them first"
    }
}
