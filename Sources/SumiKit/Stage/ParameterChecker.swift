/// Checks parameter values against a stage's descriptor: known names, types, ranges, enumerations,
/// required parameters; fills in defaults. Validation and the stage test harness both use it.
public struct ParameterChecker {
    public let descriptor: StageDescriptor

    public init(_ descriptor: StageDescriptor) { self.descriptor = descriptor }

    /// A problem with one parameter.
    public struct Problem: Error, Sendable {
        public var parameter: String
        public var message: String
    }

    /// Parses and checks JSON values (after `${}` substitution) into `Parameters`.
    public func check(_ raw: [(String, JSONValue)]) throws(Problem) -> Parameters {
        var values: [String: ParamValue] = [:]
        var given = Set<String>()
        for (name, json) in raw {
            guard let spec = descriptor.parameter(named: name) else {
                let known = descriptor.parameters.map(\.name)
                let hint = known.isEmpty ? "the stage takes no parameters" : "known: " + known.joined(separator: ", ")
                throw Problem(parameter: MessageText.cut(name), message: "unknown parameter (\(hint))")
            }
            let value: ParamValue
            do { value = try spec.type.parse(json) } catch {
                // A number too large to read at all is still told the range it must be in.
                let range = spec.min != nil || spec.max != nil ? " (numbers: \(rangePhrase(spec)))" : ""
                throw Problem(parameter: name, message: "expected \(error.expected)\(range), got \(error.found)")
            }
            try checkLimits(value, spec)
            values[name] = value
            given.insert(name)
        }
        for spec in descriptor.parameters where values[spec.name] == nil {
            if let d = spec.defaultValue { values[spec.name] = d }
            else if spec.required { throw Problem(parameter: spec.name, message: "required parameter is missing") }
        }
        return Parameters(values, given: given)
    }

    /// Checks already-typed values (the test harness's input).
    public func check(_ typed: [String: ParamValue]) throws(Problem) -> Parameters {
        try check(typed.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) })
    }

    func checkLimits(_ value: ParamValue, _ spec: ParameterSpec) throws(Problem) {
        if case .list(let items) = value {
            for item in items { try checkLimits(item, spec) }
            return
        }
        if let n = value.numberValue {
            let lowOK = spec.min.map { spec.minExclusive ? n > $0 : n >= $0 } ?? true
            let highOK = spec.max.map { n <= $0 } ?? true
            if !lowOK || !highOK {
                throw Problem(parameter: spec.name, message: "expected \(rangePhrase(spec)), got \(formatNumber(n))")
            }
        }
        if let allowed = spec.values, case .string(let s) = value, !allowed.contains(s) {
            throw Problem(parameter: spec.name,
                          message: "expected one of \(allowed.joined(separator: ", ")), got \"\(s)\"")
        }
    }

    func rangePhrase(_ spec: ParameterSpec) -> String {
        let noun = spec.type == .integer ? "an integer" : "a number"
        switch (spec.min, spec.max) {
        case (let lo?, let hi?): return "\(noun) from \(formatNumber(lo))\(spec.minExclusive ? " (exclusive)" : "") to \(formatNumber(hi))"
        case (let lo?, nil): return "\(noun) \(spec.minExclusive ? ">" : ">=") \(formatNumber(lo))"
        case (nil, let hi?): return "\(noun) <= \(formatNumber(hi))"
        case (nil, nil): return noun
        }
    }
}
