// The one place Larder imports the platform's C library. Every other module imports LarderSystem
// (`internal import LarderSystem`) and gets the POSIX calls from here, plus the wrappers in this module
// for the calls that differ between platforms or that a member of the same name would shadow.
//
// The POSIX calls Larder makes with the C library's own names (open, read, pread, pwrite, write, close,
// fsync, rename, unlink, link, symlink, rmdir, stat, fstat, lstat, realpath, mkstemp, opendir, readdir,
// closedir, lseek, ftruncate, chmod, fchmod, umask, kill, getpid, signal, isatty, getenv, strerror,
// errno, gmtime_r, timegm, memchr, memcmp, memcpy, free, random) have the same Swift signatures in
// Glibc, Darwin and Musl; those that do not are wrapped in this module (``ProcessResources``,
// ``Allocator``, ``Signals``, ``LibC``, ``CurrentThread``).
#if canImport(Glibc)
@_exported public import Glibc
#elseif canImport(Darwin)
@_exported public import Darwin
#elseif canImport(Musl)
@_exported public import Musl
#else
#error("LarderSystem: no C library module (Glibc, Darwin or Musl) on this platform")
#endif
