#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An image's bytes: one allocation owned by a class instance, shared by copies of the buffer until
/// one of them writes (copy-on-write, as `Array` does).
///
/// `Image.pixels` and a `RowStream`'s ring are this type, so a whole frame passes between an image
/// and a stream without a copy: the stream keeps the buffer (whose storage keeps the allocation
/// alive) and writes its rows at `baseAddress`, an address that belongs to the storage for its whole
/// life — never a pointer carried out of a `withUnsafe…` closure that lent it.
///
/// It reads like `[UInt8]`: indices from 0, `count`, subscripts, `withUnsafeBufferPointer` and
/// friends, `init(repeating:count:)`, `init(unsafeUninitializedCapacity:initializingWith:)`, array
/// literals, `PixelBuffer(array)` and `Array(buffer)` (one `memcpy` either way). Element access is
/// inlinable and bounds-checked; reading is as fast as an array's, writing byte by byte is not (see
/// the subscript).
///
/// `@unchecked Sendable`: `base` is the address of the storage the buffer holds (a `Sendable`
/// class instance), and bytes are written only after `makeUnique`, so a buffer sent to another
/// thread never writes bytes a buffer left behind can see.
public struct PixelBuffer: @unchecked Sendable {
    /// The owner of the bytes; copies of the buffer share it until one writes.
    @usableFromInline var storage: PixelStorage
    /// `storage.base`, kept beside it so element access needs no load through the class.
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    /// How many bytes the buffer holds (the storage may have room for more).
    public let count: Int

    @inlinable init(storage: PixelStorage, count: Int) {
        self.storage = storage
        base = storage.base
        self.count = count
    }

    /// An empty buffer.
    @inlinable public init() {
        self.init(storage: PixelStorage(capacity: 0), count: 0)
    }

    /// `count` copies of `value`.
    @inlinable public init(repeating value: UInt8, count: Int) {
        precondition(count >= 0, "PixelBuffer(repeating:count:) with a negative count \(count)")
        let storage = PixelStorage(capacity: count)
        storage.base.initialize(repeating: value, count: count)
        self.init(storage: storage, count: count)
    }

    /// A buffer of `capacity` bytes written by `initializer`, which sets how many it wrote (at most
    /// `capacity`), as `Array`'s initializer of the same name. A buffer of `PixelMemory.largeBytes`
    /// or more is advised to use huge pages before it is written.
    @inlinable public init(unsafeUninitializedCapacity capacity: Int,
                           initializingWith initializer: (inout UnsafeMutableBufferPointer<UInt8>, inout Int) throws -> Void) rethrows {
        precondition(capacity >= 0, "PixelBuffer(unsafeUninitializedCapacity:) with a negative capacity \(capacity)")
        let storage = PixelStorage(capacity: capacity)
        let allocated = UnsafeMutableBufferPointer(start: storage.base, count: capacity)
        PixelMemory.advise(UnsafeMutableRawBufferPointer(allocated))
        var buffer = allocated
        var written = 0
        try initializer(&buffer, &written)
        precondition(buffer.baseAddress == allocated.baseAddress && buffer.count == capacity,
                     "PixelBuffer(unsafeUninitializedCapacity:): the initializer replaced its buffer")
        precondition(written >= 0 && written <= capacity,
                     "PixelBuffer(unsafeUninitializedCapacity:): \(written) bytes written into \(capacity)")
        self.init(storage: storage, count: written)
    }

    /// `count` bytes left as the allocator gives them, for a producer that writes every one before
    /// anything reads them (a stream's ring).
    @inlinable public init(uninitializedCount count: Int) {
        self.init(unsafeUninitializedCapacity: count) { _, written in written = count }
    }

    /// A copy of `bytes`.
    @inlinable public init(_ bytes: [UInt8]) {
        self = bytes.withUnsafeBufferPointer { source in
            PixelBuffer(unsafeUninitializedCapacity: source.count) { buffer, written in
                if let from = source.baseAddress { buffer.baseAddress?.update(from: from, count: source.count) }
                written = source.count
            }
        }
    }

