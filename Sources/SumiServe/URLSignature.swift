import SumiCrypto
/// Signed `GET /run` URLs, as imgproxy signs them: `/SIGNATURE/run/…`, where SIGNATURE is the
/// unpadded base64url of HMAC-SHA256(key, salt + the rest of the URI as sent, query included); the
/// key and salt are given in hexadecimal (`--key`, `--salt`).
struct URLSignature: Sendable {
    let key: [UInt8]
    let salt: [UInt8]

    /// From hexadecimal key and salt; nil when either is not hexadecimal or the key is empty.
    init?(keyHex: String, saltHex: String) {
        guard let key = Self.bytes(hex: keyHex), !key.isEmpty, let salt = Self.bytes(hex: saltHex) else { return nil }
        self.key = key
        self.salt = salt
    }

    /// The signature of `path` (the URI after the signature segment, starting with `/`).
    func signature(of path: String) -> String {
        Self.base64URL(Self.hmac(key: key, message: salt + Array(path.utf8)))
    }

    /// Whether `signature` signs `path`, compared in constant time.
    func verifies(_ signature: String, path: String) -> Bool {
        Self.constantTimeEqual(Array(signature.utf8), Array(self.signature(of: path).utf8))
    }

    static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        HMACSHA256.code(key: key, message: message)
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var out: [Character] = []
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            var chunk = UInt32(bytes[i]) << 16
            if n > 1 { chunk |= UInt32(bytes[i + 1]) << 8 }
            if n > 2 { chunk |= UInt32(bytes[i + 2]) }
            for j in 0...n { out.append(alphabet[Int((chunk >> UInt32(18 - 6 * j)) & 63)]) }
            i += 3
        }
        return String(out)
    }

    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x61...0x66: c - 0x61 + 10
            case 0x41...0x46: c - 0x41 + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(digits[i]), let low = value(digits[i + 1]) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }
}
