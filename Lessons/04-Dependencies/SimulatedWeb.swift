import Foundation
import LessonKit

/// A tiny pretend web for the link chain: a link shortener and a few pages, answering after a simulated delay.
///
/// No real network is touched; the addresses use the `.example` domains reserved for documentation.
enum SimulatedWeb {
    private static let shortLinks: [URL: URL] = [
        URL(string: "https://short.example/ops")!: URL(string: "https://articles.example/asynchronous-operations")!,
        URL(string: "https://short.example/gcd")!: URL(string: "https://articles.example/grand-central-dispatch")!,
    ]

    private static let pages: [URL: String] = [
        URL(string: "https://articles.example/asynchronous-operations")!:
            "<html><head><title>Asynchronous programming with operations</title></head><body>…</body></html>",
        URL(string: "https://articles.example/grand-central-dispatch")!:
            "<html><head><title>Queues, groups and barriers in Dispatch</title></head><body>…</body></html>",
    ]

    /// Asks the shortener where `shortLink` leads; calls back on another thread with the long address, or nil.
    static func expand(_ shortLink: URL, completion: @escaping @Sendable (URL?) -> Void) {
        DispatchQueue.global().async {
            trace("request \(shortLink.absoluteString)") { Simulated.wait(0.3) }
            completion(shortLinks[shortLink])
        }
    }

    /// Downloads the page at `address`; calls back on another thread with its HTML, or nil.
    static func fetchPage(_ address: URL, completion: @escaping @Sendable (String?) -> Void) {
        DispatchQueue.global().async {
            trace("request \(address.absoluteString)") { Simulated.wait(0.3) }
            completion(pages[address])
        }
    }
}
