import Synchronization
import Testing
import SumiKit

@Suite struct ImageSourceTests {
    /// A source handing over a kept image gives it to the first taker without producing it, and
    /// produces it for every later taker.
    @Test func handingOverGivesTheKeptImageOnceThenProduces() throws {
        let produced = Mutex(0)
        let fallback = ImageSource(producing: {
            produced.withLock { $0 += 1 }
            return Image(width: 2, height: 1, fill: .white)
        })
        let kept = Image(width: 2, height: 1, fill: .black)
        let source = ImageSource.handingOver(kept, then: fallback)
        #expect(try source.image().pixels == kept.pixels)
        #expect(produced.withLock { $0 } == 0)
        #expect(try source.image().pixels == Image(width: 2, height: 1, fill: .white).pixels)
        #expect(try source.image().pixels == Image(width: 2, height: 1, fill: .white).pixels)
        #expect(produced.withLock { $0 } == 2)
    }
}
