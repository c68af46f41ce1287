// swift-tools-version:6.0
import PackageDescription

// A Sumi plugin written in Swift: a dynamic library exporting `sumi_plugin_init`.
let package = Package(
    name: "SepiaPlugin",
    products: [
        .library(name: "SepiaPlugin", type: .dynamic, targets: ["SepiaPlugin"]),
    ],
    dependencies: [
        .package(name: "Sumi", path: "../.."),
    ],
    targets: [
        .target(
            name: "SepiaPlugin",
            dependencies: [.product(name: "SumiPluginSDK", package: "Sumi")],
            // The library carries its own copy of SumiKit: bind its references to that copy, never to
            // the host's symbols of the same name (a plugin's own package may use this flag; the
            // products of a versioned dependency may not).
            linkerSettings: [.unsafeFlags(["-Xlinker", "-Bsymbolic"])]
        ),
        .testTarget(name: "SepiaPluginTests", dependencies: ["SepiaPlugin"]),
    ],
    swiftLanguageModes: [.v6]
)
