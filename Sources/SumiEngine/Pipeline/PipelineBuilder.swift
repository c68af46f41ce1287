import SumiKit

/// Turns a manifest plus parameter values into a validated `Pipeline`: checks stage names,
/// references, parameter types and ranges, port kinds, duplicate ids and cycles — all before anything
/// runs — and creates each stage.
public struct PipelineBuilder {
    public let registry: StageRegistry

    public init(registry: StageRegistry) { self.registry = registry }

    /// Resolves the manifest parameters: declared defaults, overridden by `overrides`
    /// (already typed). A required parameter with no value is an error.
    public static func parameterValues(_ manifest: Manifest, overrides: [String: ParamValue]) throws(SumiError) -> [String: ParamValue] {
        var values: [String: ParamValue] = [:]
        let file = FileIO.fileName(of: manifest.path)
        for (name, _) in overrides where manifest.parameter(named: name) == nil {
            let known = manifest.params.map(\.name).joined(separator: ", ")
            throw SumiError(.usage, file: file, "unknown parameter \"\(name)\" (the manifest declares: \(known.isEmpty ? "none" : known))")
        }
        for param in manifest.params {
            if let v = overrides[param.name] ?? param.defaultValue { values[param.name] = v }
            else {
                throw SumiError(.usage, file: file, "parameter \"\(param.name)\" is required (give it with --set \(param.name)=...\(param.name == "input" ? " or -i" : param.name == "output" ? " or -o" : ""))")
            }
        }
        return values
    }

    public func build(_ manifest: Manifest, values: [String: ParamValue]) throws(SumiError) -> Pipeline {
        let file = FileIO.fileName(of: manifest.path)
        func fail(_ entry: ManifestStage, _ message: String, parameter: String? = nil) -> SumiError {
            SumiError(.usage, file: file, stage: entry.place, parameter: parameter, message)
        }

        // Ids.
        var idIndex: [String: Int] = [:]
        for entry in manifest.stages {
            guard let id = entry.id else { continue }
            if let first = idIndex[id] {
                throw fail(entry, "duplicate id \"\(id)\" (first used by stages[\(first)])")
            }
            idIndex[id] = entry.index
        }

        // Stages and parameters.
        var definitions: [StageDefinition] = []
        var checked: [Parameters] = []
        for entry in manifest.stages {
            guard let definition = registry.definition(named: entry.stage) else {
                let names = registry.all.map(\.descriptor.name)
                let hint = NameSuggestion.hint(entry.stage, in: names)
                let broken = registry.brokenLibraries.map { "\($0.path) (\($0.reason))" }
                let brokenNote = broken.isEmpty ? "" : "; plugin libraries that failed to load, which may offer it: " + broken.joined(separator: "; ")
                throw fail(entry, "unknown stage \"\(MessageText.cut(entry.stage))\"\(hint); known stages: \(names.joined(separator: ", "))\(brokenNote)")
            }
            var substituted: [(String, JSONValue)] = []
            for (name, raw) in entry.with {
                do { substituted.append((name, try Substitution.substitute(raw, values: values, here: manifest.here))) } catch {
                    switch error {
                    case .undeclared(let reference):
                        throw fail(entry, "reference to undeclared parameter ${\(reference)}", parameter: name)
                    case .tooLong:
                        throw fail(entry, "its ${} references would substitute more than \(Substitution.maxLength) bytes", parameter: name)
                    }
                }
            }
            do { checked.append(try ParameterChecker(definition.descriptor).check(substituted)) } catch {
                throw fail(entry, error.message, parameter: error.parameter)
            }
            definitions.append(definition)
        }

        // Wiring and port kinds: what each stage produces follows from its parameters.
        let produced = manifest.stages.map { definitions[$0.index].descriptor.outputKind(for: checked[$0.index]) }
        var wiring: [[(port: String, sources: [Int])]] = []
        for entry in manifest.stages {
            let descriptor = definitions[entry.index].descriptor
            wiring.append(try wire(entry, descriptor, idIndex: idIndex, definitions: definitions, produced: produced, fail: fail))
        }

        // Cycles (Kahn's algorithm).
        let order = try Self.topologicalOrder(count: manifest.stages.count, wiring: wiring) { index in
            fail(manifest.stages[index], "the stage graph has a cycle through this stage")
        }

        // Create stages (stage-specific checks of parameter combinations).
        var nodes: [Pipeline.Node] = []
        for entry in manifest.stages {
            let stage: any StageInstance
            do { stage = try definitions[entry.index].make(checked[entry.index]) } catch let error as StageError {
                // A stage that cannot be made for want of a file or library keeps that kind; any
                // other refusal at this point is about the manifest's values.
                var refusal = fail(entry, error.message, parameter: error.parameter)
                if [.io, .plugin, .limit].contains(error.cause) { refusal.kind = SumiError.Kind(error.cause) }
                throw refusal
            } catch let error as SumiError {
                throw error
            } catch {
                throw fail(entry, "\(error)")
            }
            nodes.append(Pipeline.Node(index: entry.index, entry: entry, descriptor: definitions[entry.index].descriptor,
                                       stage: stage, inputs: wiring[entry.index]))
        }
        var pipeline = Pipeline(manifest: manifest, values: values, nodes: nodes, order: order)
        pipeline.formats = registry.formats
        return pipeline
    }

