import Foundation
import SumiEngine
import SumiKit
import Testing

/// What ABI version 2 gained after its first layout (`Fixtures/abi_additions_plugin.c`): the entry
/// point's prototype, lists of table pointers, handles checked before use, `SUMI_API_HAS`, the
/// not-found status and messages of the side-data functions, and side-data keys a plugin registers.
@Suite(.serialized) struct PluginABIAdditionsTests {
    static func harness(_ name: String) throws -> StageHarness {
        let fixtures = try PluginFixtures.get()
        let registry = StageRegistry()
        try PluginLoader.loadLibrary(at: try fixtures.additionsPlugin("libabi-additions.so"), into: registry)
        return StageHarness(definition: try #require(registry.definition(named: name)))
    }

    static let input = Image(width: 2, height: 2, pixels: [UInt8](repeating: 200, count: 16))

    @Test func entryPointWithAnotherSignatureDoesNotCompile() throws {
        let fixtures = try PluginFixtures.get()
        let folder = fixtures.temp + "/prototype"
        try PluginFixtures.makeFolder(folder)
        let wrong = folder + "/wrong.c", right = folder + "/right.c"
        try "#include \"sumi_plugin.h\"\nSUMI_PLUGIN_EXPORT int32_t sumi_plugin_init(const sumi_host *host) { (void)host; return 0; }\n"
            .write(toFile: wrong, atomically: true, encoding: .utf8)
        try "#include \"sumi_plugin.h\"\nSUMI_PLUGIN_EXPORT int32_t sumi_plugin_init(const sumi_host *host, const sumi_plugin **out) { (void)host; (void)out; return 0; }\n"
            .write(toFile: right, atomically: true, encoding: .utf8)
        let error = try #require(throws: PluginFixtures.FixtureError.self) {
            try PluginFixtures.compileC(source: wrong, output: folder + "/wrong.so", root: fixtures.root)
        }
        #expect(error.description.contains("conflicting types for") && error.description.contains("sumi_plugin_init"))
        try PluginFixtures.compileC(source: right, output: folder + "/right.so", root: fixtures.root)
        #expect(FileManager.default.fileExists(atPath: folder + "/right.so"))
    }

    @Test func listsOfTablePointersWithMixedSizesLoad() throws {
        let fixtures = try PluginFixtures.get()
        let path = try fixtures.additionsPlugin("libabi-additions.so")
        try PluginLoader.loadLibrary(at: path, into: StageRegistry())
        let info = try #require(PluginLoader.library(at: canonical(path)))
        #expect(info.stages == ["abi-handles", "abi-tag", "abi-read", "abi-write"])
        #expect(info.formats == ["abif"])
    }

    /// A pointer kept from an earlier call, or one to the plugin's own data, is refused by every api
    /// function it reaches (before: the host read freed or foreign memory as its own object).
    @Test(arguments: ["stale", "garbage"])
    func staleAndGarbageHandlesAreErrors(mode: String) throws {
        let harness = try Self.harness("abi-handles")
        let copy = try harness.runImage(["mode": .string("ok")], inputs: ["in": .image(Self.input)])
        #expect(copy.pixels == Self.input.pixels)
        let error = try #require(throws: StageError.self) {
            try harness.run(["mode": .string(mode)], inputs: ["in": .image(Self.input)])
        }
        #expect(error.message == "plugin libabi-additions.so: \(mode) handle: image_pixels 2, kind 0, list_append 2, "
            + "read_side_data 2 (read_side_data: not a value of a call under way)")
    }

    @Test func registeredKeyTravelsByItsRule() throws {
        let tagged = try Self.harness("abi-tag").runImage([:], inputs: ["in": .image(Self.input)])
        #expect(tagged.metadata.sideData.bytes(named: "abi/tag") == Array("tagged".utf8))
        // Kept when pixel values change, dropped when pixels move or nobody says what happened.
        #expect(tagged.metadata.applying(.pixels).sideData.bytes(named: "abi/tag") == Array("tagged".utf8))
        #expect(tagged.metadata.applying(.geometry(.crop(x: 0, y: 0, width: 1, height: 1))).sideData.bytes(named: "abi/tag") == nil)
        #expect(tagged.metadata.applying(.unknown).sideData.bytes(named: "abi/tag") == nil)

        let reader = try Self.harness("abi-read")
        let found = try reader.runImage([:], inputs: ["in": .image(tagged)])
        #expect(found.pixel(x: 0, y: 0) == (6, UInt8(ascii: "t"), 0, 255))
        let absent = try reader.runImage([:], inputs: ["in": .image(Self.input)])
        #expect(absent.pixel(x: 0, y: 0) == (0, 0, 0, 255))
    }

    /// A plugin may not take a built-in key, nor register another plugin's key with another rule.
    @Test(arguments: [
        (#"TEST_KEY_NAME="icc-profile""#, "side-data key \"icc-profile\" is a built-in key"),
        (#"TEST_KEY_NAME="Bad Key""#, "side-data key \"Bad Key\" is malformed (lower-case letters, digits, '-', '.', '/', at most 64)"),
        ("TEST_KEY_ON_GEOMETRY=SUMI_SIDE_DATA_KEEP", "side-data key \"abi/tag\" is already registered by "),
    ])
    func sideDataKeysThatClashAreRefusedAtLoad(define: String, reason: String) throws {
        _ = try Self.harness("abi-tag")     // registers "abi/tag" (keep, drop) first
        let fixtures = try PluginFixtures.get()
        let name = "libabi-key-\(abs(define.hashValue)).so"
        let path = try fixtures.additionsPlugin(name, defines: [define])
        let error = try #require(throws: SumiError.self) { try PluginLoader.loadLibrary(at: path, into: StageRegistry()) }
        #expect(error.message.hasPrefix("plugin abi-additions (\(canonical(path))): \(reason)"), "\(error.message)")
    }

    @Test func sideDataFunctionsGiveMessages() throws {
        let unknownWrite = try #require(throws: StageError.self) {
            try Self.harness("abi-tag").run(["key": .string("nope")], inputs: ["in": .image(Self.input)])
        }
        #expect(unknownWrite.message.hasPrefix("plugin libabi-additions.so: set_side_data: unknown side data \"nope\""))
        #expect(unknownWrite.message.hasSuffix("registered by plugins: abi/tag"))
        let badOrientation = try #require(throws: StageError.self) {
            try Self.harness("abi-tag").run(["key": .string("exif-orientation"), "value": .string("xyz")],
                                            inputs: ["in": .image(Self.input)])
        }
        #expect(badOrientation.message == "plugin libabi-additions.so: set_side_data: side data \"exif-orientation\" takes 2 bytes: "
            + "an orientation 1...8, then 0 or 1")
        let unknownRead = try #require(throws: StageError.self) {
            try Self.harness("abi-read").run(["key": .string("nope")], inputs: ["in": .image(Self.input)])
        }
        #expect(unknownRead.message == "plugin libabi-additions.so: read_side_data: unknown side data \"nope\"")
    }
}
