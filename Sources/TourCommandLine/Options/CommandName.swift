import Presenting
import TourCore

/// A command of `tour`, as its first argument names it (`tour` alone is the full-screen tutorial), with what its usage
/// says of it. Its options are the ones `CommandOption.all` gives it.
public enum CommandName: String, CaseIterable, Sendable {
    case tutorial = "tour"
    case notes, list, run, watch, reset, progress
    case predict, check, hint, solution
    case levels, explore, play
    case present
    case room

    /// One way to call a command and what it does, as a line of the usage.
    struct Form {
        let synopsis: String
        let summary: String
    }

    /// The group of the top-level usage a command is listed in.
    enum Group: CaseIterable {
        case learning, exercises, scheduler, onStage, workshop

        /// The group's heading in the top-level usage.
        var heading: String {
            switch self {
            case .learning: "Usage:"
            case .exercises: "Exercises (a prediction and a code challenge per page; the challenge is Exercises/NN-Name/main.swift):"
            case .scheduler: "Be the scheduler (a level's real threads, stepped by you into a race, or searched schedule by schedule):"
            case .onStage: "On stage (see docs/talk-format.md):"
            case .workshop: "For workshop leaders (see docs/guide.md):"
            }
        }
    }

    var group: Group {
        switch self {
        case .tutorial, .notes, .list, .run, .watch, .reset, .progress: .learning
        case .predict, .check, .hint, .solution: .exercises
        case .levels, .explore, .play: .scheduler
        case .present: .onStage
        case .room: .workshop
        }
    }

    /// How the command is named in messages: `tour run`'s is "run".
    var spoken: String { self == .tutorial ? "the full-screen tutorial" : rawValue }

    /// Whether the command takes a page (`<page>`), so its usage says what one is.
    var takesPage: Bool { [.run, .watch, .reset, .predict, .check, .hint, .solution].contains(self) }

