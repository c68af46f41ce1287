import SumiCodecs
import SumiEngine
import SumiKit

/// `sumi formats [--json]`: what each image format reads and writes, with colour profile and
/// metadata support.
enum FormatsCommand {
    static func execute(_ arguments: [String]) -> Int32 {
        guard arguments.allSatisfy({ $0 == "--json" }) else {
            Terminal.error(SumiError.usage("formats takes only --json, got \(arguments.filter { $0 != "--json" }.joined(separator: " "))"))
            return 2
        }
        if arguments.contains("--json") {
            let rows = FormatSupport.all.map { row in
                JSONValue.object([
                    ("format", .string(row.name)), ("read", .bool(row.reads)), ("write", .bool(row.writes)),
                    ("profile", .string(row.profile)), ("metadata", .string(row.metadata)), ("notes", .string(row.notes)),
                ])
            }
            Terminal.standardOutput(JSONValue.array(rows).serialized() + "\n")
            return 0
        }
        var text = "format  read  write  colour profile                        metadata                notes\n"
        for row in FormatSupport.all {
            func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(1, n - s.count)) }
            text += pad(row.name, max(8, row.name.count + 2)) + pad(row.reads ? "yes" : "no", 6) + pad(row.writes ? "yes" : "no", 7)
                + pad(row.profile.isEmpty ? "-" : row.profile, 38) + pad(row.metadata.isEmpty ? "-" : row.metadata, 24)
                + row.notes + "\n"
        }
        Terminal.standardOutput(text)
        return 0
    }
}
