import Synchronization

// Page 11's exercise (`Exercises/11-Actors`): the clients that withdraw from the learner's account, and the bank that
// records each withdrawal and holds the fraud check so that the two interleave. The exercise, its solution and its
// test variants differ only in the account.

/// The account of page 11's exercise, as its clients use it: an actor that pays a withdrawal or declines it.
public protocol BankAccount: Actor {
    /// Pays `amount` to `client` if the account allows it; returns whether it paid.
    func withdraw(_ amount: Int, for client: String) async -> Bool
    var balance: Int { get async }
}

/// The bank around page 11's account: the spans and marks the check reads, and the hold behind the fraud check.
public enum Bank {
    /// The clients and what each withdraws, at once, from an account that opens with 100.
    static let withdrawals = [(client: "A", amount: 70), (client: "B", amount: 60)]
    private static let holds = FraudCheckHolds(clients: withdrawals.map(\.client))

    /// Runs page 11's clients on `account`: A withdraws 70 and B 60, each in a child task of one group, each
    /// withdrawal the span "withdraw A 70"; then the mark "final balance N".
    public static func runClients(on account: some BankAccount) async {
        await withTaskGroup(of: Void.self) { group in
            for (client, amount) in withdrawals {
                group.addTracedTask("client \(client)") {
                    await trace("withdraw \(client) \(amount)") { _ = await account.withdraw(amount, for: client) }
                    holds.settle(client)
                }
            }
        }
        let finalBalance = await account.balance
        mark("final balance \(finalBalance)")
        print("The account ends at \(finalBalance)")
    }

    /// The bank's fraud check, the span "fraud check A": it suspends (0.2 s at 1×), then answers once every other
    /// withdrawal has reached its own fraud check or ended. Returning means the payment is approved.
    public static func fraudCheck(_ amount: Int, for client: String) async {
        await trace("fraud check \(client)") {
            try? await Task.sleep(for: .seconds(0.2 / Simulated.speed))
            await holds.arrive(client)
        }
    }

    /// `client` was paid `amount`, leaving `balance`: the mark "A paid 70, balance 30".
    public static func paid(_ client: String, _ amount: Int, balance: Int) {
        mark("\(client) paid \(amount), balance \(balance)")
    }

    /// `client` was refused `amount` because the balance was `balance`: the mark "B declined 60, balance 30".
    public static func declined(_ client: String, _ amount: Int, balance: Int) {
        mark("\(client) declined \(amount), balance \(balance)")
    }
}

/// The hold behind the fraud check: a withdrawal at the fraud check goes on once every other client has arrived there
/// too or ended its withdrawal. So the two withdrawals always meet at an `await`, and one that waits for the other to
/// end before it goes on never ends.
final class FraudCheckHolds: Sendable {
    private struct State {
        var settled: Set<String> = []
        var waiting: [(client: String, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let clients: Set<String>
    private let state = Mutex(State())

    init(clients: [String]) {
        self.clients = Set(clients)
    }

    /// The clients whose fraud checks are held right now.
    var heldClients: Set<String> { state.withLock { Set($0.waiting.map(\.client)) } }

    /// Suspends `client`'s fraud check until every other client has settled.
    func arrive(_ client: String) async {
        await withCheckedContinuation { continuation in
            settle(client, waiting: continuation)
        }
    }

    /// Counts `client` as arrived or ended, and resumes every waiting fraud check whose others have all settled.
    func settle(_ client: String, waiting continuation: CheckedContinuation<Void, Never>? = nil) {
        let released = state.withLock { state in
            state.settled.insert(client)
            if let continuation { state.waiting.append((client, continuation)) }
            let goOn = state.waiting.filter { clients.subtracting([$0.client]).isSubset(of: state.settled) }
            state.waiting.removeAll { waiting in goOn.contains { $0.client == waiting.client } }
            return goOn.map(\.continuation)
        }
        // Resumed outside the lock: a resumed task may come straight back.
        for continuation in released { continuation.resume() }
    }
}
