// swift-tools-version:6.0
import PackageDescription

// The built-in Compose family (`place`, `blend`) built as a plugin library from the very same source
// files (Sources/ComposeFamily is a link to Plugins/Compose): the proof that the plugin ABI carries a
// built-in family unchanged. `make test-parity` runs the compositing tests with the built-in family
// left out (SUMI_SKIP_BUILTIN=compose) and this library in its place. It streams as the built-in
// does: `blend` (a `BandStage`) gets `band_start` from the SDK, `place` reads its base as a shape.
let package = Package(
    name: "ComposePlugin",
    products: [
        .library(name: "ComposePlugin", type: .dynamic, targets: ["ComposePlugin"]),
    ],
    dependencies: [
        .package(name: "Sumi", path: "../.."),
    ],
    targets: [
        // Named apart from the host's SumiCompose module: the plugin carries its own copy.
        .target(
            name: "ComposeFamily",
            dependencies: [.product(name: "SumiPluginSDK", package: "Sumi"), .product(name: "SumiCodecs", package: "Sumi")],
            path: "Sources/ComposeFamily"
        ),
        .target(
            name: "ComposePlugin",
            dependencies: ["ComposeFamily", .product(name: "SumiPluginSDK", package: "Sumi")],
            // Bind the plugin's references to its own copies of SumiKit and SumiCodecs.
            linkerSettings: [.unsafeFlags(["-Xlinker", "-Bsymbolic"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
