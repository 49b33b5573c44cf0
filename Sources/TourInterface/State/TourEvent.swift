import TourCore

/// Everything that can change what the interface shows.
public enum TourEvent: Sendable {
    /// The loop is ready, before its first frame: the current page's source is read and its folder watched, and the
    /// other pages are read ahead.
    case launched
    /// A page read ahead of time (`.readSourcesAhead`): taken only if the page has not been read since, since a read
    /// that has may hold a newer text.
    case sourceReadAhead(page: Page, ParsedPageSource)
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
    /// Progress could not be recorded, or its file was set aside: the message says which file and why.
    case progressProblem(String)
    /// Something the interface should tell the learner or speaker on its status line (a channel that could not
    /// open, say): the message is shown as it is.
    case notice(String)
    /// The game of a level `B` started has ended and given the terminal back; `problem` when it could not start.
    case levelPlayed(problem: String?)
    /// Checks, the exercise file and the reference solution (see `Exercises.swift`).
    case exercise(ExerciseEvent)
    /// The timeline's picture and trace that `S` asked for were written, or could not be.
    case picturesSaved(PicturesSaved)
    /// The room's link reported, or progress to publish was written (see `RoomUpdate.swift`).
    case room(RoomReport)
}

/// Where `S` wrote the run's pictures, as paths to show, or why it could not.
public enum PicturesSaved: Sendable, Equatable {
    case saved(picture: String, trace: String)
    case failed(String)
}
