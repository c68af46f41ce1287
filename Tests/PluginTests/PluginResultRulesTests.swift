import Foundation
import SumiEngine
import SumiKit
import Testing

/// What a version 2 stage may return and write: a value made in the call (never one of its inputs),
/// and files only where the run's `WriteConfinement` allows.
@Suite struct PluginResultRulesTests {
    @Test func aStageReturningItsInputIsRefusedNamingTheStage() throws {
        let fixtures = try PluginFixtures.get()
        let registry = try PluginABIv2Tests.registry(try fixtures.v2Plugin("libv2-return-input.so"))
        let harness = try PluginABIv2Tests.harness(registry, "v2-misbehave")
        let input = Value.image(PluginABIv2Tests.solid(4, 3, [1, 2, 3, 255]))
        let error = try #require(throws: StageError.self) {
            try harness.run(["mode": .string("return-input")], inputs: ["in": input])
        }
        #expect(error.message == "plugin libv2-return-input.so: stage \"v2-misbehave\" returned one of its inputs as its result; "
            + "a result must be a value made in the call (new_image and copy the pixels, or new_layer_from for a layer)")
        #expect(!error.isUsageError)
    }

    @Test func writeFileHonoursTheRunsConfinement() throws {
        let fixtures = try PluginFixtures.get()
        let registry = try PluginABIv2Tests.registry(try fixtures.v2Plugin("libv2-writer.so", defines: ["TEST_WRITER"]))
        let harness = try PluginABIv2Tests.harness(registry, "v2-write")
        let dir = try TemporaryFolder.make("write-file")
        let allowed = dir + "/allowed"
        try FileManager.default.createDirectory(atPath: allowed, withIntermediateDirectories: true)
        var context = StageContext()
        context.writeConfinement = WriteConfinement(folder: allowed) { $0.hasPrefix(allowed + "/") }
        let input = StageInputs(["in": .image(PluginABIv2Tests.solid(2, 2, [0, 0, 0, 255]))])

        let outside = dir + "/outside.txt"
        let refused = try #require(throws: StageError.self) {
            try harness.make(["target": .string(outside)]).process(input, context: context)
        }
        #expect(refused.message == "plugin libv2-writer.so: write_file: this run writes only below the output folder \(allowed); refused \(outside)")
        #expect(!FileManager.default.fileExists(atPath: outside))

        let inside = allowed + "/inside.txt"
        let written = try harness.make(["target": .string(inside)]).process(input, context: context)
        guard case .file(let file) = written else { Issue.record("expected a file, got \(written.kind)"); return }
        #expect(file.path == inside && file.bytes == 9)
        #expect(try String(contentsOfFile: inside, encoding: .utf8) == "v2-write\n")

        // A run without a folder (no -o) lets a safe run write only to standard output.
        var none = StageContext()
        none.writeConfinement = WriteConfinement(folder: nil) { _ in false }
        let noFolder = try #require(throws: StageError.self) {
            try harness.make(["target": .string(inside)]).process(input, context: none)
        }
        #expect(noFolder.message.hasSuffix("this run writes only to standard output (no output folder was given); refused \(inside)"))
    }
}
