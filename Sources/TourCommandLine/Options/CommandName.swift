import Presenting
import TourCore

/// A command of `tour`, as its first argument names it (`tour` alone is the full-screen tutorial), with what its usage
/// says of it. Its options are the ones `CommandOption.all` gives it.
public enum CommandName: String, CaseIterable, Sendable {
    case tutorial = "tour"
    case notes, list, run, watch, reset, progress
    case predict, check, hint, solution
    case present

    /// One way to call a command and what it does, as a line of the usage.
    struct Form {
        let synopsis: String
        let summary: String
    }

    /// The group of the top-level usage a command is listed in.
    enum Group: CaseIterable {
        case learning, exercises, onStage

        /// The group's heading in the top-level usage.
        var heading: String {
            switch self {
            case .learning: "Usage:"
            case .exercises: "Exercises (a prediction and a code challenge per page; the challenge is Exercises/NN-Name/main.swift):"
            case .onStage: "On stage (see docs/talk-format.md):"
            }
        }
    }

    var group: Group {
        switch self {
        case .tutorial, .notes, .list, .run, .watch, .reset, .progress: .learning
        case .predict, .check, .hint, .solution: .exercises
        case .present: .onStage
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
            [Form(synopsis: "tour [options]", summary: "open the full-screen tutorial (needs a terminal), where you left off or on --page P")]
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
        case .present:
            [Form(synopsis: "tour present [page...] [options]", summary: "the presenter: no chrome, one block at a time (space or right arrow), r "
                  + "runs, the clock in a corner; every page, or the pages named, in order"),
             Form(synopsis: "tour present TALK.talk [options]", summary: "play a talk's script: \(ShippedTalks.partOne) walks part one, "
                  + "\(ShippedTalks.partTwo) part two, each in about twenty minutes"),
             Form(synopsis: "tour present --export FOLDER TALK.talk", summary: "backup slides: the pre-flight's runs, then an SVG for "
                  + "each block as the room sees it and for each run's timeline, and index.html"),
             Form(synopsis: "tour present --check TALK.talk", summary: "the pre-flight: every page, knob, value and reveal exists, every "
                  + "page compiles, and each run ends as expected at the script's speed (exit 0 passed, 1 a page does not compile or a "
                  + "run failed, 2 a wrong line, named)")]
        }
    }

    /// What the command's own usage says after its options, if anything.
    var footer: String? {
        self == .run ? Self.runExitStatus : nil
    }

    /// `tour run`'s exit statuses, in its usage and the top-level one.
    static let runExitStatus = "Exit status of run: 0 the page ended as it said it would; 1 it ended otherwise (crash, stuck, "
        + "failure it did not announce); 2 a usage mistake, such as a --trace FILE that is not a regular file or is in a folder "
        + "that does not exist (checked before the page runs); 3 the page could not start (a page whose program is missing or "
        + "older than its source is built first, and one that does not compile is said in the compiler's words, each message on "
        + "its line); 4 the page ran but its trace, picture or recording could not be written."
}
