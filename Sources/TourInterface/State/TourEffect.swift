import Foundation
import Presenting
import RoomProtocol
import TourCore

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
    /// Find which of these pages' and exercises' programs are missing or older than their sources; they come back as
    /// `.editLoop(.programsToBuild)`, to be built in the background.
    case findProgramsToBuild([Page])
    /// Put a page's files back to the original kept before its first edit; the watcher then sees the change.
    case reset(Page)
    /// Put back the version of a page's files that its last reset replaced.
    case undoReset(Page)
    /// Write `command` as a line to the page's standard input (a page that takes scroll commands).
    case send(runID: Int, command: String)
    /// Close the page's standard input: the learner let go of the list.
    case closeInput(runID: Int)
    /// Read and parse the page's `main.swift` and helper files before the next frame, which shows them; they come
    /// back as `.editLoop(.sourceRead)`.
    case readSource(Page)
    /// Read and parse these pages one after another, off the loop's queue and after the frame being drawn, so that
    /// moving to one shows it at once; each comes back as `.sourceReadAhead`.
    case readSourcesAhead([Page])
    /// Watch this page's folder instead of the one watched so far; `.editLoop(.watchStarted)` comes back, then changes.
    case watch(Page)
    /// Remember in the learner's progress file that this happened; the loop writes it off its queue.
    case recordProgress(ProgressEvent)
    /// Build the challenge's program, run it and judge the run, off the interface's queue; its progress and verdict
    /// come back as `.exercise` events.
    case check(CheckOrder)
    /// Stop a check in flight; no verdict comes back for it.
    case cancelCheck(checkID: Int)
    /// Watch the page's exercise folder too (`exercise`, the folder as `PageExercises.exerciseFiles` names it),
    /// instead of the one watched so far; a save comes back as `.exercise(.exerciseChanged)`.
    case watchExercise(page: Page, exercise: Page)
    /// Read and parse the reference solution; it comes back as `.exercise(.solutionRead)`. Never writes anything.
    case readSolution(page: Page, file: URL)
    /// Hand where the presenter is to `tour notes` in a second terminal; sent when it changes (the clock at most once a second).
    case publishPresenterSnapshot(PresenterSnapshot)
    /// Draw the page's latest run as an SVG picture and a Chrome trace in `.tour/pictures/`, off the interface's
    /// queue; where they went, or why not, comes back as `.picturesSaved`.
    case savePictures(page: Page)
    /// Hand the terminal to `tour play` for the level of this name until the player quits it, then draw the tutorial
    /// again as it was; a play that could not start comes back as a `.notice`.
    case playLevel(String)
    /// In a room: hand this progress, as the file has it, to the participant's link, which publishes it (retained)
    /// and publishes the latest again after a reconnect.
    case publishProgress(ProgressRecord)
    /// In a room: send the learner's answer to the poll on stage.
    case answerPoll(PollAnswer)
    /// On stage with a room: publish this poll (a new question, or the same with its outcome), retained.
    case askRoom(RoomPoll)
    /// On stage with a room: take the poll down; every participant's screen lets it go.
    case closeRoomPoll
}

extension TourEffect {
    /// Whether the effect writes to the learner's progress.
    var recordsProgress: Bool {
        if case .recordProgress = self { true } else { false }
    }
}
