import Foundation
import Testing

/// One-line pipelines: run like manifests, errors at the column, and the round trip with --print-inline.
@Suite struct InlinePipelineTests {
    /// `--set` and the one-line form take a value that begins with a combining mark (Thai ั, an
    /// acute accent): 0.3.0 refused `--set` with "needs NAME=VALUE" and misread the one-line form.
    @Test func valuesBeginningWithACombiningMarkAreTaken() throws {
        let dir = try CLI.temporaryFolder("combining")
        for value in ["\u{E31}\u{E01}", "\u{301}e"] {
            let ran = try CLI.run(["run", "pipelines/caption-label.json", "-o", "\(dir)/set.png", "--set", "text=" + value])
            #expect(ran.status == 0 && CLI.identify("\(dir)/set.png") != nil, "\(ran.stderr)")
            let inline = try CLI.run(["run", "text text=\(value) ! encode", "-o", "\(dir)/line.png", "--print-manifest"])
            #expect(inline.status == 0, "\(inline.stderr)")
            let json = try JSONSerialization.jsonObject(with: inline.stdoutData) as? [String: Any]
            let with = ((json?["stages"] as? [[String: Any]])?.first?["with"] as? [String: Any])
            #expect(with?["text"] as? String == value, "\(inline.stdout)")
        }
    }

    @Test func chainRunsAndReportsLikeAManifest() throws {
        let dir = try CLI.temporaryFolder("inline")
        let r = try CLI.run(["run", "decode path=\(Fixtures.photo) ! scale width=300 fit=contain ! crop size=100x100 ! encode path=\(dir)/o.webp", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.reports.first?["ok"] as? Bool == true)
        let id = try #require(CLI.identify("\(dir)/o.webp"))
        #expect(id.format == "WEBP" && id.width == 100 && id.height == 100)
    }

    @Test func batchThroughInputAndOutput() throws {
        let dir = try CLI.temporaryFolder("inlinebatch")
        let inputs = try BatchInputTests.images(2, in: dir)
        let r = try CLI.run(["run", "decode ! rotate angle=90 ! encode", "-i"] + inputs + ["-o", "\(dir)/r/{stem}.png"])
        #expect(r.status == 0, "\(r.stderr)")
        let id = try #require(CLI.identify("\(dir)/r/img1.png"))
        #expect(id.width < id.height, "turned a quarter: landscape becomes portrait")
    }

    @Test func branchesByID() throws {
        let dir = try CLI.temporaryFolder("inlinebranch")
        let line = "decode id=photo path=\(Fixtures.photo) ! scale width=200 ! encode path=\(dir)/big.png  photo. ! scale width=20 ! encode path=\(dir)/small.png"
        let r = try CLI.run(["run", line])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(CLI.identify("\(dir)/big.png")?.width == 200 && CLI.identify("\(dir)/small.png")?.width == 20)
    }

    @Test func errorsPointAtTheColumn() throws {
        let unknown = try CLI.run(["run", "decode path=a.png ! scal width=3 ! encode path=b.png"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.hasPrefix("sumi: error: pipeline: column 21: unknown stage \"scal\" (did you mean \"scale\"?)"), "\(unknown.stderr)")
        let dangling = try CLI.run(["run", "decode path=a.png ! scale width=3 !"])
        #expect(dangling.status == 2 && dangling.stderr.contains("column 35") && dangling.stderr.contains("links to nothing"), "\(dangling.stderr)")
        let leading = try CLI.run(["run", "! decode path=a.png"])
        #expect(leading.status == 2 && leading.stderr.contains("column 1"))
        let value = try CLI.run(["run", "decode path=a.png ! scale width=-4 ! encode path=b.png"])
        #expect(value.status == 2 && value.stderr.contains("column 21 (scale): parameter \"width\""), "\(value.stderr)")
        let param = try CLI.run(["run", "decode path=a.png ! scale widht=4 ! encode path=b.png"])
        #expect(param.status == 2 && param.stderr.contains("column 27") && param.stderr.contains("did you mean \"width\""), "\(param.stderr)")
        let quote = try CLI.run(["run", "decode path='a.png ! encode"])
        #expect(quote.status == 2 && quote.stderr.contains("never closed"))
    }

    @Test(arguments: ["caption", "thumbnail", "fullpage"])
    func printInlineRoundTrips(name: String) throws {
        let dir = try CLI.temporaryFolder("roundtrip")
        let ext = name == "fullpage" ? "pdf" : "png"
        let direct = try CLI.run(["run", "pipelines/\(name).json", "-o", "\(dir)/m.\(ext)"])
        #expect(direct.status == 0, "\(direct.stderr)")
        let printed = try CLI.run(["run", "pipelines/\(name).json", "-o", "\(dir)/i.\(ext)", "--print-inline"])
        #expect(printed.status == 0, "\(printed.stderr)")
        let line = printed.stdout.trimmingCharacters(in: .newlines)
        #expect(!line.contains("\n") && line.contains(" ! "))
        let again = try CLI.run(["run", line])
        #expect(again.status == 0, "\(line): \(again.stderr)")
        // A PDF carries its creation time; everything else must be the same bytes.
        func content(_ path: String) throws -> String {
            let text = String(decoding: try Fixtures.bytes(path), as: UTF8.self)
            return text.replacingOccurrences(of: #"/CreationDate \(D:[0-9Z]+\)"#, with: "", options: .regularExpression)
        }
        let same = try content("\(dir)/m.\(ext)") == content("\(dir)/i.\(ext)")
        #expect(same, "\(name): the inline form must give the same file")
    }

    @Test func printManifestIsTheInverse() throws {
        let dir = try CLI.temporaryFolder("printmanifest")
        let line = "decode id=photo path=\(Fixtures.photo) ! scale width=64 ! encode path=\(dir)/a.png  photo. ! flip ! scale width=32 ! encode path=\(dir)/b.png"
        let printed = try CLI.run(["run", line, "--print-manifest"])
        #expect(printed.status == 0, "\(printed.stderr)")
        let manifest = "\(dir)/m.json"
        try printed.stdoutData.write(to: URL(fileURLWithPath: manifest))
        let json = try #require(try JSONSerialization.jsonObject(with: printed.stdoutData) as? [String: Any])
        #expect((json["stages"] as? [Any])?.count == 6)
        let run = try CLI.run(["run", manifest])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(CLI.identify("\(dir)/a.png")?.width == 64 && CLI.identify("\(dir)/b.png")?.width == 32)
        // And back: the manifest's inline form is the line's pipeline again.
        let again = try CLI.run(["run", manifest, "--print-inline"])
        #expect(again.stdout.contains("photo. ! flip ! scale width=32"), "\(again.stdout)")
        // Without paths it is a template: -i and -o are declared, required parameters.
        let template = try CLI.run(["run", "decode ! scale width=8 ! encode", "--print-manifest"])
        #expect(template.status == 0 && template.stdout.contains("\"${input}\"") && template.stdout.contains("\"${output}\""), "\(template.stderr)")
        let refused = try CLI.run(["run", "pipelines/thumbnail.json", "--print-manifest"])
        #expect(refused.status == 2)
    }
}
