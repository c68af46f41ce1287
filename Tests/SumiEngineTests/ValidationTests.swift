import Testing
import SumiEngine
import SumiKit

/// Every validation error names its place: file, stage, parameter, what was expected and found.
@Suite struct ValidationTests {
    let chain = """
    {"sumi": 1, "name": "t",
     "params": {"size": {"type": "size", "default": "8x6"}, "out": {"type": "path", "default": "o.raw"}},
     "stages": [
       {"id": "a", "stage": "solid", "with": {"size": "${size}", "color": "#ff0000"}},
       {"id": "b", "stage": "invert"},
       {"stage": "sink", "with": {"path": "${out}"}}
     ]}
    """

    @Test func validChainBuilds() throws {
        let p = try build(chain)
        #expect(p.nodes.count == 3)
        #expect(p.order == [0, 1, 2])
        #expect(p.nodes[2].inputs.first?.sources == [1])
    }

    @Test func overridesReplaceDefaults() throws {
        let p = try build(chain, overrides: ["size": .size(Size(width: 2, height: 2))])
        #expect(p.values["size"] == .size(Size(width: 2, height: 2)))
    }

    @Test(arguments: [
        (#"{"sumi": 1, "stages": [], "extra": 1}"#, #"test.json: unknown key "extra""#),
        (#"{"sumi": 2, "stages": [{"stage": "solid"}]}"#, "unsupported manifest format version 2"),
        (#"{"stages": [{"stage": "solid"}]}"#, #"missing "sumi""#),
        (#"{"sumi": 1, "stages": []}"#, #""stages" is empty"#),
        (#"{"sumi": 1, "stages": [{"stage": "solid", "wiht": {}}]}"#, #"stages[0] (solid): unknown key "wiht""#),
        (#"{"sumi": 1, "stages": [{"stage": "sold"}]}"#, #"stages[0] (sold): unknown stage "sold" (did you mean "solid"?)"#),
        // The one "did you mean" rule: case is ignored, and a unique prefix is suggested.
        (#"{"sumi": 1, "stages": [{"stage": "SOLID"}]}"#, #"unknown stage "SOLID" (did you mean "solid"?)"#),
        (#"{"sumi": 1, "stages": [{"stage": "inv"}]}"#, #"unknown stage "inv" (did you mean "invert"?)"#),
        (#"{"sumi": 1, "stages": [{"stage": "solid", "with": {"size": "big"}}]}"#,
         #"stages[0] (solid): parameter "size": expected a size ("WxH" or [W, H]), got "big""#),
        (#"{"sumi": 1, "stages": [{"stage": "solid", "with": {"colour": "red"}}]}"#, #"parameter "colour": unknown parameter"#),
        (#"{"sumi": 1, "stages": [{"stage": "solid"}, {"stage": "invert", "with": {"amount": -3}}]}"#,
         #"stages[1] (invert): parameter "amount": expected a number from 0 to 1, got -3"#),
        (#"{"sumi": 1, "stages": [{"stage": "solid"}, {"stage": "sink"}]}"#, #"parameter "path": required parameter is missing"#),
        (#"{"sumi": 1, "stages": [{"stage": "solid", "with": {"size": "${nope}"}}]}"#,
         #"parameter "size": reference to undeclared parameter ${nope}"#),
        (#"{"sumi": 1, "stages": [{"id": "x", "stage": "solid"}, {"id": "x", "stage": "solid"}]}"#,
         #"stages[1] "x" (solid): duplicate id "x""#),
        (#"{"sumi": 1, "stages": [{"stage": "solid"}, {"stage": "invert", "from": "ghost"}]}"#,
         #""from" names "ghost", but no stage has that id"#),
        (#"{"sumi": 1, "stages": [{"stage": "invert"}]}"#, "the first stage has no previous stage"),
        (#"{"sumi": 1, "stages": [{"id": "s", "stage": "solid"}, {"stage": "sink", "with": {"path": "o"}}, {"stage": "invert"}]}"#,
         #"stages[2] (invert): port "in" accepts image, but stages[1] (sink) produces file"#),
        (#"{"sumi": 1, "stages": [{"id": "a", "stage": "invert", "from": "b"}, {"id": "b", "stage": "invert", "from": "a"}]}"#,
         "the stage graph has a cycle"),
        (#"{"sumi": 1, "stages": [{"id": "s", "stage": "solid"}, {"stage": "pair", "from": {"base": "s"}}]}"#,
         #"input port "layer" is not connected"#),
        (#"{"sumi": 1, "stages": [{"id": "s", "stage": "solid"}, {"stage": "pair"}]}"#,
         "give \"from\" as an object of port"),
        (#"{"sumi": 1, "stages": [{"id": "s", "stage": "solid"}, {"stage": "pair", "from": {"base": "s", "top": "s"}}]}"#,
         #""from" names port "top""#),
        (#"{"sumi": 1, "params": {"n": {"type": "matrix"}}, "stages": [{"stage": "solid"}]}"#, #"params.n: unknown type "matrix""#),
        (#"{"sumi": 1, "params": {"n": {"type": "size", "default": "x"}}, "stages": [{"stage": "solid"}]}"#,
         #"params.n: default: expected a size"#),
        (#"{"sumi": 1, "params": {"n": {"type": "size"}}, "stages": [{"stage": "solid"}]}"#, #"parameter "n" is required"#),
        (#"{"sumi": 1, "stages": [{"stage": "solid"}], }"#, "invalid JSON at line 1, column 45"),
        (#"{"sumi": 1, "stages": [{"id": "s", "stage": "solid"}, {"stage": "solid", "from": "ghost"}]}"#,
         #"stages[1] (solid): "from" given, but the stage has no input ports"#),
        (#"{"sumi": 1, "params": {"n": {"type": "size|"}}, "stages": [{"stage": "solid"}]}"#, #"params.n: unknown type "size|""#),
    ])
    func errorsNameThePlace(manifest: String, expected: String) {
        let message = errorMessage { _ = try build(manifest) }
        #expect(message?.contains(expected) == true, "got: \(message ?? "no error")")
    }

    @Test func substitutionHasAByteBudget() {
        // 20 references to a 1 MiB value: 20 MiB, over the 16 MiB a stage parameter may receive.
        let manifest = #"{"sumi": 1, "params": {"s": {"type": "string", "default": "x"}}, "stages": [{"stage": "solid", "with": {"color": "\#(String(repeating: "${s}", count: 20))"}}]}"#
        let message = errorMessage { _ = try build(manifest, overrides: ["s": .string(String(repeating: "x", count: 1 << 20))]) }
        #expect(message == #"test.json: stages[0] (solid): parameter "color": its ${} references would substitute more than 16777216 bytes"#)
        let fits = errorMessage { _ = try build(manifest, overrides: ["s": .string(String(repeating: "x", count: 1 << 10))]) }
        #expect(fits?.contains("budget") != true && fits?.contains("would substitute") != true)
    }

    @Test func validationErrorsAreUsageErrors() {
        let error = #expect(throws: SumiError.self) {
            _ = try build(#"{"sumi": 1, "stages": [{"stage": "sold"}]}"#)
        }
        #expect(error?.exitCode == 2)
        #expect(error?.file == "test.json")
    }

    /// What a stage produces follows its parameters: a list cannot reach a port that takes one image.
    @Test func aListIntoAnImagePortIsRefusedNamingBothStages() throws {
        let error = #expect(throws: SumiError.self) {
            _ = try build(#"{"sumi": 1, "stages": [{"id": "shots", "stage": "solids", "with": {"sizes": ["2x2", "3x3"]}}, {"stage": "invert"}]}"#)
        }
        #expect(error?.exitCode == 2)
        #expect(error?.description == #"test.json: stages[1] (invert): port "in" accepts image, but stages[0] "shots" (solids) produces images (a list, because its "sizes" is a list)"#)
        // One size: an image, which the same port takes; a list still feeds a port that takes images.
        _ = try build(#"{"sumi": 1, "stages": [{"stage": "solids", "with": {"sizes": "2x2"}}, {"stage": "invert"}]}"#)
        let p = try build(#"{"sumi": 1, "stages": [{"stage": "solids", "with": {"sizes": ["2x2", "3x3"]}}, {"stage": "count"}]}"#)
        #expect(try Runner(pipeline: p).run().outputs.first?.file.bytes == 2)
    }

    @Test func listsFeedAnImagesPort() throws {
        let p = try build(#"{"sumi": 1, "stages": [{"id": "a", "stage": "solid"}, {"id": "b", "stage": "solid"}, {"stage": "count", "from": ["a", "b"]}]}"#)
        #expect(p.nodes[2].inputs.first?.sources == [0, 1])
        let result = try Runner(pipeline: p).run()
        #expect(result.outputs.first?.file.bytes == 2)
    }

    @Test func interpolatesInsideStrings() throws {
        let p = try build(#"{"sumi": 1, "params": {"n": {"type": "string", "default": "x"}}, "stages": [{"stage": "solid"}, {"stage": "sink", "with": {"path": "${here}/out-${n}.raw"}}]}"#)
        #expect(p.nodes[1].entry.with.first?.1 == .string("${here}/out-${n}.raw"))
        let result = try Runner(pipeline: p).run()
        #expect(result.outputs.first?.file.path == "/manifests/out-x.raw") // the sink writes nothing
    }
}
