import Testing
@testable import FontModel

/// kern subtables whose header fields do not fit are a FontError when encoded, not a trap
/// (they can come from a fused TTX file or a script).
@Suite struct KernEncodingTests {
    @Test func fieldsPastTheirWidthAreErrors() {
        let cases: [KernTable] = [
            KernTable(version: 0, subtables: [.init(format: 300, coverage: 1, body: [0, 0])]),
            KernTable(version: 0, subtables: [.init(format: 0, coverage: 256)]),
            KernTable(version: 1, subtables: [.init(format: 0, coverage: 0, tupleIndex: 70000)]),
            KernTable(version: 0, subtables: [.init(format: 0, coverage: 1, pairs: [KernTable.KernPair(1, 2, 40000)])]),
        ]
        for table in cases { #expect(throws: FontError.self) { _ = try table.encode() } }
        #expect(
            (try? KernTable(version: 0, subtables: [.init(format: 0, coverage: 1, pairs: [KernTable.KernPair(1, 2, -50)])]).encode()) != nil
        )
    }
}
