#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Dispatch
import Synchronization
import SumiKit

/// Strips encoded on a queue of their own while the next strip's rows arrive: at most `concurrency`
/// at once in the whole process (a batch's runs share the cores, and memory holds only that many
/// strips in flight); results kept in order. Its threads are made on demand, so waiting cannot starve
/// when the caller runs on a pool thread.
final class StripQueue: @unchecked Sendable {
    private static let queue = DispatchQueue(label: "sumi.page.strips", attributes: .concurrent)
    private static let room = DispatchSemaphore(value: concurrency)
    /// Strips encoded at once: one a core, at most 8.
    static var concurrency: Int { max(1, min(8, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))) }

    private let group = DispatchGroup()
    private let results = Mutex<[Int: Result<PageStrip, any Error>]>([:])
    private let failed = Atomic<Bool>(false)
    private var count = 0
    /// Strips handed out so far by `takeFinished`.
    private var taken = 0

    /// Encodes a strip once a worker is free; blocks while `concurrency` strips are being encoded.
    func submit(_ work: @escaping @Sendable () throws -> PageStrip) throws {
        try check()
        let index = count
        count += 1
        Self.room.wait()
        Self.queue.async(group: group) { [self] in
            defer { Self.room.signal() }
            guard !failed.load(ordering: .relaxed) else { return }
            let outcome = Result { try work() }
            if case .failure = outcome { failed.store(true, ordering: .relaxed) }
            results.withLock { $0[index] = outcome }
        }
    }

    /// The first failure so far, if any.
    func check() throws {
        guard failed.load(ordering: .relaxed) else { return }
        let failure = results.withLock { $0.values.first { if case .failure = $0 { true } else { false } } }
        if case .failure(let error)? = failure { throw error }
    }

    /// The strips finished so far that follow the last one taken, in order (their results are
    /// dropped here, so they are held only by the caller).
    func takeFinished() throws -> [PageStrip] {
        try check()
        var strips: [PageStrip] = []
        try results.withLock { results in
            while let result = results.removeValue(forKey: taken) {
                strips.append(try result.get())
                taken += 1
            }
        }
        return strips
    }

    /// Waits for every strip; those not taken yet are returned in the order they were submitted.
    func finish() throws -> [PageStrip] {
        group.wait()
        try check()
        return try results.withLock { results in
            try (taken..<count).map { i in
                guard let result = results[i] else { throw StageError("a strip's compression did not finish") }
                return try result.get()
            }
        }
    }
}
