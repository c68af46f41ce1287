/// One blend mode's per-channel arithmetic on premultiplied bytes (the formulas are documented on
/// `BlendMode`): `s`, `sa` the source colour and alpha, `d`, `da` the destination's, all 0…255.
protocol PixelBlend {
    /// Whether an opaque source pixel simply replaces the destination.
    static var copiesOpaque: Bool { get }
    /// `255² · αs·αb·B(Cb, Cs)`: the mixed term of the separable compositing formula.
    static func mixed(_ s: Int, _ sa: Int, _ d: Int, _ da: Int) -> Int
    static func color(_ s: Int, _ sa: Int, _ d: Int, _ da: Int) -> Int
    static func alpha(_ sa: Int, _ da: Int) -> Int
}

extension PixelBlend {
    static var copiesOpaque: Bool { false }

    /// `co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B`, in bytes.
    @inline(__always)
    static func color(_ s: Int, _ sa: Int, _ d: Int, _ da: Int) -> Int {
        let sum = s * (255 - da) + d * (255 - sa) + mixed(s, sa, d, da)
        return sum <= 0 ? 0 : (sum + 127) / 255
    }

    /// Source-over: `αo = αs + αb·(1 − αs)`.
    @inline(__always)
    static func alpha(_ sa: Int, _ da: Int) -> Int { sa + (da * (255 - sa) + 127) / 255 }
}

enum Over: PixelBlend {
    static var copiesOpaque: Bool { true }
    @inline(__always) static func mixed(_ s: Int, _ sa: Int, _ d: Int, _ da: Int) -> Int { s * da }
    @inline(__always) static func color(_ s: Int, _ sa: Int, _ d: Int, _ da: Int) -> Int {
        s + (d * (255 - sa) + 127) / 255
    }
}

enum Multiply: PixelBlend {
    @inline(__always) static func mixed(_ s: Int, _ sa: Int, _ d: Int, _ da: Int) -> Int { s * d }
}

enum Screen: PixelBlend {
    @inline(__always) static func mixed(_ s: Int, _ sa: Int, _ d: Int, _ da: Int) -> Int { s * da + d * sa - s * d }
}

enum Overlay: PixelBlend {
    @inline(__always) static func mixed(_ s: Int, _ sa: Int, _ d: Int, _ da: Int) -> Int {
        2 * d <= da ? 2 * s * d : sa * da - 2 * (da - d) * (sa - s)
    }
}

enum Darken: PixelBlend {
    @inline(__always) static func mixed(_ s: Int, _ sa: Int, _ d: Int, _ da: Int) -> Int { min(s * da, d * sa) }
}

enum Lighten: PixelBlend {
    @inline(__always) static func mixed(_ s: Int, _ sa: Int, _ d: Int, _ da: Int) -> Int { max(s * da, d * sa) }
}

/// Porter-Duff plus: the sums of colour and alpha, saturated.
enum Add: PixelBlend {
    @inline(__always) static func mixed(_ s: Int, _ sa: Int, _ d: Int, _ da: Int) -> Int { s * da + d * sa }
    @inline(__always) static func color(_ s: Int, _ sa: Int, _ d: Int, _ da: Int) -> Int { min(255, s + d) }
    @inline(__always) static func alpha(_ sa: Int, _ da: Int) -> Int { min(255, sa + da) }
}
