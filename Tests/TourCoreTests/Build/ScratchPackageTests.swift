@preconcurrency import Glibc
import Foundation
import Testing
@testable import TourCore
@testable import RunModel
@testable import PageText
import TourTestSupport

/// A `ScratchPackage` is where tests edit and rebuild pages: its rebuild takes the commands SwiftPM planned, so it is
/// as quick as in the checkout, and it writes only inside the copy.
@Suite("Scratch package", .bodiesBelowTheRunner)
struct ScratchPackageTests {
    @Test("A page edited and rebuilt in the copy runs the edit there; the checkout's page and program stay as they were")
    func anEditStaysInTheCopy() async throws {
        let checkout = try PageCatalog.load()
        let checkoutPage = try #require(checkout.pages.first)
        let checkoutProgram = BuildProducts.executable(named: checkoutPage.product)
        let pageBefore = try Data(contentsOf: checkoutPage.source)
        let programBefore = try FileFacts(checkoutProgram)

        let started = ContinuousClock.now
        let scratch = try await ScratchPackage.make(withTour: false)
        defer { scratch.remove() }
        let copied = ContinuousClock.now
        #expect(!FileManager.default.fileExists(atPath: scratch.tour), "a copy made withTour: false has no tour")
        let page = try #require(try scratch.catalog().pages.first)
        #expect(page.source.path.hasPrefix(scratch.root.path + "/"))
        let text = try String(contentsOf: page.source, encoding: .utf8)
        try #require(text.contains("print(\"Done: "), "page 1 no longer prints \"Done: …\"")
        try text.replacingOccurrences(of: "print(\"Done: ", with: "print(\"Scratch: ")
            .write(to: page.source, atomically: true, encoding: .utf8)

        let builder = scratch.builder()
        // The copy's plan names the copy's files (and its sources keep their times), so the rebuild takes the direct
        // route, not `swift build`; a refusal throws its reason.
        let steps = try builder.directStages(product: page.product, sources: page.listSourceFiles()).flatMap(\.commands)
        // Only the compiler's shared module cache is the checkout's.
        let moduleCache = BuildProducts.directory.appendingPathComponent("ModuleCache").path
        #expect(steps.joined().allSatisfy { !$0.contains(checkout.root.path + "/") || $0 == moduleCache },
                "a planned command still names the checkout: \(steps)")
        let outcome = await builder.build(product: page.product, sources: page.listSourceFiles()).finished()
        let built = ContinuousClock.now
        #expect(outcome.status == .succeeded, "\(outcome.output.joined(separator: "\n"))")
        #expect(outcome.route == .direct)
        print("scratch package: copied in \(copied - started), page 1 rebuilt in \(built - copied)")

        // Both programs run after the rebuild, together; they come after this test's slow work (`.followUp`).
        async let editedRun = recordRun(product: page.product, executable: scratch.executable(named: page.product), speed: 10,
                                        urgency: .followUp)
        async let originalRun = recordRun(product: checkoutPage.product, speed: 10, urgency: .followUp)
        let edited = await editedRun
        #expect(edited.ending == .exited(code: 0))
        #expect(edited.outputText.contains { $0.hasPrefix("Scratch: ") }, "the copy's program runs the edit")
        let original = await originalRun
        #expect(try Data(contentsOf: checkoutPage.source) == pageBefore, "the checkout's page changed")
        #expect(try FileFacts(checkoutProgram) == programBefore, "the checkout's program was rebuilt or written to")
        #expect(original.outputText.contains { $0.hasPrefix("Done: ") })
        #expect(!original.outputText.contains { $0.hasPrefix("Scratch: ") })
    }

    @Test("The copy's tour takes its pages from the copy and its programs from the copy's build folder")
    func theCopyHasItsOwnTour() async throws {
        let scratch = try await ScratchPackage.make()
        defer { scratch.remove() }
        #expect(FileManager.default.isExecutableFile(atPath: scratch.tour))
        #expect(scratch.productsDirectory.path.hasPrefix(scratch.root.path + "/.build/"))
        #expect(scratch.builder().scratchPath == nil, "the copy's products are in the copy's default build folder")
        let catalog = try scratch.catalog()
        #expect(catalog.pages.count == (try PageCatalog.load()).pages.count)
        #expect(catalog.pages.allSatisfy { FileManager.default.isExecutableFile(atPath: scratch.executable(named: $0.product)) })
        // Nothing of the learner's state comes along.
        #expect(!FileManager.default.fileExists(atPath: scratch.root.appendingPathComponent(".tour").path))
    }
}

/// What identifies a file's content and its last write: inode, size, modification time.
private struct FileFacts: Equatable {
    let inode: UInt64
    let size: Int64
    let modified: Int

    init(_ path: String) throws {
        var status = stat()
        guard stat(path, &status) == 0 else { throw CocoaError(.fileNoSuchFile) }
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modified = status.st_mtim.tv_sec * 1_000_000_000 + status.st_mtim.tv_nsec
    }
}

/// Where scratch folders go: a folder of this process's own in memory, and nothing left of test processes that ended.
@Suite("Scratch space", .bodiesBelowTheRunner)
struct ScratchSpaceTests {
    @Test func aFolderOfItsOwnAndNoneOfAnEndedProcess() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("scratch-space-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        // A process that has ended, and been reaped: its pid names no process.
        let ended = try Process.run(URL(fileURLWithPath: "/bin/true"), arguments: [])
        await awaitBlocking { ended.waitUntilExit() }
        let endedFolder = root.appendingPathComponent("\(ScratchSpace.prefix)\(ended.processIdentifier)")
        let livingFolder = root.appendingPathComponent("\(ScratchSpace.prefix)1")
        let otherFolder = root.appendingPathComponent("not-ours")
        for folder in [endedFolder, livingFolder, otherFolder] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("copy"), withIntermediateDirectories: true)
        }

        let folder = try #require(ScratchSpace.inMemory(root: root.path), "\(root.path) is writable and has room")
        #expect(folder.lastPathComponent == "\(ScratchSpace.prefix)\(getpid())")
        #expect(FileManager.default.fileExists(atPath: folder.path))
        #expect(!FileManager.default.fileExists(atPath: endedFolder.path), "an ended test process's copies are removed")
        #expect(FileManager.default.fileExists(atPath: livingFolder.path), "pid 1 lives: its folder stays")
        #expect(FileManager.default.fileExists(atPath: otherFolder.path), "only tour-tests-<pid> folders are looked at")
    }

    @Test func noFolderWhereThereIsNoRoom() {
        #expect(ScratchSpace.inMemory(root: "/no/such/folder") == nil)
        // The proc file system is read-only here, and has no free blocks.
        #expect(ScratchSpace.inMemory(root: "/proc") == nil)
    }
}
