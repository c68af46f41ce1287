// swift-tools-version:6.0
import PackageDescription

// A Swift program that runs Sumi in-process: Sumi as a package dependency (by path here; a URL or
// a registry works the same), its application layer as the one product it needs.
let package = Package(
    name: "EmbedSwift",
    dependencies: [
        .package(name: "Sumi", path: "../.."),
    ],
    targets: [
        .executableTarget(name: "EmbedSwift", dependencies: [.product(name: "SumiApp", package: "Sumi")]),
    ],
    swiftLanguageModes: [.v6]
)
