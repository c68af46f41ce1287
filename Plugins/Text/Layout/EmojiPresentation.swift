/// Whether a grapheme cluster is to be drawn as a colour emoji (UTS #51 presentation).
enum EmojiPresentation {
    static func isEmoji(_ cluster: Character) -> Bool {
        let scalars = cluster.unicodeScalars
        guard let first = scalars.first else { return false }
        var sawEmoji = false
        for s in scalars {
            switch s.value {
            case 0xFE0E: return false                 // text presentation selector
            case 0xFE0F, 0x20E3: return true          // emoji presentation selector, keycap
            case 0x1F3FB...0x1F3FF: return true       // skin tone modifiers
            case 0x1F1E6...0x1F1FF: return true       // regional indicators (flags)
            case 0xE0020...0xE007F: return true       // tag sequences (subdivision flags)
            case 0x200D where sawEmoji: return true   // ZWJ sequence
            default: break
            }
            if s.properties.isEmoji { sawEmoji = true }
        }
        return first.properties.isEmojiPresentation
    }
}
