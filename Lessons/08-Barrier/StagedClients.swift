import Dispatch
import LessonKit

/// The holds that stage one interleaving of the unsafe person's clients, so that every run shows names nobody gave,
/// and a run under one seed shows the same ones.
///
/// Each client has two moments: storing its first name, then storing its last name and reading the name back. The
/// moments are played in steps: a moment waits until every moment of the step before it has ended, so a step's moments
/// happen after everything before them, in real time and for Thread Sanitizer alike (a `DispatchGroup` orders memory
/// as well as time). The first step holds two moments: those two clients wait until both have come to it, then store
/// their first names at once with nothing ordering the writes, which is the race Thread Sanitizer reports. (Without
/// that wait, one client could store its name and end its turn before the other's thread had started, and Thread
/// Sanitizer then found the two writes ordered and reported nothing.) After it, each client stores its first name two steps before
/// the client it overwrites stores its last name, so that client reads back a first name not its own.
///
/// The order of the clients is drawn from `PageRandom(stream: "staged clients")`: a new one each run, or the same one
/// every run under `--seed N`.
final class StagedClients: Sendable {
    /// What a client does in one of its two turns.
    enum Moment: Sendable {
        case firstName, lastName
    }

    /// The clients, by name, in the order this run drew.
    let order: [String]
    /// The moments of each step, in order.
    private let steps: [[Turn]]
    /// One group a step, entered once for each of its moments and left as each ends; the next step waits on it.
    private let stepEnded: [DispatchGroup]
    /// Entered once for each moment of the first step, and left as each comes to it: they start together.
    private let firstStepArrived = DispatchGroup()

    private struct Turn: Equatable, Sendable {
        var client: String
        var moment: Moment
    }

    /// Stages `clients` (at least three) in an order drawn from the run's random numbers.
    init(clients: [String]) {
        precondition(clients.count >= 3, "staging needs three clients or more")
        var random = PageRandom(stream: "staged clients")
        order = clients.shuffled(using: &random)
        steps = Self.steps(order)
        stepEnded = steps.map { step in
            let group = DispatchGroup()
            for _ in step { group.enter() }
            return group
        }
        for _ in steps[0] { firstStepArrived.enter() }
    }

    /// The steps for clients in `order`: the first two store their first names together; then the third's first name,
    /// the first's last name, the fourth's first name, the second's last name, and so on; the last client stores its
    /// last name before the one before it does.
    private static func steps(_ order: [String]) -> [[Turn]] {
        var steps = [[Turn(client: order[0], moment: .firstName), Turn(client: order[1], moment: .firstName)]]
        for index in 2..<order.count {
            steps.append([Turn(client: order[index], moment: .firstName)])
            steps.append([Turn(client: order[index - 2], moment: .lastName)])
        }
        steps.append([Turn(client: order[order.count - 1], moment: .lastName)])
        steps.append([Turn(client: order[order.count - 2], moment: .lastName)])
        return steps
    }

    private func step(of moment: Moment, of client: String) -> Int {
        guard let index = steps.firstIndex(where: { $0.contains(Turn(client: client, moment: moment)) }) else {
            preconditionFailure("\(client) is not one of the staged clients \(order)")
        }
        return index
    }

    /// Blocks until `client` may play `moment`: until every moment of the step before it has ended, or, in the first
    /// step, until every client of that step has come to it, so that they all go at once.
    func waitForTurn(_ moment: Moment, of client: String) {
        let index = step(of: moment, of: client)
        if index > 0 {
            stepEnded[index - 1].wait()
        } else {
            firstStepArrived.leave()
            firstStepArrived.wait()
        }
    }

    /// `client` has played `moment`: the next step may start once the rest of this one has ended too.
    func end(_ moment: Moment, of client: String) {
        stepEnded[step(of: moment, of: client)].leave()
    }
}
