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
            dependencies: [.product(name: "SumiPluginSDK", package: "Sumi")]
        ),
        .testTarget(name: "SepiaPluginTests", dependencies: ["SepiaPlugin"]),
    ],
    swiftLanguageModes: [.v6]
)
