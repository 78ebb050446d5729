import LarderCore
import LarderImport

/// Notices when `larder convert` or `larder migrate` rejects a recipe written by hand or exported
/// by a script (one ``PlainRecipe`` reads) and points, once per run, to `larder import`.
final class PlainFileHint {
    /// The first input whose rejected record reads as a plain recipe.
    private(set) var file: String?

    /// Looks at a rejected record.
    func observe(_ record: Value, _ error: LarderError) {
        guard file == nil, PlainRecipe.canRead(record) else { return }
        file = error.location?.file ?? "the input"
    }

    /// The hint, when a rejected record was a plain recipe.
    var text: String? {
        file.map {
            "\($0) holds recipes written by hand or by a script, not Larder records; `larder import \($0)` "
                + "reads such files (convert and migrate read Larder records only)"
        }
    }

    /// Reports `error` and then the hint, and exits with the error's status; without a hint, rethrows
    /// `error` for ``ExitStatus`` to report.
    func fail(with error: any Error) throws -> Never {
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
