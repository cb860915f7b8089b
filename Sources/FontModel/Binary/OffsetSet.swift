/// Offsets into a table already visited (shared subtables, anchors, pair sets), as one bit per
/// byte position: a walk that meets thousands of them pays no hashing and no rehashing.
struct OffsetSet {
    private var words: [UInt64]
    let size: Int

    /// Offsets in 0..<size. One outside is never recorded and `insert` says it is new, so the
    /// caller goes on to read there and reports the bad offset.
    init(size: Int) {
        self.size = max(size, 0)
        words = Array(repeating: 0, count: (self.size + 63) / 64)
    }

    /// Records `offset`; true when it was not there before.
    mutating func insert(_ offset: Int) -> Bool {
        guard offset >= 0, offset < size else { return true }
        let bit: UInt64 = 1 << UInt64(offset % 64)
        guard words[offset / 64] & bit == 0 else { return false }
        words[offset / 64] |= bit
        return true
    }
}
