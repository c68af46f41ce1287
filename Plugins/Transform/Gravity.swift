import SumiKit

/// Where a smaller rectangle sits inside a larger one (`crop` size + gravity, `pad` to a size).
public enum Gravity: String, Sendable, CaseIterable, ParameterChoice {
    case center, top, bottom, left, right
    case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"

    /// The offset of an `inner`-sized box in an `outer`-sized one (per axis: 0, centred, or at the end).
    public func offset(inner: (width: Int, height: Int), outer: (width: Int, height: Int)) -> (x: Int, y: Int) {
        let dx = outer.width - inner.width, dy = outer.height - inner.height
        let x: Int, y: Int
        switch self {
        case .topLeft, .left, .bottomLeft: x = 0
        case .topRight, .right, .bottomRight: x = dx
        case .center, .top, .bottom: x = dx / 2
        }
        switch self {
        case .topLeft, .top, .topRight: y = 0
        case .bottomLeft, .bottom, .bottomRight: y = dy
        case .center, .left, .right: y = dy / 2
        }
        return (x, y)
    }
}
