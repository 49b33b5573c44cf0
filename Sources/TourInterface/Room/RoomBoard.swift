import Foundation
import RoomProtocol
import TourCore

/// The leader's dashboard of a room (`tour room`): every participant heard, keyed by `ParticipantID`, with where they
/// stand, who needs help, who left and what the room is stuck on. Pure: the shell hands in each `RoomEvent` with the
/// time it arrived on the leader's clock, the link's status and the time passing; `RoomBoardView` draws it and `--plain`
/// prints the `RoomHappening`s each event returns.
///
/// Bounded against a hostile room: at most `participantLimit` participants are tracked (messages from others are only
/// counted), each keeps only the catalog's pages and challenges of its state (findings cut to
/// `RoomMessages.maximumTextLength`), and the log keeps the last `logLimit` happenings.
///
/// "No progress for 10 minutes" is timed on the leader's clock: a page's time is when the dashboard saw its state
/// change, so a laptop whose clock is wrong is judged right. A state already in the room when the dashboard starts
/// (retained) is dated by how long before its own `writtenAt` the page last changed, on the participant's clock.
public struct RoomBoard: Sendable {
    public static let participantLimit = 500
    public static let logLimit = 200

    /// What a key asks the shell to do.
    public enum Command: Equatable, Sendable {
        case quit
    }

    /// One participant as the board knows them.
    public struct Participant: Equatable, Sendable {
        public let id: ParticipantID
        /// The name from their latest state (already printable), nil before their first state.
        public var name: String?
        /// The name as shown: a name someone heard earlier has too gets " (2)", " (3)"…; the id before any name.
        public internal(set) var label: String
        /// Their latest state, trimmed to the catalog's pages and challenges.
        public var record: ProgressRecord?
        /// Their presence as last heard; nil before any.
        public var presence: Presence?
        /// When each page's state last changed, by slug, on the leader's clock.
        public var changed: [String: Date] = [:]
        public var standing: ParticipantStanding?
    }

    public let analysis: WorkshopAnalysis
    /// Where participants join, as said in the header; nil until the broker is known.
    public var address: RoomAddress?
    /// The room's password, said apart from the join command; nil when the leader did not get it (a broker given).
    public var password: String?
    public private(set) var status: RoomLinkStatus = .connecting
    public private(set) var participants: [ParticipantID: Participant] = [:]
    /// Participants by label, then id: the rows' order.
    public private(set) var order: [ParticipantID] = []
    /// Messages from participants beyond the first `participantLimit`, counted and otherwise ignored.
    public private(set) var untrackedMessages = 0
    /// Unreadable messages heard, counted.
    public private(set) var unreadableMessages = 0
    /// The last `logLimit` happenings, oldest first.
    public private(set) var log: [RoomHappening] = []
    public private(set) var now: Date
    /// The first row of participants shown.
    public private(set) var scroll = 0
    /// When each participant was first heard, counted: who gets " (2)" on an equal name.
    private var heardAt: [ParticipantID: Int] = [:]
    /// The participants of each name, in the order first heard.
    private var named: [String: [ParticipantID]] = [:]

    public init(analysis: WorkshopAnalysis, address: RoomAddress? = nil, password: String? = nil, now: Date) {
        self.analysis = analysis
        self.address = address
        self.password = password
        self.now = now
    }

    /// The command participants type to join: one line to read out or put on a slide (the password is said apart).
    public var joinCommand: String? { address.map { "tour --room \($0) --name YOURNAME" } }

    public var present: Int { participants.values.filter { $0.presence == .online }.count }
    public var left: [Participant] { order.compactMap { participants[$0] }.filter { $0.presence == .offline } }

    /// Who needs help, among those still in the room, in the rows' order.
    public var needingHelp: [(participant: Participant, need: HelpNeed)] {
        order.compactMap { participants[$0] }.filter { $0.presence != .offline }.flatMap { participant in
            (participant.standing?.needsHelp ?? []).map { (participant, $0) }
        }
    }

    /// The exercises the room is stuck on, counted among those (present or not) who reached their page; `notPassed`
    /// indexes `withState`.
    public var stuck: [StuckExercise] { analysis.stuck(withState.compactMap(\.standing)) }

    /// Participants with a state, in the rows' order: the ones `stuck`'s indices count.
    public var withState: [Participant] { order.compactMap { participants[$0] }.filter { $0.standing != nil } }

    // MARK: - Update

