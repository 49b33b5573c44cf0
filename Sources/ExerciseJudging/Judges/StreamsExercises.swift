import Foundation
import PageProtocol
import TourCore

extension PageExercises {
    /// Page 13: which ticks a slow reader of a `bufferingNewest(1)` stream sees, and a sensor bridged into a stream
    /// that stops the sensor when the stream ends and ends when the sensor does.
    public static let streams = PageExercises(
        page: "streams",
        prediction: Prediction(
            id: "newest-one-reader-sees",
            question: "The page's timer yields 20 ticks, one every 40 ms, into an AsyncStream made with bufferingNewest(1), "
                + "and never waits for its reader, which takes 120 ms over each tick. Which ticks does the reader see?",
            choices: [
                .init(key: "a", text: "all 20: the stream keeps every tick until the reader asks for it"),
                .init(key: "b", text: "about one in three, the last tick among them: each new tick pushes out the one waiting"),
                .init(key: "c", text: "about one in three, and stale ones: a new tick that finds the buffer full is thrown away"),
            ],
            observe: StreamsExercises.observeTicksSeen
        ),
        challenge: Challenge(
            id: "sensor-stream",
            title: "A sensor as a stream",
            task: "heartRates(from:) bridges a heart-rate sensor's callbacks into an AsyncStream and passes its readings on. "
                + "Make it stop the sensor when the stream ends, whichever way it ends, and end the stream when the sensor's "
                + "battery runs out, so that its reader's for await ends.",
            folder: "13-Streams",
            hints: [
                "A stream ends when its reader's task is cancelled, when the stream is dropped, or when it is finished. Which "
                    + "property of the continuation does the runtime call then, whichever way it was?",
                "continuation.onTermination = { _ in … } is called once, when the stream ends: stop the sensor there. The "
                    + "sensor's onEnd is the moment to end the stream from the producer's side.",
                "AsyncStream { continuation in continuation.onTermination = { _ in sensor.stop() }; "
                    + "sensor.start(onReading: { continuation.yield($0) }, onEnd: { continuation.finish() }) }",
            ],
            speed: 2,
            judge: StreamsExercises.judgeSensorStream
        )
    )
}

/// The readings behind page 13's exercises.
enum StreamsExercises {
    static let readsBeforeCancel = 5

    /// A yield of the page's tick timer, read from its mark "tick timer: yield 5: dropped 4".
    struct TickYield {
        var tick: Int
        var dropped: Int?
    }

    static func tickYields(in record: RunRecord) -> [TickYield] {
        let prefix = "tick timer: yield "
        return record.marks.filter { $0.name.hasPrefix(prefix) }.sorted { $0.time < $1.time }.compactMap { mark in
            let parts = mark.name.dropFirst(prefix.count).components(separatedBy: ": ")
            guard parts.count == 2, let tick = Int(parts[0]) else { return nil }
            let dropped = parts[1].hasPrefix("dropped ") ? Int(parts[1].dropFirst("dropped ".count)) : nil
            return TickYield(tick: tick, dropped: dropped)
        }
    }

    /// Reads the page's tick stream: every tick read, or drops that pushed out the tick waiting, or drops of the new tick.
    @Sendable static func observeTicksSeen(_ record: RunRecord) -> Prediction.Observation {
        let yields = tickYields(in: record)
        guard let last = yields.last?.tick else {
            return .init(rightChoice: nil, happened: "this run's timer yielded no tick, so it cannot tell")
        }
        let read = record.spans.filter { $0.name.hasPrefix("read tick ") }.sorted { $0.start < $1.start }
            .compactMap { Int($0.name.dropFirst("read tick ".count)) }
        let drops = yields.filter { $0.dropped != nil }
        let seen = "the reader saw \(read.count): \(read.map(String.init).joined(separator: ", "))"
        if drops.isEmpty {
            return .init(rightChoice: "a", happened: "the timer yielded \(last) ticks and none was dropped; \(seen)")
        }
        if drops.allSatisfy({ ($0.dropped ?? 0) < $0.tick }) {
            return .init(rightChoice: "b", happened: "the timer yielded \(last) ticks, \(drops.count) of its yields dropped the "
                         + "tick waiting to make room, and \(seen)")
        }
        if drops.allSatisfy({ $0.dropped == $0.tick }) {
            return .init(rightChoice: "c", happened: "the timer yielded \(last) ticks, \(drops.count) of them were thrown away as "
                         + "they came, and \(seen)")
        }
        return .init(rightChoice: nil, happened: "this run dropped both old and new ticks, so it cannot tell")
    }

