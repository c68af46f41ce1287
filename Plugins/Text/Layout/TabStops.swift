/// Tab stops (`tab-size`, as Pango sets them): a tab moves the pen to the next stop at least a
/// space past it, stops standing every `width` layout units from the line's start edge (the right
/// edge in a right-to-left paragraph, the top in a vertical column).
struct TabStops: Sendable {
    /// The distance between stops in layout units: `tab-size` spaces of the primary font. At 0 a tab
    /// takes no room.
    var width: Double
    /// The least room a tab takes (one space), so text after a tab never touches the text before it.
    var minimumGap: Double

    /// The pen position after a tab that starts `x` from the line's start edge.
    func next(after x: Double) -> Double {
        guard width > 0 else { return x }
        let stop = ((x + minimumGap - 1e-9) / width).rounded(.up) * width
        return max(stop, width)
    }

    /// A paragraph's characters with each tab standing as a space (so it is given a font and shaped
    /// as one), and which of them were tabs.
    static func untabbed(_ characters: [Character]) -> (characters: [Character], isTab: [Bool]) {
        let isTab = characters.map { $0 == "\t" }
        guard isTab.contains(true) else { return (characters, isTab) }
        return (characters.map { $0 == "\t" ? " " : $0 }, isTab)
    }
}
