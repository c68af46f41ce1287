import Foundation
import Testing
@testable import SumiText

/// Unicode's own line-breaking test data (`LineBreakTest.txt`, Debian `unicode-data`) run through
/// Sumi's breaker with the default options, which add no tailoring to ICU's UAX #14.
///
/// ICU tailors LB25 with the regular expression for numbers that UAX #14 gives as its example
/// (section 8.2, "Example 7"): a hyphen-minus, comma or full stop next to digits belongs to the number
/// ("-#", ",0", ".35" do not break where the simplified default rule would). Unicode 15.0's file has
/// 22 such cases; they are the only differences accepted, checked one by one.
@Suite struct LineBreakConformanceTests {
    static let path = "/usr/share/unicode/auxiliary/LineBreakTest.txt"

    /// One test line: the scalars and the offsets after which a break is allowed.
    struct Case {
        var line: Int
        var scalars: [UInt32]
        var breaks: [Int]
    }

    static func cases(_ text: String) -> [Case] {
        var result: [Case] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let body = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            var scalars: [UInt32] = [], breaks: [Int] = []
            for token in body.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
                switch token {
                case "÷": if !scalars.isEmpty { breaks.append(scalars.count) }
                case "×": break
                default: if let v = UInt32(token, radix: 16) { scalars.append(v) }
                }
            }
            if !scalars.isEmpty { result.append(Case(line: number + 1, scalars: scalars, breaks: breaks)) }
        }
        return result
    }

    @Test func unicodeVersionsMatch() throws {
        let text = try String(contentsOfFile: Self.path, encoding: .utf8)
        let header = text.split(separator: "\n").first.map(String.init) ?? ""
        // "# LineBreakTest-15.0.0.txt" against ICU's "15.0".
        #expect(header.contains("LineBreakTest-\(LineBreaker.unicodeVersion)."), "\(header) vs ICU \(LineBreaker.unicodeVersion)")
    }

    @Test func everyCaseOfLineBreakTest() throws {
        let text = try String(contentsOfFile: Self.path, encoding: .utf8)
        let cases = Self.cases(text)
        #expect(cases.count > 7000)
        let breaker = LineBreaker()
        var failures: [String] = []
        var numberTailorings = 0
        for c in cases {
            let got = try breaker.opportunities(c.scalars)
            if got != c.breaks {
                let differing = Set(got).symmetricDifference(c.breaks)
                if differing.allSatisfy({ Self.isNextToNumberPunctuation(c.scalars, offset: $0) }) {
                    numberTailorings += 1
                    continue
                }
                let hex = c.scalars.map { String($0, radix: 16, uppercase: true) }.joined(separator: " ")
                failures.append("line \(c.line): \(hex): expected \(c.breaks), got \(got)")
            }
        }
        let passed = cases.count - failures.count - numberTailorings
        print("LineBreakTest.txt (Unicode \(LineBreaker.unicodeVersion)): \(passed)/\(cases.count) cases pass, "
            + "\(numberTailorings) differ by ICU's number tailoring, \(failures.count) fail")
        for f in failures.prefix(20) { print("  \(f)") }
        #expect(failures.isEmpty, "\(failures.count) of \(cases.count) cases differ; first: \(failures.first ?? "")")
        #expect(numberTailorings <= 22, "more number tailorings than ICU 72 is known for: \(numberTailorings)")
        #expect(passed >= 7632)
    }

    /// Whether the break offset is just before or after a hyphen-minus, comma or full stop (with its
    /// combining marks), the characters ICU's number rule keeps with digits.
    static func isNextToNumberPunctuation(_ scalars: [UInt32], offset: Int) -> Bool {
        let punctuation: Set<UInt32> = [0x2D, 0x2C, 0x2E]
        var before = offset - 1
        while before > 0 && LineBreaker.isCombining(scalars[before]) { before -= 1 }
        return (before >= 0 && punctuation.contains(scalars[before]))
            || (offset < scalars.count && punctuation.contains(scalars[offset]))
    }
}
