@preconcurrency import Glibc
import Foundation
import Presenting
import Testing
import TourCore
import TourTestSupport

/// The presenter's snapshots reach `tour notes` over a private Unix socket, one JSON line each, and never cross
/// between two presenters.
@Suite("Notes channel", .bodiesBelowTheRunner)
struct NotesChannelTests {
    static func snapshot(page: Int, block: Int, notes: [String] = ["say this"]) -> PresenterSnapshot {
        PresenterSnapshot(page: page, pageTitle: "Queue", block: block, blockCount: 9, current: "## Adding\nline two",
                          next: block < 8 ? "the next block" : nil, notes: notes, elapsedSeconds: Double(block) * 10,
                          upcomingKnobChanges: ["maxConcurrentOperationCount 1 → 3"])
    }

    /// A private folder for one test's sockets, short enough for a socket's path.
    static func folder() throws -> String {
        let path = "/tmp/tn-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try #require(mkdir(path, 0o700) == 0)
        return path
    }

    /// The next snapshot the stream gives, failing the test if it ends first.
    static func next(_ iterator: inout AsyncThrowingStream<PresenterSnapshot, Error>.Iterator) async throws -> PresenterSnapshot {
        try #require(try await iterator.next())
    }

    @Test func aSnapshotTravelsAsOneJSONLineAndComesBackEqual() async throws {
        let snapshot = Self.snapshot(page: 2, block: 3, notes: ["Point at \"T1\" / T2", "second"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(snapshot)
        #expect(!data.contains(0x0A))
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text.contains("\"upcomingKnobChanges\":[\"maxConcurrentOperationCount 1 → 3\"]"))
        #expect(try JSONDecoder().decode(PresenterSnapshot.self, from: data) == snapshot)
        var last = snapshot
        last.next = nil
        #expect(try JSONDecoder().decode(PresenterSnapshot.self, from: encoder.encode(last)).next == nil)
    }

    @Test func aFollowerGetsTheLatestSnapshotAtOnceThenEveryOneInOrder() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let publisher = try NotesPublisher(folder: folder, session: "one")
        publisher.publish(Self.snapshot(page: 1, block: 0))
        publisher.publish(Self.snapshot(page: 1, block: 1))
        // Published before anyone listened: only the latest is kept for a follower that comes later.
        #expect(publisher.followerCount == 0)
        var snapshots = try NotesFollower.snapshots(from: publisher.socketPath).makeAsyncIterator()
        #expect(try await Self.next(&snapshots).block == 1)
        for block in 2...5 { publisher.publish(Self.snapshot(page: 1, block: block)) }
        for block in 2...5 { #expect(try await Self.next(&snapshots) == Self.snapshot(page: 1, block: block)) }
        // The presenter goes away: the stream ends, and the socket is gone.
        publisher.close()
        #expect(try await snapshots.next() == nil)
        #expect(access(publisher.socketPath, F_OK) != 0)
    }

    @Test func twoPresentersOnOneMachineNeverCross() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try NotesPublisher(folder: folder, session: "100")
        let second = try NotesPublisher(folder: folder, session: "200")
        #expect(first.socketPath != second.socketPath)
        first.publish(Self.snapshot(page: 1, block: 0))
        second.publish(Self.snapshot(page: 7, block: 0))
        var followsFirst = try NotesFollower.snapshots(from: first.socketPath).makeAsyncIterator()
        var followsSecond = try NotesFollower.snapshots(from: second.socketPath).makeAsyncIterator()
        #expect(try await Self.next(&followsFirst).page == 1)
        #expect(try await Self.next(&followsSecond).page == 7)
        for block in 1...3 {
            first.publish(Self.snapshot(page: 1, block: block))
            second.publish(Self.snapshot(page: 7, block: block))
        }
        for block in 1...3 {
            #expect(try await Self.next(&followsFirst) == Self.snapshot(page: 1, block: block))
            #expect(try await Self.next(&followsSecond) == Self.snapshot(page: 7, block: block))
        }
        first.close()
        #expect(try await followsFirst.next() == nil)
        // The other presenter goes on.
        second.publish(Self.snapshot(page: 8, block: 0))
        #expect(try await Self.next(&followsSecond).page == 8)
        second.close()
    }

