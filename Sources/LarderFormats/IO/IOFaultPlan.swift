import LarderCore
import LarderSystem

/// Failures to inject into Larder's file writes, for the fault-injection tests: `ENOSPC` or
/// `EIO` at the N-th write, fsync, rename or store commit (optionally only for paths matching a
/// glob), `EINTR`, or short writes.
///
/// The text form is what `LARDER_FAULT_IO` holds: rules separated by commas, each
/// `[CALL.]KIND@N[+][:GLOB]`.
/// - CALL: `write` (the default), `fsync`, `rename` or `commit` (the store's SQLite commit).
/// - KIND: `enospc`, `eio`, `eintr` (the call fails with that errno; the seam retries an
///   interrupted call, so `eintr` takes no `+`), or `short` (a write moves at most half of its
///   bytes, at least one; `write` only).
/// - N: the rule fires on the N-th call of its CALL whose path matches (counting from 1); with
///   `+`, on that call and every later one.
/// - GLOB: an `fnmatch` pattern for the path the call is for (the destination, not the
///   temporary file; `*` crosses `/`); none matches every path.
///
/// ```
/// enospc@3:*.ndjson           the third write to an .ndjson output fails with ENOSPC
/// short@1+,eio@4:*/out.json   every write is short, and the fourth write to out.json fails with EIO
/// fsync.eio@1:*.journal       the journal's first fsync fails
/// commit.enospc@1:*.db        the store's first commit fails as SQLite's "database or disk is full"
/// ```
package struct IOFaultPlan: Sendable, Hashable, CustomStringConvertible {
    /// The kind of call a rule applies to.
    package enum Call: String, Sendable, Hashable, CaseIterable {
        case write, fsync, rename, commit
    }

    /// What a rule does to the call.
    package enum Failure: Sendable, Hashable {
        /// The call fails with this errno.
        case error(Int32)
        /// The write moves only part of its bytes.
        case short
    }

    /// One rule.
    package struct Rule: Sendable, Hashable {
        package var call: Call
        package var failure: Failure
        /// The matching call (1-based) the rule fires on.
        package var at: Int
        /// Whether it fires on every matching call from ``at`` on.
        package var isPersistent: Bool
        /// The `fnmatch` pattern a path must match (nil: all paths).
        package var pattern: String?

        /// Creates a rule.
        package init(
            _ call: Call = .write, _ failure: Failure, at: Int, isPersistent: Bool = false, pattern: String? = nil
        ) {
            self.call = call
            self.failure = failure
            self.at = at
            self.isPersistent = isPersistent
            self.pattern = pattern
        }

        /// Whether the rule applies to a call of `call` for `path` (the count aside).
        func matches(_ call: Call, path: String) -> Bool {
            guard call == self.call else { return false }
            guard let pattern else { return true }
            return fnmatch(pattern, path, 0) == 0
        }
    }

    /// The rules, applied in order (the first failure wins; a short write yields to an error).
    package var rules: [Rule]

    /// A plan of `rules`.
    package init(_ rules: [Rule]) {
        self.rules = rules
    }

    private static let kinds: [(String, Failure)] = [
        ("enospc", .error(ENOSPC)), ("eio", .error(EIO)), ("eintr", .error(EINTR)), ("short", .short),
    ]

    /// Parses the `LARDER_FAULT_IO` form (see the type's discussion).
    /// - Throws: ``LarderError`` `usage-error` naming the rule that does not parse.
    package init(parsing text: String) throws {
        var rules: [Rule] = []
        for piece in text.split(separator: ",", omittingEmptySubsequences: true) {
            let spec = piece.trimmingWhitespace
            guard let rule = Self.rule(spec) else {
                throw LarderError(
                    .usage,
                    "LARDER_FAULT_IO: cannot read the rule \"\(spec)\"; expected [write.|fsync.|rename.|commit.]enospc|eio|eintr|short@N[+][:GLOB]"
                )
            }
            rules.append(rule)
        }
        self.rules = rules
    }

    private static func rule(_ spec: String) -> Rule? {
        var head = Substring(spec)
        var pattern: String?
        if let colon = head.firstIndex(of: ":") {
            pattern = String(head[head.index(after: colon)...])
            head = head[..<colon]
            if pattern?.isEmpty == true { return nil }
        }
        guard let at = head.firstIndex(of: "@") else { return nil }
        var count = head[head.index(after: at)...]
        let isPersistent = count.hasSuffix("+")
        if isPersistent { count = count.dropLast() }
        guard let number = Int(count), number > 0 else { return nil }
        var kind = head[..<at]
        var call = Call.write
        if let dot = kind.firstIndex(of: ".") {
            guard let named = Call(rawValue: String(kind[..<dot])) else { return nil }
            call = named
            kind = kind[kind.index(after: dot)...]
        }
        guard let failure = kinds.first(where: { $0.0 == kind })?.1 else { return nil }
        if failure == .short && call != .write { return nil }
        // An interrupted call is retried: EINTR on every call from N on would never end.
        if failure == .error(EINTR) && isPersistent { return nil }
        return Rule(call, failure, at: number, isPersistent: isPersistent, pattern: pattern)
    }

    /// The text form.
    package var description: String {
        rules.map { rule in
            let kind = Self.kinds.first { $0.1 == rule.failure }?.0 ?? "?"
            let call = rule.call == .write ? "" : rule.call.rawValue + "."
            return "\(call)\(kind)@\(rule.at)\(rule.isPersistent ? "+" : "")" + (rule.pattern.map { ":" + $0 } ?? "")
        }.joined(separator: ",")
    }
}
