import Testing
import SumiEngine
import SumiKit

@Suite struct JSONParserTests {
    @Test func parsesNestedValuesInOrder() throws {
        let v = try JSONParser.parse(#"{"b": [1, 2.5, -3e2], "a": {"x": true, "y": null}, "s": "é\n\u00e9\ud83d\ude00"}"#)
        #expect(v.objectValue?.map(\.0) == ["b", "a", "s"])
        #expect(v["b"] == .array([.number(1), .number(2.5), .number(-300)]))
        #expect(v["a"]?["x"] == .bool(true))
        #expect(v["s"] == .string("é\né😀"))
    }

    @Test(arguments: [
        ("{\"a\": 1,}", 1, 9, "expected a string key"),
        ("{\n  \"a\": 1\n  \"b\": 2\n}", 3, 3, "expected ',' or '}'"),
        ("[1, 2", 1, 6, "unexpected end of file"),
        ("{\"a\": 01}", 1, 7, "leading zero"),
        ("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate key"),
        ("\"abc", 1, 5, "unterminated string"),
        ("{} x", 1, 4, "unexpected text after"),
    ])
    func reportsLineAndColumn(text: String, line: Int, column: Int, message: String) {
        do {
            _ = try JSONParser.parse(text)
            Issue.record("no error for \(text)")
        } catch {
            #expect(error.line == line)
            #expect(error.column == column)
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    /// A long non-ASCII string (about 1 MB of Hindi, with escapes and four-byte scalars among it)
    /// comes back whole and unchanged: strings are gathered as UTF-8 bytes, not scalar by scalar.
    @Test func longNonASCIIStringsComeBackWhole() throws {
        let piece = "नमस्ते दुनिया 😀 «é» "
        let text = String(repeating: piece, count: 1_000_000 / piece.utf8.count + 1)
        let document = "{\"text\": \"" + text + "\\n\\u0915\\ud83d\\ude00\\\"\"}"
        let parsed = try JSONParser.parse(document)
        #expect(parsed["text"] == .string(text + "\nक😀\""))
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
        // Overlong, surrogate, cut short before the closing quote, past U+10FFFF, among valid text.
        for bad: [UInt8] in [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xE0, 0xA4], [0xF4, 0x90, 0x80, 0x80], [0xA4]] {
            #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xE0, 0xA4, 0xA8] + bad + [0x22]) }
        }
    }

    @Test func serialisesAndRoundTrips() throws {
        let v = JSONValue.object([("k", .array([.number(1000), .number(0.5), .string("q\"\\\u{1}")])), ("n", .null)])
        let text = v.serialized()
        #expect(text == #"{"k": [1000, 0.5, "q\"\\\u0001"], "n": null}"#)
        #expect(try JSONParser.parse(text) == v)
    }
}
