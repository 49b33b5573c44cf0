import PageProtocol

/// A level played full screen (`tour play <level>` on a terminal): what the screen shows and what a key asks for. Pure:
/// the shell runs the level's program, hands each `PlayState` to `show`, and carries out the `Command` a key returns.
public struct LevelBoard: Equatable, Sendable {
    /// What a key asks the shell to do.
    public enum Command: Equatable, Sendable {
        /// Send this thread's number to the running game.
        case step(Int)
        /// Start a fresh game and feed it these steps: `u` replays the schedule but its last step, `r` none.
        case replay([Int])
        case quit
    }

    public let description: LevelDescription
    /// The level's `main.swift`, a line an entry: the code the threads' lines point into.
    public let source: [String]
    public let fixed: Bool
    /// The game as the level last sent it; nil until its first state.
    public private(set) var state: PlayState?
    /// The line under the columns: how to play, a refusal, a problem.
    public private(set) var note: String
    /// A command is on its way: keys wait until its state comes.
    public private(set) var waiting = true
    /// The run shown has reached its failure and `show` said so: the win is recorded once a run, when it happens.
    private var winSaid = false

    public init(description: LevelDescription, source: [String], fixed: Bool) {
        self.description = description
        self.source = source
        self.fixed = fixed
        note = "Starting the level…"
    }

    /// The steps taken so far, by thread number: the schedule a replay feeds again.
    public var schedule: [Int] { state?.steps.map(\.thread) ?? [] }

    /// How to play, from the threads the level has.
    var keysHelp: String {
        "1-\(description.threads.count) step that thread · u undo · r restart · q quit"
    }

    /// The command `key` asks for, if any; a key while a command is on its way, or one that makes no sense now, is said
    /// in the note instead.
    public mutating func press(_ key: Key) -> Command? {
        guard case .character(let character) = key else { return nil }
        if character == "q" { return .quit }
        guard !waiting else { return nil }
        switch character {
        case "u":
            guard !schedule.isEmpty else {
                note = "Nothing to undo yet. " + keysHelp
                return nil
            }
            waiting = true
            winSaid = false
            return .replay(Array(schedule.dropLast()))
        case "r":
            waiting = true
            winSaid = false
            return .replay([])
        default:
            guard let number = character.wholeNumberValue, (1...max(description.threads.count, 1)).contains(number) else { return nil }
            guard let state else {
                note = "The level is not running: r starts it, q quits."
                return nil
            }
            guard !state.ended else {
                note = "The run has ended: u undoes its last step, r restarts, q quits."
                return nil
            }
            waiting = true
            return .step(number)
        }
    }

    /// The state the level sent after a command (or its start). True when it is a win of the level as written (not of
    /// its fix) that this run has not shown before: the shell records it in progress then, so a win is kept even when
    /// the player restarts before quitting.
    @discardableResult
    public mutating func show(_ state: PlayState) -> Bool {
        waiting = false
        self.state = state
        let newWin = state.failure != nil && !fixed && !winSaid
        if state.failure != nil { winSaid = true }
        if let refusal = state.refusal {
            note = "Refused: \(refusal). " + keysHelp
        } else if let failure = state.failure {
            // A deadlock's wait-for graph follows, an edge a line.
            note = (["You won: \(failure.message)."] + failure.waitFor.map { $0.sentence(threads: description.threads) }
                + ["The schedule: \(schedule.map(String.init).joined(separator: " ")). q quits and prints it; u, r play on."])
                .joined(separator: "\n")
        } else if state.ended {
            note = "The run ended and the level's check held: no failure this time. u undoes, r restarts."
        } else {
            note = keysHelp
        }
        return newWin
    }

    /// The level's program failed (`LevelProblem`'s words): said, and keys work again (r starts afresh).
    public mutating func fail(_ problem: String) {
        waiting = false
        note = problem + " (r restarts, q quits)"
    }
}
