import Foundation
import Testing
import TourCore
import PageProtocol
@testable import TourInterface
import TourTestSupport

/// The live view inside the interface: where its pane goes, what it draws, and which keys reach the running page.
@Suite("Live view in the interface", .bodiesBelowTheRunner)
struct LiveViewInterfaceTests {
    static let red: [UInt8] = [255, 0, 0]
    static let blue: [UInt8] = [0, 0, 255]

    /// The gallery page (the third fixture page), current.
    private func galleryModel(width: Int = 120, height: Int = 40) throws -> TourModel {
        var model = try FixturePages.model(width: width, height: height, withGallery: true)
        model.press(.character("n"), .character("n"))
        #expect(model.currentPage.page.title == "Gallery")
        return model
    }

    /// A gallery run that has drawn two rows and, when `takesKeys`, said it reads scroll commands.
    private func running(_ model: inout TourModel, takesKeys: Bool) throws -> Int {
        var script = RunScript()
        script.rows([("0 red: loaded", Self.red), ("1 blue: placeholder", nil)], at: 10)
        if takesKeys { script.acceptScrollCommands(at: 11) }
        let runID = model.run(script)
        return try #require(runID)
    }

    @Test("On stage, at 120×40 and 80×24, a page that draws shows its live view beside the prose while it runs, with no key taught")
    func liveViewOnStage() throws {
        for size in [Size(width: 120, height: 40), Size(width: 80, height: 24)] {
            var model = try galleryModel(width: size.width, height: size.height)
            model.press(.character("P"))
            #expect(PresenterLayout(size: model.size, model: model).live == nil, "no run yet: the prose takes the width")
            _ = try running(&model, takesKeys: true)
            let layout = PresenterLayout(size: model.size, model: model)
            let live = try #require(layout.live, "\(size.width)×\(size.height)")
            #expect(layout.prose.maxX <= live.x, "the live view covers no prose")
            #expect([layout.output, layout.timeline].compactMap { $0 }.allSatisfy { $0.y >= live.maxY }, "nor the run's panes")
            let screen = TourRenderer.render(model)
            #expect(screen.find("0 red: loaded", in: live.inside) != nil, "\(size.width)×\(size.height)")
            #expect(screen.find("Tab here", in: live) == nil && screen.find("Enter lets go", in: live) == nil)
        }
    }

    @Test("A page that draws gets a live view pane beside its page pane; other pages keep the whole width")
    func layout() throws {
        var model = try galleryModel()
        let page = try #require(model.layout.panes[.page])
        let live = try #require(model.layout.panes[.live])
        #expect(page.maxX == live.x && page.y == live.y && page.height == live.height)
        #expect(live.maxX == 120)
        #expect(page.width > live.width, "the prose keeps the larger share")
        model.press(.character("p"))
        #expect(model.layout.panes[.live] == nil)
        #expect(model.layout.panes[.page]?.maxX == 120)
    }

    @Test("In the compact layout the live view shares the page's row too, and the tabs below stay as they were")
    func compactLayout() throws {
        let model = try galleryModel(width: 80, height: 24)
        let page = try #require(model.layout.panes[.page])
        let live = try #require(model.layout.panes[.live])
        #expect(page.maxX == live.x && page.y == live.y && page.height == live.height && live.maxX == 80)
        #expect(model.layout.panes[.output] != nil)
        let screen = TourRenderer.render(model)
        #expect(screen.text(ofRow: live.y).contains("Live view"))
    }

    @Test("Before a run the pane says what will appear; during it the rows are drawn in half blocks of their colours")
    func drawing() throws {
        var model = try galleryModel()
        let box = try #require(model.layout.panes[.live])
        #expect(TourRenderer.render(model).find("appears here", in: box) != nil)

        _ = try running(&model, takesKeys: false)
        let screen = TourRenderer.render(model)
        let inner = box.inside
        let caption = try #require(screen.find("0 red: loaded", in: inner))
        #expect(screen.find("1 blue: placeholder", in: inner) != nil)
        let placeholderRow = try #require(screen.find("1 blue", in: inner)).y
        // The first row's thumbnail, left of its caption, is in half blocks of the nearest xterm red, index 196.
        let firstRow = (caption.y..<placeholderRow).flatMap { y in (inner.x..<caption.x).map { screen[$0, y] } }
        let pictureCells = firstRow.filter { $0.character == HalfBlockRenderer.upperHalf }
        #expect(pictureCells.count >= 4)
        #expect(pictureCells.allSatisfy { $0.style.pictureForeground == 196 && $0.style.pictureBackground == 196 })
        #expect(firstRow.allSatisfy { $0.character == HalfBlockRenderer.upperHalf || $0 == .blank })
        // The second row has no picture yet: a grey placeholder.
        #expect(screen[inner.x, placeholderRow].character == LivePaneRenderer.placeholder)
    }

