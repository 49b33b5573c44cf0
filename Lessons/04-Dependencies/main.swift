/*:
 # Dependencies

 Single operations are useful; operations that wait for each other are where the model pays off. An operation can *depend* on others: the queue will not start it until every one of them has finished. Small operations, each doing one thing, then combine into a workflow, and the queue works out the order and runs whatever is free at the same time.

 This page chains a download, a filter and a display; passes data along the chain; builds a graph across two queues; and looks at what cancellation and cycles do to it.

 - example: A real pipeline might read a name from a database, download the image, decode it, apply two filters and show the result: six operations, each small enough to test on its own.

 - speaker: Say: a dependency is a one-way "not before": the dependent starts only once the other has finished. Point at the chain stepping across the lanes: each span starts as the one before ends, on whatever thread is free. Usual question: "is that a serial queue?" No: the order comes from the dependencies, the queue stays concurrent for anything else.
 */
import Foundation
import LessonKit

enum ShortLink: String, CaseIterable {
    case operations, dispatch, broken

    var url: URL {
        switch self {
        case .operations: URL(string: "https://short.example/ops")!
        case .dispatch: URL(string: "https://short.example/gcd")!
        case .broken: URL(string: "https://short.example/nope")!
        }
    }
}

let checkDependencies = knob("checkDependencies", default: true, "filters and displays look for a cancelled dependency before working")
let shortLink = knob("shortLink", default: ShortLink.operations, "the short link the typed chain expands; broken leads nowhere")
let makeCycle = knob("makeCycle", default: false, "two operations that depend on each other")

/*:
 ## Passing data along a dependency

 The chain is load → tilt-shift → show. The loader is the asynchronous operation of the previous page (`AsyncOperation.swift` beside this page); it downloads a photo over a pretend network in half a second at 1× (the page prints how long that is at the run's speed).

 A dependency says *when* an operation may start, not *what* it receives. The data has to travel another way: when the filter starts, its dependencies have finished, so it can look among them for one that has an image. Rather than knowing the loader's class, it asks for anything that conforms to a small protocol, `ImageProvider`. Any operation that has an image to hand on can conform, and the filter works after any of them.

 The operations keep their images in plain `var`s and, like those of page 3, restate `@unchecked Sendable`: the compiler cannot check them, so the page promises that no two threads touch a property unordered. It keeps that promise by one rule. An operation writes its image before it finishes, and only operations that start after it has finished read it (or the page, after a queue's wait). Foundation learns of the finish, releases the dependents and ends the wait under its own locks, and what a thread wrote before it released a lock is visible to whoever takes it after.
 */
protocol ImageProvider: Operation {
    var providedImage: RGBImage? { get }
}

extension Operation {
    /// The first image among this operation's finished dependencies.
    var imageFromDependencies: RGBImage? {
        dependencies.lazy.compactMap { ($0 as? ImageProvider)?.providedImage }.first
    }

    /// A dependency that was cancelled, if any: its dependents still run, so they have to look.
    var cancelledDependency: Operation? {
        dependencies.first { $0.isCancelled }
    }
}

/// Downloads a photo: returns at once from `main()`, and finishes when the pretend network answers.
final class ImageLoadOperation: AsyncOperation, ImageProvider, @unchecked Sendable {
    let photoName: String
    private(set) var providedImage: RGBImage?

    init(photoName: String) {
        self.photoName = photoName
        super.init()
        name = "load \(photoName)"
    }

    override func main() {
        DispatchQueue.global().async {
            Simulated.networkLoad(self.photoName, seconds: 0.5)
            self.providedImage = try? Photos.load(self.photoName)
            self.finish()
        }
    }
}

/// Applies `filter` to the image of its first image-providing dependency, and provides the result in turn.
final class FilterOperation: ObservedOperation, ImageProvider, @unchecked Sendable {
    let filter: @Sendable (RGBImage) -> RGBImage
    private(set) var providedImage: RGBImage?

    init(_ name: String, filter: @escaping @Sendable (RGBImage) -> RGBImage) {
        self.filter = filter
        super.init()
        self.name = name
    }

    override func main() {
        let title = name ?? "filter"
        if checkDependencies, let cancelled = cancelledDependency {
            print("\(title): skipped, \(cancelled.name ?? "a dependency") was cancelled")
            cancel()
            return
        }
        guard let input = imageFromDependencies else {
            print("\(title): no image to filter")
            return
        }
        providedImage = trace("filtering for \(title)") { filter(input) }
    }
}

/// How much fine detail a row of pixels has: the average difference between neighbouring samples.
/// A blur lowers it, so it shows where a filter has been at work.
func detail(of image: RGBImage, row: Int) -> Double {
    let start = row * image.width * 3
    let samples = image.pixels[start..<start + image.width * 3]
    let steps = zip(samples, samples.dropFirst(3)).map { abs(Int($0) - Int($1)) }
    return Double(steps.reduce(0, +)) / Double(max(steps.count, 1))
}

