import ExerciseJudging
import TourCore

/// Where the exercises begin in a laid-out page, for the keys that scroll to them.
public struct ExerciseRows: Equatable, Sendable {
    /// The row of the "Exercises" heading.
    public var start: Int
    /// The row of the prediction, which its grade follows.
    public var prediction: Int
    /// The row of the challenge's title, which its check's findings and the hints follow.
    public var challenge: Int
}

/// A page's exercises as the last block of its page pane: the prediction with its choices and last grade, then the
/// challenge with its state, the findings of its last check (what is still wrong first), its task, its file, the hints
/// taken and how the solution opens. Drawn from the model on every frame, after the cached layout of the page's text.
enum ExerciseBlockView {
    /// A run of text in one style.
    typealias Segment = (text: String, style: CellStyle)

    static let label = CellStyle(foreground: .heading, bold: true)
    static let keys = CellStyle(foreground: .accent, bold: true)
    static let muted = CellStyle(foreground: .muted)

    /// The rows, and the offsets among them of the prediction and the challenge.
    static func rows(for exercise: PageExerciseState, width: Int, glyphs: Glyphs) -> (rows: [PageRow], prediction: Int, challenge: Int) {
        var rows: [PageRow] = [PageRow(cells: [])]
        rows.append(PageRow(cells: Array(repeating: Cell(glyphs.horizontal, CellStyle(foreground: .heading)), count: width)))
        rows += wrapped([("Exercises", CellStyle(foreground: .heading, bold: true)),
                         ("  a prediction before the run, and code of your own judged by what its threads did", muted)],
                        width: width)
        rows.append(PageRow(cells: []))
        let prediction = rows.count
        rows += predictionRows(exercise, width: width, glyphs: glyphs)
        rows.append(PageRow(cells: []))
        let challenge = rows.count
        rows += challengeRows(exercise, width: width, glyphs: glyphs)
        return (rows, prediction, challenge)
    }

    private static func predictionRows(_ exercise: PageExerciseState, width: Int, glyphs: Glyphs) -> [PageRow] {
        let prediction = exercise.prediction
        let state: Segment = switch exercise.answeredRight {
        case true?: ("\(glyphs.expected) answered, right", CellStyle(foreground: .success, bold: true))
        case false?: ("\(glyphs.crashed) answered, not right", CellStyle(foreground: .failure, bold: true))
        case nil: ("\(glyphs.notRun) not answered: r asks it before the run", muted)
        }
        var rows = wrapped([("Predict  ", label), state], width: width)
        rows += wrapped(spans(prediction.question, style: .plain), width: width, indent: 2)
        for choice in prediction.choices {
            let picked = exercise.pendingAnswer?.choice == choice.key || exercise.lastGrade?.answer == choice
            rows += wrapped([(" \(choice.key)  ", keys)] + spans(choice.text, style: CellStyle(bold: picked)), width: width,
                            indent: 2, hanging: 4)
        }
        if let pending = exercise.pendingAnswer {
            let waiting = pending.runID == nil ? "the next run grades it" : "the run grades it when it ends"
            rows += wrapped([("You said \(pending.choice); \(waiting).", CellStyle(foreground: .running))], width: width, indent: 2)
        } else if let grade = exercise.lastGrade {
            let (glyph, color): (Character, PaletteColor) = switch grade.outcome {
            case .right: (glyphs.expected, .success)
            case .wrong: (glyphs.crashed, .failure)
            case .unknown: (glyphs.stuck, .warning)
            }
            rows += wrapped([("\(glyph) " + grade.message, CellStyle(foreground: color, bold: true))], width: width, indent: 2, hanging: 2)
        }
        rows += wrapped([("a", keys), (exercise.answeredRight == nil ? " answers it now" : " answers it again", muted)],
                        width: width, indent: 2)
        return rows
    }

    private static func challengeRows(_ exercise: PageExerciseState, width: Int, glyphs: Glyphs) -> [PageRow] {
        let challenge = exercise.challenge
        var rows = wrapped([("Challenge  ", label), (challenge.title, CellStyle(bold: true)), ("  ", .plain),
                            checkState(exercise, glyphs: glyphs)], width: width, hanging: 11)
        switch exercise.check {
        case .finished(let verdict, _):
            // What is still wrong is the news; what already holds follows it.
            for finding in verdict.failures + verdict.findings.filter(\.holds) {
                rows += findingRows(finding, width: width, glyphs: glyphs)
            }
        case .earlier(_, let firstFailure?, _):
            rows += findingRows(CheckFinding(holds: false, firstFailure), width: width, glyphs: glyphs)
        default:
            break
        }
        rows += wrapped(spans(challenge.task, style: .plain), width: width, indent: 2)
        rows += wrapped([("File  ", label), (challenge.file, CellStyle(foreground: .inlineCode)),
                         ("  E", keys), (" edits it; each save checks it again", muted)], width: width, indent: 2, hanging: 6)
        for (number, hint) in challenge.hints.prefix(exercise.hintsTaken).enumerated() {
            rows += wrapped([("Hint \(number + 1) of \(challenge.hints.count)  ", label)] + spans(hint, style: .plain),
                            width: width, indent: 2, hanging: 13)
        }
        var help: [Segment] = [("c", keys), (" checks  ", muted)]
        if exercise.hintsTaken < challenge.hints.count {
            help += [("h", keys), (exercise.hintsTaken == 0 ? " a hint  " : " the next hint  ", muted)]
        }
        if exercise.solutionUnlocked {
            help += [("v", keys), (" shows the reference solution", muted)]
        } else {
            let left = ProgressRecord.hintsBeforeSolution - exercise.hintsTaken
            help += [("v", keys), (" the solution opens after a pass, or after \(left) more hint\(left == 1 ? "" : "s")", muted)]
        }
        rows += wrapped(help, width: width, indent: 2)
        return rows
    }

