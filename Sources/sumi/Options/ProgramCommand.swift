/// One command of `sumi` as `OptionTable` declares it: what it takes, what it does and its options.
struct ProgramCommand: Sendable {
    /// What a command takes besides its options.
    enum Operand: Sendable, Equatable {
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

    let name: CommandName
    let operand: Operand
    /// The operands as a synopsis shows them (`MANIFEST|PIPELINE [INPUT]...`).
    let operandSynopsis: String
    /// One line for the list of commands.
    let summary: String
    /// Paragraphs (separated by blank lines) that `--help` and the man page both show.
    let description: String
    /// Preformatted text only `--help` shows (the man page has fuller sections of its own).
    let helpNotes: String
    /// The options, in the order help lists them (`-h, --help` is added to every command).
    let options: [ProgramOption]

    init(_ name: CommandName, _ operand: Operand = .none, operands: String = "", summary: String,
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
    func option(named name: String) -> ProgramOption? {
        options.first { $0.long == name || $0.short == name }
    }

    /// The options a synopsis shows: all but `--help`.
    var synopsisOptions: [ProgramOption] { options.filter { $0.long != OptionTable.help.long } }

    /// Every name the parser accepts.
    var optionNames: [String] { options.flatMap(\.names) }
}
