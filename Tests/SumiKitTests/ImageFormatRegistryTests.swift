import SumiKit
import Synchronization
import Testing

/// The one registry every format goes through: the first registered wins its magic bytes, its
/// extensions and its name; a fallback is asked last whenever it came.
@Suite struct ImageFormatRegistryTests {
    static func codec(_ name: String, magic: [UInt8], extensions: [String], origin: String = "builtin",
                      decodes: Bool = true, encodes: Bool = false, fallback: Bool = false) -> ImageCodec {
        ImageCodec(name: name, extensions: extensions, origin: origin, magic: magic,
                   decoder: decodes ? ImageCodec.Decoder(whole: { _ in TestImage.noise(1, 1) }) : nil,
                   encoder: encodes ? ImageCodec.Encoder(parameters: [], whole: { _, _ in Array(name.utf8) }) : nil,
                   isFallback: fallback)
    }

    @Test func theFirstRegisteredWinsItsMagicExtensionsAndName() {
        let registry = ImageFormatRegistry()
        var warnings: [String] = []
        registry.register([Self.codec("one", magic: [1, 2], extensions: ["one", "uno"], encodes: true)], warn: { warnings.append($0) })
        registry.register([Self.codec("two", magic: [1, 2, 3], extensions: ["two", "uno"], origin: "/p/two.so", encodes: true),
                           Self.codec("ONE", magic: [9, 9], extensions: ["won"], origin: "/p/one.so")], warn: { warnings.append($0) })
        #expect(registry.decoder(for: [1, 2, 3, 4])?.name == "one")
        let two = registry.codec(named: "two")
        #expect(two?.decoder == nil && two?.extensions == ["two"])
        #expect(registry.encoder(forExtension: "UNO")?.name == "one" && registry.encoder(forExtension: "two")?.name == "two")
        #expect(registry.codecs.map(\.name) == ["one", "two"])
        #expect(warnings.count == 3)
        #expect(warnings.contains { $0.contains("\"two\" claims the magic bytes of the built-in ONE format") })
        #expect(warnings.contains { $0.contains(".uno") })
        #expect(warnings.contains { $0.contains("named \"ONE\" is registered already") })
        #expect(registry.pluginCodecs.map(\.name) == ["two"])
    }

    @Test func aFallbackIsAskedLastAndTakesNothing() {
        let registry = ImageFormatRegistry()
        var warnings: [String] = []
        registry.register([Self.codec("anything", magic: [], extensions: [], fallback: true),
                           Self.codec("png", magic: [0x89, 0x50], extensions: ["png"])], warn: { warnings.append($0) })
        registry.register([Self.codec("mine", magic: [7, 7], extensions: ["mine"], origin: "/p/mine.so")], warn: { warnings.append($0) })
        #expect(warnings.isEmpty)
        #expect(registry.codecs.map(\.name) == ["png", "mine", "anything"])
        #expect(registry.decoder(for: [7, 7, 0])?.name == "mine")
        #expect(registry.decoder(for: [0x89, 0x50])?.name == "png")
        #expect(registry.decoder(for: [5])?.name == "anything")
        #expect(registry.decodes(fileExtension: "MINE") && !registry.decodes(fileExtension: "gif"))
    }

    @Test func namesAliasesAndAvailability() {
        let registry = ImageFormatRegistry()
        let loads = Mutex(false)
        var jpeg = Self.codec("jpeg", magic: [0xFF, 0xD8], extensions: ["jpg", "jpeg"], encodes: true)
        jpeg.aliases = ["jpg"]
        jpeg.available = { _ in loads.withLock { $0 } }
        registry.register([jpeg, Self.codec("gif", magic: [0x47], extensions: ["gif"])], warn: { _ in })
        #expect(registry.encoder(named: "JPG")?.name == "jpeg" && registry.encoder(named: "gif") == nil)
        #expect(registry.codec(named: "gif")?.can(encode: false) == true)
        #expect(registry.codec(named: "jpeg")?.can(encode: true) == false)
        loads.withLock { $0 = true }
        #expect(registry.codec(named: "jpeg")?.can(encode: true) == true)
        #expect(registry.writableNames == ["jpeg"])
    }
}
