import Dispatch
import Foundation
import PageProtocol
import RoomLink
import RoomProtocol
import Synchronization
import TourCore

/// A room of 100 participants on a broker started as `tour room` starts one (loopback, a free port): the time from a
/// participant's `publish` to the leader's handler hearing that state, one event at a time (each after the last was
/// heard), from the first half of the participants in turn. Measured twice: in a quiet room, and in a busy one where the
/// other half publish a state every millisecond between them (1,000 a second, far more than a workshop's). The
/// handler only notes the time: the dashboard's drawing is not in the figure. `BENCH=room`; mosquitto must be installed.
func roomLatency() {
    roomLatency(busy: false)
    roomLatency(busy: true)
}

/// A broker started as `tour room` starts one, on loopback, and `count` participants connected to it, ids
/// `<prefix>-0`…; nil, said, when either cannot be had. The caller stops the broker and lets the links leave.
func benchmarkRoom(participants count: Int, prefix: String) -> (broker: MosquittoBroker, links: [ParticipantLink])? {
    let broker: MosquittoBroker
    do {
        broker = try MosquittoBroker.start(listenHost: "127.0.0.1")
    } catch {
        Swift.print("room: \(error)")
        return nil
    }
    let connected = DispatchSemaphore(value: 0)
    let links = (0..<count).map { number in
        ParticipantLink(address: broker.localAddress, password: broker.passwords.room,
                        participant: ParticipantID("\(prefix)-\(number)")!) { update in
            if update == .status(.connected) { connected.signal() }
        }
    }
    for _ in links where connected.wait(timeout: .now() + 60) != .success {
        Swift.print("room: not every participant connected within 60 s")
        links.forEach { $0.leave() }
        broker.stop()
        return nil
    }
    return (broker, links)
}

func roomLatency(busy: Bool, participants count: Int = 100, events: Int = 400) {
    guard let (broker, links) = benchmarkRoom(participants: count, prefix: "tour-bench") else { return }
    defer { broker.stop() }
    defer { links.forEach { $0.leave() } }
    let heard = DispatchSemaphore(value: 0)
    /// The name the benchmark waits for, and when it was published.
    let awaited = Mutex<(name: String, publishedAt: UInt64)?>(nil)
    let latencies = Mutex<[Double]>([])
    let leader = LeaderLink(address: broker.localAddress, password: broker.passwords.leader) { update in
        guard case .event(.state(_, let state)) = update else { return }
        let now = monotonicNanoseconds()
        let matched = awaited.withLock { awaited -> Bool in
            guard let waiting = awaited, waiting.name == state.participant else { return false }
            latencies.withLock { $0.append(Double(now - waiting.publishedAt) / 1e6) }
            awaited = nil
            return true
        }
        if matched { heard.signal() }
    }
    defer { leader.leave() }
    let measuredParticipants = count / 2
    // Dispatch traps on releasing a timer never resumed: the quiet room makes none.
    let background = busy ? DispatchSource.makeTimerSource(queue: DispatchQueue(label: "room-bench-background")) : nil
    if let background {
        var next = 0
        background.schedule(deadline: .now(), repeating: .milliseconds(1), leeway: .microseconds(100))
        background.setEventHandler {
            var record = ProgressRecord()
            record.lastPage = "0\(next % 9 + 1)-Page"
            links[measuredParticipants + next % (count - measuredParticipants)].publish(
                ParticipantProgress(participant: "busy \(next)", tourVersion: "bench", writtenAt: Date(), progress: record))
            next += 1
        }
        background.resume()
    }
    defer { background?.cancel() }
    for event in 0..<events {
        var record = ProgressRecord()
        record.lastPage = "0\(event % 9 + 1)-Page"
        let name = "bench \(event)"
        let state = ParticipantProgress(participant: name, tourVersion: "bench", writtenAt: Date(), progress: record)
        awaited.withLock { $0 = (name, monotonicNanoseconds()) }
        links[event % measuredParticipants].publish(state)
        guard heard.wait(timeout: .now() + 30) == .success else {
            Swift.print("room: the leader did not hear event \(event) within 30 s")
            return
        }
    }
    let measured = latencies.withLock { $0 }
    Swift.print(String(format: "room (%@): %d participants, publish to the leader's handler over %d events: median %.2f ms, p90 %.2f ms, max %.2f ms",
                       busy ? "busy, 1,000 other states a second" : "quiet", count, measured.count, median(measured),
                       percentile(measured, 0.9), measured.max() ?? 0))
}

