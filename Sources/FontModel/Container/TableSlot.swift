/// Where one table of a face lives: its bytes in the file, and once read, its decoded object.
/// Glyph-data tables (see `Font.sharedEditTags`) have one slot per file offset, so every face that
/// uses the table sees one object and an edit through any face lands in it. Other tables get a
/// slot per face: an edit to face 3's `hhea` changes face 3 only, and the writer shares the
/// table again where the bytes still match.
final class TableSlot {
    let tag: Tag
    /// The table's bytes in the file, when it came from the file.
    let source: Range<Int>?
    /// Bytes set with `setRawTable`, which win over the source.
    var replacement: [UInt8]? {
        didSet { replacementStorage = nil }
    }
    /// `replacement` in stable storage, for readers of decoded tables that point into it.
    private var replacementStorage: FontBytes?

    var replacementBytes: FontBytes? {
        guard let replacement else { return nil }
        if let replacementStorage { return replacementStorage }
        let storage = FontBytes(replacement)
        replacementStorage = storage
        return storage
    }
    /// The decoded table, once something asked for it.
    var decoded: FontTable?

    init(tag: Tag, source: Range<Int>?) {
        self.tag = tag
        self.source = source
    }

    /// Set when the table must be re-encoded even if no value changed (a fused table is written
    /// canonically, as fontTools writes it).
    var reencode = false

    var isEdited: Bool { replacement != nil || (decoded != nil && reencode) || decoded?.isEdited == true }
}
