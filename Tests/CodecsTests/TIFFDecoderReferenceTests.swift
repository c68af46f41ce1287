import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// The compressions and layouts libtiff's tiffcp writes (`make test`).
@Suite struct TIFFDecoderReferenceTests {
    /// libtiff's tiffcp writes the same picture compressed, tiled and in separate planes.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tiffcp"), "needs tiffcp (libtiff-tools)"))
    func compressionsTilesAndPlanesDecodeAlike() throws {
        let folder = try ScratchFolder("tiffcp")
        let width = 37, height = 21
        var rgb16: [Int] = []
        for i in 0..<(width * height) { rgb16 += [i * 83 % 65536, i * 7919 % 65536, 65535 - i * 31 % 65536] }
        let source = try folder.write(TestTIFF(width: width, height: height, bits: [16, 16, 16], photometric: 2,
                                               data: TestTIFF.words(rgb16)).bytes(), to: "source.tif")
        let reference = straightPixels(try decodeBytes(try folder.read("source.tif")))
        let variants: [[String]] = [["-c", "lzw"], ["-c", "zip"], ["-c", "packbits"], ["-c", "lzma"], ["-c", "zstd"],
                                    ["-t", "-w", "16", "-l", "16"], ["-r", "4"], ["-8"]]
        for (i, options) in variants.enumerated() {
            let path = folder.file("v\(i).tif")
            let copied = try runTool(["/usr/bin/tiffcp"] + options + [source, path])
            try #require(copied.status == 0, "\(options)")
            #expect(straightPixels(try decodeBytes(try folder.read("v\(i).tif"))) == reference, "\(options)")
        }
        // Group 4 fax of a bilevel picture, and JPEG-compressed YCbCr (lossy: close).
        let bits: [UInt8] = (0..<(height * 5)).map { UInt8(truncatingIfNeeded: $0 * 37) }
        let bilevel = try folder.write(TestTIFF(width: 37, height: height, bits: [1], photometric: 0, data: bits).bytes(), to: "bw.tif")
        let plain = straightPixels(try decodeBytes(try folder.read("bw.tif")))
        try #require(try runTool(["/usr/bin/tiffcp", "-c", "g4", bilevel, folder.file("g4.tif")]).status == 0)
        #expect(straightPixels(try decodeBytes(try folder.read("g4.tif"))) == plain)
        let smooth = straightPixels(Fixtures.smooth(width: width, height: height))
        let rgb8 = try folder.write(TestTIFF(width: width, height: height, bits: [8, 8, 8], photometric: 2,
                                             data: smooth.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)).bytes(),
                                    to: "rgb8.tif")
        // Separate planes (tiffcp converts them at 8 bits only), in strips and in tiles.
        for (i, options) in [["-p", "separate"], ["-p", "separate", "-t", "-w", "16", "-l", "16", "-c", "zip"]].enumerated() {
            let copied = try runTool(["/usr/bin/tiffcp"] + options + [rgb8, folder.file("planes\(i).tif")])
            try #require(copied.status == 0, "\(options)")
            #expect(straightPixels(try decodeBytes(try folder.read("planes\(i).tif"))) == smooth, "\(options)")
        }
        try #require(try runTool(["/usr/bin/tiffcp", "-c", "jpeg:90", rgb8, folder.file("jpeg.tif")]).status == 0)
        let jpeg = straightPixels(try decodeBytes(try folder.read("jpeg.tif")))
        let error = zip(jpeg, smooth).map { abs(Int($0) - Int($1)) }
        #expect(jpeg.count == smooth.count && Double(error.reduce(0, +)) / Double(error.count) < 3)
    }
}
