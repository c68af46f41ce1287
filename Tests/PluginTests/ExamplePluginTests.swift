import SumiEngine
import SumiKit
import Testing

/// The two example plugins, loaded through the host and run through `StageHarness` on real images.
@Suite struct ExamplePluginTests {
    /// An opaque test pattern with detail in every block.
    static func pattern(width: Int, height: Int) -> Image {
        Image(width: width, height: height) { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    pixels[i] = UInt8((x * 37 + y * 11) % 256)
                    pixels[i + 1] = UInt8((y * 23 + x * x) % 256)
                    pixels[i + 2] = UInt8((x * y * 7) % 256)
                    pixels[i + 3] = 255
                }
            }
        }
    }

    func load(_ path: String) throws -> StageRegistry {
        let registry = StageRegistry()
        try PluginLoader.loadLibrary(at: path, into: registry)
        return registry
    }

    @Test func pixelateDescriptorComesFromTheLibrary() throws {
        let fixtures = try PluginFixtures.get()
        let definition = try #require(try load(fixtures.pixelate).definition(named: "pixelate"))
        #expect(definition.origin == canonical(fixtures.pixelate))
        #expect(definition.descriptor.inputs == [PortSpec(name: "in", accepts: .image)])
        #expect(definition.descriptor.output == .image)
        let block = try #require(definition.descriptor.parameter(named: "block"))
        #expect(block.type == .integer)
        #expect(block.defaultValue == .integer(8))
        #expect(block.min == 1 && block.max == nil && !block.required)
        #expect(block.summary == "side of a block, in pixels")
    }

    @Test(arguments: [1, 4, 8])
    func pixelateMakesUniformBlocksOfTheMean(block: Int) throws {
        let fixtures = try PluginFixtures.get()
        let definition = try #require(try load(fixtures.pixelate).definition(named: "pixelate"))
        let input = Self.pattern(width: 21, height: 13)
        let params: [String: ParamValue] = block == 8 ? [:] : ["block": .integer(block)]
        let out = try StageHarness(definition: definition).runImage(params, inputs: ["in": .image(input)])
        #expect(out.width == 21 && out.height == 13)
        if block == 1 { #expect(out.pixels == input.pixels); return }
        #expect(out.pixels != input.pixels)
        for y0 in stride(from: 0, to: 13, by: block) {
            for x0 in stride(from: 0, to: 21, by: block) {
                let xs = x0..<min(21, x0 + block), ys = y0..<min(13, y0 + block)
                var sum = [0, 0, 0, 0]
                for y in ys { for x in xs {
                    let p = input.pixel(x: x, y: y)
                    sum[0] += Int(p.r); sum[1] += Int(p.g); sum[2] += Int(p.b); sum[3] += Int(p.a)
                } }
                let n = xs.count * ys.count
                let mean = sum.map { UInt8(($0 + n / 2) / n) }
                for y in ys { for x in xs {
                    let p = out.pixel(x: x, y: y)
                    #expect([p.r, p.g, p.b, p.a] == mean, "block at \(x0),\(y0), pixel \(x),\(y)")
                } }
            }
        }
    }

    @Test func sepiaDescriptorComesFromTheSwiftPlugin() throws {
        let fixtures = try PluginFixtures.get()
        let definition = try #require(try load(fixtures.sepia).definition(named: "sepia"))
        #expect(definition.origin == canonical(fixtures.sepia))
        #expect(definition.descriptor.summary == "Tones an image sepia")
        let amount = try #require(definition.descriptor.parameter(named: "amount"))
        #expect(amount.type == .number && amount.defaultValue == .number(1))
        #expect(amount.min == 0 && amount.max == 1)
    }

    @Test(arguments: [1.0, 0.5])
    func sepiaTonesPixelsByTheSepiaMatrix(amount: Double) throws {
        let fixtures = try PluginFixtures.get()
        let definition = try #require(try load(fixtures.sepia).definition(named: "sepia"))
        // Dark colours, so the tone never clips at 255.
        let input = Image(width: 3, height: 2) { pixels in
            let colours: [[UInt8]] = [[120, 20, 10], [10, 100, 30], [0, 0, 200], [60, 60, 60], [90, 40, 70], [0, 0, 0]]
            for (i, c) in colours.enumerated() {
                pixels[i * 4] = c[0]; pixels[i * 4 + 1] = c[1]; pixels[i * 4 + 2] = c[2]; pixels[i * 4 + 3] = 255
            }
        }
        let params: [String: ParamValue] = amount == 1 ? [:] : ["amount": .number(amount)]
        let out = try StageHarness(definition: definition).runImage(params, inputs: ["in": .image(input)])
        #expect(out.width == 3 && out.height == 2)
        #expect(out.pixels != input.pixels)
        for y in 0..<2 { for x in 0..<3 {
            let p = input.pixel(x: x, y: y), q = out.pixel(x: x, y: y)
            let (r, g, b) = (Double(p.r), Double(p.g), Double(p.b))
            let tone = [0.393 * r + 0.769 * g + 0.189 * b, 0.349 * r + 0.686 * g + 0.168 * b, 0.272 * r + 0.534 * g + 0.131 * b]
            let expected = zip([r, g, b], tone).map { (1 - amount) * $0 + amount * $1 }
            let got = [Double(q.r), Double(q.g), Double(q.b)]
            for c in 0..<3 { #expect(abs(got[c] - expected[c]) <= 0.51, "pixel \(x),\(y) channel \(c)") }
            #expect(q.a == 255)
            // At full amount every colour becomes a warm tone: red >= green >= blue.
            if amount == 1 { #expect(q.r >= q.g && q.g >= q.b) }
        } }
    }

    @Test func sepiaKeepsTranslucentPixelsPremultiplied() throws {
        let fixtures = try PluginFixtures.get()
        let definition = try #require(try load(fixtures.sepia).definition(named: "sepia"))
        let input = Image(width: 1, height: 1, pixels: [100, 100, 100, 100])
        let q = try StageHarness(definition: definition).runImage([:], inputs: ["in": .image(input)]).pixel(x: 0, y: 0)
        #expect(q.a == 100 && q.r <= 100 && q.g <= 100 && q.b <= 100)
        #expect(q.r > q.b)
    }

    @Test func pluginParameterErrorsReadLikeBuiltIns() throws {
        let fixtures = try PluginFixtures.get()
        let registry = try load(fixtures.sepia)
        try PluginLoader.loadLibrary(at: fixtures.pixelate, into: registry)
        let sepia = StageHarness(definition: try #require(registry.definition(named: "sepia")))
        let amountError = try #require(throws: StageError.self) { try sepia.make(["amount": .number(2)]) }
        #expect(amountError.parameter == "amount")
        #expect(amountError.isUsageError)
        #expect(amountError.message == "expected a number from 0 to 1, got 2")
        let pixelate = StageHarness(definition: try #require(registry.definition(named: "pixelate")))
        let blockError = try #require(throws: StageError.self) { try pixelate.make(["block": .integer(0)]) }
        #expect(blockError.parameter == "block")
        #expect(blockError.message == "expected an integer >= 1, got 0")
    }

    @Test func instancesRunConcurrently() async throws {
        let fixtures = try PluginFixtures.get()
        let registry = try load(fixtures.pixelate)
        try PluginLoader.loadLibrary(at: fixtures.sepia, into: registry)
        let input = Self.pattern(width: 64, height: 48)
        let pixelate = StageHarness(definition: try #require(registry.definition(named: "pixelate")))
        let sepia = StageHarness(definition: try #require(registry.definition(named: "sepia")))
        let expected = try [pixelate.runImage(inputs: ["in": .image(input)]).pixels,
                            sepia.runImage(inputs: ["in": .image(input)]).pixels]
        let results = try await withThrowingTaskGroup(of: (Int, PixelBuffer).self) { group in
            for i in 0..<8 {
                group.addTask {
                    let harness = i % 2 == 0 ? pixelate : sepia
                    return (i % 2, try harness.runImage(inputs: ["in": .image(input)]).pixels)
                }
            }
            var all: [(Int, PixelBuffer)] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 8)
        for (kind, pixels) in results { #expect(pixels == expected[kind]) }
    }
}
