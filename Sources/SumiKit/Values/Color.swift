/// A straight (not premultiplied) 8-bit RGBA colour.
public struct Color: Sendable, Hashable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 255, green: 255, blue: 255)
    public static let transparent = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// The colour as premultiplied RGBA bytes, the layout of `Image` pixels.
    public var premultiplied: (UInt8, UInt8, UInt8, UInt8) {
        let a = UInt32(alpha)
        func mul(_ c: UInt8) -> UInt8 { UInt8((UInt32(c) * a + 127) / 255) }
        return (mul(red), mul(green), mul(blue), alpha)
    }

    public var description: String {
        func hex(_ v: UInt8) -> String { let s = String(v, radix: 16); return s.count == 1 ? "0" + s : s }
        return "#" + hex(red) + hex(green) + hex(blue) + (alpha == 255 ? "" : hex(alpha))
    }

    /// Parses `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, CSS colour names, `rgb(r,g,b)` and `rgba(r,g,b,a)`.
    public init?(parsing text: String) {
        let s = text.trimmingWhitespace().lowercased()
        if s.hasPrefix("#") {
            let hex = Array(s.dropFirst())
            guard hex.allSatisfy({ $0.isHexDigit }) else { return nil }
            func digit(_ c: Character) -> UInt8 { UInt8(c.hexDigitValue ?? 0) }
            switch hex.count {
            case 3, 4:
                let v = hex.map { digit($0) * 17 }
                self.init(red: v[0], green: v[1], blue: v[2], alpha: hex.count == 4 ? v[3] : 255)
            case 6, 8:
                let v = stride(from: 0, to: hex.count, by: 2).map { digit(hex[$0]) * 16 + digit(hex[$0 + 1]) }
                self.init(red: v[0], green: v[1], blue: v[2], alpha: hex.count == 8 ? v[3] : 255)
            default: return nil
            }
            return
        }
        if s.hasPrefix("rgb(") || s.hasPrefix("rgba("), s.hasSuffix(")") {
            let inner = s.drop(while: { $0 != "(" }).dropFirst().dropLast()
            let parts = inner.split(separator: ",").map { String($0).trimmingWhitespace() }
            guard parts.count == 3 || parts.count == 4 else { return nil }
            var channels: [UInt8] = []
            for part in parts.prefix(3) {
                if part.hasSuffix("%"), let p = Double(part.dropLast()), (0...100).contains(p) {
                    channels.append(UInt8((p * 255 / 100).rounded()))
                } else if let v = Double(part), (0...255).contains(v) {
                    channels.append(UInt8(v.rounded()))
                } else { return nil }
            }
            var alpha: UInt8 = 255
            if parts.count == 4 {
                let part = parts[3]
                if part.hasSuffix("%"), let p = Double(part.dropLast()), (0...100).contains(p) {
                    alpha = UInt8((p * 255 / 100).rounded())
                } else if let a = Double(part), (0...1).contains(a) {
                    alpha = UInt8((a * 255).rounded())
                } else { return nil }
            }
            self.init(red: channels[0], green: channels[1], blue: channels[2], alpha: alpha)
            return
        }
        guard let named = Color.cssNames[s] else { return nil }
        self = named
    }
}
