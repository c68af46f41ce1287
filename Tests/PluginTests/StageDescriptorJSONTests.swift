import SumiEngine
import SumiKit
import Testing

/// The descriptor JSON that crosses the C ABI keeps everything a `StageDescriptor` says.
@Suite struct StageDescriptorJSONTests {
    @Test func roundTripKeepsEveryField() throws {
        let descriptor = StageDescriptor(
            name: "sample", summary: "All kinds of parameters",
            inputs: [PortSpec(name: "base", accepts: .image), PortSpec(name: "layer", accepts: [.layer, .images])],
            output: .image,
            parameters: [
                ParameterSpec("size", .number, default: .number(17), min: 0, minExclusive: true, summary: "px"),
                ParameterSpec("count", .integer, min: 1, max: 9, safeMax: 5, summary: "n"),
                ParameterSpec("mode", .string, default: .string("over"), values: ["over", "add"], summary: "m"),
                ParameterSpec("color", .color, default: .color(Color(red: 255, green: 0, blue: 0)), summary: "c"),
                ParameterSpec("frame", .size, default: .size(Size(width: 390, height: 260)), summary: "f"),
                ParameterSpec("viewport", .either([.rect, .string]), summary: "v"),
                ParameterSpec("offsets", .list(.number), default: .list([.number(0), .number(2332)]), summary: "o"),
                ParameterSpec("path", .path(.writes), required: true, summary: "p"),
                ParameterSpec("paths", .paths(.reads), summary: "ps"),
                ParameterSpec("old", .either([.path(.undeclared), .string]), summary: "o"),
            ])
        let text = StageDescriptorJSON.encode(descriptor, origin: "/x/lib.so").serialized()
        #expect(text.hasPrefix(#"{"name": "sample", "summary": "All kinds of parameters", "origin": "/x/lib.so", "inputs": [{"name": "base", "type": "image"}"#))
        // Directions and safe limits are fields of their own: a host that predates them reads the types.
        #expect(text.contains(#"{"name": "path", "type": "path", "required": true, "default": null, "summary": "p", "min": null, "max": null, "values": null, "access": "writes"}"#))
        #expect(text.contains(#""name": "paths", "type": "paths""#) && text.contains(#""access": "reads""#))
        #expect(text.contains(#""safe-max": 5"#))
        let decoded = try StageDescriptorJSON.decode(text: text)
        #expect(decoded.name == "sample" && decoded.summary == descriptor.summary)
        #expect(decoded.inputs == descriptor.inputs && decoded.output == .image)
        #expect(decoded.parameters.count == descriptor.parameters.count)
        for (a, b) in zip(decoded.parameters, descriptor.parameters) {
            #expect(a.name == b.name && a.type == b.type && a.required == b.required)
            #expect(a.defaultValue == b.defaultValue, "\(a.name)")
            #expect(a.min == b.min && a.max == b.max && a.minExclusive == b.minExclusive && a.values == b.values)
            #expect(a.summary == b.summary && a.safeMax == b.safeMax)
        }
        #expect(decoded.parameter(named: "old")?.type.pathAccess == .undeclared)
    }

    @Test(arguments: [
        (#"[1]"#, "descriptor must be a JSON object, got an array"),
        (#"{"summary": "x", "output": "image"}"#, "descriptor: missing \"name\""),
        (#"{"name": "a", "output": "pdf"}"#, "stage \"a\": unknown output kind \"pdf\""),
        (#"{"name": "a", "output": "image", "inputs": [{"name": "in", "type": "photo"}]}"#,
         "stage \"a\" input \"in\": unknown value kind \"photo\""),
        (#"{"name": "a", "output": "image", "params": [{"name": "n", "type": "integer", "default": "many"}]}"#,
         "stage \"a\" parameter \"n\": default expected an integer, got \"many\""),
        (#"{"name": "a", "output": "image", "params": [{"name": "p", "type": "path", "access": "sideways"}]}"#,
         "stage \"a\" parameter \"p\": \"access\" must be \"reads\" or \"writes\", got \"sideways\""),
        (#"{"name": "a", "output": "image", "params": [{"name": "n", "type": "integer", "access": "reads"}]}"#,
         "stage \"a\" parameter \"n\": \"access\" is for a type that names files (path, paths), not integer"),
    ])
    func malformedDescriptorsSayWhatIsWrong(text: String, message: String) throws {
        let problem = try #require(throws: StageDescriptorJSON.Problem.self) { try StageDescriptorJSON.decode(text: text) }
        #expect(problem.message == message)
    }
}
