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
        // A data offset past the end of a 1×1 file is truncated data, not a 2 GB gap to fill.
        var bytes = Array("BM".utf8) + [UInt8](repeating: 0, count: 60)
        bytes[14] = 40
        bytes[10] = 0xFF; bytes[11] = 0xFF; bytes[12] = 0xFF; bytes[13] = 0x7F
        bytes[18] = 1; bytes[22] = 1; bytes[26] = 1; bytes[28] = 24
        let offset = errorMessage { _ = try decodeBytes(bytes) }
        #expect(offset == "test: truncated BMP data (the header needs 2147483650 bytes, the file has 62)", "\(offset ?? "decoded")")
        // Pixels starting inside the headers are refused.
        bytes[10] = 20; bytes[11] = 0; bytes[12] = 0; bytes[13] = 0
        let inside = errorMessage { _ = try decodeBytes(bytes) }
        #expect(inside == "test: corrupt BMP header (pixel data offset 20 is inside the headers)", "\(inside ?? "decoded")")
    }

    /// decode_bmp: a 16×12 24-bit BMP whose pixel data offset is 0xFFFF0036; read as a signed
    /// number it passed the data check, and gdk-pixbuf grew its buffer to 4 GB.
    @Test func aBMPDataOffsetWithTheHighBitSetIsTruncatedData() throws {
        var bytes = Array("BM".utf8) + [UInt8](repeating: 0, count: 628)
        bytes[2] = 0x76; bytes[3] = 0x02
        bytes[10] = 0x36; bytes[11] = 0x00; bytes[12] = 0xFF; bytes[13] = 0xFF
        bytes[14] = 40; bytes[18] = 16; bytes[22] = 12; bytes[26] = 1; bytes[28] = 24
        let message = errorMessage { _ = try decodeBytes(bytes) }
        #expect(message?.hasPrefix("test: truncated BMP data (the header needs ") == true, "\(message ?? "decoded")")
    }

    /// decode_bmp: a 1×12 8-bit BMP whose header claims 3099113656 palette colours; gdk-pixbuf
    /// allocated 3.8 GB for them. (The first 60 of its 377 bytes, the rest of the pixels filled.)
    @Test func aBMPPaletteSizeIsCheckedBeforeGdkPixbufAllocatesIt() throws {
        let found: [UInt8] = [0x42, 0x4D, 0x38, 0x05, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x36, 0x00, 0x00, 0x00, 0x28, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x0C, 0x00, 0x00, 0x00, 0x01, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x01, 0x00, 0x00, 0x00, 0x42, 0x9C, 0x4D, 0x00, 0x00, 0x00, 0x00, 0xB8, 0xB8, 0xB8, 0xB8, 0xB8, 0xB8, 0xB8, 0xB8, 0xB8, 0xB8, 0xB8, 0xB8, 0xB8, 0xB8]
        let bytes = found + [UInt8](repeating: 0xB8, count: 317)
        let message = errorMessage { _ = try decodeBytes(bytes) }
        #expect(message == "test: corrupt BMP header (a palette of 3099113656 colours for 8-bit pixels)", "\(message ?? "decoded")")
    }
}