    /// A copy of a sequence of bytes (one `memcpy` when it is contiguous).
    @inlinable public init<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if let copy = bytes.withContiguousStorageIfAvailable({ source in
            PixelBuffer(unsafeUninitializedCapacity: source.count) { buffer, written in
                if let from = source.baseAddress { buffer.baseAddress?.update(from: from, count: source.count) }
                written = source.count
            }
        }) {
            self = copy
        } else {
            self.init(Array(bytes))
        }
    }

    /// The address of the first byte, for C code and for telling storages apart. It is the
    /// storage's, so it stays valid while this buffer, or any copy sharing its storage, lives; it
    /// changes only when this buffer is written while shared (the write goes to a new copy). Read
    /// through it only; write through `withUnsafeMutableBufferPointer`.
    @inlinable public var baseAddress: UnsafePointer<UInt8> { UnsafePointer(base) }

    /// Whether no other buffer shares this one's storage (a write would not copy).
    @inlinable public mutating func isUniquelyReferenced() -> Bool {
        isKnownUniquelyReferenced(&storage)
    }

    /// Makes the storage this buffer's alone, copying the bytes if another buffer shares them.
    @inlinable public mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { copyStorage() }
    }

    @usableFromInline mutating func copyStorage() {
        let copy = PixelStorage(capacity: count)
        PixelMemory.advise(UnsafeMutableRawBufferPointer(start: copy.base, count: count))
        copy.base.initialize(from: base, count: count)
        storage = copy
        base = copy.base
    }

    /// The storage's address for writing, made this buffer's alone first: valid while the buffer
    /// keeps this storage (until it is dropped, or shared and then written). A `RowStream` writes its
    /// rows here while it holds the buffer and lends it to no one.
    @inlinable mutating func uniqueMutableBase() -> UnsafeMutablePointer<UInt8> {
        makeUnique()
        return base
    }

    // MARK: Lending the bytes, as `Array` does

    @inlinable public func withUnsafeBufferPointer<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    @inlinable public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Lends the bytes for writing, made this buffer's alone first. The body must not replace the
    /// buffer it is given.
    @inlinable public mutating func withUnsafeMutableBufferPointer<R, E: Error>(
        _ body: (inout UnsafeMutableBufferPointer<UInt8>) throws(E) -> R
    ) throws(E) -> R {
        makeUnique()
        let lent = UnsafeMutableBufferPointer(start: base, count: count)
        var buffer = lent
        defer {
            precondition(buffer.baseAddress == lent.baseAddress && buffer.count == lent.count,
                         "PixelBuffer.withUnsafeMutableBufferPointer: the body replaced its buffer")
        }
        return try body(&buffer)
    }

    @inlinable public mutating func withUnsafeMutableBytes<R, E: Error>(_ body: (UnsafeMutableRawBufferPointer) throws(E) -> R) throws(E) -> R {
        makeUnique()
        return try body(UnsafeMutableRawBufferPointer(start: base, count: count))
    }
}

