/// Whether the first frame of a GIF holds a sound LZW stream with all its pixels. gdk-pixbuf draws
/// invalid codes as garbage instead of failing, so the stream is walked before decoding (code
/// lengths only, no pixels), as Pillow does when it reports a "broken data stream".
enum GIFLayout {
    /// What is wrong with the first frame's data, or nil when it is sound (or not reached: a
    /// malformed header is left to the decoder).
    static func problem(_ bytes: [UInt8]) -> String? {
        guard bytes.count >= 13 else { return nil }
        var at = 13
        if bytes[10] & 0x80 != 0 { at += 3 << (Int(bytes[10] & 7) + 1) }
        // Extensions up to the first image descriptor.
        while at < bytes.count, bytes[at] == 0x21 {
            at += 2
            guard let end = skipSubBlocks(bytes, from: at) else { return "an extension block is cut off" }
            at = end
        }
        guard at + 10 <= bytes.count, bytes[at] == 0x2C else { return nil }
        let width = Int(bytes[at + 5]) | Int(bytes[at + 6]) << 8
        let height = Int(bytes[at + 7]) | Int(bytes[at + 8]) << 8
        let flags = bytes[at + 9]
        at += 10
        if flags & 0x80 != 0 { at += 3 << (Int(flags & 7) + 1) }
        guard at < bytes.count else { return "the first frame has no image data" }
        let minimumCodeSize = Int(bytes[at])
        guard (1...11).contains(minimumCodeSize) else { return "the first frame's LZW code size is \(minimumCodeSize)" }
        return checkCodes(bytes, from: at + 1, minimumCodeSize: minimumCodeSize, pixels: width * height)
    }

    /// The first frame: its size, and the file cut after that frame's data with a trailer added, so
    /// that gdk-pixbuf (which decodes every frame of an animation) decodes only the one Sumi uses.
    /// Nil when the walk does not reach a whole first frame (left to the decoder and `problem`).
    static func firstFrame(_ bytes: [UInt8]) -> (width: Int, height: Int, file: [UInt8])? {
        guard bytes.count >= 13 else { return nil }
        var at = 13
        if bytes[10] & 0x80 != 0 { at += 3 << (Int(bytes[10] & 7) + 1) }
        while at < bytes.count, bytes[at] == 0x21 {
            guard let end = skipSubBlocks(bytes, from: at + 2) else { return nil }
            at = end
        }
        guard at + 10 <= bytes.count, bytes[at] == 0x2C else { return nil }
        let width = Int(bytes[at + 5]) | Int(bytes[at + 6]) << 8
        let height = Int(bytes[at + 7]) | Int(bytes[at + 8]) << 8
        let flags = bytes[at + 9]
        at += 10
        if flags & 0x80 != 0 { at += 3 << (Int(flags & 7) + 1) }
        guard at < bytes.count, let end = skipSubBlocks(bytes, from: at + 1) else { return nil }
        return (width, height, Array(bytes[..<end]) + [0x3B])
    }

    /// The index after a chain of sub-blocks (ending with a zero-length block), or nil if cut off.
    static func skipSubBlocks(_ bytes: [UInt8], from start: Int) -> Int? {
        var at = start
        while at < bytes.count {
            let length = Int(bytes[at])
            at += 1 + length
            if length == 0 { return at }
        }
        return nil
    }

    /// Walks the LZW codes of one frame, tracking only each dictionary entry's length.
    static func checkCodes(_ bytes: [UInt8], from start: Int, minimumCodeSize: Int, pixels: Int) -> String? {
        let clear = 1 << minimumCodeSize, endOfInformation = clear + 1
        var lengths = [Int](repeating: 1, count: 4096)
        var codeSize = minimumCodeSize + 1, next = clear + 2, previous = -1, decoded = 0
        var block = start, blockEnd = start, bitBuffer = 0, bitCount = 0
        while true {
            // Refill the bit buffer from the sub-blocks.
            while bitCount < codeSize {
                if block == blockEnd {
                    guard blockEnd < bytes.count, bytes[blockEnd] != 0 else {
                        return decoded >= pixels ? nil : "the image data ends after \(decoded) of \(pixels) pixels"
                    }
                    block = blockEnd + 1
                    blockEnd = block + Int(bytes[blockEnd])
                    guard blockEnd <= bytes.count else {
                        return "the image data is cut off after \(decoded) of \(pixels) pixels"
                    }
                }
                bitBuffer |= Int(bytes[block]) << bitCount
                bitCount += 8
                block += 1
            }
            let code = bitBuffer & ((1 << codeSize) - 1)
            bitBuffer >>= codeSize
            bitCount -= codeSize
            if code == clear {
                codeSize = minimumCodeSize + 1
                next = clear + 2
                previous = -1
                continue
            }
            if code == endOfInformation {
                return decoded >= pixels ? nil : "the image data ends after \(decoded) of \(pixels) pixels"
            }
            let length: Int
            if code < clear { length = 1 }
            else if code < next, code > endOfInformation { length = lengths[code] }
            else if code == next, previous >= 0 { length = lengths[previous] + 1 }
            else { return "invalid LZW code \(code) after \(decoded) of \(pixels) pixels" }
            if previous >= 0, next < 4096 {
                lengths[next] = lengths[previous] + 1
                next += 1
                if next == 1 << codeSize, codeSize < 12 { codeSize += 1 }
            }
            decoded += length
            previous = code
            if decoded >= pixels { return nil }
        }
    }
}
