import Foundation
import LarderCore
import LarderImport

/// Notices when `larder convert` or `larder migrate` rejects a recipe written by hand or exported
/// by a script (one ``PlainRecipe`` reads) and points, once per run, to `larder import`.
final class PlainFileHint {
    /// The first input whose rejected record reads as a plain recipe.
    private(set) var file: String?
    /// The hint for an input that is another app's export (a Cookmate backup, a Gourmet file, …).
    private(set) var appExport: String?

    /// Looks at a rejected record.
    func observe(_ record: Value, _ error: LarderError) {
        guard file == nil, appExport == nil else { return }
        if PlainRecipe.canRead(record) {
            file = error.location?.file ?? "the input"
        } else if let input = error.location?.file {
            appExport = Self.appExportHint(input)
        }
    }

    /// `file` is an app's export `larder import` reads (detected as it would be), if it is one.
    static func appExportHint(_ file: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue,
            let format = try? ImportFormat.detect(path: file), format != .plain
        else { return nil }
        return
            "\(file) looks like a \(format.displayName) export, not Larder records; `larder import \(file)` reads it "
            + "(convert and migrate read Larder records only)"
    }

    /// The hint, when a rejected record was a plain recipe or the input is an app's export.
    var text: String? {
        appExport
            ?? file.map {
                "\($0) holds recipes written by hand or by a script, not Larder records; `larder import \($0)` "
                    + "reads such files (convert and migrate read Larder records only)"
            }
    }

    /// Reports `error` and then the hint, and exits with the error's status; without a hint, rethrows
    /// `error` for ``ExitStatus`` to report.
    func fail(with error: any Error) throws -> Never {
        if text == nil, let input = (error as? LarderError)?.location?.file { appExport = Self.appExportHint(input) }
        guard text != nil, let larderError = error as? LarderError else { throw error }
        Stderr.print("larder: " + larderError.description)
        print()
        throw DataErrorsExit(status: ExitStatus.status(for: larderError.code))
    }

    /// Prints the hint to stderr, when there is one.
    func print() {
        if let text { Stderr.print("larder: hint: " + text) }
    }
}
