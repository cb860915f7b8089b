import FontModel
import FontScript
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file a command reads besides its font (a text or slices file), registered as an input so
/// no write of the command replaces it; `what` names it in the errors.
func readInputFile(_ path: String, _ what: String) throws -> [UInt8] {
    guard let bytes = readFile(path, limit: 1 << 30) else {
        throw FontError("cannot read the \(what): \(String(cString: strerror(errno)))", path: path)
    }
    return bytes
}

/// A text file's characters; invalid UTF-8 is an error naming the first bad byte's offset
/// (decoding it would turn each bad byte into U+FFFD, a character nobody asked for).
func readUTF8File(_ path: String, _ what: String) throws -> String {
    let bytes = try readInputFile(path, what)
    guard let text = String(validating: bytes, as: UTF8.self) else {
        var offset = 0
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s): offset += UTF8.width(s)
            case .emptyInput, .error: break loop
            }
        }
        throw FontError("the \(what) is not UTF-8 (an invalid byte near offset \(offset))", path: path)
    }
    return text
}
