import LarderSQLite

/// The store's tables, as the errors of reading their rows name them (see ``Store/storeError(path:_:doing:)``).
extension StoredTable {
    static let records = StoredTable("records", key: ["type", "id"])
    static let schemaState = StoredTable("schema_state", key: ["type"])
    static let history = StoredTable("history", key: ["rank"])
    static let devices = StoredTable("devices", key: ["id"])
    static let pendingChanges = StoredTable("pending_changes", key: ["type", "id"])
    static let recipeCache = StoredTable("recipe_cache", key: ["id"])
    static let recipeCacheMeta = StoredTable("recipe_cache_meta", key: ["key"])
}
