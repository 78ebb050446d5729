/// Splits file paths as text, without Foundation's path APIs: on Linux
/// `NSString.deletingLastPathComponent` crashes (SIGILL) on a one-character name such as `j`.
package enum PathParts {
    /// The directory holding `path`: `.` for a bare file name (`j`, `out.json`), `/` for a file
    /// at the root, otherwise everything before the last `/` (trailing and repeated slashes
    /// ignored).
    ///
    /// ```swift
    /// PathParts.directory(of: "j")            // "."
    /// PathParts.directory(of: "a/b/c.json")   // "a/b"
    /// PathParts.directory(of: "/c.json")      // "/"
    /// ```
    package static func directory(of path: String) -> String {
        var text = Substring(path)
        while text.count > 1, text.hasSuffix("/") { text = text.dropLast() }
        guard let slash = text.lastIndex(of: "/") else { return "." }
        var directory = text[..<slash]
        while directory.hasSuffix("/") { directory = directory.dropLast() }
        return directory.isEmpty ? "/" : String(directory)
    }
}
