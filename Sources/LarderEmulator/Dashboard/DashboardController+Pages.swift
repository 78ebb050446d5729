import GRDB
import Hummingbird
import LarderCloudKit

extension DashboardController {
    func zonesPage() async throws -> Response {
        let body = try await services.store.writer.read { db in try DashboardZonesPage.render(db: db) }
        return DashboardPage.render(title: "Zones", body: body)
    }

    func recordsPage(_ parameters: [String: String]) async throws -> Response {
        let zoneNumber = parameters["zone"].flatMap { Int64($0) }
        let store = services.store
        guard let zone = try await store.writer.read({ db in try DashboardZone.fetch(id: zoneNumber, db: db) }) else {
            return DashboardPage.failure(title: "Records", message: "No such zone.", status: .notFound)
        }
        let page = DashboardRecordsPage(zone: zone, parameters: parameters, services: services)
        do {
            let schema = try await store.writer.read { db in try zone.schema(db: db) }
            let request = page.query(schema: schema)
            if let request { try await store.queryIndexes.ensure(for: request.query, in: store.writer) }
            let (records, next) = try await store.writer.read { db in try page.records(request: request, db: db) }
            return DashboardPage.render(
                title: zone.title, body: page.render(records: records, next: next, schema: schema))
        } catch let error as CloudKitServerError {
            return DashboardPage.failure(title: zone.title, message: "\(error.code.rawValue): \(error.reason)")
        }
    }

    func recordPage(_ parameters: [String: String]) async throws -> Response {
        let zoneNumber = parameters["zone"].flatMap { Int64($0) }
        let name = parameters["name"] ?? ""
        let services = services
        let found = try await services.store.writer.read { db -> (DashboardZone, RecordRow)? in
            guard let zone = try DashboardZone.fetch(id: zoneNumber, db: db),
                let row = try RecordRow.fetch(zoneID: zone.row.id, name: name, in: db)
            else { return nil }
            return (zone, row)
        }
        guard let (zone, row) = found else {
            return DashboardPage.failure(
                title: "Record", message: "No record '\(name)' in that zone.", status: .notFound)
        }
        let body = try DashboardRecordPage(zone: zone, row: row, services: services).render()
        return DashboardPage.render(title: "\(row.type) \(row.name)", body: body)
    }

    func changesPage(_ parameters: [String: String]) async throws -> Response {
        let zoneNumber = parameters["zone"].flatMap { Int64($0) }
        let before = parameters["before"].flatMap { Int64($0) }
        let body = try await services.store.writer.read { db -> String? in
            guard let zone = try DashboardZone.fetch(id: zoneNumber, db: db) else { return nil }
            return try DashboardChangesPage.render(zone: zone, before: before, db: db)
        }
        guard let body else {
            return DashboardPage.failure(title: "Changes", message: "No such zone.", status: .notFound)
        }
        return DashboardPage.render(title: "Change feed", body: body)
    }
}
