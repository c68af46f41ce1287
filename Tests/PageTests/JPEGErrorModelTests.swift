import Foundation
import Testing
import SumiCodecs
import SumiKit
@testable import SumiPage

/// `JPEGErrorModel` against libjpeg-turbo: photo strips skip their measuring decode only where the
/// estimate clears the floor by the margin, so the estimate must track what the encoder does.
@Suite struct JPEGErrorModelTests {
    /// Fine grain (σ about 4 per channel, independent per pixel) over a smooth field: every DCT
    /// coefficient busy, the case where the estimate is tightest.
    static func grain(width: Int = 256, height: Int = 128, seed: UInt64 = 11) -> Image {
        var rng = SeededRandom(seed)
        var px = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                for c in 0..<3 { px[i + c] = UInt8(clamping: 60 + x / 3 + y / 2 + 40 * c + rng.below(15) - 7) }
            }
        }
        return Image(width: width, height: height, pixels: px)
    }

    @Test(arguments: [96, 97, 98, 99])
    func theEstimateTracksTheEncodersError(quality: Int) throws {
        let image = Self.grain()
        let bytes = try JPEGEncoder.encode(image, quality: quality, fullChroma: true)
        let measured = StripEncoder.psnrs(try ImageDecoder.decode(bytes, name: "grain"), image, slices: 1, busyOnly: false)[0]
        let estimate = JPEGErrorModel.psnr(quality: quality)
        #expect(abs(estimate - measured) < 1.0, "quality \(quality): estimated \(estimate) dB, measured \(measured) dB")
        #expect(measured > estimate - JPEGErrorModel.margin, "quality \(quality): \(measured) dB")
    }

    @Test func onlyQualitiesFarAboveTheAutoFloorSkipTheMeasure() throws {
        let floor = try #require(PDFPageStage.autoPhotoJPEG.minimumPSNR)
        #expect(JPEGErrorModel.psnr(quality: PDFPageStage.autoPhotoJPEG.quality) < floor + JPEGErrorModel.margin)
        #expect(JPEGErrorModel.psnr(quality: 97) < floor + JPEGErrorModel.margin)
        #expect(JPEGErrorModel.psnr(quality: 98) >= floor + JPEGErrorModel.margin)
        #expect(JPEGErrorModel.lowestQuality(reaching: floor + JPEGErrorModel.margin) == 98)
    }

    /// Fine grain misses the floor at the starting quality and is encoded once more, at 98 (the
    /// quality the model puts past the floor), not further.
    @Test func grainBelowTheFloorGoesStraightTo98() throws {
        let encoded = try StripEncoder.encode(Self.grain(), jpeg: PDFPageStage.autoPhotoJPEG)
        #expect(encoded.quality == 98)
        guard case .jpeg(let bytes, _, _) = encoded.data else { Issue.record("not JPEG"); return }
        let measured = StripEncoder.photoPSNR(try ImageDecoder.decode(bytes, name: "grain"), Self.grain())
        #expect(measured >= PDFPageStage.autoPhotoJPEG.minimumPSNR ?? 99)
    }

    /// A photo as sites serve it (smooth fields, decoded from a quality-80 JPEG) is written at the
    /// lowest quality the search finds above the floor: below 92 (0.2's fixed quality), each
    /// 240-column slice of it at the floor or above once decoded, and as progressive JPEG.
    @Test func servedPhotoGetsTheQualityItNeeds() throws {
        var rng = SeededRandom(5)
        let width = 480, height = 120
        var px = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                px[i] = UInt8(clamping: 90 + x / 4 + rng.below(9))
                px[i + 1] = UInt8(clamping: 120 + Int(40 * sin(Double(x + y) / 17)) + rng.below(9))
                px[i + 2] = UInt8(clamping: 60 + y % 90 + rng.below(9))
            }
        }
        let source = Image(width: width, height: height, pixels: px)
        let served = try ImageDecoder.decode(try JPEGEncoder.encode(source, quality: 80), name: "served")
        let settings = PDFPageStage.autoPhotoJPEG
        let encoded = try StripEncoder.encode(served, jpeg: settings)
        guard case .jpeg(let bytes, _, _) = encoded.data else { Issue.record("not JPEG"); return }
        let quality = try #require(encoded.quality), floor = try #require(settings.minimumPSNR)
        #expect(quality < 92)
        let decoded = try ImageDecoder.decode(bytes, name: "strip")
        let slices = StripEncoder.psnrs(decoded, served, slices: 2, busyOnly: true)
        #expect(slices.allSatisfy { $0 >= floor }, "\(slices)")
        // Progressive: a start-of-frame 2 marker (0xFFC2), no baseline one (0xFFC0).
        let markers = zip(bytes, bytes.dropFirst()).filter { $0.0 == 0xFF }.map(\.1)
        #expect(markers.contains(0xC2) && !markers.contains(0xC0))
    }
}
