import Foundation
import SumiCodecs
import SumiKit
import Testing

/// Inputs the fuzz targets (`make fuzz`) found, kept as regression tests.
@Suite struct FuzzFindingsTests {
    /// decode_bmp: 48 bytes whose header claims a 4 GB info header; gdk-pixbuf allocated it.
    @Test func aBMPHeaderSizeIsCheckedBeforeGdkPixbufAllocatesIt() throws {
        let found: [UInt8] = [0x48, 0x0D, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x5B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0xFF, 0x2C, 0xFF, 0x5B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
        let message = errorMessage { _ = try decodeBytes(Array("BM".utf8) + found) }
        #expect(message?.hasPrefix("test: corrupt BMP header (unknown info header size ") == true, "\(message ?? "decoded")")
        // A data offset past the end is refused the same way.
        var bytes = Array("BM".utf8) + [UInt8](repeating: 0, count: 60)
        bytes[14] = 40
        bytes[10] = 0xFF; bytes[11] = 0xFF; bytes[12] = 0xFF; bytes[13] = 0x7F
        let offset = errorMessage { _ = try decodeBytes(bytes) }
        #expect(offset?.contains("pixel data offset 2147483647 is outside the 62-byte file") == true, "\(offset ?? "decoded")")
    }
}
