#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Dispatch
import Synchronization
import SumiKit

/// How an image's predicted rows are cut into independently compressed parts, and the compression
/// of one part. `FlateImageEncoder` (a whole image) and `FlateRowEncoder` (rows as they arrive) both
/// go through here, so they make the same bytes.
///
/// A part is about `partBytes` of predicted data: a raw deflate stream primed with the 32 KiB of
/// predicted data before it and ended with a sync flush (the last one finished), joined into one zlib
/// stream. The size of a part depends on the row length alone — not on the machine's cores — so
/// the output is the same everywhere, and parts are small enough that rows arriving one after
/// another keep both cores compressing. Priming keeps the cost in size to a few bytes a part.
enum FlateParts {
    /// Predicted bytes a part holds, about.
    static let partBytes = 1 << 20
    /// Predicted bytes given to zlib at a time within a part.
    static let batchBytes = 1 << 16
    /// The dictionary a part is primed with.
    static let dictionaryBytes = 32 * 1024

    /// Rows in each part but the last.
    static func rowsPerPart(rowLength: Int) -> Int { max(16, partBytes / (rowLength + 1)) }

    /// Where the parts of an image `height` rows tall begin, and the end.
    static func bounds(height: Int, rowLength: Int) -> [Int] {
        Array(Swift.stride(from: 0, to: max(1, height), by: rowsPerPart(rowLength: rowLength))) + [height]
    }

    /// Parts compressed at once: one a core, so a long image keeps every core busy.
    static var concurrency: Int { max(1, min(8, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))) }

    /// Compresses one part's predicted rows (`rows.count` is a whole number of rows of
    /// `rowLength + 1` bytes) as raw deflate primed with `dictionary`; returns the bytes and the
    /// rows' Adler-32.
    static func compress(_ rows: [UInt8], rowLength: Int, dictionary: ArraySlice<UInt8>, last: Bool,
                         level: Int32) throws -> (bytes: [UInt8], adler: UInt32) {
        let deflater = try DeflateStream(level: level)
        if !dictionary.isEmpty { try deflater.setDictionary(Array(dictionary)) }
        let out = ByteCollector()
        let stride = rowLength + 1
        let batch = max(1, batchBytes / stride) * stride
        var start = 0
        repeat {
            let end = min(rows.count, start + batch)
            let flush: DeflateStream.Flush = end < rows.count ? .none : (last ? .finish : .sync)
            try rows.withUnsafeBufferPointer { try deflater.compress(UnsafeBufferPointer(rebasing: $0[start..<end]), flush: flush, into: out) }
            start = end
        } while start < rows.count
        let adler = rows.withUnsafeBufferPointer { DeflateStream.adler32(1, $0) }
        return (out.bytes, adler)
    }

    /// The zlib stream of compressed parts: header, the parts, the Adler-32 of all the rows.
    static func join(_ parts: [(bytes: [UInt8], adler: UInt32, length: Int)], into sink: any ByteOutput) throws {
        try sink.write([0x78, 0x9C])
        var adler: UInt32 = 1
        for (i, part) in parts.enumerated() {
            adler = i == 0 ? part.adler : DeflateStream.combine(adler, part.adler, secondLength: part.length)
            try sink.write(part.bytes)
        }
        try sink.write([UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)])
    }
}

/// Parts compressed on a queue of their own (its threads are made on demand, so waiting cannot
/// starve when the caller runs on a pool thread); at most `FlateParts.concurrency` parts are being
/// compressed at once in the whole process — a page's candidate streams and a batch's runs share
/// the cores, and memory holds only that many parts; results kept in order.
final class PartCompressor: @unchecked Sendable {
    private static let queue = DispatchQueue(label: "sumi.page.flate", attributes: .concurrent)
    private static let room = DispatchSemaphore(value: FlateParts.concurrency)
    private var queue: DispatchQueue { Self.queue }
    private var room: DispatchSemaphore { Self.room }
    private let group = DispatchGroup()
    private let results = Mutex<[Int: Result<(bytes: [UInt8], adler: UInt32, length: Int), any Error>]>([:])
    private let failed = Atomic<Bool>(false)
    private var count = 0
    let rowLength: Int
    let level: Int32

    init(rowLength: Int, level: Int32) {
        self.rowLength = rowLength
        self.level = level
    }

    /// Whether a part failed so far (the caller stops early).
    var hasFailed: Bool { failed.load(ordering: .relaxed) }

    /// Compresses a part — its predicted rows and the data before it, made by `work` on a worker, so
    /// filtering can run there too — once a worker is free; blocks while `concurrency` parts are
    /// being compressed.
    func submit(last: Bool, _ work: @escaping @Sendable () -> (dictionary: ArraySlice<UInt8>, rows: [UInt8])) {
        let index = count
        count += 1
        room.wait()
        let rowLength = rowLength, level = level
        queue.async(group: group) { [self] in
            defer { room.signal() }
            guard !hasFailed else { return }
            let outcome = Result { () throws -> (bytes: [UInt8], adler: UInt32, length: Int) in
                let (dictionary, data) = work()
                let (bytes, adler) = try FlateParts.compress(data, rowLength: rowLength, dictionary: dictionary, last: last, level: level)
                return (bytes, adler, data.count)
            }
            if case .failure = outcome { failed.store(true, ordering: .relaxed) }
            results.withLock { $0[index] = outcome }
        }
    }

    /// The first failure so far, if any.
    func check() throws {
        guard hasFailed else { return }
        let failure = results.withLock { $0.values.first { if case .failure = $0 { true } else { false } } }
        if case .failure(let error)? = failure { throw error }
    }

    /// Waits for every part and writes the zlib stream to `sink`.
    func finish(into sink: any ByteOutput) throws {
        group.wait()
        let parts = try results.withLock { results in
            try (0..<count).map { i -> (bytes: [UInt8], adler: UInt32, length: Int) in
                guard let result = results[i] else { throw StageError("image compression did not finish") }
                return try result.get()
            }
        }
        try FlateParts.join(parts, into: sink)
    }
}
