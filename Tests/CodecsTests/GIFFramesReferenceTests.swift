import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// Every frame of animated GIFs (`decode frame=N`) against Pillow's `seek(N - 1)` and
/// `convert('RGBA')`: GIFs written byte by byte with every structure at random (each disposal
/// method, transparent indices, local and grey tables, frames smaller than the screen or past it,
/// interlaced frames, background indices past the table), GIFs Pillow writes, and Pillow's own
/// animated test images (Fixtures/gif-frames). `make test`; GIFFramesTests runs in `make check`.
@Suite struct GIFFramesReferenceTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Fixtures/gif-frames"

    /// Writes the GIFs into argv[1], then for each GIF there and in argv[2] every frame's RGBA as
    /// Pillow shows it, printing "path frame width height rgba-path" a line.
    static let script = #"""
    import glob, os, random, sys
    from PIL import Image
    out, fixtures = sys.argv[1], sys.argv[2]

    def le16(v): return bytes([v & 255, v >> 8 & 255])

    def bits_for(n):
        bits = 0
        while 2 << bits < n: bits += 1
        return bits

    def table(colours):
        bits = bits_for(len(colours))
        return bits, b''.join(bytes(c) for c in colours) + bytes(3 * ((2 << bits) - len(colours)))

    def lzw(indices):
        # Every pixel a literal 9-bit code, a clear code every 250: any indices below 256.
        codes = [256]
        for i, v in enumerate(indices):
            if i and i % 250 == 0: codes.append(256)
            codes.append(v)
        codes.append(257)
        packed, buf, n = bytearray(), 0, 0
        for c in codes:
            buf |= c << n; n += 9
            while n >= 8: packed.append(buf & 255); buf >>= 8; n -= 8
        if n: packed.append(buf & 255)
        data = bytearray([8])
        for s in range(0, len(packed), 255):
            block = packed[s:s + 255]; data += bytes([len(block)]) + block
        return bytes(data + b'\0')

    def random_table(rng):
        if rng.random() < 0.2:
            return [(i, i, i) for i in range(2 << rng.randint(0, 3))]  # grey levels: Pillow reads no table
        return [tuple(rng.randrange(256) for _ in range(3)) for _ in range(rng.randint(1, 40))]

    def random_gif(rng):
        sw, sh = rng.randint(1, 20), rng.randint(1, 20)
        glob_t = random_table(rng) if rng.random() < 0.85 else None
        out = bytearray(b'GIF89a' + le16(sw) + le16(sh))
        if glob_t:
            bits, t = table(glob_t)
            out += bytes([0x80 | bits, rng.randrange(len(glob_t) + 3), 0]) + t
        else:
            out += bytes([0, rng.randrange(4), 0])
        first_coloured = None
        for k in range(rng.randint(2, 6)):
            local = random_table(rng) if rng.random() < 0.4 else None
            # Pillow cannot convert a first frame with a grey table over a coloured global one.
            if k == 0 and local and glob_t and all(c == (i, i, i) for i, c in enumerate(local)): local = None
            coloured = (local or glob_t) is not None and any(c != (i, i, i) for i, c in enumerate(local or glob_t))
            if k == 0: first_coloured = coloured
            # After a grey first frame, grey frames only: Pillow cannot convert a coloured one there.
            if not first_coloured and coloured: local = [(i, i, i) for i in range(256)]
            size = len(local or glob_t or range(256))
            if rng.random() < 0.2:
                w, h = rng.randint(1, sw + 6), rng.randint(1, sh + 6)  # may grow the canvas
                left, top = rng.randint(0, 5), rng.randint(0, 5)
            else:
                w, h = rng.randint(1, sw), rng.randint(1, sh)
                left, top = rng.randint(0, sw - w), rng.randint(0, sh - h)
            # Pillow fails to grow its RGB canvas for a grey frame without a transparent index.
            grows = left + w > sw or top + h > sh
            must_be_transparent = k > 0 and first_coloured and grows and not coloured
            if rng.random() < 0.9 or must_be_transparent:
                transparent = rng.random() < 0.5 or must_be_transparent
                disposal = rng.choice([0, 1, 2, 3, 2, 3, 4])
                index = rng.randrange(min(size + 1, 256))
                out += bytes([0x21, 0xF9, 4, disposal << 2 | transparent, 0, 0, index, 0])
            interlaced = rng.random() < 0.3
            flags = 0x40 if interlaced else 0
            if local:
                bits, t = table(local)
                flags |= 0x80 | bits
            out += b',' + le16(left) + le16(top) + le16(w) + le16(h) + bytes([flags])
            if local: out += t
            # Mostly indices in the table, a few past it; on a first frame with grey levels as its
            # table, none past it (there the first frame keeps its decode: black, where Pillow has grey).
            top_index = size if k == 0 and not coloured else min(size + 2, 256)
            out += lzw([rng.randrange(top_index) for _ in range(w * h)])
        return bytes(out + b';')

    rng = random.Random(38)
    for n in range(60):
        open(f'{out}/random-{n}.gif', 'wb').write(random_gif(rng))

    # GIFs Pillow writes: each disposal method, frames that differ in part (Pillow stores only the
    # changed rectangle), transparency, and a palette of each frame's own (local tables).
    frames = []
    for k in range(5):
        im = Image.new('RGBA', (41, 29), (0, 0, 0, 0) if k % 2 else (250, 240, 230, 255))
        for x in range(41):
            for y in range(29):
                if (x - 8 * k) ** 2 + (y - 14) ** 2 < 40 + 10 * k:
                    im.putpixel((x, y), (40 * k, 255 - 50 * k, (x * 6) % 256, 255))
        frames.append(im)
    for d in range(4):
        frames[0].save(f'{out}/pillow-disposal-{d}.gif', save_all=True, append_images=frames[1:], disposal=d, duration=50, optimize=False)
    opaque = [f.convert('RGB').quantize(colors=16 + 30 * k) for k, f in enumerate(frames)]
    opaque[0].save(f'{out}/pillow-local-tables.gif', save_all=True, append_images=opaque[1:], disposal=[0, 1, 2, 3, 2], duration=50, optimize=False)
    grey = [f.convert('L') for f in frames]
    grey[0].save(f'{out}/pillow-grey.gif', save_all=True, append_images=grey[1:], disposal=[2, 3, 1, 2, 0], duration=50)

    for path in sorted(glob.glob(f'{out}/*.gif')) + sorted(glob.glob(f'{fixtures}/*.gif')):
        im = Image.open(path)
        for k in range(im.n_frames):
            try:
                im.seek(k)
            except Image.DecompressionBombError:
                print(path, k + 1, 0, 0, 'too-large')  # refused by Pillow for its size
                break
            rgba = im.convert('RGBA')
            target = f'{out}/{os.path.basename(path)}.{k + 1}.rgba'
            open(target, 'wb').write(rgba.tobytes())
            print(path, k + 1, rgba.size[0], rgba.size[1], target)
    """#

    /// The indices of the pixels (4 bytes each) where `a` and `b` differ.
    static func differingPixels(_ a: [UInt8], _ b: [UInt8]) -> [Int] {
        var found: [Int] = []
        for p in 0..<(a.count / 4) where a[p * 4 ..< p * 4 + 4] != b[p * 4 ..< p * 4 + 4] { found.append(p) }
        return found
    }

    @Test func everyFrameIsPillows() throws {
        let folder = try ScratchFolder("gif-frames")
        let made = try runTool(["/usr/bin/env", "python3", "-W", "ignore", "-c", Self.script, folder.path, Self.fixtures])
        try #require(made.status == 0, "the GIFs or Pillow's frames could not be made")
        var compared = 0, later = 0, refused = 0, files = Set<String>()
        for line in String(decoding: made.output, as: UTF8.self).split(separator: "\n") {
            let field = line.split(separator: " ").map(String.init)
            guard field.count == 5, let frame = Int(field[1]), let width = Int(field[2]), let height = Int(field[3]) else { continue }
            let path = field[0], name = (path as NSString).lastPathComponent
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            if field[4] == "too-large" {
                // Pillow refuses the frame for its canvas (over 178956970 pixels): so do we, as a limit.
                do {
                    _ = try ImageDecoder.decode(bytes, name: name, frame: frame)
                    Issue.record("\(name) frame \(frame) decoded; Pillow refuses its size")
                } catch let error as StageError {
                    #expect(error.cause == .limit, "\(error.message)")
                }
                refused += 1
                continue
            }
            let ours = try ImageDecoder.decode(bytes, name: name, frame: frame)
            let theirs = Fixtures.premultiplied([UInt8](try Data(contentsOf: URL(fileURLWithPath: field[4]))), width: width, height: height)
            #expect(ours.width == width && ours.height == height, "\(name) frame \(frame): \(ours.width)x\(ours.height), Pillow \(width)x\(height)")
            if ours.width == width && ours.height == height {
                let differing = Self.differingPixels(Array(ours.pixels), Array(theirs.pixels))
                let first = differing.first.map { "\($0 % width),\($0 / width)" } ?? ""
                #expect(differing.isEmpty, "\(name) frame \(frame): \(differing.count) pixels differ from Pillow's, the first at \(first)")
            }
            compared += 1
            if frame > 1 { later += 1 }
            files.insert(name)
        }
        // 60 random GIFs, 6 Pillow writes, 20 of Pillow's own: every one compared, most frames later ones.
        #expect(files.count == 86, "\(files.count) GIFs compared")
        #expect(compared - later == files.count && later > 200, "\(later) later frames compared")
        #expect(refused == 1, "\(refused) frames refused for their size")
        // The last frame exists; one past it is refused, naming the count.
        let bgnd = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/dispose_bgnd.gif")))
        #expect(errorMessage { _ = try ImageDecoder.decode(bgnd, name: "dispose_bgnd.gif", frame: 6) } == "dispose_bgnd.gif has 5 frames; frame=6 does not exist")
    }
}
