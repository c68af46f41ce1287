import CNettle
import CSumiRuntime
import SumiKit

/// Nettle, opened by the first digest a run takes (an XMP GUID, a served file's `ETag`, a signed
/// URL), not at start-up. libnettle8 is a dependency of the package: without it the process stops
/// at that first digest with the library's name, as the dynamic loader stopped every command when
/// Sumi was linked to it.
enum Nettle {
    static let loaded: Result<sumi_nettle_api, FunctionTable.LoadFailure> = FunctionTable.load(count: Int(sumi_nettle_count())) {
        sumi_dl_open_table(SUMI_NETTLE_LIBRARY, sumi_nettle_names(), Int(sumi_nettle_count()), $0, $1, $2)
    }
}

/// Nettle's functions (libnettle8 is a dependency of the package: `FunctionTable.required`).
var nettle: sumi_nettle_api {
    FunctionTable.required(Nettle.loaded, "digests need \(SUMI_NETTLE_LIBRARY) (Debian package libnettle8)")
}

/// SHA-256 (FIPS 180-4) by Nettle: `ETag`s and file digests of `sumi serve`. Fed in pieces, so a
/// large file is digested without holding it whole.
public struct SHA256: Sendable {
    public static let digestSize = 32
    private var context = sha256_ctx()

    public init() { nettle.nettle_sha256_init(&context) }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        nettle.nettle_sha256_update(&context, bytes.count, base.assumingMemoryBound(to: UInt8.self))
    }

    public mutating func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }

    /// The digest of what was fed; the value starts again empty afterwards.
    public mutating func finish() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Self.digestSize)
        out.withUnsafeMutableBufferPointer { nettle.nettle_sha256_digest(&context, Self.digestSize, $0.baseAddress) }
        return out
    }

    /// The 32-byte digest of `bytes`.
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var hash = SHA256()
        hash.update(bytes)
        return hash.finish()
    }
}

/// HMAC-SHA256 (RFC 2104) by Nettle: signed URLs of `sumi serve`.
public enum HMACSHA256 {
    public static func code(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var context = hmac_sha256_ctx()
        var out = [UInt8](repeating: 0, count: SHA256.digestSize)
        key.withUnsafeBufferPointer { nettle.nettle_hmac_sha256_set_key(&context, $0.count, $0.baseAddress) }
        message.withUnsafeBufferPointer { nettle.nettle_hmac_sha256_update(&context, $0.count, $0.baseAddress) }
        out.withUnsafeMutableBufferPointer { nettle.nettle_hmac_sha256_digest(&context, SHA256.digestSize, $0.baseAddress) }
        return out
    }
}

/// MD5 (RFC 1321) by Nettle: the GUID of JPEG Extended XMP, which the XMP specification defines as
/// the MD5 digest of the extended packet. Not for security.
public enum MD5 {
    public static let digestSize = 16

    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var context = md5_ctx()
        var out = [UInt8](repeating: 0, count: digestSize)
        nettle.nettle_md5_init(&context)
        bytes.withUnsafeBufferPointer { nettle.nettle_md5_update(&context, $0.count, $0.baseAddress) }
        out.withUnsafeMutableBufferPointer { nettle.nettle_md5_digest(&context, digestSize, $0.baseAddress) }
        return out
    }
}

/// Bytes as hexadecimal digits: `lowercase` for HTTP (`ETag`s), upper case for XMP's GUID.
public enum Hex {
    public static func string(_ bytes: [UInt8], uppercase: Bool = false) -> String {
        let digits = Array((uppercase ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