extension PixelBuffer: RandomAccessCollection, MutableCollection {
    public typealias Index = Int
    public typealias Indices = Range<Int>
    public typealias Element = UInt8

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }
    @inlinable public var isEmpty: Bool { count == 0 }
    @inlinable public var indices: Range<Int> { 0..<count }
    @inlinable public func index(after i: Int) -> Int { i + 1 }
    @inlinable public func index(before i: Int) -> Int { i - 1 }
    @inlinable public func index(_ i: Int, offsetBy distance: Int) -> Int { i + distance }
    @inlinable public func distance(from start: Int, to end: Int) -> Int { end - start }

    /// One byte. Reading compiles to the loop an array's would; each write first checks that the
    /// storage is this buffer's alone (a runtime call the optimiser cannot hoist out of a loop, as
    /// it does for `Array`), so a loop that writes many bytes belongs in
    /// `withUnsafeMutableBufferPointer` (one check).
    @inlinable public subscript(position: Int) -> UInt8 {
        get {
            precondition(position >= 0 && position < count, "PixelBuffer index \(position) out of range 0..<\(count)")
            return base[position]
        }
        set {
            precondition(position >= 0 && position < count, "PixelBuffer index \(position) out of range 0..<\(count)")
            makeUnique()
            base[position] = newValue
        }
    }

    @inlinable public subscript(bounds: Range<Int>) -> Slice<PixelBuffer> {
        get {
            precondition(bounds.lowerBound >= 0 && bounds.upperBound <= count, "PixelBuffer range \(bounds) out of range 0..<\(count)")
            return Slice(base: self, bounds: bounds)
        }
        set {
            precondition(bounds.lowerBound >= 0 && bounds.upperBound <= count, "PixelBuffer range \(bounds) out of range 0..<\(count)")
            precondition(newValue.count == bounds.count, "PixelBuffer: a slice of \(newValue.count) bytes assigned to \(bounds.count)")
            makeUnique()
            var i = bounds.lowerBound
            for byte in newValue {
                base[i] = byte
                i += 1
            }
        }
    }

    @inlinable public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    @inlinable public mutating func withContiguousMutableStorageIfAvailable<R>(
        _ body: (inout UnsafeMutableBufferPointer<UInt8>) throws -> R
    ) rethrows -> R? {
        try withUnsafeMutableBufferPointer(body)
    }
}

extension PixelBuffer: Equatable, Hashable {
    @inlinable public static func == (lhs: PixelBuffer, rhs: PixelBuffer) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.base == rhs.base || lhs.count == 0 || memcmp(lhs.base, rhs.base, lhs.count) == 0
    }

    /// Whether the buffer holds exactly these bytes (code written when pixels were an array).
    @inlinable public static func == (lhs: PixelBuffer, rhs: [UInt8]) -> Bool {
        lhs.count == rhs.count && rhs.withUnsafeBufferPointer { bytes in
            guard let other = bytes.baseAddress else { return true }
            return memcmp(lhs.base, other, bytes.count) == 0
        }
    }

    @inlinable public static func == (lhs: [UInt8], rhs: PixelBuffer) -> Bool { rhs == lhs }
    @inlinable public static func != (lhs: PixelBuffer, rhs: [UInt8]) -> Bool { !(lhs == rhs) }
    @inlinable public static func != (lhs: [UInt8], rhs: PixelBuffer) -> Bool { !(rhs == lhs) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}

extension PixelBuffer: ExpressibleByArrayLiteral {
    @inlinable public init(arrayLiteral bytes: UInt8...) { self.init(bytes) }
}

extension PixelBuffer: CustomStringConvertible, CustomDebugStringConvertible {
    /// The bytes as an array's would print for a small buffer (test failures), else the size.
    public var description: String {
        count <= 64 ? Array(self).description : "\(count) bytes"
    }

    public var debugDescription: String { "PixelBuffer(\(description))" }
}

extension Array where Element == UInt8 {
    /// A copy of a pixel buffer's bytes (one `memcpy`).
    @inlinable public init(_ pixels: PixelBuffer) {
        self = pixels.withUnsafeBufferPointer { source in
            [UInt8](unsafeUninitializedCapacity: source.count) { buffer, written in
                if let from = source.baseAddress { buffer.baseAddress?.update(from: from, count: source.count) }
                written = source.count
            }
        }
    }
}

/// The allocation behind `PixelBuffer`: `capacity` bytes (at least one, so the address is never
/// null), freed when the last buffer sharing it goes away.
///
/// `@unchecked Sendable`: the bytes are written only through a buffer that holds the storage alone
/// (`PixelBuffer.makeUnique` before every write), so storage shared between threads is only read;
/// a `RowStream` that writes rows of the storage it holds orders those writes with its reads by its
/// own lock.
@usableFromInline final class PixelStorage: @unchecked Sendable {
    @usableFromInline let base: UnsafeMutablePointer<UInt8>

    @inlinable init(capacity: Int) {
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, capacity))
    }

    deinit { base.deallocate() }
}
