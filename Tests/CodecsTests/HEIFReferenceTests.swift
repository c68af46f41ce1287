import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// HEIF files whose structure trips a decoder, compared with libheif's own `heif-convert`.
@Suite struct HEIFReferenceTests {
    /// The boxes of the coded image in a file heif-enc wrote (one `hvc1` item, perhaps the one tile
    /// of a grid): the property boxes by type and its coded data.
    static func parts(of bytes: [UInt8]) throws -> (properties: [String: [UInt8]], size: (Int, Int), data: [UInt8]) {
        let graph = try HEIFItemGraph(bytes)
        let top = try ISOBox.children(of: bytes, in: 0..<bytes.count, parent: "file")
        let meta = try #require(top.first { $0.type == "meta" })
        let iprp = try #require(try ISOBox.children(of: bytes, in: (meta.payload.lowerBound + 4)..<meta.payload.upperBound, parent: "meta")
            .first { $0.type == "iprp" })
        let ipco = try #require(try ISOBox.children(of: bytes, in: iprp.payload, parent: "iprp").first { $0.type == "ipco" })
        var properties: [String: [UInt8]] = [:]
        for box in try ISOBox.children(of: bytes, in: ipco.payload, parent: "ipco") {
            properties[box.type] = Array(bytes[box.offset..<box.payload.upperBound])
        }
        let coded = try #require(graph.items.first { $0.value.type == "hvc1" }?.key)
        let size = try #require(graph.properties[coded, default: []].compactMap { property -> (Int, Int)? in
            if case .size(let width, let height) = property { return (width, height) }
            return nil
        }.first)
        let data = try #require(try graph.data(of: coded, limit: .max))
        return (properties, size, data)
    }

    /// heif-convert's PNG of `path`, decoded.
    static func reference(_ path: String, in folder: ScratchFolder) throws -> Image {
        let png = folder.file("reference-\(UUID().uuidString).png")
        #expect(try runTool(["/usr/bin/heif-convert", path, png]).status == 0)
        return try ImageDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: png))), name: png)
    }

    @Test func primaryNamingTheThumbnailDecodesTheTopLevelImage() throws {
        let folder = try ScratchFolder("photos")
        let source = folder.file("source.png")
        #expect(try runTool(["/usr/bin/convert", "-size", "96x64", "gradient:#d03020-#2040c0", "-depth", "8", source]).status == 0)
        let heic = folder.file("thumb.heic")
        #expect(try runTool(["/usr/bin/heif-enc", "-q", "90", "-t", "32", source, "-o", heic]).status == 0)
        var bytes = try folder.read("thumb.heic")
        let graph = try HEIFItemGraph(bytes)
        let thumbnail = try #require(graph.references.first { $0.type == "thmb" }?.from)
        let field = try #require(graph.primaryField)
        for i in 0..<field.width { bytes[field.offset + i] = UInt8(truncatingIfNeeded: thumbnail >> (8 * (field.width - 1 - i))) }
        let patched = try folder.write(bytes, to: "patched.heic")

        let image = try ImageDecoder.decode(bytes, name: "patched.heic")
        let reference = try Self.reference(patched, in: folder)
        try #require(reference.width == 96 && reference.height == 64)
        try #require(image.width == 96 && image.height == 64)
        #expect(psnr(image, reference) > 40)

        // pitm naming an item that does not exist: the top-level image as well.
        for i in 0..<field.width { bytes[field.offset + i] = 0x7F }
        let missing = try ImageDecoder.decode(bytes, name: "missing.heic")
        try #require(missing.width == 96 && missing.height == 64)
        #expect(psnr(missing, reference) > 40)
    }

    /// A 10-bit HEIC from heif-enc (a 16-bit PNG in), rebuilt with `irot` turning it a quarter:
    /// on the coded image, listed before or after `ispe`, or on a grid of it, as cameras write.
    @Test(arguments: [("first", false), ("last", false), ("first", true)])
    func tenBitHEIFWithIrotDecodesTurned(irot: String, grid: Bool) throws {
        let folder = try ScratchFolder("photos")
        let source = folder.file("source.png")
        #expect(try runTool(["/usr/bin/convert", "-size", "64x48", "gradient:#d03020-#2040c0", "-fill", "white",
                             "-draw", "rectangle 4,4 12,12", "-depth", "16", source]).status == 0)
        #expect(try runTool(["/usr/bin/heif-enc", "-q", "95", "-b", "10", source, "-o", folder.file("deep.heic")]).status == 0)
        // heif-enc codes the 64×48 picture as one 64×64 tile of a grid that crops it.
        let (properties, size, data) = try Self.parts(of: try folder.read("deep.heic"))
        let pixi = try #require(properties["pixi"])
        #expect(pixi.suffix(3) == [10, 10, 10])
        var file = HEIFFileBuilder()
        let rest = [try #require(properties["hvcC"]), HEIFFileBuilder.ispe(size.0, size.1), pixi]
        let turn = HEIFFileBuilder.irot(1)
        if grid {
            file.items = [HEIFFileBuilder.Item(id: 1, type: "grid", properties: [turn, HEIFFileBuilder.ispe(64, 48), pixi],
                                               data: HEIFFileBuilder.grid(rows: 1, columns: 1, width: 64, height: 48), inIdat: true),
                          HEIFFileBuilder.Item(id: 2, type: "hvc1", hidden: true, properties: rest, data: data)]
            file.references = [("dimg", 1, [2])]
        } else {
            file.items = [HEIFFileBuilder.Item(id: 1, type: "hvc1", properties: irot == "first" ? [turn] + rest : rest + [turn], data: data)]
        }
        let path = try folder.write(file.build(), to: "turned.heic")

        let image = try ImageDecoder.decode(file.build(), name: "turned.heic")
        let reference = try Self.reference(path, in: folder)
        let expected = grid ? (48, 64) : (size.1, size.0)
        try #require(reference.width == expected.0 && reference.height == expected.1)
        try #require(image.width == expected.0 && image.height == expected.1)
        #expect(psnr(image, reference) > 40)
        // A quarter turn counter-clockwise puts the white square at the bottom left.
        let corner = image.color(x: 8, y: 55)
        #expect(corner.red > 200 && corner.green > 200 && corner.blue > 200, "\(corner)")
    }
}
