// swift-tools-version:6.0
import Foundation
import PackageDescription

/// The one version of Sumi, from the VERSION file: the binary, the package, the man page and the
/// plugin ABI's `host_version` all read it.
let version = ((try? String(contentsOfFile: Context.packageDirectory + "/VERSION", encoding: .utf8)) ?? "unknown")
    .trimmingCharacters(in: .whitespacesAndNewlines)

/// C libraries from Debian, reached through pkg-config.
func systemLibrary(_ name: String, _ pkg: String, apt: String) -> Target {
    .systemLibrary(name: name, path: "Sources/\(name)", pkgConfig: pkg, providers: [.apt([apt])])
}

/// FreeType's header folder (Debian's layout), for the targets that import CFreeType: its module map
/// links nothing, so pkg-config (which would add `-lfreetype`) is not used.
let freetypeHeaders = SwiftSetting.unsafeFlags(["-Xcc", "-I/usr/include/freetype2"])

let package = Package(
    name: "Sumi",
    products: [
        .executable(name: "sumi", targets: ["sumi"]),
        // The plugin SDK's products: tools/sdk/Package.swift declares these lines as they are.
        .library(name: "SumiPluginSDK", targets: ["SumiPluginSDK"]),
        .library(name: "SumiKit", targets: ["SumiKit"]),
        // End of the plugin SDK's products.
        .library(name: "SumiEngine", targets: ["SumiEngine"]),
        // The application layer, for programs that run Sumi in-process (Examples/EmbedSwift).
        .library(name: "SumiApp", targets: ["SumiApp"]),
        // For plugins built from a built-in family's sources (Examples/ComposePlugin).
        .library(name: "SumiCodecs", targets: ["SumiCodecs"]),
    ],
    targets: [
        // C libraries.
        // HarfBuzz, fontconfig and FriBidi are opened by the first text a run lays out (SumiText's
        // TextLibraries), not linked: their module maps give types and function tables only, without
        // pkg-config (which would link them); their headers are found below /usr/include.
        .systemLibrary(name: "CHarfBuzz", path: "Sources/CHarfBuzz", providers: [.apt(["libharfbuzz-dev"])]),
        // FreeType, Little CMS and Nettle likewise: opened on first use (TextLibraries, `Lcms`, `Nettle`),
        // their module maps giving types and function tables only. FreeType's headers are below
        // /usr/include/freetype2, which the targets importing it add to their search path
        // (`freetypeHeaders`).
        .systemLibrary(name: "CFreeType", path: "Sources/CFreeType", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CFontconfig", path: "Sources/CFontconfig", providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(name: "CFribidi", path: "Sources/CFribidi", providers: [.apt(["libfribidi-dev"])]),
        .systemLibrary(name: "CLcms2", path: "Sources/CLcms2", providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(name: "CNettle", path: "Sources/CNettle", providers: [.apt(["nettle-dev"])]),
        // Thin C shims where the library's error handling needs setjmp (libjpeg, libpng) or varargs
        // handlers (libtiff; its CIELab is converted with lcms2 there), giflib's reader, and the
        // tables of libheif, libtiff and gdk-pixbuf, which are opened (dlopen) by the first file that
        // needs them rather than at every start-up (libheif's codecs alone cost 2/3 of `sumi
        // --version`; libtiff with zstd, xz, LERC and JBIG-KIT 1 ms of it). libpng, zlib and
        // libdeflate are opened the same way by the first PNG or Flate stream (`sumi_png_libraries.h`;
        // Swift reaches zlib through `sumi_zlib.h`'s table). Its filtered deflate (`sumi_flate.h`)
        // compresses PNG-filtered rows for the PNG writer and the PDF writer's Flate images.
        .target(
            name: "CSumiCodecs",
            dependencies: ["CSumiRuntime", "CSumiPixels"],
            path: "Sources/CSumiCodecs"
        ),
        // ICU's line breaking (UAX #14, dictionaries for Thai, Lao, Khmer, Myanmar): ICU's versioned
        // function names are macros Swift cannot import.
        // ICU is opened by the first text a run breaks into lines (its functions looked up by their
        // versioned names), not linked.
        .target(name: "CSumiICU", dependencies: ["CSumiRuntime"], path: "Sources/CSumiICU"),
        // libmicrohttpd for `sumi serve`: its MHD_start_daemon is variadic, and request bodies arrive
        // through a callback; the shim starts the daemon and streams bodies into files. The library
        // (and GnuTLS with the eight libraries behind it) is opened when the service starts
        // (`sumi_mhd.h`), so no other command maps it.
        .target(name: "CSumiHTTP", dependencies: ["CSumiRuntime"], path: "Sources/CSumiHTTP"),
        // Tesseract's C API for `recognize`: libtesseract (with leptonica, OpenMP and the image
        // libraries behind it) is opened by the first recognition a run configures (`sumi_ocr.h`),
        // never linked, so no other command maps it; the shim recognises a band and hands back
        // plain structs.
        .target(name: "CSumiOCR", dependencies: ["CSumiRuntime"], path: "Sources/CSumiOCR"),
        // The version string from the VERSION file.
        .target(name: "CSumiVersion", path: "Sources/CSumiVersion",
                cSettings: [.define("SUMI_VERSION", to: "\"\(version)\"")]),
        // Process-level C calls (glibc's mallopt, which Swift's Glibc module leaves out; openat2,
        // which glibc 2.36 does not wrap) and `sumi_dl_open_table`, how the shims open a library
        // only some runs need (libheif, gdk-pixbuf, libmicrohttpd) on first use.
        .target(name: "CSumiRuntime", path: "Sources/CSumiRuntime"),

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

        // What runs pipelines: manifests, validation, the runner, the registry, plugin loading, and
        // the process policy (signal clean-up, allocator tuning, run options from the environment).
        .target(name: "SumiEngine", dependencies: ["SumiKit", "CSumiPlugin", "CSumiVersion", "CSumiRuntime"],
                path: "Sources/SumiEngine"),

        // Built-in stage families, each registering through the plugin API.
        .target(
            name: "SumiCodecs",
            dependencies: ["SumiKit", "CSumiCodecs", "CSumiPixels", "CLcms2", "SumiCrypto", "CSumiRuntime"],
            path: "Plugins/Codecs"
        ),
        // Digests from a maintained library (Nettle): SHA-256 and HMAC for the service, MD5 for XMP.
        .target(name: "SumiCrypto", dependencies: ["CNettle", "CSumiRuntime", "SumiKit"], path: "Sources/SumiCrypto"),
        .target(name: "SumiTransform", dependencies: ["SumiKit"], path: "Plugins/Transform"),
        .target(
            name: "SumiText",
            dependencies: ["SumiKit", "CHarfBuzz", "CFreeType", "CFontconfig", "CFribidi", "CSumiICU", "CSumiRuntime"],
            path: "Plugins/Text",
            swiftSettings: [freetypeHeaders]
        ),
        .target(name: "SumiCompose", dependencies: ["SumiKit", "SumiCodecs"], path: "Plugins/Compose"),
        // Blur, sharpen, colour adjustments, flatten, round corners. Optimised in every build: the
        // convolutions' vector loops at -Onone make the tests crawl.
        .target(name: "SumiFilters", dependencies: ["SumiKit"], path: "Plugins/Filters",
                swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .target(name: "SumiRecognize", dependencies: ["SumiKit", "CSumiOCR"], path: "Plugins/Recognize"),
        .target(
            name: "SumiPage",
            dependencies: ["SumiKit", "SumiCodecs", "CSumiCodecs", "CSumiPixels", "CSumiRuntime"],
            path: "Plugins/Page",
            // Optimised in every build: image compression at -Onone makes the tests crawl.
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),

        // The application layer: a session of a run policy and a registry prepares pipelines (a manifest,
        // a shipped name or one line) with inputs, output and settings into checked runs. Every front
        // end (the command line, `sumi serve`'s workers, programs embedding Sumi) goes through it.
        .target(
            name: "SumiApp",
            dependencies: ["SumiKit", "SumiEngine", "SumiCodecs", "SumiTransform", "SumiText", "SumiCompose", "SumiPage",
                           "SumiFilters", "SumiRecognize"],
            path: "Sources/SumiApp"
        ),

        // `sumi serve`: the HTTP front end over the application layer (libmicrohttpd through
        // CSumiHTTP), its worker processes and their protocol; the command line only starts it.
        .target(
            name: "SumiServe",
            dependencies: ["SumiKit", "SumiEngine", "SumiApp", "SumiCodecs", "CSumiHTTP", "CSumiRuntime", "SumiCrypto"],
            path: "Sources/SumiServe"
        ),

        // The command-line tool.
        .executableTarget(
            name: "sumi",
            dependencies: ["SumiKit", "SumiEngine", "SumiApp", "SumiServe", "SumiCodecs", "CSumiRuntime"],
            path: "Sources/sumi"
        ),

        // Tests: the core, one target per stage family, end to end.
        .testTarget(name: "SumiServeTests", dependencies: ["SumiServe", "SumiEngine", "SumiKit"], path: "Tests/SumiServeTests"),
        .testTarget(name: "SumiAppTests", dependencies: ["SumiApp", "SumiEngine", "SumiKit"], path: "Tests/SumiAppTests"),
        .testTarget(name: "SumiKitTests", dependencies: ["SumiKit", "SumiCrypto"], path: "Tests/SumiKitTests"),
        .testTarget(name: "SumiEngineTests", dependencies: ["SumiKit", "SumiEngine"], path: "Tests/SumiEngineTests"),
        .testTarget(name: "CodecsTests", dependencies: ["SumiKit", "SumiCodecs", "SumiCrypto"], path: "Tests/CodecsTests",
                    exclude: ["Fixtures"]),
        .testTarget(name: "TransformTests", dependencies: ["SumiKit", "SumiTransform"], path: "Tests/TransformTests"),
        .testTarget(name: "TextTests", dependencies: ["SumiKit", "SumiText", "SumiCodecs"], path: "Tests/TextTests"),
        .testTarget(name: "ComposeTests", dependencies: ["SumiKit", "SumiEngine", "SumiCompose", "SumiText", "SumiCodecs"], path: "Tests/ComposeTests"),
        .testTarget(name: "FiltersTests", dependencies: ["SumiKit", "SumiFilters", "SumiCodecs"], path: "Tests/FiltersTests",
                    exclude: ["Fixtures"]),
        // TextLayerTests reads the PDF's font with FreeType itself: linked here, not in `sumi`.
        .testTarget(name: "PageTests", dependencies: ["SumiKit", "SumiPage", "SumiCodecs", "CSumiCodecs", "CFreeType"], path: "Tests/PageTests",
                    swiftSettings: [freetypeHeaders], linkerSettings: [.linkedLibrary("freetype")]),
        .testTarget(name: "RecognizeTests", dependencies: ["SumiKit", "SumiRecognize", "SumiPage", "SumiCodecs"],
                    path: "Tests/RecognizeTests"),
        .testTarget(name: "EndToEndTests", dependencies: ["SumiKit"], path: "Tests/EndToEndTests"),
        .testTarget(name: "PluginTests", dependencies: ["SumiKit", "SumiEngine", "SumiPluginSDK", "CSumiPlugin", "SumiCompose"], path: "Tests/PluginTests",
                    exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
