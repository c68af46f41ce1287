import Synchronization

/// The fonts a text draws with, in order of preference, and the choice of font for each grapheme
/// cluster: the first font that has every character of the cluster (a base and its marks stay
/// together), colour emoji fonts first for clusters with emoji presentation. Choices are cached.
final class FallbackChain: Sendable {
    /// The requested fonts first, then fontconfig's fallbacks.
    let fonts: [FontCoverage]
    /// Colour fonts for emoji.
    let emojiFonts: [FontCoverage]
    private let cache = Mutex<[String: Int]>([:])

    init(fonts: [FontCoverage], emojiFonts: [FontCoverage]) {
        self.fonts = fonts
        self.emojiFonts = emojiFonts
    }

    /// All fonts by the index `font(for:)` returns: `fonts` then `emojiFonts`.
    func coverage(at index: Int) -> FontCoverage {
        index < fonts.count ? fonts[index] : emojiFonts[index - fonts.count]
    }

    var primary: FontCoverage? { fonts.first ?? emojiFonts.first }

    /// The index of the font for one grapheme cluster.
    func font(for cluster: Character) -> Int {
        let key = String(cluster)
        if let hit = cache.withLock({ $0[key] }) { return hit }
        let choice = choose(cluster)
        cache.withLock { table in
            if table.count > 50_000 { table.removeAll() }
            table[key] = choice
        }
        return choice
    }

    /// Whether font `index` has every character of `cluster` that needs a glyph.
    func covers(_ index: Int, _ cluster: Character) -> Bool {
        let font = coverage(at: index)
        return cluster.unicodeScalars.allSatisfy { Self.isIgnorable($0.value) || font.covers($0.value) }
    }

    private func choose(_ cluster: Character) -> Int {
        let required = cluster.unicodeScalars.map(\.value).filter { !Self.isIgnorable($0) }
        guard let base = required.first else { return 0 }
        let emojiOffset = fonts.count
        if EmojiPresentation.isEmoji(cluster) {
            if let i = emojiFonts.firstIndex(where: { f in required.allSatisfy(f.covers) }) { return emojiOffset + i }
            if let i = emojiFonts.firstIndex(where: { $0.covers(base) }) { return emojiOffset + i }
        }
        if let i = fonts.firstIndex(where: { f in required.allSatisfy(f.covers) }) { return i }
        if let i = fonts.firstIndex(where: { $0.covers(base) }) { return i }
        if let i = emojiFonts.firstIndex(where: { $0.covers(base) }) { return emojiOffset + i }
        return 0
    }

    /// Characters that never need a glyph of their own (joiners, selectors, tags, bidi controls).
    static func isIgnorable(_ v: UInt32) -> Bool {
        switch v {
        case 0x00AD, 0x034F, 0x061C, 0x180B...0x180F, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x206F,
             0xFE00...0xFE0F, 0xFEFF, 0xE0000...0xE0FFF:
            return true
        default:
            return false
        }
    }
}
