/// The configured users' names, so pages show "Alice Liddell" next to `_a11ce…` instead of the
/// record name alone.
///
/// The names come from the emulator's user directory (the configuration's `users`); a user record
/// name the configuration does not know is shown as it is.
struct DashboardUsers {
    /// Display names by user record name (users with neither first nor last name are left out).
    let names: [String: String]

    /// The names of `users`.
    init(_ users: [EmulatorUser]) {
        var names: [String: String] = [:]
        for user in users {
            let name = [user.firstName, user.lastName].compactMap { $0 }.joined(separator: " ")
            if !name.isEmpty { names[user.userRecordName] = name }
        }
        self.names = names
    }

    /// `userRecordName` as HTML: the user's name with the record name after it in a muted
    /// `<code>`, or the escaped record name alone when the name is unknown.
    func html(_ userRecordName: String) -> String {
        guard let name = names[userRecordName] else { return HTML.escape(userRecordName) }
        return "<span class=\"user\">\(HTML.escape(name))</span> "
            + "<code class=\"muted\">\(HTML.escape(userRecordName))</code>"
    }

    /// `userRecordName` as plain text: "Name (record name)", or the record name alone.
    func text(_ userRecordName: String) -> String {
        names[userRecordName].map { "\($0) (\(userRecordName))" } ?? userRecordName
    }
}
