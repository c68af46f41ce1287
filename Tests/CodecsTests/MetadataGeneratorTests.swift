import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// The `decode_metadata` fuzz target's generator (`fuzz/generators/MetadataGenerator.swift`,
/// compiled into this target too) emits the structures it is there for: GPSInfo pointers and
/// Orientation entries in every directory, of both pointer types, and Extended XMP declaring
/// 0xFFFFFFFF bytes — read back by Sumi's own parser and by exiftool.
@Suite struct MetadataGeneratorTests {
    /// For each directory of a parsed block, where it hangs: IFD0, IFD1, or the pointer tag.
    static func tagsByDirectory(_ exif: [UInt8]) throws -> [(pointer: UInt16?, belowIFD1: Bool, tags: [UInt16], types: [Int])] {
        let block = try #require(EXIFBlock(exif))
        return block.reachableDirectories().map { reached in
            (reached.pointer, reached.belowIFD1, reached.directory.entries.map(\.tag), reached.directory.entries.map(\.type))
        }
    }

    /// From choice bytes the generator reaches every placement of GPS pointers and Orientation
    /// entries (duplicates too), both pointer types and both byte orders.
    @Test func choicesCoverEveryPlacement() throws {
        var gpsPlaces = Set<Int>(), orientationPlaces = Set<Int>(), types = Set<Int>(), orders = Set<Bool>()
        var duplicateOrientation = false
        for first in 0..<4 {
            for places in 0..<16 {
                for orientation in [0, 106, 186, 255] {
                    let choices = [UInt8(first), UInt8(places)] + [UInt8](repeating: UInt8(orientation), count: 4)
                    let plan = MetadataGenerator.EXIFPlan(choices: choices)
                    for reached in try Self.tagsByDirectory(MetadataGenerator.exif(plan)) {
                        let place: Int = reached.pointer == EXIFBlock.exifPointerTag ? 1
                            : reached.pointer == EXIFBlock.gpsPointerTag ? 3 : reached.belowIFD1 ? 2 : 0
                        let gps = reached.tags.indices.filter { reached.tags[$0] == EXIFBlock.gpsPointerTag }
                        if !gps.isEmpty { gpsPlaces.insert(place) }
                        types.formUnion(gps.map { reached.types[$0] })
                        let count = reached.tags.filter { $0 == EXIFBlock.orientationTag }.count
                        if count > 0 { orientationPlaces.insert(place) }
                        if count > 1 { duplicateOrientation = true }
                    }
                    orders.insert(plan.littleEndian)
                }
            }
        }
        #expect(gpsPlaces == [0, 1, 2, 3] && orientationPlaces == [0, 1, 2, 3])
        #expect(types == [4, 13] && orders == [true, false] && duplicateOrientation)
    }

    @Test func extendedXMPDeclaringFourGiB() throws {
        let plan = MetadataGenerator.ExtendedXMPPlan(choices: [1, 2])
        #expect(plan.declaredLength == 0xFFFF_FFFF && plan.portions.count == 3)
        let bodies = MetadataGenerator.extendedXMPSegmentBodies(plan)
        #expect(bodies[0].starts(with: JPEGSegments.xmpSignature))
        for body in bodies.dropFirst() {
            #expect(body.starts(with: ExtendedXMP.signature))
            let header = Array(body.dropFirst(ExtendedXMP.signature.count + 32).prefix(4))
            #expect(header == [0xFF, 0xFF, 0xFF, 0xFF])
        }
        // Every lie the choices offer: the truth, 0xFFFFFFFF, one more, one less, zero, any.
        let lengths = Set((0..<6).map { MetadataGenerator.ExtendedXMPPlan(choices: [UInt8($0), 0, 1, 2, 3, 4]).declaredLength })
        let truth = UInt32(MetadataGenerator.ExtendedXMPPlan().extended.count)
        #expect(lengths == [truth, 0xFFFF_FFFF, truth + 1, truth - 1, 0, 0x0102_0304])
    }

    /// The rewriter's result passes the generator's own check, which does find what it looks for.
    @Test func violationCheckFindsGPSAndOrientation() {
        var plan = MetadataGenerator.EXIFPlan()
        plan.gpsPointers = [.exif]
        plan.orientations = [.ifd1: [6]]
        let exif = MetadataGenerator.exif(plan)
        let found = MetadataGenerator.violations(in: exif, stripLocation: true, upright: true)
        #expect(found.contains { $0.hasPrefix("GPSInfo") } && found.contains { $0.hasPrefix("Orientation 6") })
        #expect(MetadataGenerator.violations(in: exif, stripLocation: false, upright: false).isEmpty)
    }
}