func oneDecimal(_ value: Double) -> String {
    String(format: "%.1f", value)
}

/// Stands for putting the image on screen: reports its size and how sharp its top and middle rows are.
final class ShowImageOperation: ObservedOperation, @unchecked Sendable {
    override func main() {
        let title = name ?? "show"
        if checkDependencies, let cancelled = cancelledDependency {
            print("\(title): skipped, \(cancelled.name ?? "a dependency") was cancelled")
            cancel()
            return
        }
        guard let image = imageFromDependencies else {
            print("\(title): nothing to show")
            return
        }
        let top = detail(of: image, row: 0), middle = detail(of: image, row: image.height / 2)
        print("\(title): \(image.width)×\(image.height), detail \(oneDecimal(top)) on the top row, \(oneDecimal(middle)) across the middle")
    }
}

/*:
 `addDependency` wires the chain. Note the direction: the *dependent* is told what it waits for.
 */
let coffeeLoad = ImageLoadOperation(photoName: "coffee")
let coffeeFilter = FilterOperation("tilt-shift coffee", filter: tiltShift)
let coffeeShow = ShowImageOperation(name: "show coffee")
coffeeFilter.addDependency(coffeeLoad)
coffeeShow.addDependency(coffeeFilter)

let imageQueue = OperationQueue()
imageQueue.name = "images"
print("Each photo downloads in \(Simulated.describe(0.5)); the chain takes that and its filter")
//: They go to the queue in any order; the dependencies decide the order they run in.
imageQueue.addOperations([coffeeShow, coffeeFilter, coffeeLoad], waitUntilFinished: false)
duration {
    trace("waitUntilAllOperationsAreFinished") {
        imageQueue.waitUntilAllOperationsAreFinished()
    }
}

/*:
 The tilt-shift blurs the top and bottom of the photo and leaves the middle sharp; the comparison further down measures that against the photo as it was downloaded.

 ## A custom operator

 Spelling out `addDependency` for every link hides the shape of a long chain. A custom operator can show it: `load |> filter |> show` reads in the order things happen.

 - important: Heed the usual warnings about custom operators. A reader meeting `|>` has to find out what it means here, and in F# or Elixir the same symbol means something else. It earns its place only in code that builds chains all day; elsewhere, prefer the method.
 */
precedencegroup DependencyChaining {
    associativity: left
}

infix operator |>: DependencyChaining

/// Makes `dependent` wait for `dependency`, and returns `dependent` so that chains read left to right.
@discardableResult
func |> <Dependent: Operation>(dependency: Operation, dependent: Dependent) -> Dependent {
    dependent.addDependency(dependency)
    return dependent
}

/*:
 ## Across two queues

 A dependency may cross queues. Here downloads go to a `network` queue that allows three at once (waiting costs no CPU), while filters go to a `filters` queue as wide as the cores this process may use, read when the page runs (filtering is all CPU). It counts them as page 2 taught, from the affinity mask (`sched_getaffinity`, LessonKit's `usableCores()`), not with `ProcessInfo.activeProcessorCount`, which ignores the mask. The filter on one queue still waits for the download on the other.

 This time the page hands the two operations over with `addOperations(_:waitUntilFinished: true)`, which adds them and then waits for exactly those (swift-corelibs-foundation calls `waitUntilFinished()` on each in turn). The download is not one of them, but they cannot finish before it.

 - speaker: Point at the span on the second queue's colour starting right after the one it depends on ended, on the other queue. Say: dependencies work across queues, so work can run where it belongs (a network queue, a processing queue) and still keep its order.
 */
let networkQueue = OperationQueue()
networkQueue.name = "network"
networkQueue.maxConcurrentOperationCount = 3
announceWidth(of: networkQueue)
let filterQueue = OperationQueue()
filterQueue.name = "filters"
filterQueue.maxConcurrentOperationCount = usableCores()
announceWidth(of: filterQueue)
print("The filters queue runs up to \(filterQueue.maxConcurrentOperationCount) at once, one per core this process may use")

let rocketLoad = ImageLoadOperation(photoName: "rocket")
let rocketFilter = FilterOperation("tilt-shift rocket", filter: tiltShift)
let rocketShow = ShowImageOperation(name: "show rocket")
rocketLoad |> rocketFilter |> rocketShow
networkQueue.addOperation(rocketLoad)
trace("addOperations waitUntilFinished") {
    filterQueue.addOperations([rocketFilter, rocketShow], waitUntilFinished: true)
}

