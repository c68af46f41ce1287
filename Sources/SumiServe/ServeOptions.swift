#if canImport(Glibc)
import Glibc
#endif
import SumiApp
import SumiEngine
import SumiKit

/// The options of `sumi serve`.
struct ServeOptions {
    var address = "127.0.0.1"
    var port: UInt16 = 8080
    var pipelineFolders: [String] = []
    /// The folder requests may read files below (besides their own uploads).
    var root: String?
    var workers = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    var queue = 64
    /// Seconds from a request's arrival to its answer; also the drain time after SIGTERM.
    var timeout = 60
    var maxBody = 100_000_000
    var maxPixels = RunPolicy.maxPixels
    var connectionLimit = 1024
    /// Connections at once from one IP address (`--connections-per-client`); nil: `defaultPerClient`.
    var connectionsPerClient: Int?
    /// Seconds a connection may stay idle.
    var idleTimeout = 30
    /// Seconds for a request's head.
    var headerTimeout = 10
    /// Bytes per second a body (or an output being read) must move over the last few seconds.
    var minBodyRate = 16384
    /// The most the requests' temporary folders hold at once, in MB.
    var maxDisk = 1024
    /// The largest answer file, in MB (a 50 MP BMP would be 150).
    var maxAnswer = 100
    /// Names the `Host` header may give besides the listen address and localhost (`--allow-host`).
    var allowedHosts: [String] = []
    /// What the options given call for a warning about (printed at start).
    var warnings: [String] = []
    /// The most resident memory of one worker, in MB.
    var maxMemory = RunPolicy.maxResident >> 20
    /// The bearer token `POST /run` needs (`--token`, or `SUMI_SERVE_TOKEN`).
    var token: String?
    /// Signed `GET /run` URLs (`--key` and `--salt`, hexadecimal).
    var signature: URLSignature?
    /// Folders whose plugins served pipelines may use (`--plugin-path`, repeatable).
    var pluginPaths: [String] = []

    /// Connections at once from one IP address: `--connections-per-client`, or a quarter of
    /// `--connections` (at least 1), so that one client leaves three quarters to the others.
    var perClientLimit: Int { connectionsPerClient ?? max(1, connectionLimit / 4) }

    /// Parses `argv`; `names` are the options the command line declares for `sumi serve` (each
    /// takes a value).
    static func parse(_ argv: [String], names: [String]) throws(SumiError) -> ServeOptions {
        var options = ServeOptions()
        if let token = getenv("SUMI_SERVE_TOKEN").map({ String(cString: $0) }), !token.isEmpty { options.token = token }
        var keyHex: String?, saltHex: String?, keyFile: String?
        var i = 0
        while i < argv.count {
            let (name, inline) = splitInlineValue(argv[i])
            guard names.contains(name) else {
                throw SumiError.usage("unknown option \(name) for 'sumi serve'\(NameSuggestion.hint(name, in: names)) (try 'sumi serve --help')")
            }
            let value: String
            if let inline { value = inline } else {
                guard i + 1 < argv.count else { throw SumiError.usage("option \(name) needs a value") }
                i += 1
                value = argv[i]
            }
            func number(_ low: Int, _ high: Int) throws(SumiError) -> Int {
                guard let n = Int(value), n >= low, n <= high else {
                    throw SumiError.usage("\(name) needs a whole number from \(low) to \(high), got \"\(value)\"")
                }
                return n
            }
            switch name {
            case "--listen": (options.address, options.port) = try listenAddress(value)
            case "--pipelines":
                guard FileIO.isDirectory(value) else { throw SumiError.usage("--pipelines \(value): not a folder") }
                options.pipelineFolders.append(value)
            case "--root":
                guard FileIO.isDirectory(value), let root = SafePaths.canonical(value) else {
                    throw SumiError.usage("--root \(value): not a folder")
                }
                options.root = root
            case "--workers": options.workers = try number(1, 256)
            case "--queue": options.queue = try number(1, 100_000)
            case "--timeout": options.timeout = try number(1, 3600)
            case "--max-body": options.maxBody = try number(1, 1 << 40)
            case "--max-pixels":
                options.maxPixels = try number(1, RunPolicy.maxPixels)
            case "--connections": options.connectionLimit = try number(1, 100_000)
            case "--connections-per-client": options.connectionsPerClient = try number(1, 100_000)
            case "--max-disk": options.maxDisk = try number(1, 1 << 30)
            case "--max-answer": options.maxAnswer = try number(1, 1 << 30)
            case "--allow-host":
                guard !value.isEmpty, value.utf8.count <= 253, !value.contains(where: { $0 == "/" || $0 == " " || $0 == "@" }) else {
                    throw SumiError.usage("--allow-host needs a host name (NAME, or NAME:PORT), got \"\(value)\"")
                }
                options.allowedHosts.append(value)
            case "--key-file": keyFile = value
            case "--header-timeout": options.headerTimeout = try number(1, 3600)
            case "--max-memory": options.maxMemory = try number(1, 1 << 20)
            case "--token":
                guard !value.isEmpty else { throw SumiError.usage("--token needs a value") }
                options.token = value
            case "--key": keyHex = value
            case "--salt": saltHex = value
            case "--min-body-rate": options.minBodyRate = try number(0, 1 << 30)
            case "--plugin-path":
                guard FileIO.isDirectory(value), let folder = SafePaths.canonical(value) else {
                    throw SumiError.usage("--plugin-path \(value): not a folder")
                }
                options.pluginPaths.append(folder)
            case "--idle-timeout": options.idleTimeout = try number(1, 3600)
            default:
                // An option the table declares for serve that this switch does not read.
                throw SumiError.usage("option \(name) of 'sumi serve' is declared but not read (a defect; please report it)")
            }
            i += 1
        }
        if let (source, key, salt) = try signingSecrets(key: keyHex, salt: saltHex, file: keyFile, warnings: &options.warnings) {
            guard let signature = URLSignature(keyHex: key, saltHex: salt) else {
                throw SumiError.usage("\(source): the key and the salt go together, each in hexadecimal (the key not empty)")
            }
            options.signature = signature
        }
        return options
    }

