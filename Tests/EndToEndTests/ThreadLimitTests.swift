import Foundation
import Testing

/// A run that the system refuses threads fails with a message naming the stage (exit 1) or
/// completes; it never hangs. The limit is the user's process count (`prlimit --nproc`), which
/// does not apply to root: the binary runs as `nobody` (`setpriv`), which needs root to start.
@Suite struct ThreadLimitTests {
    @Test(arguments: [1, 2, 3, 4, 6])
    func theCaptionRunFailsOrCompletesUnderAThreadLimit(processes: Int) throws {
        try #require(getuid() == 0, "setpriv needs root to run the binary as nobody")
        let dir = try CLI.temporaryFolder("nproc")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // nobody writes the output; the binary, manifest and sample are world-readable.
        chmod(dir, 0o777)
        let output = "\(dir)/caption.jpg"
        let started = Date()
        // KILL, not TERM: a process that could not start its signal thread has no one to handle TERM.
        let result = try ProcessRunner.run("/usr/bin/timeout", [
            "-s", "KILL", "60", "/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
            "/usr/bin/prlimit", "--nproc=\(processes)", CLI.binary, "run", "\(CLI.root)/pipelines/caption.json", "-o", output,
        ])
        let seconds = Date().timeIntervalSince(started)
        // `timeout` kills the run at 60 s (the process then ends by signal 9; timeout itself says 137).
        #expect(seconds < 55 && ![9, 137].contains(result.status), "ended after \(Int(seconds)) s with \(result.status): the run hung")
        if result.status == 0 {
            #expect(CLI.identify(output)?.format == "JPEG")
        } else {
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.contains("caption.json: stages["), "\(result.stderr)")
            #expect(result.stderr.contains("could not start a thread"), "\(result.stderr)")
            #expect(result.stderr.contains("Resource temporarily unavailable"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }
}
