import Foundation
import Testing

/// --shard K/N and auto (Kubernetes and Slurm variables), --skip-existing and the per-shard summary.
@Suite struct ScaleOutTests {
    static func summary(_ r: CLI.Result) -> [String: Any]? {
        r.reports.last { $0["shard"] != nil || $0["assigned"] != nil }
    }

    @Test func shardsAreDisjointAndCompleteAndResume() throws {
        let dir = try CLI.temporaryFolder("shard")
        try FileManager.default.createDirectory(atPath: "\(dir)/in", withIntermediateDirectories: true)
        _ = try BatchInputTests.images(12, in: "\(dir)/in")
        var seen: [String] = []
        for k in 1...3 {
            let r = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "\(dir)/in", "-o", "\(dir)/out/", "--set", "width=8",
                                 "--shard", "\(k)/3", "--json"])
            #expect(r.status == 0, "\(r.stderr)")
            let runs = r.reports.filter { $0["pipeline"] != nil }
            seen += runs.compactMap { $0["input"] as? String }
            let s = try #require(Self.summary(r))
            #expect(s["shard"] as? String == "\(k)/3" && s["inputs"] as? Int == 12)
            #expect(s["ran"] as? Int == runs.count && s["failed"] as? Int == 0)
        }
        #expect(seen.count == 12 && Set(seen).count == 12, "every input exactly once: \(seen)")
        let outputs = try FileManager.default.contentsOfDirectory(atPath: "\(dir)/out").filter { $0.hasSuffix(".jpg") }
        #expect(outputs.count == 12)

        // A rerun finds every output and does no work.
        let again = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "\(dir)/in", "-o", "\(dir)/out/", "--set", "width=8",
                                 "--skip-existing", "--json"])
        #expect(again.status == 0, "\(again.stderr)")
        let s = try #require(Self.summary(again))
        #expect(s["ran"] as? Int == 0 && s["skipped"] as? Int == 12)
        // Remove one output: only that input runs.
        try FileManager.default.removeItem(atPath: "\(dir)/out/img5.jpg")
        let resume = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "\(dir)/in", "-o", "\(dir)/out/", "--set", "width=8",
                                  "--skip-existing", "--json"])
        #expect(Self.summary(resume)?["ran"] as? Int == 1)
        #expect(resume.reports.contains { $0["ok"] as? Bool == true && ($0["input"] as? String)?.hasSuffix("img5.png") == true && $0["skipped"] == nil })
    }

    @Test func autoReadsKubernetesAndSlurm() throws {
        let dir = try CLI.temporaryFolder("auto")
        _ = try BatchInputTests.images(6, in: dir)
        func plan(_ env: [String: String]) throws -> [String] {
            let r = try CLI.run(["run", "pipelines/thumbnail.json", "-i", dir, "-o", "\(dir)/o/", "--shard", "auto", "--dry-run", "--json"],
                                environment: env)
            #expect(r.status == 0, "\(r.stderr)")
            return r.reports.compactMap { $0["input"] as? String }
        }
        var union: [String] = []
        for i in 0..<2 { union += try plan(["JOB_COMPLETION_INDEX": "\(i)", "SUMI_SHARD_COUNT": "2"]) }
        #expect(union.count == 6 && Set(union).count == 6)
        var slurm: [String] = []
        for i in 0..<2 { slurm += try plan(["SLURM_ARRAY_TASK_ID": "\(i)", "SLURM_ARRAY_TASK_COUNT": "2", "SLURM_ARRAY_TASK_MIN": "0"]) }
        #expect(Set(slurm) == Set(union), "Kubernetes index i and Slurm task i pick the same shard")
        let explicit = try CLI.run(["run", "pipelines/thumbnail.json", "-i", dir, "-o", "\(dir)/o/", "--shard", "1/2", "--dry-run", "--json"])
        #expect(explicit.reports.compactMap { $0["input"] as? String } == (try plan(["JOB_COMPLETION_INDEX": "0", "SUMI_SHARD_COUNT": "2"])))
        let missing = try CLI.run(["run", "pipelines/thumbnail.json", "-i", dir, "-o", "\(dir)/o/", "--shard", "auto"])
        #expect(missing.status == 2 && missing.stderr.contains("SLURM_ARRAY_TASK_ID"))
    }

    @Test(arguments: ["3/2", "0/0", "0/3", "1", "a/b", "-1/2"])
    func impossibleShardsAreUsageErrors(shard: String) throws {
        let r = try CLI.run(["run", "pipelines/thumbnail.json", "-i", Fixtures.photo, "-o", "/nonexistent/x.jpg", "--shard", shard])
        #expect(r.status == 2, "--shard \(shard)")
        #expect(r.stderr.hasPrefix("sumi: error: --shard"), "\(r.stderr)")
    }
}
