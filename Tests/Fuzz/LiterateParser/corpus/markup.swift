//: # Title `code` and *emphasis*
//: A paragraph with a [link](@next) and **strong** text.
/*:
 - note: A callout.
 - deep dive: Folded
   body of the deep dive
 1. ordered
 ---
 */
let count = knob("count", default: 2, in: 1...8, "how many")
let mode = knob("mode", default: Mode.fast, "which mode")
let s = """
//: not prose
"""
/* nested /* comment */ still */ let r = #"raw \(x)"#
