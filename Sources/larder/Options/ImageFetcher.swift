import Foundation
import LarderCore
import LarderSync
import Synchronization

/// Fetches a recipe's linked photo for the printed cookbook (`larder export --fetch-images`):
/// `http(s)` only, at most 20 MB, 30 seconds per photo, a 2xx answer; the caller checks the bytes
/// are an image.
final class ImageFetcher: Sendable {
    /// The largest photo taken.
    static let maxBytes = 20 << 20
    private let transport = URLSessionTransport(timeout: 30, maxConnections: 4)

    /// The bytes at `url`, or why not.
    func fetch(_ url: String) -> Result<[UInt8], LarderError> {
        guard let address = URL(string: url), let scheme = address.scheme?.lowercased(),
            scheme == "http" || scheme == "https"
        else { return .failure(LarderError(.refusedInput, "not an http(s) URL")) }
        let request = TransportRequest(method: "GET", url: address, maxResponseBytes: Self.maxBytes)
        let outcome = Mutex<Result<[UInt8], LarderError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let transport = self.transport
        Task {
            let result: Result<[UInt8], LarderError>
            do {
                let response = try await transport.send(request)
                result =
                    (200..<300).contains(response.status)
                    ? .success([UInt8](response.body))
                    : .failure(LarderError(.network, "the server answered \(response.status)"))
            } catch {
                result = .failure(LarderError(.network, "\(error)"))
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return outcome.withLock { $0 } ?? .failure(LarderError(.network, "no answer"))
    }
}
