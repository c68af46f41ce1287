/// The colour range of an AV1 sequence header (AV1 spec 5.5), read from the OBUs of an `av1C`
/// property. libheif 1.15 hands an AVIF alpha plane on as coded, so an alpha image coded in
/// limited range (16…235) must be expanded by Sumi, as libavif does.
struct AV1SequenceHeader {
    /// Whether samples use the full range (`color_range` 1).
    let fullRange: Bool
    /// Where `color_range` lies in the bytes given: byte index and bit (7 = most significant).
    let colorRangeBit: (byte: Int, bit: Int)

    /// The first sequence header among `obus` (an `av1C` property's config OBUs); nil when there
    /// is none or it is truncated.
    init?(obus: [UInt8]) {
        var at = 0
        while at < obus.count {
            let header = Int(obus[at])
            let type = header >> 3 & 15, hasExtension = header & 4 != 0, hasSize = header & 2 != 0
            at += hasExtension ? 2 : 1
            var size = obus.count - at
            if hasSize {
                size = 0
                var shift = 0
                while true {
                    guard at < obus.count, shift < 56 else { return nil }
                    size |= Int(obus[at] & 0x7F) << shift
                    at += 1
                    if obus[at - 1] & 0x80 == 0 { break }
                    shift += 7
                }
            }
            guard size >= 0, size <= obus.count - at else { return nil }
            if type == 1 {
                guard let found = Self.colorRange(obus, from: at, to: at + size) else { return nil }
                (fullRange, colorRangeBit) = found
                return
            }
            at += size
        }
        return nil
    }

    /// Reads fields up to `color_range`.
    private static func colorRange(_ bytes: [UInt8], from start: Int, to end: Int) -> (Bool, (byte: Int, bit: Int))? {
        var bit = start * 8
        func f(_ n: Int) -> Int? {
            guard n >= 0, bit + n <= end * 8 else { return nil }
            var value = 0
            for _ in 0..<n {
                value = value << 1 | Int(bytes[bit >> 3] >> (7 - bit & 7) & 1)
                bit += 1
            }
            return value
        }
        guard let profile = f(3), f(1) != nil, let reduced = f(1) else { return nil }
        if reduced == 1 {
            guard f(5) != nil else { return nil }
        } else {
            guard let timing = f(1) else { return nil }
            var decoderModel = 0, bufferDelayLength = 0
            if timing == 1 {
                guard f(32) != nil, f(32) != nil, let equal = f(1) else { return nil }
                if equal == 1 {
                    var zeros = 0
                    while true {
                        guard let one = f(1) else { return nil }
                        if one == 1 { break }
                        zeros += 1
                    }
                    guard zeros < 32, f(zeros) != nil else { return nil }
                }
                guard let present = f(1) else { return nil }
                decoderModel = present
                if present == 1 {
                    guard let length = f(5), f(32) != nil, f(5) != nil, f(5) != nil else { return nil }
                    bufferDelayLength = length + 1
                }
            }
            guard let displayDelay = f(1), let points = f(5) else { return nil }
            for _ in 0...points {
                guard f(12) != nil, let level = f(5) else { return nil }
                if level > 7 { guard f(1) != nil else { return nil } }
                if decoderModel == 1 {
                    guard let present = f(1) else { return nil }
                    if present == 1 { guard f(bufferDelayLength) != nil, f(bufferDelayLength) != nil, f(1) != nil else { return nil } }
                }
                if displayDelay == 1 {
                    guard let present = f(1) else { return nil }
                    if present == 1 { guard f(4) != nil else { return nil } }
                }
            }
        }
        guard let widthBits = f(4), let heightBits = f(4), f(widthBits + 1) != nil, f(heightBits + 1) != nil else { return nil }
        if reduced == 0 {
            guard let frameIDs = f(1) else { return nil }
            if frameIDs == 1 { guard f(4) != nil, f(3) != nil else { return nil } }
        }
        guard f(3) != nil else { return nil }  // 128×128 superblocks, filter intra, intra edge filter
        if reduced == 0 {
            guard f(4) != nil, let orderHint = f(1) else { return nil }
            if orderHint == 1 { guard f(2) != nil else { return nil } }
            guard let choose = f(1) else { return nil }
            var screenContent = 2
            if choose == 0 { guard let force = f(1) else { return nil }; screenContent = force }
            if screenContent > 0 {
                guard let chooseMV = f(1) else { return nil }
                if chooseMV == 0 { guard f(1) != nil else { return nil } }
            }
            if orderHint == 1 { guard f(3) != nil else { return nil } }
        }
        guard f(3) != nil else { return nil }  // superres, CDEF, restoration
        guard let highBitDepth = f(1) else { return nil }
        if profile == 2 && highBitDepth == 1 { guard f(1) != nil else { return nil } }
        let monochrome = profile == 1 ? 0 : f(1)
        guard let monochrome, let described = f(1) else { return nil }
        var primaries = 2, transfer = 2, matrix = 2
        if described == 1 {
            guard let p = f(8), let t = f(8), let m = f(8) else { return nil }
            (primaries, transfer, matrix) = (p, t, m)
        }
        if monochrome == 0 && primaries == 1 && transfer == 13 && matrix == 0 { return nil }  // sRGB: full range, no field
        let position = (byte: bit >> 3, bit: 7 - bit & 7)
        guard let range = f(1) else { return nil }
        return (range == 1, position)
    }
}
