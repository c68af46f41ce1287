import Foundation
import Testing

/// SumiKit is what plugin authors build on (the SDK re-exports it): it holds no process policy.
/// Signal handling, allocator tuning, environment reads and process-wide singletons live in
/// SumiEngine; stages get the format registry and the run's options through `StageContext`.
@Suite struct CorePolicyTests {
    /// The source tree's root (this file is Tests/SumiKitTests/CorePolicyTests.swift).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// What process policy looks like in Swift source, and why it is not SumiKit's.
    static let forbidden: [(token: String, reason: String)] = [
        ("signal(", "signal handling"), ("sigaction", "signal handling"), ("sigwait", "signal handling"),
        ("pthread_sigmask", "signal handling"), ("raise(", "signal handling"),
        ("mallopt", "allocator tuning"), ("@_silgen_name", "a C function reached around the C shims"),
        ("getenv", "an environment read"), ("environment", "an environment read"), ("environ", "an environment read"),
        ("static let shared", "a process-wide singleton"), ("static var shared", "a process-wide singleton"),
        ("nonisolated(unsafe)", "process-wide mutable state"), ("exit(", "ending the process"),
    ]

    /// The one place allowed a token, and why: the test helper's folder (and the service's scratch
    /// space) goes where POSIX says temporary files go, `$TMPDIR`; no run reads it as a switch.
    static let allowed: Set<String> = ["Testing/TemporaryFolder.swift: getenv"]

    /// Every use of a forbidden token in SumiKit's code (comments left out), as "file:line: token (why)".
    static func findings(in folder: String) throws -> [String] {
        var found: [String] = []
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }.sorted()
        for file in files {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line)
                for (token, reason) in forbidden where contains(code, token) && !allowed.contains("\(file): \(token)") {
                    found.append("Sources/SumiKit/\(file):\(number + 1): \(token) (\(reason))")
                }
                // A lock held in a static is state shared by the whole process (the temporary-file
                // record was one): the program owns such state and hands it to stages.
                if contains(code, "static"), code.contains("Mutex(") {
                    found.append("Sources/SumiKit/\(file):\(number + 1): static Mutex (process-wide mutable state)")
                }
            }
        }
        return found
    }

    /// Whether `code` uses `token` as a name of its own: not as the end of a longer name
    /// (`done.signal()`, `mySignal(`, `_exit(` are fine for `signal(` / `exit(`).
    static func contains(_ code: String, _ token: String) -> Bool {
        var rest = code[...]
        while let range = rest.range(of: token) {
            let before = rest[..<range.lowerBound].last
            let startsName = token.first.map { $0.isLetter || $0 == "_" } ?? false
            if !startsName || before == nil || !(before!.isLetter || before!.isNumber || before! == "_" || before! == ".") {
                return true
            }
            rest = rest[range.upperBound...]
        }
        return false
    }

    @Test func sumiKitHoldsNoProcessPolicy() throws {
        let findings = try Self.findings(in: Self.root + "/Sources/SumiKit")
        #expect(findings.isEmpty, "process policy in SumiKit (it belongs in SumiEngine):\n\(findings.joined(separator: "\n"))")
    }

    /// The scan is no test if it cannot fail: on code that does what SumiKit once did, it names
    /// file and line.
    @Test func theScanFindsPolicy() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sumi-policy-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/IO", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
        import Glibc
        // signal(SIGINT, handler) in a comment is fine
        func wait() { done.signal(); _exit(0) }
        func start() { signal(SIGPIPE, SIG_IGN); pthread_sigmask(SIG_BLOCK, &set, nil) }
        public static let shared = Registry()
        let epoch = getenv("SOURCE_DATE_EPOCH")
        static let state = Mutex(State())
        private let state = Mutex(State())
        """.write(toFile: folder + "/IO/Bad.swift", atomically: true, encoding: .utf8)
        let findings = try Self.findings(in: folder)
        #expect(findings.count == 5, "\(findings)")
        #expect(findings.contains("Sources/SumiKit/IO/Bad.swift:4: signal( (signal handling)"))
        #expect(findings.contains("Sources/SumiKit/IO/Bad.swift:4: pthread_sigmask (signal handling)"))
        #expect(findings.contains("Sources/SumiKit/IO/Bad.swift:5: static let shared (a process-wide singleton)"))
        #expect(findings.contains("Sources/SumiKit/IO/Bad.swift:6: getenv (an environment read)"))
        #expect(findings.contains("Sources/SumiKit/IO/Bad.swift:7: static Mutex (process-wide mutable state)"))
    }
}
