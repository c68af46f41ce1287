#if canImport(Glibc)
import Glibc
#endif

/// Reads newline-ended lines from a pipe, optionally waiting no longer than a time-out: the
/// protocol between `sumi serve` and its workers.
final class LineReader {
    enum Outcome {
        case line([UInt8])
        /// The other end closed the pipe (or a read failed).
        case closed
        case timedOut
    }

    private let fd: Int32
    private var buffer: [UInt8] = []

    init(fd: Int32) { self.fd = fd }

    /// The next line without its newline; waits at most `milliseconds` when given.
    func next(milliseconds: Int? = nil) -> Outcome {
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        var chunk = [UInt8](repeating: 0, count: 1 << 14)
        while true {
            if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                return .line(line)
            }
            if let milliseconds {
                var now = timespec()
                clock_gettime(CLOCK_MONOTONIC, &now)
                let spent = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1_000_000
                let left = milliseconds - spent
                if left <= 0 { return .timedOut }
                var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&entry, 1, Int32(min(left, Int(Int32.max))))
                if ready < 0 && errno == EINTR { continue }
                if ready == 0 { return .timedOut }
            }
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return .closed }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }
}
