#if canImport(Glibc)
import Glibc
#endif
import SumiKit

/// Plain POSIX threads, for work that blocks (a batch job waiting for its stages, a consumer waiting
/// for rows): blocking inside Dispatch's small pool would starve the tasks it is waiting for.
public enum PosixThreads {
    /// Runs each body on its own new thread and waits for all of them.
    public static func run(_ bodies: [@Sendable () -> Void]) {
        final class Box: @unchecked Sendable {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        var threads: [pthread_t] = []
        for body in bodies {
            let box = Unmanaged.passRetained(Box(body)).toOpaque()
            var thread = pthread_t()
            let started = pthread_create(&thread, nil, { raw in
                guard let raw else { return nil }
                Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
                return nil
            }, box)
            if started == 0 {
                threads.append(thread)
            } else {
                // No thread could be made: run it here.
                Unmanaged<Box>.fromOpaque(box).takeRetainedValue().body()
            }
        }
        for thread in threads { pthread_join(thread, nil) }
    }

    /// Runs `body` on `count` new threads and waits for all of them.
    public static func run(count: Int, _ body: @escaping @Sendable () -> Void) {
        run(Array(repeating: body, count: count))
    }
}
