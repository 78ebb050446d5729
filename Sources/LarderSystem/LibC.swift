#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The C library's calls by a name no member can shadow.
///
/// Inside a type with a member of the same name (an `ArgumentParser` command's `exit(withError:)`,
/// a writer's `write(_:)`, a sink's `close()`), an unqualified `exit`, `write` or `close` finds the
/// member; these forward to the C library of the platform (through the file-scope functions below,
/// where the C names are not shadowed), with its own signature and result.
package enum LibC {
    /// `open(2)` without a mode: the descriptor, or -1 with `errno` set.
    package static func open(_ path: String, _ flags: Int32) -> Int32 { cOpen(path, flags) }

    /// `read(2)`: the count read (0 at the end), or -1 with `errno` set.
    package static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        cRead(fd, buffer, count)
    }

    /// `write(2)`: the count written (a short write may move fewer), or -1 with `errno` set.
    package static func write(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
        cWrite(fd, bytes, count)
    }

    /// `close(2)`: 0, or -1 with `errno` set.
    @discardableResult
    package static func close(_ fd: Int32) -> Int32 { cClose(fd) }

    /// `fsync(2)`: 0, or -1 with `errno` set.
    package static func fsync(_ fd: Int32) -> Int32 { cFsync(fd) }

    /// `rename(2)`: 0, or -1 with `errno` set.
    package static func rename(_ source: String, _ destination: String) -> Int32 { cRename(source, destination) }

    /// `exit(3)`: runs the `atexit` handlers, flushes stdio and ends the process with `status`.
    package static func exit(_ status: Int32) -> Never { cExit(status) }
}

private func cOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
private func cRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
private func cWrite(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, bytes, count) }
private func cClose(_ fd: Int32) -> Int32 { close(fd) }
private func cFsync(_ fd: Int32) -> Int32 { fsync(fd) }
private func cRename(_ source: String, _ destination: String) -> Int32 { rename(source, destination) }
private func cExit(_ status: Int32) -> Never { exit(status) }
