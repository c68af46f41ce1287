import CSumiPlugin
@testable import SumiEngine
import SumiCompose
import SumiKit
import SumiPluginSDK
import Testing

/// Bands beside other inputs (`band_start`, `port_access`, `image_size`, appended within ABI
/// version 2): a C stage whose base comes by bands and whose second image comes whole, a shape port
/// that never sees pixels, and the Compose family exported through the Swift SDK — its `blend` run
/// by the host's band loop through small rings gives the built-in's pixels and side data.
@Suite struct PluginBandInputsTests {
    static func library() throws -> StageRegistry {
        let registry = StageRegistry()
        try PluginLoader.loadLibrary(at: try PluginFixtures.get().bandInputsPlugin("libband-inputs.so"), into: registry)
        return registry
    }

    @Test(arguments: RingPattern.standard)
    func aSecondImageTakenWholeBesideTheBands(pattern: RingPattern) throws {
        let harness = StageHarness(definition: try #require(try Self.library().definition(named: "band-mix")))
        let base = TestImage.noise(97, 61, seed: 5), over = TestImage.noise(97, 61, seed: 9)
        let run = try harness.runRing(inputs: ["base": .image(base), "over": .image(over)], pattern: pattern)
        guard case .image(let mixed) = run.value else { Issue.record("no image"); return }
        #expect(mixed.width == 97 && mixed.height == 61)
        #expect(mixed.pixels == zip(base.pixels, over.pixels).map { UInt8((Int($0) + Int($1)) / 2) }, "\(pattern)")
        #expect(mixed.metadata.knownOpaque, "band_start's side data reaches the result")
        let input = try #require(run.inputs["base"]), output = try #require(run.output)
        #expect(run.inputs["over"] == nil)
        #expect(input.mostRowsHeld <= input.slots && output.mostRowsHeld <= output.slots)
        if output.slots < 61 { #expect(output.releasedBeforeEnd >= 61 - output.slots, "\(pattern): the output streamed") }
    }

    @Test func aShapePortGetsTheSizeAndNoPixels() throws {
        let harness = StageHarness(definition: try #require(try Self.library().definition(named: "shape-size")))
        let out = try harness.runImage(inputs: ["base": .image(TestImage.noise(97, 61))])
        #expect(out.pixels == [97, 61, 1, 255])
    }

    /// The Compose family exported by the Swift SDK in this process, read back by the host's loader.
    static let compose: [String: StageDefinition] = {
        let entry: sumi_plugin_init_fn = { host, out in
            SumiPlugin.export(name: "compose", version: "test", definitions: ComposeStages.stages,
                              host: UnsafeRawPointer(host), into: UnsafeMutableRawPointer(out))
        }
        let library = try? PluginLibrary.initialise(entry, path: "/in-process/libComposePlugin.so")
        return Dictionary(uniqueKeysWithValues: (library?.definitions ?? []).map { ($0.descriptor.name, $0) })
    }()

    @Test(arguments: RingPattern.standard)
    func blendThroughTheSDKStreamsAndGivesTheBuiltInsPixels(pattern: RingPattern) throws {
        let plugin = StageHarness(definition: try #require(Self.compose["blend"]))
        let builtin = StageHarness(BlendStage.self)
        var base = TestImage.noise(83, 67, seed: 3)
        base.metadata.knownOpaque = false
        var layer = Layer(image: TestImage.noise(31, 23, seed: 4, minAlpha: 40))
        layer.placement = Placement(origin: Point(x: 10.5, y: 7.25), scaleX: 1.5, scaleY: 1.25)
        let parameters: [String: ParamValue] = ["opacity": .number(0.6), "mode": .string("multiply")]
        let expected = try builtin.runImage(parameters, inputs: ["base": .image(base), "layer": .layer(layer)])
        let run = try plugin.runRing(parameters, inputs: ["base": .image(base), "layer": .layer(layer)], pattern: pattern)
        guard case .image(let blended) = run.value else { Issue.record("no image"); return }
        #expect(blended.pixels == expected.pixels && blended.pixels != base.pixels, "\(pattern)")
        #expect(blended.metadata.knownOpaque == expected.metadata.knownOpaque)
        let input = try #require(run.inputs["base"]), output = try #require(run.output)
        #expect(input.mostRowsHeld <= input.slots && output.mostRowsHeld <= output.slots)
        if output.slots < 67 { #expect(output.releasedBeforeEnd >= 67 - output.slots, "\(pattern): the output streamed") }
    }

    @Test func placeThroughTheSDKReadsItsBaseAsAShape() throws {
        let definition = try #require(Self.compose["place"])
        let stage = try StageHarness(definition: definition).make(["offset": .point(Point(x: 12, y: -3))])
        #expect(stage.imageAccess(for: "base") == .shape && stage.imageAccess(for: "layer") == .whole)
        let blend = try StageHarness(definition: try #require(Self.compose["blend"])).make()
        #expect(blend.imageAccess(for: "base") == .rows && blend.imageAccess(for: "layer") == .whole)
        let inputs: [String: Value] = ["base": .image(TestImage.noise(120, 80)), "layer": .layer(Layer(image: TestImage.noise(20, 10)))]
        let placed = try StageHarness(definition: definition).run(["offset": .point(Point(x: 12, y: -3))], inputs: inputs)
        let expected = try StageHarness(PlaceStage.self).run(["offset": .point(Point(x: 12, y: -3))], inputs: inputs)
        guard case .layer(let a) = placed, case .layer(let b) = expected else { Issue.record("no layers"); return }
        #expect(a.placement.origin.x == b.placement.origin.x && a.placement.origin.y == b.placement.origin.y)
        #expect(a.placement.scaleX == b.placement.scaleX && a.placement.scaleY == b.placement.scaleY)
    }
}