/*:
 ## A graph, not only a chain

 An operation may have many dependents (fan-out) and many dependencies (fan-in). One download feeds two filters, which run side by side once it lands (on a machine with two processors or more, as the filters queue then allows); a comparison waits for both, and for the download, to measure the filtered photos against it. You declare only who needs whom; the queues find the order and the parallelism.
 */
/// Compares the images of all its image-providing dependencies, row by row.
final class CompareOperation: ObservedOperation, @unchecked Sendable {
    override func main() {
        for case let provider as ImageProvider in dependencies {
            guard let image = provider.providedImage else { continue }
            let top = detail(of: image, row: 0), middle = detail(of: image, row: image.height / 2)
            print("compare: \(provider.name ?? "?") has detail \(oneDecimal(top)) on the top row, \(oneDecimal(middle)) across the middle")
        }
    }
}

let chelseaLoad = ImageLoadOperation(photoName: "chelsea")
let chelseaTiltShift = FilterOperation("tilt-shift chelsea", filter: tiltShift)
let chelseaBlur = FilterOperation("blur chelsea", filter: { gaussianBlur($0, sigma: 4) })
let comparison = CompareOperation(name: "compare chelsea")
chelseaLoad |> comparison
chelseaLoad |> chelseaTiltShift |> comparison
chelseaLoad |> chelseaBlur |> comparison
networkQueue.addOperation(chelseaLoad)
filterQueue.addOperations([chelseaTiltShift, chelseaBlur, comparison], waitUntilFinished: false)
trace("waitUntilAllOperationsAreFinished") {
    filterQueue.waitUntilAllOperationsAreFinished()
}

/*:
 The tilt-shift leaves the middle row exactly as downloaded and softens the top; the plain Gaussian blur softens every row.

 ## A cancelled dependency does not stop its dependents

 Cancelling an operation does not cancel the operations that depend on it: once it finishes (and a cancelled operation finishes quickly), they become ready and run like any other. swift-corelibs-foundation releases a cancelled operation's dependents as it does a finished one's, and the talk this tutorial follows shows the same on Apple platforms. If a dependent should not run without its input, its `main()` has to check.

 The retina download below is cancelled before it is queued. With `checkDependencies` on, the filter and the display each find a cancelled dependency, cancel themselves and return; the display then finds the *filter* cancelled, so the cancellation travels down the chain.

 - experiment: Set `checkDependencies` to false. The filter and the display still run, but there is nothing to work on: the filter reports no image and the display shows nothing.

 - speaker: Say: cancelling an operation does not cancel what depends on it; the dependents run, and find nothing to work on. Usual question: "why doesn't it propagate?" A dependency means "after", not "because of": each operation has to check its input, and the `checkDependencies` knob shows what happens when one does not.
 */
let retinaLoad = ImageLoadOperation(photoName: "retina")
let retinaFilter = FilterOperation("tilt-shift retina", filter: tiltShift)
let retinaShow = ShowImageOperation(name: "show retina")
retinaLoad |> retinaFilter |> retinaShow
retinaLoad.cancel()
networkQueue.addOperation(retinaLoad)
filterQueue.addOperations([retinaFilter, retinaShow], waitUntilFinished: false)
trace("waitUntilAllOperationsAreFinished") {
    filterQueue.waitUntilAllOperationsAreFinished()
}

/*:
 ## Typed input and output

 `ImageProvider` hands on one kind of thing. The same idea works for any types: a *chained* operation has an `Input` and an `Output`. The first link gets its input when it is made; every later link, when it starts, takes its input from the output of the link before it. Each link finishes with a `Result`, so a failure is a typed error, not a missing value.

 The chain below turns a short link into the address it stands for, then fetches that page and reads its title, both over a pretend web (`SimulatedWeb.swift`).

 - experiment: Set `shortLink` to `broken`. The shortener does not know it, the first link fails with a typed error, and the second finds no input to work on.
 */
enum LinkError: Error, CustomStringConvertible {
    case noInput
    case unknownShortLink(URL)
    case pageNotFound(URL)
    case noTitle(URL)

    var description: String {
        switch self {
        case .noInput: "nothing to work on: the link before it failed"
        case .unknownShortLink(let url): "the shortener does not know \(url.absoluteString)"
        case .pageNotFound(let url): "no page at \(url.absoluteString)"
        case .noTitle(let url): "the page at \(url.absoluteString) has no title"
        }
    }
}

/// Anything that can hand its output to the link after it, whatever the output's type.
protocol OutputProvider {
    var providedOutput: Any? { get }
}

/// A link in a chain: takes an `Input`, produces an `Output` asynchronously, and finishes with a `Result`.
class ChainedOperation<Input: Sendable, Output: Sendable>: AsyncOperation, OutputProvider, @unchecked Sendable {
    private(set) var input: Input?
    private(set) var result: Result<Output, LinkError>?

