import Testing
import SumiKit

/// `PixelBuffer` behaves as `[UInt8]` does — the reference here is the standard library's array,
/// given the same operations — and copies share one storage until one of them writes.
@Suite struct PixelBufferTests {
    static func bytes(_ count: Int, seed: UInt8 = 3) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed)) }
    }

    @Test func aWriteToASharedBufferCopiesItAndLeavesTheOtherUnchanged() {
        let original = Self.bytes(64)
        var a = PixelBuffer(original)
        let b = a
        #expect(a.baseAddress == b.baseAddress)
        let sharedBefore = !a.isUniquelyReferenced()
        #expect(sharedBefore)
        a[5] = 200
        #expect(a.baseAddress != b.baseAddress)
        #expect(b == original)
        #expect(a[5] == 200 && Array(a[0..<5]) == Array(original[0..<5]) && Array(a[6...]) == Array(original[6...]))
        // Now alone: further writes stay in place.
        let aloneAfter = a.isUniquelyReferenced()
        #expect(aloneAfter)
        let address = a.baseAddress
        a[6] = 201
        a.withUnsafeMutableBufferPointer { $0[7] = 202 }
        a.withUnsafeMutableBytes { $0[8] = 203 }
        #expect(a.baseAddress == address)
        #expect(Array(a[5...8]) == [200, 201, 202, 203])
    }

    @Test func everyMutationCopiesASharedBufferFirst() {
        let original = Self.bytes(32)
        let writes: [(inout PixelBuffer) -> Void] = [
            { $0[0] = 99 },
            { $0.withUnsafeMutableBufferPointer { $0[0] = 99 } },
            { $0.withUnsafeMutableBytes { $0[0] = 99 } },
            { $0[0..<2] = PixelBuffer([99, 98])[0..<2] },
            { $0.makeUnique(); _ = $0.withContiguousMutableStorageIfAvailable { $0[0] = 99 } },
        ]
        for (n, write) in writes.enumerated() {
            var a = PixelBuffer(original)
            let kept = a
            write(&a)
            #expect(a[0] == 99, "write \(n)")
            #expect(kept == original, "write \(n)")
            #expect(a.baseAddress != kept.baseAddress, "write \(n)")
        }
    }

    @Test func matchesAnArrayUnderTheSameOperations() {
        // Random writes through copies taken along the way, applied to arrays and to buffers alike.
        var rng = SystemRandomNumberGenerator()
        var arrays: [[UInt8]] = [Self.bytes(257)]
        var buffers: [PixelBuffer] = [PixelBuffer(arrays[0])]
        for _ in 0..<2000 {
            let k = Int.random(in: 0..<arrays.count, using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0 where arrays.count < 8:
                arrays.append(arrays[k])
                buffers.append(buffers[k])
            case 1:
                let i = Int.random(in: 0..<257, using: &rng), v = UInt8.random(in: 0...255, using: &rng)
                arrays[k][i] = v
                buffers[k][i] = v
            case 2:
                let v = UInt8.random(in: 0...255, using: &rng)
                let lo = Int.random(in: 0..<257, using: &rng), hi = Int.random(in: lo...257, using: &rng)
                arrays[k].withUnsafeMutableBufferPointer { for i in lo..<hi { $0[i] = v } }
                buffers[k].withUnsafeMutableBufferPointer { for i in lo..<hi { $0[i] = v } }
            default:
                arrays[k].reverse()
                buffers[k].reverse()
            }
        }
        for (array, buffer) in zip(arrays, buffers) {
            #expect(buffer == array)
            #expect(Array(buffer) == array)
            #expect(buffer.reduce(0) { $0 &+ Int($1) } == array.reduce(0) { $0 &+ Int($1) })
        }
    }

    @Test func convertsToAndFromArraysAndBuildsLikeOne() {
        let bytes = Self.bytes(40)
        #expect(Array(PixelBuffer(bytes)) == bytes)
        #expect(PixelBuffer(bytes[3..<9]) == Array(bytes[3..<9]))
        #expect(PixelBuffer(repeating: 7, count: 5) == [UInt8](repeating: 7, count: 5))
        let literal: PixelBuffer = [1, 2, 3]
        #expect(literal == [1, 2, 3] as [UInt8] && literal.count == 3 && !literal.isEmpty)
        #expect(PixelBuffer().isEmpty && PixelBuffer() == PixelBuffer([]))
        // As Array's: the initializer says how many bytes it wrote.
        let partial = PixelBuffer(unsafeUninitializedCapacity: 10) { buffer, written in
            for i in 0..<4 { buffer[i] = UInt8(i + 1) }
            written = 4
        }
        #expect(partial == [1, 2, 3, 4] as [UInt8])
        #expect(PixelBuffer(bytes).hashValue == PixelBuffer(bytes).hashValue)
        #expect(PixelBuffer(bytes) != PixelBuffer(Self.bytes(40, seed: 4)))
        #expect(PixelBuffer(bytes).withUnsafeBytes { Array($0) } == bytes)
    }

    @Test func copiesWrittenOnSeveralThreadsStayApart() async {
        let original = PixelBuffer(Self.bytes(4096))
        let results = await withTaskGroup(of: PixelBuffer.self) { group in
            for t in 0..<8 {
                group.addTask {
                    var mine = original
                    for i in stride(from: t, to: mine.count, by: 8) { mine[i] = UInt8(t) }
                    return mine
                }
            }
            var all: [PixelBuffer] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(original == Self.bytes(4096))
        var marks: Set<Int> = []
        for result in results {
            // Each result holds its own thread's marks and the original bytes everywhere else.
            let marked = (0..<8).first { k in stride(from: k, to: 4096, by: 8).allSatisfy { result[$0] == UInt8(k) } }
            #expect(marked != nil)
            if let marked {
                marks.insert(marked)
                #expect((0..<4096).allSatisfy { $0 % 8 == marked || result[$0] == original[$0] })
            }
        }
        #expect(marks == Set(0..<8))
    }

    @Test func anImageMadeFromAnArrayStillWorks() {
        // Plugin code written when pixels were an array.
        let bytes = Self.bytes(2 * 3 * 4)
        var image = Image(width: 2, height: 3, pixels: bytes)
        #expect(image.pixels == bytes)
        image.pixels[0] = 1
        #expect(Array(image.pixels) != bytes && image.pixels[1...].elementsEqual(bytes[1...]))
    }
}
