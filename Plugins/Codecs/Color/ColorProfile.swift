import SumiKit
import Synchronization

/// What Sumi knows about colour spaces: the built profiles it offers (sRGB, Display P3, the spaces of
/// H.273 code points) and the checks an embedded profile passes before it is trusted.
public enum ColorProfile {
    /// sRGB as ICC bytes (what `profile=srgb` tags).
    public static let sRGBData: [UInt8] = LcmsProfile.sRGB().iccData() ?? []

    /// Display P3 (DCI-P3 primaries, D65 white, sRGB curve), built from its published primaries.
    public static func displayP3() -> LcmsProfile? {
        LcmsProfile.rgb(red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060),
                        white: (0.3127, 0.3290), curve: .sRGB, description: "Display P3")
    }

    /// The profile of H.273 colour primaries and transfer characteristics (PNG `cICP`, HEIF `nclx`),
    /// or nil when it is sRGB (primaries 1 with the sRGB curve, or unspecified) or cannot be expressed
    /// as an ICC profile (PQ, HLG, unknown primaries).
    static func fromCICP(primaries: Int, transfer: Int) -> LcmsProfile? {
        guard primaries != 2 else { return nil }              // unspecified: sRGB
        guard let curve = TransferCurve(cicp: transfer == 2 ? 13 : transfer) else { return nil }
        let d65 = (0.3127, 0.3290)
        switch (primaries, curve) {
        case (1, .sRGB):
            return nil
        case (1, _):
            return LcmsProfile.rgb(red: (0.640, 0.330), green: (0.300, 0.600), blue: (0.150, 0.060),
                                   white: d65, curve: curve, description: "BT.709 (H.273 \(primaries)/\(transfer))")
        case (12, _):
            return LcmsProfile.rgb(red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060),
                                   white: d65, curve: curve, description: "Display P3 (H.273 \(primaries)/\(transfer))")
        case (9, _):
            return LcmsProfile.rgb(red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046),
                                   white: d65, curve: curve, description: "BT.2020 (H.273 \(primaries)/\(transfer))")
        case (5, _), (6, _):
            let red = primaries == 5 ? (0.640, 0.330) : (0.630, 0.340)
            let green = primaries == 5 ? (0.290, 0.600) : (0.310, 0.595)
            return LcmsProfile.rgb(red: red, green: green, blue: (0.150, 0.060),
                                   white: d65, curve: curve, description: "BT.601 (H.273 \(primaries)/\(transfer))")
        default:
            return nil
        }
    }

    /// Checks embedded ICC bytes: the profile must be complete (its header's size matches), parse,
    /// describe RGB, and convert to sRGB. Returns the bytes to keep, or nil with the reason (the
    /// image is then treated as sRGB).
    public static func validated(_ data: [UInt8]) -> (profile: [UInt8]?, problem: String?) {
        guard data.count >= 132 else {
            return (nil, "ICC profile of \(data.count) bytes is truncated")
        }
        let declared = Int(data[0]) << 24 | Int(data[1]) << 16 | Int(data[2]) << 8 | Int(data[3])
        guard declared <= data.count else {
            return (nil, "ICC profile is truncated (\(data.count) of \(declared) bytes)")
        }
        guard let profile = LcmsProfile(iccData: data) else {
            return (nil, "ICC profile is corrupt")
        }
        guard profile.isRGB else {
            return (nil, "ICC profile describes \(profile.colorSpaceName) data, not RGB")
        }
        let kept = declared < data.count ? Array(data.prefix(declared)) : data
        // An sRGB matrix/TRC profile (what most sRGB photos carry) is settled from its tags: no
        // probe transform, and `isSRGB` later answers from the cache.
        if let isSRGB = profile.matrixShaperIsSRGB() {
            sRGBAnswers.withLock { $0[ProfileBytes(kept)] = isSRGB }
            if isSRGB { return (kept, nil) }
        }
        guard ColorProbe(from: profile, to: LcmsProfile.sRGB()) != nil else {
            return (nil, "ICC profile \"\(profile.name)\" cannot be used for conversion (corrupt tags)")
        }
        return (kept, nil)
    }

    /// Answers of `isSRGB` so far, by profile bytes (a run meets few profiles, and asks per layer,
    /// capture and page).
    private static let sRGBAnswers = Mutex<[ProfileBytes: Bool]>([:])

    /// Whether `data` is sRGB in effect: nil, or a profile that maps test colours to sRGB within
    /// two 8-bit levels (the sRGB profiles in circulation differ from lcms2's by up to 1.5 levels in
    /// saturated colours; converting between them would only cost time).
    public static func isSRGB(_ data: [UInt8]?) -> Bool {
        guard let data else { return true }
        if data == sRGBData { return true }
        if let known = sRGBAnswers.withLock({ $0[ProfileBytes(data)] }) { return known }
        var answer = false
        if let profile = LcmsProfile(iccData: data), profile.isRGB, let matrixAnswer = profile.matrixShaperIsSRGB() {
            answer = matrixAnswer
        } else if let profile = LcmsProfile(iccData: data), profile.isRGB,
                  let probe = ColorProbe(from: profile, to: LcmsProfile.sRGB()) {
            let samples: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5, 0.5, 0.5, 0.125, 0.8, 0.35, 0.98, 0.94, 0.04, 0.02, 0.03, 0.05]
            answer = zip(samples, probe.convert(samples)).allSatisfy { abs($0 - $1) * 255 <= 2 }
        }
        sRGBAnswers.withLock { $0[ProfileBytes(data)] = answer }
        return answer
    }

    /// Whether two optional profiles are the same space (same bytes, or both sRGB in effect).
    public static func sameSpace(_ a: [UInt8]?, _ b: [UInt8]?) -> Bool {
        if a == b { return true }
        return isSRGB(a) && isSRGB(b)
    }
}

/// ICC bytes as a dictionary key hashed in one pass over the buffer (`Array`'s own hashing feeds
/// the hasher byte by byte: 1.4M instructions for a 20 KB profile).
private struct ProfileBytes: Hashable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