    /// Folds in `event`, heard at `time`; returns what happened, in words, as `--plain` prints it (also kept in the log).
    @discardableResult
    public mutating func receive(_ event: RoomEvent, at time: Date) -> [RoomHappening] {
        now = max(now, time)
        var said: [String] = []
        var who: ParticipantID?
        switch event {
        case .state(let id, let document):
            guard track(id) else { return [] }
            who = id
            said = takeState(document, of: id)
        case .presence(let id, let presence):
            guard track(id) else { return [] }
            who = id
            let before = participants[id]?.presence
            participants[id]?.presence = presence
            switch (before, presence) {
            // A participant is named by their first state, which says they joined; joining before it says it by id.
            case (nil, .online): said = participants[id]?.record == nil ? [] : ["joined"]
            case (.offline, .online): said = ["is back"]
            case (nil, .offline), (.online, .offline): said = ["left"]
            default: said = []
            }
        case .unreadable(let id, let problem):
            // Counted, and said, but never a reason to track someone.
            unreadableMessages += 1
            let happening = RoomHappening(time: time, participant: id.map { participants[$0]?.label ?? $0.value },
                                          text: "unreadable message: \(RoomMessages.printableText(problem, limit: 200))")
            remember([happening])
            return [happening]
        case .poll, .pollClosed, .answer:
            // The presenter's: the dashboard shows progress only.
            return []
        }
        let happenings = said.map { RoomHappening(time: time, participant: who.flatMap { participants[$0]?.label }, text: $0) }
        remember(happenings)
        return happenings
    }

    /// The link's status changed at `time`.
    @discardableResult
    public mutating func linkChanged(_ status: RoomLinkStatus, at time: Date) -> [RoomHappening] {
        guard status != self.status else { return [] }
        self.status = status
        now = max(now, time)
        let happenings = [RoomHappening(time: time, participant: nil, text: "link " + status.words())]
        remember(happenings)
        return happenings
    }

    /// Something the room's host did (`RoomFeed.notice`), kept in the log.
    @discardableResult
    public mutating func noticed(_ text: String, at time: Date) -> [RoomHappening] {
        now = max(now, time)
        let happenings = [RoomHappening(time: time, participant: nil, text: RoomMessages.printableText(text))]
        remember(happenings)
        return happenings
    }

    /// Time passed: who has been idle long enough is judged again.
    public mutating func tick(_ time: Date) {
        now = max(now, time)
        for id in order where participants[id]?.record != nil { judge(id) }
    }

    /// The command `key` asks for; j/k and the arrows scroll the rows.
    public mutating func press(_ key: Key, rowsShown: Int) -> Command? {
        switch key {
        case .character("q"): return .quit
        case .down, .character("j"): scroll = min(scroll + 1, max(order.count - rowsShown, 0))
        case .up, .character("k"): scroll = max(scroll - 1, 0)
        case .pageDown, .character(" "): scroll = min(scroll + max(rowsShown - 1, 1), max(order.count - rowsShown, 0))
        case .pageUp: scroll = max(scroll - max(rowsShown - 1, 1), 0)
        default: break
        }
        return nil
    }

    // MARK: - Inside

    /// Whether `id` is (or now becomes) tracked; one beyond the limit is counted instead.
    private mutating func track(_ id: ParticipantID) -> Bool {
        guard participants[id] == nil else { return true }
        guard participants.count < Self.participantLimit else {
            untrackedMessages += 1
            return false
        }
        // Known by its id until its first state names it.
        participants[id] = Participant(id: id, name: nil, label: id.value, record: nil, presence: nil)
        heardAt[id] = heardAt.count
        place(id)
        return true
    }

    private mutating func takeState(_ document: ParticipantProgress, of id: ParticipantID) -> [String] {
        guard var participant = participants[id] else { return [] }
        let record = trimmed(document.progress)
        let before = participant.record
        for slug in analysis.slugs {
            guard let new = record.pages[slug], new != before?.pages[slug] else { continue }
            if before == nil, let recorded = WorkshopAnalysis.recordedChange(of: new) {
                participant.changed[slug] = now.addingTimeInterval(-max(0, document.writtenAt.timeIntervalSince(recorded)))
            } else {
                participant.changed[slug] = now
            }
        }
        let formerName = participant.name
        participant.record = record
        participant.name = document.participant
        participants[id] = participant
        if formerName != document.participant { rename(id, from: formerName, to: document.participant) }
        judge(id)
        return changes(from: before, to: record)
    }

