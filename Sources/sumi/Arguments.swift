import SumiEngine
import SumiKit

/// The parsed command line.
struct Arguments {
    enum Command: String, CaseIterable { case run, validate, stages, inspect, schema, graph, completion }

    var command: Command
    /// The manifest (run, validate) or stage name (inspect).
    var target: String?
    var inputs: [String] = []
    var output: String?
    var sets: [(name: String, value: String)] = []
    var pluginPaths: [String] = []
    var jobs: Int?
    var json = false
    var quiet = false
    /// Input expansion, planning and validation (`BatchOptions.swift`).
    var batch = BatchOptions()

    /// Parses `argv` without the program name. Throws a usage error naming the bad argument.
    static func parse(_ argv: [String]) throws(SumiError) -> Arguments {
        guard let first = argv.first else { throw SumiError.usage("no command given (try 'sumi --help')") }
        guard let command = Command(rawValue: first) else {
            let names = Command.allCases.map(\.rawValue)
            throw SumiError.usage("unknown command \"\(first)\"\(NameSuggestion.hint(first, in: names)) (commands: \(names.joined(separator: ", ")); try 'sumi --help')")
        }
        var args = Arguments(command: command)
        var i = 1
        func value(_ option: String) throws(SumiError) -> String {
            guard i + 1 < argv.count else { throw SumiError.usage("option \(option) needs a value") }
            i += 1
            return argv[i]
        }
        let allowed: [Command: Set<String>] = [
            .run: Set(["-i", "--input", "-o", "--output", "--set", "--plugin-path", "--jobs", "-j", "--json", "--quiet", "-q"])
                .union(BatchOptions.runOptions),
            .validate: Set(["--set", "--plugin-path", "-i", "--input", "-o", "--output", "--json", "--quiet", "-q"])
                .union(BatchOptions.validateOptions),
            .stages: ["--json", "--plugin-path"],
            .inspect: ["--json", "--plugin-path"],
            .schema: ["--plugin-path"],
            .completion: ["--plugin-path"],
            .graph: ["--plugin-path", "--set", "-i", "--input", "-o", "--output", "--svg"],
        ]
        while i < argv.count {
            var arg = argv[i]
            var inlineValue: String?
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                inlineValue = String(arg[arg.index(after: eq)...])
                arg = String(arg[..<eq])
            }
            func optionValue() throws(SumiError) -> String {
                if let inlineValue { return inlineValue }
                return try value(arg)
            }
            if arg.hasPrefix("-") && arg != "-" {
                let options = allowed[command, default: []]
                guard options.contains(arg) else {
                    let hint = NameSuggestion.hint(arg, in: options.filter { $0.hasPrefix("--") }.sorted())
                    throw SumiError.usage("unknown option \(arg) for 'sumi \(command.rawValue)'\(hint) (try 'sumi \(command.rawValue) --help')")
                }
            }
            switch arg {
            case "-i", "--input": args.inputs.append(try optionValue())
            case "-o", "--output": args.output = try optionValue()
            case "--set":
                let pair = try optionValue()
                guard let eq = pair.firstIndex(of: "="), eq != pair.startIndex else {
                    throw SumiError.usage("--set needs NAME=VALUE, got \"\(pair)\"")
                }
                args.sets.append((String(pair[..<eq]), String(pair[pair.index(after: eq)...])))
            case "--plugin-path": args.pluginPaths.append(try optionValue())
            case "--jobs", "-j":
                let text = try optionValue()
                guard let n = Int(text), n >= 1, n <= 1024 else {
                    throw SumiError.usage("--jobs needs a whole number from 1 to 1024, got \"\(text)\"")
                }
                args.jobs = n
            case "--json": args.json = true
            case "--quiet", "-q": args.quiet = true
            default:
                if try args.batch.parse(arg, value: optionValue) { break }
                if args.target == nil {
                    args.target = arg
                } else if command == .run || command == .validate {
                    // Positional inputs after the manifest, as after -i.
                    args.inputs.append(arg)
                } else {
                    throw SumiError.usage("unexpected argument \"\(arg)\"")
                }
            }
            i += 1
        }
        switch command {
        case .run, .validate:
            guard args.target != nil else { throw SumiError.usage("'sumi \(command.rawValue)' needs a manifest (try 'sumi \(command.rawValue) --help')") }
        case .inspect:
            guard args.target != nil else { throw SumiError.usage("'sumi inspect' needs a stage name (see 'sumi stages')") }
        case .graph:
            guard args.target != nil else { throw SumiError.usage("'sumi graph' needs a manifest or an inline pipeline") }
        case .completion:
            guard args.target != nil else { throw SumiError.usage("'sumi completion' needs a shell: bash, zsh or fish") }
        case .stages, .schema:
            if let t = args.target { throw SumiError.usage("unexpected argument \"\(t)\"") }
        }
        return args
    }
}
