import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// libheif (with its codecs), libtiff (with zstd, xz, LERC, JBIG-KIT) and gdk-pixbuf are opened by
/// the first file that needs them, HarfBuzz, fontconfig, FriBidi and ICU by the first text, and
/// libmicrohttpd (with GnuTLS) when `sumi serve` starts, libtesseract (with leptonica and OpenMP) by
/// a run that recognises text, not at start-up: checked on the built `sumi` with the dynamic loader's own trace, and with unusable
/// copies of the libraries put first on the library path.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["SUMI_BINARY"] != nil, "needs the built sumi (SUMI_BINARY)"))
struct LazyLibraryTests {
    let sumi = ProcessInfo.processInfo.environment["SUMI_BINARY"] ?? ""

    /// Runs sumi with `environment` added; exit status and standard error.
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: sumi)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    /// `sumi formats --json` as format → (read, write).
    func formats(environment: [String: String] = [:]) throws -> [String: (read: Bool, write: Bool)] {
        let run = try run(["formats", "--json"], environment: environment)
        #expect(run.status == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]])
        var table: [String: (read: Bool, write: Bool)] = [:]
        for row in rows {
            if let name = row["format"] as? String, let read = row["read"] as? Bool, let write = row["write"] as? Bool {
                table[name] = (read, write)
            }
        }
        return table
    }

    func recodeManifest(in folder: ScratchFolder) throws -> String {
        try folder.write(Array("""
            {"sumi": 1, "params": {"input": {"type": "path"}, "output": {"type": "path"}},
             "stages": [{"stage": "decode", "with": {"path": "${input}"}}, {"stage": "encode", "with": {"path": "${output}"}}]}
            """.utf8), to: "recode.json")
    }

    @Test func startUpLoadsNeitherLibrary() throws {
        let run = try run(["--version"], environment: ["LD_DEBUG": "files"])
        #expect(run.status == 0)
        #expect(run.errors.contains("libc.so.6"), "the loader trace is there")
        for library in ["libheif", "libx265", "libaom", "libdav1d", "libde265", "libgdk_pixbuf", "libgio", "libtiff", "libLerc",
                        "libjbig", "libzstd", "libmicrohttpd", "libgnutls", "libp11-kit", "libharfbuzz", "libfontconfig",
                        "libfribidi", "libicuuc", "libglib", "libgraphite2", "libopenjp2", "libwebpdemux",
                        "libtesseract", "liblept", "libgomp", "libjpeg", "libgif", "libwebp", "liblcms2", "libfreetype",
                        "libbrotli", "libnettle"] {
            #expect(!run.errors.contains(library), "\(library) loaded at start-up")
        }
    }

    /// A JPEG thumbnail maps libjpeg (and Little CMS for its profile), nothing for text, other
    /// formats or digests.
    @Test func aThumbnailLoadsOnlyWhatItUses() throws {
        let folder = try ScratchFolder("photos")
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let thumbnail = try run(["run", "\(repository)/pipelines/thumbnail.json", "-o", folder.file("thumb.jpg")],
                                environment: ["LD_DEBUG": "files"])
        #expect(thumbnail.status == 0, "\(thumbnail.errors.suffix(500))")
        #expect(thumbnail.errors.contains("libjpeg.so.62"))
        for library in ["libgif", "libwebp", "libfreetype", "libharfbuzz", "libnettle", "libtiff", "libheif"] {
            #expect(!thumbnail.errors.contains(library), "\(library) loaded by a thumbnail")
        }
        #expect(try decodeBytes(try folder.read("thumb.jpg")).width == 512)
    }

    /// libjpeg, giflib, libwebp, Little CMS, FreeType and Nettle are opened on first use: unusable
    /// copies stop only the runs that need them, with an error naming the library and no output.
    @Test func unusableCodecLibrariesAreClearErrorsOnlyWhereNeeded() throws {
        let folder = try ScratchFolder("photos")
        let libraries = folder.file("lib")
        try FileManager.default.createDirectory(atPath: libraries, withIntermediateDirectories: false)
        for name in ["libjpeg.so.62", "libgif.so.7", "libwebp.so.7", "liblcms2.so.2", "libfreetype.so.6", "libnettle.so.8"] {
            try Data("not a shared library".utf8).write(to: URL(fileURLWithPath: "\(libraries)/\(name)"))
        }
        let broken = ["LD_LIBRARY_PATH": libraries]
        let manifest = try recodeManifest(in: folder)
        try folder.write(try PNGEncoder.encode(Fixtures.smooth(width: 32, height: 16)), to: "in.png")
        try folder.write(try JPEGEncoder.encode(Fixtures.smooth(width: 32, height: 16), quality: 90), to: "in.jpg")
        try folder.write(Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x3B], to: "in.gif")

        let version = try run(["--version"], environment: broken)
        #expect(version.status == 0 && version.output.hasPrefix("sumi "))
        let png = try run(["run", manifest, "-i", folder.file("in.png"), "-o", folder.file("out.png")], environment: broken)
        #expect(png.status == 0, "\(png.errors)")
        for (input, output, library) in [("in.jpg", "jpg.png", "libjpeg.so.62"), ("in.gif", "gif.png", "libgif.so.7"),
                                         ("in.png", "png.webp", "libwebp.so.7"), ("in.png", "png.jpg", "libjpeg.so.62")] {
            let failed = try run(["run", manifest, "-i", folder.file(input), "-o", folder.file(output)], environment: broken)
            #expect(failed.status == 1 && failed.errors.contains(library) && failed.errors.contains("could not be loaded"),
                    "\(input) -> \(output): \(failed.errors)")
            #expect(!FileManager.default.fileExists(atPath: folder.file(output)))
        }
        let missing = try formats(environment: broken)
        #expect(missing["jpeg"]?.read == false && missing["gif"]?.read == false && missing["webp"]?.read == false)
        #expect(missing["png"]?.read == true && missing["png"]?.write == true)
    }

    @Test func heifDecodeLoadsLibheif() throws {
        let folder = try ScratchFolder("photos")
        try folder.write(try HEIFEncoder.encode(Fixtures.smooth(width: 32, height: 16), format: .heif, quality: 80,
                                                metadata: OutputMetadata()), to: "in.heic")
        let manifest = try recodeManifest(in: folder)
        let run = try run(["run", manifest, "-i", folder.file("in.heic"), "-o", folder.file("out.png")],
                          environment: ["LD_DEBUG": "files"])
        #expect(run.status == 0, "\(run.errors.suffix(500))")
        #expect(run.errors.contains("libheif.so.1"))
        #expect(try decodeBytes(try folder.read("out.png")).width == 32)
    }

    /// A thumbnail (the shipped pipeline) never maps libtesseract; a run that recognises does, and
    /// `fullpage` with its default `text: none` does not.
    @Test func onlyRecognitionLoadsTesseract() throws {
        let folder = try ScratchFolder("photos")
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let thumbnail = try run(["run", "\(repository)/pipelines/thumbnail.json", "-o", folder.file("thumb.jpg")],
                                environment: ["LD_DEBUG": "files"])
        #expect(thumbnail.status == 0, "\(thumbnail.errors.suffix(500))")
        #expect(thumbnail.errors.contains("libc.so.6") && !thumbnail.errors.contains("libtesseract"))
        let page = try run(["run", "\(repository)/pipelines/fullpage.json", "-o", folder.file("page.pdf")], environment: ["LD_DEBUG": "files"])
        #expect(page.status == 0 && !page.errors.contains("libtesseract"), "\(page.errors.suffix(500))")
        try folder.write(try PNGEncoder.encode(Fixtures.smooth(width: 32, height: 16)), to: "in.png")
        let recognised = try run(["run", "decode path=\(folder.file("in.png")) ! recognize ! encode path=\(folder.file("out.png"))"],
                                 environment: ["LD_DEBUG": "files"])
        #expect(recognised.status == 0 && recognised.errors.contains("libtesseract.so.5"), "\(recognised.errors.suffix(500))")
    }

    @Test func jpeg2000LoadsLibopenjp2OnlyThen() throws {
        let folder = try ScratchFolder("jp2")
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Fixtures/gradient.jp2"
        let manifest = try recodeManifest(in: folder)
        let jp2 = try run(["run", manifest, "-i", fixture, "-o", folder.file("out.png")], environment: ["LD_DEBUG": "files"])
        #expect(jp2.status == 0, "\(jp2.errors.suffix(500))")
        #expect(jp2.errors.contains("libopenjp2.so.7"))
        #expect(try decodeBytes(try folder.read("out.png")).width == 48)
        let png = try run(["run", manifest, "-i", folder.file("out.png"), "-o", folder.file("again.png")], environment: ["LD_DEBUG": "files"])
        #expect(png.status == 0 && !png.errors.contains("libopenjp2"))
    }

    @Test func unusableLibrariesAreClearErrorsOnlyWhereNeeded() throws {
        let folder = try ScratchFolder("photos")
        let libraries = folder.file("lib")
        try FileManager.default.createDirectory(atPath: libraries, withIntermediateDirectories: false)
        for name in ["libheif.so.1", "libgdk_pixbuf-2.0.so.0", "libtiff.so.6", "libmicrohttpd.so.12", "libharfbuzz.so.0", "libopenjp2.so.7",
                     "libtesseract.so.5"] {
            try Data("not a shared library".utf8).write(to: URL(fileURLWithPath: "\(libraries)/\(name)"))
        }
        let broken = ["LD_LIBRARY_PATH": libraries]
        try folder.write(try HEIFEncoder.encode(Fixtures.smooth(width: 32, height: 16), format: .heif, quality: 80,
                                                    metadata: OutputMetadata()), to: "in.heic")
        try folder.write(try PNGEncoder.encode(Fixtures.smooth(width: 32, height: 16)), to: "in.png")
        try folder.write(TestTIFF(width: 2, height: 2, bits: [8, 8, 8], photometric: 2, data: [UInt8](repeating: 128, count: 12)).bytes(), to: "in.tif")
        let manifest = try recodeManifest(in: folder)

        #expect(try run(["--version"], environment: broken).status == 0)
        // Formats of our own codecs still work.
        let png = try run(["run", manifest, "-i", folder.file("in.png"), "-o", folder.file("out.jpg")], environment: broken)
        #expect(png.status == 0, "\(png.errors)")
        #expect(try decodeBytes(try folder.read("out.jpg")).width == 32)
        // HEIF: exit 1 naming the file and the library, no output.
        let heif = try run(["run", manifest, "-i", folder.file("in.heic"), "-o", folder.file("heic.jpg")], environment: broken)
        #expect(heif.status == 1)
        #expect(heif.errors.contains("in.heic") && heif.errors.contains("libheif.so.1") && heif.errors.contains("could not be loaded"),
                "\(heif.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("heic.jpg")))
        // TIFF input needs libtiff; the service needs libmicrohttpd (exit 1, naming it).
        let tiffIn = try run(["run", manifest, "-i", folder.file("in.tif"), "-o", folder.file("tif.png")], environment: broken)
        #expect(tiffIn.status == 1 && tiffIn.errors.contains("in.tif") && tiffIn.errors.contains("libtiff.so.6")
                && tiffIn.errors.contains("could not be loaded"), "\(tiffIn.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("tif.png")))
        let serve = try run(["serve", "--listen", "127.0.0.1:0"], environment: broken)
        #expect(serve.status == 1 && serve.errors.contains("libmicrohttpd.so.12") && serve.errors.contains("could not be loaded"),
                "\(serve.errors)")
        // Text needs HarfBuzz: a caption is an error naming it, before any output.
        let label = try run(["run", "text text=Hi ! encode", "-o", folder.file("label.png")], environment: broken)
        #expect(label.status == 1 && label.errors.contains("libharfbuzz.so.0") && label.errors.contains("could not be loaded"),
                "\(label.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("label.png")))
        // Recognition needs libtesseract: an error naming it before any output.
        let ocr = try run(["run", "decode path=\(folder.file("in.png")) ! recognize ! encode path=\(folder.file("ocr.png"))"], environment: broken)
        #expect(ocr.status == 1 && ocr.errors.contains("libtesseract.so.5") && ocr.errors.contains("could not be loaded"), "\(ocr.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("ocr.png")))
        // TIFF output needs gdk-pixbuf.
        let tiff = try run(["run", manifest, "-i", folder.file("in.png"), "-o", folder.file("out.tiff")], environment: broken)
        #expect(tiff.status == 1)
        #expect(tiff.errors.contains("libgdk_pixbuf-2.0.so.0"), "\(tiff.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.tiff")))
        // JPEG 2000 needs libopenjp2.
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Fixtures/gradient.jp2"
        let jp2 = try run(["run", manifest, "-i", fixture, "-o", folder.file("jp2.png")], environment: broken)
        #expect(jp2.status == 1 && jp2.errors.contains("gradient.jp2") && jp2.errors.contains("libopenjp2.so.7")
                && jp2.errors.contains("could not be loaded"), "\(jp2.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("jp2.png")))
        // sumi formats tells the truth.
        // GIF, BMP, ICO, TGA and QOI are read with giflib and our own readers; TIFF needs libtiff,
        // JPEG 2000 libopenjp2; gdk-pixbuf's own formats (XPM here) are listed only when its loaders
        // are there.
        let missing = try formats(environment: broken)
        for name in ["heif", "avif"] {
            #expect(missing[name]?.read == false && missing[name]?.write == false, "\(name)")
        }
        #expect(missing["tiff"]?.read == false && missing["tiff"]?.write == false)
        #expect(missing["gif"]?.read == true && missing["bmp"]?.read == true && missing["bmp"]?.write == true)
        #expect(missing["jpeg"]?.read == true && missing["jpeg"]?.write == true)
        #expect(missing["ico"]?.read == true && missing["tga"]?.read == true && missing["qoi"]?.read == true)
        #expect(missing["jp2"]?.read == false && missing["xpm"] == nil)
        let usual = try formats()
        for name in ["heif", "avif", "tiff", "gif", "jpeg", "ico", "jp2", "xpm"] { #expect(usual[name]?.read == true, "\(name)") }
        #expect(usual["heif"]?.write == true && usual["avif"]?.write == true && usual["gif"]?.write == false)
    }
}
