import Foundation
import Testing
import TourCore
import TourTestSupport

/// Page 12 proves what it teaches about isolation: the compiler's messages it quotes from the real compiler, and where
/// each piece of code ran from its own trace.
@Suite("Page 12: Isolation", .bodiesBelowTheRunner)
struct IsolationPageTests {
    static let product = "Lesson12Isolation"
    static let speed = 4.0
    /// One run with the default knobs serves every claim but the two knobs'.
    static let run = Task { await recordRun(product: product, speed: speed) }
    /// The decode moved to the global pool. At 1×, so the decode lasts 0.4 s against a frame every 25 ms.
    static let concurrentDecode = Task { await recordRun(product: product, knobs: [("decode", "concurrent")], speed: 1) }
    /// The save's callback on a global queue, where `MainActor.assumeIsolated` crashes as announced.
    static let assumedOffMain = Task { await recordRun(product: product, knobs: [("assumeIsolatedOffMain", "true")], speed: speed) }

    static let mainQueue = "com.apple.main-thread"
    static let globalPool = "Swift global concurrent queue"

    static var page: URL {
        PageCatalog.defaultRoot.appendingPathComponent("Lessons/12-Isolation/main.swift")
    }

    /// A mistake the page shows as a commented-out line: `// code  // error: message`.
    struct QuotedError: CustomTestStringConvertible, Sendable {
        /// The line's number in `main.swift`, from 1.
        let line: Int
        let message: String
        var testDescription: String { "line \(line): \(message)" }
    }

    /// Every commented-out line of the page that quotes the error it would cause.
    static let quotedErrors: [QuotedError] = {
        let lines = (try? String(contentsOf: page, encoding: .utf8))?.components(separatedBy: "\n") ?? []
        return lines.enumerated().compactMap { index, line in
            let code = line.trimmingCharacters(in: .whitespaces)
            guard code.hasPrefix("// "), let quote = code.range(of: "  // error: ") else { return nil }
            return QuotedError(line: index + 1, message: String(code[quote.upperBound...]))
        }
    }()

    static func span(_ name: String, in run: RunRecord) throws -> Span {
        try #require(run.spans(named: name).first, "no span named \(name)")
    }

    @Test func endsNormallyAsItSays() async {
        let run = await Self.run.value
        #expect(run.ending == .exited(code: 0))
        #expect(run.endedAsExpected)
        #expect(run.outputText.last?.hasPrefix("Done:") == true)
    }

    // MARK: - The errors Swift 6 shows most

    @Test func thePageQuotesFiveErrors() {
        #expect(Self.quotedErrors.count == 5, "\(Self.quotedErrors.map(\.testDescription))")
    }

    /// Takes the `//` from the front of the line and compiles the page as SwiftPM would, to SIL, where region-based
    /// isolation's errors come from: the compiler refuses it with the very message the page quotes, at that line or
    /// with a note there (a refused send is reported where the value is sent, and the use after it gets the note).
    @Test(arguments: quotedErrors)
    func theQuotedErrorIsTheCompilersOwn(_ quoted: QuotedError) async throws {
        var lines = try String(contentsOf: Self.page, encoding: .utf8).components(separatedBy: "\n")
        let commented = lines[quoted.line - 1]
        let slashes = try #require(commented.range(of: "// "))
        lines[quoted.line - 1] = commented.replacingCharacters(in: slashes, with: "")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("isolation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let edited = folder.appendingPathComponent("main.swift")
        try lines.joined(separator: "\n").write(to: edited, atomically: true, encoding: .utf8)

        let (status, output) = try await PageCompiler.compile([edited], upTo: .sil, label: "page 12, line \(quoted.line) uncommented")
        #expect(status != 0, "the page compiled with line \(quoted.line) uncommented")
        let diagnostics = output.components(separatedBy: "\n").filter { $0.hasPrefix(edited.path + ":") }
        let errors = diagnostics.filter { $0.contains(": error: ") }
        #expect(errors.contains { $0.hasSuffix(": error: " + quoted.message) || $0.contains(": error: " + quoted.message + " [#") },
                "the compiler said:\n\(errors.joined(separator: "\n"))")
        #expect(diagnostics.contains { $0.hasPrefix("\(edited.path):\(quoted.line):") }, "nothing at line \(quoted.line):\n\(output)")
    }

