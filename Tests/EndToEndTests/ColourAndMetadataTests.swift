import Foundation
import Testing

/// Photos with colour profiles and camera metadata through the shipped pipelines, checked with
/// ImageMagick, exiftool, transicc and heif-enc.
@Suite struct ColourAndMetadataTests {
    static let adobeRGB = "/usr/share/color/icc/colord/AdobeRGB1998.icc"

    /// A fresh temporary folder.
    func folder() throws -> String { try CLI.temporaryFolder("colour") }

    /// A 1170×780 grey-and-blue JPEG tagged Adobe RGB (1998), with camera EXIF.
    func adobePhoto(in dir: String) throws -> String {
        let path = dir + "/adobe.jpg"
        #expect(CLI.tool("/usr/bin/convert", ["-size", "1170x780", "gradient:#8090a0-#405060", "-profile", Self.adobeRGB,
                                              "-quality", "95", path]) != nil)
        #expect(CLI.tool("/usr/bin/exiftool", ["-q", "-overwrite_original", "-Make=Nikon", "-Model=Z6",
                                               "-DateTimeOriginal=2024:07:08 09:10:11", path]) != nil)
        return path
    }

    func rgb(_ path: String) throws -> [UInt8] {
        [UInt8](try #require(CLI.tool("/usr/bin/convert", [path, "-depth", "8", "rgb:-"])))
    }

    func embeddedProfile(_ path: String, in dir: String) throws -> [UInt8] {
        let target = dir + "/extracted-\(UUID().uuidString.prefix(6)).icc"
        #expect(CLI.tool("/usr/bin/convert", [path, target]) != nil)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: target)))
    }

    func exif(_ path: String) throws -> [String: Any] {
        let data = try #require(CLI.tool("/usr/bin/exiftool", ["-j", "-n", path]))
        return (try JSONSerialization.jsonObject(with: data) as? [[String: Any]])?.first ?? [:]
    }

    /// sRGB red as Adobe RGB values, from lcms2's transicc (relative colorimetric).
    func redInAdobeRGB() throws -> [Double] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/transicc")
        process.arguments = ["-i", "*sRGB", "-o", Self.adobeRGB, "-t", "1", "-n"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data("255 0 0\n".utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let values = text.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }.first { $0.count == 3 }
        return try #require(values)
    }

    @Test func captionOnAnAdobeRGBPhoto() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let photo = try adobePhoto(in: dir)
        let recode = dir + "/recode.json"
        try Data(#"{"sumi": 1, "params": {"input": {"type": "path"}, "output": {"type": "path"}}, "stages": [{"stage": "decode", "with": {"path": "${input}"}}, {"stage": "encode", "with": {"path": "${output}"}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: recode))
        let plain = try CLI.run(["run", recode, "-i", photo, "-o", dir + "/plain.png"])
        #expect(plain.status == 0, "\(plain.stderr)")
        let caption = try CLI.run(["run", CLI.root + "/pipelines/caption.json", "-i", photo, "-o", dir + "/caption.png",
                                   "--set", "text=HHHH", "--set", "frame=390x260"])
        #expect(caption.status == 0, "\(caption.stderr)")
        let jpeg = try CLI.run(["run", CLI.root + "/pipelines/caption.json", "-i", photo, "-o", dir + "/caption.jpg"])
        #expect(jpeg.status == 0, "\(jpeg.stderr)")

        // The same profile comes out, in PNG and JPEG, and the camera EXIF with it.
        let source = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.adobeRGB)))
        #expect(try embeddedProfile(dir + "/caption.png", in: dir) == source)
        #expect(try embeddedProfile(dir + "/caption.jpg", in: dir) == source)
        let tags = try exif(dir + "/caption.jpg")
        #expect(tags["Make"] as? String == "Nikon" && tags["DateTimeOriginal"] as? String == "2024:07:08 09:10:11")

        // Outside the caption box, the pixels equal a plain recode's.
        let a = try rgb(dir + "/plain.png"), b = try rgb(dir + "/caption.png")
        #expect(a.count == 1170 * 780 * 3 && b.count == a.count)
        var minX = Int.max, maxX = -1, minY = Int.max, maxY = -1
        for p in 0..<(1170 * 780) where a[p * 3] != b[p * 3] || a[p * 3 + 1] != b[p * 3 + 1] || a[p * 3 + 2] != b[p * 3 + 2] {
            let x = p % 1170, y = p / 1170
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        }
        #expect(maxX > minX && maxY > minY, "the caption changed nothing")
        // The box (padding 16 and border 1 around a 17 px line, scaled 3×) is centred; all changes are in it.
        #expect(maxX - minX < 600 && maxY - minY < 250, "changes spread over \(minX)...\(maxX) x \(minY)...\(maxY)")
        #expect(abs(Double(minX + maxX) / 2 - 585) < 3 && abs(Double(minY + maxY) / 2 - 390) < 3)

        // The text's red, converted into Adobe RGB: the most saturated pixel in the box is sRGB
        // red as transicc puts it in Adobe RGB, not (255, 0, 0) read as Adobe RGB.
        var best = (r: 0, g: 255, b: 255)
        for y in minY...maxY {
            for x in minX...maxX {
                let i = (y * 1170 + x) * 3
                let (r, g, bl) = (Int(b[i]), Int(b[i + 1]), Int(b[i + 2]))
                if r - g > best.r - best.g { best = (r, g, bl) }
            }
        }
        let expected = try redInAdobeRGB()
        #expect(abs(Double(best.r) - expected[0]) <= 2.5 && Double(best.g) <= expected[1] + 2.5 && Double(best.b) <= expected[2] + 2.5,
                "text red \(best) vs transicc \(expected)")
        #expect(best.r < 240, "unconverted sRGB red \(best)")
    }

    @Test func heicFromHeifEncCaptionedToJPEG() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let photo = try adobePhoto(in: dir)
        let heic = dir + "/phone.heic"
        #expect(CLI.tool("/usr/bin/heif-enc", ["-q", "85", photo, "-o", heic]) != nil)
        let r = try CLI.run(["run", CLI.root + "/pipelines/caption.json", "-i", heic, "-o", dir + "/out.jpg", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let info = try #require(CLI.identify(dir + "/out.jpg"))
        #expect(info.format == "JPEG" && info.width == 1170 && info.height == 780)
        #expect(try embeddedProfile(dir + "/out.jpg", in: dir) == [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.adobeRGB))))
        let tags = try exif(dir + "/out.jpg")
        #expect(tags["Make"] as? String == "Nikon" && (tags["Orientation"] as? Int ?? 1) == 1)
    }

    @Test func thumbnailExposesProfile() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let photo = try adobePhoto(in: dir)
        let keep = try CLI.run(["run", CLI.root + "/pipelines/thumbnail.json", "-i", photo, "-o", dir + "/keep.jpg"])
        #expect(keep.status == 0, "\(keep.stderr)")
        let srgb = try CLI.run(["run", CLI.root + "/pipelines/thumbnail.json", "-i", photo, "-o", dir + "/srgb.jpg",
                                "--set", "profile=srgb", "--set", "metadata=strip"])
        #expect(srgb.status == 0, "\(srgb.stderr)")
        #expect(try embeddedProfile(dir + "/keep.jpg", in: dir) == [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.adobeRGB))))
        let converted = try exif(dir + "/srgb.jpg")
        #expect((converted["ProfileDescription"] as? String)?.contains("sRGB") == true)
        #expect(converted["Make"] == nil)
        // Converting to sRGB makes the Adobe RGB values brighter in blue-grey: compare a centre pixel
        // with ImageMagick's own -profile conversion.
        let reference = dir + "/reference.jpg"
        #expect(CLI.tool("/usr/bin/convert", [dir + "/keep.jpg", "-profile", "/usr/share/color/icc/colord/sRGB.icc", reference]) != nil)
        let ours = try rgb(dir + "/srgb.jpg"), theirs = try rgb(reference)
        #expect(ours.count == theirs.count)
        let worst = zip(ours, theirs).map { abs(Int($0) - Int($1)) }.max() ?? 255
        #expect(worst <= 6, "largest channel difference from ImageMagick -profile: \(worst)")
    }

    @Test func formatsListsProfilesAndMetadata() throws {
        let r = try CLI.run(["formats", "--json"])
        #expect(r.status == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [[String: Any]])
        let heif = try #require(rows.first { $0["format"] as? String == "heif" })
        #expect(heif["read"] as? Bool == true && heif["write"] as? Bool == true)
        #expect((rows.first { $0["format"] as? String == "jpeg" }?["profile"] as? String)?.contains("ICC") == true)
        let text = try CLI.run(["formats"])
        #expect(text.stdout.contains("avif") && text.stdout.contains("EXIF"))
        #expect(try CLI.run(["formats", "--bogus"]).status == 2)
    }

    @Test func badHEICGivesAClearError() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let photo = try adobePhoto(in: dir)
        #expect(CLI.tool("/usr/bin/heif-enc", [photo, "-o", dir + "/a.heic"]) != nil)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/a.heic")))
        try Data(bytes.prefix(bytes.count / 3)).write(to: URL(fileURLWithPath: dir + "/cut.heic"))
        let r = try CLI.run(["run", CLI.root + "/pipelines/thumbnail.json", "-i", dir + "/cut.heic", "-o", dir + "/t.jpg"])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("sumi: error:") && r.stderr.contains("cut.heic"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/t.jpg"))
    }
}
