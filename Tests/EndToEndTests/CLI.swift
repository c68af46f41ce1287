import Foundation
import SumiKit

/// Runs the `sumi` binary as a user would and captures what it prints.
enum CLI {
    /// The package root (two folders above this file's folder).
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// `SUMI_BINARY`, or the most recently built `.build/<config>/sumi`.
    static let binary: String = {
        if let path = ProcessInfo.processInfo.environment["SUMI_BINARY"], FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        let candidates = ["release", "debug"].map { "\(root)/.build/\($0)/sumi" }
            .filter { FileManager.default.isExecutableFile(atPath: $0) }
        let dated = candidates.map { path -> (String, Date) in
            let date = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? .distantPast
            return (path, date)
        }
        return dated.max { $0.1 < $1.1 }?.0 ?? "\(root)/.build/debug/sumi"
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutData: Data
        /// The JSON objects printed one per line on stdout.
        var reports: [[String: Any]] {
            stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }
    }

    /// Runs `sumi` with `arguments` in `directory` (default: the package root).
    @discardableResult
    static func run(_ arguments: [String], in directory: String? = nil, stdin: Data? = nil,
                    environment: [String: String] = [:]) throws -> Result {
        try ProcessRunner.run(binary, arguments, environment: environment, in: directory, stdin: stdin)
    }

    /// A fresh temporary folder (`TemporaryFolder.make`).
    static func temporaryFolder(_ name: String) throws -> String {
        try TemporaryFolder.make("e2e-\(name)")
    }

    /// Runs an external tool and returns its stdout (nil when it failed).
    static func tool(_ path: String, _ arguments: [String]) -> Data? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? data : nil
    }

    /// `identify -format "%m %w %h"` of an image file.
    static func identify(_ path: String) -> (format: String, width: Int, height: Int)? {
        guard let data = tool("/usr/bin/identify", ["-format", "%m %w %h\n", path]) else { return nil }
        let parts = String(decoding: data, as: UTF8.self).split(separator: "\n").first?.split(separator: " ") ?? []
        guard parts.count == 3, let w = Int(parts[1]), let h = Int(parts[2]) else { return nil }
        return (String(parts[0]), w, h)
    }
}
