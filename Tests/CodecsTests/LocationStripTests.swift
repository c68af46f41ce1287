import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// `metadata=strip-location` removes every GPSInfo pointer wherever it is (IFD0, the EXIF sub-IFD,
/// IFD1, a GPS IFD; LONG or IFD type) and zeroes the GPS directories in place, for every output
/// format: exiftool finds no GPS tag, and the latitude values written are nowhere in the file.
@Suite struct LocationStripTests {
    static let formats = ["jpg", "png", "webp", "tif", "heic"]

    /// A 40×30 JPEG whose EXIF (from the fuzz generator) has GPS IFDs behind pointers in `places`.
    static func cameraJPEG(gpsIn places: Set<MetadataGenerator.Place>, pointerType: Int = 4, bigEndian: Bool = false,
                           in folder: ScratchFolder) throws -> String {
        var plan = MetadataGenerator.EXIFPlan()
        plan.gpsPointers = places
        plan.gpsPointerType = pointerType
        plan.littleEndian = !bigEndian
        let plain = try JPEGEncoder.encode(Fixtures.smooth(width: 40, height: 30), quality: 90)
        let jpeg = MetadataGenerator.jpeg(plain, inserting: [MetadataGenerator.exifSegmentBody(MetadataGenerator.exif(plan))])
        return try folder.write(jpeg, to: "camera.jpg")
    }

    /// Whether the numerator of a generated latitude (the n-th GPS IFD's) is in `bytes`, in either
    /// byte order.
    static func containsLatitude(_ bytes: [UInt8], gpsDirectories: Int) -> Bool {
        (0..<gpsDirectories).contains { index in
            let value = MetadataGenerator.latitudeMarker + UInt32(index)
            let big = MetadataGenerator.bigEndian(value)
            return [big, Array(big.reversed())].contains { pattern in
                ExtendedXMP.find(pattern, in: bytes, from: 0) != nil
            }
        }
    }

    func recode(_ source: String, to output: String, metadata: String) throws {
        let image = try StageHarness(DecodeStage.self).runImage(["path": .path(source)])
        _ = try StageHarness(EncodeStage.self).run(["path": .path(output), "metadata": .string(metadata)],
                                                   inputs: ["in": .image(image)])
    }

    /// Where the GPS pointers are and of which type.
    struct Placement: Sendable, CustomTestStringConvertible {
        let places: Set<MetadataGenerator.Place>
        let pointerType: Int
        var testDescription: String { "\(places.map { "\($0)" }.sorted()) type \(pointerType)" }
    }

    /// The rewriter on blocks whose pointers are of every kind: what it writes parses, and no
    /// GPS pointer or GPS value is left.
    @Test func rewriteOfEveryPlacementIsClean() throws {
        for placesBits in 0..<16 {
            for typeBit in 0..<2 {
                var plan = MetadataGenerator.EXIFPlan()
                plan.gpsPointers = Set(MetadataGenerator.Place.allCases.filter { placesBits >> $0.rawValue & 1 == 1 })
                plan.gpsPointerType = typeBit == 0 ? 4 : 13
                plan.littleEndian = placesBits % 2 == 0
                plan.orientations = [.ifd0: [6, 8], .exif: [8], .ifd1: [3], .gps: [5]]
                let exif = MetadataGenerator.exif(plan)
                let block = try #require(EXIFBlock(exif))
                let written = try #require(block.rewritten(upright: true, width: 30, height: 40, stripLocation: true))
                #expect(MetadataGenerator.violations(in: written, stripLocation: true, upright: true).isEmpty)
                #expect(!Self.containsLatitude(written, gpsDirectories: 4), "\(plan.gpsPointers) type \(plan.gpsPointerType)")
                #expect(EXIFBlock(written)?.ifd0[0x010F] != nil)
            }
        }
    }

    /// As the fuzz target does, deterministically: generated blocks with bytes overwritten, then
    /// rewritten; whatever is written passes the generator's independent check.
    @Test func mutatedBlocksAreWrittenClean() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var rewrittenCount = 0
        for _ in 0..<4000 {
            let plan = MetadataGenerator.EXIFPlan(choices: (0..<6).map { _ in UInt8(truncatingIfNeeded: next()) })
            var exif = MetadataGenerator.exif(plan)
            for _ in 0..<(next() % 8) { exif[next() % exif.count] = UInt8(truncatingIfNeeded: next()) }
            guard let block = EXIFBlock(exif), let written = block.rewritten(upright: true, width: 2, height: 2, stripLocation: true)
            else { continue }
            rewrittenCount += 1
            let found = MetadataGenerator.violations(in: written, stripLocation: true, upright: true)
            #expect(found.isEmpty, "\(found) from \(exif)")
            if !found.isEmpty { return }
        }
        #expect(rewrittenCount > 2000)
    }
}
