/// Where a CloudKit database lives: `/database/1/{container}/{environment}/{database}/`.
public struct DatabaseEndpoint: Sendable, Hashable {
    /// `development` or `production`.
    public enum Environment: String, Sendable, Hashable, Codable, CaseIterable {
        case development, production
    }

    /// `public`, `private` or `shared`.
    public enum Scope: String, Sendable, Hashable, Codable, CaseIterable {
        case `public`, `private`, shared
    }

    public var container: String
    public var environment: Environment
    public var database: Scope

    public init(container: String, environment: Environment = .development, database: Scope) {
        self.container = container
        self.environment = environment
        self.database = database
    }

    /// The URL path of an operation, such as `records/modify`.
    public func path(_ operation: String) -> String {
        "/database/1/\(container)/\(environment.rawValue)/\(database.rawValue)/\(operation)"
    }
}
