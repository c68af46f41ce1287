import SumiApp
import SumiEngine
import SumiKit
import SumiCrypto

extension ServeRouter {
    /// How long a cache may keep a `GET /run` answer without asking again.
    static let cacheControl = "public, max-age=3600"

    /// `GET /run/{name}?input=REL&…`: runs on a file below `--root` (refused without one, and for
    /// any path outside it), answered with an `ETag` (a SHA-256 of the pipeline, the input's bytes,
    /// the rest of the query and Sumi's version) and `Cache-Control`, so a CDN can cache it; a
    /// matching `If-None-Match` is answered 304 without running.
    func runFromRoot(_ request: HTTPRequest, name: String) {
        guard let (entry, answer) = begin(request, name: name) else { return }
        guard let root = options.root else {
            return answer.refuse(403, "GET /run reads files below --root, and this server has none: POST the image instead")
        }
        let query = request.query
        let given = query.filter { $0.name == "input" }.map(\.value)
        guard given.count == 1, let relative = given.first, !relative.isEmpty else {
            return answer.refuse(400, "GET /run needs one input=PATH, relative to --root", parameter: "input")
        }
        // One answer for every name that is not a regular file below the root (outside, through a
        // link, missing): an answer must not tell which paths exist elsewhere.
        guard let file = RootFile(root: root, relative: relative) else {
            return answer.refuse(404, "no file \"\(MessageText.cut(relative))\" below --root", parameter: "input")
        }
        guard let digest = digests.digest(of: file.fd, key: relative, limit: options.maxBody).hex else {
            return answer.refuse(413, "input: the file is larger than --max-body or unreadable", parameter: "input")
        }
        let rest = query.filter { $0.name != "input" }
        let tag = Self.entityTag(pipeline: name, inputDigest: digest, query: rest)
        let headers = [("ETag", tag), ("Cache-Control", Self.cacheControl)]
        if let match = request.header("If-None-Match"),
           match.split(separator: ",").contains(where: { let t = String($0.filter { $0 != " " && $0 != "\t" }); return t == tag || t == "*" || t == "W/" + tag }) {
            respond(request, 304, headers, [])
            return answer.finish(status: 304, bytesOut: 0, started: false)
        }
        let folder: TemporaryFolder
        do { folder = try TemporaryFolder("serve") } catch {
            return answer.refuse(500, "cannot make the request's temporary folder: \(error.message)")
        }
        do throws(Refusal) {
            // The worker reads the file the server opened (`file` stays open until the answer).
            let work = try describe(entry, inputs: [file.workerPath], reads: [], opened: [file.workerPath], fileSets: [],
                                    query: rest, folder: folder.path)
            enqueue(answer, work: work, folder: folder.path,
                    bytesIn: 0, headers: headers, shown: [(file.workerPath, relative)]) { withExtendedLifetime(file) { folder.remove() } }
        } catch {
            folder.remove()
            answer.refuse(error.status, error.message, parameter: error.parameter)
        }
    }

    /// The `ETag` of a `GET /run` answer: a SHA-256 of the pipeline, the input's digest, the query
    /// (every name and value with its length before it, so `text=A%26size%3D90` and
    /// `text=A&size=90` differ) and Sumi's version.
    static func entityTag(pipeline: String, inputDigest: String, query: [(name: String, value: String)]) -> String {
        var key: [UInt8] = []
        for field in [pipeline, inputDigest, SumiVersion.string] + query.flatMap({ [$0.name, $0.value] }) {
            key += Array("\(field.utf8.count):".utf8) + Array(field.utf8)
        }
        return "\"" + String(Hex.string(SHA256.digest(key)).prefix(32)) + "\""
    }
}
