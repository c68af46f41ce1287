import Foundation
import Testing

/// Swift plugin stages with band callbacks (`BandStage`, and the deprecated `BandProcessing` adapter, in SumiPluginSDK): `decode → sepia →
/// encode` streams through the Swift example band by band and gives 0.2's bytes (`Golden`), keeps
/// memory far below one whole frame, and an error thrown by a Swift band stops the
/// run with its message and no output file. `make test` builds the example plugins into
/// `.build/plugins` first.
@Suite struct SwiftPluginBandTests {
    static let folder = CLI.root + "/.build/plugins"
    static let environment = ["SUMI_PLUGIN_PATH": folder]

    func requireSepia() throws {
        try #require(FileManager.default.fileExists(atPath: "\(Self.folder)/libSepiaPlugin.so"),
                     "run `make examples` first: libSepiaPlugin.so is missing")
    }

    /// 0.2's outputs of the sepia plugin (`Golden`).
    static let references: [String: String] = [
        "sepia-out.png": "04b7de771a798e782cfa6cdfe59329ee18b72f45280bbbd2673b668e8f65f6b3",
        "sepia-out.jpg": "912c2bb5f8a43b630d6d44474c20019ccf5056893969b2d2ad0095c8e8fbc4bf",
        "sepia-photo.jpg": "11f1c08a65e095273466bf4b5014ec361850c6de924023b4e561bea98c7e6e72",
        "sepia-photo.png": "ba57f5d3058e6c6c3aa2ad243a4da2352bff9f9705715a80a2c55a8dd0f98fda",
        "sepia-translucent.png": "0646f6e1012df1b873d26395c7e1c285e262593bbe162c54b98b28403fc1685b",
        "sepia-big.jpg": "0db060422ca4236604f5d3fab82080ec60b0395fd249e48a24ae68c69dbe8bcb"
    ]

    @Test func sepiaStreamsAndItsBandsGiveTheReferenceBytes() throws {
        try requireSepia()
        let dir = try CLI.temporaryFolder("swift-bands")
        let manifest = try PluginBandTests.manifest(dir, stage: "sepia")
        let inspect = try CLI.run(["inspect", "sepia"], environment: Self.environment)
        #expect(inspect.stdout.contains("plugin ABI 2, band callbacks: streams"), "\(inspect.stdout)")
        // 1200x801: the last band is short; a PNG with translucent pixels checks premultiplied
        // colour in both paths; JPEG and PNG decoders stream different band heights.
        let png = "\(dir)/photo.png", translucent = "\(dir)/translucent.png"
        _ = CLI.tool("/usr/bin/convert", [Fixtures.photo, "-resize", "1200x", png])
        _ = CLI.tool("/usr/bin/convert", [png, "-alpha", "set", "-channel", "A", "-fx", "i/w", "+channel", translucent])
        for (input, output) in [(png, "out.png"), (png, "out.jpg"), (Fixtures.photo, "photo.jpg"),
                                (Fixtures.photo, "photo.png"), (translucent, "translucent.png")] {
            let r = try CLI.run(["run", manifest, "-i", input, "-o", "\(dir)/streamed-\(output)"], environment: Self.environment)
            #expect(r.status == 0, "\(r.stderr)")
            Golden.expect("sepia-\(output)", at: "\(dir)/streamed-\(output)", in: Self.references)
        }
        // The toning really happened: pure sepia has red above green above blue on the grey PNG.
        let grey = "\(dir)/grey.png"
        _ = CLI.tool("/usr/bin/convert", ["-size", "40x40", "xc:#808080", grey])
        let r = try CLI.run(["run", manifest, "-i", grey, "-o", "\(dir)/grey-out.png"], environment: Self.environment)
        #expect(r.status == 0, "\(r.stderr)")
        let rgb = try #require(PluginBandTests.rgb("\(dir)/grey-out.png"))
        // 128 * (0.393 + 0.769 + 0.189) = 172.9, 128 * 1.203 = 154.0, 128 * 0.937 = 119.9.
        #expect(rgb.count == 40 * 40 * 3 && Array(rgb.prefix(3)) == [173, 154, 120], "\(Array(rgb.prefix(3)))")
    }

    @Test func streamingKeepsMemoryFarBelowAWholeFrame() throws {
        try requireSepia()
        // 6000x4004: one RGBA frame is 96 MB (0.2's whole-image path held the input and the output,
        // over 190 MB); streamed, far less than one frame.
        let dir = try CLI.temporaryFolder("swift-bands-memory")
        let big = "\(dir)/big.jpg"
        _ = CLI.tool("/usr/bin/vips", ["resize", Fixtures.photo, "\(big)[Q=90]", "2"])
        #expect(CLI.identify(big).map { ($0.width, $0.height) } ?? (0, 0) == (6000, 4004))
        let manifest = try PluginBandTests.manifest(dir, stage: "sepia")
        func peak(_ output: String) throws -> Int {
            let peak = "\(dir)/peak-\(output).txt"
            _ = CLI.tool("/usr/bin/env", ["SUMI_PLUGIN_PATH=\(Self.folder)", "/usr/bin/time", "-f", "%M", "-o", peak,
                                                        CLI.binary, "run", manifest, "-i", big, "-o", "\(dir)/\(output)", "--quiet"])
            #expect(CLI.identify("\(dir)/\(output)").map { ($0.width, $0.height) } ?? (0, 0) == (6000, 4004))
            return Int(String(decoding: try Data(contentsOf: URL(fileURLWithPath: peak)), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
        let streamed = try peak("streamed.jpg")
        #expect(streamed > 0 && streamed < 100_000, "peak RSS \(streamed) KB")
        Golden.expect("sepia-big.jpg", at: "\(dir)/streamed.jpg", in: Self.references)
    }

    @Test func anErrorThrownByASwiftBandFailsTheRunWithItsMessageAndNoOutput() throws {
        let dir = try CLI.temporaryFolder("swift-bands-fail")
        let plugins = try Self.buildRefusingPlugin(in: dir)
        let environment = ["SUMI_PLUGIN_PATH": plugins]
        // One streaming stage and one that does not share the plugin's stage table.
        let refuse = try CLI.run(["inspect", "band-refuse"], environment: environment)
        #expect(refuse.status == 0 && refuse.stdout.contains("band callbacks: streams"), "\(refuse.stdout) \(refuse.stderr)")
        let copy = try CLI.run(["inspect", "whole-copy"], environment: environment)
        #expect(copy.status == 0 && copy.stdout.contains("plugin ABI 2") && !copy.stdout.contains("band callbacks"),
                "\(copy.stdout) \(copy.stderr)")
        let manifest = try PluginBandTests.manifest(dir, stage: "band-refuse")
        let png = "\(dir)/photo.png"
        _ = CLI.tool("/usr/bin/convert", [Fixtures.photo, png])
        for input in [Fixtures.photo, png] {
            for output in ["out.jpg", "out.png"] {
                let r = try CLI.run(["run", manifest, "-i", input, "-o", "\(dir)/\(output)"], environment: environment)
                #expect(r.status == 1, "\(input) -> \(output): \(r.status) \(r.stderr)")
                #expect(r.stderr.contains("stages[1] (band-refuse): plugin libBandRefuse.so: band at row 1000 refused"),
                        "\(r.stderr)")
                #expect(!r.stderr.contains("stopped by a failure"), "\(r.stderr)")
            }
        }
        // The stage after the streaming one in the table is read at the right place and runs.
        let copyManifest = try PluginBandTests.manifest(dir, stage: "whole-copy")
        let copied = try CLI.run(["run", copyManifest, "-i", png, "-o", "\(dir)/copy.png"], environment: environment)
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(PluginBandTests.rgb("\(dir)/copy.png") == PluginBandTests.rgb(png))
        try FileManager.default.removeItem(atPath: "\(dir)/copy.png")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("out") }
        #expect(left.isEmpty, "\(left)")
    }

    /// Builds a Swift plugin package (`BandRefuse`, on SumiPluginSDK) in `dir` and returns the
    /// folder holding only its library.
    static func buildRefusingPlugin(in dir: String) throws -> String {
        let package = "\(dir)/BandRefuse"
        try FileManager.default.createDirectory(atPath: "\(package)/Sources/BandRefuse", withIntermediateDirectories: true)
        try Fixtures.write(Array("""
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(
                name: "BandRefuse",
                products: [.library(name: "BandRefuse", type: .dynamic, targets: ["BandRefuse"])],
                dependencies: [.package(name: "Sumi", path: "\(CLI.root)")],
                targets: [.target(name: "BandRefuse", dependencies: [.product(name: "SumiPluginSDK", package: "Sumi")],
                                  linkerSettings: [.unsafeFlags(["-Xlinker", "-Bsymbolic"])])],
                swiftLanguageModes: [.v6]
            )
            """.utf8), to: "\(package)/Package.swift")
        try Fixtures.write(Array(refusingPluginSource.utf8), to: "\(package)/Sources/BandRefuse/BandRefuse.swift")
        let scratch = "\(package)/.build"
        let built = CLI.tool("/usr/bin/env", ["swift", "build", "--package-path", package, "--scratch-path", scratch,
                                              "--product", "BandRefuse"])
        try #require(built != nil, "the Swift test plugin did not build")
        let plugins = "\(dir)/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(scratch)/debug/libBandRefuse.so", toPath: "\(plugins)/libBandRefuse.so")
        try FileManager.default.removeItem(atPath: package)
        return plugins
    }

    /// `band-refuse` copies whole images but throws on the band holding row 1000 (and checks that
    /// its bands come in order, each row once); `whole-copy` copies whole images only.
    static let refusingPluginSource = #"""
    import Synchronization
    import SumiPluginSDK

    /// The row the next band must start at (band state lives in a class: a stage is a value).
    final class BandOrder: Sendable {
        let next = Mutex(0)
    }

    /// Written against the deprecated `BandProcessing` adapter (its conformance, deprecated too, below).
    struct BandRefuse: Stage {
        static let descriptor = StageDescriptor(
            name: "band-refuse", summary: "Refuses a middle band", inputs: [PortSpec(name: "in", accepts: .image)],
            output: .image, effect: .pixels)
        let order = BandOrder()
        init(parameters: Parameters) throws {}
        func process(_ inputs: StageInputs, context: StageContext) throws -> Value { .image(try inputs.image(Port("in"))) }
        func beginBands(width: Int, height: Int) throws { order.next.withLock { $0 = 0 } }
        func processBand(_ input: ImageBand, into output: MutableImageBand) throws {
            try order.next.withLock { next in
                guard input.firstRow == next else { throw StageError("band at row \(input.firstRow), expected \(next)") }
                next += input.rowCount
            }
            if input.firstRow <= 1000 && 1000 < input.firstRow + input.rowCount {
                throw StageError("band at row 1000 refused")
            }
            for row in input.rowIndices {
                let source = input[row], target = output[row]
                for i in source.indices { target[i] = source[i] }
            }
        }
    }

    @available(*, deprecated)
    extension BandRefuse: BandProcessing {}

    struct WholeCopy: Stage {
        static let descriptor = StageDescriptor(
            name: "whole-copy", summary: "Copies", inputs: [PortSpec(name: "in", accepts: .image)],
            output: .image, effect: .pixels)
        init(parameters: Parameters) throws {}
        func process(_ inputs: StageInputs, context: StageContext) throws -> Value { .image(try inputs.image(Port("in"))) }
    }

    @_cdecl("sumi_plugin_init")
    public func sumiPluginInit(_ host: UnsafeRawPointer?, _ out: UnsafeMutableRawPointer?) -> Int32 {
        SumiPlugin.export(name: "band-refuse", version: "1.0.0", stages: [BandRefuse.self, WholeCopy.self],
                          host: host, into: out)
    }
    """#
}
