import Foundation
import SumiCodecs
import SumiKit
import Testing

/// Profiles written back as exiftool reads them, and conversions to sRGB against lcms2's transicc (`make test`).
@Suite struct ColourProfileReferenceTests {
    func encode(_ image: Image, to path: String, _ extra: [String: ParamValue] = [:]) throws {
        try ColourProfileTests().encode(image, to: path, extra)
    }

    @Test(arguments: ["jpg", "png", "webp", "tif", "heic", "avif"])
    func everyEncoderWritesTheProfileBack(ext: String) throws {
        let folder = try ScratchFolder("photos")
        let adobe = try TestProfiles.load(TestProfiles.adobeRGBPath)
        let image = colourStrip(ColourProfileTests.testColors, profile: adobe)
        try encode(image, to: folder.file("out.\(ext)"))
        let back = try ImageDecoder.decode(try folder.read("out.\(ext)"), name: "out.\(ext)")
        #expect(back.metadata.iccProfile == adobe)
        // Other readers see it too.
        let tags = try exifTool(folder.file("out.\(ext)"))
        #expect((tags["ProfileDescription"] as? String)?.contains("Adobe RGB (1998)") == true)
    }

    @Test func stripWritesNoProfileAndLeavesPixels() throws {
        let folder = try ScratchFolder("photos")
        let image = colourStrip(ColourProfileTests.testColors, profile: try TestProfiles.load(TestProfiles.adobeRGBPath))
        try encode(image, to: folder.file("out.png"), ["profile": .string("strip")])
        let back = try ImageDecoder.decode(try folder.read("out.png"), name: "out.png")
        #expect(back.metadata.iccProfile == nil)
        #expect(back.pixels == image.pixels)
        #expect(try exifTool(folder.file("out.png"))["ProfileDescription"] == nil)
    }

    /// `profile=srgb` against lcms2's own transicc, for Adobe RGB and for SwappedRedAndGreen (where a
    /// missing conversion would leave red red instead of green).
    @Test(arguments: [TestProfiles.adobeRGBPath, TestProfiles.swappedPath])
    func srgbConversionMatchesTransicc(profilePath: String) throws {
        let folder = try ScratchFolder("photos")
        let image = colourStrip(ColourProfileTests.testColors, profile: try TestProfiles.load(profilePath))
        try encode(image, to: folder.file("out.png"), ["profile": .string("srgb")])
        let back = try ImageDecoder.decode(try folder.read("out.png"), name: "out.png")
        #expect(ColorProfile.isSRGB(back.metadata.iccProfile))
        #expect(back.metadata.iccProfile != nil)
        let reference = try transiccToSRGB(ColourProfileTests.testColors.map { (Double($0.0), Double($0.1), Double($0.2)) }, profile: profilePath)
        #expect(reference.count == ColourProfileTests.testColors.count)
        for (index, expected) in reference.enumerated() {
            let p = back.pixel(x: index * 4 + 1, y: 1)
            let difference = deltaE2000(labFromSRGB(expected), labFromSRGB((Double(p.r), Double(p.g), Double(p.b))))
            #expect(difference < 1, "colour \(index): \(p) vs transicc \(expected): ΔE2000 \(difference)")
        }
        if profilePath == TestProfiles.swappedPath {
            let red = back.pixel(x: 1, y: 1)
            #expect(red.g > 200 && red.r < 60, "red through SwappedRedAndGreen must come out green, got \(red)")
        }
    }

    /// Display P3 built from its published primaries: sRGB colours are inside its gamut, so sRGB →
    /// P3 → sRGB returns them; its red is more saturated than sRGB's (P3 red shown as sRGB clips).
    @Test func displayP3FromPublishedPrimaries() throws {
        let folder = try ScratchFolder("photos")
        let p3 = try #require(ColorProfile.displayP3()?.iccData())
        let p3Path = try folder.write(p3, to: "p3.icc")
        var image = colourStrip(ColourProfileTests.testColors, profile: nil)
        try ColorConversion.convert(&image, to: p3)
        #expect(image.metadata.iccProfile == p3)
        let inP3 = image.pixel(x: 1, y: 1)
        #expect(inP3.r < 240 && inP3.g > 40, "sRGB red in P3 is less than full P3 red, got \(inP3)")
        let reference = try transiccToSRGB([(Double(inP3.r), Double(inP3.g), Double(inP3.b))], profile: p3Path)
        #expect(deltaE2000(labFromSRGB(try #require(reference.first)), labFromSRGB((255, 0, 0))) < 1)
        try ColorConversion.convert(&image, to: nil)
        for (index, color) in ColourProfileTests.testColors.enumerated() {
            let p = image.pixel(x: index * 4, y: 0)
            #expect(deltaE2000(labFromSRGB((Double(p.r), Double(p.g), Double(p.b))),
                               labFromSRGB((Double(color.0), Double(color.1), Double(color.2)))) < 1)
        }
    }
}
