import Foundation
import Testing

/// The program's options are declared once: every command has a help, and every option a help lists
/// is in the man page and offered by the bash, zsh and fish completions; docs/sumi.1 is generated.
@Suite struct OptionTableTests {
    /// The commands `sumi --help` lists.
    func commands() throws -> [String] {
        let help = try CLI.run(["--help"]).stdout
        let section = help.components(separatedBy: "\nCOMMANDS\n").last?.components(separatedBy: "\n\n").first ?? ""
        return section.split(separator: "\n").compactMap { line in
            line.hasPrefix("  ") && !line.hasPrefix("   ") ? line.split(separator: " ").first.map(String.init) : nil
        }
    }

    /// The option names an OPTIONS list shows: `-i, --input INPUT...  Set ...` gives -i and --input.
    static func options(inHelp help: String) -> [String] {
        var names: [String] = []
        var listing = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "OPTIONS" { listing = true; continue }
            guard listing, line.hasPrefix("  -") else { continue }
            let label = line.dropFirst(2).components(separatedBy: "  ").first ?? ""
            for word in label.split(whereSeparator: { $0 == " " || $0 == "," }) where word.hasPrefix("-") {
                names.append(String(word))
            }
        }
        return names
    }

    @Test func everyCommandHasAHelp() throws {
        let commands = try commands()
        #expect(commands == ["run", "pipelines", "validate", "stages", "inspect", "schema", "graph", "formats", "completion", "serve"], "\(commands)")
        for command in commands {
            for arguments in [[command, "--help"], [command, "-h"], ["help", command]] {
                let r = try CLI.run(arguments)
                #expect(r.status == 0 && r.stderr.isEmpty, "\(arguments): \(r.stderr)")
                #expect(Self.options(inHelp: r.stdout).contains("--help"), "\(arguments) lists no options: \(r.stdout)")
            }
        }
    }

    @Test func everyOptionOfEveryHelpIsInTheManPageAndTheCompletions() throws {
        let dir = try CLI.temporaryFolder("options")
        let man = try String(contentsOfFile: CLI.root + "/docs/sumi.1", encoding: .utf8)
        for shell in ["bash", "zsh", "fish"] {
            let script = try CLI.run(["completion", shell])
            #expect(script.status == 0)
            try script.stdoutData.write(to: URL(fileURLWithPath: "\(dir)/sumi.\(shell)"))
        }
        let zsh = try String(contentsOfFile: "\(dir)/sumi.zsh", encoding: .utf8)
        let fish = try String(contentsOfFile: "\(dir)/sumi.fish", encoding: .utf8)
        var total = 0
        for command in try commands() {
            let names = Self.options(inHelp: try CLI.run([command, "--help"]).stdout)
            total += names.count
            // bash and fish complete "sumi COMMAND -" / "--" with the options themselves.
            let bash = CLI.tool("/bin/bash", ["-c", "source '\(dir)/sumi.bash'; COMP_WORDS=(sumi \(command) -); COMP_CWORD=2; _sumi; echo \"${COMPREPLY[@]}\""])
            let bashOffered = Set(String(decoding: bash ?? Data(), as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init))
            let fishOut = CLI.tool("/usr/bin/fish", ["-c", "source '\(dir)/sumi.fish'; complete -C 'sumi \(command) --'"])
            let fishOffered = Set(String(decoding: fishOut ?? Data(), as: UTF8.self).split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") })
            let zshLine = zsh.split(separator: "\n").first { $0.hasPrefix("    \(command)) options=(") }.map(String.init) ?? ""
            let zshOffered = Set(zshLine.dropFirst("    \(command)) options=(".count).split(whereSeparator: { $0 == " " || $0 == ")" }).map(String.init))
            for name in names {
                let roff = name.replacingOccurrences(of: "-", with: "\\-")
                #expect(man.contains("\\fB\(roff)\\fR"), "sumi \(command) \(name) is not in docs/sumi.1")
                #expect(bashOffered.contains(name), "bash does not complete sumi \(command) \(name)")
                #expect(zshOffered.contains(name), "zsh does not complete sumi \(command) \(name)")
                if name.hasPrefix("--") {
                    #expect(fishOffered.contains(name), "fish does not complete sumi \(command) \(name)")
                } else {
                    #expect(fish.contains("__fish_seen_subcommand_from") && fish.split(separator: "\n").contains {
                        $0.contains(" \(command)") && $0.contains(" -s \(name.dropFirst()) ")
                    }, "fish has no -s \(name.dropFirst()) for sumi \(command)")
                }
            }
        }
        // The options the man page once lacked are there now.
        for option in ["--safe", "--allow-manifest-plugins", "--print-manifest", "--recursive"] {
            #expect(man.contains("\\fB" + option.replacingOccurrences(of: "-", with: "\\-") + "\\fR"), "\(option)")
        }
        #expect(total > 60, "\(total) options in all helps")
    }

    @Test func theCommittedManPageIsTheGeneratedOne() throws {
        let generated = try CLI.run(["__man"])
        #expect(generated.status == 0)
        let committed = try String(contentsOfFile: CLI.root + "/docs/sumi.1", encoding: .utf8)
        #expect(generated.stdout == committed, "docs/sumi.1 differs from 'sumi __man' (run 'make man')")
        let version = try String(contentsOfFile: CLI.root + "/VERSION", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(committed.hasPrefix(".TH SUMI 1 \"2026\" \"sumi \(version)\""), "\(committed.prefix(60))")
    }

    /// Every option a command's help lists is one its parser reads (not refused, not left unread):
    /// the run, validate and graph calls stop afterwards at a manifest that does not exist.
    @Test func everyListedOptionIsParsed() throws {
        let dir = try CLI.temporaryFolder("parse")
        let operands = ["run": [dir + "/none.json"], "validate": [dir + "/none.json"], "graph": [dir + "/none.json"],
                        "inspect": ["scale"], "completion": ["bash"]]
        let values = ["--set": "width=1", "-i": dir + "/in.png", "--input": dir + "/in.png", "-o": dir + "/out.png",
                      "--output": dir + "/out.png", "--plugin-path": dir, "--shard-by": "hash", "--shard": "1/2"]
        var checked = 0
        for command in try commands() where command != "serve" {
            let help = try CLI.run([command, "--help"]).stdout
            for name in Self.options(inHelp: help) where name != "-h" && name != "--help" {
                let label = help.split(separator: "\n").first { $0.hasPrefix("  \(name)") || $0.contains(", \(name)") } ?? ""
                let words = (label.dropFirst(2).components(separatedBy: "  ").first ?? "").split(separator: " ")
                let takesValue = words.contains { !$0.hasPrefix("-") }
                let arguments = [command] + (operands[command] ?? []) + [name] + (takesValue ? [values[name] ?? "1"] : [])
                let r = try CLI.run(arguments)
                #expect(!r.stderr.contains("unknown option") && !r.stderr.contains("but not read") && !r.stderr.contains("takes no value")
                        && !r.stderr.contains("needs "), "\(arguments): \(r.stderr)")
                #expect(r.status == 0 || (r.stderr + r.stdout).contains("none.json"), "\(arguments): \(r.status) \(r.stderr)")
                checked += 1
            }
        }
        #expect(checked > 40, "\(checked)")
    }

    @Test func optionsAreCheckedByTheTable() throws {
        let bogus = try CLI.run(["formats", "--bogus"])
        #expect(bogus.status == 2 && bogus.stderr.contains("unknown option --bogus for 'sumi formats'"), "\(bogus.stderr)")
        let extra = try CLI.run(["formats", "png"])
        #expect(extra.status == 2 && extra.stderr.contains("unexpected argument \"png\""), "\(extra.stderr)")
        let valued = try CLI.run(["stages", "--json=yes"])
        #expect(valued.status == 2 && valued.stderr.contains("option --json takes no value"), "\(valued.stderr)")
        let jobs = try CLI.run(["run", "pipelines/thumbnail.json", "-j"])
        #expect(jobs.status == 2 && jobs.stderr.contains("option -j needs a whole number"), "\(jobs.stderr)")
        let hint = try CLI.run(["completion", "bash", "--plugin-pth", "x"])
        #expect(hint.status == 2 && hint.stderr.contains("did you mean \"--plugin-path\""), "\(hint.stderr)")
    }
}
