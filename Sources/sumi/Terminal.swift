#if canImport(Glibc)
import Glibc
#endif
import SumiEngine
import SumiKit
import Synchronization
import Synchronization

/// Writing to the terminal's streams.
enum Terminal {
    /// The `errno` of the first failed write to standard output (0: none), so that a listing or
    /// report that could not be written (`> /dev/full`, a closed stdout) does not exit 0.
    private static let outputError = Atomic<Int32>(0)

    static func standardError(_ text: String) {
        _ = writeAll(2, text)
    }

    static func standardOutput(_ text: String) {
        let code = writeAll(1, text)
        if code != 0 { _ = outputError.compareExchange(expected: 0, desired: code, ordering: .relaxed) }
    }

    /// `status`, or 1 with an error line when something printed on standard output was lost.
    static func exitStatus(_ status: Int32) -> Int32 {
        let code = outputError.load(ordering: .relaxed)
        guard code != 0 else { return status }
        standardError("sumi: error: cannot write to standard output: \(FileIO.errorText(code))\n")
        return max(status, 1)
    }

    /// Writes the whole text to a file descriptor (unbuffered, so lines from several threads never
    /// mix); returns 0, or the `errno` of the failed write.
    private static func writeAll(_ fd: Int32, _ text: String) -> Int32 {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 { if errno == EINTR { continue } else { return errno } }
            offset += n
        }
        return 0
    }

    /// Prints `sumi: error: …`.
    static func error(_ error: SumiError) {
        standardError("sumi: error: \(error.description)\n")
    }

    static func warning(_ text: String) {
        standardError("sumi: warning: \(text)\n")
    }

    static var standardErrorIsTerminal: Bool { isatty(2) != 0 }
}

/// A one-line progress bar on stderr for batch runs.
final class ProgressBar: Sendable {
    private let total: Int
    /// Runs finished, and how many of them failed.
    private let counts = Mutex<(done: Int, failed: Int)>((0, 0))

    init(total: Int) { self.total = total }

    func advance(item: String, ok: Bool) {
        counts.withLock { counts in
            counts.done += 1
            if !ok { counts.failed += 1 }
            let width = 30
            let filled = total == 0 ? width : width * counts.done / total
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            let name = item.count > 40 ? "…" + item.suffix(39) : item
            let failures = counts.failed > 0 ? " \(counts.failed) failed" : ""
            Terminal.standardError("\r\u{1B}[K[\(bar)] \(counts.done)/\(total)\(failures) \(name)")
            if counts.done == total { Terminal.standardError("\n") }
        }
    }

    /// Clears the bar so an error line can be printed cleanly.
    func clearLine() {
        counts.withLock { _ in Terminal.standardError("\r\u{1B}[K") }
    }
}
