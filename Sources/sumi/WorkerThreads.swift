#if canImport(Glibc)
import Glibc
#endif

/// Plain POSIX threads for batch jobs.
enum WorkerThreads {
    /// Runs `body` on `count` new threads and waits for all of them.
    static func run(count: Int, _ body: @escaping @Sendable () -> Void) {
        final class Box: @unchecked Sendable {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        var threads: [pthread_t] = []
        for _ in 0..<count {
            let box = Unmanaged.passRetained(Box(body)).toOpaque()
            var thread = pthread_t()
            let started = pthread_create(&thread, nil, { raw in
                guard let raw else { return nil }
                let box = Unmanaged<Box>.fromOpaque(raw).takeRetainedValue()
                box.body()
                return nil
            }, box)
            if started == 0 {
                threads.append(thread)
            } else {
                // No thread could be made: do the work here.
                Unmanaged<Box>.fromOpaque(box).takeRetainedValue().body()
            }
        }
        for thread in threads { pthread_join(thread, nil) }
    }
}
