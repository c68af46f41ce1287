import Foundation
import SumiKit
@testable import SumiText
import Testing

/// The packages the missing-glyph warning names really have a font for the characters: each
/// installed package's files (`dpkg -L`) read by fontconfig (`fc-query`) cover a sample of the script
/// (`make test`; a package not installed is skipped, and the build installs all but fonts-noto-cjk).
@Suite struct FontPackagesReferenceTests {
    /// One character of each entry of the table, and the entry it must fall in.
    static let samples: [(character: Character, script: String)] = [
        ("あ", "Japanese kana"), ("ア", "Japanese kana"), ("한", "Hangul"), ("東", "Chinese characters"),
        ("😀", "emoji"), ("é", "Latin"), ("क", "other scripts and symbols"), ("א", "other scripts and symbols"),
        ("ሀ", "other scripts and symbols"), ("ก", "other scripts and symbols"),
    ]

    /// Whether a font file of `package` covers `scalar`, by fontconfig's charset of each file.
    func covers(_ package: String, _ scalar: UInt32) throws -> Bool? {
        let list = try TextTestSupport.run("/usr/bin/dpkg", ["-L", package])
        let fonts = list.split(separator: "\n").map(String.init).filter { $0.hasSuffix(".ttf") || $0.hasSuffix(".otf") || $0.hasSuffix(".ttc") }
        guard !fonts.isEmpty else { return nil }
        for font in fonts {
            let charset = try TextTestSupport.run("/usr/bin/fc-query", ["--format=%{charset}\n", font])
            for line in charset.split(separator: "\n") where Self.charset(String(line), contains: scalar) { return true }
        }
        return false
    }

    /// fontconfig's charset text: ranges like `20-7e 3041-3096 ...` in hex.
    static func charset(_ text: String, contains scalar: UInt32) -> Bool {
        text.split(separator: " ").contains { range in
            let ends = range.split(separator: "-").compactMap { UInt32($0, radix: 16) }
            guard let low = ends.first else { return false }
            return (low...(ends.last ?? low)).contains(scalar)
        }
    }

    @Test func everyNamedPackageHasTheGlyphs() throws {
        var checked = 0
        for (character, script) in Self.samples {
            let scalar = try #require(character.unicodeScalars.first).value
            let entry = try #require(FontPackages.entry(for: scalar), "\(character) is in no entry")
            #expect(entry.script == script, "\(character): \(entry.script)")
            for package in entry.packages {
                guard let covered = try covers(package, scalar) else { continue }
                #expect(covered, "\(package) has no glyph for \(character)")
                checked += 1
            }
        }
        #expect(checked >= Self.samples.count, "too few packages installed to check: \(checked)")
    }

    /// The sizes the warning gives are the installed sizes dpkg records, rounded as `apt show` prints them
    /// (Installed-Size 12223 is "12.2 MB").
    @Test func sizesAreTheInstalledSizes() throws {
        for (package, size) in FontPackages.installedSize {
            let kib = try TextTestSupport.run("/usr/bin/dpkg-query", ["-W", "-f=${Installed-Size}", package])
            guard let kilobytes = Double(kib.trimmingCharacters(in: .whitespacesAndNewlines)) else { continue }
            #expect(size == "\(Int((kilobytes / 1000).rounded())) MB", "\(package): \(kilobytes) KiB")
        }
    }

    /// A character fontconfig finds in no installed font (`fc-list :charset=HEX` is empty) is warned
    /// about with the package the table names for it.
    @Test func theMissingGlyphWarningNamesThePackage() throws {
        var checked = 0
        for (scalar, words) in [(0x3400, "fonts-noto-cjk (91 MB) for rarer Chinese characters"), (0x2A700, "fonts-noto-cjk (91 MB)"),
                                (0xAC00, "fonts-nanum (33 MB)"), (0x3042, "fonts-ipafont-gothic (12 MB)")] as [(UInt32, String)] {
            let fonts = try TextTestSupport.run("/usr/bin/fc-list", [":charset=" + String(scalar, radix: 16)])
            guard fonts.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { continue }
            let harness = StageHarness(TextStage.self)
            _ = try TextTestSupport.content(["text": .string("a" + String(Character(try #require(Unicode.Scalar(scalar)))))], harness: harness)
            #expect(harness.warnings.contains { $0.contains("drawn as missing-glyph boxes") && $0.contains(words) }, "\(harness.warnings)")
            checked += 1
        }
        // The build installs the Japanese and Korean fonts but not fonts-noto-cjk: CJK extension A is missing.
        #expect(checked >= 1, "every sample character has a font here: nothing was checked")
    }

    /// The warning names the package, its size and the script, once per script.
    @Test func adviceNamesEachScriptOnce() {
        let advice = FontPackages.advice(for: [0x3042, 0x30A2, 0xD55C])
        #expect(advice == "; a Debian package with a font for them: fonts-ipafont-gothic (12 MB) or fonts-noto-cjk (91 MB) for Japanese kana; "
                + "fonts-nanum (33 MB) or fonts-noto-cjk (91 MB) for Hangul")
        #expect(FontPackages.advice(for: [0xE000]) == "")
    }
}
