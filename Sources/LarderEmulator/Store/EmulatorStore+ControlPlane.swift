import GRDB

/// The control plane's transactions (`/_emulator/reset`, `/_emulator/schema/deploy`).
extension EmulatorStore {
    /// Creates the default zones `configuration` implies that are missing (a reset's step).
    ///
    /// - Throws: The store's error.
    func ensureDefaultZones(configuration: EmulatorConfiguration) async throws {
        try await writer.write { db in try DefaultZones.ensure(configuration: configuration, db: db) }
    }

    /// Copies `container`'s development schema (record types and fields) into production, keeping
    /// what production already has (`POST /_emulator/schema/deploy`).
    ///
    /// - Throws: The store's error.
    func deploySchema(container: String) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO schemaRecordType (container, environment, recordType)
                    SELECT container, 'production', recordType FROM schemaRecordType WHERE container = ? AND environment = 'development'
                    """, arguments: [container])
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO schemaField (container, environment, recordType, fieldName, type)
                    SELECT container, 'production', recordType, fieldName, type FROM schemaField
                    WHERE container = ? AND environment = 'development'
                    """, arguments: [container])
        }
    }
}