/// The same room, to the dashboard itself: the real `tour room --broker … --plain` (this build's `tour`), from a
/// participant's `publish` of a state that opens another page to the dashboard's line saying so ("p7: opened page 3
/// (async)"), read off its standard output. This counts what the leader's figure leaves out: the board folding the
/// state in, its analysis and the line written. 100 participants, one event at a time; `BENCH=room`.
func roomDashboardLatency(participants count: Int = 100, events: Int = 200) {
    let slugs: [String]
    do {
        slugs = try PageCatalog.load().pages.map(\.slug)
    } catch {
        Swift.print("room dashboard: \(error)")
        return
    }
    guard let (broker, links) = benchmarkRoom(participants: count, prefix: "tour-dash") else { return }
    defer { broker.stop() }
    defer { links.forEach { $0.leave() } }
    let dashboard = Process()
    dashboard.executableURL = URL(fileURLWithPath: BuildProducts.executable(named: "tour"))
    dashboard.arguments = ["room", "--broker", broker.localAddress.description, "--plain"]
    dashboard.environment = ProcessInfo.processInfo.environment.merging([RoomCredentials.passwordVariable: broker.passwords.leader, "NO_COLOR": "1"]) { $1 }
    let output = Pipe()
    dashboard.standardOutput = output
    dashboard.standardError = FileHandle.nullDevice
    do {
        try dashboard.run()
    } catch {
        Swift.print("room dashboard: cannot start tour room: \(error)")
        return
    }
    defer {
        dashboard.terminate()
        dashboard.waitUntilExit()
    }
    /// The text awaited in a line of the dashboard's, when it was published, and the lines seen.
    let awaited = Mutex<(text: String, publishedAt: UInt64)?>(nil)
    let seen = DispatchSemaphore(value: 0)
    let latencies = Mutex<[Double]>([])
    let joined = Mutex(0)
    let reader = Thread {
        var pending = Data()
        while true {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { return }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                let now = monotonicNanoseconds()
                if line.contains(": joined: ") { joined.withLock { $0 += 1 } }
                let matched = awaited.withLock { awaited -> Bool in
                    guard let waiting = awaited, line.contains(waiting.text) else { return false }
                    latencies.withLock { $0.append(Double(now - waiting.publishedAt) / 1e6) }
                    awaited = nil
                    return true
                }
                if matched || line.contains(": joined: ") { seen.signal() }
            }
        }
    }
    reader.start()
    var records = (0..<count).map { _ in ProgressRecord() }
    let start = Date()
    func publish(_ number: Int, _ link: ParticipantLink, opening slug: String) {
        records[number].apply(.opened(page: slug), at: start)
        link.publish(ParticipantProgress(participant: "p\(number)", tourVersion: "bench", writtenAt: start, progress: records[number]))
    }
    for (number, link) in links.enumerated() { publish(number, link, opening: slugs[0]) }
    while joined.withLock({ $0 }) < count {
        guard seen.wait(timeout: .now() + 60) == .success else {
            Swift.print("room dashboard: \(joined.withLock { $0 }) of \(count) participants joined the dashboard within 60 s")
            return
        }
    }
    for event in 0..<events {
        let number = event % count
        let page = slugs[(event / count + 1) % slugs.count]
        awaited.withLock { $0 = ("p\(number): opened page ", monotonicNanoseconds()) }
        publish(number, links[number], opening: page)
        // Each line is awaited before the next event, so the one awaited is this one's.
        var matched = false
        while !matched {
            guard seen.wait(timeout: .now() + 30) == .success else {
                Swift.print("room dashboard: event \(event) did not reach the dashboard within 30 s")
                return
            }
            matched = awaited.withLock { $0 == nil }
        }
    }
    let measured = latencies.withLock { $0 }
    Swift.print(String(format: "room dashboard (tour room --plain): %d participants, publish to the dashboard's line over %d events: median %.2f ms, p90 %.2f ms, max %.2f ms",
                       count, measured.count, median(measured), percentile(measured, 0.9), measured.max() ?? 0))
}
