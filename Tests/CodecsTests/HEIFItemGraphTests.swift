import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// The item graph is read and its decoded size checked before libheif decodes anything.
@Suite struct HEIFItemGraphTests {
    /// A grid item (id 1) of `rows`×`columns` references to one real 64×64 tile (id 2) on a
    /// `width`×`height` canvas, its `ispe` saying `ispe`.
    static func grid(rows: Int, columns: Int, width: Int, height: Int, ispe: (Int, Int), inIdat: Bool = false) -> [UInt8] {
        var file = HEIFFileBuilder()
        file.items = [HEIFFileBuilder.Item(id: 1, type: "grid", properties: [HEIFFileBuilder.ispe(ispe.0, ispe.1)],
                                           data: HEIFFileBuilder.grid(rows: rows, columns: columns, width: width, height: height),
                                           inIdat: inIdat)]
        var tile = HEIFFileBuilder.tile(id: 2)
        tile.hidden = true
        file.items.append(tile)
        file.references = [("dimg", 1, Array(repeating: 2, count: rows * columns))]
        return file.build()
    }

    /// The peak memory of this process so far, in MiB.
    static func peakMiB() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss / 1024
    }

    /// Decodes, returning the error message, the seconds taken and how far the peak memory rose.
    static func refusal(_ bytes: [UInt8], maxPixels: Int = ImageDecoder.defaultMaxPixels) -> (message: String?, seconds: Double, addedMiB: Int) {
        let before = peakMiB(), start = Date()
        let message = errorMessage { _ = try ImageDecoder.decode(bytes, name: "grid.heic", maxPixels: maxPixels) }
        return (message, Date().timeIntervalSince(start), peakMiB() - before)
    }

    @Test func hugeGridCanvasBehindSmallIspeIsRefusedBeforeDecoding() throws {
        let bytes = Self.grid(rows: 1, columns: 1, width: 30000, height: 30000, ispe: (64, 64))
        #expect(bytes.count < 1000)
        let result = Self.refusal(bytes)
        let message = try #require(result.message)
        #expect(message.hasPrefix("grid.heic: "))
        #expect(message.contains("max-pixels \(ImageDecoder.defaultMaxPixels)"), "\(message)")
        #expect(message.contains("30000x30000"), "\(message)")
        #expect(result.seconds < 2 && result.addedMiB < 64, "\(result)")
    }

    @Test func gridOfOneTileRepeatedIsRefusedBeforeDecoding() throws {
        // 200×200 references to one 64×64 tile: a 12800×12800 canvas and 40000 tile decodes, behind
        // an ispe of 64×64, against a limit below 12800² (the default limit allows that size).
        let bytes = Self.grid(rows: 200, columns: 200, width: 12800, height: 12800, ispe: (64, 64))
        let result = Self.refusal(bytes, maxPixels: 100_000_000)
        let message = try #require(result.message)
        #expect(message.contains("max-pixels"), "\(message)")
        #expect(message.contains("40000 tiles of 64x64 (1 distinct)"), "\(message)")
        #expect(result.seconds < 2 && result.addedMiB < 64, "\(result)")
        // The --safe cap refuses the canvas alone, whatever its ispe says.
        let safe = Self.refusal(Self.grid(rows: 200, columns: 200, width: 12800, height: 12800, ispe: (12800, 12800), inIdat: true),
                                maxPixels: 50_000_000)
        #expect(safe.message?.contains("12800x12800") == true && safe.message?.contains("max-pixels 50000000") == true, "\(safe)")
    }

    @Test func gridDecodesAtItsCanvas() throws {
        // Four tiles on a canvas that crops the last column and row, and an ispe that agrees.
        let bytes = Self.grid(rows: 2, columns: 2, width: 100, height: 120, ispe: (100, 120))
        let image = try ImageDecoder.decode(bytes, name: "grid.heic")
        #expect(image.width == 100 && image.height == 120)
        // The plan counts the larger of the canvas and its tiles (each once per reference).
        let plan = try HEIFDecodePlan(try HEIFItemGraph(bytes), maxPixels: .max)
        #expect(plan.item == 1 && plan.pixelsDecoded == max(100 * 120, 4 * 64 * 64))
        // A tile referenced many times counts once per reference: 100 references to one 64x64 tile
        // on a 64x64 canvas count 100 tiles.
        let repeated = Self.grid(rows: 10, columns: 10, width: 64, height: 64, ispe: (64, 64))
        #expect(try HEIFDecodePlan(try HEIFItemGraph(repeated), maxPixels: .max).pixelsDecoded == 100 * 64 * 64)
    }

    @Test func malformedClapIsNamed() throws {
        var file = HEIFFileBuilder()
        file.items = [HEIFFileBuilder.tile(id: 1, extra: [HEIFFileBuilder.clap(width: 32, height: 32, denominator: 0)])]
        let message = errorMessage { _ = try ImageDecoder.decode(file.build(), name: "clap.heic") }
        #expect(message?.contains("'clap' box at byte") == true, "\(message ?? "no error")")
        #expect(message?.contains("meta") == false, "\(message ?? "")")
        // A valid clap crops to its window.
        var cropped = HEIFFileBuilder()
        cropped.items = [HEIFFileBuilder.tile(id: 1, extra: [HEIFFileBuilder.clap(width: 40, height: 24)])]
        let image = try ImageDecoder.decode(cropped.build(), name: "crop.heic")
        #expect(image.width == 40 && image.height == 24)
    }

    @Test func hostileBoxesAreErrorsNamingTheBox() throws {
        let base = Self.grid(rows: 1, columns: 1, width: 64, height: 64, ispe: (64, 64))
        func patched(_ type: String, at offset: Int, with bytes: [UInt8]) throws -> [UInt8] {
            var file = base
            let at = try #require((4..<(file.count - 4)).first { Array(file[$0..<($0 + 4)]) == Array(type.utf8) })
            file.replaceSubrange((at + offset)..<(at + offset + bytes.count), with: bytes)
            return file
        }
        let cases: [([UInt8], String)] = [
            // iloc: 65535 items in a few bytes.
            (try patched("iloc", at: 10, with: [0xFF, 0xFF]), "'iloc' box at byte"),
            // ipma: 2^32 - 1 entries.
            (try patched("ipma", at: 8, with: [0xFF, 0xFF, 0xFF, 0xFF]), "'ipma' box at byte"),
            // ispe claims more bytes than its parent holds.
            (try patched("ispe", at: -4, with: [0x7F, 0xFF, 0xFF, 0xFF]), "'ispe' box at byte"),
        ]
        for (bytes, expected) in cases {
            let message = errorMessage { _ = try ImageDecoder.decode(bytes, name: "bad.heic") }
            #expect(message?.hasPrefix("bad.heic: ") == true && message?.contains(expected) == true, "\(message ?? "no error")")
        }
        // A grid that is its own tile: a loop libheif 1.15 would recurse into until the stack ends.
        var loop = HEIFFileBuilder()
        loop.items = [HEIFFileBuilder.Item(id: 1, type: "grid", properties: [HEIFFileBuilder.ispe(64, 64)],
                                           data: HEIFFileBuilder.grid(rows: 1, columns: 2, width: 128, height: 64)),
                      HEIFFileBuilder.Item(id: 2, type: "iden", hidden: true, properties: [HEIFFileBuilder.ispe(64, 64)])]
        loop.references = [("dimg", 1, [2, 2]), ("dimg", 2, [1])]
        let message = errorMessage { _ = try ImageDecoder.decode(loop.build(), name: "loop.heic") }
        #expect(message?.contains("'iref' box: item 1 is derived from itself") == true, "\(message ?? "no error")")
        // A chain of 40 identity items above one tile: refused before libheif recurses through it.
        var chain = HEIFFileBuilder()
        chain.items = (1...40).map { HEIFFileBuilder.Item(id: $0, type: "iden", hidden: $0 > 1, properties: [HEIFFileBuilder.ispe(64, 64)]) }
            + [HEIFFileBuilder.tile(id: 41)]
        chain.references = (1...40).map { ("dimg", $0, [$0 + 1]) }
        let deep = errorMessage { _ = try ImageDecoder.decode(chain.build(), name: "chain.heic") }
        #expect(deep?.contains("more than 16 levels deep") == true, "\(deep ?? "no error")")
    }

    /// An overlay of the real tile at `offsets` on a 96×80 canvas.
    static func overlay(_ offsets: [(x: Int, y: Int)]) -> [UInt8] {
        var file = HEIFFileBuilder()
        var tile = HEIFFileBuilder.tile(id: 2)
        tile.hidden = true
        file.items = [HEIFFileBuilder.Item(id: 1, type: "iovl", properties: [HEIFFileBuilder.ispe(96, 80)],
                                           data: HEIFFileBuilder.overlay(width: 96, height: 80, offsets: offsets)), tile]
        file.references = [("dimg", 1, Array(repeating: 2, count: offsets.count))]
        return file.build()
    }

    /// A fuzzing finding: libheif 1.15 reads past an overlay input placed above the canvas
    /// (AddressSanitizer: heap-buffer-overflow in its overlay copy).
    @Test func overlayInputAboveTheCanvasIsRefused() throws {
        for offset in [(x: 22, y: -1), (x: -5, y: 10)] {
            let message = errorMessage { _ = try ImageDecoder.decode(Self.overlay([offset]), name: "overlay.heic") }
            #expect(message?.contains("'iovl' item 1 places image 2 at (\(offset.x),\(offset.y))") == true, "\(message ?? "no error")")
        }
    }
}
