#if canImport(Glibc)
import Glibc
#endif
import CSumiHTTP
import SumiApp
import SumiEngine

/// A libmicrohttpd daemon (a pool of threads polling with epoll), owning its C server: stopped when
/// released. Connections whose request head takes longer than `headerTimeout`, or whose body
/// arrives slower than `minBodyRate` after its first second, are closed. Each complete request (its body already in a file of the request's own folder, 413
/// sent by the daemon when the body passes `maxBody`) goes to `handler` on a daemon thread, which
/// answers it then or later from any thread.
final class HTTPDaemon: @unchecked Sendable {
    /// What the daemon is started with.
    struct Settings {
        var address = "127.0.0.1"
        var port: UInt16 = 8080
        var threads = 2
        var connectionLimit = 1024
        var idleTimeout = 30
        /// Seconds for a request's head (from the connection, or from the previous answer on it).
        var headerTimeout = 10.0
        /// Bytes per second a body must average after its first second.
        var minBodyRate = 16384.0
        var maxBody = 100_000_000
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
        box = Unmanaged.passRetained(Box(handler))
        var error = [CChar](repeating: 0, count: 512)
        let made: OpaquePointer? = settings.address.withCString { address in
            settings.temporaryBase.withCString { base in
                var options = sumi_http_options(
                    address: address, port: settings.port, threads: UInt32(settings.threads),
                    connection_limit: UInt32(settings.connectionLimit), idle_timeout: UInt32(settings.idleTimeout),
                    header_timeout: settings.headerTimeout, min_body_rate: settings.minBodyRate,
                    max_body: UInt64(settings.maxBody), temporary_base: base,
                    handler: { context, request in
                        guard let context, let request else { return }
                        Unmanaged<Box>.fromOpaque(context).takeUnretainedValue().handler(HTTPRequest(request))
                    },
                    context: box.toOpaque())
                return sumi_http_start(&options, &error, error.count)
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

    /// Stops accepting connections; open ones are still served.
    func quiesce() { if let server { sumi_http_quiesce(server) } }

    /// Stops the daemon and closes every connection.
    func stop() {
        guard let server else { return }
        sumi_http_stop(server)
        self.server = nil
        box.release()
    }
}
