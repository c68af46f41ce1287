/// One colour channel of a BMP pixel word (a bitfield mask): where its bits are and how they widen
/// to 8 bits (v × 255 / max, truncated, as Pillow's 5-5-5 and 5-6-5 unpackers do).
struct BMPChannelMask {
    let mask: UInt32
    let shift: UInt32
    let most: UInt64

    init(_ mask: UInt32) {
        self.mask = mask
        shift = mask == 0 ? 0 : UInt32(mask.trailingZeroBitCount)
        most = UInt64(mask >> shift)
    }

    /// The channel's value at 8 bits in `word`, or `absent` when the mask is empty.
    func value(_ word: UInt32, absent: UInt32) -> UInt32 {
        most == 0 ? absent : UInt32(UInt64((word & mask) >> shift) * 255 / most)
    }
}
