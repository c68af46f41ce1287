import SumiEngine
import SumiKit

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
        let path = root + "/" + relative
        guard !relative.hasPrefix("/"), let canonical = SafePaths.canonical(path) else {
            return answer.refuse(404, "no file \"\(MessageText.cut(relative))\" below --root", parameter: "input")
        }
        guard SafePaths.isBelow(canonical, root: root, creating: false) else {
            return answer.refuse(403, "input: \"\(MessageText.cut(relative))\" is outside --root", parameter: "input")
        }
        guard FileIO.isRegularFile(canonical) else {
            return answer.refuse(404, "no file \"\(MessageText.cut(relative))\" below --root", parameter: "input")
        }
        guard let digest = digests.digest(of: canonical, limit: options.maxBody).hex else {
            return answer.refuse(413, "input: the file is larger than --max-body or unreadable", parameter: "input")
        }
        let rest = query.filter { $0.name != "input" }
        let key = [name, digest, rest.map { "\($0.name)=\($0.value)" }.joined(separator: "&"), SumiVersion.string]
        let tag = "\"" + String(SHA256.hex(SHA256.digest(Array(key.joined(separator: "\n").utf8))).prefix(32)) + "\""
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
            let (description, output) = try describe(entry, inputs: [canonical], reads: [], fileSets: [], query: rest, folder: folder.path)
            enqueue(answer, description: description, output: output, folder: folder.path,
                    bytesIn: 0, headers: headers) { folder.remove() }
        } catch {
            folder.remove()
            answer.refuse(error.status, error.message, parameter: error.parameter)
        }
    }
}
