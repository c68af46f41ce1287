/// Which Debian package has a font for a character no installed font has: the advice the missing-glyph
/// warning ends with. The table names Debian 12 packages (installed sizes as `apt-cache show` gives
/// them); a character outside it gets no advice.
enum FontPackages {
    /// A script's characters and the package that draws them.
    struct Entry: Sendable {
        let ranges: [ClosedRange<UInt32>]
        let script: String
        /// Packages that have a font for it, the smaller first.
        let packages: [String]
    }

    /// Installed sizes on Debian 12, as `apt show` prints them (rounded to whole MB).
    static let installedSize: [String: String] = [
        "fonts-ipafont-gothic": "12 MB", "fonts-nanum": "33 MB", "fonts-noto-cjk": "91 MB",
        "fonts-noto-color-emoji": "11 MB", "fonts-dejavu-core": "3 MB", "fonts-noto-core": "43 MB",
    ]

    /// First match wins: kana before the ideographs, emoji before the symbols.
    static let table: [Entry] = [
        Entry(ranges: [0x3040...0x30FF, 0x31F0...0x31FF, 0xFF65...0xFF9F], script: "Japanese kana",
              packages: ["fonts-ipafont-gothic", "fonts-noto-cjk"]),
        Entry(ranges: [0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7FF], script: "Hangul",
              packages: ["fonts-nanum", "fonts-noto-cjk"]),
        Entry(ranges: [0x3000...0x303F, 0x4E00...0x9FFF, 0xFF00...0xFF64],
              script: "Chinese characters", packages: ["fonts-ipafont-gothic", "fonts-noto-cjk"]),
        // Rarer ideographs and CJK symbols: beyond the Japanese font's repertoire.
        Entry(ranges: [0x2E80...0x2FDF, 0x3190...0x31EF, 0x3200...0x33FF, 0x3400...0x4DBF, 0xF900...0xFAFF, 0xFE30...0xFE4F,
                       0x20000...0x3134F],
              script: "rarer Chinese characters", packages: ["fonts-noto-cjk"]),
        Entry(ranges: [0x1F000...0x1FAFF, 0x2600...0x27BF, 0xFE0F...0xFE0F, 0x1F1E6...0x1F1FF], script: "emoji",
              packages: ["fonts-noto-color-emoji"]),
        Entry(ranges: [0x0000...0x036F, 0x1E00...0x1EFF, 0x2000...0x206F, 0x20A0...0x20CF], script: "Latin",
              packages: ["fonts-dejavu-core"]),
        Entry(ranges: [0x0370...0x1DFF, 0x1F00...0x1FFF, 0x2070...0x209F, 0x20D0...0x2BFF, 0x2C00...0x2E7F,
                       0xA000...0xABFF, 0x10000...0x1EFFF],
              script: "other scripts and symbols", packages: ["fonts-noto-core"]),
    ]

    /// The package for one character, if the table has one.
    static func entry(for character: UInt32) -> Entry? {
        table.first { $0.ranges.contains { $0.contains(character) } }
    }

    /// `; a Debian package with a font for them: fonts-nanum (33 MB) or fonts-noto-cjk (91 MB) for
    /// Hangul`, each script once, or nothing when no character is in the table.
    static func advice(for characters: [UInt32]) -> String {
        var seen: [String] = []
        var parts: [String] = []
        for entry in characters.compactMap(entry(for:)) where !seen.contains(entry.script) {
            seen.append(entry.script)
            let names = entry.packages.map { $0 + (installedSize[$0].map { " (\($0))" } ?? "") }
            parts.append(names.joined(separator: " or ") + " for \(entry.script)")
        }
        guard !parts.isEmpty else { return "" }
        return "; a Debian package with a font for them: " + parts.joined(separator: "; ")
    }
}
