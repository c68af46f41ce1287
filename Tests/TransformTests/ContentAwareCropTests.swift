import Foundation
import Testing
import SumiKit
import SumiTransform

/// `crop gravity=attention|entropy` and `scale fit=cover gravity=…` on pictures whose subject is
/// obvious (`SubjectScene`): the window kept holds the whole subject, the output is exactly that
/// window of the input, through every ring pattern as through the whole path.
@Suite struct ContentAwareCropTests {
    let crop = StageHarness(CropStage.self)

    /// Where `output` lies in `image` (an exact copy of one window), found by comparing pixels.
    static func position(of output: Image, in image: Image) -> (x: Int, y: Int)? {
        guard output.width <= image.width, output.height <= image.height else { return nil }
        return image.pixels.withUnsafeBytes { big in
            output.pixels.withUnsafeBytes { small in
                guard let b = big.baseAddress, let s = small.baseAddress else { return nil }
                let rowBytes = output.width * 4
                for y in 0...(image.height - output.height) {
                    for x in 0...(image.width - output.width) {
                        let matches = (0..<output.height).allSatisfy { row in
                            memcmp(b + ((y + row) * image.width + x) * 4, s + row * rowBytes, rowBytes) == 0
                        }
                        if matches { return (x, y) }
                    }
                }
                return nil
            }
        }
    }

    @Test(arguments: SubjectScene.all, ["attention", "entropy"])
    func theWindowHoldsTheSubject(scene: SubjectScene, gravity: String) throws {
        let image = scene.image
        let measure: InterestingRegion.Measure = gravity == "attention" ? .attention : .entropy
        let (x, y) = InterestingRegion(image: image).window(width: scene.crop.width, height: scene.crop.height, measure: measure)
        #expect(scene.holdsSubject(x: x, y: y), "\(gravity) on \(scene): window at \(x),\(y)")
        let out = try crop.runImage(["size": .size(Size(width: Double(scene.crop.width), height: Double(scene.crop.height))),
                                     "gravity": .string(gravity)], inputs: ["in": .image(image)])
        #expect(out.width == scene.crop.width && out.height == scene.crop.height)
        #expect(out.pixels == image.cropped(x: x, y: y, width: scene.crop.width, height: scene.crop.height).pixels)
        let window: JSONValue = .object([("x", .number(Double(x))), ("y", .number(Double(y))),
                                         ("width", .number(Double(scene.crop.width))), ("height", .number(Double(scene.crop.height)))])
        #expect(crop.details.last == window, "the window is the stage's details")
    }

    @Test func attentionFramesASmallSubjectInTheMiddle() throws {
        // A 60x60 subject and a 200x200 window: any window holding it sums the same; the one kept
        // has the subject's centre within a grid cell of its own.
        let scene = SubjectScene(width: 600, height: 400, subject: (420, 60, 60, 60), crop: (200, 200))
        let (x, y) = InterestingRegion(image: scene.image).window(width: 200, height: 200, measure: .attention)
        let cell = 3 // 600 / 256, rounded up
        #expect(abs(x + 100 - 450) <= 2 * cell && abs(y + 100 - 90) <= 100, "window at \(x),\(y)")
        #expect(scene.holdsSubject(x: x, y: y))
    }

