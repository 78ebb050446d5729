import Foundation
public import LarderCloudKit
import LarderCore
import Synchronization

/// A fault rule: for matching requests, with some probability, add latency and/or fail.
public struct FaultRule: Sendable, Hashable, Codable {
    /// Assigned by the emulator.
    public var id: String?
    /// The operation path such as `records/modify`; nil matches all.
    public var operation: String?
    /// `public`, `private` or `shared`; nil matches all.
    public var database: String?
    /// 0...1; default 1.
    public var probability: Double?
    /// `THROTTLED`, `TRY_AGAIN_LATER`, `CONFLICT`, `CHANGE_TOKEN_EXPIRED`, or any other code.
    public var error: ServerErrorCode?
    /// Seconds, for THROTTLED and TRY_AGAIN_LATER (default 1).
    public var retryAfter: Int?
    /// Milliseconds added before answering.
    public var latencyMs: Int?
    /// How many more times the rule fires; nil for ever.
    public var remaining: Int?

    public init(
        operation: String? = nil, database: String? = nil, probability: Double? = nil, error: ServerErrorCode? = nil,
        retryAfter: Int? = nil, latencyMs: Int? = nil, remaining: Int? = nil
    ) {
        self.operation = operation
        self.database = database
        self.probability = probability
        self.error = error
        self.retryAfter = retryAfter
        self.latencyMs = latencyMs
        self.remaining = remaining
    }
}

/// What the fault rules decided for one request.
struct FaultDecision: Sendable {
    var latencyMs = 0
    var error: CloudKitServerError?
    var forceConflict = false
    var forceTokenExpired = false
    /// The first rule that fired (the request log shows it).
    var firedRule: String?
}

/// The fault rules, shared by all requests.
final class FaultRuleSet: Sendable {
    private let rules = Mutex<[FaultRule]>([])
    /// Draws against each rule's `probability`.
    private let random: RandomSource

    /// Creates an empty rule set.
    /// - Parameter random: Where the draws against `probability` come from.
    init(random: RandomSource = .system) { self.random = random }
    private let counter = Mutex(0)

    var all: [FaultRule] { rules.withLock { $0 } }

    /// Adds a rule and returns it with its ID.
    func add(_ rule: FaultRule) throws(CloudKitServerError) -> FaultRule {
        var rule = rule
        if let probability = rule.probability, !(0...1).contains(probability) {
            throw CloudKitServerError(.badRequest, "probability must be between 0 and 1")
        }
        if rule.error == nil, rule.latencyMs == nil {
            throw CloudKitServerError(.badRequest, "a fault rule needs an error, a latencyMs, or both")
        }
        if let database = rule.database, DatabaseEndpoint.Scope(rawValue: database) == nil {
            throw CloudKitServerError(.badRequest, "database must be public, private or shared")
        }
        let number = counter.withLock { value -> Int in
            value += 1
            return value
        }
        rule.id = rule.id ?? "fault-\(number)"
        rules.withLock { $0.append(rule) }
        return rule
    }

    func remove(id: String?) {
        rules.withLock { list in
            if let id { list.removeAll { $0.id == id } } else { list.removeAll() }
        }
    }

    /// Applies the matching rules to a request.
    func decide(operation: String, database: String) -> FaultDecision {
        var decision = FaultDecision()
        rules.withLock { list in
            for index in list.indices {
                let rule = list[index]
                guard rule.operation == nil || rule.operation == operation,
                    rule.database == nil || rule.database == database,
                    rule.remaining.map({ $0 > 0 }) ?? true,
                    random.unitInterval() < (rule.probability ?? 1)
                else { continue }
                if let remaining = rule.remaining { list[index].remaining = remaining - 1 }
                decision.firedRule = decision.firedRule ?? rule.id
                decision.latencyMs += rule.latencyMs ?? 0
                guard let code = rule.error, decision.error == nil, !decision.forceConflict, !decision.forceTokenExpired
                else { continue }
                switch code {
                case .conflict where operation == "records/modify":
                    decision.forceConflict = true
                case .changeTokenExpired where operation == "changes/zone":
                    decision.forceTokenExpired = true
                case .throttled, .tryAgainLater:
                    decision.error = CloudKitServerError(
                        code,
                        "\(code == .throttled ? "throttled" : "try again later") (emulator fault rule \(rule.id ?? ""))",
                        retryAfter: rule.retryAfter ?? 1)
                default:
                    decision.error = CloudKitServerError(
                        code, "forced by emulator fault rule \(rule.id ?? "")", retryAfter: rule.retryAfter)
                }
            }
            decision.error?.faultRule = decision.firedRule
            list.removeAll { $0.remaining == 0 }
        }
        return decision
    }
}
