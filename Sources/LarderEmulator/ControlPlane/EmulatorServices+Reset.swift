extension EmulatorServices {
    /// Empties the store, re-creates the default zones and the declared schema, and clears the
    /// request log and the fault rules (`POST /_emulator/reset` and the dashboard's reset).
    func resetState() async throws {
        try store.reset()
        try await store.ensureDefaultZones(configuration: configuration)
        try store.seed(schema: configuration.schema, containers: configuration.containers)
        requestLog.clear()
        faults.remove(id: nil)
    }
}
