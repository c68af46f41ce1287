import Testing
import SumiKit
import SumiTransform

/// `trim`: the box kept is the smallest holding every pixel further than `tolerance` from the
/// background, reported in the run's details; rings give the whole path's bytes.
@Suite struct TrimStageTests {
    let trim = StageHarness(TrimStage.self)

    /// A `width × height` image of `background` with `content` boxes of the given colours.
    func picture(_ width: Int, _ height: Int, background: [UInt8], _ content: [(x: Int, y: Int, w: Int, h: Int, colour: [UInt8])]) -> Image {
        Image(width: width, height: height) { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    let colour = content.last { x >= $0.x && x < $0.x + $0.w && y >= $0.y && y < $0.y + $0.h }?.colour ?? background
                    for c in 0..<4 { pixels[(y * width + x) * 4 + c] = colour[c] }
                }
            }
        }
    }

    func details(_ harness: StageHarness) throws -> [String: Double] {
        guard case .object(let members)? = harness.details.last else { throw StageError("no details reported") }
        var result: [String: Double] = [:]
        for (key, value) in members {
            switch value {
            case .number(let n): result[key] = n
            case .bool(let b): result[key] = b ? 1 : 0
            default: break
            }
        }
        return result
    }

    @Test func cutsToTheContentAndReportsTheBox() throws {
        let white: [UInt8] = [255, 255, 255, 255]
        let image = picture(60, 40, background: white, [(7, 5, 10, 4, [200, 0, 0, 255]), (30, 20, 3, 12, [0, 0, 120, 255])])
        let out = try trim.runImage(inputs: ["in": .image(image)])
        #expect(out.width == 26 && out.height == 27)
        #expect(out.pixels == image.cropped(x: 7, y: 5, width: 26, height: 27).pixels)
        #expect(try details(trim) == ["x": 7, "y": 5, "width": 26, "height": 27, "trimmed": 1])
    }

    @Test func toleranceDecidesWhatIsBorder() throws {
        let grey: [UInt8] = [100, 100, 100, 255]
        // A faint band 10 levels off the background, and a 3x3 block 11 levels off.
        let image = picture(50, 30, background: grey, [(2, 2, 40, 3, [110, 100, 100, 255]), (20, 15, 3, 3, [100, 89, 100, 255])])
        let strict = try trim.runImage(["tolerance": .integer(9)], inputs: ["in": .image(image)])
        #expect(strict.width == 40 && strict.height == 16)
        let usual = try trim.runImage(inputs: ["in": .image(image)])
        #expect(usual.width == 3 && usual.height == 3 && usual.pixels == image.cropped(x: 20, y: 15, width: 3, height: 3).pixels)
    }

    @Test func aGivenBackgroundIsCutWhateverTheCorner() throws {
        // A black frame one pixel wide around a white page with a red mark: with background=white,
        // the frame is content; with the corner's black, the white inside is content too.
        let image = picture(40, 40, background: [0, 0, 0, 255], [(1, 1, 38, 38, [255, 255, 255, 255]), (15, 12, 5, 6, [220, 20, 20, 255])])
        let corner = try trim.runImage(inputs: ["in": .image(image)])
        #expect(corner.width == 38 && corner.height == 38)
        let white = StageHarness(TrimStage.self)
        let page = try white.runImage(["background": .color(.white)], inputs: ["in": .image(image)])
        #expect(page.width == 40 && page.height == 40)
        let marked = picture(40, 40, background: [255, 255, 255, 255], [(15, 12, 5, 6, [220, 20, 20, 255])])
        let mark = try white.runImage(["background": .color(.white)], inputs: ["in": .image(marked)])
        #expect(mark.width == 5 && mark.height == 6)
    }

    @Test func transparentBordersAreCut() throws {
        let image = picture(30, 20, background: [0, 0, 0, 0], [(4, 6, 9, 5, [60, 30, 0, 128])])
        let out = try trim.runImage(inputs: ["in": .image(image)])
        #expect(out.width == 9 && out.height == 5 && out.pixels == image.cropped(x: 4, y: 6, width: 9, height: 5).pixels)
    }

    @Test func anImageOfOnlyBackgroundIsLeftAsItIsWithAWarning() throws {
        let image = Image(width: 12, height: 9, fill: Color(red: 9, green: 9, blue: 9))
        let harness = StageHarness(TrimStage.self)
        let out = try harness.runImage(inputs: ["in": .image(image)])
        #expect(out.width == 12 && out.height == 9 && out.pixels == image.pixels)
        #expect(harness.warnings.contains { $0.contains("all background") }, "\(harness.warnings)")
        #expect(try details(harness) == ["x": 0, "y": 0, "width": 12, "height": 9, "trimmed": 0])
    }

    @Test(arguments: RingPattern.standard)
    func ringPatternsGiveTheWholePathsBytes(pattern: RingPattern) throws {
        let image = SubjectScene.all[3].image
        let inputs: [String: Value] = ["in": .image(image)]
        let whole = try trim.runImage(inputs: inputs)
        let run = try trim.runRing(inputs: inputs, pattern: pattern)
        guard case .image(let ringed) = run.value else { throw StageError("no image") }
        let s = SubjectScene.all[3].subject
        #expect(whole.pixels == image.cropped(x: s.x, y: s.y, width: s.width, height: s.height).pixels)
        #expect(ringed.width == whole.width && ringed.height == whole.height && ringed.pixels == whole.pixels, "\(pattern)")
        for ring in Array(run.inputs.values) + [run.output].compactMap({ $0 }) {
            #expect(ring.mostRowsHeld <= ring.slots, "\(pattern)")
        }
    }

    @Test func badParametersNameTheParameter() throws {
        for (name, value) in [("tolerance", ParamValue.integer(256)), ("tolerance", .integer(-1)), ("background", .string("ultraviolet"))] {
            #expect {
                _ = try trim.make([name: value])
            } throws: { error in
                (error as? StageError)?.parameter == name && (error as? StageError)?.isUsageError == true
            }
        }
    }
}