    /// What changed between two states of one participant, in words: the page opened, a check failed (its n-th, with
    /// its finding), an exercise passed, a hint taken. A first state says where they are.
    private func changes(from before: ProgressRecord?, to after: ProgressRecord) -> [String] {
        let standing = analysis.standing(of: after, now: now) { _ in nil }
        guard let before else {
            let place = standing.current.map { "page \(analysis.pages[$0].number) (\(analysis.pages[$0].slug))" } ?? "no page yet"
            return ["joined: on \(place), \(standing.passed) exercise\(standing.passed == 1 ? "" : "s") passed"]
        }
        var said: [String] = []
        if after.lastPage != before.lastPage, let index = standing.current {
            said.append("opened page \(analysis.pages[index].number) (\(analysis.pages[index].slug))")
        }
        let previous = analysis.standing(of: before, now: now) { _ in nil }
        for (old, new) in zip(previous.challenges, standing.challenges) {
            if new.failedChecks > old.failedChecks {
                let finding = new.lastFinding.map { ": \($0)" } ?? ""
                said.append("check failed (\(Self.ordinal(new.failedChecks))) on \(new.name)\(finding)")
            }
            if new.hintsShown > old.hintsShown { said.append("took hint \(new.hintsShown) on \(new.name)") }
            if new.passed && !old.passed { said.append("passed \(new.name)") }
        }
        return said
    }

    /// The record cut to what the dashboard shows: the catalog's pages, each with its challenge's pass and attempts
    /// only, the finding made printable and short; no predictions or levels, and a last page only if it is the catalog's.
    private func trimmed(_ record: ProgressRecord) -> ProgressRecord {
        var kept = ProgressRecord()
        for (index, slug) in analysis.slugs.enumerated() {
            guard let progress = record.pages[slug] else { continue }
            var slim = PageProgress()
            slim.opens = progress.opens
            slim.firstOpened = progress.firstOpened
            slim.lastOpened = progress.lastOpened
            slim.runs = progress.runs
            slim.lastRun = progress.lastRun
            if let challenge = analysis.challenges[index] {
                slim.exercises[challenge] = progress.exercises[challenge]
                if var attempts = progress.attempts[challenge] {
                    if let finding = attempts.lastVerdict?.firstFailure { attempts.lastVerdict?.firstFailure = RoomMessages.printableText(finding) }
                    slim.attempts[challenge] = attempts
                }
            }
            kept.pages[slug] = slim
        }
        kept.lastPage = record.lastPage.flatMap { analysis.slugs.contains($0) ? $0 : nil }
        return kept
    }

    private mutating func judge(_ id: ParticipantID) {
        guard let participant = participants[id], let record = participant.record else { return }
        participants[id]?.standing = analysis.standing(of: record, now: now) { participant.changed[$0] }
    }

    /// Moves `id` from the participants named `old` to those named `name`, and labels both anew: the first heard of a
    /// name has it alone, the others " (2)", " (3)"…, in the order first heard. Only those two names' rows move, so a
    /// participant changing their name a thousand times a second costs little.
    private mutating func rename(_ id: ParticipantID, from old: String?, to name: String) {
        if let old {
            named[old]?.removeAll { $0 == id }
            if named[old]?.isEmpty == true { named[old] = nil }
        }
        named[name, default: []].append(id)
        named[name]?.sort { (heardAt[$0] ?? 0) < (heardAt[$1] ?? 0) }
        for each in [old, name].compactMap({ $0 }) {
            for (index, member) in (named[each] ?? []).enumerated() {
                let label = index == 0 ? each : "\(each) (\(index + 1))"
                guard participants[member]?.label != label else { continue }
                participants[member]?.label = label
                place(member)
            }
        }
    }

    /// Puts `id` in `order` where its label sorts (then its id).
    private mutating func place(_ id: ParticipantID) {
        order.removeAll { $0 == id }
        func key(_ id: ParticipantID) -> (String, String) { (participants[id]?.label.lowercased() ?? "", id.value) }
        let wanted = key(id)
        var low = 0, high = order.count
        while low < high {
            let middle = (low + high) / 2
            if key(order[middle]) < wanted { low = middle + 1 } else { high = middle }
        }
        order.insert(id, at: low)
    }

    private mutating func remember(_ happenings: [RoomHappening]) {
        log += happenings
        if log.count > Self.logLimit { log.removeFirst(log.count - Self.logLimit) }
    }

    /// 1st, 2nd, 3rd, 4th… 11th, 12th, 13th, 21st.
    static func ordinal(_ number: Int) -> String {
        let suffix = (11...13).contains(number % 100) ? "th" : [1: "st", 2: "nd", 3: "rd"][number % 10] ?? "th"
        return "\(number)\(suffix)"
    }
}

/// One thing that happened in the room, as the dashboard's log and `tour room --plain` say it.
public struct RoomHappening: Equatable, Sendable {
    /// On the leader's clock.
    public var time: Date
    /// The participant's label, when it was one of theirs.
    public var participant: String?
    public var text: String

    public init(time: Date, participant: String?, text: String) {
        self.time = time
        self.participant = participant
        self.text = text
    }

    /// `13:45:02 ana: check failed (2nd) on queue/preview-first: the preview came last`, the time in `zone`.
    public func line(in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute, .second], from: time)
        let clock = String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
        return "\(clock) " + (participant.map { "\($0): " } ?? "") + text
    }
}
