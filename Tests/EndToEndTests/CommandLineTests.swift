import Foundation
import Testing

/// The command line as the contract fixes it: help, version, listing, validation and exit codes.
@Suite struct CommandLineTests {
    @Test func helpAndVersion() throws {
        let help = try CLI.run(["--help"])
        #expect(help.status == 0)
        for word in ["sumi run MANIFEST", "sumi validate", "sumi stages", "sumi inspect", "--plugin-path", "EXIT STATUS"] {
            #expect(help.stdout.contains(word), "help lacks \(word)")
        }
        let runHelp = try CLI.run(["run", "--help"])
        #expect(runHelp.status == 0 && runHelp.stdout.contains("--jobs"))
        let version = try CLI.run(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("sumi "))
    }

    @Test func usageErrorsExitTwo() throws {
        for args in [["frobnicate"], ["run"], ["run", "x.json", "--bogus"], ["run", "x.json", "--jobs", "0"], ["inspect"]] {
            let r = try CLI.run(args)
            #expect(r.status == 2, "\(args)")
            #expect(r.stderr.hasPrefix("sumi: error: "), "\(args): \(r.stderr)")
        }
    }

    @Test func stagesJSONDescribesEveryBuiltin() throws {
        let r = try CLI.run(["stages", "--json"])
        #expect(r.status == 0)
        let list = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [[String: Any]])
        let names = Set(list.compactMap { $0["name"] as? String })
        #expect(names.isSuperset(of: ["scale"]))
        for stage in list {
            #expect(stage["origin"] as? String == "builtin")
            #expect(stage["summary"] is String && stage["inputs"] is [Any] && stage["output"] is String)
            for param in stage["params"] as? [[String: Any]] ?? [] {
                for key in ["name", "type", "required", "default", "summary", "min", "max", "values"] {
                    #expect(param.keys.contains(key), "\(stage["name"] ?? "?").\(param["name"] ?? "?") lacks \(key)")
                }
            }
        }
        let inspect = try CLI.run(["inspect", "scale", "--json"])
        let scale = try #require(try JSONSerialization.jsonObject(with: inspect.stdoutData) as? [String: Any])
        let width = (scale["params"] as? [[String: Any]])?.first { $0["name"] as? String == "width" }
        #expect(width?["type"] as? String == "integer")
        #expect(width?["min"] as? Double == 1 && width?["max"] as? Double == 65535)
        let human = try CLI.run(["inspect", "scale"])
        #expect(human.status == 0 && human.stdout.contains("filter") && human.stdout.contains("lanczos3"))
        // `text`'s font declares the files it may name; `--safe` and `inspect` read that declaration.
        let text = try CLI.run(["inspect", "text"])
        let font = text.stdout.split(separator: "\n").first { $0.hasPrefix("    font  [") }.map(String.init) ?? ""
        #expect(font.contains("may name a file it reads: --safe takes it only below the inputs' folders"), "\(text.stdout)")
        #expect(text.stdout.components(separatedBy: "may name a file it reads").count == 2)
        let unknown = try CLI.run(["inspect", "nope"])
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown stage \"nope\""))
    }

    @Test func validationErrorsNameFileStageAndParameter() throws {
        let dir = try CLI.temporaryFolder("validate")
        let manifest = "\(dir)/bad.json"
        try #"{"sumi": 1, "stages": [{"id": "small", "stage": "scale", "from": "x", "with": {"width": -3}}]}"#
            .write(toFile: manifest, atomically: true, encoding: .utf8)
        let r = try CLI.run(["validate", manifest])
        #expect(r.status == 2)
        #expect(r.stderr == "sumi: error: bad.json: stages[0] \"small\" (scale): parameter \"width\": expected an integer from 1 to 65535, got -3\n")

        try "{\n  \"sumi\": 1,\n  \"stages\": [\n}".write(toFile: manifest, atomically: true, encoding: .utf8)
        let syntax = try CLI.run(["run", manifest])
        #expect(syntax.status == 2)
        #expect(syntax.stderr.contains("bad.json: invalid JSON at line 4, column 1"))

        let missing = try CLI.run(["run", "\(dir)/none.json"])
        #expect(missing.status == 2 && missing.stderr.contains("none.json"))
    }

    @Test func invalidUTF8InAManifestIsAClearError() throws {
        let dir = try CLI.temporaryFolder("utf8")
        let bytes = Array(#"{"sumi": 1, "stages": [{"stage": "text", "with": {"text": "caf"#.utf8) + [0xC3, 0x28] + Array(#""}}]}"#.utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/bad.json"))
        let r = try CLI.run(["validate", dir + "/bad.json"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("bad.json: invalid JSON at line 1") && r.stderr.contains("invalid UTF-8"), "\(r.stderr)")
    }

    @Test func undeclaredSetIsAnError() throws {
        let r = try CLI.run(["validate", "pipelines/thumbnail.json", "--set", "colour=red"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("parameter \"colour\""))
        let typed = try CLI.run(["validate", "pipelines/thumbnail.json", "--set", "width=wide"])
        #expect(typed.status == 2 && typed.stderr.contains("expected an integer, got \"wide\""))
    }
}
