import Testing
import SumiEngine
import SumiKit

@Suite struct ParamParsingTests {
    @Test func colours() throws {
        #expect(Color(parsing: "#f00") == Color(red: 255, green: 0, blue: 0))
        #expect(Color(parsing: "#FF000080") == Color(red: 255, green: 0, blue: 0, alpha: 128))
        #expect(Color(parsing: "rebeccapurple") == Color(red: 0x66, green: 0x33, blue: 0x99))
        #expect(Color(parsing: "rgba(10, 20, 30, 0.5)") == Color(red: 10, green: 20, blue: 30, alpha: 128))
        #expect(Color(parsing: "rgb(100%, 0%, 50%)") == Color(red: 255, green: 0, blue: 128))
        #expect(Color(parsing: "#ggg") == nil)
        #expect(Color(parsing: "rgb(300,0,0)") == nil)
        #expect(Color(parsing: "blurple") == nil)
    }

    @Test func geometryFromTextAndArrays() throws {
        #expect(try ParamType.size.parse(text: "390x260") == .size(Size(width: 390, height: 260)))
        #expect(try ParamType.size.parse(.array([.number(3), .number(4)])) == .size(Size(width: 3, height: 4)))
        #expect(try ParamType.point.parse(text: "40,-30") == .point(Point(x: 40, y: -30)))
        #expect(try ParamType.rect.parse(text: "0, 1000, 390, 844") == .rect(Rect(x: 0, y: 1000, width: 390, height: 844)))
        #expect(throws: ParamTypeMismatch.self) { try ParamType.size.parse(text: "390by260") }
        #expect(throws: ParamTypeMismatch.self) { try ParamType.rect.parse(text: "1,2,3") }
        #expect(throws: ParamTypeMismatch.self) { try ParamType.size.parse(text: "-1x5") }
    }

    @Test func numbersAndIntegers() throws {
        #expect(try ParamType.integer.parse(.number(512)) == .integer(512))
        #expect(throws: ParamTypeMismatch.self) { try ParamType.integer.parse(.number(1.5)) }
        #expect(try ParamType.number.parse(text: "2.5") == .number(2.5))
        #expect(throws: ParamTypeMismatch.self) { try ParamType.number.parse(text: "nan") }
        #expect(try ParamType.bool.parse(text: "yes") == .bool(true))
    }

    @Test func listsAndAlternatives() throws {
        #expect(try ParamType.list(.number).parse(text: "0,2332,4664") == .list([.number(0), .number(2332), .number(4664)]))
        #expect(try ParamType.paths.parse(.string("a.png")) == .list([.path("a.png")]))
        let viewport = ParamType.either([.rect, .string])
        #expect(try viewport.parse(.string("capture:2")) == .string("capture:2"))
        #expect(try viewport.parse(.string("0,0,10,10")) == .rect(Rect(x: 0, y: 0, width: 10, height: 10)))
        #expect(ParamType(name: "rect|string") == viewport)
        #expect(ParamType(name: "list<size>") == .list(.size))
        #expect(ParamType(name: "paths") == .paths)
        #expect(ParamType(name: "matrix") == nil)
        // An empty alternative is no type (it used to make an `either` of nothing).
        for name in ["|", "string|", "|number", "rect||string"] {
            #expect(ParamType(name: name) == nil, "\(name)")
        }
    }

    @Test func checkerFillsDefaultsAndChecksRanges() throws {
        let checker = ParameterChecker(InvertStage.descriptor)
        let p = try checker.check([(String, JSONValue)]())
        #expect(p.number("amount") == 1)
        #expect(!p.isGiven("amount"))
        do {
            _ = try checker.check([("amount", .number(2))])
            Issue.record("no error")
        } catch {
            #expect(error.parameter == "amount")
            #expect(error.message == "expected a number from 0 to 1, got 2")
        }
        do {
            _ = try checker.check([("amout", .number(1))])
            Issue.record("no error")
        } catch {
            #expect(error.message.contains("unknown parameter"))
        }
    }
}
