import GRDB
import LarderFormats
import LarderSystem

/// The store's side of the fault-injection seam: with a `commit` rule in force
/// (`LARDER_FAULT_IO="commit.enospc@1:*.db"`, see ``IOFaultPlan``), a commit of the store fails
/// the way SQLite reports a full disk (`ENOSPC` → `SQLITE_FULL`) or an I/O error (`SQLITE_IOERR`).
///
/// It is a GRDB transaction observer throwing from `databaseWillCommit`: SQLite's commit hook
/// then turns the `COMMIT` into a real rollback, so the tests see what SQLite leaves after a
/// failed commit. Installed only when a plan is in force when the store opens; otherwise the
/// store has no observer and pays nothing.
final class CommitFault: TransactionObserver {
    private let scope: FileSystemCalls.Scope
    private let path: String

    private init(scope: FileSystemCalls.Scope, path: String) {
        self.scope = scope
        self.path = path
    }

    /// Installs the hook on the store at `path` when a fault plan is in force.
    static func install(on database: DatabaseQueue, path: String) {
        guard let scope = FileSystemCalls.currentScope else { return }
        database.add(transactionObserver: CommitFault(scope: scope, path: path), extent: .databaseLifetime)
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }

    func databaseDidChange(with event: DatabaseEvent) {}

    func databaseWillCommit() throws {
        guard let code = scope.commitError(path: path) else { return }
        let resultCode: ResultCode = code == ENOSPC ? .SQLITE_FULL : .SQLITE_IOERR
        throw DatabaseError(
            resultCode: resultCode, message: "\(String(cString: strerror(code))) (injected by LARDER_FAULT_IO)")
    }

    func databaseDidCommit(_ db: Database) {}

    func databaseDidRollback(_ db: Database) {}
}
