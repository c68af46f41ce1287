import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// The HEIF fuzz target's generator (fuzz/generators, linked into this target) makes the item
/// graphs an attacker would: what it emits is read back with the decoder's own reader and libheif.
@Suite struct HEIFGraphGeneratorTests {
    /// What the generator made from inputs of a fixed pseudo-random sequence.
    struct Seen {
        var gridCanvasUnlikeIspe = 0, overlays = 0, rotations = 0, mirrors = 0, apertures = 0
        var thumbnails = 0, auxiliaries = 0, primaryElsewhere = 0, idat = 0
    }

    static func inputs(count: Int) -> [[UInt8]] {
        var state: UInt64 = 0x9E3779B97F4A7C15
        return (0..<count).map { _ in
            (0..<96).map { _ in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return UInt8(truncatingIfNeeded: state >> 56)
            }
        }
    }

    @Test func generatorEmitsTheStructuresThatMatter() throws {
        var seen = Seen()
        for input in Self.inputs(count: 600) {
            var generator = HEIFGraphGenerator(input)
            let bytes = generator.build().build()
            guard let graph = try? HEIFItemGraph(bytes) else { continue }
            for (id, item) in graph.items {
                let properties = graph.properties[id, default: []]
                for property in properties {
                    switch property {
                    case .rotation: seen.rotations += 1
                    case .mirror: seen.mirrors += 1
                    case .cleanAperture: seen.apertures += 1
                    default: break
                    }
                }
                if item.type == "iovl" { seen.overlays += 1 }
                if item.type == "grid", let data = try graph.data(of: id), data.count >= 8 {
                    let canvas = (Int(data[4]) << 8 | Int(data[5]), Int(data[6]) << 8 | Int(data[7]))
                    let ispe = properties.compactMap { property -> (Int, Int)? in
                        if case .size(let width, let height) = property { return (width, height) }
                        return nil
                    }.first
                    if data[1] & 1 != 0 || ispe.map({ $0 != canvas }) == true { seen.gridCanvasUnlikeIspe += 1 }
                }
                if graph.locations[id]?.inIdat == true { seen.idat += 1 }
            }
            seen.thumbnails += graph.references.filter { $0.type == "thmb" }.count
            seen.auxiliaries += graph.references.filter { $0.type == "auxl" }.count
            if graph.primary != 1 { seen.primaryElsewhere += 1 }
        }
        #expect(seen.gridCanvasUnlikeIspe > 10 && seen.overlays > 10, "\(seen)")
        #expect(seen.rotations > 10 && seen.mirrors > 10 && seen.apertures > 10, "\(seen)")
        #expect(seen.thumbnails > 10 && seen.auxiliaries > 10 && seen.primaryElsewhere > 10 && seen.idat > 10, "\(seen)")
    }

    @Test func generatedFilesDecodeOrAreRefusedByName() throws {
        // No input: a plain top-level 64×64 tile, which decodes.
        var generator = HEIFGraphGenerator([])
        let image = try ImageDecoder.decode(generator.build().build(), name: "generated.heic")
        #expect(image.width == 64 && image.height == 64)
        // Every generated input decodes or is refused with a message naming the file: no crash.
        for input in Self.inputs(count: 150) {
            var generator = HEIFGraphGenerator(input)
            do { _ = try ImageDecoder.decode(generator.build().build(), name: "gen.heic", maxPixels: 1 << 22) } catch let error as StageError {
                #expect(error.message.hasPrefix("gen.heic: "), "\(error.message)")
            }
        }
    }
}
