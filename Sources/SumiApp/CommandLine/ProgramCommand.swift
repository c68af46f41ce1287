/// One command of `sumi` as `OptionTable` declares it: what it takes, what it does and its options.
public struct ProgramCommand: Sendable {
    /// What a command takes besides its options.
    public enum Operand: Sendable, Equatable {
        case none
        /// A manifest file or an inline pipeline, then (`inputs`) input files.
        case pipeline(inputs: Bool)
        /// A stage name.
        case stage
        /// A pipeline's name (optional).
        case pipelineName
        /// A shell name.
        case shell
    }

    public let name: CommandName
    public let operand: Operand
    /// The operands as a synopsis shows them (`MANIFEST|PIPELINE [INPUT]...`).
    public let operandSynopsis: String
    /// One line for the list of commands.
    public let summary: String
    /// Paragraphs (separated by blank lines) that `--help` and the man page both show.
    public let description: String
    /// Preformatted text only `--help` shows (the man page has fuller sections of its own).
    public let helpNotes: String
    /// The options, in the order help lists them (`-h, --help` is added to every command).
    public let options: [ProgramOption]

    public init(_ name: CommandName, _ operand: Operand = .none, operands: String = "", summary: String,
                description: String, helpNotes: String = "", options: [ProgramOption]) {
        self.name = name
        self.operand = operand
        self.operandSynopsis = operands
        self.summary = summary
        self.description = description
        self.helpNotes = helpNotes
        self.options = options
    }

    /// The option called `name` (short or long).
    public func option(named name: String) -> ProgramOption? {
        options.first { $0.long == name || $0.short == name }
    }

    /// The options a synopsis shows: all but `--help`.
    public var synopsisOptions: [ProgramOption] { options.filter { $0.long != "--help" } }

    /// Every name the parser accepts.
    public var optionNames: [String] { options.flatMap(\.names) }
}
