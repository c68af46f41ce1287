#if canImport(Glibc)
import Glibc
#endif
import CSumiHTTP

/// One request of an `HTTPDaemon`, valid until it is answered with `respond`.
struct HTTPRequest: @unchecked Sendable {
    private let request: OpaquePointer

    init(_ request: OpaquePointer) { self.request = request }

    var method: String { String(cString: sumi_http_method(request)) }
    /// The request line's URI as sent (not decoded), query included.
    var uri: String { String(cString: sumi_http_uri(request)) }
    /// The path without the query, percent-decoded.
    var path: String { String(cString: sumi_http_path(request)) }
    /// The request's folder (removed after the answer), for POST.
    var folder: String? { sumi_http_folder(request).map { String(cString: $0) } }
    /// The file with the request body, for POST (not for a form).
    var bodyPath: String? { sumi_http_body_path(request).map { String(cString: $0) } }
    var bodySize: Int { Int(sumi_http_body_size(request)) }

    /// The query's NAME=VALUE pairs, decoded, in order.
    var query: [(name: String, value: String)] {
        (0..<sumi_http_query_count(request)).compactMap { i in
            guard let name = sumi_http_query_name(request, i), let value = sumi_http_query_value(request, i) else { return nil }
            return (String(cString: name), String(cString: value))
        }
    }

    /// Whether the body was `multipart/form-data`: its text fields are then in `query`, its files
    /// in `files`.
    var isForm: Bool { sumi_http_is_form(request) != 0 }

    /// The form's file parts: field name and the file in the request's folder, in order.
    var files: [(field: String, path: String)] {
        (0..<sumi_http_file_count(request)).compactMap { i in
            guard let field = sumi_http_file_field(request, i), let path = sumi_http_file_path(request, i) else { return nil }
            return (String(cString: field), String(cString: path))
        }
    }

    func header(_ name: String) -> String? { sumi_http_header(request, name).map { String(cString: $0) } }

    /// Answers with `body` bytes.
    func respond(status: Int, headers: [(String, String)], body: [UInt8]) {
        withHeaders(headers) { list in
            _ = body.withUnsafeBytes { sumi_http_respond(request, UInt32(status), list, $0.baseAddress, $0.count, -1) }
        }
    }

    /// Answers with `size` bytes of the open file `fd`, which the daemon closes after sending.
    func respond(status: Int, headers: [(String, String)], fd: Int32, size: Int) {
        withHeaders(headers) { list in
            _ = sumi_http_respond(request, UInt32(status), list, nil, size, fd)
        }
    }

    private func withHeaders(_ headers: [(String, String)], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Void) {
        CStringList.with(headers.flatMap { [$0.0, $0.1] }) { list in
            if let list { body(list) }
        }
    }
}
