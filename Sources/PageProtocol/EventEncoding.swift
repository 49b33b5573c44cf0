extension PageEvent {
    /// The event as one line of the trace channel, newline included, fields in the order
    /// `docs/trace-format.md` gives.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        queue.withCString { label in
            kind.withEncodedLine(time: time, thread: thread, queue: label) { bytes = Array($0) }
        }
        return bytes
    }
}

extension EventKind {
    /// Encodes an event of this kind straight from what a page has at hand, `queue` as libdispatch's C label,
    /// and hands `body` the line: the page's path, which builds no `PageEvent` and, for a typical event,
    /// allocates nothing (the line is built on the stack).
    /// Not generic, so the page's call needs no specialisation across the module boundary.
    public func withEncodedLine(time: UInt64, thread: Int32, queue: UnsafePointer<CChar>,
                                _ body: (UnsafeRawBufferPointer) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: EventLine.typicalSize) { scratch in
            var line = if let lineStart {
                EventLine(lineStart: lineStart, time: time, thread: thread, queue: queue, scratch: scratch)
            } else {
                EventLine(kindName: wireName, time: time, thread: thread, queue: queue, scratch: scratch)
            }
            addFields(to: &line)
            line.withFinishedBytes(body)
        }
    }

    /// How a line of this kind starts, up to its time: the kind's name is a constant, so it goes in with the
    /// punctuation around it in one copy. Nil for an unknown kind, whose name may need escaping.
    private var lineStart: StaticString? {
        switch self {
        case .hello: #"{"e":"hello","t":"#
        case .begin: #"{"e":"begin","t":"#
        case .end: #"{"e":"end","t":"#
        case .mark: #"{"e":"mark","t":"#
        case .out: #"{"e":"out","t":"#
        case .result: #"{"e":"result","t":"#
        case .knob: #"{"e":"knob","t":"#
        case .op: #"{"e":"op","t":"#
        case .dep: #"{"e":"dep","t":"#
        case .expect: #"{"e":"expect","t":"#
        case .crash: Self.crashLineStart
        case .frame: #"{"e":"frame","t":"#
        case .rows: #"{"e":"rows","t":"#
        case .row: #"{"e":"row","t":"#
        case .detail: #"{"e":"detail","t":"#
        case .input: #"{"e":"input","t":"#
        case .task: #"{"e":"task","t":"#
        case .queue: #"{"e":"queue","t":"#
        case .phase: #"{"e":"phase","t":"#
        case .unknown: nil
        }
    }

    /// Writes this kind's own fields after the line's header.
    private func addFields(to line: inout EventLine) {
        switch self {
        case .hello(let version, let page, let pid, let speed):
            line.add("v", version)
            line.add("page", page)
            line.add("pid", Int(pid))
            line.add("speed", speed)
        case .begin(let id, let name, let task):
            line.add("id", id)
            line.add("name", name)
            if let task { line.add("task", task) }
        case .end(let id, let name, let cpu):
            line.add("id", id)
            line.add("name", name)
            if let cpu { line.add("cpu", cpu) }
        case .mark(let name):
            line.add("name", name)
        case .out(let text):
            line.add("text", text)
        case .result(let file, let number, let kind, let text, let seconds):
            line.add("file", file)
            line.add("line", number)
            line.add("kind", kind.rawValue)
            line.add("text", text)
            if let seconds { line.add("seconds", seconds) }
        case .knob(let knob):
            line.add("name", knob.name)
            line.add("type", knob.type.rawValue)
            line.add("value", knob.value)
            line.add("default", knob.defaultValue)
            if let minimum = knob.minimum { line.add("min", minimum) }
            if let maximum = knob.maximum { line.add("max", maximum) }
            if !knob.choices.isEmpty { line.add("choices", knob.choices.joined(separator: ",")) }
            if !knob.help.isEmpty { line.add("help", knob.help) }
        case .op(let operation, let oid, let state):
            line.add("op", operation)
            line.add("oid", oid)
            line.add("state", state.rawValue)
        case .dep(let operation, let oid, let dependency, let onid):
            line.add("op", operation)
            line.add("oid", oid)
            line.add("on", dependency)
            line.add("onid", onid)
        case .expect(let ending, let why):
            line.add("ending", ending.rawValue)
            line.add("why", why)
        case .crash(let signal, let image, let inProgram, let pc, let address, let stackOverflow):
            // The page's crash handler writes this line itself (`crashLineStart`); this is for tests and tools.
            line.add("signal", Int(signal))
            line.add("image", image)
            line.add("program", inProgram)
            line.add("pc", address: pc)
            line.add("addr", address: address)
            line.add("stackOverflow", stackOverflow)
        case .frame(let picture):
            line.add(picture)
        case .rows(let count):
            line.add("count", count)
        case .row(let index, let caption, let picture, let parts):
            line.add("index", index)
            line.add("caption", caption)
            if let parts { line.add("parts", parts) }
            if let picture { line.add(picture) }
        case .detail(let index, let part, let caption, let picture):
            line.add("index", index)
            line.add("part", part)
            line.add("caption", caption)
            line.add(picture)
        case .input(let commands):
            line.add("commands", commands.rawValue)
        case .task(let number, let parent, let name, let kind, let phase):
            line.add("task", number)
            if let parent { line.add("parent", parent) }
            line.add("name", name)
            line.add("kind", kind.rawValue)
            line.add("phase", phase.rawValue)
        case .queue(let name, let width):
            line.add("name", name)
            line.add("width", width)
        case .phase(let name, let phase):
            line.add("name", name)
            line.add("phase", phase.rawValue)
        case .unknown:
            break
        }
    }
}

extension EventKind {
    /// How a `crash` line starts. LessonKit's crash handler writes the line byte by byte into memory set aside
    /// beforehand, since a signal handler may not allocate; this keeps its kind in the one place kinds are named.
    public static let crashLineStart: StaticString = #"{"e":"crash","t":"#
}

extension EventLine {
    /// A picture's fields, each left out when the picture has none.
    fileprivate mutating func add(_ picture: PagePicture) {
        if let width = picture.width { add("w", width) }
        if let height = picture.height { add("h", height) }
        if let base64 = picture.base64 { add("px", base64) }
    }

    /// An address as the crash handler writes it: unsigned, all 64 bits.
    fileprivate mutating func add(_ key: StaticString, address: UInt64) {
        // Above `Int.max` the reader takes it for a number, not an integer; it reads both.
        if let value = Int(exactly: address) {
            add(key, value)
        } else {
            add(key, Double(address))
        }
    }
}
