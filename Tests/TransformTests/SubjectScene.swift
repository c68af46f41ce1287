import SumiKit

/// A generated picture whose subject is obvious: a detailed, saturated object (a rectangle of
/// small tiles in changing hues and brightness) on a plain background, placed off-centre. The set
/// (`all`) puts subjects near each corner and edge and asks for crops that cut either or both sides.
struct SubjectScene: Sendable, CustomStringConvertible {
    var width: Int
    var height: Int
    /// The subject's box.
    var subject: (x: Int, y: Int, width: Int, height: Int)
    /// The crop size to ask for (large enough to hold the subject).
    var crop: (width: Int, height: Int)
    var background = (r: UInt8(236), g: UInt8(232), b: UInt8(224))

    var description: String {
        "\(width)x\(height), subject \(subject.width)x\(subject.height) at \(subject.x),\(subject.y), crop \(crop.width)x\(crop.height)"
    }

    static let all: [SubjectScene] = [
        SubjectScene(width: 400, height: 300, subject: (40, 30, 80, 70), crop: (160, 160)),
        SubjectScene(width: 400, height: 300, subject: (290, 200, 90, 80), crop: (160, 160)),
        SubjectScene(width: 400, height: 300, subject: (300, 110, 70, 90), crop: (200, 300)),
        SubjectScene(width: 400, height: 300, subject: (20, 120, 60, 60), crop: (150, 300)),
        SubjectScene(width: 300, height: 400, subject: (110, 20, 80, 70), crop: (300, 150)),
        SubjectScene(width: 300, height: 400, subject: (120, 300, 90, 80), crop: (300, 180)),
        SubjectScene(width: 640, height: 360, subject: (460, 60, 110, 120), crop: (240, 240)),
        SubjectScene(width: 640, height: 360, subject: (70, 200, 120, 100), crop: (200, 200)),
        SubjectScene(width: 500, height: 500, subject: (330, 330, 100, 100), crop: (250, 250)),
        SubjectScene(width: 500, height: 500, subject: (60, 280, 90, 140), crop: (200, 220)),
    ]

    /// The picture: opaque, premultiplied RGBA (so as stored).
    var image: Image {
        let (bx, by, bw, bh) = subject, background = self.background, width = self.width
        return Image(width: width, height: height) { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    var (r, g, b) = background
                    if x >= bx, x < bx + bw, y >= by, y < by + bh {
                        (r, g, b) = Self.tile(x - bx, y - by)
                    }
                    pixels[i] = r; pixels[i + 1] = g; pixels[i + 2] = b; pixels[i + 3] = 255
                }
            }
        }
    }

    /// The subject's colour at (`x`, `y`) inside it: 6-pixel tiles of saturated hues, alternately
    /// bright and dark, every channel far from the light background.
    static func tile(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        let tx = x / 6, ty = y / 6
        let hue = (tx * 37 + ty * 61) % 6
        let high: UInt8 = (tx + ty) % 2 == 0 ? 210 : 150, low: UInt8 = 20
        switch hue {
        case 0: return (high, low, low)
        case 1: return (low, high, low)
        case 2: return (low, low, high)
        case 3: return (high, high / 2, low)
        case 4: return (low, high, high / 2)
        default: return (high / 2, low, high)
        }
    }

    /// Whether the window at (`x`, `y`) of the crop size holds the whole subject.
    func holdsSubject(x: Int, y: Int) -> Bool {
        x <= subject.x && y <= subject.y && x + crop.width >= subject.x + subject.width && y + crop.height >= subject.y + subject.height
    }
}
