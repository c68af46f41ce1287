import CSumiPlugin
import SumiEngine
@testable import SumiPluginSDK
import Testing

/// Written against the deprecated `BandProcessing` adapter, which plugins built before it keep using;
/// the conformance is declared deprecated too, so the adapter is tested without a warning.
@available(*, deprecated)
extension SDKBandTests.Halve: BandProcessing {}

/// The Swift SDK's band callbacks seen from the C side: which tables get them and what size they
/// declare, bands of varying height and padded stride giving the whole-image pixels, and Swift
/// errors (or calls out of order) coming back as `sumi_error` messages.
@Suite struct SDKBandTests {
    /// Halves every channel; throws on the band holding `failAt`, or in `beginBands` for a 1x1 image.
    /// A stage of the deprecated `BandProcessing` (its conformance below), which keeps working.
    struct Halve: Stage {
        static let descriptor = StageDescriptor(
            name: "halve", summary: "Halves every channel", inputs: [PortSpec(name: "in", accepts: .image)],
            output: .image, effect: .pixels)
        var failAt: Int?
        init(parameters: Parameters) throws {}
        init(failAt: Int?) { self.failAt = failAt }

        func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
            let input = try inputs.image(Port("in"))
            return .image(input.pixels.withUnsafeBufferPointer { source in
                Image(width: input.width, height: input.height) { Halve.kernel(source, into: $0) }
            })
        }
        func beginBands(width: Int, height: Int) throws {
            if width == 1 && height == 1 { throw StageError("too small to band") }
        }
        func processBand(_ input: ImageBand, into output: MutableImageBand) throws {
            if let failAt, input.firstRow <= failAt && failAt < input.firstRow + input.rowCount {
                throw StageError("band \(input.firstRow)..<\(input.firstRow + input.rowCount) refused")
            }
            for row in input.rowIndices { Halve.kernel(input[row], into: output[row]) }
        }
        static func kernel(_ source: UnsafeBufferPointer<UInt8>, into target: UnsafeMutableBufferPointer<UInt8>) {
            for i in source.indices { target[i] = source[i] / 2 }
        }
    }

    /// No band callbacks.
    struct Keep: Stage {
        static let descriptor = StageDescriptor(
            name: "keep", summary: "Keeps", inputs: [PortSpec(name: "in", accepts: .image)], output: .image)
        init(parameters: Parameters) throws {}
        func process(_ inputs: StageInputs, context: StageContext) throws -> Value { .image(try inputs.image(Port("in"))) }
    }

    /// A version 2 host with an api table of the right size (the callbacks tested here use none of it).
    nonisolated(unsafe) static let host: UnsafeMutablePointer<sumi_host> = {
        let api = UnsafeMutablePointer<sumi_api>.allocate(capacity: 1)
        api.initialize(to: sumi_api())
        api.pointee.size = UInt32(MemoryLayout<sumi_api>.size)
        let host = UnsafeMutablePointer<sumi_host>.allocate(capacity: 1)
        host.initialize(to: sumi_host())
        host.pointee.abi_version = SUMI_PLUGIN_ABI_VERSION
        host.pointee.size = UInt32(MemoryLayout<sumi_host>.size)
        host.pointee.api = UnsafePointer(api)
        return host
    }()

    /// The stage tables `stages` export to a version 2 host, stepped through by the size the first
    /// declares (as the host does).
    static func tables(_ stages: [any Stage.Type]) throws -> [sumi_stage] {
        var out: UnsafePointer<sumi_plugin>?
        let status = withUnsafeMutablePointer(to: &out) {
            SumiPlugin.export(name: "bands", version: "1.0.0", stages: stages, host: UnsafeRawPointer(host), into: $0)
        }
        try #require(status == 0)
        let plugin = try #require(out).pointee
        let first = try #require(plugin.stages)
        let stride = Int(UnsafeRawPointer(first).load(as: UInt32.self))
        return (0..<Int(plugin.stage_count)).map { index in
            let entry = UnsafeRawPointer(first) + index * stride
            var table = sumi_stage()
            let declared = Int(entry.load(as: UInt32.self))
            withUnsafeMutableBytes(of: &table) { $0.copyMemory(from: UnsafeRawBufferPointer(start: entry, count: min(declared, $0.count))) }
            return table
        }
    }

    static func message(_ error: sumi_error) -> String {
        withUnsafeBytes(of: error.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    static func emptyError() -> sumi_error {
        var error = sumi_error()
        error.size = UInt32(MemoryLayout<sumi_error>.size)
        return error
    }

    @Test func onlyBandStagesGetCallbacksAndAPluginWithoutThemKeepsTheFirstLayout() throws {
        let baseSize = MemoryLayout<sumi_stage>.offset(of: \sumi_stage.band_begin)!
        let plain = try Self.tables([Keep.self, Keep.self])
        #expect(plain.map(\.size) == [UInt32(baseSize), UInt32(baseSize)])
        #expect(plain.allSatisfy { $0.band_begin == nil && $0.band_process == nil && $0.band_end == nil && $0.process != nil })
        let mixed = try Self.tables([Keep.self, Halve.self, Keep.self])
        #expect(mixed.map(\.size) == Array(repeating: UInt32(MemoryLayout<sumi_stage>.size), count: 3))
        #expect(mixed[0].band_begin == nil && mixed[2].band_process == nil && mixed[2].create != nil)
        #expect(mixed[1].band_begin != nil && mixed[1].band_process != nil && mixed[1].band_end != nil)
        let names = mixed.map { String(cString: $0.descriptor_json!) }
        #expect(names[0].contains("\"keep\"") && names[1].contains("\"halve\"") && names[2].contains("\"keep\""))
    }

    /// Runs `stage`'s band callbacks over `image` in bands of `heights` (cycled), with `padding`
    /// bytes after each row; returns the status and message of the first failure, or the pixels.
    static func runBands(_ stage: Halve, _ image: Image, heights: [Int], padding: Int)
        throws -> (status: Int32, message: String, pixels: [UInt8]) {
        let table = try #require(try tables([Halve.self]).first)
        let instance = Unmanaged.passRetained(ExportedInstanceV2(stage: stage, descriptor: Halve.descriptor, api: Self.host.pointee.api!)).toOpaque()
        defer { table.destroy?(instance) }
        let stride = image.width * 4 + padding
        var error = emptyError()
        var outWidth: Int32 = 0, outHeight: Int32 = 0
        let begun = table.band_begin!(instance, Int32(image.width), Int32(image.height), &outWidth, &outHeight, &error)
        guard begun == 0 else { return (begun, message(error), []) }
        #expect(outWidth == Int32(image.width) && outHeight == Int32(image.height))
        var result = [UInt8](repeating: 0, count: image.pixels.count)
        var y = 0, band = 0
        while y < image.height {
            let rows = min(heights[band % heights.count], image.height - y)
            var input = [UInt8](repeating: 0xEE, count: stride * rows)
            var output = [UInt8](repeating: 0xEE, count: stride * rows)
            for r in 0..<rows {
                input.replaceSubrange(r * stride ..< r * stride + image.width * 4,
                                      with: image.pixels[(y + r) * image.width * 4 ..< (y + r + 1) * image.width * 4])
            }
            let status = input.withUnsafeBufferPointer { i in
                output.withUnsafeMutableBufferPointer { o in
                    table.band_process!(instance, i.baseAddress, o.baseAddress, Int32(y), Int32(rows), Int64(stride), &error)
                }
            }
            guard status == 0 else {
                var ignored = emptyError()
                _ = table.band_end!(instance, 0, &ignored)
                return (status, message(error), [])
            }
            for r in 0..<rows {
                #expect(output[r * stride + image.width * 4 ..< (r + 1) * stride].allSatisfy { $0 == 0xEE }, "padding written")
                result.replaceSubrange((y + r) * image.width * 4 ..< (y + r + 1) * image.width * 4,
                                       with: output[r * stride ..< r * stride + image.width * 4])
            }
            y += rows
            band += 1
        }
        let ended = table.band_end!(instance, 1, &error)
        return (ended, ended == 0 ? "" : message(error), result)
    }

    static func testImage(_ width: Int, _ height: Int) -> Image {
        Image(width: width, height: height, pixels: (0..<width * height * 4).map { UInt8(truncatingIfNeeded: $0 * 7 + $0 / 5) })
    }

    @Test(arguments: [[16], [3, 1, 5], [1], [2, 16, 7]])
    func bandsOfAnyHeightGiveTheWholeImagePixels(heights: [Int]) throws {
        let image = Self.testImage(13, 37)
        let whole = try StageHarness(Halve.self).runImage([:], inputs: ["in": .image(image)])
        let banded = try Self.runBands(Halve(failAt: nil), image, heights: heights, padding: 12)
        #expect(banded.status == 0, "\(banded.message)")
        #expect(banded.pixels == whole.pixels)
    }

    @Test func swiftErrorsBecomeMessagesAndCallsOutOfOrderAreRefused() throws {
        let failed = try Self.runBands(Halve(failAt: 20), Self.testImage(8, 30), heights: [6], padding: 0)
        #expect(failed.status == Int32(SUMI_ERROR_PROCESS.rawValue) && failed.message == "band 18..<24 refused", "\(failed.message)")
        let refused = try Self.runBands(Halve(failAt: nil), Self.testImage(1, 1), heights: [1], padding: 0)
        #expect(refused.status == Int32(SUMI_ERROR_PROCESS.rawValue) && refused.message == "too small to band")

        let table = try #require(try Self.tables([Halve.self]).first)
        let instance = Unmanaged.passRetained(ExportedInstanceV2(stage: Halve(failAt: nil), descriptor: Halve.descriptor, api: Self.host.pointee.api!)).toOpaque()
        defer { table.destroy?(instance) }
        var error = Self.emptyError()
        let row = [UInt8](repeating: 0, count: 16)
        var written = [UInt8](repeating: 0, count: 16)
        let early = table.band_process!(instance, row, &written, 0, 1, 16, &error)
        #expect(early == Int32(SUMI_ERROR_INTERNAL.rawValue) && Self.message(error).contains("before band_begin"))
        var noError = Self.emptyError()
        #expect(table.band_begin!(nil, 4, 1, nil, nil, &noError) == Int32(SUMI_ERROR_INTERNAL.rawValue))
    }

    /// The Sepia example — a `BandStage` exported by the SDK — through the C ABI and the host's own
    /// band loop (`PluginStageV2` as a row stage): `band_start`, `band_process` and `band_end` over a
    /// complete stream and over every ring pattern of the harness give the pixels of its
    /// whole-image `process` (the SDK's, derived from the same band body).
    @Test func sepiaBandsThroughTheHostGiveTheWholeImagePixels() throws {
        let fixtures = try PluginFixtures.get()
        let registry = StageRegistry()
        try PluginLoader.loadLibrary(at: fixtures.sepia, into: registry)
        let definition = try #require(registry.definition(named: "sepia"))
        #expect(PluginLoader.library(at: definition.origin)?.bandStages == ["sepia"])
        let harness = StageHarness(definition: definition)
        let image = Image(width: 97, height: 61) { pixels in
            for i in stride(from: 0, to: pixels.count, by: 4) {
                let alpha = UInt8(truncatingIfNeeded: 40 + i / 4 % 216)
                pixels[i + 3] = alpha
                for c in 0..<3 { pixels[i + c] = min(alpha, UInt8(truncatingIfNeeded: i * (c + 3) / 7)) }
            }
        }
        for amount in [1.0, 0.3] {
            let whole = try harness.runImage(["amount": .number(amount)], inputs: ["in": .image(image)])
            guard case .image(let banded) = try harness.runRows(["amount": .number(amount)], inputs: ["in": .image(image)]) else {
                Issue.record("the streamed path returned no image")
                continue
            }
            #expect(banded.width == 97 && banded.height == 61)
            #expect(banded.pixels == whole.pixels && whole.pixels != image.pixels)
            for pattern in RingPattern.standard {
                let run = try harness.runRing(["amount": .number(amount)], inputs: ["in": .image(image)], pattern: pattern)
                guard case .image(let ringed) = run.value else {
                    Issue.record("no image on \(pattern)")
                    continue
                }
                #expect(ringed.pixels == whole.pixels, "\(pattern)")
            }
        }
    }
}
