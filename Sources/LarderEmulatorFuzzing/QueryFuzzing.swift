import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator

/// The emulator's query path for the `ck-query` fuzz target: a `records/query` body, decoded as the
/// server decodes it, its expression indexes made and its filters and sorts compiled to SQL and run
/// against an in-memory store holding a few records with fields of every type.
///
/// Everything the route does after authentication, minus HTTP: what a caller controls (field
/// names, comparators, values, distances, markers, limits) reaches SQL here.
enum QueryFuzzing {
    /// The store and the call every input runs with, made once.
    private struct Fixture {
        let store: EmulatorStore
        let call: DatabaseOperationContext
    }

    private static let container = "iCloud.fuzz"

    /// Records with a field of every type (and lists), in the owner's default zone.
    private static let seedRecords = #"""
        {"operations":[
        {"operationType":"create","record":{"recordName":"r1","recordType":"Recipe","fields":{
          "title":{"value":"Soup","type":"STRING"},"servings":{"value":4,"type":"INT64"},
          "rating":{"value":4.5,"type":"DOUBLE"},"cooked":{"value":1700000000000,"type":"TIMESTAMP"},
          "photo":{"value":"AAEC","type":"BYTES"},"where":{"value":{"latitude":48.85,"longitude":2.35},"type":"LOCATION"},
          "book":{"value":{"recordName":"b1","action":"NONE"},"type":"REFERENCE"},
          "tags":{"value":["quick","veg"],"type":"STRING_LIST"},"scores":{"value":[1,2,3],"type":"INT64_LIST"}}}},
        {"operationType":"create","record":{"recordName":"r2","recordType":"Recipe","fields":{
          "title":{"value":"Stew","type":"STRING"},"servings":{"value":6,"type":"INT64"},
          "rating":{"value":3.0,"type":"DOUBLE"},"where":{"value":{"latitude":51.5,"longitude":-0.12},"type":"LOCATION"},
          "tags":{"value":["slow"],"type":"STRING_LIST"}}}},
        {"operationType":"create","record":{"recordName":"b1","recordType":"Book","fields":{
          "title":{"value":"Winter","type":"STRING"}}}}
        ]}
        """#

    /// Nil when the fixture cannot be made: the target then reads nothing, and the seed test fails.
    private static let fixture: Fixture? = {
        var configuration = EmulatorConfiguration()
        configuration.inMemory = true
        configuration.containers = [container]
        let owner = "_fuzz"
        configuration.users = [EmulatorUser(userRecordName: owner, webAuthToken: "fuzz")]
        guard let store = try? EmulatorStore(directory: nil) else { return nil }
        let call = DatabaseOperationContext(
            endpoint: DatabaseEndpoint(container: container, environment: .development, database: .private),
            caller: Caller(userRecordName: owner), configuration: configuration,
            nowMilliseconds: 1_700_000_000_000, deviceID: "fuzz", random: .seeded(1))
        do {
            let request = try WireDecoder().decode(ModifyRecordsRequest.self, from: Array(seedRecords.utf8))
            try store.ensureDefaultZones(configuration: configuration)
            try store.modifyRecords(request, call: call)
        } catch {
            return nil
        }
        return Fixture(store: store, call: call)
    }()

    /// Runs one `records/query` body.
    /// - Parameter bytes: The request body.
    /// - Returns: The number of records the query answered with plus one for a request that
    ///   decoded (0: the body was refused before reaching SQL).
    static func run(_ bytes: [UInt8]) -> Int {
        guard let fixture, let request = try? WireDecoder().decode(QueryRecordsRequest.self, from: bytes) else {
            return 0
        }
        do {
            let response = try fixture.store.indexAndQuery(request, call: fixture.call)
            return 1 + response.records.count
        } catch is CloudKitServerError {
            return 1  // refused with a CloudKit error: what a bad query must get
        } catch {
            // SQL built from a caller's query failed: an injection or a missed validation (the
            // route would answer INTERNAL_ERROR). A finding, so the fuzzer keeps the input.
            fatalError("a query reached SQL that failed: \(error)")
        }
    }
}
