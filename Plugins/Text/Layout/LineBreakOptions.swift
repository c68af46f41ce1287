import SumiKit

/// The CSS line-breaking controls of the `text` stage.
struct LineBreakOptions: Sendable, Hashable {
    /// `line-break`: how strictly Japanese and Chinese line-start and line-end rules (kinsoku) apply.
    enum Strictness: String, Sendable, CaseIterable, ParameterChoice {
        /// ICU's default for the language.
        case auto
        /// Also breaks before iteration marks, small kana and the long-vowel mark, and around hyphens.
        case loose
        /// Breaks before small kana and the long-vowel mark (CSS `normal`).
        case normal
        /// JLREQ kinsoku: never before small kana, the long-vowel mark or sentence punctuation.
        case strict
        /// A break between any two grapheme clusters.
        case anywhere
    }

    /// `word-break`.
    enum WordBreak: String, Sendable, CaseIterable, ParameterChoice {
        case normal
        /// No breaks inside words of ideographs, kana or Hangul either (Korean keeps its words whole).
        case keepAll = "keep-all"
        /// Breaks between any two letters or digits, as between ideographs.
        case breakAll = "break-all"
    }

    /// `hyphens`.
    enum Hyphens: String, Sendable, CaseIterable, ParameterChoice {
        /// Soft hyphens (U+00AD) are break opportunities, shown as a hyphen where a line breaks.
        case manual
        /// Soft hyphens are ignored.
        case none
    }

    var lineBreak: Strictness = .auto
    var wordBreak: WordBreak = .normal
    var hyphens: Hyphens = .manual
}
