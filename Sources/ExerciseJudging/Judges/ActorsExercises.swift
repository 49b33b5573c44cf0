import Foundation
import PageProtocol
import TourCore

extension PageExercises {
    /// Page 11: the name a reentrant actor ends with, and a withdrawal that no longer trusts across its `await` what it
    /// checked before it.
    public static let actors = PageExercises(
        page: "actors",
        prediction: Prediction(
            id: "reentrant-name",
            question: "The saving person writes its first name, awaits a save, then writes its last name. Client A changes it "
                + "to Charlie Cheesecake and is held at that await; client B changes it to Delia Dingle meanwhile; then A "
                + "goes on. What name does the person end with (the mark \"saving person ends as …\")?",
            choices: [
                .init(key: "a", text: "Charlie Cheesecake: an actor runs A's change to its end before it lets B in"),
                .init(key: "b", text: "Delia Dingle: B's change was the last to be made"),
                .init(key: "c", text: "Delia Cheesecake: B's whole change ran inside A's, at its await"),
            ],
            observe: ActorsExercises.observeSavedName
        ),
        challenge: Challenge(
            id: "recheck-after-await",
            title: "The balance that changed across an await",
            task: "An Account actor checks the balance, awaits a fraud check, then subtracts: two withdrawals of 70 and 60 both "
                + "pass the check while the other is suspended, and the balance of 100 ends at -30. Make withdraw pay only "
                + "what the balance holds when it takes the money, keeping the fraud check before every payment.",
            folder: "11-Actors",
            hints: [
                "At an await inside an actor's method, the actor runs other calls. What did withdraw check before its await "
                    + "that may no longer be true after it?",
                "After await Bank.fraudCheck(…), check the balance again before subtracting, with no await between that "
                    + "check and the subtraction; decline if it no longer covers the amount.",
                "Repeat guard balance >= amount else { Bank.declined(client, amount, balance: balance); return false } right "
                    + "after the fraud check, then subtract and call Bank.paid.",
            ],
            speed: 10,
            judge: ActorsExercises.judgeWithdrawals
        )
    )
}

/// The readings behind page 11's exercises.
enum ActorsExercises {
    static let openingBalance = 100
    /// The clients and what each withdraws, as the exercise's clients do.
    static let withdrawals = [(client: "A", amount: 70), (client: "B", amount: 60)]

    /// Reads the name the page's saving person ended with.
    @Sendable static func observeSavedName(_ record: RunRecord) -> Prediction.Observation {
        let prefix = "saving person ends as "
        guard let ending = record.marks.first(where: { $0.name.hasPrefix(prefix) }) else {
            return .init(rightChoice: nil, happened: "this run ended before the saving person was done, so it cannot tell")
        }
        let name = String(ending.name.dropFirst(prefix.count))
        let resumed = record.marks.first { $0.name.hasPrefix("A resumes and finds ") }
            .map { ", after A resumed and found \($0.name.dropFirst("A resumes and finds ".count))" } ?? ""
        let keys = ["Charlie Cheesecake": "a", "Delia Dingle": "b", "Delia Cheesecake": "c"]
        guard let key = keys[name] else {
            return .init(rightChoice: nil, happened: "it ended as \(name), none of the three, so this run cannot tell")
        }
        return .init(rightChoice: key, happened: "it ended as \(name)\(resumed)")
    }

    /// A payment or a refusal as the exercise marks it: "A paid 70, balance 30", "B declined 60, balance 30".
    struct Outcome {
        let client: String
        let paid: Bool
        let amount: Int
        let balance: Int
        let time: UInt64

        init?(_ mark: Mark) {
            let words = mark.name.split(separator: " ")
            guard words.count == 5, words[1] == "paid" || words[1] == "declined", words[3] == "balance",
                  let amount = Int(words[2].dropLast()), let balance = Int(words[4]) else { return nil }
            client = String(words[0])
            paid = words[1] == "paid"
            self.amount = amount
            self.balance = balance
            time = mark.time
        }
    }