    /// Judges the sensor stream: readings reached the reader, the chest strap was stopped when its reader was
    /// cancelled, and the wrist band's reader's loop ended after its battery ran out.
    @Sendable static func judgeSensorStream(_ record: RunRecord) -> [CheckFinding] {
        let chestReads = record.marks.filter { $0.name.hasPrefix("reader got chest strap ") }
        guard chestReads.count >= readsBeforeCancel else {
            return [CheckFinding(holds: false, "\(chestReads.isEmpty ? "no" : "only \(chestReads.count)") reading of the chest "
                                 + "strap reached its reader: start the sensor in the stream's closure and yield each reading "
                                 + "onReading hands you into the continuation")]
        }
        var findings = [CheckFinding(holds: true, "the chest strap's readings reached its reader through the stream")]
        findings.append(chestStrapStopFinding(record))
        findings.append(wristBandEndFinding(record))
        return findings
    }

    /// Whether the chest strap was stopped once its reader was cancelled: not before, and not left to the check.
    static func chestStrapStopFinding(_ record: RunRecord) -> CheckFinding {
        guard let cancel = record.marks.first(where: { $0.name == "the check cancels the chest strap reader" }) else {
            return CheckFinding(holds: false, "the check never got to cancel the chest strap's reader")
        }
        let cancelled = record.timeText(at: cancel.time)
        if let switchedOff = record.marks.first(where: { $0.name == "the check switches the chest strap off" }) {
            let unread = record.marks.filter { $0.name.hasPrefix("chest strap reading ") && $0.time > cancel.time && $0.time < switchedOff.time }
            return CheckFinding(holds: false, "the chest strap went on reading after its reader was cancelled at \(cancelled): "
                                + "\(unread.count) readings came that nobody read, until the check switched it off at "
                                + "\(record.timeText(at: switchedOff.time)); stop the sensor in the continuation's onTermination")
        }
        guard let stopped = record.marks.first(where: { $0.name == "chest strap stopped" }) else {
            return CheckFinding(holds: false, "the chest strap was never stopped after its reader was cancelled at \(cancelled)")
        }
        if stopped.time < cancel.time {
            return CheckFinding(holds: false, "the chest strap was stopped at \(record.timeText(at: stopped.time)), before its "
                                + "reader was cancelled at \(cancelled): stop it when the stream ends, not before")
        }
        return CheckFinding(holds: true, "the chest strap was stopped at \(record.timeText(at: stopped.time)), when its reader "
                            + "was cancelled at \(cancelled)")
    }

    /// Whether the wrist band's reader left its loop after the battery ran out.
    static func wristBandEndFinding(_ record: RunRecord) -> CheckFinding {
        guard let empty = record.marks.first(where: { $0.name == "wrist band battery empty" }) else {
            return CheckFinding(holds: false, "the wrist band never ran out of battery: its stream must start the sensor too")
        }
        let reads = record.marks.filter { $0.name.hasPrefix("reader got wrist band ") }.count
        if let ended = record.marks.first(where: { $0.name == "wrist band reader's loop ends" }) {
            return CheckFinding(holds: true, "the wrist band's reader got its \(reads) readings and left its for await at "
                                + "\(record.timeText(at: ended.time)), after the battery ran out at \(record.timeText(at: empty.time))")
        }
        return CheckFinding(holds: false, "the wrist band's reader still waited for a reading after the battery ran out at "
                            + "\(record.timeText(at: empty.time)): finish the stream in the sensor's onEnd")
    }
}
