#if canImport(Glibc)
import Glibc
#endif
import CSumiHTTP
import SumiApp
import SumiEngine

/// A libmicrohttpd daemon (a pool of threads polling with epoll), owning its C server: stopped when
/// released. Connections whose request head takes longer than `headerTimeout`, or whose body (or
/// file answer) moves slower than `minBodyRate` over the last few seconds, are closed. A request is
/// refused before its body is stored when its head is malformed or names a foreign Host or Origin,
/// or when the requests' folders would hold more than `maxDisk` bytes. Each complete request (its
/// body already in a file of the request's own folder, 413 sent by the daemon when the body passes
/// `maxBody`) goes to `handler` on a daemon thread, which answers it then or later from any thread.
final class HTTPDaemon: @unchecked Sendable {
    /// What the daemon is started with.
    struct Settings {
        var address = "127.0.0.1"
        var port: UInt16 = 8080
        var threads = 2
        var connectionLimit = 1024
        /// Connections at once from one IP address.
        var perClientLimit = 256
        var idleTimeout = 30
        /// Seconds for a request's head (from the connection, or from the previous answer on it).
        var headerTimeout = 10.0
        /// Bytes per second a body (or a file answer) must move, over the last few seconds.
        var minBodyRate = 16384.0
        var maxBody = 100_000_000
        /// Bytes the requests' folders may hold at once.
        var maxDisk = 1 << 30
        /// Names a `Host` header may give besides the listen address and localhost.
        var allowedHosts: [String] = []
        var temporaryBase = "/tmp"
    }

    /// Holds the handler for the C callback (the daemon's context pointer).
    private final class Box {
        let handler: @Sendable (HTTPRequest) -> Void
        init(_ handler: @escaping @Sendable (HTTPRequest) -> Void) { self.handler = handler }
    }

    private var server: OpaquePointer?
    private let box: Unmanaged<Box>

    init(_ settings: Settings, handler: @escaping @Sendable (HTTPRequest) -> Void) throws(SumiError) {
        var missing: UnsafePointer<CChar>?
        guard sumi_http_library(&missing) == 0 else {
            throw SumiError(.io, "sumi serve needs libmicrohttpd (Debian package libmicrohttpd12), which could not be loaded: "
                                 + (missing.map { String(cString: $0) } ?? "unknown error"))
        }
        box = Unmanaged.passRetained(Box(handler))
        var error = [CChar](repeating: 0, count: 512)
        let made: OpaquePointer? = CStringList.with(settings.allowedHosts) { hosts in
            settings.address.withCString { address in
                settings.temporaryBase.withCString { base in
                    var options = sumi_http_options(
                        address: address, port: settings.port, threads: UInt32(settings.threads),
                        connection_limit: UInt32(settings.connectionLimit), per_client_limit: UInt32(settings.perClientLimit),
                        idle_timeout: UInt32(settings.idleTimeout), header_timeout: settings.headerTimeout,
                        min_body_rate: settings.minBodyRate, max_body: UInt64(settings.maxBody), max_disk: UInt64(settings.maxDisk),
                        allowed_hosts: hosts, temporary_base: base,
                        handler: { context, request in
                            guard let context, let request else { return }
                            Unmanaged<Box>.fromOpaque(context).takeUnretainedValue().handler(HTTPRequest(request))
                        },
                        context: box.toOpaque())
                    return sumi_http_start(&options, &error, error.count)
                }
            }
        }
        guard let made else {
            box.release()
            throw SumiError.usage("--listen: \(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        }
        server = made
    }

    deinit { stop() }

    /// The port listened on (the one chosen when 0 was asked for).
    var port: UInt16 { server.map { sumi_http_port($0) } ?? 0 }

    /// Connections open now.
    var connections: Int { server.map { Int(sumi_http_connections($0)) } ?? 0 }

    /// Bodies refused with 413 so far.
    var refusedBodies: Int { server.map { Int(sumi_http_refused_bodies($0)) } ?? 0 }

    /// Connections closed so far for a head not complete in time or a body too slow.
    var slowClients: Int { server.map { Int(sumi_http_slow_clients($0)) } ?? 0 }

    /// Bytes held now in the requests' folders, and the most held at once.
    var heldBytes: Int { server.map { Int(sumi_http_held_bytes($0)) } ?? 0 }
    var heldPeak: Int { server.map { Int(sumi_http_held_peak($0)) } ?? 0 }

    /// Requests refused with 503 for `maxDisk` so far.
    var diskRefusals: Int { server.map { Int(sumi_http_disk_refusals($0)) } ?? 0 }

    /// Requests refused at their head: bad framing or method (400), foreign Origin (403) or Host (421).
    var headRefusals: Int { server.map { Int(sumi_http_head_refusals($0)) } ?? 0 }

    /// Stops accepting connections and drains: POSTs arriving or still uploading are answered 503
    /// (`Connection: close`), connections between requests are closed; answers in progress go on.
    func drain() { if let server { sumi_http_drain(server) } }

    /// Stops the daemon and closes every connection.
    func stop() {
        guard let server else { return }
        sumi_http_stop(server)
        self.server = nil
        box.release()
    }
}

/// A list of C strings, NULL-terminated, for the length of a call.
enum CStringList {
    static func with<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> Result) -> Result {
        let copies = strings.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        let list: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } } + [nil]
        return list.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}
