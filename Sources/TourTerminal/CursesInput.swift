import CNcursesw
import TourInterface

/// What the learner did at the terminal.
enum TerminalInput: Equatable {
    case key(Key)
    case mouse(MouseEvent)
    /// ncurses noticed a new size itself.
    case resized
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
