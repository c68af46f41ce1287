import SumiApp
import SumiEngine
import SumiKit

/// The parsed command line. Which options each command takes, and what follows them, is
/// `OptionTable`'s; this type holds their values.
struct Arguments {
    typealias Command = CommandName

    var command: Command
    /// The manifest (run, validate, graph), pipeline (pipelines), stage name (inspect) or shell (completion).
    var target: String?
    var inputs: [String] = []
    var output: String?
    var sets: [(name: String, value: String)] = []
    var pluginPaths: [String] = []
    /// Whether the system plugin folder and `SUMI_PLUGIN_PATH` are loaded besides `pluginPaths`
    /// (a `sumi serve` worker loads only the server's `--plugin-path` folders).
    var configuredPlugins = true
    var jobs: Int?
    var json = false
    var quiet = false
    /// Input expansion, planning and validation (`BatchOptions.swift`).
    var batch = BatchOptions()
    /// The run policy from `--safe`, `--allow-manifest-plugins` and the environment (`ProcessFlags`).
    var policy = RunPolicy()

    /// What the session is asked to run or check.
    var request: RunRequest {
        var request = RunRequest(pipeline: target ?? "")
        request.inputs = inputs
        request.output = output
        request.settings = sets
        request.pluginPaths = pluginPaths
        request.configuredPlugins = configuredPlugins
        request.validating = command == .validate
        request.batch = batch
        return request
    }

    /// The pipeline prepared for running or checking, under `policy`.
    func invocation(warn: @escaping (String) -> Void = { _ in }) throws(SumiError) -> Invocation {
        try Invocation(request: request, policy: policy, warn: warn)
    }

    /// Parses `argv` without the program name. Throws a usage error naming the bad argument.
    static func parse(_ argv: [String], policy: RunPolicy = RunPolicy()) throws(SumiError) -> Arguments {
        guard let first = argv.first else { throw SumiError.usage("no command given (try 'sumi --help')") }
        guard let command = Command(rawValue: first) else {
            let names = Command.allCases.map(\.rawValue)
            throw SumiError.usage("unknown command \"\(first)\"\(NameSuggestion.hint(first, in: names)) (commands: \(names.joined(separator: ", ")); try 'sumi --help')")
        }
        let spec = OptionTable.command(command)
        var args = Arguments(command: command)
        args.policy = policy
        var i = 1
        while i < argv.count {
            let (arg, inlineValue) = splitInlineValue(argv[i])
            var option: ProgramOption?
            if arg.hasPrefix("-") && arg != "-" {
                guard let known = spec.option(named: arg) else {
                    let hint = NameSuggestion.hint(arg, in: spec.options.map(\.long))
                    throw SumiError.usage("unknown option \(arg) for 'sumi \(command.rawValue)'\(hint) (try 'sumi \(command.rawValue) --help')")
                }
                if inlineValue != nil, !known.takesValue { throw SumiError.usage("option \(arg) takes no value") }
                option = known
            }
            func optionValue() throws(SumiError) -> String {
                if let inlineValue { return inlineValue }
                guard i + 1 < argv.count else {
                    throw SumiError.usage("option \(arg) needs \(option?.valueDescription ?? "a value")")
                }
                i += 1
                return argv[i]
            }
            switch option?.long {
            case "--input": args.inputs.append(try optionValue())
            case "--output": args.output = try optionValue()
            case "--set":
                let pair = try optionValue()
                guard let (name, value) = splitAssignment(pair), !name.isEmpty else {
                    throw SumiError.usage("--set needs NAME=VALUE, got \"\(pair)\"")
                }
                args.sets.append((name, value))
            case "--plugin-path": args.pluginPaths.append(try optionValue())
            case "--jobs":
                let text = try optionValue()
                guard let n = Int(text), n >= 1, n <= 1024 else {
                    throw SumiError.usage("--jobs needs a whole number from 1 to 1024, got \"\(text)\"")
                }
                args.jobs = n
            case "--json": args.json = true
            case "--quiet": args.quiet = true
            case let long?:
                guard try args.batch.parse(long, value: optionValue) else {
                    throw SumiError.usage("option \(arg) is declared for 'sumi \(command.rawValue)' but not read")
                }
            case nil:
                if args.target == nil, spec.operand != .none {
                    args.target = arg
                } else if spec.operand == .pipeline(inputs: true) {
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
        case .pipelines, .stages, .schema, .formats, .serve:
            break
        }
        return args
    }
}
