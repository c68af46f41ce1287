import SumiApp
import SumiEngine

/// docs/sumi.1, generated: the synopsis, commands and options from `OptionTable`, the version from
/// the VERSION file (through `SumiVersion`), the prose sections from `ManPage.Prose`.
/// `sumi __man` prints it; a test keeps the committed page equal to it.
enum ManPage {
    /// The hidden command that prints the page.
    static let command = "__man"

    static var text: String {
        var page = [".TH SUMI 1 \"2026\" \"sumi \(SumiVersion.string)\" \"User Commands\"",
                    ".SH NAME",
                    "sumi \\- a plugin-based image pipeline: text on images, thumbnails, pages from screenshots",
                    ".SH SYNOPSIS", ".nh", ".ad l"]
        for command in OptionTable.commands {
            page.append("\\fBsumi \(command.name.rawValue)\\fR" + (command.operandSynopsis.isEmpty ? "" : " " + italic(command.operandSynopsis)))
            page += command.synopsisOptions.map { synopsis($0) }
            page.append(".br")
        }
        page.append("\\fBsumi \\-\\-help\\fR | \\fB\\-\\-version\\fR")
        page += [".ad b", ".hy"]
        page.append(Prose.description)
        page.append(".SH COMMANDS")
        for command in OptionTable.commands {
            page += [".TP", "\\fB\(command.name.rawValue)\\fR"]
            page.append(command.description.split(separator: "\n\n").map { escape(String($0)) }.joined(separator: "\n.IP\n"))
        }
        page.append(".SH OPTIONS")
        page += options
        page.append(Prose.rest)
        return page.joined(separator: "\n") + "\n"
    }

    /// Each option once (in the order the commands first list it), with the commands that take it;
    /// an option described differently for some commands gets a paragraph per description.
    static var options: [String] {
        var order: [String] = []
        var uses: [String: [(command: CommandName, option: ProgramOption)]] = [:]
        for command in OptionTable.commands {
            for option in command.options {
                if uses[option.long] == nil { order.append(option.long) }
                uses[option.long, default: []].append((command.name, option))
            }
        }
        var lines: [String] = []
        for long in order {
            let entries = uses[long] ?? []
            guard let first = entries.first?.option else { continue }
            lines += [".TP", header(first)]
            var groups: [(summary: String, commands: [CommandName])] = []
            for (command, option) in entries {
                if let index = groups.firstIndex(where: { $0.summary == option.summary }) {
                    groups[index].commands.append(command)
                } else {
                    groups.append((option.summary, [command]))
                }
            }
            for (index, group) in groups.enumerated() {
                if index > 0 { lines.append(".br") }
                let names = group.commands.count == CommandName.allCases.count ? "every command"
                    : group.commands.map { "\\fB\($0.rawValue)\\fR" }.joined(separator: ", ")
                lines.append(escape(group.summary) + " (" + names + ")")
            }
        }
        lines += [".TP", header(OptionTable.version), escape(OptionTable.version.summary)]
        return lines
    }

    /// `\fB\-i\fR, \fB\-\-input\fR \fIINPUT...\fR`.
    static func header(_ option: ProgramOption) -> String {
        option.names.map { "\\fB\(escape($0))\\fR" }.joined(separator: ", ")
            + (option.valueName.isEmpty ? "" : " " + italic(option.valueName))
    }

    /// `[\fB\-i\fR \fIINPUT...\fR]...` in a synopsis.
    static func synopsis(_ option: ProgramOption) -> String {
        "[\\fB\(escape(option.short ?? option.long))\\fR" + (option.valueName.isEmpty ? "" : " " + italic(option.valueName))
            + "]" + (option.repeatable ? "..." : "")
    }

    static func italic(_ text: String) -> String { "\\fI\(escape(text))\\fR" }

    /// Plain text as roff: backslashes and minus signs escaped, a leading `.` or `'` made literal.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            default: out.append(character)
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }
}
