/// The description language's escape hatch: a leaf that records of members cannot say (a packed
/// map, runs of values), written as one type that reads and writes its bytes and its TTX. Its
/// value is a plain `StructValue` (integers, and lists and records of them), which Lua shows as
/// numbers and tables and reads back the same way, and which diff compares item by item, so
/// nothing else needs writing. A description uses it as `.custom(MyLeaf.self)`;
/// `Variations/DeltaSetIndexMapLeaves.swift` is the example (HVAR's glyph map, COLR's and avar 2's
/// index map).
public protocol CustomLeaf: Sendable {
    /// Reads the leaf where `reader` stands and leaves `reader` after it. Throw a `FontError`
    /// (a `reader.error(…)`) for bytes that do not hold it; spend the work (`context.spend`,
    /// one per item read) so a hostile table stops.
    static func decode(_ reader: inout BinaryReader, _ context: inout LeafContext) throws -> StructValue
    /// Appends the leaf's bytes; throws a `FontError` for a value it cannot hold.
    static func encode(_ value: StructValue, into writer: inout BinaryWriter, _ context: LeafContext) throws
    /// Its TTX element's attributes and children (the element's name and index are the
    /// description's: `name` here is not used).
    static func ttx(_ value: StructValue, _ context: LeafContext) -> LeafXML
    /// Its value from its TTX element; throw `LeafXML.Problem` naming the element at fault.
    static func value(fromTTX element: LeafXML, _ context: LeafContext) throws -> StructValue
}

/// What a custom leaf may need of the font around it.
public struct LeafContext {
    /// The face's glyph count, where known (reading from a face, writing TTX, reading TTX).
    public var glyphCount: Int?
    /// A glyph's name (TTX writing); `glyphNNN` past the names.
    public var glyphName: (Int) -> String
    /// A glyph id by name (TTX reading; also takes fontTools' `glyph00300`).
    public var glyphID: (String) throws -> Int
    /// Values left to read before the table is refused as fanning out.
    public var budget: Int

    public init(
        glyphCount: Int? = nil, glyphName: @escaping (Int) -> String = { "glyph\($0)" },
        glyphID: @escaping (String) throws -> Int = { throw FontError("no glyph named '\($0)'") }, budget: Int = .max
    ) {
        self.glyphCount = glyphCount; self.glyphName = glyphName; self.glyphID = glyphID; self.budget = budget
    }

    /// The glyph an element's attribute names; a name the font lacks is the element's problem.
    public func glyph(_ element: LeafXML, _ key: String) throws -> Int {
        let name = try element.attribute(key)
        do { return try glyphID(name) } catch let error as FontError { throw element.problem(error.message) }
    }

    /// Spends `n` of the budget; past it, an error naming where.
    public mutating func spend(_ n: Int, _ reader: BinaryReader) throws {
        budget -= n
        guard budget >= 0 else { throw reader.error("more structure than the table's bytes can hold") }
    }
}

/// An XML element as a custom leaf writes and reads it, apart from the XML library (FontXML
/// converts): a name, attributes in order, children, and where it was read.
public struct LeafXML {
    public var name: String
    public var attributes: [(String, String)]
    public var children: [LeafXML]
    public var line = 0, column = 0

    public init(_ name: String, _ attributes: [(String, String)] = [], children: [LeafXML] = []) {
        self.name = name; self.attributes = attributes; self.children = children
    }

    public func value(_ key: String) -> String? { attributes.first { $0.0 == key }?.1 }

    /// An attribute that must be there.
    public func attribute(_ key: String) throws -> String {
        guard let v = value(key) else { throw problem("<\(name)> lacks \(key)=") }
        return v
    }

    /// An integer attribute in a range.
    public func integer(_ key: String, _ range: ClosedRange<Int64>) throws -> Int64 {
        let text = try attribute(key)
        guard let v = Int64(text), range.contains(v) else {
            throw problem("\(key)=\"\(text)\" is not a number in \(range.lowerBound)…\(range.upperBound)")
        }
        return v
    }

    public func problem(_ message: String) -> Problem { Problem(message: message, line: line, column: column) }

    /// What is wrong with an element, and where it is.
    public struct Problem: Error {
        public let message: String
        public let line: Int, column: Int
    }
}

extension StructValue {
    /// A list's items; none for any other value.
    public var listItems: [StructValue] { if case .list(let items) = self { items } else { [] } }
}
