import SumiApp
import SumiKit
import SumiCrypto

/// The web editor's files (`web/` in the share folder: `index.html` and its scripts, styles and
/// icons), served by `sumi serve` at `/` and `/NAME`.
///
/// The folder is read once, at the first request: each regular file directly in it whose name is
/// plain (letters, digits, `.`, `-`, `_`, not starting with `.`) and whose extension has a known
/// `Content-Type` is kept in memory with its `ETag` (SHA-256 of its bytes). A request is answered by
/// looking its name up among those files, so no path from a request ever reaches the file system: a
/// `..`, a subfolder, a symbolic link or a file added later cannot be served.
struct ServeStatic: Sendable {
    /// One servable file.
    struct File: Sendable {
        let bytes: [UInt8]
        let type: String
        let tag: String
    }

    /// The types served, by extension; other files in the folder are not served.
    static let types: [String: String] = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png", "ico": "image/x-icon", "json": "application/json",
    ]

    /// Headers on every file: the page loads nothing from elsewhere (it works offline), and caches
    /// revalidate with the `ETag`.
    static let headers = [
        ("Cache-Control", "no-cache"), ("X-Content-Type-Options", "nosniff"),
        ("Content-Security-Policy", "default-src 'self'; img-src 'self' blob: data:; connect-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"),
    ]

    /// The files by name (`index.html` also under `""`, for `/`).
    let files: [String: File]

    /// The shipped editor (`share/sumi/web`, or `web/` in the source tree); empty when there is none.
    static let shipped = ServeStatic(folder: Installation.shareFolder.map { $0 + "/web" })

    init(folder: String?) {
        var files: [String: File] = [:]
        if let folder, let names = try? InputExpansion.entries(of: folder) {
            for name in names where Self.isPlain(name) {
                let path = folder + "/" + name
                guard let type = Self.types[FileIO.fileExtension(of: name).lowercased()], FileIO.isRegularFile(path),
                      let bytes = try? FileIO.read(path, limit: 16 << 20) else { continue }
                files[name] = File(bytes: bytes, type: type, tag: "\"" + String(Hex.string(SHA256.digest(bytes)).prefix(32)) + "\"")
            }
        }
        if let index = files["index.html"] { files[""] = index }
        self.files = files
    }

    /// Whether `name` is a plain file name: no separator, no leading dot, a small alphabet.
    static func isPlain(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 128 && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || "._-".unicodeScalars.contains($0) }
    }

    /// Answers a `GET`/`HEAD` of `path` (`/` or `/NAME`) when it names a served file (304 when
    /// `If-None-Match` holds its tag); false when it names none, so the caller answers 404.
    func serve(_ request: HTTPRequest, path: String, router: ServeRouter) -> Bool {
        guard path.hasPrefix("/"), let file = files[String(path.dropFirst())] else { return false }
        let headers = [("ETag", file.tag)] + Self.headers
        if let match = request.header("If-None-Match"),
           match.split(separator: ",").contains(where: { let t = $0.filter { $0 != " " && $0 != "\t" }; return t == file.tag || t == "W/" + file.tag || t == "*" }) {
            router.respond(request, 304, headers, [])
        } else {
            router.respond(request, 200, [("Content-Type", file.type)] + headers, file.bytes)
        }
        return true
    }
}
