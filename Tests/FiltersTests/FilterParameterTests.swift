import SumiKit
import Testing
@testable import SumiFilters

/// Bad parameters are usage errors naming the parameter, found before any pixel.
@Suite struct FilterParameterTests {
    @Test(arguments: [
        ("blur", ["sigma": ParamValue.number(0)], "sigma"),
        ("blur", ["sigma": .number(51)], "sigma"),
        ("blur", ["sigma": .number(2), "radius": .number(2)], "radius"),
        ("blur", ["radius": .number(-1)], "radius"),
        ("sharpen", ["amount": .number(-1)], "amount"),
        ("sharpen", ["threshold": .number(300)], "threshold"),
        ("adjust", ["gamma": .number(0)], "gamma"),
        ("adjust", ["contrast": .string("high")], "contrast"),
        ("adjust", ["tint": .color(Color(red: 1, green: 2, blue: 3, alpha: 9))], "tint"),
        ("flatten", ["background": .string("no-such-colour")], "background"),
        ("round", [:], "radius"),
        ("round", ["radius": .number(3), "circle": .bool(true)], "circle"),
    ])
    func badParameterIsRefused(stage: String, parameters: [String: ParamValue], parameter: String) throws {
        let definition = try #require(FiltersStages.stages.first { $0.descriptor.name == stage })
        do {
            _ = try StageHarness(definition: definition).make(parameters)
            Issue.record("\(stage) \(parameters) was accepted")
        } catch let error as StageError {
            #expect(error.parameter == parameter, "\(error)")
            #expect(error.isUsageError, "\(error)")
        }
    }

    @Test func everyStageIsDescribed() {
        #expect(FiltersStages.stages.map(\.descriptor.name) == ["blur", "sharpen", "adjust", "flatten", "round"])
        for stage in FiltersStages.stages {
            #expect(stage.descriptor.effect == .pixels)
            #expect(stage.descriptor.parameters.allSatisfy { !$0.summary.isEmpty })
        }
    }
}
