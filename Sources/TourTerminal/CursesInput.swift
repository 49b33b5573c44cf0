@preconcurrency import Glibc
import CNcursesw
import Dispatch
import TourInterface

/// What the learner did at the terminal.
enum TerminalInput: Equatable {
    case key(Key)
    case mouse(MouseEvent)
    /// The terminal has a new size (SIGWINCH, or ncurses noticed it).
    case resized
    /// The terminal went away: nobody can see or quit the tutorial any more.
    case hungUp
}

/// Where the loop's input comes from: the terminal (`CursesKeys`), or a test that types.
protocol TerminalInputSource: AnyObject {
    /// Starts reporting input to `deliver`, on `queue`, in the order it came.
    func start(on queue: DispatchQueue, deliver: @escaping @Sendable ([TerminalInput]) -> Void)
    /// Stops reading while another program (the editor) has the terminal, and starts again.
    func pause()
    func resume()
}

/// The terminal's keys, mouse and size through ncurses: stdin and SIGWINCH as dispatch sources on the loop's queue.
final class CursesKeys: TerminalInputSource {
    private let screen: CursesScreen
    private var input: DispatchSourceRead?
    private var resize: DispatchSourceSignal?

    init(screen: CursesScreen) {
        self.screen = screen
    }

    func start(on queue: DispatchQueue, deliver: @escaping @Sendable ([TerminalInput]) -> Void) {
        let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: queue)
        input.setEventHandler { [unowned self] in
            let inputs = screen.pendingInput()
            // A readable stdin with nothing to read reports a hang-up rather than input.
            deliver(inputs.isEmpty && Self.terminalHungUp() ? [.hungUp] : inputs)
        }
        // SIGWINCH goes to the source instead of ncurses' own handler, which would only report it at the next key.
        signal(SIGWINCH, SIG_IGN)
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: queue)
        resize.setEventHandler { deliver([.resized]) }
        self.input = input
        self.resize = resize
        input.resume()
        resize.resume()
    }

    func pause() {
        input?.suspend()
    }

    func resume() {
        input?.resume()
    }

    /// stdin reports a hang-up or an error rather than input: a readable source with nothing to read.
    private static func terminalHungUp() -> Bool {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) == 1 else { return false }
        return descriptor.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }
}

/// Reading the terminal: ncurses' wide-character input, with its key codes and mouse reports turned into `Key`s
/// and `MouseEvent`s.
extension CursesScreen {
    /// The keys and mouse actions waiting on stdin, without blocking.
    func pendingInput() -> [TerminalInput] {
        var inputs: [TerminalInput] = []
        var character: wint_t = 0
        while true {
            let status = wget_wch(sw_stdscr(), &character)
            if status == ERR { break }
            if status == KEY_CODE_YES {
                if let input = functionKey(Int32(character)) { inputs.append(input) }
            } else if let input = Self.characterKey(character) {
                inputs.append(input)
            }
        }
        return inputs
    }

    private func functionKey(_ code: Int32) -> TerminalInput? {
        switch code {
        case KEY_UP: return .key(.up)
        case KEY_DOWN: return .key(.down)
        case KEY_LEFT: return .key(.left)
        case KEY_RIGHT: return .key(.right)
        case KEY_NPAGE: return .key(.pageDown)
        case KEY_PPAGE: return .key(.pageUp)
        case KEY_HOME: return .key(.home)
        case KEY_END: return .key(.end)
        case KEY_BTAB: return .key(.backTab)
        case KEY_ENTER: return .key(.enter)
        case KEY_BACKSPACE: return .key(.backspace)
        case KEY_RESIZE: return .resized
        case KEY_MOUSE: return mouse()
        default: return nil
        }
    }

    private static func characterKey(_ character: wint_t) -> TerminalInput? {
        switch character {
        case 9: return .key(.tab)
        case 10, 13: return .key(.enter)
        case 12: return .key(.redraw)
        case 27: return .key(.escape)
        case 8, 127: return .key(.backspace)
        case 0..<32: return nil
        default:
            guard let scalar = Unicode.Scalar(UInt32(character)) else { return nil }
            return .key(.character(Character(scalar)))
        }
    }

    private func mouse() -> TerminalInput? {
        var event = MEVENT()
        guard getmouse(&event) == OK else { return nil }
        let action: MouseEvent.Action
        if event.bstate & sw_BUTTON4_PRESSED() != 0 {
            action = .wheelUp
        } else if event.bstate & sw_BUTTON5_PRESSED() != 0 {
            action = .wheelDown
        } else if event.bstate & (sw_BUTTON1_PRESSED() | sw_BUTTON1_CLICKED()) != 0 {
            action = .click
        } else {
            return nil
        }
        return .mouse(MouseEvent(action, x: Int(event.x), y: Int(event.y)))
    }
}
