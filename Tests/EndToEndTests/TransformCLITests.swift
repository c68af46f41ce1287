import Foundation
import Testing

/// The geometric stages through the command line, compared with ImageMagick doing the same.
@Suite struct TransformCLITests {
    /// PSNR between `stages` run by sumi on a small PNG of the sample photo and ImageMagick's `magick`
    /// options on the same PNG (`magick` may use `{size}`: the size of sumi's result).
    func compare(_ stages: String, magick: [String], width: Int = 48) throws -> Double? {
        let dir = try CLI.temporaryFolder("geom")
        let source = "\(dir)/src.png"
        let made = try CLI.run(["run", "decode path=\(Fixtures.photo) ! scale width=\(width) ! encode path=\(source)"])
        #expect(made.status == 0, "\(made.stderr)")
        let ours = try CLI.run(["run", "decode path=\(source) ! \(stages) ! encode path=\(dir)/ours.png"])
        #expect(ours.status == 0, "\(ours.stderr)")
        let size = try #require(CLI.identify("\(dir)/ours.png"))
        let options = magick.map { $0.replacingOccurrences(of: "{size}", with: "\(size.width)x\(size.height)") }
        guard CLI.tool("/usr/bin/convert", [source] + options + ["\(dir)/theirs.png"]) != nil else { return nil }
        return Fixtures.psnr("\(dir)/ours.png", "\(dir)/theirs.png")
    }

    @Test(arguments: [
        ("rotate angle=90", ["-rotate", "90"]),
        ("rotate angle=270", ["-rotate", "270"]),
        ("rotate angle=180", ["-rotate", "180"]),
        ("flip direction=horizontal", ["-flop"]),
        ("flip direction=vertical", ["-flip"]),
        ("crop rect=5,3,20,10", ["-crop", "20x10+5+3", "+repage"]),
        ("crop size=16x16 gravity=bottom-right", ["-gravity", "southeast", "-crop", "16x16+0+0", "+repage"]),
        ("pad margin=2,3 color=red", ["-bordercolor", "red", "-compose", "copy", "-border", "3x2"]),
        ("pad size=60x40 color=blue", ["-background", "blue", "-gravity", "center", "-extent", "60x40"]),
    ])
    func sameAsImageMagick(stages: String, magick: [String]) throws {
        let psnr = try compare(stages, magick: magick)
        if let psnr { #expect(psnr == .infinity, "\(stages): PSNR \(psnr) dB against ImageMagick") }
    }

    @Test func anyAngleIsCloseToImageMagick() throws {
        // ImageMagick's bilinear distortion into its best-fit box (a pixel or two larger than the exact
        // bounding box), centre-cropped to sumi's size: the same turn, resampled independently.
        let psnr = try compare("rotate angle=30 background=white",
                               magick: ["-background", "white", "-virtual-pixel", "background", "-interpolate", "bilinear",
                                        "-filter", "point", "+distort", "SRT", "30", "+repage", "-gravity", "center",
                                        "-crop", "{size}+0+0", "+repage"], width: 200)
        if let psnr { #expect(psnr > 28, "PSNR \(psnr) dB") }
    }
}
