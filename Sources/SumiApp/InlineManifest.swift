import SumiEngine
import SumiKit

extension InlinePipeline {
    /// An inline pipeline as a manifest, with the column of each stage (by manifest index) for messages.
    package struct Parsed {
        package var manifest: Manifest
        package var columns: [Int]
        /// The manifest as JSON (`--print-manifest`).
        package var json: JSONValue
    }

    /// Turns parsed elements and links into manifest JSON, then loads it as any manifest is loaded.
    package static func manifest(elements: [Element], links: [(from: Int, to: Int, column: Int)],
                         registry: StageRegistry) throws(SumiError) -> Parsed {
        var elements = elements
        var stageCount = 0
        var idIndex: [String: Int] = [:]
        for e in elements.indices where elements[e].stage != nil {
            elements[e].index = stageCount
            if let id = elements[e].id {
                if idIndex[id] != nil { throw fail(elements[e].column, "duplicate id \"\(id)\"") }
                idIndex[id] = stageCount
            }
            stageCount += 1
        }
        let stages = elements.filter { $0.stage != nil }
        func resolve(_ e: Int) throws(SumiError) -> Int {
            if let index = elements[e].index { return index }
            let id = elements[e].reference?.id ?? ""
            guard let index = idIndex[id] else {
                throw fail(elements[e].column, "no element has id=\(id)\(NameSuggestion.hint(id, in: Array(idIndex.keys).sorted()))")
            }
            return index
        }

        // Links resolved to (source stage, destination stage, port?).
        var incoming = [[(source: Int, port: String?, column: Int)]](repeating: [], count: stageCount)
        for link in links {
            if let port = elements[link.from].reference?.port {
                throw fail(elements[link.from].column, "\(elements[link.from].reference?.id ?? "").\(port) names an input port; as a source write \(elements[link.from].reference?.id ?? "").")
            }
            let source = try resolve(link.from), destination = try resolve(link.to)
            guard source != destination else { throw fail(link.column, "this \"!\" links a stage to itself") }
            incoming[destination].append((source, elements[link.to].reference?.port, link.column))
        }

        // Inputs of each stage, by port.
        var generatedIDs: [Int: String] = [:]
        var used = Set(idIndex.keys)
        func idOf(_ index: Int) -> String {
            if let id = stages[index].id { return id }
            if let id = generatedIDs[index] { return id }
            let base = stages[index].stage ?? "stage"
            var id = base, n = 2
            while used.contains(id) { id = "\(base)-\(n)"; n += 1 }
            used.insert(id)
            generatedIDs[index] = id
            return id
        }
        var froms: [JSONValue?] = []
        for (index, element) in stages.enumerated() {
            guard let definition = registry.definition(named: element.stage ?? "") else { froms.append(nil); continue }
            let ports = definition.descriptor.inputs
            let links = incoming[index]
            if ports.isEmpty {
                if let link = links.first { throw fail(link.column, "\(element.stage ?? "") takes no input; it starts a chain") }
                froms.append(nil)
                continue
            }
            guard !links.isEmpty else {
                throw fail(element.column, "\(element.stage ?? "") has no input: put it after \"!\", or link into it with \"NAME. ! \(element.id ?? "ID").\"")
            }
            var byPort: [(port: String, sources: [Int])] = ports.map { ($0.name, []) }
            for link in links {
                if let port = link.port {
                    guard let slot = byPort.firstIndex(where: { $0.port == port }) else {
                        throw fail(link.column, "\(element.stage ?? "") has no port \"\(port)\"\(NameSuggestion.hint(port, in: ports.map(\.name))) (ports: \(ports.map(\.name).joined(separator: ", ")))")
                    }
                    byPort[slot].sources.append(link.source)
                } else if let free = byPort.firstIndex(where: { $0.sources.isEmpty }) {
                    byPort[free].sources.append(link.source)
                } else if ports.count == 1 {
                    byPort[0].sources.append(link.source)
                } else {
                    throw fail(link.column, "every port of \(element.stage ?? "") (\(ports.map(\.name).joined(separator: ", "))) is already linked")
                }
            }
            if ports.count == 1 {
                let sources = byPort[0].sources
                if sources == [index - 1] { froms.append(nil) }
                else if sources.count == 1 { froms.append(.string(idOf(sources[0]))) }
                else { froms.append(.array(sources.map { .string(idOf($0)) })) }
                continue
            }
            var members: [(String, JSONValue)] = []
            for (port, sources) in byPort {
                guard let first = sources.first else {
                    throw fail(element.column, "port \"\(port)\" of \(element.stage ?? "") is not linked (link into it with \"NAME. ! \(element.id ?? "ID").\(port)\")")
                }
                if sources.count > 1 { throw fail(element.column, "port \"\(port)\" of \(element.stage ?? "") is linked \(sources.count) times") }
                members.append((port, .string(idOf(first))))
            }
            froms.append(.object(members))
        }

        // Parameters, typed by the stage's descriptor.
        var usesInput = false, usesOutput = false
        var stageJSON: [JSONValue] = []
        for (index, element) in stages.enumerated() {
            guard let definition = registry.definition(named: element.stage ?? "") else { continue }
            let descriptor = definition.descriptor
            var with: [(String, JSONValue)] = []
            for property in element.properties {
                guard let spec = descriptor.parameter(named: property.key) else {
                    let known = descriptor.parameters.map(\.name)
                    throw fail(property.column, "\(descriptor.name) has no parameter \"\(property.key)\"\(NameSuggestion.hint(property.key, in: known)) (parameters: \(known.isEmpty ? "none" : known.joined(separator: ", ")))")
                }
                if with.contains(where: { $0.0 == property.key }) { throw fail(property.column, "\(property.key) is given twice") }
                with.append((property.key, try value(property.value, spec: spec, column: property.column)))
                if property.value.contains("${input}") { usesInput = true }
                if property.value.contains("${output}") { usesOutput = true }
            }
            // The file a source reads and the file a sink writes, by their declared directions.
            if descriptor.inputs.isEmpty, !usesInput, let read = Self.pathParameter(of: descriptor, going: .reads),
               !with.contains(where: { $0.0 == read.name }) {
                with.append((read.name, .string("${input}"))); usesInput = true
            } else if descriptor.output == .file, !usesOutput, let write = Self.pathParameter(of: descriptor, going: .writes),
                      !with.contains(where: { $0.0 == write.name }) {
                with.append((write.name, .string("${output}"))); usesOutput = true
            }
            var entry: [(String, JSONValue)] = []
            if let id = element.id ?? generatedIDs[index] { entry.append(("id", .string(id))) }
            entry.append(("stage", .string(descriptor.name)))
            if let from = froms[index] { entry.append(("from", from)) }
            if !with.isEmpty { entry.append(("with", .object(with))) }
            stageJSON.append(.object(entry))
        }
        var params: [(String, JSONValue)] = []
        if usesInput { params.append(("input", .object([("type", .string("path")), ("summary", .string("file the pipeline reads"))]))) }
        if usesOutput { params.append(("output", .object([("type", .string("path")), ("summary", .string("file the pipeline writes"))]))) }
        let json = JSONValue.object([("sumi", .number(1)), ("name", .string("inline")), ("params", .object(params)),
                                     ("stages", .array(stageJSON))])
        let manifest = try ManifestLoader.parse(Array(json.serialized().utf8), path: fileName)
        return Parsed(manifest: manifest, columns: stages.map(\.column), json: json)
    }

