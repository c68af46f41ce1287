import Foundation
import Testing

/// How Sumi finds its own files: shipped pipelines by name, from the build tree and from an
/// installed layout (`make install PREFIX=…`), the system plugin folder beside the binary.
@Suite struct InstallationTests {
    /// `sumi run thumbnail` in a folder without such a file runs the shipped pipeline on its sample.
    @Test func shippedPipelineByNameFromTheBuildTree() throws {
        let dir = try CLI.temporaryFolder("byname")
        let r = try CLI.run(["run", "thumbnail", "-o", dir + "/t.jpg", "--set", "width=64", "--json"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(CLI.identify(dir + "/t.jpg").map { [$0.width, $0.height] } == [64, 43])
        // A file of that name in the working folder wins over the shipped pipeline.
        try #"{"sumi": 1, "name": "mine", "stages": [{"stage": "decode", "with": {"path": "nothing.png"}}]}"#
            .write(toFile: dir + "/thumbnail", atomically: true, encoding: .utf8)
        let own = try CLI.run(["run", "thumbnail"], in: dir)
        #expect(own.status == 1 && own.stderr.contains("nothing.png"), "\(own.stderr)")
        // An unknown name is the usual "cannot read" error naming it.
        let unknown = try CLI.run(["run", "no-such-pipeline"], in: dir)
        #expect(unknown.status == 2 && unknown.stderr.contains("no-such-pipeline"), "\(unknown.stderr)")
    }

    /// The binary in PREFIX/bin finds PREFIX/share/sumi and PREFIX/lib/<triplet>/sumi/plugins.
    @Test func installedLayoutFindsItsFiles() throws {
        let prefix = try CLI.temporaryFolder("prefix")
        let fm = FileManager.default
        try fm.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: prefix + "/share/sumi", withIntermediateDirectories: true)
        try fm.copyItem(atPath: CLI.binary, toPath: prefix + "/bin/sumi")
        try fm.copyItem(atPath: CLI.root + "/pipelines", toPath: prefix + "/share/sumi/pipelines")
        // The installed pipelines, not the source tree's: mark the copy.
        let caption = prefix + "/share/sumi/pipelines/caption.json"
        let text = try String(contentsOfFile: caption, encoding: .utf8)
        try text.replacingOccurrences(of: "\"default\": \"Hello\"", with: "\"default\": \"Installed\"")
            .write(toFile: caption, atomically: true, encoding: .utf8)
        let dir = try CLI.temporaryFolder("installed-run")
        let r = try ProcessRunner.run(prefix + "/bin/sumi", ["run", "caption", "-o", dir + "/c.jpg", "--print-inline"],
                                      environment: [:], in: dir, stdin: nil)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Installed"), "\(r.stdout)")

        // The system plugin folder is loaded by default: a broken library there is reported by `stages`.
        let plugins = prefix + "/lib/x86_64-linux-gnu/sumi/plugins"
        try fm.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try "not a library".write(toFile: plugins + "/libbroken.so", atomically: true, encoding: .utf8)
        let stages = try ProcessRunner.run(prefix + "/bin/sumi", ["stages"], environment: [:], in: dir, stdin: nil)
        #expect(stages.stdout.contains("libbroken.so"), "\(stages.stdout)\n\(stages.stderr)")
    }
}
