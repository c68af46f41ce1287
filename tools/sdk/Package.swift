// swift-tools-version:6.0
import PackageDescription

// The Sumi plugin SDK as `make install` lays it out (PREFIX/share/sumi/sdk): the core and the SDK
// sources, so a Swift plugin depends on it with `.package(name: "Sumi", path: "PREFIX/share/sumi/sdk")`
// and `.product(name: "SumiPluginSDK", package: "Sumi")`, exactly as Examples/SepiaPlugin does.
// The products and targets are those of the source tree's Package.swift, line for line (the
// lines between its "plugin SDK" markers; ManifestAgreementTests compares them): no unsafe flags,
// the plugin's own product adds `-Bsymbolic`.
let package = Package(
    name: "Sumi",
    products: [
        // The plugin SDK's products: tools/sdk/Package.swift declares these lines as they are.
        .library(name: "SumiPluginSDK", targets: ["SumiPluginSDK"]),
        .library(name: "SumiKit", targets: ["SumiKit"]),
        // End of the plugin SDK's products.
    ],
    targets: [
        // The plugin SDK's targets: tools/sdk/Package.swift declares these lines as they are.
        // The versioned C ABI between the host and plugin libraries.
        .target(name: "CSumiPlugin", path: "Sources/CSumiPlugin"),
        // What a stage author needs: values, the Stage protocol, parameters, ports, descriptors,
        // side data, row streams, file I/O and the stage test harness. Free of the imaging C
        // libraries and of process policy (signals, allocator, environment, singletons).
        // Pixel kernels in C any family may use, with no library and no link dependency: the
        // resampler's passes (SSE2 intrinsics, which Swift's SIMD types did not compile to),
        // premultiplication, orientation, and PNG's row filters with the choice among them.
        .target(name: "CSumiPixels", path: "Sources/CSumiPixels"),
        .target(name: "SumiKit", dependencies: ["CSumiPixels"], path: "Sources/SumiKit"),
        // What a Swift plugin library builds on: the Stage protocol exported through the C ABI.
        // No unsafe flags, so a plugin package can depend on Sumi by version; the plugin's own
        // product adds `-Bsymbolic` (see docs/plugins.md).
        .target(name: "SumiPluginSDK", dependencies: ["SumiKit", "CSumiPlugin"], path: "Sources/SumiPluginSDK"),
        // End of the plugin SDK's targets.
    ],
    swiftLanguageModes: [.v6]
)