    func wire(_ entry: ManifestStage, _ descriptor: StageDescriptor, idIndex: [String: Int],
              definitions: [StageDefinition], produced kinds: [ValueKind], fail: (ManifestStage, String, String?) -> SumiError) throws(SumiError) -> [(port: String, sources: [Int])] {
        let ports = descriptor.inputs
        if ports.isEmpty {
            // The implicit chain is ignored; an explicit "from" is a mistake (a typo must not pass).
            guard case .previous = entry.from else {
                throw fail(entry, "\"from\" given, but the stage has no input ports", nil)
            }
            return []
        }
        func resolve(_ id: String) throws(SumiError) -> Int {
            guard let index = idIndex[id] else {
                throw fail(entry, "\"from\" names \"\(id)\", but no stage has that id", nil)
            }
            guard index != entry.index else { throw fail(entry, "\"from\" names the stage itself", nil) }
            return index
        }
        var result: [(port: String, sources: [Int])] = []
        switch entry.from {
        case .previous:
            guard entry.index > 0 else { throw fail(entry, "the first stage has no previous stage to take its input from; give \"from\"", nil) }
            guard ports.count == 1 else {
                throw fail(entry, "the stage has ports \(ports.map(\.name).joined(separator: ", ")); give \"from\" as an object of port → stage id", nil)
            }
            result = [(ports[0].name, [entry.index - 1])]
        case .single(let id):
            guard ports.count == 1 else {
                throw fail(entry, "the stage has ports \(ports.map(\.name).joined(separator: ", ")); give \"from\" as an object of port → stage id", nil)
            }
            result = [(ports[0].name, [try resolve(id)])]
        case .list(let ids):
            var sources: [Int] = []
            for id in ids { sources.append(try resolve(id)) }
            if ports.count == 1 {
                result = [(ports[0].name, sources)]
            } else {
                guard sources.count == ports.count else {
                    throw fail(entry, "\"from\" lists \(sources.count) stages for \(ports.count) ports (\(ports.map(\.name).joined(separator: ", ")))", nil)
                }
                result = zip(ports, sources).map { ($0.name, [$1]) }
            }
        case .ports(let mapping):
            for (port, id) in mapping {
                guard ports.contains(where: { $0.name == port }) else {
                    throw fail(entry, "\"from\" names port \"\(port)\", but the stage's ports are \(ports.map(\.name).joined(separator: ", "))", nil)
                }
                result.append((port, [try resolve(id)]))
            }
            for port in ports where !mapping.contains(where: { $0.0 == port.name }) {
                throw fail(entry, "input port \"\(port.name)\" is not connected (add it to \"from\")", nil)
            }
        }
        // Kinds.
        for (portName, sources) in result {
            guard let port = ports.first(where: { $0.name == portName }) else { continue }
            if sources.count > 1 {
                guard port.accepts.contains(.images) else {
                    throw fail(entry, "port \"\(portName)\" (\(port.typeName)) takes one input, but \"from\" lists \(sources.count)", nil)
                }
                for s in sources where !kinds[s].canFeed(.images) {
                    throw fail(entry, "port \"\(portName)\" needs images, but stages[\(s)]\(Self.label(s, definitions, idIndex)) produces \(kinds[s].rawValue)", nil)
                }
                continue
            }
            let produced = kinds[sources[0]]
            guard port.accepts.contains(where: { produced.canFeed($0) }) else {
                let why = produced != definitions[sources[0]].descriptor.output
                    ? " (a list, because its \"\(definitions[sources[0]].descriptor.listOutputParameter ?? "")\" is a list)" : ""
                throw fail(entry, "port \"\(portName)\" accepts \(port.typeName), but stages[\(sources[0])]\(Self.label(sources[0], definitions, idIndex)) produces \(produced.rawValue)\(why)", nil)
            }
        }
        return result
    }

    /// ` "id" (name)` of a stage, for messages that name a second stage.
    static func label(_ index: Int, _ definitions: [StageDefinition], _ idIndex: [String: Int]) -> String {
        let name = definitions[index].descriptor.name
        if let id = idIndex.first(where: { $0.value == index })?.key { return " \"\(id)\" (\(name))" }
        return " (\(name))"
    }

    static func topologicalOrder(count: Int, wiring: [[(port: String, sources: [Int])]],
                                 cycle: (Int) -> SumiError) throws(SumiError) -> [Int] {
        var indegree = [Int](repeating: 0, count: count)
        var consumers = [[Int]](repeating: [], count: count)
        for (node, inputs) in wiring.enumerated() {
            for source in Set(inputs.flatMap(\.sources)) {
                indegree[node] += 1
                consumers[source].append(node)
            }
        }
        var ready = (0..<count).filter { indegree[$0] == 0 }
        var order: [Int] = []
        var next = 0
        while next < ready.count {
            let node = ready[next]
            next += 1
            order.append(node)
            for c in consumers[node] {
                indegree[c] -= 1
                if indegree[c] == 0 { ready.append(c) }
            }
        }
        if order.count < count, let stuck = (0..<count).first(where: { indegree[$0] > 0 }) {
            throw cycle(stuck)
        }
        return order
    }
}
