import Foundation
import SumiCodecs
import SumiKit
import Testing
@testable import SumiFilters

/// The filters against outside references on two real photos — the sample photo (3000×2002) and
/// Pillow's `flower.jpg` — decoded once here and handed to every tool as the same PNG: libvips'
/// `vips gaussblur`, Pillow's `ImageFilter`/`ImageEnhance` (python3) and ImageMagick's `convert`.
@Suite(.serialized) struct FiltersReferenceTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let photos = [
        folder.appendingPathComponent("../../pipelines/samples/photo.jpg").standardized.path,
        folder.appendingPathComponent("Fixtures/flower.jpg").path,
    ]

    /// Pillow, one operation: `python3 -c script op in out [factor]`.
    static let pillow = """
        import sys
        from PIL import Image, ImageFilter, ImageEnhance
        op, source, target = sys.argv[1:4]
        image = Image.open(source).convert("RGB")
        if op == "blur": image = image.filter(ImageFilter.GaussianBlur(2))
        elif op == "unsharp": image = image.filter(ImageFilter.UnsharpMask(2, 150, 3))
        elif op == "brightness": image = ImageEnhance.Brightness(image).enhance(float(sys.argv[4]))
        elif op == "color": image = ImageEnhance.Color(image).enhance(float(sys.argv[4]))
        image.save(target)
        """

    func run(_ program: String, _ arguments: [String]) throws {
        if ProcessInfo.processInfo.environment[OutsidePrograms.variable] == "1" {
            throw OutsidePrograms.Refused(starting: program)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw StageError("\(program) \(arguments) exited with \(process.terminationStatus)") }
    }

    /// python3 from the PATH (the one `make test-deps` gave Pillow).
    func python(_ arguments: [String]) throws {
        try run("/usr/bin/env", ["python3", "-c", Self.pillow] + arguments)
    }

    func decode(_ path: String) throws -> Image {
        try ImageDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), name: path)
    }

    /// Each photo decoded, and written as a PNG into `folder` for the outside tools.
    func inputs(_ folder: TemporaryFolder) throws -> [(name: String, image: Image, png: String)] {
        try Self.photos.map { path in
            let image = try decode(path)
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            let png = folder.file("\(name).png")
            try Data(try PNGEncoder.encode(image)).write(to: URL(fileURLWithPath: png))
            return (name, image, png)
        }
    }

    func filter<S: Stage>(_ stage: S.Type, _ parameters: [String: ParamValue], _ image: Image) throws -> Image {
        try StageHarness(stage).runImage(parameters, inputs: ["in": .image(image)])
    }

    /// Peak signal-to-noise ratio over the colour channels, in dB.
    func psnr(_ a: Image, _ b: Image) -> Double {
        var squares = 0.0, count = 0
        for i in 0..<a.pixels.count where i % 4 != 3 {
            let d = Double(a.pixels[i]) - Double(b.pixels[i])
            squares += d * d
            count += 1
        }
        return squares == 0 ? .infinity : 10 * log10(255 * 255 / (squares / Double(count)))
    }

    /// The share of colour samples within `levels` of each other.
    func within(_ levels: Int, _ a: Image, _ b: Image) -> Double {
        var close = 0, count = 0
        for i in 0..<a.pixels.count where i % 4 != 3 {
            if abs(Int(a.pixels[i]) - Int(b.pixels[i])) <= levels { close += 1 }
            count += 1
        }
        return Double(close) / Double(count)
    }

    /// `blur sigma=2` against libvips with a kernel reaching 3σ as Sumi's (`--min-ampl 0.01`; the
    /// default 0.2 cuts it at 7 taps) and float precision, and against Pillow's `GaussianBlur(2)`
    /// (three box passes): both extend the edges, as Sumi does.
    @Test func blurMatchesLibvipsAndPillow() throws {
        let folder = try TemporaryFolder("blur-reference")
        defer { folder.remove() }
        for input in try inputs(folder) {
            let ours = try filter(BlurStage.self, ["sigma": .number(2)], input.image)
            let vips = folder.file("\(input.name)-vips.png"), pil = folder.file("\(input.name)-pillow.png")
            try run("/usr/bin/vips", ["gaussblur", input.png, vips, "2", "--min-ampl", "0.01", "--precision", "float"])
            try python(["blur", input.png, pil])
            let againstVips = psnr(ours, try decode(vips)), againstPillow = psnr(ours, try decode(pil))
            #expect(againstVips >= 45, "\(input.name): \(againstVips) dB against vips gaussblur")
            #expect(againstPillow >= 45, "\(input.name): \(againstPillow) dB against Pillow GaussianBlur")
        }
    }

    @Test func sharpenMatchesPillowsUnsharpMask() throws {
        let folder = try TemporaryFolder("sharpen-reference")
        defer { folder.remove() }
        for input in try inputs(folder) {
            let ours = try filter(SharpenStage.self, ["sigma": .number(2), "amount": .number(1.5), "threshold": .number(3)], input.image)
            let pil = folder.file("\(input.name)-pillow.png")
            try python(["unsharp", input.png, pil])
            let db = psnr(ours, try decode(pil))
            #expect(db >= 38, "\(input.name): \(db) dB against Pillow UnsharpMask(2, 150, 3)")
            // Sharpening did something: the result is not the input.
            #expect(psnr(ours, input.image) < 40, "\(input.name)")
        }
    }

    @Test(arguments: [("brightness", 0.6), ("brightness", 1.4), ("color", 0.3), ("color", 1.8)])
    func adjustMatchesPillowsEnhance(operation: String, factor: Double) throws {
        let folder = try TemporaryFolder("adjust-reference")
        defer { folder.remove() }
        for input in try inputs(folder) {
            let parameter = operation == "color" ? "saturation" : operation
            let ours = try filter(AdjustStage.self, [parameter: .number(factor)], input.image)
            let pil = folder.file("\(input.name)-pillow.png")
            try python([operation, input.png, pil, "\(factor)"])
            let share = within(2, ours, try decode(pil))
            #expect(share >= 0.99, "\(input.name) \(parameter)=\(factor): \(share) of samples within 2 levels of Pillow")
        }
    }

    /// Contrast pivots on 128: `(v − 128)·f + 128`, rounded and clamped.
    @Test(arguments: [0.5, 1.6])
    func contrastIsThePivotFormula(factor: Double) throws {
        for path in Self.photos {
            let image = try decode(path)
            let ours = try filter(AdjustStage.self, ["contrast": .number(factor)], image)
            var expected = image
            for i in 0..<image.pixels.count where i % 4 != 3 {
                expected.pixels[i] = UInt8(min(255, max(0, ((Double(image.pixels[i]) - 128) * factor + 128).rounded())))
            }
            let share = within(2, ours, expected)
            #expect(share >= 0.99, "\(path) contrast=\(factor): \(share)")
        }
    }

    @Test(arguments: [0.6, 2.2])
    func gammaMatchesImageMagick(gamma: Double) throws {
        let folder = try TemporaryFolder("gamma-reference")
        defer { folder.remove() }
        for input in try inputs(folder) {
            let ours = try filter(AdjustStage.self, ["gamma": .number(gamma)], input.image)
            let magick = folder.file("\(input.name)-magick.png")
            try run("/usr/bin/convert", [input.png, "-gamma", "\(gamma)", "-depth", "8", magick])
            let share = within(2, ours, try decode(magick))
            #expect(share >= 0.99, "\(input.name) gamma=\(gamma): \(share) of samples within 2 levels of convert -gamma")
        }
    }
}
