import Foundation
import Testing

/// What the command line says and creates around a run: messages that cannot drive the terminal, a
/// warning when `--set` cuts `-i` off, folders made for a stage's own output path, help that
/// matches the code.
@Suite struct CommandLineMessagesTests {
    /// Bytes that would act on a terminal: C0 controls but tab and newline, DEL, and C1 (as UTF-8).
    static func controlBytes(in text: String) -> [UInt32] {
        text.unicodeScalars.map(\.value).filter { ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A) || (0x7F...0x9F).contains($0) }
    }

    @Test func controlCharactersFromFilesNeverReachTheTerminal() throws {
        let dir = try CLI.temporaryFolder("controls")
        // A manifest's stage name (quoted in the error) with a title change, a colour and a C1 CSI.
        try #"{"sumi": 1, "stages": [{"stage": "\u001b]0;owned\u0007\u001b[31mfrob\u009b2J\r\u007f"}]}"#
            .write(toFile: "\(dir)/m.json", atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", "\(dir)/m.json"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(Self.controlBytes(in: r.stderr).isEmpty, "\(Array(r.stderr.unicodeScalars.map(\.value)))")
        #expect(r.stderr.contains(#"unknown stage "\x1b]0;owned\x07\x1b[31mfrob\x9b2J\x0d\x7f""#), "\(r.stderr)")
        // A file name in a warning.
        try FileManager.default.createDirectory(atPath: "\(dir)/in", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.photo, toPath: "\(dir)/in/a.jpg")
        try "x".write(toFile: "\(dir)/in/n\u{1b}[2Jote.txt", atomically: true, encoding: .utf8)
        let warned = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "\(dir)/in", "-o", "\(dir)/out/", "--dry-run"])
        #expect(warned.status == 0, "\(warned.stderr)")
        #expect(warned.stderr.contains(#"n\x1b[2Jote.txt"#) && Self.controlBytes(in: warned.stderr).isEmpty, "\(warned.stderr)")
    }

    @Test func settingAPathThatReadInputWarns() throws {
        let dir = try CLI.temporaryFolder("set-path")
        try FileManager.default.copyItem(atPath: Fixtures.photo, toPath: "\(dir)/a.jpg")
        try FileManager.default.copyItem(atPath: Fixtures.photo, toPath: "\(dir)/b.jpg")
        let r = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "\(dir)/a.jpg", "-o", "\(dir)/t.jpg",
                             "--set", "photo.path=\(dir)/b.jpg", "--dry-run"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("sumi: warning: --set photo.path replaces the stage's \"${input}\", so the value of -i is not used by that stage"), "\(r.stderr)")
        // Without -i there is nothing to warn about.
        let alone = try CLI.run(["run", "pipelines/thumbnail.json", "-o", "\(dir)/t.jpg", "--set", "photo.path=\(dir)/b.jpg", "--dry-run"])
        #expect(alone.status == 0 && !alone.stderr.contains("warning"), "\(alone.stderr)")
    }

    /// `encode path=new/x.png` makes its folders as `-o new/x.png` does, and removes them again when
    /// the run writes nothing there.
    @Test func aStagesOwnOutputPathGetsItsFolders() throws {
        let dir = try CLI.temporaryFolder("stage-folder")
        let r = try CLI.run(["run", "decode path=\(Fixtures.photo) ! scale width=16 ! encode path=new/deeper/x.png"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(CLI.identify("\(dir)/new/deeper/x.png")?.width == 16)
        let failed = try CLI.run(["run", "decode path=missing.png ! encode path=other/deeper/x.png"], in: dir)
        #expect(failed.status == 1, "\(failed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/other"), "the folder made for a failed run stays")
    }

    /// `help run` states the --safe memory limit the code has (4 GiB), as the README does.
    @Test func helpStatesTheSafeMemoryLimit() throws {
        let help = try CLI.run(["help", "run"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("memory (4 GiB;") && !help.stdout.contains("8 GiB"), "\(help.stdout)")
        let readme = try String(contentsOfFile: CLI.root + "/README.md", encoding: .utf8)
        #expect(readme.contains("memory to 4 GiB"))
    }
}
