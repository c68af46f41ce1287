import Foundation
import Testing

/// --set ID.PARAM, "did you mean", validate --template/--json, schema and graph.
@Suite struct CommandLineExtrasTests {
    @Test func setStageParameterById() throws {
        let dir = try CLI.temporaryFolder("setid")
        let r = try CLI.run(["run", "pipelines/thumbnail.json", "-o", "\(dir)/t.png", "--set", "small.width=40", "--set", "small.filter=box"])
        #expect(r.status == 0, "\(r.stderr)")
        // The manifest's own width parameter (512) is overridden for this stage.
        #expect(CLI.identify("\(dir)/t.png")?.width == 40)
        let badParam = try CLI.run(["run", "pipelines/thumbnail.json", "--set", "small.widht=3"])
        #expect(badParam.status == 2 && badParam.stderr.contains("did you mean \"width\""), "\(badParam.stderr)")
        let badID = try CLI.run(["run", "pipelines/thumbnail.json", "--set", "smal.width=3"])
        #expect(badID.status == 2 && badID.stderr.contains("did you mean \"small\""), "\(badID.stderr)")
        let badValue = try CLI.run(["run", "pipelines/thumbnail.json", "--set", "small.width=wide"])
        #expect(badValue.status == 2 && badValue.stderr.contains("parameter \"width\""), "\(badValue.stderr)")
    }

    @Test func doesNotApplyWarnsOnlyForWhatTheUserSet() throws {
        let dir = try CLI.temporaryFolder("warn")
        let quiet = try CLI.run(["run", "pipelines/thumbnail.json", "-o", "\(dir)/a.png", "--set", "width=16"])
        #expect(quiet.status == 0 && !quiet.stderr.contains("does not apply"), "\(quiet.stderr)")
        let warned = try CLI.run(["run", "pipelines/thumbnail.json", "-o", "\(dir)/b.png", "--set", "width=16", "--set", "encode.quality=50"])
        #expect(warned.status == 0 && warned.stderr.contains("\"quality\" does not apply to png"), "\(warned.stderr)")
    }

    @Test func didYouMeanEverywhere() throws {
        let inspect = try CLI.run(["inspect", "scal"])
        #expect(inspect.status == 2 && inspect.stderr.contains("did you mean \"scale\""))
        let command = try CLI.run(["rnu", "x.json"])
        #expect(command.status == 2 && command.stderr.contains("did you mean \"run\""))
        let option = try CLI.run(["run", "pipelines/thumbnail.json", "--dry-rn"])
        #expect(option.status == 2 && option.stderr.contains("did you mean \"--dry-run\""))
        let param = try CLI.run(["run", "pipelines/thumbnail.json", "--set", "widht=3"])
        #expect(param.status == 2 && param.stderr.contains("did you mean \"width\""))
    }

    @Test func validateTemplateAndJSON() throws {
        let dir = try CLI.temporaryFolder("template")
        let manifest = "\(dir)/tpl.json"
        try """
        {"sumi": 1, "params": {"input": {"type": "path"}, "size": {"type": "integer"}},
         "stages": [{"stage": "decode", "with": {"path": "${input}"}}, {"id": "s", "stage": "scale", "with": {"width": "${size}"}},
                    {"stage": "encode", "with": {"path": "out.png"}}]}
        """.write(toFile: manifest, atomically: true, encoding: .utf8)
        let plain = try CLI.run(["validate", manifest])
        #expect(plain.status == 2 && plain.stderr.contains("required"))
        let template = try CLI.run(["validate", manifest, "--template"])
        #expect(template.status == 0 && template.stdout.contains("input") && template.stdout.contains("size"), "\(template.stderr)")
        let json = try CLI.run(["validate", manifest, "--template", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])
        #expect(report["valid"] as? Bool == true && report["needs"] as? [String] == ["input", "size"])
        let failing = try CLI.run(["validate", manifest, "--json"])
        #expect(failing.status == 2)
        let bad = try #require(try JSONSerialization.jsonObject(with: failing.stdoutData) as? [String: Any])
        #expect(bad["valid"] as? Bool == false && (bad["error"] as? String)?.contains("required") == true)
        // A template is still checked: a wrong stage parameter fails even with --template.
        try manifestText(width: "0").write(toFile: manifest, atomically: true, encoding: .utf8)
        let wrong = try CLI.run(["validate", manifest, "--template", "--json"])
        #expect(wrong.status == 2)
    }

    func manifestText(width: String) -> String {
        """
        {"sumi": 1, "params": {"input": {"type": "path"}},
         "stages": [{"stage": "decode", "with": {"path": "${input}"}}, {"stage": "scale", "with": {"width": \(width)}},
                    {"stage": "encode", "with": {"path": "out.png"}}]}
        """
    }

