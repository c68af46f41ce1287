/// One option of the command line, declared once in `sumi`'s `OptionTable`: the parser, each
/// command's `--help`, the shell completions and the man page all read it (as GLib's
/// `GOptionEntry` drives parsing and help in gst-launch and vips).
public struct ProgramOption: Sendable {
    /// What follows the option on the command line.
    public enum Value: Sendable, Equatable {
        /// Nothing: a switch.
        case flag
        /// A file or folder path (completed as files).
        case path
        /// A folder (completed as files).
        case folder
        /// A whole number.
        case number
        /// `NAME=VALUE` or `ID.NAME=VALUE` (completed with each stage's parameters).
        case assignment
        /// A word; `words` are offered by the completions (`closed`: no other word is valid).
        case word(words: [String], closed: Bool)
        /// Any other text.
        case text
    }

    /// `--input`.
    public let long: String
    /// `-i`, when the option has a short name.
    public let short: String?
    public let value: Value
    /// How help names the value (`PATH`, `K/N|auto`); empty for a switch.
    public let valueName: String
    /// Whether the option may be given more than once (`...` in a synopsis).
    public let repeatable: Bool
    /// What the option does, as one paragraph (help and the man page wrap it).
    public let summary: String

    /// A switch.
    public init(_ long: String, short: String? = nil, _ summary: String) {
        self.init(long, short: short, .flag, "", summary)
    }

    public init(_ long: String, short: String? = nil, _ value: Value, _ valueName: String,
                repeatable: Bool = false, _ summary: String) {
        self.long = long
        self.short = short
        self.value = value
        self.valueName = valueName
        self.repeatable = repeatable
        self.summary = summary
    }

    /// Both names, short first.
    public var names: [String] { [short, long].compactMap { $0 } }

    public var takesValue: Bool { value != .flag }

    /// The same option, described for one command (`--json` prints a different object in each).
    public func describing(_ summary: String, valueName: String? = nil) -> ProgramOption {
        ProgramOption(long, short: short, value, valueName ?? self.valueName, repeatable: repeatable, summary)
    }

    /// What a missing value is called in "option --jobs needs a whole number".
    public var valueDescription: String {
        switch value {
        case .flag: "no value"
        case .path: "a path"
        case .folder: "a folder"
        case .number: "a whole number"
        case .assignment: "NAME=VALUE"
        case .word(let words, true): "one of \(words.joined(separator: ", "))"
        case .word, .text: "a value (\(valueName))"
        }
    }

    /// `-i, --input INPUT...` as an option list shows it.
    public var label: String {
        names.joined(separator: ", ") + (valueName.isEmpty ? "" : " " + valueName)
    }

    /// `[-i INPUT...]...` as a synopsis shows it.
    public var synopsis: String {
        "[\(short ?? long)\(valueName.isEmpty ? "" : " " + valueName)]" + (repeatable ? "..." : "")
    }
}
