import Testing
import Synchronization
import SumiEngine
import SumiKit

@Suite struct RunnerTests {
    @Test func runsAChainAndReportsTimings() throws {
        let p = try build("""
        {"sumi": 1, "stages": [
          {"id": "a", "stage": "solid", "with": {"size": "5x2", "color": "#102030"}},
          {"id": "b", "stage": "invert"},
          {"id": "c", "stage": "sink", "with": {"path": "x.raw"}}]}
        """)
        let warnings = Mutex<[String]>([])
        let result = try Runner(pipeline: p, warn: { w in warnings.withLock { $0.append(w) } }).run()
        #expect(result.outputs.count == 1)
        #expect(result.outputs[0].stage == "c")
        #expect(result.outputs[0].file.width == 5 && result.outputs[0].file.height == 2)
        #expect(result.timings.map(\.id) == ["a", "b", "c"])
        #expect(warnings.withLock { $0 } == [#"test.json: stages[2] "c" (sink): sink saw 5x2"#])
    }

    @Test func independentBranchesAllRun() throws {
        let p = try build("""
        {"sumi": 1, "stages": [
          {"id": "a", "stage": "solid"}, {"id": "a2", "stage": "invert", "from": "a"}, {"id": "o1", "stage": "sink", "from": "a2", "with": {"path": "1"}},
          {"id": "b", "stage": "solid"}, {"id": "b2", "stage": "invert", "from": "b"}, {"id": "o2", "stage": "sink", "from": "b2", "with": {"path": "2"}}]}
        """)
        let result = try Runner(pipeline: p).run()
        #expect(Set(result.outputs.map(\.file.path)) == ["1", "2"])
    }

    /// One table gives each kind of failure its exit status and HTTP status; a stage's cause
    /// becomes the run error's kind unchanged, whatever its message says.
    @Test(arguments: [("data", SumiError.Kind.run, Int32(1), 422), ("usage", .usage, 2, 400), ("unsupported", .unsupported, 1, 415),
                      ("limit", .limit, 1, 400), ("io", .io, 1, 500), ("plugin", .plugin, 1, 500)])
    func aStagesCauseIsTheRunErrorsKind(cause: String, kind: SumiError.Kind, exit: Int32, http: Int) throws {
        let p = try build(#"{"sumi": 1, "stages": [{"stage": "solid"}, {"stage": "fail", "with": {"cause": "\#(cause)"}}, {"stage": "sink", "with": {"path": "o"}}]}"#)
        do {
            _ = try Runner(pipeline: p).run()
            Issue.record("no error")
        } catch {
            #expect(error.kind == kind && error.exitCode == exit && error.kind.httpStatus == http && error.isLimit == (kind == .limit))
            #expect(error.message == "the data was bad")
        }
        #expect(SumiError.Kind.internal.httpStatus == 500 && SumiError.Kind.internal.exitStatus == 1)
    }

    @Test func aFailingStageIsARunErrorWithItsPlace() throws {
        let p = try build(#"{"sumi": 1, "stages": [{"stage": "solid"}, {"id": "f", "stage": "fail"}, {"stage": "sink", "with": {"path": "o"}}]}"#)
        do {
            _ = try Runner(pipeline: p).run()
            Issue.record("no error")
        } catch {
            #expect(error.exitCode == 1)
            #expect(error.description == #"test.json: stages[1] "f" (fail): the data was bad"#)
        }
    }

    @Test func harnessChecksParametersLikeAManifest() throws {
        let harness = StageHarness(InvertStage.self)
        let image = Image(width: 2, height: 1, fill: Color(red: 10, green: 20, blue: 30))
        let out = try harness.runImage(inputs: ["in": .image(image)])
        #expect(out.pixel(x: 1, y: 0) == (245, 235, 225, 255))
        #expect(throws: StageError.self) { try harness.run(["amount": .number(3)], inputs: ["in": .image(image)]) }
    }

    @Test func registryRefusesNameClashes() throws {
        let registry = try testRegistry()
        #expect(throws: SumiError.self) { try registry.register([StageDefinition(SolidStage.self)]) }
    }
}
