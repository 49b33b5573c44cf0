/// A mouse action at a cell of the screen.
public struct MouseEvent: Hashable, Sendable {
    public enum Action: Hashable, Sendable {
        case click, wheelUp, wheelDown
    }

    public var action: Action
    public var x: Int
    public var y: Int

    public init(_ action: Action, x: Int, y: Int) {
        self.action = action
        self.x = x
        self.y = y
    }
}
