/// A random generator for tests that must be repeatable: SplitMix64 (Steele, Lea and Flood, 2014)
/// from a seed, so a random case that fails is made again from the seed its message prints.
public struct SeededRandom: RandomNumberGenerator {
    public var state: UInt64

    public init(_ seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<n` (`n` > 0).
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
