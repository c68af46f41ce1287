import Synchronization
import Foundation
import SumiEngine
import SumiKit
import Testing

/// ABI version 2 through the loader: every value kind crosses, typed parameters, side data, vector
/// layers drawn at the consumer's scale, and every way a plugin can break the rules — each a clear
/// error naming the plugin, never a crash.
@Suite struct PluginABIv2Tests {
    static func registry(_ library: String) throws -> StageRegistry {
        let registry = StageRegistry()
        try PluginLoader.loadLibrary(at: library, into: registry)
        return registry
    }

    static func harness(_ registry: StageRegistry, _ name: String) throws -> StageHarness {
        StageHarness(definition: try #require(registry.definition(named: name)))
    }

    static func solid(_ width: Int, _ height: Int, _ rgba: [UInt8]) -> Image {
        Image(width: width, height: height, pixels: Array((0..<(width * height)).map { _ in rgba }.joined()))
    }

    @Test func tableGivesNameVersionLicenceAndDescription() throws {
        let fixtures = try PluginFixtures.get()
        let path = try fixtures.v2Plugin("libv2-table.so")
        _ = try Self.registry(path)
        let info = try #require(PluginLoader.library(at: canonical(path)))
        #expect(info.abiVersion == 2 && info.name == "v2-test" && info.version == "2.0.1")
        #expect(info.licence == "Apache-2.0" && info.description == "exercises ABI version 2")
        #expect(info.stages == ["v2-probe", "v2-disc", "v2-misbehave"])
    }

    /// A plugin built with the first version 2 header has a shorter stage table (no band
    /// callbacks): the host steps through its stage array by the declared size and runs it as before.
    @Test func firstVersion2LayoutWithoutBandCallbacksStillLoadsAndRuns() throws {
        let fixtures = try PluginFixtures.get()
        let path = try fixtures.v2Plugin("libv2-first-layout.so", defines: ["TEST_FIRST_V2_LAYOUT"])
        let registry = try Self.registry(path)
        let info = try #require(PluginLoader.library(at: canonical(path)))
        #expect(info.stages == ["v2-probe", "v2-disc", "v2-misbehave"])
        let base = Self.solid(4, 3, [10, 20, 30, 255])
        let out = try Self.harness(registry, "v2-probe").runImage(
            ["i": .integer(42), "li": .list([.integer(5)])],
            inputs: ["base": .image(base), "over": .image(Self.solid(7, 5, [0, 0, 0, 0])),
                     "list": .images([Self.solid(1, 1, [0, 0, 0, 255])])])
        #expect(out.pixels == base.pixels && out.width == 4 && out.height == 3)
        // The third stage sits at 2 × the short size: read there, its descriptor and callbacks work.
        let misbehave = try #require(registry.definition(named: "v2-misbehave"))
        #expect(misbehave.descriptor.name == "v2-misbehave")
    }

    @Test func everyKindCrossesWithTypedParametersAndSideData() throws {
        let fixtures = try PluginFixtures.get()
        let registry = try Self.registry(try fixtures.v2Plugin("libv2-probe.so"))
        var base = Self.solid(4, 3, [10, 20, 30, 255])
        base.metadata.iccProfile = [1, 2, 3, 4, 5]
        base.metadata.exif = [9, 9]
        let list = Value.images([Self.solid(1, 1, [0, 0, 0, 255]), Self.solid(2, 2, [0, 0, 0, 255])])
        let out = try Self.harness(registry, "v2-probe").runImage(
            ["i": .integer(42), "li": .list([.integer(5)])],
            inputs: ["base": .image(base), "over": .image(Self.solid(7, 5, [0, 0, 0, 0])), "list": list])
        #expect(out.pixels == base.pixels && out.width == 4 && out.height == 3)
        let text = String(decoding: try #require(out.metadata.xmp), as: UTF8.self)
        #expect(text == "n=1.5 i=42 b=1 s=hi p=/tmp/x c=16,32,48,255 z=30x40 pt=5,6 r=1,2,3,4 li=1:5 "
                + "either=1:auto given-i=1 wrong-type=1 list=2 layer=7x5 vector=0 icc=5")
        // Effect "pixels": the base's entries are kept; the plugin's own entries are added.
        #expect(out.metadata.iccProfile == [1, 2, 3, 4, 5] && out.metadata.exif == [9, 9])
        #expect(out.metadata.captureRects == [Rect(x: 1, y: 2, width: 3, height: 4)])
    }

    @Test func vectorLayerIsDrawnSharpAtTheConsumersScaleAndFreedOnce() throws {
        let fixtures = try PluginFixtures.get()
        let path = try fixtures.v2Plugin("libv2-disc.so")
        let registry = try Self.registry(path)
        let alive = try Self.aliveCounter(path)
        do {
            let value = try Self.harness(registry, "v2-disc").run(["radius": .number(10)])
            guard case .layer(let layer) = value else { Issue.record("expected a layer, got \(value.kind)"); return }
            #expect(layer.content.size == Size(width: 20, height: 20))
            #expect(alive() == 1)
            let small = try layer.content.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0))
            let large = try layer.content.rasterize(scaleX: 8, scaleY: 8, phase: Point(x: 0, y: 0))
            #expect(small.width == 20 && small.height == 20 && large.width == 160 && large.height == 160)
            #expect(large.pixel(x: 80, y: 80) == (0, 0, 255, 255) && large.pixel(x: 2, y: 2).a == 0)
            // Drawn at scale 8, the edge stays about one pixel wide (an 8x upscaled bitmap's would be ~8).
            let partial = (0..<160).filter { x in (1...254).contains(large.pixel(x: x, y: 80).a) }.count
            #expect(partial <= 4, "\(partial) partially covered pixels across the middle row")
        }
        #expect(alive() == 0, "the plugin's free_user_data runs when the last copy of the layer goes away")
    }

    @Test func vectorLayerThatFailsToDrawIsAnErrorWithItsMessage() throws {
        let fixtures = try PluginFixtures.get()
        let registry = try Self.registry(try fixtures.v2Plugin("libv2-disc-fail.so"))
        let value = try Self.harness(registry, "v2-disc").run(["fail-above": .number(2)])
        guard case .layer(let layer) = value else { Issue.record("expected a layer"); return }
        _ = try layer.content.rasterize(scaleX: 2, scaleY: 2, phase: Point(x: 0, y: 0))
        let error = try #require(throws: StageError.self) {
            try layer.content.rasterize(scaleX: 4, scaleY: 4, phase: Point(x: 0, y: 0))
        }
        #expect(error.message == "plugin libv2-disc-fail.so: drawing its layer at scale 4x4 failed: cannot draw above scale 2")
    }

    @Test(arguments: [
        ("wrong-kind", "plugin libv2-bad.so: the plugin returned a list of images, its descriptor declares image output"),
        ("wrong-size", "plugin libv2-bad.so: the plugin returned a 5x3 image for a 4x3 input, but declares \"effect\": \"pixels\" (same size)"),
        ("no-output", "plugin libv2-bad.so: the plugin returned no value (process left *result empty)"),
        ("foreign", "plugin libv2-bad.so: the plugin returned a value that is not one of this call's"),
        ("fail", "plugin libv2-bad.so: the input is too dull"),
    ])
    func brokenResultsAreRunErrors(mode: String, message: String) throws {
        let fixtures = try PluginFixtures.get()
        let registry = try Self.registry(try fixtures.v2Plugin("libv2-bad.so"))
        let harness = try Self.harness(registry, "v2-misbehave")
        let input = Value.image(Self.solid(4, 3, [1, 2, 3, 255]))
        let error = try #require(throws: StageError.self) { try harness.run(["mode": .string(mode)], inputs: ["in": input]) }
        #expect(error.message == message && !error.isUsageError)
        let fine = try harness.runImage(["mode": .string("ok")], inputs: ["in": input])
        #expect(fine.width == 4 && fine.height == 3)
    }

    @Test(arguments: [
        ("TEST_DUPLICATE_PORTS", "stage \"v2-lying\" has two inputs named \"in\""),
        ("TEST_PIXELS_LAYER", "stage \"v2-lying\" declares \"effect\": \"pixels\", which needs an image first input and an image output"),
        ("TEST_UNKNOWN_KIND", "malformed descriptor for stage #3"),
        ("TEST_PARTIAL_BANDS", "stage \"v2-disc\" sets some band callbacks but not all of band_begin, band_process and band_end"),
        ("TEST_BANDS_ON_LAYER", "stage \"v2-disc\" has band callbacks, which need exactly one image input and an image output"),
    ])
    func descriptorThatLiesAboutItsPortsIsRefusedAtLoad(define: String, reason: String) throws {
        let fixtures = try PluginFixtures.get()
        let path = try fixtures.v2Plugin("libv2-\(define).so", defines: [define])
        let registry = StageRegistry()
        let error = try #require(throws: SumiError.self) { try PluginLoader.loadLibrary(at: path, into: registry) }
        #expect(error.exitCode == 2 && error.message.contains(reason), "\(error.message)")
        #expect(registry.all.isEmpty, "all or none: no stage of a refused library is registered")
    }

    @Test func initCanSayWhyItFailed() throws {
        let fixtures = try PluginFixtures.get()
        let path = try fixtures.v2Plugin("libv2-init.so", defines: ["TEST_INIT_FAIL"])
        let error = try #require(throws: SumiError.self) { try PluginLoader.loadLibrary(at: path, into: StageRegistry()) }
        #expect(error.message == "plugin \(canonical(path)) failed to initialise: the licence file is missing")
    }

    @Test func hardLinkInAnotherFolderIsTheSameLibrary() throws {
        let fixtures = try PluginFixtures.get()
        let path = try fixtures.v2Plugin("libv2-linked.so", defines: ["TEST_NAME_SUFFIX=\"-linked\""])
        let first = try fixtures.folder("linked-a", [])
        let second = try fixtures.folder("linked-b", [])
        try FileManager.default.linkItem(atPath: path, toPath: first + "/liba.so")
        try FileManager.default.linkItem(atPath: path, toPath: second + "/libb.so")
        let registry = StageRegistry()
        var warnings: [String] = []
        try PluginLoader.loadFolder(first, into: registry) { warnings.append($0) }
        try PluginLoader.loadFolder(second, into: registry) { warnings.append($0) }
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(registry.all.map(\.descriptor.name) == ["v2-disc-linked", "v2-misbehave-linked", "v2-probe-linked"])
        #expect(registry.brokenLibraries.isEmpty)
    }

    @Test func contactSheetReducesAListToOneImage() throws {
        let fixtures = try PluginFixtures.get()
        let registry = try Self.registry(try fixtures.example("contact-sheet"))
        let red = Self.solid(20, 10, [255, 0, 0, 255]), green = Self.solid(10, 20, [0, 255, 0, 255])
        let blue = Self.solid(10, 10, [0, 0, 255, 255])
        let sheet = try Self.harness(registry, "contact-sheet").runImage(
            ["columns": .integer(2), "cell": .size(Size(width: 10, height: 10)), "gap": .integer(2),
             "background": .color(Color(red: 255, green: 255, blue: 255))],
            inputs: ["in": .images([red, green, blue])])
        // 2 columns x 2 rows of 10x10 cells, 2 px gaps: 26x26.
        #expect(sheet.width == 26 && sheet.height == 26)
        // red 20x10 → 10x5, centred vertically in cell (2,2): rows 4..<9
        #expect(sheet.pixel(x: 7, y: 6) == (255, 0, 0, 255) && sheet.pixel(x: 7, y: 3) == (255, 255, 255, 255))
        // green 10x20 → 5x10, centred horizontally in cell (14,2): columns 16..<21
        #expect(sheet.pixel(x: 18, y: 7) == (0, 255, 0, 255) && sheet.pixel(x: 15, y: 7) == (255, 255, 255, 255))
        #expect(sheet.pixel(x: 7, y: 19) == (0, 0, 255, 255))
        #expect(sheet.pixel(x: 19, y: 19) == (255, 255, 255, 255) && sheet.pixel(x: 0, y: 0) == (255, 255, 255, 255))
        #expect(sheet.metadata.knownOpaque)
    }

    @Test func farbfeldDecoderHonoursTheSizeHint() throws {
        let fixtures = try PluginFixtures.get()
        let registry = try Self.registry(try fixtures.example("farbfeld"))
        let bytes = Self.farbfeld(width: 64, height: 32) { x, _ in x < 32 ? [65535, 0, 0, 65535] : [0, 0, 65535, 32768] }
        let format = try #require(registry.formats.decoder(for: bytes))
        #expect(format.name == "farbfeld" && format.extensions == ["ff", "farbfeld"])
        let decoder = try #require(format.decoder)
        let warned = Mutex<[String]>([])
        func decode(_ bytes: [UInt8], _ sizeHint: ((Size) -> Size?)?) throws -> Image {
            try decoder.whole(ImageCodec.DecodeRequest(bytes: bytes, name: "in.ff", sizeHint: sizeHint,
                                                       warn: { message in warned.withLock { $0.append(message) } }))
        }
        let full = try decode(bytes, nil)
        #expect(full.width == 64 && full.height == 32 && full.metadata.sourceFormat == "farbfeld")
        #expect(full.pixel(x: 0, y: 0) == (255, 0, 0, 255) && full.pixel(x: 40, y: 5) == (0, 0, 128, 128))
        #expect(warned.withLock { $0 }.isEmpty)
        let reduced = try decode(bytes, { _ in Size(width: 16, height: 8) })
        let warnings = warned.withLock { $0 }
        #expect(reduced.width == 16 && reduced.height == 8 && warnings.count == 1 && warnings.first?.hasPrefix("in.ff: ") == true)
        #expect(reduced.pixel(x: 0, y: 0) == (255, 0, 0, 255) && reduced.pixel(x: 12, y: 4) == (0, 0, 128, 128))
        let truncated = try #require(throws: StageError.self) { try decode(Array(bytes.prefix(100)), nil) }
        #expect(truncated.message.contains("truncated farbfeld data"))
    }

    /// A farbfeld file: 16-bit big-endian straight RGBA.
    static func farbfeld(width: Int, height: Int, _ pixel: (Int, Int) -> [UInt16]) -> [UInt8] {
        var bytes = Array("farbfeld".utf8)
        for value in [UInt32(width), UInt32(height)] { bytes += withUnsafeBytes(of: value.bigEndian, Array.init) }
        for y in 0..<height {
            for x in 0..<width { for channel in pixel(x, y) { bytes += [UInt8(channel >> 8), UInt8(channel & 0xFF)] } }
        }
        return bytes
    }

    /// The test plugin's count of disc layers not yet freed.
    static func aliveCounter(_ path: String) throws -> () -> Int32 {
        let handle = try #require(dlopen(path, RTLD_NOW | RTLD_NOLOAD))
        let symbol = try #require(dlsym(handle, "test_disc_layers_alive"))
        let function = unsafeBitCast(symbol, to: (@convention(c) () -> Int32).self)
        return { function() }
    }
}