    @Test("Scroll keys and the wheel in the live view become commands for the run, once the page said it reads them")
    func keysBecomeCommands() throws {
        var model = try galleryModel()
        let runID = try running(&model, takesKeys: true)
        #expect(model.focus == .live, "running a page that draws focuses its live view")
        #expect(model.update(.key(.down)) == [.send(runID: runID, command: "scroll +1")])
        #expect(model.update(.key(.character("k"))) == [.send(runID: runID, command: "scroll -1")])
        #expect(model.update(.key(.pageDown)) == [.send(runID: runID, command: "scroll +4")])
        #expect(model.update(.key(.pageUp)) == [.send(runID: runID, command: "scroll -4")])
        let box = try #require(model.layout.panes[.live])
        #expect(model.update(.mouse(MouseEvent(.wheelDown, x: box.x + 2, y: box.y + 2))) == [.send(runID: runID, command: "scroll +1")])
        #expect(model.update(.key(.enter)) == [.closeInput(runID: runID)])
        #expect(model.notice?.contains("let go") == true)
        #expect(TourRenderer.render(model).text(ofRow: box.maxY - 1).contains("Enter lets go"))
    }

    @Test("A run that never said it reads commands, or has ended, gets no commands, and the learner is told why")
    func keysWithoutARunThatListens() throws {
        var model = try galleryModel()
        let runID = try running(&model, takesKeys: false)
        #expect(model.update(.key(.down)).isEmpty)
        #expect(model.notice?.contains("does not take keys") == true)
        _ = model.update(.host(runID: runID, .ended(.exited(code: 0), time: RunScript.time(20))))
        #expect(model.update(.key(.down)).isEmpty)
        #expect(model.notice?.contains("r runs the page") == true)
    }

    @Test("Tab reaches the live view only on pages that draw; leaving such a page gives the focus back to the page")
    func focus() throws {
        var model = try galleryModel()
        var visited: [Pane] = []
        for _ in Pane.allCases {
            model.press(.tab)
            visited.append(model.focus)
        }
        #expect(visited.contains(.live))
        model.press(.character("r"))
        #expect(model.focus == .live)
        model.press(.character("s"), .character("p"))
        #expect(model.focus == .page)
        for _ in Pane.allCases {
            model.press(.tab)
            #expect(model.focus != .live)
        }
    }

    @Test("A frame replaced before the screen drew it counts as dropped; one the screen drew does not")
    func dropping() throws {
        var model = try galleryModel()
        let runID = try running(&model, takesKeys: false)
        func frame(_ color: [UInt8], at milliseconds: Double) -> TourEvent {
            return .host(runID: runID, .trace(PageEvent(time: RunScript.time(milliseconds), thread: RunScript.worker, queue: "",
                                                        kind: .frame(RunScript.picture(color, width: 2, height: 1)))))
        }
        _ = model.update(frame(Self.red, at: 30))
        _ = model.update(frame(Self.blue, at: 31))
        #expect(model.currentPage.record?.liveView.framesDropped == 1)
        _ = model.update(.drawn)
        _ = model.update(frame(Self.red, at: 32))
        #expect(model.currentPage.record?.liveView.framesDropped == 1)
        #expect(model.currentPage.record?.liveView.framesReceived == 3)
    }

