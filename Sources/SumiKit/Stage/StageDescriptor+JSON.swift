extension StageDefinition {
    /// The stage's entry in `sumi stages --json` (and the whole of `sumi inspect --json`).
    public var json: JSONValue { StageDescriptorJSON.encode(descriptor, origin: origin) }
}
