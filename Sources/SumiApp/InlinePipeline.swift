import SumiEngine
import SumiKit

/// A pipeline written on one line, gst-launch style:
/// `decode path=in.jpg ! scale width=1024 fit=contain ! encode path=out.webp`.
///
/// `!` links an element's output to the next element's first free input port. `id=NAME` names an
/// element; `NAME.` refers to it from another chain (`photo. ! scale width=64 ! …` starts a branch
/// from `photo`), and `NAME.PORT` links into one port (`label. ! out.layer`). Values are parsed by the
/// parameter's type; quote them with '…' or "…" when they hold spaces. A stage without inputs
/// (`decode`) not given the file it reads — its parameter declared `.path(.reads)` — reads
/// `${input}`, and a file writer (`encode`) not given the file it writes — declared `.path(.writes)`
/// — writes `${output}`, whatever the parameter is called, so `-i`/`-o` and batches work as with a
/// manifest.
///
/// The line becomes an ordinary manifest and is validated and run exactly as one; errors name the
/// column of the element concerned.
package enum InlinePipeline {
    /// How messages name the pipeline in place of a manifest file.
    package static let fileName = "pipeline"

    /// A command-line target that is not a file, not `….json`, and holds a space, `!` or `=` is an
    /// inline pipeline.
    package static func isInline(_ target: String) -> Bool {
        !FileIO.exists(target) && !target.hasSuffix(".json") && (target.contains("!") || target.contains(" ") || target.contains("="))
    }

    /// A word of the line and its 1-based column.
    package struct Token {
        package var text: String
        package var column: Int
        /// Whether any part was quoted (a quoted `!` is a value, not a link).
        package var quoted: Bool
    }

    /// One element: a stage with its properties, or a reference to a named stage.
    package struct Element {
        package var column: Int
        package var stage: String?
        package var reference: (id: String, port: String?)?
        package var id: String?
        package var properties: [(key: String, value: String, column: Int)] = []
        /// The manifest index of a stage element.
        package var index: Int?
    }

    /// Splits the line into words at unquoted spaces and `!`, scalar by scalar: a value may begin
    /// with a combining mark (`text=\u{301}…`), which as a grapheme cluster would join the `=` or the
    /// quote before it. Columns count Unicode scalars.
    package static func tokenize(_ line: String) throws(SumiError) -> [Token] {
        var tokens: [Token] = []
        var current = String.UnicodeScalarView()
        var start = 0
        var quoted = false
        var quote: Unicode.Scalar?
        var inToken = false
        var column = 0
        var escaping = false
        func end() {
            if inToken { tokens.append(Token(text: String(current), column: start, quoted: quoted)) }
            current = String.UnicodeScalarView(); inToken = false; quoted = false
        }
        for scalar in line.unicodeScalars {
            column += 1
            if let q = quote {
                if escaping { current.append(scalar); escaping = false; continue }
                if q == "\"" && scalar == "\\" { escaping = true; continue }
                if scalar == q { quote = nil } else { current.append(scalar) }
                continue
            }
            if scalar == " " || scalar == "\t" || scalar == "\n" {
                end()
                continue
            }
            if scalar == "!" {
                end()
                tokens.append(Token(text: "!", column: column, quoted: false))
                continue
            }
            if !inToken { inToken = true; start = column }
            if scalar == "'" || scalar == "\"" { quote = scalar; quoted = true; continue }
            current.append(scalar)
        }
        if quote != nil {
            throw fail(start, "a quote opened here is never closed")
        }
        end()
        return tokens
    }

    package static func fail(_ column: Int, _ message: String) -> SumiError {
        SumiError(.usage, file: fileName, "column \(column): \(message)")
    }

    /// Parses the line into elements and links, then into a manifest.
    package static func parse(_ line: String, registry: StageRegistry) throws(SumiError) -> Parsed {
        let tokens = try tokenize(line)
        guard !tokens.isEmpty else { throw fail(1, "the pipeline is empty") }
        var elements: [Element] = []
        /// (source element, destination element, column of the `!`).
        var links: [(from: Int, to: Int, column: Int)] = []
        var pendingLink: Int?
        for token in tokens {
            if token.text == "!" && !token.quoted {
                guard !elements.isEmpty, pendingLink == nil else {
                    throw fail(token.column, "\"!\" needs an element before it")
                }
                pendingLink = token.column
                continue
            }
            if let (key, value) = splitAssignment(token.text), !key.contains(".") {
                guard !key.isEmpty else { throw fail(token.column, "\(token.text): a parameter needs a name before \"=\"") }
                if pendingLink != nil { throw fail(token.column, "\"!\" must be followed by a stage, not the parameter \(key)=…") }
                guard !elements.isEmpty else { throw fail(token.column, "the parameter \(key)=… comes before any stage") }
                var last = elements[elements.count - 1]
                guard last.stage != nil else {
                    throw fail(token.column, "\(key)=… follows the reference \"\(last.reference?.id ?? "")\", which takes no parameters")
                }
                if key == "id" {
                    guard isValidID(value) else { throw fail(token.column, "id \"\(value)\" must be letters, digits, '-' and '_'") }
                    last.id = value
                } else {
                    last.properties.append((key, value, token.column))
                }
                elements[elements.count - 1] = last
                continue
            }
            var element = Element(column: token.column)
            if let dot = token.text.firstIndex(of: ".") {
                let id = String(token.text[..<dot])
                let port = String(token.text[token.text.index(after: dot)...])
                guard isValidID(id), port.isEmpty || isValidID(port) else {
                    throw fail(token.column, "\"\(token.text)\" is neither a stage name nor a reference NAME. or NAME.PORT")
                }
                element.reference = (id, port.isEmpty ? nil : port)
            } else {
                guard registry.definition(named: token.text) != nil else {
                    let names = registry.all.map(\.descriptor.name)
                    throw fail(token.column, "unknown stage \"\(token.text)\"\(NameSuggestion.hint(token.text, in: names)); known stages: \(names.joined(separator: ", "))")
                }
                element.stage = token.text
            }
            elements.append(element)
            if let column = pendingLink {
                links.append((elements.count - 2, elements.count - 1, column))
                pendingLink = nil
            }
        }
        if let column = pendingLink { throw fail(column, "\"!\" at the end links to nothing; add a stage after it") }
        return try manifest(elements: elements, links: links, registry: registry)
    }

    static func isValidID(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy {
            ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || $0 == "-" || $0 == "_"
        }
    }
}
