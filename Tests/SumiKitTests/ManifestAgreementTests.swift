import Foundation
import Testing

/// The two package manifests — the source tree's Package.swift and the installed SDK's
/// tools/sdk/Package.swift — describe the SDK's products and targets the same way, and nothing a
/// package can depend on by version carries unsafe flags (SwiftPM refuses such a dependency).
@Suite struct ManifestAgreementTests {
    static let root = CorePolicyTests.root

    static func manifest(_ relative: String) throws -> String {
        try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
    }

    /// The lines between `// The plugin SDK's KIND:` and `// End of the plugin SDK's KIND.`.
    static func block(_ kind: String, in text: String) throws -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let start = try #require(lines.firstIndex { $0.hasPrefix("// The plugin SDK's \(kind):") }, "no start marker for \(kind)")
        let end = try #require(lines[start...].firstIndex { $0 == "// End of the plugin SDK's \(kind)." }, "no end marker for \(kind)")
        return Array(lines[start..<end])
    }

    /// The top-level entries of the array after `label:` (`products:`, `targets:`), split at commas
    /// outside brackets, parentheses and strings.
    static func entries(_ label: String, in text: String) throws -> [String] {
        let code = text.split(separator: "\n").map { line in
            line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line)
        }.joined(separator: "\n")
        let start = try #require(code.range(of: "\n    \(label): ["), "no \(label) in the manifest")
        var depth = 0, inString = false, current = "", result: [String] = []
        for ch in code[start.upperBound...] {
            if ch == "\"" { inString.toggle() }
            if !inString {
                if ch == "[" || ch == "(" { depth += 1 }
                if ch == "]" || ch == ")" {
                    if depth == 0 { break }
                    depth -= 1
                }
                if ch == "," && depth == 0 {
                    result.append(current.trimmingCharacters(in: .whitespacesAndNewlines)); current = ""; continue
                }
            }
            current.append(ch)
        }
        let last = current.trimmingCharacters(in: .whitespacesAndNewlines)
        return (result + (last.isEmpty ? [] : [last])).filter { !$0.isEmpty }
    }

    /// The first string after `key: "` in an entry.
    static func value(_ key: String, in entry: String) -> String? {
        guard let range = entry.range(of: "\(key): \"") else { return nil }
        return String(entry[range.upperBound...].prefix { $0 != "\"" })
    }

    /// The names in the array after `key: [` in an entry (its dependencies, a product's targets).
    static func names(_ key: String, in entry: String) -> [String] {
        guard let range = entry.range(of: "\(key): [") else { return [] }
        let list = entry[range.upperBound...].prefix { $0 != "]" }
        return list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            .filter { !$0.isEmpty }
    }

    @Test func theSDKManifestDeclaresTheSameProductsAndTargets() throws {
        let main = try Self.manifest("Package.swift"), sdk = try Self.manifest("tools/sdk/Package.swift")
        for kind in ["products", "targets"] {
            let ours = try Self.block(kind, in: main), theirs = try Self.block(kind, in: sdk)
            #expect(ours == theirs, "the plugin SDK's \(kind) differ between Package.swift and tools/sdk/Package.swift")
        }
        // And the SDK manifest declares nothing else.
        let sdkTargets = try Self.entries("targets", in: sdk).compactMap { Self.value("name", in: $0) }
        #expect(sdkTargets == ["CSumiPlugin", "CSumiPixels", "SumiKit", "SumiPluginSDK"])
        let mainTargets = try Self.entries("targets", in: main)
        for name in sdkTargets {
            let ours = mainTargets.filter { Self.value("name", in: $0) == name }
            let theirs = try Self.entries("targets", in: sdk).filter { Self.value("name", in: $0) == name }
            #expect(ours.count == 1 && ours == theirs, "target \(name) is declared differently")
        }
    }

    /// Library products a program takes by path only (SwiftPM allows unsafe flags in the root
    /// package and in path dependencies, not in versioned ones): `SumiApp` reaches `SumiPage`, which
    /// is optimised in debug builds too (`-O`). README's "Use from Swift" says "by path".
    static let pathOnlyProducts: Set<String> = ["SumiApp"]

    /// Every library product's targets, with everything they depend on in the package, are free of
    /// `unsafeFlags`, in both manifests — but for the products taken by path only.
    @Test func noLibraryProductCarriesUnsafeFlags() throws {
        let readme = try Self.manifest("README.md")
        for product in Self.pathOnlyProducts {
            #expect(readme.contains(".product(name: \"\(product)\"") && readme.contains("path:"), "README must show \(product) taken by path")
        }
        for file in ["Package.swift", "tools/sdk/Package.swift"] {
            let text = try Self.manifest(file)
            let targets = try Self.entries("targets", in: text)
            let byName = Dictionary(targets.compactMap { t in Self.value("name", in: t).map { ($0, t) } }, uniquingKeysWith: { a, _ in a })
            let libraries = try Self.entries("products", in: text).filter {
                $0.hasPrefix(".library") && !Self.pathOnlyProducts.contains(Self.value("name", in: $0) ?? "")
            }
            #expect(!libraries.isEmpty)
            var pending = libraries.flatMap { Self.names("targets", in: $0) }, seen: Set<String> = []
            while let name = pending.popLast() {
                guard seen.insert(name).inserted, let target = byName[name] else { continue }
                #expect(!target.contains("unsafeFlags"), "\(file): target \(name), in a library product, has unsafe flags")
                pending += Self.names("dependencies", in: target)
            }
            #expect(seen.contains("SumiKit") && seen.contains("SumiPluginSDK"))
        }
    }
}