    @Test func aFollowerThatWentAwayIsDroppedAndThePresenterGoesOn() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let publisher = try NotesPublisher(folder: folder, session: "drop")
        defer { publisher.close() }
        publisher.publish(Self.snapshot(page: 1, block: 0))
        do {
            var gone = try NotesFollower.snapshots(from: publisher.socketPath).makeAsyncIterator()
            _ = try await Self.next(&gone)
        }
        var stays = try NotesFollower.snapshots(from: publisher.socketPath).makeAsyncIterator()
        _ = try await Self.next(&stays)
        // The first follower's stream is gone and its socket closed: the next sends notice and drop it.
        var dropped = false
        for block in 1...200 where !dropped {
            publisher.publish(Self.snapshot(page: 1, block: block))
            #expect(try await Self.next(&stays).block == block)
            dropped = publisher.followerCount == 1
        }
        #expect(dropped)
    }

    @Test func aFollowerThatDoesNotReadIsDroppedWithoutHoldingThePresenterUp() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let publisher = try NotesPublisher(folder: folder, session: "slow")
        defer { publisher.close() }
        // A follower that connects and never reads.
        let stuck = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(stuck) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(publisher.socketPath.utf8) + [0]) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(stuck, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(connected == 0)
        #expect(await eventually(timeout: 10) { publisher.followerCount == 1 })
        // Big snapshots fill its socket's buffer. A publisher that waited for it would never get through this loop.
        let big = Self.snapshot(page: 1, block: 0, notes: [String(repeating: "x", count: 64_000)])
        for _ in 0..<100 { publisher.publish(big) }
        #expect(await eventually(timeout: 20) { publisher.followerCount == 0 })
        // The presenter still serves a follower that reads.
        var reads = try NotesFollower.snapshots(from: publisher.socketPath).makeAsyncIterator()
        #expect(try await Self.next(&reads) == big)
    }

    @Test func theFolderIsPrivateAndLiveSessionsAreFoundNewestFirst() async throws {
        let runtime = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let folder = try NotesChannel.folder(environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(folder == runtime + "/tour")
        var info = stat()
        try #require(stat(folder, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
        // A folder opened to others is made private again.
        chmod(folder, 0o755)
        _ = try NotesChannel.folder(environment: ["XDG_RUNTIME_DIR": runtime])
        try #require(stat(folder, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
        // Without XDG_RUNTIME_DIR, a folder under /tmp named by the uid.
        #expect(try NotesChannel.folder(environment: [:]) == "/tmp/tour-\(getuid())")

        let older = try NotesPublisher(folder: folder, session: String(getpid()))
        defer { older.close() }
        // Socket times have a file system's resolution: the newer one is made clearly later.
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        utimensat(AT_FDCWD, older.socketPath, &times, AT_SYMLINK_NOFOLLOW)
        let newer = try NotesPublisher(folder: folder, session: "newer")
        defer { newer.close() }
        // A socket left by a presenter that was killed (no such process) is cleared away.
        let dead = try NotesPublisher(folder: folder, session: "2147483646")
        NotesChannelTests.abandon(dead)
        #expect(NotesChannel.liveSessions(in: folder).map(\.name) == ["newer", String(getpid())])
        #expect(access(NotesChannel.socketPath(folder: folder, session: "2147483646"), F_OK) != 0)
    }

    /// Leaves a publisher's socket file behind as a killed presenter would.
    static func abandon(_ publisher: NotesPublisher) {
        let path = publisher.socketPath
        let kept = "\(path).kept"
        link(path, kept)
        publisher.close()
        rename(kept, path)
    }
}
