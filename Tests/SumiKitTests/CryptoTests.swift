import SumiCrypto
import Testing

/// The digests Sumi takes from Nettle, against the vectors their standards publish: FIPS 180-4's
/// examples for SHA-256, RFC 4231 for HMAC-SHA256 (a key longer than the block included), RFC 1321
/// for MD5 — and pieces fed one by one equal the whole.
@Suite struct CryptoTests {
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }

    @Test func sha256OfTheStandardsExamples() {
        #expect(Hex.string(SHA256.digest([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Hex.string(SHA256.digest(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Hex.string(SHA256.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // One million "a", fed in pieces of 999 bytes.
        var hash = SHA256()
        let piece = [UInt8](repeating: 0x61, count: 999)
        var left = 1_000_000
        while left > 0 {
            let n = min(left, piece.count)
            piece.withUnsafeBytes { hash.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            left -= n
        }
        #expect(Hex.string(hash.finish()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func hmacSHA256OfRFC4231() {
        // Test case 1: a 20-byte key.
        #expect(Hex.string(HMACSHA256.code(key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8)))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        // Test case 2: a key shorter than the output.
        #expect(Hex.string(HMACSHA256.code(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // Test case 6: a 131-byte key, longer than the block, hashed first.
        #expect(Hex.string(HMACSHA256.code(key: [UInt8](repeating: 0xaa, count: 131),
                                           message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func md5OfRFC1321() {
        #expect(Hex.string(MD5.digest([]), uppercase: true) == "D41D8CD98F00B204E9800998ECF8427E")
        #expect(Hex.string(MD5.digest(Array("abc".utf8))) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(Hex.string(MD5.digest(Array("12345678901234567890123456789012345678901234567890123456789012345678901234567890".utf8)))
                == "57edf4a22be3c955ac49da2e2107b67a")
        #expect(Hex.string(Self.bytes("00ff10")) == "00ff10")
    }
}