    init(input: Input? = nil) {
        self.input = input
        super.init()
    }

    var providedOutput: Any? { try? result?.get() }

    override func start() {
        // The dependencies have finished by now, so the previous link's output is there to take.
        if input == nil {
            input = dependencies.lazy.compactMap { ($0 as? OutputProvider)?.providedOutput as? Input }.first
        }
        super.start()
    }

    override func main() {
        guard let input else {
            finish(with: .failure(.noInput))
            return
        }
        produce(from: input) { result in
            self.finish(with: result)
        }
    }

    /// The link's own work: turn `input` into an output and report it through `completion`, from any thread.
    func produce(from input: Input, completion: @escaping @Sendable (Result<Output, LinkError>) -> Void) {
        preconditionFailure("\(type(of: self)) must override produce(from:completion:)")
    }

    func finish(with result: Result<Output, LinkError>) {
        self.result = result
        switch result {
        case .success(let output): print("\(name ?? "link"): \(output)")
        case .failure(let error): print("\(name ?? "link") failed: \(error)")
        }
        finish()
    }
}

final class ExpandShortLinkOperation: ChainedOperation<URL, URL>, @unchecked Sendable {
    override func produce(from shortLink: URL, completion: @escaping @Sendable (Result<URL, LinkError>) -> Void) {
        SimulatedWeb.expand(shortLink) { address in
            completion(address.map { .success($0) } ?? .failure(.unknownShortLink(shortLink)))
        }
    }
}

final class FetchTitleOperation: ChainedOperation<URL, String>, @unchecked Sendable {
    override func produce(from address: URL, completion: @escaping @Sendable (Result<String, LinkError>) -> Void) {
        SimulatedWeb.fetchPage(address) { html in
            guard let html else { return completion(.failure(.pageNotFound(address))) }
            guard let open = html.range(of: "<title>"), let close = html.range(of: "</title>", range: open.upperBound..<html.endIndex) else {
                return completion(.failure(.noTitle(address)))
            }
            completion(.success(String(html[open.upperBound..<close.lowerBound])))
        }
    }
}

let expand = ExpandShortLinkOperation(input: shortLink.url)
expand.name = "expand \(shortLink.url.absoluteString)"
let fetchTitle = FetchTitleOperation()
fetchTitle.name = "fetch title"
expand |> fetchTitle
networkQueue.addOperations([expand, fetchTitle], waitUntilFinished: false)
trace("waitUntilAllOperationsAreFinished") {
    networkQueue.waitUntilAllOperationsAreFinished()
}
if case .success(let title)? = fetchTitle.result {
    peek(title)
}

/*:
 ## A cycle never runs

 Dependencies must not go round in a circle. If `compress` waits for `upload` and `upload` waits for `compress`, neither can ever become ready: nothing fails, nothing runs, and anything waiting for them waits forever. Foundation does not look for cycles: swift-corelibs-foundation has no check, and Apple's documentation calls a cycle a programmer error that can freeze the program.

 - experiment: Set `makeCycle` to true. The page hangs in `waitUntilAllOperationsAreFinished`; after a few silent seconds the tutorial stops it, and because the operations reported their dependencies, it names the cycle.

 - deep dive: Making an operation depend on *itself* goes wrong even sooner in swift-corelibs-foundation (Swift 6.3.1): `addDependency` locks the dependency and then the operation, each with its own `NSLock`. When the two are one object, that is the same lock taken twice by one thread, and an `NSLock` is not recursive: the calling thread hangs inside Foundation before the operation reaches a queue.

 - speaker: Demo: set `makeCycle` to true. Nothing runs and nothing is printed: two operations wait for each other, and `waitUntilAllOperationsAreFinished` waits forever until the tutorial's watchdog stops the page. Usual question: "does Foundation detect cycles?" No, not on Apple platforms and not on Linux.
 */
if makeCycle {
    expectEnding(.stuck, because: "compress and upload each wait for the other, so neither can ever start")
    let compress = ObservedOperation(name: "compress")
    let upload = ObservedOperation(name: "upload")
    compress.addDependency(upload)
    upload.addDependency(compress)
    let cycleQueue = OperationQueue()
    cycleQueue.name = "cycle"
    cycleQueue.addOperations([compress, upload], waitUntilFinished: false)
    trace("waitUntilAllOperationsAreFinished") {
        cycleQueue.waitUntilAllOperationsAreFinished()
    }
}

/*:
 Next, all of this at once, in a list of images that loads as you scroll: [In Practice](@next)

 Back: [Async](@previous)
 */
print("Done: every chain ran in dependency order, and no operation waited for nothing.")