    @Test("A frame is decoded when the screen draws it, once; frames replaced before a draw never are; the drawn cells are the eagerly decoded frame's")
    func decodingOnlyWhenDrawn() async throws {
        var model = try galleryModel()
        let started = model.run(RunScript())
        let runID = try #require(started)
        let box = try #require(model.layout.panes[.live])
        let width = 40, height = 24
        func picture(_ seed: Int) -> PagePicture {
            let pixels = (0..<width * height * 3).map { UInt8(truncatingIfNeeded: ($0 &+ seed) &* 2_654_435_761 >> 9) }
            return PagePicture(width: width, height: height, base64: Data(pixels).base64EncodedString())
        }
        func send(_ picture: PagePicture, at milliseconds: Double) {
            _ = model.update(.host(runID: runID, .trace(PageEvent(time: RunScript.time(milliseconds), thread: RunScript.worker, queue: "",
                                                                   kind: .frame(picture)))))
        }
        for index in 0..<10 { send(picture(index), at: 30 + Double(index)) }
        #expect(model.currentPage.record?.liveView.framesDecoded == 0)
        let screen = TourRenderer.render(model)
        _ = model.update(.drawn)
        #expect(model.currentPage.record?.liveView.framesDecoded == 1, "only the frame drawn was decoded")
        _ = TourRenderer.render(model)
        _ = model.update(.drawn)
        #expect(model.currentPage.record?.liveView.framesDecoded == 1, "a frame drawn again is not decoded again")

        // The pane holds the newest frame, decoded as the state did before it decoded lazily: on its own, at once.
        let frame = try LiveFrame.decode(picture(9)).get()
        let inner = box.inside
        let cells = HalfBlockRenderer.render(frame, width: inner.width, height: inner.height, depth: model.pictureDepth)
        #expect(cells.width > 0 && cells.height > 0)
        let left = (inner.width - cells.width) / 2, top = (inner.height - cells.height) / 2
        for y in 0..<inner.height {
            for x in 0..<inner.width {
                let inPicture = (left..<left + cells.width).contains(x) && (top..<top + cells.height).contains(y)
                let expected = inPicture ? cells[x - left, y - top] : Cell.picture(" ")
                guard screen[inner.x + x, inner.y + y] == expected else {
                    Issue.record("cell (\(x), \(y)) of the pane is \(screen[inner.x + x, inner.y + y]), not \(expected)")
                    return
                }
            }
        }
    }

    @Test("f in the live view shows a row at full size, ↑ ↓ pick the row, f or Esc go back; after the run too")
    func fullSize() throws {
        var model = try galleryModel()
        var script = RunScript()
        script.rows([("0 red: loaded", Self.red), ("1 blue: placeholder", nil)], at: 10)
        script.acceptScrollCommands(at: 11)
        script.detail(row: 0, part: 0, of: 1, caption: "before the filter", color: Self.red, at: 12)
        script.end(.exited(code: 0), at: 20)
        let runID = model.run(script)
        try #require(runID != nil)
        model.focus = .live
        let box = try #require(model.layout.panes[.live])

        #expect(model.update(.key(.character("f"))).isEmpty)
        #expect(model.currentPage.liveFullSizeRow == 0)
        var screen = TourRenderer.render(model)
        let caption = try #require(screen.find("before the filter", in: box.inside))
        let below = screen[caption.x, caption.y + 1]
        #expect(below.character == HalfBlockRenderer.upperHalf && below.style.pictureForeground == 196)
        #expect(screen.find("1 blue", in: box.inside) == nil, "the list gives way to the one row")
        #expect(screen.text(ofRow: box.maxY - 1).contains("f back"))

        // ↓ picks the next row, not a scroll command; past the last row it stays there.
        #expect(model.update(.key(.down)).isEmpty)
        #expect(model.update(.key(.character("j"))).isEmpty)
        #expect(model.currentPage.liveFullSizeRow == 1)
        screen = TourRenderer.render(model)
        #expect(screen.find(LivePaneRenderer.noFullSizeText, in: box.inside) != nil)
        #expect(model.update(.key(.up)).isEmpty)
        #expect(model.currentPage.liveFullSizeRow == 0)

        // Esc goes back to the list, and so does a second f.
        _ = model.update(.key(.escape))
        #expect(model.currentPage.liveFullSizeRow == nil)
        #expect(TourRenderer.render(model).find("1 blue", in: box.inside) != nil)
        _ = model.update(.key(.character("f")))
        _ = model.update(.key(.character("f")))
        #expect(model.currentPage.liveFullSizeRow == nil)
    }

    @Test("f before a run draws anything says what to do, and changes nothing")
    func fullSizeWithoutAList() throws {
        var model = try galleryModel()
        model.focus = .live
        #expect(model.update(.key(.character("f"))).isEmpty)
        #expect(model.currentPage.liveFullSizeRow == nil)
        #expect(model.notice?.contains("r runs the page") == true)
    }
}
