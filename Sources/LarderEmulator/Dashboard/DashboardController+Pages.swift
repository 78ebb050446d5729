import Hummingbird
import LarderCloudKit
import LarderCore

extension DashboardController {
    /// How long a records page waits for its query while an index it needs is being built.
    static let indexingDeadline: Duration = .milliseconds(700)

    /// `work`'s result, or nil when it did not finish within `limit` (it is then cancelled, which
    /// interrupts a running SQLite statement); a zero `limit` does not start it.
    static func within<T: Sendable>(
        _ limit: Duration, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T? {
        guard limit > .zero else { return nil }
        let task = Task { try await work() }
        let timer = Task {
            try await Task.sleep(for: limit)
            task.cancel()
        }
        defer { timer.cancel() }
        do {
            return try await task.value
        } catch is CancellationError {
            return nil
        } catch let error where EmulatorStore.isInterruption(error) {
            return nil
        }
    }

    func zonesPage() async throws -> Response {
        let listed = try await services.store.zoneSummaries(limit: DashboardZonesPage.limit)
        let activity = try await services.store.zoneActivity(zoneIDs: listed.zones.map(\.id))
        let requests = DashboardRequestStats(
            entries: services.requestLog.entries(limit: nil), now: services.clock.milliseconds)
        let body = DashboardZonesPage.render(
            zones: listed.zones, hasMore: listed.hasMore, activity: activity, requests: requests,
            users: DashboardUsers(services.configuration.users))
        return DashboardPage.render(title: "Zones", body: body)
    }

    func recordsPage(_ parameters: [String: String]) async throws -> Response {
        try await recordsContent(parameters).response
    }

    /// The records page; while an index its filter or sort needs is being built, the query gets
    /// `deadline` (zero: not run at all), and past it the page says so and reloads itself.
    func recordsContent(
        _ parameters: [String: String], deadline: Duration = indexingDeadline
    ) async throws -> DashboardContent {
        let zoneNumber = parameters["zone"].flatMap { Int64($0) }
        let store = services.store
        guard let zone = try await store.dashboardZone(id: zoneNumber) else {
            return .failure(title: "Records", message: "No such zone.", status: .notFound)
        }
        let page = DashboardRecordsPage(zone: zone, parameters: parameters, services: services)
        let title = zone.title(users: DashboardUsers(services.configuration.users))
        do {
            let schema = try await store.recordTypes(container: zone.container, environment: zone.environment)
            let request = page.query(schema: schema)
            let progress = request.map { store.startBuildingIndexes(for: $0.query) }
            if let failed = progress?.failed, !failed.isEmpty {
                let reasons = failed.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
                return .failure(
                    title: title,
                    message: "Could not build the index on " + reasons.joined(separator: "; ")
                        + ". Reload to try again.",
                    status: .internalServerError)
            }
            // While an index is being built the query may still be quick (a filter that matches
            // early rows); give it until the deadline, then say what is happening and reload.
            let read: @Sendable () async throws -> ([Record], [(String, String)]?) = {
                try await page.records(request: request)
            }
            let pending = progress?.pending ?? []
            guard let (records, next) = pending.isEmpty ? try await read() : try await Self.within(deadline, read)
            else {
                let fields = pending.sorted().map { "<code>\(HTML.escape($0))</code>" }
                let body = """
                    <p id="indexing">Building the index on \(fields.joined(separator: ", ")) for the records of \
                    type <code>\(HTML.escape(page.recordType))</code>: over many records this takes a few \
                    seconds, once. This page reloads itself until the index is ready.</p>
                    """
                return .page(title: title, body: body, refresh: 1)
            }
            return .page(title: title, body: page.render(records: records, next: next, schema: schema))
        } catch let error as CloudKitServerError {
            return .failure(title: title, message: "\(error.code.rawValue): \(error.reason)")
        }
    }

    func recordPage(_ parameters: [String: String]) async throws -> Response {
        let zoneNumber = parameters["zone"].flatMap { Int64($0) }
        let name = parameters["name"] ?? ""
        guard let (zone, row) = try await services.store.dashboardRecord(zoneID: zoneNumber, name: name) else {
            return DashboardPage.failure(
                title: "Record", message: "No record '\(name)' in that zone.", status: .notFound)
        }
        let notice = parameters["done"].map { "Done: \($0)." }
        let body = try DashboardRecordPage(
            zone: zone, row: row, services: services, csrf: csrfToken, notice: notice
        ).render()
        return DashboardPage.render(title: "\(row.type) \(row.name)", body: body)
    }

    func changesPage(_ parameters: [String: String]) async throws -> Response {
        let zoneNumber = parameters["zone"].flatMap { Int64($0) }
        let before = parameters["before"].flatMap { Int64($0) }
        let feed = try await services.store.changeFeed(
            zoneID: zoneNumber, before: before, limit: DashboardChangesPage.pageSize)
        guard let (zone, entries, hasMore) = feed else {
            return DashboardPage.failure(title: "Changes", message: "No such zone.", status: .notFound)
        }
        let body = DashboardChangesPage.render(
            zone: zone, entries: entries, hasMore: hasMore, users: DashboardUsers(services.configuration.users))
        return DashboardPage.render(title: "Change feed", body: body)
    }
}
