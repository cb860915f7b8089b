import Testing
@testable import FontModel

@Suite struct ParallelWorkTests {
    /// Every item comes back once, in item order, whatever the count against the chunking
    /// (fewer items than a chunk, a few chunks, many more items than chunks).
    @Test(arguments: [0, 1, 31, 32, 64, 65, 127, 1000, 4099])
    func resultsComeBackInItemOrder(count: Int) throws {
        let doubled = try ParallelWork.map(count, minimumPerChunk: 8) { range in range.map { $0 * 2 } }
        #expect(doubled == (0..<count).map { $0 * 2 })
    }

    /// When several chunks fail, the error thrown is the one of the earliest failing item's
    /// chunk, as if the work had run in order; the other chunks still finish.
    @Test func theFirstFailingChunkByItemOrderIsThrown() {
        struct Failure: Error, Equatable { let item: Int }
        #expect(throws: Failure(item: 300)) {
            _ = try ParallelWork.map(1000, minimumPerChunk: 8) { range in
                try range.map { item in
                    if item == 300 || item == 900 { throw Failure(item: item) }
                    return item
                }
            }
        }
    }

    /// A call from inside another call's chunk works (the bounds of a CFF font can be asked for
    /// while another table's glyphs are spread), and nothing waits on itself.
    @Test func nestedCallsFinish() throws {
        let sums = try ParallelWork.map(64, minimumPerChunk: 4) { outer in
            try outer.map { k in try ParallelWork.map(100, minimumPerChunk: 8) { inner in inner.map { $0 + k } }.reduce(0, +) }
        }
        #expect(sums == (0..<64).map { k in (0..<100).reduce(0, +) + 100 * k })
    }
}