    @Test func skinToneDrawsAttentionOverAPlainBackground() throws {
        // Two smooth patches, one skin-coloured, one grey of the same brightness: attention keeps the skin.
        let width = 300, height = 100
        let image = Image(width: width, height: height) { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    let colour: (UInt8, UInt8, UInt8) = x >= 220 && x < 270 ? (224, 172, 140) : x >= 30 && x < 80 ? (180, 180, 180) : (40, 40, 40)
                    pixels[i] = colour.0; pixels[i + 1] = colour.1; pixels[i + 2] = colour.2; pixels[i + 3] = 255
                }
            }
        }
        let (x, _) = InterestingRegion(image: image).window(width: 100, height: 100, measure: .attention)
        #expect(x <= 220 && x + 100 >= 270, "window at \(x)")
    }

    @Test func anchorsAreUnchangedAndAWindowAsLargeAsTheImageKeepsItAll() throws {
        let image = SubjectScene.all[0].image
        for gravity in ["attention", "entropy"] {
            let out = try crop.runImage(["size": .size(Size(width: 500, height: 400)), "gravity": .string(gravity)], inputs: ["in": .image(image)])
            #expect(out.width == image.width && out.height == image.height && out.pixels == image.pixels)
        }
        let corner = try crop.runImage(["size": .size(Size(width: 100, height: 50)), "gravity": .string("bottom-right")], inputs: ["in": .image(image)])
        #expect(corner.pixels == image.cropped(x: 300, y: 250, width: 100, height: 50).pixels)
    }

    @Test(arguments: RingPattern.standard)
    func ringPatternsGiveTheWholePathsBytes(pattern: RingPattern) throws {
        let scene = SubjectScene.all[1]
        let scale = StageHarness(ScaleStage.self)
        for gravity in ["attention", "entropy"] {
            for (harness, parameters) in [
                (crop, ["size": ParamValue.size(Size(width: 160, height: 160)), "gravity": .string(gravity)]),
                (scale, ["width": .integer(90), "height": .integer(120), "fit": .string("cover"), "gravity": .string(gravity)]),
            ] {
                let inputs: [String: Value] = ["in": .image(scene.image)]
                let whole = try harness.runImage(parameters, inputs: inputs)
                let run = try harness.runRing(parameters, inputs: inputs, pattern: pattern)
                guard case .image(let ringed) = run.value else { throw StageError("no image") }
                #expect(ringed.width == whole.width && ringed.height == whole.height && ringed.pixels == whole.pixels, "\(parameters) \(pattern)")
                #expect(ringed.metadata.captureRects == whole.metadata.captureRects)
                for ring in Array(run.inputs.values) + [run.output].compactMap({ $0 }) {
                    #expect(ring.mostRowsHeld <= ring.slots, "\(pattern)")
                }
            }
        }
    }

    @Test(arguments: SubjectScene.all.prefix(6))
    func scaleCoverKeepsTheSubject(scene: SubjectScene) throws {
        // Halved, then cut to half the crop size: the subject's half-size box is in the output.
        let scale = StageHarness(ScaleStage.self)
        let (w, h) = (scene.crop.width / 2, scene.crop.height / 2)
        let image = scene.image
        let out = try scale.runImage(["width": .integer(w), "height": .integer(h), "fit": .string("cover"), "gravity": .string("attention")],
                                     inputs: ["in": .image(image)])
        #expect(out.width == w && out.height == h)
        let resized = try scale.runImage(["factor": .number(max(Double(w) / Double(image.width), Double(h) / Double(image.height)))],
                                         inputs: ["in": .image(image)])
        let at = try #require(Self.position(of: out, in: resized), "\(scene)")
        let s = Double(resized.width) / Double(image.width)
        let box = (x: Double(scene.subject.x) * s, y: Double(scene.subject.y) * s,
                   maxX: Double(scene.subject.x + scene.subject.width) * s, maxY: Double(scene.subject.y + scene.subject.height) * s)
        #expect(Double(at.x) <= box.x + 1 && Double(at.y) <= box.y + 1 && Double(at.x + w) >= box.maxX - 1 && Double(at.y + h) >= box.maxY - 1,
                "\(scene): window at \(at)")
    }

    @Test func scaleCoverCentreIsTheDefault() throws {
        let scale = StageHarness(ScaleStage.self)
        let image = SubjectScene.all[2].image
        let plain = try scale.runImage(["width": .integer(50), "height": .integer(80), "fit": .string("cover")], inputs: ["in": .image(image)])
        let centre = try scale.runImage(["width": .integer(50), "height": .integer(80), "fit": .string("cover"), "gravity": .string("center")],
                                        inputs: ["in": .image(image)])
        #expect(plain.pixels == centre.pixels)
    }

    @Test func badGravityNamesTheParameter() throws {
        #expect {
            _ = try crop.make(["size": .size(Size(width: 10, height: 10)), "gravity": .string("interesting")])
        } throws: { error in
            let e = error as? StageError
            return e?.parameter == "gravity" && e?.isUsageError == true && "\(error)".contains("attention")
        }
        #expect {
            _ = try crop.make(["rect": .rect(Rect(x: 0, y: 0, width: 5, height: 5)), "gravity": .string("attention")])
        } throws: { error in
            (error as? StageError)?.parameter == "gravity"
        }
        #expect {
            _ = try StageHarness(ScaleStage.self).make(["width": .integer(5), "gravity": .string("faces")])
        } throws: { error in
            (error as? StageError)?.parameter == "gravity"
        }
    }
}
