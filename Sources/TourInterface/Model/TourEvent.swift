import TourCore

/// A key the learner pressed, as the interface understands it.
public enum Key: Hashable, Sendable {
    case character(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case tab, backTab, enter, escape
    /// Ctrl-L: draw the whole screen again.
    case redraw
}

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

/// Everything that can change what the interface shows.
public enum TourEvent: Sendable {
    case key(Key)
    case mouse(MouseEvent)
    case resize(Size)
    /// The clock moved on; open spans and the elapsed time grow while a page runs.
    case tick(now: UInt64)
    /// An event of the run with this identifier (see `RunOrder.runID`).
    case host(runID: Int, HostEvent)
    /// Builds, source changes, the editor and reset (see `EditLoop.swift`).
    case editLoop(EditLoopEvent)
    /// The screen now shows the model as it is: the live view's newest frame was seen, not dropped.
    case drawn
}

/// A page run the interface asks the terminal layer to start.
public struct RunOrder: Equatable, Sendable {
    /// Tells this run's events apart from those of a run stopped a moment earlier.
    public var runID: Int
    public var page: Page
    public var knobSettings: [KnobSetting]
    public var speed: Double

    /// `name=value` for `RunRequest.knobSettings`.
    public struct KnobSetting: Equatable, Sendable {
        public var name: String
        public var value: String
    }
}

/// What an update asks the outside world to do; the model itself never starts processes or touches the terminal.
public enum TourEffect: Equatable, Sendable {
    case start(RunOrder)
    case stop(runID: Int)
    /// Stop whatever runs, restore the terminal and exit.
    case quit
    /// Forget what is on the terminal and draw everything again.
    case redrawAll
    /// Hand the terminal to the learner's editor until it exits; the result comes back as `.editorFinished`.
    case edit(EditOrder)
    /// Rebuild one page's program off the interface's queue; output and outcome come back as `.editLoop` events.
    case build(BuildOrder)
    case cancelBuild(buildID: Int)
    /// Put a page's files back to the original kept before its first edit; the watcher then sees the change.
    case reset(Page)
    /// Write `command` as a line to the page's standard input (a page that takes scroll commands).
    case send(runID: Int, command: String)
    /// Close the page's standard input: the learner let go of the list.
    case closeInput(runID: Int)
}
