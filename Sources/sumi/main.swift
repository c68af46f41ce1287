#if canImport(Glibc)
import Glibc
#endif
import SumiApp
import SumiServe
import SumiEngine
import SumiKit

AllocatorTuning.configure()
// `sumi serve` waits for SIGTERM itself (to drain), so it starts before the signal clean-up.
// --safe and --allow-manifest-plugins may stand anywhere; the commands see the rest.
let (policy, argv) = ProcessFlags.split(Array(CommandLine.arguments.dropFirst()))
if argv.first == "serve" {
    if argv.contains("--help") || argv.contains("-h") {
        Terminal.standardOutput((Help.text(for: CommandName.serve.rawValue) ?? "") + "\n")
        exit(0)
    }
    exit(ServeCommand.main(Array(argv.dropFirst()), optionNames: OptionTable.serve.options.filter(\.takesValue).map(\.long)))
}
// A write to a closed pipe fails with EPIPE, reported, rather than ending the process (as after the
// signal clean-up below, which help and --version do not wait for).
signal(SIGPIPE, SIG_IGN)
if argv.isEmpty || argv == ["--help"] || argv == ["-h"] || argv == ["help"] {
    Terminal.standardOutput(Help.main + "\n")
    exit(argv.isEmpty ? 2 : 0)
}
if argv == ["--version"] || argv == ["-V"] {
    Terminal.standardOutput(Help.version + "\n")
    exit(0)
}
if argv.count >= 2, argv.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }), let text = Help.text(for: argv[0]) {
    Terminal.standardOutput(text + "\n")
    exit(0)
}
if argv.first == "help", argv.count >= 2 {
    guard argv.count == 2, let text = Help.text(for: argv[1]) else {
        Terminal.error(SumiError.usage("no help for \"\(argv.dropFirst().joined(separator: " "))\" (commands: \(CommandName.allCases.map(\.rawValue).joined(separator: ", ")))"))
        exit(2)
    }
    Terminal.standardOutput(text + "\n")
    exit(Terminal.exitStatus(0))
}

// What follows writes files: the signal clean-up removes partial outputs (help and --version above
// start no thread for it).
SignalCleanup.install()
if argv.first == ServeWorker.command { exit(ServeWorker.main()) }

// The man page, generated from the option table (docs/sumi.1 is this output; `make man` writes it).
if argv == [ManPage.command] {
    Terminal.standardOutput(ManPage.text)
    exit(Terminal.exitStatus(0))
}

do {
    let arguments = try Arguments.parse(argv, policy: policy)
    switch arguments.command {
    case .run:
        try policy.startWatch { Terminal.standardError("sumi: error: \($0)\n") }
        exit(Terminal.exitStatus(RunCommand(arguments: arguments).execute()))
    case .pipelines: exit(Terminal.exitStatus(try PipelinesCommand(arguments: arguments).execute()))
    case .validate: exit(Terminal.exitStatus(try ValidateCommand(arguments: arguments).execute()))
    case .stages, .inspect: exit(Terminal.exitStatus(try ListingCommand(arguments: arguments).execute()))
    case .schema: exit(Terminal.exitStatus(try SchemaCommand(arguments: arguments).execute()))
    case .graph: exit(Terminal.exitStatus(try GraphCommand(arguments: arguments).execute()))
    case .completion: exit(Terminal.exitStatus(try CompletionCommand(arguments: arguments).execute()))
    case .formats: exit(Terminal.exitStatus(try FormatsCommand(arguments: arguments).execute()))
    case .serve: exit(ServeCommand.main(Array(argv.dropFirst()), optionNames: OptionTable.serve.options.filter(\.takesValue).map(\.long)))
    }
} catch {
    Terminal.error(error)
    exit(error.exitCode)
}
