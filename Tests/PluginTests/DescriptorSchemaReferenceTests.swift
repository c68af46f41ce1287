import CSumiPlugin
import Foundation
@testable import SumiEngine
import SumiKit
import Testing

/// The JSON Schema for stage descriptors in docs/plugins.md, checked with Python's `jsonschema` (an
/// independent validator, run by `make test`) against the descriptor text every example plugin hands the host.
@Suite struct DescriptorSchemaReferenceTests {
    /// The schema: the JSON block after "## The descriptor, as a JSON Schema" in docs/plugins.md.
    static func schema(root: String) throws -> String {
        let doc = try String(contentsOfFile: root + "/docs/plugins.md", encoding: .utf8)
        let section = try #require(doc.range(of: "## The descriptor, as a JSON Schema"))
        let rest = doc[section.upperBound...]
        let start = try #require(rest.range(of: "```json\n"))
        let end = try #require(rest[start.upperBound...].range(of: "\n```"))
        return String(rest[start.upperBound..<end.lowerBound])
    }

    /// The raw `descriptor_json` texts a plugin library's table holds (version 1 or 2), read by
    /// calling its entry point again with the host's own api table (a library may already be loaded
    /// in this test process, and keeps the api it was given).
    static func descriptors(of path: String) throws -> [String] {
        let handle = try #require(dlopen(path, RTLD_NOW | RTLD_LOCAL), "cannot load \(path)")
        let symbol = try #require(dlsym(handle, SUMI_PLUGIN_INIT_SYMBOL))
        let entry = unsafeBitCast(symbol, to: sumi_plugin_init_fn.self)
        var host = sumi_host()
        host.abi_version = SUMI_PLUGIN_ABI_VERSION
        host.size = UInt32(MemoryLayout<sumi_host>.size)
        host.api = PluginHostAPI.table
        var table: UnsafePointer<sumi_plugin>?
        #expect(entry(&host, &table) == 0)
        let raw = UnsafeRawPointer(try #require(table))
        switch raw.load(as: UInt32.self) {
        case 1:
            let plugin = raw.assumingMemoryBound(to: sumi_plugin_v1.self).pointee
            return (0..<Int(plugin.stage_count)).compactMap { plugin.stages?[$0].descriptor_json.map { String(cString: $0) } }
        default:
            // Stepped as the host steps them: by the size the first table declares (a plugin built
            // against an older header has smaller tables than this build's `sumi_stage`).
            let plugin = PluginTables.plugin(raw, declaredSize: Int(raw.load(fromByteOffset: 4, as: UInt32.self)))
            let stages = try PluginTables.entries(array: plugin.stages, list: plugin.stage_list,
                                                  count: Int(plugin.stage_count), baseSize: MemoryLayout<sumi_stage_v1>.size,
                                                  empty: sumi_stage(), what: "stage", place: path)
            return stages.compactMap { $0.copy.descriptor_json.map { String(cString: $0) } }
        }
    }

    /// Runs `jsonschema` on each document; the failures, by index.
    static func validate(_ documents: [String], schema: String, in folder: String) throws -> [Int: String] {
        try schema.write(toFile: folder + "/schema.json", atomically: true, encoding: .utf8)
        for (index, document) in documents.enumerated() {
            try document.write(toFile: folder + "/d\(index).json", atomically: true, encoding: .utf8)
        }
        let script = """
        import json, sys, jsonschema
        schema = json.load(open(sys.argv[1]))
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        for i, path in enumerate(sys.argv[2:]):
            for error in validator.iter_errors(json.load(open(path))):
                print(f"{i}\\t{error.message}")
        """
        try refuseOutsideProgramInCheck("python3")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, folder + "/schema.json"] + documents.indices.map { folder + "/d\($0).json" }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let problems = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "python3 jsonschema failed (make test-deps installs it): \(problems)")
        var failures: [Int: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            if parts.count == 2, let index = Int(parts[0]) { failures[index, default: ""] += String(parts[1]) + "; " }
        }
        return failures
    }

    @Test func everyExampleDescriptorFollowsTheSchema() throws {
        let fixtures = try PluginFixtures.get()
        var documents: [String] = []
        for library in [fixtures.pixelate, fixtures.sepia, try fixtures.example("contact-sheet"), try fixtures.example("ppm"),
                        try fixtures.v2Plugin("libv2-schema.so")] {
            documents += try Self.descriptors(of: library)
        }
        let rust = fixtures.root + "/.build/plugins/libinvert-rust.so"
        if FileManager.default.fileExists(atPath: rust) { documents += try Self.descriptors(of: rust) }
        #expect(documents.count >= 7)
        // What `sumi inspect --json` prints follows it too.
        documents.append(StageDescriptorJSON.encode(try StageDescriptorJSON.decode(text: documents[0]), origin: "/x.so").serialized())
        let folder = try TemporaryFolder.make("schema")
        let failures = try Self.validate(documents, schema: try Self.schema(root: fixtures.root), in: folder)
        #expect(failures.isEmpty, "\(failures.map { "\(documents[$0.key].prefix(60)): \($0.value)" })")
    }

    @Test func theSchemaRefusesWhatTheHostRefuses() throws {
        let fixtures = try PluginFixtures.get()
        let bad = [
            #"{"name": "x", "output": "vector"}"#,
            #"{"name": "Upper", "output": "image"}"#,
            #"{"name": "x", "output": "image", "inputs": [{"name": "in", "type": "picture"}]}"#,
            #"{"name": "x", "output": "image", "effect": "moves"}"#,
            #"{"name": "x", "output": "image", "colour": "red"}"#,
            #"{"name": "x", "output": "image", "params": [{"name": "p"}]}"#,
        ]
        let folder = try TemporaryFolder.make("schema-bad")
        let failures = try Self.validate(bad, schema: try Self.schema(root: fixtures.root), in: folder)
        #expect(failures.keys.sorted() == Array(bad.indices), "\(failures)")
        // The loader's decoder refuses the same kinds and effects.
        for text in [bad[0], bad[2], bad[3]] {
            #expect(throws: StageDescriptorJSON.Problem.self) { try StageDescriptorJSON.decode(text: text) }
        }
    }
}
