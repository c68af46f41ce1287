import Foundation
import SumiKit
import SumiTransform
import Testing

/// `crop gravity=attention` side by side with libvips' `smartcrop --interesting attention`, and
/// `trim` against libvips' `find_trim`, on the same generated pictures (`SubjectScene`: a
/// detailed, saturated subject on a plain background, off-centre), exchanged as PPM files.
@Suite struct ContentAwareCropReferenceTests {
    static let vips = "/usr/bin/vips"

    @Test func attentionKeepsTheSubjectAndIsComparedWithLibvips() throws {
        let folder = try TemporaryFolder("smartcrop")
        defer { folder.remove() }
        let crop = StageHarness(CropStage.self)
        var oursHold = 0, vipsHold = 0, overlapping = 0
        var lines: [String] = []
        for (n, scene) in SubjectScene.all.enumerated() {
            let image = scene.image
            let (w, h) = scene.crop
            let input = folder.file("scene-\(n).ppm"), output = folder.file("vips-\(n).ppm")
            try OutsideTools.writePPM(image, to: input)
            _ = try OutsideTools.run(Self.vips, ["smartcrop", input, output, "\(w)", "\(h)", "--interesting", "attention"])
            let theirs = try OutsideTools.readPPM(output)
            let at = try #require(ContentAwareCropTests.position(of: theirs, in: image), "vips' crop of \(scene) is no window of it")
            let ours = try crop.runImage(["size": .size(Size(width: Double(w), height: Double(h))), "gravity": .string("attention")],
                                         inputs: ["in": .image(image)])
            let mine = try #require(ContentAwareCropTests.position(of: ours, in: image))
            #expect(scene.holdsSubject(x: mine.x, y: mine.y), "ours on \(scene): window at \(mine)")
            oursHold += scene.holdsSubject(x: mine.x, y: mine.y) ? 1 : 0
            vipsHold += scene.holdsSubject(x: at.x, y: at.y) ? 1 : 0
            // Agreement: the two windows overlap by at least 70 % of their area.
            let ix = max(0, min(mine.x, at.x) + w - max(mine.x, at.x)), iy = max(0, min(mine.y, at.y) + h - max(mine.y, at.y))
            let agree = Double(ix * iy) >= 0.7 * Double(w * h)
            overlapping += agree ? 1 : 0
            lines.append("\(scene): ours \(mine.x),\(mine.y) vips \(at.x),\(at.y)\(agree ? "" : " (differ)")")
        }
        let count = SubjectScene.all.count
        print("smartcrop attention on \(count) scenes: ours holds the subject in \(oursHold), vips in \(vipsHold); windows agree (≥ 70 % overlap) in \(overlapping)\n  "
              + lines.joined(separator: "\n  "))
        #expect(oursHold == count)
    }

    @Test func trimAgreesWithFindTrim() throws {
        let folder = try TemporaryFolder("find-trim")
        defer { folder.remove() }
        let trim = StageHarness(TrimStage.self)
        for (n, scene) in SubjectScene.all.enumerated() {
            let image = scene.image
            let input = folder.file("scene-\(n).ppm")
            try OutsideTools.writePPM(image, to: input)
            let bg = scene.background
            for tolerance in [0, 10, 40] {
                let words = try OutsideTools.run(Self.vips, ["find_trim", input, "--threshold", "\(tolerance)",
                                                             "--background", "\(bg.r) \(bg.g) \(bg.b)"]).split(whereSeparator: \.isWhitespace)
                let box = words.compactMap { Int($0) }
                try #require(box.count == 4, "find_trim printed \(words)")
                let out = try trim.runImage(["tolerance": .integer(tolerance)], inputs: ["in": .image(image)])
                guard case .object(let details)? = trim.details.last else { throw StageError("no details") }
                let reported = details.compactMap { key, value -> (String, Int)? in
                    guard case .number(let v) = value else { return nil }
                    return (key, Int(v))
                }
                let ours = Dictionary(uniqueKeysWithValues: reported)
                #expect([ours["x"], ours["y"], ours["width"], ours["height"]] == box.map { Optional($0) }, "\(scene) tolerance \(tolerance): vips \(box), ours \(ours)")
                #expect(out.width == box[2] && out.height == box[3])
            }
        }
    }
}
