/// A key the learner pressed, as the interface understands it.
public enum Key: Hashable, Sendable {
    case character(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case tab, backTab, enter, escape
    /// Backspace (or Delete, as most terminals send it): removes the last character typed in a search.
    case backspace
    /// Ctrl-L: draw the whole screen again.
    case redraw
}
