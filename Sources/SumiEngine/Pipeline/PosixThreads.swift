#if canImport(Glibc)
import Glibc
#endif
import SumiKit

/// Plain POSIX threads, for work that blocks (a batch job waiting for its stages, a consumer waiting
/// for rows): blocking inside Dispatch's small pool would starve the tasks it is waiting for.
public enum PosixThreads {
    private final class Box: @unchecked Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts `body` on a new thread; when no thread can be made, runs it here and returns nil.
    private static func start(_ body: @escaping @Sendable () -> Void) -> pthread_t? {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, box)
        guard started == 0 else {
            Unmanaged<Box>.fromOpaque(box).takeRetainedValue().body()
            return nil
        }
        return thread
    }

    /// Runs each body on its own new thread and waits for all of them.
    public static func run(_ bodies: [@Sendable () -> Void]) {
        let threads = bodies.compactMap(start)
        for thread in threads { pthread_join(thread, nil) }
    }

    /// Runs `body` on a new detached thread, for a long-lived loop nobody waits for (here, when no
    /// thread can be made).
    public static func detach(_ body: @escaping @Sendable () -> Void) {
        if let thread = start(body) { pthread_detach(thread) }
    }

    /// Runs `body` on `count` new threads and waits for all of them.
    public static func run(count: Int, _ body: @escaping @Sendable () -> Void) {
        run(Array(repeating: body, count: count))
    }
}