    /// The ways to call the command, each with what it does.
    var forms: [Form] {
        switch self {
        case .tutorial:
            [Form(synopsis: "tour [options]", summary: "open the full-screen tutorial (needs a terminal), where you left off or on --page P"),
             Form(synopsis: "tour --room HOST:PORT --name N", summary: "the tutorial in a workshop's room: your progress on the leader's "
                  + "dashboard as you go, the speaker's polls on your screen")]
        case .notes:
            [Form(synopsis: "tour notes [options]", summary: "in a second terminal, follow a presenter: the block shown and the next, the "
                  + "speaker's notes, the clock and the knob changes to come (q ends it); started first, it waits for the presenter")]
        case .list:
            [Form(synopsis: "tour list", summary: "the pages, in order, in their two parts")]
        case .run:
            [Form(synopsis: "tour run <page> [options]", summary: "run one page and stream what it does, line by line")]
        case .watch:
            [Form(synopsis: "tour watch <page> [options]", summary: "run the page, then rebuild and rerun it each time its source is saved "
                  + "(compile errors are shown on their lines; Ctrl-C ends it)")]
        case .reset:
            [Form(synopsis: "tour reset <page> | --all", summary: "put a page (or every page) back to the text the tour shipped with (git's "
                  + "HEAD in a git checkout), however it was edited; the text it replaces is kept in .tour/before-reset (the last "
                  + "\(OriginalPages.keptVersionLimit) of each page); with --exercise, the page's exercise instead (every exercise, "
                  + "with --all): a page and its exercise are never reset together"),
             Form(synopsis: "tour reset --undo <page>", summary: "put back the version the page's last reset replaced (the exercise's, with --exercise)"),
             Form(synopsis: "tour reset --progress [--yes]", summary: "start progress afresh (asks first; the old file is kept beside it)")]
        case .progress:
            [Form(synopsis: "tour progress [--plain]", summary: "the pages you opened and ran, predictions answered, exercises passed"),
             Form(synopsis: "tour progress --json [--name N]", summary: "the same as one JSON document, for a workshop leader to collect"),
             Form(synopsis: "tour progress --summary FILE...", summary: "several participants' --json documents: who is on which page, "
                  + "and which exercises most have not passed")]
        case .predict:
            [Form(synopsis: "tour predict <page>", summary: "the page's question and its answers; answer with run --predict KEY")]
        case .check:
            [Form(synopsis: "tour check <page> [options]", summary: "build and run your exercise and judge what its threads did (exit 0 "
                  + "passed, 1 not yet, compile errors included, 2 a page with no exercise or a --trace or --svg file refused before the "
                  + "build, 4 one not written after the run)")]
        case .hint:
            [Form(synopsis: "tour hint <page>", summary: "the next hint (they go from a nudge to nearly the answer)")]
        case .solution:
            [Form(synopsis: "tour solution <page>", summary: "the reference solution, once the check passed or after two hints")]
        case .levels:
            [Form(synopsis: "tour levels", summary: "the levels, one a line: the name explore and play take, its title and the page it comes from")]
        case .explore:
            [Form(synopsis: "tour explore <level> [options]", summary: "search the level's schedules: every one with at most --preemptions K "
                  + "preemptions (default 2), or --random N drawn at random; say how many ran and failed, and the shortest failing one "
                  + "step by step")]
        case .play:
            [Form(synopsis: "tour play <level> [options]", summary: "be the scheduler on a terminal: a column a thread with its code and "
                  + "current line, the shared values, the locks and the lanes of the run; a digit steps that thread, u undoes the last "
                  + "step (a fresh run replays the rest), r restarts, q quits and prints the win"),
             Form(synopsis: "tour play <level> --plain [options]", summary: "be the scheduler: each line of standard input is a thread's "
                  + "number, which takes its next step; each state is printed in words, until the run ends in a failure (you win) or "
                  + "without one; --schedule FILE replays a saved schedule first")]
        case .present:
            [Form(synopsis: "tour present [page...] [options]", summary: "the presenter: no chrome, one block at a time (space or right arrow), r "
                  + "runs, the clock in a corner; every page, or the pages named, in order"),
             Form(synopsis: "tour present --room HOST:PORT", summary: "on a page with a prediction, r asks the room first and counts "
                  + "its answers live; r again runs the page and shows how many were right"),
             Form(synopsis: "tour present TALK.talk [options]", summary: "play a talk's script: \(ShippedTalks.partOne) walks part one, "
                  + "\(ShippedTalks.partTwo) part two, each in about twenty minutes"),
             Form(synopsis: "tour present --export FOLDER TALK.talk", summary: "backup slides: the pre-flight's runs, then an SVG for "
                  + "each block as the room sees it and for each run's timeline, and index.html"),
             Form(synopsis: "tour present --check TALK.talk", summary: "the pre-flight: every page, knob, value and reveal exists, every "
                  + "page compiles, and each run ends as expected at the script's speed (exit 0 passed, 1 a page does not compile or a "
                  + "run failed, 2 a wrong line, named)")]
        case .room:
            [Form(synopsis: "tour room [--port N]", summary: "start the room's broker (mosquitto, with a generated password) and show "
                  + "the leader's dashboard: the command to join by, who needs help and why, a row a participant with a column a "
                  + "page, who left, and the exercises the room is stuck on; q quits and stops the broker"),
             Form(synopsis: "tour room --broker HOST:PORT", summary: "the same, over a broker already running there"),
             Form(synopsis: "tour room --plain", summary: "the room's events one a line: joined, page opened, check failed (with its "
                  + "finding), passed, hint taken, left, unreadable message"),
             Form(synopsis: "tour room --json", summary: "one snapshot of the room as JSON, once the states already in the room "
                  + "have arrived; exit 3 when the broker cannot be reached")]
        }
    }

    /// What the command's own usage says after its options, if anything.
    var footer: String? {
        switch self {
        case .run: Self.runExitStatus
        case .levels, .explore, .play: "<level> is a level's name in tour levels, or its number. " + Self.levelExitStatus[self, default: ""]
        default: nil
        }
    }

    /// The exit statuses of the levels' commands, in their usages.
    static let levelExitStatus: [CommandName: String] = [
        .levels: "Exit status: 0 every level described itself; 3 a level's program could not be built or did not answer (said on standard error).",
        .explore: "Exit status: 1 some schedule failed; 0 none did (within the search's bound, which the report states); 2 a usage "
            + "mistake (an unknown level, a K or N out of range, a --save FILE refused before the search); 3 the level could not be "
            + "built or its program misbehaved; 4 the schedule could not be saved.",
        .play: "Exit status: 0 you won (the run reached the level's failure); 1 the run ended without it, or the input ended first; 2 a "
            + "usage mistake (an unknown level; a schedule file garbled, for another level, version or --fixed, or longer than the "
            + "run, named by its line); 3 the level could not be built or its program misbehaved.",
    ]

    /// `tour run`'s exit statuses, in its usage and the top-level one.
    static let runExitStatus = "Exit status of run: 0 the page ended as it said it would; 1 it ended otherwise (crash, stuck, "
        + "failure it did not announce); 2 a usage mistake, such as a --trace FILE that is not a regular file or is in a folder "
        + "that does not exist (checked before the page runs); 3 the page could not start (a page whose program is missing or "
        + "older than its source is built first, and one that does not compile is said in the compiler's words, each message on "
        + "its line); 4 the page ran but its trace, picture or recording could not be written."
}
