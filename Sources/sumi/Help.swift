import SumiApp
import SumiEngine

/// The text of `sumi --help` and of each command's `--help`, printed from `OptionTable`.
enum Help {
    static let version = "sumi \(SumiVersion.string) (plugin ABI \(SumiVersion.pluginABIVersions.map(String.init).joined(separator: ", ")); "
        + "built with Swift \(SumiVersion.swiftRelease): build Swift plugins with the same release)"

    /// The width help text is wrapped to.
    static let width = 100
    /// The column option summaries start at.
    static let summaryColumn = 26

    static var main: String {
        var text = "sumi — an image pipeline: text on images, pages from screenshots\n\nUSAGE\n"
        for command in OptionTable.commands { text += synopsis(command) }
        text += "  sumi --help | --version\n\nCOMMANDS\n"
        for command in OptionTable.commands {
            text += wrap(command.summary, first: "  " + command.name.rawValue.padded(to: 11), rest: String(repeating: " ", count: 13))
        }
        return text + "\n" + mainNotes
    }

    /// `sumi COMMAND --help`, or nil for a name that is no command.
    static func text(for name: String) -> String? {
        guard let name = CommandName(rawValue: name) else { return nil }
        let command = OptionTable.command(name)
        var text = "USAGE\n" + synopsis(command) + "\n"
        for paragraph in command.description.split(separator: "\n\n") {
            text += wrap(String(paragraph), first: "", rest: "") + "\n"
        }
        if !command.helpNotes.isEmpty { text += command.helpNotes + "\n\n" }
        text += "OPTIONS\n"
        for option in command.options { text += optionEntry(option) }
        return String(text.dropLast())
    }

    /// `-i, --input INPUT...` and its summary, wrapped beside it.
    static func optionEntry(_ option: ProgramOption) -> String {
        let label = "  " + option.label
        let column = max(summaryColumn, label.count + 2)
        return wrap(option.summary, first: label.padded(to: column), rest: String(repeating: " ", count: summaryColumn))
    }

    /// A command's synopsis, wrapped between its options.
    static func synopsis(_ command: ProgramCommand) -> String {
        let head = "  sumi \(command.name.rawValue) "
        let units = (command.operandSynopsis.isEmpty ? [] : [command.operandSynopsis]) + command.synopsisOptions.map(\.synopsis)
        var text = ""
        var line = head
        let indent = String(repeating: " ", count: head.count)
        for unit in units {
            if line.count + unit.count > width, line != head, line != indent {
                text += line.dropLastSpace() + "\n"
                line = indent
            }
            line += unit + " "
        }
        return text + line.dropLastSpace() + "\n"
    }

    /// `text` as lines of at most `width` characters: the first begins with `first`, the rest with `rest`.
    static func wrap(_ text: String, first: String, rest: String) -> String {
        var out = ""
        var line = first
        var fresh = true
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if !fresh, line.count + 1 + word.count > width {
                out += line + "\n"
                line = rest
                fresh = true
            }
            line += (fresh ? "" : " ") + word
            fresh = false
        }
        return out + line + "\n"
    }

    static let mainNotes = """
    EXAMPLES
      sumi pipelines
      sumi run thumbnail -i photo.jpg -o thumb.png --set width=256
      sumi run caption -i photo.jpg -o out.jpg --set text="東京タワー" --set offset=40,-30
      sumi run thumbnail -i batch/*.jpg -o 'thumbs/{stem}.jpg' --set small.enlarge=false
      sumi run thumbnail photos/ -r -o 'thumbs/{dir}/{stem}.webp' --dry-run
      sumi run 'decode path=in.jpg ! scale width=1024 fit=contain ! encode path=out.webp'
      sumi run 'decode ! rotate angle=90 ! encode' -i scans/ -o 'turned/{name}'
      sumi inspect text

    UNTRUSTED MANIFESTS
      validate never loads a manifest's plugins; run loads those outside the plugin folders only
      with --allow-manifest-plugins. --safe (or SUMI_SAFE=1) loads none, reads only the -i files
      (and fonts below their folders), writes only below the folder of -o, and limits pixels, text,
      files, memory and time. Both may stand anywhere on the command line.

    ENVIRONMENT
      SUMI_PLUGIN_PATH   colon-separated folders whose plugin libraries (*.so) are loaded
      SUMI_SAFE          1: every run is --safe; SUMI_SAFE_SECONDS lowers its 300 s time limit,
                         SUMI_SAFE_MEMORY_MB its 4096 MB memory limit
      SUMI_MAX_PIXELS    the most pixels of any image a stage makes (default 178956970);
                         a safe run's 50000000 it can only lower

    EXIT STATUS
      0 success · 1 a run failed (unreadable image, I/O error, ...) · 2 usage, manifest or validation error

    Run 'sumi COMMAND --help' for a command's options.
    """
}

extension String {
    /// The string with spaces added up to `width` characters (at least one space).
    func padded(to width: Int) -> String {
        self + String(repeating: " ", count: Swift.max(1, width - count))
    }

    fileprivate func dropLastSpace() -> String {
        hasSuffix(" ") ? String(dropLast()) : self
    }
}