    /// A property's text as the JSON a manifest would hold: `${…}` kept for substitution, a JSON array
    /// (`'["a.png","b.png"]'`) as a list, anything else parsed by the parameter's type.
    /// The parameter naming the file(s) a stage reads or writes, by its declared direction
    /// (`.path(.reads)`, `.path(.writes)`, or lists of them): the first required one, else the first.
    /// A path whose direction is not declared is never filled in.
    static func pathParameter(of descriptor: StageDescriptor, going access: PathAccess) -> ParameterSpec? {
        let declared = descriptor.parameters.filter { $0.type.pathAccess == access }
        return declared.first(where: \.required) ?? declared.first
    }

    static func value(_ text: String, spec: ParameterSpec, column: Int) throws(SumiError) -> JSONValue {
        if text.contains("${") { return .string(text) }
        if text.hasPrefix("["), let json = try? JSONParser.parse(text), json.arrayValue != nil {
            do { return try spec.type.parse(json).json } catch {
                throw fail(column, "\(spec.name): expected \(error.expected), got \(error.found)")
            }
        }
        do { return try spec.type.parse(text: text).json } catch {
            throw fail(column, "\(spec.name): expected \(error.expected), got \(error.found)")
        }
    }

    /// Rewrites an error's `stages[i] …` place as the column of stage `i` in the line.
    package static func locate(_ error: SumiError, columns: [Int]) -> SumiError {
        guard let place = error.stage, place.hasPrefix("stages["), let close = place.firstIndex(of: "]"),
              let index = Int(place[place.index(place.startIndex, offsetBy: 7)..<close]), index < columns.count else { return error }
        var located = error
        let name = place.split(separator: "(").last.map { "(" + $0 } ?? ""
        located.stage = "column \(columns[index]) \(name)"
        return located
    }

    /// A warning's `stages[i] …` place as the column of stage `i`.
    package static func locate(_ message: String, manifest: Manifest, columns: [Int]) -> String {
        for entry in manifest.stages where entry.index < columns.count {
            let place = ": \(entry.place): "
            if message.contains(place) {
                return message.replacingAll(place, with: ": column \(columns[entry.index]) (\(entry.stage)): ")
            }
        }
        return message
    }

    /// A manifest's JSON laid out one member (and one stage) a line, as the shipped manifests are.
    package static func pretty(_ json: JSONValue) -> String {
        guard let members = json.objectValue else { return json.serialized() + "\n" }
        let lines = members.map { key, value -> String in
            let name = JSONValue.string(key).serialized()
            if let items = value.arrayValue, key == "stages" {
                return "  \(name): [\n" + items.map { "    " + $0.serialized() }.joined(separator: ",\n") + "\n  ]"
            }
            if let params = value.objectValue, key == "params", !params.isEmpty {
                return "  \(name): {\n" + params.map { "    " + JSONValue.string($0.0).serialized() + ": " + $0.1.serialized() }
                    .joined(separator: ",\n") + "\n  }"
            }
            return "  \(name): \(value.serialized())"
        }
        return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }
}
