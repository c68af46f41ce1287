#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Spelling values the way PDF syntax needs them.
enum PDFSyntax {
    /// A real number without exponent, at most four decimals, no trailing zeros ("12", "0.5", "-3.25").
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let scaled = (abs(value) * 10_000).rounded()
        guard scaled < 9e17 else { return "0" }
        let units = Int64(scaled)
        let whole = units / 10_000
        var fraction = units % 10_000
        var text = (value < 0 && units != 0 ? "-" : "") + String(whole)
        if fraction != 0 {
            var digits = 4
            while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
            let f = String(fraction)
            text += "." + String(repeating: "0", count: digits - f.count) + f
        }
        return text
    }

    /// A text string: a literal string when it is plain ASCII, else UTF-16BE with a byte-order mark.
    static func textString(_ text: String) -> String {
        if text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) {
            var out = "("
            for ch in text.unicodeScalars {
                switch ch {
                case "(", ")", "\\": out += "\\" + String(ch)
                default: out.unicodeScalars.append(ch)
                }
            }
            return out + ")"
        }
        var hex = "<FEFF"
        for unit in text.utf16 { hex += hex4(unit) }
        return hex + ">"
    }

    /// The current UTC time as a PDF date, `D:YYYYMMDDHHmmSSZ`; `sourceDateEpoch` (seconds since
    /// 1970, the run's `SOURCE_DATE_EPOCH`) gives the time instead, so runs can make identical files.
    static func date(sourceDateEpoch: Int?) -> String {
        var now = sourceDateEpoch.map { time_t($0) } ?? time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "D:\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }

    /// A cross-reference entry: exactly 20 bytes.
    static func xrefEntry(offset: Int, generation: Int = 0, inUse: Bool = true) -> String {
        let o = String(offset), g = String(generation)
        return String(repeating: "0", count: max(0, 10 - o.count)) + o + " "
            + String(repeating: "0", count: max(0, 5 - g.count)) + g + (inUse ? " n" : " f") + " \n"
    }

    private static func hex4(_ unit: UInt16) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(unit >> 12)], digits[Int(unit >> 8 & 15)], digits[Int(unit >> 4 & 15)], digits[Int(unit & 15)]])
    }
}
