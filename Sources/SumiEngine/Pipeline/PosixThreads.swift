#if canImport(Glibc)
import Glibc
#endif
import SumiKit

/// Plain POSIX threads, for work that blocks (a batch job waiting for its stages, a consumer waiting
/// for rows): blocking inside Dispatch's small pool would starve the tasks it is waiting for.
///
/// A body is never run on the calling thread in place of a thread that could not be made: a stage's
/// body run there before its consumer exists would block forever on a full ring. The failure is
/// reported instead, and the caller fails its run.
public enum PosixThreads {
    /// A thread could not be made (`pthread_create` failed, typically `EAGAIN` at the process or user
    /// thread limit).
    public struct StartFailure: Error, Sendable, CustomStringConvertible {
        /// Which body (by position in the list given to `run`) had no thread; 0 for `detach`.
        public let index: Int
        /// `pthread_create`'s error number.
        public let code: Int32
        public var description: String { "could not start a thread: \(reason)" }
        /// The system's text for `code`.
        public var reason: String { String(cString: strerror(code)) }
    }

    private final class Box: @unchecked Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts `body` on a new thread; the error number when no thread could be made (the body is
    /// then dropped, never run).
    private static func start(_ body: @escaping @Sendable () -> Void) -> Result<pthread_t, StartFailure> {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, box)
        guard started == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            return .failure(StartFailure(index: 0, code: started))
        }
        return .success(thread)
    }

    /// Runs each body on its own new thread and waits for all of them. When a thread cannot be made,
    /// no later body starts: `stop` is called (it must make the bodies already started return, e.g.
    /// by failing the streams they wait on), those are joined, and the failure is thrown.
    /// `limit` makes every thread past that many fail as `pthread_create` does at the user's limit
    /// (`EAGAIN`), for tests.
    public static func run(_ bodies: [@Sendable () -> Void], stop: () -> Void, limit: Int? = nil) throws(StartFailure) {
        var threads: [pthread_t] = []
        var failure: StartFailure?
        for (index, body) in bodies.enumerated() {
            if let limit, index >= limit {
                failure = StartFailure(index: index, code: EAGAIN)
                break
            }
            switch start(body) {
            case .success(let thread): threads.append(thread)
            case .failure(let error): failure = StartFailure(index: index, code: error.code)
            }
            if failure != nil { break }
        }
        if failure != nil { stop() }
        for thread in threads { pthread_join(thread, nil) }
        if let failure { throw failure }
    }

    /// Runs `body` on a new detached thread, for a long-lived loop nobody waits for; throws when no
    /// thread can be made.
    public static func detach(_ body: @escaping @Sendable () -> Void) throws(StartFailure) {
        let thread = try start(body).get()
        pthread_detach(thread)
    }

    /// Runs `body` as `count` workers that need nothing from each other (each takes jobs from a shared
    /// queue): the calling thread is one of them, and `count - 1` new threads the others. A thread
    /// that cannot be made only means fewer workers; returns how many worked.
    @discardableResult
    public static func work(count: Int, _ body: @escaping @Sendable () -> Void) -> Int {
        var threads: [pthread_t] = []
        for _ in 1..<max(1, count) {
            guard case .success(let thread) = start(body) else { break }
            threads.append(thread)
        }
        body()
        for thread in threads { pthread_join(thread, nil) }
        return threads.count + 1
    }
}
