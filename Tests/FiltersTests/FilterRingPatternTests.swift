import SumiKit
import Testing
@testable import SumiFilters

/// Every filter through small rings driven with odd bands (`RingPattern.standard`): the bytes and
/// side data of the whole-image run, with every ring held within its slots.
@Suite struct FilterRingPatternTests {
    let image = TestImage.noise(45, 70)

    static let cases: [(StageDefinition, [String: ParamValue])] = [
        (StageDefinition(BlurStage.self), ["sigma": .number(0.6)]),
        (StageDefinition(BlurStage.self), ["sigma": .number(2)]),
        (StageDefinition(BlurStage.self), ["sigma": .number(9)]),
        (StageDefinition(SharpenStage.self), ["sigma": .number(2), "amount": .number(1.5), "threshold": .number(3)]),
        (StageDefinition(AdjustStage.self), ["brightness": .number(1.2), "contrast": .number(0.8), "hue": .number(30), "gamma": .number(1.4)]),
        (StageDefinition(FlattenStage.self), ["background": .color(Color(red: 9, green: 99, blue: 199))]),
        (StageDefinition(RoundStage.self), ["radius": .number(14)]),
        (StageDefinition(RoundStage.self), ["circle": .bool(true)]),
    ]

    @Test(arguments: RingPattern.standard)
    func ringsGiveTheWholeImage(pattern: RingPattern) throws {
        for (stage, parameters) in Self.cases {
            let harness = StageHarness(definition: stage)
            let inputs: [String: Value] = ["in": .image(image)]
            let whole = try harness.runImage(parameters, inputs: inputs)
            let run = try harness.runRing(parameters, inputs: inputs, pattern: pattern)
            guard case .image(let ringed) = run.value else { throw StageError("no image") }
            let name = "\(stage.descriptor.name) \(parameters) \(pattern)"
            #expect(ringed.width == 45 && ringed.height == 70, "\(name)")
            #expect(ringed.pixels == whole.pixels, "\(name)")
            #expect(ringed.metadata.knownOpaque == whole.metadata.knownOpaque, "\(name)")
            for ring in Array(run.inputs.values) + [run.output].compactMap({ $0 }) {
                #expect(ring.mostRowsHeld <= ring.slots, "\(name)")
            }
        }
    }
}
