// swift-tools-version:6.0
import PackageDescription

// The Sumi plugin SDK as `make install` lays it out (PREFIX/share/sumi/sdk): the core and the SDK
// sources, so a Swift plugin depends on it with `.package(name: "Sumi", path: "PREFIX/share/sumi/sdk")`
// and `.product(name: "SumiPluginSDK", package: "Sumi")`, exactly as Examples/SepiaPlugin does.
let package = Package(
    name: "Sumi",
    products: [
        .library(name: "SumiPluginSDK", targets: ["SumiPluginSDK"]),
        .library(name: "SumiKit", targets: ["SumiKit"]),
    ],
    targets: [
        .target(name: "CSumiPlugin", path: "Sources/CSumiPlugin"),
        .target(name: "SumiKit", dependencies: ["CSumiPlugin"], path: "Sources/SumiKit"),
        .target(
            name: "SumiPluginSDK",
            dependencies: ["SumiKit", "CSumiPlugin"],
            path: "Sources/SumiPluginSDK",
            // A plugin library carries its own copy of the Swift core: bind its references to that copy.
            linkerSettings: [.unsafeFlags(["-Xlinker", "-Bsymbolic"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
