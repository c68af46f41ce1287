import Testing
import SumiKit

/// Each side-data kind's declared rule, applied through `ImageMetadata.applying(_:)`.
@Suite struct SideDataTests {
    func stitched() -> ImageMetadata {
        var m = ImageMetadata(sourceFormat: "png", sourcePath: "a.png", sourceBytes: [1, 2, 3], knownOpaque: true)
        m.captureRects = [Rect(x: 0, y: 0, width: 100, height: 50), Rect(x: 0, y: 40, width: 100, height: 60)]
        return m
    }

    @Test func pixelChangeDropsPassThroughAndOpacityOnly() {
        let m = stitched().applying(.pixels)
        #expect(m.sourceBytes == nil)
        #expect(m.knownOpaque == false)
        #expect(m.sourceFormat == "png" && m.sourcePath == "a.png")
        #expect(m.captureRects == stitched().captureRects)
    }

    @Test func horizontalFlipMirrorsCaptures() {
        var m = stitched()
        m.captureRects = [Rect(x: 10, y: 0, width: 30, height: 50)]
        let flipped = m.applying(.geometry(.flipHorizontal(width: 100, height: 100)))
        #expect(flipped.captureRects == [Rect(x: 60, y: 0, width: 30, height: 50)])
        #expect(flipped.knownOpaque)
        #expect(flipped.sourceBytes == nil)
    }

    @Test func verticalFlipMirrorsCaptures() {
        let flipped = stitched().applying(.geometry(.flipVertical(width: 100, height: 100)))
        #expect(flipped.captureRects == [Rect(x: 0, y: 50, width: 100, height: 50), Rect(x: 0, y: 0, width: 100, height: 60)])
    }

    @Test func cropMovesAndClipsCaptures() {
        let cropped = stitched().applying(.geometry(.crop(x: 0, y: 45, width: 100, height: 55)))
        // The first capture keeps rows 45..<50 of its 50; the second moves up by 45.
        #expect(cropped.captureRects == [Rect(x: 0, y: 0, width: 100, height: 5), Rect(x: 0, y: 0, width: 100, height: 55)])
        let below = stitched().applying(.geometry(.crop(x: 0, y: 60, width: 100, height: 40)))
        #expect(below.captureRects.count == 2)
        #expect(below.captureRects[0] == nil, "a capture cropped away keeps its number but has no rectangle")
    }

    @Test func scaleAndQuarterTurns() {
        let half = stitched().applying(.geometry(.resize(fromWidth: 100, fromHeight: 100, toWidth: 50, toHeight: 50)))
        #expect(half.captureRects == [Rect(x: 0, y: 0, width: 50, height: 25), Rect(x: 0, y: 20, width: 50, height: 30)])
        var m = ImageMetadata()
        m.captureRects = [Rect(x: 0, y: 0, width: 40, height: 10)]
        // 100 wide × 50 high, turned clockwise: the top-left strip ends at the right edge.
        let turned = m.applying(.geometry(.rotate(quarterTurns: 1, width: 100, height: 50)))
        #expect(turned.captureRects == [Rect(x: 40, y: 0, width: 10, height: 40)])
        let back = turned.applying(.geometry(.rotate(quarterTurns: 3, width: 50, height: 100)))
        #expect(back.captureRects == m.captureRects)
    }

    @Test func freeRotationAndUnknownChangesForgetPositions() {
        var rotated = GeometryTransform.rotate(quarterTurns: 0, width: 100, height: 100)
        rotated.b = 0.5
        rotated.coversOutput = false
        let m = stitched().applying(.geometry(rotated))
        #expect(m.captureRects == [nil, nil])
        #expect(m.knownOpaque == false)
        let unknown = stitched().applying(.unknown)
        #expect(unknown.captureRects == [nil, nil])
        #expect(unknown.sourceBytes == nil && unknown.knownOpaque == false)
        #expect(unknown.sourceFormat == "png")
    }

    @Test func reducedDecodeSizeLastsUntilTheGeometryChanges() {
        var m = ImageMetadata()
        m.fullSize = Size(width: 3000, height: 2000)
        #expect(m.applying(.pixels).fullSize == Size(width: 3000, height: 2000))
        #expect(m.applying(.geometry(.resize(fromWidth: 375, fromHeight: 250, toWidth: 100, toHeight: 67))).fullSize == nil)
    }

    @Test func profileAndEmbeddedMetadataTravelThroughEveryChange() {
        var m = ImageMetadata()
        m.sideData[ICCProfile.self] = [9, 9]
        m.sideData[EXIFData.self] = [7]
        for change: ImageChange in [.pixels, .unknown, .geometry(.flipHorizontal(width: 4, height: 4))] {
            let after = m.applying(change)
            #expect(after.sideData[ICCProfile.self] == [9, 9])
            #expect(after.sideData[EXIFData.self] == [7])
        }
        #expect(m.sideData.names == ["exif", "icc-profile"])
    }

    @Test func imageCropAppliesTheRule() {
        var image = Image(width: 10, height: 10, fill: .white, metadata: stitched())
        image.metadata.captureRects = [Rect(x: 2, y: 2, width: 4, height: 4)]
        let cropped = image.cropped(x: 1, y: 1, width: 5, height: 5)
        #expect(cropped.metadata.captureRects == [Rect(x: 1, y: 1, width: 4, height: 4)])
        #expect(cropped.metadata.sourceBytes == nil)
    }
}
