import Foundation
import Testing
import TourCore
import TourTestSupport

/// Page 11's compile-time lesson in the real `tour`: a scripted editor turns `actor Person` into `class Person` in a
/// `ScratchPackage`, and the interface shows Swift 6's data-race diagnostic on the line that shares the person
/// between tasks. The checkout's page is never touched.
extension TourInTmuxTests {
    @Test("Removing `actor` from page 11's Person: the compiler's non-Sendable error appears under the line that uses it in a task",
          .enabled(if: Tmux.isAvailable, "tmux is not installed; .ci/run installs it"))
    func actorRemovedShowsTheDataRaceError() async throws {
        // The message's start: the pane wraps the rest of it onto the next row.
        let message = "error: non-Sendable type 'Person' of let 'person' cannot exit main"
        try await afterEditing(page: 11, folder: "11-Actors", title: "Actors", with: "s/^actor Person {/class Person {/",
                               showing: message) { screen, lines in
            #expect(lines.contains("class Person {"), "the scripted edit did not land")
            let useLine = try #require(lines.firstIndex { $0.contains("await person.changeName(firstName: first, lastName: last)") }) + 1
            try Self.expectMessage(message, under: useLine, showing: "person.changeName(firstName: first", in: screen)
        }
    }
}
