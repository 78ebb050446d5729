import Foundation
import HTTPTypes
import Hummingbird
import LarderCloudKit
import LarderCore

/// `/_emulator/…`: reset, export/import, the request log, fault rules, schema deploy, sign-in.
///
/// ``RequestGuard`` keeps web pages out (loopback `Host` and `Origin`, JSON bodies only) and asks
/// for the admin token off loopback; see docs/emulator.md.
struct ControlPlaneController: Sendable {
    let services: EmulatorServices

    func register(on router: Router<EmulatorRequestContext>) {
        let services = services
        let group = router.group("_emulator")
        group.get("health") { _, _ in
            JSONResponse.make(Data(#"{"status":"ok"}"#.utf8))
        }
        group.post("reset") { _, _ in
            try await services.resetState()
            return JSONResponse.make(Data(#"{"reset":true}"#.utf8))
        }
        group.get("export") { _, _ in
            JSONResponse.make(try StateArchive.export(services.store))
        }
        group.post("import") { request, _ in
            let buffer = try await RequestBodyReader.collect(request, upTo: 1 << 30)
            do {
                try StateArchive.restore(Data(buffer.readableBytesView), into: services.store)
            } catch let error as LarderError {
                throw CloudKitServerError.badRequest(error.message)
            }
            return JSONResponse.make(Data(#"{"imported":true}"#.utf8))
        }
        group.get("requests") { request, _ in
            let limit = QueryString.parse(request.uri.query)["limit"].flatMap(Int.init)
            return JSONResponse.make(
                try JSONResponse.encoder.encode(["requests": services.requestLog.entries(limit: limit)]))
        }
        group.delete("requests") { _, _ in
            services.requestLog.clear()
            return JSONResponse.make(Data(#"{"cleared":true}"#.utf8))
        }
        group.get("faults") { _, _ in
            JSONResponse.make(try JSONResponse.encoder.encode(["faults": services.faults.all]))
        }
        group.post("faults") { request, _ in
            let buffer = try await RequestBodyReader.collect(request, upTo: 1 << 20)
            let rule: FaultRule
            do {
                rule = try JSONDecoder().decode(FaultRule.self, from: Data(buffer.readableBytesView))
            } catch let error as DecodingError {
                throw CloudKitServerError.badRequest("invalid fault rule: \(DecodingErrorText.describe(error))")
            }
            let added = try services.faults.add(rule)
            return JSONResponse.make(try JSONResponse.encoder.encode(added))
        }
        group.delete("faults") { request, _ in
            services.faults.remove(id: QueryString.parse(request.uri.query)["id"])
            return JSONResponse.make(Data(#"{"cleared":true}"#.utf8))
        }
        group.post("schema/deploy") { request, _ in
            let container = QueryString.parse(request.uri.query)["container"] ?? services.configuration.containers[0]
            try await services.store.deploySchema(container: container)
            return JSONResponse.make(Data(#"{"deployed":true}"#.utf8))
        }
        group.get("export/larder") { request, _ in
            // A zone's records of one Larder type as the Larder JSON `larder` reads (the dashboard's
            // "Export as Larder JSON", naming the zone instead of its row id).
            let query = QueryString.parse(request.uri.query)
            guard let type = query["type"].flatMap(RecordType.init(rawValue:)) else {
                throw CloudKitServerError.badRequest("type must be one of recipe, brewRecipe, brewLog")
            }
            guard let environment = DatabaseEndpoint.Environment(rawValue: query["environment"] ?? "development")
            else { throw CloudKitServerError.badRequest("environment must be development or production") }
            let database = query["database"] ?? "private"
            let owner: String
            switch database {
            case "public": owner = DatabaseOperationContext.publicOwner
            case "private":
                guard let user = query["owner"], !user.isEmpty else {
                    throw CloudKitServerError.badRequest("owner (the zone owner's userRecordName) is required")
                }
                owner = user
            default: throw CloudKitServerError.badRequest("database must be private or public")
            }
            guard
                let zone = try await services.store.dashboardZone(
                    container: query["container"] ?? services.configuration.containers[0], environment: environment,
                    database: database, owner: owner, name: query["zone"] ?? RecordZoneID.defaultZoneName)
            else { throw CloudKitServerError(.notFound, "no such zone") }
            return DashboardExport.download(zone: zone, type: type, services: services)
        }
        group.get("webcourier/:container/:token") { _, context in
            // The long poll CloudKit JS parks on after `registerForNotifications()` (`webcourierURL`
            // of `tokens/create`). The emulator pushes nothing: it holds the poll, then answers `null`,
            // which CloudKit JS reads as "no notification" and polls again.
            let container = context.parameters.get("container") ?? ""
            let token = context.parameters.get("token") ?? ""
            guard services.configuration.containers.contains(container), token.utf8.count == 64,
                token.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
            else {
                throw CloudKitServerError(.notFound, "no notification channel for that container and APNs token")
            }
            let hold = services.configuration.webcourierHoldSeconds
            if hold > 0 { try? await services.clock.sleep(hold) }
            return JSONResponse.make(Data("null".utf8))
        }
        group.get("signin") { request, _ in
            // Stands in for Apple ID sign-in: ?user=<userRecordName or email or first name>.
            let wanted = QueryString.parse(request.uri.query)["user"]?.lowercased()
            guard let wanted,
                let user = services.configuration.users.first(where: {
                    $0.userRecordName.lowercased() == wanted || $0.emailAddress?.lowercased() == wanted
                        || $0.firstName?.lowercased() == wanted
                })
            else {
                let names = services.configuration.users.map { $0.firstName ?? $0.userRecordName }
                throw CloudKitServerError(
                    .notFound, "pass ?user=<name, email or userRecordName>; users: \(names.joined(separator: ", "))")
            }
            let token = services.authenticator.mint(
                for: user.userRecordName, nowMilliseconds: services.clock.milliseconds)
            return JSONResponse.make(
                try JSONResponse.encoder.encode(["ckWebAuthToken": token, "userRecordName": user.userRecordName]))
        }
    }
}