    /// One finding of a check, with its mark: what holds in green, what is still wrong in red and bold.
    private static func findingRows(_ finding: CheckFinding, width: Int, glyphs: Glyphs) -> [PageRow] {
        let mark: Segment = finding.holds ? ("\(glyphs.expected) ", CellStyle(foreground: .success, bold: true))
            : ("\(glyphs.crashed) ", CellStyle(foreground: .failure, bold: true))
        return wrapped([mark, (finding.text, CellStyle(bold: !finding.holds))], width: width, indent: 2, hanging: 2)
    }

    /// "✗ failing: 2 of 4 still wrong", "↻ building Exercise03Async…", "✗ failed when last checked, 2026-12-01 13:45".
    static func checkState(_ exercise: PageExerciseState, glyphs: Glyphs) -> Segment {
        let product = exercise.challenge.product
        switch exercise.check {
        case .notTried:
            return exercise.passed ? ("\(glyphs.expected) passed before", CellStyle(foreground: .success, bold: true))
                : ("\(glyphs.notRun) not checked yet", muted)
        case .earlier(passed: true, _, let checkedAt):
            return ("\(glyphs.expected) passed when last checked, \(checkedAt)", CellStyle(foreground: .success, bold: true))
        case .earlier(passed: false, _, let checkedAt):
            return ("\(glyphs.crashed) failed when last checked, \(checkedAt)", CellStyle(foreground: .failure, bold: true))
        case .building:
            let sanitized = exercise.challenge.threadSanitizer ? " " + ExerciseCheck.threadSanitizerBuildNote : ""
            return ("\(glyphs.building) checking: building \(product)\(sanitized)\(glyphs.ellipsis)", CellStyle(foreground: .running, bold: true))
        case .running:
            return ("\(glyphs.running) checking: running \(product)\(glyphs.ellipsis)", CellStyle(foreground: .running, bold: true))
        case .finished(let verdict, _) where verdict.passed:
            return ("\(glyphs.expected) passed", CellStyle(foreground: .success, bold: true))
        case .finished(_, ran: false):
            return ("\(glyphs.doesNotCompile) not built, so not run", CellStyle(foreground: .failure, bold: true))
        case .finished(let verdict, ran: true):
            let failures = verdict.failures.count
            return ("\(glyphs.crashed) failing: \(failures) of \(verdict.findings.count) still wrong", CellStyle(foreground: .failure, bold: true))
        }
    }

    /// The inline markup of `text` (`code`, *emphasis*) as segments on top of `style`. A backslash stays: these
    /// texts are the ones `tour hint` and `tour predict` print as written, and their backslashes are Swift's.
    static func spans(_ text: String, style: CellStyle) -> [Segment] {
        InlineMarkup.spans(in: text, backslashEscapes: false).map { span in
            var spanStyle = style
            switch span {
            case .code: spanStyle.foreground = .inlineCode
            case .emphasis: spanStyle.underline = true
            case .strong: spanStyle.bold = true
            case .link: spanStyle.foreground = .link
            case .text: break
            }
            return (span.plainText, spanStyle)
        }
    }

    /// `segments` wrapped to `width` from column `indent`, continuation rows `hanging` columns further in.
    /// Spaces that lead the text or are followed by another stay as written (they align keys and separate
    /// labels); a single space between words is where a row may break.
    static func wrapped(_ segments: [Segment], width: Int, indent: Int = 0, hanging: Int = 0) -> [PageRow] {
        var characters = segments.flatMap { InlineWrapper.characters(of: [.text($0.text)], base: $0.style) }
        var leading = true
        for index in characters.indices where characters[index].character == " " || leading {
            guard characters[index].character == " " else {
                leading = false
                continue
            }
            let followedBySpace = characters.indices.contains(index + 1) && characters[index + 1].character == " "
            if leading || followedBySpace { characters[index].breaksLine = false }
        }
        let indent = min(indent, width / 3)
        return InlineWrapper.wrap(characters, width: width, firstIndent: indent, indent: min(indent + hanging, width / 2))
            .map { PageRow(cells: $0.cells) }
    }
}

extension PageLayout {
    /// The layout with the page's exercises as its last block, if it has any.
    func withExercises(_ exercise: PageExerciseState?, glyphs: Glyphs) -> PageLayout {
        guard let exercise else { return self }
        var layout = self
        let block = ExerciseBlockView.rows(for: exercise, width: width, glyphs: glyphs)
        let start = rows.count + 2
        layout.rows += block.rows
        layout.exerciseRows = ExerciseRows(start: start, prediction: rows.count + block.prediction, challenge: rows.count + block.challenge)
        return layout
    }
}
