/// Little-endian blue-green-red pixels as TGA and the BMP inside an ICO store them: 15/16-bit
/// 5-5-5 (the top bit alpha), 24-bit BGR, 32-bit BGRA.
enum StoredBGR {
    /// One stored value as straight RGBA, red in the low byte. 15 and 16-bit values are
    /// 5-5-5 with the top bit as alpha; 5-bit channels widen to 8 as (v << 3) | (v >> 2), so 31 is 255.
    static func rgba(_ bytes: [UInt8], at i: Int, bits: Int, alpha: Bool) -> UInt32 {
        switch bits {
        case 15, 16:
            let v = UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8
            func widen(_ c: UInt32) -> UInt32 { (c << 3) | (c >> 2) }
            let a: UInt32 = !alpha || v & 0x8000 != 0 ? 255 : 0
            return widen((v >> 10) & 31) | widen((v >> 5) & 31) << 8 | widen(v & 31) << 16 | a << 24
        case 24:
            return UInt32(bytes[i + 2]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i]) << 16 | 0xFF00_0000
        default:
            return UInt32(bytes[i + 2]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i]) << 16 | (alpha ? UInt32(bytes[i + 3]) : 255) << 24
        }
    }
}
