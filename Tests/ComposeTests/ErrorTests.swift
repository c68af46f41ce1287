import Testing
import SumiEngine
import SumiKit
import SumiCompose

/// Bad inputs and parameters give clear errors, never a crash.
@Suite struct ErrorTests {
    static func usageProblem(_ error: any Error, parameter: String, mentioning text: String) -> Bool {
        guard let e = error as? StageError else { return false }
        return e.isUsageError && e.parameter == parameter && e.message.contains(text)
    }

    static let file = Value.file(FileOutput(path: "x.png", format: "png", bytes: 10, width: 1, height: 1))
    static let base = Value.image(TestSupport.solid(10, 10, .white))

    @Test func layerPortRejectsOtherValues() throws {
        #expect {
            try StageHarness(PlaceStage.self).run(inputs: ["base": Self.base, "layer": Self.file])
        } throws: { "\($0)".contains("port \"layer\"") && "\($0)".contains("expected a layer") }
        #expect {
            try StageHarness(BlendStage.self).run(inputs: ["base": Self.base, "layer": Self.file])
        } throws: { "\($0)".contains("port \"layer\"") && "\($0)".contains("got file") }
        #expect {
            try StageHarness(BlendStage.self).run(inputs: ["base": Self.base])
        } throws: { "\($0)".contains("got nothing") }
        #expect {
            try StageHarness(BlendStage.self).run(inputs: ["base": Self.file, "layer": Self.base])
        } throws: { "\($0)".contains("port \"base\"") }
    }

    @Test func badEnumerations() throws {
        #expect {
            try StageHarness(PlaceStage.self).make(["fit": .string("stretch")])
        } throws: { Self.usageProblem($0, parameter: "fit", mentioning: "contain, cover, fill") }
        #expect {
            try StageHarness(PlaceStage.self).make(["anchor": .string("middle")])
        } throws: { Self.usageProblem($0, parameter: "anchor", mentioning: "top-left") }
        #expect {
            try StageHarness(BlendStage.self).make(["mode": .string("burn")])
        } throws: { Self.usageProblem($0, parameter: "mode", mentioning: "multiply") }
        #expect {
            try StageHarness(BlendStage.self).make(["opacity": .number(1.5)])
        } throws: { Self.usageProblem($0, parameter: "opacity", mentioning: "1.5") }
    }

    /// A frame with no size is refused; one side of 0 follows the base's aspect.
    @Test func zeroFrameIsRefused() throws {
        for frame in [Size(width: 0, height: 0)] {
            #expect {
                try StageHarness(PlaceStage.self).make(["frame": .size(frame)])
            } throws: { Self.usageProblem($0, parameter: "frame", mentioning: "> 0") }
        }
        for frame in [Size(width: 0, height: 260), Size(width: 390, height: 0)] {
            _ = try StageHarness(PlaceStage.self).make(["frame": .size(frame)])
        }
        #expect {
            try StageHarness(PlaceStage.self).make(["offset": .string("left")])
        } throws: { Self.usageProblem($0, parameter: "offset", mentioning: "point") }
    }

    @Test func emptyBaseIsADataError() throws {
        #expect {
            try StageHarness(PlaceStage.self).run(
                inputs: ["base": .image(Image(width: 0, height: 0, pixels: [])), "layer": Self.base])
        } throws: { error in
            guard let e = error as? StageError else { return false }
            return !e.isUsageError && e.message.contains("empty image")
        }
    }

    /// A preview shows photos upright; placing on pixels that are not gets a warning.
    @Test func warnsWhenBaseIsNotUpright() throws {
        let meta = ImageMetadata(sourceOrientation: 6, orientationApplied: false)
        let harness = StageHarness(PlaceStage.self)
        _ = try harness.run(inputs: ["base": .image(Image(width: 10, height: 10, fill: .white, metadata: meta)), "layer": Self.base])
        #expect(harness.warnings.count == 1 && harness.warnings[0].contains("orientation 6"))
        let upright = StageHarness(PlaceStage.self)
        _ = try upright.run(inputs: ["base": Self.base, "layer": Self.base])
        #expect(upright.warnings.isEmpty)
    }

    @Test func familyRegisters() throws {
        let registry = StageRegistry()
        try registry.register(ComposeStages.stages)
        #expect(registry.all.map(\.descriptor.name) == ["blend", "place"])
        #expect(registry.definition(named: "place")?.descriptor.output == .layer)
        #expect(registry.definition(named: "blend")?.descriptor.inputs.map(\.typeName) == ["image", "layer|images"])
    }
}
