/// Images for stage tests whose every pixel differs from its neighbours, so a row copied from the
/// wrong place, a byte read too early or a band moved by one shows in the result.
public enum TestImage {
    /// Premultiplied noise from a xorshift generator seeded with `seed`; alpha at least `minAlpha`.
    public static func noise(_ width: Int, _ height: Int, seed: UInt32 = 0x9E37_79B9, minAlpha: UInt8 = 0) -> Image {
        var state = seed == 0 ? 1 : seed
        return Image(width: width, height: height) { buffer in
            for i in Swift.stride(from: 0, to: buffer.count, by: 4) {
                state ^= state << 13; state ^= state >> 17; state ^= state << 5
                let alpha = max(minAlpha, UInt8(truncatingIfNeeded: state >> 24))
                buffer[i + 3] = alpha
                for c in 0..<3 { buffer[i + c] = UInt8(Int(UInt8(truncatingIfNeeded: state >> (8 * c))) * Int(alpha) / 255) }
            }
        }
    }
}
