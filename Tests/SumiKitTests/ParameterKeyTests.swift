import Testing
import SumiKit

/// Parameters declared once as typed keys: the descriptor and the stage's reads share one declaration.
@Suite struct ParameterKeyTests {
    enum Fit: String, ParameterChoice { case contain, cover, fill }

    static let width = Parameter<Int?>("width", min: 1, max: 100, summary: "width")
    static let fit = Parameter<Fit>("fit", default: .cover, summary: "fit")
    static let header = Parameter<AutoOr<Int>>("header", default: .auto, min: 0, max: 1000, summary: "rows")
    static let path = Parameter<String>(required: "path", type: .path(.writes), summary: "file")
    static let viewport = Parameter<String?>("viewport", type: .either([.rect, .tagged("capture:", .integer)]), summary: "where")
    static let descriptor = StageDescriptor(name: "keys", summary: "", output: .image,
                                            parameters: [width.spec, fit.spec, header.spec, path.spec, viewport.spec])

    func check(_ values: [String: ParamValue]) throws(ParameterChecker.Problem) -> Parameters {
        try ParameterChecker(Self.descriptor).check(values)
    }

    @Test func theDeclarationDrivesTheDescriptor() {
        #expect(Self.fit.spec.values == ["contain", "cover", "fill"])
        #expect(Self.fit.spec.defaultValue == .string("cover"))
        #expect(Self.width.spec.defaultValue == nil && !Self.width.spec.required)
        #expect(Self.path.spec.required && Self.path.spec.type == .path(.writes))
        #expect(Self.header.spec.type.description == #""auto"|integer"#)
        #expect(Self.viewport.spec.type.description == #"rect|"capture:"integer"#)
    }

    @Test func readsAreTypedWithDefaults() throws {
        let p = try check(["path": .path("a.png")])
        #expect(try p[Self.width] == nil)
        #expect(try p[Self.fit] == .cover)
        #expect(try p[Self.header] == .auto)
        #expect(try p[Self.path] == "a.png")
        let q = try check(["path": .path("a.png"), "width": .integer(7), "fit": .string("fill"), "header": .integer(12)])
        #expect(try q[Self.width] == 7)
        #expect(try q[Self.fit] == .fill)
        #expect(try q[Self.header] == .value(12))
    }

    @Test func keywordsAndRangesAreCheckedAtValidation() throws {
        #expect(throws: ParameterChecker.Problem.self) { _ = try check(["path": .path("a"), "header": .string("automatic")]) }
        #expect(throws: ParameterChecker.Problem.self) { _ = try check(["path": .path("a"), "header": .integer(9_223_372_036_854_775_807)]) }
        #expect(throws: ParameterChecker.Problem.self) { _ = try check(["path": .path("a"), "fit": .string("stretch")]) }
        #expect(throws: ParameterChecker.Problem.self) { _ = try check([:]) }
        let tagged = try check(["path": .path("a"), "viewport": .string("capture: 2")])
        #expect(try tagged[Self.viewport] == "capture:2")
        #expect(throws: ParameterChecker.Problem.self) { _ = try check(["path": .path("a"), "viewport": .string("capture:two")]) }
        let rect = try check(["path": .path("a"), "viewport": .string("0,0,10,20")])
        #expect(rect["viewport"] == .rect(Rect(x: 0, y: 0, width: 10, height: 20)))
    }

    @Test func typeNamesRoundTrip() {
        for name in [#""auto"|integer"#, #"rect|"capture:"integer"#, #""auto"|list<number>"#] {
            #expect(ParamType(name: name)?.description == name)
        }
        #expect(ParamType(name: #""unclosed|integer"#) == nil)
    }
}
