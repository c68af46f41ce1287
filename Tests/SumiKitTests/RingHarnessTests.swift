import Testing
import SumiKit

/// `StageHarness.runRows(_:inputs:capacity:bands:)` drives small rings on one thread: a correct row
/// stage gives its input back under every pattern, with the ring's bounds observed, and each flaw
/// a stage can have with rings fails the run with an error naming it (none of these tests would
/// pass on a harness that fed rings as tall as the image).
@Suite struct RingHarnessTests {
    let harness = StageHarness(RingToy.self)
    let image = TestImage.noise(9, 43, minAlpha: 1)

    func run(_ flaw: RingToy.Flaw, _ pattern: RingPattern, band: Int = 4) throws -> RingRun {
        try harness.runRing(["flaw": .string(flaw.rawValue), "band": .integer(band)], inputs: ["in": .image(image)], pattern: pattern)
    }

    @Test(arguments: RingPattern.standard)
    func aCorrectStageGivesItsInputBackWithinTheRing(pattern: RingPattern) throws {
        for band in [1, 3, 16] {
            let run = try run(.none, pattern, band: band)
            guard case .image(let out) = run.value else { Issue.record("no image"); return }
            #expect(out.width == 9 && out.height == 43 && out.pixels == image.pixels, "\(pattern), band \(band)")
            let input = try #require(run.inputs["in"]), output = try #require(run.output)
            for ring in [input, output] {
                #expect(ring.capacity == min(pattern.capacity, 43) && ring.height == 43)
                #expect(ring.slots == (ring.capacity > 43 / 2 ? 43 : 2 * ring.capacity))
                #expect(ring.mostRowsHeld >= 1 && ring.mostRowsHeld <= ring.slots, "\(pattern): \(ring)")
                // Back-pressure: when the image is taller than the ring, the stage waited on it, and rows
                // went out before its end.
                if ring.slots < 43 {
                    #expect(ring.waits > 0, "the harness never had to serve a wait: \(pattern)")
                    #expect(ring.releasedBeforeEnd >= 43 - ring.slots, "\(pattern): \(ring)")
                }
            }
        }
    }

    @Test func theWholeImageRingSeesNothingOfThis() throws {
        // A ring as tall as the image lets these flaws pass: the reason the small rings exist.
        for flaw in [RingToy.Flaw.readAfterRelease, .neverRelease, .wholeAtOnce, .endFirst] {
            guard case .image(let out) = try harness.runRows(["flaw": .string(flaw.rawValue)], inputs: ["in": .image(image)]) else {
                Issue.record("no image"); continue
            }
            #expect(out.pixels == image.pixels, "\(flaw)")
        }
    }

    @Test(arguments: [RingPattern(capacity: 1, bands: [1]), RingPattern(capacity: 5, bands: [3, 7, 1], consumerBands: [2, 5])])
    func readingARowAfterReleasingItReadsOverwrittenBytes(pattern: RingPattern) throws {
        guard case .image(let out) = try run(.readAfterRelease, pattern).value else { Issue.record("no image"); return }
        #expect(out.pixels != image.pixels)
        // Every byte copied after its release is the harness's poison.
        #expect(Array(out.pixels[0..<4]) == [0xFF, 0x00, 0xE7, 0x01])
    }

    @Test func readingARowBeforeWaitingForItReadsBytesNotYetPublished() throws {
        guard case .image(let out) = try run(.readAhead, RingPattern(capacity: 5, bands: [3, 7, 1])).value else {
            Issue.record("no image"); return
        }
        #expect(out.pixels != image.pixels)
    }

    @Test func writingAPublishedRowIsCaught() throws {
        #expect { try run(.writeAfterPublish, RingPattern(capacity: 5, bands: [3, 7, 1])) } throws: { error in
            "\(error)".contains("ring-toy on a ring of 5 rows") && "\(error)".contains("output row 0 changed after it was published")
        }
    }

    @Test(arguments: [RingToy.Flaw.neverRelease, .wholeAtOnce])
    func holdingMoreThanTheRingIsAnError(flaw: RingToy.Flaw) throws {
        #expect { try run(flaw, RingPattern(capacity: 5, bands: [3, 7, 1])) } throws: { error in
            "\(error)".contains("asked for \(flaw == .neverRelease ? 8 : 43) rows of a stream that holds 5")
        }
    }

    @Test func aWaitThatCouldNeverEndFailsInsteadOfHanging() throws {
        // The stage waits for the end before reading: the ring fills up and nothing can ever move.
        #expect { try run(.endFirst, RingPattern(capacity: 5, bands: [3, 7, 1])) } throws: { error in
            "\(error)".contains("ring-toy on a ring of 5 rows, bands [3, 7, 1] in, [3, 7, 1] out: port in: "
                + "the row stream stalled: room in the ring for rows up to 11 can never happen")
        }
        // With room for the whole image, the same stage works.
        guard case .image(let out) = try run(.endFirst, RingPattern(capacity: 43, bands: [3, 7, 1])).value else { Issue.record("no image"); return }
        #expect(out.pixels == image.pixels)
    }

    @Test func aBandLargerThanTheRingIsAnErrorNotACrash() throws {
        #expect { try run(.bandLargerThanRing, RingPattern(capacity: 5, bands: [5])) } throws: { error in
            "\(error)".contains("the output: RowStream.reserve: a band of 10 rows, larger than the ring's 5")
        }
    }

    @Test func anOutputLeftShortIsAnError() throws {
        #expect { try run(.stopsShort, RingPattern(capacity: 5, bands: [5])) } throws: { error in
            "\(error)".contains("ring-toy: the stage ended without producing its image")
        }
    }

    @Test func patternsWithoutRowsAreRefused() throws {
        #expect(throws: StageError.self) { try run(.none, RingPattern(capacity: 0, bands: [1])) }
        #expect(throws: StageError.self) { try run(.none, RingPattern(capacity: 4, bands: [2, 0])) }
        #expect(throws: StageError.self) { try run(.none, RingPattern(capacity: 4, bands: [])) }
    }

    @Test func anEmptyImageStreamsToo() throws {
        let empty = Image(width: 5, height: 0, pixels: [])
        let run = try harness.runRing([:], inputs: ["in": .image(empty)], pattern: RingPattern(capacity: 3, bands: [2]))
        guard case .image(let out) = run.value else { Issue.record("no image"); return }
        #expect(out.width == 5 && out.height == 0)
    }
}
