import Foundation
import Testing

/// Finding pipelines by name: `sumi pipelines` lists the shipped and the user's pipelines with the
/// parameters their manifests declare, a misspelt name gets the nearest one, completions offer the
/// names and each pipeline's parameters, and the examples of help and the man page use names that exist.
@Suite struct PipelineDiscoveryTests {
    /// The shipped pipelines as the source tree holds them: name → declared parameter names.
    func shipped() throws -> [String: [String]] {
        let folder = CLI.root + "/pipelines"
        var result: [String: [String]] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".json") {
            let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file))
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            result[String(file.dropLast(5))] = ((object["params"] as? [String: Any]) ?? [:]).keys.sorted()
        }
        return result
    }

    /// A user pipeline folder with `mine` and a `thumbnail` that replaces the shipped one.
    func userFolder(_ name: String) throws -> (data: String, environment: [String: String]) {
        let dir = try CLI.temporaryFolder(name)
        let folder = dir + "/data/sumi/pipelines"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let manifest = #"{"sumi": 1, "summary": "%@", "params": {"input": {"type": "path"}, "output": {"type": "path", "default": "out.png"}, "edge": {"type": "number", "default": 32, "summary": "the longer side"}}, "stages": [{"stage": "decode", "with": {"path": "${input}"}}, {"stage": "scale", "with": {"width": "${edge}"}}, {"stage": "encode", "with": {"path": "${output}"}}]}"#
        try manifest.replacingOccurrences(of: "%@", with: "mine").write(toFile: folder + "/mine.json", atomically: true, encoding: .utf8)
        try manifest.replacingOccurrences(of: "%@", with: "my thumbnail").write(toFile: folder + "/thumbnail.json", atomically: true, encoding: .utf8)
        return (dir, ["XDG_DATA_HOME": dir + "/data"])
    }

    @Test func listsShippedAndUserPipelinesWithTheirParameters() throws {
        let (dir, environment) = try userFolder("pipelines-list")
        let r = try CLI.run(["pipelines", "--json"], environment: environment)
        #expect(r.status == 0, "\(r.stderr)")
        let listed = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: listed.compactMap { item in (item["name"] as? String).map { ($0, item) } })
        let shipped = try shipped()
        #expect(Set(byName.keys) == Set(shipped.keys).union(["mine"]), "\(byName.keys.sorted())")
        for (name, parameters) in shipped where name != "thumbnail" {
            let item = try #require(byName[name])
            #expect(item["origin"] as? String == "shipped" && (item["path"] as? String)?.hasSuffix("/pipelines/\(name).json") == true)
            let listedParameters = ((item["parameters"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
            #expect(listedParameters.sorted() == parameters, "\(name): \(listedParameters)")
        }
        // A user's pipeline of a shipped name replaces it.
        let thumbnail = try #require(byName["thumbnail"])
        #expect(thumbnail["origin"] as? String == "user" && thumbnail["summary"] as? String == "my thumbnail")
        #expect(thumbnail["path"] as? String == dir + "/data/sumi/pipelines/thumbnail.json")

        let text = try CLI.run(["pipelines", "mine"], environment: environment)
        #expect(text.status == 0 && text.stdout.contains("mine — mine") && text.stdout.contains("edge")
                && text.stdout.contains("default 32") && text.stdout.contains("the longer side"), "\(text.stdout)")

        // The user's pipeline runs by name.
        let run = try CLI.run(["run", "mine", "-i", Fixtures.photo, "-o", dir + "/mine.png", "--set", "edge=40"], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(CLI.identify(dir + "/mine.png")?.width == 40)
    }

    @Test func aMisspeltNameGetsTheNearestPipeline() throws {
        let (dir, environment) = try userFolder("pipelines-typo")
        let r = try CLI.run(["run", "thumbnial", "-o", dir + "/x.png"], environment: environment)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("\"thumbnial\" is neither a manifest file nor a pipeline (did you mean \"thumbnail\"?)"), "\(r.stderr)")
        for name in try shipped().keys { #expect(r.stderr.contains(name), "\(name) not listed: \(r.stderr)") }
        #expect(r.stderr.contains("mine"), "\(r.stderr)")
        let json = try CLI.run(["validate", "captoin.json"], environment: environment)
        #expect(json.status == 2 && json.stderr.contains("did you mean \"caption\"?"), "\(json.stderr)")
        let listing = try CLI.run(["pipelines", "ful-page"], environment: environment)
        #expect(listing.status == 2 && listing.stderr.contains("did you mean \"fullpage\"?"), "\(listing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.png"))
    }

    /// bash completes pipeline names after run and a pipeline's own parameters after --set.
    @Test func completionOffersPipelinesAndTheirParameters() throws {
        let (dir, environment) = try userFolder("pipelines-completion")
        let script = try CLI.run(["completion", "bash"])
        #expect(script.status == 0)
        try script.stdoutData.write(to: URL(fileURLWithPath: dir + "/sumi.bash"))
        func complete(_ words: String, _ index: Int) -> Set<String> {
            let out = CLI.tool("/usr/bin/env", ["XDG_DATA_HOME=\(environment["XDG_DATA_HOME"] ?? "")", "/bin/bash", "-c",
                                                "cd '\(dir)'; source '\(dir)/sumi.bash'; COMP_WORDS=(\(words)); COMP_CWORD=\(index); _sumi; printf '%s\\n' \"${COMPREPLY[@]}\""])
            return Set(String(decoding: out ?? Data(), as: UTF8.self).split(separator: "\n").map(String.init))
        }
        #expect(complete("sumi run cap", 2).isSuperset(of: ["caption", "caption-label"]))
        #expect(complete("sumi run mi", 2).contains("mine"), "the user's pipelines are completed as completion runs")
        #expect(complete("sumi pipelines f", 2) == ["fullpage"])
        let sets = complete("sumi run caption --set fr", 4)
        #expect(sets.contains("frame="), "\(sets)")
        let all = complete("sumi run fullpage --set ''", 4)
        for parameter in try shipped()["fullpage"] ?? [] where parameter != "input" && parameter != "output" {
            #expect(all.contains(parameter + "="), "\(parameter)= not offered: \(all.sorted().prefix(8))")
        }
    }

    /// The examples of `sumi --help` and the man page run pipelines that exist, by name, and the man
    /// page names real folders, not a placeholder.
    @Test func examplesUseInstalledNames() throws {
        let help = try CLI.run(["--help"]).stdout
        let man = try String(contentsOfFile: CLI.root + "/docs/sumi.1", encoding: .utf8)
        let shipped = try shipped()
        var named = 0
        for text in [help, man] {
            // Example lines start with the command; the synopsis names its operands in capitals.
            for line in text.split(separator: "\n") where line.trimmingCharacters(in: .whitespaces).hasPrefix("sumi run ") {
                let words = line.split(separator: " ").map(String.init)
                guard let at = words.firstIndex(of: "run"), at + 1 < words.count else { continue }
                let target = words[at + 1]
                if target.hasPrefix("'") || target == target.uppercased() { continue }  // an inline pipeline, the synopsis
                #expect(!target.contains("/"), "an example runs a source-tree path: \(line)")
                #expect(shipped[target] != nil, "an example runs \(target), which is not shipped: \(line)")
                named += 1
            }
        }
        #expect(named >= 4, "\(named)")
        #expect(!man.contains("PREFIX"), "the man page prints a literal PREFIX")
    }
}
