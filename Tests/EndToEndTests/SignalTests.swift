import Foundation
import Glibc
import Testing

/// Signals and closed pipes: a run ended from outside leaves no temporary file or empty folder
/// behind, and a reader that goes away is an error with a message, not a silent death.
@Suite struct SignalTests {
    /// `count` copies of the sample photo in a fresh folder.
    func inputs(_ count: Int, in dir: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: "\(dir)/in", withIntermediateDirectories: true)
        return try (0..<count).map { i in
            let path = "\(dir)/in/p\(i).jpg"
            try FileManager.default.copyItem(atPath: Fixtures.photo, toPath: path)
            return path
        }
    }

    /// Files a write in progress leaves (`.name.sumi-XXXXXX`) anywhere below `dir`.
    func temporaryFiles(below dir: String) -> [String] {
        (FileManager.default.enumerator(atPath: dir)?.allObjects as? [String] ?? []).filter { $0.contains(".sumi-") }
    }

    /// Starts a batch of `inputs` with `--jobs`, waits until it has written `started` outputs,
    /// sends `sig`, and returns how it ended.
    func interruptBatch(_ inputs: [String], jobs: Int, signal sig: Int32, out: String) throws -> (Process, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["run", "pipelines/thumbnail.json", "--jobs", String(jobs), "-o", "\(out)/{stem}.png",
                             "--set", "width=1200", "-q"] + inputs.flatMap { ["-i", $0] }
        process.currentDirectoryURL = URL(fileURLWithPath: CLI.root)
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, process.isRunning {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
            if names.contains(where: { $0.contains(".sumi-") }) { break }
            usleep(2000)
        }
        kill(process.processIdentifier, sig)
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process, text)
    }

    // Row 9: the handler tracked 64 files while --jobs allows 1024.
    @Test func anInterruptedBatchLeavesNoTemporaryFileAtAnyJobCount() throws {
        let dir = try CLI.temporaryFolder("sigint")
        let files = try inputs(120, in: dir)
        for jobs in [100, 8] {
            let out = "\(dir)/out-\(jobs)"
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let (process, stderr) = try interruptBatch(files, jobs: jobs, signal: SIGINT, out: out)
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT, "\(process.terminationStatus) \(stderr)")
            #expect(temporaryFiles(below: out).isEmpty, "\(temporaryFiles(below: out))")
            let written = try FileManager.default.contentsOfDirectory(atPath: out).count
            #expect(written < files.count, "the batch was not interrupted")
        }
    }

    // Row 13: SIGQUIT printed the runtime's crash banner, then the run went on and exited 0.
    @Test func quitEndsTheRunAndRemovesTemporaryFiles() throws {
        let dir = try CLI.temporaryFolder("sigquit")
        let files = try inputs(60, in: dir)
        let out = "\(dir)/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let (process, stderr) = try interruptBatch(files, jobs: 16, signal: SIGQUIT, out: out)
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGQUIT, "\(process.terminationStatus) \(stderr)")
        #expect(!stderr.contains("crashed"), "\(stderr)")
        #expect(temporaryFiles(below: out).isEmpty, "\(temporaryFiles(below: out))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).count < files.count)
        #expect(!FileManager.default.fileExists(atPath: "\(CLI.root)/core"))
    }

    // Row 7: `-o - | head -c 1` died of SIGPIPE with no message; a batch left its temporary files.
    @Test func aClosedOutputPipeIsAnErrorWithAMessage() throws {
        let dir = try CLI.temporaryFolder("sigpipe")
        let sumi = "'\(CLI.binary)'"
        let r = try ProcessRunner.shell("\(sumi) run pipelines/thumbnail.json -o - --set width=1600 | head -c 1 >/dev/null; echo \"status ${PIPESTATUS[0]}\"")
        #expect(r.stdout.contains("status 1"), "\(r.stdout) \(r.stderr)")
        #expect(r.stderr.contains("sumi: error: ") && r.stderr.contains("Broken pipe"), "\(r.stderr)")

        let files = try inputs(12, in: dir)
        let out = "\(dir)/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let list = files.map { "-i '\($0)'" }.joined(separator: " ")
        let batch = try ProcessRunner.shell("\(sumi) run pipelines/thumbnail.json \(list) -o '\(out)/{stem}.png' --set width=800 --json --jobs 2 | head -c 1 >/dev/null; echo \"status ${PIPESTATUS[0]}\"")
        #expect(batch.stdout.contains("status 1"), "\(batch.stdout) \(batch.stderr)")
        #expect(batch.stderr.contains("cannot write to standard output: Broken pipe"), "\(batch.stderr)")
        #expect(temporaryFiles(below: out).isEmpty)
    }

    // Row 14: a failed run left the folders it had created for its output.
    @Test func foldersCreatedForAFailedRunAreRemoved() throws {
        let dir = try CLI.temporaryFolder("folders")
        try Fixtures.write([0xFF, 0xD8, 0xFF, 0xE0, 0, 4], to: "\(dir)/bad.jpg")
        let r = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "\(dir)/bad.jpg", "-o", "\(dir)/new/a/b/c/x.jpg"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/new"), "the created folders were left")
        let ok = try CLI.run(["run", "pipelines/thumbnail.json", "-o", "\(dir)/new/a/b/c/x.jpg", "--set", "width=8", "-q"])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(CLI.identify("\(dir)/new/a/b/c/x.jpg")?.width == 8)
    }
}
