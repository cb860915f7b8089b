/// OpenType's fixed-point numbers as values: `Fixed` (16.16: axis ranges, versions, tracking,
/// CFF's 16.16 operands) and `F2Dot14` (2.14: normalized coordinates, variation regions,
/// composite scales). Each keeps the integer as stored, so a value read and written back is the
/// same bits; `value` is its meaning; `init(rounding:)` is how fontTools stores a number (rounded
/// to the nearest step, halves up).
public protocol FixedPointNumber: Hashable, Comparable, Sendable {
    associatedtype Storage: FixedWidthInteger & SignedInteger & Sendable
    /// Bits after the binary point.
    static var fractionBits: Int { get }
    /// The integer as stored in the font.
    var raw: Storage { get }
    init(raw: Storage)
}

extension FixedPointNumber {
    /// The value of one stored unit's step count: 65536 for 16.16, 16384 for 2.14.
    public static var scale: Double { Double(1 << fractionBits) }

    public var value: Double { Double(raw) / Self.scale }

    /// The nearest stored value to `number` (halves rounded up, as fontTools' otRound); nil
    /// when it is not finite or does not fit the storage.
    public init?(rounding number: Double) {
        let steps = (number * Self.scale + 0.5).rounded(.down)
        guard steps.isFinite, steps >= Double(Storage.min), steps <= Double(Storage.max) else { return nil }
        self.init(raw: Storage(steps))
    }

    /// The nearest stored value, clamped to the storage's range (NaN stores as 0).
    public init(clamping number: Double) {
        let steps = (number * Self.scale + 0.5).rounded(.down)
        self.init(raw: steps.isNaN ? 0 : Storage(min(max(steps, Double(Storage.min)), Double(Storage.max))))
    }

    /// The number with the fewest decimals that still stores as this value (2.37, not
    /// 2.3699951171875): what Lua and diff show.
    public var shortest: Double { shortestDecimal(Int64(raw), scale: Self.scale) }

    public static func < (a: Self, b: Self) -> Bool { a.raw < b.raw }
}

/// A signed 16.16 number.
public struct Fixed: FixedPointNumber {
    public static let fractionBits = 16
    public var raw: Int32
    public init(raw: Int32) { self.raw = raw }
}

/// A signed 2.14 number (-2 up to just under 2).
public struct F2Dot14: FixedPointNumber {
    public static let fractionBits = 14
    public var raw: Int16
    public init(raw: Int16) { self.raw = raw }
}

extension BinaryReader {
    public mutating func fixed() throws -> Fixed { Fixed(raw: try i32()) }
    public mutating func f2dot14() throws -> F2Dot14 { F2Dot14(raw: try i16()) }
}

extension BinaryWriter {
    public mutating func fixed(_ v: Fixed) { i32(v.raw) }
    public mutating func f2dot14(_ v: F2Dot14) { i16(v.raw) }
}
