/// `bhed` (Apple) — the font header of a bitmap-only font (bloc/bdat and no outlines), laid out
/// field for field as `head`, which it stands in for.
public final class BhedTable: FieldTable {
    public override class var tableTag: Tag { "bhed" }

    public override class var record: Record { HeadTable.described }
}
