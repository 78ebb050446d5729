import Hummingbird
import LarderCloudKit
import LarderCore

/// `assets/upload` and `assets/rereference` (WSREF/UploadAssets, RereferenceAssets).
///
/// Upload URLs for record fields, and new receipts for assets records already have. Both work in the public
/// and private databases, as Apple documents; the shared database answers `BAD_REQUEST`.
struct AssetsController: Sendable {
    let route: DatabaseRequestPipeline

    func register(on router: Router<EmulatorRequestContext>, base: String) {
        let store = route.services.store
        router.post("\(base)/assets/upload") { request, context in
            try await route.handle("assets/upload", request, context, body: AssetUploadRequest.self) { call, body, _ in
                try AssetsController.checkScope(call)
                return try await store.uploadAssets(body, call: call)
            }
        }
        router.post("\(base)/assets/rereference") { request, context in
            try await route.handle("assets/rereference", request, context, body: AssetRereferenceRequest.self) {
                call, body, _ in
                try AssetsController.checkScope(call)
                return try await store.rereferenceAssets(body, call: call)
            }
        }
    }

    private static func checkScope(_ call: DatabaseOperationContext) throws {
        guard call.scope != .shared else {
            throw call.error(.badRequest, "assets endpoints serve the public and private databases only")
        }
    }
}
