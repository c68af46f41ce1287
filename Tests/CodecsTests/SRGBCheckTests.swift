import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// Telling an sRGB profile from its tags (no transform built) gives the probe transform's answer.
@Suite struct SRGBCheckTests {
    /// The probe's answer: test colours through an lcms2 transform to sRGB, within two 8-bit levels.
    static func probeSaysSRGB(_ profile: LcmsProfile) -> Bool {
        guard let probe = ColorProbe(from: profile, to: LcmsProfile.sRGB()) else { return false }
        let samples: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5, 0.5, 0.5, 0.125, 0.8, 0.35, 0.98, 0.94, 0.04, 0.02, 0.03, 0.05]
        return zip(samples, probe.convert(samples)).allSatisfy { abs($0 - $1) * 255 <= 2 }
    }

    @Test func matrixCheckAgreesWithTheProbeOnDebiansProfiles() throws {
        let folders = ["/usr/share/color/icc", "/usr/share/color/icc/colord"]
        var checked = 0, sRGB: [String] = []
        for folder in folders {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where name.hasSuffix(".icc") {
                let path = "\(folder)/\(name)"
                guard let profile = LcmsProfile(iccData: try TestProfiles.load(path)), profile.isRGB,
                      let answer = profile.matrixShaperIsSRGB() else { continue }
                #expect(answer == Self.probeSaysSRGB(profile), "\(path)")
                checked += 1
                if answer { sRGB.append(path) }
            }
        }
        #expect(checked >= 15)
        #expect(sRGB.contains("/usr/share/color/icc/colord/sRGB.icc"))
        #expect(sRGB.contains("/usr/share/color/icc/sRGB.icc"))
        #expect(!sRGB.contains(TestProfiles.adobeRGBPath) && !sRGB.contains(TestProfiles.swappedPath))
        // Built profiles: lcms2's sRGB is, Display P3 (same curve, other primaries) is not.
        #expect(LcmsProfile.sRGB().matrixShaperIsSRGB() == true)
        #expect(try #require(ColorProfile.displayP3()).matrixShaperIsSRGB() == false)
    }

    /// A photo tagged with colord's sRGB profile: validated on decode and then known as sRGB.
    @Test func validatedSRGBProfileIsKnownAsSRGB() throws {
        let bytes = try TestProfiles.load("/usr/share/color/icc/colord/sRGB.icc")
        let (kept, problem) = ColorProfile.validated(bytes)
        #expect(problem == nil && kept == bytes)
        #expect(ColorProfile.isSRGB(kept))
        #expect(ColorProfile.sameSpace(kept, nil))
        #expect(!ColorProfile.isSRGB(try TestProfiles.load(TestProfiles.adobeRGBPath)))
    }
}