    /// The URL-signing key and salt (hexadecimal) and where they came from: `--key-file` (key on its
    /// first line, salt on its second), `--key` and `--salt` (with a warning: the process list shows
    /// them), or `SUMI_SERVE_KEY` and `SUMI_SERVE_SALT`; nil when none is given.
    static func signingSecrets(key: String?, salt: String?, file: String?,
                               warnings: inout [String]) throws(SumiError) -> (String, String, String)? {
        if let file {
            guard key == nil && salt == nil else { throw SumiError.usage("--key-file replaces --key and --salt: give one or the other") }
            let text: String
            do throws(StageError) {
                text = String(decoding: try FileIO.read(file, limit: 1 << 16), as: UTF8.self)
            } catch {
                throw SumiError.usage("--key-file \(file): \(error.message)")
            }
            let lines = text.split(whereSeparator: \.isNewline).map { String($0).trimmingWhitespace() }
            guard lines.count >= 2 else {
                throw SumiError.usage("--key-file \(file): needs the key on its first line and the salt on its second, each in hexadecimal")
            }
            return ("--key-file \(file)", lines[0], lines[1])
        }
        if key != nil || salt != nil {
            warnings.append("--key and --salt can be read by other users in the process list; use --key-file, or SUMI_SERVE_KEY and SUMI_SERVE_SALT")
            return ("--key and --salt", key ?? "", salt ?? "")
        }
        let environment = (getenv("SUMI_SERVE_KEY").map { String(cString: $0) }, getenv("SUMI_SERVE_SALT").map { String(cString: $0) })
        guard environment.0 != nil || environment.1 != nil else { return nil }
        return ("SUMI_SERVE_KEY and SUMI_SERVE_SALT", environment.0 ?? "", environment.1 ?? "")
    }

    /// `--listen`'s value: `IPV4:PORT` or `[IPV6]:PORT` (port 0 picks a free one).
    static func listenAddress(_ value: String) throws(SumiError) -> (String, UInt16) {
        let usage = SumiError.usage("--listen needs ADDRESS:PORT (127.0.0.1:8080, or an IPv6 address in brackets: [::1]:8080; port 0 picks a free one), got \"\(value)\"")
        guard let colon = value.lastIndex(of: ":"), colon != value.startIndex, let port = UInt16(value[value.index(after: colon)...]) else { throw usage }
        let host = value[..<colon]
        if host.hasPrefix("[") {
            guard host.hasSuffix("]"), host.count > 2 else { throw usage }
            return (String(host.dropFirst().dropLast()), port)
        }
        guard !host.contains(":") else { throw usage }
        return (String(host), port)
    }

    /// The address as a URL's host: an IPv6 address in brackets.
    var urlHost: String { address.contains(":") ? "[\(address)]" : address }
}
