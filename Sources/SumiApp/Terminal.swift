#if canImport(Glibc)
import Glibc
#endif
import SumiEngine
import SumiKit
import Synchronization

/// Writing to the terminal's streams.
package enum Terminal {
    /// The `errno` of the first failed write to standard output (0: none), so that a listing or
    /// report that could not be written (`> /dev/full`, a closed stdout) does not exit 0.
    private static let outputError = Atomic<Int32>(0)

    package static func standardError(_ text: String) {
        _ = writeAll(2, text)
    }

    package static func standardOutput(_ text: String) {
        let code = writeAll(1, text)
        if code != 0 { _ = outputError.compareExchange(expected: 0, desired: code, ordering: .relaxed) }
    }

    /// `status`, or 1 with an error line when something printed on standard output was lost.
    package static func exitStatus(_ status: Int32) -> Int32 {
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
    package static func error(_ error: SumiError) {
        standardError("sumi: error: \(printable(error.description))\n")
    }

    package static func warning(_ text: String) {
        standardError("sumi: warning: \(printable(text))\n")
    }

    /// `text` safe to show on a terminal: messages quote files, manifests and plugins, whose control
    /// characters could move the cursor, retitle the window or hide the rest of the line. Every C0
    /// control but tab and newline, DEL and every C1 control (so every escape sequence's introducer)
    /// is shown as `\xHH` instead.
    package static func printable(_ text: String) -> String {
        func isControl(_ scalar: Unicode.Scalar) -> Bool {
            (scalar.value < 0x20 && scalar != "\t" && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
        }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                let hex = String(scalar.value, radix: 16)
                out.append(contentsOf: "\\x\(hex.count < 2 ? "0" : "")\(hex)".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    package static var standardErrorIsTerminal: Bool { isatty(2) != 0 }
}

/// A one-line progress bar on stderr for batch runs.
package final class ProgressBar: Sendable {
    private let total: Int
    /// Runs finished, and how many of them failed.
    private let counts = Mutex<(done: Int, failed: Int)>((0, 0))

    package init(total: Int) { self.total = total }

    package func advance(item: String, ok: Bool) {
        counts.withLock { counts in
            counts.done += 1
            if !ok { counts.failed += 1 }
            let width = 30
            let filled = total == 0 ? width : width * counts.done / total
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            let name = Terminal.printable(item.count > 40 ? "…" + item.suffix(39) : item)
            let failures = counts.failed > 0 ? " \(counts.failed) failed" : ""
            Terminal.standardError("\r\u{1B}[K[\(bar)] \(counts.done)/\(total)\(failures) \(name)")
            if counts.done == total { Terminal.standardError("\n") }
        }
    }

    /// Clears the bar so an error line can be printed cleanly.
    package func clearLine() {
        counts.withLock { _ in Terminal.standardError("\r\u{1B}[K") }
    }
}
