import Foundation
import Testing

/// A batch never writes over its own inputs, reads bounded lists, fills templates without leaving
/// their folder, refuses shard numbers it cannot compute with, and deals shards evenly.
@Suite struct BatchSafetyTests {
    /// A solid 8×8 PNG of `colour`, made by ImageMagick.
    static func solid(_ colour: String, at path: String) throws {
        try #require(CLI.tool("/usr/bin/convert", ["-size", "8x8", "xc:\(colour)", path]) != nil, "convert failed")
    }

    /// The first pixel of an image, as ImageMagick reads it ("255,0,0").
    static func firstPixel(_ path: String) -> String? {
        CLI.tool("/usr/bin/convert", [path + "[1x1+0+0]", "-format", "%[fx:int(255*r)],%[fx:int(255*g)],%[fx:int(255*b)]", "info:"])
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// `-i 2.png -i 1.png -o '{n}.png'`: run 1 would replace 1.png before run 2 reads it.
    @Test func anOutputThatIsAnInputIsRefusedBeforeAnythingRuns() throws {
        let dir = try CLI.temporaryFolder("overwrite")
        try Self.solid("red", at: "\(dir)/1.png")
        try Self.solid("blue", at: "\(dir)/2.png")
        let before = try [1, 2].map { try Fixtures.bytes("\(dir)/\($0).png") }
        let pipeline = "decode ! scale width=4 ! encode"
        let r = try CLI.run(["run", pipeline, "-i", "2.png", "-i", "1.png", "-o", "{n}.png", "--jobs", "2"], in: dir)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("the output 1.png is an input of this batch"), "\(r.stderr)")
        #expect(try [1, 2].map { try Fixtures.bytes("\(dir)/\($0).png") } == before, "an input was overwritten")
        #expect(Self.firstPixel("\(dir)/1.png") == "255,0,0")

        // The same file by another name: a hard link, a symbolic link, a path through `..`.
        try FileManager.default.createDirectory(atPath: "\(dir)/sub", withIntermediateDirectories: true)
        try FileManager.default.linkItem(atPath: "\(dir)/1.png", toPath: "\(dir)/sub/hard.png")
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/sub/soft.png", withDestinationPath: "\(dir)/1.png")
        for output in ["sub/hard.png", "sub/soft.png", "sub/../1.png", "\(dir)/1.png"] {
            let one = try CLI.run(["run", pipeline, "-i", "1.png", "-o", output], in: dir)
            #expect(one.status == 2, "\(output): \(one.stderr)")
            #expect(one.stderr.contains("the output \(output) is the input 1.png of this batch") ||
                    one.stderr.contains("the output \(output) is an input"), "\(output): \(one.stderr)")
        }
        // A file still to be made: by its canonical folder and name.
        let missing = try CLI.run(["run", pipeline, "-i", "gone.png", "-o", "sub/../gone.png"], in: dir)
        #expect(missing.status == 2 && missing.stderr.contains("is the input gone.png"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/gone.png"))
        // Inputs from a folder, a list file and standard input alike; an inline encode path too.
        try "\(dir)/1.png\n\(dir)/2.png\n".write(toFile: "\(dir)/list.txt", atomically: true, encoding: .utf8)
        let cases: [([String], Data?)] = [
            (["-i", dir, "-o", "\(dir)/{name}"], nil),
            (["-i", "@\(dir)/list.txt", "-o", "\(dir)/{stem}.png"], nil),
            (["-i", "@-", "-o", "\(dir)/{stem}.png"], Data("\(dir)/2.png\n".utf8)),
        ]
        for (arguments, stdin) in cases {
            let batch = try CLI.run(["run", pipeline] + arguments, in: dir, stdin: stdin)
            #expect(batch.status == 2 && batch.stderr.contains("an output may not replace an input"), "\(arguments): \(batch.stderr)")
        }
        #expect(try [1, 2].map { try Fixtures.bytes("\(dir)/\($0).png") } == before, "an input was overwritten")
        // Another folder is fine.
        let ok = try CLI.run(["run", pipeline, "-i", "2.png", "-i", "1.png", "-o", "out/{n}.png"], in: dir)
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(Self.firstPixel("\(dir)/out/1.png") == "0,0,255" && Self.firstPixel("\(dir)/out/2.png") == "255,0,0")
    }

    /// `yes a.png | sumi ... -i @-` ends with a usage error at the list bound, not with memory gone.
    @Test func anEndlessListOnStandardInputIsBounded() throws {
        let dir = try CLI.temporaryFolder("endless")
        let script = "ulimit -v 8000000; yes a.png | timeout 120 \"$SUMI\" run 'decode ! encode' -i @- -o \"$OUT/{n}.png\""
        let r = try ProcessRunner.shell(script, environment: ["SUMI": CLI.binary, "OUT": dir])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("-i @-: standard input holds more than 256 MiB; split the list"), "\(r.stderr)")
    }

    /// A stem of `..` (`...png`) would write outside `out/`; a name holding a token is not expanded.
    @Test func templateValuesStayInTheirFolderAndAreNotExpandedAgain() throws {
        let dir = try CLI.temporaryFolder("template-values")
        try FileManager.default.createDirectory(atPath: "\(dir)/in", withIntermediateDirectories: true)
        try Self.solid("red", at: "\(dir)/in/...png")
        let dots = try CLI.run(["run", "decode ! encode", "-i", "in/...png", "-o", "out/{stem}/small.png"], in: dir)
        #expect(dots.status == 2, "\(dots.stderr)")
        #expect(dots.stderr.contains("{stem} of in/...png is \"..\", which would move the output to another folder"), "\(dots.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/small.png") && !FileManager.default.fileExists(atPath: "\(dir)/out"))

        try FileManager.default.removeItem(atPath: "\(dir)/in/...png")
        try Self.solid("red", at: "\(dir)/in/{n}.png")
        try Self.solid("blue", at: "\(dir)/in/b.png")
        let tokens = try CLI.run(["run", "decode ! encode", "-i", "in", "-o", "out/{stem}.png"], in: dir)
        #expect(tokens.status == 0, "\(tokens.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: "\(dir)/out").sorted()
        #expect(written == ["b.png", "{n}.png"], "\(written)")
        #expect(Self.firstPixel("\(dir)/out/{n}.png") == "255,0,0")
    }

    /// Values that overflow the shard arithmetic are "out of range" (exit 2), not a trap.
    @Test(arguments: [
        ["JOB_COMPLETION_INDEX": "9223372036854775807", "SUMI_SHARD_COUNT": "4"],
        ["JOB_COMPLETION_INDEX": "-9223372036854775808", "SUMI_SHARD_COUNT": "4"],
        ["SLURM_ARRAY_TASK_ID": "9223372036854775807", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "-9223372036854775807"],
        ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "9223372036854775807"],
        ["SLURM_ARRAY_TASK_ID": "-9223372036854775808", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_STEP": "2"],
    ])
    func overflowingShardVariablesAreOutOfRange(environment: [String: String]) throws {
        let r = try CLI.run(["run", "pipelines/thumbnail.json", "-i", Fixtures.photo, "-o", "/nonexistent/x.jpg", "--shard", "auto", "--dry-run"],
                            environment: environment)
        #expect(r.status == 2, "\(environment): \(r.status) \(r.stderr)")
        #expect(r.stderr.hasPrefix("sumi: error: --shard auto") && r.stderr.contains("out of range"), "\(r.stderr)")
    }

    /// Every task sees the same sorted list, so inputs are dealt round robin by position: 40 over
    /// 4 shards are 10 each (a hash of the path gave 18 / 8 / 5 / 9), 3 over 2 are 2 and 1.
    @Test func shardsAreDealtByPositionAndHashIsAnOption() throws {
        let dir = try CLI.temporaryFolder("balance")
        let inputs = try BatchInputTests.images(40, in: dir)
        func plan(_ shard: String, _ extra: [String] = [], from folder: String? = nil) throws -> [String] {
            let r = try CLI.run(["run", "pipelines/thumbnail.json", "-i", folder ?? dir, "-o", "\(dir)/o/", "--shard", shard,
                                 "--dry-run", "--json"] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            return r.reports.compactMap { $0["input"] as? String }
        }
        let sorted = inputs.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        var union: [String] = []
        for k in 1...4 {
            let part = try plan("\(k)/4")
            #expect(part == stride(from: k - 1, to: 40, by: 4).map { sorted[$0] }, "shard \(k)/4: \(part)")
            union += part
        }
        #expect(union.count == 40 && Set(union) == Set(inputs))
        // By hash, an input keeps its shard when the list changes (a file added before it in the
        // order); by position, it may move.
        let hashed = try (1...4).map { try plan("\($0)/4", ["--shard-by", "hash"]) }
        #expect(Set(hashed.joined()) == Set(inputs) && hashed.map(\.count).reduce(0, +) == 40)
        try FileManager.default.copyItem(atPath: inputs[0], toPath: "\(dir)/img00.png")
        let hashedAfter = try (1...4).map { try plan("\($0)/4", ["--shard-by", "hash"]).filter { !$0.hasSuffix("/img00.png") } }
        #expect(hashedAfter == hashed)
        #expect(try plan("1/4") != union.prefix(10).map { $0 }, "round robin deals again from the new order")
        try FileManager.default.removeItem(atPath: "\(dir)/img00.png")
        // Three inputs over two shards: 2 and 1.
        try FileManager.default.createDirectory(atPath: "\(dir)/three", withIntermediateDirectories: true)
        for i in 0..<3 { try FileManager.default.copyItem(atPath: inputs[0], toPath: "\(dir)/three/\(i).png") }
        #expect(try plan("1/2", from: "\(dir)/three").count == 2 && plan("2/2", from: "\(dir)/three").count == 1)
        let bad = try CLI.run(["run", "pipelines/thumbnail.json", "-i", dir, "-o", "\(dir)/o/", "--shard", "1/2", "--shard-by", "size"])
        #expect(bad.status == 2 && bad.stderr.contains("--shard-by needs position or hash"), "\(bad.stderr)")
        let alone = try CLI.run(["run", "pipelines/thumbnail.json", "-i", dir, "-o", "\(dir)/o/", "--shard-by", "hash"])
        #expect(alone.status == 2 && alone.stderr.contains("give --shard too"), "\(alone.stderr)")
    }
}
