/// A growable byte buffer with cheap appends, for writers' hot loops.
///
/// `Array.append(contentsOf:)` goes through generic sequence code; this copies with memcpy.
struct OutputBuffer: ~Copyable {
    private(set) var pointer: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 64 * 1024) {
        self.capacity = capacity
        pointer = .allocate(capacity: capacity)
    }

    deinit { pointer.deallocate() }

    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private mutating func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        bigger.update(from: pointer, count: count)
        pointer.deallocate()
        pointer = bigger
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        pointer[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        (pointer + count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    /// Appends the UTF-8 of any string.
    @inline(__always)
    mutating func append(string text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Drops everything from `mark` on (undo a partly written record).
    mutating func truncate(to mark: Int) {
        count = min(count, mark)
    }

    mutating func removeAll() {
        count = 0
    }

    /// The bytes written.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: pointer, count: count) }
}
