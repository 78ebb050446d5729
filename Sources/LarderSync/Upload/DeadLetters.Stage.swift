import LarderCore
import LarderFormats

extension DeadLetters {
    /// The dead letters of one stage (`migrate`, `dedupe`) as a ``DiagnosticSink``: each record
    /// rejected there becomes a dead letter with the error's code and text as its reason.
    final class Stage: DiagnosticSink {
        private let letters: DeadLetters
        private let name: String
        private let recordType: String?
        private let origin: String?

        init(letters: DeadLetters, name: String, recordType: String?, origin: String?) {
            self.letters = letters
            self.name = name
            self.recordType = recordType
            self.origin = origin
        }

        /// Adds the record as a dead letter of this stage; its origin is the stage's, else the error's file.
        func reject(_ record: Value?, _ error: LarderError, raw: String?) throws {
            try letters.add(
                record: record, recordName: nil, recordType: recordType, stage: name, code: error.code.rawValue,
                reason: error.description, origin: origin ?? error.location?.file)
        }

        /// Keeps the warning with the upload's others.
        func warn(_ diagnostic: Diagnostic) {
            letters.warn(diagnostic)
        }
    }

    /// The sink for the records stage `name` rejects.
    /// - Parameters:
    ///   - name: the stage, as the dead letters name it.
    ///   - recordType: the type of every record the stage handles, when it has one.
    ///   - origin: where every record of the stage comes from (an input), when that is one place.
    /// - Returns: a sink adding each record it is given as a dead letter of the stage.
    func stage(_ name: String, recordType: String? = nil, origin: String? = nil) -> Stage {
        Stage(letters: self, name: name, recordType: recordType, origin: origin)
    }
}