    @Test func valuesSentToTheActorArriveThere() async throws {
        let run = await Self.run.value
        let cover = try Self.span("album adds coffee", in: run)
        let renamed = try Self.span("task renames the draft", in: run)
        let draft = try Self.span("album adds chelsea", in: run)
        let published = try Self.span("album adds astronaut", in: run)
        #expect(draft.start >= (renamed.end ?? .max), "the album got the draft's new name, after the task renamed it")
        #expect([cover, draft, published].allSatisfy { $0.queue == Self.globalPool }, "an actor's jobs run on the global pool")
        #expect(run.outputText.contains { $0.hasPrefix("The album holds 3 thumbnails, coffee, chelsea, astronaut, ") })
    }

    // MARK: - The main actor

    @Test func mainActorCodeRunsOnTheMainQueueOnAPoolThread() async throws {
        let run = await Self.run.value
        for name in ["show 3 captions, 3 columns", "GalleryScreen.refresh (inferred @MainActor)", "show decoded thumbnails"] {
            let span = try Self.span(name, in: run)
            #expect(span.queue == Self.mainQueue, "\(name) ran on \(span.queue)")
            #expect(!run.isMainThread(span.thread), "\(name) ran on the main thread")
        }
        let caption = try Self.span("GalleryScreen.caption (nonisolated)", in: run)
        #expect(caption.queue == Self.globalPool, "the nonisolated method ran on \(caption.queue)")
    }

    @Test func assumeIsolatedOnAGlobalQueueStopsThePage() async throws {
        let run = await Self.assumedOffMain.value
        #expect(run.ending == .dispatchTrap, "\(String(describing: run.ending))")
        #expect(run.endedAsExpected, "the page announced the crash")
        #expect(!run.spans.contains { $0.name.hasPrefix("show ") && $0.name.contains(" captions") }, "the main-actor function never ran")
        #expect(try Self.span("save album", in: run).end != nil)
    }

    // MARK: - Where a nonisolated async function runs

    @Test func aPlainAsyncFunctionLeavesTheMainActorInSwift6Mode() async throws {
        let run = await Self.run.value
        #expect(try Self.span("plain async", in: run).queue == Self.globalPool)
        #expect(try Self.span("nonisolated(nonsending)", in: run).queue == Self.mainQueue)
        #expect(try Self.span("@concurrent", in: run).queue == Self.globalPool)
        #expect(run.outputText.contains("From the main actor, a plain async function ran on \(Self.globalPool)"))
        #expect(run.outputText.contains("nonisolated(nonsending) ran on \(Self.mainQueue)"))
        #expect(run.outputText.contains("@concurrent ran on \(Self.globalPool)"))
    }

    /// The frames the main actor drew while `decode` ran, and those before and after it.
    static func frames(around decode: Span, in run: RunRecord) throws -> (before: Int, during: Int, after: Int) {
        let end = try #require(decode.end, "the decode never ended")
        let frames = run.marks.filter { $0.name == "frame" }
        #expect(frames.allSatisfy { $0.queue == mainQueue }, "every frame is drawn on the main actor")
        return (frames.filter { $0.time < decode.start }.count, frames.filter { $0.time > decode.start && $0.time < end }.count,
                frames.filter { $0.time > end }.count)
    }

    @Test func aNonsendingDecodeHoldsTheMainActorAndNoFrameIsDrawn() async throws {
        let run = await Self.run.value
        let decode = try Self.span("decode (nonisolated(nonsending))", in: run)
        #expect(decode.queue == Self.mainQueue)
        let frames = try Self.frames(around: decode, in: run)
        #expect(frames.before >= 1 && frames.during == 0, "\(frames)")
        #expect(run.spans(named: "decode (@concurrent)").isEmpty)
    }

    @Test func aConcurrentDecodeRunsOnThePoolWhileTheFramesGoOn() async throws {
        let run = await Self.concurrentDecode.value
        #expect(run.ending == .exited(code: 0))
        let decode = try Self.span("decode (@concurrent)", in: run)
        #expect(decode.queue == Self.globalPool)
        let frames = try Self.frames(around: decode, in: run)
        #expect(frames.during >= 1, "\(frames)")
        let show = try Self.span("show decoded thumbnails", in: run)
        #expect(show.queue == Self.mainQueue && show.start >= (decode.end ?? .max), "MainActor.run brought the result back")
    }
}
