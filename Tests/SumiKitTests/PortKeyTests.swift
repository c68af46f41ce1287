import Testing
import SumiKit

/// Ports declared once as typed keys: the descriptor lists the key's spec, and the stage reads the
/// port through the same key, typed by what it holds.
@Suite struct PortKeyTests {
    static let input = Port<Image>("in")
    static let layer = Port<Layer>("layer", accepts: [.layer, .images])
    static let pages = Port<ImageList>("pages", accepts: [.image, .images])

    @Test func theKeyDrivesTheDescriptor() {
        #expect(Self.input.spec == PortSpec(name: "in", accepts: .image))
        #expect(Self.layer.spec.accepts == [.layer, .images] && Self.layer.name == "layer")
        #expect(Port<ImageList>("list").spec.accepts == [.images] && Port<Layer>("l").spec.accepts == [.layer])
        let descriptor = StageDescriptor(name: "keys", summary: "", inputs: [Self.input.spec, Self.layer.spec], output: .image)
        #expect(descriptor.inputs.map(\.typeName) == ["image", "layer|images"])
    }

    @Test func readsAreTypedByTheKey() throws {
        let red = Image(width: 2, height: 1, fill: Color(red: 255, green: 0, blue: 0))
        let inputs = StageInputs(["in": .image(red), "pages": .image(red)])
        #expect(inputs.isGiven(Self.input) && !inputs.isGiven(Self.layer))
        #expect(try inputs.image(Self.input).pixel(x: 1, y: 0) == (255, 0, 0, 255))
        #expect(try inputs.shape(Self.input).width == 2)
        // An image on a list port reads as a list of one; the same port read as an image.
        #expect(try inputs.imageList(Self.pages).count == 1)
        #expect(try inputs.image(Port<Image>(Self.pages)).width == 2)
        // An image reads as a raster layer; a missing port is an error naming it.
        #expect(try StageInputs(["layer": .image(red)]).layer(Self.layer).placement == .identity)
        let missing = try #require(throws: StageError.self) { try inputs.layer(Self.layer) }
        #expect(missing.message == "port \"layer\": expected a layer, got nothing")
        // takeImage leaves nothing behind.
        _ = try inputs.takeImage(Self.input)
        #expect(!inputs.isGiven(Self.input))
    }
}