    @Test func schemaDescribesEveryStage() throws {
        let r = try CLI.run(["schema"])
        #expect(r.status == 0)
        let schema = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any])
        #expect((schema["$schema"] as? String)?.contains("json-schema.org") == true)
        let stages = try CLI.run(["stages", "--json"]).stdoutData
        let names = (try JSONSerialization.jsonObject(with: stages) as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        let text = r.stdout
        for name in names { #expect(text.contains("\"const\": \"\(name)\""), "\(name) missing from the schema") }
        #expect(text.contains("\"enlarge\"") && text.contains("\"gravity\""))
        // A manifest may name the schema.
        let dir = try CLI.temporaryFolder("schema")
        try #"{"$schema": "sumi.schema.json", "sumi": 1, "stages": [{"stage": "decode", "with": {"path": "x.png"}}]}"#
            .write(toFile: "\(dir)/m.json", atomically: true, encoding: .utf8)
        #expect(try CLI.run(["validate", "\(dir)/m.json"]).status == 0)
        // Check a shipped manifest against the schema with a real validator when one is installed.
        if let python = ["/usr/bin/python3"].first(where: FileManager.default.isExecutableFile(atPath:)),
           CLI.tool(python, ["-c", "import jsonschema"]) != nil {
            try r.stdoutData.write(to: URL(fileURLWithPath: "\(dir)/schema.json"))
            for manifest in ["caption", "caption-label", "fullpage", "page-preview", "preview", "thumbnail"] {
                let ok = CLI.tool(python, ["-c", "import json,jsonschema,sys; jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))",
                                           "\(dir)/schema.json", "\(CLI.root)/pipelines/\(manifest).json"])
                #expect(ok != nil, "\(manifest).json does not match the schema")
            }
        }
    }

    @Test func graphPrintsDOT() throws {
        let r = try CLI.run(["graph", "pipelines/caption.json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("digraph \"caption\""))
        // caption: photo → placed (base), label → placed (layer), photo → out, placed → out, out → encode.
        #expect(r.stdout.components(separatedBy: " -> ").count - 1 == 5)
        #expect(r.stdout.contains("[label=\"base\"]") && r.stdout.contains("[label=\"layer\"]"))
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/dot") {
            let svg = try CLI.run(["graph", "pipelines/caption.json", "--svg"])
            #expect(svg.status == 0 && svg.stdout.contains("<svg"))
        }
    }
}

/// Completion scripts and the man page.
@Suite struct InstallationFilesTests {
    @Test func bashCompletionOffersStagesAndParameters() throws {
        let dir = try CLI.temporaryFolder("completion")
        let script = try CLI.run(["completion", "bash"])
        #expect(script.status == 0)
        try script.stdoutData.write(to: URL(fileURLWithPath: "\(dir)/sumi.bash"))
        let probe = """
        source '\(dir)/sumi.bash'
        COMP_WORDS=(sumi inspect rot); COMP_CWORD=2; _sumi; echo "${COMPREPLY[@]}"
        COMP_WORDS=(sumi run m.json --set pad.mar); COMP_CWORD=4; _sumi; echo "${COMPREPLY[@]}"
        COMP_WORDS=(sumi va); COMP_CWORD=1; _sumi; echo "${COMPREPLY[@]}"
        """
        let out = String(decoding: CLI.tool("/bin/bash", ["-c", probe]) ?? Data(), as: UTF8.self).split(separator: "\n")
        #expect(out == ["rotate", "pad.margin=", "validate"], "\(out)")
        for shell in ["zsh", "fish"] {
            let r = try CLI.run(["completion", shell])
            #expect(r.status == 0 && r.stdout.contains("crop") && r.stdout.contains("enlarge"), "\(shell)")
            try r.stdoutData.write(to: URL(fileURLWithPath: "\(dir)/sumi.\(shell)"))
        }
        // The shells themselves read the scripts: zsh parses its function, fish completes with it.
        #expect(CLI.tool("/usr/bin/zsh", ["-n", "\(dir)/sumi.zsh"]) != nil, "zsh -n refused the completion script")
        let fish = CLI.tool("/usr/bin/fish", ["-c", "source '\(dir)/sumi.fish'; complete -C 'sumi inspect rot'; complete -C 'sumi va'"])
        let offered = String(decoding: fish ?? Data(), as: UTF8.self).split(separator: "\n").map { $0.split(separator: "\t").first.map(String.init) ?? "" }
        #expect(offered == ["rotate", "validate"], "\(offered)")
        #expect(try CLI.run(["completion", "bsh"]).stderr.contains("did you mean \"bash\""))
    }

    @Test func manPageFormatsWithoutWarnings() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
        process.arguments = ["-man", "-ww", "-z", CLI.root + "/docs/sumi.1"]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let warnings = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0 && warnings.isEmpty, "\(warnings)")
    }
}
