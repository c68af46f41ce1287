import Foundation
import Testing

/// The caption pipeline on a portrait photo: its default preview frame follows the photo (390 wide,
/// as tall as the photo's shape after EXIF orientation), so a caption keeps the size it has on a
/// landscape photo of the same width and stays whole; a frame of another shape that leaves the caption
/// beyond the photo is warned about, never cut silently.
@Suite struct PortraitCaptionTests {
    static let text = "text=Tokyo Tower at dusk"

    /// The caption's box (its black border) in a grey photo, from ImageMagick's pixels.
    func box(_ path: String) throws -> (minX: Int, maxX: Int, minY: Int, maxY: Int, width: Int, height: Int) {
        let info = try #require(CLI.identify(path))
        let raw = [UInt8](try #require(CLI.tool("/usr/bin/convert", [path, "-depth", "8", "rgb:-"])))
        var minX = Int.max, maxX = -1, minY = Int.max, maxY = -1
        for y in 0..<info.height {
            for x in 0..<info.width {
                let i = (y * info.width + x) * 3
                if raw[i] < 40 && raw[i + 1] < 40 && raw[i + 2] < 40 {
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                }
            }
        }
        return (minX, maxX, minY, maxY, info.width, info.height)
    }

    /// A grey photo stored 600×400 with EXIF orientation 6: upright it is 400×600.
    func portraitPhoto(_ dir: String) throws -> String {
        _ = CLI.tool("/usr/bin/convert", ["-size", "600x400", "xc:#8090a0", "-quality", "100", dir + "/stored.jpg"])
        let path = dir + "/portrait.jpg"
        try Fixtures.write(Fixtures.withOrientation(try Fixtures.bytes(dir + "/stored.jpg"), 6), to: path)
        return path
    }

    @Test func theDefaultFrameFollowsThePhoto() throws {
        let dir = try CLI.temporaryFolder("caption-portrait")
        let portrait = try portraitPhoto(dir)
        _ = CLI.tool("/usr/bin/convert", ["-size", "400x300", "xc:#8090a0", "-quality", "100", dir + "/landscape.jpg"])
        let p = try CLI.run(["run", "caption", "-i", portrait, "-o", dir + "/p.png", "--set", Self.text])
        let l = try CLI.run(["run", "caption", "-i", dir + "/landscape.jpg", "-o", dir + "/l.png", "--set", Self.text])
        #expect(p.status == 0 && l.status == 0, "\(p.stderr) \(l.stderr)")
        #expect(!p.stderr.contains("warning"), "\(p.stderr)")
        let portraitBox = try box(dir + "/p.png"), landscapeBox = try box(dir + "/l.png")
        #expect(portraitBox.width == 400 && portraitBox.height == 600, "upright after orientation")
        // Whole: all four sides of the border are inside the photo.
        #expect(portraitBox.minX > 0 && portraitBox.maxX < 399 && portraitBox.minY > 0 && portraitBox.maxY < 599, "\(portraitBox)")
        // Same width on photos of the same width, landscape or portrait (one frame unit is 400/390 px in both).
        let pw = portraitBox.maxX - portraitBox.minX + 1, lw = landscapeBox.maxX - landscapeBox.minX + 1
        #expect(abs(pw - lw) <= 1, "portrait \(pw) px, landscape \(lw) px")
        // Centred on the upright photo.
        #expect(abs(Double(portraitBox.minX + portraitBox.maxX + 1) / 2 - 200) <= 1)
        #expect(abs(Double(portraitBox.minY + portraitBox.maxY + 1) / 2 - 300) <= 1)
    }

    /// A landscape frame for a portrait photo shows the photo 173 units wide: a caption wider than
    /// that reaches beyond it, and the run says so, with the sides and pixels, and how to keep it whole.
    @Test func aCaptionCutByAFrameOfAnotherShapeIsWarnedAbout() throws {
        let dir = try CLI.temporaryFolder("caption-portrait-cut")
        let portrait = try portraitPhoto(dir)
        let r = try CLI.run(["run", "caption", "-i", portrait, "-o", dir + "/c.png", "--set", Self.text, "--set", "frame=390x260"])
        #expect(r.status == 0, "\(r.stderr)")
        let cut = try box(dir + "/c.png")
        #expect(cut.minX == 0 && cut.maxX == 399, "the border runs off both sides: \(cut)")
        #expect(r.stderr.contains("the layer reaches beyond the image (left by "), "\(r.stderr)")
        #expect(r.stderr.contains("the 390x260 frame shows the 400x600 image as 173x260"), "\(r.stderr)")
        // The pixels the warning gives are what is missing: both sides the same, and the width
        // of the whole box (from the caption's size on a 1300 px wide canvas in the same scale) minus the photo's.
        let numbers = r.stderr.components(separatedBy: "left by ").last?.split(separator: " ").first.flatMap { Int($0) }
        let left = try #require(numbers)
        _ = CLI.tool("/usr/bin/convert", ["-size", "1300x600", "xc:#8090a0", "-quality", "100", dir + "/wide.jpg"])
        // 1300x600 in a 563.33x260 frame is the same scale (600/260) with room for the whole box.
        let whole = try CLI.run(["run", "caption", "-i", dir + "/wide.jpg", "-o", dir + "/w.png", "--set", Self.text, "--set", "frame=0x260"])
        #expect(whole.status == 0 && !whole.stderr.contains("warning"), "\(whole.stderr)")
        let full = try box(dir + "/w.png")
        let fullWidth = full.maxX - full.minX + 1
        #expect(abs(2 * left + 400 - fullWidth) <= 2, "warned \(left) px a side; the whole box is \(fullWidth) px")
    }
}
