import Foundation
import SumiApp
import SumiEngine
import SumiKit
import Synchronization
import Testing

/// The application layer in-process: a request prepared under a policy into checked runs, the way
/// `sumi run`, `sumi validate` and `sumi serve`'s workers prepare theirs (`Invocation`), without
/// starting a process.
@Suite struct SessionTests {
    /// A 1×1 opaque PNG (as written by libpng), so inputs are images by their bytes.
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
        0xDE, 0x00, 0x00, 0x00, 0x0C, 0x49, 0x44, 0x41, 0x54, 0x08, 0xD7, 0x63, 0xF8, 0xCF, 0xC0, 0x00,
        0x00, 0x03, 0x01, 0x01, 0x00, 0x18, 0xDD, 0x8D, 0xB0, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E,
        0x44, 0xAE, 0x42, 0x60, 0x82,
    ]

    static func folder(with names: [String]) throws -> TemporaryFolder {
        let folder = try TemporaryFolder("session")
        for name in names { try Data(png).write(to: URL(fileURLWithPath: folder.file(name))) }
        return folder
    }

    static func prepare(_ pipeline: String, inputs: [String] = [], output: String? = nil, settings: [(String, String)] = [],
                        policy: RunPolicy = RunPolicy()) throws(SumiError) -> Invocation {
        var request = RunRequest(pipeline: pipeline)
        request.inputs = inputs
        request.output = output
        request.settings = settings.map { (name: $0.0, value: $0.1) }
        request.configuredPlugins = false
        return try Invocation(request: request, policy: policy)
    }

    static func failure(_ body: () throws -> Void) -> SumiError? {
        do { try body(); return nil } catch let error as SumiError { return error } catch {
            Issue.record("not a SumiError: \(error)")
            return nil
        }
    }

    @Test func anInlinePipelineIsPreparedAndPrintedBack() throws {
        let folder = try Self.folder(with: ["a.png"])
        defer { folder.remove() }
        let invocation = try Self.prepare("decode ! scale width=64 ! encode", inputs: [folder.file("a.png")], output: folder.file("o.png"))
        #expect(invocation.isInline && invocation.runs.count == 1)
        let pipeline = try invocation.pipeline(for: invocation.runs[0])
        #expect(pipeline.nodes.map(\.descriptor.name) == ["decode", "scale", "encode"])
        #expect(InlineForm.text(of: pipeline).contains("scale width=64"), "\(InlineForm.text(of: pipeline))")
    }

    /// A value may begin with a combining mark, a ZWJ or a skin-tone modifier: `NAME=VALUE` and a
    /// one-line pipeline split at the `=` scalar, which such a mark would otherwise join into one
    /// character with it (and with an opening quote).
    @Test(arguments: ["\u{301}abc", "\u{200D}x", "\u{1F3FD}", "\u{E31}\u{E01}", "=\u{301}"])
    func valuesBeginningWithACombiningMarkSplitAtTheEquals(value: String) throws {
        #expect(splitAssignment("text=" + value).map { [$0.name, $0.value] } == ["text", value])
        #expect(splitInlineValue("--set=" + value).inline == value)
        #expect(splitAssignment("no equals\u{301}") == nil)
        for written in ["text text=\(value) ! encode", "text text=\"\(value)\" ! encode", "text 'text=\(value)' ! encode"] {
            let invocation = try Self.prepare(written)
            let text = invocation.manifest.stages.first?.with.first { $0.0 == "text" }?.1
            #expect(text?.stringValue == value, "\(written): \(String(describing: text))")
        }
    }

    @Test func aBatchIsOneRunPerInputWithTheTemplatesOutput() throws {
        let folder = try Self.folder(with: ["a.png", "b.png"])
        defer { folder.remove() }
        let invocation = try Self.prepare("decode ! encode", inputs: [folder.file("a.png"), folder.file("b.png")],
                                          output: folder.path + "/out/{stem}.jpg")
        #expect(invocation.runs.map(\.output) == [folder.path + "/out/a.jpg", folder.path + "/out/b.jpg"])
        // Two runs writing one file are refused before anything runs.
        let clash = Self.failure { _ = try Self.prepare("decode ! encode", inputs: [folder.file("a.png"), folder.file("b.png")],
                                                        output: folder.path + "/out/x{ext}") }
        #expect(clash?.kind == .usage, "\(String(describing: clash))")
        // An output that is one of the batch's inputs is refused by the input guard.
        let overwrite = try Self.prepare("decode ! encode", inputs: [folder.file("a.png"), folder.file("b.png")], output: folder.path + "/{name}")
        let refused = Self.failure { _ = try overwrite.pipeline(for: overwrite.runs[0]) }
        #expect(refused?.message.contains("may not replace an input") == true, "\(String(describing: refused))")
    }

    @Test func aShardKeepsItsRuns() throws {
        let names = (1...5).map { "i\($0).png" }
        let folder = try Self.folder(with: names)
        defer { folder.remove() }
        var request = RunRequest(pipeline: "decode ! encode")
        request.inputs = names.map(folder.file)
        request.output = folder.path + "/o/{stem}.png"
        request.configuredPlugins = false
        request.batch.shard = "2/2"
        let invocation = try Invocation(request: request, policy: RunPolicy())
        #expect(invocation.totalInputs == 5 && invocation.runs.compactMap(\.input).map { FileIO.fileName(of: $0) } == ["i2.png", "i4.png"])
        #expect(Self.failure { _ = try Shard.parse("3/2") }?.kind == .usage)
    }

    @Test func aSafePolicyConfinesReadsAndWritesBeforeAnyStageIsMade() throws {
        let folder = try Self.folder(with: ["a.png"])
        defer { folder.remove() }
        let safe = RunPolicy.fromEnvironment(safe: true)
        let reads = try Self.prepare("decode path=/etc/hostname ! encode", output: folder.file("o.png"), policy: safe)
        let read = Self.failure { _ = try reads.pipeline(for: reads.runs[0]) }
        #expect(read?.kind == .usage && read?.message.contains("reads only the files given with -i") == true, "\(String(describing: read))")
        let writes = try Self.prepare("decode ! encode path=/tmp/elsewhere.png", inputs: [folder.file("a.png")], policy: safe)
        let write = Self.failure { _ = try writes.pipeline(for: writes.runs[0]) }
        #expect(write?.message.contains("writes only below the folder of -o") == true, "\(String(describing: write))")
        // The same pipelines pass under the standard policy.
        let open = try Self.prepare("decode path=/etc/hostname ! encode", output: folder.file("o.png"))
        #expect(Self.failure { _ = try open.pipeline(for: open.runs[0]) } == nil)
    }

    @Test func aSafePolicysLimitsOnlyGoDown() {
        let safe = RunPolicy.fromEnvironment(safe: true)
        #expect(safe.limits.maxPixels <= PixelLimits.safe.maxPixels && safe.limits.maxWidth <= PixelLimits.safe.maxWidth)
        #expect(safe.lowering(maxPixels: 1000).limits.maxPixels == min(1000, safe.limits.maxPixels))
        #expect(safe.lowering(maxPixels: Int.max).limits.maxPixels == safe.limits.maxPixels)
        #expect(safe.runOptions.limits == safe.limits)
        #expect(RunPolicy().safe == false && RunPolicy().limits == PixelLimits.standard)
    }

    @Test func settingsAreTypedAndCheckedByName() throws {
        let folder = try Self.folder(with: ["a.png"])
        defer { folder.remove() }
        let unknown = Self.failure { _ = try Self.prepare("pipelines/thumbnail.json", inputs: [folder.file("a.png")], settings: [("widht", "5")]) }
        #expect(unknown?.parameter == "widht" && unknown?.message.contains("did you mean") == true, "\(String(describing: unknown))")
        let bad = Self.failure { _ = try Self.prepare("pipelines/thumbnail.json", inputs: [folder.file("a.png")], settings: [("width", "wide")]) }
        #expect(bad?.kind == .usage && bad?.parameter == "width", "\(String(describing: bad))")
    }

    @Test func aSessionRunsABatchAndReportsEachRun() throws {
        let folder = try Self.folder(with: ["a.png", "b.png", "c.png"])
        defer { folder.remove() }
        var request = RunRequest(pipeline: "decode ! scale width=4 ! encode")
        request.inputs = ["a.png", "b.png", "c.png"].map(folder.file)
        request.output = folder.path + "/out/{stem}.png"
        request.configuredPlugins = false
        let heard = Mutex<[String]>([])
        let outcomes = try Session().run(request, jobs: 2, finished: { outcome in heard.withLock { $0.append(outcome.input ?? "") } })
        #expect(outcomes.count == 3 && heard.withLock { $0.count } == 3)
        for outcome in outcomes {
            let result = try outcome.result.get()
            let name = FileIO.stem(of: outcome.input ?? "")
            #expect(result.outputs.map { $0.file.path } == [folder.path + "/out/\(name).png"] && result.outputs.first?.file.width == 4)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/out").sorted() == ["a.png", "b.png", "c.png"])
        // Cancelled before it starts, a batch runs nothing; a run's failure is its outcome, not a throw.
        let cancel = Cancellation()
        cancel.cancel()
        request.output = folder.path + "/none/{stem}.png"
        #expect(try Session().run(request, cancel: cancel).isEmpty)
        var broken = RunRequest(pipeline: "decode ! encode")
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: folder.file("bad.png")))
        broken.inputs = [folder.file("bad.png")]
        broken.output = folder.file("bad-out.png")
        broken.configuredPlugins = false
        let failed = try Session().run(broken)
        guard case .failure(let error)? = failed.first?.result else { Issue.record("the damaged file ran"); return }
        #expect(error.exitCode == 1 && !FileManager.default.fileExists(atPath: folder.file("bad-out.png")), "\(error)")
    }

    /// `sumi validate --template` and `sumi graph` in-process: a manifest whose required parameters
    /// have no value fails validation, lists them as a template, and still draws its wiring.
    @Test func aTemplateListsWhatItNeedsAndDrawsItsWiring() throws {
        let folder = try TemporaryFolder("session-template")
        defer { folder.remove() }
        try """
        {"sumi": 1, "params": {"input": {"type": "path"}, "width": {"type": "integer"}, "output": {"type": "path"}},
         "stages": [{"id": "photo", "stage": "decode", "with": {"path": "${input}"}},
                    {"id": "small", "stage": "scale", "with": {"width": "${width}"}},
                    {"stage": "encode", "with": {"path": "${output}"}}]}
        """.write(toFile: folder.file("t.json"), atomically: true, encoding: .utf8)
        var request = RunRequest(pipeline: folder.file("t.json"))
        request.configuredPlugins = false
        let invocation = try Session().prepare(request)
        let verdict = try invocation.validate(template: true)
        #expect(verdict.stageCount == 3 && verdict.needs.sorted() == ["input", "output", "width"], "\(verdict)")
        let missing = Self.failure { _ = try invocation.validate() }
        #expect(missing?.kind == .usage && missing?.message.contains("input") == true, "\(String(describing: missing))")
        let wiring = try invocation.wiring()
        #expect(wiring.nodes.map(\.descriptor.name) == ["decode", "scale", "encode"])
        #expect(PipelineGraph.dot(wiring).contains("small"))
    }

    /// A run's stages are heard as they start and finish: each once, started before finished, the
    /// count of finished stages reaching the run's stage count.
    @Test func aRunReportsItsStagesAsTheyStartAndFinish() throws {
        let folder = try Self.folder(with: ["a.png"])
        defer { folder.remove() }
        var request = RunRequest(pipeline: "decode ! scale width=4 ! encode")
        request.inputs = [folder.file("a.png")]
        request.output = folder.file("out.png")
        request.configuredPlugins = false
        let heard = Mutex<[(Int, StageProgress)]>([])
        let outcomes = try Session().run(request, progress: { run, stage in heard.withLock { $0.append((run, stage)) } })
        #expect(try outcomes.first?.result.get().outputs.count == 1)
        let events = heard.withLock { $0 }
        #expect(events.allSatisfy { $0.0 == 0 && $0.1.stageCount == 3 })
        let order = events.map { "\($0.1.stage) \($0.1.event)" }
        for stage in ["decode", "scale", "encode"] {
            #expect(order.filter { $0 == "\(stage) started" }.count == 1 && order.filter { $0 == "\(stage) finished" }.count == 1, "\(order)")
            let started = try #require(order.firstIndex(of: "\(stage) started")), finished = try #require(order.firstIndex(of: "\(stage) finished"))
            #expect(started < finished, "\(order)")
        }
        let finished = events.filter { $0.1.event == .finished }
        #expect(finished.map(\.1.finishedStages) == [1, 2, 3] && finished.last?.1.fraction == 1, "\(order)")
        // Streamed stages end in any order (a decoder's last rows and the encoder's may land together).
        #expect(Set(finished.map(\.1.stage)) == ["decode", "scale", "encode"] && finished.allSatisfy { ($0.1.milliseconds ?? -1) >= 0 })
    }

    /// A program's own stage runs in a session's pipelines as a built-in one does; cancelling while
    /// a run is under way stops it: the stages waiting for it fail, the run fails as cancelled
    /// (503 for the service, exit 1) and its output is not written.
    @Test func aSessionsOwnStageRunsAndACancelledRunWritesNothing() throws {
        let folder = try Self.folder(with: ["a.png"])
        defer { folder.remove() }
        let gate = Gate()
        let descriptor = StageDescriptor(name: "gate", summary: "Passes the image once let through",
                                         inputs: [PortSpec(name: "in", accepts: .image)], output: .image)
        let session = Session(stages: [StageDefinition(descriptor: descriptor, origin: "test") { _ in GateStage(gate: gate) }])
        var request = RunRequest(pipeline: "decode ! gate ! scale width=4 ! encode")
        request.inputs = [folder.file("a.png")]
        request.output = folder.file("out.png")
        request.configuredPlugins = false

        let cancel = Cancellation()
        let outcome = Mutex<[RunOutcome]>([])
        let held = request
        let thread = Thread { outcome.withLock { $0 = (try? session.run(held, cancel: cancel)) ?? [] } }
        thread.start()
        #expect(gate.entered.wait(timeout: .now() + 60) == .success, "the gate stage never ran")
        cancel.cancel()
        gate.open.signal()
        var waited = 0
        while outcome.withLock({ $0.isEmpty }) && waited < 6000 { usleep(10_000); waited += 1 }
        let result = outcome.withLock { $0.first?.result }
        guard case .failure(let error)? = result else { Issue.record("the cancelled run did not fail: \(String(describing: result))"); return }
        #expect(error.kind == .cancelled && error.kind.httpStatus == 503 && error.exitCode == 1, "\(error)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.png")))
        #expect(cancel.isCancelled)

        // Not cancelled, the same session runs the stage to the end.
        gate.open.signal()
        let done = try session.run(request)
        #expect(try done.first?.result.get().outputs.first?.file.width == 4)
    }
}

/// Lets a test hold a stage: `entered` is signalled when the stage runs, which then waits for `open`.
final class Gate: Sendable {
    let entered = DispatchSemaphore(value: 0)
    let open = DispatchSemaphore(value: 0)
}

struct GateStage: StageInstance {
    let gate: Gate
    func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        gate.entered.signal()
        gate.open.wait()
        return .image(try inputs.image(Port("in")))
    }
}
