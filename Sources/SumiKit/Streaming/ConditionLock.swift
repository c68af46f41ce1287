#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A mutex with one condition, for state that threads wait on (a row stream's ring, a streamed
/// run's values). POSIX primitives rather than Dispatch or Swift concurrency, because the waiting
/// threads are the stages' own and block for as long as the other side needs. The primitives live on
/// the heap, so their addresses stay fixed for as long as the lock lives.
public final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    public func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits for a `broadcast`; call only within `locked` (the lock is released while waiting).
    public func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes every waiter; call within `locked`, or after it, for a change made under the lock (a
    /// waiter woken while the caller still holds the lock at once blocks on it again).
    public func broadcast() { pthread_cond_broadcast(condition) }
}