    /// Judges the two withdrawals: both ended while interleaved, each paid after its fraud check or declined, and the
    /// balance ended at the opening balance less what was paid, never below zero.
    @Sendable static func judgeWithdrawals(_ record: RunRecord) -> [CheckFinding] {
        let spans = withdrawals.map { record.firstSpan(named: "withdraw \($0.client) \($0.amount)") }
        guard spans.contains(where: { $0 != nil }) else {
            return [CheckFinding(holds: false, "no withdrawal ran: the clients must withdraw through Bank.runClients, as given")]
        }
        var findings: [CheckFinding] = []
        let present = spans.compactMap { $0 }
        if let stuck = present.first(where: { $0.end == nil }) {
            findings.append(CheckFinding(holds: false, "\"\(stuck.name)\" was still running when the run stopped: the fraud check "
                                         + "answers only once the other withdrawal has reached it or ended, so a withdrawal that "
                                         + "waits for the other to end never ends; check again after the await instead"))
        } else if present.count == withdrawals.count, let widest = record.mostAtOnce(present), widest.count == present.count {
            findings.append(CheckFinding(holds: true, "both withdrawals were in the actor at once from "
                                         + "\(record.timeText(at: widest.since)), one suspended at its fraud check"))
        } else {
            findings.append(CheckFinding(holds: false, "the withdrawals ran one after the other, so they never met at an await: "
                                         + "leave the clients and the bank as they are"))
        }
        let outcomes = record.marks.compactMap(Outcome.init)
        for (client, amount) in withdrawals {
            let own = outcomes.filter { $0.client == client }
            guard let outcome = own.first, own.count == 1 else {
                findings.append(CheckFinding(holds: false, own.isEmpty
                    ? "\(client) was neither paid nor declined: withdraw must end with Bank.paid or Bank.declined"
                    : "\(client) was paid or declined \(own.count) times: once each"))
                continue
            }
            guard outcome.paid else { continue }
            let approved = record.spans(named: "fraud check \(client)").contains { ($0.end ?? .max) <= outcome.time }
            if !approved {
                findings.append(CheckFinding(holds: false, "\(client) was paid \(amount) at \(record.timeText(at: outcome.time)) "
                                             + "before a fraud check had approved it: await Bank.fraudCheck before the money goes"))
            }
        }
        findings.append(balanceFinding(outcomes, in: record))
        return findings
    }

    /// Whether the balance ended where the payments put it, and not below zero.
    static func balanceFinding(_ outcomes: [Outcome], in record: RunRecord) -> CheckFinding {
        guard let final = record.marks.last(where: { $0.name.hasPrefix("final balance ") })
            .flatMap({ Int($0.name.dropFirst("final balance ".count)) }) else {
            return CheckFinding(holds: false, "the program did not mark its final balance: leave the clients as they are")
        }
        let payments = outcomes.filter(\.paid)
        let paidText = payments.isEmpty ? "nobody was paid"
            : payments.map { "\($0.client) was paid \($0.amount)" }.joined(separator: " and ")
        if let lowest = outcomes.min(by: { $0.balance < $1.balance }), lowest.balance < 0 || final < 0 {
            return CheckFinding(holds: false, "the balance ended at \(final): \(paidText) from \(openingBalance), because each "
                                + "withdrawal checked the balance before its await and subtracted after it, while the other "
                                + "had run in between; check the balance again after the await")
        }
        let expected = openingBalance - payments.map(\.amount).reduce(0, +)
        guard final == expected else {
            return CheckFinding(holds: false, "the balance ended at \(final), but \(paidText) from \(openingBalance), which "
                                + "leaves \(expected)")
        }
        let declined = outcomes.filter { !$0.paid }.map { "\($0.client) was declined \($0.amount)" }
        return CheckFinding(holds: true, "the balance ended at \(final), never below zero: "
                            + ([paidText] + declined).joined(separator: ", "))
    }
}
