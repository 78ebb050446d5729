extension UploadReport {
    /// Takes the preparation stages' counts: read, migrated, abandoned inputs, merged by dedupe,
    /// and (with dedupe) the seconds the pass took.
    mutating func add(_ stages: UploadPreparation.Stages) {
        read += stages.migration.read
        migrated += stages.migration.migrated
        abandonedInputs += stages.migration.abandonedInputs
        if let dedupe = stages.dedupe {
            mergedByDedupe += dedupe.mergedAway
            preparationSeconds += dedupe.seconds
        }
    }

    /// Takes the dead letters' counts, by stage, and the file they are in (when there are any).
    mutating func add(_ deadLetters: DeadLetters, path: String) {
        self.deadLetters = deadLetters.count
        deadLettersByStage = deadLetters.byStage
        deadLetterFile = deadLetters.count > 0 ? path : nil
    }
}
