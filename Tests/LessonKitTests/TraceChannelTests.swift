import Foundation
import Glibc
import Testing
@testable import LessonKit
import TourTestSupport

/// A page decides once whether fd 3 is the host's trace pipe. Run on its own, fd 3 may already be libdispatch's epoll
/// descriptor; taking that for the pipe would send the page's events and narration nowhere.
@Suite("Trace channel", .bodiesBelowTheRunner)
struct TraceChannelTests {
    @Test func aPipeCarriesTheTrace() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        #expect(TraceChannel.carriesLines(ends[1]))
    }

    /// An inotify descriptor is an anonymous inode, as libdispatch's epoll descriptor is (Glibc's module map does not
    /// bring in `epoll_create1`).
    @Test func anAnonymousInodeIsNotATraceChannel() throws {
        let anonymous = inotify_init1(0)
        try #require(anonymous >= 0)
        defer { close(anonymous) }
        #expect(!TraceChannel.carriesLines(anonymous))
    }

    @Test func aClosedDescriptorIsNotATraceChannel() throws {
        // A number far above the ones in use: a file another test opens meanwhile gets the lowest free number, so the
        // closed one is not handed out again before it is looked at (at 6 it once was).
        let opened = open("/dev/null", O_WRONLY)
        try #require(opened >= 0)
        let descriptor = fcntl(opened, F_DUPFD, 900)
        close(opened)
        try #require(descriptor >= 900)
        close(descriptor)
        #expect(!TraceChannel.carriesLines(descriptor))
    }

    /// A line after quiet goes out at once; one within half a millisecond of the last write is part of a burst and
    /// gathers. Decided from the two times alone, so no clock is waited on.
    @Test func aLineAfterQuietIsWrittenAtOnceAndABurstGathers() {
        let gathering = UInt64(TraceChannel.gatherMicroseconds) * 1_000
        let lastWrite: UInt64 = 5_000_000_000
        #expect(TraceChannel.writesAtOnce(now: 1_000, lastWriteEnded: 0))
        #expect(TraceChannel.writesAtOnce(now: lastWrite + gathering, lastWriteEnded: lastWrite))
        #expect(TraceChannel.writesAtOnce(now: lastWrite + 20 * gathering, lastWriteEnded: lastWrite))
        #expect(!TraceChannel.writesAtOnce(now: lastWrite + gathering - 1, lastWriteEnded: lastWrite))
        #expect(!TraceChannel.writesAtOnce(now: lastWrite, lastWriteEnded: lastWrite))
    }
}
